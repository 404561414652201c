/* trials.c — T seeded failure trials of one scenario, in parallel over the
 * trials, and the statistics of each metric of the surviving graphs (mean,
 * min, p5, p50, p95, standard deviation; docs/resilience.md). Trial t draws
 * from its own split stream and writes only its own row, and the statistics
 * read the rows in trial order, so any thread count gives the same bytes.
 * Metrics are computed by their own areas (paths.h, flow.h, bisection.h). */
#include "moore/bisection.h"
#include "core/alloc.h"
#include "moore/flow.h"
#include "moore/paths.h"
#include "moore/resilience.h"
#include "moore/traffic.h"
#include "resilience_internal.h"
#include "moore/dist.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

static const char *const METRIC_NAMES[MOORE_FAIL_NMETRICS] = {
    "diameter", "avg_path_length", "avg_path_length_endpoints", "throughput_uniform",
    "bisection"
};

const char *moore_fail_metric_name(int metric)
{
    return metric >= 0 && metric < MOORE_FAIL_NMETRICS ? METRIC_NAMES[metric] : NULL;
}

int moore_fail_metric_mask(const char *list, unsigned *mask, moore_error *err)
{
    *mask = 0;
    if (!list) {
        *mask = 1u << MOORE_FAIL_DIAMETER | 1u << MOORE_FAIL_APL | 1u << MOORE_FAIL_APL_ENDPOINTS;
        return MOORE_OK;
    }
    if (strcmp(list, "all") == 0) {
        *mask = (1u << MOORE_FAIL_NMETRICS) - 1;
        return MOORE_OK;
    }
    for (const char *s = list; *s;) {
        size_t len = strcspn(s, ",");
        int found = -1;
        for (int i = 0; i < MOORE_FAIL_NMETRICS; i++)
            if (strlen(METRIC_NAMES[i]) == len && strncmp(METRIC_NAMES[i], s, len) == 0)
                found = i;
        if (found < 0)
            return moore_error_set(err, MOORE_EINVAL,
                                   "unknown failure metric '%.*s' (known: diameter, "
                                   "avg_path_length, avg_path_length_endpoints, "
                                   "throughput_uniform, bisection, all)",
                                   (int)len, s);
        *mask |= 1u << found;
        s += len + (s[len] == ',');
    }
    return MOORE_OK;
}

