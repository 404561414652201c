/* plot.c — line, bar and stacked bar figures drawn by PLplot's SVG driver into memory.
 *
 * PLplot does the drawing (axes, ticks, log scales, text, legend); this file
 * only turns moore's series into PLplot calls: it finds the data range,
 * opens a fresh PLplot stream writing into an open_memstream buffer, draws,
 * and ends the stream. Inputs are checked first so that PLplot never reaches
 * one of its own fatal errors. Colours are the Okabe–Ito palette, which stays
 * distinguishable for colour-blind readers and in greyscale print. */
#include "moore/plot.h"

#include <math.h>
#include <plplot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Okabe–Ito colours (grey in place of their black, which draws the axes);
 * series beyond the eighth repeat them with another dash pattern. */
static const int PALETTE[][3] = { { 0, 114, 178 },  { 230, 159, 0 },  { 0, 158, 115 },
                                  { 213, 94, 0 },   { 86, 180, 233 }, { 204, 121, 167 },
                                  { 240, 228, 66 }, { 120, 120, 120 } };
#define PALETTE_N ((int)(sizeof PALETTE / sizeof PALETTE[0]))
/* PLplot marker codes: circle, square, triangle, cross, plus, star, ... */
static const PLINT MARKERS[] = { 4, 6, 7, 5, 2, 3, 8, 11 };
#define MARKERS_N ((int)(sizeof MARKERS / sizeof MARKERS[0]))

typedef struct plot_range {
    double x0, x1, y0, y1;
} plot_range;

static double axis_value(double v, int log) { return log ? log10(v) : v; }

static void widen(double *lo, double *hi, double v)
{
    if (isnan(v))
        return;
    *lo = v < *lo ? v : *lo;
    *hi = v > *hi ? v : *hi;
}

/* Refuses a figure PLplot cannot draw: no series, empty series, log of ≤ 0. */
static int plot_check(const moore_plot *p, const moore_plot_series *s, int ns, moore_error *err)
{
    if (ns <= 0)
        return moore_error_set(err, MOORE_EINVAL, "plot '%s': no series", p->title);
    if (p->kind == MOORE_PLOT_STACKED && p->logy)
        return moore_error_set(err, MOORE_EINVAL, "plot '%s': stacked bars need a linear y "
                               "axis", p->title);
    for (int i = 0; i < ns; i++) {
        if (s[i].n <= 0)
            return moore_error_set(err, MOORE_EINVAL, "plot '%s': series '%s' is empty",
                                   p->title, s[i].name);
        for (int64_t k = 0; k < s[i].n; k++) {
            int bad_y = p->logy && (s[i].y[k] <= 0 || (s[i].ylo && s[i].ylo[k] <= 0));
            int bad_x = p->kind == MOORE_PLOT_LINES && p->logx && s[i].x[k] <= 0;
            if (bad_x || bad_y)
                return moore_error_set(err, MOORE_EINVAL, "plot '%s': series '%s' has a value "
                                       "<= 0 on a log axis", p->title, s[i].name);
            if (p->kind == MOORE_PLOT_STACKED && (s[i].y[k] < 0 || s[i].n != s[0].n))
                return moore_error_set(err, MOORE_EINVAL, "plot '%s': series '%s' has a "
                                       "negative part or another length than the first",
                                       p->title, s[i].name);
        }
    }
    return MOORE_OK;
}

/* Widens r's y range to each stacked bar's total and its whisker. */
static void stacked_range(const moore_plot_series *s, int ns, plot_range *r)
{
    for (int64_t k = 0; k < s[0].n; k++) {
        double sum = 0, lo = 0, hi = 0;
        for (int i = 0; i < ns; i++) {
            sum += isnan(s[i].y[k]) ? 0 : s[i].y[k];
            lo += s[i].ylo && !isnan(s[i].ylo[k]) ? s[i].ylo[k] : 0;
            hi += s[i].yhi && !isnan(s[i].yhi[k]) ? s[i].yhi[k] : 0;
        }
        widen(&r->y0, &r->y1, sum);
        widen(&r->y0, &r->y1, hi);
        widen(&r->y0, &r->y1, lo);
    }
}

