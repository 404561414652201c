/* clos_cert.c — the uniform throughput of a folded Clos proven by a flow
 * written down (include/moore/closflow.h, docs/throughput.md).
 *
 * Why: the (1+ε) approximation stops a few percent from the optimum, and a
 * Clos that carries uniform traffic at barely more than full rate (its leaves
 * send p·(S−p)/(S−1) over p uplinks: θ ≤ (S−1)/(S−p), 1.0023 at 24 servers
 * per leaf and S = 10,000) stays undecided. The structure makes the exact
 * problem small:
 *  - the leaves of a pod are alike (each links to every spine of the pod), so
 *    they can all split their traffic over the spines in one set of
 *    proportions, each in proportion to its servers: a leaf of p servers puts
 *    p/s_a of what spine σ forwards for its pod on link leaf→σ;
 *  - cores with the same spines are alike, so a class of k such cores is one
 *    node whose arcs carry k;
 *  - traffic between pods climbs to a core class and comes down to the
 *    destination pod's spines; traffic inside a pod turns at every spine
 *    evenly.
 * Commodity b = everything destined to pod b. The LP (columns θ, y_b(σ,κ) up
 * from spine σ to class κ, z(κ,τ) down to spine τ of pod(τ)):
 *   maximise θ
 *   Σ_σ y_b(σ,κ) = Σ_{τ∈b} z(κ,τ)                  each b, κ (conservation)
 *   Σ_{σ∈a} Σ_κ y_b(σ,κ) = θ·D_ab                    each pod pair a ≠ b
 *   Σ_b y_b(σ,κ) ≤ k_κ,  z(κ,τ) ≤ k_κ               arc capacities
 *   (p/s_a)·Σ_b Σ_κ y_b(σ,κ) + θ·I(p) ≤ 1           link leaf→σ, every p in pod a
 *   (p/s_b)·Σ_κ z(κ,σ) + θ·I(p) ≤ 1                  link σ→leaf
 * with D_ab = s_a·s_b/(S−1) and I(p) = p·(s_a−p)/((S−1)·spines_a), the
 * in-pod load of a leaf of p servers on each of its links.
 * Certificate: Clp's answer is clamped to ≥ 0, each (b, κ)'s down-flow scaled
 * to equal its up-flow exactly, then θ' = min A_ab / D_ab over what each pod
 * pair now sends and L = the largest arc load recomputed from the flow (leaf
 * links included); the flow divided by L carries θ'/L times the matrix within
 * capacity, so θ ≥ θ'/L. Whether it is the optimum: it restricts routes to
 * up-down ones and the leaves to shared proportions; the tests compare it
 * with the exact LP on small Clos networks. */
#include "moore/closflow.h"
#include "core/alloc.h"

#include <coin/Clp_C_Interface.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CC_CORE = 0, CC_LEAF = 1, CC_SPINE = 2 };

/* The shape of a Clos graph and the LP's index maps. */
typedef struct cc_shape {
    const moore_graph *g;
    int32_t pods, spines, classes;
    int8_t *kind;          /* per switch */
    int32_t *pod;          /* per switch: pod of a leaf or spine, -1 for a core */
    int32_t *sidx;         /* per switch: spine index, or -1 */
    int32_t *cls;          /* per switch: core class, or -1 */
    int32_t *csize;        /* per class: cores */
    double *srv;           /* per pod: servers */
    int32_t *nsp;          /* per pod: spines */
    int32_t *poff, *pval;  /* per pod: its leaves' distinct server counts */
    double S;
    int64_t arcs;          /* spine–class arcs e */
    int32_t *a_sp, *a_cl;  /* e → spine switch, class */
    int64_t *coff;         /* per class: first arc (arcs are grouped by class) */
    int32_t *sp_list;      /* spine index → switch */
    int64_t *lrow;         /* per spine index: first leaf row (distinct p of its pod) */
    int64_t leafrows;
} cc_shape;

static void cc_clear(cc_shape *s)
{
    free(s->kind);
    free(s->pod);
    free(s->sidx);
    free(s->cls);
    free(s->csize);
    free(s->srv);
    free(s->nsp);
    free(s->poff);
    free(s->pval);
    free(s->a_sp);
    free(s->a_cl);
    free(s->coff);
    free(s->sp_list);
    free(s->lrow);
    memset(s, 0, sizeof *s);
}

