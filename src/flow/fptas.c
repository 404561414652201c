/* fptas.c — (1+ε)-approximate throughput: Garg–Könemann max concurrent flow
 * in Fleischer's phase form, with Karakostas's grouping of commodities by
 * source, and stopping on proven bounds.
 *
 * Every arc a has a length l(a) (capacity 1, so D(l) = Σ l(a)). A phase
 * routes every source's whole demand once: the source's remaining demand goes
 * down its shortest paths under l, scaled so that no arc gets more than its
 * capacity in one step, and each arc's length is multiplied by
 * (1 + ε'·flow/capacity). Arcs that carried a lot become long, so later
 * routes avoid them; over many phases the average flow approaches the optimum.
 * Within a source's shortest-path DAG each vertex splits what it forwards
 * over its in-arcs within (1+3ε) of shortest with softmin weights
 * exp(−excess / (0.6ε·dist)) (see plan_tree): in expanders most pairs have
 * many near-equal paths, and a single tree per step makes the method
 * oscillate between them.
 *
 * Why permutation-like matrices were slow (measured on a 341-switch
 * Xpander, worst-case TM, ε = 0.05): the dual bound sat at TUB, 0.34 % above
 * the optimum, from the first phase; the primal average was the laggard
 * (104 phases). A commodity with one sink has, under non-uniform lengths,
 * one path within (1+ε/4) of shortest, so each phase sent its whole demand
 * (2.4× an arc's capacity) down one path, 1.5 steps per source: the flow of
 * a phase was lumpy and the average of phases converged slowly. Capping the
 * step (Fleischer's bottleneck rule at 0.15–0.4 of capacity), batch size 1,
 * a wider even split (slack 5–15 %) and larger length steps did not help
 * (same or more phases, or a lower bound that stalls); the softmin split
 * makes each phase's own flow smooth, so the last phase alone becomes a good
 * primal (a window below), and a larger length step early (3ε, halving every
 * 8 phases down to ε) brings the lengths near equilibrium sooner: 38 phases,
 * one step per source. A uniform matrix spreads every source over all
 * sinks anyway, which is why it needed few phases before.
 *
 * Why it then stalled on low-diameter graphs (worst case, ε = 0.05): on
 * slimfly:q=11 the gap fell to 6 % in 300 phases and stayed there (5.98 %
 * after 1,000 phases, 12 minutes), with the lower bound 1.2 % and the upper
 * 4.7 % off the exact 0.4923. The optimum routes these pairs over longer
 * paths, and at a fixed step, slack and temperature the lengths settle where
 * the flow is spread over paths up to (1+slack) of shortest, which leaves
 * the dual bound that far above. So when the gap has not shrunk by 10 % over
 * max(24, phases/4) phases and the upper bound fell by less than 3 % of the
 * gap meanwhile, gk_refine halves all three (twice at most), and a
 * window of the primal average starts there: slimfly:q=11 converges in 197
 * phases (7 s), dragonfly:p=4 in 900 instead of 1,104. Matrices that converge
 * without stalling never reach it. Where only the lower bound lags (a folded
 * Clos's worst case) a finer step just slows the average, hence the test of
 * the upper bound (clos:radix=24,endpoints=2000: 772 phases without it, 359
 * with it and without halving) and the floor of ε/4.
 *
 * Bounds, both proven whatever the step size or stopping point:
 *  - lower: after k phases each demand was routed k·β times (β the demand
 *    scale below) with arc loads F; F/max(F) is feasible, so
 *    θ ≥ kβ / max_a F(a). The early phases (made with poor lengths) weigh
 *    on that average, so flows are also measured over windows starting at
 *    snapshots taken at phases 1, 2, 4, 8, …, and over the last phase
 *    alone; the best window counts.
 *  - upper: LP duality gives θ ≤ D(l) / Σ_{s,t} T(s,t)·dist_l(s,t) for any
 *    lengths l ≥ 0. Lengths only grow within a phase, so the distances met
 *    during the phase (each ≤ its end-of-phase value) give a valid, slightly
 *    loose bound for free; when that bound suggests the target is near, an
 *    exact recomputation from all sources tightens it. With the initial
 *    unit lengths the bound is TUB itself.
 * The run stops when upper ≤ (1+ε)·lower. The step ε' (3ε falling to ε) is
 * larger than the worst-case analysis asks (≈ ε/3), because the stopping
 * rule, not that analysis, decides the accuracy: on random regular graphs
 * ε' = ε needed about half the phases of ε/2.5, while a constant 2ε–6ε
 * oscillated and needed more.
 *
 * Demands are scaled by β = TUB (so the scaled optimum is ≤ 1 and a phase
 * fills the busiest arcs about once): without it, a topology with high θ
 * would need θ times as many phases.
 *
 * Parallelism and determinism: sources are processed in batches of a fixed
 * size that depends only on the graph (never on the thread count). The routes
 * of one batch are computed in parallel from the same lengths, then applied
 * one after another in source order, so results are bit-identical for any
 * number of threads; the staleness within a batch only slows convergence a
 * little and does not affect the bounds' validity.
 *
 * Across the ranks of an MPI job (moore_flow_options.dist, docs/scale.md) the
 * same holds one level up: entry j of a batch is planned on rank j mod K,
 * every rank receives every planned tree (its arcs and loads bit for bit, its
 * σ and α_s) and applies them all in source order, so every rank holds the
 * same lengths and flows as one process would, and the exact dual
 * recomputation is split the same way. Nothing is summed across ranks: each
 * sum is made on every rank, in one process's order. Rank 0's stopping
 * decision (time limit, cancel) is every rank's.
 *
 * The uniform matrix comes here last: uniform.c's balanced shortest-path
 * routing brackets it first (one BFS per source and pass, no serial step),
 * and only when that bracket is wider than ε do the phases run, with the
 * routing's bound as the primal to beat. A stored uniform matrix is
 * recognised and solved in compact form (moore_flow_approx). */
