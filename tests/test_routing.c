/* test_routing.c — routing (include/moore/routing.h) checked against
 * independent computations: next-hop sets against a BFS written here, the K
 * shortest simple paths against a brute-force enumeration of all simple
 * paths, every virtual layer's dependency graph against a separate DFS cycle
 * check (and the same layers on 1, 2 and 3 threads), routed throughput against the unrestricted LP and closed forms
 * (K_n, hypercube), and the path-restricted approximation against the exact
 * path LP on 20 seeded random graphs. */
#include "testgraphs.h"

#include "moore/routing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static moore_routing *route(const moore_graph *g, const char *algo)
{
    moore_routing_options o;
    moore_routing_options_default(&o);
    moore_error err;
    assert_int_equal(moore_routing_parse(algo, &o, &err), MOORE_OK);
    moore_routing *r = NULL;
    if (moore_routing_build(g, &o, &r, &err)) {
        print_error("%s: %s\n", algo, err.msg);
        fail();
    }
    return r;
}

/* Distances from s by a plain queue BFS. */
static void bfs(const moore_graph *g, int32_t s, int32_t *d)
{
    int32_t *q = malloc((size_t)g->n * sizeof *q), head = 0, tail = 0;
    for (int32_t v = 0; v < g->n; v++)
        d[v] = -1;
    d[s] = 0;
    q[tail++] = s;
    while (head < tail) {
        int32_t u = q[head++];
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            if (d[g->adj[k]] < 0) {
                d[g->adj[k]] = d[u] + 1;
                q[tail++] = g->adj[k];
            }
    }
    free(q);
}

static int32_t *all_distances(const moore_graph *g)
{
    int32_t *d = malloc((size_t)g->n * g->n * sizeof *d);
    for (int32_t s = 0; s < g->n; s++)
        bfs(g, s, d + (int64_t)s * g->n);
    return d;
}

/* The distance rows equal the BFS here: bit-parallel batches of 64 sources
 * (130 switches: a partial last batch) and one BFS per source (a 2×60 torus,
 * too long for the batches). */
static void test_distance_rows(void **state)
{
    (void)state;
    moore_graph *gs[2] = { tg_random_regular(130, 5, 7), tg_torus2(2, 60) };
    for (int i = 0; i < 2; i++) {
        moore_graph *g = gs[i];
        int32_t *d = all_distances(g);
        moore_routing *r = route(g, "ecmp");
        for (int64_t k = 0; k < (int64_t)g->n * g->n; k++)
            assert_int_equal(r->dist[k], d[k]);
        moore_routing_free(r);
        free(d);
        moore_graph_free(g);
    }
}

static void test_ecmp_is_bfs_definition(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        moore_graph *g = tg_random_regular(30, 4, seed);
        int32_t *d = all_distances(g), n = g->n;
        moore_routing *r = route(g, "ecmp"), *mr = route(g, "minimal");
        int32_t nh[8];
        double w[8];
        for (int32_t u = 0; u < n; u++)
            for (int32_t t = 0; t < n; t++) {
                if (u == t)
                    continue;
                int32_t c = moore_routing_next_hops(g, r, u, t, nh, w), want = 0;
                for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
                    int32_t v = g->adj[k];
                    if (d[(int64_t)v * n + t] == d[(int64_t)u * n + t] - 1)
                        assert_int_equal(nh[want++], v);
                }
                assert_int_equal(c, want);
                assert_true(fabs(w[0] - 1.0 / c) < 1e-12);
                /* minimal: a walk of exactly d(u,t) links */
                int32_t at = u, hops = 0;
                while (at != t) {
                    assert_int_equal(moore_routing_next_hops(g, mr, at, t, nh, NULL), 1);
                    assert_true(moore_graph_has_link(g, at, nh[0]));
                    at = nh[0];
                    hops++;
                }
                assert_int_equal(hops, d[(int64_t)u * n + t]);
            }
        free(d);
        moore_routing_free(r);
        moore_routing_free(mr);
        moore_graph_free(g);
    }
}

/* Brute force: lengths of every simple s→t path. */
static void simple_paths(const moore_graph *g, int32_t u, int32_t t, int32_t len, char *on,
                         int32_t *lens, int32_t *count)
{
    if (u == t) {
        lens[(*count)++] = len;
        return;
    }
    on[u] = 1;
    for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
        if (!on[g->adj[k]])
            simple_paths(g, g->adj[k], t, len + 1, on, lens, count);
    on[u] = 0;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int32_t *)a - *(const int32_t *)b;
}

