/* cmd_report.c — `moore report [--radix R] [--endpoints N] [--bandwidth B]
 * [--families LIST] [--sweep N1,N2,...] [-o FILE] [--data DIR] [--db FILE]
 * [--rows FILE] [--job JOB --link-rate GBPS [--step-routing R]]`: the comparison as one
 * self-contained HTML page (library: page.h). The job's options are spelled
 * and checked as `moore compare` spells them (compare_step.c). */
#include "cli.h"
#include "compare_step.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "moore/page.h"

const char cmd_report_usage[] =
    "usage: moore report [--radix R] [--endpoints N] [--bandwidth B|any] [--families LIST]\n"
    "                    [--sweep N1,N2,...] [-o FILE] [--data DIR] [--db FILE]\n"
    "                    [--rows FILE] [--model NAME|FILE] [--seed S]\n"
    "                    [--job JOB --link-rate GBPS [--step-routing R]]\n\n"
    "Writes one self-contained HTML page (no network needed to view or print it): the\n"
    "main comparison's table, figures drawn by PLplot against endpoint count (switches,\n"
    "cables, cost, diameter, server-to-server path length), throughput with its bounds,\n"
    "lambda2 against the Ramanujan bound, distance histograms, resilience curves\n"
    "(connected share and throughput against the share of links failed), ECMP and\n"
    "KSP-8 against optimal throughput, with --job one training step's time by phase per\n"
    "family, and the often-quoted claims checked on these numbers.\n\n"
    "  --radix R        switch radix (default 48)\n"
    "  --endpoints N    servers of the main comparison (default 10000)\n"
    "  --bandwidth B    uniform-traffic throughput per server a design must reach\n"
    "                   (default 1 = full bandwidth; 'any' drops the rule)\n"
    "  --families LIST  comma list, or 'all' for every family with a planner (default:\n"
    "                   clos,fattree,slimfly,xpander,jellyfish,dragonfly,hyperx,polarfly,torus)\n"
    "  --sweep LIST     endpoint counts of the figures\n"
    "                   (default 1000,2000,5000,10000,20000)\n"
    "  -o FILE          the page (default report.html); written whole or not at all\n"
    "  --data DIR       also write each figure's numbers as DIR/<figure>.csv\n"
    "  --db FILE        read the metric groups of every topology this sweep database\n"
    "                   holds (moore sweep, docs/sweep.md) instead of measuring them\n"
    "  --rows FILE      the main comparison's rows as 'moore compare --json=lines'\n"
    "                   wrote them for the same --radix, --endpoints, --bandwidth,\n"
    "                   --model and --seed: read instead of searched again\n"
    "  --model NAME|FILE cost model of every cost on the page: 400g (default), 2014, or\n"
    "                   a JSON file (docs/layout.md); every switch priced as a chassis\n"
    "  --seed S         seed for randomised families and metrics (default 1)\n"
    "  --job JOB        also time one training step of JOB on every row of the table\n"
    "                   ('moore step', docs/step-time.md) with links at --link-rate GBPS,\n"
    "                   under optimal routing or --step-routing R: a stacked bar of step\n"
    "                   time by phase per family beside the ideal non-blocking fabric,\n"
    "                   and the rows fastest first with their cost per step\n";

/* "1000,3000,..." into o->sweep; 0 after printing the error. */
static int parse_sweep(const char *list, moore_page_options *o)
{
    o->sweep_count = 0;
    for (const char *s = list; *s;) {
        char *end;
        long long v = strtoll(s, &end, 10);
        if (end == s || (*end && *end != ',') || v < 1 || *s == '+' || *s == ' ') {
            cli_usage_error("report: --sweep value '%.*s' is not a positive integer",
                            (int)strcspn(s, ","), s);
            return 0;
        }
        if (o->sweep_count == MOORE_PAGE_SWEEP_MAX) {
            cli_usage_error("report: --sweep takes at most %d values", MOORE_PAGE_SWEEP_MAX);
            return 0;
        }
        o->sweep[o->sweep_count++] = v;
        s = *end ? end + 1 : end;
    }
    if (o->sweep_count == 0)
        cli_usage_error("report: --sweep is empty");
    return o->sweep_count > 0;
}

