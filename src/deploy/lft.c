/* lft.c — linear forwarding tables: built from a moore routing, written in
 * the form `dump_fts` prints and OpenSM's `file` engine loads, and read back
 * from any such dump. InfiniBand forwards by destination LID only, so a
 * routing becomes one tree per destination LID (docs/deploy.md says how). */
#include <stdlib.h>
#include <string.h>
#include "deploy_internal.h"
#include "core/alloc.h"

void moore_ib_lfts_free(moore_ib_lfts *l)
{
    if (!l)
        return;
    free(l->port);
    free(l->lid_node);
    free(l->lid_offset);
    free(l);
}

static int lfts_alloc(int32_t switches, int32_t lmc, int32_t lid_top, moore_ib_lfts **out,
                      moore_error *err)
{
    size_t lids = (size_t)lid_top + 1;
    moore_ib_lfts *l = NULL;
    int rc = moore_memory_guard((double)switches * (double)lids, "forwarding tables", err);
    if (!rc) {
        l = moore_calloc(1, sizeof *l, err);
        rc = l ? MOORE_OK : core_alloc_code(err);
    }
    if (!rc) {
        l->switches = switches;
        l->lmc = lmc;
        l->lid_top = lid_top;
        l->port = moore_malloc((size_t)switches * lids + 1, 1, err);
        l->lid_node = moore_malloc(lids, sizeof *l->lid_node, err);
        l->lid_offset = moore_calloc(lids, sizeof *l->lid_offset, err);
        if (!l->port || !l->lid_node || !l->lid_offset)
            rc = core_alloc_code(err);
    }
    if (!rc) {
        memset(l->port, MOORE_IB_NO_PORT, (size_t)switches * lids);
        for (size_t i = 0; i < lids; i++)
            l->lid_node[i] = -1;
        *out = l;
        l = NULL;
    }
    moore_ib_lfts_free(l);
    return rc;
}

/* ---- building from a routing ---- */

typedef struct cand {
    int32_t v, depth;
    double w;
} cand;

static int by_depth(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    return (x->v > y->v) - (x->v < y->v);
}

/* The first port of switch u cabled to switch v, or -1. */
static int32_t port_to(const moore_ib_fabric *f, int32_t u, int32_t v)
{
    for (int64_t i = f->port_offs[u]; i < f->port_offs[u + 1]; i++)
        if (f->peer[i] == v)
            return (int32_t)(i - f->port_offs[u] + 1);
    return -1;
}

typedef struct tree_ws {
    int32_t *nh, *cnt, *depth;
    double *w;
    cand *c;
    int64_t *offs;
} tree_ws;

/* Next hops of every u toward t into ws (u's at offs[u]..), then the depth
 * of every switch in the routing's own next-hop graph (BFS from t). */
static int next_hop_depths(const moore_graph *g, const moore_routing *r, int32_t t, tree_ws *ws,
                           moore_error *err)
{
    int32_t n = g->n;
    for (int32_t u = 0; u < n; u++) {
        ws->cnt[u] = u == t ? 0 : moore_routing_next_hops(g, r, u, t, ws->nh + ws->offs[u],
                                                           ws->w + ws->offs[u]);
        ws->depth[u] = u == t ? 0 : INT32_MAX;
    }
    for (int changed = 1, round = 0; changed && round <= n; round++) {
        changed = 0;
        for (int32_t u = 0; u < n; u++)
            for (int32_t k = 0; k < ws->cnt[u]; k++) {
                int32_t d = ws->depth[ws->nh[ws->offs[u] + k]];
                if (d != INT32_MAX && d + 1 < ws->depth[u]) {
                    ws->depth[u] = d + 1;
                    changed = 1;
                }
            }
    }
    for (int32_t u = 0; u < n; u++)
        if (ws->depth[u] == INT32_MAX)
            return moore_error_set(err, MOORE_EINTERNAL,
                                   "deploy: routing %s has no next hop chain from switch %d to "
                                   "switch %d",
                                   r->name, (int)u, (int)t);
    return MOORE_OK;
}

