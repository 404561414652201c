/* xgft.c — the extended generalized fat-tree XGFT(h; m_1…m_h; w_1…w_h)
 * (Öhring, Ibel, Das & Kumar, IPPS'95), which covers the k-ary n-trees, the
 * folded Clos networks and the slimmed fat-trees in one rule.
 *
 * Levels 0 … h. A switch of level i is a word of h digits: digit j (1-based)
 * is b_j ∈ [0, w_j) for j ≤ i and a_j ∈ [0, m_j) for j > i, so level i has
 * N_i = w_1⋯w_i · m_{i+1}⋯m_h switches. A level-i switch and a level-(i+1)
 * switch are linked iff their words agree in every digit except digit i+1:
 * every level-i switch has w_{i+1} parents and every level-(i+1) switch m_{i+1}
 * children. As in spcl/EvalNet, level 0 holds switches (not processors), each
 * with p endpoints, default p = w_1 (as many endpoints as up links). Links
 * Σ N_i·w_{i+1}; diameter 2h (two leaves that differ in a_h meet only at the
 * top). Every m_i ≥ 2, every w_i ≥ 1. Switch ids: level by level from 0,
 * within a level digit 1 fastest; labels "L<i>.<digits>". */
#include "families.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XGFT_MAX_H 16

const moore_param_info fam_xgft_params[] = {
    { "h", "", "height: levels 0..h of switches, 1..16" },
    { "m", "", "children per switch of levels 1..h, joined by '.' (each >= 2)" },
    { "w", "", "parents per switch of levels 0..h-1, joined by '.' (each >= 1)" },
    { "p", "w1", "endpoints per level-0 switch (w1: as many as up links)" },
    { NULL, NULL, NULL }
};

typedef struct xgft_shape {
    int64_t h, m[XGFT_MAX_H + 1], w[XGFT_MAX_H + 1]; /* 1-based */
    int64_t level_size[XGFT_MAX_H + 1], level_start[XGFT_MAX_H + 2];
    int64_t p;
} xgft_shape;

/* "4.4.2" into list[1..h]; every entry at least lo. */
static int xgft_list(moore_params *pp, const char *key, int64_t h, int64_t lo,
                     int64_t *list, moore_error *err)
{
    const char *text = moore_params_str(pp, key, NULL);
    if (!text)
        return moore_error_set(err, MOORE_EINVAL, "xgft: %s= is required (h numbers joined "
                               "by '.', e.g. %s=4.4)", key, key);
    int64_t count = 0;
    for (const char *c = text;;) {
        char *end;
        if (*c < '0' || *c > '9')
            return moore_error_set(err, MOORE_EINVAL, "xgft: %s=%s is not a list of numbers "
                                   "joined by '.'", key, text);
        long long v = strtoll(c, &end, 10);
        if (*end != '.' && *end != '\0')
            return moore_error_set(err, MOORE_EINVAL, "xgft: %s=%s is not a list of numbers "
                                   "joined by '.'", key, text);
        if (++count > h)
            break;
        if (v < lo || v > 1 << 20)
            return moore_error_set(err, MOORE_EINVAL, "xgft: entry %lld of %s=%s is %lld; each "
                                   "must be in [%lld, %d]", (long long)count, key, text, v,
                                   (long long)lo, 1 << 20);
        list[count] = v;
        if (*end == '\0')
            break;
        c = end + 1;
    }
    if (count != h)
        return moore_error_set(err, MOORE_EINVAL, "xgft: %s=%s has %s than h=%lld entries", key,
                               text, count > h ? "more" : "fewer", (long long)h);
    return MOORE_OK;
}

static int xgft_read(moore_params *pp, xgft_shape *s, moore_error *err)
{
    memset(s, 0, sizeof *s);
    int rc = moore_params_int(pp, "h", -1, 1, XGFT_MAX_H, &s->h, err);
    if (rc)
        return rc;
    if (s->h < 0)
        return moore_error_set(err, MOORE_EINVAL, "xgft: h= is required (the height)");
    if ((rc = xgft_list(pp, "m", s->h, 2, s->m, err)) ||
        (rc = xgft_list(pp, "w", s->h, 1, s->w, err)))
        return rc;
    int64_t total = 0;
    for (int64_t i = 0; i <= s->h; i++) {
        int64_t size = 1;
        for (int64_t j = 1; j <= s->h; j++) {
            int64_t r = j <= i ? s->w[j] : s->m[j];
            if (size > MOORE_MAX_SWITCHES / r)
                return moore_error_set(err, MOORE_EINVAL, "xgft: level %lld alone exceeds %d "
                                       "switches", (long long)i, MOORE_MAX_SWITCHES);
            size *= r;
        }
        s->level_start[i] = total;
        s->level_size[i] = size;
        total += size;
        if (total > MOORE_MAX_SWITCHES)
            return moore_error_set(err, MOORE_EINVAL, "xgft: the levels together exceed %d "
                                   "switches", MOORE_MAX_SWITCHES);
    }
    s->level_start[s->h + 1] = total;
    return moore_params_int(pp, "p", s->w[1], 0, 1 << 20, &s->p, err);
}

