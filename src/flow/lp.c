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
 * Certificate: Clp's barrier ends near the optimum, within its tolerances
 * (~1e-8), so its λ is no proof: it put θ 1.5e-8 below column generation's
 * proven lower bound on a 200-switch graph. Both bounds are therefore
 * recomputed here, as in colgen.c, so they hold whatever Clp's tolerances:
 *  - lower: each commodity's flow is decomposed into s→t paths (widest
 *    first); they deliver at least c·β·T(s,t) to every pair and load each
 *    arc by at most L, so θ ≥ c·β/L;
 *  - upper: the capacity rows' duals μ ≥ 0 as lengths give θ ≤
 *    Σ μ_a / Σ T(s,t)·dist_μ(s,t) (one Dijkstra per source).
 * θ is the lower bound; `converged` says upper ≤ (1 + exact_gap)·lower.
 * When the barrier's duals leave a wider gap, the primal simplex finishes
 * from the barrier's point and the bounds are taken again.
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
#include "linalg/blas_pin.h"

#include <coin/Clp_C_Interface.h>
#include <float.h>
#include <math.h>
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

static void arc_lp_clear(arc_lp *L)
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

/* Fills L's arrays (allocated, L->ncols and L->nrows set) with the arc LP
 * below; src (n) and tail (2|E|) are scratch. */
static void arc_lp_fill(const moore_graph *g, const moore_traffic *t, double tub, arc_lp *L,
                        int32_t *src, int32_t *tail)
{
    int32_t n = g->n;
    int64_t arcs = 2 * g->m;
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
}

/* Builds the min-congestion arc LP: route T·β exactly (β = TUB keeps λ near
 * 1) and minimise λ, the load of the busiest arc; θ = β/λ. Column 0 is λ,
 * with −1 in every capacity row. On failure what it allocated in L is left
 * to the caller's arc_lp_clear. */
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
    int rc = L->start && L->index && L->value && L->obj && L->rlo && L->rup && src && tail
                 ? MOORE_OK
                 : core_alloc_code(err);
    if (!rc)
        arc_lp_fill(g, t, tub, L, src, tail);
    free(src);
    free(tail);
    return rc;
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

/* ---- the certificate: bounds of our own from Clp's primal and dual ---- */

/* Scratch for taking one commodity's LP flow apart into paths. */
typedef struct arc_paths {
    const moore_graph *g;
    const int32_t *tail;    /* the tail switch of each arc */
    double *r;              /* the commodity's flow not yet on a path, per arc */
    int64_t *pred;          /* the search's arc into each switch; −1 unseen */
    int32_t *queue;
    double *load;           /* arc loads of the paths taken, all commodities */
} arc_paths;

/* The fewest-arcs path s → t over arcs with r ≥ delta (in P->pred) and its
 * bottleneck; 0 when there is none. */
static double arc_path(arc_paths *P, int32_t s, int32_t t, double delta)
{
    const moore_graph *g = P->g;
    for (int32_t v = 0; v < g->n; v++)
        P->pred[v] = -1;
    P->pred[s] = -2;
    int32_t head = 0, end = 0;
    P->queue[end++] = s;
    while (head < end && P->pred[t] == -1) {
        int32_t u = P->queue[head++];
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            if (P->pred[g->adj[k]] == -1 && P->r[k] >= delta) {
                P->pred[g->adj[k]] = k;
                P->queue[end++] = g->adj[k];
            }
    }
    if (P->pred[t] == -1)
        return 0;
    double b = INFINITY;
    for (int32_t v = t; v != s; v = P->tail[P->pred[v]])
        b = P->r[P->pred[v]] < b ? P->r[P->pred[v]] : b;
    return b;
}

/* Moves as much of the demand `need` from s to t as the commodity's flow
 * carries onto paths (widest first: the threshold starts at the demand and
 * falls by 4 when no path is left above it); returns the amount moved.
 * Every path found either empties an arc or ends the demand, so a commodity
 * takes at most (its arcs + its destinations) paths. */
static double arc_route(arc_paths *P, int32_t s, int32_t t, double need)
{
    double moved = 0, delta = need;
    while (moved < need && delta >= need * 1e-13) {
        double b = arc_path(P, s, t, delta);
        if (!(b > 0)) {
            delta /= 4;
            continue;
        }
        b = b < need - moved ? b : need - moved;
        for (int32_t v = t; v != s; v = P->tail[P->pred[v]]) {
            int64_t k = P->pred[v];
            P->r[k] = P->r[k] > b ? P->r[k] - b : 0;
            P->load[k] += b;
        }
        moved = b == need - moved ? need : moved + b;
    }
    return moved;
}

/* The lower bound from the LP's flow x (columns laid out as arc_lp_build
 * does): each commodity's flow is decomposed into paths, which route at
 * least c·β·T(s,t) for every pair whatever Clp's tolerances (flow left on
 * cycles or unbalanced by them is dropped), with arc loads at most L; so
 * θ ≥ c·β/L. Fills load[] for the utilisation. */
static double arc_lp_lower(arc_paths *P, const moore_traffic *t, const double *x, double beta)
{
    const moore_graph *g = P->g;
    int64_t arcs = 2 * g->m, col = 1;
    double c = INFINITY;
    for (int32_t s = 0; s < g->n; s++) {
        if (t->offs[s + 1] == t->offs[s])
            continue;
        for (int64_t k = 0; k < arcs; k++) {
            double f = g->adj[k] == s ? 0 : x[col++];   /* no column for arcs into s */
            P->r[k] = f > 0 ? f : 0;
        }
        for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++) {
            double need = beta * t->demand[k];
            double f = arc_route(P, s, t->dst[k], need) / need;
            c = f < c ? f : c;
        }
    }
    double L = 0;
    for (int64_t k = 0; k < arcs; k++)
        L = P->load[k] > L ? P->load[k] : L;
    return L > 0 && isfinite(c) ? c * beta / L : 0;
}

