/* readback.c — a fabric's forwarding tables as a moore routing: every source
 * switch follows each destination LID hop by hop through the tables, and the
 * distinct switch paths toward each destination switch become the routing's
 * explicit paths, so throughput, stretch, table sizes and the deadlock check
 * run on the routes a real subnet manager computed (docs/deploy.md); and the
 * throughput of a traffic matrix on exactly those routes, split as the
 * switches split it (per destination LID), which no path-set model gives. */
#include <stdlib.h>
#include <string.h>
#include "deploy_internal.h"
#include "core/alloc.h"
#include "core/csr.h" /* core_csr_find: a hop's arc */
#include "moore/metrics.h"

int moore_ib_fabric_graph(const moore_ib_fabric *f, moore_graph **out, moore_error *err)
{
    moore_builder *b = NULL;
    int32_t *seen = moore_malloc((size_t)f->switches + 1, sizeof *seen, err);
    int32_t *ep = moore_calloc((size_t)f->switches + 1, sizeof *ep, err);
    int rc = seen && ep ? moore_builder_new(f->switches, 0, &b, err) : core_alloc_code(err);
    for (int32_t s = 0; s < f->switches && seen; s++)
        seen[s] = -1;
    for (int32_t s = 0; !rc && s < f->switches; s++)
        for (int64_t i = f->port_offs[s]; !rc && i < f->port_offs[s + 1]; i++) {
            int32_t v = f->peer[i];
            if (v >= f->switches)
                ep[s]++;
            else if (v > s && seen[v] != s) { /* parallel cables: one link */
                seen[v] = s;
                rc = moore_builder_add_link(b, s, v, err);
            }
        }
    moore_graph *g = NULL;
    if (!rc) {
        rc = moore_builder_finish(b, &g, err);
        b = NULL;
    }
    if (!rc)
        rc = moore_graph_set_endpoints(g, ep, err);
    for (int32_t s = 0; !rc && s < f->switches; s++)
        rc = moore_graph_set_label(g, s, f->name[s], err);
    if (!rc) {
        *out = g;
        g = NULL;
    }
    moore_graph_free(g);
    moore_builder_free(b);
    free(seen);
    free(ep);
    return rc;
}

/* The switch a LID's node hangs on, or -1. */
static int32_t lid_switch(const moore_ib_fabric *f, int32_t node)
{
    if (node < 0)
        return -1;
    return node < f->switches ? node : f->hca_switch[node - f->switches];
}

/* Follows LID lid from switch s into seq (s first); returns its length. */
static int walk(const moore_ib_fabric *f, const moore_ib_lfts *l, int32_t s, int32_t lid,
                int32_t *seq, int32_t *len, moore_error *err)
{
    int32_t node = l->lid_node[lid], u = s, n = 0;
    size_t row = (size_t)l->lid_top + 1;
    seq[n++] = s;
    for (;;) {
        uint8_t p = l->port[(size_t)u * row + (size_t)lid];
        if (p == MOORE_IB_NO_PORT)
            return moore_error_set(err, MOORE_EINVAL,
                                   "LID 0x%04x ('%s'): switch '%s' has no route for it", (int)lid,
                                   f->name[node], f->name[u]);
        if (p == 0) {
            if (node == u)
                break;
            return moore_error_set(err, MOORE_EINVAL,
                                   "LID 0x%04x: switch '%s' keeps it (port 0) but it is '%s'",
                                   (int)lid, f->name[u], f->name[node]);
        }
        int32_t peer = f->peer[f->port_offs[u] + p - 1];
        if (peer < 0)
            return moore_error_set(err, MOORE_EINVAL,
                                   "LID 0x%04x ('%s'): switch '%s' port %d has no cable", (int)lid,
                                   f->name[node], f->name[u], (int)p);
        if (peer >= f->switches) {
            if (peer == node)
                break;
            return moore_error_set(err, MOORE_EINVAL,
                                   "LID 0x%04x: switch '%s' port %d leads to '%s', expected the "
                                   "route toward '%s'",
                                   (int)lid, f->name[u], (int)p, f->name[peer], f->name[node]);
        }
        u = peer;
        if (n >= f->switches)
            return moore_error_set(err, MOORE_EINVAL,
                                   "LID 0x%04x ('%s'): the route from switch '%s' loops (it "
                                   "passes switch '%s' again)",
                                   (int)lid, f->name[node], f->name[s], f->name[u]);
        seq[n++] = u;
    }
    *len = n;
    return MOORE_OK;
}

