/* diversity.c — shortest-path multiplicity and edge-disjoint paths, and the
 * "diversity" metric group.
 *
 * Multiplicity: BFS from a source counts paths level by level
 * (σ(w) = Σ σ(u) over neighbours u one level closer), as in Brandes'
 * betweenness algorithm. Per-source sums are added in source order, so the
 * mean does not depend on the number of threads.
 *
 * Edge-disjoint paths: Menger's theorem makes their number the s–t max-flow
 * with capacity 1 on each direction of each link. Dinic's algorithm runs on
 * the CSR itself: f[k] ∈ {−1,0,1} is the antisymmetric flow on arc k (its
 * reverse arc is rev[k]), and the residual capacity is 1 − f[k]. Flow stops
 * as soon as it reaches min(deg s, deg t), which for the regular graphs of
 * this project is usually the answer, so no final failing search is needed.
 * For all pairs, Gusfield's method needs only n−1 flows: each flow cuts the
 * current tree, and λ(u,v) is the smallest flow value on the u–v tree path. */
#include "moore/diversity.h"

#include "core/alloc.h"
#include "moore/paths.h"
#include "moore/rng.h"
#include "metrics/groups.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void moore_diversity_options_default(moore_diversity_options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->exact_max_switches = 4000;
    o->sample_pairs = 2000;
    o->sp_exact_max_switches = 5000;
    o->sp_sample_sources = 256;
}

/* ---- max-flow ---- */

typedef struct flow_ws {
    const moore_graph *g;
    const int64_t *rev;
    int8_t *f;          /* 2m arc flows */
    int32_t *level;     /* n BFS levels, -1 unreached or dead */
    int32_t *queue;     /* n */
    int64_t *it;        /* n current arcs */
    int32_t *pstack;    /* n+1 path vertices */
    int64_t *astack;    /* n path arcs */
} flow_ws;

static void flow_ws_clear(flow_ws *w)
{
    free(w->f);
    free(w->level);
    free(w->queue);
    free(w->it);
    free(w->pstack);
    free(w->astack);
    memset(w, 0, sizeof *w);
}

/* The scratch of one max-flow. 0, or (everything freed) the code of the
 * allocation that failed, also recorded in *fail (core/alloc.h), which a
 * parallel region may share. */
static int flow_ws_init(flow_ws *w, const moore_graph *g, const int64_t *rev, int *fail)
{
    size_t n = (size_t)g->n + 1, a = (size_t)(2 * g->m + 1);
    int code = MOORE_OK;
    w->g = g;
    w->rev = rev;
    w->f = core_par_malloc(a, sizeof *w->f, &code);
    w->level = core_par_malloc(n, sizeof *w->level, &code);
    w->queue = core_par_malloc(n, sizeof *w->queue, &code);
    w->it = core_par_malloc(n, sizeof *w->it, &code);
    w->pstack = core_par_malloc(n, sizeof *w->pstack, &code);
    w->astack = core_par_malloc(n, sizeof *w->astack, &code);
    if (code) {
        flow_ws_clear(w);
        core_par_note(fail, code);
    }
    return code;
}

/* flow_ws_init outside a parallel region: err set from the failed call. */
static int flow_ws_open(flow_ws *w, const moore_graph *g, const int64_t *rev, moore_error *err)
{
    int fail = MOORE_OK;
    flow_ws_init(w, g, rev, &fail);
    return core_par_failed(err, fail, "max-flow scratch");
}

/* Reverse-arc table: rev[k] for arc k = u→v is the position of u in v's row. */
static int64_t *reverse_arcs(const moore_graph *g, moore_error *err)
{
    int64_t *rev = moore_malloc((size_t)(2 * g->m + 1), sizeof *rev, err);
    if (!rev)
        return NULL;
    moore_graph_reverse_arcs(g, rev);
    return rev;
}

