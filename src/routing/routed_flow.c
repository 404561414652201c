/* routed_flow.c — throughput when traffic may only use a routing's paths
 * (docs/routing.md).
 *
 * Fixed splits (minimal, ECMP): every demand s→t is split the way the tables
 * say (evenly over the next-hop set at every hop), so the arc loads of T are
 * determined and θ = 1 / the largest arc load, exactly. Loads are summed per
 * destination in distance order (ecmp.c); destinations are grouped into a
 * fixed number of blocks with their own load arrays, added in block order,
 * so the result is the same for any thread count.
 *
 * Path sets (ksp, valiant, ugal): the path-restricted maximum concurrent flow
 *   maximise θ  s.t.  Σ_{p ∈ P(s,t)} x_p = θ·T(s,t),  Σ_{p ∋ a} x_p ≤ 1,  x ≥ 0,
 * which lets the flow choose the best split over the given paths.
 *  - exact: that LP in min-congestion form (route T·β, minimise the busiest
 *    arc's load λ, θ = β/λ), solved by Clp as src/flow/lp.c does;
 *  - approximate: Garg–Könemann with the shortest path taken among each
 *    pair's paths only. Both bounds are proven: after k phases every demand
 *    was routed k·β times with arc loads F, so F/max F is feasible and
 *    θ ≥ kβ / max F (also over the window since a snapshot at phase 1, 2, 4,
 *    …); and for any lengths l ≥ 0 the LP dual gives
 *    θ ≤ Σ_a l(a) / Σ T(s,t)·min_{p ∈ P(s,t)} l(p). The minimum path lengths
 *    met when each pair was routed (lengths only grow) make that bound valid
 *    at the end of every phase at no extra cost. It stops once
 *    upper ≤ (1+ε)·lower. The even split over each pair's paths is feasible
 *    too: its θ is the starting lower bound and the demand scale β. Commodities go in batches of fixed size whose
 *    choices are made in parallel from the same lengths and applied in
 *    order, so the result does not depend on the thread count. Like the
 *    unrestricted approximation it is anytime: it stops at o->time_limit or
 *    when o->cancelled says so with the bounds reached (`stopped` set), and
 *    passes improving bounds to o->bounds (flow.h). */
#include "core/alloc.h"
#include "routing_internal.h"

#include "flow/solver.h" /* flow_clock, flow_should_stop, flow_utilisation */

#include <coin/Clp_C_Interface.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#define FIXED_BLOCKS 32
#define GK_BATCH 8192
/* A batch's path choices run in parallel only when they scan at least this
 * many arcs: below it, waking the threads costs more than it saves (and on a
 * loaded machine much more). */
#define GK_PARALLEL_ARCS (1 << 18)

static int check_inputs(const moore_graph *g, const moore_routing *r, const moore_traffic *t,
                        moore_error *err)
{
    if (t->n != g->n || r->n != g->n)
        return moore_error_set(err, MOORE_EINVAL,
                               "routed throughput: the traffic matrix (%d switches) or routing "
                               "(%d) does not match the topology (%d)", (int)t->n, (int)r->n,
                               (int)g->n);
    if (!(t->total > 0))
        return moore_error_set(err, MOORE_EINVAL, "routed throughput: the traffic matrix is empty");
    return MOORE_OK;
}

/* ---- fixed splits ---- */

/* Demands toward the destinations of block b, one destination at a time:
 * starts[b·n + s] is the position in source s's row (destinations
 * ascending) of its first demand to a destination ≥ the block's first, so a
 * block reads each row once and T is never regrouped. One pass over T. */
static void block_starts(const moore_traffic *t, int blocks, int64_t *starts)
{
    int32_t n = t->n;
    for (int32_t s = 0; s < n; s++) {
        int64_t i = t->offs[s];
        for (int b = 0; b < blocks; b++) {
            int32_t t0 = (int32_t)((int64_t)n * b / blocks);
            while (i < t->offs[s + 1] && t->dst[i] < t0)
                i++;
            starts[(int64_t)b * n + s] = i;
        }
    }
}

