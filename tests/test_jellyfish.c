/* test_jellyfish.c — Jellyfish: regular, simple (the builder refuses
 * repeats), connected, reproducible from its seed; refusals; closed-form
 * counts; the planner; and incremental expansion. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static int same_graph(const moore_graph *a, const moore_graph *b)
{
    return a->n == b->n && a->m == b->m &&
           memcmp(a->offs, b->offs, ((size_t)a->n + 1) * sizeof *a->offs) == 0 &&
           memcmp(a->adj, b->adj, (size_t)(2 * a->m) * sizeof *a->adj) == 0 &&
           memcmp(a->endpoints, b->endpoints, (size_t)a->n * sizeof *a->endpoints) == 0;
}

static void check_regular_connected(const moore_graph *g, int32_t n, int32_t d)
{
    assert_int_equal(g->n, n);
    assert_int_equal(g->m, (int64_t)n * d / 2);
    assert_int_equal(moore_graph_degree_min(g), d);
    assert_int_equal(moore_graph_degree_max(g), d);
    assert_true(tu_diameter(g) >= 1);
}

static void regular_simple_connected(void **state)
{
    (void)state;
    /* sparse, odd degree, the cycle (d = 2), dense via the complement,
     * K_n, and the smallest case K_2 */
    const int32_t cases[][2] = { { 200, 7 }, { 338, 19 }, { 101, 2 }, { 30, 2 }, { 12, 8 },
                                 { 10, 9 },  { 11, 6 },   { 2, 1 },   { 64, 31 }, { 64, 32 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            char spec[96];
            snprintf(spec, sizeof spec, "jellyfish:n=%d,d=%d,seed=%llu", (int)cases[i][0],
                     (int)cases[i][1], (unsigned long long)seed);
            moore_graph *g = tu_build(spec);
            check_regular_connected(g, cases[i][0], cases[i][1]);
            /* 1:1 ports by default */
            assert_int_equal(g->endpoints[0], cases[i][1]);
            moore_graph_free(g);
        }
    /* a 2-regular connected graph is one Hamiltonian cycle: diameter ⌊n/2⌋ */
    moore_graph *c = tu_build("jellyfish:n=101,d=2,seed=9");
    assert_int_equal(tu_diameter(c), 50);
    moore_graph_free(c);
}

static void same_seed_same_graph(void **state)
{
    (void)state;
    moore_graph *a = tu_build("jellyfish:n=500,d=11,seed=7");
    moore_graph *b = tu_build("jellyfish:n=500,d=11,seed=7");
    moore_graph *c = tu_build("jellyfish:n=500,d=11,seed=8");
    assert_true(same_graph(a, b));
    assert_false(same_graph(a, c));
    moore_graph_free(a);
    moore_graph_free(b);
    moore_graph_free(c);
}

static void refusals(void **state)
{
    (void)state;
    assert_non_null(strstr(tu_build_fails("jellyfish:n=5,d=3", MOORE_EINVAL), "odd"));
    assert_non_null(strstr(tu_build_fails("jellyfish:n=5,d=5", MOORE_EINVAL), "d=5"));
    assert_non_null(strstr(tu_build_fails("jellyfish:n=8,d=9", MOORE_EINVAL), "d=9"));
    tu_build_fails("jellyfish:n=6,d=1", MOORE_EINVAL);
    tu_build_fails("jellyfish:n=6,d=0", MOORE_EINVAL);
    tu_build_fails("jellyfish:n=6", MOORE_EINVAL);
    tu_build_fails("jellyfish:d=3", MOORE_EINVAL);
    tu_build_fails("jellyfish:n=10,d=3,seed=-1", MOORE_EINVAL);
    tu_build_fails("jellyfish:n=10,d=4,radix=4", MOORE_EINVAL);
    tu_build_fails("jellyfish:n=10,d=4,q=3", MOORE_EINVAL);
}

static void counts_and_endpoints(void **state)
{
    (void)state;
    const char *specs[] = { "jellyfish:n=338,d=19,seed=7", "jellyfish:n=100,d=10,radix=32",
                            "jellyfish:n=100,d=10,p=3", "jellyfish:n=12,d=11" };
    const int32_t want_p[] = { 19, 22, 3, 11 };
    for (int i = 0; i < 4; i++) {
        moore_counts c;
        moore_error err;
        assert_int_equal(moore_spec_counts(specs[i], &c, &err), MOORE_OK);
        moore_graph *g = tu_build(specs[i]);
        assert_int_equal(c.switches, g->n);
        assert_int_equal(c.links, g->m);
        assert_int_equal(c.degree_max, moore_graph_degree_max(g));
        assert_int_equal(c.endpoints, moore_graph_endpoints_total(g));
        assert_int_equal(g->endpoints[g->n - 1], want_p[i]);
        if (c.diameter >= 0)
            assert_int_equal(c.diameter, tu_diameter(g));
        moore_graph_free(g);
    }
}

