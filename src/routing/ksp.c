/* ksp.c — the K shortest simple paths of every ordered pair.
 *
 * The result is the set Yen's algorithm returns — every simple s→t path
 * shorter than the K-th shortest, then as many of the K-th length as fit —
 * with ties broken by the lexicographically smallest switch sequence, so it
 * is one well-defined set rather than Yen's order of discovery. On hop
 * counts it can be enumerated directly: for L = d(s,t), d(s,t)+1, … a
 * depth-first search lists the simple paths of exactly L hops, neighbours in
 * ascending order, pruned by the exact distance d(v,t) from the all-pairs
 * rows (a prefix of g hops at v can only finish in L hops when
 * g + d(v,t) ≤ L). The pruning makes each level cost about the paths it
 * finds times their length, and the search stops as soon as K paths are
 * listed. Its last free choice, the switch w before t, is a common
 * neighbour of the current switch u and of t, listed by AND-ing two rows of
 * an adjacency bit matrix (when it fits: n ≤ KSP_BITS_MAX) rather than by
 * testing d(w,t) for every neighbour w of u; that took most of the search
 * on a Slim Fly, whose pairs mostly need paths one hop longer than their
 * distance. Sources run in parallel; each source's paths depend only on the
 * graph, so the result is the same for any thread count. */
#include "core/alloc.h"
#include "routing_internal.h"

#include <stdlib.h>
#include <string.h>

/* The adjacency bit matrix is used up to this many switches (32 MB). */
#define KSP_BITS_MAX 16384

typedef struct ksp_ctx {
    int32_t k;
    int64_t words;          /* per row of adj */
    uint64_t *adj;          /* bit v of row u: u ~ v; NULL when n > KSP_BITS_MAX */
} ksp_ctx;

typedef struct ksp_scratch {
    int32_t *seq;       /* the current prefix */
    int64_t *next;      /* per depth: the next CSR position to try */
    char *on_path;
} ksp_scratch;

/* At seq[depth] = u with two hops left: the paths …u, v, t for the common
 * neighbours v of u and t off the path, ascending, until `want` are found;
 * how many were added. */
static int32_t last_two(const ksp_ctx *c, int32_t t, int32_t depth, int32_t want, ksp_scratch *w,
                        route_buf *b)
{
    const uint64_t *ru = c->adj + (int64_t)w->seq[depth] * c->words;
    const uint64_t *rt = c->adj + (int64_t)t * c->words;
    int32_t found = 0;
    for (int64_t i = 0; i < c->words && found < want; i++)
        for (uint64_t m = ru[i] & rt[i]; m && found < want; m &= m - 1) {
            int32_t v = (int32_t)(i * 64 + __builtin_ctzll(m));
            if (w->on_path[v])
                continue;
            w->seq[depth + 1] = v;
            w->seq[depth + 2] = t;
            route_buf_add(b, w->seq, depth + 3, t);
            found++;
        }
    return found;
}

/* Lists the simple s→t paths of exactly L hops, in lexicographic order,
 * until `want` are found. Returns how many were added. */
static int32_t paths_of_length(const moore_graph *g, const moore_routing *r, const ksp_ctx *c,
                               int32_t s, int32_t t, int32_t L, int32_t want, ksp_scratch *w,
                               route_buf *b)
{
    const uint16_t *dt = r->dist + (int64_t)t * r->n;
    int32_t found = 0, depth = 0;
    w->seq[0] = s;
    w->next[0] = g->offs[s];
    w->on_path[s] = 1;
    while (depth >= 0 && found < want) {
        int32_t u = w->seq[depth];
        if (c->adj && depth + 2 == L && w->next[depth] == g->offs[u]) {
            found += last_two(c, t, depth, want - found, w, b);
            w->next[depth] = g->offs[u + 1]; /* u is done */
        }
        if (w->next[depth] == g->offs[u + 1]) {
            w->on_path[u] = 0;
            depth--;
            continue;
        }
        int32_t v = g->adj[w->next[depth]++];
        if (w->on_path[v] || depth + 1 + dt[v] > L)
            continue;
        if (v == t) {
            if (depth + 1 == L) {
                w->seq[depth + 1] = t;
                route_buf_add(b, w->seq, L + 1, t);
                found++;
            }
            continue;
        }
        depth++;
        w->seq[depth] = v;
        w->next[depth] = g->offs[v];
        w->on_path[v] = 1;
    }
    for (; depth >= 0; depth--)
        w->on_path[w->seq[depth]] = 0;
    return found;
}

static void ksp_source(void *vctx, const moore_graph *g, const moore_routing *r, int32_t s,
                       route_buf *b)
{
    const ksp_ctx *c = vctx;
    int32_t n = g->n;
    ksp_scratch w;
    w.seq = moore_malloc((size_t)n, sizeof *w.seq, NULL);
    w.next = moore_malloc((size_t)n, sizeof *w.next, NULL);
    w.on_path = moore_calloc((size_t)n, 1, NULL);
    if (!w.seq || !w.next || !w.on_path) {
        b->oom = 1;
        goto done;
    }
    for (int32_t t = 0; t < n && !b->oom; t++) {
        if (t == s)
            continue;
        int32_t have = 0;
        for (int32_t L = route_dist(r, s, t); L < n && have < c->k; L++)
            have += paths_of_length(g, r, c, s, t, L, c->k - have, &w, b);
    }
done:
    free(w.seq);
    free(w.next);
    free(w.on_path);
}

int route_ksp_build(const moore_graph *g, moore_routing *r, const moore_routing_options *o,
                    moore_error *err)
{
    /* Memory estimate: K paths of about (mean distance + 2) switches. */
    double mean = 0;
    int32_t n = g->n;
    for (int32_t v = 0; v < n; v++)
        mean += r->dist[v];
    mean /= n - 1;
    ksp_ctx c = { o->k, (n + 63) / 64, NULL };
    if (n <= KSP_BITS_MAX) {
        c.adj = moore_calloc((size_t)(n * c.words), sizeof *c.adj, err);
        if (!c.adj)
            return core_alloc_code(err);
        for (int32_t u = 0; u < n; u++)
            for (int64_t a = g->offs[u]; a < g->offs[u + 1]; a++)
                c.adj[u * c.words + g->adj[a] / 64] |= (uint64_t)1 << (g->adj[a] % 64);
    }
    int rc = route_explicit_build(g, r, o, ksp_source, &c,
                                  (double)o->k * (12.0 + 4.0 * (mean + 2)), "k shortest paths",
                                  err);
    free(c.adj);
    return rc;
}
