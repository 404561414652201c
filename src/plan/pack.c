/* pack.c — a comparison as bytes, so the rows measured on one MPI rank
 * reach the others exactly (moore_dist_map, docs/scale.md). It lives with
 * compare, whose structs it writes, and packs with the blob helpers of
 * src/dist/ below it. A comparison is its bandwidth, by_cost, rows (spec and
 * report, moore_dist_pack_report), notes and database counts (which
 * unpacking adds to c's). */
#include "core/alloc.h"
#include "dist/blob.h"
#include "moore/dist.h"
#include "moore/plan.h"
#include "moore/report.h"

#include <stdlib.h>
#include <string.h>

int moore_dist_pack_compare(moore_dist_blob *b, const moore_compare *c, moore_error *err)
{
    int rc = moore_dist_blob_put(b, &c->bandwidth, sizeof c->bandwidth, err);
    if (!rc)
        rc = dist_put_i64(b, c->by_cost, err);
    if (!rc)
        rc = dist_put_i64(b, c->count, err);
    for (int i = 0; !rc && i < c->count; i++) {
        rc = dist_put_str(b, c->rows[i].spec, err);
        if (!rc)
            rc = moore_dist_pack_report(b, &c->rows[i].report, err);
    }
    if (!rc)
        rc = dist_put_i64(b, c->note_count, err);
    for (int i = 0; !rc && i < c->note_count; i++)
        rc = dist_put_str(b, c->notes[i], err);
    if (!rc)
        rc = dist_put_i64(b, c->db_groups_read, err);
    if (!rc)
        rc = dist_put_i64(b, c->db_groups_measured, err);
    return rc;
}

/* Room for `more` rows and notes past c's, as moore_compare_clear expects
 * (arrays from malloc, freed with free). */
static int grow(void **arr, int count, int64_t more, size_t size, moore_error *err)
{
    if (more < 0 || more > (1 << 24))
        return moore_error_set(err, MOORE_EINTERNAL, "MPI: a packed comparison of %lld "
                               "entries", (long long)more);
    void *p = moore_malloc((size_t)count + (size_t)more + 1, size, err);
    if (!p)
        return err ? err->code : MOORE_ENOMEM;
    if (count)
        memcpy(p, *arr, (size_t)count * size);
    free(*arr);
    *arr = p;
    return MOORE_OK;
}

int moore_dist_unpack_compare(moore_dist_blob *b, moore_compare *c, moore_error *err)
{
    int64_t by_cost = 0, rows = 0, notes = 0;
    int rc = moore_dist_blob_get(b, &c->bandwidth, sizeof c->bandwidth, err);
    if (!rc)
        rc = moore_dist_blob_get(b, &by_cost, sizeof by_cost, err);
    if (!rc)
        rc = moore_dist_blob_get(b, &rows, sizeof rows, err);
    if (!rc)
        rc = grow((void **)&c->rows, c->count, rows, sizeof *c->rows, err);
    c->by_cost = (int)by_cost;
    for (int64_t i = 0; !rc && i < rows; i++) {
        moore_compare_row *row = &c->rows[c->count++];
        moore_report_init(&row->report);
        rc = dist_get_str(b, row->spec, sizeof row->spec, err);
        if (!rc)
            rc = moore_dist_unpack_report(b, &row->report, err);
    }
    if (!rc)
        rc = moore_dist_blob_get(b, &notes, sizeof notes, err);
    if (!rc)
        rc = grow((void **)&c->notes, c->note_count, notes, sizeof *c->notes, err);
    for (int64_t i = 0; !rc && i < notes; i++)
        rc = dist_get_str(b, c->notes[c->note_count++], sizeof *c->notes, err);
    int64_t read = 0, measured = 0;
    if (!rc)
        rc = moore_dist_blob_get(b, &read, sizeof read, err);
    if (!rc)
        rc = moore_dist_blob_get(b, &measured, sizeof measured, err);
    c->db_groups_read += (int)read; /* counts of the parts add up */
    c->db_groups_measured += (int)measured;
    return rc;
}
