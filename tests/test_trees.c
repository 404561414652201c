/* test_trees.c — flattened butterfly, k-ary n-tree and XGFT.
 *
 * Closed forms over sweeps (diameter by the BFS of testutil.c) and the
 * papers' values; the flattened butterfly must be HyperX of the same shape
 * and the 3-level XGFT of full radix the fat-tree of Al-Fares et al. (nauty
 * isomorphism); the k-ary n-tree and the XGFT are each held against an
 * adjacency rule written here by brute force over all switch pairs, in a
 * numbering of its own (most significant digit first), and the k-ary n-tree
 * against XGFT(n−1; k…k; k…k). Bad parameters are refused with the rule
 * named. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- flattened butterfly ---- */

static void flatbutterfly_sweep(void **state)
{
    (void)state;
    static const int nk[][2] = { { 2, 2 }, { 2, 5 }, { 3, 3 }, { 3, 4 }, { 4, 2 }, { 4, 3 },
                                 { 5, 2 } };
    char spec[64];
    for (size_t i = 0; i < sizeof nk / sizeof *nk; i++) {
        int n = nk[i][0], k = nk[i][1], rows = 1;
        for (int j = 1; j < n; j++)
            rows *= k;
        snprintf(spec, sizeof spec, "flatbutterfly:n=%d,k=%d", n, k);
        tu_check_closed_forms(spec);
        /* Kim et al.: k^(n-1) routers of radix n(k-1)+1, k terminals each */
        moore_counts c = tu_counts(spec);
        assert_int_equal(c.switches, rows);
        assert_int_equal(c.degree_max + k, n * (k - 1) + 1);
        assert_int_equal(c.endpoints, rows * k);
        assert_int_equal(c.diameter, n - 1);
    }
    tu_check_closed_forms("flatbutterfly:n=3,k=4,radix=16");
    assert_int_equal(tu_counts("flatbutterfly:n=3,k=4,radix=16").endpoints, 16 * 10);
}

static void flatbutterfly_is_hyperx(void **state)
{
    (void)state;
    static const int nk[][2] = { { 2, 4 }, { 3, 3 }, { 3, 4 }, { 4, 3 }, { 6, 2 } };
    char a_spec[64], b_spec[64];
    for (size_t i = 0; i < sizeof nk / sizeof *nk; i++) {
        snprintf(a_spec, sizeof a_spec, "flatbutterfly:n=%d,k=%d", nk[i][0], nk[i][1]);
        snprintf(b_spec, sizeof b_spec, "hyperx:L=%d,S=%d", nk[i][0] - 1, nk[i][1]);
        moore_graph *a = tu_build(a_spec), *b = tu_build(b_spec);
        tu_assert_isomorphic(a, b);
        moore_graph_free(a);
        moore_graph_free(b);
    }
}

static void flatbutterfly_refuses(void **state)
{
    (void)state;
    tu_expect_refused("flatbutterfly:n=3", "n= and k= are required");
    tu_expect_refused("flatbutterfly:n=1,k=4", "n=1");
    tu_expect_refused("flatbutterfly:n=3,k=1", "k=1");
    tu_expect_refused("flatbutterfly:n=30,k=64", "exceeds");
    tu_expect_refused("flatbutterfly:n=3,k=4,radix=6", "radix=6");
}

/* ---- k-ary n-tree ---- */

static void karyntree_sweep(void **state)
{
    (void)state;
    static const int kn[][2] = { { 2, 2 }, { 2, 3 }, { 2, 5 }, { 3, 2 }, { 3, 3 }, { 4, 3 } };
    char spec[64];
    for (size_t i = 0; i < sizeof kn / sizeof *kn; i++) {
        int k = kn[i][0], n = kn[i][1], per = 1;
        for (int j = 1; j < n; j++)
            per *= k;
        snprintf(spec, sizeof spec, "karyntree:k=%d,n=%d", k, n);
        tu_check_closed_forms(spec);
        /* Petrini & Vanneschi: n·k^(n-1) switches, k^n processors, (n-1)·k^n links */
        moore_counts c = tu_counts(spec);
        assert_int_equal(c.switches, n * per);
        assert_int_equal(c.endpoints, per * k);
        assert_int_equal(c.links, (n - 1) * per * k);
        assert_int_equal(c.diameter, 2 * (n - 1));
    }
    tu_check_closed_forms("karyntree:k=4,n=3,p=1");
}

/* ⟨w, l⟩ by brute force: words of n−1 digits written most significant first,
 * levels counted from the root (l = 0) down; linked iff the levels are
 * adjacent and the words agree except in the digit between them. */
