/* test_layout.c — placement, cable plan, cost model (include/moore/layout.h).
 *
 * Checked against theory, not against the code's output:
 * - Slim Fly: rack x = (0,x,·) ∪ (1,x,·). Links (0,x,y)~(1,m,c) iff
 *   y = m·x + c give, for racks x ≠ x', q links (0,x,·)–(1,x',·) (one per y)
 *   and q links (1,x,·)–(0,x',·) (one per c); links inside a group keep x.
 *   So every two racks share exactly 2q cables, for every δ; counted here by
 *   brute force over all switch pairs for q = 4, 5, 7, 8, 9, 11, 13.
 * - Xpander d=10,k=21: a perfect matching per meta-edge of K_11: 11 racks,
 *   21 cables between every two, none inside.
 * - Fat-tree k=4 (2x2 complete bipartite edge–agg per pod; agg j of each pod
 *   to core group j): 4 pod racks with 4 cables inside, 2 core racks.
 * - HyperX K_S^3 (S=8): lines of dimension 0 are K_8 inside a rack: 64 racks,
 *   64·28 intra-rack links; trunking K gives K CSV rows per link.
 * - Cap: racks never exceed it and split only natural groups.
 * - The CSV: one row per cable, every link K times, ports 0..deg·K−1 once
 *   each; with round prices the cost recomputed from the rows and the servers
 *   equals cost_total.
 * - METIS: fewer inter-rack links than a random balanced placement's
 *   expectation m·(1 − (c−1)/(n−1)). */
#include "testutil.h"
#include "moore/layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static moore_layout lay(const moore_graph *g, int32_t cap, const moore_cost_model *model)
{
    moore_cost_model m;
    moore_layout l;
    moore_error err;
    if (model)
        m = *model;
    else
        moore_cost_model_default(&m);
    m.switches_per_rack = cap;
    if (moore_layout_compute(g, &m, NULL, &l, &err) != MOORE_OK) {
        print_error("layout failed: %s\n", err.msg);
        fail();
    }
    return l;
}

/* Links between every two racks by brute force over switch pairs. */
static int64_t *rack_matrix(const moore_graph *g, const int32_t *rack, int32_t racks)
{
    int64_t *c = calloc((size_t)racks * racks, sizeof *c);
    assert_non_null(c);
    for (int32_t u = 0; u < g->n; u++)
        for (int32_t v = u + 1; v < g->n; v++)
            if (moore_graph_has_link(g, u, v)) {
                c[rack[u] * racks + rack[v]]++;
                if (rack[u] != rack[v])
                    c[rack[v] * racks + rack[u]]++;
            }
    return c;
}

static void slimfly_racks_every_delta(void **state)
{
    (void)state;
    const int qs[] = { 4, 5, 7, 8, 9, 11, 13 };
    for (size_t i = 0; i < sizeof qs / sizeof *qs; i++) {
        int q = qs[i];
        char spec[32];
        snprintf(spec, sizeof spec, "slimfly:q=%d", q);
        moore_graph *g = tu_build(spec);
        int32_t *rack = malloc((size_t)g->n * sizeof *rack), racks = 0;
        moore_error err;
        assert_int_equal(moore_layout_place(g, 0, rack, &racks, &err), MOORE_OK);
        assert_int_equal(racks, q);
        /* rack x holds q switches (0,x,.) and q switches (1,x,.) */
        int *count = calloc((size_t)racks * 2, sizeof *count);
        for (int32_t v = 0; v < g->n; v++) {
            int grp, x, y;
            assert_int_equal(sscanf(g->labels[v], "(%d,%d,%d)", &grp, &x, &y), 3);
            count[rack[v] * 2 + grp]++;
            for (int32_t w = 0; w < v; w++)
                if (sscanf(g->labels[w], "(%*d,%d", &y) == 1 && y == x)
                    assert_int_equal(rack[w], rack[v]);
        }
        for (int32_t r = 0; r < racks; r++) {
            assert_int_equal(count[2 * r], q);
            assert_int_equal(count[2 * r + 1], q);
        }
        int64_t *c = rack_matrix(g, rack, racks);
        for (int32_t a = 0; a < racks; a++)
            for (int32_t b = 0; b < racks; b++)
                if (a != b)
                    assert_int_equal(c[a * racks + b], 2 * q);
        moore_layout l = lay(g, 0, NULL);
        assert_int_equal(l.bundle_max, 2 * q);
        assert_true(fabs(l.bundle_mean - 2 * q) < 1e-12);
        assert_int_equal(l.rack_pairs_linked, q * (q - 1) / 2);
        moore_layout_free(&l);
        free(c);
        free(count);
        free(rack);
        moore_graph_free(g);
    }
}

