/* families.h — internal: the builders, counts and planners that registry.c
 * puts in the family table. One block per family file. */
#ifndef MOORE_SRC_FAMILIES_H
#define MOORE_SRC_FAMILIES_H

#include "moore/family.h"

/* classic.c: reference graphs built independently of any family */
extern const moore_param_info fam_complete_params[], fam_petersen_params[],
    fam_hoffman_singleton_params[];
int fam_complete_build(moore_params *, moore_graph **, moore_error *);
int fam_complete_counts(moore_params *, moore_counts *, moore_error *);
int fam_petersen_build(moore_params *, moore_graph **, moore_error *);
int fam_hoffman_singleton_build(moore_params *, moore_graph **, moore_error *);

/* slimfly.c: the MMS graph */
extern const moore_param_info fam_slimfly_params[];
int fam_slimfly_build(moore_params *, moore_graph **, moore_error *);
int fam_slimfly_counts(moore_params *, moore_counts *, moore_error *);
int fam_slimfly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* finish.c: shared last steps of the baseline families */
typedef void (*moore_family_labeler)(const void *ctx, int32_t v, char *buf, size_t len);
/* The last step of a family build: finishes *b (which it frees and sets to
 * NULL on every path), gives every switch p endpoints and, when label is not
 * NULL, names every switch. *out is set only on success. */
int fam_graph_finish(moore_builder **b, int32_t p, moore_family_labeler label, const void *ctx,
                     moore_graph **out, moore_error *err);