typedef struct paths_buf {
    int64_t *path_offs;
    int32_t *hops;
    int64_t paths, cap_paths, nhops, cap_hops;
} paths_buf;

static int buf_add(paths_buf *b, int64_t first, const int32_t *seq, int32_t len, moore_error *err)
{
    for (int64_t i = first; i < b->paths; i++) /* already stored for this pair? */
        if (b->path_offs[i + 1] - b->path_offs[i] == len &&
            !memcmp(b->hops + b->path_offs[i], seq, (size_t)len * sizeof *seq))
            return MOORE_OK;
    if (b->paths + 2 > b->cap_paths) {
        int64_t c = b->cap_paths ? b->cap_paths * 2 : 1024;
        int64_t *q = realloc(b->path_offs, (size_t)c * sizeof *q);
        if (!q)
            return moore_error_set(err, MOORE_ENOMEM, "deploy: out of memory for paths");
        b->path_offs = q;
        b->cap_paths = c;
    }
    if (b->nhops + len > b->cap_hops) {
        int64_t c = b->cap_hops ? b->cap_hops * 2 : 4096;
        while (c < b->nhops + len)
            c *= 2;
        int32_t *q = realloc(b->hops, (size_t)c * sizeof *q);
        if (!q)
            return moore_error_set(err, MOORE_ENOMEM, "deploy: out of memory for paths");
        b->hops = q;
        b->cap_hops = c;
    }
    memcpy(b->hops + b->nhops, seq, (size_t)len * sizeof *seq);
    b->nhops += len;
    b->path_offs[0] = 0;
    b->path_offs[++b->paths] = b->nhops;
    return MOORE_OK;
}

/* The switch whose tables lead to LID lid, or -1 when the LID is unused or
 * (hcas_only) a switch's own LID. */
static int32_t lid_target(const moore_ib_fabric *f, const moore_ib_lfts *l, int32_t lid,
                          int hcas_only)
{
    int32_t node = l->lid_node[lid];
    return hcas_only && node >= 0 && node < f->switches ? -1 : lid_switch(f, node);
}

/* LIDs grouped by destination switch (CSR: lids[offs[t] .. offs[t+1]-1]). */
static int lids_by_switch(const moore_ib_fabric *f, const moore_ib_lfts *l, int hcas_only,
                          int64_t **offs, int32_t **lids, moore_error *err)
{
    *offs = moore_calloc((size_t)f->switches + 2, sizeof **offs, err);
    *lids = moore_malloc((size_t)l->lid_top + 1, sizeof **lids, err);
    if (!*offs || !*lids)
        return core_alloc_code(err);
    for (int32_t lid = 1; lid <= l->lid_top; lid++) {
        int32_t t = lid_target(f, l, lid, hcas_only);
        if (t >= 0)
            (*offs)[t + 2]++;
    }
    for (int32_t t = 0; t < f->switches; t++)
        (*offs)[t + 2] += (*offs)[t + 1];
    for (int32_t lid = 1; lid <= l->lid_top; lid++) {
        int32_t t = lid_target(f, l, lid, hcas_only);
        if (t >= 0)
            (*lids)[(*offs)[t + 1]++] = lid;
    }
    return MOORE_OK;
}

static int all_distances(const moore_graph *g, moore_routing *r, moore_error *err)
{
    int32_t n = g->n;
    int rc = moore_memory_guard((double)n * n * 2.0, "switch distances", err);
    r->dist = rc ? NULL : moore_malloc((size_t)n * (size_t)n + 1, sizeof *r->dist, err);
    int32_t *queue = moore_malloc((size_t)n + 1, sizeof *queue, err);
    if (!rc && (!r->dist || !queue))
        rc = core_alloc_code(err);
    for (int32_t s = 0; !rc && s < n; s++) {
        uint16_t *d = r->dist + (size_t)s * n;
        for (int32_t v = 0; v < n; v++)
            d[v] = UINT16_MAX;
        int32_t head = 0, tail = 0;
        d[s] = 0;
        queue[tail++] = s;
        while (head < tail) {
            int32_t u = queue[head++];
            for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++)
                if (d[g->adj[e]] == UINT16_MAX) {
                    d[g->adj[e]] = (uint16_t)(d[u] + 1);
                    queue[tail++] = g->adj[e];
                }
        }
        if (tail < n)
            rc = moore_error_set(err, MOORE_EINVAL, "the fabric's switches are not connected "
                                                    "(switch %d reaches %d of %d)",
                                 (int)s, (int)tail, (int)n);
    }
    free(queue);
    return rc;
}

