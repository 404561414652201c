/* hose_dual.c — an upper bound on the hose throughput from arc lengths:
 * the longest matching's dual lengths, then the permutation those lengths
 * make longest (docs/throughput.md, "The dual-length bound").
 *
 * Why: for any lengths l ≥ 0 on the arcs and any hose matrix T, weak
 * duality of the concurrent-flow LP gives θ(T) ≤ Σ_a l_a / Σ T(i,j)·d_l(i,j)
 * (every unit of θ·T crosses a path at least d_l long, and the arcs hold
 * Σ l_a of length·capacity). With the pairs i → π(i) of a permutation,
 * each sending min(p_i, p_π(i)), T is a hose matrix, and the π that
 * maximises Σ min(p_i, p_π(i))·d_l(i, π(i)) is an assignment problem. Unit
 * lengths give TUB, blind to where the paths of a matrix collide; lengths
 * concentrated on the arcs a permutation congests (its dual, approximated
 * by a few Garg–Könemann phases) see that, and the assignment then looks
 * for a permutation that crosses those arcs even more. Every bound is
 * proven by itself, whatever the quality of the lengths. Deterministic:
 * the phases run in a fixed order, the all-pairs searches write their own
 * rows. */
#include "moore/flow.h"
#include "core/alloc.h"
#include "flow_internal.h"
#include "hose_internal.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Step of the length update per unit routed over a unit-capacity arc. */
/* The length step per unit routed over a unit-capacity arc: STEP_START at
 * first, halving every STEP_HALF phases down to STEP_END (a large step
 * brings the lengths near the congested arcs within few phases, a small one
 * then settles them; measured on Slim Fly, PolarFly, Jellyfish, Xpander). */
#define STEP_START 0.3
#define STEP_END 0.05
#define STEP_HALF 3.0

/* At most this many phases, and server switches (the k × k distances). */
#define DUAL_PHASES 30
#define DUAL_KMAX 3000

typedef struct dual {
    const moore_graph *g;
    const int32_t *p;
    int64_t arcs, *rev;
    int32_t k, *srv;     /* the server switches */
    int32_t *to;         /* the permutation, as indices into srv */
    double *len, *D;     /* arc lengths; k × k server-to-server distances */
    double *best, best_value; /* the lengths giving the permutation its least bound */
    flow_ws ws;          /* the phases' searches (with path arcs) */
} dual;

static int32_t pair_demand(const dual *R, int32_t i, int32_t j)
{
    int32_t a = R->p[R->srv[i]], b = R->p[R->srv[j]];
    return a < b ? a : b;
}

/* One Garg–Könemann phase on the permutation: every pair routes its demand
 * in units along a shortest path, each unit lengthening its arcs by
 * (1 + ε); the lengths are then scaled to sum to the number of arcs (the
 * bound does not depend on their scale). */
static void dual_phase(dual *R, double step)
{
    const moore_graph *g = R->g;
    for (int32_t i = 0; i < R->k; i++) {
        int32_t j = R->to[i];
        if (j == i)
            continue;
        int32_t s = R->srv[i], t = R->srv[j];
        for (int32_t u = pair_demand(R, i, j); u > 0; u--) {
            flow_dijkstra_to(g, R->len, R->rev, s, t, 0, &R->ws);
            for (int32_t v = t; v != s;) {
                int64_t a = R->ws.pred[v];
                R->len[a] *= 1 + step;
                v = g->adj[R->rev[a]];
            }
        }
    }
    double sum = 0;
    for (int64_t a = 0; a < R->arcs; a++)
        sum += R->len[a];
    for (int64_t a = 0; a < R->arcs; a++)
        R->len[a] *= (double)R->arcs / sum;
}

/* The current permutation's bound Σ l / Σ d·d_l under the current lengths;
 * the lengths are kept in R->best when it is the least of the round. */
