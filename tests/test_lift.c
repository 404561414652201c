/* test_lift.c — 2-lifts: N doubles, degrees stay, each link becomes a
 * parallel or a crossed pair as its sign says, and the spectrum is
 * spec(A) ∪ spec(A_s) (checked with full dense spectra, computed apart from
 * the lift code). The signing search against brute force on small graphs. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int8_t *random_signs(int64_t m, uint64_t seed)
{
    moore_rng r;
    moore_rng_seed(&r, seed);
    int8_t *s = malloc((size_t)m);
    for (int64_t e = 0; e < m; e++)
        s[e] = moore_rng_below(&r, 2) ? 1 : -1;
    return s;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The signed adjacency matrix built here by hand, densely, from the signs. */
static double *signed_spectrum(const moore_graph *g, const int8_t *signs)
{
    int32_t n = g->n;
    int64_t *offs = malloc(((size_t)n + 1) * sizeof *offs);
    int32_t *idx = malloc((size_t)(2 * g->m) * sizeof *idx);
    double *val = malloc((size_t)(2 * g->m) * sizeof *val);
    memcpy(offs, g->offs, ((size_t)n + 1) * sizeof *offs);
    memcpy(idx, g->adj, (size_t)(2 * g->m) * sizeof *idx);
    int64_t e = 0;
    for (int32_t u = 0; u < n; u++)
        for (int64_t k = offs[u]; k < offs[u + 1]; k++)
            if (idx[k] > u) {
                val[k] = signs[e];
                /* the mirror entry v→u */
                int32_t v = idx[k];
                for (int64_t j = offs[v]; j < offs[v + 1]; j++)
                    if (idx[j] == u)
                        val[j] = signs[e];
                e++;
            }
    moore_symmat a = { n, offs, idx, val, NULL, 1.0 };
    double *w = malloc((size_t)n * sizeof *w);
    moore_error err;
    assert_int_equal(moore_eig_dense(&a, w, &err), MOORE_OK);
    free(offs);
    free(idx);
    free(val);
    return w;
}

static double *adjacency_spectrum(const moore_graph *g)
{
    moore_symmat a;
    moore_error err;
    double *w = malloc((size_t)g->n * sizeof *w);
    moore_symmat_adjacency(g, &a);
    assert_int_equal(moore_eig_dense(&a, w, &err), MOORE_OK);
    return w;
}

static void lift_structure_and_spectrum(void **state)
{
    (void)state;
    const char *specs[] = { "petersen", "xpander:d=6,k=5,seed=3", "jellyfish:n=40,d=5,seed=2",
                            "xpander:meta=petersen,k=3,intra=clique" };
    for (int i = 0; i < 4; i++) {
        moore_graph *g = tu_build(specs[i]);
        int8_t *s = random_signs(g->m, 11 + i);
        moore_graph *h;
        moore_error err;
        assert_int_equal(moore_lift_build(g, s, &h, &err), MOORE_OK);
        int32_t n = g->n;
        assert_int_equal(h->n, 2 * n);
        assert_int_equal(h->m, 2 * g->m);
        for (int32_t v = 0; v < n; v++) {
            assert_int_equal(moore_graph_degree(h, v), moore_graph_degree(g, v));
            assert_int_equal(moore_graph_degree(h, v + n), moore_graph_degree(g, v));
            assert_int_equal(h->endpoints[v + n], g->endpoints[v]);
        }
        int64_t e = 0;
        for (int32_t u = 0; u < n; u++)
            for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
                int32_t v = g->adj[k];
                if (v < u)
                    continue;
                int par = s[e++] > 0;
                assert_int_equal(moore_graph_has_link(h, u, v), par);
                assert_int_equal(moore_graph_has_link(h, u + n, v + n), par);
                assert_int_equal(moore_graph_has_link(h, u, v + n), !par);
                assert_int_equal(moore_graph_has_link(h, u + n, v), !par);
            }
        /* spec(lift) = spec(A) ∪ spec(A_s) */
        double *wl = adjacency_spectrum(h), *wa = adjacency_spectrum(g);
        double *ws = signed_spectrum(g, s);
        double *u = malloc(2 * (size_t)n * sizeof *u);
        memcpy(u, wa, (size_t)n * sizeof *u);
        memcpy(u + n, ws, (size_t)n * sizeof *u);
        qsort(u, 2 * (size_t)n, sizeof *u, cmp_double);
        for (int32_t j = 0; j < 2 * n; j++)
            assert_true(fabs(u[j] - wl[j]) < 1e-9);
        /* and moore_lift_signed_radius agrees with the dense signed spectrum */
        double rho, lo, hi;
        assert_int_equal(moore_lift_signed_radius(g, s, MOORE_EIG_AUTO, &rho, &lo, &hi, &err),
                         MOORE_OK);
        assert_true(fabs(lo - ws[0]) < 1e-9);
        assert_true(fabs(hi - ws[n - 1]) < 1e-9);
        assert_true(fabs(rho - fmax(-ws[0], ws[n - 1])) < 1e-9);
        free(wl);
        free(wa);
        free(ws);
        free(u);
        free(s);
        moore_graph_free(h);
        moore_graph_free(g);
    }
}

