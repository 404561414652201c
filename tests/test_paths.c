/* test_paths.c — the distance metrics of paths.h against closed forms (cycles,
 * paths, complete graphs, tori, grids, hypercubes), known graphs (Petersen,
 * Hoffman–Singleton) and an independent naive BFS written here, on seeded
 * random graphs of sizes on and off the 64-source batch boundaries. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* |a − b| within eps relative to b (cmocka only compares floats). */
#define assert_near(a, b, eps) assert_near_((a), (b), (eps), #a, __FILE__, __LINE__)
static void assert_near_(double a, double b, double eps, const char *what, const char *file,
                         int line)
{
    if (!(fabs(a - b) <= eps * (1.0 + fabs(b)))) {
        print_error("%s:%d: %s = %.17g, expected %.17g\n", file, line, what, a, b);
        fail();
    }
}

/* ---- building test graphs with moore_builder ---- */

typedef struct edges {
    int32_t n;
    int64_t count, cap;
    int32_t (*e)[2];
} edges;

static void edges_init(edges *E, int32_t n)
{
    E->n = n;
    E->count = 0;
    E->cap = 16;
    E->e = malloc((size_t)E->cap * sizeof *E->e);
    assert_non_null(E->e);
}

static void edges_add(edges *E, int32_t u, int32_t v)
{
    if (E->count == E->cap) {
        E->cap *= 2;
        E->e = realloc(E->e, (size_t)E->cap * sizeof *E->e);
        assert_non_null(E->e);
    }
    E->e[E->count][0] = u;
    E->e[E->count][1] = v;
    E->count++;
}

static moore_graph *edges_finish(edges *E)
{
    moore_builder *b;
    moore_error err;
    moore_graph *g;
    assert_int_equal(moore_builder_new(E->n, E->count, &b, &err), MOORE_OK);
    for (int64_t k = 0; k < E->count; k++)
        assert_int_equal(moore_builder_add_link(b, E->e[k][0], E->e[k][1], &err), MOORE_OK);
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_OK);
    free(E->e);
    return g;
}

static moore_graph *cycle(int32_t n)
{
    edges E;
    edges_init(&E, n);
    for (int32_t i = 0; i < n; i++)
        edges_add(&E, i, (i + 1) % n);
    return edges_finish(&E);
}

static moore_graph *path(int32_t n)
{
    edges E;
    edges_init(&E, n);
    for (int32_t i = 0; i + 1 < n; i++)
        edges_add(&E, i, i + 1);
    return edges_finish(&E);
}

static moore_graph *complete(int32_t n)
{
    edges E;
    edges_init(&E, n);
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++)
            edges_add(&E, i, j);
    return edges_finish(&E);
}

/* a × b grid, with wrap-around links when torus (a, b >= 3). */
static moore_graph *grid(int32_t a, int32_t b, int torus)
{
    edges E;
    edges_init(&E, a * b);
    for (int32_t x = 0; x < a; x++)
        for (int32_t y = 0; y < b; y++) {
            int32_t v = x * b + y;
            if (x + 1 < a || torus)
                edges_add(&E, v, ((x + 1) % a) * b + y);
            if (y + 1 < b || torus)
                edges_add(&E, v, x * b + (y + 1) % b);
        }
    return edges_finish(&E);
}

static moore_graph *hypercube(int d)
{
    int32_t n = 1 << d;
    edges E;
    edges_init(&E, n);
    for (int32_t v = 0; v < n; v++)
        for (int i = 0; i < d; i++)
            if (!(v & (1 << i)))
                edges_add(&E, v, v | (1 << i));
    return edges_finish(&E);
}

/* A seeded random connected graph: a random spanning tree (each vertex links
 * to an earlier one, near or far) plus `extra` random chords. */
