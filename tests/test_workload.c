/* test_workload.c — AI-training traffic (src/workload/, docs/ai-traffic.md)
 * checked against theory and an independent construction:
 *   - every server of a job sends 1 in total, the others 0;
 *   - TP groups that fit on one switch add no network demand;
 *   - one DP ring over every server of the cycle C_n: every switch sends 1
 *     to the next, so the exact θ is n/(n−1) (a fraction x of each demand
 *     goes the long way round: θ(1−x) = 1 on the forward arcs and
 *     (n−1)xθ = 1 on the backward ones, x = 1/n);
 *   - all-to-all over every server is the uniform matrix p_s·p_t/(S−1);
 *   - group placement never spreads a TP group over more than ⌈T/p⌉ switches
 *     (on 15 families), and its structural groups (structure.c) are the
 *     families' own: Megafly groups, PolarStar super-nodes, MLFM columns and
 *     OFT leaf pairs (all common neighbours shared), k-ary n-tree pods,
 *     flattened-butterfly cliques;
 *   - a small job's switch matrix equals one built here server pair by
 *     server pair (a second construction of the patterns of workload.h);
 *   - bad descriptions are refused with MOORE_EINVAL. */
#include "testutil.h"
#include "testgraphs.h"
#include "moore/workload.h"
#include "workload/workload_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static moore_graph *cycle(int32_t n, int32_t p)
{
    moore_builder *b;
    moore_error err;
    assert_int_equal(moore_builder_new(n, n, &b, &err), MOORE_OK);
    for (int32_t v = 0; v < n; v++)
        tg_link(b, v, (v + 1) % n);
    moore_graph *g = tg_finish(b);
    assert_int_equal(moore_graph_set_endpoints_uniform(g, p, &err), MOORE_OK);
    return g;
}

static moore_graph *torus_p(int32_t a, int32_t b, int32_t p)
{
    moore_error err;
    moore_graph *g = tg_torus2(a, b);
    assert_int_equal(moore_graph_set_endpoints_uniform(g, p, &err), MOORE_OK);
    return g;
}

static moore_traffic *build(const moore_graph *g, const char *spec, double *sent)
{
    moore_workload w;
    moore_error err;
    moore_traffic *t = NULL;
    if (moore_workload_parse(spec, &w, &err) || moore_workload_build(g, &w, 7, &t, sent, &err)) {
        print_error("%s: %s\n", spec, err.msg);
        fail();
    }
    return t;
}

static double entry(const moore_traffic *t, int32_t s, int32_t d)
{
    for (int64_t i = t->offs[s]; i < t->offs[s + 1]; i++)
        if (t->dst[i] == d)
            return t->demand[i];
    return 0.0;
}

static void every_server_sends_one(void **state)
{
    (void)state;
    moore_graph *g = torus_p(4, 4, 5);   /* 80 servers */
    const char *specs[] = {
        "llm:tp=4,pp=3,dp=4,ep=2,place=random,seed=3",
        "llm:tp=2,pp=2,dp=6,ep=3,topk=2,tp_algo=ring",
        "llm:tp=4,pp=2,dp=8,place=group",
        "alltoall:servers=50,place=random",
        "allreduce:algo=tree,servers=37",
        "allreduce:algo=hierarchical,place=random",
        "allreduce:algo=ring,servers=80",
    };
    const int64_t ranks[] = {48, 24, 64, 50, 37, 80, 80};
    double sent[80];
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
        moore_traffic *t = build(g, specs[k], sent);
        int64_t in_job = 0;
        for (int s = 0; s < 80; s++) {
            if (sent[s] != 0.0) {
                assert_true(fabs(sent[s] - 1.0) < 1e-12);
                in_job++;
            }
        }
        assert_int_equal(in_job, ranks[k]);
        /* the switch matrix carries at most what its servers send, never to itself */
        double total = 0.0;
        for (int32_t s = 0; s < g->n; s++) {
            double row = 0.0;
            for (int64_t i = t->offs[s]; i < t->offs[s + 1]; i++) {
                assert_int_not_equal(t->dst[i], s);
                assert_true(t->demand[i] > 0.0);
                row += t->demand[i];
            }
            assert_true(row <= 5.0 + 1e-9);
            total += row;
        }
        assert_true(fabs(total - t->total) < 1e-9);
        moore_traffic_free(t);
    }
    moore_graph_free(g);
}