static void check_ksp(const moore_graph *g, int32_t K)
{
    char algo[32];
    snprintf(algo, sizeof algo, "ksp:k=%d", (int)K);
    moore_routing *r = route(g, algo);
    int32_t n = g->n, *lens = malloc(((size_t)1 << 20) * sizeof *lens), count;
    char *on = calloc((size_t)n, 1);
    for (int32_t s = 0; s < n; s++)
        for (int32_t t = 0; t < n; t++) {
            if (s == t)
                continue;
            count = 0;
            simple_paths(g, s, t, 0, on, lens, &count);
            qsort(lens, (size_t)count, sizeof *lens, cmp_int);
            int64_t p0 = r->pair_offs[(int64_t)s * n + t], p1 = r->pair_offs[(int64_t)s * n + t + 1];
            int32_t want = count < K ? count : K;
            assert_int_equal(p1 - p0, want);
            for (int64_t p = p0; p < p1; p++) {
                const int32_t *h = r->hops + r->path_offs[p];
                int64_t hl = r->path_offs[p + 1] - r->path_offs[p];
                assert_int_equal(hl - 1, lens[p - p0]); /* the same multiset, in order */
                assert_int_equal(h[0], s);
                assert_int_equal(h[hl - 1], t);
                for (int64_t i = 0; i + 1 < hl; i++) {
                    assert_true(moore_graph_has_link(g, h[i], h[i + 1]));
                    for (int64_t j = i + 1; j < hl; j++)
                        assert_int_not_equal(h[i], h[j]); /* simple */
                }
                for (int64_t q = p0; q < p; q++) { /* distinct */
                    int64_t ql = r->path_offs[q + 1] - r->path_offs[q];
                    assert_false(ql == hl && memcmp(r->hops + r->path_offs[q], h,
                                                    (size_t)hl * sizeof *h) == 0);
                }
            }
        }
    free(lens);
    free(on);
    moore_routing_free(r);
}

static void test_ksp_matches_brute_force(void **state)
{
    (void)state;
    moore_graph *p = tu_build("petersen");
    check_ksp(p, 8);
    check_ksp(p, 3);
    moore_graph_free(p);
    moore_graph *g = tg_random_regular(10, 3, 5);
    check_ksp(g, 8);
    moore_graph_free(g);
    moore_graph *t = tg_torus2(3, 3);
    check_ksp(t, 5);
    moore_graph_free(t);
    /* a path graph has one simple path per pair: fewer than K */
    const int32_t links[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 } };
    moore_graph *line = tg_from_links(4, links, 3);
    check_ksp(line, 4);
    moore_graph_free(line);
}

/* ---- deadlock freedom, checked by an independent DFS ---- */

typedef struct dep_graph {
    int64_t arcs;
    char *adj;  /* arcs × arcs */
} dep_graph;

static int64_t arc_of(const moore_graph *g, int32_t u, int32_t v)
{
    for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
        if (g->adj[k] == v)
            return k;
    fail();
    return -1;
}

static void add_path(const moore_graph *g, dep_graph *d, const int32_t *h, int64_t len)
{
    for (int64_t i = 0; i + 2 < len; i++)
        d->adj[arc_of(g, h[i], h[i + 1]) * d->arcs + arc_of(g, h[i + 1], h[i + 2])] = 1;
}

static int dfs_cycle(const dep_graph *d, int64_t a, char *color)
{
    color[a] = 1;
    for (int64_t b = 0; b < d->arcs; b++)
        if (d->adj[a * d->arcs + b]) {
            if (color[b] == 1 || (color[b] == 0 && dfs_cycle(d, b, color)))
                return 1;
        }
    color[a] = 2;
    return 0;
}

static int has_cycle(const dep_graph *d)
{
    char *color = calloc((size_t)d->arcs, 1);
    int c = 0;
    for (int64_t a = 0; a < d->arcs && !c; a++)
        if (!color[a])
            c = dfs_cycle(d, a, color);
    free(color);
    return c;
}

/* Every ECMP path toward t (depth-first). */
static void ecmp_all(const moore_graph *g, const int32_t *dist, int32_t t, int32_t *seq,
                     int32_t depth, dep_graph *d)
{
    int32_t u = seq[depth], n = g->n;
    if (u == t) {
        add_path(g, d, seq, depth + 1);
        return;
    }
    for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
        if (dist[(int64_t)g->adj[k] * n + t] == dist[(int64_t)u * n + t] - 1) {
            seq[depth + 1] = g->adj[k];
            ecmp_all(g, dist, t, seq, depth + 1, d);
        }
}

