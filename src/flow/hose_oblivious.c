/* hose_oblivious.c — the best oblivious routing for the hose model, as a
 * proven lower bound on the hose throughput (docs/throughput.md, "The
 * optimal oblivious routing").
 *
 * Why: two-phase routing is one oblivious routing; the best one bounds what
 * any fixed routing can prove. Applegate and Cohen (SIGCOMM 2003) write it
 * as one LP: a unit flow f_ab for every ordered pair of server switches and,
 * for every arc e, multipliers π_e(a), λ_e(b) ≥ 0 with
 *     π_e(a) + λ_e(b) ≥ f_ab(e)   and   Σ_a p_a·π_e(a) + Σ_b p_b·λ_e(b) ≤ α,
 * the dual of max Σ T_ab·f_ab(e) over the hose matrices T (a transportation
 * problem), so every hose matrix loads e with at most α: hose θ ≥ 1/α.
 *
 * Size: one flow per pair and arc, k²·2|E| columns for k server switches.
 * Automorphisms (kept endpoint counts) shrink it: averaging an optimal
 * routing over the group gives an optimal one that the group maps to
 * itself, so it suffices to give every orbit of (pair, arc) one variable,
 * every orbit of (pair, switch) one conservation row, every orbit of
 * (arc, server) one π and one λ, every arc orbit one capacity row. The
 * orbits are the classes of a union–find over the generators' images.
 *
 * Proof independent of the LP's tolerances: the flows the LP returns are
 * cut into paths (breadth-first, each path its bottleneck), the paths of a
 * pair are scaled to carry exactly one unit, and every arc's worst load
 * max_T Σ T_ab·f_ab(e) is bounded from above by a feasible dual of the
 * transportation problem: the LP's λ_e repaired against the scaled flows,
 * and with equal server counts the potentials of a max-weight assignment
 * (hose_dual.c), whichever is smaller. The bound is 1 / the largest. */
#include "moore/flow.h"
#include "core/alloc.h"
#include "core/unionfind.h"
#include "flow_internal.h"
#include "hose_internal.h"

#include <coin/Clp_C_Interface.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Flow below this is left out of the paths (the LP's noise). */
#define OBL_TINY 1e-9

typedef struct obl {
    const moore_graph *g;
    const int32_t *p;
    int32_t n, k, *srv, *sidx, *tail;
    int64_t A;
    /* classes of arcs, (arc e, server a) = e·k + a, (pair, arc) =
     * (a·k + b)·A + e, (pair, switch) = (a·k + b)·n + v; −1: none */
    int32_t *ca, *cs, *ct, *cv;
    int64_t na, ns, nt, nv; /* how many classes of each */
    int64_t *ra, *rs, *rt, *rv; /* the smallest member of each class */
} obl;

static void obl_clear(obl *O)
{
    free(O->srv);
    free(O->sidx);
    free(O->tail);
    free(O->ca);
    free(O->cs);
    free(O->ct);
    free(O->cv);
    free(O->ra);
    free(O->rs);
    free(O->rt);
    free(O->rv);
}

/* Joins the classes of x and y; the root is the smaller, so every class's
 * root is its least member. */
static void uf_join(int32_t *par, int32_t x, int32_t y)
{
    x = core_uf_find(par, x);
    y = core_uf_find(par, y);
    if (x < y)
        par[y] = x;
    else if (y < x)
        par[x] = y;
}

/* Turns the forest par[0..size) into dense class numbers in place and
 * lists the least member of each; members whose pair index x / inner is a
 * diagonal pair (a = b, (a·k + a) % (k + 1) = 0) get −1 (inner 0: none). */
static int uf_number(int32_t *par, int64_t size, int64_t inner, int32_t k, int64_t *count,
                     int64_t **rep, moore_error *err)
{
    int64_t c = 0;
    for (int64_t x = 0; x < size; x++) {
        par[x] = par[par[x]]; /* par[x] < x is already a root: now every entry is */
        if (par[x] == x && !(inner && (x / inner) % (k + 1) == 0))
            c++;
    }
    *rep = moore_malloc((size_t)(c ? c : 1), sizeof **rep, err);
    if (!*rep)
        return core_alloc_code(err);
    c = 0;
    for (int64_t x = 0; x < size; x++) {
        if (inner && (x / inner) % (k + 1) == 0)
            par[x] = -1;
        else if (par[x] == x)
            (*rep)[c] = x, par[x] = (int32_t)c++;
        else
            par[x] = par[par[x]]; /* the root, numbered already */
    }
    *count = c;
    return MOORE_OK;
}

