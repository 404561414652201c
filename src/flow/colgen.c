/* colgen.c — exact throughput by column generation (Dantzig–Wolfe by source).
 *
 * A column is a routing of one source's whole demand: every destination t of
 * source s gets one path, and the column loads arc a with the demand of the
 * destinations whose path uses a (w_j(a)). Every flow of s that meets its
 * demands is a convex combination of such routings (pick each destination's
 * path independently with the flow's path probabilities), so the LP over all
 * of them is the exact maximum concurrent flow. With β = TUB (so the optimum
 * φ = θ/β is near 1) the restricted master over the columns J_s found so far is
 *   maximise φ
 *   for each source s:  Σ_{j ∈ J_s} x_j − β·φ ≥ 0        (dual π_s ≥ 0)
 *   for each arc a:     Σ_j w_j(a)·x_j ≤ 1               (dual μ_a ≥ 0)
 *   x ≥ 0,
 * solved by Clp's primal simplex, warm-started from the previous basis after
 * columns are added. For a permutation or the worst-case matrix a column is
 * a single path and the master has one row per pair; for all-to-all traffic
 * it still has only n + 2m rows. Pricing: the cheapest routing of s under μ
 * is its shortest-path tree, cost Σ_t d(s,t)·dist_μ(s,t); it improves the
 * master when that is below π_s. One Dijkstra per source prices everything.
 *
 * Warm start: the first rounds are multiplicative-weights rounds (as in the
 * approximation, fptas.c): each source's shortest-path tree under lengths l
 * is added, then the arcs it uses are lengthened by (1 + step·load). They
 * give the master a spread of good routings at once, and their average (each
 * column weighted by the rounds that produced it, scaled to fit) is a
 * feasible point near the optimum: the first master starts from it (Clp's
 * values pass) instead of from the all-slack basis. That start made the
 * exact uniform θ of a 231–300-switch graph 4–5x faster and, with 100 rounds
 * for single-destination sources (cg_warm_rounds), cut the certified
 * 1,001-switch worst case from 350 to 123 s of CPU (docs/throughput.md).
 *
 * Certificate: both bounds are recomputed here from what Clp returns, so they
 * hold whatever its tolerances:
 *  - lower: the master's x routes c_s = Σ_{j ∈ J_s} x_j times source s's
 *    demand and loads every arc by at most L; θ ≥ min_s c_s / L.
 *  - upper: for any μ ≥ 0, a routing of θ·T within capacity 1 puts
 *    θ·Σ_{s,t} d(s,t)·dist_μ(s,t) ≤ Σ_a μ_a·load_a ≤ Σ_a μ_a, so
 *    θ ≤ Σ_a μ_a / Σ d·dist_μ, for the master's duals and for every l of the
 *    warm start (lengths that grow during a round only loosen it).
 * The run ends when upper ≤ (1 + exact_gap)·lower; both are valid after every
 * round, so a time limit or a cancellation returns them as they are (Clp is
 * given the time left; cancellation is polled between rounds). Rounds
 * price sources in batches of fixed size and append columns in source order,
 * so the result is the same for any number of threads. */
#include "moore/flow.h"
#include "core/alloc.h"
#include "flow_internal.h"
#include "linalg/blas_pin.h"

#include <coin/Clp_C_Interface.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#define CG_BATCH 64
#define WARM_STEP 0.1   /* length growth per unit of load in the warm start */
#define WARM_ROUNDS 30          /* warm-start rounds (cg_warm_rounds) ... */
#define WARM_ROUNDS_SPARSE 100  /* ... when sources have at most 2 destinations */

/* The routing found for one source in one round. */
typedef struct cg_slot {
    int64_t *arc;       /* arcs of the tree that carry demand */
    double *w;          /* the demand each carries */
    int64_t count, cap_arc, cap_w;
    double part;        /* Σ_t d(s,t)·dist(s,t) under the lengths priced */
    int take;           /* add it as a column */
} cg_slot;

