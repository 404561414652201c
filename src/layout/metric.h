/* metric.h — the "layout" metric group (metric.c) as a row of the analysis
 * registry (src/analysis/registry.c). Not public API; declared here so the
 * registry and metric.c see one signature. */
#ifndef MOORE_SRC_LAYOUT_METRIC_H
#define MOORE_SRC_LAYOUT_METRIC_H

#include "moore/metrics.h"

int layout_metric(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                        moore_error *err);

#endif
