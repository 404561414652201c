/* cmd_deploy.c — `moore deploy TOPO --ib DIR [--algo A] [--lmc L]` (the
 * fabric file ibsim/ibnetdiscover use and the LFT dump OpenSM's file engine
 * loads), and `moore route --lfts FILE --fabric F` (an LFT dump read back
 * as a moore routing), both on the library's src/deploy/ (docs/deploy.md). */
#include "cli.h"
#include "moore/deploy.h"

#include <stdlib.h>
#include <string.h>

const char cmd_deploy_usage[] =
    "usage: moore deploy TOPO --ib DIR [--algo A] [--lmc L] [--json]\n"
    "       moore deploy TOPO --check-cabling DISCOVERED [--cables PLAN.csv]\n"
    "       moore deploy TOPO --slurm DIR [--node-prefix P]\n"
    "       moore deploy TOPO --frr DIR [--ns-prefix P] [--json]\n"
    "       moore deploy TOPO --static DIR [--algo A] [--ns-prefix P] [--json]\n\n"
    "Puts TOPO (a SPEC or a topology file) on an InfiniBand control plane, or on a\n"
    "routed Ethernet one (docs/deploy-ethernet.md).\n\n"
    "  --ib DIR       write DIR/fabric.topo (ibnetdiscover format: ibsim -s reads it; switch\n"
    "                 ports are the cable plan's ports + 1, then one port per server) and\n"
    "                 DIR/lfts.dump (dump_fts format: opensm -R file -U DIR/lfts.dump loads it)\n"
    "  --algo A       the routing whose tables are written (as moore route: minimal, ecmp\n"
    "                 (default), ksp[:k=K], valiant[...], ugal[...]); made destination-based\n"
    "                 and loop-free per LID (docs/deploy.md)\n"
    "  --lmc L        0..7: every HCA gets 2^L LIDs, LID offset k takes the routing's k-th\n"
    "                 next hop (start opensm with -l L)\n"
    "  --json         one JSON object instead of aligned text\n"
    "  --check-cabling F  compare the ibnetdiscover output F of the built fabric with the plan\n"
    "                 (--cables PLAN.csv as `moore layout --cables` wrote it, else TOPO's own):\n"
    "                 one line per missing, extra or miswired switch port; exit 3 if any\n"
    "  --slurm DIR    write DIR/topology.conf (tree form) and, when the family has groups,\n"
    "                 DIR/topology-block.conf (block form); servers are named P0, P1, ...\n"
    "  --node-prefix P  Slurm node name prefix (default \"n\")\n"
    "  --frr DIR      per switch DIR/s<id>/frr.conf (FRR: BGP unnumbered on interfaces swpN,\n"
    "                 N = cable plan port + 1; one ASN per switch, RFC 7938 tiers for Clos\n"
    "                 and fat-tree; loopback 10.0.0.0+id+1/32, servers 10.128.id.0/24)\n"
    "  --static DIR   per switch DIR/s<id>/routes.batch (ip -batch: the --algo routing's\n"
    "                 loop-free table, default ecmp, via 169.254.0.1 onlink)\n"
    "                 Both also write DIR/twin.json and DIR/ecmp.txt for scripts/twin.sh\n"
    "  --ns-prefix P  twin namespace names P + \"s<id>\" (default \"moore-\")\n\n"
    "Keys: algo, switches, hcas, lmc, lid_top, table_entries, sls (SLs of DIR/qos-policy.conf,\n"
    "written for minimal and ecmp: opensm -Q -Y it; null when none); with --frr/--static:\n"
    "algo, switches, interfaces, asn_scheme, max_paths, routes (--static).\n"
    "Read tables back with: moore route --lfts FILE --fabric DIR/fabric.topo --json.\n";

/* The report on stdout, as JSON or aligned text. */
static int print_report(const moore_report *r, int json, moore_error *err)
{
    return json ? moore_report_write_json(r, stdout, cli_json_pretty(), err)
                : moore_report_write_text(r, stdout, err);
}

/* `moore route --lfts FILE --fabric F [--tm T] [--json]` (called by cmd_route). */
int cli_route_lfts(const char *lfts, const char *fabric, const char *tm, int json)
{
    if (!fabric)
        return cli_usage_error("route: --lfts needs --fabric FILE (the ibnetdiscover file)");
    moore_error err;
    moore_error_clear(&err);
    moore_report r;
    moore_report_init(&r);
    moore_ib_fabric *f = NULL;
    moore_ib_lfts *l = NULL;
    moore_graph *g = NULL;
    moore_routing *rt = NULL;
    moore_traffic *t = NULL;
    double mean = 0;
    int64_t pairs = 0;
    int rc = moore_ib_fabric_read(fabric, &f, &err);
    if (!rc)
        rc = moore_ib_lfts_read(lfts, f, &l, &err);
    if (!rc)
        rc = moore_ib_fabric_graph(f, &g, &err);
    if (!rc)
        rc = moore_ib_lfts_routing(g, f, l, &rt, &mean, &pairs, &err);
    if (!rc)
        rc = moore_ib_routing_report(g, rt, mean, pairs, &r, &err);
    if (!rc)
        rc = moore_ib_hca_layers(g, f, l, &r, &err);
    if (!rc && tm)
        rc = moore_traffic_make(g, tm, 1, &t, &err);
    if (!rc && tm)
        rc = moore_ib_lfts_throughput(g, f, l, t, &r, &err);
    if (!rc)
        rc = print_report(&r, json, &err);
    moore_traffic_free(t);
    moore_routing_free(rt);
    moore_graph_free(g);
    moore_ib_lfts_free(l);
    moore_ib_fabric_free(f);
    moore_report_clear(&r);
    return rc ? cli_fail(&err) : 0;
}

