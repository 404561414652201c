/* db.c — the sweep database: SQLite, one file, four tables.
 *
 * configurations (one row per SPEC), origins (the planner points — radix,
 * endpoint target, bandwidth — a SPEC came from), tasks (what was run on it,
 * done or failed, with moore's version and the time it took) and
 * measurements (one row per metric key). The schema is in docs/sweep.md;
 * schema 1 (without origins) is read as it is, and gets the origins table
 * when a sweep writes to it. A configuration's
 * results are written in one transaction, so a sweep killed at any moment
 * leaves the database as it was before the configuration in flight; a rerun
 * skips tasks marked done. A file that is not a moore sweep database is
 * refused before anything is written to it. */
#include "sweep_internal.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "moore/moore.h"

struct moore_sweep_db {
    sqlite3 *db;
    char path[512];
};

/* Schema 2 adds it; the primary key keeps one row per point. */
#define ORIGINS_TABLE \
    "CREATE TABLE origins(" \
    " configuration INTEGER NOT NULL REFERENCES configurations(id)," \
    " radix INTEGER NOT NULL," \
    " endpoints INTEGER NOT NULL," \
    " bandwidth REAL NOT NULL," \
    " chosen INTEGER NOT NULL," \
    " PRIMARY KEY (configuration, radix, endpoints, bandwidth));"

