/* bandwidth.c — the bounds `moore compare --bandwidth B` decides with, from
 * the cheapest to the dearest (docs/compare.md):
 *
 *  1. closed forms, no graph (plan_bound_closed): with p servers on each
 *     server switch, a switch of network degree ≥ δ sends p·(S−p)/(S−1)
 *     over δ links, so θ ≤ δ(S−1)/(p(S−p)); and TUB with every server's
 *     partners packed as close as a graph of maximum degree Δ allows (the
 *     Moore shells: at most p·Δ(Δ−1)^(i−1) servers at distance i), so
 *     θ ≤ 2L(S−1) / (S·M), M the packed distance sum of S−p servers;
 *  2. on the built graph, cut bounds (plan_bound_cut, and under the hose
 *     model plan_bound_cut_hose): the first half of the switch ids (a
 *     family's natural halves: pods, groups, dimensions) and each single
 *     server switch, θ ≤ cut/demand across it;
 *  3. distance bounds without a BFS (plan_bound_near): each switch's
 *     servers within two hops counted exactly, the rest put at three hops,
 *     give TUB from above, and under the hose model a bound on every
 *     two-phase routing (plan_two_phase_below adds a BFS per switch where
 *     the near count does not settle it). O(Σ degree²): a row they refute
 *     costs no split;
 *  4. a proven lower bound by a concrete routing (plan_bound_split, which
 *     also returns TUB = 2|E|/Σ T·dist from the same BFS): every
 *     s→t demand split evenly over all shortest s–t paths. It is feasible
 *     flow, so θ ≥ 1/(largest arc load). O(M) per destination switch; on a
 *     folded Clos or a fat-tree it is the optimum to within the leaf's
 *     same-switch share, which the (1+ε) approximation approaches slowly.
 *     Asked against a target (plan_bound_split_to), it stops adding loads
 *     once an arc's load shows the bound falls short: loads only grow.
 * Loads are summed in fixed point (2^-30 units) rounded up, so the sum does
 * not depend on the thread count and only overestimates (the bound stays
 * proven); each thread sums its own copy, added up between blocks of
 * destinations (no atomics). Uniform traffic as in traffic.h:
 * T(s,t) = p_s·p_t/(S−1). */
#include "plan_internal.h"
#include "core/alloc.h"

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

double plan_bound_closed(const moore_counts *c, int32_t p)
{
    double S = (double)c->endpoints, P = p;
    if (p <= 0 || S <= P || c->degree_max <= 0)
        return INFINITY;
    double leaf = (double)c->degree_min * (S - 1) / (P * (S - P));
    /* pack the S − p other servers into Moore shells around one switch */
    double left = S - P, shell = P * c->degree_max, dsum = 0;
    for (int32_t i = 1; left > 0; i++) {
        double take = shell < left ? shell : left;
        dsum += take * i;
        left -= take;
        shell *= c->degree_max > 1 ? c->degree_max - 1 : 1;
        if (i > 100000000)
            break;
    }
    double tub = 2.0 * (double)c->links * (S - 1) / (S * dsum);
    return leaf < tub ? leaf : tub;
}

/* The cuts of plan_bound_cut: the first half of the switch ids and each
 * server switch alone. Uniform traffic puts p_X·p_Y/(S−1) across a cut of
 * p_X and p_Y servers; a hose matrix can put min(p_X, p_Y) across it (every
 * server of the smaller side sending to a distinct one of the other). */
static void cut_bounds(const moore_graph *g, double *uniform, double *hose)
{
    double S = (double)moore_graph_endpoints_total(g), best = INFINITY, any = INFINITY;
    *uniform = *hose = INFINITY;
    if (S < 2)
        return;
    int32_t half = g->n / 2;
    double sx = 0, cut = 0;
    for (int32_t v = 0; v < g->n; v++) {
        double p = g->endpoints[v], deg = (double)moore_graph_degree(g, v);
        if (v < half)
            sx += p;
        if (p > 0 && p < S && deg / (p * (S - p) / (S - 1)) < best)
            best = deg / (p * (S - p) / (S - 1));
        if (p > 0 && 2 * p <= S && deg / p < any)
            any = deg / p;
        if (v < half)
            for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
                cut += g->adj[k] >= half;
    }
    double demand = sx * (S - sx) / (S - 1), side = sx < S - sx ? sx : S - sx;
    if (demand > 0 && cut / demand < best)
        best = cut / demand;
    if (side > 0 && cut / side < any)
        any = cut / side;
    *uniform = best;
    *hose = any;
}