/* BFS in the residual graph from s; returns 1 when t is reached. */
static int residual_bfs(flow_ws *w, int32_t s, int32_t t)
{
    const moore_graph *g = w->g;
    for (int32_t v = 0; v < g->n; v++)
        w->level[v] = -1;
    int32_t head = 0, tail = 0;
    w->level[s] = 0;
    w->queue[tail++] = s;
    while (head < tail) {
        int32_t u = w->queue[head++];
        if (w->level[t] >= 0 && w->level[u] >= w->level[t])
            break;
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            int32_t v = g->adj[k];
            if (w->f[k] < 1 && w->level[v] < 0) {
                w->level[v] = w->level[u] + 1;
                w->queue[tail++] = v;
            }
        }
    }
    return w->level[t] >= 0;
}

/* Dinic max-flow s→t. When side is not NULL it receives a minimum cut:
 * side[v] = 1 for the switches on s's side. */
static int32_t max_flow(flow_ws *w, int32_t s, int32_t t, char *side)
{
    const moore_graph *g = w->g;
    int32_t ds = moore_graph_degree(g, s), dt = moore_graph_degree(g, t);
    int32_t limit = ds < dt ? ds : dt, flow = 0;
    memset(w->f, 0, (size_t)(2 * g->m) * sizeof *w->f);
    int reached = 1;
    while (flow < limit && (reached = residual_bfs(w, s, t))) {
        for (int32_t v = 0; v < g->n; v++)
            w->it[v] = g->offs[v];
        while (flow < limit) {
            /* One augmenting path in the level graph by iterative DFS. */
            int32_t top = 0;
            int found = 0;
            w->pstack[0] = s;
            while (top >= 0) {
                int32_t u = w->pstack[top];
                if (u == t) {
                    found = 1;
                    break;
                }
                int64_t k = w->it[u], end = g->offs[u + 1];
                while (k < end && !(w->f[k] < 1 && w->level[g->adj[k]] == w->level[u] + 1))
                    k++;
                w->it[u] = k;
                if (k == end) {
                    w->level[u] = -1;   /* dead end: drop it from the level graph */
                    if (--top >= 0)
                        w->it[w->pstack[top]]++;
                    continue;
                }
                w->astack[top] = k;
                w->pstack[++top] = g->adj[k];
            }
            if (!found)
                break;
            for (int32_t i = 0; i < top; i++) {
                int64_t k = w->astack[i];
                w->f[k]++;
                w->f[w->rev[k]]--;
            }
            flow++;
        }
    }
    if (side) {
        if (flow == ds) {
            memset(side, 0, (size_t)g->n);
            side[s] = 1;
        } else if (flow == dt) {
            memset(side, 1, (size_t)g->n);
            side[t] = 0;
        } else {
            /* The loop ended on a search that missed t: its reach is the cut. */
            (void)reached;
            for (int32_t v = 0; v < g->n; v++)
                side[v] = w->level[v] >= 0;
        }
    }
    return flow;
}

int moore_edge_disjoint_paths(const moore_graph *g, int32_t s, int32_t t, int32_t *paths,
                              moore_error *err)
{
    if (s < 0 || s >= g->n || t < 0 || t >= g->n || s == t)
        return moore_error_set(err, MOORE_EINVAL,
                               "disjoint paths: switches %d and %d must be distinct and in 0..%d",
                               (int)s, (int)t, (int)g->n - 1);
    flow_ws w = { 0 };
    int rc = MOORE_OK;
    int64_t *rev = reverse_arcs(g, err);
    if (!rev) {
        rc = core_alloc_code(err);
        goto done;
    }
    if ((rc = flow_ws_open(&w, g, rev, err)))
        goto done;
    *paths = max_flow(&w, s, t, NULL);
done:
    flow_ws_clear(&w);
    free(rev);
    return rc;
}

static void progress(const moore_metric_options *mo, const char *what, int64_t done,
                     int64_t total)
{
    if (mo && mo->progress && total >= 64 && done % (total / 64) == 0)
#pragma omp critical
        mo->progress(mo->progress_ctx, what, (double)done / (double)total);
}

