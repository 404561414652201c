/* test_bisection.c — METIS bisection and the spectral lower bound against
 * closed forms (K_n: (n/2)², C_8□C_8: two rings of 8 = 16, Petersen: 5, the
 * k-ary fat-tree: full bisection k³/8) and against exhaustive search over
 * every balanced split of small graphs, with and without endpoint weights. */
#include "testgraphs.h"
#include "moore/bisection.h"

#include <math.h>
#include <string.h>

static moore_bisection_result bisect(const moore_graph *g)
{
    moore_bisection_result b;
    moore_error err;
    if (moore_bisection_compute(g, NULL, &b, &err)) {
        print_error("bisection: %s\n", err.msg);
        fail();
    }
    return b;
}

/* The cut of b.side recounted, and the balance rule checked. */
static void check_split(const moore_graph *g, const moore_bisection_result *b)
{
    int64_t cut = 0, w[2] = { 0, 0 }, total = moore_graph_endpoints_total(g), wmax = 0;
    for (int32_t v = 0; v < g->n; v++) {
        int64_t wv = total ? g->endpoints[v] : 1;
        w[b->side[v]] += wv;
        wmax = wv > wmax ? wv : wmax;
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
            cut += b->side[v] != b->side[g->adj[k]];
    }
    assert_int_equal(cut / 2, b->cut);
    assert_int_equal(w[0], b->weight[0]);
    assert_int_equal(w[1], b->weight[1]);
    assert_true(llabs(w[0] - w[1]) <= wmax);
    assert_true(b->lower <= (double)b->cut);
}

/* Fewest links cut over every split obeying the balance rule. */
static int64_t brute_bisection(const moore_graph *g)
{
    int64_t total = moore_graph_endpoints_total(g), wmax = 0, best = INT64_MAX;
    for (int32_t v = 0; v < g->n; v++)
        wmax = (total ? g->endpoints[v] : 1) > wmax ? (total ? g->endpoints[v] : 1) : wmax;
    for (uint32_t s = 0; s < 1u << (g->n - 1); s++) {   /* switch n-1 stays on side 0 */
        int64_t w1 = 0, cut = 0;
        for (int32_t v = 0; v < g->n - 1; v++)
            if (s >> v & 1)
                w1 += total ? g->endpoints[v] : 1;
        int64_t w0 = (total ? total : g->n) - w1;
        if (llabs(w0 - w1) > wmax)
            continue;
        for (int32_t v = 0; v < g->n; v++)
            for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++) {
                int32_t u = g->adj[k];
                int sv = v < g->n - 1 && (s >> v & 1), su = u < g->n - 1 && (s >> u & 1);
                cut += sv != su;
            }
        if (cut / 2 < best)
            best = cut / 2;
    }
    return best;
}

static void closed_forms(void **state)
{
    (void)state;
    moore_graph *g = tu_build("complete:n=12");
    moore_bisection_result b = bisect(g);
    assert_int_equal(b.cut, 36);
    assert_true(fabs(b.bandwidth - 6.0) < 1e-12);
    /* a(K_n) = n: the bound a·N/4 = 36 is met exactly. */
    assert_true(b.lower > 36 - 1e-6 && b.lower <= 36);
    check_split(g, &b);
    moore_bisection_result_clear(&b);
    moore_graph_free(g);

    g = tg_torus2(8, 8);
    b = bisect(g);
    assert_int_equal(b.cut, 16);
    assert_false(b.by_endpoints);
    assert_int_equal(b.weight_total, 64);
    /* a(C_8□C_8) = a(C_8) = 2 − 2cos(2π/8). */
    assert_true(fabs(b.lower - (2 - 2 * cos(2 * M_PI / 8)) * 64 / 4) < 1e-6);
    check_split(g, &b);
    moore_bisection_result_clear(&b);
    moore_graph_free(g);

    g = tu_build("petersen");
    b = bisect(g);
    assert_int_equal(b.cut, 5);          /* a = 2, 2·10/4 = 5: optimal */
    assert_true(b.lower > 5 - 1e-6);
    check_split(g, &b);
    moore_bisection_result_clear(&b);
    moore_graph_free(g);
}

