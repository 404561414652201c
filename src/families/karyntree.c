/* karyntree.c — the k-ary n-tree (Petrini & Vanneschi, IPPS'97), the fat-tree
 * of the Quadrics and InfiniBand clusters: n levels of k^(n−1) switches of
 * 2k ports, k^n endpoints.
 *
 * Switch ⟨w, l⟩ has a level l ∈ 0 … n−1 and a word w of n−1 base-k digits;
 * ⟨w, l⟩ and ⟨w', l+1⟩ are linked iff w and w' agree in every digit except
 * digit l. Level 0 holds the leaves, each with k endpoints (k down ports)
 * and k links up; inner levels have k links down and k up; the top level has
 * k links down (its k up ports stay free). So (n−1)·k^n links and diameter
 * 2(n−1) (two leaves that differ in the last digit meet only at the top).
 * Switch id l·k^(n−1) + w, digit 0 fastest; labels "L<l>.<digits>". */
#include "families.h"

#include <stdio.h>

const moore_param_info fam_karyntree_params[] = {
    { "k", "", "arity, >= 2 (switches of 2k ports)" },
    { "n", "", "levels, >= 2 (k^n endpoints, diameter 2(n-1))" },
    { "p", "k", "endpoints per leaf switch (k: full bisection)" },
    { NULL, NULL, NULL }
};

typedef struct kt_shape {
    int64_t k, n, per_level; /* per_level = k^(n−1) */
    int64_t p;
} kt_shape;

static int kt_read(moore_params *pp, kt_shape *s, moore_error *err)
{
    int rc;
    if ((rc = moore_params_int(pp, "k", -1, 2, 1 << 20, &s->k, err)) ||
        (rc = moore_params_int(pp, "n", -1, 2, 64, &s->n, err)))
        return rc;
    if (s->k < 0 || s->n < 0)
        return moore_error_set(err, MOORE_EINVAL, "karyntree: k= and n= are required");
    s->per_level = 1;
    for (int64_t i = 1; i < s->n; i++) {
        if (s->per_level > MOORE_MAX_SWITCHES / s->k / s->n)
            return moore_error_set(err, MOORE_EINVAL, "karyntree: n*k^(n-1) with k=%lld, n=%lld "
                                   "exceeds %d switches", (long long)s->k, (long long)s->n,
                                   MOORE_MAX_SWITCHES);
        s->per_level *= s->k;
    }
    return moore_params_int(pp, "p", s->k, 0, 1 << 20, &s->p, err);
}

int fam_karyntree_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    kt_shape s;
    int rc = kt_read(pp, &s, err);
    if (rc)
        return rc;
    c->switches = s.n * s.per_level;
    c->links = (s.n - 1) * s.per_level * s.k;
    c->degree_min = (int32_t)s.k;
    c->degree_max = (int32_t)(s.n > 2 ? 2 * s.k : s.k);
    c->endpoints = s.per_level * s.p;
    c->diameter = (int32_t)(2 * (s.n - 1));
    c->multiplicity = 1;
    return MOORE_OK;
}

static void kt_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    const kt_shape *s = ctx;
    int32_t w = (int32_t)(v % s->per_level);
    int used = snprintf(buf, len, "L%d", (int)(v / s->per_level));
    for (int64_t d = 0; d + 1 < s->n && used > 0 && (size_t)used + 1 < len; d++) {
        int add = snprintf(buf + used, len - (size_t)used, ".%d", (int)(w % s->k));
        used = add > 0 ? used + add : used;
        w = (int32_t)(w / s->k);
    }
}

int fam_karyntree_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    kt_shape s;
    moore_counts c;
    int rc = kt_read(pp, &s, err);
    if (!rc)
        rc = fam_karyntree_counts(pp, &c, err);
    if (rc)
        return rc;
    moore_builder *b = NULL;
    if ((rc = moore_builder_new((int32_t)c.switches, c.links, &b, err)))
        return rc;
    /* ⟨w, l⟩ to the k words ⟨w', l+1⟩ that replace digit l (weight k^l). */
    for (int64_t l = 0, weight = 1; !rc && l + 1 < s.n; l++, weight *= s.k)
        for (int64_t w = 0; !rc && w < s.per_level; w++) {
            int64_t digit = w / weight % s.k;
            for (int64_t x = 0; !rc && x < s.k; x++)
                rc = moore_builder_add_link(b, (int32_t)(l * s.per_level + w),
                                            (int32_t)((l + 1) * s.per_level + w +
                                                      (x - digit) * weight), err);
        }
    if (!rc)
        rc = fam_graph_finish(&b, 0, kt_label, &s, out, err);
    for (int32_t v = 0; !rc && v < s.per_level; v++)
        (*out)->endpoints[v] = (int32_t)s.p;
    moore_builder_free(b);
    return rc;
}

/* Switches of radix R make k-ary n-trees with k = ⌊R/2⌋ (all 2k ports used
 * below the top): every n ≥ 2 up to the listing size, with a target on up to
 * the first n reaching it. */
int fam_karyntree_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                         moore_error *err)
{
    int64_t k = radix / 2, per_level = k; /* k^(n−1) */
    int reached = 0;
    if (k < 2)
        return MOORE_OK;
    for (int64_t n = 2; n <= 64 && n * per_level <= MOORE_MAX_SWITCHES / 10; n++) {
        int reaches = endpoints > 0 && per_level * k >= endpoints;
        if (n * per_level > MOORE_PLAN_LIST_SWITCHES && (!reaches || reached))
            break;
        reached |= reaches;
        int rc = fam_emit(emit, ctx, err, "karyntree:k=%lld,n=%lld", (long long)k,
                                   (long long)n);
        if (rc || (reaches && n * per_level > MOORE_PLAN_LIST_SWITCHES) ||
            per_level > MOORE_MAX_SWITCHES / k)
            return rc;
        per_level *= k;
    }
    return MOORE_OK;
}
