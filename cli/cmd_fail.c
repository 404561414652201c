/* cmd_fail.c — `moore fail TOPO (--links F,... | --switches F,... | --racks N,...)
 * [--independent] [--trials T] [--metrics LIST] [--eps E] [--seed S] [--json]`
 * and `moore fail TOPO --until-disconnected [--switches] [--trials T]`: what a
 * topology keeps under seeded random failures (docs/resilience.md). Parses,
 * calls src/resilience/, prints one row per failure level as it is done. */
#include "cli.h"
#include "table.h"
#include "moore/layout.h"
#include "moore/resilience.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char cmd_fail_usage[] =
    "usage: moore fail TOPO (--links F,... | --switches F,... | --racks N,...)\n"
    "                  [--independent] [--trials T] [--metrics LIST] [--eps E] [--seed S] [--json]\n"
    "       moore fail TOPO --until-disconnected [--switches] [--trials T] [--seed S] [--json]\n\n"
    "Seeded random failures of TOPO (a SPEC or a topology file), T trials per level\n"
    "(default 100), and the metrics of each surviving graph.\n\n"
    "  --links F,...     fail exactly round(F*links) links, uniform without replacement\n"
    "  --independent     with --links: fail each link independently with probability F\n"
    "  --switches F,...  fail round(F*switches) switches; their servers are lost with them\n"
    "  --racks N,...     fail N whole racks (racks as 'moore layout' places them)\n"
    "  --bundles N,...   fail N whole rack-to-rack cable bundles\n"
    "  --metrics LIST    diameter, avg_path_length, avg_path_length_endpoints,\n"
    "                    throughput_uniform, bisection, or all (default: the first three)\n"
    "  --eps E           throughput_uniform: approximation accuracy (default 0.05)\n"
    "  --until-disconnected  remove links (switches with --switches) in random order until\n"
    "                    the graph disconnects; report the fraction removed at that moment\n"
    "  --seed S          seed of the draws (default 1); same seed, same numbers\n"
    "  --json            JSON instead of one aligned table\n\n"
    "Per level: connected_fraction (share of trials whose survivors are connected), and\n"
    "for each metric over the connected trials: <key>_mean, _min, _p5, _p50, _p95, _max, _std;\n"
    "switches_lost, links_lost (failed, or attached to a failed switch) and servers_lost\n"
    "(on failed switches), means over the trials.\n";

#define FAIL_MAX_LEVELS 64

typedef struct fail_args {
    const char *topo, *levels, *metrics;
    moore_failure_kind kind;
    int independent, until, switches_flag, json, racks, eps_given;
    long long trials, seed;
    double eps;
} fail_args;

/* "0.05,0.1" → levels; each a number in [0, hi] (an integer when integral). */
static int parse_levels(const char *list, double hi, int integral, double *out, int *count)
{
    *count = 0;
    for (const char *s = list; *s;) {
        char *end;
        double v = strtod(s, &end);
        if (end == s || (*end && *end != ',') || !(v >= 0 && v <= hi) ||
            (integral && v != floor(v)))
            return cli_usage_error("fail: level '%.*s' must be %s", (int)strcspn(s, ","), s,
                                   integral ? "a whole number >= 0" : "a number in [0, 1]");
        if (*count == FAIL_MAX_LEVELS)
            return cli_usage_error("fail: at most %d failure levels", FAIL_MAX_LEVELS);
        out[(*count)++] = v;
        if (*end == ',' && end[1] == '\0') /* "0.1,": as ",0.1" is, a level is missing */
            return cli_usage_error("fail: the level list '%s' ends with ','", list);
        s = *end ? end + 1 : end;
    }
    if (*count == 0)
        return cli_usage_error("fail: give at least one failure level");
    return 0;
}

static int has_flag(int argc, char **argv, const char *flag)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], flag) == 0)
            return 1;
    return 0;
}

/* Whether the metric list asks for throughput_uniform, the one --eps tunes
 * (a list with an unknown name counts as yes: the library refuses it later
 * with its own line). */
