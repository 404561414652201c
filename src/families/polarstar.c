/* polarstar.c — PolarStar (Lakhotia, Monroe, Isham, Besta, Blach, Hoefler &
 * Petrini, "PolarStar: expanding the horizon of diameter-3 networks",
 * SPAA'24): the star product of the Erdős–Rényi polarity graph ER_q
 * (PolarFly, src/families/polarfly.c) with a joiner graph J of degree jd.
 *
 * Joiners (each with a bijection φ of its vertices):
 *  - bdf (Bermond–Delorme–Farhi, as the paper's Inductive-Quad): jd ≡ 0 or 3
 *    (mod 4), 2·jd+2 vertices, φ a fixed-point-free involution. The 3-regular
 *    base on 0..7 has links 0-1 0-2 0-7 1-4 1-6 2-3 2-4 3-5 3-6 4-7 5-6 5-7,
 *    φ = (0 4)(1 5)(2 6)(3 7), halves A = {0..3}, φ(A) = {4..7}; the 4-regular
 *    base adds 8 ~ 0,1,4,5 and 9 ~ 2,3,6,7 with φ(8) = 9, 8 ∈ A, 9 ∈ φ(A).
 *    Each step adds 4 to the degree: a copy of the 3-regular base at ids
 *    n..n+7 whose vertices n, n+1 and their images n+4, n+5 link to all of A
 *    and whose n+2, n+3, n+6, n+7 link to all of φ(A); then A gains n..n+3
 *    and φ(A) gains n+4..n+7.
 *  - paley: Paley(r) with r = 2·jd + 1 a prime power ≡ 1 (mod 4), φ(x) = ξ·x
 *    (src/families/bundlefly.c).
 *
 * Star product: switch (i, x), id i·|J| + x. Inside a supernode the joiner's
 * links; for every ER_q link i–k with i < k, (i, x) ~ (k, φ(x)). An absolute
 * point i of ER_q (degree q, a self-loop in the paper's structure graph)
 * gets the links (i, x) ~ (i, φ(x)) of a matching: for bdf the pairs
 * {x, φ(x)}; for paley the pairs {ξ^e, ξ^(e+1)}, e = o, o+2, …, with o = 0
 * when ξ − 1 is a non-square and o = 1 otherwise (so that no pair is a Paley
 * link), which leaves (i, 0) unmatched. Network degree q + 1 + jd (bdf:
 * regular; paley: the q+1 switches (i, 0) of absolute points have one less);
 * diameter 3 (the paper's value; the tests check it by BFS over a sweep). */
#include "core/alloc.h"
#include "families.h"
#include "moore/field.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const moore_param_info fam_polarstar_params[] = {
    { "q", "", "ER_q (PolarFly) prime power: q^2+q+1 supernodes" },
    { "jd", "", "joiner degree (bdf: = 0 or 3 mod 4, >= 3; paley: 2jd+1 a prime power = 1 mod 4)" },
    { "joiner", "bdf", "joiner graph: bdf (2jd+2 switches) or paley (2jd+1 switches)" },
    { "p", "q+1+jd", "endpoints per switch (EvalNet's choice: the network degree)" },
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

typedef struct ps_shape {
    int64_t q, jd, nj, er_n, er_links, deg;
    int paley;
    int32_t p;
} ps_shape;

/* Classifies without messages: 1 when (q, jd, joiner) is admissible. */
static int ps_classify(int64_t q, int64_t jd, int paley, ps_shape *s)
{
    s->q = q;
    s->jd = jd;
    s->paley = paley;
    s->nj = paley ? 2 * jd + 1 : 2 * jd + 2;
    s->er_n = q * q + q + 1;
    s->er_links = q * (q + 1) * (q + 1) / 2;
    s->deg = q + 1 + jd;
    if (!moore_is_prime_power(q, NULL, NULL) || q > MOORE_GF_MAX)
        return 0;
    if (paley)
        return s->nj % 4 == 1 && s->nj <= MOORE_GF_MAX && moore_is_prime_power(s->nj, NULL, NULL);
    return jd >= 3 && (jd % 4 == 0 || jd % 4 == 3);
}

