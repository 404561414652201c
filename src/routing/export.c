/* export.c — routing files for simulators and scripts (docs/routing.md):
 *   paths   CSV "src,dst,rank,layer,path", path = switch ids joined by '-';
 *           ECMP lists every shortest path (depth-first over the next-hop
 *           sets, ascending), the other algorithms their stored paths in
 *           order; layer is the virtual layer of the greedy layering.
 *   tables  CSV "switch,dst_first,dst_last,layer,ports,weights": the
 *           loop-free destination-based table of table.c, one row per switch
 *           and run of consecutive destinations (those with servers unless
 *           all are asked for) with the same entry; ports as the cable plan
 *           numbers them, integer weights, the destination's virtual layer.
 *   netbench netbench's k-shortest-path cache (paths-cache/<SHA-1 of the
 *           .topology file>.kspaths, read by its KShortestPathsSwitchRouting):
 *           a line "k=K", then "rank,src,dst,path" with ranks from 1, for
 *           every ordered pair of switches with servers (netbench's ToRs).
 * All are written through moore_atomic_open/commit: whole or absent. */
#include "core/alloc.h"
#include "routing_internal.h"

#include "moore/io.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* One path line: CSV "src,dst,rank,layer,path" (layer ≥ 0), or netbench's
 * "rank,src,dst,path" with ranks from 1 (layer < 0). */
static void print_path(FILE *f, int32_t s, int32_t t, int64_t rank, int32_t layer,
                       const int32_t *seq, int64_t len)
{
    if (layer < 0)
        fprintf(f, "%lld,%d,%d,", (long long)rank + 1, (int)s, (int)t);
    else
        fprintf(f, "%d,%d,%lld,%d,", (int)s, (int)t, (long long)rank, (int)layer);
    for (int64_t i = 0; i < len; i++)
        fprintf(f, i ? "-%d" : "%d", (int)seq[i]);
    fputc('\n', f);
}

/* Every shortest s→t path (ECMP), depth-first, next hops ascending. */
static int64_t ecmp_paths(FILE *f, const moore_graph *g, const moore_routing *r, int32_t s,
                          int32_t t, int32_t layer, int32_t *seq, int64_t *next)
{
    int32_t d = route_dist(r, s, t), depth = 0;
    const uint16_t *row = r->dist + (int64_t)t * r->n;
    int64_t rank = 0;
    seq[0] = s;
    next[0] = g->offs[s];
    while (depth >= 0) {
        if (depth == d) {
            print_path(f, s, t, rank++, layer, seq, d + 1);
            depth--;
            continue;
        }
        int32_t u = seq[depth];
        while (next[depth] < g->offs[u + 1] && row[g->adj[next[depth]]] + 1 != row[u])
            next[depth]++;
        if (next[depth] == g->offs[u + 1]) {
            depth--;
            continue;
        }
        int32_t v = g->adj[next[depth]++];
        seq[++depth] = v;
        next[depth] = g->offs[v];
    }
    return rank;
}

/* Every path of the routing into f, pairs in (src, dst) order; only pairs
 * whose both ends pass `keep` (NULL: all). layer < 0 selects netbench lines. */
static void write_all_paths(FILE *f, const moore_graph *g, const moore_routing *r,
                            const int32_t *lay, int netbench, const char *keep, int32_t *seq,
                            int64_t *next)
{
    int32_t n = r->n;
    for (int32_t s = 0; s < n; s++)
        for (int32_t t = 0; t < n; t++) {
            if (s == t || (keep && (!keep[s] || !keep[t])))
                continue;
            int32_t tl = netbench ? -1 : lay ? lay[t] : 0;
            if (r->algo == MOORE_ROUTE_ECMP) {
                ecmp_paths(f, g, r, s, t, tl, seq, next);
            } else if (r->algo == MOORE_ROUTE_MINIMAL) {
                int32_t len = route_minimal_path(g, r, s, t, seq);
                print_path(f, s, t, 0, tl, seq, len);
            } else {
                int64_t p0 = r->pair_offs[(int64_t)s * n + t];
                for (int64_t p = p0; p < r->pair_offs[(int64_t)s * n + t + 1]; p++)
                    print_path(f, s, t, p - p0, netbench ? -1 : lay ? lay[p] : 0,
                               r->hops + r->path_offs[p], r->path_offs[p + 1] - r->path_offs[p]);
            }
        }
}

