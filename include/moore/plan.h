/* plan.h — what can be built with switches of radix R, and how the families
 * compare there: the library side of `moore plan` and `moore compare`.
 *
 * The planner asks every family of the family table for its feasible
 * configurations (its `plan` function, family.h), prices each one with the
 * family's closed forms (moore_spec_counts: no graph is built), and marks per
 * family the smallest configuration reaching a target endpoint count. Compare
 * builds each marked configuration and runs the metric groups on it. Neither
 * knows any family by name: a family or a metric group added to its table
 * shows up in both by itself. */
#ifndef MOORE_PLAN_H
#define MOORE_PLAN_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/family.h"
#include "moore/metrics.h"
#include "moore/report.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MOORE_SPEC_MAX 160

/* ---- plan ---- */

typedef struct moore_plan_row {
    const moore_family *family;
    char spec[MOORE_SPEC_MAX];
    moore_counts counts;        /* closed forms of spec */
    int64_t cables;             /* links × multiplicity (HyperX trunking) */
    int32_t network_degree;     /* network ports of the busiest switch: degree_max × multiplicity */
    int chosen;                 /* the smallest row of its family reaching the target
                                   (with a bandwidth: the smallest not ruled out) */
    /* Bandwidth search (moore_plan_search) only: */
    int32_t p;                  /* servers per server switch the search set with p=, 0: the
                                   planner's own */
    double bound;               /* closed-form upper bound on uniform throughput per server,
                                   INFINITY when none is known (p = 0) */
    int ruled_out;              /* bound < the bandwidth target: decided without building */
} moore_plan_row;

typedef struct moore_plan {
    int32_t radix;
    int64_t endpoints;          /* the target, 0 for none */
    double bandwidth;           /* the search's target, 0 for none (moore_plan_make) */
    int64_t count, cap;
    moore_plan_row *rows;       /* family table order, then switches, then endpoints */
} moore_plan;

/* Every feasible configuration of the families named in the comma list
 * `families` (NULL: every family with a planner) for switches of the given
 * radix. With endpoints > 0, per family the row with the fewest switches
 * among those reaching that many endpoints is marked chosen (ties: fewer
 * cables, then fewer endpoints). A radix for which no family has any
 * configuration is refused (MOORE_EINVAL), naming the smallest radix that has
 * one. Fills the caller's *out (rows on the heap): release it with
 * moore_plan_clear; on error it holds nothing to release. Builds no graph:
 * the planners' closed forms, O(R log R) for R rows (plus the probe of larger
 * radixes on a refusal). */
MOORE_API int moore_plan_make(int32_t radix, int64_t endpoints, const char *families, moore_plan *out,
                    moore_error *err);
/* Frees p's rows and empties it (NULL is fine); O(1). */
MOORE_API void moore_plan_clear(moore_plan *p);

/* The search space of `compare --bandwidth B` (docs/compare.md): every
 * configuration the planners list for this radix and target, and for each
 * family with the shared key p= also every servers-per-switch value p that
 * fits the radix, sized (through the planner at smaller radixes) to the
 * fewest switches reaching the target; free-size families (Jellyfish,
 * Xpander) so get every network degree too. Only rows reaching `endpoints`
 * (> 0, required) are kept. Each row gets its closed-form bound; rows whose
 * bound is below `bandwidth` are ruled_out. Rows are sorted per family by
 * switches, then cables, then endpoints — the order compare tries them in —
 * and the first row not ruled out is chosen. bandwidth must be > 0. *out as for
 * moore_plan_make. Builds no graph: the planners run at every smaller radix a
 * p= value needs, closed forms only, then O(R log R) for R rows. */
MOORE_API int moore_plan_search(int32_t radix, int64_t endpoints, const char *families,
                                double bandwidth, moore_plan *out, moore_error *err);

/* The chosen row of family f, or NULL when none of its rows reaches the target.
 * This and moore_plan_largest return a pointer into p's rows (valid until
 * moore_plan_clear); O(rows). */
MOORE_API const moore_plan_row *moore_plan_chosen(const moore_plan *p, const moore_family *f);

/* The largest-endpoint row of family f (for "cannot reach" messages), or NULL. */
MOORE_API const moore_plan_row *moore_plan_largest(const moore_plan *p, const moore_family *f);

/* Why family f has no row reaching p's target, as one clause for a message:
 * "no clos configuration with radix 48 reaches 50,000 endpoints: the
 * largest, clos:radix=48,pods=48,tiers=3, has 27,648 (more than 3 tiers is
 * beyond the family)" — the tiers clause when the largest row sets tiers=.
 * Writes into the caller's buf; O(rows). */