/* The arc σ(tail) → σ(head) for each arc, under the switch map sigma. */
static int obl_arc_map(const obl *O, const int32_t *sigma, int64_t *amap, moore_error *err)
{
    const moore_graph *g = O->g;
    for (int64_t e = 0; e < O->A; e++) {
        int32_t u = sigma[O->tail[e]], w = sigma[g->adj[e]];
        amap[e] = -1;
        for (int64_t f = g->offs[u]; f < g->offs[u + 1] && amap[e] < 0; f++)
            if (g->adj[f] == w)
                amap[e] = f;
        if (amap[e] < 0 || (O->sidx[u] < 0) != (O->sidx[O->tail[e]] < 0))
            return moore_error_set(err, MOORE_EINTERNAL, "hose: a generator is no automorphism");
    }
    return MOORE_OK;
}

/* Joins every element with its image under each generator. */
static int obl_join_images(obl *O, const int32_t *gens, int32_t ngens, moore_error *err)
{
    int32_t n = O->n, k = O->k;
    int64_t A = O->A;
    int64_t *amap = moore_malloc((size_t)A, sizeof *amap, err);
    int32_t *smap = moore_malloc((size_t)k, sizeof *smap, err);
    int rc = amap && smap ? MOORE_OK : core_alloc_code(err);
    for (int32_t i = 0; i < ngens && !rc; i++) {
        const int32_t *s = gens + (int64_t)i * n;
        rc = obl_arc_map(O, s, amap, err);
        for (int32_t a = 0; a < k && !rc; a++)
            if ((smap[a] = O->sidx[s[O->srv[a]]]) < 0 || O->p[s[O->srv[a]]] != O->p[O->srv[a]])
                rc = moore_error_set(err, MOORE_EINTERNAL, "hose: a generator moves servers");
        for (int64_t e = 0; e < A && !rc; e++) {
            uf_join(O->ca, (int32_t)e, (int32_t)amap[e]);
            for (int32_t a = 0; a < k; a++)
                uf_join(O->cs, (int32_t)(e * k + a), (int32_t)(amap[e] * k + smap[a]));
        }
        for (int32_t a = 0; a < k && !rc; a++)
            for (int32_t b = 0; b < k; b++) {
                int64_t x = (int64_t)a * k + b, y = (int64_t)smap[a] * k + smap[b];
                for (int64_t e = 0; e < A; e++)
                    uf_join(O->ct, (int32_t)(x * A + e), (int32_t)(y * A + amap[e]));
                for (int32_t v = 0; v < n; v++)
                    uf_join(O->cv, (int32_t)(x * n + v), (int32_t)(y * n + s[v]));
            }
    }
    free(amap);
    free(smap);
    return rc;
}

/* Servers, arc tails and the four class structures. */
static int obl_init(obl *O, const moore_graph *g, const int32_t *p, const int32_t *gens,
                    int32_t ngens, moore_error *err)
{
    memset(O, 0, sizeof *O);
    O->g = g;
    O->p = p;
    O->n = g->n;
    O->A = 2 * g->m;
    int32_t n = g->n;
    for (int32_t v = 0; v < n; v++)
        O->k += p[v] > 0;
    int64_t A = O->A, k = O->k, kk = k * k;
    O->srv = moore_malloc((size_t)k, sizeof *O->srv, err);
    O->sidx = moore_malloc((size_t)n, sizeof *O->sidx, err);
    O->tail = moore_malloc((size_t)A, sizeof *O->tail, err);
    O->ca = moore_malloc((size_t)A, sizeof *O->ca, err);
    O->cs = moore_malloc((size_t)(A * k), sizeof *O->cs, err);
    O->ct = moore_malloc((size_t)(kk * A), sizeof *O->ct, err);
    O->cv = moore_malloc((size_t)(kk * n), sizeof *O->cv, err);
    if (!O->srv || !O->sidx || !O->tail || !O->ca || !O->cs || !O->ct || !O->cv)
        return core_alloc_code(err);
    for (int32_t v = 0, i = 0; v < n; v++) {
        O->sidx[v] = p[v] > 0 ? i : -1;
        if (p[v] > 0)
            O->srv[i++] = v;
        for (int64_t e = g->offs[v]; e < g->offs[v + 1]; e++)
            O->tail[e] = v;
    }
    for (int64_t x = 0; x < A; x++)
        O->ca[x] = (int32_t)x;
    for (int64_t x = 0; x < A * k; x++)
        O->cs[x] = (int32_t)x;
    for (int64_t x = 0; x < kk * A; x++)
        O->ct[x] = (int32_t)x;
    for (int64_t x = 0; x < kk * n; x++)
        O->cv[x] = (int32_t)x;
    int rc = obl_join_images(O, gens, ngens, err);
    if (!rc)
        rc = uf_number(O->ca, A, 0, O->k, &O->na, &O->ra, err);
    if (!rc)
        rc = uf_number(O->cs, A * k, 0, O->k, &O->ns, &O->rs, err);
    if (!rc)
        rc = uf_number(O->ct, kk * A, A, O->k, &O->nt, &O->rt, err);
    if (!rc)
        rc = uf_number(O->cv, kk * n, n, O->k, &O->nv, &O->rv, err);
    return rc;
}

