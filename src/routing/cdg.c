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
 * dependency many times. Each dependency also keeps the first layer not
 * known to refuse it, so a unit starts at the highest of its dependencies'
 * instead of reading every lower layer.
 *
 * Whether a layer takes a unit depends on the layer's dependency graph only,
 * so the layers are a function of the unit order: one thread places the
 * units, in order, and the others list the next block's dependencies
 * meanwhile (the per-unit work: a destination's DAG, a path's links found in
 * the CSR), the placing thread joining them once its block is placed. Same
 * layers for any thread count. (Running the layers as a pipeline, layer j + 1
 * on another thread than layer j, gained nothing: on slimfly:q=29 ksp:k=8
 * the first layer takes 91% of the placing time, and the two threads' shared
 * counters cost more than the other 9%.) The union graph (`cdg_acyclic`,
 * `cdg_dependencies`) is the OR of the layers at the end: every unit's
 * dependencies are committed to exactly one layer. */
#include "cdg.h"
#include "core/alloc.h"
#include "routing_internal.h"

#include <omp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Dependencies x[i]→y[i] one thread listed in a block, i < nd. */
typedef struct dep_list {
    int32_t *x, *y;
    int64_t *bit;       /* forward bit of each (route_cdg_bit) */
    int64_t nd, cap;
    int oom;
} dep_list;

/* One thread's scratch for listing units, and where they go. */
typedef struct unit_work {
    char *active;
    int32_t *order, *count;
    int64_t *tarc;
    double *tw;
    int64_t *first, *hop;   /* next-hop arcs of each switch (dest_deps) */
    dep_list *out;
} unit_work;

/* One unit's dependencies x[i]→y[i] (forward bit bit[i]), i < nd. */
typedef struct unit_deps_view {
    const int32_t *x, *y;
    const int64_t *bit;
    int64_t nd;
} unit_deps_view;

typedef struct cdg {
    const moore_graph *g;
    const moore_routing *r;
    /* table mode (route_table_layers): units are destinations and their
     * dependencies the table's */
    int tables;
    const route_tables *tab;
    int paths;          /* units are explicit paths (else destinations) */
    /* switches whose traffic counts: those with servers (all when the graph
     * has none) */
    char *serve;
    int32_t maxd;
    route_cdg_shape sh;
    route_cdg_layer *layers;
    int32_t nlayers;
    /* by dependency (forward bit): the first layer not known to refuse it
     * (it closes a cycle in every layer below, capped at 255) */
    uint8_t *first;
} cdg;

static void dep_push(const cdg *c, unit_work *uw, int64_t x, int64_t y)
{
    dep_list *w = uw->out;
    if (w->nd == w->cap) {
        int64_t cap = w->cap ? 2 * w->cap : 1024;
        int32_t *px = realloc(w->x, (size_t)cap * sizeof *px);
        if (px)
            w->x = px;
        int32_t *py = px ? realloc(w->y, (size_t)cap * sizeof *py) : NULL;
        if (py)
            w->y = py;
        int64_t *pb = py ? realloc(w->bit, (size_t)cap * sizeof *pb) : NULL;
        if (!pb) {
            w->oom = 1;
            return;
        }
        w->bit = pb;
        w->cap = cap;
    }
    w->x[w->nd] = (int32_t)x;
    w->y[w->nd] = (int32_t)y;
    w->bit[w->nd++] = route_cdg_bit(&c->sh, x, y);
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
            dep_push(c, w, prev, a);
        prev = a;
    }
}

/* Minimal/ECMP toward t: every switch's next-hop arcs (the smallest alone
 * for minimal), the switches on a route toward t from a switch with servers
 * by decreasing distance (a switch is active when it serves or an active
 * switch forwards to it), then a → b for next hops a = u→v, b = v→w. */
