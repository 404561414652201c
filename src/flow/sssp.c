/* sssp.c — the pieces the iterative throughput solvers share: Dijkstra over
 * a graph with arc lengths (the approximation routes along it, column
 * generation prices paths with it) and the anytime bookkeeping (time limit,
 * cancellation, reporting improved bounds) both poll once per phase. */
#include "core/alloc.h"
#include "flow_internal.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>

/* It fills the caller's w: on failure what it allocated is left to the
 * caller's flow_ws_clear. */
int flow_ws_init(flow_ws *w, int32_t n, int with_pred, moore_error *err)
{
    size_t m = (size_t)(n ? n : 1);
    w->dist = moore_malloc(m, sizeof *w->dist, err);
    w->order = moore_malloc(m, sizeof *w->order, err);
    w->heap = moore_malloc(m, sizeof *w->heap, err);
    w->pos = moore_malloc(m, sizeof *w->pos, err);
    w->acc = moore_calloc(m, sizeof *w->acc, err);
    w->mark = moore_calloc(m, 1, err);
    w->hops = with_pred ? moore_malloc(m, sizeof *w->hops, err) : NULL;
    w->pred = with_pred ? moore_malloc(m, sizeof *w->pred, err) : NULL;
    w->bdist = moore_malloc(m, sizeof *w->bdist, err);
    w->bheap = moore_malloc(m, sizeof *w->bheap, err);
    w->bpos = moore_malloc(m, sizeof *w->bpos, err);
    int ok = w->dist && w->order && w->heap && w->pos && w->acc && w->mark &&
             (!with_pred || (w->hops && w->pred)) && w->bdist && w->bheap && w->bpos;
    return ok ? MOORE_OK : core_alloc_code(err);
}

void flow_ws_clear(flow_ws *w)
{
    free(w->dist);
    free(w->order);
    free(w->heap);
    free(w->pos);
    free(w->acc);
    free(w->mark);
    free(w->hops);
    free(w->pred);
    free(w->bdist);
    free(w->bheap);
    free(w->bpos);
}

/* A binary heap of vertices keyed by key[] (ties by id), with each vertex's
 * slot in pos[] (−1 never queued, −2 settled). */
typedef struct sssp_heap {
    const double *key;
    int32_t *slot, *pos;
    int32_t size;
} sssp_heap;

static int heap_less(const double *key, int32_t a, int32_t b)
{
    return key[a] < key[b] || (key[a] == key[b] && a < b);
}

static void heap_up(sssp_heap *h, int32_t i)
{
    int32_t v = h->slot[i];
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (!heap_less(h->key, v, h->slot[p]))
            break;
        h->slot[i] = h->slot[p];
        h->pos[h->slot[i]] = i;
        i = p;
    }
    h->slot[i] = v;
    h->pos[v] = i;
}

static void heap_down(sssp_heap *h, int32_t i)
{
    int32_t v = h->slot[i];
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= h->size)
            break;
        if (c + 1 < h->size && heap_less(h->key, h->slot[c + 1], h->slot[c]))
            c++;
        if (!heap_less(h->key, h->slot[c], v))
            break;
        h->slot[i] = h->slot[c];
        h->pos[h->slot[i]] = i;
        i = c;
    }
    h->slot[i] = v;
    h->pos[v] = i;
}

/* Queues v, or moves it up after its key fell. */
static void heap_push(sssp_heap *h, int32_t v)
{
    if (h->pos[v] == -1) {
        h->slot[h->size] = v;
        heap_up(h, h->size++);
    } else {
        heap_up(h, h->pos[v]);
    }
}

/* Removes and settles the vertex with the smallest key. */
static int32_t heap_pop(sssp_heap *h)
{
    int32_t u = h->slot[0];
    h->pos[u] = -2;
    if (--h->size > 0) {
        h->slot[0] = h->slot[h->size];
        heap_down(h, 0);
    }
    return u;
}

static double heap_top(const sssp_heap *h)
{
    return h->size > 0 ? h->key[h->slot[0]] : INFINITY;
}

/* Relaxes the arc k = u→v; records it as v's path arc when it is shorter,
 * or as short with fewer arcs. */
static void relax(flow_ws *w, sssp_heap *h, int32_t u, int32_t v, int64_t k, double nd)
{
    if (nd < w->dist[v]) {
        w->dist[v] = nd;
        if (w->pred) {
            w->pred[v] = k;
            w->hops[v] = w->hops[u] + 1;
        }
        heap_push(h, v);
    } else if (w->pred && nd == w->dist[v] && w->pos[v] >= 0 && w->hops[u] + 1 < w->hops[v]) {
        w->pred[v] = k;
        w->hops[v] = w->hops[u] + 1;
    }
}

