/* test_graph.c — the CSR builder, the PRNG, SPEC parsing, the reference
 * graphs' known invariants and the allocation helpers' error codes. */
#include "core/alloc.h"
#include "testutil.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void builder_rejects_bad_links(void **state)
{
    (void)state;
    moore_builder *b;
    moore_error err;
    assert_int_equal(moore_builder_new(4, 0, &b, &err), MOORE_OK);
    assert_int_equal(moore_builder_add_link(b, 0, 0, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "self-loop"));
    assert_int_equal(moore_builder_add_link(b, 0, 4, &err), MOORE_EINVAL);
    assert_int_equal(moore_builder_add_link(b, -1, 2, &err), MOORE_EINVAL);
    assert_int_equal(moore_builder_add_link(b, 0, 1, &err), MOORE_OK);
    assert_int_equal(moore_builder_add_link(b, 1, 0, &err), MOORE_OK);
    moore_graph *g;
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "more than once"));
    assert_null(g);
}

static void builder_makes_sorted_csr(void **state)
{
    (void)state;
    moore_builder *b;
    moore_error err;
    moore_graph *g;
    const int32_t links[][2] = { { 3, 1 }, { 0, 3 }, { 2, 1 }, { 0, 1 } };
    assert_int_equal(moore_builder_new(5, 0, &b, &err), MOORE_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(moore_builder_add_link(b, links[i][0], links[i][1], &err), MOORE_OK);
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_OK);
    assert_int_equal(g->n, 5);
    assert_int_equal(g->m, 4);
    assert_int_equal(moore_graph_degree(g, 1), 3);
    assert_int_equal(moore_graph_degree(g, 4), 0);
    for (int32_t v = 0; v < g->n; v++)
        for (int64_t k = g->offs[v] + 1; k < g->offs[v + 1]; k++)
            assert_true(g->adj[k - 1] < g->adj[k]);
    assert_true(moore_graph_has_link(g, 1, 3));
    assert_true(moore_graph_has_link(g, 3, 1));
    assert_false(moore_graph_has_link(g, 2, 3));
    moore_graph_free(g);
}

static void rng_is_deterministic_and_unbiased(void **state)
{
    (void)state;
    moore_rng a, b;
    moore_rng_seed(&a, 42);
    moore_rng_seed(&b, 42);
    for (int i = 0; i < 100; i++)
        assert_int_equal(moore_rng_next(&a), moore_rng_next(&b));
    /* Reference value of xoshiro256** seeded by splitmix64(0): the first
     * splitmix64 output is the published 0xE220A8397B1DCDAF. */
    moore_rng c;
    moore_rng_seed(&c, 0);
    assert_int_equal(c.s[0], 0xE220A8397B1DCDAFULL);
    int counts[7] = { 0 };
    for (int i = 0; i < 70000; i++)
        counts[moore_rng_below(&a, 7)]++;
    for (int i = 0; i < 7; i++)
        assert_true(counts[i] > 9400 && counts[i] < 10600);
}

static void spec_parsing(void **state)
{
    (void)state;
    const moore_family *f;
    moore_params p;
    moore_error err;
    assert_int_equal(moore_spec_parse("complete:n=5,p=2", &f, &p, &err), MOORE_OK);
    assert_string_equal(f->name, "complete");
    assert_int_equal(p.count, 2);
    assert_int_equal(moore_spec_parse("nosuch:n=5", &f, &p, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "nosuch"));
    assert_int_equal(moore_spec_parse("complete:m=5", &f, &p, &err), MOORE_EINVAL);
    assert_int_equal(moore_spec_parse("complete:n=5,n=6", &f, &p, &err), MOORE_EINVAL);
    assert_int_equal(moore_spec_parse("complete:n", &f, &p, &err), MOORE_EINVAL);
    assert_int_equal(moore_spec_parse("complete:", &f, &p, &err), MOORE_EINVAL);
    /* the getters: a number, its range, a default, and the key marked as read */
    double x;
    assert_int_equal(moore_spec_parse("complete:n=5,p=2", &f, &p, &err), MOORE_OK);
    assert_int_equal(moore_params_double(&p, "n", 0, 0, 10, &x, &err), MOORE_OK);
    assert_true(x == 5.0 && p.used[0] && !p.used[1]);
    assert_int_equal(moore_params_double(&p, "p", 0, 0, 1.5, &x, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "p=2 is outside 0..1.5"));
    assert_int_equal(moore_params_double(&p, "radix", 0.25, 0, 1, &x, &err), MOORE_OK);
    assert_true(x == 0.25);
    assert_int_equal(moore_spec_parse("complete:n=1e1", &f, &p, &err), MOORE_OK);
    assert_int_equal(moore_params_double(&p, "n", 0, 0, 100, &x, &err), MOORE_OK);
    assert_true(x == 10.0);
    assert_int_equal(moore_spec_parse("complete:n=0x10", &f, &p, &err), MOORE_OK);
    assert_int_equal(moore_params_double(&p, "n", 0, 0, 100, &x, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "is not a number"));
    tu_build_fails("complete:n=abc", MOORE_EINVAL);
    tu_build_fails("complete:n=-3", MOORE_EINVAL);
    tu_build_fails("complete", MOORE_EINVAL);
    tu_build_fails("complete:n=5,p=1,radix=9", MOORE_EINVAL);
    tu_build_fails("complete:n=5,radix=4", MOORE_EINVAL);
}

