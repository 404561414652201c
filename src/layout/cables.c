/* cables.c — the cable plan: moore_layout_compute (placement, floor, every
 * cable's length and type, rack-pair bundles, cost and power) and the CSV
 * writer of the plan.
 *
 * Every graph link u < v is `multiplicity` cables (HyperX trunking K,
 * moore_graph_multiplicity: the origin's closed-form counts when they
 * describe this graph). Ports
 * are numbered per switch from 0 in the order its cables are listed (links by
 * ascending u, then v), so a switch of network degree d uses ports 0..d·K−1,
 * each once; its server ports follow and are not in the plan. Bundles are
 * counted rack by rack with one dense counter row over the racks (O(links)).
 * Cost and power (docs/layout.md): ports in use = both ends of every
 * switch-to-switch cable + one per server; cost_total = ports × port price +
 * Σ switch-to-switch cable prices + one intra-rack cable per server. */
#include "layout_internal.h"
#include "core/alloc.h"
#include "moore/family.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void moore_layout_free(moore_layout *l)
{
    if (!l)
        return;
    free(l->rack);
    memset(l, 0, sizeof *l);
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
            double len = moore_layout_cable_length(l, m, l->rack[u], l->rack[v]);
            l->cables += k;
            if (l->rack[u] == l->rack[v])
                l->cables_intra_rack += k;
            else
                l->cables_inter_rack += k;
            if (len <= m->electrical_max_m)
                l->cables_electrical += k;
            else
                l->cables_optical += k;
            l->cable_length_total_m += (double)k * len;
            if (len > l->cable_length_max_m)
                l->cable_length_max_m = len;
            l->cost_cables += (double)k * moore_layout_cable_cost(m, len);
        }
}

/* Rack sizes, and the cables between every two racks (rack pairs, largest and
 * mean bundle). */
static int cables_bundles(const moore_graph *g, moore_layout *l, moore_error *err)
{
    int32_t n = g->n, racks = l->racks;
    int64_t *start = moore_calloc((size_t)racks + 1, sizeof *start, err);
    int32_t *member = moore_malloc((size_t)n + 1, sizeof *member, err);
    int64_t *count = moore_calloc((size_t)racks + 1, sizeof *count, err);
    int32_t *touched = moore_malloc((size_t)racks + 1, sizeof *touched, err);
    int rc = start && member && count && touched ? MOORE_OK : moore_alloc_code(err);
    if (!rc) {
        for (int32_t v = 0; v < n; v++)
            start[l->rack[v] + 1]++;
        for (int32_t r = 0; r < racks; r++) {
            if (start[r + 1] > l->switches_per_rack_max)
                l->switches_per_rack_max = (int32_t)start[r + 1];
            start[r + 1] += start[r];
        }
        for (int32_t v = 0; v < n; v++)
            member[start[l->rack[v]] + count[l->rack[v]]++] = v;
        memset(count, 0, (size_t)racks * sizeof *count);
        for (int32_t a = 0; a < racks; a++) {
            int32_t nt = 0;
            for (int64_t i = start[a]; i < start[a + 1]; i++) {
                int32_t v = member[i];
                for (int64_t e = g->offs[v]; e < g->offs[v + 1]; e++) {
                    int32_t b = l->rack[g->adj[e]];
                    if (b <= a)
                        continue;
                    if (count[b] == 0)
                        touched[nt++] = b;
                    count[b] += l->multiplicity;
                }
            }
            for (int32_t t = 0; t < nt; t++) {
                l->rack_pairs_linked++;
                if (count[touched[t]] > l->bundle_max)
                    l->bundle_max = count[touched[t]];
                count[touched[t]] = 0;
            }
        }
        l->bundle_mean = l->rack_pairs_linked
                             ? (double)l->cables_inter_rack / (double)l->rack_pairs_linked
                             : 0.0;
    }
    free(start);
    free(member);
    free(count);
    free(touched);
    return rc;
}

static void cables_price(const moore_graph *g, const moore_cost_model *m, moore_layout *l)
{
    l->endpoints = moore_graph_endpoints_total(g);
    l->cables_server = l->endpoints;
    l->cost_server_cables = (double)l->endpoints * moore_layout_cable_cost(m, m->intra_rack_m);
    l->ports = 2 * l->cables + l->endpoints;
    l->cost_switches = (double)l->ports * m->switch_port_cost;
    l->cost_total = l->cost_switches + l->cost_cables + l->cost_server_cables;
    l->power_w = (double)l->ports * m->port_power_w;
    l->cost_per_endpoint = l->endpoints ? l->cost_total / (double)l->endpoints : NAN;
    l->power_per_endpoint_w = l->endpoints ? l->power_w / (double)l->endpoints : NAN;
}

int moore_layout_compute(const moore_graph *g, const moore_cost_model *m,
                         const moore_metric_options *o, moore_layout *out, moore_error *err)
{
    memset(out, 0, sizeof *out);
    out->switches = g->n;
    out->rack = moore_malloc((size_t)g->n + 1, sizeof *out->rack, err);
    if (!out->rack)
        return moore_alloc_code(err);
    if (o && o->progress && g->n > 20000)
        o->progress(o->progress_ctx, "layout (placement)", 0.0);
    out->multiplicity = moore_graph_multiplicity(g);
    int rc = layout_place_full(g, m->switches_per_rack, o ? o->seed : 1, out->rack, &out->racks,
                               &out->placement, err);
    if (!rc) {
        layout_floor_grid(out);
        cables_route(g, m, out);
        rc = cables_bundles(g, out, err);
    }
    if (!rc)
        cables_price(g, m, out);
    if (o && o->progress && g->n > 20000)
        o->progress(o->progress_ctx, "layout (placement)", 1.0);
    if (rc)
        moore_layout_free(out);
    return rc;
}

int moore_layout_write_cables(const moore_graph *g, const moore_layout *l,
                              const moore_cost_model *m, FILE *out, moore_error *err)
{
    int32_t *next_port = moore_calloc((size_t)g->n + 1, sizeof *next_port, err);
    if (!next_port)
        return moore_alloc_code(err);
    int64_t cable = 0;
    fputs("cable,from_switch,from_rack,from_port,to_switch,to_rack,to_port,length_m,type\n", out);
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++) {
            int32_t v = g->adj[e];
            if (v < u)
                continue;
            int32_t ru = l->rack[u], rv = l->rack[v];
            double len = moore_layout_cable_length(l, m, ru, rv);
            const char *type = len <= m->electrical_max_m ? "electrical" : "optical";
            for (int32_t t = 0; t < l->multiplicity; t++)
                fprintf(out, "%lld,%d,%d,%d,%d,%d,%d,%.3f,%s\n", (long long)cable++, (int)u,
                        (int)ru, (int)next_port[u]++, (int)v, (int)rv, (int)next_port[v]++, len,
                        type);
        }
    free(next_port);
    if (ferror(out))
        return moore_error_set(err, MOORE_EIO, "layout: writing the cable plan failed");
    return MOORE_OK;
}
