/* paths.c — all-pairs distance metrics by bit-parallel multi-source BFS, plus
 * the single-source BFS, components and girth other modules build on.
 *
 * 64·W sources advance together (W = PATHS_WORDS words per vertex): bit i of
 * front[v] says "v is at the current distance from source i of the batch".
 * One level is
 *     next[v] = (OR of front[u] over neighbours u of v) & ~seen[v],
 * so a batch costs at most D · 2E · W word operations and all N sources cost
 * D · 2E · N/64, against N · 2E for one BFS per source. The popcount of each
 * next[v] is the number of (source, v) pairs at this distance, which gives the
 * distance histogram directly; no N×N matrix is ever stored.
 *
 * Refinements that keep the real cost under that model:
 *  - a level whose frontier touches few arcs (the first one, and short
 *    frontiers of long thin graphs) is pushed from the frontier list instead
 *    of pulled over all vertices, so it costs its own arcs, not 2E;
 *  - a vertex every source of the batch has reached is skipped, and a batch
 *    stops the moment every pair has been reached, so no empty level is run
 *    to find out that the BFS is over (on the random 32-regular graphs of
 *    docs/performance.md the last level is almost free);
 *  - a batch's sources form a compact ball (source_order), which keeps each
 *    vertex in few frontiers on high-diameter graphs.
 * Batches run in parallel under OpenMP, each thread with its own bitsets
 * (3 · N · W words), so memory grows with threads, not with N². */
#include "core/alloc.h"
#include "moore/paths.h"
#include "moore/dist.h"
#include "families/grid.h"
#include "metrics/paths_internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Words per vertex in a batch. 4 (256 sources) was fastest on the 2-core
 * AVX-512 machine of docs/performance.md; override with -DPATHS_WORDS=n. */
#ifndef PATHS_WORDS
#define PATHS_WORDS 4
#endif
#define W PATHS_WORDS
#define BATCH (64 * W)

/* A level is pushed from the frontier when its arcs are fewer than 2E/PUSH_RATIO. */
#ifndef PUSH_RATIO
#define PUSH_RATIO 4
#endif

int32_t moore_bfs(const moore_graph *g, int32_t src, int32_t *dist, int32_t *queue)
{
    int32_t *q = queue ? queue : moore_malloc((size_t)(g->n ? g->n : 1), sizeof *q, NULL);
    if (!q)
        return -MOORE_ENOMEM;
    for (int32_t v = 0; v < g->n; v++)
        dist[v] = -1;
    int32_t head = 0, tail = 0, ecc = 0;
    dist[src] = 0;
    q[tail++] = src;
    while (head < tail) {
        int32_t u = q[head++];
        ecc = dist[u];
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            int32_t w = g->adj[k];
            if (dist[w] < 0) {
                dist[w] = dist[u] + 1;
                q[tail++] = w;
            }
        }
    }
    if (!queue)
        free(q);
    return ecc;
}

/* Marks in core[] the 2-core: what is left after repeatedly removing switches
 * of degree <= 1. Every cycle lies in it. Returns how many switches it has. */
static int32_t two_core(const moore_graph *g, char *core, int32_t *deg, int32_t *q)
{
    int32_t n = g->n, head = 0, tail = 0, left = n;
    for (int32_t v = 0; v < n; v++) {
        deg[v] = moore_graph_degree(g, v);
        core[v] = 1;
        if (deg[v] <= 1) {
            core[v] = 0;
            q[tail++] = v;
        }
    }
    while (head < tail) {
        int32_t u = q[head++];
        left--;
        for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++) {
            int32_t w = g->adj[e];
            if (core[w] && --deg[w] <= 1) {
                core[w] = 0;
                q[tail++] = w;
            }
        }
    }
    return left;
}

/* The shortest cycle found by BFS from s inside the 2-core, if shorter than
 * bound (else bound): a non-tree edge u–w met at depths du, dw closes a
 * cycle of length ≤ du + dw + 1, and the BFS stops once no cycle shorter
 * than the bound can appear. dist must be all -1; it is left so. */
