/* dist.c — the MPI group behind a moore_dist, and the single-process
 * stand-in when moore is built without MPI (MOORE_MPI undefined).
 *
 * Every collective below is called by all ranks in the same order: the loops
 * that use them split items by rank but always reach the reduction, even
 * when a rank's share failed (moore_dist_agree then spreads the failure), so
 * a job cannot hang on one rank's bad input. */
#include "moore/dist.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for total bytes in all (its old contents are not kept). */
static int gather_room(moore_dist_blob *all, int64_t total, moore_error *err)
{
    if (all->cap < total) {
        unsigned char *data = moore_malloc((size_t)total, 1, err);
        if (!data)
            return err ? err->code : MOORE_ENOMEM;
        free(all->data);
        all->data = data;
        all->cap = total;
    }
    all->len = total;
    all->at = 0;
    return MOORE_OK;
}

/* One process's gather: its own bytes. */
static int gather_alone(const void *mine, int64_t len, moore_dist_blob *all, int64_t *lens,
                        moore_error *err)
{
    lens[0] = len;
    int rc = gather_room(all, len, err);
    if (!rc && len)
        memcpy(all->data, mine, (size_t)len);
    return rc;
}

#ifdef MOORE_MPI
#include <mpi.h>

struct moore_dist {
    MPI_Comm comm;
    int rank, size;
};

int moore_dist_available(void) { return 1; }

int moore_dist_init(int *argc, char ***argv, moore_dist **out, moore_error *err)
{
    int started;
    *out = NULL;
    MPI_Initialized(&started);
    if (!started && MPI_Init(argc, argv) != MPI_SUCCESS)
        return moore_error_set(err, MOORE_EINTERNAL, "MPI_Init failed");
    moore_dist *d = moore_calloc(1, sizeof *d, err);
    if (!d)
        return err->code;
    MPI_Comm_dup(MPI_COMM_WORLD, &d->comm);
    MPI_Comm_rank(d->comm, &d->rank);
    MPI_Comm_size(d->comm, &d->size);
    *out = d;
    return MOORE_OK;
}

void moore_dist_finalize(moore_dist *d)
{
    if (!d)
        return;
    MPI_Comm_free(&d->comm);
    free(d);
    MPI_Finalize();
}

int moore_dist_rank(const moore_dist *d) { return d ? d->rank : 0; }
int moore_dist_size(const moore_dist *d) { return d ? d->size : 1; }

static int dist_fail(const char *what, moore_error *err)
{
    return moore_error_set(err, MOORE_EINTERNAL, "MPI: %s failed", what);
}

/* MPI counts are int: large buffers go in chunks. */
#define DIST_CHUNK (1 << 28)

static int reduce_i64(const moore_dist *d, int64_t *buf, int64_t n, MPI_Op op, moore_error *err)
{
    for (int64_t at = 0; d && d->size > 1 && at < n; at += DIST_CHUNK) {
        int cnt = (int)(n - at < DIST_CHUNK ? n - at : DIST_CHUNK);
        if (MPI_Allreduce(MPI_IN_PLACE, buf + at, cnt, MPI_INT64_T, op, d->comm) != MPI_SUCCESS)
            return dist_fail("Allreduce", err);
    }
    return MOORE_OK;
}

int moore_dist_sum_i64(const moore_dist *d, int64_t *buf, int64_t n, moore_error *err)
{
    return reduce_i64(d, buf, n, MPI_SUM, err);
}

int moore_dist_max_i64(const moore_dist *d, int64_t *buf, int64_t n, moore_error *err)
{
    return reduce_i64(d, buf, n, MPI_MAX, err);
}

/* Other ranks' rows are zeroed, then summed: x + 0 + ... + 0 is x exactly
 * (NaN stays NaN), so each row arrives as its owner computed it. */
int moore_dist_share_rows(const moore_dist *d, double *buf, int64_t rows, int64_t width,
                          moore_error *err)
{
    if (!d || d->size == 1)
        return MOORE_OK;
    for (int64_t i = 0; i < rows; i++)
        if (!moore_dist_mine(d, i))
            memset(buf + i * width, 0, (size_t)width * sizeof *buf);
    for (int64_t at = 0, n = rows * width; at < n; at += DIST_CHUNK) {
        int cnt = (int)(n - at < DIST_CHUNK ? n - at : DIST_CHUNK);
        if (MPI_Allreduce(MPI_IN_PLACE, buf + at, cnt, MPI_DOUBLE, MPI_SUM, d->comm) !=
            MPI_SUCCESS)
            return dist_fail("Allreduce", err);
    }
    return MOORE_OK;
}

