/* hypercube.c — the binary n-cube Q_n (the Cosmic Cube, the nCUBE, the SGI
 * Origin): 2^n switches, switch v linked to v XOR 2^i for every bit i, so
 * network degree n, n·2^(n−1) links and diameter n. It is the torus 2×2×…×2
 * and is built by the grid helper (grid.c) with n dimensions of size 2; the
 * label of a switch is its bits, lowest first. One node per switch (p = 1). */
#include "families.h"

const moore_param_info fam_hypercube_params[] = {
    { "n", "", "dimensions, 1..26 (2^n switches, degree and diameter n)" },
    MOORE_PARAM_P("1"),
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

int fam_hypercube_shape(moore_params *pp, moore_grid *g, moore_error *err)
{
    int64_t n;
    int rc = moore_params_int(pp, "n", -1, 1, 26, &n, err);
    if (rc)
        return rc;
    if (n < 0)
        return moore_error_set(err, MOORE_EINVAL, "hypercube: n= is required (dimensions)");
    for (int64_t i = 0; !rc && i < n; i++)
        rc = fam_grid_add(g, 2, 1, "hypercube", err);
    return rc;
}

int fam_hypercube_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    return fam_grid_family_counts(pp, fam_hypercube_shape, c, err);
}

int fam_hypercube_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    return fam_grid_family_build(pp, fam_hypercube_shape, out, err);
}

/* n = 2 … while 2^n stays within the listing size and a port is left, p =
 * min(n, R − n) (never more endpoint ports than network ports, as for the
 * torus); with a target, on up to the first n that reaches it. */
int fam_hypercube_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                         moore_error *err)
{
    for (int64_t n = 2; n < radix && n <= 26; n++) {
        int64_t size = (int64_t)1 << n, p = radix - n < n ? radix - n : n;
        if (size > MOORE_PLAN_LIST_SWITCHES && (endpoints <= 0 || size > MOORE_MAX_SWITCHES / 10))
            break;
        int reaches = endpoints > 0 && size * p >= endpoints;
        if (size <= MOORE_PLAN_LIST_SWITCHES || reaches) {
            int rc = fam_emit(emit, ctx, err, "hypercube:n=%lld,p=%lld", (long long)n,
                                       (long long)p);
            if (rc || (reaches && size > MOORE_PLAN_LIST_SWITCHES))
                return rc;
        }
    }
    return MOORE_OK;
}
