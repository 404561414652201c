/* test_io.c — file formats: round trips, byte stability, every exporter's
 * output checked by an independent parser (cJSON for JSON, token counts for
 * DOT/GraphML/BookSim), the real netbench file from the Xpander authors, and
 * the bad-input contract of the reader (refusal with file:line, one line). */
#include "testutil.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif

/* ---- helpers ---- */

typedef struct {
    char *buf;
    size_t len;
} text;

/* g written in `format` to memory. */
static text write_text(const moore_graph *g, const char *format)
{
    const moore_format *f;
    moore_error err;
    text t = { NULL, 0 };
    assert_int_equal(moore_format_find(format, &f, &err), MOORE_OK);
    FILE *out = open_memstream(&t.buf, &t.len);
    assert_non_null(out);
    if (f->write(g, out, &err) != MOORE_OK) {
        print_error("writing %s failed: %s\n", format, err.msg);
        fail();
    }
    assert_int_equal(fclose(out), 0);
    return t;
}

/* Reads len bytes of data as the file "name" (a real temporary file, so
 * empty and binary content behave as they would on disk). */
static int read_bytes(const char *data, size_t len, moore_graph **g, moore_error *err)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    rewind(f);
    moore_error_clear(err);
    int rc = moore_graph_read_stream(f, "t.txt", g, err);
    fclose(f);
    return rc;
}

static moore_graph *read_ok(const char *data)
{
    moore_graph *g = NULL;
    moore_error err;
    if (read_bytes(data, strlen(data), &g, &err) != MOORE_OK) {
        print_error("reading failed: %s\n", err.msg);
        fail();
    }
    return g;
}

/* Expects a refusal (MOORE_EINVAL) whose one-line message contains `want`. */
static void read_fails(const char *data, size_t len, const char *want)
{
    moore_graph *g = NULL;
    moore_error err;
    int rc = read_bytes(data, len, &g, &err);
    if (rc != MOORE_EINVAL || !strstr(err.msg, want)) {
        print_error("expected a refusal containing '%s', got code %d: '%s'\n", want, rc,
                    err.msg);
        moore_graph_free(g);
        fail();
    }
    assert_null(g);
    assert_null(strchr(err.msg, '\n'));
    for (const char *p = err.msg; *p; p++)
        assert_true((unsigned char)*p >= 32 && (unsigned char)*p < 127);
}
#define READ_FAILS(lit, want) read_fails(lit, sizeof(lit) - 1, want)

static void assert_same_graph(const moore_graph *a, const moore_graph *b)
{
    assert_int_equal(a->n, b->n);
    assert_int_equal(a->m, b->m);
    assert_memory_equal(a->offs, b->offs, ((size_t)a->n + 1) * sizeof *a->offs);
    assert_memory_equal(a->adj, b->adj, (size_t)(2 * a->m) * sizeof *a->adj);
    assert_memory_equal(a->endpoints, b->endpoints, (size_t)a->n * sizeof *a->endpoints);
}

static void assert_same_string(const char *a, const char *b)
{
    if (!a || !b)
        assert_true(a == b);
    else
        assert_string_equal(a, b);
}

static size_t count(const char *hay, const char *needle)
{
    size_t c = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        c++;
    return c;
}

/* A graph with uneven endpoints, an isolated switch and labels that need
 * escaping in every format. */
static moore_graph *awkward_graph(void)
{
    static const int32_t links[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 }, { 0, 2 } };
    static const int32_t ep[] = { 3, 0, 1, 2, 0 };
    static const char *labels[] = { "a<b&c>\"d\"", "it's", "back\\slash", "tab\there",
                                    "caf\xc3\xa9" };
    moore_builder *b;
    moore_graph *g;
    moore_error err;
    assert_int_equal(moore_builder_new(5, 5, &b, &err), MOORE_OK);
    for (int i = 0; i < 5; i++)
        assert_int_equal(moore_builder_add_link(b, links[i][0], links[i][1], &err), MOORE_OK);
    assert_int_equal(moore_builder_finish(b, &g, &err), MOORE_OK);
    assert_int_equal(moore_graph_set_endpoints(g, ep, &err), MOORE_OK);
    for (int v = 0; v < 5; v++)
        assert_int_equal(moore_graph_set_label(g, v, labels[v], &err), MOORE_OK);
    assert_int_equal(moore_graph_set_origin(g, "test<family>", "k=\"v\"", &err), MOORE_OK);
    return g;
}