static void complete_graph(void **state)
{
    (void)state;
    moore_graph *g = tu_build("complete:n=12,radix=16");
    assert_int_equal(g->n, 12);
    assert_int_equal(g->m, 66);
    assert_int_equal(moore_graph_degree_min(g), 11);
    assert_int_equal(g->endpoints[5], 5);
    assert_int_equal(tu_diameter(g), 1);
    moore_graph_free(g);
}

/* Petersen and Hoffman–Singleton are the Moore graphs of degree 3 and 7:
 * N = d² + 1, diameter 2, girth 5. */
static void moore_graphs(void **state)
{
    (void)state;
    const char *specs[] = { "petersen", "hoffman-singleton" };
    const int32_t degree[] = { 3, 7 };
    for (int i = 0; i < 2; i++) {
        moore_graph *g = tu_build(specs[i]);
        moore_error err;
        int32_t girth;
        assert_int_equal(g->n, degree[i] * degree[i] + 1);
        assert_int_equal(g->m, (int64_t)g->n * degree[i] / 2);
        assert_true(moore_graph_is_regular(g));
        assert_int_equal(moore_graph_degree_max(g), degree[i]);
        assert_int_equal(tu_diameter(g), 2);
        assert_int_equal(moore_girth(g, &girth, &err), MOORE_OK);
        assert_int_equal(girth, 5);
        assert_true(moore_bound(degree[i], 2) == (double)g->n);
        moore_graph_free(g);
    }
}

/* An overflowed size is ETOOBIG, not ENOMEM, for moore_malloc and
 * moore_calloc, and inside an OpenMP region (core/alloc.h) the code of the
 * failing call reaches err after the region. */
static void allocation_codes(void **state)
{
    (void)state;
    moore_error err;
    moore_error_clear(&err);
    assert_null(moore_malloc(SIZE_MAX / 2, 3, &err));
    assert_int_equal(err.code, MOORE_ETOOBIG);
    moore_error_clear(&err);
    assert_null(moore_calloc(SIZE_MAX / 2, 3, &err));
    assert_int_equal(err.code, MOORE_ETOOBIG);
    int fail = MOORE_OK, wrong = 0;
#pragma omp parallel num_threads(2) reduction(+ : wrong)
    {
        void *ok = core_par_malloc(16, 4, &fail);
        void *big = core_par_calloc(SIZE_MAX / 4, 8, &fail);
        wrong += !ok || big; /* cmocka's asserts belong to the main thread */
        free(ok);
        free(big);
    }
    assert_int_equal(wrong, 0);
    assert_int_equal(fail, MOORE_ETOOBIG);
    moore_error_clear(&err);
    assert_int_equal(core_par_failed(&err, fail, "test scratch"), MOORE_ETOOBIG);
    assert_int_equal(err.code, MOORE_ETOOBIG);
    assert_non_null(strstr(err.msg, "test scratch"));
    assert_int_equal(core_par_failed(&err, MOORE_OK, "nothing"), MOORE_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builder_rejects_bad_links),
        cmocka_unit_test(builder_makes_sorted_csr),
        cmocka_unit_test(rng_is_deterministic_and_unbiased),
        cmocka_unit_test(spec_parsing),
        cmocka_unit_test(complete_graph),
        cmocka_unit_test(moore_graphs),
        cmocka_unit_test(allocation_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
