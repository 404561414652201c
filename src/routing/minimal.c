/* minimal.c — minimal routing: one shortest path per pair, the next hop of u
 * toward t being the smallest neighbour one hop closer to t. Being
 * destination-based, the minimal paths toward t form a BFS tree and the
 * forwarding table needs one entry per destination. The next-hop rule itself
 * is route_minimal_hop (routing_internal.h); this file walks whole paths. */
#include "routing_internal.h"

int32_t route_minimal_path(const moore_graph *g, const moore_routing *r, int32_t s, int32_t t,
                           int32_t *seq)
{
    int32_t len = 0;
    seq[len++] = s;
    for (int32_t u = s; u != t;) {
        u = route_minimal_hop(g, r, u, t);
        seq[len++] = u;
    }
    return len;
}
