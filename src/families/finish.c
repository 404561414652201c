/* finish.c — the last step every baseline family shares: turn a builder into
 * a graph, give every switch its endpoints, and name the switches.
 *
 * Kept apart so that the family files hold only their construction rule and
 * their closed forms. A builder calls fam_graph_finish as the last step of
 * its chain and frees its builder at its own end, like any other local. */
#include "families.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int fam_graph_finish(moore_builder **b, int32_t p, moore_family_labeler label, const void *ctx,
                     moore_graph **out, moore_error *err)
{
    moore_graph *g = NULL;
    int rc = moore_builder_finish(*b, &g, err);
    *b = NULL; /* moore_builder_finish frees it on every path */
    if (!rc)
        rc = moore_graph_set_endpoints_uniform(g, p, err);
    for (int32_t v = 0; !rc && label && v < g->n; v++) {
        char buf[64];
        label(ctx, v, buf, sizeof buf);
        rc = moore_graph_set_label(g, v, buf, err);
    }
    if (!rc) {
        *out = g;
        g = NULL;
    }
    moore_graph_free(g);
    return rc;
}

int fam_emit(moore_plan_emit emit, void *ctx, moore_error *err, const char *fmt, ...)
{
    char spec[160];
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(spec, sizeof spec, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= sizeof spec)
        return moore_error_set(err, MOORE_EINTERNAL, "plan: spec '%s…' is too long", spec);
    return emit(ctx, spec, err);
}
