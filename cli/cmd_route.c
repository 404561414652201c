/* cmd_route.c — `moore route TOPO --algo ALGO [--json] [--paths FILE
 * [--paths-format csv|netbench]] [--tables FILE [--all-destinations]] [--no-layers]`: compute a
 * routing, its statistics and its
 * deadlock-freedom report, and optionally write its paths and forwarding
 * tables (docs/routing.md). */
#include "cli.h"
#include "moore/deploy.h"
#include "moore/routing.h"

#include <string.h>

const char cmd_route_usage[] =
    "usage: moore route TOPO [--algo ALGO] [--json] [--paths FILE [--paths-format F]]\n"
    "                   [--tables FILE [--all-destinations]] [--no-layers]\n"
    "       moore route TOPO [--algo ALGO] --budget [--limits L] [--all-destinations] [--json]\n\n"
    "Routes of TOPO (a SPEC or a topology file) for every ordered switch pair.\n\n"
    "  --algo A       minimal, ecmp (default), ksp[:k=K] (K shortest simple paths, K=8),\n"
    "                 valiant[:samples=S,seed=X] (via S random intermediates per pair, 8;\n"
    "                 samples=0: every switch), ugal[:samples=S,seed=X] (minimal + Valiant)\n"
    "  --paths F      CSV src,dst,rank,layer,path (path: switch ids joined by '-')\n"
    "  --paths-format csv (default), or netbench: its k-shortest-path cache, 'k=K' then\n"
    "                 rank,src,dst,path lines for switches with servers (default when F\n"
    "                 ends in .kspaths; netbench reads paths-cache/<sha1 of .topology>.kspaths)\n"
    "  --tables F     forwarding tables, CSV switch,dst_first,dst_last,layer,ports,weights:\n"
    "                 per switch one row per run of destinations with one entry; ports as\n"
    "                 'moore layout --cables' numbers them, integer weights, the virtual\n"
    "                 layer (empty with --no-layers); loop-free (ksp/valiant/ugal: the part\n"
    "                 of their paths that is, docs/routing.md)\n"
    "  --all-destinations  tables toward every switch, not only those with servers\n"
    "  --no-layers    skip the channel dependency graph and the layering\n"
    "  --budget       instead: the switch table budget (docs/deploy-ethernet.md): per switch\n"
    "                 budget_routes, budget_groups (distinct next-hop sets), budget_largest_group,\n"
    "                 budget_members (summed over the groups), their maxima\n"
    "  --limits L     routes=N,groups=G,members=M (any of them): adds switches_fitting, fits\n"
    "  --json         one JSON object instead of aligned text\n"
    "  --lfts FILE --fabric F   instead of TOPO: the routes of an LFT dump (dump_fts, OpenSM)\n"
    "                 on the ibnetdiscover fabric F (docs/deploy.md); adds lid_pairs,\n"
    "                 path_length_mean, path_stretch_mean\n"
    "  --tm T         with --lfts: adds tm, throughput (exact: each switch pair's traffic\n"
    "                 split evenly over the destination's HCA LIDs, each on its table\n"
    "                 route), link_util_max, link_util_mean; T as in moore throughput\n"
    "                 (uniform, worst, permutation, an AI job, a CSV file)\n\n"
    "Keys: algo, pairs, paths_total, paths_per_pair_min/_mean/_max, hops_mean, hops_max,\n"
    "table_entries_max, table_entries_total, cdg_acyclic, layers (greedy layering, the one\n"
    "written in --paths), vcs_hop_index (a path of h hops on VCs 0..h-1).\n";

/* `--budget`: the routing's table budget per switch instead of its report. */
static int route_budget(const moore_graph *g, const moore_routing_options *o, int all,
                        const moore_table_limits *lim, moore_report *rep, moore_error *err)
{
    moore_routing *r = NULL;
    int rc = moore_routing_build(g, o, &r, err);
    if (!rc)
        rc = moore_table_budget(g, r, all, lim, rep, err);
    moore_routing_free(r);
    return rc;
}

int cmd_route(int argc, char **argv)
{
    cli_args a;
    const char *topo = NULL, *algo = "ecmp", *paths = NULL, *tables = NULL, *format = NULL;
    const char *lfts = NULL, *fabric = NULL, *limits = NULL, *tm = NULL;
    int json = 0, layers = 1, all_dest = 0, budget = 0;
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_flag(&a, "--json", NULL))
            json = 1;
        else if (cli_flag(&a, "--no-layers", NULL))
            layers = 0;
        else if (cli_flag(&a, "--all-destinations", NULL))
            all_dest = 1;
        else if (cli_flag(&a, "--budget", NULL))
            budget = 1;
        else if (cli_option(&a, "--limits", NULL))
            limits = a.value;
        else if (cli_option(&a, "--algo", NULL))
            algo = a.value;
        else if (cli_option(&a, "--paths", NULL))
            paths = a.value;
        else if (cli_option(&a, "--paths-format", NULL))
            format = a.value;
        else if (cli_option(&a, "--tables", NULL))
            tables = a.value;
        else if (cli_option(&a, "--lfts", NULL))
            lfts = a.value;
        else if (cli_option(&a, "--fabric", NULL))
            fabric = a.value;
        else if (cli_option(&a, "--tm", NULL))
            tm = a.value;
        else if (cli_positional(&a, &topo))
            return 2;
    }
    if (a.bad)
        return 2;
    if (tm && !lfts)
        return cli_usage_error("route: --tm goes with --lfts (else: moore throughput --routing)");
    if (lfts && !topo)
        return cli_route_lfts(lfts, fabric, tm, json);
    if (!topo)
        return cli_usage_error("route: missing TOPO (see 'moore route --help')");
    if (format && strcmp(format, "csv") && strcmp(format, "netbench"))
        return cli_usage_error("route: --paths-format '%s' is not csv or netbench", format);
    if (limits && !budget)
        return cli_usage_error("route: --limits goes with --budget");
    if (budget && (paths || tables))
        return cli_usage_error("route: --budget writes no --paths or --tables");
    if (all_dest && !tables && !budget)
        return cli_usage_error("route: --all-destinations needs --tables FILE or --budget");
    if (format && !paths)
        return cli_usage_error("route: --paths-format needs --paths FILE");
    size_t plen = paths ? strlen(paths) : 0;
    int netbench = format ? !strcmp(format, "netbench")
                          : plen > 8 && !strcmp(paths + plen - 8, ".kspaths");
    moore_error err;
    moore_error_clear(&err);
    moore_routing_options o;
    moore_routing_options_default(&o);
    o.progress = cli_progress;
    o.table_all_destinations = all_dest;
    moore_table_limits lim = { 0, 0, 0 };
    int rc = moore_routing_parse(algo, &o, &err);
    if (!rc && limits)
        rc = moore_table_limits_parse(limits, &lim, &err);
    if (rc)
        return cli_fail(&err);
    moore_graph *g = NULL;
    moore_report rep;
    moore_report_init(&rep);
    rc = cli_topology_load(topo, &g, &err);
    if (!rc && budget)
        rc = route_budget(g, &o, all_dest, limits ? &lim : NULL, &rep, &err);
    else if (!rc)
        rc = moore_routing_run(g, &o, layers, paths, netbench, tables, &rep, NULL, &err);
    cli_progress_done();
    if (!rc)
        rc = json ? moore_report_write_json(&rep, stdout, 1, &err)
                  : moore_report_write_text(&rep, stdout, &err);
    moore_report_clear(&rep);
    moore_graph_free(g);
    return rc ? cli_fail(&err) : 0;
}