/* The LP in triplets (rows in increasing order), then column-major. */
typedef struct obl_lp {
    int64_t nnz, cap, rows;
    int32_t *tr, *tc;
    double *tv, *rlo, *rhi;
} obl_lp;

static void lp_add(obl_lp *L, int64_t col, double v)
{
    L->tr[L->nnz] = (int32_t)L->rows;
    L->tc[L->nnz] = (int32_t)col;
    L->tv[L->nnz++] = v;
}

static void lp_row(obl_lp *L, double lo, double hi)
{
    L->rlo[L->rows] = lo;
    L->rhi[L->rows++] = hi;
}

/* Columns: α, then g (pair–arc classes), π, λ (arc–server classes). */
static int64_t col_g(const obl *O, int64_t x) { return 1 + O->ct[x]; }
static int64_t col_pi(const obl *O, int64_t e, int32_t a) { return 1 + O->nt + O->cs[e * O->k + a]; }
static int64_t col_la(const obl *O, int64_t e, int32_t b)
{
    return 1 + O->nt + O->ns + O->cs[e * O->k + b];
}

/* Conservation of each (pair, switch) class's representative (not at the
 * destination, whose row the others imply), the dual rows, the capacity
 * rows. */
static void obl_rows(const obl *O, obl_lp *L)
{
    const moore_graph *g = O->g;
    int32_t n = O->n, k = O->k;
    int64_t A = O->A;
    for (int64_t c = 0; c < O->nv; c++) {
        int64_t x = O->rv[c], pair = x / n;
        int32_t a = (int32_t)(pair / k), b = (int32_t)(pair % k), v = (int32_t)(x % n);
        if (v == O->srv[b])
            continue;
        for (int64_t e = g->offs[v]; e < g->offs[v + 1]; e++) {
            lp_add(L, col_g(O, pair * A + e), 1.0);
            int64_t back = g->offs[g->adj[e]]; /* the arc adj[e] → v */
            while (g->adj[back] != v)
                back++;
            lp_add(L, col_g(O, pair * A + back), -1.0);
        }
        double rhs = v == O->srv[a] ? 1.0 : 0.0;
        lp_row(L, rhs, rhs);
    }
    for (int64_t c = 0; c < O->nt; c++) {
        int64_t x = O->rt[c], pair = x / A, e = x % A;
        lp_add(L, col_pi(O, e, (int32_t)(pair / k)), 1.0);
        lp_add(L, col_la(O, e, (int32_t)(pair % k)), 1.0);
        lp_add(L, 1 + c, -1.0);
        lp_row(L, 0, DBL_MAX);
    }
    for (int64_t c = 0; c < O->na; c++) {
        int64_t e = O->ra[c];
        for (int32_t a = 0; a < k; a++) {
            lp_add(L, col_pi(O, e, a), O->p[O->srv[a]]);
            lp_add(L, col_la(O, e, a), O->p[O->srv[a]]);
        }
        lp_add(L, 0, -1.0);
        lp_row(L, -DBL_MAX, 0);
    }
}

/* Triplets → column-major (a stable counting sort keeps each column's rows
 * increasing, so repeated entries are neighbours and are summed). */