static int32_t girth_from(const moore_graph *g, const char *core, int32_t s, int32_t bound,
                          int32_t *dist, int32_t *parent, int32_t *q)
{
    int32_t head = 0, tail = 0;
    dist[s] = 0;
    parent[s] = -1;
    q[tail++] = s;
    while (head < tail) {
        int32_t u = q[head++];
        if (2 * dist[u] + 1 >= bound)
            break;
        for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++) {
            int32_t w = g->adj[e];
            if (!core[w])
                continue;
            if (dist[w] < 0) {
                dist[w] = dist[u] + 1;
                parent[w] = u;
                q[tail++] = w;
            } else if (w != parent[u] && dist[u] + dist[w] + 1 < bound) {
                bound = dist[u] + dist[w] + 1;
            }
        }
    }
    for (int32_t i = 0; i < tail; i++)
        dist[q[i]] = -1;
    return bound;
}

/* A 2-regular graph is a union of cycles: its girth is its smallest
 * component, found in O(N) instead of one BFS of the whole ring per switch. */
static int girth_of_cycles(const moore_graph *g, int32_t *girth, moore_error *err)
{
    int32_t *comp = NULL, *size = NULL, count = 0;
    int rc = MOORE_ENOMEM;
    comp = moore_malloc((size_t)g->n, sizeof *comp, err);
    size = moore_calloc((size_t)g->n, sizeof *size, err);
    if (!comp || !size) {
        rc = core_alloc_code(err);
        goto done;
    }
    if ((rc = moore_components(g, comp, &count, err)))
        goto done;
    for (int32_t v = 0; v < g->n; v++)
        size[comp[v]]++;
    *girth = g->n;
    for (int32_t c = 0; c < count; c++)
        *girth = size[c] < *girth ? size[c] : *girth;
done:
    free(comp);
    free(size);
    return rc;
}

/* Girth as the least girth_from over the 2-core's vertices: exact, since a
 * root on a shortest cycle finds it. The bound is shared by all threads, so
 * graphs with short cycles cost little; forests cost O(N + E). A few roots
 * are tried first without threads: a triangle there (girth 3 cannot be
 * beaten) ends the search before any thread starts. */
int moore_girth(const moore_graph *g, int32_t *girth, moore_error *err)
{
    int32_t n = g->n;
    *girth = 0;
    if (g->m < 3) /* a simple graph needs three links for a cycle */
        return MOORE_OK;
    if (g->m == n && moore_graph_degree_max(g) == 2 && moore_graph_is_regular(g))
        return girth_of_cycles(g, girth, err);
    char *core = NULL;
    int32_t *dist = NULL, *parent = NULL, *q = NULL;
    int rc = MOORE_ENOMEM;
    core = moore_malloc((size_t)n, 1, err);
    dist = moore_malloc((size_t)n, sizeof *dist, err);
    parent = moore_malloc((size_t)n, sizeof *parent, err);
    q = moore_malloc((size_t)n, sizeof *q, err);
    if (!core || !dist || !parent || !q) {
        rc = core_alloc_code(err);
        goto done;
    }
    int32_t left = two_core(g, core, dist, q);
    int32_t first = 0, tried = 0, serial = INT32_MAX;
    for (int32_t v = 0; v < n; v++)
        dist[v] = -1;
    for (; left > 0 && first < n && tried < 32 && serial > 3; first++)
        if (core[first]) {
            serial = girth_from(g, core, first, serial, dist, parent, q);
            tried++;
        }
    _Atomic int32_t best = serial;
    int failed = 0;
    if (left > 0 && serial > 3 && first < n) {
#pragma omp parallel
        {
            int32_t *d = core_par_malloc((size_t)n, sizeof *d, &failed);
            int32_t *par = core_par_malloc((size_t)n, sizeof *par, &failed);
            int32_t *bq = core_par_malloc((size_t)n, sizeof *bq, &failed);
            int ok = d && par && bq; /* every thread meets the loop, with or without scratch */
            for (int32_t v = 0; ok && v < n; v++)
                d[v] = -1;
#pragma omp for schedule(dynamic, 64)
            for (int32_t s = first; s < n; s++) {
                int32_t now = atomic_load_explicit(&best, memory_order_relaxed);
                if (!ok || !core[s] || now == 3)
                    continue;
                int32_t local = girth_from(g, core, s, now, d, par, bq);
                while (local < now &&
                       !atomic_compare_exchange_weak_explicit(&best, &now, local,
                                                              memory_order_relaxed,
                                                              memory_order_relaxed))
                    ;
            }
            free(d);
            free(par);
            free(bq);
        }
    }
    if (failed) {
        rc = core_par_failed(err, failed, "girth scratch");
        goto done;
    }
    int32_t found = atomic_load(&best);
    *girth = found == INT32_MAX ? 0 : found;
    rc = MOORE_OK;
done:
    free(core);
    free(dist);
    free(parent);
    free(q);
    return rc;
}