static double cc_intra(const cc_shape *s, int32_t a, double p)
{
    return p * (s->srv[a] - p) / ((s->S - 1) * s->nsp[a]);
}

/* Leaves, spines and cores by servers and links; pods by a walk over the
 * leaf–spine links. */
static int cc_tiers(cc_shape *s, moore_error *err)
{
    const moore_graph *g = s->g;
    int32_t *queue = moore_malloc((size_t)g->n + 1, sizeof *queue, err);
    if (!queue)
        return core_alloc_code(err);
    for (int32_t v = 0; v < g->n; v++) {
        s->pod[v] = s->sidx[v] = s->cls[v] = -1;
        s->kind[v] = g->endpoints[v] > 0 ? CC_LEAF : CC_CORE;
        s->S += g->endpoints[v];
    }
    int rc = MOORE_OK;
    for (int32_t u = 0; !rc && u < g->n; u++)
        for (int64_t k = g->offs[u]; !rc && s->kind[u] == CC_LEAF && k < g->offs[u + 1]; k++) {
            if (s->kind[g->adj[k]] == CC_LEAF)
                rc = moore_error_set(err, MOORE_EINVAL, "clos flow: switches %d and %d both "
                                     "have servers and are linked: not a folded Clos",
                                     (int)u, (int)g->adj[k]);
            else
                s->kind[g->adj[k]] = CC_SPINE;
        }
    for (int32_t r = 0; !rc && r < g->n; r++) {
        if (s->kind[r] != CC_LEAF || s->pod[r] >= 0)
            continue;
        int32_t head = 0, tail = 0, a = s->pods++;
        queue[tail++] = r;
        s->pod[r] = a;
        while (head < tail) {
            int32_t u = queue[head++];
            for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
                int32_t v = g->adj[k];
                if (s->pod[v] < 0 && s->kind[v] != CC_CORE &&
                    (s->kind[u] == CC_LEAF || s->kind[v] == CC_LEAF)) {
                    s->pod[v] = a;
                    queue[tail++] = v;
                }
            }
        }
    }
    free(queue);
    if (!rc && s->S < 2)
        rc = moore_error_set(err, MOORE_EINVAL, "clos flow: uniform traffic needs at least 2 "
                             "servers, the topology has %.0f", s->S);
    return rc;
}

/* Every leaf links to every spine of its pod; spines link to leaves of their
 * pod and to cores; cores link to spines only. */
static int cc_check(cc_shape *s, moore_error *err)
{
    const moore_graph *g = s->g;
    s->srv = moore_calloc((size_t)s->pods + 1, sizeof *s->srv, err);
    s->nsp = moore_calloc((size_t)s->pods + 1, sizeof *s->nsp, err);
    s->sp_list = moore_malloc((size_t)g->n + 1, sizeof *s->sp_list, err);
    if (!s->srv || !s->nsp || !s->sp_list)
        return core_alloc_code(err);
    for (int32_t v = 0; v < g->n; v++) {
        if (s->kind[v] == CC_LEAF)
            s->srv[s->pod[v]] += g->endpoints[v];
        if (s->kind[v] == CC_SPINE) {
            s->sidx[v] = s->spines;
            s->sp_list[s->spines++] = v;
            s->nsp[s->pod[v]]++;
        }
    }
    for (int32_t u = 0; u < g->n; u++) {
        if (s->kind[u] == CC_LEAF && moore_graph_degree(g, u) != s->nsp[s->pod[u]])
            return moore_error_set(err, MOORE_EINVAL, "clos flow: leaf %d links to %d of the "
                                   "%d spines of its pod: not a folded Clos", (int)u,
                                   (int)moore_graph_degree(g, u), (int)s->nsp[s->pod[u]]);
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            int32_t v = g->adj[k];
            if (s->kind[u] != CC_LEAF && s->kind[u] == s->kind[v])
                return moore_error_set(err, MOORE_EINVAL, "clos flow: switches %d and %d are "
                                       "in one tier and linked: not a folded Clos", (int)u,
                                       (int)v);
        }
    }
    return MOORE_OK;
}

