/* test_resilience.c — failure resilience (include/moore/resilience.h) against
 * theory and an independent computation: a tree disconnects at the first link
 * removal, a ring at the second (fraction exactly 2/n), K_n survives n−2
 * switch failures; the union-find disconnection count equals a brute-force
 * BFS after every removal, trial by trial; a failure level of 0 gives the
 * unfailed metrics exactly; draws fail exactly the requested counts; racks and
 * bundles from hand-made rack arrays give closed-form survivors; the same
 * seed gives the same bytes for 1 and 2 threads; bad input is refused. */
#include "testgraphs.h"
#include "moore/resilience.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static moore_graph *ring(int32_t n)
{
    moore_builder *b;
    moore_error err;
    assert_int_equal(moore_builder_new(n, n, &b, &err), MOORE_OK);
    for (int32_t v = 0; v < n; v++)
        tg_link(b, v, (v + 1) % n);
    return tg_finish(b);
}

static moore_graph *complete(int32_t n)
{
    moore_builder *b;
    moore_error err;
    assert_int_equal(moore_builder_new(n, 0, &b, &err), MOORE_OK);
    for (int32_t u = 0; u < n; u++)
        for (int32_t v = u + 1; v < n; v++)
            tg_link(b, u, v);
    return tg_finish(b);
}

/* A random tree: switch v > 0 hangs below a uniformly chosen earlier one. */
static moore_graph *random_tree(int32_t n, uint64_t seed)
{
    moore_builder *b;
    moore_error err;
    moore_rng r;
    moore_rng_seed(&r, seed);
    assert_int_equal(moore_builder_new(n, n, &b, &err), MOORE_OK);
    for (int32_t v = 1; v < n; v++)
        tg_link(b, (int32_t)moore_rng_below(&r, (uint64_t)v), v);
    return tg_finish(b);
}

static int64_t *disconnect(const moore_graph *g, int switches, uint64_t seed, int trials,
                           int threads)
{
    moore_error err;
    int64_t *removed = calloc((size_t)trials, sizeof *removed);
    assert_non_null(removed);
    int rc = moore_disconnect_trials(g, switches, seed, trials, threads, removed, &err);
    if (rc)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, MOORE_OK);
    return removed;
}

static void tree_disconnects_at_first_removal(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        moore_graph *g = random_tree(40, seed);
        int64_t *removed = disconnect(g, 0, seed, 50, 0);
        for (int t = 0; t < 50; t++)
            assert_int_equal(removed[t], 1);
        free(removed);
        moore_graph_free(g);
    }
}

static void ring_disconnects_at_second_removal(void **state)
{
    (void)state;
    moore_error err;
    for (int32_t n = 3; n <= 40; n += 37) {
        moore_graph *g = ring(n);
        int64_t *removed = disconnect(g, 0, 7, 30, 0);
        for (int t = 0; t < 30; t++)
            assert_int_equal(removed[t], 2);
        moore_fail_stats s;
        assert_int_equal(moore_disconnect_fraction(g, 0, 7, 30, 0, &s, &err), MOORE_OK);
        assert_true(s.mean == 2.0 / n && s.min == 2.0 / n && s.p5 == 2.0 / n &&
                    s.p50 == 2.0 / n && s.std == 0);
        free(removed);
        moore_graph_free(g);
    }
}

static moore_fail_result trials_of(const moore_graph *g, moore_failure_kind kind, double level,
                                   const int32_t *rack, int32_t racks, unsigned metrics,
                                   int trials, int threads)
{
    moore_failure_scenario s = { kind, level, rack, racks };
    moore_fail_options o;
    moore_fail_result res;
    moore_error err;
    moore_fail_options_default(&o);
    o.trials = trials;
    o.threads = threads;
    o.metrics = metrics;
    o.seed = 11;
    o.eps = 0.25;   /* throughput: loose bounds keep the test fast */
    int rc = moore_fail_trials(g, &s, &o, &res, &err);
    if (rc)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, MOORE_OK);
    return res;
}

