/* dragonfly.c — the Dragonfly (Kim, Dally, Scott & Abts, ISCA'08): groups of
 * a switches joined as a full mesh, each switch with h global links and p
 * endpoints, g groups joined by the global links.
 *
 * `dragonfly:p=P` is the balanced form a = 2p = 2h with g = a·h + 1 groups
 * (one global link between every two groups); `dragonfly:p=P,g=G` keeps the
 * balance with fewer groups, and `dragonfly:a=,h=,g=[,p=|radix=]` is general.
 *
 * Global arrangement, "consecutive" (also called absolute): the a·h global
 * ports of a group are numbered consecutively across its switches (switch s
 * holds ports s·h … s·h+h−1). Port j goes to the (j mod (g−1))-th other group
 * in increasing group order, in round r = ⌊j/(g−1)⌋, and meets that group's
 * port of the same round that points back. With g < a·h + 1 every two groups
 * get m = ⌊a·h/(g−1)⌋ parallel global links (on distinct switch pairs); ports
 * past m·(g−1) stay unused. Requiring g ≥ h + 1 keeps a switch's h global
 * links on h distinct groups, so no two links join the same switch pair. */
#include "families.h"

#include <stdio.h>

const moore_param_info fam_dragonfly_params[] = {
    { "p", "-", "endpoints per switch; alone it sizes a balanced dragonfly a=2p, h=p "
                 "(general form: default h)" },
    { "a", "-", "switches per group (general form, with h=)" },
    { "h", "-", "global links per switch (general form, with a=)" },
    { "g", "-", "groups, h+1..a*h+1 (default a*h+1: one link between every two groups)" },
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

typedef struct df_shape {
    int64_t a, h, g, p, m; /* m: global links between every two groups */
} df_shape;

static int df_shape_read(moore_params *pp, df_shape *s, moore_error *err)
{
    int rc;
    int general = moore_params_has(pp, "a") || moore_params_has(pp, "h");
    if (general) {
        if (!moore_params_has(pp, "a") || !moore_params_has(pp, "h"))
            return moore_error_set(err, MOORE_EINVAL,
                                   "dragonfly: the general form needs both a= and h=");
        if ((rc = moore_params_int(pp, "a", 0, 1, 65536, &s->a, err)) ||
            (rc = moore_params_int(pp, "h", 0, 1, 65536, &s->h, err)))
            return rc;
    } else {
        if (moore_params_has(pp, "radix"))
            return moore_error_set(err, MOORE_EINVAL, "dragonfly: radix= needs a= and h= "
                                   "(a balanced dragonfly is sized by p=)");
        if (!moore_params_has(pp, "p"))
            return moore_error_set(err, MOORE_EINVAL, "dragonfly: give p= (balanced: a=2p, "
                                   "h=p) or a= and h=");
        if ((rc = moore_params_int(pp, "p", 0, 1, 32768, &s->p, err)))
            return rc;
        s->a = 2 * s->p;
        s->h = s->p;
    }
    int64_t gmax = s->a * s->h + 1;
    if ((rc = moore_params_int(pp, "g", gmax, 2, (int64_t)1 << 40, &s->g, err)))
        return rc;
    if (s->g > gmax)
        return moore_error_set(err, MOORE_EINVAL, "dragonfly: g=%lld exceeds a*h+1 = %lld "
                               "(each group has only a*h global ports)", (long long)s->g,
                               (long long)gmax);
    if (s->g < s->h + 1)
        return moore_error_set(err, MOORE_EINVAL, "dragonfly: g=%lld is below h+1 = %lld "
                               "(a switch's h global links must reach distinct groups)",
                               (long long)s->g, (long long)s->h + 1);
    if (s->a * s->g > MOORE_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL, "dragonfly: a*g = %lld switches exceeds %d",
                               (long long)(s->a * s->g), MOORE_MAX_SWITCHES);
    s->m = s->a * s->h / (s->g - 1);
    if (general) {
        int32_t ep;
        if ((rc = moore_family_resolve_endpoints(pp, (int32_t)(s->a - 1 + s->h),
                                                 (int32_t)s->h, &ep, err)))
            return rc;
        s->p = ep;
    }
    return MOORE_OK;
}

/* Global ports in use on switch s of any group (all groups look alike). */
static int64_t df_global_degree(const df_shape *s, int64_t sw)
{
    int64_t used = s->m * (s->g - 1) - sw * s->h;
    return used < 0 ? 0 : used > s->h ? s->h : used;
}

int fam_dragonfly_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    df_shape s;
    int rc = df_shape_read(pp, &s, err);
    if (rc)
        return rc;
    c->switches = s.a * s.g;
    c->links = s.g * (s.a * (s.a - 1) / 2) + s.m * (s.g * (s.g - 1) / 2);
    c->degree_max = (int32_t)(s.a - 1 + df_global_degree(&s, 0));
    c->degree_min = (int32_t)(s.a - 1 + df_global_degree(&s, s.a - 1));
    c->endpoints = c->switches * s.p;
    c->multiplicity = 1;
    /* a = 1: g = h+1 single switches, a complete graph. g = h+1: every switch
     * has a link into every other group, m = a, and switch s meets switch s
     * of each group: distance 2. Otherwise m < a, so some switch of a group
     * has no link to a given other group, on both sides: local, global, local. */
    c->diameter = s.a == 1 ? 1 : s.g == s.h + 1 ? 2 : 3;
    return MOORE_OK;
}

