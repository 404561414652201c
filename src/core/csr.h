/* csr.h — internal: the two walks over a CSR graph that many modules need,
 * written once (src/core/graph.c): finding an arc in a sorted row, and
 * listing every link once as u < v. */
#ifndef MOORE_SRC_CORE_CSR_H
#define MOORE_SRC_CORE_CSR_H

#include "moore/graph.h"

/* CSR position of the arc u→v, or −1 when u and v are not linked. u must be
 * a switch of g. A binary search in u's sorted row without branches on the
 * data (the comparison picks the half with a conditional move): rows are a
 * few dozen entries, and a mispredicted branch per step cost more than the
 * reads (the search was half of listing a path set's dependencies). */
static inline int64_t core_csr_find(const moore_graph *g, int32_t u, int32_t v)
{
    int64_t len = g->offs[u + 1] - g->offs[u];
    const int32_t *a = g->adj + g->offs[u];
    if (len == 0)
        return -1;
    while (len > 1) { /* a[0 .. len−1] holds the last entry ≤ v, if any */
        int64_t half = len / 2;
        a = a[half] <= v ? a + half : a;
        len -= half;
    }
    return *a == v ? (int64_t)(a - g->adj) : -1;
}

/* The links as pairs lu[i] < lv[i], i = 0 .. m − 1, in CSR order (by u, then
 * v): link i is the i-th arc u→v with u < v. Both arrays hold m entries. */
void core_csr_links(const moore_graph *g, int32_t *lu, int32_t *lv);

#endif
