/* robust.c — what the report measures beyond the comparison: resilience
 * curves of each chosen topology (the share of random link-failure trials
 * whose survivor stays connected, and the survivors' uniform throughput under
 * ECMP, against the share of links failed; library: resilience.h), and routed
 * throughput per family (ECMP and KSP-8 against the unrestricted optimum;
 * library: routing.h).
 *
 * Bounded so the page takes bounded time (docs/report.md): the connected
 * share comes exactly from PAGE_DISCONNECT_TRIALS removal orders
 * (moore_disconnect_trials: one union-find pass per trial, every level at
 * once); throughput after failures from PAGE_FAIL_TRIALS draws per level, each
 * ECMP's fixed split (exact, and a proven lower bound on the optimum: a
 * fraction of a second at a thousand switches, where the (1+ε) approximation
 * takes tens of seconds). KSP-8 costs minutes at a thousand switches, so the
 * routing figure is measured at the sweep's first point (1,000 endpoints by
 * default), KSP-8 and the optimum by the (1+ε) approximation stopped after
 * PAGE_ROBUST_PHASES phases (proven bounds), and KSP-8 only on configurations
 * of at most PAGE_KSP_MAX switches (a torus with one server per switch has a
 * thousand there). */
#include "report_internal.h"
#include "moore/flow.h"
#include "moore/paths.h"
#include "moore/resilience.h"
#include "moore/routing.h"
#include "moore/traffic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const double PAGE_CONNECTED_LEVELS[PAGE_CONNECTED_COUNT] = { 0,   0.1, 0.2, 0.3, 0.4, 0.5,
                                                             0.6, 0.7, 0.8, 0.9 };
const double PAGE_THROUGHPUT_LEVELS[PAGE_THROUGHPUT_COUNT] = { 0, 0.1, 0.2, 0.3 };

static void progress(const moore_page_options *o, const char *what, const char *spec, double f)
{
    char text[MOORE_SPEC_MAX + 64];
    snprintf(text, sizeof text, "report: %s of %s", what, spec);
    if (o->metric.progress)
        o->metric.progress(o->metric.progress_ctx, text, f);
}

static void flow_options(const moore_page_options *o, moore_flow_options *fo)
{
    moore_flow_options_default(fo);
    fo->eps = PAGE_ROBUST_EPS;
    fo->max_phases = PAGE_ROBUST_PHASES;
    fo->threads = o->metric.threads;
}

/* The share of trials still connected after round(level·m) links fail. */
static int connected_curve(const moore_graph *g, const moore_page_options *o,
                           page_robust *out, moore_error *err)
{
    int64_t removed[PAGE_DISCONNECT_TRIALS];
    if (g->n < 2 || g->m < 1)
        return MOORE_OK;
    int rc = moore_disconnect_trials(g, 0, o->metric.seed, PAGE_DISCONNECT_TRIALS,
                                     o->metric.threads, removed, err);
    for (int l = 0; !rc && l < PAGE_CONNECTED_COUNT; l++) {
        int64_t k = llround(PAGE_CONNECTED_LEVELS[l] * (double)g->m), alive = 0;
        for (int t = 0; t < PAGE_DISCONNECT_TRIALS; t++)
            alive += removed[t] > k;
        out->connected[l] = (double)alive / PAGE_DISCONNECT_TRIALS;
    }
    return rc;
}

/* Whether g has uniform traffic to route: connected, servers on at least two
 * switches (a matrix of one switch is empty: nothing crosses a link). */
static int has_uniform_traffic(const moore_graph *g, int *yes, moore_error *err)
{
    int32_t comps = 0, with = 0;
    int rc = moore_components(g, NULL, &comps, err);
    for (int32_t v = 0; v < g->n; v++)
        with += g->endpoints[v] > 0;
    *yes = !rc && comps == 1 && with >= 2;
    return rc;
}

/* Uniform throughput under ECMP (exact; a proven lower bound on the optimum)
 * of s; NaN when it is disconnected or has fewer than two switches with
 * servers. The failure curves and the sweep points' proofs use it. */
int page_ecmp_uniform(const moore_graph *s, const moore_page_options *o, double *thr,
                      moore_error *err)
{
    moore_traffic *t = NULL;
    moore_flow_options fo;
    moore_flow_result f;
    int yes;
    *thr = NAN;
    int rc = has_uniform_traffic(s, &yes, err);
    if (rc || !yes)
        return rc;
    flow_options(o, &fo);
    rc = moore_traffic_uniform(s, &t, err);
    if (!rc)
        rc = moore_routed_throughput_spec(s, "ecmp", t, &fo, 0, &f, err);
    if (!rc)
        *thr = f.throughput;
    moore_traffic_free(t);
    return rc;
}

/* Mean over PAGE_FAIL_TRIALS draws of exactly round(level·m) failed links of
 * the survivors' throughput (connected survivors only; NaN when none is). */
