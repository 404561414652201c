/* collectives.c — the demand pattern of each collective (docs/ai-traffic.md)
 * and the accumulator that turns server-level sends into the switch-level
 * CSR moore_traffic the flow solvers read.
 *
 * A member's bytes of one collective are spread over its destinations:
 *   all-to-all      evenly over the k−1 other members;
 *   ring            all to the next member (reduce-scatter and all-gather of
 *                   a ring all-reduce both send to the next rank);
 *   tree            evenly over its neighbours in the binary tree of the
 *                   group order (reduce up, broadcast down: every tree edge
 *                   carries the same bytes both ways);
 *   hierarchical    members grouped by switch: a ring inside each switch,
 *                   and a ring of the members with the same local index
 *                   across switches, splitting the bytes in the ratio of a
 *                   two-level all-reduce, (l−1)/l inside to (G−1)/(G·l)
 *                   across (l members on the switch, G switches in that ring);
 *                   with buffer sizes (phases.c) a member of an S-byte
 *                   all-reduce sends 2(l−1)/l·S inside and 2(G−1)/(G·l)·S
 *                   across, the two-level all-reduce's bytes;
 *   weighted        all-to-all whose destinations take shares of the bytes
 *                   (MoE experts with uneven load, phases.c);
 *   point-to-point  one send.
 * Sends between servers of one switch count in server_sent but use no link. */
#include "workload_internal.h"
#include "core/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void work_push(wl_demands *d, int32_t s, int32_t t, double w)
{
    if (d->failed || s == t || w <= 0.0)
        return;
    if (d->len == d->cap) {
        int64_t cap = d->cap ? 2 * d->cap : 1024;
        int rc = moore_memory_guard((double)cap * (double)sizeof *d->e, "the workload demands",
                                    d->err);
        if (rc) {
            d->failed = rc;
            return;
        }
        wl_entry *e = realloc(d->e, (size_t)cap * sizeof *e);
        if (!e) {
            d->failed = moore_error_set(d->err, MOORE_ENOMEM,
                                        "out of memory for the workload demands");
            return;
        }
        d->e = e;
        d->cap = cap;
    }
    d->e[d->len++] = (wl_entry){s, t, w};
}

void work_send(wl_demands *d, int32_t from, int32_t to, double w)
{
    d->server_sent[from] += w;
    if (d->server_recv)
        d->server_recv[to] += w;
    work_push(d, d->switch_of_server[from], d->switch_of_server[to], w);
}

void work_collective(wl_demands *d, moore_collective c, int64_t k, const int32_t *srv,
                     const double *wt)
{
    if (c == MOORE_COLL_ALLTOALL)
        work_alltoall(d, k, srv, wt);
    else if (c == MOORE_COLL_RING)
        work_ring(d, k, srv, wt);
    else if (c == MOORE_COLL_TREE)
        work_tree(d, k, srv, wt);
    else
        work_hierarchical(d, k, srv, wt);
}