double plan_bound_cut(const moore_graph *g)
{
    double uniform, hose;
    cut_bounds(g, &uniform, &hose);
    return uniform;
}

double plan_bound_cut_hose(const moore_graph *g)
{
    double uniform, hose;
    cut_bounds(g, &uniform, &hose);
    return hose;
}

/* Σ_a p_a·dist(a,b) from below: the servers within 2 hops of b counted at
 * their distance, every other server at 3. seen[] holds, per switch, the
 * last b that marked it (−1 at first). O(Σ over b's neighbours of their degree). */
static int64_t near_distances(const moore_graph *g, int32_t b, int64_t S, int32_t *seen)
{
    int64_t p1 = 0, p2 = 0;
    seen[b] = b;
    for (int64_t k = g->offs[b]; k < g->offs[b + 1]; k++)
        if (seen[g->adj[k]] != b) {
            seen[g->adj[k]] = b;
            p1 += g->endpoints[g->adj[k]];
        }
    for (int64_t k = g->offs[b]; k < g->offs[b + 1]; k++) {
        int32_t u = g->adj[k];
        for (int64_t j = g->offs[u]; j < g->offs[u + 1]; j++)
            if (seen[g->adj[j]] != b) {
                seen[g->adj[j]] = b;
                p2 += g->endpoints[g->adj[j]];
            }
    }
    return p1 + 2 * p2 + 3 * (S - g->endpoints[b] - p1 - p2);
}

/* near_distances of every switch into d[] (D_b from below). */
static int near_all(const moore_graph *g, int threads, int64_t S, int64_t *d, moore_error *err)
{
    int32_t n = g->n;
    int failed = 0;
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
    {
        int32_t *seen = core_par_malloc((size_t)n, sizeof *seen, &failed);
        for (int32_t v = 0; seen && v < n; v++)
            seen[v] = -1;
#pragma omp for schedule(dynamic, 64)
        for (int32_t b = 0; b < n; b++)
            if (seen)
                d[b] = near_distances(g, b, S, seen);
        free(seen);
    }
    return core_par_failed(err, failed, "distance bounds");
}

/* With D_b = Σ_a p_a·dist(a,b) (from below, near_distances):
 *  - uniform: TUB = 2|E|(S−1) / Σ_b p_b·D_b;
 *  - two-phase: with weights w (Σ w = 1) the matrix M(a,b) = p_a·w_b + w_a·p_b
 *    has Σ M·dist = 2·Σ_b w_b·D_b ≥ 2·min_b D_b, and any flow of it at rate θ
 *    puts θ·Σ M·dist on 2|E| arcs of capacity 1, so θ ≤ |E| / min_b D_b for
 *    every choice of w — above whatever two-phase routing proves.
 * Sums are integers: the same for any thread count. */
int plan_bound_near(const moore_graph *g, int threads, double *uniform, double *two_phase,
                    moore_error *err)
{
    *uniform = *two_phase = INFINITY;
    int64_t S = moore_graph_endpoints_total(g), weighted = 0, least = INT64_MAX;
    if (S < 2 || g->n < 2)
        return MOORE_OK;
    int64_t *d = moore_malloc((size_t)g->n, sizeof *d, err);
    int rc = d ? near_all(g, threads, S, d, err) : core_alloc_code(err);
    for (int32_t b = 0; !rc && b < g->n; b++) {
        weighted += (int64_t)g->endpoints[b] * d[b];
        least = d[b] < least ? d[b] : least;
    }
    if (!rc && weighted > 0)
        *uniform = 2.0 * (double)g->m * (double)(S - 1) / (double)weighted;
    if (!rc && least > 0)
        *two_phase = (double)g->m / (double)least;
    free(d);
    return rc;
}

