/* matching.c — maximum-weight matching on a complete graph by Edmonds'
 * blossom algorithm (primal–dual, O(n³)), for the longest-matching traffic
 * matrix of Jyothi et al. (SC'16).
 *
 * The structure follows the classic primal–dual formulation (Edmonds 1965;
 * Galil, "Efficient algorithms for finding maximum matching in graphs", 1986):
 * vertex duals u_v and blossom duals z_B keep every edge's slack
 * u_i + u_j − 2·w_ij (+ enclosing z) ≥ 0; each stage grows alternating trees
 * of S- and T-labelled (top-level) blossoms over tight edges, shrinks odd
 * cycles into blossoms, augments when two trees meet, and otherwise changes
 * the duals by the largest δ that keeps them feasible:
 *   δ1 = min u_v over vertices       (then the matching is optimal),
 *   δ2 = slack of an S–free edge,     δ3 = half the slack of an S–S edge,
 *   δ4 = z of a T-blossom            (which is then expanded).
 * Keeping, per S-blossom, the least-slack edge to every other S-blossom makes
 * each stage O(n²), so the whole is O(n³). Weights are integers and every
 * dual stays an integer because all S–S slacks are even (duals start at
 * max w and only change by integer δ); so the optimum is exact.
 *
 * Edges are numbered k for i < j; "endpoint" p = 2k or 2k+1 stands for one
 * end of edge k (endpoint[p]), and p^1 is its other end. mate[v] holds the
 * endpoint p at the far side of v's matched edge. */
#include "moore/traffic.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct bl {
    int32_t n;              /* vertices; blossoms are n .. 2n-1 */
    int64_t nedge;
    int32_t *eu, *ev;       /* edge k = (eu[k], ev[k]) */
    int64_t *ew;            /* its weight */
    int64_t *nbr;           /* neighbour endpoints of v: nbr[v*(n-1) .. (v+1)*(n-1)-1] */
    int64_t *mate;          /* per vertex: remote endpoint, or -1 */
    int *label;             /* per vertex/blossom: 0 free, 1 S, 2 T (bit 4: scan mark) */
    int64_t *labelend;      /* endpoint through which the label was reached, or -1 */
    int32_t *inblossom;     /* top-level blossom containing vertex v */
    int32_t *parent;        /* enclosing blossom, or -1 */
    int32_t **childs;       /* sub-blossoms of a blossom, in cycle order from the base */
    int64_t **endps;        /* endps[b][i]: endpoint linking childs[i] and childs[i+1] */
    int32_t *nchilds;
    int32_t *base;          /* base vertex of a blossom, -1 when unused */
    int64_t *bestedge;      /* least-slack edge to an S-blossom (or from free vertex) */
    int64_t **bestlist;     /* S-blossom: its least-slack edges to other S-blossoms */
    int32_t *nbest;
    int32_t *unused;        /* free blossom ids (stack) */
    int32_t nunused;
    int64_t *dual;
    char *allow;            /* edge known tight in this stage */
    int32_t *queue;         /* S-vertices to scan (stack) */
    int64_t nqueue, qcap;
    int32_t *leafbuf, *leafbuf2;
    int64_t *bestto;        /* scratch for add_blossom */
    int oom;                /* the code of a failed allocation (0: none) */
} bl;

static int64_t endpoint(const bl *m, int64_t p) { return (p & 1) ? m->ev[p >> 1] : m->eu[p >> 1]; }

static int64_t slack(const bl *m, int64_t k)
{
    return m->dual[m->eu[k]] + m->dual[m->ev[k]] - 2 * m->ew[k];
}

/* Leaves of blossom b appended to out[cnt..]; returns the new count. */
static int32_t leaves(const bl *m, int32_t b, int32_t *out, int32_t cnt)
{
    if (b < m->n) {
        out[cnt++] = b;
        return cnt;
    }
    for (int32_t i = 0; i < m->nchilds[b]; i++)
        cnt = leaves(m, m->childs[b][i], out, cnt);
    return cnt;
}

