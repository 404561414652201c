/* polarfly.c — PolarFly (Lakhotia et al., SC'22): the Erdős–Rényi polarity
 * graph ER_q of the projective plane PG(2,q), for every prime power q.
 *
 * Switches are the q²+q+1 points of PG(2,q), normalised as (a,b,1) [ids
 * a·q+b], (a,1,0) [ids q²+a] and (1,0,0) [id q²+q]. Two points are linked iff
 * their dot product is 0, i.e. each point u is linked to the q+1 points of its
 * polar line u^⊥, except itself. The q+1 absolute points (u·u = 0, the
 * "quadrics") lie on their own line and so have degree q; all others q+1.
 * Any two polar lines meet, which gives diameter 2 and q(q+1)²/2 links.
 *
 * The line u^⊥ is walked directly (solve u·x = 0 within each normalised
 * class), so a build costs O(q³) field operations, not O(q⁴). */
#include "families.h"
#include "moore/field.h"

#include <stdio.h>

const moore_param_info fam_polarfly_params[] = {
    { "q", "", "prime power: q^2+q+1 switches of network degree q+1" },
    MOORE_PARAM_P("(q+1)/2"),
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

static int pf_read(moore_params *pp, int64_t *q, int32_t *p, moore_error *err)
{
    int rc = moore_params_int(pp, "q", -1, 0, MOORE_GF_MAX, q, err);
    if (rc)
        return rc;
    if (*q < 0)
        return moore_error_set(err, MOORE_EINVAL, "polarfly: q= is required (a prime power)");
    if (!moore_is_prime_power(*q, NULL, NULL))
        return moore_error_set(err, MOORE_EINVAL, "polarfly: q=%lld is not a prime power",
                               (long long)*q);
    /* Default ⌊(q+1)/2⌋ endpoints (docs/families.md): about half the network
     * degree, the usual balance of a diameter-2 network. */
    return moore_family_resolve_endpoints(pp, (int32_t)(*q + 1), (int32_t)((*q + 1) / 2), p,
                                          err);
}

int fam_polarfly_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    int64_t q;
    int32_t p;
    int rc = pf_read(pp, &q, &p, err);
    if (rc)
        return rc;
    c->switches = q * q + q + 1;
    c->links = q * (q + 1) * (q + 1) / 2;
    c->degree_min = (int32_t)q;
    c->degree_max = (int32_t)(q + 1);
    c->endpoints = c->switches * p;
    c->diameter = 2;
    c->multiplicity = 1;
    return MOORE_OK;
}

typedef struct pf_point {
    int32_t x[3];
} pf_point;

static pf_point pf_point_of(int32_t q, int32_t v)
{
    pf_point P;
    if (v < q * q)
        P = (pf_point){ { v / q, v % q, 1 } };
    else if (v < q * q + q)
        P = (pf_point){ { v - q * q, 1, 0 } };
    else
        P = (pf_point){ { 1, 0, 0 } };
    return P;
}

static void polarfly_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    pf_point P = pf_point_of(*(const int32_t *)ctx, v);
    snprintf(buf, len, "[%d,%d,%d]", (int)P.x[0], (int)P.x[1], (int)P.x[2]);
}

/* Adds u's links to the points x > u of u^⊥ (each link once). */
static int pf_link_line(const moore_gf *f, int32_t u, moore_builder *b, moore_error *err)
{
    int32_t q = f->q, qq = q * q;
    pf_point P = pf_point_of(q, u);
    int32_t u0 = P.x[0], u1 = P.x[1], u2 = P.x[2];
    int rc = MOORE_OK;
#define PF_LINK(x) do { int32_t x_ = (x); if (x_ > u) rc = moore_builder_add_link(b, u, x_, err); } while (0)
    /* (a,b,1): u0·a + u1·b + u2 = 0 */
    if (u1 != 0) {
        int32_t inv = f->inv[u1];
        for (int32_t a = 0; !rc && a < q; a++) {
            int32_t rhs = f->neg[moore_gf_add(f, moore_gf_mul(f, u0, a), u2)];
            PF_LINK(a * q + moore_gf_mul(f, rhs, inv));
        }
    } else if (u0 != 0) {
        int32_t a = moore_gf_mul(f, f->neg[u2], f->inv[u0]);
        for (int32_t bb = 0; !rc && bb < q; bb++)
            PF_LINK(a * q + bb);
    }
    /* (a,1,0): u0·a + u1 = 0 */
    if (u0 != 0)
        PF_LINK(qq + moore_gf_mul(f, f->neg[u1], f->inv[u0]));
    else if (u1 == 0)
        for (int32_t a = 0; !rc && a < q; a++)
            PF_LINK(qq + a);
    /* (1,0,0): u0 = 0 */
    if (!rc && u0 == 0)
        PF_LINK(qq + q);
#undef PF_LINK
    return rc;
}

int fam_polarfly_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    moore_counts c;
    int64_t q = 0;
    int32_t p = 0;
    moore_gf *f = NULL;
    moore_builder *b = NULL;
    int rc = fam_polarfly_counts(pp, &c, err);
    if (!rc)
        rc = pf_read(pp, &q, &p, err);
    if (!rc)
        rc = moore_gf_new((int32_t)q, &f, err);
    if (!rc)
        rc = moore_builder_new((int32_t)c.switches, c.links, &b, err);
    for (int32_t u = 0; !rc && u < c.switches; u++)
        rc = pf_link_line(f, u, b, err);
    int32_t q32 = (int32_t)q;
    if (!rc)
        rc = fam_graph_finish(&b, p, polarfly_label, &q32, out, err);
    moore_builder_free(b);
    moore_gf_free(f);
    return rc;
}

/* Every prime power q whose network degree q+1 leaves a port for an endpoint
 * (radix=R); past the listing size only until a target is reached. */
int fam_polarfly_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                        moore_error *err)
{
    int reached = 0;
    for (int64_t q = 2; q + 1 < radix && q <= MOORE_GF_MAX; q++) {
        if (!moore_is_prime_power(q, NULL, NULL))
            continue;
        int64_t n = q * q + q + 1;
        if (n > MOORE_PLAN_LIST_SWITCHES && (endpoints <= 0 || reached))
            break;
        int rc = fam_emit(emit, ctx, err, "polarfly:q=%lld,radix=%d", (long long)q,
                                   (int)radix);
        if (rc)
            return rc;
        reached |= endpoints > 0 && n * (radix - q - 1) >= endpoints;
    }
    return MOORE_OK;
}