int moore_dist_bcast(const moore_dist *d, void *buf, int64_t bytes, int root, moore_error *err)
{
    for (int64_t at = 0; d && d->size > 1 && at < bytes; at += DIST_CHUNK) {
        int cnt = (int)(bytes - at < DIST_CHUNK ? bytes - at : DIST_CHUNK);
        if (MPI_Bcast((char *)buf + at, cnt, MPI_BYTE, root, d->comm) != MPI_SUCCESS)
            return dist_fail("Bcast", err);
    }
    return MOORE_OK;
}

int moore_dist_agree(const moore_dist *d, int rc, moore_error *err)
{
    if (!d || d->size == 1)
        return rc;
    int worst = rc, first = d->size;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, d->comm);
    if (worst == MOORE_OK)
        return MOORE_OK;
    int mine = rc == worst ? d->rank : d->size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, d->comm);
    char msg[MOORE_ERRMSG_LEN];
    snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
    MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, first, d->comm);
    msg[sizeof msg - 1] = '\0';
    return moore_error_set(err, worst, "%s", msg);
}

int moore_dist_allgather(const moore_dist *d, const void *mine, int64_t len,
                         moore_dist_blob *all, int64_t *lens, moore_error *err)
{
    if (!d || d->size == 1)
        return gather_alone(mine, len, all, lens, err);
    if (MPI_Allgather(&len, 1, MPI_INT64_T, lens, 1, MPI_INT64_T, d->comm) != MPI_SUCCESS)
        return dist_fail("Allgather", err);
    int64_t total = 0;
    for (int r = 0; r < d->size; r++)
        total += lens[r];
    /* Every rank saw the same lengths, so all refuse together. */
    if (total > INT_MAX)
        return moore_error_set(err, MOORE_ETOOBIG, "MPI: %lld bytes to gather in one step, "
                               "more than %d", (long long)total, INT_MAX);
    int rc = moore_dist_agree(d, gather_room(all, total, err), err);
    int *counts = NULL, *offs = NULL;
    if (!rc) {
        counts = moore_malloc((size_t)d->size, sizeof *counts, err);
        offs = moore_malloc((size_t)d->size, sizeof *offs, err);
        rc = moore_dist_agree(d, counts && offs ? MOORE_OK : MOORE_ENOMEM, err);
    }
    if (!rc) {
        for (int r = 0, at = 0; r < d->size; at += (int)lens[r], r++) {
            counts[r] = (int)lens[r];
            offs[r] = at;
        }
        if (MPI_Allgatherv(mine, (int)len, MPI_BYTE, all->data, counts, offs, MPI_BYTE,
                           d->comm) != MPI_SUCCESS)
            rc = dist_fail("Allgatherv", err);
    }
    free(counts);
    free(offs);
    return rc;
}

#else /* one process */

int moore_dist_available(void) { return 0; }

int moore_dist_init(int *argc, char ***argv, moore_dist **out, moore_error *err)
{
    (void)argc;
    (void)argv;
    (void)err;
    *out = NULL;
    return MOORE_OK;
}

void moore_dist_finalize(moore_dist *d) { (void)d; }
int moore_dist_rank(const moore_dist *d) { (void)d; return 0; }
int moore_dist_size(const moore_dist *d) { (void)d; return 1; }

int moore_dist_sum_i64(const moore_dist *d, int64_t *buf, int64_t n, moore_error *err)
{
    (void)d, (void)buf, (void)n, (void)err;
    return MOORE_OK;
}

int moore_dist_max_i64(const moore_dist *d, int64_t *buf, int64_t n, moore_error *err)
{
    (void)d, (void)buf, (void)n, (void)err;
    return MOORE_OK;
}

int moore_dist_share_rows(const moore_dist *d, double *buf, int64_t rows, int64_t width,
                          moore_error *err)
{
    (void)d, (void)buf, (void)rows, (void)width, (void)err;
    return MOORE_OK;
}

int moore_dist_bcast(const moore_dist *d, void *buf, int64_t bytes, int root, moore_error *err)
{
    (void)d, (void)buf, (void)bytes, (void)root, (void)err;
    return MOORE_OK;
}

int moore_dist_agree(const moore_dist *d, int rc, moore_error *err)
{
    (void)d, (void)err;
    return rc;
}

int moore_dist_allgather(const moore_dist *d, const void *mine, int64_t len,
                         moore_dist_blob *all, int64_t *lens, moore_error *err)
{
    (void)d;
    return gather_alone(mine, len, all, lens, err);
}

#endif
