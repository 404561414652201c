/* lp.c — exact throughput by linear programming with COIN-OR Clp.
 *
 * Edge formulation with one commodity per source switch s (all of s's demands
 * share one flow; for fractional flow, demands with a common source aggregate
 * without loss). It is written in min-congestion form, which is the same LP
 * as "maximise θ" up to θ = β/λ:
 *   minimise λ
 *   for each source s, switch v ≠ s:  in_s(v) − out_s(v) = β·T(s,v)
 *   for each arc a:                   Σ_s f_s(a) − λ ≤ 0
 *   f ≥ 0.
 * The demand sits in the right-hand sides instead of in a θ column that
 * touches every conservation row, and β = TUB keeps λ near 1 for good
 * numerics. Arcs into s are left out of commodity s (flow returning to its
 * source is never needed). K sources, n switches, m links make
 * K·(2m − deg) + 1 columns and K(n−1) + 2m rows: a few hundred switches is
 * the practical limit, so the size is checked against memory first. */
#include "moore/flow.h"

#include <coin/Clp_C_Interface.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void moore_flow_options_default(moore_flow_options *o)
{
    memset(o, 0, sizeof *o);
    o->eps = 0.05;
}

/* Sizes of the LP for g and t. */
static void lp_size(const moore_graph *g, const moore_traffic *t, double *cols, double *rows,
                    double *nnz)
{
    double c = 1, r = 2.0 * (double)g->m, z = 2.0 * (double)g->m;
    for (int32_t s = 0; s < g->n; s++) {
        if (t->offs[s + 1] == t->offs[s])
            continue;
        double arcs = 2.0 * (double)g->m - moore_graph_degree(g, s);
        c += arcs;
        r += g->n - 1;
        z += 3.0 * arcs;
    }
    *cols = c;
    *rows = r;
    *nnz = z;
}

double moore_flow_exact_bytes(const moore_graph *g, const moore_traffic *t)
{
    double cols, rows, nnz;
    lp_size(g, t, &cols, &rows, &nnz);
    /* Our column-major copy (12 B per element) and Clp's copies of it (a
     * column and a row copy plus the scaled one), plus Clp's per-row and
     * per-column work arrays (~20 doubles each) and factorisation headroom. */
    return 60.0 * nnz + 200.0 * (cols + rows);
}

