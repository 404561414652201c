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
    int chosen;                 /* the smallest row of its family reaching the target */
} moore_plan_row;

typedef struct moore_plan {
    int32_t radix;
    int64_t endpoints;          /* the target, 0 for none */
    int64_t count, cap;
    moore_plan_row *rows;       /* family table order, then switches, then endpoints */
} moore_plan;

/* Every feasible configuration of the families named in the comma list
 * `families` (NULL: every family with a planner) for switches of the given
 * radix. With endpoints > 0, per family the row with the fewest switches
 * among those reaching that many endpoints is marked chosen (ties: fewer
 * cables, then fewer endpoints). A radix for which no family has any
 * configuration is refused (MOORE_EINVAL), naming the smallest radix that has
 * one. */
MOORE_API int moore_plan_make(int32_t radix, int64_t endpoints, const char *families, moore_plan *out,
                    moore_error *err);
MOORE_API void moore_plan_free(moore_plan *p);

/* The chosen row of family f, or NULL when none of its rows reaches the target. */
MOORE_API const moore_plan_row *moore_plan_chosen(const moore_plan *p, const moore_family *f);

/* The largest-endpoint row of family f (for "cannot reach" messages), or NULL. */
MOORE_API const moore_plan_row *moore_plan_largest(const moore_plan *p, const moore_family *f);

/* 1 when family f is named in the comma list (NULL: every family with a
 * planner); refuses names that are unknown or have no planner. */
MOORE_API int moore_plan_family_selected(const char *families, const moore_family *f, int *selected,
                               moore_error *err);

/* ---- compare ---- */

/* A column of the comparison: the report key, its header, and for a column
 * shown as "a/b" the second key. JSON carries both keys separately. */
typedef struct moore_compare_column {
    const char *key;
    const char *header;
    const char *key2;
} moore_compare_column;

/* family, spec, switches, cables, endpoints, diameter, avg_path_length,
 * lambda2/ramanujan_bound, bisection_bandwidth, throughput_uniform,
 * throughput_worst; terminated by {NULL}. */
MOORE_API const moore_compare_column *moore_compare_columns(void);

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
} moore_compare_options;

MOORE_API void moore_compare_options_default(moore_compare_options *o);

/* "basic,paths" plus spectral, bisection and throughput where the metric
 * table has them. */
MOORE_API int moore_compare_default_metrics(char *buf, size_t len, moore_error *err);

typedef struct moore_compare_row {
    char spec[MOORE_SPEC_MAX];
    /* The metric groups' keys, plus "family", "spec" and "cables". */
    moore_report report;
} moore_compare_row;

typedef struct moore_compare {
    int count;
    moore_compare_row *rows;
    int note_count;
    char (*notes)[MOORE_ERRMSG_LEN]; /* families left out, and why */
} moore_compare;

/* Plans (unless topologies are given), builds each chosen configuration,
 * checks it against its closed forms, and measures it. Families that cannot
 * reach the target at this radix are left out with a note. Calls
 * o->metric.progress once per topology before its work starts. */
MOORE_API int moore_compare_run(const moore_compare_options *o, moore_compare *out, moore_error *err);
MOORE_API void moore_compare_free(moore_compare *c);

#ifdef __cplusplus
}
#endif
#endif
