/* spectrum.c — adjacency and Laplacian eigenvalues (dense LAPACKE_dsyevr for
 * small graphs, ARPACK Lanczos for large ones) and the spectrum of a graph.
 * Below the families (docs/architecture.md), which search for good expanders
 * with it (lift.c, xpander.c); moore_spectrum_compute adds what only the
 * families know (which graph is a torus, src/families/spectrum.c).
 *
 * Why two solvers: the dense path gives the whole spectrum and is the
 * reference, but costs O(n³) time and 8n² bytes; ARPACK needs only
 * matrix-vector products on the CSR graph (O(m) each) and a few dozen
 * n-vectors, so a 10,000-switch graph takes well under a second. The tests run
 * both on the same graphs and require agreement to 1e-8.
 *
 * Why deflation: for a d-regular graph λ₁ = d with eigenvector 1 is known. If
 * Lanczos had to find it too, λ₂ would be the *second* Ritz value at the top
 * end and would converge more slowly; projecting 1 (and the ±1 colouring
 * vector of a bipartite graph, eigenvalue −d) out of the start vector and of
 * every product makes λ₂ and λ_N the extreme eigenvalues of what is left.
 *
 * Determinism: the Lanczos start vector comes from moore_rng with a fixed seed
 * (ARPACK's own random start keeps a SAVE'd seed, so results would depend on
 * what ran before), and every dot product here is a plain serial sum. */
#include "core/alloc.h"
#include "moore/spectrum.h"
#include "moore/rng.h"
#include "linalg/blas_pin.h"
#include "linalg/linalg.h"

#include <arpack/arpack.h>
#include <pthread.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ARPACK's dsaupd keeps the state of a Lanczos run between its reverse-
 * communication calls in Fortran SAVE variables (static storage), and dseupd
 * reads it: two runs at once in one process would corrupt each other. So one
 * run at a time, whichever thread asks (compare measures several families
 * side by side); everything else of a metric runs concurrently. A static
 * lock because the state it guards is ARPACK's static state. */
static pthread_mutex_t arpack_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- matrices ---- */

void moore_symmat_adjacency(const moore_graph *g, moore_symmat *m)
{
    m->n = g->n;
    m->offs = g->offs;
    m->idx = g->adj;
    m->val = NULL;
    m->diag = NULL;
    m->offdiag = 1.0;
}

void moore_symmat_laplacian(const moore_graph *g, double *degrees, moore_symmat *m)
{
    moore_symmat_adjacency(g, m);
    for (int32_t v = 0; v < g->n; v++)
        degrees[v] = (double)moore_graph_degree(g, v);
    m->diag = degrees;
    m->offdiag = -1.0;
}

/* Threads only pay off on big products: one costs ~1 ns per stored entry,
 * while waking a team on a busy 2-core machine can cost milliseconds, and
 * Lanczos runs hundreds of products back to back. */
void moore_symmat_apply(const moore_symmat *m, const double *x, double *y)
{
    const int64_t *offs = m->offs;
    const int32_t *idx = m->idx;
    const double *val = m->val, *diag = m->diag;
    double a = m->offdiag;
#pragma omp parallel for schedule(static) if (m->offs[m->n] > 4000000)
    for (int32_t i = 0; i < m->n; i++) {
        double s = 0;
        if (val)
            for (int64_t k = offs[i]; k < offs[i + 1]; k++)
                s += val[k] * x[idx[k]];
        else
            for (int64_t k = offs[i]; k < offs[i + 1]; k++)
                s += x[idx[k]];
        y[i] = a * s + (diag ? diag[i] * x[i] : 0.0);
    }
}

/* BLAS runs on one thread inside every eigen-solve (blas_pin.h says why). */

/* ---- dense path ---- */

