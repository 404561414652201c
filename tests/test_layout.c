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
#include "moore/family.h"
#include "moore/layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Without a model: the default one with racks tall enough for any group, so
 * that every group is one rack and the structural counts below are about
 * the groups (physical racks by U are checked in racks_within_units). */
static moore_layout lay(const moore_graph *g, int32_t cap, const moore_cost_model *model)
{
    moore_cost_model m;
    moore_layout l;
    moore_error err;
    if (model) {
        m = *model;
    } else {
        moore_cost_model_default(&m);
        m.rack_units = 1 << 20;
    }
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
        assert_int_equal(l.group_pairs_linked, q * (q - 1) / 2);
        moore_layout_clear(&l);
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
    moore_layout_clear(&l);
    moore_graph_free(g);

    g = tu_build("xpander:d=10,k=21");
    l = lay(g, 0, NULL);
    assert_int_equal(l.racks, 11);
    int64_t *c = rack_matrix(g, l.rack, l.racks);
    for (int32_t a = 0; a < 11; a++)
        for (int32_t b = 0; b < 11; b++)
            assert_int_equal(c[a * 11 + b], a == b ? 0 : 21);
    assert_int_equal(l.cables_intra_rack, 0);
    assert_int_equal(l.group_pairs_linked, 55);
    free(c);
    moore_layout_clear(&l);
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
    moore_layout_clear(&whole);
    moore_layout_clear(&split);
    moore_graph_free(g);

    g = tu_build("xpander:d=10,k=21");
    split = lay(g, 10, NULL);
    assert_int_equal(split.racks, 11 * 3);
    assert_true(split.switches_per_rack_max <= 10);
    moore_layout_clear(&split);
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
    moore_layout_clear(&l);
    moore_graph_free(g);

    g = tu_build("dragonfly:p=2"); /* a = 4, h = 2, g = 9: one link per group pair */
    l = lay(g, 0, NULL);
    assert_int_equal(l.racks, 9);
    assert_int_equal(l.bundle_max, 1);
    assert_int_equal(l.group_pairs_linked, 36);
    assert_int_equal(l.cables_intra_rack, 9 * 6);
    moore_layout_clear(&l);
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
    assert_int_equal(l.group_pairs_linked, 64 * 14 / 2);
    moore_layout_clear(&l);
    moore_graph_free(g);
}

/* Splits a CSV line into at most max fields (double quotes hold commas,
 * "" is a quote); returns the number of fields. Fields point into line. */
static int csv_split(char *line, char **field, int max)
{
    int n = 0;
    char *w = line, *r = line;
    line[strcspn(line, "\n")] = '\0';
    while (n < max) {
        field[n++] = w;
        int quoted = *r == '"';
        if (quoted)
            r++;
        for (; *r; r++) {
            if (quoted && r[0] == '"' && r[1] == '"')
                *w++ = *r++;
            else if (quoted && *r == '"')
                quoted = 0;
            else if (!quoted && *r == ',')
                break;
            else
                *w++ = *r;
        }
        int more = *r == ',';
        *w++ = '\0';
        if (!more)
            break;
        r++;
    }
    return n;
}

/* The stock lengths of docs/layout.md, written out again. */
static double stock_length(double len)
{
    static const double SIZES[] = { 1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 75, 100 };
    for (int i = 0; i < 12; i++)
        if (len <= SIZES[i] + 1e-9)
            return SIZES[i];
    double b = 150;
    while (b < len - 1e-9)
        b += 50;
    return b;
}

/* Columns of the cable plan. */
enum { C_CABLE, C_KIND, C_FROM, C_FROM_NAME, C_FROM_RACK, C_FROM_ROW, C_FROM_COL, C_FROM_U,
       C_FROM_PORT, C_TO, C_TO_NAME, C_TO_RACK, C_TO_ROW, C_TO_COL, C_TO_U, C_TO_PORT, C_LEN,
       C_BUY, C_TYPE, C_FROM_END, C_TO_END, C_COLUMNS };

static const char PLAN_HEADER[] =
    "cable,kind,from,from_name,from_rack,from_row,from_col,from_u,from_port,to,to_name,to_rack,"
    "to_row,to_col,to_u,to_port,length_m,buy_m,type,from_end,to_end\n";