void work_alltoall_shares(wl_demands *d, int64_t k, const int32_t *srv, double c,
                          const double *share, int combine)
{
    for (int64_t i = 0; i < k; i++)
        for (int64_t j = 0; j < k; j++)
            if (i != j)
                work_send(d, srv[i], srv[j], c * share[combine ? i : j]);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* All-to-all by switch: with m_t members on switch t and W_s the bytes of
 * the members on switch s, switch s sends W_s·m_t/(k−1) to t (k² server pairs
 * collapse to at most (switches used)² entries). */
void work_alltoall(wl_demands *d, int64_t k, const int32_t *srv, const double *wt)
{
    if (k < 2 || d->failed)
        return;
    int32_t *sw = moore_malloc((size_t)k, sizeof *sw, d->err);
    int32_t *uniq = moore_malloc((size_t)k, sizeof *uniq, d->err);
    int64_t *count = moore_calloc((size_t)k, sizeof *count, d->err);
    double *bytes = moore_calloc((size_t)k, sizeof *bytes, d->err);
    if (!sw || !uniq || !count || !bytes) {
        d->failed = moore_error_set(d->err, MOORE_ENOMEM,
                                    "out of memory for an all-to-all of %lld ranks", (long long)k);
        goto done;
    }
    double all = 0.0;
    for (int64_t i = 0; i < k; i++) {
        sw[i] = d->switch_of_server[srv[i]];
        d->server_sent[srv[i]] += wt[i];
        all += wt[i];
    }
    for (int64_t i = 0; d->server_recv && i < k; i++)
        d->server_recv[srv[i]] += (all - wt[i]) / (double)(k - 1);
    memcpy(uniq, sw, (size_t)k * sizeof *uniq);
    qsort(uniq, (size_t)k, sizeof *uniq, cmp_i32);
    int64_t u = 0;
    for (int64_t i = 0; i < k; i++)
        if (u == 0 || uniq[u - 1] != uniq[i])
            uniq[u++] = uniq[i];
    for (int64_t i = 0; i < k; i++) {
        int32_t *at = bsearch(&sw[i], uniq, (size_t)u, sizeof *uniq, cmp_i32);
        int64_t j = at - uniq;
        count[j]++;
        bytes[j] += wt[i];
    }
    for (int64_t a = 0; a < u; a++)
        for (int64_t b = 0; b < u; b++)
            if (a != b)
                work_push(d, uniq[a], uniq[b], bytes[a] * (double)count[b] / (double)(k - 1));
done:
    free(sw);
    free(uniq);
    free(count);
    free(bytes);
}

void work_ring(wl_demands *d, int64_t k, const int32_t *srv, const double *wt)
{
    if (k < 2)
        return;
    for (int64_t i = 0; i < k; i++)
        work_send(d, srv[i], srv[(i + 1) % k], wt[i]);
}

void work_tree(wl_demands *d, int64_t k, const int32_t *srv, const double *wt)
{
    if (k < 2)
        return;
    for (int64_t i = 0; i < k; i++) {
        int64_t nb[3], deg = 0;
        if (i > 0)
            nb[deg++] = (i - 1) / 2;
        if (2 * i + 1 < k)
            nb[deg++] = 2 * i + 1;
        if (2 * i + 2 < k)
            nb[deg++] = 2 * i + 2;
        for (int64_t j = 0; j < deg; j++)
            work_send(d, srv[i], srv[nb[j]], wt[i] / (double)deg);
    }
}

/* Member order sorted by (switch, position in the group). */
typedef struct wl_member {
    int32_t sw;
    int64_t pos;
} wl_member;

static int cmp_member(const void *a, const void *b)
{
    const wl_member *x = a, *y = b;
    if (x->sw != y->sw)
        return (x->sw > y->sw) - (x->sw < y->sw);
    return (x->pos > y->pos) - (x->pos < y->pos);
}

void work_hierarchical(wl_demands *d, int64_t k, const int32_t *srv, const double *wt)
{
    if (k < 2 || d->failed)
        return;
    /* start: first member of its switch; size: members on its switch; in_ring:
     * switches having local index j; next: next member with the same index;
     * first/last: first/last member with local index j */
    wl_member *m = moore_malloc((size_t)k, sizeof *m, d->err);
    int64_t *start = moore_malloc((size_t)k, sizeof *start, d->err);
    int64_t *size = moore_malloc((size_t)k, sizeof *size, d->err);
    int64_t *in_ring = moore_calloc((size_t)k, sizeof *in_ring, d->err);
    int64_t *next = moore_malloc((size_t)k, sizeof *next, d->err);
    int64_t *first = moore_malloc((size_t)k, sizeof *first, d->err);
    int64_t *last = moore_malloc((size_t)k, sizeof *last, d->err);
    if (!m || !start || !size || !in_ring || !next || !first || !last) {
        d->failed = moore_error_set(d->err, MOORE_ENOMEM,
                                    "out of memory for an all-reduce of %lld ranks", (long long)k);
        goto done;
    }
    for (int64_t i = 0; i < k; i++)
        m[i] = (wl_member){d->switch_of_server[srv[i]], i};
    qsort(m, (size_t)k, sizeof *m, cmp_member);
    for (int64_t i = 0, s = 0; i < k; i++) {
        if (i > 0 && m[i].sw != m[i - 1].sw)
            s = i;
        start[i] = s;
    }
    for (int64_t i = k - 1, e = k; i >= 0; i--) {
        if (i < k - 1 && m[i].sw != m[i + 1].sw)
            e = i + 1;
        size[i] = e - start[i];
    }
    for (int64_t j = 0; j < k; j++)
        first[j] = last[j] = -1;
    for (int64_t i = 0; i < k; i++) {   /* switches in ascending order: rings by local index */
        int64_t j = i - start[i];
        if (first[j] < 0)
            first[j] = i;
        else
            next[last[j]] = i;
        last[j] = i;
        next[i] = -1;
        in_ring[j]++;
    }
    for (int64_t i = 0; i < k; i++) {
        int64_t j = i - start[i], l = size[i], G = in_ring[j];
        double a = l > 1 ? (double)(l - 1) / (double)l : 0.0;
        double b = G > 1 ? (double)(G - 1) / ((double)G * (double)l) : 0.0;
        double w = wt[m[i].pos] * (d->buffer_sizes ? 2.0 * (a + b) : 1.0);
        int32_t from = srv[m[i].pos];
        if (a > 0.0) {
            int64_t to = start[i] + (j + 1) % l;
            work_send(d, from, srv[m[to].pos], w * a / (a + b));
        }
        if (b > 0.0) {
            int64_t to = next[i] >= 0 ? next[i] : first[j];
            work_send(d, from, srv[m[to].pos], w * b / (a + b));
        }
    }
done:
    free(m);
    free(start);
    free(size);
    free(in_ring);
    free(next);
    free(first);
    free(last);
}

static int cmp_entry(const void *a, const void *b)
{
    const wl_entry *x = a, *y = b;
    if (x->src != y->src)
        return (x->src > y->src) - (x->src < y->src);
    return (x->dst > y->dst) - (x->dst < y->dst);
}

int work_to_traffic(wl_demands *d, int32_t n, const char *name, int unit_endpoints,
                  moore_traffic **out, moore_error *err)
{
    *out = NULL;
    if (d->len > 1)
        qsort(d->e, (size_t)d->len, sizeof *d->e, cmp_entry);
    int64_t merged = 0;
    for (int64_t i = 0; i < d->len; i++) {
        if (merged > 0 && d->e[merged - 1].src == d->e[i].src && d->e[merged - 1].dst == d->e[i].dst)
            d->e[merged - 1].w += d->e[i].w;
        else
            d->e[merged++] = d->e[i];
    }
    int rc = MOORE_OK;
    moore_traffic *t = moore_calloc(1, sizeof *t, err);
    if (!t)
        return core_alloc_code(err);
    t->n = n;
    t->offs = moore_calloc((size_t)n + 1, sizeof *t->offs, err);
    t->dst = moore_malloc((size_t)(merged ? merged : 1), sizeof *t->dst, err);
    t->demand = moore_malloc((size_t)(merged ? merged : 1), sizeof *t->demand, err);
    if (!t->offs || !t->dst || !t->demand) {
        rc = core_alloc_code(err);
        goto done;
    }
    for (int64_t i = 0; i < merged; i++) {
        t->offs[d->e[i].src + 1]++;
        t->dst[i] = d->e[i].dst;
        t->demand[i] = d->e[i].w;
        t->total += d->e[i].w;
    }
    for (int32_t v = 0; v < n; v++)
        t->offs[v + 1] += t->offs[v];
    t->unit_endpoints = unit_endpoints;
    snprintf(t->name, sizeof t->name, "%s", name);
    *out = t;
    t = NULL;
done:
    moore_traffic_free(t);
    return rc;
}
