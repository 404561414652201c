/* parse.c — moore's one number syntax (include/moore/parse.h,
 * docs/formats.md). strtoll and strtod accept leading blanks, '+', "0x10",
 * "inf" and more; every number moore reads goes through here instead, so the
 * rule is the same for SPECs, options and files. */
#include "moore/parse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Digits of a non-negative integer without leading zeros: their count, or 0. */
static size_t digits_no_leading_zero(const char *s)
{
    if (!is_digit(s[0]))
        return 0;
    if (s[0] == '0')
        return is_digit(s[1]) ? 0 : 1;
    size_t n = 0;
    while (is_digit(s[n]))
        n++;
    return n;
}

size_t moore_parse_int_prefix(const char *s)
{
    if (s[0] == '-') {
        size_t n = digits_no_leading_zero(s + 1);
        return n == 0 || (n == 1 && s[1] == '0') ? 0 : n + 1; /* no "-0" */
    }
    return digits_no_leading_zero(s);
}

moore_parse_status moore_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    size_t n = moore_parse_int_prefix(s);
    if (n == 0 || s[n] != '\0')
        return MOORE_PARSE_SYNTAX;
    errno = 0;
    long long v = strtoll(s, NULL, 10);
    if (errno == ERANGE || v < lo || v > hi)
        return MOORE_PARSE_RANGE;
    *out = v;
    return MOORE_PARSE_OK;
}

/* The length of a number under the rule at s, or 0. */
static size_t number_length(const char *s)
{
    size_t n = s[0] == '-' ? 1 : 0;
    size_t k = digits_no_leading_zero(s + n);
    if (k == 0)
        return 0;
    n += k;
    if (s[n] == '.') {
        size_t f = 0;
        while (is_digit(s[n + 1 + f]))
            f++;
        if (f == 0)
            return 0;
        n += 1 + f;
    }
    if (s[n] == 'e' || s[n] == 'E') {
        size_t e = n + 1;
        if (s[e] == '+' || s[e] == '-')
            e++;
        size_t d = 0;
        while (is_digit(s[e + d]))
            d++;
        if (d == 0)
            return 0;
        n = e + d;
    }
    return n;
}

moore_parse_status moore_parse_number(const char *s, double lo, double hi, double *out)
{
    size_t n = number_length(s);
    if (n == 0 || s[n] != '\0')
        return MOORE_PARSE_SYNTAX;
    double v = strtod(s, NULL);
    if (!isfinite(v) || v < lo || v > hi)
        return MOORE_PARSE_RANGE;
    *out = v;
    return MOORE_PARSE_OK;
}
