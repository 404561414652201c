/* linalg.h — the graph spectrum below the families (spectrum.c), for
 * moore_spectrum_compute (src/families/spectrum.c), which adds what only the
 * families know: that a graph is a torus. Not public API. */
#ifndef MOORE_SRC_LINALG_H
#define MOORE_SRC_LINALG_H

#include "moore/spectrum.h"

#include <stdint.h>

/* Up to LINALG_MAX_CYCLES cycle factors C_d (d = 2: K_2) whose Cartesian
 * product is the graph. */
#define LINALG_MAX_CYCLES 16

typedef struct linalg_cycles {
    int nd;
    int64_t dim[LINALG_MAX_CYCLES];
} linalg_cycles;

/* moore_spectrum_compute (spectrum.h) with the torus closed form taken from
 * torus: g's cycle factors when g is known to be that torus, else NULL (the
 * ring and complete-graph closed forms need no hint). */
int linalg_spectrum(const moore_graph *g, const moore_metric_options *o, moore_eig_method method,
                    const linalg_cycles *torus, moore_spectrum *out, moore_error *err);

#endif