typedef struct cg {
    const moore_graph *g;
    const moore_traffic *t;
    int32_t n, nt;
    int64_t arcs;
    int32_t *srcs, S;   /* sources with demand; row s_i is source srcs[i] */
    double beta;
    /* capacity rows: one per arc, or for a folded symmetric matrix (fold.c)
     * one per link with capacity 2; arc a's row is S + cap_row[a] */
    int fold;
    int64_t *rev, *cap_row, caps;
    Clp_Simplex *model;
    /* stored columns: column j+1 of the master is routing j */
    int64_t *coff, *carc, *chead, *cnext;
    double *cw;
    int32_t *csrc;
    double *cwarm;      /* per column: the warm-start rounds that produced it */
    int64_t ncol, cap_coff, cap_carc, cap_cw, cap_csrc, cap_cnext, cap_cwarm;
    double *mu, *pi, *load;
    flow_ws *W;
    cg_slot slot[CG_BATCH];
    /* columns to add this round, in Clp's format */
    CoinBigIndex *nstart;
    int *nrow;
    double *nval;
    int64_t cap_nstart, cap_nrow, cap_nval;
    double lower, upper;
} cg;

static int grow(void **p, int64_t *cap, int64_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    int64_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, (size_t)c * size);
    if (!q)
        return 0;
    *p = q;
    *cap = c;
    return 1;
}

/* Prices source i (row i) under μ: its shortest-path tree, the demand each
 * tree arc carries, and whether the tree improves the master (always in the
 * warm start). */
static void price_source(const cg *C, int32_t i, int warm, flow_ws *w, cg_slot *sl)
{
    const moore_traffic *t = C->t;
    int32_t s = C->srcs[i];
    sl->count = 0;
    sl->part = 0;
    sl->take = 0;
    flow_row row = flow_traffic_row(t, s, 0, NULL, NULL);
    int32_t settled = flow_source_search(C->g, &row, C->mu, C->rev, s, 0, w);
    for (int64_t k = t->offs[s]; k < t->offs[s + 1]; k++) {
        w->acc[t->dst[k]] = t->demand[k];
        sl->part += t->demand[k] * w->dist[t->dst[k]];
    }
    sl->take = warm || sl->part < C->pi[i] * (1 - 1e-9) - 1e-12;
    if (!grow((void **)&sl->arc, &sl->cap_arc, settled, sizeof *sl->arc) ||
        !grow((void **)&sl->w, &sl->cap_w, settled, sizeof *sl->w))
        sl->count = -1;
    for (int32_t q = settled - 1; q > 0; q--) {
        int32_t v = w->order[q];
        double a = w->acc[v];
        w->acc[v] = 0;
        if (!(a > 0) || sl->count < 0 || !sl->take)
            continue;
        int64_t arc = w->pred[v];
        sl->arc[sl->count] = arc;
        sl->w[sl->count++] = a;
        w->acc[C->g->adj[C->rev[arc]]] += a;   /* the tail of arc */
    }
    w->acc[s] = 0;
}

/* The stored column of row i with the routing in sl, or -1. */
static int64_t known_column(const cg *C, int32_t i, const cg_slot *sl)
{
    for (int64_t j = C->chead[i]; j >= 0; j = C->cnext[j])
        if (C->coff[j + 1] - C->coff[j] == sl->count &&
            memcmp(C->carc + C->coff[j], sl->arc, (size_t)sl->count * sizeof *sl->arc) == 0 &&
            memcmp(C->cw + C->coff[j], sl->w, (size_t)sl->count * sizeof *sl->w) == 0)
            return j;
    return -1;
}

/* Appends row i's new routing to the stored columns and to those to add;
 * a warm-start routing seen before counts once more for its column. It
 * grows the caller's C: on failure what it grew is left to cg_clear. */