/* The out port of u for the variant-th choice toward t (offset 0: among the
 * least-depth next hops, variant = the destination HCA's index; offset k:
 * among every next hop to a smaller depth). */
static int32_t choose(const moore_ib_fabric *f, tree_ws *ws, int32_t u, int32_t variant,
                      int32_t offset)
{
    int32_t m = 0, m0 = 0;
    for (int32_t k = 0; k < ws->cnt[u]; k++) {
        int32_t v = ws->nh[ws->offs[u] + k];
        if (ws->depth[v] < ws->depth[u])
            ws->c[m++] = (cand){ v, ws->depth[v], ws->w[ws->offs[u] + k] };
    }
    qsort(ws->c, (size_t)m, sizeof *ws->c, by_depth);
    while (m0 < m && ws->c[m0].depth == ws->c[0].depth)
        m0++;
    int32_t pick = offset == 0 ? variant % m0 : (variant + offset) % m;
    return port_to(f, u, ws->c[pick].v);
}

/* Fills the table entries of destination node `node` (base LID base) on
 * every switch; variant spreads a switch's HCAs over equal choices. */
static void fill_lids(const moore_ib_fabric *f, moore_ib_lfts *l, tree_ws *ws, int32_t t,
                      int32_t node, int32_t variant, int32_t blocks)
{
    int32_t base = (node + 1) << l->lmc;
    size_t row = (size_t)l->lid_top + 1;
    for (int32_t k = 0; k < blocks; k++) {
        l->lid_node[base + k] = node;
        l->lid_offset[base + k] = k;
        for (int32_t u = 0; u < f->switches; u++) {
            uint8_t p = u != t     ? (uint8_t)choose(f, ws, u, variant, k)
                        : node == t ? 0
                                    : (uint8_t)f->hca_port[node - f->switches];
            l->port[(size_t)u * row + (size_t)(base + k)] = p;
        }
    }
}

/* Every destination's entries of l, by the next hops of routing r toward it. */
static int lfts_fill(const moore_graph *g, const moore_routing *r, const moore_ib_fabric *f,
                     int32_t lmc, moore_ib_lfts *l, moore_error *err)
{
    tree_ws ws = { 0 };
    ws.offs = moore_malloc((size_t)g->n + 1, sizeof *ws.offs, err);
    ws.cnt = moore_malloc((size_t)g->n + 1, sizeof *ws.cnt, err);
    ws.depth = moore_malloc((size_t)g->n + 1, sizeof *ws.depth, err);
    ws.nh = moore_malloc((size_t)g->offs[g->n] + 1, sizeof *ws.nh, err);
    ws.w = moore_malloc((size_t)g->offs[g->n] + 1, sizeof *ws.w, err);
    ws.c = moore_malloc((size_t)g->offs[g->n] + 1, sizeof *ws.c, err);
    int rc = ws.offs && ws.cnt && ws.depth && ws.nh && ws.w && ws.c ? MOORE_OK
                                                                     : core_alloc_code(err);
    for (int32_t u = 0; !rc && u <= g->n; u++)
        ws.offs[u] = g->offs[u];
    for (int32_t t = 0; !rc && t < g->n; t++) {
        rc = next_hop_depths(g, r, t, &ws, err);
        if (rc)
            break;
        fill_lids(f, l, &ws, t, t, 0, 1); /* a switch's own LID: LMC 0 (OpenSM's base port 0) */
        for (int32_t h = 0; h < f->hcas; h++)
            if (f->hca_switch[h] == t)
                fill_lids(f, l, &ws, t, f->switches + h, f->hca_port[h], 1 << lmc);
    }
    free(ws.offs);
    free(ws.cnt);
    free(ws.depth);
    free(ws.nh);
    free(ws.w);
    free(ws.c);
    return rc;
}

