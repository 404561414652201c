/* components.c — connected components by BFS. A graph primitive, in core so
 * that every layer can ask it: the readers (a file's graph must be
 * connected), the spectrum solvers and the metrics. */
#include "moore/graph.h"
#include "core/alloc.h"

#include <stdlib.h>

int moore_components(const moore_graph *g, int32_t *comp, int32_t *count, moore_error *err)
{
    int32_t *own = NULL, *q = NULL;
    int32_t *c = comp ? comp : (own = moore_malloc((size_t)g->n, sizeof *own, err));
    int rc = MOORE_ENOMEM;
    q = moore_malloc((size_t)g->n, sizeof *q, err);
    if (!c || !q) {
        rc = core_alloc_code(err);
        goto done;
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
    rc = MOORE_OK;
done:
    free(own);
    free(q);
    return rc;
}