static void dragonfly_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    int32_t a = *(const int32_t *)ctx;
    snprintf(buf, len, "G%d.%d", (int)(v / a), (int)(v % a));
}

int fam_dragonfly_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    df_shape s;
    moore_counts c;
    int rc = fam_dragonfly_counts(pp, &c, err);
    if (!rc)
        rc = df_shape_read(pp, &s, err);
    if (rc)
        return rc;
    moore_builder *b = NULL;
    if ((rc = moore_builder_new((int32_t)c.switches, c.links, &b, err)))
        return rc;
    int32_t a = (int32_t)s.a, g = (int32_t)s.g;
    int64_t h = s.h, used = s.m * (s.g - 1);
    for (int32_t i = 0; !rc && i < g; i++) {
        for (int32_t x = 0; !rc && x < a; x++)
            for (int32_t y = x + 1; !rc && y < a; y++)
                rc = moore_builder_add_link(b, i * a + x, i * a + y, err);
        /* Each global link is added once, from the lower-numbered group. */
        for (int64_t j = 0; !rc && j < used; j++) {
            int64_t round = j / (g - 1), t = j % (g - 1);
            int32_t k = (int32_t)(t < i ? t : t + 1);
            if (k < i)
                continue;
            int64_t back = round * (g - 1) + i; /* i is group k's i-th other group (i < k) */
            rc = moore_builder_add_link(b, i * a + (int32_t)(j / h),
                                        k * a + (int32_t)(back / h), err);
        }
    }
    if (!rc)
        rc = fam_graph_finish(&b, (int32_t)s.p, dragonfly_label, &a, out, err);
    moore_builder_free(b);
    return rc;
}

/* Balanced dragonflies p = 1 … while the radix holds 4p − 1 ports. With a
 * target, also each p's balanced shape with just enough groups, as dragonflies
 * are deployed below full size: the smallest g ≥ h+1 reaching the target for
 * which g−1 divides a·h, so every global port is used and the switches stay
 * regular (m = a·h/(g−1) links between every two groups). */
int fam_dragonfly_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                         moore_error *err)
{
    int rc = MOORE_OK;
    for (int64_t p = 1; !rc && 4 * p - 1 <= radix; p++) {
        int64_t a = 2 * p, gfull = a * p + 1;
        if (a * gfull > MOORE_PLAN_LIST_SWITCHES && endpoints <= 0)
            break;
        if (a * gfull > MOORE_MAX_SWITCHES)
            break;
        if (endpoints > 0 && a * gfull * p > endpoints) {
            int64_t per_group = a * p, g = (endpoints + per_group - 1) / per_group;
            if (g < p + 1)
                g = p + 1;
            while (g < gfull && (a * p) % (g - 1)) /* stops at g−1 = a·h at the latest */
                g++;
            if (g < gfull)
                rc = fam_emit(emit, ctx, err, "dragonfly:p=%lld,g=%lld", (long long)p,
                                       (long long)g);
        }
        if (!rc)
            rc = fam_emit(emit, ctx, err, "dragonfly:p=%lld", (long long)p);
    }
    return rc;
}
