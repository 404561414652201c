/* cdg.c — deadlock freedom: the channel dependency graph (CDG) of a path set
 * and its greedy split into virtual layers.
 *
 * The CDG has a vertex per directed link (a CSR arc position) and an arc
 * a→b when some path uses link b right after link a (docs/routing.md). A
 * lossless fabric routing on it cannot deadlock when the graph is acyclic.
 * cdg.h says how a layer stores it; cdg_order.c keeps a layer acyclic.
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
 * dependencies added, a new layer when none does. A unit that closes a cycle
 * is rolled back (only its new dependencies are removed). A dependency that
 * closes a cycle with a layer's committed dependencies alone closes one for
 * good (layers only grow), so it is remembered and later units holding it
 * skip the layer before anything is searched: a path set repeats each
 * dependency many times.
 *
 * Whether a layer takes a unit depends on the layer's dependency graph only,
 * so the layers are a function of the unit order. That makes the split
 * parallel where it is parallel and nowhere else: the units' dependencies
 * are listed for a block of units at a time on every thread (the per-unit
 * work: a destination's DAG, a path's links found in the CSR), then placed
 * one after the other. Same layers for any thread count. The union graph
 * (`cdg_acyclic`, `cdg_dependencies`) is the OR of the layers at the end:
 * every unit's dependencies are committed to exactly one layer. */
#include "cdg.h"
#include "core/alloc.h"
#include "routing_internal.h"

#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One thread's scratch for listing units and the dependencies x[i]→y[i] it
 * listed in the current block. */
typedef struct unit_work {
    char *active;
    int32_t *order, *count;
    int64_t *tarc;
    double *tw;
    int32_t *x, *y;
    int64_t nd, cap;
    int oom;
} unit_work;

typedef struct cdg {
    const moore_graph *g;
    const moore_routing *r;
    /* table mode (route_table_layers): units are destinations and their
     * dependencies the table's */
    int tables;
    const route_tables *tab;
    /* switches whose traffic counts: those with servers (all when the graph
     * has none) */
    char *serve;
    int32_t maxd;
    route_cdg_shape sh;
    route_cdg_search s;
    route_cdg_layer *layers;
    int32_t nlayers, caplayers;
    int64_t *added, capadded;   /* the unit's new dependencies (for rollback) */
} cdg;

static void dep_push(unit_work *w, int64_t x, int64_t y)
{
    if (w->nd == w->cap) {
        int64_t cap = w->cap ? 2 * w->cap : 1024;
        int32_t *px = realloc(w->x, (size_t)cap * sizeof *px);
        if (px)
            w->x = px;
        int32_t *py = px ? realloc(w->y, (size_t)cap * sizeof *py) : NULL;
        if (!py) {
            w->oom = 1;
            return;
        }
        w->y = py;
        w->cap = cap;
    }
    w->x[w->nd] = (int32_t)x;
    w->y[w->nd++] = (int32_t)y;
}

/* An explicit path's dependencies: consecutive links. */
static void path_deps(const cdg *c, unit_work *w, int64_t p)
{
    const moore_routing *r = c->r;
    int64_t h0 = r->path_offs[p], h1 = r->path_offs[p + 1];
    if (!c->serve[r->hops[h0]] || !c->serve[r->hops[h1 - 1]])
        return; /* no traffic between these switches */
    int64_t prev = -1;
    for (int64_t h = h0; h + 1 < h1; h++) {
        int64_t a = core_csr_find(c->g, r->hops[h], r->hops[h + 1]);
        if (prev >= 0)
            dep_push(w, prev, a);
        prev = a;
    }
}

/* Minimal/ECMP toward t: switches on a route toward t from a switch with
 * servers, by decreasing distance (a switch is active when it serves or an
 * active switch forwards to it), then a → b for next hops a = u→v, b = v→w. */
