/* netbench.c — netbench ".topology" files (ndal-eth/netbench), written and read.
 *
 * The format: a header "|V|=N", "|E|=E" where E counts every cable twice,
 * "ToRs=", "Servers=", "Switches=" as "set()", "set(a,b,...)" or
 * "incl_range(a,b)", then one directed link "u v" per line, each cable in
 * both directions; '#' lines are comments. netbench's Xpander and Jellyfish
 * files make every switch a ToR and put the servers at the ToRs
 * (Servers = ToRs); moore writes the same: ToRs and Servers are the switches
 * with endpoints, Switches those without. The server count per ToR is not part
 * of the format (netbench sets it in its run properties), so moore also writes
 * its own '#' header, which netbench skips and moore reads back.
 *
 * Reading checks what the format promises: |E| equals the directed lines,
 * every "u v" has its "v u", no directed line repeats, ids are below |V|.
 * Files that list servers as nodes of their own (Servers not a subset of ToRs)
 * are refused rather than read as if servers were switches. */
#include "core/alloc.h"
#include "io/reader.h"
#include "moore/io.h"

#include <stdlib.h>
#include <string.h>

/* ---- writing ---- */

/* Members are the switches with (want = 1) or without (want = 0) endpoints. */
static void write_set(FILE *out, const char *key, const moore_graph *g, int want)
{
    int32_t first = -1, last = -1, count = 0;
    for (int32_t v = 0; v < g->n; v++)
        if ((g->endpoints[v] > 0) == want) {
            if (first < 0)
                first = v;
            last = v;
            count++;
        }
    fprintf(out, "%s=", key);
    if (count == 0) {
        fprintf(out, "set()\n");
    } else if (count == last - first + 1) {
        fprintf(out, "incl_range(%d,%d)\n", (int)first, (int)last);
    } else {
        const char *sep = "";
        fprintf(out, "set(");
        for (int32_t v = 0; v < g->n; v++)
            if ((g->endpoints[v] > 0) == want) {
                fprintf(out, "%s%d", sep, (int)v);
                sep = ",";
            }
        fprintf(out, ")\n");
    }
}

int moore_write_netbench(const moore_graph *g, FILE *out, moore_error *err)
{
    int rc = io_check_simulable(g, "netbench", 0, err);
    if (rc)
        return rc;
    io_write_header(g, out);
    fprintf(out, "\n# Details\n|V|=%d\n|E|=%lld\n", (int)g->n, (long long)(2 * g->m));
    write_set(out, "ToRs", g, 1);
    write_set(out, "Servers", g, 1);
    write_set(out, "Switches", g, 0);
    fprintf(out, "\n# Links\n");
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            fprintf(out, "%d %d\n", (int)u, (int)g->adj[k]);
    return ferror(out) ? moore_error_set(err, MOORE_EIO, "netbench: write failed") : MOORE_OK;
}

/* ---- reading ---- */

static const char *const SET_KEYS[] = { "ToRs=", "Servers=", "Switches=" };

int io_netbench_is_header(const char *s)
{
    if (strncmp(s, "|V|=", 4) == 0 || strncmp(s, "|E|=", 4) == 0)
        return 1;
    for (int i = 0; i < 3; i++)
        if (strncmp(s, SET_KEYS[i], strlen(SET_KEYS[i])) == 0)
            return 1;
    return 0;
}

static int set_add(io_reader *r, io_idset *set, int64_t lo, int64_t hi, moore_error *err)
{
    int rc = io_reserve(r, (void **)&set->ranges, &set->cap, set->count + 1,
                        sizeof *set->ranges, err);
    if (!rc)
        set->ranges[set->count++] = (io_range){ lo, hi };
    return rc;
}

