/* compare.c — `moore compare` as a library call: build the planner's choice
 * of every family for a radix and an endpoint count, measure each with the
 * metric groups, and collect one report per topology.
 *
 * Columns are read from the reports by key, and the metric groups are found
 * by name in the metric table, so a family or a metric group merged later
 * shows up here without a change. Each built graph is checked against its
 * family's closed forms: a mismatch is a bug in that family, not a result. */
#include "moore/plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const moore_compare_column COLUMNS[] = {
    { "family", "family", NULL },
    { "spec", "spec", NULL },
    { "switches", "switches", NULL },
    { "cables", "cables", NULL },
    { "endpoints", "endpoints", NULL },
    { "diameter", "diam", NULL },
    { "avg_path_length", "avg path", NULL },
    { "lambda2", "lambda2/Ramanujan", "ramanujan_bound" },
    { "bisection_bandwidth", "bisection bw", NULL },
    { "throughput_uniform", "thru uniform", NULL },
    { "throughput_worst", "thru worst", NULL },
    { NULL, NULL, NULL }
};

const moore_compare_column *moore_compare_columns(void) { return COLUMNS; }

/* The groups compare runs when present; the cheap ones first. Throughput is
 * not among them: the (1+eps) approximation takes seconds to minutes per
 * topology at 10,000 endpoints (dragonfly:p=12,g=37 worst case > 2 min), so
 * it is asked for with --metrics or the CLI's --throughput. */
static const char *const COMPARE_GROUPS[] = { "basic", "paths", "spectral", "bisection", NULL };

int moore_compare_default_metrics(char *buf, size_t len, moore_error *err)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; COMPARE_GROUPS[i]; i++) {
        if (!moore_metric_group_find(COMPARE_GROUPS[i]))
            continue;
        int w = snprintf(buf + used, len - used, "%s%s", used ? "," : "", COMPARE_GROUPS[i]);
        if (w < 0 || (size_t)w >= len - used)
            return moore_error_set(err, MOORE_EINTERNAL, "compare: metric list too long");
        used += (size_t)w;
    }
    return MOORE_OK;
}

void moore_compare_options_default(moore_compare_options *o)
{
    memset(o, 0, sizeof *o);
    o->radix = 48;
    o->endpoints = 10000;
    moore_metric_options_default(&o->metric);
}

static int add_note(moore_compare *c, moore_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int add_note(moore_compare *c, moore_error *err, const char *fmt, ...)
{
    char (*notes)[MOORE_ERRMSG_LEN] = realloc(c->notes, (size_t)(c->note_count + 1) *
                                                            sizeof *notes);
    if (!notes)
        return moore_error_set(err, MOORE_ENOMEM, "compare: out of memory");
    c->notes = notes;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->notes[c->note_count++], MOORE_ERRMSG_LEN, fmt, ap);
    va_end(ap);
    return MOORE_OK;
}

/* The topologies to compare: the given ones, or each family's chosen row. */
typedef struct compare_list {
    int count;
    char (*spec)[MOORE_SPEC_MAX];
} compare_list;

static int list_add(compare_list *l, const char *spec, moore_error *err)
{
    if (strlen(spec) >= MOORE_SPEC_MAX)
        return moore_error_set(err, MOORE_EINVAL, "compare: '%.40s…' is too long", spec);
    char (*s)[MOORE_SPEC_MAX] = realloc(l->spec, (size_t)(l->count + 1) * sizeof *s);
    if (!s)
        return moore_error_set(err, MOORE_ENOMEM, "compare: out of memory");
    l->spec = s;
    snprintf(l->spec[l->count++], MOORE_SPEC_MAX, "%s", spec);
    return MOORE_OK;
}

