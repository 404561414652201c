/* sweep.h — sweeps: many configurations measured into one SQLite database.
 *
 * A sweep file (JSON, docs/sweep.md) names families with parameter grids
 * (lists and ranges), planner grids (radix × endpoint count), the metric
 * groups to run, traffic matrices for throughput, and seeds. moore_sweep_parse
 * expands it into configurations — SPEC strings — keeping only those the
 * family's closed forms accept, so no impossible configuration is built — and
 * a list of tasks (a metric group name such as "paths", or
 * "throughput:tm=worst,eps=0.05") to run on each.
 *
 * Results go into a database of four tables (configurations, origins, tasks,
 * measurements; schema in docs/sweep.md). Each configuration's tasks are
 * measured and written in one transaction, so a killed sweep loses at most the
 * configuration in flight, and a rerun measures only the tasks not yet done. */
#ifndef MOORE_SWEEP_H
#define MOORE_SWEEP_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/metrics.h"
#include "moore/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MOORE_SWEEP_TASK_MAX 96

typedef struct moore_sweep_config {
    char topology[MOORE_SPEC_MAX];  /* the SPEC that rebuilds it */
    int64_t seed;                   /* the seed key's value, or -1 when the family has none */
    double weight;                  /* its size for time estimates: switches × (switches +
                                       links) from the closed forms (one breadth-first search
                                       per switch); 0 when unknown (a topology file) */
} moore_sweep_config;

/* A planner grid point a configuration came from: {"plan": ...} entries
 * record, for every SPEC they add, the radix, endpoint target and bandwidth
 * it was chosen (or listed) for. One SPEC may come from several points. */
typedef struct moore_sweep_origin {
    int64_t config;                 /* index into configs */
    int32_t radix;
    int64_t endpoints;              /* the target, 0 for none (every configuration) */
    double bandwidth;               /* uniform throughput per server searched for, 0: any */
    int chosen;                     /* 1: the planner's choice for this point, 0: listed */
} moore_sweep_origin;

typedef struct moore_sweep {
    int64_t config_count;
    moore_sweep_config *configs;    /* in the sweep file's order, duplicates dropped */
    int task_count;
    char (*tasks)[MOORE_SWEEP_TASK_MAX];
    int64_t skipped;                /* grid points the closed forms refuse */
    char first_skip[MOORE_ERRMSG_LEN]; /* why the first of them was refused */
    int64_t origin_count;
    moore_sweep_origin *origins;    /* planner points, in the file's order */
} moore_sweep;

/* Expands a sweep file's text (name: for messages). Unknown keys, unknown
 * families or metric groups, empty lists and malformed ranges are refused
 * (MOORE_EINVAL) before anything is measured. Fills the caller's *out (configs,
 * tasks on the heap): release it with moore_sweep_clear; on error it holds
 * nothing to release. Linear in the expanded size (SPECs deduplicated by hash),
 * plus one closed-form check per grid point; builds no graph. */
MOORE_API int moore_sweep_parse(const char *text, const char *name, moore_sweep *out,
                                moore_error *err);
/* Reads and expands a sweep file. *out as for moore_sweep_parse. */
MOORE_API int moore_sweep_load(const char *path, moore_sweep *out, moore_error *err);
/* Frees configs and tasks and zeroes s (NULL is fine); O(1). */
MOORE_API void moore_sweep_clear(moore_sweep *s);

typedef struct moore_sweep_db moore_sweep_db;

/* Opens (creating when absent) a sweep database. A file that is not one —
 * corrupt, or another program's SQLite file — is refused (MOORE_EINVAL) and
 * left untouched; an unwritable place is MOORE_EIO. *out is a new handle the
 * caller closes with moore_sweep_db_close; NULL on error. */
MOORE_API int moore_sweep_db_open(const char *path, moore_sweep_db **out, moore_error *err);
/* Opens an existing sweep database for reading only: the file is never
 * written (an empty file stays empty). Refused with a line saying what is
 * wrong: absent or empty (MOORE_EINVAL), unreadable (MOORE_EIO), failing
 * SQLite's integrity check, another program's file, or a schema this
 * version does not read (MOORE_EINVAL). *out as for moore_sweep_db_open;
 * the integrity check reads the whole file, O(file size). */
MOORE_API int moore_sweep_db_open_read(const char *path, moore_sweep_db **out, moore_error *err);
/* Closes the SQLite connection and frees db. NULL is fine. */
MOORE_API void moore_sweep_db_close(moore_sweep_db *db);

/* Inserts the sweep's configurations that are not in the database yet and
 * the planner points they came from (one transaction), and fills ids[i] with
 * configuration i's row id. ids (config_count entries) is caller-owned;
 * O(configurations + origins) indexed queries. Rolled back on error. */
MOORE_API int moore_sweep_db_register(moore_sweep_db *db, const moore_sweep *s, int64_t *ids,
                                      moore_error *err);

/* Number of (configuration, task) pairs of the sweep still to measure
 * (all of them when force). One indexed query per pair: O(C · T · log rows). */
MOORE_API int moore_sweep_db_pending(moore_sweep_db *db, const moore_sweep *s, const int64_t *ids,
                                     int force, int64_t *pending, moore_error *err);

/* The same per configuration: each[i] = tasks of configuration i still to
 * measure (caller-owned array of config_count). O(configurations × tasks). */
MOORE_API int moore_sweep_db_pending_each(moore_sweep_db *db, const moore_sweep *s,
                                          const int64_t *ids, int force, int32_t *each,
                                          moore_error *err);

/* Tasks done in the database, over all sweeps written to it. One count(*) query. */
MOORE_API int moore_sweep_db_done(moore_sweep_db *db, int64_t *done, moore_error *err);

/* Builds configuration i and runs its pending tasks (all when force), then
 * writes their measurements in one transaction. *measured = tasks run. A
 * configuration whose build or measurement fails on bad input is recorded as
 * failed with the message (and not retried unless force); internal errors
 * are returned. Nothing is kept: the graph and reports are freed. Time:
 * building the SPEC plus its tasks' metric groups (moore_metrics_compute). */
MOORE_API int moore_sweep_measure(moore_sweep_db *db, const moore_sweep *s, int64_t i,
                                  int64_t id, int force, const moore_metric_options *o,
                                  int *measured, moore_error *err);

/* The measurements of one topology's task from the database as a report
 * (the keys `moore stats --json` prints); *found = 0 when not measured. A
 * SPEC of a seeded family without seed= is also looked up with its family's
 * default seed (the form a sweep stores it under). Values are added to the
 * caller's r (released with moore_report_clear); a few indexed queries,
 * O(log rows + size of the result). */
MOORE_API int moore_sweep_db_lookup(moore_sweep_db *db, const char *topology, const char *task,
                                    moore_report *r, int *found, moore_error *err);

/* The same for a comma list of tasks ("basic,paths,layout"): each task found
 * is added to r; missing (room for missing_len bytes) gets the comma list of
 * the tasks the database does not hold for this topology ("" when it holds
 * them all), so a caller measures only those. One moore_sweep_db_lookup per task. */
MOORE_API int moore_sweep_db_lookup_list(moore_sweep_db *db, const char *topology,
                                         const char *tasks, moore_report *r, char *missing,
                                         size_t missing_len, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
