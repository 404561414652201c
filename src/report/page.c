/* page.c — `moore report` as a library call: validate the options, measure
 * (sweep.c), then write the page: the main table, the figures
 * (figures.c) and the claims (claims.c). The page is produced into the
 * caller's stream; the CLI writes it through an atomic file, so it is whole
 * or absent. */
#include "report_internal.h"

#include <math.h>
#include "moore/moore.h"
#include <string.h>

/* Up to 20,000 servers: past a Clos's reach (27,648 servers at radix 48) no
 * switch cap bounds the proven search, and one such point costs minutes;
 * larger points are asked for with --sweep. */
static const int64_t DEFAULT_SWEEP[] = { 1000, 2000, 5000, 10000, 20000 };

/* The default families: the ones a datacenter or HPC design is weighed
 * between (docs/report.md); a page over all 25 takes many minutes and draws
 * figures nobody can read. --families widens it. */
static const char DEFAULT_FAMILIES[] =
    "clos,fattree,slimfly,xpander,jellyfish,dragonfly,hyperx,polarfly,torus";

void moore_page_options_default(moore_page_options *o)
{
    memset(o, 0, sizeof *o);
    o->families = DEFAULT_FAMILIES;
    o->radix = 48;
    o->endpoints = 10000;
    o->bandwidth = 1.0;
    o->link_gbps = 400;
    o->sweep_count = (int)(sizeof DEFAULT_SWEEP / sizeof DEFAULT_SWEEP[0]);
    memcpy(o->sweep, DEFAULT_SWEEP, sizeof DEFAULT_SWEEP);
    moore_metric_options_default(&o->metric);
}

static int page_check(const moore_page_options *o, moore_error *err)
{
    if (o->families && !*o->families)
        return moore_error_set(err, MOORE_EINVAL, "report: the family list is empty");
    if (o->radix < 3 || o->endpoints < 1)
        return moore_error_set(err, MOORE_EINVAL, "report: radix %d or endpoints %lld out of "
                               "range (radix >= 3, endpoints >= 1)", (int)o->radix,
                               (long long)o->endpoints);
    if (o->sweep_count < 1 || o->sweep_count > MOORE_PAGE_SWEEP_MAX)
        return moore_error_set(err, MOORE_EINVAL, "report: the sweep needs 1 to %d endpoint "
                               "counts", MOORE_PAGE_SWEEP_MAX);
    for (int i = 0; i < o->sweep_count; i++)
        if (o->sweep[i] < 1 || (i && o->sweep[i] <= o->sweep[i - 1]))
            return moore_error_set(err, MOORE_EINVAL, "report: sweep value %lld must be >= 1 "
                                   "and larger than the one before", (long long)o->sweep[i]);
    moore_workload w;
    if (o->job && !(o->link_gbps > 0 && isfinite(o->link_gbps)))
        return moore_error_set(err, MOORE_EINVAL, "report: link rate %g must be a positive "
                               "finite number of Gb/s", o->link_gbps);
    return o->job ? moore_workload_parse(o->job, &w, err) : MOORE_OK;
}

/* n with thousands separators. */
static void page_group(long long n, char *buf, size_t len)
{
    char digits[32];
    unsigned long long u = n < 0 ? 0ULL - (unsigned long long)n : (unsigned long long)n;
    int k = snprintf(digits, sizeof digits, "%llu", u);
    size_t o = 0;
    if (n < 0 && o + 1 < len)
        buf[o++] = '-';
    for (int i = 0; i < k && o + 2 < len; i++) {
        buf[o++] = digits[i];
        if ((k - i - 1) % 3 == 0 && i + 1 < k)
            buf[o++] = ',';
    }
    buf[o] = '\0';
}

static void cell(char *buf, size_t len, const moore_report *r, const char *key)
{
    const moore_report_item *it = moore_report_get(r, key);
    double v = moore_report_number(r, key);
    if (it && it->type == MOORE_VALUE_STRING)
        snprintf(buf, len, "%s", it->s);
    else if (isnan(v))
        snprintf(buf, len, "-");
    else if (isinf(v)) /* no bound: e.g. no traffic crosses a link */
        snprintf(buf, len, "%s∞", v < 0 ? "−" : "");
    else if (it->type == MOORE_VALUE_INT || v == floor(v) || fabs(v) >= 1e3)
        page_group(llround(v), buf, len); /* counts, money, watts: 21,778,673 */
    else
        snprintf(buf, len, "%.3f", v);
}

/* 1 when some row of c has a value (null included) for key: a column whose
 * metric group the page did not run is left out, as compare leaves it out. */
static int column_measured(const moore_compare *c, const char *key)
{
    for (int r = 0; r < c->count; r++)
        if (moore_report_get(&c->rows[r].report, key))
            return 1;
    return 0;
}

/* The comparison table: compare's columns that were measured. */
static void main_table(const moore_compare *c, FILE *out)
{
    const moore_compare_column *cols = moore_compare_columns();
    const char *head[64];
    int keep[64], n = 0;
    for (int k = 0; cols[k].key && n < 64; k++)
        if (column_measured(c, cols[k].key)) {
            keep[n] = k;
            head[n++] = cols[k].header;
        }
    page_html_table_begin(out, "compare-table", head, n);
    for (int r = 0; r < c->count; r++) {
        char cells[64][96];
        const char *ptr[64];
        for (int k = 0; k < n; k++) {
            cell(cells[k], sizeof cells[k], &c->rows[r].report, cols[keep[k]].key);
            ptr[k] = cells[k];
        }
        page_html_table_row(out, ptr, n);
    }
    page_html_table_end(out);
    for (int i = 0; i < c->note_count; i++)
        page_html_paragraph(out, c->notes[i]);
}

