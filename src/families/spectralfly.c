/* spectralfly.c — Spectralfly (Young, Aksoy, Firoz, Gioiosa, Hagge, Kempton,
 * Escobedo & Raugas, IPDPS'22): the Lubotzky–Phillips–Sarnak Ramanujan graph X^{s,q}.
 *
 * s is a prime ≡ 1 (mod 4), q an odd prime, s ≠ q. The s+1 generators are
 * the integer quaternions a0 + a1·i + a2·j + a3·k of norm s with a0 > 0 odd
 * and a1, a2, a3 even (Jacobi: exactly s+1 of them), each mapped to the matrix
 *     [ a0 + x·a1 + y·a3    −y·a1 + a2 + x·a3 ]
 *     [ −y·a1 − a2 + x·a3   a0 − x·a1 − y·a3  ]   (mod q),   x² + y² ≡ −1 (mod q),
 * of PGL(2,q) (this is a ring map of the quaternions mod q, and its
 * determinant is the norm). When q ≡ 1 (mod 4), x = ι with ι² ≡ −1 and y = 0,
 * the form LPS write; for q ≡ 3 (mod 4) −1 is no square, and the smallest x
 * with −1 − x² a square gives y (every odd q has one: the squares and the
 * values −1 − x² are two sets of (q+1)/2 residues, so they meet). The graph is the Cayley graph of the group these generate,
 * M ~ M·g: PSL(2,q), q(q²−1)/2 switches, when s is a square mod q, and all of
 * PGL(2,q), q(q²−1) switches (bipartite), when it is not. The generator set
 * is closed under inverses (the conjugate quaternion is s times the inverse),
 * so the graph is undirected and (s+1)-regular, and every eigenvalue other
 * than ±(s+1) has |λ| ≤ 2√s (LPS 1988).
 *
 * A matrix class is stored scaled so that its first nonzero entry in
 * (a, b, c, d) order is 1; switches are numbered in BFS order from the
 * identity, generators in increasing (a0, a1, a2, a3) order. */
#include "core/alloc.h"
#include "families.h"
#include "moore/field.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const moore_param_info fam_spectralfly_params[] = {
    { "s", "", "prime = 1 mod 4: network degree s+1" },
    { "q", "", "odd prime, q != s: q(q^2-1)/2 switches when s is a square mod q (PSL), "
      "else q(q^2-1) (PGL)" },
    { "p", "s-1", "endpoints per switch" },
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

#define SPF_Q_MAX 1021

typedef struct spf_shape {
    int64_t s, q, n;
    int psl;      /* 1: s is a square mod q (PSL, non-bipartite) */
    int32_t p;
} spf_shape;

static int64_t spf_powmod(int64_t b, int64_t e, int64_t m)
{
    int64_t r = 1;
    b %= m;
    for (; e; e >>= 1, b = b * b % m)
        if (e & 1)
            r = r * b % m;
    return r;
}

static int spf_prime_1mod4(int64_t x) { return x % 4 == 1 && moore_is_prime(x); }

/* Classifies (s, q) without messages: 1 when both are admissible. */
static int spf_classify(int64_t s, int64_t q, spf_shape *sh)
{
    if (!spf_prime_1mod4(s) || q < 3 || q % 2 == 0 || !moore_is_prime(q) || s == q)
        return 0;
    sh->s = s;
    sh->q = q;
    sh->psl = spf_powmod(s, (q - 1) / 2, q) == 1;
    sh->n = q * (q * q - 1) / (sh->psl ? 2 : 1);
    return 1;
}

typedef struct spf_mat spf_mat;
static int spf_check_generators(const spf_shape *sh, moore_error *err);