static const char *SPECS[] = { "petersen", "hoffman-singleton", "complete:n=7,p=3",
                               "complete:n=1", "petersen:radix=5" };

/* ---- round trips and stability ---- */

static void edgelist_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof SPECS / sizeof *SPECS; i++) {
        moore_graph *g = tu_build(SPECS[i]);
        text t = write_text(g, "edgelist");
        moore_graph *h = read_ok(t.buf);
        assert_same_graph(g, h);
        assert_same_string(g->family, h->family);
        assert_same_string(g->params, h->params);
        free(t.buf);
        moore_graph_free(g);
        moore_graph_free(h);
    }
    /* Uneven endpoints and an isolated switch survive too. */
    moore_graph *g = awkward_graph();
    text t = write_text(g, "edgelist");
    assert_non_null(strstr(t.buf, "# endpoints: 3 0 1 2 0\n"));
    moore_graph *h = read_ok(t.buf);
    assert_same_graph(g, h);
    assert_string_equal(h->family, "test<family>");
    free(t.buf);
    moore_graph_free(g);
    moore_graph_free(h);
}

static void every_format_is_byte_stable(void **state)
{
    (void)state;
    for (const moore_format *f = moore_formats(); f->name; f++) {
        moore_graph *g = tu_build("hoffman-singleton:p=2");
        moore_graph *g2 = tu_build("hoffman-singleton:p=2");
        text a = write_text(g, f->name), b = write_text(g, f->name), c = write_text(g2, f->name);
        assert_int_equal(a.len, b.len);
        assert_memory_equal(a.buf, b.buf, a.len);
        assert_int_equal(a.len, c.len);
        assert_memory_equal(a.buf, c.buf, a.len);
        free(a.buf);
        free(b.buf);
        free(c.buf);
        moore_graph_free(g);
        moore_graph_free(g2);
    }
}

static void netbench_round_trip(void **state)
{
    (void)state;
    moore_graph *g = awkward_graph();
    text t = write_text(g, "netbench");
    /* |E| counts both directions; ToRs are the switches with endpoints. */
    assert_non_null(strstr(t.buf, "|V|=5\n|E|=10\n"));
    assert_non_null(strstr(t.buf, "ToRs=set(0,2,3)\nServers=set(0,2,3)\nSwitches=set(1,4)\n"));
    moore_graph *h = read_ok(t.buf);
    assert_same_graph(g, h);
    assert_string_equal(h->family, "test<family>");
    assert_string_equal(h->params, "k=\"v\"");
    free(t.buf);
    moore_graph_free(g);
    moore_graph_free(h);
}

/* BookSim2 anynet, parsed here independently: router i lists its p_i
 * terminals, numbered consecutively, and exactly its neighbours. */
static void booksim_structure_and_round_trip(void **state)
{
    (void)state;
    moore_graph *g = tu_build("hoffman-singleton:p=3");
    text t = write_text(g, "booksim");
    char *save = NULL, *copy = strdup(t.buf);
    int32_t router = 0;
    long next_terminal = 0;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *s2 = NULL, *tok = strtok_r(line, " ", &s2);
        assert_string_equal(tok, "router");
        assert_int_equal(atoi(strtok_r(NULL, " ", &s2)), router);
        int terminals = 0, neighbours = 0;
        while ((tok = strtok_r(NULL, " ", &s2))) {
            long id = atol(strtok_r(NULL, " ", &s2));
            if (strcmp(tok, "node") == 0) {
                assert_int_equal(id, next_terminal);
                next_terminal++;
                terminals++;
            } else {
                assert_string_equal(tok, "router");
                assert_true(moore_graph_has_link(g, router, (int32_t)id));
                neighbours++;
            }
        }
        assert_int_equal(terminals, 3);
        assert_int_equal(neighbours, 7);
        router++;
    }
    assert_int_equal(router, 50);
    assert_int_equal(next_terminal, 150);
    moore_graph *h = read_ok(t.buf);
    assert_same_graph(g, h);
    free(copy);
    free(t.buf);
    moore_graph_free(g);
    moore_graph_free(h);
}

