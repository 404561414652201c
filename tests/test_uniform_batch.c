/* test_uniform_batch.c — the uniform routing's batched passes
 * (src/flow/uniform.c) against a per-pair computation written here from
 * the definition, and against themselves for other batch sizes and thread
 * counts.
 *
 * The reference: the first pass (all link weights 1) spreads each pair
 * (s,t), T(s,t) = w_s·w_t/div, evenly over its shortest paths, so arc u→v
 * carries T(s,t)·σ(s,u)·σ(v,t)/σ(s,t) when d(s,u) + 1 + d(v,t) = d(s,t)
 * (σ: numbers of shortest paths, from a BFS of every switch). The routing
 * is then mirrored: each arc carries half its link's total, so the lower
 * bound is 2 / the busiest link's total and the upper is TUB, 2|E| /
 * Σ T·d. That sums pair by pair over all pairs and arcs, O(n²·E), so it
 * stays on small graphs: Petersen, a torus, a 200-switch Jellyfish, unequal
 * server counts (with switches that have none) and a graph whose serverless
 * part is out of reach. The runs are cancelled at the poll that follows the
 * first pass (the passes poll once after each batch, then once after the
 * pass), so their bracket and loads are the first pass's. */
#include "testutil.h"
#include "flow/flow_internal.h"
#include "moore/flow.h"
#include "moore/traffic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* All-pairs hop distances and shortest-path counts, by BFS from each switch. */
static void all_pairs(const moore_graph *g, int32_t *dist, double *sigma)
{
    int32_t n = g->n, *queue = malloc((size_t)n * sizeof *queue);
    assert_non_null(queue);
    for (int32_t s = 0; s < n; s++) {
        int32_t *d = dist + (size_t)s * n, head = 0, tail = 1;
        double *c = sigma + (size_t)s * n;
        for (int32_t v = 0; v < n; v++) {
            d[v] = -1;
            c[v] = 0;
        }
        d[s] = 0;
        c[s] = 1;
        queue[0] = s;
        while (head < tail) {
            int32_t u = queue[head++];
            for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
                int32_t v = g->adj[k];
                if (d[v] < 0) {
                    d[v] = d[u] + 1;
                    queue[tail++] = v;
                }
                if (d[v] == d[u] + 1)
                    c[v] += c[u];
            }
        }
    }
    free(queue);
}

/* The even split's mirrored arc loads (half each link's total) into half[],
 * and Σ T·d; the bounds 1 / max half and 2|E| / Σ T·d. */
static void reference(const moore_graph *g, const moore_traffic *t, double *half, double *lower,
                      double *upper)
{
    int32_t n = g->n;
    int64_t arcs = 2 * g->m;
    int32_t *dist = malloc((size_t)n * n * sizeof *dist);
    double *sigma = malloc((size_t)n * n * sizeof *sigma), *load = calloc((size_t)arcs, sizeof *load);
    int64_t *rev = malloc((size_t)arcs * sizeof *rev);
    assert_true(dist && sigma && load && rev);
    all_pairs(g, dist, sigma);
    double tdist = 0;
    for (int32_t s = 0; s < n; s++)
        for (int32_t x = 0; x < n; x++) {
            double T = t->weight[s] * t->weight[x] / t->weight_div;
            int32_t dsx = dist[(size_t)s * n + x];
            if (x == s || T == 0 || dsx < 0)
                continue;
            tdist += T * dsx;
            for (int32_t u = 0; u < n; u++)
                for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
                    int32_t v = g->adj[k], dsu = dist[(size_t)s * n + u];
                    int32_t dvx = dist[(size_t)v * n + x];
                    if (dsu >= 0 && dvx >= 0 && dsu + 1 + dvx == dsx)
                        load[k] += T * sigma[(size_t)s * n + u] * sigma[(size_t)v * n + x] /
                                   sigma[(size_t)s * n + x];
                }
        }
    moore_graph_reverse_arcs(g, rev);
    double max = 0;
    for (int64_t k = 0; k < arcs; k++) {
        half[k] = (load[k] + load[rev[k]]) / 2;
        max = half[k] > max ? half[k] : max;
    }
    *lower = 1 / max;
    *upper = 2.0 * (double)g->m / tdist;
    free(dist);
    free(sigma);
    free(load);
    free(rev);
}