#include "moore/flow.h"
#include "core/alloc.h"
#include "moore/dist.h"
#include "flow_internal.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#define SNAPSHOTS 40
#define MAX_BATCH 64
#define SOFT_TAU 0.6    /* softmin temperature, in units of ε (plan_tree) */
#define SOFT_CUTOFF 5   /* arcs up to SOFT_CUTOFF temperatures above shortest share */
#define STEP_START 3.0  /* first phases: length step STEP_START·ε ... */
#define STEP_HALF 8.0   /* ... halving every STEP_HALF phases down to ε */
#define STALL_PHASES 24 /* a gap that shrank by less than STALL_GAIN over ... */
#define STALL_SHARE 4   /* ... max(STALL_PHASES, phases/STALL_SHARE) phases ... */
#define STALL_GAIN 0.9  /* ... has stalled: gk_refine halves the resolution ... */
#define UPPER_SHARE 0.03 /* ... if the upper bound fell by less than this share of the gap */
#define RES_MIN 0.25    /* the finest resolution, in units of ε */

/* One computed tree, waiting to be applied. */
typedef struct slot {
    int32_t src;
    int64_t count, cap; /* arcs carrying flow, room in arc/load */
    int64_t *arc;
    double *load;
    double sigma;       /* largest load / capacity */
    int oom;
} slot;

typedef struct gk {
    const moore_graph *g;
    const moore_traffic *t;
    int32_t n, K;       /* switches, sources with demand */
    int64_t arcs;
    int nt, big;        /* threads; whether a batch is worth a parallel region */
    int fold;           /* t is a folded symmetric matrix (fold.c): capacity 2 per link */
    int compact;        /* t is compact (traffic.h): rows made per thread, folded */
    int32_t *row_dst;   /* per thread, n each: the row being planned (compact t) */
    double *row_dem;
    int32_t batch;      /* sources planned from the same lengths */
    int32_t *srcs;      /* the K sources */
    int64_t *rev;       /* the opposite arc: rev[u→v] = v→u */
    double *len;        /* l(a) */
    double *flow;       /* F(a), in units of scaled demand */
    double *alpha;      /* per source: Σ_t T(s,t)·dist(s,t) from its latest tree */
    double *rem;        /* per source: remaining fraction of its demand this phase */
    double *best_window;/* arc loads of the window that gave `lower` */
    double *prev;       /* F before the current phase (the last phase alone is a window) */
    double *snap[SNAPSHOTS];    /* F at phases 1, 2, 4, ... (taken lazily) */
    int64_t snap_phase[SNAPSHOTS];
    int nsnap;
    flow_ws *W;         /* per thread */
    int64_t *in_arc;    /* per thread, maxdeg each: the near-shortest in-arcs ... */
    double *in_w;       /* ... of the vertex plan_tree splits at, and their weights */
    int64_t maxdeg;
    slot *S;            /* per batch entry */
    double beta, epsstep;
    double slack;       /* arcs within (1+slack) of shortest share the flow ... */
    double tau;         /* ... with weights exp(−excess / (tau·dist)) (plan_tree) */
    double lower, upper, D_start;
    int64_t phase;
    double res;         /* step, slack and tau are res times their ε values */
    double stall_gap;   /* the gap when it last shrank by STALL_GAIN, ... */
    int64_t stall_phase;/* ... at this phase, the upper bound then (gk_refine) */
    double stall_upper;
    const moore_dist *dist;     /* the MPI job (NULL: alone) */
    int rank, size;
    moore_dist_blob out, in;    /* this rank's planned trees; every rank's */
    int64_t *lens;              /* per rank: bytes of its trees */
    double *share;              /* per source (index in srcs): α_s being shared */
} gk;

