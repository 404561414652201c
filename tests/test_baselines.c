/* test_baselines.c — fat-tree, Dragonfly, HyperX, torus and PolarFly.
 *
 * Each family's built graph is held against its closed forms over a sweep of
 * parameters (diameter by the independent BFS of testutil.c), against the
 * values the literature gives (fattree:k=16 has 320 switches, …), and
 * against an adjacency rule recomputed here from the documented numbering
 * (Hamming distance 1, ring neighbours, orthogonality mod q), so a build is
 * never checked against itself. Bad parameters must be refused with one line
 * naming the value. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- fat-tree ---- */

static void fattree_must_hold(void **state)
{
    (void)state;
    moore_graph *g = tu_build("fattree:k=16");
    assert_int_equal(g->n, 320);
    assert_int_equal(g->m, 2048);
    assert_int_equal(moore_graph_endpoints_total(g), 1024);
    assert_int_equal(tu_diameter(g), 4);
    moore_graph_free(g);
}

static void fattree_sweep(void **state)
{
    (void)state;
    char spec[64];
    for (int k = 2; k <= 14; k += 2) {
        snprintf(spec, sizeof spec, "fattree:k=%d", k);
        tu_check_closed_forms(spec);
        moore_counts c = tu_counts(spec);
        /* Al-Fares et al.: 5k²/4 switches, k³/4 hosts, k³/2 links (k³/4 per tier). */
        assert_int_equal(c.switches, 5 * k * k / 4);
        assert_int_equal(c.endpoints, k * k * k / 4);
        assert_int_equal(c.links, k * k * k / 2);
    }
    tu_check_closed_forms("fattree:k=8,p=1");
    tu_check_closed_forms("fattree:k=6,p=2");
}

/* Endpoints only on the k²/2 edge switches (network degree k/2); the graph is
 * bipartite ({edge, core} | {aggregation}); without the core, k pods of k. */
static void fattree_structure(void **state)
{
    (void)state;
    const int k = 8;
    moore_graph *g = tu_build("fattree:k=8");
    int with_ep = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (g->endpoints[v]) {
            with_ep++;
            assert_int_equal(g->endpoints[v], k / 2);
            assert_int_equal(moore_graph_degree(g, v), k / 2);
        } else
            assert_int_equal(moore_graph_degree(g, v), k);
    assert_int_equal(with_ep, k * k / 2);
    /* 2-colouring by BFS */
    int32_t *col = malloc((size_t)g->n * sizeof *col), *q = malloc((size_t)g->n * sizeof *q);
    for (int32_t v = 0; v < g->n; v++)
        col[v] = -1;
    int head = 0, tail = 0;
    col[0] = 0;
    q[tail++] = 0;
    while (head < tail) {
        int32_t u = q[head++];
        for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++) {
            int32_t w = g->adj[e];
            if (col[w] < 0) {
                col[w] = 1 - col[u];
                q[tail++] = w;
            } else
                assert_int_not_equal(col[w], col[u]);
        }
    }
    /* Pods: BFS avoiding the core (the (k/2)² switches with no endpoint-side
     * neighbour, i.e. numbered last) gives components of k switches. */
    int32_t core0 = g->n - k * k / 4;
    for (int32_t v = 0; v < g->n; v++)
        col[v] = -1;
    int pods = 0;
    for (int32_t s = 0; s < core0; s++) {
        if (col[s] >= 0)
            continue;
        head = tail = 0;
        col[s] = pods;
        q[tail++] = s;
        while (head < tail) {
            int32_t u = q[head++];
            for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++)
                if (g->adj[e] < core0 && col[g->adj[e]] < 0) {
                    col[g->adj[e]] = pods;
                    q[tail++] = g->adj[e];
                }
        }
        assert_int_equal(tail, k);
        pods++;
    }
    assert_int_equal(pods, k);
    free(col);
    free(q);
    moore_graph_free(g);
}

