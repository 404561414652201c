/* page.h — the report: the comparison as one self-contained HTML page.
 *
 * `moore report` writes what an architect hands on: the main job's table
 * (moore compare), then figures drawn by PLplot (plot.h) over a sweep of
 * endpoint counts — switches, cables and cost, diameter and server-to-server
 * path length — the throughput of each chosen topology with its proven
 * bounds (uniform and any traffic), λ₂ against the Ramanujan bound, distance histograms, and a closing
 * resilience curves (connected share and throughput against the share of
 * links failed), routed (ECMP, KSP-8) against optimal throughput, with a
 * job the training step's time by phase per family, and a closing
 * table of often-quoted claims about the families with the measured value and a verdict.
 * Every figure's numbers are printed under it and, with a data directory,
 * written as CSV files beside the page. The page has no external reference:
 * styles and figures are inline, so it reads offline and prints. */
#ifndef MOORE_PAGE_H
#define MOORE_PAGE_H

#include "moore/export.h"
#include <stdint.h>
#include <stdio.h>
#include "moore/error.h"
#include "moore/metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MOORE_PAGE_SWEEP_MAX 32

typedef struct moore_page_options {
    int32_t radix;              /* default 48 */
    int64_t endpoints;          /* the main table's target, default 10,000 */
    double bandwidth;           /* the compare bandwidth target; < 0: any (default 1) */
    const char *families;       /* comma list (default: clos,fattree,slimfly,
                                 * xpander,jellyfish,dragonfly,hyperx,polarfly,
                                 * torus); NULL: every family with a planner */
    int64_t sweep[MOORE_PAGE_SWEEP_MAX]; /* endpoint counts of the figures' x axis */
    int sweep_count;            /* default 1,000 2,000 5,000 10,000 20,000 50,000 100,000 */
    const char *data_dir;       /* CSV files of every figure go here; NULL: none */
    /* A sweep database (sweep.h): the metric groups of every topology it
     * holds are read from it instead of measured; NULL: measure everything. */
    const char *db;
    /* The rows `moore compare --json=lines` wrote for these radix, endpoints,
     * bandwidth and seed (compare's default metrics): the main comparison is
     * read from them instead of searched and measured again, so the page shows
     * compare's numbers (docs/report.md); NULL: run the comparison. */
    const char *rows;
    /* A training job (workload.h, docs/step-time.md): with one the page adds
     * each row's step time by phase (moore_step_job, the job's own placement,
     * seeded by metric.seed) against the ideal non-blocking fabric; NULL: none. */
    const char *job;
    double link_gbps;           /* its links' rate in Gb/s (> 0 with a job; default 400) */
    const char *step_routing;   /* NULL: optimal routing; else a routing.h spec (ecmp, ...) */
    moore_metric_options metric; /* seed, threads, progress */
} moore_page_options;

/* Fills the caller's struct with the defaults above; O(1). */
MOORE_API void moore_page_options_default(moore_page_options *o);

/* Measures and writes the page to out. The CSV files, when asked for, are
 * each written whole or not at all. Bad options (an empty family list, a
 * sweep value < 1, a radix no family can use) are refused (MOORE_EINVAL)
 * before any work. Writes to the caller's stream; keeps nothing. Time:
 * dominated by moore_compare_run, once per sweep value (the main count's run
 * feeding the table too, unless o->rows holds it), plus bounded resilience and routing runs per
 * chosen topology (docs/report.md), and with a job one step timing per row
 * (moore_step_job, at most 64 approximation phases per throughput). */
MOORE_API int moore_page_write(const moore_page_options *o, FILE *out, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
