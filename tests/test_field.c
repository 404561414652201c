/* test_field.c — GF(q) tables checked against the field axioms.
 *
 * A finite commutative ring with q elements in which every non-zero element
 * has an inverse is a field, and a field of q elements is GF(q); so checking
 * the axioms exhaustively on the tables proves them right without trusting the
 * code that built them. Small q get every triple; every prime power up to 1024
 * (and the largest supported, 4096) gets spot checks on random triples plus
 * the full checks that are linear in q. Prime fields are also compared with
 * plain integer arithmetic mod q. */
#include "testutil.h"
#include "moore/field.h"

#include <string.h>

/* Independent prime-power test by trial division. */
static int is_prime_power_naive(int64_t q, int32_t *p_out, int32_t *n_out)
{
    if (q < 2)
        return 0;
    int64_t p = 2;
    while (q % p)
        p++;
    int32_t n = 0;
    int64_t r = q;
    while (r % p == 0) {
        r /= p;
        n++;
    }
    if (p_out)
        *p_out = (int32_t)p;
    if (n_out)
        *n_out = n;
    return r == 1;
}

static moore_gf *gf_or_fail(int32_t q)
{
    moore_gf *f = NULL;
    moore_error err;
    moore_error_clear(&err);
    if (moore_gf_new(q, &f, &err) != MOORE_OK) {
        print_error("GF(%d) failed: %s\n", (int)q, err.msg);
        fail();
    }
    return f;
}

static int32_t add(const moore_gf *f, int32_t a, int32_t b) { return f->add[(size_t)a * f->q + b]; }
static int32_t mul(const moore_gf *f, int32_t a, int32_t b) { return f->mul[(size_t)a * f->q + b]; }

/* The checks that cost O(q) or O(q^2): ranges, identities, inverses,
 * characteristic, the primitive element's order, and the encoding. */
static void check_linear(const moore_gf *f)
{
    int32_t q = f->q, p = 0, n = 0;
    assert_true(is_prime_power_naive(q, &p, &n));
    assert_int_equal(f->p, p);
    assert_int_equal(f->n, n);
    for (int32_t a = 0; a < q; a++) {
        assert_int_equal(add(f, a, 0), a);
        assert_int_equal(mul(f, a, 1), a);
        assert_int_equal(mul(f, a, 0), 0);
        assert_true(f->neg[a] >= 0 && f->neg[a] < q);
        assert_int_equal(add(f, a, f->neg[a]), 0);
        assert_int_equal(moore_gf_sub(f, a, a), 0);
        if (a) {
            assert_true(f->inv[a] > 0 && f->inv[a] < q);
            assert_int_equal(mul(f, a, f->inv[a]), 1);
        }
    }
    /* Characteristic p: 1 added to itself p times is 0, and not sooner. */
    int32_t s = 0;
    for (int32_t i = 1; i <= p; i++) {
        s = add(f, s, 1);
        if (i < p)
            assert_int_not_equal(s, 0);
    }
    assert_int_equal(s, 0);
    /* ξ has order exactly q−1: its powers by table multiplication meet 1 at
     * step q−1 for the first time, and so visit every non-zero element. */
    int32_t xi = f->primitive, x = xi, order = 1;
    assert_true(xi > 0 && xi < q);
    while (x != 1) {
        x = mul(f, x, xi);
        order++;
        assert_true(order <= q - 1);
    }
    assert_int_equal(order, q - 1);
    for (int32_t i = 0, y = 1; i < q - 1; i++, y = mul(f, y, xi)) {
        assert_int_equal(moore_gf_pow_primitive(f, i), y);
        assert_int_equal(f->log[y], i);
    }
    /* The encoding of field.h: digit i of e is the coefficient of x^i, so
     * addition is digit-wise mod p, and multiplying by x (the element p) a
     * polynomial of degree < n−1 shifts its digits up by one. */
    for (int32_t a = 0; a < q; a++) {
        int32_t b = (int32_t)(((int64_t)a * 7919 + 13) % q);
        int32_t sum = 0, pw = 1;
        for (int32_t i = 0, aa = a, bb = b; i < n; i++, aa /= p, bb /= p, pw *= p)
            sum += ((aa % p + bb % p) % p) * pw;
        assert_int_equal(add(f, a, b), sum);
        if (n > 1 && a < q / p)
            assert_int_equal(mul(f, a, p), a * p);
    }
    /* The polynomial is monic of degree n and has x as a root in the field. */
    if (n > 1) {
        assert_int_equal(f->poly[n], 1);
        int32_t val = 0, xpow = 1;
        for (int32_t i = 0; i <= n; i++, xpow = mul(f, xpow, p))
            val = add(f, val, mul(f, f->poly[i] % p, xpow));
        assert_int_equal(val, 0);
    }
}