static void slimfly_q7_and_xpander_counts(void **state)
{
    (void)state;
    moore_graph *g = tu_build("slimfly:q=7");
    moore_layout l = lay(g, 0, NULL);
    assert_int_equal(l.racks, 7);
    assert_int_equal(l.switches_per_rack_max, 14);
    assert_int_equal(l.bundle_max, 14);
    assert_int_equal(l.cables, g->m);
    assert_int_equal(l.cables_inter_rack, 21 * 14);
    moore_layout_free(&l);
    moore_graph_free(g);

    g = tu_build("xpander:d=10,k=21");
    l = lay(g, 0, NULL);
    assert_int_equal(l.racks, 11);
    int64_t *c = rack_matrix(g, l.rack, l.racks);
    for (int32_t a = 0; a < 11; a++)
        for (int32_t b = 0; b < 11; b++)
            assert_int_equal(c[a * 11 + b], a == b ? 0 : 21);
    assert_int_equal(l.cables_intra_rack, 0);
    assert_int_equal(l.rack_pairs_linked, 55);
    free(c);
    moore_layout_free(&l);
    moore_graph_free(g);
}

/* A cap below the natural group splits it into ⌈size/cap⌉ racks, each a
 * subset of one group. */
static void cap_splits_groups(void **state)
{
    (void)state;
    moore_graph *g = tu_build("slimfly:q=7");
    moore_layout whole = lay(g, 0, NULL), split = lay(g, 5, NULL);
    assert_int_equal(split.racks, 7 * 3);
    assert_true(split.switches_per_rack_max <= 5);
    for (int32_t u = 0; u < g->n; u++)
        for (int32_t v = 0; v < g->n; v++)
            if (split.rack[u] == split.rack[v])
                assert_int_equal(whole.rack[u], whole.rack[v]);
    moore_layout_free(&whole);
    moore_layout_free(&split);
    moore_graph_free(g);

    g = tu_build("xpander:d=10,k=21");
    split = lay(g, 10, NULL);
    assert_int_equal(split.racks, 11 * 3);
    assert_true(split.switches_per_rack_max <= 10);
    moore_layout_free(&split);
    moore_graph_free(g);
}

static void fattree_dragonfly_hyperx(void **state)
{
    (void)state;
    moore_graph *g = tu_build("fattree:k=4");
    moore_layout l = lay(g, 0, NULL);
    assert_int_equal(l.racks, 4 + 2);
    assert_int_equal(l.cables_intra_rack, 4 * 4);
    assert_int_equal(l.cables_inter_rack, 16);
    for (int32_t v = 0; v < g->n; v++) {
        int pod, i;
        if (sscanf(g->labels[v], "edge%d.%d", &pod, &i) == 2 ||
            sscanf(g->labels[v], "agg%d.%d", &pod, &i) == 2)
            assert_int_equal(l.rack[v], pod);
        else
            assert_true(l.rack[v] >= 4);
    }
    moore_layout_free(&l);
    moore_graph_free(g);

    g = tu_build("dragonfly:p=2"); /* a = 4, h = 2, g = 9: one link per group pair */
    l = lay(g, 0, NULL);
    assert_int_equal(l.racks, 9);
    assert_int_equal(l.bundle_max, 1);
    assert_int_equal(l.rack_pairs_linked, 36);
    assert_int_equal(l.cables_intra_rack, 9 * 6);
    moore_layout_free(&l);
    moore_graph_free(g);

    g = tu_build("hyperx:L=3,S=8,K=2");
    l = lay(g, 0, NULL);
    assert_int_equal(l.multiplicity, 2);
    assert_int_equal(l.racks, 64);
    assert_int_equal(l.cables, 2 * g->m);
    assert_int_equal(l.cables_intra_rack, 2 * 64 * 28);
    /* dimension-1 and dimension-2 links join racks sharing one digit: each
     * rack meets 14 others with 8 links (K = 2: 16 cables) */
    assert_int_equal(l.bundle_max, 16);
    assert_int_equal(l.rack_pairs_linked, 64 * 14 / 2);
    moore_layout_free(&l);
    moore_graph_free(g);
}