static int lfts_routing(const moore_graph *g, const moore_ib_fabric *f, const moore_ib_lfts *l,
                        int hcas_only, moore_routing **out, double *mean_hops,
                        int64_t *lid_pairs, moore_error *err)
{
    int32_t n = f->switches;
    moore_routing *r = moore_calloc(1, sizeof *r, err);
    if (!r)
        return core_alloc_code(err);
    r->n = n;
    r->algo = MOORE_ROUTE_KSP; /* explicit paths, as KSP stores them */
    snprintf(r->name, sizeof r->name, "lfts");
    int64_t *offs = NULL;
    int32_t *lids = NULL;
    int32_t *seq = moore_malloc((size_t)n + 1, sizeof *seq, err);
    paths_buf b = { 0 };
    int rc = seq ? all_distances(g, r, err) : core_alloc_code(err);
    if (!rc)
        rc = lids_by_switch(f, l, hcas_only, &offs, &lids, err);
    if (!rc) {
        r->pair_offs = moore_malloc((size_t)n * (size_t)n + 1, sizeof *r->pair_offs, err);
        rc = r->pair_offs ? MOORE_OK : core_alloc_code(err);
    }
    double hops = 0;
    int64_t count = 0;
    for (int32_t s = 0; !rc && s < n; s++)
        for (int32_t t = 0; !rc && t < n; t++) {
            r->pair_offs[(size_t)s * n + t] = b.paths;
            for (int64_t k = offs[t]; !rc && s != t && k < offs[t + 1]; k++) {
                int32_t len = 0;
                if (l->lid_node[lids[k]] < f->switches &&
                    l->port[(size_t)s * ((size_t)l->lid_top + 1) + (size_t)lids[k]] ==
                        MOORE_IB_NO_PORT) {
                    /* A switch's own LID need not be reachable from every
                     * switch: up/down engines (updn, ftree) leave a fat tree's
                     * spines without routes to each other. */
                    continue;
                }
                rc = walk(f, l, s, lids[k], seq, &len, err);
                if (!rc)
                    rc = buf_add(&b, r->pair_offs[(size_t)s * n + t], seq, len, err);
                hops += len - 1;
                count++;
            }
        }
    if (!rc)
        r->pair_offs[(size_t)n * n] = b.paths;
    r->path_offs = b.path_offs;
    r->hops = b.hops;
    r->paths = b.paths;
    free(offs);
    free(lids);
    free(seq);
    if (rc) {
        moore_routing_free(r);
        return rc;
    }
    *mean_hops = count ? hops / (double)count : 0;
    *lid_pairs = count;
    *out = r;
    return MOORE_OK;
}

int moore_ib_lfts_routing(const moore_graph *g, const moore_ib_fabric *f, const moore_ib_lfts *l,
                          moore_routing **out, double *mean_hops, int64_t *lid_pairs,
                          moore_error *err)
{
    return lfts_routing(g, f, l, 0, out, mean_hops, lid_pairs, err);
}

int moore_ib_hca_layers(const moore_graph *g, const moore_ib_fabric *f, const moore_ib_lfts *l,
                        moore_report *rep, moore_error *err)
{
    moore_routing *r = NULL;
    moore_deadlock_result d;
    memset(&d, 0, sizeof d);
    moore_routing_options o;
    moore_routing_options_default(&o);
    double mean = 0;
    int64_t pairs = 0;
    int rc = lfts_routing(g, f, l, 1, &r, &mean, &pairs, err);
    if (!rc)
        rc = moore_routing_deadlock(g, r, &o, &d, err);
    if (!rc)
        rc = moore_report_bool(rep, "cdg_acyclic_hca", d.cdg_acyclic, err);
    if (!rc)
        rc = moore_report_int(rep, "layers_hca", d.layers, err);
    moore_deadlock_result_clear(&d);
    moore_routing_free(r);
    return rc;
}

