/* bisection.c — bisection by METIS (upper bound) and by the spectrum (lower
 * bound), and the "bisection" metric group.
 *
 * Upper bound. METIS_PartGraphRecursive splits the switches in two with
 * vertex weights = endpoint counts (1 each when there are none), 1.001
 * imbalance allowed; several seeds run and the smallest balanced cut wins.
 * METIS's tolerance is relative, so on big graphs it may leave a few switches
 * too many on one side; a greedy pass then moves the cheapest switches across
 * until the sides differ by at most the largest switch weight (always
 * reachable: while the difference exceeds w_max, moving any weighted switch
 * of weight w ≤ w_max off the heavy side shrinks it without overshooting),
 * and a last pass takes any single move that lowers the cut and keeps the
 * balance (this is what places zero-weight fat-tree aggregation and core
 * switches well).
 *
 * Lower bound. For weights w > 0 on every switch and any side S with weight
 * W(S) = tW, the vector x = 1_S − t has Σ w_v x_v = 0, xᵀ diag(w) x = W t(1−t)
 * and xᵀ L x = cut(S), so cut(S) ≥ λ_w · W(S)(W − W(S))/W, where λ_w is the
 * second smallest eigenvalue of diag(w)^-1/2 L diag(w)^-1/2. With unit
 * weights λ_w = a(G) (the Fiedler value) and the bound is a(G)·N/4 for even N,
 * the textbook formula. With uniform p it is the same bound. Switches without
 * endpoints (a fat-tree's aggregation and core) have weight 0 and do not enter
 * the balance at all, so a(G)·N/4 would NOT be valid for them; instead their
 * coordinates are minimised out exactly: min over x_B of xᵀLx is x_Aᵀ L_red x_A
 * with L_red = L_AA − L_AB L_BB⁻¹ L_BA (the Schur complement, again a
 * Laplacian; L_BB is positive definite in a connected graph), and λ_w is
 * taken from L_red with the positive weights. The split our balance rule
 * allows closest to lopsided has the least W(S) ≥ (W − w_max)/2 that is a
 * multiple of the weights' gcd (N/2 switches for unit weights and even N),
 * which gives the reported bound. Dense LAPACK is used up to a few thousand switches. */
#include "core/alloc.h"
#include "moore/bisection.h"
#include "moore/paths.h"

#include "linalg/blas_pin.h"
#include "metrics/groups.h"
#include <lapacke.h>
#include <math.h>
#include <metis.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

void moore_bisection_options_default(moore_bisection_options *o)
{
    memset(o, 0, sizeof *o);
    o->tries = 8;
    o->seed = 1;
    o->spectral_max_switches = 3000;
}

void moore_bisection_result_clear(moore_bisection_result *r)
{
    free(r->side);
    memset(r, 0, sizeof *r);
}

/* Switch weights: endpoint counts, or 1 each when the graph has none. */
static int64_t switch_weights(const moore_graph *g, int64_t *w, int64_t *wmax, int *by_endpoints)
{
    int64_t total = moore_graph_endpoints_total(g);
    *by_endpoints = total > 0;
    *wmax = 0;
    if (!total)
        total = g->n;
    for (int32_t v = 0; v < g->n; v++) {
        w[v] = *by_endpoints ? g->endpoints[v] : 1;
        if (w[v] > *wmax)
            *wmax = w[v];
    }
    return total;
}

/* The second smallest eigenvalue of the dense symmetric n×n matrix a
 * (row-major, destroyed). This is the only eigen-solve of the module: the
 * shared solver (spectrum.h) can replace it, e.g. by ARPACK shift-invert,
 * to lift the dense size limit. */
