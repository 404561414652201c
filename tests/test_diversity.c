/* test_diversity.c — shortest-path multiplicity and edge-disjoint paths
 * against theory and exhaustive search: a Moore graph (girth 5, diameter 2)
 * has exactly one shortest path per pair; in Q_d a pair at Hamming distance k
 * has k! shortest paths; in C_8□C_8 the farthest pair has C(8,4)·2·2 = 280;
 * a connected vertex-transitive d-regular graph has edge connectivity d
 * (Mader), so every pair of a Slim Fly q ≡ 1 mod 4 has d edge-disjoint paths;
 * and on small random graphs every pair's max-flow equals the smallest cut
 * found by enumerating every vertex subset (Menger). */
#include "testgraphs.h"
#include "moore/diversity.h"

#include <math.h>
#include <string.h>

static moore_diversity_result diversity(const moore_graph *g, const moore_diversity_options *o)
{
    moore_diversity_result d;
    moore_error err;
    if (moore_diversity_compute(g, o, NULL, &d, &err)) {
        print_error("diversity: %s\n", err.msg);
        fail();
    }
    return d;
}

static void moore_graphs_have_unique_shortest_paths(void **state)
{
    (void)state;
    const char *specs[] = { "petersen", "hoffman-singleton" };
    const int32_t degree[] = { 3, 7 };
    for (int i = 0; i < 2; i++) {
        moore_graph *g = tu_build(specs[i]);
        moore_diversity_result d = diversity(g, NULL);
        assert_true(d.valid);
        assert_true(d.sp_min == 1 && d.sp_max == 1 && d.sp_mean == 1);
        assert_int_equal(d.sp_hist_len, 1);
        assert_int_equal(d.sp_hist[0], (int64_t)g->n * (g->n - 1));
        assert_true(d.sp_exact);
        assert_int_equal(d.dp_min, degree[i]);
        assert_int_equal(d.dp_max, degree[i]);
        assert_true(d.dp_exact);
        assert_int_equal(d.dp_pairs, (int64_t)g->n * (g->n - 1) / 2);
        moore_graph_free(g);
    }
}

static void hypercube_and_torus_path_counts(void **state)
{
    (void)state;
    moore_graph *g = tg_hypercube(4);
    moore_diversity_result d = diversity(g, NULL);
    /* 16·C(4,k) ordered pairs at distance k, each with k! paths. */
    assert_int_equal(d.sp_hist_len, 24);
    assert_int_equal(d.sp_hist[0], 64);
    assert_int_equal(d.sp_hist[1], 96);
    assert_int_equal(d.sp_hist[5], 64);
    assert_int_equal(d.sp_hist[23], 16);
    assert_true(d.sp_max == 24);
    assert_true(fabs(d.sp_mean - (64 * 1 + 96 * 2 + 64 * 6 + 16 * 24) / 240.0) < 1e-12);
    assert_int_equal(d.dp_min, 4);      /* Q_d is d-edge-connected */
    moore_graph_free(g);

    g = tg_torus2(8, 8);
    d = diversity(g, NULL);
    assert_true(d.sp_min == 1);
    assert_true(d.sp_max == 280);
    assert_int_equal(d.sp_hist_len, MOORE_SP_HIST);   /* 280 lands in the last bucket */
    int64_t total = 0;
    for (int i = 0; i < d.sp_hist_len; i++)
        total += d.sp_hist[i];
    assert_int_equal(total, 64 * 63);
    assert_int_equal(d.dp_min, 4);
    assert_int_equal(d.dp_max, 4);
    moore_graph_free(g);
}

