/* uniform.c — a proven bracket on uniform throughput from a few passes of
 * BFS with no per-pair state: the fast path of moore_flow_approx for the
 * compact uniform matrix (traffic.h).
 *
 * Why: the approximation (fptas.c) runs phases of one Dijkstra per source
 * under changing lengths, applies each source's flow serially and
 * recomputes exact duals; at 4,000 switches of degree 16 that was 39 s of
 * CPU and at 16,000 minutes. But on the expanders this matrix is asked of
 * (Jellyfish, Xpander, random regular graphs) uniform θ sits at TUB: an
 * optimal routing uses shortest paths only and loads every link equally. So
 * a balanced shortest-path routing brackets θ, often within ε:
 *
 *  - routing: every pair (s,t) is spread over its shortest paths, each path
 *    in proportion to the product of its links' weights y (a Gibbs
 *    distribution over the shortest paths; y = 1 splits evenly over them).
 *    Per source this is one BFS that sums the path weights Z(v) of every
 *    vertex, and one backward pass in reverse BFS order (Brandes's
 *    accumulation): v holds T(s,v) plus what the vertices beyond it forward
 *    through it, and takes it from each in-neighbour u on a shortest path in
 *    proportion to Z(u)·y(u,v). T(s,v) = w_s·w_v/div in closed form, so a
 *    source's demands cost nothing to list.
 *  - lower bound: uniform traffic is symmetric, so routing every pair's
 *    mirror along the reversed paths and averaging (fold.c) loads both arcs
 *    of a link with half the link's total L; the routing scaled by
 *    1/max(L/2) is feasible: θ ≥ 2 / max_link L.
 *  - upper bound: TUB, 2|E| / Σ T·dist (tub.c); Σ T·dist falls out of the
 *    first pass. A shortest-path routing's mean link load is exactly
 *    Σ T·dist / 2|E|, so upper/lower is its max/mean link load.
 *  - balancing: after each pass every link's weight is multiplied by
 *    (mean/L)^γ, so paths over busy links lose share. With γ = 2 a
 *    1,000-switch Jellyfish of degree 16 went max/mean 1.21, 1.055, 1.017
 *    in three passes (γ = 1: 1.21, 1.12, 1.07; γ = 3 oscillated; an even
 *    split per hop instead of per path: 1.23, 1.17, 1.13). A pass that got
 *    worse halves γ; the best pass is kept.
 * The passes end at upper ≤ (1+ε)·lower, or when they stall (θ below TUB,
 * e.g. Slim Fly, whose optimum uses longer paths): the approximation then
 * starts from the best pass's bound. Each pass is O(N·E) time; memory is
 * O(threads·E).
 *
 * Determinism: threads take sources dynamically, so their link loads must
 * sum the same in any grouping. Each contribution (one source's flow over
 * one link) is added in fixed point, rounded up: integer sums do not depend
 * on order, and rounding up keeps every stored load ≥ the routing's load,
 * so the bound stays proven. The unit is 2·total/2^61 (a link carries at
 * most the total demand per direction), so the rounding adds at most N
 * units, far below a double's precision of the loads. */
#include "moore/flow.h"
#include "core/alloc.h"
#include "flow_internal.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#define UNI_PASSES 12    /* at most this many passes */
#define UNI_GAMMA 2.0    /* first reweighting exponent (top of the file) */
#define UNI_YMAX 1e6     /* link weights stay in [1/UNI_YMAX, UNI_YMAX] */
#define UNI_ZMIN 1e-200  /* smallest z (uni_level) */
#define UNI_STALL 0.25   /* a pass that closed less than this share of the way
                          * to 1+ε (as the last did) ends the passes */

/* What a pass keeps per vertex, side by side: the passes visit each
 * neighbour of a vertex for its dist and zin (forward) or dist and per
 * (backward), in no order: one cache line per visit instead of two once
 * the arrays outgrow the cache (512 KB each at 64,000 switches). */
typedef struct uni_vert {
    double zin;         /* weight of the shortest paths from s ... */
    double z;           /* ... and scaled to a maximum of 1 per BFS level */
    double per;         /* flow through v per unit of z(u)·y(u,v) (uni_source) */
    int32_t dist;
} uni_vert;

/* Per-thread scratch of a pass. */
typedef struct uni_ws {
    uni_vert *vx;
    int32_t *queue;
    int64_t *load;      /* fixed-point link loads (on arc u→v for flow u→v) */
} uni_ws;

