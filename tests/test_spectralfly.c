/* test_spectralfly.c — Spectralfly, the LPS Ramanujan graph X^{s,q}.
 *
 * What is asserted, and where it comes from (Lubotzky, Phillips & Sarnak,
 * Combinatorica 8, 1988):
 *   - q(q²−1)/2 switches when s is a square mod q (PSL(2,q), not
 *     bipartite), q(q²−1) otherwise (PGL(2,q), bipartite); (s+1)-regular;
 *   - Ramanujan: every eigenvalue other than ±(s+1) has |λ| ≤ 2√s
 *     (eigenvalues from the dense solver of include/moore/spectrum.h);
 *   - a second construction written here: the group enumerated by brute
 *     force (every matrix class with a square, resp. nonzero, determinant)
 *     and u ~ v iff u⁻¹·v is one of the s+1 generators, the generators found
 *     by this file's own search; isomorphic to the library's graph (Traces);
 *   - refusals (non-primes, primes ≡ 3 mod 4, s = q, q too small), the planner. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t legendre(int64_t s, int64_t q)
{
    int64_t r = 1, b = s % q;
    for (int64_t e = (q - 1) / 2; e; e >>= 1, b = b * b % q)
        if (e & 1)
            r = r * b % q;
    return r == 1 ? 1 : -1;
}

static void sweep(void **state)
{
    (void)state;
    static const int pairs[][2] = { { 5, 13 }, { 17, 13 }, { 13, 17 }, { 29, 13 }, { 5, 17 } };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int64_t s = pairs[i][0], q = pairs[i][1];
        char spec[64];
        snprintf(spec, sizeof spec, "spectralfly:s=%lld,q=%lld", (long long)s, (long long)q);
        tu_check_closed_forms(spec);
        moore_graph *g = tu_build(spec);
        int64_t n = q * (q * q - 1) / (legendre(s, q) == 1 ? 2 : 1);
        assert_int_equal(g->n, n);
        assert_true(moore_graph_is_regular(g));
        assert_int_equal(moore_graph_degree_max(g), s + 1);
        assert_int_equal(moore_graph_endpoints_total(g), n * (s - 1));
        int bip = 0;
        moore_error err;
        moore_error_clear(&err);
        assert_int_equal(moore_spectrum_bipartite(g, &bip, NULL, &err), MOORE_OK);
        assert_int_equal(bip, legendre(s, q) == -1);
        moore_graph_free(g);
    }
}

static void ramanujan(void **state)
{
    (void)state;
    static const int pairs[][2] = { { 17, 13 }, { 5, 13 }, { 5, 11 }, { 13, 11 } };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        char spec[64];
        snprintf(spec, sizeof spec, "spectralfly:s=%d,q=%d", pairs[i][0], pairs[i][1]);
        moore_graph *g = tu_build(spec);
        moore_spectrum sp;
        moore_error err;
        moore_error_clear(&err);
        assert_int_equal(moore_spectrum_compute(g, NULL, MOORE_EIG_AUTO, &sp, &err), MOORE_OK);
        double bound = 2.0 * sqrt((double)pairs[i][0]);
        if (!(sp.lambda_nontrivial <= bound + 1e-9)) {
            print_error("%s: non-trivial |lambda| %.6f above 2*sqrt(s) = %.6f\n", spec,
                        sp.lambda_nontrivial, bound);
            fail();
        }
        assert_true(fabs(sp.lambda1 - (pairs[i][0] + 1)) < 1e-9);
        moore_graph_free(g);
    }
}

/* ---- the brute-force second construction ---- */

typedef struct lps {
    int64_t s, q, n, gens;
    int64_t (*elem)[4];   /* normalised matrix classes */
    char *is_gen;         /* over the q^4 normalised 4-tuples */
} lps;

static int64_t code(const int64_t m[4], int64_t q)
{
    return ((m[0] * q + m[1]) * q + m[2]) * q + m[3];
}

/* Scales m so that its first nonzero entry is 1 (inverse by Fermat). */
static void normalise(int64_t m[4], int64_t q)
{
    int k = 0;
    while (m[k] == 0)
        k++;
    int64_t inv = 1, b = m[k];
    for (int64_t e = q - 2; e; e >>= 1, b = b * b % q)
        if (e & 1)
            inv = inv * b % q;
    for (int i = 0; i < 4; i++)
        m[i] = m[i] * inv % q;
}

static int lps_adjacent(const void *ctx, int32_t u, int32_t v)
{
    const lps *L = ctx;
    int64_t q = L->q;
    const int64_t *a = L->elem[u], *b = L->elem[v];
    /* adj(a) = [d −b; −c a] is a⁻¹ up to a scalar */
    int64_t ai[4] = { a[3], (q - a[1]) % q, (q - a[2]) % q, a[0] };
    int64_t w[4] = { (ai[0] * b[0] + ai[1] * b[2]) % q, (ai[0] * b[1] + ai[1] * b[3]) % q,
                     (ai[2] * b[0] + ai[3] * b[2]) % q, (ai[2] * b[1] + ai[3] * b[3]) % q };
    normalise(w, q);
    return L->is_gen[code(w, q)];
}

