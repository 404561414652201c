/* compare_step.c — `moore compare ... --job JOB --link-rate GBPS [--step-routing R]`:
 * each row's topology timed for one training step of JOB (include/moore/step.h,
 * docs/step-time.md), as JSON keys on the row and, after the text table, the
 * rows ranked by step time with the fabric's cost per step. Kept apart from
 * cmd_compare.c, which calls the three hooks below. */
#include "cli.h"
#include "compare_step.h"
#include "table.h"
#include "moore/step.h"
#include "moore/workload.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Three years of seconds: the amortisation of cost_per_step. */
#define STEP_AMORTISE_SECONDS (3.0 * 365 * 86400)

static struct {
    const char *job, *rate, *routing;
    double gbps;
} step_cfg;

int cli_compare_step_option(cli_args *a)
{
    if (cli_option(a, "--job", NULL))
        step_cfg.job = a->value;
    else if (cli_option(a, "--link-rate", NULL))
        step_cfg.rate = a->value;
    else if (cli_option(a, "--step-routing", NULL))
        step_cfg.routing = a->value;
    else
        return 0;
    return 1;
}

int cli_compare_step_check(const char *cmd)
{
    if (!step_cfg.job && !step_cfg.rate && !step_cfg.routing)
        return 0;
    if (!step_cfg.job || !step_cfg.rate)
        return cli_usage_error("%s: --job JOB and --link-rate GBPS go together", cmd);
    char *end;
    step_cfg.gbps = strtod(step_cfg.rate, &end);
    if (end == step_cfg.rate || *end || !(step_cfg.gbps > 0) || !isfinite(step_cfg.gbps))
        return cli_usage_error("%s: --link-rate %s must be a positive finite number of "
                               "Gb/s", cmd, step_cfg.rate);
    moore_workload w;
    moore_error err;
    if (moore_workload_parse(step_cfg.job, &w, &err))
        return cli_usage_error("%s: --job: %s", cmd, err.msg);
    return 0;
}

const char *cli_compare_step_job(double *gbps, const char **routing)
{
    *gbps = step_cfg.gbps;
    *routing = step_cfg.routing;
    return step_cfg.job;
}

/* The cost of one step: cost_total amortised over 3 years of steps (NaN
 * without the layout group's cost). */
static double cost_per_step(const moore_report *row, double step)
{
    return moore_report_number(row, "cost_total") * step / STEP_AMORTISE_SECONDS;
}

/* The step of the job on spec (a fresh load of the row's topology). */
static int step_of(const char *spec, moore_step_result *r, moore_error *err)
{
    moore_graph *g = NULL;
    moore_workload w;
    moore_step_options o;
    memset(r, 0, sizeof *r);
    moore_step_options_default(&o);
    o.link_gbps = step_cfg.gbps;
    o.routing = step_cfg.routing;
    o.threads = cli_threads();
    int rc = moore_topology_load(spec, &g, err);
    if (!rc)
        rc = moore_workload_parse(step_cfg.job, &w, err);
    if (!rc)
        rc = moore_step_job(g, &w, &o, r, err);
    moore_graph_free(g);
    return rc;
}

static void add_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

void cli_compare_step_json(const char *spec, const moore_report *row, cJSON *o)
{
    if (!step_cfg.job || !o)
        return;
    moore_step_result r;
    moore_error err;
    moore_error_clear(&err);
    if (step_of(spec, &r, &err))
        fprintf(stderr, "moore: compare: step of %s: %s\n", spec, err.msg);
    add_num(o, "step_seconds_lower", r.step_lower > 0 ? r.step_lower : NAN);
    add_num(o, "step_seconds_upper", r.step_upper > 0 ? r.step_upper : NAN);
    add_num(o, "ideal_seconds", r.ideal > 0 ? r.ideal : NAN);
    add_num(o, "slowdown", r.ideal > 0 ? r.slowdown : NAN);
    add_num(o, "cost_per_step", r.ideal > 0 ? cost_per_step(row, r.step_upper) : NAN);
    moore_step_result_clear(&r);
}

/* One ranked row. */
typedef struct step_rank {
    int row;
    double lower, upper, ideal, slowdown, cost;
} step_rank;

static int by_upper(const void *a, const void *b)
{
    const step_rank *x = a, *y = b;
    if (x->upper != y->upper)   /* unmeasured (infinite) rows last */
        return x->upper < y->upper ? -1 : 1;
    if (x->cost != y->cost && isfinite(x->cost) && isfinite(y->cost))
        return x->cost < y->cost ? -1 : 1;   /* as fast: the cheaper per step first */
    return x->row - y->row;
}

int cli_compare_step_table(const moore_compare *c)
{
    if (!step_cfg.job || c->count == 0)
        return 0;
    step_rank *rk = calloc((size_t)c->count, sizeof *rk);
    if (!rk)
        return 1;
    for (int i = 0; i < c->count; i++) {
        moore_step_result r;
        moore_error err;
        moore_error_clear(&err);
        rk[i] = (step_rank){i, INFINITY, INFINITY, NAN, NAN, NAN};
        if (step_of(c->rows[i].spec, &r, &err)) {
            fprintf(stderr, "moore: compare: step of %s: %s\n", c->rows[i].spec, err.msg);
            continue;
        }
        rk[i] = (step_rank){i, r.step_lower, r.step_upper, r.ideal, r.slowdown,
                            cost_per_step(&c->rows[i].report, r.step_upper)};
        moore_step_result_clear(&r);
    }
    qsort(rk, (size_t)c->count, sizeof *rk, by_upper);
    printf("\none step of %s at %g Gb/s, routing %s, fastest first (docs/step-time.md)\n\n",
           step_cfg.job, step_cfg.gbps, step_cfg.routing ? step_cfg.routing : "optimal");
    static const char *const head[] = {"topology", "step s lo", "step s hi", "ideal s",
                                       "slowdown", "$/step (3 y)"};
    cli_table tb;
    int rc = cli_table_init(&tb, 6, head, "lrrrrr");
    for (int i = 0; !rc && i < c->count; i++) {
        char cell[5][32];
        double v[5] = {rk[i].lower, rk[i].upper, rk[i].ideal, rk[i].slowdown, rk[i].cost};
        for (int k = 0; k < 5; k++) {
            if (!isfinite(v[k]))
                snprintf(cell[k], sizeof cell[k], "-");
            else if (k == 4)
                snprintf(cell[k], sizeof cell[k], "%.4f", v[k]);
            else
                snprintf(cell[k], sizeof cell[k], "%.4g", v[k]);
        }
        const char *line[] = {c->rows[rk[i].row].spec, cell[0], cell[1], cell[2], cell[3],
                              cell[4]};
        rc = cli_table_add(&tb, line);
    }
    if (!rc)
        cli_table_print(&tb, stdout);
    cli_table_free(&tb);
    free(rk);
    return rc;
}
