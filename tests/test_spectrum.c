/* test_spectrum.c — adjacency and Laplacian spectra against closed forms
 * (Petersen, K_n, Hoffman–Singleton, cycles, stars), and the dense
 * (LAPACKE) and Lanczos (ARPACK) paths against each other. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Counts entries of w within 1e-9 of x. */
static int count_near(const double *w, int n, double x)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += fabs(w[i] - x) < 1e-9;
    return c;
}

static double *full_spectrum(const moore_graph *g)
{
    moore_symmat a;
    moore_error err;
    double *w = malloc((size_t)g->n * sizeof *w);
    moore_symmat_adjacency(g, &a);
    assert_int_equal(moore_eig_dense(&a, w, &err), MOORE_OK);
    return w;
}

static moore_spectrum spectrum(const moore_graph *g, moore_eig_method m)
{
    moore_spectrum s;
    moore_error err;
    moore_error_clear(&err);
    if (moore_spectrum_compute(g, NULL, m, &s, &err) != MOORE_OK) {
        print_error("spectrum failed: %s\n", err.msg);
        fail();
    }
    return s;
}

/* Petersen 3, 1 (×5), −2 (×4); K_n n−1, −1 (×n−1); Hoffman–Singleton 7,
 * 2 (×28), −3 (×21): the spectra of strongly regular graphs. */
static void known_spectra(void **state)
{
    (void)state;
    struct { const char *spec; double val[3]; int mult[3]; } cases[] = {
        { "petersen", { 3, 1, -2 }, { 1, 5, 4 } },
        { "complete:n=12", { 11, -1, -1 }, { 1, 11, 11 } },
        { "hoffman-singleton", { 7, 2, -3 }, { 1, 28, 21 } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        moore_graph *g = tu_build(cases[i].spec);
        double *w = full_spectrum(g);
        for (int j = 0; j < 3; j++)
            assert_int_equal(count_near(w, g->n, cases[i].val[j]), cases[i].mult[j]);
        for (int j = 1; j < g->n; j++)
            assert_true(w[j - 1] <= w[j]);
        moore_spectrum s = spectrum(g, MOORE_EIG_AUTO);
        assert_true(fabs(s.lambda1 - cases[i].val[0]) < 1e-9);
        assert_true(fabs(s.lambda2 - cases[i].val[1]) < 1e-9);
        assert_true(fabs(s.lambda_min - cases[i].val[2]) < 1e-9);
        assert_true(fabs(s.spectral_gap - (cases[i].val[0] - cases[i].val[1])) < 1e-9);
        assert_true(fabs(s.lambda_nontrivial -
                         fmax(fabs(cases[i].val[1]), fabs(cases[i].val[2]))) < 1e-9);
        assert_true(fabs(s.ramanujan_bound - 2 * sqrt(cases[i].val[0] - 1)) < 1e-12);
        assert_true(s.is_ramanujan);
        /* Regular: the Laplacian spectrum is d − spec(A). */
        assert_true(fabs(s.algebraic_connectivity - (cases[i].val[0] - cases[i].val[1])) < 1e-9);
        free(w);
        moore_graph_free(g);
    }
}

static moore_graph *from_links(int32_t n, const int32_t (*links)[2], int64_t m)
{
    moore_builder *b;
    moore_error err;
    moore_graph *g;
    assert_int_equal(moore_builder_new(n, m, &b, &err), MOORE_OK);
    for (int64_t i = 0; i < m; i++)
        assert_int_equal(moore_builder_add_link(b, links[i][0], links[i][1], &err), MOORE_OK);
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_OK);
    return g;
}

static moore_graph *cycle(int32_t n)
{
    int32_t (*l)[2] = malloc((size_t)n * sizeof *l);
    for (int32_t i = 0; i < n; i++) {
        l[i][0] = i;
        l[i][1] = (i + 1) % n;
    }
    moore_graph *g = from_links(n, (const int32_t(*)[2])l, n);
    free(l);
    return g;
}

/* C_n has eigenvalues 2cos(2πj/n): λ₂ = 2cos(2π/n); λ_N = −2 for even n
 * (bipartite: trivial, so λ_nontrivial = λ₂) and −2cos(π/n) for odd n. */