/* "set()", "set(a, b, ...)" or "incl_range(a, b)". */
static int parse_set(io_reader *r, const char *key, const char *s, io_idset *set,
                     moore_error *err)
{
    char snip[40];
    int rc;
    if (set->line)
        return io_fail(r, err, "'%s' given twice (first on line %lld)", key,
                       (long long)set->line);
    set->line = r->line;
    s = io_skip_blank(s);
    if (strncmp(s, "incl_range(", 11) == 0) {
        int64_t a, b;
        s += 11;
        if ((rc = io_parse_id(r, &s, &a, err)))
            return rc;
        s = io_skip_blank(s);
        if (*s++ != ',')
            return io_fail(r, err, "expected 'incl_range(a,b)' after '%s'", key);
        if ((rc = io_parse_id(r, &s, &b, err)))
            return rc;
        s = io_skip_blank(s);
        if (*s++ != ')')
            return io_fail(r, err, "expected ')' closing 'incl_range(' after '%s'", key);
        if (a > b)
            return io_fail(r, err, "%sincl_range(%lld,%lld) is empty (write 'set()')", key,
                           (long long)a, (long long)b);
        if ((rc = set_add(r, set, a, b, err)))
            return rc;
    } else if (strncmp(s, "set(", 4) == 0) {
        s = io_skip_blank(s + 4);
        if (*s == ')') {
            s++;
        } else {
            for (;;) {
                int64_t a;
                if ((rc = io_parse_id(r, &s, &a, err)) || (rc = set_add(r, set, a, a, err)))
                    return rc;
                s = io_skip_blank(s);
                if (*s == ')') {
                    s++;
                    break;
                }
                if (*s++ != ',')
                    return io_fail(r, err, "expected ',' or ')' in '%s'", key);
            }
        }
    } else {
        return io_fail(r, err, "'%s' must be set(...) or incl_range(a,b), found '%s'", key,
                       io_snippet(snip, sizeof snip, s));
    }
    if (!io_rest_blank(s))
        return io_fail(r, err, "unexpected text after '%s...': '%s'", key,
                       io_snippet(snip, sizeof snip, io_skip_blank(s)));
    return MOORE_OK;
}

int io_netbench_header(io_reader *r, const char *s, moore_error *err)
{
    if (r->n_links)
        return io_fail(r, err, "netbench header line after the links");
    if (strncmp(s, "|V|=", 4) == 0)
        return io_parse_count(r, "|V|=", s + 4, MOORE_MAX_SWITCHES, &r->nb_v, &r->nb_v_line, err);
    if (strncmp(s, "|E|=", 4) == 0)
        return io_parse_count(r, "|E|=", s + 4, (int64_t)1 << 50, &r->nb_e, &r->nb_e_line, err);
    io_idset *sets[3] = { &r->nb_tors, &r->nb_servers, &r->nb_switches };
    for (int i = 0; i < 3; i++)
        if (strncmp(s, SET_KEYS[i], strlen(SET_KEYS[i])) == 0)
            return parse_set(r, SET_KEYS[i], s + strlen(SET_KEYS[i]), sets[i], err);
    return MOORE_OK; /* not reached: io_netbench_is_header() said it is one */
}

int io_netbench_link(io_reader *r, const char *s, moore_error *err)
{
    char snip[40];
    int64_t u, v;
    int rc = io_parse_id(r, &s, &u, err);
    if (rc)
        return rc;
    if (!io_blank(*s))
        return io_fail(r, err, "expected a link 'u v', found '%s'",
                       io_snippet(snip, sizeof snip, s));
    if ((rc = io_parse_id(r, &s, &v, err)))
        return rc;
    if (!io_rest_blank(s))
        return io_fail(r, err, "unexpected text after the link: '%s'",
                       io_snippet(snip, sizeof snip, io_skip_blank(s)));
    if (u == v)
        return io_fail(r, err, "link %lld %lld is a self-loop", (long long)u, (long long)v);
    return io_push_link(r, u, v, err);
}

/* Marks the members of set in mark[] (ids already checked < n) with bit. */
static void set_mark(const io_idset *set, unsigned char *mark, unsigned char bit)
{
    for (int64_t i = 0; i < set->count; i++)
        for (int64_t v = set->ranges[i].lo; v <= set->ranges[i].hi; v++)
            mark[v] |= bit;
}

static int set_check_range(io_reader *r, const char *key, const io_idset *set, int64_t n,
                           moore_error *err)
{
    for (int64_t i = 0; i < set->count; i++)
        if (set->ranges[i].hi >= n) {
            r->line = set->line;
            return io_fail(r, err, "'%s' names node %lld but |V|=%lld", key,
                           (long long)set->ranges[i].hi, (long long)n);
        }
    return MOORE_OK;
}

