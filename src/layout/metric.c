/* metric.c — a layout as report keys (moore_layout_report) and the `layout`
 * metric group: the default cost model (docs/layout.md), so that `stats
 * --metrics layout` and `compare` show racks, cables by type, cost and power. */
#include "moore/layout.h"
#include "layout/metric.h"

#include <math.h>

static int metric_number(moore_report *r, const char *key, double v, moore_error *err)
{
    return isfinite(v) ? moore_report_double(r, key, v, err) : moore_report_null(r, key, err);
}

int moore_layout_report(const moore_layout *l, moore_report *r, moore_error *err)
{
    int rc = moore_report_string(r, "placement", l->placement ? l->placement : "single", err);
    if (!rc) rc = moore_report_int(r, "racks", l->racks, err);
    if (!rc) rc = moore_report_int(r, "switches_per_rack_max", l->switches_per_rack_max, err);
    if (!rc) rc = moore_report_int(r, "cables", l->cables, err);
    if (!rc) rc = moore_report_int(r, "cables_intra_rack", l->cables_intra_rack, err);
    if (!rc) rc = moore_report_int(r, "cables_inter_rack", l->cables_inter_rack, err);
    if (!rc) rc = moore_report_int(r, "cables_electrical", l->cables_electrical, err);
    if (!rc) rc = moore_report_int(r, "cables_optical", l->cables_optical, err);
    if (!rc) rc = moore_report_int(r, "cables_server", l->cables_server, err);
    if (!rc) rc = moore_report_double(r, "cable_length_total_m", l->cable_length_total_m, err);
    if (!rc) rc = moore_report_double(r, "cable_length_max_m", l->cable_length_max_m, err);
    if (!rc) rc = moore_report_int(r, "rack_pairs_linked", l->rack_pairs_linked, err);
    if (!rc) rc = moore_report_int(r, "bundle_max", l->bundle_max, err);
    if (!rc) rc = moore_report_double(r, "bundle_mean", l->bundle_mean, err);
    if (!rc) rc = moore_report_double(r, "cost_switches", l->cost_switches, err);
    if (!rc) rc = moore_report_double(r, "cost_cables", l->cost_cables, err);
    if (!rc) rc = moore_report_double(r, "cost_server_cables", l->cost_server_cables, err);
    if (!rc) rc = moore_report_double(r, "cost_total", l->cost_total, err);
    if (!rc) rc = metric_number(r, "cost_per_endpoint", l->cost_per_endpoint, err);
    if (!rc) rc = moore_report_double(r, "power_w", l->power_w, err);
    if (!rc) rc = metric_number(r, "power_per_endpoint_w", l->power_per_endpoint_w, err);
    return rc;
}

int moore_metric_layout(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                        moore_error *err)
{
    moore_cost_model m;
    moore_layout l;
    moore_cost_model_default(&m);
    int rc = moore_layout_compute(g, &m, o, &l, err);
    if (!rc)
        rc = moore_layout_report(&l, r, err);
    moore_layout_free(&l);
    return rc;
}
