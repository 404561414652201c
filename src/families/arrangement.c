/* arrangement.c — the arrangement graph A(n, k) (Day & Tripathi,
 * Information Processing Letters 1992): switches are the k-permutations of
 * {0 … n−1} (ordered k-tuples of distinct symbols), n!/(n−k)! of them; two
 * are linked iff they differ in exactly one position. Network degree k(n−k);
 * A(n,1) is K_n and A(n,n−1) the star graph S_n. Diameter min(⌊3k/2⌋, k + ⌊(n−1)/2⌋) — Day & Tripathi's
 * ⌊3k/2⌋ for k ≤ ⌊n/2⌋ and k + ⌊(n−1)/2⌋ above; the tests hold it against a
 * BFS. One processor per switch (p = 1), as in the paper.
 *
 * Switch id: position i holds the c_i-th smallest symbol not used by
 * positions 0 … i−1, and id = c_0 + n·(c_1 + (n−1)·(c_2 + …)). Labels are the
 * tuples. */
#include "families.h"

#include <stdio.h>
#include <string.h>

#define ARR_MAX_N 64

const moore_param_info fam_arrangement_params[] = {
    { "n", "", "symbols, >= 2" },
    { "k", "", "positions, 1 <= k < n (n!/(n-k)! switches, degree k(n-k))" },
    MOORE_PARAM_P("1"),
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

typedef struct arr_shape {
    int64_t n, k, switches;
    int32_t p;
} arr_shape;

static int arr_read(moore_params *pp, arr_shape *s, moore_error *err)
{
    int rc;
    if ((rc = moore_params_int(pp, "n", -1, 2, ARR_MAX_N, &s->n, err)) ||
        (rc = moore_params_int(pp, "k", -1, 1, ARR_MAX_N, &s->k, err)))
        return rc;
    if (s->n < 0 || s->k < 0)
        return moore_error_set(err, MOORE_EINVAL, "arrangement: n= and k= are required");
    if (s->k >= s->n)
        return moore_error_set(err, MOORE_EINVAL, "arrangement: k=%lld must be below n=%lld "
                               "(A(n,n) has no links)", (long long)s->k, (long long)s->n);
    s->switches = 1;
    for (int64_t i = 0; i < s->k; i++) {
        if (s->switches > MOORE_MAX_SWITCHES / (s->n - i))
            return moore_error_set(err, MOORE_EINVAL, "arrangement: n!/(n-k)! with n=%lld, "
                                   "k=%lld exceeds %d switches", (long long)s->n,
                                   (long long)s->k, MOORE_MAX_SWITCHES);
        s->switches *= s->n - i;
    }
    return moore_family_resolve_endpoints(pp, (int32_t)(s->k * (s->n - s->k)), 1, &s->p, err);
}

int fam_arrangement_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    arr_shape s;
    int rc = arr_read(pp, &s, err);
    if (rc)
        return rc;
    int64_t deg = s.k * (s.n - s.k), a = 3 * s.k / 2, b = s.k + (s.n - 1) / 2;
    c->switches = s.switches;
    c->links = s.switches * deg / 2;
    c->degree_min = c->degree_max = (int32_t)deg;
    c->endpoints = s.switches * s.p;
    c->diameter = (int32_t)(a < b ? a : b);
    c->multiplicity = 1;
    return MOORE_OK;
}

static void arr_decode(const arr_shape *s, int64_t v, int *tuple)
{
    char used[ARR_MAX_N] = { 0 };
    for (int64_t i = 0; i < s->k; i++) {
        int64_t c = v % (s->n - i);
        v /= s->n - i;
        int sym = 0;
        for (;; sym++)
            if (!used[sym] && c-- == 0)
                break;
        used[sym] = 1;
        tuple[i] = sym;
    }
}

static int64_t arr_encode(const arr_shape *s, const int *tuple)
{
    int64_t v = 0, weight = 1;
    char used[ARR_MAX_N] = { 0 };
    for (int64_t i = 0; i < s->k; i++) {
        int64_t c = 0;
        for (int sym = 0; sym < tuple[i]; sym++)
            c += !used[sym];
        used[tuple[i]] = 1;
        v += c * weight;
        weight *= s->n - i;
    }
    return v;
}

static void arr_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    const arr_shape *s = ctx;
    int tuple[ARR_MAX_N];
    arr_decode(s, v, tuple);
    size_t used = 0;
    buf[0] = '\0';
    for (int64_t i = 0; i < s->k && used + 1 < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%d", i ? "." : "", tuple[i]);
        used += w > 0 ? (size_t)w : 0;
    }
}

int fam_arrangement_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    arr_shape s;
    moore_counts c;
    int rc = arr_read(pp, &s, err);
    if (!rc)
        rc = fam_arrangement_counts(pp, &c, err);
    if (rc)
        return rc;
    moore_builder *b = NULL;
    if ((rc = moore_builder_new((int32_t)s.switches, c.links, &b, err)))
        return rc;
    int tuple[ARR_MAX_N];
    for (int64_t v = 0; !rc && v < s.switches; v++) {
        char in_tuple[ARR_MAX_N] = { 0 };
        arr_decode(&s, v, tuple);
        for (int64_t i = 0; i < s.k; i++)
            in_tuple[tuple[i]] = 1;
        /* position i takes each larger unused symbol (the smaller ones link
         * from the other side) */
        for (int64_t i = 0; !rc && i < s.k; i++) {
            int mine = tuple[i];
            for (int sym = mine + 1; !rc && sym < s.n; sym++) {
                if (in_tuple[sym])
                    continue;
                tuple[i] = sym;
                rc = moore_builder_add_link(b, (int32_t)v, (int32_t)arr_encode(&s, tuple), err);
            }
            tuple[i] = mine;
        }
    }
    if (!rc)
        rc = fam_graph_finish(&b, s.p, arr_label, &s, out, err);
    moore_builder_free(b);
    return rc;
}

/* Every (n, k) with 2 <= k < n whose degree k(n−k) leaves a port, p =
 * min(degree, R − degree), up to the listing size; with a target, each n
 * also adds its smallest k reaching it. */
int fam_arrangement_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                           moore_error *err)
{
    int rc = MOORE_OK;
    for (int64_t n = 3; !rc && n <= ARR_MAX_N && n - 1 < radix; n++) { /* star: n−1 */
        int64_t size = n;
        for (int64_t k = 2; !rc && k < n; k++) {
            if (size > MOORE_MAX_SWITCHES / 10 / (n - k + 1))
                break;
            size *= n - k + 1;
            int64_t deg = k * (n - k), p = radix - deg < deg ? radix - deg : deg;
            if (p < 1)
                continue;
            int reaches = endpoints > 0 && size * p >= endpoints;
            if (size > MOORE_PLAN_LIST_SWITCHES && !reaches)
                continue;
            rc = fam_emit(emit, ctx, err, "arrangement:n=%lld,k=%lld,p=%lld",
                                   (long long)n, (long long)k, (long long)p);
            if (size > MOORE_PLAN_LIST_SWITCHES)
                break;
        }
    }
    return rc;
}
