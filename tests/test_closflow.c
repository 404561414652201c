/* test_closflow.c — the flow that proves a folded Clos's uniform throughput
 * (src/flow/clos_cert.c), checked without trusting it:
 *  - the flow it returns, one commodity per destination switch, is checked
 *    arc by arc here: non-negative, at most 1 per arc in total, conserved at
 *    every switch without servers, and every server switch v sending at least
 *    θ·p_v·p_t/(S−1) to every t (the uniform matrix, computed here);
 *  - θ equals the exact LP (column generation) on small Clos networks with
 *    full, partial and odd pod counts, packed and balanced cores, fat-trees;
 *  - a 2-tier Clos with one uplink per server has the closed form
 *    θ = (S−1)/(S−p): each leaf sends p·(S−p)/(S−1) over p uplinks;
 *  - the radix-48 Clos for 10,000 servers, packed (1,065 switches) and with
 *    18 full pods (1,080), is proven at ≥ 1 — a flow exists: every leaf is the
 *    bottleneck at (S−1)/(S−24) and the cores have slack;
 *  - a graph with linked server switches, and a Clos of 4 tiers (whose
 *    flow is the even split instead), are refused. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double servers(const moore_graph *g)
{
    double S = 0;
    for (int32_t v = 0; v < g->n; v++)
        S += g->endpoints[v];
    return S;
}

/* The certificate's flow is a feasible flow of θ times the uniform matrix. */
static void check_flow(const moore_graph *g, const double *f, double theta)
{
    int64_t arcs = 2 * g->m;
    double S = servers(g);
    double *net = malloc((size_t)g->n * sizeof *net);
    double *sum = calloc((size_t)arcs, sizeof *sum);
    assert_non_null(net);
    assert_non_null(sum);
    for (int32_t t = 0; t < g->n; t++) {
        for (int32_t v = 0; v < g->n; v++)
            net[v] = 0;
        for (int32_t u = 0; u < g->n; u++)
            for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
                double x = f[t * arcs + k];
                assert_true(x >= 0);
                sum[k] += x;
                net[u] += x;
                net[g->adj[k]] -= x;
            }
        for (int32_t v = 0; v < g->n; v++) {
            if (v == t)
                continue;
            double want = g->endpoints[t] > 0 ? theta * g->endpoints[v] * g->endpoints[t] / (S - 1)
                                              : 0;
            if (g->endpoints[v] > 0)
                assert_true(net[v] >= want * (1 - 1e-9));
            else
                assert_true(fabs(net[v]) <= 1e-9);
        }
    }
    for (int64_t k = 0; k < arcs; k++)
        assert_true(sum[k] <= 1 + 1e-9);
    free(net);
    free(sum);
}

static double certify(const char *spec, int with_flow)
{
    moore_graph *g = tu_build(spec);
    moore_error err;
    double lower = 0, *f = NULL;
    if (with_flow) {
        f = malloc((size_t)g->n * 2 * (size_t)g->m * sizeof *f);
        assert_non_null(f);
    }
    int rc = moore_flow_clos(g, 0, &lower, f, &err);
    if (rc)
        fail_msg("%s: %s", spec, err.msg);
    if (f)
        check_flow(g, f, lower);
    free(f);
    moore_graph_free(g);
    return lower;
}

static const char *const SMALL[] = {
    "clos:radix=8,endpoints=30", "clos:radix=8,endpoints=70", "clos:radix=8,pods=3",
    "clos:radix=8,pods=5", "clos:radix=8,pods=5,cores=balanced", "clos:radix=8,pods=7",
    "clos:radix=10,endpoints=151", "clos:radix=10,endpoints=151,cores=balanced",
    "clos:radix=12,pods=5", "clos:radix=6,endpoints=20,oversub=2",
    "clos:radix=8,endpoints=60,oversub=3", "fattree:k=4", NULL
};

static void flow_is_feasible(void **state)
{
    (void)state;
    for (int i = 0; SMALL[i]; i++)
        assert_true(certify(SMALL[i], 1) > 0);
}

static void equals_exact_lp(void **state)
{
    (void)state;
    for (int i = 0; SMALL[i]; i++) {
        moore_graph *g = tu_build(SMALL[i]);
        moore_traffic *t = NULL;
        moore_flow_options o;
        moore_flow_result r;
        moore_error err;
        moore_flow_options_default(&o);
        assert_int_equal(moore_traffic_uniform(g, &t, &err), MOORE_OK);
        assert_int_equal(moore_flow_exact(g, t, &o, &r, &err), MOORE_OK);
        double cert = certify(SMALL[i], 0);
        if (fabs(cert - r.lower) > 1e-7 * r.lower)
            fail_msg("%s: certificate %.9f, exact LP %.9f", SMALL[i], cert, r.lower);
        moore_traffic_free(t);
        moore_graph_free(g);
    }
}

static void two_tier_closed_form(void **state)
{
    (void)state;
    /* radix 8: 4 servers and 4 uplinks per leaf; 8 leaves full = 32 servers */
    double S = 32, p = 4;
    assert_true(fabs(certify("clos:radix=8,endpoints=32", 1) - (S - 1) / (S - p)) < 1e-9);
    S = 48, p = 6; /* radix 12: 6 + 6 */
    assert_true(fabs(certify("clos:radix=12,endpoints=48,tiers=2", 0) - (S - 1) / (S - p)) <
                1e-9);
}

static void radix48_baseline_carries_uniform(void **state)
{
    (void)state;
    double leaf = 9999.0 / (10000.0 - 24.0); /* the leaves' bound (S−1)/(S−p) */
    double packed = certify("clos:radix=48,endpoints=10000", 0);
    assert_true(packed >= 1.0);
    assert_true(packed <= leaf * (1 + 1e-12));
    assert_true(certify("clos:radix=48,pods=18", 0) >= 1.0);
}

static void refuses_other_graphs(void **state)
{
    (void)state;
    moore_graph *g = tu_build("jellyfish:n=20,d=4,p=2");
    moore_error err;
    double lower = -1;
    assert_int_equal(moore_flow_clos(g, 0, &lower, NULL, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "not a folded Clos"));
    assert_true(lower == 0);
    moore_graph_free(g);
    /* past 3 tiers the tier-3 switches link to the cores: refused at once, so
     * compare keeps the shortest-path split's proof (docs/throughput.md) */
    g = tu_build("clos:radix=8,endpoints=200");
    assert_int_equal(moore_flow_clos(g, 0, &lower, NULL, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "not a folded Clos"));
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flow_is_feasible),
        cmocka_unit_test(equals_exact_lp),
        cmocka_unit_test(two_tier_closed_form),
        cmocka_unit_test(radix48_baseline_carries_uniform),
        cmocka_unit_test(refuses_other_graphs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
