/* grid.c — internal: the products of paths and rings that torus, mesh, tofu
 * and hypercube are made of, so the four families share one parser, one set
 * of closed forms and one link loop.
 *
 * A grid is a list of dimensions, each of a size and either a ring (wrap) or
 * a path (no wrap). Switch ids are mixed-radix words, first dimension fastest.
 * A ring of size 2 is a single link (its two ring links would join the same
 * pair of switches, and the graph is simple); a dimension of size 1 adds
 * nothing. */
#include "core/alloc.h"
#include "families.h"
#include "families/grid.h"
#include "moore/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fam_grid_add(moore_grid *g, int64_t size, int wrap, const char *family,
                   moore_error *err)
{
    if (g->nd == MOORE_GRID_MAX_DIMS)
        return moore_error_set(err, MOORE_EINVAL, "%s: more than %d dimensions", family,
                               MOORE_GRID_MAX_DIMS);
    int64_t n = g->nd ? g->n : 1;
    if (size > MOORE_MAX_SWITCHES || n * size > MOORE_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL, "%s: more than %d switches", family,
                               MOORE_MAX_SWITCHES);
    g->dim[g->nd] = size;
    g->wrap[g->nd] = (unsigned char)(wrap != 0);
    g->nd++;
    g->n = n * size;
    return MOORE_OK;
}

int fam_grid_parse(const char *family, const char *dims, int64_t min_size, int max_dims,
                     int wrap, moore_grid *g, moore_error *err)
{
    if (!dims)
        return moore_error_set(err, MOORE_EINVAL, "%s: dims= is required (e.g. dims=8x8x8)",
                               family);
    for (const char *c = dims;;) {
        size_t len = *c == '-' ? 0 : moore_parse_int_prefix(c); /* the integer rule */
        const char *end = c + len;
        if (len == 0 || (*end != 'x' && *end != '\0'))
            return moore_error_set(err, MOORE_EINVAL, "%s: dims=%s is not a list of sizes "
                                   "such as 8x8x8", family, dims);
        /* more than 10 digits is over the limit and might overflow strtoll */
        long long v = len > 10 ? MOORE_MAX_SWITCHES + 1LL : strtoll(c, NULL, 10);
        if (g->nd == max_dims)
            return moore_error_set(err, MOORE_EINVAL, "%s: dims=%s has more than %d "
                                   "dimensions", family, dims, max_dims);
        if (v < min_size)
            return moore_error_set(err, MOORE_EINVAL, "%s: dimension %d of dims=%s is %lld; "
                                   "every dimension needs at least %lld switches", family,
                                   g->nd + 1, dims, v, (long long)min_size);
        if (v > MOORE_MAX_SWITCHES || (g->nd ? g->n : 1) * v > MOORE_MAX_SWITCHES)
            return moore_error_set(err, MOORE_EINVAL, "%s: dims=%s has more than %d "
                                   "switches", family, dims, MOORE_MAX_SWITCHES);
        int rc = fam_grid_add(g, v, wrap, family, err);
        if (rc)
            return rc;
        if (*end == '\0')
            break;
        c = end + 1;
    }
    return MOORE_OK;
}

/* Links one switch has in dimension i: fewest (at a path's end) and most. */
static void grid_dim_degree(const moore_grid *g, int i, int32_t *lo, int32_t *hi)
{
    int64_t a = g->dim[i];
    *lo = *hi = a == 1 ? 0 : a == 2 ? 1 : 2;
    if (a > 2 && !g->wrap[i])
        *lo = 1;
}

void fam_grid_counts(const moore_grid *g, moore_counts *c)
{
    c->switches = g->n;
    c->links = 0;
    c->degree_min = c->degree_max = 0;
    c->diameter = 0;
    for (int i = 0; i < g->nd; i++) {
        int64_t a = g->dim[i], per_line = g->wrap[i] && a > 2 ? a : a - 1;
        int32_t lo, hi;
        grid_dim_degree(g, i, &lo, &hi);
        c->links += g->n / a * per_line;
        c->degree_min += lo;
        c->degree_max += hi;
        c->diameter += (int32_t)(g->wrap[i] ? a / 2 : a - 1);
    }
    c->endpoints = 0; /* the family sets it */
    c->multiplicity = 1;
}

static void grid_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    const moore_grid *g = ctx;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < g->nd && used + 1 < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%lld", i ? "." : "",
                         (long long)(v % g->dim[i]));
        used += w > 0 ? (size_t)w : 0;
        v = (int32_t)(v / g->dim[i]);
    }
}

