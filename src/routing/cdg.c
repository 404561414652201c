/* cdg.c — deadlock freedom: the channel dependency graph (CDG) of a path set
 * and its greedy split into virtual layers.
 *
 * The CDG has a vertex per directed link (a CSR arc position) and an arc
 * a→b when some path uses link b right after link a (docs/routing.md). A lossless
 * fabric routing on it cannot deadlock when the graph is acyclic. Stored as
 * bits: arc a = u→v has one bit per link v→w leaving v, so a layer costs
 * Σ_v deg(v)² bits.
 *
 * Only routes that carry traffic count: paths between switches with servers
 * (every switch when the graph has no servers), and for minimal/ECMP the part
 * of a destination's DAG reachable from such switches. A fat-tree's minimal
 * routes between aggregation switches go down and up again and would close
 * cycles, but no server traffic takes them.
 *
 * Layering (DFSSSP-style): units are taken in order — each path for explicit
 * path sets; for minimal and ECMP every path toward one destination t, whose
 * dependencies form a DAG by construction (distance to t falls along each) —
 * and put into the first layer whose CDG stays acyclic with the unit's
 * dependencies added, a new layer when none does. Acyclicity is kept with
 * Pearce & Kelly's dynamic topological order: a new dependency x→y that goes
 * backwards in the order searches forward from y and backward from x within
 * the affected window, finds a cycle when the forward search meets x, and
 * otherwise moves the two searched sets past each other. A unit that closes a
 * cycle is rolled back (only its new bits are cleared; the order stays valid
 * for a subgraph). Sequential: the result depends on the unit order only. */
#include "core/alloc.h"
#include "routing_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct cdg_layer {
    uint64_t *bits;
    uint64_t *cyc;      /* dependencies known to close a cycle here */
    int32_t *ord;       /* topological position of each arc */
} cdg_layer;

typedef struct cdg {
    const moore_graph *g;
    int64_t arcs;
    int64_t *base;      /* first bit of each arc */
    int64_t nbits;
    int64_t *rev;       /* reverse arc */
    int32_t *tail;
    /* search scratch */
    int32_t *stamp, now;
    int64_t *stack, *fwd, *bwd, *pool;
    int64_t nf, nb;
    /* new bits of the unit being added (for rollback) */
    int64_t *added, nadded, capadded;
    cdg_layer *layers;
    int32_t nlayers, caplayers;
    /* switches whose traffic counts: those with servers (all when the graph
     * has none); active: per destination, switches on a route from one */
    char *serve, *active;
    int32_t *order, *count, maxd;
    /* table mode (route_table_layers): units are destinations and their
     * dependencies the table's; tarc/tw scratch for two entries */
    int tables;
    const route_tables *tab;
    int64_t *tarc;
    double *tw;
} cdg;

static int bit_get(const uint64_t *b, int64_t i) { return (int)((b[i >> 6] >> (i & 63)) & 1); }
static void bit_set(uint64_t *b, int64_t i) { b[i >> 6] |= (uint64_t)1 << (i & 63); }
static void bit_clear(uint64_t *b, int64_t i) { b[i >> 6] &= ~((uint64_t)1 << (i & 63)); }

/* The bit of dependency a → b (b leaves the head of a). */
static int64_t dep_bit(const cdg *c, int64_t a, int64_t b)
{
    return c->base[a] + (b - c->g->offs[c->g->adj[a]]);
}

/* Forward search from y over arcs with ord ≤ ub; 1 when it meets x. */
static int search_forward(cdg *c, const cdg_layer *L, int64_t y, int64_t x, int32_t ub)
{
    const moore_graph *g = c->g;
    int64_t top = 0;
    c->stack[top++] = y;
    c->stamp[y] = c->now;
    c->nf = 0;
    while (top) {
        int64_t a = c->stack[--top];
        c->fwd[c->nf++] = a;
        int32_t v = g->adj[a];
        for (int64_t b = g->offs[v]; b < g->offs[v + 1]; b++) {
            if (!bit_get(L->bits, c->base[a] + (b - g->offs[v])))
                continue;
            if (b == x)
                return 1;
            if (c->stamp[b] != c->now && L->ord[b] <= ub) {
                c->stamp[b] = c->now;
                c->stack[top++] = b;
            }
        }
    }
    return 0;
}

