/* cmd_plan.c — `moore plan --radix R [--endpoints N] [--bandwidth B]
 * [--families LIST] [--json]`: what every family can build with switches of
 * radix R, and with a bandwidth target what closed forms already decide
 * (library: plan.h). */
#include "cli.h"
#include "table.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char cmd_plan_usage[] =
    "usage: moore plan --radix R [--endpoints N [--bandwidth B]] [--families LIST] [--json]\n\n"
    "Lists every feasible configuration of every family for switches of radix R,\n"
    "from closed forms (no graph is built): switches, links (switch-to-switch),\n"
    "cables (the cables those links need: a HyperX trunk of K counts K), network\n"
    "degree (min-max), endpoints and diameter; with --bandwidth 'θ_uni ≤', the\n"
    "closed-form upper bound on uniform throughput per server.\n\n"
    "  --radix R         switch radix (ports per switch)\n"
    "  --endpoints N     mark (*) the smallest configuration of each family with at\n"
    "                    least N endpoints\n"
    "  --bandwidth B     with --endpoints: the search space of 'moore compare --bandwidth B'\n"
    "                    (every servers-per-switch value, sizes and degrees), each row with\n"
    "                    its closed-form upper bound on uniform throughput per server;\n"
    "                    rows below B are ruled out (not listed; counted per family), *\n"
    "                    marks each family's first row compare would build\n"
    "  --families LIST   comma list of families (default: all with a planner)\n"
    "  --json            an array of rows (docs/json.md): topology, family, params,\n"
    "                    switches, links, cables, degree_min, degree_max, endpoints,\n"
    "                    diameter, chosen (and with --bandwidth: endpoints_per_switch,\n"
    "                    the servers per switch the search set or null,\n"
    "                    throughput_uniform_upper, the closed-form bound or null,\n"
    "                    ruled_out; every row)\n";

