/* families.h — internal: the builders, counts and planners that registry.c
 * puts in the family table. One block per family file. */
#ifndef MOORE_SRC_FAMILIES_H
#define MOORE_SRC_FAMILIES_H

#include "moore/family.h"

/* classic.c: reference graphs built independently of any family */
extern const moore_param_info moore_complete_params[], moore_petersen_params[],
    moore_hoffman_singleton_params[];
int moore_complete_build(moore_params *, moore_graph **, moore_error *);
int moore_complete_counts(moore_params *, moore_counts *, moore_error *);
int moore_petersen_build(moore_params *, moore_graph **, moore_error *);
int moore_hoffman_singleton_build(moore_params *, moore_graph **, moore_error *);

/* slimfly.c: the MMS graph */
extern const moore_param_info moore_slimfly_params[];
int moore_slimfly_build(moore_params *, moore_graph **, moore_error *);
int moore_slimfly_counts(moore_params *, moore_counts *, moore_error *);
int moore_slimfly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* finish.c: shared last steps of the baseline families */
typedef void (*moore_family_labeler)(const void *ctx, int32_t v, char *buf, size_t len);
/* The end of every family build: rc is the code of the steps that added the
 * links (b may be NULL when rc is set). When rc is set, frees b and returns
 * it; else finishes b (freed either way), sets p endpoints on every switch
 * and, when label is not NULL, names every switch. */
int moore_family_finish(moore_builder *b, int rc, int32_t p, moore_family_labeler label,
                        const void *ctx, moore_graph **out, moore_error *err);
