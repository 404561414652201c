/* test_slimfly.c — Slim Fly (the MMS graph, docs/slimfly.md) against theory.
 *
 * What is asserted, and where it comes from:
 *   - for every admissible q ≤ 64 (found here by trial division): 2q²
 *     switches, q²·k' links, (3q − δ)/2-regular, diameter 2 by a depth-2
 *     search written here, endpoints and closed-form counts;
 *   - every link against the SPEC rule, recomputed with this file's own
 *     arithmetic (integers mod q for prime q; for prime powers the field
 *     tables, which test_field.c checks against the axioms);
 *   - q = 5 is the Hoffman–Singleton graph built by Robertson's construction:
 *     strongly regular (50,7,0,1), spectrum 7¹ 2²⁸ (−3)²¹ by LAPACKE_dsyev, and
 *     an explicit isomorphism found by a backtracking search written here;
 *   - refusals (q ≡ 2 mod 4, non-prime-powers, radix too small), p= / radix=,
 *     labels, and the planner. */
#include "testutil.h"
#include "moore/field.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- independent arithmetic ---- */

static int is_prime_power_naive(int32_t q)
{
    if (q < 2)
        return 0;
    int32_t p = 2;
    while (q % p)
        p++;
    while (q % p == 0)
        q /= p;
    return q == 1;
}

static int32_t delta_of(int32_t q) { return q % 4 == 1 ? 1 : q % 4 == 0 ? 0 : -1; }
static int32_t degree_of(int32_t q) { return (3 * q - delta_of(q)) / 2; }

/* The δ lists the issue names, which the admissible set must equal. */
static const int32_t DELTA0[] = { 4, 8, 16, 32, 64 };
static const int32_t DELTA_MINUS[] = { 3, 7, 11, 19, 23, 27, 31, 43, 47, 59 };
static const int32_t DELTA_PLUS[] = { 5, 9, 13, 17, 25, 29, 37, 41, 49, 53, 61 };

static int in_list(const int32_t *l, size_t n, int32_t q)
{
    for (size_t i = 0; i < n; i++)
        if (l[i] == q)
            return 1;
    return 0;
}

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static int admissible(int32_t q) { return q >= 3 && q % 4 != 2 && is_prime_power_naive(q); }

/* Every switch reaches every other in at most two hops, and some pair needs
 * two: O(N·k'²) marks, fast even at q = 64 where BFS from every switch is not. */
static int32_t diameter_two_or_fail(const moore_graph *g)
{
    int32_t *mark = calloc((size_t)g->n, sizeof *mark);
    int any_two = 0;
    for (int32_t u = 0; u < g->n; u++) {
        int32_t stamp = u + 1, reached = 1;
        mark[u] = stamp;
        for (int64_t i = g->offs[u]; i < g->offs[u + 1]; i++) {
            int32_t v = g->adj[i];
            if (mark[v] != stamp) {
                mark[v] = stamp;
                reached++;
            }
        }
        int32_t one_hop = reached;
        for (int64_t i = g->offs[u]; i < g->offs[u + 1]; i++)
            for (int64_t j = g->offs[g->adj[i]]; j < g->offs[g->adj[i] + 1]; j++)
                if (mark[g->adj[j]] != stamp) {
                    mark[g->adj[j]] = stamp;
                    reached++;
                }
        if (reached != g->n) {
            free(mark);
            print_error("switch %d reaches only %d of %d in two hops\n", (int)u, (int)reached,
                        (int)g->n);
            fail();
        }
        any_two |= one_hop < g->n;
    }
    free(mark);
    return any_two ? 2 : 1;
}

static moore_graph *build_q(int32_t q, const char *extra)
{
    char spec[96];
    snprintf(spec, sizeof spec, "slimfly:q=%d%s", (int)q, extra);
    return tu_build(spec);
}

/* ---- counts, degrees, diameter for every admissible q ≤ 64 ---- */

