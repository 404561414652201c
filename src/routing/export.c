/* export.c — routing files for simulators and scripts (docs/routing.md):
 *   paths   CSV "src,dst,rank,layer,path", path = switch ids joined by '-';
 *           ECMP lists every shortest path (depth-first over the next-hop
 *           sets, ascending), the other algorithms their stored paths in
 *           order; layer is the virtual layer of the greedy layering.
 *   tables  CSV "switch,dst,next_hops,weights", one row per switch and
 *           destination, next hops space-separated with their split
 *           fractions in the same order; for explicit path sets the
 *           destination-based projection of routing.h.
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
        rc = moore_alloc_code(err);
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

/* The used arcs toward t with their pair-weighted path shares, by arc
 * (collect_dest runs inside a parallel region: a failure's code goes to
 * *fail, core/alloc.h). */
typedef struct dest_arcs {
    int32_t *arc;
    double *w;
    int64_t count;
} dest_arcs;

static int collect_dest(const moore_graph *g, const moore_routing *r, int32_t t, double *acc,
                        dest_arcs *out, int *fail)
{
    int32_t n = r->n;
    int64_t used = 0;
    for (int32_t s = 0; s < n; s++) {
        if (s == t)
            continue;
        int64_t p0 = r->pair_offs[(int64_t)s * n + t], p1 = r->pair_offs[(int64_t)s * n + t + 1];
        for (int64_t p = p0; p < p1; p++)
            for (int64_t h = r->path_offs[p]; h + 1 < r->path_offs[p + 1]; h++) {
                int64_t a = moore_csr_find(g, r->hops[h], r->hops[h + 1]);
                used += acc[a] == 0;
                acc[a] += 1.0 / (double)(p1 - p0);
            }
    }
    out->arc = moore_par_malloc((size_t)(used ? used : 1), sizeof *out->arc, fail);
    out->w = moore_par_malloc((size_t)(used ? used : 1), sizeof *out->w, fail);
    out->count = 0;
    if (!out->arc || !out->w)
        return -1;
    for (int64_t a = 0; a < 2 * g->m; a++)
        if (acc[a] > 0) {
            out->arc[out->count] = (int32_t)a;
            out->w[out->count++] = acc[a];
            acc[a] = 0;
        }
    return 0;
}

static void print_row(FILE *f, int32_t u, int32_t t, const int32_t *nh, const double *w,
                      int32_t c)
{
    fprintf(f, "%d,%d,", (int)u, (int)t);
    for (int32_t j = 0; j < c; j++)
        fprintf(f, j ? " %d" : "%d", (int)nh[j]);
    fputc(',', f);
    for (int32_t j = 0; j < c; j++)
        fprintf(f, j ? " %.6g" : "%.6g", w[j]);
    fputc('\n', f);
}

static int write_explicit_tables(FILE *f, const moore_graph *g, const moore_routing *r,
                                 moore_error *err)
{
    int32_t n = r->n;
    dest_arcs *d = moore_calloc((size_t)n, sizeof *d, err);
    int64_t *cur = moore_calloc((size_t)n, sizeof *cur, err);
    int32_t *nh = moore_malloc((size_t)moore_graph_degree_max(g) + 1, sizeof *nh, err);
    double *w = moore_malloc((size_t)moore_graph_degree_max(g) + 1, sizeof *w, err);
    int rc = d && cur && nh && w ? MOORE_OK : moore_alloc_code(err);
    int fail = MOORE_OK; /* shared, core/alloc.h */
#pragma omp parallel if (!rc)
    {
        double *acc = rc ? NULL : moore_par_calloc((size_t)(2 * g->m + 1), sizeof *acc, &fail);
#pragma omp for schedule(dynamic, 4)
        for (int32_t t = 0; t < n; t++)
            if (acc)
                collect_dest(g, r, t, acc, &d[t], &fail);
        free(acc);
    }
    if (!rc)
        rc = moore_par_failed(err, fail, "routing: the tables");
    for (int32_t u = 0; u < n && !rc; u++)
        for (int32_t t = 0; t < n; t++) {
            double sum = 0;
            int32_t c = 0;
            while (cur[t] < d[t].count && d[t].arc[cur[t]] < g->offs[u + 1]) {
                nh[c] = g->adj[d[t].arc[cur[t]]];
                w[c] = d[t].w[cur[t]++];
                sum += w[c++];
            }
            for (int32_t j = 0; j < c; j++)
                w[j] /= sum;
            if (c && u != t) /* a Valiant path may pass t before it ends */
                print_row(f, u, t, nh, w, c);
        }
    for (int32_t t = 0; d && t < n; t++) {
        free(d[t].arc);
        free(d[t].w);
    }
    free(d);
    free(cur);
    free(nh);
    free(w);
    return rc;
}

int moore_routing_write_tables(const moore_graph *g, const moore_routing *r, const char *path,
                               moore_error *err)
{
    moore_atomic_file af;
    int rc = moore_atomic_open(path, &af, err);
    if (rc)
        return rc;
    fprintf(af.f, "switch,dst,next_hops,weights\n");
    if (r->pair_offs) {
        rc = write_explicit_tables(af.f, g, r, err);
    } else {
        int32_t deg = moore_graph_degree_max(g);
        int32_t *nh = moore_malloc((size_t)deg + 1, sizeof *nh, err);
        double *w = moore_malloc((size_t)deg + 1, sizeof *w, err);
        rc = nh && w ? MOORE_OK : moore_alloc_code(err);
        for (int32_t u = 0; u < r->n && !rc; u++)
            for (int32_t t = 0; t < r->n; t++)
                if (t != u)
                    print_row(af.f, u, t, nh, w, moore_routing_next_hops(g, r, u, t, nh, w));
        free(nh);
        free(w);
    }
    if (rc) {
        moore_atomic_abort(&af);
        return rc;
    }
    return moore_atomic_commit(&af, err);
}
