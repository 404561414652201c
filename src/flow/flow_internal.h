/* flow_internal.h — helpers shared by the flow modules (not public API):
 * the all-sources BFS (tub.c), Dijkstra with its workspace (sssp.c) and the
 * anytime bookkeeping every iterative solver does (sssp.c). */
#ifndef MOORE_SRC_FLOW_INTERNAL_H
#define MOORE_SRC_FLOW_INTERNAL_H

#include "moore/flow.h"
#include "moore/graph.h"
#include "flow/solver.h"

/* Runs a BFS from each of the k switches src[0..k-1] in parallel (OpenMP)
 * and calls row(ctx, i, dist) with the hop distances from src[i] (−1 where
 * unreachable). row runs concurrently for different i, so it must write
 * only to slots of its own i. Returns MOORE_ENOMEM when scratch space could
 * not be had. */
int flow_bfs_rows(const moore_graph *g, const int32_t *src, int32_t k,
                        void (*row)(void *ctx, int32_t i, const int32_t *dist), void *ctx,
                        moore_error *err);

/* The checks every throughput routine makes first (tub.c): a matrix for g's
 * switches, with some demand. */
int flow_tub_check(const moore_graph *g, const moore_traffic *t, moore_error *err);

/* Row s of a matrix: its destinations (ascending) and their demands. */
typedef struct flow_row {
    const int32_t *dst;
    const double *demand;
    int64_t count;
} flow_row;

/* Dijkstra workspace for n vertices (one per thread). */
typedef struct flow_ws {
    double *dist;
    int32_t *order;     /* vertices in the order they were settled */
    int32_t *heap, *pos;/* pos: heap slot, −1 unseen, −2 settled */
    int32_t *hops;      /* arcs on the recorded path (when pred is kept) */
    int64_t *pred;      /* CSR index of the arc into v on a shortest path */
    double *acc;        /* scratch for the caller, zeroed */
    char *mark;         /* destinations of the current source, zeroed */
    double *bdist;      /* flow_dijkstra_to's search back from the target */
    int32_t *bheap, *bpos;
} flow_ws;

/* The workspace for n vertices; the code of a failed allocation. */
int flow_ws_init(flow_ws *w, int32_t n, int with_pred, moore_error *err);
void flow_ws_clear(flow_ws *w);

/* Shortest paths from s under len[] (indexed like g->adj), stopped once the
 * `targets` vertices marked in w->mark are settled (0: settle all); returns
 * the number of settled vertices. With w->pred, each vertex records the arc
 * into it on a shortest path with the fewest arcs among those found. */
int32_t flow_dijkstra(const moore_graph *g, const double *len, int32_t s, int64_t targets,
                      flow_ws *w);

/* Shortest paths from s to the single target t, for commodities with one
 * sink (permutations, the worst case): a search from each end until they
 * meet, then the search from s continued only through vertices that can lie
 * on an s–t path within (1+slack) of shortest (slack below 1e-9 counts as
 * 1e-9, so rounding never cuts a shortest path). Afterwards, as with
 * flow_dijkstra: dist[t] is exact, and every vertex on such a path is
 * settled with its exact distance (w->order, pos −2); others may be
 * settled or not. rev[k] is the opposite arc of arc k. In an expander of
 * diameter D the two balls of radius ~D/2 hold a small part of the graph. */
int32_t flow_dijkstra_to(const moore_graph *g, const double *len, const int64_t *rev,
                         int32_t s, int32_t t, double slack, flow_ws *w);

/* Shortest paths from s to the destinations of its row r: flow_dijkstra_to
 * with that slack when s has one destination, else flow_dijkstra stopped
 * once all of them are settled (w->mark is used and left zeroed). */
int32_t flow_source_search(const moore_graph *g, const flow_row *r, const double *len,
                           const int64_t *rev, int32_t s, double slack, flow_ws *w);

/* Row s of t. A stored matrix's row points into it; a compact one's
 * (traffic.h) is written to dst and dem (room for n each), with fold set the
 * row fold.c would give s: its owned destinations, demands doubled. O(n) for
 * a compact matrix, O(1) otherwise. */
flow_row flow_traffic_row(const moore_traffic *t, int32_t s, int fold, int32_t *dst,
                          double *dem);
/* An empty compact matrix (traffic.h): offs and room for n weights. */
int flow_traffic_alloc_compact(int32_t n, const char *name, moore_traffic **out,
                               moore_error *err);
/* A compact matrix as a stored one (for the exact solvers, small graphs). */
int flow_traffic_expand(const moore_traffic *t, moore_traffic **out, moore_error *err);

