/* stats.c — what `moore route` reports about a path set: paths per pair,
 * hops, and forwarding-table sizes. A switch's table has one entry per
 * (destination, next hop): Σ_t |next hops of u toward t|. For ECMP the path
 * counts are the shortest-path counts σ(s,t), computed per destination in
 * distance order; for explicit path sets they are read off the offsets. */
#include "core/alloc.h"
#include "routing_internal.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Per-destination partial sums, added up in destination order afterwards so
 * the result does not depend on the thread count. */
typedef struct dest_sums {
    double paths, hops, ppmin, ppmax;
    int32_t hmax;
} dest_sums;

static void ecmp_dest(const moore_graph *g, const moore_routing *r, int32_t t, int32_t maxd,
                      int32_t *order, int32_t *count, double *sigma, int64_t *entries,
                      dest_sums *d)
{
    route_order_by_distance(r, t, order, count, maxd);
    route_ecmp_counts(g, r, t, order, sigma, entries);
    d->paths = d->hops = 0;
    d->ppmin = 1e300;
    d->ppmax = 0;
    d->hmax = 0;
    const uint16_t *row = r->dist + (int64_t)t * r->n;
    for (int32_t s = 0; s < r->n; s++) {
        if (s == t)
            continue;
        double c = r->algo == MOORE_ROUTE_MINIMAL ? 1 : sigma[s];
        int32_t h = row[s];
        d->paths += c;
        d->hops += c * h;
        d->ppmin = c < d->ppmin ? c : d->ppmin;
        d->ppmax = c > d->ppmax ? c : d->ppmax;
        d->hmax = h > d->hmax ? h : d->hmax;
    }
}

/* Paths and hops of the pairs toward t for explicit paths, and the size of
 * every switch's table entry toward t (table.c's loop-free table; acc is 2m
 * zeros on entry and on return). */
static void explicit_dest(const moore_graph *g, const moore_routing *r, int32_t t, double *acc,
                          int64_t *entries, dest_sums *d)
{
    int32_t n = r->n;
    d->paths = d->hops = 0;
    d->ppmin = 1e300;
    d->ppmax = 0;
    d->hmax = 0;
    for (int32_t s = 0; s < n; s++) {
        if (s == t)
            continue;
        int64_t p0 = r->pair_offs[(int64_t)s * n + t], p1 = r->pair_offs[(int64_t)s * n + t + 1];
        double c = (double)(p1 - p0);
        d->paths += c;
        d->ppmin = c < d->ppmin ? c : d->ppmin;
        d->ppmax = c > d->ppmax ? c : d->ppmax;
        for (int64_t p = p0; p < p1; p++) {
            int32_t h = (int32_t)(r->path_offs[p + 1] - r->path_offs[p] - 1);
            d->hops += h;
            d->hmax = h > d->hmax ? h : d->hmax;
        }
    }
    route_table_dest(g, r, t, acc);
    for (int32_t u = 0; u < n; u++) {
        int64_t c = 0;
        for (int64_t a = g->offs[u]; a < g->offs[u + 1]; a++) {
            c += acc[a] > 0;
            acc[a] = 0;
        }
        if (c) {
#pragma omp atomic
            entries[u] += c;
        }
    }
}

/* Every destination's sums (ds[t]) and the table entries per switch, on
 * every thread. */
static int dest_all(const moore_graph *g, const moore_routing *r, dest_sums *ds,
                    int64_t *entries, moore_error *err)
{
    int32_t n = r->n, maxd = route_max_distance(r);
    int fixed = r->pair_offs == NULL;
    int fail = MOORE_OK; /* shared, core/alloc.h */
#pragma omp parallel
    {
        int32_t *order = core_par_malloc((size_t)n, sizeof *order, &fail);
        int32_t *count = core_par_malloc((size_t)maxd + 2, sizeof *count, &fail);
        double *sigma = core_par_malloc((size_t)n, sizeof *sigma, &fail);
        double *used = fixed ? NULL : core_par_calloc((size_t)(2 * g->m + 1), sizeof *used,
                                                        &fail);
        int64_t *ent = fixed ? core_par_calloc((size_t)n, sizeof *ent, &fail) : NULL;
        int ok = order && count && sigma && (fixed ? ent != NULL : used != NULL);
#pragma omp for schedule(dynamic, 8)
        for (int32_t t = 0; t < n; t++) {
            if (!ok)
                continue;
            if (fixed)
                ecmp_dest(g, r, t, maxd, order, count, sigma, ent, &ds[t]);
            else
                explicit_dest(g, r, t, used, entries, &ds[t]);
        }
        /* integer sums: the same in any order */
        for (int32_t u = 0; ent && ok && u < n; u++) {
#pragma omp atomic
            entries[u] += ent[u];
        }
        free(ent);
        free(order);
        free(count);
        free(sigma);
        free(used);
    }
    return core_par_failed(err, fail, "routing: statistics scratch");
}

/* The totals of the destinations' sums into *out. */
static void stats_total(const moore_routing *r, const dest_sums *ds, int64_t *entries,
                        moore_routing_stats *out)
{
    int32_t n = r->n;
    for (int32_t u = 0; r->algo == MOORE_ROUTE_MINIMAL && u < n; u++)
        entries[u] = n - 1; /* one next hop per destination */
    out->pairs = (int64_t)n * (n - 1);
    out->paths_per_pair_min = 1e300;
    double hops = 0;
    for (int32_t t = 0; t < n; t++) {
        out->paths_total += ds[t].paths;
        hops += ds[t].hops;
        out->paths_per_pair_min = ds[t].ppmin < out->paths_per_pair_min ? ds[t].ppmin
                                                                       : out->paths_per_pair_min;
        out->paths_per_pair_max = ds[t].ppmax > out->paths_per_pair_max ? ds[t].ppmax
                                                                       : out->paths_per_pair_max;
        out->hops_max = ds[t].hmax > out->hops_max ? ds[t].hmax : out->hops_max;
        out->table_entries_total += entries[t];
        out->table_entries_max = entries[t] > out->table_entries_max ? entries[t]
                                                                     : out->table_entries_max;
    }
    out->paths_per_pair_mean = out->paths_total / (double)out->pairs;
    out->hops_mean = hops / out->paths_total;
}

int moore_routing_stats_compute(const moore_graph *g, const moore_routing *r,
                                moore_routing_stats *out, moore_error *err)
{
    memset(out, 0, sizeof *out);
    int32_t n = r->n;
    dest_sums *ds = moore_malloc((size_t)n, sizeof *ds, err);
    int64_t *entries = moore_calloc((size_t)n, sizeof *entries, err);
    int rc = ds && entries ? MOORE_OK : core_alloc_code(err);
    if (!rc)
        rc = dest_all(g, r, ds, entries, err);
    if (!rc)
        stats_total(r, ds, entries, out);
    free(ds);
    free(entries);
    return rc;
}