static const char SCHEMA[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE configurations("
    " id INTEGER PRIMARY KEY,"
    " topology TEXT NOT NULL UNIQUE,"
    " family TEXT NOT NULL,"
    " params TEXT NOT NULL,"
    " seed INTEGER);"
    "CREATE TABLE tasks("
    " configuration INTEGER NOT NULL REFERENCES configurations(id),"
    " task TEXT NOT NULL,"
    " status TEXT NOT NULL CHECK (status IN ('done', 'failed')),"
    " message TEXT,"
    " moore_version TEXT NOT NULL,"
    " elapsed_s REAL NOT NULL,"
    " PRIMARY KEY (configuration, task));"
    "CREATE TABLE measurements("
    " configuration INTEGER NOT NULL REFERENCES configurations(id),"
    " task TEXT NOT NULL,"
    " metric TEXT NOT NULL,"
    " type TEXT NOT NULL,"
    " value REAL,"
    " text TEXT,"
    " bound TEXT NOT NULL CHECK (bound IN ('exact', 'lower', 'upper')),"
    " moore_version TEXT NOT NULL,"
    " elapsed_s REAL NOT NULL,"
    " PRIMARY KEY (configuration, task, metric));"
    "CREATE INDEX configurations_by_family ON configurations(family, seed);"
    ORIGINS_TABLE
    "CREATE INDEX measurements_by_metric ON measurements(metric, value);"
    "CREATE VIEW results AS SELECT c.family, c.params, c.topology, c.seed, m.task, m.metric,"
    " m.value, m.text, m.bound FROM measurements m JOIN configurations c"
    " ON c.id = m.configuration;"
    "INSERT INTO meta VALUES ('format', 'moore-sweep'), ('schema', '2');";

static int db_fail(moore_sweep_db *d, int code, const char *what, moore_error *err)
{
    return moore_error_set(err, code, "%s: %s: %s", d->path, what, sqlite3_errmsg(d->db));
}

static int db_exec(moore_sweep_db *d, const char *sql, moore_error *err)
{
    if (sqlite3_exec(d->db, sql, NULL, NULL, NULL) == SQLITE_OK)
        return MOORE_OK;
    int code = sqlite3_errcode(d->db);
    return db_fail(d, code == SQLITE_NOTADB || code == SQLITE_CORRUPT ? MOORE_EINVAL : MOORE_EIO,
                   "cannot write the sweep database", err);
}

static int db_prepare(moore_sweep_db *d, const char *sql, sqlite3_stmt **st, moore_error *err)
{
    if (sqlite3_prepare_v2(d->db, sql, -1, st, NULL) == SQLITE_OK)
        return MOORE_OK;
    *st = NULL;
    return db_fail(d, MOORE_EINTERNAL, "cannot prepare a query", err);
}

/* An existing non-empty file must carry meta.format = moore-sweep. */
static int db_check_format(moore_sweep_db *d, moore_error *err)
{
    sqlite3_stmt *st = NULL;
    int ok = sqlite3_prepare_v2(d->db, "SELECT value FROM meta WHERE key = 'format'", -1, &st,
                                NULL) == SQLITE_OK &&
             sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) &&
             strcmp((const char *)sqlite3_column_text(st, 0), "moore-sweep") == 0;
    sqlite3_finalize(st);
    if (ok)
        return MOORE_OK;
    return moore_error_set(err, MOORE_EINVAL, "%s is not a moore sweep database (corrupt, or "
                           "another program's file)", d->path);
}

/* 1 when the file already holds any table (read inside the transaction). */
static int db_has_tables(moore_sweep_db *d)
{
    sqlite3_stmt *st = NULL;
    int any = sqlite3_prepare_v2(d->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) ==
                  SQLITE_OK &&
              sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return any;
}

static int db_text(moore_sweep_db *d, const char *sql, char *buf, size_t len);

/* A moore sweep database of schema 1 gets the origins table (schema 2); a
 * schema this version does not know is refused before anything is written. */
static int db_upgrade(moore_sweep_db *d, moore_error *err)
{
    char v[64];
    int rc = db_exec(d, "BEGIN IMMEDIATE", err);
    if (!rc && db_text(d, "SELECT value FROM meta WHERE key = 'schema'", v, sizeof v))
        rc = db_fail(d, MOORE_EIO, "cannot read the schema version", err);
    if (!rc && strcmp(v, "1") == 0)
        rc = db_exec(d, ORIGINS_TABLE "UPDATE meta SET value = '2' WHERE key = 'schema';", err);
    else if (!rc && strcmp(v, "2") != 0)
        rc = moore_error_set(err, MOORE_EINVAL, "%s has sweep database schema '%s'; this moore "
                             "writes schema 2 (and reads 1 and 2)", d->path, v);
    if (rc)
        sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
    else
        rc = db_exec(d, "COMMIT", err);
    return rc;
}

/* A new file gets the schema under the write lock; a second sweep started at
 * the same moment on the same new file waits for that lock and then finds
 * the schema made, so it checks it instead of creating it twice. */
static int db_setup(moore_sweep_db *d, int fresh, moore_error *err)
{
    sqlite3_busy_timeout(d->db, 600000);
    if (!fresh)
        return db_check_format(d, err) ? err->code : db_upgrade(d, err);
    int rc = db_exec(d, "BEGIN IMMEDIATE", err);
    if (rc)
        return rc;
    if (db_has_tables(d)) {
        rc = db_exec(d, "COMMIT", err);
        return rc ? rc : db_check_format(d, err) ? err->code : db_upgrade(d, err);
    }
    rc = db_exec(d, SCHEMA, err);
    return rc ? rc : db_exec(d, "COMMIT", err);
}

int moore_sweep_db_open(const char *path, moore_sweep_db **out, moore_error *err)
{
    struct stat sb;
    int fresh = stat(path, &sb) != 0 || sb.st_size == 0;
    moore_sweep_db *d = moore_calloc(1, sizeof *d, err);
    *out = NULL;
    if (!d)
        return err->code;
    snprintf(d->path, sizeof d->path, "%s", path);
    int flags = SQLITE_OPEN_READWRITE | (fresh ? SQLITE_OPEN_CREATE : 0);
    int rc = MOORE_OK;
    if (sqlite3_open_v2(path, &d->db, flags, NULL) != SQLITE_OK)
        rc = db_fail(d, MOORE_EIO, "cannot open the sweep database", err);
    if (!rc)
        rc = db_setup(d, fresh, err);
    if (!rc)
        rc = db_exec(d, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL", err);
    if (!rc) {
        *out = d;
        d = NULL;
    }
    moore_sweep_db_close(d);
    return rc;
}

/* The one text value of a single-row query, into buf ("" when none);
 * the SQLite result code of the step. */
static int db_text(moore_sweep_db *d, const char *sql, char *buf, size_t len)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(d->db, sql, -1, &st, NULL);
    buf[0] = '\0';
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW && sqlite3_column_text(st, 0))
            snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* A failed read: the file's fault (not a database, corrupt) or the
 * system's (permissions, I/O), said as such. */
static int db_read_fail(moore_sweep_db *d, int code, moore_error *err)
{
    if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
        return moore_error_set(err, MOORE_EINVAL, "%s is not a moore sweep database (%s)",
                               d->path, sqlite3_errstr(code));
    return moore_error_set(err, MOORE_EIO, "cannot read the sweep database %s: %s", d->path,
                           sqlite3_errmsg(d->db));
}

/* Integrity, then meta.format and meta.schema. */
static int db_check_read(moore_sweep_db *d, moore_error *err)
{
    char v[256];
    int code = db_text(d, "PRAGMA integrity_check(1)", v, sizeof v);
    if (code)
        return db_read_fail(d, code, err);
    if (strcmp(v, "ok") != 0) { /* "*** in database main ***\nOn tree page 4 ..." */
        const char *why = strrchr(v, '\n') ? strrchr(v, '\n') + 1 : v;
        return moore_error_set(err, MOORE_EINVAL, "%s fails SQLite's integrity check (%s)",
                               d->path, why);
    }
    if (db_check_format(d, err))
        return err->code;
    code = db_text(d, "SELECT value FROM meta WHERE key = 'schema'", v, sizeof v);
    if (code)
        return db_read_fail(d, code, err);
    if (strcmp(v, "1") != 0 && strcmp(v, "2") != 0)
        return moore_error_set(err, MOORE_EINVAL, "%s has sweep database schema '%s'; this "
                               "moore reads schemas 1 and 2", d->path, v);
    return MOORE_OK;
}

int moore_sweep_db_open_read(const char *path, moore_sweep_db **out, moore_error *err)
{
    struct stat sb;
    *out = NULL;
    if (stat(path, &sb) != 0)
        return moore_error_set(err, MOORE_EINVAL, "%s: no such sweep database", path);
    if (!S_ISREG(sb.st_mode) || sb.st_size == 0)
        return moore_error_set(err, MOORE_EINVAL, "%s is %s, not a moore sweep database", path,
                               S_ISREG(sb.st_mode) ? "empty" : "not a regular file");
    moore_sweep_db *d = moore_calloc(1, sizeof *d, err);
    if (!d)
        return err->code;
    snprintf(d->path, sizeof d->path, "%s", path);
    int rc = MOORE_OK;
    if (sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        rc = db_read_fail(d, sqlite3_errcode(d->db), err);
    if (!rc) {
        sqlite3_busy_timeout(d->db, 600000);
        rc = db_check_read(d, err);
    }
    if (!rc) {
        *out = d;
        d = NULL;
    }
    moore_sweep_db_close(d);
    return rc;
}

void moore_sweep_db_close(moore_sweep_db *d)
{
    if (!d)
        return;
    sqlite3_close(d->db);
    free(d);
}

/* The row id of topology, or 0 when absent. */
static int64_t config_id(sqlite3_stmt *find, const char *topology)
{
    sqlite3_reset(find);
    sqlite3_bind_text(find, 1, topology, -1, SQLITE_STATIC);
    return sqlite3_step(find) == SQLITE_ROW ? sqlite3_column_int64(find, 0) : 0;
}

static int insert_config(moore_sweep_db *d, sqlite3_stmt *ins, const moore_sweep_config *c,
                         moore_error *err)
{
    const char *colon = strchr(c->topology, ':');
    size_t flen = colon ? (size_t)(colon - c->topology) : strlen(c->topology);
    sqlite3_reset(ins);
    sqlite3_bind_text(ins, 1, c->topology, -1, SQLITE_STATIC);
    sqlite3_bind_text(ins, 2, c->topology, (int)flen, SQLITE_STATIC);
    sqlite3_bind_text(ins, 3, colon ? colon + 1 : "", -1, SQLITE_STATIC);
    if (c->seed >= 0)
        sqlite3_bind_int64(ins, 4, c->seed);
    else
        sqlite3_bind_null(ins, 4);
    return sqlite3_step(ins) == SQLITE_DONE ? MOORE_OK
                                            : db_fail(d, MOORE_EIO, "cannot add a configuration", err);
}

/* The planner points of s, by their configurations' row ids. */
static int insert_origins(moore_sweep_db *d, const moore_sweep *s, const int64_t *ids,
                          moore_error *err)
{
    sqlite3_stmt *ins = NULL;
    int rc = db_prepare(d, "INSERT INTO origins VALUES (?, ?, ?, ?, ?) ON CONFLICT"
                           "(configuration, radix, endpoints, bandwidth) DO UPDATE SET "
                           "chosen = max(chosen, excluded.chosen)", &ins, err);
    for (int64_t k = 0; !rc && k < s->origin_count; k++) {
        const moore_sweep_origin *o = &s->origins[k];
        sqlite3_reset(ins);
        sqlite3_bind_int64(ins, 1, ids[o->config]);
        sqlite3_bind_int(ins, 2, o->radix);
        sqlite3_bind_int64(ins, 3, o->endpoints);
        sqlite3_bind_double(ins, 4, o->bandwidth);
        sqlite3_bind_int(ins, 5, o->chosen);
        if (sqlite3_step(ins) != SQLITE_DONE)
            rc = db_fail(d, MOORE_EIO, "cannot add a plan point", err);
    }
    sqlite3_finalize(ins);
    return rc;
}

int moore_sweep_db_register(moore_sweep_db *d, const moore_sweep *s, int64_t *ids,
                            moore_error *err)
{
    sqlite3_stmt *find = NULL, *ins = NULL;
    int rc = db_exec(d, "BEGIN IMMEDIATE", err);
    if (!rc)
        rc = db_prepare(d, "SELECT id FROM configurations WHERE topology = ?", &find, err);
    if (!rc)
        rc = db_prepare(d, "INSERT INTO configurations(topology, family, params, seed) "
                           "VALUES (?, ?, ?, ?)", &ins, err);
    for (int64_t i = 0; !rc && i < s->config_count; i++) {
        ids[i] = config_id(find, s->configs[i].topology);
        if (!ids[i] && !(rc = insert_config(d, ins, &s->configs[i], err)))
            ids[i] = sqlite3_last_insert_rowid(d->db);
    }
    sqlite3_finalize(find);
    sqlite3_finalize(ins);
    if (!rc)
        rc = insert_origins(d, s, ids, err);
    if (!rc)
        return db_exec(d, "COMMIT", err);
    sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* 1 when (id, task) has a row in tasks. */
static int task_recorded(sqlite3_stmt *st, int64_t id, const char *task)
{
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, task, -1, SQLITE_STATIC);
    return sqlite3_step(st) == SQLITE_ROW;
}

int sweep_db_pending_tasks(moore_sweep_db *d, const moore_sweep *s, int64_t id, int force,
                           char *pending, int *count, moore_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = db_prepare(d, "SELECT 1 FROM tasks WHERE configuration = ? AND task = ?", &st, err);
    *count = 0;
    for (int t = 0; !rc && t < s->task_count; t++) {
        pending[t] = force || !task_recorded(st, id, s->tasks[t]);
        *count += pending[t];
    }
    sqlite3_finalize(st);
    return rc;
}

int moore_sweep_db_pending_each(moore_sweep_db *d, const moore_sweep *s, const int64_t *ids,
                                int force, int32_t *each, moore_error *err)
{
    char *flags = moore_malloc((size_t)s->task_count + 1, 1, err);
    int rc = flags ? MOORE_OK : err->code, count;
    for (int64_t i = 0; !rc && i < s->config_count; i++)
        if (!(rc = sweep_db_pending_tasks(d, s, ids[i], force, flags, &count, err)))
            each[i] = count;
    free(flags);
    return rc;
}

int moore_sweep_db_pending(moore_sweep_db *d, const moore_sweep *s, const int64_t *ids,
                           int force, int64_t *pending, moore_error *err)
{
    int32_t *each = moore_malloc((size_t)s->config_count + 1, sizeof *each, err);
    int rc = each ? moore_sweep_db_pending_each(d, s, ids, force, each, err) : err->code;
    *pending = 0;
    for (int64_t i = 0; !rc && i < s->config_count; i++)
        *pending += each[i];
    free(each);
    return rc;
}

int moore_sweep_db_done(moore_sweep_db *d, int64_t *done, moore_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = db_prepare(d, "SELECT count(*) FROM tasks", &st, err);
    if (!rc && sqlite3_step(st) == SQLITE_ROW)
        *done = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc;
}

sqlite3 *sweep_db_handle(moore_sweep_db *d) { return d->db; }

int sweep_db_exec(moore_sweep_db *d, const char *sql, moore_error *err)
{
    return db_exec(d, sql, err);
}

int sweep_db_prepare(moore_sweep_db *d, const char *sql, sqlite3_stmt **st, moore_error *err)
{
    return db_prepare(d, sql, st, err);
}

int sweep_db_fail(moore_sweep_db *d, int code, const char *what, moore_error *err)
{
    return db_fail(d, code, what, err);
}
