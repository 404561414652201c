/* orbits.c — exact all-pairs distance metrics from one BFS per automorphism
 * orbit, and the rule that decides when that is worth asking Traces for.
 *
 * An automorphism maps shortest paths to shortest paths, so every switch of an
 * orbit has the same distance distribution: the histogram of all ordered
 * pairs is Σ over orbits of |orbit| × (histogram seen from one member). A
 * vertex-transitive Slim Fly or torus then costs one BFS instead of N.
 *
 * Whether symmetry pays is decided cheaply before calling Traces: orbits
 * refine every vertex invariant, so when a cheap invariant (degree, triangles
 * through the switch, size of its 2-ball) already splits the switches into
 * many classes, the orbits are many too and the plain method runs; and when
 * many switches are twins (same neighbourhood), Traces itself is slow. */
#include "core/alloc.h"
#include "moore/symmetry.h"
#include "metrics/paths_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int moore_paths_by_orbits(const moore_graph *g, const int32_t *orbits,
                          const moore_metric_options *o, moore_paths_result *out,
                          moore_error *err)
{
    memset(out, 0, sizeof *out);
    int32_t n = g->n;
    for (int32_t v = 0; v < n; v++)
        if (orbits[v] < 0 || orbits[v] >= n || orbits[orbits[v]] != orbits[v])
            return moore_error_set(err, MOORE_EINVAL,
                                   "paths by orbits: orbits[%d]=%d is not an orbit "
                                   "representative (need orbits[orbits[v]] == orbits[v])",
                                   (int)v, (int)orbits[v]);
    int rc = metric_paths_components(g, out, err);
    if (rc || !out->connected)
        return rc;
    int32_t maxd = n > 1 ? n - 1 : 0;
    int64_t *size = NULL, *hist = NULL;
    int32_t *reps = NULL;
    size = moore_calloc((size_t)(n ? n : 1), sizeof *size, err);
    reps = moore_malloc((size_t)(n ? n : 1), sizeof *reps, err);
    hist = moore_calloc((size_t)maxd + 1, sizeof *hist, err);
    if (!size || !reps || !hist) {
        rc = core_alloc_code(err);
        goto done;
    }
    int32_t nreps = 0;
    for (int32_t v = 0; v < n; v++)
        size[orbits[v]]++;
    for (int32_t v = 0; v < n; v++)
        if (orbits[v] == v)
            reps[nreps++] = v;
    int failed = 0;
    int64_t done = 0;
#pragma omp parallel
    {
        int32_t *dist = core_par_malloc((size_t)(n ? n : 1), sizeof *dist, &failed);
        int32_t *q = core_par_malloc((size_t)(n ? n : 1), sizeof *q, &failed);
        int64_t *h = core_par_calloc((size_t)maxd + 1, sizeof *h, &failed);
        int ok = dist && q && h; /* every thread meets the loop, with or without scratch */
#pragma omp for schedule(dynamic, 1)
        for (int32_t i = 0; i < nreps; i++) {
            if (!ok)
                continue;
            moore_bfs(g, reps[i], dist, q);
            for (int32_t v = 0; v < n; v++)
                h[dist[v]] += size[reps[i]];
            int64_t k;
#pragma omp atomic capture
            k = ++done;
            if (o && o->progress && nreps >= 64 && k % (nreps / 64) == 0)
#pragma omp critical
                o->progress(o->progress_ctx, "distances by orbits", (double)k / nreps);
        }
        if (ok) {
#pragma omp critical
            for (int32_t d = 0; d <= maxd; d++)
                hist[d] += h[d];
        }
        free(dist);
        free(q);
        free(h);
    }
    if (failed) {
        rc = core_par_failed(err, failed, "distances by orbits");
        goto done;
    }
    metric_paths_finish(out, hist, maxd + 1);
    hist = NULL; /* out holds it now */
done:
    free(size);
    free(reps);
    free(hist);
    return rc;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Number of distinct (degree, triangles, 2-ball size) triples: a lower bound
 * on the number of orbits, in O(Σ deg²) time. -1 when out of memory. */
static int64_t invariant_classes(const moore_graph *g)
{
    int32_t n = g->n;
    uint64_t *key = moore_malloc((size_t)n, sizeof *key, NULL);
    if (!key)
        return -1;
    int failed = 0;
#pragma omp parallel
    {
        int32_t *mark = moore_malloc((size_t)n, sizeof *mark, NULL);
        if (!mark) {
#pragma omp atomic write
            failed = 1;
        } else {
            for (int32_t v = 0; v < n; v++)
                mark[v] = -1;
#pragma omp for schedule(dynamic, 256)
            for (int32_t v = 0; v < n; v++) {
                /* mark: 2*v for v and its neighbours, 2*v+1 for the second ring */
                int64_t tri2 = 0, ring2 = 0;
                mark[v] = 2 * v;
                for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
                    mark[g->adj[k]] = 2 * v;
                for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++) {
                    int32_t u = g->adj[k];
                    for (int64_t l = g->offs[u]; l < g->offs[u + 1]; l++) {
                        int32_t w = g->adj[l];
                        if (w == v)
                            continue;
                        if (mark[w] == 2 * v) /* w ~ v: triangle v,u,w (seen twice) */
                            tri2++;
                        else if (mark[w] != 2 * v + 1) {
                            mark[w] = 2 * v + 1;
                            ring2++;
                        }
                    }
                }
                uint64_t deg = (uint64_t)moore_graph_degree(g, v);
                key[v] = (deg & 0xfffffULL) << 44 | ((uint64_t)(tri2 / 2) & 0xfffffULL) << 24 |
                         ((uint64_t)ring2 & 0xffffffULL);
            }
        }
        free(mark);
    }
    int64_t classes = -1;
    if (!failed) {
        qsort(key, (size_t)n, sizeof *key, cmp_u64);
        classes = n > 0;
        for (int32_t v = 1; v < n; v++)
            classes += key[v] != key[v - 1];
    }
    free(key);
    return classes;
}

