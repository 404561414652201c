/* routing.c — the routing object: parsing "ksp:k=8"-style names, the
 * all-pairs distance rows every algorithm starts from (parallel moore_bfs),
 * the parallel builder of explicit path sets, and the per-algorithm dispatch.
 * Definitions are in include/moore/routing.h and docs/routing.md. */
#include "core/alloc.h"
#include "routing_internal.h"

#include "moore/paths.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void moore_routing_options_default(moore_routing_options *o)
{
    memset(o, 0, sizeof *o);
    o->algo = MOORE_ROUTE_ECMP;
    o->k = 8;
    o->samples = 8;
    o->seed = 1;
}

static const char *const ALGO_NAMES[] = { "minimal", "ecmp", "ksp", "valiant", "ugal" };

/* Parses one "key=value" of the algorithm's parameter list. */
static int parse_key(const char *algo, const char *kv, size_t len, moore_routing_options *o,
                     moore_error *err)
{
    const char *eq = memchr(kv, '=', len);
    if (!eq)
        return moore_error_set(err, MOORE_EINVAL, "routing: '%.*s' is not key=value", (int)len,
                               kv);
    size_t klen = (size_t)(eq - kv);
    char val[32];
    size_t vlen = len - klen - 1;
    if (vlen == 0 || vlen >= sizeof val)
        return moore_error_set(err, MOORE_EINVAL, "routing: bad value in '%.*s'", (int)len, kv);
    memcpy(val, eq + 1, vlen);
    val[vlen] = '\0';
    char *end;
    long long v = strtoll(val, &end, 10);
    int is_k = klen == 1 && kv[0] == 'k' && o->algo == MOORE_ROUTE_KSP;
    int is_samples = klen == 7 && strncmp(kv, "samples", 7) == 0 &&
                     (o->algo == MOORE_ROUTE_VALIANT || o->algo == MOORE_ROUTE_UGAL);
    int is_seed = klen == 4 && strncmp(kv, "seed", 4) == 0 &&
                  (o->algo == MOORE_ROUTE_VALIANT || o->algo == MOORE_ROUTE_UGAL);
    if (!is_k && !is_samples && !is_seed)
        return moore_error_set(err, MOORE_EINVAL, "routing: %s has no key '%.*s' (keys: %s)", algo,
                               (int)klen, kv,
                               o->algo == MOORE_ROUTE_KSP ? "k"
                               : o->algo >= MOORE_ROUTE_VALIANT ? "samples, seed" : "none");
    if (*end || end == val)
        return moore_error_set(err, MOORE_EINVAL, "routing: %.*s='%s' is not an integer",
                               (int)klen, kv, val);
    if (is_k) {
        if (v <= 0 || v > MOORE_ROUTE_KSP_MAX)
            return moore_error_set(err, MOORE_EINVAL,
                                   "routing: ksp k=%lld must be between 1 and %d", v,
                                   MOORE_ROUTE_KSP_MAX);
        o->k = (int32_t)v;
    } else if (is_samples) {
        if (v < 0 || v > MOORE_MAX_SWITCHES)
            return moore_error_set(err, MOORE_EINVAL,
                                   "routing: samples=%lld must be >= 0 (0: every switch)", v);
        o->samples = (int32_t)v;
    } else {
        if (v < 0)
            return moore_error_set(err, MOORE_EINVAL, "routing: seed=%lld must be >= 0", v);
        o->seed = (uint64_t)v;
    }
    return MOORE_OK;
}