static int spf_read(moore_params *pp, spf_shape *sh, moore_error *err)
{
    int64_t s, q;
    int rc;
    if ((rc = moore_params_int(pp, "s", -1, 0, SPF_Q_MAX, &s, err)) ||
        (rc = moore_params_int(pp, "q", -1, 0, SPF_Q_MAX, &q, err)))
        return rc;
    if (s < 0 || q < 0)
        return moore_error_set(err, MOORE_EINVAL, "spectralfly: s= and q= are required "
                               "(s a prime = 1 mod 4, q another odd prime, e.g. "
                               "spectralfly:s=5,q=13)");
    if (!spf_prime_1mod4(s))
        return moore_error_set(err, MOORE_EINVAL, "spectralfly: s=%lld is not a prime = 1 mod 4 "
                               "(the LPS generators need s = 1 mod 4)", (long long)s);
    if (q < 3 || q % 2 == 0 || !moore_is_prime(q))
        return moore_error_set(err, MOORE_EINVAL, "spectralfly: q=%lld is not an odd prime "
                               "(LPS graphs need an odd prime q)", (long long)q);
    if (s == q)
        return moore_error_set(err, MOORE_EINVAL, "spectralfly: s=q=%lld (s and q must be "
                               "distinct primes)", (long long)s);
    /* 4q² > 4s keeps the s+1 generators distinct and non-trivial mod q
     * (two of them agree mod q only if q divides all of a difference whose
     * entries are below 2√s in size). */
    if (q * q <= 4 * s)
        return moore_error_set(err, MOORE_EINVAL, "spectralfly: q=%lld <= 2*sqrt(s=%lld) "
                               "(the s+1 generators must be distinct mod q: need q > 2*sqrt(s))",
                               (long long)q, (long long)s);
    spf_classify(s, q, sh);
    if (sh->n > MOORE_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL, "spectralfly: q=%lld gives %lld switches, "
                               "more than %d", (long long)q, (long long)sh->n,
                               MOORE_MAX_SWITCHES);
    if ((rc = spf_check_generators(sh, err)))
        return rc;
    return moore_family_resolve_endpoints(pp, (int32_t)(s + 1), (int32_t)(s - 1), &sh->p, err);
}

int fam_spectralfly_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    spf_shape sh;
    int rc = spf_read(pp, &sh, err);
    if (rc)
        return rc;
    c->switches = sh.n;
    c->links = sh.n * (sh.s + 1) / 2;
    c->degree_min = c->degree_max = (int32_t)(sh.s + 1);
    c->endpoints = sh.n * sh.p;
    c->diameter = -1; /* no closed form (LPS give only a 2·log_s bound) */
    c->multiplicity = 1;
    return MOORE_OK;
}

/* A 2×2 matrix mod q, entries a, b, c, d. */
struct spf_mat {
    int64_t e[4];
};

/* Scales m so its first nonzero entry is 1 and returns its index among the
 * q³+q²+q+1 projective classes of nonzero 4-vectors. */
static int64_t spf_normalise(spf_mat *m, int64_t q)
{
    int k = 0;
    while (k < 4 && m->e[k] == 0)
        k++;
    int64_t inv = spf_powmod(m->e[k], q - 2, q), idx = 0, base = 0, size = q * q * q;
    for (int i = 0; i < 4; i++)
        m->e[i] = m->e[i] * inv % q;
    for (int i = 0; i < k; i++) {
        base += size;
        size /= q;
    }
    for (int i = k + 1; i < 4; i++)
        idx = idx * q + m->e[i];
    return base + idx;
}

static spf_mat spf_mul(const spf_mat *x, const spf_mat *y, int64_t q)
{
    spf_mat r = { { (x->e[0] * y->e[0] + x->e[1] * y->e[2]) % q,
                    (x->e[0] * y->e[1] + x->e[1] * y->e[3]) % q,
                    (x->e[2] * y->e[0] + x->e[3] * y->e[2]) % q,
                    (x->e[2] * y->e[1] + x->e[3] * y->e[3]) % q } };
    return r;
}

