/* registry.c — every metric group `moore stats --metrics` knows, in output
 * order. A new area is one file with its compute function, its declaration
 * in that module's header, plus one line here. The registry sits above every
 * area it names (docs/architecture.md), so it includes their headers and no
 * area calls back into it. */
#include "moore/metrics.h"
#include "moore/suggest.h"
#include "analysis/throughput.h"
#include "layout/metric.h"
#include "metrics/groups.h"
#include "resilience/metric.h"
#include "routing/metric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const moore_metric_group GROUPS[] = {
    { "basic", "switches, links, endpoints, degrees", 1, metric_basic },
    { "paths", "diameter, average path length, distance histogram, girth, Moore bound", 1,
      metric_paths },
    { "spectral", "adjacency eigenvalues (lambda2, gap, Ramanujan bound), algebraic connectivity",
      1, metric_spectral },
    { "bisection", "bisection cut by METIS, normalised bandwidth, spectral lower bound", 0,
      metric_bisection },
    { "symmetry", "automorphism group size, orbits, vertex-transitivity, canonical hash (Traces)",
      0, metric_symmetry },
    { "diversity", "shortest-path multiplicity, edge-disjoint paths by max-flow", 0,
      metric_diversity },
    { "throughput", "uniform and worst-case throughput (eps 0.05 bounds) and TUB", 0,
      analysis_metric_throughput },
    { "layout", "racks, cable plan by type and length, bundles, cost and power (docs/layout.md)",
      0, layout_metric },
    { "routing", "uniform throughput under ECMP and KSP-8, and its ratio to optimal", 0,
      route_metric },
    { "resilience", "share of links / switches removed at random when the graph disconnects", 0,
      resil_metric },
    { NULL, NULL, 0, NULL }
};

const moore_metric_group *moore_metric_groups(void) { return GROUPS; }

const moore_metric_group *moore_metric_group_find(const char *name)
{
    for (const moore_metric_group *m = GROUPS; m->name; m++)
        if (strcmp(m->name, name) == 0)
            return m;
    return NULL;
}

/* Marks the groups a list names; refuses unknown names before any work. */
static int select_groups(const char *list, char *on, moore_error *err)
{
    int count = 0;
    for (const moore_metric_group *m = GROUPS; m->name; m++, count++)
        on[count] = list ? strcmp(list, "all") == 0 : m->default_on;
    if (!list || strcmp(list, "all") == 0)
        return MOORE_OK;
    const char *s = list;
    while (*s) {
        size_t len = strcspn(s, ",");
        int found = 0;
        for (int i = 0; i < count; i++)
            if (strlen(GROUPS[i].name) == len && strncmp(GROUPS[i].name, s, len) == 0) {
                on[i] = 1;
                found = 1;
            }
        if (!found) {
            char known[256] = "";
            for (int i = 0; i < count; i++) {
                strncat(known, GROUPS[i].name, sizeof known - strlen(known) - 3);
                if (i + 1 < count)
                    strcat(known, ", ");
            }
            char word[64], hint[96];
            const char *names[65];
            int n = 0;
            for (int i = 0; i < count && n < 63; i++)
                names[n++] = GROUPS[i].name;
            names[n++] = "all";
            names[n] = NULL;
            snprintf(word, sizeof word, "%.*s", (int)len, s);
            return moore_error_set(err, MOORE_EINVAL, "unknown metric '%s'%s (known: %s, all)",
                                   word, moore_suggest_text(word, names, hint, sizeof hint),
                                   known);
        }
        s += len + (s[len] == ',');
    }
    return MOORE_OK;
}

int moore_metrics_compute(const moore_graph *g, const char *list, const moore_metric_options *o,
                          moore_report *r, moore_error *err)
{
    char on[64];
    moore_metric_options def;
    if (!o) {
        moore_metric_options_default(&def);
        o = &def;
    }
    int rc = select_groups(list, on, err), total = 0, done = 0;
    for (int i = 0; !rc && GROUPS[i].name; i++)
        total += on[i];
    for (int i = 0; !rc && GROUPS[i].name; i++)
        if (on[i]) {
            if (o->progress && total > 1) { /* which group is running, for long --all runs */
                char what[64];
                snprintf(what, sizeof what, "stats: %s (%d/%d)", GROUPS[i].name, done + 1, total);
                o->progress(o->progress_ctx, what, (double)done / total);
            }
            rc = moore_cancel_requested()
                     ? moore_error_set(err, MOORE_ECANCELLED, "stats: cancelled")
                     : GROUPS[i].compute(g, o, r, err);
            done++;
        }
    return rc;
}
