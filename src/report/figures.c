/* figures.c — every figure of the report, made from the measured rows: the
 * quantities against endpoint count over the sweep, then the main
 * comparison's throughput, spectra and distance histograms. A figure takes
 * its numbers by report key, so a metric a family lacks is simply no point. */
#include "report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *row_family(const moore_compare_row *r)
{
    const moore_report_item *it = moore_report_get(&r->report, "family");
    return it && it->type == MOORE_VALUE_STRING ? it->s : r->spec;
}

/* One line per family: key against the sweep's endpoint counts. */
static void fig_sweep(fig *f, const page_data *d, const moore_page_options *o,
                      const char *key, const char *alt)
{
    f->npoints = d->sweep_count;
    for (int i = 0; i < d->sweep_count; i++) {
        f->x[i] = (double)o->sweep[i];
        for (int r = 0; r < d->sweep[i].count; r++) {
            const moore_compare_row *row = &d->sweep[i].rows[r];
            double v = moore_report_number(&row->report, key);
            if (isnan(v) && alt)
                v = moore_report_number(&row->report, alt);
            int s = page_fig_series(f, row_family(row));
            if (s >= 0 && i < FIG_POINTS_MAX)
                f->y[s][i] = v;
        }
    }
}

/* Bars per family of the main comparison: one series per key (with bounds). */
static void fig_main_bars(fig *f, const moore_compare *c, const char *const *keys,
                          const char *const *lows, const char *const *highs,
                          const char *const *names, int nkeys)
{
    f->npoints = c->count < FIG_POINTS_MAX ? c->count : FIG_POINTS_MAX;
    for (int k = 0; k < nkeys; k++)
        page_fig_series(f, names[k]);
    for (int64_t r = 0; r < f->npoints; r++) {
        const moore_report *rep = &c->rows[r].report;
        snprintf(f->cats[r], sizeof f->cats[0], "%.31s", row_family(&c->rows[r]));
        for (int k = 0; k < nkeys; k++) {
            f->y[k][r] = moore_report_number(rep, keys[k]);
            f->lo[k][r] = lows ? moore_report_number(rep, lows[k]) : NAN;
            f->hi[k][r] = highs ? moore_report_number(rep, highs[k]) : NAN;
        }
    }
    f->bounds = lows != NULL;
}

/* The share of ordered switch pairs at each distance 1..D, per family. */
static void fig_histograms(fig *f, const moore_compare *c)
{
    for (int r = 0; r < c->count; r++) {
        const moore_report_item *h = moore_report_get(&c->rows[r].report, "distance_histogram");
        if (!h || h->type != MOORE_VALUE_INT_ARRAY || h->len < 2)
            continue;
        double pairs = 0;
        for (int64_t k = 1; k < h->len; k++)
            pairs += (double)h->ia[k];
        int s = page_fig_series(f, row_family(&c->rows[r]));
        for (int64_t k = 1; s >= 0 && k < h->len && k <= FIG_POINTS_MAX; k++) {
            f->y[s][k - 1] = (double)h->ia[k] / pairs;
            f->npoints = k > f->npoints ? k : f->npoints;
        }
    }
    for (int64_t k = 0; k < f->npoints; k++)
        snprintf(f->cats[k], sizeof f->cats[0], "%lld", (long long)k + 1);
}

typedef struct sweep_fig {
    const char *id, *title, *ylabel, *key, *alt, *caption;
    int logy;
} sweep_fig;

static const sweep_fig SWEEP_FIGS[] = {
    { "switches", "Switches against endpoints", "switches", "switches", NULL,
      "Switches of each family's configuration reaching the endpoint count.", 1 },
    { "cables", "Switch-to-switch cables against endpoints", "cables", "cables", NULL,
      "Cables between switches (trunked links counted per cable).", 1 },
    { "cost", "Cost per endpoint against endpoints", "cost per endpoint (USD)",
      "cost_per_endpoint", NULL,
      "Switch ports and cables priced by the layout model (docs/layout.md).", 1 },
    { "diameter", "Switch diameter against endpoints", "diameter (switch hops)", "diameter",
      NULL, "The largest switch-to-switch distance.", 0 },
    { "apl", "Server-to-server average path length against endpoints",
      "average path length (switch hops)", "avg_path_length_endpoints", "avg_path_length",
      "Switch hops between the switches of two servers, averaged over pairs of servers on "
      "different switches (switch-to-switch average where that is not measured).", 0 },
};