/* Endpoints from the sets: one per server (servers sit at their ToRs). */
static int set_endpoints(io_reader *r, int64_t n, int32_t **out, moore_error *err)
{
    const io_idset *sets[3] = { &r->nb_tors, &r->nb_servers, &r->nb_switches };
    enum { TOR = 1, SERVER = 2, SWITCH = 4 };
    *out = NULL;
    for (int i = 0; i < 3; i++) {
        int rc = set_check_range(r, SET_KEYS[i], sets[i], n, err);
        if (rc)
            return rc;
    }
    if (!r->nb_tors.line && !r->nb_servers.line)
        return MOORE_OK;
    unsigned char *mark = moore_calloc((size_t)n, 1, err);
    if (!mark)
        return core_alloc_code(err);
    set_mark(&r->nb_tors, mark, TOR);
    set_mark(&r->nb_servers, mark, SERVER);
    set_mark(&r->nb_switches, mark, SWITCH);
    int rc = MOORE_OK;
    for (int64_t v = 0; v < n && !rc; v++) {
        if ((mark[v] & TOR) && (mark[v] & SWITCH)) {
            r->line = r->nb_switches.line;
            rc = io_fail(r, err, "node %lld is in both ToRs and Switches", (long long)v);
        } else if (r->nb_tors.line && (mark[v] & SERVER) && !(mark[v] & TOR)) {
            r->line = r->nb_servers.line;
            rc = io_fail(r, err, "server %lld is not a ToR: moore reads switch-level netbench "
                                 "files (servers at their ToRs), not servers as nodes",
                         (long long)v);
        }
    }
    int32_t *ep = rc ? NULL : moore_malloc((size_t)n, sizeof *ep, err);
    if (!rc && !ep)
        rc = core_alloc_code(err);
    unsigned char bit = r->nb_servers.line ? SERVER : TOR;
    for (int64_t v = 0; !rc && v < n; v++)
        ep[v] = (mark[v] & bit) ? 1 : 0;
    free(mark);
    *out = ep;
    return rc;
}

static int find_link(const io_link *links, int64_t n, int32_t u, int32_t v)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (links[mid].u < u || (links[mid].u == u && links[mid].v < v))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && links[lo].u == u && links[lo].v == v;
}

int io_netbench_finish(io_reader *r, moore_graph **out, moore_error *err)
{
    int rc;
    if (r->nb_v < 0)
        return moore_error_set(err, MOORE_EINVAL, "%s: netbench file without a '|V|=' line",
                               r->name);
    int64_t n = r->nb_v;
    if (n == 0) {
        r->line = r->nb_v_line;
        return io_fail(r, err, "|V|=0: no switches (empty topology)");
    }
    if (r->hdr_switches >= 0 && r->hdr_switches != n) {
        r->line = r->hdr_switches_line;
        return io_fail(r, err, "'# switches: %lld' disagrees with |V|=%lld",
                       (long long)r->hdr_switches, (long long)n);
    }
    /* each cable is listed twice, so n_links counts its ends */
    if ((rc = io_check_declared(r, n, r->n_links / 2, r->nb_v_line, err)))
        return rc;
    char rule[64];
    snprintf(rule, sizeof rule, "|V|=%lld allows 0..%lld", (long long)n, (long long)n - 1);
    if ((rc = io_check_range(r, r->links, r->n_links, n, rule, err)))
        return rc;
    if (r->nb_e >= 0 && r->nb_e != r->n_links) {
        r->line = r->nb_e_line;
        return io_fail(r, err, "|E|=%lld but the file lists %lld directed links (netbench "
                               "counts each cable in both directions; truncated?)",
                       (long long)r->nb_e, (long long)r->n_links);
    }
    io_link *L = r->links;
    int64_t m = r->n_links;
    io_sort_links(L, m);
    for (int64_t i = 1; i < m; i++)
        if (L[i].u == L[i - 1].u && L[i].v == L[i - 1].v) {
            r->line = L[i].line;
            return io_fail(r, err, "link %d %d appears twice (also on line %lld)", (int)L[i].u,
                           (int)L[i].v, (long long)L[i - 1].line);
        }
    for (int64_t i = 0; i < m; i++)
        if (!find_link(L, m, L[i].v, L[i].u)) {
            r->line = L[i].line;
            return io_fail(r, err, "link %d %d has no reverse '%d %d' (netbench lists every "
                                   "cable in both directions)",
                           (int)L[i].u, (int)L[i].v, (int)L[i].v, (int)L[i].u);
        }
    int64_t k = 0;
    for (int64_t i = 0; i < m; i++)
        if (L[i].u < L[i].v)
            L[k++] = L[i];
    if (r->hdr_links >= 0 && r->hdr_links != k) {
        r->line = r->hdr_links_line;
        return io_fail(r, err, "'# links: %lld' but the file has %lld cables",
                       (long long)r->hdr_links, (long long)k);
    }
    int32_t *ep;
    if ((rc = set_endpoints(r, n, &ep, err)))
        return rc;
    if (r->endpoints_len) {
        free(ep);
        if ((rc = io_header_endpoints(r, n, &ep, err)))
            return rc;
    }
    rc = io_build(r, n, L, k, ep, out, err);
    free(ep);
    return rc;
}
