/* ugal.c — UGAL's path set: per pair the minimal path first, then the
 * Valiant paths (valiant.c). UGAL chooses between them at run time from queue
 * lengths; on a static traffic matrix the best any such rule can do is the
 * best split over this set, which is what routed_flow.c computes. */
#include "routing_internal.h"

int route_ugal_build(const moore_graph *g, moore_routing *r, const moore_routing_options *o,
                     moore_error *err)
{
    return route_valiant_build(g, r, o, 1, err);
}
