/* test_sweep.c — sweep files expanded, and results read back.
 *
 * The expansion is checked against counts worked out independently: the
 * Slim Fly points of a q range are the prime powers with q mod 4 != 2
 * (counted here by trial division, not by the library's field code), a
 * Jellyfish grid is the product of its lists times the seeds, a range with a
 * step has ceil((b-a+1)/s) values. A result read back from the database must
 * equal the report the metric group computes directly. */
#include "testutil.h"
#include "moore/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static moore_sweep parse(const char *json)
{
    moore_sweep s;
    moore_error err;
    if (moore_sweep_parse(json, "test", &s, &err) != MOORE_OK) {
        print_error("sweep parse failed: %s\n", err.msg);
        fail();
    }
    return s;
}

static void parse_fails(const char *json, const char *needle)
{
    moore_sweep s;
    moore_error err;
    assert_int_equal(moore_sweep_parse(json, "test", &s, &err), MOORE_EINVAL);
    if (!strstr(err.msg, needle)) {
        print_error("message '%s' lacks '%s'\n", err.msg, needle);
        fail();
    }
    assert_null(strchr(err.msg, '\n'));
}

/* Prime powers by trial division: q = p^k for the smallest prime p | q. */
static int prime_power(int q)
{
    int p = 2;
    while (q % p)
        p++;
    while (q % p == 0)
        q /= p;
    return q == 1;
}

static void slimfly_range_is_the_prime_powers(void **state)
{
    (void)state;
    moore_sweep s = parse("{\"metrics\": [\"basic\"], \"configs\": "
                          "[{\"family\": \"slimfly\", \"grid\": {\"q\": [\"3..40\"]}}]}");
    int want = 0, refused = 0;
    for (int q = 3; q <= 40; q++) {
        int ok = prime_power(q) && q % 4 != 2;
        want += ok;
        refused += !ok;
    }
    assert_int_equal(s.config_count, want);
    assert_int_equal(s.skipped, refused);
    assert_int_equal(s.task_count, 1);
    assert_string_equal(s.tasks[0], "basic");
    moore_sweep_clear(&s);
}

static void grid_product_times_seeds(void **state)
{
    (void)state;
    moore_sweep s = parse("{\"seeds\": [\"1..3\"], \"metrics\": [\"paths\", \"basic\"], "
                          "\"configs\": [{\"family\": \"jellyfish\", \"grid\": "
                          "{\"n\": [\"20..60:10\"], \"d\": [4, 6]}}, {\"spec\": \"petersen\"},"
                          "{\"spec\": \"petersen\"}]}");
    /* n in {20,30,40,50,60} x d in {4,6} x 3 seeds, plus petersen once. */
    assert_int_equal(s.config_count, 5 * 2 * 3 + 1);
    assert_string_equal(s.configs[0].topology, "jellyfish:n=20,d=4,seed=1");
    assert_int_equal(s.configs[0].seed, 1);
    assert_int_equal(s.configs[s.config_count - 1].seed, -1);
    /* Tasks follow the metric table's order, whatever the file's order. */
    assert_int_equal(s.task_count, 2);
    assert_string_equal(s.tasks[0], "basic");
    assert_string_equal(s.tasks[1], "paths");
    moore_sweep_clear(&s);
}

static void plan_grid_takes_the_chosen_rows(void **state)
{
    (void)state;
    moore_sweep s = parse("{\"configs\": [{\"plan\": {\"radix\": [48], \"endpoints\": [10000],"
                          "\"bandwidth\": \"any\", \"families\": [\"slimfly\", \"fattree\"]}}]}");
    moore_plan p;
    moore_error err;
    assert_int_equal(moore_plan_make(48, 10000, "slimfly,fattree", &p, &err), MOORE_OK);
    int chosen = 0;
    for (int64_t i = 0; i < p.count; i++)
        if (p.rows[i].chosen) {
            int found = 0;
            for (int64_t k = 0; k < s.config_count; k++)
                found |= strcmp(s.configs[k].topology, p.rows[i].spec) == 0;
            assert_true(found);
            chosen++;
        }
    assert_int_equal(s.config_count, chosen);
    moore_plan_clear(&p);
    moore_sweep_clear(&s);
}

/* At full bandwidth (a plan entry's default) no switch of a chosen row may
 * have fewer links than the uniform traffic its servers send across them:
 * p of S servers send p(S−p)/(S−1), each link carries 1 (checked switch by
 * switch on the built graphs). The Clos planner's own choice for this
 * target is oversubscribed, so the check fails on a row chosen without the
 * bandwidth. Every row records the point it came from. */