/* The uniform bracket of a compact matrix (uniform.c): θ ≥ lower from a
 * balanced shortest-path routing, θ ≤ upper = TUB; the best routing's
 * mirrored arc loads at θ = 1 (arcs entries, the caller frees load); the
 * number of passes; why it stopped early (time limit, cancel) or NULL. */
typedef struct flow_uniform {
    double lower, upper;
    double *load;
    int64_t arcs;
    int passes;
    const char *stopped;
} flow_uniform;
/* Passes of one BFS and one backward pass per source, in parallel over
 * o->threads, until upper ≤ (1+o->eps)·lower or they stall; the same bytes
 * for any thread count. Refuses a demand between switches that cannot reach
 * each other, as moore_flow_tub does. O(N·E) time per pass, O(threads·(E +
 * B·N)) memory for batches of B sources. */
int flow_uniform_bracket(const moore_graph *g, const moore_traffic *t,
                         const moore_flow_options *o, flow_clock *clock, flow_uniform *out,
                         moore_error *err);
/* The same with `batch` sources (1..64) sharing each BFS and backward
 * sweep instead of the default; batch = 1 is the plain per-source order.
 * The bounds agree up to floating-point rounding for any batch (tests). */
int flow_uniform_bracket_batch(const moore_graph *g, const moore_traffic *t,
                               const moore_flow_options *o, flow_clock *clock, int batch,
                               flow_uniform *out, moore_error *err);

/* When t is stored and holds exactly g's uniform matrix (moore_traffic_uniform
 * writes the compact rows out), *out is that matrix in compact form (the
 * caller frees it), so the uniform fast path (uniform.c) serves it too;
 * otherwise NULL. O(entries of t). */
int flow_traffic_compact_of(const moore_graph *g, const moore_traffic *t, moore_traffic **out,
                            moore_error *err);

/* An empty matrix for n switches with room for `entries` demands
 * (traffic.c). */
int flow_traffic_alloc(int32_t n, int64_t entries, const char *name, moore_traffic **out,
                       moore_error *err);

/* When T(s,t) = T(t,s) for every pair, *folded is the same problem on half
 * the commodities: each unordered pair once, at its owner, with demand
 * T(s,t) + T(t,s), to be routed with capacity 2 per link (fold.c; both arcs
 * of a link then carry half). Otherwise *folded is NULL. */
int flow_fold_symmetric(const moore_traffic *t, moore_traffic **folded, moore_error *err);

/* The path LP by column generation (colgen.c), for moore_flow_exact;
 * tub = TUB of (g, t), already checked to be finite. */
int flow_colgen(const moore_graph *g, const moore_traffic *t, const moore_flow_options *o,
                double tub, moore_flow_result *out, moore_error *err);

/* Two-phase routing for the hose model (hose_weights.c): classes of
 * switches by colour refinement from the server counts p (switches with
 * reach[v] = 0 get class −1), at most kmax classes; *k is their number. */
int flow_hose_classes(const moore_graph *g, const int32_t *p, const char *reach, int32_t kmax,
                      int32_t *cls, int32_t *k, moore_error *err);
/* The class weights x[0..K−1] (Σ = 1) minimising max_a Σ_c x_c·L[c·arcs+a]. */
int flow_hose_weight_lp(int32_t K, int64_t arcs, const double *L, double *x, moore_error *err);

/* A matrix at unit scale (scale.c): t = the caller's matrix times 2^−e, its
 * largest demand in [0.5, 1); o = the caller's options with the progress
 * bounds scaled back. After a successful solve, flow_scale_back scales θ and
 * both bounds of out back by 2^−e, refusing values outside the normal range of
 * a double; flow_scale_clear frees the copy (on every path). */
typedef struct flow_scale {
    const moore_traffic *t;
    moore_flow_options o;
    const moore_flow_options *user;
    moore_traffic *copy;
    int e;
} flow_scale;

int flow_scale_begin(const moore_traffic *t, const moore_flow_options *o, flow_scale *sc,
                     moore_error *err);
int flow_scale_back(const flow_scale *sc, moore_flow_result *out, moore_error *err);
void flow_scale_clear(flow_scale *sc);

/* A solver of a matrix at unit scale, and the public entry around it: the
 * default options when o is NULL, out zeroed, scale, solve, scale back. */
typedef int (*flow_solver)(const moore_graph *g, const moore_traffic *t,
                           const moore_flow_options *o, moore_flow_result *out,
                           moore_error *err);
int flow_scaled_solve(const moore_graph *g, const moore_traffic *t, const moore_flow_options *o,
                      moore_flow_result *out, moore_error *err, flow_solver solve);

#endif
