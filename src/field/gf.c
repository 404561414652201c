/* gf.c — GF(p^n) arithmetic tables.
 *
 * Element e encodes the polynomial Σ d_i x^i with d_i the base-p digits of e.
 * Addition is digit-wise mod p; multiplication is polynomial multiplication
 * reduced by an irreducible polynomial of degree n, found as the first monic
 * polynomial (in the digit order) with no root-free factorisation, tested by
 * trying every monic divisor of degree ≤ n/2. These searches are tiny for
 * q ≤ 4096 and run once per field, after which every operation is a lookup. */
#include "moore/field.h"

#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

int moore_is_prime(int64_t x)
{
    if (x < 2)
        return 0;
    for (int64_t d = 2; d * d <= x; d++)
        if (x % d == 0)
            return 0;
    return 1;
}

int moore_is_prime_power(int64_t q, int32_t *p, int32_t *n)
{
    if (q < 2)
        return 0;
    int64_t r = q, d = 2;
    while (d * d <= r && r % d)
        d++;
    if (d * d > r)
        d = r; /* r itself is prime */
    int32_t k = 0;
    while (r % d == 0) {
        r /= d;
        k++;
    }
    if (r != 1)
        return 0;
    if (p)
        *p = (int32_t)d;
    if (n)
        *n = k;
    return 1;
}

/* Polynomials over GF(p) as digit arrays, low degree first. */
typedef struct { int32_t c[32]; int deg; } poly;

static void poly_from_int(int64_t e, int32_t p, int len, poly *a)
{
    memset(a, 0, sizeof *a);
    a->deg = -1;
    for (int i = 0; i < len; i++) {
        a->c[i] = (int32_t)(e % p);
        e /= p;
        if (a->c[i])
            a->deg = i;
    }
}

/* 1 when monic divisor d (degree ≥ 1) divides a, by long division mod p. */
static int poly_divides(const poly *d, const poly *a, int32_t p)
{
    int32_t r[32];
    memcpy(r, a->c, sizeof r);
    for (int i = a->deg; i >= d->deg; i--) {
        int32_t f = r[i];
        if (!f)
            continue;
        for (int j = 0; j <= d->deg; j++)
            r[i - d->deg + j] = (int32_t)(((r[i - d->deg + j] - (int64_t)f * d->c[j]) % p + p) % p);
    }
    for (int i = 0; i < d->deg; i++)
        if (r[i])
            return 0;
    return 1;
}

static int64_t ipow(int64_t b, int e)
{
    int64_t r = 1;
    while (e-- > 0)
        r *= b;
    return r;
}

static int is_irreducible(const poly *a, int32_t p)
{
    for (int k = 1; k <= a->deg / 2; k++) {
        int64_t count = ipow(p, k);
        for (int64_t low = 0; low < count; low++) {
            poly d;
            poly_from_int(low + count, p, k + 1, &d); /* monic: coefficient of x^k is 1 */
            if (poly_divides(&d, a, p))
                return 0;
        }
    }
    return 1;
}

static void find_irreducible(int32_t p, int32_t n, poly *out)
{
    int64_t count = ipow(p, n);
    for (int64_t low = 0; low < count; low++) {
        poly_from_int(low + count, p, n + 1, out);
        if (out->c[0] != 0 && is_irreducible(out, p))
            return;
    }
}