/* Into dem (zeroed by the caller) the demands T(·, tt); returns whether any. */
static int take_column(const moore_traffic *t, int32_t tt, int64_t *cur, double *dem)
{
    int any = 0;
    for (int32_t s = 0; s < t->n; s++) {
        int64_t i = cur[s];
        if (i < t->offs[s + 1] && t->dst[i] == tt) {
            dem[s] = t->demand[i];
            cur[s] = i + 1;
            any = 1;
        }
    }
    return any;
}

/* Per thread: the distance order, its counting-sort scratch, the demands
 * toward one destination, the row cursors and the next-hop scratch. */
typedef struct fixed_ws {
    int32_t *order, *count;
    double *dem;
    int64_t *cur, *hop;
} fixed_ws;

/* Called inside the parallel region: a failure's code goes to *fail. */
static int fixed_ws_init(fixed_ws *w, const moore_graph *g, int32_t maxd, int *fail)
{
    w->order = core_par_malloc((size_t)g->n, sizeof *w->order, fail);
    w->count = core_par_malloc((size_t)maxd + 2, sizeof *w->count, fail);
    w->dem = core_par_malloc((size_t)g->n, sizeof *w->dem, fail);
    w->cur = core_par_malloc((size_t)g->n, sizeof *w->cur, fail);
    w->hop = core_par_malloc((size_t)moore_graph_degree_max(g) + 1, sizeof *w->hop, fail);
    return w->order && w->count && w->dem && w->cur && w->hop;
}

static void fixed_ws_clear(fixed_ws *w)
{
    free(w->order);
    free(w->count);
    free(w->dem);
    free(w->cur);
    free(w->hop);
}

/* Loads of destinations [t0, t1) added to load. */
static void fixed_block(const moore_graph *g, const moore_routing *r, const moore_traffic *t,
                        int32_t t0, int32_t t1, int32_t maxd, const int64_t *starts,
                        fixed_ws *w, double *load)
{
    memcpy(w->cur, starts, (size_t)g->n * sizeof *w->cur);
    for (int32_t tt = t0; tt < t1; tt++) {
        memset(w->dem, 0, (size_t)g->n * sizeof *w->dem);
        if (!take_column(t, tt, w->cur, w->dem))
            continue;
        route_order_by_distance(r, tt, w->order, w->count, maxd);
        route_fixed_load(g, r, tt, w->order, w->dem, load, w->hop);
    }
}

/* The per-block link loads, blocks of destinations on every thread: block b
 * adds its loads into load + b·arcs. */
static int fixed_loads(const moore_graph *g, const moore_routing *r, const moore_traffic *t,
                       const moore_flow_options *o, int blocks, int32_t maxd,
                       const int64_t *starts, double *load, moore_error *err)
{
    int32_t n = g->n;
    int64_t arcs = 2 * g->m;
    int fail = MOORE_OK, done_blocks = 0; /* fail: shared, core/alloc.h */
    int threads = o && o->threads > 0 ? o->threads : omp_get_max_threads();
#pragma omp parallel num_threads(threads)
    {
        fixed_ws w;
        int ok = fixed_ws_init(&w, g, maxd, &fail);
#pragma omp for schedule(dynamic, 1)
        for (int b = 0; b < blocks; b++) {
            if (!ok)
                continue;
            fixed_block(g, r, t, (int32_t)((int64_t)n * b / blocks),
                        (int32_t)((int64_t)n * (b + 1) / blocks), maxd,
                        starts + (int64_t)b * n, &w, load + (int64_t)b * arcs);
            if (o && o->progress) {
#pragma omp atomic
                done_blocks++;
                if (omp_get_thread_num() == 0)
                    o->progress(o->progress_ctx, "routed loads", (double)done_blocks / blocks);
            }
        }
        fixed_ws_clear(&w);
    }
    return core_par_failed(err, fail, "routed throughput scratch");
}

