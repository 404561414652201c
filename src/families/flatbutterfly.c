/* flatbutterfly.c — the flattened butterfly (Kim, Dally & Abts, ISCA'07):
 * the k-ary n-fly butterfly with the n routers of each row merged into one.
 *
 * A k-ary n-fly has n stages of k^(n−1) routers; rows are (n−1)-digit base-k
 * words, and the links between stages s and s+1 join row r to every row that
 * differs from r only in digit s. Merging each row's routers turns those
 * links into dimension s of the flattened network (the links of a row to
 * itself vanish): in every dimension the k rows that agree on all other
 * digits form a full mesh. So k^(n−1) switches, network degree (n−1)(k−1),
 * diameter n−1, with k endpoints per switch as in the paper (the k
 * terminals of the first stage's router) and radix n(k−1)+1. The result is
 * HyperX with L = n−1, S = k (tests check the isomorphism). Switch ids are
 * the row words, digit 0 fastest; labels "r" and the digits. */
#include "families.h"

#include <stdio.h>

const moore_param_info fam_flatbutterfly_params[] = {
    { "n", "", "stages of the k-ary n-fly, >= 2 (n-1 dimensions, diameter n-1)" },
    { "k", "", "arity, >= 2 (k switches per dimension)" },
    { "p", "k", "endpoints per switch (k: the butterfly's terminals)" },
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

typedef struct fb_shape {
    int64_t n, k, rows;
    int32_t p;
} fb_shape;

static int fb_read(moore_params *pp, fb_shape *s, moore_error *err)
{
    int rc;
    if ((rc = moore_params_int(pp, "n", -1, 2, 64, &s->n, err)) ||
        (rc = moore_params_int(pp, "k", -1, 2, 1 << 20, &s->k, err)))
        return rc;
    if (s->n < 0 || s->k < 0)
        return moore_error_set(err, MOORE_EINVAL, "flatbutterfly: n= and k= are required");
    s->rows = 1;
    for (int64_t i = 1; i < s->n; i++) {
        if (s->rows > MOORE_MAX_SWITCHES / s->k)
            return moore_error_set(err, MOORE_EINVAL, "flatbutterfly: k^(n-1) = %lld^%lld "
                                   "exceeds %d switches", (long long)s->k,
                                   (long long)(s->n - 1), MOORE_MAX_SWITCHES);
        s->rows *= s->k;
    }
    int64_t deg = (s->n - 1) * (s->k - 1);
    if (deg > 1 << 24)
        return moore_error_set(err, MOORE_EINVAL, "flatbutterfly: degree (n-1)(k-1) = %lld is "
                               "too large", (long long)deg);
    return moore_family_resolve_endpoints(pp, (int32_t)deg, (int32_t)s->k, &s->p, err);
}

int fam_flatbutterfly_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    fb_shape s;
    int rc = fb_read(pp, &s, err);
    if (rc)
        return rc;
    c->switches = s.rows;
    c->degree_min = c->degree_max = (int32_t)((s.n - 1) * (s.k - 1));
    c->links = s.rows * c->degree_max / 2;
    c->endpoints = s.rows * s.p;
    c->diameter = (int32_t)(s.n - 1);
    c->multiplicity = 1;
    return MOORE_OK;
}

static void fb_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    const fb_shape *s = ctx;
    size_t used = 0;
    buf[0] = '\0';
    for (int64_t d = 0; d + 1 < s->n && used + 1 < len; d++) {
        int w = snprintf(buf + used, len - used, d ? ".%d" : "r%d", (int)(v % s->k));
        used += w > 0 ? (size_t)w : 0;
        v = (int32_t)(v / s->k);
    }
}

/* Dimension `stage`: every group of k rows that agree on all other digits
 * becomes a full mesh. A group is named by its row with digit `stage` = 0. */
static int fb_add_stage(moore_builder *b, const fb_shape *s, int64_t stage, moore_error *err)
{
    int64_t weight = 1;
    for (int64_t i = 0; i < stage; i++)
        weight *= s->k;
    int rc = MOORE_OK;
    for (int64_t group = 0; !rc && group < s->rows / s->k; group++) {
        int64_t low = group % weight, high = group / weight;
        int64_t base = high * weight * s->k + low;
        for (int64_t i = 0; !rc && i < s->k; i++)
            for (int64_t j = i + 1; !rc && j < s->k; j++)
                rc = moore_builder_add_link(b, (int32_t)(base + i * weight),
                                            (int32_t)(base + j * weight), err);
    }
    return rc;
}

int fam_flatbutterfly_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    fb_shape s;
    moore_counts c;
    int rc = fb_read(pp, &s, err);
    if (!rc)
        rc = fam_flatbutterfly_counts(pp, &c, err);
    if (rc)
        return rc;
    moore_builder *b = NULL;
    if ((rc = moore_builder_new((int32_t)s.rows, c.links, &b, err)))
        return rc;
    for (int64_t stage = 0; !rc && stage + 1 < s.n; stage++)
        rc = fb_add_stage(b, &s, stage, err);
    if (!rc)
        rc = fam_graph_finish(&b, s.p, fb_label, &s, out, err);
    moore_builder_free(b);
    return rc;
}

/* The paper's design point: p = k and radix n(k−1)+1, so every (n, k) whose
 * radix fits in R, up to the listing size; with a target, each n also adds
 * its smallest k reaching it. */
int fam_flatbutterfly_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                             moore_error *err)
{
    int rc = MOORE_OK;
    for (int64_t n = 2; !rc && n + 1 <= radix; n++) {
        int reached = 0;
        for (int64_t k = 2; !rc && n * (k - 1) + 1 <= radix; k++) {
            int64_t rows = 1;
            for (int64_t i = 1; i < n && rows >= 0; i++)
                rows = rows > MOORE_MAX_SWITCHES / 10 / k ? -1 : rows * k;
            if (rows < 0 || (rows > MOORE_PLAN_LIST_SWITCHES && (endpoints <= 0 || reached)))
                break;
            int reaches = endpoints > 0 && rows * k >= endpoints;
            if (rows > MOORE_PLAN_LIST_SWITCHES && !reaches)
                continue;
            reached |= reaches;
            rc = fam_emit(emit, ctx, err, "flatbutterfly:n=%lld,k=%lld", (long long)n,
                                   (long long)k);
        }
    }
    return rc;
}