/* Backward search from x over arcs with ord ≥ lb. */
static void search_backward(cdg *c, const cdg_layer *L, int64_t x, int32_t lb)
{
    const moore_graph *g = c->g;
    int64_t top = 0;
    c->stack[top++] = x;
    c->stamp[x] = c->now;
    c->nb = 0;
    while (top) {
        int64_t b = c->stack[--top];
        c->bwd[c->nb++] = b;
        int32_t u = c->tail[b];
        /* predecessors a = w → u for every neighbour w of u */
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            int64_t a = c->rev[k];
            if (!bit_get(L->bits, dep_bit(c, a, b)))
                continue;
            if (c->stamp[a] != c->now && L->ord[a] >= lb) {
                c->stamp[a] = c->now;
                c->stack[top++] = a;
            }
        }
    }
}

static int cmp_u64(const void *p, const void *q)
{
    uint64_t x = *(const uint64_t *)p, y = *(const uint64_t *)q;
    return (x > y) - (x < y);
}

/* Sorts a set of arcs by their position in L (keys: position << 32 | arc). */
static void sort_by_ord(const cdg_layer *L, int64_t *set, int64_t len)
{
    uint64_t *key = (uint64_t *)(void *)set;
    for (int64_t i = 0; i < len; i++)
        key[i] = (uint64_t)L->ord[set[i]] << 32 | (uint64_t)set[i];
    qsort(key, (size_t)len, sizeof *key, cmp_u64);
    for (int64_t i = 0; i < len; i++)
        set[i] = (int64_t)(key[i] & 0xffffffffu);
}

/* The positions of the backward and forward sets, each already in ascending
 * order, merged ascending into pool (the two sets are disjoint: an arc in
 * both would lie on a cycle, which the forward search would have found). */
static void merge_positions(cdg *c, const cdg_layer *L)
{
    int64_t i = 0, j = 0, np = 0;
    while (i < c->nb || j < c->nf) {
        int32_t pb = i < c->nb ? L->ord[c->bwd[i]] : INT32_MAX;
        int32_t pf = j < c->nf ? L->ord[c->fwd[j]] : INT32_MAX;
        if (pb < pf) {
            c->pool[np++] = pb;
            i++;
        } else {
            c->pool[np++] = pf;
            j++;
        }
    }
}

/* Adds dependency x→y to layer L; 1 when it would close a cycle. */
static int add_dep(cdg *c, cdg_layer *L, int64_t x, int64_t y)
{
    int32_t lb = L->ord[y], ub = L->ord[x];
    if (lb > ub)
        return 0;
    c->now++;
    if (search_forward(c, L, y, x, ub))
        return 1;
    c->now++;
    search_backward(c, L, x, lb);
    /* Pearce–Kelly reorder: the backward set, then the forward set, each in
     * its old order, take the pooled positions in ascending order. */
    sort_by_ord(L, c->bwd, c->nb);
    sort_by_ord(L, c->fwd, c->nf);
    merge_positions(c, L);
    int64_t np = 0;
    for (int64_t i = 0; i < c->nb; i++)
        L->ord[c->bwd[i]] = (int32_t)c->pool[np++];
    for (int64_t i = 0; i < c->nf; i++)
        L->ord[c->fwd[i]] = (int32_t)c->pool[np++];
    return 0;
}

/* Calls emit(c, ctx, x, y) for every dependency of a unit; stops early when
 * emit returns non-zero and returns that value. */
typedef int (*dep_fn)(cdg *c, void *ctx, int64_t x, int64_t y);

static int table_deps(cdg *c, const moore_routing *r, int32_t t, dep_fn emit, void *ctx);