static void admissible_set_is_the_three_delta_lists(void **state)
{
    (void)state;
    int count = 0;
    for (int32_t q = 1; q <= 64; q++) {
        int listed = in_list(DELTA0, LEN(DELTA0), q) || in_list(DELTA_MINUS, LEN(DELTA_MINUS), q) ||
                     in_list(DELTA_PLUS, LEN(DELTA_PLUS), q);
        assert_int_equal(admissible(q), listed);
        count += listed;
    }
    assert_int_equal(count, (int)(LEN(DELTA0) + LEN(DELTA_MINUS) + LEN(DELTA_PLUS)));
    for (size_t i = 0; i < LEN(DELTA0); i++)
        assert_int_equal(delta_of(DELTA0[i]), 0);
    for (size_t i = 0; i < LEN(DELTA_MINUS); i++)
        assert_int_equal(delta_of(DELTA_MINUS[i]), -1);
    for (size_t i = 0; i < LEN(DELTA_PLUS); i++)
        assert_int_equal(delta_of(DELTA_PLUS[i]), 1);
}

static void every_admissible_q_up_to_64(void **state)
{
    (void)state;
    for (int32_t q = 3; q <= 64; q++) {
        if (!admissible(q))
            continue;
        moore_graph *g = build_q(q, "");
        int32_t k = degree_of(q);
        int64_t n = 2 * (int64_t)q * q;
        assert_int_equal(g->n, n);
        assert_int_equal(g->m, (int64_t)q * q * k);
        assert_int_equal(moore_graph_degree_min(g), k);
        assert_int_equal(moore_graph_degree_max(g), k);
        assert_int_equal(diameter_two_or_fail(g), 2);
        if (q <= 13) /* the plain BFS of testutil agrees where it is cheap */
            assert_int_equal(tu_diameter(g), 2);
        /* Default endpoints ⌈k'/2⌉ on every switch. */
        for (int32_t v = 0; v < g->n; v++)
            assert_int_equal(g->endpoints[v], (k + 1) / 2);
        /* The closed forms agree with the built graph. */
        char spec[64];
        snprintf(spec, sizeof spec, "slimfly:q=%d", (int)q);
        moore_counts c;
        moore_error err;
        assert_int_equal(moore_spec_counts(spec, &c, &err), MOORE_OK);
        assert_int_equal(c.switches, g->n);
        assert_int_equal(c.links, g->m);
        assert_int_equal(c.degree_min, k);
        assert_int_equal(c.degree_max, k);
        assert_int_equal(c.endpoints, moore_graph_endpoints_total(g));
        assert_int_equal(c.diameter, 2);
        moore_graph_free(g);
    }
}

/* The library's own all-pairs code agrees at a mid size (q = 16: 512 switches). */
static void library_paths_agree(void **state)
{
    (void)state;
    const int32_t qs[] = { 7, 16 };
    for (size_t i = 0; i < LEN(qs); i++) {
        moore_graph *g = build_q(qs[i], "");
        moore_metric_options o;
        moore_metric_options_default(&o);
        moore_paths_result r;
        moore_error err;
        assert_int_equal(moore_paths_compute(g, &o, &r, &err), MOORE_OK);
        assert_true(r.connected);
        assert_int_equal(r.diameter, 2);
        /* Pairs at distance 1 are the 2m ordered links; the rest are at 2. */
        assert_int_equal(r.histogram[1], 2 * g->m);
        assert_int_equal(r.histogram[2], (int64_t)g->n * (g->n - 1) - 2 * g->m);
        moore_paths_result_clear(&r);
        moore_graph_free(g);
    }
}

/* ---- every link against the SPEC rule ---- */

/* This test's field: tables of its own for prime q, copies of the library's
 * (checked by test_field.c) for prime powers. */
typedef struct tfield {
    int32_t q, xi;
    int32_t *add, *mul, *neg;
} tfield;

/* Smallest primitive root mod a prime, by computing every element's order. */
static int32_t smallest_primitive_root(int32_t q)
{
    for (int32_t g = 2; g < q; g++) {
        int32_t x = g, order = 1;
        while (x != 1) {
            x = x * g % q;
            order++;
        }
        if (order == q - 1)
            return g;
    }
    return q == 2 ? 1 : -1;
}

