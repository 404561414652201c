/* edgelist.c — moore's native edge list, plain "u v" files, and netbench
 * ".topology" files.
 *
 * The reader is strict because a silently misread topology produces wrong
 * numbers far downstream: every refusal names the file, the line and the rule.
 * Formats are told apart by content, not by extension: a "|V|=" line marks
 * netbench (whose links appear once per direction and are merged); anything
 * else is an edge list, where a repeated link is an error. networkx's default
 * `write_edgelist` adds a "{…}" data column, and weighted lists add a number;
 * both third columns are accepted and ignored. */
#include "moore/io.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int moore_write_edgelist(const moore_graph *g, FILE *out, moore_error *err)
{
    fprintf(out, "# moore topology\n");
    if (g->family)
        fprintf(out, "# family: %s\n", g->family);
    if (g->params && *g->params)
        fprintf(out, "# params: %s\n", g->params);
    fprintf(out, "# switches: %d\n# links: %lld\n", (int)g->n, (long long)g->m);
    int uniform = 1;
    for (int32_t v = 1; v < g->n; v++)
        uniform &= g->endpoints[v] == g->endpoints[0];
    fprintf(out, "# endpoints:");
    if (uniform && g->n > 0)
        fprintf(out, " %d", (int)g->endpoints[0]);
    else
        for (int32_t v = 0; v < g->n; v++)
            fprintf(out, " %d", (int)g->endpoints[v]);
    fputc('\n', out);
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            if (g->adj[k] > u)
                fprintf(out, "%d %d\n", (int)u, (int)g->adj[k]);
    return ferror(out) ? moore_error_set(err, MOORE_EIO, "write failed") : MOORE_OK;
}

/* ---- reading ---- */

typedef struct reader {
    const char *name;
    long line;
    int netbench;
    int64_t declared_n;     /* from "# switches:" or "|V|=", -1 if absent */
    int32_t *endpoints;     /* from "# endpoints:", or NULL */
    int64_t endpoints_len;
    int64_t n_links, cap;
    int64_t *u, *v;         /* as read (netbench: both directions) */
    char family[64], params[256];
} reader;

static int fail(reader *r, moore_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(reader *r, moore_error *err, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return moore_error_set(err, MOORE_EINVAL, "%s:%ld: %s", r->name, r->line, what);
}

/* Parses a non-negative id; refuses signs, junk and ids beyond the limit. */
static int parse_id(reader *r, const char **s, int64_t *out, moore_error *err)
{
    while (**s == ' ' || **s == '\t')
        (*s)++;
    const char *start = *s;
    if (*start == '-')
        return fail(r, err, "negative switch id '%.20s'", start);
    if (!isdigit((unsigned char)*start))
        return fail(r, err, "expected a switch id, found '%.20s'", start);
    int64_t v = 0;
    while (isdigit((unsigned char)**s)) {
        v = v * 10 + (**s - '0');
        if (v >= MOORE_MAX_SWITCHES)
            return fail(r, err, "switch id '%.20s' exceeds the limit of %d switches", start, MOORE_MAX_SWITCHES);
        (*s)++;
    }
    *out = v;
    return MOORE_OK;
}

static int push_link(reader *r, int64_t u, int64_t v, moore_error *err)
{
    if (r->n_links == r->cap) {
        int64_t cap = r->cap ? 2 * r->cap : 1024;
        int64_t *nu = realloc(r->u, (size_t)cap * sizeof *nu);
        if (!nu)
            return moore_error_set(err, MOORE_ENOMEM, "out of memory reading %s", r->name);
        r->u = nu;
        int64_t *nv = realloc(r->v, (size_t)cap * sizeof *nv);
        if (!nv)
            return moore_error_set(err, MOORE_ENOMEM, "out of memory reading %s", r->name);
        r->v = nv;
        r->cap = cap;
    }
    r->u[r->n_links] = u;
    r->v[r->n_links] = v;
    r->n_links++;
    return MOORE_OK;
}

static int parse_endpoints(reader *r, const char *s, moore_error *err)
{
    int64_t cap = 16;
    r->endpoints = malloc((size_t)cap * sizeof *r->endpoints);
    if (!r->endpoints)
        return moore_error_set(err, MOORE_ENOMEM, "out of memory");
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0' || *s == '\n' || *s == '\r')
            break;
        int64_t v;
        int rc = parse_id(r, &s, &v, err);
        if (rc)
            return rc;
        if (r->endpoints_len == cap) {
            cap *= 2;
            int32_t *p = realloc(r->endpoints, (size_t)cap * sizeof *p);
            if (!p)
                return moore_error_set(err, MOORE_ENOMEM, "out of memory");
            r->endpoints = p;
        }
        r->endpoints[r->endpoints_len++] = (int32_t)v;
    }
    if (r->endpoints_len == 0)
        return fail(r, err, "'# endpoints:' lists no counts");
    return MOORE_OK;
}

