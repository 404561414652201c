/* lift.c — 2-lifts of any graph, the signed adjacency matrix, and the
 * signing search (Bilu & Linial 2006; docs/xpander.md).
 *
 * Bilu and Linial show that a signing with ρ(A_s) = O(√(d log³ d)) always
 * exists and conjecture 2√(d−1); finding the best one is hard, so this is a
 * local search: random starts, then greedy batches of sign flips guided by
 * the eigenvector of the extreme eigenvalue, every step confirmed by the
 * eigensolver (the first-order estimate only ranks the candidates; nothing
 * is accepted on the estimate alone). */
#include "moore/lift.h"
#include "moore/rng.h"
#include "core/alloc.h"
#include "core/csr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* eid[k] = link id of CSR entry k (links numbered over u < v in CSR order). */
static int64_t *link_ids(const moore_graph *g, moore_error *err)
{
    int64_t *eid = moore_malloc((size_t)(2 * g->m > 0 ? 2 * g->m : 1), sizeof *eid, err);
    if (!eid)
        return NULL;
    int64_t e = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            int32_t v = g->adj[k];
            if (v > u) {
                eid[k] = e++;
            } else { /* the arc v→u was numbered when row v was done */
                eid[k] = eid[core_csr_find(g, v, u)];
            }
        }
    return eid;
}

int moore_lift_build(const moore_graph *g, const int8_t *signs, moore_graph **out,
                     moore_error *err)
{
    *out = NULL;
    if ((int64_t)g->n * 2 > MOORE_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL, "lift: 2 x %d switches exceeds the limit %d",
                               (int)g->n, MOORE_MAX_SWITCHES);
    int32_t n = g->n;
    moore_builder *b = NULL;
    moore_graph *h = NULL;
    int rc = moore_builder_new(2 * n, 2 * g->m, &b, err);
    int64_t e = 0;
    for (int32_t u = 0; !rc && u < n; u++)
        for (int64_t k = g->offs[u]; !rc && k < g->offs[u + 1]; k++) {
            int32_t v = g->adj[k];
            if (v < u)
                continue;
            if (signs[e] != 1 && signs[e] != -1) {
                rc = moore_error_set(err, MOORE_EINVAL, "lift: sign of link %lld is %d, not +1 or -1",
                                     (long long)e, (int)signs[e]);
                break;
            }
            int32_t cross = signs[e++] < 0 ? n : 0;
            rc = moore_builder_add_link(b, u, v + cross, err);
            if (!rc)
                rc = moore_builder_add_link(b, u + n, v + n - cross, err);
        }
    if (rc)
        goto done;
    rc = moore_builder_finish(b, &h, err);
    b = NULL; /* finish frees it, whatever it returns */
    if (rc)
        goto done;
    for (int32_t v = 0; v < n; v++)
        h->endpoints[v] = h->endpoints[v + n] = g->endpoints[v];
    for (int32_t v = 0; !rc && g->labels && v < n; v++)
        if (g->labels[v]) {
            char copy[256];
            snprintf(copy, sizeof copy, "%s'", g->labels[v]);
            rc = moore_graph_set_label(h, v, g->labels[v], err);
            if (!rc)
                rc = moore_graph_set_label(h, v + n, copy, err);
        }
    if (!rc) {
        *out = h;
        h = NULL;
    }
done:
    moore_builder_free(b);
    moore_graph_free(h);
    return rc;
}

/* CSR values of A_s for the given signs. */
static void signed_values(const moore_graph *g, const int64_t *eid, const int8_t *signs,
                          double *val)
{
    for (int64_t k = 0; k < 2 * g->m; k++)
        val[k] = signs[eid[k]];
}

int moore_lift_signed_radius(const moore_graph *g, const int8_t *signs, moore_eig_method method,
                             double *rho, double *lo, double *hi, moore_error *err)
{
    if (g->m == 0) {
        *rho = 0;
        if (lo) *lo = 0;
        if (hi) *hi = 0;
        return MOORE_OK;
    }
    int64_t *eid = link_ids(g, err);
    double *val = eid ? moore_malloc((size_t)(2 * g->m), sizeof *val, err) : NULL;
    int rc = MOORE_OK;
    if (!val) {
        rc = core_alloc_code(err);
        goto done;
    }
    signed_values(g, eid, signs, val);
    moore_symmat a;
    moore_symmat_adjacency(g, &a);
    a.val = val;
    double l, h;
    rc = moore_eig_extremes(&a, method, &l, &h, NULL, NULL, err);
    if (!rc) {
        *rho = fmax(h, -l);
        if (lo) *lo = l;
        if (hi) *hi = h;
    }
done:
    free(eid);
    free(val);
    return rc;
}

void moore_lift_options_default(moore_lift_options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->tries = 4;
    o->max_evals = 32;
    o->method = MOORE_EIG_AUTO;
}

