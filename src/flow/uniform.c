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
 * O(threads·(E + B·N)).
 *
 * Batches: from 16,000 switches on, a pass is bound by memory, not
 * arithmetic: every source re-reads the whole adjacency and every arc visit
 * reads a neighbour's state at random. So B sources (UNI_BATCH) go together:
 * one level-synchronous BFS grows all B trees level by level, each vertex's
 * state for the B sources sits in one block, and a level's entry (vertex,
 * the sources that have it on that level) sweeps its adjacency once for all
 * of them, forward and backward. Each source's split is the same Gibbs
 * split as alone (only the order of its floating-point sums differs), so
 * it still routes exactly that source's demand.
 *
 * Determinism: threads take batches dynamically, so their link loads must
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
#define UNI_ZMIN 1e-200  /* smallest z (uni_level, uni_z) */
#define UNI_STALL 0.25   /* a pass that closed less than this share of the way
                          * to 1+ε (as the last did) ends the passes */

/* Sources per batch: each sweep of an adjacency list serves all of them,
 * and a neighbour's state for all of them is one contiguous block, so a
 * visit's cache misses are shared by up to UNI_BATCH sources. At 16,000
 * switches 16 and 64 took about the same CPU time, 8 much more (docs/
 * performance.md); 16 keeps the state 128 bytes a vertex. At most 64: one
 * bit each. A build may set it (-DUNI_BATCH=64) to measure another size. */
#ifndef UNI_BATCH
#define UNI_BATCH 16
#endif

typedef uint64_t uni_mask; /* bit i: source i of the batch */

/* Per vertex: the batch's sources that reached it at an earlier level, and
 * those that reach it at the level being built (forward) or have it one
 * level on (backward); `next` is all zero between those uses. */
typedef struct uni_bits {
    uni_mask seen, next;
} uni_bits;

/* Per-thread scratch of a pass, for one batch of B sources at a time. The
 * levels are lists of entries (vertex, the batch's sources that have it at
 * that level): each (vertex, source) pair sits in one entry, so at most B·n
 * entries, and the BFS and the backward pass walk whole levels at once. */
typedef struct uni_ws {
    double *vx;        /* [B·v + i]: the zin of v from source i, then its per
                        * (z is zin times its level's scale: not stored) */
    double *scale;     /* [B·d + i]: level d's scale for source i */
    uni_bits *bits;    /* per vertex: its masks, side by side */
    int32_t *vert;     /* entry e: its vertex ... */
    uni_mask *mask;    /* ... and its sources */
    int64_t *level;    /* level d is entries [level[d], level[d+1]) */
    int64_t *load;     /* fixed-point link loads (on arc u→v for flow u→v) */
} uni_ws;

typedef struct uni_ctx {
    const moore_graph *g;
    const moore_traffic *t;
    const double *y;    /* per arc: its link's weight (equal on both arcs) */
    double unit;        /* fixed-point unit */
    double *part;       /* per source: Σ_v w_v·dist(s,v) */
    int64_t bad_s, bad_t;
    int threads;
    int batch;          /* sources per batch, 1..64 */
    const moore_flow_options *o;
    const flow_clock *clock;
    int32_t *src;       /* the switches with servers, ascending ... */
    int32_t sources;    /* ... and their number */
    int32_t done;       /* of them done in this pass */
    int32_t reported;   /* 64ths of the pass shown (thread 0 only) */
    const char *stopped;   /* why the pass stopped before its last batch */
} uni_ctx;

/* Runs the statement with i set to each bit of mask m, lowest first. */
#define UNI_BITS(m, i, ...)                                                    \
    for (uni_mask bits_ = (m); bits_; bits_ &= bits_ - 1) {                    \
        int i = __builtin_ctzll(bits_);                                        \
        __VA_ARGS__;                                                           \
    }

/* The scale of BFS level d (entries [from, to)): for each source, z is its
 * zin scaled to a maximum of 1 over the level (uni_z). A vertex's split over its in-arcs is a
 * ratio of the previous level's z, so the scale changes nothing, and deep
 * graphs (tori) cannot overflow. A z below UNI_ZMIN (absurdly skewed
 * weights) counts as UNI_ZMIN: the split then differs from the Gibbs one,
 * but zin never underflows, and as the split and zin use the same z every
 * vertex still forwards exactly what it gets. */
