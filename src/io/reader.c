/* reader.c — reading a topology file: one driver for every text format.
 *
 * The reader is strict because a silently misread topology produces wrong
 * numbers far downstream: every refusal names the file, the line and the rule,
 * in one printable line. Formats are told apart by content, not by extension:
 * a "|V|=" header marks netbench, a line starting with "router" or "node"
 * marks BookSim2 anynet, and "u v" lines without either are an edge list.
 * Mixing them is refused. '#' lines are comments everywhere; after a first
 * line "# moore topology" the comments "# family:", "# params:",
 * "# switches:", "# links:" and "# endpoints:" carry moore's own header.
 * A foreign file's comments are never interpreted. */
#include "core/alloc.h"
#include "io/reader.h"
#include "moore/io.h"
#include "moore/graph.h" /* moore_components */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* ---- small helpers shared by the formats ---- */

/* Copies s up to the end of the line (or the first blank when `word`),
 * replacing anything unprintable by '?'. */
static const char *printable(char *dst, size_t len, const char *s, int word)
{
    size_t i = 0;
    for (; i + 1 < len && !io_eol(s[i]) && !(word && io_blank(s[i])); i++) {
        unsigned char c = (unsigned char)s[i];
        dst[i] = (c >= 32 && c < 127) ? (char)c : '?';
    }
    dst[i] = '\0';
    return dst;
}

const char *io_snippet(char *dst, size_t len, const char *s) { return printable(dst, len, s, 0); }

int io_fail(io_reader *r, moore_error *err, const char *fmt, ...)
{
    char what[240];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return moore_error_set(err, MOORE_EINVAL, "%s:%lld: %s", r->name, (long long)r->line, what);
}

const char *io_skip_blank(const char *s)
{
    while (io_blank(*s))
        s++;
    return s;
}

int io_rest_blank(const char *s) { return io_eol(*io_skip_blank(s)); }

/* The token at s (up to a blank or the end of the line), made printable. */
static const char *token(char *dst, size_t len, const char *s) { return printable(dst, len, s, 1); }

int io_parse_uint(io_reader *r, const char **s, int64_t max, const char *what, int64_t *out,
                  moore_error *err)
{
    char snip[24];
    const char *start = io_skip_blank(*s);
    if (*start == '-')
        return io_fail(r, err, "negative %s '%s'", what, token(snip, sizeof snip, start));
    if (io_eol(*start))
        return io_fail(r, err, "expected a %s, found the end of the line", what);
    if (!isdigit((unsigned char)*start))
        return io_fail(r, err, "expected a %s, found '%s'", what, token(snip, sizeof snip, start));
    if (start[0] == '0' && isdigit((unsigned char)start[1]))
        return io_fail(r, err, "%s '%s' has a leading zero (numbers are plain decimal, "
                               "docs/formats.md)", what, token(snip, sizeof snip, start));
    int64_t v = 0;
    const char *p = start;
    for (; isdigit((unsigned char)*p); p++) {
        v = v * 10 + (*p - '0');
        if (v > max)
            return io_fail(r, err, "%s '%s' exceeds the limit %lld", what,
                           token(snip, sizeof snip, start), (long long)max);
    }
    *s = p;
    *out = v;
    return MOORE_OK;
}

int io_parse_id(io_reader *r, const char **s, int64_t *out, moore_error *err)
{
    return io_parse_uint(r, s, MOORE_MAX_SWITCHES - 1, "switch id", out, err);
}

int io_reserve(io_reader *r, void **array, int64_t *cap, int64_t need, size_t elem,
               moore_error *err)
{
    if (need <= *cap)
        return MOORE_OK;
    int64_t grown = *cap ? 2 * *cap : 64;
    if (grown < need)
        grown = need;
    /* a huge file fails here with "too big" instead of in the kernel's OOM killer */
    int rc = moore_memory_guard((double)grown * (double)elem, r->name, err);
    if (rc)
        return rc;
    void *p = realloc(*array, (size_t)grown * elem);
    if (!p)
        return moore_error_set(err, MOORE_ENOMEM, "out of memory reading %s", r->name);
    *array = p;
    *cap = grown;
    return MOORE_OK;
}