static moore_graph *random_connected(int32_t n, int64_t extra, uint64_t seed)
{
    moore_rng r;
    moore_rng_seed(&r, seed);
    edges E;
    edges_init(&E, n);
    char *has = calloc((size_t)n * (size_t)n, 1);
    assert_non_null(has);
    for (int32_t v = 1; v < n; v++) {
        /* half the time a near parent, so diameters vary from small to long */
        int32_t span = moore_rng_below(&r, 2) ? v : (v < 4 ? v : 4);
        int32_t u = v - 1 - (int32_t)moore_rng_below(&r, (uint64_t)span);
        has[(size_t)u * n + v] = has[(size_t)v * n + u] = 1;
        edges_add(&E, u, v);
    }
    for (int64_t k = 0; k < extra && n > 2; k++) {
        int32_t u = (int32_t)moore_rng_below(&r, (uint64_t)n);
        int32_t v = (int32_t)moore_rng_below(&r, (uint64_t)n);
        if (u == v || has[(size_t)u * n + v])
            continue;
        has[(size_t)u * n + v] = has[(size_t)v * n + u] = 1;
        edges_add(&E, u, v);
    }
    free(has);
    return edges_finish(&E);
}

/* ---- an independent naive reference ---- */

typedef struct naive {
    int32_t diameter; /* -1 when disconnected */
    double apl;
    int64_t *hist;    /* n entries */
} naive;

static naive naive_paths(const moore_graph *g)
{
    int32_t n = g->n;
    naive r = { 0, 0.0, calloc((size_t)(n ? n : 1), sizeof(int64_t)) };
    int32_t *dist = malloc((size_t)(n ? n : 1) * sizeof *dist);
    int32_t *q = malloc((size_t)(n ? n : 1) * sizeof *q);
    assert_true(r.hist && dist && q);
    int64_t sum = 0, pairs = 0;
    for (int32_t s = 0; s < n; s++) {
        for (int32_t v = 0; v < n; v++)
            dist[v] = -1;
        int32_t head = 0, tail = 0;
        dist[s] = 0;
        q[tail++] = s;
        while (head < tail) {
            int32_t u = q[head++];
            for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
                if (dist[g->adj[k]] < 0) {
                    dist[g->adj[k]] = dist[u] + 1;
                    q[tail++] = g->adj[k];
                }
        }
        for (int32_t v = 0; v < n; v++) {
            if (dist[v] < 0) {
                r.diameter = -1;
                continue;
            }
            r.hist[dist[v]]++;
            if (v != s) {
                sum += dist[v];
                pairs++;
            }
            if (r.diameter >= 0 && dist[v] > r.diameter)
                r.diameter = dist[v];
        }
    }
    r.apl = r.diameter < 0 ? NAN : pairs ? (double)sum / (double)pairs : 0.0;
    free(dist);
    free(q);
    return r;
}

/* Girth by definition: the shortest cycle through link u–v is 1 + the
 * distance from u to v without that link; the girth is the least over links. */
static int32_t naive_girth(const moore_graph *g)
{
    int32_t n = g->n, best = 0;
    int32_t *dist = malloc((size_t)(n ? n : 1) * sizeof *dist);
    int32_t *q = malloc((size_t)(n ? n : 1) * sizeof *q);
    for (int32_t a = 0; a < n; a++)
        for (int64_t ka = g->offs[a]; ka < g->offs[a + 1]; ka++) {
            int32_t b = g->adj[ka];
            if (b < a)
                continue;
            for (int32_t v = 0; v < n; v++)
                dist[v] = -1;
            int32_t head = 0, tail = 0;
            dist[a] = 0;
            q[tail++] = a;
            while (head < tail && dist[b] < 0) {
                int32_t u = q[head++];
                for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
                    int32_t w = g->adj[k];
                    if ((u == a && w == b) || dist[w] >= 0)
                        continue;
                    dist[w] = dist[u] + 1;
                    q[tail++] = w;
                }
            }
            if (dist[b] > 0 && (best == 0 || dist[b] + 1 < best))
                best = dist[b] + 1;
        }
    free(dist);
    free(q);
    return best;
}

