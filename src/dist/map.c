/* map.c — moore_dist_map: independent items (the families of a comparison,
 * the points of a report's sweep) spread over the ranks of a job, item i on
 * rank i mod K, their packed results handed to every rank in index order
 * (docs/scale.md).
 *
 * Each rank first runs all its items, stopping at its own first failure;
 * then item after item its owner broadcasts a header (the item's code and
 * message, the result's length) and the result's bytes. Every rank sees the
 * same headers, so all stop together at the first failed item, whose code
 * and message are then every rank's — what one process running the items in
 * order would report. Only the broadcasts of dist.h are used: in a build
 * without MPI they are no-ops and the loop is a plain loop. */
#include "moore/dist.h"

#include <stdlib.h>
#include <string.h>

typedef struct map_header {
    int64_t len;
    int32_t rc;
    char msg[MOORE_ERRMSG_LEN];
} map_header;

/* One process: run and take each item in turn. */
static int map_serial(const moore_dist_loop *l, moore_error *err)
{
    int rc = MOORE_OK;
    for (int64_t i = 0; !rc && i < l->count; i++) {
        moore_dist_blob b = { 0 };
        rc = l->run(l->ctx, i, &b, err);
        b.at = 0;
        if (!rc)
            rc = l->take(l->ctx, i, &b, err);
        moore_dist_blob_clear(&b);
    }
    return rc;
}

/* This rank's items, run in order; a failure is kept in its header and ends
 * the rank's share (later items cannot be taken before it anyway). */
static void map_run_mine(const moore_dist *d, const moore_dist_loop *l, moore_dist_blob *blobs,
                         map_header *heads)
{
    int failed = 0;
    for (int64_t i = moore_dist_rank(d); i < l->count; i += moore_dist_size(d)) {
        moore_error e;
        moore_error_clear(&e);
        map_header *h = &heads[i];
        h->rc = failed ? MOORE_OK : l->run(l->ctx, i, &blobs[i], &e);
        if (h->rc) {
            failed = 1;
            memcpy(h->msg, e.msg, sizeof h->msg);
        }
        h->len = blobs[i].len;
    }
}

/* Item i's bytes from its owner into b. A rank that cannot make room still
 * joins the broadcast, through a scratch buffer, so no rank is left waiting;
 * it then fails with the rest after the loop (moore_dist_agree). */
static int map_receive(const moore_dist *d, moore_dist_blob *b, int64_t len, int owner,
                       int *local, moore_error *local_err, moore_error *err)
{
    if (owner != moore_dist_rank(d) && len > 0 && !*local) {
        b->data = moore_malloc((size_t)len, 1, local_err);
        *local = b->data ? MOORE_OK : local_err->code;
        b->len = b->cap = b->data ? len : 0;
    }
    if (b->data || len == 0)
        return moore_dist_bcast(d, b->data, len, owner, err);
    unsigned char scratch[4096];
    int rc = MOORE_OK;
    for (int64_t at = 0; !rc && at < len; at += (int64_t)sizeof scratch)
        rc = moore_dist_bcast(d, scratch, len - at < (int64_t)sizeof scratch ? len - at
                                                     : (int64_t)sizeof scratch, owner, err);
    return rc;
}

int moore_dist_map(const moore_dist *d, const moore_dist_loop *loop, moore_error *err)
{
    if (moore_dist_size(d) == 1)
        return map_serial(loop, err);
    int64_t n = loop->count;
    int rc = MOORE_OK, item_rc = MOORE_OK, local = MOORE_OK;
    moore_error local_err;
    moore_error_clear(&local_err);
    moore_dist_blob *blobs = moore_calloc((size_t)(n > 0 ? n : 1), sizeof *blobs, err);
    map_header *heads = moore_calloc((size_t)(n > 0 ? n : 1), sizeof *heads, err);
    rc = moore_dist_agree(d, blobs && heads ? MOORE_OK : MOORE_ENOMEM, err);
    if (rc)
        goto done;
    map_run_mine(d, loop, blobs, heads);
    for (int64_t i = 0; !rc && i < n; i++) {
        int owner = (int)(i % moore_dist_size(d));
        map_header *h = &heads[i];
        rc = moore_dist_bcast(d, h, (int64_t)sizeof *h, owner, err);
        if (!rc && h->rc) { /* every rank saw it: all stop here */
            h->msg[sizeof h->msg - 1] = '\0';
            item_rc = moore_error_set(err, h->rc, "%s", h->msg);
            break;
        }
        if (!rc)
            rc = map_receive(d, &blobs[i], h->len, owner, &local, &local_err, err);
        blobs[i].at = 0;
        if (!rc && !local)
            local = loop->take(loop->ctx, i, &blobs[i], &local_err);
    }
    if (!rc && !item_rc) { /* a take that failed on one rank fails every rank */
        if (local && err)
            *err = local_err;
        rc = moore_dist_agree(d, local, err);
    }
    if (item_rc)
        rc = item_rc;
done:
    for (int64_t i = 0; blobs && i < n; i++)
        moore_dist_blob_clear(&blobs[i]);
    free(blobs);
    free(heads);
    return rc;
}
