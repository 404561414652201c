/* test_words.c — the Kautz graph and the arrangement graph, the families
 * whose switches are words.
 *
 * Closed forms over sweeps (diameter by the BFS of testutil.c), and each
 * family against an independent construction written here and compared by
 * nauty isomorphism: K(b, n) as the iterated line digraph of the complete
 * digraph on b+1 vertices (its arcs become the next graph's switches), made
 * undirected and simple; A(n, k) from its k-permutations listed in
 * lexicographic order, linked by brute force over all pairs when they
 * differ in exactly one position. Bad parameters are refused with the rule
 * named. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Kautz ---- */

static void kautz_sweep(void **state)
{
    (void)state;
    static const int bn[][2] = { { 2, 1 }, { 2, 2 }, { 2, 3 }, { 2, 5 }, { 3, 1 }, { 3, 3 },
                                 { 4, 3 }, { 5, 2 } };
    char spec[64];
    for (size_t i = 0; i < sizeof bn / sizeof *bn; i++) {
        int b = bn[i][0], n = bn[i][1], size = b + 1;
        for (int j = 1; j < n; j++)
            size *= b;
        snprintf(spec, sizeof spec, "kautz:b=%d,n=%d", b, n);
        tu_check_closed_forms(spec);
        moore_counts c = tu_counts(spec);
        assert_int_equal(c.switches, size);
        assert_int_equal(c.diameter, n);
        assert_int_equal(c.degree_max, n == 1 ? b : n == 2 ? 2 * b - 1 : 2 * b);
    }
    /* (b+1)b^n arcs, the (b+1)b/2 two-way pairs counted once */
    assert_int_equal(tu_counts("kautz:b=3,n=3").links, 4 * 27 - 6);
    assert_int_equal(tu_counts("kautz:b=3,n=3,radix=8").endpoints, 36 * 2);
}

/* The line digraph of arcs[0..m): its vertices are the arcs, and arc e = u→v
 * leads to every arc v→w. Returns the new arc list (caller frees). */
static int32_t (*line_digraph(int32_t (*arcs)[2], int64_t m, int32_t nv, int64_t *out_m))[2]
{
    int64_t *first = calloc((size_t)nv + 1, sizeof *first);
    for (int64_t e = 0; e < m; e++)
        first[arcs[e][0] + 1]++;
    for (int32_t v = 0; v < nv; v++)
        first[v + 1] += first[v];
    /* arcs come grouped by tail (the complete digraph and every line digraph here) */
    int64_t total = 0;
    for (int64_t e = 0; e < m; e++)
        total += first[arcs[e][1] + 1] - first[arcs[e][1]];
    int32_t (*next)[2] = malloc(sizeof *next * (size_t)total);
    int64_t k = 0;
    for (int64_t e = 0; e < m; e++)
        for (int64_t f = first[arcs[e][1]]; f < first[arcs[e][1] + 1]; f++) {
            next[k][0] = (int32_t)e;
            next[k][1] = (int32_t)f;
            k++;
        }
    free(first);
    *out_m = total;
    return next;
}

