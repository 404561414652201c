/* paths.h — distance metrics: diameter, average path length, the distance
 * histogram, girth, connected components, and the Moore bound.
 *
 * All-pairs distances are computed without an N×N matrix by bit-parallel
 * multi-source BFS (see src/metrics/paths.c). A disconnected graph is reported
 * as such (connected = 0, diameter = -1, avg_path_length = NaN), never as a
 * wrong number. */
#ifndef MOORE_PATHS_H
#define MOORE_PATHS_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"
#include "moore/metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct moore_paths_result {
    int connected;          /* 1 when one component (a graph with n <= 1 is connected) */
    int32_t components;
    int32_t diameter;       /* -1 when disconnected */
    double avg_path_length; /* mean over ordered pairs u != v; NaN when disconnected */
    int64_t *histogram;     /* histogram[d] = ordered pairs at distance d, d = 0..diameter */
    int32_t histogram_len;  /* diameter + 1, or 0 when disconnected */
} moore_paths_result;

/* All-pairs distance metrics. Uses o->threads threads (0: the OpenMP
 * default) and reports the fraction of source batches done through
 * o->progress ("distances"); o may be NULL. Needs about N · 112 bytes per
 * thread (refused with MOORE_ETOOBIG beyond the machine's memory). A
 * disconnected graph returns MOORE_OK with connected = 0 after the
 * components count, without any distance work. Fills the caller's *out
 * (histogram on the heap): release it with moore_paths_result_clear; on error
 * it holds nothing to release. Bit-parallel BFS from all sources, 256 a batch:
 * O(n·m·D/64) word operations at worst (D the diameter), O(n) memory per thread. */
MOORE_API int moore_paths_compute(const moore_graph *g, const moore_metric_options *o,
                        moore_paths_result *out, moore_error *err);
/* Frees the histogram and zeroes r; safe on a zeroed or cleared r. O(1). */
MOORE_API void moore_paths_result_clear(moore_paths_result *r);

/* The same metrics from a closed form, without any search, where one is
 * known: a ring (connected and 2-regular), a complete graph (n(n−1)/2
 * links), and a torus, mesh, Tofu or hypercube whose origin (family and
 * params) names the grid and whose links are exactly that grid's (the
 * histogram of a product of rings and paths is the convolution of theirs).
 * *found = 1 and out filled when it applies; *found = 0 and out empty
 * otherwise. moore_paths_auto (symmetry.h) tries it first. Release out with
 * moore_paths_result_clear. O(n + m) to recognise, O(diameter²) or less for the
 * histogram. */
MOORE_API int moore_paths_closed_form(const moore_graph *g, moore_paths_result *out, int *found,
                                      moore_error *err);

/* Single-source BFS: dist[v] = hops from src, -1 when unreachable. queue is
 * scratch of n entries (NULL: allocated inside). Returns the eccentricity of
 * src within its component, or a negative error code. dist (and queue) are
 * caller-owned; O(n + m) time. */
MOORE_API int32_t moore_bfs(const moore_graph *g, int32_t src, int32_t *dist, int32_t *queue);

/* Length of the shortest cycle; 0 when the graph is a forest. Exact: BFS
 * from every vertex of the 2-core, each stopped by the best cycle found.
 * O(n·m) time in the worst case (far less with short cycles: a triangle ends
 * it), O(n) memory per thread. */
MOORE_API int moore_girth(const moore_graph *g, int32_t *girth, moore_error *err);

/* M(d, D) = 1 + d Σ_{i<D} (d-1)^i, as a double (it overflows int64 quickly). O(D). */
MOORE_API double moore_bound(int32_t degree, int32_t diameter);

#ifdef __cplusplus
}
#endif
#endif