static void push(bl *m, int32_t v)
{
    if (m->nqueue == m->qcap) {
        int64_t cap = 2 * m->qcap;
        int32_t *q = realloc(m->queue, (size_t)cap * sizeof *q);
        if (!q) {
            m->oom = MOORE_ENOMEM;
            return;
        }
        m->queue = q;
        m->qcap = cap;
    }
    m->queue[m->nqueue++] = v;
}

/* Python-style index into a cyclic list of length len. */
static int32_t cyc(int64_t j, int32_t len) { return (int32_t)(((j % len) + len) % len); }

static void assign_label(bl *m, int32_t w, int t, int64_t p)
{
    int32_t b = m->inblossom[w];
    m->label[w] = m->label[b] = t;
    m->labelend[w] = m->labelend[b] = p;
    m->bestedge[w] = m->bestedge[b] = -1;
    if (t == 1) {
        int32_t cnt = leaves(m, b, m->leafbuf, 0);
        for (int32_t i = 0; i < cnt; i++)
            push(m, m->leafbuf[i]);
    } else {
        int32_t bv = m->base[b];
        assign_label(m, (int32_t)endpoint(m, m->mate[bv]), 1, m->mate[bv] ^ 1);
    }
}

/* Traces back from v and w to find a new blossom's base, or −1 when the two
 * paths reach different roots (an augmenting path). */
static int32_t scan_blossom(bl *m, int32_t v, int32_t w)
{
    int32_t *path = m->leafbuf2, np = 0, base = -1;
    while (v != -1 || w != -1) {
        int32_t b = m->inblossom[v];
        if (m->label[b] & 4) {
            base = m->base[b];
            break;
        }
        path[np++] = b;
        m->label[b] = 5;
        if (m->labelend[b] == -1) {
            v = -1;
        } else {
            v = (int32_t)endpoint(m, m->labelend[b]);
            b = m->inblossom[v];
            v = (int32_t)endpoint(m, m->labelend[b]);
        }
        if (w != -1) {
            int32_t t = v;
            v = w;
            w = t;
        }
    }
    for (int32_t i = 0; i < np; i++)
        m->label[path[i]] = 1;
    return base;
}

