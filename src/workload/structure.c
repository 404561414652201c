/* structure.c — the group of every switch that `group` placement fills
 * (docs/ai-traffic.md, "What a group is"): the unit of the family's structure
 * inside which a TP group, and then the consecutive TP groups of one
 * pipeline, should stay.
 *
 * Families whose structure has a natural unit that the layout's racks do not
 * follow are read here from their switch labels (docs/families.md):
 *   megafly "G<g>.leaf<i>"/"G<g>.spine<i>", cascade "G<g>.c<c>.s<s>": the
 *     Dragonfly group g;
 *   polarstar, bundlefly "S<i>.<x>": the super-node i (one copy of the joiner
 *     or Paley graph);
 *   mlfm "LR<L>.<i>": the column i, the LRs at position i of every layer,
 *     which share all h global routers GR(i,·) (two LRs of one layer share
 *     one); "GR<i>.<j>" joins column i (GRs have no servers);
 *   oft "L0.<i>"/"L2.<i>": leaf i of both leaf layers, which share all k L1
 *     routers of line i (two leaves of one layer share one); L1 routers apart;
 *   karyntree "L<l>.<digits>": the two-level pod, the leaves and level-1
 *     switches that agree on every digit but digit 0 (they form K_{k,k});
 *     higher levels apart;
 *   flatbutterfly "r<d0>.<d1>…": a line of dimension 0, k switches that are
 *     all linked to each other.
 * Every other graph takes moore_layout_place's racks at the family default
 * cap (docs/layout.md): Slim Fly rack x, Xpander super-node, Dragonfly group,
 * fat-tree/Clos pod, HyperX/torus lines, a METIS partition otherwise. Labels
 * that do not parse (a graph read from a file) also fall back to the layout. */
#include "core/alloc.h"
#include "workload_internal.h"
#include "moore/layout.h"

#include <stdlib.h>
#include <string.h>

#define WL_LABEL_NUMBERS 16

/* The decimal numbers of a label in order (at most max; -1 when there are
 * more), and the length of its leading letters. */
static int label_numbers(const char *s, int64_t *num, int max, size_t *prefix)
{
    int count = 0;
    *prefix = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
    for (const char *c = s; *c;) {
        if (*c < '0' || *c > '9') {
            c++;
            continue;
        }
        if (count == max)
            return -1;
        int64_t x = 0;
        for (; *c >= '0' && *c <= '9' && x < INT32_MAX; c++)
            x = 10 * x + (*c - '0');
        num[count++] = x;
    }
    return count;
}

/* Σ num[i]·base^(i−from) over i ≥ from: a mixed-radix word without its
 * leading digits (every digit < base, the word < switches). */
static int64_t word_tail(const int64_t *num, int count, int from, int64_t base)
{
    int64_t k = 0;
    for (int i = count - 1; i >= from; i--)
        k = k * base + num[i];
    return k;
}

/* Group keys of the families listed above; 0 when g is not one of them or a
 * label does not follow its convention. Keys are in [0, 2n). */
static int structure_keys(const moore_graph *g, int64_t *key)
{
    static const char *const FAMILIES[] = { "megafly", "cascade", "polarstar", "bundlefly",
                                            "mlfm", "oft", "karyntree", "flatbutterfly" };
    int f = -1;
    for (int i = 0; g->family && i < (int)(sizeof FAMILIES / sizeof *FAMILIES); i++)
        if (strcmp(g->family, FAMILIES[i]) == 0)
            f = i;
    if (f < 0 || !g->labels)
        return 0;
    int64_t base = 1;   /* karyntree, flatbutterfly: the arity, 1 + the largest digit */
    for (int pass = 0; pass < 2; pass++)
        for (int32_t v = 0; v < g->n; v++) {
            int64_t num[WL_LABEL_NUMBERS];
            size_t pre;
            if (!g->labels[v])
                return 0;
            int c = label_numbers(g->labels[v], num, WL_LABEL_NUMBERS, &pre);
            if (c < 1 || (f != 6 && f != 7 && c < 2))
                return 0;
            for (int i = (f == 6); pass == 0 && i < c; i++)
                if (num[i] + 1 > base)
                    base = num[i] + 1;
            if (pass == 0)
                continue;
            if (f <= 3)
                key[v] = num[0];
            else if (f == 4)
                key[v] = strncmp(g->labels[v], "LR", 2) == 0 ? num[1] : num[0];
            else if (f == 5)
                key[v] = num[0] == 1 ? g->n + num[1] : num[1];
            else if (f == 6)
                key[v] = num[0] <= 1 ? word_tail(num, c, 2, base) : g->n + v;
            else
                key[v] = word_tail(num, c, 1, base);
            if (key[v] < 0 || key[v] >= 2 * (int64_t)g->n || (f == 7 && pre != 1))
                return 0;
        }
    return 1;
}

int work_structure(const moore_graph *g, int32_t *group, int32_t *groups, moore_error *err)
{
    int rc = MOORE_OK;
    int32_t n = g->n;
    int64_t *key = moore_malloc((size_t)n + 1, sizeof *key, err);
    int32_t *id = moore_malloc(2 * (size_t)n + 1, sizeof *id, err);
    if (!key || !id) {
        rc = core_alloc_code(err);
        goto done;
    }
    if (!structure_keys(g, key)) {
        rc = moore_layout_place(g, 0, group, groups, err);
        goto done;
    }
    /* number the keys in increasing order */
    for (int64_t k = 0; k < 2 * (int64_t)n; k++)
        id[k] = -1;
    for (int32_t v = 0; v < n; v++)
        id[key[v]] = 0;
    int32_t count = 0;
    for (int64_t k = 0; k < 2 * (int64_t)n; k++)
        if (id[k] == 0)
            id[k] = count++;
    for (int32_t v = 0; v < n; v++)
        group[v] = id[key[v]];
    *groups = count;
done:
    free(key);
    free(id);
    return rc;
}