typedef struct ranked {
    double score;
    int64_t link;
} ranked;

typedef struct search {
    const moore_lift_options *o;
    int done_evals;             /* over all tries, for progress */
    const moore_graph *g;
    moore_eig_method method;
    int64_t m;
    int32_t *lu, *lv;       /* link endpoints */
    int64_t *eid;
    double *val, *vlo, *vhi;    /* eigenvectors of the kept signing */
    double *tlo, *thi;          /* of the signing on trial */
    ranked *order;
} search;

/* ρ's two ends for `signs`, with unit eigenvectors into vlo / vhi. */
static int eval(search *s, const int8_t *signs, double *lo, double *hi, double *vlo, double *vhi,
                moore_error *err)
{
    signed_values(s->g, s->eid, signs, s->val);
    moore_symmat a;
    moore_symmat_adjacency(s->g, &a);
    a.val = s->val;
    int rc = moore_eig_extremes(&a, s->method, lo, hi, vlo, vhi, err);
    s->done_evals++;
    if (s->o->progress)
        s->o->progress(s->o->progress_ctx, "2-lift signing search",
                       fmin(1.0, (double)s->done_evals /
                                     ((double)s->o->tries * (double)s->o->max_evals)));
    return rc;
}

static int cmp_ranked(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return (a->link > b->link) - (a->link < b->link);
}

/* Links by falling score, ties by id, so the order is fully determined. */
static void rank_links(search *s)
{
    qsort(s->order, (size_t)s->m, sizeof *s->order, cmp_ranked);
}

/* One try: greedy batches of flips from the signing in `signs`. The links
 * are ranked once per kept signing; a rejected batch leaves the signing, its
 * eigenvectors and so the ranking as they were, and only the batch halves. */
static int descend(search *s, int8_t *signs, int max_evals, double *rho_out, moore_error *err)
{
    double lo, hi;
    int rc = eval(s, signs, &lo, &hi, s->vlo, s->vhi, err);
    if (rc)
        return rc;
    double rho = fmax(hi, -lo);
    int64_t batch = s->m / 8 > 0 ? s->m / 8 : 1;
    int ranked_now = 0;
    for (int evals = 1; evals < max_evals && batch >= 1;) {
        if (!ranked_now) {
            double sigma = hi >= -lo ? 1.0 : -1.0;
            const double *x = sigma > 0 ? s->vhi : s->vlo;
            for (int64_t e = 0; e < s->m; e++) {
                s->order[e].score = sigma * signs[e] * x[s->lu[e]] * x[s->lv[e]];
                s->order[e].link = e;
            }
            rank_links(s);
            ranked_now = 1;
        }
        int64_t take = 0;
        while (take < batch && take < s->m && s->order[take].score > 0)
            take++;
        if (take == 0)
            break;
        for (int64_t i = 0; i < take; i++)
            signs[s->order[i].link] = (int8_t)-signs[s->order[i].link];
        double nlo, nhi;
        rc = eval(s, signs, &nlo, &nhi, s->tlo, s->thi, err);
        evals++;
        if (rc)
            return rc;
        double nrho = fmax(nhi, -nlo);
        if (nrho < rho - 1e-10) {
            rho = nrho;
            lo = nlo;
            hi = nhi;
            double *t = s->vlo;
            s->vlo = s->tlo;
            s->tlo = t;
            t = s->vhi;
            s->vhi = s->thi;
            s->thi = t;
            ranked_now = 0;
            continue;
        }
        for (int64_t i = 0; i < take; i++)
            signs[s->order[i].link] = (int8_t)-signs[s->order[i].link];
        batch /= 2;
    }
    *rho_out = rho;
    return MOORE_OK;
}