/* All +: two disjoint copies (λ₂ = d). All −: the bipartite double cover,
 * whose spectrum is ±spec(A). */
static void trivial_signings(void **state)
{
    (void)state;
    moore_graph *g = tu_build("petersen"), *h;
    moore_error err;
    int8_t s[15];
    memset(s, 1, sizeof s);
    assert_int_equal(moore_lift_build(g, s, &h, &err), MOORE_OK);
    moore_spectrum sp;
    assert_int_equal(moore_spectrum_compute(h, NULL, MOORE_EIG_AUTO, &sp, &err), MOORE_OK);
    assert_false(sp.connected);
    assert_true(fabs(sp.lambda2 - 3) < 1e-9);
    moore_graph_free(h);
    memset(s, -1, sizeof s);
    assert_int_equal(moore_lift_build(g, s, &h, &err), MOORE_OK);
    assert_int_equal(moore_spectrum_compute(h, NULL, MOORE_EIG_AUTO, &sp, &err), MOORE_OK);
    assert_true(sp.connected);
    assert_true(sp.bipartite);
    assert_true(fabs(sp.lambda_min + 3) < 1e-9);
    assert_true(fabs(sp.lambda2 - 2) < 1e-9); /* −(−2) */
    moore_graph_free(h);
    s[3] = 0;
    assert_int_equal(moore_lift_build(g, s, &h, &err), MOORE_EINVAL);
    moore_graph_free(g);
}

/* The search can only improve on its first random start (same seed, one
 * try, no flips), and on K_4 and Petersen it reaches the best signing that
 * brute force over all 2^m signings finds. */
static void search_against_brute_force(void **state)
{
    (void)state;
    const char *specs[] = { "complete:n=4", "petersen" };
    for (int i = 0; i < 2; i++) {
        moore_graph *g = tu_build(specs[i]);
        int64_t m = g->m;
        int8_t *s = malloc((size_t)m);
        moore_error err;
        double best = INFINITY;
        for (int64_t mask = 0; mask < ((int64_t)1 << m); mask++) {
            for (int64_t e = 0; e < m; e++)
                s[e] = (mask >> e) & 1 ? -1 : 1;
            double *w = signed_spectrum(g, s);
            double rho = fmax(-w[0], w[g->n - 1]);
            if (rho < best)
                best = rho;
            free(w);
        }
        moore_lift_options o;
        moore_lift_options_default(&o);
        o.seed = 5;
        o.tries = 1;
        o.max_evals = 1;
        double start, found;
        assert_int_equal(moore_lift_search(g, &o, s, &start, &err), MOORE_OK);
        o.tries = 16;
        o.max_evals = 64;
        assert_int_equal(moore_lift_search(g, &o, s, &found, &err), MOORE_OK);
        assert_true(found <= start + 1e-12);
        assert_true(found >= best - 1e-9);
        assert_true(found <= best + 1e-9);
        free(s);
        moore_graph_free(g);
    }
}

/* moore_lift measures what it built, and a seed fixes the lift. */
static void lift_report(void **state)
{
    (void)state;
    moore_graph *g = tu_build("xpander:d=8,k=8,seed=4"), *h, *h2;
    moore_lift_options o;
    moore_lift_result r;
    moore_error err;
    moore_lift_options_default(&o);
    o.seed = 9;
    assert_int_equal(moore_lift(g, &o, &h, &r, &err), MOORE_OK);
    assert_int_equal(h->n, 2 * g->n);
    assert_string_equal(h->family, "lift");
    moore_spectrum sg, sh;
    assert_int_equal(moore_spectrum_compute(g, NULL, MOORE_EIG_DENSE, &sg, &err), MOORE_OK);
    assert_int_equal(moore_spectrum_compute(h, NULL, MOORE_EIG_DENSE, &sh, &err), MOORE_OK);
    assert_true(fabs(r.lambda2_before - sg.lambda2) < 1e-8);
    assert_true(fabs(r.lambda2_after - sh.lambda2) < 1e-8);
    assert_true(fabs(sh.lambda2 - fmax(sg.lambda2, r.signed_max)) < 1e-8);
    assert_true(fabs(r.rho - fmax(r.signed_max, -r.signed_min)) < 1e-12);
    assert_int_equal(r.gap_kept, r.rho <= sg.lambda2 + 1e-9);
    assert_int_equal(r.signing_ramanujan, r.rho <= 2 * sqrt(7) + 1e-9);
    assert_true(r.union_error < 1e-6);
    assert_int_equal(moore_lift(g, &o, &h2, NULL, &err), MOORE_OK);
    assert_int_equal(memcmp(h->adj, h2->adj, (size_t)(2 * h->m) * sizeof *h->adj), 0);
    moore_graph_free(h2);
    moore_graph_free(h);
    o.tries = 0;
    assert_int_equal(moore_lift(g, &o, &h, &r, &err), MOORE_EINVAL);
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lift_structure_and_spectrum),
        cmocka_unit_test(trivial_signings),
        cmocka_unit_test(search_against_brute_force),
        cmocka_unit_test(lift_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