static int unit_deps(cdg *c, const moore_routing *r, int64_t unit, dep_fn emit, void *ctx)
{
    const moore_graph *g = c->g;
    if (c->tables)
        return table_deps(c, r, (int32_t)unit, emit, ctx);
    if (r->pair_offs) {
        int64_t h0 = r->path_offs[unit], h1 = r->path_offs[unit + 1];
        if (!c->serve[r->hops[h0]] || !c->serve[r->hops[h1 - 1]])
            return 0; /* no traffic between these switches */
        int64_t prev = -1;
        for (int64_t h = h0; h + 1 < h1; h++) {
            int64_t a = core_csr_find(g, r->hops[h], r->hops[h + 1]);
            int rc = prev >= 0 ? emit(c, ctx, prev, a) : 0;
            if (rc)
                return rc;
            prev = a;
        }
        return 0;
    }
    int32_t t = (int32_t)unit;
    const uint16_t *row = r->dist + (int64_t)t * r->n;
    int minimal = r->algo == MOORE_ROUTE_MINIMAL;
    if (!c->serve[t])
        return 0;
    /* switches on a route toward t from a switch with servers, by
     * decreasing distance: a switch is active when it serves or an active
     * switch forwards to it */
    route_order_by_distance(r, t, c->order, c->count, c->maxd);
    memcpy(c->active, c->serve, (size_t)r->n);
    for (int32_t i = 0; i < r->n; i++) {
        int32_t u = c->order[i];
        if (!c->active[u] || u == t)
            continue;
        for (int64_t a = g->offs[u]; a < g->offs[u + 1]; a++)
            if (row[g->adj[a]] + 1 == row[u]) {
                c->active[g->adj[a]] = 1;
                if (minimal)
                    break;
            }
    }
    for (int32_t u = 0; u < r->n; u++) {
        if (row[u] < 2 || !c->active[u])
            continue;
        for (int64_t a = g->offs[u]; a < g->offs[u + 1]; a++) {
            int32_t v = g->adj[a];
            if (row[v] + 1 != row[u])
                continue;
            for (int64_t b = g->offs[v]; b < g->offs[v + 1]; b++) {
                if (row[g->adj[b]] + 1 != row[v])
                    continue;
                int rc = emit(c, ctx, a, b);
                if (rc)
                    return rc;
                if (minimal)
                    break;
            }
            if (minimal)
                break;
        }
    }
    return 0;
}

/* The dependencies of destination t's table: a → b for table arcs u→v and
 * v→w toward t, u on a route toward t from a switch with servers. Every
 * table hop lowers key(x) = (d(x,t), x) (table.c), so switches are visited
 * in decreasing key: by decreasing distance, larger ids first. */
static int table_deps(cdg *c, const moore_routing *r, int32_t t, dep_fn emit, void *ctx)
{
    const moore_graph *g = c->g;
    int32_t n = r->n, deg = moore_graph_degree_max(g);
    int64_t *a1 = c->tarc, *a2 = c->tarc + deg;
    if (!c->serve[t])
        return 0;
    route_order_by_distance(r, t, c->order, c->count, c->maxd);
    for (int32_t i = 0, j; i < n; i = j) { /* ids descending within a distance */
        for (j = i; j < n && route_dist(r, c->order[j], t) == route_dist(r, c->order[i], t); j++)
            ;
        for (int32_t x = i, y = j - 1; x < y; x++, y--) {
            int32_t tmp = c->order[x];
            c->order[x] = c->order[y];
            c->order[y] = tmp;
        }
    }
    memcpy(c->active, c->serve, (size_t)n);
    for (int32_t i = 0; i < n; i++) {
        int32_t u = c->order[i];
        if (!c->active[u] || u == t)
            continue;
        int32_t k = route_table_entry(g, r, c->tab, u, t, a1, c->tw);
        for (int32_t x = 0; x < k; x++) {
            int32_t v = g->adj[a1[x]];
            c->active[v] = 1;
            int32_t k2 = v == t ? 0 : route_table_entry(g, r, c->tab, v, t, a2, c->tw);
            for (int32_t y = 0; y < k2; y++) {
                int rc = emit(c, ctx, a1[x], a2[y]);
                if (rc)
                    return rc;
            }
        }
    }
    return 0;
}

