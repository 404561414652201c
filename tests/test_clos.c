/* test_clos.c — the folded Clos family and the server-to-server distances.
 *
 * Clos: closed forms equal the built graph for a sweep of (R, endpoints,
 * tiers, oversub, cores), every switch uses at most R ports, and values
 * worked out by hand from the construction (docs/families.md): 2 tiers with
 * R = 8 and 32 servers are 8 leaves and 4 spines; R = 48 with 18 full pods is
 * 18·24 leaves + 18·24 spines + 18·24·24/48 = 216 cores = 1,080 switches and
 * 2·18·24·24 = 20,736 cables; cores=balanced gives each core the same number
 * of links to every pod (and, beyond 3 tiers, to every top block). Past 3
 * tiers a full Clos is the T-level fat-tree, whose sizes are known in closed
 * form. Bad keys are refused with a message naming them.
 *
 * Distances: fattree:k=4 has avg_path_length_endpoints 52/14 (two servers per
 * edge switch; from one server, 2 servers at 2 hops on the same-pod edge
 * switch and 12 at 4 hops), and on random graphs with random endpoint counts
 * the metric equals a sum over an independent BFS (testutil.c). */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sweep_matches_closed_forms(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "clos:radix=8,endpoints=32", "clos:radix=8,endpoints=5", "clos:radix=8,endpoints=33",
        "clos:radix=8,endpoints=128", "clos:radix=6,endpoints=20,oversub=2",
        "clos:radix=12,endpoints=200,oversub=3", "clos:radix=12,endpoints=100,tiers=3",
        "clos:radix=10,endpoints=151", "clos:radix=10,endpoints=151,cores=balanced",
        "clos:radix=16,pods=3", "clos:radix=16,pods=5,cores=balanced",
        "clos:radix=16,pods=16", "clos:radix=12,endpoints=400,oversub=2,cores=balanced",
        "clos:radix=8,pods=1,tiers=2", "clos:radix=9,endpoints=50,oversub=2",
        /* beyond 3 tiers: partial and full blocks, both wirings, oversubscribed */
        "clos:radix=8,endpoints=200", "clos:radix=8,endpoints=200,cores=balanced",
        "clos:radix=8,endpoints=512", "clos:radix=6,endpoints=60,tiers=4",
        "clos:radix=4,endpoints=20,tiers=5", "clos:radix=8,endpoints=300,oversub=3",
        "clos:radix=10,endpoints=700,cores=balanced", "clos:radix=12,endpoints=900",
        "clos:radix=8,pods=9,tiers=4",
    };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        tu_check_closed_forms(specs[i]);
        moore_graph *g = tu_build(specs[i]);
        moore_params pp;
        const moore_family *f;
        moore_error err;
        int64_t radix;
        assert_int_equal(moore_spec_parse(specs[i], &f, &pp, &err), MOORE_OK);
        assert_int_equal(moore_params_int(&pp, "radix", 0, 0, 1 << 20, &radix, &err), MOORE_OK);
        for (int32_t v = 0; v < g->n; v++)
            assert_true(moore_graph_degree(g, v) + g->endpoints[v] <= radix);
        moore_graph_free(g);
    }
}

static int count_prefix(const moore_graph *g, const char *prefix)
{
    int n = 0;
    for (int32_t v = 0; v < g->n; v++)
        n += strncmp(g->labels[v], prefix, strlen(prefix)) == 0;
    return n;
}

static void by_hand(void **state)
{
    (void)state;
    moore_graph *g = tu_build("clos:radix=8,endpoints=32");
    assert_int_equal(g->n, 12);
    assert_int_equal(count_prefix(g, "leaf0."), 8);
    assert_int_equal(count_prefix(g, "spine0."), 4);
    assert_int_equal(moore_graph_endpoints_total(g), 32);
    moore_graph_free(g);

    moore_counts c = tu_counts("clos:radix=48,pods=18");
    assert_int_equal(c.switches, 18 * 24 + 18 * 24 + 216);
    assert_int_equal(c.links, 2 * 18 * 24 * 24);
    assert_int_equal(c.endpoints, 18 * 24 * 24);
    c = tu_counts("clos:radix=48,endpoints=10000");
    assert_true(c.switches <= 1080);
    assert_true(c.links <= 20736);
    assert_int_equal(c.endpoints, 10000);
    assert_int_equal(c.diameter, 4);
    /* pods=48 is the 48-ary fat-tree: 5·48²/4 switches, 48³/2 links */
    c = tu_counts("clos:radix=48,pods=48");
    assert_int_equal(c.switches, 5 * 48 * 48 / 4);
    assert_int_equal(c.links, 48 * 48 * 48 / 2);

    g = tu_build("clos:radix=12,endpoints=200");
    assert_true(count_prefix(g, "leaf") == 34 && count_prefix(g, "spine") == 6 * 6);
    assert_non_null(strstr(g->labels[g->n - 1], "core"));
    moore_graph_free(g);
}

