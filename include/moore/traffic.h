/* traffic.h — traffic matrices for throughput (docs/throughput.md), and the
 * maximum-weight perfect matching that defines the worst-case one.
 *
 * A traffic matrix T is stored sparsely by source switch (CSR): the demands of
 * switch s are dst[offs[s] .. offs[s+1]-1] with demand[...] > 0, destinations
 * ascending, never s itself (traffic between servers of one switch uses no
 * network link). Throughput θ is then the largest multiplier such that θ·T is
 * routable (flow.h).
 *
 * Demand scaling (server level, p_v = endpoints of switch v, S = Σ p_v):
 *   uniform      every server sends 1 in total, spread evenly over the S−1
 *                other servers: T(s,t) = p_s·p_t/(S−1) for s ≠ t.
 *   permutation  a seeded random derangement π of the switches that have
 *                servers; every server of s sends 1 to π(s): T(s,π(s)) = p_s.
 *   worst        "longest matching" (Jyothi et al., SC'16): a maximum-weight
 *                perfect matching of the switches that have servers, weight
 *                (p_u+p_v)·dist(u,v) (just the distance when p is uniform);
 *                matched u,v exchange: T(u,v) = p_u, T(v,u) = p_v. With an odd
 *                number of such switches one is left unmatched and idle.
 *   file         CSV lines "src,dst,demand" (switch ids, demand ≥ 0, taken as
 *                is: θ multiplies the file's matrix); '#' comments and a
 *                "src,dst,demand" header line are allowed, repeated pairs add
 *                up, src = dst lines are accepted and use no link.
 * A graph with no endpoints at all (a plain edge list) is treated as having one
 * server per switch, like the bisection metric does; `unit_endpoints` says so. */
#ifndef MOORE_TRAFFIC_H
#define MOORE_TRAFFIC_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct moore_traffic {
    int32_t n;              /* switches of the graph it was made for */
    int64_t *offs;          /* n+1 offsets into dst/demand */
    int32_t *dst;           /* destination switch of each demand */
    double *demand;         /* its size (> 0) */
    double total;           /* Σ demand */
    int unit_endpoints;     /* 1 when the graph had no endpoints and 1 per switch was used */
    /* worst only: the matching's weight and whether it is a proven optimum
     * (1: blossom algorithm) or a heuristic (0) with a certified ceiling
     * `matching_bound` ≥ the optimum weight. */
    int matching_exact;
    double matching_weight, matching_bound;
    char name[32];          /* "uniform", "permutation", "worst", "file" */
    /* Compact uniform form (moore_traffic_uniform_compact): when weight is set,
     * dst and demand are NULL and T(s,t) = weight[s]·weight[t] / weight_div for
     * every s ≠ t with both weights > 0 (ascending t, as if stored); offs still
     * delimits each row, so row counts and moore_traffic_sources hold. */
    double *weight;
    double weight_div;
} moore_traffic;

/* Every constructor below makes *out a new matrix the caller frees with
 * moore_traffic_free (NULL is fine); *out is NULL on error. g is borrowed.
 * The all-to-all matrix: O(n²) time and memory. */
MOORE_API int moore_traffic_uniform(const moore_graph *g, moore_traffic **out, moore_error *err);
/* The same all-to-all matrix in O(n) memory (the compact form above) instead of
 * one entry per pair, O(n²): 3 GB at 16,000 switches. Only the flow entry points
 * accept it: moore_flow_approx and moore_flow_tub stream its rows, moore_flow_exact
 * expands it (small graphs), moore_flow_report reads its name and total. The
 * caller owns *out (moore_traffic_free). O(n). */
MOORE_API int moore_traffic_uniform_compact(const moore_graph *g, moore_traffic **out,
                                            moore_error *err);
/* A seeded random switch-level derangement (same seed, same matrix). O(n). */
MOORE_API int moore_traffic_permutation(const moore_graph *g, uint64_t seed, moore_traffic **out,
                              moore_error *err);
/* The longest-matching matrix. Exact (Edmonds' blossom algorithm) up to
 * MOORE_MATCHING_EXACT_MAX switches with servers; beyond, a greedy farthest-
 * partner matching whose weight is certified against a ceiling (see matching.c).
 * Refuses a graph where two switches with servers cannot reach each other.
 * For k server switches: BFS from each, O(k·(n + m)), then O(k³) time and O(k²)
 * memory exactly, or O(k·(n + m + k)) greedily. */
MOORE_API int moore_traffic_worst(const moore_graph *g, moore_traffic **out, moore_error *err);
/* Reads a CSV "src,dst,demand" file for graph g. O(lines · log lines) (sorted). */
MOORE_API int moore_traffic_read(const moore_graph *g, const char *path, moore_traffic **out,
                       moore_error *err);
/* "uniform", "permutation", "worst", an AI-training job SPEC (workload.h), or
 * otherwise a CSV file path. Cost and ownership: those of the function it calls. */
MOORE_API int moore_traffic_make(const moore_graph *g, const char *what, uint64_t seed,
                       moore_traffic **out, moore_error *err);
/* A matrix from a dense row-major n×n array (zeros and the diagonal skipped),
 * for callers that build their own. Borrows t; O(n²). */
MOORE_API int moore_traffic_from_dense(const moore_graph *g, const double *t, moore_traffic **out,
                             moore_error *err);
/* Frees t and its arrays. NULL is fine. O(1). */
MOORE_API void moore_traffic_free(moore_traffic *t);

/* Sources with at least one demand. O(n), no allocation. */
MOORE_API int32_t moore_traffic_sources(const moore_traffic *t);

/* ---- maximum-weight matching (matching.c) ---- */

/* Above this many vertices the O(n³) blossom algorithm is replaced by the
 * greedy heuristic in moore_traffic_worst. */
#define MOORE_MATCHING_EXACT_MAX 2500

/* Maximum-weight matching of the complete graph on n vertices with symmetric
 * integer weights w[u*n+v] ≥ 0 (the diagonal is ignored), by Edmonds' blossom
 * algorithm with vertex and blossom duals, O(n³). mate[v] is v's partner or
 * −1. With positive weights the result is perfect for even n and leaves one
 * vertex unmatched for odd n (a complete graph with positive weights has a
 * maximum-weight matching of maximum cardinality). w and mate are caller-owned;
 * O(n²) scratch memory. */
MOORE_API int moore_matching_max_weight(int32_t n, const int64_t *w, int32_t *mate, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