static int dense_lambda2(double *a, int32_t n, double *lambda2, moore_error *err)
{
    lapack_int found = 0;
    /* dsyevr may fill all n entries of the eigenvalue array, not just the
     * requested one, and needs 2 entries of isuppz per eigenvalue found. */
    int rc = MOORE_OK;
    double *w = moore_malloc((size_t)n, sizeof *w, err);
    lapack_int *isuppz = moore_malloc((size_t)(2 * n), sizeof *isuppz, err);
    if (!w || !isuppz) {
        rc = core_alloc_code(err);
        goto done;
    }
    lapack_int info = LAPACKE_dsyevr(LAPACK_ROW_MAJOR, 'N', 'I', 'U', n, a, n, 0.0, 0.0, 2, 2,
                                     0.0, &found, w, NULL, 1, isuppz);
    if (info != 0 || found != 1)
        rc = moore_error_set(err, MOORE_EINTERNAL,
                             "bisection: LAPACK dsyevr failed (info %d) on the %d×%d Laplacian",
                             (int)info, (int)n, (int)n);
    else
        *lambda2 = w[0];
done:
    free(w);
    free(isuppz);
    return rc;
}

/* The switches with weight (side A, the only ones a bisection must balance)
 * and those without (side B), numbered within their side in idx[]; the
 * lightest side the balance rule allows, W(S) >= (W − w_max)/2 rounded up to
 * a multiple of the weights' gcd (p for uniform p), into *wlo. Returns W. */
typedef struct lb_sides {
    int64_t *w;    /* n switch weights */
    int32_t *idx;  /* n positions in A or B */
    int32_t na, nb;
    int64_t total, wlo;
} lb_sides;

static void lb_split(const moore_graph *g, lb_sides *s)
{
    int64_t wmax;
    int by_endpoints;
    s->total = switch_weights(g, s->w, &wmax, &by_endpoints);
    int64_t gcd = 0;
    s->na = s->nb = 0;
    for (int32_t v = 0; v < g->n; v++) {
        s->idx[v] = s->w[v] > 0 ? s->na++ : s->nb++;
        for (int64_t a = s->w[v]; a;) {
            int64_t t = gcd % a;
            gcd = a;
            a = t;
        }
    }
    int64_t half = (s->total - wmax + 1) / 2;
    s->wlo = gcd > 0 ? (half + gcd - 1) / gcd * gcd : half;
}

/* The Laplacian's blocks L_AA (na × na), L_BB (nb × nb) and L_BA (nb × na),
 * dense and row-major, into zeroed arrays. */
static void lb_blocks(const moore_graph *g, const lb_sides *s, double *laa, double *lbb,
                      double *lba)
{
    const int64_t *w = s->w;
    for (int32_t v = 0; v < g->n; v++) {
        int32_t i = s->idx[v];
        double *row = w[v] > 0 ? laa + (size_t)i * s->na : lbb + (size_t)i * s->nb;
        row[i] = moore_graph_degree(g, v);
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++) {
            int32_t u = g->adj[k], j = s->idx[u];
            if ((w[v] > 0) == (w[u] > 0))
                row[j] = -1.0;
            else if (w[v] == 0)
                lba[(size_t)i * s->na + j] = -1.0;
        }
    }
}

/* Eliminates side B: X = L_BB⁻¹ L_BA by Cholesky, then L_AA −= L_BAᵀ X
 * (L_BA is sparse: one row of X per B-neighbour of an A switch), leaving the
 * reduced Laplacian in laa. lbb is destroyed. */
static int lb_eliminate(const moore_graph *g, const lb_sides *s, double *laa, double *lbb,
                        const double *lba, moore_error *err)
{
    int32_t na = s->na, nb = s->nb;
    double *x = NULL;
    int rc = MOORE_OK;
    lapack_int info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'U', nb, lbb, nb);
    if (info)
        goto done;
    if (!(x = moore_malloc((size_t)nb * na, sizeof *x, err))) {
        rc = core_alloc_code(err);
        goto done;
    }
    memcpy(x, lba, (size_t)nb * na * sizeof *x);
    info = LAPACKE_dpotrs(LAPACK_ROW_MAJOR, 'U', nb, na, lbb, nb, x, na);
    if (info)
        goto done;
    for (int32_t v = 0; v < g->n; v++) {
        if (s->w[v] == 0)
            continue;
        double *row = laa + (size_t)s->idx[v] * na;
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
            if (s->w[g->adj[k]] == 0) {
                const double *xb = x + (size_t)s->idx[g->adj[k]] * na;
                for (int32_t j = 0; j < na; j++)
                    row[j] += xb[j];
            }
    }