static moore_graph *karyntree_reference(int k, int n)
{
    int per = 1;
    for (int j = 1; j < n; j++)
        per *= k;
    moore_builder *b;
    moore_error err;
    moore_error_clear(&err);
    assert_int_equal(moore_builder_new(n * per, 0, &b, &err), MOORE_OK);
    int *du = malloc(sizeof *du * (size_t)n), *dv = malloc(sizeof *dv * (size_t)n);
    for (int l = 0; l + 1 < n; l++)
        for (int u = 0; u < per; u++)
            for (int v = 0; v < per; v++) {
                for (int j = n - 2, x = u, y = v; j >= 0; j--, x /= k, y /= k) {
                    du[j] = x % k;
                    dv[j] = y % k;
                }
                int agree = 1;
                for (int j = 0; j < n - 1; j++)
                    if (j != l && du[j] != dv[j])
                        agree = 0;
                if (agree)
                    assert_int_equal(moore_builder_add_link(b, l * per + u, (l + 1) * per + v,
                                                            &err), MOORE_OK);
            }
    free(du);
    free(dv);
    moore_graph *g = NULL;
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_OK);
    return g;
}

static void karyntree_independent(void **state)
{
    (void)state;
    static const int kn[][2] = { { 2, 2 }, { 2, 4 }, { 3, 3 }, { 4, 3 } };
    for (size_t i = 0; i < sizeof kn / sizeof *kn; i++) {
        char spec[64], xgft[160] = "", m[48] = "";
        int k = kn[i][0], n = kn[i][1];
        snprintf(spec, sizeof spec, "karyntree:k=%d,n=%d", k, n);
        moore_graph *g = tu_build(spec), *ref = karyntree_reference(k, n);
        tu_assert_isomorphic(g, ref);
        /* = XGFT(n−1; k…k; k…k) */
        for (int j = 0; j < n - 1; j++)
            snprintf(m + strlen(m), sizeof m - strlen(m), "%s%d", j ? "." : "", k);
        snprintf(xgft, sizeof xgft, "xgft:h=%d,m=%s,w=%s", n - 1, m, m);
        moore_graph *x = tu_build(xgft);
        tu_assert_isomorphic(g, x);
        /* endpoints only on the k^(n-1) leaves (numbered first), k each, and
         * a leaf has k links up */
        for (int32_t v = 0; v < g->n; v++) {
            assert_int_equal(g->endpoints[v], v < g->n / n ? k : 0);
            if (v < g->n / n)
                assert_int_equal(moore_graph_degree(g, v), k);
        }
        moore_graph_free(x);
        moore_graph_free(g);
        moore_graph_free(ref);
    }
}

static void karyntree_refuses(void **state)
{
    (void)state;
    tu_expect_refused("karyntree:k=4", "k= and n= are required");
    tu_expect_refused("karyntree:k=1,n=3", "k=1");
    tu_expect_refused("karyntree:k=4,n=1", "n=1");
    tu_expect_refused("karyntree:k=64,n=6", "exceeds");
    tu_expect_refused("karyntree:k=4,n=3,radix=8", "radix");
}

/* ---- XGFT ---- */