static void dual_keep(dual *R, const double *len)
{
    double lsum = 0, tsum = 0;
    for (int64_t a = 0; a < R->arcs; a++)
        lsum += len[a];
    for (int32_t i = 0; i < R->k; i++) {
        int32_t j = R->to[i];
        if (j == i)
            continue;
        flow_dijkstra_to(R->g, len, R->rev, R->srv[i], R->srv[j], 0, &R->ws);
        tsum += pair_demand(R, i, j) * R->ws.dist[R->srv[j]];
    }
    if (tsum > 0 && lsum / tsum < R->best_value) {
        R->best_value = lsum / tsum;
        memcpy(R->best, len, (size_t)R->arcs * sizeof *R->best);
    }
}

/* D(i, j) = d_l(srv[i], srv[j]) for all server pairs: one full search per
 * server switch, on nt threads, each writing its own row. */
static int dual_apsp(dual *R, int nt, moore_error *err)
{
    int failed = 0;
#pragma omp parallel num_threads(nt)
    {
        flow_ws w = { 0 };
        moore_error e = { 0 };
        int ok = flow_ws_init(&w, R->g->n, 0, &e) == MOORE_OK;
        if (!ok)
            core_par_note(&failed, core_alloc_code(&e));
#pragma omp for schedule(dynamic, 4)
        for (int32_t i = 0; i < R->k; i++)
            if (ok) {
                flow_dijkstra(R->g, R->best, R->srv[i], 0, &w);
                for (int32_t j = 0; j < R->k; j++)
                    R->D[(int64_t)i * R->k + j] = w.dist[R->srv[j]];
            }
        flow_ws_clear(&w);
    }
    return failed ? core_par_failed(err, failed, "hose: dual-length distances") : MOORE_OK;
}

/* The pair weight the assignment maximises: demand × length (R->D holds
 * the weights once dual_step has multiplied them in). */
static double dual_weight(const dual *R, int32_t i, int32_t j)
{
    return R->D[(int64_t)i * R->k + j];
}

int flow_assign_max(int32_t k, const double *W, int32_t *to, double *U, double *V,
                    moore_error *err)
{
    /* Hungarian method with potentials on the costs −W, 1-based scratch */
    double *u = moore_malloc((size_t)k + 1, sizeof *u, err);
    double *v = moore_malloc((size_t)k + 1, sizeof *v, err);
    double *minv = moore_malloc((size_t)k + 1, sizeof *minv, err);
    int32_t *way = moore_malloc((size_t)k + 1, sizeof *way, err);
    int32_t *rowof = moore_malloc((size_t)k + 1, sizeof *rowof, err);
    char *used = moore_malloc((size_t)k + 1, 1, err);
    int rc = u && v && minv && way && rowof && used ? MOORE_OK : core_alloc_code(err);
    for (int32_t j = 0; !rc && j <= k; j++)
        u[j] = v[j] = 0, rowof[j] = 0;
    for (int32_t i = 1; !rc && i <= k; i++) {
        rowof[0] = i;
        int32_t j0 = 0;
        for (int32_t j = 0; j <= k; j++)
            minv[j] = INFINITY, used[j] = 0;
        do {
            used[j0] = 1;
            int32_t i0 = rowof[j0], j1 = 0;
            double delta = INFINITY;
            const double *row = W + (int64_t)(i0 - 1) * k;
            for (int32_t j = 1; j <= k; j++)
                if (!used[j]) {
                    double cur = -row[j - 1] - u[i0] - v[j];
                    if (cur < minv[j])
                        minv[j] = cur, way[j] = j0;
                    if (minv[j] < delta)
                        delta = minv[j], j1 = j;
                }
            for (int32_t j = 0; j <= k; j++)
                if (used[j])
                    u[rowof[j]] += delta, v[j] -= delta;
                else
                    minv[j] -= delta;
            j0 = j1;
        } while (rowof[j0] != 0);
        do {
            int32_t j1 = way[j0];
            rowof[j0] = rowof[j1];
            j0 = j1;
        } while (j0);
    }
    for (int32_t j = 1; !rc && j <= k; j++) {
        to[rowof[j] - 1] = j - 1;
        if (U)
            U[j - 1] = -u[j];
        if (V)
            V[j - 1] = -v[j];
    }
    free(u);
    free(v);
    free(minv);
    free(way);
    free(rowof);
    free(used);
    return rc;
}

