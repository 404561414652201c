/* cmd_throughput.c — `moore throughput TOPO --tm uniform|permutation|worst|FILE
 * [--exact [--method M] | --eps E] [--time-limit S] [--seed S] [--json]`: the
 * maximum concurrent flow of a traffic matrix, exact or approximate with
 * proven bounds, plus TUB. Long runs show their bounds on stderr as they
 * improve; --time-limit, SIGINT and SIGTERM stop them with the best bounds so
 * far (the handler only sets a flag the library polls through
 * moore_flow_options.cancelled). */
#include "cli.h"
#include "moore/flow.h"
#include "moore/routing.h"
#include "moore/traffic.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

const char cmd_throughput_usage[] =
    "usage: moore throughput TOPO [--tm uniform|permutation|worst|hose|FILE]\n"
    "                        [--exact [--method auto|arc|colgen] | --eps E]\n"
    "                        [--time-limit SECONDS] [--seed S] [--progress] [--json]\n\n"
    "Throughput of TOPO (a SPEC or a topology file): the largest θ such that θ times the\n"
    "traffic matrix can be routed with capacity 1 per direction on every switch link, each\n"
    "server sending 1 in total.\n\n"
    "  --tm T      uniform (all-to-all, default), permutation (seeded switch derangement),\n"
    "              worst (longest matching), an AI training job or collective:\n"
    "              llm:tp=T,pp=P,dp=D[,ep=E,topk=K,place=linear|random|group,...],\n"
    "              alltoall[:servers=N], allreduce[:algo=ring|tree|hierarchical]\n"
    "              (docs/ai-traffic.md), or a CSV file of 'src,dst,demand' lines;\n"
    "              hose: proven bounds on the throughput of every matrix in which each\n"
    "              server sends and receives at most 1 (lower: two-phase routing;\n"
    "              upper: uniform, longest matching, cuts; keys lower, upper, method);\n"
    "              fast by shortest-path splits, --eps E adds the approximation,\n"
    "              --exact the exact LP\n"
    "  --exact     the exact value (Clp): the arc LP, or the path LP by column generation,\n"
    "              which ends with lower and upper within 1e-7 (docs/throughput.md)\n"
    "  --method M  with --exact: auto (default: colgen, the faster), arc, colgen\n"
    "  --eps E     approximation: stop once upper <= (1+E)*lower (default 0.05)\n"
    "  --time-limit S  stop after S seconds with the best proven bounds so far\n"
    "              (converged false, stopped \"time-limit\"); SIGINT/SIGTERM do the same\n"
    "              (stopped \"cancelled\", exit status 130/143)\n"
    "  --seed S    seed of the permutation matrix (default 1)\n"
    "  --routing R optimal (default: any split), or only the paths of minimal, ecmp,\n"
    "              ksp[:k=K], valiant[:samples=S], ugal (see 'moore route --help')\n"
    "  --progress  one line on stderr per improvement of the bounds, also when stderr\n"
    "              is not a terminal: phase, lower, upper, gap, elapsed; and within a\n"
    "              long step (a uniform routing pass) its share done, every 10 s\n"
    "  --json      one JSON object instead of aligned text\n\n"
    "Keys: topology, family, params (the identity, docs/json.md), routing, tm, switches,\n"
    "commodities, demand_total, throughput (exact value, or the proven lower bound), lower,\n"
    "upper, gap (upper/lower - 1), method (garg-konemann, shortest-paths, lp-clp or\n"
    "colgen-clp), converged, stopped (only when stopped early), eps and phases\n"
    "(approximation, or the shortest-path routing's passes), rounds and columns\n"
    "(column generation), lp_iterations (the arc LP), tub (2|E| / sum T*dist),\n"
    "link_util_max and link_util_mean (arc utilisation of the flow). No time: the output\n"
    "is the same on every machine.\n"
    "While it runs, stderr shows phase, lower, upper, gap and elapsed time (redrawn on a\n"
    "terminal, one line every 10 s otherwise).\n";

/* Set by SIGINT/SIGTERM; polled by the library through opt.cancelled. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

static int cancelled(void *ctx)
{
    (void)ctx;
    return stop_signal != 0;
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND; /* a second signal ends the process as usual */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* The bounds as they improve: redrawn on a terminal, else every 10 s (with
 * --progress: one line per improvement). */