static void json_parses_back(void **state)
{
    (void)state;
    moore_graph *graphs[2] = { tu_build("hoffman-singleton"), awkward_graph() };
    for (int i = 0; i < 2; i++) {
        moore_graph *g = graphs[i];
        text t = write_text(g, "json");
        cJSON *doc = cJSON_Parse(t.buf);
        assert_non_null(doc);
        assert_string_equal(cJSON_GetObjectItem(doc, "format")->valuestring, "moore-topology");
        assert_int_equal(cJSON_GetObjectItem(doc, "version")->valueint, 1);
        assert_string_equal(cJSON_GetObjectItem(doc, "family")->valuestring, g->family);
        assert_int_equal(cJSON_GetObjectItem(doc, "switches")->valueint, g->n);
        cJSON *ep = cJSON_GetObjectItem(doc, "endpoints");
        cJSON *labels = cJSON_GetObjectItem(doc, "labels");
        cJSON *links = cJSON_GetObjectItem(doc, "links");
        assert_int_equal(cJSON_GetArraySize(ep), g->n);
        assert_int_equal(cJSON_GetArraySize(labels), g->n);
        assert_int_equal(cJSON_GetArraySize(links), g->m);
        for (int32_t v = 0; v < g->n; v++) {
            assert_int_equal(cJSON_GetArrayItem(ep, v)->valueint, g->endpoints[v]);
            const char *label = cJSON_GetArrayItem(labels, v)->valuestring;
            /* Labels come back as written, except that control characters
             * (the tab) are replaced by '?'. */
            if (strchr(g->labels[v], '\t'))
                assert_string_equal(label, "tab?here");
            else
                assert_string_equal(label, g->labels[v]);
        }
        int32_t prev_u = -1, prev_v = -1;
        cJSON *pair;
        cJSON_ArrayForEach(pair, links)
        {
            assert_int_equal(cJSON_GetArraySize(pair), 2);
            int32_t u = cJSON_GetArrayItem(pair, 0)->valueint;
            int32_t v = cJSON_GetArrayItem(pair, 1)->valueint;
            assert_true(u < v);
            assert_true(u > prev_u || (u == prev_u && v > prev_v));
            assert_true(moore_graph_has_link(g, u, v));
            prev_u = u;
            prev_v = v;
        }
        cJSON_Delete(doc);
        free(t.buf);
        moore_graph_free(g);
    }
    /* No labels: no "labels" key; no params: null. */
    moore_graph *g = tu_build("petersen");
    text t = write_text(g, "json");
    cJSON *doc = cJSON_Parse(t.buf);
    assert_non_null(doc);
    assert_null(cJSON_GetObjectItem(doc, "labels"));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(doc, "params")));
    cJSON_Delete(doc);
    free(t.buf);
    moore_graph_free(g);
}

static void graphml_structure(void **state)
{
    (void)state;
    moore_graph *g = tu_build("hoffman-singleton:p=4");
    text t = write_text(g, "graphml");
    assert_int_equal(count(t.buf, "<node "), 50);
    assert_int_equal(count(t.buf, "<edge "), 175);
    assert_int_equal(count(t.buf, "<data key=\"endpoints\">4</data>"), 50);
    assert_int_equal(count(t.buf, "<data key=\"label\">"), 50);
    assert_non_null(strstr(t.buf, "attr.name=\"endpoints\" attr.type=\"int\""));
    assert_non_null(strstr(t.buf, "edgedefault=\"undirected\""));
    assert_int_equal(count(t.buf, "<graphml"), 1);
    assert_non_null(strstr(t.buf, "</graph>\n</graphml>\n"));
    free(t.buf);
    moore_graph_free(g);

    g = awkward_graph();
    t = write_text(g, "graphml");
    assert_int_equal(count(t.buf, "<node "), 5);
    assert_int_equal(count(t.buf, "<edge "), 5);
    assert_non_null(strstr(t.buf, ">a&lt;b&amp;c&gt;&quot;d&quot;</data>"));
    assert_non_null(strstr(t.buf, ">it&apos;s</data>"));
    assert_non_null(strstr(t.buf, ">test&lt;family&gt;</data>"));
    assert_null(strstr(t.buf, "\t")); /* control characters cleaned */
    /* Every '<' opens a tag and every '&' starts an entity. */
    for (const char *p = strchr(t.buf, '&'); p; p = strchr(p + 1, '&'))
        assert_true(strncmp(p, "&amp;", 5) == 0 || strncmp(p, "&lt;", 4) == 0 ||
                    strncmp(p, "&gt;", 4) == 0 || strncmp(p, "&quot;", 6) == 0 ||
                    strncmp(p, "&apos;", 6) == 0);
    free(t.buf);
    moore_graph_free(g);
}

