/* booksim.c — BookSim2 "anynet" network files, written and read.
 *
 * BookSim2 (topology = anynet; network_file = FILE) reads one line per router:
 *   router R node N1 node N2 ... router R2 router R3 ...
 * naming its terminals and its neighbour routers, tokens separated by single
 * spaces. A router–router link is bidirectional and may be named from either
 * end (or both); a number after "router R2" is that channel's latency. BookSim
 * indexes routers 0..N-1 and requires terminals numbered 0..T-1 ("traffic
 * manager assumes sequential node numbering"), each on one router. It has no
 * comment syntax, so the export carries nothing but these lines: switch v
 * becomes router v, its p_v endpoints the terminals numbered consecutively
 * over the switches, and every link is listed from both ends.
 *
 * Reading applies BookSim's own rules: links named twice merge, a terminal on
 * two routers or a gap in the router or terminal numbering is refused. */
#include "core/alloc.h"
#include "io/reader.h"
#include "moore/io.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int moore_write_booksim(const moore_graph *g, FILE *out, moore_error *err)
{
    int rc = io_check_simulable(g, "booksim", 1, err);
    if (rc)
        return rc;
    int64_t terminal = 0;
    for (int32_t v = 0; v < g->n; v++) {
        fprintf(out, "router %d", (int)v);
        for (int32_t i = 0; i < g->endpoints[v]; i++)
            fprintf(out, " node %lld", (long long)terminal++);
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
            fprintf(out, " router %d", (int)g->adj[k]);
        fputc('\n', out);
    }
    return ferror(out) ? moore_error_set(err, MOORE_EIO, "booksim: write failed") : MOORE_OK;
}

/* ---- reading ---- */

enum { TOK_NONE, TOK_ROUTER, TOK_NODE };

static int word(const char *s, const char *w)
{
    size_t n = strlen(w);
    return strncmp(s, w, n) == 0 && (io_blank(s[n]) || io_eol(s[n]));
}

static int token_type(const char *s)
{
    return word(s, "router") ? TOK_ROUTER : word(s, "node") ? TOK_NODE : TOK_NONE;
}

int io_anynet_is_line(const char *s) { return token_type(s) != TOK_NONE; }

static int push_router(io_reader *r, int64_t id, moore_error *err)
{
    int rc = io_reserve(r, (void **)&r->routers, &r->routers_cap, r->n_routers + 1,
                        sizeof *r->routers, err);
    if (!rc)
        r->routers[r->n_routers++] = (int32_t)id;
    return rc;
}

static int push_terminal(io_reader *r, int64_t node, int64_t router, moore_error *err)
{
    int rc = io_reserve(r, (void **)&r->terms, &r->terms_cap, r->n_terms + 1, sizeof *r->terms,
                        err);
    if (!rc)
        r->terms[r->n_terms++] = (io_link){ (int32_t)node, (int32_t)router, r->line };
    return rc;
}

static int parse_item(io_reader *r, const char **s, int type, int64_t *id, moore_error *err)
{
    *s += type == TOK_ROUTER ? 6 : 4;
    if (type == TOK_ROUTER)
        return io_parse_id(r, s, id, err);
    return io_parse_uint(r, s, IO_MAX_TERMINALS, "terminal id", id, err);
}

/* Records "type id" found on the line of "head head_id". */
static int item(io_reader *r, int head, int64_t head_id, int type, int64_t id, moore_error *err)
{
    int rc;
    if (head == TOK_NODE) {
        if (type == TOK_NODE)
            return io_fail(r, err, "node %lld is linked to node %lld: terminals connect to "
                                   "routers only",
                           (long long)head_id, (long long)id);
        rc = push_router(r, id, err);
        return rc ? rc : push_terminal(r, head_id, id, err);
    }
    if (type == TOK_NODE)
        return push_terminal(r, id, head_id, err);
    if (id == head_id)
        return io_fail(r, err, "router %lld is linked to itself (self-loop)", (long long)id);
    rc = push_router(r, id, err);
    return rc ? rc : io_push_link(r, head_id < id ? head_id : id, head_id < id ? id : head_id, err);
}

