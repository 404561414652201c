/* test_xpander.c — both Xpander variants: switch counts, degrees, exactly k
 * links between the super-nodes of every meta-link and none elsewhere
 * (none inside a super-node in the paper's variant, a full mesh in the
 * clique variant), meta-graphs by keyword, SPEC, nested SPEC and file, the 2-lift
 * matchings, tries, endpoints, counts, the planner and bad parameters. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* links[a][b] between super-nodes a and b (switch v is in super-node v / k). */
static int64_t *block_counts(const moore_graph *g, int32_t k)
{
    int32_t s = g->n / k;
    int64_t *c = calloc((size_t)s * (size_t)s, sizeof *c);
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t j = g->offs[u]; j < g->offs[u + 1]; j++)
            c[(size_t)(u / k) * s + g->adj[j] / k]++;
    return c;
}

/* Every meta-link a–b carries exactly k links (a perfect matching, since
 * degrees are checked too), non-links carry none, and each super-node holds
 * `inside` links inside it. */
static void check_blocks(const moore_graph *g, const moore_graph *meta, int32_t k,
                         int64_t inside)
{
    int32_t s = meta->n;
    assert_int_equal(g->n, s * k);
    int64_t *c = block_counts(g, k);
    for (int32_t a = 0; a < s; a++)
        for (int32_t b = 0; b < s; b++) {
            int64_t want = a == b ? 2 * inside : moore_graph_has_link(meta, a, b) ? k : 0;
            assert_int_equal(c[(size_t)a * s + b], want);
        }
    /* a perfect matching: every switch has exactly one neighbour in each
     * adjacent super-node */
    for (int32_t u = 0; u < g->n; u++) {
        int32_t *seen = calloc((size_t)s, sizeof *seen);
        for (int64_t j = g->offs[u]; j < g->offs[u + 1]; j++)
            seen[g->adj[j] / k]++;
        for (int32_t b = 0; b < s; b++)
            if (b != u / k)
                assert_int_equal(seen[b], moore_graph_has_link(meta, u / k, b));
        free(seen);
    }
    free(c);
}

static void paper_variant(void **state)
{
    (void)state;
    moore_graph *g = tu_build("xpander:d=10,k=21");
    moore_graph *meta = tu_build("complete:n=11");
    assert_int_equal(g->n, 231);
    assert_true(moore_graph_is_regular(g));
    assert_int_equal(moore_graph_degree_max(g), 10);
    check_blocks(g, meta, 21, 0);
    assert_int_equal(g->endpoints[0], 10); /* 1:1 as in the paper */
    assert_string_equal(g->labels[22], "1.1");
    moore_graph_free(g);
    moore_graph_free(meta);
    /* k = 1 is the meta-graph itself: K_{d+1}, diameter 1 */
    g = tu_build("xpander:d=5,k=1");
    assert_int_equal(g->n, 6);
    assert_int_equal(g->m, 15);
    assert_int_equal(tu_diameter(g), 1);
    moore_graph_free(g);
}

static void seed_variant(void **state)
{
    (void)state;
    moore_graph *g = tu_build("xpander:meta=petersen,k=4,intra=clique");
    moore_graph *meta = tu_build("petersen");
    assert_int_equal(g->n, 40);
    assert_true(moore_graph_is_regular(g));
    assert_int_equal(moore_graph_degree_max(g), 6); /* (k−1) + d_M = 3 + 3 */
    check_blocks(g, meta, 4, 6);
    assert_int_equal(g->endpoints[0], 6);
    moore_graph_free(g);
    moore_graph_free(meta);
    /* the example common in the literature: a 3-cycle meta-graph (K_3), k = 4 */
    g = tu_build("xpander:meta=complete:n=3,k=4,intra=clique");
    assert_int_equal(g->n, 12);
    assert_int_equal(moore_graph_degree_max(g), 5);
    assert_int_equal(tu_diameter(g), 2);
    moore_graph_free(g);
}