static void tp_on_one_switch_is_free(void **state)
{
    (void)state;
    moore_graph *g = torus_p(3, 3, 4);
    /* only TP traffic (the other volumes 0): groups of 4 on switches of 4 servers */
    moore_traffic *t = build(g, "llm:tp=4,pp=3,dp=3,vol_pp=0,vol_dp=0", NULL);
    assert_int_equal(t->offs[g->n], 0);
    assert_true(t->total == 0.0);
    moore_traffic_free(t);
    t = build(g, "llm:tp=4,pp=3,dp=3,vol_pp=0,vol_dp=0,place=random", NULL);
    assert_true(t->total > 0.0);
    moore_traffic_free(t);
    moore_graph_free(g);
    /* 5 servers a switch: linear order splits groups of 4, group placement does not */
    g = torus_p(3, 3, 5);
    t = build(g, "llm:tp=4,pp=3,dp=3,vol_pp=0,vol_dp=0", NULL);
    assert_true(t->total > 0.0);
    moore_traffic_free(t);
    t = build(g, "llm:tp=4,pp=3,dp=3,vol_pp=0,vol_dp=0,place=group", NULL);
    assert_true(t->total == 0.0);
    moore_traffic_free(t);
    moore_graph_free(g);
}

static void dp_ring_on_a_cycle(void **state)
{
    (void)state;
    const int32_t ns[] = {5, 8};
    const int32_t ps[] = {1, 2};
    for (int i = 0; i < 2; i++) {
        int32_t n = ns[i], p = ps[i];
        moore_graph *g = cycle(n, p);
        char spec[64];
        snprintf(spec, sizeof spec, "llm:tp=1,pp=1,dp=%d", (int)(n * p));
        const char *specs[] = {spec, "allreduce:algo=ring"};
        for (int k = 0; k < 2; k++) {
            moore_traffic *t = build(g, specs[k], NULL);
            for (int32_t s = 0; s < n; s++)   /* every switch sends 1 to the next */
                assert_true(fabs(entry(t, s, (s + 1) % n) - 1.0) < 1e-12);
            assert_true(fabs(t->total - n) < 1e-9);
            moore_flow_result r;
            moore_error err;
            assert_int_equal(moore_flow_exact(g, t, NULL, &r, &err), MOORE_OK);
            assert_true(fabs(r.throughput - (double)n / (n - 1)) < 1e-6);
            moore_traffic_free(t);
        }
        moore_graph_free(g);
    }
}

static void alltoall_is_uniform(void **state)
{
    (void)state;
    moore_graph *g = tu_build("jellyfish:n=12,d=3,p=3");
    moore_traffic *t = build(g, "alltoall", NULL);
    int64_t S = 36;
    for (int32_t s = 0; s < g->n; s++)
        for (int32_t d = 0; d < g->n; d++)
            if (s != d)
                assert_true(fabs(entry(t, s, d) - 9.0 / (double)(S - 1)) < 1e-12);
    assert_int_equal(t->offs[g->n], 12 * 11);
    moore_traffic_free(t);
    moore_graph_free(g);
}

/* Distinct switches of ranks r0..r0+T-1 (sw: the switch of every server). */
static int switches_used(const int32_t *srv, const int32_t *sw, int64_t r0, int64_t T)
{
    int used = 0;
    for (int64_t i = 0; i < T; i++) {
        int seen = 0;
        for (int64_t j = 0; j < i; j++)
            seen |= sw[srv[r0 + j]] == sw[srv[r0 + i]];
        used += !seen;
    }
    return used;
}