static void fattree_refuses(void **state)
{
    (void)state;
    tu_expect_refused("fattree:k=7", "k=7 is odd");
    tu_expect_refused("fattree", "k= is required");
    tu_expect_refused("fattree:k=0", "k=0");
    tu_expect_refused("fattree:k=8,radix=48", "radix");
}

/* ---- Dragonfly ---- */

static void dragonfly_must_hold(void **state)
{
    (void)state;
    moore_graph *g = tu_build("dragonfly:p=4");
    assert_int_equal(g->n, 264);
    assert_true(moore_graph_is_regular(g));
    assert_int_equal(moore_graph_degree(g, 0), 11);
    assert_int_equal(tu_diameter(g), 3);
    assert_int_equal(moore_graph_endpoints_total(g), 1056);
    moore_graph_free(g);
}

/* Groups are cliques; every two groups share m = ⌊ah/(g−1)⌋ global links;
 * no switch has two global links into one group. Group of v is v / a. */
static void check_dragonfly_groups(const char *spec, int a, int h, int g_groups)
{
    moore_graph *g = tu_build(spec);
    int m = a * h / (g_groups - 1);
    int *between = calloc((size_t)g_groups * (size_t)g_groups, sizeof *between);
    int *seen = malloc((size_t)g_groups * sizeof *seen);
    for (int32_t v = 0; v < g->n; v++) {
        int gv = v / a;
        for (int i = 0; i < g_groups; i++)
            seen[i] = 0;
        for (int32_t w = gv * a; w < gv * a + a; w++)
            if (w != v)
                assert_true(moore_graph_has_link(g, v, w));
        for (int64_t e = g->offs[v]; e < g->offs[v + 1]; e++) {
            int gw = g->adj[e] / a;
            if (gw == gv)
                continue;
            assert_int_equal(seen[gw], 0);
            seen[gw] = 1;
            between[gv * g_groups + gw]++;
        }
    }
    for (int i = 0; i < g_groups; i++)
        for (int j = 0; j < g_groups; j++)
            if (i != j)
                assert_int_equal(between[i * g_groups + j], m);
    free(between);
    free(seen);
    moore_graph_free(g);
}

static void dragonfly_sweep(void **state)
{
    (void)state;
    char spec[96];
    for (int p = 1; p <= 4; p++) {
        snprintf(spec, sizeof spec, "dragonfly:p=%d", p);
        tu_check_closed_forms(spec);
        moore_counts c = tu_counts(spec);
        int a = 2 * p, g = a * p + 1; /* Kim et al.: balanced a = 2p = 2h, g = ah + 1 */
        assert_int_equal(c.switches, a * g);
        assert_int_equal(c.degree_min, a - 1 + p);
        assert_int_equal(c.degree_max, a - 1 + p);
        assert_int_equal(c.links, g * a * (a - 1) / 2 + g * (g - 1) / 2);
        assert_int_equal(c.diameter, 3);
        check_dragonfly_groups(spec, a, p, g);
    }
    /* General (a, h, g), every g from h+1 to a·h+1, so unused ports, several
     * links between groups, g = h+1 (diameter 2) and a = 1 (complete) occur. */
    for (int a = 1; a <= 5; a++)
        for (int h = 1; h <= 3; h++)
            for (int g = h + 1; g <= a * h + 1; g++) {
                snprintf(spec, sizeof spec, "dragonfly:a=%d,h=%d,g=%d", a, h, g);
                tu_check_closed_forms(spec);
                check_dragonfly_groups(spec, a, h, g);
            }
    tu_check_closed_forms("dragonfly:p=3,g=10");
    tu_check_closed_forms("dragonfly:a=6,h=3,p=2");
    moore_counts c = tu_counts("dragonfly:a=6,h=3,radix=12");
    assert_int_equal(c.endpoints, c.switches * (12 - 5 - 3));
    c = tu_counts("dragonfly:a=4,h=2");
    assert_int_equal(c.endpoints, c.switches * 2); /* default p = h */
}