int io_push_link(io_reader *r, int64_t u, int64_t v, moore_error *err)
{
    int rc = io_reserve(r, (void **)&r->links, &r->cap, r->n_links + 1, sizeof *r->links, err);
    if (rc)
        return rc;
    r->links[r->n_links++] = (io_link){ (int32_t)u, (int32_t)v, r->line };
    return MOORE_OK;
}

static int cmp_link(const void *a, const void *b)
{
    const io_link *x = a, *y = b;
    if (x->u != y->u)
        return x->u < y->u ? -1 : 1;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

void io_sort_links(io_link *links, int64_t n)
{
    if (n > 1) /* links may be NULL when there are none: qsort(NULL, 0) is UB */
        qsort(links, (size_t)n, sizeof *links, cmp_link);
}

int io_check_range(io_reader *r, const io_link *links, int64_t count, int64_t n,
                   const char *rule, moore_error *err)
{
    int64_t bad = -1;
    for (int64_t i = 0; i < count; i++)
        if ((links[i].u >= n || links[i].v >= n) && (bad < 0 || links[i].line < links[bad].line))
            bad = i;
    if (bad < 0)
        return MOORE_OK;
    r->line = links[bad].line;
    return io_fail(r, err, "switch id %d is out of range: %s",
                   (int)(links[bad].u >= n ? links[bad].u : links[bad].v), rule);
}

int io_check_declared(io_reader *r, int64_t n, int64_t links, int64_t line, moore_error *err)
{
    if (n <= 2 * links + IO_MAX_ISOLATED)
        return MOORE_OK;
    r->line = line;
    return io_fail(r, err, "%lld switches declared for %lld links: a file may declare at most "
                           "2 x links + %d switches (the rest would have no link)",
                   (long long)n, (long long)links, IO_MAX_ISOLATED);
}

int io_header_endpoints(io_reader *r, int64_t n, int32_t **out, moore_error *err)
{
    *out = NULL;
    if (!r->endpoints_len)
        return MOORE_OK;
    if (r->endpoints_len != 1 && r->endpoints_len != n) {
        r->line = r->endpoints_line;
        return io_fail(r, err, "'# endpoints:' lists %lld counts for %lld switches "
                               "(give one value or one per switch)",
                       (long long)r->endpoints_len, (long long)n);
    }
    int32_t *p = moore_malloc((size_t)n, sizeof *p, err);
    if (!p)
        return core_alloc_code(err);
    for (int64_t v = 0; v < n; v++)
        p[v] = r->endpoints[r->endpoints_len == 1 ? 0 : v];
    *out = p;
    return MOORE_OK;
}

int io_build(io_reader *r, int64_t n, const io_link *links, int64_t m,
             const int32_t *endpoints, moore_graph **out, moore_error *err)
{
    moore_builder *b = NULL;
    moore_graph *g = NULL;
    int rc = moore_builder_new((int32_t)n, m, &b, err);
    for (int64_t i = 0; !rc && i < m; i++)
        rc = moore_builder_add_link(b, links[i].u, links[i].v, err);
    if (!rc) {
        rc = moore_builder_finish(b, &g, err);
        b = NULL; /* finish frees it */
    }
    if (!rc)
        rc = endpoints ? moore_graph_set_endpoints(g, endpoints, err)
                       : moore_graph_set_endpoints_uniform(g, 1, err);
    if (!rc && (r->family || r->params))
        rc = moore_graph_set_origin(g, r->family, r->params, err);
    if (!rc) {
        *out = g;
        g = NULL;
    }
    moore_graph_free(g);
    moore_builder_free(b);
    return rc;
}

/* ---- moore's '#' header ---- */

static int header_value(io_reader *r, const char *key, const char *s, char **out,
                        moore_error *err)
{
    char snip[40];
    if (*out)
        return io_fail(r, err, "'%s' given twice", key);
    s = io_skip_blank(s);
    size_t n = strcspn(s, "\r\n");
    while (n && io_blank(s[n - 1]))
        n--;
    if (n == 0)
        return io_fail(r, err, "empty value in the header");
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 32 || (unsigned char)s[i] == 127)
            return io_fail(r, err, "control character in header value '%s'",
                           io_snippet(snip, sizeof snip, s));
    char *d = moore_malloc(n + 1, 1, err);
    if (!d)
        return core_alloc_code(err);
    memcpy(d, s, n);
    d[n] = '\0';
    *out = d;
    return MOORE_OK;
}