static void dot_structure(void **state)
{
    (void)state;
    moore_graph *g = tu_build("complete:n=6,p=2");
    text t = write_text(g, "dot");
    assert_int_equal(strncmp(t.buf, "graph \"complete\" {\n", 19), 0);
    assert_int_equal(count(t.buf, " -- "), 15);
    assert_int_equal(count(t.buf, "[endpoints=2]"), 6);
    assert_int_equal(count(t.buf, "->"), 0);
    free(t.buf);
    moore_graph_free(g);

    g = awkward_graph();
    t = write_text(g, "dot");
    assert_non_null(strstr(t.buf, "0 [endpoints=3, label=\"a<b&c>\\\"d\\\"\"];"));
    assert_non_null(strstr(t.buf, "2 [endpoints=1, label=\"back\\\\slash\"];"));
    assert_int_equal(count(t.buf, " -- "), 5);
    /* Quotes balance on every line: no label ends its string early. */
    char *copy = strdup(t.buf), *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int quotes = 0;
        for (char *p = line; *p; p++) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                quotes++;
        }
        assert_int_equal(quotes % 2, 0);
    }
    free(copy);
    free(t.buf);
    moore_graph_free(g);
}

/* ---- the real netbench file ---- */

static char *data_path(const char *file)
{
    /* __FILE__ is the absolute path CMake compiles this file by, so the data
     * sits beside it whichever directory the clone is in. */
    static char path[4096];
    const char *slash = strrchr(__FILE__, '/');
    size_t dir = slash ? (size_t)(slash - __FILE__) : 1;
    snprintf(path, sizeof path, "%.*s/data/%s", (int)dir, slash ? __FILE__ : ".", file);
    return path;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0;
    FILE *out = open_memstream(&buf, &cap);
    int c;
    while ((c = fgetc(f)) != EOF)
        fputc(c, out);
    fclose(out);
    fclose(f);
    *len = cap;
    return buf;
}

static void reads_the_xpander_netbench_file(void **state)
{
    (void)state;
    const char *path = data_path("xpander_n231_d10.topology");
    moore_graph *g = NULL;
    moore_error err;
    if (moore_graph_read(path, &g, &err) != MOORE_OK) {
        print_error("%s\n", err.msg);
        fail();
    }
    assert_int_equal(g->n, 231);
    assert_int_equal(g->m, 1155);
    assert_int_equal(moore_graph_degree_min(g), 10);
    assert_int_equal(moore_graph_degree_max(g), 10);
    assert_int_equal(moore_graph_endpoints_total(g), 231); /* Servers = all ToRs */
    assert_null(g->family);
    assert_int_not_equal(tu_diameter(g), -1);               /* connected */
    /* Xpander with k+1 = 11 super-nodes of k = 21: switch s sits in super-node
     * s / 21 and has exactly one neighbour in every other super-node. */
    for (int32_t v = 0; v < g->n; v++) {
        int seen[11] = { 0 };
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
            seen[g->adj[k] / 21]++;
        for (int s = 0; s < 11; s++)
            assert_int_equal(seen[s], s == v / 21 ? 0 : 1);
    }
    /* moore's netbench export lists the same link lines, in the same order. */
    size_t len;
    char *orig = slurp(path, &len);
    assert_non_null(orig);
    text t = write_text(g, "netbench");
    const char *a = strstr(orig, "\n0 "), *b = strstr(t.buf, "\n0 ");
    assert_non_null(a);
    assert_non_null(b);
    assert_memory_equal(a, b, len - (size_t)(a - orig)); /* original has no final newline */
    assert_non_null(strstr(t.buf, "|V|=231\n|E|=2310\nToRs=incl_range(0,230)\n"
                                  "Servers=incl_range(0,230)\nSwitches=set()\n"));
    free(t.buf);
    free(orig);
    moore_graph_free(g);
}

/* ---- plain files from other tools ---- */