static void dest_deps(const cdg *c, unit_work *w, int32_t t)
{
    const moore_graph *g = c->g;
    const moore_routing *r = c->r;
    const uint16_t *row = r->dist + (int64_t)t * r->n;
    int minimal = r->algo == MOORE_ROUTE_MINIMAL;
    int64_t k = 0, *first = w->first, *hop = w->hop;
    for (int32_t v = 0; v < r->n; v++) {
        first[v] = k;
        for (int64_t a = g->offs[v]; a < g->offs[v + 1] && v != t; a++)
            if (row[g->adj[a]] + 1 == row[v]) {
                hop[k++] = a;
                if (minimal)
                    break;
            }
    }
    first[r->n] = k;
    route_order_by_distance(r, t, w->order, w->count, c->maxd);
    memcpy(w->active, c->serve, (size_t)r->n);
    for (int32_t i = 0; i < r->n; i++) {
        int32_t u = w->order[i];
        for (int64_t h = first[u]; h < first[u + 1] && w->active[u]; h++)
            w->active[g->adj[hop[h]]] = 1;
    }
    for (int32_t u = 0; u < r->n; u++) {
        if (row[u] < 2 || !w->active[u])
            continue;
        for (int64_t h = first[u]; h < first[u + 1]; h++) {
            int32_t v = g->adj[hop[h]];
            for (int64_t h2 = first[v]; h2 < first[v + 1]; h2++)
                dep_push(c, w, hop[h], hop[h2]);
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
                dep_push(c, w, a1[x], a2[y]);
        }
    }
}

static void unit_deps(const cdg *c, unit_work *w, int64_t unit)
{
    if (c->paths)
        path_deps(c, w, unit);
    else if (c->serve[unit])
        (c->tables ? table_deps : dest_deps)(c, w, (int32_t)unit);
}

/* The placing thread's scratch: the searches', and a unit's new
 * dependencies (for rollback). */
typedef struct layer_worker {
    route_cdg_search s;
    int64_t *added, cap;
} layer_worker;

/* Makes layer j (j = c->nlayers; the array grows). */
static int new_layer(cdg *c, int32_t j, moore_error *err)
{
    int rc = moore_memory_guard((double)(j + 1) *
                                    (3.0 * (double)c->sh.nbits / 8 + 24.0 * (double)c->sh.arcs),
                                "the virtual layers' dependency graphs", err);
    route_cdg_layer *p = rc ? NULL : realloc(c->layers, (size_t)(j + 1) * sizeof *p);
    if (!rc && !p)
        rc = moore_error_set(err, MOORE_ENOMEM, "routing: no memory for the layers");
    if (!rc) {
        c->layers = p;
        rc = route_cdg_layer_init(&c->layers[j], &c->sh, err);
    }
    if (!rc)
        c->nlayers = j + 1;
    return rc;
}

/* 1 when one of the unit's dependencies is known to close a cycle in L. */
static int known_cycle(const route_cdg_layer *L, const int64_t *bit, int64_t nd)
{
    for (int64_t i = 0; i < nd; i++)
        if (route_cdg_has(L->cyc, bit[i]))
            return 1;
    return 0;
}

/* Remembers that dependency `bit` closes a cycle in layer j for good, and
 * moves its first layer past every layer known to refuse it. */
static void note_cycle(cdg *c, int32_t j, int64_t bit)
{
    c->layers[j].cyc[bit >> 6] |= (uint64_t)1 << (bit & 63);
    uint8_t *f = c->first ? &c->first[bit] : NULL;
    while (f && *f < 255 && *f < c->nlayers && route_cdg_has(c->layers[*f].cyc, bit))
        (*f)++;
}

/* The first layer that may take the unit: no layer below it can, each
 * holding a cycle one of the unit's dependencies closes. A path's layer
 * is then found after reading a byte per dependency instead of every
 * lower layer's bits (a path set's units mostly land above layer 0). Kept
 * for path sets only: a destination's thousands of dependencies cost more
 * to read than the layers they would skip (on slimfly:q=29 ecmp). */
static int32_t first_layer(const cdg *c, const unit_deps_view *d)
{
    int32_t j = 0;
    for (int64_t i = 0; i < d->nd && c->first; i++)
        if (c->first[d->bit[i]] > j)
            j = c->first[d->bit[i]];
    return j;
}

/* Adds the unit's dependencies to L; 1 (and L's dependencies as before) when
 * they close a cycle. A path's dependencies are a few, so they are first
 * screened for one known to close a cycle; a destination's are its whole
 * DAG, worth listing twice only when it is not. */
static int try_layer(cdg *c, layer_worker *w, int32_t j, const unit_deps_view *d)
{
    route_cdg_layer *L = &c->layers[j];
    const int32_t *x = d->x, *y = d->y;
    if (c->paths && known_cycle(L, d->bit, d->nd))
        return 1;
    int64_t nadded = 0;
    int cycle = 0;
    /* pass 0: the dependencies against the order, which need a search, so
     * that the first one searched meets the committed dependencies alone (a
     * cycle it closes is then remembered); pass 1: the rest */
    for (int pass = 0; pass < 2 && !cycle; pass++)
        for (int64_t i = 0; i < d->nd && !cycle; i++) {
            int64_t bit = d->bit[i];
            if (route_cdg_has(L->bits, bit) || (pass == 0 && L->lab[y[i]] >= L->lab[x[i]]))
                continue;
            if (route_cdg_has(L->cyc, bit))
                cycle = 1;
            else if (x[i] == y[i] || route_cdg_add(&c->sh, L, &w->s, x[i], y[i])) {
                if (nadded == 0) /* closes a cycle with committed dependencies alone */
                    note_cycle(c, j, bit);
                cycle = 1;
            } else {
                w->added[nadded++] = i;
            }
        }
    if (cycle)
        for (int64_t i = 0; i < nadded; i++)
            route_cdg_remove(&c->sh, L, x[w->added[i]], y[w->added[i]]);
    return cycle;
}

