/* measure.c — one configuration of a sweep: build it, run its pending tasks,
 * write every result in one transaction; and read results back.
 *
 * All measuring happens before the transaction opens, so the database is
 * locked only for the writes, and a process killed while measuring leaves no
 * trace of the configuration in flight. A bad-input failure (a configuration
 * that cannot be built, a metric refused on it) is a result too: the task is
 * recorded as failed with its message, so a rerun does not retry it. */
#include "core/alloc.h"
#include "sweep_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "moore/moore.h"

typedef struct task_out {
    moore_report r;
    double elapsed;
    int failed;
    char msg[MOORE_ERRMSG_LEN];
} task_out;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int is_bad_input(int code) { return code == MOORE_EINVAL || code == MOORE_ETOOBIG; }

/* Runs the pending tasks; stops only on an internal failure. */
static int run_tasks(const moore_graph *g, const moore_sweep *s, const char *pending,
                     const moore_metric_options *o, task_out *out, moore_error *err)
{
    for (int t = 0; t < s->task_count; t++) {
        if (!pending[t])
            continue;
        moore_error sub;
        moore_error_clear(&sub);
        double t0 = now_s();
        int rc = sweep_task_run(g, s->tasks[t], o, &out[t].r, &sub);
        out[t].elapsed = now_s() - t0;
        if (rc && !is_bad_input(rc))
            return moore_error_set(err, rc, "%s", sub.msg);
        out[t].failed = rc != 0;
        snprintf(out[t].msg, sizeof out[t].msg, "%s", sub.msg);
    }
    return MOORE_OK;
}

/* An array item as JSON text. */
static char *array_text(const moore_report_item *it)
{
    size_t cap = 32 * (size_t)it->len + 3, at = 0;
    char *buf = moore_malloc(cap, 1, NULL);
    if (!buf)
        return NULL;
    at += (size_t)snprintf(buf, cap, "[");
    for (int64_t k = 0; k < it->len; k++) {
        const char *sep = k ? ", " : "";
        if (it->type == MOORE_VALUE_INT_ARRAY)
            at += (size_t)snprintf(buf + at, cap - at, "%s%lld", sep, (long long)it->ia[k]);
        else
            at += (size_t)snprintf(buf + at, cap - at, "%s%.17g", sep, it->da[k]);
    }
    snprintf(buf + at, cap - at, "]");
    return buf;
}

static const char *type_name(moore_value_type t)
{
    static const char *const names[] = { "int", "double", "bool", "string", "null",
                                         "int_array", "double_array" };
    return names[t];
}

/* Binds one report item's value into columns 4 (type), 5 (value), 6 (text). */
static int bind_value(sqlite3_stmt *st, const moore_report_item *it, char **owned)
{
    *owned = NULL;
    sqlite3_bind_text(st, 4, type_name(it->type), -1, SQLITE_STATIC);
    sqlite3_bind_null(st, 5);
    sqlite3_bind_null(st, 6);
    switch (it->type) {
    case MOORE_VALUE_INT:
    case MOORE_VALUE_BOOL:
        sqlite3_bind_int64(st, 5, it->i);
        break;
    case MOORE_VALUE_DOUBLE:
        if (isfinite(it->d))
            sqlite3_bind_double(st, 5, it->d);
        break;
    case MOORE_VALUE_STRING:
        sqlite3_bind_text(st, 6, it->s, -1, SQLITE_STATIC);
        break;
    case MOORE_VALUE_INT_ARRAY:
    case MOORE_VALUE_DOUBLE_ARRAY:
        if (!(*owned = array_text(it)))
            return MOORE_ENOMEM;
        sqlite3_bind_text(st, 6, *owned, -1, SQLITE_STATIC);
        break;
    case MOORE_VALUE_NULL:
        break;
    }
    return MOORE_OK;
}

typedef struct writer {
    moore_sweep_db *d;
    sqlite3_stmt *del, *meas, *task;
    int64_t id;
} writer;

static int step_done(writer *w, sqlite3_stmt *st, moore_error *err)
{
    int ok = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_reset(st);
    return ok ? MOORE_OK : sweep_db_fail(w->d, MOORE_EIO, "cannot write results", err);
}

