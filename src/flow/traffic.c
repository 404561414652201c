/* traffic.c — building traffic matrices: uniform, permutation, worst (longest
 * matching) and CSV files. The demand scaling is documented in traffic.h;
 * the rule behind it (docs/throughput.md): "each server sends 1 in total,
 * traffic between servers of one switch uses no link".
 *
 * Matrices are kept as CSR by source because every solver works source by
 * source (one LP commodity or one shortest-path tree per source switch). */
#include "moore/traffic.h"
#include "core/alloc.h"
#include "moore/parse.h"
#include "moore/paths.h"
#include "moore/rng.h"
#include "flow_internal.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void moore_traffic_free(moore_traffic *t)
{
    if (!t)
        return;
    free(t->offs);
    free(t->dst);
    free(t->demand);
    free(t->weight);
    free(t);
}

int32_t moore_traffic_sources(const moore_traffic *t)
{
    int32_t k = 0;
    for (int32_t s = 0; s < t->n; s++)
        k += t->offs[s + 1] > t->offs[s];
    return k;
}

/* An empty matrix for n switches with room for `entries` demands. */
int flow_traffic_alloc(int32_t n, int64_t entries, const char *name, moore_traffic **out,
                       moore_error *err)
{
    moore_traffic *t = NULL;
    *out = NULL;
    int rc = moore_memory_guard((double)entries * 12.0 + (double)n * 8.0,
                                "the traffic matrix", err);
    if (!rc && !(t = moore_calloc(1, sizeof *t, err)))
        rc = core_alloc_code(err);
    if (!rc) {
        t->n = n;
        t->offs = moore_calloc((size_t)n + 1, sizeof *t->offs, err);
        t->dst = moore_malloc((size_t)(entries ? entries : 1), sizeof *t->dst, err);
        t->demand = moore_malloc((size_t)(entries ? entries : 1), sizeof *t->demand, err);
        if (!t->offs || !t->dst || !t->demand)
            rc = core_alloc_code(err);
    }
    if (!rc) {
        snprintf(t->name, sizeof t->name, "%s", name);
        *out = t;
        t = NULL;
    }
    moore_traffic_free(t);
    return rc;
}

int flow_traffic_alloc_compact(int32_t n, const char *name, moore_traffic **out,
                               moore_error *err)
{
    moore_traffic *t = NULL;
    *out = NULL;
    int rc = flow_traffic_alloc(n, 0, name, &t, err);
    if (!rc) {
        free(t->dst);
        free(t->demand);
        t->dst = NULL;
        t->demand = NULL;
        t->weight = moore_malloc((size_t)(n ? n : 1), sizeof *t->weight, err);
        if (!t->weight)
            rc = core_alloc_code(err);
    }
    if (!rc) {
        *out = t;
        t = NULL;
    }
    moore_traffic_free(t);
    return rc;
}

/* Servers per switch: the graph's endpoints, or 1 each when it has none. */
static int32_t *servers_of(const moore_graph *g, int *unit, int64_t *total, moore_error *err)
{
    int32_t *p = moore_malloc((size_t)(g->n ? g->n : 1), sizeof *p, err);
    if (!p)
        return NULL;
    int64_t sum = moore_graph_endpoints_total(g);
    *unit = sum == 0;
    for (int32_t v = 0; v < g->n; v++)
        p[v] = *unit ? 1 : g->endpoints[v];
    *total = *unit ? g->n : sum;
    return p;
}

/* servers_of (to *p) for the uniform matrix, which needs two servers. */
static int uniform_servers(const moore_graph *g, int32_t **p, int *unit, int64_t *servers,
                           moore_error *err)
{
    *p = servers_of(g, unit, servers, err);
    if (!*p)
        return core_alloc_code(err);
    if (*servers >= 2)
        return MOORE_OK;
    free(*p);
    *p = NULL;
    return moore_error_set(err, MOORE_EINVAL,
                           "uniform traffic needs at least 2 servers, the topology has %lld",
                           (long long)*servers);
}

