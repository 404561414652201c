/* test_grow.c — the growth planner (docs/growth.md) against closed forms and
 * independent computations:
 *  - a 2-lift keeps every degree and rewires exactly the links it crosses:
 *    removed = crossed, added = m + crossed, kept = m − crossed;
 *  - Jellyfish expansion by one switch of degree d removes d/2 links and adds d;
 *  - adding pods to a Clos built with spare core ports moves and removes no
 *    cable, and each step's cables are the hand count leaves·R/2 + spines·R/2;
 *  - every step's cables are the configuration's link count, and consecutive
 *    steps add up (cables = previous − removed + added);
 *  - the same seed gives the same plan;
 *  - the throughput at the worst moment is not above the (1+ε) approximation's
 *    upper bound computed here on the graph of that moment;
 *  - bad requests are refused. */
#include "testutil.h"
#include "moore/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static moore_grow_options small_options(int32_t radix, const int64_t *steps, int count,
                                        const char *families)
{
    moore_grow_options o;
    moore_grow_options_default(&o);
    o.radix = radix;
    o.steps = steps;
    o.step_count = count;
    o.families = families;
    o.threads = 1;
    return o;
}

static moore_grow_step measure(const moore_grow_options *o, const moore_graph *b,
                               const moore_graph *a)
{
    moore_grow_step st;
    moore_error err;
    moore_error_clear(&err);
    if (moore_grow_measure(o, b, NULL, a, NULL, &st, &err)) {
        print_error("grow measure failed: %s\n", err.msg);
        fail();
    }
    return st;
}

static void lift_rewires_crossed_links(void **state)
{
    (void)state;
    moore_graph *g = tu_build("jellyfish:n=24,d=5,p=3,seed=7");
    int8_t *signs = malloc((size_t)g->m);
    moore_rng rng;
    moore_rng_seed(&rng, 11);
    int64_t crossed = 0;
    for (int64_t i = 0; i < g->m; i++) {
        signs[i] = moore_rng_below(&rng, 3) == 0 ? -1 : 1;
        crossed += signs[i] < 0;
    }
    moore_graph *h = NULL;
    moore_error err;
    assert_int_equal(moore_lift_build(g, signs, &h, &err), MOORE_OK);
    for (int32_t v = 0; v < g->n; v++) {
        assert_int_equal(moore_graph_degree(h, v), moore_graph_degree(g, v));
        assert_int_equal(moore_graph_degree(h, v + g->n), moore_graph_degree(g, v));
    }
    int64_t steps[2] = { 1, 2 };
    moore_grow_options o = small_options(8, steps, 2, NULL);
    moore_grow_step st = measure(&o, g, h);
    assert_int_equal(st.cables_removed, crossed);
    assert_int_equal(st.cables_added, g->m + crossed);
    assert_int_equal(st.cables_kept, g->m - crossed);
    assert_int_equal(st.switches_added, g->n);
    assert_true(st.cables_moved <= crossed);
    assert_int_equal(st.cables_touched, st.cables_added + st.cables_removed - st.cables_moved);
    assert_int_equal(st.cables, 2 * g->m);
    free(signs);
    moore_graph_free(g);
    moore_graph_free(h);
}

static void expansion_by_one_switch(void **state)
{
    (void)state;
    for (int32_t d = 4; d <= 8; d += 2) {
        char spec[64];
        snprintf(spec, sizeof spec, "jellyfish:n=30,d=%d,p=2,seed=3", (int)d);
        moore_graph *g = tu_build(spec), *h = NULL;
        moore_error err;
        assert_int_equal(moore_jellyfish_expand(g, 1, d, 5, &h, &err), MOORE_OK);
        int64_t steps[2] = { 1, 2 };
        moore_grow_options o = small_options(d + 2, steps, 2, NULL);
        moore_grow_step st = measure(&o, g, h);
        assert_int_equal(st.cables_removed, d / 2);
        assert_int_equal(st.cables_added, d);
        assert_int_equal(st.cables_kept, g->m - d / 2);
        assert_int_equal(st.switches_added, 1);
        assert_int_equal(st.cables, g->m + d / 2);
        assert_true(st.cables_moved <= d / 2);
        moore_graph_free(g);
        moore_graph_free(h);
    }
}

