/* graph.c — the CSR switch graph and its builder.
 *
 * The builder collects links as (min, max) pairs, then sorts them once; a
 * duplicate is then two equal neighbours in the sorted list, so the check is
 * free. Rows come out sorted, which lets has_link use binary search and makes
 * every writer's output byte-stable. */
#include "moore/graph.h"
#include "core/alloc.h"
#include "core/csr.h"
#include "core/spec_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct moore_builder {
    int32_t n;
    int64_t count, cap;
    int64_t *pairs; /* (u << 32) | v with u < v: sorting these sorts by (u, v) */
};

int moore_builder_new(int32_t n, int64_t expected_links, moore_builder **out, moore_error *err)
{
    *out = NULL;
    if (n < 0 || n > MOORE_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL, "switch count %d is outside 0..%d", (int)n,
                               MOORE_MAX_SWITCHES);
    if (expected_links < 0)
        expected_links = 0;
    int rc = moore_memory_guard(24.0 * (double)expected_links + 16.0 * n, "this graph", err);
    if (rc)
        return rc;
    moore_builder *b = moore_calloc(1, sizeof *b, err);
    if (!b) {
        rc = core_alloc_code(err);
        goto done;
    }
    b->n = n;
    b->cap = expected_links > 16 ? expected_links : 16;
    b->pairs = moore_malloc((size_t)b->cap, sizeof *b->pairs, err);
    if (!b->pairs) {
        rc = core_alloc_code(err);
        goto done;
    }
    *out = b;
    b = NULL;
done:
    moore_builder_free(b);
    return rc;
}

int moore_builder_add_link(moore_builder *b, int32_t u, int32_t v, moore_error *err)
{
    if (u < 0 || u >= b->n || v < 0 || v >= b->n)
        return moore_error_set(err, MOORE_EINVAL,
                               "link %d-%d: switch id out of range 0..%d", (int)u, (int)v,
                               (int)b->n - 1);
    if (u == v)
        return moore_error_set(err, MOORE_EINVAL, "link %d-%d is a self-loop", (int)u, (int)v);
    if (b->count == b->cap) {
        int64_t cap = b->cap * 2;
        int64_t *p = realloc(b->pairs, (size_t)cap * sizeof *p);
        if (!p)
            return moore_error_set(err, MOORE_ENOMEM, "out of memory growing link list");
        b->pairs = p;
        b->cap = cap;
    }
    int32_t a = u < v ? u : v, c = u < v ? v : u;
    b->pairs[b->count++] = ((int64_t)a << 32) | c;
    return MOORE_OK;
}