static void reads_plain_edge_lists(void **state)
{
    (void)state;
    static const char *files[] = {
        "0 1\n1 2\n2 0\n",                                  /* igraph write_edgelist */
        "0\t1\n1\t2\n2\t0\n",                               /* tabs */
        "0 1\r\n1 2  \r\n2 0\t\r\n",                        /* CRLF, trailing blanks */
        "0 1 {}\n1 2 {}\n2 0 {}\n",                         /* networkx default */
        "0 1 {'weight': 2, 'x': {'y': 1}}\n1 2 {}\n0 2 {}\n", /* networkx data, nested */
        "0 1 1.5\n1 2 2\n2 0 -3e2\n",                       /* weighted */
        "\xEF\xBB\xBF# made by hand\n\n0 1\n# middle\n1 2 # trailing\n  2 0\n",
        "0 1\n1 2\n2 0",                                    /* no final newline */
        "0 1\r\n1 2\r\n2 0\r",                              /* CRLF, a CR ends the file */
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        moore_graph *g = read_ok(files[i]);
        assert_int_equal(g->n, 3);
        assert_int_equal(g->m, 3);
        assert_true(moore_graph_has_link(g, 0, 2));
        assert_int_equal(g->endpoints[0], 1); /* SPEC default */
        assert_null(g->family);
        moore_graph_free(g);
    }
    /* Foreign '#' comments are never read as moore's header. */
    moore_graph *g = read_ok("# switches: 9\n# endpoints: 5\n0 1\n");
    assert_int_equal(g->n, 2);
    assert_int_equal(g->endpoints[1], 1);
    moore_graph_free(g);
    /* moore's header declares isolated switches. */
    g = read_ok("# moore topology\n# switches: 4\n# endpoints: 2 0 1 7\n0 1\n");
    assert_int_equal(g->n, 4);
    assert_int_equal(moore_graph_degree(g, 3), 0);
    assert_int_equal(g->endpoints[3], 7);
    moore_graph_free(g);
}

static void reads_netbench_sets_and_anynet(void **state)
{
    (void)state;
    /* A fat-tree-like netbench file: ToRs 0..1 with servers, switch 2 without. */
    moore_graph *g = read_ok("# two ToRs and a spine\n|V|=3\n|E|=4\nToRs=set(0, 1)\n"
                             "Servers=incl_range(0,1)\nSwitches=set(2)\n0 2\n2 0\n1 2\n2 1\n");
    assert_int_equal(g->n, 3);
    assert_int_equal(g->m, 2);
    assert_int_equal(g->endpoints[0], 1);
    assert_int_equal(g->endpoints[1], 1);
    assert_int_equal(g->endpoints[2], 0);
    moore_graph_free(g);
    /* BookSim's own example, with a latency and a node-headed line. */
    g = read_ok("router 0 node 0 node 1 node 2 router 1\nrouter 1 node 3 node 4 node 5\n"
                "router 2 node 6 node 7 router 1 10 router 0\nnode 8 router 2\n");
    assert_int_equal(g->n, 3);
    assert_int_equal(g->m, 3);
    assert_int_equal(g->endpoints[0], 3);
    assert_int_equal(g->endpoints[1], 3);
    assert_int_equal(g->endpoints[2], 3);
    moore_graph_free(g);
}

/* ---- the bad-input contract ---- */

