/* hose_pairs.c — an upper bound on the hose throughput from one matching
 * matrix, sharper than its TUB where pairs have few short paths
 * (docs/throughput.md, "Any traffic: the hose model").
 *
 * Why: TUB charges every unit of a pair (u, v) dist(u, v) arcs, as if
 * arbitrarily many disjoint shortest paths joined u and v. On PolarFly two
 * switches at distance 2 share one neighbour, so of the d·θ units a pair
 * exchanges one can take 2 hops and the rest take at least 3; on high-girth
 * graphs (Spectralfly) one unit takes dist hops and the rest more. The
 * bound: in any routing of θ·T every commodity's flow is on its own a u→v
 * flow in the graph with capacity 1 per arc, so it uses at least c_uv(θ·d)
 * arc capacity, c_uv the min-cost flow value function (unit costs). All
 * commodities together use at most 2|E|, so
 *     θ ≤ sup { θ : Σ_pairs 2·c_uv(θ·d_uv) ≤ 2|E| }.
 * c_uv is convex, piecewise linear, with slopes the lengths of successive
 * shortest augmenting paths (unit capacities: one unit each), computed by
 * Dijkstra with potentials on the residual graph. c_uv(F) ≥ F·dist(u,v), so
 * the bound is at most TUB; and c_uv = ∞ beyond the u–v max flow, a cut. */
#include "moore/flow.h"
#include "moore/paths.h"
#include "core/alloc.h"
#include "flow_internal.h"
#include "hose_internal.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

void flow_hose_pairs_clear(hose_pairs *hp)
{
    free(hp->u);
    free(hp->v);
    free(hp->d);
    memset(hp, 0, sizeof *hp);
}

int flow_hose_pairs_worst(const moore_graph *g, const int32_t *p, hose_pairs *out,
                          moore_error *err)
{
    memset(out, 0, sizeof *out);
    moore_traffic *t = NULL;
    int rc = moore_traffic_worst(g, &t, err);
    if (!rc) {
        out->u = moore_malloc((size_t)g->n / 2 + 1, sizeof *out->u, err);
        out->v = moore_malloc((size_t)g->n / 2 + 1, sizeof *out->v, err);
        out->d = moore_malloc((size_t)g->n / 2 + 1, sizeof *out->d, err);
        if (!out->u || !out->v || !out->d)
            rc = core_alloc_code(err);
    }
    for (int32_t a = 0; !rc && a < g->n; a++)
        for (int64_t k = t->offs[a]; k < t->offs[a + 1]; k++) {
            int32_t b = t->dst[k];
            if (b <= a)
                continue; /* the matching is symmetric: each pair once */
            out->u[out->count] = a;
            out->v[out->count] = b;
            out->d[out->count++] = p[a] < p[b] ? p[a] : p[b];
        }
    moore_traffic_free(t);
    if (rc)
        flow_hose_pairs_clear(out);
    return rc;
}

int flow_hose_pairs_matrix(const moore_graph *g, const hose_pairs *hp, moore_traffic **out,
                           moore_error *err)
{
    int32_t *to = moore_malloc((size_t)g->n, sizeof *to, err);
    int32_t *dem = moore_malloc((size_t)g->n, sizeof *dem, err);
    moore_traffic *t = NULL;
    int rc = to && dem ? flow_traffic_alloc(g->n, 2 * (int64_t)hp->count, "worst", &t, err)
                       : core_alloc_code(err);
    if (!rc) {
        for (int32_t v = 0; v < g->n; v++)
            to[v] = -1;
        for (int32_t i = 0; i < hp->count; i++) {
            to[hp->u[i]] = hp->v[i];
            to[hp->v[i]] = hp->u[i];
            dem[hp->u[i]] = dem[hp->v[i]] = hp->d[i];
        }
        int64_t k = 0;
        for (int32_t a = 0; a < g->n; a++) {
            t->offs[a] = k;
            if (to[a] >= 0) {
                t->dst[k] = to[a];
                t->demand[k++] = dem[a];
                t->total += dem[a];
            }
        }
        t->offs[g->n] = k;
        *out = t;
    }
    free(to);
    free(dem);
    return rc;
}