static int take_slot(cg *C, int32_t i, const cg_slot *sl, int warm, int64_t *nnew,
                     int64_t *nel, moore_error *err)
{
    int64_t seen = sl->take ? known_column(C, i, sl) : -1;
    if (seen >= 0)
        C->cwarm[seen] += warm;
    if (!sl->take || seen >= 0)
        return MOORE_OK;
    int64_t base = C->ncol ? C->coff[C->ncol] : 0, el = *nel + sl->count + 1;
    if (!grow((void **)&C->nstart, &C->cap_nstart, *nnew + 2, sizeof *C->nstart) ||
        !grow((void **)&C->nrow, &C->cap_nrow, el, sizeof *C->nrow) ||
        !grow((void **)&C->nval, &C->cap_nval, el, sizeof *C->nval) ||
        !grow((void **)&C->coff, &C->cap_coff, C->ncol + 2, sizeof *C->coff) ||
        !grow((void **)&C->csrc, &C->cap_csrc, C->ncol + 1, sizeof *C->csrc) ||
        !grow((void **)&C->cnext, &C->cap_cnext, C->ncol + 1, sizeof *C->cnext) ||
        !grow((void **)&C->cwarm, &C->cap_cwarm, C->ncol + 1, sizeof *C->cwarm) ||
        !grow((void **)&C->carc, &C->cap_carc, base + sl->count, sizeof *C->carc) ||
        !grow((void **)&C->cw, &C->cap_cw, base + sl->count, sizeof *C->cw))
        return moore_error_set(err, MOORE_ENOMEM, "out of memory in column generation");
    C->nstart[*nnew] = (CoinBigIndex)*nel;
    C->nrow[*nel] = i;
    C->nval[(*nel)++] = 1.0;
    for (int64_t q = 0; q < sl->count; q++) {
        C->nrow[*nel] = (int)(C->S + C->cap_row[sl->arc[q]]);
        C->nval[(*nel)++] = sl->w[q];
    }
    C->nstart[++*nnew] = (CoinBigIndex)*nel;
    memcpy(C->carc + base, sl->arc, (size_t)sl->count * sizeof *sl->arc);
    memcpy(C->cw + base, sl->w, (size_t)sl->count * sizeof *sl->w);
    C->coff[C->ncol] = base;
    C->coff[C->ncol + 1] = base + sl->count;
    C->csrc[C->ncol] = i;
    C->cwarm[C->ncol] = warm;
    C->cnext[C->ncol] = C->chead[i];
    C->chead[i] = C->ncol++;
    return MOORE_OK;
}

/* Warm start: lengthens the arcs of a routing by (1 + step·β·load); a
 * folded matrix's load is shared by both arcs of the link. */
static void lengthen(cg *C, const cg_slot *sl)
{
    for (int64_t q = 0; q < sl->count; q++) {
        int64_t a = sl->arc[q];
        if (C->fold) {
            double f = 1.0 + WARM_STEP * C->beta * sl->w[q] / 2;
            C->mu[a] *= f;
            C->mu[C->rev[a]] *= f;
        } else {
            C->mu[a] *= 1.0 + WARM_STEP * C->beta * sl->w[q];
        }
    }
}

/* Adds the new columns to the master. */
static int add_columns(cg *C, int64_t nnew, moore_error *err)
{
    if (nnew == 0)
        return MOORE_OK;
    double *lo = moore_calloc((size_t)nnew, sizeof *lo, err);
    double *obj = moore_calloc((size_t)nnew, sizeof *obj, err);
    double *up = moore_malloc((size_t)nnew, sizeof *up, err);
    int rc = lo && obj && up ? MOORE_OK : core_alloc_code(err);
    if (!rc) {
        for (int64_t j = 0; j < nnew; j++)
            up[j] = DBL_MAX;
        Clp_addColumns(C->model, (int)nnew, lo, up, obj, C->nstart, C->nrow, C->nval);
    }
    free(lo);
    free(obj);
    free(up);
    return rc;
}

/* One pricing round over all sources: the dual bound from the lengths in
 * C->mu and the improving routings (all of them in the warm start, which
 * then lengthens arcs after each batch). *added: columns added. */
