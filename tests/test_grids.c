/* test_grids.c — hypercube, mesh and Tofu, the grid families (src/families/
 * grid.c) added beside the torus.
 *
 * Each built graph is held against its closed forms over a sweep (diameter by
 * the BFS of testutil.c), against an independent construction written here
 * from the papers' definitions (hypercube: recursive doubling Q_n = Q_{n−1} ×
 * K_2 in Gray-code order; mesh: coordinates compared by |Δ| = 1 in one
 * dimension; Tofu: the 6-D neighbour rule with the unit's A, B, C dims) by
 * nauty isomorphism, and the hypercube against its spectrum n − 2i with
 * multiplicity C(n, i). Bad parameters are refused with the rule named. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- hypercube ---- */

static void hypercube_sweep(void **state)
{
    (void)state;
    char spec[64];
    for (int n = 1; n <= 9; n++) {
        snprintf(spec, sizeof spec, "hypercube:n=%d", n);
        tu_check_closed_forms(spec);
        moore_counts c = tu_counts(spec);
        assert_int_equal(c.switches, 1 << n);
        assert_int_equal(c.links, n << (n - 1));
        assert_int_equal(c.degree_min, n);
        assert_int_equal(c.diameter, n);
        assert_int_equal(c.endpoints, 1 << n); /* p = 1 */
    }
    tu_check_closed_forms("hypercube:n=5,radix=8");
    assert_int_equal(tu_counts("hypercube:n=5,radix=8").endpoints, 32 * 3);
}

/* Q_n by recursive doubling: two copies of Q_{n−1}, the second in reverse
 * order (the reflected Gray code), with switch i of the first copy linked to
 * its mirror 2^n − 1 − i. */
static moore_graph *hypercube_doubling(int n)
{
    int32_t size = 1;
    moore_builder *b;
    moore_error err;
    moore_error_clear(&err);
    assert_int_equal(moore_builder_new(1 << n, (int64_t)n << (n - 1), &b, &err), MOORE_OK);
    int32_t (*links)[2] = malloc(sizeof *links * (size_t)(n << (n - 1)));
    int64_t m = 0;
    for (int level = 0; level < n; level++, size *= 2) {
        int64_t old = m;
        for (int64_t e = 0; e < old; e++) { /* the mirrored copy */
            links[m][0] = 2 * size - 1 - links[e][0];
            links[m][1] = 2 * size - 1 - links[e][1];
            m++;
        }
        for (int32_t i = 0; i < size; i++) { /* rungs between the copies */
            links[m][0] = i;
            links[m][1] = 2 * size - 1 - i;
            m++;
        }
    }
    for (int64_t e = 0; e < m; e++)
        assert_int_equal(moore_builder_add_link(b, links[e][0], links[e][1], &err), MOORE_OK);
    free(links);
    moore_graph *g = NULL;
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_OK);
    return g;
}

static void hypercube_independent(void **state)
{
    (void)state;
    char spec[64];
    for (int n = 1; n <= 7; n++) {
        snprintf(spec, sizeof spec, "hypercube:n=%d", n);
        moore_graph *a = tu_build(spec), *b = hypercube_doubling(n);
        tu_assert_isomorphic(a, b);
        /* and the XOR rule on moore's numbering */
        for (int32_t v = 0; v < a->n; v++)
            for (int i = 0; i < n; i++)
                assert_true(moore_graph_has_link(a, v, v ^ (1 << i)));
        moore_graph_free(a);
        moore_graph_free(b);
    }
}