static int fixed_throughput(const moore_graph *g, const moore_routing *r, const moore_traffic *t,
                            const moore_flow_options *o, moore_flow_result *out, moore_error *err)
{
    int32_t n = g->n, maxd = route_max_distance(r);
    int64_t arcs = 2 * g->m;
    int blocks = n < FIXED_BLOCKS ? n : FIXED_BLOCKS;
    double *load = NULL;
    int64_t *starts = NULL;
    int rc = moore_memory_guard((double)blocks * 8.0 * ((double)arcs + n), "the routed link loads",
                                err);
    if (!rc) {
        load = moore_calloc((size_t)blocks * (size_t)arcs + 1, sizeof *load, err);
        starts = moore_malloc((size_t)blocks * (size_t)n, sizeof *starts, err);
        if (!load || !starts)
            rc = core_alloc_code(err);
    }
    if (!rc) {
        block_starts(t, blocks, starts);
        rc = fixed_loads(g, r, t, o, blocks, maxd, starts, load, err);
    }
    if (!rc) {
        for (int b = 1; b < blocks; b++)
            for (int64_t a = 0; a < arcs; a++)
                load[a] += load[(int64_t)b * arcs + a];
        double mx = 0;
        for (int64_t a = 0; a < arcs; a++)
            mx = load[a] > mx ? load[a] : mx;
        out->throughput = out->lower = out->upper = 1.0 / mx;
        out->method = "fixed-split";
        out->converged = 1;
        flow_utilisation(load, arcs, out);
    }
    free(load);
    free(starts);
    return rc;
}

/* ---- path sets ---- */

/* A commodity: a demanded pair and its paths' arcs. */
typedef struct commodities {
    int64_t count;
    double *demand;         /* T(s,t) */
    int64_t *path0, *path1; /* its paths: [path0, path1) in the routing */
    int32_t *arc;           /* arcs of every routing path, at path_offs[p] − p */
    double beta;            /* demand scale: θ of the even split over the paths (≤ θ) */
    double even_util_mean;  /* mean arc utilisation of that split at θ = β */
    double arcs_mean;       /* mean arcs over all paths of one commodity */
} commodities;

static void commodities_clear(commodities *c)
{
    free(c->demand);
    free(c->path0);
    free(c->path1);
    free(c->arc);
}

/* Arc list of path p. */
static const int32_t *path_arcs(const moore_routing *r, const commodities *c, int64_t p,
                                int64_t *len)
{
    *len = r->path_offs[p + 1] - r->path_offs[p] - 1;
    return c->arc + (r->path_offs[p] - p);
}

static int commodities_make(const moore_graph *g, const moore_routing *r, const moore_traffic *t,
                            commodities *c, moore_error *err)
{
    memset(c, 0, sizeof *c);
    int32_t n = g->n;
    int64_t k = t->offs[n];
    int64_t hops = r->path_offs[r->paths] - r->paths;
    int rc = moore_memory_guard(24.0 * (double)k + 4.0 * (double)hops, "the routed flow", err);
    if (rc)
        return rc;
    c->demand = moore_malloc((size_t)k + 1, sizeof *c->demand, err);
    c->path0 = moore_malloc((size_t)k + 1, sizeof *c->path0, err);
    c->path1 = moore_malloc((size_t)k + 1, sizeof *c->path1, err);
    c->arc = moore_malloc((size_t)hops + 1, sizeof *c->arc, err);
    if (!c->demand || !c->path0 || !c->path1 || !c->arc)
        return core_alloc_code(err);
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t p = 0; p < r->paths; p++)
        for (int64_t h = r->path_offs[p]; h + 1 < r->path_offs[p + 1]; h++)
            c->arc[h - p] = (int32_t)core_csr_find(g, r->hops[h], r->hops[h + 1]);
    for (int32_t s = 0; s < n; s++)
        for (int64_t i = t->offs[s]; i < t->offs[s + 1]; i++) {
            int64_t pair = (int64_t)s * n + t->dst[i];
            int64_t j = c->count++;
            c->demand[j] = t->demand[i];
            c->path0[j] = r->pair_offs[pair];
            c->path1[j] = r->pair_offs[pair + 1];
            if (c->path1[j] == c->path0[j])
                return moore_error_set(err, MOORE_EINVAL,
                                       "routed throughput: the routing has no path from switch "
                                       "%d to switch %d", (int)s, (int)t->dst[i]);
        }
    return MOORE_OK;
}

