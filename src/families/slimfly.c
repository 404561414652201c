/* slimfly.c — Slim Fly: the McKay–Miller–Širáň (MMS) graph of docs/slimfly.md
 * (McKay, Miller & Širáň 1998; Besta & Hoefler, SC'14).
 *
 * q is a prime power q = 4w + δ with δ ∈ {−1, 0, 1}. Switches are (0,x,y) and
 * (1,m,c) for x, y, m, c ∈ GF(q), numbered
 *     (0,x,y) → x·q + y        (1,m,c) → q² + m·q + c
 * with field elements as the integers of field.h. With ξ the field's primitive
 * element, X ⊂ GF(q)* the generator set of δ and X' = ξ·X:
 *     (0,x,y) ~ (0,x,y')  iff  y − y' ∈ X
 *     (1,m,c) ~ (1,m,c')  iff  c − c' ∈ X'
 *     (0,x,y) ~ (1,m,c)   iff  y = m·x + c
 * X is closed under negation for every δ, so the intra-group rule is symmetric;
 * the build checks that (a failure would be a field bug, not bad input).
 * Network degree k' = q + |X| = (3q − δ)/2; diameter 2.
 *
 * Real GF(p^n) arithmetic comes from src/field/gf.c, so prime powers such as
 * 4, 8, 9, 25, 27 work, not only primes. */
#include "core/alloc.h"
#include "families.h"
#include "moore/field.h"

#include <stdio.h>
#include <stdlib.h>

