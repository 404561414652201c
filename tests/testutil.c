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

int32_t tu_bfs(const moore_graph *g, int32_t s, int32_t *dist, int32_t *q)
{
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
    return tail;
}

int32_t tu_diameter(const moore_graph *g) { return tu_diameter_among(g, NULL); }

int32_t tu_diameter_among(const moore_graph *g, const char *among)
{
    int32_t *dist = malloc((size_t)g->n * sizeof *dist), *q = malloc((size_t)g->n * sizeof *q);
    int32_t diam = 0;
    for (int32_t s = 0; s < g->n && diam >= 0; s++) {
        if (among && !among[s])
            continue;
        int32_t tail = tu_bfs(g, s, dist, q);
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
    int32_t diam = c.diameter >= 0 ? tu_diameter(g) : -1;
    if (g->n != c.switches || g->m != c.links || moore_graph_degree_min(g) != c.degree_min ||
        moore_graph_degree_max(g) != c.degree_max ||
        moore_graph_endpoints_total(g) != c.endpoints || diam != c.diameter) {
        print_error("%s: built n=%d m=%lld deg %d..%d ep=%lld diam %d; closed forms n=%lld "
                    "m=%lld deg %d..%d ep=%lld diam %d\n", spec, (int)g->n, (long long)g->m,
                    (int)moore_graph_degree_min(g), (int)moore_graph_degree_max(g),
                    (long long)moore_graph_endpoints_total(g), (int)diam,
                    (long long)c.switches, (long long)c.links, (int)c.degree_min,
                    (int)c.degree_max, (long long)c.endpoints, (int)c.diameter);
        moore_graph_free(g);
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

void tu_assert_isomorphic(const moore_graph *a, const moore_graph *b)
{
    moore_symmetry_options o;
    moore_error err;
    int iso = -1;
    moore_symmetry_options_default(&o);
    moore_error_clear(&err);
    if (moore_isomorphic(a, b, &o, &iso, NULL, &err) != MOORE_OK) {
        print_error("isomorphism test failed: %s\n", err.msg);
        fail();
    }
    assert_int_equal(iso, 1);
}

/* Keeps the first 16 SPECs and notes whether any SPEC reaches the target. */
typedef struct tu_plan_check {
    tu_plans plans;
    int64_t endpoints;
    int reached;
} tu_plan_check;

static int tu_plan_check_emit(void *ctx, const char *spec, moore_error *err)
{
    tu_plan_check *pc = ctx;
    pc->reached |= tu_counts(spec).endpoints >= pc->endpoints;
    return tu_plan_collect(&pc->plans, spec, err);
}

void tu_check_planner(const char *family, int32_t radix, int64_t endpoints, int64_t max_build)
{
    const moore_family *fam = moore_family_find(family);
    assert_non_null(fam);
    assert_non_null(fam->plan);
    tu_plan_check pc = { .endpoints = endpoints };
    moore_error err;
    moore_error_clear(&err);
    assert_int_equal(fam->plan(radix, endpoints, tu_plan_check_emit, &pc, &err), MOORE_OK);
    assert_true(pc.plans.count > 0);
    for (int i = 0; i < pc.plans.count; i++) {
        const char *spec = pc.plans.spec[i];
        if (tu_counts(spec).switches > max_build)
            continue;
        moore_graph *g = tu_build(spec);
        for (int32_t v = 0; v < g->n; v++)
            if (moore_graph_degree(g, v) + g->endpoints[v] > radix) {
                print_error("%s: switch %d uses %d ports > radix %d\n", spec, (int)v,
                            (int)(moore_graph_degree(g, v) + g->endpoints[v]), (int)radix);
                fail();
            }
        moore_graph_free(g);
    }
    if (endpoints > 0 && !pc.reached) {
        print_error("%s: no plan of radix %d reaches %lld endpoints\n", family, (int)radix,
                    (long long)endpoints);
        fail();
    }
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

static int tu_plan_count_emit(void *ctx, const char *spec, moore_error *err)
{
    (void)spec;
    (void)err;
    (*(int *)ctx)++;
    return MOORE_OK;
}

int tu_plan_count(const char *family, int32_t radix, int64_t endpoints)
{
    const moore_family *fam = moore_family_find(family);
    assert_non_null(fam);
    assert_non_null(fam->plan);
    int count = 0;
    moore_error err;
    moore_error_clear(&err);
    assert_int_equal(fam->plan(radix, endpoints, tu_plan_count_emit, &count, &err), MOORE_OK);
    return count;
}

int32_t *tu_hose_servers(const moore_graph *g)
{
    int32_t *p = malloc((size_t)(g->n ? g->n : 1) * sizeof *p);
    assert_non_null(p);
    int64_t S = moore_graph_endpoints_total(g);
    for (int32_t v = 0; v < g->n; v++)
        p[v] = S > 0 ? g->endpoints[v] : 1;
    return p;
}