static const moore_graph *cc_sort_graph; /* qsort has no context argument */

static int cc_by_row(const void *va, const void *vb)
{
    const moore_graph *g = cc_sort_graph;
    int32_t a = *(const int32_t *)va, b = *(const int32_t *)vb;
    int64_t da = moore_graph_degree(g, a), db = moore_graph_degree(g, b);
    if (da != db)
        return da < db ? -1 : 1;
    int c = memcmp(g->adj + g->offs[a], g->adj + g->offs[b], (size_t)da * sizeof *g->adj);
    return c ? c : (a < b ? -1 : 1);
}

/* Groups the nc sorted cores into classes: s->cls, s->csize, s->coff, s->classes. */
static void cc_group(cc_shape *s, const int32_t *cores, int32_t nc)
{
    const moore_graph *g = s->g;
    for (int32_t i = 0; i < nc; i++) {
        int32_t v = cores[i], w = i ? cores[i - 1] : -1;
        int same = w >= 0 && moore_graph_degree(g, v) == moore_graph_degree(g, w) &&
                   !memcmp(g->adj + g->offs[v], g->adj + g->offs[w],
                           (size_t)moore_graph_degree(g, v) * sizeof *g->adj);
        if (!same) {
            s->coff[s->classes + 1] = s->coff[s->classes] + moore_graph_degree(g, v);
            s->classes++;
        }
        s->cls[v] = s->classes - 1;
        s->csize[s->classes - 1]++;
    }
}

/* Each class's arcs (spine, class) from its first core's row. */
static void cc_arcs_fill(cc_shape *s, const int32_t *cores, int32_t nc)
{
    const moore_graph *g = s->g;
    for (int32_t i = 0; i < nc; i++) {
        int32_t v = cores[i], c = s->cls[v];
        if (i && s->cls[cores[i - 1]] == c)
            continue;
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++) {
            int64_t e = s->coff[c] + (k - g->offs[v]);
            s->a_sp[e] = g->adj[k];
            s->a_cl[e] = c;
        }
    }
}

/* Cores with the same spines form one class; arcs e = (spine, class). It
 * fills the caller's s: on failure what it allocated is left to cc_clear. */
static int cc_classes(cc_shape *s, moore_error *err)
{
    const moore_graph *g = s->g;
    int32_t nc = 0;
    int32_t *cores = moore_malloc((size_t)g->n + 1, sizeof *cores, err);
    s->csize = moore_calloc((size_t)g->n + 1, sizeof *s->csize, err);
    s->coff = moore_calloc((size_t)g->n + 2, sizeof *s->coff, err);
    int rc = cores && s->csize && s->coff ? MOORE_OK : core_alloc_code(err);
    if (!rc) {
        for (int32_t v = 0; v < g->n; v++)
            if (s->kind[v] == CC_CORE && moore_graph_degree(g, v) > 0)
                cores[nc++] = v;
        cc_sort_graph = g;
        qsort(cores, (size_t)nc, sizeof *cores, cc_by_row);
        cc_group(s, cores, nc);
        s->arcs = s->coff[s->classes];
        s->a_sp = moore_malloc((size_t)s->arcs + 1, sizeof *s->a_sp, err);
        s->a_cl = moore_malloc((size_t)s->arcs + 1, sizeof *s->a_cl, err);
        if (!s->a_sp || !s->a_cl)
            rc = core_alloc_code(err);
    }
    if (!rc)
        cc_arcs_fill(s, cores, nc);
    free(cores);
    return rc;
}

static int cc_by_int(const void *va, const void *vb)
{
    int64_t a = *(const int64_t *)va, b = *(const int64_t *)vb;
    return a < b ? -1 : a > b;
}

/* Each pod's distinct leaf server counts, and each spine's leaf rows. It
 * fills the caller's s: on failure what it allocated is left to cc_clear. */