static void refuses_bad_input(void **state)
{
    (void)state;
    READ_FAILS("", "t.txt: empty file");
    READ_FAILS("hello world\n", "t.txt:1: expected 'u v'");
    READ_FAILS("0 1\n\x7f" "ELF\x02\x01\x01\0\0\0\0\n", "t.txt:2: binary data");
    READ_FAILS("\x01\x02\x03\x04\x05\x06\n", "t.txt:1: binary data");
    /* CR-only line ends: without the check all but the first link vanish. */
    READ_FAILS("0 1\r1 2\r2 0\r", "t.txt:1: a CR inside a line");
    READ_FAILS("0 1\n1 2\rjunk\n", "t.txt:2: a CR inside a line");
    READ_FAILS("0 1\n2 2\n", "t.txt:2: link 2-2 is a self-loop");
    READ_FAILS("0 1\n1 2\n1 0\n", "t.txt:3: link 0-1 appears twice (also on line 1)");
    READ_FAILS("0 1\n-1 2\n", "t.txt:2: negative switch id '-1'");
    READ_FAILS("0 1\n1 99999999999999999999\n", "t.txt:2: switch id '99999999999999999999' exceeds");
    READ_FAILS("0 100000000\n", "t.txt:1: switch id '100000000' exceeds");
    READ_FAILS("0 99999\n", "switch 1 appears in no link");
    READ_FAILS("1 2\n2 3\n", "switch 0 appears in no link");
    READ_FAILS("0 x\n", "t.txt:1: expected a switch id, found 'x'");
    READ_FAILS("0\n", "t.txt:1: only one switch id");
    READ_FAILS("0 1.5\n", "t.txt:1: expected 'u v'");
    READ_FAILS("0 1 nan\n", "t.txt:1: third column");
    READ_FAILS("0 1 2 3\n", "t.txt:1: unexpected text after the link");
    READ_FAILS("0 1 2\n1 2\n", "t.txt:2: line has 'u v' but line 1 has 'u v weight'");
    READ_FAILS("0 1 {'a': 1\n", "t.txt:1: unterminated");
    READ_FAILS("# only a comment\n", "no switches and no links");
    READ_FAILS("0 1\nrouter 0 router 1\n", "t.txt:2: BookSim2 line");
    /* moore header */
    READ_FAILS("# moore topology\n# switches: 3\n# links: 3\n0 1\n1 2\n", "'# links: 3'");
    READ_FAILS("# moore topology\n# switches: 2\n0 1\n1 2\n", "t.txt:4: switch id 2 is out of range");
    READ_FAILS("# moore topology\n# switches: 3\n# endpoints: 1 2\n0 1\n1 2\n",
               "t.txt:3: '# endpoints:' lists 2 counts for 3 switches");
    READ_FAILS("# moore topology\n# endpoints: 1\n# endpoints: 1\n0 1\n", "t.txt:3: '# endpoints:' given twice");
    READ_FAILS("# moore topology\n# endpoints: -1\n0 1\n", "t.txt:2: negative endpoint count");
    READ_FAILS("# moore topology\n# endpoints: 9999999\n0 1\n", "endpoint count '9999999' exceeds");
    READ_FAILS("# moore topology\n# family: a\n# family: b\n0 1\n", "t.txt:3: '# family:' given twice");
    READ_FAILS("# moore topology\n# params:   \n0 1\n", "t.txt:2: empty value");
    READ_FAILS("# moore topology\n# switches: 5x\n0 1\n", "t.txt:2: unexpected text after '# switches:'");
    READ_FAILS("# moore topology\n# switches: 200000000\n", "t.txt:2: '# switches:' value '200000000' exceeds");
    /* netbench */
    READ_FAILS("|V|=3\n|E|=4\n0 1\n1 0\n1 2\n2 0\n", "t.txt:5: link 1 2 has no reverse");
    READ_FAILS("|V|=3\n|E|=6\n0 1\n1 0\n0 1\n", "t.txt:2: |E|=6 but the file lists 3");
    READ_FAILS("|V|=3\n0 1\n1 0\n0 1\n", "t.txt:4: link 0 1 appears twice");
    READ_FAILS("|V|=2\n0 5\n5 0\n", "t.txt:2: switch id 5 is out of range");
    READ_FAILS("|V|=2\nToRs=list(0)\n", "t.txt:2: 'ToRs=' must be set(...)");
    READ_FAILS("|V|=2\nToRs=incl_range(0,5)\n0 1\n1 0\n", "t.txt:2: 'ToRs=' names node 5");
    READ_FAILS("|V|=2\n0 1\n1 0\n|E|=2\n", "t.txt:4: netbench header line after the links");
    READ_FAILS("|V|=3\nToRs=set(0)\nServers=set(1)\n0 1\n1 0\n", "server 1 is not a ToR");
    READ_FAILS("|V|=0\n", "|V|=0");
    READ_FAILS("ToRs=set()\n0 1\n1 0\n", "without a '|V|=' line");
    /* anynet */
    READ_FAILS("router 0 node 0 router 1\nrouter 1 node 2\n", "terminal 1 is missing");
    READ_FAILS("router 0 node 0\nrouter 2 node 1 router 0\n", "router 1 is never named");
    READ_FAILS("router 0 node 0 router 0\n", "t.txt:1: router 0 is linked to itself");
    READ_FAILS("router 0 node 0\nrouter 1 node 0\n", "t.txt:2: terminal 0 is on router 1");
    READ_FAILS("router 0 switch 1\n", "t.txt:1: expected 'router R' or 'node N'");
    READ_FAILS("node 0 node 1\n", "terminals connect to routers only");
    READ_FAILS("router 0 node 0\nnode 1\n", "t.txt:2: terminal 1 is on no router");
    READ_FAILS("router 0 node 0\n0 1\n", "t.txt:2: expected 'router R ...'");
    /* the number rule (docs/formats.md): no leading zeros, no '+' */
    READ_FAILS("0 1\n1 02\n", "t.txt:2: switch id '02' has a leading zero");
    READ_FAILS("0 1\n1 +2\n", "t.txt:2: expected a switch id, found '+2'");
    READ_FAILS("# moore topology\n# switches: 010\n0 1\n", "t.txt:2: '# switches:' value '010'");
    /* size limits: declared switches, binary data, line length */
    READ_FAILS("# moore topology\n# switches: 100000000\n0 1\n",
               "t.txt:2: 100000000 switches declared for 1 links");
    READ_FAILS("|V|=2000000\n0 1\n1 0\n", "t.txt:1: 2000000 switches declared for 1 links");
    READ_FAILS("0 1\n1 2\0\0\0\0\n", "t.txt:2: binary data");
    /* 3 (links) + 1000000 (isolated) switches is the limit: accepted */
    moore_graph *g = read_ok("# moore topology\n# switches: 1000006\n0 1\n2 3\n4 5\n");
    assert_int_equal(g->n, 1000006);
    moore_graph_free(g);
}

