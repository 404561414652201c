/* resilience.h — what a topology keeps when links, switches or racks fail
 * (docs/resilience.md).
 *
 * A failure scenario is drawn from a seeded moore_rng: each link with
 * probability f, exactly round(f·m) links, round(f·n) switches (their servers
 * are lost with them), a number of whole racks, or a number of whole
 * rack-to-rack cable bundles (all links between one pair of racks). The
 * surviving graph keeps the endpoints of the surviving switches, renumbered
 * in order. Trials run in parallel; trial t draws from moore_rng_split(seed
 * stream, t), so the numbers are the same bytes for any thread count.
 *
 * The disconnection fraction (docs/resilience.md: the share of links removed, in uniformly
 * random order, when the graph first disconnects) is exact per trial: the
 * links are added back in reverse order into a union-find structure, no BFS
 * per removal. For switches it is the share removed when the survivors first
 * are disconnected or fewer than two. */
#ifndef MOORE_RESILIENCE_H
#define MOORE_RESILIENCE_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"
#include "moore/report.h"
#include "moore/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- scenarios (scenarios.c) ---- */

typedef enum moore_failure_kind {
    MOORE_FAIL_LINKS_PROB,      /* every link independently with probability level */
    MOORE_FAIL_LINKS_FRACTION,  /* exactly round(level·m) links, uniform without replacement */
    MOORE_FAIL_SWITCHES,        /* exactly round(level·n) switches */
    MOORE_FAIL_RACKS,           /* level (an integer) whole racks */
    MOORE_FAIL_BUNDLES          /* level (an integer) whole rack-pair bundles */
} moore_failure_kind;

typedef struct moore_failure_scenario {
    moore_failure_kind kind;
    double level;           /* probability / fraction in [0,1], or a rack / bundle count */
    const int32_t *rack;    /* racks and bundles: rack[v] in 0..racks-1 for every switch */
    int32_t racks;
} moore_failure_scenario;

/* Checks a scenario against g: level in [0,1] for links and switches; for
 * racks and bundles a rack array, an integer level between 0 and the number
 * of racks (bundles: of rack pairs joined by at least one link). Borrows g and
 * s; O(1), or O(n + m log m) for bundles (counting them). */
MOORE_API int moore_failure_check(const moore_graph *g, const moore_failure_scenario *s,
                                  moore_error *err);

/* Link ids: link i is the i-th arc u→v with u < v in CSR order. Fills u[i],
 * v[i] for the m links. u and v are caller-owned; O(n + m). */
MOORE_API void moore_failure_links(const moore_graph *g, int32_t *u, int32_t *v);

/* One draw: link_failed (m entries) and switch_failed (n entries) set to 0/1.
 * Links of a failed switch are not marked (the survivor drops them anyway).
 * Both arrays are caller-owned; advances rng. O(n + m) (bundles: O(n + m log m)). */
MOORE_API int moore_failure_draw(const moore_graph *g, const moore_failure_scenario *s,
                                 moore_rng *rng, char *link_failed, char *switch_failed,
                                 moore_error *err);

/* ---- the surviving graph (survivor.c) ---- */

/* The graph of the switches not failed and the links not failed between them;
 * switches keep their endpoints and relative order (no labels, no family). switch_failed or
 * link_failed may be NULL (nothing failed). *out is a new graph the caller
 * frees with moore_graph_free; NULL on error. O(n + m). */
MOORE_API int moore_survivor_build(const moore_graph *g, const char *link_failed,
                                   const char *switch_failed, moore_graph **out,
                                   moore_error *err);

/* ---- statistics and trials (trials.c) ---- */

typedef struct moore_fail_stats {
    int64_t count;          /* finite values summarised (NaN values are skipped) */
    double mean, min, max, p5, p50, p95, std;   /* NaN when count = 0 */
} moore_fail_stats;

/* Summary of n values: percentiles interpolate linearly between order
 * statistics (rank (n−1)·p); std is the population standard deviation. A
 * constant sample gives that value exactly for every statistic and std 0.
 * Fills the caller's *out; O(n log n) time (a sort), O(n) scratch. */
MOORE_API int moore_fail_summarize(const double *x, int64_t n, moore_fail_stats *out,
                                   moore_error *err);

/* Metrics of a surviving graph, by index into the per-trial values. */
enum {
    MOORE_FAIL_DIAMETER,
    MOORE_FAIL_APL,
    MOORE_FAIL_APL_ENDPOINTS,
    MOORE_FAIL_THROUGHPUT,      /* uniform TM, proven lower bound (flow.h) */
    MOORE_FAIL_BISECTION,       /* METIS cut of the survivor (bisection.h) */
    MOORE_FAIL_NMETRICS
};
/* Key of each metric: "diameter", "avg_path_length", "avg_path_length_endpoints",
 * "throughput_uniform", "bisection". A static string (NULL out of range); O(1). */
