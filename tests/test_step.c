/* test_step.c — a training step's communication time (src/step/,
 * src/workload/phases.c, docs/step-time.md) against closed forms:
 *   - a ring all-reduce of S bytes over n servers of one switch takes
 *     2(n−1)/n·S/B (NCCL's bus-bandwidth identity), slowdown 1;
 *   - an all-to-all of S bytes per rank on a non-blocking fabric (a 2-level
 *     Clos with as many spines as servers per leaf) takes (n−1)/n·S/B;
 *   - a TP group inside one switch adds no network time;
 *   - on a 16-switch ring (one server each) a ring all-reduce's matrix has
 *     θ = n/(n−1) (a fraction 1/n of each demand goes the long way round,
 *     test_workload.c): the network outruns the servers' links, so the
 *     phase takes its ideal 2(n−1)/n·S/B;
 *   - the bytes of GPT-3 175B's TP phase (672 activations of 50.3 MB) and
 *     of a skewed MoE dispatch (Zipf shares computed here);
 *   - the placement search is never worse than the best of linear, random
 *     and group, each timed here separately;
 *   - two jobs on disjoint halves of a Clos do not slow each other, and two
 *     jobs on halves of a ring do;
 *   - the (1+ε) approximation stops once θ ≥ 1 is proven: the phase then
 *     runs at line rate and its time is exact (the ring's θ = 16/15);
 *   - ep_combine's matrix is ep_dispatch's transposed, whose θ it takes: the
 *     bounds it reports hold the exact θ of its own matrix (Clp, computed
 *     here), and moore_step_job places the job as its spec says;
 *   - bad rates and overlaps are refused. */
#include "testutil.h"
#include "testgraphs.h"
#include "moore/flow.h"
#include "moore/step.h"
#include "moore/workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GBPS 400.0

static double wire_seconds(double bytes)
{
    return bytes * 8.0 / (GBPS * 1e9);
}

static moore_graph *with_servers(moore_builder *b, int32_t p)
{
    moore_error err;
    moore_graph *g = tg_finish(b);
    assert_int_equal(moore_graph_set_endpoints_uniform(g, p, &err), MOORE_OK);
    return g;
}

static moore_graph *one_switch(int32_t n)
{
    moore_builder *b;
    moore_error err;
    assert_int_equal(moore_builder_new(1, 0, &b, &err), MOORE_OK);
    return with_servers(b, n);
}

static moore_graph *ring(int32_t n)
{
    moore_builder *b;
    moore_error err;
    assert_int_equal(moore_builder_new(n, n, &b, &err), MOORE_OK);
    for (int32_t v = 0; v < n; v++)
        tg_link(b, v, (v + 1) % n);
    return with_servers(b, 1);
}

/* A 2-level Clos: `leaves` leaves with p servers each and p spines, every
 * leaf linked to every spine (full bisection); spines get no servers. */
static moore_graph *clos2(int32_t leaves, int32_t p)
{
    moore_builder *b;
    moore_error err;
    int32_t n = leaves + p;
    assert_int_equal(moore_builder_new(n, leaves * p, &b, &err), MOORE_OK);
    for (int32_t l = 0; l < leaves; l++)
        for (int32_t s = 0; s < p; s++)
            tg_link(b, l, leaves + s);
    moore_graph *g = tg_finish(b);
    int32_t *ep = calloc((size_t)n, sizeof *ep);
    for (int32_t l = 0; l < leaves; l++)
        ep[l] = p;
    assert_int_equal(moore_graph_set_endpoints(g, ep, &err), MOORE_OK);
    free(ep);
    return g;
}

/* The step of one job (placement from its spec) with routing `routing`. */
static moore_step_result step_of(const moore_graph *g, const char *spec, const char *routing,
                                 int exact)
{
    moore_workload w;
    moore_error err;
    moore_step_options o;
    moore_step_result r;
    moore_step_options_default(&o);
    o.link_gbps = GBPS;
    o.routing = routing;
    o.exact = exact;
    assert_int_equal(moore_workload_parse(spec, &w, &err), MOORE_OK);
    if (moore_step_job(g, &w, &o, &r, &err)) {
        print_error("%s: %s\n", spec, err.msg);
        fail();
    }
    return r;
}

static void near(double x, double want, double rel)
{
    if (!(fabs(x - want) <= rel * fabs(want))) {
        print_error("%.12g is not %.12g (relative %g)\n", x, want, rel);
        fail();
    }
}

