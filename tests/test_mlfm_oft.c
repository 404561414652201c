/* test_mlfm_oft.c — the two SC'15 diameter-two families of Kathareios et
 * al.: the Multi-Layer Full-Mesh (mlfm) and the two-level Orthogonal
 * Fat-Tree (oft).
 *
 * What is asserted, and where it comes from:
 *   - closed forms over sweeps (3h(h+1)/2 routers, h²(h+1) links; 3(k²−k+1)
 *     routers, 2k(k²−k+1) links), BFS diameters (MLFM 2/3/4 by h, OFT 3);
 *   - the papers' diameter 2 between endpoint-carrying routers;
 *   - OFT's orthogonality: two leaves of one layer share exactly one parent
 *     (two points of a projective plane lie on one line);
 *   - second constructions written here (the MLFM from its pair-of-positions
 *     rule with another numbering; the OFT from PG(2,q) point–line
 *     incidence by integer arithmetic mod a prime q), isomorphic (Traces);
 *   - refusals of impossible parameters, and the planners. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *with_endpoints(const moore_graph *g)
{
    char *mask = calloc((size_t)g->n, 1);
    for (int32_t v = 0; v < g->n; v++)
        mask[v] = g->endpoints[v] > 0;
    return mask;
}

/* ---- MLFM ---- */

static void mlfm_sweep(void **state)
{
    (void)state;
    char spec[64];
    for (int h = 1; h <= 8; h++) {
        snprintf(spec, sizeof spec, "mlfm:h=%d", h);
        tu_check_closed_forms(spec);
        moore_counts c = tu_counts(spec);
        assert_int_equal(c.switches, 3 * h * (h + 1) / 2);
        assert_int_equal(c.endpoints, h * h * (h + 1));
        moore_graph *g = tu_build(spec);
        char *mask = with_endpoints(g);
        assert_int_equal(tu_diameter_among(g, mask), 2); /* LR to LR: 2 hops */
        free(mask);
        moore_graph_free(g);
    }
    tu_check_closed_forms("mlfm:h=5,p=2");
}

/* Second construction: GRs first (pair (i,j), i < j, in colex order), then
 * the LRs position-major (LR of position i in layer L is grs + i·h + L). */
typedef struct mlfm_rule {
    int h, grs;
    int pair_i[64], pair_j[64];
} mlfm_rule;

static int mlfm_adjacent(const void *ctx, int32_t u, int32_t v)
{
    const mlfm_rule *r = ctx;
    if (u >= r->grs || v < r->grs) /* u < v: GRs come first, links only GR–LR */
        return 0;
    int pos = (v - r->grs) / r->h; /* position-major: position, then layer */
    return r->pair_i[u] == pos || r->pair_j[u] == pos;
}

static void mlfm_is_pairs_of_positions(void **state)
{
    (void)state;
    for (int h = 1; h <= 6; h++) {
        mlfm_rule r = { h, 0, { 0 }, { 0 } };
        for (int j = 0; j <= h; j++)
            for (int i = 0; i < j; i++, r.grs++) {
                r.pair_i[r.grs] = i;
                r.pair_j[r.grs] = j;
            }
        moore_graph *mine = tu_graph_from_rule(r.grs + h * (h + 1), mlfm_adjacent, &r);
        char spec[32];
        snprintf(spec, sizeof spec, "mlfm:h=%d", h);
        moore_graph *g = tu_build(spec);
        tu_assert_isomorphic(g, mine);
        moore_graph_free(g);
        moore_graph_free(mine);
    }
}

static void mlfm_refuses(void **state)
{
    (void)state;
    tu_expect_refused("mlfm", "h=");
    tu_expect_refused("mlfm:h=0", "h=0");
    tu_expect_refused("mlfm:h=-2", "h");
    tu_expect_refused("mlfm:h=3,radix=12", "radix");
}

/* ---- OFT ---- */

