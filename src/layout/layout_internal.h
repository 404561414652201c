/* layout_internal.h — what the files of src/layout/ share: the placement
 * with its name and seed (place.c), the floor grid (floor.c). */
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

#endif
