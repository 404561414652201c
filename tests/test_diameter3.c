/* test_diameter3.c — the diameter-3 families: Bundlefly (MMS * Paley),
 * PolarStar (ER_q * joiner) and the Delorme graphs; and brown, the alias of
 * polarfly.
 *
 * What is asserted, and where it comes from:
 *   - closed forms over sweeps and the papers' diameter 3 by BFS;
 *   - second constructions written here, isomorphic to the library's graphs
 *     (Traces): Bundlefly and PolarStar as star products over this file's
 *     own Paley graphs (squares mod a prime r, ξ the smallest primitive
 *     root), its own ER_q (dot products mod a prime q) and its own bdf joiner
 *     (built from the description in docs/families.md); Delorme's graph with
 *     this file's own GF(8) arithmetic (polynomials mod x³ + x + 1) and a
 *     brute-force point-on-line test;
 *   - the bdf joiner is jd-regular on 2jd+2 vertices with φ a fixed-point-free
 *     involution whose pairs are not links; Delorme has exactly q²+1 absolute
 *     points (degree q);
 *   - refusals of impossible parameters, and the planners. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- this file's arithmetic mod a prime ---- */

static int primitive_root(int r)
{
    for (int g = 2; g < r; g++) {
        int x = 1, order = 0;
        do {
            x = x * g % r;
            order++;
        } while (x != 1);
        if (order == r - 1)
            return g;
    }
    return 1; /* r = 2 */
}

static int is_square_mod(int x, int r)
{
    for (int y = 1; y < r; y++)
        if (y * y % r == x)
            return 1;
    return 0;
}

/* A joiner: adjacency matrix, φ and the matching used at absolute points. */
typedef struct joiner {
    int n;
    char adj[64][64];
    int phi[64], mate[64];
} joiner;

static void joiner_link(joiner *j, int u, int v)
{
    j->adj[u][v] = j->adj[v][u] = 1;
}

static void paley_joiner(joiner *j, int r)
{
    memset(j, 0, sizeof *j);
    j->n = r;
    int xi = primitive_root(r);
    for (int x = 0; x < r; x++) {
        j->phi[x] = x * xi % r;
        j->mate[x] = -1;
        for (int y = 0; y < r; y++)
            if (x != y && is_square_mod(((x - y) % r + r) % r, r))
                j->adj[x][y] = 1;
    }
    /* pairs {ξ^e, ξ^(e+1)} that are not Paley links, covering GF(r)* */
    int o = is_square_mod((xi - 1 + r) % r, r) ? 1 : 0, a = 1;
    for (int e = 0; e < o; e++)
        a = a * xi % r;
    for (int t = 0; t < (r - 1) / 2; t++, a = a * xi % r * xi % r) {
        int b = a * xi % r;
        j->mate[a] = b;
        j->mate[b] = a;
    }
}

/* The bdf joiner as docs/families.md describes it. */
static void bdf_base(joiner *j, int n)
{
    static const int E[12][2] = { { 0, 1 }, { 0, 2 }, { 0, 7 }, { 1, 4 }, { 1, 6 }, { 2, 3 },
                                  { 2, 4 }, { 3, 5 }, { 3, 6 }, { 4, 7 }, { 5, 6 }, { 5, 7 } };
    for (int e = 0; e < 12; e++)
        joiner_link(j, n + E[e][0], n + E[e][1]);
    for (int x = 0; x < 4; x++) {
        j->phi[n + x] = n + x + 4;
        j->phi[n + x + 4] = n + x;
    }
}

