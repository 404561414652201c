/* cmd_step.c — `moore step TOPO --job JOB --link-rate GBPS [--routing R]
 * [--place P] [--overlap PHASE --compute S] [--json]`: the communication
 * time of a training step, phase by phase, from proven throughput, against
 * the same servers on a non-blocking fabric (docs/step-time.md). Several
 * --job share the fabric on disjoint servers; --place search looks for a
 * faster placement. The library does the work (include/moore/step.h). */
#include "cli.h"
#include "moore/step.h"
#include "moore/workload.h"

#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STEP_MAX_JOBS 16

const char cmd_step_usage[] =
    "usage: moore step TOPO --job JOB [--job JOB ...] --link-rate GBPS [--routing R]\n"
    "                  [--place linear|random|group|search] [--overlap PHASE --compute S]\n"
    "                  [--exact | --eps E] [--time-limit S] [--seed S] [--evals N] [--json]\n\n"
    "How long one training step of JOB spends communicating on TOPO: the job's phases\n"
    "(tp, pp, dp, ep_dispatch, ep_combine; or the one collective) in sequence, each taking\n"
    "its bytes through the busiest server's link over (its proven throughput x the link\n"
    "rate), the throughput capped at the link rate; and the same on a non-blocking fabric\n"
    "of the same servers (ideal), and the slowdown (docs/step-time.md).\n\n"
    "  --job JOB        llm:tp=T,pp=P,dp=D[,layers=,hidden=,seq=,mbs=,micro=,dtype=,...],\n"
    "                   moe:tp=T,pp=P,dp=D,ep=E[,experts=X,topk=K,skew=Z,...],\n"
    "                   allreduce[:algo=ring|tree|hierarchical,servers=N,bytes=S],\n"
    "                   alltoall[:servers=N,bytes=S] (docs/ai-traffic.md); repeat for\n"
    "                   several jobs on disjoint servers, placed in the order given\n"
    "  --link-rate GBPS every link's rate in Gb/s (servers' links included), e.g. 400\n"
    "  --routing R      optimal (default: any split, the max concurrent flow's bounds), or\n"
    "                   only the paths of ecmp, minimal, ksp[:k=K], valiant, ugal\n"
    "  --place P        placement of every job (default: the job's place=, else linear);\n"
    "                   search: a seeded local search from the best of linear, random and\n"
    "                   group (one job only)\n"
    "  --overlap PHASE  the phase that runs alongside --compute S seconds of compute (the\n"
    "                   step counts the longer of the two); both or neither\n"
    "  --exact          exact throughput (Clp) instead of (1+eps) bounds\n"
    "  --eps E          stop each throughput once upper <= (1+E)*lower (default 0.1)\n"
    "  --time-limit S   seconds per throughput computation (bounds so far)\n"
    "  --seed S         seed of random placement and of the search (default 1)\n"
    "  --evals N        placement search: steps timed after the start (default 100)\n"
    "  --json           one JSON object instead of text\n\n"
    "Keys: topology, family, params, job, placement, routing, link_rate_gbps, servers,\n"
    "ranks, phases (name, bytes, network, throughput_lower, throughput_upper,\n"
    "seconds_lower, seconds_upper, ideal_seconds, converged), step_seconds_lower,\n"
    "step_seconds_upper, ideal_seconds, slowdown (step_seconds_upper / ideal_seconds),\n"
    "slowdown_lower, overlap and compute_seconds (with --overlap), search (with --place\n"
    "search: linear, random, group, start, evaluations, accepted, gain); several jobs:\n"
    "jobs, one object per job.\n";

static const char *const PLACE_NAMES[3] = {"linear", "random", "group"};

