/* metric.c — the "routing" metric group (docs/routing.md), sized for a
 * `moore compare` row of about a thousand switches in seconds:
 *   throughput_uniform_ecmp        θ of the uniform matrix under ECMP's fixed
 *                                  even split (exact: one pass per destination);
 *   throughput_uniform_ksp8        a proven lower bound on θ under KSP-8 (best
 *                                  split over each pair's 8 shortest paths): the
 *                                  path-restricted approximation stopped at
 *                                  ε = 0.05 or after KSP_PHASES phases,
 *                                  whichever comes first (deterministic);
 *   throughput_uniform_*_ratio     each divided by TUB, an upper bound on the
 *                                  optimal θ (flow.h), so the ratio is a proven
 *                                  lower bound on θ_routing / θ_optimal.
 * Off by default. Null when undefined: a disconnected topology, fewer than two
 * switches with servers. */
#include "moore/metrics.h"
#include "moore/paths.h"
#include "moore/routing.h"
#include "routing/metric.h"

/* Phases of the KSP-8 flow: each scans every pair's 8 paths once (about 0.1 s
 * of CPU at a thousand switches, docs/routing.md). */
#define KSP_PHASES 16

static const char *const KEYS[] = { "throughput_uniform_ecmp", "throughput_uniform_ksp8",
                                    "throughput_uniform_ecmp_ratio",
                                    "throughput_uniform_ksp8_ratio" };

/* Whether the uniform matrix is defined: connected, two switches with servers
 * (every switch counts when the graph has no endpoints, traffic.h). */
static int uniform_defined(const moore_graph *g, int *defined, moore_error *err)
{
    int32_t comps = 0, with = 0;
    int rc = moore_components(g, NULL, &comps, err);
    for (int32_t v = 0; !rc && v < g->n; v++)
        with += g->endpoints[v] > 0;
    if (moore_graph_endpoints_total(g) == 0)
        with = g->n;
    *defined = comps == 1 && with >= 2;
    return rc;
}

int route_metric(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                         moore_error *err)
{
    int defined = 0;
    int rc = uniform_defined(g, &defined, err);
    if (rc || !defined) {
        for (int i = 0; !rc && i < 4; i++)
            rc = moore_report_null(r, KEYS[i], err);
        return rc;
    }
    moore_traffic *t = NULL;
    moore_flow_options fo;
    moore_flow_options_default(&fo);
    fo.eps = 0.05;
    fo.max_phases = KSP_PHASES;
    fo.threads = o->threads;
    fo.progress = o->progress;
    fo.progress_ctx = o->progress_ctx;
    moore_flow_result ecmp, ksp;
    double tub = 0;
    rc = moore_traffic_uniform(g, &t, err);
    if (!rc)
        rc = moore_flow_tub(g, t, &tub, err);
    if (!rc)
        rc = moore_routed_throughput_spec(g, "ecmp", t, &fo, 0, &ecmp, err);
    if (!rc)
        rc = moore_routed_throughput_spec(g, "ksp:k=8", t, &fo, 0, &ksp, err);
    moore_traffic_free(t);
    if (rc)
        return rc;
    double v[4] = { ecmp.throughput, ksp.lower, ecmp.throughput / tub, ksp.lower / tub };
    for (int i = 0; !rc && i < 4; i++)
        rc = moore_report_double(r, KEYS[i], v[i], err);
    return rc;
}