/* The stored uniform matrix: the compact one's rows written out (the same
 * demands, bit for bit). */
int moore_traffic_uniform(const moore_graph *g, moore_traffic **out, moore_error *err)
{
    moore_traffic *c;
    *out = NULL;
    int rc = moore_traffic_uniform_compact(g, &c, err);
    if (!rc)
        rc = flow_traffic_expand(c, out, err);
    moore_traffic_free(c);
    return rc;
}

/* The uniform matrix in compact form (traffic.h): each switch's servers as its
 * weight, S − 1 as the divisor, T(s,t) = p_s·p_t/(S − 1). The total is summed
 * by rows in closed form, p_s·(S − p_s)/(S − 1). */
int moore_traffic_uniform_compact(const moore_graph *g, moore_traffic **out, moore_error *err)
{
    int unit;
    int64_t servers;
    *out = NULL;
    int32_t *p;
    int rc = uniform_servers(g, &p, &unit, &servers, err);
    if (rc)
        return rc;
    moore_traffic *t = NULL;
    rc = flow_traffic_alloc_compact(g->n, "uniform", &t, err);
    if (rc)
        goto done;
    int64_t with = 0, k = 0;
    for (int32_t v = 0; v < g->n; v++)
        with += p[v] > 0;
    t->weight_div = (double)(servers - 1);
    for (int32_t s = 0; s < g->n; s++) {
        t->offs[s] = k;
        t->weight[s] = (double)p[s];
        if (p[s] > 0) {
            k += with - 1;
            t->total += (double)p[s] * (double)(servers - p[s]) / t->weight_div;
        }
    }
    t->offs[g->n] = k;
    t->unit_endpoints = unit;
    *out = t;
    t = NULL;

done:
    moore_traffic_free(t);
    free(p);
    return rc;
}

flow_row flow_traffic_row(const moore_traffic *t, int32_t s, int fold, int32_t *dst,
                          double *dem)
{
    if (!t->weight)
        return (flow_row){ t->dst + t->offs[s], t->demand + t->offs[s],
                           t->offs[s + 1] - t->offs[s] };
    flow_row r = { dst, dem, 0 };
    double ws = t->weight[s];
    if (!(ws > 0))
        return r;
    /* Unfolded: every t ≠ s. Folded: the owned t, those at circular offsets
     * 1..h from s (fold.c's rule), ascending: the wrapped part first. */
    int32_t n = t->n, lo[2] = { 0, 0 }, hi[2] = { s, n };
    if (!fold) {
        lo[1] = s + 1;
    } else {
        int64_t h = (n - 1) / 2 + (n % 2 == 0 && s < n / 2);
        int64_t end = (int64_t)s + h; /* last owned, unwrapped */
        hi[0] = end >= n ? (int32_t)(end - n + 1) : 0;
        lo[1] = s + 1;
        hi[1] = end >= n ? n : (int32_t)end + 1;
    }
    for (int i = 0; i < 2; i++)
        for (int32_t v = lo[i]; v < hi[i]; v++)
            if (t->weight[v] > 0) {
                dst[r.count] = v;
                double d = ws * t->weight[v] / t->weight_div;
                dem[r.count++] = fold ? 2 * d : d;
            }
    return r;
}

int flow_traffic_expand(const moore_traffic *t, moore_traffic **out, moore_error *err)
{
    moore_traffic *e;
    int rc = flow_traffic_alloc(t->n, t->offs[t->n], t->name, &e, err);
    if (rc)
        return rc;
    for (int32_t s = 0; s < t->n; s++) {
        e->offs[s + 1] = t->offs[s + 1];
        flow_traffic_row(t, s, 0, e->dst + t->offs[s], e->demand + t->offs[s]);
    }
    e->total = t->total;
    e->unit_endpoints = t->unit_endpoints;
    *out = e;
    return MOORE_OK;
}

