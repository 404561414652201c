/* sweep.c — what the report measures: the main comparison at the user's
 * endpoint count (moore_compare_run, so the page shows exactly the
 * configurations `moore compare` picks), and one point per endpoint count of
 * the sweep for the figures against size.
 *
 * A sweep point is the same search at its own endpoint count
 * (moore_compare_run with the groups the figures against size read: basic,
 * paths, layout), and at the main count the main comparison itself: one
 * computation feeds the table and the figures, so they cannot disagree. A
 * family compare finds nothing for is absent from that point, with compare's
 * note saying why.
 *
 * With compare's own rows (o->rows, rows.c) the main comparison is read
 * instead of searched: the main job has just run that search. With a sweep
 * database (o->db) every metric group of a topology the database holds is
 * read from it instead of measured (sweep.h).
 *
 * The throughput figure shows, per row, the uniform bounds compare proved
 * (its table's columns) and the hose bounds compare's hose search proves
 * with; both are cheap, where the (1+ε) approximation of a worst-case
 * matrix took seconds a row. The rows are bounded side by side. */
#include "report_internal.h"
#include "plan/row.h" /* plan_row_ratio */
#include "moore/dist.h"
#include "moore/flow.h"
#include "moore/paths.h"
#include "moore/routing.h"
#include "moore/traffic.h"
#include "core/alloc.h"

#include <omp.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void progress(const moore_page_options *o, const char *what, double f)
{
    if (o->metric.progress)
        o->metric.progress(o->metric.progress_ctx, what, f);
}

/* Uniform throughput where compare proved none (--bandwidth any): the (1+ε)
 * approximation stopped after a fixed number of phases, so the page takes
 * bounded time and the same bytes on every machine; the bars show the
 * proven bounds reached, whatever their gap. */
#define PAGE_EPS 0.1
#define PAGE_PHASES 8

/* The metric groups of the main table beyond "basic" (which compare runs),
 * and those a sweep point builds its graph for. */
#define PAGE_SWEEP_GROUPS "paths,layout"
#define PAGE_SWEEP_TRIES 3  /* builds per family and sweep point (compare's default: 8) */

/* The throughput bars of one row (rows.c reads compare's, the rest is
 * measured here): uniform traffic's bounds where compare proved none (at
 * --bandwidth any), and the hose bounds: every matrix the servers can send
 * at line rate. */
typedef struct row_bounds {
    double uniform_lower, uniform_upper, hose_lower, hose_upper;
} row_bounds;

/* The hose bounds are those compare's search proves a row with
 * (moore_flow_hose at effort -1: two-phase routing's shortest-path split
 * below; the uniform matrix and the single-switch cuts above): a fraction
 * of a second a row at a thousand switches. */
#define PAGE_HOSE_EFFORT (-1)

static int row_bounds_of(const char *spec, int uniform, row_bounds *b, moore_error *err)
{
    moore_graph *g = NULL;
    moore_traffic *t = NULL;
    moore_flow_options fo;
    moore_flow_result f;
    moore_hose_result h;
    moore_flow_options_default(&fo);
    fo.eps = PAGE_EPS;
    fo.max_phases = PAGE_PHASES;
    fo.threads = 1; /* the rows run side by side (page_each_row) */
    *b = (row_bounds){ NAN, NAN, NAN, NAN };
    int32_t with = 0; /* switches with servers: both bounds need two */
    int rc = moore_topology_load(spec, &g, err);
    for (int32_t v = 0; !rc && v < g->n; v++)
        with += g->endpoints[v] > 0;
    if (with < 2)
        uniform = 0;
    if (!rc && uniform)
        rc = moore_traffic_uniform_compact(g, &t, err);
    if (!rc && uniform)
        rc = moore_flow_approx(g, t, &fo, &f, err);
    if (!rc && uniform)
        *b = (row_bounds){ f.lower, f.upper, NAN, NAN };
    if (!rc && with >= 2)
        rc = moore_flow_hose(g, &fo, PAGE_HOSE_EFFORT, &h, err);
    if (!rc && with >= 2) {
        b->hose_lower = h.lower;
        b->hose_upper = h.upper;
    }
    moore_traffic_free(t);
    moore_graph_free(g);
    return rc;
}

