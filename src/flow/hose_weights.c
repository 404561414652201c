/* hose_weights.c — the intermediate weights of two-phase routing (hose.c):
 * which switches relay how much of every source's traffic.
 *
 * Any weights w (w ≥ 0, Σ w = 1) give a proven hose lower bound, so the
 * search for good ones needs no proof of its own. The two-phase matrix
 * M(w)(a,b) = p_a·w_b + w_a·p_b is linear in w, and so are the arc loads of
 * its shortest-path split. The switches are grouped into classes by colour
 * refinement (1-dimensional Weisfeiler–Leman, starting from the server
 * counts): automorphic switches always share a class, and by convexity
 * (1/θ of a two-phase matrix is convex in w) the best weights of a symmetric
 * graph are equal on each orbit, so little is lost by giving every member of
 * a class the same weight. With the split loads L_c of each class c (w
 * uniform on c), the best class weights solve the LP
 *     min z  s.t.  Σ_c x_c·L_c(a) ≤ z for every arc a,  Σ_c x_c = 1,  x ≥ 0,
 * K + 1 columns, solved by Clp; the bound is recomputed from the returned x
 * (clipped and renormalised), so it holds whatever Clp's tolerances. */
#include "moore/flow.h"
#include "core/alloc.h"
#include "flow_internal.h"

#include <coin/Clp_C_Interface.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

typedef struct wl_key {
    uint64_t hash;
    int32_t old, v;
} wl_key;

static int wl_cmp(const void *a, const void *b)
{
    const wl_key *x = a, *y = b;
    if (x->old != y->old)
        return x->old < y->old ? -1 : 1;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

static int u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* One round: the new class of v is its old class and the multiset of its
 * neighbours' classes (hashed; a collision only merges classes, which keeps
 * every bound valid). Returns the number of classes. */
static int32_t wl_round(const moore_graph *g, const int32_t *old, int32_t *out, wl_key *keys,
                        uint32_t *nb)
{
    int32_t m = 0;
    for (int32_t v = 0; v < g->n; v++) {
        if (old[v] < 0)
            continue;
        int32_t d = 0;
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
            nb[d++] = (uint32_t)old[g->adj[k]];
        qsort(nb, (size_t)d, sizeof *nb, u32_cmp);
        uint64_t h = 1469598103934665603ull;
        for (int32_t i = 0; i < d; i++)
            h = (h ^ nb[i]) * 1099511628211ull;
        keys[m++] = (wl_key){ h, old[v], v };
    }
    qsort(keys, (size_t)m, sizeof *keys, wl_cmp);
    int32_t classes = 0;
    for (int32_t i = 0; i < m; i++) {
        if (i == 0 || keys[i].hash != keys[i - 1].hash || keys[i].old != keys[i - 1].old)
            classes++;
        out[keys[i].v] = classes - 1;
    }
    for (int32_t v = 0; v < g->n; v++)
        if (old[v] < 0)
            out[v] = -1;
    return classes;
}

/* The refinement itself, in the caller's scratch (next, keys: n each; nb:
 * the largest degree + 1); the number of classes. */
static int32_t classes_refine(const moore_graph *g, const int32_t *p, const char *reach,
                              int32_t kmax, int32_t *cls, int32_t *next, wl_key *keys,
                              uint32_t *nb)
{
    int32_t n = g->n;
    /* round 0: the server count, numbered densely (unreachable: no class) */
    int32_t count = 0;
    for (int32_t v = 0; v < n; v++)
        keys[v] = (wl_key){ 0, reach[v] ? p[v] : -1, v };
    qsort(keys, (size_t)n, sizeof *keys, wl_cmp);
    for (int32_t i = 0; i < n; i++) {
        cls[keys[i].v] = -1;
        if (keys[i].old < 0)
            continue;
        if (count == 0 || keys[i].old != keys[i - 1].old)
            count++;
        cls[keys[i].v] = count - 1;
    }
    while (1) {
        int32_t more = wl_round(g, cls, next, keys, nb);
        if (more <= count || more > kmax)
            break;
        memcpy(cls, next, (size_t)n * sizeof *cls);
        count = more;
    }
    return count;
}