/* Whether stored row s holds exactly compact row s (buffers for n). */
static int same_row(const moore_traffic *t, const moore_traffic *c, int32_t s, int32_t *dst,
                    double *dem)
{
    flow_row r = flow_traffic_row(c, s, 0, dst, dem);
    int64_t at = t->offs[s];
    if (r.count != t->offs[s + 1] - at)
        return 0;
    for (int64_t k = 0; k < r.count; k++)
        if (t->dst[at + k] != r.dst[k] || t->demand[at + k] != r.demand[k])
            return 0;
    return 1;
}

int flow_traffic_compact_of(const moore_graph *g, const moore_traffic *t, moore_traffic **out,
                            moore_error *err)
{
    *out = NULL;
    if (t->weight || t->n != g->n || strcmp(t->name, "uniform") != 0)
        return MOORE_OK;
    moore_error quiet;
    moore_traffic *c = NULL;
    if (moore_traffic_uniform_compact(g, &c, &quiet))
        return MOORE_OK;    /* not this graph's uniform matrix: used as stored */
    int32_t *dst = moore_malloc((size_t)(g->n ? g->n : 1), sizeof *dst, err);
    double *dem = moore_malloc((size_t)(g->n ? g->n : 1), sizeof *dem, err);
    int rc = dst && dem ? MOORE_OK : core_alloc_code(err), same = !rc;
    for (int32_t s = 0; same && s < g->n; s++)
        same = same_row(t, c, s, dst, dem);
    free(dst);
    free(dem);
    if (same)
        *out = c;
    else
        moore_traffic_free(c);
    return rc;
}

/* A matrix with at most one destination per source: T(s, to[s]) = p_s. */
static int from_pairs(const moore_graph *g, const int32_t *to, const int32_t *p, int unit,
                      const char *name, moore_traffic **out, moore_error *err)
{
    moore_traffic *t;
    int64_t k = 0;
    int rc = flow_traffic_alloc(g->n, g->n, name, &t, err);
    if (rc)
        return rc;
    for (int32_t s = 0; s < g->n; s++) {
        t->offs[s] = k;
        if (to[s] >= 0 && p[s] > 0) {
            t->dst[k] = to[s];
            t->demand[k] = p[s];
            t->total += p[s];
            k++;
        }
    }
    t->offs[g->n] = k;
    t->unit_endpoints = unit;
    *out = t;
    return MOORE_OK;
}

/* Switches with servers, in id order; refuses fewer than two. */
static int32_t *server_switches(const moore_graph *g, const int32_t *p, int32_t *count,
                                const char *tm, moore_error *err)
{
    int32_t *list = moore_malloc((size_t)(g->n ? g->n : 1), sizeof *list, err);
    if (!list)
        return NULL;
    int32_t k = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (p[v] > 0)
            list[k++] = v;
    if (k < 2) {
        free(list);
        moore_error_set(err, MOORE_EINVAL,
                        "%s traffic needs at least 2 switches with servers, the topology has %d",
                        tm, (int)k);
        return NULL;
    }
    *count = k;
    return list;
}

/* A uniform derangement of 0..k-1 into perm, by rejection: a random
 * permutation has no fixed point with probability → 1/e, so a few tries suffice. */
static void derangement(uint64_t seed, int32_t *perm, int32_t k)
{
    moore_rng rng;
    moore_rng_seed(&rng, seed);
    for (;;) {
        for (int32_t i = 0; i < k; i++)
            perm[i] = i;
        moore_rng_shuffle_i32(&rng, perm, k);
        int fixed = 0;
        for (int32_t i = 0; i < k && !fixed; i++)
            fixed = perm[i] == i;
        if (!fixed)
            break;
    }
}

