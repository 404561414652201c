/* closflow.h — a written-down flow that proves the uniform throughput of a
 * folded Clos (2 or 3 tiers: leaves with servers, spines, cores), so a Clos
 * is decided exactly where the (1+ε) approximation leaves it undecided
 * (docs/throughput.md "Clos: a flow written down").
 *
 * The flow: every leaf spreads its traffic over the spines of its pod in the
 * same proportions as the other leaves of its pod (scaled by its servers);
 * traffic to another pod goes up to a core and down to that pod's spines;
 * identical cores (the same spines) share it evenly. How much each spine
 * sends through each core to each pod is a small LP over pods × core classes
 * (Clp); its answer is then made exactly conservative and every arc's load
 * recomputed from it, so the bound holds whatever Clp's tolerances. */
#ifndef MOORE_CLOSFLOW_H
#define MOORE_CLOSFLOW_H

#include "moore/export.h"
#include "moore/error.h"
#include "moore/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *lower = a proven lower bound on the uniform throughput of g (traffic.h's
 * scaling: every server sends 1 in total, capacity 1 per direction), carried
 * by the flow described above. g must be Clos-shaped: the switches with
 * servers (leaves) link only to switches without, each pod (leaves and the
 * spines they reach) is a complete bipartite graph, and every other switch
 * (a core) links only to spines; otherwise MOORE_EINVAL saying what differs
 * (a Clos of 4 tiers or more too: its tier-3 switches link to the cores; the
 * even up-down split proves it instead, docs/throughput.md "Clos beyond 3
 * tiers").
 * dest_flows: NULL, or n·2m doubles the caller owns: on return
 * dest_flows[t·2m + k] is the flow destined to switch t on CSR arc k
 * (g->offs/adj order), carrying *lower times the uniform demand — for an
 * independent check of the certificate. time_limit > 0 stops Clp after
 * that many seconds; its point then still gives a proven (weaker) bound.
 * Time: one LP of pods × (spine-core-class pairs) columns (1 s at 18 pods
 * of radix 48, over a minute at 36), plus O(n·m·pods) with dest_flows. */
MOORE_API int moore_flow_clos(const moore_graph *g, double time_limit, double *lower,
                              double *dest_flows, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
