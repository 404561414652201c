/* table.c — see table.h. */
#include "table.h"

#include <cjson/cJSON.h>

#include <stdlib.h>
#include <string.h>

int cli_table_init(cli_table *t, int cols, const char *const *headers, const char *align)
{
    memset(t, 0, sizeof *t);
    t->cols = cols;
    t->align = align;
    return cli_table_add(t, headers);
}

int cli_table_add(cli_table *t, const char *const *cells)
{
    if (t->rows == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        char **c = realloc(t->cells, (size_t)cap * (size_t)t->cols * sizeof *c);
        if (!c)
            return -1;
        t->cells = c;
        t->cap = cap;
    }
    char **row = t->cells + (size_t)t->rows * (size_t)t->cols;
    int rc = 0;
    for (int j = 0; j < t->cols; j++) {
        row[j] = strdup(cells[j] ? cells[j] : "");
        if (!row[j])
            rc = -1;
    }
    if (!rc)
        t->rows++; /* the table owns the row */
    for (int j = 0; rc && j < t->cols; j++)
        free(row[j]);
    return rc;
}

/* Display width: UTF-8 continuation bytes take no column. */
static int width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xc0) != 0x80;
    return w;
}

void cli_table_print(const cli_table *t, FILE *out)
{
    int *w = calloc((size_t)t->cols, sizeof *w);
    if (!w)
        return;
    for (int i = 0; i < t->rows; i++)
        for (int j = 0; j < t->cols; j++) {
            int x = width(t->cells[(size_t)i * (size_t)t->cols + (size_t)j]);
            if (x > w[j])
                w[j] = x;
        }
    for (int i = 0; i < t->rows; i++) {
        for (int j = 0; j < t->cols; j++) {
            const char *c = t->cells[(size_t)i * (size_t)t->cols + (size_t)j];
            int pad = w[j] - width(c);
            const char *sep = j + 1 < t->cols ? "  " : "";
            if (t->align[j] == 'r')
                fprintf(out, "%*s%s%s", pad, "", c, sep);
            else if (j + 1 < t->cols)
                fprintf(out, "%s%*s%s", c, pad, "", sep);
            else
                fputs(c, out);
        }
        fputc('\n', out);
    }
    free(w);
}

void cli_table_free(cli_table *t)
{
    for (int i = 0; i < t->rows * t->cols; i++)
        free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

void cli_format_int(int64_t v, char *buf, size_t len)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%lld", (long long)(v < 0 ? -v : v));
    size_t o = 0;
    if (v < 0 && o + 1 < len)
        buf[o++] = '-';
    for (int i = 0; i < n && o + 1 < len; i++) {
        buf[o++] = digits[i];
        if ((n - i - 1) % 3 == 0 && i + 1 < n && o + 1 < len)
            buf[o++] = ',';
    }
    buf[o] = '\0';
}