static void slimfly_has_degree_many_disjoint_paths(void **state)
{
    (void)state;
    const int32_t qs[] = { 5, 9, 13 };   /* δ = 1: vertex-transitive */
    for (int i = 0; i < 3; i++) {
        moore_graph *g = tg_mms(qs[i]);
        int32_t deg = moore_graph_degree_max(g);
        moore_diversity_result d = diversity(g, NULL);
        print_message("slimfly q=%d: disjoint paths min %d max %d (d = %d), shortest paths "
                      "max %.0f\n", (int)qs[i], (int)d.dp_min, (int)d.dp_max, (int)deg,
                      d.sp_max);
        assert_int_equal(d.dp_min, deg);
        assert_int_equal(d.dp_max, deg);
        assert_true(d.dp_exact);
        moore_graph_free(g);
    }
    /* q = 7 (δ = −1) is not vertex-transitive, but still 11-edge-connected. */
    moore_graph *g = tg_mms(7);
    moore_diversity_result d = diversity(g, NULL);
    assert_int_equal(d.dp_min, 11);
    moore_graph_free(g);
}

/* Smallest s–t cut over every vertex subset. */
static int32_t brute_local_connectivity(const moore_graph *g, int32_t s, int32_t t)
{
    int32_t best = INT32_MAX;
    for (uint32_t set = 0; set < 1u << g->n; set++) {
        if (!(set >> s & 1) || (set >> t & 1))
            continue;
        int32_t cut = 0;
        for (int32_t v = 0; v < g->n; v++)
            if (set >> v & 1)
                for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
                    cut += !(set >> g->adj[k] & 1);
        best = cut < best ? cut : best;
    }
    return best;
}

static void flows_match_exhaustive_cuts(void **state)
{
    (void)state;
    moore_rng rng;
    moore_rng_seed(&rng, 5);
    for (int trial = 0; trial < 6; trial++) {
        /* A random connected irregular graph: a spanning path plus random links. */
        int32_t n = 9 + trial % 4;
        moore_builder *b;
        moore_error err;
        assert_int_equal(moore_builder_new(n, 0, &b, &err), MOORE_OK);
        char used[16][16] = { { 0 } };
        for (int32_t v = 0; v + 1 < n; v++) {
            tg_link(b, v, v + 1);
            used[v][v + 1] = used[v + 1][v] = 1;
        }
        for (int extra = 0; extra < 2 * n; extra++) {
            int32_t u = (int32_t)moore_rng_below(&rng, (uint64_t)n);
            int32_t v = (int32_t)moore_rng_below(&rng, (uint64_t)n);
            if (u != v && !used[u][v]) {
                tg_link(b, u, v);
                used[u][v] = used[v][u] = 1;
            }
        }
        moore_graph *g = tg_finish(b);
        int32_t mn = INT32_MAX, mx = 0;
        int64_t sum = 0;
        for (int32_t s = 0; s < n; s++)
            for (int32_t t = s + 1; t < n; t++) {
                int32_t exact = brute_local_connectivity(g, s, t), flow;
                assert_int_equal(moore_edge_disjoint_paths(g, s, t, &flow, &err), MOORE_OK);
                assert_int_equal(flow, exact);
                mn = exact < mn ? exact : mn;
                mx = exact > mx ? exact : mx;
                sum += exact;
            }
        /* All pairs through Gusfield's flow tree agree with the pairwise truth. */
        moore_diversity_result d = diversity(g, NULL);
        assert_int_equal(d.dp_min, mn);
        assert_int_equal(d.dp_max, mx);
        assert_true(fabs(d.dp_mean - (double)sum / (n * (n - 1) / 2)) < 1e-12);
        moore_graph_free(g);
    }
}

static void fattree_edge_switches(void **state)
{
    (void)state;
    moore_graph *g = tg_fattree(4);
    moore_error err;
    int32_t flow;
    /* Two edge switches in different pods: k/2 = 2 uplinks each. */
    assert_int_equal(moore_edge_disjoint_paths(g, 0, 7, &flow, &err), MOORE_OK);
    assert_int_equal(flow, 2);
    /* Two core switches: 4 links each, 4 disjoint paths through the pods. */
    assert_int_equal(moore_edge_disjoint_paths(g, 16, 19, &flow, &err), MOORE_OK);
    assert_int_equal(flow, 4);
    moore_diversity_result d = diversity(g, NULL);
    assert_int_equal(d.dp_min, 2);
    assert_int_equal(d.dp_max, 4);
    /* Most shortest paths: two core switches of different groups, through
     * any of the k pods and any of its k/2 edge switches: 4·2 = 8. */
    assert_true(d.sp_max == 8);
    assert_true(d.sp_min == 1);
    moore_graph_free(g);
}

