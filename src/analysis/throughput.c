/* throughput.c — the "throughput" metric group: uniform and worst-case
 * (longest matching) throughput by the (1+ε) approximation with ε = 0.05,
 * and TUB for both, under the keys `moore compare` reads. Off by default:
 * it costs seconds on a thousand switches. Undefined values (a disconnected
 * topology, fewer than two servers) are reported as null. */
#include "moore/flow.h"
#include "moore/metrics.h"
#include "moore/paths.h"
#include "moore/traffic.h"
#include "analysis/throughput.h"

static int nulls(moore_report *r, moore_error *err)
{
    const char *keys[] = { "throughput_uniform", "throughput_uniform_upper", "throughput_worst",
                           "throughput_worst_upper", "tub_uniform", "tub_worst" };
    int rc = 0;
    for (int i = 0; !rc && i < 6; i++)
        rc = moore_report_null(r, keys[i], err);
    return rc;
}

int analysis_metric_throughput(const moore_graph *g, const moore_metric_options *o,
                            moore_report *r, moore_error *err)
{
    int32_t comps = 0;
    int rc = moore_components(g, NULL, &comps, err);
    if (rc)
        return rc;
    /* Matrices need two switches with servers (all switches count when the
     * graph has no endpoints at all, see traffic.h). */
    int32_t with = 0;
    for (int32_t v = 0; v < g->n; v++)
        with += g->endpoints[v] > 0;
    if (moore_graph_endpoints_total(g) == 0)
        with = g->n;
    if (comps != 1 || with < 2)
        return nulls(r, err);
    const char *tms[2] = { "uniform", "worst" };
    double val[2][3];
    for (int i = 0; i < 2; i++) {
        moore_traffic *t;
        moore_flow_options fo;
        moore_flow_result f;
        moore_flow_options_default(&fo);
        fo.eps = 0.05;
        fo.threads = o->threads;
        fo.progress = o->progress;
        fo.progress_ctx = o->progress_ctx;
        /* uniform: the compact form, O(n) memory instead of one entry per pair */
        rc = i == 0 ? moore_traffic_uniform_compact(g, &t, err)
                    : moore_traffic_make(g, tms[i], o->seed, &t, err);
        if (!rc)
            rc = moore_flow_tub(g, t, &val[i][2], err);
        if (!rc)
            rc = moore_flow_approx(g, t, &fo, &f, err);
        moore_traffic_free(t);
        if (rc)
            return rc;
        val[i][0] = f.lower;
        val[i][1] = f.upper;
    }
    rc = moore_report_double(r, "throughput_uniform", val[0][0], err);
    if (!rc) rc = moore_report_double(r, "throughput_uniform_upper", val[0][1], err);
    if (!rc) rc = moore_report_double(r, "throughput_worst", val[1][0], err);
    if (!rc) rc = moore_report_double(r, "throughput_worst_upper", val[1][1], err);
    if (!rc) rc = moore_report_double(r, "tub_uniform", val[0][2], err);
    if (!rc) rc = moore_report_double(r, "tub_worst", val[1][2], err);
    return rc;
}