/* The full matrix, column-major (LAPACK reads the upper triangle only). */
static double *dense_copy(const moore_symmat *m, moore_error *err)
{
    size_t n = (size_t)m->n;
    if (moore_memory_guard(8.0 * (double)n * (double)n, "a dense eigenvalue problem", err))
        return NULL;
    double *a = moore_calloc(n * n, sizeof *a, err);
    if (!a)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        for (int64_t k = m->offs[i]; k < m->offs[i + 1]; k++)
            a[(size_t)m->idx[k] * n + i] += m->offdiag * (m->val ? m->val[k] : 1.0);
        if (m->diag)
            a[i * n + i] += m->diag[i];
    }
    return a;
}

int moore_eig_dense(const moore_symmat *m, double *w, moore_error *err)
{
    if (m->n == 0)
        return MOORE_OK;
    int rc = MOORE_OK;
    double *a = dense_copy(m, err);
    if (!a)
        return err ? err->code : MOORE_ENOMEM;
    lapack_int found = 0, n = m->n;
    lapack_int *isuppz = moore_malloc(2 * (size_t)n, sizeof *isuppz, err);
    if (!isuppz) {
        rc = core_alloc_code(err);
        goto done;
    }
    linalg_blas_pin_begin();
    lapack_int info = LAPACKE_dsyevr(LAPACK_COL_MAJOR, 'N', 'A', 'U', n, a, n, 0.0, 0.0, 0, 0,
                                     0.0, &found, w, NULL, 1, isuppz);
    linalg_blas_pin_end();
    if (info != 0 || found != n)
        rc = moore_error_set(err, MOORE_EINTERNAL,
                             "spectrum: LAPACKE_dsyevr failed (info %d, %d of %d eigenvalues)",
                             (int)info, (int)found, (int)n);
done:
    free(isuppz);
    free(a);
    return rc;
}

/* One eigenpair by index (1 = smallest, n = largest) from a fresh dense copy. */
static int dense_pair(const moore_symmat *m, lapack_int which, double *val, double *vec,
                      moore_error *err)
{
    double *a = dense_copy(m, err);
    if (!a)
        return err ? err->code : MOORE_ENOMEM;
    lapack_int found = 0, n = m->n, isuppz[2];
    double w[1];
    double *z = vec ? vec : NULL;
    double zdummy[1];
    linalg_blas_pin_begin();
    lapack_int info = LAPACKE_dsyevr(LAPACK_COL_MAJOR, vec ? 'V' : 'N', 'I', 'U', n, a, n, 0.0,
                                     0.0, which, which, 0.0, &found, w, z ? z : zdummy,
                                     vec ? n : 1, isuppz);
    linalg_blas_pin_end();
    free(a);
    if (info != 0 || found != 1)
        return moore_error_set(err, MOORE_EINTERNAL,
                               "spectrum: LAPACKE_dsyevr failed for eigenvalue %d (info %d)",
                               (int)which, (int)info);
    *val = w[0];
    return MOORE_OK;
}

/* ---- ARPACK path ---- */

