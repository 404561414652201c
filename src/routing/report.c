/* report.c — what `moore route` does once its arguments are parsed: the
 * routing, its statistics, its deadlock report, the CSV files, and the keys
 * `moore route --json` prints (docs/routing.md), so that the CLI and the
 * Python binding (moore.route) run the same steps and show the same names for
 * the same numbers. */
#include "core/alloc.h"
#include "routing_internal.h"

#include <stdlib.h>
#include <string.h>

/* The keys of `moore route --json`; d NULL: no layering computed (null). */
static int routing_report(moore_report *rep, const moore_routing *r, const moore_routing_stats *s,
                          const moore_deadlock_result *d, moore_error *err)
{
    int rc = moore_report_string(rep, "algo", r->name, err);
    if (!rc) rc = moore_report_int(rep, "switches", r->n, err);
    if (!rc) rc = moore_report_int(rep, "pairs", s->pairs, err);
    if (!rc) rc = moore_report_double(rep, "paths_total", s->paths_total, err);
    if (!rc) rc = moore_report_double(rep, "paths_per_pair_min", s->paths_per_pair_min, err);
    if (!rc) rc = moore_report_double(rep, "paths_per_pair_mean", s->paths_per_pair_mean, err);
    if (!rc) rc = moore_report_double(rep, "paths_per_pair_max", s->paths_per_pair_max, err);
    if (!rc) rc = moore_report_double(rep, "hops_mean", s->hops_mean, err);
    if (!rc) rc = moore_report_int(rep, "hops_max", s->hops_max, err);
    if (!rc) rc = moore_report_int(rep, "table_entries_max", s->table_entries_max, err);
    if (!rc) rc = moore_report_int(rep, "table_entries_total", s->table_entries_total, err);
    if (!rc && d) {
        rc = moore_report_bool(rep, "cdg_acyclic", d->cdg_acyclic, err);
        if (!rc) rc = moore_report_int(rep, "cdg_dependencies", d->dependencies, err);
        if (!rc) rc = moore_report_int(rep, "layers", d->layers, err);
    } else if (!rc) {
        rc = moore_report_null(rep, "cdg_acyclic", err);
        if (!rc) rc = moore_report_null(rep, "layers", err);
    }
    if (!rc) rc = moore_report_int(rep, "vcs_hop_index", s->hops_max, err);
    return rc;
}

/* The tables' file: with `layers`, the destinations' virtual layers — for
 * minimal and ECMP the layering just computed (its units are destinations),
 * for explicit path sets the layering of their loop-free tables. */
static int write_tables(const moore_graph *g, const moore_routing *r,
                        const moore_routing_options *o, const moore_deadlock_result *d,
                        const char *path, moore_error *err)
{
    int32_t *layer = NULL, count = 0;
    route_tables *T = NULL;
    int rc = MOORE_OK;
    if (d && r->pair_offs) {
        layer = moore_malloc((size_t)r->n, sizeof *layer, err);
        rc = layer ? route_tables_build(g, r, &T, err) : core_alloc_code(err);
        if (!rc)
            rc = route_table_layers(g, r, T, o, layer, &count, err);
        route_tables_free(T);
    }
    if (!rc)
        rc = moore_routing_write_tables(g, r, r->pair_offs ? layer : d ? d->layer : NULL,
                                        o && o->table_all_destinations, path, err);
    free(layer);
    return rc;
}

int moore_routing_run(const moore_graph *g, const moore_routing_options *o, int layers,
                      const char *paths, int netbench, const char *tables, moore_report *rep,
                      moore_routing **keep, moore_error *err)
{
    moore_routing *r = NULL;
    moore_routing_stats s;
    moore_deadlock_result d;
    memset(&d, 0, sizeof d);
    int rc = moore_routing_build(g, o, &r, err);
    if (rc)
        goto done;
    if ((rc = moore_routing_stats_compute(g, r, &s, err)))
        goto done;
    if (layers && (rc = moore_routing_deadlock(g, r, o, &d, err)))
        goto done;
    if (paths && netbench && (rc = moore_routing_write_netbench(g, r, paths, err)))
        goto done;
    if (paths && !netbench &&
        (rc = moore_routing_write_paths(g, r, layers ? &d : NULL, paths, err)))
        goto done;
    if (tables && (rc = write_tables(g, r, o, layers ? &d : NULL, tables, err)))
        goto done;
    rc = routing_report(rep, r, &s, layers ? &d : NULL, err);
    if (!rc && keep) {
        *keep = r;
        r = NULL;
    }
done:
    moore_deadlock_result_clear(&d);
    moore_routing_free(r);
    return rc;
}