/* Row s of the matrix, for thread th: a compact matrix's is made in th's
 * buffers, folded (its rows stream, O(n) per thread, never O(n²)). */
static flow_row gk_row(const gk *G, int32_t s, int th)
{
    size_t at = (size_t)th * (size_t)G->n;
    return flow_traffic_row(G->t, s, 1, G->compact ? G->row_dst + at : NULL,
                            G->compact ? G->row_dem + at : NULL);
}

/* The tree of s, stopped when all of s's destinations are settled; a
 * source with one destination searches from both ends and keeps only the
 * paths within (1+slack) of shortest, the only ones plan_tree can use. */
static int32_t source_tree(const gk *G, const flow_row *r, int32_t s, flow_ws *w)
{
    return flow_source_search(G->g, r, G->len, G->rev, s, G->slack, w);
}

/* Σ_t T(s,t)·dist(t) for the tree just computed in w. */
static double tree_alpha(const flow_row *r, const flow_ws *w)
{
    double a = 0;
    for (int64_t k = 0; k < r->count; k++)
        a += r->demand[k] * w->dist[r->dst[k]];
    return a;
}

/* Room for cap arcs in a slot (its arrays grown together); 0 when out of
 * memory, the slot then as it was. */
static int slot_grow(slot *sl, int64_t cap)
{
    int64_t *a = realloc(sl->arc, (size_t)cap * sizeof *a);
    if (a)
        sl->arc = a;
    double *l = a ? realloc(sl->load, (size_t)cap * sizeof *l) : NULL;
    if (l)
        sl->load = l;
    if (!a || !l)
        return 0;
    sl->cap = cap;
    return 1;
}

static void slot_add(slot *sl, int64_t arc, double load)
{
    if (sl->count == sl->cap && !slot_grow(sl, sl->cap ? 2 * sl->cap : 1024)) {
        sl->oom = 1;
        return;
    }
    sl->arc[sl->count] = arc;
    sl->load[sl->count++] = load;
    if (load > sl->sigma)
        sl->sigma = load;
}

/* Whether the arc k = u→v (u settled) lies on a path to v within (1+slack)
 * of shortest. */
static int near_shortest(const gk *G, const flow_ws *w, int32_t u, int64_t rk, double dv,
                         double reach)
{
    return w->pos[u] == -2 && w->dist[u] < dv && w->dist[u] + G->len[rk] <= reach;
}

/* Computes source s's shortest-path DAG and the loads of its remaining
 * demand on it. Rather than one tree, every vertex v splits what it forwards
 * over all its in-arcs u→v with dist(u) < dist(v) and an excess
 * dist(u) + l(u→v) − dist(v) of at most slack·dist(v), in proportion to
 * exp(−excess / (tau·dist(v))) (a softmin; equal excesses share evenly, like
 * ECMP): among the many near-equal paths of an expander a single tree is an
 * arbitrary pick, and a smooth split makes each step a much better move, so
 * far fewer phases are needed (see the top of the file). The bounds do not
 * depend on which paths carry the flow. */
static void plan_tree(gk *G, int32_t s, int th, slot *sl)
{
    const moore_graph *g = G->g;
    flow_ws *w = &G->W[th];
    int64_t *in_arc = G->in_arc + th * G->maxdeg;
    double *in_w = G->in_w + th * G->maxdeg;
    flow_row r = gk_row(G, s, th);
    int32_t settled = source_tree(G, &r, s, w);
    G->alpha[s] = tree_alpha(&r, w);
    double scale = G->rem[s] * G->beta;
    for (int64_t k = 0; k < r.count; k++)
        w->acc[r.dst[k]] = scale * r.demand[k];
    sl->src = s;
    sl->count = 0;
    sl->sigma = 0;
    for (int32_t i = settled - 1; i > 0; i--) {
        int32_t v = w->order[i];
        double a = w->acc[v], dv = w->dist[v], reach = dv * (1 + G->slack);
        w->acc[v] = 0;
        if (!(a > 0))
            continue;
        double temp = G->tau * dv, wsum = 0;
        int64_t c = 0;  /* each weight computed once: exp was a sixth of the time */
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
            if (near_shortest(G, w, g->adj[k], G->rev[k], dv, reach)) {
                in_arc[c] = k;
                in_w[c] = exp(-(w->dist[g->adj[k]] + G->len[G->rev[k]] - dv) / temp);
                wsum += in_w[c++];
            }
        for (int64_t q = 0; q < c; q++) {
            double share = a * in_w[q] / wsum;
            slot_add(sl, G->rev[in_arc[q]], share);
            w->acc[g->adj[in_arc[q]]] += share;
        }
    }
    w->acc[s] = 0;
}