/* Formats a SPEC and passes it to a planner's emit callback. */
int moore_family_emit(moore_plan_emit emit, void *ctx, moore_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Without a target endpoint count, planners list configurations up to this
 * many switches ("practical size", family.h). */
#define MOORE_PLAN_LIST_SWITCHES 1000000

/* fattree.c, dragonfly.c, hyperx.c, torus.c, polarfly.c: the baselines */
extern const moore_param_info moore_fattree_params[], moore_dragonfly_params[],
    moore_hyperx_params[], moore_torus_params[], moore_polarfly_params[];
int moore_fattree_build(moore_params *, moore_graph **, moore_error *);
int moore_fattree_counts(moore_params *, moore_counts *, moore_error *);
int moore_fattree_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_dragonfly_build(moore_params *, moore_graph **, moore_error *);
int moore_dragonfly_counts(moore_params *, moore_counts *, moore_error *);
int moore_dragonfly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_hyperx_build(moore_params *, moore_graph **, moore_error *);
int moore_hyperx_counts(moore_params *, moore_counts *, moore_error *);
int moore_hyperx_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_torus_build(moore_params *, moore_graph **, moore_error *);
int moore_torus_counts(moore_params *, moore_counts *, moore_error *);
int moore_torus_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_polarfly_build(moore_params *, moore_graph **, moore_error *);
int moore_polarfly_counts(moore_params *, moore_counts *, moore_error *);
int moore_polarfly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
/* xpander.c: Xpander (meta-graph lifted by perfect matchings; both variants) */
extern const moore_param_info moore_xpander_params[];
int moore_xpander_build(moore_params *, moore_graph **, moore_error *);
int moore_xpander_counts(moore_params *, moore_counts *, moore_error *);
int moore_xpander_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* jellyfish.c: Jellyfish random regular graphs */
extern const moore_param_info moore_jellyfish_params[];
int moore_jellyfish_build(moore_params *, moore_graph **, moore_error *);
int moore_jellyfish_counts(moore_params *, moore_counts *, moore_error *);
int moore_jellyfish_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* low-diameter families of the field's papers: mlfm.c, oft.c, megafly.c, cascade.c,
 * spectralfly.c, bundlefly.c, polarstar.c, delorme.c */
extern const moore_param_info moore_mlfm_params[], moore_oft_params[], moore_megafly_params[],
    moore_cascade_params[], moore_spectralfly_params[], moore_bundlefly_params[],
    moore_polarstar_params[], moore_delorme_params[];
int moore_mlfm_build(moore_params *, moore_graph **, moore_error *);
int moore_mlfm_counts(moore_params *, moore_counts *, moore_error *);
int moore_mlfm_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_oft_build(moore_params *, moore_graph **, moore_error *);
int moore_oft_counts(moore_params *, moore_counts *, moore_error *);
int moore_oft_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_megafly_build(moore_params *, moore_graph **, moore_error *);
int moore_megafly_counts(moore_params *, moore_counts *, moore_error *);
int moore_megafly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_cascade_build(moore_params *, moore_graph **, moore_error *);
int moore_cascade_counts(moore_params *, moore_counts *, moore_error *);
int moore_cascade_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_spectralfly_build(moore_params *, moore_graph **, moore_error *);
int moore_spectralfly_counts(moore_params *, moore_counts *, moore_error *);
int moore_spectralfly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_bundlefly_build(moore_params *, moore_graph **, moore_error *);
int moore_bundlefly_counts(moore_params *, moore_counts *, moore_error *);
int moore_bundlefly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_polarstar_build(moore_params *, moore_graph **, moore_error *);
int moore_polarstar_counts(moore_params *, moore_counts *, moore_error *);
int moore_polarstar_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_delorme_build(moore_params *, moore_graph **, moore_error *);
int moore_delorme_counts(moore_params *, moore_counts *, moore_error *);
int moore_delorme_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
/* bundlefly.c: Paley graphs over GF(r) for Bundlefly and PolarStar. */
struct moore_gf;
/* square[x] = 1 for the nonzero squares x of GF(r) (f->q = r). */
int moore_paley_squares(const struct moore_gf *f, char *square);
/* Refuses r that is not a prime power = 1 mod 4 (or too large), naming family. */
int moore_paley_check(const char *family, int64_t r, moore_error *err);
/* oft.c: builds a family's graph from a formatted SPEC (PolarFly's ER_q and
 * Slim Fly's MMS graph as the base of OFT, PolarStar and Bundlefly). */
int moore_family_base(moore_graph **out, moore_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* oft.c: the endpoints a planner gives a switch of network degree `degree`:
 * the family's default, capped by the radix's free ports (>= 1 when
 * degree < radix). */
int64_t moore_family_plan_p(int32_t radix, int64_t degree, int64_t def);
/* oft.c: refuses a build whose builder and CSR would not fit in memory. */
int moore_family_guard(const moore_counts *c, const char *family, moore_error *err);
/* megafly.c: round-robin global links, m between every two of `groups`
 * groups; link t of group i (listed by destination group, then 0..m-1) sits
 * on switch i*stride + offset + t mod routers. */
int moore_family_global_links(moore_builder *b, int64_t groups, int64_t routers, int64_t m,
                              int64_t stride, int64_t offset, moore_error *err);
/* clos.c: folded Clos of 2 or 3 tiers from one radix, any server count */
extern const moore_param_info moore_clos_params[];
int moore_clos_build(moore_params *, moore_graph **, moore_error *);
int moore_clos_counts(moore_params *, moore_counts *, moore_error *);
int moore_clos_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* grid.c: products of paths and rings (src/families/grid.h) */
#include "families/grid.h"
/* Planner of 3-D grids "family:dims=AxBxC,p=P": the cubes k^3 for k = kmin …
 * 32 and, with a target, the smallest near-cube (k+1)^i k^(3-i) reaching it;
 * each grid point holds `units` switches with `extra` more network ports. */
int moore_grid_plan3(const char *family, int64_t kmin, int32_t extra, int64_t units,
                     int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                     moore_error *err);

/* mesh.c, tofu.c, hypercube.c: grids without (or with some) wrap-around */
extern const moore_param_info moore_mesh_params[], moore_tofu_params[],
    moore_hypercube_params[];
int moore_mesh_build(moore_params *, moore_graph **, moore_error *);
int moore_mesh_counts(moore_params *, moore_counts *, moore_error *);
int moore_mesh_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_tofu_build(moore_params *, moore_graph **, moore_error *);
int moore_tofu_counts(moore_params *, moore_counts *, moore_error *);
int moore_tofu_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_hypercube_build(moore_params *, moore_graph **, moore_error *);
int moore_hypercube_counts(moore_params *, moore_counts *, moore_error *);
int moore_hypercube_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* flatbutterfly.c, karyntree.c, xgft.c: butterflies and fat-trees */
extern const moore_param_info moore_flatbutterfly_params[], moore_karyntree_params[],
    moore_xgft_params[];
int moore_flatbutterfly_build(moore_params *, moore_graph **, moore_error *);
int moore_flatbutterfly_counts(moore_params *, moore_counts *, moore_error *);
int moore_flatbutterfly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_karyntree_build(moore_params *, moore_graph **, moore_error *);
int moore_karyntree_counts(moore_params *, moore_counts *, moore_error *);
int moore_karyntree_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_xgft_build(moore_params *, moore_graph **, moore_error *);
int moore_xgft_counts(moore_params *, moore_counts *, moore_error *);
int moore_xgft_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* kautz.c, arrangement.c: word graphs */
extern const moore_param_info moore_kautz_params[], moore_arrangement_params[];
int moore_kautz_build(moore_params *, moore_graph **, moore_error *);
int moore_kautz_counts(moore_params *, moore_counts *, moore_error *);
int moore_kautz_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_arrangement_build(moore_params *, moore_graph **, moore_error *);
int moore_arrangement_counts(moore_params *, moore_counts *, moore_error *);
int moore_arrangement_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* provenance.c: lift: and expand: SPECs that rebuild moore lift / moore expand output */
extern const moore_param_info moore_lift_params[], moore_expand_params[];
int moore_lift_family_build(moore_params *, moore_graph **, moore_error *);
int moore_expand_family_build(moore_params *, moore_graph **, moore_error *);

#endif