int moore_routing_parse(const char *text, moore_routing_options *o, moore_error *err)
{
    if (!text || !*text)
        return moore_error_set(err, MOORE_EINVAL,
                               "routing: empty algorithm (known: minimal, ecmp, ksp, valiant, ugal)");
    size_t alen = strcspn(text, ":");
    int found = -1;
    for (int i = 0; i < 5; i++)
        if (strlen(ALGO_NAMES[i]) == alen && strncmp(ALGO_NAMES[i], text, alen) == 0)
            found = i;
    if (found < 0)
        return moore_error_set(err, MOORE_EINVAL,
                               "routing: unknown algorithm '%.*s' (known: minimal, ecmp, "
                               "ksp[:k=K], valiant[:samples=S,seed=X], ugal[:samples=S,seed=X])",
                               (int)alen, text);
    o->algo = (moore_route_algo)found;
    const char *s = text + alen;
    if (*s == ':')
        s++;
    while (*s) {
        size_t len = strcspn(s, ",");
        int rc = parse_key(ALGO_NAMES[found], s, len, o, err);
        if (rc)
            return rc;
        s += len + (s[len] == ',');
    }
    return MOORE_OK;
}

static void canonical_name(const moore_routing_options *o, char *buf, size_t len)
{
    if (o->algo == MOORE_ROUTE_KSP)
        snprintf(buf, len, "ksp:k=%d", (int)o->k);
    else if (o->algo == MOORE_ROUTE_VALIANT || o->algo == MOORE_ROUTE_UGAL)
        snprintf(buf, len, "%s:samples=%d,seed=%llu", ALGO_NAMES[o->algo], (int)o->samples,
                 (unsigned long long)o->seed);
    else
        snprintf(buf, len, "%s", ALGO_NAMES[o->algo]);
}

/* Distances from the 64 sources s0.. s0+cnt−1 at once (bit i of front[v]:
 * v is at the current distance from source s0+i): one level is
 *     next[v] = (OR of front[u] over u ∈ N(v)) & ~seen[v],
 * about 2E word operations for 64 sources against 64·2E for one BFS each.
 * The graph is undirected, so d(s,v) goes to row v, column s: 64 adjacent
 * entries. Returns the largest distance met (the batch stops once every pair
 * is reached; the graph is connected). */
static int32_t rows_batch(const moore_graph *g, int32_t s0, int32_t cnt, uint64_t *front,
                          uint64_t *next, uint64_t *seen, uint16_t *dist)
{
    int32_t n = g->n, d = 0;
    uint64_t full = cnt == 64 ? ~(uint64_t)0 : ((uint64_t)1 << cnt) - 1;
    memset(front, 0, (size_t)n * sizeof *front);
    memset(seen, 0, (size_t)n * sizeof *seen);
    for (int32_t i = 0; i < cnt; i++) {
        front[s0 + i] = seen[s0 + i] = (uint64_t)1 << i;
        dist[(int64_t)(s0 + i) * n + s0 + i] = 0;
    }
    int64_t remaining = (int64_t)cnt * (n - 1);
    while (remaining > 0) {
        d++;
        for (int32_t v = 0; v < n; v++) {
            uint64_t miss = full & ~seen[v], x = 0;
            if (miss)
                for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
                    x |= front[g->adj[k]];
            x &= miss;
            next[v] = x;
            seen[v] |= x;
            remaining -= __builtin_popcountll(x);
            uint16_t *row = dist + (int64_t)v * n + s0;
            for (; x; x &= x - 1)
                row[__builtin_ctzll(x)] = (uint16_t)(d > 65535 ? 65535 : d);
        }
        uint64_t *tmp = front;
        front = next;
        next = tmp;
    }
    return d;
}

/* Fills r->dist (allocated) from a BFS per source or a bit-parallel batch of
 * 64 sources, on every thread; ecc0: switch 0's eccentricity. */
