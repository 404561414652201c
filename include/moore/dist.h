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
 * MPI. Call once per program, from its main thread. *out is freed (and MPI
 * finalised) by moore_dist_finalize; NULL on error. */
MOORE_API int moore_dist_init(int *argc, char ***argv, moore_dist **out, moore_error *err);
/* Leaves the job (MPI_Finalize) and frees d. NULL is fine. */
MOORE_API void moore_dist_finalize(moore_dist *d);

MOORE_API int moore_dist_rank(const moore_dist *d);   /* 0 for NULL */
MOORE_API int moore_dist_size(const moore_dist *d);   /* 1 for NULL */
/* 1 when built with MPI support. This, rank and size are O(1). */
MOORE_API int moore_dist_available(void);

/* Item i of a loop over n items belongs to this rank: i mod size == rank. */
static inline int moore_dist_mine(const moore_dist *d, int64_t i)
{
    return i % moore_dist_size(d) == moore_dist_rank(d);
}

/* The collectives below work in the caller's buffers and are no-ops for a
 * NULL d (one process). Each is one or two MPI collectives over the data:
 * O(data) bytes per rank, plus MPI's latency.
 * Element-wise sum over the ranks, result on every rank (exact). */
MOORE_API int moore_dist_sum_i64(const moore_dist *d, int64_t *buf, int64_t n, moore_error *err);
/* Element-wise maximum over the ranks, result on every rank. */
MOORE_API int moore_dist_max_i64(const moore_dist *d, int64_t *buf, int64_t n, moore_error *err);
/* Rows owned by ranks (row i by rank i mod size, as moore_dist_mine) made
 * whole on every rank: each rank's own rows are kept bit for bit and the
 * others filled in from their owners. rows × width doubles. */
MOORE_API int moore_dist_share_rows(const moore_dist *d, double *buf, int64_t rows, int64_t width,
                                    moore_error *err);
/* buf (bytes) of rank root copied to every rank. */
MOORE_API int moore_dist_bcast(const moore_dist *d, void *buf, int64_t bytes, int root,
                               moore_error *err);
/* Every rank's rc agreed: afterwards all ranks return the same code, the
 * largest any rank had, with the message of the lowest rank that had it — so
 * one failing share makes the whole job fail with one line, never hang. */
MOORE_API int moore_dist_agree(const moore_dist *d, int rc, moore_error *err);

/* Bytes that carry one item's result between ranks (moore_dist_map). */
typedef struct moore_dist_blob {
    unsigned char *data;
    int64_t len, cap;
    int64_t at;                 /* where the next unpack reads */
} moore_dist_blob;

/* A blob is a caller-owned struct (zero it to start); clear frees its data and
 * zeroes it (NULL is fine). */
MOORE_API void moore_dist_blob_clear(moore_dist_blob *b);
/* len raw bytes appended to b (growing it), or read from b->at on (an error
 * when b ends first). Amortised O(len). */
MOORE_API int moore_dist_blob_put(moore_dist_blob *b, const void *p, int64_t len,
                                  moore_error *err);
MOORE_API int moore_dist_blob_get(moore_dist_blob *b, void *p, int64_t len, moore_error *err);
/* Every rank's bytes (mine, len of them) on every rank: all receives their
 * concatenation in rank order (all->len in total, all->at = 0) and lens[r]
 * rank r's length (lens holds moore_dist_size(d) entries). A failure on any
 * rank (memory, more than 2 GiB) fails every rank with the same code. all is
 * the caller's blob (released with moore_dist_blob_clear); O(total bytes). */
MOORE_API int moore_dist_allgather(const moore_dist *d, const void *mine, int64_t len,
                                   moore_dist_blob *all, int64_t *lens, moore_error *err);

struct moore_report;
/* A report packed bit for bit — every double's bits, NaN and infinities
 * included, and each value's type — and unpacked from b->at on, appending its
 * keys to r. (JSON would lose NaN, infinities and the integer/double
 * distinction, so the results could differ by rank count.) A comparison is
 * packed the same way by moore_dist_pack_compare (plan.h). Both work in the
 * caller's blob and report; O(size of the report). */
MOORE_API int moore_dist_pack_report(moore_dist_blob *b, const struct moore_report *r,
                                     moore_error *err);
MOORE_API int moore_dist_unpack_report(moore_dist_blob *b, struct moore_report *r,
                                       moore_error *err);

/* A loop whose items are independent: item i runs on rank i mod size, alone
 * (its own work must not use the group: pass it a NULL moore_dist), and packs
 * its result; every rank then receives every item's result and takes them in
 * index order. */
typedef struct moore_dist_loop {
    int64_t count;
    /* Runs item i and packs its result into out; called on its owner only. */
    int (*run)(void *ctx, int64_t i, moore_dist_blob *out, moore_error *err);
    /* Item i's result (read from in->at = 0), on every rank, i = 0, 1, ... */
    int (*take)(void *ctx, int64_t i, moore_dist_blob *in, moore_error *err);
    void *ctx;
} moore_dist_loop;

/* Runs the loop over d. The first item (in index order) that fails decides
 * the outcome on every rank — its code and message, the same as one process
 * running the items in order would stop with — and a rank's own failure
 * never leaves the others waiting. With a NULL d (or one rank) each item is
 * run and taken in turn, as a plain loop. Cost: the items' own, plus a
 * broadcast of each item's packed result from its owner. */
MOORE_API int moore_dist_map(const moore_dist *d, const moore_dist_loop *loop, moore_error *err);

/* The group a loop of count items should spread over: d when there are at
 * least as many items as ranks, else NULL — then every rank runs every item
 * and the items share their inner work (all-pairs distances) through d. The
 * items' own group is the other one: d when this returns NULL, else NULL. */
static inline const moore_dist *moore_dist_for_items(const moore_dist *d, int64_t count)
{
    return count >= moore_dist_size(d) ? d : NULL;
}

#ifdef __cplusplus
}
#endif
#endif