static int cc_pvalues(cc_shape *s, moore_error *err)
{
    const moore_graph *g = s->g;
    int64_t nl = 0, *key = moore_malloc((size_t)g->n + 1, sizeof *key, err);
    s->poff = moore_calloc((size_t)s->pods + 2, sizeof *s->poff, err);
    s->pval = moore_malloc((size_t)g->n + 1, sizeof *s->pval, err);
    s->lrow = moore_malloc((size_t)s->spines + 1, sizeof *s->lrow, err);
    int rc = key && s->poff && s->pval && s->lrow ? MOORE_OK : core_alloc_code(err);
    if (!rc) {
        for (int32_t v = 0; v < g->n; v++)
            if (s->kind[v] == CC_LEAF)
                key[nl++] = (int64_t)s->pod[v] << 32 | g->endpoints[v];
        qsort(key, (size_t)nl, sizeof *key, cc_by_int);
        int32_t count = 0;
        for (int64_t i = 0; i < nl; i++) {
            if (i && key[i] == key[i - 1])
                continue;
            s->pval[count++] = (int32_t)(key[i] & 0xffffffff);
            s->poff[(key[i] >> 32) + 1] = count;
        }
        for (int32_t a = 0; a < s->pods; a++)
            if (s->poff[a + 1] < s->poff[a])
                s->poff[a + 1] = s->poff[a];
        for (int32_t i = 0; i < s->spines; i++) {
            int32_t a = s->pod[s->sp_list[i]];
            s->lrow[i] = s->leafrows;
            s->leafrows += s->poff[a + 1] - s->poff[a];
        }
    }
    free(key);
    return rc;
}

static int cc_shape_make(const moore_graph *g, cc_shape *s, moore_error *err)
{
    memset(s, 0, sizeof *s);
    s->g = g;
    s->kind = moore_malloc((size_t)g->n + 1, sizeof *s->kind, err);
    s->pod = moore_malloc((size_t)g->n + 1, sizeof *s->pod, err);
    s->sidx = moore_malloc((size_t)g->n + 1, sizeof *s->sidx, err);
    s->cls = moore_malloc((size_t)g->n + 1, sizeof *s->cls, err);
    int rc = !s->kind || !s->pod || !s->sidx || !s->cls ? core_alloc_code(err) : MOORE_OK;
    if (!rc) rc = cc_tiers(s, err);
    if (!rc) rc = cc_check(s, err);
    if (!rc) rc = cc_classes(s, err);
    if (!rc) rc = cc_pvalues(s, err);
    return rc;
}

/* ---- the LP ---- */

typedef struct cc_lp {
    int ncols, nrows;
    int64_t nnz;
    CoinBigIndex *start;
    int *index;
    double *value, *collo, *colup, *obj, *rlo, *rup;
} cc_lp;

static void cc_lp_clear(cc_lp *L)
{
    free(L->start);
    free(L->index);
    free(L->value);
    free(L->collo);
    free(L->colup);
    free(L->obj);
    free(L->rlo);
    free(L->rup);
}

/* Row numbers: conservation b·K + κ, demand P·K + a·P + b, arc capacity,
 * then leaf rows up and down. */
#define ROW_CONS(s, b, k) ((b) * (s)->classes + (k))
#define ROW_DEM(s, a, b) ((s)->pods * (s)->classes + (a) * (s)->pods + (b))
#define ROW_UP(s, e) ((s)->pods * ((s)->classes + (s)->pods) + (e))
#define ROW_LUP(s, i) (ROW_UP(s, (s)->arcs) + (i))
#define ROW_LDN(s, i) (ROW_LUP(s, (s)->leafrows) + (i))
#define COL_Y(s, b, e) (1 + (int64_t)(b) * (s)->arcs + (e))
#define COL_Z(s, e) (1 + (int64_t)(s)->pods * (s)->arcs + (e))

static void cc_put(cc_lp *L, int row, double v)
{
    L->index[L->nnz] = row;
    L->value[L->nnz++] = v;
}

static void cc_col_theta(const cc_shape *s, cc_lp *L)
{
    for (int32_t a = 0; a < s->pods; a++)
        for (int32_t b = 0; b < s->pods; b++)
            if (a != b)
                cc_put(L, (int)ROW_DEM(s, a, b), -s->srv[a] * s->srv[b] / (s->S - 1));
    for (int pass = 0; pass < 2; pass++)
        for (int32_t i = 0; i < s->spines; i++) {
            int32_t a = s->pod[s->sp_list[i]];
            for (int32_t j = s->poff[a]; j < s->poff[a + 1]; j++) {
                int64_t r = s->lrow[i] + (j - s->poff[a]);
                cc_put(L, (int)(pass ? ROW_LDN(s, r) : ROW_LUP(s, r)), cc_intra(s, a, s->pval[j]));
            }
        }
}