static int emit_union(cdg *c, void *ctx, int64_t x, int64_t y)
{
    bit_set((uint64_t *)ctx, dep_bit(c, x, y));
    return 0;
}

/* Tries to add a dependency to the layer in ctx; 1 on a cycle.
 *
 * A dependency that closes a cycle with the layer's committed dependencies
 * alone (none of the unit's own added yet) closes one for good: committed
 * dependencies are never removed, so later units that contain it skip the
 * layer at once instead of searching again. This is most of the work saved:
 * a path set repeats each dependency many times, and the search that finds
 * the cycle is the longest one. The layers are those of the plain search. */
static int emit_layer(cdg *c, void *ctx, int64_t x, int64_t y)
{
    cdg_layer *L = ctx;
    int64_t bit = dep_bit(c, x, y);
    if (bit_get(L->bits, bit))
        return 0;
    if (bit_get(L->cyc, bit))
        return 1;
    if (x == y || add_dep(c, L, x, y)) {
        if (c->nadded == 0)
            bit_set(L->cyc, bit);
        return 1;
    }
    bit_set(L->bits, bit);
    if (c->nadded == c->capadded) {
        int64_t cap = c->capadded ? 2 * c->capadded : 256;
        int64_t *p = realloc(c->added, (size_t)cap * sizeof *p);
        if (!p)
            return 2;
        c->added = p;
        c->capadded = cap;
    }
    c->added[c->nadded++] = bit;
    return 0;
}

/* Kahn's algorithm on the union graph: 1 when acyclic. */
static int union_acyclic(cdg *c, const uint64_t *bits, int64_t *deps, moore_error *err)
{
    const moore_graph *g = c->g;
    int32_t *indeg = moore_calloc((size_t)c->arcs + 1, sizeof *indeg, err);
    if (!indeg)
        return -1;
    int64_t count = 0;
    for (int64_t a = 0; a < c->arcs; a++) {
        int32_t v = g->adj[a];
        for (int64_t b = g->offs[v]; b < g->offs[v + 1]; b++)
            if (bit_get(bits, c->base[a] + (b - g->offs[v]))) {
                indeg[b]++;
                count++;
            }
    }
    *deps = count;
    int64_t top = 0, seen = 0;
    for (int64_t a = 0; a < c->arcs; a++)
        if (!indeg[a])
            c->stack[top++] = a;
    while (top) {
        int64_t a = c->stack[--top];
        seen++;
        int32_t v = g->adj[a];
        for (int64_t b = g->offs[v]; b < g->offs[v + 1]; b++)
            if (bit_get(bits, c->base[a] + (b - g->offs[v])) && --indeg[b] == 0)
                c->stack[top++] = b;
    }
    free(indeg);
    return seen == c->arcs;
}

/* Whether the CDG of all units together is acyclic, and its arc count. */
static int union_check(cdg *c, const moore_routing *r, int64_t units, moore_deadlock_result *out,
                       moore_error *err)
{
    int rc = moore_memory_guard((double)c->nbits / 8, "the channel dependency graph", err);
    if (rc)
        return rc;
    uint64_t *all = moore_calloc((size_t)(c->nbits / 64 + 1), sizeof *all, err);
    if (!all)
        return core_alloc_code(err);
    for (int64_t u = 0; u < units; u++)
        unit_deps(c, r, u, emit_union, all);
    int acyclic = union_acyclic(c, all, &out->dependencies, err);
    free(all);
    if (acyclic < 0)
        return core_alloc_code(err);
    out->cdg_acyclic = acyclic;
    return MOORE_OK;
}