/* (a*b) mod the irreducible polynomial, on digit arrays. */
static int32_t poly_mulmod(int32_t a, int32_t b, const moore_gf *f, const poly *irr)
{
    int32_t p = f->p, n = f->n;
    int32_t x[32] = {0}, y[32] = {0}, r[64] = {0};
    for (int i = 0; i < n; i++, a /= p, b /= p) {
        x[i] = a % p;
        y[i] = b % p;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            r[i + j] = (r[i + j] + x[i] * y[j]) % p;
    for (int i = 2 * n - 2; i >= n; i--) {
        int32_t c = r[i];
        if (!c)
            continue;
        for (int j = 0; j <= n; j++)
            r[i - n + j] = ((r[i - n + j] - c * irr->c[j]) % p + p) % p;
    }
    int32_t e = 0;
    for (int i = n - 1; i >= 0; i--)
        e = e * p + r[i];
    return e;
}

/* x^e by square-and-multiply on polynomials (tables are not built yet). */
static int32_t poly_powmod(int32_t x, int64_t e, const moore_gf *f, const poly *irr)
{
    int32_t r = 1;
    while (e > 0) {
        if (e & 1)
            r = poly_mulmod(r, x, f, irr);
        x = poly_mulmod(x, x, f, irr);
        e >>= 1;
    }
    return r;
}

/* The full order test: g is primitive iff g^((q-1)/r) != 1 for every prime r | q-1. */
static int has_full_order(const moore_gf *f, int32_t g, const poly *irr)
{
    int32_t m = f->q - 1, rest = m;
    for (int32_t r = 2; r <= rest; r++) {
        if (rest % r)
            continue;
        while (rest % r == 0)
            rest /= r;
        if (poly_powmod(g, m / r, f, irr) == 1)
            return 0;
    }
    return 1;
}

int moore_gf_new(int32_t q, moore_gf **out, moore_error *err)
{
    int32_t p, n;
    *out = NULL;
    if (!moore_is_prime_power(q, &p, &n))
        return moore_error_set(err, MOORE_EINVAL, "q=%d is not a prime power", (int)q);
    if (q > MOORE_GF_MAX)
        return moore_error_set(err, MOORE_EINVAL, "q=%d exceeds the largest supported field %d",
                               (int)q, MOORE_GF_MAX);
    int32_t *hi = NULL, *lo = NULL, *wrap = NULL;
    int rc = MOORE_OK;
    moore_gf *f = moore_calloc(1, sizeof *f, err);
    if (!f) {
        rc = core_alloc_code(err);
        goto done;
    }
    f->q = q;
    f->p = p;
    f->n = n;
    size_t qq = (size_t)q * (size_t)q;
    f->add = moore_malloc(qq, sizeof *f->add, err);
    f->mul = moore_malloc(qq, sizeof *f->mul, err);
    f->neg = moore_malloc((size_t)q, sizeof *f->neg, err);
    f->inv = moore_calloc((size_t)q, sizeof *f->inv, err);
    f->exp = moore_malloc((size_t)q, sizeof *f->exp, err);
    f->log = moore_malloc((size_t)q, sizeof *f->log, err);
    if (!f->add || !f->mul || !f->neg || !f->inv || !f->exp || !f->log) {
        rc = core_alloc_code(err);
        goto done;
    }
    poly irr;
    find_irreducible(p, n, &irr);
    for (int i = 0; i <= n; i++)
        f->poly[i] = irr.c[i];
    f->primitive = q == 2 ? 1 : -1;
    for (int32_t g = 2; g < q && f->primitive < 0; g++)
        if (has_full_order(f, g, &irr))
            f->primitive = g;
    if (f->primitive < 0) {
        rc = moore_error_set(err, MOORE_EINTERNAL, "GF(%d): no primitive element found", (int)q);
        goto done;
    }
    /* Powers of ξ enumerate the multiplicative group; products then go through logs. */
    f->log[0] = -1;
    for (int32_t i = 0, x = 1; i < q - 1; i++) {
        f->exp[i] = x;
        f->log[x] = i;
        x = poly_mulmod(x, f->primitive, f, &irr);
    }
    /* Digit-wise addition by its recurrence on the lowest digit: a + b has
     * low digit (a%p + b%p) mod p and, above it, (a/p) + (b/p) — an entry
     * filled earlier, since a/p < a unless a = 0, and then b/p < b unless
     * b = 0. So the table costs a few lookups an entry instead of n divisions
     * (GF(4096) was dominated by them), and negation follows the same way. */
    hi = moore_malloc((size_t)q, sizeof *hi, err);
    lo = moore_malloc((size_t)q, sizeof *lo, err);
    wrap = moore_malloc(2 * (size_t)p, sizeof *wrap, err);
    if (!hi || !lo || !wrap) {
        rc = core_alloc_code(err);
        goto done;
    }
    for (int32_t a = 0; a < q; a++) {
        hi[a] = a / p;
        lo[a] = a % p;
    }
    for (int32_t i = 0; i < 2 * p; i++)
        wrap[i] = i % p;
    f->add[0] = 0;
    for (int32_t a = 0; a < q; a++) {
        const int32_t *up = f->add + (size_t)hi[a] * q;
        for (int32_t b = 0; b < q; b++) {
            f->add[(size_t)a * q + b] = up[hi[b]] * p + wrap[lo[a] + lo[b]];
            int32_t e = f->log[a] + f->log[b];
            f->mul[(size_t)a * q + b] = a && b ? f->exp[e >= q - 1 ? e - (q - 1) : e] : 0;
        }
        f->inv[a] = a ? f->exp[(q - 1 - f->log[a]) % (q - 1)] : 0;
        f->neg[a] = a ? f->neg[hi[a]] * p + wrap[p - lo[a]] : 0;
    }
    *out = f;
    f = NULL;
done:
    free(hi);
    free(lo);
    free(wrap);
    moore_gf_free(f);
    return rc;
}

void moore_gf_free(moore_gf *f)
{
    if (!f)
        return;
    free(f->add);
    free(f->mul);
    free(f->neg);
    free(f->inv);
    free(f->exp);
    free(f->log);
    free(f);
}
