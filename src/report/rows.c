/* rows.c — the main comparison read back from the rows `moore compare
 * --json=lines` wrote (moore_page_options.rows) instead of searched again.
 *
 * Why: the main job runs compare first, and compare's search is most of a
 * page's time; a page made from compare's own rows also shows exactly the
 * numbers compare printed (cJSON writes every double so that it reads back
 * bit for bit). What compare's JSON does not carry and the page draws — the
 * distance histogram and the Moore-bound efficiency (the paths group) — is
 * measured on the rebuilt graph, the same deterministic computation compare
 * ran. A file that is not compare's output for the page's options is
 * refused: a line that is not a row, a row with fewer servers than asked,
 * one needing a larger radix, or one not proven to reach the bandwidth. */
#include "report_internal.h"
#include "core/alloc.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS_LINE_MAX (1 << 16)  /* a compare row is a few hundred bytes */
#define ROWS_MAX 256             /* more rows than families: not compare's output */

/* Keys of compare's JSON that are no report value: its percentages against
 * the Clos (the page computes them from the rows, as compare does). */
static int not_a_value(const char *key)
{
    return strncmp(key, "vs_clos_", 8) == 0;
}

/* 1 when some row has a value (not null) for key: compare measured it, so
 * a null there is a measured null (shown as '-'). A key null in every row is
 * a column compare did not run, and stays absent as compare leaves it out. */
static int measured(cJSON *const *rows, int count, const char *key)
{
    for (int i = 0; i < count; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(rows[i], key);
        if (v && !cJSON_IsNull(v))
            return 1;
    }
    return 0;
}

/* One JSON value into r under key, keeping the type r already has for it
 * (the groups measured on the rebuilt graph); arrays and objects, which no
 * compare column holds, are left out. */
static int put(moore_report *r, const char *key, const cJSON *v, int null_ok, moore_error *err)
{
    const moore_report_item *had = moore_report_get(r, key);
    if (cJSON_IsString(v))
        return moore_report_string(r, key, v->valuestring, err);
    if (cJSON_IsBool(v))
        return moore_report_bool(r, key, cJSON_IsTrue(v), err);
    if (cJSON_IsNumber(v))
        return had && had->type == MOORE_VALUE_INT && v->valuedouble == floor(v->valuedouble)
                   ? moore_report_int(r, key, (int64_t)v->valuedouble, err)
                   : moore_report_double(r, key, v->valuedouble, err);
    return null_ok && cJSON_IsNull(v) ? moore_report_null(r, key, err) : MOORE_OK;
}

/* The rows of the file, each a JSON object with a topology and a family. */
static int parse_lines(const char *path, cJSON **rows, int *count, moore_error *err)
{
    FILE *f = fopen(path, "r");
    char *line = f ? moore_malloc(ROWS_LINE_MAX, 1, err) : NULL;
    int rc = f ? (line ? MOORE_OK : core_alloc_code(err))
               : moore_error_set(err, MOORE_EINVAL, "report: cannot read the rows file '%s' "
                                 "('moore compare --json=lines' writes one)", path);
    for (int n = 1; !rc && fgets(line, ROWS_LINE_MAX, f); n++) {
        if (strspn(line, " \t\r\n") == strlen(line))
            continue;   /* a blank line */
        cJSON *o = cJSON_Parse(line);
        const cJSON *top = cJSON_GetObjectItemCaseSensitive(o, "topology");
        const cJSON *fam = cJSON_GetObjectItemCaseSensitive(o, "family");
        if (!cJSON_IsString(top) || !cJSON_IsString(fam) ||
            strlen(top->valuestring) >= MOORE_SPEC_MAX || *count == ROWS_MAX ||
            (!strchr(line, '\n') && !feof(f)))
            rc = moore_error_set(err, MOORE_EINVAL, "report: line %d of the rows file '%s' "
                                 "is not a row of 'moore compare --json=lines'", n, path);
        if (!rc)
            rows[(*count)++] = o;
        else
            cJSON_Delete(o);
    }
    if (!rc && f && ferror(f))
        rc = moore_error_set(err, MOORE_EIO, "report: cannot read the rows file '%s'", path);
    if (f)
        fclose(f);
    free(line);
    return rc;
}

