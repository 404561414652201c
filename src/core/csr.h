/* csr.h — internal: the two walks over a CSR graph that many modules need,
 * written once (src/core/graph.c): finding an arc in a sorted row, and
 * listing every link once as u < v. */
#ifndef MOORE_SRC_CORE_CSR_H
#define MOORE_SRC_CORE_CSR_H

#include "moore/graph.h"

/* CSR position of the arc u→v (binary search in u's sorted row), or −1 when
 * u and v are not linked. u must be a switch of g. */
static inline int64_t core_csr_find(const moore_graph *g, int32_t u, int32_t v)
{
    int64_t lo = g->offs[u], hi = g->offs[u + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (g->adj[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->offs[u + 1] && g->adj[lo] == v ? lo : -1;
}

/* The links as pairs lu[i] < lv[i], i = 0 .. m − 1, in CSR order (by u, then
 * v): link i is the i-th arc u→v with u < v. Both arrays hold m entries. */
void core_csr_links(const moore_graph *g, int32_t *lu, int32_t *lv);

#endif
