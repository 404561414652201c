/* jellyfish.c — Jellyfish (Singla et al., NSDI'12): a random regular graph
 * of switches, and its incremental expansion (docs/xpander.md).
 *
 * Construction: the configuration model (shuffle n·d ports and pair them up)
 * gives a uniformly random d-regular *multigraph*; the few self-loops and
 * repeated links it makes (about (d²−1)/4 in expectation) are repaired one
 * by one by swapping each with a random good link a–b, c–e → a–c, b–e,
 * accepted only when neither new link is a loop or already present. A graph
 * that comes out disconnected is joined by swapping a link of one component
 * with a link of another, which always merges the two. Every loop is bounded:
 * after too many failed swaps the pairing is redrawn, and after a few redraws
 * the build fails with a message instead of spinning.
 *
 * Dense requests (2d ≥ n) are built as the complement of a random
 * (n−1−d)-regular graph: the pairing would be mostly loops and repeats there,
 * while the complement is sparse, and a graph of minimum degree ≥ n/2 is
 * connected by itself.
 *
 * Each switch's ports live in a fixed row of d slots holding link ids, so
 * "is u–v a link" is a scan of d slots and a swap rewrites four slots. */
#include "families.h"
#include "moore/jellyfish.h"
#include "moore/rng.h"
#include "core/alloc.h"
#include "core/csr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const moore_param_info fam_jellyfish_params[] = {
    { "n", "", "switches" },
    { "d", "", "network degree (links per switch); n*d must be even and d < n" },
    MOORE_PARAM_SEED("1"),
    MOORE_PARAM_P("d"),
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

typedef struct pairing {
    int32_t n, d;
    int64_t m;
    int32_t *eu, *ev;   /* link j joins eu[j] and ev[j] */
    int64_t *slot;      /* slot[v*d + i] = id of a link at v (a loop fills two slots) */
    char *bad;          /* 1 for a loop or a second copy of a link */
} pairing;

static void pairing_clear(pairing *p)
{
    free(p->eu);
    free(p->ev);
    free(p->slot);
    free(p->bad);
    p->eu = p->ev = NULL;
    p->slot = NULL;
    p->bad = NULL;
}

static int32_t other_end(const pairing *p, int64_t j, int32_t v)
{
    return p->eu[j] == v ? p->ev[j] : p->eu[j];
}

static int has_link(const pairing *p, int32_t u, int32_t v)
{
    const int64_t *s = p->slot + (int64_t)u * p->d;
    for (int32_t i = 0; i < p->d; i++)
        if (other_end(p, s[i], u) == v)
            return 1;
    return 0;
}

/* Replaces one slot of v holding link `from` by `to`. */
static void reslot(pairing *p, int32_t v, int64_t from, int64_t to)
{
    int64_t *s = p->slot + (int64_t)v * p->d;
    for (int32_t i = 0; i < p->d; i++)
        if (s[i] == from) {
            s[i] = to;
            return;
        }
}

/* Link j = a–b and link r = c–e become a–c (id j) and b–e (id r). */
static void swap_links(pairing *p, int64_t j, int32_t a, int32_t b, int64_t r, int32_t c,
                       int32_t e)
{
    reslot(p, b, j, r);
    reslot(p, c, r, j);
    p->eu[j] = a;
    p->ev[j] = c;
    p->eu[r] = b;
    p->ev[r] = e;
}

