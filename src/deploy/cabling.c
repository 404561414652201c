/* cabling.c — a built fabric against its plan: every switch port whose cable
 * is missing, extra or lands elsewhere than planned. The discovered fabric
 * (ibnetdiscover output) names switches by GUID and node description; a
 * switch matches a planned one by moore's GUID scheme or, for vendor GUIDs,
 * by a node description set to moore's name (docs/deploy.md). */
#include <stdlib.h>
#include <string.h>
#include "deploy_internal.h"
#include "core/alloc.h"

/* The planned switch of discovered switch x, or -1. */
static int32_t match(const moore_ib_fabric *plan, const moore_ib_fabric *found, int32_t x)
{
    uint64_t g = found->guid[x];
    if (g >= MOORE_IB_GUID_SWITCH && ((g - MOORE_IB_GUID_SWITCH) & 0xff) == 0 &&
        ((g - MOORE_IB_GUID_SWITCH) >> 8) < (uint64_t)plan->switches)
        return (int32_t)((g - MOORE_IB_GUID_SWITCH) >> 8);
    for (int32_t s = 0; s < plan->switches; s++)
        if (!strcmp(plan->name[s], found->name[x]))
            return s;
    return -1;
}

/* The end of a cable at port slot i of fabric f, coded as a plan node. */
static void end_of(const moore_ib_fabric *f, const int32_t *to_plan, int64_t i, int32_t *node,
                   int32_t *port)
{
    int32_t v = f->peer[i];
    *port = v < 0 ? -1 : f->peer_port[i];
    if (v < 0)
        *node = -1;
    else if (v >= f->switches)
        *node = -2;
    else
        *node = to_plan ? (to_plan[v] >= 0 ? to_plan[v] : -3) : v;
}

static int add(moore_cable_problem **out, int64_t *n, int64_t *cap, moore_cable_problem p,
               moore_error *err)
{
    if (*n == *cap) {
        int64_t c = *cap ? *cap * 2 : 16;
        moore_cable_problem *q = realloc(*out, (size_t)c * sizeof *q);
        if (!q)
            return moore_error_set(err, MOORE_ENOMEM, "cabling: out of memory");
        *out = q;
        *cap = c;
    }
    (*out)[(*n)++] = p;
    return MOORE_OK;
}

/* Every plan switch's ports against the switch found for it (of_plan, -1 if
 * none; to_plan maps found switches back): each difference appended to
 * *list (count *n, capacity *cap). */
static int cabling_compare(const moore_ib_fabric *plan, const moore_ib_fabric *found,
                           const int32_t *to_plan, const int32_t *of_plan,
                           moore_cable_problem **list, int64_t *n, int64_t *cap,
                           moore_error *err)
{
    int rc = MOORE_OK;
    for (int32_t s = 0; !rc && s < plan->switches; s++) {
        int32_t x = of_plan[s];
        int32_t ports = deploy_ports(plan, s);
        if (x >= 0 && deploy_ports(found, x) > ports)
            ports = deploy_ports(found, x);
        for (int32_t p = 1; !rc && p <= ports; p++) {
            moore_cable_problem c = { MOORE_CABLE_MISWIRED, s, p, -1, -1, -1, -1, -1 };
            if (p <= deploy_ports(plan, s))
                end_of(plan, NULL, plan->port_offs[s] + p - 1, &c.want_node, &c.want_port);
            if (x >= 0 && p <= deploy_ports(found, x)) {
                int64_t i = found->port_offs[x] + p - 1;
                end_of(found, to_plan, i, &c.got_node, &c.got_port);
                c.got_found = found->peer[i];
            }
            if (c.want_node == c.got_node && (c.want_node == -2 || c.want_port == c.got_port))
                continue;
            c.fault = c.got_node == -1    ? MOORE_CABLE_MISSING
                      : c.want_node == -1 ? MOORE_CABLE_EXTRA
                                          : MOORE_CABLE_MISWIRED;
            rc = add(list, n, cap, c, err);
        }
    }
    return rc;
}

int moore_ib_cabling_check(const moore_ib_fabric *plan, const moore_ib_fabric *found,
                           moore_cable_problem **out, int64_t *count, moore_error *err)
{
    moore_cable_problem *list = NULL;
    int64_t n = 0, cap = 0;
    int32_t *to_plan = moore_malloc((size_t)found->switches + 1, sizeof *to_plan, err);
    int32_t *of_plan = moore_malloc((size_t)plan->switches + 1, sizeof *of_plan, err);
    int rc = to_plan && of_plan ? MOORE_OK : core_alloc_code(err);
    if (!rc) {
        for (int32_t s = 0; s < plan->switches; s++)
            of_plan[s] = -1;
        for (int32_t x = 0; x < found->switches; x++) {
            to_plan[x] = match(plan, found, x);
            if (to_plan[x] >= 0)
                of_plan[to_plan[x]] = x;
        }
        rc = cabling_compare(plan, found, to_plan, of_plan, &list, &n, &cap, err);
    }
    if (!rc) { /* *out and *count are left as they were on failure (deploy.h) */
        *out = list;
        *count = n;
        list = NULL;
    }
    free(to_plan);
    free(of_plan);
    free(list);
    return rc;
}