/* Switches that share their whole neighbourhood with another switch (twins,
 * e.g. a fat-tree's edge switches in one pod), found by hashing the sorted
 * rows. Twins make Traces' search tree as deep as their number (7 s for the
 * k=48 fat-tree), so symmetry is not "cheap" for such graphs. Hash
 * collisions only make the count larger, which errs on the safe side.
 * -1 when out of memory. */
static int64_t twin_switches(const moore_graph *g)
{
    int32_t n = g->n;
    uint64_t *key = moore_malloc((size_t)n, sizeof *key, NULL);
    if (!key)
        return -1;
#pragma omp parallel for schedule(dynamic, 256)
    for (int32_t v = 0; v < n; v++) {
        uint64_t h = 0xcbf29ce484222325ULL;
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
            h = (h ^ (uint64_t)(uint32_t)g->adj[k]) * 0x100000001b3ULL;
        key[v] = h;
    }
    qsort(key, (size_t)n, sizeof *key, cmp_u64);
    int64_t twins = 0;
    for (int32_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && key[j] == key[i]; j++)
            ;
        if (j - i > 1)
            twins += j - i;
    }
    free(key);
    return twins;
}

/* Distinct BFS distance profiles (switches at each distance) among
 * ORBIT_PROBES evenly spaced switches. Switches in one orbit have equal
 * profiles, so a graph with few orbits shows few profiles; a random regular
 * graph, which local invariants cannot tell from a symmetric one, shows a
 * different profile at nearly every switch and is not worth a Traces run
 * (17 s at 100,000 switches, to find the trivial group). -1 when out of memory. */
#define ORBIT_PROBES 32
#define ORBIT_PROBES_MAX_PROFILES 8

