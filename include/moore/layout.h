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
 * to the copper reach of the link speed are electrical, longer ones optical
 * (a transceiver at each end). Groups fill physical racks by rack units, each
 * switch with its servers. Cost = switch chassis (fixed + ports × port price)
 * + Σ cables at their bought length + transceivers; power = ports in use ×
 * watts per port + transceivers. Two models are built in ("400g", the
 * default, and "2014"); every number can be overridden by a JSON file
 * (moore_cost_model_load). */
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

/* The largest placement group a default placement keeps together (a 48U rack
 * of 1U switches); family groups up to this size stay whole, larger ones are
 * split. A group's switches and their servers then fill physical racks by U. */
#define MOORE_LAYOUT_RACK_DEFAULT 48

typedef struct moore_cost_model {
    char name[16];                  /* "400g", "2014", or "custom" after a file changed it */
    double link_gbps;               /* link speed: names the copper and optics below */
    char copper_type[32];           /* what a copper cable is (both ends), e.g. "QSFP-DD DAC" */
    char optics_type[32];           /* the transceiver at each end of an optical cable */
    double switch_cost;             /* $ per switch chassis, whatever its ports */
    double switch_port_cost;        /* $ per chassis port (every port of the chassis) */
    int32_t switch_radix;           /* chassis ports; 0 = the most ports any switch uses */
    double electrical_cable_fixed;  /* $ per copper cable */
    double electrical_cable_per_m;  /* $ per metre of copper cable */
    double transceiver_cost;        /* $ per optical transceiver (two per optical cable) */
    double optical_cable_fixed;     /* $ per fibre cable, transceivers apart */
    double optical_cable_per_m;     /* $ per metre of fibre */
    double electrical_max_m;        /* copper reach at link_gbps; longer cables are optical */
    double rack_width_m;            /* rack pitch along a row */
    double rack_depth_m;            /* rack depth; rows are rack_depth_m + aisle_m apart */
    double aisle_m;
    double cable_overhead_m;        /* added to every inter-rack cable (up, down, slack) */
    double intra_rack_m;            /* length of a cable inside one rack */
    int32_t switches_per_rack;      /* cap on a placement group and a rack; 0 = default */
    int32_t rack_units;             /* U per rack */
    int32_t switch_units;           /* U per switch */
    int32_t server_units;           /* U per server */
    double port_power_w;            /* watts per switch port in use */
    double transceiver_power_w;     /* watts per optical transceiver */
} moore_cost_model;

/* The cost model is plain data in a caller-owned struct (nothing to free);
 * each loader below fills *m, O(1) apart from reading the file.
 * The default model ("400g"; docs/layout.md names the source of each value). */
MOORE_API void moore_cost_model_default(moore_cost_model *m);
/* A built-in model by name: "400g" (a current 400 Gb/s build) or "2014" (the
 * Slim Fly paper's 40 Gb/s prices); unknown names refused (MOORE_EINVAL). */
MOORE_API int moore_cost_model_named(const char *name, moore_cost_model *m, moore_error *err);
/* JSON model file; missing keys keep their values ("base": a built-in name
 * to start from; "link_gbps" of 40/100/200/400/800 sets the copper reach and
 * the cable and optics types of that speed before the file's other keys);
 * negative/non-numeric refused (MOORE_EINVAL), and so are unknown keys and
 * fractional counts. */
MOORE_API int moore_cost_model_read(const char *path, moore_cost_model *m, moore_error *err);
/* A built-in name, else a model file read over the default model. */
MOORE_API int moore_cost_model_load(const char *name_or_path, moore_cost_model *m,
                                    moore_error *err);
/* The length a cable is bought in: the routed length rounded up to the next
 * stock size (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 75, 100 m; above 100 m the
 * next multiple of 50 m). O(1). */
MOORE_API double moore_layout_buy_length(double length_m);

/* Rack of every switch (rack[v] in 0..*racks-1), family-aware when g->family names a family with a
 * natural grouping (Slim Fly rack x = switches (0,x,.) and (1,x,.), Xpander super-node, Dragonfly
 * group, fat-tree/Clos pod, HyperX/torus by dimension), METIS k-way otherwise; a cap
 * switches_per_rack > 0 splits groups that are larger. switches_per_rack = 0 uses
 * MOORE_LAYOUT_RACK_DEFAULT for family groups and min(that, ⌈√n⌉) for METIS racks.
 * rack must hold g->n entries; racks are numbered in the family's order (docs/layout.md).
 * METIS runs with seed 1, so the same graph always gets the same racks.
 * rack is caller-owned. O(n + m) for a family grouping, else a METIS k-way
 * partition (multilevel, near-linear in m). */
MOORE_API int moore_layout_place(const moore_graph *g, int32_t switches_per_rack,
                                 int32_t *rack, int32_t *racks, moore_error *err);

