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
/* Plain BFS from s: dist[v] hops (-1 unreachable), q in BFS order; returns
 * the number of switches reached. */
int32_t tu_bfs(const moore_graph *g, int32_t s, int32_t *dist, int32_t *q);
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

/* Closed-form counts of spec, or fails the test. */
moore_counts tu_counts(const char *spec);
/* Built graph vs moore_spec_counts: switches, links, degree range, endpoints,
 * and the diameter (by tu_diameter) when a closed form is given. */
void tu_check_closed_forms(const char *spec);
/* Building and counting spec both fail with MOORE_EINVAL, the message naming
 * needle. */
void tu_expect_refused(const char *spec, const char *needle);
/* Fails unless a and b are isomorphic switch graphs (nauty); frees neither. */
void tu_assert_isomorphic(const moore_graph *a, const moore_graph *b);

/* Runs family's planner for radix and target endpoints: it must emit at least
 * one SPEC; every SPEC (of the first 16) must have counts, and those of at
 * most max_build switches are built and must use at most radix ports on
 * every switch; with a target, one of all the SPECs must reach it. */
void tu_check_planner(const char *family, int32_t radix, int64_t endpoints, int64_t max_build);

/* A graph on n switches with u–v linked iff adjacent(ctx, u, v), asked for
 * every pair u < v: the brute-force second construction of a test. */
moore_graph *tu_graph_from_rule(int32_t n, int (*adjacent)(const void *ctx, int32_t u, int32_t v),
                                const void *ctx);
/* How many SPECs family's planner emits for radix and target endpoints. */
int tu_plan_count(const char *family, int32_t radix, int64_t endpoints);
/* Servers per switch as the hose bounds count them (1 each when the graph
 * has none); malloc'd, n entries. */
int32_t *tu_hose_servers(const moore_graph *g);

#endif