/* The forward search from s, queued and nothing settled. */
static sssp_heap forward_start(flow_ws *w, int32_t n, int32_t s)
{
    sssp_heap h = { w->dist, w->heap, w->pos, 0 };
    for (int32_t v = 0; v < n; v++) {
        w->dist[v] = INFINITY;
        w->pos[v] = -1;
    }
    w->dist[s] = 0;
    if (w->pred) {
        w->pred[s] = -1;
        w->hops[s] = 0;
    }
    heap_push(&h, s);
    return h;
}

int32_t flow_dijkstra(const moore_graph *g, const double *len, int32_t s, int64_t targets,
                      flow_ws *w)
{
    int32_t settled = 0;
    sssp_heap h = forward_start(w, g->n, s);
    while (h.size > 0) {
        int32_t u = heap_pop(&h);
        w->order[settled++] = u;
        if (targets > 0 && w->mark[u] && --targets == 0)
            break;
        double du = w->dist[u];
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            if (w->pos[g->adj[k]] != -2)
                relax(w, &h, u, g->adj[k], k, du + len[k]);
    }
    return settled;
}

/* ---- one source, one target: two searches that meet in the middle ---- */
/* (flow_source_search, the entry both solvers use, is at the end.) */

/* The state of flow_dijkstra_to: both searches and the best s–t path seen. */
typedef struct sssp_pair {
    const moore_graph *g;
    const double *len;
    const int64_t *rev;
    flow_ws *w;
    sssp_heap fwd, bwd;
    int32_t t, settled;
    double mu;          /* the shortest s–t path length met so far */
} sssp_pair;

static void pair_meet(sssp_pair *P, int32_t v)
{
    double d = P->w->dist[v] + P->w->bdist[v];
    P->mu = d < P->mu ? d : P->mu;
}

/* Settles the forward search's next vertex; whether it is t. */
static int pair_forward(sssp_pair *P)
{
    flow_ws *w = P->w;
    int32_t u = heap_pop(&P->fwd);
    w->order[P->settled++] = u;
    if (u == P->t)
        return 1;
    for (int64_t k = P->g->offs[u]; k < P->g->offs[u + 1]; k++) {
        int32_t v = P->g->adj[k];
        if (w->pos[v] != -2) {
            relax(w, &P->fwd, u, v, k, w->dist[u] + P->len[k]);
            pair_meet(P, v);
        }
    }
    return 0;
}

/* Settles the backward search's next vertex (distances to t over the
 * arcs v→u, the reverses of u's arcs). */
static void pair_backward(sssp_pair *P)
{
    flow_ws *w = P->w;
    int32_t u = heap_pop(&P->bwd);
    pair_meet(P, u);
    for (int64_t k = P->g->offs[u]; k < P->g->offs[u + 1]; k++) {
        int32_t v = P->g->adj[k];
        double nd = w->bdist[u] + P->len[P->rev[k]];
        if (w->bpos[v] != -2 && nd < w->bdist[v]) {
            w->bdist[v] = nd;
            heap_push(&P->bwd, v);
            pair_meet(P, v);
        }
    }
}

/* A lower bound on v's distance to t: exact when the backward search
 * settled v, else the backward search's radius. */
static double pair_to_t(const sssp_pair *P, double radius, int32_t v)
{
    return P->w->bpos[v] == -2 ? P->w->bdist[v] : radius;
}

/* Drops from the forward queue the vertices that cannot lie within `bound`
 * (they stay unsettled with pos −1, so a shorter label re-queues them). */
static void pair_prune_queue(sssp_pair *P, double radius, double bound)
{
    flow_ws *w = P->w;
    int32_t kept = 0;
    for (int32_t i = 0; i < P->fwd.size; i++) {
        int32_t v = P->fwd.slot[i];
        if (w->dist[v] + pair_to_t(P, radius, v) <= bound)
            P->fwd.slot[kept++] = v;
        else
            w->pos[v] = -1;
    }
    P->fwd.size = kept;
    for (int32_t i = 0; i < kept; i++)
        w->pos[P->fwd.slot[i]] = i;
    for (int32_t i = kept / 2 - 1; i >= 0; i--)
        heap_down(&P->fwd, i);
}