/* A number, or null when it is not finite (an unbounded time, θ = ∞). */
static void add_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *phases_json(const moore_step_result *r)
{
    cJSON *a = cJSON_CreateArray();
    for (int32_t i = 0; i < r->count; i++) {
        const moore_step_phase *p = &r->phase[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", p->name);
        cJSON_AddNumberToObject(o, "bytes", p->bytes);
        cJSON_AddBoolToObject(o, "network", p->network);
        add_num(o, "throughput_lower", p->theta_lower);
        add_num(o, "throughput_upper", p->theta_upper);
        add_num(o, "seconds_lower", p->seconds_lower);
        add_num(o, "seconds_upper", p->seconds_upper);
        add_num(o, "ideal_seconds", p->ideal_seconds);
        cJSON_AddBoolToObject(o, "converged", p->converged);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* One job's keys into o. */
static void job_json(cJSON *o, const char *spec, const char *place, int64_t ranks,
                     const moore_step_result *r)
{
    cJSON_AddStringToObject(o, "job", spec);
    cJSON_AddStringToObject(o, "placement", place);
    cJSON_AddNumberToObject(o, "ranks", (double)ranks);
    cJSON_AddItemToObject(o, "phases", phases_json(r));
    add_num(o, "step_seconds_lower", r->step_lower);
    add_num(o, "step_seconds_upper", r->step_upper);
    add_num(o, "ideal_seconds", r->ideal);
    add_num(o, "slowdown", r->slowdown);
    add_num(o, "slowdown_lower", r->slowdown_lower);
}

static void job_text(const char *spec, const char *place, int64_t ranks,
                     const moore_step_result *r)
{
    printf("job %s (%lld ranks, %s placement)\n", spec, (long long)ranks, place);
    printf("  %-12s %14s %10s %10s %12s %12s %12s\n", "phase", "bytes/server", "theta_lo",
           "theta_hi", "seconds_lo", "seconds_hi", "ideal_s");
    for (int32_t i = 0; i < r->count; i++) {
        const moore_step_phase *p = &r->phase[i];
        if (p->network)
            printf("  %-12s %14.6g %10.4g %10.4g %12.6g %12.6g %12.6g\n", p->name, p->bytes,
                   p->theta_lower, p->theta_upper, p->seconds_lower, p->seconds_upper,
                   p->ideal_seconds);
        else
            printf("  %-12s %14.6g %10s %10s %12.6g %12.6g %12.6g\n", p->name, p->bytes,
                   "in-switch", "-", p->seconds_lower, p->seconds_upper, p->ideal_seconds);
    }
    printf("  step %.6g .. %.6g s, ideal %.6g s, slowdown %.4g .. %.4g\n", r->step_lower,
           r->step_upper, r->ideal, r->slowdown_lower, r->slowdown);
}

/* The CLI's options. */
typedef struct step_cli {
    const char *topo, *jobs[STEP_MAX_JOBS], *place, *rate;
    int njobs, json, compute_given;
    moore_step_options o;
} step_cli;

static int parse_args(int argc, char **argv, step_cli *c)
{
    cli_args a;
    long long seed = 1, evals = 100;
    moore_step_options_default(&c->o);
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_flag(&a, "--json", NULL))
            c->json = 1;
        else if (cli_flag(&a, "--exact", NULL))
            c->o.exact = 1;
        else if (cli_option(&a, "--job", NULL)) {
            if (c->njobs == STEP_MAX_JOBS)
                return cli_usage_error("step: at most %d --job", STEP_MAX_JOBS);
            c->jobs[c->njobs++] = a.value;
        } else if (cli_option(&a, "--link-rate", NULL))
            c->rate = a.value;
        else if (cli_option(&a, "--routing", NULL))
            c->o.routing = a.value;
        else if (cli_option(&a, "--place", NULL))
            c->place = a.value;
        else if (cli_option(&a, "--overlap", NULL))
            c->o.overlap = a.value;
        else if (cli_option(&a, "--compute", NULL))
            c->compute_given = cli_double_value(&a, "--compute", 0, 1e12, &c->o.compute);
        else if (cli_option(&a, "--eps", NULL))
            cli_double_value(&a, "--eps", 1e-4, 1.0, &c->o.eps);
        else if (cli_option(&a, "--time-limit", NULL))
            cli_double_value(&a, "--time-limit", 1e-3, 1e9, &c->o.time_limit);
        else if (cli_option(&a, "--seed", NULL))
            cli_int_value(&a, "--seed", 0, (long long)9e18, &seed);
        else if (cli_option(&a, "--evals", NULL))
            cli_int_value(&a, "--evals", 0, 1000000, &evals);
        else if (cli_positional(&a, &c->topo))
            return 2;
    }
    if (a.bad)
        return 2;
    c->o.seed = (uint64_t)seed;
    c->o.search_evals = (int32_t)evals;
    c->o.threads = cli_threads();
    if (!c->topo)
        return cli_usage_error("step: missing TOPO (see 'moore step --help')");
    if (!c->njobs)
        return cli_usage_error("step: missing --job JOB (see 'moore step --help')");
    if (!c->rate)
        return cli_usage_error("step: missing --link-rate GBPS (every link's rate in Gb/s)");
    char *end;
    c->o.link_gbps = strtod(c->rate, &end);
    if (end == c->rate || *end || !(c->o.link_gbps > 0) || !isfinite(c->o.link_gbps))
        return cli_usage_error("step: --link-rate %s must be a positive finite number of Gb/s",
                               c->rate);
    if (!c->o.overlap != !c->compute_given)
        return cli_usage_error("step: --overlap PHASE and --compute SECONDS go together");
    if (c->place && strcmp(c->place, "search") && strcmp(c->place, "linear") &&
        strcmp(c->place, "random") && strcmp(c->place, "group"))
        return cli_usage_error("step: --place %s is not linear, random, group or search",
                               c->place);
    if (c->place && !strcmp(c->place, "search") && c->njobs > 1)
        return cli_usage_error("step: --place search takes one --job (%d given)", c->njobs);
    return 0;
}

/* Parses the jobs and places them in order on the servers left free. */
static int place_jobs(const moore_graph *g, const step_cli *c, moore_workload *w,
                      int32_t **sr, int64_t *ranks, moore_error *err)
{
    int64_t S = moore_workload_servers(g);
    unsigned char *taken = calloc((size_t)S, 1);
    int rc = taken ? MOORE_OK : moore_error_set(err, MOORE_ENOMEM, "out of memory");
    for (int j = 0; j < c->njobs && !rc; j++) {
        rc = moore_workload_parse(c->jobs[j], &w[j], err);
        if (!rc && c->place && strcmp(c->place, "search"))
            w[j].place = !strcmp(c->place, "linear")   ? MOORE_PLACE_LINEAR
                         : !strcmp(c->place, "random") ? MOORE_PLACE_RANDOM
                                                       : MOORE_PLACE_GROUP;
        if (!rc)
            rc = moore_workload_ranks(g, &w[j], &ranks[j], err);
        if (!rc && !(sr[j] = malloc((size_t)ranks[j] * sizeof *sr[j])))
            rc = moore_error_set(err, MOORE_ENOMEM, "out of memory");
        if (!rc && c->place && !strcmp(c->place, "search"))
            break;   /* one job: moore_step_search_place places it */
        if (!rc)
            rc = moore_workload_place_on(g, &w[j], c->o.seed, taken, sr[j], err);
        for (int64_t r = 0; !rc && r < ranks[j]; r++)
            taken[sr[j][r]] = 1;
    }
    free(taken);
    return rc;
}

static void print_json(const moore_graph *g, const step_cli *c, const moore_workload *w,
                       const int64_t *ranks, const moore_step_result *res,
                       const moore_step_search *s)
{
    cJSON *o = cJSON_CreateObject();
    if (g->family) {
        cJSON_AddStringToObject(o, "topology", moore_graph_spec(g));
        cJSON_AddStringToObject(o, "family", g->family);
        cJSON_AddStringToObject(o, "params", g->params ? g->params : "");
    } else {
        cJSON_AddNullToObject(o, "topology");
        cJSON_AddNullToObject(o, "family");
        cJSON_AddNullToObject(o, "params");
    }
    cJSON_AddStringToObject(o, "routing", c->o.routing ? c->o.routing : "optimal");
    cJSON_AddNumberToObject(o, "link_rate_gbps", c->o.link_gbps);
    cJSON_AddNumberToObject(o, "servers", (double)moore_workload_servers(g));
    if (c->o.overlap) {
        cJSON_AddStringToObject(o, "overlap", c->o.overlap);
        cJSON_AddNumberToObject(o, "compute_seconds", c->o.compute);
    }
    cJSON *jobs = c->njobs > 1 ? cJSON_AddArrayToObject(o, "jobs") : NULL;
    for (int j = 0; j < c->njobs; j++) {
        cJSON *jo = jobs ? cJSON_CreateObject() : o;
        job_json(jo, c->jobs[j], s ? "search" : PLACE_NAMES[w[j].place], ranks[j], &res[j]);
        if (jobs)
            cJSON_AddItemToArray(jobs, jo);
    }
    if (s) {
        cJSON *so = cJSON_AddObjectToObject(o, "search");
        add_num(so, "linear", s->linear);
        add_num(so, "random", s->random);
        add_num(so, "group", s->group);
        cJSON_AddStringToObject(so, "start", s->start);
        cJSON_AddNumberToObject(so, "evaluations", s->evaluations);
        cJSON_AddNumberToObject(so, "accepted", s->accepted);
        add_num(so, "gain", s->gain);
    }
    cli_json_print(o);
}

static void print_text(const moore_graph *g, const step_cli *c, const moore_workload *w,
                       const int64_t *ranks, const moore_step_result *res,
                       const moore_step_search *s)
{
    const char *spec = moore_graph_spec(g);
    printf("topology %s, %lld servers, links at %g Gb/s, routing %s\n", spec ? spec : c->topo,
           (long long)moore_workload_servers(g), c->o.link_gbps,
           c->o.routing ? c->o.routing : "optimal");
    if (c->o.overlap)
        printf("overlap %s with %g s of compute\n", c->o.overlap, c->o.compute);
    for (int j = 0; j < c->njobs; j++)
        job_text(c->jobs[j], s ? "search" : PLACE_NAMES[w[j].place], ranks[j], &res[j]);
    if (s)
        printf("search: linear %.6g s, random %.6g s, group %.6g s; start %s, %d evaluations, "
               "%d swaps kept, gain %.2f%%\n", s->linear, s->random, s->group, s->start,
               (int)s->evaluations, (int)s->accepted, 100 * s->gain);
}

int cmd_step(int argc, char **argv)
{
    step_cli c;
    memset(&c, 0, sizeof c);
    int status = parse_args(argc, argv, &c);
    if (status)
        return status;
    moore_error err;
    moore_error_clear(&err);
    moore_graph *g = NULL;
    moore_workload w[STEP_MAX_JOBS];
    int32_t *sr[STEP_MAX_JOBS] = {0};
    int64_t ranks[STEP_MAX_JOBS] = {0};
    moore_step_result res[STEP_MAX_JOBS];
    memset(res, 0, sizeof res);
    moore_step_search s;
    int search = c.place && !strcmp(c.place, "search");
    int rc = cli_topology_load(c.topo, &g, &err);
    if (!rc)
        rc = place_jobs(g, &c, w, sr, ranks, &err);
    if (!rc && search)
        rc = moore_step_search_place(g, &w[0], &c.o, sr[0], &s, &res[0], &err);
    else if (!rc) {
        const moore_workload *wp[STEP_MAX_JOBS];
        const int32_t *srp[STEP_MAX_JOBS];
        for (int j = 0; j < c.njobs; j++) {
            wp[j] = &w[j];
            srp[j] = sr[j];
        }
        rc = moore_step_jobs(g, c.njobs, wp, srp, &c.o, res, &err);
    }
    if (!rc && c.json)
        print_json(g, &c, w, ranks, res, search ? &s : NULL);
    else if (!rc)
        print_text(g, &c, w, ranks, res, search ? &s : NULL);
    for (int j = 0; j < c.njobs; j++) {
        free(sr[j]);
        moore_step_result_clear(&res[j]);
    }
    moore_graph_free(g);
    return rc ? cli_fail(&err) : 0;
}
