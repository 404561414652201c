/* step_internal.h — what the files of src/step/ share: the context one
 * evaluation needs (the graph, the options, the routing built once), and the
 * steps of step.c that the placement search (search.c) repeats. */
#ifndef MOORE_STEP_INTERNAL_H
#define MOORE_STEP_INTERNAL_H

#include "moore/routing.h"
#include "moore/step.h"

typedef struct step_context {
    const moore_graph *g;
    const moore_step_options *o;
    moore_routing *routing;     /* NULL: optimal routing (flow bounds) */
} step_context;

/* Checks the options and builds the routing (step_context_close frees it). */
int step_context_open(const moore_graph *g, const moore_step_options *o, step_context *c,
                      moore_error *err);
void step_context_close(step_context *c);

/* The steps of `jobs` jobs on disjoint servers (moore_step_jobs without the
 * context's set-up); out[j] is cleared first. */
int step_jobs(const step_context *c, int32_t jobs, const moore_workload *const *w,
              const int32_t *const *sr, moore_step_result *out, moore_error *err);

#endif