/* Servers a switch of g holds when it holds any (they must all hold the same). */
static int64_t servers_per_switch(const moore_graph *g, int32_t *with_servers)
{
    int64_t p = 0;
    *with_servers = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (g->endpoints[v] > 0) {
            assert_true(p == 0 || p == g->endpoints[v]);
            p = g->endpoints[v];
            (*with_servers)++;
        }
    return p;
}

/* A job on at most half of the servers: every TP group on ⌈T/p⌉ switches, on
 * every family whose structure `group` reads (structure.c) and the others. */
static void group_uses_fewest_switches(void **state)
{
    (void)state;
    moore_error err;
    const char *specs[] = {"xpander:d=4,k=6,p=5", "slimfly:q=5,p=5", "jellyfish:n=30,d=4,p=5",
                           "megafly:d=8,p=4", "polarstar:q=3,jd=3,p=3", "mlfm:h=4,p=4",
                           "oft:k=4,p=4", "karyntree:k=4,n=3,p=4", "flatbutterfly:n=3,k=4,p=4",
                           "fattree:k=6", "clos:radix=8,endpoints=96", "kautz:b=3,n=3,p=4",
                           "arrangement:n=5,k=2,p=4", "polarfly:q=5,p=4", "hyperx:L=2,S=4,p=4"};
    const int64_t tps[] = {1, 3, 4, 5, 8, 10, 12};
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
        moore_graph *g = tu_build(specs[k]);
        int64_t S = moore_workload_servers(g), *first = NULL;
        int32_t *sw = NULL, hosts;
        int64_t p = servers_per_switch(g, &hosts);
        assert_int_equal(work_servers(g, &first, &sw, &err), MOORE_OK);
        for (size_t i = 0; i < sizeof tps / sizeof *tps; i++) {
            int64_t T = tps[i];
            int64_t per = T <= p ? p / T : 1;              /* groups a switch can take whole */
            int64_t groups = T <= p ? per * hosts / 2 : S / (2 * T);
            char spec[96];
            snprintf(spec, sizeof spec, "llm:tp=%d,pp=1,dp=%d,place=group", (int)T, (int)groups);
            moore_workload w;
            assert_int_equal(moore_workload_parse(spec, &w, &err), MOORE_OK);
            int32_t *srv = malloc((size_t)(T * groups) * sizeof *srv);
            assert_int_equal(moore_workload_place(g, &w, 1, srv, &err), MOORE_OK);
            int *hit = calloc((size_t)S, sizeof *hit);
            for (int64_t r = 0; r < T * groups; r++) {
                assert_true(srv[r] >= 0 && srv[r] < S);
                assert_int_equal(hit[srv[r]]++, 0);   /* one rank per server */
            }
            for (int64_t r0 = 0; r0 < T * groups; r0 += T)
                assert_int_equal(switches_used(srv, sw, r0, T), (int)((T + p - 1) / p));
            free(hit);
            free(srv);
        }
        free(first);
        free(sw);
        moore_graph_free(g);
    }
}

/* Common neighbours of u and v. */
static int common(const moore_graph *g, int32_t u, int32_t v)
{
    int c = 0;
    for (int64_t i = g->offs[u]; i < g->offs[u + 1]; i++)
        for (int64_t j = g->offs[v]; j < g->offs[v + 1]; j++)
            c += g->adj[i] == g->adj[j];
    return c;
}

static int linked(const moore_graph *g, int32_t u, int32_t v)
{
    for (int64_t i = g->offs[u]; i < g->offs[u + 1]; i++)
        if (g->adj[i] == v)
            return 1;
    return 0;
}