static void bdf_joiner(joiner *j, int jd)
{
    memset(j, 0, sizeof *j);
    char in_a[64] = { 0 };
    int d = jd % 4 == 0 ? 4 : 3;
    bdf_base(j, 0);
    for (int x = 0; x < 4; x++)
        in_a[x] = 1;
    j->n = 8;
    if (d == 4) {
        joiner_link(j, 8, 0), joiner_link(j, 8, 1), joiner_link(j, 8, 4), joiner_link(j, 8, 5);
        joiner_link(j, 9, 2), joiner_link(j, 9, 3), joiner_link(j, 9, 6), joiner_link(j, 9, 7);
        j->phi[8] = 9, j->phi[9] = 8, in_a[8] = 1, j->n = 10;
    }
    for (; d < jd; d += 4) {
        int n = j->n;
        bdf_base(j, n);
        for (int v = 0; v < n; v++) {
            const int *to = in_a[v] ? (const int[]){ 0, 1, 4, 5 } : (const int[]){ 2, 3, 6, 7 };
            for (int k = 0; k < 4; k++)
                joiner_link(j, v, n + to[k]);
        }
        for (int x = 0; x < 4; x++)
            in_a[n + x] = 1;
        j->n += 8;
    }
    for (int x = 0; x < j->n; x++)
        j->mate[x] = j->phi[x];
}

/* A star product: structure graph S (adjacency by rule), joiner J;
 * (i,x) ~ (i,y) if x ~ y; (i,x) ~ (k,φ(x)) for S-links i < k; at the
 * "absolute" supernodes (i,x) ~ (i, mate(x)). This file numbers (i,x) as
 * x·|S| + i (joiner-major, unlike the library). */
typedef struct star {
    int ns;
    const char *s_adj;  /* ns × ns */
    const char *absolute;
    const joiner *j;
} star;

static int star_adjacent(const void *ctx, int32_t u, int32_t v)
{
    const star *st = ctx;
    int i = u % st->ns, x = u / st->ns, k = v % st->ns, y = v / st->ns;
    if (i == k)
        return st->j->adj[x][y] || (st->absolute && st->absolute[i] && st->j->mate[x] == y);
    if (!st->s_adj[i * st->ns + k])
        return 0;
    return i < k ? st->j->phi[x] == y : st->j->phi[y] == x;
}

/* ---- Bundlefly ---- */

static void bundlefly_sweep(void **state)
{
    (void)state;
    static const int qr[][2] = { { 3, 5 }, { 4, 5 }, { 5, 5 }, { 3, 9 }, { 4, 9 }, { 3, 13 },
                                 { 7, 5 }, { 8, 5 } };
    char spec[64];
    for (size_t i = 0; i < sizeof qr / sizeof qr[0]; i++) {
        snprintf(spec, sizeof spec, "bundlefly:q=%d,r=%d", qr[i][0], qr[i][1]);
        tu_check_closed_forms(spec);
        moore_counts c = tu_counts(spec);
        int q = qr[i][0], r = qr[i][1], delta = q % 4 == 1 ? 1 : q % 4 == 0 ? 0 : -1;
        int deg = (3 * q - delta) / 2 + (r - 1) / 2;
        assert_int_equal(c.switches, 2 * q * q * r);
        assert_int_equal(c.degree_max, deg);
        assert_int_equal(c.diameter, 3);
        assert_int_equal(c.endpoints, c.switches * (deg / 3));
    }
}

static void bundlefly_is_star_product(void **state)
{
    (void)state;
    static const int qr[][2] = { { 3, 5 }, { 4, 5 }, { 5, 13 } };
    for (size_t i = 0; i < sizeof qr / sizeof qr[0]; i++) {
        char spec[64];
        snprintf(spec, sizeof spec, "slimfly:q=%d", qr[i][0]);
        moore_graph *mms = tu_build(spec); /* checked by test_slimfly */
        char *s_adj = calloc((size_t)mms->n * (size_t)mms->n, 1);
        for (int32_t u = 0; u < mms->n; u++)
            for (int64_t e = mms->offs[u]; e < mms->offs[u + 1]; e++)
                s_adj[(size_t)u * (size_t)mms->n + (size_t)mms->adj[e]] = 1;
        joiner J;
        paley_joiner(&J, qr[i][1]);
        star st = { mms->n, s_adj, NULL, &J };
        moore_graph *mine = tu_graph_from_rule(mms->n * J.n, star_adjacent, &st);
        snprintf(spec, sizeof spec, "bundlefly:q=%d,r=%d", qr[i][0], qr[i][1]);
        moore_graph *g = tu_build(spec);
        tu_assert_isomorphic(g, mine);
        moore_graph_free(g);
        moore_graph_free(mine);
        moore_graph_free(mms);
        free(s_adj);
    }
}

