/* plot.h — figures as SVG, drawn by PLplot, for the report.
 *
 * Three kinds cover what the report shows: lines (one series per family against
 * a numeric x, optionally on log axes, with markers), grouped bars (one bar
 * per category and series, with optional lower/upper whiskers for bounds) and
 * stacked bars (one bar per category, the series stacked in order: a total
 * made of parts, such as a training step's time by phase; with whiskers, one
 * per bar from the sum of the series' lower values to the sum of their upper
 * values, the bounds of the total).
 * Every figure has a title, axis labels and a legend. PLplot keeps its own
 * global state, so figures are drawn one at a time (not from several threads
 * at once); the result is an SVG document in memory. */
#ifndef MOORE_PLOT_H
#define MOORE_PLOT_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum moore_plot_kind { MOORE_PLOT_LINES, MOORE_PLOT_BARS, MOORE_PLOT_STACKED } moore_plot_kind;

typedef struct moore_plot_series {
    const char *name;       /* legend entry */
    int64_t n;
    const double *x;        /* LINES: x values; BARS, STACKED: ignored (category i is bar i) */
    const double *y;        /* NaN: no point */
    const double *ylo, *yhi; /* optional whiskers (bounds), or NULL */
} moore_plot_series;

typedef struct moore_plot {
    moore_plot_kind kind;
    const char *title, *xlabel, *ylabel;   /* labels say the units */
    int logx, logy;
    const char *const *categories;         /* BARS, STACKED: n category names */
    int width, height;                     /* pixels; 0: 800 x 480 */
} moore_plot;

/* Draws the figure; *svg (malloc'd, NUL-terminated) is the SVG document.
 * Refuses an empty figure, non-positive values on a log axis and a stacked
 * figure on a log axis or with a negative value. The caller
 * frees *svg with free(); NULL on error. Borrows p and s. PLplot: O(total
 * points) plus a constant per figure. */
MOORE_API int moore_plot_svg(const moore_plot *p, const moore_plot_series *s, int nseries,
                             char **svg, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
