/* cmd_grow.c — `moore grow --radix R --steps S1,S2,...`: every family's
 * cheapest path through a sequence of server counts, with the rewiring and
 * cost of each step and the throughput during and after it (docs/growth.md).
 * Rows print as each step is done; the answer table follows. */
#include "cli.h"
#include "moore/grow.h"
#include "moore/plot.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char cmd_grow_usage[] =
    "usage: moore grow --radix R --steps S1,S2,... [--families LIST] [--bandwidth B|any]\n"
    "                  [--batch N] [--labour USD] [--model NAME|FILE] [--seed S]\n"
    "                  [--plot FILE] [--json]\n\n"
    "Plans, for every family, the configurations reaching each server count in turn at\n"
    "the bandwidth asked, and between consecutive steps the rewiring (cables kept,\n"
    "removed, added, moved), what is bought, the cost of the step (equipment in the\n"
    "layout's price model plus labour per cable touched) and the uniform throughput\n"
    "per server (proven bounds) before, after, and at the worst moment of the rewiring\n"
    "done N cables at a time. Jellyfish grows by expansion, Xpander by 2-lifts and a\n"
    "switch added to every super-node, the Clos by pods (its cores bought up front),\n"
    "Dragonfly by groups; every other family is rebuilt.\n\n"
    "  --radix R          switch ports (required)\n"
    "  --steps LIST       server counts, strictly increasing (required)\n"
    "  --families LIST    comma list (default jellyfish,xpander,clos,dragonfly,slimfly,\n"
    "                     polarfly)\n"
    "  --bandwidth B      uniform throughput per server to prove at every step (default 1;\n"
    "                     any: no proof asked)\n"
    "  --batch N          cables rewired at a time (default 64)\n"
    "  --labour USD       price of touching one cable: plugging, unplugging or moving it\n"
    "                     (default 50)\n"
    "  --model NAME|FILE  price model: 400g (default), 2014, or a JSON file (docs/layout.md)\n"
    "  --seed S           seed of the random constructions (default 1)\n"
    "  --plot FILE        an SVG figure: cumulative cost against servers, one line per\n"
    "                     family (the steps it reaches)\n"
    "  --json             an array of objects, one per family and step as it is done, then\n"
    "                     one per family for the whole path (docs/growth.md)\n";

typedef struct grow_print {
    int json, first, failed;
} grow_print;

static cJSON *num(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *step_json(const moore_grow_family *f, int k)
{
    const moore_grow_step *s = &f->steps[k];
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "family", f->family);
    cJSON_AddStringToObject(o, "rule", f->rule);
    cJSON_AddNumberToObject(o, "step", k + 1);
    cJSON_AddNumberToObject(o, "servers_target", (double)s->target);
    cJSON_AddStringToObject(o, "topology", s->topology);
    cJSON_AddItemToObject(o, "built", s->built[0] ? cJSON_CreateString(s->built)
                                                  : cJSON_CreateNull());
    struct { const char *key; double v; } keys[] = {
        { "switches", s->switches },          { "endpoints", (double)s->endpoints },
        { "links", (double)s->links },        { "cables", (double)s->cables },
        { "racks", s->racks },                { "cables_kept", (double)s->cables_kept },
        { "cables_added", (double)s->cables_added },
        { "cables_removed", (double)s->cables_removed },
        { "cables_moved", (double)s->cables_moved },
        { "cables_bought", (double)s->cables_bought },
        { "cables_touched", (double)s->cables_touched },
        { "switches_added", s->switches_added }, { "racks_added", s->racks_added },
        { "optics_bought", (double)s->optics_bought },
        { "cost_equipment", s->cost_equipment }, { "cost_labour", s->cost_labour },
        { "cost_step", s->cost_step },        { "cost_total", s->cost_total },
        { "cost_headroom", s->cost_headroom },
        { "throughput_uniform", s->lower },     { "throughput_uniform_upper", s->upper },
        { "throughput_before", s->before_lower },
        { "throughput_before_upper", s->before_upper },
        { "throughput_during", s->during_lower },
        { "throughput_during_upper", s->during_upper },
        { "batches", (double)s->batches },
    };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        cJSON_AddItemToObject(o, keys[i].key, num(keys[i].v));
    cJSON_AddBoolToObject(o, "during_exact", k > 0 && s->during_exact);
    cJSON_AddBoolToObject(o, "proven", s->proven);
    return o;
}

