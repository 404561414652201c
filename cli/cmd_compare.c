/* cmd_compare.c — `moore compare [--radix R] [--endpoints N] [--bandwidth B]
 * [TOPO…]`: the main job. Per family the cheapest configuration with at least
 * N servers on radix-R switches proven to reach uniform throughput B per
 * server, one table row printed as each is measured, then each family against
 * the Clos baseline and a verdict on the Slim Fly seed's claim (library:
 * plan.h, docs/compare.md). */
#include "cli.h"
#include "table.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char cmd_compare_usage[] =
    "usage: moore compare [--radix R] [--endpoints N] [--bandwidth B|any] [--families LIST]\n"
    "                     [--metrics LIST] [--throughput] [--thorough] [--seed S] [--json]\n"
    "                     [TOPO...]\n\n"
    "For switches of radix R and at least N servers, chooses per family the cheapest\n"
    "configuration whose uniform-traffic throughput per server (each server sending 1\n"
    "in total) is proven to be at least B, and measures it. Cheapest: lowest cost_total\n"
    "when the layout metric group exists, else fewest switches, then fewest cables.\n"
    "The search varies servers per switch and size (and degree for Jellyfish/Xpander);\n"
    "closed-form bounds rule most configurations out before anything is built.\n"
    "Columns: switches, cables, endpoints, p (servers on the busiest switch), switch\n"
    "diameter, srv hops (mean switch hops between two servers on different switches),\n"
    "uniform throughput proven lower/upper bound, worst-case throughput (--throughput),\n"
    "bisection bandwidth, cost, cost per server, power and optical cables (layout).\n"
    "Below the table each family against the Clos baseline in signed percent.\n"
    "A '-' (JSON null) is a value that was not measured or is undefined.\n\n"
    "  --radix R         switch radix (default 48)\n"
    "  --endpoints N     servers to reach at least (default 10000)\n"
    "  --bandwidth B     uniform throughput per server to prove, > 0 (default 1: full);\n"
    "                    'any': each family's fewest-switch configuration, unmeasured\n"
    "  --thorough        where the shortest-path split proves too little, also try\n"
    "                    the (1+0.05) approximation's lower bound (2 rows per family;\n"
    "                    seconds to tens of seconds each)\n"
    "  --families LIST   comma list of families (default: all with a planner)\n"
    "  --metrics LIST    metric groups to run (default: basic,paths,spectral,bisection\n"
    "                    and layout where it exists)\n"
    "  --throughput      also run the throughput group (uniform and worst-case traffic,\n"
    "                    (1+0.05) bounds): seconds to minutes per topology\n"
    "  --seed S          seed for randomised metrics (default 1)\n"
    "  --json            an array of objects, one per topology, keyed as the columns,\n"
    "                    plus vs_clos_switches_pct, vs_clos_cables_pct, vs_clos_cost_pct\n"
    "  TOPO...           compare these SPECs or files instead of searching\n";

/* One cell of the text table from a report value. */
static void format_cell(const moore_report *r, const moore_compare_column *c, char *buf,
                        size_t len)
{
    const moore_report_item *it = moore_report_get(r, c->key);
    snprintf(buf, len, "-");
    if (!it)
        return;
    if (it->type == MOORE_VALUE_STRING)
        snprintf(buf, len, "%s", it->s);
    else if (it->type == MOORE_VALUE_INT)
        cli_format_int(it->i, buf, len);
    else if (it->type == MOORE_VALUE_BOOL)
        snprintf(buf, len, "%s", it->i ? "yes" : "no");
    else if (it->type == MOORE_VALUE_DOUBLE && isfinite(it->d))
        snprintf(buf, len, "%.3f", it->d);
    if (c->key2 && strcmp(buf, "-") != 0) {
        double b = moore_report_number(r, c->key2);
        size_t used = strlen(buf);
        if (isfinite(b))
            snprintf(buf + used, len - used, "/%.3f", b);
    }
}

/* Rows are printed as they are measured, so widths are fixed up front. */
static const int WIDTHS[] = { 9, 36, 8, 7, 9, 3, 4, 8, 13, 6, 6, 11, 8, 9, 7 };

static int col_width(int j, const moore_compare_column *c)
{
    int w = j < (int)(sizeof WIDTHS / sizeof *WIDTHS) ? WIDTHS[j] : 8;
    int h = (int)strlen(c->header);
    return h > w ? h : w;
}