static int new_layer(cdg *c, moore_error *err)
{
    int rc = moore_memory_guard((double)(c->nlayers + 1) * ((double)c->nbits / 4 + 4.0 * c->arcs),
                                "the virtual layers' dependency graphs", err);
    if (rc)
        return rc;
    if (c->nlayers == c->caplayers) {
        int32_t cap = c->caplayers ? 2 * c->caplayers : 8;
        cdg_layer *p = realloc(c->layers, (size_t)cap * sizeof *p);
        if (!p)
            return moore_error_set(err, MOORE_ENOMEM, "routing: no memory for a layer");
        c->layers = p;
        c->caplayers = cap;
    }
    cdg_layer *L = &c->layers[c->nlayers];
    L->bits = moore_calloc((size_t)(c->nbits / 64 + 1), sizeof *L->bits, err);
    L->cyc = moore_calloc((size_t)(c->nbits / 64 + 1), sizeof *L->cyc, err);
    L->ord = moore_malloc((size_t)c->arcs + 1, sizeof *L->ord, err);
    if (!L->bits || !L->cyc || !L->ord) {
        free(L->bits);
        free(L->cyc);
        free(L->ord);
        return core_alloc_code(err);
    }
    for (int64_t a = 0; a < c->arcs; a++)
        L->ord[a] = (int32_t)a;
    c->nlayers++;
    return MOORE_OK;
}

/* 1 when the dependency in ctx's layer is known to close a cycle there. */
static int emit_known_cycle(cdg *c, void *ctx, int64_t x, int64_t y)
{
    const cdg_layer *L = ctx;
    return bit_get(L->cyc, dep_bit(c, x, y));
}

/* Puts unit into the first layer that stays acyclic. Whether a layer takes
 * the unit depends on its dependency graph only (the dynamic order decides
 * cycles exactly), so a unit with a dependency known to close a cycle skips
 * the layer before any of its other dependencies is searched and added
 * (paths only). */
static int place_unit(cdg *c, const moore_routing *r, int64_t unit, int32_t *layer,
                      moore_error *err)
{
    /* a path's dependencies are a few; a destination's are its whole DAG,
     * which is worth listing twice only when it is not */
    int screen = r->pair_offs && !c->tables;
    for (int32_t j = 0;; j++) {
        int fresh = j == c->nlayers;
        if (fresh) {
            int rc = new_layer(c, err);
            if (rc)
                return rc;
        }
        c->nadded = 0;
        if (!fresh && screen && unit_deps(c, r, unit, emit_known_cycle, &c->layers[j]))
            continue;
        int rc = unit_deps(c, r, unit, emit_layer, &c->layers[j]);
        if (rc == 2)
            return moore_error_set(err, MOORE_ENOMEM, "routing: no memory while layering");
        if (rc == 0) {
            *layer = j;
            return MOORE_OK;
        }
        for (int64_t i = 0; i < c->nadded; i++)
            bit_clear(c->layers[j].bits, c->added[i]);
        if (fresh) /* a path of distinct links, or a destination's DAG, is acyclic alone */
            return moore_error_set(err, MOORE_EINTERNAL,
                                   "routing: unit %lld has a cyclic dependency by itself",
                                   (long long)unit);
    }
}