int fam_xgft_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    xgft_shape s;
    int rc = xgft_read(pp, &s, err);
    if (rc)
        return rc;
    c->switches = s.level_start[s.h + 1];
    c->links = 0;
    c->degree_min = INT32_MAX;
    c->degree_max = 0;
    for (int64_t i = 0; i <= s.h; i++) {
        int64_t deg = (i > 0 ? s.m[i] : 0) + (i < s.h ? s.w[i + 1] : 0);
        if (i < s.h)
            c->links += s.level_size[i] * s.w[i + 1];
        c->degree_min = deg < c->degree_min ? (int32_t)deg : c->degree_min;
        c->degree_max = deg > c->degree_max ? (int32_t)deg : c->degree_max;
    }
    c->endpoints = s.level_size[0] * s.p;
    c->diameter = (int32_t)(2 * s.h);
    c->multiplicity = 1;
    return MOORE_OK;
}

/* The radix of digit j (1-based) at level i. */
static int64_t xgft_radix(const xgft_shape *s, int64_t i, int64_t j)
{
    return j <= i ? s->w[j] : s->m[j];
}

static void xgft_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    const xgft_shape *s = ctx;
    int64_t i = 0;
    while (v >= s->level_start[i + 1])
        i++;
    int64_t x = v - s->level_start[i];
    int used = snprintf(buf, len, "L%lld", (long long)i);
    for (int64_t j = 1; j <= s->h && used > 0 && (size_t)used + 1 < len; j++) {
        int64_t r = xgft_radix(s, i, j);
        int add = snprintf(buf + used, len - (size_t)used, ".%lld", (long long)(x % r));
        used = add > 0 ? used + add : used;
        x /= r;
    }
}

/* Links every level-i switch to its w_{i+1} parents: same digits, digit i+1
 * replaced (its weight is the same at both levels: the digits below it have
 * the radices w_1 … w_i at both). */
static int xgft_add_level(moore_builder *b, const xgft_shape *s, int64_t i, moore_error *err)
{
    int64_t below = 1;
    for (int64_t j = 1; j <= i; j++)
        below *= s->w[j];
    int64_t m = s->m[i + 1], w = s->w[i + 1];
    int rc = MOORE_OK;
    for (int64_t x = 0; !rc && x < s->level_size[i]; x++) {
        int64_t low = x % below, high = x / below / m; /* digits below, digits above */
        for (int64_t bdigit = 0; !rc && bdigit < w; bdigit++) {
            int64_t parent = (high * w + bdigit) * below + low;
            rc = moore_builder_add_link(b, (int32_t)(s->level_start[i] + x),
                                        (int32_t)(s->level_start[i + 1] + parent), err);
        }
    }
    return rc;
}

int fam_xgft_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    xgft_shape s;
    moore_counts c;
    int rc = xgft_read(pp, &s, err);
    if (!rc)
        rc = fam_xgft_counts(pp, &c, err);
    if (rc)
        return rc;
    moore_builder *b = NULL;
    if ((rc = moore_builder_new((int32_t)c.switches, c.links, &b, err)))
        return rc;
    for (int64_t i = 0; !rc && i < s.h; i++)
        rc = xgft_add_level(b, &s, i, err);
    if (!rc)
        rc = fam_graph_finish(&b, 0, xgft_label, &s, out, err);
    for (int32_t v = 0; !rc && v < s.level_size[0]; v++)
        (*out)->endpoints[v] = (int32_t)s.p;
    moore_builder_free(b);
    return rc;
}

/* Full-radix folded Clos networks from switches of radix R = 2k: m =
 * k.….k.2k, w = k.….k, p = k, so every switch uses all R ports (h = 2 is the
 * 3-level k-ary fat-tree of Al-Fares et al. with radix R). Heights 1 … 4 up to
 * the listing size; with a target, on up to the first height reaching it. */
int fam_xgft_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                    moore_error *err)
{
    int64_t k = radix / 2, leaves = 2 * k; /* N_0 = k^(h−1)·2k = N_i for i < h */
    if (k < 2)
        return MOORE_OK;
    char m[96], w[96];
    for (int64_t h = 1; h <= 16 && (h <= 4 || endpoints > 0); h++, leaves *= k) {
        int64_t switches = h * leaves + leaves / 2; /* N_h = k^h */
        int reaches = endpoints > 0 && leaves * k >= endpoints;
        if (switches > MOORE_MAX_SWITCHES / 10 ||
            ((switches > MOORE_PLAN_LIST_SWITCHES || h > 4) && !reaches))
            break;
        size_t mu = 0, wu = 0;
        for (int64_t i = 1; i <= h && mu < sizeof m && wu < sizeof w; i++) {
            mu += (size_t)snprintf(m + mu, sizeof m - mu, "%s%lld", i > 1 ? "." : "",
                                   (long long)(i < h ? k : 2 * k));
            wu += (size_t)snprintf(w + wu, sizeof w - wu, "%s%lld", i > 1 ? "." : "",
                                   (long long)k);
        }
        int rc = fam_emit(emit, ctx, err, "xgft:h=%lld,m=%s,w=%s", (long long)h, m, w);
        if (rc || (reaches && (switches > MOORE_PLAN_LIST_SWITCHES || h >= 4)))
            return rc;
        if (leaves > MOORE_MAX_SWITCHES / k)
            break;
    }
    return MOORE_OK;
}