/* θ of the even split over each pair's paths: a feasible flow, so a proven
 * lower bound on the path-restricted optimum, and the demand scale β of the
 * approximation (each phase then loads the busiest arc about once). */
static int even_split(const moore_graph *g, const moore_routing *r, commodities *c,
                      moore_error *err)
{
    double *load = moore_calloc((size_t)(2 * g->m) + 1, sizeof *load, err);
    if (!load)
        return core_alloc_code(err);
    for (int64_t j = 0; j < c->count; j++) {
        double share = c->demand[j] / (double)(c->path1[j] - c->path0[j]);
        for (int64_t p = c->path0[j]; p < c->path1[j]; p++) {
            int64_t hl;
            const int32_t *pa = path_arcs(r, c, p, &hl);
            c->arcs_mean += (double)hl / (double)c->count;
            for (int64_t h = 0; h < hl; h++)
                load[pa[h]] += share;
        }
    }
    double mx = 0, sum = 0;
    for (int64_t a = 0; a < 2 * g->m; a++) {
        mx = load[a] > mx ? load[a] : mx;
        sum += load[a];
    }
    free(load);
    c->beta = 1.0 / mx;
    c->even_util_mean = sum / (double)(2 * g->m) / mx;
    return MOORE_OK;
}

/* min-congestion LP over the path columns (see the header). */
static int path_lp(const moore_graph *g, const moore_routing *r, const commodities *c,
                   moore_flow_result *out, moore_error *err)
{
    int64_t arcs = 2 * g->m, cols = 1, nnz = arcs;
    for (int64_t j = 0; j < c->count; j++) {
        cols += c->path1[j] - c->path0[j];
        for (int64_t p = c->path0[j]; p < c->path1[j]; p++)
            nnz += r->path_offs[p + 1] - r->path_offs[p];
    }
    int64_t rows = c->count + arcs;
    if (cols > 2000000000 || rows > 2000000000 || nnz > 2000000000)
        return moore_error_set(err, MOORE_ETOOBIG,
                               "routed throughput: the path LP would have %lld columns, more "
                               "than Clp can index; use the approximation instead",
                               (long long)cols);
    int rc = moore_memory_guard(60.0 * (double)nnz + 200.0 * (double)(cols + rows),
                                "the path-restricted throughput LP", err);
    if (rc)
        return rc;
    /* one block of doubles: element values, objective, row bounds */
    CoinBigIndex *start = moore_malloc((size_t)cols + 1, sizeof *start, err);
    int *index = moore_malloc((size_t)nnz + 1, sizeof *index, err);
    double *value = moore_calloc((size_t)(nnz + cols + 2 * rows) + 1, sizeof *value, err);
    double *obj = value ? value + nnz : NULL, *rlo = obj ? obj + cols : NULL;
    double *rup = rlo ? rlo + rows : NULL;
    Clp_Simplex *model = NULL;
    if (!start || !index || !value) {
        rc = core_alloc_code(err);
        goto done;
    }
    int64_t z = 0, col = 0;
    start[col] = 0;
    for (int64_t a = 0; a < arcs; a++) {
        index[z] = (int)(c->count + a);
        value[z++] = -1.0;
    }
    obj[col++] = 1.0;
    for (int64_t j = 0; j < c->count; j++) {
        rlo[j] = rup[j] = c->demand[j] * c->beta;
        for (int64_t p = c->path0[j]; p < c->path1[j]; p++) {
            start[col++] = (CoinBigIndex)z;
            index[z] = (int)j;
            value[z++] = 1.0;
            int64_t len;
            const int32_t *pa = path_arcs(r, c, p, &len);
            for (int64_t h = 0; h < len; h++) {
                index[z] = (int)(c->count + pa[h]);
                value[z++] = 1.0;
            }
        }
    }
    start[col] = (CoinBigIndex)z;
    for (int64_t a = 0; a < arcs; a++) {
        rlo[c->count + a] = -DBL_MAX;
        rup[c->count + a] = 0.0;
    }
    model = Clp_newModel();
    if (!model) {
        rc = moore_error_set(err, MOORE_ENOMEM, "Clp could not create a model");
        goto done;
    }
    Clp_setLogLevel(model, 0);
    /* Clp adds the elements of a path that uses an arc twice (none of the
     * builders make one, see valiant.c). */
    Clp_loadProblem(model, (int)cols, (int)rows, start, index, value, NULL, NULL, obj, rlo, rup);
    Clp_setObjSense(model, 1.0);
    Clp_dual(model, 0);
    if (!Clp_isProvenOptimal(model))
        Clp_primal(model, 0);
    if (!Clp_isProvenOptimal(model)) {
        rc = moore_error_set(err, MOORE_EINTERNAL,
                             "routed throughput: Clp stopped without an optimum (status %d)",
                             Clp_status(model));
        goto done;
    }
    const double *act = Clp_getRowActivity(model);
    double lambda = Clp_getColSolution(model)[0];
    out->throughput = out->lower = out->upper = c->beta / lambda;
    out->method = "path-lp-clp";
    out->converged = 1;
    out->phases = Clp_numberIterations(model);
    /* arc loads: the capacity rows hold load − λ */
    for (int64_t a = 0; a < arcs; a++)
        value[a] = fmax(0.0, act[c->count + a] + lambda);
    flow_utilisation(value, arcs, out);
done:
    if (model)
        Clp_deleteModel(model);
    free(start);
    free(index);
    free(value);
    return rc;
}

