/* format.c — the table of output formats and the atomic write entry point.
 *
 * One line per format; `moore build -f NAME` and the help text read this table. */
#include "moore/io.h"
#include "moore/suggest.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const moore_format FORMATS[] = {
    { "edgelist", "moore edge list: '#' header, then 'u v' per link (docs/formats.md)", moore_write_edgelist },
    { "json", "JSON object: family, params, switches, endpoints, labels, links as [u,v]", moore_write_json },
    { "dot", "Graphviz DOT undirected graph, endpoints and labels as attributes", moore_write_dot },
    { "graphml", "GraphML with int 'endpoints' per node (networkx, SST/merlin anytopo)", moore_write_graphml },
    { "booksim", "BookSim2 anynet network_file: 'router R node N... router R2...'", moore_write_booksim },
    { "netbench", "netbench .topology: |V|, |E|, ToRs/Servers/Switches, links both ways", moore_write_netbench },
    { NULL, NULL, NULL }
};

const moore_format *moore_formats(void) { return FORMATS; }

int moore_format_find(const char *name, const moore_format **out, moore_error *err)
{
    char known[256] = "";
    for (const moore_format *f = FORMATS; f->name; f++) {
        if (strcmp(f->name, name) == 0) {
            *out = f;
            return MOORE_OK;
        }
        strncat(known, f->name, sizeof known - strlen(known) - 3);
        if (f[1].name)
            strcat(known, ", ");
    }
    const char *names[32];
    char hint[96];
    int n = 0;
    for (const moore_format *f = FORMATS; f->name && n < 31; f++)
        names[n++] = f->name;
    names[n] = NULL;
    return moore_error_set(err, MOORE_EINVAL, "unknown format '%s'%s (known: %s)", name,
                           moore_suggest_text(name, names, hint, sizeof hint), known);
}

int moore_graph_write(const moore_graph *g, const char *path, const char *format,
                      moore_error *err)
{
    const moore_format *f;
    moore_atomic_file af;
    int rc = moore_format_find(format, &f, err);
    if (rc)
        return rc;
    rc = moore_atomic_open(path, &af, err);
    if (rc)
        return rc;
    errno = 0;
    rc = f->write(g, af.f, err);
    if (rc == MOORE_EIO) { /* the writer knows the stream, not the file: name it here */
        int e = errno;
        moore_error_set(err, MOORE_EIO, "cannot write '%s' (%s): %s",
                        strcmp(path, "-") == 0 ? "standard output" : path, f->name,
                        e ? strerror(e) : "write failed");
    }
    if (rc)
        moore_atomic_abort(&af);
    else
        rc = moore_atomic_commit(&af, err);
    return rc;
}