typedef struct uni_ctx {
    const moore_graph *g;
    const moore_traffic *t;
    const double *y;    /* per arc: its link's weight (equal on both arcs) */
    double unit;        /* fixed-point unit */
    double *part;       /* per source: Σ_v w_v·dist(s,v) */
    int64_t bad_s, bad_t;
    int threads;
    const moore_flow_options *o;
    const flow_clock *clock;
    int32_t sources, done; /* sources with servers; of them done in this pass */
    const char *stopped;   /* why the pass stopped before its last source */
} uni_ctx;

/* z of one BFS level (queue[from..to)): its zin scaled to a maximum of 1.
 * A vertex's split over its in-arcs is a ratio of the previous level's z, so
 * the scale changes nothing, and deep graphs (tori) cannot overflow. A z
 * below UNI_ZMIN (absurdly skewed weights) counts as UNI_ZMIN: the split
 * then differs from the Gibbs one, but zin never underflows, and as the split
 * and zin use the same z every vertex still forwards exactly what it gets. */
static void uni_level(uni_ws *w, int32_t from, int32_t to)
{
    double max = 0;
    for (int32_t i = from; i < to; i++)
        max = w->vx[w->queue[i]].zin > max ? w->vx[w->queue[i]].zin : max;
    double f = max > 0 && isfinite(max) ? 1 / max : 1;
    for (int32_t i = from; i < to; i++) {
        uni_vert *x = &w->vx[w->queue[i]];
        double z = x->zin * f;
        x->z = z > UNI_ZMIN ? z : UNI_ZMIN;
    }
}

/* BFS from s: dist, the order in queue, and zin, the weight of each
 * vertex's shortest paths from s; returns the number reached. */
static int32_t uni_bfs(const moore_graph *g, const double *y, int32_t s, uni_ws *w)
{
    for (int32_t v = 0; v < g->n; v++)
        w->vx[v].dist = -1;
    int32_t head = 0, tail = 1, level_end = 1;
    w->vx[s].dist = 0;
    w->vx[s].zin = w->vx[s].z = 1;
    w->queue[0] = s;
    while (head < tail) {
        if (head == level_end) {
            uni_level(w, head, tail);
            level_end = tail;
        }
        int32_t u = w->queue[head++], du = w->vx[u].dist + 1;
        double zu = w->vx[u].z;
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            uni_vert *x = &w->vx[g->adj[k]];
            if (x->dist < 0) {
                x->dist = du;
                x->zin = zu * y[k];
                w->queue[tail++] = g->adj[k];
            } else if (x->dist == du) {
                x->zin += zu * y[k];
            }
        }
    }
    return tail;
}

/* Whether some switch with servers is out of s's reach (recorded in c). */
static int uni_unreached(uni_ctx *c, int32_t s, int32_t reached, const uni_ws *w)
{
    for (int32_t v = 0; reached < c->g->n && v < c->g->n; v++)
        if (v != s && c->t->weight[v] > 0 && w->vx[v].dist < 0) {
#pragma omp critical
            if (c->bad_s < 0 || s < c->bad_s) {
                c->bad_s = s;
                c->bad_t = v;
            }
            return 1;
        }
    return 0;
}

/* Source s: its routing's loads added to w->load, Σ w_v·dist to c->part.
 * Backward in BFS order, each vertex u pulls from the vertices v one level
 * beyond it what they send over u→v: per(v)·z(u)·y(u,v) (deeper vertices
 * are done first), then keeps its own demand T(s,u) on top. */
static void uni_source(uni_ctx *c, int32_t s, uni_ws *w)
{
    const moore_graph *g = c->g;
    const double *wt = c->t->weight, *y = c->y;
    int32_t reached = uni_bfs(g, y, s, w);
    if (uni_unreached(c, s, reached, w))
        return;
    /* Flow in units of w_s/div: T(s,v) = (w_s/div)·w_v. */
    double to_fixed = wt[s] / c->t->weight_div / c->unit, sum = 0;
    for (int32_t i = reached - 1; i >= 0; i--) {
        int32_t u = w->queue[i], du = w->vx[u].dist + 1;
        double zu = w->vx[u].z, out = 0;
        /* Without branches: half the arcs lead one level on, unpredictably. */
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            const uni_vert *v = &w->vx[g->adj[k]];
            int on = v->dist == du;
            double x = on ? v->per * y[k] * zu : 0;
            out += x;
            w->load[k] += (int64_t)(x * to_fixed) + on;
        }
        sum += wt[u] * (du - 1);
        w->vx[u].per = i > 0 ? (out + wt[u]) / w->vx[u].zin : 0;
    }
    c->part[s] = sum;
}

static void uni_ws_clear(uni_ws *w)
{
    free(w->vx);
    free(w->queue);
    free(w->load);
}

/* After source s of a pass: whether the pass must stop (cancelled, out of
 * time), and progress from thread 0 every 1/64 of the sources, since at
 * 64,000 switches one pass takes many minutes. */