static int rows_fill(const moore_graph *g, moore_routing *r, int32_t ecc0,
                     const moore_routing_options *o, moore_error *err)
{
    int32_t n = g->n;
    int bits = 2 * ecc0 < 48;
    int32_t units = bits ? (n + 63) / 64 : n;
    int bad = 0, fail = MOORE_OK; /* fail: shared, core/alloc.h */
    int64_t done = 0;
    int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
#pragma omp parallel num_threads(threads) reduction(| : bad)
    {
        uint64_t *words = bits ? core_par_malloc((size_t)n * 3, sizeof *words, &fail) : NULL;
        int32_t *d = bits ? NULL : core_par_malloc((size_t)n * 2, sizeof *d, &fail);
        int ok = words || d;
#pragma omp for schedule(dynamic, 1)
        for (int32_t u = 0; u < units; u++) {
            if (!ok)
                continue;
            if (bits) {
                int32_t s0 = 64 * u, cnt = n - s0 < 64 ? n - s0 : 64;
                bad |= rows_batch(g, s0, cnt, words, words + n, words + 2 * (int64_t)n,
                                  r->dist) > 65534;
            } else {
                bad |= moore_bfs(g, u, d, d + n) > 65534;
                uint16_t *row = r->dist + (int64_t)u * n;
                for (int32_t v = 0; v < n; v++)
                    row[v] = (uint16_t)(d[v] > 65535 ? 65535 : d[v]);
            }
            if (o->progress) {
#pragma omp atomic
                done++;
                if (omp_get_thread_num() == 0)
                    o->progress(o->progress_ctx, "distances", (double)done / units);
            }
        }
        free(words);
        free(d);
    }
    int rc = core_par_failed(err, fail, "routing: BFS scratch");
    if (!rc && bad)
        rc = moore_error_set(err, MOORE_EINVAL,
                             "routing: a distance exceeds 65534 hops (the routing limit)");
    return rc;
}

/* All-pairs hop distances as n·n uint16. Bit-parallel batches of 64 sources
 * when the graph's diameter is small (a batch costs a level per distance, so
 * it wins when the diameter is well below 64: every topology of the
 * catalogue at scale), else one moore_bfs per source; both in parallel. */
static int distance_rows(const moore_graph *g, moore_routing *r, const moore_routing_options *o,
                         moore_error *err)
{
    int32_t n = g->n, comps = 0;
    int32_t *comp = moore_malloc((size_t)(n ? n : 1) * 2, sizeof *comp, err);
    int rc = comp ? MOORE_OK : core_alloc_code(err);
    if (!rc)
        rc = moore_components(g, comp, &comps, err);
    if (!rc && comps > 1) {
        int32_t v = 1;
        while (comp[v] == comp[0])
            v++;
        rc = moore_error_set(err, MOORE_EINVAL,
                             "routing: the topology is disconnected: no path from switch 0 to "
                             "switch %d", (int)v);
    }
    /* diameter ≤ 2·ecc(0) */
    int32_t ecc0 = rc ? 0 : moore_bfs(g, 0, comp, comp + n);
    free(comp); /* before the rows: not part of the peak */
    if (!rc)
        rc = moore_memory_guard(2.0 * (double)n * (double)n,
                                "the routing's all-pairs distance rows", err);
    if (!rc && !(r->dist = moore_malloc((size_t)n * (size_t)n + 1, sizeof *r->dist, err)))
        rc = core_alloc_code(err);
    if (!rc)
        rc = rows_fill(g, r, ecc0, o, err);
    return rc;
}

int moore_routing_build(const moore_graph *g, const moore_routing_options *o,
                        moore_routing **out, moore_error *err)
{
    const char *stopped = NULL;
    int rc = route_build(g, o, out, &stopped, err);
    if (!rc && stopped)
        return moore_error_set(err, MOORE_EINVAL, "routing: stopped (%s) before every path "
                               "was built", stopped);
    return rc;
}