done:
    free(x);
    if (!rc && info)
        rc = moore_error_set(err, MOORE_EINTERNAL,
                             "bisection: Cholesky of the %d switches without endpoints "
                             "failed (LAPACK info %d)", (int)nb, (int)info);
    return rc;
}

/* laa becomes diag(w)^-1/2 L_red diag(w)^-1/2, symmetrised against
 * round-off; *norm its largest absolute row sum. */
static int lb_normalise(const moore_graph *g, const lb_sides *s, double *laa, double *norm,
                        moore_error *err)
{
    int32_t na = s->na;
    double *sw = moore_malloc((size_t)na, sizeof *sw, err);
    if (!sw)
        return core_alloc_code(err);
    for (int32_t v = 0; v < g->n; v++)
        if (s->w[v] > 0)
            sw[s->idx[v]] = sqrt((double)s->w[v]);
    *norm = 0;
    for (int32_t i = 0; i < na; i++) {
        double rowsum = 0;
        for (int32_t j = i; j < na; j++) {
            double x = 0.5 * (laa[(size_t)i * na + j] + laa[(size_t)j * na + i]) /
                       (sw[i] * sw[j]);
            laa[(size_t)i * na + j] = laa[(size_t)j * na + i] = x;
        }
        for (int32_t j = 0; j < na; j++)
            rowsum += fabs(laa[(size_t)i * na + j]);
        if (rowsum > *norm)
            *norm = rowsum;
    }
    free(sw);
    return MOORE_OK;
}

/* The bound in steps: split the switches into weighted (A) and unweighted
 * (B), eliminate B from the Laplacian, normalise by the weights, and scale
 * the second smallest eigenvalue by the balance rule's lightest side. */
static int lower_bound(const moore_graph *g, int32_t max_switches, double *lower,
                       moore_error *err)
{
    int32_t n = g->n;
    *lower = NAN;
    if (n < 2 || n > max_switches)
        return MOORE_OK;
    int32_t comps;
    int rc = moore_components(g, NULL, &comps, err);
    if (rc)
        return rc;
    if (comps > 1) {
        *lower = 0.0;
        return MOORE_OK;
    }
    lb_sides s = { 0 };
    double *laa = NULL, *lbb = NULL, *lba = NULL;
    s.w = moore_malloc((size_t)n, sizeof *s.w, err);
    s.idx = moore_malloc((size_t)n, sizeof *s.idx, err);
    if (!s.w || !s.idx) {
        rc = core_alloc_code(err);
        goto done;
    }
    lb_split(g, &s);
    if (s.wlo <= 0 || s.na < 2) {
        *lower = 0.0;
        goto done;
    }
    int32_t na = s.na, nb = s.nb;
    double bytes = 8.0 * ((double)na * na + (double)nb * nb + (double)na * nb);
    if ((rc = moore_memory_guard(bytes, "bisection lower bound (dense Laplacian)", err)))
        goto done;
    laa = moore_calloc((size_t)na * na, sizeof *laa, err);
    lbb = moore_calloc((size_t)nb * nb + 1, sizeof *lbb, err);
    lba = moore_calloc((size_t)nb * na + 1, sizeof *lba, err);
    if (!laa || !lbb || !lba) {
        rc = core_alloc_code(err);
        goto done;
    }
    lb_blocks(g, &s, laa, lbb, lba);
    double lambda2 = 0, norm = 0;
    if ((nb > 0 && (rc = lb_eliminate(g, &s, laa, lbb, lba, err))) ||
        (rc = lb_normalise(g, &s, laa, &norm, err)) ||
        (rc = dense_lambda2(laa, na, &lambda2, err)))
        goto done;
    /* Eigenvalues are accurate to a small multiple of ε‖M‖; a margin far
     * above that keeps the bound a bound (K_n's is met with equality). */
    double safe = lambda2 - 1e-9 * (1.0 + norm);
    if (safe < 0)
        safe = 0;
    *lower = safe * (double)s.wlo * (double)(s.total - s.wlo) / (double)s.total;
done:
    free(laa);
    free(lbb);
    free(lba);
    free(s.w);
    free(s.idx);
    return rc;
}

