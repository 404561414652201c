/* flow.h — throughput: the maximum concurrent flow of a traffic matrix
 * (docs/throughput.md).
 *
 * θ(T) is the largest θ such that θ·T is routable as a fractional
 * multicommodity flow with capacity 1 in each direction of every switch
 * link. Three ways to get at it:
 *   moore_flow_exact   an exact LP solved by COIN-OR Clp: the arc LP (one
 *                      commodity per source switch) or a path LP by column
 *                      generation; both end with a certificate of their own
 *                      (lower and upper bounds within 1e-7 relative);
 *   moore_flow_approx  Garg–Könemann / Fleischer max concurrent flow with
 *                      Karakostas's grouping by source: a feasible flow gives
 *                      `lower`, the length function gives the dual `upper`,
 *                      and it stops once upper ≤ (1+ε)·lower;
 *   moore_flow_tub     the closed-form bound 2|E| / Σ T(s,t)·dist(s,t) (every
 *                      unit of s→t demand crosses at least dist(s,t) links).
 * All refuse a matrix with a demand between switches that cannot reach each
 * other (its throughput is 0). The exact and approximate ones solve the
 * matrix scaled by a power of two to unit size and scale θ back; a θ outside
 * the normal doubles is refused (MOORE_EINVAL). */
#ifndef MOORE_FLOW_H
#define MOORE_FLOW_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"
#include "moore/traffic.h"
#include "moore/report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which exact method moore_flow_exact uses. */
typedef enum moore_flow_exact_method {
    MOORE_FLOW_EXACT_AUTO = 0,  /* the fastest: column generation (see lp.c) */
    MOORE_FLOW_EXACT_ARC,       /* arc LP, one commodity per source, Clp's barrier */
    MOORE_FLOW_EXACT_COLGEN     /* path LP by column generation, certified (colgen.c) */
} moore_flow_exact_method;

typedef struct moore_flow_options {
    double eps;             /* approximation: stop when upper ≤ (1+eps)·lower (default 0.05) */
    int64_t max_phases;     /* approximation: give up after this many phases (0: no limit);
                               the bounds reached so far are still returned, `converged` = 0 */
    int threads;            /* 0 = OpenMP default */
    void (*progress)(void *ctx, const char *what, double fraction);
    void *progress_ctx;
    /* Anytime answers. Both methods that iterate (approximation and column
     * generation) have proven bounds after every phase; they are passed to
     * `bounds` as they improve (phase, lower, upper, seconds since the start),
     * and the run stops with the best so far (`converged` = 0, `stopped` set)
     * once `time_limit` seconds have passed (0: no limit) or `cancelled`
     * returns non-zero (polled once per phase, and between the steps of the
     * arc LP, which has no bounds before it ends). */
    double time_limit;
    void (*bounds)(void *ctx, int64_t phase, double lower, double upper, double seconds);
    void *bounds_ctx;
    int (*cancelled)(void *ctx);
    void *cancel_ctx;
    moore_flow_exact_method exact_method;   /* default AUTO */
    double exact_gap;       /* column generation: stop at upper ≤ (1+gap)·lower (default 1e-7) */
    /* The MPI job the approximation's sources are spread over (dist.h; every
     * rank must make the same call); NULL: this process alone. */
    const struct moore_dist *dist;
} moore_flow_options;

/* Fills the caller's struct: eps 0.05, exact_gap 1e-7, the rest zero/NULL; O(1). */
MOORE_API void moore_flow_options_default(moore_flow_options *o);

typedef struct moore_flow_result {
    double throughput;      /* exact θ, or the approximation's lower bound */
    double lower, upper;    /* proven bounds: lower ≤ θ ≤ upper */
    const char *method;     /* "lp-clp", "colgen-clp" or "garg-konemann" (static string) */
    int converged;          /* the stopping rule was met (exact: certified optimum) */
    const char *stopped;    /* NULL, or why it stopped early: "time-limit", "cancelled",
                               "max-phases" (static string) */
    int64_t phases;         /* approximation: phases; LP: simplex/barrier iterations;
                               column generation: pricing rounds */
    int64_t columns;        /* column generation: paths in the final master LP */
    int32_t commodities;    /* source switches with demand (column generation: pairs) */
    /* Utilisation of the arcs (both directions of every link) by the flow
     * that carries throughput·T: the largest and the mean over all 2|E| arcs. */
    double util_max, util_mean;
} moore_flow_result;