static int cg_price(cg *C, int warm, int64_t *added, moore_error *err)
{
    int64_t nnew = 0, nel = 0;
    double part = 0;
    for (int32_t i0 = 0; i0 < C->S; i0 += CG_BATCH) {
        int32_t cnt = C->S - i0 < CG_BATCH ? C->S - i0 : CG_BATCH;
#pragma omp parallel for schedule(dynamic, 1) num_threads(C->nt) if (cnt > 1 && C->n > 64)
        for (int32_t j = 0; j < cnt; j++)
            price_source(C, i0 + j, warm, &C->W[omp_get_thread_num()], &C->slot[j]);
        for (int32_t j = 0; j < cnt; j++) {
            if (C->slot[j].count < 0)
                return moore_error_set(err, MOORE_ENOMEM, "out of memory in column generation");
            part += C->slot[j].part;
            int rc = take_slot(C, i0 + j, &C->slot[j], warm, &nnew, &nel, err);
            if (rc)
                return rc;
        }
        for (int32_t j = 0; warm && j < cnt; j++)
            lengthen(C, &C->slot[j]);
    }
    double musum = 0;
    for (int64_t a = 0; a < C->arcs; a++)
        musum += C->mu[a];
    if (part > 0 && musum / part < C->upper)
        C->upper = musum / part;
    *added = nnew;
    if (nnew > INT32_MAX || nel > INT32_MAX)
        return moore_error_set(err, MOORE_ETOOBIG,
                               "throughput: column generation needs more than 2^31 entries");
    return add_columns(C, nnew, err);
}

/* The arc loads of the master's solution x (x[j + 1] the multiple of
 * routing j) into C->load; returns the largest. */
static double cg_arc_loads(cg *C, const double *x)
{
    memset(C->load, 0, (size_t)C->arcs * sizeof *C->load);
    for (int64_t j = 0; j < C->ncol; j++) {
        double f = x[j + 1] > 0 ? x[j + 1] : 0;
        for (int64_t q = C->coff[j]; q < C->coff[j + 1]; q++) {
            int64_t a = C->carc[q];
            if (C->fold) {  /* half each way (fold.c) */
                C->load[a] += f * C->cw[q] / 2;
                C->load[C->rev[a]] += f * C->cw[q] / 2;
            } else {
                C->load[a] += f * C->cw[q];
            }
        }
    }
    double L = 0;
    for (int64_t a = 0; a < C->arcs; a++)
        L = C->load[a] > L ? C->load[a] : L;
    return L;
}

/* The per-source multiples of x and its arc loads; the lower bound. */
static int cg_lower(cg *C, const double *x, moore_error *err)
{
    double *carried = moore_calloc((size_t)C->S + 1, sizeof *carried, err);
    if (!carried)
        return core_alloc_code(err);
    for (int64_t j = 0; j < C->ncol; j++)
        carried[C->csrc[j]] += x[j + 1] > 0 ? x[j + 1] : 0;
    double L = cg_arc_loads(C, x), c = INFINITY;
    for (int32_t i = 0; i < C->S; i++)
        c = carried[i] < c ? carried[i] : c;
    free(carried);
    if (L > 0 && c / L > C->lower)
        C->lower = c / L;
    return MOORE_OK;
}

/* Solves the master within `seconds` (0: no limit), from the point `start`
 * when given (Clp's values pass); takes its duals and its primal bound.
 * *timed_out: Clp hit the limit first; the lower bound is still taken (any
 * x ≥ 0 gives one), the duals are not. */