int io_parse_count(io_reader *r, const char *key, const char *s, int64_t max, int64_t *value,
                   int64_t *line, moore_error *err)
{
    char snip[40], what[40];
    if (*line)
        return io_fail(r, err, "'%s' given twice (first on line %lld)", key, (long long)*line);
    snprintf(what, sizeof what, "'%s' value", key);
    int rc = io_parse_uint(r, &s, max, what, value, err);
    if (rc)
        return rc;
    if (!io_rest_blank(s))
        return io_fail(r, err, "unexpected text after '%s': '%s'", key,
                       io_snippet(snip, sizeof snip, io_skip_blank(s)));
    *line = r->line;
    return MOORE_OK;
}

static int header_endpoints(io_reader *r, const char *s, moore_error *err)
{
    if (r->endpoints_line)
        return io_fail(r, err, "'# endpoints:' given twice (first on line %lld)",
                       (long long)r->endpoints_line);
    r->endpoints_line = r->line;
    int64_t cap = 0;
    for (;;) {
        s = io_skip_blank(s);
        if (io_eol(*s))
            break;
        int64_t v;
        int rc = io_parse_uint(r, &s, IO_MAX_ENDPOINTS, "endpoint count", &v, err);
        if (rc)
            return rc;
        if (!io_blank(*s) && !io_eol(*s)) {
            char snip[24];
            return io_fail(r, err, "expected an endpoint count, found '%s'",
                           io_snippet(snip, sizeof snip, s));
        }
        if ((rc = io_reserve(r, (void **)&r->endpoints, &cap, r->endpoints_len + 1,
                             sizeof *r->endpoints, err)))
            return rc;
        r->endpoints[r->endpoints_len++] = (int32_t)v;
    }
    if (r->endpoints_len == 0)
        return io_fail(r, err, "'# endpoints:' lists no counts");
    return MOORE_OK;
}

static int comment(io_reader *r, const char *s, moore_error *err)
{
    s = io_skip_blank(s + 1);
    if (r->line == 1 && strncmp(s, "moore topology", 14) == 0 && io_rest_blank(s + 14)) {
        r->moore_header = 1;
        return MOORE_OK;
    }
    if (!r->moore_header)
        return MOORE_OK;
    if (strncmp(s, "family:", 7) == 0)
        return header_value(r, "# family:", s + 7, &r->family, err);
    if (strncmp(s, "params:", 7) == 0)
        return header_value(r, "# params:", s + 7, &r->params, err);
    if (strncmp(s, "switches:", 9) == 0)
        return io_parse_count(r, "# switches:", s + 9, MOORE_MAX_SWITCHES, &r->hdr_switches,
                              &r->hdr_switches_line, err);
    if (strncmp(s, "links:", 6) == 0)
        return io_parse_count(r, "# links:", s + 6, (int64_t)1 << 50, &r->hdr_links,
                              &r->hdr_links_line, err);
    if (strncmp(s, "endpoints:", 10) == 0)
        return header_endpoints(r, s + 10, err);
    return MOORE_OK; /* any other comment */
}

/* ---- the driver ---- */

static const char *kind_name(io_kind k)
{
    switch (k) {
    case IO_KIND_NETBENCH: return "a netbench file";
    case IO_KIND_ANYNET: return "a BookSim2 anynet file";
    default: return "an edge list";
    }
}

/* Hands one line to the parser of its kind, deciding the file's kind on the
 * first line that has one. */
static int dispatch_line(io_reader *r, const char *s, moore_error *err)
{
    char snip[40];
    s = io_skip_blank(s);
    if (io_eol(*s))
        return MOORE_OK;
    if (*s == '#')
        return comment(r, s, err);
    if (isdigit((unsigned char)*s) || *s == '-' || *s == '+') {
        switch (r->kind) {
        case IO_KIND_NONE:
            r->kind = IO_KIND_EDGELIST;
            /* fall through */
        case IO_KIND_EDGELIST:
            return io_edgelist_line(r, s, err);
        case IO_KIND_NETBENCH:
            return io_netbench_link(r, s, err);
        case IO_KIND_ANYNET:
            break;
        }
        return io_fail(r, err, "expected 'router R ...' in %s, found '%s'", kind_name(r->kind),
                       io_snippet(snip, sizeof snip, s));
    }
    if (io_netbench_is_header(s)) {
        if (r->kind == IO_KIND_NONE)
            r->kind = IO_KIND_NETBENCH;
        if (r->kind != IO_KIND_NETBENCH)
            return io_fail(r, err, "netbench header '%s' in %s (headers come before the links)",
                           io_snippet(snip, sizeof snip, s), kind_name(r->kind));
        return io_netbench_header(r, s, err);
    }
    if (io_anynet_is_line(s)) {
        if (r->kind == IO_KIND_NONE)
            r->kind = IO_KIND_ANYNET;
        if (r->kind != IO_KIND_ANYNET)
            return io_fail(r, err, "BookSim2 line '%s' in %s", io_snippet(snip, sizeof snip, s),
                           kind_name(r->kind));
        return io_anynet_line(r, s, err);
    }
    return io_fail(r, err, "expected 'u v' (two switch ids), found '%s'",
                   io_snippet(snip, sizeof snip, s));
}