int moore_traffic_permutation(const moore_graph *g, uint64_t seed, moore_traffic **out,
                              moore_error *err)
{
    int unit;
    int64_t servers;
    int32_t k;
    *out = NULL;
    int32_t *p = servers_of(g, &unit, &servers, err);
    int32_t *list = p ? server_switches(g, p, &k, "permutation", err) : NULL;
    int32_t *perm = list ? moore_malloc((size_t)k, sizeof *perm, err) : NULL;
    int32_t *to = perm ? moore_malloc((size_t)g->n, sizeof *to, err) : NULL;
    int rc = to ? MOORE_OK : core_alloc_code(err);
    if (!rc) {
        derangement(seed, perm, k);
        for (int32_t v = 0; v < g->n; v++)
            to[v] = -1;
        for (int32_t i = 0; i < k; i++)
            to[list[i]] = list[perm[i]];
        rc = from_pairs(g, to, p, unit, "permutation", out, err);
    }
    free(p);
    free(list);
    free(perm);
    free(to);
    return rc;
}

/* Weights (p_u + p_v)·dist(u,v) between the switches with servers. */
typedef struct weight_ctx {
    const int32_t *p, *list;
    int32_t k;
    int64_t *w;             /* exact: the k×k matrix */
    double *best;           /* greedy: max weight per row */
} weight_ctx;

static void weight_row(void *ctx, int32_t i, const int32_t *dist)
{
    weight_ctx *c = ctx;
    int64_t best = 0;
    for (int32_t j = 0; j < c->k; j++) {
        int64_t w = (int64_t)(c->p[c->list[i]] + c->p[c->list[j]]) * dist[c->list[j]];
        if (c->w)
            c->w[(int64_t)i * c->k + j] = w;
        best = j != i && w > best ? w : best;
    }
    if (c->best)
        c->best[i] = (double)best;
}

/* Greedy longest matching for graphs too large for the blossom algorithm:
 * each unmatched switch in id order takes its farthest unmatched partner.
 * ceiling = Σ_v max_u w(u,v) / 2 bounds every matching's weight. */
static int greedy_matching(const moore_graph *g, const int32_t *p, const int32_t *list,
                           int32_t k, int32_t *mate, double *weight, double *ceiling,
                           moore_error *err)
{
    double *best = moore_calloc((size_t)k, sizeof *best, err);
    int32_t *dist = moore_malloc((size_t)g->n, sizeof *dist, err);
    int32_t *queue = moore_malloc((size_t)g->n, sizeof *queue, err);
    int rc = best && dist && queue ? MOORE_OK : MOORE_ENOMEM;
    weight_ctx c = { p, list, k, NULL, best };
    if (!rc)
        rc = flow_bfs_rows(g, list, k, weight_row, &c, err);
    if (rc) {
        free(best);
        free(dist);
        free(queue);
        return rc;
    }
    *weight = 0;
    *ceiling = 0;
    for (int32_t i = 0; i < k; i++) {
        *ceiling += best[i] / 2;
        mate[i] = -1;
    }
    for (int32_t i = 0; i < k; i++) {
        if (mate[i] >= 0)
            continue;
        moore_bfs(g, list[i], dist, queue);
        int32_t pick = -1;
        double w = -1;
        for (int32_t j = 0; j < k; j++)
            if (j != i && mate[j] < 0 &&
                (double)(p[list[i]] + p[list[j]]) * dist[list[j]] > w) {
                w = (double)(p[list[i]] + p[list[j]]) * dist[list[j]];
                pick = j;
            }
        if (pick >= 0) {
            mate[i] = pick;
            mate[pick] = i;
            *weight += w;
        }
    }
    free(best);
    free(dist);
    free(queue);
    return MOORE_OK;
}

