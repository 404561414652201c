/* paths_internal.h — internal: the last step every all-pairs distance method
 * shares (bit-parallel BFS and closed forms in paths.c, one BFS per orbit in
 * orbits.c), so the diameter and the average path length are derived from a
 * histogram in one place. */
#ifndef MOORE_SRC_METRICS_PATHS_INTERNAL_H
#define MOORE_SRC_METRICS_PATHS_INTERNAL_H

#include "moore/paths.h"

/* The first step of every method: out's component count and connected flag,
 * and for a disconnected graph its final values (diameter −1, APL NaN, no
 * histogram), so the caller stops when !out->connected. */
int metric_paths_components(const moore_graph *g, moore_paths_result *out, moore_error *err);

/* Fills out's diameter (the last d with hist[d] != 0), its average path
 * length (exact integer sums over d >= 1, one division) and its histogram
 * from hist[0 .. cap − 1], which out takes over (trimmed to diameter + 1
 * entries). The caller has set components and connected. */
void metric_paths_finish(moore_paths_result *out, int64_t *hist, int32_t cap);

#endif
