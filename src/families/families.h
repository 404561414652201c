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


#endif