/* The full layout of a graph under a model. Switches are first placed in
 * groups (moore_layout_place: Slim Fly x, Xpander super-node, pod, ...); each
 * group then fills physical racks of rack_units U, every switch followed by its
 * servers (a switch moves to a fresh rack when it and its servers would not
 * fit beside what is there and would fit in an empty one; servers that do not
 * fit continue in the next rack). */
typedef struct moore_layout {
    int32_t switches, racks, groups;
    int32_t *group;                 /* switches entries: placement group of every switch */
    int32_t *rack;                  /* switches entries: physical rack of every switch */
    int32_t *unit;                  /* switches entries: lowest U the switch occupies (1-based) */
    int64_t *server_offs;           /* switches+1 offsets: servers of v are server_offs[v].. */
    int32_t *server_rack, *server_unit; /* per server: rack and lowest U */
    const char *placement;          /* "slimfly", "xpander", "dragonfly", "pod", "dimension",
                                       "metis" or "single" (static string) */
    int32_t grid_cols, grid_rows;   /* rack r stands at column r % cols, row r / cols */
    int32_t multiplicity;           /* cables per graph link (HyperX trunking K), >= 1 */
    int32_t chassis_radix;          /* ports of every switch chassis priced */
    int32_t switches_per_rack_max, switches_per_group_max, rack_units_max;
    int64_t cables, cables_intra_rack, cables_inter_rack, cables_electrical, cables_optical;
    double cable_length_total_m, cable_length_max_m;
    int64_t group_pairs_linked, bundle_max; /* group pairs joined by >= 1 cable; most in one */
    double bundle_mean;                     /* inter-group cables / group_pairs_linked */
    int64_t cables_server, cables_server_optical; /* server-to-switch cables (not in cables) */
    int64_t transceivers;           /* optical transceivers: two per optical cable */
    int64_t ports;                  /* switch ports in use: network cables' ends + servers */
    int64_t endpoints;
    double cost_switches, cost_cables, cost_server_cables, cost_optics, cost_total;
    double cost_per_endpoint, power_w, power_per_endpoint_w;
} moore_layout;

/* Places (with m->switches_per_rack), lays out the floor, routes and prices
 * every cable. o supplies the METIS seed and a progress callback (NULL: seed 1).
 * Multiplicity comes from the family's closed-form counts when they match g.
 * Fills the caller's *out (arrays on the heap): release it with
 * moore_layout_clear; on error it holds nothing to release. Time: the placement
 * (moore_layout_place), then O(n + K·m + servers) for racks, cables and prices;
 * O(n + servers + groups) memory. */
MOORE_API int moore_layout_compute(const moore_graph *g, const moore_cost_model *m,
                                   const moore_metric_options *o, moore_layout *out,
                                   moore_error *err);
/* Frees l's arrays and zeroes it; NULL and a cleared l are fine. O(1). */
MOORE_API void moore_layout_clear(moore_layout *l);

/* Length in metres of a cable between racks a and b (a == b: inside a rack). O(1). */
MOORE_API double moore_layout_cable_length(const moore_layout *l, const moore_cost_model *m,
                                           int32_t a, int32_t b);
/* Price of one cable of that length, its transceivers included (electrical up
 * to m->electrical_max_m). O(1). */
MOORE_API double moore_layout_cable_cost(const moore_cost_model *m, double length_m);

/* The cable plan as CSV (docs/layout.md): header
 * cable,kind,from,from_name,from_rack,from_row,from_col,from_u,from_port,
 * to,to_name,to_rack,to_row,to_col,to_u,to_port,length_m,buy_m,type,from_end,to_end
 * then one row per switch-to-switch cable (multiplicity rows per link, kind
 * "switch"), then one per server cable (kind "server": from its switch's
 * server port to server `to`). Switch ports are numbered from 0 in the order
 * its cables appear, network cables first. Writes to the caller's stream (not
 * closed); O(n + K·m + servers). */
MOORE_API int moore_layout_write_cables(const moore_graph *g, const moore_layout *l,
                                        const moore_cost_model *m, FILE *out, moore_error *err);
/* The bill of materials as CSV: item,type,length_m,count,unit_cost,cost (switches,
 * racks, cables by type and bought length, transceivers); the costs sum to
 * cost_total. Writes to the caller's stream; O((m + servers) · L) for L distinct
 * (type, length) lines, a few dozen. */
MOORE_API int moore_layout_write_bom(const moore_graph *g, const moore_layout *l,
                                     const moore_cost_model *m, FILE *out, moore_error *err);

/* Adds the layout keys (docs/layout.md) to a report (values copied into r). O(1). */
MOORE_API int moore_layout_report(const moore_layout *l, moore_report *r, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