static moore_paths_result compute(const moore_graph *g, int threads)
{
    moore_metric_options o;
    moore_metric_options_default(&o);
    o.threads = threads;
    moore_paths_result p;
    moore_error err;
    moore_error_clear(&err);
    int rc = moore_paths_compute(g, &o, &p, &err);
    if (rc != MOORE_OK) {
        print_error("moore_paths_compute: %s\n", err.msg);
        fail();
    }
    return p;
}

static int32_t girth_of(const moore_graph *g)
{
    int32_t girth = -7;
    moore_error err;
    assert_int_equal(moore_girth(g, &girth, &err), MOORE_OK);
    return girth;
}

/* Checks the bit-parallel result against the naive one, with 1 and 2 threads. */
static void check_against_naive(const moore_graph *g)
{
    naive ref = naive_paths(g);
    for (int threads = 1; threads <= 2; threads++) {
        moore_paths_result p = compute(g, threads);
        if (ref.diameter < 0) {
            assert_int_equal(p.connected, 0);
            assert_int_equal(p.diameter, -1);
            assert_true(isnan(p.avg_path_length));
            assert_int_equal(p.histogram_len, 0);
        } else {
            assert_int_equal(p.connected, 1);
            assert_int_equal(p.components, g->n > 0);
            assert_int_equal(p.diameter, ref.diameter);
            assert_int_equal(p.histogram_len, ref.diameter + 1);
            for (int32_t d = 0; d <= ref.diameter; d++)
                assert_int_equal(p.histogram[d], ref.hist[d]);
            assert_near(p.avg_path_length, ref.apl, 1e-12);
        }
        moore_paths_result_clear(&p);
    }
    free(ref.hist);
}

/* ---- tests ---- */

static void random_graphs_match_naive_bfs(void **state)
{
    (void)state;
    /* sizes below, on and around 64 and 256 (one batch), and several batches */
    const int32_t sizes[] = { 3, 5, 63, 64, 65, 127, 128, 255, 256, 257, 300, 511, 700, 1025 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            int32_t n = sizes[i];
            /* sparse (long paths, mostly push levels) to dense (short, pull) */
            int64_t extra = seed == 1 ? n / 10 : seed == 2 ? n : 8 * (int64_t)n;
            moore_graph *g = random_connected(n, extra, 1000 * (uint64_t)n + seed);
            check_against_naive(g);
            assert_int_equal(girth_of(g), naive_girth(g));
            moore_graph_free(g);
        }
}

static void disconnected_graphs_are_reported(void **state)
{
    (void)state;
    /* two random components, each connected */
    moore_graph *a = random_connected(150, 300, 7), *b = random_connected(170, 40, 8);
    edges E;
    edges_init(&E, a->n + b->n + 1); /* plus one isolated switch */
    for (int32_t u = 0; u < a->n; u++)
        for (int64_t k = a->offs[u]; k < a->offs[u + 1]; k++)
            if (a->adj[k] > u)
                edges_add(&E, u, a->adj[k]);
    for (int32_t u = 0; u < b->n; u++)
        for (int64_t k = b->offs[u]; k < b->offs[u + 1]; k++)
            if (b->adj[k] > u)
                edges_add(&E, a->n + u, a->n + b->adj[k]);
    moore_graph *g = edges_finish(&E);
    moore_paths_result p = compute(g, 2);
    assert_int_equal(p.connected, 0);
    assert_int_equal(p.components, 3);
    assert_int_equal(p.diameter, -1);
    assert_true(isnan(p.avg_path_length));
    assert_null(p.histogram);
    assert_int_equal(p.histogram_len, 0);
    moore_paths_result_clear(&p);
    check_against_naive(g);
    moore_graph_free(a);
    moore_graph_free(b);
    moore_graph_free(g);

    /* two switches, no link */
    edges_init(&E, 2);
    g = edges_finish(&E);
    p = compute(g, 0);
    assert_int_equal(p.connected, 0);
    assert_int_equal(p.components, 2);
    assert_int_equal(p.diameter, -1);
    assert_true(isnan(p.avg_path_length));
    moore_paths_result_clear(&p);
    moore_graph_free(g);
}

