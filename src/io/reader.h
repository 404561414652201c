/* reader.h — internal to src/io: the line reader shared by the text formats
 * moore reads (its edge list and plain "u v" lists, netbench ".topology",
 * BookSim2 "anynet").
 *
 * reader.c reads lines and decides what kind of line each is; the per-format
 * files (edgelist.c, netbench.c, booksim.c) parse their own lines into the
 * io_reader and turn it into a graph at the end. Keeping every link's line
 * number until the graph is built is what lets a duplicate or out-of-range
 * link be reported as "file:line", the way a user can find and fix it. */
#ifndef MOORE_IO_READER_H
#define MOORE_IO_READER_H

#include <stdint.h>
#include <stdio.h>
#include "moore/error.h"
#include "moore/graph.h"

/* Endpoints per switch accepted from a file (the same bound as the p= key). */
#define IO_MAX_ENDPOINTS (1 << 20)
/* A header may declare switches that appear in no link, but at most
 * 2 * links + IO_MAX_ISOLATED of them in all, so a small file can never make
 * moore allocate far more than it contains (docs/formats.md). */
#define IO_MAX_ISOLATED 1000000
/* The longest line moore reads (bytes, newline included). A "# endpoints:"
 * header with one count per switch is the longest line moore writes; 64 MiB
 * holds one for ten million switches. A file without newlines is refused
 * once this much is read instead of being read whole. */
#define IO_MAX_LINE ((int64_t)64 << 20)
/* Terminal (node) ids accepted in a BookSim2 anynet file. */
#define IO_MAX_TERMINALS 1000000000LL

typedef enum io_kind {
    IO_KIND_NONE = 0,   /* no link or header line seen yet */
    IO_KIND_EDGELIST,   /* moore edge list or plain "u v" lines */
    IO_KIND_NETBENCH,   /* "|V|=" header, each cable listed in both directions */
    IO_KIND_ANYNET      /* "router R node N ... router R2 ..." lines */
} io_kind;

typedef struct io_link {
    int32_t u, v;
    int64_t line;
} io_link;

/* A set of ids as netbench writes them: "set()", "set(1,4)", "incl_range(0,9)". */
typedef struct io_range {
    int64_t lo, hi;     /* inclusive */
} io_range;

typedef struct io_idset {
    int64_t line;       /* 0 when the file has no such line */
    int64_t count, cap;
    io_range *ranges;
} io_idset;

typedef struct io_reader {
    const char *name;
    int64_t line;
    io_kind kind;
    int moore_header;           /* line 1 is "# moore topology" */
    /* moore header ("# key: value" after "# moore topology"); -1 when absent */
    int64_t hdr_switches, hdr_links;
    int64_t hdr_switches_line, hdr_links_line;
    int32_t *endpoints;
    int64_t endpoints_len, endpoints_line;
    char *family, *params;
    /* links as read, with their lines */
    io_link *links;
    int64_t n_links, cap;
    /* edge list: the columns of the first link line (2, 3 = weight, 4 = {data}) */
    int shape;
    int64_t shape_line;
    /* netbench */
    int64_t nb_v, nb_e, nb_v_line, nb_e_line;
    io_idset nb_tors, nb_servers, nb_switches;
    /* anynet: terminals (u = terminal id, v = router) and every router named */
    io_link *terms;
    int64_t n_terms, terms_cap;
    int32_t *routers;
    int64_t n_routers, routers_cap;
} io_reader;

/* "name:line: message" as MOORE_EINVAL. */
int io_fail(io_reader *r, moore_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Up to len-1 printable characters of s, stopping at the end of the line;
 * anything unprintable becomes '?', so a message stays one clean line. */
const char *io_snippet(char *dst, size_t len, const char *s);

static inline int io_blank(char c) { return c == ' ' || c == '\t'; }
static inline int io_eol(char c) { return c == '\0' || c == '\n'; } /* CRLF: read_line */
const char *io_skip_blank(const char *s);
/* 1 when only blanks remain before the end of the line. */
int io_rest_blank(const char *s);

/* Parses an unsigned decimal number at *s (after blanks) that must be <= max;
 * `what` names it in messages ("switch id", "endpoint count"). Refuses a sign,
 * non-digits and overflow, naming the text found. */
int io_parse_uint(io_reader *r, const char **s, int64_t max, const char *what, int64_t *out,
                  moore_error *err);
/* A switch id: 0 <= id < MOORE_MAX_SWITCHES. */
int io_parse_id(io_reader *r, const char **s, int64_t *out, moore_error *err);

/* Grows *array (of elem-byte items, capacity *cap) to hold at least `need`. */
int io_reserve(io_reader *r, void **array, int64_t *cap, int64_t need, size_t elem,
               moore_error *err);
int io_push_link(io_reader *r, int64_t u, int64_t v, moore_error *err);
/* A header count "KEY value" (moore's "# switches:", netbench's "|V|="): refuses
 * a repeat (*line already set), a bad number and trailing text. */
int io_parse_count(io_reader *r, const char *key, const char *s, int64_t max, int64_t *value,
                   int64_t *line, moore_error *err);

/* Refuses a declared switch count n (from the header on line `line`) that
 * exceeds 2 * links + IO_MAX_ISOLATED. */
int io_check_declared(io_reader *r, int64_t n, int64_t links, int64_t line, moore_error *err);

/* Sorts links by (u, v, line). */
void io_sort_links(io_link *links, int64_t n);
/* Refuses an id >= n, naming the line of the first such link. */
int io_check_range(io_reader *r, const io_link *links, int64_t count, int64_t n,
                   const char *rule, moore_error *err);
/* Makes the graph from unique u < v links, then sets endpoints (NULL: one per
 * switch, the SPEC default) and the moore header's origin. */
int io_build(io_reader *r, int64_t n, const io_link *links, int64_t m,
             const int32_t *endpoints, moore_graph **out, moore_error *err);
/* Endpoints from "# endpoints:" (one value or one per switch), or NULL when
 * the header has none. *out is malloc'ed. */
int io_header_endpoints(io_reader *r, int64_t n, int32_t **out, moore_error *err);

/* ---- per format ---- */

int io_edgelist_line(io_reader *r, const char *s, moore_error *err);
int io_edgelist_finish(io_reader *r, moore_graph **out, moore_error *err);

/* 1 when s starts with a netbench header key (|V|=, |E|=, ToRs=, ...). */
int io_netbench_is_header(const char *s);
int io_netbench_header(io_reader *r, const char *s, moore_error *err);
int io_netbench_link(io_reader *r, const char *s, moore_error *err);
int io_netbench_finish(io_reader *r, moore_graph **out, moore_error *err);

/* 1 when s starts with the word "router" or "node". */
int io_anynet_is_line(const char *s);
int io_anynet_line(io_reader *r, const char *s, moore_error *err);
int io_anynet_finish(io_reader *r, moore_graph **out, moore_error *err);

/* ---- writing ---- */

/* Refuses to write g for a packet simulator (`format` names it) when the
 * simulator could not run it: no endpoints at all (p=0: no traffic), or
 * switches with no route between them: with every_switch, any two switches
 * (BookSim2 builds routes between all routers and hangs otherwise); without,
 * any two switches that have endpoints (netbench routes between ToRs). */
int io_check_simulable(const moore_graph *g, const char *format, int every_switch,
                       moore_error *err);

/* moore's '#' header: "# moore topology", family, params, switches, links,
 * endpoints (one value when uniform). The edge list and netbench writers
 * share it, so moore reads its netbench export back with endpoints and origin. */
void io_write_header(const moore_graph *g, FILE *out);

#endif