static cJSON *path_json(const moore_grow_result *r, int i)
{
    const moore_grow_family *f = &r->families[i];
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "family", f->family);
    cJSON_AddItemToObject(o, "rule", f->rule ? cJSON_CreateString(f->rule) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "step", cJSON_CreateNull());
    cJSON_AddBoolToObject(o, "reached", f->reached);
    cJSON_AddItemToObject(o, "note", f->note[0] ? cJSON_CreateString(f->note)
                                                : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "cost_total", num(f->reached ? f->cost_total : NAN));
    cJSON_AddItemToObject(o, "cables_touched", num(f->reached ? (double)f->cables_touched : NAN));
    cJSON_AddItemToObject(o, "throughput_during", num(f->during_lower));
    cJSON_AddBoolToObject(o, "proven", f->all_proven);
    cJSON_AddBoolToObject(o, "cheapest", r->cheapest == i);
    return o;
}

static void money(double v, char *buf, size_t len)
{
    if (!isfinite(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2fM", v / 1e6);
}

static void bound_pair(double lo, double hi, char *buf, size_t len)
{
    if (isnan(lo))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f-%.2f", lo, hi);
}

/* moore_grow_options.step_done: a JSON object or a text line per step. */
static void print_step(void *ctx, const moore_grow_family *f, int k)
{
    grow_print *p = ctx;
    if (p->json) {
        cJSON *o = step_json(f, k);
        if (!o || cli_json_row(o, &p->first))
            p->failed = 1;
        cJSON_Delete(o);
        return;
    }
    const moore_grow_step *s = &f->steps[k];
    if (p->first)
        printf("%-10s %4s %8s %8s %8s %8s %8s %8s %8s %9s %9s %11s %11s %6s\n", "family", "step",
               "servers", "switches", "cables", "added", "removed", "moved", "touched",
               "cost_step", "cost_tot", "thr_after", "thr_during", "proven");
    p->first = 0;
    char cs[24], ct[24], ta[32], td[32];
    money(s->cost_step, cs, sizeof cs);
    money(s->cost_total, ct, sizeof ct);
    bound_pair(s->lower, s->upper, ta, sizeof ta);
    bound_pair(s->during_lower, s->during_upper, td, sizeof td);
    printf("%-10s %4d %8lld %8d %8lld %8lld %8lld %8lld %8lld %9s %9s %11s %11s %6s\n",
           f->family, k + 1, (long long)s->endpoints, (int)s->switches, (long long)s->cables,
           (long long)s->cables_added, (long long)s->cables_removed, (long long)s->cables_moved,
           (long long)s->cables_touched, cs, ct, ta, td, s->proven ? "yes" : "no");
    if (fflush(stdout))
        p->failed = 1;
}

/* The answer: one line per family over the whole path, cheapest named. */
static void print_answer(const moore_grow_result *r)
{
    printf("\n%-10s %-8s %10s %14s %13s %6s\n", "family", "rule", "cost_total", "cables_touched",
           "worst_during", "proven");
    for (int i = 0; i < r->count; i++) {
        const moore_grow_family *f = &r->families[i];
        char c[24], w[24];
        if (!f->reached) {
            printf("%-10s %-8s %10s %14s %13s %6s  (", f->family, f->rule ? f->rule : "-", "-",
                   "-", "-", "-");
            if (f->step_count > 0)
                printf("reaches %lld servers, costing %.2fM; ",
                       (long long)f->steps[f->step_count - 1].endpoints,
                       f->steps[f->step_count - 1].cost_total / 1e6);
            printf("%s)\n", f->note);
            continue;
        }
        money(f->cost_total, c, sizeof c);
        if (isnan(f->during_lower))
            snprintf(w, sizeof w, "-");
        else
            snprintf(w, sizeof w, ">= %.2f", f->during_lower);
        printf("%-10s %-8s %10s %14lld %13s %6s\n", f->family, f->rule, c,
               (long long)f->cables_touched, w, f->all_proven ? "yes" : "no");
    }
    if (r->cheapest < 0) {
        printf("\nno family is proven at every step\n");
        return;
    }
    const moore_grow_family *best = &r->families[r->cheapest];
    int next = -1;
    for (int i = 0; i < r->count; i++)
        if (i != r->cheapest && r->families[i].all_proven &&
            (next < 0 || r->families[i].cost_total < r->families[next].cost_total))
            next = i;
    printf("\ncheapest over the whole path: %s", best->family);
    if (next >= 0)
        printf(" (the next, %s, costs %+.1f%% more)", r->families[next].family,
               100.0 * (r->families[next].cost_total - best->cost_total) / best->cost_total);
    printf("\n");
}

/* Cumulative cost (millions) against servers, one series per family with a
 * step; written whole or not at all. */
static int write_plot(const moore_grow_result *r, moore_atomic_file *af, moore_error *err)
{
    moore_plot_series s[64];
    double x[64][MOORE_GROW_MAX_STEPS], y[64][MOORE_GROW_MAX_STEPS];
    int n = 0;
    for (int i = 0; i < r->count && n < 64; i++) {
        const moore_grow_family *f = &r->families[i];
        if (f->step_count == 0)
            continue;
        for (int k = 0; k < f->step_count; k++) {
            x[n][k] = (double)f->steps[k].endpoints;
            y[n][k] = f->steps[k].cost_total / 1e6;
        }
        s[n] = (moore_plot_series){ f->family, f->step_count, x[n], y[n], NULL, NULL };
        n++;
    }
    moore_plot p = { MOORE_PLOT_LINES, "Cumulative cost of growing the fabric", "servers",
                     "cost so far (million $)", 0, 0, NULL, 0, 0 };
    char *svg = NULL;
    int rc = moore_plot_svg(&p, s, n, &svg, err);
    if (!rc) {
        fputs(svg, af->f);
        rc = moore_atomic_commit(af, err);
    } else
        moore_atomic_abort(af);
    free(svg);
    return rc;
}

/* "4000,10000,16000" into steps; 0, or 2 after one line. */
static int parse_steps(const char *text, int64_t *steps, int *count)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    *count = 0;
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (*count >= MOORE_GROW_MAX_STEPS)
            return cli_usage_error("grow: --steps: more than %d steps", MOORE_GROW_MAX_STEPS);
        if (moore_parse_int(w, 1, (int64_t)1 << 40, &steps[*count]) != MOORE_PARSE_OK)
            return cli_usage_error("grow: --steps: '%s' is not a server count >= 1", w);
        (*count)++;
    }
    if (*count == 0)
        return cli_usage_error("grow: --steps: no server count given");
    return 0;
}

