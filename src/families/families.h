/* families.h — internal: the builders, counts and planners that registry.c
 * puts in the family table. One block per family file. */
#ifndef MOORE_SRC_FAMILIES_H
#define MOORE_SRC_FAMILIES_H

#include "moore/family.h"

/* classic.c: reference graphs built independently of any family */
extern const moore_param_info moore_complete_params[], moore_petersen_params[],
    moore_hoffman_singleton_params[];
int moore_complete_build(const moore_params *, moore_graph **, moore_error *);
int moore_complete_counts(const moore_params *, moore_counts *, moore_error *);
int moore_petersen_build(const moore_params *, moore_graph **, moore_error *);
int moore_hoffman_singleton_build(const moore_params *, moore_graph **, moore_error *);

/* slimfly.c: the MMS graph */
extern const moore_param_info moore_slimfly_params[];
int moore_slimfly_build(const moore_params *, moore_graph **, moore_error *);
int moore_slimfly_counts(const moore_params *, moore_counts *, moore_error *);
int moore_slimfly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* finish.c: shared last steps of the baseline families */
typedef void (*moore_family_labeler)(const void *ctx, int32_t v, char *buf, size_t len);
/* Finishes b (freed either way), sets p endpoints on every switch and, when
 * label is not NULL, names every switch. */
int moore_family_finish(moore_builder *b, int32_t p, moore_family_labeler label,
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
int moore_fattree_build(const moore_params *, moore_graph **, moore_error *);
int moore_fattree_counts(const moore_params *, moore_counts *, moore_error *);
int moore_fattree_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_dragonfly_build(const moore_params *, moore_graph **, moore_error *);
int moore_dragonfly_counts(const moore_params *, moore_counts *, moore_error *);
int moore_dragonfly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_hyperx_build(const moore_params *, moore_graph **, moore_error *);
int moore_hyperx_counts(const moore_params *, moore_counts *, moore_error *);
int moore_hyperx_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_torus_build(const moore_params *, moore_graph **, moore_error *);
int moore_torus_counts(const moore_params *, moore_counts *, moore_error *);
int moore_torus_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
int moore_polarfly_build(const moore_params *, moore_graph **, moore_error *);
int moore_polarfly_counts(const moore_params *, moore_counts *, moore_error *);
int moore_polarfly_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);
/* xpander.c: Xpander (meta-graph lifted by perfect matchings; both variants) */
extern const moore_param_info moore_xpander_params[];
int moore_xpander_build(const moore_params *, moore_graph **, moore_error *);
int moore_xpander_counts(const moore_params *, moore_counts *, moore_error *);
int moore_xpander_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* jellyfish.c: Jellyfish random regular graphs */
extern const moore_param_info moore_jellyfish_params[];
int moore_jellyfish_build(const moore_params *, moore_graph **, moore_error *);
int moore_jellyfish_counts(const moore_params *, moore_counts *, moore_error *);
int moore_jellyfish_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

/* clos.c: folded Clos of 2 or 3 tiers from one radix, any server count */
extern const moore_param_info moore_clos_params[];
int moore_clos_build(const moore_params *, moore_graph **, moore_error *);
int moore_clos_counts(const moore_params *, moore_counts *, moore_error *);
int moore_clos_plan(int32_t, int64_t, moore_plan_emit, void *, moore_error *);

#endif
