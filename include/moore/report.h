/* report.h — an ordered list of named results, the common currency between
 * metrics and the CLI.
 *
 * Each metric module computes into its own plain struct (see metrics.h and the
 * per-area headers); its metric group then copies the values into a report
 * under the JSON key names `moore stats --json` prints. The CLI prints a report as an aligned
 * table or as one JSON object, and `compare` reads columns from reports by key,
 * so a new metric shows up everywhere without touching the commands. */
#ifndef MOORE_REPORT_H
#define MOORE_REPORT_H

#include "moore/export.h"
#include <stdint.h>
#include <stdio.h>
#include "moore/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum moore_value_type {
    MOORE_VALUE_INT,
    MOORE_VALUE_DOUBLE,
    MOORE_VALUE_BOOL,
    MOORE_VALUE_STRING,
    MOORE_VALUE_NULL,       /* e.g. diameter of a disconnected graph */
    MOORE_VALUE_INT_ARRAY,  /* e.g. the distance histogram */
    MOORE_VALUE_DOUBLE_ARRAY
} moore_value_type;

typedef struct moore_report_item {
    char key[48];
    moore_value_type type;
    int64_t i;              /* INT, BOOL */
    double d;               /* DOUBLE */
    char *s;                /* STRING (owned) */
    int64_t *ia;            /* INT_ARRAY (owned) */
    double *da;             /* DOUBLE_ARRAY (owned) */
    int64_t len;            /* array length */
} moore_report_item;

typedef struct moore_report {
    int count, cap;
    moore_report_item *items;
} moore_report;

/* A report is a caller-owned struct: init empties it, clear frees every item
 * it holds and empties it again (safe to call twice). O(1) / O(items). */
MOORE_API void moore_report_init(moore_report *r);
MOORE_API void moore_report_clear(moore_report *r);

/* Adding a key that exists replaces its value. Values are copied into r (the
 * caller keeps v); keys are found by a linear scan: O(items + len). On error r
 * stays valid for moore_report_clear. */
MOORE_API int moore_report_int(moore_report *r, const char *key, int64_t v, moore_error *err);
MOORE_API int moore_report_double(moore_report *r, const char *key, double v, moore_error *err);
MOORE_API int moore_report_bool(moore_report *r, const char *key, int v, moore_error *err);
MOORE_API int moore_report_string(moore_report *r, const char *key, const char *v, moore_error *err);
MOORE_API int moore_report_null(moore_report *r, const char *key, moore_error *err);
MOORE_API int moore_report_int_array(moore_report *r, const char *key, const int64_t *v, int64_t len,
                           moore_error *err);
MOORE_API int moore_report_double_array(moore_report *r, const char *key, const double *v, int64_t len,
                              moore_error *err);

/* NULL when absent. Borrowed from r: valid until r changes. O(items). */
MOORE_API const moore_report_item *moore_report_get(const moore_report *r, const char *key);
/* The value as a double (INT, DOUBLE, BOOL); NaN when absent or not numeric. O(items). */
MOORE_API double moore_report_number(const moore_report *r, const char *key);

/* One JSON object (cJSON), pretty when `pretty`. Non-finite doubles become null.
 * Writes to the caller's stream (not closed); O(size of the report). */
MOORE_API int moore_report_write_json(const moore_report *r, FILE *out, int pretty, moore_error *err);
/* Human-readable "key  value" lines, aligned. O(size of the report). */
MOORE_API int moore_report_write_text(const moore_report *r, FILE *out, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