/* Per-thread scratch of the min-cost flows. */
typedef struct mcf_ws {
    int64_t *dist, *pot;   /* reduced distances, potentials (INT64_MAX: unreachable) */
    int64_t *via;          /* the arc that reached each switch */
    int32_t *heap, *pos;   /* binary heap of switches by dist; pos −1: not in it */
    char *used;            /* unit flow on each arc */
    int64_t *touched;      /* arcs whose flow changed, to reset */
    int64_t ntouched, room;
} mcf_ws;

/* Heap order: distance, then switch id (a fixed order: the same paths, and
 * so the same bound, on every run). */
static int heap_before(const mcf_ws *w, int32_t a, int32_t b)
{
    return w->dist[a] < w->dist[b] || (w->dist[a] == w->dist[b] && a < b);
}

static void heap_up(mcf_ws *w, int32_t i)
{
    int32_t v = w->heap[i];
    while (i > 0) {
        int32_t up = (i - 1) / 2, u = w->heap[up];
        if (heap_before(w, u, v))
            break;
        w->heap[i] = u;
        w->pos[u] = i;
        i = up;
    }
    w->heap[i] = v;
    w->pos[v] = i;
}

static int32_t heap_pop(mcf_ws *w, int32_t *size)
{
    int32_t top = w->heap[0], v = w->heap[--*size], i = 0;
    w->pos[top] = -1;
    if (*size == 0)
        return top;
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= *size)
            break;
        int32_t x = w->heap[c];
        if (c + 1 < *size) {
            int32_t y = w->heap[c + 1];
            if (heap_before(w, y, x))
                c++, x = y;
        }
        if (heap_before(w, v, x))
            break;
        w->heap[i] = x;
        w->pos[x] = i;
        i = c;
    }
    w->heap[i] = v;
    w->pos[v] = i;
    return top;
}

/* Cost of residual arc k = a→b: −1 if it cancels flow on b→a, +1 if free,
 * 0 (no arc) if it is full. */
static int residual_cost(const mcf_ws *w, const int64_t *rev, int64_t k)
{
    return w->used[rev[k]] ? -1 : w->used[k] ? 0 : 1;
}

/* Dijkstra from s on the residual graph with reduced costs; returns the
 * true length of the shortest s→t path, or −1 when t is unreachable. */
static int64_t mcf_search(const moore_graph *g, const int64_t *rev, int32_t s, int32_t t,
                          mcf_ws *w)
{
    for (int32_t v = 0; v < g->n; v++) {
        w->dist[v] = INT64_MAX;
        w->pos[v] = -1;
    }
    int32_t size = 0;
    w->dist[s] = 0;
    w->heap[size++] = s;
    w->pos[s] = 0;
    while (size > 0) {
        int32_t a = heap_pop(w, &size);
        for (int64_t k = g->offs[a]; k < g->offs[a + 1]; k++) {
            int32_t b = g->adj[k];
            int c = residual_cost(w, rev, k);
            if (c == 0 || w->pot[b] == INT64_MAX)
                continue;
            int64_t nd = w->dist[a] + c + w->pot[a] - w->pot[b]; /* reduced cost ≥ 0 */
            if (nd >= w->dist[b])
                continue;
            w->dist[b] = nd;
            w->via[b] = k;
            if (w->pos[b] < 0) {
                w->heap[size] = b;
                w->pos[b] = size++;
            }
            heap_up(w, w->pos[b]);
        }
    }
    if (w->dist[t] == INT64_MAX)
        return -1;
    int64_t length = w->dist[t] + w->pot[t] - w->pot[s];
    for (int32_t v = 0; v < g->n; v++)
        w->pot[v] = w->dist[v] == INT64_MAX ? INT64_MAX : w->pot[v] + w->dist[v];
    return length;
}

/* Pushes one unit along the path search left in via[], s → t. */
static void mcf_augment(const moore_graph *g, const int64_t *rev, int32_t s, int32_t t,
                        mcf_ws *w)
{
    (void)g;
    for (int32_t b = t; b != s;) {
        int64_t k = w->via[b];
        int64_t arc = w->used[rev[k]] ? rev[k] : k;
        w->used[arc] ^= 1;
        if (w->ntouched < w->room)
            w->touched[w->ntouched] = arc;
        w->ntouched++; /* past room: reset all arcs instead */
        b = g->adj[rev[k]]; /* the tail of k: rev[k] is the arc b→a */
    }
}