static int distance_profiles(const moore_graph *g)
{
    int32_t n = g->n;
    int32_t *dist = moore_malloc((size_t)n, sizeof *dist, NULL);
    int32_t *queue = moore_malloc((size_t)n, sizeof *queue, NULL);
    int64_t *count = moore_calloc((size_t)n, sizeof *count, NULL);
    uint64_t hash[ORBIT_PROBES];
    int distinct = -1;
    if (!dist || !queue || !count)
        goto done;
    for (int i = 0; i < ORBIT_PROBES; i++) {
        int32_t ecc = moore_bfs(g, (int32_t)((int64_t)i * n / ORBIT_PROBES), dist, queue);
        for (int32_t v = 0; v < n; v++)
            if (dist[v] >= 0)
                count[dist[v]]++;
        uint64_t h = 0xcbf29ce484222325ULL;
        for (int32_t d = 0; d <= ecc; d++) {
            h = (h ^ (uint64_t)count[d]) * 0x100000001b3ULL;
            count[d] = 0;
        }
        hash[i] = h;
    }
    qsort(hash, ORBIT_PROBES, sizeof *hash, cmp_u64);
    distinct = 1;
    for (int i = 1; i < ORBIT_PROBES; i++)
        distinct += hash[i] != hash[i - 1];
done:
    free(dist);
    free(queue);
    free(count);
    return distinct;
}

/* The bit-parallel cost model with the eccentricity of switch 0 for the
 * diameter (one BFS, O(E)); 0 when that BFS cannot run. */
static double all_pairs_words(const moore_graph *g)
{
    int32_t *dist = moore_malloc((size_t)g->n, sizeof *dist, NULL);
    if (!dist)
        return 0;
    int32_t ecc = moore_bfs(g, 0, dist, NULL);
    free(dist);
    return ecc > 0 ? (double)ecc * 2.0 * (double)g->m * (double)g->n / 64.0 : 0;
}

/* Switch count from which moore_paths_auto considers symmetry at all. */
#define ORBIT_PATHS_MIN_SWITCHES 2048
/* Estimated bit-parallel all-pairs work (ecc(0) · 2E · N / 64 words, about
 * 5·10^9 words a second on 2 cores; docs/performance.md) from which asking
 * Traces can pay off: below it the plain method finishes in well under a second,
 * while Traces alone can cost tens of milliseconds on an asymmetric graph. */
#define ORBIT_PATHS_MIN_WORDS 1e9

int moore_paths_auto(const moore_graph *g, const moore_metric_options *o,
                     moore_paths_result *out, int32_t *used_orbits, moore_error *err)
{
    if (used_orbits)
        *used_orbits = 0;
    int found = 0;
    int rc = moore_paths_closed_form(g, out, &found, err);
    if (rc || found)
        return rc;
    if (g->n >= ORBIT_PATHS_MIN_SWITCHES && all_pairs_words(g) >= ORBIT_PATHS_MIN_WORDS) {
        int profiles = distance_profiles(g);
        int64_t classes = profiles >= 0 && profiles <= ORBIT_PROBES_MAX_PROFILES
                              ? invariant_classes(g) : -1;
        int64_t twins = classes >= 0 ? twin_switches(g) : -1;
        if (classes >= 0 && classes <= g->n / 16 && twins >= 0 && twins <= g->n / 16) {
            moore_symmetry_options so;
            moore_symmetry_options_default(&so);
            so.canonical = 0;
            moore_symmetry_result s;
            moore_error serr;
            moore_error_clear(&serr);
            if (o && o->progress)
                o->progress(o->progress_ctx, "automorphism orbits", 0.0);
            rc = moore_symmetry_compute(g, &so, &s, &serr);
            if (rc == MOORE_OK) {
                if (s.n_orbits <= g->n / 4) {
                    rc = moore_paths_by_orbits(g, s.orbits, o, out, err);
                    if (!rc && used_orbits)
                        *used_orbits = s.n_orbits;
                    moore_symmetry_result_clear(&s);
                    return rc;
                }
                moore_symmetry_result_clear(&s);
            } else if (rc != MOORE_ETOOBIG && rc != MOORE_ENOMEM) {
                *err = serr;
                return rc;
            }
        }
    }
    return moore_paths_compute(g, o, out, err);
}
