/* traffic.c — the traffic factory: a matrix by name (uniform, permutation,
 * worst), by an AI-training job SPEC (src/workload/) or from a CSV file. It
 * sits above both flow, which builds the named matrices, and workload, which
 * builds jobs' matrices with flow's helpers, so neither calls up into the
 * other (docs/architecture.md). */
#include "moore/traffic.h"
#include "moore/workload.h"

#include <stdio.h>
#include <string.h>

int moore_traffic_make(const moore_graph *g, const char *what, uint64_t seed,
                       moore_traffic **out, moore_error *err)
{
    if (strcmp(what, "uniform") == 0)
        return moore_traffic_uniform(g, out, err);
    if (strcmp(what, "permutation") == 0)
        return moore_traffic_permutation(g, seed, out, err);
    if (strcmp(what, "worst") == 0)
        return moore_traffic_worst(g, out, err);
    if (moore_workload_is_spec(what))   /* AI-training jobs: src/workload/ */
        return moore_workload_traffic(g, what, seed, out, err);
    FILE *f = fopen(what, "r");
    if (!f) {
        *out = NULL;
        return moore_error_set(err, MOORE_EINVAL,
                               "traffic '%s' is not uniform, permutation, worst or a readable "
                               "CSV file", what);
    }
    fclose(f);
    return moore_traffic_read(g, what, out, err);
}
