/* solver.h — the pieces of flow's solvers that a solver outside src/flow/
 * reuses (routing's routed throughput, src/routing/routed_flow.c): the
 * anytime clock and stop test, bounds reporting, the options-or-defaults
 * rule and link utilisation. Not public API; flow_internal.h includes it for
 * flow's own files, so the declarations live in one place. */
#ifndef MOORE_SRC_FLOW_SOLVER_H
#define MOORE_SRC_FLOW_SOLVER_H

#include "moore/flow.h"

#include <stdint.h>

/* Anytime bookkeeping: the start time, the last bounds reported. */
typedef struct flow_clock {
    double start, last_lower, last_upper;
} flow_clock;

void flow_clock_start(flow_clock *c);
double flow_clock_seconds(const flow_clock *c);
/* Why the run must stop now ("time-limit", "cancelled") or NULL. */
const char *flow_should_stop(const moore_flow_options *o, const flow_clock *c);
/* Passes the bounds to o->bounds when either improved since the last call. */
void flow_report_bounds(const moore_flow_options *o, flow_clock *c, int64_t phase,
                        double lower, double upper);

/* o, or the defaults (in *def) when o is NULL. */
const moore_flow_options *flow_options_or_default(const moore_flow_options *o,
                                                  moore_flow_options *def);
/* util_max and util_mean of a flow with arc loads load[0..arcs-1], scaled so
 * that its busiest arc is full. */
void flow_utilisation(const double *load, int64_t arcs, moore_flow_result *out);

#endif
