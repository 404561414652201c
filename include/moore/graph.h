/* graph.h — the switch graph every family builds and every metric reads.
 *
 * A moore_graph is an undirected simple graph in CSR form: the neighbours of
 * switch v are adj[offs[v] .. offs[v+1]-1], sorted ascending. Each switch also
 * carries its endpoint (server) count, and optionally a label such as Slim
 * Fly's "(0,x,y)" that exporters copy out. Once built, a graph is immutable:
 * metrics take `const moore_graph *` and never change it.
 *
 * Graphs are made with a moore_builder, which rejects self-loops, duplicate
 * links and out-of-range switch ids with a message naming the offending link. */
#ifndef MOORE_GRAPH_H
#define MOORE_GRAPH_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/origin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest switch count moore accepts (ids are int32_t). */
#define MOORE_MAX_SWITCHES 100000000

typedef struct moore_graph {
    int32_t n;          /* switches, numbered 0..n-1 */
    int64_t m;          /* undirected links */
    int64_t *offs;      /* n+1 row offsets into adj */
    int32_t *adj;       /* 2m neighbour ids, each row sorted ascending */
    int32_t *endpoints; /* n endpoint counts (never NULL; zeros when unset) */
    char **labels;      /* NULL, or n NUL-terminated labels */
    char *family;       /* family name, or NULL for a graph read from a plain file */
    char *params;       /* the family's parameters as "k=v,k=v", or NULL */
    moore_origin origin; /* what it is, as data (moore/origin.h); zero when unknown */
} moore_graph;

/* ---- building ---- */

typedef struct moore_builder moore_builder;

/* A builder for a graph on n switches (0 <= n <= MOORE_MAX_SWITCHES);
 * expected_links is a capacity hint (0 is fine). *out is a new builder that
 * moore_builder_finish or moore_builder_free releases; NULL on error. O(1). */
MOORE_API int moore_builder_new(int32_t n, int64_t expected_links, moore_builder **out,
                      moore_error *err);

/* Adds the undirected link u–v. Refuses ids outside 0..n-1 and self-loops
 * immediately; duplicates are found by moore_builder_finish(). Amortised O(1). */
MOORE_API int moore_builder_add_link(moore_builder *b, int32_t u, int32_t v, moore_error *err);

/* Turns the links into a CSR graph (endpoints all zero, no labels) and frees
 * the builder, whether it succeeds or not. Refuses duplicate links. *out is a
 * new graph the caller frees with moore_graph_free; NULL on error. O(n + m)
 * when links came in (u, v) order, else O(n + m log m) for the sort. */
MOORE_API int moore_builder_finish(moore_builder *b, moore_graph **out, moore_error *err);

/* Frees a builder that will not be finished. NULL is fine. O(1). */
MOORE_API void moore_builder_free(moore_builder *b);

/* ---- describing (used by families right after building) ---- */

/* The setters below change g in place (g keeps what they copy); O(n) or less. */
MOORE_API int moore_graph_set_endpoints_uniform(moore_graph *g, int32_t p, moore_error *err);
/* Copies n endpoint counts; negative counts are refused. */
MOORE_API int moore_graph_set_endpoints(moore_graph *g, const int32_t *p, moore_error *err);
/* Sets the label of switch v (copied; the first label allocates n slots). */
MOORE_API int moore_graph_set_label(moore_graph *g, int32_t v, const char *label, moore_error *err);
/* Records the family name and its canonical parameter string (copied), and
 * the SPEC they make, g->origin.spec = "family[:params]". */
MOORE_API int moore_graph_set_origin(moore_graph *g, const char *family, const char *params,
                           moore_error *err);
/* Records the family row g was built from, its parameters as parsed and, when
 * counts is not NULL, their closed-form counts (all copied; the row is only
 * pointed at). Called once by the topology layer (src/topology/). O(1). */
MOORE_API void moore_graph_set_family(moore_graph *g, const struct moore_family *family,
                                      const moore_params *params, const moore_counts *counts);
/* Records the file g was read from: its path (copied) and the reader's format
 * name (a static string). */
MOORE_API int moore_graph_set_file(moore_graph *g, const char *path, const char *format,
                                   moore_error *err);
/* The SPEC that rebuilds g ("family[:params]", g->origin.spec), or NULL for a
 * graph without a family. Owned by g, valid until g is freed; O(1). */
MOORE_API const char *moore_graph_spec(const moore_graph *g);

/* ---- reading ---- */

static inline int32_t moore_graph_degree(const moore_graph *g, int32_t v)
{
    return (int32_t)(g->offs[v + 1] - g->offs[v]);
}
/* Degrees and the endpoint total: O(n) scans, no allocation. */
MOORE_API int32_t moore_graph_degree_min(const moore_graph *g);
MOORE_API int32_t moore_graph_degree_max(const moore_graph *g);
MOORE_API int64_t moore_graph_endpoints_total(const moore_graph *g);
/* 1 when u–v is a link (binary search in u's row, O(log deg u)). */
MOORE_API int moore_graph_has_link(const moore_graph *g, int32_t u, int32_t v);
/* 1 when every switch has the same degree. O(n). */
MOORE_API int moore_graph_is_regular(const moore_graph *g);

/* Fills rev (2m entries) with the CSR index of each arc's reverse: for arc k
 * = u→v, rev[k] is the position of u in v's row (binary search, rows are
 * sorted). Flow algorithms pair an arc with its twin through this table.
 * rev is caller-owned; O(m log Δ) time (Δ the largest degree), OpenMP. */
MOORE_API void moore_graph_reverse_arcs(const moore_graph *g, int64_t *rev);

/* Cables per link (HyperX trunking K), from the graph's origin: its
 * family's closed-form counts when they match the graph's switches and
 * links, else 1. The CSR holds each switch pair once; ports per switch are
 * endpoints + multiplicity × degree. O(1). */
MOORE_API int32_t moore_graph_multiplicity(const moore_graph *g);

/* A deep copy, origin included (the family row stays shared; it is static).
 * *out is a new graph the caller frees with moore_graph_free; NULL on error. O(n + m). */
MOORE_API int moore_graph_copy(const moore_graph *g, moore_graph **out, moore_error *err);

/* Frees g and everything it holds. NULL is fine. O(n) (the labels). */
MOORE_API void moore_graph_free(moore_graph *g);

/* Component ids in comp[0..n-1] (may be NULL) and their count (BFS, O(n + m);
 * src/core/components.c). comp is caller-owned; O(n) scratch memory. */
MOORE_API int moore_components(const moore_graph *g, int32_t *comp, int32_t *count, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
