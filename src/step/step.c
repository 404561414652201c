/* step.c — a training step's communication time (step.h, docs/step-time.md):
 * each phase of each job timed from the proven throughput of its switch
 * matrix (flow.h under optimal routing, routing.h under a routing built once
 * for all phases), with the other jobs' step mix as competing traffic.
 *
 * This module sits above workload/ (the phases), flow/ and routing/ (the
 * throughput), which are siblings or lower and never call it. */
#include "core/alloc.h"
#include "step_internal.h"
#include "moore/flow.h"
#include "moore/routing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void moore_step_options_default(moore_step_options *o)
{
    memset(o, 0, sizeof *o);
    o->link_gbps = 400;
    o->eps = 0.1;
    o->seed = 1;
    o->search_evals = 100;
}

void moore_step_result_clear(moore_step_result *r)
{
    free(r->phase);
    memset(r, 0, sizeof *r);
}

int step_context_open(const moore_graph *g, const moore_step_options *o, step_context *c,
                      moore_error *err)
{
    memset(c, 0, sizeof *c);
    c->g = g;
    c->o = o;
    if (!(o->link_gbps > 0) || !isfinite(o->link_gbps))
        return moore_error_set(err, MOORE_EINVAL, "step: --link-rate %g must be a positive "
                               "finite number of Gb/s", o->link_gbps);
    if (!(o->compute >= 0) || !isfinite(o->compute))
        return moore_error_set(err, MOORE_EINVAL, "step: --compute %g must be a finite number "
                               "of seconds >= 0", o->compute);
    if (!o->routing || strcmp(o->routing, "optimal") == 0)
        return MOORE_OK;
    moore_routing_options ro;
    moore_routing_options_default(&ro);
    ro.threads = o->threads;
    int rc = moore_routing_parse(o->routing, &ro, err);
    if (!rc)
        rc = moore_routing_build(g, &ro, &c->routing, err);
    return rc;
}

void step_context_close(step_context *c)
{
    moore_routing_free(c->routing);
    c->routing = NULL;
}

/* Proven bounds on θ of t (t->total > 0). */
static int theta(const step_context *c, const moore_traffic *t, moore_step_phase *ph,
                 moore_error *err)
{
    moore_flow_options fo;
    moore_flow_options_default(&fo);
    fo.eps = c->o->eps > 0 ? c->o->eps : 0.1;
    fo.threads = c->o->threads;
    fo.time_limit = c->o->time_limit;
    moore_flow_result f;
    int rc = c->routing ? moore_routed_throughput(c->g, c->routing, t, &fo, c->o->exact, &f, err)
             : c->o->exact ? moore_flow_exact(c->g, t, &fo, &f, err)
                           : moore_flow_approx(c->g, t, &fo, &f, err);
    if (rc)
        return rc;
    ph->theta_lower = f.lower;
    ph->theta_upper = f.upper;
    ph->converged = f.converged;
    return MOORE_OK;
}

/* Seconds of `bytes` through a link at rate min(1, θ)·B. */
static double seconds(double bytes, double gbps, double theta)
{
    double rate = fmin(1.0, theta);
    return rate > 0 ? bytes * 8.0 / (gbps * 1e9 * rate) : INFINITY;
}

static int step_time_phase(const step_context *c, const moore_phase *p, const moore_traffic *mix,
                    moore_step_phase *ph, moore_error *err)
{
    memset(ph, 0, sizeof *ph);
    snprintf(ph->name, sizeof ph->name, "%s", p->name);
    ph->bytes = p->bytes;
    ph->ideal_seconds = seconds(p->bytes, c->o->link_gbps, 1.0);
    ph->network = p->traffic->total > 0;
    ph->converged = 1;
    ph->theta_lower = ph->theta_upper = INFINITY;
    if (ph->network) {
        int rc = theta(c, mix ? mix : p->traffic, ph, err);
        if (rc)
            return rc;
    }
    ph->seconds_lower = seconds(p->bytes, c->o->link_gbps, ph->theta_upper);
    ph->seconds_upper = seconds(p->bytes, c->o->link_gbps, ph->theta_lower);
    return MOORE_OK;
}

static int step_total(const moore_step_options *o, moore_step_result *r, moore_error *err)
{
    int found = 0;
    r->step_lower = r->step_upper = r->ideal = 0;
    for (int32_t i = 0; i < r->count; i++) {
        const moore_step_phase *ph = &r->phase[i];
        int over = o->overlap && strcmp(o->overlap, ph->name) == 0;
        double floor = over ? o->compute : 0.0;
        found |= over;
        r->step_lower += fmax(ph->seconds_lower, floor);
        r->step_upper += fmax(ph->seconds_upper, floor);
        r->ideal += fmax(ph->ideal_seconds, floor);
    }
    if (o->overlap && !found) {
        char names[160] = "";
        for (int32_t i = 0; i < r->count; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                     r->phase[i].name);
        return moore_error_set(err, MOORE_EINVAL, "step: --overlap %s is not a phase of the job "
                               "(its phases: %s)", o->overlap, r->count ? names : "none");
    }
    r->slowdown = r->ideal > 0 ? r->step_upper / r->ideal : 1.0;
    r->slowdown_lower = r->ideal > 0 ? r->step_lower / r->ideal : 1.0;
    return MOORE_OK;
}

/* A job's step mix: Σ bytes_φ·T_φ / Σ bytes_φ, the matrix of its servers'
 * links kept busy at line rate through its step. */
