/* dot.c — Graphviz DOT export, for drawing a topology and for tools that
 * read DOT (networkx via pydot, Gephi).
 *
 * An undirected graph: one node statement per switch carrying `endpoints`
 * (and `label` when the family gives one), then one `u -- v` per link. The
 * graph's name is the family, and family/params are graph attributes. Quoted
 * strings escape '"' and '\' so no label can end its string early. */
#include "io/escape.h"
#include "moore/io.h"

static int put_quoted(FILE *out, const char *s, moore_error *err)
{
    fputc('"', out);
    if (io_put_dot(out, s))
        return moore_error_set(err, MOORE_ENOMEM, "dot: out of memory");
    fputc('"', out);
    return MOORE_OK;
}

int moore_write_dot(const moore_graph *g, FILE *out, moore_error *err)
{
    int rc;
    fputs("graph ", out);
    if ((rc = put_quoted(out, g->family ? g->family : "moore", err)))
        return rc;
    fprintf(out, " {\n  // moore topology: %d switches, %lld links, %lld endpoints\n", (int)g->n,
            (long long)g->m, (long long)moore_graph_endpoints_total(g));
    if (g->family || (g->params && *g->params)) {
        fputs("  graph [", out);
        if (g->family) {
            fputs("family=", out);
            if ((rc = put_quoted(out, g->family, err)))
                return rc;
        }
        if (g->params && *g->params) {
            fputs(g->family ? ", params=" : "params=", out);
            if ((rc = put_quoted(out, g->params, err)))
                return rc;
        }
        fputs("];\n", out);
    }
    for (int32_t v = 0; v < g->n; v++) {
        fprintf(out, "  %d [endpoints=%d", (int)v, (int)g->endpoints[v]);
        if (g->labels && g->labels[v]) {
            fputs(", label=", out);
            if ((rc = put_quoted(out, g->labels[v], err)))
                return rc;
        }
        fputs("];\n", out);
    }
    int32_t cables = moore_graph_multiplicity(g); /* a HyperX trunk: K parallel edges */
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            for (int32_t c = 0; g->adj[k] > u && c < cables; c++)
                fprintf(out, "  %d -- %d;\n", (int)u, (int)g->adj[k]);
    fputs("}\n", out);
    return ferror(out) ? moore_error_set(err, MOORE_EIO, "dot: write failed") : MOORE_OK;
}