/* The LAPACK calls run with BLAS on one thread (blas_pin.h), so the bound is
 * the same bytes for any thread count. */
int moore_bisection_lower_bound(const moore_graph *g, int32_t max_switches, double *lower,
                                moore_error *err)
{
    linalg_blas_pin_begin();
    int rc = lower_bound(g, max_switches, lower, err);
    linalg_blas_pin_end();
    return rc;
}

/* Cut change if v switches sides. */
static int64_t move_delta(const moore_graph *g, const int32_t *side, int32_t v)
{
    int64_t same = 0, other = 0;
    for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
        side[g->adj[k]] == side[v] ? same++ : other++;
    return same - other;
}

/* Makes |W0 − W1| ≤ wmax, then takes improving balance-keeping moves;
 * returns the cut. */
static int64_t balance_and_polish(const moore_graph *g, const int64_t *w, int64_t wmax,
                                  int32_t *side, int64_t *ws)
{
    int32_t n = g->n;
    ws[0] = ws[1] = 0;
    for (int32_t v = 0; v < n; v++)
        ws[side[v]] += w[v];
    while (llabs(ws[0] - ws[1]) > wmax) {
        int heavy = ws[1] > ws[0];
        int32_t best = -1;
        int64_t bestd = 0;
        for (int32_t v = 0; v < n; v++)
            if (side[v] == heavy && w[v] > 0) {
                int64_t d = move_delta(g, side, v);
                if (best < 0 || d < bestd) {
                    best = v;
                    bestd = d;
                }
            }
        side[best] = !heavy;
        ws[heavy] -= w[best];
        ws[!heavy] += w[best];
    }
    for (int improved = 1, rounds = 0; improved && rounds < 64; rounds++) {
        improved = 0;
        for (int32_t v = 0; v < n; v++) {
            int s = side[v];
            if (llabs((ws[s] - w[v]) - (ws[!s] + w[v])) > wmax)
                continue;
            if (move_delta(g, side, v) < 0) {
                side[v] = !s;
                ws[s] -= w[v];
                ws[!s] += w[v];
                improved = 1;
            }
        }
    }
    int64_t cut = 0;
    for (int32_t v = 0; v < n; v++)
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
            cut += side[v] != side[g->adj[k]];
    return cut / 2;
}

/* GKlib's error traps, inside libmetis (METIS 5.1): the depth of this
 * thread's stack of setjmp buffers (128 of them), and the handler that
 * longjmps to the top one. */
extern __thread int gk_cur_jbufs;
extern void gk_sigthrow(int signum);
#define GK_MAX_JBUFS 128