/* The blossom algorithm on the complete graph of switches with servers. */
static int exact_matching(const moore_graph *g, const int32_t *p, const int32_t *list,
                          int32_t k, int32_t *mate, double *weight, moore_error *err)
{
    int rc = moore_memory_guard((double)k * k * 8.0 * 4, "the longest matching", err);
    if (rc)
        return rc;
    int64_t *w = moore_malloc((size_t)k * (size_t)k, sizeof *w, err);
    if (!w)
        return core_alloc_code(err);
    weight_ctx c = { p, list, k, w, NULL };
    rc = flow_bfs_rows(g, list, k, weight_row, &c, err);
    if (!rc)
        rc = moore_matching_max_weight(k, w, mate, err);
    *weight = 0;
    for (int32_t i = 0; !rc && i < k; i++)
        if (mate[i] > i)
            *weight += (double)w[(int64_t)i * k + mate[i]];
    free(w);
    return rc;
}

int moore_traffic_worst(const moore_graph *g, moore_traffic **out, moore_error *err)
{
    int unit;
    int64_t servers;
    int32_t k;
    *out = NULL;
    int32_t *p = servers_of(g, &unit, &servers, err);
    int32_t *list = p ? server_switches(g, p, &k, "worst-case", err) : NULL;
    int32_t *comp = list ? moore_malloc((size_t)g->n, sizeof *comp, err) : NULL;
    int32_t *mate = comp ? moore_malloc((size_t)k, sizeof *mate, err) : NULL;
    int32_t *to = mate ? moore_malloc((size_t)g->n, sizeof *to, err) : NULL;
    int rc = to ? MOORE_OK : (err && err->code ? err->code : MOORE_ENOMEM);
    int32_t ncomp = 0;
    if (!rc)
        rc = moore_components(g, comp, &ncomp, err);
    for (int32_t i = 1; !rc && i < k; i++)
        if (comp[list[i]] != comp[list[0]])
            rc = moore_error_set(err, MOORE_EINVAL,
                                 "worst-case traffic: switches %d and %d have servers but no "
                                 "path between them (the topology is disconnected)",
                                 (int)list[0], (int)list[i]);
    double weight = 0, ceiling = 0;
    int exact = k <= MOORE_MATCHING_EXACT_MAX;
    if (!rc)
        rc = exact ? exact_matching(g, p, list, k, mate, &weight, err)
                   : greedy_matching(g, p, list, k, mate, &weight, &ceiling, err);
    if (!rc) {
        for (int32_t v = 0; v < g->n; v++)
            to[v] = -1;
        for (int32_t i = 0; i < k; i++)
            if (mate[i] >= 0)
                to[list[i]] = list[mate[i]];
        rc = from_pairs(g, to, p, unit, "worst", out, err);
    }
    if (!rc) {
        (*out)->matching_exact = exact;
        (*out)->matching_weight = weight;
        (*out)->matching_bound = exact ? weight : ceiling;
    }
    free(p);
    free(list);
    free(comp);
    free(mate);
    free(to);
    return rc;
}

/* ---- CSV files ---- */

typedef struct triple {
    int32_t s, d;
    double w;
} triple;

static int cmp_triple(const void *a, const void *b)
{
    const triple *x = a, *y = b;
    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    return (x->d > y->d) - (x->d < y->d);
}

/* t's rows from the sorted triples: repeated pairs summed, zeros and s = d dropped. */
static void fill_triples(const moore_graph *g, const triple *tr, int64_t count, moore_traffic *t)
{
    int64_t k = 0, i = 0;
    for (int32_t s = 0; s < g->n; s++) {
        t->offs[s] = k;
        for (; i < count && tr[i].s == s; i++) {
            if (tr[i].d == s || tr[i].w == 0)
                continue;
            if (k > t->offs[s] && t->dst[k - 1] == tr[i].d) {
                t->demand[k - 1] += tr[i].w;
            } else {
                t->dst[k] = tr[i].d;
                t->demand[k++] = tr[i].w;
            }
            t->total += tr[i].w;
        }
    }
    t->offs[g->n] = k;
}