static FILE *plan_file(const moore_graph *g, const moore_layout *l, const moore_cost_model *m)
{
    FILE *f = tmpfile();
    moore_error err;
    assert_non_null(f);
    assert_int_equal(moore_layout_write_cables(g, l, m, f, &err), MOORE_OK);
    rewind(f);
    char line[512];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, PLAN_HEADER);
    return f;
}

/* Reads the CSV of g's plan and checks it against the graph; returns the
 * cost of all cables (network and server, transceivers included)
 * recomputed from the rows under m. */
static double check_csv(const moore_graph *g, const moore_layout *l, const moore_cost_model *m)
{
    FILE *f = plan_file(g, l, m);
    int32_t k = l->multiplicity;
    int64_t *seen = calloc((size_t)g->n * g->n, sizeof *seen);
    size_t stride = (size_t)g->n * k + 1 + 64;
    int32_t *ports = calloc((size_t)g->n * stride, sizeof *ports);
    int64_t endpoints = moore_graph_endpoints_total(g);
    char *server_seen = calloc((size_t)endpoints + 1, 1);
    int64_t rows = 0, servers = 0;
    double cost = 0;
    char line[512], *c[C_COLUMNS + 1];
    while (fgets(line, sizeof line, f)) {
        assert_int_equal(csv_split(line, c, C_COLUMNS + 1), C_COLUMNS);
        assert_int_equal(atoll(c[C_CABLE]), rows);
        int u = atoi(c[C_FROM]), v = atoi(c[C_TO]), pu = atoi(c[C_FROM_PORT]);
        int server = strcmp(c[C_KIND], "server") == 0;
        assert_true(server || strcmp(c[C_KIND], "switch") == 0);
        assert_int_equal(atoi(c[C_FROM_RACK]), l->rack[u]);
        if (g->labels)
            assert_string_equal(c[C_FROM_NAME], g->labels[u]);
        assert_true(pu >= 0 && pu < moore_graph_degree(g, u) * k + g->endpoints[u]);
        ports[(size_t)u * stride + pu]++;
        if (server) {
            assert_true(v >= 0 && v < endpoints && !server_seen[v]);
            server_seen[v] = 1;
            servers++;
        } else {
            int pv = atoi(c[C_TO_PORT]);
            assert_true(moore_graph_has_link(g, u, v));
            assert_int_equal(atoi(c[C_TO_RACK]), l->rack[v]);
            assert_true(pu < moore_graph_degree(g, u) * k); /* network ports first */
            assert_true(pv >= 0 && pv < moore_graph_degree(g, v) * k);
            ports[(size_t)v * stride + pv]++;
            seen[(int64_t)(u < v ? u : v) * g->n + (u < v ? v : u)]++;
            assert_int_equal(servers, 0); /* switch rows before server rows */
        }
        double len = atof(c[C_LEN]), buy = atof(c[C_BUY]);
        assert_true(buy == stock_length(len));
        int electrical = strcmp(c[C_TYPE], "electrical") == 0;
        assert_true(electrical || strcmp(c[C_TYPE], "optical") == 0);
        assert_int_equal(electrical, buy <= m->electrical_max_m);
        const char *end = electrical ? m->copper_type : m->optics_type;
        assert_string_equal(c[C_FROM_END], end);
        assert_string_equal(c[C_TO_END], end);
        cost += electrical ? m->electrical_cable_fixed + m->electrical_cable_per_m * buy
                           : 2 * m->transceiver_cost + m->optical_cable_fixed +
                                 m->optical_cable_per_m * buy;
        rows++;
    }
    assert_int_equal(rows, g->m * k + endpoints);
    assert_int_equal(servers, endpoints);
    for (int32_t u = 0; u < g->n; u++) {
        for (int32_t v = u + 1; v < g->n; v++)
            assert_int_equal(seen[(int64_t)u * g->n + v], moore_graph_has_link(g, u, v) ? k : 0);
        for (int32_t p = 0; p < moore_graph_degree(g, u) * k + g->endpoints[u]; p++)
            assert_int_equal(ports[(size_t)u * stride + p], 1);
    }
    free(seen);
    free(ports);
    free(server_seen);
    fclose(f);
    return cost;
}

