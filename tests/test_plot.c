/* test_plot.c — figures from PLplot: an SVG document that names its title,
 * axis labels and legend entries (PLplot writes text as character
 * references, decoded here independently), and refusals of figures that
 * cannot be drawn. */
#include "testutil.h"
#include "moore/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The SVG's text content with &#xNN; references decoded and tags dropped. */
static char *svg_text(const char *svg)
{
    char *out = malloc(strlen(svg) + 1), *o = out;
    int in_text = 0;
    for (const char *s = svg; *s;) {
        if (strncmp(s, "<text", 5) == 0)
            in_text = 1;
        if (strncmp(s, "</text>", 7) == 0) {
            in_text = 0;
            *o++ = '|';
        }
        if (*s == '<') {
            s = strchr(s, '>') ? strchr(s, '>') + 1 : s + strlen(s);
            continue;
        }
        unsigned c;
        int used;
        if (in_text && sscanf(s, "&#x%x;%n", &c, &used) == 1) {
            *o++ = (char)c;
            s += used;
        } else {
            if (in_text && *s != '\n')
                *o++ = *s;
            s++;
        }
    }
    *o = '\0';
    return out;
}

static void lines_figure_names_everything(void **state)
{
    (void)state;
    double x[] = { 1e3, 1e4, 1e5 }, a[] = { 100, 512, 4000 }, b[] = { 200, 1080, 9000 };
    moore_plot_series s[] = { { "slimfly", 3, x, a, NULL, NULL }, { "clos", 3, x, b, NULL, NULL } };
    moore_plot p = { MOORE_PLOT_LINES, "Switches", "endpoints", "switches (count)", 1, 1, NULL, 0, 0 };
    char *svg;
    moore_error err;
    assert_int_equal(moore_plot_svg(&p, s, 2, &svg, &err), MOORE_OK);
    assert_non_null(strstr(svg, "<svg"));
    assert_non_null(strstr(svg, "</svg>"));
    char *text = svg_text(svg);
    assert_non_null(strstr(text, "|Switches|"));
    assert_non_null(strstr(text, "|endpoints|"));
    assert_non_null(strstr(text, "|switches (count)|"));
    assert_non_null(strstr(text, "|slimfly|"));
    assert_non_null(strstr(text, "|clos|"));
    free(text);
    free(svg);
}

static void bars_with_bounds(void **state)
{
    (void)state;
    const char *cats[] = { "slimfly", "xpander" };
    double t[] = { 0.9, 0.95 }, lo[] = { 0.88, 0.93 }, hi[] = { 0.95, 0.99 };
    moore_plot_series s[] = { { "uniform", 2, NULL, t, lo, hi } };
    moore_plot p = { MOORE_PLOT_BARS, "Throughput", "family", "throughput per server", 0, 0, cats, 0, 0 };
    char *svg;
    moore_error err;
    assert_int_equal(moore_plot_svg(&p, s, 1, &svg, &err), MOORE_OK);
    char *text = svg_text(svg);
    assert_non_null(strstr(text, "|xpander|"));
    assert_non_null(strstr(text, "|throughput per server|"));
    free(text);
    free(svg);
}

/* Stacked bars: the y axis reaches each bar's total (parts 3 + 4: a tick at 6,
 * above every single part), the legend lists the top part first, and a
 * negative part or a log axis is refused. */
static void stacked_bars(void **state)
{
    (void)state;
    const char *cats[] = { "ideal", "slimfly" };
    double a[] = { 3, 3 }, b[] = { 2, 4 }, alo[] = { 3, 2.5 }, blo[] = { 2, 3.5 };
    moore_plot_series s[] = { { "tp", 2, NULL, a, alo, a }, { "dp", 2, NULL, b, blo, b } };
    moore_plot p = { MOORE_PLOT_STACKED, "Step", "family", "seconds", 0, 0, cats, 0, 0 };
    char *svg;
    moore_error err;
    assert_int_equal(moore_plot_svg(&p, s, 2, &svg, &err), MOORE_OK);
    char *text = svg_text(svg);
    assert_non_null(strstr(text, "|6|"));
    assert_non_null(strstr(text, "|slimfly|"));
    assert_true(strstr(text, "|dp|") && strstr(text, "|tp|") &&
                strstr(text, "|dp|") < strstr(text, "|tp|"));
    free(text);
    free(svg);
    b[1] = -1;
    assert_int_equal(moore_plot_svg(&p, s, 2, &svg, &err), MOORE_EINVAL);
    b[1] = 4;
    p.logy = 1;
    assert_int_equal(moore_plot_svg(&p, s, 2, &svg, &err), MOORE_EINVAL);
    assert_null(svg);
}

static void refusals(void **state)
{
    (void)state;
    double x[] = { 1, 2 }, y[] = { 1, 0 };
    moore_plot_series s[] = { { "a", 2, x, y, NULL, NULL } };
    moore_plot p = { MOORE_PLOT_LINES, "T", "x", "y", 0, 1, NULL, 0, 0 };
    char *svg;
    moore_error err;
    assert_int_equal(moore_plot_svg(&p, s, 1, &svg, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "log axis"));
    assert_null(svg);
    assert_int_equal(moore_plot_svg(&p, s, 0, &svg, &err), MOORE_EINVAL);
    s[0].n = 0;
    p.logy = 0;
    assert_int_equal(moore_plot_svg(&p, s, 1, &svg, &err), MOORE_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines_figure_names_everything),
        cmocka_unit_test(bars_with_bounds),
        cmocka_unit_test(stacked_bars),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
