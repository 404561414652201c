/* bisection.h — the bisection of a topology (docs/analysis.md): the fewest links cut
 * by splitting the endpoints into two equal halves.
 *
 * Each switch weighs its endpoint count (all switches weigh 1 when the graph
 * has no endpoints). A split is balanced when the two sides' weights differ by
 * at most the largest switch weight — the closest to "equal halves" a
 * switch-level split can always reach. The upper bound is METIS's multilevel
 * 2-way partition, best of several seeds, made exactly balanced afterwards; the
 * lower bound is spectral (see bisection.c for why it is valid with weights). */
#ifndef MOORE_BISECTION_H
#define MOORE_BISECTION_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"
#include "moore/metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct moore_bisection_options {
    int tries;              /* METIS runs with different seeds, best kept (default 8) */
    uint64_t seed;          /* seed of the first run (default 1) */
    /* The lower bound solves a dense eigenproblem; above this many switches
     * it is not computed (default 3000). */
    int32_t spectral_max_switches;
} moore_bisection_options;

/* Fills the caller's struct with the defaults above; O(1). */
MOORE_API void moore_bisection_options_default(moore_bisection_options *o);

typedef struct moore_bisection_result {
    int valid;              /* 0 when the graph has fewer than 2 switches */
    int by_endpoints;       /* 1: weights are endpoint counts; 0: 1 per switch */
    int64_t cut;            /* links between the two sides of the best split */
    int64_t weight_total;   /* W: endpoints (or switches) in all */
    int64_t weight[2];      /* W of side 0 and side 1 */
    double bandwidth;       /* cut / (W/2): 1.0 is full bisection bandwidth */
    double lower;           /* a valid lower bound on the cut; NaN if not computed */
    int32_t *side;          /* n entries, 0 or 1 */
} moore_bisection_result;

/* The best balanced split METIS finds, and the spectral lower bound. Fills the
 * caller's *out (side on the heap): release it with
 * moore_bisection_result_clear; on error it holds nothing to release. Time:
 * o->tries METIS multilevel bisections (roughly O(m) each) and O(n + m) per
 * rebalancing move and polishing round (at most 64), plus the lower bound. */
MOORE_API int moore_bisection_compute(const moore_graph *g, const moore_bisection_options *o,
                            moore_bisection_result *out, moore_error *err);
/* Frees side and zeroes r; safe on a zeroed or cleared r. O(1). */
MOORE_API void moore_bisection_result_clear(moore_bisection_result *r);

/* The spectral lower bound alone (NaN above max_switches). Dense LAPACK on the
 * (Schur-reduced) Laplacian: O(n³) time, O(n²) memory, freed before return. */
MOORE_API int moore_bisection_lower_bound(const moore_graph *g, int32_t max_switches, double *lower,
                                moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