static int emit_sweep_figs(const moore_page_options *o, const page_data *d, FILE *out,
                           fig *f, moore_error *err)
{
    int rc = MOORE_OK;
    for (size_t i = 0; !rc && i < sizeof SWEEP_FIGS / sizeof SWEEP_FIGS[0]; i++) {
        const sweep_fig *s = &SWEEP_FIGS[i];
        page_fig_init(f, s->id, MOORE_PLOT_LINES, s->title, "endpoints (servers)", s->ylabel, 1,
                 s->logy);
        snprintf(f->caption, sizeof f->caption, "%s Radix %d.", s->caption, (int)o->radix);
        fig_sweep(f, d, o, s->key, s->alt);
        rc = page_fig_emit(f, out, o->data_dir, err);
    }
    return rc;
}

static int emit_main_figs(const moore_page_options *o, const page_data *d, FILE *out, fig *f,
                          moore_error *err)
{
    static const char *const tkeys[] = { PAGE_UNIFORM_LOWER, PAGE_HOSE_LOWER };
    static const char *const thi[] = { PAGE_UNIFORM_UPPER, PAGE_HOSE_UPPER };
    static const char *const tnames[] = { "uniform", "any traffic (hose)" };
    static const char *const skeys[] = { "lambda2", "ramanujan_bound" };
    static const char *const snames[] = { "lambda2", "Ramanujan bound" };
    page_fig_init(f, "throughput", MOORE_PLOT_BARS, "Throughput per server", "family",
             "throughput (fraction of line rate)", 0, 0);
    snprintf(f->caption, sizeof f->caption, "Bars: proven lower bounds; whiskers: lower to "
             "upper bound. %lld endpoints. Uniform: %s. Any traffic (hose): every matrix in "
             "which each server sends and receives at most its line rate, the lowest "
             "throughput among them; lower bound from two-phase routing's shortest-path split "
             "(the proof of 'moore compare --traffic hose'), upper bound from the uniform "
             "matrix and single-switch cuts.", (long long)o->endpoints,
             d->main.bandwidth > 0 ? "the bounds 'moore compare' proved for the row (the "
             "table's columns)" : "the (1+eps) approximation, eps 0.1, at most 8 phases");
    fig_main_bars(f, &d->main, tkeys, tkeys, thi, tnames, 2);
    int rc = page_fig_emit(f, out, o->data_dir, err);
    page_fig_init(f, "spectral", MOORE_PLOT_BARS, "Second adjacency eigenvalue", "family",
             "eigenvalue", 0, 0);
    snprintf(f->caption, sizeof f->caption, "A smaller lambda2 than the Ramanujan bound "
             "2 sqrt(d-1) means a better expander (the bound is for d-regular graphs; an "
             "irregular graph such as a Clos has none, and its bar uses its largest degree).");
    fig_main_bars(f, &d->main, skeys, NULL, NULL, snames, 2);
    if (!rc)
        rc = page_fig_emit(f, out, o->data_dir, err);
    page_fig_init(f, "distances", MOORE_PLOT_BARS, "Distance histogram", "distance (switch hops)",
             "share of switch pairs", 0, 0);
    snprintf(f->caption, sizeof f->caption, "Share of ordered switch pairs at each distance.");
    fig_histograms(f, &d->main);
    return rc ? rc : page_fig_emit(f, out, o->data_dir, err);
}

/* The sweep points' notes: which family is absent where, and why. */
static void sweep_notes(const page_data *d, FILE *out)
{
    int any = 0;
    for (int i = 0; i < d->sweep_count; i++)
        any += d->sweep[i].note_count;
    if (!any)
        return;
    fputs("<details id=\"absent\"><summary>families absent from some points of the sweep, and "
          "why</summary>\n<ul>\n", out);
    for (int i = 0; i < d->sweep_count; i++)
        for (int k = 0; k < d->sweep[i].note_count; k++) {
            fputs("<li>", out);
            page_html_text(out, d->sweep[i].notes[k]);
            fputs("</li>\n", out);
        }
    fputs("</ul>\n</details>\n", out);
}

/* One line per chosen family against the share of links failed. */
static void fig_failures(fig *f, const page_data *d, const double *levels, int nlevels,
                         int connected)
{
    f->npoints = nlevels;
    for (int l = 0; l < nlevels; l++)
        f->x[l] = levels[l];
    for (int r = 0; r < d->main.count; r++) {
        int s = page_fig_series(f, row_family(&d->main.rows[r]));
        const page_robust *rb = &d->robust[r];
        for (int l = 0; s >= 0 && l < nlevels; l++)
            f->y[s][l] = connected ? rb->connected[l] : rb->throughput[l];
    }
}

