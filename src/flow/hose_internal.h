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

/* The dual-length bound's arc visits as moore_flow_hose runs it: 30 phases
 * at 100 switches, 5 at 1,000 (a few seconds of CPU), none at 10,000. */
#define HOSE_DUAL_BUDGET 2e9

/* An upper bound on the hose θ from arc lengths (hose_dual.c): starting
 * from the pairs of hp (both ways; other server switches idle), Garg–
 * Könemann phases on that permutation give lengths l; the bound is
 * Σ l / Σ min(p_i, p_π(i))·d_l(i, π(i)) for the best l met, and for the
 * permutation π longest under it (an assignment problem). As many phases
 * as fit in `budget` arc visits (at most 30); none (*bound = ∞, *phases 0)
 * when fewer than 2 fit or above 3,000 server switches. O(phases·S·m +
 * k·m log n + k³) time for S servers and k server switches, k² doubles of
 * memory. Same result for every thread count. perm (n entries, may be
 * NULL) receives the permutation the bound charges: perm[v] the switch v
 * sends min(p_v, p_perm[v]) to, −1 when v sends nothing (left as is when
 * no phase ran). target: the phases stop, and the assignment is skipped,
 * once the bound falling twice as fast as over its last phase would still
 * end above target (a bound known already; ∞: all phases run). */
int flow_hose_dual_bound(const moore_graph *g, const int32_t *p, const hose_pairs *hp,
                         int threads, double budget, double target, double *bound,
                         int32_t *phases, int32_t *perm, moore_error *err);

/* The oblivious-routing LP (hose_oblivious.c) indexes every (pair, arc)
 * and (pair, switch) of the k server switches, k²·(2|E| + n) entries: above
 * this many it is not tried; and it is not solved when, after the
 * symmetry, it would have more than HOSE_OBLIVIOUS_COLS columns (Clp's dual
 * simplex took over 5 minutes on the 17,000 columns of a 16-switch
 * Jellyfish; reduced LPs of vertex-transitive graphs solve in seconds). */
#define HOSE_OBLIVIOUS_MAX 3e7
#define HOSE_OBLIVIOUS_COLS 1e4

/* A lower bound on the hose throughput from the best oblivious routing
 * (Applegate–Cohen LP, reduced by the automorphisms gens, ngens × n
 * switch permutations that keep p; none: the full LP). *lower is proven
 * whatever the LP's tolerances (the routing's worst load on every arc is
 * bounded again by a transportation dual); *lp_value = 1/α of the LP.
 * Both 0, and MOORE_OK, when the LP is too large (see above) or Clp finds
 * no optimum. O(k²·2|E|) memory; the LP's time is Clp's. */
int flow_hose_oblivious(const moore_graph *g, const int32_t *p, const int32_t *gens,
                        int32_t ngens, int threads, double *lower, double *lp_value,
                        moore_error *err);

/* Max-weight perfect assignment of a dense k × k matrix W (row-major):
 * to[i] the column of row i (Hungarian method with potentials, O(k³) time,
 * O(k) scratch; hose_dual.c). U, V (k each, may be NULL) receive the dual
 * potentials: U_i + V_j ≥ W_ij up to rounding, with equality on the
 * assignment, so Σ U + Σ V is its weight. */
int flow_assign_max(int32_t k, const double *W, int32_t *to, double *U, double *V,
                    moore_error *err);

#endif