static void complete_graph_survives_n_minus_2_switch_failures(void **state)
{
    (void)state;
    const int32_t n = 9;
    moore_graph *g = complete(n);
    int64_t *removed = disconnect(g, 1, 3, 40, 0);
    for (int t = 0; t < 40; t++)
        assert_int_equal(removed[t], n - 1);   /* one switch left: no network */
    free(removed);
    unsigned mask = 1u << MOORE_FAIL_DIAMETER;
    moore_fail_result a = trials_of(g, MOORE_FAIL_SWITCHES, (n - 2.0) / n, NULL, 0, mask, 20, 0);
    assert_true(a.connected_fraction == 1.0);
    assert_true(a.switches_failed.min == n - 2 && a.switches_failed.max == n - 2);
    assert_true(a.metric[MOORE_FAIL_DIAMETER].max == 1);
    moore_fail_result b = trials_of(g, MOORE_FAIL_SWITCHES, (n - 1.0) / n, NULL, 0, mask, 20, 0);
    assert_true(b.connected_fraction == 0.0);
    assert_int_equal(b.metric[MOORE_FAIL_DIAMETER].count, 0);
    moore_fail_result_clear(&a);
    moore_fail_result_clear(&b);
    moore_graph_free(g);
}

/* ---- brute force: BFS after every removal ---- */

/* Connected, counting only switches alive and links alive. */
static int bf_connected(const moore_graph *g, const char *alive_v, const char *alive_e,
                        const int64_t *link_of_arc)
{
    int32_t n = g->n, start = -1, alive = 0;
    for (int32_t v = 0; v < n; v++)
        if (alive_v[v]) {
            alive++;
            if (start < 0)
                start = v;
        }
    if (alive < 2)
        return 0;
    int32_t *q = malloc((size_t)n * sizeof *q);
    char *seen = calloc((size_t)n, 1);
    int32_t head = 0, tail = 0, got = 1;
    q[tail++] = start;
    seen[start] = 1;
    while (head < tail) {
        int32_t u = q[head++];
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            int32_t w = g->adj[k];
            if (!alive_v[w] || seen[w] || !alive_e[link_of_arc[k]])
                continue;
            seen[w] = 1;
            got++;
            q[tail++] = w;
        }
    }
    free(q);
    free(seen);
    return got == alive;
}

/* Link id of every arc, numbered independently: link i is the i-th pair
 * u < v met scanning rows in order; the reverse arc is found by search. */
static int64_t *arc_links(const moore_graph *g)
{
    int64_t *id = malloc((size_t)(2 * g->m) * sizeof *id), next = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            if (u < g->adj[k])
                id[k] = next++;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            if (u > g->adj[k]) {
                int32_t w = g->adj[k];
                for (int64_t j = g->offs[w]; j < g->offs[w + 1]; j++)
                    if (g->adj[j] == u)
                        id[k] = id[j];
            }
    return id;
}

static int64_t brute_force(const moore_graph *g, int switches, const int32_t *order,
                           const int64_t *arcs)
{
    char *alive_v = malloc((size_t)g->n), *alive_e = malloc((size_t)g->m);
    memset(alive_v, 1, (size_t)g->n);
    memset(alive_e, 1, (size_t)g->m);
    int64_t count = switches ? g->n : g->m, k = 0;
    while (k < count && bf_connected(g, alive_v, alive_e, arcs)) {
        if (switches)
            alive_v[order[k]] = 0;
        else
            alive_e[order[k]] = 0;
        k++;
    }
    free(alive_v);
    free(alive_e);
    return k;
}

static void disconnection_matches_brute_force(void **state)
{
    (void)state;
    moore_error err;
    moore_graph *graphs[3] = { tg_random_regular(16, 3, 5), tg_torus2(4, 5), tg_fattree(4) };
    for (int gi = 0; gi < 3; gi++) {
        const moore_graph *g = graphs[gi];
        int64_t *arcs = arc_links(g);
        for (int sw = 0; sw < 2; sw++) {
            const int T = 25;
            int64_t *removed = disconnect(g, sw, 99, T, 2);
            int32_t *order = malloc((size_t)(sw ? g->n : g->m) * sizeof *order);
            for (int t = 0; t < T; t++) {
                assert_int_equal(moore_disconnect_order(g, sw, 99, t, order, &err), MOORE_OK);
                assert_int_equal(removed[t], brute_force(g, sw, order, arcs));
            }
            free(order);
            free(removed);
        }
        free(arcs);
        moore_graph_free(graphs[gi]);
    }
}

/* ---- level 0 and the metrics of the surviving graph ---- */