static int step_mix(const moore_graph *g, const moore_phases *p, moore_traffic **out,
                    moore_error *err)
{
    *out = NULL;
    const moore_traffic **t = moore_malloc((size_t)p->count + 1, sizeof *t, err);
    double *wt = moore_malloc((size_t)p->count + 1, sizeof *wt, err);
    int rc = !t || !wt ? core_alloc_code(err) : MOORE_OK;
    double sum = 0;
    for (int32_t i = 0; !rc && i < p->count; i++)
        sum += p->phase[i].bytes;
    for (int32_t i = 0; !rc && i < p->count; i++) {
        t[i] = p->phase[i].traffic;
        wt[i] = p->phase[i].bytes / sum;
    }
    if (!rc)
        rc = moore_workload_traffic_sum(g, p->count, t, wt, out, err);
    free(t);
    free(wt);
    return rc;
}

/* Times job j's phases against the other jobs' mixes (mixes[i], NULL for j). */
static int time_job(const step_context *c, const moore_phases *p, int32_t jobs, int32_t j,
                    moore_traffic **mixes, moore_step_result *r, moore_error *err)
{
    int rc = MOORE_OK;
    const moore_traffic **t = moore_malloc((size_t)jobs, sizeof *t, err);
    double *wt = moore_malloc((size_t)jobs, sizeof *wt, err);
    r->phase = moore_calloc((size_t)p->count + 1, sizeof *r->phase, err);
    if (!t || !wt || !r->phase) {
        rc = core_alloc_code(err);
        goto done;
    }
    r->count = p->count;
    for (int32_t k = 0; k < p->count && !rc; k++) {
        moore_traffic *mix = NULL;
        int32_t m = 0;
        t[m] = p->phase[k].traffic;
        wt[m++] = 1.0;
        for (int32_t i = 0; i < jobs; i++)
            if (i != j && mixes[i]) {
                t[m] = mixes[i];
                wt[m++] = 1.0;
            }
        if (m > 1 && p->phase[k].traffic->total > 0)
            rc = moore_workload_traffic_sum(c->g, m, t, wt, &mix, err);
        if (!rc)
            rc = step_time_phase(c, &p->phase[k], mix, &r->phase[k], err);
        moore_traffic_free(mix);
    }
    if (!rc)
        rc = step_total(c->o, r, err);
done:
    free(t);
    free(wt);
    return rc;
}

/* Refuses two jobs on one server. */
static int check_disjoint(const moore_graph *g, int32_t jobs, const moore_workload *const *w,
                          const int32_t *const *sr, moore_error *err)
{
    int64_t S = moore_workload_servers(g);
    int32_t *owner = moore_malloc((size_t)S, sizeof *owner, err);
    if (!owner)
        return core_alloc_code(err);
    int rc = MOORE_OK;
    for (int64_t s = 0; s < S; s++)
        owner[s] = -1;
    for (int32_t j = 0; j < jobs && !rc; j++) {
        int64_t N;
        rc = moore_workload_ranks(g, w[j], &N, err);
        for (int64_t r = 0; !rc && r < N; r++) {
            int32_t s = sr[j][r];
            if (s < 0 || s >= S || (owner[s] >= 0 && owner[s] != j))
                rc = moore_error_set(err, MOORE_EINVAL, "step: server %d of job %d is outside "
                                     "the topology or used by job %d", (int)s, (int)j + 1,
                                     s < 0 || s >= S ? 0 : (int)owner[s] + 1);
            else
                owner[s] = j;
        }
    }
    free(owner);
    return rc;
}

int step_jobs(const step_context *c, int32_t jobs, const moore_workload *const *w,
              const int32_t *const *sr, moore_step_result *out, moore_error *err)
{
    for (int32_t j = 0; j < jobs; j++)
        memset(&out[j], 0, sizeof out[j]);
    int rc = check_disjoint(c->g, jobs, w, sr, err);
    moore_phases *ph = moore_calloc((size_t)jobs, sizeof *ph, err);
    moore_traffic **mixes = moore_calloc((size_t)jobs, sizeof *mixes, err);
    if (!rc && (!ph || !mixes))
        rc = core_alloc_code(err);
    for (int32_t j = 0; j < jobs && !rc; j++) {
        rc = moore_workload_phases(c->g, w[j], sr[j], &ph[j], err);
        if (!rc && jobs > 1 && ph[j].count > 0)
            rc = step_mix(c->g, &ph[j], &mixes[j], err);
    }
    for (int32_t j = 0; j < jobs && !rc; j++)
        rc = time_job(c, &ph[j], jobs, j, mixes, &out[j], err);
    for (int32_t j = 0; ph && mixes && j < jobs; j++) {
        moore_phases_clear(&ph[j]);
        moore_traffic_free(mixes[j]);
    }
    free(ph);
    free(mixes);
    return rc;
}

int moore_step_jobs(const moore_graph *g, int32_t jobs, const moore_workload *const *w,
                    const int32_t *const *server_of_rank, const moore_step_options *o,
                    moore_step_result *out, moore_error *err)
{
    step_context c;
    for (int32_t j = 0; j < jobs; j++)
        memset(&out[j], 0, sizeof out[j]);
    int rc = step_context_open(g, o, &c, err);
    if (!rc)
        rc = step_jobs(&c, jobs, w, server_of_rank, out, err);
    step_context_close(&c);
    if (rc)
        for (int32_t j = 0; j < jobs; j++)
            moore_step_result_clear(&out[j]);
    return rc;
}