/* Shortest of commodity j's paths under len; its length into *best. */
static int64_t shortest_path(const moore_routing *r, const commodities *c, int64_t j,
                             const double *len, double *best)
{
    int64_t arg = c->path0[j];
    double b = INFINITY;
    for (int64_t p = c->path0[j]; p < c->path1[j]; p++) {
        int64_t hl;
        const int32_t *pa = path_arcs(r, c, p, &hl);
        double l = 0;
        for (int64_t h = 0; h < hl && l < b; h++)
            l += len[pa[h]];
        if (l < b) {
            b = l;
            arg = p;
        }
    }
    *best = b;
    return arg;
}

/* Σ T·min_p l(p) at the current lengths, summed in fixed blocks so the
 * value does not depend on the thread count. */
static double exact_dual_den(const moore_routing *r, const commodities *c, const double *len,
                             double *part, int threads)
{
    int64_t blocks = (c->count + GK_BATCH - 1) / GK_BATCH;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) \
    if (blocks > 1 && (double)c->count * c->arcs_mean >= 2.0 * GK_PARALLEL_ARCS)
    for (int64_t b = 0; b < blocks; b++) {
        double sum = 0, z;
        for (int64_t j = b * GK_BATCH; j < c->count && j < (b + 1) * GK_BATCH; j++) {
            shortest_path(r, c, j, len, &z);
            sum += c->demand[j] * z;
        }
        part[b] = sum;
    }
    double den = 0;
    for (int64_t b = 0; b < blocks; b++)
        den += part[b];
    return den;
}

typedef struct gk_state {
    double *len, *flow, *snap;
    int64_t *choice;
    double *choice_len;
    double *part;       /* per block of commodities, for exact_dual_den */
} gk_state;

/* One phase: every commodity's demand routed once. Returns Σ T·z (z: the
 * shortest path lengths seen) for the dual bound. A phase on a million
 * commodities takes seconds, so the time limit and the cancel hook (o) are
 * polled between batches too: *stopped is set when the phase was left
 * unfinished (its flow stays: it only adds to the arcs' loads, so the lower
 * bound of the finished phases stays proven; its Σ T·z is partial and must
 * not be used). */