static void copy_value(char *dst, size_t len, const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strcspn(s, "\r\n");
    if (n >= len)
        n = len - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

static int parse_comment(reader *r, const char *s, moore_error *err)
{
    s++; /* '#' */
    while (*s == ' ')
        s++;
    if (strncmp(s, "switches:", 9) == 0) {
        const char *t = s + 9;
        int64_t n;
        int rc = parse_id(r, &t, &n, err);
        if (rc)
            return rc;
        r->declared_n = n;
    } else if (strncmp(s, "endpoints:", 10) == 0) {
        return parse_endpoints(r, s + 10, err);
    } else if (strncmp(s, "family:", 7) == 0) {
        copy_value(r->family, sizeof r->family, s + 7);
    } else if (strncmp(s, "params:", 7) == 0) {
        copy_value(r->params, sizeof r->params, s + 7);
    }
    return MOORE_OK;
}

static int parse_netbench_header(reader *r, const char *s, moore_error *err)
{
    if (strncmp(s, "|V|=", 4) == 0) {
        const char *t = s + 4;
        int64_t n;
        int rc = parse_id(r, &t, &n, err);
        if (rc)
            return rc;
        r->declared_n = n;
        r->netbench = 1;
    }
    /* |E|, ToRs=, Servers=, Switches= carry nothing moore needs: every switch
     * of an Xpander/Jellyfish netbench file is a ToR with servers. */
    return MOORE_OK;
}

static int parse_line(reader *r, const char *s, moore_error *err)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '\0' || *s == '\n' || *s == '\r')
        return MOORE_OK;
    if (*s == '#')
        return parse_comment(r, s, err);
    if (*s == '|' || isalpha((unsigned char)*s)) {
        if (strncmp(s, "|V|=", 4) == 0 || strncmp(s, "|E|=", 4) == 0 || strncmp(s, "ToRs=", 5) == 0
            || strncmp(s, "Servers=", 8) == 0 || strncmp(s, "Switches=", 9) == 0)
            return parse_netbench_header(r, s, err);
        return fail(r, err, "expected 'u v', found '%.30s'", s);
    }
    int64_t u, v;
    int rc = parse_id(r, &s, &u, err);
    if (!rc && *s != ' ' && *s != '\t')
        return fail(r, err, "expected 'u v', found '%.30s'", s);
    if (!rc)
        rc = parse_id(r, &s, &v, err);
    if (rc)
        return rc;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '{') {
        s += strcspn(s, "}");
        if (*s == '}')
            s++;
    } else if (*s && *s != '\n' && *s != '\r' && *s != '#') {
        char *end;
        strtod(s, &end);
        if (end == s)
            return fail(r, err, "unexpected text after the link: '%.30s'", s);
        s = end;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s && *s != '\n' && *s != '\r' && *s != '#')
        return fail(r, err, "unexpected text after the link: '%.30s'", s);
    if (u == v)
        return fail(r, err, "link %lld-%lld is a self-loop", (long long)u, (long long)v);
    return push_link(r, u, v, err);
}

/* Text files only: a NUL byte or many control characters means binary input. */
static int looks_binary(const char *buf, size_t len)
{
    size_t ctrl = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == 0)
            return 1;
        if (c < 32 && c != '\n' && c != '\r' && c != '\t')
            ctrl++;
    }
    return ctrl > len / 100 + 1;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* netbench lists each cable as u->v and v->u: keep one copy of each pair. */
