/* floor.c — racks on the floor and the length of a cable between two racks.
 *
 * R racks stand in rows of C = ⌈√R⌉ racks (⌈R/C⌉ rows): rack r at column
 * r mod C, row ⌊r/C⌋, x = column × rack width, y = row × (rack depth +
 * aisle). A cable between racks a ≠ b is |Δx| + |Δy| + the overhead (up to
 * the tray, down again, slack); inside one rack it has the fixed intra-rack
 * length. Family placements number racks in their natural order (Slim Fly by
 * x, HyperX/torus by the remaining digits, first fastest), so on this grid a
 * HyperX K_S^3 with S² racks stands as an S × S square. */
#include "layout_internal.h"

#include <math.h>

void layout_floor_grid(moore_layout *l)
{
    int32_t cols = (int32_t)ceil(sqrt((double)l->racks));
    while ((int64_t)cols * cols < l->racks)
        cols++;
    while (cols > 1 && (int64_t)(cols - 1) * (cols - 1) >= l->racks)
        cols--;
    l->grid_cols = cols < 1 ? 1 : cols;
    l->grid_rows = (l->racks + l->grid_cols - 1) / l->grid_cols;
}

double moore_layout_cable_length(const moore_layout *l, const moore_cost_model *m, int32_t a,
                                 int32_t b)
{
    if (a == b)
        return m->intra_rack_m;
    int32_t c = l->grid_cols;
    double dx = fabs((double)(a % c - b % c)) * m->rack_width_m;
    double dy = fabs((double)(a / c - b / c)) * (m->rack_depth_m + m->aisle_m);
    return dx + dy + m->cable_overhead_m;
}