static void dest_deps(const cdg *c, unit_work *w, int32_t t)
{
    const moore_graph *g = c->g;
    const moore_routing *r = c->r;
    const uint16_t *row = r->dist + (int64_t)t * r->n;
    int minimal = r->algo == MOORE_ROUTE_MINIMAL;
    route_order_by_distance(r, t, w->order, w->count, c->maxd);
    memcpy(w->active, c->serve, (size_t)r->n);
    for (int32_t i = 0; i < r->n; i++) {
        int32_t u = w->order[i];
        if (!w->active[u] || u == t)
            continue;
        for (int64_t a = g->offs[u]; a < g->offs[u + 1]; a++)
            if (row[g->adj[a]] + 1 == row[u]) {
                w->active[g->adj[a]] = 1;
                if (minimal)
                    break;
            }
    }
    for (int32_t u = 0; u < r->n; u++) {
        if (row[u] < 2 || !w->active[u])
            continue;
        for (int64_t a = g->offs[u]; a < g->offs[u + 1]; a++) {
            int32_t v = g->adj[a];
            if (row[v] + 1 != row[u])
                continue;
            for (int64_t b = g->offs[v]; b < g->offs[v + 1]; b++) {
                if (row[g->adj[b]] + 1 != row[v])
                    continue;
                dep_push(w, a, b);
                if (minimal)
                    break;
            }
            if (minimal)
                break;
        }
    }
}

/* The dependencies of destination t's table: a → b for table arcs u→v and
 * v→w toward t, u on a route toward t from a switch with servers. Every
 * table hop lowers key(x) = (d(x,t), x) (table.c), so switches are visited
 * in decreasing key: by decreasing distance, larger ids first. */
static void table_deps(const cdg *c, unit_work *w, int32_t t)
{
    const moore_graph *g = c->g;
    const moore_routing *r = c->r;
    int32_t n = r->n, deg = moore_graph_degree_max(g);
    int64_t *a1 = w->tarc, *a2 = w->tarc + deg;
    int32_t *order = w->order;
    route_order_by_distance(r, t, order, w->count, c->maxd);
    for (int32_t i = 0, j; i < n; i = j) { /* ids descending within a distance */
        for (j = i; j < n && route_dist(r, order[j], t) == route_dist(r, order[i], t); j++)
            ;
        for (int32_t x = i, y = j - 1; x < y; x++, y--) {
            int32_t tmp = order[x];
            order[x] = order[y];
            order[y] = tmp;
        }
    }
    memcpy(w->active, c->serve, (size_t)n);
    for (int32_t i = 0; i < n; i++) {
        int32_t u = order[i];
        if (!w->active[u] || u == t)
            continue;
        int32_t k = route_table_entry(g, r, c->tab, u, t, a1, w->tw);
        for (int32_t x = 0; x < k; x++) {
            int32_t v = g->adj[a1[x]];
            w->active[v] = 1;
            int32_t k2 = v == t ? 0 : route_table_entry(g, r, c->tab, v, t, a2, w->tw);
            for (int32_t y = 0; y < k2; y++)
                dep_push(w, a1[x], a2[y]);
        }
    }
}

static void unit_deps(const cdg *c, unit_work *w, int64_t unit)
{
    if (c->r->pair_offs && !c->tables)
        path_deps(c, w, unit);
    else if (c->serve[unit])
        (c->tables ? table_deps : dest_deps)(c, w, (int32_t)unit);
}

static int new_layer(cdg *c, moore_error *err)
{
    int rc = moore_memory_guard((double)(c->nlayers + 1) *
                                    (3.0 * (double)c->sh.nbits / 8 + 16.0 * (double)c->sh.arcs),
                                "the virtual layers' dependency graphs", err);
    if (rc)
        return rc;
    if (c->nlayers == c->caplayers) {
        int32_t cap = c->caplayers ? 2 * c->caplayers : 8;
        route_cdg_layer *p = realloc(c->layers, (size_t)cap * sizeof *p);
        if (!p)
            return moore_error_set(err, MOORE_ENOMEM, "routing: no memory for a layer");
        c->layers = p;
        c->caplayers = cap;
    }
    if ((rc = route_cdg_layer_init(&c->layers[c->nlayers], &c->sh, err)))
        return rc;
    c->nlayers++;
    return MOORE_OK;
}