static int ps_read(moore_params *pp, ps_shape *s, moore_error *err)
{
    int64_t q, jd;
    int rc;
    if ((rc = moore_params_int(pp, "q", -1, 0, MOORE_GF_MAX, &q, err)) ||
        (rc = moore_params_int(pp, "jd", -1, 0, 1 << 16, &jd, err)))
        return rc;
    const char *joiner = moore_params_str(pp, "joiner", "bdf");
    if (q < 0 || jd < 0)
        return moore_error_set(err, MOORE_EINVAL, "polarstar: q= and jd= are required "
                               "(e.g. polarstar:q=7,jd=4)");
    if (strcmp(joiner, "bdf") && strcmp(joiner, "paley"))
        return moore_error_set(err, MOORE_EINVAL, "polarstar: joiner=%s is neither bdf nor paley",
                               joiner);
    int paley = joiner[0] == 'p';
    if (!ps_classify(q, jd, paley, s)) {
        if (!moore_is_prime_power(q, NULL, NULL))
            return moore_error_set(err, MOORE_EINVAL, "polarstar: q=%lld is not a prime power "
                                   "(ER_q needs one)", (long long)q);
        if (paley)
            return moore_error_set(err, MOORE_EINVAL, "polarstar: jd=%lld: 2jd+1 = %lld is not a "
                                   "prime power = 1 mod 4 (the Paley joiner needs one)",
                                   (long long)jd, (long long)(2 * jd + 1));
        return moore_error_set(err, MOORE_EINVAL, "polarstar: jd=%lld is not >= 3 and = 0 or 3 "
                               "mod 4 (the bdf joiner needs one)", (long long)jd);
    }
    if (s->er_n * s->nj > MOORE_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL, "polarstar: %lld switches exceeds %d",
                               (long long)(s->er_n * s->nj), MOORE_MAX_SWITCHES);
    return moore_family_resolve_endpoints(pp, (int32_t)s->deg, (int32_t)s->deg, &s->p, err);
}

int fam_polarstar_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    ps_shape s;
    int rc = ps_read(pp, &s, err);
    if (rc)
        return rc;
    int64_t matched = s.paley ? (s.nj - 1) / 2 : s.nj / 2; /* matching per absolute point */
    c->switches = s.er_n * s.nj;
    c->links = s.er_n * s.nj * s.jd / 2 + s.er_links * s.nj + (s.q + 1) * matched;
    c->degree_max = (int32_t)s.deg;
    c->degree_min = (int32_t)(s.paley ? s.deg - 1 : s.deg);
    c->endpoints = c->switches * s.p;
    c->diameter = 3;
    c->multiplicity = 1;
    return MOORE_OK;
}

/* ---- the joiner: its links (u < v pairs) and φ ---- */

typedef struct ps_joiner {
    int32_t n, links, capacity;
    int32_t (*edge)[2];
    int32_t *phi;
    int32_t *mate; /* the matching used at absolute points (-1: unmatched) */
} ps_joiner;

static void ps_joiner_clear(ps_joiner *j)
{
    free(j->edge);
    free(j->phi);
    free(j->mate);
}

/* Records u–v; past the capacity only counts it (the count check refuses). */
static void ps_edge(ps_joiner *j, int32_t u, int32_t v)
{
    if (j->links == j->capacity) {
        j->links++;
        return;
    }
    j->edge[j->links][0] = u;
    j->edge[j->links++][1] = v;
}

/* The 3-regular base at ids n..n+7. */
static void ps_bdf_base(ps_joiner *j, int32_t n)
{
    static const int32_t E[12][2] = { { 0, 1 }, { 0, 2 }, { 0, 7 }, { 1, 4 }, { 1, 6 }, { 2, 3 },
                                      { 2, 4 }, { 3, 5 }, { 3, 6 }, { 4, 7 }, { 5, 6 }, { 5, 7 } };
    for (int e = 0; e < 12; e++)
        ps_edge(j, n + E[e][0], n + E[e][1]);
    for (int32_t x = 0; x < 4; x++) {
        j->phi[n + x] = n + x + 4;
        j->phi[n + x + 4] = n + x;
    }
}