/* ---- edge-disjoint paths over all pairs (Gusfield) or sampled pairs ---- */

/* Gusfield's flow tree as CSR: switch s > 0 linked to parent[s] with weight
 * fl[s] (the s–parent max-flow); pos is scratch of n entries. */
typedef struct flow_tree {
    const int64_t *offs;
    const int32_t *adj, *w;
} flow_tree;

static void tree_csr(int32_t n, const int32_t *parent, const int32_t *fl, int64_t *toffs,
                     int32_t *tadj, int32_t *tw, int64_t *pos)
{
    for (int32_t s = 1; s < n; s++) {
        toffs[s + 1]++;
        toffs[parent[s] + 1]++;
    }
    for (int32_t v = 0; v < n; v++)
        toffs[v + 1] += toffs[v];
    memcpy(pos, toffs, (size_t)n * sizeof *pos);
    for (int32_t s = 1; s < n; s++) {
        tadj[pos[s]] = parent[s];
        tw[pos[s]++] = fl[s];
        tadj[pos[parent[s]]] = s;
        tw[pos[parent[s]]++] = fl[s];
    }
}

/* A walk of the tree from u: for every v > u, the smallest weight on the
 * u–v tree path (= the u–v max-flow) into *mn, *mx and *sum. */
static void tree_walk(const flow_tree *t, int32_t u, int32_t *stack, int32_t *from, int32_t *low,
                      int32_t *mn, int32_t *mx, int64_t *sum)
{
    int32_t top = 0;
    stack[top++] = u;
    from[u] = -1;
    low[u] = INT32_MAX;
    while (top) {
        int32_t v = stack[--top];
        if (v > u) {
            *mn = low[v] < *mn ? low[v] : *mn;
            *mx = low[v] > *mx ? low[v] : *mx;
            *sum += low[v];
        }
        for (int64_t k = t->offs[v]; k < t->offs[v + 1]; k++)
            if (t->adj[k] != from[v]) {
                from[t->adj[k]] = v;
                low[t->adj[k]] = t->w[k] < low[v] ? t->w[k] : low[v];
                stack[top++] = t->adj[k];
            }
    }
}

static int disjoint_all_pairs(const moore_graph *g, const int64_t *rev,
                              const moore_metric_options *mo, moore_diversity_result *out,
                              moore_error *err)
{
    int32_t n = g->n;
    flow_ws w = { 0 };
    int64_t *toffs = NULL, *pos = NULL;
    int32_t *tadj = NULL, *tw = NULL;
    int32_t *parent = moore_calloc((size_t)n, sizeof *parent, err);
    int32_t *fl = moore_calloc((size_t)n, sizeof *fl, err);
    char *side = moore_malloc((size_t)n, 1, err);
    int rc = MOORE_OK;
    if (!parent || !fl || !side) {
        rc = core_alloc_code(err);
        goto done;
    }
    if ((rc = flow_ws_open(&w, g, rev, err)))
        goto done;
    for (int32_t s = 1; s < n; s++) {
        int32_t t = parent[s];
        fl[s] = max_flow(&w, s, t, side);
        for (int32_t i = s + 1; i < n; i++)
            if (side[i] && parent[i] == t)
                parent[i] = s;
        progress(mo, "disjoint paths (flow tree)", s, n);
    }
    /* Tree as CSR, then a walk from every switch keeping the path minimum. */
    toffs = moore_calloc((size_t)n + 1, sizeof *toffs, err);
    tadj = moore_malloc((size_t)(2 * n), sizeof *tadj, err);
    tw = moore_malloc((size_t)(2 * n), sizeof *tw, err);
    pos = moore_malloc((size_t)n, sizeof *pos, err);
    if (!toffs || !tadj || !tw || !pos) {
        rc = core_alloc_code(err);
        goto done;
    }
    tree_csr(n, parent, fl, toffs, tadj, tw, pos);
    flow_tree tree = { toffs, tadj, tw };
    {
        int32_t mn = INT32_MAX, mx = 0;
        int64_t sum = 0;
        int failed = 0;
#pragma omp parallel reduction(min : mn) reduction(max : mx) reduction(+ : sum)
        {
            int32_t *stack = core_par_malloc((size_t)n, sizeof *stack, &failed);
            int32_t *from = core_par_malloc((size_t)n, sizeof *from, &failed);
            int32_t *low = core_par_malloc((size_t)n, sizeof *low, &failed);
            int ok = stack && from && low; /* every thread meets the loop */
#pragma omp for schedule(dynamic, 16)
            for (int32_t u = 0; u < n; u++) {
                if (ok)
                    tree_walk(&tree, u, stack, from, low, &mn, &mx, &sum);
            }
            free(stack);
            free(from);
            free(low);
        }
        if (failed) {
            rc = core_par_failed(err, failed, "reading the flow tree");
            goto done;
        }
        out->dp_min = mn;
        out->dp_max = mx;
        out->dp_pairs = (int64_t)n * (n - 1) / 2;
        out->dp_mean = (double)sum / (double)out->dp_pairs;
        out->dp_exact = 1;
    }
done:
    flow_ws_clear(&w);
    free(side);
    free(parent);
    free(fl);
    free(toffs);
    free(tadj);
    free(tw);
    free(pos);
    return rc;
}