static int parse_args(int argc, char **argv, moore_page_options *o, const char **path,
                      const char **model)
{
    cli_args a;
    long long v;
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_option(&a, "--radix", NULL)) {
            if (cli_int_value(&a, "--radix", 3, 100000, &v))
                o->radix = (int32_t)v;
        } else if (cli_option(&a, "--endpoints", NULL)) {
            if (cli_int_value(&a, "--endpoints", 1, 100000000, &v))
                o->endpoints = v;
        } else if (cli_option(&a, "--bandwidth", NULL)) {
            if (strcmp(a.value, "any") == 0)
                o->bandwidth = -1;
            else
                cli_double_value(&a, "--bandwidth", 1e-9, 1e9, &o->bandwidth);
        } else if (cli_option(&a, "--families", NULL))
            o->families = strcmp(a.value, "all") == 0 ? NULL : a.value;
        else if (cli_option(&a, "--sweep", NULL))
            a.bad = !parse_sweep(a.value, o);
        else if (cli_option(&a, "--output", "-o"))
            *path = a.value;
        else if (cli_option(&a, "--data", NULL))
            o->data_dir = a.value;
        else if (cli_option(&a, "--db", NULL))
            o->db = a.value;
        else if (cli_option(&a, "--rows", NULL))
            o->rows = a.value;
        else if (cli_option(&a, "--model", NULL))
            *model = a.value;
        else if (cli_compare_step_option(&a))
            continue;   /* --job, --link-rate, --step-routing, as compare spells them */
        else if (cli_option(&a, "--seed", NULL)) {
            if (cli_int_value(&a, "--seed", 0, (long long)9e18, &v))
                o->metric.seed = (uint64_t)v;
        } else
            return cli_usage_error("report: unexpected argument '%s' (see 'moore report "
                                   "--help')", a.argv[a.i]);
    }
    if (a.bad)
        return 2;
    int rc = cli_compare_step_check("report");
    if (!rc)
        o->job = cli_compare_step_job(&o->link_gbps, &o->step_routing);
    return rc;
}

/* An MPI rank other than the writer takes its share of the measuring (the
 * page is made collectively) and writes nothing: the page to /dev/null, no
 * CSV files. */
static int report_measure_only(moore_page_options *o)
{
    moore_error err;
    moore_error_clear(&err);
    FILE *sink = fopen("/dev/null", "w");
    if (!sink)
        return cli_usage_error("report: cannot open /dev/null: %s", strerror(errno));
    o->data_dir = NULL;
    int rc = moore_page_write(o, sink, &err);
    fclose(sink);
    return rc ? cli_fail(&err) : 0;
}

int cmd_report(int argc, char **argv)
{
    moore_page_options o;
    const char *path = "report.html";
    moore_page_options_default(&o);
    cli_metric_options(&o.metric);
    const char *model_arg = NULL;
    moore_cost_model model;
    int rc = parse_args(argc, argv, &o, &path, &model_arg);
    if (!rc && model_arg && o.db)
        rc = cli_usage_error("report: --model %s cannot reprice the costs stored in --db %s "
                             "(the sweep measured them): drop one or the other", model_arg,
                             o.db);
    if (!rc)
        rc = cli_cost_model(model_arg, &model);
    if (rc)
        return rc;
    o.metric.cost_model = &model;
    FILE *rows = o.rows ? fopen(o.rows, "r") : NULL;
    if (o.rows && !rows)
        return cli_usage_error("report: --rows '%s' cannot be read: %s", o.rows,
                               strerror(errno));
    if (rows)
        fclose(rows);
    struct stat sb; /* outputs are checked before the (long) work */
    if (o.data_dir && stat(o.data_dir, &sb) == 0 && !S_ISDIR(sb.st_mode))
        return cli_usage_error("report: --data '%s' exists and is not a directory", o.data_dir);
    moore_error err;
    moore_error_clear(&err);
    if (!cli_dist_writer())
        return report_measure_only(&o);
    moore_atomic_file af; /* opened first: an unwritable -o creates no --data directory */
    if (moore_atomic_open(path, &af, &err))
        return cli_fail(&err);
    int made_dir = o.data_dir && mkdir(o.data_dir, 0777) == 0;
    if (o.data_dir && !made_dir && errno != EEXIST)
        rc = cli_usage_error("report: cannot create --data directory '%s': %s", o.data_dir,
                             strerror(errno));
    if (!rc) {
        int failed = moore_page_write(&o, af.f, &err);
        cli_progress_done(); /* before a message */
        if (failed)
            rc = cli_fail(&err);
    }
    if (rc)
        moore_atomic_abort(&af);
    else if (moore_atomic_commit(&af, &err))
        rc = cli_fail(&err);
    if (rc && made_dir)
        rmdir(o.data_dir); /* refused input leaves no --data directory (removed only if empty) */
    if (!rc)
        fprintf(stderr, "moore: report written to %s\n", path);
    return rc;
}
