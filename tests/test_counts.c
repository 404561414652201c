/* test_counts.c — closed-form counts at the edges of every family's keys.
 *
 * Each family's first planned configuration for radix 48 is taken, and each
 * of its keys in turn is set to values near and past the 32- and 64-bit
 * limits (46,342 is the first k whose k^2 overflows an int). Every SPEC must
 * either be refused with a message, or give counts moore can build and that
 * obey the handshake lemma: n·degree_min <= 2·links <= n·degree_max, links
 * at most n(n−1)/2, so an overflowed or wrapped count cannot pass. A count
 * past MOORE_MAX_SWITCHES must be refused by building too, before the
 * builder's 32-bit arithmetic. Run under UBSan in the sanitizer build. */
#include "testutil.h"
#include "moore/family.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct first_spec {
    char spec[256];
    int found;
} first_spec;

static int keep_first(void *ctx, const char *spec, moore_error *err)
{
    (void)err;
    first_spec *f = ctx;
    if (!f->found) {
        snprintf(f->spec, sizeof f->spec, "%s", spec);
        f->found = 1;
    }
    return MOORE_OK;
}

/* spec with key set to value (replaced, or appended when absent) */
static void with_key(const char *spec, const char *key, const char *value, char *out, size_t len)
{
    const char *colon = strchr(spec, ':');
    size_t fam = colon ? (size_t)(colon - spec) : strlen(spec);
    int n = snprintf(out, len, "%.*s:%s=%s", (int)fam, spec, key, value);
    if (!colon)
        return;
    char rest[256];
    snprintf(rest, sizeof rest, "%s", colon + 1);
    for (char *tok = strtok(rest, ","); tok; tok = strtok(NULL, ",")) {
        size_t k = strlen(key);
        if (strncmp(tok, key, k) == 0 && tok[k] == '=')
            continue;
        n += snprintf(out + n, len - (size_t)n, ",%s", tok);
    }
}

static void check_spec(const char *spec)
{
    moore_counts c;
    moore_error err = { 0 };
    if (moore_spec_counts(spec, &c, &err) != MOORE_OK) {
        if (err.msg[0] == '\0')
            fail_msg("%s: refused without a message", spec);
        return;
    }
    double n = (double)c.switches;
    if (c.switches < 1 || c.switches > MOORE_MAX_SWITCHES || c.links < 0 ||
        c.degree_min < 0 || c.degree_min > c.degree_max || c.endpoints < 0 ||
        2.0 * (double)c.links < n * c.degree_min || 2.0 * (double)c.links > n * c.degree_max ||
        (double)c.links > n * (n - 1) / 2)
        fail_msg("%s: counts out of range: %lld switches, %lld links, degree %d..%d, "
                 "%lld endpoints", spec, (long long)c.switches, (long long)c.links,
                 (int)c.degree_min, (int)c.degree_max, (long long)c.endpoints);
}

static void every_family_at_its_limits(void **state)
{
    (void)state;
    static const char *const values[] = { "46341", "46342", "65535", "65536", "1000000",
                                          "2147483647", "2147483648", "4294967297",
                                          "9223372036854775807" };
    int families = 0;
    for (const moore_family *f = moore_families(); f->name; f++) {
        if (!f->counts || !f->plan)
            continue;
        first_spec first = { "", 0 };
        moore_error err = { 0 };
        assert_int_equal(f->plan(48, 0, keep_first, &first, &err), MOORE_OK);
        if (!first.found)
            continue;
        families++;
        check_spec(first.spec);
        char spec[512];
        for (const moore_param_info *p = f->params; p->key; p++)
            for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
                with_key(first.spec, p->key, values[v], spec, sizeof spec);
                check_spec(spec);
            }
    }
    assert_true(families >= 20);
}

/* k >= 46,342 overflowed int in the fat-tree's builder (k*k); any k whose
 * 5k^2/4 switches exceed MOORE_MAX_SWITCHES is refused before it. */
static void fattree_too_big_is_refused(void **state)
{
    (void)state;
    moore_graph *g = NULL;
    moore_error err = { 0 };
    assert_int_not_equal(moore_spec_build("fattree:k=65536", &g, &err), MOORE_OK);
    assert_null(g);
    assert_non_null(strstr(err.msg, "5368709120 switches"));
    moore_counts c;
    assert_int_not_equal(moore_spec_counts("fattree:k=8946", &c, &err), MOORE_OK);
    /* the largest that fits: 5 * 8944^2 / 4 = 99,993,920 switches */
    assert_int_equal(moore_spec_counts("fattree:k=8944", &c, &err), MOORE_OK);
    assert_int_equal(c.switches, 99993920);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_family_at_its_limits),
        cmocka_unit_test(fattree_too_big_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
