/* test_dist.c — what moore_dist_map carries between MPI ranks (dist.h).
 *
 * A packed report or comparison must come back exactly: every double's bit
 * pattern (NaN, ±infinity, -0.0, a value JSON's 17 digits would still round
 * trip but whose type it would lose), integers and doubles kept apart, keys
 * in their order, strings and arrays whole; a comparison's rows and notes
 * appended and its database counts added. The checks compare the bytes of
 * the original values with memcmp, not with the code's own rendering. The
 * map itself, in one process (a NULL group), must run and take the items in
 * index order and stop at the first failure with its code and message.
 * tests/mpi/equal.sh checks the same loop across 1, 2 and 3 ranks. */
#include "testutil.h"
#include "moore/dist.h"
#include "moore/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static void fill(moore_report *r)
{
    moore_error err;
    const int64_t ia[] = { 0, -1, INT64_MAX, INT64_MIN };
    const double da[] = { 0.1, -0.0, NAN, -INFINITY };
    moore_report_init(r);
    assert_int_equal(moore_report_int(r, "int", -7, &err), MOORE_OK);
    assert_int_equal(moore_report_double(r, "three", 3.0, &err), MOORE_OK);
    assert_int_equal(moore_report_double(r, "nan", NAN, &err), MOORE_OK);
    assert_int_equal(moore_report_double(r, "inf", INFINITY, &err), MOORE_OK);
    assert_int_equal(moore_report_double(r, "negzero", -0.0, &err), MOORE_OK);
    assert_int_equal(moore_report_bool(r, "yes", 1, &err), MOORE_OK);
    assert_int_equal(moore_report_null(r, "none", &err), MOORE_OK);
    assert_int_equal(moore_report_string(r, "text", "Slim Fly, \"q\" = 7\n", &err), MOORE_OK);
    assert_int_equal(moore_report_string(r, "empty", "", &err), MOORE_OK);
    assert_int_equal(moore_report_int_array(r, "ints", ia, 4, &err), MOORE_OK);
    assert_int_equal(moore_report_double_array(r, "doubles", da, 4, &err), MOORE_OK);
    assert_int_equal(moore_report_int_array(r, "nothing", NULL, 0, &err), MOORE_OK);
}

static void assert_same_report(const moore_report *a, const moore_report *b)
{
    assert_int_equal(a->count, b->count);
    for (int i = 0; i < a->count; i++) {
        const moore_report_item *x = &a->items[i], *y = &b->items[i];
        assert_string_equal(x->key, y->key);
        assert_int_equal(x->type, y->type);
        switch (x->type) {
        case MOORE_VALUE_INT:
        case MOORE_VALUE_BOOL: assert_true(x->i == y->i); break;
        case MOORE_VALUE_DOUBLE: assert_true(same_bits(x->d, y->d)); break;
        case MOORE_VALUE_STRING: assert_string_equal(x->s, y->s); break;
        case MOORE_VALUE_INT_ARRAY:
            assert_int_equal(x->len, y->len);
            assert_true(x->len == 0 || memcmp(x->ia, y->ia, (size_t)x->len * 8) == 0);
            break;
        case MOORE_VALUE_DOUBLE_ARRAY:
            assert_int_equal(x->len, y->len);
            assert_true(memcmp(x->da, y->da, (size_t)x->len * 8) == 0);
            break;
        default: break;
        }
    }
}

static void report_round_trip_is_exact(void **state)
{
    (void)state;
    moore_report r, back;
    moore_dist_blob b = { 0 };
    moore_error err;
    fill(&r);
    moore_report_init(&back);
    assert_int_equal(moore_dist_pack_report(&b, &r, &err), MOORE_OK);
    assert_int_equal(moore_dist_unpack_report(&b, &back, &err), MOORE_OK);
    assert_true(b.at == b.len); /* every byte read, none left over */
    assert_same_report(&r, &back);
    /* a blob cut short is refused with a message, not read past its end */
    moore_report cut;
    moore_report_init(&cut);
    b.at = 0;
    b.len -= 3;
    assert_int_equal(moore_dist_unpack_report(&b, &cut, &err), MOORE_EINTERNAL);
    assert_true(strncmp(err.msg, "MPI: a packed", 13) == 0);
    moore_report_clear(&cut);
    moore_report_clear(&r);
    moore_report_clear(&back);
    moore_dist_blob_clear(&b);
}

