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

/* Finishes a regular reference graph: endpoints from p/radix (default 1). */
static int finish(moore_builder *b, moore_params *p, int32_t degree, moore_graph **out,
                  moore_error *err)
{
    int32_t ep;
    int rc = moore_family_resolve_endpoints(p, degree, 1, &ep, err);
    if (rc) {
        moore_builder_free(b);
        return rc;
    }
    moore_graph *g;
    rc = moore_builder_finish(b, &g, err);
    if (!rc)
        rc = moore_graph_set_endpoints_uniform(g, ep, err);
    if (rc) {
        if (g)
            moore_graph_free(g);
        return rc;
    }
    *out = g;
    return MOORE_OK;
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
    int rc = fam_complete_counts(p, &c, err);
    if (rc)
        return rc;
    moore_builder *b;
    rc = moore_builder_new((int32_t)c.switches, c.links, &b, err);
    if (rc)
        return rc;
    for (int32_t u = 0; u < c.switches; u++)
        for (int32_t v = u + 1; v < c.switches; v++)
            if ((rc = moore_builder_add_link(b, u, v, err))) {
                moore_builder_free(b);
                return rc;
            }
    return finish(b, p, c.degree_max, out, err);
}

/* Petersen: outer 5-cycle 0..4, spokes i–i+5, inner pentagram i+5 – (i+2 mod 5)+5. */
int fam_petersen_build(moore_params *p, moore_graph **out, moore_error *err)
{
    moore_builder *b;
    int rc = moore_builder_new(10, 15, &b, err);
    for (int32_t i = 0; !rc && i < 5; i++) {
        rc = moore_builder_add_link(b, i, (i + 1) % 5, err);
        if (!rc) rc = moore_builder_add_link(b, i, i + 5, err);
        if (!rc) rc = moore_builder_add_link(b, i + 5, (i + 2) % 5 + 5, err);
    }
    if (rc) {
        moore_builder_free(b);
        return rc;
    }
    return finish(b, p, 3, out, err);
}

/* Robertson: pentagons P_h (vertices 5h + j) with j ~ j±1, pentagrams Q_i
 * (vertices 25 + 5i + j) with j ~ j±2, and vertex j of P_h joined to vertex
 * h·i + j (mod 5) of Q_i. */
int fam_hoffman_singleton_build(moore_params *p, moore_graph **out, moore_error *err)
{
    moore_builder *b;
    int rc = moore_builder_new(50, 175, &b, err);
    for (int32_t h = 0; !rc && h < 5; h++)
        for (int32_t j = 0; !rc && j < 5; j++) {
            rc = moore_builder_add_link(b, 5 * h + j, 5 * h + (j + 1) % 5, err);
            if (!rc)
                rc = moore_builder_add_link(b, 25 + 5 * h + j, 25 + 5 * h + (j + 2) % 5, err);
            for (int32_t i = 0; !rc && i < 5; i++)
                rc = moore_builder_add_link(b, 5 * h + j, 25 + 5 * i + (h * i + j) % 5, err);
        }
    if (rc) {
        moore_builder_free(b);
        return rc;
    }
    rc = finish(b, p, 7, out, err);
    for (int32_t v = 0; !rc && v < 50; v++) {
        char label[16];
        snprintf(label, sizeof label, "%c%d.%d", v < 25 ? 'P' : 'Q', (v % 25) / 5, v % 5);
        rc = moore_graph_set_label(*out, v, label, err);
    }
    if (rc && *out) {
        moore_graph_free(*out);
        *out = NULL;
    }
    return rc;
}
