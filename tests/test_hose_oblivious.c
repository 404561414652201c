/* test_hose_oblivious.c — the optimal oblivious routing's lower bound on
 * the hose throughput (src/flow/hose_oblivious.c), checked against closed
 * forms and computations it does not share.
 *
 *   - K_n with one server per switch: the hose throughput is n/2 (test_hose.c
 *     derives it), and VLB, an oblivious routing, reaches it: so must the
 *     best oblivious routing; a full-bisection fat-tree (k = 4) carries every
 *     hose matrix at 1, and relaying over the top does so obliviously.
 *   - Two-phase routing is one oblivious routing, so the LP's optimum is at
 *     least its bound. The proven bound is recomputed from the LP's flows
 *     cut into paths and scaled to one unit, and a dual of each arc's
 *     transportation problem: it equals the LP's 1/α up to the LP's
 *     tolerances (1e−7 relative in Clp's primal feasibility, times a few
 *     arcs), not bit for bit, so it is checked to be ≥ two-phase·(1 − 1e−6).
 *   - Every oblivious bound is a lower bound on the hose θ, so it is at most
 *     the exact θ (column generation, moore_flow_exact) of any hose matrix:
 *     the longest matching and a shift permutation.
 *   - The LP reduced by the automorphisms has the same optimum as the full
 *     LP (an averaged optimal routing is invariant), and the full LP's bound
 *     holds too. */
#include "testutil.h"
#include "moore/flow.h"
#include "moore/symmetry.h"
#include "moore/traffic.h"
#include "flow/hose_internal.h"

#include <math.h>
#include <stdlib.h>

/* The oblivious bound, with the automorphisms keeping p (sym) or without;
 * *lp: the LP's own 1/α. */
static double oblivious_of(const moore_graph *g, const int32_t *p, int sym, double *lp)
{
    moore_error err;
    int32_t *gens = NULL, ngens = 0;
    if (sym) {
        moore_symmetry_options so;
        moore_symmetry_options_default(&so);
        so.canonical = 0;
        so.respect_endpoints = 1;
        assert_int_equal(moore_symmetry_generators(g, &so, &gens, &ngens, &err), MOORE_OK);
    }
    double lower, value;
    assert_int_equal(flow_hose_oblivious(g, p, gens, ngens, 0, &lower, &value, &err), MOORE_OK);
    free(gens);
    assert_true(lower > 0); /* small graphs: solved */
    if (lp)
        *lp = value;
    return lower;
}

/* The exact θ of the dense matrix m (n × n): its proven upper bound. */
static double exact_upper(const moore_graph *g, double *m)
{
    moore_error err;
    moore_traffic *t;
    moore_flow_result f;
    assert_int_equal(moore_traffic_from_dense(g, m, &t, &err), MOORE_OK);
    assert_int_equal(moore_flow_exact(g, t, NULL, &f, &err), MOORE_OK);
    moore_traffic_free(t);
    return f.upper;
}

/* The exact θ of the longest matching (each pair exchanging min(p_u, p_v)). */
static double exact_matching(const moore_graph *g, const int32_t *p)
{
    moore_error err;
    hose_pairs hp;
    moore_traffic *t;
    moore_flow_result f;
    assert_int_equal(flow_hose_pairs_worst(g, p, &hp, &err), MOORE_OK);
    assert_int_equal(flow_hose_pairs_matrix(g, &hp, &t, &err), MOORE_OK);
    assert_int_equal(moore_flow_exact(g, t, NULL, &f, &err), MOORE_OK);
    moore_traffic_free(t);
    flow_hose_pairs_clear(&hp);
    return f.upper;
}

/* The exact θ of the shift v → v + n/2 (mod n) among server switches. */
static double exact_shift(const moore_graph *g, const int32_t *p)
{
    int32_t n = g->n, k = 0;
    int32_t *srv = malloc((size_t)n * sizeof *srv);
    for (int32_t v = 0; v < n; v++)
        if (p[v] > 0)
            srv[k++] = v;
    double *m = calloc((size_t)n * n, sizeof *m);
    for (int32_t i = 0; i < k; i++) {
        int32_t a = srv[i], b = srv[(i + k / 2) % k];
        m[(int64_t)a * n + b] = p[a] < p[b] ? p[a] : p[b];
    }
    double up = exact_upper(g, m);
    free(m);
    free(srv);
    return up;
}

