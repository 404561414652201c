/* report.c — failure trials and disconnection fractions as the keys
 * `moore fail --json` prints (docs/resilience.md), so that the CLI and the
 * Python binding (moore.fail) show the same names for the same numbers. */
#include "moore/resilience.h"

#include <math.h>
#include <stdio.h>

static const char *const FAIL_STAT_NAMES[7] = { "mean", "min", "p5", "p50", "p95", "max", "std" };

/* Statistic i of s in FAIL_STAT_NAMES order; NaN when nothing was summarised. */
static double fail_stat_value(const moore_fail_stats *s, int i)
{
    const double v[7] = { s->mean, s->min, s->p5, s->p50, s->p95, s->max, s->std };
    return s->count ? v[i] : NAN;
}

int moore_fail_report(moore_report *r, const moore_fail_result *res, double level,
                      unsigned metrics, moore_error *err)
{
    int rc = moore_report_double(r, "level", level, err);
    if (!rc) rc = moore_report_int(r, "trials", res->trials, err);
    if (!rc) rc = moore_report_double(r, "connected_fraction", res->connected_fraction, err);
    if (!rc) rc = moore_report_double(r, "switches_lost_mean", res->switches_lost.mean, err);
    if (!rc) rc = moore_report_double(r, "links_lost_mean", res->links_lost.mean, err);
    if (!rc) rc = moore_report_double(r, "servers_lost_mean", res->servers_lost.mean, err);
    if (!rc) rc = moore_report_double(r, "links_failed_mean", res->links_failed.mean, err);
    if (!rc) rc = moore_report_double(r, "switches_failed_mean", res->switches_failed.mean, err);
    for (int m = 0; !rc && m < MOORE_FAIL_NMETRICS; m++) {
        if (!(metrics & 1u << m))
            continue;
        for (int i = 0; !rc && i < 7; i++) {
            char key[48];
            snprintf(key, sizeof key, "%s_%s", moore_fail_metric_name(m), FAIL_STAT_NAMES[i]);
            double v = fail_stat_value(&res->metric[m], i);
            rc = isnan(v) ? moore_report_null(r, key, err) : moore_report_double(r, key, v, err);
        }
    }
    return rc;
}

int moore_disconnect_report(moore_report *r, const moore_fail_stats *s, int switches, int trials,
                            moore_error *err)
{
    const double vals[7] = { s->mean, s->min, s->p5, s->p50, s->p95, s->max, s->std };
    int rc = moore_report_int(r, "trials", trials, err);
    for (int i = 0; !rc && i < 7; i++) {
        char key[48];
        snprintf(key, sizeof key, "%s_at_disconnection_%s", switches ? "switches" : "links",
                 FAIL_STAT_NAMES[i]);
        rc = moore_report_double(r, key, vals[i], err);
    }
    return rc;
}