/* Reads the CSV of g's plan and checks it against the graph; returns the
 * cable cost recomputed from the rows under m. */
static double check_csv(const moore_graph *g, const moore_layout *l, const moore_cost_model *m)
{
    FILE *f = tmpfile();
    moore_error err;
    assert_non_null(f);
    assert_int_equal(moore_layout_write_cables(g, l, m, f, &err), MOORE_OK);
    rewind(f);
    char line[256];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line,
        "cable,from_switch,from_rack,from_port,to_switch,to_rack,to_port,length_m,type\n");
    int32_t k = l->multiplicity;
    int64_t *seen = calloc((size_t)g->n * g->n, sizeof *seen);
    int32_t *ports = calloc((size_t)g->n * (size_t)(g->n * k + 1), sizeof *ports);
    int64_t rows = 0;
    double cost = 0;
    while (fgets(line, sizeof line, f)) {
        long long id;
        int u, ru, pu, v, rv, pv;
        double len;
        char type[16];
        assert_int_equal(sscanf(line, "%lld,%d,%d,%d,%d,%d,%d,%lf,%15s", &id, &u, &ru, &pu, &v,
                                &rv, &pv, &len, type), 9);
        assert_int_equal(id, rows);
        assert_true(moore_graph_has_link(g, u, v));
        assert_int_equal(ru, l->rack[u]);
        assert_int_equal(rv, l->rack[v]);
        assert_true(pu >= 0 && pu < moore_graph_degree(g, u) * k);
        assert_true(pv >= 0 && pv < moore_graph_degree(g, v) * k);
        ports[(size_t)u * (g->n * k + 1) + pu]++;
        ports[(size_t)v * (g->n * k + 1) + pv]++;
        seen[(int64_t)(u < v ? u : v) * g->n + (u < v ? v : u)]++;
        int electrical = strcmp(type, "electrical") == 0;
        assert_true(electrical || strcmp(type, "optical") == 0);
        assert_int_equal(electrical, len <= m->electrical_max_m);
        cost += electrical ? m->electrical_cable_fixed + m->electrical_cable_per_m * len
                           : m->optical_cable_fixed + m->optical_cable_per_m * len;
        rows++;
    }
    assert_int_equal(rows, g->m * k);
    for (int32_t u = 0; u < g->n; u++) {
        for (int32_t v = u + 1; v < g->n; v++)
            assert_int_equal(seen[(int64_t)u * g->n + v], moore_graph_has_link(g, u, v) ? k : 0);
        for (int32_t p = 0; p < moore_graph_degree(g, u) * k; p++)
            assert_int_equal(ports[(size_t)u * (g->n * k + 1) + p], 1);
    }
    free(seen);
    free(ports);
    fclose(f);
    return cost;
}

static const char ROUND_MODEL[] =
    "{\"switch_port_cost\": 100, \"electrical_cable_fixed\": 10, \"electrical_cable_per_m\": 2,"
    " \"optical_cable_fixed\": 50, \"optical_cable_per_m\": 1, \"electrical_max_m\": 3,"
    " \"rack_width_m\": 1, \"rack_depth_m\": 1, \"aisle_m\": 1, \"cable_overhead_m\": 2,"
    " \"intra_rack_m\": 1, \"port_power_w\": 4}";

/* Creates the temporary file named by the template (XXXXXX replaced). */
static void make_temp(char *path)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static void csv_and_cost_recomputed(void **state)
{
    (void)state;
    char path[] = "/tmp/moore_test_layout_XXXXXX";
    make_temp(path);
    assert_int_equal(write_text(path, ROUND_MODEL), 0);
    moore_cost_model m;
    moore_error err;
    moore_cost_model_default(&m);
    assert_int_equal(moore_cost_model_read(path, &m, &err), MOORE_OK);
    remove(path);
    assert_true(m.switch_port_cost == 100 && m.aisle_m == 1 && m.port_power_w == 4);
    const char *specs[] = { "hyperx:L=2,S=4,K=3", "slimfly:q=5", "jellyfish:n=60,d=5,seed=3",
                            "fattree:k=6" };
    for (int i = 0; i < 4; i++) {
        moore_graph *g = tu_build(specs[i]);
        moore_layout l = lay(g, 7, &m);
        double cables = check_csv(g, &l, &m);
        int64_t endpoints = moore_graph_endpoints_total(g), ports = endpoints;
        for (int32_t v = 0; v < g->n; v++)
            ports += (int64_t)moore_graph_degree(g, v) * l.multiplicity;
        /* each server: one intra-rack cable of 1 m, electrical: 10 + 2 */
        double expect = 100.0 * ports + cables + 12.0 * endpoints;
        assert_true(fabs(l.cost_total - expect) < 1e-6 * expect);
        assert_true(fabs(l.power_w - 4.0 * ports) < 1e-9);
        moore_layout_free(&l);
        moore_graph_free(g);
    }
}

