/* torus.c — the k-ary n-cube and its mixed-radix cousins: dims=A×B×…, each
 * dimension a ring with wrap-around links (Blue Gene, Cray Gemini, Tofu).
 *
 * A dimension of size 2 is a single link (its two ring links would join the
 * same pair of switches, and the graph is simple), so a switch has 2 links per
 * dimension, 1 per dimension of size 2; sizes 0 and 1 are refused. The
 * diameter is Σ ⌊A_i/2⌋. Switch ids are mixed-radix words, first dimension
 * fastest. */
#include "families.h"

#define TORUS_MAX_DIMS 16

const moore_param_info fam_torus_params[] = {
    { "dims", "", "ring sizes, e.g. 8x8x8 (each >= 2)" },
    MOORE_PARAM_P("1"),
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

/* The rings; grid.c holds the closed forms and the p= / radix= rule. */
int fam_torus_shape(moore_params *pp, moore_grid *g, moore_error *err)
{
    return fam_grid_parse("torus", moore_params_str(pp, "dims", NULL), 2, TORUS_MAX_DIMS, 1,
                            g, err);
}

int fam_torus_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    return fam_grid_family_counts(pp, fam_torus_shape, c, err);
}

int fam_torus_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    return fam_grid_family_build(pp, fam_torus_shape, out, err);
}

/* 3-D tori: the cubes k×k×k for k = 2 … 32 and, with a target, the
 * smallest near-cube reaching it (grid.c, fam_grid_plan3). Other shapes
 * via dims= directly. */
int fam_torus_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                     moore_error *err)
{
    return fam_grid_plan3("torus", 2, 0, 1, radix, endpoints, emit, ctx, err);
}
