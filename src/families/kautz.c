/* kautz.c — the undirected Kautz graph K(b, n) (Kautz 1968; the SiCortex
 * interconnect): switches are the words s_0…s_{n−1} over b+1 symbols in which
 * no two consecutive symbols are equal, (b+1)·b^(n−1) of them; the Kautz
 * digraph has an arc from s_0…s_{n−1} to every s_1…s_{n−1}a (a ≠ s_{n−1}),
 * and the switch graph links the ends of every arc. Diameter n.
 *
 * The graph is kept simple: the (b+1)·b/2 pairs of alternating words
 * xyxy… ↔ yxyx…, joined by arcs both ways, get one link (not a double
 * one), so those (b+1)·b switches have network degree 2b−1 and all others
 * 2b; links (b+1)·b^n − (b+1)·b/2. For n = 1 every pair is such a pair: K(b,1)
 * is the complete graph K_{b+1}. No arc is a loop (consecutive symbols
 * differ). One node per switch (p = 1).
 *
 * Switch id: s_0 + (b+1)·(d_1 + b·d_2 + …), where d_i = (s_i − s_{i−1} − 1)
 * mod (b+1) ∈ [0, b). Labels are the words. */
#include "families.h"

#include <stdio.h>

#define KAUTZ_MAX_N 40

const moore_param_info fam_kautz_params[] = {
    { "b", "", "out-degree of the Kautz digraph, >= 2 (b+1 symbols)" },
    { "n", "", "word length = diameter, >= 1 ((b+1)*b^(n-1) switches)" },
    MOORE_PARAM_P("1"),
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

typedef struct kautz_shape {
    int64_t b, n, switches;
    int32_t p;
} kautz_shape;

static int kautz_read(moore_params *pp, kautz_shape *s, moore_error *err)
{
    int rc;
    if ((rc = moore_params_int(pp, "b", -1, 2, 1 << 20, &s->b, err)) ||
        (rc = moore_params_int(pp, "n", -1, 1, KAUTZ_MAX_N, &s->n, err)))
        return rc;
    if (s->b < 0 || s->n < 0)
        return moore_error_set(err, MOORE_EINVAL, "kautz: b= and n= are required");
    s->switches = s->b + 1;
    for (int64_t i = 1; i < s->n; i++) {
        if (s->switches > MOORE_MAX_SWITCHES / s->b)
            return moore_error_set(err, MOORE_EINVAL, "kautz: (b+1)*b^(n-1) with b=%lld, n=%lld "
                                   "exceeds %d switches", (long long)s->b, (long long)s->n,
                                   MOORE_MAX_SWITCHES);
        s->switches *= s->b;
    }
    return moore_family_resolve_endpoints(pp, (int32_t)(s->n == 1 ? s->b : 2 * s->b), 1, &s->p,
                                          err);
}

int fam_kautz_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    kautz_shape s;
    int rc = kautz_read(pp, &s, err);
    if (rc)
        return rc;
    int64_t pairs = (s.b + 1) * s.b / 2; /* alternating pairs: one link each */
    c->switches = s.switches;
    c->links = s.switches * s.b - pairs;
    c->degree_min = (int32_t)(s.n == 1 ? s.b : 2 * s.b - 1);
    c->degree_max = (int32_t)(s.n == 1 ? s.b : s.n == 2 ? 2 * s.b - 1 : 2 * s.b);
    c->endpoints = s.switches * s.p;
    c->diameter = (int32_t)s.n;
    c->multiplicity = 1;
    return MOORE_OK;
}

static void kautz_decode(const kautz_shape *s, int64_t v, int64_t *word)
{
    word[0] = v % (s->b + 1);
    v /= s->b + 1;
    for (int64_t i = 1; i < s->n; i++, v /= s->b)
        word[i] = (word[i - 1] + 1 + v % s->b) % (s->b + 1);
}

static int64_t kautz_encode(const kautz_shape *s, const int64_t *word)
{
    int64_t v = 0;
    for (int64_t i = s->n - 1; i >= 1; i--)
        v = v * s->b + (word[i] - word[i - 1] - 1 + 2 * (s->b + 1)) % (s->b + 1);
    return v * (s->b + 1) + word[0];
}

static void kautz_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    const kautz_shape *s = ctx;
    int64_t word[KAUTZ_MAX_N];
    kautz_decode(s, v, word);
    size_t used = 0;
    buf[0] = '\0';
    for (int64_t i = 0; i < s->n && used + 1 < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%lld", i ? "." : "", (long long)word[i]);
        used += w > 0 ? (size_t)w : 0;
    }
}

/* 1 when the arc u → v has the reverse arc v → u: u alternates (period 2)
 * and v = shift(u) alternates too; for n = 1 always. */
static int kautz_two_way(const kautz_shape *s, const int64_t *u, int64_t a)
{
    if (s->n == 1)
        return 1;
    for (int64_t i = 2; i < s->n; i++)
        if (u[i] != u[i - 2])
            return 0;
    return a == u[s->n - 2];
}

int fam_kautz_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    kautz_shape s;
    moore_counts c;
    int rc = kautz_read(pp, &s, err);
    if (!rc)
        rc = fam_kautz_counts(pp, &c, err);
    if (rc)
        return rc;
    moore_builder *b = NULL;
    if ((rc = moore_builder_new((int32_t)s.switches, c.links, &b, err)))
        return rc;
    int64_t u[KAUTZ_MAX_N], v[KAUTZ_MAX_N];
    for (int64_t x = 0; !rc && x < s.switches; x++) {
        kautz_decode(&s, x, u);
        for (int64_t i = 1; i < s.n; i++)
            v[i - 1] = u[i];
        for (int64_t a = 0; !rc && a <= s.b; a++) {
            if (a == u[s.n - 1])
                continue;
            v[s.n - 1] = a;
            int64_t y = kautz_encode(&s, v);
            if (kautz_two_way(&s, u, a) && y < x)
                continue; /* the pair's one link comes from the smaller id */
            rc = moore_builder_add_link(b, (int32_t)x, (int32_t)y, err);
        }
    }
    if (!rc)
        rc = fam_graph_finish(&b, s.p, kautz_label, &s, out, err);
    moore_builder_free(b);
    return rc;
}

/* Network degree 2b: for b = 2 … while 2b < R, every n ≥ 2 up to the listing
 * size, p = min(2b, R − 2b) (never more endpoint ports than network ports);
 * with a target, each b also adds its smallest n reaching it. */
int fam_kautz_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                     moore_error *err)
{
    int rc = MOORE_OK;
    for (int64_t b = 2; !rc && 2 * b < radix; b++) {
        int64_t p = radix - 2 * b < 2 * b ? radix - 2 * b : 2 * b;
        for (int64_t n = 2, size = (b + 1) * b; !rc && n <= KAUTZ_MAX_N; n++, size *= b) {
            int reaches = endpoints > 0 && size * p >= endpoints;
            if (size > MOORE_MAX_SWITCHES / 10 ||
                (size > MOORE_PLAN_LIST_SWITCHES && endpoints <= 0))
                break;
            if (size <= MOORE_PLAN_LIST_SWITCHES || reaches)
                rc = fam_emit(emit, ctx, err, "kautz:b=%lld,n=%lld,p=%lld",
                                       (long long)b, (long long)n, (long long)p);
            if ((size > MOORE_PLAN_LIST_SWITCHES && reaches) || size > MOORE_MAX_SWITCHES / b)
                break;
        }
    }
    return rc;
}