/* CSR from (s,d,w) triples: sorted, repeated pairs summed, zeros and s = d dropped. */
static int from_triples(const moore_graph *g, triple *tr, int64_t count, const char *name,
                        moore_traffic **out, moore_error *err)
{
    qsort(tr, (size_t)count, sizeof *tr, cmp_triple);
    moore_traffic *t = NULL;
    int rc = flow_traffic_alloc(g->n, count, name, &t, err);
    if (!rc)
        fill_triples(g, tr, count, t);
    if (!rc && !isfinite(t->total))
        rc = moore_error_set(err, MOORE_EINVAL,
                             "traffic: the demands add up to %g, not a finite number (each "
                             "demand and their sum must stay below %g)", t->total, DBL_MAX);
    if (!rc) {
        *out = t;
        t = NULL;
    }
    moore_traffic_free(t);
    return rc;
}

int moore_traffic_from_dense(const moore_graph *g, const double *m, moore_traffic **out,
                             moore_error *err)
{
    int64_t count = 0, n = g->n;
    *out = NULL;
    for (int64_t i = 0; i < n * n; i++) {
        if (!(m[i] >= 0) || isinf(m[i]) || (m[i] > 0 && m[i] < DBL_MIN))
            return moore_error_set(err, MOORE_EINVAL,
                                   "traffic: demand %g from %lld to %lld is not a finite "
                                   "non-negative number of at least %g (or 0)", m[i],
                                   (long long)(i / n), (long long)(i % n), DBL_MIN);
        count += m[i] > 0 && i / n != i % n;
    }
    triple *tr = moore_malloc((size_t)(count ? count : 1), sizeof *tr, err);
    if (!tr)
        return core_alloc_code(err);
    int64_t k = 0;
    for (int64_t i = 0; i < n * n; i++)
        if (m[i] > 0 && i / n != i % n)
            tr[k++] = (triple){ (int32_t)(i / n), (int32_t)(i % n), m[i] };
    int rc = from_triples(g, tr, count, "file", out, err);
    free(tr);
    return rc;
}

/* Parses one CSV field (blanks around it already removed) as a switch id of
 * graph g, under the number rule of moore/parse.h (no hex, no '+'). */
static int parse_switch(const char *path, long line, const char *field, const char *what,
                        const moore_graph *g, int32_t *out, moore_error *err)
{
    int64_t v;
    moore_parse_status st = moore_parse_int(field, 0, (int64_t)g->n - 1, &v);
    if (st == MOORE_PARSE_SYNTAX)
        return moore_error_set(err, MOORE_EINVAL,
                               "%s:%ld: %s '%s' is not a switch id (decimal digits, "
                               "docs/formats.md)", path, line, what, field);
    if (st != MOORE_PARSE_OK)
        return moore_error_set(err, MOORE_EINVAL,
                               "%s:%ld: %s %s is outside the topology's switches 0..%d", path,
                               line, what, field, (int)g->n - 1);
    *out = (int32_t)v;
    return MOORE_OK;
}

/* Removes the blanks (space, tab) around a field in place. */
static char *field_trim(char *f)
{
    while (*f == ' ' || *f == '\t')
        f++;
    size_t len = strlen(f);
    while (len > 0 && (f[len - 1] == ' ' || f[len - 1] == '\t'))
        f[--len] = '\0';
    return f;
}

static int parse_line(const char *path, long line, char *s, const moore_graph *g, triple *t,
                      moore_error *err)
{
    char *field[3];
    int commas = 0;
    for (const char *q = s; *q; q++)
        commas += *q == ',';
    if (commas != 2)
        return moore_error_set(err, MOORE_EINVAL,
                               "%s:%ld: expected three fields 'src,dst,demand'", path, line);
    field[0] = s;
    for (int i = 1; i < 3; i++) {
        char *c = strchr(field[i - 1], ',');
        *c = '\0';
        field[i] = c + 1;
    }
    for (int i = 0; i < 3; i++)
        field[i] = field_trim(field[i]);
    int rc = parse_switch(path, line, field[0], "src", g, &t->s, err);
    if (!rc)
        rc = parse_switch(path, line, field[1], "dst", g, &t->d, err);
    if (rc)
        return rc;
    if (moore_parse_number(field[2], 0, DBL_MAX, &t->w) != MOORE_PARSE_OK)
        return moore_error_set(err, MOORE_EINVAL,
                               "%s:%ld: demand '%s' is not a finite non-negative number "
                               "(decimal, docs/formats.md)", path, line, field[2]);
    if (t->w > 0 && t->w < DBL_MIN)
        return moore_error_set(err, MOORE_EINVAL,
                               "%s:%ld: demand '%s' is subnormal (below %g): scale the matrix "
                               "up, throughput scales down with it", path, line, field[2],
                               DBL_MIN);
    return MOORE_OK;
}

