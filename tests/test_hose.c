/* test_hose.c — bounds on the hose throughput (src/flow/hose.c), checked
 * against closed forms and against the exact LP on particular matrices.
 *
 * Closed forms (docs/throughput.md, "Any traffic: the hose model"):
 *   K_n, one server per switch: hose θ = n/2. Lower: two-phase routing with
 *     w = 1/n puts 2/n on every arc (M(a,b) = 2/n, routed directly). Upper:
 *     any derangement; each commodity can use its direct arc once and every
 *     other unit costs ≥ 2 arcs, so n + 2(θn − n) ≤ n(n−1). For even n the
 *     balanced cut says the same: n²/4 links across, n/2 servers a side.
 *   A full-bisection fat-tree or folded Clos carries every hose matrix at 1
 *     (leaves spread over the top tier; a leaf has as many uplinks as
 *     servers), and no more: a leaf's servers can all send out of it.
 *   VLB (w ∝ servers) gives M = (2(S−1)/S)·U for the uniform matrix U, so its
 *     bound is θ(U)·S/(2(S−1)), half the uniform throughput up to the
 *     same-switch share; on a vertex-transitive graph no other weights do
 *     better (1/θ is convex in w and symmetric).
 *   The pair-flow bound (hose_pairs.c) on K_n, n even, p servers a switch:
 *     the longest matching pairs all n switches at distance 1; a pair's
 *     min-cost flow sends 1 unit on its link and the rest over 2-hop paths,
 *     so n·(1 + 2(pθ − 1)) ≤ n(n−1) gives θ ≤ n/(2p), the hose θ (VLB's
 *     direct routing carries every hose matrix at n/(2p)). */
#include "testutil.h"
#include "moore/flow.h"
#include "moore/traffic.h"

#include <math.h>
#include <stdlib.h>

static moore_hose_result hose(const moore_graph *g, int effort)
{
    moore_error err;
    moore_hose_result h;
    moore_flow_options o;
    moore_flow_options_default(&o);
    o.eps = 0.05;
    int rc = moore_flow_hose(g, &o, effort, &h, &err);
    if (rc)
        fail_msg("hose: %s", err.msg);
    return h;
}

static double exact_of(const moore_graph *g, moore_traffic *t)
{
    moore_error err;
    moore_flow_result f;
    if (moore_flow_exact(g, t, NULL, &f, &err))
        fail_msg("exact: %s", err.msg);
    moore_traffic_free(t);
    return f.throughput;
}

static void complete_graph(void **state)
{
    (void)state;
    for (int n = 3; n <= 10; n++) {
        char spec[32];
        snprintf(spec, sizeof spec, "complete:n=%d", n);
        moore_graph *g = tu_build(spec);
        moore_hose_result h = hose(g, 0);
        assert_true(fabs(h.lower - n / 2.0) < 1e-7);
        if (n % 2 == 0)
            assert_true(fabs(h.upper - n / 2.0) < 1e-9);
        assert_true(h.upper >= n / 2.0 - 1e-9);
        moore_graph_free(g);
    }
}

static void full_bisection_trees(void **state)
{
    (void)state;
    const char *specs[] = { "fattree:k=4", "fattree:k=6", "clos:radix=8,endpoints=32",
                            "clos:radix=8,endpoints=64", "clos:radix=12,endpoints=200,cores=balanced" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_graph *g = tu_build(specs[i]);
        moore_hose_result h = hose(g, 0);
        if (fabs(h.lower - 1) > 1e-7 || fabs(h.upper - 1) > 1e-9)
            fail_msg("%s: hose %.12g .. %.12g, expected 1", specs[i], h.lower, h.upper);
        moore_graph_free(g);
    }
}

/* VLB's bound is θ(U)·S/(2(S−1)) with θ(U) solved exactly here, and on a
 * vertex-transitive graph the optimised weights equal it; the two-phase
 * matrix built independently has the same exact θ. */