static void tiny_graphs(void **state)
{
    (void)state;
    edges E;
    edges_init(&E, 1);
    moore_graph *g = edges_finish(&E);
    moore_paths_result p = compute(g, 0);
    assert_int_equal(p.connected, 1);
    assert_int_equal(p.components, 1);
    assert_int_equal(p.diameter, 0);
    assert_int_equal(p.histogram_len, 1);
    assert_int_equal(p.histogram[0], 1);
    moore_paths_result_clear(&p);
    assert_int_equal(girth_of(g), 0);
    moore_graph_free(g);

    g = path(2);
    p = compute(g, 0);
    assert_int_equal(p.connected, 1);
    assert_int_equal(p.diameter, 1);
    assert_near(p.avg_path_length, 1.0, 0);
    assert_int_equal(p.histogram_len, 2);
    assert_int_equal(p.histogram[0], 2);
    assert_int_equal(p.histogram[1], 2);
    moore_paths_result_clear(&p);
    assert_int_equal(girth_of(g), 0);
    moore_graph_free(g);

    /* no options at all */
    g = complete(4);
    moore_error err;
    assert_int_equal(moore_paths_compute(g, NULL, &p, &err), MOORE_OK);
    assert_int_equal(p.diameter, 1);
    moore_paths_result_clear(&p);
    moore_graph_free(g);
}

static void cycles_closed_form(void **state)
{
    (void)state;
    const int32_t sizes[] = { 3, 4, 5, 8, 63, 64, 65, 200, 257, 600, 1001 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        int32_t n = sizes[i], k = n / 2;
        moore_graph *g = cycle(n);
        moore_paths_result p = compute(g, 2);
        /* from any vertex: two at each distance 1..k, one fewer at k when n is even */
        double sum = n % 2 ? (double)k * (k + 1) : (double)k * k;
        assert_int_equal(p.diameter, k);
        assert_near(p.avg_path_length, sum / (n - 1), 1e-12);
        for (int32_t d = 1; d <= k; d++)
            assert_int_equal(p.histogram[d], (int64_t)n * (d == k && n % 2 == 0 ? 1 : 2));
        assert_int_equal(girth_of(g), n);
        moore_paths_result_clear(&p);
        moore_graph_free(g);
    }
}

static void paths_closed_form(void **state)
{
    (void)state;
    const int32_t sizes[] = { 3, 10, 64, 65, 300, 1500 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        int32_t n = sizes[i];
        moore_graph *g = path(n);
        moore_paths_result p = compute(g, 2);
        assert_int_equal(p.diameter, n - 1);
        /* Σ over ordered pairs of |i − j| = (n−1) n (n+1) / 3 */
        assert_near(p.avg_path_length, (n + 1) / 3.0, 1e-12);
        for (int32_t d = 1; d < n; d++)
            assert_int_equal(p.histogram[d], 2 * (int64_t)(n - d));
        assert_int_equal(girth_of(g), 0);
        moore_paths_result_clear(&p);
        moore_graph_free(g);
    }
}

static void complete_graphs(void **state)
{
    (void)state;
    const int32_t sizes[] = { 3, 30, 64, 100, 300 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        moore_graph *g = complete(sizes[i]);
        moore_paths_result p = compute(g, 2);
        assert_int_equal(p.diameter, 1);
        assert_near(p.avg_path_length, 1.0, 0);
        assert_int_equal(p.histogram[1], (int64_t)sizes[i] * (sizes[i] - 1));
        assert_int_equal(girth_of(g), 3);
        moore_paths_result_clear(&p);
        moore_graph_free(g);
    }
}