/* Bytes the exact LP would take (Clp's model, factorisation and ours), an
 * estimate used to refuse an LP that would not fit before building it.
 * O(n); allocates nothing. */
MOORE_API double moore_flow_exact_bytes(const moore_graph *g, const moore_traffic *t);

/* The exact value. With MOORE_FLOW_EXACT_AUTO: column generation, the
 * faster method on every matrix measured (see lp.c). Refuses (MOORE_ETOOBIG) an LP that would
 * not fit in memory, with a hint to use the approximation. Borrows g and t;
 * fills the caller's *out (static strings only; nothing to clear), zeroed first.
 * Time is Clp's: column generation prices with one Dijkstra per source a round,
 * O(K·(m + n log n)) for K sources, times the rounds and simplex re-solves; the
 * arc LP has K·2m columns and K·n + 2m rows (barrier), so memory is the limit. */
MOORE_API int moore_flow_exact(const moore_graph *g, const moore_traffic *t,
                     const moore_flow_options *o, moore_flow_result *out, moore_error *err);

/* The (1+ε) approximation with both bounds; deterministic for a given input
 * whatever the thread count. Ownership as moore_flow_exact. Each phase routes
 * every source along shortest-path DAGs: O(K·(m + n log n)) per phase for K
 * sources; O(m) memory (a few dozen doubles an arc: lengths, flows, snapshots)
 * plus O(n) per thread. Phases: O(ε⁻² log m) in theory; in
 * practice tens to hundreds (until upper ≤ (1+ε)·lower, max_phases or time_limit).
 * The uniform matrix (compact, or stored by moore_traffic_uniform) is first
 * bracketed by a balanced shortest-path routing and TUB, O(K·m) per pass and a
 * few passes (method "shortest-paths", phases = passes); the phases run only
 * when that does not reach ε (docs/throughput.md). */
MOORE_API int moore_flow_approx(const moore_graph *g, const moore_traffic *t,
                      const moore_flow_options *o, moore_flow_result *out, moore_error *err);

/* TUB = 2|E| / Σ T(s,t)·dist(s,t), an upper bound on θ(T). One BFS per source:
 * O(K·(n + m)) time for K sources, O(n) memory per thread. */
MOORE_API int moore_flow_tub(const moore_graph *g, const moore_traffic *t, double *out,
                   moore_error *err);

/* ---- the hose model (hose.c, docs/throughput.md "Any traffic: the hose model") ----
 * Every server sends at most 1 and receives at most 1 in total, any matrix:
 * T ≥ 0 with Σ_t T(s,t) ≤ p_s and Σ_s T(s,t) ≤ p_t. The hose throughput is
 * the smallest θ(T) over those matrices; moore_flow_hose brackets it.
 * Lower bounds come from two-phase (Valiant) routing, which carries every
 * hose matrix at once: every source spreads its traffic over intermediates
 * in proportions w (Σ w = 1), which forward it to the destinations. Upper
 * bounds come from particular hose matrices: uniform, the longest matching
 * (its TUB), the permutation longest under that matching's dual arc lengths,
 * a balanced cut and a single switch. */