int page_each_row(int count, int threads, page_row_fn fn, void *ctx, moore_error *err)
{
    int *rcs = moore_calloc((size_t)count + 1, sizeof *rcs, err);
    moore_error *errs = rcs ? moore_calloc((size_t)count + 1, sizeof *errs, err) : NULL;
    int rc = errs ? MOORE_OK : core_alloc_code(err);
    if (threads < 1)
        threads = omp_get_max_threads();
    if (!rc) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (int i = 0; i < count; i++)
            rcs[i] = fn(ctx, i, &errs[i]);
    }
    for (int i = 0; !rc && i < count; i++)
        if (rcs[i]) {
            *err = errs[i];
            rc = rcs[i];
        }
    free(rcs);
    free(errs);
    return rc;
}

typedef struct bounds_ctx {
    const moore_compare *c;
    row_bounds *b;
} bounds_ctx;

static int bounds_row(void *ctx, int i, moore_error *err)
{
    const bounds_ctx *x = ctx;
    const moore_report *r = &x->c->rows[i].report;
    int uniform = !isfinite(moore_report_number(r, "throughput_uniform"));
    return row_bounds_of(x->c->rows[i].spec, uniform, &x->b[i], err);
}

/* The throughput bars' keys (not compare's columns, so the table stays
 * compare's): uniform traffic's bounds compare proved, or measured. */
static int bounds_report(moore_report *r, const row_bounds *b, moore_error *err)
{
    double lo = moore_report_number(r, "throughput_uniform");
    double hi = moore_report_number(r, "throughput_uniform_upper");
    int proven = isfinite(lo);
    int rc = moore_report_double(r, PAGE_UNIFORM_LOWER, proven ? lo : b->uniform_lower, err);
    if (!rc)
        rc = moore_report_double(r, PAGE_UNIFORM_UPPER, proven ? hi : b->uniform_upper, err);
    if (!rc)
        rc = moore_report_double(r, PAGE_HOSE_LOWER, b->hose_lower, err);
    if (!rc)
        rc = moore_report_double(r, PAGE_HOSE_UPPER, b->hose_upper, err);
    return rc;
}

/* 1 when name is an entry of the comma list. */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *s = list; *s; s += *s == ',') {
        size_t len = strcspn(s, ",");
        if (len == n && strncmp(s, name, n) == 0)
            return 1;
        s += len;
    }
    return 0;
}

/* The groups of list for topology spec into r: from the database where it
 * has them, measured on the graph (built once, only when needed) otherwise. */
static int groups_of(const moore_page_options *o, page_data *d, const char *spec,
                     const char *list, moore_graph **g, moore_report *r, moore_error *err)
{
    char missing[256];
    int rc = MOORE_OK;
    snprintf(missing, sizeof missing, "%s", list);
    if (d->db)
        rc = moore_sweep_db_lookup_list(d->db, spec, list, r, missing, sizeof missing, err);
    for (const char *s = list; !rc && *s; s += *s == ',') {
        size_t len = strcspn(s, ",");
        char group[64];
        snprintf(group, sizeof group, "%.*s", (int)len, s);
        s += len;
        int absent = in_list(missing, group);
        d->groups_read += !absent;
        d->groups_measured += absent;
    }
    if (!rc && *missing && !*g)
        rc = moore_topology_load(spec, g, err);
    if (!rc && *missing)
        rc = moore_metrics_compute(*g, missing, &o->metric, r, err);
    return rc;
}

/* The rest of the main table's groups (unless the rows came from compare's
 * file, which has them), then the throughput bars' bounds, for every row of
 * the main comparison. */
static int main_rows(const moore_page_options *o, const char *groups, page_data *d,
                     moore_error *err)
{
    moore_compare *c = &d->main;
    row_bounds *b = moore_calloc((size_t)c->count + 1, sizeof *b, err);
    int rc = b ? MOORE_OK : core_alloc_code(err);
    for (int i = 0; !rc && !o->rows && i < c->count; i++) {
        moore_graph *g = NULL;
        char what[MOORE_SPEC_MAX + 32];
        snprintf(what, sizeof what, "report: measuring %s", c->rows[i].spec);
        progress(o, what, (double)i / c->count);
        rc = groups_of(o, d, c->rows[i].spec, groups, &g, &c->rows[i].report, err);
        if (!rc)
            rc = plan_row_ratio(&c->rows[i].report, err);
        moore_graph_free(g);
    }
    progress(o, "report: throughput bounds of the rows", 0);
    bounds_ctx x = { c, b };
    if (!rc)
        rc = page_each_row(c->count, o->metric.threads, bounds_row, &x, err);
    for (int i = 0; !rc && i < c->count; i++)
        rc = bounds_report(&c->rows[i].report, &b[i], err);
    free(b);
    return rc;
}