/* The lengths of up to K successive shortest augmenting paths u → v into
 * len[]; returns how many (fewer: the max flow). */
static int32_t mcf_lengths(const moore_graph *g, const int64_t *rev, int32_t u, int32_t v,
                           int32_t K, int64_t *len, mcf_ws *w)
{
    int32_t *queue = w->heap; /* the BFS's queue: free until the first search */
    int32_t *bd = w->pos;
    moore_bfs(g, u, bd, queue);
    for (int32_t x = 0; x < g->n; x++)
        w->pot[x] = bd[x] < 0 ? INT64_MAX : bd[x];
    int32_t found = 0;
    w->ntouched = 0;
    while (found < K) {
        int64_t l = mcf_search(g, rev, u, v, w);
        if (l < 0)
            break;
        len[found++] = l;
        mcf_augment(g, rev, u, v, w);
    }
    if (w->ntouched > w->room)
        memset(w->used, 0, (size_t)(2 * g->m));
    else
        for (int64_t i = 0; i < w->ntouched; i++)
            w->used[w->touched[i]] = 0;
    return found;
}

/* F units of one direction of a pair: the first ⌊F⌋ path lengths and the
 * fraction of the next; INFINITY past the max flow; F·dist when the pair's
 * flows were not computed (found < 0). */
static double pair_cost(const int64_t *len, int32_t found, int64_t dist, double F)
{
    if (found < 0)
        return F * (double)dist;
    double cost = 0;
    int32_t j = 0;
    for (; j < found && F >= 1; j++, F -= 1)
        cost += (double)len[j];
    if (F <= 0)
        return cost;
    return j < found ? cost + F * (double)len[j] : INFINITY;
}

/* Capacity all pairs need at rate θ, both directions. */
static double pairs_need(const hose_pairs *hp, const int64_t *len, const int64_t *off,
                         const int32_t *found, const int64_t *dist, double theta)
{
    double sum = 0;
    for (int32_t i = 0; i < hp->count; i++)
        sum += 2 * pair_cost(len + off[i], found[i], dist[i], theta * hp->d[i]);
    return sum;
}

/* sup{θ : need(θ) ≤ cap} ≤ TUB by bisection, keeping need(hi) > cap, with
 * a margin for the rounding of need(): the sup is not above the result. */
static double pairs_sup(const hose_pairs *hp, const int64_t *len, const int64_t *off,
                        const int32_t *found, const int64_t *dist, double cap, double tub)
{
    double lo = 0, hi = tub * (1 + 1e-9);
    if (pairs_need(hp, len, off, found, dist, hi) > cap)
        for (int it = 0; it < 200 && hi - lo > 1e-13 * hi; it++) {
            double mid = 0.5 * (lo + hi);
            if (pairs_need(hp, len, off, found, dist, mid) > cap)
                hi = mid;
            else
                lo = mid;
        }
    return hi * (1 + 1e-11) < tub ? hi * (1 + 1e-11) : tub;
}

/* dist(u, v) of every pair, one BFS from each u. */
static int pairs_dist(const moore_graph *g, const hose_pairs *hp, int nt, int64_t *dist,
                      moore_error *err)
{
    int failed = 0;
#pragma omp parallel num_threads(nt)
    {
        int32_t *bd = core_par_malloc((size_t)g->n, sizeof *bd, &failed);
        int32_t *queue = core_par_malloc((size_t)g->n, sizeof *queue, &failed);
#pragma omp for schedule(dynamic, 4)
        for (int32_t i = 0; i < hp->count; i++)
            if (bd && queue) {
                moore_bfs(g, hp->u[i], bd, queue);
                dist[i] = bd[hp->v[i]];
            }
        free(bd);
        free(queue);
    }
    return failed ? core_par_failed(err, failed, "hose: pair distances") : MOORE_OK;
}

static void mcf_ws_free(mcf_ws *w)
{
    free(w->dist);
    free(w->pot);
    free(w->via);
    free(w->heap);
    free(w->pos);
    free(w->used);
    free(w->touched);
}

