/* bundlefly.c — Bundlefly (Lei et al., "Bundlefly: a
 * low-diameter topology for multicore fiber", ICS'20): the star product of
 * the MMS graph (Slim Fly, src/families/slimfly.c) with a Paley graph,
 * and the Paley graph helpers PolarStar shares.
 *
 * Paley(r), r a prime power ≡ 1 (mod 4): the elements of GF(r), x ~ y iff
 * x − y is a nonzero square; ((r−1)/2)-regular. φ(x) = ξ·x (ξ the field's
 * primitive element) maps squares to non-squares, so it maps Paley(r) onto
 * its complement.
 *
 * Star product MMS(q) * Paley(r): switch (i, x) for every MMS vertex i and
 * x ∈ GF(r), id i·r + x. Inside a supernode the Paley links; for every MMS
 * link i–k with i < k, (i, x) ~ (k, φ(x)) — moore's deterministic choice of
 * the product's bijections: the same φ on every link, applied from the
 * lower-numbered supernode. Network degree k' + (r−1)/2 with
 * k' = (3q − δ)/2; 2q²·r switches; diameter 3 (the paper's value; the tests
 * check it by BFS over a sweep). */
#include "core/alloc.h"
#include "families.h"
#include "moore/field.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const moore_param_info fam_bundlefly_params[] = {
    { "q", "", "MMS (Slim Fly) prime power, q mod 4 != 2" },
    { "r", "", "Paley prime power, r = 1 mod 4: supernodes of r switches" },
    { "p", "deg/3", "endpoints per switch (deg = (3q-delta)/2 + (r-1)/2)" },
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

int fam_paley_squares(const moore_gf *f, char *square)
{
    for (int32_t x = 0; x < f->q; x++)
        square[x] = 0;
    for (int64_t i = 0; i < f->q - 1; i += 2)
        square[moore_gf_pow_primitive(f, i)] = 1;
    return MOORE_OK;
}

int fam_paley_check(const char *family, int64_t r, moore_error *err)
{
    if (!moore_is_prime_power(r, NULL, NULL) || r % 4 != 1)
        return moore_error_set(err, MOORE_EINVAL, "%s: r=%lld is not a prime power = 1 mod 4 "
                               "(a Paley graph needs one)", family, (long long)r);
    if (r > MOORE_GF_MAX)
        return moore_error_set(err, MOORE_EINVAL, "%s: r=%lld exceeds the largest supported "
                               "field GF(%d)", family, (long long)r, MOORE_GF_MAX);
    return MOORE_OK;
}

typedef struct bf_shape {
    int64_t q, r, mms_n, mms_links, mms_deg, deg;
    int32_t p;
} bf_shape;

/* The MMS graph's closed-form counts for q (refused when q is no MMS parameter). */
static int mms_counts(int64_t q, moore_counts *c, moore_error *err)
{
    moore_params p;
    fam_params_q(&p, "slimfly", q);
    memset(c, 0, sizeof *c);
    c->diameter = -1;
    return fam_slimfly_counts(&p, c, err);
}

static int bf_read(moore_params *pp, bf_shape *s, moore_error *err)
{
    int rc;
    if ((rc = moore_params_int(pp, "q", -1, 0, MOORE_GF_MAX, &s->q, err)) ||
        (rc = moore_params_int(pp, "r", -1, 0, 1 << 20, &s->r, err)))
        return rc;
    if (s->q < 0 || s->r < 0)
        return moore_error_set(err, MOORE_EINVAL, "bundlefly: q= and r= are required "
                               "(e.g. bundlefly:q=5,r=5)");
    moore_counts mms;
    moore_error sub;
    if (mms_counts(s->q, &mms, &sub))
        return moore_error_set(err, MOORE_EINVAL, "bundlefly: q=%lld is no MMS parameter (%s)",
                               (long long)s->q, sub.msg);
    if ((rc = fam_paley_check("bundlefly", s->r, err)))
        return rc;
    s->mms_n = mms.switches;
    s->mms_links = mms.links;
    s->mms_deg = mms.degree_max;
    s->deg = s->mms_deg + (s->r - 1) / 2;
    if (s->mms_n * s->r > MOORE_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL, "bundlefly: 2q^2*r = %lld switches exceeds %d",
                               (long long)(s->mms_n * s->r), MOORE_MAX_SWITCHES);
    return moore_family_resolve_endpoints(pp, (int32_t)s->deg, (int32_t)(s->deg / 3), &s->p,
                                          err);
}

