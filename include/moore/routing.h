/* routing.h — routes on a switch graph (docs/routing.md): path sets per switch
 * pair, forwarding tables, deadlock freedom (channel dependency graph and
 * virtual layers), and the throughput a traffic matrix gets when it may only
 * use the routing's paths.
 *
 * Algorithms (names as `moore route --algo` takes them, docs/routing.md):
 *   minimal          one shortest path per pair: at u toward t the smallest
 *                    neighbour v with d(v,t) = d(u,t) − 1 (destination-based,
 *                    so the paths toward t form a tree);
 *   ecmp             all shortest paths: the next-hop set of u toward t is
 *                    {v ∈ N(u) : d(v,t) = d(u,t) − 1}, traffic split evenly
 *                    over it at every hop;
 *   ksp[:k=K]        the K shortest simple paths (K default 8), ties broken by
 *                    the lexicographically smallest switch sequence;
 *   valiant[:samples=S,seed=X]
 *                    the minimal path s→i then i→t for intermediate switches
 *                    i ∉ {s,t}: every i when S = 0, else S distinct i drawn
 *                    per pair from a seeded stream (default S = 8, seed 1);
 *   ugal[:samples=S,seed=X]
 *                    the minimal path plus the Valiant paths; the flow
 *                    computation chooses the split (the best any UGAL rule can
 *                    do on a static traffic matrix).
 * minimal and ecmp are stored as the all-pairs distance rows (2 bytes per
 * pair) and their next hops derived on demand; the others as explicit switch
 * sequences per ordered pair. Every size is checked with moore_memory_guard
 * before it is allocated. */
#ifndef MOORE_ROUTING_H
#define MOORE_ROUTING_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/flow.h"
#include "moore/graph.h"
#include "moore/traffic.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum moore_route_algo {
    MOORE_ROUTE_MINIMAL = 0,
    MOORE_ROUTE_ECMP,
    MOORE_ROUTE_KSP,
    MOORE_ROUTE_VALIANT,
    MOORE_ROUTE_UGAL
} moore_route_algo;

/* The largest K accepted by ksp:k=K. */
#define MOORE_ROUTE_KSP_MAX 1024

typedef struct moore_routing_options {
    moore_route_algo algo;
    int32_t k;              /* ksp: paths per pair */
    int32_t samples;        /* valiant/ugal: intermediates per pair, 0 = every switch */
    uint64_t seed;          /* valiant/ugal: seed of the intermediate sample */
    int threads;            /* 0 = OpenMP default */
    void (*progress)(void *ctx, const char *what, double fraction);
    void *progress_ctx;
    int table_all_destinations; /* tables: every switch as a destination, not
                                 * only those with servers */
    /* Explicit path sets (ksp, valiant, ugal): stop building once time_limit
     * seconds have passed (0: none) or cancelled returns non-zero, polled
     * per source; moore_routing_build then fails (MOORE_EINVAL, "stopped").
     * moore_routed_throughput_spec sets both from its flow options. */
    double time_limit;
    int (*cancelled)(void *ctx);
    void *cancel_ctx;
} moore_routing_options;

/* Parses "minimal", "ecmp", "ksp", "ksp:k=8", "valiant:samples=0",
 * "ugal:samples=4,seed=2" into o (other fields keep their values). Refuses an
 * unknown algorithm, an unknown key and k ≤ 0 or k > MOORE_ROUTE_KSP_MAX.
 * Writes only into the caller's o; O(length of text). */
MOORE_API int moore_routing_parse(const char *text, moore_routing_options *o, moore_error *err);
/* Defaults: ecmp, k = 8, samples = 8, seed = 1. Fills the caller's struct; O(1). */
MOORE_API void moore_routing_options_default(moore_routing_options *o);

typedef struct moore_routing {
    int32_t n;
    moore_route_algo algo;
    char name[48];          /* canonical text: "ecmp", "ksp:k=8", "valiant:samples=8,seed=1" */
    uint16_t *dist;         /* n·n hop distances, row s = distances from s */
    /* Explicit paths (ksp, valiant, ugal; NULL for minimal and ecmp): the
     * paths of pair (s,t) are path_offs[pair_offs[s·n+t] .. pair_offs[s·n+t+1]]
     * and path i is the switch sequence hops[path_offs[i] .. path_offs[i+1]−1]
     * from s to t. Pairs s = t have no paths. */
    int64_t *pair_offs;
    int64_t *path_offs;
    int32_t *hops;
    int64_t paths;          /* explicit paths stored */
    const char *stopped;    /* set while a build stops early (routing.c); a routing
                             * handed out always has NULL */
} moore_routing;

