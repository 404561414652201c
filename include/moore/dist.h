/* dist.h — work spread over the processes of an MPI job (docs/scale.md).
 *
 * A moore_dist is the group of processes (MPI ranks) that run one moore
 * command together. Long loops split their items — BFS source batches,
 * failure trials, configurations of a sweep — by rank, and combine the parts
 * with the reductions below, which are exact (integers) or made in a fixed
 * order, so a result is bit-identical for every number of ranks. A NULL
 * moore_dist, or a build without MPI (the default; -DMOORE_MPI=ON for one),
 * is one process: rank 0 of 1, and every reduction is the identity. */
#ifndef MOORE_DIST_H
#define MOORE_DIST_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct moore_dist moore_dist;

/* Joins the MPI job the program was started in (MPI_Init; argc/argv may be
 * NULL) and returns its group, or *out = NULL when moore was built without
 * MPI. Call once per program, from its main thread. */
MOORE_API int moore_dist_init(int *argc, char ***argv, moore_dist **out, moore_error *err);
/* Leaves the job (MPI_Finalize). NULL is fine. */
MOORE_API void moore_dist_finalize(moore_dist *d);

MOORE_API int moore_dist_rank(const moore_dist *d);   /* 0 for NULL */
MOORE_API int moore_dist_size(const moore_dist *d);   /* 1 for NULL */
/* 1 when built with MPI support. */
MOORE_API int moore_dist_available(void);

/* Item i of a loop over n items belongs to this rank: i mod size == rank. */
static inline int moore_dist_mine(const moore_dist *d, int64_t i)
{
    return i % moore_dist_size(d) == moore_dist_rank(d);
}

/* Element-wise sum over the ranks, result on every rank (exact). */
MOORE_API int moore_dist_sum_i64(const moore_dist *d, int64_t *buf, int64_t n, moore_error *err);
/* Element-wise maximum over the ranks, result on every rank. */
MOORE_API int moore_dist_max_i64(const moore_dist *d, int64_t *buf, int64_t n, moore_error *err);
/* buf (bytes) of rank root copied to every rank. */
MOORE_API int moore_dist_bcast(const moore_dist *d, void *buf, int64_t bytes, int root,
                               moore_error *err);
/* Every rank's rc agreed: afterwards all ranks return the same code, the
 * largest any rank had, with the message of the lowest rank that had it — so
 * one failing share makes the whole job fail with one line, never hang. */
MOORE_API int moore_dist_agree(const moore_dist *d, int rc, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