static void add_blossom(bl *m, int32_t bbase, int64_t k)
{
    int32_t v = m->eu[k], w = m->ev[k];
    int32_t bb = m->inblossom[bbase], bv = m->inblossom[v], bw = m->inblossom[w];
    int32_t b = m->unused[--m->nunused];
    m->base[b] = bbase;
    m->parent[b] = -1;
    m->parent[bb] = b;
    /* Collect the two halves of the cycle: from bv back to bb, then bw to bb. */
    int32_t *path = m->childs[b];
    int64_t *ends = m->endps[b];
    int32_t np = 0;
    while (bv != bb) {
        m->parent[bv] = b;
        path[np] = bv;
        ends[np++] = m->labelend[bv];
        v = (int32_t)endpoint(m, m->labelend[bv]);
        bv = m->inblossom[v];
    }
    path[np] = bb;
    /* reverse path[0..np] and ends[0..np-1] */
    for (int32_t i = 0, j = np; i < j; i++, j--) {
        int32_t t = path[i];
        path[i] = path[j];
        path[j] = t;
    }
    for (int32_t i = 0, j = np - 1; i < j; i++, j--) {
        int64_t t = ends[i];
        ends[i] = ends[j];
        ends[j] = t;
    }
    int32_t nc = np + 1, ne = np;
    ends[ne++] = 2 * k;
    while (bw != bb) {
        m->parent[bw] = b;
        path[nc++] = bw;
        ends[ne++] = m->labelend[bw] ^ 1;
        w = (int32_t)endpoint(m, m->labelend[bw]);
        bw = m->inblossom[w];
    }
    m->nchilds[b] = nc;
    m->label[b] = 1;
    m->labelend[b] = m->labelend[bb];
    m->dual[b] = 0;
    int32_t cnt = leaves(m, b, m->leafbuf, 0);
    for (int32_t i = 0; i < cnt; i++) {
        if (m->label[m->inblossom[m->leafbuf[i]]] == 2)
            push(m, m->leafbuf[i]);
        m->inblossom[m->leafbuf[i]] = b;
    }
    /* Least-slack edges from the new blossom to every other S-blossom. */
    int64_t *bestto = m->bestto;
    for (int32_t i = 0; i < 2 * m->n; i++)
        bestto[i] = -1;
    for (int32_t c = 0; c < nc; c++) {
        int32_t sub = path[c];
        if (m->bestlist[sub] == NULL) {
            int32_t lc = leaves(m, sub, m->leafbuf2, 0);
            for (int32_t li = 0; li < lc; li++) {
                int32_t x = m->leafbuf2[li];
                for (int64_t q = 0; q < m->n - 1; q++) {
                    int64_t kk = m->nbr[(int64_t)x * (m->n - 1) + q] >> 1;
                    int32_t j = m->ev[kk] == x ? m->eu[kk] : m->ev[kk];
                    int32_t bj = m->inblossom[j];
                    if (bj != b && m->label[bj] == 1 &&
                        (bestto[bj] == -1 || slack(m, kk) < slack(m, bestto[bj])))
                        bestto[bj] = kk;
                }
            }
        } else {
            for (int32_t q = 0; q < m->nbest[sub]; q++) {
                int64_t kk = m->bestlist[sub][q];
                int32_t i = m->eu[kk], j = m->ev[kk];
                if (m->inblossom[j] == b)
                    j = i;
                int32_t bj = m->inblossom[j];
                if (bj != b && m->label[bj] == 1 &&
                    (bestto[bj] == -1 || slack(m, kk) < slack(m, bestto[bj])))
                    bestto[bj] = kk;
            }
            free(m->bestlist[sub]);
            m->bestlist[sub] = NULL;
            m->nbest[sub] = 0;
        }
        m->bestedge[sub] = -1;
    }
    int32_t count = 0;
    for (int32_t i = 0; i < 2 * m->n; i++)
        count += bestto[i] != -1;
    m->bestlist[b] = core_par_malloc((size_t)(count ? count : 1), sizeof(int64_t), &m->oom);
    if (!m->bestlist[b])
        return;
    m->nbest[b] = 0;
    m->bestedge[b] = -1;
    for (int32_t i = 0; i < 2 * m->n; i++)
        if (bestto[i] != -1) {
            m->bestlist[b][m->nbest[b]++] = bestto[i];
            if (m->bestedge[b] == -1 || slack(m, bestto[i]) < slack(m, m->bestedge[b]))
                m->bestedge[b] = bestto[i];
        }
}

static void release_blossom(bl *m, int32_t b)
{
    m->label[b] = -1;
    m->labelend[b] = -1;
    m->nchilds[b] = 0;
    m->base[b] = -1;
    free(m->bestlist[b]);
    m->bestlist[b] = NULL;
    m->nbest[b] = 0;
    m->bestedge[b] = -1;
    m->unused[m->nunused++] = b;
}

/* Where child sits in blossom b's cycle (*at), and how to walk from it to the
 * base along the even-length side: returns the start index j (negative when
 * walking forwards, so that the walk ends at 0), the step, and the endpoint
 * trick that picks the right end of each connecting edge. */
static int64_t walk_to_base(const bl *m, int32_t b, int32_t child, int64_t *at, int64_t *jstep,
                            int64_t *trick)
{
    int64_t j = 0;
    while (m->childs[b][j] != child)
        j++;
    *at = j;
    if (j & 1) {
        *jstep = 1;
        *trick = 0;
        return j - m->nchilds[b];
    }
    *jstep = -1;
    *trick = 1;
    return j;
}

