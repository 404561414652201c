/* delorme.c — Delorme graphs (C. Delorme, "Grands graphes de degré et
 * diamètre donnés", European J. Combinatorics 6, 1985): the polarity graph of
 * the generalized quadrangle W(q) for q = 2^(2a−1), diameter 3.
 *
 * Switches are the (q+1)(q²+1) points of PG(3,q), normalised so their first
 * nonzero coordinate is 1. For q an odd power of 2, W(q) has a polarity
 * (Tits); with σ = 2^a (so σ² = 2q) it maps the point u = (u0,u1,u2,u3) to
 * the line with Plücker coordinates
 *     p01 = p23 = (u0·u1 + u2·u3)^(σ/2),
 *     p02 = u0^σ,  p31 = u1^σ,  p03 = u2^σ,  p12 = u3^σ,
 * and x lies on that line iff M·x = 0 for the alternating matrix
 *     [ 0   p23 p31 p12 ]
 *     [ p23 0   p03 p02 ]
 *     [ p31 p03 0   p01 ]
 *     [ p12 p02 p01 0   ]
 * (characteristic 2: no signs). u ~ x iff x ≠ u lies on u's line. Each line
 * has q+1 points; the q²+1 absolute points (on their own line, the
 * Suzuki–Tits ovoid) have degree q, all others q+1. Diameter 3.
 *
 * The builder solves M·x = 0 (rank 2) by Gauss–Jordan elimination over GF(q)
 * and walks the q+1 points of the kernel, O(q) per switch. Point ids: points
 * (1,x1,x2,x3) are x1·q² + x2·q + x3, then (0,1,x2,x3), (0,0,1,x3), (0,0,0,1). */
#include "families.h"
#include "moore/field.h"

#include <stdio.h>

const moore_param_info fam_delorme_params[] = {
    { "q", "", "q = 2^(2a-1) (2, 8, 32, 128, ...): (q+1)(q^2+1) switches of degree q+1" },
    MOORE_PARAM_P("(q+1)/3"),
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

/* a with q = 2^(2a−1), or 0 when q is not an odd power of two. */
static int dl_exponent(int64_t q)
{
    int e = 0;
    while (q > 1 && q % 2 == 0) {
        q /= 2;
        e++;
    }
    return q == 1 && e % 2 == 1 ? (e + 1) / 2 : 0;
}

static int dl_read(moore_params *pp, int64_t *q, int32_t *p, moore_error *err)
{
    int rc = moore_params_int(pp, "q", -1, 0, MOORE_GF_MAX, q, err);
    if (rc)
        return rc;
    if (*q < 0)
        return moore_error_set(err, MOORE_EINVAL, "delorme: q= is required (q = 2^(2a-1): "
                               "2, 8, 32, ...)");
    if (!dl_exponent(*q))
        return moore_error_set(err, MOORE_EINVAL, "delorme: q=%lld is not an odd power of 2 "
                               "(the polarity of W(q) needs q = 2^(2a-1): 2, 8, 32, ...)",
                               (long long)*q);
    if ((*q + 1) * (*q * *q + 1) > MOORE_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL, "delorme: q=%lld gives (q+1)(q^2+1) = %lld "
                               "switches, more than %d", (long long)*q,
                               (long long)((*q + 1) * (*q * *q + 1)), MOORE_MAX_SWITCHES);
    int64_t def = (*q + 1) / 3;
    return moore_family_resolve_endpoints(pp, (int32_t)(*q + 1), (int32_t)(def < 1 ? 1 : def), p,
                                          err);
}

int fam_delorme_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    int64_t q;
    int32_t p;
    int rc = dl_read(pp, &q, &p, err);
    if (rc)
        return rc;
    c->switches = (q + 1) * (q * q + 1);
    c->links = q * (q * q + 1) * (q + 2) / 2;
    c->degree_min = (int32_t)q;
    c->degree_max = (int32_t)(q + 1);
    c->endpoints = c->switches * p;
    c->diameter = 3;
    c->multiplicity = 1;
    return MOORE_OK;
}

typedef struct dl_point {
    int32_t x[4];
} dl_point;

static dl_point dl_point_of(int32_t q, int32_t v)
{
    int64_t q3 = (int64_t)q * q * q;
    if (v < q3)
        return (dl_point){ { 1, (int32_t)(v / (q * q)), v / q % q, v % q } };
    v -= (int32_t)q3;
    if (v < q * q)
        return (dl_point){ { 0, 1, v / q, v % q } };
    v -= q * q;
    if (v < q)
        return (dl_point){ { 0, 0, 1, v } };
    return (dl_point){ { 0, 0, 0, 1 } };
}

/* Scales P so its first nonzero coordinate is 1; returns its id. */
static int32_t dl_id(const moore_gf *f, dl_point P)
{
    int32_t q = f->q, k = 0, base = 0, size = q * q * q, id = 0;
    while (P.x[k] == 0)
        k++;
    int32_t inv = f->inv[P.x[k]];
    for (int i = 0; i < k; i++) {
        base += size;
        size /= q;
    }
    for (int i = k + 1; i < 4; i++)
        id = id * q + moore_gf_mul(f, P.x[i], inv);
    return base + id;
}

static int32_t dl_pow(const moore_gf *f, int32_t x, int64_t e)
{
    int32_t r = 1;
    for (int64_t i = 0; i < e; i++)
        r = moore_gf_mul(f, r, x);
    return r;
}