static void model_file_refusals(void **state)
{
    (void)state;
    const char *bad[] = { "{\"switch_port_cost\": -1}", "{\"aisle_m\": \"wide\"}",
                          "{\"rack_width\": 1}", "{\"switches_per_rack\": 2.5}", "[1, 2]",
                          "not json" };
    char path[] = "/tmp/moore_test_layout_XXXXXX";
    make_temp(path);
    moore_cost_model def, m;
    moore_error err;
    moore_cost_model_default(&def);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(write_text(path, bad[i]), 0);
        m = def;
        assert_int_equal(moore_cost_model_read(path, &m, &err), MOORE_EINVAL);
        assert_memory_equal(&m, &def, sizeof m); /* untouched on failure */
    }
    /* missing keys keep their values */
    assert_int_equal(write_text(path, "{\"optical_cable_per_m\": 9, \"switches_per_rack\": 4}"),
                     0);
    m = def;
    assert_int_equal(moore_cost_model_read(path, &m, &err), MOORE_OK);
    assert_true(m.optical_cable_per_m == 9 && m.switches_per_rack == 4);
    assert_true(m.switch_port_cost == def.switch_port_cost && m.aisle_m == def.aisle_m);
    remove(path);
    assert_int_equal(moore_cost_model_read(path, &m, &err), MOORE_EIO);
}

static void metis_balanced_and_better_than_random(void **state)
{
    (void)state;
    moore_graph *g = tu_build("jellyfish:n=200,d=6,seed=5");
    moore_layout l = lay(g, 16, NULL);
    assert_string_equal(l.placement, "metis");
    assert_int_equal(l.racks, 13);
    int32_t size[13] = { 0 };
    for (int32_t v = 0; v < g->n; v++) {
        assert_true(l.rack[v] >= 0 && l.rack[v] < 13);
        size[l.rack[v]]++;
    }
    for (int r = 0; r < 13; r++)
        assert_true(size[r] >= 1 && size[r] <= 16);
    double random_inter = (double)g->m * (1.0 - 15.0 / 199.0);
    assert_true((double)l.cables_inter_rack < random_inter);
    assert_int_equal(l.cables_inter_rack + l.cables_intra_rack, g->m);
    moore_layout_free(&l);
    /* default rack size for generic graphs: ⌈√200⌉ = 15 */
    l = lay(g, 0, NULL);
    assert_int_equal(l.switches_per_rack_max <= 15, 1);
    assert_int_equal(l.racks, 14);
    moore_layout_free(&l);
    moore_graph_free(g);
}

/* The floor: lengths are Manhattan distance on the ⌈√R⌉-column grid plus the
 * overhead, and the longest cable joins opposite corners. */
static void floor_lengths(void **state)
{
    (void)state;
    moore_graph *g = tu_build("xpander:d=10,k=21");
    moore_cost_model m;
    moore_cost_model_default(&m);
    moore_layout l = lay(g, 0, NULL);
    assert_int_equal(l.grid_cols, 4); /* 11 racks: 4 columns, 3 rows */
    assert_int_equal(l.grid_rows, 3);
    /* rack 10 stands at column 2, row 2; the farthest pair at columns 0/3 */
    double corner = 3 * m.rack_width_m + 2 * (m.rack_depth_m + m.aisle_m) + m.cable_overhead_m;
    double ten = 2 * m.rack_width_m + 2 * (m.rack_depth_m + m.aisle_m) + m.cable_overhead_m;
    assert_true(fabs(moore_layout_cable_length(&l, &m, 0, 10) - ten) < 1e-12);
    assert_true(l.cable_length_max_m <= corner + 1e-12);
    assert_true(moore_layout_cable_length(&l, &m, 3, 3) == m.intra_rack_m);
    moore_layout_free(&l);
    moore_graph_free(g);
}

