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
 * Within a source's shortest-path DAG the flow is split evenly over all
 * in-arcs within (1+ε/4) of shortest (see plan_tree): in expanders most pairs
 * have many near-equal paths, and a single tree per step makes the method
 * oscillate between them.
 *
 * Bounds, both proven whatever the step size or stopping point:
 *  - lower: after k phases each demand was routed k·β times (β the demand
 *    scale below) with arc loads F; F/max(F) is feasible, so
 *    θ ≥ kβ / max_a F(a). The early phases (made with poor lengths) weigh
 *    on that average, so flows are also measured over windows starting at
 *    snapshots taken at phases 1, 2, 4, 8, …, and the best window counts.
 *  - upper: LP duality gives θ ≤ D(l) / Σ_{s,t} T(s,t)·dist_l(s,t) for any
 *    lengths l ≥ 0. Lengths only grow within a phase, so the distances met
 *    during the phase (each ≤ its end-of-phase value) give a valid, slightly
 *    loose bound for free; when that bound suggests the target is near, an
 *    exact recomputation from all sources tightens it. With the initial
 *    unit lengths the bound is TUB itself.
 * The run stops when upper ≤ (1+ε)·lower. The step ε' = ε is larger than the
 * worst-case analysis asks (≈ ε/3), because the stopping rule, not that
 * analysis, decides the accuracy: on random regular graphs ε' = ε needed
 * about half the phases of ε/2.5, while 2ε and 4ε oscillated and needed more.
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
 * little and does not affect the bounds' validity. */
#include "moore/flow.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Per-thread Dijkstra workspace. */
typedef struct ws {
    double *dist;
    int32_t *order;     /* vertices in the order they were settled */
    int32_t *heap, *pos;
    double *acc;        /* demand of the subtree below v */
    char *mark;         /* destinations of the current source */
} ws;

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
    int32_t n;
    int64_t arcs;
    int64_t *rev_tail;  /* tail switch of each arc */
    int64_t *rev;       /* the opposite arc: rev[u→v] = v→u */
    double *len;        /* l(a) */
    double *flow;       /* F(a), in units of scaled demand */
    double *alpha;      /* per source: Σ_t T(s,t)·dist(s,t) from its latest tree */
    double *rem;        /* per source: remaining fraction of its demand this phase */
    double beta, epsstep;
    double slack;       /* arcs within (1+slack) of shortest share the flow */
} gk;

static int heap_less(const double *key, int32_t a, int32_t b)
{
    return key[a] < key[b] || (key[a] == key[b] && a < b);
}

static void heap_up(ws *w, int32_t i)
{
    int32_t v = w->heap[i];
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (!heap_less(w->dist, v, w->heap[p]))
            break;
        w->heap[i] = w->heap[p];
        w->pos[w->heap[i]] = i;
        i = p;
    }
    w->heap[i] = v;
    w->pos[v] = i;
}

static void heap_down(ws *w, int32_t size, int32_t i)
{
    int32_t v = w->heap[i];
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= size)
            break;
        if (c + 1 < size && heap_less(w->dist, w->heap[c + 1], w->heap[c]))
            c++;
        if (!heap_less(w->dist, w->heap[c], v))
            break;
        w->heap[i] = w->heap[c];
        w->pos[w->heap[i]] = i;
        i = c;
    }
    w->heap[i] = v;
    w->pos[v] = i;
}

/* Shortest-path tree from s under len, stopped once the `targets` vertices
 * marked in w->mark are settled; returns the number of settled vertices. */
static int32_t dijkstra(const moore_graph *g, const double *len, int32_t s, int64_t targets,
                        ws *w)
{
    int32_t n = g->n, size = 0, settled = 0;
    for (int32_t v = 0; v < n; v++) {
        w->dist[v] = INFINITY;
        w->pos[v] = -1;
    }
    w->dist[s] = 0;
    w->heap[size++] = s;
    w->pos[s] = 0;
    while (size > 0) {
        int32_t u = w->heap[0];
        w->pos[u] = -2;
        w->order[settled++] = u;
        if (w->mark[u] && --targets == 0)
            break;
        if (--size > 0) {
            w->heap[0] = w->heap[size];
            heap_down(w, size, 0);
        }
        double du = w->dist[u];
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            int32_t v = g->adj[k];
            double nd = du + len[k];
            if (nd < w->dist[v]) {
                w->dist[v] = nd;
                if (w->pos[v] == -1) {
                    w->heap[size] = v;
                    heap_up(w, size++);
                } else {
                    heap_up(w, w->pos[v]);
                }
            }
        }
    }
    return settled;
}