/* METIS_PartGraphRecursive without METIS's trap on SIGTERM. Every METIS call
 * installs handlers for SIGTERM and SIGABRT that longjmp back into the call
 * (gk_sigtrap). A SIGTERM is asynchronous: arriving inside malloc, the
 * longjmp leaves the allocator's lock held and the next malloc or free of the
 * process waits forever; it leaves SIGTERM blocked too, so no later SIGTERM
 * is delivered: a run stopped during a bisection printed "METIS failed with
 * status -4" and never exited. Blocking SIGTERM in this thread is no cure:
 * the kernel then hands it to another thread (OpenBLAS's), where the handler
 * longjmps to nothing. So gk_sigtrap is made to install nothing (it does
 * nothing when this thread's stack of buffers is full: the call then uses
 * the top buffer), and only SIGABRT is trapped, here: METIS raises it itself,
 * synchronously in this thread, when an allocation fails, and returns
 * METIS_ERROR_MEMORY. SIGTERM keeps the caller's disposition throughout (by
 * default the process ends). Afterwards the depth, SIGABRT's disposition and
 * the thread's mask (a caught SIGABRT stays blocked) are put back. */
static int metis_bisect(idx_t *nv, idx_t *xadj, idx_t *adjncy, idx_t *vwgt, idx_t *options,
                        idx_t *objval, idx_t *part)
{
    idx_t ncon = 1, nparts = 2;
    struct sigaction trap, term, abrt;
    sigset_t mask;
    memset(&trap, 0, sizeof trap);
    trap.sa_handler = gk_sigthrow;
    sigemptyset(&trap.sa_mask);
    pthread_sigmask(SIG_SETMASK, NULL, &mask);
    sigaction(SIGTERM, NULL, &term);
    sigaction(SIGABRT, &trap, &abrt);
    int depth = gk_cur_jbufs;
    gk_cur_jbufs = GK_MAX_JBUFS - 1;
    int mrc = METIS_PartGraphRecursive(nv, &ncon, xadj, adjncy, vwgt, NULL, NULL, &nparts, NULL,
                                       NULL, options, objval, part);
    gk_cur_jbufs = depth;
    sigaction(SIGTERM, &term, NULL); /* gk_siguntrap set SIG_DFL */
    sigaction(SIGABRT, &abrt, NULL);
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    return mrc;
}