/* Σ_a p_a·dist(a,b) exactly, by one BFS. */
static int64_t exact_distances(const moore_graph *g, int32_t b, int32_t *dist, int32_t *queue)
{
    int64_t sum = 0;
    moore_bfs(g, b, dist, queue);
    for (int32_t a = 0; a < g->n; a++)
        if (dist[a] > 0)
            sum += (int64_t)g->endpoints[a] * dist[a];
    return sum;
}

/* Two-phase routing falls short of target when |E| / D_b < target for every
 * b (plan_bound_near): D_b > |E| / target. The switches whose near bound
 * does not show it get a BFS each, and the first whose exact sum does not
 * either ends the search. */
int plan_two_phase_below(const moore_graph *g, int threads, double target, int *below,
                         moore_error *err)
{
    int64_t S = moore_graph_endpoints_total(g);
    int32_t n = g->n;
    double need = (double)g->m / target; /* every D_b must pass it */
    *below = 0;
    if (S < 2 || n < 2 || !(target > 0))
        return MOORE_OK;
    int64_t *d = moore_malloc((size_t)n, sizeof *d, err);
    int rc = d ? near_all(g, threads, S, d, err) : core_alloc_code(err);
    int failed = 0, found = 0; /* found: a switch within reach of the target */
    if (!rc) {
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
        {
            int32_t *dist = core_par_malloc((size_t)n, sizeof *dist, &failed);
            int32_t *queue = core_par_malloc((size_t)n, sizeof *queue, &failed);
#pragma omp for schedule(dynamic, 4)
            for (int32_t b = 0; b < n; b++) {
                int stop;
#pragma omp atomic read
                stop = found;
                if (stop || !dist || !queue || (double)d[b] > need)
                    continue;
                if ((double)exact_distances(g, b, dist, queue) <= need) {
#pragma omp atomic write
                    found = 1;
                }
            }
            free(dist);
            free(queue);
        }
        rc = core_par_failed(err, failed, "two-phase distance bound");
    }
    if (!rc)
        *below = !found;
    free(d);
    return rc;
}

#define FIX_SCALE 1073741824.0 /* 2^30 */

/* One thread's scratch for the split: a BFS's distances, queue and path
 * counts, the flow toward the destination, and the thread's own share of
 * the arcs' loads (summed into the total between blocks: no atomics, and
 * integer sums do not depend on which thread took which destination). */
typedef struct split_ws {
    int32_t *dist, *order;
    double *sigma, *flow;
    int64_t *load;
} split_ws;

/* BFS from t that counts the shortest paths as it goes (Brandes): dist,
 * order (the BFS queue) and sigma[v] = shortest v–t paths. Path counts are
 * integers, exact in a double below 2^53, so summing them in discovery order
 * gives what summing over each switch's neighbours gives. Returns the
 * switches reached. */
static int32_t split_bfs(const moore_graph *g, int32_t t, split_ws *w)
{
    int32_t *dist = w->dist, *order = w->order, head = 0, tail = 0;
    double *sigma = w->sigma;
    for (int32_t v = 0; v < g->n; v++)
        dist[v] = -1;
    dist[t] = 0;
    sigma[t] = 1;
    order[tail++] = t;
    while (head < tail) {
        int32_t u = order[head++], du = dist[u] + 1;
        double su = sigma[u];
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            int32_t v = g->adj[k];
            if (dist[v] < 0) {
                dist[v] = du;
                sigma[v] = su;
                order[tail++] = v;
            } else if (dist[v] == du) {
                sigma[v] += su;
            }
        }
    }
    return tail;
}

/* The demand toward t into flow[] (in BFS order); returns Σ_s T(s,t)·dist(s,t),
 * t's share of TUB's denominator. */