/* Rebuilds each layer's dependency graph from the paths and checks it. */
static void check_layers(const moore_graph *g, const char *algo, int32_t *layers_out,
                         int *acyclic_out)
{
    moore_routing *r = route(g, algo);
    moore_deadlock_result dl;
    moore_error err;
    assert_int_equal(moore_routing_deadlock(g, r, NULL, &dl, &err), MOORE_OK);
    dep_graph all = { 2 * g->m, calloc((size_t)(4 * g->m * g->m), 1) };
    int32_t *dist = all_distances(g), *seq = malloc((size_t)g->n * 2 * sizeof *seq);
    for (int32_t L = 0; L < dl.layers; L++) {
        dep_graph d = { 2 * g->m, calloc((size_t)(4 * g->m * g->m), 1) };
        int64_t used = 0;
        for (int64_t u = 0; u < dl.units; u++) {
            if (dl.layer[u] != L)
                continue;
            used++;
            if (r->pair_offs) {
                add_path(g, &d, r->hops + r->path_offs[u], r->path_offs[u + 1] - r->path_offs[u]);
                add_path(g, &all, r->hops + r->path_offs[u],
                         r->path_offs[u + 1] - r->path_offs[u]);
            } else {
                for (int32_t s = 0; s < g->n; s++) {
                    if (s == (int32_t)u)
                        continue;
                    seq[0] = s;
                    if (r->algo == MOORE_ROUTE_ECMP) {
                        ecmp_all(g, dist, (int32_t)u, seq, 0, &d);
                        ecmp_all(g, dist, (int32_t)u, seq, 0, &all);
                    } else {
                        int32_t len = 1;
                        while (seq[len - 1] != (int32_t)u) {
                            moore_routing_next_hops(g, r, seq[len - 1], (int32_t)u, &seq[len],
                                                    NULL);
                            len++;
                        }
                        add_path(g, &d, seq, len);
                        add_path(g, &all, seq, len);
                    }
                }
            }
        }
        assert_true(used > 0);
        assert_false(has_cycle(&d));
        free(d.adj);
    }
    assert_int_equal(dl.cdg_acyclic, !has_cycle(&all));
    *layers_out = dl.layers;
    *acyclic_out = dl.cdg_acyclic;
    free(all.adj);
    free(dist);
    free(seq);
    moore_deadlock_result_clear(&dl);
    moore_routing_free(r);
}

static void test_layers_acyclic(void **state)
{
    (void)state;
    int32_t layers;
    int acyclic;
    int32_t ring[8][2];
    for (int i = 0; i < 8; i++) {
        ring[i][0] = i;
        ring[i][1] = (i + 1) % 8;
    }
    moore_graph *c8 = tg_from_links(8, (const int32_t(*)[2])ring, 8);
    check_layers(c8, "minimal", &layers, &acyclic);
    assert_false(acyclic);
    assert_int_equal(layers, 2);
    moore_graph_free(c8);
    const char *algos[] = { "minimal", "ecmp", "ksp:k=4", "valiant:samples=3", "ugal:samples=2" };
    moore_graph *p = tu_build("petersen");
    moore_graph *g = tg_random_regular(12, 3, 2);
    for (int i = 0; i < 5; i++) {
        check_layers(p, algos[i], &layers, &acyclic);
        assert_true(layers >= 1);
        check_layers(g, algos[i], &layers, &acyclic);
    }
    /* a tree's routes cannot form a cycle */
    const int32_t star[][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 3, 4 } };
    moore_graph *t = tg_from_links(5, star, 4);
    check_layers(t, "ecmp", &layers, &acyclic);
    assert_true(acyclic);
    assert_int_equal(layers, 1);
    moore_graph_free(t);
    moore_graph_free(p);
    moore_graph_free(g);
}

/* Whether path u's traffic counts (docs/routing.md): both ends have
 * servers, or the graph has none. */
static int path_counts(const moore_graph *g, const moore_routing *r, int64_t u)
{
    int32_t s = r->hops[r->path_offs[u]], t = r->hops[r->path_offs[u + 1] - 1];
    return moore_graph_endpoints_total(g) == 0 || (g->endpoints[s] > 0 && g->endpoints[t] > 0);
}