/* The structural groups against the families' definitions (docs/families.md):
 * megafly group i = ids i·2a … i·2a+2a−1 (a = d/2); polarstar super-node i =
 * ids i·|J| …, |J| = 2·jd+2 for bdf; mlfm: two LRs of one group share all h
 * GRs; oft: two leaves of one group share all k L1 routers; karyntree: every
 * leaf–level-1 link stays inside a pod of k leaves; flatbutterfly: a group is
 * a clique of k switches. */
static void structure_follows_the_family(void **state)
{
    (void)state;
    moore_error err;
    const char *specs[] = {"megafly:d=8,p=4", "polarstar:q=3,jd=3,p=3", "mlfm:h=4,p=4",
                           "oft:k=4,p=4", "karyntree:k=4,n=3,p=4", "flatbutterfly:n=3,k=4,p=4"};
    for (int k = 0; k < 6; k++) {
        moore_graph *g = tu_build(specs[k]);
        int32_t *grp = malloc((size_t)g->n * sizeof *grp), groups = 0;
        int *size = calloc((size_t)g->n, sizeof *size);
        assert_int_equal(work_structure(g, grp, &groups, &err), MOORE_OK);
        for (int32_t v = 0; v < g->n; v++) {
            assert_true(grp[v] >= 0 && grp[v] < groups);
            size[grp[v]]++;
        }
        for (int32_t u = 0; u < g->n; u++)
            for (int32_t v = u + 1; v < g->n; v++) {
                int same = grp[u] == grp[v], servers = g->endpoints[u] && g->endpoints[v];
                if (k == 0)
                    assert_int_equal(same, u / 8 == v / 8);
                else if (k == 1)
                    assert_int_equal(same, u / 8 == v / 8);
                else if ((k == 2 || k == 3) && servers)
                    assert_int_equal(same, common(g, u, v) == 4);
                else if (k == 4 && linked(g, u, v) && (u < 16) != (v < 16) && v < 32)
                    assert_true(same);    /* leaves 0..15, level 1 16..31 */
                else if (k == 5 && same)
                    assert_true(linked(g, u, v));
            }
        for (int32_t v = 0; v < g->n; v++)
            if (k == 4 && v < 16)
                assert_int_equal(size[grp[v]], 8);   /* 4 leaves + 4 level-1 switches */
            else if (k == 5)
                assert_int_equal(size[grp[v]], 4);
        free(grp);
        free(size);
        moore_graph_free(g);
    }
}

/* A TP group of two switches' worth on Megafly and PolarStar stays in one
 * Dragonfly group / super-node. */
static void group_stays_in_a_family_group(void **state)
{
    (void)state;
    moore_error err;
    const char *specs[] = {"megafly:d=8,p=4", "polarstar:q=3,jd=3,p=3"};
    const char *jobs[] = {"llm:tp=8,pp=2,dp=8,place=group", "llm:tp=6,pp=3,dp=8,place=group"};
    for (int k = 0; k < 2; k++) {
        moore_graph *g = tu_build(specs[k]);
        int64_t *first = NULL, N;
        int32_t *sw = NULL, groups;
        int32_t *grp = malloc((size_t)g->n * sizeof *grp);
        moore_workload w;
        assert_int_equal(work_servers(g, &first, &sw, &err), MOORE_OK);
        assert_int_equal(work_structure(g, grp, &groups, &err), MOORE_OK);
        assert_int_equal(moore_workload_parse(jobs[k], &w, &err), MOORE_OK);
        assert_int_equal(moore_workload_ranks(g, &w, &N, &err), MOORE_OK);
        int32_t *srv = malloc((size_t)N * sizeof *srv);
        assert_int_equal(moore_workload_place(g, &w, 1, srv, &err), MOORE_OK);
        for (int64_t r0 = 0; r0 < N; r0 += w.tp) {
            assert_int_equal(switches_used(srv, sw, r0, w.tp), 2);
            for (int i = 1; i < w.tp; i++)
                assert_int_equal(grp[sw[srv[r0 + i]]], grp[sw[srv[r0]]]);
        }
        free(srv);
        free(grp);
        free(first);
        free(sw);
        moore_graph_free(g);
    }
}

