/* lookup.c — results read back from a sweep database, as the report the
 * task produced, so that commands can show stored numbers instead of
 * measuring again; and the sweep file reader. */
#include "core/alloc.h"
#include "sweep_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SWEEP_FILE_MAX (16 << 20)  /* a sweep file larger than this is not one */

/* An array stored as JSON text back into the report. */
static int add_array(moore_report *r, const char *key, const char *text, int ints,
                     moore_error *err)
{
    cJSON *a = cJSON_Parse(text ? text : "[]");
    int64_t n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0, k = 0;
    int64_t *iv = moore_calloc((size_t)n + 1, sizeof *iv, err);
    double *dv = moore_calloc((size_t)n + 1, sizeof *dv, err);
    int rc = iv && dv ? MOORE_OK : core_alloc_code(err);
    for (const cJSON *e = a ? a->child : NULL; !rc && e; e = e->next, k++) {
        iv[k] = (int64_t)e->valuedouble;
        dv[k] = e->valuedouble;
    }
    if (!rc)
        rc = ints ? moore_report_int_array(r, key, iv, n, err)
                  : moore_report_double_array(r, key, dv, n, err);
    cJSON_Delete(a);
    free(iv);
    free(dv);
    return rc;
}

static int add_row(moore_report *r, sqlite3_stmt *st, moore_error *err)
{
    const char *key = (const char *)sqlite3_column_text(st, 0);
    const char *type = (const char *)sqlite3_column_text(st, 1);
    const char *text = (const char *)sqlite3_column_text(st, 3);
    int null = sqlite3_column_type(st, 2) == SQLITE_NULL;
    if (strcmp(type, "int") == 0)
        return moore_report_int(r, key, sqlite3_column_int64(st, 2), err);
    if (strcmp(type, "bool") == 0)
        return moore_report_bool(r, key, sqlite3_column_int(st, 2), err);
    if (strcmp(type, "double") == 0 && !null)
        return moore_report_double(r, key, sqlite3_column_double(st, 2), err);
    if (strcmp(type, "string") == 0)
        return moore_report_string(r, key, text ? text : "", err);
    if (strcmp(type, "int_array") == 0 || strcmp(type, "double_array") == 0)
        return add_array(r, key, text, type[0] == 'i', err);
    return moore_report_null(r, key, err);
}

/* The task's rows of one exact topology string into r. */
static int lookup_exact(moore_sweep_db *d, const char *topology, const char *task,
                        moore_report *r, int *found, moore_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sweep_db_prepare(d, "SELECT m.metric, m.type, m.value, m.text FROM measurements m "
                                 "JOIN configurations c ON c.id = m.configuration JOIN tasks t "
                                 "ON t.configuration = m.configuration AND t.task = m.task "
                                 "WHERE c.topology = ? AND m.task = ? AND t.status = 'done' "
                                 "ORDER BY m.rowid", &st, err);
    *found = 0;
    if (!rc) {
        sqlite3_bind_text(st, 1, topology, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, task, -1, SQLITE_STATIC);
    }
    while (!rc && sqlite3_step(st) == SQLITE_ROW) {
        *found = 1;
        rc = add_row(r, st, err);
    }
    sqlite3_finalize(st);
    return rc;
}

/* A sweep stores a seeded family's SPEC with its seed (grid.c); a SPEC
 * without one builds with the family's default seed, so that is the SPEC
 * the database knows it by. 0 when topology has no such other form. */
static int seeded_form(const char *topology, char *buf, size_t len)
{
    const moore_family *f;
    moore_params pp;
    moore_error sub;
    if (moore_spec_parse(topology, &f, &pp, &sub) || moore_params_has(&pp, "seed"))
        return 0;
    for (const moore_param_info *k = f->params; k && k->key; k++)
        if (strcmp(k->key, "seed") == 0 && k->def && *k->def && strcmp(k->def, "-") != 0) {
            int w = snprintf(buf, len, "%s%sseed=%s", topology, strchr(topology, ':') ? "," : ":",
                             k->def);
            return w > 0 && (size_t)w < len;
        }
    return 0;
}

int moore_sweep_db_lookup(moore_sweep_db *d, const char *topology, const char *task,
                          moore_report *r, int *found, moore_error *err)
{
    char seeded[MOORE_SPEC_MAX + 32];
    int rc = lookup_exact(d, topology, task, r, found, err);
    if (!rc && !*found && seeded_form(topology, seeded, sizeof seeded))
        rc = lookup_exact(d, seeded, task, r, found, err);
    return rc;
}

int moore_sweep_db_lookup_list(moore_sweep_db *d, const char *topology, const char *tasks,
                               moore_report *r, char *missing, size_t missing_len,
                               moore_error *err)
{
    char task[MOORE_SWEEP_TASK_MAX];
    int rc = MOORE_OK;
    size_t used = 0;
    if (missing_len < 1 || strlen(tasks) >= missing_len)
        return moore_error_set(err, MOORE_EINVAL, "sweep: no room for the tasks '%s'", tasks);
    missing[0] = '\0';
    for (const char *s = tasks; !rc && *s; s += *s == ',') {
        size_t len = strcspn(s, ",");
        int found = 0;
        if (len == 0 || len >= sizeof task)
            return moore_error_set(err, MOORE_EINVAL, "sweep: task '%.*s' in '%s' is empty or "
                                   "too long", (int)len, s, tasks);
        memcpy(task, s, len);
        task[len] = '\0';
        s += len;
        rc = moore_sweep_db_lookup(d, topology, task, r, &found, err);
        if (!rc && !found)
            used += (size_t)snprintf(missing + used, missing_len - used, "%s%s",
                                     used ? "," : "", task);
    }
    return rc;
}

int moore_sweep_load(const char *path, moore_sweep *out, moore_error *err)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return moore_error_set(err, MOORE_EIO, "cannot read sweep file '%s'", path);
    char *text = moore_malloc(SWEEP_FILE_MAX + 1, 1, err);
    size_t n = text ? fread(text, 1, SWEEP_FILE_MAX + 1, f) : 0;
    int rc = text ? MOORE_OK : err->code;
    if (!rc && ferror(f))
        rc = moore_error_set(err, MOORE_EIO, "cannot read sweep file '%s'", path);
    if (!rc && n > SWEEP_FILE_MAX)
        rc = moore_error_set(err, MOORE_EINVAL, "sweep file '%s' is larger than %d MiB", path,
                             SWEEP_FILE_MAX >> 20);
    fclose(f);
    if (!rc) {
        text[n] = '\0';
        rc = moore_sweep_parse(text, path, out, err);
    }
    free(text);
    return rc;
}
