/* graphml.c — GraphML export for networkx, igraph, Gephi and SST/merlin.
 *
 * SST/merlin's "anytopo" topology loads a GraphML file with networkx
 * read_graphml, requires an undirected graph whose every node has an
 * `endpoints` attribute, and numbers routers in the order the nodes appear
 * (it relabels non-integer ids by enumeration). So nodes are written in
 * order with ids "0".."N-1" (networkx read_graphml(..., node_type=int) gives
 * back the same integers), `endpoints` declared as an int <key>, and `label`
 * as a string <key> when the family labels its switches. family and params
 * are graph attributes. Text is XML-escaped, so any label stays well-formed. */
#include "io/escape.h"
#include "moore/io.h"

static int graph_data(FILE *out, const char *key, const char *value, moore_error *err)
{
    fprintf(out, "    <data key=\"%s\">", key);
    if (io_put_xml(out, value))
        return moore_error_set(err, MOORE_ENOMEM, "graphml: out of memory");
    fputs("</data>\n", out);
    return MOORE_OK;
}

int moore_write_graphml(const moore_graph *g, FILE *out, moore_error *err)
{
    int rc, has_params = g->params && *g->params;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"\n"
          "         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
          "         xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
          "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n",
          out);
    if (g->family)
        fputs("  <key id=\"family\" for=\"graph\" attr.name=\"family\" attr.type=\"string\"/>\n",
              out);
    if (has_params)
        fputs("  <key id=\"params\" for=\"graph\" attr.name=\"params\" attr.type=\"string\"/>\n",
              out);
    fputs("  <key id=\"endpoints\" for=\"node\" attr.name=\"endpoints\" attr.type=\"int\"/>\n",
          out);
    if (g->labels)
        fputs("  <key id=\"label\" for=\"node\" attr.name=\"label\" attr.type=\"string\"/>\n",
              out);
    fputs("  <graph id=\"G\" edgedefault=\"undirected\">\n", out);
    if (g->family && (rc = graph_data(out, "family", g->family, err)))
        return rc;
    if (has_params && (rc = graph_data(out, "params", g->params, err)))
        return rc;
    for (int32_t v = 0; v < g->n; v++) {
        fprintf(out, "    <node id=\"%d\"><data key=\"endpoints\">%d</data>", (int)v,
                (int)g->endpoints[v]);
        if (g->labels && g->labels[v]) {
            fputs("<data key=\"label\">", out);
            if (io_put_xml(out, g->labels[v]))
                return moore_error_set(err, MOORE_ENOMEM, "graphml: out of memory");
            fputs("</data>", out);
        }
        fputs("</node>\n", out);
    }
    /* a HyperX trunk of K cables is K parallel edges (SST/merlin gives each its
     * own port; networkx reads the file as a MultiGraph) */
    int32_t cables = moore_graph_multiplicity(g);
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            for (int32_t c = 0; g->adj[k] > u && c < cables; c++)
                fprintf(out, "    <edge source=\"%d\" target=\"%d\"/>\n", (int)u, (int)g->adj[k]);
    fputs("  </graph>\n</graphml>\n", out);
    return ferror(out) ? moore_error_set(err, MOORE_EIO, "graphml: write failed") : MOORE_OK;
}
