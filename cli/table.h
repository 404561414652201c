/* table.h — aligned text tables for the commands that print rows (plan,
 * compare): cells are collected first so every column gets its width. */
#ifndef MOORE_CLI_TABLE_H
#define MOORE_CLI_TABLE_H

#include <stdint.h>
#include <stdio.h>

typedef struct cli_table {
    int cols, rows, cap;
    char **cells;           /* rows × cols, row 0 the header */
    const char *align;      /* per column 'l' or 'r' */
} cli_table;

/* A table with the given headers; align holds one 'l'/'r' per column. */
int cli_table_init(cli_table *t, int cols, const char *const *headers, const char *align);
/* Appends a row of cols cells (copied); returns 0 on success, -1 out of memory. */
int cli_table_add(cli_table *t, const char *const *cells);
void cli_table_print(const cli_table *t, FILE *out);
void cli_table_free(cli_table *t);

/* Prints a cJSON value (pretty) on stdout and deletes it; 0 or 1 (out of memory). */
struct cJSON;
int cli_json_print(struct cJSON *v);

/* 12345678 → "12,345,678". */
void cli_format_int(int64_t v, char *buf, size_t len);

#endif
