/* cdg_order.c — one virtual layer's channel dependency graph kept acyclic
 * under insertions (cdg.h has the storage), and the acyclicity of the union
 * of all layers.
 *
 * A dynamic topological order (Pearce & Kelly's, with a one-sided move as in
 * Marchetti-Spaccamela et al. and order-maintenance labels): a new dependency
 * x→y that goes backwards in the order (y before x) can only close a cycle
 * through arcs placed between y and x. Two searches run, one arc at a time
 * from either: backward from x and forward from y, both inside that window.
 * (Before them, on path sets, a cycle of at most five links is looked for
 * without queueing anything, short_cycle: on slimfly:q=29 ksp:k=8, 95% of
 * the cycles proved are that short. A destination's DAG seldom closes one,
 * so there the look would only add to the searches.) They meet exactly when
 * x→y closes a cycle. Both are breadth-first, so a short cycle is found after a few arcs
 * (depth-first, a search wandered down long chains first: 2.4 times the
 * arcs visited on slimfly:q=13 ksp:k=8, where proving cycles is 96% of the
 * visits). When they do not meet, the first one to finish
 * decides the repair: the arcs that reach x move, in their order, to just
 * before y, or the arcs y reaches move to just after x. Either keeps every
 * dependency forward, so a dependency costs about twice the smaller of the
 * two sets. On path sets the forward set is the large one (it held 80% of
 * the layering's time when it ran first and both sets were sorted and
 * merged, as the original algorithm does). The order is a linked list with
 * increasing 64-bit labels (a window around an insertion point is
 * relabelled when its gap runs out), so a move costs the moved set only.
 * Both searches read one run of bits per visited arc (cdg.h), and what they
 * check of each neighbour is a run too: the successors of an arc are the
 * consecutive arcs leaving its head, its predecessors the reverses of the
 * consecutive arcs leaving its tail, so the backward search reads the labels
 * by reverse arc (labr), and each search marks what it queues by arc and by
 * reverse arc (bits, cleared after each search from its queues): checking a
 * neighbour then reads no scattered word. */
#include "cdg.h"

#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

int route_cdg_shape_init(route_cdg_shape *sh, const moore_graph *g, moore_error *err)
{
    memset(sh, 0, sizeof *sh);
    sh->g = g;
    sh->arcs = 2 * g->m;
    sh->base = moore_malloc((size_t)sh->arcs + 1, sizeof *sh->base, err);
    sh->rbase = moore_malloc((size_t)sh->arcs + 1, sizeof *sh->rbase, err);
    sh->rev = moore_malloc((size_t)sh->arcs + 1, sizeof *sh->rev, err);
    sh->tail = moore_malloc((size_t)sh->arcs + 1, sizeof *sh->tail, err);
    int64_t *rev = moore_malloc((size_t)sh->arcs + 1, sizeof *rev, err);
    if (!sh->base || !sh->rbase || !sh->rev || !sh->tail || !rev) {
        free(rev);
        route_cdg_shape_clear(sh);
        return core_alloc_code(err);
    }
    int64_t rbits = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++) {
            sh->tail[k] = u;
            sh->base[k] = sh->nbits;
            sh->nbits += moore_graph_degree(g, g->adj[k]);
            sh->rbase[k] = rbits;
            rbits += moore_graph_degree(g, u);
        }
    moore_graph_reverse_arcs(g, rev);
    for (int64_t a = 0; a < sh->arcs; a++)
        sh->rev[a] = (int32_t)rev[a]; /* arcs < 2^31 (deadlock_run) */
    free(rev);
    return MOORE_OK;
}

void route_cdg_shape_clear(route_cdg_shape *sh)
{
    free(sh->base);
    free(sh->rbase);
    free(sh->rev);
    free(sh->tail);
    memset(sh, 0, sizeof *sh);
}

