/* deploy.c — the whole of `moore deploy TOPO --ib DIR` (fabric file and
 * forwarding tables written together, whole or not at all) and the report of
 * a routing read back from tables, so the CLI and any other caller run the
 * same steps and print the same keys (docs/deploy.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "deploy_internal.h"
#include "core/alloc.h"
#include "moore/io.h"

int moore_ib_routing_report(const moore_graph *g, const moore_routing *r, double mean_hops,
                            int64_t lid_pairs, moore_report *rep, moore_error *err)
{
    moore_routing_stats s;
    moore_deadlock_result d;
    memset(&d, 0, sizeof d);
    moore_routing_options o;
    moore_routing_options_default(&o);
    int rc = moore_routing_stats_compute(g, r, &s, err);
    if (!rc)
        rc = moore_routing_deadlock(g, r, &o, &d, err);
    double stretch = 0, stretch_min = r->paths ? 1e300 : 1;
    for (int64_t i = 0; !rc && i < r->paths; i++) {
        int32_t a = r->hops[r->path_offs[i]], b = r->hops[r->path_offs[i + 1] - 1];
        double x = (double)(r->path_offs[i + 1] - r->path_offs[i] - 1) /
                   (double)r->dist[(size_t)a * r->n + b];
        stretch += x;
        stretch_min = x < stretch_min ? x : stretch_min;
    }
    if (!rc) rc = moore_report_string(rep, "algo", r->name, err);
    if (!rc) rc = moore_report_int(rep, "switches", r->n, err);
    if (!rc) rc = moore_report_int(rep, "pairs", s.pairs, err);
    if (!rc) rc = moore_report_double(rep, "paths_total", s.paths_total, err);
    if (!rc) rc = moore_report_double(rep, "paths_per_pair_min", s.paths_per_pair_min, err);
    if (!rc) rc = moore_report_double(rep, "paths_per_pair_mean", s.paths_per_pair_mean, err);
    if (!rc) rc = moore_report_double(rep, "paths_per_pair_max", s.paths_per_pair_max, err);
    if (!rc) rc = moore_report_double(rep, "hops_mean", s.hops_mean, err);
    if (!rc) rc = moore_report_int(rep, "hops_max", s.hops_max, err);
    if (!rc) rc = moore_report_int(rep, "table_entries_max", s.table_entries_max, err);
    if (!rc) rc = moore_report_int(rep, "table_entries_total", s.table_entries_total, err);
    if (!rc) rc = moore_report_bool(rep, "cdg_acyclic", d.cdg_acyclic, err);
    if (!rc) rc = moore_report_int(rep, "cdg_dependencies", d.dependencies, err);
    if (!rc) rc = moore_report_int(rep, "layers", d.layers, err);
    if (!rc) rc = moore_report_int(rep, "lid_pairs", lid_pairs, err);
    if (!rc) rc = moore_report_double(rep, "path_length_mean", mean_hops, err);
    if (!rc)
        rc = moore_report_double(rep, "path_stretch_mean", r->paths ? stretch / (double)r->paths : 0,
                                 err);
    if (!rc) rc = moore_report_double(rep, "path_stretch_min", stretch_min, err);
    moore_deadlock_result_clear(&d);
    return rc;
}

int deploy_make_dir(const char *dir, moore_error *err)
{
    struct stat st;
    if (mkdir(dir, 0777) && errno != EEXIST)
        return moore_error_set(err, MOORE_EIO, "cannot create directory '%s'", dir);
    if (stat(dir, &st) || !S_ISDIR(st.st_mode))
        return moore_error_set(err, MOORE_EIO, "'%s' is not a directory", dir);
    return MOORE_OK;
}

/* The files of `deploy --ib`, each written to a temporary name and renamed
 * only when all are complete. */
typedef struct deploy_out {
    const moore_ib_fabric *f;
    const moore_ib_lfts *l;
    const int32_t *switch_layer; /* NULL: no QoS policy */
} deploy_out;

static int write_one(const deploy_out *o, int which, FILE *out, moore_error *err)
{
    if (which == 0)
        return moore_ib_fabric_write(o->f, out, err);
    if (which == 1)
        return moore_ib_lfts_write(o->f, o->l, out, err);
    return moore_ib_qos_write(o->f, o->switch_layer, out, err);
}