static void bundlefly_refuses(void **state)
{
    (void)state;
    tu_expect_refused("bundlefly:q=5", "q= and r= are required");
    tu_expect_refused("bundlefly:q=6,r=5", "q=6 is no MMS parameter");
    tu_expect_refused("bundlefly:q=5,r=7", "r=7 is not a prime power = 1 mod 4");
    tu_expect_refused("bundlefly:q=5,r=15", "r=15");
    tu_expect_refused("bundlefly:q=5,r=5,radix=9", "radix=9");
}

/* ---- PolarStar ---- */

/* ER_q for a prime q, this file's way: normalised points, dot product 0. */
typedef struct er {
    int n, q;
    int pt[64][3];
    char adj[64 * 64];
    char absolute[64];
} er;

static void er_make(er *e, int q)
{
    memset(e, 0, sizeof *e);
    e->q = q;
    for (int x = 0; x < q; x++)
        for (int y = 0; y < q; y++)
            for (int z = 0; z < q; z++)
                if ((x ? x : y ? y : z) == 1) {
                    e->pt[e->n][0] = x, e->pt[e->n][1] = y, e->pt[e->n][2] = z;
                    e->n++;
                }
    for (int u = 0; u < e->n; u++)
        for (int v = 0; v < e->n; v++) {
            int dot = (e->pt[u][0] * e->pt[v][0] + e->pt[u][1] * e->pt[v][1] +
                       e->pt[u][2] * e->pt[v][2]) % q;
            if (dot == 0 && u == v)
                e->absolute[u] = 1;
            else if (dot == 0)
                e->adj[u * e->n + v] = 1;
        }
}