/* Text only: a NUL byte, or more than a few control characters, is binary. */
static int looks_binary(const char *buf, size_t len)
{
    size_t ctrl = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == 0)
            return 1;
        if ((c < 32 && c != '\n' && c != '\r' && c != '\t') || c == 127)
            ctrl++;
    }
    return ctrl > len / 100 + 1;
}

static void reader_clear(io_reader *r)
{
    free(r->endpoints);
    free(r->family);
    free(r->params);
    free(r->links);
    free(r->terms);
    free(r->routers);
    free(r->nb_tors.ranges);
    free(r->nb_servers.ranges);
    free(r->nb_switches.ranges);
}

/* CRLF ends a line as LF does (the CR is dropped, as is a CR that ends the
 * file); a CR anywhere else would hide the rest of the line from the parsers
 * (a file with CR-only line ends would read as its first link), so it is
 * refused. */
static int strip_cr(io_reader *r, char *buf, int64_t *n, moore_error *err)
{
    char *cr = memchr(buf, '\r', (size_t)*n);
    if (!cr)
        return MOORE_OK;
    int64_t at = cr - buf;
    if (at == *n - 1 || (at == *n - 2 && buf[*n - 1] == '\n')) {
        buf[at] = buf[*n - 1] == '\n' ? '\n' : '\0';
        buf[at + 1] = '\0';
        (*n)--;
        return MOORE_OK;
    }
    r->line++;
    return io_fail(r, err, "a CR inside a line (CR-only line ends? moore reads LF or CRLF, "
                           "docs/formats.md)");
}

/* Reads one line (up to and including '\n') into *buf, growing it up to
 * IO_MAX_LINE bytes; *len is 0 at the end of the file. A NUL byte ends the
 * line early, so binary data (a sparse file) is refused at its first NUL.
 * Unlike getline it never grows without bound and tells an allocation
 * failure (MOORE_ENOMEM) from the end of the file. */
static int read_line(io_reader *r, FILE *in, char **buf, int64_t *cap, int64_t *len,
                     moore_error *err)
{
    int64_t n = 0;
    int c;
    while ((c = getc_unlocked(in)) != EOF) {
        if (n + 2 > *cap) {
            if (n + 2 > IO_MAX_LINE) {
                r->line++;
                return io_fail(r, err, "line longer than %lld MiB (a file without newlines? "
                                       "docs/formats.md)", (long long)(IO_MAX_LINE >> 20));
            }
            int64_t grown = *cap ? 2 * *cap : 4096;
            if (grown > IO_MAX_LINE)
                grown = IO_MAX_LINE;
            char *p = realloc(*buf, (size_t)grown);
            if (!p)
                return moore_error_set(err, MOORE_ENOMEM, "%s: out of memory reading line %lld",
                                       r->name, (long long)r->line + 1);
            *buf = p;
            *cap = grown;
        }
        (*buf)[n++] = (char)c;
        if (c == '\n' || c == '\0')
            break;
    }
    if (ferror(in))
        return moore_error_set(err, MOORE_EIO, "%s: read error: %s", r->name, strerror(errno));
    if (*buf)
        (*buf)[n] = '\0';
    *len = n;
    return *buf ? strip_cr(r, *buf, len, err) : MOORE_OK;
}