/* The forward search from where it stopped, expanding only vertices v with
 * dist(s,v) + (lower bound to t) within `bound`, until t is settled. */
static void pair_finish(sssp_pair *P, double radius, double bound)
{
    flow_ws *w = P->w;
    pair_prune_queue(P, radius, bound);
    while (P->fwd.size > 0) {
        int32_t u = heap_pop(&P->fwd);
        w->order[P->settled++] = u;
        if (u == P->t)
            return;
        for (int64_t k = P->g->offs[u]; k < P->g->offs[u + 1]; k++) {
            int32_t v = P->g->adj[k];
            double nd = w->dist[u] + P->len[k];
            if (w->pos[v] != -2 && nd + pair_to_t(P, radius, v) <= bound)
                relax(w, &P->fwd, u, v, k, nd);
        }
    }
}

int32_t flow_dijkstra_to(const moore_graph *g, const double *len, const int64_t *rev,
                         int32_t s, int32_t t, double slack, flow_ws *w)
{
    sssp_pair P = { g, len, rev, w, forward_start(w, g->n, s),
                    { w->bdist, w->bheap, w->bpos, 0 }, t, 0, INFINITY };
    for (int32_t v = 0; v < g->n; v++) {
        w->bdist[v] = INFINITY;
        w->bpos[v] = -1;
    }
    w->bdist[t] = 0;
    heap_push(&P.bwd, t);
    double grow = 1 + (slack > 1e-9 ? slack : 1e-9);
    /* Both searches, the smaller radius first, until no path within
     * grow·μ can avoid the settled balls (μ finite) or both are done. */
    while (P.fwd.size > 0 || P.bwd.size > 0) {
        double ftop = heap_top(&P.fwd), btop = heap_top(&P.bwd);
        if (P.mu < INFINITY && ftop + btop >= grow * P.mu)
            break;
        if (ftop <= btop) {
            if (pair_forward(&P))
                return P.settled;
        } else {
            pair_backward(&P);
        }
    }
    if (P.mu < INFINITY)
        pair_finish(&P, heap_top(&P.bwd), grow * P.mu);
    return P.settled;
}

int32_t flow_source_search(const moore_graph *g, const flow_row *r, const double *len,
                           const int64_t *rev, int32_t s, double slack, flow_ws *w)
{
    if (r->count == 1)
        return flow_dijkstra_to(g, len, rev, s, r->dst[0], slack, w);
    for (int64_t k = 0; k < r->count; k++)
        w->mark[r->dst[k]] = 1;
    int32_t settled = flow_dijkstra(g, len, s, r->count, w);
    for (int64_t k = 0; k < r->count; k++)
        w->mark[r->dst[k]] = 0;
    return settled;
}

void flow_clock_start(flow_clock *c)
{
    c->start = omp_get_wtime();
    c->last_lower = 0;
    c->last_upper = INFINITY;
}

double flow_clock_seconds(const flow_clock *c)
{
    return omp_get_wtime() - c->start;
}

const char *flow_should_stop(const moore_flow_options *o, const flow_clock *c)
{
    if ((o->cancelled && o->cancelled(o->cancel_ctx)) || moore_cancel_requested())
        return "cancelled";
    if (o->time_limit > 0 && flow_clock_seconds(c) >= o->time_limit)
        return "time-limit";
    return NULL;
}

void flow_report_bounds(const moore_flow_options *o, flow_clock *c, int64_t phase,
                        double lower, double upper)
{
    if (!o->bounds || (lower <= c->last_lower && upper >= c->last_upper))
        return;
    c->last_lower = lower > c->last_lower ? lower : c->last_lower;
    c->last_upper = upper < c->last_upper ? upper : c->last_upper;
    o->bounds(o->bounds_ctx, phase, c->last_lower, c->last_upper, flow_clock_seconds(c));
}

const moore_flow_options *flow_options_or_default(const moore_flow_options *o,
                                                  moore_flow_options *def)
{
    if (o)
        return o;
    moore_flow_options_default(def);
    return def;
}

void flow_utilisation(const double *load, int64_t arcs, moore_flow_result *out)
{
    double lmax = 0, lsum = 0;
    for (int64_t a = 0; a < arcs; a++) {
        lmax = load[a] > lmax ? load[a] : lmax;
        lsum += load[a];
    }
    out->util_max = lmax > 0 ? 1.0 : 0.0;
    out->util_mean = lmax > 0 && arcs ? lsum / lmax / (double)arcs : 0.0;
}
