/* spectrum.c — the spectrum of a built topology (moore_spectrum_compute):
 * the solvers of src/linalg/ plus the one closed form only the families can
 * recognise, a torus by its origin and its links (grid.h). It sits with the
 * families because the expander searches (lift.c, xpander.c) need it and
 * the metrics above read it (the "spectral" group, src/metrics/spectrum.c). */
#include "moore/spectrum.h"
#include "families/grid.h"
#include "linalg/linalg.h"

#include <string.h>

/* The dims of torus:dims=AxB... when g carries that origin and has exactly
 * the links of that torus (grid.h; a file's header alone is not trusted). */
static int torus_dims(const moore_graph *g, linalg_cycles *c)
{
    moore_grid grid;
    if (!g->family || strcmp(g->family, "torus") != 0 || !fam_grid_of_graph(g, &grid) ||
        grid.nd > LINALG_MAX_CYCLES)
        return 0;
    c->nd = grid.nd;
    for (int i = 0; i < grid.nd; i++)
        c->dim[i] = grid.dim[i];
    return 1;
}

int moore_spectrum_compute(const moore_graph *g, const moore_metric_options *o,
                           moore_eig_method method, moore_spectrum *out, moore_error *err)
{
    linalg_cycles torus;
    return linalg_spectrum(g, o, method, torus_dims(g, &torus) ? &torus : NULL, out, err);
}