int route_cdg_search_init(route_cdg_search *s, const route_cdg_shape *sh, moore_error *err)
{
    memset(s, 0, sizeof *s);
    int64_t arcs = sh->arcs;
    size_t words = (size_t)(arcs / 64 + 1);
    s->near = moore_calloc((size_t)sh->g->n / 64 + 1, sizeof *s->near, err);
    s->via = moore_malloc((size_t)sh->g->n + 1, sizeof *s->via, err);
    s->seenf = moore_calloc(words, sizeof *s->seenf, err);
    s->seenfr = moore_calloc(words, sizeof *s->seenfr, err);
    s->seenb = moore_calloc(words, sizeof *s->seenb, err);
    s->seenbr = moore_calloc(words, sizeof *s->seenbr, err);
    s->queue = moore_malloc((size_t)arcs + 1, sizeof *s->queue, err);
    s->pool = moore_malloc((size_t)arcs * 2 + 1, sizeof *s->pool, err);
    if (!s->seenf || !s->seenfr || !s->seenb || !s->seenbr || !s->queue || !s->pool || !s->near ||
        !s->via) {
        route_cdg_search_clear(s);
        return core_alloc_code(err);
    }
    return MOORE_OK;
}

void route_cdg_search_clear(route_cdg_search *s)
{
    free(s->seenf);
    free(s->seenfr);
    free(s->seenb);
    free(s->seenbr);
    free(s->queue);
    free(s->pool);
    free(s->near);
    free(s->via);
    memset(s, 0, sizeof *s);
}

static void order_init(const route_cdg_shape *sh, route_cdg_layer *L);

int route_cdg_layer_init(route_cdg_layer *L, const route_cdg_shape *sh, moore_error *err)
{
    size_t words = (size_t)(sh->nbits / 64 + 1);
    L->bits = moore_calloc(words, sizeof *L->bits, err);
    L->rbits = moore_calloc(words, sizeof *L->rbits, err);
    L->cyc = moore_calloc(words, sizeof *L->cyc, err);
    L->lab = moore_malloc((size_t)sh->arcs + 2, sizeof *L->lab, err);
    L->labr = moore_malloc((size_t)sh->arcs + 1, sizeof *L->labr, err);
    L->next = moore_malloc((size_t)sh->arcs + 2, sizeof *L->next, err);
    L->prev = moore_malloc((size_t)sh->arcs + 2, sizeof *L->prev, err);
    if (!L->bits || !L->rbits || !L->cyc || !L->lab || !L->labr || !L->next || !L->prev) {
        route_cdg_layer_clear(L);
        return core_alloc_code(err);
    }
    order_init(sh, L);
    L->empty = 1;
    return MOORE_OK;
}

void route_cdg_layer_clear(route_cdg_layer *L)
{
    free(L->bits);
    free(L->rbits);
    free(L->cyc);
    free(L->lab);
    free(L->labr);
    free(L->next);
    free(L->prev);
    memset(L, 0, sizeof *L);
}

/* The first set bit in [i, hi), or hi. */
static int64_t bits_next(const uint64_t *b, int64_t i, int64_t hi)
{
    while (i < hi) {
        uint64_t w = b[i >> 6] >> (i & 63);
        if (w) {
            i += __builtin_ctzll(w);
            return i < hi ? i : hi;
        }
        i = (i | 63) + 1;
    }
    return hi;
}

/* The dynamic order: arcs in a doubly linked list between two sentinels,
 * each with a label increasing along the list; labels are spread out again
 * around an insertion point when its gap runs out. */
#define LABEL_SPAN ((int64_t)1 << 62)
#define LABEL_GAP ((int64_t)1 << 20) /* the least gap a relabelled window keeps */

static int64_t head_of(const route_cdg_shape *sh) { return sh->arcs; }
static int64_t tail_of(const route_cdg_shape *sh) { return sh->arcs + 1; }

/* Arc a's label, in both indexings. */
static void set_label(const route_cdg_shape *sh, route_cdg_layer *L, int64_t a, int64_t lab)
{
    L->lab[a] = lab;
    L->labr[sh->rev[a]] = lab;
}