static void meta_from_spec_file_and_nesting(void **state)
{
    (void)state;
    moore_error err;
    /* a file */
    char path[] = "/tmp/moore_meta_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    moore_graph *hs = tu_build("hoffman-singleton");
    assert_int_equal(moore_graph_write(hs, path, "edgelist", &err), MOORE_OK);
    char spec[160];
    snprintf(spec, sizeof spec, "xpander:meta=%s,k=3", path);
    moore_graph *g = tu_build(spec);
    check_blocks(g, hs, 3, 0);
    assert_int_equal(moore_graph_degree_max(g), 7);
    moore_graph_free(g);
    unlink(path);
    /* a SPEC, and a nested SPEC with ';' for ',' */
    g = tu_build("xpander:meta=hoffman-singleton,k=2,intra=clique");
    check_blocks(g, hs, 2, 1);
    moore_graph_free(g);
    moore_graph_free(hs);
    moore_graph *inner = tu_build("xpander:d=3,k=2,seed=4");
    g = tu_build("xpander:meta=xpander:d=3;k=2;seed=4,k=5");
    check_blocks(g, inner, 5, 0);
    moore_graph_free(g);
    moore_graph_free(inner);
    inner = tu_build("jellyfish:n=20,d=4,seed=2");
    g = tu_build("xpander:meta=jellyfish:n=20;d=4;seed=2,k=3,intra=clique");
    check_blocks(g, inner, 3, 3);
    moore_graph_free(g);
    moore_graph_free(inner);
    /* d= agrees with the meta-graph: fine; disagrees: refused */
    g = tu_build("xpander:meta=petersen,d=3,k=2");
    moore_graph_free(g);
    assert_non_null(strstr(tu_build_fails("xpander:meta=petersen,d=4,k=2", MOORE_EINVAL),
                           "d=4"));
    assert_non_null(strstr(tu_build_fails("xpander:meta=nosuch,k=2", MOORE_EINVAL), "nosuch"));
    tu_build_fails("xpander:meta=complete:n=1,k=2", MOORE_EINVAL); /* no links */
}

/* matching=lift: a 2^t-fold cover of the meta-graph, so the same block
 * structure; different seeds give different covers; k must be 2^t. */
static void lift_matchings(void **state)
{
    (void)state;
    moore_graph *meta = tu_build("complete:n=7");
    moore_graph *a = tu_build("xpander:d=6,k=16,matching=lift,seed=1");
    moore_graph *b = tu_build("xpander:d=6,k=16,matching=lift,seed=1");
    moore_graph *c = tu_build("xpander:d=6,k=16,matching=lift,seed=2");
    check_blocks(a, meta, 16, 0);
    assert_true(moore_graph_is_regular(a));
    assert_int_equal(memcmp(a->adj, b->adj, (size_t)(2 * a->m) * sizeof *a->adj), 0);
    assert_int_not_equal(memcmp(a->adj, c->adj, (size_t)(2 * a->m) * sizeof *a->adj), 0);
    moore_graph_free(a);
    moore_graph_free(b);
    moore_graph_free(c);
    moore_graph_free(meta);
    meta = tu_build("petersen");
    a = tu_build("xpander:meta=petersen,k=4,intra=clique,matching=lift");
    check_blocks(a, meta, 4, 6);
    moore_graph_free(a);
    moore_graph_free(meta);
    assert_non_null(strstr(tu_build_fails("xpander:d=6,k=12,matching=lift", MOORE_EINVAL),
                           "power of two"));
}

/* tries=T keeps the best of T candidates, the first of which is the
 * tries=1 graph: λ_nontrivial can only go down. */
