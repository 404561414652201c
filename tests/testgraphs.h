/* testgraphs.h — graphs with known answers, built here with moore_builder so
 * the analysis tests depend on no family module: tori, hypercubes, the k-ary
 * fat-tree (endpoints on edge switches only), the MMS / Slim Fly graph from
 * its GF(q) definition (docs/slimfly.md), random regular graphs by edge swaps,
 * and random relabellings. Header-only (static inline) because CMake links
 * each test with testutil.c alone. */
#ifndef MOORE_TESTGRAPHS_H
#define MOORE_TESTGRAPHS_H

#include "testutil.h"

#include <stdlib.h>

static inline moore_graph *tg_finish(moore_builder *b)
{
    moore_error err;
    moore_graph *g = NULL;
    if (moore_builder_finish(b, &g, &err)) {
        print_error("builder: %s\n", err.msg);
        fail();
    }
    return g;
}

static inline void tg_link(moore_builder *b, int32_t u, int32_t v)
{
    moore_error err;
    if (moore_builder_add_link(b, u, v, &err)) {
        print_error("link %d-%d: %s\n", (int)u, (int)v, err.msg);
        fail();
    }
}

/* Wrap-around torus a×b (no endpoints). */
static inline moore_graph *tg_torus2(int32_t a, int32_t b)
{
    moore_builder *bl;
    moore_error err;
    assert_int_equal(moore_builder_new(a * b, 2 * a * b, &bl, &err), MOORE_OK);
    for (int32_t x = 0; x < a; x++)
        for (int32_t y = 0; y < b; y++) {
            int32_t v = x * b + y;
            if (a > 2 || x == 0)
                tg_link(bl, v, ((x + 1) % a) * b + y);
            if (b > 2 || y == 0)
                tg_link(bl, v, x * b + (y + 1) % b);
        }
    return tg_finish(bl);
}

/* Hypercube Q_d: switches differing in one bit. */
static inline moore_graph *tg_hypercube(int d)
{
    moore_builder *bl;
    moore_error err;
    int32_t n = 1 << d;
    assert_int_equal(moore_builder_new(n, 0, &bl, &err), MOORE_OK);
    for (int32_t v = 0; v < n; v++)
        for (int i = 0; i < d; i++)
            if (!(v >> i & 1))
                tg_link(bl, v, v | 1 << i);
    return tg_finish(bl);
}

/* 3-level k-ary fat-tree: edge switches 0..k²/2−1 (k/2 endpoints each),
 * aggregation k²/2..k²−1, core k²..k²+k²/4−1. Edge (pod,i) ~ aggregation
 * (pod,j) for all i,j; aggregation (pod,j) ~ core (j,i) for all i. */
static inline moore_graph *tg_fattree(int32_t k)
{
    moore_builder *bl;
    moore_error err;
    int32_t h = k / 2, n = k * k + h * h;
    assert_int_equal(moore_builder_new(n, 0, &bl, &err), MOORE_OK);
    for (int32_t pod = 0; pod < k; pod++)
        for (int32_t j = 0; j < h; j++) {
            int32_t agg = k * k / 2 + pod * h + j;
            for (int32_t i = 0; i < h; i++) {
                tg_link(bl, pod * h + i, agg);
                tg_link(bl, agg, k * k + j * h + i);
            }
        }
    moore_graph *g = tg_finish(bl);
    int32_t *p = calloc((size_t)n, sizeof *p);
    for (int32_t v = 0; v < k * k / 2; v++)
        p[v] = h;
    assert_int_equal(moore_graph_set_endpoints(g, p, &err), MOORE_OK);
    free(p);
    return g;
}

/* MMS graph for a prime power q = 4w + δ (docs/slimfly.md), with GF(q) from
 * field.h: (0,x,y) = x·q + y, (1,m,c) = q² + m·q + c. */
static inline moore_graph *tg_mms(int32_t q)
{
    moore_gf *f;
    moore_error err;
    assert_int_equal(moore_gf_new(q, &f, &err), MOORE_OK);
    int delta = q % 4 == 1 ? 1 : q % 4 == 0 ? 0 : -1;
    int32_t w = (q - delta) / 4;
    char *inx = calloc((size_t)q, 1), *inx2 = calloc((size_t)q, 1);
    if (delta == 1)
        for (int32_t i = 0; i <= q - 3; i += 2)
            inx[moore_gf_pow_primitive(f, i)] = 1;
    else if (delta == 0)
        for (int32_t i = 0; i <= q - 2; i += 2)
            inx[moore_gf_pow_primitive(f, i)] = 1;
    else {
        for (int32_t i = 0; i <= 2 * w - 2; i += 2)
            inx[moore_gf_pow_primitive(f, i)] = 1;
        for (int32_t i = 2 * w - 1; i <= 4 * w - 3; i += 2)
            inx[moore_gf_pow_primitive(f, i)] = 1;
    }
    for (int32_t a = 0; a < q; a++)   /* X' = ξ·X */
        if (inx[a])
            inx2[moore_gf_mul(f, f->primitive, a)] = 1;
    moore_builder *bl;
    assert_int_equal(moore_builder_new(2 * q * q, 0, &bl, &err), MOORE_OK);
    for (int32_t x = 0; x < q; x++)
        for (int32_t y = 0; y < q; y++)
            for (int32_t y2 = y + 1; y2 < q; y2++) {
                int32_t diff = moore_gf_sub(f, y, y2);
                if (inx[diff])
                    tg_link(bl, x * q + y, x * q + y2);
                if (inx2[diff])
                    tg_link(bl, q * q + x * q + y, q * q + x * q + y2);
            }
    /* (0,x,y) ~ (1,m,c) iff y = m·x + c: one y for each (x,m,c). */
    for (int32_t x = 0; x < q; x++)
        for (int32_t m = 0; m < q; m++)
            for (int32_t c = 0; c < q; c++)
                tg_link(bl, x * q + moore_gf_add(f, moore_gf_mul(f, m, x), c),
                        q * q + m * q + c);
    free(inx);
    free(inx2);
    moore_gf_free(f);
    moore_graph *g = tg_finish(bl);
    assert_int_equal(moore_graph_set_endpoints_uniform(g, 1, &err), MOORE_OK);
    return g;
}