static void oft_sweep(void **state)
{
    (void)state;
    static const int ks[] = { 3, 4, 5, 6, 8, 9, 10, 12 };
    char spec[64];
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        int k = ks[i];
        snprintf(spec, sizeof spec, "oft:k=%d", k);
        tu_check_closed_forms(spec);
        moore_counts c = tu_counts(spec);
        assert_int_equal(c.switches, 3 * (k * k - k + 1));
        assert_int_equal(c.links, 2 * k * (k * k - k + 1));
        assert_int_equal(c.diameter, 3);
        moore_graph *g = tu_build(spec);
        char *mask = with_endpoints(g);
        assert_int_equal(tu_diameter_among(g, mask), 2);
        free(mask);
        /* orthogonality: two leaves of L0 share exactly one L1 router */
        int32_t R = k * k - k + 1;
        for (int32_t a = 0; a < R; a++)
            for (int32_t b = a + 1; b < R; b++) {
                int common = 0;
                for (int32_t l = 2 * R; l < 3 * R; l++)
                    common += moore_graph_has_link(g, a, l) && moore_graph_has_link(g, b, l);
                assert_int_equal(common, 1);
            }
        moore_graph_free(g);
    }
}

/* PG(2,q), q prime: normalised points listed by brute force; lines are the
 * same vectors; point P on line L iff P·L ≡ 0 (mod q). Numbering here: L1
 * routers first, then L0 and L2 leaves interleaved. */
typedef struct oft_rule {
    int q, R;
    int pt[64][3];
} oft_rule;

static int oft_adjacent(const void *ctx, int32_t u, int32_t v)
{
    const oft_rule *r = ctx;
    if (u >= r->R || v < r->R)
        return 0;
    const int *L = r->pt[u], *P = r->pt[(v - r->R) / 2];
    return (L[0] * P[0] + L[1] * P[1] + L[2] * P[2]) % r->q == 0;
}

static void oft_is_projective_incidence(void **state)
{
    (void)state;
    static const int qs[] = { 2, 3, 5, 7 };
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        oft_rule r = { qs[i], 0, { { 0 } } };
        for (int x = 0; x < r.q; x++)
            for (int y = 0; y < r.q; y++)
                for (int z = 0; z < r.q; z++) {
                    int first = x ? x : y ? y : z;
                    if (first != 1)
                        continue; /* one representative per projective point */
                    r.pt[r.R][0] = x;
                    r.pt[r.R][1] = y;
                    r.pt[r.R++][2] = z;
                }
        assert_int_equal(r.R, r.q * r.q + r.q + 1);
        moore_graph *mine = tu_graph_from_rule(3 * r.R, oft_adjacent, &r);
        char spec[32];
        snprintf(spec, sizeof spec, "oft:k=%d", r.q + 1);
        moore_graph *g = tu_build(spec);
        tu_assert_isomorphic(g, mine);
        moore_graph_free(g);
        moore_graph_free(mine);
    }
}

static void oft_refuses(void **state)
{
    (void)state;
    tu_expect_refused("oft", "k=");
    tu_expect_refused("oft:k=7", "k-1 = 6 is not a prime power");
    tu_expect_refused("oft:k=2", "not a prime power");
    tu_expect_refused("oft:k=11", "not a prime power");
    tu_expect_refused("oft:k=4,radix=8", "radix");
}

static void planners(void **state)
{
    (void)state;
    tu_check_planner("mlfm", 48, 0, 1200);
    assert_int_equal(tu_plan_count("mlfm", 48, 0), 23); /* h = 2..24 */
    tu_check_planner("oft", 48, 10000, 1200);
    assert_true(tu_plan_count("oft", 48, 10000) > 0);
    assert_int_equal(tu_plan_count("oft", 5, 0), 0);    /* k = 3 needs radix 6 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mlfm_sweep),  cmocka_unit_test(mlfm_is_pairs_of_positions),
        cmocka_unit_test(mlfm_refuses), cmocka_unit_test(oft_sweep),
        cmocka_unit_test(oft_is_projective_incidence), cmocka_unit_test(oft_refuses),
        cmocka_unit_test(planners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