static void uniform_endpoints_match_unit_weights(void **state)
{
    (void)state;
    moore_graph *g = tu_build("complete:n=12,p=3");
    moore_bisection_result b = bisect(g);
    assert_true(b.by_endpoints);
    assert_int_equal(b.weight_total, 36);
    assert_int_equal(b.cut, 36);
    assert_true(fabs(b.bandwidth - 2.0) < 1e-12);   /* 36 / (36/2) */
    assert_true(b.lower > 36 - 1e-6);
    moore_bisection_result_clear(&b);
    moore_graph_free(g);
}

static void bound_does_not_depend_on_uniform_p(void **state)
{
    (void)state;
    /* Slim Fly q=13 with p=1 and p=10: the same switch split, the same bound
     * a(G)·N/4 (LAPACK takes another path on the scaled matrix). */
    moore_graph *g = tg_mms(13);
    moore_error err;
    moore_bisection_result a = bisect(g);
    check_split(g, &a);
    assert_int_equal(moore_graph_set_endpoints_uniform(g, 10, &err), MOORE_OK);
    moore_bisection_result b = bisect(g);
    check_split(g, &b);
    assert_true(fabs(a.lower - b.lower) < 1e-6 * a.lower);
    assert_int_equal(b.weight_total, 3380);
    assert_true(fabs(b.bandwidth - (double)b.cut / 1690) < 1e-12);
    moore_bisection_result_clear(&a);
    moore_bisection_result_clear(&b);
    moore_graph_free(g);
}

static void fattree_full_bisection_by_endpoints(void **state)
{
    (void)state;
    for (int32_t k = 4; k <= 8; k += 2) {
        moore_graph *g = tg_fattree(k);
        moore_bisection_result b = bisect(g);
        assert_true(b.by_endpoints);
        assert_int_equal(b.weight_total, k * k * k / 4);
        assert_int_equal(b.cut, k * k * k / 8);   /* k=4: 8 links */
        assert_true(fabs(b.bandwidth - 1.0) < 1e-12);
        assert_true(b.lower > 0);
        check_split(g, &b);
        moore_bisection_result_clear(&b);
        moore_graph_free(g);
    }
}

static void small_graphs_against_exhaustive_search(void **state)
{
    (void)state;
    moore_rng rng;
    moore_rng_seed(&rng, 77);
    for (int trial = 0; trial < 12; trial++) {
        int32_t n = 10 + trial % 5, deg = 3 + trial % 3;
        if (n * deg % 2)
            n++;
        moore_graph *g = tg_random_regular(n, deg, 500 + trial);
        moore_error err;
        if (trial >= 4) {
            /* Non-uniform endpoints, zeros included (trial ≥ 8: many zeros). */
            int32_t p[16];
            for (int32_t v = 0; v < n; v++)
                p[v] = (int32_t)moore_rng_below(&rng, trial >= 8 ? 2 : 4) *
                       (1 + (int32_t)moore_rng_below(&rng, 3));
            p[0] = 1;
            assert_int_equal(moore_graph_set_endpoints(g, p, &err), MOORE_OK);
        }
        moore_bisection_result b = bisect(g);
        int64_t exact = brute_bisection(g);
        check_split(g, &b);
        print_message("n=%d d=%d %s: exhaustive %lld, METIS %lld, lower %.3f\n", (int)n,
                      (int)deg, trial >= 4 ? "weighted" : "unit", (long long)exact,
                      (long long)b.cut, b.lower);
        assert_true(b.lower <= (double)exact + 1e-9);
        assert_int_equal(b.cut, exact);
        moore_bisection_result_clear(&b);
        moore_graph_free(g);
    }
}

static void weighted_bound_on_the_fattree_is_a_bound(void **state)
{
    (void)state;
    /* Endpoints only on edge switches: the bound must stay below the real
     * endpoint bisection (k³/8); the unit-weight a(G)·N/4 is not a bound here. */
    moore_graph *g = tg_fattree(4);
    double lower;
    moore_error err;
    assert_int_equal(moore_bisection_lower_bound(g, 3000, &lower, &err), MOORE_OK);
    assert_true(lower > 0 && lower <= 8);
    assert_int_equal(brute_bisection(g), 8);
    moore_graph_free(g);
}