/* What moore_ib_lfts_throughput carries through its walks. */
typedef struct lid_load {
    const moore_graph *g;
    const moore_ib_fabric *f;
    const moore_ib_lfts *l;
    const int64_t *offs;    /* HCA LIDs per switch (lids_by_switch) */
    const int32_t *lids;
    int32_t *seq;
    double *load;           /* per arc (CSR position) */
} lid_load;

/* Demand x from switch s toward switch d, evenly over d's HCA LIDs. */
static int load_demand(lid_load *c, int32_t s, int32_t d, double x, moore_error *err)
{
    int64_t k0 = c->offs[d], k1 = c->offs[d + 1];
    if (s == d || x <= 0)
        return MOORE_OK;
    if (k0 == k1)
        return moore_error_set(err, MOORE_EINVAL,
                               "the traffic sends to switch '%s', which has no HCA LID",
                               c->f->name[d]);
    for (int64_t k = k0; k < k1; k++) {
        int32_t len = 0;
        int rc = walk(c->f, c->l, s, c->lids[k], c->seq, &len, err);
        if (rc)
            return rc;
        for (int32_t i = 0; i + 1 < len; i++)
            c->load[core_csr_find(c->g, c->seq[i], c->seq[i + 1])] += x / (double)(k1 - k0);
    }
    return MOORE_OK;
}

/* Every demand of t (stored, or the compact uniform form) into c->load. */
static int load_traffic(lid_load *c, const moore_traffic *t, moore_error *err)
{
    int rc = MOORE_OK;
    for (int32_t s = 0; !rc && s < t->n; s++) {
        if (t->weight)
            for (int32_t d = 0; !rc && t->weight[s] > 0 && d < t->n; d++)
                rc = load_demand(c, s, d, t->weight[s] * t->weight[d] / t->weight_div, err);
        else
            for (int64_t k = t->offs[s]; !rc && k < t->offs[s + 1]; k++)
                rc = load_demand(c, s, t->dst[k], t->demand[k], err);
    }
    return rc;
}

int moore_ib_lfts_throughput(const moore_graph *g, const moore_ib_fabric *f, const moore_ib_lfts *l,
                             const moore_traffic *t, moore_report *rep, moore_error *err)
{
    if (t->n != g->n || g->n != f->switches)
        return moore_error_set(err, MOORE_EINVAL, "traffic for %d switches, fabric of %d",
                               (int)t->n, (int)f->switches);
    int64_t *offs = NULL, arcs = g->offs[g->n];
    int32_t *lids = NULL;
    lid_load c = { g, f, l, NULL, NULL, NULL, NULL };
    c.seq = moore_malloc((size_t)f->switches + 1, sizeof *c.seq, err);
    c.load = moore_calloc((size_t)arcs + 1, sizeof *c.load, err);
    int rc = c.seq && c.load ? lids_by_switch(f, l, 1, &offs, &lids, err) : core_alloc_code(err);
    c.offs = offs;
    c.lids = lids;
    if (!rc)
        rc = load_traffic(&c, t, err);
    double hi = 0, sum = 0;
    for (int64_t a = 0; !rc && a < arcs; a++) {
        hi = c.load[a] > hi ? c.load[a] : hi;
        sum += c.load[a];
    }
    if (!rc && hi <= 0)
        rc = moore_error_set(err, MOORE_EINVAL, "the traffic '%s' crosses no link", t->name);
    if (!rc) rc = moore_report_string(rep, "tm", t->name, err);
    if (!rc) rc = moore_report_double(rep, "throughput", 1.0 / hi, err);
    if (!rc) rc = moore_report_double(rep, "link_util_max", 1.0, err);
    if (!rc) rc = moore_report_double(rep, "link_util_mean", sum / hi / (double)arcs, err);
    free(offs);
    free(lids);
    free(c.seq);
    free(c.load);
    return rc;
}
