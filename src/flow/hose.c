/* hose.c — bounds on the hose throughput: the throughput every traffic
 * matrix gets in which each server sends at most 1 and receives at most 1
 * (docs/throughput.md, "Any traffic: the hose model").
 *
 * Lower bound: two-phase routing (Valiant 1982; Zhang-Shen & McKeown 2004).
 * Every source switch a sends a share w_k of its traffic to intermediate k
 * (Σ w = 1), and k forwards it to the destinations. For a hose matrix T the
 * first phase puts (Σ_t T(a,t))·w_k ≤ p_a·w_k on a→k and the second
 * w_k·Σ_s T(s,b) ≤ w_k·p_b on k→b, whatever T is. So every hose matrix is
 * carried at rate θ(M) where M(a,b) = p_a·w_b + w_a·p_b (a ≠ b; a phase whose
 * intermediate is its own end uses no link): a flow of M, scaled, carries the
 * two phases of any T. Two choices of w are measured:
 *   - w_k = p_k/S (classic VLB): M = 2·p·pᵀ/S = (2(S−1)/S)·U for the uniform
 *     matrix U of traffic.h, so θ(M) = θ(U)·S/(2(S−1)): half the uniform
 *     throughput up to the same-switch share;
 *   - w uniform over the switches without servers (the spines and cores of a
 *     Clos or fat-tree): leaves spread their traffic over the top of the
 *     tree, which carries any matrix at full rate when every leaf has as much
 *     uplink as servers.
 * With effort 2 the best oblivious routing of all (hose_oblivious.c) is
 * solved too when its LP, reduced by the automorphisms, is small enough,
 * and the larger lower bound is kept.
 * θ(M) is bounded from below by a feasible flow: each demand toward b split
 * evenly over all shortest paths (loads summed in fixed point rounded up, so
 * the bound is proven and independent of the thread count), and, on graphs
 * that fit, by the (1+ε) approximation's or the exact LP's lower bound.
 *
 * Upper bounds: θ(T) for any one hose matrix T bounds the minimum. Used: the
 * uniform matrix (its approximation's upper bound and its TUB), the longest
 * matching with each pair exchanging min(p_u, p_v) (its TUB, each pair's own
 * min-cost flow in hose_pairs.c, and with effort ≥ 1 the approximation's
 * upper bound), the permutation longest under that matching's dual lengths
 * (hose_dual.c; skipped when a cheaper bound already meets the lower one),
 * a balanced cut (A, B) with S_A ≤ S_B servers — every server
 * of A can send 1 to a distinct server of B, so θ ≤ cut/S_A — and a single
 * switch v with p_v ≤ S − p_v, whose servers can all send out: θ ≤ deg(v)/p_v. */
#include "moore/flow.h"
#include "moore/bisection.h"
#include "moore/paths.h"
#include "moore/symmetry.h"
#include "core/alloc.h"
#include "flow_internal.h"
#include "hose_internal.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Fixed point of the split's loads: 2^-36 units, rounded up per addition. */
#define HOSE_FIX 68719476736.0

/* The approximation needs the dense uniform matrix; above this many entries
 * (≈ 5,000 server switches, 300 MB) only the split and the cuts run. */
#define HOSE_DENSE_MAX 2.5e7

/* At most this many classes of intermediates, and splits worth at most this
 * many arc visits in all (a split visits every arc once per switch). */
#define HOSE_KMAX 32
#define HOSE_SPLIT_BUDGET 2e9

/* Servers per switch (1 each when the graph has none, as traffic.h does). */
static int32_t *hose_servers(const moore_graph *g, int64_t *total, moore_error *err)
{
    int32_t *p = moore_malloc((size_t)(g->n ? g->n : 1), sizeof *p, err);
    if (!p)
        return NULL;
    int64_t sum = moore_graph_endpoints_total(g);
    *total = 0;
    for (int32_t v = 0; v < g->n; v++) {
        p[v] = sum > 0 ? g->endpoints[v] : 1;
        *total += p[v];
    }
    return p;
}

/* Refuses a graph where two server switches cannot reach each other (their
 * hose throughput is 0); marks in reach[] the switches a server reaches. */