int fam_grid_build(const moore_grid *g, int32_t p, moore_graph **out, moore_error *err)
{
    moore_counts c;
    fam_grid_counts(g, &c);
    moore_builder *b = NULL;
    int rc = moore_builder_new((int32_t)g->n, c.links, &b, err);
    if (rc)
        return rc;
    /* Each switch adds its "+1" link in every dimension: on a ring also from
     * the last coordinate back to 0, except in a ring of size 2, whose single
     * link coordinate 0 already added. */
    for (int64_t v = 0; !rc && v < g->n; v++)
        for (int64_t i = 0, w = 1; !rc && i < g->nd; w *= g->dim[i], i++) {
            int64_t a = g->dim[i], x = v / w % a;
            if (x + 1 == a && (!g->wrap[i] || a <= 2))
                continue;
            int64_t u = v + ((x + 1) % a - x) * w;
            rc = moore_builder_add_link(b, (int32_t)v, (int32_t)u, err);
        }
    if (!rc)
        rc = fam_graph_finish(&b, p, grid_label, g, out, err);
    moore_builder_free(b);
    return rc;
}

int fam_grid_family_counts(moore_params *pp, moore_grid_shape shape, moore_counts *c,
                             moore_error *err)
{
    moore_grid g;
    memset(&g, 0, sizeof g);
    int rc = shape(pp, &g, err);
    if (rc)
        return rc;
    fam_grid_counts(&g, c);
    int32_t p;
    if ((rc = moore_family_resolve_endpoints(pp, c->degree_max, 1, &p, err)))
        return rc;
    c->endpoints = g.n * p;
    return MOORE_OK;
}

int fam_grid_family_build(moore_params *pp, moore_grid_shape shape, moore_graph **out,
                            moore_error *err)
{
    moore_grid g;
    moore_counts c;
    memset(&g, 0, sizeof g);
    int rc = fam_grid_family_counts(pp, shape, &c, err);
    if (!rc)
        rc = shape(pp, &g, err);
    if (rc)
        return rc;
    return fam_grid_build(&g, (int32_t)(c.endpoints / g.n), out, err);
}

/* ---- recognising a built grid, and its distances ---- */

static const struct {
    const char *family;
    moore_grid_shape shape;
} GRID_FAMILIES[] = {
    { "torus", fam_torus_shape },
    { "mesh", fam_mesh_shape },
    { "tofu", fam_tofu_shape },
    { "hypercube", fam_hypercube_shape },
};

/* 1 when switch v's row is exactly its grid neighbours (the "+1" and "−1"
 * switch of every dimension of size > 1, once for a dimension of size 2). */
static int grid_row_matches(const moore_grid *gr, const moore_graph *g, int64_t v)
{
    int64_t nb[2 * MOORE_GRID_MAX_DIMS];
    int k = 0;
    for (int64_t i = 0, w = 1; i < gr->nd; w *= gr->dim[i], i++) {
        int64_t a = gr->dim[i], x = v / w % a;
        int ring = gr->wrap[i] && a > 2;
        if (x + 1 < a || ring)
            nb[k++] = v + ((x + 1) % a - x) * w;
        if (x > 0 || ring)
            nb[k++] = v + ((x + a - 1) % a - x) * w;
    }
    if (k != moore_graph_degree(g, (int32_t)v))
        return 0;
    for (int i = 1; i < k; i++) /* insertion sort: rows are sorted ascending */
        for (int j = i; j > 0 && nb[j - 1] > nb[j]; j--) {
            int64_t t = nb[j];
            nb[j] = nb[j - 1];
            nb[j - 1] = t;
        }
    const int32_t *row = g->adj + g->offs[v];
    for (int i = 0; i < k; i++)
        if (row[i] != nb[i])
            return 0;
    return 1;
}

int fam_grid_of_graph(const moore_graph *g, moore_grid *out)
{
    moore_grid_shape shape = NULL;
    for (size_t i = 0; g->family && i < sizeof GRID_FAMILIES / sizeof GRID_FAMILIES[0]; i++)
        if (strcmp(g->family, GRID_FAMILIES[i].family) == 0)
            shape = GRID_FAMILIES[i].shape;
    /* the parameters as parsed when the graph was made (moore/origin.h) */
    if (!shape || !g->origin.family || !g->params || strcmp(g->origin.params.family, g->family))
        return 0;
    moore_params p = g->origin.params;
    moore_error err;
    memset(out, 0, sizeof *out);
    if (shape(&p, out, &err))
        return 0;
    moore_counts c;
    fam_grid_counts(out, &c);
    if (out->n != g->n || c.links != g->m)
        return 0;
    int same = 1;
#pragma omp parallel for reduction(&& : same) schedule(static)
    for (int64_t v = 0; v < g->n; v++)
        same = same && grid_row_matches(out, g, v);
    return same;
}