/* A number, or null for an undefined value (negative: no closed form). */
static void add_count(cJSON *o, const char *key, double v, int defined)
{
    if (defined)
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

/* One row in the vocabulary of docs/json.md: the identity (topology = the
 * SPEC, family, params) and the counts under the keys `moore stats` uses. */
static cJSON *json_row(const moore_plan *p, const moore_plan_row *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    const char *colon = strchr(r->spec, ':');
    cJSON_AddStringToObject(o, "topology", r->spec);
    cJSON_AddStringToObject(o, "family", r->family->name);
    cJSON_AddStringToObject(o, "params", colon ? colon + 1 : "");
    cJSON_AddNumberToObject(o, "switches", (double)r->counts.switches);
    cJSON_AddNumberToObject(o, "links", (double)r->counts.links);
    cJSON_AddNumberToObject(o, "cables", (double)r->cables);
    cJSON_AddNumberToObject(o, "degree_min", r->counts.degree_min);
    cJSON_AddNumberToObject(o, "degree_max", r->counts.degree_max);
    cJSON_AddNumberToObject(o, "endpoints", (double)r->counts.endpoints);
    add_count(o, "diameter", r->counts.diameter, r->counts.diameter >= 0);
    cJSON_AddBoolToObject(o, "chosen", r->chosen);
    if (p->bandwidth > 0) {
        add_count(o, "endpoints_per_switch", r->p, r->p > 0);
        add_count(o, "throughput_uniform_upper", r->bound, isfinite(r->bound));
        cJSON_AddBoolToObject(o, "ruled_out", r->ruled_out);
    }
    return o;
}

static int print_json(const moore_plan *p)
{
    cJSON *arr = cJSON_CreateArray();
    int rc = 0;
    for (int64_t i = 0; arr && !rc && i < p->count; i++) {
        cJSON *o = json_row(p, &p->rows[i]);
        if (o)
            cJSON_AddItemToArray(arr, o);
        else
            rc = 1;
    }
    if (!rc) {
        rc = cli_json_print(arr);
        arr = NULL; /* printing frees it */
    }
    cJSON_Delete(arr);
    return rc;
}

/* With a target and no bandwidth: under the table, each listed family that
 * has no row reaching the target, and how far its largest gets. */
static void unreached_notes(const moore_plan *p)
{
    int first = 1;
    if (p->endpoints <= 0 || p->bandwidth > 0)
        return;
    for (const moore_family *f = moore_families(); f->name; f++) {
        char why[MOORE_ERRMSG_LEN];
        if (!moore_plan_largest(p, f) || moore_plan_chosen(p, f))
            continue;
        moore_plan_unreached(p, f, why, sizeof why);
        printf("%s%s: %s\n", first ? "\n" : "", f->name, why);
        first = 0;
    }
}

static int print_text(const moore_plan *p)
{
    static const char *const head[] = { "", "family", "topology", "switches", "links",
                                        "cables", "degree", "endpoints", "diameter",
                                        "θ_uni ≤" };
    int cols = p->bandwidth > 0 ? 10 : 9;
    cli_table t;
    if (cli_table_init(&t, cols, head, "lllrrrrrrr"))
        return 1;
    int64_t ruled = 0;
    int rc = 0;
    for (int64_t i = 0; !rc && i < p->count; i++) {
        const moore_plan_row *r = &p->rows[i];
        if (r->ruled_out) {
            ruled++;
            continue;
        }
        char sw[32], ln[32], ca[32], deg[32], ep[32], diam[16], bound[24];
        cli_format_int(r->counts.switches, sw, sizeof sw);
        cli_format_int(r->counts.links, ln, sizeof ln);
        cli_format_int(r->cables, ca, sizeof ca);
        if (r->counts.degree_min == r->counts.degree_max)
            snprintf(deg, sizeof deg, "%d", (int)r->counts.degree_max);
        else
            snprintf(deg, sizeof deg, "%d-%d", (int)r->counts.degree_min,
                     (int)r->counts.degree_max);
        cli_format_int(r->counts.endpoints, ep, sizeof ep);
        if (r->counts.diameter >= 0)
            snprintf(diam, sizeof diam, "%d", (int)r->counts.diameter);
        else
            snprintf(diam, sizeof diam, "-");
        if (isfinite(r->bound))
            snprintf(bound, sizeof bound, "%.3f", r->bound);
        else
            snprintf(bound, sizeof bound, "build");
        const char *row[] = { r->chosen ? "*" : "", r->family->name, r->spec, sw, ln, ca,
                              deg, ep, diam, bound };
        if (cli_table_add(&t, row))
            rc = 1;
    }
    if (!rc) {
        char ep[32];
        cli_format_int(p->endpoints, ep, sizeof ep);
        printf("radix %d: %lld configurations", (int)p->radix, (long long)p->count);
        if (p->bandwidth > 0)
            printf(" with at least %s endpoints; %lld ruled out by closed forms (uniform "
                   "throughput bound < %g) and not listed; bound 'build': decided only on the "
                   "built graph; * marks each family's first row to try", ep, (long long)ruled,
                   p->bandwidth);
        else if (p->endpoints > 0)
            printf("; * marks each family's smallest reaching %s endpoints", ep);
        printf("\n\n");
        cli_table_print(&t, stdout);
    }
    cli_table_free(&t);
    if (!rc)
        unreached_notes(p);
    return rc;
}

int cmd_plan(int argc, char **argv)
{
    cli_args a;
    long long radix = -1, endpoints = 0;
    const char *families = NULL, *bandwidth = NULL;
    double bw = 0;
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
        else if (cli_option(&a, "--bandwidth", "-b")) {
            bandwidth = a.value;
            if (bandwidth && strcmp(bandwidth, "any") != 0 &&
                cli_double_value(&a, "--bandwidth", -1e300, 1e300, &bw) &&
                !(bw > 0 && isfinite(bw)))
                return cli_usage_error("plan: --bandwidth %s must be a number above 0 or "
                                       "'any'", bandwidth);
        } else
            return cli_usage_error("plan: unexpected argument '%s' (see 'moore plan --help')",
                                   a.argv[a.i]);
    }
    if (a.bad)
        return 2;
    if (radix < 0)
        return cli_usage_error("plan: --radix R is required (see 'moore plan --help')");
    moore_error err;
    moore_error_clear(&err);
    if (bw > 0 && endpoints <= 0)
        return cli_usage_error("plan: --bandwidth needs --endpoints N (see 'moore plan --help')");
    moore_plan p;
    if (bw > 0 ? moore_plan_search((int32_t)radix, endpoints, families, bw, &p, &err)
               : moore_plan_make((int32_t)radix, endpoints, families, &p, &err))
        return cli_fail(&err);
    int rc = json ? print_json(&p) : print_text(&p);
    moore_plan_clear(&p);
    return rc;
}
