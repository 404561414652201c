/* valiant.c — Valiant routing: the minimal path s→i, then the minimal path
 * i→t, for intermediate switches i ∉ {s,t} — every such i (samples = 0) or S
 * distinct ones drawn per pair. The draw for pair (s,t) comes from its own
 * stream, split from the seed by the pair's index, so the path set is the
 * same for any thread count and any order of work. The two halves may share
 * switches (Valiant paths need not be simple); the flow and the channel
 * dependency graph count them as they are. UGAL's path set (ugal.c) is this
 * one with the minimal path put first. */
#include "routing_internal.h"

#include "moore/rng.h"

#include <stdlib.h>

typedef struct valiant_ctx {
    int32_t samples;
    uint64_t seed;
    int with_minimal;
} valiant_ctx;

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The intermediates of pair (s,t), ascending; returns their count. */
static int32_t pick_intermediates(const valiant_ctx *c, int32_t n, int32_t s, int32_t t,
                                  int32_t *mid)
{
    int32_t all = n - 2, m = 0;
    if (c->samples == 0 || c->samples >= all) {
        for (int32_t i = 0; i < n; i++)
            if (i != s && i != t)
                mid[m++] = i;
        return m;
    }
    moore_rng base, rng;
    moore_rng_seed(&base, c->seed);
    moore_rng_split(&base, (uint64_t)s * (uint64_t)n + (uint64_t)t, &rng);
    while (m < c->samples) {
        int32_t i = (int32_t)moore_rng_below(&rng, (uint64_t)n);
        int dup = i == s || i == t;
        for (int32_t j = 0; j < m && !dup; j++)
            dup = mid[j] == i;
        if (!dup)
            mid[m++] = i;
    }
    qsort(mid, (size_t)m, sizeof *mid, cmp_i32);
    return m;
}

static void valiant_source(void *vctx, const moore_graph *g, const moore_routing *r, int32_t s,
                           route_buf *b)
{
    const valiant_ctx *c = vctx;
    int32_t n = g->n;
    int32_t *mid = moore_malloc((size_t)n, sizeof *mid, NULL);
    int32_t *seq = moore_malloc((size_t)n * 2, sizeof *seq, NULL);
    if (!mid || !seq) {
        b->oom = 1;
        goto done;
    }
    for (int32_t t = 0; t < n && !b->oom; t++) {
        if (t == s)
            continue;
        if (c->with_minimal)
            route_buf_add(b, seq, route_minimal_path(g, r, s, t, seq), t);
        int32_t m = pick_intermediates(c, n, s, t, mid);
        for (int32_t j = 0; j < m; j++) {
            int32_t a = route_minimal_path(g, r, s, mid[j], seq);
            int32_t len = route_minimal_path(g, r, mid[j], t, seq + a - 1);
            route_buf_add(b, seq, a - 1 + len, t);
        }
    }
done:
    free(mid);
    free(seq);
}

int route_valiant_build(const moore_graph *g, moore_routing *r, const moore_routing_options *o,
                        int with_minimal, moore_error *err)
{
    int32_t n = g->n, diam = 0;
    for (int64_t i = 0; i < (int64_t)n * n; i++)
        diam = r->dist[i] > diam ? r->dist[i] : diam;
    double per_pair = (o->samples == 0 || o->samples >= n - 2) ? n - 2 : o->samples;
    per_pair += with_minimal;
    valiant_ctx c = { o->samples, o->seed, with_minimal };
    return route_explicit_build(g, r, o, valiant_source, &c,
                                per_pair * (12.0 + 4.0 * (2.0 * diam + 1)),
                                with_minimal ? "UGAL paths" : "Valiant paths", err);
}