static void ring_allreduce_on_one_switch(void **state)
{
    (void)state;
    moore_graph *g = one_switch(8);
    double S = 1e9, n = 8;
    moore_step_result r = step_of(g, "allreduce:algo=ring,bytes=1e9", NULL, 0);
    assert_int_equal(r.count, 1);
    near(r.phase[0].bytes, 2 * (n - 1) / n * S, 1e-12);
    near(r.step_upper, wire_seconds(2 * (n - 1) / n * S), 1e-12);
    near(r.step_lower, r.step_upper, 1e-12);
    near(r.slowdown, 1.0, 1e-12);
    assert_int_equal(r.phase[0].network, 0);
    moore_step_result_clear(&r);
    moore_graph_free(g);
}

static void alltoall_on_a_nonblocking_clos(void **state)
{
    (void)state;
    moore_graph *g = clos2(4, 3);   /* 12 servers */
    double S = 2e9, n = 12;
    moore_step_result r = step_of(g, "alltoall:bytes=2e9", NULL, 1);
    assert_int_equal(r.count, 1);
    near(r.phase[0].bytes, (n - 1) / n * S, 1e-12);
    assert_true(r.phase[0].theta_lower >= 1.0 - 1e-7);
    near(r.step_upper, wire_seconds((n - 1) / n * S), 1e-7);
    near(r.ideal, wire_seconds((n - 1) / n * S), 1e-12);
    moore_step_result_clear(&r);
    moore_graph_free(g);
}

static void tp_inside_a_switch_is_free(void **state)
{
    (void)state;
    moore_graph *g = ring(8);
    moore_graph_free(g);
    moore_builder *b;
    moore_error err;
    assert_int_equal(moore_builder_new(6, 6, &b, &err), MOORE_OK);
    for (int32_t v = 0; v < 6; v++)
        tg_link(b, v, (v + 1) % 6);
    g = with_servers(b, 4);   /* TP groups of 4 fill one switch each */
    moore_step_result r = step_of(g, "llm:tp=4,pp=2,dp=3", NULL, 0);
    assert_string_equal(r.phase[0].name, "tp");
    assert_int_equal(r.phase[0].network, 0);
    near(r.phase[0].seconds_upper, r.phase[0].ideal_seconds, 1e-12);
    /* the others use the network */
    assert_string_equal(r.phase[1].name, "pp");
    assert_int_equal(r.phase[1].network, 1);
    moore_step_result_clear(&r);
    moore_graph_free(g);
}

static void ring_allreduce_on_a_16_switch_ring(void **state)
{
    (void)state;
    moore_graph *g = ring(16);
    double S = 1e9, n = 16;
    moore_step_result r = step_of(g, "allreduce:algo=ring,bytes=1e9", NULL, 1);
    assert_int_equal(r.count, 1);
    assert_true(r.phase[0].theta_lower <= n / (n - 1) * (1 + 1e-7));
    assert_true(r.phase[0].theta_upper >= n / (n - 1) * (1 - 1e-7));
    near(r.phase[0].theta_lower, n / (n - 1), 1e-6);
    near(r.step_upper, wire_seconds(2 * (n - 1) / n * S), 1e-12);
    near(r.slowdown, 1.0, 1e-12);
    moore_step_result_clear(&r);
    moore_graph_free(g);
}

static void approximation_stops_at_line_rate(void **state)
{
    (void)state;
    moore_graph *g = ring(16);
    moore_step_result r = step_of(g, "allreduce:algo=ring,bytes=1e9", NULL, 0);
    assert_int_equal(r.count, 1);
    assert_true(r.phase[0].theta_lower >= 1.0);
    assert_true(r.phase[0].theta_lower <= 16.0 / 15 * (1 + 1e-9));
    assert_int_equal(r.phase[0].converged, 1);
    near(r.step_lower, r.ideal, 1e-12);
    near(r.step_upper, r.ideal, 1e-12);
    moore_step_result_clear(&r);
    moore_graph_free(g);
}

/* The exact θ of phase `name` of w on g (its matrix made here). */
static double exact_theta(const moore_graph *g, const moore_workload *w, const char *name)
{
    moore_error err;
    moore_phases p;
    moore_flow_options fo;
    moore_flow_result f;
    int64_t n;
    assert_int_equal(moore_workload_ranks(g, w, &n, &err), MOORE_OK);
    int32_t *sr = malloc((size_t)n * sizeof *sr);
    assert_int_equal(moore_workload_place(g, w, 1, sr, &err), MOORE_OK);
    assert_int_equal(moore_workload_phases(g, w, sr, &p, &err), MOORE_OK);
    moore_flow_options_default(&fo);
    for (int32_t i = 0; i < p.count; i++)
        if (strcmp(p.phase[i].name, name) == 0)
            assert_int_equal(moore_flow_exact(g, p.phase[i].traffic, &fo, &f, &err), MOORE_OK);
    moore_phases_clear(&p);
    free(sr);
    return f.throughput;
}