static void tfield_init(tfield *t, int32_t q)
{
    t->q = q;
    t->add = malloc((size_t)q * q * sizeof *t->add);
    t->mul = malloc((size_t)q * q * sizeof *t->mul);
    t->neg = malloc((size_t)q * sizeof *t->neg);
    moore_gf *f;
    moore_error err;
    assert_int_equal(moore_gf_new(q, &f, &err), MOORE_OK);
    if (moore_is_prime(q)) {
        for (int32_t a = 0; a < q; a++) {
            t->neg[a] = (q - a) % q;
            for (int32_t b = 0; b < q; b++) {
                t->add[a * q + b] = (a + b) % q;
                t->mul[a * q + b] = a * b % q;
            }
        }
        /* field.h documents ξ as the smallest element of order q − 1. */
        t->xi = smallest_primitive_root(q);
        assert_int_equal(f->primitive, t->xi);
    } else {
        memcpy(t->add, f->add, (size_t)q * q * sizeof *t->add);
        memcpy(t->mul, f->mul, (size_t)q * q * sizeof *t->mul);
        memcpy(t->neg, f->neg, (size_t)q * sizeof *t->neg);
        t->xi = f->primitive;
    }
    moore_gf_free(f);
}

static void tfield_free(tfield *t)
{
    free(t->add);
    free(t->mul);
    free(t->neg);
}

/* X as docs/slimfly.md lists it, by powers of ξ; for δ = 1 also checked to be the
 * quadratic residues, which do not depend on ξ at all. */
static void generator_sets(const tfield *t, char *inx, char *inxp)
{
    int32_t q = t->q, d = delta_of(q), w = (q - d) / 4;
    memset(inx, 0, (size_t)q);
    memset(inxp, 0, (size_t)q);
    int32_t pw = 1;
    for (int32_t i = 0; i < q - 1; i++, pw = t->mul[pw * q + t->xi]) {
        int in;
        if (d == 1)
            in = i % 2 == 0 && i <= q - 3;
        else if (d == 0)
            in = i % 2 == 0 && i <= q - 2;
        else
            in = (i % 2 == 0 && i <= 2 * w - 2) || (i % 2 == 1 && i >= 2 * w - 1 && i <= 4 * w - 3);
        if (in) {
            inx[pw] = 1;
            inxp[t->mul[t->xi * q + pw]] = 1;
        }
    }
    if (d == 1) {
        char qr[256] = { 0 };
        for (int32_t a = 1; a < q; a++)
            qr[t->mul[a * q + a]] = 1;
        for (int32_t a = 0; a < q; a++)
            assert_int_equal(inx[a], qr[a]);
    }
}

/* The SPEC rule for switches u and v under the documented numbering. */
static int spec_adjacent(const tfield *t, const char *inx, const char *inxp, int32_t u, int32_t v)
{
    int32_t q = t->q, q2 = q * q;
    if (u == v)
        return 0;
    if (u > v) {
        int32_t s = u;
        u = v;
        v = s;
    }
    int32_t gu = u / q2, au = u % q2 / q, bu = u % q;
    int32_t gv = v / q2, av = v % q2 / q, bv = v % q;
    int32_t diff = t->add[bu * q + t->neg[bv]];
    if (gu == 0 && gv == 0)
        return au == av && inx[diff];
    if (gu == 1)
        return au == av && inxp[diff];
    /* u = (0,x,y), v = (1,m,c): y = m·x + c. */
    return bu == t->add[t->mul[av * q + au] * q + bv];
}