static int choose(const moore_compare_options *o, compare_list *l, moore_compare *c,
                  moore_error *err)
{
    if (o->topology_count > 0) {
        for (int i = 0; i < o->topology_count; i++) {
            int rc = list_add(l, o->topologies[i], err);
            if (rc)
                return rc;
        }
        return MOORE_OK;
    }
    moore_plan plan;
    int rc = moore_plan_make(o->radix, o->endpoints, o->families, &plan, err);
    if (rc)
        return rc;
    for (const moore_family *f = moore_families(); !rc && f->name; f++) {
        int on;
        if ((rc = moore_plan_family_selected(o->families, f, &on, err)) || !on)
            continue;
        const moore_plan_row *r = moore_plan_chosen(&plan, f);
        const moore_plan_row *big = moore_plan_largest(&plan, f);
        if (r)
            rc = list_add(l, r->spec, err);
        else if (big)
            rc = add_note(c, err, "%s: no configuration with radix %d reaches %lld endpoints "
                          "(the largest planned, %s, has %lld)", f->name, (int)o->radix,
                          (long long)o->endpoints, big->spec, (long long)big->counts.endpoints);
        else
            rc = add_note(c, err, "%s: no configuration fits radix %d", f->name,
                          (int)o->radix);
    }
    moore_plan_free(&plan);
    if (!rc && l->count == 0)
        rc = moore_error_set(err, MOORE_EINVAL, "compare: no family reaches %lld endpoints "
                             "with radix %d", (long long)o->endpoints, (int)o->radix);
    return rc;
}

/* Closed forms against the built graph: a family bug must not pass as data. */
static int check_counts(const char *spec, const moore_graph *g, int64_t *cables,
                        moore_error *err)
{
    moore_counts c;
    moore_error sub;
    *cables = g->m;
    if (!g->family || moore_spec_counts(spec, &c, &sub))
        return MOORE_OK; /* a file, or a family without closed forms */
    if (c.switches != g->n || c.links != g->m || c.endpoints != moore_graph_endpoints_total(g))
        return moore_error_set(err, MOORE_EINTERNAL,
                               "compare: %s built %d switches, %lld links, %lld endpoints; its "
                               "closed forms say %lld, %lld, %lld", spec, (int)g->n,
                               (long long)g->m, (long long)moore_graph_endpoints_total(g),
                               (long long)c.switches, (long long)c.links,
                               (long long)c.endpoints);
    *cables = moore_counts_cables(&c);
    return MOORE_OK;
}

static int measure(const moore_compare_options *o, const char *metrics, const char *spec,
                   moore_compare_row *row, moore_error *err)
{
    moore_graph *g;
    int64_t cables;
    int rc = moore_topology_load(spec, &g, err);
    if (rc)
        return rc;
    snprintf(row->spec, sizeof row->spec, "%s", spec);
    rc = check_counts(spec, g, &cables, err);
    if (!rc)
        rc = moore_report_string(&row->report, "family", g->family ? g->family : "file", err);
    if (!rc)
        rc = moore_report_string(&row->report, "spec", spec, err);
    if (!rc)
        rc = moore_metrics_compute(g, metrics, &o->metric, &row->report, err);
    if (!rc)
        rc = moore_report_int(&row->report, "cables", cables, err);
    moore_graph_free(g);
    return rc;
}

int moore_compare_run(const moore_compare_options *o, moore_compare *out, moore_error *err)
{
    memset(out, 0, sizeof *out);
    char metrics[256];
    const char *list = o->metrics;
    int rc = MOORE_OK;
    if (!list) {
        rc = moore_compare_default_metrics(metrics, sizeof metrics, err);
        list = metrics;
    }
    compare_list l = { 0, NULL };
    if (!rc)
        rc = choose(o, &l, out, err);
    if (!rc && l.count) {
        out->rows = moore_calloc((size_t)l.count, sizeof *out->rows, err);
        rc = out->rows ? MOORE_OK : MOORE_ENOMEM;
    }
    for (int i = 0; !rc && i < l.count; i++) {
        if (o->metric.progress) {
            char what[MOORE_SPEC_MAX + 32];
            snprintf(what, sizeof what, "compare %d/%d: %s", i + 1, l.count, l.spec[i]);
            o->metric.progress(o->metric.progress_ctx, what, (double)i / l.count);
        }
        moore_report_init(&out->rows[i].report);
        out->count = i + 1;
        rc = measure(o, list, l.spec[i], &out->rows[i], err);
    }
    free(l.spec);
    if (rc)
        moore_compare_free(out);
    return rc;
}

void moore_compare_free(moore_compare *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->count; i++)
        moore_report_free(&c->rows[i].report);
    free(c->rows);
    free(c->notes);
    memset(c, 0, sizeof *c);
}