static double binomial(int n, int k)
{
    double r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

/* Adjacency spectrum of Q_n: n − 2i with multiplicity C(n, i). */
static void hypercube_spectrum(void **state)
{
    (void)state;
    for (int n = 2; n <= 7; n++) {
        char spec[64];
        snprintf(spec, sizeof spec, "hypercube:n=%d", n);
        moore_graph *g = tu_build(spec);
        moore_symmat m;
        moore_symmat_adjacency(g, &m);
        double *w = malloc((size_t)g->n * sizeof *w);
        moore_error err;
        moore_error_clear(&err);
        assert_int_equal(moore_eig_dense(&m, w, &err), MOORE_OK);
        int32_t at = 0; /* ascending: i = n first */
        for (int i = n; i >= 0; i--)
            for (int j = 0; j < (int)binomial(n, i); j++, at++)
                assert_true(fabs(w[at] - (n - 2 * i)) < 1e-8);
        assert_int_equal(at, g->n);
        free(w);
        moore_graph_free(g);
    }
}

static void hypercube_refuses(void **state)
{
    (void)state;
    tu_expect_refused("hypercube", "n= is required");
    tu_expect_refused("hypercube:n=0", "n=0");
    tu_expect_refused("hypercube:n=27", "n=27");
    tu_expect_refused("hypercube:n=4,radix=4", "radix=4");
    tu_expect_refused("hypercube:n=4,p=1,radix=9", "not both");
}

/* ---- mesh ---- */

static void mesh_sweep(void **state)
{
    (void)state;
    static const char *dims[] = { "2", "5", "2x2", "3x3", "4x7", "2x3x4", "5x5x5", "3x2x2x3" };
    char spec[64];
    for (size_t i = 0; i < sizeof dims / sizeof *dims; i++) {
        snprintf(spec, sizeof spec, "mesh:dims=%s", dims[i]);
        tu_check_closed_forms(spec);
    }
    /* 4x7: 28 switches, 3·7 + 4·6 = 45 links, degree 2..4, diameter 3 + 6 */
    moore_counts c = tu_counts("mesh:dims=4x7");
    assert_int_equal(c.switches, 28);
    assert_int_equal(c.links, 45);
    assert_int_equal(c.degree_min, 2);
    assert_int_equal(c.degree_max, 4);
    assert_int_equal(c.diameter, 9);
    c = tu_counts("mesh:dims=5x5x5,radix=8");
    assert_int_equal(c.endpoints, 125 * 2);
}

/* The mesh by its definition: coordinates (x_1 … x_d), linked iff they differ
 * by 1 in exactly one coordinate; numbered here with the last dimension
 * fastest (moore numbers the first fastest), compared by isomorphism. */
static void mesh_independent(void **state)
{
    (void)state;
    static const int shapes[][3] = { { 4, 7, 1 }, { 2, 3, 4 }, { 3, 3, 3 }, { 5, 2, 1 } };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        const int *d = shapes[s];
        int n = d[0] * d[1] * d[2];
        moore_builder *b;
        moore_error err;
        moore_error_clear(&err);
        assert_int_equal(moore_builder_new(n, 0, &b, &err), MOORE_OK);
        for (int u = 0; u < n; u++)
            for (int v = u + 1; v < n; v++) {
                int cu[3] = { u / (d[1] * d[2]), u / d[2] % d[1], u % d[2] };
                int cv[3] = { v / (d[1] * d[2]), v / d[2] % d[1], v % d[2] };
                int diff = 0, one = 1;
                for (int i = 0; i < 3; i++)
                    if (cu[i] != cv[i]) {
                        diff++;
                        one &= abs(cu[i] - cv[i]) == 1;
                    }
                if (diff == 1 && one)
                    assert_int_equal(moore_builder_add_link(b, u, v, &err), MOORE_OK);
            }
        moore_graph *ref = NULL;
        assert_int_equal(moore_builder_finish(b, &ref, &err), MOORE_OK);
        char spec[64];
        if (d[2] > 1)
            snprintf(spec, sizeof spec, "mesh:dims=%dx%dx%d", d[0], d[1], d[2]);
        else
            snprintf(spec, sizeof spec, "mesh:dims=%dx%d", d[0], d[1]);
        moore_graph *g = tu_build(spec);
        tu_assert_isomorphic(g, ref);
        moore_graph_free(g);
        moore_graph_free(ref);
    }
}

/* A mesh is the torus minus its wrap-around links: same switches, and a
 * dimension of size A >= 3 loses N/A links. */
static void mesh_is_torus_without_wrap(void **state)
{
    (void)state;
    moore_graph *m = tu_build("mesh:dims=5x4x3"), *t = tu_build("torus:dims=5x4x3");
    assert_int_equal(m->n, t->n);
    assert_int_equal(t->m - m->m, 60 / 5 + 60 / 4 + 60 / 3);
    for (int32_t v = 0; v < m->n; v++)
        for (int64_t e = m->offs[v]; e < m->offs[v + 1]; e++)
            assert_true(moore_graph_has_link(t, v, m->adj[e]));
    moore_graph_free(m);
    moore_graph_free(t);
}

static void mesh_refuses(void **state)
{
    (void)state;
    tu_expect_refused("mesh", "dims= is required");
    tu_expect_refused("mesh:dims=4x1", "dimension 2 of dims=4x1 is 1");
    tu_expect_refused("mesh:dims=4x", "not a list");
    tu_expect_refused("mesh:dims=10000x10000x10", "more than");
    tu_expect_refused("mesh:dims=4x4,radix=4", "radix=4");
}

/* ---- Tofu ---- */