static int throughput_at(const moore_graph *g, double level, int l,
                         const moore_page_options *o, double *mean, moore_error *err)
{
    moore_failure_scenario sc = { MOORE_FAIL_LINKS_FRACTION, level, NULL, 0 };
    char *link_failed = NULL, *switch_failed = NULL;
    moore_graph *s = NULL;
    moore_rng base, rng;
    double sum = 0;
    int count = 0, trials = level > 0 ? PAGE_FAIL_TRIALS : 1; /* nothing to draw at 0 */
    int rc = moore_failure_check(g, &sc, err);
    if (!rc)
        link_failed = moore_malloc((size_t)g->m + 1, 1, err);
    if (!rc && link_failed)
        switch_failed = moore_malloc((size_t)g->n + 1, 1, err);
    if (!rc && !switch_failed)
        rc = err->code;
    moore_rng_seed(&base, o->metric.seed);
    for (int t = 0; !rc && t < trials; t++) {
        double thr;
        moore_rng_split(&base, (uint64_t)l * 1000 + (uint64_t)t, &rng);
        rc = moore_failure_draw(g, &sc, &rng, link_failed, switch_failed, err);
        if (!rc)
            rc = moore_survivor_build(g, link_failed, switch_failed, &s, err);
        if (!rc)
            rc = page_ecmp_uniform(s, o, &thr, err);
        if (!rc && !isnan(thr)) {
            sum += thr;
            count++;
        }
        moore_graph_free(s);
        s = NULL;
    }
    *mean = count ? sum / count : NAN;
    free(link_failed);
    free(switch_failed);
    return rc;
}

/* ECMP (exact), KSP-8 and the optimum (lower and upper bounds) under uniform
 * traffic. */
static int routed(const moore_graph *g, const moore_page_options *o, page_routed *out,
                  moore_error *err)
{
    moore_traffic *t = NULL;
    moore_flow_options fo;
    moore_flow_result ecmp, ksp, opt;
    int yes;
    int rc = has_uniform_traffic(g, &yes, err);
    if (rc || !yes)
        return rc;
    flow_options(o, &fo);
    rc = moore_traffic_uniform(g, &t, err);
    if (!rc)
        rc = moore_routed_throughput_spec(g, "ecmp", t, &fo, 0, &ecmp, err);
    if (!rc && g->n <= PAGE_KSP_MAX)
        rc = moore_routed_throughput_spec(g, "ksp:k=8", t, &fo, 0, &ksp, err);
    else
        ksp.lower = ksp.upper = NAN;
    if (!rc)
        rc = moore_flow_approx(g, t, &fo, &opt, err);
    if (!rc)
        *out = (page_routed){ ecmp.throughput, ksp.lower, ksp.upper, opt.lower, opt.upper };
    /* ECMP and KSP-8 are feasible flows, so each is a lower bound on the
     * optimum too; and KSP-8 cannot beat the optimum's upper bound. The
     * approximation stopped after a few phases may not have reached them. */
    if (!rc && out->ecmp > out->optimal)
        out->optimal = out->ecmp;
    if (!rc && out->ksp > out->optimal)
        out->optimal = out->ksp;
    if (!rc && out->ksp_upper > out->optimal_upper)
        out->ksp_upper = out->optimal_upper;
    moore_traffic_free(t);
    return rc;
}

static void robust_clear(page_robust *r)
{
    for (int l = 0; l < PAGE_CONNECTED_COUNT; l++)
        r->connected[l] = NAN;
    for (int l = 0; l < PAGE_THROUGHPUT_COUNT; l++)
        r->throughput[l] = NAN;
}

typedef struct robust_ctx {
    moore_page_options one;     /* the page's options on one thread (rows side by side) */
    const moore_compare *c;
    page_robust *out;
} robust_ctx;

static int robust_row(void *ctx, int i, moore_error *err)
{
    const robust_ctx *x = ctx;
    moore_graph *g = NULL;
    robust_clear(&x->out[i]);
    int rc = moore_topology_load(x->c->rows[i].spec, &g, err);
    if (!rc)
        rc = connected_curve(g, &x->one, &x->out[i], err);
    for (int l = 0; !rc && l < PAGE_THROUGHPUT_COUNT; l++)
        rc = throughput_at(g, PAGE_THROUGHPUT_LEVELS[l], l, &x->one, &x->out[i].throughput[l],
                           err);
    moore_graph_free(g);
    return rc;
}

/* The rows side by side, each on one thread: a row's curves are small
 * computations whose own parallel regions would mostly wait. */
int page_resilience_measure(const moore_page_options *o, const moore_compare *c, page_robust *out,
                        moore_error *err)
{
    robust_ctx x = { *o, c, out };
    x.one.metric.threads = 1;
    if (o->metric.progress)
        o->metric.progress(o->metric.progress_ctx, "report: link failures of the rows", 0);
    return page_each_row(c->count, o->metric.threads, robust_row, &x, err);
}

int page_routed_measure(const moore_page_options *o, const moore_compare *c, page_routed *out,
                        moore_error *err)
{
    int rc = MOORE_OK;
    for (int i = 0; !rc && i < c->count; i++) {
        moore_graph *g = NULL;
        out[i] = (page_routed){ NAN, NAN, NAN, NAN, NAN };
        progress(o, "routed throughput", c->rows[i].spec, (double)i / c->count);
        rc = moore_topology_load(c->rows[i].spec, &g, err);
        if (!rc)
            rc = routed(g, o, &out[i], err);
        moore_graph_free(g);
    }
    return rc;
}