/* Σ of distances from one vertex of the cycle C_a. */
static double cycle_sum(int32_t a)
{
    int32_t k = a / 2;
    return a % 2 ? (double)k * (k + 1) : (double)k * k;
}

static void tori_and_grids(void **state)
{
    (void)state;
    const int32_t dims[][2] = { { 5, 7 }, { 8, 8 }, { 16, 20 }, { 31, 33 } };
    for (size_t i = 0; i < sizeof dims / sizeof *dims; i++) {
        int32_t a = dims[i][0], b = dims[i][1], n = a * b;
        moore_graph *g = grid(a, b, 1);
        moore_paths_result p = compute(g, 2);
        assert_int_equal(p.diameter, a / 2 + b / 2);
        assert_near(p.avg_path_length, (b * cycle_sum(a) + a * cycle_sum(b)) / (n - 1),
                            1e-12);
        assert_int_equal(girth_of(g), 4);
        moore_paths_result_clear(&p);
        moore_graph_free(g);

        g = grid(a, b, 0);
        p = compute(g, 2);
        assert_int_equal(p.diameter, a + b - 2);
        /* Σ|x−x'| over ordered pairs of a line of a is (a−1) a (a+1) / 3 */
        double sum = (double)b * b * (a - 1.0) * a * (a + 1.0) / 3 +
                     (double)a * a * (b - 1.0) * b * (b + 1.0) / 3;
        assert_near(p.avg_path_length, sum / ((double)n * (n - 1)), 1e-12);
        assert_int_equal(girth_of(g), 4);
        moore_paths_result_clear(&p);
        moore_graph_free(g);
    }
}

static void hypercubes(void **state)
{
    (void)state;
    for (int d = 1; d <= 11; d++) {
        moore_graph *g = hypercube(d);
        int32_t n = g->n;
        moore_paths_result p = compute(g, 2);
        assert_int_equal(p.diameter, d);
        assert_near(p.avg_path_length, d * (n / 2.0) / (n - 1), 1e-12);
        int64_t binom = 1; /* C(d, k) */
        for (int k = 0; k <= d; k++) {
            assert_int_equal(p.histogram[k], binom * n);
            binom = binom * (d - k) / (k + 1);
        }
        assert_int_equal(girth_of(g), d >= 2 ? 4 : 0);
        moore_paths_result_clear(&p);
        moore_graph_free(g);
    }
}

static void girth_of_known_graphs(void **state)
{
    (void)state;
    moore_graph *g = tu_build("petersen");
    assert_int_equal(girth_of(g), 5);
    moore_paths_result p = compute(g, 2);
    assert_int_equal(p.diameter, 2);
    assert_int_equal(p.histogram[1], 30);
    assert_int_equal(p.histogram[2], 60);
    moore_paths_result_clear(&p);
    moore_graph_free(g);

    g = tu_build("hoffman-singleton");
    assert_int_equal(girth_of(g), 5);
    assert_int_equal(tu_diameter(g), 2);
    p = compute(g, 2);
    assert_int_equal(p.diameter, 2);
    assert_int_equal(p.histogram[1], 50 * 7);
    assert_int_equal(p.histogram[2], 50 * 42);
    /* a Moore graph: N equals the Moore bound */
    assert_near(moore_bound(7, p.diameter), 50, 0);
    moore_paths_result_clear(&p);
    moore_graph_free(g);

    /* trees: a star, a random tree; both girth 0 */
    edges E;
    edges_init(&E, 40);
    for (int32_t v = 1; v < 40; v++)
        edges_add(&E, 0, v);
    g = edges_finish(&E);
    assert_int_equal(girth_of(g), 0);
    moore_graph_free(g);
    g = random_connected(500, 0, 99);
    assert_int_equal(g->m, 499);
    assert_int_equal(girth_of(g), 0);
    moore_graph_free(g);

    /* a triangle far out on a tree, and trees hanging off a long cycle */
    edges_init(&E, 30);
    for (int32_t v = 1; v < 28; v++)
        edges_add(&E, v - 1, v);
    edges_add(&E, 27, 28);
    edges_add(&E, 28, 29);
    edges_add(&E, 29, 27);
    g = edges_finish(&E);
    assert_int_equal(girth_of(g), 3);
    moore_graph_free(g);
    edges_init(&E, 60);
    for (int32_t v = 0; v < 20; v++)
        edges_add(&E, v, (v + 1) % 20);
    for (int32_t v = 20; v < 60; v++)
        edges_add(&E, v - 20, v);
    g = edges_finish(&E);
    assert_int_equal(girth_of(g), 20);
    moore_graph_free(g);
}

