/* cables.c — moore_layout_compute: placement groups, racks by U, floor,
 * every cable's length and type, group-pair bundles, cost and power (the CSV
 * writers are in plan.c).
 *
 * Every graph link u < v is `multiplicity` cables (HyperX trunking K,
 * moore_graph_multiplicity: the origin's closed-form counts when they
 * describe this graph). Ports
 * are numbered per switch from 0 in the order its cables are listed (links by
 * ascending u, then v), so a switch of network degree d uses ports 0..d·K−1,
 * each once; its server ports follow. Bundles are counted group by group with
 * one dense counter row over the groups (O(links)). Cost and power
 * (docs/layout.md): every switch is a chassis of chassis_radix ports (the
 * model's switch_radix, or the most ports any switch uses), priced whole;
 * every cable, server cables included, is priced at its bought length, and
 * an optical one has a transceiver at each end; power = ports in use ×
 * watts per port + transceivers × their watts. */
#include "layout_internal.h"
#include "core/alloc.h"
#include "moore/family.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void moore_layout_clear(moore_layout *l)
{
    if (!l)
        return;
    free(l->rack);
    free(l->group);
    free(l->unit);
    free(l->server_offs);
    free(l->server_rack);
    free(l->server_unit);
    memset(l, 0, sizeof *l);
}

/* A cable's price without its transceivers (priced in cost_optics). */
static double cables_price_one(const moore_cost_model *m, double buy, int optical)
{
    return moore_layout_cable_cost(m, buy) - (optical ? 2.0 * m->transceiver_cost : 0.0);
}

/* Lengths, types and prices of the switch-to-switch cables. */
static void cables_route(const moore_graph *g, const moore_cost_model *m, moore_layout *l)
{
    int64_t k = l->multiplicity;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++) {
            int32_t v = g->adj[e];
            if (v < u)
                continue;
            int optical;
            double len = moore_layout_cable_length(l, m, l->rack[u], l->rack[v]);
            double buy = layout_cable_buy(l, m, l->rack[u], l->rack[v], &optical);
            l->cables += k;
            if (l->rack[u] == l->rack[v])
                l->cables_intra_rack += k;
            else
                l->cables_inter_rack += k;
            if (optical) {
                l->cables_optical += k;
                l->transceivers += 2 * k;
            } else {
                l->cables_electrical += k;
            }
            l->cable_length_total_m += (double)k * len;
            if (len > l->cable_length_max_m)
                l->cable_length_max_m = len;
            l->cost_cables += (double)k * cables_price_one(m, buy, optical);
        }
}

/* Every server's cable to its switch. */
static void cables_servers(const moore_graph *g, const moore_cost_model *m, moore_layout *l)
{
    for (int32_t v = 0; v < g->n; v++)
        for (int64_t s = l->server_offs[v]; s < l->server_offs[v + 1]; s++) {
            int optical;
            double buy = layout_cable_buy(l, m, l->rack[v], l->server_rack[s], &optical);
            l->cables_server++;
            l->cables_server_optical += optical;
            l->transceivers += 2 * optical;
            l->cost_server_cables += cables_price_one(m, buy, optical);
        }
}

/* Group sizes, and the cables between every two groups (group pairs, largest
 * and mean bundle). */