static void plan_grid_at_full_bandwidth(void **state)
{
    (void)state;
    moore_sweep s = parse("{\"configs\": [{\"plan\": {\"radix\": [16], \"endpoints\": [200],"
                          "\"families\": [\"clos\", \"slimfly\", \"fattree\"]}}]}");
    assert_int_equal(s.config_count, 3);
    assert_int_equal(s.origin_count, 3);
    for (int64_t i = 0; i < s.config_count; i++) {
        moore_graph *g = tu_build(s.configs[i].topology);
        double S = (double)moore_graph_endpoints_total(g);
        assert_true(S >= 200);
        for (int32_t v = 0; v < g->n; v++) {
            double p = g->endpoints[v];
            if (p > 0 && (double)moore_graph_degree(g, v) < p * (S - p) / (S - 1)) {
                print_error("%s: switch %d has %d links for %g servers\n",
                            s.configs[i].topology, (int)v, (int)moore_graph_degree(g, v), p);
                fail();
            }
        }
        moore_graph_free(g);
        const moore_sweep_origin *o = &s.origins[i];
        assert_int_equal(o->config, i);
        assert_int_equal(o->radix, 16);
        assert_int_equal(o->endpoints, 200);
        assert_true(o->bandwidth == 1.0);
        assert_int_equal(o->chosen, 1);
    }
    moore_sweep_clear(&s);
    parse_fails("{\"configs\": [{\"plan\": {\"radix\": 16, \"endpoints\": 200, "
                "\"bandwidth\": 0}}]}", "bandwidth");
    parse_fails("{\"configs\": [{\"plan\": {\"radix\": 16, \"endpoints\": 200, "
                "\"bandwidth\": \"full\"}}]}", "bandwidth");
    parse_fails("{\"configs\": [{\"plan\": {\"radix\": 16, \"bandwidth\": 1}}]}", "endpoints");
}

/* The size each configuration weighs in the time estimate: switches ×
 * (switches + links). Slim Fly q = 5 (q = 4·1 + 1): 2q² = 50 switches of
 * degree (3q − 1)/2 = 7, so 175 links; a 4 × 5 torus: 20 switches, 40 links. */
static void weights_are_the_size(void **state)
{
    (void)state;
    moore_sweep s = parse("{\"configs\": [{\"spec\": \"slimfly:q=5\"}, "
                          "{\"spec\": \"torus:dims=4x5\"}]}");
    assert_true(s.configs[0].weight == 50.0 * (50 + 175));
    assert_true(s.configs[1].weight == 20.0 * (20 + 40));
    assert_int_equal(s.origin_count, 0);
    moore_sweep_clear(&s);
}

static void bad_files_are_refused(void **state)
{
    (void)state;
    parse_fails("{\"configs\": [{\"family\": \"slimfly\", \"grid\": {\"Q\": [5]}}]}",
                "unknown key 'Q'");
    parse_fails("{\"configs\": [{\"family\": \"slimfly\", \"grid\": {\"q\": [\"9..5\"]}}]}",
                "9..5");
    parse_fails("{\"configs\": [{\"family\": \"slimfly\", \"grid\": {\"q\": [\"1..9:0\"]}}]}",
                "1..9:0");
    parse_fails("{\"configs\": [{\"family\": \"slimfly\", \"grid\": {\"q\": []}}]}", "empty");
    parse_fails("{\"configs\": []}", "configs");
    parse_fails("{\"configs\": [{\"spec\": \"petersen\"}], \"metrics\": [\"pathz\"]}",
                "pathz");
    parse_fails("{\"configs\": [{\"spec\": \"petersen\"}], \"seeds\": [-1]}", "seed");
    parse_fails("{\"configs\": [{\"spec\": \"petersen\"}], \"extra\": 1}", "extra");
    parse_fails("[1, 2]", "JSON object");
    parse_fails("{\"configs\": [{\"spec\": \"nosuchfamily\"}]}", "nosuchfamily");
}

/* A new empty file for a database (path: a mkstemp template). */
static void temp_db(char *path)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
}

/* The database and SQLite's side files. */
static void remove_db(const char *path)
{
    unlink(path);
    for (const char *ext = "-wal"; ext; ext = ext[1] == 'w' ? "-shm" : NULL) {
        char side[64];
        snprintf(side, sizeof side, "%s%s", path, ext);
        unlink(side);
    }
}

/* Measured through the database, read back: the same report the metric
 * group computes directly. */
