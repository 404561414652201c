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
 * work: a destination's DAG, a path's links found in the CSR), then the
 * layers run as a pipeline (block_run below): layer j takes, in unit order,
 * the units the layers below it rejected, so one thread can work on layer j
 * while another works on layer j + 1 at an earlier unit. Same layers for any
 * thread count. The union graph (`cdg_acyclic`, `cdg_dependencies`) is the
 * OR of the layers at the end: every unit's dependencies are committed to
 * exactly one layer. */
#include "cdg.h"
#include "core/alloc.h"
#include "routing_internal.h"

#include <omp.h>
#include <sched.h>
#include <stdatomic.h>
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
    int64_t *first, *hop;   /* next-hop arcs of each switch (dest_deps) */
    int32_t *x, *y;
    int64_t *bit;       /* forward bit of each (route_cdg_bit) */
    int64_t nd, cap;
    int oom;
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
    /* switches whose traffic counts: those with servers (all when the graph
     * has none) */
    char *serve;
    int32_t maxd;
    route_cdg_shape sh;
    route_cdg_layer *layers;
    int32_t nlayers;
} cdg;

static void dep_push(const cdg *c, unit_work *w, int64_t x, int64_t y)
{
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
    if (c->r->pair_offs && !c->tables)
        path_deps(c, w, unit);
    else if (c->serve[unit])
        (c->tables ? table_deps : dest_deps)(c, w, (int32_t)unit);
}

/* One thread's scratch for trying units on layers. */
typedef struct layer_worker {
    route_cdg_search s;
    int64_t *added;     /* the unit's new dependencies (for rollback) */
} layer_worker;

/* The layering of one block of units, run by every thread at once: each
 * layer takes, in unit order, the units every layer below it rejected, so
 * layer j can work on a unit while layer j + 1 still works on an earlier one
 * (a pipeline: the layers and their contents are those of one thread). A
 * thread claims a free layer, runs it until its next unit is undecided
 * below it, and releases it. Layer j + 1 is made by layer j's holder when j
 * rejects a unit and is the top. */
typedef struct block_run {
    cdg *c;
    const unit_deps_view *d;    /* the block's units */
    int64_t n;
    _Atomic int32_t *state;     /* per unit: 2j waiting at layer j, 2j + 1 in layer j */
    int64_t *cur;               /* per layer: its next unit (its holder's) */
    atomic_int *busy;           /* per layer: held */
    atomic_int nlayers;
    atomic_llong placed;
    atomic_int fail;
    moore_error err;            /* the first failure's */
} block_run;

static void run_fail(block_run *b, const moore_error *e)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&b->fail, &expected, e->code ? e->code : MOORE_ENOMEM))
        b->err = *e;
}