/* The tree of s, stopped when all of s's destinations are settled. */
static int32_t source_tree(const moore_graph *g, const moore_traffic *t, const double *len,
                           int32_t s, ws *w)
{
    for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++)
        w->mark[t->dst[k]] = 1;
    int32_t settled = dijkstra(g, len, s, t->offs[s + 1] - t->offs[s], w);
    for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++)
        w->mark[t->dst[k]] = 0;
    return settled;
}

/* Σ_t T(s,t)·dist(t) for the tree just computed in w. */
static double tree_alpha(const moore_traffic *t, int32_t s, const ws *w)
{
    double a = 0;
    for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++)
        a += t->demand[k] * w->dist[t->dst[k]];
    return a;
}

static void slot_add(slot *sl, int64_t arc, double load)
{
    if (sl->count == sl->cap) {
        int64_t cap = sl->cap ? 2 * sl->cap : 1024;
        int64_t *a = realloc(sl->arc, (size_t)cap * sizeof *a);
        if (a)
            sl->arc = a;
        double *l = a ? realloc(sl->load, (size_t)cap * sizeof *l) : NULL;
        if (l)
            sl->load = l;
        if (!a || !l) {
            sl->oom = 1;
            return;
        }
        sl->cap = cap;
    }
    sl->arc[sl->count] = arc;
    sl->load[sl->count++] = load;
    if (load > sl->sigma)
        sl->sigma = load;
}

/* Computes source s's shortest-path DAG and the loads of its remaining
 * demand on it. Rather than one tree, every vertex splits what it forwards
 * evenly over all its in-arcs that lie on a path within (1+slack) of the
 * shortest (like ECMP): among the many near-equal paths of an expander a
 * single tree is an arbitrary pick, and spreading evenly makes each step a
 * much better move, so far fewer phases are needed. The path lengths stay
 * within (1+slack) of shortest, which the bounds do not depend on. */
static void plan_tree(gk *G, int32_t s, ws *w, slot *sl)
{
    const moore_graph *g = G->g;
    const moore_traffic *t = G->t;
    int32_t settled = source_tree(g, t, G->len, s, w);
    G->alpha[s] = tree_alpha(t, s, w);
    double scale = G->rem[s] * G->beta;
    for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++)
        w->acc[t->dst[k]] = scale * t->demand[k];
    sl->src = s;
    sl->count = 0;
    sl->sigma = 0;
    for (int32_t i = settled - 1; i > 0; i--) {
        int32_t v = w->order[i];
        double a = w->acc[v], dv = w->dist[v], reach = dv * (1 + G->slack);
        w->acc[v] = 0;
        if (!(a > 0))
            continue;
        int cnt = 0;
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++) {
            int32_t u = g->adj[k];
            cnt += w->pos[u] == -2 && w->dist[u] < dv && w->dist[u] + G->len[G->rev[k]] <= reach;
        }
        double share = a / cnt;
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++) {
            int32_t u = g->adj[k];
            if (w->pos[u] == -2 && w->dist[u] < dv && w->dist[u] + G->len[G->rev[k]] <= reach) {
                slot_add(sl, G->rev[k], share);
                w->acc[u] += share;
            }
        }
    }
    w->acc[s] = 0;
}

/* Applies a planned tree: routes min(1, 1/σ) of it and lengthens its arcs. */
static void apply_tree(gk *G, const slot *sl)
{
    double f = sl->sigma > 1 ? 1.0 / sl->sigma : 1.0;
    for (int64_t i = 0; i < sl->count; i++) {
        double x = sl->load[i] * f;
        G->flow[sl->arc[i]] += x;
        G->len[sl->arc[i]] *= 1.0 + G->epsstep * x;
    }
    G->rem[sl->src] = f >= 1.0 ? 0.0 : G->rem[sl->src] * (1.0 - f);
}

#define SNAPSHOTS 40

