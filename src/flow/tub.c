/* tub.c — TUB, the topology upper bound on throughput (Jyothi et al., SC'16):
 * θ(T) ≤ 2|E| / Σ T(s,t)·dist(s,t).
 *
 * Why it holds: in any routing of θ·T, the s→t flow crosses at least
 * dist(s,t) arcs per unit, so it occupies θ·Σ T·dist arc capacity, and there
 * are 2|E| arcs of capacity 1. For the worst (longest matching) matrix this is
 * the paper's bound over all permutation matrices.
 *
 * It is also where every throughput routine checks its input: a demand
 * between switches that cannot reach each other is refused here. */
#include "moore/flow.h"
#include "moore/paths.h"

#include <stdlib.h>

int moore_flow_tub(const moore_graph *g, const moore_traffic *t, double *out,
                   moore_error *err)
{
    *out = 0;
    if (t->n != g->n)
        return moore_error_set(err, MOORE_EINVAL,
                               "throughput: the traffic matrix is for %d switches, the topology "
                               "has %d", (int)t->n, (int)g->n);
    if (!(t->total > 0))
        return moore_error_set(err, MOORE_EINVAL, "throughput: the traffic matrix is empty");
    double *part = moore_calloc((size_t)(g->n ? g->n : 1), sizeof *part, err);
    if (!part)
        return MOORE_ENOMEM;
    int64_t bad_s = -1, bad_t = -1;
    int failed = 0;
#pragma omp parallel
    {
        int32_t *dist = malloc((size_t)g->n * sizeof *dist);
        int32_t *queue = malloc((size_t)g->n * sizeof *queue);
        if (!dist || !queue) {
#pragma omp atomic write
            failed = 1;
        }
#pragma omp for schedule(dynamic, 4)
        for (int32_t s = 0; s < g->n; s++) {
            if (!dist || !queue || t->offs[s] == t->offs[s + 1])
                continue;
            moore_bfs(g, s, dist, queue);
            double sum = 0;
            for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++) {
                if (dist[t->dst[k]] < 0) {
#pragma omp critical(moore_tub_bad)
                    if (bad_s < 0 || s < bad_s) {
                        bad_s = s;
                        bad_t = t->dst[k];
                    }
                    break;
                }
                sum += t->demand[k] * dist[t->dst[k]];
            }
            part[s] = sum;
        }
        free(dist);
        free(queue);
    }
    double total = 0;
    for (int32_t s = 0; s < g->n; s++)
        total += part[s];
    free(part);
    if (failed)
        return moore_error_set(err, MOORE_ENOMEM, "out of memory computing TUB");
    if (bad_s >= 0)
        return moore_error_set(err, MOORE_EINVAL,
                               "throughput: switch %lld sends to switch %lld but cannot reach it "
                               "(the topology is disconnected, throughput is 0)",
                               (long long)bad_s, (long long)bad_t);
    *out = 2.0 * (double)g->m / total;
    return MOORE_OK;
}