static int merge_directions(reader *r, moore_error *err)
{
    int64_t *key = malloc((size_t)(r->n_links ? r->n_links : 1) * sizeof *key);
    if (!key)
        return moore_error_set(err, MOORE_ENOMEM, "out of memory reading %s", r->name);
    for (int64_t i = 0; i < r->n_links; i++) {
        int64_t a = r->u[i] < r->v[i] ? r->u[i] : r->v[i];
        int64_t b = r->u[i] < r->v[i] ? r->v[i] : r->u[i];
        key[i] = (a << 32) | b;
    }
    qsort(key, (size_t)r->n_links, sizeof *key, cmp_i64);
    int64_t m = 0;
    for (int64_t i = 0; i < r->n_links; i++)
        if (m == 0 || key[i] != key[m - 1])
            key[m++] = key[i];
    for (int64_t i = 0; i < m; i++) {
        r->u[i] = key[i] >> 32;
        r->v[i] = key[i] & 0xffffffff;
    }
    r->n_links = m;
    free(key);
    return MOORE_OK;
}

static int assemble(reader *r, moore_graph **out, moore_error *err)
{
    int64_t n = r->declared_n;
    int64_t max_id = -1;
    for (int64_t i = 0; i < r->n_links; i++) {
        if (r->u[i] > max_id)
            max_id = r->u[i];
        if (r->v[i] > max_id)
            max_id = r->v[i];
    }
    if (n < 0)
        n = max_id + 1;
    else if (max_id >= n)
        return moore_error_set(err, MOORE_EINVAL, "%s: switch id %lld is out of range for %lld switches",
                               r->name, (long long)max_id, (long long)n);
    if (n == 0)
        return moore_error_set(err, MOORE_EINVAL, "%s: no switches and no links (empty topology)",
                               r->name);
    if (r->netbench) {
        int rc = merge_directions(r, err);
        if (rc)
            return rc;
    }
    moore_builder *b;
    int rc = moore_builder_new((int32_t)n, r->n_links, &b, err);
    for (int64_t i = 0; !rc && i < r->n_links; i++)
        rc = moore_builder_add_link(b, (int32_t)r->u[i], (int32_t)r->v[i], err);
    if (rc) {
        moore_builder_free(b);
        return rc;
    }
    moore_graph *g;
    rc = moore_builder_finish(b, &g, err);
    if (rc) {
        char msg[MOORE_ERRMSG_LEN];
        snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
        return moore_error_set(err, rc, "%s: %s", r->name, msg);
    }
    if (r->endpoints_len == 1)
        rc = moore_graph_set_endpoints_uniform(g, r->endpoints[0], err);
    else if (r->endpoints_len == n)
        rc = moore_graph_set_endpoints(g, r->endpoints, err);
    else if (r->endpoints_len)
        rc = moore_error_set(err, MOORE_EINVAL, "%s: '# endpoints:' lists %lld counts for %lld switches",
                             r->name, (long long)r->endpoints_len, (long long)n);
    else
        rc = moore_graph_set_endpoints_uniform(g, 1, err); /* SPEC: 1 per switch by default */
    if (!rc && (r->family[0] || r->params[0]))
        rc = moore_graph_set_origin(g, r->family[0] ? r->family : NULL,
                                    r->params[0] ? r->params : NULL, err);
    if (rc) {
        moore_graph_free(g);
        return rc;
    }
    *out = g;
    return MOORE_OK;
}

int moore_graph_read_stream(FILE *in, const char *name, moore_graph **out, moore_error *err)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.name = name;
    r.declared_n = -1;
    *out = NULL;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = MOORE_OK, any = 0;
    while (!rc && (len = getline(&line, &cap, in)) >= 0) {
        r.line++;
        any = 1;
        if (looks_binary(line, (size_t)len))
            rc = fail(&r, err, "binary data, not a text topology");
        else
            rc = parse_line(&r, line, err);
    }
    free(line);
    if (!rc && ferror(in))
        rc = moore_error_set(err, MOORE_EIO, "%s: read error", name);
    if (!rc && !any)
        rc = moore_error_set(err, MOORE_EINVAL, "%s: empty file", name);
    if (!rc)
        rc = assemble(&r, out, err);
    free(r.u);
    free(r.v);
    free(r.endpoints);
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