/* k-ary fat-tree server-to-server distance: from a server, (k/2 − 1)·k/2
 * servers of its pod sit 2 hops away, (k − 1)·k²/4 in other pods 4 hops. */
static double fattree_apl_endpoints(int32_t k)
{
    double near = (k / 2.0 - 1) * (k / 2.0), far = (k - 1.0) * k * k / 4.0;
    return (2 * near + 4 * far) / (near + far);
}

static void level_zero_reproduces_unfailed_metrics(void **state)
{
    (void)state;
    moore_error err;
    moore_graph *graphs[2] = { tg_fattree(4), tg_mms(5) };
    moore_failure_kind kinds[3] = { MOORE_FAIL_LINKS_PROB, MOORE_FAIL_LINKS_FRACTION,
                                    MOORE_FAIL_SWITCHES };
    unsigned all = (1u << MOORE_FAIL_NMETRICS) - 1;
    for (int gi = 0; gi < 2; gi++) {
        const moore_graph *g = graphs[gi];
        moore_paths_result p;
        assert_int_equal(moore_paths_compute(g, NULL, &p, &err), MOORE_OK);
        moore_traffic *tm;
        moore_flow_options fo;
        moore_flow_result f;
        moore_flow_options_default(&fo);
        fo.eps = 0.25;
        assert_int_equal(moore_traffic_uniform(g, &tm, &err), MOORE_OK);
        assert_int_equal(moore_flow_approx(g, tm, &fo, &f, &err), MOORE_OK);
        moore_bisection_options bo;
        moore_bisection_result b;
        moore_bisection_options_default(&bo);
        bo.spectral_max_switches = 0;
        assert_int_equal(moore_bisection_compute(g, &bo, &b, &err), MOORE_OK);
        double expect[MOORE_FAIL_NMETRICS] = { p.diameter, p.avg_path_length,
                                               gi == 0 ? fattree_apl_endpoints(4)
                                                       : p.avg_path_length,
                                               f.lower, (double)b.cut };
        for (int ki = 0; ki < 3; ki++) {
            moore_fail_result res = trials_of(g, kinds[ki], 0.0, NULL, 0, all, 3, 0);
            assert_true(res.connected_fraction == 1.0);
            assert_true(res.links_failed.max == 0 && res.switches_failed.max == 0);
            for (int m = 0; m < MOORE_FAIL_NMETRICS; m++) {
                const moore_fail_stats *s = &res.metric[m];
                double tol = m == MOORE_FAIL_APL_ENDPOINTS && gi == 0 ? 1e-12 : 0;
                assert_int_equal(s->count, 3);
                assert_true(fabs(s->mean - expect[m]) <= tol);
                assert_true(fabs(s->p5 - expect[m]) <= tol && fabs(s->p95 - expect[m]) <= tol);
                assert_true(s->min == s->max && s->std == 0);
            }
            moore_fail_result_clear(&res);
        }
        moore_bisection_result_clear(&b);
        moore_traffic_free(tm);
        moore_paths_result_clear(&p);
        moore_graph_free(graphs[gi]);
    }
}

/* ---- draws ---- */

static void draws_fail_the_requested_counts(void **state)
{
    (void)state;
    moore_graph *g = tg_torus2(10, 10);   /* 100 switches, 200 links */
    unsigned none = 0;
    moore_fail_result a = trials_of(g, MOORE_FAIL_LINKS_FRACTION, 0.123, NULL, 0, none, 30, 0);
    assert_true(a.links_failed.min == 25 && a.links_failed.max == 25);   /* round(24.6) */
    moore_fail_result b = trials_of(g, MOORE_FAIL_SWITCHES, 0.05, NULL, 0, none, 30, 0);
    assert_true(b.switches_failed.min == 5 && b.switches_failed.max == 5);
    assert_true(b.links_failed.max == 0);
    /* Independent draws: Binomial(200, 0.3), mean 60, sd of the mean of 400
     * trials 0.32; 5 sd either side. */
    moore_fail_result c = trials_of(g, MOORE_FAIL_LINKS_PROB, 0.3, NULL, 0, none, 400, 0);
    assert_true(fabs(c.links_failed.mean - 60) < 1.7);
    assert_true(c.links_failed.min < c.links_failed.max);
    moore_fail_result d = trials_of(g, MOORE_FAIL_LINKS_PROB, 1.0, NULL, 0, none, 5, 0);
    assert_true(d.links_failed.min == 200 && d.connected_fraction == 0);
    moore_fail_result_clear(&a);
    moore_fail_result_clear(&b);
    moore_fail_result_clear(&c);
    moore_fail_result_clear(&d);
    moore_graph_free(g);
}