static void tries_keep_the_best(void **state)
{
    (void)state;
    moore_graph *one = tu_build("xpander:d=5,k=12,seed=3");
    moore_graph *six = tu_build("xpander:d=5,k=12,seed=3,tries=6");
    moore_spectrum s1, s6;
    moore_error err;
    assert_int_equal(moore_spectrum_compute(one, NULL, MOORE_EIG_AUTO, &s1, &err), MOORE_OK);
    assert_int_equal(moore_spectrum_compute(six, NULL, MOORE_EIG_AUTO, &s6, &err), MOORE_OK);
    assert_true(s6.lambda_nontrivial <= s1.lambda_nontrivial + 1e-9);
    moore_graph_free(one);
    moore_graph_free(six);
}

static void counts_endpoints_and_refusals(void **state)
{
    (void)state;
    const char *specs[] = { "xpander:d=10,k=21", "xpander:d=10,k=21,radix=25",
                            "xpander:meta=petersen,k=4,intra=clique,p=2",
                            "xpander:meta=petersen,k=4,intra=clique,radix=10",
                            "xpander:d=4,k=8,matching=lift,tries=2" };
    const int32_t want_p[] = { 10, 15, 2, 4, 4 };
    for (int i = 0; i < 5; i++) {
        moore_counts c;
        moore_error err;
        assert_int_equal(moore_spec_counts(specs[i], &c, &err), MOORE_OK);
        moore_graph *g = tu_build(specs[i]);
        assert_int_equal(c.switches, g->n);
        assert_int_equal(c.links, g->m);
        assert_int_equal(c.degree_min, moore_graph_degree_min(g));
        assert_int_equal(c.degree_max, moore_graph_degree_max(g));
        assert_int_equal(c.endpoints, moore_graph_endpoints_total(g));
        assert_int_equal(g->endpoints[3], want_p[i]);
        moore_graph_free(g);
    }
    tu_build_fails("xpander:d=10", MOORE_EINVAL);
    tu_build_fails("xpander:k=5", MOORE_EINVAL);
    tu_build_fails("xpander:d=10,k=0", MOORE_EINVAL);
    tu_build_fails("xpander:d=0,k=3", MOORE_EINVAL);
    tu_build_fails("xpander:d=4,k=3,intra=mesh", MOORE_EINVAL);
    tu_build_fails("xpander:d=4,k=3,matching=best", MOORE_EINVAL);
    tu_build_fails("xpander:d=4,k=3,tries=0", MOORE_EINVAL);
    tu_build_fails("xpander:d=4,k=3,radix=4", MOORE_EINVAL);
    tu_build_fails("xpander:d=4,k=60000000", MOORE_EINVAL);
}

/* Radix 20 splits 10 + 10; 2,000 endpoints need k(d+1)p ≥ 2000: k = 19
 * (2,090), while k = 18 gives 1,980. */
static void planner(void **state)
{
    (void)state;
    const moore_family *f = moore_family_find("xpander");
    moore_error err;
    tu_plans p = { 0 };
    assert_int_equal(f->plan(20, 2000, tu_plan_collect, &p, &err), MOORE_OK);
    assert_int_equal(p.count, 1);
    assert_string_equal(p.spec[0], "xpander:d=10,k=19,radix=20");
    moore_counts c;
    assert_int_equal(moore_spec_counts(p.spec[0], &c, &err), MOORE_OK);
    assert_int_equal(c.endpoints, 2090);
    p.count = 0;
    assert_int_equal(f->plan(48, 0, tu_plan_collect, &p, &err), MOORE_OK);
    assert_true(p.count >= 3);
    for (int i = 0; i < p.count; i++) {
        assert_int_equal(moore_spec_counts(p.spec[i], &c, &err), MOORE_OK);
        assert_int_equal(c.degree_max, 24);
        assert_int_equal(c.endpoints, c.switches * 24);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paper_variant),
        cmocka_unit_test(seed_variant),
        cmocka_unit_test(meta_from_spec_file_and_nesting),
        cmocka_unit_test(lift_matchings),
        cmocka_unit_test(tries_keep_the_best),
        cmocka_unit_test(counts_endpoints_and_refusals),
        cmocka_unit_test(planner),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