static void order_init(const route_cdg_shape *sh, route_cdg_layer *L)
{
    int64_t n = sh->arcs, spacing = LABEL_SPAN / (n + 1);
    for (int64_t a = 0; a < n; a++) {
        set_label(sh, L, a, (a + 1) * spacing);
        L->next[a] = (int32_t)(a + 1 < n ? a + 1 : tail_of(sh));
        L->prev[a] = (int32_t)(a ? a - 1 : head_of(sh));
    }
    L->lab[head_of(sh)] = 0;
    L->lab[tail_of(sh)] = LABEL_SPAN;
    L->next[head_of(sh)] = (int32_t)(n ? 0 : tail_of(sh));
    L->prev[tail_of(sh)] = (int32_t)(n ? n - 1 : head_of(sh));
}

/* Spreads the labels of the elements strictly between p and its successor
 * q: the window grows outward (doubling) until its span leaves every element
 * a gap of LABEL_GAP, or it is the whole list (spacing ≥ 2^62 / arcs). */
static void relabel(const route_cdg_shape *sh, route_cdg_layer *L, int64_t lo, int64_t hi,
                    int64_t count)
{
    for (int64_t step = 1;; step *= 2) {
        if ((L->lab[hi] - L->lab[lo]) / (count + 1) >= LABEL_GAP ||
            (lo == head_of(sh) && hi == tail_of(sh)))
            break;
        for (int64_t i = 0; i < step; i++) {
            if (lo != head_of(sh)) {
                lo = L->prev[lo];
                count++;
            }
            if (hi != tail_of(sh)) {
                hi = L->next[hi];
                count++;
            }
        }
    }
    int64_t spacing = (L->lab[hi] - L->lab[lo]) / (count + 1), at = L->lab[lo];
    for (int64_t a = L->next[lo]; a != hi; a = L->next[a])
        set_label(sh, L, a, at += spacing);
}

/* Moves the arcs set[0..k−1] (ascending labels) to just after p, in that
 * order (p not in set). */
static void move_after(const route_cdg_shape *sh, route_cdg_layer *L, const int64_t *set,
                       int64_t k, int64_t p)
{
    for (int64_t i = 0; i < k; i++) { /* unlink */
        int64_t a = set[i];
        L->next[L->prev[a]] = L->next[a];
        L->prev[L->next[a]] = L->prev[a];
    }
    int64_t q = L->next[p], at = p;
    for (int64_t i = 0; i < k; i++) {
        int64_t a = set[i];
        L->prev[a] = (int32_t)at;
        L->next[at] = (int32_t)a;
        at = a;
    }
    L->next[at] = (int32_t)q;
    L->prev[q] = (int32_t)at;
    int64_t spacing = (L->lab[q] - L->lab[p]) / (k + 1);
    if (spacing < 1) {
        relabel(sh, L, p, q, k);
        return;
    }
    for (int64_t i = 0; i < k; i++)
        set_label(sh, L, set[i], L->lab[p] + (i + 1) * spacing);
}

typedef struct lab_arc {
    int64_t lab, arc;
} lab_arc;

static int cmp_lab(const void *p, const void *q)
{
    int64_t x = ((const lab_arc *)p)->lab, y = ((const lab_arc *)q)->lab;
    return (x > y) - (x < y);
}

/* Sorts a set of arcs by label (labels are distinct); pool: room for 2·len. */
static void sort_by_label(const route_cdg_layer *L, int64_t *set, int64_t len, int64_t *pool)
{
    if (len <= 16) { /* insertion sort: the common small set */
        for (int64_t i = 1; i < len; i++) {
            int64_t a = set[i], j = i;
            for (; j > 0 && L->lab[set[j - 1]] > L->lab[a]; j--)
                set[j] = set[j - 1];
            set[j] = a;
        }
        return;
    }
    lab_arc *key = (lab_arc *)(void *)pool;
    for (int64_t i = 0; i < len; i++)
        key[i] = (lab_arc){ L->lab[set[i]], set[i] };
    qsort(key, (size_t)len, sizeof *key, cmp_lab);
    for (int64_t i = 0; i < len; i++)
        set[i] = key[i].arc;
}

static void mark(uint64_t *bits, int64_t i) { bits[i >> 6] |= (uint64_t)1 << (i & 63); }
static void unmark(uint64_t *bits, int64_t i) { bits[i >> 6] &= ~((uint64_t)1 << (i & 63)); }