static void near_rel(double got, double want, double rel, const char *what)
{
    if (!(fabs(got - want) <= rel * fabs(want))) {
        print_error("%s: got %.17g, want %.17g\n", what, got, want);
        fail();
    }
}

/* Cancels at the poll whose number is in ctx[1] (ctx[0] counts them). */
static int cancel_at(void *ctx)
{
    int *c = ctx;
    return ++c[0] >= c[1];
}

/* The bracket with batches of `batch` sources on `threads` threads; with
 * first_pass, cancelled right after the first pass. */
static flow_uniform bracket(const moore_graph *g, const moore_traffic *t, double eps,
                            int batch, int threads, int first_pass)
{
    moore_flow_options o;
    moore_flow_options_default(&o);
    o.eps = eps;
    o.threads = threads;
    int sources = 0, calls[2] = { 0, 0 };
    for (int32_t v = 0; v < g->n; v++)
        sources += t->weight[v] > 0;
    if (first_pass) {
        calls[1] = (sources + batch - 1) / batch + 1;
        o.cancelled = cancel_at;
        o.cancel_ctx = calls;
    }
    flow_clock clock;
    flow_clock_start(&clock);
    flow_uniform u;
    moore_error err;
    if (flow_uniform_bracket_batch(g, t, &o, &clock, batch, &u, &err) != MOORE_OK) {
        print_error("batch %d: %s\n", batch, err.msg);
        fail();
    }
    if (first_pass) { /* or ended by the pass itself, when it is balanced within ε */
        assert_true(u.stopped ? !strcmp(u.stopped, "cancelled") : u.upper <= 1.01 * u.lower);
        assert_int_equal(u.passes, 1);
    } else {
        assert_null(u.stopped);
    }
    return u;
}

/* 20 switches: a Petersen graph on 0..9 with unequal servers (0 to 4, some
 * none) and a 10-cycle on 10..19 with none, out of reach of every server. */
static moore_graph *unequal(void)
{
    moore_builder *b;
    moore_graph *g;
    moore_error err;
    assert_int_equal(moore_builder_new(20, 25, &b, &err), MOORE_OK);
    for (int32_t i = 0; i < 5; i++) {
        assert_int_equal(moore_builder_add_link(b, i, (i + 1) % 5, &err), MOORE_OK);
        assert_int_equal(moore_builder_add_link(b, i, i + 5, &err), MOORE_OK);
        assert_int_equal(moore_builder_add_link(b, i + 5, (i + 2) % 5 + 5, &err), MOORE_OK);
    }
    for (int32_t i = 0; i < 10; i++)
        assert_int_equal(moore_builder_add_link(b, 10 + i, 10 + (i + 1) % 10, &err), MOORE_OK);
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_OK);
    int32_t p[20] = { 3, 0, 1, 4, 2, 0, 2, 1, 3, 1 };
    assert_int_equal(moore_graph_set_endpoints(g, p, &err), MOORE_OK);
    return g;
}

static moore_graph *build(int i)
{
    const char *spec[] = { "petersen", "torus:dims=5x6", "jellyfish:n=200,d=8,seed=1" };
    return i < 3 ? tu_build(spec[i]) : unequal();
}

/* Each batch size's first pass is the even split (loads and both bounds
 * within 1e-12 of the reference), with one thread and with two. */