/* T tiers at 1:1 and full blocks is the T-level fat-tree: 2·(R/2)^(T−1)
 * switches on each of the T−1 lower tiers, (R/2)^(T−1) cores, every switch
 * using all R ports, (T−1)·R·(R/2)^(T−1) links, R·(R/2)^(T−1) servers, and
 * a leaf in one top block is 2(T−1) hops from a leaf in another. Beyond the
 * full size the next tier is needed. Radix 48: 3 tiers end at 27,648
 * servers; 50,000 and 100,000 take 4 (leaves ⌈N/24⌉, pods of 24 leaves,
 * superpods of 24 pods with 24·24 tier-3 switches, cores 48 ports each). */
static void more_tiers(void **state)
{
    (void)state;
    static const int64_t radix[] = { 4, 6, 8 }, tiers[] = { 5, 4, 4 };
    for (int i = 0; i < 3; i++) {
        int64_t R = radix[i], T = tiers[i], h = R / 2, hp = 1;
        for (int64_t k = 1; k < T; k++)
            hp *= h;
        char spec[96];
        snprintf(spec, sizeof spec, "clos:radix=%lld,endpoints=%lld", (long long)R,
                 (long long)(R * hp));
        moore_counts c = tu_counts(spec);
        assert_int_equal(c.switches, (2 * (T - 1) + 1) * hp);
        assert_int_equal(c.links, (T - 1) * R * hp);
        assert_int_equal(c.degree_min, R / 2);
        assert_int_equal(c.degree_max, R);
        assert_int_equal(c.diameter, 2 * (T - 1));
        tu_check_closed_forms(spec);
        snprintf(spec, sizeof spec, "clos:radix=%lld,endpoints=%lld", (long long)R,
                 (long long)(R * hp + 1));
        assert_int_equal(tu_counts(spec).diameter, 2 * T);
    }
    moore_counts c = tu_counts("clos:radix=48,endpoints=27648");
    assert_int_equal(c.diameter, 4);
    c = tu_counts("clos:radix=48,endpoints=27649");
    assert_int_equal(c.diameter, 6);
    /* 50,000: 2,084 leaves, 87 pods, 4 superpods; 100,000: 4,167, 174, 8 */
    static const int64_t n[] = { 50000, 100000 }, leaves[] = { 2084, 4167 },
                         pods[] = { 87, 174 }, sup[] = { 4, 8 };
    for (int i = 0; i < 2; i++) {
        char spec[96];
        snprintf(spec, sizeof spec, "clos:radix=48,endpoints=%lld", (long long)n[i]);
        c = tu_counts(spec);
        int64_t agg = sup[i] * 24 * 24, cores = agg * 24 / 48;
        assert_int_equal(c.switches, leaves[i] + pods[i] * 24 + agg + cores);
        assert_int_equal(c.links, leaves[i] * 24 + pods[i] * 24 * 24 + agg * 24);
        assert_int_equal(c.endpoints, n[i]);
        assert_int_equal(c.diameter, 6);
    }
}

/* cores=balanced: every core has the same number of links into every pod
 * (the last core may have fewer rounds, but still equal ones). */
static void balanced_cores(void **state)
{
    (void)state;
    moore_graph *g = tu_build("clos:radix=10,endpoints=151,cores=balanced");
    int pods = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (strncmp(g->labels[v], "spine", 5) == 0) {
            int pod = atoi(g->labels[v] + 5);
            if (pod + 1 > pods)
                pods = pod + 1;
        }
    assert_true(pods >= 2);
    for (int32_t v = 0; v < g->n; v++) {
        if (strncmp(g->labels[v], "core", 4) != 0)
            continue;
        int per[64] = { 0 };
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
            per[atoi(g->labels[g->adj[k]] + 5)]++;
        for (int a = 1; a < pods; a++)
            assert_int_equal(per[a], per[0]);
    }
    moore_graph_free(g);

    /* 4 tiers: the cores' neighbours are tier-3 switches "agg<block>.<i>" */
    g = tu_build("clos:radix=10,endpoints=700,cores=balanced");
    int blocks = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (strncmp(g->labels[v], "agg", 3) == 0 && atoi(g->labels[v] + 3) + 1 > blocks)
            blocks = atoi(g->labels[v] + 3) + 1;
    assert_true(blocks >= 2);
    for (int32_t v = 0; v < g->n; v++) {
        if (strncmp(g->labels[v], "core", 4) != 0)
            continue;
        int per[64] = { 0 };
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++) {
            assert_int_equal(strncmp(g->labels[g->adj[k]], "agg", 3), 0);
            per[atoi(g->labels[g->adj[k]] + 3)]++;
        }
        for (int a = 1; a < blocks; a++)
            assert_int_equal(per[a], per[0]);
    }
    moore_graph_free(g);
}

