/* sweep.c — what the report measures: the main comparison at the user's
 * endpoint count with every default metric (throughput too, when the metric
 * table has it), and a cheaper comparison (basic + paths) at each endpoint
 * count of the sweep for the figures against size. Both go through
 * moore_compare_run, so the page shows exactly the configurations `moore
 * compare` picks. */
#include "report_internal.h"
#include "moore/dist.h"
#include "moore/flow.h"
#include "moore/traffic.h"

#include <stdio.h>
#include <string.h>

static void progress(const moore_page_options *o, const char *what, double f)
{
    if (o->metric.progress)
        o->metric.progress(o->metric.progress_ctx, what, f);
}

/* Throughput figures: the (1+ε) approximation stopped after a fixed number
 * of phases, so the page takes bounded time and the same bytes on every
 * machine; the bars show the proven bounds reached, whatever their gap. */
#define PAGE_EPS 0.1
#define PAGE_PHASES 8

static int bounds_of(const moore_graph *g, const char *tm, const moore_page_options *o,
                     moore_report *r, const char *key, moore_error *err)
{
    moore_traffic *t = NULL;
    moore_flow_options fo;
    moore_flow_result f;
    moore_flow_options_default(&fo);
    fo.eps = PAGE_EPS;
    fo.max_phases = PAGE_PHASES;
    fo.threads = o->metric.threads;
    char upper[64];
    snprintf(upper, sizeof upper, "%s_upper", key);
    int rc = moore_traffic_make(g, tm, o->metric.seed, &t, err);
    if (!rc)
        rc = moore_flow_approx(g, t, &fo, &f, err);
    if (!rc)
        rc = moore_report_double(r, key, f.lower, err);
    if (!rc)
        rc = moore_report_double(r, upper, f.upper, err);
    moore_traffic_free(t);
    return rc;
}

/* Uniform and worst-case bounds for every row of the main comparison. */
static int main_throughput(const moore_page_options *o, moore_compare *c, moore_error *err)
{
    int rc = MOORE_OK;
    for (int i = 0; !rc && i < c->count; i++) {
        moore_graph *g = NULL;
        char what[MOORE_SPEC_MAX + 32];
        snprintf(what, sizeof what, "report: throughput of %s", c->rows[i].spec);
        progress(o, what, (double)i / c->count);
        rc = moore_topology_load(c->rows[i].spec, &g, err);
        if (!rc)
            rc = bounds_of(g, "uniform", o, &c->rows[i].report, "throughput_uniform", err);
        if (!rc)
            rc = bounds_of(g, "worst", o, &c->rows[i].report, "throughput_worst", err);
        moore_graph_free(g);
    }
    return rc;
}

static int compare_at(const moore_page_options *o, int64_t endpoints, const char *metrics,
                      moore_compare *out, moore_error *err)
{
    moore_compare_options c;
    moore_compare_options_default(&c);
    c.radix = o->radix;
    c.endpoints = endpoints;
    c.families = o->families;
    c.metrics = metrics;
    c.metric = o->metric;
    c.metric.progress = NULL; /* the page reports its own steps */
    c.bandwidth = o->bandwidth < 0 ? 0 : o->bandwidth; /* < 0: any */
    return moore_compare_run(&c, out, err);
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
    int rc = compare_at(&s->local, s->o->sweep[i], "basic,paths", &c, err);
    if (rc == MOORE_EINVAL) /* no family reaches this size: an empty point */
        rc = MOORE_OK;
    if (!rc)
        rc = moore_dist_pack_compare(out, &c, err);
    moore_compare_free(&c);
    return rc;
}

static int point_take(void *ctx, int64_t i, moore_dist_blob *in, moore_error *err)
{
    sweep_items *s = ctx;
    s->d->sweep_count = (int)i + 1;
    return moore_dist_unpack_compare(in, &s->d->sweep[i], err);
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
    char metrics[256];
    memset(d, 0, sizeof *d);
    progress(o, "report: main comparison", 0);
    int rc = moore_compare_default_metrics(metrics, sizeof metrics, err);
    if (!rc)
        rc = compare_at(o, o->endpoints, metrics, &d->main, err);
    if (!rc)
        rc = main_throughput(o, &d->main, err);
    if (!rc)
        rc = sweep_points(o, d, err);
    progress(o, "report: figures", 1);
    return rc;
}

void page_data_free(page_data *d)
{
    moore_compare_free(&d->main);
    for (int i = 0; i < d->sweep_count; i++)
        moore_compare_free(&d->sweep[i]);
    d->sweep_count = 0;
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
