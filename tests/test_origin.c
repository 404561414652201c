/* test_origin.c — a graph's origin is data set once (moore/origin.h): the
 * family row, the parameters as parsed and their closed-form counts for a
 * SPEC; the path, format and endpoint override for a file.
 *
 * The expected numbers come from the constructions' own formulas, not from
 * the code: HyperX(L=2, S=4, K=3) has S^L = 16 switches and
 * L·C(S,2)·S^(L−1) = 48 links, each K = 3 cables; Slim Fly q=5 has 2q² = 50
 * switches. The proof that nothing re-parses the origin's text: after the
 * text is replaced by a SPEC that describes another graph, the typed origin
 * still answers for the graph that was built. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void spec_origin_is_data(void **state)
{
    (void)state;
    moore_error err;
    moore_graph *g = tu_build("hyperx:S=4,L=2,K=3"), *c = NULL;
    assert_ptr_equal(g->origin.family, moore_family_find("hyperx"));
    assert_int_equal(g->origin.params.count, 3);
    assert_true(g->origin.has_counts);
    assert_int_equal(g->origin.counts.switches, 16);
    assert_int_equal(g->origin.counts.links, 48);
    assert_null(g->origin.path);
    assert_string_equal(moore_graph_spec(g), "hyperx:S=4,L=2,K=3");
    assert_int_equal(moore_graph_multiplicity(g), 3);
    /* Text naming another HyperX (K=1, 81 switches): the counts that give the
     * cables are still those of the graph built, read from the origin. */
    assert_int_equal(moore_graph_set_origin(g, "hyperx", "S=9,L=2,K=1", &err), MOORE_OK);
    assert_string_equal(moore_graph_spec(g), "hyperx:S=9,L=2,K=1");
    assert_int_equal(moore_graph_multiplicity(g), 3);
    /* a copy keeps the typed origin */
    assert_int_equal(moore_graph_copy(g, &c, &err), MOORE_OK);
    assert_ptr_equal(c->origin.family, g->origin.family);
    assert_int_equal(moore_graph_multiplicity(c), 3);
    moore_graph_free(c);
    moore_graph_free(g);
}

static void file_origin_is_provenance(void **state)
{
    (void)state;
    char path[] = "/tmp/moore_test_origin_XXXXXX", spec[64];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    moore_error err;
    moore_graph *g = tu_build("slimfly:q=5"), *read = NULL, *loaded = NULL, *over = NULL;
    assert_int_equal(moore_graph_write(g, path, "edgelist", &err), MOORE_OK);
    /* the reader records what it read; a family header is not its business */
    assert_int_equal(moore_graph_read(path, &read, &err), MOORE_OK);
    assert_string_equal(read->origin.path, path);
    assert_string_equal(read->origin.format, "edgelist");
    assert_null(read->origin.family);
    /* topology loading gives the header's family its row and counts */
    assert_int_equal(moore_topology_load(path, &loaded, &err), MOORE_OK);
    assert_string_equal(loaded->origin.path, path);
    assert_ptr_equal(loaded->origin.family, moore_family_find("slimfly"));
    assert_true(loaded->origin.has_counts);
    assert_int_equal(loaded->origin.counts.switches, 2 * 5 * 5);
    /* file:PATH,p=P keeps its override */
    snprintf(spec, sizeof spec, "file:%s,p=3", path);
    assert_int_equal(moore_topology_load(spec, &over, &err), MOORE_OK);
    assert_string_equal(over->origin.endpoints_key, "p");
    assert_int_equal(over->origin.endpoints_value, 3);
    assert_string_equal(moore_graph_spec(over), spec);
    assert_int_equal(moore_graph_endpoints_total(over), 3 * 50);
    remove(path);
    moore_graph_free(over);
    moore_graph_free(loaded);
    moore_graph_free(read);
    moore_graph_free(g);
}

/* g with its first link moved to a pair that is not a link: the same switch
 * and link counts, another graph. */