/* A random connected d-regular graph on n switches (n·d even, d < n):
 * a circulant relabelled and mixed by many random double-edge swaps, each
 * kept only when it leaves the graph simple. */
static inline moore_graph *tg_random_regular(int32_t n, int32_t d, uint64_t seed)
{
    moore_rng rng;
    moore_rng_seed(&rng, seed);
    int64_t m = (int64_t)n * d / 2;
    int32_t *eu = malloc((size_t)m * sizeof *eu), *ev = malloc((size_t)m * sizeof *ev);
    char *adj = calloc((size_t)n * n, 1);
    int64_t e = 0;
    for (int32_t v = 0; v < n; v++)
        for (int32_t s = 1; s <= d / 2; s++) {
            int32_t u = (v + s) % n;
            eu[e] = v;
            ev[e++] = u;
        }
    if (d % 2)
        for (int32_t v = 0; v < n / 2; v++) {
            eu[e] = v;
            ev[e++] = v + n / 2;
        }
    assert_int_equal(e, m);
    for (int64_t i = 0; i < m; i++)
        adj[(size_t)eu[i] * n + ev[i]] = adj[(size_t)ev[i] * n + eu[i]] = 1;
    for (int64_t it = 0; it < 20 * m; it++) {
        int64_t i = (int64_t)moore_rng_below(&rng, (uint64_t)m);
        int64_t j = (int64_t)moore_rng_below(&rng, (uint64_t)m);
        int32_t a = eu[i], b = ev[i], c = eu[j], dd = ev[j];
        if (moore_rng_below(&rng, 2)) {
            int32_t t = c;
            c = dd;
            dd = t;
        }
        /* a–b, c–d  →  a–c, b–d */
        if (a == c || b == dd || a == dd || b == c || adj[(size_t)a * n + c] ||
            adj[(size_t)b * n + dd])
            continue;
        adj[(size_t)a * n + b] = adj[(size_t)b * n + a] = 0;
        adj[(size_t)c * n + dd] = adj[(size_t)dd * n + c] = 0;
        adj[(size_t)a * n + c] = adj[(size_t)c * n + a] = 1;
        adj[(size_t)b * n + dd] = adj[(size_t)dd * n + b] = 1;
        eu[i] = a;
        ev[i] = c;
        eu[j] = b;
        ev[j] = dd;
    }
    moore_builder *bl;
    moore_error err;
    assert_int_equal(moore_builder_new(n, m, &bl, &err), MOORE_OK);
    for (int64_t i = 0; i < m; i++)
        tg_link(bl, eu[i], ev[i]);
    free(eu);
    free(ev);
    free(adj);
    moore_graph *g = tg_finish(bl);
    assert_int_equal(moore_graph_set_endpoints_uniform(g, 1, &err), MOORE_OK);
    return g;
}

/* g with switch v renamed perm[v] (perm a seeded random permutation, returned
 * through perm_out when not NULL; the caller frees it). Endpoints follow. */
static inline moore_graph *tg_relabel(const moore_graph *g, uint64_t seed, int32_t **perm_out)
{
    moore_rng rng;
    moore_rng_seed(&rng, seed);
    int32_t *perm = malloc((size_t)g->n * sizeof *perm);
    for (int32_t v = 0; v < g->n; v++)
        perm[v] = v;
    moore_rng_shuffle_i32(&rng, perm, g->n);
    moore_builder *bl;
    moore_error err;
    assert_int_equal(moore_builder_new(g->n, g->m, &bl, &err), MOORE_OK);
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            if (u < g->adj[k])
                tg_link(bl, perm[u], perm[g->adj[k]]);
    moore_graph *h = tg_finish(bl);
    int32_t *p = malloc((size_t)g->n * sizeof *p);
    for (int32_t v = 0; v < g->n; v++)
        p[perm[v]] = g->endpoints[v];
    assert_int_equal(moore_graph_set_endpoints(h, p, &err), MOORE_OK);
    free(p);
    if (perm_out)
        *perm_out = perm;
    else
        free(perm);
    return h;
}

/* The graph from an explicit link list (no endpoints). */
static inline moore_graph *tg_from_links(int32_t n, const int32_t (*links)[2], int64_t m)
{
    moore_builder *bl;
    moore_error err;
    assert_int_equal(moore_builder_new(n, m, &bl, &err), MOORE_OK);
    for (int64_t i = 0; i < m; i++)
        tg_link(bl, links[i][0], links[i][1]);
    return tg_finish(bl);
}

#endif