static void xgft_sweep(void **state)
{
    (void)state;
    static const char *specs[] = { "xgft:h=1,m=4,w=2",        "xgft:h=2,m=3.2,w=1.2",
                                   "xgft:h=2,m=4.4,w=2.3",    "xgft:h=3,m=2.3.2,w=2.1.3",
                                   "xgft:h=3,m=2.2.2,w=2.2.2", "xgft:h=2,m=2.5,w=1.1" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        tu_check_closed_forms(specs[i]);
    /* XGFT(2; 3,2; 1,2): levels of 6, 2 and 2 switches; 6·1 + 2·2 links */
    moore_counts c = tu_counts("xgft:h=2,m=3.2,w=1.2");
    assert_int_equal(c.switches, 10);
    assert_int_equal(c.links, 10);
    assert_int_equal(c.endpoints, 6);
    assert_int_equal(c.diameter, 4);
}

/* The full-radix 2-level XGFT is the 3-level k-ary fat-tree. */
static void xgft_is_fattree(void **state)
{
    (void)state;
    for (int k = 4; k <= 8; k += 2) {
        char a_spec[64], b_spec[64];
        snprintf(a_spec, sizeof a_spec, "xgft:h=2,m=%d.%d,w=%d.%d", k / 2, k, k / 2, k / 2);
        snprintf(b_spec, sizeof b_spec, "fattree:k=%d", k);
        moore_graph *a = tu_build(a_spec), *b = tu_build(b_spec);
        tu_assert_isomorphic(a, b);
        assert_int_equal(moore_graph_endpoints_total(a), moore_graph_endpoints_total(b));
        moore_graph_free(a);
        moore_graph_free(b);
    }
}

/* Öhring et al.'s tuples by brute force: a level-i switch is
 * (a_h … a_{i+1}, b_i … b_1), written most significant (digit h) first;
 * level i and i+1 switches are linked iff they agree in every digit but
 * digit i+1. */
static moore_graph *xgft_reference(int h, const int *m, const int *w)
{
    int size[8], start[9] = { 0 }, digits[2][8];
    for (int i = 0; i <= h; i++) {
        size[i] = 1;
        for (int j = 1; j <= h; j++)
            size[i] *= j <= i ? w[j] : m[j];
        start[i + 1] = start[i] + size[i];
    }
    moore_builder *b;
    moore_error err;
    moore_error_clear(&err);
    assert_int_equal(moore_builder_new(start[h + 1], 0, &b, &err), MOORE_OK);
    for (int i = 0; i < h; i++)
        for (int x = 0; x < size[i]; x++)
            for (int y = 0; y < size[i + 1]; y++) {
                for (int s = 0; s < 2; s++) /* decode x (level i) and y (level i+1) */
                    for (int j = 1, v = s ? y : x; j <= h; j++) {
                        int r = j <= i + s ? w[j] : m[j];
                        int weight = 1;
                        for (int jj = j + 1; jj <= h; jj++)
                            weight *= jj <= i + s ? w[jj] : m[jj];
                        digits[s][j - 1] = v / weight % r;
                    }
                int agree = 1;
                for (int j = 1; j <= h; j++)
                    if (j != i + 1 && digits[0][j - 1] != digits[1][j - 1])
                        agree = 0;
                if (agree)
                    assert_int_equal(moore_builder_add_link(b, start[i] + x, start[i + 1] + y,
                                                            &err), MOORE_OK);
            }
    moore_graph *g = NULL;
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_OK);
    return g;
}

static void xgft_independent(void **state)
{
    (void)state;
    static const struct { const char *spec; int h, m[4], w[4]; } cases[] = {
        { "xgft:h=2,m=3.2,w=1.2", 2, { 0, 3, 2 }, { 0, 1, 2 } },
        { "xgft:h=3,m=2.3.2,w=2.1.3", 3, { 0, 2, 3, 2 }, { 0, 2, 1, 3 } },
        { "xgft:h=2,m=4.2,w=3.2", 2, { 0, 4, 2 }, { 0, 3, 2 } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        moore_graph *g = tu_build(cases[i].spec);
        moore_graph *ref = xgft_reference(cases[i].h, cases[i].m, cases[i].w);
        tu_assert_isomorphic(g, ref);
        moore_graph_free(g);
        moore_graph_free(ref);
    }
}

static void xgft_refuses(void **state)
{
    (void)state;
    tu_expect_refused("xgft:m=4,w=4", "h= is required");
    tu_expect_refused("xgft:h=2,w=4.4", "m= is required");
    tu_expect_refused("xgft:h=2,m=4.4,w=4", "fewer than h=2");
    tu_expect_refused("xgft:h=2,m=4.4.4,w=4.4", "more than h=2");
    tu_expect_refused("xgft:h=2,m=4.1,w=4.4", "entry 2 of m=4.1 is 1");
    tu_expect_refused("xgft:h=2,m=4.4,w=0.4", "entry 1 of w=0.4 is 0");
    tu_expect_refused("xgft:h=2,m=4..4,w=4.4", "not a list");
    tu_expect_refused("xgft:h=2,m=10000.10000,w=10.10", "exceed");
}

static void tree_planners(void **state)
{
    (void)state;
    tu_check_planner("flatbutterfly", 12, 0, 5000);
    tu_check_planner("flatbutterfly", 12, 1000, 5000);
    tu_check_planner("karyntree", 8, 0, 5000);
    tu_check_planner("karyntree", 8, 3000, 5000);
    tu_check_planner("xgft", 12, 0, 5000);
    tu_check_planner("xgft", 12, 20000, 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flatbutterfly_sweep),   cmocka_unit_test(flatbutterfly_is_hyperx),
        cmocka_unit_test(flatbutterfly_refuses), cmocka_unit_test(karyntree_sweep),
        cmocka_unit_test(karyntree_independent), cmocka_unit_test(karyntree_refuses),
        cmocka_unit_test(xgft_sweep),            cmocka_unit_test(xgft_is_fattree),
        cmocka_unit_test(xgft_independent),      cmocka_unit_test(xgft_refuses),
        cmocka_unit_test(tree_planners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
