/* tub.c — TUB, the topology upper bound on throughput (Jyothi et al., SC'16):
 * θ(T) ≤ 2|E| / Σ T(s,t)·dist(s,t).
 *
 * Why it holds: in any routing of θ·T, the s→t flow crosses at least
 * dist(s,t) arcs per unit, so it occupies θ·Σ T·dist arc capacity, and there
 * are 2|E| arcs of capacity 1. For the worst (longest matching) matrix this is
 * the paper's bound over all permutation matrices.
 *
 * It is also where every throughput routine checks its input: a demand
 * between switches that cannot reach each other is refused here. The
 * parallel all-sources BFS it runs is shared with the worst-case matrix. */
#include "moore/flow.h"
#include "core/alloc.h"
#include "moore/paths.h"
#include "flow_internal.h"

#include <math.h>
#include <stdlib.h>

typedef struct tub_ctx {
    const moore_traffic *t;
    const int32_t *src;
    double *part;           /* Σ_t T(s,t)·dist(s,t) per source */
    int64_t bad_s, bad_t;   /* the first unreachable demand (lowest source) */
} tub_ctx;

/* Demand k of row s (stored, or for a compact matrix the next switch with
 * servers other than s from *next on, traffic.h); its destination in *v. */
static double tub_demand(const moore_traffic *t, int32_t s, int64_t k, int32_t *next,
                         int32_t *v)
{
    if (!t->weight) {
        *v = t->dst[k];
        return t->demand[k];
    }
    int32_t u = *next;
    while (u == s || !(t->weight[u] > 0))
        u++;
    *next = u + 1;
    *v = u;
    return t->weight[s] * t->weight[u] / t->weight_div;
}

static void tub_row(void *ctx, int32_t i, const int32_t *dist)
{
    tub_ctx *c = ctx;
    const moore_traffic *t = c->t;
    int32_t s = c->src[i], next = 0, v;
    double sum = 0;
    for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++) {
        double d = tub_demand(t, s, k, &next, &v);
        if (dist[v] < 0) {
#pragma omp critical
            if (c->bad_s < 0 || s < c->bad_s) {
                c->bad_s = s;
                c->bad_t = v;
            }
            return;
        }
        sum += d * dist[v];
    }
    c->part[i] = sum;
}

int flow_bfs_rows(const moore_graph *g, const int32_t *src, int32_t k,
                        void (*row)(void *ctx, int32_t i, const int32_t *dist), void *ctx,
                        moore_error *err)
{
    int failed = 0;
#pragma omp parallel
    {
        int32_t *dist = core_par_malloc((size_t)(g->n ? g->n : 1), sizeof *dist, &failed);
        int32_t *queue = core_par_malloc((size_t)(g->n ? g->n : 1), sizeof *queue, &failed);
#pragma omp for schedule(dynamic, 4)
        for (int32_t i = 0; i < k; i++) {
            if (!dist || !queue)
                continue;
            moore_bfs(g, src[i], dist, queue);
            row(ctx, i, dist);
        }
        free(dist);
        free(queue);
    }
    return core_par_failed(err, failed, "BFS scratch space");
}

int flow_tub_check(const moore_graph *g, const moore_traffic *t, moore_error *err)
{
    if (t->n != g->n)
        return moore_error_set(err, MOORE_EINVAL,
                               "throughput: the traffic matrix is for %d switches, the topology "
                               "has %d", (int)t->n, (int)g->n);
    if (!(t->total > 0))
        return moore_error_set(err, MOORE_EINVAL, "throughput: the traffic matrix is empty");
    return MOORE_OK;
}

int moore_flow_tub(const moore_graph *g, const moore_traffic *t, double *out,
                   moore_error *err)
{
    int32_t *src = NULL;
    double *part = NULL;
    *out = 0;
    int rc = flow_tub_check(g, t, err);
    if (!rc) {
        src = moore_malloc((size_t)(g->n ? g->n : 1), sizeof *src, err);
        part = moore_calloc((size_t)(g->n ? g->n : 1), sizeof *part, err);
        if (!src || !part)
            rc = core_alloc_code(err);
    }
    int32_t k = 0;
    for (int32_t s = 0; !rc && s < g->n; s++)
        if (t->offs[s + 1] > t->offs[s])
            src[k++] = s;
    tub_ctx c = { t, src, part, -1, -1 };
    if (!rc)
        rc = flow_bfs_rows(g, src, k, tub_row, &c, err);
    double total = 0;
    for (int32_t i = 0; !rc && i < k; i++)
        total += part[i];
    if (!rc && c.bad_s >= 0)
        rc = moore_error_set(err, MOORE_EINVAL,
                             "throughput: switch %lld sends to switch %lld but cannot reach it "
                             "(the topology is disconnected, throughput is 0)",
                             (long long)c.bad_s, (long long)c.bad_t);
    double v = rc ? 0 : 2.0 * (double)g->m / total;
    if (!rc && (!isfinite(v) || !(v > 0)))
        rc = moore_error_set(err, MOORE_EINVAL,
                             "throughput: demands totalling %g make 2|E| / sum T*dist = %g, "
                             "not a finite positive number; scale the matrix", total, v);
    if (!rc)
        *out = v;
    free(src);
    free(part);
    return rc;
}