static int cables_bundles(const moore_graph *g, moore_layout *l, moore_error *err)
{
    int32_t n = g->n, racks = l->groups;
    int64_t *start = moore_calloc((size_t)racks + 1, sizeof *start, err);
    int32_t *member = moore_malloc((size_t)n + 1, sizeof *member, err);
    int64_t *count = moore_calloc((size_t)racks + 1, sizeof *count, err);
    int32_t *touched = moore_malloc((size_t)racks + 1, sizeof *touched, err);
    int rc = start && member && count && touched ? MOORE_OK : core_alloc_code(err);
    if (!rc) {
        for (int32_t v = 0; v < n; v++)
            start[l->group[v] + 1]++;
        for (int32_t r = 0; r < racks; r++) {
            if (start[r + 1] > l->switches_per_group_max)
                l->switches_per_group_max = (int32_t)start[r + 1];
            start[r + 1] += start[r];
        }
        for (int32_t v = 0; v < n; v++)
            member[start[l->group[v]] + count[l->group[v]]++] = v;
        memset(count, 0, (size_t)racks * sizeof *count);
        for (int32_t a = 0; a < racks; a++) {
            int32_t nt = 0;
            for (int64_t i = start[a]; i < start[a + 1]; i++) {
                int32_t v = member[i];
                for (int64_t e = g->offs[v]; e < g->offs[v + 1]; e++) {
                    int32_t b = l->group[g->adj[e]];
                    if (b <= a)
                        continue;
                    if (count[b] == 0)
                        touched[nt++] = b;
                    count[b] += l->multiplicity;
                }
            }
            for (int32_t t = 0; t < nt; t++) {
                l->group_pairs_linked++;
                if (count[touched[t]] > l->bundle_max)
                    l->bundle_max = count[touched[t]];
                count[touched[t]] = 0;
            }
        }
        int64_t between = 0;
        for (int32_t v = 0; v < n; v++)
            for (int64_t e = g->offs[v]; e < g->offs[v + 1]; e++)
                between += l->group[g->adj[e]] > l->group[v];
        l->bundle_mean = l->group_pairs_linked ? (double)(between * l->multiplicity) /
                                                     (double)l->group_pairs_linked
                                               : 0.0;
    }
    free(start);
    free(member);
    free(count);
    free(touched);
    return rc;
}

/* The most ports any switch uses: network cables' ends and servers. */
static int32_t cables_ports_max(const moore_graph *g, int32_t multiplicity)
{
    int64_t most = 0;
    for (int32_t v = 0; v < g->n; v++) {
        int64_t used = (g->offs[v + 1] - g->offs[v]) * multiplicity + g->endpoints[v];
        if (used > most)
            most = used;
    }
    return most > INT32_MAX ? INT32_MAX : (int32_t)most;
}

static void cables_price(const moore_graph *g, const moore_cost_model *m, moore_layout *l)
{
    int32_t used = cables_ports_max(g, l->multiplicity);
    l->chassis_radix = m->switch_radix > used ? m->switch_radix : used;
    l->ports = 2 * l->cables + l->endpoints;
    l->cost_switches = (double)g->n * (m->switch_cost + m->switch_port_cost * l->chassis_radix);
    l->cost_optics = (double)l->transceivers * m->transceiver_cost;
    l->cost_total = l->cost_switches + l->cost_cables + l->cost_server_cables + l->cost_optics;
    l->power_w = (double)l->ports * m->port_power_w +
                 (double)l->transceivers * m->transceiver_power_w;
    l->cost_per_endpoint = l->endpoints ? l->cost_total / (double)l->endpoints : NAN;
    l->power_per_endpoint_w = l->endpoints ? l->power_w / (double)l->endpoints : NAN;
}

int moore_layout_compute(const moore_graph *g, const moore_cost_model *m,
                         const moore_metric_options *o, moore_layout *out, moore_error *err)
{
    int rc = MOORE_OK;
    memset(out, 0, sizeof *out);
    out->switches = g->n;
    out->rack = moore_malloc((size_t)g->n + 1, sizeof *out->rack, err);
    out->group = moore_malloc((size_t)g->n + 1, sizeof *out->group, err);
    if (!out->rack || !out->group) {
        rc = core_alloc_code(err);
        goto done;
    }
    if (o && o->progress && g->n > 20000)
        o->progress(o->progress_ctx, "layout (placement)", 0.0);
    out->multiplicity = moore_graph_multiplicity(g);
    rc = layout_model_check(m, "layout", err);
    if (!rc)
        rc = layout_place_full(g, m->switches_per_rack, o ? o->seed : 1, out->group,
                               &out->groups, &out->placement, err);
    if (!rc)
        rc = layout_racks_fill(g, m, out, err);
    if (!rc) {
        layout_floor_grid(out);
        cables_route(g, m, out);
        cables_servers(g, m, out);
        rc = cables_bundles(g, out, err);
    }
    if (!rc)
        cables_price(g, m, out);
    if (o && o->progress && g->n > 20000)
        o->progress(o->progress_ctx, "layout (placement)", 1.0);
done:
    if (rc)
        moore_layout_clear(out);
    return rc;
}