static void cycles_both_paths(void **state)
{
    (void)state;
    const double pi = acos(-1.0);
    for (int32_t n = 100; n <= 101; n++) {
        moore_graph *g = cycle(n);
        for (int m = MOORE_EIG_DENSE; m <= MOORE_EIG_ARPACK; m++) {
            moore_spectrum s = spectrum(g, (moore_eig_method)m);
            assert_int_equal(s.method, m);
            assert_int_equal(s.bipartite, n % 2 == 0);
            assert_true(fabs(s.lambda1 - 2) < 1e-9);
            assert_true(fabs(s.lambda2 - 2 * cos(2 * pi / n)) < 1e-8);
            double bottom = n % 2 ? -2 * cos(pi / n) : -2.0;
            assert_true(fabs(s.lambda_min - bottom) < 1e-8);
            double nt = n % 2 ? fmax(2 * cos(2 * pi / n), 2 * cos(pi / n)) : 2 * cos(2 * pi / n);
            assert_true(fabs(s.lambda_nontrivial - nt) < 1e-8);
            assert_true(fabs(s.algebraic_connectivity - (2 - 2 * cos(2 * pi / n))) < 1e-8);
        }
        moore_graph_free(g);
    }
}

/* The star K_{1,m}: adjacency ±√m and 0 (×m−1), Laplacian 0, 1 (×m−1), m+1.
 * Not regular and bipartite: λ_nontrivial = 0, bound 2√(m−1) (max degree). */
static void star_not_regular(void **state)
{
    (void)state;
    const int32_t m = 40;
    int32_t (*l)[2] = malloc((size_t)m * sizeof *l);
    for (int32_t i = 0; i < m; i++) {
        l[i][0] = 0;
        l[i][1] = i + 1;
    }
    moore_graph *g = from_links(m + 1, (const int32_t(*)[2])l, m);
    free(l);
    for (int meth = MOORE_EIG_DENSE; meth <= MOORE_EIG_ARPACK; meth++) {
        moore_spectrum s = spectrum(g, (moore_eig_method)meth);
        assert_false(s.regular);
        assert_true(s.bipartite);
        assert_true(fabs(s.lambda1 - sqrt(m)) < 1e-8);
        assert_true(fabs(s.lambda_min + sqrt(m)) < 1e-8);
        assert_true(fabs(s.lambda2) < 1e-8);
        assert_true(fabs(s.lambda_nontrivial) < 1e-8);
        assert_true(fabs(s.ramanujan_bound - 2 * sqrt(m - 1)) < 1e-12);
        assert_true(fabs(s.algebraic_connectivity - 1) < 1e-8);
    }
    moore_graph_free(g);
}

/* A graph whose every parameter differs: random links on 300 switches. */
static moore_graph *random_graph(int32_t n, int64_t m, uint64_t seed, int bipartite)
{
    moore_rng r;
    moore_rng_seed(&r, seed);
    moore_builder *b;
    moore_error err;
    moore_graph *g;
    assert_int_equal(moore_builder_new(n, m, &b, &err), MOORE_OK);
    char *seen = calloc((size_t)n * (size_t)n, 1);
    for (int32_t i = 1; i < n; i++) { /* a spanning tree keeps it connected */
        int32_t j = (int32_t)moore_rng_below(&r, (uint64_t)i);
        if (bipartite && (i - j) % 2 == 0)
            j = j > 0 ? j - 1 : j + 1;
        if (j >= i)
            j = i - 1;
        seen[(size_t)i * n + j] = seen[(size_t)j * n + i] = 1;
        assert_int_equal(moore_builder_add_link(b, i, j, &err), MOORE_OK);
    }
    for (int64_t e = n - 1; e < m;) {
        int32_t u = (int32_t)moore_rng_below(&r, (uint64_t)n);
        int32_t v = (int32_t)moore_rng_below(&r, (uint64_t)n);
        if (u == v || seen[(size_t)u * n + v] || (bipartite && (u - v) % 2 == 0))
            continue;
        seen[(size_t)u * n + v] = seen[(size_t)v * n + u] = 1;
        assert_int_equal(moore_builder_add_link(b, u, v, &err), MOORE_OK);
        e++;
    }
    free(seen);
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_OK);
    return g;
}

static void assert_close(double a, double b)
{
    if (!(fabs(a - b) <= 1e-8)) {
        print_error("dense %.15g vs ARPACK %.15g\n", a, b);
        fail();
    }
}

/* Both solvers on the same graphs: regular, bipartite regular, not regular,
 * not regular and bipartite. */