typedef struct bounds_view {
    int tty, shown, every; /* every: --progress, one line per improvement */
    double last;
    int tenth;             /* the last tenth of a pass seen (show_pass) */
    double pass_line;      /* when show_pass last printed a line (monotonic s) */
} bounds_view;

/* An exact LP the library refused as too big: name the option that selects
 * the approximation the library's message points to. */
static void hint_approximation(int rc, int exact, moore_error *err)
{
    if (rc != MOORE_ETOOBIG || !exact)
        return;
    size_t len = strlen(err->msg);
    snprintf(err->msg + len, sizeof err->msg - len, " (drop --exact; --eps sets its accuracy)");
}

static void show_bounds(void *ctx, int64_t phase, double lower, double upper, double seconds)
{
    bounds_view *v = ctx;
    if (!v->tty && !v->every && seconds - v->last < 10)
        return;
    v->last = seconds;
    v->shown = 1;
    fprintf(stderr, "%sthroughput phase %lld lower %.6g upper %.6g gap %.3g%% %.1f s%s",
            v->tty ? "\r" : "", (long long)phase, lower, upper,
            lower > 0 ? 100 * (upper / lower - 1) : INFINITY, seconds, v->tty ? "  " : "\n");
    fflush(stderr);
}

/* How far a long step has come (a pass of the uniform routing takes minutes
 * at 64,000 switches and shows no bounds until it ends): redrawn on a
 * terminal, else with --progress a line per tenth, at most one per 10 s. */
static void show_pass(void *ctx, const char *what, double fraction)
{
    bounds_view *v = ctx;
    int tenth = (int)(10 * fraction);
    double now = cli_seconds();
    if (v->tty) {
        fprintf(stderr, "\r%-40.40s %5.1f%%  ", what, 100 * fraction);
        v->shown = 1;
    } else if (v->every && tenth != v->tenth && now - v->pass_line >= 10) {
        fprintf(stderr, "moore: %s %d%%\n", what, 10 * tenth);
        v->pass_line = now;
    }
    v->tenth = tenth;
    fflush(stderr);
}

/* --tm hose: bounds on the throughput of every hose matrix (flow.h). */
static int throughput_hose(const char *topo, moore_flow_options *opt, int effort, int json,
                           bounds_view *view)
{
    moore_error err;
    moore_error_clear(&err);
    moore_graph *g = NULL;
    moore_report r;
    moore_report_init(&r);
    moore_hose_result h;
    catch_signals();
    int rc = cli_topology_load(topo, &g, &err);
    if (!rc)
        rc = moore_flow_hose(g, opt, effort, &h, &err);
    hint_approximation(rc, effort == 2, &err);
    if (view->tty && view->shown)
        fprintf(stderr, "\r%70s\r", "");
    if (!rc)
        rc = moore_flow_hose_report(&r, g, &h, opt->eps, effort, &err);
    if (!rc)
        rc = json ? moore_report_write_json(&r, stdout, cli_json_pretty(), &err)
                  : moore_report_write_text(&r, stdout, &err);
    moore_report_clear(&r);
    moore_graph_free(g);
    if (rc)
        return cli_fail(&err);
    return stop_signal ? 128 + stop_signal : 0;
}