/* Computes the routing of g. Refuses a disconnected graph (naming a pair with
 * no path), a distance above 65534, and a path set that would not fit in
 * memory, before allocating it. *out is a new routing the caller frees with
 * moore_routing_free (NULL is fine); NULL on error. Borrows g (r keeps no
 * pointer to it). Every algorithm first runs one BFS per switch: O(n·(n + m))
 * time, O(n²) memory (dist). ksp adds about the hops of the k·n² paths it lists
 * (pruned DFS); valiant/ugal S paths per pair of two minimal halves each (S =
 * samples, or n − 2 when 0), so O(n²·S·diameter) time and memory. Sources run
 * in parallel. */
MOORE_API int moore_routing_build(const moore_graph *g, const moore_routing_options *o,
                                  moore_routing **out, moore_error *err);
/* Frees r and its arrays. NULL is fine. O(1). */
MOORE_API void moore_routing_free(moore_routing *r);

/* Next hops of u toward t (u ≠ t) into nh (room for deg(u)), with the split
 * weights into w (may be NULL): the forwarding table's entry. ECMP even
 * split, minimal one hop; for explicit path sets the loop-free
 * destination-based table (docs/routing.md): of the share of the paths
 * toward t through u (each pair's paths weighted equally) that leaves u by
 * each hop, the hops v with (d(v,t), v) < (d(u,t), u), renormalised (the
 * minimal hop when none is). Returns the count. For explicit path sets this
 * scans the paths toward t, so whole tables are better written with
 * moore_routing_write_tables. nh and w are caller-owned; no allocation.
 * O(deg u) for minimal/ECMP, O(stored hops of the paths toward t) otherwise. */
MOORE_API int32_t moore_routing_next_hops(const moore_graph *g, const moore_routing *r, int32_t u,
                                          int32_t t, int32_t *nh, double *w);

typedef struct moore_routing_stats {
    int64_t pairs;          /* ordered pairs s ≠ t */
    double paths_total;     /* every path of every pair (ECMP: all shortest paths) */
    double paths_per_pair_min, paths_per_pair_mean, paths_per_pair_max;
    double hops_mean;       /* mean hops over all paths */
    int32_t hops_max;
    int64_t table_entries_max;   /* largest switch: Σ_t |next hops of u toward t|
                                  * (the forwarding table's, every t) */
    int64_t table_entries_total;
} moore_routing_stats;

/* Fills the caller's *out (no heap inside), zeroed first. O(n·(n + m)) for
 * minimal/ECMP (per destination, in distance order), O(n² + stored hops) for
 * explicit path sets; O(n) scratch per thread. */
MOORE_API int moore_routing_stats_compute(const moore_graph *g, const moore_routing *r,
                                          moore_routing_stats *out, moore_error *err);

/* ---- deadlock freedom (cdg.c) ---- */

typedef struct moore_deadlock_result {
    int cdg_acyclic;        /* the channel dependency graph of all paths is acyclic */
    int32_t layers;         /* virtual layers of the greedy layering */
    int64_t dependencies;   /* distinct arcs of the channel dependency graph */
    /* Layer of each unit: per explicit path (index as in path_offs) for ksp,
     * valiant and ugal; per destination switch for minimal and ecmp (all
     * paths toward t share t's layer). */
    int32_t *layer;
    int64_t units;
} moore_deadlock_result;

/* Builds the channel dependency graph (a vertex per directed link, an arc
 * a→b when a path uses b right after a), says whether it is acyclic, and
 * assigns units (paths, or destinations for minimal/ecmp) greedily in order to
 * the first virtual layer whose dependency graph stays acyclic. Fills the
 * caller's *out (layer on the heap): release it with
 * moore_deadlock_result_clear; on error layer is NULL. Memory: 3·Σ_v deg(v)²
 * bits per layer plus 24 bytes per directed link. Time: each unit's
 * dependencies once per layer tried, plus a two-way search per new dependency
 * bounded by the smaller of the two sets it visits; one thread places the
 * units while the other o->threads list the next ones' dependencies, with the
 * same result for any thread count. */
MOORE_API int moore_routing_deadlock(const moore_graph *g, const moore_routing *r,
                                     const moore_routing_options *o, moore_deadlock_result *out,
                                     moore_error *err);
/* Frees d->layer and sets it to NULL (NULL d is fine); O(1). */
MOORE_API void moore_deadlock_result_clear(moore_deadlock_result *d);

/* ---- the whole of `moore route` (report.c) ---- */