static void expand_blossom(bl *m, int32_t b, int endstage)
{
    int32_t nc = m->nchilds[b];
    for (int32_t c = 0; c < nc; c++) {
        int32_t s = m->childs[b][c];
        m->parent[s] = -1;
        if (s < m->n) {
            m->inblossom[s] = s;
        } else if (endstage && m->dual[s] == 0) {
            expand_blossom(m, s, endstage);
        } else {
            int32_t cnt = leaves(m, s, m->leafbuf, 0);
            for (int32_t i = 0; i < cnt; i++)
                m->inblossom[m->leafbuf[i]] = s;
        }
    }
    if (!endstage && m->label[b] == 2) {
        /* Relabel the even-length path through the expanded T-blossom from
         * the entry child to the base as T, S, T, ... */
        int32_t entry = m->inblossom[endpoint(m, m->labelend[b] ^ 1)];
        int64_t at, jstep, trick, j = walk_to_base(m, b, entry, &at, &jstep, &trick);
        int64_t p = m->labelend[b];
        while (j != 0) {
            m->label[endpoint(m, p ^ 1)] = 0;
            m->label[endpoint(m, m->endps[b][cyc(j - trick, nc)] ^ trick ^ 1)] = 0;
            assign_label(m, (int32_t)endpoint(m, p ^ 1), 2, p);
            m->allow[m->endps[b][cyc(j - trick, nc)] >> 1] = 1;
            j += jstep;
            p = m->endps[b][cyc(j - trick, nc)] ^ trick;
            m->allow[p >> 1] = 1;
            j += jstep;
        }
        int32_t bv = m->childs[b][cyc(j, nc)];
        m->label[endpoint(m, p ^ 1)] = m->label[bv] = 2;
        m->labelend[endpoint(m, p ^ 1)] = m->labelend[bv] = p;
        m->bestedge[bv] = -1;
        j += jstep;
        while (m->childs[b][cyc(j, nc)] != entry) {
            bv = m->childs[b][cyc(j, nc)];
            if (m->label[bv] == 1) {
                j += jstep;
                continue;
            }
            int32_t cnt = leaves(m, bv, m->leafbuf2, 0), v = -1;
            for (int32_t i = 0; i < cnt; i++)
                if (m->label[m->leafbuf2[i]] != 0) {
                    v = m->leafbuf2[i];
                    break;
                }
            if (v >= 0) {
                m->label[v] = 0;
                m->label[endpoint(m, m->mate[m->base[bv]])] = 0;
                assign_label(m, v, 2, m->labelend[v]);
            }
            j += jstep;
        }
    }
    release_blossom(m, b);
}

/* Swaps matched and unmatched edges inside blossom b so that v becomes its base. */
static void augment_blossom(bl *m, int32_t b, int32_t v)
{
    int32_t t = v;
    while (m->parent[t] != b)
        t = m->parent[t];
    if (t >= m->n)
        augment_blossom(m, t, v);
    int32_t nc = m->nchilds[b];
    int64_t i, jstep, trick, j = walk_to_base(m, b, t, &i, &jstep, &trick);
    while (j != 0) {
        j += jstep;
        t = m->childs[b][cyc(j, nc)];
        int64_t p = m->endps[b][cyc(j - trick, nc)] ^ trick;
        if (t >= m->n)
            augment_blossom(m, t, (int32_t)endpoint(m, p));
        j += jstep;
        t = m->childs[b][cyc(j, nc)];
        if (t >= m->n)
            augment_blossom(m, t, (int32_t)endpoint(m, p ^ 1));
        m->mate[endpoint(m, p)] = p ^ 1;
        m->mate[endpoint(m, p ^ 1)] = p;
    }
    /* Rotate the child list so that the new base's child comes first. */
    int32_t *tc = m->leafbuf2;
    int64_t *te = m->bestto;
    for (int32_t c = 0; c < nc; c++) {
        tc[c] = m->childs[b][cyc(c + i, nc)];
        te[c] = m->endps[b][cyc(c + i, nc)];
    }
    memcpy(m->childs[b], tc, (size_t)nc * sizeof *tc);
    memcpy(m->endps[b], te, (size_t)nc * sizeof *te);
    m->base[b] = m->base[m->childs[b][0]];
}