MOORE_API void moore_plan_unreached(const moore_plan *p, const moore_family *f, char *buf,
                                    size_t len);

/* 1 when family f is named in the comma list (NULL: every family with a
 * planner); refuses names that are unknown or have no planner. O(length of
 * the list × families). */
MOORE_API int moore_plan_family_selected(const char *families, const moore_family *f, int *selected,
                               moore_error *err);

/* ---- compare ---- */

/* A column of the comparison: the report key, its header (UTF-8; bounds
 * marked "lo"/"hi" or "≤", ratios written a/b), and the metric group that
 * fills it (NULL: compare's own keys, always there). key2 is always NULL
 * (every column holds one value; kept for callers that read it). */
typedef struct moore_compare_column {
    const char *key;
    const char *header;
    const char *key2;
    const char *group;
} moore_compare_column;

/* family, topology, switches, links, cables, endpoints, endpoints_per_switch,
 * diameter, avg_path_length_endpoints, lambda2_ramanujan_ratio, the uniform
 * and worst-case throughput bounds, the routing group's ECMP and KSP-8
 * throughput and ratios, --routed's throughput_routed_*, bisection_bandwidth, cost_total, cost_per_endpoint,
 * power_w, cables_optical; terminated by {NULL}. Keys a run did not measure
 * are absent from its reports (shown as '-' / null). docs/compare.md. A static
 * table; O(1). */
MOORE_API const moore_compare_column *moore_compare_columns(void);

/* Refuses (MOORE_EINVAL, one line naming the group) a metric list for
 * compare that names an unknown group or one without a column ("all"
 * included): compare would compute it and show nothing. O(length of list × columns). */
MOORE_API int moore_compare_check_metrics(const char *list, moore_error *err);

struct moore_compare;

typedef struct moore_compare_options {
    int32_t radix;              /* default 48 */
    int64_t endpoints;          /* default 10,000 */
    const char *families;       /* comma list; NULL: every family with a planner */
    const char *metrics;        /* metric groups; NULL: moore_compare_default_metrics() */
    /* When topology_count > 0, compare exactly these topologies (SPECs or
     * files) instead of the planner's choices. */
    const char *const *topologies;
    int topology_count;
    moore_metric_options metric; /* seed, threads, progress callback */
    /* Uniform-traffic throughput per server each chosen row must be proven
     * to reach (docs/compare.md); 0 = any: each family's fewest-switch row
     * reaching the endpoints, without throughput. Default 1 (full). */
    double bandwidth;
    int max_tries;              /* per family, graphs built before giving up (default 8) */
    /* The Clos baseline is searched first (it is the first row); no other
     * family's row may have more than this times its switches (default 2;
     * 0: no cap). Before the Clos is searched, and when it is not selected
     * or not proven, the cap is this times the closed-form switches of the
     * full-bisection Clos clos:radix=R,endpoints=N,cores=balanced (any tiers):
     * a cap that needs no graph (docs/compare.md). */
    double cap_vs_clos;
    /* Per family, the work of the bounds on built rows before giving up:
     * Σ server switches × 2·links (the shortest-path split's arc visits),
     * summed over the rows tried; a row that would pass it is not built
     * unless it is the family's first. Default 6e9: 8 rows within the cap
     * at 10,000 servers stay below 2.5e9, while at 100,000 it is 2 rows of
     * 8,000 switches and 150,000 links; 0: none. */
    double max_work;
    /* Per family, rows the shortest-path split leaves undecided (TUB ≥ B >
     * split) that get the (1+ε) approximation (8 phases at most) too. Default
     * 0: each run costs seconds to tens of seconds at 1,000 switches. */
    int approx_tries;
    /* Called with each row as soon as it is measured (at a bandwidth the Clos
     * first, then family table order), so a caller can print it; may be NULL. */
    void (*row_done)(void *ctx, const struct moore_compare *c, int row);
    void *row_ctx;
    /* A traffic matrix as `moore throughput --tm` takes it (uniform, worst,
     * permutation, llm:..., alltoall, allreduce:..., a CSV file): every row
     * also gets its (1+0.05) throughput bounds under it, keys tm, throughput,
     * lower, upper, tub, method (moore_flow_report). NULL: none. */
    const char *tm;
    /* The traffic the bandwidth must be proven for (docs/compare.md):
     * NULL or "uniform"; "hose" (every matrix the servers can send: the
     * bounds of moore_flow_hose, keys throughput_hose and
     * throughput_hose_upper); "worst" or any other matrix `moore throughput
     * --tm` takes (its (1+0.05) approximation, at most 8 phases, and TUB). */
    const char *traffic;
    /* Stored results, e.g. a sweep database (sweep.h: moore_sweep_db_lookup
     * with the database as ctx): each row's metric groups (and the --tm task
     * "throughput:eps=0.05:tm=TM") are read through it when it holds them for
     * the row's topology, and measured otherwise. lookup puts task `task` of
     * `topology` into r and sets *found (0: not stored). NULL: measure all.
     * A callback, so that compare does not depend on the sweep module above
     * it (docs/architecture.md). */
    int (*lookup)(void *ctx, const char *topology, const char *task, moore_report *r,
                  int *found, moore_error *err);
    void *lookup_ctx;
    /* Non-zero: every row also gets the uniform throughput under the routing
     * its fabric would run (docs/compare.md "What the routing delivers"):
     * ECMP for a tree (clos, fattree, xgft), and ECMP, KSP-8, Valiant and
     * UGAL for a direct network; keys throughput_routed_<name> (a proven
     * lower bound; ECMP's is exact). Seconds to a minute per routing at
     * 1,000 switches. Default 0. */
    int routed;
} moore_compare_options;