static int hose_connected(const moore_graph *g, const int32_t *p, char *reach, moore_error *err)
{
    int32_t first = -1;
    for (int32_t v = 0; v < g->n && first < 0; v++)
        if (p[v] > 0)
            first = v;
    int32_t *dist = moore_malloc((size_t)g->n, sizeof *dist, err);
    int32_t *queue = moore_malloc((size_t)g->n, sizeof *queue, err);
    int rc = dist && queue ? MOORE_OK : core_alloc_code(err);
    int32_t bad = -1;
    if (!rc) {
        moore_bfs(g, first, dist, queue);
        for (int32_t v = 0; v < g->n; v++) {
            reach[v] = dist[v] >= 0;
            if (p[v] > 0 && dist[v] < 0 && bad < 0)
                bad = v;
        }
    }
    if (!rc && bad >= 0)
        rc = moore_error_set(err, MOORE_EINVAL, "hose: switches %d and %d have servers but "
                             "cannot reach each other (the hose throughput is 0)",
                             (int)first, (int)bad);
    free(dist);
    free(queue);
    return rc;
}

/* Adds the loads of all of M's demand toward b, split evenly over shortest
 * paths, M(a,b) = p_a·w_b + w_a·p_b; returns Σ_a M(a,b)·dist(a,b). */
static double hose_split_toward(const moore_graph *g, const int32_t *p, const double *w,
                                int32_t b, int32_t *dist, int32_t *order, double *sigma,
                                double *flow, int64_t *load)
{
    int32_t reached = 0;
    moore_bfs(g, b, dist, order);
    for (int32_t v = 0; v < g->n; v++)
        reached += dist[v] >= 0; /* order[0..reached-1]: the BFS queue */
    sigma[b] = 1;
    for (int32_t i = 1; i < reached; i++) {
        int32_t v = order[i];
        double s = 0;
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
            if (dist[g->adj[k]] == dist[v] - 1)
                s += sigma[g->adj[k]];
        sigma[v] = s;
    }
    double hops = 0;
    for (int32_t i = 0; i < reached; i++) {
        int32_t v = order[i];
        flow[v] = v == b ? 0 : p[v] * w[b] + w[v] * p[b];
        hops += flow[v] * dist[v];
    }
    for (int32_t i = reached - 1; i > 0; i--) {
        int32_t v = order[i];
        if (flow[v] <= 0)
            continue;
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++) {
            int32_t u = g->adj[k];
            if (dist[u] != dist[v] - 1)
                continue;
            double x = flow[v] * sigma[u] / sigma[v];
            flow[u] += x;
            int64_t units = (int64_t)ceil(x * HOSE_FIX);
#pragma omp atomic
            load[k] += units;
        }
    }
    return hops;
}

/* Every destination b's split (hose_split_toward) on nt threads: the arcs'
 * loads into load (fixed point, HOSE_FIX), b's Σ M(a,b)·dist(a,b) into part[b]. */
static int hose_split_all(const moore_graph *g, const int32_t *p, const double *w, int nt,
                          int64_t *load, double *part, moore_error *err)
{
    int32_t n = g->n;
    int failed = 0;
#pragma omp parallel num_threads(nt)
    {
        int32_t *dist = core_par_malloc((size_t)n, sizeof *dist, &failed);
        int32_t *order = core_par_malloc((size_t)n, sizeof *order, &failed);
        double *sigma = core_par_malloc((size_t)n, sizeof *sigma, &failed);
        double *flow = core_par_malloc((size_t)n, sizeof *flow, &failed);
#pragma omp for schedule(dynamic, 8)
        for (int32_t b = 0; b < n; b++)
            if (dist && order && sigma && flow && (p[b] > 0 || w[b] > 0))
                part[b] = hose_split_toward(g, p, w, b, dist, order, sigma, flow, load);
        free(dist);
        free(order);
        free(sigma);
        free(flow);
    }
    return core_par_failed(err, failed, "hose: shortest-path split");
}

/* θ(M) ≥ *lower by the shortest-path split of M (see hose_split_toward);
 * *hops = Σ M(a,b)·dist(a,b), for TUB; loads (2|E| entries, may be NULL)
 * receives each arc's load. */
