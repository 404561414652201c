/* cmd_plan.c — `moore plan --radix R [--endpoints N] [--families LIST] [--json]`:
 * what every family can build with switches of radix R (library: plan.h). */
#include "cli.h"
#include "table.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

const char cmd_plan_usage[] =
    "usage: moore plan --radix R [--endpoints N] [--families LIST] [--json]\n\n"
    "Lists every feasible configuration of every family for switches of radix R,\n"
    "from closed forms (no graph is built): switches, links (cables between\n"
    "switches), network degree, endpoints and diameter.\n\n"
    "  --radix R         switch radix (ports per switch)\n"
    "  --endpoints N     mark (*) the smallest configuration of each family with at\n"
    "                    least N endpoints\n"
    "  --families LIST   comma list of families (default: all with a planner)\n"
    "  --json            an array of rows: family, spec, switches, links,\n"
    "                    network_degree, endpoints, diameter, chosen\n";

static int print_json(const moore_plan *p)
{
    cJSON *arr = cJSON_CreateArray();
    for (int64_t i = 0; arr && i < p->count; i++) {
        const moore_plan_row *r = &p->rows[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "family", r->family->name);
        cJSON_AddStringToObject(o, "spec", r->spec);
        cJSON_AddNumberToObject(o, "switches", (double)r->counts.switches);
        cJSON_AddNumberToObject(o, "links", (double)r->cables);
        cJSON_AddNumberToObject(o, "network_degree", r->network_degree);
        cJSON_AddNumberToObject(o, "endpoints", (double)r->counts.endpoints);
        if (r->counts.diameter >= 0)
            cJSON_AddNumberToObject(o, "diameter", r->counts.diameter);
        else
            cJSON_AddNullToObject(o, "diameter");
        cJSON_AddBoolToObject(o, "chosen", r->chosen);
        cJSON_AddItemToArray(arr, o);
    }
    return cli_json_print(arr);
}

static int print_text(const moore_plan *p)
{
    static const char *const head[] = { "", "family", "spec", "switches", "links",
                                        "degree", "endpoints", "diameter" };
    cli_table t;
    if (cli_table_init(&t, 8, head, "lllrrrrr"))
        return 1;
    for (int64_t i = 0; i < p->count; i++) {
        const moore_plan_row *r = &p->rows[i];
        char sw[32], ln[32], deg[16], ep[32], diam[16];
        cli_format_int(r->counts.switches, sw, sizeof sw);
        cli_format_int(r->cables, ln, sizeof ln);
        cli_format_int(r->network_degree, deg, sizeof deg);
        cli_format_int(r->counts.endpoints, ep, sizeof ep);
        if (r->counts.diameter >= 0)
            snprintf(diam, sizeof diam, "%d", (int)r->counts.diameter);
        else
            snprintf(diam, sizeof diam, "-");
        const char *row[] = { r->chosen ? "*" : "", r->family->name, r->spec, sw, ln, deg,
                              ep, diam };
        if (cli_table_add(&t, row)) {
            cli_table_free(&t);
            return 1;
        }
    }
    char ep[32];
    cli_format_int(p->endpoints, ep, sizeof ep);
    printf("radix %d: %lld configurations", (int)p->radix, (long long)p->count);
    if (p->endpoints > 0)
        printf("; * marks each family's smallest reaching %s endpoints", ep);
    printf("\n\n");
    cli_table_print(&t, stdout);
    cli_table_free(&t);
    return 0;
}

int cmd_plan(int argc, char **argv)
{
    cli_args a;
    long long radix = -1, endpoints = 0;
    const char *families = NULL;
    int json = 0;
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_flag(&a, "--json", NULL))
            json = 1;
        else if (cli_option(&a, "--radix", "-r"))
            cli_int_value(&a, "--radix", 1, 1 << 20, &radix);
        else if (cli_option(&a, "--endpoints", "-n"))
            cli_int_value(&a, "--endpoints", 1, (long long)1 << 50, &endpoints);
        else if (cli_option(&a, "--families", NULL))
            families = a.value;
        else
            return cli_usage_error("plan: unexpected argument '%s' (see 'moore plan --help')",
                                   a.argv[a.i]);
    }
    if (a.bad)
        return 2;
    if (radix < 0)
        return cli_usage_error("plan: --radix R is required (see 'moore plan --help')");
    moore_error err;
    moore_error_clear(&err);
    moore_plan p;
    if (moore_plan_make((int32_t)radix, endpoints, families, &p, &err))
        return cli_fail(&err);
    int rc = json ? print_json(&p) : print_text(&p);
    moore_plan_free(&p);
    return rc;
}
