/* cmd_stats.c — `moore stats TOPO [--json] [--metrics LIST | --all]`. */
#include "cli.h"

#include <string.h>

const char cmd_stats_usage[] =
    "usage: moore stats TOPO [--json] [--metrics LIST | --all] [--seed S]\n\n"
    "Measures TOPO (a SPEC or a topology file).\n\n"
    "  --json           one JSON object instead of aligned text\n"
    "  --metrics LIST   comma list of metric groups (default: the cheap ones)\n"
    "  --all            every metric group\n"
    "  --seed S         seed for sampled or randomised metrics (default 1)\n"
    "  --list           list the metric groups\n";

int cmd_stats(int argc, char **argv)
{
    cli_args a;
    const char *topo = NULL, *list = NULL;
    int json = 0;
    moore_metric_options opt;
    cli_metric_options(&opt);
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        long long seed;
        if (cli_flag(&a, "--json", NULL))
            json = 1;
        else if (cli_flag(&a, "--all", NULL))
            list = "all";
        else if (cli_option(&a, "--metrics", "-m")) {
            list = a.value;
            if (list && !*list) /* else nothing would be measured, silently */
                return cli_usage_error("stats: --metrics is empty (give groups such as "
                                       "basic,paths; 'moore stats --list' shows them)");
        }
        else if (cli_option(&a, "--seed", NULL)) {
            if (cli_int_value(&a, "--seed", 0, (long long)9e18, &seed))
                opt.seed = (uint64_t)seed;
        } else if (cli_flag(&a, "--list", NULL)) {
            for (const moore_metric_group *m = moore_metric_groups(); m->name; m++)
                printf("%-10s %s%s\n", m->name, m->help, m->default_on ? " (default)" : "");
            return 0;
        } else if (cli_positional(&a, &topo))
            return 2;
    }
    if (a.bad)
        return 2;
    if (!topo)
        return cli_usage_error("stats: missing TOPO (see 'moore stats --help')");
    moore_error err;
    moore_error_clear(&err);
    moore_graph *g;
    if (cli_topology_load(topo, &g, &err))
        return cli_fail(&err);
    moore_report r;
    moore_report_init(&r);
    int rc = moore_metrics_compute(g, list, &opt, &r, &err);
    cli_progress_done();
    if (!rc)
        rc = json ? moore_report_write_json(&r, stdout, cli_json_pretty(), &err)
                  : moore_report_write_text(&r, stdout, &err);
    moore_report_clear(&r);
    moore_graph_free(g);
    return rc ? cli_fail(&err) : 0;
}
