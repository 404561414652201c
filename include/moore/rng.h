/* rng.h — moore's own seeded PRNG (xoshiro256**, seeded by splitmix64).
 *
 * Every random choice in moore goes through a moore_rng the caller seeds
 * explicitly, so the same seed gives the same topology bytes on every machine:
 * the generator uses only 64-bit integer arithmetic, and the bounded and real
 * draws below are defined exactly (no platform rand(), no floating-point
 * rounding in integer draws). */
#ifndef MOORE_RNG_H
#define MOORE_RNG_H

#include "moore/export.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct moore_rng {
    uint64_t s[4];
} moore_rng;

/* All draws update the caller-owned state r and allocate nothing; O(1) each
 * (moore_rng_below retries with probability < bound / 2^64). */
MOORE_API void moore_rng_seed(moore_rng *r, uint64_t seed);
MOORE_API uint64_t moore_rng_next(moore_rng *r);
/* Uniform integer in [0, bound) without modulo bias; bound > 0. */
MOORE_API uint64_t moore_rng_below(moore_rng *r, uint64_t bound);
/* Uniform double in [0, 1) with 53 random bits. */
MOORE_API double moore_rng_uniform(moore_rng *r);
/* Fisher–Yates shuffle of an int32 array, in place; O(n). */
MOORE_API void moore_rng_shuffle_i32(moore_rng *r, int32_t *a, int64_t n);
/* An independent stream derived from this one (for per-thread or per-try use).
 * Advances r by one draw and seeds the caller's *out. */
MOORE_API void moore_rng_split(moore_rng *r, uint64_t stream, moore_rng *out);

#ifdef __cplusplus
}
#endif
#endif
