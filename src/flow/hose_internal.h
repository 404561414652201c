/* hose_internal.h — what hose.c shares with hose_pairs.c (the matching
 * bound), kept apart from flow_internal.h so the hose files stand alone. */
#ifndef MOORE_FLOW_HOSE_INTERNAL_H
#define MOORE_FLOW_HOSE_INTERNAL_H

#include "moore/error.h"
#include "moore/graph.h"
#include "moore/traffic.h"

/* The pairs of a matching matrix as a hose matrix: every switch u matched
 * to v exchanges d = min(p_u, p_v) with it both ways, so no switch sends or
 * receives more than its servers. */
typedef struct hose_pairs {
    int32_t count;
    int32_t *u, *v;   /* u < v */
    int32_t *d;       /* min(p_u, p_v) */
} hose_pairs;

/* The pairs of the longest-matching matrix (moore_traffic_worst). */
int flow_hose_pairs_worst(const moore_graph *g, const int32_t *p, hose_pairs *out,
                          moore_error *err);
void flow_hose_pairs_clear(hose_pairs *hp);

/* The pairs as a traffic matrix (both directions), for the solvers. */
int flow_hose_pairs_matrix(const moore_graph *g, const hose_pairs *hp, moore_traffic **out,
                           moore_error *err);

/* Upper bounds on θ of the pairs' matrix: *tub = 2|E| / Σ 2·d·dist(u,v), and
 * *bound ≤ *tub from each pair's own min-cost flow (hose_pairs.c). When the
 * flows of all pairs would cost more than `budget` arc visits none is
 * computed and *bound = *tub (*exact_pairs: pairs computed, 0 or all). Same
 * result for every thread count. */
int flow_hose_pair_bound(const moore_graph *g, const hose_pairs *hp, int threads, double budget,
                         double *tub, double *bound, int32_t *exact_pairs, moore_error *err);

#endif