static int disjoint_sampled(const moore_graph *g, const int64_t *rev, int64_t pairs,
                            uint64_t seed, const moore_metric_options *mo,
                            moore_diversity_result *out, moore_error *err)
{
    int32_t n = g->n;
    int32_t *ps = moore_malloc((size_t)pairs, sizeof *ps, err);
    int32_t *pt = moore_malloc((size_t)pairs, sizeof *pt, err);
    int rc = MOORE_OK;
    if (!ps || !pt) {
        rc = core_alloc_code(err);
        goto done;
    }
    moore_rng rng;
    moore_rng_seed(&rng, seed);
    for (int64_t i = 0; i < pairs; i++) {
        ps[i] = (int32_t)moore_rng_below(&rng, (uint64_t)n);
        pt[i] = (int32_t)moore_rng_below(&rng, (uint64_t)(n - 1));
        if (pt[i] >= ps[i])
            pt[i]++;
    }
    int32_t mn = INT32_MAX, mx = 0;
    int64_t sum = 0, done = 0;
    int failed = 0;
#pragma omp parallel reduction(min : mn) reduction(max : mx) reduction(+ : sum)
    {
        flow_ws w;
        int ok = !flow_ws_init(&w, g, rev, &failed); /* every thread meets the loop */
#pragma omp for schedule(dynamic, 4)
        for (int64_t i = 0; i < pairs; i++) {
            if (!ok)
                continue;
            int32_t f = max_flow(&w, ps[i], pt[i], NULL);
            mn = f < mn ? f : mn;
            mx = f > mx ? f : mx;
            sum += f;
            int64_t k;
#pragma omp atomic capture
            k = ++done;
            progress(mo, "disjoint paths (sampled pairs)", k, pairs);
        }
        if (ok)
            flow_ws_clear(&w);
    }
    if (failed) {
        rc = core_par_failed(err, failed, "max-flow scratch");
        goto done;
    }
    out->dp_min = mn;
    out->dp_max = mx;
    out->dp_pairs = pairs;
    out->dp_mean = (double)sum / (double)pairs;
    out->dp_exact = 0;
done:
    free(ps);
    free(pt);
    return rc;
}

/* ---- shortest-path multiplicity ---- */

/* sigma[v] = the number of shortest s→v paths, for every v reached (BFS from
 * s; dist and q are scratch of n entries). */
