/* edgelist.c — moore's native edge list (docs/formats.md) and plain "u v" lists.
 *
 * Writing: the '#' header (family, params, switches, links, endpoints), then
 * one "u v" line per link with u < v, in CSR order, so the same graph always
 * gives the same bytes.
 *
 * Reading: "u v" per line, separated by spaces or tabs, with optional CR line
 * ends and trailing blanks. A third column is accepted when it is a number
 * (networkx write_weighted_edgelist) or a "{...}" data dict (networkx
 * write_edgelist's default), and ignored — but every link line of a file must
 * have the same columns, because a line "0 1 2" in a file of two-column lines
 * is an adjacency list, and reading it as a weighted link would be wrong
 * silently. Without a "# switches:" header the ids must number the switches
 * 0..N-1 without gaps: a gap is an isolated switch that a plain list cannot
 * express, and usually means 1-based or sparse ids (which would also make a
 * file "0 99999999" allocate a hundred million switches). */
#include "core/alloc.h"
#include "io/reader.h"
#include "moore/io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int moore_write_edgelist(const moore_graph *g, FILE *out, moore_error *err)
{
    io_write_header(g, out);
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            if (g->adj[k] > u)
                fprintf(out, "%d %d\n", (int)u, (int)g->adj[k]);
    return ferror(out) ? moore_error_set(err, MOORE_EIO, "edgelist: write failed") : MOORE_OK;
}

static const char *shape_name(int shape)
{
    return shape == 2 ? "'u v'" : shape == 3 ? "'u v weight'" : "'u v {data}'";
}

int io_edgelist_line(io_reader *r, const char *s, moore_error *err)
{
    char snip[40];
    int64_t u, v;
    int rc = io_parse_id(r, &s, &u, err);
    if (rc)
        return rc;
    if (io_rest_blank(s))
        return io_fail(r, err, "only one switch id on the line; expected 'u v'");
    if (!io_blank(*s))
        return io_fail(r, err, "expected 'u v', found '%s'", io_snippet(snip, sizeof snip, s));
    if ((rc = io_parse_id(r, &s, &v, err)))
        return rc;
    if (!io_blank(*s) && !io_eol(*s))
        return io_fail(r, err, "expected 'u v', found '%s' after the ids",
                       io_snippet(snip, sizeof snip, s));
    s = io_skip_blank(s);
    int shape = 2;
    if (*s == '{') {
        /* networkx: "u v {'weight': 2}"; the dict may nest, so take the last '}'. */
        const char *close = NULL;
        for (const char *p = s; !io_eol(*p); p++)
            if (*p == '}')
                close = p;
        if (!close)
            return io_fail(r, err, "unterminated '{' data column: '%s'",
                           io_snippet(snip, sizeof snip, s));
        s = close + 1;
        shape = 4;
    } else if (!io_eol(*s) && *s != '#') {
        char *end;
        double w = strtod(s, &end);
        if (end == s || !isfinite(w) || (!io_blank(*end) && !io_eol(*end)))
            return io_fail(r, err, "third column '%s' is neither a weight nor networkx {data}",
                           io_snippet(snip, sizeof snip, s));
        s = end;
        shape = 3;
    }
    s = io_skip_blank(s);
    if (!io_eol(*s) && *s != '#')
        return io_fail(r, err, "unexpected text after the link: '%s' (an adjacency list? "
                               "moore reads one 'u v' link per line)",
                       io_snippet(snip, sizeof snip, s));
    if (!r->shape) {
        r->shape = shape;
        r->shape_line = r->line;
    } else if (shape != r->shape) {
        return io_fail(r, err, "line has %s but line %lld has %s (an adjacency list? moore "
                               "reads one 'u v' link per line)",
                       shape_name(shape), (long long)r->shape_line, shape_name(r->shape));
    }
    if (u == v)
        return io_fail(r, err, "link %lld-%lld is a self-loop", (long long)u, (long long)v);
    return io_push_link(r, u < v ? u : v, u < v ? v : u, err);
}

/* Without a declared count, every id 0..n-1 must occur in some link. */
static int check_no_gaps(io_reader *r, int64_t n, moore_error *err)
{
    unsigned char *seen = moore_calloc((size_t)n, 1, err);
    if (!seen)
        return core_alloc_code(err);
    for (int64_t i = 0; i < r->n_links; i++)
        seen[r->links[i].u] = seen[r->links[i].v] = 1;
    int64_t gap = -1;
    for (int64_t v = 0; v < n && gap < 0; v++)
        if (!seen[v])
            gap = v;
    free(seen);
    if (gap < 0)
        return MOORE_OK;
    return moore_error_set(err, MOORE_EINVAL,
                           "%s: switch %lld appears in no link, but ids go up to %lld: a plain "
                           "edge list numbers its switches 0..N-1 without gaps (1-based or "
                           "sparse ids? declare isolated switches with '# switches: N')",
                           r->name, (long long)gap, (long long)n - 1);
}

int io_edgelist_finish(io_reader *r, moore_graph **out, moore_error *err)
{
    int64_t max_id = -1;
    for (int64_t i = 0; i < r->n_links; i++)
        if (r->links[i].v > max_id)
            max_id = r->links[i].v; /* v > u */
    int64_t n = r->hdr_switches >= 0 ? r->hdr_switches : max_id + 1;
    int rc;
    if (n == 0)
        return moore_error_set(err, MOORE_EINVAL, "%s: no switches and no links (empty topology)",
                               r->name);
    if (r->hdr_switches >= 0) {
        char rule[80];
        if ((rc = io_check_declared(r, n, r->n_links, r->hdr_switches_line, err)))
            return rc;
        snprintf(rule, sizeof rule, "'# switches: %lld' allows 0..%lld", (long long)n,
                 (long long)n - 1);
        if ((rc = io_check_range(r, r->links, r->n_links, n, rule, err)))
            return rc;
    } else if ((rc = check_no_gaps(r, n, err))) {
        return rc;
    }
    io_sort_links(r->links, r->n_links);
    /* After sorting, a repeated link sits next to its first occurrence; report
     * the repeat that comes first in the file. */
    int64_t dup = -1;
    for (int64_t i = 1; i < r->n_links; i++)
        if (r->links[i].u == r->links[i - 1].u && r->links[i].v == r->links[i - 1].v &&
            (dup < 0 || r->links[i].line < r->links[dup].line))
            dup = i;
    if (dup >= 0) {
        r->line = r->links[dup].line;
        return io_fail(r, err, "link %d-%d appears twice (also on line %lld)",
                       (int)r->links[dup].u, (int)r->links[dup].v,
                       (long long)r->links[dup - 1].line);
    }
    if (r->hdr_links >= 0 && r->hdr_links != r->n_links)
        return moore_error_set(err, MOORE_EINVAL,
                               "%s: the header says '# links: %lld' but the file lists %lld "
                               "(truncated or edited?)",
                               r->name, (long long)r->hdr_links, (long long)r->n_links);
    int32_t *ep;
    if ((rc = io_header_endpoints(r, n, &ep, err)))
        return rc;
    rc = io_build(r, n, r->links, r->n_links, ep, out, err);
    free(ep);
    return rc;
}