/* Leaf rows of spine i with coefficients p/s_a. */
static void cc_col_leaf(const cc_shape *s, cc_lp *L, int32_t i, int down)
{
    int32_t a = s->pod[s->sp_list[i]];
    for (int32_t j = s->poff[a]; j < s->poff[a + 1]; j++) {
        int64_t r = s->lrow[i] + (j - s->poff[a]);
        cc_put(L, (int)(down ? ROW_LDN(s, r) : ROW_LUP(s, r)), s->pval[j] / s->srv[a]);
    }
}

static int cc_lp_build(const cc_shape *s, cc_lp *L, moore_error *err)
{
    double cols = 1.0 + (double)(s->pods + 1) * (double)s->arcs;
    double rows = (double)ROW_LDN(s, s->leafrows);
    double maxp = 0;
    for (int32_t a = 0; a < s->pods; a++)
        if (s->poff[a + 1] - s->poff[a] > maxp)
            maxp = s->poff[a + 1] - s->poff[a];
    double nnz = 2.0 * s->pods * s->pods + 2.0 * s->leafrows +
                 (double)s->arcs * (s->pods * (3 + maxp) + 1 + maxp);
    if (cols > 2e9 || rows > 2e9 || nnz > 2e9)
        return moore_error_set(err, MOORE_ETOOBIG, "clos flow: the LP would have %.3g columns",
                               cols);
    int rc = moore_memory_guard(40.0 * nnz + 200.0 * (cols + rows), "the Clos flow LP", err);
    if (rc)
        return rc;
    L->ncols = (int)cols;
    L->nrows = (int)rows;
    L->start = moore_malloc((size_t)L->ncols + 1, sizeof *L->start, err);
    L->index = moore_malloc((size_t)nnz + 1, sizeof *L->index, err);
    L->value = moore_malloc((size_t)nnz + 1, sizeof *L->value, err);
    L->collo = moore_calloc((size_t)L->ncols, sizeof *L->collo, err);
    L->colup = moore_malloc((size_t)L->ncols, sizeof *L->colup, err);
    L->obj = moore_calloc((size_t)L->ncols, sizeof *L->obj, err);
    L->rlo = moore_malloc((size_t)L->nrows + 1, sizeof *L->rlo, err);
    L->rup = moore_malloc((size_t)L->nrows + 1, sizeof *L->rup, err);
    if (!L->start || !L->index || !L->value || !L->collo || !L->colup || !L->obj || !L->rlo ||
        !L->rup)
        return core_alloc_code(err);
    int col = 0;
    L->start[col] = 0;
    cc_col_theta(s, L);
    L->obj[col] = -1.0; /* Clp minimises */
    L->colup[col++] = DBL_MAX;
    for (int32_t b = 0; b < s->pods; b++)
        for (int64_t e = 0; e < s->arcs; e++) {
            int32_t sp = s->a_sp[e], a = s->pod[sp];
            L->start[col] = (CoinBigIndex)L->nnz;
            L->colup[col] = a == b ? 0.0 : DBL_MAX;
            if (a != b) {
                cc_put(L, (int)ROW_CONS(s, b, s->a_cl[e]), 1.0);
                cc_put(L, (int)ROW_DEM(s, a, b), 1.0);
                cc_put(L, (int)ROW_UP(s, e), 1.0);
                cc_col_leaf(s, L, s->sidx[sp], 0);
            }
            col++;
        }
    for (int64_t e = 0; e < s->arcs; e++) {
        int32_t sp = s->a_sp[e];
        L->start[col] = (CoinBigIndex)L->nnz;
        L->colup[col++] = s->csize[s->a_cl[e]];
        cc_put(L, (int)ROW_CONS(s, s->pod[sp], s->a_cl[e]), -1.0);
        cc_col_leaf(s, L, s->sidx[sp], 1);
    }
    L->start[col] = (CoinBigIndex)L->nnz;
    for (int r = 0; r < L->nrows; r++) {
        L->rlo[r] = r < ROW_UP(s, 0) ? 0.0 : -DBL_MAX;
        L->rup[r] = r < ROW_UP(s, 0) ? 0.0 : 1.0;
    }
    for (int64_t e = 0; e < s->arcs; e++)
        L->rup[ROW_UP(s, e)] = s->csize[s->a_cl[e]];
    return MOORE_OK;
}

