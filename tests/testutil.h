/* testutil.h — shared helpers for the cmocka tests: build a SPEC or fail the
 * test with the library's message, and a plain BFS written independently of
 * src/metrics so distance tests do not check the code against itself. */
#ifndef MOORE_TESTUTIL_H
#define MOORE_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "moore/moore.h"

/* Builds spec or fails the test, printing the library's message. */
moore_graph *tu_build(const char *spec);
/* Expects building spec to fail with code; returns the message for checks. */
const char *tu_build_fails(const char *spec, int code);
/* Diameter by a naive BFS from every switch (-1 when disconnected). */
int32_t tu_diameter(const moore_graph *g);
/* The largest distance between two switches v with among[v] != 0 (all
 * switches when among is NULL); -1 when g is disconnected. */
int32_t tu_diameter_among(const moore_graph *g, const char *among);

/* Collects the SPECs a family planner emits (the first 16). */
typedef struct tu_plans {
    int count;
    char spec[16][96];
} tu_plans;
int tu_plan_collect(void *ctx, const char *spec, moore_error *err);

/* ---- shared by the family tests (test_mlfm_oft, test_megafly_cascade,
 * test_spectralfly, test_diameter3) ---- */

/* moore_spec_counts of spec, or fails the test with the library's message. */
moore_counts tu_counts(const char *spec);
/* Builds spec and holds it against moore_spec_counts: switches, links,
 * degree range, endpoints, and the BFS diameter when the closed form has one. */
void tu_check_closed_forms(const char *spec);
/* Expects spec to be refused (MOORE_EINVAL) by both the builder and the
 * counts, with a message containing needle. */
void tu_expect_refused(const char *spec, const char *needle);
/* A graph on n switches with u–v linked iff adjacent(ctx, u, v), asked for
 * every pair u < v: the brute-force second construction of a test. */
moore_graph *tu_graph_from_rule(int32_t n, int (*adjacent)(const void *ctx, int32_t u, int32_t v),
                                const void *ctx);
/* Fails unless a and b are isomorphic switch graphs (Traces). */
void tu_assert_isomorphic(const moore_graph *a, const moore_graph *b, const char *what);
/* Every SPEC the family's planner emits for radix must have counts whose
 * busiest switch fits the radix; returns how many there were. */
int tu_check_plan(const char *family, int32_t radix, int64_t endpoints);

#endif