int cmd_grow(int argc, char **argv)
{
    cli_args a;
    moore_grow_options o;
    moore_grow_options_default(&o);
    int64_t steps[MOORE_GROW_MAX_STEPS];
    long long radix = -1, batch = o.batch, seed = 1;
    const char *steps_text = NULL, *model = NULL, *plot = NULL;
    grow_print p = { 0, 1, 0 };
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_flag(&a, "--json", NULL))
            p.json = 1;
        else if (cli_option(&a, "--radix", "-r"))
            cli_int_value(&a, "--radix", 2, 1 << 16, &radix);
        else if (cli_option(&a, "--steps", NULL))
            steps_text = a.value;
        else if (cli_option(&a, "--families", NULL))
            o.families = a.value;
        else if (cli_option(&a, "--bandwidth", "-b")) {
            if (strcmp(a.value, "any") == 0)
                o.bandwidth = 0;
            else if (cli_double_value(&a, "--bandwidth", -1e300, 1e300, &o.bandwidth) &&
                     !(o.bandwidth >= 1e-9 && isfinite(o.bandwidth)))
                return cli_usage_error("grow: --bandwidth %s must be a number above 0 or 'any'",
                                       a.value);
        } else if (cli_option(&a, "--batch", NULL))
            cli_int_value(&a, "--batch", 1, (long long)1 << 40, &batch);
        else if (cli_option(&a, "--labour", NULL))
            cli_double_value(&a, "--labour", 0, 1e9, &o.labour);
        else if (cli_option(&a, "--model", NULL))
            model = a.value;
        else if (cli_option(&a, "--seed", NULL))
            cli_int_value(&a, "--seed", 0, (long long)9e18, &seed);
        else if (cli_option(&a, "--plot", NULL))
            plot = a.value;
        else {
            const char *extra = NULL;
            if (cli_positional(&a, &extra))
                return 2;
            return cli_usage_error("grow: unexpected argument '%s'", extra);
        }
    }
    if (a.bad)
        return 2;
    if (radix < 0)
        return cli_usage_error("grow: --radix R is required");
    if (!steps_text)
        return cli_usage_error("grow: --steps S1,S2,... is required");
    int status = parse_steps(steps_text, steps, &o.step_count);
    if (!status)
        status = cli_cost_model(model, &o.model);
    if (status)
        return status;
    o.radix = (int32_t)radix;
    o.steps = steps;
    o.batch = batch;
    o.seed = (uint64_t)seed;
    o.threads = cli_threads();
    o.step_done = print_step;
    o.step_ctx = &p;
    moore_grow_result r;
    moore_error err;
    moore_atomic_file af;
    moore_error_clear(&err);
    if (plot && moore_atomic_open(plot, &af, &err)) /* a path that cannot be written: before the work */
        return cli_fail(&err);
    int rc = moore_grow_run(&o, &r, &err);
    if (rc && plot)
        moore_atomic_abort(&af);
    for (int i = 0; !rc && p.json && i < r.count; i++) {
        cJSON *obj = path_json(&r, i);
        if (!obj || cli_json_row(obj, &p.first))
            p.failed = 1;
        cJSON_Delete(obj);
    }
    if (p.json && !p.first)
        cli_json_rows_end(p.first);
    if (!rc && !p.json)
        print_answer(&r);
    if (!rc && plot)
        rc = write_plot(&r, &af, &err);
    moore_grow_clear(&r);
    if (rc)
        return cli_fail(&err);
    return p.failed;
}