/* Ordered pairs of one dimension at each distance into h[0..]; returns the
 * dimension's diameter. */
static int64_t grid_dim_pairs(int64_t a, int wrap, int64_t *h)
{
    h[0] = a;
    if (wrap && a > 2) { /* a ring */
        for (int64_t d = 1; d <= a / 2; d++)
            h[d] = 2 * d == a ? a : 2 * a;
        return a / 2;
    }
    for (int64_t d = 1; d < a; d++) /* a path (a ring of 2 is one link) */
        h[d] = 2 * (a - d);
    return a - 1;
}

int fam_grid_distances(const moore_grid *g, int64_t **hist, int32_t *len, moore_error *err)
{
    moore_counts c;
    fam_grid_counts(g, &c);
    int64_t widest = 1;
    for (int i = 0; i < g->nd; i++)
        widest = g->dim[i] > widest ? g->dim[i] : widest;
    int64_t *h = NULL, *next = NULL, *dim = NULL;
    int rc = MOORE_ENOMEM;
    h = moore_calloc((size_t)c.diameter + 1, sizeof *h, err);
    next = moore_calloc((size_t)c.diameter + 1, sizeof *next, err);
    dim = moore_malloc((size_t)widest, sizeof *dim, err);
    if (!h || !next || !dim) {
        rc = core_alloc_code(err);
        goto done;
    }
    int64_t reach = 0; /* the diameter of the dimensions so far */
    h[0] = 1;
    for (int i = 0; i < g->nd; i++) {
        int64_t dd = grid_dim_pairs(g->dim[i], g->wrap[i], dim);
        memset(next, 0, ((size_t)(reach + dd) + 1) * sizeof *next);
        for (int64_t x = 0; x <= reach; x++)
            for (int64_t y = 0; y <= dd; y++)
                next[x + y] += h[x] * dim[y];
        int64_t *t = h;
        h = next;
        next = t;
        reach += dd;
    }
    *hist = h;
    *len = (int32_t)reach + 1;
    h = NULL;
    rc = MOORE_OK;
done:
    free(h);
    free(next);
    free(dim);
    return rc;
}

/* One 3-D shape d (times `units` switches per grid point, `extra` more
 * network ports each): p = min(degree, R − degree) endpoints per switch, the
 * free ports but never more endpoint ports than network ports (a grid is a
 * low-radix network; its size, not its concentration, should grow). *done is
 * set when it fits and reaches the target; with emit NULL it only asks. */
static int grid_emit3(const char *family, int32_t extra, int64_t units, int32_t radix,
                      const int64_t d[3], int64_t endpoints, int *done, moore_plan_emit emit,
                      void *ctx, moore_error *err)
{
    int32_t deg = extra;
    for (int i = 0; i < 3; i++)
        deg += d[i] == 1 ? 0 : d[i] == 2 ? 1 : 2;
    int32_t p = radix - deg < deg ? radix - deg : deg;
    *done = 0;
    if (p < 1 || units * d[0] * d[1] * d[2] * p < endpoints)
        return MOORE_OK;
    *done = 1;
    if (!emit)
        return MOORE_OK;
    return fam_emit(emit, ctx, err, "%s:dims=%lldx%lldx%lld,p=%d", family,
                             (long long)d[0], (long long)d[1], (long long)d[2], (int)p);
}

int fam_grid_plan3(const char *family, int64_t kmin, int32_t extra, int64_t units,
                     int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                     moore_error *err)
{
    int rc = MOORE_OK, done;
    for (int64_t k = kmin; !rc && k <= 32; k++)
        rc = grid_emit3(family, extra, units, radix, (int64_t[3]){ k, k, k }, 0, &done, emit,
                        ctx, err);
    if (rc || endpoints <= 0)
        return rc;
    for (int64_t k = kmin; units * k * k * k <= MOORE_MAX_SWITCHES / 10; k++)
        for (int i = 0; i < 3; i++) {
            int64_t d[3] = { i > 0 ? k + 1 : k, i > 1 ? k + 1 : k, k };
            if (i == 0 && k <= 32) { /* a cube already listed: stop if it reaches */
                if (grid_emit3(family, extra, units, radix, d, endpoints, &done, NULL, NULL,
                               err), done)
                    return MOORE_OK;
                continue;
            }
            if ((rc = grid_emit3(family, extra, units, radix, d, endpoints, &done, emit, ctx,
                                 err)) || done)
                return rc;
        }
    return MOORE_OK;
}
