/* params.c — the parameter getters every family's builder reads its keys
 * with, the canonical "k=v,k=v" text of parsed parameters, and the shared
 * `p=` / `radix=` rule (include/moore/family.h).
 *
 * Getters mark keys as used; after a build, any key the family never read is
 * refused as unknown (src/topology/spec.c). That way a typo such as
 * `slimfly:Q=5` fails loudly instead of silently building the default. */
#include "moore/family.h"
#include "moore/parse.h"
#include "families.h"

#include <stdio.h>
#include <string.h>

static int find_key(const moore_params *p, const char *key)
{
    for (int i = 0; i < p->count; i++)
        if (strcmp(p->key[i], key) == 0)
            return i;
    return -1;
}

int moore_params_has(moore_params *p, const char *key)
{
    int i = find_key(p, key);
    if (i >= 0)
        p->used[i] = 1;
    return i >= 0;
}

const char *moore_params_str(moore_params *p, const char *key, const char *def)
{
    int i = find_key(p, key);
    if (i < 0)
        return def;
    p->used[i] = 1;
    return p->value[i];
}

/* The message for a value that breaks the number rule (include/moore/parse.h)
 * or its range; `rule` says what was expected, `range` is "lo..hi". */
static int param_refused(const moore_params *p, const char *key, const char *s,
                         moore_parse_status st, const char *rule, const char *range,
                         moore_error *err)
{
    if (st == MOORE_PARSE_SYNTAX)
        return moore_error_set(err, MOORE_EINVAL, "%s: %s=%s is not %s", p->family, key, s, rule);
    return moore_error_set(err, MOORE_EINVAL, "%s: %s=%s is outside %s", p->family, key, s,
                           range);
}

int moore_params_int(moore_params *p, const char *key, int64_t def, int64_t lo,
                     int64_t hi, int64_t *out, moore_error *err)
{
    const char *s = moore_params_str(p, key, NULL);
    *out = def;
    if (!s)
        return MOORE_OK;
    moore_parse_status st = moore_parse_int(s, lo, hi, out);
    if (st == MOORE_PARSE_OK)
        return MOORE_OK;
    char range[64];
    snprintf(range, sizeof range, "%lld..%lld", (long long)lo, (long long)hi);
    return param_refused(p, key, s, st,
                         "an integer (decimal digits, no '+', blanks or leading zeros)", range,
                         err);
}

int moore_params_double(moore_params *p, const char *key, double def, double lo,
                        double hi, double *out, moore_error *err)
{
    const char *s = moore_params_str(p, key, NULL);
    *out = def;
    if (!s)
        return MOORE_OK;
    moore_parse_status st = moore_parse_number(s, lo, hi, out);
    if (st == MOORE_PARSE_OK)
        return MOORE_OK;
    char range[64];
    snprintf(range, sizeof range, "%g..%g", lo, hi);
    return param_refused(p, key, s, st, "a number (such as 0.25 or 1e-3)", range, err);
}

int moore_params_format(const moore_params *p, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->count; i++) {
        int w = snprintf(buf + used, len - used, "%s%s=%s", i ? "," : "", p->key[i], p->value[i]);
        if (w < 0 || (size_t)w >= len - used)
            return MOORE_EINVAL;
        used += (size_t)w;
    }
    return MOORE_OK;
}

int moore_family_resolve_endpoints(moore_params *p, int32_t degree, int32_t def_p,
                                   int32_t *out, moore_error *err)
{
    int64_t v;
    int rc;
    if (moore_params_has(p, "p") && moore_params_has(p, "radix"))
        return moore_error_set(err, MOORE_EINVAL, "%s: give p= or radix=, not both", p->family);
    if (moore_params_has(p, "p")) {
        rc = moore_params_int(p, "p", def_p, 0, 1 << 20, &v, err);
        if (rc)
            return rc;
        *out = (int32_t)v;
        return MOORE_OK;
    }
    if (moore_params_has(p, "radix")) {
        rc = moore_params_int(p, "radix", 0, 1, 1 << 20, &v, err);
        if (rc)
            return rc;
        if (v - degree < 1)
            return moore_error_set(err, MOORE_EINVAL,
                                   "%s: radix=%lld leaves no port for endpoints (network degree "
                                   "%d needs radix >= %d)",
                                   p->family, (long long)v, (int)degree, (int)degree + 1);
        *out = (int32_t)(v - degree);
        return MOORE_OK;
    }
    *out = def_p;
    return MOORE_OK;
}

/* OFT and Bundlefly are made from a PolarFly and a Slim Fly of the same q: the
 * row is called directly with parameters made here, so no SPEC text is printed
 * and parsed and nothing calls up to the topology layer. */
void fam_params_q(moore_params *p, const char *family, int64_t q)
{
    memset(p, 0, sizeof *p);
    p->family = family;
    p->count = 1;
    snprintf(p->key[0], sizeof p->key[0], "q");
    snprintf(p->value[0], sizeof p->value[0], "%lld", (long long)q);
}
