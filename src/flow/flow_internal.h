/* flow_internal.h — helpers shared by the flow modules (not public API). */
#ifndef MOORE_SRC_FLOW_INTERNAL_H
#define MOORE_SRC_FLOW_INTERNAL_H

#include "moore/graph.h"

/* Runs a BFS from each of the k switches src[0..k-1] in parallel (OpenMP)
 * and calls row(ctx, i, dist) with the hop distances from src[i] (−1 where
 * unreachable). row runs concurrently for different i, so it must write
 * only to slots of its own i. Returns MOORE_ENOMEM when scratch space could
 * not be had. */
int moore_flow_bfs_rows(const moore_graph *g, const int32_t *src, int32_t k,
                        void (*row)(void *ctx, int32_t i, const int32_t *dist), void *ctx,
                        moore_error *err);

#endif