static int eps_used(const char *metrics)
{
    unsigned mask = 0;
    moore_error err;
    moore_error_clear(&err);
    if (!metrics)
        return 0;
    return moore_fail_metric_mask(metrics, &mask, &err) != MOORE_OK ||
           (mask & 1u << MOORE_FAIL_THROUGHPUT);
}

static int parse(int argc, char **argv, fail_args *f)
{
    cli_args a;
    int given = 0;
    memset(f, 0, sizeof *f);
    f->trials = 100;
    f->seed = 1;
    f->eps = 0.05;
    f->until = has_flag(argc, argv, "--until-disconnected");
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_flag(&a, "--json", NULL))
            f->json = 1;
        else if (cli_flag(&a, "--independent", NULL))
            f->independent = 1;
        else if (cli_flag(&a, "--until-disconnected", NULL))
            continue;
        else if (f->until && cli_flag(&a, "--switches", NULL))
            f->switches_flag = 1;
        else if (f->until && cli_flag(&a, "--links", NULL))
            f->switches_flag = 0;
        else if (cli_option(&a, "--links", NULL)) {
            f->kind = MOORE_FAIL_LINKS_FRACTION;
            f->levels = a.value;
            given++;
        } else if (cli_option(&a, "--switches", NULL)) {
            f->kind = MOORE_FAIL_SWITCHES;
            f->levels = a.value;
            given++;
        } else if (cli_option(&a, "--racks", NULL)) {
            f->kind = MOORE_FAIL_RACKS;
            f->levels = a.value;
            f->racks = 1;
            given++;
        } else if (cli_option(&a, "--bundles", NULL)) {
            f->kind = MOORE_FAIL_BUNDLES;
            f->levels = a.value;
            f->racks = 1;
            given++;
        } else if (cli_option(&a, "--trials", NULL))
            cli_int_value(&a, "--trials", 1, MOORE_FAIL_MAX_TRIALS, &f->trials);
        else if (cli_option(&a, "--metrics", NULL))
            f->metrics = a.value;
        else if (cli_option(&a, "--eps", NULL)) {
            cli_double_value(&a, "--eps", 1e-4, 1.0, &f->eps);
            f->eps_given = 1;
        }
        else if (cli_option(&a, "--seed", NULL))
            cli_int_value(&a, "--seed", 0, (long long)9e18, &f->seed);
        else if (cli_positional(&a, &f->topo))
            return 2;
    }
    if (a.bad)
        return 2;
    if (!f->topo)
        return cli_usage_error("fail: missing TOPO (see 'moore fail --help')");
    if (f->until && (given || f->metrics))
        return cli_usage_error("fail: --until-disconnected takes no failure levels or metrics");
    if (!f->until && given != 1)
        return cli_usage_error("fail: give one of --links, --switches, --racks, or "
                               "--until-disconnected");
    if (f->independent && f->kind != MOORE_FAIL_LINKS_FRACTION)
        return cli_usage_error("fail: --independent applies to --links only");
    if (f->independent)
        f->kind = MOORE_FAIL_LINKS_PROB;
    if (f->eps_given && !eps_used(f->metrics))
        return cli_usage_error("fail: --eps sets the accuracy of the throughput_uniform metric; "
                               "add it with --metrics throughput_uniform (or all)");
    return 0;
}

/* Text column of a report key: metric names shortened so the table fits. */
static void short_key(const char *key, char *out, size_t len)
{
    static const char *const LONG[][2] = {
        { "avg_path_length_endpoints_", "apl_ep." }, { "avg_path_length_", "apl." },
        { "diameter_", "diam." }, { "throughput_uniform_", "thru." }, { "bisection_", "bisect." },
        { "connected_fraction", "connected" }, { "switches_lost_mean", "switches_lost" },
        { "links_lost_mean", "links_lost" }, { "servers_lost_mean", "servers_lost" }
    };
    for (size_t i = 0; i < sizeof LONG / sizeof LONG[0]; i++) {
        size_t n = strlen(LONG[i][0]);
        if (strncmp(key, LONG[i][0], n) == 0) {
            snprintf(out, len, "%s%s", LONG[i][1], key + n);
            return;
        }
    }
    snprintf(out, len, "%s", key);
}

/* The statistics of a metric: its text shows _mean and _p5.._p95; the rest
 * (min, p50, max, std) are in --json. */
