/* spectrum.h — eigenvalues of graph matrices and the spectral metrics of
 * docs/xpander.md: λ₁, λ₂, λ_N, spectral gap, λ_nontrivial, the Ramanujan bound
 * 2√(d−1), and the Laplacian's algebraic connectivity (Fiedler value).
 *
 * Two solvers, one answer. Small matrices get their whole spectrum from
 * LAPACKE_dsyevr on a dense copy (exact to rounding, O(n³)). Large ones get
 * only the extreme eigenvalues from ARPACK's implicitly restarted Lanczos
 * (dsaupd/dseupd), driven by reverse communication with moore's own CSR
 * matrix-vector product (OpenMP over rows). For a regular graph the trivial
 * eigenvector 1 (and, for a connected bipartite graph, the ±1 colouring
 * vector) is projected out of every product, so Lanczos converges straight to
 * λ₂ and λ_N instead of spending its effort on the known eigenvalue d.
 * Tests check that both paths agree to 1e-8.
 *
 * Definitions for graphs that are not regular (documented in docs/xpander.md):
 * λ₁ is the largest adjacency eigenvalue (the Perron root), the Ramanujan
 * bound uses d = the maximum degree, and λ_nontrivial = max(|λ₂|, |λ_N|),
 * where for a connected bipartite graph λ_N = −λ₁ is trivial and is replaced
 * by λ_{N−1} = −λ₂ (a bipartite spectrum is symmetric).
 *
 * THREAD SAFETY: ARPACK keeps internal Fortran SAVE state, so the ARPACK runs
 * of moore_eig_arpack, moore_eig_extremes, moore_spectrum_compute and
 * everything built on them take one process-wide lock: calls from several
 * threads are safe and their Lanczos runs take turns. Each call parallelises
 * its own matrix-vector products with OpenMP. */
#ifndef MOORE_SPECTRUM_H
#define MOORE_SPECTRUM_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"
#include "moore/metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A real symmetric sparse matrix M = diag + offdiag · S, where S has the
 * sparsity of a CSR graph (row i: idx[offs[i] .. offs[i+1]-1]) and entry
 * values val[k] (NULL: every stored entry is 1). The adjacency matrix is
 * {val = NULL, diag = NULL, offdiag = 1}; the Laplacian D − A is
 * {diag = degrees, offdiag = −1}; a signed adjacency matrix A_s has val = ±1.
 * The arrays are borrowed, never freed. val must itself be symmetric. */
typedef struct moore_symmat {
    int32_t n;
    const int64_t *offs;
    const int32_t *idx;
    const double *val;      /* NULL: all ones */
    const double *diag;     /* NULL: zero diagonal */
    double offdiag;         /* factor on the off-diagonal part */
} moore_symmat;

/* Views of a graph's adjacency matrix / Laplacian. The Laplacian needs a
 * caller-owned array of n doubles that receives the degrees. *m borrows g's
 * arrays (and degrees): it must not outlive them. O(1) / O(n). */
MOORE_API void moore_symmat_adjacency(const moore_graph *g, moore_symmat *m);
MOORE_API void moore_symmat_laplacian(const moore_graph *g, double *degrees, moore_symmat *m);

/* y = M x (x and y distinct, n entries each). OpenMP over rows; every row is
 * summed in a fixed order, so the result does not depend on the thread count.
 * Caller-owned vectors; O(n + nnz) time, no allocation. */
MOORE_API void moore_symmat_apply(const moore_symmat *m, const double *x, double *y);

typedef enum moore_eig_method {
    MOORE_EIG_AUTO = 0,     /* dense up to 256 rows, ARPACK above */
    MOORE_EIG_DENSE,        /* LAPACKE_dsyevr on a dense copy */
    MOORE_EIG_ARPACK,       /* Lanczos (falls back to dense below 24 rows) */
    MOORE_EIG_CLOSED_FORM   /* reported by moore_spectrum_compute only: AUTO found a ring,
                               a complete graph or a torus and used its known spectrum */
} moore_eig_method;

/* Every eigenvalue of M, ascending, into w[0..n-1] (LAPACKE_dsyevr).
 * Refuses (MOORE_ETOOBIG) a dense copy that does not fit in memory.
 * w is caller-owned; O(n³) time, O(n²) memory (freed before return). */
MOORE_API int moore_eig_dense(const moore_symmat *m, double *w, moore_error *err);

