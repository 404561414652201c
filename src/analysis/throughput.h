/* throughput.h — the "throughput" metric group (throughput.c) as a row of
 * the registry (registry.c). Not public API. */
#ifndef MOORE_SRC_ANALYSIS_THROUGHPUT_H
#define MOORE_SRC_ANALYSIS_THROUGHPUT_H

#include "moore/metrics.h"

int analysis_metric_throughput(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                            moore_error *err);

#endif