static void degenerate_graphs(void **state)
{
    (void)state;
    int32_t two_k4[12][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 }, { 2, 3 },
                              { 4, 5 }, { 4, 6 }, { 4, 7 }, { 5, 6 }, { 5, 7 }, { 6, 7 } };
    moore_graph *g = tg_from_links(8, two_k4, 12);
    moore_bisection_result b = bisect(g);
    assert_int_equal(b.cut, 0);
    assert_true(b.lower == 0);
    moore_bisection_result_clear(&b);
    moore_graph_free(g);

    g = tu_build("complete:n=1");
    b = bisect(g);
    assert_false(b.valid);
    moore_bisection_result_clear(&b);
    moore_report r;
    moore_error err;
    moore_report_init(&r);
    assert_int_equal(moore_metrics_compute(g, "bisection", NULL, &r, &err), MOORE_OK);
    assert_int_equal(moore_report_get(&r, "bisection_cut")->type, MOORE_VALUE_NULL);
    assert_int_equal(moore_report_get(&r, "bisection_lower")->type, MOORE_VALUE_NULL);
    moore_report_clear(&r);
    moore_graph_free(g);

    moore_bisection_options o;
    moore_bisection_options_default(&o);
    o.tries = 0;
    g = tu_build("petersen");
    assert_int_equal(moore_bisection_compute(g, &o, &b, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "tries=0"));
    /* Above the dense limit the bound is not computed. */
    o.tries = 2;
    o.spectral_max_switches = 9;
    assert_int_equal(moore_bisection_compute(g, &o, &b, &err), MOORE_OK);
    assert_int_equal(b.cut, 5);
    assert_true(isnan(b.lower));
    moore_bisection_result_clear(&b);
    moore_graph_free(g);
}

static void metric_group_keys(void **state)
{
    (void)state;
    moore_graph *g = tg_fattree(4);
    moore_report r;
    moore_error err;
    moore_report_init(&r);
    assert_int_equal(moore_metrics_compute(g, "bisection", NULL, &r, &err), MOORE_OK);
    assert_true(moore_report_number(&r, "bisection_cut") == 8);
    assert_true(moore_report_number(&r, "bisection_bandwidth") == 1.0);
    assert_true(moore_report_number(&r, "bisection_lower") <= 8);
    assert_string_equal(moore_report_get(&r, "bisection_balance")->s, "endpoints");
    moore_report_clear(&r);
    moore_graph_free(g);
}

/* The bound is the same bytes whatever the BLAS thread count the caller set
 * (the library pins BLAS to one thread inside its LAPACK calls). */
extern int openblas_get_num_threads(void) __attribute__((weak));
extern void openblas_set_num_threads(int) __attribute__((weak));

static void lower_bound_same_for_any_blas_threads(void **state)
{
    (void)state;
    if (!openblas_set_num_threads || !openblas_get_num_threads)
        skip(); /* another BLAS: no thread count to vary */
    const char *specs[] = { "jellyfish:n=400,d=6,seed=2", "fattree:k=12" };
    int before = openblas_get_num_threads();
    for (int i = 0; i < 2; i++) {
        moore_graph *g = tu_build(specs[i]);
        double bound[2];
        moore_error err;
        for (int t = 0; t < 2; t++) {
            openblas_set_num_threads(t + 1);
            assert_int_equal(moore_bisection_lower_bound(g, 4096, &bound[t], &err), MOORE_OK);
            assert_int_equal(openblas_get_num_threads(), t + 1); /* restored */
        }
        assert_true(bound[0] > 0);
        assert_memory_equal(&bound[0], &bound[1], sizeof bound[0]);
        moore_graph_free(g);
    }
    openblas_set_num_threads(before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(closed_forms),
        cmocka_unit_test(uniform_endpoints_match_unit_weights),
        cmocka_unit_test(bound_does_not_depend_on_uniform_p),
        cmocka_unit_test(fattree_full_bisection_by_endpoints),
        cmocka_unit_test(small_graphs_against_exhaustive_search),
        cmocka_unit_test(weighted_bound_on_the_fattree_is_a_bound),
        cmocka_unit_test(degenerate_graphs),
        cmocka_unit_test(lower_bound_same_for_any_blas_threads),
        cmocka_unit_test(metric_group_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