double moore_bound(int32_t degree, int32_t diameter)
{
    double sum = 0, pw = 1;
    for (int32_t i = 0; i < diameter; i++) {
        sum += pw;
        pw *= (double)(degree - 1);
    }
    return 1.0 + (double)degree * sum;
}

void moore_paths_result_clear(moore_paths_result *r)
{
    free(r->histogram);
    memset(r, 0, sizeof *r);
}

/* ---- bit-parallel multi-source BFS ---- */

/* One thread's scratch: three bitsets of n × W words, two frontier lists and
 * its share of the histogram (n entries: a distance is at most n − 1). */
typedef struct batch_ws {
    uint64_t *front, *next, *seen;
    int32_t *list, *list2;
    int64_t *hist;
} batch_ws;

static size_t batch_ws_bytes(int32_t n)
{
    return (size_t)n * (3 * W * sizeof(uint64_t) + 2 * sizeof(int32_t) + sizeof(int64_t));
}

/* Called inside the parallel region: a failure's code goes to *fail. */
static void batch_ws_alloc(batch_ws *w, int32_t n, int *fail)
{
    size_t words = (size_t)n * W;
    w->front = core_par_malloc(words, sizeof *w->front, fail);
    w->next = core_par_malloc(words, sizeof *w->next, fail);
    w->seen = core_par_malloc(words, sizeof *w->seen, fail);
    w->list = core_par_malloc((size_t)n, sizeof *w->list, fail);
    w->list2 = core_par_malloc((size_t)n, sizeof *w->list2, fail);
    w->hist = core_par_calloc((size_t)n, sizeof *w->hist, fail);
}

static void batch_ws_clear(batch_ws *w)
{
    free(w->front);
    free(w->next);
    free(w->seen);
    free(w->list);
    free(w->list2);
    free(w->hist);
}

/* A row of W words as one GNU C vector: one load and one OR per neighbour,
 * lowered to what the clone's instruction set has (2 × SSE2 or 1 × AVX2 for
 * W = 4); plain word loops were left scalar by gcc and ran 1.5-1.8× slower.
 * Rows are copied in and out with memcpy, so no alignment is assumed. */
typedef uint64_t row_t __attribute__((vector_size(W * sizeof(uint64_t))));

#define ROW_GET(r, p) memcpy(&(r), (p), sizeof(row_t))
#define ROW_PUT(p, r) memcpy((p), &(r), sizeof(row_t))

/* (by pointer: a 32-byte vector argument would change the ABI of a
 * non-inlined call in builds without AVX) */
static inline int row_any(const row_t *r)
{
    uint64_t x = 0;
    for (int i = 0; i < W; i++)
        x |= (*r)[i];
    return x != 0;
}

static inline int64_t row_popcount(const row_t *r)
{
    int64_t c = 0;
    for (int i = 0; i < W; i++)
        c += __builtin_popcountll((*r)[i]);
    return c;
}