static void polarstar_sweep(void **state)
{
    (void)state;
    static const char *specs[] = {
        "polarstar:q=2,jd=3",  "polarstar:q=3,jd=4",  "polarstar:q=4,jd=7",
        "polarstar:q=5,jd=8",  "polarstar:q=2,jd=11", "polarstar:q=7,jd=3",
        "polarstar:q=3,jd=2,joiner=paley", "polarstar:q=4,jd=4,joiner=paley",
        "polarstar:q=5,jd=6,joiner=paley", "polarstar:q=2,jd=12,joiner=paley",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        tu_check_closed_forms(specs[i]);
    moore_counts c = tu_counts("polarstar:q=7,jd=8");
    assert_int_equal(c.switches, 57 * 18);
    assert_int_equal(c.degree_min, 16);
    assert_int_equal(c.degree_max, 16);
    assert_int_equal(c.diameter, 3);
}

static void polarstar_bdf_joiner(void **state)
{
    (void)state;
    for (int jd = 3; jd <= 20; jd++) {
        if (jd % 4 != 0 && jd % 4 != 3)
            continue;
        joiner J;
        bdf_joiner(&J, jd);
        assert_int_equal(J.n, 2 * jd + 2);
        for (int x = 0; x < J.n; x++) {
            int deg = 0;
            for (int y = 0; y < J.n; y++)
                deg += J.adj[x][y];
            assert_int_equal(deg, jd);
            assert_int_not_equal(J.phi[x], x);
            assert_int_equal(J.phi[J.phi[x]], x);
            assert_false(J.adj[x][J.phi[x]]);
        }
    }
}

static void polarstar_is_star_product(void **state)
{
    (void)state;
    static const struct { int q, jd, paley; } cases[] = {
        { 2, 3, 0 }, { 3, 4, 0 }, { 5, 7, 0 }, { 3, 2, 1 }, { 5, 6, 1 }, { 2, 8, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        er e;
        er_make(&e, cases[i].q);
        joiner J;
        if (cases[i].paley)
            paley_joiner(&J, 2 * cases[i].jd + 1);
        else
            bdf_joiner(&J, cases[i].jd);
        star st = { e.n, e.adj, e.absolute, &J };
        moore_graph *mine = tu_graph_from_rule(e.n * J.n, star_adjacent, &st);
        char spec[64];
        snprintf(spec, sizeof spec, "polarstar:q=%d,jd=%d,joiner=%s", cases[i].q, cases[i].jd,
                 cases[i].paley ? "paley" : "bdf");
        moore_graph *g = tu_build(spec);
        tu_assert_isomorphic(g, mine);
        moore_graph_free(g);
        moore_graph_free(mine);
    }
}

static void polarstar_refuses(void **state)
{
    (void)state;
    tu_expect_refused("polarstar:q=7", "q= and jd= are required");
    tu_expect_refused("polarstar:q=6,jd=4", "q=6 is not a prime power");
    tu_expect_refused("polarstar:q=7,jd=5", "bdf joiner");
    tu_expect_refused("polarstar:q=7,jd=2", "bdf joiner");
    tu_expect_refused("polarstar:q=7,jd=3,joiner=paley", "2jd+1 = 7");
    tu_expect_refused("polarstar:q=7,jd=3,joiner=kautz", "neither bdf nor paley");
    tu_expect_refused("polarstar:q=7,jd=4,radix=12", "radix=12");
}

/* ---- Delorme ---- */

/* GF(8) as polynomials over GF(2) mod x³ + x + 1 (bits = coefficients). */
static int gf8_mul(int a, int b)
{
    int r = 0;
    for (int i = 0; i < 3; i++)
        if (b >> i & 1)
            r ^= a << i;
    for (int i = 4; i >= 3; i--)
        if (r >> i & 1)
            r ^= 0xB << (i - 3);
    return r;
}

static int gf_mul_q(int q, int a, int b) { return q == 2 ? a & b : gf8_mul(a, b); }

static int gf_pow_q(int q, int a, int e)
{
    int r = 1;
    while (e--)
        r = gf_mul_q(q, r, a);
    return r;
}

typedef struct dl {
    int q, n, sigma;
    int pt[600][4];
    int line[600][4][4];
} dl;

static int dl_adjacent(const void *ctx, int32_t u, int32_t v)
{
    const dl *d = ctx;
    for (int r = 0; r < 4; r++) {
        int acc = 0;
        for (int c = 0; c < 4; c++)
            acc ^= gf_mul_q(d->q, d->line[u][r][c], d->pt[v][c]);
        if (acc)
            return 0;
    }
    return 1;
}

static void dl_make(dl *d, int q)
{
    d->q = q;
    d->sigma = q == 2 ? 2 : 4;
    d->n = 0;
    for (int c = 1; c < q * q * q * q; c++) {
        int x[4] = { c / (q * q * q), c / (q * q) % q, c / q % q, c % q };
        int first = x[0] ? x[0] : x[1] ? x[1] : x[2] ? x[2] : x[3];
        if (first != 1)
            continue;
        memcpy(d->pt[d->n], x, sizeof x);
        int a = gf_mul_q(q, x[0], x[1]) ^ gf_mul_q(q, x[2], x[3]);
        int p01 = gf_pow_q(q, a, d->sigma / 2), p23 = p01, p02 = gf_pow_q(q, x[0], d->sigma),
            p31 = gf_pow_q(q, x[1], d->sigma), p03 = gf_pow_q(q, x[2], d->sigma),
            p12 = gf_pow_q(q, x[3], d->sigma);
        int M[4][4] = { { 0, p23, p31, p12 }, { p23, 0, p03, p02 },
                        { p31, p03, 0, p01 }, { p12, p02, p01, 0 } };
        memcpy(d->line[d->n], M, sizeof M);
        d->n++;
    }
}

static void delorme_sweep(void **state)
{
    (void)state;
    tu_check_closed_forms("delorme:q=2");
    tu_check_closed_forms("delorme:q=8");
    tu_check_closed_forms("delorme:q=8,p=5");
    moore_counts c = tu_counts("delorme:q=32");
    assert_int_equal(c.switches, 33 * 1025);
    assert_int_equal(c.endpoints, 33 * 1025 * 11);
    moore_graph *g = tu_build("delorme:q=8");
    int absolute = 0;
    for (int32_t v = 0; v < g->n; v++)
        absolute += g->offs[v + 1] - g->offs[v] == 8;
    assert_int_equal(absolute, 65);
    moore_graph_free(g);
}

static void delorme_is_polarity_graph(void **state)
{
    (void)state;
    static dl d; /* 600 points × 16 ints of line matrix: keep off the stack */
    for (int q = 2; q <= 8; q *= 4) {
        dl_make(&d, q);
        assert_int_equal(d.n, (q + 1) * (q * q + 1));
        /* a polarity: u on v's line iff v on u's line */
        for (int u = 0; u < d.n; u++)
            for (int v = u + 1; v < d.n; v++)
                assert_int_equal(dl_adjacent(&d, u, v), dl_adjacent(&d, v, u));
        moore_graph *mine = tu_graph_from_rule(d.n, dl_adjacent, &d);
        char spec[32];
        snprintf(spec, sizeof spec, "delorme:q=%d", q);
        moore_graph *g = tu_build(spec);
        assert_int_equal(mine->m, g->m);
        tu_assert_isomorphic(g, mine);
        moore_graph_free(g);
        moore_graph_free(mine);
    }
}

static void delorme_refuses(void **state)
{
    (void)state;
    tu_expect_refused("delorme", "q= is required");
    tu_expect_refused("delorme:q=4", "q=4 is not an odd power of 2");
    tu_expect_refused("delorme:q=5", "q=5 is not an odd power of 2");
    tu_expect_refused("delorme:q=16", "odd power of 2");
    tu_expect_refused("delorme:q=512", "more than");
    tu_expect_refused("delorme:q=8,radix=9", "radix=9");
}

static void brown_is_polarfly(void **state)
{
    (void)state;
    moore_graph *a = tu_build("brown:q=7"), *b = tu_build("polarfly:q=7");
    tu_assert_isomorphic(a, b);
    assert_int_equal(a->m, b->m);
    moore_graph_free(a);
    moore_graph_free(b);
}

static void planners(void **state)
{
    (void)state;
    tu_check_planner("bundlefly", 48, 0, 1200);
    assert_true(tu_plan_count("bundlefly", 48, 0) > 0);
    tu_check_planner("bundlefly", 48, 100000, 1200);
    assert_true(tu_plan_count("bundlefly", 48, 100000) > 0);
    tu_check_planner("polarstar", 48, 0, 1200);
    assert_true(tu_plan_count("polarstar", 48, 0) > 30);
    tu_check_planner("polarstar", 48, 100000, 1200);
    assert_true(tu_plan_count("polarstar", 48, 100000) > 30);
    tu_check_planner("delorme", 48, 0, 1200);
    assert_int_equal(tu_plan_count("delorme", 48, 0), 3); /* q = 2, 8, 32 */
    tu_check_planner("delorme", 48, 100000, 1200);
    assert_int_equal(tu_plan_count("delorme", 48, 100000), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bundlefly_sweep),        cmocka_unit_test(bundlefly_is_star_product),
        cmocka_unit_test(bundlefly_refuses),      cmocka_unit_test(polarstar_sweep),
        cmocka_unit_test(polarstar_bdf_joiner),   cmocka_unit_test(polarstar_is_star_product),
        cmocka_unit_test(polarstar_refuses),      cmocka_unit_test(delorme_sweep),
        cmocka_unit_test(delorme_is_polarity_graph), cmocka_unit_test(delorme_refuses),
        cmocka_unit_test(brown_is_polarfly),      cmocka_unit_test(planners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