int moore_lift_search(const moore_graph *g, const moore_lift_options *o, int8_t *signs,
                      double *rho, moore_error *err)
{
    moore_lift_options def;
    if (!o) {
        moore_lift_options_default(&def);
        o = &def;
    }
    if (o->tries < 1 || o->max_evals < 1)
        return moore_error_set(err, MOORE_EINVAL,
                               "lift: tries=%d and evaluations=%d must both be at least 1",
                               o->tries, o->max_evals);
    if (g->m == 0) {
        *rho = 0;
        return MOORE_OK;
    }
    search s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.g = g;
    s.method = o->method;
    s.m = g->m;
    size_t n = (size_t)g->n, m = (size_t)g->m;
    int rc = moore_memory_guard(8.0 * (7.0 * (double)m + 4.0 * (double)n), "the signing search",
                                err);
    if (rc)
        return rc;
    s.lu = moore_malloc(m, sizeof *s.lu, err);
    s.lv = moore_malloc(m, sizeof *s.lv, err);
    s.eid = link_ids(g, err);
    s.val = moore_malloc(2 * m, sizeof *s.val, err);
    s.vlo = moore_malloc(n, sizeof *s.vlo, err);
    s.vhi = moore_malloc(n, sizeof *s.vhi, err);
    s.tlo = moore_malloc(n, sizeof *s.tlo, err);
    s.thi = moore_malloc(n, sizeof *s.thi, err);
    s.order = moore_malloc(m, sizeof *s.order, err);
    int8_t *cur = moore_malloc(m, sizeof *cur, err);
    if (!s.lu || !s.lv || !s.eid || !s.val || !s.vlo || !s.vhi || !s.tlo || !s.thi || !s.order || !cur) {
        rc = core_alloc_code(err);
        goto done;
    }
    core_csr_links(g, s.lu, s.lv);
    moore_rng base;
    moore_rng_seed(&base, o->seed);
    double best = INFINITY;
    for (int t = 0; t < o->tries; t++) {
        moore_rng r;
        moore_rng_split(&base, (uint64_t)t, &r);
        for (size_t i = 0; i < m; i++)
            cur[i] = moore_rng_below(&r, 2) ? 1 : -1;
        double got;
        rc = descend(&s, cur, o->max_evals, &got, err);
        if (rc)
            goto done;
        if (got < best - 1e-10) {
            best = got;
            memcpy(signs, cur, m);
        }
    }
    rc = moore_lift_signed_radius(g, signs, o->method, rho, NULL, NULL, err);
done:
    free(s.lu);
    free(s.lv);
    free(s.eid);
    free(s.val);
    free(s.vlo);
    free(s.vhi);
    free(s.tlo);
    free(s.thi);
    free(s.order);
    free(cur);
    return rc;
}

int moore_lift(const moore_graph *g, const moore_lift_options *o, moore_graph **out,
               moore_lift_result *res, moore_error *err)
{
    moore_lift_options def;
    if (!o) {
        moore_lift_options_default(&def);
        o = &def;
    }
    *out = NULL;
    moore_lift_result r;
    memset(&r, 0, sizeof r);
    moore_spectrum before, after;
    moore_graph *h = NULL;
    int8_t *signs = moore_malloc((size_t)(g->m ? g->m : 1), sizeof *signs, err);
    int rc = signs ? moore_spectrum_compute(g, NULL, o->method, &before, err)
                   : core_alloc_code(err);
    if (!rc)
        rc = moore_lift_search(g, o, signs, &r.rho, err);
    if (!rc)
        rc = moore_lift_signed_radius(g, signs, o->method, &r.rho, &r.signed_min, &r.signed_max,
                                      err);
    if (!rc)
        rc = moore_lift_build(g, signs, &h, err);
    if (!rc)
        rc = moore_spectrum_compute(h, NULL, o->method, &after, err);
    if (rc)
        goto done;
    r.lambda2_before = before.lambda2;
    r.lambda2_after = after.lambda2;
    r.nontrivial_before = before.lambda_nontrivial;
    r.nontrivial_after = after.lambda_nontrivial;
    r.ramanujan_bound = before.ramanujan_bound;
    r.gap_kept = r.rho <= before.lambda2 + 1e-9;
    r.lambda2_kept = after.lambda2 <= before.lambda2 + 1e-9;
    r.signing_ramanujan = r.rho <= r.ramanujan_bound + 1e-9;
    r.union_error = fabs(after.lambda2 - fmax(before.lambda2, r.signed_max)) +
                    fabs(after.lambda_min - fmin(before.lambda_min, r.signed_min));
    if (!(r.union_error <= 1e-6)) {
        rc = moore_error_set(err, MOORE_EINTERNAL,
                             "lift: the lift's spectrum is not spec(A) u spec(A_s) (off by %g)",
                             r.union_error);
        goto done;
    }
    char params[256];
    const char *of = moore_graph_spec(g);
    snprintf(params, sizeof params, "of=%s,seed=%llu", of ? of : "file",
             (unsigned long long)o->seed);
    rc = moore_graph_set_origin(h, "lift", params, err);
    if (rc)
        goto done;
    if (res)
        *res = r;
    *out = h;
    h = NULL;
done:
    free(signs);
    moore_graph_free(h);
    return rc;
}

int moore_lift_check_times(const moore_graph *g, int times, moore_error *err)
{
    if (times < 1 || times > 62)
        return moore_error_set(err, MOORE_EINVAL, "lift: %d lifts: give 1 or more", times);
    double scale = ldexp(1.0, times), n = scale * g->n, m = scale * (double)g->m;
    if (n > MOORE_LIFT_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL,
                               "lift: %d lifts of %d switches give %.4g switches, more than the "
                               "%d a lift may produce", times, (int)g->n, n,
                               MOORE_LIFT_MAX_SWITCHES);
    /* the last lift holds its input, the signing search and the new graph */
    double bytes = 8.0 * (7.0 * m / 2 + 4.0 * n / 2) + 24.0 * m + 16.0 * n;
    return moore_memory_guard(bytes, "the last lift", err);
}