int fam_bundlefly_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    bf_shape s;
    int rc = bf_read(pp, &s, err);
    if (rc)
        return rc;
    c->switches = s.mms_n * s.r;
    c->links = s.mms_links * s.r + s.mms_n * s.r * ((s.r - 1) / 2) / 2;
    c->degree_min = c->degree_max = (int32_t)s.deg;
    c->endpoints = c->switches * s.p;
    c->diameter = 3;
    c->multiplicity = 1;
    return MOORE_OK;
}

static void bundlefly_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    int64_t r = *(const int64_t *)ctx;
    snprintf(buf, len, "S%lld.%lld", (long long)(v / r), (long long)(v % r));
}

/* The Paley links inside supernode `base` (from ids base·r). */
static int bf_paley_links(moore_builder *b, const moore_gf *f, const char *square, int64_t base,
                          moore_error *err)
{
    int32_t r = f->q;
    for (int32_t x = 0; x < r; x++)
        for (int32_t y = x + 1; y < r; y++)
            if (square[moore_gf_sub(f, y, x)]) {
                int rc = moore_builder_add_link(b, (int32_t)(base * r + x), (int32_t)(base * r + y),
                                                err);
                if (rc)
                    return rc;
            }
    return MOORE_OK;
}

int fam_bundlefly_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    bf_shape s;
    moore_counts c;
    moore_graph *mms = NULL;
    moore_gf *f = NULL;
    moore_builder *b = NULL;
    char *square = NULL;
    *out = NULL;
    int rc = bf_read(pp, &s, err);
    if (!rc)
        rc = fam_bundlefly_counts(pp, &c, err);
    if (!rc)
        rc = fam_guard(&c, "bundlefly", err);
    moore_params base;
    fam_params_q(&base, "slimfly", s.q);
    if (!rc)
        rc = fam_slimfly_build(&base, &mms, err);
    if (!rc)
        rc = moore_gf_new((int32_t)s.r, &f, err);
    if (!rc && !(square = moore_malloc((size_t)s.r, 1, err)))
        rc = core_alloc_code(err);
    if (!rc)
        rc = fam_paley_squares(f, square);
    if (!rc)
        rc = moore_builder_new((int32_t)c.switches, c.links, &b, err);
    int32_t r = (int32_t)s.r;
    for (int32_t i = 0; !rc && i < mms->n; i++) {
        rc = bf_paley_links(b, f, square, i, err);
        for (int64_t e = mms->offs[i]; !rc && e < mms->offs[i + 1]; e++) {
            int32_t k = mms->adj[e];
            for (int32_t x = 0; !rc && k > i && x < r; x++)
                rc = moore_builder_add_link(b, i * r + x, k * r + moore_gf_mul(f, f->primitive, x),
                                            err);
        }
    }
    if (!rc)
        rc = fam_graph_finish(&b, s.p, bundlefly_label, &s.r, out, err);
    moore_builder_free(b);
    moore_graph_free(mms);
    moore_gf_free(f);
    free(square);
    return rc;
}

/* Every (q, r) whose degree leaves a port (deg < radix), q then r ascending,
 * with the default p = ⌊deg/3⌋ capped by the free ports; sizes up to the listing size, or
 * past it for each q until the first r reaching the target. */
int fam_bundlefly_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                         moore_error *err)
{
    for (int64_t q = 3; q < radix; q++) {
        moore_counts mms;
        moore_error quiet;
        if (mms_counts(q, &mms, &quiet))
            continue;
        int reached = 0;
        for (int64_t r = 5; mms.degree_max + (r - 1) / 2 < radix && r <= MOORE_GF_MAX; r += 4) {
            int64_t n = mms.switches * r;
            if (!moore_is_prime_power(r, NULL, NULL))
                continue;
            if (n > MOORE_MAX_SWITCHES || (n > MOORE_PLAN_LIST_SWITCHES && (endpoints <= 0 || reached)))
                break;
            int64_t deg = mms.degree_max + (r - 1) / 2, p = fam_plan_p(radix, deg, deg / 3);
            int rc = fam_emit(emit, ctx, err, "bundlefly:q=%lld,r=%lld,p=%lld",
                                       (long long)q, (long long)r, (long long)p);
            if (rc)
                return rc;
            reached |= endpoints > 0 && n * p >= endpoints;
        }
    }
    return MOORE_OK;
}
