/* classic.c — reference graphs with known answers: K_n, the Petersen graph,
 * and the Hoffman–Singleton graph.
 *
 * Hoffman–Singleton is built by Robertson's pentagons and pentagrams, which
 * shares nothing with the MMS construction in slimfly.c; that independence is
 * what makes "slimfly:q=5 is Hoffman–Singleton" a real test. */
#include "families.h"

#include <stdio.h>

const moore_param_info fam_complete_params[] = {
    { "n", "", "switches (each linked to every other)" },
    MOORE_PARAM_P("1"),
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};
const moore_param_info fam_petersen_params[] = { MOORE_PARAM_P("1"), MOORE_PARAM_RADIX,
                                                   { NULL, NULL, NULL } };
const moore_param_info fam_hoffman_singleton_params[] = { MOORE_PARAM_P("1"),
                                                            MOORE_PARAM_RADIX,
                                                            { NULL, NULL, NULL } };

/* The last step of a regular reference graph: fam_graph_finish with
 * endpoints from p/radix (default 1). The caller frees *b at its end, as
 * always (NULL once finished). */
static int finish(moore_builder **b, moore_params *p, int32_t degree,
                  moore_family_labeler label, moore_graph **out, moore_error *err)
{
    int32_t ep = 0;
    int rc = moore_family_resolve_endpoints(p, degree, 1, &ep, err);
    if (!rc)
        rc = fam_graph_finish(b, ep, label, NULL, out, err);
    return rc;
}

int fam_complete_counts(moore_params *p, moore_counts *c, moore_error *err)
{
    int64_t n;
    int32_t ep;
    int rc = moore_params_int(p, "n", -1, 1, 200000, &n, err);
    if (!rc && n < 0)
        rc = moore_error_set(err, MOORE_EINVAL, "complete: n= is required");
    if (!rc)
        rc = moore_family_resolve_endpoints(p, (int32_t)(n - 1), 1, &ep, err);
    if (rc)
        return rc;
    c->switches = n;
    c->links = n * (n - 1) / 2;
    c->degree_min = c->degree_max = (int32_t)(n - 1);
    c->endpoints = n * ep;
    c->diameter = n > 1 ? 1 : 0;
    return MOORE_OK;
}

int fam_complete_build(moore_params *p, moore_graph **out, moore_error *err)
{
    moore_counts c;
    moore_builder *b = NULL;
    int rc = fam_complete_counts(p, &c, err);
    if (!rc)
        rc = moore_builder_new((int32_t)c.switches, c.links, &b, err);
    for (int32_t u = 0; !rc && u < c.switches; u++)
        for (int32_t v = u + 1; !rc && v < c.switches; v++)
            rc = moore_builder_add_link(b, u, v, err);
    if (!rc)
        rc = finish(&b, p, c.degree_max, NULL, out, err);
    moore_builder_free(b);
    return rc;
}

/* Petersen: outer 5-cycle 0..4, spokes i–i+5, inner pentagram i+5 – (i+2 mod 5)+5. */
int fam_petersen_build(moore_params *p, moore_graph **out, moore_error *err)
{
    moore_builder *b = NULL;
    int rc = moore_builder_new(10, 15, &b, err);
    for (int32_t i = 0; !rc && i < 5; i++) {
        rc = moore_builder_add_link(b, i, (i + 1) % 5, err);
        if (!rc) rc = moore_builder_add_link(b, i, i + 5, err);
        if (!rc) rc = moore_builder_add_link(b, i + 5, (i + 2) % 5 + 5, err);
    }
    if (!rc)
        rc = finish(&b, p, 3, NULL, out, err);
    moore_builder_free(b);
    return rc;
}

/* Robertson's names: P_h.j for pentagon vertex j, Q_i.j for pentagram vertex j. */
static void hs_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    (void)ctx;
    snprintf(buf, len, "%c%d.%d", v < 25 ? 'P' : 'Q', (int)((v % 25) / 5), (int)(v % 5));
}

/* Robertson: pentagons P_h (vertices 5h + j) with j ~ j±1, pentagrams Q_i
 * (vertices 25 + 5i + j) with j ~ j±2, and vertex j of P_h joined to vertex
 * h·i + j (mod 5) of Q_i. */
int fam_hoffman_singleton_build(moore_params *p, moore_graph **out, moore_error *err)
{
    moore_builder *b = NULL;
    int rc = moore_builder_new(50, 175, &b, err);
    for (int32_t h = 0; !rc && h < 5; h++)
        for (int32_t j = 0; !rc && j < 5; j++) {
            rc = moore_builder_add_link(b, 5 * h + j, 5 * h + (j + 1) % 5, err);
            if (!rc)
                rc = moore_builder_add_link(b, 25 + 5 * h + j, 25 + 5 * h + (j + 2) % 5, err);
            for (int32_t i = 0; !rc && i < 5; i++)
                rc = moore_builder_add_link(b, 5 * h + j, 25 + 5 * i + (h * i + j) % 5, err);
        }
    if (!rc)
        rc = finish(&b, p, 7, hs_label, out, err);
    moore_builder_free(b);
    return rc;
}