static void ps_bdf(ps_joiner *j, int32_t jd)
{
    int32_t d = jd % 4 == 0 ? 4 : 3, n = 2 * d + 2;
    ps_bdf_base(j, 0);
    if (d == 4) {
        static const int32_t E[8][2] = { { 0, 8 }, { 1, 8 }, { 4, 8 }, { 5, 8 },
                                         { 2, 9 }, { 3, 9 }, { 6, 9 }, { 7, 9 } };
        for (int e = 0; e < 8; e++)
            ps_edge(j, E[e][0], E[e][1]);
        j->phi[8] = 9;
        j->phi[9] = 8;
    }
    /* A: ids whose φ is larger (0..3, 8, and each step's n..n+3). */
    for (; d < jd; d += 4, n += 8) {
        ps_bdf_base(j, n);
        for (int32_t v = 0; v < n; v++) {
            int in_a = j->phi[v] > v;
            for (int32_t x = in_a ? 0 : 2; x < (in_a ? 2 : 4); x++) {
                ps_edge(j, v, n + x);
                ps_edge(j, v, n + x + 4);
            }
        }
    }
    for (int32_t x = 0; x < j->n; x++)
        j->mate[x] = j->phi[x];
}

static void ps_paley(ps_joiner *j, const moore_gf *f, const char *square)
{
    int32_t r = f->q;
    for (int32_t x = 0; x < r; x++) {
        j->phi[x] = moore_gf_mul(f, f->primitive, x);
        j->mate[x] = -1;
        for (int32_t y = x + 1; y < r; y++)
            if (square[moore_gf_sub(f, y, x)])
                ps_edge(j, x, y);
    }
    int32_t o = square[moore_gf_sub(f, f->primitive, 1)] ? 1 : 0;
    for (int32_t e = o; e + 1 < o + r - 1; e += 2) {
        int32_t a = moore_gf_pow_primitive(f, e), b = moore_gf_pow_primitive(f, e + 1);
        j->mate[a] = b;
        j->mate[b] = a;
    }
}

static int ps_joiner_make(const ps_shape *s, ps_joiner *j, moore_error *err)
{
    moore_gf *f = NULL;
    char *square = NULL;
    memset(j, 0, sizeof *j);
    j->n = (int32_t)s->nj;
    j->capacity = (int32_t)(s->nj * s->jd / 2);
    j->edge = moore_malloc((size_t)(s->nj * s->jd / 2), sizeof *j->edge, err);
    j->phi = moore_malloc((size_t)s->nj, sizeof *j->phi, err);
    j->mate = moore_malloc((size_t)s->nj, sizeof *j->mate, err);
    int rc = j->edge && j->phi && j->mate ? MOORE_OK : core_alloc_code(err);
    if (!rc && s->paley) {
        rc = moore_gf_new((int32_t)s->nj, &f, err);
        if (!rc && !(square = moore_malloc((size_t)s->nj, 1, err)))
            rc = core_alloc_code(err);
        if (!rc)
            rc = fam_paley_squares(f, square);
        if (!rc)
            ps_paley(j, f, square);
    } else if (!rc) {
        ps_bdf(j, (int32_t)s->jd);
    }
    if (!rc && j->links != s->nj * s->jd / 2)
        rc = moore_error_set(err, MOORE_EINTERNAL, "polarstar: joiner has %d links, expected "
                             "%lld", (int)j->links, (long long)(s->nj * s->jd / 2));
    moore_gf_free(f);
    free(square);
    if (rc)
        ps_joiner_clear(j);
    return rc;
}

static void polarstar_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    int64_t nj = *(const int64_t *)ctx;
    snprintf(buf, len, "S%lld.%lld", (long long)(v / nj), (long long)(v % nj));
}

