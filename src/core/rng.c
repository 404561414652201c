/* rng.c — xoshiro256** (Blackman & Vigna), seeded through splitmix64.
 *
 * Chosen because it is small, fast, passes BigCrush, and is defined purely in
 * 64-bit integer operations, which is what makes "same seed, same bytes on
 * every machine" true. */
#include "moore/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void moore_rng_seed(moore_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

uint64_t moore_rng_next(moore_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Rejection sampling: draws below the largest multiple of bound are unbiased. */
uint64_t moore_rng_below(moore_rng *r, uint64_t bound)
{
    uint64_t limit = (uint64_t)0 - ((uint64_t)0 - bound) % bound; /* 2^64 - (2^64 mod bound) */
    for (;;) {
        uint64_t x = moore_rng_next(r);
        if (limit == 0 || x < limit)
            return x % bound;
    }
}

double moore_rng_uniform(moore_rng *r)
{
    return (double)(moore_rng_next(r) >> 11) * 0x1.0p-53;
}

void moore_rng_shuffle_i32(moore_rng *r, int32_t *a, int64_t n)
{
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)moore_rng_below(r, (uint64_t)i + 1);
        int32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

void moore_rng_split(moore_rng *r, uint64_t stream, moore_rng *out)
{
    uint64_t base = moore_rng_next(r);
    moore_rng_seed(out, base ^ (stream * 0xD1B54A32D192ED03ULL));
}
