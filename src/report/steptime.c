/* steptime.c — the report's training step (`moore report --job JOB
 * --link-rate GBPS`): each row of the main comparison timed for one step of
 * the job (moore_step_job, docs/step-time.md), drawn as a stacked bar per
 * family, a part per phase, beside the ideal non-blocking fabric, and listed
 * fastest first with the fabric's cost per step, as `moore compare --job`
 * lists them. A row the job does not fit (or that fails to time) is named
 * under the figure with the reason rather than failing the page: the other
 * rows still answer the question. */
#include "report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "moore/step.h"
#include "moore/family.h"

/* Three years of seconds: the amortisation of the cost per step, as in
 * `moore compare --job` (docs/step-time.md). */
#define PAGE_STEP_AMORTISE (3.0 * 365 * 86400)

static void progress(const moore_page_options *o, const char *spec, double f)
{
    char text[MOORE_SPEC_MAX + 64];
    snprintf(text, sizeof text, "report: step time of %s", spec);
    if (o->metric.progress)
        o->metric.progress(o->metric.progress_ctx, text, f);
}

void page_steps_clear(page_step *s, int count)
{
    for (int i = 0; s && i < count; i++)
        moore_step_result_clear(&s[i].r);
}

/* The step options of the page: its rate, routing, seed and threads, with the
 * approximation bounded (PAGE_STEP_PHASES) so that a large fabric still gets
 * proven bounds in bounded time. */
static void step_options(const moore_page_options *o, moore_step_options *so)
{
    moore_step_options_default(so);
    so->link_gbps = o->link_gbps;
    so->routing = o->step_routing;
    so->seed = o->metric.seed;
    so->threads = o->metric.threads;
    so->eps = PAGE_STEP_EPS;
    so->max_phases = PAGE_STEP_PHASES;
}

int page_step_measure(const moore_page_options *o, const moore_compare *c, page_step *out,
                      moore_error *err)
{
    moore_workload w;
    moore_step_options so;
    step_options(o, &so);
    int rc = moore_workload_parse(o->job, &w, err);
    for (int i = 0; !rc && i < c->count; i++) {
        moore_graph *g = NULL;
        moore_error sub;
        moore_error_clear(&sub);
        memset(&out[i], 0, sizeof out[i]);
        progress(o, c->rows[i].spec, (double)i / c->count);
        rc = moore_topology_load(c->rows[i].spec, &g, err);
        int bad = rc ? 0 : moore_step_job(g, &w, &so, &out[i].r, &sub);
        if (bad == MOORE_ENOMEM)
            rc = moore_error_set(err, bad, "%s", sub.msg);
        else if (bad)
            snprintf(out[i].why, sizeof out[i].why, "%s", sub.msg);
        out[i].ok = !rc && !bad;
        moore_graph_free(g);
    }
    return rc;
}

static const char *family_of(const moore_compare_row *r)
{
    const moore_report_item *it = moore_report_get(&r->report, "family");
    return it && it->type == MOORE_VALUE_STRING ? it->s : r->spec;
}

/* Point k of f is one bar: the ideal (from res, its ideal seconds) or a
 * row's step, a part per phase (the proven upper bound, its lower beside). */
static void step_bar(fig *f, int64_t k, const char *name, const moore_step_result *res,
                     int ideal)
{
    snprintf(f->cats[k], sizeof f->cats[0], "%.31s", name);
    for (int32_t p = 0; p < res->count; p++) {
        const moore_step_phase *ph = &res->phase[p];
        int s = page_fig_series(f, ph->name);
        if (s < 0)
            continue;
        f->y[s][k] = ideal ? ph->ideal_seconds : ph->seconds_upper;
        f->lo[s][k] = ideal ? ph->ideal_seconds : ph->seconds_lower;
        f->hi[s][k] = f->y[s][k];
    }
}

/* The figure: the ideal bar first, then every timed row in the table's order. */
static void fig_steps(fig *f, const moore_compare *c, const page_step *st)
{
    int first = -1;
    for (int r = 0; r < c->count && first < 0; r++)
        first = st[r].ok ? r : -1;
    if (first < 0)
        return;
    step_bar(f, f->npoints++, "ideal", &st[first].r, 1);
    for (int r = 0; r < c->count && f->npoints < FIG_POINTS_MAX; r++)
        if (st[r].ok)
            step_bar(f, f->npoints++, family_of(&c->rows[r]), &st[r].r, 0);
    f->bounds = 1;
}