/* Distances from the sources src[0..cnt-1] (cnt <= 64·W) in a connected
 * graph: adds the pairs at each distance to w->hist and returns the batch's
 * largest eccentricity. Compiled for several instruction sets where gcc can
 * (the resolver picks one at load time): the popcount instruction alone is
 * worth ~15% over the baseline x86-64 library call, AVX2 ORs a row at once. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("default", "arch=x86-64-v2", "arch=x86-64-v3")))
#endif
static int32_t run_batch(const moore_graph *g, const int32_t *src, int32_t cnt, batch_ws *w)
{
    const int32_t n = g->n;
    const int64_t *offs = g->offs;
    const int32_t *adj = g->adj;
    uint64_t *front = w->front, *next = w->next, *seen = w->seen;
    int32_t *fl = w->list, *nl = w->list2;
    memset(front, 0, (size_t)n * W * sizeof *front);
    memset(next, 0, (size_t)n * W * sizeof *next);
    memset(seen, 0, (size_t)n * W * sizeof *seen);

    /* full: the bits of this batch's sources (all of them in every batch but
     * possibly the last). */
    row_t full;
    for (int i = 0; i < W; i++) {
        int32_t bits = cnt - 64 * i;
        full[i] = bits >= 64 ? ~(uint64_t)0 : bits <= 0 ? 0 : (((uint64_t)1 << bits) - 1);
    }
    int32_t nf = 0;
    int64_t arcs = 0;
    for (int32_t i = 0; i < cnt; i++) {
        int32_t v = src[i];
        front[(size_t)v * W + i / 64] = (uint64_t)1 << (i % 64);
        seen[(size_t)v * W + i / 64] = (uint64_t)1 << (i % 64);
        fl[nf++] = v;
        arcs += offs[v + 1] - offs[v];
    }
    w->hist[0] += cnt;
    int64_t remaining = (int64_t)cnt * (n - 1); /* pairs not reached yet */
    int32_t d = 0;
    /* Invariant at the top of a level: front is zero outside the rows listed
     * in fl, and next is zero everywhere. */
    while (remaining > 0 && nf > 0) {
        d++;
        int32_t nn = 0;
        int64_t count = 0, narcs = 0;
        if (arcs * PUSH_RATIO < 2 * g->m) {
            /* push: OR each frontier row into its neighbours' next rows; a
             * row still zero is touched for the first time (front rows are
             * never zero), so nl collects the touched rows without marks. */
            for (int32_t k = 0; k < nf; k++) {
                int32_t u = fl[k];
                row_t fu;
                ROW_GET(fu, front + (size_t)u * W);
                for (int64_t e = offs[u]; e < offs[u + 1]; e++) {
                    uint64_t *p = next + (size_t)adj[e] * W;
                    row_t nv;
                    ROW_GET(nv, p);
                    if (!row_any(&nv))
                        nl[nn++] = adj[e];
                    nv |= fu;
                    ROW_PUT(p, nv);
                }
            }
            int32_t touched = nn;
            nn = 0;
            for (int32_t k = 0; k < touched; k++) {
                int32_t v = nl[k];
                uint64_t *pn = next + (size_t)v * W, *ps = seen + (size_t)v * W;
                row_t nv, sv;
                ROW_GET(nv, pn);
                ROW_GET(sv, ps);
                nv &= ~sv;
                sv |= nv;
                ROW_PUT(pn, nv);
                ROW_PUT(ps, sv);
                if (row_any(&nv)) {
                    count += row_popcount(&nv);
                    nl[nn++] = v;
                    narcs += offs[v + 1] - offs[v];
                }
            }
        } else {
            /* pull: every vertex not yet reached by all sources ORs its
             * neighbours' frontier rows. */
            for (int32_t v = 0; v < n; v++) {
                uint64_t *ps = seen + (size_t)v * W;
                row_t sv, acc = { 0 };
                ROW_GET(sv, ps);
                row_t miss = full & ~sv;
                if (!row_any(&miss))
                    continue;
                for (int64_t e = offs[v]; e < offs[v + 1]; e++) {
                    row_t fu;
                    ROW_GET(fu, front + (size_t)adj[e] * W);
                    acc |= fu;
                }
                acc &= miss;
                if (!row_any(&acc))
                    continue;
                sv |= acc;
                ROW_PUT(ps, sv);
                ROW_PUT(next + (size_t)v * W, acc);
                count += row_popcount(&acc);
                nl[nn++] = v;
                narcs += offs[v + 1] - offs[v];
            }
        }
        /* the old frontier becomes the next "next": clear its rows */
        for (int32_t k = 0; k < nf; k++)
            memset(front + (size_t)fl[k] * W, 0, W * sizeof *front);
        w->hist[d] += count;
        remaining -= count;
        uint64_t *t = front;
        front = next;
        next = t;
        int32_t *tl = fl;
        fl = nl;
        nl = tl;
        nf = nn;
        arcs = narcs;
    }
    /* hand the swapped buffers back so the next batch finds all three */
    w->front = front;
    w->next = next;
    w->list = fl;
    w->list2 = nl;
    return d;
}

