/* test_symmetry.c — automorphism groups, orbits, canonical forms and
 * isomorphism (Traces), and distances by orbits, against group orders known
 * from theory: |Aut(Petersen)| = 120 = |S_5|, Hoffman–Singleton 252,000,
 * K_n n!, a torus C_a□C_b (a ≠ b, both ≥ 5) |D_a|·|D_b|, C_8□C_8 the wreath
 * product D_8 ≀ S_2 (512), Q_4 2⁴·4! = 384, the k-ary fat-tree
 * k!·(h!)^k·h!·(h!)^h with h = k/2 (pods, twin edge switches, the shared
 * aggregation index, twin core switches), and the star K_{1,n} n!. */
#include "testgraphs.h"
#include "moore/symmetry.h"

#include <math.h>
#include <string.h>

#include <nauty/nausparse.h>

static void symmetry_of(const moore_graph *g, int endpoints, moore_symmetry_result *s)
{
    moore_symmetry_options o;
    moore_error err;
    moore_symmetry_options_default(&o);
    o.respect_endpoints = endpoints;
    if (moore_symmetry_compute(g, &o, s, &err)) {
        print_error("symmetry: %s\n", err.msg);
        fail();
    }
}

static void check_group(moore_graph *g, double order, int32_t orbits)
{
    moore_symmetry_result s;
    symmetry_of(g, 0, &s);
    assert_true(s.group_exact);
    assert_true(s.group_size == order);
    assert_int_equal(s.n_orbits, orbits);
    assert_int_equal(s.vertex_transitive, orbits == 1);
    moore_symmetry_result_clear(&s);
    moore_graph_free(g);
}

static int never_linked(const void *ctx, int32_t u, int32_t v)
{
    (void)ctx;
    (void)u;
    (void)v;
    return 0;
}

static void known_groups(void **state)
{
    (void)state;
    check_group(tu_build("petersen"), 120, 1);
    check_group(tu_build("hoffman-singleton"), 252000, 1);
    check_group(tu_build("complete:n=12"), 479001600.0, 1);
    check_group(tg_torus2(8, 8), 512, 1);
    check_group(tg_torus2(5, 7), 140, 1);
    check_group(tg_hypercube(4), 384, 1);
    check_group(tg_fattree(4), 3072, 3);
    /* No links (empty CSR arrays): every permutation, 3! = 6, one orbit. */
    check_group(tu_graph_from_rule(3, never_linked, NULL), 6, 1);
}

static void huge_groups_in_floating_point(void **state)
{
    (void)state;
    /* Fat-tree k=6: 6!·(3!)^6·3!·(3!)^3 ≈ 4.35e10, past nauty's exact range. */
    moore_graph *g = tg_fattree(6);
    moore_symmetry_result s;
    symmetry_of(g, 0, &s);
    double expect = 720.0 * pow(6, 6) * 6 * pow(6, 3);
    assert_true(fabs(s.group_log10 - log10(expect)) < 1e-9);
    assert_false(s.vertex_transitive);
    assert_int_equal(s.n_orbits, 3);
    moore_symmetry_result_clear(&s);
    moore_graph_free(g);
    /* Star K_{1,200}: 200! ≈ 10^374.9 overflows a double; log10 stays exact. */
    int32_t links[200][2];
    for (int i = 0; i < 200; i++) {
        links[i][0] = 0;
        links[i][1] = i + 1;
    }
    g = tg_from_links(201, links, 200);
    symmetry_of(g, 0, &s);
    assert_false(s.group_exact);
    assert_true(isinf(s.group_size));
    assert_true(fabs(s.group_log10 - lgamma(201.0) / log(10.0)) < 1e-6);
    assert_int_equal(s.n_orbits, 2);
    moore_symmetry_result_clear(&s);
    moore_graph_free(g);
}

static void endpoints_as_colours(void **state)
{
    (void)state;
    /* Marking one Petersen switch leaves its stabiliser, of order 120/10, with
     * orbits {v}, its 3 neighbours and the 6 switches at distance 2. */
    moore_graph *g = tu_build("petersen");
    g->endpoints[0] = 5;
    moore_symmetry_result s;
    symmetry_of(g, 1, &s);
    assert_true(s.group_size == 12);
    assert_int_equal(s.n_orbits, 3);
    moore_symmetry_result_clear(&s);
    symmetry_of(g, 0, &s);
    assert_true(s.group_size == 120);
    moore_symmetry_result_clear(&s);
    moore_graph_free(g);
}

/* Checks every link of a maps to a link of b under map (a bijection). */
static void check_mapping(const moore_graph *a, const moore_graph *b, const int32_t *map)
{
    char *seen = calloc((size_t)a->n, 1);
    for (int32_t v = 0; v < a->n; v++) {
        assert_true(map[v] >= 0 && map[v] < b->n);
        assert_false(seen[map[v]]);
        seen[map[v]] = 1;
        for (int64_t k = a->offs[v]; k < a->offs[v + 1]; k++)
            assert_true(moore_graph_has_link(b, map[v], map[a->adj[k]]));
    }
    free(seen);
}