static void sigma_from(const moore_graph *g, int32_t s, int32_t *dist, int32_t *q, double *sigma)
{
    int32_t head = 0, tail = 0;
    for (int32_t v = 0; v < g->n; v++)
        dist[v] = -1;
    dist[s] = 0;
    sigma[s] = 1;
    q[tail++] = s;
    while (head < tail) {
        int32_t u = q[head++];
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            int32_t w = g->adj[k];
            if (dist[w] < 0) {
                dist[w] = dist[u] + 1;
                sigma[w] = 0;
                q[tail++] = w;
            }
            if (dist[w] == dist[u] + 1)
                sigma[w] += sigma[u];
        }
    }
}

/* The sp_* fields of out from the per-source sums (in source order, so the
 * mean is the same for any thread count) and the pooled histogram. */
static void sp_store(moore_diversity_result *out, const double *srcsum, int32_t ns, int32_t n,
                     double mn, double mx, const int64_t *hist, int exact)
{
    double total = 0;
    for (int32_t i = 0; i < ns; i++)
        total += srcsum[i];
    out->sp_min = mn;
    out->sp_max = mx;
    out->sp_mean = total / ((double)ns * (double)(n - 1));
    out->sp_sources = ns;
    out->sp_exact = exact;
    memcpy(out->sp_hist, hist, MOORE_SP_HIST * sizeof *hist);
    out->sp_hist_len = 0;
    for (int i = 0; i < MOORE_SP_HIST; i++)
        if (hist[i])
            out->sp_hist_len = i + 1;
}

static int shortest_path_counts(const moore_graph *g, const moore_diversity_options *o,
                                const moore_metric_options *mo, moore_diversity_result *out,
                                moore_error *err)
{
    int32_t n = g->n;
    int exact = n <= o->sp_exact_max_switches || o->sp_sample_sources >= n;
    int32_t ns = exact ? n : o->sp_sample_sources;
    int32_t *src = moore_malloc((size_t)n, sizeof *src, err);
    double *srcsum = moore_calloc((size_t)ns, sizeof *srcsum, err);
    int rc = MOORE_OK;
    if (!src || !srcsum) {
        rc = core_alloc_code(err);
        goto done;
    }
    for (int32_t v = 0; v < n; v++)
        src[v] = v;
    if (!exact) {
        moore_rng rng;
        moore_rng_seed(&rng, o->seed ^ 0x5350u);
        moore_rng_shuffle_i32(&rng, src, n);
    }
    double mn = INFINITY, mx = 0;
    int64_t hist[MOORE_SP_HIST] = { 0 }, done = 0;
    int failed = 0;
#pragma omp parallel reduction(min : mn) reduction(max : mx)
    {
        int32_t *dist = core_par_malloc((size_t)n, sizeof *dist, &failed);
        int32_t *q = core_par_malloc((size_t)n, sizeof *q, &failed);
        double *sigma = core_par_malloc((size_t)n, sizeof *sigma, &failed);
        int64_t h[MOORE_SP_HIST] = { 0 };
        int ok = dist && q && sigma; /* every thread meets the loop */
#pragma omp for schedule(dynamic, 8)
        for (int32_t i = 0; i < ns; i++) {
            if (!ok)
                continue;
            int32_t s = src[i];
            sigma_from(g, s, dist, q, sigma);
            double sum = 0;
            for (int32_t v = 0; v < n; v++) {
                if (v == s)
                    continue;
                double c = sigma[v];
                sum += c;
                mn = c < mn ? c : mn;
                mx = c > mx ? c : mx;
                h[c >= MOORE_SP_HIST ? MOORE_SP_HIST - 1 : (int)c - 1]++;
            }
            srcsum[i] = sum;
            int64_t k;
#pragma omp atomic capture
            k = ++done;
            progress(mo, "shortest-path multiplicity", k, ns);
        }
        if (ok) {
#pragma omp critical
            for (int i = 0; i < MOORE_SP_HIST; i++)
                hist[i] += h[i];
        }
        free(dist);
        free(q);
        free(sigma);
    }
    if (failed) {
        rc = core_par_failed(err, failed, "counting shortest paths");
        goto done;
    }
    sp_store(out, srcsum, ns, n, mn, mx, hist, exact);
done:
    free(src);
    free(srcsum);
    return rc;
}

