/* paths.c — all-pairs distance metrics.
 *
 * Reference implementation: one BFS per source, OpenMP over sources. The
 * bit-parallel multi-source version replaces the all-pairs loop; single-source
 * BFS, components and girth stay here because other modules use them. */
#include "moore/paths.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int32_t moore_bfs(const moore_graph *g, int32_t src, int32_t *dist, int32_t *queue)
{
    int32_t *q = queue ? queue : malloc((size_t)(g->n ? g->n : 1) * sizeof *q);
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

int moore_components(const moore_graph *g, int32_t *comp, int32_t *count, moore_error *err)
{
    int32_t *c = comp ? comp : moore_malloc((size_t)g->n, sizeof *c, err);
    int32_t *q = moore_malloc((size_t)g->n, sizeof *q, err);
    if (!c || !q) {
        if (!comp)
            free(c);
        free(q);
        return MOORE_ENOMEM;
    }
    for (int32_t v = 0; v < g->n; v++)
        c[v] = -1;
    int32_t k = 0;
    for (int32_t s = 0; s < g->n; s++) {
        if (c[s] >= 0)
            continue;
        int32_t head = 0, tail = 0;
        c[s] = k;
        q[tail++] = s;
        while (head < tail) {
            int32_t u = q[head++];
            for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++)
                if (c[g->adj[e]] < 0) {
                    c[g->adj[e]] = k;
                    q[tail++] = g->adj[e];
                }
        }
        k++;
    }
    *count = k;
    if (!comp)
        free(c);
    free(q);
    return MOORE_OK;
}

/* Shortest cycle through BFS from every vertex: a non-tree edge u–w met at
 * depths du, dw closes a cycle of length ≤ du + dw + 1, and the minimum over
 * all roots is exact. Each BFS stops once no shorter cycle can appear. */
int moore_girth(const moore_graph *g, int32_t *girth, moore_error *err)
{
    int32_t best = INT32_MAX;
    int failed = 0;
#pragma omp parallel
    {
        int32_t *dist = malloc((size_t)(g->n ? g->n : 1) * sizeof *dist);
        int32_t *parent = malloc((size_t)(g->n ? g->n : 1) * sizeof *parent);
        int32_t *q = malloc((size_t)(g->n ? g->n : 1) * sizeof *q);
        int32_t local = INT32_MAX;
        if (!dist || !parent || !q) {
#pragma omp atomic write
            failed = 1;
        } else {
            for (int32_t v = 0; v < g->n; v++)
                dist[v] = -1;
#pragma omp for schedule(dynamic, 64)
            for (int32_t s = 0; s < g->n; s++) {
                int32_t head = 0, tail = 0;
                dist[s] = 0;
                parent[s] = -1;
                q[tail++] = s;
                while (head < tail) {
                    int32_t u = q[head++];
                    if (2 * dist[u] + 1 >= local)
                        break;
                    for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++) {
                        int32_t w = g->adj[e];
                        if (dist[w] < 0) {
                            dist[w] = dist[u] + 1;
                            parent[w] = u;
                            q[tail++] = w;
                        } else if (w != parent[u] && dist[u] + dist[w] + 1 < local) {
                            local = dist[u] + dist[w] + 1;
                        }
                    }
                }
                for (int32_t i = 0; i < tail; i++)
                    dist[q[i]] = -1;
            }
#pragma omp critical
            if (local < best)
                best = local;
        }
        free(dist);
        free(parent);
        free(q);
    }
    if (failed)
        return moore_error_set(err, MOORE_ENOMEM, "out of memory computing girth");
    *girth = best == INT32_MAX ? 0 : best;
    return MOORE_OK;
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

void moore_paths_result_free(moore_paths_result *r)
{
    free(r->histogram);
    memset(r, 0, sizeof *r);
}

int moore_paths_compute(const moore_graph *g, const moore_metric_options *o,
                        moore_paths_result *out, moore_error *err)
{
    (void)o;
    memset(out, 0, sizeof *out);
    int rc = moore_components(g, NULL, &out->components, err);
    if (rc)
        return rc;
    out->connected = out->components <= 1;
    if (!out->connected) {
        out->diameter = -1;
        out->avg_path_length = NAN;
        return MOORE_OK;
    }
    int32_t n = g->n, maxd = n > 1 ? n - 1 : 0;
    int64_t *hist = moore_calloc((size_t)maxd + 1, sizeof *hist, err);
    if (!hist)
        return MOORE_ENOMEM;
    int failed = 0;
#pragma omp parallel
    {
        int32_t *dist = malloc((size_t)(n ? n : 1) * sizeof *dist);
        int32_t *q = malloc((size_t)(n ? n : 1) * sizeof *q);
        int64_t *h = calloc((size_t)maxd + 1, sizeof *h);
        if (!dist || !q || !h) {
#pragma omp atomic write
            failed = 1;
        } else {
#pragma omp for schedule(dynamic, 16)
            for (int32_t s = 0; s < n; s++) {
                moore_bfs(g, s, dist, q);
                for (int32_t v = 0; v < n; v++)
                    h[dist[v]]++;
            }
#pragma omp critical
            for (int32_t d = 0; d <= maxd; d++)
                hist[d] += h[d];
        }
        free(dist);
        free(q);
        free(h);
    }
    if (failed) {
        free(hist);
        return moore_error_set(err, MOORE_ENOMEM, "out of memory computing distances");
    }
    int32_t diam = 0;
    double sum = 0, pairs = 0;
    for (int32_t d = 1; d <= maxd; d++)
        if (hist[d]) {
            diam = d;
            sum += (double)d * (double)hist[d];
            pairs += (double)hist[d];
        }
    out->diameter = diam;
    out->avg_path_length = pairs > 0 ? sum / pairs : 0.0;
    out->histogram = hist;
    out->histogram_len = diam + 1;
    return MOORE_OK;
}