static void tofu_sweep(void **state)
{
    (void)state;
    static const char *dims[] = { "1x1x1", "2x1x1", "3x1x1", "2x2x2", "3x3x3", "4x3x2" };
    char spec[64];
    for (size_t i = 0; i < sizeof dims / sizeof *dims; i++) {
        snprintf(spec, sizeof spec, "tofu:dims=%s", dims[i]);
        tu_check_closed_forms(spec);
    }
    /* Ajima et al.: 12 switches a unit, 10 links a switch, diameter
     * ⌊X/2⌋ + ⌊Y/2⌋ + ⌊Z/2⌋ + 1 + 1 + 1 */
    moore_counts c = tu_counts("tofu:dims=3x3x3");
    assert_int_equal(c.switches, 12 * 27);
    assert_int_equal(c.degree_min, 10);
    assert_int_equal(c.degree_max, 10);
    assert_int_equal(c.links, 12 * 27 * 10 / 2);
    assert_int_equal(c.diameter, 3 + 3);
    assert_int_equal(tu_counts("tofu:dims=1x1x1").degree_max, 4);
}

/* Tofu from its 6-D rule: switch (x, y, z, a, b, c), numbered here unit-first
 * (a, b, c fastest); neighbours ±1 in x, y, z (rings), a and c (paths of 2)
 * and b (a ring of 3). */
static moore_graph *tofu_reference(const int xyz[3])
{
    int dim[6] = { 2, 3, 2, xyz[0], xyz[1], xyz[2] }, ring[6] = { 0, 1, 0, 1, 1, 1 };
    int n = 1;
    for (int i = 0; i < 6; i++)
        n *= dim[i];
    moore_builder *b;
    moore_error err;
    moore_error_clear(&err);
    assert_int_equal(moore_builder_new(n, 0, &b, &err), MOORE_OK);
    for (int v = 0; v < n; v++) {
        int co[6], rest = v;
        for (int i = 0; i < 6; i++) {
            co[i] = rest % dim[i];
            rest /= dim[i];
        }
        for (int i = 0; i < 6; i++) {
            int up = co[i] + 1;
            if (up == dim[i]) {
                if (!ring[i] || dim[i] <= 2)
                    continue;
                up = 0;
            }
            int w = 0;
            for (int j = 5; j >= 0; j--)
                w = w * dim[j] + (j == i ? up : co[j]);
            assert_int_equal(moore_builder_add_link(b, v, w, &err), MOORE_OK);
        }
    }
    moore_graph *g = NULL;
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_OK);
    return g;
}

static void tofu_independent(void **state)
{
    (void)state;
    static const int shapes[][3] = { { 1, 1, 1 }, { 2, 3, 1 }, { 3, 3, 2 } };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        char spec[64];
        snprintf(spec, sizeof spec, "tofu:dims=%dx%dx%d", shapes[s][0], shapes[s][1],
                 shapes[s][2]);
        moore_graph *g = tu_build(spec), *ref = tofu_reference(shapes[s]);
        tu_assert_isomorphic(g, ref);
        moore_graph_free(g);
        moore_graph_free(ref);
    }
}

static void tofu_refuses(void **state)
{
    (void)state;
    tu_expect_refused("tofu", "dims= is required");
    tu_expect_refused("tofu:dims=4x4", "three torus dimensions");
    tu_expect_refused("tofu:dims=4x4x4x4", "more than 3 dimensions");
    tu_expect_refused("tofu:dims=4x0x4", "is 0");
    tu_expect_refused("tofu:dims=4x4x4,radix=10", "radix=10");
}

/* ---- planners ---- */

/* Every plan fits the radix; with a target, one reaches it. */
static void grid_planners(void **state)
{
    (void)state;
    tu_check_planner("hypercube", 12, 0, 5000);
    tu_check_planner("hypercube", 12, 2000, 5000); /* n = 11, p = 1 reaches it */
    tu_check_planner("mesh", 10, 0, 5000);
    tu_check_planner("mesh", 10, 100000, 5000);
    tu_check_planner("tofu", 14, 0, 5000);
    tu_check_planner("tofu", 14, 100000, 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hypercube_sweep),   cmocka_unit_test(hypercube_independent),
        cmocka_unit_test(hypercube_spectrum), cmocka_unit_test(hypercube_refuses),
        cmocka_unit_test(mesh_sweep),        cmocka_unit_test(mesh_independent),
        cmocka_unit_test(mesh_is_torus_without_wrap), cmocka_unit_test(mesh_refuses),
        cmocka_unit_test(tofu_sweep),        cmocka_unit_test(tofu_independent),
        cmocka_unit_test(tofu_refuses),      cmocka_unit_test(grid_planners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
