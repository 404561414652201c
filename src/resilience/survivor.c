/* survivor.c — the surviving graph of a failure draw (the switches not failed,
 * the links not failed between them, endpoints of the survivors kept), and
 * the server-to-server distance of a graph whose endpoints may be uneven
 * (docs/resilience.md). */
#include "core/alloc.h"
#include "moore/paths.h"
#include "moore/resilience.h"
#include "resilience_internal.h"

#include <math.h>
#include <stdlib.h>

int moore_survivor_build(const moore_graph *g, const char *link_failed,
                         const char *switch_failed, moore_graph **out, moore_error *err)
{
    *out = NULL;
    int32_t *map = NULL, *ep = NULL;
    moore_builder *b = NULL;
    moore_graph *s = NULL;
    int rc = MOORE_OK;
    map = moore_malloc((size_t)g->n + 1, sizeof *map, err);
    ep = moore_malloc((size_t)g->n + 1, sizeof *ep, err);
    if (!map || !ep) {
        rc = core_alloc_code(err);
        goto done;
    }
    int32_t n = 0;
    for (int32_t v = 0; v < g->n; v++) {
        map[v] = switch_failed && switch_failed[v] ? -1 : n;
        if (map[v] >= 0)
            ep[n++] = g->endpoints[v];
    }
    rc = moore_builder_new(n, g->m, &b, err);
    int64_t i = 0;
    /* Links in (u, v) order, so the builder needs no sort. */
    for (int32_t a = 0; !rc && a < g->n; a++)
        for (int64_t k = g->offs[a]; !rc && k < g->offs[a + 1]; k++) {
            int32_t c = g->adj[k];
            if (a > c)
                continue;
            if (map[a] >= 0 && map[c] >= 0 && !(link_failed && link_failed[i]))
                rc = moore_builder_add_link(b, map[a], map[c], err);
            i++;
        }
    if (!rc) {
        rc = moore_builder_finish(b, &s, err);
        b = NULL;
    }
    if (!rc)
        rc = moore_graph_set_endpoints(s, ep, err);
    if (!rc) {
        *out = s;
        s = NULL;
    }
done:
    moore_builder_free(b);
    moore_graph_free(s);
    free(map);
    free(ep);
    return rc;
}

static int uniform_endpoints(const moore_graph *g)
{
    for (int32_t v = 1; v < g->n; v++)
        if (g->endpoints[v] != g->endpoints[0])
            return 0;
    return 1;
}

/* Σ_t p_s·p_t·d(s,t) over the switches t reached from s, and the servers
 * reached (-1 when a switch with servers is unreachable). */
static int64_t weighted_from(const moore_graph *g, const int32_t *w, int32_t s, int32_t *dist,
                             int32_t *queue, int64_t *reached)
{
    moore_bfs(g, s, dist, queue);
    int64_t sum = 0, got = 0;
    for (int32_t t = 0; t < g->n; t++) {
        if (t == s || !w[t])
            continue;
        if (dist[t] < 0)
            return *reached = -1;
        sum += (int64_t)w[t] * dist[t];
        got += w[t];
    }
    *reached = got;
    return sum * w[s];
}

int resil_apl_endpoints(const moore_graph *g, double apl, double *out, moore_error *err)
{
    *out = NAN;
    if (uniform_endpoints(g)) {
        *out = g->n >= 2 ? apl : NAN;
        return MOORE_OK;
    }
    int32_t *dist = moore_malloc((size_t)g->n, sizeof *dist, err);
    int32_t *queue = moore_malloc((size_t)g->n, sizeof *queue, err);
    int rc = dist && queue ? MOORE_OK : core_alloc_code(err);
    /* Integer sums: exact, so the order of the sources does not matter. */
    int64_t hops = 0, pairs = 0;
    for (int32_t s = 0; !rc && s < g->n; s++) {
        if (!g->endpoints[s])
            continue;
        int64_t reached;
        int64_t sum = weighted_from(g, g->endpoints, s, dist, queue, &reached);
        if (reached < 0) {
            pairs = -1;
            break;
        }
        hops += sum;
        pairs += (int64_t)g->endpoints[s] * reached;
    }
    if (!rc && pairs > 0)
        *out = (double)hops / (double)pairs;
    free(dist);
    free(queue);
    return rc;
}