static const char ROUND_MODEL[] =
    "{\"switch_cost\": 1000, \"switch_port_cost\": 100, \"electrical_cable_fixed\": 10,"
    " \"electrical_cable_per_m\": 2, \"transceiver_cost\": 20, \"transceiver_power_w\": 3,"
    " \"optical_cable_fixed\": 10, \"optical_cable_per_m\": 1, \"electrical_max_m\": 3,"
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
        int64_t endpoints = moore_graph_endpoints_total(g), ports = endpoints, radix = 0;
        for (int32_t v = 0; v < g->n; v++) {
            int64_t used = (int64_t)moore_graph_degree(g, v) * l.multiplicity + g->endpoints[v];
            ports += used - g->endpoints[v];
            radix = used > radix ? used : radix;
        }
        /* every switch a chassis of the most ports any switch uses */
        double expect = g->n * (1000.0 + 100.0 * radix) + cables;
        assert_true(fabs(l.cost_total - expect) < 1e-6 * expect);
        assert_true(fabs(l.power_w - 4.0 * ports - 3.0 * l.transceivers) < 1e-9);
        moore_layout_clear(&l);
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
    moore_layout_clear(&l);
    /* default rack size for generic graphs: ⌈√200⌉ = 15 */
    l = lay(g, 0, NULL);
    assert_int_equal(l.switches_per_rack_max <= 15, 1);
    assert_int_equal(l.racks, 14);
    moore_layout_clear(&l);
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
    moore_layout_clear(&l);
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
    moore_layout_clear(&l);
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
    assert_int_equal(l.group_pairs_linked, 144 * 4 / 2);
    assert_int_equal(l.bundle_max, 12);
    moore_layout_clear(&l);
    moore_graph_free(g);
    g = tu_build("torus:dims=8x4");
    l = lay(g, 0, NULL);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.cables_intra_rack, g->m);
    moore_layout_clear(&l);
    moore_graph_free(g);
}

/* A Slim Fly written to an edge list keeps no labels; loaded back, its family
 * and parameters give them again, and with them the Slim Fly racks. */
static void family_file_keeps_its_placement(void **state)
{
    (void)state;
    char path[] = "/tmp/moore_test_layout_XXXXXX";
    make_temp(path);
    moore_error err;
    moore_graph *g = tu_build("slimfly:q=5"), *file = NULL;
    assert_int_equal(moore_graph_write(g, path, "edgelist", &err), MOORE_OK);
    assert_int_equal(moore_topology_load(path, &file, &err), MOORE_OK);
    remove(path);
    moore_layout a = lay(g, 0, NULL), b = lay(file, 0, NULL);
    assert_string_equal(b.placement, "slimfly");
    assert_int_equal(b.racks, 5);
    assert_memory_equal(a.rack, b.rack, (size_t)g->n * sizeof *a.rack);
    moore_layout_clear(&a);
    moore_layout_clear(&b);
    moore_graph_free(file);
    moore_graph_free(g);
}

/* A graph built from links with given endpoints per switch. */
static moore_graph *graph_of(int32_t n, const int (*link)[2], int links, const int32_t *p)
{
    moore_builder *b;
    moore_graph *g;
    moore_error err;
    assert_int_equal(moore_builder_new(n, links, &b, &err), MOORE_OK);
    for (int i = 0; i < links; i++)
        assert_int_equal(moore_builder_add_link(b, link[i][0], link[i][1], &err), MOORE_OK);
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_OK);
    assert_int_equal(moore_graph_set_endpoints(g, p, &err), MOORE_OK);
    return g;
}