/* Makes layer j (the layers array has room: reserved before the block). */
static int new_layer(cdg *c, int32_t j, moore_error *err)
{
    int rc = moore_memory_guard((double)(j + 1) *
                                    (3.0 * (double)c->sh.nbits / 8 + 16.0 * (double)c->sh.arcs),
                                "the virtual layers' dependency graphs", err);
    if (!rc)
        rc = route_cdg_layer_init(&c->layers[j], &c->sh, err);
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

/* Adds the unit's dependencies to L; 1 (and L's dependencies as before) when
 * they close a cycle. A path's dependencies are a few, so they are first
 * screened for one known to close a cycle; a destination's are its whole
 * DAG, worth listing twice only when it is not. */
static int try_layer(const cdg *c, layer_worker *w, route_cdg_layer *L, const unit_deps_view *d)
{
    const int32_t *x = d->x, *y = d->y;
    if (c->r->pair_offs && !c->tables && known_cycle(L, d->bit, d->nd))
        return 1;
    int64_t nadded = 0;
    int cycle = 0;
    for (int64_t i = 0; i < d->nd && !cycle; i++) {
        int64_t bit = d->bit[i];
        if (route_cdg_has(L->bits, bit))
            continue;
        if (route_cdg_has(L->cyc, bit))
            cycle = 1;
        else if (x[i] == y[i] || route_cdg_add(&c->sh, L, &w->s, x[i], y[i])) {
            if (nadded == 0) /* closes a cycle with committed dependencies alone */
                L->cyc[bit >> 6] |= (uint64_t)1 << (bit & 63);
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

/* Layer j's next unit i rejected: on to layer j + 1, made when j is the top. */
static void pass_up(block_run *b, int32_t j, int64_t i)
{
    moore_error e;
    e.code = MOORE_OK;
    if (b->c->layers[j].empty) { /* a path of distinct links, or a DAG, is acyclic */
        moore_error_set(&e, MOORE_EINTERNAL, "routing: a unit has a cyclic dependency by itself");
        run_fail(b, &e);
        return;
    }
    if (j + 1 == atomic_load(&b->nlayers)) {
        if (new_layer(b->c, j + 1, &e)) {
            run_fail(b, &e);
            return;
        }
        b->cur[j + 1] = 0;
        atomic_store(&b->busy[j + 1], 0);
        atomic_store(&b->nlayers, j + 2);
    }
    atomic_store(&b->state[i], 2 * (j + 1));
}

/* Runs layer j (held) over its units until the next one is undecided below
 * it; the number of units it decided. */
static int64_t run_layer(block_run *b, layer_worker *w, int32_t j)
{
    route_cdg_layer *L = &b->c->layers[j];
    int64_t done = 0;
    while (b->cur[j] < b->n && !atomic_load(&b->fail)) {
        int64_t i = b->cur[j];
        int32_t st = atomic_load(&b->state[i]);
        if (st < 2 * j && !(st & 1))
            break; /* not yet rejected below */
        if (st == 2 * j) {
            if (try_layer(b->c, w, L, &b->d[i])) {
                pass_up(b, j, i);
            } else {
                L->empty = 0;
                atomic_store(&b->state[i], 2 * j + 1);
                atomic_fetch_add(&b->placed, 1);
            }
            done++;
        }
        b->cur[j]++;
    }
    return done;
}

/* One thread's share: claims free layers with work until the block is placed. */
static void run_worker(block_run *b, layer_worker *w)
{
    while (atomic_load(&b->placed) < b->n && !atomic_load(&b->fail)) {
        int64_t done = 0;
        int32_t nl = atomic_load(&b->nlayers);
        for (int32_t j = 0; j < nl; j++) {
            int expected = 0;
            if (!atomic_compare_exchange_strong(&b->busy[j], &expected, 1))
                continue;
            done += run_layer(b, w, j);
            atomic_store(&b->busy[j], 0);
        }
        if (!done)
            sched_yield(); /* every layer with work is held: let others run */
    }
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
    free(w->x);
    free(w->y);
    free(w->bit);
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

/* Room for the layers one block can make (one per unit at most) and the
 * run's per-layer arrays; the workers' room for a unit's new dependencies. */
static int block_reserve(cdg *c, block_run *b, layer_worker *lw, int threads, int64_t maxnd,
                         moore_error *err)
{
    int64_t cap = (int64_t)c->nlayers + b->n + 1;
    route_cdg_layer *p = realloc(c->layers, (size_t)cap * sizeof *p);
    int64_t *cur = p ? realloc(b->cur, (size_t)cap * sizeof *cur) : NULL;
    if (p)
        c->layers = p;
    if (cur)
        b->cur = cur;
    atomic_int *busy = cur ? realloc(b->busy, (size_t)cap * sizeof *busy) : NULL;
    if (!busy)
        return moore_error_set(err, MOORE_ENOMEM, "routing: no memory for the layers");
    b->busy = busy;
    for (int t = 0; t < threads; t++) {
        int64_t *q = realloc(lw[t].added, (size_t)(maxnd + 1) * sizeof *q);
        if (!q)
            return moore_error_set(err, MOORE_ENOMEM, "routing: no memory while layering");
        lw[t].added = q;
    }
    for (int32_t j = 0; j <= c->nlayers; j++) { /* and the first layer, when there is none */
        b->cur[j] = 0;
        atomic_init(&b->busy[j], 0);
    }
    return MOORE_OK;
}

/* Places the block's units (views d, n of them) into layers, on every thread. */
static int place_block(cdg *c, block_run *b, layer_worker *lw, int threads, int32_t *layer,
                       moore_error *err)
{
    int64_t maxnd = 0;
    for (int64_t i = 0; i < b->n; i++) {
        maxnd = b->d[i].nd > maxnd ? b->d[i].nd : maxnd;
        atomic_init(&b->state[i], 0);
    }
    int rc = block_reserve(c, b, lw, threads, maxnd, err);
    if (!rc && c->nlayers == 0 && !(rc = new_layer(c, 0, err)))
        c->nlayers = 1;
    if (rc)
        return rc;
    atomic_init(&b->nlayers, c->nlayers);
    atomic_init(&b->placed, 0);
    atomic_init(&b->fail, 0);
#pragma omp parallel num_threads(threads)
    run_worker(b, &lw[omp_get_thread_num()]);
    /* the layers made in the block: counted even on failure, to be freed */
    c->nlayers = atomic_load(&b->nlayers);
    if (atomic_load(&b->fail)) {
        *err = b->err;
        return b->err.code ? b->err.code : MOORE_ENOMEM;
    }
    for (int64_t i = 0; i < b->n; i++)
        layer[i] = atomic_load(&b->state[i]) / 2;
    return MOORE_OK;
}

static int layer_all(cdg *c, int64_t units, const moore_routing_options *o, int32_t *layer,
                     moore_error *err)
{
    int threads = o && o->threads > 0 ? o->threads : omp_get_max_threads();
    int64_t block = block_units(c);
    unit_work *work = moore_calloc((size_t)threads, sizeof *work, err);
    layer_worker *lw = moore_calloc((size_t)threads, sizeof *lw, err);
    int64_t *at = moore_malloc((size_t)block * 2, sizeof *at, err);
    int32_t *who = moore_malloc((size_t)block, sizeof *who, err);
    unit_deps_view *views = moore_malloc((size_t)block, sizeof *views, err);
    block_run b;
    memset(&b, 0, sizeof b);
    b.c = c;
    b.d = views;
    b.state = moore_malloc((size_t)block, sizeof *b.state, err);
    int rc = work && lw && at && who && views && b.state ? MOORE_OK : core_alloc_code(err);
    for (int t = 0; t < threads && !rc; t++)
        if (!(rc = work_init(&work[t], c, err)))
            rc = route_cdg_search_init(&lw[t].s, c->sh.arcs, err);
    for (int64_t u0 = 0; u0 < units && !rc; u0 += block) {
        int64_t u1 = u0 + block < units ? u0 + block : units, *end = at + block;
        if ((rc = list_block(c, work, threads, u0, u1, at, end, who, err)))
            break;
        for (int64_t u = u0; u < u1; u++) {
            const unit_work *w = &work[who[u - u0]];
            int64_t i = at[u - u0];
            views[u - u0] = (unit_deps_view){ w->x + i, w->y + i, w->bit + i, end[u - u0] - i };
        }
        b.n = u1 - u0;
        rc = place_block(c, &b, lw, threads, layer + u0, err);
        if (o && o->progress)
            o->progress(o->progress_ctx, "layers", (double)u1 / (double)units);
    }
    for (int t = 0; t < threads && work && lw; t++) {
        work_clear(&work[t]);
        route_cdg_search_clear(&lw[t].s);
        free(lw[t].added);
    }
    free(work);
    free(lw);
    free(at);
    free(who);
    free(views);
    free((void *)b.state);
    free(b.cur);
    free(b.busy);
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
    free(c.serve);
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