/* Σ l / Σ weight of the current permutation, with a margin for rounding
 * (every sum is within (1 ± 10⁻¹²) of the exact one below 10⁶ switches). */
static double dual_value(const dual *R)
{
    double lsum = 0, tsum = 0;
    for (int64_t a = 0; a < R->arcs; a++)
        lsum += R->best[a];
    for (int32_t i = 0; i < R->k; i++)
        tsum += dual_weight(R, i, R->to[i]);
    return tsum > 0 ? lsum / tsum * (1 + 1e-9) : INFINITY;
}

/* The assignment step and its bound: the permutation longest under the
 * current lengths, into R->to. */
static int dual_step(dual *R, int nt, double *bound, moore_error *err)
{
    int32_t k = R->k;
    int rc = dual_apsp(R, nt, err);
    for (int32_t i = 0; !rc && i < k; i++) /* distances → demand × distance */
        for (int32_t j = 0; j < k; j++)
            R->D[(int64_t)i * k + j] *= i == j ? 0 : pair_demand(R, i, j);
    if (!rc)
        rc = flow_assign_max(k, R->D, R->to, NULL, NULL, err);
    if (!rc) {
        double b = dual_value(R);
        if (b < *bound)
            *bound = b;
    }
    return rc;
}

static void dual_clear(dual *R)
{
    free(R->rev);
    free(R->srv);
    free(R->to);
    free(R->len);
    free(R->best);
    free(R->D);
    flow_ws_clear(&R->ws);
}

/* The server switches, unit lengths and the start permutation: the pairs
 * of hp both ways, every other server switch to itself. */
static int dual_init(dual *R, const moore_graph *g, const int32_t *p, const hose_pairs *hp,
                     moore_error *err)
{
    R->g = g;
    R->p = p;
    R->arcs = 2 * g->m;
    for (int32_t v = 0; v < g->n; v++)
        R->k += p[v] > 0;
    size_t n = (size_t)(g->n ? g->n : 1), k = (size_t)(R->k ? R->k : 1);
    int rc = moore_memory_guard((double)k * (double)k * sizeof(double), "hose: dual distances",
                                err);
    R->rev = rc ? NULL : moore_malloc((size_t)(R->arcs ? R->arcs : 1), sizeof *R->rev, err);
    R->len = rc ? NULL : moore_malloc((size_t)(R->arcs ? R->arcs : 1), sizeof *R->len, err);
    R->srv = rc ? NULL : moore_malloc(k, sizeof *R->srv, err);
    R->to = rc ? NULL : moore_malloc(k, sizeof *R->to, err);
    R->D = rc ? NULL : moore_malloc(k * k, sizeof *R->D, err);
    R->best = rc ? NULL : moore_malloc((size_t)(R->arcs ? R->arcs : 1), sizeof *R->best, err);
    int32_t *idx = rc ? NULL : moore_malloc(n, sizeof *idx, err);
    if (!rc && !(R->rev && R->len && R->srv && R->to && R->D && R->best && idx))
        rc = core_alloc_code(err);
    if (!rc)
        rc = flow_ws_init(&R->ws, g->n, 1, err);
    if (!rc) {
        moore_graph_reverse_arcs(g, R->rev);
        for (int64_t a = 0; a < R->arcs; a++)
            R->len[a] = 1;
        int32_t c = 0;
        for (int32_t v = 0; v < g->n; v++) {
            idx[v] = p[v] > 0 ? c : -1;
            if (p[v] > 0)
                R->srv[c] = v, R->to[c] = c, c++;
        }
        for (int32_t i = 0; i < hp->count; i++)
            if (idx[hp->u[i]] >= 0 && idx[hp->v[i]] >= 0) {
                R->to[idx[hp->u[i]]] = idx[hp->v[i]];
                R->to[idx[hp->v[i]]] = idx[hp->u[i]];
            }
    }
    free(idx);
    return rc;
}