int cmd_throughput(int argc, char **argv)
{
    cli_args a;
    const char *topo = NULL, *tm = "uniform", *routing = NULL, *method = NULL;
    int json = 0, exact = 0, eps_given = 0;
    long long seed = 1;
    moore_flow_options opt;
    moore_flow_options_default(&opt);
    bounds_view view = { isatty(2), 0, 0, 0, -1, cli_seconds() };
    opt.bounds = show_bounds;
    opt.bounds_ctx = &view;
    opt.progress = show_pass;
    opt.progress_ctx = &view;
    opt.cancelled = cancelled;
    opt.dist = cli_dist(); /* the sources of each batch across MPI ranks (dist.h) */
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_flag(&a, "--json", NULL))
            json = 1;
        else if (cli_flag(&a, "--progress", NULL))
            view.every = 1;
        else if (cli_flag(&a, "--exact", NULL))
            exact = 1;
        else if (cli_option(&a, "--tm", NULL))
            tm = a.value;
        else if (cli_option(&a, "--eps", NULL)) {
            if (cli_double_value(&a, "--eps", 1e-4, 1.0, &opt.eps))
                eps_given = 1;
        } else if (cli_option(&a, "--method", NULL))
            method = a.value;
        else if (cli_option(&a, "--time-limit", NULL))
            cli_double_value(&a, "--time-limit", 1e-3, 1e9, &opt.time_limit);
        else if (cli_option(&a, "--seed", NULL))
            cli_int_value(&a, "--seed", 0, (long long)9e18, &seed);
        else if (cli_option(&a, "--routing", NULL)) /* routing: see docs/routing.md */
            routing = a.value;
        else if (cli_positional(&a, &topo))
            return 2;
    }
    if (a.bad)
        return 2;
    if (!topo)
        return cli_usage_error("throughput: missing TOPO (see 'moore throughput --help')");
    if (exact && eps_given)
        return cli_usage_error("throughput: give --exact or --eps, not both");
    if (method && !exact)
        return cli_usage_error("throughput: --method needs --exact");
    if (method && strcmp(method, "auto") && strcmp(method, "arc") && strcmp(method, "colgen"))
        return cli_usage_error("throughput: --method '%s' is not auto, arc or colgen", method);
    opt.exact_method = !method || !strcmp(method, "auto") ? MOORE_FLOW_EXACT_AUTO
                       : !strcmp(method, "arc")          ? MOORE_FLOW_EXACT_ARC
                                                         : MOORE_FLOW_EXACT_COLGEN;
    if (!tm || !*tm)
        return cli_usage_error("throughput: --tm needs uniform, permutation, worst, llm:..., "
                               "alltoall, allreduce or a file");

    if (!strcmp(tm, "hose"))
        return routing && strcmp(routing, "optimal")
                   ? cli_usage_error("throughput: --tm hose bounds the optimal routing; "
                                     "drop --routing")
                   : (method ? cli_usage_error("throughput: --method is not used with --tm hose")
                             : throughput_hose(topo, &opt, exact ? 2 : eps_given, json, &view));

    moore_error err;
    moore_error_clear(&err);
    moore_graph *g = NULL;
    moore_traffic *t = NULL;
    moore_report r;
    moore_report_init(&r);
    moore_flow_result f;
    double tub = 0;
    catch_signals();
    int rc = cli_topology_load(topo, &g, &err);
    int optimal = !routing || !strcmp(routing, "optimal");
    /* The optimal routing's uniform matrix in O(n) memory (traffic.h). */
    if (!rc && optimal && !strcmp(tm, "uniform"))
        rc = moore_traffic_uniform_compact(g, &t, &err);
    else if (!rc)
        rc = moore_traffic_make(g, tm, (uint64_t)seed, &t, &err);
    if (!rc && !optimal) { /* --routing R (routing.h) */
        rc = moore_routed_throughput_spec(g, routing, t, &opt, exact, &f, &err);
        hint_approximation(rc, exact, &err);
    } else if (!rc) {
        rc = exact ? moore_flow_exact(g, t, &opt, &f, &err)
                   : moore_flow_approx(g, t, &opt, &f, &err);
        hint_approximation(rc, exact, &err);
    }
    if (!rc)
        rc = moore_report_string(&r, "routing", routing ? routing : "optimal", &err);
    if (!rc)
        rc = moore_flow_tub(g, t, &tub, &err);
    if (view.tty && view.shown)
        fprintf(stderr, "\r%70s\r", "");
    if (!rc)
        rc = moore_flow_report(&r, g, t, &f, tub, opt.eps, exact, (uint64_t)seed, &err);
    if (!rc)
        rc = json ? moore_report_write_json(&r, stdout, cli_json_pretty(), &err)
                  : moore_report_write_text(&r, stdout, &err);
    moore_report_clear(&r);
    moore_traffic_free(t);
    moore_graph_free(g);
    if (rc)
        return cli_fail(&err);
    return stop_signal ? 128 + stop_signal : 0;
}