static void survivor_drops_failed_switches_and_their_servers(void **state)
{
    (void)state;
    moore_error err;
    moore_graph *g = tg_fattree(4);
    char *lf = malloc((size_t)g->m), *sf = malloc((size_t)g->n);
    moore_failure_scenario s = { MOORE_FAIL_SWITCHES, 0.25, NULL, 0 };
    moore_rng r;
    moore_rng_seed(&r, 4);
    for (int rep = 0; rep < 10; rep++) {
        assert_int_equal(moore_failure_draw(g, &s, &r, lf, sf, &err), MOORE_OK);
        int64_t servers = 0, links = 0;
        int32_t alive = 0;
        for (int32_t v = 0; v < g->n; v++) {
            alive += !sf[v];
            servers += sf[v] ? 0 : g->endpoints[v];
            for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
                links += v < g->adj[k] && !sf[v] && !sf[g->adj[k]];
        }
        assert_int_equal(g->n - alive, 5);   /* round(0.25 · 20) */
        moore_graph *h;
        assert_int_equal(moore_survivor_build(g, lf, sf, &h, &err), MOORE_OK);
        assert_int_equal(h->n, alive);
        assert_int_equal(h->m, links);
        assert_int_equal(moore_graph_endpoints_total(h), servers);
        moore_graph_free(h);
    }
    free(lf);
    free(sf);
    moore_graph_free(g);
}

/* Torus 4×4 with rack = row. One rack down leaves a 3-row path × 4-cycle
 * (diameter 2 + 2); one bundle (the 4 links between two adjacent rows) down
 * leaves a 4-row path × 4-cycle (3 + 2); two bundles cut the ring of rows. */
static void racks_and_bundles_from_a_rack_array(void **state)
{
    (void)state;
    moore_graph *g = tg_torus2(4, 4);
    int32_t rack[16];
    for (int32_t v = 0; v < 16; v++)
        rack[v] = v / 4;
    assert_true(moore_graph_has_link(g, 0, 4));   /* rows are racks: v / 4 */
    unsigned mask = 1u << MOORE_FAIL_DIAMETER;
    moore_fail_result a = trials_of(g, MOORE_FAIL_RACKS, 1, rack, 4, mask, 8, 0);
    assert_true(a.switches_failed.min == 4 && a.switches_failed.max == 4);
    assert_true(a.connected_fraction == 1 && a.metric[MOORE_FAIL_DIAMETER].min == 4 &&
                a.metric[MOORE_FAIL_DIAMETER].max == 4);
    moore_fail_result b = trials_of(g, MOORE_FAIL_BUNDLES, 1, rack, 4, mask, 8, 0);
    assert_true(b.links_failed.min == 4 && b.links_failed.max == 4);
    assert_true(b.connected_fraction == 1 && b.metric[MOORE_FAIL_DIAMETER].min == 5 &&
                b.metric[MOORE_FAIL_DIAMETER].max == 5);
    moore_fail_result c = trials_of(g, MOORE_FAIL_BUNDLES, 2, rack, 4, mask, 8, 0);
    assert_true(c.links_failed.min == 8 && c.connected_fraction == 0);
    moore_fail_result_clear(&a);
    moore_fail_result_clear(&b);
    moore_fail_result_clear(&c);
    moore_graph_free(g);
}

/* What is lost, counted from theory. Torus 4×4 with 3 servers per switch and
 * rack = row: a rack takes its 4 switches, their 12 servers and every link
 * at them: 4 · degree 4 = 16 link ends, the row's 4-cycle counted twice, so
 * 12 links; a bundle takes 4 links and nothing else. K_n with switch
 * failures: k switches take C(n,2) − C(n−k,2) links and their servers. */