static void intro(const moore_page_options *o, const page_data *d, FILE *out)
{
    char text[768], same[96] = "";
    for (int i = 0; i < o->sweep_count; i++)
        if (o->sweep[i] == o->endpoints)
            snprintf(same, sizeof same, ", so at %lld endpoints they show the table's "
                     "configurations", (long long)o->endpoints);
    snprintf(text, sizeof text, "Switches of radix %d, at least %lld servers%s. Each family's "
             "configuration in the table is the one 'moore compare' picks (built, and proven to "
             "reach the bandwidth). The figures against size run the same search at each "
             "endpoint count of the sweep%s. Made by moore %s.", (int)o->radix,
             (long long)o->endpoints, o->families == DEFAULT_FAMILIES ? ", the default families" : "",
             same, MOORE_VERSION);
    page_html_paragraph(out, text);
    if (o->rows) {
        snprintf(text, sizeof text, "The table's rows were read from %.200s, as 'moore compare "
                 "--json=lines' wrote them, not searched again.", o->rows);
        page_html_paragraph(out, text);
    }
    if (!o->db)
        return;
    snprintf(text, sizeof text, "Measurements read from the sweep database %s: %d metric "
             "groups of the chosen topologies read from it, %d measured because it does not "
             "hold them (throughput, resilience and routing are always measured here).",
             o->db, d->groups_read, d->groups_measured);
    page_html_paragraph(out, text);
}

/* The one-line answer at the top: the cheapest row of the table (all of
 * them proven to reach the bandwidth; fewest switches when nothing is
 * priced), against the Clos where there is one. */
static void recommend(const moore_page_options *o, const moore_compare *c, FILE *out)
{
    int best = -1, priced = 0;
    for (int r = 0; r < c->count; r++)
        priced |= isfinite(moore_report_number(&c->rows[r].report, "cost_total"));
    const char *key = priced ? "cost_total" : "switches";
    for (int r = 0; r < c->count; r++) {
        double v = moore_report_number(&c->rows[r].report, key);
        if (isfinite(v) && (best < 0 || v < moore_report_number(&c->rows[best].report, key)))
            best = r;
    }
    if (best < 0)
        return;
    const moore_report *b = &c->rows[best].report;
    const moore_report_item *fam = moore_report_get(b, "family");
    char sw[32], cost[32], vs[160] = "", bw[64], text[1024], n[32];
    page_group(llround(moore_report_number(b, "switches")), sw, sizeof sw);
    page_group(o->endpoints, n, sizeof n);
    page_group(llround(moore_report_number(b, "cost_total")), cost, sizeof cost);
    double pct[3];
    moore_error sub;
    if (!moore_compare_vs_baseline(c, best, pct, &sub) && isfinite(pct[priced ? 2 : 0]) &&
        strcmp(fam && fam->type == MOORE_VALUE_STRING ? fam->s : "", "clos") != 0)
        snprintf(vs, sizeof vs, ", %.0f%% %s than the Clos (%.0f%% %s switches)",
                 fabs(pct[priced ? 2 : 0]), pct[priced ? 2 : 0] <= 0 ? "less" : "more",
                 fabs(pct[0]), pct[0] <= 0 ? "fewer" : "more");
    if (c->bandwidth > 0)
        snprintf(bw, sizeof bw, "proven to reach bandwidth %g", c->bandwidth);
    else
        snprintf(bw, sizeof bw, "at any bandwidth");
    if (priced)
        snprintf(text, sizeof text, "Recommendation: %s (%s), the cheapest design %s for %s "
                 "servers on radix-%d switches: %s switches, $%s%s.",
                 fam && fam->type == MOORE_VALUE_STRING ? fam->s : c->rows[best].spec,
                 c->rows[best].spec, bw, n, (int)o->radix, sw, cost, vs);
    else
        snprintf(text, sizeof text, "Recommendation: %s (%s), the fewest switches %s for %s "
                 "servers on radix-%d switches: %s%s.",
                 fam && fam->type == MOORE_VALUE_STRING ? fam->s : c->rows[best].spec,
                 c->rows[best].spec, bw, n, (int)o->radix, sw, vs);
    fputs("<p id=\"recommendation\">", out);
    page_html_text(out, text);
    fputs("</p>\n", out);
}

int moore_page_write(const moore_page_options *o, FILE *out, moore_error *err)
{
    page_data d;
    int rc = page_check(o, err);
    if (rc)
        return rc;
    rc = page_measure(o, &d, err);
    if (!rc) {
        page_html_begin(out, "moore: which topology to build");
        recommend(o, &d.main, out);
        intro(o, &d, out);
        page_html_heading(out, "compare", "The comparison");
        main_table(&d.main, out);
        rc = page_figures(o, &d, out, err);
    }
    if (!rc)
        rc = page_claims(o, &d, out, err);
    if (!rc)
        page_html_end(out);
    page_data_clear(&d);
    return rc;
}