static void augment_matching(bl *m, int64_t k)
{
    int32_t s0[2] = { m->eu[k], m->ev[k] };
    int64_t p0[2] = { 2 * k + 1, 2 * k };
    for (int side = 0; side < 2; side++) {
        int32_t s = s0[side];
        int64_t p = p0[side];
        for (;;) {
            int32_t bs = m->inblossom[s];
            if (bs >= m->n)
                augment_blossom(m, bs, s);
            m->mate[s] = p;
            if (m->labelend[bs] == -1)
                break;
            int32_t t = (int32_t)endpoint(m, m->labelend[bs]);
            int32_t bt = m->inblossom[t];
            s = (int32_t)endpoint(m, m->labelend[bt]);
            int32_t j = (int32_t)endpoint(m, m->labelend[bt] ^ 1);
            if (bt >= m->n)
                augment_blossom(m, bt, j);
            m->mate[j] = m->labelend[bt];
            p = m->labelend[bt] ^ 1;
        }
    }
}

static void bl_clear(bl *m)
{
    if (m->childs)
        for (int32_t b = 0; b < 2 * m->n; b++)
            free(m->childs[b]);
    if (m->endps)
        for (int32_t b = 0; b < 2 * m->n; b++)
            free(m->endps[b]);
    if (m->bestlist)
        for (int32_t b = 0; b < 2 * m->n; b++)
            free(m->bestlist[b]);
    free(m->eu); free(m->ev); free(m->ew); free(m->nbr); free(m->mate); free(m->label);
    free(m->labelend); free(m->inblossom); free(m->parent); free(m->childs); free(m->endps);
    free(m->nchilds); free(m->base); free(m->bestedge); free(m->bestlist); free(m->nbest);
    free(m->unused); free(m->dual); free(m->allow); free(m->queue); free(m->leafbuf);
    free(m->leafbuf2); free(m->bestto);
}

/* The start of the algorithm: every edge listed, every vertex single with
 * dual the largest weight, no blossom. */
static void bl_start(bl *m, const int64_t *w)
{
    int32_t n = m->n;
    int64_t maxw = 0, k = 0;
    int64_t *fill = m->labelend; /* scratch: neighbours filled per vertex */
    for (int32_t v = 0; v < n; v++)
        fill[v] = 0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++, k++) {
            m->eu[k] = i;
            m->ev[k] = j;
            m->ew[k] = w[(int64_t)i * n + j];
            if (m->ew[k] > maxw)
                maxw = m->ew[k];
            m->nbr[(int64_t)i * (n - 1) + fill[i]++] = 2 * k + 1;
            m->nbr[(int64_t)j * (n - 1) + fill[j]++] = 2 * k;
        }
    for (int32_t v = 0; v < n; v++) {
        m->mate[v] = -1;
        m->inblossom[v] = v;
        m->base[v] = v;
        m->base[n + v] = -1;
        m->dual[v] = maxw;
        m->dual[n + v] = 0;
        m->unused[v] = 2 * n - 1 - v;
    }
    m->nunused = n;
    for (int32_t b = 0; b < 2 * n; b++) {
        m->labelend[b] = -1;
        m->parent[b] = -1;
        m->bestedge[b] = -1;
    }
}

/* Zeroes *m and allocates its arrays for n vertices, then bl_start. On
 * failure what it allocated is left to the caller's bl_clear. */
