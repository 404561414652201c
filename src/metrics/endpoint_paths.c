/* endpoint_paths.c — server-to-server distances (docs/compare.md): switch hops
 * between the switches of two servers, over ordered pairs of servers on
 * different switches, i.e. every switch pair s ≠ t weighted by p_s·p_t.
 * Keys `avg_path_length_endpoints` and `diameter_endpoints` of the paths group.
 *
 * Fast without an all-pairs pass of its own:
 *  - when every switch has the same endpoint count (Slim Fly, Jellyfish,
 *    Xpander, Dragonfly, HyperX, torus, PolarFly) the weights cancel and the
 *    values are the switch graph's avg_path_length and diameter, already known;
 *  - otherwise switches with the same neighbour set (twins: the leaves of a
 *    Clos pod, the edge switches of a fat-tree pod) have the same distance to
 *    every other switch and distance 2 to each other, so one BFS per twin class
 *    that holds servers suffices: k BFS for a k-pod fat-tree. Classes are
 *    found by hashing the (sorted) CSR rows; graphs without twins fall back to
 *    one BFS per switch with servers.
 * A graph without endpoints counts every switch as one server (as traffic.h
 * does); a disconnected graph gets null for both keys. */
#include "core/alloc.h"
#include "moore/metrics.h"
#include "moore/paths.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

int metric_endpoint_paths(const moore_graph *g, const moore_metric_options *o,
                                const moore_paths_result *p, moore_report *r,
                                moore_error *err);

static int32_t weight_of(const moore_graph *g, int32_t v, int none)
{
    return none ? 1 : g->endpoints[v];
}

static uint64_t row_hash(const moore_graph *g, int32_t v)
{
    uint64_t h = 1469598103934665603ull;
    for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
        h = (h ^ (uint64_t)g->adj[k]) * 1099511628211ull;
    return h ^ (uint64_t)(g->offs[v + 1] - g->offs[v]) * 0x9e3779b97f4a7c15ull;
}

static int same_row(const moore_graph *g, int32_t u, int32_t v)
{
    int64_t du = g->offs[u + 1] - g->offs[u], dv = g->offs[v + 1] - g->offs[v];
    return du == dv && memcmp(g->adj + g->offs[u], g->adj + g->offs[v],
                              (size_t)du * sizeof *g->adj) == 0;
}

typedef struct ep_key {
    uint64_t hash;
    int32_t v;
} ep_key;

static int key_cmp(const void *a, const void *b)
{
    const ep_key *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return (x->v > y->v) - (x->v < y->v);
}

/* cls[v] = the representative (smallest id) of v's twin class, for the
 * switches with servers; -1 for the others. Returns the class count. */
static int32_t twin_classes(const moore_graph *g, int none, int32_t *cls, ep_key *keys)
{
    int32_t m = 0, classes = 0;
    for (int32_t v = 0; v < g->n; v++) {
        cls[v] = -1;
        if (weight_of(g, v, none) > 0)
            keys[m++] = (ep_key){ row_hash(g, v), v };
    }
    qsort(keys, (size_t)m, sizeof *keys, key_cmp);
    for (int32_t i = 0; i < m; i++) {
        int32_t v = keys[i].v;
        for (int32_t j = i - 1; j >= 0 && keys[j].hash == keys[i].hash; j--)
            if (same_row(g, cls[keys[j].v], v)) {
                cls[v] = cls[keys[j].v];
                break;
            }
        if (cls[v] < 0) {
            cls[v] = v;
            classes++;
        }
    }
    return classes;
}

/* Σ p_s p_t d(s,t) over ordered pairs on different switches, and the largest
 * such d, by one BFS per twin class. */