/* Orders the sources so each batch is a compact ball: grown by BFS from a
 * seed over switches no earlier batch took, until it holds 64·W of them; the
 * next ball starts beside it. Any order gives the same totals; a compact one
 * makes every switch see few distinct distances to a batch, so it sits in
 * few frontiers and high-diameter graphs (tori, grids) push short frontiers
 * instead of pulling over all N. On expanders it changes nothing. O(N + E). */
static void source_order(const moore_graph *g, int32_t *order, char *taken, int32_t *q)
{
    int32_t n = g->n, pos = 0, next_seed = -1;
    memset(taken, 0, (size_t)n);
    for (int32_t s = 0; s < n; s++) {
        int32_t seed = next_seed >= 0 && !taken[next_seed] ? next_seed : s;
        next_seed = -1;
        if (taken[seed]) {
            continue;
        }
        int32_t head = 0, tail = 0;
        taken[seed] = 1;
        q[tail++] = seed;
        while (head < tail) {
            int32_t u = q[head++];
            order[pos++] = u;
            if (pos % BATCH == 0)
                break;
            for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++)
                if (!taken[g->adj[e]]) {
                    taken[g->adj[e]] = 1;
                    q[tail++] = g->adj[e];
                }
        }
        /* the ball is full: hand its unvisited rim back, and seed the next
         * ball there so the switches left stay in one piece */
        for (int32_t k = head; k < tail; k++)
            taken[q[k]] = 0;
        if (head < tail)
            next_seed = q[head];
        if (seed != s)
            s--; /* s itself is still to be looked at */
    }
}

int moore_paths_compute(const moore_graph *g, const moore_metric_options *o,
                        moore_paths_result *out, moore_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = metric_paths_components(g, out, err);
    if (rc || !out->connected)
        return rc;
    int32_t n = g->n;
    if (n <= 1) { /* no pairs: distance 0 only */
        out->histogram = moore_calloc(1, sizeof *out->histogram, err);
        if (!out->histogram)
            return core_alloc_code(err);
        out->histogram[0] = n;
        out->histogram_len = 1;
        return MOORE_OK;
    }
    int32_t batches = (int32_t)(((int64_t)n + BATCH - 1) / BATCH);
    int threads = 1;
#ifdef _OPENMP
    threads = o && o->threads > 0 ? o->threads : omp_get_max_threads();
#endif
    if (threads > batches)
        threads = batches > 0 ? batches : 1;
    /* Every early failure is agreed with the other MPI ranks, which would
     * otherwise wait for this one in the histogram reduction. */
    const moore_dist *dist = o ? o->dist : NULL;
    rc = moore_memory_guard((double)threads * (double)batch_ws_bytes(n),
                            "all-pairs distances", err);
    if ((rc = moore_dist_agree(dist, rc, err)))
        return rc;
    int64_t *hist = NULL;
    int32_t *order = NULL, *q = NULL;
    char *taken = NULL;
    hist = moore_calloc((size_t)n, sizeof *hist, err);
    order = moore_malloc((size_t)n, sizeof *order, err);
    q = moore_malloc((size_t)n, sizeof *q, err);
    taken = moore_malloc((size_t)n, 1, err);
    rc = hist && order && q && taken ? MOORE_OK : core_alloc_code(err);
    if ((rc = moore_dist_agree(dist, rc, err)))
        goto done;
    source_order(g, order, taken, q);
    int failed = 0;
    int32_t done = 0;
#pragma omp parallel num_threads(threads)
    {
        batch_ws w;
        batch_ws_alloc(&w, n, &failed);
#pragma omp barrier
        int bad;
#pragma omp atomic read
        bad = failed;
        if (!bad) {
#pragma omp for schedule(dynamic, 1)
            for (int32_t b = 0; b < batches; b++) {
                if (!moore_dist_mine(o ? o->dist : NULL, b))
                    continue; /* another rank's batch */
                int32_t s0 = b * BATCH, cnt = n - s0 < BATCH ? n - s0 : BATCH;
                run_batch(g, order + s0, cnt, &w);
                int32_t now;
#pragma omp atomic capture
                now = ++done;
#ifdef _OPENMP
                if (o && o->progress && omp_get_thread_num() == 0)
#else
                if (o && o->progress)
#endif
                    o->progress(o->progress_ctx, "distances", (double)now / batches);
            }
#pragma omp critical
            for (int32_t d = 0; d < n; d++)
                hist[d] += w.hist[d];
        }
        batch_ws_clear(&w);
    }
    if (failed)
        rc = core_par_failed(err, failed, "all-pairs distance bitsets");
    /* Ranks add their batches' exact counts: the same histogram for any K. */
    rc = moore_dist_agree(dist, rc, err);
    if (!rc)
        rc = moore_dist_sum_i64(dist, hist, n, err);
    if (rc)
        goto done;
    if (o && o->progress) /* thread 0 may not have run the last batch */
        o->progress(o->progress_ctx, "distances", 1.0);
    metric_paths_finish(out, hist, n);
    hist = NULL; /* out holds it now */
done:
    free(hist);
    free(order);
    free(q);
    free(taken);
    return rc;
}

