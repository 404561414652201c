/* fuzz_spec.c — libFuzzer harness for SPEC parsing and building
 * (docs/fuzzing.md).
 *
 * Each input (up to 256 bytes) is taken as a SPEC string. It is parsed and,
 * when its family has closed-form counts, counted; topologies are built only
 * up to FUZZ_MAX_SWITCHES switches and FUZZ_MAX_LINKS links, so one input
 * stays fast. A built graph must match its closed-form counts (switches,
 * links, degrees, endpoints), the identity every family promises in
 * docs/families.md; a mismatch is reported as a crash. */
#include <moore/moore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_SPEC 256
#define FUZZ_MAX_SWITCHES 2000
#define FUZZ_MAX_LINKS 20000

static void require(int ok, const char *what, const char *spec)
{
    if (!ok) {
        fprintf(stderr, "fuzz_spec: %s for SPEC '%s'\n", what, spec);
        abort();
    }
}

static void one_line(const moore_error *err, const char *spec)
{
    require(err->msg[0] != '\0' && strchr(err->msg, '\n') == NULL,
            "a refusal is not exactly one line", spec);
}

static void check_counts(const moore_graph *g, const moore_counts *c, const char *spec)
{
    require(g->n == c->switches, "switches differ from the closed form", spec);
    require(g->m == c->links, "links differ from the closed form", spec);
    require(moore_graph_degree_min(g) == c->degree_min, "degree_min differs", spec);
    require(moore_graph_degree_max(g) == c->degree_max, "degree_max differs", spec);
    require(moore_graph_endpoints_total(g) == c->endpoints, "endpoints differ", spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > FUZZ_MAX_SPEC)
        return 0;
    char spec[FUZZ_MAX_SPEC + 1];
    memcpy(spec, data, size);
    spec[size] = '\0';
    if (strlen(spec) != size)
        return 0; /* an embedded NUL: not a C string */

    moore_error err;
    moore_error_clear(&err);
    const moore_family *fam = NULL;
    moore_params params;
    memset(&params, 0, sizeof params);
    if (moore_spec_parse(spec, &fam, &params, &err)) {
        one_line(&err, spec);
        return 0;
    }
    moore_counts c;
    int have_counts = 0;
    if (fam->counts) {
        if (moore_spec_counts(spec, &c, &err)) {
            one_line(&err, spec);
            return 0;
        }
        if (c.switches > FUZZ_MAX_SWITCHES || c.links > FUZZ_MAX_LINKS)
            return 0;
        have_counts = 1;
    }
    moore_graph *g = NULL;
    if (moore_spec_build(spec, &g, &err)) {
        require(g == NULL, "a refused SPEC left a graph", spec);
        one_line(&err, spec);
        return 0;
    }
    if (have_counts)
        check_counts(g, &c, spec);
    moore_graph_free(g);
    return 0;
}