int moore_diversity_compute(const moore_graph *g, const moore_diversity_options *o,
                            const moore_metric_options *mo, moore_diversity_result *out,
                            moore_error *err)
{
    moore_diversity_options def;
    if (!o) {
        moore_diversity_options_default(&def);
        o = &def;
    }
    memset(out, 0, sizeof *out);
    if (g->n < 2)
        return MOORE_OK;
    if (o->sample_pairs < 1 || o->sp_sample_sources < 1)
        return moore_error_set(err, MOORE_EINVAL,
                               "diversity: sample_pairs=%lld and sp_sample_sources=%d must be "
                               "at least 1", (long long)o->sample_pairs,
                               (int)o->sp_sample_sources);
    int32_t comps;
    int rc = moore_components(g, NULL, &comps, err);
    if (rc || comps > 1)
        return rc;
    rc = moore_memory_guard(8.0 * 2 * (double)g->m + 64.0 * g->n * 2, "diversity", err);
    if (rc)
        return rc;
    rc = shortest_path_counts(g, o, mo, out, err);
    if (rc)
        return rc;
    int64_t *rev = reverse_arcs(g, err);
    if (!rev)
        return core_alloc_code(err);
    if (g->n <= o->exact_max_switches)
        rc = disjoint_all_pairs(g, rev, mo, out, err);
    else
        rc = disjoint_sampled(g, rev, o->sample_pairs, o->seed, mo, out, err);
    free(rev);
    if (!rc)
        out->valid = 1;
    return rc;
}

/* ---- the "diversity" metric group ---- */

static int report_count(moore_report *r, const char *key, double v, moore_error *err)
{
    return v < 9007199254740992.0 ? moore_report_int(r, key, (int64_t)v, err)
                                  : moore_report_double(r, key, v, err);
}

int metric_diversity(const moore_graph *g, const moore_metric_options *o,
                           moore_report *r, moore_error *err)
{
    moore_diversity_options dopt;
    moore_diversity_options_default(&dopt);
    if (o)
        dopt.seed = o->seed;
    moore_diversity_result d;
    int rc = moore_diversity_compute(g, &dopt, o, &d, err);
    if (rc)
        return rc;
    if (!d.valid) {
        const char *keys[] = { "shortest_paths_min", "shortest_paths_mean", "shortest_paths_max",
                               "shortest_paths_histogram", "disjoint_paths_min",
                               "disjoint_paths_mean", "disjoint_paths_max" };
        for (size_t i = 0; !rc && i < sizeof keys / sizeof *keys; i++)
            rc = moore_report_null(r, keys[i], err);
        return rc;
    }
    rc = report_count(r, "shortest_paths_min", d.sp_min, err);
    if (!rc) rc = moore_report_double(r, "shortest_paths_mean", d.sp_mean, err);
    if (!rc) rc = report_count(r, "shortest_paths_max", d.sp_max, err);
    if (!rc) rc = moore_report_int_array(r, "shortest_paths_histogram", d.sp_hist,
                                         d.sp_hist_len, err);
    if (!rc) rc = moore_report_int(r, "shortest_paths_sources", d.sp_sources, err);
    if (!rc) rc = moore_report_int(r, "disjoint_paths_min", d.dp_min, err);
    if (!rc) rc = moore_report_double(r, "disjoint_paths_mean", d.dp_mean, err);
    if (!rc) rc = moore_report_int(r, "disjoint_paths_max", d.dp_max, err);
    if (!rc) rc = moore_report_int(r, "disjoint_paths_pairs", d.dp_pairs, err);
    if (!rc) rc = moore_report_bool(r, "disjoint_paths_exact", d.dp_exact, err);
    return rc;
}