static void combine_takes_the_dispatch_theta(void **state)
{
    (void)state;
    moore_graph *g = ring(16);
    moore_workload w;
    moore_error err;
    const char *spec = "moe:tp=1,pp=1,dp=8,ep=4,topk=1,skew=1,place=random";
    moore_step_result r = step_of(g, spec, NULL, 0);
    assert_int_equal(moore_workload_parse(spec, &w, &err), MOORE_OK);
    const moore_step_phase *d = NULL, *c = NULL;
    for (int32_t i = 0; i < r.count; i++) {
        d = strcmp(r.phase[i].name, "ep_dispatch") == 0 ? &r.phase[i] : d;
        c = strcmp(r.phase[i].name, "ep_combine") == 0 ? &r.phase[i] : c;
    }
    assert_non_null(d);
    assert_non_null(c);
    near(c->theta_lower, d->theta_lower, 1e-6);
    near(c->theta_upper, d->theta_upper, 1e-6);
    double exact = exact_theta(g, &w, "ep_combine");
    assert_true(c->theta_lower <= exact * (1 + 1e-7));
    assert_true(c->theta_upper >= exact * (1 - 1e-7));
    near(exact_theta(g, &w, "ep_dispatch"), exact, 1e-6);   /* θ(Tᵀ) = θ(T) */
    moore_step_result_clear(&r);
    moore_graph_free(g);
}

static const moore_phase *phase_named(const moore_phases *p, const char *name)
{
    for (int32_t i = 0; i < p->count; i++)
        if (strcmp(p->phase[i].name, name) == 0)
            return &p->phase[i];
    print_error("no phase %s\n", name);
    fail();
    return NULL;
}

static void gpt3_and_moe_bytes(void **state)
{
    (void)state;
    moore_graph *g = ring(16);
    moore_workload w;
    moore_error err;
    moore_phases p;
    int32_t sr[16];
    double a = 1.0 * 2048 * 12288 * 2;   /* activations of a micro-batch, bytes */
    assert_int_equal(moore_workload_parse("llm:tp=8,pp=2,dp=1,layers=16", &w, &err), MOORE_OK);
    assert_int_equal(moore_workload_place(g, &w, 1, sr, &err), MOORE_OK);
    assert_int_equal(moore_workload_phases(g, &w, sr, &p, &err), MOORE_OK);
    assert_int_equal(p.count, 2);   /* tp, pp */
    /* 4 all-reduces · 8 layers a stage · 8 micro-batches · 2·7/8·a */
    near(phase_named(&p, "tp")->bytes, 4 * 8 * 8 * 1.75 * a, 1e-12);
    near(phase_named(&p, "pp")->bytes, 8 * a, 1e-12);
    moore_phases_clear(&p);

    /* 4 EP ranks, one expert each, loads 1, 1/2, 1/3, 1/4 (Zipf 1), top-1:
     * rank 0 receives from the 3 others c·q0, q0 = 1/(25/12) = 12/25 */
    assert_int_equal(moore_workload_parse("moe:tp=1,pp=1,dp=4,ep=4,topk=1,skew=1", &w, &err),
                     MOORE_OK);
    assert_int_equal(moore_workload_place(g, &w, 1, sr, &err), MOORE_OK);
    assert_int_equal(moore_workload_phases(g, &w, sr, &p, &err), MOORE_OK);
    double c = 2.0 * 96 * 8 * 1 * a, q0 = 12.0 / 25, q3 = 3.0 / 25;
    const moore_phase *d = phase_named(&p, "ep_dispatch"), *cb = phase_named(&p, "ep_combine");
    near(d->bytes, 3 * q0 * c, 1e-12);
    near(cb->bytes, 3 * q0 * c, 1e-12);
    /* server 1 → server 3 carries c·q3 in dispatch, c·q1 in combine (units of bytes) */
    for (int64_t e = d->traffic->offs[1]; e < d->traffic->offs[2]; e++)
        if (d->traffic->dst[e] == 3)
            near(d->traffic->demand[e] * d->bytes, c * q3, 1e-12);
    for (int64_t e = cb->traffic->offs[1]; e < cb->traffic->offs[2]; e++)
        if (cb->traffic->dst[e] == 3)
            near(cb->traffic->demand[e] * cb->bytes, c * 6.0 / 25, 1e-12);
    moore_phases_clear(&p);
    /* the summed matrix takes even loads only */
    moore_traffic *t = NULL;
    assert_int_equal(moore_workload_build(g, &w, 1, &t, NULL, &err), MOORE_EINVAL);
    moore_graph_free(g);
}