/* How many phases fit in budget arc visits: a phase searches once per unit
 * of demand, each search visiting at most every arc; 0 when the all-pairs
 * distances or the assignment would be too dear. */
static int32_t dual_phases(const moore_graph *g, const dual *R, double budget)
{
    double units = 0;
    for (int32_t i = 0; i < R->k; i++)
        units += R->to[i] != i ? pair_demand(R, i, R->to[i]) : 0;
    double per = units * 2.0 * (double)(g->m > 0 ? g->m : 1);
    double k = R->k;
    if (units <= 0 || k > DUAL_KMAX || k * 2.0 * (double)g->m + k * k * k > budget)
        return 0;
    double f = budget / per;
    return f >= DUAL_PHASES ? DUAL_PHASES : (int32_t)f;
}

/* Whether the phases should stop: after phase f of P, when the bound,
 * falling as fast as over the last phase (with room to spare: twice), could
 * not reach target by the last phase. */
static int dual_hopeless(double before, double now, int32_t f, int32_t P, double target)
{
    double fall = before > now ? before - now : 0;
    return f >= 1 && now - 2.0 * fall * (double)(P - 1 - f) > target;
}

/* The phases, then the assignment; the permutation behind *bound into
 * perm (switch ids, −1: idle) when perm is not NULL. Stops early (no
 * assignment) when the bound would not get below target. */
static int dual_run(dual *R, int32_t P, int nt, double target, double *bound, int32_t *perm,
                    moore_error *err)
{
    int32_t *start = moore_malloc((size_t)R->k, sizeof *start, err);
    if (!start)
        return core_alloc_code(err);
    R->best_value = INFINITY;
    dual_keep(R, R->len);
    int hopeless = 0;
    for (int32_t f = 0; f < P && !hopeless; f++) {
        double step = STEP_START * pow(2.0, -f / STEP_HALF), before = R->best_value;
        dual_phase(R, step > STEP_END ? step : STEP_END);
        dual_keep(R, R->len);
        hopeless = dual_hopeless(before, R->best_value, f, P, target);
    }
    memcpy(start, R->to, (size_t)R->k * sizeof *start);
    *bound = R->best_value * (1 + 1e-9); /* the start permutation's own bound */
    double before = *bound;
    int rc = hopeless ? MOORE_OK : dual_step(R, nt, bound, err);
    if (!rc && *bound >= before) /* the assignment found no worse permutation */
        memcpy(R->to, start, (size_t)R->k * sizeof *start);
    for (int32_t v = 0; !rc && perm && v < R->g->n; v++)
        perm[v] = -1;
    for (int32_t i = 0; !rc && perm && i < R->k; i++)
        perm[R->srv[i]] = R->to[i] != i ? R->srv[R->to[i]] : -1;
    free(start);
    return rc;
}

int flow_hose_dual_bound(const moore_graph *g, const int32_t *p, const hose_pairs *hp,
                         int threads, double budget, double target, double *bound,
                         int32_t *phases, int32_t *perm, moore_error *err)
{
    int nt = threads > 0 ? threads : omp_get_max_threads();
    dual R = { 0 };
    *bound = INFINITY;
    *phases = 0;
    int32_t k = 0;
    for (int32_t v = 0; v < g->n; v++)
        k += p[v] > 0;
    if (k > DUAL_KMAX)
        return MOORE_OK; /* before the k² distances are allocated */
    int rc = dual_init(&R, g, p, hp, err);
    int32_t P = rc ? 0 : dual_phases(g, &R, budget);
    if (!rc && P >= 2) {
        rc = dual_run(&R, P, nt, target, bound, perm, err);
        *phases = P;
    }
    dual_clear(&R);
    return rc;
}