/* The data range in axis units, padded by 5% (bars start at 0 on linear y). */
static plot_range plot_range_of(const moore_plot *p, const moore_plot_series *s, int ns)
{
    plot_range r = { INFINITY, -INFINITY, INFINITY, -INFINITY };
    int bars = p->kind != MOORE_PLOT_LINES;
    if (p->kind == MOORE_PLOT_STACKED)
        stacked_range(s, ns, &r);
    for (int i = 0; i < ns && p->kind != MOORE_PLOT_STACKED; i++)
        for (int64_t k = 0; k < s[i].n; k++) {
            if (!bars)
                widen(&r.x0, &r.x1, axis_value(s[i].x[k], p->logx));
            widen(&r.y0, &r.y1, axis_value(s[i].y[k], p->logy));
            if (s[i].ylo)
                widen(&r.y0, &r.y1, axis_value(s[i].ylo[k], p->logy));
            if (s[i].yhi)
                widen(&r.y0, &r.y1, axis_value(s[i].yhi[k], p->logy));
        }
    if (bars) {
        r.x0 = -0.5;
        r.x1 = (double)s[0].n - 0.5;
        if (!p->logy && r.y0 > 0)
            r.y0 = 0;
    }
    if (!isfinite(r.y0)) /* every value NaN */
        r.y0 = 0, r.y1 = 1;
    double dx = r.x1 - r.x0, dy = r.y1 - r.y0;
    dx = dx > 0 ? dx : fabs(r.x0) + 1;
    dy = dy > 0 ? dy : fabs(r.y0) + 1;
    r.x0 -= bars ? 0 : 0.05 * dx, r.x1 += bars ? 0 : 0.05 * dx;
    r.y0 -= (bars && !p->logy && r.y0 == 0) ? 0 : 0.05 * dy, r.y1 += 0.08 * dy;
    return r;
}

static void plot_colour(int series) { plcol0(2 + series % PALETTE_N); }
static int plot_dashes(int series) { return 1 + (series / PALETTE_N) % 8; }

static void plot_open(const moore_plot *p, FILE *out)
{
    PLINT strm;
    plmkstrm(&strm);
    plsdev("svg");
    plsfile(out);
    plspage(90, 90, p->width > 0 ? p->width : 800, p->height > 0 ? p->height : 480, 0, 0);
    plscolbg(255, 255, 255);
    plscol0(1, 0, 0, 0);
    for (int i = 0; i < PALETTE_N; i++)
        plscol0(2 + i, PALETTE[i][0], PALETTE[i][1], PALETTE[i][2]);
    plinit();
    pladv(0);
    plschr(0, 0.9);
}

/* Share of the page width one character of the figure's text takes (800 px
 * wide, PLplot's default character height scaled by 0.9), for fitting the
 * legend and the bar labels. */
#define PLOT_CHAR_W 0.0115

/* The right edge of the plot: the legend outside it gets the room its
 * longest name needs (a clipped legend reads wrong: "Ramanujan bound 2 sqr"). */
static double plot_right(const moore_plot_series *s, int ns)
{
    size_t longest = 0;
    for (int i = 0; i < ns; i++)
        if (s[i].name && strlen(s[i].name) > longest)
            longest = strlen(s[i].name);
    double right = 0.90 - PLOT_CHAR_W * (double)longest;
    right = right > 0.78 ? 0.78 : right < 0.45 ? 0.45 : right;
    return ns > 16 && right > 0.58 ? 0.58 : right;
}

/* v as a tick label: whole numbers with thousands separators, else %g. */
static void tick_text(double v, char *buf, size_t len)
{
    if (v < 1 || v != floor(v) || v >= 1e15) {
        snprintf(buf, len, "%g", v);
        return;
    }
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%.0f", v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < len; i++) {
        buf[o++] = digits[i];
        if ((n - i - 1) % 3 == 0 && i + 1 < n)
            buf[o++] = ',';
    }
    buf[o] = '\0';
}

static const int LOG_STEPS[3][10] = { { 1, 0 }, { 1, 2, 5, 0 },
                                      { 1, 2, 3, 4, 5, 6, 7, 8, 9, 0 } };

/* Labels of a log axis at m·10^k inside [lo, hi] (axis units: log10) with m
 * from set; draw 0 only counts them. */
static int log_marks(int set, int draw, int yaxis, double lo, double hi, double other0,
                     double other1)
{
    int count = 0;
    for (int k = (int)floor(lo); k <= (int)ceil(hi); k++)
        for (int j = 0; LOG_STEPS[set][j]; j++) {
            double a = log10(LOG_STEPS[set][j]) + k;
            if (a < lo || a > hi)
                continue;
            count++;
            if (!draw)
                continue;
            char text[32];
            tick_text(pow(10, a), text, sizeof text);
            double at = (a - lo) / (hi - lo);
            plwidth(0.3);
            if (yaxis) {
                pljoin(other0, a, other1, a);
                plmtex("lv", 0.6, at, 1.0, text);
            } else {
                pljoin(a, other0, a, other1);
                plmtex("b", 1.4, at, 0.5, text);
            }
        }
    return count;
}