/* Successive shortest paths of the pairs i < upto (found[i] lengths each). */
static int pairs_flows(const moore_graph *g, const hose_pairs *hp, int nt, int32_t upto,
                       const int64_t *off, int64_t *len, int32_t *found, moore_error *err)
{
    int64_t *rev = moore_malloc((size_t)(2 * g->m > 0 ? 2 * g->m : 1), sizeof *rev, err);
    if (!rev)
        return core_alloc_code(err);
    moore_graph_reverse_arcs(g, rev);
    int failed = 0;
    size_t n = (size_t)g->n;
#pragma omp parallel num_threads(nt)
    {
        mcf_ws w = { 0 };
        w.room = 4 * (int64_t)n + 64;
        w.dist = core_par_malloc(n, sizeof *w.dist, &failed);
        w.pot = core_par_malloc(n, sizeof *w.pot, &failed);
        w.via = core_par_malloc(n, sizeof *w.via, &failed);
        w.heap = core_par_malloc(n, sizeof *w.heap, &failed);
        w.pos = core_par_malloc(n, sizeof *w.pos, &failed);
        w.used = core_par_malloc((size_t)(2 * g->m + 1), 1, &failed);
        w.touched = core_par_malloc((size_t)w.room, sizeof *w.touched, &failed);
        int ok = w.dist && w.pot && w.via && w.heap && w.pos && w.used && w.touched;
        if (ok)
            memset(w.used, 0, (size_t)(2 * g->m + 1));
#pragma omp for schedule(dynamic, 1)
        for (int32_t i = 0; i < upto; i++)
            if (ok)
                found[i] = mcf_lengths(g, rev, hp->u[i], hp->v[i], (int32_t)(off[i + 1] - off[i]),
                                       len + off[i], &w);
        mcf_ws_free(&w);
    }
    free(rev);
    return failed ? core_par_failed(err, failed, "hose: pair flows") : MOORE_OK;
}

/* How many augmenting paths pair i may need: its demand at rate TUB, at most
 * the smaller degree (the max flow). */
static int32_t pair_paths(const moore_graph *g, const hose_pairs *hp, int32_t i, double tub)
{
    double k = ceil(hp->d[i] * tub) + 1;
    int32_t cap = moore_graph_degree(g, hp->u[i]);
    if (moore_graph_degree(g, hp->v[i]) < cap)
        cap = moore_graph_degree(g, hp->v[i]);
    return k < cap ? (int32_t)k : cap;
}

int flow_hose_pair_bound(const moore_graph *g, const hose_pairs *hp, int threads, double budget,
                         double *tub, double *bound, int32_t *exact_pairs, moore_error *err)
{
    int nt = threads > 0 ? threads : omp_get_max_threads();
    int32_t P = hp->count;
    *tub = *bound = INFINITY;
    *exact_pairs = 0;
    if (P == 0)
        return MOORE_OK;
    int64_t *dist = moore_malloc((size_t)P, sizeof *dist, err);
    int64_t *off = moore_malloc((size_t)P + 1, sizeof *off, err);
    int32_t *found = moore_malloc((size_t)P, sizeof *found, err);
    int64_t *len = NULL;
    int rc = dist && off && found ? pairs_dist(g, hp, nt, dist, err) : core_alloc_code(err);
    double hops = 0;
    for (int32_t i = 0; !rc && i < P; i++)
        hops += 2.0 * hp->d[i] * (double)dist[i];
    int32_t upto = 0;
    if (!rc) {
        *tub = 2.0 * (double)g->m / hops;
        /* all pairs or none: a share of the pairs would tighten the bound
         * by about that share only */
        double per_path = 2.0 * (double)g->m + 2.0 * g->n * log2(g->n + 2.0), spent = 0;
        for (int32_t i = 0; i < P; i++)
            spent += pair_paths(g, hp, i, *tub) * per_path;
        upto = spent <= budget ? P : 0;
        off[0] = 0;
        for (int32_t i = 0; i < P; i++) {
            off[i + 1] = off[i] + (i < upto ? pair_paths(g, hp, i, *tub) : 0);
            found[i] = -1;
        }
        len = moore_malloc((size_t)(off[P] > 0 ? off[P] : 1), sizeof *len, err);
        rc = len ? pairs_flows(g, hp, nt, upto, off, len, found, err) : core_alloc_code(err);
    }
    if (!rc) {
        *bound = pairs_sup(hp, len, off, found, dist, 2.0 * (double)g->m, *tub);
        *exact_pairs = upto;
    }
    free(dist);
    free(off);
    free(found);
    free(len);
    return rc;
}
