/* grow.h — growing a fabric through a sequence of server counts: the library
 * side of `moore grow` (docs/growth.md).
 *
 * An architect buys a fabric for S1 servers knowing it must reach S2, S3, ...
 * For every family this plans the configurations reaching each step at the
 * bandwidth asked, by the family's own way of growing (Jellyfish by
 * expansion, Xpander by 2-lifts and switches added to every super-node, the
 * Clos by pods with its cores bought for the last step, Dragonfly by groups
 * wired for the last step, every other family by rebuilding), and between
 * consecutive steps counts the rewiring by diffing the link sets under a
 * stable switch numbering (a switch kept keeps its id): cables kept, removed,
 * added and moved (one end re-plugged), switches, racks and optics bought,
 * and prices each step in the layout's cost model plus a labour price per
 * cable touched. Each step also gets proven uniform-throughput bounds after
 * it and at the worst moment of its rewiring done `batch` cables at a time. */
#ifndef MOORE_GROW_H
#define MOORE_GROW_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MOORE_GROW_MAX_STEPS 32
/* The most switches a step may have: every step's graph is built and bounded
 * several times at O(switches·links) each. */
#define MOORE_GROW_MAX_SWITCHES 20000
#define MOORE_GROW_TOPOLOGY_MAX 480

typedef struct moore_grow_step {
    int64_t target;             /* servers asked for at this step */
    char topology[MOORE_GROW_TOPOLOGY_MAX]; /* the SPEC that rebuilds it, or (clos,
                                   dragonfly) the finished design it is part of */
    char built[96];             /* "" or what part of `topology` is built */
    int32_t switches, racks;
    int64_t endpoints, links, cables;       /* cables: switch-to-switch, as the layout counts */
    int64_t cables_kept, cables_added, cables_removed, cables_moved;
    int64_t cables_bought;      /* added − moved: new cables */
    int64_t cables_touched;     /* added + removed − moved: labour is paid on these */
    int32_t switches_added, racks_added;
    int64_t optics_bought;      /* transceivers of the cables bought (two per optical cable) */
    double cost_equipment, cost_labour, cost_step, cost_total;
    double cost_headroom;       /* clos: price of the cores bought ahead of need (first step) */
    double lower, upper;        /* uniform throughput per server after the step, proven */
    double before_lower, before_upper;  /* the previous step's (NaN at the first step) */
    /* The worst moment of the rewiring (NaN at the first step): a proven
     * lower bound over every moment, and an upper bound on the worst one. */
    double during_lower, during_upper;
    int64_t batches;            /* rewiring batches of `batch` cables */
    int during_exact;           /* 1: every batch's graph was bounded on its own; 0: the
                                   batches were merged into MOORE_GROW_STATES groups */
    int proven;                 /* lower >= the bandwidth asked */
    double seconds;             /* time spent planning and bounding this step */
} moore_grow_step;

/* Moments bounded per step: more batches than this are merged in groups. */
#define MOORE_GROW_STATES 8

typedef struct moore_grow_family {
    char family[32];
    const char *rule;           /* "expand", "lift", "pods", "groups", "rebuild" (static) */
    int reached;                /* 0: note says why the family has no plan */
    char note[MOORE_ERRMSG_LEN];
    int step_count;
    moore_grow_step steps[MOORE_GROW_MAX_STEPS];
    double cost_total;          /* of the whole path */
    int64_t cables_touched;     /* over the whole path, the first build's included */
    double during_lower;        /* worst proven lower bound over all rewirings (NaN: none) */
    int all_proven;             /* every step proven at the bandwidth */
} moore_grow_family;

typedef struct moore_grow_options {
    int32_t radix;              /* switch ports (required) */
    const int64_t *steps;       /* server counts, strictly increasing */
    int step_count;             /* 1 .. MOORE_GROW_MAX_STEPS */
    const char *families;       /* comma list; NULL: moore_grow_default_families() */
    double bandwidth;           /* uniform throughput per server to prove; 0 = any. Default 1 */
    int64_t batch;              /* cables rewired at a time (>= 1). Default 64 */
    uint64_t seed;              /* default 1 */
    double labour;              /* $ per cable touched (plugged, unplugged or moved). Default 50 */
    moore_cost_model model;     /* default moore_cost_model_default; switch_radix is set to radix */
    int threads;                /* 0 = OpenMP default */
    /* Called after each step of each family is done (may be NULL). */
    void (*step_done)(void *ctx, const moore_grow_family *f, int step);
    void *step_ctx;
} moore_grow_options;

MOORE_API void moore_grow_options_default(moore_grow_options *o);

/* "jellyfish,xpander,clos,dragonfly,slimfly,polarfly". Static string. */
MOORE_API const char *moore_grow_default_families(void);

typedef struct moore_grow_result {
    int count;
    moore_grow_family *families;    /* in the order asked */
    int cheapest;               /* index of the cheapest family proven at every step, −1 none */
} moore_grow_result;

/* Checks the options (steps increasing and positive, batch >= 1, families
 * known and with a planner, every step reachable by some family at this
 * radix within MOORE_GROW_MAX_SWITCHES switches: MOORE_EINVAL, one line),
 * then plans every family. Time: per family
 * and step, a few builds of the configuration, its layout, and at most
 * MOORE_GROW_STATES + 2 shortest-path flow bounds, each O(switches·links).
 * The result is owned by the caller (moore_grow_clear). */
MOORE_API int moore_grow_run(const moore_grow_options *o, moore_grow_result *out,
                             moore_error *err);
MOORE_API void moore_grow_clear(moore_grow_result *r);

/* One step measured on its own: the rewiring from `before` (NULL: the first
 * step, where everything is bought and plugged) to `after`, its cost and its
 * throughput bounds, as moore_grow_run measures each step. Switch v of each
 * graph has the stable id uid[v] (NULL: v), ids distinct within a graph: a
 * switch in both graphs has the same id in both, and a link is kept when its
 * two ids are linked in both. o->batch, o->labour, o->model (switch_radix
 * as given) and o->threads are read. Graphs stay the caller's. Time: two
 * layouts, a sort of the links, and at most MOORE_GROW_STATES + 1
 * shortest-path flow bounds of O(switches·links) each. */
MOORE_API int moore_grow_measure(const moore_grow_options *o, const moore_graph *before,
                                 const int32_t *uid_before, const moore_graph *after,
                                 const int32_t *uid_after, moore_grow_step *out,
                                 moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