int route_build(const moore_graph *g, const moore_routing_options *o, moore_routing **out,
                const char **stopped, moore_error *err)
{
    *out = NULL;
    *stopped = NULL;
    moore_routing_options def;
    if (!o) {
        moore_routing_options_default(&def);
        o = &def;
    }
    if (o->algo == MOORE_ROUTE_KSP && (o->k <= 0 || o->k > MOORE_ROUTE_KSP_MAX))
        return moore_error_set(err, MOORE_EINVAL, "routing: ksp k=%d must be between 1 and %d",
                               (int)o->k, MOORE_ROUTE_KSP_MAX);
    if (g->n < 2)
        return moore_error_set(err, MOORE_EINVAL,
                               "routing: the topology has %d switch(es); routing needs two",
                               (int)g->n);
    moore_routing *r = moore_calloc(1, sizeof *r, err);
    int rc = r ? MOORE_OK : core_alloc_code(err);
    if (!rc) {
        r->n = g->n;
        r->algo = o->algo;
        canonical_name(o, r->name, sizeof r->name);
        rc = distance_rows(g, r, o, err);
    }
    if (!rc && o->algo == MOORE_ROUTE_KSP)
        rc = route_ksp_build(g, r, o, err);
    if (!rc && o->algo == MOORE_ROUTE_VALIANT)
        rc = route_valiant_build(g, r, o, 0, err);
    if (!rc && o->algo == MOORE_ROUTE_UGAL)
        rc = route_ugal_build(g, r, o, err);
    if (!rc && r->stopped)
        *stopped = r->stopped;
    if (!rc && !*stopped) { /* a stopped build is not handed over */
        *out = r;
        r = NULL;
    }
    moore_routing_free(r);
    return rc;
}

void moore_routing_free(moore_routing *r)
{
    if (!r)
        return;
    free(r->dist);
    free(r->pair_offs);
    free(r->path_offs);
    free(r->hops);
    free(r);
}

/* ---- explicit path sets ---- */