/* Adds x to the load of arc a and lengthens it. */
static void load_arc(gk *G, int64_t a, double x)
{
    G->flow[a] += x;
    G->len[a] *= 1.0 + G->epsstep * x;
}

/* Applies a planned tree: routes min(1, 1/σ) of it and lengthens its arcs.
 * A folded matrix's flow is undirected: half of it loads each arc of the
 * link, so both keep the same length (fold.c). */
static void apply_tree(gk *G, const slot *sl)
{
    double sigma = G->fold ? sl->sigma / 2 : sl->sigma;
    double f = sigma > 1 ? 1.0 / sigma : 1.0;
    for (int64_t i = 0; i < sl->count; i++) {
        double x = sl->load[i] * f;
        if (G->fold) {
            load_arc(G, sl->arc[i], x / 2);
            load_arc(G, G->rev[sl->arc[i]], x / 2);
        } else {
            load_arc(G, sl->arc[i], x);
        }
    }
    G->rem[sl->src] = f >= 1.0 ? 0.0 : G->rem[sl->src] * (1.0 - f);
}

static void gk_clear(gk *G)
{
    if (G->W)
        for (int i = 0; i < G->nt; i++)
            flow_ws_clear(&G->W[i]);
    if (G->S)
        for (int i = 0; i < G->batch; i++) {
            free(G->S[i].arc);
            free(G->S[i].load);
        }
    free(G->W);
    free(G->in_arc);
    free(G->in_w);
    free(G->S);
    free(G->rev);
    free(G->len);
    free(G->flow);
    free(G->alpha);
    free(G->rem);
    free(G->best_window);
    free(G->prev);
    for (int i = 0; i < SNAPSHOTS; i++)
        free(G->snap[i]);
    free(G->srcs);
    moore_dist_blob_clear(&G->out);
    moore_dist_blob_clear(&G->in);
    free(G->lens);
    free(G->share);
    free(G->row_dst);
    free(G->row_dem);
}

/* The resolution res (in units of ε) and the split's slack and temperature
 * that follow from it (plan_tree, gk_refine). */
static void gk_resolution(gk *G, double eps, double res)
{
    G->res = res;
    G->slack = SOFT_CUTOFF * SOFT_TAU * eps * res;
    G->tau = SOFT_TAU * eps * res;
}

/* Sizes, memory check and allocation; unit lengths, no flow. It fills the
 * caller's *G: on failure what it allocated is left to the caller's gk_clear. */
static int gk_setup(gk *G, const moore_graph *g, const moore_traffic *t, double tub,
                    const moore_flow_options *o, moore_error *err)
{
    int32_t n = g->n;
    int64_t arcs = 2 * g->m;
    int nt = o->threads > 0 ? o->threads : omp_get_max_threads();
    /* Batch size: a function of n only, so results do not depend on nt. */
    int32_t batch = n / 16;
    batch = batch < 1 ? 1 : batch > MAX_BATCH ? MAX_BATCH : batch;
    int size = moore_dist_size(o->dist);
    int compact = t->weight != NULL;
    double bytes = (double)arcs * (8.0 * 6 + 8.0 * 20) +
                   (double)n * (8.0 * 4 + (56.0 + 12.0 * compact) * nt + 16.0 * batch) +
                   (size > 1 ? 2.0 * 16.0 * (double)batch * (double)arcs : 0);
    int rc = moore_memory_guard(bytes, "the throughput approximation", err);
    if (rc)
        return rc;
    *G = (gk){ .g = g, .t = t, .n = n, .arcs = arcs, .nt = nt, .batch = batch,
               .beta = tub, .epsstep = o->eps, .upper = tub, .stall_gap = INFINITY,
               .D_start = (double)arcs, .dist = o->dist, .size = size,
               .rank = moore_dist_rank(o->dist), .compact = compact, .fold = compact };
    gk_resolution(G, o->eps, 1);
    /* Threads only pay off when a batch holds real work (a parallel region
     * costs microseconds, more on a busy machine). */
    G->big = arcs * (int64_t)batch >= 8192;
    G->rev = moore_malloc((size_t)arcs + 1, sizeof *G->rev, err);
    G->len = moore_malloc((size_t)arcs + 1, sizeof *G->len, err);
    G->flow = moore_calloc((size_t)arcs + 1, sizeof *G->flow, err);
    G->alpha = moore_calloc((size_t)n, sizeof *G->alpha, err);
    G->rem = moore_calloc((size_t)n, sizeof *G->rem, err);
    G->srcs = moore_malloc((size_t)n, sizeof *G->srcs, err);
    G->W = moore_calloc((size_t)nt, sizeof *G->W, err);
    G->maxdeg = moore_graph_degree_max(g);
    G->in_arc = moore_malloc((size_t)nt * (size_t)(G->maxdeg + 1), sizeof *G->in_arc, err);
    G->in_w = moore_malloc((size_t)nt * (size_t)(G->maxdeg + 1), sizeof *G->in_w, err);
    G->S = moore_calloc((size_t)batch, sizeof *G->S, err);
    G->best_window = moore_calloc((size_t)arcs + 1, sizeof *G->best_window, err);
    G->prev = moore_calloc((size_t)arcs + 1, sizeof *G->prev, err);
    if (compact) {
        G->row_dst = moore_malloc((size_t)nt * (size_t)n, sizeof *G->row_dst, err);
        G->row_dem = moore_malloc((size_t)nt * (size_t)n, sizeof *G->row_dem, err);
    }
    if (size > 1) {
        G->lens = moore_malloc((size_t)size, sizeof *G->lens, err);
        G->share = moore_calloc((size_t)n, sizeof *G->share, err);
    }
    if (!G->rev || !G->len || !G->flow || !G->alpha || !G->rem || !G->srcs || !G->W ||
        !G->in_arc || !G->in_w || !G->S || !G->best_window || !G->prev ||
        (compact && (!G->row_dst || !G->row_dem)) || (size > 1 && (!G->lens || !G->share)))
        rc = core_alloc_code(err);
    for (int i = 0; !rc && i < nt; i++)
        rc = flow_ws_init(&G->W[i], n, 0, err);
    if (!rc) {
        for (int32_t s = 0; s < n; s++)
            if (compact ? gk_row(G, s, 0).count > 0 : t->offs[s + 1] > t->offs[s])
                G->srcs[G->K++] = s;
        moore_graph_reverse_arcs(g, G->rev);
        for (int64_t k = 0; k < arcs; k++)
            G->len[k] = 1.0;
    }
    return rc;
}