/* A line longer than the 64 MiB limit is refused after the limit, not read
 * whole; the line before it is fine. */
static void refuses_a_line_without_end(void **state)
{
    (void)state;
    size_t len = ((size_t)64 << 20) + 16;
    char *data = malloc(len);
    assert_non_null(data);
    memcpy(data, "0 1\n", 4);
    memset(data + 4, '1', len - 4);
    read_fails(data, len, "t.txt:2: line longer than 64 MiB");
    free(data);
}

/* An allocation failure while reading is reported as one (ENOMEM, naming
 * the line), never as "empty file": a 32 MiB line read under an address-space
 * limit 8 MiB above what the process maps. (Not under ASan, whose shadow
 * memory needs an unlimited address space.) */
static void reading_out_of_memory(void **state)
{
    (void)state;
#ifdef TEST_ASAN
    skip();
#else
    FILE *f = tmpfile();
    assert_non_null(f);
    char chunk[4096];
    memset(chunk, '1', sizeof chunk);
    fputs("0 1\n", f);
    for (int i = 0; i < (32 << 20) / (int)sizeof chunk; i++)
        assert_int_equal(fwrite(chunk, 1, sizeof chunk, f), sizeof chunk);
    rewind(f);
    long pages = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    assert_non_null(statm);
    assert_int_equal(fscanf(statm, "%ld", &pages), 1);
    fclose(statm);
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    lim = old;
    lim.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)8 << 20);
    assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
    moore_graph *g = NULL;
    moore_error err;
    moore_error_clear(&err);
    int rc = moore_graph_read_stream(f, "t.txt", &g, &err);
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
    fclose(f);
    if (rc != MOORE_ENOMEM || !strstr(err.msg, "t.txt: out of memory reading line 2")) {
        print_error("expected ENOMEM on line 2, got code %d: '%s'\n", rc, err.msg);
        fail();
    }
    assert_null(g);
#endif
}

/* Simulator formats refuse what the simulator cannot run; HyperX trunks
 * become K parallel edges where the format has them (GraphML, DOT). */