/* The row's own rules against the page's options. */
static int row_check(const moore_page_options *o, const char *path, const moore_report *r,
                     const char *spec, moore_error *err)
{
    double servers = moore_report_number(r, "endpoints");
    double radix = moore_report_number(r, "radix");
    double lower = moore_report_number(r, "throughput_uniform");
    if (!(servers >= (double)o->endpoints))
        return moore_error_set(err, MOORE_EINVAL, "report: the row %s of '%s' has %g servers, "
                               "fewer than --endpoints %lld: the file is not compare's output "
                               "for these options", spec, path, servers,
                               (long long)o->endpoints);
    if (radix > o->radix)
        return moore_error_set(err, MOORE_EINVAL, "report: the row %s of '%s' needs radix %g, "
                               "more than --radix %d", spec, path, radix, (int)o->radix);
    if (o->bandwidth > 0 && !(lower >= o->bandwidth))
        return moore_error_set(err, MOORE_EINVAL, "report: the row %s of '%s' is not proven "
                               "to reach bandwidth %g: the file is not compare's output for "
                               "these options", spec, path, o->bandwidth);
    return MOORE_OK;
}

/* One row: the basic and paths groups measured on the rebuilt graph (the
 * switches' radix for row_check, the distance histogram and the Moore-bound
 * efficiency for the page), compare's values over them. */
static int row_read(const moore_page_options *o, const char *path, cJSON *const *rows,
                    int count, const cJSON *j, moore_compare_row *row, moore_error *err)
{
    moore_graph *g = NULL;
    const char *spec = cJSON_GetObjectItemCaseSensitive(j, "topology")->valuestring;
    moore_report_init(&row->report);
    snprintf(row->spec, sizeof row->spec, "%s", spec);
    int rc = moore_topology_load(spec, &g, err);
    if (!rc)
        rc = moore_metrics_compute(g, "basic,paths", &o->metric, &row->report, err);
    for (const cJSON *it = j->child; !rc && it; it = it->next)
        if (!not_a_value(it->string))
            rc = put(&row->report, it->string, it, measured(rows, count, it->string), err);
    if (!rc)
        rc = row_check(o, path, &row->report, spec, err);
    moore_graph_free(g);
    return rc;
}

/* A note per family of the page's list the file has no row of. */
static int absent_notes(const moore_page_options *o, moore_compare *c, moore_error *err)
{
    const moore_family *fams = moore_families();
    int n = 0, rc = MOORE_OK;
    while (fams[n].name)
        n++;
    c->notes = moore_calloc((size_t)n + 1, sizeof *c->notes, err);
    if (!c->notes)
        return core_alloc_code(err);
    for (int i = 0; !rc && fams[i].name; i++) {
        int sel = 0;
        rc = moore_plan_family_selected(o->families, &fams[i], &sel, err);
        if (!rc && sel && !page_row(c, fams[i].name))
            snprintf(c->notes[c->note_count++], MOORE_ERRMSG_LEN, "%s: no row in %.200s "
                     "(moore compare names on stderr why it found no configuration)",
                     fams[i].name, o->rows);
    }
    return rc;
}

int page_rows_read(const moore_page_options *o, moore_compare *out, moore_error *err)
{
    cJSON **rows = NULL;
    int count = 0;
    memset(out, 0, sizeof *out);
    rows = moore_calloc(ROWS_MAX, sizeof *rows, err);
    int rc = rows ? parse_lines(o->rows, rows, &count, err) : core_alloc_code(err);
    if (!rc)
        out->rows = moore_calloc((size_t)count + 1, sizeof *out->rows, err);
    if (!rc && !out->rows)
        rc = core_alloc_code(err);
    for (int i = 0; !rc && i < count; i++) {
        const char *name = cJSON_GetObjectItemCaseSensitive(rows[i], "family")->valuestring;
        const moore_family *fam = moore_family_find(name);
        int sel = 0;
        if (!fam)
            rc = moore_error_set(err, MOORE_EINVAL, "report: the rows file '%s' has a row of "
                                 "family '%s', which moore does not know", o->rows, name);
        if (!rc)
            rc = moore_plan_family_selected(o->families, fam, &sel, err);
        if (rc || !sel)
            continue;
        rc = row_read(o, o->rows, rows, count, rows[i], &out->rows[out->count++], err);
    }
    if (!rc && out->count == 0)
        rc = moore_error_set(err, MOORE_EINVAL, "report: the rows file '%s' has no row of the "
                             "page's families", o->rows);
    if (!rc)
        rc = absent_notes(o, out, err);
    out->bandwidth = o->bandwidth < 0 ? 0 : o->bandwidth;
    out->by_cost = out->count > 0 && isfinite(moore_report_number(&out->rows[0].report,
                                                                  "cost_total"));
    for (int i = 0; rows && i < count; i++)
        cJSON_Delete(rows[i]);
    free(rows);
    if (rc)
        moore_compare_clear(out);
    return rc;
}
