/* figure.c — one figure of the report, three ways: the PLplot drawing, a
 * table of the same numbers under it, and a CSV file of them beside the page
 * (so that what a reader sees can be re-plotted and checked). All three are
 * made from the one struct, so they cannot disagree. */
#include "report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "moore/io.h"

void page_fig_init(fig *f, const char *id, moore_plot_kind kind, const char *title,
              const char *xlabel, const char *ylabel, int logx, int logy)
{
    memset(f, 0, sizeof *f);
    snprintf(f->id, sizeof f->id, "%s", id);
    f->plot = (moore_plot){ kind, title, xlabel, ylabel, logx, logy, NULL, 0, 0 };
    for (int s = 0; s < FIG_SERIES_MAX; s++)
        for (int k = 0; k < FIG_POINTS_MAX; k++)
            f->y[s][k] = f->lo[s][k] = f->hi[s][k] = NAN;
}

int page_fig_series(fig *f, const char *name)
{
    for (int s = 0; s < f->nseries; s++)
        if (strcmp(f->names[s], name) == 0)
            return s;
    if (f->nseries == FIG_SERIES_MAX)
        return -1;
    snprintf(f->names[f->nseries], sizeof f->names[0], "%s", name);
    return f->nseries++;
}

static void fmt(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, "%.6g", v);
}

/* The x value or category of point k as text. */
static void point_name(const fig *f, int64_t k, char *buf, size_t len)
{
    if (f->plot.kind != MOORE_PLOT_LINES)
        snprintf(buf, len, "%s", f->cats[k]);
    else
        fmt(buf, len, f->x[k]);
}

/* Series that have at least one finite value, in order. */
static int live_series(const fig *f, int *live)
{
    int n = 0;
    for (int s = 0; s < f->nseries; s++)
        for (int64_t k = 0; k < f->npoints; k++)
            if (!isnan(f->y[s][k])) {
                live[n++] = s;
                break;
            }
    return n;
}

/* The numbers under the figure: a row per point, a column per series. */
static void fig_table(const fig *f, const int *live, int n, FILE *out)
{
    const char *head[FIG_SERIES_MAX + 1];
    head[0] = f->plot.xlabel;
    for (int i = 0; i < n; i++)
        head[i + 1] = f->names[live[i]];
    fprintf(out, "<details><summary>numbers (also in %s.csv)</summary>\n", f->id);
    char id[48];
    snprintf(id, sizeof id, "data-%s", f->id);
    page_html_table_begin(out, id, head, n + 1);
    for (int64_t k = 0; k < f->npoints; k++) {
        char cells[FIG_SERIES_MAX + 1][96];
        const char *ptr[FIG_SERIES_MAX + 1];
        point_name(f, k, cells[0], sizeof cells[0]);
        for (int i = 0; i < n; i++) {
            char v[24], lo[24], hi[24];
            int s = live[i];
            fmt(v, sizeof v, f->y[s][k]);
            fmt(lo, sizeof lo, f->lo[s][k]);
            fmt(hi, sizeof hi, f->hi[s][k]);
            if (f->bounds && *v)
                snprintf(cells[i + 1], sizeof cells[0], "%s [%s, %s]", v, lo, hi);
            else
                snprintf(cells[i + 1], sizeof cells[0], "%s", v);
        }
        for (int i = 0; i <= n; i++)
            ptr[i] = cells[i];
        page_html_table_row(out, ptr, n + 1);
    }
    page_html_table_end(out);
    fputs("</details>\n", out);
}

/* <data_dir>/<id>.csv: series,x (or category),y[,lower,upper], finite rows only. */
static int fig_csv(const fig *f, const int *live, int n, const char *dir, moore_error *err)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.csv", dir, f->id);
    moore_atomic_file af;
    int rc = moore_atomic_open(path, &af, err);
    if (rc)
        return rc;
    fprintf(af.f, "series,%s,value%s\n", f->plot.kind != MOORE_PLOT_LINES ? "category" : "x",
            f->bounds ? ",lower,upper" : "");
    for (int i = 0; i < n; i++)
        for (int64_t k = 0; k < f->npoints; k++) {
            int s = live[i];
            char p[64], v[24], lo[24], hi[24];
            if (isnan(f->y[s][k]))
                continue;
            point_name(f, k, p, sizeof p);
            fmt(v, sizeof v, f->y[s][k]);
            fmt(lo, sizeof lo, f->lo[s][k]);
            fmt(hi, sizeof hi, f->hi[s][k]);
            fprintf(af.f, "%s,%s,%s", f->names[s], p, v);
            if (f->bounds)
                fprintf(af.f, ",%s,%s", lo, hi);
            fputc('\n', af.f);
        }
    return moore_atomic_commit(&af, err);
}

int page_fig_emit(fig *f, FILE *out, const char *data_dir, moore_error *err)
{
    int live[FIG_SERIES_MAX], n = live_series(f, live);
    if (n == 0) {
        fprintf(out, "<p id=\"%s\">", f->id);
        page_html_text(out, f->plot.title);
        fputs(": nothing to show for these families.</p>\n", out);
        return MOORE_OK;
    }
    moore_plot_series s[FIG_SERIES_MAX];
    for (int i = 0; i < n; i++) {
        int k = live[i];
        s[i] = (moore_plot_series){ f->names[k], f->npoints, f->x, f->y[k],
                                    f->bounds ? f->lo[k] : NULL, f->bounds ? f->hi[k] : NULL };
    }
    for (int64_t k = 0; k < f->npoints; k++)
        f->cat_ptr[k] = f->cats[k];
    f->plot.categories = f->cat_ptr;
    char *svg = NULL;
    int rc = moore_plot_svg(&f->plot, s, n, &svg, err);
    if (!rc) {
        page_html_figure(out, f->id, &f->plot, svg, f->caption);
        fig_table(f, live, n, out);
    }
    free(svg);
    if (!rc && data_dir)
        rc = fig_csv(f, live, n, data_dir, err);
    return rc;
}
