/* cmd_compare.c — `moore compare [--radix R] [--endpoints N] [TOPO…]`: the
 * main job. Builds each family's smallest configuration reaching about N
 * endpoints with radix-R switches and prints one table (library: plan.h). */
#include "cli.h"
#include "table.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char cmd_compare_usage[] =
    "usage: moore compare [--radix R] [--endpoints N] [--families LIST] [--metrics LIST]\n"
    "                     [--throughput] [--seed S] [--json] [TOPO...]\n\n"
    "Builds, for switches of radix R and about N endpoints, the smallest configuration\n"
    "of each family reaching N (see 'moore plan') and measures it: switches, cables,\n"
    "endpoints, diameter, average path length, lambda2 against the Ramanujan bound\n"
    "2*sqrt(d-1), bisection bandwidth and throughput where those metrics exist.\n"
    "A '-' (JSON null) is a value that was not measured or is undefined.\n\n"
    "  --radix R         switch radix (default 48)\n"
    "  --endpoints N     endpoint count to reach (default 10000)\n"
    "  --families LIST   comma list of families (default: all with a planner)\n"
    "  --metrics LIST    metric groups to run (default: basic,paths,spectral,bisection)\n"
    "  --throughput      also run the throughput group (uniform and worst-case traffic,\n"
    "                    (1+0.05) bounds): seconds to minutes per topology\n"
    "  --seed S          seed for randomised metrics (default 1)\n"
    "  --json            an array of objects, one per topology, keyed as the columns\n"
    "  TOPO...           compare these SPECs or files instead of the planner's choices\n";

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

static int print_text(const moore_compare *c, const moore_compare_options *o,
                      const char *metrics)
{
    const moore_compare_column *cols = moore_compare_columns();
    int n = 0;
    while (cols[n].key)
        n++;
    const char **head = calloc((size_t)n, sizeof *head), **row = calloc((size_t)n, sizeof *row);
    char (*cells)[96] = calloc((size_t)n, sizeof *cells);
    char *align = calloc((size_t)n + 1, 1);
    cli_table t;
    int rc = !head || !row || !cells || !align;
    for (int j = 0; !rc && j < n; j++) {
        head[j] = cols[j].header;
        align[j] = j < 2 ? 'l' : 'r';
        row[j] = cells[j];
    }
    if (!rc)
        rc = cli_table_init(&t, n, head, align) != 0;
    for (int i = 0; !rc && i < c->count; i++) {
        for (int j = 0; j < n; j++)
            format_cell(&c->rows[i].report, &cols[j], cells[j], sizeof cells[j]);
        rc = cli_table_add(&t, row) != 0;
    }
    if (!rc) {
        char ep[32];
        cli_format_int(o->endpoints, ep, sizeof ep);
        if (o->topology_count)
            printf("metrics: %s\n\n", metrics);
        else
            printf("radix %d, at least %s endpoints; each family's smallest configuration "
                   "reaching them (metrics: %s)\n\n", (int)o->radix, ep, metrics);
        cli_table_print(&t, stdout);
        cli_table_free(&t);
    }
    free(head);
    free(row);
    free(cells);
    free(align);
    return rc;
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

static int print_json(const moore_compare *c)
{
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; arr && i < c->count; i++) {
        cJSON *o = cJSON_CreateObject();
        for (const moore_compare_column *col = moore_compare_columns(); col->key; col++) {
            cJSON_AddItemToObject(o, col->key, json_value(&c->rows[i].report, col->key));
            if (col->key2)
                cJSON_AddItemToObject(o, col->key2, json_value(&c->rows[i].report, col->key2));
        }
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
        else if (cli_option(&a, "--radix", "-r")) {
            if (cli_int_value(&a, "--radix", 1, 1 << 20, &v))
                o.radix = (int32_t)v;
        } else if (cli_option(&a, "--endpoints", "-n")) {
            if (cli_int_value(&a, "--endpoints", 1, (long long)1 << 50, &v))
                o.endpoints = v;
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
    moore_compare c;
    int rc = moore_compare_run(&o, &c, &err);
    cli_progress_done();
    free(topos);
    if (rc)
        return cli_fail(&err);
    for (int i = 0; i < c.note_count; i++)
        fprintf(stderr, "moore: compare: %s\n", c.notes[i]);
    rc = json ? print_json(&c) : print_text(&c, &o, metrics);
    moore_compare_free(&c);
    return rc;
}
