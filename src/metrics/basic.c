/* basic.c — the "basic" and "paths" metric groups: counts, degrees, and the
 * distance metrics of paths.h, under the JSON keys `moore stats --json` prints. */
#include "moore/metrics.h"
#include "moore/paths.h"
#include "moore/symmetry.h"
#include "metrics/groups.h"

#include <math.h>

int metric_basic(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                       moore_error *err)
{
    (void)o;
    /* family and params are null for a file without an origin, as in the
     * JSON export (build -f json) */
    int rc = g->family ? moore_report_string(r, "family", g->family, err)
                       : moore_report_null(r, "family", err);
    if (!rc)
        rc = g->params ? moore_report_string(r, "params", g->params, err)
                       : moore_report_null(r, "params", err);
    if (!rc) rc = moore_report_int(r, "switches", g->n, err);
    if (!rc) rc = moore_report_int(r, "links", g->m, err);
    if (!rc) rc = moore_report_int(r, "endpoints", moore_graph_endpoints_total(g), err);
    if (!rc) rc = moore_report_int(r, "degree_min", moore_graph_degree_min(g), err);
    if (!rc) rc = moore_report_int(r, "degree_max", moore_graph_degree_max(g), err);
    if (!rc) rc = moore_report_bool(r, "regular", moore_graph_is_regular(g), err);
    if (!rc) { /* ports: endpoints + cables, a HyperX trunk counting K times */
        int64_t k = moore_graph_multiplicity(g), pmax = 0;
        for (int32_t v = 0; v < g->n; v++)
            if (g->endpoints[v] + k * moore_graph_degree(g, v) > pmax)
                pmax = g->endpoints[v] + k * moore_graph_degree(g, v);
        rc = moore_report_int(r, "radix", pmax, err);
    }
    return rc;
}

/* endpoint_paths.c: avg_path_length_endpoints, diameter_endpoints */
int metric_endpoint_paths(const moore_graph *g, const moore_metric_options *o,
                                const moore_paths_result *p, moore_report *r,
                                moore_error *err);

int metric_paths(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                       moore_error *err)
{
    moore_paths_result p;
    int32_t girth;
    /* One BFS per automorphism orbit when symmetry is cheap and the orbits
     * few (symmetry.h), else all pairs; both are exact. */
    int rc = moore_paths_auto(g, o, &p, NULL, err);
    if (rc)
        return rc;
    rc = moore_girth(g, &girth, err);
    if (!rc) rc = moore_report_bool(r, "connected", p.connected, err);
    if (!rc) rc = moore_report_int(r, "components", p.components, err);
    if (!rc && p.connected) {
        int32_t d = moore_graph_degree_max(g);
        double bound = moore_bound(d, p.diameter);
        rc = moore_report_int(r, "diameter", p.diameter, err);
        if (!rc) rc = moore_report_double(r, "avg_path_length", p.avg_path_length, err);
        if (!rc) rc = moore_report_int_array(r, "distance_histogram", p.histogram,
                                             p.histogram_len, err);
        if (!rc) rc = moore_report_double(r, "moore_bound", bound, err);
        if (!rc) rc = moore_report_double(r, "moore_efficiency", g->n / bound, err);
    } else if (!rc) {
        const char *keys[] = { "diameter", "avg_path_length", "moore_bound", "moore_efficiency" };
        for (int i = 0; !rc && i < 4; i++)
            rc = moore_report_null(r, keys[i], err);
    }
    if (!rc) rc = girth ? moore_report_int(r, "girth", girth, err)
                        : moore_report_null(r, "girth", err);
    if (!rc) rc = metric_endpoint_paths(g, o, &p, r, err);
    moore_paths_result_clear(&p);
    return rc;
}
