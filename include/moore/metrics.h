/* metrics.h — metric groups: the names `moore stats --metrics LIST` takes.
 *
 * A group ("basic", "paths", "spectral", …) computes one area's metrics with
 * that area's own API (paths.h, spectrum.h, …) and adds them to a report under
 * the keys `moore stats --json` prints. The table in src/analysis/registry.c lists every group;
 * `default_on` marks those `moore stats` runs without --metrics, and `--all`
 * runs them all. */
#ifndef MOORE_METRICS_H
#define MOORE_METRICS_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"
#include "moore/report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options shared by all groups. */
typedef struct moore_metric_options {
    uint64_t seed;          /* for sampled or randomised metrics */
    int threads;            /* 0 = OpenMP default */
    /* Called now and then during long work with done/total in [0,1]; may be NULL.
     * The CLI uses it to draw progress on a terminal; the library never prints. */
    void (*progress)(void *ctx, const char *what, double fraction);
    void *progress_ctx;
    /* The MPI job the work is spread over (dist.h); NULL: this process alone.
     * Every rank calls with the same arguments and gets the same result. */
    const struct moore_dist *dist;
    /* The cost model the layout group prices with (layout.h); NULL: the
     * default model. `compare` and `report` pass `--model` through here. */
    const struct moore_cost_model *cost_model;
} moore_metric_options;

/* Fills the caller's struct with the defaults (seed 1, no callbacks); O(1). */
MOORE_API void moore_metric_options_default(moore_metric_options *o);

typedef struct moore_metric_group {
    const char *name;
    const char *help;
    int default_on;
    int (*compute)(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                   moore_error *err);
} moore_metric_group;

/* The table, terminated by an entry with name NULL. Static; find is a linear
 * scan, NULL when the name is unknown. */
MOORE_API const moore_metric_group *moore_metric_groups(void);
MOORE_API const moore_metric_group *moore_metric_group_find(const char *name);

/* Runs the groups named in a comma list ("basic,paths"), "all", or NULL for the
 * default set, in table order; unknown names are refused. Borrows g; appends to
 * the caller's report r (released with moore_report_clear), which on error keeps
 * the rows of the groups that ran. Cost: the sum of the groups', each that of
 * its area's functions (paths: moore_paths_auto, usually the largest). */
MOORE_API int moore_metrics_compute(const moore_graph *g, const char *list,
                          const moore_metric_options *o, moore_report *r, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