typedef struct moore_hose_result {
    double lower, upper;        /* proven: lower ≤ hose θ ≤ upper */
    const char *method;         /* the proof of `lower` (static string):
                                   "vlb-split", "vlb-approx", "vlb-exact",
                                   "two-phase-split", "two-phase-approx",
                                   "two-phase-exact", "oblivious-lp" */
    const char *upper_method;   /* the matrix or cut behind `upper`: "uniform",
                                   "worst-tub", "pair-flow", "worst-dual", "worst-approx",
                                   "worst-exact", "bisection", "switch-cut" */
    double vlb;                 /* w ∝ servers (classic Valiant): the best bound of it */
    double two_phase;           /* optimised class weights (hose_weights.c) */
    const char *two_phase_method; /* its proof: "two-phase-split", "-approx", "-exact" */
    int32_t classes;            /* classes of switches weighed separately */
    double uniform_lower, uniform_upper; /* θ of the uniform matrix, a hose matrix */
    double worst_tub;           /* TUB of the longest-matching matrix, each pair
                                   exchanging min(p_u, p_v) (a hose matrix) */
    double pair_flow;           /* the same matrix, each pair charged its own
                                   min-cost flow (≤ worst_tub; hose_pairs.c) */
    double worst_dual;          /* worse permutations by alternating dual lengths
                                   and assignments (hose_dual.c); ∞ when skipped */
    double worst_upper;         /* effort ≥ 1: the approximation's (2: the LP's)
                                   upper bound on that matrix; else ∞ */
    double cut_bound;           /* balanced cut (METIS) and single-switch cuts */
    int64_t servers;            /* S */
    double oblivious;           /* effort 2: the best oblivious routing's proven
                                   bound (hose_oblivious.c); 0 when not solved */
    double oblivious_lp;        /* its LP value 1/α (not proven: Clp's tolerances) */
} moore_hose_result;

/* Bounds on the hose throughput of g. effort 0: shortest-path splits, the
 * weight LP, TUBs and cuts only (fast: O(classes·switches·links)); −1: the
 * same without the two dearer upper bounds (the longest matching's TUB and
 * the METIS cut), for searches that need the lower bound; 1: also
 * the (1+o->eps) approximation of the uniform and the optimised two-phase
 * matrix (skipped above ~5,000 server switches, where the dense matrix would
 * not fit) and of the longest matching; 2: the exact LP instead (small
 * graphs). Fills the caller's *out
 * (static strings only; nothing to clear). effort ≥ 0 adds the worst matrix's
 * matching (O(k³) for k server switches up to MOORE_MATCHING_EXACT_MAX), its
 * pairs' min-cost flows (O(d·TUB) Dijkstras per pair, within ~2·10⁹ arc
 * visits), the dual-length bound (Garg–Könemann phases within ~2·10⁹ arc
 * visits and an O(k³) assignment for k server switches, k² doubles of
 * memory; skipped above 3,000 server switches) and a METIS bisection;
 * effort 1 / 2 add moore_flow_approx / moore_flow_exact runs; effort 2
 * also solves the optimal oblivious routing's LP (Applegate–Cohen, reduced
 * by the automorphisms that keep the server counts, one Traces run) when it
 * fits (k²·(2|E| + n) ≤ 3·10⁷ for k server switches, ≤ 10⁴ columns after
 * the reduction), O(k²·|E|) memory, and keeps the larger lower bound. */
MOORE_API int moore_flow_hose(const moore_graph *g, const moore_flow_options *o, int effort,
                              moore_hose_result *out, moore_error *err);

/* Adds the keys `moore throughput --tm hose --json` prints for h (copied into
 * the caller's report r). O(size of the report). */
MOORE_API int moore_flow_hose_report(moore_report *r, const moore_graph *g,
                                     const moore_hose_result *h, double eps, int effort,
                                     moore_error *err);

/* Adds to r what `moore throughput --json` prints for result f of matrix t on
 * g: the identity (topology, family, params; null for a graph without an
 * origin), tm, switches, commodities, demand_total, throughput, lower, upper,
 * method, gap, eps (approximation), converged, phases / rounds /
 * lp_iterations, tub, link utilisation, and the matching of a worst-case TM.
 * Values are copied into the caller's r; O(size of the report). */
MOORE_API int moore_flow_report(moore_report *r, const moore_graph *g, const moore_traffic *t,
                                const moore_flow_result *f, double tub, double eps, int exact,
                                uint64_t seed, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
