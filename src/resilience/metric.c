/* metric.c — the "resilience" metric group: the disconnection fractions of
 * links and of switches (docs/resilience.md) over RES_METRIC_TRIALS seeded
 * trials, under the keys `moore fail --until-disconnected` prints. Off by
 * default; null for graphs with fewer than two switches (or no link). */
#include "moore/metrics.h"
#include "moore/resilience.h"
#include "resilience/metric.h"

#include <stdio.h>

#define RES_METRIC_TRIALS 100

static int add_stats(moore_report *r, const char *prefix, const moore_fail_stats *s,
                     moore_error *err)
{
    const char *names[4] = { "mean", "p5", "p50", "min" };
    const double vals[4] = { s->mean, s->p5, s->p50, s->min };
    int rc = MOORE_OK;
    for (int i = 0; !rc && i < 4; i++) {
        char key[48];
        snprintf(key, sizeof key, "%s_at_disconnection_%s", prefix, names[i]);
        rc = s->count ? moore_report_double(r, key, vals[i], err) : moore_report_null(r, key, err);
    }
    return rc;
}

int resil_metric(const moore_graph *g, const moore_metric_options *o,
                            moore_report *r, moore_error *err)
{
    int rc = MOORE_OK;
    for (int sw = 0; !rc && sw < 2; sw++) {
        moore_fail_stats s = { 0 };
        if (g->n >= 2 && (sw || g->m >= 1))
            rc = moore_disconnect_fraction(g, sw, o->seed, RES_METRIC_TRIALS, o->threads, &s, err);
        if (!rc)
            rc = add_stats(r, sw ? "switches" : "links", &s, err);
    }
    if (!rc)
        rc = moore_report_int(r, "disconnection_trials", RES_METRIC_TRIALS, err);
    return rc;
}