/* The s+1 generator matrices; fails (internal) if Jacobi's count is off. */
static int spf_generators(const spf_shape *sh, spf_mat *gen, moore_error *err)
{
    int64_t s = sh->s, q = sh->q, x = 0, y = 0, count = 0;
    /* x² + y² ≡ −1: the smallest x with −1 − x² a square (0 included) */
    for (x = 0; x < q; x++) {
        int64_t t = ((-1 - x * x) % q + q) % q;
        if (t == 0 || spf_powmod(t, (q - 1) / 2, q) == 1) {
            for (y = 0; y * y % q != t; y++)
                ;
            break;
        }
    }
    if (q % 4 == 1) /* LPS's own form: x = ι, y = 0 */
        for (x = 1, y = 0; x * x % q != q - 1; x++)
            ;
    int64_t r = (int64_t)floor(sqrt((double)s)) + 1;
    for (int64_t a0 = 1; a0 <= r; a0 += 2)
        for (int64_t a1 = -r - (r % 2); a1 <= r; a1 += 2)
            for (int64_t a2 = -r - (r % 2); a2 <= r; a2 += 2)
                for (int64_t a3 = -r - (r % 2); a3 <= r; a3 += 2) {
                    if (a0 * a0 + a1 * a1 + a2 * a2 + a3 * a3 != s)
                        continue;
                    if (count == s + 1)
                        return moore_error_set(err, MOORE_EINTERNAL, "spectralfly: more than "
                                               "s+1 quaternions of norm s=%lld", (long long)s);
#define SPF_M(x) ((((x) % q) + q) % q)
                    gen[count++] = (spf_mat){ { SPF_M(a0 + x * a1 + y * a3),
                                                SPF_M(-y * a1 + a2 + x * a3),
                                                SPF_M(-y * a1 - a2 + x * a3),
                                                SPF_M(a0 - x * a1 - y * a3) } };
#undef SPF_M
                }
    if (count != s + 1)
        return moore_error_set(err, MOORE_EINTERNAL, "spectralfly: %lld quaternions of norm "
                               "s=%lld, expected s+1", (long long)count, (long long)s);
    return MOORE_OK;
}

/* Refuses (s, q) whose generators are not s+1 distinct non-identity classes
 * of PGL(2,q): the Cayley graph would have loops or repeated links. */
static int spf_check_generators(const spf_shape *sh, moore_error *err)
{
    int64_t deg = sh->s + 1;
    spf_mat *gen = moore_malloc((size_t)deg, sizeof *gen, err);
    if (!gen)
        return core_alloc_code(err);
    int rc = spf_generators(sh, gen, err);
    for (int64_t i = 0; !rc && i < deg; i++) {
        spf_mat a = gen[i], one = { { 1, 0, 0, 1 } };
        int64_t ia = spf_normalise(&a, sh->q), clash = ia == spf_normalise(&one, sh->q);
        for (int64_t j = i + 1; !clash && j < deg; j++) {
            spf_mat bm = gen[j];
            clash = spf_normalise(&bm, sh->q) == ia;
        }
        if (clash)
            rc = moore_error_set(err, MOORE_EINVAL, "spectralfly: s=%lld, q=%lld: the s+1 "
                                 "generators are not distinct non-identity classes mod q "
                                 "(take a larger q)", (long long)sh->s, (long long)sh->q);
    }
    free(gen);
    return rc;
}

static void spectralfly_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    const spf_mat *mats = ctx;
    snprintf(buf, len, "[%lld,%lld;%lld,%lld]", (long long)mats[v].e[0],
             (long long)mats[v].e[1], (long long)mats[v].e[2], (long long)mats[v].e[3]);
}

/* BFS from the identity over the classes reached by right multiplication;
 * each link is added from its smaller (earlier) end. */