/* order[0..n) sorted by step upper bound, ties in table order (insertion
 * sort: a page has a few rows). */
static void fastest_first(const page_step *st, int *order, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && st[order[j]].r.step_upper < st[order[j - 1]].r.step_upper;
             j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

static void num(char *buf, size_t len, double v, const char *format)
{
    if (isfinite(v))
        snprintf(buf, len, format, v);
    else
        snprintf(buf, len, "-");
}

/* The rows fastest first: the step's proven bounds, the ideal, the slowdown
 * and the cost of one step (cost_total over three years of steps). */
static void step_table(const moore_compare *c, const page_step *st, FILE *out)
{
    static const char *const head[] = { "family", "topology", "step s lower", "step s upper",
                                        "ideal s", "slowdown", "$/step (3 y)" };
    int order[FIG_POINTS_MAX], n = 0;
    for (int r = 0; r < c->count && n < FIG_POINTS_MAX; r++)
        if (st[r].ok)
            order[n++] = r;
    fastest_first(st, order, n);
    page_html_table_begin(out, "step-table", head, 7);
    for (int i = 0; i < n; i++) {
        const page_step *s = &st[order[i]];
        const moore_report *rep = &c->rows[order[i]].report;
        char cell[5][32];
        num(cell[0], sizeof cell[0], s->r.step_lower, "%.6g");
        num(cell[1], sizeof cell[1], s->r.step_upper, "%.6g");
        num(cell[2], sizeof cell[2], s->r.ideal, "%.6g");
        num(cell[3], sizeof cell[3], s->r.slowdown, "%.4g");
        num(cell[4], sizeof cell[4],
            moore_report_number(rep, "cost_total") * s->r.step_upper / PAGE_STEP_AMORTISE,
            "%.4f");
        const char *row[] = { family_of(&c->rows[order[i]]), c->rows[order[i]].spec, cell[0],
                              cell[1], cell[2], cell[3], cell[4] };
        page_html_table_row(out, row, 7);
    }
    page_html_table_end(out);
}

/* The rows without a step, each with its reason. */
static void step_notes(const moore_compare *c, const page_step *st, FILE *out)
{
    for (int r = 0; r < c->count; r++)
        if (!st[r].ok) {
            char text[sizeof st[r].why + MOORE_SPEC_MAX + 32];
            snprintf(text, sizeof text, "%s (%s): no step time: %s", family_of(&c->rows[r]),
                     c->rows[r].spec, st[r].why);
            page_html_paragraph(out, text);
        }
}

int page_step_section(const moore_page_options *o, const page_data *d, FILE *out, fig *f,
                      moore_error *err)
{
    char intro[768];
    page_html_heading(out, "training-step", "Training step");
    snprintf(intro, sizeof intro, "One training step of %s with every link at %g Gb/s, "
             "routing %s (docs/step-time.md): each phase's time from the proven throughput of "
             "its traffic on the family's configuration in the table, against the ideal: a "
             "non-blocking fabric of the same servers, where a phase takes its busiest "
             "server's bytes over its own link. Fastest first; $/step spreads the fabric's "
             "cost over three years of back-to-back steps.", o->job, o->link_gbps,
             o->step_routing ? o->step_routing : "optimal");
    page_html_paragraph(out, intro);
    page_fig_init(f, "step", MOORE_PLOT_STACKED, "Step time by phase", "family",
                  "seconds per step", 0, 0);
    snprintf(f->caption, sizeof f->caption, "Each bar is one step, a part per phase in step "
             "order; a part is the phase's proven upper bound in seconds, and the whisker runs "
             "from the step's proven lower bound to its upper bound (the (1+eps) "
             "approximation, eps %g, at most %d phases per throughput; one value under a "
             "fixed routing such as ECMP). 'ideal': the same job on a non-blocking fabric.",
             PAGE_STEP_EPS, PAGE_STEP_PHASES);
    fig_steps(f, &d->main, d->step);
    int rc = page_fig_emit(f, out, o->data_dir, err);
    if (!rc) {
        step_table(&d->main, d->step, out);
        step_notes(&d->main, d->step, out);
    }
    return rc;
}