static double split_demand(const moore_graph *g, int32_t t, double S, int32_t reached,
                           split_ws *w)
{
    double hops = 0;
    for (int32_t i = 0; i < reached; i++) {
        int32_t v = w->order[i];
        w->flow[v] = v == t ? 0 : g->endpoints[v] * (double)g->endpoints[t] / (S - 1);
        hops += w->flow[v] * w->dist[v];
    }
    return hops;
}

/* Adds the loads of all demand toward t, split evenly over shortest paths,
 * to w->load; returns t's Σ T·dist. */
static double split_toward(const moore_graph *g, int32_t t, double S, split_ws *w)
{
    int32_t reached = split_bfs(g, t, w);
    double hops = split_demand(g, t, S, reached, w);
    const int32_t *dist = w->dist;
    const double *sigma = w->sigma;
    double *flow = w->flow;
    for (int32_t i = reached - 1; i > 0; i--) {
        int32_t v = w->order[i];
        if (flow[v] <= 0)
            continue;
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++) {
            int32_t u = g->adj[k];
            if (dist[u] != dist[v] - 1)
                continue;
            double x = flow[v] * sigma[u] / sigma[v];
            flow[u] += x;
            w->load[k] += (int64_t)ceil(x * FIX_SCALE);
        }
    }
    return hops;
}

static void split_ws_clear(split_ws *w)
{
    free(w->dist);
    free(w->order);
    free(w->sigma);
    free(w->flow);
    free(w->load);
}

/* The split over every destination, in blocks: after each block the threads'
 * loads are summed into `load` and, once an arc's load passes `limit` (the
 * split's bound is then below the target whatever the other destinations
 * add: loads only grow), the loads stop and only TUB's sums go on, unless
 * `hops_after` is 0. */
typedef struct split_run {
    const moore_graph *g;
    double S, limit;
    int threads, hops_after;
    int64_t *load;              /* 2|E| arcs, the total */
    double *hops;               /* per destination: its Σ T·dist */
    int64_t **part;             /* per thread: its share since the last sum */
    int stopped, failed;
    int64_t worst;
} split_run;

/* Sums the threads' shares into the total (inside the parallel region) and
 * decides whether the loads have passed the limit. */
static void split_merge(split_run *r, int nt)
{
    int64_t arcs = 2 * r->g->m;
#pragma omp for schedule(static)
    for (int64_t k = 0; k < arcs; k++) {
        int64_t sum = r->load[k];
        for (int th = 0; th < nt; th++)
            if (r->part[th]) {
                sum += r->part[th][k];
                r->part[th][k] = 0;
            }
        r->load[k] = sum;
    }
    /* loads only grow: the worst is the largest total (one thread reads them;
     * a named critical section would be an exported symbol of the library) */
#pragma omp single
    {
        for (int64_t k = 0; k < arcs; k++)
            r->worst = r->load[k] > r->worst ? r->load[k] : r->worst;
        r->stopped = (double)r->worst > r->limit;
    }
}

/* One block of destinations [from, to): their splits, or (stopped) their
 * Σ T·dist alone. */
static void split_block(split_run *r, split_ws *w, int ok, int32_t from, int32_t to)
{
    const moore_graph *g = r->g;
    int stopped = r->stopped;
#pragma omp for schedule(dynamic, 8)
    for (int32_t t = from; t < to; t++) {
        if (!ok || g->endpoints[t] <= 0)
            continue;
        if (!stopped)
            r->hops[t] = split_toward(g, t, r->S, w);
        else if (r->hops_after)
            r->hops[t] = split_demand(g, t, r->S, split_bfs(g, t, w), w);
    }
}