/* The most paths any pair has (netbench's "k=") into *k. */
static int max_paths_per_pair(const moore_graph *g, const moore_routing *r, int64_t *k,
                              moore_error *err)
{
    *k = 0;
    if (r->pair_offs) {
        for (int64_t i = 0; i < (int64_t)r->n * r->n; i++)
            *k = r->pair_offs[i + 1] - r->pair_offs[i] > *k ? r->pair_offs[i + 1] - r->pair_offs[i]
                                                            : *k;
        return MOORE_OK;
    }
    moore_routing_stats st;
    int rc = moore_routing_stats_compute(g, r, &st, err);
    *k = (int64_t)st.paths_per_pair_max;
    return rc;
}

/* Both path formats: CSV with layers, or netbench's cache (header "k=K",
 * pairs of switches with servers). */
static int write_paths_as(const moore_graph *g, const moore_routing *r,
                          const moore_deadlock_result *layers, int netbench, const char *path,
                          moore_error *err)
{
    int32_t n = r->n;
    int32_t *seq = moore_malloc((size_t)n + 1, sizeof *seq, err);
    int64_t *next = moore_malloc((size_t)n + 1, sizeof *next, err);
    char *keep = netbench ? moore_malloc((size_t)n, 1, err) : NULL;
    int64_t k = 0;
    moore_atomic_file af;
    int rc = MOORE_OK;
    if (!seq || !next || (netbench && !keep))
        rc = core_alloc_code(err);
    if (!rc && netbench)
        rc = max_paths_per_pair(g, r, &k, err);
    if (!rc)
        rc = moore_atomic_open(path, &af, err);
    if (rc)
        goto done;
    if (netbench) {
        /* netbench's ToRs: the switches with servers (all of them when the
         * graph has none, as moore's netbench topology export does) */
        int none = moore_graph_endpoints_total(g) == 0;
        for (int32_t v = 0; v < n; v++)
            keep[v] = none || g->endpoints[v] > 0;
        fprintf(af.f, "k=%lld\n", (long long)k);
    } else {
        fprintf(af.f, "src,dst,rank,layer,path\n");
    }
    write_all_paths(af.f, g, r, layers ? layers->layer : NULL, netbench, keep, seq, next);
    rc = moore_atomic_commit(&af, err);
done:
    free(seq);
    free(next);
    free(keep);
    return rc;
}

int moore_routing_write_paths(const moore_graph *g, const moore_routing *r,
                              const moore_deadlock_result *layers, const char *path,
                              moore_error *err)
{
    return write_paths_as(g, r, layers, 0, path, err);
}

int moore_routing_write_netbench(const moore_graph *g, const moore_routing *r, const char *path,
                                 moore_error *err)
{
    return write_paths_as(g, r, NULL, 1, path, err);
}

/* ---- forwarding tables ---- */

static int64_t gcd(int64_t a, int64_t b)
{
    while (b) {
        int64_t x = a % b;
        a = b;
        b = x;
    }
    return a;
}

/* Integer weights of the shares w[0..c−1]: all 1 for an even split, else
 * the shares in 64ths (each at least 1) divided by their gcd. */
static void int_weights(const double *w, int32_t c, int64_t *iw)
{
    double lo = w[0], hi = w[0];
    for (int32_t j = 1; j < c; j++) {
        lo = w[j] < lo ? w[j] : lo;
        hi = w[j] > hi ? w[j] : hi;
    }
    int64_t g = 0;
    for (int32_t j = 0; j < c; j++) {
        iw[j] = hi - lo < 1e-9 ? 1 : (int64_t)(w[j] * 64 + 0.5);
        iw[j] = iw[j] < 1 ? 1 : iw[j];
        g = gcd(iw[j], g);
    }
    for (int32_t j = 0; j < c && g > 1; j++)
        iw[j] /= g;
}

