/* blob.h — the fixed-width pieces a packer writes into a moore_dist_blob
 * (pack.c): an int64 and a length-prefixed string. Shared by the packers of
 * reports (src/dist/pack.c) and of comparisons (src/plan/pack.c); not
 * public API. */
#ifndef MOORE_SRC_DIST_BLOB_H
#define MOORE_SRC_DIST_BLOB_H

#include "moore/dist.h"

int dist_put_i64(moore_dist_blob *b, int64_t v, moore_error *err);
int dist_put_str(moore_dist_blob *b, const char *s, moore_error *err);
/* A string packed by dist_put_str into buf (len bytes, NUL-terminated);
 * MOORE_EINTERNAL when it does not fit. */
int dist_get_str(moore_dist_blob *b, char *buf, int64_t len, moore_error *err);

#endif