/* Clp's flow into x (y then z, as the columns after θ). */
/* Solves L with Clp into x (the columns after θ). */
static int cc_clp_run(const cc_lp *L, double time_limit, double *x, moore_error *err)
{
    int rc = MOORE_OK;
    Clp_Simplex *model = Clp_newModel();
    Clp_setLogLevel(model, 0); /* the library never prints */
    Clp_loadProblem(model, L->ncols, L->nrows, L->start, L->index, L->value, L->collo, L->colup,
                    L->obj, L->rlo, L->rup);
    if (time_limit > 0)
        Clp_setMaximumSeconds(model, time_limit);
    Clp_dual(model, 0); /* measured fastest here: 1 s at 18 pods of radix 48 */
    /* Stopped by the time limit, the point is still a flow once repaired (a
     * weaker bound); any other status is a failure. */
    if (Clp_isProvenOptimal(model) || Clp_status(model) == 3)
        memcpy(x, Clp_getColSolution(model) + 1, (size_t)(L->ncols - 1) * sizeof *x);
    else
        rc = moore_error_set(err, MOORE_EINTERNAL, "clos flow: Clp ended with status %d",
                             Clp_status(model));
    Clp_deleteModel(model);
    return rc;
}

static int cc_solve(const cc_shape *s, double time_limit, double *x, moore_error *err)
{
    cc_lp L = { 0 };
    int rc = cc_lp_build(s, &L, err);
    if (!rc)
        rc = cc_clp_run(&L, time_limit, x, err);
    cc_lp_clear(&L);
    return rc;
}

/* ---- the certificate ---- */

/* Makes x exactly conservative (see the file comment); θ' into *theta. */
static void cc_repair(const cc_shape *s, double *y, double *z, double *theta)
{
    for (int64_t i = 0; i < (s->pods + 1) * s->arcs; i++)
        if (!(y[i] > 0))
            y[i] = 0;
    for (int32_t b = 0; b < s->pods; b++)
        for (int32_t k = 0; k < s->classes; k++) {
            double in = 0, out = 0;
            for (int64_t e = s->coff[k]; e < s->coff[k + 1]; e++) {
                in += y[b * s->arcs + e];
                out += s->pod[s->a_sp[e]] == b ? z[e] : 0;
            }
            for (int64_t e = s->coff[k]; e < s->coff[k + 1]; e++) {
                if (out <= 0)
                    y[b * s->arcs + e] = 0;
                else if (s->pod[s->a_sp[e]] == b)
                    z[e] *= in / out;
            }
        }
    double *sent = calloc((size_t)s->pods * (size_t)s->pods, sizeof *sent);
    *theta = s->pods > 1 ? INFINITY : 1.0;
    if (!sent) { /* no proof without memory: claim nothing */
        *theta = 0;
        return;
    }
    for (int32_t b = 0; b < s->pods; b++)
        for (int64_t e = 0; e < s->arcs; e++)
            sent[s->pod[s->a_sp[e]] * s->pods + b] += y[b * s->arcs + e];
    for (int32_t a = 0; a < s->pods; a++)
        for (int32_t b = 0; b < s->pods; b++)
            if (a != b) {
                double r = sent[a * s->pods + b] * (s->S - 1) / (s->srv[a] * s->srv[b]);
                if (r < *theta)
                    *theta = r;
            }
    free(sent);
}