/* nev extreme eigenvalues of M by ARPACK, with the n_deflate orthonormal
 * columns of `deflate` (n × n_deflate, column-major; NULL when n_deflate is 0)
 * deflated: Lanczos runs on P M P + σ Q Qᵀ (P = I − Q Qᵀ, σ = deflate_value),
 * i.e. M restricted to the complement of Q, with Q's directions moved to the
 * eigenvalue σ. Choose σ between the wanted ends — the mean of the remaining
 * eigenvalues always is — so that it can never be reported. `which` is
 * ARPACK's: "LA" (largest), "SA" (smallest), "BE" (both ends: nev/2 from the
 * bottom, the rest from the top) or "LM" (largest magnitude). vals receives
 * the nev values ascending; vecs (n × nev, column-major, may be NULL) the
 * matching unit eigenvectors. Needs n − n_deflate > nev + 1. Deterministic:
 * the start vector comes from a fixed seed. Runs take turns (see above).
 * vals/vecs are caller-owned. ARPACK Lanczos: O(r · ncv · (nnz + n·ncv)) time for
 * r restarts, ncv = 4·nev + 24 basis vectors, r capped by a work budget of
 * ~10¹¹ flops (50..20000 restarts); O(n · ncv) memory, freed before return. */
MOORE_API int moore_eig_arpack(const moore_symmat *m, const char *which, int nev, const double *deflate,
                     int n_deflate, double deflate_value, double *vals, double *vecs,
                     moore_error *err);

/* The smallest and the largest eigenvalue of M (lo ≤ hi) and, when vlo / vhi
 * are not NULL, unit eigenvectors for them (n entries each), by the method
 * given (AUTO picks by size). Outputs caller-owned, written only on success.
 * Cost: two dense solves (O(n³)) or one moore_eig_arpack run with nev = 2. */
MOORE_API int moore_eig_extremes(const moore_symmat *m, moore_eig_method method, double *lo, double *hi,
                       double *vlo, double *vhi, moore_error *err);

/* ---- the spectral metrics of a graph ---- */

typedef struct moore_spectrum {
    int regular, bipartite, connected;
    int32_t degree_max;
    double lambda1;             /* largest adjacency eigenvalue */
    double lambda2;             /* second largest (NaN when n < 2) */
    double lambda_min;          /* smallest, λ_N */
    double spectral_gap;        /* λ₁ − λ₂ */
    double lambda_nontrivial;   /* max(|λ₂|, |λ_N|), ±λ₁ excluded for bipartite graphs */
    double ramanujan_bound;     /* 2√(d−1), d = maximum degree (NaN when d < 1) */
    int is_ramanujan;           /* λ_nontrivial ≤ bound (1e-9 slack for rounding) */
    double algebraic_connectivity; /* second smallest Laplacian eigenvalue */
    moore_eig_method method;    /* the solver actually used (DENSE or ARPACK) */
    int converged;              /* 0 when Lanczos ran out of its work budget (eigenvalues
                                   packed as tightly as a long ring's); every value is then NaN */
} moore_spectrum;

/* Computes all of the above. o may be NULL (its progress callback is used on
 * large graphs). With MOORE_EIG_AUTO, graphs whose spectrum is known in closed
 * form skip the solvers (method = MOORE_EIG_CLOSED_FORM): a ring (connected
 * and 2-regular), a complete graph (n(n−1)/2 links) and a torus (origin
 * "torus" and exactly the links of its torus:dims=... SPEC), whose
 * eigenvalues are sums of 2cos(2πj/d) over the dimensions. For a regular
 * graph the Laplacian value is d − λ₂ exactly; otherwise it is computed from the Laplacian itself. Lanczos stops after a
 * bounded amount of work (seconds); if that is not enough it returns MOORE_OK
 * with converged = 0 and err holding the explanation, so that a metric report
 * can say "not computed" instead of failing (moore_eig_arpack and
 * moore_eig_extremes return MOORE_EINTERNAL in that case). Fills the caller's
 * *out (no heap inside). Cost: closed forms O(n + m); dense O(n³) time, O(n²)
 * memory; ARPACK as moore_eig_arpack, a few runs (adjacency and Laplacian). */
MOORE_API int moore_spectrum_compute(const moore_graph *g, const moore_metric_options *o,
                           moore_eig_method method, moore_spectrum *out, moore_error *err);

/* *is_bipartite = 1 when every component of g is 2-colourable; colour (may be
 * NULL) receives 0/1 per switch from a BFS 2-colouring when it is.
 * colour is caller-owned; O(n + m) time, O(n) scratch. */
MOORE_API int moore_spectrum_bipartite(const moore_graph *g, int *is_bipartite, int8_t *colour,
                             moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