static int deadlock_run(const moore_graph *g, const moore_routing *r, int tables,
                        const route_tables *T, const moore_routing_options *o,
                        moore_deadlock_result *out, moore_error *err)
{
    memset(out, 0, sizeof *out);
    cdg c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.tables = tables;
    c.tab = T;
    c.arcs = 2 * g->m;
    if (c.arcs >= ((int64_t)1 << 31))
        return moore_error_set(err, MOORE_ETOOBIG,
                               "routing: %lld directed links exceed the dependency graph's limit",
                               (long long)c.arcs);
    int64_t units = r->pair_offs && !tables ? r->paths : r->n;
    int rc = MOORE_OK;
    c.base = moore_malloc((size_t)c.arcs + 1, sizeof *c.base, err);
    c.rev = moore_malloc((size_t)c.arcs + 1, sizeof *c.rev, err);
    c.tail = moore_malloc((size_t)c.arcs + 1, sizeof *c.tail, err);
    c.stamp = moore_calloc((size_t)c.arcs + 1, sizeof *c.stamp, err);
    c.stack = moore_malloc((size_t)c.arcs + 1, sizeof *c.stack, err);
    c.fwd = moore_malloc((size_t)c.arcs + 1, sizeof *c.fwd, err);
    c.bwd = moore_malloc((size_t)c.arcs + 1, sizeof *c.bwd, err);
    c.pool = moore_malloc((size_t)c.arcs * 2 + 1, sizeof *c.pool, err);
    out->layer = moore_malloc((size_t)units + 1, sizeof *out->layer, err);
    c.maxd = route_max_distance(r);
    c.serve = moore_malloc((size_t)g->n, 1, err);
    c.active = moore_malloc((size_t)g->n, 1, err);
    c.order = moore_malloc((size_t)g->n, sizeof *c.order, err);
    c.count = moore_malloc((size_t)c.maxd + 2, sizeof *c.count, err);
    c.tarc = moore_malloc(2 * (size_t)moore_graph_degree_max(g) + 1, sizeof *c.tarc, err);
    c.tw = moore_malloc((size_t)moore_graph_degree_max(g) + 1, sizeof *c.tw, err);
    if (!c.serve || !c.active || !c.order || !c.count || !c.tarc || !c.tw) {
        rc = core_alloc_code(err);
        goto done;
    }
    int any = moore_graph_endpoints_total(g) > 0;
    for (int32_t v = 0; v < g->n; v++)
        c.serve[v] = !any || g->endpoints[v] > 0;
    if (!c.base || !c.rev || !c.tail || !c.stamp || !c.stack || !c.fwd || !c.bwd || !c.pool ||
        !out->layer) {
        rc = core_alloc_code(err);
        goto done;
    }
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            c.tail[k] = u;
            c.base[k] = c.nbits;
            c.nbits += moore_graph_degree(g, g->adj[k]);
        }
    moore_graph_reverse_arcs(g, c.rev);
    if (!tables) /* the tables' layers need no union graph */
        rc = union_check(&c, r, units, out, err);
    for (int64_t u = 0; u < units && !rc; u++) {
        rc = place_unit(&c, r, u, &out->layer[u], err);
        if (o && o->progress && (u & 4095) == 0)
            o->progress(o->progress_ctx, "layers", (double)u / (double)units);
    }
    out->layers = c.nlayers;
    out->units = units;
done:
    for (int32_t j = 0; j < c.nlayers; j++) {
        free(c.layers[j].bits);
        free(c.layers[j].cyc);
        free(c.layers[j].ord);
    }
    free(c.layers);
    free(c.base);
    free(c.rev);
    free(c.tail);
    free(c.stamp);
    free(c.stack);
    free(c.fwd);
    free(c.bwd);
    free(c.pool);
    free(c.added);
    free(c.serve);
    free(c.active);
    free(c.order);
    free(c.count);
    free(c.tarc);
    free(c.tw);
    if (rc) {
        free(out->layer);
        out->layer = NULL;
    }
    return rc;
}

int moore_routing_deadlock(const moore_graph *g, const moore_routing *r,
                           const moore_routing_options *o, moore_deadlock_result *out,
                           moore_error *err)
{
    return deadlock_run(g, r, 0, NULL, o, out, err);
}

int route_table_layers(const moore_graph *g, const moore_routing *r, const route_tables *T,
                       const moore_routing_options *o, int32_t *layer, int32_t *layers,
                       moore_error *err)
{
    moore_deadlock_result d;
    int rc = deadlock_run(g, r, 1, T, o, &d, err);
    if (!rc) {
        memcpy(layer, d.layer, (size_t)r->n * sizeof *layer);
        *layers = d.layers;
    }
    moore_deadlock_result_clear(&d);
    return rc;
}

void moore_deadlock_result_clear(moore_deadlock_result *d)
{
    if (d) {
        free(d->layer);
        d->layer = NULL;
    }
}
