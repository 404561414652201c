/* fold.c — a symmetric traffic matrix solved on half the commodities.
 *
 * Every link is two arcs of capacity 1. When T(s,t) = T(t,s) for every pair,
 * the maximum concurrent flow equals that of the *undirected* problem: each
 * unordered pair {s,t} asks for T(s,t) + T(t,s) of flow in either direction,
 * each link carries at most 2 in total. One way: a directed routing and its
 * mirror (every flow reversed, which routes T transposed = T) average to a
 * routing that loads both arcs of a link equally, so it is an undirected
 * routing within 2. The other way: route the pair's flow as found, half of it
 * for (s,t) forward and half for (t,s) backwards; every arc then carries half
 * of its link's total, at most 1. The folded matrix gives each unordered pair
 * to one owner — s owns t when t − s mod n lies in the first half of the
 * circle (ties broken by id), so every switch owns about half of its pairs
 * and a matching's pairs fall to one side each — with the summed demand.
 *
 * Why: the worst case (a longest matching) and uniform traffic are
 * symmetric, and the solvers' cost grows with the commodities: the
 * approximation runs one shortest-path search per source (half as many for
 * a matching), column generation has half the capacity rows (one per link)
 * and half the entries per column. Both solvers keep their bounds on the
 * original directed problem (see fptas.c, colgen.c), so nothing they prove
 * depends on this fold. A matrix with a pair that differs, or a repeated
 * destination in a row, is not folded. */
#include "core/alloc.h"
#include "flow_internal.h"

#include <stdlib.h>
#include <string.h>

/* Whether s owns the unordered pair {s, t}. */
static int fold_owns(int32_t n, int32_t s, int32_t t)
{
    int64_t d = ((int64_t)t - s + n) % n;
    return 2 * d < n || (2 * d == n && s < t);
}

/* The transpose of t's pattern: for each switch, the demands into it
 * (tr_src[k], tr_dem[k] for k in tr_offs[v]..tr_offs[v+1]). */
typedef struct fold_transpose {
    int64_t *offs;
    int32_t *src;
    double *dem;
} fold_transpose;

/* It fills the caller's tr: on failure what it allocated is left to the
 * caller's free of tr's arrays. */
static int fold_transpose_make(const moore_traffic *t, fold_transpose *tr, moore_error *err)
{
    int64_t e = t->offs[t->n];
    int rc = moore_memory_guard((double)e * 12.0 + (double)t->n * 8.0,
                                "the transposed traffic matrix", err);
    if (!rc) {
        tr->offs = moore_calloc((size_t)t->n + 2, sizeof *tr->offs, err);
        tr->src = moore_malloc((size_t)(e ? e : 1), sizeof *tr->src, err);
        tr->dem = moore_malloc((size_t)(e ? e : 1), sizeof *tr->dem, err);
        if (!tr->offs || !tr->src || !tr->dem)
            rc = core_alloc_code(err);
    }
    if (!rc) {
        for (int64_t k = 0; k < e; k++)
            tr->offs[t->dst[k] + 2]++;
        for (int32_t v = 0; v < t->n; v++)
            tr->offs[v + 2] += tr->offs[v + 1];
        for (int32_t s = 0; s < t->n; s++)
            for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++) {
                int64_t at = tr->offs[t->dst[k] + 1]++;
                tr->src[at] = s;
                tr->dem[at] = t->demand[k];
            }
    }
    return rc;
}

/* Whether row s of t equals row s of the transpose (scratch: n doubles,
 * zero on entry and on return; mark: n bytes, likewise). */
static int fold_row_symmetric(const moore_traffic *t, const fold_transpose *tr, int32_t s,
                              double *scratch, char *mark)
{
    int ok = tr->offs[s + 1] - tr->offs[s] == t->offs[s + 1] - t->offs[s];
    for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++) {
        ok = ok && !mark[t->dst[k]];
        mark[t->dst[k]] = 1;
        scratch[t->dst[k]] = t->demand[k];
    }
    for (int64_t k = tr->offs[s]; ok && k < tr->offs[s + 1]; k++)
        ok = mark[tr->src[k]] && scratch[tr->src[k]] == tr->dem[k];
    for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++) {
        mark[t->dst[k]] = 0;
        scratch[t->dst[k]] = 0;
    }
    return ok;
}

/* The folded matrix of a symmetric t: the owned half of each row, doubled. */
static int fold_build(const moore_traffic *t, moore_traffic **out, moore_error *err)
{
    int64_t e = 0;
    for (int32_t s = 0; s < t->n; s++)
        for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++)
            e += fold_owns(t->n, s, t->dst[k]);
    int rc = flow_traffic_alloc(t->n, e, t->name, out, err);
    if (rc)
        return rc;
    moore_traffic *f = *out;
    e = 0;
    for (int32_t s = 0; s < t->n; s++) {
        f->offs[s] = e;
        for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++)
            if (fold_owns(t->n, s, t->dst[k])) {
                f->dst[e] = t->dst[k];
                f->demand[e++] = 2 * t->demand[k];
            }
    }
    f->offs[t->n] = e;
    f->total = t->total;
    f->unit_endpoints = t->unit_endpoints;
    return MOORE_OK;
}

int flow_fold_symmetric(const moore_traffic *t, moore_traffic **folded, moore_error *err)
{
    *folded = NULL;
    fold_transpose tr = { NULL, NULL, NULL };
    double *scratch = NULL;
    char *mark = NULL;
    int rc = fold_transpose_make(t, &tr, err);
    if (rc)
        goto done;
    scratch = moore_calloc((size_t)t->n + 1, sizeof *scratch, err);
    mark = moore_calloc((size_t)t->n + 1, 1, err);
    if (!scratch || !mark) {
        rc = core_alloc_code(err);
        goto done;
    }
    int symmetric = 1;
    for (int32_t s = 0; symmetric && s < t->n; s++)
        symmetric = fold_row_symmetric(t, &tr, s, scratch, mark);
    if (symmetric)
        rc = fold_build(t, folded, err);

done:
    free(tr.offs);
    free(tr.src);
    free(tr.dem);
    free(scratch);
    free(mark);
    return rc;
}