static double gk_phase(const moore_routing *r, const commodities *c, gk_state *s, double eps,
                       int threads, const moore_flow_options *o, const flow_clock *clock,
                       const char **stopped)
{
    double dual_den = 0;
    *stopped = NULL;
    for (int64_t j0 = 0; j0 < c->count; j0 += GK_BATCH) {
        if (o && (*stopped = flow_should_stop(o, clock)))
            return 0;
        int64_t j1 = j0 + GK_BATCH < c->count ? j0 + GK_BATCH : c->count;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64) \
    if ((double)(j1 - j0) * c->arcs_mean >= GK_PARALLEL_ARCS)
        for (int64_t j = j0; j < j1; j++)
            s->choice[j - j0] = shortest_path(r, c, j, s->len, &s->choice_len[j - j0]);
        for (int64_t j = j0; j < j1; j++) {
            double rem = c->demand[j] * c->beta, z = s->choice_len[j - j0];
            int64_t p = s->choice[j - j0];
            dual_den += c->demand[j] * z;
            while (rem > 0) {
                double f = rem < 1.0 ? rem : 1.0;
                int64_t hl;
                const int32_t *pa = path_arcs(r, c, p, &hl);
                for (int64_t h = 0; h < hl; h++) {
                    s->len[pa[h]] *= 1.0 + eps * f;
                    s->flow[pa[h]] += f;
                }
                rem -= f;
                if (rem > 0)
                    p = shortest_path(r, c, j, s->len, &z);
            }
        }
    }
    return dual_den;
}

static int gk_throughput(const moore_graph *g, const moore_routing *r, const commodities *c,
                         const moore_flow_options *o, moore_flow_result *out, moore_error *err)
{
    int64_t arcs = 2 * g->m;
    double eps = o && o->eps > 0 ? o->eps : 0.05;
    int64_t max_phases = o && o->max_phases > 0 ? o->max_phases : 1000000;
    int threads = o && o->threads > 0 ? o->threads : omp_get_max_threads();
    gk_state s;
    s.len = moore_malloc((size_t)arcs + 1, sizeof *s.len, err);
    s.flow = moore_calloc((size_t)arcs + 1, sizeof *s.flow, err);
    s.snap = moore_calloc((size_t)arcs + 1, sizeof *s.snap, err);
    s.choice = moore_malloc(GK_BATCH, sizeof *s.choice, err);
    s.choice_len = moore_malloc(GK_BATCH, sizeof *s.choice_len, err);
    s.part = moore_malloc((size_t)(c->count / GK_BATCH + 1), sizeof *s.part, err);
    int rc = MOORE_OK;
    if (!s.len || !s.flow || !s.snap || !s.choice || !s.choice_len || !s.part) {
        rc = core_alloc_code(err);
        goto done;
    }
    for (int64_t a = 0; a < arcs; a++)
        s.len[a] = 1.0;
    double lower = c->beta, upper = INFINITY, util_mean = c->even_util_mean; /* the even split */
    int64_t phase = 0, snap_phase = 0;
    flow_clock clock;
    flow_clock_start(&clock);
    const char *stopped = NULL;
    while (!(upper <= (1 + eps) * lower)) {
        if (phase >= max_phases) {
            stopped = "max-phases";
            break;
        }
        if (phase > 0 && (stopped = o ? flow_should_stop(o, &clock) : NULL))
            break;
        double den = gk_phase(r, c, &s, eps, threads, o, &clock, &stopped);
        phase += !stopped;
        double D = 0, mx = 0, mxw = 0, sum = 0, sumw = 0;
        for (int64_t a = 0; a < arcs; a++) {
            D += s.len[a];
            mx = s.flow[a] > mx ? s.flow[a] : mx;
            double w = s.flow[a] - s.snap[a];
            mxw = w > mxw ? w : mxw;
            sum += s.flow[a];
            sumw += w;
        }
        double ub = stopped ? INFINITY : D / den;
        /* The stale bound is loose by about the lengths' growth in one
         * phase; near the target, recompute it at the final lengths. */
        if (!stopped && ub > (1 + eps) * lower &&
            (ub <= (1 + 4 * eps) * lower || (phase & 15) == 0)) {
            double exact_ub = D / exact_dual_den(r, c, s.len, s.part, threads);
            ub = exact_ub < ub ? exact_ub : ub;
        }
        upper = ub < upper ? ub : upper;
        double lb = (double)phase * c->beta / mx;
        if (lb > lower) {
            lower = lb;
            util_mean = sum / (double)arcs / mx;
        }
        if (snap_phase > 0 && mxw > 0 && phase > snap_phase) {
            lb = (double)(phase - snap_phase) * c->beta / mxw;
            if (lb > lower) {
                lower = lb;
                util_mean = sumw / (double)arcs / mxw;
            }
        }
        if (stopped)
            break;
        if ((phase & (phase - 1)) == 0) { /* snapshot at phases 1, 2, 4, 8, … */
            memcpy(s.snap, s.flow, (size_t)arcs * sizeof *s.flow);
            snap_phase = phase;
        }
        if (D > 1e200) /* rescale: bounds and choices only use ratios */
            for (int64_t a = 0; a < arcs; a++)
                s.len[a] /= D;
        if (o)
            flow_report_bounds(o, &clock, phase, lower, upper);
        if (o && o->progress)
            o->progress(o->progress_ctx, "routed flow",
                        upper > lower ? fmin(1.0, eps / (upper / lower - 1.0)) : 1.0);
    }
    out->throughput = out->lower = lower;
    out->upper = upper;
    out->method = "garg-konemann-paths";
    out->converged = upper <= (1 + eps) * lower;
    out->stopped = out->converged ? NULL : stopped;
    out->phases = phase;
    out->util_max = 1.0;
    out->util_mean = util_mean;
done:
    free(s.len);
    free(s.flow);
    free(s.snap);
    free(s.choice);
    free(s.choice_len);
    free(s.part);
    return rc;
}

