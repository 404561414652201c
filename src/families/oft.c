/* oft.c — the two-level Orthogonal Fat-Tree, k-OFT (Kathareios, Minkenberg,
 * Prisacari, Rodriguez & Hoefler, SC'15, §2.2.4, after Valerio, Moser &
 * Melen), for k − 1 = q a prime power.
 *
 * Three layers of R = q²+q+1 = k²−k+1 routers: L0 and L2 (leaves, k up-links
 * and k endpoints each) and L1 (2k down-links, no endpoints). Leaf i of L0
 * and leaf i of L2 both link to the k L1 routers of row i of the paper's
 * ML3B table, which is the point–line incidence of the projective plane
 * PG(2,q): leaf i is point i, L1 router j is line j, and a point lies on a
 * line iff the dot product of their homogeneous coordinates is 0. moore
 * reads that relation off the PolarFly graph ER_q (src/families/polarfly.c,
 * same point numbering): point u lies on line v iff u ~ v in ER_q, or u = v
 * and u is one of the q+1 absolute points (the vertices of degree q).
 *
 * Any two points lie on a common line, so any two leaves are two hops apart
 * (the paper's diameter 2); two lines meet in a point, so L1 routers are two
 * apart too; a point and a line not through it are three apart (the switch
 * graph is bipartite, leaves | L1): switch diameter 3.
 *
 * Numbering: L0 leaves 0..R−1, L2 leaves R..2R−1, L1 routers 2R..3R−1, each
 * in PolarFly's point order. */
#include "families.h"
#include "moore/field.h"

#include <stdio.h>
#include <string.h>

const moore_param_info fam_oft_params[] = {
    { "k", "", "leaf network degree, k-1 a prime power: 3(k^2-k+1) routers of radix 2k" },
    { "p", "k", "endpoints per leaf (L0 and L2; L1 routers have none)" },
    { NULL, NULL, NULL }
};

int64_t fam_plan_p(int32_t radix, int64_t degree, int64_t def)
{
    int64_t free_ports = radix - degree;
    return def < 1 ? 1 : def < free_ports ? def : free_ports;
}

int fam_guard(const moore_counts *c, const char *family, moore_error *err)
{
    /* the builder's pairs, the sort's scratch and the CSR (8 bytes a link
     * each), offsets, endpoints and labels per switch */
    return moore_memory_guard(24.0 * (double)c->links + 64.0 * (double)c->switches, family, err);
}

typedef struct oft_shape {
    int64_t k, q, rows;
    int32_t p;
} oft_shape;

static int oft_read(moore_params *pp, oft_shape *s, moore_error *err)
{
    int64_t p;
    int rc = moore_params_int(pp, "k", -1, 0, MOORE_GF_MAX + 1, &s->k, err);
    if (rc)
        return rc;
    if (s->k < 0)
        return moore_error_set(err, MOORE_EINVAL, "oft: k= is required (k-1 a prime power, "
                               "e.g. oft:k=8)");
    s->q = s->k - 1;
    if (!moore_is_prime_power(s->q, NULL, NULL))
        return moore_error_set(err, MOORE_EINVAL, "oft: k=%lld: k-1 = %lld is not a prime power "
                               "(the OFT is built on the projective plane of order k-1)",
                               (long long)s->k, (long long)s->q);
    if ((rc = moore_params_int(pp, "p", s->k, 0, 1 << 20, &p, err)))
        return rc;
    s->p = (int32_t)p;
    s->rows = s->q * s->q + s->q + 1;
    return MOORE_OK;
}

int fam_oft_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    oft_shape s;
    int rc = oft_read(pp, &s, err);
    if (rc)
        return rc;
    c->switches = 3 * s.rows;
    c->links = 2 * s.rows * s.k;
    c->degree_min = (int32_t)s.k;
    c->degree_max = (int32_t)(2 * s.k);
    c->endpoints = 2 * s.rows * s.p;
    c->diameter = 3;
    c->multiplicity = 1;
    return MOORE_OK;
}

static void oft_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    int64_t rows = *(const int64_t *)ctx;
    static const char *layer[] = { "L0.", "L2.", "L1." };
    snprintf(buf, len, "%s%d", layer[v / rows], (int)(v % rows));
}

int fam_oft_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    oft_shape s;
    moore_counts c;
    moore_graph *er = NULL;
    moore_builder *b = NULL;
    *out = NULL;
    memset(&s, 0, sizeof s); /* R below is read even when oft_read refuses */
    int rc = oft_read(pp, &s, err);
    if (!rc)
        rc = fam_oft_counts(pp, &c, err);
    if (!rc)
        rc = fam_guard(&c, "oft", err);
    moore_params base;
    fam_params_q(&base, "polarfly", s.q);
    if (!rc)
        rc = fam_polarfly_build(&base, &er, err);
    if (!rc)
        rc = moore_builder_new((int32_t)c.switches, c.links, &b, err);
    int32_t R = (int32_t)s.rows;
    for (int32_t u = 0; !rc && u < R; u++) {
        int absolute = er->offs[u + 1] - er->offs[u] == s.q;
        for (int64_t e = er->offs[u]; !rc && e <= er->offs[u + 1]; e++) {
            int32_t line = e < er->offs[u + 1] ? er->adj[e] : absolute ? u : -1;
            if (line < 0)
                continue;
            rc = moore_builder_add_link(b, u, 2 * R + line, err);
            if (!rc)
                rc = moore_builder_add_link(b, R + u, 2 * R + line, err);
        }
    }
    if (!rc)
        rc = fam_graph_finish(&b, s.p, oft_label, &s.rows, out, err);
    for (int32_t v = 2 * R; !rc && v < 3 * R; v++)
        (*out)->endpoints[v] = 0;
    moore_builder_free(b);
    moore_graph_free(er);
    return rc;
}

/* Every k with k − 1 a prime power and 2k ≤ radix. */
int fam_oft_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                   moore_error *err)
{
    (void)endpoints;
    for (int64_t k = 3; 2 * k <= radix && k - 1 <= MOORE_GF_MAX; k++) {
        if (!moore_is_prime_power(k - 1, NULL, NULL) ||
            3 * (k * k - k + 1) > MOORE_PLAN_LIST_SWITCHES)
            continue;
        int rc = fam_emit(emit, ctx, err, "oft:k=%lld", (long long)k);
        if (rc)
            return rc;
    }
    return MOORE_OK;
}
