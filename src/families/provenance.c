/* provenance.c — the `lift:` and `expand:` families: SPECs that rebuild what
 * `moore lift` and `moore expand` write, byte for byte (docs/families.md,
 * "lift and expand"). The header of such a file names one of them:
 *     lift:times=T,seed=S,tries=N,evals=E,of=SPEC
 *     expand:add=M,degree=D,seed=S,of=SPEC
 * `of` is always the last key and takes the rest of the SPEC, commas and all
 * (src/topology/spec.c), so any SPEC, a file, or another lift can be inside. */
#include "families.h"
#include "moore/jellyfish.h"
#include "moore/lift.h"

#include <stdint.h>
#include <stdio.h>

const moore_param_info fam_lift_params[] = {
    { "times", "1", "2-lifts in a row (N -> 2^times N)" },
    { "seed", "1", "seed of the signing search; lift i uses seed+i-1" },
    { "tries", "4", "random starting signings per lift" },
    { "evals", "32", "eigen-solves per try for the greedy flips" },
    { "of", "", "the topology lifted: a SPEC or file, always the last key" },
    { NULL, NULL, NULL }
};

const moore_param_info fam_expand_params[] = {
    { "add", "", "switches added the way Jellyfish grows" },
    { "degree", "-", "network degree of the new switches (default: the largest in of)" },
    { "seed", "1", "seed of the random choices" },
    { "of", "", "the topology expanded: a SPEC or file, always the last key" },
    { NULL, NULL, NULL }
};

/* Loads of=, required. */
static int provenance_of(moore_params *p, moore_graph **g, moore_error *err)
{
    const char *of = moore_params_str(p, "of", NULL);
    if (!of)
        return moore_error_set(err, MOORE_EINVAL, "%s: of= is required (the topology it "
                               "starts from, as the last key)", p->family);
    if (!p->loader)
        return moore_error_set(err, MOORE_EINVAL, "%s: of=%s needs a topology loader (build "
                               "it with moore_spec_build)", p->family, of);
    return p->loader->load(of, g, err);
}

/* The params a lift of g records, the same string moore lift writes; of is
 * g's own origin (family:params) so both ways of making it agree. */
static int lift_origin(moore_graph *h, const moore_graph *g, int64_t times, int64_t seed,
                       int64_t tries, int64_t evals, moore_error *err)
{
    char params[512];
    const char *of = moore_graph_spec(g);
    snprintf(params, sizeof params, "times=%lld,seed=%lld,tries=%lld,evals=%lld,of=%s",
             (long long)times, (long long)seed, (long long)tries, (long long)evals,
             of ? of : "file");
    return moore_graph_set_origin(h, "lift", params, err);
}

int moore_lift_times(const moore_graph *g, int times, const moore_lift_options *lo,
                     moore_lift_step step, void *ctx, moore_graph **out, moore_error *err)
{
    moore_graph *cur = NULL;
    int rc = MOORE_OK;
    *out = NULL;
    for (int i = 1; i <= times && !rc; i++) {
        moore_lift_options o = *lo;
        moore_lift_result r;
        moore_graph *h = NULL;
        o.seed = lo->seed + (uint64_t)(i - 1);
        rc = moore_lift(cur ? cur : g, &o, &h, &r, err);
        if (!rc && step)
            rc = step(ctx, i, cur ? cur : g, h, &r);
        moore_graph_free(cur);
        cur = h;
    }
    if (!rc)
        rc = lift_origin(cur, g, times, (int64_t)lo->seed, lo->tries, lo->max_evals, err);
    if (!rc) {
        *out = cur;
        cur = NULL;
    }
    moore_graph_free(cur);
    return rc;
}

int fam_lift_build(moore_params *p, moore_graph **out, moore_error *err)
{
    int64_t times = 1, seed = 1, tries = 4, evals = 32;
    moore_graph *g = NULL;
    int rc = moore_params_int(p, "times", 1, 1, 20, &times, err);
    if (!rc) rc = moore_params_int(p, "seed", 1, 0, INT64_MAX / 2, &seed, err);
    if (!rc) rc = moore_params_int(p, "tries", 4, 1, 100000, &tries, err);
    if (!rc) rc = moore_params_int(p, "evals", 32, 1, 100000, &evals, err);
    if (!rc) rc = provenance_of(p, &g, err);
    moore_lift_options o;
    moore_lift_options_default(&o);
    o.seed = (uint64_t)seed;
    o.tries = (int)tries;
    o.max_evals = (int)evals;
    if (!rc)
        rc = moore_lift_times(g, (int)times, &o, NULL, NULL, out, err);
    moore_graph_free(g);
    return rc;
}

int fam_expand_build(moore_params *p, moore_graph **out, moore_error *err)
{
    int64_t add = -1, degree = 0, seed = 1;
    moore_graph *g = NULL;
    int rc = moore_params_int(p, "add", -1, 1, 100000000, &add, err);
    if (!rc && add < 0)
        rc = moore_error_set(err, MOORE_EINVAL, "expand: add= is required (switches to add)");
    if (!rc) rc = moore_params_int(p, "degree", 0, 0, 1 << 20, &degree, err);
    if (!rc) rc = moore_params_int(p, "seed", 1, 0, INT64_MAX, &seed, err);
    if (!rc) rc = provenance_of(p, &g, err);
    if (!rc)
        rc = moore_jellyfish_expand(g, (int32_t)add, (int32_t)degree, (uint64_t)seed, out, err);
    moore_graph_free(g);
    return rc;
}