static void uni_level(const uni_ctx *c, uni_ws *w, int32_t d, int64_t from, int64_t to)
{
    double max[64] = { 0 };
    int B = c->batch;
    for (int64_t e = from; e < to; e++) {
        const double *a = w->vx + (size_t)w->vert[e] * B;
        UNI_BITS(w->mask[e], i, max[i] = a[i] > max[i] ? a[i] : max[i]);
    }
    for (int i = 0; i < B; i++)
        w->scale[(size_t)d * B + i] = max[i] > 0 && isfinite(max[i]) ? 1 / max[i] : 1;
}

/* The z of entry e on level d, per source of its mask, into zu. */
static void uni_z(const uni_ctx *c, const uni_ws *w, int32_t d, int64_t e, double *zu)
{
    int B = c->batch;
    const double *a = w->vx + (size_t)w->vert[e] * B, *f = w->scale + (size_t)d * B;
    UNI_BITS(w->mask[e], i, {
        double z = a[i] * f[i];
        zu[i] = z > UNI_ZMIN ? z : UNI_ZMIN;
    });
}

/* Level d+1 from level d (entries from `from` on, appended at *tail): each
 * vertex reached by some source for the first time gets an entry; its zin
 * for that source sums z(u)·y(u,v) over its in-neighbours u on level d. */
static void uni_grow(const uni_ctx *c, uni_ws *w, int32_t d, int64_t *tail)
{
    const moore_graph *g = c->g;
    int B = c->batch;
    int64_t to = w->level[d + 1];
    double zu[64];
    for (int64_t e = w->level[d]; e < to; e++) {
        int32_t u = w->vert[e];
        uni_mask m = w->mask[e];
        uni_z(c, w, d, e, zu);
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            int32_t v = g->adj[k];
            uni_mask fresh = m & ~w->bits[v].seen, had = w->bits[v].next;
            if (!fresh)
                continue;
            if (!had)
                w->vert[(*tail)++] = v;
            double *av = w->vx + (size_t)v * B, yk = c->y[k];
            UNI_BITS(fresh, i, av[i] = (had >> i & 1 ? av[i] : 0) + zu[i] * yk);
            w->bits[v].next = had | fresh;
        }
    }
    for (int64_t e = to; e < *tail; e++) {
        int32_t v = w->vert[e];
        w->mask[e] = w->bits[v].next;
        w->bits[v].seen |= w->bits[v].next;
        w->bits[v].next = 0;
    }
}

/* A level-synchronous BFS from the batch's b sources src[0..b−1]: the
 * levels of entries and every reached (vertex, source)'s zin and z; returns
 * the number of levels. */
static int32_t uni_bfs(const uni_ctx *c, const int32_t *src, int b, uni_ws *w)
{
    int B = c->batch;
    for (int32_t v = 0; v < c->g->n; v++)
        w->bits[v].seen = 0;
    for (int i = 0; i < b; i++) {
        w->vert[i] = src[i];
        w->mask[i] = w->bits[src[i]].seen = (uni_mask)1 << i;
        w->vx[(size_t)src[i] * B + i] = 1;
    }
    int32_t d = 0;
    int64_t tail = b;
    w->level[0] = 0;
    w->level[1] = b;
    for (int i = 0; i < B; i++)
        w->scale[i] = 1;
    while (w->level[d] < w->level[d + 1]) {
        uni_grow(c, w, d, &tail);
        uni_level(c, w, d + 1, w->level[d + 1], tail);
        w->level[d + 2] = tail;
        d++;
    }
    return d;
}

/* Whether some switch with servers is out of reach of a source of the
 * batch (the lowest such source and its lowest such switch recorded in c). */
static int uni_unreached(uni_ctx *c, const int32_t *src, int b, const uni_ws *w)
{
    uni_mask all = b < 64 ? ((uni_mask)1 << b) - 1 : ~(uni_mask)0, missed = 0;
    int32_t first = -1, t = -1; /* the lowest source missing a switch, that switch */
    for (int32_t v = 0; v < c->g->n; v++) {
        uni_mask miss = c->t->weight[v] > 0 ? all & ~w->bits[v].seen & ~missed : 0;
        missed |= miss;
        UNI_BITS(miss, i, if (first < 0 || src[i] < first) {
            first = src[i];
            t = v;
        });
    }
    if (first >= 0) {
#pragma omp critical
        if (c->bad_s < 0 || first < c->bad_s) {
            c->bad_s = first;
            c->bad_t = t;
        }
    }
    return missed != 0;
}