static int split_all(split_run *r, moore_error *err)
{
    const moore_graph *g = r->g;
    int32_t n = g->n;
    int nt = r->threads > 0 ? r->threads : omp_get_max_threads();
    /* blocks of a sixteenth: a split short of the target stops early; none
     * when there is no target */
    int32_t block = isfinite(r->limit) ? (n / 16 > 64 ? n / 16 : 64) : n;
    r->part = moore_calloc((size_t)nt, sizeof *r->part, err);
    if (!r->part)
        return core_alloc_code(err);
#pragma omp parallel num_threads(nt)
    {
        split_ws w = { 0 };
        w.dist = core_par_malloc((size_t)n, sizeof *w.dist, &r->failed);
        w.order = core_par_malloc((size_t)n, sizeof *w.order, &r->failed);
        w.sigma = core_par_malloc((size_t)n, sizeof *w.sigma, &r->failed);
        w.flow = core_par_malloc((size_t)n, sizeof *w.flow, &r->failed);
        w.load = core_par_calloc((size_t)(2 * g->m > 0 ? 2 * g->m : 1), sizeof *w.load,
                                 &r->failed);
        int ok = w.dist && w.order && w.sigma && w.flow && w.load;
        r->part[omp_get_thread_num()] = w.load;
#pragma omp barrier
        for (int32_t from = 0; from < n; from += block) {
            int32_t to = n - from > block ? from + block : n;
            int merge = !r->stopped;
            if (!r->stopped || r->hops_after)
                split_block(r, &w, ok, from, to);
            if (merge)
                split_merge(r, nt);
        }
#pragma omp barrier
        split_ws_clear(&w);
    }
    free(r->part);
    r->part = NULL;
    return core_par_failed(err, r->failed, "shortest-path split");
}

/* The split against target; with tub_always 0 a split that falls short
 * skips TUB's sums for the rest (then *tub = INFINITY); a target of −1 adds
 * no loads at all (TUB alone). */
static int split_bounds(const moore_graph *g, int threads, double target, int tub_always,
                        double *lower, double *tub, moore_error *err)
{
    *lower = 0;
    *tub = INFINITY;
    double S = (double)moore_graph_endpoints_total(g);
    int32_t n = g->n;
    if (S < 2 || n < 2)
        return MOORE_OK;
    int nt = threads > 0 ? threads : omp_get_max_threads();
    split_run r = { .g = g, .S = S, .threads = threads, .hops_after = tub_always,
                    .stopped = target < 0,
                    /* above this an arc's load puts the bound below target */
                    .limit = target > 0 ? FIX_SCALE / target * (1 + 1e-12) : INFINITY };
    int rc = moore_memory_guard((double)g->m * 2 * sizeof(int64_t) * (1 + nt) +
                                    (double)nt * n * (2 * sizeof(int32_t) + 2 * sizeof(double)),
                                "shortest-path split loads", err);
    if (!rc) {
        r.load = moore_calloc((size_t)(2 * g->m > 0 ? 2 * g->m : 1), sizeof *r.load, err);
        r.hops = moore_calloc((size_t)n, sizeof *r.hops, err);
        if (!r.load || !r.hops)
            rc = core_alloc_code(err);
    }
    if (!rc)
        rc = split_all(&r, err);
    if (!rc) {
        double total = 0; /* summed in switch order: the same for any thread count */
        for (int32_t t = 0; t < n; t++)
            total += r.hops[t];
        *lower = r.stopped ? 0 : r.worst > 0 ? FIX_SCALE / (double)r.worst : INFINITY;
        *tub = total > 0 && (!r.stopped || r.hops_after) ? 2.0 * (double)g->m / total
                                                         : INFINITY;
    }
    free(r.load);
    free(r.hops);
    return rc;
}

int plan_bound_split(const moore_graph *g, int threads, double *lower, double *tub,
                     moore_error *err)
{
    return split_bounds(g, threads, 0, 1, lower, tub, err);
}

int plan_bound_split_to(const moore_graph *g, int threads, double target, int tub_always,
                        double *lower, double *tub, moore_error *err)
{
    return split_bounds(g, threads, target > 0 ? target : 0, tub_always, lower, tub, err);
}

int plan_bound_tub(const moore_graph *g, int threads, double *tub, moore_error *err)
{
    double lower;
    return split_bounds(g, threads, -1, 1, &lower, tub, err);
}