/* One step of the backward search from x (arcs with label ≥ lb): takes the
 * next arc of its queue (s->queue from 0 up) and queues its unseen
 * predecessors; 1 when one of them was seen by the forward search: a cycle.
 * The predecessors of b = u→w are a = x→u, c = rev(a) running over u's row:
 * every check is by c. */
static int step_backward(const route_cdg_shape *sh, const route_cdg_layer *L,
                         route_cdg_search *s, int64_t *head, int64_t *tail, int64_t lb)
{
    const moore_graph *g = sh->g;
    int64_t b = s->queue[(*head)++];
    int32_t u = sh->tail[b];
    int64_t row = g->offs[u], lo = sh->rbase[b], hi = lo + (g->offs[u + 1] - row);
    for (int64_t i = bits_next(L->rbits, lo, hi); i < hi; i = bits_next(L->rbits, i + 1, hi)) {
        int64_t c = row + (i - lo);
        if (route_cdg_has(s->seenfr, c))
            return 1;
        if (!route_cdg_has(s->seenbr, c) && L->labr[c] >= lb) {
            int64_t a = sh->rev[c];
            mark(s->seenbr, c);
            mark(s->seenb, a);
            s->queue[(*tail)++] = a;
        }
    }
    return 0;
}

/* One step of the forward search from y (label ≤ ub), its queue growing
 * down from the end of s->queue; 1 on meeting the backward search. The
 * successors of a = u→v are the arcs of v's row: every check is by arc. */
static int step_forward(const route_cdg_shape *sh, const route_cdg_layer *L, route_cdg_search *s,
                        int64_t *head, int64_t *tail, int64_t ub)
{
    const moore_graph *g = sh->g;
    int64_t a = s->queue[(*head)--];
    int32_t v = g->adj[a];
    int64_t row = g->offs[v], lo = sh->base[a], hi = lo + (g->offs[v + 1] - row);
    for (int64_t i = bits_next(L->bits, lo, hi); i < hi; i = bits_next(L->bits, i + 1, hi)) {
        int64_t b = row + (i - lo);
        if (route_cdg_has(s->seenb, b))
            return 1;
        if (!route_cdg_has(s->seenf, b) && L->lab[b] <= ub) {
            mark(s->seenf, b);
            mark(s->seenfr, sh->rev[b]);
            s->queue[(*tail)--] = b;
        }
    }
    return 0;
}

/* Searches backward from x and forward from y, one arc at a time from the
 * search with the shorter queue (7% fewer arcs queued than taking turns, on
 * slimfly:q=29 ksp:k=8, where most searches prove a cycle). 1 when
 * they meet (x→y closes a cycle); else 0 with the first search to finish:
 * *backward set when it was the backward one, its set of arcs then
 * s->queue[0 .. s->nb−1], else the forward one's, s->queue[arcs − nf + 1 ..
 * arcs]. Each search stays inside the window lab[y]..lab[x]. An arc is
 * queued once by at most one search (the other meets it instead), so the
 * two queues fit in one array of arcs + 1. */
static int search_both(const route_cdg_shape *sh, const route_cdg_layer *L, route_cdg_search *s,
                       int64_t x, int64_t y, int *backward)
{
    int64_t lb = L->lab[y], ub = L->lab[x], n = sh->arcs;
    int64_t bhead = 0, btail = 0, fhead = n, ftail = n;
    s->queue[btail++] = x;
    mark(s->seenb, x);
    mark(s->seenbr, sh->rev[x]);
    s->queue[ftail--] = y;
    mark(s->seenf, y);
    mark(s->seenfr, sh->rev[y]);
    int cycle = 0;
    while (!cycle) {
        if (bhead == btail || fhead == ftail) {
            *backward = bhead == btail;
            break;
        }
        if (btail - bhead <= fhead - ftail) /* the shorter queue */
            cycle = step_backward(sh, L, s, &bhead, &btail, lb);
        else
            cycle = step_forward(sh, L, s, &fhead, &ftail, ub);
    }
    int64_t words = n / 64 + 1;
    if (btail + (n - ftail) > words) { /* cheaper to wipe */
        memset(s->seenb, 0, (size_t)words * sizeof *s->seenb);
        memset(s->seenbr, 0, (size_t)words * sizeof *s->seenbr);
        memset(s->seenf, 0, (size_t)words * sizeof *s->seenf);
        memset(s->seenfr, 0, (size_t)words * sizeof *s->seenfr);
    } else {
        for (int64_t i = 0; i < btail; i++) {
            unmark(s->seenb, s->queue[i]);
            unmark(s->seenbr, sh->rev[s->queue[i]]);
        }
        for (int64_t i = ftail + 1; i <= n; i++) {
            unmark(s->seenf, s->queue[i]);
            unmark(s->seenfr, sh->rev[s->queue[i]]);
        }
    }
    s->nb = btail;
    s->nf = n - ftail;
    return cycle;
}

