/* mesh.c — the mesh: dims=A×B×…, each dimension a path (a torus without the
 * wrap-around links), the grid of the Intel Paragon and of on-chip networks.
 *
 * Switch ids are mixed-radix words, first dimension fastest (grid.c). A
 * switch has 2 links per dimension in the interior and 1 on a face, so the
 * network degree runs from L (a corner) to Σ min(2, A_i − 1); links
 * Σ (A_i − 1)·N/A_i; diameter Σ (A_i − 1). Sizes below 2 are refused. */
#include "families.h"

#define MESH_MAX_DIMS 16

const moore_param_info fam_mesh_params[] = {
    { "dims", "", "path lengths, e.g. 8x8 (each >= 2)" },
    MOORE_PARAM_P("1"),
    { "radix", "-", "switch radix; sets p = radix - (largest) network degree" },
    { NULL, NULL, NULL }
};

int fam_mesh_shape(moore_params *pp, moore_grid *g, moore_error *err)
{
    return fam_grid_parse("mesh", moore_params_str(pp, "dims", NULL), 2, MESH_MAX_DIMS, 0, g,
                            err);
}

int fam_mesh_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    return fam_grid_family_counts(pp, fam_mesh_shape, c, err);
}

int fam_mesh_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    return fam_grid_family_build(pp, fam_mesh_shape, out, err);
}

/* 3-D meshes k×k×k (k = 2 … 32) and, with a target, the smallest near-cube
 * reaching it; p = min(degree, R − degree) as for the torus (grid.c). */
int fam_mesh_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                    moore_error *err)
{
    return fam_grid_plan3("mesh", 2, 0, 1, radix, endpoints, emit, ctx, err);
}