/* One level d of the backward pass (w->next marks level d+1): each entry's
 * vertex u pulls, per source, from the vertices v one level beyond it what
 * they send over u→v, per(v)·z(u)·y(u,v) (deeper levels are done first),
 * then keeps its own demand T(s,u) on top. tf: per source, flow in units of
 * w_s/div to fixed point; part: per source, Σ w_u·dist(s,u). */
static void uni_pull(const uni_ctx *c, uni_ws *w, int32_t d, const double *tf, double *part)
{
    const moore_graph *g = c->g;
    const double *wt = c->t->weight;
    int B = c->batch;
    double out[64];
    for (int64_t e = w->level[d]; e < w->level[d + 1]; e++) {
        int32_t u = w->vert[e];
        uni_mask m = w->mask[e];
        double *au = w->vx + (size_t)u * B, zu[64];
        uni_z(c, w, d, e, zu);
        UNI_BITS(m, i, out[i] = 0);
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            uni_mask on = m & w->bits[g->adj[k]].next;
            if (!on)
                continue;
            const double *pv = w->vx + (size_t)g->adj[k] * B;
            double yk = c->y[k];
            int64_t add = 0;
            UNI_BITS(on, i, {
                double x = pv[i] * yk * zu[i];
                out[i] += x;
                add += (int64_t)(x * tf[i]) + 1;
            });
            w->load[k] += add;
        }
        UNI_BITS(m, i, {
            part[i] += wt[u] * d;
            au[i] = d > 0 ? (out[i] + wt[u]) / au[i] : 0;
        });
    }
}

/* A batch of b sources: their routings' loads added to w->load (rounded
 * up, in fixed point), each Σ w_v·dist to c->part. */
static void uni_batch(uni_ctx *c, const int32_t *src, int b, uni_ws *w)
{
    const double *wt = c->t->weight;
    int32_t levels = uni_bfs(c, src, b, w);
    if (uni_unreached(c, src, b, w))
        return;
    double tf[64], part[64] = { 0 };
    for (int i = 0; i < b; i++)
        tf[i] = wt[src[i]] / c->t->weight_div / c->unit;
    for (int32_t d = levels - 1; d >= 0; d--) {
        for (int64_t e = w->level[d + 1]; e < w->level[d + 2]; e++)
            w->bits[w->vert[e]].next = w->mask[e];
        uni_pull(c, w, d, tf, part);
        for (int64_t e = w->level[d + 1]; e < w->level[d + 2]; e++)
            w->bits[w->vert[e]].next = 0;
    }
    for (int i = 0; i < b; i++)
        c->part[src[i]] = part[i];
}

/* The scratch of one thread (the code of a failed allocation is in failed). */
static uni_ws uni_ws_alloc(const uni_ctx *c, int *failed)
{
    size_t n = (size_t)(c->g->n ? c->g->n : 1), nb = n * (size_t)c->batch;
    uni_ws w = { core_par_malloc(nb, sizeof(double), failed),
                 core_par_malloc(nb + 2 * (size_t)c->batch, sizeof(double), failed),
                 core_par_calloc(n, sizeof(uni_bits), failed),
                 core_par_malloc(nb, sizeof(int32_t), failed),
                 core_par_malloc(nb, sizeof(uni_mask), failed),
                 core_par_malloc(n + 2, sizeof(int64_t), failed),
                 core_par_calloc((size_t)(2 * c->g->m) + 1, sizeof(int64_t), failed) };
    return w;
}

static int uni_ws_ok(const uni_ws *w)
{
    return w->vx && w->scale && w->bits && w->vert && w->mask && w->level && w->load;
}

static void uni_ws_clear(uni_ws *w)
{
    free(w->vx);
    free(w->scale);
    free(w->bits);
    free(w->vert);
    free(w->mask);
    free(w->level);
    free(w->load);
}

/* After a batch of b sources: whether the pass must stop (cancelled, out of
 * time), and progress from thread 0 at each 1/64 of the sources it sees
 * passed, since at 64,000 switches one pass takes minutes. */
