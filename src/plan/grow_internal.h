/* grow_internal.h — internal to the growth planner (grow.c, grow_rules.c,
 * grow_step.c): a configuration with its stable switch ids, the family rules
 * that make the sequence, and the step measure (rewiring, cost, throughput).
 *
 * Stable ids: every configuration of one family's path numbers its switches
 * in one id space shared by all steps (uid[v] for switch v of the graph), so
 * a switch kept from one step to the next keeps its id and a link kept keeps
 * its pair of ids. Diffing two consecutive link sets in that space is what
 * counts the rewiring; nothing compares graphs up to isomorphism. */
#ifndef MOORE_SRC_PLAN_GROW_INTERNAL_H
#define MOORE_SRC_PLAN_GROW_INTERNAL_H

#include "moore/grow.h"
#include "moore/family.h"
#include "moore/graph.h"

/* One configuration of a path. */
typedef struct plan_grow_config {
    moore_graph *g;
    int32_t *uid;               /* g->n stable ids, distinct */
    char topology[MOORE_GROW_TOPOLOGY_MAX];
    char built[96];
    double headroom;            /* $ bought ahead of need (clos cores), first step */
} plan_grow_config;

void plan_grow_config_clear(plan_grow_config *c);
/* Takes g with the identity ids 0..n−1. */
int plan_grow_config_set(plan_grow_config *c, moore_graph *g, const char *topology,
                         moore_error *err);

/* The rule of family `fam`: fills cfg[0..o->step_count−1] (the caller clears
 * them); *rule gets the rule's name. A family that cannot reach the steps is
 * not an error: *reached = 0 and note says why. */
int plan_grow_rule(const moore_grow_options *o, const moore_family *fam, plan_grow_config *cfg,
                   const char **rule, int *reached, char *note, size_t note_len,
                   moore_error *err);

/* Proven bounds on the uniform throughput per server of g: 0 and 0 when the
 * switches with servers are not all in one component (switches without
 * servers outside it carry nothing and are left out). */
int plan_grow_bounds(const moore_graph *g, int threads, double *lower, double *upper,
                     moore_error *err);

/* Fills st's counts, rewiring and costs for the step from `before` (NULL at
 * the first step) to `after`, and with `bounds` its throughput bounds: after,
 * and (with a before) during the rewiring in batches of o->batch cables.
 * st->target and the before_* bounds are set by the caller. */
int plan_grow_measure(const moore_grow_options *o, const plan_grow_config *before,
                      const plan_grow_config *after, moore_grow_step *st, int bounds,
                      moore_error *err);

#endif
