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

/* Closed-form upper bound for a configuration whose server switches all have
 * p servers; INFINITY when p is unknown (0). No graph is built. */
double plan_bound_closed(const moore_counts *c, int32_t p);

/* Upper bound from cuts of the built graph (first half of the ids, each
 * server switch alone); INFINITY without two servers. */
double plan_bound_cut(const moore_graph *g);

/* Proven lower bound: every demand split evenly over its shortest paths;
 * and TUB (an upper bound) from the same distances. g must be connected.
 * threads 0 = OpenMP default. */
int plan_bound_split(const moore_graph *g, int threads, double *lower, double *tub,
                     moore_error *err);

#endif