MOORE_API const char *moore_fail_metric_name(int metric);
/* Parses "diameter,avg_path_length", "all" or NULL (the three distance
 * metrics) into a bit mask (1 << metric); unknown names are refused. O(length of list). */
MOORE_API int moore_fail_metric_mask(const char *list, unsigned *mask, moore_error *err);

typedef struct moore_fail_options {
    int trials;             /* default 100; 1 .. MOORE_FAIL_MAX_TRIALS */
    uint64_t seed;          /* default 1 */
    unsigned metrics;       /* bit mask from moore_fail_metric_mask */
    double eps;             /* throughput approximation (default 0.05) */
    int threads;            /* 0 = OpenMP default */
    void (*progress)(void *ctx, const char *what, double fraction);
    void *progress_ctx;
    /* The MPI job the trials are spread over (dist.h; trial t on rank
     * t mod K); NULL: this process alone. Same numbers for any K. */
    const struct moore_dist *dist;
} moore_fail_options;

#define MOORE_FAIL_MAX_TRIALS 1000000

/* Fills the caller's struct with the defaults above; O(1). */
MOORE_API void moore_fail_options_default(moore_fail_options *o);

typedef struct moore_fail_result {
    int trials;
    int connected_trials;       /* trials whose surviving graph is connected */
    double connected_fraction;
    moore_fail_stats links_failed, switches_failed;   /* per trial, counts drawn */
    /* What the trial's network lost, per trial: switches failed, links gone
     * (failed, or attached to a failed switch) and servers on failed
     * switches. A rack failure draws no link, yet loses its switches' links. */
    moore_fail_stats switches_lost, links_lost, servers_lost;
    /* Each metric over the connected trials (count 0 when not requested). */
    moore_fail_stats metric[MOORE_FAIL_NMETRICS];
    double *values;             /* trials × MOORE_FAIL_NMETRICS, NaN: not defined */
    char *connected;            /* trials entries */
} moore_fail_result;

/* T trials of a scenario and the chosen metrics of each surviving graph.
 * Fills the caller's *out (values, connected on the heap): release it with
 * moore_fail_result_clear; on error it holds nothing to release. Time: T ×
 * (a draw and a survivor, O(n + m log m), plus the metrics asked for: distances
 * by moore_paths_compute, throughput a moore_flow_approx run, bisection a METIS
 * run); trials run in parallel, O(n + m) memory per thread. */
MOORE_API int moore_fail_trials(const moore_graph *g, const moore_failure_scenario *s,
                                const moore_fail_options *o, moore_fail_result *out,
                                moore_error *err);
/* Frees values and connected and sets them to NULL (NULL r is fine); O(1). */
MOORE_API void moore_fail_result_clear(moore_fail_result *r);

/* ---- disconnection (disconnect.c) ---- */

/* The removal order of trial t (links: m link ids; switches: n switch ids),
 * a uniform random permutation from moore_rng_split of the seed's stream.
 * order is caller-owned; O(n) or O(m). */
MOORE_API int moore_disconnect_order(const moore_graph *g, int switches, uint64_t seed,
                                     int64_t trial, int32_t *order, moore_error *err);

/* removed[t] = number of links (switches when `switches`) removed in trial
 * t's order when the graph first disconnects (switches: is disconnected or
 * has fewer than two switches left). A graph disconnected to begin with
 * gives 0. Needs n >= 2 (and m >= 1 for links). removed (trials entries) is
 * caller-owned. O(trials · (n + m) · α) time (union-find over the reversed
 * order), trials in parallel; O(n + m) memory per thread. */
MOORE_API int moore_disconnect_trials(const moore_graph *g, int switches, uint64_t seed,
                                      int trials, int threads, int64_t *removed,
                                      moore_error *err);

/* The same summarised as fractions of m (n), into the caller's *out. Cost as
 * moore_disconnect_trials. */
MOORE_API int moore_disconnect_fraction(const moore_graph *g, int switches, uint64_t seed,
                                        int trials, int threads, moore_fail_stats *out,
                                        moore_error *err);

/* ---- reports (report.c) ---- */

/* Adds to r what `moore fail --json` prints for one failure level: level,
 * trials, connected_fraction, switches_lost_mean, links_lost_mean,
 * servers_lost_mean, links_failed_mean, switches_failed_mean, and per
 * metric in the mask <key>_mean, _min, _p5, _p50, _p95, _max, _std (null when
 * no trial's survivors were connected). Values copied into the caller's r; O(1). */
MOORE_API int moore_fail_report(moore_report *r, const moore_fail_result *res, double level,
                                unsigned metrics, moore_error *err);
/* Adds what `moore fail --until-disconnected --json` prints: trials and
 * links_ (switches_ when `switches`) at_disconnection_mean, _min, _p5, _p50,
 * _p95, _max, _std. Values copied into the caller's r; O(1). */
MOORE_API int moore_disconnect_report(moore_report *r, const moore_fail_stats *s, int switches,
                                      int trials, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