/* The entry of u toward t as text "layer,ports,weights" into buf (cap
 * bytes): the ports of the cable plan (switch u's j-th neighbour in
 * ascending order is reached by ports j·K .. j·K+K−1, K cables per link,
 * docs/layout.md), each with its next hop's integer weight. */
static void entry_text(const moore_graph *g, const moore_routing *r, const route_tables *T,
                       const int32_t *layer, int32_t u, int32_t t, int32_t K, int64_t *arcs,
                       double *w, int64_t *iw, char *buf, size_t cap)
{
    int32_t c = route_table_entry(g, r, T, u, t, arcs, w);
    size_t len = 0;
    int_weights(w, c, iw);
    len += (size_t)(layer ? snprintf(buf, cap, "%d,", (int)layer[t]) : snprintf(buf, cap, ","));
    for (int32_t j = 0; j < c; j++)
        for (int32_t k = 0; k < K; k++)
            len += (size_t)snprintf(buf + len, cap - len, j + k ? " %lld" : "%lld",
                                    (long long)((arcs[j] - g->offs[u]) * K + k));
    buf[len++] = ',';
    for (int32_t j = 0; j < c; j++)
        for (int32_t k = 0; k < K; k++)
            len += (size_t)snprintf(buf + len, cap - len, j + k ? " %lld" : "%lld",
                                    (long long)iw[j]);
    buf[len] = '\0';
}

/* Switch u's rows: runs of listed destinations (ascending, never u itself)
 * with the same entry become one row dst_first..dst_last. */
static void switch_rows(FILE *f, const moore_graph *g, const moore_routing *r,
                        const route_tables *T, const int32_t *layer, const char *listed,
                        int32_t u, int32_t K, int64_t *arcs, double *w, int64_t *iw, char *cur,
                        char *prev, size_t cap)
{
    int32_t first = -1, last = -1;
    for (int32_t t = 0; t <= r->n; t++) {
        if (t < r->n && (!listed[t] || t == u))
            continue;
        if (t < r->n)
            entry_text(g, r, T, layer, u, t, K, arcs, w, iw, cur, cap);
        if (first >= 0 && (t == r->n || strcmp(cur, prev) || (u > last && u < t))) {
            fprintf(f, "%d,%d,%d,%s\n", (int)u, (int)first, (int)last, prev);
            first = -1;
        }
        if (t < r->n) {
            if (first < 0) {
                first = t;
                memcpy(prev, cur, strlen(cur) + 1);
            }
            last = t;
        }
    }
}

int moore_routing_write_tables(const moore_graph *g, const moore_routing *r,
                               const int32_t *layer, int all_destinations, const char *path,
                               moore_error *err)
{
    int32_t n = r->n, deg = moore_graph_degree_max(g), K = moore_graph_multiplicity(g);
    size_t cap = (size_t)deg * (size_t)K * 48 + 64;
    int none = moore_graph_endpoints_total(g) == 0;
    route_tables *T = NULL;
    moore_atomic_file af;
    int64_t *arcs = moore_malloc((size_t)deg + 1, sizeof *arcs, err);
    int64_t *iw = moore_malloc((size_t)deg + 1, sizeof *iw, err);
    double *w = moore_malloc((size_t)deg + 1, sizeof *w, err);
    char *cur = moore_malloc(cap, 1, err), *prev = moore_malloc(cap, 1, err);
    char *listed = moore_malloc((size_t)n, 1, err);
    int rc = arcs && iw && w && cur && prev && listed ? MOORE_OK : core_alloc_code(err);
    if (!rc)
        rc = route_tables_build(g, r, &T, err);
    if (!rc)
        rc = moore_atomic_open(path, &af, err);
    if (rc)
        goto done;
    for (int32_t t = 0; t < n; t++)
        listed[t] = all_destinations || none || g->endpoints[t] > 0;
    fprintf(af.f, "switch,dst_first,dst_last,layer,ports,weights\n");
    for (int32_t u = 0; u < n; u++)
        switch_rows(af.f, g, r, T, layer, listed, u, K, arcs, w, iw, cur, prev, cap);
    rc = moore_atomic_commit(&af, err);
done:
    route_tables_free(T);
    free(arcs);
    free(iw);
    free(w);
    free(cur);
    free(prev);
    free(listed);
    return rc;
}