int moore_ib_lfts_build(const moore_graph *g, const moore_routing *r, const moore_ib_fabric *f,
                        int32_t lmc, moore_ib_lfts **out, moore_error *err)
{
    if (lmc < 0 || lmc > MOORE_IB_LMC_MAX)
        return moore_error_set(err, MOORE_EINVAL, "--lmc %d: the LMC must be 0..7", (int)lmc);
    int64_t top = (((int64_t)f->switches + f->hcas + 1) << lmc) - 1;
    if (top > MOORE_IB_LID_MAX)
        return moore_error_set(err, MOORE_EINVAL,
                               "deploy: %d switches and %d HCAs with LMC %d need LIDs up to %lld; "
                               "unicast LIDs end at 0xBFFF (49151)",
                               (int)f->switches, (int)f->hcas, (int)lmc, (long long)top);
    moore_ib_lfts *l = NULL;
    int rc = lfts_alloc(f->switches, lmc, (int32_t)top, &l, err);
    if (!rc)
        rc = lfts_fill(g, r, f, lmc, l, err);
    if (!rc) {
        *out = l;
        l = NULL;
    }
    moore_ib_lfts_free(l);
    return rc;
}

/* ---- writing ---- */

int moore_ib_lfts_write(const moore_ib_fabric *f, const moore_ib_lfts *l, FILE *out,
                        moore_error *err)
{
    size_t row = (size_t)l->lid_top + 1;
    for (int32_t s = 0; s < l->switches; s++) {
        fprintf(out, "Unicast lids [0x0-0x%x] of switch Lid %d guid 0x%016llx (%s):\n",
                (unsigned)l->lid_top, (int)((s + 1) << l->lmc), (unsigned long long)f->guid[s],
                f->name[s]);
        fputs("  Lid  Out   Destination\n       Port     Info \n", out);
        int64_t valid = 0;
        for (int32_t lid = 1; lid <= l->lid_top; lid++) {
            uint8_t p = l->port[(size_t)s * row + (size_t)lid];
            int32_t node = l->lid_node[lid];
            if (p == MOORE_IB_NO_PORT || node < 0)
                continue;
            fprintf(out, "0x%04x %03u : (%s portguid 0x%016llx: '%s')\n", (unsigned)lid,
                    (unsigned)p, node < f->switches ? "Switch" : "Channel Adapter",
                    (unsigned long long)f->port_guid[node], f->name[node]);
            valid++;
        }
        fprintf(out, "%lld valid lids dumped \n", (long long)valid);
    }
    if (ferror(out))
        return moore_error_set(err, MOORE_EIO, "deploy: writing the forwarding tables failed");
    return MOORE_OK;
}

/* ---- reading ---- */

typedef struct guid_ix {
    uint64_t guid;
    int32_t node;
} guid_ix;

static int by_guid(const void *a, const void *b)
{
    const guid_ix *x = a, *y = b;
    return (x->guid > y->guid) - (x->guid < y->guid);
}

static int32_t find_guid(const guid_ix *ix, int64_t n, uint64_t guid)
{
    guid_ix key = { guid, 0 };
    const guid_ix *hit = bsearch(&key, ix, (size_t)n, sizeof *ix, by_guid);
    return hit ? hit->node : -1;
}

typedef struct rd_lft {
    const char *path;
    const moore_ib_fabric *f;
    guid_ix *sw, *port;
    int64_t nodes;
    moore_ib_lfts *l;   /* NULL in the first pass (LID range) */
    int32_t lid_top;
} rd_lft;