int metric_paths_components(const moore_graph *g, moore_paths_result *out, moore_error *err)
{
    int rc = moore_components(g, NULL, &out->components, err);
    if (rc)
        return rc;
    out->connected = out->components <= 1;
    if (!out->connected) {
        out->diameter = -1;
        out->avg_path_length = NAN;
    }
    return MOORE_OK;
}

/* Exact sums (128 bits: d · pairs passes 2^63 on the largest graphs), so the
 * APL is one division of two exact counts whatever method made hist. */
void metric_paths_finish(moore_paths_result *out, int64_t *hist, int32_t cap)
{
    __extension__ typedef unsigned __int128 paths_u128;
    int32_t diam = 0;
    paths_u128 sum = 0, pairs = 0;
    for (int32_t d = 1; d < cap; d++)
        if (hist[d]) {
            diam = d;
            sum += (paths_u128)d * (paths_u128)hist[d];
            pairs += (paths_u128)hist[d];
        }
    out->diameter = diam;
    out->avg_path_length = pairs > 0 ? (double)sum / (double)pairs : 0.0;
    int64_t *h = realloc(hist, (size_t)(diam + 1) * sizeof *h);
    out->histogram = h ? h : hist;
    out->histogram_len = diam + 1;
}

/* ---- distances known in closed form ---- */

/* The histogram of a ring C_n (n >= 3) or a complete graph K_n into *hist;
 * 0 when g is neither. A connected 2-regular graph is a ring; a simple graph
 * with n(n − 1)/2 links is complete. */
static int paths_ring_or_complete(const moore_graph *g, int64_t **hist, int32_t *len,
                                  moore_error *err)
{
    int64_t n = g->n;
    int complete = n >= 2 && g->m == n * (n - 1) / 2;
    int ring = !complete && n >= 3 && g->m == n && moore_graph_degree_max(g) == 2 &&
               moore_graph_is_regular(g);
    int32_t comps = 0;
    int rc = ring ? moore_components(g, NULL, &comps, err) : MOORE_OK;
    if (rc)
        return -rc;
    if (!complete && !(ring && comps == 1))
        return 0;
    int32_t diam = complete ? 1 : (int32_t)(n / 2);
    int64_t *h = moore_calloc((size_t)diam + 1, sizeof *h, err);
    if (!h)
        return -MOORE_ENOMEM;
    h[0] = n;
    for (int32_t d = 1; d <= diam; d++) /* as grid.c counts a ring's pairs */
        h[d] = complete ? n * (n - 1) : 2 * d == n ? n : 2 * n;
    *hist = h;
    *len = diam + 1;
    return 1;
}

int moore_paths_closed_form(const moore_graph *g, moore_paths_result *out, int *found,
                            moore_error *err)
{
    memset(out, 0, sizeof *out);
    *found = 0;
    int64_t *hist = NULL;
    int32_t len = 0;
    moore_grid grid;
    int known = paths_ring_or_complete(g, &hist, &len, err);
    if (known < 0)
        return -known;
    if (!known && fam_grid_of_graph(g, &grid)) {
        int rc = fam_grid_distances(&grid, &hist, &len, err);
        if (rc)
            return rc;
        known = 1;
    }
    if (!known)
        return MOORE_OK;
    out->components = 1;
    out->connected = 1;
    metric_paths_finish(out, hist, len);
    *found = 1;
    return MOORE_OK;
}