static void dense_and_arpack_agree(void **state)
{
    (void)state;
    moore_graph *gs[8];
    gs[0] = tu_build("jellyfish:n=300,d=7,seed=3");
    gs[1] = tu_build("xpander:d=6,k=40,seed=2");
    gs[2] = tu_build("xpander:meta=petersen,k=20,intra=clique");
    gs[3] = random_graph(300, 1200, 5, 0);
    gs[4] = random_graph(280, 900, 6, 1);
    gs[5] = tu_build("hoffman-singleton");
    /* a regular bipartite graph: the bipartite double cover of a Jellyfish */
    {
        moore_graph *j = tu_build("jellyfish:n=150,d=5,seed=4");
        int8_t *minus = malloc((size_t)j->m);
        moore_error err;
        memset(minus, -1, (size_t)j->m);
        assert_int_equal(moore_lift_build(j, minus, &gs[6], &err), MOORE_OK);
        free(minus);
        moore_graph_free(j);
    }
    gs[7] = tu_build("complete:n=30"); /* every non-trivial eigenvalue is −1 */
    for (int i = 0; i < 8; i++) {
        moore_spectrum d = spectrum(gs[i], MOORE_EIG_DENSE);
        moore_spectrum a = spectrum(gs[i], MOORE_EIG_ARPACK);
        assert_int_equal(d.method, MOORE_EIG_DENSE);
        assert_int_equal(a.method, MOORE_EIG_ARPACK);
        assert_int_equal(d.bipartite, i == 4 || i == 6);
        assert_close(d.lambda1, a.lambda1);
        assert_close(d.lambda2, a.lambda2);
        assert_close(d.lambda_min, a.lambda_min);
        assert_close(d.spectral_gap, a.spectral_gap);
        assert_close(d.lambda_nontrivial, a.lambda_nontrivial);
        assert_close(d.algebraic_connectivity, a.algebraic_connectivity);
        assert_int_equal(d.is_ramanujan, a.is_ramanujan);
        /* and the dense values are the full spectrum's */
        double *w = full_spectrum(gs[i]);
        int32_t n = gs[i]->n;
        assert_true(fabs(d.lambda2 - w[n - 2]) < 1e-12);
        assert_true(fabs(d.lambda_min - w[0]) < 1e-12);
        free(w);
        moore_graph_free(gs[i]);
    }
}

/* moore_eig_extremes and moore_eig_arpack with a signed matrix. */
static void extremes_of_signed_matrix(void **state)
{
    (void)state;
    moore_graph *g = tu_build("jellyfish:n=200,d=6,seed=9");
    double *val = malloc((size_t)(2 * g->m) * sizeof *val);
    /* A symmetric signing: sign of link u–v from (u + v) parity. */
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            val[k] = (u + g->adj[k]) % 3 ? 1.0 : -1.0;
    moore_symmat a;
    moore_symmat_adjacency(g, &a);
    a.val = val;
    double *w = malloc((size_t)g->n * sizeof *w), *vlo = malloc((size_t)g->n * sizeof *vlo);
    double *vhi = malloc((size_t)g->n * sizeof *vhi), *y = malloc((size_t)g->n * sizeof *y);
    moore_error err;
    assert_int_equal(moore_eig_dense(&a, w, &err), MOORE_OK);
    for (int m = MOORE_EIG_DENSE; m <= MOORE_EIG_ARPACK; m++) {
        double lo, hi;
        assert_int_equal(moore_eig_extremes(&a, (moore_eig_method)m, &lo, &hi, vlo, vhi, &err),
                         MOORE_OK);
        assert_true(fabs(lo - w[0]) < 1e-8);
        assert_true(fabs(hi - w[g->n - 1]) < 1e-8);
        /* the vectors are unit eigenvectors: ‖Mx − λx‖ small */
        moore_symmat_apply(&a, vhi, y);
        double r = 0, nrm = 0;
        for (int32_t i = 0; i < g->n; i++) {
            r += (y[i] - hi * vhi[i]) * (y[i] - hi * vhi[i]);
            nrm += vhi[i] * vhi[i];
        }
        assert_true(sqrt(r) < 1e-6);
        assert_true(fabs(nrm - 1) < 1e-8);
    }
    double v3[3];
    assert_int_equal(moore_eig_arpack(&a, "LA", 3, NULL, 0, 0.0, v3, NULL, &err), MOORE_OK);
    for (int i = 0; i < 3; i++)
        assert_true(fabs(v3[i] - w[g->n - 3 + i]) < 1e-8);
    assert_int_equal(moore_eig_arpack(&a, "XX", 1, NULL, 0, 0.0, v3, NULL, &err), MOORE_EINVAL);
    assert_int_equal(moore_eig_arpack(&a, "LA", 199, NULL, 0, 0.0, v3, NULL, &err), MOORE_EINVAL);
    free(val);
    free(w);
    free(vlo);
    free(vhi);
    free(y);
    moore_graph_free(g);
}

