/* cmd_layout.c — `moore layout TOPO [--json] [--cables FILE] [--bom FILE]
 * [--model NAME|FILE] [--switches-per-rack S] [--seed S]`: groups, racks,
 * floor, cable plan, bill of materials, cost and power of a topology (the
 * library's moore_layout_compute; docs/layout.md). The text output groups
 * digits by thousands and prints money as whole dollars, because these
 * numbers are read by people comparing quotes. */
#include "cli.h"
#include "moore/layout.h"

#include <errno.h>
#include <math.h>
#include <string.h>

const char cmd_layout_usage[] =
    "usage: moore layout TOPO [--json] [--cables FILE] [--bom FILE] [--model NAME|FILE]\n"
    "                    [--switches-per-rack S] [--seed S]\n\n"
    "Places every switch of TOPO (a SPEC or a topology file) in a group, fills racks of\n"
    "rack_units U with each group's switches, every switch followed by its servers, stands\n"
    "the racks in rows on a near-square floor, routes every cable (switch-to-switch and\n"
    "server), buys it in the next stock length (copper within the link speed's reach,\n"
    "optical with a transceiver at each end above) and prices the whole: switch chassis,\n"
    "cables, optics, power. Groups follow the family (Slim Fly rack x, Xpander super-node,\n"
    "Dragonfly group, fat-tree/Clos pod, HyperX/torus first dimension), METIS otherwise.\n\n"
    "  --json                  one JSON object instead of aligned text\n"
    "  --cables FILE           write the cable plan as CSV (whole or not at all): one row\n"
    "                          per cable, switch-to-switch then server, with names, rack,\n"
    "                          row, column, U and port of both ends, routed and bought\n"
    "                          length, type and the part at each end (docs/layout.md)\n"
    "  --bom FILE              write the bill of materials as CSV: item,type,length_m,count,\n"
    "                          unit_cost,cost (switches, racks, cables by type and length,\n"
    "                          transceivers); its costs add up to cost_total\n"
    "  --model NAME|FILE       cost model: 400g (default: a current 400 Gb/s build), 2014\n"
    "                          (the Slim Fly paper's 40 Gb/s prices), or a JSON file of keys\n"
    "                          over the default (\"base\": \"2014\" to start from that one;\n"
    "                          keys in docs/layout.md)\n"
    "  --switches-per-rack S   at most S switches per group and per rack (>= 1; overrides\n"
    "                          the model)\n"
    "  --seed S                METIS seed for graphs without a family placement (default 1)\n\n"
    "Keys: cost_model, placement, groups, switches_per_group_max, racks,\n"
    "switches_per_rack_max, rack_units_max, chassis_radix, cables, cables_intra_rack,\n"
    "cables_inter_rack, cables_electrical, cables_optical, cables_server,\n"
    "cables_server_optical, transceivers, cable_length_total_m, cable_length_max_m,\n"
    "group_pairs_linked, bundle_max, bundle_mean, cost_switches, cost_cables,\n"
    "cost_server_cables, cost_optics, cost_total, cost_per_endpoint, power_w,\n"
    "power_per_endpoint_w.\n";

/* v with its integer digits grouped by thousands and `decimals` decimals. */
static void put_grouped(FILE *out, double v, int decimals)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.*f", decimals, fabs(v));
    size_t digits = strcspn(buf, ".");
    if (v < 0 && strspn(buf, "0.") != strlen(buf))
        fputc('-', out);
    for (size_t i = 0; i < digits; i++) {
        fputc(buf[i], out);
        if (i + 1 < digits && (digits - i - 1) % 3 == 0)
            fputc(',', out);
    }
    fputs(buf + digits, out);
}

