/* diversity.h — path diversity (docs/analysis.md): how many shortest paths join two
 * switches, and how many edge-disjoint paths (the local edge connectivity
 * λ(s,t), by max-flow with capacity 1 per direction on every link).
 *
 * Shortest-path counts come from BFS with path counting: exact over all
 * ordered pairs up to sp_exact_max_switches switches, else over every target
 * of a seeded sample of sources. Edge-disjoint paths are exact over all
 * unordered pairs up to exact_max_switches switches — n−1 max-flows build
 * Gusfield's flow tree, from which every pair's value is the smallest edge on
 * its tree path — and over a seeded sample of pairs (drawn with replacement,
 * their number stated) above that. */
#ifndef MOORE_DIVERSITY_H
#define MOORE_DIVERSITY_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"
#include "moore/metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Histogram buckets: bucket k−1 counts pairs with exactly k shortest paths
 * for k < MOORE_SP_HIST; the last bucket counts pairs with ≥ MOORE_SP_HIST. */
#define MOORE_SP_HIST 64

typedef struct moore_diversity_options {
    uint64_t seed;                  /* for the samples (default 1) */
    int32_t exact_max_switches;     /* all-pairs disjoint paths up to this n (default 4000) */
    int64_t sample_pairs;           /* sampled pairs above it (default 2000) */
    int32_t sp_exact_max_switches;  /* all BFS sources up to this n (default 5000) */
    int32_t sp_sample_sources;      /* sampled sources above it (default 256) */
} moore_diversity_options;

/* Fills the caller's struct with the defaults above; O(1). */
MOORE_API void moore_diversity_options_default(moore_diversity_options *o);

typedef struct moore_diversity_result {
    int valid;              /* 0 when disconnected or fewer than 2 switches */
    /* Shortest-path multiplicity over ordered pairs (s,t), s ≠ t, s a source.
     * Counts are doubles: a torus's multiplicities overflow 64 bits. */
    double sp_min, sp_mean, sp_max;
    int64_t sp_hist[MOORE_SP_HIST];
    int32_t sp_hist_len;    /* up to the last non-empty bucket */
    int32_t sp_sources;     /* BFS sources used (n when exact) */
    int sp_exact;
    /* Edge-disjoint paths over unordered pairs (exact) or sampled pairs. */
    int32_t dp_min, dp_max;
    double dp_mean;
    int64_t dp_pairs;       /* pairs measured */
    int dp_exact;
} moore_diversity_result;

/* Both measures. Fills the caller's *out (no heap inside; nothing to clear).
 * Time: S BFS path counts, O(S·(n + m)) for S sources (n or sp_sample_sources),
 * plus unit-capacity Dinic max-flows of O(Δ·m) each (Δ the largest degree):
 * n − 1 of them (Gusfield) and O(n²) tree queries when exact, else one per
 * sampled pair. O(n + m) memory per thread. */
MOORE_API int moore_diversity_compute(const moore_graph *g, const moore_diversity_options *o,
                            const moore_metric_options *mo, moore_diversity_result *out,
                            moore_error *err);

/* Edge-disjoint paths between switches s and t (s ≠ t): the max-flow value.
 * One unit-capacity Dinic flow stopped at min(deg s, deg t): O(Δ·m) time, O(m) memory. */
MOORE_API int moore_edge_disjoint_paths(const moore_graph *g, int32_t s, int32_t t, int32_t *paths,
                              moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