static int compare_main(const moore_page_options *o, moore_compare *out, moore_error *err)
{
    moore_compare_options c;
    moore_compare_options_default(&c);
    c.radix = o->radix;
    c.endpoints = o->endpoints;
    c.families = o->families;
    c.metrics = "basic"; /* the other groups: main_rows, from the database when it has them */
    c.metric = o->metric;
    c.metric.progress = NULL; /* the page reports its own steps */
    c.bandwidth = o->bandwidth < 0 ? 0 : o->bandwidth; /* < 0: any */
    return moore_compare_run(&c, out, err);
}

/* The default groups compare runs, without "basic" (compare_main ran it). */
static int main_groups(char *buf, size_t len, moore_error *err)
{
    char all[256];
    int rc = moore_compare_default_metrics(all, sizeof all, err);
    const char *s = all;
    buf[0] = '\0';
    if (!rc && strncmp(s, "basic", 5) == 0 && (s[5] == ',' || !s[5]))
        s += s[5] ? 6 : 5;
    if (!rc)
        snprintf(buf, len, "%s", s);
    return rc;
}

/* compare's lookup callback: the sweep database's stored results. */
static int page_db_lookup(void *ctx, const char *topology, const char *task, moore_report *r,
                          int *found, moore_error *err)
{
    return moore_sweep_db_lookup(ctx, topology, task, r, found, err);
}

/* A copy of the comparison from into *out (through the MPI packing, which
 * copies every row). */
static int point_copy(const moore_compare *from, moore_compare *out, moore_error *err)
{
    moore_dist_blob b = { 0 };
    memset(out, 0, sizeof *out);
    int rc = moore_dist_pack_compare(&b, from, err);
    if (!rc)
        rc = moore_dist_unpack_compare(&b, out, err);
    moore_dist_blob_clear(&b);
    return rc;
}

/* A point where compare found nothing: no rows, its one note compare's
 * refusal (in err, which is cleared). */
static int point_empty(int64_t endpoints, moore_compare *out, moore_error *err)
{
    memset(out, 0, sizeof *out);
    out->notes = moore_calloc(1, sizeof *out->notes, err);
    int rc = out->notes ? MOORE_OK : err->code;
    if (!rc) {
        snprintf(out->notes[0], MOORE_ERRMSG_LEN, "%lld endpoints: %.280s",
                 (long long)endpoints, err->msg);
        out->note_count = 1;
        moore_error_clear(err);
    }
    return rc;
}

/* One sweep point: `moore compare` at this endpoint count, the search the
 * main table comes from (so a family's row at the table's own count is the
 * table's row, and a family is absent exactly where compare finds nothing,
 * with compare's note saying why). At the table's own count the main
 * comparison itself is the point. Only the groups the figures against size
 * read are measured. */
static int sweep_point(const moore_page_options *o, const page_data *d, int64_t endpoints,
                       moore_compare *out, moore_error *err)
{
    if (endpoints == o->endpoints) /* the same rows, copied */
        return point_copy(&d->main, out, err);
    moore_compare_options c;
    moore_compare_options_default(&c);
    c.radix = o->radix;
    c.endpoints = endpoints;
    c.families = o->families;
    c.metrics = "basic," PAGE_SWEEP_GROUPS;
    c.metric = o->metric;
    c.metric.progress = NULL; /* the page reports its own steps */
    c.bandwidth = o->bandwidth < 0 ? 0 : o->bandwidth; /* < 0: any */
    if (d->db) {
        c.lookup = page_db_lookup;
        c.lookup_ctx = d->db;
    }
    /* Without a Clos at the point (beyond 27,648 servers at radix 48) no switch
     * cap bounds the search, and each try of a 10,000-switch torus is a
     * shortest-path split of seconds: fewer tries than the main comparison. */
    c.max_tries = PAGE_SWEEP_TRIES;
    int rc = moore_compare_run(&c, out, err);
    if (rc == MOORE_EINVAL) /* nothing at this radix and size: an empty point */
        rc = point_empty(endpoints, out, err);
    else if (!rc && d->db && out->note_count > 0)
        out->note_count--; /* compare's last note counts database reads: the intro does */
    return rc;
}