/* A planned tree as bytes: its source, whether it ran out of memory, its
 * arc count, σ and α_s (the header parts below), then its arcs and their
 * loads. */
typedef struct slot_part {
    void *p;
    int64_t len;
} slot_part;

static void slot_header(slot *sl, int32_t *head, double *alpha, slot_part *part)
{
    part[0] = (slot_part){ head, 2 * (int64_t)sizeof *head };
    part[1] = (slot_part){ &sl->count, (int64_t)sizeof sl->count };
    part[2] = (slot_part){ &sl->sigma, (int64_t)sizeof sl->sigma };
    part[3] = (slot_part){ alpha, (int64_t)sizeof *alpha };
}

static int slot_pack(moore_dist_blob *b, slot *sl, double alpha, moore_error *err)
{
    int32_t head[2] = { sl->src, sl->oom };
    slot_part part[4];
    slot_header(sl, head, &alpha, part);
    int rc = MOORE_OK;
    for (int i = 0; !rc && i < 4; i++)
        rc = moore_dist_blob_put(b, part[i].p, part[i].len, err);
    if (!rc)
        rc = moore_dist_blob_put(b, sl->arc, sl->count * (int64_t)sizeof *sl->arc, err);
    if (!rc)
        rc = moore_dist_blob_put(b, sl->load, sl->count * (int64_t)sizeof *sl->load, err);
    return rc;
}

/* Room for count arcs in a slot. */
static int slot_room(slot *sl, int64_t count, moore_error *err)
{
    if (count <= sl->cap || slot_grow(sl, count))
        return MOORE_OK;
    return moore_error_set(err, MOORE_ENOMEM, "out of memory in the approximation");
}

/* The tree slot_pack wrote, from b->at on; its α_s goes to G->alpha. */
static int slot_unpack(gk *G, moore_dist_blob *b, slot *sl, moore_error *err)
{
    int32_t head[2];
    double alpha = 0;
    slot_part part[4];
    slot_header(sl, head, &alpha, part);
    int rc = MOORE_OK;
    for (int i = 0; !rc && i < 4; i++)
        rc = moore_dist_blob_get(b, part[i].p, part[i].len, err);
    if (!rc && !(head[0] >= 0 && head[0] < G->n && sl->count >= 0 && sl->count <= 4 * G->arcs))
        rc = moore_error_set(err, MOORE_EINTERNAL, "MPI: a planned tree arrived damaged");
    if (!rc)
        rc = slot_room(sl, sl->count, err);
    if (!rc)
        rc = moore_dist_blob_get(b, sl->arc, sl->count * (int64_t)sizeof *sl->arc, err);
    if (!rc)
        rc = moore_dist_blob_get(b, sl->load, sl->count * (int64_t)sizeof *sl->load, err);
    if (!rc) {
        sl->src = head[0];
        sl->oom = head[1];
        G->alpha[sl->src] = alpha;
    }
    return rc;
}

