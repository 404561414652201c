/* torus.c — the k-ary n-cube and its mixed-radix cousins: dims=A×B×…, each
 * dimension a ring with wrap-around links (Blue Gene, Cray Gemini, Tofu).
 *
 * A dimension of size 2 is a single link (its two ring links would join the
 * same pair of switches, and the graph is simple), so a switch has 2 links per
 * dimension, 1 per dimension of size 2; sizes 0 and 1 are refused. The
 * diameter is Σ ⌊A_i/2⌋. Switch ids are mixed-radix words, first dimension
 * fastest. */
#include "families.h"
#include "moore/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TORUS_MAX_DIMS 16

const moore_param_info moore_torus_params[] = {
    { "dims", "", "ring sizes, e.g. 8x8x8 (each >= 2)" },
    MOORE_PARAM_P("1"),
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

typedef struct torus_shape {
    int nd;
    int64_t dim[TORUS_MAX_DIMS];
    int64_t n;
    int32_t degree, p;
} torus_shape;

static int torus_shape_read(const moore_params *pp, torus_shape *s, moore_error *err)
{
    const char *dims = moore_params_str(pp, "dims", NULL);
    if (!dims)
        return moore_error_set(err, MOORE_EINVAL, "torus: dims= is required (e.g. dims=8x8x8)");
    memset(s, 0, sizeof *s);
    s->n = 1;
    for (const char *c = dims;;) {
        size_t len = *c == '-' ? 0 : moore_parse_int_prefix(c); /* the integer rule */
        const char *end = c + len;
        if (len == 0 || (*end != 'x' && *end != '\0'))
            return moore_error_set(err, MOORE_EINVAL, "torus: dims=%s is not a list of sizes "
                                   "such as 8x8x8", dims);
        /* more than 10 digits is over the limit and might overflow strtoll */
        long long v = len > 10 ? MOORE_MAX_SWITCHES + 1LL : strtoll(c, NULL, 10);
        if (s->nd == TORUS_MAX_DIMS)
            return moore_error_set(err, MOORE_EINVAL, "torus: dims=%s has more than %d "
                                   "dimensions", dims, TORUS_MAX_DIMS);
        if (v < 2)
            return moore_error_set(err, MOORE_EINVAL, "torus: dimension %d of dims=%s is %lld; "
                                   "every dimension needs at least 2 switches", s->nd + 1, dims,
                                   v);
        if (v > MOORE_MAX_SWITCHES || s->n * v > MOORE_MAX_SWITCHES)
            return moore_error_set(err, MOORE_EINVAL, "torus: dims=%s has more than %d "
                                   "switches", dims, MOORE_MAX_SWITCHES);
        s->dim[s->nd++] = v;
        s->n *= v;
        s->degree += v == 2 ? 1 : 2;
        if (*end == '\0')
            break;
        c = end + 1;
    }
    return moore_family_resolve_endpoints(pp, s->degree, 1, &s->p, err);
}

int moore_torus_counts(const moore_params *pp, moore_counts *c, moore_error *err)
{
    torus_shape s;
    int rc = torus_shape_read(pp, &s, err);
    if (rc)
        return rc;
    c->switches = s.n;
    c->links = s.n * s.degree / 2;
    c->degree_min = c->degree_max = s.degree;
    c->endpoints = s.n * s.p;
    c->diameter = 0;
    for (int i = 0; i < s.nd; i++)
        c->diameter += (int32_t)(s.dim[i] / 2);
    c->multiplicity = 1;
    return MOORE_OK;
}

static void torus_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    const torus_shape *s = ctx;
    size_t used = 0;
    for (int i = 0; i < s->nd && used + 1 < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%lld", i ? "." : "",
                         (long long)(v % s->dim[i]));
        used += w > 0 ? (size_t)w : 0;
        v = (int32_t)(v / s->dim[i]);
    }
}

int moore_torus_build(const moore_params *pp, moore_graph **out, moore_error *err)
{
    torus_shape s;
    int rc = torus_shape_read(pp, &s, err);
    if (rc)
        return rc;
    moore_builder *b;
    if ((rc = moore_builder_new((int32_t)s.n, s.n * s.degree / 2, &b, err)))
        return rc;
    /* Each switch adds its "+1" link in every dimension; in a dimension of
     * size 2 only coordinate 0 does, so the single link appears once. */
    for (int64_t v = 0; !rc && v < s.n; v++)
        for (int64_t i = 0, w = 1; !rc && i < s.nd; w *= s.dim[i], i++) {
            int64_t x = v / w % s.dim[i];
            if (s.dim[i] == 2 && x == 1)
                continue;
            int64_t u = v + ((x + 1) % s.dim[i] - x) * w;
            rc = moore_builder_add_link(b, (int32_t)v, (int32_t)u, err);
        }
    if (rc) {
        moore_builder_free(b);
        return rc;
    }
    return moore_family_finish(b, s.p, torus_label, &s, out, err);
}

/* 3-D tori with p = min(degree, R − degree) endpoints per switch: the free
 * ports, but never more endpoint ports than network ports (a torus is a
 * low-radix network; its size, not its concentration, should grow). Listed:
 * the cubes k×k×k for k = 2 … 32; with a target also the smallest near-cube
 * (k+1)^i × k^(3−i) reaching it. Other shapes via dims= directly. */
static int torus_emit(int32_t radix, const int64_t d[3], int64_t endpoints, int *done,
                      moore_plan_emit emit, void *ctx, moore_error *err)
{
    int32_t deg = 0;
    for (int i = 0; i < 3; i++)
        deg += d[i] == 2 ? 1 : 2;
    int32_t p = radix - deg < deg ? radix - deg : deg;
    *done = 0;
    if (p < 1 || d[0] * d[1] * d[2] * p < endpoints)
        return MOORE_OK;
    *done = 1;
    if (!emit) /* only asked whether it reaches */
        return MOORE_OK;
    return moore_family_emit(emit, ctx, err, "torus:dims=%lldx%lldx%lld,p=%d", (long long)d[0],
                             (long long)d[1], (long long)d[2], (int)p);
}

int moore_torus_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                     moore_error *err)
{
    int rc = MOORE_OK, done;
    for (int64_t k = 2; !rc && k <= 32; k++)
        rc = torus_emit(radix, (int64_t[3]){ k, k, k }, 0, &done, emit, ctx, err);
    if (rc || endpoints <= 0)
        return rc;
    for (int64_t k = 2; k * k * k <= MOORE_MAX_SWITCHES / 10; k++)
        for (int i = 0; i < 3; i++) {
            int64_t d[3] = { i > 0 ? k + 1 : k, i > 1 ? k + 1 : k, k };
            if (i == 0 && k <= 32) { /* a cube already listed: stop if it reaches */
                if (torus_emit(radix, d, endpoints, &done, NULL, NULL, err), done)
                    return MOORE_OK;
                continue;
            }
            if ((rc = torus_emit(radix, d, endpoints, &done, emit, ctx, err)) || done)
                return rc;
        }
    return MOORE_OK;
}
