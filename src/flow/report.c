/* report.c — a throughput result as the keys `moore throughput --json` prints
 * (docs/json.md), so that the CLI and the Python binding show the same names
 * for the same numbers. */
#include "moore/flow.h"
#include "core/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The identity (docs/json.md): topology = family:params, the SPEC that
 * rebuilds the graph, and its parts; all three null for a graph read from a
 * file without an origin. */
static int flow_report_identity(moore_report *r, const moore_graph *g, moore_error *err)
{
    if (!g->family) {
        int rc = moore_report_null(r, "topology", err);
        if (!rc) rc = moore_report_null(r, "family", err);
        return rc ? rc : moore_report_null(r, "params", err);
    }
    const char *params = g->params ? g->params : "";
    int rc = moore_report_string(r, "topology", moore_graph_spec(g), err);
    if (!rc) rc = moore_report_string(r, "family", g->family, err);
    return rc ? rc : moore_report_string(r, "params", params, err);
}

int moore_flow_report(moore_report *r, const moore_graph *g, const moore_traffic *t,
                      const moore_flow_result *f, double tub, double eps, int exact,
                      uint64_t seed, moore_error *err)
{
    int rc = flow_report_identity(r, g, err);
    if (!rc) rc = moore_report_string(r, "tm", t->name, err);
    if (!rc && strcmp(t->name, "permutation") == 0)
        rc = moore_report_int(r, "seed", (int64_t)seed, err);
    if (!rc) rc = moore_report_int(r, "switches", g->n, err);
    if (!rc) rc = moore_report_int(r, "commodities", f->commodities, err);
    if (!rc) rc = moore_report_double(r, "demand_total", t->total, err);
    if (!rc) rc = moore_report_double(r, "throughput", f->throughput, err);
    if (!rc) rc = moore_report_double(r, "lower", f->lower, err);
    if (!rc) rc = moore_report_double(r, "upper", f->upper, err);
    if (!rc) rc = moore_report_string(r, "method", f->method, err);
    if (!rc) rc = moore_report_double(r, "gap", f->lower > 0 ? f->upper / f->lower - 1 : INFINITY, err);
    if (!rc && !exact) rc = moore_report_double(r, "eps", eps, err);
    if (!rc) rc = moore_report_bool(r, "converged", f->converged, err);
    if (!rc && f->stopped) rc = moore_report_string(r, "stopped", f->stopped, err);
    if (!rc) rc = moore_report_int(r, !exact ? "phases" : f->columns ? "rounds" : "lp_iterations",
                                   f->phases, err);
    if (!rc && f->columns) rc = moore_report_int(r, "columns", f->columns, err);
    if (!rc) rc = moore_report_double(r, "tub", tub, err);
    if (!rc) rc = moore_report_double(r, "link_util_max", f->util_max, err);
    if (!rc) rc = moore_report_double(r, "link_util_mean", f->util_mean, err);
    if (!rc && strcmp(t->name, "worst") == 0) {
        rc = moore_report_bool(r, "matching_exact", t->matching_exact, err);
        if (!rc) rc = moore_report_double(r, "matching_weight", t->matching_weight, err);
        if (!rc && !t->matching_exact)
            rc = moore_report_double(r, "matching_bound", t->matching_bound, err);
    }
    if (!rc && t->unit_endpoints)
        rc = moore_report_bool(r, "unit_endpoints_assumed", 1, err);
    return rc;
}


int moore_flow_hose_report(moore_report *r, const moore_graph *g, const moore_hose_result *h,
                           double eps, int effort, moore_error *err)
{
    int rc = flow_report_identity(r, g, err);
    if (!rc) rc = moore_report_string(r, "tm", "hose", err);
    if (!rc) rc = moore_report_int(r, "switches", g->n, err);
    if (!rc) rc = moore_report_int(r, "endpoints", h->servers, err);
    if (!rc) rc = moore_report_double(r, "throughput", h->lower, err);
    if (!rc) rc = moore_report_double(r, "lower", h->lower, err);
    if (!rc) rc = moore_report_double(r, "upper", h->upper, err);
    if (!rc) rc = moore_report_string(r, "method", h->method, err);
    if (!rc) rc = moore_report_string(r, "upper_method", h->upper_method, err);
    if (!rc) rc = moore_report_double(r, "gap", h->lower > 0 ? h->upper / h->lower - 1 : INFINITY, err);
    if (!rc && effort == 1) rc = moore_report_double(r, "eps", eps, err);
    if (!rc) rc = moore_report_double(r, "vlb", h->vlb, err);
    if (!rc) rc = moore_report_double(r, "two_phase", h->two_phase, err);
    if (!rc) rc = moore_report_int(r, "classes", h->classes, err);
    if (!rc) rc = moore_report_double(r, "uniform_lower", h->uniform_lower, err);
    if (!rc) rc = moore_report_double(r, "uniform_upper", h->uniform_upper, err);
    if (!rc) rc = moore_report_double(r, "worst_tub", h->worst_tub, err);
    if (!rc) rc = moore_report_double(r, "pair_flow", h->pair_flow, err);
    if (!rc) rc = moore_report_double(r, "worst_dual", h->worst_dual, err);
    if (!rc && effort >= 1) rc = moore_report_double(r, "worst_upper", h->worst_upper, err);
    if (!rc) rc = moore_report_double(r, "cut_bound", h->cut_bound, err);
    if (!rc && effort == 2)
        rc = moore_report_double(r, "oblivious", h->oblivious > 0 ? h->oblivious : INFINITY, err);
    if (!rc && effort == 2)
        rc = moore_report_double(r, "oblivious_lp",
                                 h->oblivious_lp > 0 ? h->oblivious_lp : INFINITY, err);
    return rc;
}
