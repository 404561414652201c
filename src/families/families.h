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


#endif