static int lp_columns(obl_lp *L, int64_t ncols, CoinBigIndex **start, int **index,
                      double **value, moore_error *err)
{
    *start = moore_calloc((size_t)ncols + 1, sizeof **start, err);
    *index = moore_malloc((size_t)(L->nnz ? L->nnz : 1), sizeof **index, err);
    *value = moore_malloc((size_t)(L->nnz ? L->nnz : 1), sizeof **value, err);
    int64_t *pos = moore_calloc((size_t)ncols + 1, sizeof *pos, err);
    int rc = *start && *index && *value && pos ? MOORE_OK : core_alloc_code(err);
    if (!rc) {
        for (int64_t i = 0; i < L->nnz; i++)
            pos[L->tc[i] + 1]++;
        for (int64_t c = 0; c < ncols; c++)
            pos[c + 1] += pos[c];
        for (int64_t i = 0; i < L->nnz; i++) {
            int64_t q = pos[L->tc[i]]++;
            (*index)[q] = L->tr[i];
            (*value)[q] = L->tv[i];
        }
        int64_t out = 0, from = 0;
        for (int64_t c = 0; c < ncols; c++) {
            (*start)[c] = (CoinBigIndex)out;
            for (int64_t q = from; q < pos[c]; q++) {
                if (out > (*start)[c] && (*index)[out - 1] == (*index)[q])
                    (*value)[out - 1] += (*value)[q];
                else
                    (*index)[out] = (*index)[q], (*value)[out++] = (*value)[q];
            }
            from = pos[c];
        }
        (*start)[ncols] = (CoinBigIndex)out;
    }
    free(pos);
    return rc;
}

/* Builds and solves the LP; *sol (the column values) on the heap, NULL when
 * Clp found no optimum; *alpha its value. */
static int obl_solve(const obl *O, double **sol, double *alpha, moore_error *err)
{
    int64_t ncols = 1 + O->nt + 2 * O->ns, deg = 0;
    for (int64_t c = 0; c < O->nv; c++)
        deg += 2 * moore_graph_degree(O->g, (int32_t)(O->rv[c] % O->n));
    obl_lp L = { 0 };
    L.cap = deg + 3 * O->nt + O->na * (2 * O->k + 1);
    int64_t maxrows = O->nv + O->nt + O->na;
    L.tr = moore_malloc((size_t)L.cap, sizeof *L.tr, err);
    L.tc = moore_malloc((size_t)L.cap, sizeof *L.tc, err);
    L.tv = moore_malloc((size_t)L.cap, sizeof *L.tv, err);
    L.rlo = moore_malloc((size_t)maxrows, sizeof *L.rlo, err);
    L.rhi = moore_malloc((size_t)maxrows, sizeof *L.rhi, err);
    double *obj = moore_calloc((size_t)ncols, sizeof *obj, err);
    CoinBigIndex *start = NULL;
    int *index = NULL;
    double *value = NULL;
    int rc = L.tr && L.tc && L.tv && L.rlo && L.rhi && obj ? MOORE_OK : core_alloc_code(err);
    *sol = NULL;
    if (!rc) {
        obl_rows(O, &L);
        rc = lp_columns(&L, ncols, &start, &index, &value, err);
    }
    if (!rc) {
        obj[0] = 1;
        Clp_Simplex *model = Clp_newModel();
        Clp_setLogLevel(model, 0); /* the library never prints */
        Clp_loadProblem(model, (int)ncols, (int)L.rows, start, index, value, NULL, NULL, obj,
                        L.rlo, L.rhi);
        Clp_dual(model, 0);
        if (Clp_isProvenOptimal(model)) {
            *sol = moore_malloc((size_t)ncols, sizeof **sol, err);
            if (*sol) {
                memcpy(*sol, Clp_getColSolution(model), (size_t)ncols * sizeof **sol);
                *alpha = Clp_getObjValue(model);
            } else
                rc = core_alloc_code(err);
        }
        Clp_deleteModel(model);
    }
    free(L.tr);
    free(L.tc);
    free(L.tv);
    free(L.rlo);
    free(L.rhi);
    free(obj);
    free(start);
    free(index);
    free(value);
    return rc;
}