static void complete_graph_at_half_n(void **state)
{
    (void)state;
    const char *specs[] = { "complete:n=6", "complete:n=8" };
    const double want[] = { 3, 4 };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_graph *g = tu_build(specs[i]);
        int32_t *p = tu_hose_servers(g);
        double lp, bound = oblivious_of(g, p, 1, &lp);
        if (fabs(bound - want[i]) > 1e-6 * want[i] || bound > want[i] * (1 + 1e-12))
            fail_msg("%s: oblivious bound %.12g (LP %.12g), hose θ %g", specs[i], bound, lp,
                     want[i]);
        moore_hose_result h;
        moore_error err;
        assert_int_equal(moore_flow_hose(g, NULL, 2, &h, &err), MOORE_OK);
        assert_true(h.oblivious == bound);
        assert_true(h.lower >= bound && h.lower <= want[i] * (1 + 1e-9));
        free(p);
        moore_graph_free(g);
    }
}

static void fat_tree_at_one(void **state)
{
    (void)state;
    moore_graph *g = tu_build("fattree:k=4");
    int32_t *p = tu_hose_servers(g);
    double bound = oblivious_of(g, p, 1, NULL);
    assert_true(fabs(bound - 1) <= 1e-6 && bound <= 1);
    free(p);
    moore_graph_free(g);
}

/* Between two-phase routing and the exact θ of two hose matrices. */
static void between_two_phase_and_exact(void **state)
{
    (void)state;
    const char *specs[] = { "petersen", "slimfly:q=5", "torus:dims=4x4,p=2", "polarfly:q=5" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_graph *g = tu_build(specs[i]);
        int32_t *p = tu_hose_servers(g);
        moore_hose_result h;
        moore_error err;
        assert_int_equal(moore_flow_hose(g, NULL, 2, &h, &err), MOORE_OK);
        double bound = h.oblivious, two = fmax(h.two_phase, h.vlb);
        double worst = exact_matching(g, p), shift = exact_shift(g, p);
        if (bound < two * (1 - 1e-6) || bound > worst * (1 + 1e-9) ||
            bound > shift * (1 + 1e-9) || h.lower < two || h.lower > h.upper)
            fail_msg("%s: oblivious %.9g (LP %.9g), two-phase %.9g, exact θ of the longest "
                     "matching %.9g and of the shift %.9g, bracket %.9g .. %.9g", specs[i],
                     bound, h.oblivious_lp, two, worst, shift, h.lower, h.upper);
        free(p);
        moore_graph_free(g);
    }
}

/* The LP reduced by the automorphisms against the full LP; unequal server
 * counts (fewer automorphisms keep them) checked the same way. */
static void symmetry_keeps_the_optimum(void **state)
{
    (void)state;
    const char *specs[] = { "petersen", "torus:dims=3x3", "petersen" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_graph *g = tu_build(specs[i]);
        if (i == 2)
            for (int32_t v = 0; v < g->n; v++)
                g->endpoints[v] = 1 + v % 3;
        int32_t *p = tu_hose_servers(g);
        double lp_sym, lp_full;
        double sym = oblivious_of(g, p, 1, &lp_sym), full = oblivious_of(g, p, 0, &lp_full);
        double worst = exact_matching(g, p);
        if (fabs(lp_sym - lp_full) > 1e-5 * lp_full || fabs(sym - full) > 1e-5 * full ||
            sym > worst * (1 + 1e-9) || full > worst * (1 + 1e-9))
            fail_msg("%s: with the symmetry %.12g (LP %.12g), without %.12g (LP %.12g), "
                     "exact θ of the longest matching %.12g", specs[i], sym, lp_sym, full,
                     lp_full, worst);
        free(p);
        moore_graph_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(complete_graph_at_half_n),
        cmocka_unit_test(fat_tree_at_one),
        cmocka_unit_test(between_two_phase_and_exact),
        cmocka_unit_test(symmetry_keeps_the_optimum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