static const char *const STAT_SHOWN[] = { "_mean", NULL };
static const char *const STAT_HIDDEN[] = { "_min", "_p5", "_p50", "_p95", "_max", "_std", NULL };

/* Where key's statistic suffix (one of list) starts, or NULL; only for a
 * metric that has all of them (a _mean alone, e.g. links_failed_mean, is a
 * plain column). */
static const char *stat_suffix(const moore_report *r, const char *key,
                               const char *const *list)
{
    for (int k = 0; list[k]; k++) {
        size_t n = strlen(key), m = strlen(list[k]);
        if (n <= m || strcmp(key + n - m, list[k]) != 0)
            continue;
        char p95[96];
        snprintf(p95, sizeof p95, "%.*s_p95", (int)(n - m), key);
        return moore_report_get(r, p95) ? key + n - m : NULL;
    }
    return NULL;
}

/* One cell of a level's row (the header's with header): a plain value or,
 * for a metric's mean, the mean and then its 5th..95th percentile range as a
 * second cell. *n counts the cells. */
static void text_cells(const moore_report *r, const moore_report_item *it, int header,
                       char cells[][48], int *n)
{
    char key[48];
    const char *mean = stat_suffix(r, it->key, STAT_SHOWN);
    short_key(it->key, key, sizeof key);
    char *cell = cells[(*n)++];
    if (header)
        snprintf(cell, 48, "%s", key);
    else if (it->type == MOORE_VALUE_NULL)
        snprintf(cell, 48, "-");
    else if (it->type == MOORE_VALUE_INT)
        snprintf(cell, 48, "%lld", (long long)it->i);
    else
        snprintf(cell, 48, "%.4g", it->d);
    if (!mean)
        return;
    char p5[96], p95[96];
    int stem = (int)(mean - it->key);
    snprintf(p5, sizeof p5, "%.*s_p5", stem, it->key);
    snprintf(p95, sizeof p95, "%.*s_p95", stem, it->key);
    cell = cells[(*n)++];
    if (header)
        snprintf(cell, 48, "%.*sp5..p95", (int)(strlen(key) - 4), key);
    else
        snprintf(cell, 48, "%.4g..%.4g", moore_report_number(r, p5),
                 moore_report_number(r, p95));
}

/* The draw's own counts (links_failed_mean, switches_failed_mean) are left to
 * --json: the *_lost columns say what the network lost. */
static int draw_count(const char *key)
{
    return !strcmp(key, "links_failed_mean") || !strcmp(key, "switches_failed_mean");
}

/* Text: the header with the first level, then one row per level into t
 * (printed once every level is done, each column as wide as its widest
 * cell); -1 out of memory. */
#define FAIL_TEXT_COLS 64
static int text_row(cli_table *t, const moore_report *r, int header)
{
    static char align[FAIL_TEXT_COLS + 1];
    char cells[FAIL_TEXT_COLS][48];
    const char *ptr[FAIL_TEXT_COLS];
    int n = 0;
    for (int i = 0; i < r->count && n + 2 <= FAIL_TEXT_COLS; i++)
        if (!stat_suffix(r, r->items[i].key, STAT_HIDDEN) && !draw_count(r->items[i].key))
            text_cells(r, &r->items[i], header, cells, &n);
    for (int j = 0; j < n; j++)
        ptr[j] = cells[j];
    if (!header)
        return t->cols == n ? cli_table_add(t, ptr) : -1;
    memset(align, 'r', (size_t)n);
    align[n] = '\0';
    return cli_table_init(t, n, ptr, align);
}

static int run_scenarios(const moore_graph *g, const fail_args *f, const double *levels,
                         int count, const int32_t *rack, int32_t racks, moore_error *err);

static int run_levels(const moore_graph *g, const fail_args *f, moore_error *err)
{
    double levels[FAIL_MAX_LEVELS];
    int count = 0;
    if (parse_levels(f->levels, f->racks ? 1e9 : 1.0, f->racks, levels, &count))
        return -2;
    /* Racks and bundles: the switches placed as `moore layout` places them. */
    int32_t *rack = NULL, racks = 0;
    if (f->racks && !(rack = moore_malloc((size_t)g->n + 1, sizeof *rack, err)))
        return err->code;
    int rc = f->racks ? moore_layout_place(g, 0, rack, &racks, err) : MOORE_OK;
    if (!rc)
        rc = run_scenarios(g, f, levels, count, rack, racks, err);
    free(rack);
    return rc;
}

