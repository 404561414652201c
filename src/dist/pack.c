/* pack.c — reports as bytes, so a result computed on one MPI rank reaches
 * the others exactly (moore_dist_map, docs/scale.md); comparisons are packed
 * with the same helpers by src/plan/pack.c.
 *
 * The layout is this machine's own (every rank of a job runs the same
 * binary): fixed-width integers and each double's 8 bytes copied as they are,
 * so NaN, infinities and the integer/double distinction survive, which JSON
 * would not keep. A report is its item count, then per item the key, the
 * type and the value. */
#include "moore/dist.h"
#include "moore/report.h"
#include "dist/blob.h"

#include <stdlib.h>
#include <string.h>

void moore_dist_blob_clear(moore_dist_blob *b)
{
    if (!b)
        return;
    free(b->data);
    memset(b, 0, sizeof *b);
}

static int put(moore_dist_blob *b, const void *p, int64_t len, moore_error *err)
{
    if (b->len + len > b->cap) {
        int64_t cap = b->cap ? 2 * b->cap : 256;
        while (cap < b->len + len)
            cap *= 2;
        unsigned char *data = moore_malloc((size_t)cap, 1, err);
        if (!data)
            return err ? err->code : MOORE_ENOMEM;
        if (b->len)
            memcpy(data, b->data, (size_t)b->len);
        free(b->data);
        b->data = data;
        b->cap = cap;
    }
    if (len)
        memcpy(b->data + b->len, p, (size_t)len);
    b->len += len;
    return MOORE_OK;
}

static int get(moore_dist_blob *b, void *p, int64_t len, moore_error *err)
{
    if (len < 0 || b->at + len > b->len)
        return moore_error_set(err, MOORE_EINTERNAL, "MPI: a packed result ends early "
                               "(%lld of %lld bytes)", (long long)(b->at + len),
                               (long long)b->len);
    if (len)
        memcpy(p, b->data + b->at, (size_t)len);
    b->at += len;
    return MOORE_OK;
}

int moore_dist_blob_put(moore_dist_blob *b, const void *p, int64_t len, moore_error *err)
{
    return put(b, p, len, err);
}

int moore_dist_blob_get(moore_dist_blob *b, void *p, int64_t len, moore_error *err)
{
    return get(b, p, len, err);
}

int dist_put_i64(moore_dist_blob *b, int64_t v, moore_error *err)
{
    return put(b, &v, sizeof v, err);
}

int dist_put_str(moore_dist_blob *b, const char *s, moore_error *err)
{
    int64_t len = (int64_t)strlen(s);
    int rc = dist_put_i64(b, len, err);
    return rc ? rc : put(b, s, len, err);
}

/* A string packed by put_str into buf (len bytes, NUL-terminated). */
int dist_get_str(moore_dist_blob *b, char *buf, int64_t len, moore_error *err)
{
    int64_t n = 0;
    int rc = get(b, &n, sizeof n, err);
    if (!rc && (n < 0 || n >= len))
        rc = moore_error_set(err, MOORE_EINTERNAL, "MPI: a packed string of %lld bytes does "
                             "not fit %lld", (long long)n, (long long)len);
    if (!rc)
        rc = get(b, buf, n, err);
    if (!rc)
        buf[n] = '\0';
    return rc;
}

static int put_item(moore_dist_blob *b, const moore_report_item *it, moore_error *err)
{
    int rc = put(b, it->key, sizeof it->key, err);
    if (!rc)
        rc = dist_put_i64(b, it->type, err);
    if (!rc)
        rc = dist_put_i64(b, it->i, err);
    if (!rc)
        rc = put(b, &it->d, sizeof it->d, err);
    if (!rc && it->type == MOORE_VALUE_STRING)
        rc = dist_put_str(b, it->s, err);
    int array = it->type == MOORE_VALUE_INT_ARRAY || it->type == MOORE_VALUE_DOUBLE_ARRAY;
    if (!rc && array)
        rc = dist_put_i64(b, it->len, err);
    if (!rc && array)
        rc = put(b, it->type == MOORE_VALUE_INT_ARRAY ? (const void *)it->ia : (const void *)it->da,
                 it->len * 8, err);
    return rc;
}