static int iso(const moore_graph *a, const moore_graph *b, int32_t *map)
{
    int result = -1;
    moore_error err;
    assert_int_equal(moore_isomorphic(a, b, NULL, &result, map, &err), MOORE_OK);
    return result;
}

static void slimfly_q5_is_hoffman_singleton(void **state)
{
    (void)state;
    moore_graph *mms = tg_mms(5), *hs = tu_build("hoffman-singleton");
    assert_int_equal(mms->n, 50);
    assert_int_equal(moore_graph_degree_min(mms), 7);
    assert_int_equal(moore_graph_degree_max(mms), 7);
    int32_t map[50];
    assert_int_equal(iso(mms, hs, map), 1);
    check_mapping(mms, hs, map);
    /* A random 7-regular graph on 50 switches (Jellyfish of the same size and
     * degree) is not: Hoffman–Singleton is the unique Moore graph there. */
    moore_graph *jf = tg_random_regular(50, 7, 11);
    assert_int_equal(iso(mms, jf, NULL), 0);
    moore_symmetry_result a, b;
    symmetry_of(mms, 0, &a);
    symmetry_of(hs, 0, &b);
    assert_true(a.canonical_hash == b.canonical_hash);
    moore_symmetry_result_clear(&b);
    symmetry_of(jf, 0, &b);
    assert_true(a.canonical_hash != b.canonical_hash);
    moore_symmetry_result_clear(&a);
    moore_symmetry_result_clear(&b);
    moore_graph_free(mms);
    moore_graph_free(hs);
    moore_graph_free(jf);
}

/* The group as plain nauty (sparsenauty, a different search from Traces)
 * finds it: order as mantissa/exponent and the number of orbits. */
static void nauty_group(const moore_graph *g, double *order, int *exp10, int *orbits)
{
    DEFAULTOPTIONS_SPARSEGRAPH(opts);
    statsblk stats;
    SG_DECL(sg);
    int n = g->n;
    int *lab = malloc((size_t)n * sizeof *lab), *ptn = malloc((size_t)n * sizeof *ptn);
    int *orb = malloc((size_t)n * sizeof *orb);
    SG_ALLOC(sg, (size_t)n, (size_t)(2 * g->m), "test");
    sg.nv = n;
    sg.nde = (size_t)(2 * g->m);
    for (int v = 0; v < n; v++) {
        sg.v[v] = (size_t)g->offs[v];
        sg.d[v] = moore_graph_degree(g, v);
    }
    for (int64_t k = 0; k < 2 * g->m; k++)
        sg.e[k] = g->adj[k];
    sparsenauty(&sg, lab, ptn, orb, &opts, &stats, NULL);
    *order = stats.grpsize1;
    *exp10 = stats.grpsize2;
    *orbits = stats.numorbits;
    SG_FREE(sg);
    nausparse_freedyn();
    nauty_freedyn();
    free(lab);
    free(ptn);
    free(orb);
}

static void slimfly_vertex_transitivity_as_nauty_finds_it(void **state)
{
    (void)state;
    /* The seed calls Slim Fly vertex-transitive. Traces and plain nauty agree
     * that the MMS graph is for δ = 1 (q ≡ 1 mod 4: 5, 9, 13) and is not for
     * δ = −1 (q = 7) or δ = 0 (q = 8), where the two halves (0,·,·) and
     * (1,·,·) are the two orbits. */
    const int32_t qs[] = { 5, 7, 8, 9, 13 };
    for (size_t i = 0; i < sizeof qs / sizeof *qs; i++) {
        int32_t q = qs[i], delta = q % 4 == 1 ? 1 : q % 4 == 0 ? 0 : -1;
        moore_graph *g = tg_mms(q);
        assert_int_equal(g->n, 2 * q * q);
        assert_int_equal(moore_graph_degree_min(g), (3 * q - delta) / 2);
        assert_int_equal(moore_graph_degree_max(g), (3 * q - delta) / 2);
        assert_int_equal(tu_diameter(g), 2);
        moore_symmetry_result s;
        symmetry_of(g, 0, &s);
        print_message("slimfly q=%d: |Aut| = %.0f, %d orbit(s)\n", (int)q, s.group_size,
                      (int)s.n_orbits);
        double order;
        int exp10, orbits;
        nauty_group(g, &order, &exp10, &orbits);
        assert_int_equal(exp10, 0);
        assert_true(order == s.group_size);
        assert_int_equal(orbits, s.n_orbits);
        assert_true(s.group_exact);
        assert_int_equal(s.vertex_transitive, delta == 1);
        if (delta != 1) {
            assert_int_equal(s.n_orbits, 2);
            for (int32_t v = 0; v < g->n; v++)
                assert_int_equal(s.orbits[v], v < q * q ? 0 : q * q);
        }
        /* An orbit's size divides the group order. */
        assert_true(fmod(s.group_size, (double)g->n / s.n_orbits) == 0);
        moore_symmetry_result_clear(&s);
        moore_graph_free(g);
    }
}

