/* fattree.c — the 3-level k-ary fat-tree (Al-Fares, Loukissas & Vahdat,
 * SIGCOMM'08), the folded Clos every datacenter comparison starts from.
 *
 * k pods, each with k/2 edge and k/2 aggregation switches joined as a complete
 * bipartite graph; (k/2)² core switches in k/2 groups, group j linked to
 * aggregation switch j of every pod. Endpoints hang off edge switches only
 * (k/2 each by default), so the network is not regular: edge switches have
 * network degree k/2, the others k. Every k-port switch uses all its ports.
 *
 * Numbering (documented in docs/families.md so tests and exporters can rely on
 * it): edge switches 0..k²/2−1 pod by pod, then the aggregation switches in
 * the same order, then the core switches group by group. */
#include "families.h"

#include <stdio.h>

const moore_param_info fam_fattree_params[] = {
    { "k", "", "switch radix, even: k pods, k^2/2 edge, k^2/2 aggregation, k^2/4 core" },
    { "p", "k/2", "endpoints per edge switch, at most k/2 (k/2: full bisection)" },
    { NULL, NULL, NULL }
};

/* p's default k/2 gives full bisection; a smaller p leaves ports unused, and
 * p > k/2 is refused (it needs more ports than a k-port switch has). */
int fam_fattree_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    int64_t k, p;
    int rc = moore_params_int(pp, "k", -1, 2, 65536, &k, err);
    if (rc)
        return rc;
    if (k < 0)
        return moore_error_set(err, MOORE_EINVAL, "fattree: k= is required (an even radix)");
    if (k % 2)
        return moore_error_set(err, MOORE_EINVAL, "fattree: k=%lld is odd; a k-ary fat-tree "
                               "needs an even k", (long long)k);
    if ((rc = moore_params_int(pp, "p", k / 2, 0, 1 << 20, &p, err)))
        return rc;
    if (p > k / 2)  /* an edge switch has k ports: k/2 go up, so at most k/2 go down */
        return moore_error_set(err, MOORE_EINVAL, "fattree: p=%lld exceeds k/2 = %lld: an edge "
                               "switch has k=%lld ports and k/2 of them go up (p=%lld would need "
                               "radix %lld)", (long long)p, (long long)(k / 2), (long long)k,
                               (long long)p, (long long)(k / 2 + p));
    c->switches = 5 * k * k / 4;
    c->links = k * k * k / 2;
    c->degree_min = (int32_t)(k / 2);
    c->degree_max = (int32_t)k;
    c->endpoints = k * k / 2 * p;
    c->diameter = 4;
    c->multiplicity = 1;
    return MOORE_OK;
}

static void fattree_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    int32_t h = *(const int32_t *)ctx, layer = h * 2 * h; /* h = k/2: k²/2 = 2h² */
    if (v < layer)
        snprintf(buf, len, "edge%d.%d", (int)(v / h), (int)(v % h));
    else if (v < 2 * layer)
        snprintf(buf, len, "agg%d.%d", (int)((v - layer) / h), (int)((v - layer) % h));
    else
        snprintf(buf, len, "core%d.%d", (int)((v - 2 * layer) / h), (int)((v - 2 * layer) % h));
}

int fam_fattree_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    moore_counts c;
    int rc = fam_fattree_counts(pp, &c, err);
    if (rc)
        return rc;
    /* the counts are checked (switches <= MOORE_MAX_SWITCHES, so k <= 8944):
     * k * k fits an int32_t */
    int32_t k = c.degree_max, h = k / 2, pods = k, edge0 = 0, agg0 = (int32_t)(c.switches / 5 * 2),
            core0 = 2 * agg0;
    int32_t p = (int32_t)(c.endpoints / agg0);
    moore_builder *b = NULL;
    if ((rc = moore_builder_new((int32_t)c.switches, c.links, &b, err)))
        return rc;
    for (int32_t pod = 0; !rc && pod < pods; pod++)
        for (int32_t j = 0; !rc && j < h; j++) {
            int32_t agg = agg0 + pod * h + j;
            for (int32_t i = 0; !rc && i < h; i++)
                rc = moore_builder_add_link(b, edge0 + pod * h + i, agg, err);
            for (int32_t i = 0; !rc && i < h; i++)
                rc = moore_builder_add_link(b, agg, core0 + j * h + i, err);
        }
    if (!rc)
        rc = fam_graph_finish(&b, 0, fattree_label, &h, out, err);
    for (int32_t v = edge0; !rc && v < agg0; v++)
        (*out)->endpoints[v] = p;
    moore_builder_free(b);
    return rc;
}

/* Every even k up to the radix (k = 2 is a path and is left out); the
 * smallest k reaching a target is among them whenever any k ≤ radix is. */
int fam_fattree_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                       moore_error *err)
{
    (void)endpoints;
    for (int64_t k = 4; k <= radix && 5 * k * k / 4 <= MOORE_PLAN_LIST_SWITCHES; k += 2) {
        int rc = fam_emit(emit, ctx, err, "fattree:k=%lld", (long long)k);
        if (rc)
            return rc;
    }
    return MOORE_OK;
}
