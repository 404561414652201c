/* suggest.c — the closest known name to a mistyped one, by edit distance.
 *
 * Names in moore are short (commands, options, families, keys), so the
 * quadratic dynamic programme is cheap; the threshold grows with the length
 * of the word so that "stat" finds "stats" but "q" does not find "p". */
#include "moore/suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define SUGGEST_LEN_MAX 64

static int min3(int a, int b, int c)
{
    int m = a < b ? a : b;
    return m < c ? m : c;
}

int moore_edit_distance(const char *a, const char *b)
{
    int n = (int)strnlen(a, SUGGEST_LEN_MAX), m = (int)strnlen(b, SUGGEST_LEN_MAX);
    int d[SUGGEST_LEN_MAX + 1][SUGGEST_LEN_MAX + 1];
    for (int i = 0; i <= n; i++)
        d[i][0] = i;
    for (int j = 0; j <= m; j++)
        d[0][j] = j;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++) {
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + !same);
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]))
                d[i][j] = d[i][j] < d[i - 2][j - 2] + 1 ? d[i][j] : d[i - 2][j - 2] + 1;
        }
    return d[n][m];
}

static int threshold(size_t len) { return len <= 4 ? 1 : len <= 8 ? 2 : 3; }

const char *moore_suggest(const char *word, const char *const *candidates)
{
    size_t len = strlen(word);
    const char *best = NULL;
    int best_d = threshold(len) + 1;
    if (len == 0 || len > SUGGEST_LEN_MAX)
        return NULL;
    for (const char *const *c = candidates; *c; c++) {
        int d = moore_edit_distance(word, *c);
        if (len >= 3 && strncmp(*c, word, len) == 0 && strlen(*c) > len)
            d = d < 1 ? d : 1;  /* a prefix of a longer name: as good as one edit */
        if (d < best_d) {
            best_d = d;
            best = *c;
        }
    }
    return best_d == 0 ? NULL : best;
}

const char *moore_suggest_text(const char *word, const char *const *candidates, char *buf,
                               size_t len)
{
    const char *s = moore_suggest(word, candidates);
    if (s)
        snprintf(buf, len, " (did you mean '%s'?)", s);
    else if (len)
        buf[0] = '\0';
    return buf;
}