static void dragonfly_refuses(void **state)
{
    (void)state;
    tu_expect_refused("dragonfly:p=2,g=10", "g=10 exceeds");
    tu_expect_refused("dragonfly:a=4,h=3,g=3", "g=3 is below h+1");
    tu_expect_refused("dragonfly:a=4", "needs both a= and h=");
    tu_expect_refused("dragonfly", "give p=");
    tu_expect_refused("dragonfly:p=4,radix=48", "radix= needs a= and h=");
    tu_expect_refused("dragonfly:a=4,h=2,radix=5", "radix=5");
    tu_expect_refused("dragonfly:p=0", "p=0");
    tu_expect_refused("dragonfly:a=4,h=2,g=1", "g=1");
}

/* ---- HyperX ---- */

static void hyperx_must_hold(void **state)
{
    (void)state;
    moore_graph *g = tu_build("hyperx:L=2,S=8");
    assert_int_equal(g->n, 64);
    assert_true(moore_graph_is_regular(g));
    assert_int_equal(moore_graph_degree(g, 0), 14);
    assert_int_equal(tu_diameter(g), 2);
    moore_graph_free(g);
    g = tu_build("hyperx:L=3,S=4");
    assert_int_equal(tu_diameter(g), 3);
    moore_graph_free(g);
}

static void hyperx_sweep(void **state)
{
    (void)state;
    char spec[64];
    for (int L = 1; L <= 4; L++)
        for (int S = 2; S <= 5; S++) {
            snprintf(spec, sizeof spec, "hyperx:L=%d,S=%d", L, S);
            tu_check_closed_forms(spec);
            moore_counts c = tu_counts(spec);
            int n = 1;
            for (int i = 0; i < L; i++)
                n *= S;
            assert_int_equal(c.switches, n);
            assert_int_equal(c.degree_min, L * (S - 1));
            assert_int_equal(c.diameter, L);
            assert_int_equal(c.endpoints, (int64_t)n * (S / 2 < 1 ? 1 : S / 2));
        }
}

/* Linked iff the base-S words differ in exactly one digit. */
static void hyperx_is_hamming(void **state)
{
    (void)state;
    const int L = 3, S = 4;
    moore_graph *g = tu_build("hyperx:L=3,S=4");
    for (int32_t u = 0; u < g->n; u++)
        for (int32_t v = 0; v < g->n; v++) {
            int diff = 0;
            for (int d = 0, x = u, y = v; d < L; d++, x /= S, y /= S)
                diff += x % S != y % S;
            assert_int_equal(moore_graph_has_link(g, u, v), diff == 1);
        }
    moore_graph_free(g);
}

/* Trunking K: the graph stays simple; counts carry K as the multiplicity,
 * ports per switch are K·L·(S−1). */
static void hyperx_trunking(void **state)
{
    (void)state;
    moore_counts c = tu_counts("hyperx:L=2,S=4,K=3");
    assert_int_equal(c.multiplicity, 3);
    assert_int_equal(c.links, 16 * 6 / 2);
    assert_int_equal(moore_counts_cables(&c), 3 * 48);
    assert_int_equal(c.endpoints, 16 * (3 * 4 / 2)); /* default p = K·S/2: bisection ratio 1 */
    c = tu_counts("hyperx:L=2,S=4,K=3,radix=20");
    assert_int_equal(c.endpoints, 16 * (20 - 18));
    tu_check_closed_forms("hyperx:L=2,S=4,K=3");
    tu_expect_refused("hyperx:L=2,S=4,K=3,radix=18", "radix=18");
}

static void hyperx_refuses(void **state)
{
    (void)state;
    tu_expect_refused("hyperx:L=2,S=1", "S=1");
    tu_expect_refused("hyperx:L=0,S=4", "L=0");
    tu_expect_refused("hyperx:S=4", "required");
    tu_expect_refused("hyperx:L=2,S=4,K=0", "K=0");
    tu_expect_refused("hyperx:L=30,S=10", "exceeds");
}

/* ---- torus ---- */

