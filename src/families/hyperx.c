/* hyperx.c — HyperX (Ahn, Binkert, Davis, McLaren & Schreiber, SC'09): the
 * Hamming graph K_S^L. Switches are L-digit base-S words; two switches are
 * linked iff their words differ in exactly one digit, so every dimension is a
 * full mesh of S switches and the diameter is L. K = 1 is the regular HyperX,
 * the flattened butterfly (Kim, Dally & Abts, ISCA'07).
 *
 * Trunking K: every link is K parallel cables. moore's graph is simple, so the
 * CSR holds each switch pair once and the trunking lives in the counts
 * (multiplicity K: cables = K × links, ports per switch = K·L·(S−1)) and in
 * the graph's parameter string. Metrics computed on the graph treat a trunk as
 * one link of capacity 1; multiply cut sizes and throughput by K to account
 * for it. */
#include "families.h"

#include <stdio.h>
#include <string.h>

const moore_param_info fam_hyperx_params[] = {
    { "L", "", "dimensions (diameter)" },
    { "S", "", "switches per dimension, >= 2" },
    { "K", "1", "trunking: cables per link" },
    { "p", "K*S/2", "endpoints per switch (K*S/2: bisection ratio 1)" },
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

typedef struct hx_shape {
    int64_t L, S, K, n;
    int32_t p;
} hx_shape;

/* S^L, or -1 when it exceeds limit. */
static int64_t ipow_capped(int64_t s, int64_t l, int64_t limit)
{
    int64_t n = 1;
    for (int64_t i = 0; i < l; i++) {
        if (n > limit / s)
            return -1;
        n *= s;
    }
    return n;
}

static int hx_shape_read(moore_params *pp, hx_shape *s, moore_error *err)
{
    int rc;
    if ((rc = moore_params_int(pp, "L", -1, 1, 64, &s->L, err)) ||
        (rc = moore_params_int(pp, "S", -1, 2, 1 << 20, &s->S, err)) ||
        (rc = moore_params_int(pp, "K", 1, 1, 1024, &s->K, err)))
        return rc;
    if (s->L < 0 || s->S < 0)
        return moore_error_set(err, MOORE_EINVAL, "hyperx: L= and S= are required");
    s->n = ipow_capped(s->S, s->L, MOORE_MAX_SWITCHES);
    if (s->n < 0)
        return moore_error_set(err, MOORE_EINVAL, "hyperx: S^L = %lld^%lld exceeds %d switches",
                               (long long)s->S, (long long)s->L, MOORE_MAX_SWITCHES);
    /* Default p = K·S/2 gives bisection ratio K·S/(2p) = 1 (Ahn et al.). */
    int64_t ports = s->K * s->L * (s->S - 1), def = s->K * s->S / 2;
    return moore_family_resolve_endpoints(pp, (int32_t)ports, (int32_t)(def < 1 ? 1 : def),
                                          &s->p, err);
}

int fam_hyperx_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    hx_shape s;
    int rc = hx_shape_read(pp, &s, err);
    if (rc)
        return rc;
    c->switches = s.n;
    c->links = s.n * s.L * (s.S - 1) / 2;
    c->degree_min = c->degree_max = (int32_t)(s.L * (s.S - 1));
    c->endpoints = s.n * s.p;
    c->diameter = (int32_t)s.L;
    c->multiplicity = (int32_t)s.K;
    return MOORE_OK;
}

static void hyperx_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    const hx_shape *s = ctx;
    size_t used = 0;
    for (int64_t d = 0; d < s->L && used + 1 < len; d++) {
        int w = snprintf(buf + used, len - used, "%s%d", d ? "." : "", (int)(v % s->S));
        used += w > 0 ? (size_t)w : 0;
        v = (int32_t)(v / s->S);
    }
}

int fam_hyperx_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    hx_shape s;
    moore_counts c;
    int rc = hx_shape_read(pp, &s, err);
    if (!rc)
        rc = fam_hyperx_counts(pp, &c, err);
    if (rc)
        return rc;
    moore_builder *b = NULL;
    if ((rc = moore_builder_new((int32_t)s.n, c.links, &b, err)))
        return rc;
    /* Digit d of v has weight S^d; link v to every word that raises that digit. */
    for (int64_t v = 0; !rc && v < s.n; v++)
        for (int64_t d = 0, w = 1; !rc && d < s.L; d++, w *= s.S) {
            int64_t digit = v / w % s.S;
            for (int64_t x = digit + 1; !rc && x < s.S; x++)
                rc = moore_builder_add_link(b, (int32_t)v, (int32_t)(v + (x - digit) * w), err);
        }
    if (!rc)
        rc = fam_graph_finish(&b, s.p, hyperx_label, &s, out, err);
    moore_builder_free(b);
    return rc;
}

/* K = 1, p = min(L·(S−1), R − L·(S−1)) endpoints per switch: the free ports,
 * but never more endpoint ports than network ports (with all free ports a
 * hypercube of 40 endpoints per switch would be the "smallest" HyperX). The
 * 2-D and 3-D shapes are listed for every S that leaves a port (past the
 * listing size only until a target is reached); with a target, each larger L
 * adds its smallest S reaching it. Other shapes via hyperx:L=… directly. */
int fam_hyperx_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                      moore_error *err)
{
    int rc = MOORE_OK;
    for (int64_t L = 2; !rc && L < radix && (L <= 3 || endpoints > 0); L++) {
        int reached = 0;
        for (int64_t S = 2; !rc && L * (S - 1) < radix; S++) {
            int64_t n = ipow_capped(S, L, MOORE_MAX_SWITCHES / 10), deg = L * (S - 1);
            int64_t p = radix - deg < deg ? radix - deg : deg;
            if (n < 0 || (n > MOORE_PLAN_LIST_SWITCHES && (endpoints <= 0 || reached)))
                break;
            int reaches = endpoints > 0 && n * p >= endpoints;
            if (L > 3 && (!reaches || reached))
                continue;
            reached |= reaches;
            rc = fam_emit(emit, ctx, err, "hyperx:L=%lld,S=%lld,p=%lld", (long long)L,
                                   (long long)S, (long long)p);
        }
    }
    return rc;
}
