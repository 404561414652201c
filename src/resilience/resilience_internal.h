/* resilience_internal.h — what the files of src/resilience/ share and the
 * public header (include/moore/resilience.h) does not promise. */
#ifndef MOORE_RESILIENCE_INTERNAL_H
#define MOORE_RESILIENCE_INTERNAL_H

#include "moore/resilience.h"

/* Rack-pair key of every link (-1 inside a rack; link_key may be NULL) and
 * the sorted distinct keys (the bundles, caller frees *keys). */
int resil_bundles(const moore_graph *g, const int32_t *rack, int32_t racks, int64_t *link_key,
                int64_t **keys, int64_t *count, moore_error *err);

/* Server-to-server distance (avg_path_length_endpoints, docs/resilience.md)
 * by one BFS per switch with servers. `apl` is the graph's switch-level
 * average path length: when every switch has the same endpoint count the
 * two are equal and no BFS is run. NaN when the switches with servers cannot
 * all reach each other or fewer than two have servers. Delete once the
 * paths group reports the key. */
int resil_apl_endpoints(const moore_graph *g, double apl, double *out, moore_error *err);

/* The generator of trial t: the seed's stream split by the trial number, so a
 * trial draws the same numbers whichever thread runs it. */
static inline void res_trial_rng(uint64_t seed, int64_t trial, moore_rng *out)
{
    moore_rng base;
    moore_rng_seed(&base, seed);
    moore_rng_split(&base, (uint64_t)trial, out);
}

#endif