static const char *end_name(const moore_ib_fabric *f, int32_t node, char *buf, size_t len)
{
    if (node == -1)
        return "no cable";
    if (node == -2)
        return "a server";
    snprintf(buf, len, "switch %d '%s'", (int)node, f->name[node]);
    return buf;
}

/* Prints one line per problem; returns 0 when the fabric matches, 3 if not. */
static int check_cabling(const moore_graph *g, const char *found_path, const char *plan_csv)
{
    moore_error err;
    moore_error_clear(&err);
    moore_ib_fabric *plan = NULL, *found = NULL;
    moore_cable_problem *list = NULL;
    int64_t n = 0;
    int rc = plan_csv ? moore_ib_fabric_plan_csv(g, plan_csv, &plan, &err)
                      : moore_ib_fabric_from_graph(g, &plan, &err);
    if (!rc)
        rc = moore_ib_fabric_read(found_path, &found, &err);
    if (!rc)
        rc = moore_ib_cabling_check(plan, found, &list, &n, &err);
    static const char *what[] = { "missing", "extra", "miswired" };
    for (int64_t i = 0; !rc && i < n; i++) {
        const moore_cable_problem *c = &list[i];
        char a[160], b[160];
        printf("%s: switch %d '%s' port %d: expected %s", what[c->fault], (int)c->sw,
               plan->name[c->sw], (int)c->port, end_name(plan, c->want_node, a, sizeof a));
        if (c->want_node >= 0)
            printf(" port %d", (int)c->want_port);
        if (c->got_node == -3)
            printf(", found '%s' port %d\n", found->name[c->got_found], (int)c->got_port);
        else if (c->got_node >= 0)
            printf(", found %s port %d\n", end_name(plan, c->got_node, b, sizeof b), (int)c->got_port);
        else
            printf(", found %s\n", end_name(plan, c->got_node, b, sizeof b));
    }
    if (!rc && n == 0)
        printf("cabling matches the plan: %d switches, every port as planned\n", (int)plan->switches);
    free(list);
    moore_ib_fabric_free(plan);
    moore_ib_fabric_free(found);
    return rc ? cli_fail(&err) : n ? 3 : 0;
}

int cmd_deploy(int argc, char **argv)
{
    cli_args a;
    const char *topo = NULL, *ib = NULL, *algo = "ecmp", *check = NULL, *cables = NULL;
    const char *slurm = NULL, *prefix = "n", *frr = NULL, *stat = NULL, *ns = "moore-";
    int algo_given = 0;
    int json = 0;
    long long lmc = 0;
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_flag(&a, "--json", NULL))
            json = 1;
        else if (cli_option(&a, "--ib", NULL))
            ib = a.value;
        else if (cli_option(&a, "--check-cabling", NULL))
            check = a.value;
        else if (cli_option(&a, "--cables", NULL))
            cables = a.value;
        else if (cli_option(&a, "--slurm", NULL))
            slurm = a.value;
        else if (cli_option(&a, "--node-prefix", NULL))
            prefix = a.value;
        else if (cli_option(&a, "--frr", NULL))
            frr = a.value;
        else if (cli_option(&a, "--static", NULL))
            stat = a.value;
        else if (cli_option(&a, "--ns-prefix", NULL))
            ns = a.value;
        else if (cli_option(&a, "--algo", NULL))
            algo = a.value, algo_given = 1;
        else if (cli_option(&a, "--lmc", NULL))
            cli_int_value(&a, "--lmc", 0, MOORE_IB_LMC_MAX, &lmc);
        else if (cli_positional(&a, &topo))
            return 2;
    }
    if (a.bad)
        return 2;
    if (!topo)
        return cli_usage_error("deploy: missing TOPO (see 'moore deploy --help')");
    if (!!ib + !!check + !!slurm + !!frr + !!stat != 1)
        return cli_usage_error("deploy: give exactly one of --ib DIR, --check-cabling FILE, "
                               "--slurm DIR, --frr DIR, --static DIR");
    if (strcmp(ns, "moore-") && !frr && !stat)
        return cli_usage_error("deploy: --ns-prefix goes with --frr or --static");
    if (frr && algo_given)
        return cli_usage_error("deploy: --frr routes by BGP (ECMP); --algo goes with --ib or "
                               "--static");
    if (cables && !check)
        return cli_usage_error("deploy: --cables PLAN.csv goes with --check-cabling");
    moore_error err;
    moore_error_clear(&err);
    moore_routing_options o;
    moore_routing_options_default(&o);
    o.threads = cli_threads();
    moore_report r;
    moore_report_init(&r);
    moore_graph *g = NULL;
    int status = 0; /* check_cabling's exit status (it reports its own failure) */
    int rc = moore_routing_parse(algo, &o, &err);
    if (!rc)
        rc = cli_topology_load(topo, &g, &err);
    if (!rc && check)
        status = check_cabling(g, check, cables);
    if (!rc && slurm)
        rc = moore_slurm_write(g, slurm, prefix, &err);
    if (!rc && slurm)
        rc = moore_report_string(&r, "slurm", slurm, &err);
    if (!rc && ib)
        rc = moore_ib_deploy(g, &o, (int32_t)lmc, ib, &r, &err);
    if (!rc && (frr || stat))
        rc = moore_eth_deploy(g, &o, frr ? MOORE_ETH_FRR : MOORE_ETH_STATIC, ns, frr ? frr : stat,
                              &r, &err);
    if (!rc && !check)
        rc = print_report(&r, json, &err);
    moore_graph_free(g);
    moore_report_clear(&r);
    return rc ? cli_fail(&err) : status;
}