/* Labels of a log axis, each with a light grid line: the decades, or with
 * fewer than three of them 1-2-5, or 1..9, so that a range within one
 * decade (cost per server: 1,000 to 4,000) still has readable ticks. */
static void log_labels(int yaxis, double lo, double hi, double other0, double other1)
{
    int set = 0;
    while (set < 2 && log_marks(set, 0, yaxis, lo, hi, other0, other1) < 3)
        set++;
    log_marks(set, 1, yaxis, lo, hi, other0, other1);
}

/* Axes, ticks, labels and title; bar categories are written under the axis,
 * on two alternating lines when they are wider than their slots. Log axes
 * get their own labels (log_labels). */
static void plot_axes(const moore_plot *p, const plot_range *r, int64_t ncat,
                      const moore_plot_series *s, int ns)
{
    char xopt[16], yopt[16];
    int bars = p->kind != MOORE_PLOT_LINES, logx = p->logx && !bars;
    snprintf(xopt, sizeof xopt, "%s%s", bars ? "bc" : logx ? "bcst" : "bcgnst",
             logx ? "l" : "");
    snprintf(yopt, sizeof yopt, "%s%s", p->logy ? "bcstv" : "bcgnstv", p->logy ? "l" : "");
    double right = plot_right(s, ns);
    size_t widest = 0;
    for (int64_t i = 0; bars && i < ncat; i++)
        if (strlen(p->categories[i]) > widest)
            widest = strlen(p->categories[i]);
    int stagger = bars && ncat > 0 &&
                  PLOT_CHAR_W * (double)widest > 0.9 * (right - 0.10) / (double)ncat;
    plvpor(0.10, right, bars ? 0.20 : 0.13, 0.90);
    plwind(r->x0, r->x1, r->y0, r->y1);
    plcol0(1);
    plwidth(0.5);
    plbox(xopt, 0, 0, yopt, 0, 0);
    if (p->logy)
        log_labels(1, r->y0, r->y1, r->x0, r->x1);
    if (logx)
        log_labels(0, r->x0, r->x1, r->y0, r->y1);
    plwidth(0.5);
    for (int64_t i = 0; bars && i < ncat; i++)
        plmtex("b", stagger && i % 2 ? 2.5 : 1.2, ((double)i + 0.5) / (double)ncat, 0.5,
               p->categories[i]);
    pllab("", p->ylabel, p->title);
    plmtex("b", bars ? (stagger ? 5.0 : 4.0) : 3.0, 0.5, 0.5, p->xlabel);
}

/* One series of a line figure: lines between finite points, a marker each. */
static void plot_line_series(const moore_plot *p, const moore_plot_series *s, int idx)
{
    plot_colour(idx);
    plwidth(2);
    pllsty(plot_dashes(idx));
    for (int64_t k = 0; k < s->n; k++) {
        PLFLT x = axis_value(s->x[k], p->logx), y = axis_value(s->y[k], p->logy);
        if (isnan(y))
            continue;
        if (k + 1 < s->n && !isnan(s->y[k + 1])) {
            PLFLT xs[2] = { x, axis_value(s->x[k + 1], p->logx) };
            PLFLT ys[2] = { y, axis_value(s->y[k + 1], p->logy) };
            plline(2, xs, ys);
        }
        pllsty(1);
        plpoin(1, &x, &y, MARKERS[idx % MARKERS_N]);
        pllsty(plot_dashes(idx));
        if (s->ylo && s->yhi) {
            PLFLT lo = axis_value(s->ylo[k], p->logy), hi = axis_value(s->yhi[k], p->logy);
            plerry(1, &x, &lo, &hi);
        }
    }
}

/* Series idx of a grouped bar figure: bar k sits in category k's slot. */
static void plot_bar_series(const moore_plot *p, const moore_plot_series *s, int idx, int ns,
                            double base)
{
    double w = 0.8 / ns;
    plot_colour(idx);
    for (int64_t k = 0; k < s->n; k++) {
        PLFLT y = axis_value(s->y[k], p->logy);
        if (isnan(y))
            continue;
        PLFLT x0 = (double)k - 0.4 + w * idx, x1 = x0 + 0.92 * w;
        PLFLT xs[4] = { x0, x0, x1, x1 }, ys[4] = { base, y, y, base };
        plot_colour(idx);
        plfill(4, xs, ys);
        if (s->ylo && s->yhi) {
            PLFLT xm = 0.5 * (x0 + x1);
            PLFLT lo = axis_value(s->ylo[k], p->logy), hi = axis_value(s->yhi[k], p->logy);
            plcol0(1);
            plerry(1, &xm, &lo, &hi);
        }
    }
}