static void links_follow_the_spec_rule(void **state)
{
    (void)state;
    moore_rng rng;
    moore_rng_seed(&rng, 5);
    for (int32_t q = 3; q <= 64; q++) {
        if (!admissible(q))
            continue;
        tfield t;
        tfield_init(&t, q);
        char *inx = malloc((size_t)q), *inxp = malloc((size_t)q);
        generator_sets(&t, inx, inxp);
        moore_graph *g = build_q(q, "");
        /* All rows for small q, 12 random rows (all N columns each) above. */
        int32_t rows = q <= 13 ? g->n : 12;
        for (int32_t r = 0; r < rows; r++) {
            int32_t u = q <= 13 ? r : (int32_t)moore_rng_below(&rng, (uint64_t)g->n);
            int32_t deg = 0;
            for (int32_t v = 0; v < g->n; v++) {
                int want = spec_adjacent(&t, inx, inxp, u, v);
                if (want != moore_graph_has_link(g, u, v)) {
                    print_error("q=%d: switches %d and %d: rule says %d\n", (int)q, (int)u,
                                (int)v, want);
                    fail();
                }
                deg += want;
            }
            assert_int_equal(deg, degree_of(q));
        }
        moore_graph_free(g);
        free(inx);
        free(inxp);
        tfield_free(&t);
    }
}

/* ---- q = 5 is Hoffman–Singleton ---- */

/* Strongly regular (50, 7, 0, 1): adjacent switches share no neighbour
 * (no triangle), others exactly one (no 4-cycle, diameter 2) — so girth 5. */
static void check_srg_50_7_0_1(const moore_graph *g)
{
    assert_int_equal(g->n, 50);
    assert_int_equal(moore_graph_degree_min(g), 7);
    assert_int_equal(moore_graph_degree_max(g), 7);
    for (int32_t u = 0; u < 50; u++)
        for (int32_t v = u + 1; v < 50; v++) {
            int common = 0;
            for (int32_t w = 0; w < 50; w++)
                common += moore_graph_has_link(g, u, w) && moore_graph_has_link(g, v, w);
            assert_int_equal(common, moore_graph_has_link(g, u, v) ? 0 : 1);
        }
}