static moore_grow_result run(const moore_grow_options *o)
{
    moore_grow_result r;
    moore_error err;
    moore_error_clear(&err);
    if (moore_grow_run(o, &r, &err)) {
        print_error("grow failed: %s\n", err.msg);
        fail();
    }
    return r;
}

/* Radix 8, oversubscription 1: 4 servers a leaf, pods of 4 leaves and 4
 * spines, every leaf and spine with 4 cables up. */
static void clos_pods_move_nothing(void **state)
{
    (void)state;
    int64_t steps[3] = { 20, 40, 100 };
    int64_t leaves[3] = { 5, 10, 25 }, spines[3] = { 8, 12, 28 };
    moore_grow_options o = small_options(8, steps, 3, "clos");
    moore_grow_result r = run(&o);
    assert_int_equal(r.count, 1);
    const moore_grow_family *f = &r.families[0];
    assert_true(f->reached);
    assert_int_equal(f->step_count, 3);
    int64_t cores = f->steps[0].switches - leaves[0] - spines[0];
    for (int k = 0; k < 3; k++) {
        const moore_grow_step *s = &f->steps[k];
        assert_int_equal(s->cables, 4 * (leaves[k] + spines[k]));
        assert_int_equal(s->switches, leaves[k] + spines[k] + cores);
        assert_int_equal(s->endpoints, 4 * leaves[k]);
        assert_int_equal(s->cables_removed, 0);
        assert_int_equal(s->cables_moved, 0);
        if (k > 0) {
            assert_int_equal(s->cables_added, s->cables - f->steps[k - 1].cables);
            assert_int_equal(s->switches_added, s->switches - f->steps[k - 1].switches);
        }
    }
    /* cores for 7 pods bought at the first step, which needs 2 pods · 16 uplinks / 8 */
    double chassis = o.model.switch_cost + 8 * o.model.switch_port_cost;
    assert_true(fabs(f->steps[0].cost_headroom - (double)(cores - 4) * chassis) < 1e-6);
    moore_grow_clear(&r);
}

/* Steps add up, cables are the configuration's links, and the SPEC of a
 * rebuilt step has that many links by its closed forms. */
static void cables_match_configurations(void **state)
{
    (void)state;
    int64_t steps[3] = { 60, 130, 200 };
    moore_grow_options o = small_options(12, steps, 3, "jellyfish,xpander,polarfly");
    o.bandwidth = 0;
    moore_grow_result r = run(&o);
    for (int i = 0; i < r.count; i++) {
        const moore_grow_family *f = &r.families[i];
        assert_true(f->step_count > 0);
        for (int k = 0; k < f->step_count; k++) {
            const moore_grow_step *s = &f->steps[k];
            assert_int_equal(s->cables, s->links);
            assert_true(s->endpoints >= s->target);
            assert_int_equal(s->cables_touched,
                             s->cables_added + s->cables_removed - s->cables_moved);
            assert_true(fabs(s->cost_step - s->cost_equipment - s->cost_labour) < 1e-6);
            if (k > 0)
                assert_int_equal(s->cables,
                                 f->steps[k - 1].cables - s->cables_removed + s->cables_added);
            moore_counts c;
            moore_error err;
            if (strcmp(f->rule, "rebuild") == 0 || k == 0) {
                assert_int_equal(moore_spec_counts(s->topology, &c, &err), MOORE_OK);
                assert_int_equal(c.links, s->cables);
            }
        }
    }
    moore_grow_clear(&r);
}

static void same_seed_same_plan(void **state)
{
    (void)state;
    int64_t steps[3] = { 60, 150, 260 };
    moore_grow_options o = small_options(12, steps, 3, "jellyfish,xpander,slimfly");
    o.bandwidth = 0.5;
    o.batch = 8;
    moore_grow_result a = run(&o), b = run(&o);
    assert_int_equal(a.count, b.count);
    for (int i = 0; i < a.count; i++) {
        assert_int_equal(a.families[i].step_count, b.families[i].step_count);
        for (int k = 0; k < a.families[i].step_count; k++) {
            moore_grow_step x = a.families[i].steps[k], y = b.families[i].steps[k];
            x.seconds = y.seconds = 0;
            assert_memory_equal(&x, &y, sizeof x);
        }
    }
    moore_grow_clear(&a);
    moore_grow_clear(&b);
}