/* Axioms with three elements. */
static void check_triple(const moore_gf *f, int32_t a, int32_t b, int32_t c)
{
    assert_int_equal(add(f, add(f, a, b), c), add(f, a, add(f, b, c)));
    assert_int_equal(mul(f, mul(f, a, b), c), mul(f, a, mul(f, b, c)));
    assert_int_equal(mul(f, a, add(f, b, c)), add(f, mul(f, a, b), mul(f, a, c)));
}

static void check_exhaustive(int32_t q)
{
    moore_gf *f = gf_or_fail(q);
    check_linear(f);
    for (int32_t a = 0; a < q; a++)
        for (int32_t b = 0; b < q; b++) {
            assert_true(add(f, a, b) >= 0 && add(f, a, b) < q);
            assert_true(mul(f, a, b) >= 0 && mul(f, a, b) < q);
            assert_int_equal(add(f, a, b), add(f, b, a));
            assert_int_equal(mul(f, a, b), mul(f, b, a));
            if (f->n == 1) {
                assert_int_equal(add(f, a, b), (a + b) % q);
                assert_int_equal(mul(f, a, b), (a * b) % q);
            }
            for (int32_t c = 0; c < q; c++)
                check_triple(f, a, b, c);
        }
    moore_gf_free(f);
}

static void small_fields_exhaustive(void **state)
{
    (void)state;
    const int32_t qs[] = { 2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 25, 27, 32, 49, 64, 81 };
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++)
        check_exhaustive(qs[i]);
}

/* Every prime power up to 1024, plus 2048 and the largest, 4096. */
static void all_fields_up_to_1024_spot_checked(void **state)
{
    (void)state;
    moore_rng rng;
    moore_rng_seed(&rng, 2024);
    int built = 0;
    for (int32_t q = 2; q <= 4096; q++) {
        if (!is_prime_power_naive(q, NULL, NULL) || (q > 1024 && q != 2048 && q != 4096))
            continue;
        moore_gf *f = gf_or_fail(q);
        check_linear(f);
        for (int i = 0; i < 300; i++) {
            int32_t a = (int32_t)moore_rng_below(&rng, (uint64_t)q),
                    b = (int32_t)moore_rng_below(&rng, (uint64_t)q),
                    c = (int32_t)moore_rng_below(&rng, (uint64_t)q);
            check_triple(f, a, b, c);
            assert_int_equal(add(f, a, b), add(f, b, a));
            assert_int_equal(mul(f, a, b), mul(f, b, a));
            if (i < 20) { /* Fermat in GF(q): a^q = a (q multiplications each) */
                int32_t pw = 1;
                for (int32_t k = 0; k < q; k++)
                    pw = mul(f, pw, a);
                assert_int_equal(pw, a);
            }
            if (f->n == 1) {
                assert_int_equal(add(f, a, b), (a + b) % q);
                assert_int_equal(mul(f, a, b), (int32_t)((int64_t)a * b % q));
            }
        }
        moore_gf_free(f);
        built++;
    }
    /* pi(1024) = 172 primes; 26 proper powers (11 squares, 4 cubes, 16, 81, 625,
     * 32, 243, 64, 729, 128, 256, 512, 1024); plus 2048 and 4096. */
    assert_int_equal(built, 172 + 26 + 2);
}

static void non_prime_powers_refused(void **state)
{
    (void)state;
    const int32_t bad[] = { 0, 1, 6, 10, 12, 14, 15, 18, 21, 100, 1000, 1023, 4095 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        moore_gf sentinel, *f = &sentinel;
        moore_error err;
        assert_int_equal(moore_gf_new(bad[i], &f, &err), MOORE_EINVAL);
        assert_null(f);
        char want[32];
        snprintf(want, sizeof want, "q=%d", (int)bad[i]);
        assert_non_null(strstr(err.msg, want));
    }
    /* Prime powers beyond the tables are refused too, not built. */
    const int32_t big[] = { 4099, 8192, 1 << 30 };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        moore_gf *f;
        moore_error err;
        assert_int_equal(moore_gf_new(big[i], &f, &err), MOORE_EINVAL);
        assert_null(f);
    }
}

static void prime_power_detection(void **state)
{
    (void)state;
    for (int64_t q = -3; q <= 5000; q++) {
        int32_t p = 0, n = 0, p2 = 0, n2 = 0;
        int want = is_prime_power_naive(q, &p2, &n2);
        assert_int_equal(moore_is_prime_power(q, &p, &n), want);
        if (want) {
            assert_int_equal(p, p2);
            assert_int_equal(n, n2);
        }
        assert_int_equal(moore_is_prime(q), want && n2 == 1);
    }
    assert_true(moore_is_prime_power(1048576, NULL, NULL));  /* 2^20 */
    assert_true(moore_is_prime_power(1594323, NULL, NULL));  /* 3^13 */
    assert_false(moore_is_prime_power(1048577, NULL, NULL)); /* 17 · 61681 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_fields_exhaustive),
        cmocka_unit_test(all_fields_up_to_1024_spot_checked),
        cmocka_unit_test(non_prime_powers_refused),
        cmocka_unit_test(prime_power_detection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
