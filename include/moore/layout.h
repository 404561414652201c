/* layout.h — physical layout: switches in racks, racks on a floor, the cable
 * plan, and what it costs and draws (docs/layout.md).
 *
 * Placement puts every switch in a rack: by the family's own structure when
 * the graph names a family that has one (Slim Fly rack x = switches (0,x,·)
 * and (1,x,·); Xpander super-node; Dragonfly group; fat-tree/Clos pod, cores
 * apart; HyperX/torus lines of the first dimension), by a balanced METIS k-way
 * partition otherwise. Racks stand in rows on a near-square grid; a cable
 * between two racks is as long as the Manhattan distance of their positions
 * plus an overhead, a cable inside a rack has a fixed short length; cables up
 * to a maximum length are electrical, longer ones optical. Cost = switch ports
 * × port price + Σ cables (fixed + per-metre price of their type); power =
 * ports × watts per port. Every number of the model can be overridden by a
 * JSON file (moore_cost_model_read). */
#ifndef MOORE_LAYOUT_H
#define MOORE_LAYOUT_H

#include "moore/export.h"
#include <stdint.h>
#include <stdio.h>
#include "moore/error.h"
#include "moore/graph.h"
#include "moore/metrics.h"
#include "moore/report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest rack a default placement fills (a 48U rack of 1U switches);
 * family groups up to this size stay whole, larger ones are split. */
#define MOORE_LAYOUT_RACK_DEFAULT 48

typedef struct moore_cost_model {
    double switch_port_cost;        /* $ per switch port in use */
    double electrical_cable_fixed;  /* $ per copper cable */
    double electrical_cable_per_m;  /* $ per metre of copper cable */
    double optical_cable_fixed;     /* $ per optical cable (transceivers) */
    double optical_cable_per_m;     /* $ per metre of fibre */
    double electrical_max_m;        /* longest copper cable; longer ones are optical */
    double rack_width_m;            /* rack pitch along a row */
    double rack_depth_m;            /* rack depth; rows are rack_depth_m + aisle_m apart */
    double aisle_m;
    double cable_overhead_m;        /* added to every inter-rack cable (up, down, slack) */
    double intra_rack_m;            /* length of a cable inside one rack */
    int32_t switches_per_rack;      /* cap; 0 = family default */
    double port_power_w;            /* watts per switch port in use */
} moore_cost_model;

/* The documented defaults (docs/layout.md names the source of each). */
MOORE_API void moore_cost_model_default(moore_cost_model *m);
/* JSON model file; missing keys keep their values; negative/non-numeric refused (MOORE_EINVAL),
 * and so are unknown keys and a fractional switches_per_rack. */
MOORE_API int moore_cost_model_read(const char *path, moore_cost_model *m, moore_error *err);

/* Rack of every switch (rack[v] in 0..*racks-1), family-aware when g->family names a family with a
 * natural grouping (Slim Fly rack x = switches (0,x,.) and (1,x,.), Xpander super-node, Dragonfly
 * group, fat-tree/Clos pod, HyperX/torus by dimension), METIS k-way otherwise; a cap
 * switches_per_rack > 0 splits groups that are larger. switches_per_rack = 0 uses
 * MOORE_LAYOUT_RACK_DEFAULT for family groups and min(that, ⌈√n⌉) for METIS racks.
 * rack must hold g->n entries; racks are numbered in the family's order (docs/layout.md).
 * METIS runs with seed 1, so the same graph always gets the same racks. */
MOORE_API int moore_layout_place(const moore_graph *g, int32_t switches_per_rack,
                                 int32_t *rack, int32_t *racks, moore_error *err);

/* The full layout of a graph under a model. */
typedef struct moore_layout {
    int32_t switches, racks;
    int32_t *rack;                  /* switches entries: the rack of every switch */
    const char *placement;          /* "slimfly", "xpander", "dragonfly", "pod", "dimension",
                                       "metis" or "single" (static string) */
    int32_t grid_cols, grid_rows;   /* rack r stands at column r % cols, row r / cols */
    int32_t multiplicity;           /* cables per graph link (HyperX trunking K), >= 1 */
    int32_t switches_per_rack_max;
    int64_t cables, cables_intra_rack, cables_inter_rack, cables_electrical, cables_optical;
    double cable_length_total_m, cable_length_max_m;
    int64_t rack_pairs_linked, bundle_max;  /* rack pairs joined by >= 1 cable; most in one */
    double bundle_mean;                     /* inter-rack cables / rack_pairs_linked */
    int64_t cables_server;          /* server-to-switch cables, inside the rack (not in cables) */
    int64_t ports;                  /* switch ports in use: network cables' ends + servers */
    int64_t endpoints;
    double cost_switches, cost_cables, cost_server_cables, cost_total, cost_per_endpoint;
    double power_w, power_per_endpoint_w;
} moore_layout;

/* Places (with m->switches_per_rack), lays out the floor, routes and prices
 * every cable. o supplies the METIS seed and a progress callback (NULL: seed 1).
 * Multiplicity comes from the family's closed-form counts when they match g. */
MOORE_API int moore_layout_compute(const moore_graph *g, const moore_cost_model *m,
                                   const moore_metric_options *o, moore_layout *out,
                                   moore_error *err);
MOORE_API void moore_layout_free(moore_layout *l);

/* Length in metres of a cable between racks a and b (a == b: inside a rack). */
MOORE_API double moore_layout_cable_length(const moore_layout *l, const moore_cost_model *m,
                                           int32_t a, int32_t b);
/* Price of one cable of that length (electrical up to m->electrical_max_m). */
MOORE_API double moore_layout_cable_cost(const moore_cost_model *m, double length_m);

/* The cable plan as CSV: header
 * cable,from_switch,from_rack,from_port,to_switch,to_rack,to_port,length_m,type
 * then one row per switch-to-switch cable (multiplicity rows per link); ports
 * are numbered per switch from 0 in the order its cables appear. */
MOORE_API int moore_layout_write_cables(const moore_graph *g, const moore_layout *l,
                                        const moore_cost_model *m, FILE *out, moore_error *err);

/* Adds the layout keys (docs/layout.md) to a report. */
MOORE_API int moore_layout_report(const moore_layout *l, moore_report *r, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
