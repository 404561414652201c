/* bandwidth.c — the bounds `moore compare --bandwidth B` decides with, from
 * the cheapest to the dearest (docs/compare.md):
 *
 *  1. closed forms, no graph (plan_bound_closed): with p servers on each
 *     server switch, a switch of network degree ≥ δ sends p·(S−p)/(S−1)
 *     over δ links, so θ ≤ δ(S−1)/(p(S−p)); and TUB with every server's
 *     partners packed as close as a graph of maximum degree Δ allows (the
 *     Moore shells: at most p·Δ(Δ−1)^(i−1) servers at distance i), so
 *     θ ≤ 2L(S−1) / (S·M), M the packed distance sum of S−p servers;
 *  2. on the built graph, cut bounds (plan_bound_cut): the first half of
 *     the switch ids (a family's natural halves: pods, groups, dimensions)
 *     and each single server switch, θ ≤ cut/demand across it;
 *  3. a proven lower bound by a concrete routing (plan_bound_split, which
 *     also returns TUB = 2|E|/Σ T·dist from the same BFS): every
 *     s→t demand split evenly over all shortest s–t paths. It is feasible
 *     flow, so θ ≥ 1/(largest arc load). O(M) per destination switch; on a
 *     folded Clos or a fat-tree it is the optimum to within the leaf's
 *     same-switch share, which the (1+ε) approximation approaches slowly.
 * Loads are summed in fixed point (2^-30 units) rounded up, so the sum does
 * not depend on the thread count and only overestimates (the bound stays
 * proven). Uniform traffic as in traffic.h: T(s,t) = p_s·p_t/(S−1). */
#include "plan_internal.h"
#include "core/alloc.h"

#include <math.h>
#include <omp.h>
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

double plan_bound_cut(const moore_graph *g)
{
    double S = (double)moore_graph_endpoints_total(g), best = INFINITY;
    if (S < 2)
        return INFINITY;
    int32_t half = g->n / 2;
    double sx = 0, cut = 0;
    for (int32_t v = 0; v < g->n; v++) {
        double p = g->endpoints[v], deg = (double)moore_graph_degree(g, v);
        if (v < half)
            sx += p;
        if (p > 0 && p < S && deg / (p * (S - p) / (S - 1)) < best)
            best = deg / (p * (S - p) / (S - 1));
        if (v < half)
            for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
                cut += g->adj[k] >= half;
    }
    double demand = sx * (S - sx) / (S - 1);
    if (demand > 0 && cut / demand < best)
        best = cut / demand;
    return best;
}

#define FIX_SCALE 1073741824.0 /* 2^30 */

/* Adds the loads of all demand toward t, split evenly over shortest paths;
 * returns Σ_s T(s,t)·dist(s,t), t's share of TUB's denominator. */
static double split_toward(const moore_graph *g, int32_t t, double S, int32_t *dist,
                           int32_t *order, double *sigma, double *flow, int64_t *load)
{
    moore_bfs(g, t, dist, order);
    /* moore_bfs leaves its queue in BFS order: order[0..n-1] */
    int32_t n = g->n;
    sigma[t] = 1;
    for (int32_t i = 1; i < n; i++) {
        int32_t v = order[i];
        double s = 0;
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
            if (dist[g->adj[k]] == dist[v] - 1)
                s += sigma[g->adj[k]];
        sigma[v] = s;
    }
    double hops = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t v = order[i];
        flow[v] = v == t ? 0 : g->endpoints[v] * (double)g->endpoints[t] / (S - 1);
        hops += flow[v] * dist[v];
    }
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t v = order[i];
        if (flow[v] <= 0)
            continue;
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++) {
            int32_t w = g->adj[k];
            if (dist[w] != dist[v] - 1)
                continue;
            double x = flow[v] * sigma[w] / sigma[v];
            flow[w] += x;
            int64_t units = (int64_t)ceil(x * FIX_SCALE);
#pragma omp atomic
            load[k] += units;
        }
    }
    return hops;
}

/* Every destination t's split (split_toward) on threads threads: the arcs'
 * loads into load (fixed point, FIX_SCALE), t's Σ T·dist into hops[t]. */
static int split_all(const moore_graph *g, int threads, double S, int64_t *load, double *hops,
                     moore_error *err)
{
    int32_t n = g->n;
    int failed = 0;
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
    {
        int32_t *dist = core_par_malloc((size_t)n, sizeof *dist, &failed);
        int32_t *order = core_par_malloc((size_t)n, sizeof *order, &failed);
        double *sigma = core_par_malloc((size_t)n, sizeof *sigma, &failed);
        double *flow = core_par_malloc((size_t)n, sizeof *flow, &failed);
#pragma omp for schedule(dynamic, 8)
        for (int32_t t = 0; t < n; t++)
            if (dist && order && sigma && flow && g->endpoints[t] > 0)
                hops[t] = split_toward(g, t, S, dist, order, sigma, flow, load);
        free(dist);
        free(order);
        free(sigma);
        free(flow);
    }
    return core_par_failed(err, failed, "shortest-path split");
}

int plan_bound_split(const moore_graph *g, int threads, double *lower, double *tub,
                     moore_error *err)
{
    *lower = 0;
    *tub = INFINITY;
    double S = (double)moore_graph_endpoints_total(g);
    int32_t n = g->n;
    if (S < 2 || n < 2)
        return MOORE_OK;
    int64_t *load = NULL;
    double *hops = NULL;
    int rc = moore_memory_guard((double)g->m * 2 * sizeof(int64_t) +
                                    (double)(threads > 0 ? threads : omp_get_max_threads()) * n *
                                        (2 * sizeof(int32_t) + 2 * sizeof(double)),
                                "shortest-path split loads", err);
    if (!rc) {
        load = moore_calloc((size_t)(2 * g->m > 0 ? 2 * g->m : 1), sizeof *load, err);
        hops = moore_calloc((size_t)n, sizeof *hops, err);
        if (!load || !hops)
            rc = core_alloc_code(err);
    }
    if (!rc)
        rc = split_all(g, threads, S, load, hops, err);
    if (!rc) {
        int64_t worst = 0;
        for (int64_t k = 0; k < 2 * g->m; k++)
            if (load[k] > worst)
                worst = load[k];
        double total = 0; /* summed in switch order: the same for any thread count */
        for (int32_t t = 0; t < n; t++)
            total += hops[t];
        *lower = worst > 0 ? FIX_SCALE / (double)worst : INFINITY;
        *tub = total > 0 ? 2.0 * (double)g->m / total : INFINITY;
    }
    free(load);
    free(hops);
    return rc;
}