static int hose_split(const moore_graph *g, const int32_t *p, const double *w, int threads,
                      double *lower, double *hops, double *loads, moore_error *err)
{
    int32_t n = g->n;
    int nt = threads > 0 ? threads : omp_get_max_threads();
    int64_t *load = NULL;
    double *part = NULL;
    int rc = moore_memory_guard((double)g->m * 2 * sizeof(int64_t) +
                                    (double)nt * n * (2 * sizeof(int32_t) + 2 * sizeof(double)),
                                "hose: shortest-path split loads", err);
    if (!rc) {
        load = moore_calloc((size_t)(2 * g->m > 0 ? 2 * g->m : 1), sizeof *load, err);
        part = moore_calloc((size_t)n, sizeof *part, err);
        if (!load || !part)
            rc = core_alloc_code(err);
    }
    if (!rc)
        rc = hose_split_all(g, p, w, nt, load, part, err);
    if (!rc) {
        int64_t worst = 0;
        for (int64_t k = 0; k < 2 * g->m; k++) {
            if (load[k] > worst)
                worst = load[k];
            if (loads)
                loads[k] = (double)load[k] / HOSE_FIX;
        }
        double total = 0; /* in switch order: the same for any thread count */
        for (int32_t b = 0; b < n; b++)
            total += part[b];
        *lower = worst > 0 ? HOSE_FIX / (double)worst : INFINITY;
        *hops = total;
    }
    free(load);
    free(part);
    return rc;
}

/* The two-phase matrix M(a,b) = p_a·w_b + w_a·p_b as a traffic matrix. */
static int hose_matrix(const moore_graph *g, const int32_t *p, const double *w,
                       moore_traffic **out, moore_error *err)
{
    int64_t entries = 0;
    for (int32_t a = 0; a < g->n; a++)
        for (int32_t b = 0; b < g->n; b++)
            entries += a != b && p[a] * w[b] + w[a] * p[b] > 0;
    moore_traffic *t;
    int rc = flow_traffic_alloc(g->n, entries, "two-phase", &t, err);
    if (rc)
        return rc;
    int64_t k = 0;
    for (int32_t a = 0; a < g->n; a++) {
        t->offs[a] = k;
        for (int32_t b = 0; b < g->n; b++) {
            double d = a != b ? p[a] * w[b] + w[a] * p[b] : 0;
            if (d > 0) {
                t->dst[k] = b;
                t->demand[k++] = d;
                t->total += d;
            }
        }
    }
    t->offs[g->n] = k;
    *out = t;
    return MOORE_OK;
}

/* Solves θ(m) by the exact LP or the approximation; bounds to *lo, *hi. */
static int hose_solve(const moore_graph *g, const moore_traffic *m, const moore_flow_options *o,
                      int exact, double *lo, double *hi, moore_error *err)
{
    moore_flow_result f;
    int rc = exact ? moore_flow_exact(g, m, o, &f, err) : moore_flow_approx(g, m, o, &f, err);
    if (!rc) {
        *lo = f.lower;
        *hi = f.upper;
    }
    return rc;
}

/* Upper bounds from cuts: every single switch and, with metis, a balanced
 * cut of the servers. */
static int hose_cuts(const moore_graph *g, const int32_t *p, int64_t S, int metis,
                     double *bound, int *bisection, moore_error *err)
{
    *bound = INFINITY;
    *bisection = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (p[v] > 0 && 2 * (int64_t)p[v] <= S) {
            double c = (double)moore_graph_degree(g, v) / p[v];
            if (c < *bound)
                *bound = c;
        }
    if (!metis)
        return MOORE_OK;
    moore_bisection_options bo;
    moore_bisection_options_default(&bo);
    bo.spectral_max_switches = 0;
    moore_bisection_result br;
    int rc = moore_bisection_compute(g, &bo, &br, err);
    if (rc)
        return rc;
    int64_t small = br.weight[0] < br.weight[1] ? br.weight[0] : br.weight[1];
    if (br.valid && small > 0 && (double)br.cut / (double)small < *bound) {
        *bound = (double)br.cut / (double)small;
        *bisection = 1;
    }
    moore_bisection_result_clear(&br);
    return MOORE_OK;
}

/* The longest matching as a hose matrix (each pair exchanging min(p_u,p_v)):
 * its TUB, the pairs' own min-cost flows (hose_pairs.c) and, with effort
 * 1 / 2, the approximation's / the LP's upper bound on it. */