static void torus_must_hold(void **state)
{
    (void)state;
    moore_graph *g = tu_build("torus:dims=8x8x8");
    assert_int_equal(g->n, 512);
    assert_true(moore_graph_is_regular(g));
    assert_int_equal(moore_graph_degree(g, 0), 6);
    assert_int_equal(tu_diameter(g), 12);
    moore_graph_free(g);
}

static void torus_sweep(void **state)
{
    (void)state;
    static const char *dims[] = { "2", "3", "7", "2x2", "3x4", "5x5", "2x3x4", "4x4x4",
                                  "2x2x2x2", "3x5x2x4", "6x6", "9x2" };
    char spec[64];
    for (size_t i = 0; i < sizeof dims / sizeof *dims; i++) {
        snprintf(spec, sizeof spec, "torus:dims=%s", dims[i]);
        tu_check_closed_forms(spec);
    }
    moore_counts c = tu_counts("torus:dims=2x3x4");
    assert_int_equal(c.degree_min, 1 + 2 + 2);  /* one link along the dimension of 2 */
    assert_int_equal(c.diameter, 1 + 1 + 2);
    c = tu_counts("torus:dims=4x4,radix=10");
    assert_int_equal(c.endpoints, 16 * 6);
}

/* Linked iff exactly one coordinate differs, by ±1 modulo its ring size. */
static void torus_is_rings(void **state)
{
    (void)state;
    const int d[3] = { 3, 4, 2 };
    moore_graph *g = tu_build("torus:dims=3x4x2");
    for (int32_t u = 0; u < g->n; u++)
        for (int32_t v = 0; v < g->n; v++) {
            int diff = 0, ring = 0;
            for (int i = 0, x = u, y = v; i < 3; x /= d[i], y /= d[i], i++)
                if (x % d[i] != y % d[i]) {
                    diff++;
                    int delta = (x % d[i] - y % d[i] + d[i]) % d[i];
                    ring = delta == 1 || delta == d[i] - 1;
                }
            assert_int_equal(moore_graph_has_link(g, u, v), diff == 1 && ring);
        }
    moore_graph_free(g);
}

static void torus_refuses(void **state)
{
    (void)state;
    tu_expect_refused("torus:dims=8x1x8", "dimension 2 of dims=8x1x8 is 1");
    tu_expect_refused("torus:dims=0", "is 0");
    tu_expect_refused("torus:dims=8x", "not a list");
    tu_expect_refused("torus:dims=x8", "not a list");
    tu_expect_refused("torus:dims=8xx8", "not a list");
    tu_expect_refused("torus:dims=abc", "not a list");
    tu_expect_refused("torus", "dims= is required");
    tu_expect_refused("torus:dims=8x8x8,radix=6", "radix=6");
}

/* ---- PolarFly ---- */

static void polarfly_must_hold(void **state)
{
    (void)state;
    moore_graph *g = tu_build("polarfly:q=7");
    assert_int_equal(g->n, 57);
    assert_int_equal(g->m, 224);
    int quadrics = 0;
    for (int32_t v = 0; v < g->n; v++) {
        int deg = moore_graph_degree(g, v);
        assert_true(deg == 7 || deg == 8);
        quadrics += deg == 7;
    }
    assert_int_equal(quadrics, 8);
    assert_int_equal(tu_diameter(g), 2);
    moore_graph_free(g);
}

static void polarfly_sweep(void **state)
{
    (void)state;
    static const int qs[] = { 2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 25, 27 };
    char spec[64];
    for (size_t i = 0; i < sizeof qs / sizeof *qs; i++) {
        int q = qs[i];
        snprintf(spec, sizeof spec, "polarfly:q=%d", q);
        tu_check_closed_forms(spec);
        moore_counts c = tu_counts(spec);
        assert_int_equal(c.switches, q * q + q + 1);
        assert_int_equal(c.links, q * (q + 1) * (q + 1) / 2);
        assert_int_equal(c.endpoints, (int64_t)(q * q + q + 1) * ((q + 1) / 2));
    }
}

/* Prime q: point ids (documented) a·q+b → (a,b,1), q²+a → (a,1,0), q²+q →
 * (1,0,0); linked iff the dot product is 0 mod q and the points differ. */