/* Longest line a traffic file may have: "src,dst,demand" needs < 100. */
#define TRAFFIC_LINE_MAX 4096

/* Reads one line (without its newline) into buf[TRAFFIC_LINE_MAX + 1];
 * returns its length, −1 at the end of the file, −2 for a line that is too
 * long, −3 for a NUL byte (binary data). Never reads more than one line. */
static long read_line(FILE *f, char *buf)
{
    long len = 0;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (c == '\0')
            return -3;
        if (len == TRAFFIC_LINE_MAX)
            return -2;
        buf[len++] = (char)c;
    }
    if (c == EOF && len == 0)
        return -1;
    buf[len] = '\0';
    return len;
}

int moore_traffic_read(const moore_graph *g, const char *path, moore_traffic **out,
                       moore_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return moore_error_set(err, MOORE_EIO, "cannot open traffic file '%s': %s", path,
                               strerror(errno));
    char buf[TRAFFIC_LINE_MAX + 1];
    long len;
    long line = 0;
    int64_t count = 0, tcap = 0;
    triple *tr = NULL;
    int rc = MOORE_OK, seen_data = 0;
    while (!rc && (len = read_line(f, buf)) != -1) {
        line++;
        if (len == -3) {
            rc = moore_error_set(err, MOORE_EINVAL, "%s:%ld: binary data in a traffic file",
                                 path, line);
            break;
        }
        if (len == -2) {
            rc = moore_error_set(err, MOORE_EINVAL,
                                 "%s:%ld: line longer than %d characters in a traffic file",
                                 path, line, TRAFFIC_LINE_MAX);
            break;
        }
        while (len > 0 && buf[len - 1] == '\r')
            buf[--len] = '\0';
        char *s = buf;
        if (line == 1 && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
            s += 3; /* a UTF-8 BOM, as the topology reader accepts it */
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        if (!seen_data && isalpha((unsigned char)*s)) {
            /* the optional header line */
            seen_data = 1;
            if (strncmp(s, "src", 3) != 0)
                rc = moore_error_set(err, MOORE_EINVAL,
                                     "%s:%ld: expected the header 'src,dst,demand' or data",
                                     path, line);
            continue;
        }
        seen_data = 1;
        if (count == tcap) {
            tcap = tcap ? 2 * tcap : 1024;
            triple *nt = realloc(tr, (size_t)tcap * sizeof *nt);
            if (!nt) {
                rc = moore_error_set(err, MOORE_ENOMEM, "out of memory reading '%s'", path);
                break;
            }
            tr = nt;
        }
        rc = parse_line(path, line, s, g, &tr[count], err);
        count += !rc;
    }
    if (!rc && ferror(f))
        rc = moore_error_set(err, MOORE_EIO, "error reading '%s'", path);
    fclose(f);
    if (!rc) {
        double total = 0;
        for (int64_t i = 0; i < count; i++)
            total += tr[i].d != tr[i].s ? tr[i].w : 0;
        if (!(total > 0))
            rc = moore_error_set(err, MOORE_EINVAL,
                                 "%s: no demand between two different switches", path);
    }
    if (!rc)
        rc = from_triples(g, tr, count, "file", out, err);
    free(tr);
    return rc;
}
