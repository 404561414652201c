/* testutil.c — see testutil.h. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int32_t tu_diameter(const moore_graph *g) { return tu_diameter_among(g, NULL); }

int32_t tu_diameter_among(const moore_graph *g, const char *among)
{
    int32_t *dist = malloc((size_t)g->n * sizeof *dist), *q = malloc((size_t)g->n * sizeof *q);
    int32_t diam = 0;
    for (int32_t s = 0; s < g->n && diam >= 0; s++) {
        if (among && !among[s])
            continue;
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
        for (int32_t v = 0; diam >= 0 && v < g->n; v++)
            if ((!among || among[v]) && dist[v] > diam)
                diam = dist[v];
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

/* ---- shared by the family tests ---- */

moore_counts tu_counts(const char *spec)
{
    moore_counts c;
    moore_error err;
    moore_error_clear(&err);
    if (moore_spec_counts(spec, &c, &err) != MOORE_OK) {
        print_error("counts of '%s' failed: %s\n", spec, err.msg);
        fail();
    }
    return c;
}

void tu_check_closed_forms(const char *spec)
{
    moore_counts c = tu_counts(spec);
    moore_graph *g = tu_build(spec);
    if (g->n != c.switches || g->m != c.links || moore_graph_degree_min(g) != c.degree_min ||
        moore_graph_degree_max(g) != c.degree_max ||
        moore_graph_endpoints_total(g) != c.endpoints) {
        print_error("%s: built n=%d m=%lld deg %d..%d ep=%lld; closed forms n=%lld m=%lld "
                    "deg %d..%d ep=%lld\n", spec, (int)g->n, (long long)g->m,
                    (int)moore_graph_degree_min(g), (int)moore_graph_degree_max(g),
                    (long long)moore_graph_endpoints_total(g), (long long)c.switches,
                    (long long)c.links, (int)c.degree_min, (int)c.degree_max,
                    (long long)c.endpoints);
        fail();
    }
    if (c.diameter >= 0 && tu_diameter(g) != c.diameter) {
        print_error("%s: BFS diameter %d, closed form %d\n", spec, (int)tu_diameter(g),
                    (int)c.diameter);
        fail();
    }
    moore_graph_free(g);
}

void tu_expect_refused(const char *spec, const char *needle)
{
    const char *msg = tu_build_fails(spec, MOORE_EINVAL);
    if (!strstr(msg, needle)) {
        print_error("'%s': message '%s' lacks '%s'\n", spec, msg, needle);
        fail();
    }
    moore_counts c;
    moore_error err;
    moore_error_clear(&err);
    assert_int_equal(moore_spec_counts(spec, &c, &err), MOORE_EINVAL);
}

moore_graph *tu_graph_from_rule(int32_t n, int (*adjacent)(const void *ctx, int32_t u, int32_t v),
                                const void *ctx)
{
    moore_builder *b = NULL;
    moore_graph *g = NULL;
    moore_error err;
    moore_error_clear(&err);
    assert_int_equal(moore_builder_new(n, 0, &b, &err), MOORE_OK);
    for (int32_t u = 0; u < n; u++)
        for (int32_t v = u + 1; v < n; v++)
            if (adjacent(ctx, u, v))
                assert_int_equal(moore_builder_add_link(b, u, v, &err), MOORE_OK);
    if (moore_builder_finish(b, &g, &err) != MOORE_OK) {
        print_error("rule graph: %s\n", err.msg);
        fail();
    }
    return g;
}

void tu_assert_isomorphic(const moore_graph *a, const moore_graph *b, const char *what)
{
    moore_symmetry_options o;
    moore_error err;
    int iso = 0;
    moore_error_clear(&err);
    moore_symmetry_options_default(&o);
    o.canonical = 1;
    if (moore_isomorphic(a, b, &o, &iso, NULL, &err) != MOORE_OK) {
        print_error("%s: isomorphism test failed: %s\n", what, err.msg);
        fail();
    }
    if (!iso) {
        print_error("%s: the library's graph and the test's construction are not isomorphic\n",
                    what);
        fail();
    }
}

typedef struct tu_plan_check {
    const char *family;
    int32_t radix;
    int count;
} tu_plan_check;

static int tu_plan_check_one(void *ctx, const char *spec, moore_error *err)
{
    tu_plan_check *pc = ctx;
    moore_counts c;
    size_t len = strlen(pc->family);
    if (strncmp(spec, pc->family, len) != 0 || spec[len] != ':') {
        print_error("planner of %s emitted '%s'\n", pc->family, spec);
        fail();
    }
    if (moore_spec_counts(spec, &c, err) != MOORE_OK) {
        print_error("planned '%s' has no counts: %s\n", spec, err->msg);
        fail();
    }
    int32_t ports = c.ports_max > 0 ? c.ports_max
                    : c.degree_max * (c.multiplicity > 1 ? c.multiplicity : 1);
    if (ports > pc->radix) {
        print_error("planned '%s' uses %d network ports of radix %d\n", spec, (int)ports,
                    (int)pc->radix);
        fail();
    }
    pc->count++;
    return MOORE_OK;
}

int tu_check_plan(const char *family, int32_t radix, int64_t endpoints)
{
    const moore_family *f = moore_family_find(family);
    assert_non_null(f);
    assert_non_null(f->plan);
    tu_plan_check pc = { family, radix, 0 };
    moore_error err;
    moore_error_clear(&err);
    assert_int_equal(f->plan(radix, endpoints, tu_plan_check_one, &pc, &err), MOORE_OK);
    return pc.count;
}
