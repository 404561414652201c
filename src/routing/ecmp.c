/* ecmp.c — next hops on distance rows (ECMP and minimal), their statistics
 * (shortest-path counts per pair), and the link loads of ECMP's fixed even
 * split, from which θ = 1 / the most loaded arc follows.
 *
 * ECMP at u toward t: {v ∈ N(u) : d(v,t) = d(u,t) − 1}; minimal: the
 * smallest of them. Nothing but the n·n distance rows is stored; every next
 * hop is derived when asked for, which keeps a 10,000-switch table at 200 MB. */
#include "routing_internal.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* The loop-free table of explicit paths at u toward t (routing.h, table.c). */
static int32_t explicit_hops(const moore_graph *g, const moore_routing *r, int32_t u, int32_t t,
                             int32_t *nh, double *w)
{
    int32_t deg = moore_graph_degree(g, u), c = 0;
    double *acc = w ? w : NULL, local[64];
    if (!acc) {
        if (deg > 64)
            return -1;
        acc = local;
    }
    memset(acc, 0, (size_t)deg * sizeof *acc);
    for (int32_t s = 0; s < r->n; s++) {
        int64_t p0 = r->pair_offs[(int64_t)s * r->n + t], p1 = r->pair_offs[(int64_t)s * r->n + t + 1];
        for (int64_t p = p0; p < p1; p++)
            for (int64_t h = r->path_offs[p]; h + 1 < r->path_offs[p + 1]; h++)
                if (r->hops[h] == u)
                    acc[core_csr_find(g, u, r->hops[h + 1]) - g->offs[u]] +=
                        1.0 / (double)(p1 - p0);
    }
    route_table_filter(g, r, u, t, acc);
    for (int32_t j = 0; j < deg; j++)
        if (acc[j] > 0) {
            nh[c] = g->adj[g->offs[u] + j];
            acc[c++] = acc[j];
        }
    return c;
}

int32_t moore_routing_next_hops(const moore_graph *g, const moore_routing *r, int32_t u,
                                int32_t t, int32_t *nh, double *w)
{
    if (u == t)
        return 0;
    int32_t c;
    if (r->algo == MOORE_ROUTE_MINIMAL) {
        nh[0] = route_minimal_hop(g, r, u, t);
        c = 1;
    } else if (r->algo == MOORE_ROUTE_ECMP) {
        c = route_ecmp_hops(g, r, u, t, nh);
    } else {
        return explicit_hops(g, r, u, t, nh, w);
    }
    for (int32_t j = 0; w && j < c; j++)
        w[j] = 1.0 / c;
    return c;
}

/* Switches in order of decreasing distance to t (counting sort of row t). */
void route_order_by_distance(const moore_routing *r, int32_t t, int32_t *order, int32_t *count,
                             int32_t maxd)
{
    const uint16_t *row = r->dist + (int64_t)t * r->n;
    memset(count, 0, (size_t)(maxd + 2) * sizeof *count);
    for (int32_t v = 0; v < r->n; v++)
        count[maxd - row[v] + 1]++;
    for (int32_t d = 0; d <= maxd; d++)
        count[d + 1] += count[d];
    for (int32_t v = 0; v < r->n; v++)
        order[count[maxd - row[v]]++] = v;
}

int32_t route_max_distance(const moore_routing *r)
{
    int32_t d = 0;
    for (int64_t i = 0; i < (int64_t)r->n * r->n; i++)
        d = r->dist[i] > d ? r->dist[i] : d;
    return d;
}

/* σ(u,t) = number of shortest u→t paths, for every u, into sigma (n), and
 * the size of every next-hop set toward t added to entries (n): one pass
 * over the shortest-path DAG toward t in increasing distance. */
void route_ecmp_counts(const moore_graph *g, const moore_routing *r, int32_t t,
                       const int32_t *order, double *sigma, int64_t *entries)
{
    const uint16_t *row = r->dist + (int64_t)t * r->n;
    sigma[t] = 1;
    for (int32_t i = r->n - 2; i >= 0; i--) {
        int32_t u = order[i];
        int32_t want = row[u] - 1, c = 0;
        double s = 0;
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            int32_t v = g->adj[k], on = row[v] == want;
            s += on ? sigma[v] : 0.0;
            c += on;
        }
        sigma[u] = s;
        entries[u] += c;
    }
}

/* Adds to load[] (2m arcs) the flow toward t of ECMP's even split (or the
 * minimal path): demand[u] enters at u and is passed on down the distance
 * order, one backward pass over the shortest-path DAG toward t. demand is
 * overwritten; hop is scratch for the largest degree. */
void route_fixed_load(const moore_graph *g, const moore_routing *r, int32_t t,
                      const int32_t *order, double *demand, double *load, int64_t *hop)
{
    const uint16_t *row = r->dist + (int64_t)t * r->n;
    int minimal = r->algo == MOORE_ROUTE_MINIMAL;
    for (int32_t i = 0; i < r->n - 1; i++) {
        int32_t u = order[i];
        double f = demand[u];
        if (f == 0)
            continue;
        int32_t c = 0, want = row[u] - 1;
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            hop[c] = k;
            c += row[g->adj[k]] == want;
        }
        c = minimal ? 1 : c;
        double share = f / c;
        for (int32_t j = 0; j < c; j++) {
            load[hop[j]] += share;
            demand[g->adj[hop[j]]] += share;
        }
    }
}