static void lookup_equals_direct_computation(void **state)
{
    (void)state;
    char path[] = "/tmp/moore_test_sweep_XXXXXX";
    temp_db(path);
    moore_sweep s = parse("{\"metrics\": [\"basic\", \"paths\"], \"configs\": "
                          "[{\"spec\": \"slimfly:q=5\"}, {\"spec\": \"torus:dims=4x5\"}]}");
    moore_sweep_db *db;
    moore_error err;
    int64_t ids[2], pending;
    moore_metric_options o;
    moore_metric_options_default(&o);
    assert_int_equal(moore_sweep_db_open(path, &db, &err), MOORE_OK);
    assert_int_equal(moore_sweep_db_register(db, &s, ids, &err), MOORE_OK);
    assert_int_equal(moore_sweep_db_pending(db, &s, ids, 0, &pending, &err), MOORE_OK);
    assert_int_equal(pending, 4);
    for (int i = 0; i < 2; i++) {
        int measured;
        assert_int_equal(moore_sweep_measure(db, &s, i, ids[i], 0, &o, &measured, &err), 0);
        assert_int_equal(measured, 2);
    }
    assert_int_equal(moore_sweep_db_pending(db, &s, ids, 0, &pending, &err), MOORE_OK);
    assert_int_equal(pending, 0);
    moore_graph *g = tu_build("torus:dims=4x5");
    moore_report direct, stored;
    moore_report_init(&direct);
    moore_report_init(&stored);
    int found;
    assert_int_equal(moore_metrics_compute(g, "paths", &o, &direct, &err), MOORE_OK);
    assert_int_equal(moore_sweep_db_lookup(db, "torus:dims=4x5", "paths", &stored, &found, &err),
                     MOORE_OK);
    assert_true(found);
    assert_int_equal(stored.count, direct.count);
    for (int k = 0; k < direct.count; k++) {
        const moore_report_item *a = &direct.items[k], *b = &stored.items[k];
        assert_string_equal(a->key, b->key);
        assert_int_equal(a->type, b->type);
        if (a->type == MOORE_VALUE_DOUBLE)
            assert_true(a->d == b->d);
        else if (a->type == MOORE_VALUE_INT_ARRAY)
            assert_memory_equal(a->ia, b->ia, (size_t)a->len * sizeof *a->ia);
        else
            assert_int_equal(a->i, b->i);
    }
    moore_report_clear(&direct);
    moore_report_clear(&stored);
    moore_graph_free(g);
    moore_sweep_db_close(db);
    moore_sweep_clear(&s);
    remove_db(path);
}

/* Several tasks at once: those stored are read, the others named as missing;
 * a seeded family's SPEC without seed= is found under its default seed 1,
 * the form the sweep stores (and another seed is not). */
static void lookup_list_names_the_missing_tasks(void **state)
{
    (void)state;
    char path[] = "/tmp/moore_test_sweep_XXXXXX";
    temp_db(path);
    moore_sweep s = parse("{\"metrics\": [\"basic\", \"paths\"], \"configs\": "
                          "[{\"spec\": \"jellyfish:n=10,d=4\"}]}");
    assert_int_equal(s.config_count, 1);
    assert_string_equal(s.configs[0].topology, "jellyfish:n=10,d=4,seed=1");
    moore_sweep_db *db;
    moore_error err;
    int64_t id;
    int measured;
    moore_metric_options o;
    moore_metric_options_default(&o);
    assert_int_equal(moore_sweep_db_open(path, &db, &err), MOORE_OK);
    assert_int_equal(moore_sweep_db_register(db, &s, &id, &err), MOORE_OK);
    assert_int_equal(moore_sweep_measure(db, &s, 0, id, 0, &o, &measured, &err), MOORE_OK);
    moore_report r;
    char missing[64];
    moore_report_init(&r);
    assert_int_equal(moore_sweep_db_lookup_list(db, "jellyfish:n=10,d=4", "basic,spectral,paths",
                                                &r, missing, sizeof missing, &err),
                     MOORE_OK);
    assert_string_equal(missing, "spectral");
    assert_true(moore_report_number(&r, "switches") == 10);  /* n=10 */
    assert_non_null(moore_report_get(&r, "diameter"));
    assert_null(moore_report_get(&r, "lambda2"));
    moore_report_clear(&r);
    moore_report_init(&r);
    assert_int_equal(moore_sweep_db_lookup_list(db, "jellyfish:n=10,d=4,seed=2", "basic,paths",
                                                &r, missing, sizeof missing, &err),
                     MOORE_OK);
    assert_string_equal(missing, "basic,paths");
    assert_int_equal(r.count, 0);
    moore_report_clear(&r);
    moore_sweep_db_close(db);
    moore_sweep_clear(&s);
    remove_db(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(slimfly_range_is_the_prime_powers),
        cmocka_unit_test(grid_product_times_seeds),
        cmocka_unit_test(plan_grid_takes_the_chosen_rows),
        cmocka_unit_test(plan_grid_at_full_bandwidth),
        cmocka_unit_test(weights_are_the_size),
        cmocka_unit_test(bad_files_are_refused),
        cmocka_unit_test(lookup_equals_direct_computation),
        cmocka_unit_test(lookup_list_names_the_missing_tasks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