/* Builds the routing of g for o, its statistics and, when `layers`, its
 * deadlock report; writes the paths to `paths` (the CSV, or netbench's cache
 * when `netbench`) and the forwarding tables to `tables` when they are not
 * NULL (moore_routing_write_paths/_netbench/_tables; the tables' layer column
 * is the greedy layering of their destinations when `layers`, o's
 * table_all_destinations lists every destination); and
 * adds to rep what `moore route --json` prints: algo, switches, pairs,
 * paths_total, paths_per_pair_min/_mean/_max, hops_mean, hops_max,
 * table_entries_max/_total, cdg_acyclic, cdg_dependencies, layers (null
 * without `layers`) and vcs_hop_index. On success *keep (when keep is not
 * NULL) receives the routing (the caller frees it), else it is freed. One
 * call for the CLI and the Python binding. On error *keep is left unset.
 * Cost: moore_routing_build, moore_routing_stats_compute and, when asked,
 * moore_routing_deadlock and the writers. */
MOORE_API int moore_routing_run(const moore_graph *g, const moore_routing_options *o, int layers,
                                const char *paths, int netbench, const char *tables,
                                moore_report *rep, moore_routing **keep, moore_error *err);

/* ---- files (export.c) ---- */

/* CSV "src,dst,rank,layer,path" (path: switch ids joined by '-'; ECMP lists
 * every shortest path). layers may be NULL (layer column then 0). Borrows its
 * arguments; writes path atomically (moore_atomic_open). O(size of the output). */
MOORE_API int moore_routing_write_paths(const moore_graph *g, const moore_routing *r,
                                        const moore_deadlock_result *layers, const char *path,
                                        moore_error *err);
/* netbench's k-shortest-path cache (docs/routing.md): "k=K" (K = the most
 * paths of any pair), then "rank,src,dst,path" lines, ranks from 1, for every
 * ordered pair of switches with servers (all switches when the graph has no
 * endpoints). netbench reads it as paths-cache/<SHA-1 of its .topology
 * file>.kspaths. Writes atomically; O(size of the output). */
MOORE_API int moore_routing_write_netbench(const moore_graph *g, const moore_routing *r,
                                           const char *path, moore_error *err);
/* The forwarding tables (docs/routing.md) as CSV
 * "switch,dst_first,dst_last,layer,ports,weights": per switch, one row per run
 * of consecutive destinations (those with servers, every switch when
 * all_destinations or the graph has no servers; never the switch itself)
 * sharing one entry. ports: the switch's ports toward its next hops as the
 * cable plan numbers them (moore_layout_write_cables), space-separated;
 * weights: integer weights in the same order (all 1 for an even split);
 * layer: dest_layer[t], the destination's virtual layer (empty when
 * dest_layer is NULL). Every table is destination-based and loop-free. Writes
 * atomically; builds every switch's table first: O(n·(n + m)) for minimal/ECMP,
 * O(n² + stored hops) for explicit path sets, plus the output. */
MOORE_API int moore_routing_write_tables(const moore_graph *g, const moore_routing *r,
                                         const int32_t *dest_layer, int all_destinations,
                                         const char *path, moore_error *err);

/* ---- throughput under a routing (routed_flow.c) ---- */

/* θ of traffic t when every demand may only use the routing's paths: for
 * minimal and ecmp the fixed split (θ = 1 / the most loaded arc, exact); for
 * the others the path-restricted maximum concurrent flow, exact by Clp when
 * `exact` (refused beyond memory) or by Garg–Könemann restricted to the paths
 * with proven lower and upper bounds (o->eps; anytime like moore_flow_approx:
 * o->time_limit, o->cancelled and o->max_phases stop it with the bounds so
 * far, `stopped` set). util_max/util_mean are the arc loads of θ·t. Borrows
 * its inputs; fills the caller's *out (static strings only), zeroed first.
 * Fixed splits: O(n·(n + m)). Path sets: each Garg–Könemann phase costs
 * O(stored hops of the paths of t's pairs); the exact LP is Clp's, one column
 * per path. */
MOORE_API int moore_routed_throughput(const moore_graph *g, const moore_routing *r,
                                      const moore_traffic *t, const moore_flow_options *o,
                                      int exact, moore_flow_result *out, moore_error *err);

/* Convenience for `moore throughput --routing R`: parses R, builds the
 * routing and runs moore_routed_throughput. o->time_limit and o->cancelled
 * count from the start of this call and cover the routing's build too; when
 * they stop it before the paths are complete the result is the trivial
 * proven bracket lower 0 ≤ θ ≤ TUB (`stopped` set, 0 phases). The routing
 * lives only for the call. Cost: moore_routing_build plus moore_routed_throughput. */
MOORE_API int moore_routed_throughput_spec(const moore_graph *g, const char *routing,
                                           const moore_traffic *t, const moore_flow_options *o,
                                           int exact, moore_flow_result *out, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