int moore_bisection_compute(const moore_graph *g, const moore_bisection_options *o,
                            moore_bisection_result *out, moore_error *err)
{
    moore_bisection_options def;
    if (!o) {
        moore_bisection_options_default(&def);
        o = &def;
    }
    memset(out, 0, sizeof *out);
    out->lower = NAN;
    int32_t n = g->n;
    if (n < 2)
        return MOORE_OK;
    if (2 * g->m > (int64_t)INT32_MAX)
        return moore_error_set(err, MOORE_ETOOBIG,
                               "bisection: %lld links exceed METIS's 32-bit indices",
                               (long long)g->m);
    if (o->tries < 1)
        return moore_error_set(err, MOORE_EINVAL, "bisection: tries=%d must be at least 1",
                               o->tries);
    /* our copies (64 B a switch, 16 a link) and METIS's graph, workspace and
     * coarser levels (measured: 30 MB more resident for 100,000 switches of
     * degree 8), so that a short memory is refused here, in one line, rather
     * than inside METIS, which prints its own lines when an allocation fails */
    int rc = moore_memory_guard(128.0 * n + 96.0 * g->m, "bisection (METIS)", err);
    if (rc)
        return rc;
    idx_t *xadj = moore_malloc((size_t)n + 1, sizeof *xadj, err);
    idx_t *adjncy = moore_malloc((size_t)(2 * g->m + 1), sizeof *adjncy, err);
    idx_t *vwgt = moore_malloc((size_t)n, sizeof *vwgt, err);
    idx_t *part = moore_malloc((size_t)n, sizeof *part, err);
    int64_t *w = moore_malloc((size_t)n, sizeof *w, err);
    int32_t *side = moore_malloc((size_t)n, sizeof *side, err);
    out->side = moore_malloc((size_t)n, sizeof *out->side, err);
    if (!xadj || !adjncy || !vwgt || !part || !w || !side || !out->side) {
        rc = core_alloc_code(err);
        goto done;
    }
    int64_t wmax;
    out->weight_total = switch_weights(g, w, &wmax, &out->by_endpoints);
    if (out->weight_total > (int64_t)INT32_MAX) {
        rc = moore_error_set(err, MOORE_ETOOBIG,
                             "bisection: %lld endpoints exceed METIS's 32-bit weights",
                             (long long)out->weight_total);
        goto done;
    }
    for (int32_t v = 0; v <= n; v++)
        xadj[v] = (idx_t)g->offs[v];
    for (int64_t k = 0; k < 2 * g->m; k++)
        adjncy[k] = g->adj[k];
    for (int32_t v = 0; v < n; v++)
        vwgt[v] = (idx_t)w[v];
    out->cut = -1;
    for (int t = 0; t < o->tries; t++) {
        idx_t options[METIS_NOPTIONS], nv = n, objval = 0;
        METIS_SetDefaultOptions(options);
        options[METIS_OPTION_NUMBERING] = 0;
        options[METIS_OPTION_UFACTOR] = 1;
        options[METIS_OPTION_NITER] = 20;
        options[METIS_OPTION_SEED] = (idx_t)((o->seed + (uint64_t)t) & 0x7fffffff);
        int mrc;
        /* METIS keeps its random state in globals: calls from parallel
         * failure trials must not interleave, or the cut depends on timing. */
#pragma omp critical
        mrc = metis_bisect(&nv, xadj, adjncy, vwgt, options, &objval, part);
        if (mrc != METIS_OK) {
            rc = moore_error_set(err, mrc == METIS_ERROR_MEMORY ? MOORE_ENOMEM : MOORE_EINTERNAL,
                                 "bisection: METIS failed with status %d", mrc);
            goto done;
        }
        for (int32_t v = 0; v < n; v++)
            side[v] = part[v] != 0;
        int64_t ws[2];
        int64_t cut = balance_and_polish(g, w, wmax, side, ws);
        if (out->cut < 0 || cut < out->cut) {
            out->cut = cut;
            out->weight[0] = ws[0];
            out->weight[1] = ws[1];
            memcpy(out->side, side, (size_t)n * sizeof *side);
        }
        if (o && t + 1 < o->tries && out->cut == 0)
            break;
    }
    out->valid = 1;
    out->bandwidth = (double)out->cut / ((double)out->weight_total / 2.0);
    rc = moore_bisection_lower_bound(g, o->spectral_max_switches, &out->lower, err);
done:
    free(xadj);
    free(adjncy);
    free(vwgt);
    free(part);
    free(w);
    free(side);
    if (rc)
        moore_bisection_result_clear(out);
    return rc;
}

/* ---- the "bisection" metric group ---- */

int metric_bisection(const moore_graph *g, const moore_metric_options *o,
                           moore_report *r, moore_error *err)
{
    moore_bisection_options bo;
    moore_bisection_options_default(&bo);
    if (o)
        bo.seed = o->seed;
    moore_bisection_result b;
    if (o && o->progress && g->n > 1000)
        o->progress(o->progress_ctx, "bisection (METIS)", 0.0);
    int rc = moore_bisection_compute(g, &bo, &b, err);
    if (rc)
        return rc;
    if (b.valid) {
        rc = moore_report_int(r, "bisection_cut", b.cut, err);
        if (!rc) rc = moore_report_double(r, "bisection_bandwidth", b.bandwidth, err);
    } else {
        rc = moore_report_null(r, "bisection_cut", err);
        if (!rc) rc = moore_report_null(r, "bisection_bandwidth", err);
    }
    if (!rc) rc = isnan(b.lower) ? moore_report_null(r, "bisection_lower", err)
                                 : moore_report_double(r, "bisection_lower", b.lower, err);
    if (!rc) rc = moore_report_string(r, "bisection_balance",
                                      b.by_endpoints ? "endpoints" : "switches", err);
    moore_bisection_result_clear(&b);
    return rc;
}