static int cg_solve(cg *C, double seconds, const double *start, int *timed_out,
                    moore_error *err)
{
    *timed_out = 0;
    if (seconds > 0)
        Clp_setMaximumSeconds(C->model, seconds);
    if (start)
        Clp_setColSolution(C->model, start);
    Clp_primal(C->model, start != NULL);
    if (seconds > 0 && Clp_status(C->model) == 3) {
        *timed_out = 1;
        return cg_lower(C, Clp_getColSolution(C->model), err);
    }
    if (!Clp_isProvenOptimal(C->model))
        Clp_dual(C->model, 0);
    if (!Clp_isProvenOptimal(C->model))
        return moore_error_set(err, MOORE_EINTERNAL,
                               "throughput: Clp stopped without an optimum of the path LP "
                               "(status %d)", Clp_status(C->model));
    const double *y = Clp_getRowPrice(C->model);
    /* Maximisation: Clp returns π and μ with the objective's sign. */
    for (int32_t i = 0; i < C->S; i++)
        C->pi[i] = fabs(y[i]);
    for (int64_t a = 0; a < C->arcs; a++)
        C->mu[a] = fabs(y[C->S + C->cap_row[a]]);
    return cg_lower(C, Clp_getColSolution(C->model), err);
}

/* The master with its source and arc rows and the φ column, no routings. */
static int cg_model(cg *C, moore_error *err)
{
    int64_t rows = C->S + C->caps;
    if (rows > INT32_MAX)
        return moore_error_set(err, MOORE_ETOOBIG,
                               "throughput: the path LP would have %lld rows, more than Clp "
                               "can index", (long long)rows);
    double *rlo = moore_malloc((size_t)rows, sizeof *rlo, err);
    double *rup = moore_malloc((size_t)rows, sizeof *rup, err);
    int *idx = moore_malloc((size_t)(C->S ? C->S : 1), sizeof *idx, err);
    double *val = moore_malloc((size_t)(C->S ? C->S : 1), sizeof *val, err);
    C->model = rlo && rup && idx && val ? Clp_newModel() : NULL;
    int rc = !(rlo && rup && idx && val) ? core_alloc_code(err)
             : C->model ? MOORE_OK
                        : moore_error_set(err, MOORE_ENOMEM, "out of memory building the path LP");
    if (!rc) {
        for (int32_t i = 0; i < C->S; i++) {
            rlo[i] = 0;
            rup[i] = DBL_MAX;
            idx[i] = i;
            val[i] = -C->beta;
        }
        for (int64_t a = 0; a < C->caps; a++) {
            rlo[C->S + a] = -DBL_MAX;
            rup[C->S + a] = C->fold ? 2 : 1;
        }
        CoinBigIndex st[2] = { 0, (CoinBigIndex)C->S };
        double clo = 0, cup = DBL_MAX, obj = 1;
        Clp_setLogLevel(C->model, 0); /* the library never prints */
        Clp_setPrimalTolerance(C->model, 1e-9);
        Clp_setDualTolerance(C->model, 1e-9);
        Clp_loadProblem(C->model, 1, (int)rows, st, idx, val, &clo, &cup, &obj, rlo, rup);
        Clp_setObjSense(C->model, -1.0); /* maximise φ */
    }
    free(rlo);
    free(rup);
    free(idx);
    free(val);
    return rc;
}

/* `rounds` multiplicative-weights rounds with lengths l kept in C->mu (fewer
 * when the run must stop: *done says how many). */
static int cg_warm(cg *C, int rounds, const moore_flow_options *o,
                   const flow_clock *clock, int *done, moore_error *err)
{
    for (int64_t a = 0; a < C->arcs; a++)
        C->mu[a] = 1.0;
    *done = 0;
    for (int r = 0; r < rounds && !(r > 0 && flow_should_stop(o, clock)); r++, ++*done) {
        int64_t added;
        int rc = cg_price(C, 1, &added, err);
        if (rc)
            return rc;
        double D = 0;
        for (int64_t a = 0; a < C->arcs; a++)
            D += C->mu[a];
        for (int64_t a = 0; a < C->arcs; a++)
            C->mu[a] /= D;
    }
    return MOORE_OK;
}

/* The warm start's average routing as the first master's starting point:
 * column j carries cwarm[j]/rounds of its source's demand, scaled down by
 * the busiest arc so it is feasible, and φ follows. *x stays NULL when
 * there is nothing to start from. */