static int hose_matching(const moore_graph *g, const int32_t *p, const moore_flow_options *o,
                         int effort, moore_hose_result *h, moore_error *err)
{
    hose_pairs hp;
    int32_t exact_pairs, phases;
    h->worst_upper = INFINITY;
    int rc = flow_hose_pairs_worst(g, p, &hp, err);
    if (!rc)
        rc = flow_hose_pair_bound(g, &hp, o->threads, HOSE_SPLIT_BUDGET, &h->worst_tub,
                                  &h->pair_flow, &exact_pairs, err);
    /* the phases stop when they would not beat the cheaper bounds by 1% */
    double known = fmin(fmin(h->pair_flow, h->cut_bound), h->uniform_upper);
    if (!rc && hp.count > 0 && known > h->lower * (1 + 1e-6))
        rc = flow_hose_dual_bound(g, p, &hp, o->threads, HOSE_DUAL_BUDGET, 0.99 * known,
                                  &h->worst_dual, &phases, NULL, err);
    moore_traffic *t = NULL;
    if (!rc && effort >= 1 && hp.count > 0)
        rc = flow_hose_pairs_matrix(g, &hp, &t, err);
    double lo;
    if (!rc && t)
        rc = hose_solve(g, t, o, effort == 2, &lo, &h->worst_upper, err);
    moore_traffic_free(t);
    flow_hose_pairs_clear(&hp);
    return rc;
}

/* The largest arc load max_a Σ_c x_c·L_c(a) of a mix of the class splits. */
static double hose_mix_load(int32_t K, int64_t arcs, const double *L, const double *x)
{
    double worst = 0;
    for (int64_t a = 0; a < arcs; a++) {
        double sum = 0;
        for (int32_t c = 0; c < K; c++)
            sum += x[c] * L[(int64_t)c * arcs + a];
        if (sum > worst)
            worst = sum;
    }
    return worst;
}

/* Classes to weigh separately: as many as the splits' budget allows (each
 * class costs one split, O(switches·links)). */
static int32_t hose_kmax(const moore_graph *g)
{
    double work = (double)g->n * 2.0 * (double)(g->m > 0 ? g->m : 1);
    double k = HOSE_SPLIT_BUDGET / work;
    return k >= HOSE_KMAX ? HOSE_KMAX : k < 2 ? 2 : (int32_t)k;
}

/* Splits of every class (w uniform on it) into L (K × 2|E|) and hops[K];
 * the class sizes into size[]. */
static int hose_class_splits(const moore_graph *g, const int32_t *p, const int32_t *cls,
                             int32_t K, int threads, double *L, double *hops, int64_t *size,
                             moore_error *err)
{
    double *w = moore_malloc((size_t)g->n, sizeof *w, err);
    if (!w)
        return core_alloc_code(err);
    for (int32_t v = 0; v < g->n; v++)
        if (cls[v] >= 0)
            size[cls[v]]++;
    int rc = MOORE_OK;
    for (int32_t c = 0; c < K && !rc; c++) {
        for (int32_t v = 0; v < g->n; v++)
            w[v] = cls[v] == c ? 1.0 / (double)size[c] : 0;
        double lo;
        rc = hose_split(g, p, w, threads, &lo, &hops[c], L + (int64_t)c * 2 * g->m, err);
    }
    free(w);
    return rc;
}

/* Refines the bound of weights x (per class) by the approximation or the
 * exact LP on the whole two-phase matrix (effort 1 or 2). */
static int hose_refine(const moore_graph *g, const int32_t *p, const int32_t *cls,
                       const double *x, const int64_t *size, const moore_flow_options *o,
                       int effort, double *lower, moore_error *err)
{
    double *w = moore_malloc((size_t)g->n, sizeof *w, err);
    if (!w)
        return core_alloc_code(err);
    for (int32_t v = 0; v < g->n; v++)
        w[v] = cls[v] >= 0 ? x[cls[v]] / (double)size[cls[v]] : 0;
    moore_traffic *m = NULL;
    double hi;
    int rc = hose_matrix(g, p, w, &m, err);
    if (!rc)
        rc = hose_solve(g, m, o, effort == 2, lower, &hi, err);
    moore_traffic_free(m);
    free(w);
    return rc;
}