static int write_all(const char *dir, const deploy_out *o, moore_error *err)
{
    static const char *const names[] = { "fabric.topo", "lfts.dump", "qos-policy.conf" };
    int files = o->switch_layer ? 3 : 2, open_ = 0;
    moore_atomic_file af[3] = { { 0 } };
    size_t len = strlen(dir) + 32;
    char *path = malloc(len);
    int rc = path ? MOORE_OK : moore_error_set(err, MOORE_ENOMEM, "deploy: out of memory");
    for (; !rc && open_ < files; open_++) {
        snprintf(path, len, "%s/%s", dir, names[open_]);
        rc = moore_atomic_open(path, &af[open_], err);
        if (rc)
            break;
    }
    for (int i = 0; !rc && i < files; i++)
        rc = write_one(o, i, af[i].f, err);
    int committed = 0;
    for (; !rc && committed < files; committed++)
        rc = moore_atomic_commit(&af[committed], err);
    for (int i = committed; i < open_; i++) /* a failed commit cleans up itself */
        moore_atomic_abort(&af[i]);
    if (!rc && !o->switch_layer) { /* an older policy would give these tables wrong SLs */
        snprintf(path, len, "%s/%s", dir, names[2]);
        if (remove(path) && errno != ENOENT)
            rc = moore_error_set(err, MOORE_EIO, "cannot remove the stale '%s'", path);
    }
    free(path);
    return rc;
}

/* The per-destination layers of r (minimal and ECMP only: their tables use
 * the routing's own paths, so its layering holds for them), else NULL. */
static int dest_layers(const moore_graph *g, const moore_routing *r, moore_deadlock_result *d,
                       moore_error *err)
{
    if (r->algo != MOORE_ROUTE_MINIMAL && r->algo != MOORE_ROUTE_ECMP)
        return MOORE_OK;
    moore_routing_options o;
    moore_routing_options_default(&o);
    int rc = moore_routing_deadlock(g, r, &o, d, err);
    if (!rc && d->units != g->n)
        rc = moore_error_set(err, MOORE_EINTERNAL, "deploy: %lld layering units for %d switches",
                             (long long)d->units, (int)g->n);
    return rc;
}

static int64_t valid_entries(const moore_ib_lfts *l)
{
    int64_t k = 0;
    size_t cells = (size_t)l->switches * ((size_t)l->lid_top + 1);
    for (size_t i = 0; i < cells; i++)
        k += l->port[i] != MOORE_IB_NO_PORT;
    return k;
}

int moore_ib_deploy(const moore_graph *g, const moore_routing_options *o, int32_t lmc,
                    const char *dir, moore_report *rep, moore_error *err)
{
    moore_ib_fabric *f = NULL;
    moore_routing *r = NULL;
    moore_ib_lfts *l = NULL;
    moore_deadlock_result d;
    memset(&d, 0, sizeof d);
    int rc = moore_ib_fabric_from_graph(g, &f, err);
    if (!rc)
        rc = moore_routing_build(g, o, &r, err);
    if (!rc)
        rc = moore_ib_lfts_build(g, r, f, lmc, &l, err);
    if (!rc)
        rc = dest_layers(g, r, &d, err);
    if (!rc)
        rc = deploy_make_dir(dir, err);
    if (!rc)
        rc = write_all(dir, &(deploy_out){ f, l, d.layers <= MOORE_IB_SL_MAX + 1 ? d.layer : NULL },
                       err);
    if (!rc && rep) {
        rc = moore_report_string(rep, "algo", r->name, err);
        if (!rc) rc = moore_report_int(rep, "switches", f->switches, err);
        if (!rc) rc = moore_report_int(rep, "hcas", f->hcas, err);
        if (!rc) rc = moore_report_int(rep, "lmc", lmc, err);
        if (!rc) rc = moore_report_int(rep, "lid_top", l->lid_top, err);
        if (!rc) rc = moore_report_int(rep, "table_entries", valid_entries(l), err);
        if (!rc && d.layer) rc = moore_report_int(rep, "sls", d.layers, err);
        if (!rc && !d.layer) rc = moore_report_null(rep, "sls", err);
    }
    moore_deadlock_result_clear(&d);
    moore_ib_lfts_free(l);
    moore_routing_free(r);
    moore_ib_fabric_free(f);
    return rc;
}