static int bl_init(bl *m, int32_t n, const int64_t *w, moore_error *err)
{
    memset(m, 0, sizeof *m);
    m->n = n;
    m->nedge = (int64_t)n * (n - 1) / 2;
    size_t ne = (size_t)(m->nedge ? m->nedge : 1), n2 = (size_t)2 * n;
    m->eu = moore_malloc(ne, sizeof *m->eu, err);
    m->ev = moore_malloc(ne, sizeof *m->ev, err);
    m->ew = moore_malloc(ne, sizeof *m->ew, err);
    m->nbr = moore_malloc(2 * ne, sizeof *m->nbr, err);
    m->mate = moore_malloc((size_t)n, sizeof *m->mate, err);
    m->label = moore_calloc(n2, sizeof *m->label, err);
    m->labelend = moore_malloc(n2, sizeof *m->labelend, err);
    m->inblossom = moore_malloc((size_t)n, sizeof *m->inblossom, err);
    m->parent = moore_malloc(n2, sizeof *m->parent, err);
    m->childs = moore_calloc(n2, sizeof *m->childs, err);
    m->endps = moore_calloc(n2, sizeof *m->endps, err);
    m->nchilds = moore_calloc(n2, sizeof *m->nchilds, err);
    m->base = moore_malloc(n2, sizeof *m->base, err);
    m->bestedge = moore_malloc(n2, sizeof *m->bestedge, err);
    m->bestlist = moore_calloc(n2, sizeof *m->bestlist, err);
    m->nbest = moore_calloc(n2, sizeof *m->nbest, err);
    m->unused = moore_malloc((size_t)n, sizeof *m->unused, err);
    m->dual = moore_malloc(n2, sizeof *m->dual, err);
    m->allow = moore_malloc(ne, 1, err);
    m->qcap = 4 * (int64_t)n + 16;
    m->queue = moore_malloc((size_t)m->qcap, sizeof *m->queue, err);
    m->leafbuf = moore_malloc((size_t)n, sizeof *m->leafbuf, err);
    m->leafbuf2 = moore_malloc((size_t)n, sizeof *m->leafbuf2, err);
    m->bestto = moore_malloc(n2, sizeof *m->bestto, err);
    int bad = !m->eu || !m->ev || !m->ew || !m->nbr || !m->mate || !m->labelend ||
              !m->inblossom || !m->parent || !m->childs || !m->endps || !m->nchilds ||
              !m->base || !m->bestedge || !m->bestlist || !m->nbest || !m->unused ||
              !m->dual || !m->allow || !m->queue || !m->leafbuf || !m->leafbuf2 ||
              !m->bestto || !m->label;
    for (int32_t b = n; !bad && b < 2 * n; b++) {
        m->childs[b] = moore_malloc((size_t)n, sizeof **m->childs, err);
        m->endps[b] = moore_malloc((size_t)n, sizeof **m->endps, err);
        bad = !m->childs[b] || !m->endps[b];
    }
    int rc = bad ? core_alloc_code(err) : MOORE_OK;
    if (!rc)
        bl_start(m, w);
    return rc;
}

/* One stage: grow trees from all free vertices until an augmentation (1) or
 * until the duals prove the matching optimal (0). */