/* The uniform matrix's bounds by the approximation or the exact LP, and the
 * VLB bound they give. */
static int hose_uniform(const moore_graph *g, double scale, const moore_flow_options *o,
                        int effort, moore_hose_result *h, moore_error *err)
{
    moore_traffic *u = NULL;
    double lo = 0, hi = INFINITY;
    int rc = moore_traffic_uniform_compact(g, &u, err); /* O(n), not one entry per pair */
    if (!rc)
        rc = hose_solve(g, u, o, effort == 2, &lo, &hi, err);
    moore_traffic_free(u);
    if (rc)
        return rc;
    if (lo > h->uniform_lower)
        h->uniform_lower = lo;
    if (hi < h->uniform_upper)
        h->uniform_upper = hi;
    if (lo * scale > h->vlb) {
        h->vlb = lo * scale;
        h->method = effort == 2 ? "vlb-exact" : "vlb-approx";
    }
    return MOORE_OK;
}

/* The lower bounds: VLB (w ∝ servers) and the optimised class weights, from
 * the splits; with effort ≥ 1 also from the approximation (2: exact LP). */
static int hose_lower(const moore_graph *g, const int32_t *p, int64_t S, const char *reach,
                      const moore_flow_options *o, int effort, moore_hose_result *h,
                      moore_error *err)
{
    int32_t n = g->n, K = 0, with = 0;
    int64_t arcs = 2 * g->m;
    for (int32_t v = 0; v < n; v++)
        with += p[v] > 0;
    int32_t *cls = moore_malloc((size_t)n, sizeof *cls, err);
    int rc = cls ? flow_hose_classes(g, p, reach, hose_kmax(g), cls, &K, err)
                 : core_alloc_code(err);
    if (!rc)
        rc = moore_memory_guard((double)K * (double)arcs * sizeof(double), "hose: class loads",
                                err);
    double *L = rc ? NULL : moore_malloc((size_t)K * (size_t)arcs, sizeof *L, err);
    double *hops = rc ? NULL : moore_calloc((size_t)K, sizeof *hops, err);
    double *x = rc ? NULL : moore_calloc((size_t)K, sizeof *x, err);
    int64_t *size = rc ? NULL : moore_calloc((size_t)K, sizeof *size, err);
    if (!rc && (!L || !hops || !x || !size))
        rc = core_alloc_code(err);
    if (!rc)
        rc = hose_class_splits(g, p, cls, K, o->threads, L, hops, size, err);
    double scale = (double)S / (2.0 * (double)(S - 1)), vhops = 0;
    if (!rc) {
        /* VLB: w ∝ servers, constant on every class (classes refine p) */
        for (int32_t v = 0; v < n; v++)
            if (cls[v] >= 0)
                x[cls[v]] = (double)p[v] * (double)size[cls[v]] / (double)S;
        for (int32_t c = 0; c < K; c++)
            vhops += x[c] * hops[c];
        h->vlb = 1.0 / hose_mix_load(K, arcs, L, x);
        h->method = "vlb-split";
        /* M = (2(S−1)/S)·U: the uniform matrix's split bound and TUB */
        h->uniform_lower = h->vlb / scale;
        h->uniform_upper = vhops > 0 ? 2.0 * (double)g->m / (vhops * scale) : INFINITY;
        h->classes = K;
        rc = flow_hose_weight_lp(K, arcs, L, x, err);
    }
    if (!rc) {
        h->two_phase = 1.0 / hose_mix_load(K, arcs, L, x);
        int dense = effort == 2 || (effort == 1 && (double)with * (with - 1) <= HOSE_DENSE_MAX);
        if (dense)
            rc = hose_uniform(g, scale, o, effort, h, err);
        double lo = 0;
        if (!rc && dense && h->two_phase > h->vlb * (1 + 1e-9))
            rc = hose_refine(g, p, cls, x, size, o, effort, &lo, err);
        if (!rc && lo > h->two_phase) {
            h->two_phase = lo;
            h->two_phase_method = effort == 2 ? "two-phase-exact" : "two-phase-approx";
        } else
            h->two_phase_method = "two-phase-split";
    }
    h->lower = h->vlb;
    if (!rc && h->two_phase <= h->vlb) { /* VLB's weights are one choice of them */
        h->two_phase = h->vlb;
        h->two_phase_method = h->method;
    }
    if (!rc && h->two_phase > h->vlb) {
        h->lower = h->two_phase;
        h->method = h->two_phase_method;
    }
    free(cls);
    free(L);
    free(hops);
    free(x);
    free(size);
    return rc;
}

