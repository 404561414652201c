/* io.h — reading and writing topologies (docs/formats.md).
 *
 * The native format is the edge list: '#' header lines (family, params,
 * switches, endpoints), then one "u v" line per link with u < v. Plain "u v"
 * files from networkx or igraph read too, and so do netbench ".topology" files
 * (each link listed in both directions). Exporters write formats other tools
 * define: JSON, DOT, GraphML (with an `endpoints` attribute for SST/merlin),
 * BookSim2 anynet, netbench.
 *
 * Every writer that takes a path writes a temporary file in the same
 * directory and renames it into place, so an output file is whole or absent. */
#ifndef MOORE_IO_H
#define MOORE_IO_H

#include "moore/export.h"
#include <stdio.h>
#include "moore/error.h"
#include "moore/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A file being written atomically: write to f, then commit or abort. */
typedef struct moore_atomic_file {
    FILE *f;
    char *path;     /* final path */
    char *tmp;      /* temporary path in the same directory */
} moore_atomic_file;

/* path "-" means stdout (no temporary file). Fills the caller's af, which
 * moore_atomic_commit or moore_atomic_abort releases; on error af holds nothing. O(1). */
MOORE_API int moore_atomic_open(const char *path, moore_atomic_file *af, moore_error *err);
/* Flushes, closes and renames into place; on failure removes the temporary.
 * Either way af holds nothing afterwards. O(1), bar a copy of the file when
 * the target has other hard links (kept in place). */
MOORE_API int moore_atomic_commit(moore_atomic_file *af, moore_error *err);
/* Closes and removes the temporary file and frees what af holds. Safe to call twice. */
MOORE_API void moore_atomic_abort(moore_atomic_file *af);
/* Removes the temporary files of every write still open. Async-signal-safe:
 * for a program's SIGINT/SIGTERM/SIGHUP handler, so that a stopped write
 * leaves nothing behind. Frees nothing; O(1) (a fixed-size table). */
MOORE_API void moore_atomic_remove_pending(void);

/* A writer for one format. */
typedef struct moore_format {
    const char *name;       /* "edgelist", "json", ... */
    const char *help;
    int (*write)(const moore_graph *g, FILE *out, moore_error *err);
} moore_format;

/* The table of formats, terminated by {NULL}. Static, like the rows *out
 * points at; moore_format_find leaves *out unset on error. */
MOORE_API const moore_format *moore_formats(void);
/* Refuses unknown names, listing the known ones. */
MOORE_API int moore_format_find(const char *name, const moore_format **out, moore_error *err);

/* Writes g in the named format to path ("-" for stdout), atomically.
 * Borrows g. O(n + m + endpoints) for every format, like the writers below. */
MOORE_API int moore_graph_write(const moore_graph *g, const char *path, const char *format,
                      moore_error *err);

/* Individual writers (stream versions). Borrow g and out (not closed). */
MOORE_API int moore_write_edgelist(const moore_graph *g, FILE *out, moore_error *err);
MOORE_API int moore_write_json(const moore_graph *g, FILE *out, moore_error *err);
MOORE_API int moore_write_dot(const moore_graph *g, FILE *out, moore_error *err);
MOORE_API int moore_write_graphml(const moore_graph *g, FILE *out, moore_error *err);
MOORE_API int moore_write_booksim(const moore_graph *g, FILE *out, moore_error *err);
MOORE_API int moore_write_netbench(const moore_graph *g, FILE *out, moore_error *err);

/* Reads an edge list (moore's own or plain "u v"), a netbench .topology or a
 * BookSim2 anynet file, told apart by content (docs/formats.md).
 * Refuses garbage, binary data, empty files, self-loops, duplicate links,
 * negative or huge ids, with the file and line in the message. *out is a new
 * graph the caller frees with moore_graph_free; NULL on error. O(file size +
 * m log m) time (the links are sorted), O(n + m) memory. The stream version
 * borrows in (not closed); name is copied into messages and g's origin path. */
MOORE_API int moore_graph_read(const char *path, moore_graph **out, moore_error *err);
MOORE_API int moore_graph_read_stream(FILE *in, const char *name, moore_graph **out, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
