/* mlfm.c — the Multi-Layer Full-Mesh, h-MLFM (Kathareios, Minkenberg,
 * Prisacari, Rodriguez & Hoefler, "Cost-effective diameter-two topologies:
 * analysis and evaluation", SC'15, §2.2.3).
 *
 * h layers, each a "full mesh" of h+1 local routers (LRs) in which every
 * local link i–j is replaced by a global router GR(i,j) shared by all layers:
 * GR(i,j) links to LR i and LR j of every layer. So an LR has h network links
 * (one per other position) and p = h endpoints; a GR has 2h links and no
 * endpoints; both use 2h ports. h(h+1) LRs + h(h+1)/2 GRs = 3h(h+1)/2 routers.
 *
 * Any two LRs are two hops apart (LR i and LR j through GR(i,j); LR i of two
 * layers through any GR(i,·)), the paper's diameter 2 between endpoints. The
 * switch graph is bipartite (LRs | GRs); GR(i,j) and GR(k,l) with no common
 * position are 4 apart, so its diameter is 4 for h ≥ 3, 3 for h = 2 (LR i to
 * GR(j,k), i ∉ {j,k}) and 2 for h = 1 (a path LR–GR–LR).
 *
 * Numbering: LR i of layer L is L·(h+1) + i; GR(i,j), i < j, follows the LRs
 * in lexicographic (i, j) order. */
#include "families.h"

#include <stdio.h>

const moore_param_info fam_mlfm_params[] = {
    { "h", "", "layers = LR network degree, >= 1: 3h(h+1)/2 routers of radix 2h" },
    { "p", "h", "endpoints per local router (global routers have none)" },
    { NULL, NULL, NULL }
};

#define MLFM_H_MAX 4096

typedef struct mlfm_shape {
    int64_t h, lrs, grs;
    int32_t p;
} mlfm_shape;

static int mlfm_read(moore_params *pp, mlfm_shape *s, moore_error *err)
{
    int64_t p;
    int rc = moore_params_int(pp, "h", -1, 0, MLFM_H_MAX, &s->h, err);
    if (rc)
        return rc;
    if (s->h < 0)
        return moore_error_set(err, MOORE_EINVAL, "mlfm: h= is required (layers, >= 1)");
    if (s->h < 1)
        return moore_error_set(err, MOORE_EINVAL, "mlfm: h=%lld is below 1 (an MLFM needs at "
                               "least one layer of two local routers)", (long long)s->h);
    if ((rc = moore_params_int(pp, "p", s->h, 0, 1 << 20, &p, err)))
        return rc;
    s->p = (int32_t)p;
    s->lrs = s->h * (s->h + 1);
    s->grs = s->h * (s->h + 1) / 2;
    return MOORE_OK;
}

int fam_mlfm_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    mlfm_shape s;
    int rc = mlfm_read(pp, &s, err);
    if (rc)
        return rc;
    c->switches = s.lrs + s.grs;
    c->links = s.lrs * s.h;
    c->degree_min = (int32_t)s.h;
    c->degree_max = (int32_t)(2 * s.h);
    c->endpoints = s.lrs * s.p;
    c->diameter = s.h == 1 ? 2 : s.h == 2 ? 3 : 4;
    c->multiplicity = 1;
    return MOORE_OK;
}

static void mlfm_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    const mlfm_shape *s = ctx;
    int32_t w = (int32_t)(s->h + 1);
    if (v < s->lrs) {
        snprintf(buf, len, "LR%d.%d", (int)(v / w), (int)(v % w));
        return;
    }
    int32_t r = (int32_t)(v - s->lrs), i = 0;
    while (r >= w - 1 - i) {
        r -= w - 1 - i;
        i++;
    }
    snprintf(buf, len, "GR%d.%d", (int)i, (int)(i + 1 + r));
}

int fam_mlfm_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    mlfm_shape s;
    moore_counts c;
    int rc = mlfm_read(pp, &s, err);
    if (!rc)
        rc = fam_mlfm_counts(pp, &c, err);
    if (rc)
        return rc;
    moore_builder *b = NULL;
    if ((rc = fam_guard(&c, "mlfm", err)) ||
        (rc = moore_builder_new((int32_t)c.switches, c.links, &b, err)))
        return rc;
    int32_t w = (int32_t)(s.h + 1), gr = (int32_t)s.lrs;
    for (int32_t i = 0; !rc && i < w; i++)
        for (int32_t j = i + 1; !rc && j < w; j++, gr++)
            for (int32_t layer = 0; !rc && layer < s.h; layer++) {
                rc = moore_builder_add_link(b, layer * w + i, gr, err);
                if (!rc)
                    rc = moore_builder_add_link(b, layer * w + j, gr, err);
            }
    if (!rc)
        rc = fam_graph_finish(&b, 0, mlfm_label, &s, out, err);
    for (int64_t v = 0; !rc && v < s.lrs; v++)
        (*out)->endpoints[v] = s.p;
    moore_builder_free(b);
    return rc;
}

/* Every h with 2h ≤ radix (LRs: h links + h endpoints; GRs: 2h links). */
int fam_mlfm_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                    moore_error *err)
{
    (void)endpoints;
    for (int64_t h = 2; 2 * h <= radix && h <= MLFM_H_MAX; h++) {
        int rc = fam_emit(emit, ctx, err, "mlfm:h=%lld", (long long)h);
        if (rc)
            return rc;
    }
    return MOORE_OK;
}