static int uni_tick(uni_ctx *c)
{
    int32_t now;
#pragma omp atomic capture
    now = ++c->done;
    int every = c->sources / 64 > 0 ? c->sources / 64 : 1;
    if (c->o->progress && omp_get_thread_num() == 0 && now % every == 0)
        c->o->progress(c->o->progress_ctx, "throughput (uniform routing pass)",
                       (double)now / c->sources);
    const char *why = flow_should_stop(c->o, c->clock);
    if (why) {
#pragma omp critical
        c->stopped = why;
    }
    return why != NULL;
}

/* One pass over all sources, each thread into its own fixed-point loads,
 * summed into load[0..arcs−1] (integer sums: any order, the same bytes).
 * A pass stopped early leaves c->stopped set and load incomplete. */
static int uni_pass(uni_ctx *c, int64_t *load, moore_error *err)
{
    const moore_graph *g = c->g;
    int64_t arcs = 2 * g->m;
    int failed = 0, stop = 0;
    memset(load, 0, (size_t)arcs * sizeof *load);
    c->done = 0;
#pragma omp parallel num_threads(c->threads)
    {
        size_t n = (size_t)(g->n ? g->n : 1);
        uni_ws w = { core_par_calloc(n, sizeof(uni_vert), &failed),
                     core_par_malloc(n, sizeof(int32_t), &failed),
                     core_par_calloc((size_t)arcs + 1, sizeof(int64_t), &failed) };
        int ok = w.vx && w.queue && w.load;
#pragma omp for schedule(dynamic, 8)
        for (int32_t s = 0; s < g->n; s++) {
            int halt;
#pragma omp atomic read
            halt = stop;
            if (ok && !halt && c->t->weight[s] > 0) {
                uni_source(c, s, &w);
                if (uni_tick(c)) {
#pragma omp atomic write
                    stop = 1;
                }
            }
        }
#pragma omp critical
        for (int64_t k = 0; ok && k < arcs; k++)
            load[k] += w.load[k];
        uni_ws_clear(&w);
    }
    return core_par_failed(err, failed, "the uniform routing's scratch space");
}

/* The mirrored arc loads of a pass (L/2 on both arcs of a link) into out;
 * returns the largest, or 0 when one is not a finite number. */
static double uni_loads(const int64_t *load, const int64_t *rev, int64_t arcs, double unit,
                        double *out)
{
    double max = 0;
    for (int64_t k = 0; k < arcs; k++) {
        out[k] = ((double)load[k] + (double)load[rev[k]]) * unit / 2;
        if (!isfinite(out[k]))
            return 0;
        max = out[k] > max ? out[k] : max;
    }
    return max;
}

/* Multiplies each link's weight by (mean/L)^γ, within [1/UNI_YMAX, UNI_YMAX]. */
static void uni_reweight(double *y, const double *L, int64_t arcs, double gamma)
{
    double sum = 0;
    for (int64_t k = 0; k < arcs; k++)
        sum += L[k];
    double mean = sum / (double)arcs;
    for (int64_t k = 0; k < arcs; k++) {
        if (!(L[k] > 0))
            continue;
        double v = y[k] * pow(mean / L[k], gamma);
        y[k] = v > UNI_YMAX ? UNI_YMAX : v < 1 / UNI_YMAX ? 1 / UNI_YMAX : v;
    }
}

/* Σ T·dist from the first pass's per-source sums, in source order. */
static double uni_tdist(const moore_traffic *t, const double *part)
{
    double sum = 0;
    for (int32_t s = 0; s < t->n; s++)
        if (t->weight[s] > 0)
            sum += t->weight[s] * part[s] / t->weight_div;
    return sum;
}

/* Scratch of the bracket: weights, reverse arcs, fixed and double loads. */
typedef struct uni_run {
    double *y, *L;
    int64_t *rev, *fixed;
} uni_run;

static void uni_run_clear(uni_run *r)
{
    free(r->y);
    free(r->L);
    free(r->rev);
    free(r->fixed);
}

/* An upper bound that needs no pass, for a run stopped inside the first:
 * every switch's traffic leaves over its own links, so θ ≤ deg(s) / Σ_v
 * T(s,v) for each s (T(s,v) = w_s·w_v/div, v ≠ s). */
static double uni_star(const moore_graph *g, const moore_traffic *t)
{
    double all = 0, best = INFINITY;
    for (int32_t v = 0; v < t->n; v++)
        all += t->weight[v];
    for (int32_t s = 0; s < t->n; s++) {
        double row = t->weight[s] * (all - t->weight[s]) / t->weight_div;
        double cap = (double)(g->offs[s + 1] - g->offs[s]);
        if (row > 0 && cap / row < best)
            best = cap / row;
    }
    return isfinite(best) ? best : 0;
}