/* A stacked bar figure: category k's bar is the series' parts in order, and
 * with whiskers one line over it from Σ ylo to Σ yhi (the total's bounds). */
static void plot_stacked(const moore_plot_series *s, int ns)
{
    for (int64_t k = 0; k < s[0].n; k++) {
        double base = 0, lo = 0, hi = 0;
        int whisker = 0;
        PLFLT x0 = (double)k - 0.3, x1 = (double)k + 0.3;
        for (int i = 0; i < ns; i++) {
            double y = s[i].y[k];
            whisker |= s[i].ylo && s[i].yhi && !isnan(s[i].ylo[k]);
            lo += s[i].ylo && !isnan(s[i].ylo[k]) ? s[i].ylo[k] : 0;
            hi += s[i].yhi && !isnan(s[i].yhi[k]) ? s[i].yhi[k] : 0;
            if (isnan(y) || y <= 0)
                continue;
            PLFLT xs[4] = { x0, x0, x1, x1 }, ys[4] = { base, base + y, base + y, base };
            plot_colour(i);
            plfill(4, xs, ys);
            base += y;
        }
        if (whisker && hi > lo) {
            PLFLT xm = (double)k, l = lo, h = hi;
            plcol0(1);
            plwidth(1.5);
            plerry(1, &xm, &l, &h);
        }
    }
}

static void plot_legend(const moore_plot *p, const moore_plot_series *s, int ns)
{
    PLINT opt[32], colours[32], styles[32], patterns[32], black[32];
    PLFLT widths[32], scales[32], box_w[32];
    const char *text[32], *symbols[32];
    ns = ns > 32 ? 32 : ns;
    for (int i = 0; i < ns; i++) {
        int bars = p->kind != MOORE_PLOT_LINES;
        /* stacked: top entry for the top part, so the legend reads like a bar */
        int k = p->kind == MOORE_PLOT_STACKED ? ns - 1 - i : i;
        opt[i] = bars ? PL_LEGEND_COLOR_BOX : PL_LEGEND_LINE;
        colours[i] = 2 + k % PALETTE_N;
        black[i] = 1;
        styles[i] = plot_dashes(k);
        patterns[i] = 0;
        widths[i] = 2;
        scales[i] = 1;
        box_w[i] = 1;
        symbols[i] = "";
        text[i] = s[k].name;
    }
    PLFLT lw, lh;
    int cols = ns > 16 ? 2 : 1, rows = (ns + cols - 1) / cols;
    pllegend(&lw, &lh, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
             PL_POSITION_RIGHT | PL_POSITION_OUTSIDE | PL_POSITION_VIEWPORT, 0.02, 0.0, 0.06, 0,
             1, 1, rows, cols, ns, opt, 0.8, 0.75, 1.8, 0.0, black, text, colours, patterns,
             scales, box_w, colours, styles, widths, colours, scales, black, symbols);
}

/* Draws the figure into out and ends the PLplot stream, which closes out
 * (PLplot's driver owns the file it was given) and so finalises a memstream
 * buffer. */
static void plot_draw(const moore_plot *p, const moore_plot_series *s, int ns, FILE *out)
{
    plot_range r = plot_range_of(p, s, ns);
    plot_open(p, out);
    plot_axes(p, &r, s[0].n, s, ns);
    if (p->kind == MOORE_PLOT_STACKED)
        plot_stacked(s, ns);
    for (int i = 0; i < ns && p->kind != MOORE_PLOT_STACKED; i++)
        if (p->kind == MOORE_PLOT_BARS)
            plot_bar_series(p, &s[i], i, ns, r.y0);
        else
            plot_line_series(p, &s[i], i);
    plot_legend(p, s, ns);
    plend1();
}

int moore_plot_svg(const moore_plot *p, const moore_plot_series *s, int ns, char **svg,
                   moore_error *err)
{
    *svg = NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = NULL;
    int rc = plot_check(p, s, ns, err);
    if (!rc && !(out = open_memstream(&buf, &len)))
        rc = moore_error_set(err, MOORE_ENOMEM, "plot '%s': no memory for the figure", p->title);
    if (!rc) {
        plot_draw(p, s, ns, out);
        if (!buf || len == 0)
            rc = moore_error_set(err, MOORE_ENOMEM, "plot '%s': the figure could not be written",
                                 p->title);
    }
    if (!rc) {
        *svg = buf;
        buf = NULL;
    }
    free(buf);
    return rc;
}