static int buf_grow(void **p, int64_t *cap, int64_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    int64_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, (size_t)c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

void route_buf_add(route_buf *b, const int32_t *seq, int32_t len, int32_t t)
{
    if (b->oom)
        return;
    int64_t caph = b->caphops, capp = b->cappaths, capp2 = b->cappaths;
    if (buf_grow((void **)&b->hops, &caph, b->nhops + len, sizeof *b->hops) ||
        buf_grow((void **)&b->ends, &capp, b->npaths + 1, sizeof *b->ends) ||
        buf_grow((void **)&b->dst, &capp2, b->npaths + 1, sizeof *b->dst)) {
        b->oom = 1;
        return;
    }
    b->caphops = caph;
    b->cappaths = capp;
    memcpy(b->hops + b->nhops, seq, (size_t)len * sizeof *seq);
    b->nhops += len;
    b->ends[b->npaths] = b->nhops;
    b->dst[b->npaths++] = t;
}

/* Appends the paths of sources s0.. (bufs[0..count−1]) to r's arrays
 * (grown geometrically; *caps: their room) and empties the buffers, keeping
 * their memory for the next round. */
static int explicit_append(moore_routing *r, route_buf *bufs, int32_t s0, int32_t count,
                           int64_t caps[2], const char *what, moore_error *err)
{
    int64_t n = r->n, paths = r->paths, hops = paths ? r->path_offs[paths] : 0;
    int64_t np = paths, nh = hops;
    for (int32_t i = 0; i < count; i++) {
        np += bufs[i].npaths;
        nh += bufs[i].nhops;
    }
    int rc = MOORE_OK;
    if (np + 1 > caps[0] || nh + 1 > caps[1]) {
        int64_t cp = np + 1 > caps[0] ? 2 * (np + 1) : caps[0];
        int64_t ch = nh + 1 > caps[1] ? 2 * (nh + 1) : caps[1];
        rc = moore_memory_guard(8.0 * (double)cp + 4.0 * (double)ch, what, err);
        int64_t *po = rc ? NULL : realloc(r->path_offs, (size_t)cp * sizeof *po);
        if (po)
            r->path_offs = po;
        int32_t *ho = po ? realloc(r->hops, (size_t)ch * sizeof *ho) : NULL;
        if (ho)
            r->hops = ho;
        if (!rc && !ho)
            return moore_error_set(err, MOORE_ENOMEM, "routing: out of memory storing %s", what);
        if (rc)
            return rc;
        caps[0] = cp;
        caps[1] = ch;
    }
    r->path_offs[0] = 0;
    for (int32_t i = 0; i < count; i++) {
        route_buf *b = &bufs[i];
        for (int64_t j = 0; j < b->npaths; j++) {
            r->pair_offs[(int64_t)(s0 + i) * n + b->dst[j] + 1]++;
            r->path_offs[paths + j + 1] = hops + b->ends[j];
        }
        memcpy(r->hops + hops, b->hops, (size_t)b->nhops * sizeof *b->hops);
        paths += b->npaths;
        hops += b->nhops;
        b->npaths = b->nhops = 0;
    }
    r->paths = paths;
    return rc;
}

/* Sources run in rounds of `chunk`, each round's paths appended to r's
 * arrays before the next: only one round's buffers are alive besides the
 * result, and their pages are reused (on slimfly:q=29 ksp:k=8, holding every
 * source's buffers and then copying them doubled the peak memory to 1.2 GB
 * and cost seconds of page faults). */
int route_explicit_build(const moore_graph *g, moore_routing *r, const moore_routing_options *o,
                         route_source_fn fn, void *ctx, double bytes_per_pair, const char *what,
                         moore_error *err)
{
    int32_t n = g->n;
    int64_t pairs = (int64_t)n * n, caps[2] = { 0, 0 };
    int rc = moore_memory_guard((double)pairs * (bytes_per_pair + 8.0), what, err);
    if (rc)
        return rc;
    int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    int32_t chunk = threads * 16 > 64 ? threads * 16 : 64;
    chunk = chunk < n ? chunk : n;
    route_buf *bufs = moore_calloc((size_t)chunk, sizeof *bufs, err);
    r->pair_offs = moore_calloc((size_t)pairs + 1, sizeof *r->pair_offs, err);
    if (!bufs || !r->pair_offs) {
        free(bufs);
        return core_alloc_code(err);
    }
    r->paths = 0;
    int64_t done = 0;
    double start = omp_get_wtime();
    int stop = 0; /* 1: time limit, 2: cancelled */
    for (int32_t s0 = 0; s0 < n && !rc && !stop; s0 += chunk) {
        int32_t count = n - s0 < chunk ? n - s0 : chunk;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
        for (int32_t s = s0; s < s0 + count; s++) {
            int halt;
#pragma omp atomic read
            halt = stop;
            if (!halt && o->cancelled && o->cancelled(o->cancel_ctx))
                halt = 2;
            if (!halt && o->time_limit > 0 && omp_get_wtime() - start >= o->time_limit)
                halt = 1;
            if (halt) {
#pragma omp atomic write
                stop = halt;
                continue;
            }
            fn(ctx, g, r, s, &bufs[s - s0]);
            if (o->progress) {
#pragma omp atomic
                done++;
                if (omp_get_thread_num() == 0)
                    o->progress(o->progress_ctx, what, (double)done / n);
            }
        }
        int oom = 0;
        for (int32_t i = 0; i < count; i++)
            oom |= bufs[i].oom;
        if (oom)
            rc = moore_error_set(err, MOORE_ENOMEM, "routing: out of memory storing %s", what);
        if (!rc && !stop)
            rc = explicit_append(r, bufs, s0, count, caps, what, err);
    }
    if (stop) /* the caller drops the routing: nothing to store */
        r->stopped = stop == 1 ? "time-limit" : "cancelled";
    if (!rc && !stop) {
        if (!r->path_offs && !(r->path_offs = moore_calloc(1, sizeof *r->path_offs, err)))
            rc = core_alloc_code(err);
        for (int64_t i = 0; !rc && i < pairs; i++)
            r->pair_offs[i + 1] += r->pair_offs[i];
        /* giving back the growth's room (keeping it on failure is fine too) */
        int64_t *po = realloc(r->path_offs, (size_t)(r->paths + 1) * sizeof *po);
        if (po)
            r->path_offs = po;
        int32_t *ho = r->hops ? realloc(r->hops, (size_t)(r->path_offs[r->paths] + 1) *
                                                     sizeof *ho) : NULL;
        if (ho)
            r->hops = ho;
    }
    for (int32_t s = 0; s < chunk; s++) {
        free(bufs[s].hops);
        free(bufs[s].ends);
        free(bufs[s].dst);
    }
    free(bufs);
    return rc;
}
