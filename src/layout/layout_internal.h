/* layout_internal.h — what the files of src/layout/ share: the placement
 * with its name and seed (place.c), groups into racks by U (racks.c), the
 * floor grid (floor.c), and a cable's bought length and type (plan.c). */
#ifndef MOORE_SRC_LAYOUT_INTERNAL_H
#define MOORE_SRC_LAYOUT_INTERNAL_H

#include "moore/layout.h"

/* moore_layout_place with the METIS seed and the name of the placement used. */
int layout_place_full(const moore_graph *g, int32_t switches_per_rack, uint64_t seed,
                      int32_t *rack, int32_t *racks, const char **placement, moore_error *err);
/* Balanced METIS k-way placement, k = ⌈n/cap⌉, no rack above cap. */
int layout_place_metis(const moore_graph *g, int32_t cap, uint64_t seed, int32_t *rack,
                       int32_t *racks, moore_error *err);

/* Chooses the near-square grid for l->racks racks (l->grid_cols, l->grid_rows). */
void layout_floor_grid(moore_layout *l);

/* Refuses racks, switches or servers a layout cannot stand (who names the
 * model in the message). */
int layout_model_check(const moore_cost_model *m, const char *who, moore_error *err);

/* Fills l->rack, l->unit and the server arrays from l->group (racks.c);
 * sets l->racks, l->endpoints and the rack maxima. On failure the fields
 * filled so far stay for the caller's moore_layout_clear. */
int layout_racks_fill(const moore_graph *g, const moore_cost_model *m, moore_layout *l,
                      moore_error *err);

/* A cable routed between racks a and b: its bought length and whether it is
 * optical (longer than the copper reach once bought). */
double layout_cable_buy(const moore_layout *l, const moore_cost_model *m, int32_t a, int32_t b,
                        int *optical);

#endif