static void batched_pass_is_the_even_split(void **state)
{
    (void)state;
    const int batches[] = { 1, 3, 16, 64 };
    for (int i = 0; i < 4; i++) {
        moore_graph *g = build(i);
        moore_traffic *t;
        moore_error err;
        assert_int_equal(moore_traffic_uniform_compact(g, &t, &err), MOORE_OK);
        int64_t arcs = 2 * g->m;
        double *half = malloc((size_t)arcs * sizeof *half), lower, upper, max = 0;
        assert_non_null(half);
        reference(g, t, half, &lower, &upper);
        for (int64_t k = 0; k < arcs; k++)
            max = half[k] > max ? half[k] : max;
        for (int j = 0; j < 4; j++)
            for (int threads = 1; threads <= 2; threads++) {
                flow_uniform u = bracket(g, t, 0.01, batches[j], threads, 1);
                near_rel(u.lower, lower, 1e-12, "lower");
                near_rel(u.upper, upper, 1e-12, "upper");
                for (int64_t k = 0; k < arcs; k++)
                    if (!(fabs(u.load[k] - half[k]) <= 1e-12 * max)) {
                        print_error("graph %d batch %d arc %lld: %.17g, want %.17g\n", i,
                                    batches[j], (long long)k, u.load[k], half[k]);
                        fail();
                    }
                free(u.load);
            }
        free(half);
        moore_traffic_free(t);
        moore_graph_free(g);
    }
}

/* All passes (reweighted links, ε = 1%): batch sizes give the same bracket
 * within 1e-12 relative (only the order of floating-point sums differs),
 * and each batch size gives the same bytes on 1 and 2 threads. */
static void batches_agree_over_passes(void **state)
{
    (void)state;
    const int batches[] = { 1, 5, 16, 64 };
    for (int i = 1; i < 4; i++) {
        moore_graph *g = build(i);
        moore_traffic *t;
        moore_error err;
        assert_int_equal(moore_traffic_uniform_compact(g, &t, &err), MOORE_OK);
        flow_uniform one = bracket(g, t, 0.01, 1, 1, 0);
        for (int j = 0; j < 4; j++) {
            flow_uniform a = bracket(g, t, 0.01, batches[j], 1, 0);
            flow_uniform b = bracket(g, t, 0.01, batches[j], 2, 0);
            assert_int_equal(a.passes, one.passes);
            near_rel(a.lower, one.lower, 1e-12, "lower");
            near_rel(a.upper, one.upper, 1e-12, "upper");
            assert_int_equal(a.passes, b.passes);
            assert_memory_equal(&a.lower, &b.lower, sizeof a.lower);
            assert_memory_equal(&a.upper, &b.upper, sizeof a.upper);
            assert_memory_equal(a.load, b.load, (size_t)a.arcs * sizeof *a.load);
            free(a.load);
            free(b.load);
        }
        free(one.load);
        moore_traffic_free(t);
        moore_graph_free(g);
    }
}

/* Servers out of each other's reach: refused, naming the lowest source
 * that misses one and the lowest switch it misses (switch 0 of the Petersen
 * part and switch 10 of a 10-cycle with servers), for any batch size. */
static void unreached_is_refused(void **state)
{
    (void)state;
    moore_graph *g = unequal();
    moore_error err;
    int32_t p[20] = { 0 };
    for (int32_t v = 0; v < 20; v++)
        p[v] = 1 + v % 3;
    assert_int_equal(moore_graph_set_endpoints(g, p, &err), MOORE_OK);
    moore_traffic *t;
    assert_int_equal(moore_traffic_uniform_compact(g, &t, &err), MOORE_OK);
    const int batches[] = { 1, 7, 64 };
    for (int j = 0; j < 3; j++) {
        moore_flow_options o;
        moore_flow_options_default(&o);
        flow_clock clock;
        flow_clock_start(&clock);
        flow_uniform u;
        assert_int_equal(flow_uniform_bracket_batch(g, t, &o, &clock, batches[j], &u, &err),
                         MOORE_EINVAL);
        assert_non_null(strstr(err.msg, "switch 0 sends to switch 10 "));
        assert_null(u.load);
    }
    moore_traffic_free(t);
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batched_pass_is_the_even_split),
        cmocka_unit_test(batches_agree_over_passes),
        cmocka_unit_test(unreached_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
