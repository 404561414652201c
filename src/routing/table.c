/* table.c — the destination-based forwarding table of a routing
 * (docs/routing.md): at switch u toward destination t, which neighbours a
 * packet may leave by and with what share.
 *
 * A switch can only load a table that is destination-based and loop-free:
 * whatever next hop a packet takes, it must reach t. Minimal and ECMP tables
 * are so by construction (every next hop is one hop closer to t). Explicit
 * path sets (ksp, valiant, ugal) are source-routed: the paths of different
 * sources toward t, projected onto one table, can point u → v at one switch
 * and v → u at another (a KSP detour of one pair is another pair's shortest
 * path backwards). Their table keeps, at u toward t, only the projected next
 * hops v that come before u in the strict order
 *     key(x) = (d(x,t), x)     (lexicographic),
 * i.e. one hop closer to t, or as close and of a smaller switch id; the
 * shares of the kept hops are renormalised. Every next hop lowers the key, so
 * every walk reaches t (the only switch of key (0,·)) in at most n−1 hops.
 * When none of u's projected hops is kept (a Valiant path leaving u away
 * from t), u takes the minimal next hop alone. */
#include "core/alloc.h"
#include "routing_internal.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Whether u → v may stay in the table toward t (key(v) < key(u)); the
 * distances from row t (the graph is undirected), read along the row rather
 * than one row apart. */
static int keep_hop(const moore_routing *r, int32_t u, int32_t v, int32_t t)
{
    const uint16_t *row = r->dist + (int64_t)t * r->n;
    int32_t du = row[u], dv = row[v];
    return dv < du || (dv == du && v < u);
}

void route_table_filter(const moore_graph *g, const moore_routing *r, int32_t u, int32_t t,
                        double *w)
{
    double sum = 0;
    int32_t deg = moore_graph_degree(g, u);
    for (int32_t j = 0; j < deg; j++) {
        if (w[j] > 0 && !keep_hop(r, u, g->adj[g->offs[u] + j], t))
            w[j] = 0;
        sum += w[j];
    }
    if (sum == 0) {
        int32_t v = route_minimal_hop(g, r, u, t);
        w[core_csr_find(g, u, v) - g->offs[u]] = 1;
        return;
    }
    for (int32_t j = 0; j < deg; j++)
        w[j] /= sum;
}

/* The projected shares toward t into acc (2m, zero on entry), then the
 * loop-free restriction switch by switch. */
void route_table_dest(const moore_graph *g, const moore_routing *r, int32_t t, double *acc)
{
    int32_t n = r->n;
    for (int32_t s = 0; s < n; s++) {
        if (s == t)
            continue;
        int64_t p0 = r->pair_offs[(int64_t)s * n + t], p1 = r->pair_offs[(int64_t)s * n + t + 1];
        for (int64_t p = p0; p < p1; p++)
            for (int64_t h = r->path_offs[p]; h + 1 < r->path_offs[p + 1]; h++) {
                if (r->hops[h] == t) /* a Valiant path may pass t before it ends */
                    continue;
                acc[core_csr_find(g, r->hops[h], r->hops[h + 1])] += 1.0 / (double)(p1 - p0);
            }
    }
    for (int32_t u = 0; u < n; u++) {
        if (u == t)
            continue;
        /* every switch has an entry, even one no path toward t passes */
        route_table_filter(g, r, u, t, acc + g->offs[u]);
    }
}

int route_tables_build(const moore_graph *g, const moore_routing *r, route_tables **out,
                       moore_error *err)
{
    *out = NULL;
    if (!r->pair_offs)
        return MOORE_OK; /* minimal and ECMP: read off the distance rows */
    int32_t n = r->n;
    route_tables *T = moore_calloc(1, sizeof *T, err);
    int rc = T ? MOORE_OK : core_alloc_code(err);
    if (!rc) {
        T->n = n;
        T->count = moore_calloc((size_t)n, sizeof *T->count, err);
        T->arc = moore_calloc((size_t)n, sizeof *T->arc, err);
        T->w = moore_calloc((size_t)n, sizeof *T->w, err);
        if (!T->count || !T->arc || !T->w)
            rc = core_alloc_code(err);
    }
    int fail = rc; /* shared, core/alloc.h */
#pragma omp parallel if (!rc)
    {
        double *acc = rc ? NULL : core_par_calloc((size_t)(2 * g->m + 1), sizeof *acc, &fail);
#pragma omp for schedule(dynamic, 4)
        for (int32_t t = 0; t < n; t++) {
            if (!acc)
                continue;
            route_table_dest(g, r, t, acc);
            int64_t used = 0;
            for (int64_t a = 0; a < 2 * g->m; a++)
                used += acc[a] > 0;
            T->arc[t] = core_par_malloc((size_t)used + 1, sizeof *T->arc[t], &fail);
            T->w[t] = core_par_malloc((size_t)used + 1, sizeof *T->w[t], &fail);
            for (int64_t a = 0; a < 2 * g->m; a++) {
                if (acc[a] > 0 && T->arc[t] && T->w[t]) {
                    T->arc[t][T->count[t]] = a;
                    T->w[t][T->count[t]++] = acc[a];
                }
                acc[a] = 0;
            }
        }
        free(acc);
    }
    if (!rc)
        rc = core_par_failed(err, fail, "routing: the tables");
    if (!rc) {
        *out = T;
        T = NULL;
    }
    route_tables_free(T);
    return rc;
}

void route_tables_free(route_tables *T)
{
    if (!T)
        return;
    for (int32_t t = 0; t < T->n; t++) {
        if (T->arc)
            free(T->arc[t]);
        if (T->w)
            free(T->w[t]);
    }
    free(T->arc);
    free(T->w);
    free(T->count);
    free(T);
}

int32_t route_table_entry(const moore_graph *g, const moore_routing *r, const route_tables *T,
                          int32_t u, int32_t t, int64_t *arcs, double *w)
{
    if (u == t)
        return 0;
    if (!T) {
        int32_t c = 0, want = route_dist(r, u, t) - 1;
        const uint16_t *row = r->dist + (int64_t)t * r->n;
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            if (row[g->adj[k]] == want) {
                arcs[c++] = k;
                if (r->algo == MOORE_ROUTE_MINIMAL)
                    break;
            }
        for (int32_t j = 0; j < c; j++)
            w[j] = 1.0 / c;
        return c;
    }
    /* the arcs of u are the CSR positions offs[u] .. offs[u+1]−1: a range
     * of t's sorted list, found by binary search */
    const int64_t *a = T->arc[t];
    int64_t lo = 0, hi = T->count[t];
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (a[mid] < g->offs[u])
            lo = mid + 1;
        else
            hi = mid;
    }
    int32_t c = 0;
    for (int64_t i = lo; i < T->count[t] && a[i] < g->offs[u + 1]; i++) {
        arcs[c] = a[i];
        w[c++] = T->w[t][i];
    }
    return c;
}