/* A two-pod Clos labelled as the clos family labels its switches: pods of
 * leaves + spines, cores in their own rack after the pods. */
static void clos_labels_place_by_pod(void **state)
{
    (void)state;
    static const char *const LABEL[] = { "leaf0.0", "leaf0.1", "spine0.0", "spine0.1",
                                         "leaf1.0", "leaf1.1", "spine1.0", "spine1.1",
                                         "core0.0", "core0.1" };
    moore_builder *b;
    moore_graph *g;
    moore_error err;
    assert_int_equal(moore_builder_new(10, 16, &b, &err), MOORE_OK);
    for (int pod = 0; pod < 2; pod++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                assert_int_equal(moore_builder_add_link(b, 4 * pod + i, 4 * pod + 2 + j, &err),
                                 MOORE_OK);
                assert_int_equal(moore_builder_add_link(b, 4 * pod + 2 + i, 8 + j, &err),
                                 MOORE_OK);
            }
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_OK);
    assert_int_equal(moore_graph_set_origin(g, "clos", "radix=4,endpoints=8", &err), MOORE_OK);
    for (int v = 0; v < 10; v++)
        assert_int_equal(moore_graph_set_label(g, v, LABEL[v], &err), MOORE_OK);
    moore_layout l = lay(g, 0, NULL);
    assert_string_equal(l.placement, "pod");
    assert_int_equal(l.racks, 3);
    for (int v = 0; v < 10; v++)
        assert_int_equal(l.rack[v], v < 8 ? v / 4 : 2);
    assert_int_equal(l.cables_intra_rack, 8);
    assert_int_equal(l.cables_inter_rack, 8);
    moore_layout_free(&l);
    moore_graph_free(g);
}

/* Torus 12x12x12 at the default cap 48: 144 > 48, so a rack is one ring of
 * the first dimension (12 switches, 12 links inside); 8x4 fits one rack of 32. */
static void torus_by_first_dimension(void **state)
{
    (void)state;
    moore_graph *g = tu_build("torus:dims=12x12x12");
    moore_layout l = lay(g, 0, NULL);
    assert_string_equal(l.placement, "dimension");
    assert_int_equal(l.racks, 144);
    assert_int_equal(l.cables_intra_rack, 144 * 12);
    /* dimension 1 and 2 rings join each rack to 4 others with 12 links */
    assert_int_equal(l.rack_pairs_linked, 144 * 4 / 2);
    assert_int_equal(l.bundle_max, 12);
    moore_layout_free(&l);
    moore_graph_free(g);
    g = tu_build("torus:dims=8x4");
    l = lay(g, 0, NULL);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.cables_intra_rack, g->m);
    moore_layout_free(&l);
    moore_graph_free(g);
}

/* A Slim Fly written to an edge list and read back has no labels; its family
 * and parameters still give it the Slim Fly racks. */
static void family_file_keeps_its_placement(void **state)
{
    (void)state;
    char path[] = "/tmp/moore_test_layout_XXXXXX";
    make_temp(path);
    moore_error err;
    moore_graph *g = tu_build("slimfly:q=5"), *file = NULL;
    assert_int_equal(moore_graph_write(g, path, "edgelist", &err), MOORE_OK);
    assert_int_equal(moore_graph_read(path, &file, &err), MOORE_OK);
    remove(path);
    moore_layout a = lay(g, 0, NULL), b = lay(file, 0, NULL);
    assert_string_equal(b.placement, "slimfly");
    assert_int_equal(b.racks, 5);
    assert_memory_equal(a.rack, b.rack, (size_t)g->n * sizeof *a.rack);
    moore_layout_free(&a);
    moore_layout_free(&b);
    moore_graph_free(file);
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(slimfly_racks_every_delta),
        cmocka_unit_test(slimfly_q7_and_xpander_counts),
        cmocka_unit_test(cap_splits_groups),
        cmocka_unit_test(fattree_dragonfly_hyperx),
        cmocka_unit_test(csv_and_cost_recomputed),
        cmocka_unit_test(model_file_refusals),
        cmocka_unit_test(metis_balanced_and_better_than_random),
        cmocka_unit_test(floor_lengths),
        cmocka_unit_test(clos_labels_place_by_pod),
        cmocka_unit_test(torus_by_first_dimension),
        cmocka_unit_test(family_file_keeps_its_placement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