static void print_line(const char *const *cells, const moore_compare_column *cols)
{
    for (int j = 0; cols[j].key; j++)
        printf(j < 2 ? "%-*s%s" : "%*s%s", col_width(j, &cols[j]), cells[j],
               cols[j + 1].key ? "  " : "\n");
    fflush(stdout);
}

typedef struct text_ctx {
    const moore_compare_options *o;
    const char *metrics;
    int header_done;
} text_ctx;

static void print_header(text_ctx *t)
{
    const moore_compare_column *cols = moore_compare_columns();
    const char *head[32];
    int n = 0;
    for (; cols[n].key && n < 32; n++)
        head[n] = cols[n].header;
    char ep[32];
    cli_format_int(t->o->endpoints, ep, sizeof ep);
    if (t->o->topology_count)
        printf("metrics: %s\n\n", t->metrics);
    else if (t->o->bandwidth > 0)
        printf("radix %d, at least %s servers, uniform throughput per server proven >= %g; "
               "each family's cheapest such configuration (metrics: %s)\n\n",
               (int)t->o->radix, ep, t->o->bandwidth, t->metrics);
    else
        printf("radix %d, at least %s servers, any bandwidth; each family's fewest-switch "
               "configuration (metrics: %s)\n\n", (int)t->o->radix, ep, t->metrics);
    print_line(head, cols);
    t->header_done = 1;
}

/* moore_compare_options.row_done: one table line per measured row. */
static void text_row(void *vctx, const moore_compare *c, int i)
{
    text_ctx *t = vctx;
    cli_progress_done();
    if (!t->header_done)
        print_header(t);
    const moore_compare_column *cols = moore_compare_columns();
    char cells[32][96];
    const char *row[32];
    for (int j = 0; cols[j].key && j < 32; j++) {
        format_cell(&c->rows[i].report, &cols[j], cells[j], sizeof cells[j]);
        row[j] = cells[j];
    }
    print_line(row, cols);
}

static void pct_cell(double v, char *buf, size_t len)
{
    if (isfinite(v))
        snprintf(buf, len, "%+.1f%%", v);
    else
        snprintf(buf, len, "-");
}

static int print_baseline(const moore_compare *c)
{
    double pct[3];
    moore_error err;
    if (c->count == 0 || moore_compare_vs_baseline(c, 0, pct, &err)) {
        printf("\n(no clos row: no baseline comparison)\n");
        return 0;
    }
    printf("\nagainst the Clos baseline (negative: fewer than the Clos)\n\n");
    printf("%-10s  %9s  %9s  %9s\n", "family", "switches", "cables", "cost");
    for (int i = 0; i < c->count; i++) {
        const moore_report_item *fam = moore_report_get(&c->rows[i].report, "family");
        char a[24], b[24], d[24];
        moore_compare_vs_baseline(c, i, pct, &err);
        pct_cell(pct[0], a, sizeof a);
        pct_cell(pct[1], b, sizeof b);
        pct_cell(pct[2], d, sizeof d);
        printf("%-10s  %9s  %9s  %9s\n", fam && fam->s ? fam->s : "?", a, b, d);
    }
    char verdict[512];
    moore_compare_verdict(c, verdict, sizeof verdict);
    printf("\n%s\n", verdict);
    return 0;
}

static cJSON *json_value(const moore_report *r, const char *key)
{
    const moore_report_item *it = moore_report_get(r, key);
    if (!it)
        return cJSON_CreateNull();
    switch (it->type) {
    case MOORE_VALUE_STRING: return cJSON_CreateString(it->s);
    case MOORE_VALUE_INT: return cJSON_CreateNumber((double)it->i);
    case MOORE_VALUE_BOOL: return cJSON_CreateBool((int)it->i);
    case MOORE_VALUE_DOUBLE: return isfinite(it->d) ? cJSON_CreateNumber(it->d)
                                                    : cJSON_CreateNull();
    default: return cJSON_CreateNull();
    }
}

