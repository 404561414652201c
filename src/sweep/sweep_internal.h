/* sweep_internal.h — what the sweep files share: JSON helpers for the sweep
 * file, the task list, and the bound kind of a measurement key. */
#ifndef MOORE_SRC_SWEEP_INTERNAL_H
#define MOORE_SRC_SWEEP_INTERNAL_H

#include <cjson/cJSON.h>
#include <sqlite3.h>
#include "moore/family.h"
#include "moore/report.h"
#include "moore/sweep.h"

/* tasks.c: "metrics" and "throughput" of a sweep file into s->tasks. */
int sweep_tasks_parse(moore_sweep *s, const cJSON *root, const char *name, moore_error *err);
/* Runs one task on g into r (the keys `moore stats --json` prints). */
int sweep_task_run(const moore_graph *g, const char *task, const moore_metric_options *o,
                   moore_report *r, moore_error *err);
/* "lower", "upper" or "exact": what a measurement of this key is. */
const char *sweep_bound_kind(const char *key);

/* json.c: small checks on the sweep file. */
int sweep_check_keys(const cJSON *obj, const char *const *known, const char *where,
                     moore_error *err);
/* Refuses a JSON object anywhere in root that holds a key twice (cJSON
 * would silently use the first). */
int sweep_check_duplicates(const cJSON *root, const char *where, moore_error *err);
/* A string or a list of strings as one comma list in buf. */
int sweep_join_list(const cJSON *v, char *buf, size_t len, const char *key, moore_error *err);
int sweep_family_has_key(const moore_family *f, const char *key);
/* Puts "prefix: " before the message err already holds; returns its code. */
int sweep_error_prefix(moore_error *err, const char *prefix);

/* db.c: the connection behind a moore_sweep_db, for measure.c's writes. */
sqlite3 *sweep_db_handle(moore_sweep_db *d);
int sweep_db_exec(moore_sweep_db *d, const char *sql, moore_error *err);
int sweep_db_prepare(moore_sweep_db *d, const char *sql, sqlite3_stmt **st, moore_error *err);
int sweep_db_fail(moore_sweep_db *d, int code, const char *what, moore_error *err);
/* pending[t] = 1 for each task of s not yet recorded for configuration id
 * (every task when force); *count of them. */
int sweep_db_pending_tasks(moore_sweep_db *d, const moore_sweep *s, int64_t id, int force,
                           char *pending, int *count, moore_error *err);

#endif
