/* groups.h — the metric groups of src/metrics/ as rows of the analysis
 * registry (src/analysis/registry.c): each computes its area with the area's
 * own API and adds the keys of docs/json.md to r. Not public API; declared
 * here so the registry and the defining file see one signature. */
#ifndef MOORE_SRC_METRICS_GROUPS_H
#define MOORE_SRC_METRICS_GROUPS_H

#include "moore/metrics.h"

int metric_basic(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                       moore_error *err);                       /* basic.c */
int metric_paths(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                       moore_error *err);                       /* basic.c */
int metric_spectral(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                          moore_error *err);                    /* spectrum.c */
int metric_bisection(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                           moore_error *err);                   /* bisection.c */
int metric_symmetry(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                          moore_error *err);                    /* symmetry.c */
int metric_diversity(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                           moore_error *err);                   /* diversity.c */

#endif