/* Whether the passes should end after one that left the best ratio at `now`
 * (it was `before`): converged, stalled, or out of passes. */
static int uni_done(double now, double before, double eps, int pass)
{
    if (now <= 1 + eps || pass + 1 >= UNI_PASSES)
        return 1;
    return pass >= 2 && before - now < UNI_STALL * (now - (1 + eps));
}

/* Pass after pass until uni_done; the best pass's bound and loads to out. */
static int uni_passes(uni_ctx *c, uni_run *r, const moore_flow_options *o, flow_clock *clock,
                      flow_uniform *out, moore_error *err)
{
    int64_t arcs = 2 * c->g->m;
    double gamma = UNI_GAMMA, best = INFINITY, last = INFINITY;
    int rc = MOORE_OK;
    for (int pass = 0; !rc; pass++) {
        rc = uni_pass(c, r->fixed, err);
        if (!rc && c->stopped) { /* a part of a pass bounds nothing */
            out->stopped = c->stopped;
            if (pass == 0)
                out->upper = uni_star(c->g, c->t);
            break;
        }
        if (!rc && c->bad_s >= 0)
            rc = moore_error_set(err, MOORE_EINVAL,
                                 "throughput: switch %lld sends to switch %lld but cannot "
                                 "reach it (the topology is disconnected, throughput is 0)",
                                 (long long)c->bad_s, (long long)c->bad_t);
        if (rc)
            break;
        if (pass == 0)
            out->upper = 2.0 * (double)c->g->m / uni_tdist(c->t, c->part);
        double max = uni_loads(r->fixed, r->rev, arcs, c->unit, r->L);
        out->passes = pass + 1;
        double ratio = max > 0 ? out->upper * max : INFINITY;
        if (ratio < best) {
            memcpy(out->load, r->L, (size_t)arcs * sizeof *r->L);
            out->lower = 1 / max;
        }
        gamma = ratio > last ? gamma / 2 : gamma;
        last = ratio;
        double before = best;
        best = ratio < best ? ratio : best;
        flow_report_bounds(o, clock, pass + 1, out->lower, out->upper);
        if (o->progress)
            o->progress(o->progress_ctx, "throughput (uniform routing)",
                        best - 1 > o->eps ? o->eps / (best - 1) : 1);
        if (!isfinite(ratio) || uni_done(best, before, o->eps, pass) ||
            (out->stopped = flow_should_stop(o, clock)))
            break;
        uni_reweight(r->y, r->L, arcs, gamma);
    }
    return rc;
}

int flow_uniform_bracket(const moore_graph *g, const moore_traffic *t,
                         const moore_flow_options *o, flow_clock *clock, flow_uniform *out,
                         moore_error *err)
{
    memset(out, 0, sizeof *out);
    int64_t arcs = 2 * g->m;
    size_t n = (size_t)(g->n ? g->n : 1);
    int nt = o->threads > 0 ? o->threads : omp_get_max_threads();
    int rc = flow_tub_check(g, t, err);
    if (rc)
        return rc;
    rc = moore_memory_guard((double)nt * ((double)arcs * 8.0 + (double)n * 40.0) +
                                    (double)arcs * 40.0 + (double)n * 8.0,
                                "the uniform routing", err);
    if (rc)
        return rc;
    uni_ctx c = { .g = g, .t = t, .unit = ldexp(2.0 * t->total, -61), .bad_s = -1,
                  .bad_t = -1, .threads = nt, .o = o, .clock = clock };
    for (int32_t s = 0; s < g->n; s++)
        c.sources += t->weight[s] > 0;
    uni_run r = { moore_malloc((size_t)arcs + 1, sizeof *r.y, err),
                  moore_malloc((size_t)arcs + 1, sizeof *r.L, err),
                  moore_malloc((size_t)arcs + 1, sizeof *r.rev, err),
                  moore_malloc((size_t)arcs + 1, sizeof *r.fixed, err) };
    c.part = moore_calloc(n, sizeof *c.part, err);
    out->load = moore_calloc((size_t)arcs + 1, sizeof *out->load, err);
    out->arcs = arcs;
    if (!r.y || !r.L || !r.rev || !r.fixed || !c.part || !out->load) {
        rc = core_alloc_code(err);
        goto done;
    }
    for (int64_t k = 0; k < arcs; k++)
        r.y[k] = 1;
    moore_graph_reverse_arcs(g, r.rev);
    c.y = r.y;
    rc = uni_passes(&c, &r, o, clock, out, err);
done:
    uni_run_clear(&r);
    free(c.part);
    if (rc) {
        free(out->load);
        out->load = NULL;
    }
    return rc;
}