static void failures_count_switches_links_and_servers_lost(void **state)
{
    (void)state;
    moore_error err;
    moore_graph *g = tg_torus2(4, 4);
    assert_int_equal(moore_graph_set_endpoints_uniform(g, 3, &err), MOORE_OK);
    int32_t rack[16];
    for (int32_t v = 0; v < 16; v++)
        rack[v] = v / 4;
    moore_fail_result a = trials_of(g, MOORE_FAIL_RACKS, 1, rack, 4, 0, 4, 0);
    assert_true(a.switches_lost.min == 4 && a.switches_lost.max == 4);
    assert_true(a.links_lost.min == 12 && a.links_lost.max == 12);
    assert_true(a.servers_lost.min == 12 && a.servers_lost.max == 12);
    moore_fail_result b = trials_of(g, MOORE_FAIL_BUNDLES, 1, rack, 4, 0, 4, 0);
    assert_true(b.links_lost.min == 4 && b.links_lost.max == 4);
    assert_true(b.switches_lost.max == 0 && b.servers_lost.max == 0);
    moore_fail_result_clear(&a);
    moore_fail_result_clear(&b);
    moore_graph_free(g);
    const int32_t n = 9, k = 3;
    moore_builder *bd;
    assert_int_equal(moore_builder_new(n, n * (n - 1) / 2, &bd, &err), MOORE_OK);
    for (int32_t u = 0; u < n; u++)
        for (int32_t v = u + 1; v < n; v++)
            tg_link(bd, u, v);
    g = tg_finish(bd);
    assert_int_equal(moore_graph_set_endpoints_uniform(g, 2, &err), MOORE_OK);
    moore_fail_result c = trials_of(g, MOORE_FAIL_SWITCHES, (double)k / n, NULL, 0, 0, 6, 0);
    double links = n * (n - 1) / 2 - (n - k) * (n - k - 1) / 2;
    assert_true(c.switches_lost.min == k && c.switches_lost.max == k);
    assert_true(c.links_lost.min == links && c.links_lost.max == links);
    assert_true(c.servers_lost.min == 2 * k && c.servers_lost.max == 2 * k);
    assert_true(c.links_failed.max == 0); /* the draw names switches only */
    moore_fail_result_clear(&c);
    moore_graph_free(g);
}

/* ---- determinism, statistics, the metric group, bad input ---- */

static void same_seed_same_bytes_for_1_and_2_threads(void **state)
{
    (void)state;
    moore_graph *g = tg_random_regular(60, 4, 3);
    unsigned all = (1u << MOORE_FAIL_NMETRICS) - 1;
    moore_fail_result a = trials_of(g, MOORE_FAIL_LINKS_PROB, 0.1, NULL, 0, all, 6, 1);
    moore_fail_result b = trials_of(g, MOORE_FAIL_LINKS_PROB, 0.1, NULL, 0, all, 6, 2);
    assert_memory_equal(a.values, b.values, 6 * MOORE_FAIL_NMETRICS * sizeof(double));
    assert_memory_equal(a.metric, b.metric, sizeof a.metric);
    assert_memory_equal(a.connected, b.connected, 6);
    int64_t *r1 = disconnect(g, 0, 5, 64, 1), *r2 = disconnect(g, 0, 5, 64, 2);
    assert_memory_equal(r1, r2, 64 * sizeof *r1);
    free(r1);
    free(r2);
    r1 = disconnect(g, 1, 5, 64, 1);
    r2 = disconnect(g, 1, 5, 64, 2);
    assert_memory_equal(r1, r2, 64 * sizeof *r1);
    free(r1);
    free(r2);
    moore_fail_result_clear(&a);
    moore_fail_result_clear(&b);
    moore_graph_free(g);
}

static void statistics_of_a_known_sample(void **state)
{
    (void)state;
    moore_error err;
    const double x[7] = { 5, NAN, 1, 4, 2, 3, NAN };
    moore_fail_stats s;
    assert_int_equal(moore_fail_summarize(x, 7, &s, &err), MOORE_OK);
    assert_int_equal(s.count, 5);
    assert_true(fabs(s.mean - 3) < 1e-15 && s.min == 1 && s.max == 5 && s.p50 == 3);
    assert_true(fabs(s.p5 - 1.2) < 1e-12 && fabs(s.p95 - 4.8) < 1e-12);
    assert_true(fabs(s.std - sqrt(2.0)) < 1e-12);
    assert_int_equal(moore_fail_summarize(x + 1, 1, &s, &err), MOORE_OK);
    assert_int_equal(s.count, 0);
    assert_true(isnan(s.mean));
}

