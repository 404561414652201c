/* metric.c — the "routing" metric group: uniform-traffic throughput under
 * ECMP (exact fixed split) and KSP-8 (path-restricted flow, ε = 0.05 lower
 * bound), and each one's ratio to the unrestricted optimum's upper bound
 * (ε = 0.05), so the ratio is a proven lower bound on θ_routing / θ_optimal.
 * Off by default (KSP-8 for every pair costs tens of seconds at a thousand
 * switches). Null when undefined: a disconnected topology, fewer than two
 * switches with servers. */
#include "moore/metrics.h"
#include "moore/paths.h"
#include "moore/routing.h"

static const char *const KEYS[] = { "throughput_uniform_ecmp", "throughput_uniform_ksp8",
                                    "throughput_uniform_ecmp_ratio",
                                    "throughput_uniform_ksp8_ratio" };

int moore_metric_routing(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                         moore_error *err)
{
    int32_t comps = 0, with = 0;
    int rc = moore_components(g, NULL, &comps, err);
    if (rc)
        return rc;
    for (int32_t v = 0; v < g->n; v++)
        with += g->endpoints[v] > 0;
    if (moore_graph_endpoints_total(g) == 0)
        with = g->n;
    if (comps != 1 || with < 2) {
        for (int i = 0; !rc && i < 4; i++)
            rc = moore_report_null(r, KEYS[i], err);
        return rc;
    }
    moore_traffic *t = NULL;
    moore_flow_options fo;
    moore_flow_options_default(&fo);
    fo.eps = 0.05;
    fo.threads = o->threads;
    fo.progress = o->progress;
    fo.progress_ctx = o->progress_ctx;
    moore_flow_result ecmp, ksp, opt;
    rc = moore_traffic_uniform(g, &t, err);
    if (!rc)
        rc = moore_routed_throughput_spec(g, "ecmp", t, &fo, 0, &ecmp, err);
    if (!rc)
        rc = moore_routed_throughput_spec(g, "ksp:k=8", t, &fo, 0, &ksp, err);
    if (!rc)
        rc = moore_flow_approx(g, t, &fo, &opt, err);
    moore_traffic_free(t);
    double v[4] = { ecmp.throughput, ksp.lower, ecmp.throughput / opt.upper,
                    ksp.lower / opt.upper };
    for (int i = 0; !rc && i < 4; i++)
        rc = moore_report_double(r, KEYS[i], v[i], err);
    return rc;
}