/* One batch across the ranks: entry j planned on rank j mod size, then every
 * tree on every rank, bit for bit, in the slots one process would fill. */
static int gk_plan_shared(gk *G, const int32_t *idx, int32_t cnt, moore_error *err)
{
    int32_t mine = cnt > G->rank ? (cnt - G->rank + G->size - 1) / G->size : 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(G->nt) if (mine * G->big > 1)
    for (int32_t q = 0; q < mine; q++) {
        int32_t j = G->rank + q * G->size;
        plan_tree(G, idx[j], omp_get_thread_num(), &G->S[j]);
    }
    int rc = MOORE_OK;
    G->out.len = 0;
    for (int32_t j = G->rank; !rc && j < cnt; j += G->size)
        rc = slot_pack(&G->out, &G->S[j], G->alpha[idx[j]], err);
    if ((rc = moore_dist_agree(G->dist, rc, err)))
        return rc;
    rc = moore_dist_allgather(G->dist, G->out.data, G->out.len, &G->in, G->lens, err);
    if (rc)
        return rc;
    int64_t at = 0;
    for (int r = 0; r < G->size; at += G->lens[r], r++) {
        G->in.at = at;
        for (int32_t j = r; !rc && r != G->rank && j < cnt; j += G->size)
            rc = slot_unpack(G, &G->in, &G->S[j], err);
    }
    return moore_dist_agree(G->dist, rc, err);
}

/* One phase: every source's whole demand is routed once, in rounds over the
 * sources that still have demand left, each round in batches. */
static int gk_phase(gk *G, moore_error *err)
{
    for (int32_t i = 0; i < G->K; i++)
        G->rem[G->srcs[i]] = 1.0;
    int any = 1;
    while (any) {
        any = 0;
        int32_t i = 0;
        while (i < G->K) {
            int32_t cnt = 0, idx[MAX_BATCH];
            for (; i < G->K && cnt < G->batch; i++)
                if (G->rem[G->srcs[i]] > 0)
                    idx[cnt++] = G->srcs[i];
            if (cnt == 0)
                break;
            any = 1;
            if (G->size > 1) {
                int rc = gk_plan_shared(G, idx, cnt, err);
                if (rc)
                    return rc;
            } else {
#pragma omp parallel for schedule(dynamic, 1) num_threads(G->nt) if (cnt * G->big > 1)
                for (int32_t j = 0; j < cnt; j++)
                    plan_tree(G, idx[j], omp_get_thread_num(), &G->S[j]);
            }
            for (int32_t j = 0; j < cnt; j++) {
                if (G->S[j].oom)
                    return moore_error_set(err, MOORE_ENOMEM,
                                           "out of memory in the approximation");
                apply_tree(G, &G->S[j]);
            }
        }
    }
    G->phase++;
    return MOORE_OK;
}

/* The length step of the next phase: STEP_START·ε at first, halving every
 * STEP_HALF phases down to ε (see the top of the file; the caller passes ε
 * times the resolution). */
static double gk_step(double eps, int64_t phase)
{
    double m = STEP_START * pow(2.0, -(double)phase / STEP_HALF);
    return eps * (m > 1 ? m : 1);
}

/* Primal: the best window [snapshot, now] of averaged flow; the windows
 * start at phase 0, at the snapshots, and at the previous phase. */
static void gk_primal(gk *G)
{
    double best = 0;
    int from = -3;
    for (int w = -2; w < G->nsnap; w++) {
        const double *base = w == -1 ? NULL : w == -2 ? G->prev : G->snap[w];
        int64_t k0 = w == -1 ? 0 : w == -2 ? G->phase - 1 : G->snap_phase[w];
        if (G->phase - k0 < 1)
            continue;
        double cmax = 0;
        for (int64_t a = 0; a < G->arcs; a++) {
            double c = G->flow[a] - (base ? base[a] : 0);
            cmax = c > cmax ? c : cmax;
        }
        double lb = cmax > 0 ? (double)(G->phase - k0) * G->beta / cmax : 0;
        if (lb > best) {
            best = lb;
            from = w;
        }
    }
    if (best > G->lower) {
        G->lower = best;
        const double *base = from == -1 ? NULL : from == -2 ? G->prev : G->snap[from];
        for (int64_t a = 0; a < G->arcs; a++)
            G->best_window[a] = G->flow[a] - (base ? base[a] : 0);
    }
    memcpy(G->prev, G->flow, (size_t)G->arcs * sizeof *G->flow);
}