static int lft_line(rd_lft *c, const char *s, int64_t no, int32_t *cur, moore_error *err)
{
    if (!strncmp(s, "Unicast lids", 12)) {
        const char *g = strstr(s, " guid 0x");
        uint64_t guid = g ? strtoull(g + 8, NULL, 16) : 0;
        *cur = find_guid(c->sw, c->f->switches, guid);
        if (*cur < 0)
            return moore_error_set(err, MOORE_EINVAL,
                                   "%s line %lld: switch GUID 0x%016llx is not a switch of the "
                                   "fabric file",
                                   c->path, (long long)no, (unsigned long long)guid);
        return MOORE_OK;
    }
    if (strncmp(s, "0x", 2) || *cur < 0)
        return MOORE_OK;
    char *end;
    long lid = strtol(s + 2, &end, 16);
    long port = strtol(end, &end, 10);
    const char *pg = strstr(end, "portguid 0x");
    if (lid < 1 || lid > MOORE_IB_LID_MAX || !pg)
        return moore_error_set(err, MOORE_EINVAL,
                               "%s line %lld: expected \"0xLID PORT : (... portguid 0xGUID: ...)\" "
                               "with a unicast LID 1..0xBFFF",
                               c->path, (long long)no);
    uint64_t guid = strtoull(pg + 11, NULL, 16);
    int32_t node = find_guid(c->port, c->nodes, guid);
    if (node < 0)
        return moore_error_set(err, MOORE_EINVAL,
                               "%s line %lld: LID 0x%lx names port GUID 0x%016llx, which is not "
                               "in the fabric file",
                               c->path, (long long)no, lid, (unsigned long long)guid);
    if (port < 0 || port > (long)deploy_ports(c->f, *cur))
        return moore_error_set(err, MOORE_EINVAL,
                               "%s line %lld: switch '%s' has no port %ld (ports 0..%d) for LID "
                               "0x%lx",
                               c->path, (long long)no, c->f->name[*cur], port,
                               (int)deploy_ports(c->f, *cur), lid);
    if (!c->l) {
        if (lid > c->lid_top)
            c->lid_top = (int32_t)lid;
        return MOORE_OK;
    }
    c->l->port[(size_t)*cur * ((size_t)c->l->lid_top + 1) + (size_t)lid] = (uint8_t)port;
    c->l->lid_node[lid] = node;
    return MOORE_OK;
}

static int lft_pass(rd_lft *c, FILE *in, moore_error *err)
{
    char *line = NULL;
    size_t cap = 0;
    int64_t no = 0;
    int32_t cur = -1;
    int rc = MOORE_OK;
    rewind(in);
    while (!rc && getline(&line, &cap, in) > 0)
        rc = lft_line(c, line, ++no, &cur, err);
    free(line);
    return rc;
}

static int guid_index(const moore_ib_fabric *f, rd_lft *c, moore_error *err)
{
    c->nodes = (int64_t)f->switches + f->hcas;
    c->sw = moore_malloc((size_t)f->switches + 1, sizeof *c->sw, err);
    c->port = moore_malloc((size_t)c->nodes + 1, sizeof *c->port, err);
    if (!c->sw || !c->port)
        return core_alloc_code(err);
    for (int32_t i = 0; i < c->nodes; i++) {
        if (i < f->switches)
            c->sw[i] = (guid_ix){ f->guid[i], i };
        c->port[i] = (guid_ix){ f->port_guid[i], i };
    }
    qsort(c->sw, (size_t)f->switches, sizeof *c->sw, by_guid);
    qsort(c->port, (size_t)c->nodes, sizeof *c->port, by_guid);
    return MOORE_OK;
}

/* Offsets: a LID's distance from the smallest LID of its node. */
static void lid_offsets(moore_ib_lfts *l)
{
    for (int32_t lid = 1; lid <= l->lid_top; lid++) {
        int32_t node = l->lid_node[lid], base = lid;
        while (node >= 0 && base > 1 && l->lid_node[base - 1] == node && lid - base < 127)
            base--;
        l->lid_offset[lid] = lid - base;
    }
}

int moore_ib_lfts_read(const char *path, const moore_ib_fabric *f, moore_ib_lfts **out,
                       moore_error *err)
{
    FILE *in = fopen(path, "r");
    if (!in)
        return moore_error_set(err, MOORE_EIO, "cannot open LFT dump '%s'", path);
    rd_lft c = { .path = path, .f = f };
    int rc = guid_index(f, &c, err);
    if (!rc)
        rc = lft_pass(&c, in, err);
    if (!rc && c.lid_top == 0)
        rc = moore_error_set(err, MOORE_EINVAL, "%s: no \"0xLID PORT\" table line", path);
    if (!rc)
        rc = lfts_alloc(f->switches, 0, c.lid_top, &c.l, err);
    if (!rc)
        rc = lft_pass(&c, in, err);
    if (!rc) {
        lid_offsets(c.l);
        *out = c.l;
        c.l = NULL;
    }
    fclose(in);
    free(c.sw);
    free(c.port);
    moore_ib_lfts_free(c.l);
    return rc;
}