static void canonical_form_ignores_labels(void **state)
{
    (void)state;
    moore_graph *graphs[] = { tg_fattree(4), tg_random_regular(60, 5, 3), tg_mms(7),
                              tg_torus2(6, 9) };
    for (size_t i = 0; i < sizeof graphs / sizeof *graphs; i++) {
        moore_graph *g = graphs[i];
        int32_t *perm;
        moore_graph *h = tg_relabel(g, 100 + i, &perm);
        moore_symmetry_result a, b;
        symmetry_of(g, 1, &a);
        symmetry_of(h, 1, &b);
        assert_true(a.canonical_hash == b.canonical_hash);
        assert_true(a.group_size == b.group_size);
        assert_int_equal(a.n_orbits, b.n_orbits);
        /* Orbits correspond through the relabelling. */
        for (int32_t u = 0; u < g->n; u++)
            for (int32_t v = u + 1; v < g->n && v < u + 8; v++)
                assert_int_equal(a.orbits[u] == a.orbits[v],
                                 b.orbits[perm[u]] == b.orbits[perm[v]]);
        moore_symmetry_result_clear(&a);
        moore_symmetry_result_clear(&b);
        int32_t *map = malloc((size_t)g->n * sizeof *map);
        assert_int_equal(iso(g, h, map), 1);
        check_mapping(g, h, map);
        free(map);
        free(perm);
        moore_graph_free(h);
    }
    /* Different graphs of equal size and degree differ. */
    assert_int_equal(iso(graphs[1], graphs[3], NULL), 0);
    moore_graph *r2 = tg_random_regular(60, 5, 4);
    assert_int_equal(iso(graphs[1], r2, NULL), 0);
    moore_graph_free(r2);
    for (size_t i = 0; i < sizeof graphs / sizeof *graphs; i++)
        moore_graph_free(graphs[i]);
}

static void isomorphism_respects_endpoints_on_request(void **state)
{
    (void)state;
    moore_graph *a = tu_build("petersen"), *b = tg_relabel(a, 9, NULL);
    b->endpoints[3] = 2;
    moore_symmetry_options o;
    moore_error err;
    int result;
    moore_symmetry_options_default(&o);
    assert_int_equal(moore_isomorphic(a, b, &o, &result, NULL, &err), MOORE_OK);
    assert_int_equal(result, 1);
    o.respect_endpoints = 1;
    assert_int_equal(moore_isomorphic(a, b, &o, &result, NULL, &err), MOORE_OK);
    assert_int_equal(result, 0);
    a->endpoints[7] = 2;   /* now both have one marked switch */
    assert_int_equal(moore_isomorphic(a, b, &o, &result, NULL, &err), MOORE_OK);
    assert_int_equal(result, 1);
    moore_graph_free(a);
    moore_graph_free(b);
}

static void check_paths_equal(const moore_paths_result *x, const moore_paths_result *y)
{
    assert_int_equal(x->connected, y->connected);
    assert_int_equal(x->components, y->components);
    assert_int_equal(x->diameter, y->diameter);
    assert_int_equal(x->histogram_len, y->histogram_len);
    for (int32_t d = 0; d < x->histogram_len; d++)
        assert_int_equal(x->histogram[d], y->histogram[d]);
    if (x->connected)
        assert_true(fabs(x->avg_path_length - y->avg_path_length) < 1e-12);
}

static void distances_by_orbits_equal_plain(void **state)
{
    (void)state;
    int32_t two_triangles[][2] = { { 0, 1 }, { 1, 2 }, { 0, 2 }, { 3, 4 }, { 4, 5 }, { 3, 5 } };
    moore_graph *graphs[] = { tg_torus2(8, 8), tg_fattree(4), tg_mms(7), tg_mms(8),
                              tg_random_regular(40, 3, 5), tu_build("petersen"),
                              tg_from_links(6, two_triangles, 6) };
    moore_error err;
    for (size_t i = 0; i < sizeof graphs / sizeof *graphs; i++) {
        moore_symmetry_result s;
        symmetry_of(graphs[i], 0, &s);
        moore_paths_result a, b;
        assert_int_equal(moore_paths_compute(graphs[i], NULL, &a, &err), MOORE_OK);
        assert_int_equal(moore_paths_by_orbits(graphs[i], s.orbits, NULL, &b, &err), MOORE_OK);
        check_paths_equal(&a, &b);
        moore_paths_result_clear(&a);
        moore_paths_result_clear(&b);
        moore_symmetry_result_clear(&s);
        moore_graph_free(graphs[i]);
    }
    /* A bad orbit labelling is refused. */
    moore_graph *g = tu_build("petersen");
    int32_t bad[10] = { 0, 0, 1, 0, 0, 0, 0, 0, 0, 0 };
    moore_paths_result r;
    assert_int_equal(moore_paths_by_orbits(g, bad, NULL, &r, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "orbits[2]"));
    moore_graph_free(g);
}