/* The greedy rule, replayed with a plain DFS: every path is in the first
 * layer whose dependencies so far, with the path's added, stay acyclic
 * (whatever search and order the library keeps inside). */
static void check_greedy(const moore_graph *g, const char *algo)
{
    moore_routing *r = route(g, algo);
    moore_deadlock_result dl;
    moore_error err;
    assert_int_equal(moore_routing_deadlock(g, r, NULL, &dl, &err), MOORE_OK);
    int64_t arcs = 2 * g->m;
    size_t bytes = (size_t)(arcs * arcs);
    dep_graph *d = calloc((size_t)dl.layers, sizeof *d);
    dep_graph trial = { arcs, malloc(bytes) };
    for (int32_t j = 0; j < dl.layers; j++)
        d[j] = (dep_graph){ arcs, calloc(bytes, 1) };
    for (int64_t u = 0; u < dl.units; u++) {
        const int32_t *h = r->hops + r->path_offs[u];
        int64_t len = r->path_offs[u + 1] - r->path_offs[u];
        int32_t L = dl.layer[u];
        assert_true(L >= 0 && L < dl.layers);
        if (!path_counts(g, r, u)) {
            assert_int_equal(L, 0); /* no dependencies: the first layer takes it */
            continue;
        }
        for (int32_t j = 0; j <= L; j++) {
            memcpy(trial.adj, d[j].adj, bytes);
            add_path(g, &trial, h, len);
            assert_int_equal(has_cycle(&trial), j < L);
        }
        add_path(g, &d[L], h, len);
    }
    for (int32_t j = 0; j < dl.layers; j++)
        free(d[j].adj);
    free(d);
    free(trial.adj);
    moore_deadlock_result_clear(&dl);
    moore_routing_free(r);
}

static void test_layers_greedy(void **state)
{
    (void)state;
    /* Petersen's shortest cycles have five links; K5's and the 3×3 torus's
     * three and four: every length the short-cycle check handles, and the
     * longer ones left to the searches */
    moore_graph *gs[] = { tu_build("petersen"), tg_random_regular(16, 4, 3),
                          tu_build("complete:n=5"), tu_build("torus:dims=3x3") };
    const char *algos[] = { "ksp:k=4", "valiant:samples=3", "ugal:samples=2" };
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 4; k++)
            check_greedy(gs[k], algos[i]);
    for (int k = 0; k < 4; k++)
        moore_graph_free(gs[k]);
}

/* Runs the layering of r on `threads` threads. */
static void layers_on(const moore_graph *g, const moore_routing *r, int threads,
                      moore_deadlock_result *d)
{
    moore_routing_options o;
    moore_routing_options_default(&o);
    o.threads = threads;
    moore_error err;
    assert_int_equal(moore_routing_deadlock(g, r, &o, d, &err), MOORE_OK);
}

/* moore_routing_run's tables file (with the tables' own layering) on
 * `threads` threads, read back. */
static char *tables_on(const moore_graph *g, const char *algo, int threads, size_t *len)
{
    char path[] = "/tmp/moore_test_routing_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    moore_routing_options o;
    moore_routing_options_default(&o);
    moore_error err;
    assert_int_equal(moore_routing_parse(algo, &o, &err), MOORE_OK);
    o.threads = threads;
    moore_report rep;
    moore_report_init(&rep);
    assert_int_equal(moore_routing_run(g, &o, 1, NULL, 0, path, &rep, NULL, &err), MOORE_OK);
    moore_report_clear(&rep);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = malloc(1 << 20);
    *len = fread(buf, 1, 1 << 20, f);
    assert_true(*len > 0 && *len < (1 << 20));
    fclose(f);
    remove(path);
    return buf;
}

/* The layering runs its layers as a pipeline on every thread; the layer of
 * every unit must be the one thread's, for paths (more than one block of
 * 8,192), destinations and the tables' destinations alike, and each layer
 * acyclic by the DFS of check_layers (run on the default thread count). */