static void search_never_worse(void **state)
{
    (void)state;
    struct { moore_graph *g; const char *job; } set[4];
    moore_builder *b;
    moore_error err;
    assert_int_equal(moore_builder_new(9, 18, &b, &err), MOORE_OK);
    for (int32_t v = 0; v < 9; v++) {
        tg_link(b, v, (v + 1) % 9);
        tg_link(b, v, (v + 3) % 9);
    }
    set[0].g = with_servers(b, 3);
    set[0].job = "llm:tp=2,pp=3,dp=4";
    set[1].g = tg_torus2(4, 4);
    assert_int_equal(moore_graph_set_endpoints_uniform(set[1].g, 3, &err), MOORE_OK);
    set[1].job = "moe:tp=3,pp=2,dp=4,ep=4,skew=1";
    set[2].g = ring(12);
    set[2].job = "allreduce:algo=ring,servers=10";
    set[3].g = clos2(4, 3);
    set[3].job = "alltoall:servers=9";
    static const moore_placement PL[3] = {MOORE_PLACE_LINEAR, MOORE_PLACE_RANDOM,
                                          MOORE_PLACE_GROUP};
    for (int i = 0; i < 4; i++) {
        moore_workload w;
        moore_step_options o;
        moore_step_options_default(&o);
        o.link_gbps = GBPS;
        o.routing = "ecmp";
        o.search_evals = 12;
        assert_int_equal(moore_workload_parse(set[i].job, &w, &err), MOORE_OK);
        double best = INFINITY;
        int64_t n;
        assert_int_equal(moore_workload_ranks(set[i].g, &w, &n, &err), MOORE_OK);
        int32_t *sr = malloc((size_t)n * sizeof *sr);
        for (int k = 0; k < 3; k++) {   /* each placement timed on its own */
            moore_workload v = w;
            v.place = PL[k];
            moore_step_result r;
            const moore_workload *vp = &v;
            const int32_t *srp = sr;
            assert_int_equal(moore_workload_place(set[i].g, &v, o.seed, sr, &err), MOORE_OK);
            assert_int_equal(moore_step_jobs(set[i].g, 1, &vp, &srp, &o, &r, &err), MOORE_OK);
            best = fmin(best, r.step_upper);
            moore_step_result_clear(&r);
        }
        moore_step_search s;
        moore_step_result r;
        assert_int_equal(moore_step_search_place(set[i].g, &w, &o, sr, &s, &r, &err), MOORE_OK);
        assert_true(r.step_upper <= best * (1 + 1e-12));
        near(fmin(fmin(s.linear, s.random), s.group), best, 1e-12);
        assert_true(s.gain >= 0);
        /* the placement it returns is one: distinct servers, and it times the same */
        moore_step_result again;
        const moore_workload *wp = &w;
        const int32_t *srp = sr;
        assert_int_equal(moore_step_jobs(set[i].g, 1, &wp, &srp, &o, &again, &err), MOORE_OK);
        near(again.step_upper, r.step_upper, 1e-12);
        moore_step_result_clear(&again);
        moore_step_result_clear(&r);
        free(sr);
        moore_graph_free(set[i].g);
    }
}

/* Job A on the first half of the servers, job B on the rest; the step of A
 * alone and with B. */
static void two_jobs(const moore_graph *g, const char *a, const char *bj, const char *routing,
                     double *alone, double *shared)
{
    moore_workload w[2];
    moore_error err;
    moore_step_options o;
    moore_step_options_default(&o);
    o.link_gbps = GBPS;
    o.routing = routing;
    o.exact = 1;
    int64_t S = moore_workload_servers(g), n[2];
    unsigned char *taken = calloc((size_t)S, 1);
    int32_t *sr[2];
    assert_int_equal(moore_workload_parse(a, &w[0], &err), MOORE_OK);
    assert_int_equal(moore_workload_parse(bj, &w[1], &err), MOORE_OK);
    for (int j = 0; j < 2; j++) {
        assert_int_equal(moore_workload_ranks(g, &w[j], &n[j], &err), MOORE_OK);
        sr[j] = malloc((size_t)n[j] * sizeof *sr[j]);
        assert_int_equal(moore_workload_place_on(g, &w[j], 1, taken, sr[j], &err), MOORE_OK);
        for (int64_t r = 0; r < n[j]; r++) {
            assert_int_equal(taken[sr[j][r]], 0);
            taken[sr[j][r]] = 1;
        }
    }
    const moore_workload *wp[2] = {&w[0], &w[1]};
    const int32_t *srp[2] = {sr[0], sr[1]};
    moore_step_result r[2];
    assert_int_equal(moore_step_jobs(g, 1, wp, srp, &o, r, &err), MOORE_OK);
    *alone = r[0].step_upper;
    moore_step_result_clear(&r[0]);
    assert_int_equal(moore_step_jobs(g, 2, wp, srp, &o, r, &err), MOORE_OK);
    *shared = r[0].step_upper;
    moore_step_result_clear(&r[0]);
    moore_step_result_clear(&r[1]);
    free(sr[0]);
    free(sr[1]);
    free(taken);
}