static void compare_unpack_appends(void **state)
{
    (void)state;
    moore_error err;
    moore_compare c = { .bandwidth = 0.5, .by_cost = 1, .count = 1, .note_count = 1,
                        .db_groups_read = 3, .db_groups_measured = 2 };
    c.rows = calloc(1, sizeof *c.rows);
    c.notes = calloc(1, sizeof *c.notes);
    assert_non_null(c.rows);
    assert_non_null(c.notes);
    snprintf(c.rows[0].spec, sizeof c.rows[0].spec, "slimfly:q=7,p=4");
    fill(&c.rows[0].report);
    snprintf(c.notes[0], sizeof c.notes[0], "torus: no configuration fits radix 3");
    moore_dist_blob b = { 0 };
    assert_int_equal(moore_dist_pack_compare(&b, &c, &err), MOORE_OK);
    /* Unpacked twice into one comparison: two rows, two notes, in order. */
    moore_compare back = { 0 };
    for (int k = 0; k < 2; k++) {
        b.at = 0;
        assert_int_equal(moore_dist_unpack_compare(&b, &back, &err), MOORE_OK);
    }
    assert_true(same_bits(back.bandwidth, 0.5));
    assert_int_equal(back.by_cost, 1);
    assert_int_equal(back.count, 2);
    assert_int_equal(back.note_count, 2);
    assert_int_equal(back.db_groups_read, 6); /* the two parts' counts add up */
    assert_int_equal(back.db_groups_measured, 4);
    for (int k = 0; k < 2; k++) {
        assert_string_equal(back.rows[k].spec, "slimfly:q=7,p=4");
        assert_same_report(&c.rows[0].report, &back.rows[k].report);
        assert_string_equal(back.notes[k], c.notes[0]);
    }
    moore_compare_clear(&c);
    moore_compare_clear(&back);
    moore_dist_blob_clear(&b);
}

/* A loop of 6 items: item i packs i*i; item `bad` fails. */
typedef struct squares {
    int bad, ran, taken;
    int64_t got[6];
} squares;

static int sq_run(void *ctx, int64_t i, moore_dist_blob *out, moore_error *err)
{
    squares *s = ctx;
    s->ran++;
    if (i == s->bad)
        return moore_error_set(err, MOORE_EINVAL, "item %d is bad", (int)i);
    moore_report r;
    moore_report_init(&r);
    int rc = moore_report_int(&r, "square", i * i, err);
    if (!rc)
        rc = moore_dist_pack_report(out, &r, err);
    moore_report_clear(&r);
    return rc;
}

static int sq_take(void *ctx, int64_t i, moore_dist_blob *in, moore_error *err)
{
    squares *s = ctx;
    moore_report r;
    moore_report_init(&r);
    int rc = moore_dist_unpack_report(in, &r, err);
    assert_int_equal(s->taken, i); /* index order */
    s->got[s->taken++] = (int64_t)moore_report_number(&r, "square");
    moore_report_clear(&r);
    return rc;
}

static void map_in_one_process(void **state)
{
    (void)state;
    moore_error err;
    squares s = { .bad = -1 };
    moore_dist_loop loop = { 6, sq_run, sq_take, &s };
    assert_int_equal(moore_dist_map(NULL, &loop, &err), MOORE_OK);
    assert_int_equal(s.taken, 6);
    for (int i = 0; i < 6; i++)
        assert_true(s.got[i] == (int64_t)i * i);
    /* The first failure stops the loop with its own message. */
    squares t = { .bad = 3 };
    loop.ctx = &t;
    assert_int_equal(moore_dist_map(NULL, &loop, &err), MOORE_EINVAL);
    assert_string_equal(err.msg, "item 3 is bad");
    assert_int_equal(t.ran, 4);
    assert_int_equal(t.taken, 3);
}

/* One process (no MPI job, the default build): the reductions leave every
 * value as it is, and available() says whether the build has MPI at all. */
static void one_process_reductions_are_identity(void **state)
{
    (void)state;
    moore_error err;
    moore_error_clear(&err);
    int64_t sum[3] = { 1, -2, 3 }, max[3] = { 4, 5, -6 };
    assert_int_equal(moore_dist_sum_i64(NULL, sum, 3, &err), MOORE_OK);
    assert_int_equal(moore_dist_max_i64(NULL, max, 3, &err), MOORE_OK);
    assert_true(sum[0] == 1 && sum[1] == -2 && sum[2] == 3);
    assert_true(max[0] == 4 && max[1] == 5 && max[2] == -6);
#ifdef MOORE_MPI
    assert_int_equal(moore_dist_available(), 1);
#else
    assert_int_equal(moore_dist_available(), 0);
#endif
    assert_int_equal(moore_dist_size(NULL), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(report_round_trip_is_exact),
        cmocka_unit_test(compare_unpack_appends),
        cmocka_unit_test(map_in_one_process),
        cmocka_unit_test(one_process_reductions_are_identity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