static void test_layers_any_threads(void **state)
{
    (void)state;
    const char *algos[] = { "ecmp", "minimal", "ksp:k=4", "valiant:samples=4" };
    moore_graph *gs[2] = { tu_build("slimfly:q=5"), tg_random_regular(24, 4, 5) };
    for (int gi = 0; gi < 2; gi++)
        for (int i = 0; i < 4; i++) {
            moore_routing *r = route(gs[gi], algos[i]);
            moore_deadlock_result d[3];
            for (int t = 0; t < 3; t++)
                layers_on(gs[gi], r, t + 1, &d[t]);
            for (int t = 1; t < 3; t++) {
                assert_int_equal(d[t].layers, d[0].layers);
                assert_int_equal(d[t].units, d[0].units);
                assert_int_equal(d[t].cdg_acyclic, d[0].cdg_acyclic);
                assert_int_equal(d[t].dependencies, d[0].dependencies);
                assert_memory_equal(d[t].layer, d[0].layer, (size_t)d[0].units * sizeof(int32_t));
            }
            if (gi == 0 && r->pair_offs)
                assert_true(d[0].units > 8192);
            for (int t = 0; t < 3; t++)
                moore_deadlock_result_clear(&d[t]);
            moore_routing_free(r);
            int32_t layers;
            int acyclic;
            check_layers(gs[gi], algos[i], &layers, &acyclic);
            size_t n1, n2;
            char *t1 = tables_on(gs[gi], algos[i], 1, &n1), *t2 = tables_on(gs[gi], algos[i], 2, &n2);
            assert_int_equal(n1, n2);
            assert_memory_equal(t1, t2, n1);
            free(t1);
            free(t2);
        }
    moore_graph_free(gs[0]);
    moore_graph_free(gs[1]);
}

/* ---- throughput ---- */

static double theta(const moore_graph *g, const moore_traffic *t, const char *algo, int exact,
                    double eps, double *upper)
{
    moore_flow_options o;
    moore_flow_options_default(&o);
    o.eps = eps;
    moore_flow_result f;
    moore_error err;
    int rc = strcmp(algo, "optimal") == 0 ? moore_flow_exact(g, t, &o, &f, &err)
                                           : moore_routed_throughput_spec(g, algo, t, &o, exact,
                                                                          &f, &err);
    if (rc) {
        print_error("%s: %s\n", algo, err.msg);
        fail();
    }
    if (upper)
        *upper = f.upper;
    assert_true(f.lower <= f.upper * (1 + 1e-9));
    return f.throughput;
}

static void test_closed_forms(void **state)
{
    (void)state;
    moore_error err;
    moore_traffic *t;
    /* K_n, one server per switch, uniform: direct links carry 1/(n-1) each,
     * θ = n − 1 for any routing that has the direct path; Valiant's two-hop
     * paths put 2·n demand on n(n−1) arcs: θ = (n − 1)/2. */
    moore_graph *k = tu_build("complete:n=7");
    assert_int_equal(moore_traffic_uniform(k, &t, &err), MOORE_OK);
    double sum = 0;
    for (int64_t i = 0; i < t->offs[k->n]; i++)
        sum += t->demand[i];
    assert_true(fabs(sum - 7.0) < 1e-9);
    assert_true(fabs(theta(k, t, "ecmp", 0, 0, NULL) - 6.0) < 1e-9);
    assert_true(fabs(theta(k, t, "minimal", 0, 0, NULL) - 6.0) < 1e-9);
    assert_true(fabs(theta(k, t, "ksp:k=3", 1, 0, NULL) - 6.0) < 1e-6);
    assert_true(fabs(theta(k, t, "valiant:samples=0", 1, 0, NULL) - 3.0) < 1e-6);
    moore_traffic_free(t);
    moore_graph_free(k);
    /* Hypercube Q_4 (N = 16), uniform: every arc carries the same ECMP load
     * N·(d·N/2)/(N−1) / (N·d), so θ = 2(N−1)/N = TUB = the optimum. */
    moore_graph *q = tg_hypercube(4);
    assert_int_equal(moore_traffic_uniform(q, &t, &err), MOORE_OK);
    assert_true(fabs(theta(q, t, "ecmp", 0, 0, NULL) - 30.0 / 16.0) < 1e-9);
    assert_true(fabs(theta(q, t, "optimal", 1, 0, NULL) - 30.0 / 16.0) < 1e-6);
    moore_traffic_free(t);
    moore_graph_free(q);
}