static moore_graph *moved_link(const moore_graph *g)
{
    moore_error err;
    moore_builder *b = NULL;
    moore_graph *h = NULL;
    assert_int_equal(moore_builder_new(g->n, g->m, &b, &err), MOORE_OK);
    int skipped = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            if (g->adj[k] > u && skipped++)
                assert_int_equal(moore_builder_add_link(b, u, g->adj[k], &err), MOORE_OK);
    int added = 0;
    for (int32_t v = 1; v < g->n && !added; v++)
        if (!moore_graph_has_link(g, 0, v) && (added = 1))
            assert_int_equal(moore_builder_add_link(b, 0, v, &err), MOORE_OK);
    assert_int_equal(moore_builder_finish(b, &h, &err), MOORE_OK);
    assert_int_equal(moore_graph_set_origin(h, g->family, g->params, &err), MOORE_OK);
    return h;
}

/* A file keeps no switch names; loading it gives back the family's labels
 * when the file is that family's graph, and none when it was edited. Slim
 * Fly's names are (g,x,y) with g in {0,1} and x, y in 0..q-1 (docs/families.md),
 * one per switch. */
static void file_gets_family_labels(void **state)
{
    (void)state;
    char path[] = "/tmp/moore_test_labels_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    moore_error err;
    moore_graph *g = tu_build("slimfly:q=5"), *loaded = NULL, *edited = NULL;
    moore_graph *h = moved_link(g);
    assert_int_equal(moore_graph_write(g, path, "edgelist", &err), MOORE_OK);
    assert_int_equal(moore_topology_load(path, &loaded, &err), MOORE_OK);
    assert_non_null(loaded->labels);
    char seen[2][5][5] = { { { 0 } } };
    for (int32_t v = 0; v < loaded->n; v++) {
        int a, x, y, used = 0;
        assert_int_equal(sscanf(loaded->labels[v], "(%d,%d,%d)%n", &a, &x, &y, &used), 3);
        assert_int_equal(loaded->labels[v][used], '\0');
        assert_true(a >= 0 && a < 2 && x >= 0 && x < 5 && y >= 0 && y < 5);
        assert_false(seen[a][x][y]);
        seen[a][x][y] = 1;
    }
    assert_int_equal(moore_graph_write(h, path, "edgelist", &err), MOORE_OK);
    assert_int_equal(moore_topology_load(path, &edited, &err), MOORE_OK);
    assert_ptr_equal(edited->origin.family, moore_family_find("slimfly"));
    assert_null(edited->labels);
    remove(path);
    moore_graph_free(edited);
    moore_graph_free(loaded);
    moore_graph_free(h);
    moore_graph_free(g);
}

typedef struct seen_progress {
    int calls, ordered;
    double last;
} seen_progress;

static void note_progress(void *ctx, const char *what, double fraction)
{
    seen_progress *s = ctx;
    assert_non_null(what);
    if (fraction < s->last || fraction < 0 || fraction > 1)
        s->ordered = 0;
    s->last = fraction;
    s->calls++;
}

/* A long build says how far it is: Jellyfish reports its stages in order,
 * ending at 1, and builds the same graph as without a callback; the graph's
 * origin keeps no pointer to the caller's callback. */
static void load_reports_progress(void **state)
{
    (void)state;
    moore_error err;
    seen_progress s = { 0, 1, 0.0 };
    moore_graph *g = NULL, *h = NULL;
    const char *spec = "jellyfish:n=500,d=6,seed=3";
    assert_int_equal(moore_topology_load_progress(spec, note_progress, &s, &g, &err), MOORE_OK);
    assert_int_equal(moore_topology_load(spec, &h, &err), MOORE_OK);
    assert_true(s.calls >= 4);
    assert_true(s.ordered);
    assert_true(s.last == 1.0);
    assert_int_equal(g->m, h->m);
    assert_memory_equal(g->offs, h->offs, ((size_t)g->n + 1) * sizeof *g->offs);
    assert_memory_equal(g->adj, h->adj, (size_t)(2 * g->m) * sizeof *g->adj);
    assert_null(g->origin.params.progress);
    assert_null(g->origin.params.progress_ctx);
    moore_graph_free(h);
    moore_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spec_origin_is_data),
        cmocka_unit_test(file_origin_is_provenance),
        cmocka_unit_test(file_gets_family_labels),
        cmocka_unit_test(load_reports_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