static int cg_warm_point(cg *C, int rounds, double **x, moore_error *err)
{
    *x = NULL;
    if (rounds < 1 || C->ncol == 0)
        return MOORE_OK;
    if (!(*x = moore_calloc((size_t)C->ncol + 1, sizeof **x, err)))
        return core_alloc_code(err);
    for (int64_t j = 0; j < C->ncol; j++)
        (*x)[j + 1] = C->cwarm[j] / rounds;
    double L = cg_arc_loads(C, *x), c = L > 0 ? 1 / L : 0;
    (*x)[0] = c / C->beta;
    for (int64_t j = 0; j < C->ncol; j++)
        (*x)[j + 1] *= c;
    return MOORE_OK;
}

/* How many warm-start rounds: a source with one or two destinations adds a
 * column of a few arcs per round, so many rounds are cheap and give the
 * first master most of the paths it needs (500-switch random regular graph,
 * worst case: 30/60/100/200 rounds certify in 10.0/8.1/5.8/6.5 s); an
 * all-to-all column is a whole tree, and 30 rounds were the fastest
 * measured (15: slower, 60 and 100: 1.4-2x slower). docs/throughput.md
 * has the runs. */
static int cg_warm_rounds(const cg *C)
{
    int64_t nnz = C->t->offs[C->n];
    return nnz <= 2 * (int64_t)C->S ? WARM_ROUNDS_SPARSE : WARM_ROUNDS;
}

static void cg_clear(cg *C)
{
    if (C->model)
        Clp_deleteModel(C->model);
    if (C->W)
        for (int i = 0; i < C->nt; i++)
            flow_ws_clear(&C->W[i]);
    for (int i = 0; i < CG_BATCH; i++) {
        free(C->slot[i].arc);
        free(C->slot[i].w);
    }
    free(C->W);
    free(C->srcs);
    free(C->coff);
    free(C->carc);
    free(C->chead);
    free(C->cnext);
    free(C->cw);
    free(C->csrc);
    free(C->cwarm);
    free(C->mu);
    free(C->pi);
    free(C->load);
    free(C->nstart);
    free(C->nrow);
    free(C->nval);
    free(C->rev);
    free(C->cap_row);
}

/* The reverse of every arc and the capacity row of every arc: its own, or
 * its link's (numbered in the order of the link's first arc) when folded. */
static void cg_cap_rows(cg *C)
{
    moore_graph_reverse_arcs(C->g, C->rev);
    C->caps = 0;
    for (int64_t a = 0; a < C->arcs; a++)
        if (!C->fold)
            C->cap_row[a] = C->caps++;
        else if (a < C->rev[a])
            C->cap_row[a] = C->cap_row[C->rev[a]] = C->caps++;
}

/* Sizes, memory check, allocation and the first master. It fills the
 * caller's C: on failure what it allocated is left to the caller's cg_clear. */