/* Xpander super-nodes are racks: a TP group of two switches' worth stays in one. */
static void group_stays_in_a_super_node(void **state)
{
    (void)state;
    moore_error err;
    moore_graph *g = tu_build("xpander:d=4,k=6,p=4");
    int32_t rack[30], racks;
    assert_int_equal(moore_layout_place(g, 0, rack, &racks, &err), MOORE_OK);
    moore_workload w;
    assert_int_equal(moore_workload_parse("llm:tp=8,pp=1,dp=15,place=group", &w, &err), MOORE_OK);
    int32_t srv[120];
    assert_int_equal(moore_workload_place(g, &w, 1, srv, &err), MOORE_OK);
    for (int r0 = 0; r0 < 120; r0 += 8)
        for (int i = 1; i < 8; i++)
            assert_int_equal(rack[srv[r0 + i] / 4], rack[srv[r0] / 4]);
    moore_graph_free(g);
}

/* ---- a second construction: the server-level matrix pair by pair ---- */

static void add(double *m, int64_t S, const int32_t *srv, int64_t a, int64_t b, double w)
{
    m[srv[a] * S + srv[b]] += w;
}

/* Rank r = t + T(p + P d); bytes of vol_tp, vol_pp (half at the ends), vol_dp, vol_ep·K. */
static void brute_llm(int64_t T, int64_t P, int64_t D, int64_t E, int64_t K, const double vol[4],
                      const int32_t *srv, int64_t S, double *m)
{
    for (int64_t r = 0; r < T * P * D; r++) {
        int64_t t = r % T, p = (r / T) % P, d = r / (T * P);
        double b = (T > 1 ? vol[0] : 0) + (P > 1 ? (p == 0 || p == P - 1 ? vol[1] / 2 : vol[1]) : 0) +
                   (D > 1 ? vol[2] : 0) + (E > 1 ? vol[3] * K : 0);
        for (int64_t u = 0; u < T; u++)          /* TP all-to-all */
            if (u != t)
                add(m, S, srv, r, u + T * (p + P * d), vol[0] / b / (T - 1));
        if (p + 1 < P)
            add(m, S, srv, r, t + T * (p + 1 + P * d), vol[1] / 2 / b);
        if (p > 0)
            add(m, S, srv, r, t + T * (p - 1 + P * d), vol[1] / 2 / b);
        if (D > 1)                                /* DP ring */
            add(m, S, srv, r, t + T * (p + P * ((d + 1) % D)), vol[2] / b);
        for (int64_t e = (d / E) * E; E > 1 && e < (d / E) * E + E; e++)
            if (e != d)
                add(m, S, srv, r, t + T * (p + P * e), vol[3] * K / b / (E - 1));
    }
}

static void matches_pairwise_construction(void **state)
{
    (void)state;
    moore_error err;
    moore_graph *g = torus_p(3, 4, 3);   /* 36 servers, 3 a switch */
    const int64_t S = 36;
    const char *spec = "llm:tp=2,pp=3,dp=6,ep=3,topk=2,place=random,seed=11,vol_tp=5,vol_pp=2,"
                       "vol_dp=3,vol_ep=1";
    const double vol[4] = {5, 2, 3, 1};
    moore_workload w;
    assert_int_equal(moore_workload_parse(spec, &w, &err), MOORE_OK);
    int32_t srv[36];
    assert_int_equal(moore_workload_place(g, &w, 0, srv, &err), MOORE_OK);
    double *m = calloc((size_t)(S * S), sizeof *m);
    brute_llm(2, 3, 6, 3, 2, vol, srv, S, m);
    moore_traffic *t = build(g, spec, NULL);
    for (int32_t a = 0; a < g->n; a++)
        for (int32_t b = 0; b < g->n; b++) {
            double want = 0.0;
            for (int64_t i = 0; i < 3 && a != b; i++)
                for (int64_t j = 0; j < 3; j++)
                    want += m[(a * 3 + i) * S + b * 3 + j];
            assert_true(fabs(entry(t, a, b) - want) < 1e-12);
        }
    moore_traffic_free(t);
    free(m);
    moore_graph_free(g);
}