static void metric_group_reports_disconnection(void **state)
{
    (void)state;
    moore_error err;
    moore_report r;
    moore_report_init(&r);
    moore_graph *g = ring(25);
    assert_int_equal(moore_metrics_compute(g, "resilience", NULL, &r, &err), MOORE_OK);
    assert_true(moore_report_number(&r, "links_at_disconnection_mean") == 2.0 / 25);
    assert_true(moore_report_number(&r, "links_at_disconnection_min") == 2.0 / 25);
    /* A ring loses connectivity at its second switch failure unless the two
     * are neighbours: never before 2, never after n − 1. */
    double sw = moore_report_number(&r, "switches_at_disconnection_min");
    assert_true(sw >= 2.0 / 25 && sw <= 24.0 / 25);
    moore_report_clear(&r);
    moore_graph_free(g);
}

static void bad_input_is_refused(void **state)
{
    (void)state;
    moore_error err;
    moore_graph *g = ring(6);
    moore_fail_options o;
    moore_fail_result res;
    moore_fail_options_default(&o);
    const double bad_levels[3] = { -0.1, 1.5, NAN };
    for (int i = 0; i < 3; i++) {
        moore_failure_scenario s = { MOORE_FAIL_LINKS_PROB, bad_levels[i], NULL, 0 };
        assert_int_equal(moore_fail_trials(g, &s, &o, &res, &err), MOORE_EINVAL);
        assert_non_null(strstr(err.msg, "[0, 1]"));
    }
    moore_failure_scenario ok = { MOORE_FAIL_SWITCHES, 0.5, NULL, 0 };
    o.trials = 0;
    assert_int_equal(moore_fail_trials(g, &ok, &o, &res, &err), MOORE_EINVAL);
    o.trials = MOORE_FAIL_MAX_TRIALS + 1;
    assert_int_equal(moore_fail_trials(g, &ok, &o, &res, &err), MOORE_EINVAL);
    o.trials = 2;
    moore_failure_scenario norack = { MOORE_FAIL_RACKS, 1, NULL, 0 };
    assert_int_equal(moore_fail_trials(g, &norack, &o, &res, &err), MOORE_EINVAL);
    int32_t rack[6] = { 0, 0, 1, 1, 2, 2 };
    moore_failure_scenario many = { MOORE_FAIL_RACKS, 4, rack, 3 };
    assert_int_equal(moore_fail_trials(g, &many, &o, &res, &err), MOORE_EINVAL);
    moore_failure_scenario bundles = { MOORE_FAIL_BUNDLES, 4, rack, 3 };   /* 3 bundles */
    assert_int_equal(moore_fail_trials(g, &bundles, &o, &res, &err), MOORE_EINVAL);
    bundles.level = 3;
    assert_int_equal(moore_fail_trials(g, &bundles, &o, &res, &err), MOORE_OK);
    assert_true(res.links_failed.min == 3 && res.connected_fraction == 0);
    moore_fail_result_clear(&res);
    unsigned mask;
    assert_int_equal(moore_fail_metric_mask("diameter,girth", &mask, &err), MOORE_EINVAL);
    int64_t removed[1];
    assert_int_equal(moore_disconnect_trials(g, 0, 1, 0, 0, removed, &err), MOORE_EINVAL);
    moore_graph *one = complete(1);
    assert_int_equal(moore_disconnect_trials(one, 1, 1, 1, 0, removed, &err), MOORE_EINVAL);
    moore_graph_free(one);
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tree_disconnects_at_first_removal),
        cmocka_unit_test(ring_disconnects_at_second_removal),
        cmocka_unit_test(complete_graph_survives_n_minus_2_switch_failures),
        cmocka_unit_test(disconnection_matches_brute_force),
        cmocka_unit_test(level_zero_reproduces_unfailed_metrics),
        cmocka_unit_test(draws_fail_the_requested_counts),
        cmocka_unit_test(survivor_drops_failed_switches_and_their_servers),
        cmocka_unit_test(racks_and_bundles_from_a_rack_array),
        cmocka_unit_test(failures_count_switches_links_and_servers_lost),
        cmocka_unit_test(same_seed_same_bytes_for_1_and_2_threads),
        cmocka_unit_test(statistics_of_a_known_sample),
        cmocka_unit_test(metric_group_reports_disconnection),
        cmocka_unit_test(bad_input_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
