/* fuzz_reader.c — libFuzzer harness for the topology reader (docs/fuzzing.md).
 *
 * Each input is read from memory with moore_graph_read_stream (fmemopen), the
 * way a file would be. A refusal must be one line; a graph that is accepted
 * is written back as moore's edge list and must read back as the same graph
 * (same switches, links, rows and endpoints): a reader/writer disagreement is
 * reported as a crash, like a memory error. */
#include <moore/moore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_INPUT (1 << 16)

static void require(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_reader: %s\n", what);
        abort();
    }
}

static int same_graph(const moore_graph *a, const moore_graph *b)
{
    if (a->n != b->n || a->m != b->m)
        return 0;
    for (int32_t v = 0; v < a->n; v++)
        if (a->endpoints[v] != b->endpoints[v] || a->offs[v + 1] != b->offs[v + 1])
            return 0;
    return a->m == 0 || memcmp(a->adj, b->adj, (size_t)(2 * a->m) * sizeof *a->adj) == 0;
}

/* Writes g as an edge list into memory and reads it back. */
static void round_trip(const moore_graph *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    require(out != NULL, "open_memstream failed");
    moore_error err;
    moore_error_clear(&err);
    int rc = moore_write_edgelist(g, out, &err);
    fclose(out);
    require(rc == MOORE_OK, "writing an accepted graph failed");
    FILE *in = fmemopen(buf, len, "r");
    require(in != NULL, "fmemopen failed");
    moore_graph *h = NULL;
    rc = moore_graph_read_stream(in, "round-trip", &h, &err);
    fclose(in);
    if (rc)
        fprintf(stderr, "fuzz_reader: re-reading failed: %s\n", err.msg);
    require(rc == MOORE_OK, "moore does not read back its own edge list");
    require(same_graph(g, h), "the edge list read back is a different graph");
    moore_graph_free(h);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > FUZZ_MAX_INPUT)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return 0;
    moore_error err;
    moore_error_clear(&err);
    moore_graph *g = NULL;
    int rc = moore_graph_read_stream(in, "fuzz", &g, &err);
    fclose(in);
    if (rc) {
        require(g == NULL, "a refused input left a graph");
        require(err.msg[0] != '\0' && strchr(err.msg, '\n') == NULL,
                "a refusal is not exactly one line");
        return 0;
    }
    round_trip(g);
    moore_graph_free(g);
    return 0;
}
