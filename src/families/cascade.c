/* cascade.c — the Cray Cascade (XC) dragonfly of Aries routers (Faanes et
 * al., "Cray Cascade: a scalable HPC system based on a Dragonfly network",
 * SC'12).
 *
 * A group is 6 chassis of 16 Aries routers, wired as a 16×6 two-dimensional
 * all-to-all: the 16 routers of a chassis are a full mesh of single "green"
 * links, and the router in slot s of each chassis links to slot s of the 5
 * other chassis with 3 parallel "black" links each (15 green + 15 black
 * ports). Each router has 10 "blue" global ports and 4 compute nodes. moore
 * joins every two of the g groups by m blue links (default 4, the unit of
 * EvalNet's generator: at most 960/4 + 1 = 241 groups; m(g−1) ≤ 960 and
 * m ≤ 96), spread round-robin over the 96 routers of each group as in
 * megafly.c, so m ≤ 96 keeps them on distinct routers.
 *
 * Trunking: the graph is simple, so a black trunk is one graph link; the
 * counts carry it (cables = green + 3 × black + blue; ports_max counts each
 * black trunk as 3 ports), as HyperX's K does for uniform trunks.
 *
 * Numbering: router s of chassis c in group i is i·96 + c·16 + s. */
#include "families.h"

#include <stdio.h>

#define CASCADE_ROUTERS 96
#define CASCADE_SLOTS 16
#define CASCADE_CHASSIS 6
#define CASCADE_BLACK_TRUNK 3
#define CASCADE_BLUE_PER_PAIR 4 /* default m */
#define CASCADE_BLUE_PORTS 10
#define CASCADE_GROUPS_MAX (CASCADE_ROUTERS * CASCADE_BLUE_PORTS / CASCADE_BLUE_PER_PAIR + 1)

const moore_param_info fam_cascade_params[] = {
    { "g", "", "groups of 96 Aries routers, 1..241 (with m = 4)" },
    { "m", "4", "global links between every two groups; m*(g-1) <= 960, m <= 96" },
    MOORE_PARAM_P("4"),
    { NULL, NULL, NULL }
};

static int cascade_read(moore_params *pp, int64_t *g, int64_t *m, int32_t *p,
                        moore_error *err)
{
    int64_t pv;
    int rc = moore_params_int(pp, "g", -1, 0, 1 << 20, g, err);
    if (!rc)
        rc = moore_params_int(pp, "m", CASCADE_BLUE_PER_PAIR, 1, CASCADE_ROUTERS, m, err);
    if (rc)
        return rc;
    if (*g < 0)
        return moore_error_set(err, MOORE_EINVAL, "cascade: g= is required (groups, 1..%d)",
                               CASCADE_GROUPS_MAX);
    if (*g < 1 || *m * (*g - 1) > CASCADE_ROUTERS * CASCADE_BLUE_PORTS)
        return moore_error_set(err, MOORE_EINVAL, "cascade: g=%lld is outside 1..%lld (each "
                               "group has 960 global ports, m=%lld per other group)",
                               (long long)*g,
                               (long long)(CASCADE_ROUTERS * CASCADE_BLUE_PORTS / *m + 1),
                               (long long)*m);
    if ((rc = moore_params_int(pp, "p", 4, 0, 1 << 20, &pv, err)))
        return rc;
    *p = (int32_t)pv;
    return MOORE_OK;
}

int fam_cascade_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    int64_t g = 0, m = 0;
    int32_t p = 0;
    int rc = cascade_read(pp, &g, &m, &p, err);
    if (rc)
        return rc;
    int64_t green = CASCADE_CHASSIS * CASCADE_SLOTS * (CASCADE_SLOTS - 1) / 2,
            black = CASCADE_SLOTS * CASCADE_CHASSIS * (CASCADE_CHASSIS - 1) / 2,
            blue = m * g * (g - 1) / 2,
            per_router = m * (g - 1); /* blue links of a group */
    int32_t local = (CASCADE_SLOTS - 1) + (CASCADE_CHASSIS - 1);
    int32_t blue_lo = (int32_t)(per_router / CASCADE_ROUTERS),
            blue_hi = blue_lo + (per_router % CASCADE_ROUTERS != 0);
    c->switches = CASCADE_ROUTERS * g;
    c->links = g * (green + black) + blue;
    c->degree_min = local + blue_lo;
    c->degree_max = local + blue_hi;
    c->endpoints = c->switches * p;
    /* A group is the Hamming graph 16×6: diameter 2. With m = 96 router x of
     * every group links to router x of every other group, so any two routers
     * are at most 1 global + 2 local hops apart, and x to a router two local
     * hops from x in another group needs all 3. No closed form otherwise. */
    c->diameter = g == 1 ? 2 : m == CASCADE_ROUTERS ? 3 : -1;
    c->multiplicity = 1;
    c->cables = g * (green + CASCADE_BLACK_TRUNK * black) + blue;
    c->ports_max = (CASCADE_SLOTS - 1) + CASCADE_BLACK_TRUNK * (CASCADE_CHASSIS - 1) + blue_hi;
    return MOORE_OK;
}

static void cascade_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    (void)ctx;
    int32_t r = v % CASCADE_ROUTERS;
    snprintf(buf, len, "G%d.c%d.s%d", (int)(v / CASCADE_ROUTERS), (int)(r / CASCADE_SLOTS),
             (int)(r % CASCADE_SLOTS));
}

int fam_cascade_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    int64_t g = 0, m = 0;
    int32_t p = 0;
    moore_counts c = { 0 };
    int rc = cascade_read(pp, &g, &m, &p, err);
    if (!rc)
        rc = fam_cascade_counts(pp, &c, err);
    if (rc)
        return rc;
    moore_builder *b = NULL;
    if ((rc = fam_guard(&c, "cascade", err)) ||
        (rc = moore_builder_new((int32_t)c.switches, c.links, &b, err)))
        return rc;
    for (int64_t i = 0; !rc && i < g; i++)
        for (int32_t ch = 0; !rc && ch < CASCADE_CHASSIS; ch++)
            for (int32_t s = 0; !rc && s < CASCADE_SLOTS; s++) {
                int32_t v = (int32_t)(i * CASCADE_ROUTERS) + ch * CASCADE_SLOTS + s;
                for (int32_t s2 = s + 1; !rc && s2 < CASCADE_SLOTS; s2++)
                    rc = moore_builder_add_link(b, v, v + (s2 - s), err);
                for (int32_t ch2 = ch + 1; !rc && ch2 < CASCADE_CHASSIS; ch2++)
                    rc = moore_builder_add_link(b, v, v + (ch2 - ch) * CASCADE_SLOTS, err);
            }
    if (!rc)
        rc = fam_global_links(b, g, CASCADE_ROUTERS, m,
                                       CASCADE_ROUTERS, 0, err);
    if (!rc)
        rc = fam_graph_finish(&b, p, cascade_label, NULL, out, err);
    moore_builder_free(b);
    return rc;
}

/* Aries routers have 48 ports (8 for the 4 nodes, 40 network), so only a
 * radix of at least 48 can hold them; then every group count from 2 while
 * the size is practical (all 241 fit). */
int fam_cascade_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                       moore_error *err)
{
    (void)endpoints;
    for (int64_t g = 2; radix >= 48 && g <= CASCADE_GROUPS_MAX; g++) {
        int rc = fam_emit(emit, ctx, err, "cascade:g=%lld", (long long)g);
        if (rc)
            return rc;
    }
    return MOORE_OK;
}