int moore_routed_throughput(const moore_graph *g, const moore_routing *r, const moore_traffic *t,
                            const moore_flow_options *o, int exact, moore_flow_result *out,
                            moore_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = check_inputs(g, r, t, err);
    if (rc)
        return rc;
    out->commodities = moore_traffic_sources(t);
    if (!r->pair_offs)
        return fixed_throughput(g, r, t, o, out, err);
    commodities c;
    rc = commodities_make(g, r, t, &c, err);
    if (!rc)
        rc = even_split(g, r, &c, err);
    if (!rc)
        rc = exact ? path_lp(g, r, &c, out, err) : gk_throughput(g, r, &c, o, out, err);
    /* stopped inside the first phase: the optimum's closed-form bound */
    if (!rc && !isfinite(out->upper))
        rc = moore_flow_tub(g, t, &out->upper, err);
    commodities_clear(&c);
    out->commodities = moore_traffic_sources(t);
    return rc;
}

/* The result when the time limit or a cancel stopped the routing's build:
 * θ ≥ 0 trivially, and θ_routed ≤ θ_optimal ≤ TUB. */
static int stopped_before_paths(const moore_graph *g, const moore_traffic *t,
                                const char *stopped, moore_flow_result *out, moore_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = moore_flow_tub(g, t, &out->upper, err);
    out->throughput = out->lower = 0;
    out->method = "garg-konemann-paths";
    out->converged = 0;
    out->stopped = stopped;
    out->commodities = moore_traffic_sources(t);
    return rc;
}

int moore_routed_throughput_spec(const moore_graph *g, const char *routing, const moore_traffic *t,
                                 const moore_flow_options *o, int exact, moore_flow_result *out,
                                 moore_error *err)
{
    moore_routing_options ro;
    moore_routing_options_default(&ro);
    int rc = moore_routing_parse(routing, &ro, err);
    if (rc)
        return rc;
    double start = omp_get_wtime();
    if (o) {
        ro.threads = o->threads;
        ro.progress = o->progress;
        ro.progress_ctx = o->progress_ctx;
        ro.time_limit = o->time_limit;
        ro.cancelled = o->cancelled;
        ro.cancel_ctx = o->cancel_ctx;
    }
    moore_routing *r = NULL;
    const char *stopped = NULL;
    rc = route_build(g, &ro, &r, &stopped, err);
    if (!rc && stopped) /* no paths yet: only the trivial bracket is proven */
        return stopped_before_paths(g, t, stopped, out, err);
    moore_flow_options left;
    if (!rc && o && o->time_limit > 0) { /* the build's time counts */
        left = *o;
        left.time_limit = fmax(1e-9, o->time_limit - (omp_get_wtime() - start));
        o = &left;
    }
    if (!rc)
        rc = moore_routed_throughput(g, r, t, o, exact, out, err);
    moore_routing_free(r);
    return rc;
}