static void refusals(void **state)
{
    (void)state;
    tu_expect_refused("clos:radix=3,endpoints=4", "radix=3 is below 4");
    tu_expect_refused("clos:radix=9,endpoints=100", "oversub+1");
    tu_expect_refused("clos:radix=9,endpoints=500,oversub=2", "odd");
    tu_expect_refused("clos:radix=8,endpoints=129,tiers=3", "3-tier limit 128"); /* R^3/4 */
    tu_expect_refused("clos:radix=8,endpoints=513,tiers=4", "4-tier limit 512"); /* R^4/8 */
    tu_expect_refused("clos:radix=4,endpoints=129", "6-tier limit 128");
    tu_expect_refused("clos:radix=8,endpoints=100,tiers=7", "tiers");
    tu_expect_refused("clos:radix=9,endpoints=30,tiers=4,oversub=2", "odd");
    tu_expect_refused("clos:radix=8,endpoints=33,tiers=2", "2-tier limit 32");
    tu_expect_refused("clos:radix=8", "exactly one of");
    tu_expect_refused("clos:radix=8,endpoints=8,pods=1", "exactly one of");
    tu_expect_refused("clos:radix=8,pods=2,tiers=2", "one pod");
    tu_expect_refused("clos:radix=8,endpoints=40,cores=odd", "cores=odd");
    tu_expect_refused("clos:endpoints=40", "radix= is required");
}

/* Σ p_s p_t d(s,t) / Σ p_s p_t over switch pairs s ≠ t, by one plain BFS
 * per switch (no twin classes, no shortcut). */
static double brute_avg(const moore_graph *g, int32_t *diam)
{
    int32_t n = g->n, *dist = malloc((size_t)n * sizeof *dist), *q = malloc((size_t)n * sizeof *q);
    double num = 0, den = 0;
    *diam = 0;
    for (int32_t s = 0; s < n; s++) {
        tu_bfs(g, s, dist, q);
        for (int32_t v = 0; v < n; v++)
            if (v != s && g->endpoints[s] > 0 && g->endpoints[v] > 0) {
                double w = (double)g->endpoints[s] * g->endpoints[v];
                num += w * dist[v];
                den += w;
                if (dist[v] > *diam)
                    *diam = dist[v];
            }
    }
    free(dist);
    free(q);
    return num / den;
}

static void endpoint_distances(void **state)
{
    (void)state;
    moore_report r;
    moore_error err;
    moore_graph *g = tu_build("fattree:k=4");
    moore_report_init(&r);
    assert_int_equal(moore_metrics_compute(g, "paths", NULL, &r, &err), MOORE_OK);
    assert_true(fabs(moore_report_number(&r, "avg_path_length_endpoints") - 52.0 / 14) < 1e-12);
    assert_true(moore_report_number(&r, "diameter_endpoints") == 4);
    moore_report_clear(&r);
    moore_graph_free(g);

    /* random graphs, random endpoint counts (some zero); and a Clos, whose
     * leaves are twins */
    const char *specs[] = { "jellyfish:n=60,d=4,seed=3", "jellyfish:n=41,d=6,seed=9",
                            "clos:radix=8,endpoints=100", "torus:dims=5x4" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        g = tu_build(specs[i]);
        moore_rng rng;
        moore_rng_seed(&rng, 17 + i);
        if (i != 2) {
            int32_t *p = malloc((size_t)g->n * sizeof *p);
            for (int32_t v = 0; v < g->n; v++)
                p[v] = (int32_t)moore_rng_below(&rng, 5);
            p[0] = 1;
            p[1] = 2;
            assert_int_equal(moore_graph_set_endpoints(g, p, &err), MOORE_OK);
            free(p);
        }
        int32_t diam;
        double want = brute_avg(g, &diam);
        moore_report_init(&r);
        assert_int_equal(moore_metrics_compute(g, "paths", NULL, &r, &err), MOORE_OK);
        assert_true(fabs(moore_report_number(&r, "avg_path_length_endpoints") - want) < 1e-9);
        assert_true(moore_report_number(&r, "diameter_endpoints") == diam);
        moore_report_clear(&r);
        moore_graph_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sweep_matches_closed_forms),
        cmocka_unit_test(by_hand),
        cmocka_unit_test(more_tiers),
        cmocka_unit_test(balanced_cores),
        cmocka_unit_test(refusals),
        cmocka_unit_test(endpoint_distances),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