int moore_flow_approx(const moore_graph *g, const moore_traffic *t,
                      const moore_flow_options *o, moore_flow_result *out, moore_error *err)
{
    moore_flow_options def;
    if (!o) {
        moore_flow_options_default(&def);
        o = &def;
    }
    memset(out, 0, sizeof *out);
    if (!(o->eps > 0 && o->eps <= 1))
        return moore_error_set(err, MOORE_EINVAL,
                               "throughput: eps=%g must be in (0, 1]", o->eps);
    double tub;
    int rc = moore_flow_tub(g, t, &tub, err);
    if (rc)
        return rc;

    int32_t n = g->n;
    int64_t arcs = 2 * g->m;
    int nt = o->threads > 0 ? o->threads : omp_get_max_threads();
    /* Batch size: a function of n only, so results do not depend on nt. */
    int32_t batch = n / 16;
    batch = batch < 1 ? 1 : batch > 64 ? 64 : batch;
    double bytes = (double)arcs * (8.0 * 5 + 8.0 * 20) +
                   (double)n * (8.0 * 4 + 40.0 * nt + 16.0 * batch);
    if ((rc = moore_memory_guard(bytes, "the throughput approximation", err)))
        return rc;

    gk G = { .g = g, .t = t, .n = n, .arcs = arcs, .beta = tub, .epsstep = o->eps,
            .slack = o->eps / 4 };
    G.rev_tail = moore_malloc((size_t)arcs + 1, sizeof *G.rev_tail, err);
    G.rev = moore_malloc((size_t)arcs + 1, sizeof *G.rev, err);
    G.len = moore_malloc((size_t)arcs + 1, sizeof *G.len, err);
    G.flow = moore_calloc((size_t)arcs + 1, sizeof *G.flow, err);
    G.alpha = moore_calloc((size_t)n, sizeof *G.alpha, err);
    G.rem = moore_calloc((size_t)n, sizeof *G.rem, err);
    double *snap[SNAPSHOTS] = { NULL };  /* F at phases 1, 2, 4, ... (taken lazily) */
    int64_t snap_phase[SNAPSHOTS];
    int nsnap = 0;
    int32_t *srcs = moore_malloc((size_t)n, sizeof *srcs, err);
    ws *W = moore_calloc((size_t)nt, sizeof *W, err);
    slot *S = moore_calloc((size_t)batch, sizeof *S, err);
    double *best_window = moore_calloc((size_t)arcs + 1, sizeof *best_window, err);
    rc = (!G.rev_tail || !G.rev || !G.len || !G.flow || !G.alpha || !G.rem || !srcs || !W ||
          !S || !best_window) ? MOORE_ENOMEM : MOORE_OK;
    for (int i = 0; !rc && i < nt; i++) {
        W[i].dist = malloc((size_t)n * sizeof(double));
        W[i].order = malloc((size_t)n * sizeof(int32_t));
        W[i].heap = malloc((size_t)n * sizeof(int32_t));
        W[i].pos = malloc((size_t)n * sizeof(int32_t));
        W[i].acc = calloc((size_t)n, sizeof(double));
        W[i].mark = calloc((size_t)n, 1);
        if (!W[i].dist || !W[i].order || !W[i].heap || !W[i].pos || !W[i].acc ||
            !W[i].mark)
            rc = moore_error_set(err, MOORE_ENOMEM, "out of memory in the approximation");
    }
    if (rc)
        goto done;

    /* Threads only pay off when a batch holds real work (a parallel region
     * costs microseconds, more on a busy machine). */
    int big = arcs * (int64_t)batch >= 8192;
    int32_t K = 0;
    for (int32_t s = 0; s < n; s++)
        if (t->offs[s + 1] > t->offs[s])
            srcs[K++] = s;
    for (int32_t u = 0; u < n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            G.rev_tail[k] = u;
    moore_graph_reverse_arcs(g, G.rev);
    for (int64_t k = 0; k < arcs; k++)
        G.len[k] = 1.0;

    double lower = 0, upper = tub;
    int64_t phase = 0;
    int converged = 0;
    double D_start = 0;
    for (int64_t k = 0; k < arcs; k++)
        D_start += G.len[k];
    while (!converged && (o->max_phases <= 0 || phase < o->max_phases)) {
        for (int32_t i = 0; i < K; i++)
            G.rem[srcs[i]] = 1.0;
        /* Rounds over the sources that still have demand left this phase. */
        int any = 1;
        while (any) {
            any = 0;
            int32_t i = 0;
            while (i < K) {
                int32_t cnt = 0, idx[64];
                for (; i < K && cnt < batch; i++)
                    if (G.rem[srcs[i]] > 0)
                        idx[cnt++] = srcs[i];
                if (cnt == 0)
                    break;
                any = 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (cnt * big > 1)
                for (int32_t j = 0; j < cnt; j++)
                    plan_tree(&G, idx[j], &W[omp_get_thread_num()], &S[j]);
                for (int32_t j = 0; j < cnt; j++) {
                    if (S[j].oom) {
                        rc = moore_error_set(err, MOORE_ENOMEM,
                                             "out of memory in the approximation");
                        goto done;
                    }
                    apply_tree(&G, &S[j]);
                }
            }
        }
        phase++;

        /* Primal: the best window [snapshot, now]. */
        double best = 0;
        int64_t from = -2;
        for (int w = -1; w < nsnap; w++) {
            const double *base = w < 0 ? NULL : snap[w];
            int64_t k0 = w < 0 ? 0 : snap_phase[w];
            if (phase - k0 < 1)
                continue;
            double cmax = 0;
            for (int64_t a = 0; a < arcs; a++) {
                double c = G.flow[a] - (base ? base[a] : 0);
                cmax = c > cmax ? c : cmax;
            }
            double lb = cmax > 0 ? (double)(phase - k0) * G.beta / cmax : 0;
            if (lb > best) {
                best = lb;
                from = w < 0 ? -2 : w;
            }
        }
        if (best > lower) {
            lower = best;
            const double *base = from < 0 ? NULL : snap[from];
            for (int64_t a = 0; a < arcs; a++)
                best_window[a] = G.flow[a] - (base ? base[a] : 0);
        }

        /* Dual: D(l_end) / Σ α_s from the phase's trees (each α_s ≤ its value
         * under l_end) is a valid bound; recompute exactly when it might end. */
        double D = 0, alpha = 0;
        for (int64_t a = 0; a < arcs; a++)
            D += G.len[a];
        for (int32_t i = 0; i < K; i++)
            alpha += G.alpha[srcs[i]];
        double ub = D / alpha;
        if (ub < upper)
            upper = ub;
        double growth = D / D_start;
        if (upper > (1 + o->eps) * lower && upper <= (1 + o->eps) * lower * growth * 1.05) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (K * big > 1)
            for (int32_t i = 0; i < K; i++) {
                ws *w = &W[omp_get_thread_num()];
                source_tree(g, t, G.len, srcs[i], w);
                G.alpha[srcs[i]] = tree_alpha(t, srcs[i], w);
            }
            alpha = 0;
            for (int32_t i = 0; i < K; i++)
                alpha += G.alpha[srcs[i]];
            ub = D / alpha;
            if (ub < upper)
                upper = ub;
        }
        converged = upper <= (1 + o->eps) * lower;

        /* Renormalise so lengths stay in range (the method is scale-free). */
        for (int64_t a = 0; a < arcs; a++)
            G.len[a] /= D;
        D_start = 1.0;
        if ((phase & (phase - 1)) == 0 && nsnap < SNAPSHOTS) {
            snap[nsnap] = moore_malloc((size_t)arcs + 1, sizeof(double), err);
            if (!snap[nsnap]) {
                rc = MOORE_ENOMEM;
                goto done;
            }
            memcpy(snap[nsnap], G.flow, (size_t)arcs * sizeof *G.flow);
            snap_phase[nsnap++] = phase;
        }
        if (o->progress) {
            double gap = lower > 0 ? upper / lower - 1 : INFINITY;
            double frac = gap > 0 && isfinite(gap) ? o->eps / gap : 0;
            o->progress(o->progress_ctx, "throughput (approximation)", frac > 1 ? 1 : frac);
        }
    }
    /* Both bounds carry rounding errors of a few ulps; where they meet (a
     * tight instance such as an arc-transitive graph) keep them ordered. */
    out->throughput = out->lower = lower;
    out->upper = upper < lower ? lower : upper;
    out->method = "garg-konemann";
    out->converged = converged;
    out->phases = phase;
    out->commodities = K;
    {
        double cmax = 0, csum = 0;
        for (int64_t a = 0; a < arcs; a++) {
            cmax = best_window[a] > cmax ? best_window[a] : cmax;
            csum += best_window[a];
        }
        out->util_max = cmax > 0 ? 1.0 : 0.0;
        out->util_mean = cmax > 0 && arcs ? csum / cmax / (double)arcs : 0.0;
    }

done:
    if (W)
        for (int i = 0; i < nt; i++) {
            free(W[i].dist);
            free(W[i].order);
            free(W[i].heap);
            free(W[i].pos);
            free(W[i].acc);
            free(W[i].mark);
        }
    if (S)
        for (int i = 0; i < batch; i++) {
            free(S[i].arc);
            free(S[i].load);
        }
    free(W);
    free(S);
    free(G.rev_tail);
    free(G.rev);
    free(G.len);
    free(G.flow);
    free(G.alpha);
    free(G.rem);
    for (int i = 0; i < SNAPSHOTS; i++)
        free(snap[i]);
    free(srcs);
    free(best_window);
    return rc;
}