static void lps_make(lps *L, int64_t s, int64_t q)
{
    L->s = s;
    L->q = q;
    L->is_gen = calloc((size_t)(q * q * q * q), 1);
    /* x² + y² ≡ −1 (mod q): ι and 0 when q ≡ 1 (mod 4); otherwise the
     * largest x that has a y (the library takes the smallest: the two
     * representations are conjugate, so the graphs must be isomorphic) */
    int64_t x = 2, y = 0;
    if (q % 4 == 1)
        while (x * x % q != q - 1)
            x++;
    else
        for (x = q - 1;; x--) {
            for (y = 0; y < q && (x * x + y * y + 1) % q; y++)
                ;
            if (y < q)
                break;
        }
    L->gens = 0;
    int64_t r = (int64_t)sqrt((double)s) + 1;
    for (int64_t a0 = 1; a0 <= r; a0 += 2)
        for (int64_t a1 = -r; a1 <= r; a1++)
            for (int64_t a2 = -r; a2 <= r; a2++)
                for (int64_t a3 = -r; a3 <= r; a3++) {
                    if ((a1 | a2 | a3) & 1 || a0 * a0 + a1 * a1 + a2 * a2 + a3 * a3 != s)
                        continue;
                    int64_t m[4] = { ((a0 + x * a1 + y * a3) % q + q) % q,
                                     ((-y * a1 + a2 + x * a3) % q + q) % q,
                                     ((-y * a1 - a2 + x * a3) % q + q) % q,
                                     ((a0 - x * a1 - y * a3) % q + q) % q };
                    normalise(m, q);
                    L->is_gen[code(m, q)] = 1;
                    L->gens++;
                }
    int psl = legendre(s, q) == 1;
    L->elem = malloc((size_t)(q * q * q * q) * sizeof *L->elem);
    L->n = 0;
    for (int64_t c = 0; c < q * q * q * q; c++) {
        int64_t m[4] = { c / (q * q * q), c / (q * q) % q, c / q % q, c % q };
        int64_t det = ((m[0] * m[3] - m[1] * m[2]) % q + q) % q;
        int first = m[0] ? 0 : m[1] ? 1 : m[2] ? 2 : 3;
        if (det == 0 || m[first] != 1 || (psl && legendre(det, q) != 1))
            continue;
        memcpy(L->elem[L->n++], m, sizeof m);
    }
}

static void is_the_cayley_graph(void **state)
{
    (void)state;
    /* q = 11 and 7 are 3 mod 4: EvalNet's spectralfly p=5, q=11 (660 switches,
     * PSL: 5 ≡ 4² mod 11) and a PGL one (5 is no square mod 7) */
    static const int pairs[][2] = { { 17, 13 }, { 5, 13 }, { 5, 11 }, { 5, 7 } };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        lps L;
        lps_make(&L, pairs[i][0], pairs[i][1]);
        assert_int_equal(L.gens, L.s + 1);
        char spec[64];
        snprintf(spec, sizeof spec, "spectralfly:s=%d,q=%d", pairs[i][0], pairs[i][1]);
        moore_graph *g = tu_build(spec);
        assert_int_equal(L.n, g->n);
        moore_graph *mine = tu_graph_from_rule((int32_t)L.n, lps_adjacent, &L);
        assert_int_equal(mine->m, g->m);
        tu_assert_isomorphic(g, mine);
        moore_graph_free(mine);
        moore_graph_free(g);
        free(L.elem);
        free(L.is_gen);
    }
}

static void refuses(void **state)
{
    (void)state;
    tu_expect_refused("spectralfly", "s= and q= are required");
    tu_expect_refused("spectralfly:s=7,q=13", "s=7 is not a prime = 1 mod 4");
    tu_expect_refused("spectralfly:s=5,q=9", "q=9 is not an odd prime");
    tu_expect_refused("spectralfly:s=5,q=2", "q=2 is not an odd prime");
    tu_expect_refused("spectralfly:s=5,q=15", "q=15");
    tu_expect_refused("spectralfly:s=13,q=13", "distinct");
    tu_expect_refused("spectralfly:s=13,q=5", "2*sqrt(s)");
    tu_expect_refused("spectralfly:s=5,q=13,radix=6", "radix=6");
    tu_expect_refused("spectralfly:s=5,q=1009", "more than");
}

static void planner(void **state)
{
    (void)state;
    tu_check_planner("spectralfly", 48, 0, 1200);
    assert_true(tu_plan_count("spectralfly", 48, 0) > 10);
    tu_check_planner("spectralfly", 48, 50000, 1200);
    assert_true(tu_plan_count("spectralfly", 48, 50000) > 10);
    assert_int_equal(tu_plan_count("spectralfly", 6, 0), 0); /* s = 5 needs radix 7 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sweep),   cmocka_unit_test(ramanujan),
        cmocka_unit_test(is_the_cayley_graph), cmocka_unit_test(refuses),
        cmocka_unit_test(planner),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