void moore_builder_free(moore_builder *b)
{
    if (b) {
        free(b->pairs);
        free(b);
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int graph_alloc(int32_t n, int64_t m, moore_graph **out, moore_error *err)
{
    int rc = MOORE_OK;
    moore_graph *g = moore_calloc(1, sizeof *g, err);
    if (!g)
        return core_alloc_code(err);
    g->n = n;
    g->m = m;
    g->offs = moore_calloc((size_t)n + 1, sizeof *g->offs, err);
    g->adj = moore_malloc((size_t)(2 * m), sizeof *g->adj, err);
    g->endpoints = moore_calloc((size_t)n, sizeof *g->endpoints, err);
    if (!g->offs || !g->adj || !g->endpoints) {
        rc = core_alloc_code(err);
        goto done;
    }
    *out = g;
    g = NULL;
done:
    moore_graph_free(g);
    return rc;
}

int moore_builder_finish(moore_builder *b, moore_graph **out, moore_error *err)
{
    *out = NULL;
    moore_graph *g = NULL;
    int64_t *fill = NULL;
    int rc = MOORE_OK;
    /* Families that emit links in (u, v) order skip the sort. */
    int64_t i = 1;
    while (i < b->count && b->pairs[i - 1] <= b->pairs[i])
        i++;
    if (i < b->count)
        qsort(b->pairs, (size_t)b->count, sizeof *b->pairs, cmp_i64);
    for (i = 1; i < b->count; i++)
        if (b->pairs[i] == b->pairs[i - 1]) {
            rc = moore_error_set(err, MOORE_EINVAL, "link %d-%d appears more than once",
                                 (int)(b->pairs[i] >> 32), (int)(b->pairs[i] & 0xffffffff));
            goto done;
        }
    if ((rc = graph_alloc(b->n, b->count, &g, err)))
        goto done;
    for (int64_t i = 0; i < b->count; i++) {
        g->offs[(b->pairs[i] >> 32) + 1]++;
        g->offs[(b->pairs[i] & 0xffffffff) + 1]++;
    }
    for (int32_t v = 0; v < b->n; v++)
        g->offs[v + 1] += g->offs[v];
    if (!(fill = moore_malloc((size_t)b->n + 1, sizeof *fill, err))) {
        rc = core_alloc_code(err);
        goto done;
    }
    memcpy(fill, g->offs, ((size_t)b->n + 1) * sizeof *fill);
    for (int64_t i = 0; i < b->count; i++) {
        int32_t u = (int32_t)(b->pairs[i] >> 32), v = (int32_t)(b->pairs[i] & 0xffffffff);
        g->adj[fill[u]++] = v;
        g->adj[fill[v]++] = u;
    }
    /* Rows need no sort: pairs are ordered by (u, v), so row x receives first
     * its smaller neighbours (pairs (a, x), a ascending), then its larger ones. */
    *out = g;
    g = NULL;
done:
    free(fill);
    moore_graph_free(g);
    moore_builder_free(b);
    return rc;
}

int moore_graph_set_endpoints_uniform(moore_graph *g, int32_t p, moore_error *err)
{
    if (p < 0)
        return moore_error_set(err, MOORE_EINVAL, "endpoints per switch p=%d must be >= 0", (int)p);
    for (int32_t v = 0; v < g->n; v++)
        g->endpoints[v] = p;
    return MOORE_OK;
}

int moore_graph_set_endpoints(moore_graph *g, const int32_t *p, moore_error *err)
{
    for (int32_t v = 0; v < g->n; v++)
        if (p[v] < 0)
            return moore_error_set(err, MOORE_EINVAL, "switch %d: endpoint count %d must be >= 0",
                                   (int)v, (int)p[v]);
    memcpy(g->endpoints, p, (size_t)g->n * sizeof *p);
    return MOORE_OK;
}

static char *dup_str(const char *s, moore_error *err)
{
    size_t len = strlen(s) + 1;
    char *d = moore_malloc(len, 1, err);
    if (d)
        memcpy(d, s, len);
    return d;
}

int moore_graph_set_label(moore_graph *g, int32_t v, const char *label, moore_error *err)
{
    if (v < 0 || v >= g->n)
        return moore_error_set(err, MOORE_EINVAL, "label for switch %d out of range", (int)v);
    if (!g->labels) {
        g->labels = moore_calloc((size_t)g->n, sizeof *g->labels, err);
        if (!g->labels)
            return core_alloc_code(err);
    }
    char *d = dup_str(label, err);
    if (!d)
        return core_alloc_code(err);
    free(g->labels[v]);
    g->labels[v] = d;
    return MOORE_OK;
}

char *core_spec_join(const char *family, const char *params, moore_error *err)
{
    int with = params && *params;
    size_t len = strlen(family) + (with ? strlen(params) + 1 : 0) + 1;
    char *s = moore_malloc(len, 1, err);
    if (s)
        snprintf(s, len, "%s%s%s", family, with ? ":" : "", with ? params : "");
    return s;
}

int moore_graph_set_origin(moore_graph *g, const char *family, const char *params,
                           moore_error *err)
{
    char *f = family ? dup_str(family, err) : NULL;
    char *p = params ? dup_str(params, err) : NULL;
    char *spec = family ? core_spec_join(family, params, err) : NULL;
    int rc = MOORE_OK;
    if ((family && (!f || !spec)) || (params && !p)) {
        rc = core_alloc_code(err);
        goto done;
    }
    /* swap: the new strings into g, the old ones into the free list */
    char *old_f = g->family, *old_p = g->params, *old_spec = g->origin.spec;
    g->family = f;
    g->params = p;
    g->origin.spec = spec;
    f = old_f;
    p = old_p;
    spec = old_spec;
done:
    free(f);
    free(p);
    free(spec);
    return rc;
}

void moore_graph_set_family(moore_graph *g, const struct moore_family *family,
                            const moore_params *params, const moore_counts *counts)
{
    g->origin.family = family;
    g->origin.params = *params;
    g->origin.has_counts = counts != NULL;
    if (counts)
        g->origin.counts = *counts;
}

int moore_graph_set_file(moore_graph *g, const char *path, const char *format,
                         moore_error *err)
{
    char *p = dup_str(path, err);
    if (!p)
        return core_alloc_code(err);
    free(g->origin.path);
    g->origin.path = p;
    g->origin.format = format;
    return MOORE_OK;
}

const char *moore_graph_spec(const moore_graph *g)
{
    return g->origin.spec;
}

int32_t moore_graph_multiplicity(const moore_graph *g)
{
    const moore_counts *c = &g->origin.counts;
    if (!g->origin.has_counts || c->switches != g->n || c->links != g->m)
        return 1;
    return c->multiplicity > 1 ? c->multiplicity : 1;
}

int32_t moore_graph_degree_min(const moore_graph *g)
{
    int32_t d = g->n ? moore_graph_degree(g, 0) : 0;
    for (int32_t v = 1; v < g->n; v++)
        if (moore_graph_degree(g, v) < d)
            d = moore_graph_degree(g, v);
    return d;
}

int32_t moore_graph_degree_max(const moore_graph *g)
{
    int32_t d = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (moore_graph_degree(g, v) > d)
            d = moore_graph_degree(g, v);
    return d;
}

int moore_graph_is_regular(const moore_graph *g)
{
    return moore_graph_degree_min(g) == moore_graph_degree_max(g);
}

int64_t moore_graph_endpoints_total(const moore_graph *g)
{
    int64_t t = 0;
    for (int32_t v = 0; v < g->n; v++)
        t += g->endpoints[v];
    return t;
}

int moore_graph_has_link(const moore_graph *g, int32_t u, int32_t v)
{
    if (u < 0 || u >= g->n || v < 0 || v >= g->n)
        return 0;
    return core_csr_find(g, u, v) >= 0;
}

void core_csr_links(const moore_graph *g, int32_t *lu, int32_t *lv)
{
    int64_t i = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            if (u < g->adj[k]) {
                lu[i] = u;
                lv[i++] = g->adj[k];
            }
}

void moore_graph_reverse_arcs(const moore_graph *g, int64_t *rev)
{
#pragma omp parallel for schedule(dynamic, 256)
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            rev[k] = core_csr_find(g, g->adj[k], u);
}

int moore_graph_copy(const moore_graph *g, moore_graph **out, moore_error *err)
{
    moore_graph *c;
    *out = NULL;
    int rc = graph_alloc(g->n, g->m, &c, err);
    if (rc)
        return rc;
    memcpy(c->offs, g->offs, ((size_t)g->n + 1) * sizeof *c->offs);
    memcpy(c->adj, g->adj, (size_t)(2 * g->m) * sizeof *c->adj);
    memcpy(c->endpoints, g->endpoints, (size_t)g->n * sizeof *c->endpoints);
    rc = moore_graph_set_origin(c, g->family, g->params, err);
    if (!rc && g->origin.family)
        moore_graph_set_family(c, g->origin.family, &g->origin.params,
                               g->origin.has_counts ? &g->origin.counts : NULL);
    if (!rc && g->origin.path)
        rc = moore_graph_set_file(c, g->origin.path, g->origin.format, err);
    c->origin.endpoints_key = g->origin.endpoints_key;
    c->origin.endpoints_value = g->origin.endpoints_value;
    for (int32_t v = 0; !rc && g->labels && v < g->n; v++)
        if (g->labels[v])
            rc = moore_graph_set_label(c, v, g->labels[v], err);
    if (!rc) {
        *out = c;
        c = NULL;
    }
    moore_graph_free(c);
    return rc;
}

void moore_graph_free(moore_graph *g)
{
    if (!g)
        return;
    if (g->labels)
        for (int32_t v = 0; v < g->n; v++)
            free(g->labels[v]);
    free(g->labels);
    free(g->offs);
    free(g->adj);
    free(g->endpoints);
    free(g->family);
    free(g->params);
    free(g->origin.spec);
    free(g->origin.path);
    free(g);
}
