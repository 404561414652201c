/* test_hose_dual.c — the dual-length upper bound on the hose throughput
 * (src/flow/hose_dual.c), checked against independent computations.
 *
 * The bound says θ(T_π) ≤ Σ l / Σ T_π·d_l for the permutation matrix T_π it
 * returns (each v sending min(p_v, p_π(v)) to π(v)). So:
 *   - T_π is a hose matrix (row and column sums at most p);
 *   - the exact θ(T_π) by column generation (moore_flow_exact) is at most
 *     the bound — weak duality, computed by other code;
 *   - the hose lower bound (two-phase routing) is at most θ(T_π);
 *   - on K_n with p servers a switch (n even) every hose matrix runs at
 *     n/(2p) or more (test_hose.c), so no valid bound may fall below it;
 *   - a full-bisection Clos carries every hose matrix at 1: bound ≥ 1;
 *   - the same bound, to the bit, for 1 and 4 threads. */
#include "testutil.h"
#include "moore/flow.h"
#include "moore/traffic.h"
#include "flow/hose_internal.h"

#include <math.h>
#include <stdlib.h>

/* The bound and its permutation from the longest matching. */
static double dual_of(const moore_graph *g, const int32_t *p, int threads, int32_t *perm)
{
    moore_error err;
    hose_pairs hp;
    double bound;
    int32_t phases;
    assert_int_equal(flow_hose_pairs_worst(g, p, &hp, &err), MOORE_OK);
    assert_int_equal(flow_hose_dual_bound(g, p, &hp, threads, HOSE_DUAL_BUDGET,
                                          INFINITY, &bound, &phases, perm, &err), MOORE_OK);
    assert_true(phases >= 2); /* small graphs: within the budget */
    flow_hose_pairs_clear(&hp);
    return bound;
}

/* T_π as a dense matrix; fails unless it is a hose matrix. */
static moore_traffic *perm_matrix(const moore_graph *g, const int32_t *p, const int32_t *perm)
{
    int32_t n = g->n;
    double *m = calloc((size_t)n * n, sizeof *m), *in = calloc((size_t)n, sizeof *in);
    for (int32_t v = 0; v < n; v++)
        if (perm[v] >= 0) {
            assert_true(perm[v] != v && perm[v] < n);
            m[(int64_t)v * n + perm[v]] = p[v] < p[perm[v]] ? p[v] : p[perm[v]];
            in[perm[v]] += m[(int64_t)v * n + perm[v]];
        }
    for (int32_t v = 0; v < n; v++)
        assert_true(in[v] <= p[v]); /* rows: one entry ≤ p_v each */
    moore_error err;
    moore_traffic *t;
    assert_int_equal(moore_traffic_from_dense(g, m, &t, &err), MOORE_OK);
    free(m);
    free(in);
    return t;
}

/* The exact θ of T_π (column generation): its proven lower and upper bounds. */
static moore_flow_result exact_of_perm(const moore_graph *g, const int32_t *p,
                                       const int32_t *perm)
{
    moore_error err;
    moore_traffic *t = perm_matrix(g, p, perm);
    moore_flow_result f;
    assert_int_equal(moore_flow_exact(g, t, NULL, &f, &err), MOORE_OK);
    moore_traffic_free(t);
    return f;
}

static void above_exact_of_its_matrix(void **state)
{
    (void)state;
    const char *specs[] = { "petersen", "slimfly:q=5", "polarfly:q=5", "polarfly:q=7,p=4",
                            "jellyfish:n=40,d=6,p=3,seed=2", "xpander:d=6,k=7,p=3,seed=1",
                            "torus:dims=4x4,p=2", "oft:k=4" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_error err;
        moore_graph *g = tu_build(specs[i]);
        int32_t *p = tu_hose_servers(g), *perm = malloc((size_t)g->n * sizeof *perm);
        double bound = dual_of(g, p, 0, perm);
        moore_flow_result f = exact_of_perm(g, p, perm);
        moore_hose_result h;
        assert_int_equal(moore_flow_hose(g, NULL, 0, &h, &err), MOORE_OK);
        /* moore_flow_hose runs the same phases, stopping early (or not
         * starting) where its other bounds are out of reach: never lower */
        if (f.upper > bound * (1 + 1e-7) || h.lower > f.lower * (1 + 1e-7) ||
            h.upper > h.worst_dual || h.worst_dual < bound)
            fail_msg("%s: dual bound %.9g (hose %.9g), exact θ of its matrix %.9g .. %.9g, "
                     "hose lower %.9g upper %.9g", specs[i], bound, h.worst_dual, f.lower,
                     f.upper, h.lower, h.upper);
        free(p);
        free(perm);
        moore_graph_free(g);
    }
}

/* Unequal server counts: T_π still a hose matrix, the bound still above its θ. */
static void unequal_servers(void **state)
{
    (void)state;
    const char *specs[] = { "petersen", "slimfly:q=5" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_graph *g = tu_build(specs[i]);
        for (int32_t v = 0; v < g->n; v++)
            g->endpoints[v] = 1 + v % 3;
        int32_t *p = tu_hose_servers(g), *perm = malloc((size_t)g->n * sizeof *perm);
        double bound = dual_of(g, p, 0, perm);
        moore_flow_result f = exact_of_perm(g, p, perm);
        if (f.upper > bound * (1 + 1e-7))
            fail_msg("%s: dual bound %.9g below the exact θ %.9g of its matrix", specs[i],
                     bound, f.upper);
        free(p);
        free(perm);
        moore_graph_free(g);
    }
}

/* Closed forms: K_n with p servers (n even) at n/(2p), full-bisection trees at 1. */
static void never_below_closed_forms(void **state)
{
    (void)state;
    const char *specs[] = { "complete:n=6,p=3", "complete:n=8,p=5", "fattree:k=4",
                            "clos:radix=8,endpoints=64" };
    const double want[] = { 1, 0.8, 1, 1 };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_graph *g = tu_build(specs[i]);
        int32_t *p = tu_hose_servers(g);
        double bound = dual_of(g, p, 0, NULL);
        if (bound < want[i] * (1 - 1e-9))
            fail_msg("%s: dual bound %.12g below the hose θ %.12g", specs[i], bound, want[i]);
        free(p);
        moore_graph_free(g);
    }
}

static void thread_count(void **state)
{
    (void)state;
    const char *specs[] = { "polarfly:q=7,p=4", "jellyfish:n=60,d=7,p=3,seed=3" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_graph *g = tu_build(specs[i]);
        int32_t *p = tu_hose_servers(g);
        double one = dual_of(g, p, 1, NULL), four = dual_of(g, p, 4, NULL);
        assert_true(one == four);
        free(p);
        moore_graph_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(above_exact_of_its_matrix),
        cmocka_unit_test(unequal_servers),
        cmocka_unit_test(never_below_closed_forms),
        cmocka_unit_test(thread_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