static void vlb_half_uniform(void **state)
{
    (void)state;
    const char *specs[] = { "petersen", "slimfly:q=5", "hypercube:n=4,p=2", "complete:n=6,p=3" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_error err;
        moore_graph *g = tu_build(specs[i]);
        moore_traffic *u;
        assert_int_equal(moore_traffic_uniform(g, &u, &err), MOORE_OK);
        double thu = exact_of(g, u), S = (double)moore_graph_endpoints_total(g);
        int32_t n = g->n;
        double *m = calloc((size_t)n * n, sizeof *m);
        for (int32_t a = 0; a < n; a++)
            for (int32_t b = 0; b < n; b++)
                if (a != b) /* w = p/S: M(a,b) = 2·p_a·p_b/S */
                    m[a * n + b] = 2.0 * g->endpoints[a] * g->endpoints[b] / S;
        moore_traffic *mt;
        assert_int_equal(moore_traffic_from_dense(g, m, &mt, &err), MOORE_OK);
        free(m);
        double thm = exact_of(g, mt), half = thu * S / (2 * (S - 1));
        moore_hose_result h = hose(g, 2);
        if (fabs(thm - half) > 1e-6 * half || fabs(h.vlb - half) > 1e-6 * half ||
            fabs(h.two_phase - half) > 1e-6 * half)
            fail_msg("%s: θ(U)·S/(2(S−1)) = %.9g, θ(M) = %.9g, vlb %.9g, two-phase %.9g",
                     specs[i], half, thm, h.vlb, h.two_phase);
        moore_graph_free(g);
    }
}

/* lower ≤ upper everywhere, and lower ≤ the exact θ of particular hose
 * matrices: the worst case (longest matching) and permutations. */
static void lower_below_matrices(void **state)
{
    (void)state;
    const char *specs[] = { "petersen", "slimfly:q=5", "jellyfish:n=40,d=6,p=3,seed=2",
                            "xpander:d=6,k=7,p=3,seed=1", "dragonfly:p=2", "hyperx:L=2,S=5,p=2",
                            "torus:dims=4x4,p=2", "polarfly:q=5", "mlfm:h=4", "oft:k=4",
                            "fattree:k=4", "clos:radix=8,endpoints=60" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_error err;
        moore_graph *g = tu_build(specs[i]);
        moore_hose_result h0 = hose(g, 0), h1 = hose(g, 1);
        assert_true(h0.lower <= h0.upper * (1 + 1e-9));
        assert_true(h1.lower <= h1.upper * (1 + 1e-9));
        assert_true(h1.lower >= h0.lower * (1 - 1e-12)); /* more effort never loses */
        /* the worst case and permutations are hose matrices when every
         * server switch has as many servers (a switch receives what its
         * partner's servers send) */
        int32_t pmax = 0, pmin = INT32_MAX;
        for (int32_t v = 0; v < g->n; v++)
            if (g->endpoints[v] > 0) {
                pmax = g->endpoints[v] > pmax ? g->endpoints[v] : pmax;
                pmin = g->endpoints[v] < pmin ? g->endpoints[v] : pmin;
            }
        if (pmax != pmin)
            fail_msg("%s: servers per switch %d..%d, pick an evenly loaded graph", specs[i],
                     (int)pmin, (int)pmax);
        moore_traffic *t;
        assert_int_equal(moore_traffic_worst(g, &t, &err), MOORE_OK);
        double worst = exact_of(g, t);
        double perm = INFINITY;
        for (uint64_t seed = 1; seed <= 2; seed++) {
            assert_int_equal(moore_traffic_permutation(g, seed, &t, &err), MOORE_OK);
            double th = exact_of(g, t);
            perm = th < perm ? th : perm;
        }
        if (h1.lower > worst * (1 + 1e-7) || h1.lower > perm * (1 + 1e-7))
            fail_msg("%s: hose lower %.9g above a hose matrix (worst %.9g, permutation %.9g)",
                     specs[i], h1.lower, worst, perm);
        moore_graph_free(g);
    }
}

/* The pair-flow bound is an upper bound on the exact θ of the matrix it
 * charges (the longest matching, every pair exchanging min(p_u, p_v), which
 * is the worst-case matrix when every switch has as many servers), and at
 * most that matrix's TUB. */
static void pair_flow_above_matching(void **state)
{
    (void)state;
    const char *specs[] = { "petersen", "slimfly:q=5", "polarfly:q=5", "polarfly:q=7,p=4",
                            "oft:k=4", "jellyfish:n=40,d=6,p=3,seed=2", "torus:dims=4x4,p=2",
                            "complete:n=7,p=3" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_error err;
        moore_graph *g = tu_build(specs[i]);
        moore_hose_result h = hose(g, 0);
        moore_traffic *t;
        assert_int_equal(moore_traffic_worst(g, &t, &err), MOORE_OK);
        double tub;
        assert_int_equal(moore_flow_tub(g, t, &tub, &err), MOORE_OK);
        double worst = exact_of(g, t);
        if (h.pair_flow < worst * (1 - 1e-7) || h.pair_flow > tub * (1 + 1e-9) ||
            fabs(h.worst_tub - tub) > 1e-9 * tub || h.upper > h.pair_flow)
            fail_msg("%s: pair flow %.9g, exact θ of the matching %.9g, TUB %.9g (hose %.9g), "
                     "upper %.9g", specs[i], h.pair_flow, worst, tub, h.worst_tub, h.upper);
        moore_graph_free(g);
    }
}