static int spf_links(const spf_shape *sh, const spf_mat *gen, int32_t *id, spf_mat *mats,
                     moore_builder *b, moore_error *err)
{
    int64_t q = sh->q, deg = sh->s + 1, found = 1;
    mats[0] = (spf_mat){ { 1, 0, 0, 1 } };
    id[spf_normalise(&mats[0], q)] = 0;
    for (int64_t head = 0; head < found; head++)
        for (int64_t k = 0; k < deg; k++) {
            spf_mat m = spf_mul(&mats[head], &gen[k], q);
            int64_t idx = spf_normalise(&m, q);
            if (id[idx] < 0) {
                if (found == sh->n)
                    return moore_error_set(err, MOORE_EINTERNAL, "spectralfly: more than %lld "
                                           "group elements", (long long)sh->n);
                id[idx] = (int32_t)found;
                mats[found++] = m;
            }
            if (id[idx] > head) {
                int rc = moore_builder_add_link(b, (int32_t)head, id[idx], err);
                if (rc)
                    return rc;
            }
        }
    if (found != sh->n)
        return moore_error_set(err, MOORE_EINTERNAL, "spectralfly: generators reach %lld "
                               "elements, expected %lld", (long long)found, (long long)sh->n);
    return MOORE_OK;
}

int fam_spectralfly_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    spf_shape sh;
    *out = NULL;
    int rc = spf_read(pp, &sh, err);
    if (rc)
        return rc;
    int64_t q = sh.q, classes = q * q * q + q * q + q + 1;
    char what[64];
    snprintf(what, sizeof what, "spectralfly:s=%lld,q=%lld", (long long)sh.s, (long long)q);
    if ((rc = moore_memory_guard(4.0 * classes + 32.0 * sh.n + 24.0 * sh.n * (sh.s + 1), what,
                                 err)))
        return rc;
    spf_mat *gen = moore_malloc((size_t)(sh.s + 1), sizeof *gen, err);
    spf_mat *mats = moore_malloc((size_t)sh.n, sizeof *mats, err);
    int32_t *id = moore_malloc((size_t)classes, sizeof *id, err);
    moore_builder *b = NULL;
    rc = gen && mats && id ? MOORE_OK : core_alloc_code(err);
    for (int64_t i = 0; !rc && i < classes; i++)
        id[i] = -1;
    if (!rc)
        rc = spf_generators(&sh, gen, err);
    if (!rc)
        rc = moore_builder_new((int32_t)sh.n, sh.n * (sh.s + 1) / 2, &b, err);
    if (!rc)
        rc = spf_links(&sh, gen, id, mats, b, err);
    if (!rc)
        rc = fam_graph_finish(&b, sh.p, spectralfly_label, mats, out, err);
    moore_builder_free(b);
    free(gen);
    free(mats);
    free(id);
    return rc;
}

/* Every admissible (s, q) with s+1 < radix, s ascending then q ascending,
 * with the default p = s − 1 capped by the free ports; for each s the q list is cut
 * at the listing size, or past it at the first q reaching the target. */
int fam_spectralfly_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                           moore_error *err)
{
    for (int64_t s = 5; s + 1 < radix; s++) {
        int reached = 0;
        for (int64_t q = 3; q <= SPF_Q_MAX; q++) {
            spf_shape sh;
            moore_error quiet;
            if (q * q <= 4 * s || !spf_classify(s, q, &sh) || spf_check_generators(&sh, &quiet))
                continue;
            if (sh.n > MOORE_MAX_SWITCHES ||
                (sh.n > MOORE_PLAN_LIST_SWITCHES && (endpoints <= 0 || reached)))
                break;
            int64_t p = fam_plan_p(radix, s + 1, s - 1);
            int rc = fam_emit(emit, ctx, err, "spectralfly:s=%lld,q=%lld,p=%lld",
                                       (long long)s, (long long)q, (long long)p);
            if (rc)
                return rc;
            reached |= endpoints > 0 && sh.n * p >= endpoints;
        }
    }
    return MOORE_OK;
}