static int cmp_pair(const void *a, const void *b)
{
    const int32_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

static moore_graph *kautz_reference(int b, int n)
{
    int32_t nv = b + 1;
    int64_t m = 0;
    int32_t (*arcs)[2] = malloc(sizeof *arcs * (size_t)(nv * b));
    for (int32_t u = 0; u < nv; u++) /* complete digraph, grouped by tail */
        for (int32_t v = 0; v < nv; v++)
            if (u != v) {
                arcs[m][0] = u;
                arcs[m][1] = v;
                m++;
            }
    for (int level = 1; level < n; level++) {
        int64_t m2;
        int32_t (*next)[2] = line_digraph(arcs, m, nv, &m2);
        free(arcs);
        arcs = next;
        nv = (int32_t)m;
        m = m2;
    }
    for (int64_t e = 0; e < m; e++) /* undirected: smaller end first, then dedupe */
        if (arcs[e][0] > arcs[e][1]) {
            int32_t t = arcs[e][0];
            arcs[e][0] = arcs[e][1];
            arcs[e][1] = t;
        }
    qsort(arcs, (size_t)m, sizeof *arcs, cmp_pair);
    moore_builder *bld;
    moore_error err;
    moore_error_clear(&err);
    assert_int_equal(moore_builder_new(nv, m, &bld, &err), MOORE_OK);
    for (int64_t e = 0; e < m; e++)
        if (e == 0 || cmp_pair(arcs[e], arcs[e - 1]) != 0)
            assert_int_equal(moore_builder_add_link(bld, arcs[e][0], arcs[e][1], &err),
                             MOORE_OK);
    free(arcs);
    moore_graph *g = NULL;
    assert_int_equal(moore_builder_finish(bld, &g, &err), MOORE_OK);
    return g;
}

static void kautz_independent(void **state)
{
    (void)state;
    static const int bn[][2] = { { 2, 1 }, { 2, 2 }, { 2, 4 }, { 3, 3 }, { 4, 2 } };
    for (size_t i = 0; i < sizeof bn / sizeof *bn; i++) {
        char spec[64];
        snprintf(spec, sizeof spec, "kautz:b=%d,n=%d", bn[i][0], bn[i][1]);
        moore_graph *g = tu_build(spec), *ref = kautz_reference(bn[i][0], bn[i][1]);
        tu_assert_isomorphic(g, ref);
        moore_graph_free(g);
        moore_graph_free(ref);
    }
}

static void kautz_refuses(void **state)
{
    (void)state;
    tu_expect_refused("kautz:b=2", "b= and n= are required");
    tu_expect_refused("kautz:b=1,n=3", "b=1");
    tu_expect_refused("kautz:b=2,n=0", "n=0");
    tu_expect_refused("kautz:b=10,n=10", "exceeds");
    tu_expect_refused("kautz:b=3,n=3,radix=6", "radix=6");
}

/* ---- arrangement ---- */

static void arrangement_sweep(void **state)
{
    (void)state;
    char spec[64];
    for (int n = 2; n <= 7; n++)
        for (int k = 1; k < n; k++) {
            int64_t size = 1;
            for (int i = 0; i < k; i++)
                size *= n - i;
            if (size > 1000)
                continue;
            snprintf(spec, sizeof spec, "arrangement:n=%d,k=%d", n, k);
            tu_check_closed_forms(spec);
            moore_counts c = tu_counts(spec);
            assert_int_equal(c.switches, size);
            assert_int_equal(c.degree_min, k * (n - k));
        }
    /* Day & Tripathi: A(n,1) = K_n (diameter 1), A(n,n-1) = star graph S_n
     * of diameter ⌊3(n−1)/2⌋ */
    assert_int_equal(tu_counts("arrangement:n=6,k=1").diameter, 1);
    assert_int_equal(tu_counts("arrangement:n=6,k=5").diameter, 7);
    assert_int_equal(tu_counts("arrangement:n=5,k=2,radix=10").endpoints, 20 * 4);
}

/* k-permutations of {0..n−1} in lexicographic order into perms[count][k]. */
static int list_perms(int n, int k, int depth, int *cur, char *used, int *perms, int count)
{
    if (depth == k) {
        memcpy(perms + (size_t)count * (size_t)k, cur, sizeof *cur * (size_t)k);
        return count + 1;
    }
    for (int s = 0; s < n; s++)
        if (!used[s]) {
            used[s] = 1;
            cur[depth] = s;
            count = list_perms(n, k, depth + 1, cur, used, perms, count);
            used[s] = 0;
        }
    return count;
}

static moore_graph *arrangement_reference(int n, int k)
{
    int size = 1;
    for (int i = 0; i < k; i++)
        size *= n - i;
    int *perms = malloc(sizeof *perms * (size_t)size * (size_t)k), cur[16];
    char used[16] = { 0 };
    assert_int_equal(list_perms(n, k, 0, cur, used, perms, 0), size);
    moore_builder *b;
    moore_error err;
    moore_error_clear(&err);
    assert_int_equal(moore_builder_new(size, 0, &b, &err), MOORE_OK);
    for (int u = 0; u < size; u++)
        for (int v = u + 1; v < size; v++) {
            int diff = 0;
            for (int i = 0; i < k; i++)
                diff += perms[u * k + i] != perms[v * k + i];
            if (diff == 1)
                assert_int_equal(moore_builder_add_link(b, u, v, &err), MOORE_OK);
        }
    free(perms);
    moore_graph *g = NULL;
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_OK);
    return g;
}

static void arrangement_independent(void **state)
{
    (void)state;
    static const int nk[][2] = { { 4, 2 }, { 5, 2 }, { 5, 3 }, { 6, 2 }, { 6, 4 } };
    for (size_t i = 0; i < sizeof nk / sizeof *nk; i++) {
        char spec[64];
        snprintf(spec, sizeof spec, "arrangement:n=%d,k=%d", nk[i][0], nk[i][1]);
        moore_graph *g = tu_build(spec), *ref = arrangement_reference(nk[i][0], nk[i][1]);
        tu_assert_isomorphic(g, ref);
        moore_graph_free(g);
        moore_graph_free(ref);
    }
}

static void arrangement_refuses(void **state)
{
    (void)state;
    tu_expect_refused("arrangement:n=5", "n= and k= are required");
    tu_expect_refused("arrangement:n=5,k=5", "k=5 must be below n=5");
    tu_expect_refused("arrangement:n=5,k=0", "k=0");
    tu_expect_refused("arrangement:n=1,k=1", "n=1");
    tu_expect_refused("arrangement:n=30,k=8", "exceeds");
    tu_expect_refused("arrangement:n=5,k=2,radix=6", "radix=6");
}

static void word_planners(void **state)
{
    (void)state;
    tu_check_planner("kautz", 12, 0, 5000);
    tu_check_planner("kautz", 12, 50000, 5000);
    tu_check_planner("arrangement", 12, 0, 5000);
    tu_check_planner("arrangement", 12, 50000, 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kautz_sweep),         cmocka_unit_test(kautz_independent),
        cmocka_unit_test(kautz_refuses),       cmocka_unit_test(arrangement_sweep),
        cmocka_unit_test(arrangement_independent), cmocka_unit_test(arrangement_refuses),
        cmocka_unit_test(word_planners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