const moore_param_info fam_slimfly_params[] = {
    { "q", "", "prime power q = 4w + delta, delta in {-1,0,1} (q mod 4 != 2)" },
    { "p", "-", "endpoints per switch (default ceil(k'/2), k' = (3q - delta)/2)" },
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

/* What q alone decides: the field size, δ, w and the network degree. */
typedef struct sf_shape {
    int32_t q, delta, w, degree;
} sf_shape;

/* Fills s from q (for q ≤ 2^30) and returns 1 when q is an admissible MMS
 * parameter, 0 otherwise; no message (sf_read words the refusals). */
static int sf_classify(int64_t q, sf_shape *s)
{
    s->q = (int32_t)q;
    s->delta = q % 4 == 1 ? 1 : q % 4 == 0 ? 0 : -1;
    s->w = (int32_t)((q - s->delta) / 4);
    s->degree = (int32_t)((3 * q - s->delta) / 2);
    return q >= 3 && q <= MOORE_GF_MAX && q % 4 != 2 && moore_is_prime_power(q, NULL, NULL);
}

/* Reads and checks q, then resolves p / radix. The radix check is done here,
 * before the shared helper, so that its message can name q. */
static int sf_read(moore_params *p, sf_shape *s, int32_t *ep, moore_error *err)
{
    int64_t q;
    int rc = moore_params_int(p, "q", -1, 0, 1 << 30, &q, err);
    if (rc)
        return rc;
    if (q < 0)
        return moore_error_set(err, MOORE_EINVAL, "slimfly: q= is required (a prime power, "
                                                  "q mod 4 != 2, e.g. slimfly:q=5)");
    if (!moore_is_prime_power(q, NULL, NULL))
        return moore_error_set(err, MOORE_EINVAL,
                               "slimfly: q=%lld is not a prime power (Slim Fly needs a prime "
                               "power q with q mod 4 != 2)",
                               (long long)q);
    if (q % 4 == 2)
        return moore_error_set(err, MOORE_EINVAL,
                               "slimfly: q=%lld is 2 mod 4 (Slim Fly needs q = 4w + delta "
                               "with delta in {-1,0,1} and w >= 1)",
                               (long long)q);
    if (q > MOORE_GF_MAX)
        return moore_error_set(err, MOORE_EINVAL,
                               "slimfly: q=%lld exceeds the largest supported field GF(%d)",
                               (long long)q, MOORE_GF_MAX);
    sf_classify(q, s);
    if (moore_params_has(p, "radix") && !moore_params_has(p, "p")) {
        int64_t radix;
        rc = moore_params_int(p, "radix", 0, 1, 1 << 20, &radix, err);
        if (rc)
            return rc;
        if (radix <= s->degree)
            return moore_error_set(err, MOORE_EINVAL,
                                   "slimfly: q=%d has network degree k'=%d, so radix=%lld "
                                   "leaves no port for endpoints (needs radix >= %d)",
                                   (int)s->q, (int)s->degree, (long long)radix,
                                   (int)s->degree + 1);
    }
    return moore_family_resolve_endpoints(p, s->degree, (s->degree + 1) / 2, ep, err);
}

int fam_slimfly_counts(moore_params *p, moore_counts *c, moore_error *err)
{
    sf_shape s = { 0, 0, 0, 0 };
    int32_t ep;
    int rc = sf_read(p, &s, &ep, err);
    if (rc)
        return rc;
    int64_t q2 = (int64_t)s.q * s.q;
    c->switches = 2 * q2;
    c->links = q2 * s.degree;
    c->degree_min = c->degree_max = s.degree;
    c->endpoints = 2 * q2 * ep;
    c->diameter = 2;
    return MOORE_OK;
}

/* Marks the generator sets: inx[e] = 1 for e ∈ X, inxp[e] = 1 for e ∈ X'. */
static int sf_generators(const moore_gf *f, const sf_shape *s, char *inx, char *inxp,
                         moore_error *err)
{
    int32_t q = s->q, w = s->w, size = 0;
    for (int32_t e = 0; e < q; e++)
        inx[e] = inxp[e] = 0;
    /* Exponents of ξ in X: the even ones up to q−3 (δ = 1) or q−2 (δ = 0); for
     * δ = −1 the even ones up to 2w−2 and the odd ones from 2w−1 to 4w−3. */
    for (int32_t i = 0; i < q - 1; i++) {
        int in = 0;
        if (s->delta == 1)
            in = i % 2 == 0 && i <= q - 3;
        else if (s->delta == 0)
            in = i % 2 == 0 && i <= q - 2;
        else
            in = (i % 2 == 0 && i <= 2 * w - 2) || (i % 2 == 1 && i >= 2 * w - 1 && i <= 4 * w - 3);
        if (in) {
            int32_t x = moore_gf_pow_primitive(f, i);
            inx[x] = 1;
            inxp[moore_gf_mul(f, f->primitive, x)] = 1;
            size++;
        }
    }
    if (size != s->degree - q)
        return moore_error_set(err, MOORE_EINTERNAL,
                               "slimfly: q=%d: generator set has %d elements, expected %d",
                               (int)q, (int)size, (int)(s->degree - q));
    for (int32_t e = 1; e < q; e++)
        if (inx[e] != inx[f->neg[e]] || inxp[e] != inxp[f->neg[e]])
            return moore_error_set(err, MOORE_EINTERNAL,
                                   "slimfly: q=%d: generator set is not closed under negation "
                                   "(element %d)",
                                   (int)q, (int)e);
    return MOORE_OK;
}

/* Adds every link once, from its smaller end, switches ascending and each
 * row's neighbours ascending, so the links reach the builder already in (u, v)
 * order. Row u = (g,a,y) links to (g,a,y') for y' > y with y' − y in the
 * group's set, then — group 0 only, since group-1 ids are larger — to
 * (1,m,c) with c = y − m·a, in ascending m. */
static int sf_links(moore_builder *b, const moore_gf *f, const char *inx, const char *inxp,
                    moore_error *err)
{
    int32_t q = f->q, q2 = q * q;
    for (int32_t u = 0; u < 2 * q2; u++) {
        int32_t grp = u / q2, a = u % q2 / q, y = u % q;
        const char *set = grp ? inxp : inx;
        for (int32_t y2 = y + 1; y2 < q; y2++)
            if (set[moore_gf_sub(f, y2, y)]) {
                int rc = moore_builder_add_link(b, u, u - y + y2, err);
                if (rc)
                    return rc;
            }
        for (int32_t m = 0; grp == 0 && m < q; m++) {
            int32_t c = moore_gf_sub(f, y, moore_gf_mul(f, m, a));
            int rc = moore_builder_add_link(b, u, q2 + m * q + c, err);
            if (rc)
                return rc;
        }
    }
    return MOORE_OK;
}

/* Labels "(0,x,y)" and "(1,m,c)", field elements as integers. */
static int sf_labels(moore_graph *g, int32_t q, moore_error *err)
{
    char label[48];
    for (int32_t v = 0; v < g->n; v++) {
        int32_t grp = v / (q * q), r = v % (q * q);
        snprintf(label, sizeof label, "(%d,%d,%d)", (int)grp, (int)(r / q), (int)(r % q));
        int rc = moore_graph_set_label(g, v, label, err);
        if (rc)
            return rc;
    }
    return MOORE_OK;
}

int fam_slimfly_build(moore_params *p, moore_graph **out, moore_error *err)
{
    sf_shape s = { 0, 0, 0, 0 };
    int32_t ep;
    *out = NULL;
    int rc = sf_read(p, &s, &ep, err);
    if (rc)
        return rc;
    int32_t q = s.q;
    double n = 2.0 * q * q, links = (double)q * q * s.degree;
    /* Peak: the builder's pairs, the sort's scratch and the CSR rows (8 bytes
     * a link each), offsets, endpoints and labels per switch, and the field's
     * two q×q tables. */
    char what[64];
    snprintf(what, sizeof what, "slimfly:q=%d", (int)q);
    rc = moore_memory_guard(24.0 * links + 64.0 * n + 8.0 * q * q, what, err);
    if (rc)
        return rc;
    moore_gf *f;
    if ((rc = moore_gf_new(q, &f, err)))
        return rc;
    char *inx = moore_malloc((size_t)q, 2, err);
    moore_builder *b = NULL;
    moore_graph *g = NULL;
    rc = inx ? MOORE_OK : core_alloc_code(err);
    if (!rc)
        rc = sf_generators(f, &s, inx, inx + q, err);
    if (!rc)
        rc = moore_builder_new((int32_t)n, (int64_t)links, &b, err);
    if (!rc)
        rc = sf_links(b, f, inx, inx + q, err);
    if (!rc) {
        rc = moore_builder_finish(b, &g, err); /* frees b either way */
        b = NULL;
    }
    if (!rc)
        rc = moore_graph_set_endpoints_uniform(g, ep, err);
    if (!rc)
        rc = sf_labels(g, q, err);
    if (!rc) {
        *out = g;
        g = NULL;
    }
    moore_graph_free(g);
    moore_builder_free(b);
    free(inx);
    moore_gf_free(f);
    return rc;
}

/* Every admissible q whose degree leaves a port (k' < radix), smallest first.
 * k' grows strictly with q, so the walk stops at the first k' >= radix. The
 * list is cut at ~10^6 switches, except that with a target endpoint count it
 * runs on to the first q that reaches the target. */
int fam_slimfly_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                       moore_error *err)
{
    int reached = 0;
    for (int32_t q = 3; q <= MOORE_GF_MAX; q++) {
        sf_shape s;
        if (!sf_classify(q, &s))
            continue;
        if (s.degree >= radix)
            break;
        int64_t n = 2 * (int64_t)q * q;
        if (n > 1000000 && (endpoints <= 0 || reached))
            break;
        int rc = fam_emit(emit, ctx, err, "slimfly:q=%d,radix=%d", (int)q, (int)radix);
        if (rc)
            return rc;
        if (endpoints > 0 && n * (radix - s.degree) >= endpoints)
            reached = 1;
    }
    return MOORE_OK;
}
