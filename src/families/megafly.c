/* megafly.c — Megafly, also called Dragonfly+ (Flajslik, Borch & Parker,
 * "Megafly: a topology for exascale systems", ISC'18; Shpiner et al. 2017),
 * and the global wiring it shares with cascade.c.
 *
 * Routers of radix d = 2a. A group is a two-level fat-tree: a leaves (a links
 * up, a endpoints) and a spines (a links down, a global links), joined as the
 * complete bipartite graph K_{a,a}. Every two groups are joined by g global
 * links, so there are a²/g + 1 groups (g must divide a²). g ≤ a keeps a
 * spine's links to one group on distinct spines there (the graph is simple).
 *
 * Global wiring, round-robin (fam_global_links): the global links of
 * group i are listed by destination group (ascending, i skipped), j = 0..m−1
 * for each, and link t of that list sits on the group's router t mod a. With
 * m·(G−1) = a·a every spine gets exactly a global links.
 *
 * Leaves are three hops apart across groups (leaf, spine, spine, leaf) and
 * two within one: the paper's diameter 3. The switch graph's diameter is 3
 * when g = a (every spine reaches every other group); for g < a (spine to
 * spine of groups it does not reach) it depends on the wiring and has no
 * closed form here.
 *
 * Numbering: group i holds 2a ids from i·2a: leaves first, then spines. */
#include "families.h"

#include <stdio.h>

const moore_param_info fam_megafly_params[] = {
    { "d", "", "router radix, even: a = d/2 leaves and a spines per group" },
    { "g", "1", "global links between every two groups; divides (d/2)^2, <= d/2" },
    { "p", "d/2", "endpoints per leaf (spines have none)" },
    { NULL, NULL, NULL }
};

int fam_global_links(moore_builder *b, int64_t groups, int64_t routers, int64_t m,
                              int64_t stride, int64_t offset, moore_error *err)
{
    for (int64_t i = 0; i < groups; i++)
        for (int64_t k = i + 1; k < groups; k++)
            for (int64_t j = 0; j < m; j++) {
                int64_t t = (k - 1) * m + j, back = i * m + j; /* rank of k at i, of i at k */
                int rc = moore_builder_add_link(b, (int32_t)(i * stride + offset + t % routers),
                                                (int32_t)(k * stride + offset + back % routers),
                                                err);
                if (rc)
                    return rc;
            }
    return MOORE_OK;
}

typedef struct mf_shape {
    int64_t d, a, g, groups;
    int32_t p;
} mf_shape;

static int mf_read(moore_params *pp, mf_shape *s, moore_error *err)
{
    int64_t p;
    int rc = moore_params_int(pp, "d", -1, 0, 1 << 16, &s->d, err);
    if (!rc)
        rc = moore_params_int(pp, "g", 1, 1, 1 << 30, &s->g, err);
    if (rc)
        return rc;
    if (s->d < 0)
        return moore_error_set(err, MOORE_EINVAL, "megafly: d= is required (router radix, "
                               "even, e.g. megafly:d=16)");
    if (s->d < 2 || s->d % 2)
        return moore_error_set(err, MOORE_EINVAL, "megafly: d=%lld is not an even radix >= 2 "
                               "(half the ports go down, half up)", (long long)s->d);
    s->a = s->d / 2;
    if ((s->a * s->a) % s->g)
        return moore_error_set(err, MOORE_EINVAL, "megafly: g=%lld does not divide (d/2)^2 = "
                               "%lld (every global port must be used)", (long long)s->g,
                               (long long)(s->a * s->a));
    if (s->g > s->a)
        return moore_error_set(err, MOORE_EINVAL, "megafly: g=%lld exceeds d/2 = %lld (the g "
                               "links between two groups must land on distinct spines)",
                               (long long)s->g, (long long)s->a);
    s->groups = s->a * s->a / s->g + 1;
    if (2 * s->a * s->groups > MOORE_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL, "megafly: d=%lld, g=%lld gives more than %d "
                               "switches", (long long)s->d, (long long)s->g, MOORE_MAX_SWITCHES);
    if ((rc = moore_params_int(pp, "p", s->a, 0, 1 << 20, &p, err)))
        return rc;
    s->p = (int32_t)p;
    return MOORE_OK;
}

int fam_megafly_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    mf_shape s;
    int rc = mf_read(pp, &s, err);
    if (rc)
        return rc;
    c->switches = 2 * s.a * s.groups;
    c->links = s.groups * s.a * s.a + s.g * s.groups * (s.groups - 1) / 2;
    c->degree_min = (int32_t)s.a;
    c->degree_max = (int32_t)(2 * s.a);
    c->endpoints = s.groups * s.a * s.p;
    /* g = a: G − 1 = a groups, so every spine links into every other group:
     * spine to spine ≤ 3 (its link into the group, a leaf, the spine), leaf
     * to another group's spine 2, leaves of two groups exactly 3. With g < a
     * a spine misses some groups and the diameter depends on the wiring. */
    c->diameter = s.g == s.a ? 3 : -1;
    c->multiplicity = 1;
    return MOORE_OK;
}

static void megafly_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    int64_t a = *(const int64_t *)ctx;
    int64_t r = v % (2 * a);
    snprintf(buf, len, "G%lld.%s%lld", (long long)(v / (2 * a)), r < a ? "leaf" : "spine",
             (long long)(r < a ? r : r - a));
}

int fam_megafly_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    mf_shape s;
    moore_counts c;
    int rc = mf_read(pp, &s, err);
    if (!rc)
        rc = fam_megafly_counts(pp, &c, err);
    if (rc)
        return rc;
    moore_builder *b = NULL;
    if ((rc = fam_guard(&c, "megafly", err)) ||
        (rc = moore_builder_new((int32_t)c.switches, c.links, &b, err)))
        return rc;
    int64_t a = s.a;
    for (int64_t i = 0; !rc && i < s.groups; i++)
        for (int64_t x = 0; !rc && x < a; x++)
            for (int64_t y = 0; !rc && y < a; y++)
                rc = moore_builder_add_link(b, (int32_t)(i * 2 * a + x),
                                            (int32_t)(i * 2 * a + a + y), err);
    if (!rc)
        rc = fam_global_links(b, s.groups, a, s.g, 2 * a, a, err);
    if (!rc)
        rc = fam_graph_finish(&b, s.p, megafly_label, &s.a, out, err);
    for (int64_t v = 0; !rc && v < c.switches; v++)
        if (v % (2 * a) >= a)
            (*out)->endpoints[v] = 0;
    moore_builder_free(b);
    return rc;
}

/* Every even d ≤ radix with g = 1 (the most groups), while the size stays
 * practical; with a target also each d's smallest divisor g ≤ d/2 of (d/2)²
 * that still reaches it (fewer, larger trunks of global links). */
int fam_megafly_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                       moore_error *err)
{
    int rc = MOORE_OK;
    for (int64_t d = 4; !rc && d <= radix; d += 2) {
        int64_t a = d / 2;
        if (2 * a * (a * a + 1) > MOORE_PLAN_LIST_SWITCHES)
            break;
        for (int64_t g = a; !rc && endpoints > 0 && g > 1; g--)
            if ((a * a) % g == 0 && (a * a / g + 1) * a * a >= endpoints) {
                rc = fam_emit(emit, ctx, err, "megafly:d=%lld,g=%lld", (long long)d,
                                       (long long)g);
                break;
            }
        if (!rc)
            rc = fam_emit(emit, ctx, err, "megafly:d=%lld", (long long)d);
    }
    return rc;
}