/* Fills the caller's struct with the defaults above; O(1). */
MOORE_API void moore_compare_options_default(moore_compare_options *o);

/* "basic,paths" plus spectral, bisection and layout where the metric
 * table has them. Written into the caller's buf (refused when len is short). */
MOORE_API int moore_compare_default_metrics(char *buf, size_t len, moore_error *err);

typedef struct moore_compare_row {
    char spec[MOORE_SPEC_MAX];
    /* The metric groups' keys, plus compare's own: "topology" (the SPEC
     * that rebuilds it), "family", "params", "switches", "links", "cables"
     * (switch-to-switch cables: links × cables per link), "endpoints",
     * "endpoints_per_switch", "lambda2_ramanujan_ratio". */
    moore_report report;
} moore_compare_row;

typedef struct moore_compare {
    double bandwidth;           /* the target the rows were chosen for (0: any) */
    int by_cost;                /* 1: rows chosen by cost_total (the layout group exists),
                                   0: by fewest switches, then cables */
    int count;
    moore_compare_row *rows;
    int note_count;
    char (*notes)[MOORE_ERRMSG_LEN]; /* families left out, and why */
    int db_groups_read;         /* with a database: row × group results read from it */
    int db_groups_measured;     /* ... and measured because it lacked them */
} moore_compare;

/* Plans (unless topologies are given), builds each chosen configuration,
 * checks it against its closed forms, and measures it. Families that cannot
 * reach the target at this radix are left out with a note. Calls
 * o->metric.progress once per topology before its work starts. Fills the
 * caller's *out (rows, reports, notes on the heap): release it with
 * moore_compare_clear; on error it holds nothing to release. Time: dominated by
 * building each row's graph and running its metric groups (moore_metrics_compute;
 * at a bandwidth, up to max_tries rows per family, each with throughput bounds). */
MOORE_API int moore_compare_run(const moore_compare_options *o, moore_compare *out, moore_error *err);
/* Frees every row's report, the rows and the notes, and zeroes c (NULL is fine).
 * O(rows + items). */
MOORE_API void moore_compare_clear(moore_compare *c);

struct moore_dist_blob;
/* A comparison (its rows' specs and reports, its notes) packed bit for bit
 * as moore_dist_pack_report packs a report (dist.h), and unpacked from b->at
 * on: unpacking appends its rows and notes to c, adds its database counts to
 * c's, and takes its bandwidth and by_cost. Pack appends to the caller's blob,
 * unpack to the caller's c (released with moore_compare_clear); O(size packed). */
MOORE_API int moore_dist_pack_compare(struct moore_dist_blob *b, const moore_compare *c,
                                      moore_error *err);
MOORE_API int moore_dist_unpack_compare(struct moore_dist_blob *b, moore_compare *c,
                                        moore_error *err);

/* Row `row` against the Clos baseline (the first row of family "clos"):
 * signed percentages (row − clos)/clos of switches, cables and cost_total
 * (NAN where either lacks the value). MOORE_EINVAL when there is no Clos row.
 * O(rows + items). */
MOORE_API int moore_compare_vs_baseline(const moore_compare *c, int row, double pct[3],
                                        moore_error *err);

/* One line on the often-quoted Slim Fly claim "at equal ports, 25-40% fewer
 * switches and cables than fat-tree, uniform throughput equal or better",
 * checked on these rows (Slim Fly against the Clos baseline). Written into the
 * caller's buf; O(rows + items). */
MOORE_API void moore_compare_verdict(const moore_compare *c, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