/* Progress of one level's trials, named after the level ("level 2/3,
 * failing 0.1: failure trials 40%"), so a line per level and per 10% shows
 * with --progress on a pipe (cli_progress). */
typedef struct level_progress {
    int level, count;
    double value;
} level_progress;

static void fail_progress(void *ctx, const char *what, double fraction)
{
    const level_progress *lp = ctx;
    char line[128];
    snprintf(line, sizeof line, "level %d/%d, failing %g: %s", lp->level + 1, lp->count,
             lp->value, what);
    cli_progress(NULL, line, fraction);
}

static int run_scenarios(const moore_graph *g, const fail_args *f, const double *levels,
                         int count, const int32_t *rack, int32_t racks, moore_error *err)
{
    level_progress lp = { 0, count, 0 };
    cli_table t = { 0 };
    char done[64];
    moore_fail_options o;
    moore_fail_options_default(&o);
    o.trials = (int)f->trials;
    o.seed = (uint64_t)f->seed;
    o.eps = f->eps;
    o.progress = fail_progress;
    o.progress_ctx = &lp;
    o.dist = cli_dist();
    int rc = moore_fail_metric_mask(f->metrics, &o.metrics, err);
    for (int l = 0; !rc && l < count; l++) {
        moore_failure_scenario s = { f->kind, levels[l], rack, racks };
        moore_fail_result res;
        moore_report r;
        moore_report_init(&r);
        lp.level = l;
        lp.value = levels[l];
        fail_progress(&lp, "failure trials", 0); /* before the first trial ends */
        rc = moore_fail_trials(g, &s, &o, &res, err);
        cli_progress_done();
        if (!rc)
            rc = moore_fail_report(&r, &res, levels[l], o.metrics, err);
        if (!rc && f->json) {
            if (l == 0) /* only once a level is measured: a refusal prints nothing */
                printf("[\n");
            rc = moore_report_write_json(&r, stdout, 1, err);
            printf(l + 1 < count ? ",\n" : "]\n");
            fflush(stdout);
        } else if (!rc) {
            if ((l == 0 && text_row(&t, &r, 1)) || text_row(&t, &r, 0))
                rc = moore_error_set(err, MOORE_ENOMEM, "fail: out of memory for the table");
            snprintf(done, sizeof done, "fail: level %d/%d done", l + 1, count);
            cli_progress(NULL, done, 1);
        }
        moore_report_clear(&r);
        moore_fail_result_clear(&res);
    }
    cli_progress_done();
    if (t.cols) /* also after an error: the levels done until then */
        cli_table_print(&t, stdout);
    cli_table_free(&t);
    return rc;
}

static int run_until(const moore_graph *g, const fail_args *f, moore_error *err)
{
    moore_fail_stats s;
    int rc = moore_disconnect_fraction(g, f->switches_flag, (uint64_t)f->seed, (int)f->trials,
                                       0, &s, err);
    if (rc)
        return rc;
    moore_report r;
    moore_report_init(&r);
    rc = moore_disconnect_report(&r, &s, f->switches_flag, (int)f->trials, err);
    if (!rc)
        rc = f->json ? moore_report_write_json(&r, stdout, 1, err)
                     : moore_report_write_text(&r, stdout, err);
    moore_report_clear(&r);
    return rc;
}

int cmd_fail(int argc, char **argv)
{
    fail_args f;
    int bad = parse(argc, argv, &f);
    if (bad)
        return bad;
    moore_error err;
    moore_error_clear(&err);
    moore_graph *g = NULL;
    int rc = cli_topology_load(f.topo, &g, &err);
    if (!rc)
        rc = f.until ? run_until(g, &f, &err) : run_levels(g, &f, &err);
    moore_graph_free(g);
    if (rc == -2)
        return 2;
    return rc ? cli_fail(&err) : 0;
}