int io_anynet_line(io_reader *r, const char *s, moore_error *err)
{
    char snip[40];
    int head = token_type(s), rc;
    int64_t head_id, id;
    if ((rc = parse_item(r, &s, head, &head_id, err)))
        return rc;
    if (head == TOK_ROUTER && (rc = push_router(r, head_id, err)))
        return rc;
    int prev = TOK_NONE; /* a latency may follow a router item */
    int attached = 0; /* a line "node N" must name its router */
    for (;;) {
        if (!io_blank(*s) && !io_eol(*s))
            return io_fail(r, err, "expected a blank after the id, found '%s'",
                           io_snippet(snip, sizeof snip, s));
        s = io_skip_blank(s);
        if (io_eol(*s)) {
            if (head == TOK_NODE && !attached)
                return io_fail(r, err, "terminal %lld is on no router", (long long)head_id);
            return MOORE_OK;
        }
        int type = token_type(s);
        if (type == TOK_NONE && prev == TOK_ROUTER && isdigit((unsigned char)*s)) {
            int64_t latency;
            if ((rc = io_parse_uint(r, &s, INT32_MAX, "channel latency", &latency, err)))
                return rc;
            prev = TOK_NONE;
            continue;
        }
        if (type == TOK_NONE)
            return io_fail(r, err, "expected 'router R' or 'node N', found '%s'",
                           io_snippet(snip, sizeof snip, s));
        if ((rc = parse_item(r, &s, type, &id, err)))
            return rc;
        if ((rc = item(r, head, head_id, type, id, err)))
            return rc;
        attached = 1;
        prev = type;
    }
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

int io_anynet_finish(io_reader *r, moore_graph **out, moore_error *err)
{
    if (r->n_routers == 0)
        return moore_error_set(err, MOORE_EINVAL, "%s: no routers", r->name);
    /* Routers 0..N-1, each named somewhere. */
    qsort(r->routers, (size_t)r->n_routers, sizeof *r->routers, cmp_i32);
    int64_t n = 0;
    for (int64_t i = 0; i < r->n_routers; i++) {
        if (r->routers[i] > n)
            return moore_error_set(err, MOORE_EINVAL,
                                   "%s: router %lld is never named, but router %d is: BookSim2 "
                                   "numbers routers 0..N-1",
                                   r->name, (long long)n, (int)r->routers[i]);
        if (r->routers[i] == n)
            n++;
    }
    /* Links named from both ends (or twice) are one link, as in BookSim. */
    io_sort_links(r->links, r->n_links);
    int64_t m = 0;
    for (int64_t i = 0; i < r->n_links; i++)
        if (m == 0 || r->links[i].u != r->links[m - 1].u || r->links[i].v != r->links[m - 1].v)
            r->links[m++] = r->links[i];
    /* Terminals: one router each, numbered 0..T-1. */
    io_sort_links(r->terms, r->n_terms);
    int32_t *ep = moore_calloc((size_t)n, sizeof *ep, err);
    if (!ep)
        return core_alloc_code(err);
    int64_t next = 0;
    int rc = MOORE_OK;
    for (int64_t i = 0; i < r->n_terms && !rc; i++) {
        const io_link *t = &r->terms[i];
        if (i > 0 && t->u == t[-1].u) {
            if (t->v != t[-1].v) {
                r->line = t->line;
                rc = io_fail(r, err, "terminal %d is on router %d and on router %d (line %lld)",
                             (int)t->u, (int)t->v, (int)t[-1].v, (long long)t[-1].line);
            }
            continue;
        }
        if (t->u != next) {
            rc = moore_error_set(err, MOORE_EINVAL,
                                 "%s: terminal %lld is missing but terminal %d exists: BookSim2 "
                                 "numbers terminals 0..T-1",
                                 r->name, (long long)next, (int)t->u);
            break;
        }
        next++;
        if (++ep[t->v] > IO_MAX_ENDPOINTS) {
            r->line = t->line;
            rc = io_fail(r, err, "router %d has more than %d terminals", (int)t->v,
                         IO_MAX_ENDPOINTS);
        }
    }
    if (!rc)
        rc = io_build(r, n, r->links, m, ep, out, err);
    free(ep);
    return rc;
}
