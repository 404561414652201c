/* cdg.h — internal to the deadlock layering: how a channel dependency graph
 * (CDG) is stored, shared by cdg.c (the units and the greedy layering) and
 * cdg_order.c (one layer's acyclic dependency graph under insertions), so
 * the bit layout is written down once.
 *
 * A CDG vertex is a directed link (a CSR arc position). Each layer keeps its
 * dependencies twice as bits: forward, arc a = u→v has one bit per arc v→w
 * leaving v (the successors of a are one contiguous run of bits), and
 * backward, arc b = v→w has one bit per arc x→v entering v (its
 * predecessors, contiguous too), so both searches of the dynamic order scan
 * words instead of probing scattered bits. A layer costs 3·Σ_v deg(v)² bits
 * (forward, backward, and the dependencies known to close a cycle there)
 * plus 24 bytes per arc (its place in the order). */
#ifndef MOORE_SRC_ROUTING_CDG_H
#define MOORE_SRC_ROUTING_CDG_H

#include "moore/graph.h"

#include <stdint.h>

typedef struct route_cdg_shape {
    const moore_graph *g;
    int64_t arcs;
    int64_t nbits;      /* bits of one direction */
    int64_t *base;      /* first forward bit of each arc */
    int64_t *rbase;     /* first backward bit of each arc */
    int32_t *rev;       /* reverse arc */
    int32_t *tail;
} route_cdg_shape;

typedef struct route_cdg_layer {
    uint64_t *bits;     /* forward */
    uint64_t *rbits;    /* backward: the same dependencies */
    uint64_t *cyc;      /* dependencies known to close a cycle (forward layout) */
    /* the topological order: arcs 0..arcs−1 and two sentinels (arcs: the
     * head, arcs + 1: the tail) in a linked list, labels increasing */
    int64_t *lab;
    int64_t *labr;      /* labr[c] = lab[rev[c]]: the backward search's reads */
    int32_t *next, *prev;
    int empty;          /* no unit placed yet */
} route_cdg_layer;

/* The searches' scratch (one per thread): the arcs each search has queued,
 * as bits by arc and by reverse arc (all zero between searches), their two
 * queues sharing one array, and sorting room. */
typedef struct route_cdg_search {
    uint64_t *seenf, *seenfr, *seenb, *seenbr;
    int64_t *queue, *pool;
    int64_t nf, nb;
    uint64_t *near;     /* by switch: a predecessor of the new dependency's
                           tail arc leaves it (all zero between searches) */
    int32_t *via;       /* that predecessor */
    int short_first;    /* look for a cycle of at most five links before
                           searching: worth it where most searches prove
                           one (path sets), not on destination DAGs */
} route_cdg_search;

int route_cdg_shape_init(route_cdg_shape *sh, const moore_graph *g, moore_error *err);
void route_cdg_shape_clear(route_cdg_shape *sh);
int route_cdg_search_init(route_cdg_search *s, const route_cdg_shape *sh, moore_error *err);
void route_cdg_search_clear(route_cdg_search *s);
/* An empty layer (order: arc ids); MOORE_OK or the allocation's code. */
int route_cdg_layer_init(route_cdg_layer *L, const route_cdg_shape *sh, moore_error *err);
void route_cdg_layer_clear(route_cdg_layer *L);

/* The forward bit of dependency a → b (b leaves the head of a). */
static inline int64_t route_cdg_bit(const route_cdg_shape *sh, int64_t a, int64_t b)
{
    return sh->base[a] + (b - sh->g->offs[sh->g->adj[a]]);
}

static inline int route_cdg_has(const uint64_t *bits, int64_t i)
{
    return (int)((bits[i >> 6] >> (i & 63)) & 1);
}

/* Adds dependency x→y (x ≠ y, not in L yet) to L and keeps L's order
 * topological; 1 (and L's dependencies unchanged) when it would close a
 * cycle. Cost: about twice the smaller of the arcs between y and x in the
 * order that reach x and those that y reaches (cdg_order.c). */
int route_cdg_add(const route_cdg_shape *sh, route_cdg_layer *L, route_cdg_search *s, int64_t x,
                  int64_t y);
/* Removes dependency x→y from L (its order stays topological). O(1). */
void route_cdg_remove(const route_cdg_shape *sh, route_cdg_layer *L, int64_t x, int64_t y);

/* Whether the union of the layers' dependencies is acyclic (1, 0, or a
 * negative value when out of memory, err set) and, in *deps, how many
 * distinct dependencies it has. O(nlayers·nbits/64 + arcs + deps). */
int route_cdg_union_acyclic(const route_cdg_shape *sh, const route_cdg_layer *layers,
                            int32_t nlayers, int64_t *deps, moore_error *err);

#endif