static int uni_tick(uni_ctx *c, int b)
{
    int32_t now;
#pragma omp atomic capture
    now = c->done += b;
    int every = c->sources / 64 > 0 ? c->sources / 64 : 1;
    if (c->o->progress && omp_get_thread_num() == 0 && now / every > c->reported) {
        c->reported = now / every;
        c->o->progress(c->o->progress_ctx, "throughput (uniform routing pass)",
                       (double)now / c->sources);
    }
    const char *why = flow_should_stop(c->o, c->clock);
    if (why) {
#pragma omp critical
        c->stopped = why;
    }
    return why != NULL;
}

/* One pass over all batches, each thread into its own fixed-point loads,
 * summed into load[0..arcs−1] (integer sums: any order, the same bytes).
 * The batches are fixed runs of c->batch sources, whichever thread takes
 * them. A pass stopped early leaves c->stopped set and load incomplete. */
static int uni_pass(uni_ctx *c, int64_t *load, moore_error *err)
{
    int64_t arcs = 2 * c->g->m;
    int32_t batches = (c->sources + c->batch - 1) / c->batch;
    int failed = 0, stop = 0;
    memset(load, 0, (size_t)arcs * sizeof *load);
    c->done = c->reported = 0;
#pragma omp parallel num_threads(c->threads)
    {
        uni_ws w = uni_ws_alloc(c, &failed);
        int ok = uni_ws_ok(&w);
#pragma omp for schedule(dynamic, 1)
        for (int32_t k = 0; k < batches; k++) {
            int halt;
#pragma omp atomic read
            halt = stop;
            int32_t first = k * c->batch;
            int b = c->sources - first < c->batch ? c->sources - first : c->batch;
            if (ok && !halt) {
                uni_batch(c, c->src + first, b, &w);
                if (uni_tick(c, b)) {
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
    return flow_uniform_bracket_batch(g, t, o, clock, UNI_BATCH, out, err);
}

int flow_uniform_bracket_batch(const moore_graph *g, const moore_traffic *t,
                               const moore_flow_options *o, flow_clock *clock, int batch,
                               flow_uniform *out, moore_error *err)
{
    memset(out, 0, sizeof *out);
    int64_t arcs = 2 * g->m;
    size_t n = (size_t)(g->n ? g->n : 1);
    int nt = o->threads > 0 ? o->threads : omp_get_max_threads();
    int rc = flow_tub_check(g, t, err);
    if (rc)
        return rc;
    if (batch < 1 || batch > 64)
        return moore_error_set(err, MOORE_EINVAL,
                               "throughput: batch=%d sources must be in 1..64", batch);
    /* Per thread: loads, 28 bytes per (vertex, source of a batch), 32 per vertex. */
    rc = moore_memory_guard((double)nt * ((double)arcs * 8.0 + (double)n * (28.0 * batch + 32.0)) +
                                    (double)arcs * 40.0 + (double)n * 12.0,
                                "the uniform routing", err);
    if (rc)
        return rc;
    uni_ctx c = { .g = g, .t = t, .unit = ldexp(2.0 * t->total, -61), .bad_s = -1,
                  .bad_t = -1, .threads = nt, .batch = batch, .o = o, .clock = clock };
    uni_run r = { moore_malloc((size_t)arcs + 1, sizeof *r.y, err),
                  moore_malloc((size_t)arcs + 1, sizeof *r.L, err),
                  moore_malloc((size_t)arcs + 1, sizeof *r.rev, err),
                  moore_malloc((size_t)arcs + 1, sizeof *r.fixed, err) };
    c.part = moore_calloc(n, sizeof *c.part, err);
    c.src = moore_malloc(n, sizeof *c.src, err);
    out->load = moore_calloc((size_t)arcs + 1, sizeof *out->load, err);
    out->arcs = arcs;
    if (!r.y || !r.L || !r.rev || !r.fixed || !c.part || !c.src || !out->load) {
        rc = core_alloc_code(err);
        goto done;
    }
    for (int32_t s = 0; s < g->n; s++)
        if (t->weight[s] > 0)
            c.src[c.sources++] = s;
    for (int64_t k = 0; k < arcs; k++)
        r.y[k] = 1;
    moore_graph_reverse_arcs(g, r.rev);
    c.y = r.y;
    rc = uni_passes(&c, &r, o, clock, out, err);
done:
    uni_run_clear(&r);
    free(c.part);
    free(c.src);
    if (rc) {
        free(out->load);
        out->load = NULL;
    }
    return rc;
}