/* Uniform-traffic bounds by the (1+ε) approximation, computed here. */
static void approx_bounds(const moore_graph *g, double *lower, double *upper)
{
    moore_traffic *t = NULL;
    moore_flow_options fo;
    moore_flow_result f;
    moore_error err;
    moore_flow_options_default(&fo);
    fo.eps = 0.02;
    fo.threads = 1;
    assert_int_equal(moore_traffic_uniform(g, &t, &err), MOORE_OK);
    assert_int_equal(moore_flow_approx(g, t, &fo, &f, &err), MOORE_OK);
    *lower = f.lower;
    *upper = f.upper;
    moore_traffic_free(t);
}

/* One batch holds every cable of the step, so its one moment is the before
 * graph without the links the step removes (and the new switches, linked to
 * nothing yet): its throughput, approximated here, brackets the worst one. */
static void during_within_independent_bounds(void **state)
{
    (void)state;
    moore_graph *g = tu_build("jellyfish:n=40,d=6,p=3,seed=2"), *h = NULL, *mid = NULL;
    moore_error err;
    assert_int_equal(moore_jellyfish_expand(g, 6, 6, 9, &h, &err), MOORE_OK);
    int64_t steps[2] = { 1, 2 };
    moore_grow_options o = small_options(9, steps, 2, NULL);
    o.batch = 1000;
    moore_grow_step st = measure(&o, g, h);
    assert_int_equal(st.batches, 1);
    assert_true(st.during_exact);
    moore_builder *b = NULL;
    assert_int_equal(moore_builder_new(g->n, g->m, &b, &err), MOORE_OK);
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++)
            if (g->adj[e] > u && moore_graph_has_link(h, u, g->adj[e]))
                assert_int_equal(moore_builder_add_link(b, u, g->adj[e], &err), MOORE_OK);
    assert_int_equal(moore_builder_finish(b, &mid, &err), MOORE_OK);
    assert_int_equal(moore_graph_set_endpoints(mid, g->endpoints, &err), MOORE_OK);
    int32_t comps = 0;
    assert_int_equal(moore_components(mid, NULL, &comps, &err), MOORE_OK);
    double lo, hi = 0;
    if (comps == 1)
        approx_bounds(mid, &lo, &hi);
    assert_true(st.during_lower <= hi * (1 + 1e-9));
    assert_true(st.during_lower <= st.during_upper);
    /* and never above the before graph's own throughput */
    approx_bounds(g, &lo, &hi);
    assert_true(st.during_lower <= hi * (1 + 1e-9));
    assert_true(st.before_lower <= hi * (1 + 1e-9));
    moore_graph_free(g);
    moore_graph_free(h);
    moore_graph_free(mid);
}

static void bad_requests_refused(void **state)
{
    (void)state;
    moore_grow_result r;
    moore_error err;
    int64_t down[2] = { 200, 100 }, far[1] = { (int64_t)1 << 38 }, ok[2] = { 100, 200 };
    moore_grow_options o = small_options(12, down, 2, NULL);
    assert_int_equal(moore_grow_run(&o, &r, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "increasing"));
    o = small_options(12, far, 1, NULL);
    assert_int_equal(moore_grow_run(&o, &r, &err), MOORE_EINVAL);
    o = small_options(12, ok, 2, NULL);
    o.batch = 0;
    assert_int_equal(moore_grow_run(&o, &r, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "batch"));
    o = small_options(12, ok, 2, "jellyfish,nosuchfamily");
    assert_int_equal(moore_grow_run(&o, &r, &err), MOORE_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lift_rewires_crossed_links),
        cmocka_unit_test(expansion_by_one_switch),
        cmocka_unit_test(clos_pods_move_nothing),
        cmocka_unit_test(cables_match_configurations),
        cmocka_unit_test(same_seed_same_plan),
        cmocka_unit_test(during_within_independent_bounds),
        cmocka_unit_test(bad_requests_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