static void sampled_mode_is_seeded_and_says_so(void **state)
{
    (void)state;
    moore_graph *g = tg_random_regular(120, 4, 2);
    moore_diversity_options o;
    moore_diversity_options_default(&o);
    o.exact_max_switches = 50;
    o.sample_pairs = 300;
    o.sp_exact_max_switches = 50;
    o.sp_sample_sources = 20;
    moore_diversity_result a = diversity(g, &o), b = diversity(g, &o);
    assert_false(a.dp_exact);
    assert_int_equal(a.dp_pairs, 300);
    assert_false(a.sp_exact);
    assert_int_equal(a.sp_sources, 20);
    assert_true(a.dp_mean == b.dp_mean && a.sp_mean == b.sp_mean);
    assert_memory_equal(a.sp_hist, b.sp_hist, sizeof a.sp_hist);
    /* The exact run bounds the sample. */
    moore_diversity_result e = diversity(g, NULL);
    assert_true(e.dp_exact && e.sp_exact);
    assert_true(e.dp_min <= a.dp_min && a.dp_max <= e.dp_max);
    assert_true(e.sp_min <= a.sp_min && a.sp_max <= e.sp_max);
    moore_graph_free(g);
}

static void bad_input_and_disconnected(void **state)
{
    (void)state;
    moore_graph *g = tu_build("petersen");
    moore_error err;
    int32_t flow;
    assert_int_equal(moore_edge_disjoint_paths(g, 3, 3, &flow, &err), MOORE_EINVAL);
    assert_int_equal(moore_edge_disjoint_paths(g, 0, 10, &flow, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "10"));
    moore_graph_free(g);

    int32_t links[][2] = { { 0, 1 }, { 2, 3 } };
    g = tg_from_links(4, links, 2);
    moore_diversity_result d = diversity(g, NULL);
    assert_false(d.valid);
    moore_report r;
    moore_report_init(&r);
    assert_int_equal(moore_metrics_compute(g, "diversity", NULL, &r, &err), MOORE_OK);
    assert_int_equal(moore_report_get(&r, "disjoint_paths_min")->type, MOORE_VALUE_NULL);
    assert_int_equal(moore_report_get(&r, "shortest_paths_max")->type, MOORE_VALUE_NULL);
    moore_report_clear(&r);
    moore_graph_free(g);
}

static void metric_group_keys(void **state)
{
    (void)state;
    moore_graph *g = tu_build("petersen");
    moore_report r;
    moore_error err;
    moore_report_init(&r);
    assert_int_equal(moore_metrics_compute(g, "diversity", NULL, &r, &err), MOORE_OK);
    const char *keys[] = { "shortest_paths_min", "shortest_paths_mean", "shortest_paths_max",
                           "shortest_paths_histogram", "disjoint_paths_min",
                           "disjoint_paths_mean", "disjoint_paths_max", "disjoint_paths_pairs",
                           "disjoint_paths_exact" };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        assert_non_null(moore_report_get(&r, keys[i]));
    assert_true(moore_report_number(&r, "disjoint_paths_min") == 3);
    assert_true(moore_report_number(&r, "disjoint_paths_pairs") == 45);
    assert_true(moore_report_number(&r, "disjoint_paths_exact") == 1);
    moore_report_clear(&r);
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(moore_graphs_have_unique_shortest_paths),
        cmocka_unit_test(hypercube_and_torus_path_counts),
        cmocka_unit_test(slimfly_has_degree_many_disjoint_paths),
        cmocka_unit_test(flows_match_exhaustive_cuts),
        cmocka_unit_test(fattree_edge_switches),
        cmocka_unit_test(sampled_mode_is_seeded_and_says_so),
        cmocka_unit_test(bad_input_and_disconnected),
        cmocka_unit_test(metric_group_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