/* Cuts pair (a, b)'s flow x (the LP's, clipped; used as scratch) into
 * paths of at least OBL_TINY each and writes the paths' flow, scaled to one
 * unit, into column a·k + b of the per-arc matrices W. Returns the flow the
 * paths carried before scaling. */
static double obl_route(const obl *O, int32_t a, int32_t b, double *x, double *used,
                        int64_t *via, int32_t *queue, double *W)
{
    const moore_graph *g = O->g;
    int32_t s = O->srv[a], t = O->srv[b];
    double total = 0;
    memset(used, 0, (size_t)O->A * sizeof *used);
    for (;;) {
        for (int32_t v = 0; v < O->n; v++)
            via[v] = -1;
        via[s] = -2;
        int32_t head = 0, tailq = 0;
        queue[tailq++] = s;
        while (head < tailq && via[t] == -1) {
            int32_t u = queue[head++];
            for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++)
                if (via[g->adj[e]] == -1 && x[e] > OBL_TINY) {
                    via[g->adj[e]] = e;
                    queue[tailq++] = g->adj[e];
                }
        }
        if (via[t] == -1)
            break;
        double bottleneck = INFINITY;
        for (int32_t v = t; v != s; v = O->tail[via[v]])
            bottleneck = fmin(bottleneck, x[via[v]]);
        for (int32_t v = t; v != s; v = O->tail[via[v]]) {
            x[via[v]] -= bottleneck;
            used[via[v]] += bottleneck;
        }
        total += bottleneck;
    }
    int64_t kk = (int64_t)O->k * O->k, col = (int64_t)a * O->k + b;
    for (int64_t e = 0; e < O->A; e++)
        W[e * kk + col] = total > 0 ? used[e] / total : 0;
    return total;
}

/* Every pair's scaled paths into W (A matrices of k × k); *least: the
 * smallest flow a pair's paths carried before scaling. */
static int obl_route_all(const obl *O, const double *sol, int nt, double *W, double *least,
                         moore_error *err)
{
    int32_t k = O->k;
    int64_t A = O->A;
    int failed = 0;
    double low = INFINITY;
#pragma omp parallel num_threads(nt) reduction(min : low)
    {
        double *x = core_par_malloc((size_t)A, sizeof *x, &failed);
        double *used = core_par_malloc((size_t)A, sizeof *used, &failed);
        int64_t *via = core_par_malloc((size_t)O->n, sizeof *via, &failed);
        int32_t *queue = core_par_malloc((size_t)O->n, sizeof *queue, &failed);
#pragma omp for schedule(dynamic, 4)
        for (int64_t pair = 0; pair < (int64_t)k * k; pair++) {
            int32_t a = (int32_t)(pair / k), b = (int32_t)(pair % k);
            if (!x || !used || !via || !queue)
                continue;
            if (a == b) {
                for (int64_t e = 0; e < A; e++)
                    W[e * k * k + pair] = 0;
                continue;
            }
            for (int64_t e = 0; e < A; e++)
                x[e] = fmax(0.0, sol[col_g(O, pair * A + e)]);
            double carried = obl_route(O, a, b, x, used, via, queue, W);
            if (carried < low)
                low = carried;
        }
        free(x);
        free(used);
        free(via);
        free(queue);
    }
    *least = low;
    return core_par_failed(err, failed, "hose: oblivious routing paths");
}

/* An upper bound on arc e's worst hose load max_T Σ T_ab·W(a,b) from the
 * dual V ≥ 0 (the LP's λ_e): U_a = max(0, max_b W(a,b) − V_b), then V
 * lowered against U; the bound Σ p_a·U_a + Σ p_b·V_b. */
static double obl_repair(const obl *O, int64_t e, const double *sol, const double *Wm,
                         double *U, double *V)
{
    int32_t k = O->k;
    for (int32_t b = 0; b < k; b++)
        V[b] = fmax(0.0, sol[col_la(O, e, b)]);
    for (int32_t a = 0; a < k; a++) {
        U[a] = 0;
        for (int32_t b = 0; b < k; b++)
            U[a] = fmax(U[a], Wm[(int64_t)a * k + b] - V[b]);
    }
    double sum = 0;
    for (int32_t b = 0; b < k; b++) {
        V[b] = 0;
        for (int32_t a = 0; a < k; a++)
            V[b] = fmax(V[b], Wm[(int64_t)a * k + b] - U[a]);
        sum += O->p[O->srv[b]] * (U[b] + V[b]);
    }
    return sum;
}