static int cg_setup(cg *C, const moore_graph *g, const moore_traffic *t, double tub,
                    const moore_flow_options *o, moore_error *err)
{
    C->g = g;
    C->t = t;
    C->n = g->n;
    C->arcs = 2 * g->m;
    C->beta = tub;
    C->upper = tub;
    C->nt = o->threads > 0 ? o->threads : omp_get_max_threads();
    /* Clp's copies of a master with ~30 columns per row of ~n entries. */
    int rc = moore_memory_guard(((double)g->n + (double)C->arcs) * 400.0 +
                                    (double)g->n * 30.0 * (double)g->n * 40.0,
                                "the path LP", err);
    if (rc)
        return rc;
    C->srcs = moore_malloc((size_t)(g->n ? g->n : 1), sizeof *C->srcs, err);
    C->chead = moore_malloc((size_t)(g->n ? g->n : 1), sizeof *C->chead, err);
    C->pi = moore_calloc((size_t)(g->n ? g->n : 1), sizeof *C->pi, err);
    C->mu = moore_calloc((size_t)C->arcs + 1, sizeof *C->mu, err);
    C->load = moore_calloc((size_t)C->arcs + 1, sizeof *C->load, err);
    C->W = moore_calloc((size_t)C->nt, sizeof *C->W, err);
    C->rev = moore_malloc((size_t)C->arcs + 1, sizeof *C->rev, err);
    C->cap_row = moore_malloc((size_t)C->arcs + 1, sizeof *C->cap_row, err);
    if (!C->srcs || !C->chead || !C->pi || !C->mu || !C->load || !C->W || !C->rev ||
        !C->cap_row)
        rc = core_alloc_code(err);
    if (!rc)
        cg_cap_rows(C);
    for (int i = 0; !rc && i < C->nt; i++)
        rc = flow_ws_init(&C->W[i], g->n, 1, err);
    for (int32_t s = 0; !rc && s < g->n; s++)
        if (t->offs[s + 1] > t->offs[s]) {
            C->chead[C->S] = -1;
            C->srcs[C->S++] = s;
        }
    if (!rc)
        rc = cg_model(C, err);
    return rc;
}

static void cg_result(const cg *C, moore_flow_result *out)
{
    out->throughput = out->lower = C->lower;
    out->upper = C->upper < C->lower ? C->lower : C->upper;
    out->method = "colgen-clp";
    out->columns = C->ncol;
    flow_utilisation(C->load, C->arcs, out);
}

int flow_colgen(const moore_graph *g, const moore_traffic *t, const moore_flow_options *o,
                double tub, moore_flow_result *out, moore_error *err)
{
    flow_clock clock;
    flow_clock_start(&clock);
    cg C;
    memset(&C, 0, sizeof C);
    /* Clp's factorisation calls the BLAS: on one thread, so the bounds are
     * the same bytes for any OPENBLAS_NUM_THREADS / OMP_NUM_THREADS */
    linalg_blas_pin_begin();
    moore_traffic *half = NULL;
    int rc = flow_fold_symmetric(t, &half, err);
    C.fold = half != NULL;
    if (rc || (rc = cg_setup(&C, g, half ? half : t, tub, o, err)))
        goto done;
    double gap = o->exact_gap > 0 ? o->exact_gap : 1e-7;
    int64_t added = 0, round = 0;
    const char *stopped = NULL;
    int converged = 0;
    int warm_rounds;
    double *start = NULL;
    rc = cg_warm(&C, cg_warm_rounds(&C), o, &clock, &warm_rounds, err);
    if (!rc)
        rc = cg_warm_point(&C, warm_rounds, &start, err);
    while (!rc) {
        int timed_out;
        double left = o->time_limit > 0 ? o->time_limit - flow_clock_seconds(&clock) : 0;
        if (o->time_limit > 0 && left <= 0)
            left = 1e-3;
        rc = cg_solve(&C, left, start, &timed_out, err);
        free(start);
        start = NULL;
        if (rc)
            break;
        if (timed_out) {
            stopped = "time-limit";
            break;
        }
        if ((rc = cg_price(&C, 0, &added, err)))
            break;
        round++;
        flow_report_bounds(o, &clock, round, C.lower, C.upper);
        converged = C.upper <= (1 + gap) * C.lower;
        if (converged || added == 0 || (stopped = flow_should_stop(o, &clock)))
            break;
    }
    if (rc)
        goto done;
    /* Nothing left to add: the master is optimal for the whole LP up to
     * Clp's tolerances; the certificate is the pair of bounds measured. */
    if (!converged && !stopped)
        converged = C.upper <= (1 + 1e-6) * C.lower;
    cg_result(&C, out);
    out->commodities = moore_traffic_sources(t);
    out->converged = converged;
    out->stopped = stopped;
    out->phases = round;

done:
    cg_clear(&C);
    moore_traffic_free(half);
    linalg_blas_pin_end();
    return rc;
}
