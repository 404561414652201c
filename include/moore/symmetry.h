/* symmetry.h — automorphisms, orbits, vertex-transitivity, canonical forms and
 * isomorphism of switch graphs (docs/analysis.md), computed by Traces from nauty
 * (Debian libnauty2-dev), plus exact distance metrics from one BFS per orbit.
 *
 * Why Traces: its sparse-graph search handles the large, highly symmetric
 * graphs of this project (fat-trees full of twin switches, tori, Hamming
 * graphs) far faster than dense nauty, and it also returns a canonical
 * labelling, so one call gives the group, the orbits and the canonical form.
 *
 * Caveats of the underlying library, which moore cannot hide:
 *  - nauty keeps per-thread work areas (Debian builds it with thread-local
 *    storage) and has global switches; treat these functions as NOT safe to
 *    call from several threads at once. moore frees nauty's work areas after
 *    every call.
 *  - nauty aborts the process when one of its own allocations fails; moore
 *    refuses graphs whose working set would exceed the machine's memory
 *    (moore_memory_guard) before calling it.
 *  - The canonical hash depends on the canonical labelling of the nauty
 *    version and options moore uses: compare hashes made by the same build. */
#ifndef MOORE_SYMMETRY_H
#define MOORE_SYMMETRY_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"
#include "moore/metrics.h"
#include "moore/paths.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct moore_symmetry_options {
    /* 1: automorphisms must also preserve each switch's endpoint count (the
     * network, not just the switch graph). 0 (default): the switch graph. */
    int respect_endpoints;
    /* 1 (default): also compute the canonical labelling and hash. */
    int canonical;
} moore_symmetry_options;

/* Fills the caller's struct with the defaults above; O(1). */
MOORE_API void moore_symmetry_options_default(moore_symmetry_options *o);

typedef struct moore_symmetry_result {
    double group_log10;     /* log10 |Aut(G)|, finite for any size */
    double group_size;      /* the size as a double; +inf beyond 1e308 */
    int group_exact;        /* 1 when group_size is the exact integer */
    int32_t n_orbits;
    int32_t *orbits;        /* n entries: orbits[v] = smallest switch in v's orbit */
    int vertex_transitive;  /* 1 when one orbit (and n >= 1) */
    /* Canonical form (when requested): canon_lab[i] is the switch placed at
     * position i; isomorphic graphs have identical relabelled edge lists. */
    int32_t *canon_lab;
    uint64_t canonical_hash; /* FNV-1a 64 of n, the sorted canonical edge list
                              * (and the endpoint counts when respected) */
} moore_symmetry_result;

/* Automorphism group, orbits and (optionally) the canonical form. Fills the
 * caller's *out (orbits, canon_lab on the heap): release it with
 * moore_symmetry_result_clear; on error it holds nothing to release. Time is
 * Traces': no polynomial bound (a search tree; twin switches make it deep,
 * 7 s for a k=48 fat-tree); O(n + m) memory, checked up front. */
MOORE_API int moore_symmetry_compute(const moore_graph *g, const moore_symmetry_options *o,
                           moore_symmetry_result *out, moore_error *err);
/* Frees orbits and canon_lab and zeroes r; safe on a zeroed or cleared r. O(1). */
MOORE_API void moore_symmetry_result_clear(moore_symmetry_result *r);

/* Generators of the automorphism group (with o->respect_endpoints, of the
 * automorphisms that keep every switch's endpoint count): *count
 * permutations, generator i mapping switch v to (*gens)[i·n + v]. *gens is
 * heap-allocated (free() it; NULL when *count is 0). One Traces run (see
 * moore_symmetry_compute); O(count · n) memory for the result. */
MOORE_API int moore_symmetry_generators(const moore_graph *g, const moore_symmetry_options *o,
                                        int32_t **gens, int32_t *count, moore_error *err);

/* Isomorphism test by canonical forms. *isomorphic = 1 or 0; when map is not
 * NULL (a->n entries) and the graphs are isomorphic, map[v] is the switch of b
 * that switch v of a corresponds to (every link u–v of a is map[u]–map[v] in
 * b). With respect_endpoints, endpoint counts must correspond too. map is
 * caller-owned. Two Traces runs (see moore_symmetry_compute), then O(n + m). */
MOORE_API int moore_isomorphic(const moore_graph *a, const moore_graph *b,
                     const moore_symmetry_options *o, int *isomorphic, int32_t *map,
                     moore_error *err);

/* ---- distances by orbits (src/metrics/orbits.c) ---- */

/* Exact diameter, average path length and distance histogram from one BFS per
 * orbit, each weighted by its orbit's size: automorphisms preserve distances,
 * so every switch of an orbit sees the same distance distribution. `orbits`
 * is any orbit labelling with orbits[orbits[v]] == orbits[v] (as
 * moore_symmetry_result.orbits is). Same result struct as moore_paths_compute,
 * released with moore_paths_result_clear. O(orbits · (n + m)) time. */
MOORE_API int moore_paths_by_orbits(const moore_graph *g, const int32_t *orbits,
                          const moore_metric_options *o, moore_paths_result *out,
                          moore_error *err);

/* All-pairs distance metrics, choosing the cheaper exact method: the closed
 * form where moore_paths_closed_form knows one; else, for graphs large enough
 * that all pairs would take more than about a second (src/metrics/orbits.c),
 * whose local invariants (degree, triangles, 2-ball size) fall into at most
 * n/16 classes and with at most n/16 twin switches (same neighbourhood), it
 * asks Traces for the orbits
 * and, when there are at most n/4 of them, runs one BFS per orbit; otherwise
 * (or if the symmetry step fails for size reasons) it runs
 * moore_paths_compute. *used_orbits (may be NULL) is set to the number of
 * orbits used, or 0 when the closed form or the plain all-pairs method ran.
 * Release out with moore_paths_result_clear. Cost: the method chosen, after
 * probes costing O(Σ deg² + 32·(n + m)). */
MOORE_API int moore_paths_auto(const moore_graph *g, const moore_metric_options *o,
                     moore_paths_result *out, int32_t *used_orbits, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