/* Unequal server counts: the longest matching with each pair exchanging
 * min(p_u, p_v) both ways is a hose matrix, so its exact θ lies between the
 * hose lower bound and the pair-flow bound (the matrix the bound charges). */
static void unequal_servers(void **state)
{
    (void)state;
    const char *specs[] = { "petersen", "slimfly:q=5", "torus:dims=4x4" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_error err;
        moore_graph *g = tu_build(specs[i]);
        for (int32_t v = 0; v < g->n; v++)
            g->endpoints[v] = 1 + v % 3;
        moore_hose_result h = hose(g, 0);
        moore_traffic *t;
        assert_int_equal(moore_traffic_worst(g, &t, &err), MOORE_OK);
        int32_t n = g->n;
        double *m = calloc((size_t)n * n, sizeof *m);
        for (int32_t a = 0; a < n; a++)
            for (int64_t k = t->offs[a]; k < t->offs[a + 1]; k++) {
                int32_t b = t->dst[k];
                int32_t d = g->endpoints[a] < g->endpoints[b] ? g->endpoints[a] : g->endpoints[b];
                m[a * n + b] = m[b * n + a] = d;
            }
        moore_traffic_free(t);
        assert_int_equal(moore_traffic_from_dense(g, m, &t, &err), MOORE_OK);
        free(m);
        double th = exact_of(g, t);
        if (h.lower > th * (1 + 1e-7) || h.pair_flow < th * (1 - 1e-7))
            fail_msg("%s: hose lower %.9g, exact θ of the min(p) matching %.9g, pair flow %.9g",
                     specs[i], h.lower, th, h.pair_flow);
        moore_graph_free(g);
    }
}

/* K_n with p servers a switch, n even: both bounds are n/(2p) (header). */
static void complete_graph_servers(void **state)
{
    (void)state;
    const int cases[][2] = { { 4, 2 }, { 6, 3 }, { 8, 5 }, { 10, 2 } };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char spec[48];
        int n = cases[i][0], p = cases[i][1];
        snprintf(spec, sizeof spec, "complete:n=%d,p=%d", n, p);
        moore_graph *g = tu_build(spec);
        moore_hose_result h = hose(g, 0);
        double want = n / (2.0 * p);
        if (fabs(h.pair_flow - want) > 1e-9 * want || fabs(h.lower - want) > 1e-7 * want ||
            h.upper > want * (1 + 1e-9))
            fail_msg("%s: pair flow %.12g, hose %.12g .. %.12g, expected %.12g", spec,
                     h.pair_flow, h.lower, h.upper, want);
        moore_graph_free(g);
    }
}

/* The same bounds, to the bit, for one thread and for four. */
static void thread_count(void **state)
{
    (void)state;
    const char *specs[] = { "polarfly:q=7,p=4", "jellyfish:n=60,d=7,p=3,seed=3" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_graph *g = tu_build(specs[i]);
        moore_hose_result h[2];
        for (int k = 0; k < 2; k++) {
            moore_error err;
            moore_flow_options o;
            moore_flow_options_default(&o);
            o.threads = k ? 4 : 1;
            if (moore_flow_hose(g, &o, 0, &h[k], &err))
                fail_msg("hose: %s", err.msg);
        }
        assert_true(h[0].lower == h[1].lower && h[0].upper == h[1].upper);
        assert_true(h[0].pair_flow == h[1].pair_flow && h[0].worst_tub == h[1].worst_tub);
        moore_graph_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(complete_graph),
        cmocka_unit_test(full_bisection_trees),
        cmocka_unit_test(vlb_half_uniform),
        cmocka_unit_test(lower_below_matrices),
        cmocka_unit_test(pair_flow_above_matching),
        cmocka_unit_test(complete_graph_servers),
        cmocka_unit_test(unequal_servers),
        cmocka_unit_test(thread_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