/* The kernel of u's line matrix: two basis points; 0 when its rank is not 2. */
static int dl_line(const moore_gf *f, int64_t sigma, dl_point u, dl_point basis[2])
{
    int32_t a = moore_gf_add(f, moore_gf_mul(f, u.x[0], u.x[1]), moore_gf_mul(f, u.x[2], u.x[3]));
    int32_t p01 = dl_pow(f, a, sigma / 2), p23 = p01, p02 = dl_pow(f, u.x[0], sigma),
            p31 = dl_pow(f, u.x[1], sigma), p03 = dl_pow(f, u.x[2], sigma),
            p12 = dl_pow(f, u.x[3], sigma);
    int32_t M[4][4] = { { 0, p23, p31, p12 }, { p23, 0, p03, p02 },
                        { p31, p03, 0, p01 }, { p12, p02, p01, 0 } };
    int pivot_col[4], rank = 0, is_pivot[4] = { 0, 0, 0, 0 };
    for (int col = 0; col < 4 && rank < 4; col++) {
        int row = rank;
        while (row < 4 && M[row][col] == 0)
            row++;
        if (row == 4)
            continue;
        for (int j = 0; j < 4; j++) {
            int32_t t = M[row][j];
            M[row][j] = M[rank][j];
            M[rank][j] = t;
        }
        int32_t inv = f->inv[M[rank][col]];
        for (int j = 0; j < 4; j++)
            M[rank][j] = moore_gf_mul(f, M[rank][j], inv);
        for (int r = 0; r < 4; r++) {
            int32_t factor = M[r][col];
            for (int j = 0; r != rank && factor && j < 4; j++)
                M[r][j] = moore_gf_sub(f, M[r][j], moore_gf_mul(f, factor, M[rank][j]));
        }
        pivot_col[rank++] = col;
        is_pivot[col] = 1;
    }
    if (rank != 2)
        return 0;
    int b = 0;
    for (int free_col = 0; free_col < 4; free_col++) {
        if (is_pivot[free_col])
            continue;
        dl_point x = { { 0, 0, 0, 0 } };
        x.x[free_col] = 1;
        for (int r = 0; r < rank; r++)
            x.x[pivot_col[r]] = f->neg[M[r][free_col]];
        basis[b++] = x;
    }
    return 1;
}

static void delorme_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    dl_point P = dl_point_of(*(const int32_t *)ctx, v);
    snprintf(buf, len, "[%d,%d,%d,%d]", (int)P.x[0], (int)P.x[1], (int)P.x[2], (int)P.x[3]);
}

/* Links u to the points x > u of its line. */
static int dl_links(const moore_gf *f, int64_t sigma, int32_t n, moore_builder *b,
                    moore_error *err)
{
    int32_t q = f->q;
    for (int32_t u = 0; u < n; u++) {
        dl_point basis[2];
        if (!dl_line(f, sigma, dl_point_of(q, u), basis))
            return moore_error_set(err, MOORE_EINTERNAL, "delorme: q=%d: the line of point %d "
                                   "is not a line (rank != 2)", (int)q, (int)u);
        for (int32_t t = 0; t <= q; t++) {
            dl_point x = basis[1];
            for (int i = 0; t < q && i < 4; i++)
                x.x[i] = moore_gf_add(f, basis[0].x[i], moore_gf_mul(f, t, basis[1].x[i]));
            int32_t v = dl_id(f, x);
            if (v > u) {
                int rc = moore_builder_add_link(b, u, v, err);
                if (rc)
                    return rc;
            }
        }
    }
    return MOORE_OK;
}

int fam_delorme_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    int64_t q;
    int32_t p;
    moore_counts c;
    moore_gf *f = NULL;
    moore_builder *b = NULL;
    *out = NULL;
    int rc = dl_read(pp, &q, &p, err);
    if (!rc)
        rc = fam_delorme_counts(pp, &c, err);
    if (!rc)
        rc = fam_guard(&c, "delorme", err);
    if (!rc)
        rc = moore_gf_new((int32_t)q, &f, err);
    if (!rc)
        rc = moore_builder_new((int32_t)c.switches, c.links, &b, err);
    if (!rc)
        rc = dl_links(f, (int64_t)1 << dl_exponent(q), (int32_t)c.switches, b, err);
    int32_t q32 = (int32_t)q;
    if (!rc)
        rc = fam_graph_finish(&b, p, delorme_label, &q32, out, err);
    moore_builder_free(b);
    moore_gf_free(f);
    return rc;
}

/* q = 2, 8, 32, … with q + 1 < radix, the default p = ⌊(q+1)/3⌋ capped by
 * the free ports; past the listing size only until a target is reached. */
int fam_delorme_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                       moore_error *err)
{
    int reached = 0;
    for (int64_t q = 2; q + 1 < radix && q <= MOORE_GF_MAX; q *= 4) {
        int64_t n = (q + 1) * (q * q + 1);
        if (n > MOORE_MAX_SWITCHES || (n > MOORE_PLAN_LIST_SWITCHES && (endpoints <= 0 || reached)))
            break;
        int64_t p = fam_plan_p(radix, q + 1, (q + 1) / 3);
        int rc = fam_emit(emit, ctx, err, "delorme:q=%lld,p=%lld", (long long)q,
                                   (long long)p);
        if (rc)
            return rc;
        reached |= endpoints > 0 && n * p >= endpoints;
    }
    return MOORE_OK;
}