/* The chassis term, by hand. A = K4 with one server per switch: 4 switches,
 * 6 cables, 4 servers, 16 ports in use. B = a 6-cycle with one server on
 * four of its switches: 6 switches, 6 cables, 4 servers, 16 ports in use.
 * Priced by ports in use alone (the old model) the two cost the same; with
 * every switch a chassis B costs more. Both stand in one rack (groups up to
 * 10 switches; 42U holds 6 × 2U + 4 × 1U), so every cable is 1 m of copper.
 * 400g model, radix the most ports used (A: 4, B: 3):
 *   A = 4 × (10,000 + 400 × 4) + (6 + 4) × (100 + 40 × 1) = 46,400 + 1,400 = 47,800
 *   B = 6 × (10,000 + 400 × 3) + 10 × 140 = 67,200 + 1,400 = 68,600.
 * With switch_radix = 4 (both built from the same 4-port switches):
 *   B = 6 × 11,600 + 1,400 = 71,000. */
static void chassis_cost_hand_computed(void **state)
{
    (void)state;
    static const int K4[][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 }, { 2, 3 } };
    static const int C6[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 }, { 4, 5 }, { 0, 5 } };
    static const int32_t PA[] = { 1, 1, 1, 1 }, PB[] = { 1, 1, 1, 1, 0, 0 };
    moore_graph *a = graph_of(4, K4, 6, PA), *b = graph_of(6, C6, 6, PB);
    moore_cost_model m;
    moore_error err;
    assert_int_equal(moore_cost_model_named("400g", &m, &err), MOORE_OK);
    m.switches_per_rack = 10;
    moore_layout la = lay(a, 10, &m), lb = lay(b, 10, &m);
    assert_int_equal(la.racks, 1);
    assert_int_equal(lb.racks, 1);
    assert_int_equal(la.ports, 16);
    assert_int_equal(lb.ports, 16);
    assert_true(fabs(la.cost_total - 47800.0) < 1e-6);
    assert_true(fabs(lb.cost_total - 68600.0) < 1e-6);
    assert_true(lb.cost_total > la.cost_total);
    moore_layout_clear(&lb);
    m.switch_radix = 4;
    lb = lay(b, 10, &m);
    assert_true(fabs(lb.cost_total - 71000.0) < 1e-6);
    moore_layout_clear(&la);
    moore_layout_clear(&lb);
    moore_graph_free(a);
    moore_graph_free(b);
}

/* One small instance of every family (every row of moore_families()). */
static const char *const EVERY_FAMILY[] = {
    "slimfly:q=5", "complete:n=6", "petersen", "hoffman-singleton", "xpander:d=4,k=5",
    "jellyfish:n=30,d=4", "fattree:k=6", "dragonfly:p=2", "hyperx:L=2,S=4,K=2",
    "torus:dims=4x4", "polarfly:q=5", "hypercube:n=4", "mesh:dims=4x4", "flatbutterfly:k=4,n=2",
    "karyntree:k=4,n=2", "xgft:h=2,m=4.4,w=1.4", "kautz:b=2,n=3", "arrangement:n=5,k=2",
    "tofu:dims=2x2x2", "mlfm:h=4", "oft:k=6", "megafly:d=8,g=2", "cascade:g=2",
    "spectralfly:s=5,q=13", "bundlefly:q=3,r=5", "polarstar:q=3,jd=4", "delorme:q=8",
    "brown:q=5", "clos:radix=8,endpoints=96", "lift:of=petersen", "expand:add=2,of=petersen",
    NULL
};

/* Marks U slots [u, u + units) of a rack; every slot once, inside the rack. */
static void occupy(char *slots, int32_t rack_units, int32_t rack, int32_t u, int32_t units)
{
    assert_true(u >= 1 && u + units - 1 <= rack_units);
    for (int32_t s = u; s < u + units; s++) {
        assert_int_equal(slots[(size_t)rack * rack_units + s - 1], 0);
        slots[(size_t)rack * rack_units + s - 1] = 1;
    }
}

/* From the cable plan alone: no rack holds more than its U, no two things
 * share a U, every switch and server is somewhere, one cable per server;
 * rows and columns agree with the rack number on the floor grid. */
