/* metric.c — a layout as report keys (moore_layout_report) and the `layout`
 * metric group: the options' cost model, or the default one (docs/layout.md),
 * so that `stats --metrics layout`, `compare` and `report` show racks, cables
 * by type, cost and power under the model the user chose. */
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
    if (!rc) rc = moore_report_int(r, "groups", l->groups, err);
    if (!rc) rc = moore_report_int(r, "switches_per_group_max", l->switches_per_group_max, err);
    if (!rc) rc = moore_report_int(r, "racks", l->racks, err);
    if (!rc) rc = moore_report_int(r, "switches_per_rack_max", l->switches_per_rack_max, err);
    if (!rc) rc = moore_report_int(r, "rack_units_max", l->rack_units_max, err);
    if (!rc) rc = moore_report_int(r, "chassis_radix", l->chassis_radix, err);
    if (!rc) rc = moore_report_int(r, "cables", l->cables, err);
    if (!rc) rc = moore_report_int(r, "cables_intra_rack", l->cables_intra_rack, err);
    if (!rc) rc = moore_report_int(r, "cables_inter_rack", l->cables_inter_rack, err);
    if (!rc) rc = moore_report_int(r, "cables_electrical", l->cables_electrical, err);
    if (!rc) rc = moore_report_int(r, "cables_optical", l->cables_optical, err);
    if (!rc) rc = moore_report_int(r, "cables_server", l->cables_server, err);
    if (!rc) rc = moore_report_int(r, "cables_server_optical", l->cables_server_optical, err);
    if (!rc) rc = moore_report_int(r, "transceivers", l->transceivers, err);
    if (!rc) rc = moore_report_double(r, "cable_length_total_m", l->cable_length_total_m, err);
    if (!rc) rc = moore_report_double(r, "cable_length_max_m", l->cable_length_max_m, err);
    if (!rc) rc = moore_report_int(r, "group_pairs_linked", l->group_pairs_linked, err);
    if (!rc) rc = moore_report_int(r, "bundle_max", l->bundle_max, err);
    if (!rc) rc = moore_report_double(r, "bundle_mean", l->bundle_mean, err);
    if (!rc) rc = moore_report_double(r, "cost_switches", l->cost_switches, err);
    if (!rc) rc = moore_report_double(r, "cost_cables", l->cost_cables, err);
    if (!rc) rc = moore_report_double(r, "cost_server_cables", l->cost_server_cables, err);
    if (!rc) rc = moore_report_double(r, "cost_optics", l->cost_optics, err);
    if (!rc) rc = moore_report_double(r, "cost_total", l->cost_total, err);
    if (!rc) rc = metric_number(r, "cost_per_endpoint", l->cost_per_endpoint, err);
    if (!rc) rc = moore_report_double(r, "power_w", l->power_w, err);
    if (!rc) rc = metric_number(r, "power_per_endpoint_w", l->power_per_endpoint_w, err);
    return rc;
}

int layout_metric(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                        moore_error *err)
{
    moore_cost_model def;
    moore_layout l;
    moore_cost_model_default(&def);
    const moore_cost_model *m = o && o->cost_model ? o->cost_model : &def;
    int rc = moore_layout_compute(g, m, o, &l, err);
    if (!rc)
        rc = moore_report_string(r, "cost_model", m->name, err);
    if (!rc)
        rc = moore_layout_report(&l, r, err);
    moore_layout_clear(&l);
    return rc;
}
