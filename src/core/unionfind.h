/* unionfind.h — internal: the find of a union–find forest over int32 ids,
 * written once for the modules that group switches or classes (link
 * failures' components, a Clos's pods, the orbits of the oblivious-routing
 * LP). Each keeps its own union, since they root a class differently (by
 * size, at its least member, anywhere). */
#ifndef MOORE_SRC_CORE_UNIONFIND_H
#define MOORE_SRC_CORE_UNIONFIND_H

#include <stdint.h>

/* The root of x's tree, halving the path on the way (each visited entry
 * then points to its grandparent, so a parent never becomes larger than it
 * was: a forest whose parents are ≤ their children stays so). */
static inline int32_t core_uf_find(int32_t *parent, int32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

#endif