/* The upper bound from the duals μ ≥ 0 of the capacity rows, as lengths:
 * θ ≤ Σ_a μ_a / Σ_{s,t} T(s,t)·dist_μ(s,t) for any μ ≥ 0 (LP duality, as
 * in colgen.c), never above TUB. */
static int arc_lp_upper(const moore_graph *g, const moore_traffic *t, const double *mu,
                        double tub, double *upper, moore_error *err)
{
    flow_ws w;
    memset(&w, 0, sizeof w);
    int rc = flow_ws_init(&w, g->n, 0, err);
    double D = 0, alpha = 0;
    for (int64_t k = 0; !rc && k < 2 * g->m; k++)
        D += mu[k];
    for (int32_t s = 0; !rc && s < g->n; s++) {
        if (t->offs[s + 1] == t->offs[s])
            continue;
        flow_dijkstra(g, mu, s, 0, &w);
        for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++)
            alpha += t->demand[k] * w.dist[t->dst[k]];
    }
    flow_ws_clear(&w);
    *upper = alpha > 0 && D / alpha < tub ? D / alpha : tub;
    return rc;
}

/* Both bounds of the certificate from the solved model; θ = the lower. */
static int arc_lp_certify(Clp_Simplex *model, const arc_lp *L, const moore_graph *g,
                          const moore_traffic *t, double tub, const moore_flow_options *o,
                          moore_flow_result *out, moore_error *err)
{
    int64_t arcs = 2 * g->m;
    size_t na = (size_t)(arcs ? arcs : 1), nv = (size_t)(g->n ? g->n : 1);
    arc_paths P = { .g = g };
    int32_t *tail = moore_malloc(na, sizeof *tail, err);
    double *mu = moore_malloc(na, sizeof *mu, err);
    P.r = moore_malloc(na, sizeof *P.r, err);
    P.load = moore_calloc(na, sizeof *P.load, err);
    P.pred = moore_malloc(nv, sizeof *P.pred, err);
    P.queue = moore_malloc(nv, sizeof *P.queue, err);
    int rc = tail && mu && P.r && P.load && P.pred && P.queue ? MOORE_OK : core_alloc_code(err);
    if (!rc) {
        for (int32_t u = 0; u < g->n; u++)
            for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
                tail[k] = u;
        P.tail = tail;
        const double *y = Clp_getRowPrice(model);
        for (int64_t k = 0; k < arcs; k++)
            mu[k] = fabs(y[L->cap_row0 + k]);
        double lower = arc_lp_lower(&P, t, Clp_getColSolution(model), tub), upper;
        rc = arc_lp_upper(g, t, mu, tub, &upper, err);
        if (lower > out->lower) {   /* the best of both attempts (arc_lp_solve) */
            out->lower = out->throughput = lower;
            flow_utilisation(P.load, arcs, out);
        }
        out->upper = upper < out->upper ? upper : out->upper;
        out->upper = out->upper < out->lower ? out->lower : out->upper;
        double gap = o->exact_gap > 0 ? o->exact_gap : 1e-7;
        out->converged = out->lower > 0 && out->upper <= (1 + gap) * out->lower;
    }
    free(tail);
    free(mu);
    free(P.r);
    free(P.load);
    free(P.pred);
    free(P.queue);
    return rc;
}

/* Solves it and takes the certificate from Clp's primal and dual. */
static int arc_lp_solve(arc_lp *L, const moore_graph *g, const moore_traffic *t, double tub,
                        const moore_flow_options *o, const flow_clock *clock,
                        moore_flow_result *out, moore_error *err)
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
     * is accurate to the barrier's tolerance (~1e-8 relative), not a vertex;
     * arc_lp_certify turns it into proven bounds. Primal simplex is the
     * fallback. */
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
    out->method = "lp-clp";
    out->commodities = moore_traffic_sources(t);
    out->lower = 0;
    out->upper = tub;
    int rc = arc_lp_certify(model, L, g, t, tub, o, out, err);
    /* The barrier's duals are accurate to ~1e-8, which now and then leaves
     * the dual bound more than the gap above (1.1e-7 on a 16-switch graph):
     * then the simplex finishes from the barrier's point, whose basis gives
     * exact duals. */
    if (!rc && !out->converged && !flow_should_stop(o, clock)) {
        Clp_primal(model, 1);
        if (Clp_isProvenOptimal(model))
            rc = arc_lp_certify(model, L, g, t, tub, o, out, err);
    }
    out->phases = Clp_numberIterations(model);
    Clp_deleteModel(model);
    return rc;
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
        linalg_blas_pin_begin(); /* Clp's barrier calls the BLAS: one thread, same bytes */
        rc = arc_lp_solve(&L, g, t, tub, o, &clock, out, err);
        linalg_blas_pin_end();
    }
    arc_lp_clear(&L);
    return rc;
}

int moore_flow_exact(const moore_graph *g, const moore_traffic *t, const moore_flow_options *o,
                     moore_flow_result *out, moore_error *err)
{
    /* The LPs hold a row per demand anyway: a compact matrix is stored first. */
    moore_traffic *stored = NULL;
    int rc = t->weight ? flow_traffic_expand(t, &stored, err) : MOORE_OK;
    if (!rc)
        rc = flow_scaled_solve(g, stored ? stored : t, o, out, err, exact_unit);
    moore_traffic_free(stored);
    return rc;
}