static void disjoint_jobs_on_a_clos(void **state)
{
    (void)state;
    double alone, shared;
    moore_graph *g = clos2(4, 3);   /* 12 servers: leaves 0-1 and 2-3 */
    two_jobs(g, "alltoall:servers=6,bytes=1e9", "allreduce:algo=ring,servers=6,bytes=1e9", NULL,
             &alone, &shared);
    near(shared, alone, 1e-6);
    near(alone, wire_seconds(5.0 / 6 * 1e9), 1e-6);
    two_jobs(g, "alltoall:servers=6,bytes=1e9", "alltoall:servers=6,bytes=1e9", "ecmp", &alone,
             &shared);
    near(shared, alone, 1e-12);
    moore_graph_free(g);
    /* on a ring the halves share links: the competing job slows it */
    g = ring(8);
    two_jobs(g, "alltoall:servers=4", "alltoall:servers=4", NULL, &alone, &shared);
    assert_true(shared > alone * (1 + 1e-3));
    moore_graph_free(g);
}

static void bad_input(void **state)
{
    (void)state;
    moore_graph *g = ring(4);
    moore_workload w;
    moore_error err;
    moore_step_options o;
    moore_step_result r;
    int32_t sr[4] = {0, 1, 2, 3};
    const moore_workload *wp = &w;
    const int32_t *srp = sr;
    assert_int_equal(moore_workload_parse("allreduce", &w, &err), MOORE_OK);
    double rates[4] = {0, -1, INFINITY, NAN};
    for (int i = 0; i < 4; i++) {
        moore_step_options_default(&o);
        o.link_gbps = rates[i];
        assert_int_equal(moore_step_jobs(g, 1, &wp, &srp, &o, &r, &err), MOORE_EINVAL);
    }
    moore_step_options_default(&o);
    o.overlap = "dp";
    o.compute = 1;
    assert_int_equal(moore_step_jobs(g, 1, &wp, &srp, &o, &r, &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "allreduce"));
    o.overlap = "allreduce";   /* a phase: the step counts max(phase, compute) */
    assert_int_equal(moore_step_jobs(g, 1, &wp, &srp, &o, &r, &err), MOORE_OK);
    near(r.step_upper, fmax(r.phase[0].seconds_upper, 1.0), 1e-12);
    moore_step_result_clear(&r);
    const char *bad[] = {"allreduce:bytes=0", "allreduce:bytes=-5", "allreduce:bytes=inf",
                         "alltoall:bytes=nan", "moe:tp=1,pp=1,dp=4", "moe:tp=1,pp=1,dp=4,ep=4,"
                         "experts=6", "llm:tp=1,pp=1,dp=4,skew=1", "moe:tp=1,pp=1,dp=4,ep=2,"
                         "skew=-1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(moore_workload_parse(bad[i], &w, &err), MOORE_EINVAL);
    int32_t twice[2] = {1, 1};
    assert_int_equal(moore_workload_parse("allreduce:servers=2", &w, &err), MOORE_OK);
    const moore_workload *two[2] = {&w, &w};
    const int32_t *srs[2] = {twice, twice};
    moore_step_options_default(&o);
    moore_step_result rr[2];
    assert_int_equal(moore_step_jobs(g, 2, two, srs, &o, rr, &err), MOORE_EINVAL);
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ring_allreduce_on_one_switch),
        cmocka_unit_test(alltoall_on_a_nonblocking_clos),
        cmocka_unit_test(tp_inside_a_switch_is_free),
        cmocka_unit_test(ring_allreduce_on_a_16_switch_ring),
        cmocka_unit_test(approximation_stops_at_line_rate),
        cmocka_unit_test(combine_takes_the_dispatch_theta),
        cmocka_unit_test(gpt3_and_moe_bytes),
        cmocka_unit_test(search_never_worse),
        cmocka_unit_test(disjoint_jobs_on_a_clos),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
