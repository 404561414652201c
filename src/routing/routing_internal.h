/* routing_internal.h — what the routing modules share (not public API): the
 * next-hop rule on distance rows, a growable path buffer, and the parallel
 * builder of explicit per-pair path sets. */
#ifndef MOORE_SRC_ROUTING_INTERNAL_H
#define MOORE_SRC_ROUTING_INTERNAL_H

#include "moore/routing.h"

#include "core/csr.h" /* core_csr_find: the arc u→v in u's sorted row */

/* d(u,t) from the distance rows (the graph is undirected: row t works too). */
static inline int32_t route_dist(const moore_routing *r, int32_t u, int32_t t)
{
    return r->dist[(int64_t)u * r->n + t];
}

/* ECMP next hops of u toward t: {v ∈ N(u) : d(v,t) = d(u,t) − 1}, ascending. */
static inline int32_t route_ecmp_hops(const moore_graph *g, const moore_routing *r, int32_t u,
                                      int32_t t, int32_t *nh)
{
    int32_t c = 0, want = route_dist(r, u, t) - 1;
    const uint16_t *row = r->dist + (int64_t)t * r->n;
    for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
        if (row[g->adj[k]] == want)
            nh[c++] = g->adj[k];
    return c;
}

/* The minimal next hop of u toward t: the smallest ECMP next hop. */
static inline int32_t route_minimal_hop(const moore_graph *g, const moore_routing *r, int32_t u,
                                        int32_t t)
{
    int32_t want = route_dist(r, u, t) - 1;
    const uint16_t *row = r->dist + (int64_t)t * r->n;
    for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
        if (row[g->adj[k]] == want)
            return g->adj[k];
    return -1;
}

/* Paths being collected for one source: switch sequences and, per path, its
 * destination (paths are appended in destination order). */
typedef struct route_buf {
    int32_t *hops;
    int64_t nhops, caphops;
    int64_t *ends;          /* end offset of each path in hops */
    int32_t *dst;
    int64_t npaths, cappaths;
    int oom;
} route_buf;

/* Appends the path seq[0..len−1] toward t; sets b->oom on allocation failure. */
void route_buf_add(route_buf *b, const int32_t *seq, int32_t len, int32_t t);

/* Writes the minimal path s→t into seq (room for d(s,t)+1); returns its length. */
int32_t route_minimal_path(const moore_graph *g, const moore_routing *r, int32_t s, int32_t t,
                           int32_t *seq);

/* Fills the paths of source s into b (all destinations t ≠ s, ascending). */
typedef void (*route_source_fn)(void *ctx, const moore_graph *g, const moore_routing *r,
                                int32_t s, route_buf *b);

/* Runs fn for every source in parallel and stores the result in r's
 * pair_offs/path_offs/hops. `bytes_per_pair` estimates the memory (checked
 * with the guard first). */
int route_explicit_build(const moore_graph *g, moore_routing *r, const moore_routing_options *o,
                         route_source_fn fn, void *ctx, double bytes_per_pair, const char *what,
                         moore_error *err);

/* moore_routing_build; when o's time limit or cancel hook stops an explicit
 * build, returns MOORE_OK with *out NULL and *stopped "time-limit" or
 * "cancelled" (else *stopped NULL). */
int route_build(const moore_graph *g, const moore_routing_options *o, moore_routing **out,
                const char **stopped, moore_error *err);

/* Switches by decreasing d(·,t) into order (n); count is scratch of maxd+2. */
void route_order_by_distance(const moore_routing *r, int32_t t, int32_t *order, int32_t *count,
                             int32_t maxd);
/* The largest entry of the distance rows. */
int32_t route_max_distance(const moore_routing *r);
/* Shortest-path counts σ(u,t) for every u (order from route_order_by_distance,
 * whose last entry is t), and |ECMP next hops of u toward t| added to entries[u]. */
void route_ecmp_counts(const moore_graph *g, const moore_routing *r, int32_t t,
                       const int32_t *order, double *sigma, int64_t *entries);
/* ECMP/minimal flow toward t: demand[u] (overwritten) enters at u; arc loads
 * (CSR positions) are added to load; hop is scratch of the largest degree. */
void route_fixed_load(const moore_graph *g, const moore_routing *r, int32_t t,
                      const int32_t *order, double *demand, double *load, int64_t *hop);

/* ---- destination-based tables (table.c, docs/routing.md) ---- */

/* The loop-free table of an explicit path set: per destination t, its arcs
 * (CSR positions, ascending) and each one's share at its tail switch. */
typedef struct route_tables {
    int32_t n;
    int64_t *count;     /* arcs of destination t */
    int64_t **arc;
    double **w;
} route_tables;

/* Keeps, of u's shares w (deg(u) entries, by CSR position) toward t, the
 * next hops v with key(v) < key(u), key(x) = (d(x,t), x), renormalised;
 * the minimal next hop alone when none is kept. */
void route_table_filter(const moore_graph *g, const moore_routing *r, int32_t u, int32_t t,
                        double *w);
/* The table toward t of an explicit path set as shares per arc into acc (2m,
 * zero on entry; every switch u ≠ t gets an entry). */
void route_table_dest(const moore_graph *g, const moore_routing *r, int32_t t, double *acc);
/* All destinations' tables of an explicit path set (*out NULL for minimal and
 * ECMP, whose tables are read off the distance rows). */
int route_tables_build(const moore_graph *g, const moore_routing *r, route_tables **out,
                       moore_error *err);
void route_tables_free(route_tables *T);
/* The entry of u toward t: arcs (CSR positions, ascending) and shares, room
 * for deg(u); T from route_tables_build. Returns the count (0 when u = t). */
int32_t route_table_entry(const moore_graph *g, const moore_routing *r, const route_tables *T,
                          int32_t u, int32_t t, int64_t *arcs, double *w);
/* The greedy virtual layer of every destination for the table's DAGs (unit:
 * all of a destination's table, as moore_routing_deadlock does for ECMP);
 * layer has n entries. */
int route_table_layers(const moore_graph *g, const moore_routing *r, const route_tables *T,
                       const moore_routing_options *o, int32_t *layer, int32_t *layers,
                       moore_error *err);

/* The explicit builders. */
int route_ksp_build(const moore_graph *g, moore_routing *r, const moore_routing_options *o,
                    moore_error *err);
int route_valiant_build(const moore_graph *g, moore_routing *r, const moore_routing_options *o,
                        int with_minimal, moore_error *err);
int route_ugal_build(const moore_graph *g, moore_routing *r, const moore_routing_options *o,
                     moore_error *err);

#endif