/* With every server switch holding P servers the hose matrices are P times
 * the doubly substochastic ones, so (W ≥ 0) the worst load is P times a
 * max-weight assignment, bounded by P·(Σ U + Σ V) for any U_a + V_b ≥ W. */
static int obl_assign(int32_t k, int32_t P, const double *Wm, int32_t *to, double *U,
                      double *V, double *bound, moore_error *err)
{
    int rc = flow_assign_max(k, Wm, to, U, V, err);
    if (rc)
        return rc;
    double sum = 0;
    for (int32_t a = 0; a < k; a++) {
        double u = -INFINITY;
        for (int32_t b = 0; b < k; b++)
            u = fmax(u, Wm[(int64_t)a * k + b] - V[b]);
        sum += u + V[a];
    }
    *bound = P * sum;
    return MOORE_OK;
}

/* The largest proven worst load over all arcs (OpenMP over arcs). */
static int obl_worst_load(const obl *O, const double *sol, const double *W, int nt,
                          double *worst, moore_error *err)
{
    int32_t k = O->k, P = O->p[O->srv[0]];
    for (int32_t a = 1; a < k; a++)
        if (O->p[O->srv[a]] != P)
            P = 0;
    int failed = 0;
    double most = 0;
#pragma omp parallel num_threads(nt) reduction(max : most)
    {
        double *U = core_par_malloc((size_t)k, sizeof *U, &failed);
        double *V = core_par_malloc((size_t)k, sizeof *V, &failed);
        int32_t *to = core_par_malloc((size_t)k, sizeof *to, &failed);
        moore_error local;
#pragma omp for schedule(dynamic, 4)
        for (int64_t e = 0; e < O->A; e++) {
            if (!U || !V || !to)
                continue;
            const double *Wm = W + e * (int64_t)k * k;
            double b = obl_repair(O, e, sol, Wm, U, V), h;
            if (P > 0 && obl_assign(k, P, Wm, to, U, V, &h, &local)) {
#pragma omp atomic write
                failed = 1;
            } else if (P > 0)
                b = fmin(b, h);
            most = fmax(most, b);
        }
        free(U);
        free(V);
        free(to);
    }
    *worst = most;
    return core_par_failed(err, failed, "hose: oblivious routing loads");
}

int flow_hose_oblivious(const moore_graph *g, const int32_t *p, const int32_t *gens,
                        int32_t ngens, int threads, double *lower, double *lp_value,
                        moore_error *err)
{
    *lower = 0;
    *lp_value = 0;
    int32_t k = 0;
    for (int32_t v = 0; v < g->n; v++)
        k += p[v] > 0;
    double kk = (double)k * k, A = 2.0 * (double)g->m;
    if (k < 2 || kk * (A + g->n) > HOSE_OBLIVIOUS_MAX)
        return MOORE_OK; /* too large to index: no bound */
    int rc = moore_memory_guard(kk * (A + g->n) * 4.0 + kk * A * 8.0,
                                "hose: the oblivious-routing LP", err);
    obl O = { 0 };
    double *sol = NULL, *W = NULL, alpha = 0, least = 0, worst = 0;
    int nt = threads > 0 ? threads : omp_get_max_threads();
    if (!rc)
        rc = obl_init(&O, g, p, gens, ngens, err);
    if (!rc && (double)O.nt + 2.0 * (double)O.ns > HOSE_OBLIVIOUS_COLS)
        goto done; /* the LP would be too slow even after the symmetry */
    if (!rc)
        rc = obl_solve(&O, &sol, &alpha, err);
    if (!rc && sol) {
        W = moore_malloc((size_t)(kk * A), sizeof *W, err);
        rc = W ? obl_route_all(&O, sol, nt, W, &least, err) : core_alloc_code(err);
    }
    if (!rc && sol && least > 0.5) /* else the LP's flows are no routing */
        rc = obl_worst_load(&O, sol, W, nt, &worst, err);
    if (!rc && worst > 0) {
        *lower = 1.0 / (worst * (1 + 1e-9) + 1e-12); /* the sums' rounding */
        *lp_value = alpha > 0 ? 1.0 / alpha : 0;
    }
done:
    obl_clear(&O);
    free(sol);
    free(W);
    return rc;
}
