/* parse.h — the one number syntax of moore (docs/formats.md, "Numbers").
 *
 * SPEC values (q=13), command-line options (--seed 7), dims=8x8 and the
 * numbers of every file moore reads follow the same rule, so a value that is
 * accepted in one place is accepted everywhere:
 *   integer: an optional '-', then decimal digits without leading zeros
 *            ("0" itself is fine; "-0" is not);
 *   number:  an integer part as above (or "0"), optionally '.' and digits,
 *            optionally 'e' or 'E', an optional sign and digits.
 * Nothing else: no blanks before or after, no '+', no hex, no "inf"/"nan". */
#ifndef MOORE_PARSE_H
#define MOORE_PARSE_H

#include "moore/export.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum moore_parse_status {
    MOORE_PARSE_OK = 0,
    MOORE_PARSE_SYNTAX = 1, /* not an integer (number) under the rule above */
    MOORE_PARSE_RANGE = 2   /* one, but outside [lo, hi] (or beyond int64/double) */
} moore_parse_status;

/* The length of the integer at the start of s under the rule (0: none). A
 * caller that parses a list ("8x8x8", "set(1,4)") checks what follows.
 * These three allocate nothing and run in O(length of s). */
MOORE_API size_t moore_parse_int_prefix(const char *s);

/* s, all of it, as an integer in [lo, hi]. *out is set only on MOORE_PARSE_OK. */
MOORE_API moore_parse_status moore_parse_int(const char *s, int64_t lo, int64_t hi,
                                             int64_t *out);

/* s, all of it, as a finite number in [lo, hi]. *out is set only on MOORE_PARSE_OK. */
MOORE_API moore_parse_status moore_parse_number(const char *s, double lo, double hi,
                                                double *out);

#ifdef __cplusplus
}
#endif
#endif
