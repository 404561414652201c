/* step.h — how long a training step spends communicating on a fabric
 * (docs/step-time.md): a job's phases (workload.h) timed one by one from
 * their proven throughput, against the same servers on a non-blocking
 * fabric; several jobs sharing the fabric; and a placement search.
 *
 * A phase moves `bytes` through the busiest server's link. On a non-blocking
 * fabric it takes ideal = bytes / B (B the link rate: no fabric lets a
 * server's own link run faster). On the fabric its switch matrix has
 * throughput θ (max concurrent flow, the busiest server's rate as a multiple
 * of B: flow.h under optimal routing, routing.h under a routing), and the
 * phase takes bytes / (min(1, θ)·B): lower from θ's upper bound, upper from
 * its lower bound. A phase whose sends all stay inside switches uses no
 * network link (θ = ∞) and takes its ideal time. A step is its phases in
 * sequence; an overlapped phase runs alongside `compute` seconds and counts
 * max(phase, compute).
 *
 * Several jobs: while a phase of one job runs, every other job keeps its
 * servers' links busy at line rate with its step's mix (the sum of its
 * phases' matrices weighted by their bytes); the phase's θ is that of the
 * sum, every job scaled by the same θ (the fair share max concurrent flow
 * gives). */
#ifndef MOORE_STEP_H
#define MOORE_STEP_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"
#include "moore/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct moore_step_options {
    double link_gbps;       /* link rate in Gb/s (> 0, finite) */
    const char *routing;    /* NULL or "optimal": any split; else a routing.h spec (ecmp, ...) */
    int exact;              /* exact throughput (Clp) instead of the (1+eps) bounds */
    double eps;             /* approximation: upper ≤ (1+eps)·lower (default 0.1) */
    double time_limit;      /* seconds per throughput computation (0: none) */
    int64_t max_phases;     /* approximation phases per throughput, at most (0: no limit);
                               the bounds reached are still proven, only wider */
    int threads;            /* 0 = OpenMP default */
    const char *overlap;    /* the phase overlapped with compute, or NULL */
    double compute;         /* seconds of compute it overlaps (≥ 0) */
    uint64_t seed;          /* random placement and the search's stream (default 1) */
    int32_t search_evals;   /* placement search: evaluations after the start (default 100) */
} moore_step_options;

/* Fills o with the defaults above (400 Gb/s, optimal routing, eps 0.1, seed 1,
 * 100 search evaluations). O(1). */
MOORE_API void moore_step_options_default(moore_step_options *o);

typedef struct moore_step_phase {
    char name[24];
    double bytes;           /* through the busiest server's link */
    int network;            /* 0: every send stays inside a switch (θ infinite) */
    double theta_lower, theta_upper;     /* proven bounds on θ (network only) */
    double seconds_lower, seconds_upper; /* proven bounds on the phase's time */
    double ideal_seconds;   /* bytes / B */
    int converged;          /* the bounds met the stopping rule (always for fixed splits) */
} moore_step_phase;

typedef struct moore_step_result {
    int32_t count;
    moore_step_phase *phase;
    double step_lower, step_upper;  /* proven bounds on the step's time */
    double ideal;           /* the step on a non-blocking fabric of the same servers */
    double slowdown, slowdown_lower;    /* step_upper / ideal, step_lower / ideal */
} moore_step_result;

/* Releases the phases r holds (r itself is the caller's) and zeroes it. O(1). */
MOORE_API void moore_step_result_clear(moore_step_result *r);

/* The step of each of `jobs` jobs placed on disjoint servers
 * (server_of_rank[j]: job j's server of every rank), out[j] for job j. The
 * phases compete as said above (one job: it has the fabric alone). Refuses
 * (MOORE_EINVAL) a non-positive or non-finite rate, an overlap that is no
 * phase of a job, jobs sharing a server. Cost: one throughput computation
 * per phase (plus one routing build). Caller clears every out[j]. */
MOORE_API int moore_step_jobs(const moore_graph *g, int32_t jobs, const moore_workload *const *w,
                              const int32_t *const *server_of_rank, const moore_step_options *o,
                              moore_step_result *out, moore_error *err);

/* The step of one job w placed on g by its own placement (w's place=, seeded
 * by o->seed; moore_workload_place): what `moore compare --job` and the
 * report time for every row. Refuses (MOORE_EINVAL) a job larger than g's
 * servers, and what moore_step_jobs refuses. Caller clears out (cleared on
 * error). Cost: moore_step_jobs' for one job, plus O(servers) placing. */
MOORE_API int moore_step_job(const moore_graph *g, const moore_workload *w,
                             const moore_step_options *o, moore_step_result *out,
                             moore_error *err);

/* The placement search (docs/step-time.md): linear, random and group are
 * timed, the best is the start; then o->search_evals times two blocks of
 * ranks (one rank when the slowest phase is tp or the job is one
 * collective, else a TP group) chosen by the seeded stream swap servers
 * (or move to free servers) and the swap is kept when the step's upper
 * bound does not grow. Never worse than the best of the three by construction. */
typedef struct moore_step_search {
    double linear, random, group;   /* their step_upper */
    const char *start;      /* the best of them (static string) */
    int32_t evaluations;    /* steps timed after the start */
    int32_t accepted;       /* swaps kept (equal ones too) */
    double gain;            /* best of the three / the result − 1 (≥ 0) */
} moore_step_search;

/* Searches w's placement on g; server_of_rank (the caller's, w's rank count
 * entries) receives it and out its step (the caller clears it; cleared on
 * error). Cost: (3 + o->search_evals) steps. */
MOORE_API int moore_step_search_place(const moore_graph *g, const moore_workload *w,
                                      const moore_step_options *o, int32_t *server_of_rank,
                                      moore_step_search *s, moore_step_result *out,
                                      moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
