/* claims.c — the often-quoted claims about the families, checked on the user's own numbers:
 * Slim Fly's 25–40% fewer switches and cables than a fat-tree, its ~89%
 * Moore efficiency, Xpander within 1–5% of Jellyfish's throughput, and the
 * 2-lift keeping the spectral gap. Each row gives the claim, the measured
 * value, what it was measured on and a verdict; a claim whose families are
 * not in the comparison says so instead of guessing. */
#include "report_internal.h"

#include <math.h>
#include <string.h>
#include "moore/lift.h"

typedef struct claim_row {
    char claim[96], measured[96], basis[400], verdict[64];
} claim_row;

static double num(const moore_compare_row *r, const char *key)
{
    return r ? moore_report_number(&r->report, key) : NAN;
}

/* The quoted claim is against a fat-tree: it is checked against the
 * fat-tree row, and against the folded Clos (compare's baseline) as a second
 * row that says "than the Clos". */
static void fewer(claim_row *row, const moore_compare *c, const char *key, const char *base)
{
    const moore_compare_row *sf = page_row(c, "slimfly"), *ft = page_row(c, base);
    int clos = strcmp(base, "clos") == 0;
    snprintf(row->claim, sizeof row->claim, "Slim Fly: 25-40%% fewer %s than %s", key,
             clos ? "the Clos" : "a fat-tree");
    if (!sf || !ft) {
        snprintf(row->verdict, sizeof row->verdict, "not measured");
        snprintf(row->basis, sizeof row->basis, "needs slimfly and %s rows", base);
        return;
    }
    double saving = 1 - num(sf, key) / num(ft, key);
    snprintf(row->measured, sizeof row->measured, "%.1f%% %s", 100 * fabs(saving),
             saving >= 0 ? "fewer" : "more");
    snprintf(row->basis, sizeof row->basis, "%s vs %s", sf->spec, ft->spec);
    snprintf(row->verdict, sizeof row->verdict, "%s",
             saving >= 0.25 ? (saving <= 0.40 ? "holds" : "holds (more than claimed)")
                            : "does not hold");
}

static void moore_eff(claim_row *row, const moore_compare *c)
{
    const moore_compare_row *sf = page_row(c, "slimfly");
    double e = num(sf, "moore_efficiency");
    snprintf(row->claim, sizeof row->claim, "Slim Fly: about 89%% of the Moore bound");
    snprintf(row->basis, sizeof row->basis, "%s", sf ? sf->spec : "needs a slimfly row");
    if (isnan(e)) {
        snprintf(row->verdict, sizeof row->verdict, "not measured");
        return;
    }
    snprintf(row->measured, sizeof row->measured, "%.1f%%", 100 * e);
    snprintf(row->verdict, sizeof row->verdict, "%s", fabs(e - 8.0 / 9) <= 0.06 ? "holds"
                                                                            : "does not hold");
}

static void xpander_vs_jellyfish(claim_row *row, const moore_compare *c)
{
    const moore_compare_row *xp = page_row(c, "xpander"), *jf = page_row(c, "jellyfish");
    double a = num(xp, PAGE_UNIFORM_LOWER), b = num(jf, PAGE_UNIFORM_LOWER);
    snprintf(row->claim, sizeof row->claim, "Xpander within 1-5%% of Jellyfish's throughput");
    snprintf(row->basis, sizeof row->basis, "uniform traffic, lower bounds: %s vs %s",
             xp ? xp->spec : "-", jf ? jf->spec : "-");
    if (isnan(a) || isnan(b)) {
        snprintf(row->verdict, sizeof row->verdict, "not measured");
        return;
    }
    snprintf(row->measured, sizeof row->measured, "%+.1f%%", 100 * (a / b - 1));
    snprintf(row->verdict, sizeof row->verdict, "%s", fabs(a / b - 1) <= 0.05 ? "holds"
                                                                         : "does not hold");
}

/* Lifts the comparison's Xpander once and reports whether λ₂ was kept. */
static int lift_keeps_gap(claim_row *row, const moore_compare *c, const moore_page_options *o,
                          moore_error *err)
{
    const moore_compare_row *xp = page_row(c, "xpander");
    snprintf(row->claim, sizeof row->claim, "A 2-lift keeps the spectral gap");
    if (!xp) {
        snprintf(row->verdict, sizeof row->verdict, "not measured");
        snprintf(row->basis, sizeof row->basis, "needs an xpander row");
        return MOORE_OK;
    }
    moore_graph *g = NULL, *h = NULL;
    moore_lift_options lo;
    moore_lift_result res;
    moore_lift_options_default(&lo);
    lo.seed = o->metric.seed;
    int rc = moore_spec_build(xp->spec, &g, err);
    if (!rc)
        rc = moore_lift(g, &lo, &h, &res, err);
    if (!rc) {
        snprintf(row->measured, sizeof row->measured, "lambda2 %.3f -> %.3f",
                 res.lambda2_before, res.lambda2_after);
        snprintf(row->basis, sizeof row->basis, "one searched 2-lift of %s (%d -> %d switches)",
                 xp->spec, (int)g->n, (int)h->n);
        snprintf(row->verdict, sizeof row->verdict, "%s", res.lambda2_kept ? "holds"
                                                                           : "does not hold");
    }
    moore_graph_free(g);
    moore_graph_free(h);
    return rc;
}

int page_claims(const moore_page_options *o, const page_data *d, FILE *out, moore_error *err)
{
    static const char *const head[] = { "claim (often quoted)", "measured", "on", "verdict" };
    claim_row rows[7];
    memset(rows, 0, sizeof rows);
    fewer(&rows[0], &d->main, "switches", "fattree");
    fewer(&rows[1], &d->main, "cables", "fattree");
    fewer(&rows[2], &d->main, "switches", "clos");
    fewer(&rows[3], &d->main, "cables", "clos");
    moore_eff(&rows[4], &d->main);
    xpander_vs_jellyfish(&rows[5], &d->main);
    int rc = lift_keeps_gap(&rows[6], &d->main, o, err);
    if (rc)
        return rc;
    page_html_heading(out, "claims", "The often-quoted claims, checked");
    page_html_table_begin(out, "claims-table", head, 4);
    for (int i = 0; i < 7; i++) {
        const char *cells[] = { rows[i].claim, rows[i].measured, rows[i].basis, rows[i].verdict };
        page_html_table_row(out, cells, 4);
    }
    page_html_table_end(out);
    return MOORE_OK;
}