/* Disconnected: λ₂ = λ₁ = d, a(G) = 0, not Ramanujan. Tiny graphs: nulls. */
static void degenerate_graphs(void **state)
{
    (void)state;
    const int32_t two_petersens[][2] = {
        { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 }, { 4, 0 }, { 0, 5 }, { 1, 6 }, { 2, 7 },
        { 3, 8 }, { 4, 9 }, { 5, 7 }, { 7, 9 }, { 9, 6 }, { 6, 8 }, { 8, 5 },
    };
    int32_t l[30][2];
    for (int i = 0; i < 15; i++)
        for (int c = 0; c < 2; c++) {
            l[i + 15 * c][0] = two_petersens[i][0] + 10 * c;
            l[i + 15 * c][1] = two_petersens[i][1] + 10 * c;
        }
    moore_graph *g = from_links(20, (const int32_t(*)[2])l, 30);
    moore_spectrum s = spectrum(g, MOORE_EIG_AUTO);
    assert_false(s.connected);
    assert_true(fabs(s.lambda2 - 3) < 1e-9);
    assert_true(fabs(s.algebraic_connectivity) < 1e-9);
    assert_false(s.is_ramanujan);
    moore_graph_free(g);

    g = tu_build("complete:n=1");
    s = spectrum(g, MOORE_EIG_AUTO);
    assert_true(isnan(s.lambda2));
    moore_report r;
    moore_report_init(&r);
    moore_error err;
    assert_int_equal(moore_metrics_compute(g, "spectral", NULL, &r, &err), MOORE_OK);
    assert_int_equal(moore_report_get(&r, "lambda2")->type, MOORE_VALUE_NULL);
    assert_int_equal(moore_report_get(&r, "is_ramanujan")->type, MOORE_VALUE_NULL);
    moore_report_clear(&r);
    moore_graph_free(g);
}

/* The metric group: in the default set, with the agreed keys. */
static void metric_group_keys(void **state)
{
    (void)state;
    const moore_metric_group *m = moore_metric_group_find("spectral");
    assert_non_null(m);
    assert_true(m->default_on);
    moore_graph *g = tu_build("petersen");
    moore_report r;
    moore_error err;
    moore_report_init(&r);
    assert_int_equal(moore_metrics_compute(g, NULL, NULL, &r, &err), MOORE_OK);
    const char *keys[] = { "lambda1", "lambda2", "lambda_min", "spectral_gap",
                           "lambda_nontrivial", "ramanujan_bound", "is_ramanujan",
                           "algebraic_connectivity" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_non_null(moore_report_get(&r, keys[i]));
    assert_true(fabs(moore_report_number(&r, "lambda2") - 1) < 1e-9);
    assert_int_equal(moore_report_get(&r, "is_ramanujan")->i, 1);
    moore_report_clear(&r);
    moore_graph_free(g);
}

/* AUTO uses the closed form for rings, complete graphs and tori, and it must
 * agree with the full dense spectrum; a graph that only claims to be a torus
 * in its origin gets the solvers. */
static void closed_forms_match_dense(void **state)
{
    (void)state;
    moore_graph *gs[6];
    gs[0] = tu_build("torus:dims=6x7");
    gs[1] = tu_build("torus:dims=2x5x4");
    gs[2] = tu_build("torus:dims=4x4x6"); /* bipartite */
    gs[3] = cycle(101);
    gs[4] = tu_build("complete:n=30");
    gs[5] = tu_build("torus:dims=9");
    for (int i = 0; i < 6; i++) {
        moore_spectrum c = spectrum(gs[i], MOORE_EIG_AUTO);
        moore_spectrum d = spectrum(gs[i], MOORE_EIG_DENSE);
        assert_int_equal(c.method, MOORE_EIG_CLOSED_FORM);
        assert_int_equal(c.bipartite, d.bipartite);
        assert_true(fabs(c.lambda1 - d.lambda1) < 1e-9);
        assert_true(fabs(c.lambda2 - d.lambda2) < 1e-9);
        assert_true(fabs(c.lambda_min - d.lambda_min) < 1e-9);
        assert_true(fabs(c.lambda_nontrivial - d.lambda_nontrivial) < 1e-9);
        assert_true(fabs(c.algebraic_connectivity - d.algebraic_connectivity) < 1e-9);
        assert_int_equal(c.is_ramanujan, d.is_ramanujan);
        moore_graph_free(gs[i]);
    }
    moore_error err;
    moore_graph *fake = tu_build("jellyfish:n=42,d=4,seed=1");
    assert_int_equal(moore_graph_set_origin(fake, "torus", "dims=6x7", &err), MOORE_OK);
    assert_int_not_equal(spectrum(fake, MOORE_EIG_AUTO).method, MOORE_EIG_CLOSED_FORM);
    moore_graph_free(fake);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(known_spectra),
        cmocka_unit_test(cycles_both_paths),
        cmocka_unit_test(star_not_regular),
        cmocka_unit_test(dense_and_arpack_agree),
        cmocka_unit_test(extremes_of_signed_matrix),
        cmocka_unit_test(degenerate_graphs),
        cmocka_unit_test(metric_group_keys),
        cmocka_unit_test(closed_forms_match_dense),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