/* 1 when one of the unit's dependencies is known to close a cycle in L. */
static int known_cycle(const cdg *c, const route_cdg_layer *L, const int32_t *x,
                       const int32_t *y, int64_t nd)
{
    for (int64_t i = 0; i < nd; i++)
        if (route_cdg_has(L->cyc, route_cdg_bit(&c->sh, x[i], y[i])))
            return 1;
    return 0;
}

/* Adds the unit's dependencies to L; 1 (and L's dependencies as before) when
 * they close a cycle. */
static int try_layer(cdg *c, route_cdg_layer *L, const int32_t *x, const int32_t *y, int64_t nd)
{
    int64_t nadded = 0;
    int cycle = 0;
    for (int64_t i = 0; i < nd && !cycle; i++) {
        int64_t bit = route_cdg_bit(&c->sh, x[i], y[i]);
        if (route_cdg_has(L->bits, bit))
            continue;
        if (route_cdg_has(L->cyc, bit))
            cycle = 1;
        else if (x[i] == y[i] || route_cdg_add(&c->sh, L, &c->s, x[i], y[i])) {
            if (nadded == 0) /* closes a cycle with committed dependencies alone */
                L->cyc[bit >> 6] |= (uint64_t)1 << (bit & 63);
            cycle = 1;
        } else {
            c->added[nadded++] = i;
        }
    }
    if (cycle)
        for (int64_t i = 0; i < nadded; i++)
            route_cdg_remove(&c->sh, L, x[c->added[i]], y[c->added[i]]);
    return cycle;
}

/* Puts a unit with dependencies x→y (nd of them) into the first layer that
 * stays acyclic. */
static int place_unit(cdg *c, int64_t unit, const int32_t *x, const int32_t *y, int64_t nd,
                      int32_t *layer, moore_error *err)
{
    if (nd > c->capadded) {
        int64_t *p = realloc(c->added, (size_t)nd * sizeof *p);
        if (!p)
            return moore_error_set(err, MOORE_ENOMEM, "routing: no memory while layering");
        c->added = p;
        c->capadded = nd;
    }
    for (int32_t j = 0;; j++) {
        int fresh = j == c->nlayers;
        if (fresh) {
            int rc = new_layer(c, err);
            if (rc)
                return rc;
        }
        if (!fresh && known_cycle(c, &c->layers[j], x, y, nd))
            continue;
        if (!try_layer(c, &c->layers[j], x, y, nd)) {
            *layer = j;
            return MOORE_OK;
        }
        if (fresh) /* a path of distinct links, or a destination's DAG, is acyclic alone */
            return moore_error_set(err, MOORE_EINTERNAL,
                                   "routing: unit %lld has a cyclic dependency by itself",
                                   (long long)unit);
    }
}

static void work_clear(unit_work *w)
{
    free(w->active);
    free(w->order);
    free(w->count);
    free(w->tarc);
    free(w->tw);
    free(w->x);
    free(w->y);
}

static int work_init(unit_work *w, const cdg *c, moore_error *err)
{
    const moore_graph *g = c->g;
    int32_t deg = moore_graph_degree_max(g);
    memset(w, 0, sizeof *w);
    w->active = moore_malloc((size_t)g->n + 1, 1, err);
    w->order = moore_malloc((size_t)g->n + 1, sizeof *w->order, err);
    w->count = moore_malloc((size_t)c->maxd + 2, sizeof *w->count, err);
    w->tarc = moore_malloc(2 * (size_t)deg + 1, sizeof *w->tarc, err);
    w->tw = moore_malloc((size_t)deg + 1, sizeof *w->tw, err);
    if (!w->active || !w->order || !w->count || !w->tarc || !w->tw)
        return core_alloc_code(err);
    return MOORE_OK;
}

/* Lists the dependencies of units u0..u1−1 on every thread: unit u's are
 * entries at[i] to end[i] − 1 of work[who[i]].x and .y, i = u − u0. */
static int list_block(const cdg *c, unit_work *work, int threads, int64_t u0, int64_t u1,
                      int64_t *at, int64_t *end, int32_t *who, moore_error *err)
{
    for (int t = 0; t < threads; t++)
        work[t].nd = 0;
    int fail = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int64_t u = u0; u < u1; u++) {
        unit_work *w = &work[omp_get_thread_num()];
        at[u - u0] = w->nd;
        unit_deps(c, w, u);
        end[u - u0] = w->nd;
        who[u - u0] = omp_get_thread_num();
        if (w->oom)
            core_par_note(&fail, MOORE_ENOMEM);
    }
    return core_par_failed(err, fail, "routing: listing dependencies");
}