static double dot(const double *x, const double *y, int32_t n)
{
    double s = 0;
    for (int32_t i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

/* x -= Q (Qᵀ x) for the nd orthonormal columns of Q. */
static void project(double *x, const double *q, int nd, int32_t n)
{
    for (int j = 0; j < nd; j++) {
        const double *c = q + (size_t)j * (size_t)n;
        double s = dot(c, x, n);
        for (int32_t i = 0; i < n; i++)
            x[i] -= s * c[i];
    }
}

typedef struct arpack_ctx {
    const moore_metric_options *o;
    const char *what;
} arpack_ctx;

/* ARPACK's reverse-communication state and work arrays for one run. */
typedef struct arpack_ws {
    a_int n, nev, ncv, lworkl;
    double *resid, *v, *workd, *workl, *tmp, *d, *z;
    a_int *select;
    a_int iparam[11], ipntr[14];
} arpack_ws;

static void arpack_ws_clear(arpack_ws *w)
{
    free(w->resid);
    free(w->v);
    free(w->workd);
    free(w->workl);
    free(w->tmp);
    free(w->d);
    free(w->z);
    free(w->select);
}

/* Sizes the Lanczos basis (ncv = 4·nev + 24, at most the rows left after
 * deflation) and allocates the work arrays after the memory guard. */
static int arpack_ws_alloc(arpack_ws *w, a_int n, int nev, int nd, moore_error *err)
{
    memset(w, 0, sizeof *w);
    w->n = n;
    w->nev = nev;
    w->ncv = 4 * nev + 24;
    if (w->ncv > n - nd)
        w->ncv = n - nd;
    w->lworkl = w->ncv * (w->ncv + 8);
    double bytes = 8.0 * ((double)n * (w->ncv + 6 + nev) + w->lworkl);
    int rc = moore_memory_guard(bytes, "the Lanczos workspace", err);
    if (rc)
        return rc;
    w->resid = moore_malloc((size_t)n, sizeof *w->resid, err);
    w->v = moore_malloc((size_t)n * (size_t)w->ncv, sizeof *w->v, err);
    w->workd = moore_malloc(3 * (size_t)n, sizeof *w->workd, err);
    w->workl = moore_malloc((size_t)w->lworkl, sizeof *w->workl, err);
    w->tmp = moore_malloc((size_t)n, sizeof *w->tmp, err);
    w->d = moore_malloc((size_t)nev, sizeof *w->d, err);
    w->z = moore_malloc((size_t)n * (size_t)nev, sizeof *w->z, err);
    w->select = moore_calloc((size_t)w->ncv, sizeof *w->select, err);
    if (!w->resid || !w->v || !w->workd || !w->workl || !w->tmp || !w->d || !w->z ||
        !w->select)
        return core_alloc_code(err);
    return MOORE_OK;
}

/* y = OP x = P M P x + σ Q Qᵀ x (tmp: n scratch entries). */
static void arpack_op(const moore_symmat *m, const double *deflate, int nd, double sigma,
                      const double *x, double *y, double *tmp)
{
    a_int n = m->n;
    if (!nd) {
        moore_symmat_apply(m, x, y);
        return;
    }
    memcpy(tmp, x, (size_t)n * sizeof *tmp);
    project(tmp, deflate, nd, n);
    moore_symmat_apply(m, tmp, y);
    project(y, deflate, nd, n);
    for (int j = 0; j < nd; j++) {
        const double *c = deflate + (size_t)j * (size_t)n;
        double t = sigma * dot(c, x, n);
        for (a_int i = 0; i < n; i++)
            y[i] += t * c[i];
    }
}

/* The restart budget: a work budget instead of a fixed restart count. A
 * restart costs about ncv products and ncv² n-vector updates. Expanders
 * converge in a few dozen restarts; eigenvalues packed as tightly as a long
 * ring's (relative gap ~1/n²) would take minutes, so they stop after ~10¹¹
 * flops (tens of seconds) and are reported as not converged. */
static a_int arpack_max_restarts(const moore_symmat *m, a_int ncv)
{
    a_int n = m->n;
    double per_restart = (double)ncv * (2.0 * (double)m->offs[n] + 4.0 * (double)n * ncv);
    double budget = 1e11 / per_restart;
    return budget < 50 ? 50 : budget > 20000 ? 20000 : (a_int)budget;
}

/* The Lanczos iteration (dsaupd's reverse-communication loop) from a seeded
 * start vector orthogonal to Q; ARPACK's info code into *info. */
static void arpack_iterate(const moore_symmat *m, const char *which, const double *deflate,
                           int nd, double sigma, double tol, a_int maxiter, arpack_ws *w,
                           const arpack_ctx *ctx, a_int *info)
{
    a_int n = w->n, ido = 0;
    moore_rng rng;
    moore_rng_seed(&rng, 0x5eed5eedULL);
    for (a_int i = 0; i < n; i++)
        w->resid[i] = 2.0 * moore_rng_uniform(&rng) - 1.0;
    project(w->resid, deflate, nd, n);
    w->iparam[0] = 1;       /* exact shifts */
    w->iparam[2] = maxiter; /* restart cycles */
    w->iparam[3] = 1;
    w->iparam[6] = 1;       /* mode 1: A x = λ x */
    *info = 1;
    long products = 0;
    linalg_blas_pin_begin();
    for (;;) {
        dsaupd_c(&ido, "I", n, which, w->nev, tol, w->resid, w->ncv, w->v, n, w->iparam,
                 w->ipntr, w->workd, w->workl, w->lworkl, info);
        if (ido != -1 && ido != 1)
            break;
        arpack_op(m, deflate, nd, sigma, w->workd + w->ipntr[0] - 1,
                  w->workd + w->ipntr[1] - 1, w->tmp);
        if ((++products & 255) == 0 && ctx && ctx->o && ctx->o->progress)
            ctx->o->progress(ctx->o->progress_ctx, ctx->what,
                             fmin(0.99, (double)products / (double)(products + 2000)));
    }
    linalg_blas_pin_end();
}

/* The nev Ritz values ascending into vals, with their vectors following
 * (nev is tiny) into vecs when not NULL. */
static void arpack_sorted(const arpack_ws *w, double *vals, double *vecs)
{
    int nev = (int)w->nev, order[64];
    size_t n = (size_t)w->n;
    for (int i = 0; i < nev && i < 64; i++)
        order[i] = i;
    for (int i = 1; i < nev && i < 64; i++)
        for (int j = i; j > 0 && w->d[order[j]] < w->d[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int i = 0; i < nev; i++) {
        vals[i] = w->d[order[i]];
        if (vecs)
            memcpy(vecs + (size_t)i * n, w->z + (size_t)order[i] * n, n * sizeof *vecs);
    }
}

/* Lanczos on OP = P M P + σ Q Qᵀ, P = I − Q Qᵀ: M restricted to the
 * complement of Q, with the deflated directions given eigenvalue σ. They
 * cannot simply be given 0: ARPACK's restarts re-amplify the rounding-level
 * components a vector keeps along Q like any eigenvector's, and its
 * replacement vectors after a breakdown are not projected at all, so if σ
 * sat at a wanted end a spurious σ would be reported (0 for "SA" of a
 * Laplacian, say). Callers pass the mean of the remaining eigenvalues,
 * (trace M − Σ deflated eigenvalues) / (n − nd), which always lies between
 * the extreme ones. Steps: workspace, iteration, eigenvectors, sorting. */
static int arpack_run(const moore_symmat *m, const char *which, int nev, const double *deflate,
                      int nd, double sigma, double *vals, double *vecs, const arpack_ctx *ctx,
                      int *converged, moore_error *err)
{
    *converged = 1;
    a_int n = m->n;
    if (nev < 1 || n - nd <= nev + 1)
        return moore_error_set(err, MOORE_EINVAL,
                               "spectrum: ARPACK needs more than %d rows for %d eigenvalues "
                               "(matrix has %d, %d deflated)",
                               nev + 1 + nd, nev, (int)n, nd);
    arpack_ws w;
    int locked = 0;
    int rc = arpack_ws_alloc(&w, n, nev, nd, err);
    if (rc)
        goto done;
    const a_int maxiter = arpack_max_restarts(m, w.ncv);
    /* |θ − λ| ≤ ‖r‖ ≤ tol·|θ| for a symmetric matrix: 1e-11 keeps every
     * Ritz value within ~1e-10 of an eigenvalue, well inside the 1e-8 the
     * dense path is checked to. Above 20,000 switches (far beyond the dense
     * path) the edge of a random regular graph's spectrum is so crowded that
     * 1e-11 does not converge in budget at 10^5 switches, while 1e-9 does in
     * ~10 s and still pins λ₂ to ~1e-8. */
    const double tol = n <= 20000 ? 1e-11 : 1e-9;
    a_int info;
    pthread_mutex_lock(&arpack_lock);
    locked = 1;
    arpack_iterate(m, which, deflate, nd, sigma, tol, maxiter, &w, ctx, &info);
    if (info == 1 && w.iparam[4] < nev) {
        /* Not an error of the input or of moore: the caller decides. */
        moore_error_set(err, MOORE_EINTERNAL,
                        "spectrum: Lanczos did not converge within its work budget (%d of %d "
                        "eigenvalues after %d restarts): the eigenvalues are too close together",
                        (int)w.iparam[4], nev, (int)maxiter);
        *converged = 0;
        goto done;
    }
    if (info < 0 || info == 3) {
        rc = moore_error_set(err, MOORE_EINTERNAL, "spectrum: ARPACK dsaupd failed (info %d)",
                             (int)info);
        goto done;
    }
    linalg_blas_pin_begin();
    dseupd_c(vecs ? 1 : 0, "A", w.select, w.d, w.z, n, 0.0, "I", n, which, nev, tol, w.resid,
             w.ncv, w.v, n, w.iparam, w.ipntr, w.workd, w.workl, w.lworkl, &info);
    linalg_blas_pin_end();
    if (info != 0) {
        rc = moore_error_set(err, MOORE_EINTERNAL, "spectrum: ARPACK dseupd failed (info %d)",
                             (int)info);
        goto done;
    }
    arpack_sorted(&w, vals, vecs);
done:
    if (locked)
        pthread_mutex_unlock(&arpack_lock);
    arpack_ws_clear(&w);
    return rc;
}

int moore_eig_arpack(const moore_symmat *m, const char *which, int nev, const double *deflate,
                     int n_deflate, double deflate_value, double *vals, double *vecs,
                     moore_error *err)
{
    if (nev > 64)
        return moore_error_set(err, MOORE_EINVAL, "spectrum: at most 64 eigenvalues, not %d", nev);
    if (strcmp(which, "LA") && strcmp(which, "SA") && strcmp(which, "BE") && strcmp(which, "LM"))
        return moore_error_set(err, MOORE_EINVAL, "spectrum: which='%s' is not LA, SA, BE or LM",
                               which);
    int converged;
    int rc = arpack_run(m, which, nev, deflate, n_deflate, deflate_value, vals, vecs, NULL,
                        &converged, err);
    return rc ? rc : converged ? MOORE_OK : MOORE_EINTERNAL;
}

/* MOORE_EIG_AUTO solves up to SPECTRUM_DENSE_MAX rows densely (LAPACK beats
 * Lanczos there), and ARPACK is not asked below SPECTRUM_ARPACK_MIN rows
 * (it needs n > nev + 1 after deflation). */
#define SPECTRUM_DENSE_MAX 256
#define SPECTRUM_ARPACK_MIN 24

static moore_eig_method pick(moore_eig_method method, int32_t n)
{
    if (method == MOORE_EIG_AUTO)
        method = n <= SPECTRUM_DENSE_MAX ? MOORE_EIG_DENSE : MOORE_EIG_ARPACK;
    if (method == MOORE_EIG_ARPACK && n < SPECTRUM_ARPACK_MIN)
        method = MOORE_EIG_DENSE;
    return method;
}

int moore_eig_extremes(const moore_symmat *m, moore_eig_method method, double *lo, double *hi,
                       double *vlo, double *vhi, moore_error *err)
{
    if (m->n < 1)
        return moore_error_set(err, MOORE_EINVAL, "spectrum: empty matrix");
    if (pick(method, m->n) == MOORE_EIG_DENSE) {
        int rc = dense_pair(m, 1, lo, vlo, err);
        return rc ? rc : dense_pair(m, m->n, hi, vhi, err);
    }
    double vals[2], *vecs = NULL;
    if (vlo || vhi) {
        vecs = moore_malloc(2 * (size_t)m->n, sizeof *vecs, err);
        if (!vecs)
            return core_alloc_code(err);
    }
    int converged;
    int rc = arpack_run(m, "BE", 2, NULL, 0, 0.0, vals, vecs, NULL, &converged, err);
    if (!rc && !converged)
        rc = MOORE_EINTERNAL;
    if (!rc) {
        *lo = vals[0];
        *hi = vals[1];
        if (vlo)
            memcpy(vlo, vecs, (size_t)m->n * sizeof *vlo);
        if (vhi)
            memcpy(vhi, vecs + m->n, (size_t)m->n * sizeof *vhi);
    }
    free(vecs);
    return rc;
}

/* ---- graph metrics ---- */

int moore_spectrum_bipartite(const moore_graph *g, int *is_bipartite, int8_t *colour,
                             moore_error *err)
{
    int32_t n = g->n;
    int8_t *own = NULL;
    int32_t *q = NULL;
    int8_t *c = colour ? colour : (own = moore_malloc((size_t)(n ? n : 1), sizeof *own, err));
    int rc = MOORE_ENOMEM;
    q = moore_malloc((size_t)(n ? n : 1), sizeof *q, err);
    if (!c || !q) {
        rc = core_alloc_code(err);
        goto done;
    }
    memset(c, -1, (size_t)n);
    int ok = 1;
    for (int32_t s = 0; s < n && ok; s++) {
        if (c[s] >= 0)
            continue;
        int32_t head = 0, tail = 0;
        c[s] = 0;
        q[tail++] = s;
        while (head < tail && ok) {
            int32_t u = q[head++];
            for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
                int32_t w = g->adj[k];
                if (c[w] < 0) {
                    c[w] = (int8_t)(1 - c[u]);
                    q[tail++] = w;
                } else if (c[w] == c[u]) {
                    ok = 0;
                    break;
                }
            }
        }
    }
    *is_bipartite = ok;
    rc = MOORE_OK;
done:
    free(own);
    free(q);
    return rc;
}

/* Fills the derived values from λ₁, λ₂, λ_N and the value λ_nontrivial is
 * taken from at the bottom end (λ_N, or λ_{N−1} for a bipartite graph). */
static void finish(moore_spectrum *s, double bottom_nontrivial)
{
    s->spectral_gap = s->lambda1 - s->lambda2;
    s->lambda_nontrivial = fmax(fabs(s->lambda2), fabs(bottom_nontrivial));
    s->ramanujan_bound = s->degree_max >= 1 ? 2.0 * sqrt((double)s->degree_max - 1.0) : NAN;
    s->is_ramanujan = s->lambda_nontrivial <= s->ramanujan_bound + 1e-9;
}

static int spectrum_dense(const moore_graph *g, moore_spectrum *s, moore_error *err)
{
    int32_t n = g->n;
    double *deg = NULL;
    double *w = moore_malloc((size_t)n, sizeof *w, err);
    int rc = MOORE_OK;
    if (!w) {
        rc = core_alloc_code(err);
        goto done;
    }
    moore_symmat a;
    moore_symmat_adjacency(g, &a);
    rc = moore_eig_dense(&a, w, err);
    if (rc)
        goto done;
    s->lambda1 = w[n - 1];
    s->lambda2 = w[n - 2];
    s->lambda_min = w[0];
    /* Bipartite: w[0] = −λ₁ is trivial; n = 2 leaves nothing non-trivial. */
    double bottom = s->bipartite ? (n > 2 ? w[1] : 0.0) : w[0];
    finish(s, bottom);
    if (s->bipartite && n == 2) { /* K_2: both eigenvalues ±1 are trivial */
        s->lambda_nontrivial = 0.0;
        s->is_ramanujan = 1;
    }
    if (s->regular) {
        s->algebraic_connectivity = s->degree_max - s->lambda2;
        goto done;
    }
    deg = moore_malloc((size_t)n, sizeof *deg, err);
    if (!deg) {
        rc = core_alloc_code(err);
        goto done;
    }
    moore_symmat l;
    moore_symmat_laplacian(g, deg, &l);
    rc = moore_eig_dense(&l, w, err);
    if (!rc)
        s->algebraic_connectivity = w[1];
done:
    free(deg);
    free(w);
    return rc;
}

/* The trivial eigenvector 1/√n in q[0..n) and, for a bipartite graph, the
 * signed one of its two sides in q[n..2n); *nd = how many were written. */
static int arpack_deflation(const moore_graph *g, const moore_spectrum *s, double *q, int *nd,
                            moore_error *err)
{
    int32_t n = g->n;
    for (int32_t i = 0; i < n; i++)
        q[i] = 1.0 / sqrt((double)n);
    *nd = 1;
    if (!s->regular || !s->bipartite)
        return MOORE_OK;
    int isb;
    int8_t *c = moore_malloc((size_t)n, sizeof *c, err);
    int rc = c ? moore_spectrum_bipartite(g, &isb, c, err) : core_alloc_code(err);
    for (int32_t i = 0; !rc && i < n; i++)
        q[n + i] = (c[i] ? -1.0 : 1.0) / sqrt((double)n);
    if (!rc)
        *nd = 2;
    free(c);
    return rc;
}

static int spectrum_arpack(const moore_graph *g, const moore_metric_options *o,
                           moore_spectrum *s, moore_error *err)
{
    int32_t n = g->n;
    moore_symmat a;
    moore_symmat_adjacency(g, &a);
    arpack_ctx ctx = { o, "spectrum (Lanczos)" };
    double *deg = NULL;
    double *q = moore_malloc(2 * (size_t)n, sizeof *q, err);
    double vals[3];
    int nd = 1, rc = MOORE_OK;
    if (!q) {
        rc = core_alloc_code(err);
        goto done;
    }
    rc = arpack_deflation(g, s, q, &nd, err);
    if (rc)
        goto done;
    if (s->regular) {
        /* Mean of the non-trivial eigenvalues (trace 0): −d/(n−1), or 0 when
         * −d is deflated too. */
        double mean = nd == 2 ? 0.0 : -(double)s->degree_max / (double)(n - 1);
        rc = arpack_run(&a, "BE", 2, q, nd, mean, vals, NULL, &ctx, &s->converged, err);
        if (!rc && s->converged) {
            s->lambda1 = s->degree_max;
            s->lambda2 = vals[1];
            s->lambda_min = s->bipartite ? -(double)s->degree_max : vals[0];
            finish(s, vals[0]);
            s->algebraic_connectivity = s->degree_max - s->lambda2;
        }
        goto done;
    }
    rc = arpack_run(&a, "BE", 3, NULL, 0, 0.0, vals, NULL, &ctx, &s->converged, err);
    if (rc)
        goto done;
    if (s->converged) {
        s->lambda1 = vals[2];
        s->lambda2 = vals[1];
        s->lambda_min = vals[0];
        /* A bipartite spectrum is symmetric: λ_{N−1} = −λ₂. */
        finish(s, s->bipartite ? -vals[1] : vals[0]);
    }
    deg = moore_malloc((size_t)n, sizeof *deg, err);
    if (!deg) {
        rc = core_alloc_code(err);
        goto done;
    }
    if (s->converged) {
        moore_symmat l;
        moore_symmat_laplacian(g, deg, &l);
        ctx.what = "Laplacian (Lanczos)";
        /* trace L = 2m, and the deflated eigenvalue is 0 */
        double mean = 2.0 * (double)g->m / (double)(n - 1);
        rc = arpack_run(&l, "SA", 1, q, 1, mean, vals, NULL, &ctx, &s->converged, err);
        if (!rc && s->converged)
            s->algebraic_connectivity = vals[0];
    }
done:
    free(deg);
    free(q);
    return rc;
}

/* ---- spectra known in closed form ---- */


/* The spectrum of a product of cycles C_{d_1} □ ... □ C_{d_k}: its eigenvalues
 * are the sums of one eigenvalue 2cos(2πj/d_i) of each factor (±1 for d = 2),
 * so λ₁ = Σ 2, λ₂ = λ₁ − the smallest factor gap 2 − 2cos(2π/d_i), and λ_N is
 * the sum of the factors' smallest eigenvalues (−2 for even d, −2cos(π/d) for
 * odd d). The product is bipartite when every d_i is even; its spectrum is then
 * symmetric, so the non-trivial bottom is −λ₂. */
static void spectrum_of_cycles(const linalg_cycles *c, moore_spectrum *s)
{
    const double pi = acos(-1.0);
    double top = 0, bottom = 0, gap = INFINITY;
    for (int i = 0; i < c->nd; i++) {
        double d = (double)c->dim[i];
        double hi = c->dim[i] == 2 ? 1.0 : 2.0;
        double second = c->dim[i] == 2 ? -1.0 : 2.0 * cos(2.0 * pi / d);
        double lo = c->dim[i] % 2 == 0 ? -hi : -2.0 * cos(pi / d);
        top += hi;
        bottom += lo;
        gap = fmin(gap, hi - second);
    }
    s->lambda1 = top;
    s->lambda2 = top - gap;
    s->lambda_min = bottom;
    finish(s, s->bipartite ? -s->lambda2 : bottom);
    s->algebraic_connectivity = gap;
}

/* 1 when g's spectrum was filled from a closed form; torus: g's cycle
 * factors when g is known to be a torus, else NULL. */
static int spectrum_closed_form(const moore_graph *g, const linalg_cycles *torus,
                                moore_spectrum *s)
{
    int64_t n = g->n;
    linalg_cycles c = { 1, { n } };
    if (s->connected && s->regular && s->degree_max == 2 && n >= 3) { /* a ring C_n */
        spectrum_of_cycles(&c, s);
    } else if (n >= 3 && g->m == n * (n - 1) / 2) { /* K_n: n − 1 once, −1 n − 1 times */
        s->lambda1 = (double)(n - 1);
        s->lambda2 = s->lambda_min = -1.0;
        finish(s, -1.0);
        s->algebraic_connectivity = (double)n;
    } else if (s->connected && s->regular && torus) {
        spectrum_of_cycles(torus, s);
    } else {
        return 0;
    }
    s->method = MOORE_EIG_CLOSED_FORM;
    return 1;
}

int linalg_spectrum(const moore_graph *g, const moore_metric_options *o, moore_eig_method method,
                    const linalg_cycles *torus, moore_spectrum *out, moore_error *err)
{
    moore_spectrum s;
    memset(&s, 0, sizeof s);
    s.lambda2 = s.spectral_gap = s.lambda_nontrivial = s.ramanujan_bound = NAN;
    s.algebraic_connectivity = NAN;
    s.lambda1 = s.lambda_min = 0.0;
    s.converged = 1;
    s.regular = moore_graph_is_regular(g);
    s.degree_max = moore_graph_degree_max(g);
    s.method = pick(method, g->n);
    if (s.degree_max >= 1)
        s.ramanujan_bound = 2.0 * sqrt((double)s.degree_max - 1.0);
    if (g->n < 2) {
        s.connected = 1;
        *out = s;
        return MOORE_OK;
    }
    int32_t comps;
    int rc = moore_components(g, NULL, &comps, err);
    if (!rc)
        rc = moore_spectrum_bipartite(g, &s.bipartite, NULL, err);
    if (rc)
        return rc;
    s.connected = comps == 1;
    if (s.degree_max == 0) { /* no links: every eigenvalue is 0 */
        s.lambda2 = s.spectral_gap = s.lambda_nontrivial = s.algebraic_connectivity = 0.0;
        *out = s;
        return MOORE_OK;
    }
    if (method == MOORE_EIG_AUTO && spectrum_closed_form(g, torus, &s)) {
        *out = s;
        return MOORE_OK;
    }
    rc = s.method == MOORE_EIG_DENSE ? spectrum_dense(g, &s, err)
                                     : spectrum_arpack(g, o, &s, err);
    if (rc)
        return rc;
    if (!s.converged) {
        s.lambda1 = s.lambda2 = s.lambda_min = s.spectral_gap = s.lambda_nontrivial = NAN;
        s.algebraic_connectivity = NAN;
        s.is_ramanujan = 0;
    }
    *out = s;
    return MOORE_OK;
}
