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
 * the practical limit, so the size is checked against memory first.
 *
 * moore_flow_exact's automatic choice is the path LP of colgen.c for every
 * matrix: measured on random regular graphs (docs/throughput.md) it was
 * faster on all of them — 50 switches uniform 0.1 s against 1.9 s, 100
 * switches 0.9 s against 206 s, a dense asymmetric matrix on 60 switches
 * 0.5 s against 3.3 s. This LP stays as the independent second method
 * (--method arc; the tests compare the two). */
#include "moore/flow.h"
#include "core/alloc.h"
#include "flow_internal.h"
#include "metrics/blas_pin.h"

#include <coin/Clp_C_Interface.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void moore_flow_options_default(moore_flow_options *o)
{
    memset(o, 0, sizeof *o);
    o->eps = 0.05;
    o->exact_gap = 1e-7;
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

/* The arc LP in Clp's column-major form. */
typedef struct arc_lp {
    int ncols, nrows, cap_row0;
    CoinBigIndex *start;
    int *index;
    double *value, *obj, *rlo, *rup;
} arc_lp;

static void arc_lp_free(arc_lp *L)
{
    free(L->start);
    free(L->index);
    free(L->value);
    free(L->obj);
    free(L->rlo);
    free(L->rup);
}

/* Refuses an arc LP too large to index or to fit in memory. */
static int arc_lp_check(const moore_graph *g, const moore_traffic *t, moore_error *err)
{
    double cols, rows, nnz;
    lp_size(g, t, &cols, &rows, &nnz);
    if (cols > 2e9 || rows > 2e9 || nnz > 2e9)
        return moore_error_set(err, MOORE_ETOOBIG,
                               "throughput: the exact LP would have %.3g columns, more than Clp "
                               "can index; use the approximation instead", cols);
    int rc = moore_memory_guard(moore_flow_exact_bytes(g, t), "the exact throughput LP", err);
    if (rc) {
        size_t len = strlen(err->msg);
        snprintf(err->msg + len, sizeof err->msg - len,
                 "; use the approximation instead");
    }
    return rc;
}

/* Builds the min-congestion arc LP: route T·β exactly (β = TUB keeps λ near
 * 1) and minimise λ, the load of the busiest arc; θ = β/λ. Column 0 is λ,
 * with −1 in every capacity row. */
static int arc_lp_build(const moore_graph *g, const moore_traffic *t, double tub, arc_lp *L,
                        moore_error *err)
{
    double cols, rows, nnz;
    lp_size(g, t, &cols, &rows, &nnz);
    int32_t n = g->n;
    int64_t arcs = 2 * g->m;
    L->ncols = (int)cols;
    L->nrows = (int)rows;
    L->start = moore_malloc((size_t)L->ncols + 1, sizeof *L->start, err);
    L->index = moore_malloc((size_t)nnz + 1, sizeof *L->index, err);
    L->value = moore_malloc((size_t)nnz + 1, sizeof *L->value, err);
    L->obj = moore_calloc((size_t)L->ncols, sizeof *L->obj, err);
    L->rlo = moore_malloc((size_t)L->nrows, sizeof *L->rlo, err);
    L->rup = moore_malloc((size_t)L->nrows, sizeof *L->rup, err);
    int32_t *src = moore_malloc((size_t)(n ? n : 1), sizeof *src, err);
    /* the arc's tail switch, for each CSR position */
    int32_t *tail = moore_malloc((size_t)(arcs ? arcs : 1), sizeof *tail, err);
    if (!L->start || !L->index || !L->value || !L->obj || !L->rlo || !L->rup || !src || !tail) {
        free(src);
        free(tail);
        return moore_alloc_code(err);
    }
    for (int32_t u = 0; u < n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            tail[k] = u;
    int32_t K = 0;
    for (int32_t s = 0; s < n; s++)
        src[s] = t->offs[s + 1] > t->offs[s] ? K++ : -1;
    int cap_row0 = L->cap_row0 = K * (n - 1);
    /* Conservation rows of commodity c: switch v ≠ s at c(n−1) + (v − [v > s]). */
#define CONS_ROW(c, s, v) ((c) * (n - 1) + ((v) < (s) ? (v) : (v) - 1))
    int64_t z = 0;
    int col = 0;
    L->start[col] = 0;
    for (int64_t k = 0; k < arcs; k++) {
        L->index[z] = cap_row0 + (int)k;
        L->value[z++] = -1.0;
    }
    L->obj[col++] = 1.0;
    for (int32_t s = 0; s < n; s++) {
        if (src[s] < 0)
            continue;
        for (int64_t k = 0; k < arcs; k++) {
            int32_t u = tail[k], v = g->adj[k];
            if (v == s)
                continue;
            L->start[col] = (CoinBigIndex)z;
            if (u != s) {
                L->index[z] = CONS_ROW(src[s], s, u);
                L->value[z++] = -1.0;
            }
            L->index[z] = CONS_ROW(src[s], s, v);
            L->value[z++] = 1.0;
            L->index[z] = cap_row0 + (int)k;
            L->value[z++] = 1.0;
            col++;
        }
    }
    L->start[col] = (CoinBigIndex)z;
    for (int r = 0; r < cap_row0; r++)
        L->rlo[r] = L->rup[r] = 0.0;
    for (int32_t s = 0; s < n; s++)
        for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++) {
            int r = CONS_ROW(src[s], s, t->dst[k]);
            L->rlo[r] = L->rup[r] = t->demand[k] * tub;
        }
#undef CONS_ROW
    for (int r = cap_row0; r < L->nrows; r++) {
        L->rlo[r] = -DBL_MAX;
        L->rup[r] = 0.0;
    }
    free(src);
    free(tail);
    return MOORE_OK;
}

/* The bounds of an arc LP stopped before it ended: 0 and TUB. */
static void arc_lp_unfinished(const moore_traffic *t, double tub, const char *why,
                              moore_flow_result *out)
{
    out->throughput = out->lower = 0;
    out->upper = tub;
    out->method = "lp-clp";
    out->converged = 0;
    out->stopped = why;
    out->commodities = moore_traffic_sources(t);
}

/* Solves it and fills the result from λ and the capacity rows. */
static int arc_lp_solve(arc_lp *L, const moore_graph *g, const moore_traffic *t, double tub,
                        const moore_flow_options *o, moore_flow_result *out, moore_error *err)
{
    Clp_Simplex *model = Clp_newModel();
    if (!model)
        return moore_error_set(err, MOORE_ENOMEM, "Clp could not create a model");
    Clp_setLogLevel(model, 0); /* the library never prints */
    Clp_loadProblem(model, L->ncols, L->nrows, L->start, L->index, L->value, NULL, NULL, L->obj,
                    L->rlo, L->rup);
    Clp_setObjSense(model, 1.0); /* minimise λ */
    free(L->index);
    free(L->value);
    L->index = NULL;
    L->value = NULL;
    if (o->time_limit > 0)
        Clp_setMaximumSeconds(model, o->time_limit);
    /* Clp's barrier without crossover: these LPs are highly degenerate (many
     * equally short paths), which costs the simplex methods tens of thousands
     * of pivots; the interior point needs a few dozen iterations. Its optimum
     * is accurate to the barrier's tolerance (~1e-8 relative), not a vertex,
     * which is all a throughput value needs. Primal simplex is the fallback. */
    Clp_initialBarrierNoCrossSolve(model);
    if (!Clp_isProvenOptimal(model) && !(o->time_limit > 0 && Clp_status(model) == 3))
        Clp_primal(model, 0);
    if (!Clp_isProvenOptimal(model)) {
        int status = Clp_status(model);
        Clp_deleteModel(model);
        if (status == 3 && o->time_limit > 0) {
            /* the barrier has no proven bounds before it ends: only TUB */
            arc_lp_unfinished(t, tub, "time-limit", out);
            return MOORE_OK;
        }
        return moore_error_set(err, MOORE_EINTERNAL,
                               "throughput: Clp stopped without an optimum (status %d)", status);
    }
    const double *x = Clp_getColSolution(model);
    const double *act = Clp_getRowActivity(model);
    double lambda = x[0];
    int64_t arcs = 2 * g->m;
    out->throughput = out->lower = out->upper = tub / lambda;
    out->method = "lp-clp";
    out->converged = 1;
    out->phases = Clp_numberIterations(model);
    out->commodities = moore_traffic_sources(t);
    double umax = 0, usum = 0;
    for (int64_t k = 0; k < arcs; k++) {
        double u = (act[L->cap_row0 + k] + lambda) / lambda;
        u = u < 0 ? 0 : u;
        umax = u > umax ? u : umax;
        usum += u;
    }
    out->util_max = umax;
    out->util_mean = arcs ? usum / (double)arcs : 0;
    Clp_deleteModel(model);
    return MOORE_OK;
}

/* Column generation unless the arc LP is asked for (see the top). */
static int use_colgen(const moore_flow_options *o)
{
    return o->exact_method != MOORE_FLOW_EXACT_ARC;
}

/* moore_flow_exact on a matrix at unit scale (scale.c). */
static int exact_unit(const moore_graph *g, const moore_traffic *t, const moore_flow_options *o,
                      moore_flow_result *out, moore_error *err)
{
    if (t->n != g->n)
        return moore_error_set(err, MOORE_EINVAL,
                               "throughput: the traffic matrix is for %d switches, the topology "
                               "has %d", (int)t->n, (int)g->n);
    flow_clock clock;
    flow_clock_start(&clock);
    int colgen = use_colgen(o);
    int rc = colgen ? MOORE_OK : arc_lp_check(g, t, err);
    if (rc)
        return rc;
    /* TUB also checks that every demand can be routed at all. */
    double tub;
    if ((rc = moore_flow_tub(g, t, &tub, err)))
        return rc;
    if (colgen)
        return flow_colgen(g, t, o, tub, out, err);
    arc_lp L;
    memset(&L, 0, sizeof L);
    rc = arc_lp_build(g, t, tub, &L, err);
    const char *why = rc ? NULL : flow_should_stop(o, &clock);
    if (why)
        arc_lp_unfinished(t, tub, why, out);
    else if (!rc) {
        int blas = blas_pin_begin(); /* Clp's barrier calls the BLAS: one thread, same bytes */
        rc = arc_lp_solve(&L, g, t, tub, o, out, err);
        blas_pin_end(blas);
    }
    arc_lp_free(&L);
    return rc;
}

int moore_flow_exact(const moore_graph *g, const moore_traffic *t,
                     const moore_flow_options *o, moore_flow_result *out, moore_error *err)
{
    moore_flow_options def;
    o = flow_options_or_default(o, &def);
    memset(out, 0, sizeof *out);
    flow_scale sc;
    int rc = flow_scale_begin(t, o, &sc, err);
    if (!rc)
        rc = exact_unit(g, sc.t, &sc.o, out, err);
    return flow_scale_end(&sc, rc, out, err);
}