/* Per family at the sweep's first point: optimal, ECMP (exact), KSP-8 (bounds). */
static void fig_routing(fig *f, const page_data *d)
{
    static const char *const names[] = { "optimal (lower bound)", "ECMP", "KSP-8" };
    const moore_compare *c = &d->sweep[0];
    f->npoints = c->count < FIG_POINTS_MAX ? c->count : FIG_POINTS_MAX;
    for (int k = 0; k < 3; k++)
        page_fig_series(f, names[k]);
    for (int64_t r = 0; r < f->npoints; r++) {
        const page_routed *rt = &d->routed[r];
        snprintf(f->cats[r], sizeof f->cats[0], "%.31s", row_family(&c->rows[r]));
        f->y[0][r] = f->lo[0][r] = rt->optimal;
        f->hi[0][r] = rt->optimal_upper;
        f->y[1][r] = f->lo[1][r] = f->hi[1][r] = rt->ecmp;
        f->y[2][r] = f->lo[2][r] = rt->ksp;
        f->hi[2][r] = rt->ksp_upper;
    }
    f->bounds = 1;
}

static int emit_robust_figs(const moore_page_options *o, const page_data *d, FILE *out, fig *f,
                            moore_error *err)
{
    page_fig_init(f, "resilience_connected", MOORE_PLOT_LINES, "Connected after random link failures",
             "share of links failed", "share of trials connected", 0, 0);
    snprintf(f->caption, sizeof f->caption, "Each chosen topology at %lld endpoints: the share "
             "of %d random removal orders whose graph is still connected after that share of "
             "its links is removed (exact per order).", (long long)o->endpoints,
             PAGE_DISCONNECT_TRIALS);
    fig_failures(f, d, PAGE_CONNECTED_LEVELS, PAGE_CONNECTED_COUNT, 1);
    int rc = page_fig_emit(f, out, o->data_dir, err);
    page_fig_init(f, "resilience_throughput", MOORE_PLOT_LINES,
             "ECMP throughput after random link failures", "share of links failed",
             "throughput (fraction of line rate)", 0, 0);
    snprintf(f->caption, sizeof f->caption, "Uniform throughput per server under ECMP (exact; "
             "a proven lower bound on the optimum), mean over %d draws per level of exactly "
             "that share of links failed (connected survivors only).", PAGE_FAIL_TRIALS);
    fig_failures(f, d, PAGE_THROUGHPUT_LEVELS, PAGE_THROUGHPUT_COUNT, 0);
    if (!rc)
        rc = page_fig_emit(f, out, o->data_dir, err);
    page_fig_init(f, "routing", MOORE_PLOT_BARS, "Routed against optimal throughput", "family",
             "throughput (fraction of line rate)", 0, 0);
    snprintf(f->caption, sizeof f->caption, "Each family's configuration at %lld endpoints "
             "(the sweep's first point: KSP-8 takes minutes at a thousand switches). Optimal: "
             "any split of the flow, its bar the proven lower bound (at least ECMP's and "
             "KSP-8's, which are feasible flows) and its whisker up to the proven upper "
             "bound; KSP-8: the best split over the 8 shortest paths (proven bounds, eps %g, "
             "at most %d phases); ECMP: even split over all shortest paths (exact). KSP-8 is "
             "left out above %d switches.", (long long)o->sweep[0],
             PAGE_ROBUST_EPS, PAGE_ROBUST_PHASES, PAGE_KSP_MAX);
    fig_routing(f, d);
    return rc ? rc : page_fig_emit(f, out, o->data_dir, err);
}

int page_figures(const moore_page_options *o, const page_data *d, FILE *out, moore_error *err)
{
    fig *f = moore_malloc(1, sizeof *f, err);
    if (!f)
        return err->code;
    page_html_heading(out, "size", "Against size");
    int rc = emit_sweep_figs(o, d, out, f, err);
    sweep_notes(d, out);
    if (!rc) {
        page_html_heading(out, "chosen", "The chosen topologies");
        rc = emit_main_figs(o, d, out, f, err);
    }
    if (!rc) {
        page_html_heading(out, "robust", "Failures and routing");
        rc = emit_robust_figs(o, d, out, f, err);
    }
    if (!rc && o->job)
        rc = page_step_section(o, d, out, f, err);
    free(f);
    return rc;
}