static void random_placement_is_seeded(void **state)
{
    (void)state;
    moore_graph *g = torus_p(4, 4, 2);
    moore_traffic *a = build(g, "llm:tp=2,pp=2,dp=8,place=random,seed=5", NULL);
    moore_traffic *b = build(g, "llm:tp=2,pp=2,dp=8,place=random,seed=5", NULL);
    moore_traffic *c = build(g, "llm:tp=2,pp=2,dp=8,place=random,seed=6", NULL);
    assert_int_equal(a->offs[g->n], b->offs[g->n]);
    assert_memory_equal(a->dst, b->dst, (size_t)a->offs[g->n] * sizeof *a->dst);
    assert_memory_equal(a->demand, b->demand, (size_t)a->offs[g->n] * sizeof *a->demand);
    int same = a->offs[g->n] == c->offs[g->n] &&
               memcmp(a->dst, c->dst, (size_t)a->offs[g->n] * sizeof *a->dst) == 0 &&
               memcmp(a->demand, c->demand, (size_t)a->offs[g->n] * sizeof *a->demand) == 0;
    assert_false(same);
    moore_traffic_free(a);
    moore_traffic_free(b);
    moore_traffic_free(c);
    moore_graph_free(g);
}

static void bad_descriptions(void **state)
{
    (void)state;
    moore_graph *g = torus_p(3, 3, 2);   /* 18 servers */
    const char *bad[] = {
        "llm:tp=4,pp=2,dp=4",             /* 32 ranks > 18 servers */
        "llm:tp=2,pp=2,dp=2,ranks=9",     /* T·P·D = 8 */
        "llm:tp=2,pp=1,dp=3,ep=2",        /* E does not divide D */
        "llm:tp=2,pp=1,dp=4,ep=2,topk=3", /* K > E */
        "llm:tp=2,pp=2,dp=2,place=spread",
        "llm:tp=2,pp=2,dp=2,tp_algo=tree",
        "allreduce:algo=butterfly",
        "llm:tp=0,pp=1,dp=2",
        "llm:tp=-2,pp=1,dp=2",
        "llm:pp=1,dp=2",
        "llm:tp=2,pp=1,dp=2,vol_tp=-1",
        "alltoall:servers=0",
        "alltoall:servers=19",
        "alltoall:colour=blue",
        "llm:tp=2,pp=1,dp=2,seed=-1",
        "llmx:tp=2",
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        moore_traffic *t = (moore_traffic *)1;
        moore_error err;
        err.msg[0] = '\0';
        int rc = moore_traffic_make(g, bad[k], 1, &t, &err);
        if (rc != MOORE_EINVAL)
            print_error("%s: rc %d\n", bad[k], rc);
        assert_int_equal(rc, MOORE_EINVAL);
        assert_null(t);
        assert_non_null(strchr(err.msg, ' '));
        assert_null(strchr(err.msg, '\n'));
    }
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_server_sends_one),
        cmocka_unit_test(tp_on_one_switch_is_free),
        cmocka_unit_test(dp_ring_on_a_cycle),
        cmocka_unit_test(alltoall_is_uniform),
        cmocka_unit_test(group_uses_fewest_switches),
        cmocka_unit_test(group_stays_in_a_super_node),
        cmocka_unit_test(structure_follows_the_family),
        cmocka_unit_test(group_stays_in_a_family_group),
        cmocka_unit_test(matches_pairwise_construction),
        cmocka_unit_test(random_placement_is_seeded),
        cmocka_unit_test(bad_descriptions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