int flow_hose_classes(const moore_graph *g, const int32_t *p, const char *reach, int32_t kmax,
                      int32_t *cls, int32_t *k, moore_error *err)
{
    int32_t n = g->n;
    int32_t *next = moore_malloc((size_t)n, sizeof *next, err);
    wl_key *keys = moore_malloc((size_t)n, sizeof *keys, err);
    uint32_t *nb = moore_malloc((size_t)(moore_graph_degree_max(g) + 1), sizeof *nb, err);
    int rc = next && keys && nb ? MOORE_OK : core_alloc_code(err);
    if (!rc)
        *k = classes_refine(g, p, reach, kmax, cls, next, keys, nb);
    free(next);
    free(keys);
    free(nb);
    return rc;
}

int flow_hose_weight_lp(int32_t K, int64_t arcs, const double *L, double *x, moore_error *err)
{
    /* columns x_0..x_{K−1}, z; rows: one per arc with load, then Σ x = 1 */
    int64_t rows = 0;
    char *used = moore_calloc((size_t)(arcs ? arcs : 1), 1, err);
    if (!used)
        return core_alloc_code(err);
    for (int64_t a = 0; a < arcs; a++)
        for (int32_t c = 0; c < K && !used[a]; c++)
            if (L[(int64_t)c * arcs + a] > 0)
                used[a] = 1;
    for (int64_t a = 0; a < arcs; a++)
        rows += used[a];
    int64_t nnz = (rows + 1) * (K + 1);
    int rc = moore_memory_guard((double)nnz * 12.0, "hose: the weight LP", err);
    CoinBigIndex *start = rc ? NULL : moore_malloc((size_t)K + 2, sizeof *start, err);
    int *index = rc ? NULL : moore_malloc((size_t)nnz, sizeof *index, err);
    double *value = rc ? NULL : moore_malloc((size_t)nnz, sizeof *value, err);
    double *rlo = rc ? NULL : moore_malloc((size_t)rows + 1, sizeof *rlo, err);
    double *rhi = rc ? NULL : moore_malloc((size_t)rows + 1, sizeof *rhi, err);
    double obj[1024 + 1], chi[1024 + 1];
    if (!rc && (!start || !index || !value || !rlo || !rhi || K > 1024))
        rc = K > 1024 ? moore_error_set(err, MOORE_EINTERNAL, "hose: %d classes", (int)K)
                      : core_alloc_code(err);
    if (!rc) {
        CoinBigIndex e = 0;
        for (int32_t c = 0; c <= K; c++) {
            start[c] = e;
            int64_t r = 0;
            for (int64_t a = 0; a < arcs; a++) {
                if (!used[a])
                    continue;
                double v = c < K ? L[(int64_t)c * arcs + a] : -1.0;
                if (v != 0) {
                    index[e] = (int)r;
                    value[e++] = v;
                }
                r++;
            }
            if (c < K) {
                index[e] = (int)rows;
                value[e++] = 1.0;
            }
            obj[c] = c < K ? 0 : 1;
            chi[c] = c < K ? 1 : DBL_MAX;
        }
        start[K + 1] = e;
        for (int64_t r = 0; r < rows; r++) {
            rlo[r] = -DBL_MAX;
            rhi[r] = 0;
        }
        rlo[rows] = rhi[rows] = 1;
        Clp_Simplex *model = Clp_newModel();
        Clp_setLogLevel(model, 0); /* the library never prints */
        Clp_loadProblem(model, K + 1, (int)rows + 1, start, index, value, NULL, chi, obj, rlo,
                        rhi);
        Clp_dual(model, 0);
        const double *sol = Clp_getColSolution(model);
        double sum = 0;
        for (int32_t c = 0; c < K; c++) {
            x[c] = Clp_isProvenOptimal(model) && sol[c] > 0 ? sol[c] : 0;
            sum += x[c];
        }
        for (int32_t c = 0; c < K; c++) /* no answer: equal weights */
            x[c] = sum > 0 ? x[c] / sum : 1.0 / K;
        Clp_deleteModel(model);
    }
    free(used);
    free(start);
    free(index);
    free(value);
    free(rlo);
    free(rhi);
    return rc;
}