/* Puts one unit into the first layer that takes it, a new layer when none
 * does; its layer into *layer. */
static int place_unit(cdg *c, layer_worker *w, const unit_deps_view *d, int32_t *layer,
                      moore_error *err)
{
    if (d->nd > w->cap) {
        int64_t *q = realloc(w->added, (size_t)d->nd * sizeof *q);
        if (!q)
            return moore_error_set(err, MOORE_ENOMEM, "routing: no memory while layering");
        w->added = q;
        w->cap = d->nd;
    }
    int32_t j = first_layer(c, d);
    for (;; j++) {
        int rc = j == c->nlayers ? new_layer(c, j, err) : MOORE_OK;
        if (rc)
            return rc;
        if (!try_layer(c, w, j, d))
            break;
        if (c->layers[j].empty) /* a path of distinct links, or a DAG, is acyclic */
            return moore_error_set(err, MOORE_EINTERNAL,
                                   "routing: a unit has a cyclic dependency by itself");
    }
    c->layers[j].empty = 0;
    *layer = j;
    return MOORE_OK;
}

static void work_clear(unit_work *w)
{
    free(w->active);
    free(w->order);
    free(w->count);
    free(w->tarc);
    free(w->tw);
    free(w->first);
    free(w->hop);
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
    w->first = moore_malloc((size_t)g->n + 1, sizeof *w->first, err);
    w->hop = moore_malloc(2 * (size_t)g->m + 1, sizeof *w->hop, err);
    if (!w->active || !w->order || !w->count || !w->tarc || !w->tw || !w->first || !w->hop)
        return core_alloc_code(err);
    return MOORE_OK;
}

/* A block of units u0..u1−1 and their dependencies: unit u's are entries
 * at[i] to end[i] − 1 of deps[who[i]], i = u − u0, listed by the threads
 * that claimed it (next: the first unclaimed unit). Two blocks take turns:
 * one is listed while the other is placed. */
typedef struct unit_block {
    dep_list *deps;         /* per thread */
    int64_t u0, u1;
    int64_t *at, *end;
    int32_t *who;
    atomic_llong next;
} unit_block;

static int block_init(unit_block *B, int threads, int64_t block, moore_error *err)
{
    memset(B, 0, sizeof *B);
    B->deps = moore_calloc((size_t)threads, sizeof *B->deps, err);
    B->at = moore_malloc((size_t)block, sizeof *B->at, err);
    B->end = moore_malloc((size_t)block, sizeof *B->end, err);
    B->who = moore_malloc((size_t)block, sizeof *B->who, err);
    return B->deps && B->at && B->end && B->who ? MOORE_OK : core_alloc_code(err);
}

static void block_clear(unit_block *B, int threads)
{
    for (int t = 0; t < threads && B->deps; t++) {
        free(B->deps[t].x);
        free(B->deps[t].y);
        free(B->deps[t].bit);
    }
    free(B->deps);
    free(B->at);
    free(B->end);
    free(B->who);
}

/* Units per block, and per claim while listing: paths are a few
 * dependencies each, a destination's DAG is many. */
static int64_t block_units(const cdg *c)
{
    return c->paths ? 8192 : 16;
}

static int64_t claim_units(const cdg *c)
{
    return c->paths ? 64 : 1;
}

/* Lists units of B on thread t (scratch w), claiming them `claim` at a time
 * until none is left; any number of threads may share a block. */
static void list_share(const cdg *c, unit_block *B, unit_work *w, int t, int *fail)
{
    int64_t claim = claim_units(c);
    w->out = &B->deps[t];
    for (;;) {
        int64_t u = atomic_fetch_add(&B->next, claim), last = u + claim;
        for (; u < B->u1 && u < last; u++) {
            B->at[u - B->u0] = w->out->nd;
            unit_deps(c, w, u);
            B->end[u - B->u0] = w->out->nd;
            B->who[u - B->u0] = t;
        }
        if (u >= B->u1)
            break;
    }
    if (w->out->oom)
        core_par_note(fail, MOORE_ENOMEM);
}