/* Units per block: paths are a few dependencies each, a destination's DAG
 * is many. */
static int64_t block_units(const cdg *c)
{
    return c->r->pair_offs && !c->tables ? 8192 : 16;
}

static int layer_all(cdg *c, int64_t units, const moore_routing_options *o, int32_t *layer,
                     moore_error *err)
{
    int threads = o && o->threads > 0 ? o->threads : omp_get_max_threads();
    int64_t block = block_units(c);
    unit_work *work = moore_calloc((size_t)threads, sizeof *work, err);
    int64_t *at = moore_malloc((size_t)block * 2, sizeof *at, err);
    int32_t *who = moore_malloc((size_t)block, sizeof *who, err);
    int rc = work && at && who ? MOORE_OK : core_alloc_code(err);
    for (int t = 0; t < threads && !rc; t++)
        rc = work_init(&work[t], c, err);
    for (int64_t u0 = 0; u0 < units && !rc; u0 += block) {
        int64_t u1 = u0 + block < units ? u0 + block : units, *end = at + block;
        if ((rc = list_block(c, work, threads, u0, u1, at, end, who, err)))
            break;
        for (int64_t u = u0; u < u1 && !rc; u++) {
            const unit_work *w = &work[who[u - u0]];
            int64_t i = at[u - u0];
            rc = place_unit(c, u, w->x + i, w->y + i, end[u - u0] - i, &layer[u], err);
        }
        if (o && o->progress)
            o->progress(o->progress_ctx, "layers", (double)u1 / (double)units);
    }
    for (int t = 0; work && t < threads; t++)
        work_clear(&work[t]);
    free(work);
    free(at);
    free(who);
    return rc;
}

static int deadlock_run(const moore_graph *g, const moore_routing *r, int tables,
                        const route_tables *T, const moore_routing_options *o,
                        moore_deadlock_result *out, moore_error *err)
{
    memset(out, 0, sizeof *out);
    cdg c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.r = r;
    c.tables = tables;
    c.tab = T;
    if (2 * g->m >= ((int64_t)1 << 31))
        return moore_error_set(err, MOORE_ETOOBIG,
                               "routing: %lld directed links exceed the dependency graph's limit",
                               (long long)(2 * g->m));
    int64_t units = r->pair_offs && !tables ? r->paths : r->n;
    c.maxd = route_max_distance(r);
    int rc = route_cdg_shape_init(&c.sh, g, err);
    if (!rc)
        rc = route_cdg_search_init(&c.s, c.sh.arcs, err);
    if (!rc && !tables) /* the union graph, built at the end */
        rc = moore_memory_guard((double)c.sh.nbits / 8, "the channel dependency graph", err);
    out->layer = moore_malloc((size_t)units + 1, sizeof *out->layer, err);
    c.serve = moore_malloc((size_t)g->n + 1, 1, err);
    if (!rc && (!out->layer || !c.serve))
        rc = core_alloc_code(err);
    if (rc)
        goto done;
    int any = moore_graph_endpoints_total(g) > 0;
    for (int32_t v = 0; v < g->n; v++)
        c.serve[v] = !any || g->endpoints[v] > 0;
    if ((rc = layer_all(&c, units, o, out->layer, err)))
        goto done;
    if (!tables) {
        int acyclic = route_cdg_union_acyclic(&c.sh, c.layers, c.nlayers, &out->dependencies, err);
        if (acyclic < 0) {
            rc = core_alloc_code(err);
            goto done;
        }
        out->cdg_acyclic = acyclic;
    }
    out->layers = c.nlayers;
    out->units = units;
done:
    for (int32_t j = 0; j < c.nlayers; j++)
        route_cdg_layer_clear(&c.layers[j]);
    free(c.layers);
    free(c.added);
    free(c.serve);
    route_cdg_search_clear(&c.s);
    route_cdg_shape_clear(&c.sh);
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