static void paths_auto_uses_orbits_only_when_they_pay(void **state)
{
    (void)state;
    moore_error err;
    moore_paths_result a, b;
    int32_t used;
    /* A 48×48 torus (2304 switches) is vertex-transitive, but its all-pairs
     * work (48·9216·2304/64 ≈ 1.6·10^7 words) is below the threshold: plain. */
    moore_graph *g = tg_torus2(48, 48);
    assert_int_equal(moore_paths_auto(g, NULL, &a, &used, &err), MOORE_OK);
    assert_int_equal(used, 0);
    moore_paths_result_clear(&a);
    moore_graph_free(g);
    /* A 128×128 torus: ecc 128, so 128·65536·16384/64 ≈ 2.1·10^9 words, above
     * the threshold, and vertex-transitive: one BFS by orbits. */
    g = tg_torus2(128, 128);
    assert_int_equal(moore_paths_auto(g, NULL, &a, &used, &err), MOORE_OK);
    assert_int_equal(used, 1);
    assert_int_equal(moore_paths_compute(g, NULL, &b, &err), MOORE_OK);
    check_paths_equal(&a, &b);
    assert_int_equal(a.diameter, 128);
    moore_paths_result_clear(&a);
    moore_paths_result_clear(&b);
    moore_graph_free(g);
    /* A random regular graph has distinct local invariants: no symmetry step. */
    g = tg_random_regular(2100, 6, 8);
    assert_int_equal(moore_paths_auto(g, NULL, &a, &used, &err), MOORE_OK);
    assert_int_equal(used, 0);
    moore_paths_result_clear(&a);
    moore_graph_free(g);
    /* K_{2,2100}: symmetric, but all twins (Traces' slow case): plain. */
    int32_t (*links)[2] = malloc(4200 * sizeof *links);
    for (int32_t i = 0; i < 2100; i++) {
        links[2 * i][0] = 0;
        links[2 * i + 1][0] = 1;
        links[2 * i][1] = links[2 * i + 1][1] = 2 + i;
    }
    g = tg_from_links(2102, (const int32_t(*)[2])links, 4200);
    free(links);
    assert_int_equal(moore_paths_auto(g, NULL, &a, &used, &err), MOORE_OK);
    assert_int_equal(used, 0);
    assert_int_equal(a.diameter, 2);
    moore_paths_result_clear(&a);
    moore_graph_free(g);
    /* Below the size threshold the plain method runs. */
    g = tg_torus2(8, 8);
    assert_int_equal(moore_paths_auto(g, NULL, &a, &used, &err), MOORE_OK);
    assert_int_equal(used, 0);
    assert_int_equal(a.diameter, 8);
    moore_paths_result_clear(&a);
    moore_graph_free(g);
}

static void metric_group_keys(void **state)
{
    (void)state;
    moore_graph *g = tu_build("hoffman-singleton");
    moore_report r;
    moore_error err;
    moore_report_init(&r);
    assert_int_equal(moore_metrics_compute(g, "symmetry", NULL, &r, &err), MOORE_OK);
    const moore_report_item *it = moore_report_get(&r, "automorphisms");
    assert_non_null(it);
    assert_int_equal(it->type, MOORE_VALUE_INT);
    assert_int_equal(it->i, 252000);
    assert_true(moore_report_number(&r, "orbits") == 1);
    assert_true(moore_report_number(&r, "vertex_transitive") == 1);
    it = moore_report_get(&r, "canonical_hash");
    assert_non_null(it);
    assert_int_equal(it->type, MOORE_VALUE_STRING);
    assert_int_equal(strlen(it->s), 16);
    moore_report_clear(&r);
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(known_groups),
        cmocka_unit_test(huge_groups_in_floating_point),
        cmocka_unit_test(endpoints_as_colours),
        cmocka_unit_test(slimfly_q5_is_hoffman_singleton),
        cmocka_unit_test(slimfly_vertex_transitivity_as_nauty_finds_it),
        cmocka_unit_test(canonical_form_ignores_labels),
        cmocka_unit_test(isomorphism_respects_endpoints_on_request),
        cmocka_unit_test(distances_by_orbits_equal_plain),
        cmocka_unit_test(paths_auto_uses_orbits_only_when_they_pay),
        cmocka_unit_test(metric_group_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
