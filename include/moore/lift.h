/* lift.h — 2-lifts of any topology (Bilu & Linial 2006; docs/xpander.md).
 *
 * A signing gives each link u–v of G a sign s ∈ {+1, −1}. The 2-lift copies
 * G to G' (the copy of switch v is v + N) and turns each link into a pair:
 * + keeps u–v and u'–v', − crosses them into u–v' and u'–v. N doubles and
 * every degree stays. The lift's adjacency spectrum is spec(A) ∪ spec(A_s),
 * A_s the signed adjacency matrix, so the new eigenvalues are A_s's and a
 * good signing has a small spectral radius ρ(A_s): the lift keeps G's
 * non-trivial spectrum when ρ(A_s) ≤ λ₂(G), and is Ramanujan when G is and
 * ρ(A_s) ≤ 2√(d−1).
 *
 * Links are numbered 0..m−1 in CSR order of the pairs (u, v) with u < v, the
 * order moore_write_edgelist prints them.
 *
 * Everything here calls the eigensolvers of spectrum.h, so it inherits their
 * rule: not from several threads at once. */
#ifndef MOORE_LIFT_H
#define MOORE_LIFT_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"
#include "moore/spectrum.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The 2-lift of g by signs[0..m−1] (each +1 or −1). Endpoints and labels are
 * copied to both copies (the copy's label gets a trailing '). *out is a new
 * graph the caller frees with moore_graph_free; NULL on error. O(n + m log m). */
MOORE_API int moore_lift_build(const moore_graph *g, const int8_t *signs, moore_graph **out,
                     moore_error *err);

/* ρ(A_s) = max(|λ_min(A_s)|, |λ_max(A_s)|), and those two eigenvalues when
 * lo / hi are not NULL. Borrows g and signs; one moore_eig_extremes solve. */
MOORE_API int moore_lift_signed_radius(const moore_graph *g, const int8_t *signs, moore_eig_method method,
                             double *rho, double *lo, double *hi, moore_error *err);

typedef struct moore_lift_options {
    uint64_t seed;          /* for the random starting signings */
    int tries;              /* random signings to start from (>= 1) */
    int max_evals;          /* eigen-solves per try spent on greedy flips (>= 1) */
    moore_eig_method method;
    /* Called after every eigen-solve of the search with the fraction done; may
     * be NULL. The library never prints; the CLI draws it on a terminal. */
    void (*progress)(void *ctx, const char *what, double fraction);
    void *progress_ctx;
} moore_lift_options;

/* seed 1, 4 tries, 32 evaluations per try, AUTO, no progress callback.
 * Fills the caller's struct; O(1). */
MOORE_API void moore_lift_options_default(moore_lift_options *o);

/* Searches for a signing with small ρ(A_s): each try starts from a random
 * signing and then flips signs greedily. With x the unit eigenvector of the
 * eigenvalue that attains ρ (sign σ = ±1 for the top or the bottom end),
 * flipping link u–v changes the Rayleigh quotient by −4σ·s_uv·x_u·x_v, so the
 * links with the largest σ·s_uv·x_u·x_v are flipped, a batch at a time; a
 * batch is kept only when the eigensolver confirms that ρ went down, and is
 * halved otherwise. The best signing over all tries is returned in signs
 * (m entries) with its ρ, recomputed from scratch. Ties are broken by a
 * 1e-10 margin and the try order, so rounding noise does not change the
 * result. signs (m entries) is caller-owned. Time: tries × max_evals + 1
 * eigen-solves (moore_eig_extremes) plus O(m log m) ranking per kept batch;
 * O(n + m) scratch memory. */
MOORE_API int moore_lift_search(const moore_graph *g, const moore_lift_options *o, int8_t *signs,
                      double *rho, moore_error *err);

typedef struct moore_lift_result {
    double rho;                 /* ρ(A_s) of the signing used */
    double signed_min, signed_max; /* λ_min(A_s), λ_max(A_s) */
    double lambda2_before, lambda2_after;
    double nontrivial_before, nontrivial_after;
    double ramanujan_bound;     /* 2√(d−1), d = maximum degree */
    int gap_kept;               /* ρ(A_s) ≤ λ₂(G) (docs/xpander.md) */
    int lambda2_kept;           /* λ₂(lift) ≤ λ₂(G): the spectral gap did not shrink */
    int signing_ramanujan;      /* ρ(A_s) ≤ 2√(d−1) */
    double union_error;         /* |λ₂(lift) − max(λ₂(G), λ_max(A_s))| + the same at λ_min */
} moore_lift_result;

/* Searches a signing, builds the lift, and measures it: λ₂ of the lift is
 * computed from the lifted graph itself and checked against
 * max(λ₂(G), λ_max(A_s)) (MOORE_EINTERNAL if they differ by more than 1e-6).
 * res may be NULL. The lift records family "lift". *out is a new graph the
 * caller frees with moore_graph_free; NULL on error. Cost: moore_lift_search,
 * then moore_spectrum_compute on g and on the lift (2n switches). */
MOORE_API int moore_lift(const moore_graph *g, const moore_lift_options *o, moore_graph **out,
               moore_lift_result *res, moore_error *err);

/* The largest graph successive lifts may produce: each lift runs eigensolvers
 * on its input and its result, which at a million switches already take
 * minutes. */
#define MOORE_LIFT_MAX_SWITCHES (1 << 20)

/* Refuses, before any work, `times` successive lifts of g whose final graph
 * (2^times · n switches, 2^times · m links) exceeds MOORE_LIFT_MAX_SWITCHES
 * (MOORE_EINVAL) or the memory this process may use (MOORE_ETOOBIG). O(1). */
MOORE_API int moore_lift_check_times(const moore_graph *g, int times, moore_error *err);
/* Called after each lift of moore_lift_times with the graphs before and
 * after; a non-zero return stops and is returned. */
typedef int (*moore_lift_step)(void *ctx, int step, const moore_graph *before,
                               const moore_graph *after, const moore_lift_result *res);

/* times lifts in a row, lift i with seed o->seed + i - 1. The result records
 * family "lift", params "times=T,seed=S,tries=N,evals=E,of=ORIGIN" (g's
 * family:params), a SPEC that rebuilds it byte for byte (src/families/provenance.c).
 * *out is a new graph the caller frees with moore_graph_free; NULL on error; the
 * graphs step sees are borrowed for the call. Cost: times × moore_lift, the last
 * on 2^(times−1)·n switches dominating. */
MOORE_API int moore_lift_times(const moore_graph *g, int times, const moore_lift_options *o,
                               moore_lift_step step, void *ctx, moore_graph **out,
                               moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
