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

/* The best lower bound on θ the throughput computation has proven so far. */
static void watch_bounds(void *ctx, int64_t phase, double lower, double upper, double seconds)
{
    (void)phase, (void)upper, (void)seconds;
    *(double *)ctx = lower;
}

/* Stops the computation once θ ≥ 1 is proven: the phase then runs at its
 * servers' line rate, its time is exact (the ideal), and the rest of the
 * bracket would change nothing. */
static int at_line_rate(void *ctx) { return *(const double *)ctx >= 1.0; }

/* Proven bounds on θ of t (t->total > 0). */
static int theta(const step_context *c, const moore_traffic *t, moore_step_phase *ph,
                 moore_error *err)
{
    moore_flow_options fo;
    double lower = 0;
    moore_flow_options_default(&fo);
    fo.eps = c->o->eps > 0 ? c->o->eps : 0.1;
    fo.threads = c->o->threads;
    fo.time_limit = c->o->time_limit;
    fo.max_phases = c->o->max_phases;
    fo.bounds = watch_bounds;
    fo.bounds_ctx = &lower;
    fo.cancelled = at_line_rate;
    fo.cancel_ctx = &lower;
    moore_flow_result f;
    int rc = c->routing ? moore_routed_throughput(c->g, c->routing, t, &fo, c->o->exact, &f, err)
             : c->o->exact ? moore_flow_exact(c->g, t, &fo, &f, err)
                           : moore_flow_approx(c->g, t, &fo, &f, err);
    if (rc)
        return rc;
    ph->theta_lower = f.lower;
    ph->theta_upper = f.upper;
    ph->converged = f.converged || f.lower >= 1.0;
    return MOORE_OK;
}

/* Seconds of `bytes` through a link at rate min(1, θ)·B. */
static double seconds(double bytes, double gbps, double theta)
{
    double rate = fmin(1.0, theta);
    return rate > 0 ? bytes * 8.0 / (gbps * 1e9 * rate) : INFINITY;
}

static int step_time_phase(const step_context *c, const moore_phase *p, const moore_traffic *mix,
                           const moore_step_phase *known, moore_step_phase *ph, moore_error *err)
{
    memset(ph, 0, sizeof *ph);
    snprintf(ph->name, sizeof ph->name, "%s", p->name);
    ph->bytes = p->bytes;
    ph->ideal_seconds = seconds(p->bytes, c->o->link_gbps, 1.0);
    ph->network = p->traffic->total > 0;
    ph->converged = 1;
    ph->theta_lower = ph->theta_upper = INFINITY;
    if (ph->network && known) {
        ph->theta_lower = known->theta_lower;
        ph->theta_upper = known->theta_upper;
        ph->converged = known->converged;
    } else if (ph->network) {
        int rc = theta(c, mix ? mix : p->traffic, ph, err);
        if (rc)
            return rc;
    }
    ph->seconds_lower = seconds(p->bytes, c->o->link_gbps, ph->theta_upper);
    ph->seconds_upper = seconds(p->bytes, c->o->link_gbps, ph->theta_lower);
    return MOORE_OK;
}

/* Whether b is aᵀ up to a factor per entry: the same demands reversed, each
 * b(t,s) within [rmin, rmax]·a(s,t) (rows of b in ascending order, as the
 * phases make them; anything else says no). O(n + entries). */
static int transposed(const moore_traffic *a, const moore_traffic *b, double *rmin,
                      double *rmax)
{
    int32_t n = a->n;
    if (a->weight || b->weight || b->n != n || a->offs[n] != b->offs[n])
        return 0;
    int64_t *at = calloc((size_t)n + 1, sizeof *at);  /* next entry of aᵀ's row t in b */
    int ok = at != NULL;
    for (int32_t t = 0; ok && t < n; t++)
        at[t] = b->offs[t];
    *rmin = INFINITY, *rmax = 0;
    for (int32_t s = 0; ok && s < n; s++)   /* a's rows in order: aᵀ's rows ascend in s */
        for (int64_t k = a->offs[s]; ok && k < a->offs[s + 1]; k++) {
            int32_t t = a->dst[k];
            int64_t q = at[t]++;
            ok = q < b->offs[t + 1] && b->dst[q] == s;
            double r = ok ? b->demand[q] / a->demand[k] : 0;
            *rmin = fmin(*rmin, r), *rmax = fmax(*rmax, r);
        }
    free(at);
    return ok && *rmin > 0 && *rmax <= *rmin * (1 + 1e-6);
}

/* An earlier phase whose matrix phase k's is the transpose of (ep_combine
 * reverses ep_dispatch), its θ bounds scaled into *out: reversing every path
 * carries Tᵀ as T (a link has the same capacity both ways), so θ(Tᵀ) = θ(T),
 * and b ≤ rmax·aᵀ, b ≥ rmin·aᵀ give θ(b) ≥ θ(a)/rmax, θ(b) ≤ θ(a)/rmin.
 * Only under optimal routing (a routing's paths need not reverse) and for a
 * job alone (a mix with other jobs is not transposed). */
static const moore_step_phase *reuse_transposed(const step_context *c, const moore_phases *p,
                                                int32_t k, const moore_step_phase *done,
                                                moore_step_phase *out)
{
    double rmin, rmax;
    for (int32_t j = 0; !c->routing && j < k; j++)
        if (done[j].network && isfinite(done[j].theta_lower) &&
            transposed(p->phase[j].traffic, p->phase[k].traffic, &rmin, &rmax)) {
            *out = done[j];
            out->theta_lower = done[j].theta_lower / rmax;
            out->theta_upper = done[j].theta_upper / rmin;
            return out;
        }
    return NULL;
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
        moore_step_phase same;
        const moore_step_phase *known =
            m == 1 ? reuse_transposed(c, p, k, r->phase, &same) : NULL;
        if (m > 1 && p->phase[k].traffic->total > 0)
            rc = moore_workload_traffic_sum(c->g, m, t, wt, &mix, err);
        if (!rc)
            rc = step_time_phase(c, &p->phase[k], mix, known, &r->phase[k], err);
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

int moore_step_job(const moore_graph *g, const moore_workload *w, const moore_step_options *o,
                   moore_step_result *out, moore_error *err)
{
    int32_t *sr = NULL;
    int64_t n = 0;
    memset(out, 0, sizeof *out);
    int rc = moore_workload_ranks(g, w, &n, err);
    if (!rc && !(sr = moore_malloc((size_t)n + 1, sizeof *sr, err)))
        rc = core_alloc_code(err);
    if (!rc)
        rc = moore_workload_place(g, w, o->seed, sr, err);
    const int32_t *srp = sr;
    if (!rc)
        rc = moore_step_jobs(g, 1, &w, &srp, o, out, err);
    free(sr);
    return rc;
}