static double alpha_sum(const gk *G)
{
    double alpha = 0;
    for (int32_t i = 0; i < G->K; i++)
        alpha += G->alpha[G->srcs[i]];
    return alpha;
}

/* The exact α_s of every source under the current lengths. Across ranks
 * source i is computed on rank i mod size and each value shared as its owner
 * computed it. */
static int gk_alpha_exact(gk *G, moore_error *err)
{
    int shared = G->size > 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(G->nt) if (G->K * G->big > 1)
    for (int32_t i = 0; i < G->K; i++) {
        if (shared && !moore_dist_mine(G->dist, i))
            continue;
        int th = omp_get_thread_num();
        flow_ws *w = &G->W[th];
        flow_row r = gk_row(G, G->srcs[i], th);
        source_tree(G, &r, G->srcs[i], w);
        double a = tree_alpha(&r, w);
        if (shared)
            G->share[i] = a;
        else
            G->alpha[G->srcs[i]] = a;
    }
    int rc = shared ? moore_dist_share_rows(G->dist, G->share, G->K, 1, err) : MOORE_OK;
    for (int32_t i = 0; shared && !rc && i < G->K; i++)
        G->alpha[G->srcs[i]] = G->share[i];
    return rc;
}

/* Dual: D(l_end) / Σ α_s from the phase's trees (each α_s ≤ its value under
 * l_end) is a valid bound; recompute exactly when it might end the run. */
static int gk_dual(gk *G, double eps, moore_error *err)
{
    double D = 0;
    for (int64_t a = 0; a < G->arcs; a++)
        D += G->len[a];
    double ub = D / alpha_sum(G);
    G->upper = ub < G->upper ? ub : G->upper;
    double growth = D / G->D_start;
    if (G->upper > (1 + eps) * G->lower && G->upper <= (1 + eps) * G->lower * growth * 1.05) {
        int rc = gk_alpha_exact(G, err);
        if (rc)
            return rc;
        ub = D / alpha_sum(G);
        G->upper = ub < G->upper ? ub : G->upper;
    }
    /* Renormalise so lengths stay in range (the method is scale-free). */
    for (int64_t a = 0; a < G->arcs; a++)
        G->len[a] /= D;
    G->D_start = 1.0;
    return MOORE_OK;
}

/* Whether to stop early (time limit, cancel): rank 0 decides for the job, so
 * every rank runs the same phases. */
static int gk_should_stop(const gk *G, const moore_flow_options *o, const flow_clock *clock,
                          const char **stopped, moore_error *err)
{
    static const char *const why[] = { NULL, "time-limit", "cancelled" };
    *stopped = flow_should_stop(o, clock);
    if (G->size == 1)
        return MOORE_OK;
    int32_t k = 0;
    for (int32_t i = 1; i < 3; i++)
        if (*stopped && !strcmp(*stopped, why[i]))
            k = i;
    int rc = moore_dist_bcast(G->dist, &k, sizeof k, 0, err);
    *stopped = why[k];
    return rc;
}

/* Keeps F at phases 1, 2, 4, 8, ... (and when `now`) as window starts. */
static int gk_snapshot(gk *G, int now, moore_error *err)
{
    if ((!now && (G->phase & (G->phase - 1)) != 0) || G->nsnap >= SNAPSHOTS)
        return MOORE_OK;
    double *s = moore_malloc((size_t)G->arcs + 1, sizeof *s, err);
    if (!s)
        return core_alloc_code(err);
    memcpy(s, G->flow, (size_t)G->arcs * sizeof *G->flow);
    G->snap_phase[G->nsnap] = G->phase;
    G->snap[G->nsnap++] = s;
    return MOORE_OK;
}

/* When the gap and the upper bound have stalled, halves the resolution: the
 * length step, the slack of the near-shortest split and its temperature (top
 * of the file). Returns whether it did, so that a window can start there. */
static int gk_refine(gk *G, double eps)
{
    double gap = G->lower > 0 ? G->upper / G->lower - 1 : INFINITY;
    int64_t wait = G->phase / STALL_SHARE > STALL_PHASES ? G->phase / STALL_SHARE
                                                           : STALL_PHASES;
    int stalled = !(gap < STALL_GAIN * G->stall_gap);
    if (stalled && (G->phase - G->stall_phase < wait || G->res <= RES_MIN))
        return 0;
    int upper_moved = G->stall_upper / G->upper - 1 > UPPER_SHARE * gap;
    G->stall_gap = gap;
    G->stall_phase = G->phase;
    G->stall_upper = G->upper;
    if (!stalled || upper_moved)
        return 0;
    gk_resolution(G, eps, G->res / 2);
    return 1;
}