int moore_flow_exact(const moore_graph *g, const moore_traffic *t,
                     const moore_flow_options *o, moore_flow_result *out, moore_error *err)
{
    (void)o;
    memset(out, 0, sizeof *out);
    if (t->n != g->n)
        return moore_error_set(err, MOORE_EINVAL,
                               "throughput: the traffic matrix is for %d switches, the topology "
                               "has %d", (int)t->n, (int)g->n);
    int rc;
    double cols, rows, nnz;
    lp_size(g, t, &cols, &rows, &nnz);
    if (cols > 2e9 || rows > 2e9 || nnz > 2e9)
        return moore_error_set(err, MOORE_ETOOBIG,
                               "throughput: the exact LP would have %.3g columns, more than Clp "
                               "can index; use the approximation (--eps) instead", cols);
    rc = moore_memory_guard(moore_flow_exact_bytes(g, t), "the exact throughput LP", err);
    if (rc) {
        size_t len = strlen(err->msg);
        snprintf(err->msg + len, sizeof err->msg - len,
                 "; use the approximation (--eps) instead");
        return rc;
    }

    /* TUB also checks that every demand can be routed at all. */
    double tub;
    if ((rc = moore_flow_tub(g, t, &tub, err)))
        return rc;

    int32_t n = g->n;
    int64_t arcs = 2 * g->m;
    int ncols = (int)cols, nrows = (int)rows;
    CoinBigIndex *start = moore_malloc((size_t)ncols + 1, sizeof *start, err);
    int *index = moore_malloc((size_t)nnz + 1, sizeof *index, err);
    double *value = moore_malloc((size_t)nnz + 1, sizeof *value, err);
    double *obj = moore_calloc((size_t)ncols, sizeof *obj, err);
    double *rlo = moore_malloc((size_t)nrows, sizeof *rlo, err);
    double *rup = moore_malloc((size_t)nrows, sizeof *rup, err);
    int32_t *src = moore_malloc((size_t)(n ? n : 1), sizeof *src, err);
    /* the arc's tail switch, for each CSR position */
    int32_t *tail = moore_malloc((size_t)(arcs ? arcs : 1), sizeof *tail, err);
    if (!start || !index || !value || !obj || !rlo || !rup || !src || !tail) {
        rc = MOORE_ENOMEM;
        goto done;
    }
    for (int32_t u = 0; u < n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            tail[k] = u;
    int32_t K = 0;
    for (int32_t s = 0; s < n; s++)
        src[s] = t->offs[s + 1] > t->offs[s] ? K++ : -1;
    int cap_row0 = K * (n - 1);
    /* Conservation rows of commodity c: switch v ≠ s at c(n−1) + (v − [v > s]). */
#define CONS_ROW(c, s, v) ((c) * (n - 1) + ((v) < (s) ? (v) : (v) - 1))

    /* Min-congestion form: route T·β exactly (β = TUB keeps λ near 1) and
     * minimise λ, the load of the busiest arc; θ = β/λ. Column 0 is λ, with
     * −1 in every capacity row. */
    int64_t z = 0;
    int col = 0;
    start[col] = 0;
    for (int64_t k = 0; k < arcs; k++) {
        index[z] = cap_row0 + (int)k;
        value[z++] = -1.0;
    }
    obj[col++] = 1.0;
    for (int32_t s = 0; s < n; s++) {
        if (src[s] < 0)
            continue;
        for (int64_t k = 0; k < arcs; k++) {
            int32_t u = tail[k], v = g->adj[k];
            if (v == s)
                continue;
            start[col] = (CoinBigIndex)z;
            if (u != s) {
                index[z] = CONS_ROW(src[s], s, u);
                value[z++] = -1.0;
            }
            index[z] = CONS_ROW(src[s], s, v);
            value[z++] = 1.0;
            index[z] = cap_row0 + (int)k;
            value[z++] = 1.0;
            col++;
        }
    }
    start[col] = (CoinBigIndex)z;
    for (int r = 0; r < cap_row0; r++)
        rlo[r] = rup[r] = 0.0;
    for (int32_t s = 0; s < n; s++)
        for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++) {
            int r = CONS_ROW(src[s], s, t->dst[k]);
            rlo[r] = rup[r] = t->demand[k] * tub;
        }
#undef CONS_ROW
    for (int r = cap_row0; r < nrows; r++) {
        rlo[r] = -DBL_MAX;
        rup[r] = 0.0;
    }

    Clp_Simplex *model = Clp_newModel();
    if (!model) {
        rc = moore_error_set(err, MOORE_ENOMEM, "Clp could not create a model");
        goto done;
    }
    Clp_setLogLevel(model, 0); /* the library never prints */
    Clp_loadProblem(model, ncols, nrows, start, index, value, NULL, NULL, obj, rlo, rup);
    Clp_setObjSense(model, 1.0); /* minimise λ */
    free(index);
    free(value);
    index = NULL;
    value = NULL;
    /* Clp's barrier without crossover: these LPs are highly degenerate (many
     * equally short paths), which costs the simplex methods tens of thousands
     * of pivots; the interior point needs a few dozen iterations. Its optimum
     * is accurate to the barrier's tolerance (~1e-8 relative), not a vertex,
     * which is all a throughput value needs. Primal simplex is the fallback. */
    Clp_initialBarrierNoCrossSolve(model);
    if (!Clp_isProvenOptimal(model))
        Clp_primal(model, 0);
    if (!Clp_isProvenOptimal(model)) {
        rc = moore_error_set(err, MOORE_EINTERNAL,
                             "throughput: Clp stopped without an optimum (status %d, secondary "
                             "%d)", Clp_status(model), Clp_secondaryStatus(model));
        Clp_deleteModel(model);
        goto done;
    }
    const double *x = Clp_getColSolution(model);
    const double *act = Clp_getRowActivity(model);
    double lambda = x[0];
    out->throughput = out->lower = out->upper = tub / lambda;
    out->method = "lp-clp";
    out->converged = 1;
    out->phases = Clp_numberIterations(model);
    out->commodities = K;
    double umax = 0, usum = 0;
    for (int64_t k = 0; k < arcs; k++) {
        double u = (act[cap_row0 + k] + lambda) / lambda;
        u = u < 0 ? 0 : u;
        umax = u > umax ? u : umax;
        usum += u;
    }
    out->util_max = umax;
    out->util_mean = arcs ? usum / (double)arcs : 0;
    Clp_deleteModel(model);

done:
    free(start);
    free(index);
    free(value);
    free(obj);
    free(rlo);
    free(rup);
    free(src);
    free(tail);
    return rc;
}
