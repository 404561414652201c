/* testutil.c — see testutil.h. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>

moore_graph *tu_build(const char *spec)
{
    moore_error err;
    moore_graph *g = NULL;
    moore_error_clear(&err);
    if (moore_spec_build(spec, &g, &err) != MOORE_OK) {
        print_error("building '%s' failed: %s\n", spec, err.msg);
        fail();
    }
    return g;
}

const char *tu_build_fails(const char *spec, int code)
{
    static char msg[MOORE_ERRMSG_LEN];
    moore_error err;
    moore_graph *g = NULL;
    moore_error_clear(&err);
    int rc = moore_spec_build(spec, &g, &err);
    if (rc != code) {
        print_error("'%s': expected code %d, got %d (%s)\n", spec, code, rc, err.msg);
        moore_graph_free(g);
        fail();
    }
    assert_null(g);
    assert_true(err.msg[0] != '\0');
    snprintf(msg, sizeof msg, "%s", err.msg);
    return msg;
}

int32_t tu_diameter(const moore_graph *g)
{
    int32_t *dist = malloc((size_t)g->n * sizeof *dist), *q = malloc((size_t)g->n * sizeof *q);
    int32_t diam = 0;
    for (int32_t s = 0; s < g->n && diam >= 0; s++) {
        for (int32_t v = 0; v < g->n; v++)
            dist[v] = -1;
        int32_t head = 0, tail = 0;
        dist[s] = 0;
        q[tail++] = s;
        while (head < tail) {
            int32_t u = q[head++];
            for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
                if (dist[g->adj[k]] < 0) {
                    dist[g->adj[k]] = dist[u] + 1;
                    q[tail++] = g->adj[k];
                }
        }
        if (tail < g->n)
            diam = -1;
        else if (dist[q[tail - 1]] > diam)
            diam = dist[q[tail - 1]];
    }
    free(dist);
    free(q);
    return diam;
}

int tu_plan_collect(void *ctx, const char *spec, moore_error *err)
{
    (void)err;
    tu_plans *p = ctx;
    if (p->count < 16)
        snprintf(p->spec[p->count++], sizeof p->spec[0], "%s", spec);
    return MOORE_OK;
}