static int weighted_sums(const moore_graph *g, const moore_metric_options *o, int none,
                         int64_t *sum, int32_t *diam, moore_error *err)
{
    int32_t n = g->n, *cls = moore_malloc((size_t)n, sizeof *cls, err), *reps = NULL;
    int64_t *wsum = NULL, *wsq = NULL;
    ep_key *keys = moore_malloc((size_t)n, sizeof *keys, err);
    int rc = cls && keys ? MOORE_OK : core_alloc_code(err);
    int32_t classes = rc ? 0 : twin_classes(g, none, cls, keys);
    free(keys);
    if (!rc) {
        reps = moore_malloc((size_t)(classes ? classes : 1), sizeof *reps, err);
        wsum = moore_calloc((size_t)n, sizeof *wsum, err);
        wsq = moore_calloc((size_t)n, sizeof *wsq, err);
        rc = reps && wsum && wsq ? MOORE_OK : core_alloc_code(err);
    }
    int32_t c = 0;
    for (int32_t v = 0; !rc && v < n; v++)
        if (cls[v] >= 0) {
            int64_t w = weight_of(g, v, none);
            if (cls[v] == v)
                reps[c++] = v;
            wsum[cls[v]] += w;
            wsq[cls[v]] += w * w;
        }
    int64_t total = 0; /* exact: at most servers² · diameter */
    int32_t best = 0;
    int failed = MOORE_OK; /* shared: the code of a failed scratch allocation */
    int threads = o && o->threads > 0 ? o->threads : omp_get_max_threads();
#pragma omp parallel num_threads(threads) if (!rc) \
    reduction(+ : total) reduction(max : best)
    {
        int32_t *dist = core_par_malloc((size_t)n, sizeof *dist, &failed);
        int32_t *q = core_par_malloc((size_t)n, sizeof *q, &failed);
#pragma omp for schedule(dynamic, 4)
        for (int32_t i = 0; i < c; i++) {
            if (!dist || !q)
                continue;
            int32_t s = reps[i];
            moore_bfs(g, s, dist, q);
            int64_t acc = 0;
            for (int32_t t = 0; t < n; t++)
                if (cls[t] != s && weight_of(g, t, none) > 0) {
                    acc += (int64_t)weight_of(g, t, none) * dist[t];
                    if (dist[t] > best)
                        best = dist[t];
                }
            /* twins are 2 apart (common neighbours, never adjacent) */
            int64_t inside = wsum[s] * wsum[s] - wsq[s];
            if (inside > 0 && best < 2)
                best = 2;
            total += wsum[s] * acc + 2 * inside;
        }
        free(dist);
        free(q);
    }
    if (!rc)
        rc = core_par_failed(err, failed, "endpoint distances");
    *sum = total;
    *diam = best;
    free(cls);
    free(reps);
    free(wsum);
    free(wsq);
    return rc;
}

int metric_endpoint_paths(const moore_graph *g, const moore_metric_options *o,
                                const moore_paths_result *p, moore_report *r,
                                moore_error *err)
{
    int none = moore_graph_endpoints_total(g) == 0, uniform = 1;
    double S = 0, sq = 0;
    for (int32_t v = 0; v < g->n; v++) {
        double w = weight_of(g, v, none);
        S += w;
        sq += w * w;
        uniform &= weight_of(g, v, none) == weight_of(g, 0, none);
    }
    double pairs = S * S - sq; /* ordered server pairs on different switches */
    int rc;
    if (!p->connected || pairs <= 0) {
        rc = moore_report_null(r, "avg_path_length_endpoints", err);
        return rc ? rc : moore_report_null(r, "diameter_endpoints", err);
    }
    if (uniform) {
        rc = moore_report_double(r, "avg_path_length_endpoints", p->avg_path_length, err);
        return rc ? rc : moore_report_int(r, "diameter_endpoints", p->diameter, err);
    }
    int64_t sum;
    int32_t diam;
    rc = weighted_sums(g, o, none, &sum, &diam, err);
    if (!rc)
        rc = moore_report_double(r, "avg_path_length_endpoints", (double)sum / pairs, err);
    return rc ? rc : moore_report_int(r, "diameter_endpoints", diam, err);
}