static void polarfly_is_orthogonality(void **state)
{
    (void)state;
    static const int qs[] = { 3, 5, 7, 11 };
    for (size_t t = 0; t < sizeof qs / sizeof *qs; t++) {
        int q = qs[t];
        char spec[32];
        snprintf(spec, sizeof spec, "polarfly:q=%d", q);
        moore_graph *g = tu_build(spec);
        int n = q * q + q + 1;
        int (*pt)[3] = malloc((size_t)n * sizeof *pt);
        for (int v = 0; v < n; v++) {
            if (v < q * q)
                pt[v][0] = v / q, pt[v][1] = v % q, pt[v][2] = 1;
            else if (v < q * q + q)
                pt[v][0] = v - q * q, pt[v][1] = 1, pt[v][2] = 0;
            else
                pt[v][0] = 1, pt[v][1] = 0, pt[v][2] = 0;
        }
        for (int u = 0; u < n; u++)
            for (int v = 0; v < n; v++) {
                int dot = (pt[u][0] * pt[v][0] + pt[u][1] * pt[v][1] + pt[u][2] * pt[v][2]) % q;
                assert_int_equal(moore_graph_has_link(g, u, v), u != v && dot == 0);
            }
        free(pt);
        moore_graph_free(g);
    }
}

/* Two polar lines meet in one point w, so u ≠ v have exactly one common
 * neighbour, unless w is u or v itself: u~v with u or v absolute (degree q). */
static void polarfly_common_neighbours(void **state)
{
    (void)state;
    static const int qs[] = { 4, 7, 8, 9 };
    for (size_t t = 0; t < sizeof qs / sizeof *qs; t++) {
        int q = qs[t];
        char spec[32];
        snprintf(spec, sizeof spec, "polarfly:q=%d", q);
        moore_graph *g = tu_build(spec);
        for (int32_t u = 0; u < g->n; u++)
            for (int32_t v = u + 1; v < g->n; v++) {
                int common = 0;
                for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++)
                    common += moore_graph_has_link(g, v, g->adj[e]);
                int absorbed = moore_graph_has_link(g, u, v) &&
                               (moore_graph_degree(g, u) == q || moore_graph_degree(g, v) == q);
                assert_int_equal(common, absorbed ? 0 : 1);
            }
        moore_graph_free(g);
    }
}

static void polarfly_refuses(void **state)
{
    (void)state;
    tu_expect_refused("polarfly:q=6", "q=6 is not a prime power");
    tu_expect_refused("polarfly:q=12", "q=12 is not a prime power");
    tu_expect_refused("polarfly:q=1", "q=1 is not a prime power");
    tu_expect_refused("polarfly:q=0", "q=0 is not a prime power");
    tu_expect_refused("polarfly", "q= is required");
    tu_expect_refused("polarfly:q=7,radix=8", "radix=8");
    moore_counts c = tu_counts("polarfly:q=7,radix=12");
    assert_int_equal(c.endpoints, 57 * 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fattree_must_hold),        cmocka_unit_test(fattree_sweep),
        cmocka_unit_test(fattree_structure),        cmocka_unit_test(fattree_refuses),
        cmocka_unit_test(dragonfly_must_hold),      cmocka_unit_test(dragonfly_sweep),
        cmocka_unit_test(dragonfly_refuses),        cmocka_unit_test(hyperx_must_hold),
        cmocka_unit_test(hyperx_sweep),             cmocka_unit_test(hyperx_is_hamming),
        cmocka_unit_test(hyperx_trunking),          cmocka_unit_test(hyperx_refuses),
        cmocka_unit_test(torus_must_hold),          cmocka_unit_test(torus_sweep),
        cmocka_unit_test(torus_is_rings),           cmocka_unit_test(torus_refuses),
        cmocka_unit_test(polarfly_must_hold),       cmocka_unit_test(polarfly_sweep),
        cmocka_unit_test(polarfly_is_orthogonality), cmocka_unit_test(polarfly_common_neighbours),
        cmocka_unit_test(polarfly_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