/* The closed forms of moore_paths_closed_form against the naive BFS of this
 * file, on the grid families (built by SPEC, so they carry their origin), on
 * rings and complete graphs (recognised by shape), and a graph that claims
 * a torus origin it does not have. */
static void closed_form_matches_bfs(void **state)
{
    (void)state;
    const char *specs[] = { "torus:dims=3", "torus:dims=4", "torus:dims=2", "torus:dims=7x4",
                            "torus:dims=2x3x4", "torus:dims=5x5x2", "mesh:dims=5",
                            "mesh:dims=3x4", "mesh:dims=2x2x3", "tofu:dims=1x2x1",
                            "hypercube:n=1", "hypercube:n=5", "complete:n=2",
                            "complete:n=9" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        moore_graph *g = tu_build(specs[i]);
        moore_paths_result p;
        moore_error err;
        int found = -1;
        assert_int_equal(moore_paths_closed_form(g, &p, &found, &err), MOORE_OK);
        if (!found)
            print_error("no closed form for %s\n", specs[i]);
        assert_int_equal(found, 1);
        naive ref = naive_paths(g);
        assert_int_equal(p.connected, 1);
        assert_int_equal(p.components, 1);
        assert_int_equal(p.diameter, ref.diameter);
        assert_int_equal(p.histogram_len, ref.diameter + 1);
        for (int32_t d = 0; d <= ref.diameter; d++)
            assert_int_equal(p.histogram[d], ref.hist[d]);
        moore_paths_result q = compute(g, 1); /* the same double from the same sums */
        assert_true(p.avg_path_length == q.avg_path_length);
        moore_paths_result_clear(&q);
        moore_paths_result_clear(&p);
        free(ref.hist);
        moore_graph_free(g);
    }
    for (int32_t n = 3; n <= 10; n++) /* rings and K_n from links alone */
        for (int k = 0; k <= 1; k++) {
            moore_graph *g = k ? complete(n) : cycle(n);
            moore_paths_result p;
            moore_error err;
            int found = 0;
            assert_int_equal(moore_paths_closed_form(g, &p, &found, &err), MOORE_OK);
            assert_int_equal(found, 1);
            naive ref = naive_paths(g);
            assert_int_equal(p.diameter, ref.diameter);
            for (int32_t d = 0; d <= ref.diameter; d++)
                assert_int_equal(p.histogram[d], ref.hist[d]);
            assert_int_equal(girth_of(g), k ? 3 : n);
            moore_paths_result_clear(&p);
            free(ref.hist);
            moore_graph_free(g);
        }
    /* two disjoint triangles: 2-regular but not a ring; girth 3 */
    edges E;
    edges_init(&E, 6);
    for (int32_t t = 0; t < 6; t += 3) {
        edges_add(&E, t, t + 1);
        edges_add(&E, t + 1, t + 2);
        edges_add(&E, t, t + 2);
    }
    moore_graph *g = edges_finish(&E);
    moore_paths_result p;
    moore_error err;
    int found = 1;
    assert_int_equal(moore_paths_closed_form(g, &p, &found, &err), MOORE_OK);
    assert_int_equal(found, 0);
    assert_int_equal(girth_of(g), 3);
    moore_graph_free(g);
    /* a 4×4 mesh that says it is a torus:dims=4x4 is not taken at its word */
    g = tu_build("mesh:dims=4x4");
    assert_int_equal(moore_graph_set_origin(g, "torus", "dims=4x4,p=1", &err), MOORE_OK);
    assert_int_equal(moore_paths_closed_form(g, &p, &found, &err), MOORE_OK);
    assert_int_equal(found, 0);
    moore_graph_free(g);
}

