/* suggest.h — "did you mean": the closest known name to a mistyped one.
 *
 * Used wherever moore refuses a name — a command, an option, a family, a key,
 * a metric group, a format — so that the one error line can say what was
 * probably meant: `unknown family 'slimfy' (did you mean 'slimfly'?)`. */
#ifndef MOORE_SUGGEST_H
#define MOORE_SUGGEST_H

#include "moore/export.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The optimal-string-alignment distance (insertions, deletions,
 * substitutions and swaps of neighbours), case-insensitive. O(|a|·|b|) time,
 * both read up to 64 characters; no allocation. */
MOORE_API int moore_edit_distance(const char *a, const char *b);

/* The candidate closest to word, or NULL when none is close enough to be a
 * typo: within 1 edit for words of up to 4 letters, 2 up to 8, 3 beyond; a
 * candidate that starts with word also counts ("--met" → "--metrics"). Ties
 * go to the first candidate. candidates is NULL-terminated. Returns one of
 * the candidates (borrowed); one edit distance per candidate. */
MOORE_API const char *moore_suggest(const char *word, const char *const *candidates);

/* Writes " (did you mean 'X'?)" into buf when there is a suggestion, else "".
 * Returns buf (caller-owned). */
MOORE_API const char *moore_suggest_text(const char *word, const char *const *candidates,
                                         char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
