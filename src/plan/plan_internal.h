/* plan_internal.h — internal: the throughput bounds the bandwidth search of
 * plan.c and compare.c decides with (bandwidth.c holds them and says why each
 * is valid). Uniform traffic, each server sending 1 in total (docs/throughput.md). */
#ifndef MOORE_SRC_PLAN_INTERNAL_H
#define MOORE_SRC_PLAN_INTERNAL_H

#include "moore/family.h"
#include "moore/graph.h"
#include "moore/paths.h"
#include "moore/plan.h"
#include "plan/row.h"

/* Prices spec with its family's closed forms and appends it to p (only
 * counts it when count_only); a spec its family refuses is MOORE_EINTERNAL. */

/* Position of f in the family table, for sorting rows into table order. */
int plan_family_index(const moore_family *f);
int plan_row_add(moore_plan *p, const moore_family *f, const char *spec, int count_only,
                 moore_error *err);

/* moore_plan_search over family alone (only ≠ 0) or over every selected
 * family but it, without the refusal when no row is left (the caller puts
 * the parts together). *out as for moore_plan_search. */
int plan_search_part(int32_t radix, int64_t endpoints, const char *families, double bandwidth,
                     const moore_family *family, int only, moore_plan *out, moore_error *err);

/* Closed-form upper bound for a configuration whose server switches all have
 * p servers; INFINITY when p is unknown (0). No graph is built. */
double plan_bound_closed(const moore_counts *c, int32_t p);

/* Upper bound from cuts of the built graph (first half of the ids, each
 * server switch alone); INFINITY without two servers. */
double plan_bound_cut(const moore_graph *g);

/* The same cuts under the hose model (any matrix the servers can send):
 * cut / (servers of the smaller side); INFINITY without two servers. O(links). */
double plan_bound_cut_hose(const moore_graph *g);

/* Proven lower bound: every demand split evenly over its shortest paths;
 * and TUB (an upper bound) from the same distances. g must be connected.
 * threads 0 = OpenMP default. O(switches · links), O(threads · links) memory. */
int plan_bound_split(const moore_graph *g, int threads, double *lower, double *tub,
                     moore_error *err);

/* plan_bound_split for a decision against target > 0: once the loads show
 * that the split's bound is below target, they stop and *lower = 0 (nothing
 * proven); *tub is then computed in full only with tub_always (else
 * INFINITY). target 0: plan_bound_split. */
int plan_bound_split_to(const moore_graph *g, int threads, double target, int tub_always,
                        double *lower, double *tub, moore_error *err);

/* TUB alone, bit for bit what plan_bound_split returns (the same sums in the
 * same order), for a row whose split stopped early. O(switches · links). */
int plan_bound_tub(const moore_graph *g, int threads, double *tub, moore_error *err);

/* Upper bounds from each switch's distances counted exactly up to 2 hops
 * and every server beyond them put at 3 (so never farther than it is):
 * *uniform ≥ TUB of the uniform matrix, and *two_phase ≥ the throughput any
 * two-phase (Valiant) routing of the hose model is proven to reach by the
 * shortest-path split or any flow of its matrix (src/flow/hose.c). INFINITY
 * without two servers. O(Σ degree²), no BFS. */
int plan_bound_near(const moore_graph *g, int threads, double *uniform, double *two_phase,
                    moore_error *err);

/* *below = 1 when no two-phase routing is proven to reach target (> 0):
 * |E| / D_b < target for every switch b, D_b = Σ_a p_a·dist(a,b), from the
 * near bounds and, where they do not show it, one BFS per switch (stopping
 * at the first switch that fails). O(Σ degree²) plus O(links) per BFS. */
int plan_two_phase_below(const moore_graph *g, int threads, double target, int *below,
                         moore_error *err);

#endif