static void moore_bound_closed_form(void **state)
{
    (void)state;
    assert_near(moore_bound(3, 2), 10, 0);     /* Petersen */
    assert_near(moore_bound(57, 2), 3250, 0);  /* the missing Moore graph */
    assert_near(moore_bound(3, 0), 1, 0);
    assert_near(moore_bound(4, 3), 1 + 4 * (1 + 3 + 9), 0);
    assert_near(moore_bound(2, 5), 11, 0);     /* C_11 */
}

/* the progress callback sees fractions in [0, 1], never decreasing, ending at 1 */
typedef struct progress_log {
    int calls;
    double last;
    int bad;
} progress_log;

static void log_progress(void *ctx, const char *what, double fraction)
{
    progress_log *l = ctx;
    if (!what || fraction < l->last || fraction < 0 || fraction > 1)
        l->bad = 1;
    l->last = fraction;
    l->calls++;
}

static void progress_is_reported(void **state)
{
    (void)state;
    moore_graph *g = random_connected(2000, 6000, 5);
    moore_metric_options o;
    moore_metric_options_default(&o);
    progress_log log = { 0, 0.0, 0 };
    o.progress = log_progress;
    o.progress_ctx = &log;
    moore_paths_result p;
    moore_error err;
    assert_int_equal(moore_paths_compute(g, &o, &p, &err), MOORE_OK);
    assert_true(log.calls >= 1);
    assert_false(log.bad);
    assert_near(log.last, 1.0, 0);
    moore_paths_result_clear(&p);
    moore_graph_free(g);
}

/* the metric group reports nulls for a disconnected graph */
static void metric_group_reports_null_when_disconnected(void **state)
{
    (void)state;
    edges E;
    edges_init(&E, 6);
    edges_add(&E, 0, 1);
    edges_add(&E, 1, 2);
    edges_add(&E, 3, 4);
    moore_graph *g = edges_finish(&E);
    moore_report r;
    moore_error err;
    moore_report_init(&r);
    assert_int_equal(moore_metrics_compute(g, "paths", NULL, &r, &err), MOORE_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(moore_report_write_json(&r, f, 0, &err), MOORE_OK);
    fclose(f);
    assert_non_null(strstr(buf, "\"diameter\":null"));
    assert_non_null(strstr(buf, "\"avg_path_length\":null"));
    assert_non_null(strstr(buf, "\"components\":3"));
    assert_non_null(strstr(buf, "\"connected\":false"));
    free(buf);
    moore_report_clear(&r);
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_graphs_match_naive_bfs),
        cmocka_unit_test(disconnected_graphs_are_reported),
        cmocka_unit_test(tiny_graphs),
        cmocka_unit_test(cycles_closed_form),
        cmocka_unit_test(paths_closed_form),
        cmocka_unit_test(complete_graphs),
        cmocka_unit_test(tori_and_grids),
        cmocka_unit_test(hypercubes),
        cmocka_unit_test(girth_of_known_graphs),
        cmocka_unit_test(closed_form_matches_bfs),
        cmocka_unit_test(moore_bound_closed_form),
        cmocka_unit_test(progress_is_reported),
        cmocka_unit_test(metric_group_reports_null_when_disconnected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