static void racks_within_units(void **state)
{
    (void)state;
    int listed = 0;
    for (const moore_family *f = moore_families(); f->name; f++, listed++) {
        int found = 0;
        for (int i = 0; EVERY_FAMILY[i]; i++)
            found |= strncmp(EVERY_FAMILY[i], f->name, strlen(f->name)) == 0 &&
                     (EVERY_FAMILY[i][strlen(f->name)] == ':' || !EVERY_FAMILY[i][strlen(f->name)]);
        if (!found)
            print_error("family %s has no instance in EVERY_FAMILY\n", f->name);
        assert_true(found);
    }
    assert_true(listed >= 25);
    moore_cost_model m;
    moore_cost_model_default(&m);
    for (int i = 0; EVERY_FAMILY[i]; i++) {
        moore_graph *g = tu_build(EVERY_FAMILY[i]);
        moore_layout l = lay(g, 0, &m);
        int64_t endpoints = moore_graph_endpoints_total(g);
        char *slots = calloc((size_t)l.racks * m.rack_units, 1);
        char *sw = calloc((size_t)g->n, 1), *srv = calloc((size_t)endpoints + 1, 1);
        FILE *f = plan_file(g, &l, &m);
        char line[512], *c[C_COLUMNS + 1];
        int64_t server_rows = 0;
        while (fgets(line, sizeof line, f)) {
            assert_int_equal(csv_split(line, c, C_COLUMNS + 1), C_COLUMNS);
            int ends[2][3] = { { C_FROM, C_FROM_RACK, C_FROM_U }, { C_TO, C_TO_RACK, C_TO_U } };
            for (int e = 0; e < 2; e++) {
                int id = atoi(c[ends[e][0]]), rack = atoi(c[ends[e][1]]);
                int server = e == 1 && strcmp(c[C_KIND], "server") == 0;
                int rc = e ? C_TO_ROW : C_FROM_ROW;
                assert_true(rack >= 0 && rack < l.racks);
                assert_int_equal(atoi(c[rc]) * l.grid_cols + atoi(c[rc + 1]), rack);
                char *mark = server ? &srv[id] : &sw[id];
                if (!*mark)
                    occupy(slots, m.rack_units, rack, atoi(c[ends[e][2]]),
                           server ? m.server_units : m.switch_units);
                *mark = 1;
            }
            server_rows += strcmp(c[C_KIND], "server") == 0;
        }
        assert_int_equal(server_rows, endpoints);
        assert_int_equal(l.cables_server, endpoints);
        for (int64_t s = 0; s < endpoints; s++)
            assert_int_equal(srv[s], 1);
        for (int32_t v = 0; v < g->n; v++)
            assert_true(sw[v] || (moore_graph_degree(g, v) == 0 && g->endpoints[v] == 0));
        fclose(f);
        free(slots);
        free(sw);
        free(srv);
        moore_layout_clear(&l);
        moore_graph_free(g);
    }
}

/* A Slim Fly q=5 (p=4 by radix 11) group of 10 switches and 40 servers does
 * not fit one 42U rack (10 × 2U + 40 × 1U = 60U): each switch block is 6U,
 * so 7 per rack (42U) and 3 in the next. */
static void slimfly_group_spans_racks(void **state)
{
    (void)state;
    moore_graph *g = tu_build("slimfly:q=5,p=4");
    moore_cost_model m;
    moore_cost_model_default(&m);
    moore_layout l = lay(g, 0, &m);
    assert_int_equal(l.groups, 5);
    assert_int_equal(l.racks, 10);
    assert_int_equal(l.rack_units_max, 42);
    assert_int_equal(l.switches_per_rack_max, 7);
    moore_layout_clear(&l);
    moore_graph_free(g);
}

/* The BOM against the cable plan, grouped here: cables by type and bought
 * length, transceivers two per optical cable, switches, and the BOM's costs
 * summing to cost_total. */