void moore_fail_options_default(moore_fail_options *o)
{
    memset(o, 0, sizeof *o);
    o->trials = 100;
    o->seed = 1;
    o->eps = 0.05;
    moore_fail_metric_mask(NULL, &o->metrics, NULL);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(const double *sorted, int64_t n, double p)
{
    double h = (double)(n - 1) * p;
    int64_t lo = (int64_t)floor(h);
    if (lo + 1 >= n)
        return sorted[n - 1];
    return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

int moore_fail_summarize(const double *x, int64_t n, moore_fail_stats *out, moore_error *err)
{
    out->count = 0;
    out->mean = out->min = out->max = out->p5 = out->p50 = out->p95 = out->std = NAN;
    double *v = moore_malloc((size_t)n + 1, sizeof *v, err);
    if (!v)
        return core_alloc_code(err);
    int64_t c = 0;
    for (int64_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            v[c++] = x[i];
    if (c > 0) {
        /* Mean and spread about the first value: a constant sample gives it
         * back exactly (no rounding of a sum divided by c). */
        double shift = 0, sq = 0;
        for (int64_t i = 0; i < c; i++)
            shift += v[i] - v[0];
        double mean = v[0] + shift / (double)c;
        for (int64_t i = 0; i < c; i++)
            sq += (v[i] - mean) * (v[i] - mean);
        qsort(v, (size_t)c, sizeof *v, cmp_double);
        out->count = c;
        out->mean = mean;
        out->std = sqrt(sq / (double)c);
        out->min = v[0];
        out->max = v[c - 1];
        out->p5 = percentile(v, c, 0.05);
        out->p50 = percentile(v, c, 0.50);
        out->p95 = percentile(v, c, 0.95);
    }
    free(v);
    return MOORE_OK;
}

/* Servers on at least two switches (every switch counts when g has none). */
static int has_traffic(const moore_graph *g)
{
    int32_t with = 0;
    for (int32_t v = 0; v < g->n; v++)
        with += g->endpoints[v] > 0;
    return (moore_graph_endpoints_total(g) == 0 ? g->n : with) >= 2;
}

static int trial_throughput(const moore_graph *s, const moore_fail_options *o, int threads,
                            double *out, moore_error *err)
{
    if (!has_traffic(s))
        return MOORE_OK;
    moore_traffic *t = NULL;
    moore_flow_options fo;
    moore_flow_result f;
    moore_flow_options_default(&fo);
    fo.eps = o->eps;
    fo.threads = threads;
    int rc = moore_traffic_uniform(s, &t, err);
    if (!rc)
        rc = moore_flow_approx(s, t, &fo, &f, err);
    if (!rc)
        *out = f.lower;
    moore_traffic_free(t);
    return rc;
}

static int trial_bisection(const moore_graph *s, double *out, moore_error *err)
{
    moore_bisection_options bo;
    moore_bisection_result b;
    moore_bisection_options_default(&bo);
    bo.spectral_max_switches = 0;   /* the METIS cut only */
    int rc = moore_bisection_compute(s, &bo, &b, err);
    if (!rc && b.valid)
        *out = (double)b.cut;
    if (!rc)
        moore_bisection_result_clear(&b);
    return rc;
}

/* The metrics of one surviving graph into row (NaN stays where undefined). */
static int trial_metrics(const moore_graph *s, const moore_fail_options *o, int threads,
                         double *row, char *connected, moore_error *err)
{
    int32_t comps = 0;
    int rc = moore_components(s, NULL, &comps, err);
    *connected = !rc && s->n >= 2 && comps == 1;
    if (rc || !*connected)
        return rc;
    unsigned m = o->metrics;
    if (m & (1u << MOORE_FAIL_DIAMETER | 1u << MOORE_FAIL_APL | 1u << MOORE_FAIL_APL_ENDPOINTS)) {
        moore_metric_options mo;
        moore_paths_result p;
        moore_metric_options_default(&mo);
        mo.threads = threads;
        rc = moore_paths_compute(s, &mo, &p, err);
        if (rc)
            return rc;
        row[MOORE_FAIL_DIAMETER] = p.diameter;
        row[MOORE_FAIL_APL] = p.avg_path_length;
        moore_paths_result_clear(&p);
        if (m & 1u << MOORE_FAIL_APL_ENDPOINTS)
            rc = resil_apl_endpoints(s, row[MOORE_FAIL_APL], &row[MOORE_FAIL_APL_ENDPOINTS], err);
        if (!(m & 1u << MOORE_FAIL_DIAMETER))
            row[MOORE_FAIL_DIAMETER] = NAN;
        if (!(m & 1u << MOORE_FAIL_APL))
            row[MOORE_FAIL_APL] = NAN;
    }
    if (!rc && m & 1u << MOORE_FAIL_THROUGHPUT)
        rc = trial_throughput(s, o, threads, &row[MOORE_FAIL_THROUGHPUT], err);
    if (!rc && m & 1u << MOORE_FAIL_BISECTION)
        rc = trial_bisection(s, &row[MOORE_FAIL_BISECTION], err);
    return rc;
}

/* Per trial: links and switches drawn, then switches, links and servers lost. */
#define FT_LOST 5

typedef struct ft_work {
    char *link_failed, *switch_failed;
} ft_work;

/* One trial: draw, count, build the survivor, measure. */
static int run_trial(const moore_graph *g, const moore_failure_scenario *sc,
                     const moore_fail_options *o, int threads, int64_t t, ft_work *w,
                     moore_fail_result *out, double *lost, moore_error *err)
{
    moore_rng r;
    res_trial_rng(o->seed, t, &r);
    moore_graph *s = NULL;
    int rc = moore_failure_draw(g, sc, &r, w->link_failed, w->switch_failed, err);
    int64_t links = 0, switches = 0;
    for (int64_t i = 0; !rc && i < g->m; i++)
        links += w->link_failed[i];
    for (int32_t v = 0; !rc && v < g->n; v++)
        switches += w->switch_failed[v];
    double *row = lost + FT_LOST * t;
    row[0] = (double)links;
    row[1] = (double)switches;
    if (!rc)
        rc = moore_survivor_build(g, w->link_failed, w->switch_failed, &s, err);
    if (!rc) { /* what the network lost: all that the survivor lacks */
        row[2] = (double)switches;
        row[3] = (double)(g->m - s->m);
        row[4] = (double)(moore_graph_endpoints_total(g) - moore_graph_endpoints_total(s));
    }
    if (!rc)
        rc = trial_metrics(s, o, threads, &out->values[t * MOORE_FAIL_NMETRICS],
                           &out->connected[t], err);
    moore_graph_free(s);
    return rc;
}

static int check_options(const moore_graph *g, const moore_failure_scenario *s,
                         const moore_fail_options *o, moore_error *err)
{
    if (o->trials < 1 || o->trials > MOORE_FAIL_MAX_TRIALS)
        return moore_error_set(err, MOORE_EINVAL, "trials = %d must be in 1..%d", o->trials,
                               MOORE_FAIL_MAX_TRIALS);
    if (o->metrics >> MOORE_FAIL_NMETRICS)
        return moore_error_set(err, MOORE_EINVAL, "metric mask 0x%x names unknown metrics",
                               o->metrics);
    if (o->metrics & 1u << MOORE_FAIL_THROUGHPUT && !(o->eps >= 1e-4 && o->eps <= 1))
        return moore_error_set(err, MOORE_EINVAL, "eps = %g must be in [0.0001, 1]", o->eps);
    return moore_failure_check(g, s, err);
}

/* Summaries of the rows, in trial order. */
static int summarize_all(const double *lost, moore_fail_result *out, moore_error *err)
{
    int T = out->trials, rc = MOORE_OK;
    double *col = moore_malloc((size_t)T, sizeof *col, err);
    if (!col)
        return core_alloc_code(err);
    moore_fail_stats *dst[FT_LOST] = { &out->links_failed, &out->switches_failed,
                                       &out->switches_lost, &out->links_lost, &out->servers_lost };
    for (int k = 0; !rc && k < FT_LOST; k++) {
        for (int t = 0; t < T; t++)
            col[t] = lost[FT_LOST * t + k];
        rc = moore_fail_summarize(col, T, dst[k], err);
    }
    for (int k = 0; !rc && k < MOORE_FAIL_NMETRICS; k++) {
        for (int t = 0; t < T; t++)
            col[t] = out->values[(int64_t)t * MOORE_FAIL_NMETRICS + k];
        rc = moore_fail_summarize(col, T, &out->metric[k], err);
    }
    out->connected_trials = 0;
    for (int t = 0; t < T; t++)
        out->connected_trials += out->connected[t];
    out->connected_fraction = (double)out->connected_trials / T;
    free(col);
    return rc;
}

/* Every rank gets every trial's row from the rank that ran it (MPI). */
static int share_trials(const moore_dist *d, moore_fail_result *out, double *lost,
                        moore_error *err)
{
    int T = out->trials;
    double *conn = moore_malloc((size_t)T, sizeof *conn, err);
    if (!conn)
        return err->code;
    for (int t = 0; t < T; t++)
        conn[t] = out->connected[t];
    int rc = moore_dist_share_rows(d, out->values, T, MOORE_FAIL_NMETRICS, err);
    if (!rc)
        rc = moore_dist_share_rows(d, lost, T, FT_LOST, err);
    if (!rc)
        rc = moore_dist_share_rows(d, conn, T, 1, err);
    for (int t = 0; !rc && t < T; t++)
        out->connected[t] = (char)conn[t];
    free(conn);
    return rc;
}

int moore_fail_trials(const moore_graph *g, const moore_failure_scenario *s,
                      const moore_fail_options *o, moore_fail_result *out, moore_error *err)
{
    memset(out, 0, sizeof *out);
    double *lost = NULL;
    int *trial_rc = NULL;
    int rc = check_options(g, s, o, err);
    if (rc)
        return rc;
    int T = o->trials;
    rc = moore_memory_guard((double)T * (MOORE_FAIL_NMETRICS + FT_LOST + 1) * 8.0,
                            "failure trials", err);
    if (rc)
        return rc;
    out->trials = T;
    out->values = moore_malloc((size_t)T * MOORE_FAIL_NMETRICS, sizeof *out->values, err);
    out->connected = moore_calloc((size_t)T, 1, err);
    lost = moore_calloc((size_t)T * FT_LOST, sizeof *lost, err);
    trial_rc = moore_calloc((size_t)T, sizeof *trial_rc, err);
    if (!out->values || !out->connected || !lost || !trial_rc) {
        rc = core_alloc_code(err);
        goto done;
    }
    for (int64_t i = 0; i < (int64_t)T * MOORE_FAIL_NMETRICS; i++)
        out->values[i] = NAN;
    int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    int outer = threads < T ? threads : T;
    int inner = threads / outer > 0 ? threads / outer : 1;
    int done_count = 0, first_bad = T;
    moore_error first_err;
    moore_error_clear(&first_err);
#pragma omp parallel num_threads(outer)
    {
        ft_work w;
        int scratch = MOORE_OK; /* the code of a failed scratch allocation */
        w.link_failed = core_par_malloc((size_t)g->m + 1, 1, &scratch);
        w.switch_failed = core_par_malloc((size_t)g->n + 1, 1, &scratch);
#pragma omp for schedule(dynamic, 1)
        for (int t = 0; t < T; t++) {
            if (!moore_dist_mine(o->dist, t))
                continue; /* another rank's trial */
            moore_error e;
            moore_error_clear(&e);
            trial_rc[t] = moore_cancel_requested()
                              ? moore_error_set(&e, MOORE_ECANCELLED, "failure trials cancelled")
                          : w.link_failed && w.switch_failed
                              ? run_trial(g, s, o, inner, t, &w, out, lost, &e)
                              : core_par_failed(&e, scratch, "failure trial scratch");
#pragma omp critical
            {
                if (trial_rc[t] && t < first_bad) {
                    first_bad = t;
                    first_err = e;
                }
                done_count++;
                if (o->progress)
                    o->progress(o->progress_ctx, "failure trials", (double)done_count / T);
            }
        }
        free(w.link_failed);
        free(w.switch_failed);
    }
    if (first_bad < T) {
        rc = trial_rc[first_bad];
        if (err)
            *err = first_err;
    }
    rc = moore_dist_agree(o->dist, rc, err);
    if (!rc)
        rc = share_trials(o->dist, out, lost, err);
    if (!rc)
        rc = summarize_all(lost, out, err);
done:
    free(lost);
    free(trial_rc);
    if (rc)
        moore_fail_result_clear(out);
    return rc;
}

void moore_fail_result_clear(moore_fail_result *r)
{
    if (!r)
        return;
    free(r->values);
    free(r->connected);
    r->values = NULL;
    r->connected = NULL;
}