static int cmp_key(const void *x, const void *y)
{
    const int64_t *a = x, *b = y;
    if (a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/* Draws a random pairing and marks loops and repeated links. */
static int pairing_draw(pairing *p, moore_rng *rng, int64_t *nbad, moore_error *err)
{
    int64_t ports = (int64_t)p->n * p->d;
    int32_t *stub = moore_malloc((size_t)ports, sizeof *stub, err);
    int64_t *key = moore_malloc(2 * (size_t)p->m, sizeof *key, err);
    int32_t *fill = moore_calloc((size_t)p->n, sizeof *fill, err);
    int rc = MOORE_OK;
    if (!stub || !key || !fill) {
        rc = core_alloc_code(err);
        goto done;
    }
    for (int64_t i = 0; i < ports; i++)
        stub[i] = (int32_t)(i / p->d);
    moore_rng_shuffle_i32(rng, stub, ports);
    for (int64_t j = 0; j < p->m; j++) {
        int32_t u = stub[2 * j], v = stub[2 * j + 1];
        p->eu[j] = u;
        p->ev[j] = v;
        p->slot[(int64_t)u * p->d + fill[u]++] = j;
        p->slot[(int64_t)v * p->d + fill[v]++] = j;
        int32_t a = u < v ? u : v, b = u < v ? v : u;
        key[2 * j] = ((int64_t)a << 32) | b;
        key[2 * j + 1] = j;
        p->bad[j] = u == v;
    }
    qsort(key, (size_t)p->m, 2 * sizeof *key, cmp_key);
    for (int64_t i = 1; i < p->m; i++)
        if (key[2 * i] == key[2 * (i - 1)])
            p->bad[key[2 * i + 1]] = 1;
    *nbad = 0;
    for (int64_t j = 0; j < p->m; j++)
        *nbad += p->bad[j];
done:
    free(stub);
    free(key);
    free(fill);
    return rc;
}

/* Swaps every bad link away; returns 0 when the attempt budget ran out. */
static int pairing_repair(pairing *p, moore_rng *rng, int64_t nbad)
{
    int64_t budget = 1000 + 200 * nbad + 4 * p->m;
    for (int64_t j = 0; j < p->m; j++) {
        while (p->bad[j]) {
            if (budget-- <= 0)
                return 0;
            int64_t r = (int64_t)moore_rng_below(rng, (uint64_t)p->m);
            if (p->bad[r])
                continue;
            int32_t a = p->eu[j], b = p->ev[j], c = p->eu[r], e = p->ev[r];
            if (moore_rng_below(rng, 2)) {
                int32_t t = c;
                c = e;
                e = t;
            }
            /* {a,b} ∩ {c,e} = ∅ rules out loops and makes both new links
             * differ from the two being replaced, so has_link needs no
             * exclusions. */
            if (c == a || c == b || e == a || e == b || has_link(p, a, c) || has_link(p, b, e))
                continue;
            swap_links(p, j, a, b, r, c, e);
            p->bad[j] = 0;
        }
    }
    return 1;
}

/* Component labels by BFS over the slots. */
static int32_t pairing_components(const pairing *p, int32_t *comp, int32_t *queue)
{
    for (int32_t v = 0; v < p->n; v++)
        comp[v] = -1;
    int32_t k = 0;
    for (int32_t s = 0; s < p->n; s++) {
        if (comp[s] >= 0)
            continue;
        int32_t head = 0, tail = 0;
        comp[s] = k;
        queue[tail++] = s;
        while (head < tail) {
            int32_t u = queue[head++];
            for (int32_t i = 0; i < p->d; i++) {
                int32_t w = other_end(p, p->slot[(int64_t)u * p->d + i], u);
                if (comp[w] < 0) {
                    comp[w] = k;
                    queue[tail++] = w;
                }
            }
        }
        k++;
    }
    return k;
}

/* Joins components: a link a–b of the component of switch 0 and a link c–e
 * of another become a–c and b–e, which crosses and so merges them (and can
 * create neither a loop nor a repeat, as no link crossed before). */
static int pairing_connect(pairing *p, moore_rng *rng, moore_error *err)
{
    int32_t *comp = moore_malloc((size_t)p->n, sizeof *comp, err);
    int32_t *queue = moore_malloc((size_t)p->n, sizeof *queue, err);
    int64_t *pool = moore_malloc((size_t)p->m, sizeof *pool, err);
    int rc = MOORE_OK;
    if (!comp || !queue || !pool) {
        rc = core_alloc_code(err);
        goto done;
    }
    int32_t count = pairing_components(p, comp, queue);
    for (int32_t other = 1; other < count; other++) {
        int64_t n0 = 0, n1 = 0;
        for (int64_t j = 0; j < p->m; j++)
            if (comp[p->eu[j]] == 0)
                pool[n0++] = j;
        for (int64_t j = 0; j < p->m; j++)
            if (comp[p->eu[j]] == other)
                pool[n0 + n1++] = j;
        int64_t j = pool[moore_rng_below(rng, (uint64_t)n0)];
        int64_t r = pool[n0 + (int64_t)moore_rng_below(rng, (uint64_t)n1)];
        int32_t a = p->eu[j], b = p->ev[j], c = p->eu[r], e = p->ev[r];
        swap_links(p, j, a, b, r, c, e);
        for (int32_t v = 0; v < p->n; v++)
            if (comp[v] == other)
                comp[v] = 0;
    }
done:
    free(comp);
    free(queue);
    free(pool);
    return rc;
}

/* Tells the caller of a build (moore_topology_load_progress) how far it is:
 * a hundred million switches take minutes. pp is NULL for the API calls. */
static void jf_progress(const moore_params *pp, const char *what, double fraction)
{
    if (pp && pp->progress)
        pp->progress(pp->progress_ctx, what, fraction);
}

/* A simple random d-regular graph (connected when `connect`), as link lists. */
static int sparse_regular(int32_t n, int32_t d, moore_rng *rng, int connect, pairing *p,
                          const moore_params *pp, moore_error *err)
{
    memset(p, 0, sizeof *p);
    p->n = n;
    p->d = d;
    p->m = (int64_t)n * d / 2;
    p->eu = moore_malloc((size_t)(p->m ? p->m : 1), sizeof *p->eu, err);
    p->ev = moore_malloc((size_t)(p->m ? p->m : 1), sizeof *p->ev, err);
    p->slot = moore_malloc((size_t)n * (size_t)(d ? d : 1), sizeof *p->slot, err);
    p->bad = moore_malloc((size_t)(p->m ? p->m : 1), 1, err);
    const int restarts = 50;
    int rc = MOORE_OK;
    if (!p->eu || !p->ev || !p->slot || !p->bad) {
        rc = core_alloc_code(err);
        goto done;
    }
    if (p->m == 0)
        goto done;
    for (int attempt = 0; attempt < restarts; attempt++) {
        int64_t nbad;
        if (attempt == 0)   /* a retry keeps the fraction where it was */
            jf_progress(pp, "jellyfish: pairing ports", 0.0);
        rc = pairing_draw(p, rng, &nbad, err);
        if (rc)
            goto done;
        jf_progress(pp, "jellyfish: repairing loops", 0.3);
        if (!pairing_repair(p, rng, nbad))
            continue;
        jf_progress(pp, "jellyfish: connecting", 0.4);
        rc = connect ? pairing_connect(p, rng, err) : MOORE_OK;
        goto done;
    }
    rc = moore_error_set(err, MOORE_EINTERNAL,
                         "jellyfish: no simple %d-regular graph on %d switches after %d random "
                         "pairings with repair",
                         (int)d, (int)n, restarts);
done:
    if (rc)
        pairing_clear(p);
    return rc;
}

static int check_nd(int64_t n, int64_t d, moore_error *err)
{
    if (d < 1)
        return moore_error_set(err, MOORE_EINVAL, "jellyfish: d=%lld must be at least 1",
                               (long long)d);
    if (d >= n)
        return moore_error_set(err, MOORE_EINVAL,
                               "jellyfish: d=%lld needs more than d switches (n=%lld)",
                               (long long)d, (long long)n);
    if ((n * d) % 2)
        return moore_error_set(err, MOORE_EINVAL,
                               "jellyfish: n*d = %lld*%lld is odd, so no %lld-regular graph on "
                               "%lld switches exists",
                               (long long)n, (long long)d, (long long)d, (long long)n);
    if (d == 1 && n > 2)
        return moore_error_set(err, MOORE_EINVAL,
                               "jellyfish: d=1 on n=%lld switches is a matching, never connected",
                               (long long)n);
    return MOORE_OK;
}

/* Adds the pairing's links to b, telling progress every 2^22 links. */
static int add_pairing(moore_builder *b, const pairing *p, const moore_params *pp,
                       moore_error *err)
{
    int rc = MOORE_OK;
    for (int64_t j = 0; !rc && j < p->m; j++) {
        if ((j & ((1 << 22) - 1)) == 0)
            jf_progress(pp, "jellyfish: links", 0.5 + 0.3 * (double)j / (double)p->m);
        rc = moore_builder_add_link(b, p->eu[j], p->ev[j], err);
    }
    return rc;
}

static int random_regular(int32_t n, int32_t d, uint64_t seed, const moore_params *pp,
                          moore_graph **out, moore_error *err)
{
    *out = NULL;
    int rc = check_nd(n, d, err);
    if (rc)
        return rc;
    rc = moore_memory_guard((double)n * d * 24.0 + 64.0 * n, "this Jellyfish", err);
    if (rc)
        return rc;
    moore_rng rng;
    moore_rng_seed(&rng, seed);
    int dense = 2 * (int64_t)d >= n;
    int32_t dd = dense ? n - 1 - d : d;
    pairing p;
    moore_builder *b = NULL;
    char *mark = NULL;
    rc = sparse_regular(n, dd, &rng, !dense, &p, pp, err); /* p is freed on failure */
    if (rc)
        return rc;
    rc = moore_builder_new(n, (int64_t)n * d / 2, &b, err);
    if (!rc && !dense) {
        rc = add_pairing(b, &p, pp, err);
    } else if (!rc) {
        /* The complement: u–v for every v > u that is not a link of p. */
        mark = moore_calloc((size_t)n, 1, err);
        if (!mark)
            rc = core_alloc_code(err);
        for (int32_t u = 0; !rc && u < n; u++) {
            for (int32_t i = 0; i < dd; i++)
                mark[other_end(&p, p.slot[(int64_t)u * dd + i], u)] = 1;
            for (int32_t v = u + 1; !rc && v < n; v++)
                if (!mark[v])
                    rc = moore_builder_add_link(b, u, v, err);
            for (int32_t i = 0; i < dd; i++)
                mark[other_end(&p, p.slot[(int64_t)u * dd + i], u)] = 0;
        }
    }
    if (rc)
        goto done;
    jf_progress(pp, "jellyfish: sorting links", 0.8);
    rc = moore_builder_finish(b, out, err);
    b = NULL; /* finish frees it */
    jf_progress(pp, "jellyfish: done", 1.0);
done:
    free(mark);
    pairing_clear(&p);
    moore_builder_free(b);
    return rc;
}

int moore_jellyfish_random_regular(int32_t n, int32_t d, uint64_t seed, moore_graph **out,
                                   moore_error *err)
{
    return random_regular(n, d, seed, NULL, out, err);
}

/* ---- the family ---- */

static int jellyfish_read(moore_params *p, int64_t *n, int64_t *d, int32_t *ep,
                          moore_error *err)
{
    int rc = moore_params_int(p, "n", -1, 2, MOORE_MAX_SWITCHES, n, err);
    if (!rc)
        rc = moore_params_int(p, "d", -1, 1, MOORE_MAX_SWITCHES, d, err);
    if (!rc && (*n < 0 || *d < 0))
        rc = moore_error_set(err, MOORE_EINVAL, "jellyfish: n= and d= are required");
    if (!rc)
        rc = check_nd(*n, *d, err);
    if (!rc)
        rc = moore_family_resolve_endpoints(p, (int32_t)*d, (int32_t)*d, ep, err);
    return rc;
}

int fam_jellyfish_counts(moore_params *p, moore_counts *c, moore_error *err)
{
    int64_t n, d, seed;
    int32_t ep;
    int rc = jellyfish_read(p, &n, &d, &ep, err);
    if (!rc)
        rc = moore_params_int(p, "seed", 1, 0, INT64_MAX, &seed, err);
    if (rc)
        return rc;
    c->switches = n;
    c->links = n * d / 2;
    c->degree_min = c->degree_max = (int32_t)d;
    c->endpoints = n * ep;
    c->diameter = d == n - 1 ? 1 : -1;
    return MOORE_OK;
}

int fam_jellyfish_build(moore_params *p, moore_graph **out, moore_error *err)
{
    int64_t n, d, seed;
    int32_t ep;
    int rc = jellyfish_read(p, &n, &d, &ep, err);
    if (!rc)
        rc = moore_params_int(p, "seed", 1, 0, INT64_MAX, &seed, err);
    moore_graph *g = NULL;
    if (!rc)
        rc = random_regular((int32_t)n, (int32_t)d, (uint64_t)seed, p, &g, err);
    if (!rc)
        rc = moore_graph_set_endpoints_uniform(g, ep, err);
    if (!rc) {
        *out = g;
        g = NULL;
    }
    moore_graph_free(g);
    return rc;
}

/* Radix R split 1:1 as in the paper: d = ⌊R/2⌋ network ports, p = R − d. */
int fam_jellyfish_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                         moore_error *err)
{
    int32_t d = radix / 2, p = radix - d;
    if (d < 2)
        return MOORE_OK;
    const int64_t sizes[] = { 1000, 10000, 100000, 1000000 };
    int count = endpoints > 0 ? 1 : 4;
    for (int i = 0; i < count; i++) {
        int64_t want = endpoints > 0 ? endpoints : sizes[i];
        int64_t n = (want + p - 1) / p;
        if (n < d + 1)
            n = d + 1;
        if ((n * d) % 2)
            n++;
        if (n > MOORE_MAX_SWITCHES)
            break;
        int rc = fam_emit(emit, ctx, err, "jellyfish:n=%lld,d=%d,radix=%d",
                                   (long long)n, (int)d, (int)radix);
        if (rc)
            return rc;
    }
    return MOORE_OK;
}

/* ---- expansion ---- */

/* Refuses an expansion that cannot work before any allocation; *half is the
 * links a new switch takes (degree / 2, the default degree the largest). */
static int expand_check(const moore_graph *g, int32_t add, int32_t *degree, int32_t *half,
                        moore_error *err)
{
    if (add < 1)
        return moore_error_set(err, MOORE_EINVAL,
                               "expand: %d switches to add; at least 1 is needed", (int)add);
    if ((int64_t)g->n + add > MOORE_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL, "expand: %d + %d switches exceeds the limit %d",
                               (int)g->n, (int)add, MOORE_MAX_SWITCHES);
    if (*degree <= 0)
        *degree = moore_graph_degree_max(g);
    *half = *degree / 2;
    if (*half < 1)
        return moore_error_set(err, MOORE_EINVAL,
                               "expand: a new switch of degree %d takes no link (needs >= 2)",
                               (int)*degree);
    if (g->m < *half)
        return moore_error_set(err, MOORE_EINVAL,
                               "expand: the topology has %lld links, fewer than the %d a new "
                               "switch of degree %d takes",
                               (long long)g->m, (int)*half, (int)*degree);
    return MOORE_OK;
}

/* The growing link list: links eu[j]–ev[j], j < cnt. */
typedef struct expand_links {
    int32_t *eu, *ev;
    int64_t cnt;
} expand_links;

/* Attaches new switch w to `half` random links with distinct ends: each
 * u–v becomes u–w (reusing its slot) and v–w (appended). nb: 2·half scratch. */
static int expand_attach(expand_links *l, int32_t w, int32_t half, moore_rng *rng, int32_t *nb,
                         moore_error *err)
{
    int32_t got = 0;
    int64_t budget = 1000 + 50 * (int64_t)half;
    while (got < half) {
        if (budget-- <= 0)
            return moore_error_set(err, MOORE_EINVAL,
                                   "expand: switch %d found no %d links with distinct, unused "
                                   "ends (the topology is too small)",
                                   (int)w, (int)half);
        int64_t j = (int64_t)moore_rng_below(rng, (uint64_t)l->cnt);
        int32_t u = l->eu[j], v = l->ev[j];
        int clash = 0;
        for (int32_t i = 0; i < 2 * got; i++)
            clash |= nb[i] == u || nb[i] == v;
        if (clash)
            continue;
        nb[2 * got] = u;
        nb[2 * got + 1] = v;
        l->ev[j] = w;
        l->eu[l->cnt] = v;
        l->ev[l->cnt++] = w;
        got++;
    }
    return MOORE_OK;
}

/* The graph of n switches with the links of l and the endpoints ep; its
 * origin records the expansion: "expand" with add, degree, seed and of=SPEC. */
static int expand_graph(const moore_graph *g, const expand_links *l, int32_t n,
                        const int32_t *ep, int32_t add, int32_t degree, uint64_t seed,
                        moore_graph **out, moore_error *err)
{
    moore_builder *b = NULL;
    moore_graph *x = NULL;
    *out = NULL;
    int rc = moore_builder_new(n, l->cnt, &b, err);
    for (int64_t j = 0; !rc && j < l->cnt; j++)
        rc = moore_builder_add_link(b, l->eu[j], l->ev[j], err);
    if (rc)
        goto done;
    rc = moore_builder_finish(b, &x, err);
    b = NULL; /* finish frees it */
    if (rc)
        goto done;
    rc = moore_graph_set_endpoints(x, ep, err);
    if (!rc) {
        char params[256];
        const char *of = moore_graph_spec(g);
        snprintf(params, sizeof params, "add=%d,degree=%d,seed=%llu,of=%s", (int)add,
                 (int)degree, (unsigned long long)seed, of ? of : "file"); /* expand: SPEC */
        rc = moore_graph_set_origin(x, "expand", params, err);
    }
    if (!rc) {
        *out = x;
        x = NULL;
    }
done:
    moore_builder_free(b);
    moore_graph_free(x);
    return rc;
}

/* Steps: check, copy the links, attach each new switch in turn (with the
 * ports a new switch of the old radix has left as endpoints), build. */
int moore_jellyfish_expand(const moore_graph *g, int32_t add, int32_t degree, uint64_t seed,
                           moore_graph **out, moore_error *err)
{
    *out = NULL;
    int32_t half = 0;
    int rc = expand_check(g, add, &degree, &half, err);
    if (rc)
        return rc;
    int32_t radix = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (moore_graph_degree(g, v) + g->endpoints[v] > radix)
            radix = moore_graph_degree(g, v) + g->endpoints[v];
    int32_t n = g->n + add;
    int64_t m = g->m + (int64_t)add * half;
    if ((rc = moore_memory_guard(16.0 * (double)m + 8.0 * n, "this expansion", err)))
        return rc;
    expand_links l = { NULL, NULL, g->m };
    int32_t *ep = NULL, *nb = NULL;
    l.eu = moore_malloc((size_t)m, sizeof *l.eu, err);
    l.ev = moore_malloc((size_t)m, sizeof *l.ev, err);
    ep = moore_malloc((size_t)n, sizeof *ep, err);
    nb = moore_malloc(2 * (size_t)half, sizeof *nb, err);
    if (!l.eu || !l.ev || !ep || !nb) {
        rc = core_alloc_code(err);
        goto done;
    }
    core_csr_links(g, l.eu, l.ev);
    memcpy(ep, g->endpoints, (size_t)g->n * sizeof *ep);
    moore_rng rng;
    moore_rng_seed(&rng, seed);
    for (int32_t w = g->n; !rc && w < n; w++) {
        rc = expand_attach(&l, w, half, &rng, nb, err);
        ep[w] = radix - 2 * half > 0 ? radix - 2 * half : 0;
    }
    if (!rc)
        rc = expand_graph(g, &l, n, ep, add, degree, seed, out, err);
done:
    free(l.eu);
    free(l.ev);
    free(ep);
    free(nb);
    return rc;
}