/* The optimal oblivious routing's bound (hose_oblivious.c), reduced by the
 * automorphisms that keep the server counts; the lower bound when larger. */
static int hose_oblivious(const moore_graph *g, const int32_t *p, const moore_flow_options *o,
                          moore_hose_result *h, moore_error *err)
{
    double kk = 0;
    for (int32_t v = 0; v < g->n; v++)
        kk += p[v] > 0;
    kk *= kk;
    if (kk * (2.0 * (double)g->m + g->n) > HOSE_OBLIVIOUS_MAX)
        return MOORE_OK; /* too large: not even the symmetry is sought */
    moore_symmetry_options so;
    moore_symmetry_options_default(&so);
    so.canonical = 0;
    so.respect_endpoints = moore_graph_endpoints_total(g) > 0;
    int32_t *gens = NULL, ngens = 0;
    int rc = moore_symmetry_generators(g, &so, &gens, &ngens, err);
    if (!rc)
        rc = flow_hose_oblivious(g, p, gens, ngens, o->threads, &h->oblivious,
                                 &h->oblivious_lp, err);
    if (!rc && h->oblivious > h->lower) {
        h->lower = h->oblivious;
        h->method = "oblivious-lp";
    }
    free(gens);
    return rc;
}

/* out->upper: the least of the upper bounds, and which one it is. */
static void hose_pick_upper(int effort, int bisection, moore_hose_result *out)
{
    out->upper = out->uniform_upper;
    out->upper_method = "uniform";
    if (out->worst_tub < out->upper) {
        out->upper = out->worst_tub;
        out->upper_method = "worst-tub";
    }
    if (out->pair_flow < out->upper) {
        out->upper = out->pair_flow;
        out->upper_method = "pair-flow";
    }
    if (out->worst_dual < out->upper) {
        out->upper = out->worst_dual;
        out->upper_method = "worst-dual";
    }
    if (out->worst_upper < out->upper) {
        out->upper = out->worst_upper;
        out->upper_method = effort == 2 ? "worst-exact" : "worst-approx";
    }
    if (out->cut_bound < out->upper) {
        out->upper = out->cut_bound;
        out->upper_method = bisection ? "bisection" : "switch-cut";
    }
}

int moore_flow_hose(const moore_graph *g, const moore_flow_options *o, int effort,
                    moore_hose_result *out, moore_error *err)
{
    memset(out, 0, sizeof *out);
    moore_flow_options def;
    o = flow_options_or_default(o, &def);
    int64_t S = 0;
    char *reach = NULL;
    int32_t *p = hose_servers(g, &S, err);
    int rc = p ? MOORE_OK : core_alloc_code(err);
    if (!rc) {
        out->servers = S;
        int32_t with = 0;
        for (int32_t v = 0; v < g->n; v++)
            with += p[v] > 0;
        if (with < 2)
            rc = moore_error_set(err, MOORE_EINVAL, "hose: %d switch%s with servers; the hose "
                                 "model needs servers on at least two switches", (int)with,
                                 with == 1 ? "" : "es");
    }
    int bisection = 0;
    if (!rc) {
        reach = moore_malloc((size_t)g->n, 1, err);
        rc = reach ? hose_connected(g, p, reach, err) : core_alloc_code(err);
    }
    if (!rc)
        rc = hose_lower(g, p, S, reach, o, effort, out, err);
    if (!rc && effort == 2)
        rc = hose_oblivious(g, p, o, out, err);
    out->worst_tub = out->pair_flow = out->worst_dual = out->worst_upper = INFINITY;
    if (!rc) /* first: when a cut meets the lower bound, no dual lengths are sought */
        rc = hose_cuts(g, p, S, effort >= 0, &out->cut_bound, &bisection, err);
    if (!rc && effort >= 0)
        rc = hose_matching(g, p, o, effort, out, err);
    if (!rc)
        hose_pick_upper(effort, bisection, out);
    free(reach);
    free(p);
    return rc;
}