/* Places B's units in order (one thread); their layers into layer[u − u0]. */
static int place_block(cdg *c, const unit_block *B, layer_worker *w, int32_t *layer,
                       moore_error *err)
{
    int rc = MOORE_OK;
    for (int64_t u = B->u0; u < B->u1 && !rc; u++) {
        int64_t i = u - B->u0;
        const dep_list *l = &B->deps[B->who[i]];
        unit_deps_view d = { l->x + B->at[i], l->y + B->at[i], l->bit + B->at[i],
                             B->end[i] - B->at[i] };
        rc = place_unit(c, w, &d, &layer[i], err);
    }
    return rc;
}

/* One round: thread 0 places block P (when place) and then, like every other
 * thread, lists block L (when list). */
static int block_round(cdg *c, unit_work *work, layer_worker *lw, int threads, unit_block *P,
                       int place, int32_t *layer, unit_block *L, int list, moore_error *err)
{
    int fail = 0, prc = MOORE_OK;
    moore_error perr;
    moore_error_clear(&perr);
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num();
        if (t == 0 && place)
            prc = place_block(c, P, lw, layer + P->u0, &perr);
        if (list)
            list_share(c, L, &work[t], t, &fail);
    }
    if (prc) {
        *err = perr;
        return prc;
    }
    return core_par_failed(err, fail, "routing: listing dependencies");
}

static int layer_all(cdg *c, int64_t units, const moore_routing_options *o, int32_t *layer,
                     moore_error *err)
{
    int threads = o && o->threads > 0 ? o->threads : omp_get_max_threads();
    int64_t block = block_units(c);
    unit_work *work = moore_calloc((size_t)threads, sizeof *work, err);
    unit_block B[2];
    layer_worker lw;
    memset(B, 0, sizeof B);
    memset(&lw, 0, sizeof lw);
    int rc = work ? MOORE_OK : core_alloc_code(err);
    for (int t = 0; t < threads && !rc; t++)
        rc = work_init(&work[t], c, err);
    for (int k = 0; k < 2 && !rc; k++)
        rc = block_init(&B[k], threads, block, err);
    if (!rc)
        rc = route_cdg_search_init(&lw.s, &c->sh, err);
    lw.s.short_first = c->paths;
    /* round k lists block k and places block k − 1 */
    for (int64_t k = 0; !rc && (k - 1) * block < units; k++) {
        unit_block *L = &B[k & 1], *P = &B[(k + 1) & 1];
        int list = k * block < units;
        if (list) {
            L->u0 = k * block;
            L->u1 = L->u0 + block < units ? L->u0 + block : units;
            atomic_init(&L->next, L->u0);
            for (int t = 0; t < threads; t++)
                L->deps[t].nd = 0;
        }
        rc = block_round(c, work, &lw, threads, P, k > 0, layer, L, list, err);
        if (!rc && k > 0 && o && o->progress)
            o->progress(o->progress_ctx, "layers", (double)P->u1 / (double)units);
    }
    for (int t = 0; t < threads && work; t++)
        work_clear(&work[t]);
    for (int k = 0; k < 2; k++)
        block_clear(&B[k], threads);
    route_cdg_search_clear(&lw.s);
    free(lw.added);
    free(work);
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
    c.paths = r->pair_offs && !tables;
    int64_t units = c.paths ? r->paths : r->n;
    c.maxd = route_max_distance(r);
    int rc = route_cdg_shape_init(&c.sh, g, err);
    /* a path set's first layer per dependency, the union graph at the end */
    double bytes = (c.paths ? (double)c.sh.nbits : 0) + (tables ? 0 : (double)c.sh.nbits / 8);
    if (!rc && bytes > 0)
        rc = moore_memory_guard(bytes, "the channel dependency graph", err);
    out->layer = rc ? NULL : moore_malloc((size_t)units + 1, sizeof *out->layer, err);
    c.serve = rc ? NULL : moore_malloc((size_t)g->n + 1, 1, err);
    c.first = rc || !c.paths ? NULL : moore_calloc((size_t)c.sh.nbits + 1, 1, err);
    if (!rc && (!out->layer || !c.serve || (c.paths && !c.first)))
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
    free(c.serve);
    free(c.first);
    route_cdg_shape_clear(&c.sh);
    if (rc)
        moore_deadlock_result_clear(out);
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