int moore_dist_pack_report(moore_dist_blob *b, const moore_report *r, moore_error *err)
{
    int rc = dist_put_i64(b, r->count, err);
    for (int i = 0; !rc && i < r->count; i++)
        rc = put_item(b, &r->items[i], err);
    return rc;
}

/* An array item: its length, then len values read straight into a copy. */
static int get_array(moore_dist_blob *b, moore_report *r, const char *key, int ints,
                     moore_error *err)
{
    int64_t len = 0;
    void *v = NULL;
    int rc = get(b, &len, sizeof len, err);
    if (!rc && (len < 0 || len > (b->len - b->at) / 8))
        rc = moore_error_set(err, MOORE_EINTERNAL, "MPI: a packed array of %lld values is "
                             "longer than its bytes", (long long)len);
    if (!rc && !(v = moore_malloc((size_t)(len > 0 ? len : 1), 8, err)))
        rc = err ? err->code : MOORE_ENOMEM;
    if (!rc)
        rc = get(b, v, len * 8, err);
    if (!rc)
        rc = ints ? moore_report_int_array(r, key, v, len, err)
                  : moore_report_double_array(r, key, v, len, err);
    free(v);
    return rc;
}

/* A string value of any length. */
static int get_text(moore_dist_blob *b, moore_report *r, const char *key, moore_error *err)
{
    int64_t n = 0;
    char *text = NULL;
    int rc = get(b, &n, sizeof n, err);
    if (!rc && (n < 0 || n > b->len - b->at))
        rc = moore_error_set(err, MOORE_EINTERNAL, "MPI: a packed string of %lld bytes is "
                             "longer than its bytes", (long long)n);
    if (!rc && !(text = moore_malloc((size_t)n + 1, 1, err)))
        rc = err ? err->code : MOORE_ENOMEM;
    if (!rc)
        rc = get(b, text, n, err);
    if (!rc) {
        text[n] = '\0';
        rc = moore_report_string(r, key, text, err);
    }
    free(text);
    return rc;
}

static int get_item(moore_dist_blob *b, moore_report *r, moore_error *err)
{
    char key[sizeof ((moore_report_item *)0)->key];
    int64_t type = 0, i = 0;
    double d = 0;
    int rc = get(b, key, sizeof key, err);
    if (!rc)
        rc = get(b, &type, sizeof type, err);
    if (!rc)
        rc = get(b, &i, sizeof i, err);
    if (!rc)
        rc = get(b, &d, sizeof d, err);
    if (rc)
        return rc;
    key[sizeof key - 1] = '\0';
    switch (type) {
    case MOORE_VALUE_INT: return moore_report_int(r, key, i, err);
    case MOORE_VALUE_DOUBLE: return moore_report_double(r, key, d, err);
    case MOORE_VALUE_BOOL: return moore_report_bool(r, key, (int)i, err);
    case MOORE_VALUE_NULL: return moore_report_null(r, key, err);
    case MOORE_VALUE_STRING: return get_text(b, r, key, err);
    case MOORE_VALUE_INT_ARRAY: return get_array(b, r, key, 1, err);
    case MOORE_VALUE_DOUBLE_ARRAY: return get_array(b, r, key, 0, err);
    default:
        return moore_error_set(err, MOORE_EINTERNAL, "MPI: a packed report value of "
                               "unknown type %lld", (long long)type);
    }
}

int moore_dist_unpack_report(moore_dist_blob *b, moore_report *r, moore_error *err)
{
    int64_t count = 0;
    int rc = get(b, &count, sizeof count, err);
    for (int64_t i = 0; !rc && i < count; i++)
        rc = get_item(b, r, err);
    return rc;
}