/* The report as aligned text, numbers grouped, money ($) as whole dollars. */
static void print_text(const moore_report *r)
{
    size_t w = 0;
    for (int i = 0; i < r->count; i++)
        if (strlen(r->items[i].key) > w)
            w = strlen(r->items[i].key);
    for (int i = 0; i < r->count; i++) {
        const moore_report_item *it = &r->items[i];
        printf("%-*s  ", (int)w, it->key);
        if (it->type == MOORE_VALUE_INT)
            put_grouped(stdout, (double)it->i, 0);
        else if (it->type == MOORE_VALUE_DOUBLE && strncmp(it->key, "cost_", 5) == 0) {
            fputc('$', stdout);
            put_grouped(stdout, it->d, 0);
        } else if (it->type == MOORE_VALUE_DOUBLE)
            put_grouped(stdout, it->d, 2);
        else if (it->type == MOORE_VALUE_STRING)
            fputs(it->s, stdout);
        else
            fputs("-", stdout);
        fputc('\n', stdout);
    }
}

/* A write that failed on the way (a full disk) names its file and reason;
 * errno is still the failed write's when this is called. */
static int write_named(int rc, const char *path, moore_error *err)
{
    int e = errno;
    if (rc == MOORE_EIO)
        moore_error_set(err, rc, "cannot write '%s': %s", path, e ? strerror(e) : "write failed");
    return rc;
}

/* Writes the cable plan and the BOM (each when asked) through temporary files
 * and renames them only when both are complete: both whole, or neither. */
static int write_files(const char *cables, const char *bom, const moore_graph *g,
                       const moore_layout *l, const moore_cost_model *m, moore_error *err)
{
    moore_atomic_file fc = { 0 }, fb = { 0 };
    int rc = cables ? moore_atomic_open(cables, &fc, err) : MOORE_OK;
    int open_c = cables && !rc, open_b = 0; /* opened, neither committed nor aborted */
    if (!rc && bom) {
        rc = moore_atomic_open(bom, &fb, err);
        open_b = !rc;
    }
    if (!rc)
        errno = 0;
    if (!rc && cables)
        rc = write_named(moore_layout_write_cables(g, l, m, fc.f, err), cables, err);
    if (!rc && bom)
        rc = write_named(moore_layout_write_bom(g, l, m, fb.f, err), bom, err);
    if (!rc && open_c) { /* a failed commit removes its own temporary file */
        rc = moore_atomic_commit(&fc, err);
        open_c = 0;
    }
    if (!rc && open_b) {
        rc = moore_atomic_commit(&fb, err);
        open_b = 0;
    }
    if (open_c)
        moore_atomic_abort(&fc);
    if (open_b)
        moore_atomic_abort(&fb);
    return rc;
}

int cmd_layout(int argc, char **argv)
{
    cli_args a;
    const char *topo = NULL, *cables = NULL, *bom = NULL, *model = NULL;
    int json = 0;
    long long cap = -1, seed = 1;
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_flag(&a, "--json", NULL))
            json = 1;
        else if (cli_option(&a, "--cables", NULL))
            cables = a.value;
        else if (cli_option(&a, "--bom", NULL))
            bom = a.value;
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
    int rc = model ? moore_cost_model_load(model, &m, &err) : MOORE_OK;
    if (!rc && cap > 0)
        m.switches_per_rack = (int32_t)cap;
    if (!rc)
        rc = cli_topology_load(topo, &g, &err);
    if (!rc)
        rc = moore_layout_compute(g, &m, &o, &l, &err);
    cli_progress_done();
    if (!rc && (cables || bom))
        rc = write_files(cables, bom, g, &l, &m, &err);
    if (!rc && g->family) /* the identity of the result (docs/json.md) */
        rc = moore_report_string(&r, "family", g->family, &err);
    if (!rc && g->params)
        rc = moore_report_string(&r, "params", g->params, &err);
    if (!rc)
        rc = moore_report_string(&r, "cost_model", m.name, &err);
    if (!rc)
        rc = moore_layout_report(&l, &r, &err);
    if (!rc && json)
        rc = moore_report_write_json(&r, stdout, cli_json_pretty(), &err);
    else if (!rc)
        print_text(&r);
    moore_report_clear(&r);
    moore_layout_clear(&l);
    moore_graph_free(g);
    return rc ? cli_fail(&err) : 0;
}