int moore_graph_read_stream(FILE *in, const char *name, moore_graph **out, moore_error *err)
{
    io_reader r;
    memset(&r, 0, sizeof r);
    r.name = name;
    r.hdr_switches = r.hdr_links = r.nb_v = r.nb_e = -1;
    *out = NULL;
    char *buf = NULL;
    moore_graph *g = NULL;
    int64_t cap = 0, len = 0;
    int rc = MOORE_OK, any = 0;
    while (!rc && !(rc = read_line(&r, in, &buf, &cap, &len, err)) && len > 0) {
        const char *s = buf;
        r.line++;
        if (r.line == 1 && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) { /* UTF-8 BOM */
            s += 3;
            len -= 3;
        }
        any |= len > 0;
        if (looks_binary(s, (size_t)len))
            rc = io_fail(&r, err, "binary data, not a text topology");
        else
            rc = dispatch_line(&r, s, err);
    }
    free(buf);
    if (!rc && !any)
        rc = moore_error_set(err, MOORE_EINVAL, "%s: empty file, not a topology", name);
    if (!rc) {
        switch (r.kind) {
        case IO_KIND_NETBENCH: rc = io_netbench_finish(&r, &g, err); break;
        case IO_KIND_ANYNET: rc = io_anynet_finish(&r, &g, err); break;
        default: rc = io_edgelist_finish(&r, &g, err); break;
        }
    }
    if (!rc) /* the provenance (moore/origin.h): what was read, in which format */
        rc = moore_graph_set_file(g, name, r.kind == IO_KIND_NETBENCH ? "netbench"
                                           : r.kind == IO_KIND_ANYNET ? "anynet"
                                                                      : "edgelist", err);
    if (!rc) {
        *out = g;
        g = NULL;
    }
    moore_graph_free(g);
    reader_clear(&r);
    return rc;
}

int moore_graph_read(const char *path, moore_graph **out, moore_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return moore_error_set(err, MOORE_EIO, "cannot open '%s': %s", path, strerror(errno));
    int rc = moore_graph_read_stream(f, path, out, err);
    fclose(f);
    return rc;
}

/* ---- what the writers share ---- */

int io_check_simulable(const moore_graph *g, const char *format, int every_switch,
                       moore_error *err)
{
    if (moore_graph_endpoints_total(g) == 0)
        return moore_error_set(err, MOORE_EINVAL, "%s: the topology has no endpoints (p=0), so "
                               "a simulation would have no traffic; give p= or radix=", format);
    int32_t comps = 0, *comp = moore_malloc((size_t)g->n, sizeof *comp, err);
    if (!comp)
        return core_alloc_code(err);
    int rc = moore_components(g, comp, &comps, err);
    int32_t first = -1, apart = -1; /* a switch that is cut off from `first` */
    for (int32_t v = 0; !rc && v < g->n && apart < 0; v++) {
        if (!every_switch && g->endpoints[v] == 0)
            continue;
        if (first < 0)
            first = v;
        else if (comp[v] != comp[first])
            apart = v;
    }
    free(comp);
    if (!rc && apart >= 0)
        rc = moore_error_set(err, MOORE_EINVAL, "%s: the topology is disconnected (%d "
                             "components; no route from switch %d to %d), and a simulation "
                             "needs a route between every pair", format, (int)comps,
                             (int)first, (int)apart);
    return rc;
}

/* "# key: value" with control characters made '?', so a value can never
 * break the header into lines the reader would take for links. */
static void header_line(FILE *out, const char *key, const char *value)
{
    fprintf(out, "# %s: ", key);
    for (const char *p = value; *p; p++)
        fputc((unsigned char)*p < 32 || *p == 127 ? '?' : *p, out);
    fputc('\n', out);
}

void io_write_header(const moore_graph *g, FILE *out)
{
    fprintf(out, "# moore topology\n");
    if (g->family && *g->family)
        header_line(out, "family", g->family);
    if (g->params && *g->params)
        header_line(out, "params", g->params);
    fprintf(out, "# switches: %d\n# links: %lld\n", (int)g->n, (long long)g->m);
    if (g->n == 0)
        return;
    int uniform = 1;
    for (int32_t v = 1; v < g->n; v++)
        uniform &= g->endpoints[v] == g->endpoints[0];
    fprintf(out, "# endpoints:");
    for (int32_t v = 0; v < (uniform ? 1 : g->n); v++)
        fprintf(out, " %d", (int)g->endpoints[v]);
    fputc('\n', out);
}