/* 1 when switch w is marked and a → (w → tail(x)), that predecessor of x,
 * is a dependency of L (a's head is w). */
static int near_of(const route_cdg_shape *sh, const route_cdg_layer *L, const route_cdg_search *s,
                   int32_t w, int64_t a)
{
    return route_cdg_has(s->near, w) && route_cdg_has(L->bits, route_cdg_bit(sh, a, s->via[w]));
}

/* 1 when a successor z2 of z1 in L leads to a marked predecessor of x. */
static int via_successor(const route_cdg_shape *sh, const route_cdg_layer *L,
                         const route_cdg_search *s, int64_t z1)
{
    const moore_graph *g = sh->g;
    int32_t w = g->adj[z1];
    int64_t row = g->offs[w], lo = sh->base[z1], hi = lo + (g->offs[w + 1] - row);
    for (int64_t i = bits_next(L->bits, lo, hi); i < hi; i = bits_next(L->bits, i + 1, hi)) {
        int64_t z2 = row + (i - lo);
        if (near_of(sh, L, s, g->adj[z2], z2))
            return 1;
    }
    return 0;
}

/* Whether y reaches x through at most three dependencies of L, i.e. x → y
 * closes a cycle of at most five links. A dependency's links are
 * consecutive in the switch graph, so such a path y → z1 → z2 → z3 → x runs
 * z1 out of y's head and z3 into x's tail: the switches w with w → tail(x)
 * a predecessor of x are marked (s->near, that arc in s->via), and y's
 * successors and theirs are checked against the marks. This costs the two
 * arcs' runs and y's successors' runs, where the searches below queue
 * hundreds of arcs to prove the same cycle: on slimfly:q=29 ksp:k=8, 95% of
 * the cycles proved have at most five links (most five: Slim Fly's
 * switch graph has few triangles and 4-cycles). Not inlined, so that
 * route_cdg_add stays small where the look is off. */
static __attribute__((noinline)) int short_cycle(const route_cdg_shape *sh,
                                                 const route_cdg_layer *L, route_cdg_search *s,
                                                 int64_t x, int64_t y)
{
    const moore_graph *g = sh->g;
    int32_t tx = sh->tail[x], hy = g->adj[y];
    int64_t xrow = g->offs[tx], xlo = sh->rbase[x], xhi = xlo + (g->offs[tx + 1] - xrow);
    for (int64_t i = bits_next(L->rbits, xlo, xhi); i < xhi; i = bits_next(L->rbits, i + 1, xhi)) {
        int64_t c = xrow + (i - xlo); /* tx → w, the reverse of predecessor w → tx */
        mark(s->near, g->adj[c]);
        s->via[g->adj[c]] = sh->rev[c];
    }
    int found = near_of(sh, L, s, hy, y); /* y → (hy → tx) → x */
    int64_t row = g->offs[hy], lo = sh->base[y], hi = lo + (g->offs[hy + 1] - row);
    for (int64_t i = bits_next(L->bits, lo, hi); i < hi && !found;
         i = bits_next(L->bits, i + 1, hi)) {
        int64_t z1 = row + (i - lo);
        found = z1 == x || near_of(sh, L, s, g->adj[z1], z1) || via_successor(sh, L, s, z1);
    }
    for (int64_t i = bits_next(L->rbits, xlo, xhi); i < xhi; i = bits_next(L->rbits, i + 1, xhi))
        unmark(s->near, g->adj[xrow + (i - xlo)]);
    return found;
}

