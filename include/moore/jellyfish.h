/* jellyfish.h — random regular switch graphs (Jellyfish, Singla et al.
 * NSDI'12) and Jellyfish's incremental expansion (docs/families.md).
 *
 * The family itself is `jellyfish:n=,d=,seed=` in the family table; these are
 * the pieces other code reuses: a uniform-ish random d-regular graph that is
 * simple and connected (Xpander uses it for meta-graphs, the bench for
 * baselines), and the expansion step that `moore expand` runs. Both draw every
 * random choice from moore_rng, so the same seed gives the same graph. */
#ifndef MOORE_JELLYFISH_H
#define MOORE_JELLYFISH_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A random d-regular graph on n switches, simple and connected: a random
 * pairing of the n·d ports, then edge swaps that remove self-loops and
 * repeated links, then swaps between components that join them. For
 * 2d ≥ n the complement of a random (n−1−d)-regular graph is taken instead
 * (dense pairings rarely repair, and such a graph is always connected).
 * Refuses n·d odd, d ≥ n, d < 1, and d = 1 with n > 2 (never connected);
 * gives up with a clear error after a bounded number of restarts. Endpoints
 * are left at zero. *out is a new graph the caller frees with
 * moore_graph_free; NULL on error. Per pairing (at most 50): O(m log m) plus
 * O(d) per repair swap (O(m + bad links) tries), plus O(c·(n + m)) to join c
 * components; O(n·d) memory. */
MOORE_API int moore_jellyfish_random_regular(int32_t n, int32_t d, uint64_t seed, moore_graph **out,
                                   moore_error *err);

/* Adds `add` switches to g one at a time, as Jellyfish grows: each new switch
 * takes ⌊degree/2⌋ random existing links u–v (with u and v not yet its
 * neighbours), removes them and links u and v to itself. degree 0 means the
 * largest degree in g. New switches get the endpoints that keep their radix
 * equal to g's largest (degree + endpoints), at least 0. Connectivity is kept
 * (u–v becomes u–w–v). The result records family "expand". Borrows g; *out
 * is a new graph the caller frees with moore_graph_free; NULL on error.
 * O(add · degree²) to attach, then O(n' + m' log m') to build (n', m' after). */
MOORE_API int moore_jellyfish_expand(const moore_graph *g, int32_t add, int32_t degree, uint64_t seed,
                           moore_graph **out, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
