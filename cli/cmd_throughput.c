/* cmd_throughput.c — `moore throughput TOPO --tm uniform|permutation|worst|FILE
 * [--exact | --eps E] [--seed S] [--json]`: the maximum concurrent flow of a
 * traffic matrix, exact (LP) or approximate with proven bounds, plus TUB. */
#include "cli.h"
#include "moore/flow.h"
#include "moore/traffic.h"

#include <string.h>

const char cmd_throughput_usage[] =
    "usage: moore throughput TOPO [--tm uniform|permutation|worst|FILE] [--exact | --eps E]\n"
    "                        [--seed S] [--json]\n\n"
    "Throughput of TOPO (a SPEC or a topology file): the largest θ such that θ times the\n"
    "traffic matrix can be routed with capacity 1 per direction on every switch link, each\n"
    "server sending 1 in total.\n\n"
    "  --tm T      uniform (all-to-all, default), permutation (seeded switch derangement),\n"
    "              worst (longest matching), or a CSV file of 'src,dst,demand' lines\n"
    "  --exact     solve the LP exactly (Clp); practical up to a few hundred switches\n"
    "  --eps E     approximation: stop once upper <= (1+E)*lower (default 0.05)\n"
    "  --seed S    seed of the permutation matrix (default 1)\n"
    "  --json      one JSON object instead of aligned text\n\n"
    "Keys: throughput (exact value, or the proven lower bound), lower, upper, method, tub\n"
    "(2|E| / sum T*dist), link_util_max and link_util_mean (arc utilisation of the flow).\n";

static int report(moore_report *r, const moore_graph *g, const moore_traffic *t,
                  const moore_flow_result *f, double tub, double eps, int exact, uint64_t seed,
                  moore_error *err)
{
    int rc = moore_report_string(r, "tm", t->name, err);
    if (!rc && strcmp(t->name, "permutation") == 0)
        rc = moore_report_int(r, "seed", (int64_t)seed, err);
    if (!rc) rc = moore_report_int(r, "switches", g->n, err);
    if (!rc) rc = moore_report_int(r, "commodities", f->commodities, err);
    if (!rc) rc = moore_report_double(r, "demand_total", t->total, err);
    if (!rc) rc = moore_report_double(r, "throughput", f->throughput, err);
    if (!rc) rc = moore_report_double(r, "lower", f->lower, err);
    if (!rc) rc = moore_report_double(r, "upper", f->upper, err);
    if (!rc) rc = moore_report_string(r, "method", f->method, err);
    if (!rc && !exact) rc = moore_report_double(r, "eps", eps, err);
    if (!rc && !exact) rc = moore_report_bool(r, "converged", f->converged, err);
    if (!rc) rc = moore_report_int(r, exact ? "lp_iterations" : "phases", f->phases, err);
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

int cmd_throughput(int argc, char **argv)
{
    cli_args a;
    const char *topo = NULL, *tm = "uniform";
    int json = 0, exact = 0, eps_given = 0;
    long long seed = 1;
    moore_flow_options opt;
    moore_flow_options_default(&opt);
    opt.progress = cli_progress;
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_flag(&a, "--json", NULL))
            json = 1;
        else if (cli_flag(&a, "--exact", NULL))
            exact = 1;
        else if (cli_option(&a, "--tm", NULL))
            tm = a.value;
        else if (cli_option(&a, "--eps", NULL)) {
            if (cli_double_value(&a, "--eps", 1e-4, 1.0, &opt.eps))
                eps_given = 1;
        } else if (cli_option(&a, "--seed", NULL))
            cli_int_value(&a, "--seed", 0, (long long)9e18, &seed);
        else if (cli_positional(&a, &topo))
            return 2;
    }
    if (a.bad)
        return 2;
    if (!topo)
        return cli_usage_error("throughput: missing TOPO (see 'moore throughput --help')");
    if (exact && eps_given)
        return cli_usage_error("throughput: give --exact or --eps, not both");
    if (!tm || !*tm)
        return cli_usage_error("throughput: --tm needs uniform, permutation, worst or a file");

    moore_error err;
    moore_error_clear(&err);
    moore_graph *g = NULL;
    moore_traffic *t = NULL;
    moore_report r;
    moore_report_init(&r);
    moore_flow_result f;
    double tub = 0;
    int rc = moore_topology_load(topo, &g, &err);
    if (!rc)
        rc = moore_traffic_make(g, tm, (uint64_t)seed, &t, &err);
    if (!rc)
        rc = exact ? moore_flow_exact(g, t, &opt, &f, &err)
                   : moore_flow_approx(g, t, &opt, &f, &err);
    if (!rc)
        rc = moore_flow_tub(g, t, &tub, &err);
    cli_progress_done();
    if (!rc)
        rc = report(&r, g, t, &f, tub, opt.eps, exact, (uint64_t)seed, &err);
    if (!rc)
        rc = json ? moore_report_write_json(&r, stdout, cli_json_pretty(), &err)
                  : moore_report_write_text(&r, stdout, &err);
    moore_report_free(&r);
    moore_traffic_free(t);
    moore_graph_free(g);
    return rc ? cli_fail(&err) : 0;
}
