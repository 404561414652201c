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

/* Collects the SPECs a family planner emits (the first 16). */
typedef struct tu_plans {
    int count;
    char spec[16][96];
} tu_plans;
int tu_plan_collect(void *ctx, const char *spec, moore_error *err);

#endif