/* Adjacency spectrum by LAPACKE_dsyev, rounded and counted. */
static void check_hs_spectrum(const moore_graph *g)
{
    int n = g->n;
    double *a = calloc((size_t)n * n, sizeof *a), *ev = malloc((size_t)n * sizeof *ev);
    for (int32_t u = 0; u < n; u++)
        for (int64_t i = g->offs[u]; i < g->offs[u + 1]; i++)
            a[(size_t)u * n + g->adj[i]] = 1.0;
    assert_int_equal(LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', n, a, n, ev), 0);
    int c7 = 0, c2 = 0, cm3 = 0;
    for (int i = 0; i < n; i++) {
        if (fabs(ev[i] - 7) < 1e-8)
            c7++;
        else if (fabs(ev[i] - 2) < 1e-8)
            c2++;
        else if (fabs(ev[i] + 3) < 1e-8)
            cm3++;
    }
    assert_int_equal(c7, 1);
    assert_int_equal(c2, 28);
    assert_int_equal(cm3, 21);
    free(a);
    free(ev);
}

/* Backtracking isomorphism search: a's switches in BFS order from 0, each
 * mapped to an unused switch of b adjacent to its parent's image and
 * consistent with every switch mapped so far. */
typedef struct iso {
    const moore_graph *a, *b;
    int32_t order[64], parent[64], map[64], used[64];
    long nodes;
} iso;

static int iso_extend(iso *s, int32_t depth)
{
    if (depth == s->a->n)
        return 1;
    if (++s->nodes > 10000000)
        return 0;
    int32_t u = s->order[depth], pu = s->parent[depth];
    for (int32_t v = 0; v < s->b->n; v++) {
        if (s->used[v] || (pu >= 0 && !moore_graph_has_link(s->b, s->map[pu], v)))
            continue;
        int ok = 1;
        for (int32_t i = 0; ok && i < depth; i++) {
            int32_t w = s->order[i];
            ok = moore_graph_has_link(s->a, u, w) == moore_graph_has_link(s->b, v, s->map[w]);
        }
        if (!ok)
            continue;
        s->map[u] = v;
        s->used[v] = 1;
        if (iso_extend(s, depth + 1))
            return 1;
        s->used[v] = 0;
    }
    return 0;
}

static void slimfly_5_is_hoffman_singleton(void **state)
{
    (void)state;
    moore_graph *sf = build_q(5, "");
    moore_graph *hs = tu_build("hoffman-singleton");
    check_srg_50_7_0_1(sf);
    check_srg_50_7_0_1(hs);
    int32_t girth;
    moore_error err;
    assert_int_equal(moore_girth(sf, &girth, &err), MOORE_OK);
    assert_int_equal(girth, 5);
    /* A Moore graph: N = k² + 1 = M(7, 2), efficiency exactly 1. */
    assert_true(moore_bound(7, 2) == 50.0);
    check_hs_spectrum(sf);
    check_hs_spectrum(hs);

    iso s;
    memset(&s, 0, sizeof s);
    s.a = sf;
    s.b = hs;
    int32_t seen[64] = { 0 }, head = 0, tail = 0;
    s.order[tail] = 0;
    s.parent[tail++] = -1;
    seen[0] = 1;
    while (head < tail) {
        int32_t u = s.order[head++];
        for (int64_t i = sf->offs[u]; i < sf->offs[u + 1]; i++)
            if (!seen[sf->adj[i]]) {
                seen[sf->adj[i]] = 1;
                s.parent[tail] = u;
                s.order[tail++] = sf->adj[i];
            }
    }
    assert_int_equal(tail, 50);
    assert_true(iso_extend(&s, 0));
    /* Check the mapping outright: a bijection taking links to links, with
     * equal link counts, so non-links go to non-links too. */
    int32_t hit[64] = { 0 };
    for (int32_t u = 0; u < 50; u++)
        hit[s.map[u]]++;
    for (int32_t v = 0; v < 50; v++)
        assert_int_equal(hit[v], 1);
    assert_int_equal(sf->m, hs->m);
    for (int32_t u = 0; u < 50; u++)
        for (int64_t i = sf->offs[u]; i < sf->offs[u + 1]; i++)
            assert_true(moore_graph_has_link(hs, s.map[u], s.map[sf->adj[i]]));
    moore_graph_free(sf);
    moore_graph_free(hs);
}

/* ---- refusals ---- */

static void bad_q_refused(void **state)
{
    (void)state;
    const int32_t bad[] = { 2, 6, 10, 12, 14, 15, 18, 21, 0, 1, 100 };
    for (size_t i = 0; i < LEN(bad); i++) {
        char spec[48], want[24];
        snprintf(spec, sizeof spec, "slimfly:q=%d", (int)bad[i]);
        snprintf(want, sizeof want, "q=%d ", (int)bad[i]);
        const char *msg = tu_build_fails(spec, MOORE_EINVAL);
        assert_non_null(strstr(msg, want));
        assert_true(strstr(msg, "prime power") || strstr(msg, "2 mod 4"));
        assert_null(strchr(msg, '\n'));
        moore_counts c;
        moore_error err;
        assert_int_equal(moore_spec_counts(spec, &c, &err), MOORE_EINVAL);
    }
    assert_non_null(strstr(tu_build_fails("slimfly:q=2", MOORE_EINVAL), "2 mod 4"));
    assert_non_null(strstr(tu_build_fails("slimfly:q=6", MOORE_EINVAL), "not a prime power"));
    assert_non_null(strstr(tu_build_fails("slimfly", MOORE_EINVAL), "q="));
    tu_build_fails("slimfly:q=five", MOORE_EINVAL);
    tu_build_fails("slimfly:q=-5", MOORE_EINVAL);
    tu_build_fails("slimfly:q=5,k=3", MOORE_EINVAL);
    /* Beyond the field tables (4096), before anything is allocated. */
    assert_non_null(strstr(tu_build_fails("slimfly:q=4099", MOORE_EINVAL), "q=4099"));
    tu_build_fails("slimfly:q=8192", MOORE_EINVAL);
    /* GF(4096) exists, but the graph (2^25 switches, ~10^11 links) does not fit. */
    tu_build_fails("slimfly:q=4096", MOORE_ETOOBIG);
    /* Its closed forms need no memory. */
    moore_counts c;
    moore_error err;
    assert_int_equal(moore_spec_counts("slimfly:q=4096", &c, &err), MOORE_OK);
    assert_int_equal(c.switches, 2LL * 4096 * 4096);
    assert_int_equal(c.degree_max, 6144);
}

/* ---- p= and radix= ---- */

static int64_t endpoints_of(const char *spec)
{
    moore_graph *g = tu_build(spec);
    int64_t e = moore_graph_endpoints_total(g);
    for (int32_t v = 1; v < g->n; v++)
        assert_int_equal(g->endpoints[v], g->endpoints[0]);
    moore_graph_free(g);
    return e;
}

static void endpoints_p_and_radix(void **state)
{
    (void)state;
    /* q = 13: k' = 19, default p = 10. */
    assert_int_equal(endpoints_of("slimfly:q=13"), 338 * 10);
    assert_int_equal(endpoints_of("slimfly:q=13,p=3"), 338 * 3);
    assert_int_equal(endpoints_of("slimfly:q=13,p=0"), 0);
    assert_int_equal(endpoints_of("slimfly:q=13,radix=48"), 338 * 29);
    assert_int_equal(endpoints_of("slimfly:q=13,radix=20"), 338);
    /* q = 4 (δ = 0): k' = 6, p = 3; q = 3 (δ = −1): k' = 5, p = 3. */
    assert_int_equal(endpoints_of("slimfly:q=4"), 32 * 3);
    assert_int_equal(endpoints_of("slimfly:q=3"), 18 * 3);
    const char *msg = tu_build_fails("slimfly:q=13,radix=19", MOORE_EINVAL);
    assert_non_null(strstr(msg, "q=13"));
    assert_non_null(strstr(msg, "radix=19"));
    tu_build_fails("slimfly:q=37,radix=48", MOORE_EINVAL);
    tu_build_fails("slimfly:q=13,p=2,radix=48", MOORE_EINVAL);
    tu_build_fails("slimfly:q=13,p=-1", MOORE_EINVAL);
    tu_build_fails("slimfly:q=13,radix=x", MOORE_EINVAL);
    /* The commonly quoted 48-port table, by closed forms: switches, k', endpoints. */
    const int64_t table[][4] = {
        { 5, 50, 7, 2050 }, { 13, 338, 19, 9802 }, { 17, 578, 25, 13294 }, { 29, 1682, 43, 8410 }
    };
    for (size_t i = 0; i < LEN(table); i++) {
        char spec[48];
        snprintf(spec, sizeof spec, "slimfly:q=%d,radix=48", (int)table[i][0]);
        moore_counts c;
        moore_error err;
        assert_int_equal(moore_spec_counts(spec, &c, &err), MOORE_OK);
        assert_int_equal(c.switches, table[i][1]);
        assert_int_equal(c.degree_max, table[i][2]);
        assert_int_equal(c.endpoints, table[i][3]);
    }
}

/* ---- labels ---- */

static void labels_name_group_and_coordinates(void **state)
{
    (void)state;
    const int32_t qs[] = { 5, 9, 16 };
    for (size_t i = 0; i < LEN(qs); i++) {
        int32_t q = qs[i];
        moore_graph *g = build_q(q, "");
        assert_non_null(g->labels);
        for (int32_t v = 0; v < g->n; v++) {
            char want[48];
            snprintf(want, sizeof want, "(%d,%d,%d)", (int)(v / (q * q)), (int)(v % (q * q) / q),
                     (int)(v % q));
            assert_non_null(g->labels[v]);
            assert_string_equal(g->labels[v], want);
        }
        assert_string_equal(g->family, "slimfly");
        moore_graph_free(g);
    }
}

/* ---- the planner ---- */

typedef struct plan_list {
    int count;
    int32_t q[512];
} plan_list;

static int collect(void *ctx, const char *spec, moore_error *err)
{
    (void)err;
    plan_list *l = ctx;
    int q, r;
    assert_int_equal(sscanf(spec, "slimfly:q=%d,radix=%d", &q, &r), 2);
    /* Every emitted spec builds its counts. */
    moore_counts c;
    moore_error e;
    assert_int_equal(moore_spec_counts(spec, &c, &e), MOORE_OK);
    assert_true(c.degree_max < r);
    assert_int_equal(c.endpoints, c.switches * (r - c.degree_max));
    assert_true(l->count < 512);
    l->q[l->count++] = q;
    return MOORE_OK;
}

static int plan_has(const plan_list *l, int32_t q)
{
    for (int i = 0; i < l->count; i++)
        if (l->q[i] == q)
            return 1;
    return 0;
}

static void planner(void **state)
{
    (void)state;
    const moore_family *f = moore_family_find("slimfly");
    assert_non_null(f);
    assert_non_null(f->plan);
    moore_error err;
    /* Radix 48: exactly the admissible q with k' < 48 (3..31). */
    plan_list l = { 0, { 0 } };
    assert_int_equal(f->plan(48, 0, collect, &l, &err), MOORE_OK);
    int want = 0;
    for (int32_t q = 3; q < 100; q++)
        if (admissible(q) && degree_of(q) < 48) {
            want++;
            assert_true(plan_has(&l, q));
        }
    assert_int_equal(l.count, want);
    assert_true(plan_has(&l, 31));
    assert_false(plan_has(&l, 32));
    assert_false(plan_has(&l, 37));
    /* A target: the smallest q whose 2q²(48 − k') reaches it is listed. */
    const int64_t targets[] = { 1, 2050, 2051, 10000, 13294 };
    for (size_t t = 0; t < LEN(targets); t++) {
        int32_t best = 0;
        for (int32_t q = 3; q < 100 && !best; q++)
            if (admissible(q) && degree_of(q) < 48 &&
                2LL * q * q * (48 - degree_of(q)) >= targets[t])
                best = q;
        memset(&l, 0, sizeof l);
        assert_int_equal(f->plan(48, targets[t], collect, &l, &err), MOORE_OK);
        assert_true(best > 0);
        assert_true(plan_has(&l, best));
    }
    /* Radix 7 leaves q = 3 (k' = 5) and 4 (k' = 6); radix 6 only q = 3. */
    memset(&l, 0, sizeof l);
    assert_int_equal(f->plan(7, 0, collect, &l, &err), MOORE_OK);
    assert_int_equal(l.count, 2);
    memset(&l, 0, sizeof l);
    assert_int_equal(f->plan(6, 0, collect, &l, &err), MOORE_OK);
    assert_int_equal(l.count, 1);
    memset(&l, 0, sizeof l);
    assert_int_equal(f->plan(5, 0, collect, &l, &err), MOORE_OK);
    assert_int_equal(l.count, 0);
    /* A target beyond the practical-size cut (10^6 switches) is still met. */
    int32_t best = 0;
    for (int32_t q = 3; q <= 4096 && !best; q++)
        if (admissible(q) && degree_of(q) < 2000 && 2LL * q * q * (2000 - degree_of(q)) >= 1000000000)
            best = q;
    assert_true(2LL * best * best > 1000000);
    memset(&l, 0, sizeof l);
    assert_int_equal(f->plan(2000, 1000000000, collect, &l, &err), MOORE_OK);
    assert_true(plan_has(&l, best));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(admissible_set_is_the_three_delta_lists),
        cmocka_unit_test(every_admissible_q_up_to_64),
        cmocka_unit_test(library_paths_agree),
        cmocka_unit_test(links_follow_the_spec_rule),
        cmocka_unit_test(slimfly_5_is_hoffman_singleton),
        cmocka_unit_test(bad_q_refused),
        cmocka_unit_test(endpoints_p_and_radix),
        cmocka_unit_test(labels_name_group_and_coordinates),
        cmocka_unit_test(planner),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