static void bom_matches_plan(void **state)
{
    (void)state;
    const char *specs[] = { "slimfly:q=7", "fattree:k=8", "hyperx:L=2,S=4,K=2",
                            "jellyfish:n=60,d=5,seed=3" };
    for (int i = 0; i < 4; i++) {
        moore_graph *g = tu_build(specs[i]);
        moore_cost_model m;
        moore_error err;
        moore_cost_model_default(&m);
        moore_layout l = lay(g, 0, &m);
        /* the plan's cables: [optical][buy length in m, up to 1,000] */
        int64_t (*plan)[1001] = calloc(2, sizeof *plan), optical_rows = 0;
        FILE *f = plan_file(g, &l, &m);
        char line[512], *c[C_COLUMNS + 1];
        while (fgets(line, sizeof line, f)) {
            assert_int_equal(csv_split(line, c, C_COLUMNS + 1), C_COLUMNS);
            int opt = strcmp(c[C_TYPE], "optical") == 0, buy = atoi(c[C_BUY]);
            assert_true(buy >= 1 && buy <= 1000);
            plan[opt][buy]++;
            optical_rows += opt;
        }
        fclose(f);
        f = tmpfile();
        assert_non_null(f);
        assert_int_equal(moore_layout_write_bom(g, &l, &m, f, &err), MOORE_OK);
        rewind(f);
        assert_non_null(fgets(line, sizeof line, f));
        assert_string_equal(line, "item,type,length_m,count,unit_cost,cost\n");
        double total = 0;
        int64_t transceivers = 0, switches = 0;
        while (fgets(line, sizeof line, f)) {
            assert_int_equal(csv_split(line, c, 7), 6);
            total += atof(c[5]);
            if (strcmp(c[0], "cable") == 0) {
                int opt = strcmp(c[1], "optical") == 0, buy = atoi(c[2]);
                assert_int_equal(plan[opt][buy], atoll(c[3]));
                plan[opt][buy] = 0; /* each (type, length) once */
            } else if (strcmp(c[0], "transceiver") == 0) {
                transceivers += atoll(c[3]);
            } else if (strcmp(c[0], "switch") == 0) {
                switches += atoll(c[3]);
            }
        }
        fclose(f);
        for (int o = 0; o < 2; o++)
            for (int b = 0; b <= 1000; b++)
                assert_int_equal(plan[o][b], 0); /* every plan cable is in the BOM */
        assert_int_equal(transceivers, 2 * optical_rows);
        assert_int_equal(switches, g->n);
        assert_true(fabs(total - l.cost_total) < 0.01 * 32);
        free(plan);
        moore_layout_clear(&l);
        moore_graph_free(g);
    }
}

/* Built-in models by name, link speeds, "base". */
static void named_models_and_speeds(void **state)
{
    (void)state;
    moore_cost_model m, d;
    moore_error err;
    moore_cost_model_default(&d);
    assert_string_equal(d.name, "400g");
    assert_int_equal(moore_cost_model_load("2014", &m, &err), MOORE_OK);
    assert_true(m.link_gbps == 40 && m.switch_port_cost == 350.4 && m.switch_cost == 0);
    /* the paper's optical cable: 7.2745·40 $ fixed, now two transceivers */
    assert_true(fabs(moore_layout_cable_cost(&m, 10) - (7.2745 * 40 + 0.0919 * 40 * 10)) < 1e-9);
    assert_int_equal(moore_cost_model_load("400G-ish", &m, &err), MOORE_EIO);
    char path[] = "/tmp/moore_test_layout_XXXXXX";
    make_temp(path);
    assert_int_equal(write_text(path, "{\"link_gbps\": 800, \"base\": \"2014\"}"), 0);
    assert_int_equal(moore_cost_model_load(path, &m, &err), MOORE_OK);
    assert_true(m.link_gbps == 800 && m.electrical_max_m == 2 && m.switch_port_cost == 350.4);
    assert_string_equal(m.optics_type, "OSFP 800G-2xDR4");
    assert_int_equal(write_text(path, "{\"link_gbps\": 300}"), 0);
    assert_int_equal(moore_cost_model_load(path, &m, &err), MOORE_EINVAL);
    assert_int_equal(write_text(path, "{\"switch_units\": 50}"), 0);
    assert_int_equal(moore_cost_model_load(path, &m, &err), MOORE_EINVAL);
    remove(path);
    assert_true(moore_layout_buy_length(0.5) == 1 && moore_layout_buy_length(2.6) == 3 &&
                moore_layout_buy_length(100) == 100 && moore_layout_buy_length(101) == 150);
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
        cmocka_unit_test(chassis_cost_hand_computed),
        cmocka_unit_test(racks_within_units),
        cmocka_unit_test(slimfly_group_spans_racks),
        cmocka_unit_test(bom_matches_plan),
        cmocka_unit_test(named_models_and_speeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