static int open_db(const moore_page_options *o, page_data *d, moore_error *err)
{
    FILE *f = fopen(o->db, "rb");
    if (!f)
        return moore_error_set(err, MOORE_EINVAL, "report: cannot read the sweep database "
                               "'%s' (moore sweep writes one)", o->db);
    fclose(f);
    return moore_sweep_db_open_read(o->db, &d->db, err);
}

/* The sweep's points: point i alone on MPI rank i mod K, gathered in order
 * (moore_dist_map, docs/scale.md); one process runs them in turn. */
typedef struct sweep_items {
    const moore_page_options *o;
    moore_page_options local;   /* o with the points' own MPI group */
    page_data *d;
} sweep_items;

static int point_run(void *ctx, int64_t i, moore_dist_blob *out, moore_error *err)
{
    sweep_items *s = ctx;
    char what[96];
    moore_compare c;
    snprintf(what, sizeof what, "report: sweep %lld endpoints", (long long)s->o->sweep[i]);
    progress(s->o, what, (double)(i + 1) / (s->o->sweep_count + 1));
    int rc = sweep_point(&s->local, s->d, s->o->sweep[i], &c, err);
    if (!rc)
        rc = moore_dist_pack_compare(out, &c, err);
    moore_compare_clear(&c);
    return rc;
}

static int point_take(void *ctx, int64_t i, moore_dist_blob *in, moore_error *err)
{
    sweep_items *s = ctx;
    s->d->sweep_count = (int)i + 1;
    int rc = moore_dist_unpack_compare(in, &s->d->sweep[i], err);
    s->d->groups_read += s->d->sweep[i].db_groups_read;
    s->d->groups_measured += s->d->sweep[i].db_groups_measured;
    return rc;
}

static int sweep_points(const moore_page_options *o, page_data *d, moore_error *err)
{
    sweep_items s = { o, *o, d };
    const moore_dist *spread = moore_dist_for_items(o->metric.dist, o->sweep_count);
    s.local.metric.dist = spread ? NULL : o->metric.dist;
    moore_dist_loop loop = { o->sweep_count, point_run, point_take, &s };
    return moore_dist_map(spread, &loop, err);
}

int page_measure(const moore_page_options *o, page_data *d, moore_error *err)
{
    char groups[256];
    memset(d, 0, sizeof *d);
    int rc = o->db ? open_db(o, d, err) : MOORE_OK;
    progress(o, "report: main comparison", 0);
    if (!rc)
        rc = main_groups(groups, sizeof groups, err);
    if (!rc)
        rc = o->rows ? page_rows_read(o, &d->main, err) : compare_main(o, &d->main, err);
    if (!rc)
        rc = main_rows(o, groups, d, err);
    if (!rc)
        d->robust = moore_calloc((size_t)d->main.count + 1, sizeof *d->robust, err);
    if (!rc && !d->robust)
        rc = err->code;
    if (!rc)
        rc = page_resilience_measure(o, &d->main, d->robust, err);
    if (!rc)
        rc = sweep_points(o, d, err);
    if (!rc)
        d->routed = moore_calloc((size_t)d->sweep[0].count + 1, sizeof *d->routed, err);
    if (!rc && !d->routed)
        rc = err->code;
    if (!rc)
        rc = page_routed_measure(o, &d->sweep[0], d->routed, err);
    if (!rc && o->job && !(d->step = moore_calloc((size_t)d->main.count + 1, sizeof *d->step,
                                                   err)))
        rc = err->code;
    if (!rc && o->job)
        rc = page_step_measure(o, &d->main, d->step, err);
    progress(o, "report: figures", 1);
    return rc;
}

void page_data_clear(page_data *d)
{
    page_steps_clear(d->step, d->main.count); /* before main's count is cleared */
    free(d->step);
    d->step = NULL;
    moore_compare_clear(&d->main);
    for (int i = 0; i < d->sweep_count; i++)
        moore_compare_clear(&d->sweep[i]);
    d->sweep_count = 0;
    free(d->robust);
    free(d->routed);
    d->robust = NULL;
    d->routed = NULL;
    moore_sweep_db_close(d->db);
    d->db = NULL;
}

const moore_compare_row *page_row(const moore_compare *c, const char *family)
{
    for (int i = 0; i < c->count; i++) {
        const moore_report_item *it = moore_report_get(&c->rows[i].report, "family");
        if (it && it->type == MOORE_VALUE_STRING && strcmp(it->s, family) == 0)
            return &c->rows[i];
    }
    return NULL;
}