static int stage(bl *m)
{
    int32_t n = m->n;
    for (int32_t b = 0; b < 2 * n; b++) {
        m->label[b] = 0;
        m->bestedge[b] = -1;
    }
    for (int32_t b = n; b < 2 * n; b++) {
        free(m->bestlist[b]);
        m->bestlist[b] = NULL;
        m->nbest[b] = 0;
    }
    memset(m->allow, 0, (size_t)(m->nedge ? m->nedge : 1));
    m->nqueue = 0;
    for (int32_t v = 0; v < n; v++)
        if (m->mate[v] == -1 && m->label[m->inblossom[v]] == 0)
            assign_label(m, v, 1, -1);
    for (;;) {
        while (m->nqueue > 0 && !m->oom) {
            int32_t v = m->queue[--m->nqueue];
            for (int64_t q = 0; q < n - 1; q++) {
                int64_t p = m->nbr[(int64_t)v * (n - 1) + q], k = p >> 1;
                int32_t w = (int32_t)endpoint(m, p);
                if (m->inblossom[v] == m->inblossom[w])
                    continue;
                int64_t ks = 0;
                if (!m->allow[k]) {
                    ks = slack(m, k);
                    if (ks <= 0)
                        m->allow[k] = 1;
                }
                if (m->allow[k]) {
                    if (m->label[m->inblossom[w]] == 0) {
                        assign_label(m, w, 2, p ^ 1);
                    } else if (m->label[m->inblossom[w]] == 1) {
                        int32_t base = scan_blossom(m, v, w);
                        if (base >= 0) {
                            add_blossom(m, base, k);
                        } else {
                            augment_matching(m, k);
                            return 1;
                        }
                    } else if (m->label[w] == 0) {
                        m->label[w] = 2;
                        m->labelend[w] = p ^ 1;
                    }
                } else if (m->label[m->inblossom[w]] == 1) {
                    int32_t b = m->inblossom[v];
                    if (m->bestedge[b] == -1 || ks < slack(m, m->bestedge[b]))
                        m->bestedge[b] = k;
                } else if (m->label[w] == 0) {
                    if (m->bestedge[w] == -1 || ks < slack(m, m->bestedge[w]))
                        m->bestedge[w] = k;
                }
            }
        }
        if (m->oom)
            return 0;
        /* No tight edge left to grow along: change the duals. */
        int type = 1;
        int64_t delta = m->dual[0], dedge = -1;
        int32_t dblossom = -1;
        for (int32_t v = 1; v < n; v++)
            if (m->dual[v] < delta)
                delta = m->dual[v];
        for (int32_t v = 0; v < n; v++)
            if (m->label[m->inblossom[v]] == 0 && m->bestedge[v] != -1 &&
                slack(m, m->bestedge[v]) < delta) {
                delta = slack(m, m->bestedge[v]);
                type = 2;
                dedge = m->bestedge[v];
            }
        for (int32_t b = 0; b < 2 * n; b++)
            if (m->parent[b] == -1 && m->label[b] == 1 && m->bestedge[b] != -1 &&
                slack(m, m->bestedge[b]) / 2 < delta) {
                delta = slack(m, m->bestedge[b]) / 2;
                type = 3;
                dedge = m->bestedge[b];
            }
        for (int32_t b = n; b < 2 * n; b++)
            if (m->base[b] >= 0 && m->parent[b] == -1 && m->label[b] == 2 &&
                m->dual[b] < delta) {
                delta = m->dual[b];
                type = 4;
                dblossom = b;
            }
        for (int32_t v = 0; v < n; v++) {
            int l = m->label[m->inblossom[v]];
            if (l == 1)
                m->dual[v] -= delta;
            else if (l == 2)
                m->dual[v] += delta;
        }
        for (int32_t b = n; b < 2 * n; b++)
            if (m->base[b] >= 0 && m->parent[b] == -1) {
                if (m->label[b] == 1)
                    m->dual[b] += delta;
                else if (m->label[b] == 2)
                    m->dual[b] -= delta;
            }
        if (type == 1) {
            return 0;
        } else if (type == 2) {
            m->allow[dedge] = 1;
            int32_t i = m->eu[dedge];
            if (m->label[m->inblossom[i]] == 0)
                i = m->ev[dedge];
            push(m, i);
        } else if (type == 3) {
            m->allow[dedge] = 1;
            push(m, m->eu[dedge]);
        } else {
            expand_blossom(m, dblossom, 0);
        }
    }
}

int moore_matching_max_weight(int32_t n, const int64_t *w, int32_t *mate, moore_error *err)
{
    if (n < 0)
        return moore_error_set(err, MOORE_EINVAL, "matching: n=%d is negative", (int)n);
    for (int64_t i = 0; i < (int64_t)n * n; i++)
        if (i / n != i % n && (w[i] < 0 || w[i] != w[(i % n) * n + i / n] || w[i] > (1LL << 40)))
            return moore_error_set(err, MOORE_EINVAL,
                                   "matching: weight %lld of %lld–%lld must be symmetric and in "
                                   "0..2^40", (long long)w[i], (long long)(i / n),
                                   (long long)(i % n));
    for (int32_t v = 0; v < n; v++)
        mate[v] = -1;
    if (n < 2)
        return MOORE_OK;
    bl m;
    int rc = bl_init(&m, n, w, err);
    for (int32_t s = 0; !rc && s < n && !m.oom; s++) {
        if (!stage(&m))
            break;
        /* End of stage: expand S-blossoms whose dual reached zero. */
        for (int32_t b = n; b < 2 * n; b++)
            if (m.parent[b] == -1 && m.base[b] >= 0 && m.label[b] == 1 && m.dual[b] == 0)
                expand_blossom(&m, b, 1);
    }
    if (!rc)
        rc = core_par_failed(err, m.oom, "the blossom algorithm");
    for (int32_t v = 0; !rc && v < n; v++)
        mate[v] = m.mate[v] >= 0 ? (int32_t)endpoint(&m, m.mate[v]) : -1;
    bl_clear(&m);
    return rc;
}
