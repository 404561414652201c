/* cdg_order.c — one virtual layer's channel dependency graph kept acyclic
 * under insertions (cdg.h has the storage), and the acyclicity of the union
 * of all layers.
 *
 * A dynamic topological order (Pearce & Kelly's, with a one-sided move as in
 * Marchetti-Spaccamela et al. and order-maintenance labels): a new dependency
 * x→y that goes backwards in the order (y before x) can only close a cycle
 * through arcs placed between y and x. Two searches run in turn, one arc
 * each: backward from x and forward from y, both inside that window. They
 * meet exactly when x→y closes a cycle. Otherwise the first one to finish
 * decides the repair: the arcs that reach x move, in their order, to just
 * before y, or the arcs y reaches move to just after x. Either keeps every
 * dependency forward, so a dependency costs about twice the smaller of the
 * two sets. On path sets the forward set is the large one (it held 80% of
 * the layering's time when it ran first and both sets were sorted and
 * merged, as the original algorithm does). The order is a linked list with
 * increasing 64-bit labels (a window around an insertion point is
 * relabelled when its gap runs out), so a move costs the moved set only.
 * Both searches read one run of bits per visited arc (cdg.h). */
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
    if (!sh->base || !sh->rbase || !sh->rev || !sh->tail) {
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
    moore_graph_reverse_arcs(g, sh->rev);
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

int route_cdg_search_init(route_cdg_search *s, int64_t arcs, moore_error *err)
{
    memset(s, 0, sizeof *s);
    s->stamp = moore_calloc((size_t)arcs + 1, sizeof *s->stamp, err);
    s->stack = moore_malloc((size_t)arcs + 1, sizeof *s->stack, err);
    s->fwd = moore_malloc((size_t)arcs + 1, sizeof *s->fwd, err);
    s->bwd = moore_malloc((size_t)arcs + 1, sizeof *s->bwd, err);
    s->pool = moore_malloc((size_t)arcs * 2 + 1, sizeof *s->pool, err);
    if (!s->stamp || !s->stack || !s->fwd || !s->bwd || !s->pool) {
        route_cdg_search_clear(s);
        return core_alloc_code(err);
    }
    return MOORE_OK;
}

void route_cdg_search_clear(route_cdg_search *s)
{
    free(s->stamp);
    free(s->stack);
    free(s->fwd);
    free(s->bwd);
    free(s->pool);
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
    L->next = moore_malloc((size_t)sh->arcs + 2, sizeof *L->next, err);
    L->prev = moore_malloc((size_t)sh->arcs + 2, sizeof *L->prev, err);
    if (!L->bits || !L->rbits || !L->cyc || !L->lab || !L->next || !L->prev) {
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

static void order_init(const route_cdg_shape *sh, route_cdg_layer *L)
{
    int64_t n = sh->arcs, spacing = LABEL_SPAN / (n + 1);
    for (int64_t a = 0; a < n; a++) {
        L->lab[a] = (a + 1) * spacing;
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
        L->lab[a] = at += spacing;
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
        L->lab[set[i]] = L->lab[p] + (i + 1) * spacing;
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

/* One step of the backward search from x (arcs with label ≥ lb, stamp sb):
 * pops an arc and pushes its unseen predecessors; 1 when one of them was seen
 * by the forward search (stamp sf): a cycle. */
static int step_backward(const route_cdg_shape *sh, const route_cdg_layer *L,
                         route_cdg_search *s, int64_t *top, int64_t lb, int32_t sb, int32_t sf)
{
    const moore_graph *g = sh->g;
    int64_t b = s->stack[--*top];
    s->bwd[s->nb++] = b;
    int32_t u = sh->tail[b];
    int64_t lo = sh->rbase[b], hi = lo + (g->offs[u + 1] - g->offs[u]);
    for (int64_t i = bits_next(L->rbits, lo, hi); i < hi; i = bits_next(L->rbits, i + 1, hi)) {
        int64_t a = sh->rev[g->offs[u] + (i - lo)];
        if (s->stamp[a] == sf)
            return 1;
        if (s->stamp[a] != sb && L->lab[a] >= lb) {
            s->stamp[a] = sb;
            s->stack[(*top)++] = a;
        }
    }
    return 0;
}

/* One step of the forward search from y (label ≤ ub, stamp sf), its stack
 * growing down from the end of s->stack; 1 on meeting the backward search. */
static int step_forward(const route_cdg_shape *sh, const route_cdg_layer *L, route_cdg_search *s,
                        int64_t *top, int64_t ub, int32_t sb, int32_t sf)
{
    const moore_graph *g = sh->g;
    int64_t a = s->stack[++*top];
    s->fwd[s->nf++] = a;
    int32_t v = g->adj[a];
    int64_t lo = sh->base[a], hi = lo + (g->offs[v + 1] - g->offs[v]);
    for (int64_t i = bits_next(L->bits, lo, hi); i < hi; i = bits_next(L->bits, i + 1, hi)) {
        int64_t b = g->offs[v] + (i - lo);
        if (s->stamp[b] == sb)
            return 1;
        if (s->stamp[b] != sf && L->lab[b] <= ub) {
            s->stamp[b] = sf;
            s->stack[(*top)--] = b;
        }
    }
    return 0;
}

/* Searches backward from x and forward from y in turn, one arc each. 1 when
 * they meet (x→y closes a cycle); else 0 with the first search to finish:
 * *backward set when it was the backward one (s->bwd complete), else
 * s->fwd is. Each search stays inside the window lab[y]..lab[x]. */
static int search_both(const route_cdg_shape *sh, const route_cdg_layer *L, route_cdg_search *s,
                       int64_t x, int64_t y, int *backward)
{
    if (s->now > INT32_MAX - 2) { /* stamps wrap: start again */
        memset(s->stamp, 0, (size_t)sh->arcs * sizeof *s->stamp);
        s->now = 0;
    }
    int32_t sb = ++s->now, sf = ++s->now;
    int64_t lb = L->lab[y], ub = L->lab[x];
    int64_t btop = 0, ftop = sh->arcs; /* the two stacks share s->stack */
    s->stack[btop++] = x;
    s->stamp[x] = sb;
    s->stack[ftop--] = y;
    s->stamp[y] = sf;
    s->nb = s->nf = 0;
    for (;;) {
        if (btop == 0) {
            *backward = 1;
            return 0;
        }
        if (step_backward(sh, L, s, &btop, lb, sb, sf))
            return 1;
        if (ftop == sh->arcs) {
            *backward = 0;
            return 0;
        }
        if (step_forward(sh, L, s, &ftop, ub, sb, sf))
            return 1;
    }
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
        if (search_both(sh, L, s, x, y, &backward))
            return 1;
        if (backward) { /* x and all that reaches it, in order, just before y */
            sort_by_label(L, s->bwd, s->nb, s->pool);
            move_after(sh, L, s->bwd, s->nb, L->prev[y]);
        } else { /* y and all it reaches, in order, just after x */
            sort_by_label(L, s->fwd, s->nf, s->pool);
            move_after(sh, L, s->fwd, s->nf, x);
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
