/* cmd_layout.c — `moore layout TOPO [--json] [--cables FILE] [--model FILE]
 * [--switches-per-rack S] [--seed S]`: racks, floor, cable plan, cost and
 * power of a topology (the library's moore_layout_compute; docs/layout.md). */
#include "cli.h"
#include "moore/layout.h"

#include <errno.h>
#include <string.h>

const char cmd_layout_usage[] =
    "usage: moore layout TOPO [--json] [--cables FILE] [--model FILE] [--switches-per-rack S]\n"
    "                    [--seed S]\n\n"
    "Places every switch of TOPO (a SPEC or a topology file) in a rack, the racks in rows on\n"
    "a near-square floor grid, routes every cable (electrical up to electrical_max_m, optical\n"
    "above) and prices the whole: switch ports, cables by type and length, power.\n"
    "Placement follows the family (Slim Fly rack x, Xpander super-node, Dragonfly group,\n"
    "fat-tree/Clos pod, HyperX/torus first dimension), METIS k-way otherwise.\n\n"
    "  --json                  one JSON object instead of aligned text\n"
    "  --cables FILE           write the cable plan as CSV (whole or not at all):\n"
    "                          cable,from_switch,from_rack,from_port,to_switch,to_rack,\n"
    "                          to_port,length_m,type\n"
    "  --model FILE            JSON cost model; missing keys keep their defaults (keys:\n"
    "                          switch_port_cost, electrical_cable_fixed, electrical_cable_per_m,\n"
    "                          optical_cable_fixed, optical_cable_per_m, electrical_max_m,\n"
    "                          rack_width_m, rack_depth_m, aisle_m, cable_overhead_m,\n"
    "                          intra_rack_m, switches_per_rack, port_power_w)\n"
    "  --switches-per-rack S   at most S switches per rack (>= 1; overrides the model)\n"
    "  --seed S                METIS seed for graphs without a family placement (default 1)\n\n"
    "Keys: placement, racks, switches_per_rack_max, cables, cables_intra_rack,\n"
    "cables_inter_rack, cables_electrical, cables_optical, cables_server, cable_length_total_m,\n"
    "cable_length_max_m, rack_pairs_linked, bundle_max, bundle_mean, cost_switches,\n"
    "cost_cables, cost_server_cables, cost_total, cost_per_endpoint, power_w,\n"
    "power_per_endpoint_w.\n";

/* Writes the plan to path through a temporary file: whole or absent. */
static int write_plan(const char *path, const moore_graph *g, const moore_layout *l,
                      const moore_cost_model *m, moore_error *err)
{
    moore_atomic_file af;
    int rc = moore_atomic_open(path, &af, err);
    if (rc)
        return rc;
    errno = 0;
    rc = moore_layout_write_cables(g, l, m, af.f, err);
    int e = errno; /* a write that failed on the way (a full disk): name file and reason */
    if (rc == MOORE_EIO)
        moore_error_set(err, rc, "cannot write '%s': %s", path,
                        e ? strerror(e) : "write failed");
    if (rc) {
        moore_atomic_abort(&af);
        return rc;
    }
    return moore_atomic_commit(&af, err);
}

int cmd_layout(int argc, char **argv)
{
    cli_args a;
    const char *topo = NULL, *cables = NULL, *model = NULL;
    int json = 0;
    long long cap = -1, seed = 1;
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_flag(&a, "--json", NULL))
            json = 1;
        else if (cli_option(&a, "--cables", NULL))
            cables = a.value;
        else if (cli_option(&a, "--model", NULL))
            model = a.value;
        else if (cli_option(&a, "--switches-per-rack", NULL))
            cli_int_value(&a, "--switches-per-rack", 1, MOORE_MAX_SWITCHES, &cap);
        else if (cli_option(&a, "--seed", NULL))
            cli_int_value(&a, "--seed", 0, (long long)9e18, &seed);
        else if (cli_positional(&a, &topo))
            return 2;
    }
    if (a.bad)
        return 2;
    if (!topo)
        return cli_usage_error("layout: missing TOPO (see 'moore layout --help')");

    moore_error err;
    moore_error_clear(&err);
    moore_cost_model m;
    moore_cost_model_default(&m);
    moore_metric_options o;
    cli_metric_options(&o);
    o.seed = (uint64_t)seed;
    moore_graph *g = NULL;
    moore_layout l = { 0 };
    moore_report r;
    moore_report_init(&r);
    int rc = model ? moore_cost_model_read(model, &m, &err) : MOORE_OK;
    if (!rc && cap > 0)
        m.switches_per_rack = (int32_t)cap;
    if (!rc)
        rc = moore_topology_load(topo, &g, &err);
    if (!rc)
        rc = moore_layout_compute(g, &m, &o, &l, &err);
    cli_progress_done();
    if (!rc && cables)
        rc = write_plan(cables, g, &l, &m, &err);
    if (!rc && g->family) /* the identity of the result (docs/json.md) */
        rc = moore_report_string(&r, "family", g->family, &err);
    if (!rc && g->params)
        rc = moore_report_string(&r, "params", g->params, &err);
    if (!rc)
        rc = moore_layout_report(&l, &r, &err);
    if (!rc)
        rc = json ? moore_report_write_json(&r, stdout, cli_json_pretty(), &err)
                  : moore_report_write_text(&r, stdout, &err);
    moore_report_free(&r);
    moore_layout_free(&l);
    moore_graph_free(g);
    return rc ? cli_fail(&err) : 0;
}
