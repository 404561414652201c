/* field.h — finite fields GF(q) for prime powers q = p^n up to MOORE_GF_MAX.
 *
 * Elements are integers 0..q-1: the base-p digits of e are the coefficients of
 * a polynomial over GF(p) (digit i = coefficient of x^i), reduced modulo an
 * irreducible polynomial of degree n found by search. Addition and
 * multiplication are full q×q tables, so every operation is one lookup; for
 * q ≤ 1024 that is at most 2 MiB per table. The primitive element is the
 * smallest element whose order is exactly q−1, checked by the full order test
 * ξ^((q−1)/r) ≠ 1 for every prime r dividing q−1. */
#ifndef MOORE_FIELD_H
#define MOORE_FIELD_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MOORE_GF_MAX 4096

typedef struct moore_gf {
    int32_t q;          /* field size */
    int32_t p;          /* characteristic */
    int32_t n;          /* degree: q = p^n */
    int32_t primitive;  /* a primitive element ξ */
    int32_t *add;       /* q*q: add[a*q+b] = a+b */
    int32_t *mul;       /* q*q: mul[a*q+b] = a*b */
    int32_t *neg;       /* q: -a */
    int32_t *inv;       /* q: a^-1 (inv[0] = 0, unused) */
    int32_t *exp;       /* q-1: exp[i] = ξ^i */
    int32_t *log;       /* q: log[ξ^i] = i (log[0] = -1) */
    int32_t poly[32];   /* the irreducible polynomial's coefficients, low first (n+1 of them) */
} moore_gf;

/* 1 when q is a prime power p^n (q >= 2), filling p and n if not NULL.
 * Both are trial division: O(√q) time, no allocation. */
MOORE_API int moore_is_prime_power(int64_t q, int32_t *p, int32_t *n);
MOORE_API int moore_is_prime(int64_t x);

/* Builds GF(q); refuses q that is not a prime power or exceeds MOORE_GF_MAX.
 * *out is a new field the caller frees with moore_gf_free (NULL is fine); NULL
 * on error. O(q²) time and memory for the two tables (the searches for the
 * irreducible polynomial and ξ are smaller); the inline operations are O(1). */
MOORE_API int moore_gf_new(int32_t q, moore_gf **out, moore_error *err);
MOORE_API void moore_gf_free(moore_gf *f);

static inline int32_t moore_gf_add(const moore_gf *f, int32_t a, int32_t b) { return f->add[a * f->q + b]; }
static inline int32_t moore_gf_sub(const moore_gf *f, int32_t a, int32_t b) { return f->add[a * f->q + f->neg[b]]; }
static inline int32_t moore_gf_mul(const moore_gf *f, int32_t a, int32_t b) { return f->mul[a * f->q + b]; }
/* ξ^i for any integer i >= 0. */
static inline int32_t moore_gf_pow_primitive(const moore_gf *f, int64_t i) { return f->exp[i % (f->q - 1)]; }

#ifdef __cplusplus
}
#endif
#endif