static int write_item(writer *w, const char *task, const moore_report_item *it, double elapsed,
                      moore_error *err)
{
    char *owned;
    sqlite3_bind_int64(w->meas, 1, w->id);
    sqlite3_bind_text(w->meas, 2, task, -1, SQLITE_STATIC);
    sqlite3_bind_text(w->meas, 3, it->key, -1, SQLITE_STATIC);
    if (bind_value(w->meas, it, &owned))
        return moore_error_set(err, MOORE_ENOMEM, "sweep: out of memory for an array value");
    sqlite3_bind_text(w->meas, 7, sweep_bound_kind(it->key), -1, SQLITE_STATIC);
    sqlite3_bind_text(w->meas, 8, MOORE_VERSION, -1, SQLITE_STATIC);
    sqlite3_bind_double(w->meas, 9, elapsed);
    int rc = step_done(w, w->meas, err);
    free(owned);
    return rc;
}

static int write_task(writer *w, const char *task, const task_out *t, moore_error *err)
{
    sqlite3_bind_int64(w->del, 1, w->id);
    sqlite3_bind_text(w->del, 2, task, -1, SQLITE_STATIC);
    int rc = step_done(w, w->del, err);
    for (int k = 0; !rc && !t->failed && k < t->r.count; k++)
        rc = write_item(w, task, &t->r.items[k], t->elapsed, err);
    sqlite3_bind_int64(w->task, 1, w->id);
    sqlite3_bind_text(w->task, 2, task, -1, SQLITE_STATIC);
    sqlite3_bind_text(w->task, 3, t->failed ? "failed" : "done", -1, SQLITE_STATIC);
    if (t->failed)
        sqlite3_bind_text(w->task, 4, t->msg, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(w->task, 4);
    sqlite3_bind_text(w->task, 5, MOORE_VERSION, -1, SQLITE_STATIC);
    sqlite3_bind_double(w->task, 6, t->elapsed);
    return rc ? rc : step_done(w, w->task, err);
}

static int write_results(moore_sweep_db *d, const moore_sweep *s, int64_t id,
                         const char *pending, const task_out *out, moore_error *err)
{
    writer w = { .d = d, .id = id };
    int rc = sweep_db_prepare(d, "DELETE FROM measurements WHERE configuration = ? AND "
                                 "task = ?", &w.del, err);
    if (!rc)
        rc = sweep_db_prepare(d, "INSERT INTO measurements VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                              &w.meas, err);
    if (!rc)
        rc = sweep_db_prepare(d, "INSERT OR REPLACE INTO tasks VALUES (?, ?, ?, ?, ?, ?)",
                              &w.task, err);
    if (!rc)
        rc = sweep_db_exec(d, "BEGIN IMMEDIATE", err);
    for (int t = 0; !rc && t < s->task_count; t++)
        if (pending[t])
            rc = write_task(&w, s->tasks[t], &out[t], err);
    if (!rc)
        rc = sweep_db_exec(d, "COMMIT", err);
    else
        sqlite3_exec(sweep_db_handle(d), "ROLLBACK", NULL, NULL, NULL);
    sqlite3_finalize(w.del);
    sqlite3_finalize(w.meas);
    sqlite3_finalize(w.task);
    return rc;
}

/* A configuration that cannot be built: every pending task fails with why. */
static void fail_all(const char *pending, int count, const moore_error *why, task_out *out)
{
    for (int t = 0; t < count; t++)
        if (pending[t]) {
            out[t].failed = 1;
            snprintf(out[t].msg, sizeof out[t].msg, "%s", why->msg);
        }
}

int moore_sweep_measure(moore_sweep_db *d, const moore_sweep *s, int64_t i, int64_t id,
                        int force, const moore_metric_options *o, int *measured,
                        moore_error *err)
{
    char *pending = moore_calloc((size_t)s->task_count + 1, 1, err);
    task_out *out = moore_calloc((size_t)s->task_count + 1, sizeof *out, err);
    moore_graph *g = NULL;
    moore_metric_options opt = *o;
    int rc = pending && out ? MOORE_OK : core_alloc_code(err);
    *measured = 0;
    if (!rc)
        rc = sweep_db_pending_tasks(d, s, id, force, pending, measured, err);
    if (rc || !*measured)
        goto done;
    if (s->configs[i].seed >= 0)
        opt.seed = (uint64_t)s->configs[i].seed;
    for (int t = 0; t < s->task_count; t++)
        moore_report_init(&out[t].r);
    moore_error why;
    int brc = moore_topology_load(s->configs[i].topology, &g, &why);
    if (brc && !is_bad_input(brc))
        rc = moore_error_set(err, brc, "%s", why.msg);
    else if (brc)
        fail_all(pending, s->task_count, &why, out);
    else
        rc = run_tasks(g, s, pending, &opt, out, err);
    if (!rc)
        rc = write_results(d, s, id, pending, out, err);
done:
    for (int t = 0; out && t < s->task_count; t++)
        moore_report_clear(&out[t].r);
    moore_graph_free(g);
    free(out);
    free(pending);
    return rc;
}