static cJSON *json_number(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static int print_json(const moore_compare *c)
{
    static const char *const extra[] = { "avg_path_length", "diameter_endpoints",
                                         "bandwidth_proof", "lambda2", "ramanujan_bound" };
    static const char *const pct_keys[3] = { "vs_clos_switches_pct", "vs_clos_cables_pct",
                                             "vs_clos_cost_pct" };
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; arr && i < c->count; i++) {
        cJSON *o = cJSON_CreateObject();
        for (const moore_compare_column *col = moore_compare_columns(); col->key; col++) {
            cJSON_AddItemToObject(o, col->key, json_value(&c->rows[i].report, col->key));
            if (col->key2)
                cJSON_AddItemToObject(o, col->key2, json_value(&c->rows[i].report, col->key2));
        }
        for (int k = 0; k < 5; k++)
            cJSON_AddItemToObject(o, extra[k], json_value(&c->rows[i].report, extra[k]));
        double pct[3] = { NAN, NAN, NAN };
        moore_error err;
        moore_compare_vs_baseline(c, i, pct, &err);
        for (int k = 0; k < 3; k++)
            cJSON_AddItemToObject(o, pct_keys[k], json_number(pct[k]));
        cJSON_AddItemToArray(arr, o);
    }
    return cli_json_print(arr);
}

int cmd_compare(int argc, char **argv)
{
    cli_args a;
    moore_compare_options o;
    moore_compare_options_default(&o);
    cli_metric_options(&o.metric);
    int json = 0, throughput = 0;
    const char **topos = calloc((size_t)argc, sizeof *topos);
    if (!topos)
        return 1;
    o.topologies = topos;
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        long long v;
        if (cli_flag(&a, "--json", NULL))
            json = 1;
        else if (cli_flag(&a, "--throughput", NULL))
            throughput = 1;
        else if (cli_flag(&a, "--thorough", NULL))
            o.approx_tries = 2;
        else if (cli_option(&a, "--radix", "-r")) {
            if (cli_int_value(&a, "--radix", 1, 1 << 20, &v))
                o.radix = (int32_t)v;
        } else if (cli_option(&a, "--endpoints", "-n")) {
            if (cli_int_value(&a, "--endpoints", 1, (long long)1 << 50, &v))
                o.endpoints = v;
        } else if (cli_option(&a, "--bandwidth", "-b")) {
            if (a.value && strcmp(a.value, "any") == 0)
                o.bandwidth = 0;
            else if (cli_double_value(&a, "--bandwidth", -1e300, 1e300, &o.bandwidth) &&
                     !(o.bandwidth > 0 && isfinite(o.bandwidth))) {
                free(topos);
                return cli_usage_error("compare: --bandwidth %s must be a number above 0 or "
                                       "'any'", a.value);
            }
        } else if (cli_option(&a, "--families", NULL))
            o.families = a.value;
        else if (cli_option(&a, "--metrics", "-m"))
            o.metrics = a.value;
        else if (cli_option(&a, "--seed", NULL)) {
            if (cli_int_value(&a, "--seed", 0, (long long)9e18, &v))
                o.metric.seed = (uint64_t)v;
        } else if (a.argv[a.i][0] == '-' && a.argv[a.i][1]) {
            free(topos);
            return cli_usage_error("compare: unknown option '%s'", a.argv[a.i]);
        } else
            topos[o.topology_count++] = a.argv[a.i];
    }
    if (a.bad) {
        free(topos);
        return 2;
    }
    moore_error err;
    moore_error_clear(&err);
    char metrics[256];
    if (o.metrics)
        snprintf(metrics, sizeof metrics, "%s", o.metrics);
    else if (moore_compare_default_metrics(metrics, sizeof metrics, &err)) {
        free(topos);
        return cli_fail(&err);
    }
    if (throughput && !strstr(metrics, "throughput"))
        strncat(metrics, ",throughput", sizeof metrics - strlen(metrics) - 1);
    o.metrics = metrics;
    text_ctx t = { &o, metrics, 0 };
    if (!json) {
        o.row_done = text_row;
        o.row_ctx = &t;
    }
    moore_compare c;
    int rc = moore_compare_run(&o, &c, &err);
    cli_progress_done();
    free(topos);
    if (rc)
        return cli_fail(&err);
    for (int i = 0; i < c.note_count; i++)
        fprintf(stderr, "moore: compare: %s\n", c.notes[i]);
    rc = json ? print_json(&c) : print_baseline(&c);
    moore_compare_free(&c);
    return rc;
}