static void exports_for_simulators(void **state)
{
    (void)state;
    moore_error err;
    const moore_format *f;
    const char *refused[] = { "booksim", "netbench" };
    moore_graph *nop = tu_build("petersen:p=0");
    moore_graph *split = read_ok("# moore topology\n# switches: 4\n0 1\n2 3\n");
    char *buf = NULL;
    size_t len = 0;
    for (int i = 0; i < 2; i++) {
        assert_int_equal(moore_format_find(refused[i], &f, &err), MOORE_OK);
        FILE *out = open_memstream(&buf, &len);
        assert_int_equal(f->write(nop, out, &err), MOORE_EINVAL);
        assert_non_null(strstr(err.msg, "no endpoints"));
        assert_int_equal(f->write(split, out, &err), MOORE_EINVAL);
        assert_non_null(strstr(err.msg, "disconnected (2 components; no route from switch 0 to 2)"));
        fclose(out);
        assert_int_equal(len, 0); /* nothing written before the refusal */
        free(buf);
        buf = NULL;
    }
    moore_graph_free(nop);
    moore_graph_free(split);
    /* HyperX S=4, L=2, K=3: 16 switches, L*C(S,2)*S^(L-1) = 48 links, 144 cables */
    moore_graph *h = tu_build("hyperx:S=4,L=2,K=3");
    assert_int_equal(h->m, 48);
    assert_int_equal(moore_graph_multiplicity(h), 3);
    text gm = write_text(h, "graphml"), dot = write_text(h, "dot");
    assert_int_equal(count(gm.buf, "<edge "), 144);
    assert_int_equal(count(dot.buf, " -- "), 144);
    free(gm.buf);
    free(dot.buf);
    moore_graph_free(h);
}

static void missing_file_and_atomic_writes(void **state)
{
    (void)state;
    moore_graph *g = NULL;
    moore_error err;
    assert_int_equal(moore_graph_read("/nonexistent/moore.txt", &g, &err), MOORE_EIO);
    assert_non_null(strstr(err.msg, "cannot open '/nonexistent/moore.txt'"));
    assert_null(g);

    char dir[] = "/tmp/moore_test_io.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    g = tu_build("petersen");
    mode_t old = umask(022);
    assert_int_equal(moore_graph_write(g, path, "graphml", &err), MOORE_OK);
    umask(old);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644); /* the umask decides, not mkstemp's 0600 */
    assert_int_equal(moore_graph_write(g, path, "nosuch", &err), MOORE_EINVAL);
    assert_non_null(strstr(err.msg, "unknown format 'nosuch'"));
    /* An aborted write leaves neither the file nor a temporary. */
    moore_atomic_file af;
    char path2[300];
    snprintf(path2, sizeof path2, "%s/aborted.txt", dir);
    assert_int_equal(moore_atomic_open(path2, &af, &err), MOORE_OK);
    fputs("half a topology", af.f);
    moore_atomic_abort(&af);
    moore_atomic_abort(&af); /* twice is safe */
    assert_int_not_equal(stat(path2, &st), 0);
    /* Writing through a symlink replaces its target and keeps the link; a
     * symlink to a device writes into the device (here /dev/null, which must
     * stay a device: renaming over it would turn it into a regular file). */
    char link[300], devlink[300];
    snprintf(link, sizeof link, "%s/link.txt", dir);
    snprintf(devlink, sizeof devlink, "%s/null", dir);
    assert_int_equal(symlink("out.txt", link), 0);
    assert_int_equal(symlink("/dev/null", devlink), 0);
    assert_int_equal(moore_graph_write(g, link, "edgelist", &err), MOORE_OK);
    assert_int_equal(moore_graph_write(g, devlink, "edgelist", &err), MOORE_OK);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(lstat(devlink, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    moore_graph *back = NULL;
    assert_int_equal(moore_graph_read(path, &back, &err), MOORE_OK); /* now an edge list */
    assert_same_graph(g, back);
    moore_graph_free(back);
    assert_int_equal(remove(link), 0);
    assert_int_equal(remove(devlink), 0);
    assert_int_equal(remove(path), 0);
    assert_int_equal(rmdir(dir), 0); /* fails if anything was left behind */
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edgelist_round_trip),
        cmocka_unit_test(every_format_is_byte_stable),
        cmocka_unit_test(netbench_round_trip),
        cmocka_unit_test(booksim_structure_and_round_trip),
        cmocka_unit_test(json_parses_back),
        cmocka_unit_test(graphml_structure),
        cmocka_unit_test(dot_structure),
        cmocka_unit_test(reads_the_xpander_netbench_file),
        cmocka_unit_test(reads_plain_edge_lists),
        cmocka_unit_test(reads_netbench_sets_and_anynet),
        cmocka_unit_test(refuses_bad_input),
        cmocka_unit_test(missing_file_and_atomic_writes),
        cmocka_unit_test(refuses_a_line_without_end),
        cmocka_unit_test(reading_out_of_memory),
        cmocka_unit_test(exports_for_simulators),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