/* Radix 21: d = 10, p = 11; 5,000 endpoints need n = ⌈5000/11⌉ = 455, and
 * 455·10 is even. With 100 endpoints n would be 10 ≤ d, so it grows to 11,
 * and 11·10 is even. */
static void planner(void **state)
{
    (void)state;
    const moore_family *f = moore_family_find("jellyfish");
    moore_error err;
    tu_plans p = { 0 };
    assert_int_equal(f->plan(21, 5000, tu_plan_collect, &p, &err), MOORE_OK);
    assert_int_equal(p.count, 1);
    assert_string_equal(p.spec[0], "jellyfish:n=455,d=10,radix=21");
    p.count = 0;
    assert_int_equal(f->plan(21, 100, tu_plan_collect, &p, &err), MOORE_OK);
    assert_string_equal(p.spec[0], "jellyfish:n=11,d=10,radix=21");
    /* radix 23: d = 11, p = 12; 1,210 endpoints: n = 101, but 101·11 is odd */
    p.count = 0;
    assert_int_equal(f->plan(23, 1210, tu_plan_collect, &p, &err), MOORE_OK);
    assert_string_equal(p.spec[0], "jellyfish:n=102,d=11,radix=23");
    p.count = 0;
    assert_int_equal(f->plan(48, 0, tu_plan_collect, &p, &err), MOORE_OK);
    assert_true(p.count >= 3);
    for (int i = 0; i < p.count; i++) {
        moore_counts c;
        assert_int_equal(moore_spec_counts(p.spec[i], &c, &err), MOORE_OK);
        assert_int_equal(c.degree_max, 24);
    }
}

/* Expansion: M new switches, each takes ⌊d/2⌋ links; old degrees stay, the
 * graph stays simple and connected, and the seed fixes the result. */
static void expansion(void **state)
{
    (void)state;
    moore_graph *g = tu_build("jellyfish:n=100,d=10,seed=3");
    moore_graph *h, *h2;
    moore_error err;
    assert_int_equal(moore_jellyfish_expand(g, 7, 0, 5, &h, &err), MOORE_OK);
    assert_int_equal(h->n, 107);
    assert_int_equal(h->m, g->m + 7 * 5);
    for (int32_t v = 0; v < h->n; v++) {
        assert_int_equal(moore_graph_degree(h, v), 10);
        assert_int_equal(h->endpoints[v], 10);
    }
    assert_true(tu_diameter(h) > 0);
    assert_string_equal(h->family, "expand");
    assert_int_equal(moore_jellyfish_expand(g, 7, 0, 5, &h2, &err), MOORE_OK);
    assert_true(same_graph(h, h2));
    moore_graph_free(h2);
    /* odd degree: a new switch gets d − 1 links and one more endpoint */
    moore_graph *odd = tu_build("jellyfish:n=50,d=7,seed=1");
    assert_int_equal(moore_jellyfish_expand(odd, 3, 0, 1, &h2, &err), MOORE_OK);
    assert_int_equal(moore_graph_degree(h2, 50), 6);
    assert_int_equal(h2->endpoints[50], 8);
    assert_int_equal(moore_graph_degree(h2, 0), 7);
    moore_graph_free(h2);
    moore_graph_free(odd);
    /* refusals */
    assert_int_equal(moore_jellyfish_expand(g, 0, 0, 1, &h2, &err), MOORE_EINVAL);
    assert_int_equal(moore_jellyfish_expand(g, 1, 1, 1, &h2, &err), MOORE_EINVAL);
    moore_graph *k2 = tu_build("jellyfish:n=2,d=1");
    assert_int_equal(moore_jellyfish_expand(k2, 1, 4, 1, &h2, &err), MOORE_EINVAL);
    moore_graph_free(k2);
    moore_graph_free(h);
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regular_simple_connected),
        cmocka_unit_test(same_seed_same_graph),
        cmocka_unit_test(refusals),
        cmocka_unit_test(counts_and_endpoints),
        cmocka_unit_test(planner),
        cmocka_unit_test(expansion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