/* Formats a SPEC and passes it to a planner's emit callback. */
int fam_emit(moore_plan_emit emit, void *ctx, moore_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Without a target endpoint count, planners list configurations up to this
 * many switches ("practical size", family.h). */
#define MOORE_PLAN_LIST_SWITCHES 1000000

/* fattree.c, dragonfly.c, hyperx.c, torus.c, polarfly.c: the baselines */
extern const moore_param_info fam_fattree_params[], fam_dragonfly_params[],
    fam_hyperx_params[], fam_torus_params[], fam_polarfly_params[];
int fam_fattree_build(moore_params *, moore_graph **, moore_error *);
int fam_fattree_counts(moore_params *, moore_counts *, moore_error *);
int fam_fattree_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_dragonfly_build(moore_params *, moore_graph **, moore_error *);
int fam_dragonfly_counts(moore_params *, moore_counts *, moore_error *);
int fam_dragonfly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_hyperx_build(moore_params *, moore_graph **, moore_error *);
int fam_hyperx_counts(moore_params *, moore_counts *, moore_error *);
int fam_hyperx_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_torus_build(moore_params *, moore_graph **, moore_error *);
int fam_torus_counts(moore_params *, moore_counts *, moore_error *);
int fam_torus_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_polarfly_build(moore_params *, moore_graph **, moore_error *);
int fam_polarfly_counts(moore_params *, moore_counts *, moore_error *);
int fam_polarfly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
/* xpander.c: Xpander (meta-graph lifted by perfect matchings; both variants) */
extern const moore_param_info fam_xpander_params[];
int fam_xpander_build(moore_params *, moore_graph **, moore_error *);
int fam_xpander_counts(moore_params *, moore_counts *, moore_error *);
int fam_xpander_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* jellyfish.c: Jellyfish random regular graphs */
extern const moore_param_info fam_jellyfish_params[];
int fam_jellyfish_build(moore_params *, moore_graph **, moore_error *);
int fam_jellyfish_counts(moore_params *, moore_counts *, moore_error *);
int fam_jellyfish_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* low-diameter families of the field's papers: mlfm.c, oft.c, megafly.c, cascade.c,
 * spectralfly.c, bundlefly.c, polarstar.c, delorme.c */
extern const moore_param_info fam_mlfm_params[], fam_oft_params[], fam_megafly_params[],
    fam_cascade_params[], fam_spectralfly_params[], fam_bundlefly_params[],
    fam_polarstar_params[], fam_delorme_params[];
int fam_mlfm_build(moore_params *, moore_graph **, moore_error *);
int fam_mlfm_counts(moore_params *, moore_counts *, moore_error *);
int fam_mlfm_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_oft_build(moore_params *, moore_graph **, moore_error *);
int fam_oft_counts(moore_params *, moore_counts *, moore_error *);
int fam_oft_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_megafly_build(moore_params *, moore_graph **, moore_error *);
int fam_megafly_counts(moore_params *, moore_counts *, moore_error *);
int fam_megafly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_cascade_build(moore_params *, moore_graph **, moore_error *);
int fam_cascade_counts(moore_params *, moore_counts *, moore_error *);
int fam_cascade_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_spectralfly_build(moore_params *, moore_graph **, moore_error *);
int fam_spectralfly_counts(moore_params *, moore_counts *, moore_error *);
int fam_spectralfly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_bundlefly_build(moore_params *, moore_graph **, moore_error *);
int fam_bundlefly_counts(moore_params *, moore_counts *, moore_error *);
int fam_bundlefly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_polarstar_build(moore_params *, moore_graph **, moore_error *);
int fam_polarstar_counts(moore_params *, moore_counts *, moore_error *);
int fam_polarstar_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_delorme_build(moore_params *, moore_graph **, moore_error *);
int fam_delorme_counts(moore_params *, moore_counts *, moore_error *);
int fam_delorme_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
/* bundlefly.c: Paley graphs over GF(r) for Bundlefly and PolarStar. */
struct moore_gf;
/* square[x] = 1 for the nonzero squares x of GF(r) (f->q = r). */
int fam_paley_squares(const struct moore_gf *f, char *square);
/* Refuses r that is not a prime power = 1 mod 4 (or too large), naming family. */
int fam_paley_check(const char *family, int64_t r, moore_error *err);
/* params.c: the parameters "q=Q" of row `family`, to call its build or
 * counts directly (PolarFly's ER_q and Slim Fly's MMS graph as the base of
 * OFT, PolarStar and Bundlefly). */
void fam_params_q(moore_params *p, const char *family, int64_t q);
/* oft.c: the endpoints a planner gives a switch of network degree `degree`:
 * the family's default, capped by the radix's free ports (>= 1 when
 * degree < radix). */
int64_t fam_plan_p(int32_t radix, int64_t degree, int64_t def);
/* oft.c: refuses a build whose builder and CSR would not fit in memory. */
int fam_guard(const moore_counts *c, const char *family, moore_error *err);
/* megafly.c: round-robin global links, m between every two of `groups`
 * groups; link t of group i (listed by destination group, then 0..m-1) sits
 * on switch i*stride + offset + t mod routers. */
int fam_global_links(moore_builder *b, int64_t groups, int64_t routers, int64_t m,
                              int64_t stride, int64_t offset, moore_error *err);
/* clos.c: folded Clos of 2 or 3 tiers from one radix, any server count */
extern const moore_param_info fam_clos_params[];
int fam_clos_build(moore_params *, moore_graph **, moore_error *);
int fam_clos_counts(moore_params *, moore_counts *, moore_error *);
int fam_clos_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* grid.c: products of paths and rings (src/families/grid.h) */
#include "families/grid.h"
/* Planner of 3-D grids "family:dims=AxBxC,p=P": the cubes k^3 for k = kmin …
 * 32 and, with a target, the smallest near-cube (k+1)^i k^(3-i) reaching it;
 * each grid point holds `units` switches with `extra` more network ports. */
int fam_grid_plan3(const char *family, int64_t kmin, int32_t extra, int64_t units,
                     int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                     moore_error *err);

/* mesh.c, tofu.c, hypercube.c: grids without (or with some) wrap-around */
extern const moore_param_info fam_mesh_params[], fam_tofu_params[],
    fam_hypercube_params[];
int fam_mesh_build(moore_params *, moore_graph **, moore_error *);
int fam_mesh_counts(moore_params *, moore_counts *, moore_error *);
int fam_mesh_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_tofu_build(moore_params *, moore_graph **, moore_error *);
int fam_tofu_counts(moore_params *, moore_counts *, moore_error *);
int fam_tofu_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_hypercube_build(moore_params *, moore_graph **, moore_error *);
int fam_hypercube_counts(moore_params *, moore_counts *, moore_error *);
int fam_hypercube_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* flatbutterfly.c, karyntree.c, xgft.c: butterflies and fat-trees */
extern const moore_param_info fam_flatbutterfly_params[], fam_karyntree_params[],
    fam_xgft_params[];
int fam_flatbutterfly_build(moore_params *, moore_graph **, moore_error *);
int fam_flatbutterfly_counts(moore_params *, moore_counts *, moore_error *);
int fam_flatbutterfly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_karyntree_build(moore_params *, moore_graph **, moore_error *);
int fam_karyntree_counts(moore_params *, moore_counts *, moore_error *);
int fam_karyntree_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_xgft_build(moore_params *, moore_graph **, moore_error *);
int fam_xgft_counts(moore_params *, moore_counts *, moore_error *);
int fam_xgft_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* kautz.c, arrangement.c: word graphs */
extern const moore_param_info fam_kautz_params[], fam_arrangement_params[];
int fam_kautz_build(moore_params *, moore_graph **, moore_error *);
int fam_kautz_counts(moore_params *, moore_counts *, moore_error *);
int fam_kautz_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int fam_arrangement_build(moore_params *, moore_graph **, moore_error *);
int fam_arrangement_counts(moore_params *, moore_counts *, moore_error *);
int fam_arrangement_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* provenance.c: lift: and expand: SPECs that rebuild moore lift / moore expand output */
extern const moore_param_info fam_lift_params[], fam_expand_params[];
int fam_lift_build(moore_params *, moore_graph **, moore_error *);
int fam_expand_build(moore_params *, moore_graph **, moore_error *);

#endif