static void gk_result(const gk *G, int converged, moore_flow_result *out)
{
    /* Both bounds carry rounding errors of a few ulps; where they meet (a
     * tight instance such as an arc-transitive graph) keep them ordered. */
    out->throughput = out->lower = G->lower;
    out->upper = G->upper < G->lower ? G->lower : G->upper;
    out->method = "garg-konemann";
    out->converged = converged;
    out->phases = G->phase;
    out->commodities = G->K;
    flow_utilisation(G->best_window, G->arcs, out);
}

/* The uniform bracket (uniform.c) as the result, when it is within ε. */
static void uniform_result(const flow_uniform *U, const moore_traffic *t, double eps,
                           moore_flow_result *out)
{
    out->throughput = out->lower = U->lower;
    out->upper = U->upper < U->lower ? U->lower : U->upper;
    out->method = "shortest-paths";
    out->converged = U->upper <= (1 + eps) * U->lower;
    out->stopped = U->stopped;
    out->phases = U->passes;
    out->commodities = moore_traffic_sources(t);
    flow_utilisation(U->load, U->arcs, out);
}

/* Starts the primal from the uniform routing: its bound is a valid lower
 * bound and its loads the window that gave it. */
static void gk_warm_start(gk *G, const flow_uniform *U)
{
    G->lower = U->lower;
    memcpy(G->best_window, U->load, (size_t)G->arcs * sizeof *U->load);
}

/* moore_flow_approx on a matrix at unit scale (scale.c). */
static int approx_unit(const moore_graph *g, const moore_traffic *t,
                       const moore_flow_options *o, moore_flow_result *out, moore_error *err)
{
    if (!(o->eps > 0 && o->eps <= 1))
        return moore_error_set(err, MOORE_EINVAL,
                               "throughput: eps=%g must be in (0, 1]", o->eps);
    flow_clock clock;
    flow_clock_start(&clock);
    double tub;
    flow_uniform U = { 0 };
    gk G;
    memset(&G, 0, sizeof G);
    moore_traffic *half = NULL;
    int rc = t->weight ? flow_uniform_bracket(g, t, o, &clock, &U, err)
                       : moore_flow_tub(g, t, &tub, err);
    if (rc)
        goto done;
    if (t->weight && (U.upper <= (1 + o->eps) * U.lower || U.stopped)) {
        uniform_result(&U, t, o->eps, out); /* the routing's bracket is close enough */
        goto done;
    }
    tub = t->weight ? U.upper : tub;
    /* A compact matrix (uniform) is symmetric: gk_row folds it row by row. */
    if ((!t->weight && (rc = flow_fold_symmetric(t, &half, err))) ||
        (rc = gk_setup(&G, g, half ? half : t, tub, o, err)))
        goto done;
    G.fold = G.compact || half != NULL;
    if (U.load) /* the routing's bound is where the primal starts */
        gk_warm_start(&G, &U);
    int converged = 0;
    const char *stopped = NULL;
    while (!converged && !stopped) {
        if (o->max_phases > 0 && G.phase >= o->max_phases) {
            stopped = "max-phases";
            break;
        }
        G.epsstep = gk_step(o->eps * G.res, G.phase);
        if ((rc = gk_phase(&G, err)))
            goto done;
        gk_primal(&G);
        if ((rc = gk_dual(&G, o->eps, err)))
            goto done;
        converged = G.upper <= (1 + o->eps) * G.lower;
        if ((rc = gk_snapshot(&G, !converged && gk_refine(&G, o->eps), err)))
            goto done;
        flow_report_bounds(o, &clock, G.phase, G.lower, G.upper);
        if (o->progress) {
            double gap = G.lower > 0 ? G.upper / G.lower - 1 : INFINITY;
            double frac = gap > 0 && isfinite(gap) ? o->eps / gap : 0;
            o->progress(o->progress_ctx, "throughput (approximation)", frac > 1 ? 1 : frac);
        }
        if (!converged && (rc = gk_should_stop(&G, o, &clock, &stopped, err)))
            goto done;
    }
    gk_result(&G, converged, out);
    out->commodities = moore_traffic_sources(t);
    out->stopped = stopped;

done:
    gk_clear(&G);
    free(U.load);
    moore_traffic_free(half);
    return rc;
}

/* A stored uniform matrix (compare, report and sweeps make one) is solved in
 * its compact form, so it takes the same fast path. */
int moore_flow_approx(const moore_graph *g, const moore_traffic *t, const moore_flow_options *o,
                      moore_flow_result *out, moore_error *err)
{
    moore_traffic *c = NULL;
    int rc = flow_traffic_compact_of(g, t, &c, err);
    if (!rc)
        rc = flow_scaled_solve(g, c ? c : t, o, out, err, approx_unit);
    moore_traffic_free(c);
    return rc;
}
