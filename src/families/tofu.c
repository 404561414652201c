/* tofu.c — Tofu (Ajima, Sumimoto & Shimizu, IEEE Computer 2009; the K
 * computer's interconnect): a 6-D mesh/torus X×Y×Z×A×B×C. dims=X×Y×Z sets
 * the three torus dimensions; every grid point holds one Tofu unit of
 * 2×3×2 switches (A and C a path of 2, B a ring of 3), so N = 12·X·Y·Z.
 *
 * Each switch links to its unit's neighbours (1 in A, 2 in B, 1 in C) and
 * to the same position of the neighbouring units in X, Y and Z (rings; a ring
 * of 2 is one link, of 1 none): network degree 4 + Σ min(2, X_i − 1), the 10
 * links of the paper when X, Y, Z ≥ 3. Diameter Σ ⌊X_i/2⌋ + 3. One node per
 * switch (p = 1), as in the K computer. Switch ids are mixed-radix words
 * x, y, z, a, b, c with x fastest (grid.c). */
#include "families.h"

const moore_param_info fam_tofu_params[] = {
    { "dims", "", "X, Y, Z torus sizes of the unit grid, e.g. 4x4x4 (each >= 1)" },
    MOORE_PARAM_P("1"),
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

int fam_tofu_shape(moore_params *pp, moore_grid *g, moore_error *err)
{
    const char *dims = moore_params_str(pp, "dims", NULL);
    int rc = fam_grid_parse("tofu", dims, 1, 3, 1, g, err);
    if (rc)
        return rc;
    if (g->nd != 3)
        return moore_error_set(err, MOORE_EINVAL, "tofu: dims=%s has %d dimensions; Tofu has "
                               "three torus dimensions X, Y, Z (e.g. dims=4x4x4)", dims, g->nd);
    /* the unit: A a path of 2, B a ring of 3, C a path of 2 */
    if ((rc = fam_grid_add(g, 2, 0, "tofu", err)) || (rc = fam_grid_add(g, 3, 1, "tofu", err)))
        return rc;
    return fam_grid_add(g, 2, 0, "tofu", err);
}

int fam_tofu_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    return fam_grid_family_counts(pp, fam_tofu_shape, c, err);
}

int fam_tofu_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    return fam_grid_family_build(pp, fam_tofu_shape, out, err);
}

/* Unit grids k×k×k (k = 1 … 32) and, with a target, the smallest near-cube
 * reaching it; 12 switches per grid point with 4 unit links each, p =
 * min(degree, R − degree) (grid.c). */
int fam_tofu_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                    moore_error *err)
{
    return fam_grid_plan3("tofu", 1, 4, 12, radix, endpoints, emit, ctx, err);
}