static int ps_links(const ps_shape *s, const moore_graph *er, const ps_joiner *j,
                    moore_builder *b, moore_error *err)
{
    int32_t nj = j->n;
    int rc = MOORE_OK;
    for (int32_t i = 0; !rc && i < er->n; i++) {
        int32_t base = i * nj;
        for (int32_t e = 0; !rc && e < j->links; e++)
            rc = moore_builder_add_link(b, base + j->edge[e][0], base + j->edge[e][1], err);
        for (int64_t e = er->offs[i]; !rc && e < er->offs[i + 1]; e++)
            for (int32_t x = 0; !rc && er->adj[e] > i && x < nj; x++)
                rc = moore_builder_add_link(b, base + x, er->adj[e] * nj + j->phi[x], err);
        int absolute = er->offs[i + 1] - er->offs[i] == s->q;
        for (int32_t x = 0; !rc && absolute && x < nj; x++)
            if (j->mate[x] > x)
                rc = moore_builder_add_link(b, base + x, base + j->mate[x], err);
    }
    return rc;
}

int fam_polarstar_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    ps_shape s;
    moore_counts c;
    moore_graph *er = NULL;
    moore_builder *b = NULL;
    ps_joiner j = { 0, 0, 0, NULL, NULL, NULL };
    *out = NULL;
    int rc = ps_read(pp, &s, err);
    if (!rc)
        rc = fam_polarstar_counts(pp, &c, err);
    if (!rc)
        rc = fam_guard(&c, "polarstar", err);
    moore_params base;
    fam_params_q(&base, "polarfly", s.q);
    if (!rc)
        rc = fam_polarfly_build(&base, &er, err);
    if (!rc)
        rc = ps_joiner_make(&s, &j, err);
    if (!rc)
        rc = moore_builder_new((int32_t)c.switches, c.links, &b, err);
    if (!rc)
        rc = ps_links(&s, er, &j, b, err);
    if (!rc)
        rc = fam_graph_finish(&b, s.p, polarstar_label, &s.nj, out, err);
    moore_builder_free(b);
    moore_graph_free(er);
    ps_joiner_clear(&j);
    return rc;
}

/* For every network degree D < radix, the largest admissible (q, jd,
 * joiner) with q + 1 + jd = D (ties: bdf), and with a target also the
 * smallest one of that degree reaching it; p = min(D, radix − D) (the
 * default p = D capped by the free ports). */
int fam_polarstar_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                         moore_error *err)
{
    int rc = MOORE_OK;
    for (int64_t D = 6; !rc && D < radix; D++) {
        ps_shape best = { 0 }, reach = { 0 }, s;
        int64_t nbest = 0, nreach = 0;
        for (int64_t q = 2; q + 3 < D; q++)
            for (int paley = 0; paley < 2; paley++) {
                if (!ps_classify(q, D - q - 1, paley, &s))
                    continue;
                int64_t n = s.er_n * s.nj;
                if (n > MOORE_PLAN_LIST_SWITCHES * 10)
                    continue;
                if (n > nbest)
                    best = s, nbest = n;
                if (endpoints > 0 && n * fam_plan_p(radix, D, D) >= endpoints &&
                    (!nreach || n < nreach))
                    reach = s, nreach = n;
            }
        const ps_shape *pick[2] = { nreach && nreach != nbest ? &reach : NULL,
                                    nbest && nbest <= MOORE_PLAN_LIST_SWITCHES ? &best : NULL };
        for (int k = 0; !rc && k < 2; k++)
            if (pick[k])
                rc = fam_emit(emit, ctx, err, "polarstar:q=%lld,jd=%lld,joiner=%s,"
                                       "p=%lld", (long long)pick[k]->q, (long long)pick[k]->jd,
                                       pick[k]->paley ? "paley" : "bdf",
                                       (long long)fam_plan_p(radix, D, D));
    }
    return rc;
}