static void test_routed_below_optimal(void **state)
{
    (void)state;
    moore_error err;
    const char *algos[] = { "ecmp", "minimal", "ksp:k=4", "valiant:samples=4", "ugal:samples=2" };
    for (uint64_t seed = 1; seed <= 2; seed++) {
        moore_graph *g = tg_random_regular(14, 3, seed);
        for (int tm = 0; tm < 2; tm++) {
            moore_traffic *t;
            assert_int_equal(moore_traffic_make(g, tm ? "permutation" : "uniform", seed, &t, &err),
                             MOORE_OK);
            double opt = theta(g, t, "optimal", 1, 0, NULL);
            for (int i = 0; i < 5; i++) {
                double up;
                assert_true(theta(g, t, algos[i], 1, 0, NULL) <= opt * (1 + 1e-6));
                assert_true(theta(g, t, algos[i], 0, 0.05, &up) <= opt * (1 + 1e-6));
            }
            /* UGAL's set contains the minimal path: at least minimal's θ */
            assert_true(theta(g, t, "ugal:samples=2", 1, 0, NULL) >=
                        theta(g, t, "minimal", 0, 0, NULL) * (1 - 1e-6));
            moore_traffic_free(t);
        }
        moore_graph_free(g);
    }
}

static void test_lp_and_approximation_bracket(void **state)
{
    (void)state;
    moore_error err;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        moore_graph *g = tg_random_regular(10 + 2 * (int32_t)(seed % 3), 3, seed);
        moore_traffic *t;
        assert_int_equal(moore_traffic_uniform(g, &t, &err), MOORE_OK);
        const char *algo = seed % 2 ? "ksp:k=3" : "valiant:samples=3";
        double exact = theta(g, t, algo, 1, 0, NULL), upper;
        double lower = theta(g, t, algo, 0, 0.05, &upper);
        assert_true(lower <= exact * (1 + 1e-6));
        assert_true(upper >= exact * (1 - 1e-6));
        assert_true(upper <= 1.05 * lower * (1 + 1e-9));
        moore_traffic_free(t);
        moore_graph_free(g);
    }
}

/* ---- bad input and determinism ---- */

static void test_bad_input(void **state)
{
    (void)state;
    moore_routing_options o;
    moore_error err;
    const char *bad[] = { "ksp:k=0", "ksp:k=-3", "ksp:k=100000", "ksp:k=x", "magic", "ecmp:k=2",
                          "valiant:samples=-1", "ksp:q=1", "" };
    for (int i = 0; i < 9; i++) {
        moore_routing_options_default(&o);
        assert_int_equal(moore_routing_parse(bad[i], &o, &err), MOORE_EINVAL);
        assert_true(strlen(err.msg) > 0);
    }
    const int32_t links[][2] = { { 0, 1 }, { 2, 3 } };
    moore_graph *g = tg_from_links(4, links, 2);
    moore_routing *r = NULL;
    moore_routing_options_default(&o);
    assert_int_equal(moore_routing_build(g, &o, &r, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "no path from switch 0 to switch 2"));
    assert_null(r);
    moore_graph_free(g);
    /* 200,000 switches: 80 GB of distance rows, refused before allocating */
    moore_builder *b;
    int32_t n = 200000;
    assert_int_equal(moore_builder_new(n, n, &b, &err), MOORE_OK);
    for (int32_t v = 0; v + 1 < n; v++)
        tg_link(b, v, v + 1);
    moore_graph *big = tg_finish(b);
    assert_int_equal(moore_routing_build(big, &o, &r, &err), MOORE_ETOOBIG);
    assert_null(r);
    moore_graph_free(big);
}

static void test_same_paths_any_threads(void **state)
{
    (void)state;
    moore_graph *g = tg_random_regular(24, 4, 9);
    moore_routing *r[2];
    for (int i = 0; i < 2; i++) {
        moore_routing_options o;
        moore_routing_options_default(&o);
        moore_error err;
        assert_int_equal(moore_routing_parse("ugal:samples=3,seed=4", &o, &err), MOORE_OK);
        o.threads = i ? 3 : 1;
        assert_int_equal(moore_routing_build(g, &o, &r[i], &err), MOORE_OK);
    }
    assert_int_equal(r[0]->paths, r[1]->paths);
    assert_memory_equal(r[0]->hops, r[1]->hops,
                        (size_t)r[0]->path_offs[r[0]->paths] * sizeof *r[0]->hops);
    moore_routing_free(r[0]);
    moore_routing_free(r[1]);
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance_rows),
        cmocka_unit_test(test_ecmp_is_bfs_definition),
        cmocka_unit_test(test_ksp_matches_brute_force),
        cmocka_unit_test(test_layers_acyclic),
        cmocka_unit_test(test_layers_any_threads),
        cmocka_unit_test(test_layers_greedy),
        cmocka_unit_test(test_closed_forms),
        cmocka_unit_test(test_routed_below_optimal),
        cmocka_unit_test(test_lp_and_approximation_bracket),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_same_paths_any_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