/* The largest arc load of the repaired flow at θ'. up/dn: per spine index. */
static double cc_max_load(const cc_shape *s, const double *y, const double *z, double theta,
                          double *up, double *dn)
{
    double L = 0;
    for (int64_t e = 0; e < s->arcs; e++) {
        double sum = 0;
        for (int32_t b = 0; b < s->pods; b++)
            sum += y[b * s->arcs + e];
        int32_t i = s->sidx[s->a_sp[e]];
        up[i] += sum;
        dn[i] += z[e];
        double k = s->csize[s->a_cl[e]];
        L = fmax(L, fmax(sum / k, z[e] / k));
    }
    for (int32_t i = 0; i < s->spines; i++) {
        int32_t a = s->pod[s->sp_list[i]];
        for (int32_t j = s->poff[a]; j < s->poff[a + 1]; j++) {
            double p = s->pval[j], in = theta * cc_intra(s, a, p);
            L = fmax(L, fmax(p / s->srv[a] * up[i] + in, p / s->srv[a] * dn[i] + in));
        }
    }
    return L;
}

/* The flow to leaf t on CSR arc k (u → v), at θ' before the division by L. */
static double cc_arc(const cc_shape *s, const double *y, const double *z, double theta,
                     const double *dn, int32_t t, int32_t u, int32_t v)
{
    const moore_graph *g = s->g;
    int32_t b = s->pod[t];
    double share = g->endpoints[t] / s->srv[b], pt = g->endpoints[t];
    if (s->kind[u] == CC_LEAF) {
        int32_t a = s->pod[u];
        if (a == b)
            return u == t ? 0 : theta * g->endpoints[u] * pt / ((s->S - 1) * s->nsp[b]);
        double sum = 0;
        for (int64_t e = 0; e < s->arcs; e++)
            if (s->a_sp[e] == v)
                sum += y[b * s->arcs + e];
        return g->endpoints[u] / s->srv[a] * sum * share;
    }
    if (s->kind[u] == CC_SPINE && s->kind[v] == CC_LEAF)
        return v != t ? 0 : theta * cc_intra(s, b, pt) + dn[s->sidx[u]] * share;
    for (int64_t e = s->coff[s->cls[s->kind[u] == CC_CORE ? u : v]];
         e < s->coff[s->cls[s->kind[u] == CC_CORE ? u : v] + 1]; e++) {
        int32_t sp = s->kind[u] == CC_SPINE ? u : v, k = s->csize[s->a_cl[e]];
        if (s->a_sp[e] != sp)
            continue;
        if (s->kind[u] == CC_SPINE)
            return y[b * s->arcs + e] / k * share;
        return s->pod[sp] == b ? z[e] / k * share : 0;
    }
    return 0;
}

static void cc_dest_flows(const cc_shape *s, const double *y, const double *z, double theta,
                          double L, const double *dn, double *out)
{
    const moore_graph *g = s->g;
    int64_t arcs = 2 * g->m;
    for (int32_t t = 0; t < g->n; t++)
        for (int32_t u = 0; u < g->n; u++)
            for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
                out[t * arcs + k] = s->kind[t] != CC_LEAF ? 0 :
                                    cc_arc(s, y, z, theta, dn, t, u, g->adj[k]) / L;
}

int moore_flow_clos(const moore_graph *g, double time_limit, double *lower, double *dest_flows,
                    moore_error *err)
{
    cc_shape s;
    double *x = NULL, *up = NULL, *dn = NULL, theta = 0, L = 0;
    *lower = 0;
    int rc = cc_shape_make(g, &s, err);
    if (!rc) {
        x = moore_calloc((size_t)(s.pods + 1) * (size_t)s.arcs + 1, sizeof *x, err);
        up = moore_calloc((size_t)s.spines + 1, sizeof *up, err);
        dn = moore_calloc((size_t)s.spines + 1, sizeof *dn, err);
        rc = !x || !up || !dn ? core_alloc_code(err) : MOORE_OK;
    }
    if (!rc && s.pods > 1)
        rc = cc_solve(&s, time_limit, x, err);
    if (!rc) {
        double *y = x, *z = x + (int64_t)s.pods * s.arcs;
        cc_repair(&s, y, z, &theta);
        L = cc_max_load(&s, y, z, theta, up, dn);
        *lower = L > 0 ? theta / L : INFINITY;
        if (dest_flows && L > 0)
            cc_dest_flows(&s, y, z, theta, L, dn, dest_flows);
    }
    free(x);
    free(up);
    free(dn);
    cc_clear(&s);
    return rc;
}