static void set_bits(const route_cdg_shape *sh, route_cdg_layer *L, int64_t x, int64_t y, int on)
{
    int64_t v = sh->g->offs[sh->tail[y]];
    int64_t f = route_cdg_bit(sh, x, y), b = sh->rbase[y] + (sh->rev[x] - v);
    uint64_t mf = (uint64_t)1 << (f & 63), mb = (uint64_t)1 << (b & 63);
    if (on) {
        L->bits[f >> 6] |= mf;
        L->rbits[b >> 6] |= mb;
    } else {
        L->bits[f >> 6] &= ~mf;
        L->rbits[b >> 6] &= ~mb;
    }
}

int route_cdg_add(const route_cdg_shape *sh, route_cdg_layer *L, route_cdg_search *s, int64_t x,
                  int64_t y)
{
    if (L->lab[y] < L->lab[x]) {
        int backward = 0;
        if ((s->short_first && short_cycle(sh, L, s, x, y)) ||
            search_both(sh, L, s, x, y, &backward))
            return 1;
        if (backward) { /* x and all that reaches it, in order, just before y */
            sort_by_label(L, s->queue, s->nb, s->pool);
            move_after(sh, L, s->queue, s->nb, L->prev[y]);
        } else { /* y and all it reaches, in order, just after x */
            int64_t *set = s->queue + sh->arcs - s->nf + 1;
            sort_by_label(L, set, s->nf, s->pool);
            move_after(sh, L, set, s->nf, x);
        }
    }
    set_bits(sh, L, x, y, 1);
    return 0;
}

void route_cdg_remove(const route_cdg_shape *sh, route_cdg_layer *L, int64_t x, int64_t y)
{
    set_bits(sh, L, x, y, 0);
}

/* Kahn's algorithm on the union's forward bits: 1 when acyclic. */
static int kahn(const route_cdg_shape *sh, const uint64_t *bits, int32_t *indeg, int64_t *stack)
{
    const moore_graph *g = sh->g;
    for (int64_t a = 0; a < sh->arcs; a++) {
        int32_t v = g->adj[a];
        int64_t lo = sh->base[a], hi = lo + (g->offs[v + 1] - g->offs[v]);
        for (int64_t i = bits_next(bits, lo, hi); i < hi; i = bits_next(bits, i + 1, hi))
            indeg[g->offs[v] + (i - lo)]++;
    }
    int64_t top = 0, seen = 0;
    for (int64_t a = 0; a < sh->arcs; a++)
        if (!indeg[a])
            stack[top++] = a;
    while (top) {
        int64_t a = stack[--top];
        seen++;
        int32_t v = g->adj[a];
        int64_t lo = sh->base[a], hi = lo + (g->offs[v + 1] - g->offs[v]);
        for (int64_t i = bits_next(bits, lo, hi); i < hi; i = bits_next(bits, i + 1, hi))
            if (--indeg[g->offs[v] + (i - lo)] == 0)
                stack[top++] = g->offs[v] + (i - lo);
    }
    return seen == sh->arcs;
}

int route_cdg_union_acyclic(const route_cdg_shape *sh, const route_cdg_layer *layers,
                            int32_t nlayers, int64_t *deps, moore_error *err)
{
    int64_t words = sh->nbits / 64 + 1;
    uint64_t *all = moore_calloc((size_t)words, sizeof *all, err);
    int32_t *indeg = moore_calloc((size_t)sh->arcs + 1, sizeof *indeg, err);
    int64_t *stack = moore_malloc((size_t)sh->arcs + 1, sizeof *stack, err);
    int acyclic = -1;
    if (all && indeg && stack) {
        int64_t count = 0;
        for (int64_t w = 0; w < words; w++) {
            for (int32_t j = 0; j < nlayers; j++)
                all[w] |= layers[j].bits[w];
            count += __builtin_popcountll(all[w]);
        }
        *deps = count;
        acyclic = kahn(sh, all, indeg, stack);
    }
    free(all);
    free(indeg);
    free(stack);
    return acyclic;
}
