/* compare.c — `moore compare` as a library call: for a radix, a server
 * count and a bandwidth target, choose per family the cheapest configuration
 * proven to reach the target, measure it with the metric groups, and collect
 * one report per topology (docs/compare.md).
 *
 * At a bandwidth B > 0 each family's candidates come from moore_plan_search
 * (closed forms already rule most out) and are tried cheapest first: build,
 * check ports and closed forms, cut bounds and the distance bounds (upper
 * bounds: a row below B is dropped; under the hose model the bound on every
 * two-phase routing), then the shortest-path split (a proven lower bound,
 * stopped as soon as it falls short of B) and, only if that is short of B,
 * the (1+ε) approximation's lower bound. The
 * first row proven ≥ B wins when ranking by switches; with the layout group
 * the next few qualifying rows are priced too and the lowest cost_total wins.
 * The winner's graph is kept (a cache of one) and measured without a
 * rebuild. At B = 0 ("any") the planner's fewest-switch row is taken as before.
 *
 * Each row gets compare's own keys (the identity topology/family/params and
 * the counts), its metric groups — read through o->lookup (a sweep
 * database) where it holds them, computed otherwise — and with o->tm the throughput bounds under
 * that matrix. Metric groups without a column are refused up front.
 *
 * Columns are read from the reports by key, and the metric groups are found
 * by name in the metric table, so a family or a metric group merged later
 * shows up here without a change. Each built graph is checked against its
 * family's closed forms: a mismatch is a bug in that family, not a result. */
#include "moore/plan.h"
#include "core/alloc.h"
#include "moore/closflow.h"
#include "moore/dist.h"
#include "moore/flow.h"
#include "moore/routing.h"
#include "moore/suggest.h"
#include "moore/traffic.h"
#include "plan_internal.h"

#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Locks of the families searched side by side (items_threads). Each lock
 * guards one thing, as a named OpenMP critical section would, without the
 * exported symbol a named section adds to the library (ctest lib_symbols).
 * Rows are measured side by side: what the metrics call that keeps process-
 * wide state (ARPACK, OpenBLAS's thread count) is locked where it is called
 * (src/linalg), and nauty and METIS keep theirs per thread (Debian builds
 * them with thread-local storage). */
static pthread_mutex_t compare_take_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t compare_progress_lock = PTHREAD_MUTEX_INITIALIZER;

static const moore_compare_column COLUMNS[] = {
    { "family", "family", NULL, NULL },
    { "topology", "topology", NULL, NULL },
    { "switches", "switches", NULL, "basic" },
    { "links", "links", NULL, "basic" },
    { "cables", "cables", NULL, NULL },
    { "endpoints", "endpoints", NULL, NULL },
    { "endpoints_per_switch", "p", NULL, NULL },
    { "diameter", "diam", NULL, "paths" },
    { "avg_path_length_endpoints", "srv hops", NULL, "paths" },
    { "lambda2_ramanujan_ratio", "λ₂/Ram", NULL, "spectral" },
    { "throughput_uniform", "θ_uni lo", NULL, "throughput" },
    { "throughput_uniform_upper", "θ_uni hi", NULL, "throughput" },
    { "throughput_worst", "θ_worst lo", NULL, "throughput" },
    { "throughput_worst_upper", "θ_worst hi", NULL, "throughput" },
    { "throughput_uniform_ecmp", "θ_ecmp", NULL, "routing" },
    { "throughput_uniform_ecmp_ratio", "ecmp/opt", NULL, "routing" },
    { "throughput_uniform_ksp8", "θ_ksp8 lo", NULL, "routing" },
    { "throughput_uniform_ksp8_ratio", "ksp8/opt lo", NULL, "routing" },
    { "throughput_routed_ecmp", "routed ecmp", NULL, "routing" },
    { "throughput_routed_ksp8", "routed ksp8 lo", NULL, "routing" },
    { "throughput_routed_valiant", "routed vlb lo", NULL, "routing" },
    { "throughput_routed_ugal", "routed ugal lo", NULL, "routing" },
    { "throughput_hose", "θ_hose lo", NULL, "throughput" },
    { "throughput_hose_upper", "θ_hose hi", NULL, "throughput" },
    { "bisection_bandwidth", "bisect norm ≤", NULL, "bisection" },
    { "cost_total", "cost", NULL, "layout" },
    { "cost_per_endpoint", "cost/srv", NULL, "layout" },
    { "power_w", "power W", NULL, "layout" },
    { "cables_optical", "optical", NULL, "layout" },
    { NULL, NULL, NULL, NULL }
};

const moore_compare_column *moore_compare_columns(void) { return COLUMNS; }

static int group_has_column(const char *group)
{
    for (const moore_compare_column *c = COLUMNS; c->key; c++)
        if (c->group && strcmp(c->group, group) == 0)
            return 1;
    return 0;
}

/* The groups that have a column, comma-joined, for messages. */
static void columned_groups(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const moore_metric_group *g = moore_metric_groups(); g->name; g++)
        if (group_has_column(g->name) && used + strlen(g->name) + 3 < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
                                     g->name);
}

/* One group name of a metric list: unknown or without a column → refused. */
static int check_group(const char *name, const char *via, moore_error *err)
{
    char known[256];
    if (!moore_metric_group_find(name)) {
        const char *names[64];
        int n = 0;
        for (const moore_metric_group *g = moore_metric_groups(); g->name && n < 63; g++)
            names[n++] = g->name;
        names[n] = NULL;
        char hint[96];
        return moore_error_set(err, MOORE_EINVAL, "compare: metrics: unknown metric '%s'%s",
                               name,
                               moore_suggest_text(name, names, hint, sizeof hint));
    }
    if (group_has_column(name))
        return MOORE_OK;
    columned_groups(known, sizeof known);
    return moore_error_set(err, MOORE_EINVAL, "compare: metrics %s: group '%s' has no column "
                           "in compare and would be computed for nothing (groups with columns: "
                           "%s; the others are measured by stats)", via, name, known);
}

int moore_compare_check_metrics(const char *list, moore_error *err)
{
    if (!list)
        return MOORE_OK;
    for (const char *s = list; *s;) {
        size_t len = strcspn(s, ",");
        char name[64];
        if (len == 0 || len >= sizeof name)
            return moore_error_set(err, MOORE_EINVAL, "compare: metrics '%s' is not a comma "
                                   "list of metric groups", list);
        memcpy(name, s, len);
        name[len] = '\0';
        int rc = MOORE_OK;
        if (strcmp(name, "all") == 0) {
            for (const moore_metric_group *g = moore_metric_groups(); !rc && g->name; g++)
                rc = check_group(g->name, "all", err);
        } else {
            rc = check_group(name, name, err);
        }
        if (rc)
            return rc;
        s += len + (s[len] == ',');
    }
    return MOORE_OK;
}

/* The groups compare runs when present; the cheap ones first. Throughput is
 * not among them: the (1+eps) approximation takes seconds to minutes per
 * topology at 10,000 endpoints (dragonfly:p=12,g=37 worst case > 2 min), so
 * it is asked for with --metrics or the CLI's --throughput. */
static const char *const COMPARE_GROUPS[] = { "basic", "paths", "spectral", "bisection",
                                               "layout", NULL };

int moore_compare_default_metrics(char *buf, size_t len, moore_error *err)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; COMPARE_GROUPS[i]; i++) {
        if (!moore_metric_group_find(COMPARE_GROUPS[i]))
            continue;
        int w = snprintf(buf + used, len - used, "%s%s", used ? "," : "", COMPARE_GROUPS[i]);
        if (w < 0 || (size_t)w >= len - used)
            return moore_error_set(err, MOORE_EINTERNAL, "compare: metric list too long");
        used += (size_t)w;
    }
    return MOORE_OK;
}

void moore_compare_options_default(moore_compare_options *o)
{
    memset(o, 0, sizeof *o);
    o->radix = 48;
    o->endpoints = 10000;
    o->bandwidth = 1.0;
    o->max_tries = 8;
    o->cap_vs_clos = 2.0;
    o->max_work = 6e9;
    o->approx_tries = 0;
    moore_metric_options_default(&o->metric);
}

static int add_note(moore_compare *c, moore_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int add_note(moore_compare *c, moore_error *err, const char *fmt, ...)
{
    char (*notes)[MOORE_ERRMSG_LEN] = realloc(c->notes, (size_t)(c->note_count + 1) *
                                                            sizeof *notes);
    if (!notes)
        return moore_error_set(err, MOORE_ENOMEM, "compare: out of memory");
    c->notes = notes;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->notes[c->note_count++], MOORE_ERRMSG_LEN, fmt, ap);
    va_end(ap);
    return MOORE_OK;
}

/* The topologies to compare: the given ones, or each family's chosen row. */
typedef struct compare_list {
    int count;
    char (*spec)[MOORE_SPEC_MAX];
} compare_list;

static int list_add(compare_list *l, const char *spec, moore_error *err)
{
    if (strlen(spec) >= MOORE_SPEC_MAX)
        return moore_error_set(err, MOORE_EINVAL, "compare: '%.40s…' is too long", spec);
    char (*s)[MOORE_SPEC_MAX] = realloc(l->spec, (size_t)(l->count + 1) * sizeof *s);
    if (!s)
        return moore_error_set(err, MOORE_ENOMEM, "compare: out of memory");
    l->spec = s;
    snprintf(l->spec[l->count++], MOORE_SPEC_MAX, "%s", spec);
    return MOORE_OK;
}

static int choose_any(const moore_compare_options *o, compare_list *l, moore_compare *c,
                      moore_error *err)
{
    if (o->topology_count > 0) {
        for (int i = 0; i < o->topology_count; i++) {
            int rc = list_add(l, o->topologies[i], err);
            if (rc)
                return rc;
        }
        return MOORE_OK;
    }
    moore_plan plan;
    int rc = moore_plan_make(o->radix, o->endpoints, o->families, &plan, err);
    if (rc)
        return rc;
    for (const moore_family *f = moore_families(); !rc && f->name; f++) {
        int on;
        if ((rc = moore_plan_family_selected(o->families, f, &on, err)) || !on)
            continue;
        const moore_plan_row *r = moore_plan_chosen(&plan, f);
        const moore_plan_row *big = moore_plan_largest(&plan, f);
        if (r)
            rc = list_add(l, r->spec, err);
        else if (big)
            rc = add_note(c, err, "%s: no configuration with radix %d reaches %lld endpoints "
                          "(the largest planned, %s, has %lld)", f->name, (int)o->radix,
                          (long long)o->endpoints, big->spec, (long long)big->counts.endpoints);
        else
            rc = add_note(c, err, "%s: no configuration fits radix %d", f->name,
                          (int)o->radix);
    }
    moore_plan_clear(&plan);
    if (!rc && l->count == 0)
        rc = moore_error_set(err, MOORE_EINVAL, "compare: no family reaches %lld endpoints "
                             "with radix %d", (long long)o->endpoints, (int)o->radix);
    return rc;
}

/* Closed forms against the built graph: a family bug must not pass as data. */
static int check_counts(const char *spec, const moore_graph *g, int64_t *cables,
                        moore_error *err)
{
    const moore_counts c = g->origin.counts; /* set once, when the SPEC was built */
    *cables = g->m;
    if (!g->origin.family || !g->origin.has_counts || g->origin.path)
        return MOORE_OK; /* a file, or a family without closed forms */
    if (c.switches != g->n || c.links != g->m || c.endpoints != moore_graph_endpoints_total(g))
        return moore_error_set(err, MOORE_EINTERNAL,
                               "compare: %s built %d switches, %lld links, %lld endpoints; its "
                               "closed forms say %lld, %lld, %lld", spec, (int)g->n,
                               (long long)g->m, (long long)moore_graph_endpoints_total(g),
                               (long long)c.switches, (long long)c.links,
                               (long long)c.endpoints);
    *cables = moore_counts_cables(&c);
    return MOORE_OK;
}

static int endpoints_per_switch(const moore_graph *g)
{
    int32_t p = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (g->endpoints[v] > p)
            p = g->endpoints[v];
    return p;
}

/* What the search proved about a graph (lower = 0, upper = INFINITY: nothing),
 * under o->traffic; hose_lower/upper are NAN unless the hose was bounded. */
typedef struct proof {
    double lower, upper;
    const char *how;            /* "split", "approx", a hose method, or NULL */
    double hose_lower, hose_upper;
    int derived;                /* scaled from a row of the same network (split_memo) */
} proof;

/* The hose bounds are proven up to the fixed-point rounding of their loads
 * (hose.c: at most switches·2^-36 per arc): a bound within this relative
 * distance of the target counts as reaching it. */
#define HOSE_ROUNDING 1e-6

static int traffic_is(const moore_compare_options *o, const char *name)
{
    return strcmp(o->traffic ? o->traffic : "uniform", name) == 0;
}

/* lower reaches the target under o's rule. */
static int reaches(const moore_compare_options *o, double lower)
{
    return lower >= o->bandwidth * (traffic_is(o, "hose") ? 1 - HOSE_ROUNDING : 1);
}

/* compare's own keys: the identity (docs/json.md: topology = the SPEC that
 * rebuilds it, family:params; a file without an origin keeps its path) and
 * the counts every row has whatever groups run (the basic group: cheap). */
static int row_identity(const moore_compare_options *o, const char *spec, const moore_graph *g,
                        int64_t cables, moore_report *r, moore_error *err)
{
    const char *topology = moore_graph_spec(g);
    int rc = moore_report_string(r, "topology", topology ? topology : spec, err);
    if (!rc) /* family, params, switches, links, endpoints, degrees */
        rc = moore_metrics_compute(g, "basic", &o->metric, r, err);
    if (!rc) rc = moore_report_int(r, "cables", cables, err);
    if (!rc) rc = moore_report_int(r, "endpoints_per_switch", endpoints_per_switch(g), err);
    return rc;
}

/* Copies every item of src into dst (a database lookup into a row). */
static int report_merge(moore_report *dst, const moore_report *src, moore_error *err)
{
    int rc = MOORE_OK;
    for (int i = 0; !rc && i < src->count; i++) {
        const moore_report_item *it = &src->items[i];
        switch (it->type) {
        case MOORE_VALUE_INT: rc = moore_report_int(dst, it->key, it->i, err); break;
        case MOORE_VALUE_DOUBLE: rc = moore_report_double(dst, it->key, it->d, err); break;
        case MOORE_VALUE_BOOL: rc = moore_report_bool(dst, it->key, (int)it->i, err); break;
        case MOORE_VALUE_STRING: rc = moore_report_string(dst, it->key, it->s, err); break;
        case MOORE_VALUE_NULL: rc = moore_report_null(dst, it->key, err); break;
        case MOORE_VALUE_INT_ARRAY:
            rc = moore_report_int_array(dst, it->key, it->ia, it->len, err);
            break;
        case MOORE_VALUE_DOUBLE_ARRAY:
            rc = moore_report_double_array(dst, it->key, it->da, it->len, err);
            break;
        }
    }
    return rc;
}

/* Task `task` of this row from the database, under the SPEC the row was
 * given as or the one its identity names; *found = 0 when neither has it. */
static int db_read(const moore_compare_options *o, const char *spec, const moore_report *row,
                   const char *task, moore_report *r, int *found, moore_error *err)
{
    const moore_report_item *t = moore_report_get(row, "topology");
    int rc = o->lookup(o->lookup_ctx, spec, task, r, found, err);
    if (!rc && !*found && t && t->type == MOORE_VALUE_STRING && strcmp(t->s, spec) != 0)
        rc = o->lookup(o->lookup_ctx, t->s, task, r, found, err);
    return rc;
}

/* The metric groups of the list: read through o->lookup where it has them, the
 * rest computed on g together (so groups still share their work). */
static int row_metrics(const moore_compare_options *o, const char *metrics, const char *spec,
                       const moore_graph *g, moore_report *r, moore_compare *c,
                       moore_error *err)
{
    if (!o->lookup)
        return moore_metrics_compute(g, metrics, &o->metric, r, err);
    char missing[512] = "";
    size_t used = 0;
    int rc = MOORE_OK, all = strcmp(metrics, "all") == 0;
    const moore_metric_group *grp = moore_metric_groups();
    for (const char *s = metrics; !rc && (all ? grp->name != NULL : *s != '\0');) {
        char name[64];
        size_t len = all ? strlen(grp->name) : strcspn(s, ",");
        snprintf(name, sizeof name, "%.*s", (int)len, all ? grp->name : s);
        if (all)
            grp++;
        else
            s += len + (s[len] == ',');
        moore_report got;
        int found = 0;
        moore_report_init(&got);
        rc = db_read(o, spec, r, name, &got, &found, err);
        if (!rc && found)
            rc = report_merge(r, &got, err);
        moore_report_clear(&got);
        if (!rc && !found) {
            int w = snprintf(missing + used, sizeof missing - used, "%s%s", used ? "," : "",
                             name);
            if (w < 0 || (size_t)w >= sizeof missing - used)
                rc = moore_error_set(err, MOORE_EINVAL, "compare: metric list '%s' is too long",
                                     metrics);
            else
                used += (size_t)w;
        }
        if (!rc)
            *(found ? &c->db_groups_read : &c->db_groups_measured) += 1;
    }
    if (!rc && used)
        rc = moore_metrics_compute(g, missing, &o->metric, r, err);
    return rc;
}

/* A sweep's throughput task keeps throughput (the lower bound),
 * throughput_upper and converged (docs/sweep.md); as --tm's keys. */
static int tm_from_db(const char *tm, const moore_report *got, moore_report *r,
                      moore_error *err)
{
    double lo = moore_report_number(got, "throughput");
    double up = moore_report_number(got, "throughput_upper");
    int rc = moore_report_string(r, "tm", tm, err);
    if (!rc) rc = moore_report_double(r, "throughput", lo, err);
    if (!rc) rc = moore_report_double(r, "lower", lo, err);
    if (!rc) rc = moore_report_double(r, "upper", up, err);
    return rc;
}

/* --tm: the (1+0.05) bounds under o->tm (through o->lookup when it has them). */
static int row_tm(const moore_compare_options *o, const char *spec, const moore_graph *g,
                  moore_report *r, moore_compare *c, moore_error *err)
{
    const double eps = 0.05;
    int rc = MOORE_OK, found = 0;
    if (o->lookup) {
        char task[MOORE_SPEC_MAX + 64];
        moore_report got;
        moore_report_init(&got);
        snprintf(task, sizeof task, "throughput:eps=%g:tm=%s", eps, o->tm);
        rc = db_read(o, spec, r, task, &got, &found, err);
        if (!rc && found)
            rc = tm_from_db(o->tm, &got, r, err);
        moore_report_clear(&got);
        if (!rc)
            *(found ? &c->db_groups_read : &c->db_groups_measured) += 1;
    }
    if (rc || found)
        return rc;
    moore_traffic *t = NULL;
    moore_flow_options fo;
    moore_flow_result f;
    double tub = NAN;
    moore_flow_options_default(&fo);
    fo.eps = eps;
    fo.threads = o->metric.threads;
    rc = moore_traffic_make(g, o->tm, o->metric.seed, &t, err);
    if (!rc)
        rc = moore_flow_approx(g, t, &fo, &f, err);
    if (!rc)
        rc = moore_flow_tub(g, t, &tub, err);
    if (!rc)
        rc = moore_flow_report(r, g, t, &f, tub, eps, 0, o->metric.seed, err);
    moore_traffic_free(t);
    return rc;
}

/* lambda2 / ramanujan_bound: one number for the spectral column (null when
 * either is undefined, or the graph is irregular: 2 sqrt(d-1) is the bound
 * of d-regular graphs only, and a Clos's mixed degrees have none). */
int plan_row_ratio(moore_report *r, moore_error *err)
{
    if (!moore_report_get(r, "lambda2"))
        return MOORE_OK;
    const moore_report_item *reg = moore_report_get(r, "regular");
    double l2 = moore_report_number(r, "lambda2"), rb = moore_report_number(r, "ramanujan_bound");
    return isfinite(l2) && isfinite(rb) && rb > 0 && !(reg && reg->type == MOORE_VALUE_BOOL &&
                                                       !reg->i)
               ? moore_report_double(r, "lambda2_ramanujan_ratio", l2 / rb, err)
               : moore_report_null(r, "lambda2_ramanujan_ratio", err);
}

/* The search's proof, where the throughput group (when run) may have a
 * tighter side. */
static int row_proof(const proof *pr, moore_report *r, moore_error *err)
{
    double lo = moore_report_number(r, "throughput_uniform");
    double up = moore_report_number(r, "throughput_uniform_upper");
    int rc = moore_report_double(r, "throughput_uniform",
                                 isfinite(lo) && lo > pr->lower ? lo : pr->lower, err);
    if (!rc)
        rc = moore_report_double(r, "throughput_uniform_upper",
                                 isfinite(up) && up < pr->upper ? up : pr->upper, err);
    if (!rc)
        rc = moore_report_string(r, "bandwidth_proof", pr->how, err);
    if (!rc && !isnan(pr->hose_lower))
        rc = moore_report_double(r, "throughput_hose", pr->hose_lower, err);
    if (!rc && !isnan(pr->hose_upper))
        rc = moore_report_double(r, "throughput_hose_upper", pr->hose_upper, err);
    return rc;
}

/* The routings a fabric would run: a tree's switches forward by ECMP; a
 * direct network adds adaptive and indirect choices. Each is bounded as the
 * routing metric group does (ε = 0.05, at most ROUTED_PHASES phases of the
 * path-restricted approximation: a proven lower bound). */
#define ROUTED_PHASES 16

static const char *const ROUTED[][2] = { { "ecmp", "ecmp" }, { "ksp:k=8", "ksp8" },
                                         { "valiant", "valiant" }, { "ugal", "ugal" } };

static int is_tree(const moore_graph *g)
{
    static const char *const trees[] = { "clos", "fattree", "xgft", "karyntree", NULL };
    for (int i = 0; g->family && trees[i]; i++)
        if (strcmp(g->family, trees[i]) == 0)
            return 1;
    return 0;
}

static int row_routed(const moore_compare_options *o, const moore_graph *g, moore_report *r,
                      moore_error *err)
{
    moore_traffic *t = NULL;
    moore_flow_options fo;
    moore_flow_options_default(&fo);
    fo.eps = 0.05;
    fo.max_phases = ROUTED_PHASES;
    fo.threads = o->metric.threads;
    int rc = moore_traffic_uniform(g, &t, err);
    int count = is_tree(g) ? 1 : (int)(sizeof ROUTED / sizeof ROUTED[0]);
    for (int i = 0; !rc && i < count; i++) {
        moore_flow_result f;
        char key[64];
        rc = moore_routed_throughput_spec(g, ROUTED[i][0], t, &fo, 0, &f, err);
        snprintf(key, sizeof key, "throughput_routed_%s", ROUTED[i][1]);
        if (!rc)
            rc = moore_report_double(r, key, f.lower, err);
    }
    for (int i = count; !rc && i < (int)(sizeof ROUTED / sizeof ROUTED[0]); i++) {
        char key[64]; /* a tree does not run it: null, so every row has the column */
        snprintf(key, sizeof key, "throughput_routed_%s", ROUTED[i][1]);
        rc = moore_report_null(r, key, err);
    }
    moore_traffic_free(t);
    return rc;
}

/* Measures g into a new row of c (identity, metric groups, the search's
 * proof, --tm) and hands the row to o->row_done. */
static int add_row(const moore_compare_options *o, const char *metrics, const char *spec,
                   const moore_graph *g, int64_t cables, const proof *pr, moore_compare *c,
                   moore_error *err)
{
    moore_compare_row *rows = realloc(c->rows, (size_t)(c->count + 1) * sizeof *rows);
    if (!rows)
        return moore_error_set(err, MOORE_ENOMEM, "compare: out of memory");
    c->rows = rows;
    moore_compare_row *row = &c->rows[c->count++];
    moore_report_init(&row->report);
    snprintf(row->spec, sizeof row->spec, "%s", spec);
    moore_report *r = &row->report;
    int rc = row_identity(o, spec, g, cables, r, err);
    if (!rc)
        rc = row_metrics(o, metrics, spec, g, r, c, err);
    if (!rc && pr && pr->how)
        rc = row_proof(pr, r, err);
    if (!rc && o->tm)
        rc = row_tm(o, spec, g, r, c, err);
    if (!rc && o->routed)
        rc = row_routed(o, g, r, err);
    if (!rc)
        rc = plan_row_ratio(r, err);
    if (!rc && o->row_done)
        o->row_done(o->row_ctx, c, c->count - 1);
    return rc;
}

static int measure(const moore_compare_options *o, const char *metrics, const char *spec,
                   moore_compare *c, moore_error *err)
{
    moore_graph *g;
    int64_t cables;
    int rc = moore_topology_load(spec, &g, err);
    if (rc)
        return rc;
    rc = check_counts(spec, g, &cables, err);
    if (!rc)
        rc = add_row(o, metrics, spec, g, cables, NULL, c, err);
    moore_graph_free(g);
    return rc;
}

/* Every switch within the radix: network ports × cables per link + servers. */
static int ports_fit(const moore_graph *g, int32_t multiplicity, int32_t radix)
{
    int64_t mult = multiplicity > 1 ? multiplicity : 1;
    for (int32_t v = 0; v < g->n; v++)
        if (moore_graph_degree(g, v) * mult + g->endpoints[v] > radix)
            return 0;
    return 1;
}

/* A family lists one network with several servers per switch (p=): the
 * rows differ only in p. With p servers on every server switch of the same
 * network, uniform traffic is the same matrix scaled by p²/(S−1) and the
 * hose set scaled by p, so a flow proven for one row, scaled, is proven for
 * the other: θ scales by the inverse. The memo keeps the last network whose
 * bounds were computed and proves a later row of it by scaling when the
 * scaled bound clears the target by DERIVE_MARGIN — far above the fixed-point
 * rounding by which a direct computation could differ, so the row is decided
 * as the direct computation decides it. A row so proven that ends up chosen
 * gets its bounds computed directly before it is measured. */
#define DERIVE_MARGIN 1e-5

typedef struct split_memo {
    moore_graph *g;             /* the network (a copy), NULL: nothing kept */
    int32_t p;                  /* its servers on each server switch */
    int64_t servers;
    double lower, upper;        /* uniform: the split's bounds */
    double hose_lower;          /* hose: the proven lower bound, NAN: none */
    const char *how;
} split_memo;

static void memo_clear(split_memo *m)
{
    moore_graph_free(m->g);
    memset(m, 0, sizeof *m);
}

/* p when every server switch of g has p servers, else 0. */
static int32_t common_p(const moore_graph *g)
{
    int32_t p = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (g->endpoints[v] > 0 && (p = p ? p : g->endpoints[v]) != g->endpoints[v])
            return 0;
    return p;
}

/* g is m's network with the same server switches, each with p servers. */
static int memo_same(const split_memo *m, const moore_graph *g, int32_t p)
{
    if (!m->g || !p || m->g->n != g->n || m->g->m != g->m ||
        memcmp(m->g->offs, g->offs, (size_t)(g->n + 1) * sizeof *g->offs) != 0 ||
        memcmp(m->g->adj, g->adj, (size_t)(2 * g->m) * sizeof *g->adj) != 0)
        return 0;
    for (int32_t v = 0; v < g->n; v++)
        if ((m->g->endpoints[v] > 0) != (g->endpoints[v] > 0))
            return 0;
    return 1;
}

/* Keeps g's bounds (a copy of g) for the rows after it. */
static int memo_keep(split_memo *m, const moore_graph *g, double lower, double upper,
                     double hose_lower, const char *how, moore_error *err)
{
    int32_t p = common_p(g);
    if (!p)
        return MOORE_OK;
    if (!memo_same(m, g, p)) {
        memo_clear(m);
        int rc = moore_graph_copy(g, &m->g, err);
        if (rc)
            return rc;
    }
    m->p = p;
    m->servers = moore_graph_endpoints_total(g);
    m->lower = lower;
    m->upper = upper;
    m->hose_lower = hose_lower;
    m->how = how;
    return MOORE_OK;
}

/* Proves g from the memo when the scaled bound clears the target; 1 if so. */
static int memo_proves(const moore_compare_options *o, const split_memo *m,
                       const moore_graph *g, proof *pr)
{
    int32_t p = common_p(g);
    if (!m || !memo_same(m, g, p))
        return 0;
    int64_t S = moore_graph_endpoints_total(g);
    if (traffic_is(o, "hose")) {
        double lower = m->hose_lower * (double)m->p / (double)p;
        if (!(lower >= o->bandwidth * (1 - HOSE_ROUNDING) * (1 + DERIVE_MARGIN)))
            return 0;
        pr->hose_lower = lower;
        pr->how = m->how;
    } else {
        /* T scales by c = (p²/(S−1)) / (p₀²/(S₀−1)) */
        double c = ((double)p * p / (double)(S - 1)) /
                   ((double)m->p * m->p / (double)(m->servers - 1));
        if (!(m->lower / c >= o->bandwidth * (1 + DERIVE_MARGIN)))
            return 0;
        pr->lower = m->lower / c;
        pr->upper = m->upper / c < pr->upper ? m->upper / c : pr->upper;
        pr->how = m->how;
    }
    pr->derived = 1;
    return 1;
}

/* Bounds on the built graph, cheapest first: the row's closed form and cuts
 * (upper), then the shortest-path split (lower) with TUB (upper) from the
 * same distances, and only when those leave B undecided and this family has
 * an approximation run left, the (1+ε) approximation's bounds. */
/* The hose rule: moore_flow_hose's splits, without the matching and METIS
 * (effort −1: a candidate costs well under a second at 1,000 switches; the
 * bisection column shows the cut). Its uniform bounds are valid for the
 * uniform columns too. */
static int bounds_hose(const moore_compare_options *o, const moore_graph *g, proof *pr,
                       split_memo *memo, moore_error *err)
{
    moore_flow_options fo;
    moore_flow_options_default(&fo);
    fo.threads = o->metric.threads;
    moore_hose_result h;
    if (memo_proves(o, memo, g, pr))
        return MOORE_OK;
    int rc = moore_flow_hose(g, &fo, -1, &h, err);
    if (rc)
        return rc;
    pr->hose_lower = h.lower;
    pr->hose_upper = h.upper < pr->upper ? h.upper : pr->upper;
    pr->lower = h.uniform_lower;
    pr->upper = h.uniform_upper < pr->upper ? h.uniform_upper : pr->upper;
    pr->how = h.method;
    return memo ? memo_keep(memo, g, NAN, NAN, h.lower, h.method, err) : MOORE_OK;
}

/* Any other matrix (worst, permutation, a file...): TUB, then the (1+ε)
 * approximation, at most 8 phases; the bounds reached are proven. */
static int bounds_matrix(const moore_compare_options *o, const moore_graph *g, proof *pr,
                         moore_error *err)
{
    moore_traffic *tm = NULL;
    moore_flow_options fo;
    moore_flow_result f;
    moore_flow_options_default(&fo);
    fo.eps = 0.05;
    fo.max_phases = 8;
    fo.threads = o->metric.threads;
    double tub = INFINITY;
    int rc = moore_traffic_make(g, o->traffic, o->metric.seed, &tm, err);
    if (!rc)
        rc = moore_flow_tub(g, tm, &tub, err);
    if (!rc && tub >= o->bandwidth)
        rc = moore_flow_approx(g, tm, &fo, &f, err);
    moore_traffic_free(tm);
    if (rc)
        return rc;
    pr->upper = tub;
    if (tub >= o->bandwidth) {
        pr->lower = f.lower;
        pr->upper = f.upper < tub ? f.upper : tub;
    }
    pr->how = "approx";
    return MOORE_OK;
}

/* A folded Clos (leaves, spines, cores): the flow written down by
 * moore_flow_clos decides what the split leaves open — exactly, on the Clos
 * networks measured (docs/throughput.md). Any other graph is refused by its
 * shape at once, and keeps the split's bounds. */
#define CLOS_FLOW_SECONDS 30.0

static int bounds_clos(const moore_graph *g, proof *pr, moore_error *err)
{
    moore_error sub;
    double lower = 0;
    int rc = moore_flow_clos(g, CLOS_FLOW_SECONDS, &lower, NULL, &sub);
    if (rc == MOORE_EINVAL)
        return MOORE_OK;
    if (rc)
        return moore_error_set(err, rc, "%s", sub.msg);
    if (lower > pr->lower) {
        pr->lower = lower;
        pr->how = "clos-flow";
    }
    return MOORE_OK;
}

/* A bound this close to the target decides nothing (rounding). */
#define NEAR_MARGIN 1e-9

/* The distance bounds (plan_bound_near) before any split: a row whose
 * uniform TUB, or under the hose whose best two-phase routing, they put
 * below the target is decided here (pr->how set; the split or the hose
 * bounds would only have confirmed it). */
static int bounds_near(const moore_compare_options *o, const moore_graph *g, proof *pr,
                       moore_error *err)
{
    double uniform, two_phase;
    int below = 0, rc;
    if (traffic_is(o, "hose")) {
        double target = o->bandwidth * (1 - HOSE_ROUNDING) / (1 + NEAR_MARGIN);
        double cut = plan_bound_cut_hose(g);
        if (cut < target) { /* a hose matrix no routing carries at the target */
            pr->hose_lower = 0;
            pr->hose_upper = cut;
            pr->how = "hose-cut";
            return MOORE_OK;
        }
        rc = plan_two_phase_below(g, o->metric.threads, target, &below, err);
        if (!rc && below) {
            pr->hose_lower = 0;
            pr->how = "two-phase-distances";
        }
        return rc;
    }
    rc = plan_bound_near(g, o->metric.threads, &uniform, &two_phase, err);
    if (!rc && uniform < o->bandwidth * (1 - NEAR_MARGIN)) {
        pr->upper = uniform;
        pr->how = "distances";
    }
    return rc;
}

static int bounds(const moore_compare_options *o, const moore_graph *g, double closed,
                  int *approx_left, split_memo *memo, proof *pr, moore_error *err)
{
    if (!traffic_is(o, "uniform") && !traffic_is(o, "hose"))
        return bounds_matrix(o, g, pr, err);
    double cut = plan_bound_cut(g), tub;
    pr->upper = closed < cut ? closed : cut; /* θ_hose ≤ θ_uniform: bounds both */
    if (pr->upper < o->bandwidth)
        return MOORE_OK;
    int rc = bounds_near(o, g, pr, err);
    if (rc || pr->how)
        return rc;
    if (traffic_is(o, "hose"))
        return bounds_hose(o, g, pr, memo, err);
    if (memo_proves(o, memo, g, pr))
        return MOORE_OK;
    /* TUB in full only where the approximation may still prove the row */
    rc = plan_bound_split_to(g, o->metric.threads, o->bandwidth, *approx_left > 0, &pr->lower,
                             &tub, err);
    if (!rc && memo && pr->lower >= o->bandwidth) /* a full split: keep it */
        rc = memo_keep(memo, g, pr->lower, tub, NAN, "split", err);
    if (tub < pr->upper)
        pr->upper = tub;
    pr->how = "split";
    if (!rc && pr->lower < o->bandwidth && pr->upper >= o->bandwidth)
        rc = bounds_clos(g, pr, err);
    if (!rc && isinf(tub) && pr->lower >= o->bandwidth) { /* the Clos flow proved it */
        rc = plan_bound_tub(g, o->metric.threads, &tub, err);
        if (tub < pr->upper)
            pr->upper = tub;
    }
    if (rc || pr->lower >= o->bandwidth || pr->upper < o->bandwidth || *approx_left <= 0)
        return rc;
    (*approx_left)--;
    moore_traffic *tm = NULL;
    moore_flow_options fo;
    moore_flow_result f;
    moore_flow_options_default(&fo);
    fo.eps = 0.05;
    fo.max_phases = 8; /* bounds a try's time; the bounds reached are still proven */
    fo.threads = o->metric.threads;
    rc = moore_traffic_make(g, "uniform", o->metric.seed, &tm, err);
    if (!rc)
        rc = moore_flow_approx(g, tm, &fo, &f, err);
    moore_traffic_free(tm);
    if (rc)
        return rc;
    if (f.lower > pr->lower)
        pr->lower = f.lower;
    if (f.upper < pr->upper)
        pr->upper = f.upper;
    pr->how = "approx";
    return MOORE_OK;
}

/* Builds row r and tries to prove it reaches the bandwidth: *g_out is the
 * graph when it does (the caller owns it), NULL otherwise. */
static int try_row(const moore_compare_options *o, const moore_plan_row *r, int *approx_left,
                   split_memo *memo, moore_graph **g_out, int64_t *cables, proof *pr,
                   moore_error *err)
{
    moore_graph *g = NULL;
    moore_error sub;
    int32_t comps = 0;
    *g_out = NULL;
    *pr = (proof){ 0, INFINITY, NULL, NAN, NAN, 0 };
    if (moore_spec_build(r->spec, &g, &sub))
        return MOORE_OK; /* a p= its family refuses to build: not a candidate */
    int rc = check_counts(r->spec, g, cables, err);
    if (!rc && ports_fit(g, r->counts.multiplicity, o->radix))
        rc = moore_components(g, NULL, &comps, err);
    if (!rc && comps == 1)
        rc = bounds(o, g, r->bound, approx_left, memo, pr, err);
    if (!rc && comps == 1 && pr->how &&
        reaches(o, traffic_is(o, "hose") ? pr->hose_lower : pr->lower))
        *g_out = g;
    else
        moore_graph_free(g);
    return rc;
}

/* cost_total by the layout group, NAN when it is absent or says nothing. */
static double cost_of(const moore_compare_options *o, const moore_graph *g, moore_error *err,
                      int *rc)
{
    moore_report tmp;
    moore_report_init(&tmp);
    *rc = moore_metrics_compute(g, "layout", &o->metric, &tmp, err);
    double cost = *rc ? NAN : moore_report_number(&tmp, "cost_total");
    moore_report_clear(&tmp);
    return cost;
}

typedef struct best_row {
    moore_graph *g;
    const moore_plan_row *row;
    int64_t cables;
    double cost;
    proof pr;
} best_row;

static void keep_if_better(best_row *b, moore_graph *g, const moore_plan_row *r, int64_t cables,
                           double cost, const proof *pr)
{
    if (!b->g || cost < b->cost) {
        moore_graph_free(b->g);
        *b = (best_row){ g, r, cables, cost, *pr };
        g = NULL;
    }
    moore_graph_free(g);
}

/* The bounds' work on a row, before it is built: the shortest-path split
 * visits every arc once per server switch (all switches, at most). */
static double row_work(const moore_plan_row *r)
{
    return (double)r->counts.switches * 2.0 * (double)r->counts.links;
}

/* Why a family's walk stopped short of a proven row, for its note. */
typedef struct walk_end {
    int tries;                  /* rows whose bounds ran (cuts alone not counted) */
    int by_cap, by_work;        /* stopped at the switch cap / the work budget */
} walk_end;

/* Walks family f's search rows cheapest first (see the file comment): stops
 * at the first row over the switch cap, after max_tries rows, or before a row
 * whose work would pass max_work (the first row is always tried). */
static int choose_family(const moore_compare_options *o, const moore_plan *plan,
                         const moore_family *f, int by_cost, int64_t cap, best_row *b,
                         walk_end *end, moore_error *err)
{
    int rc = MOORE_OK, approx_left = o->approx_tries, qualified = 0;
    int64_t first_switches = 0;
    double work = 0;
    int *tries = &end->tries;
    split_memo memo = { 0 };
    *end = (walk_end){ 0 };
    for (int64_t i = 0; !rc && i < plan->count; i++) {
        const moore_plan_row *r = &plan->rows[i];
        if (r->family != f || r->ruled_out)
            continue;
        if (b->g && (!by_cost || qualified >= 3 || r->counts.switches * 10 > first_switches * 11))
            break;
        if ((end->by_cap = cap > 0 && r->counts.switches > cap))
            break;
        if ((end->by_work = o->max_work > 0 && work > 0 && work + row_work(r) > o->max_work))
            break;
        if (*tries >= o->max_tries)
            break;
        if (o->metric.progress) {
            char what[MOORE_SPEC_MAX + 48];
            snprintf(what, sizeof what, "compare %s: trying %s", f->name, r->spec);
            o->metric.progress(o->metric.progress_ctx, what,
                               (double)*tries / (o->max_tries > 0 ? o->max_tries : 1));
        }
        moore_graph *g;
        int64_t cables;
        proof pr;
        rc = try_row(o, r, &approx_left, &memo, &g, &cables, &pr, err);
        *tries += pr.how != NULL; /* rows refuted by cuts alone are cheap: not counted */
        work += pr.how != NULL ? row_work(r) : 0;
        if (rc || !g)
            continue;
        double cost = by_cost ? cost_of(o, g, err, &rc) : (double)qualified;
        if (!qualified++)
            first_switches = r->counts.switches;
        keep_if_better(b, g, r, cables, cost, &pr);
    }
    memo_clear(&memo);
    if (!rc && b->g && b->pr.derived) { /* measured with its own bounds */
        int none = 0;
        b->pr = (proof){ 0, INFINITY, NULL, NAN, NAN, 0 };
        rc = bounds(o, b->g, b->row->bound, &none, NULL, &b->pr, err);
    }
    return rc;
}

/* The Clos baseline is searched first, and caps the others: a family that
 * needs more than o->cap_vs_clos times its switches is no contender. */
static int search_family(const moore_compare_options *o, const char *metrics,
                         const moore_plan *plan, const moore_family *f, int64_t *cap,
                         moore_compare *c, moore_error *err)
{
    walk_end end;
    best_row b = { 0 };
    int rc = choose_family(o, plan, f, c->by_cost, *cap, &b, &end, err);
    if (!rc && b.g) {
        rc = add_row(o, metrics, b.row->spec, b.g, b.cables, &b.pr, c, err);
        if (strcmp(f->name, "clos") == 0 && o->cap_vs_clos > 0)
            *cap = (int64_t)(o->cap_vs_clos * (double)b.row->counts.switches);
    } else if (!rc)
        rc = add_note(c, err, "%s: no configuration with radix %d and at least %lld endpoints "
                      "is proven to reach bandwidth %g under %s traffic%s (%d built and "
                      "refuted or undecided; the rest ruled out by closed forms%s)", f->name,
                      (int)o->radix, (long long)o->endpoints, o->bandwidth,
                      o->traffic ? o->traffic : "uniform",
                      *cap > 0 ? " within the switch cap set by the Clos" : "", end.tries,
                      end.by_work ? ", or left for the work budget" :
                      end.by_cap ? ", or over the cap" : "");
    moore_graph_free(b.g);
    return rc;
}

/* The families after the Clos (B > 0) or the topologies to measure (B = 0):
 * independent items, spread over an MPI job by moore_dist_map (docs/scale.md)
 * — item i alone on rank i mod K, its rows and notes appended in order on
 * every rank — or run in turn, sharing each item's all-pairs work, when there
 * are fewer items than ranks. Either way the rows are those of one process. */
typedef struct compare_items {
    const moore_compare_options *o;
    moore_compare_options local; /* o for one item: its own group, no row_done */
    const char *metrics;
    const moore_plan *plan;      /* B > 0: the search; NULL: measure spec[i] */
    const moore_family **families;
    char (*spec)[MOORE_SPEC_MAX];
    int64_t cap, count;
    moore_compare *c;
} compare_items;

static int item_run(void *ctx, int64_t i, moore_dist_blob *out, moore_error *err)
{
    compare_items *it = ctx;
    moore_compare part = { .bandwidth = it->c->bandwidth, .by_cost = it->c->by_cost };
    int64_t cap = it->cap;
    int rc;
    if (it->plan)
        rc = search_family(&it->local, it->metrics, it->plan, it->families[i], &cap, &part, err);
    else {
        if (it->local.metric.progress) {
            char what[MOORE_SPEC_MAX + 32];
            snprintf(what, sizeof what, "compare %d/%d: %s", (int)i + 1, (int)it->count,
                     it->spec[i]);
            it->local.metric.progress(it->local.metric.progress_ctx, what,
                                      (double)i / it->count);
        }
        rc = measure(&it->local, it->metrics, it->spec[i], &part, err);
    }
    if (!rc)
        rc = moore_dist_pack_compare(out, &part, err);
    moore_compare_clear(&part);
    return rc;
}

static int item_take(void *ctx, int64_t i, moore_dist_blob *in, moore_error *err)
{
    compare_items *it = ctx;
    int first = it->c->count;
    (void)i;
    int rc = moore_dist_unpack_compare(in, it->c, err);
    for (int r = first; !rc && it->o->row_done && r < it->c->count; r++)
        it->o->row_done(it->o->row_ctx, it->c, r);
    return rc;
}

/* One process with threads: the items run side by side, one thread each
 * (their own work on one thread: a family's rows are searched in the same
 * order and decided the same whatever the threads), and are taken — rows
 * appended, handed to row_done — in index order as soon as every item
 * before them is done. The first item that fails, in index order, decides
 * the outcome, as run one after the other. */
typedef struct item_slot {
    moore_dist_blob blob;
    int rc, done;
    moore_error err;
} item_slot;

/* Takes the done items that come next in order (inside the take lock). */
static void items_take_ready(const moore_dist_loop *l, item_slot *slot, int64_t *taken,
                             int *stop, int *rc, moore_error *err)
{
    while (!*stop && *taken < l->count && slot[*taken].done) {
        item_slot *s = &slot[*taken];
        s->blob.at = 0;
        int r = s->rc ? s->rc : l->take(l->ctx, *taken, &s->blob, &s->err);
        moore_dist_blob_clear(&s->blob);
        if (r) {
            *rc = r;
            if (err)
                *err = s->err;
#pragma omp atomic write
            *stop = 1;
        }
        (*taken)++;
    }
}

static int items_threads(const moore_dist_loop *l, int threads, moore_error *err)
{
    item_slot *slot = moore_calloc((size_t)l->count, sizeof *slot, err);
    if (!slot)
        return core_alloc_code(err);
    int64_t next = 0, taken = 0;
    int stop = 0, rc = MOORE_OK;
#pragma omp parallel num_threads(threads)
    for (;;) {
        int64_t i;
        int halt;
#pragma omp atomic capture
        i = next++;
#pragma omp atomic read
        halt = stop;
        if (i >= l->count || halt)
            break;
        moore_error_clear(&slot[i].err);
        slot[i].rc = l->run(l->ctx, i, &slot[i].blob, &slot[i].err);
        pthread_mutex_lock(&compare_take_lock);
        slot[i].done = 1;
        items_take_ready(l, slot, &taken, &stop, &rc, err);
        pthread_mutex_unlock(&compare_take_lock);
    }
    for (int64_t i = 0; i < l->count; i++)
        moore_dist_blob_clear(&slot[i].blob);
    free(slot);
    return rc;
}

/* The caller's progress callback, one call at a time (items_threads). */
static void items_progress(void *ctx, const char *what, double fraction)
{
    const compare_items *it = ctx;
    pthread_mutex_lock(&compare_progress_lock);
    it->o->metric.progress(it->o->metric.progress_ctx, what, fraction);
    pthread_mutex_unlock(&compare_progress_lock);
}

static int items_run(compare_items *it, int64_t count, moore_error *err)
{
    const moore_dist *spread = moore_dist_for_items(it->o->metric.dist, count);
    int threads = it->o->metric.threads > 0 ? it->o->metric.threads : omp_get_max_threads();
    it->count = count;
    it->local = *it->o;
    it->local.metric.dist = spread ? NULL : it->o->metric.dist;
    it->local.row_done = NULL;
    moore_dist_loop loop = { count, item_run, item_take, it };
    if (moore_dist_size(it->o->metric.dist) > 1 || threads < 2 || count < 2)
        return moore_dist_map(spread, &loop, err);
    it->local.metric.threads = 1;
    if (it->o->metric.progress) {
        it->local.metric.progress = items_progress;
        it->local.metric.progress_ctx = it;
    }
    return items_threads(&loop, threads < count ? threads : (int)count, err);
}

/* Every selected family but the Clos, in table order, as items. */
static int search_rest(const moore_compare_options *o, const char *metrics,
                       const moore_plan *plan, const moore_family *clos, int64_t cap,
                       moore_compare *c, moore_error *err)
{
    int64_t n = 0;
    int on = 0, rc = MOORE_OK;
    for (const moore_family *f = moore_families(); f->name; f++)
        n++;
    compare_items it = { .o = o, .metrics = metrics, .plan = plan, .cap = cap, .c = c };
    it.families = moore_malloc((size_t)n + 1, sizeof *it.families, err);
    if (!it.families)
        return core_alloc_code(err);
    n = 0;
    for (const moore_family *f = moore_families(); !rc && f->name; f++)
        if (f != clos && !(rc = moore_plan_family_selected(o->families, f, &on, err)) && on)
            it.families[n++] = f;
    if (!rc)
        rc = items_run(&it, n, err);
    free(it.families);
    return rc;
}

/* The closed-form switches of the full-bisection Clos for this radix and
 * target (balanced cores, as many tiers as it takes), which carries any
 * traffic the servers can send at full rate (docs/throughput.md, "Clos
 * beyond 3 tiers"); 0 when the radix builds no such Clos (an odd radix past
 * 2 tiers). */
static int64_t closed_clos(const moore_compare_options *o)
{
    char spec[MOORE_SPEC_MAX];
    moore_counts c;
    moore_error sub;
    snprintf(spec, sizeof spec, "clos:radix=%d,endpoints=%lld,cores=balanced", (int)o->radix,
             (long long)o->endpoints);
    return moore_spec_counts(spec, &c, &sub) ? 0 : c.switches;
}

/* The cap before any Clos is built: cap_vs_clos times closed_clos. */
static int64_t closed_cap(const moore_compare_options *o)
{
    return o->cap_vs_clos > 0 ? (int64_t)(o->cap_vs_clos * (double)closed_clos(o)) : 0;
}

/* A Clos this small is searched on one thread in well under a second, so
 * the other families' rows are listed beside it; a larger one keeps every
 * thread for its split. */
#define CLOS_BESIDE_MAX 4096

/* The Clos's rows and search, and the other families' rows listed at the
 * same time (for a small Clos, on a second thread); *rest gets those rows. */
static int search_clos(const moore_compare_options *o, const char *metrics,
                       const moore_family *clos, int64_t *cap, moore_plan *rest,
                       moore_compare *c, moore_error *err)
{
    moore_plan plan = { 0 };
    moore_error rest_err;
    int threads = o->metric.threads > 0 ? o->metric.threads : omp_get_max_threads();
    int beside = threads > 1 && closed_clos(o) <= CLOS_BESIDE_MAX, rc, rc_rest;
    moore_error_clear(&rest_err);
#pragma omp parallel sections num_threads(beside ? 2 : 1)
    {
#pragma omp section
        {
            rc = plan_search_part(o->radix, o->endpoints, o->families, o->bandwidth, clos, 1,
                                  &plan, err);
            if (!rc)
                rc = search_family(o, metrics, &plan, clos, cap, c, err);
        }
#pragma omp section
        rc_rest = plan_search_part(o->radix, o->endpoints, o->families, o->bandwidth, clos, 0,
                                   rest, &rest_err);
    }
    if (!rc && rc_rest && err)
        *err = rest_err;
    rc = rc ? rc : rc_rest;
    if (!rc && plan.count + rest->count == 0) { /* the search's refusal, naming why */
        moore_plan all;
        rc = moore_plan_search(o->radix, o->endpoints, o->families, o->bandwidth, &all, err);
        moore_plan_clear(&all);
    }
    moore_plan_clear(&plan);
    if (rc)
        moore_plan_clear(rest);
    return rc;
}

static int run_search(const moore_compare_options *o, const char *metrics, moore_compare *c,
                      moore_error *err)
{
    moore_plan rest = { 0 };
    int64_t cap = closed_cap(o);
    const moore_family *clos = moore_family_find("clos");
    int on = 0, rc = MOORE_OK;
    if (clos)
        rc = moore_plan_family_selected(o->families, clos, &on, err);
    if (!rc && on)
        rc = search_clos(o, metrics, clos, &cap, &rest, c, err);
    else if (!rc)
        rc = moore_plan_search(o->radix, o->endpoints, o->families, o->bandwidth, &rest, err);
    if (!rc)
        rc = search_rest(o, metrics, &rest, clos, cap, c, err);
    moore_plan_clear(&rest);
    if (!rc && c->count == 0)
        rc = moore_error_set(err, MOORE_EINVAL, "compare: no family reaches bandwidth %g with "
                             "%lld endpoints and radix %d", o->bandwidth,
                             (long long)o->endpoints, (int)o->radix);
    return rc;
}

int moore_compare_run(const moore_compare_options *o, moore_compare *out, moore_error *err)
{
    memset(out, 0, sizeof *out);
    out->bandwidth = o->topology_count > 0 ? 0 : o->bandwidth;
    out->by_cost = moore_metric_group_find("layout") != NULL;
    char metrics[256];
    const char *list = o->metrics;
    int rc = MOORE_OK;
    if (o->bandwidth < 0 || !isfinite(o->bandwidth))
        return moore_error_set(err, MOORE_EINVAL, "compare: bandwidth %g must be above 0 "
                               "(or 0 for any)", o->bandwidth);
    if (!list) {
        rc = moore_compare_default_metrics(metrics, sizeof metrics, err);
        list = metrics;
    }
    if (!rc)
        rc = moore_compare_check_metrics(list, err);
    if (!rc && o->tm && !*o->tm)
        rc = moore_error_set(err, MOORE_EINVAL, "compare: tm is empty: it must name a traffic "
                             "matrix (uniform, worst, permutation, a workload or a file)");
    if (!rc && out->bandwidth > 0)
        rc = run_search(o, list, out, err);
    else if (!rc) {
        compare_list l = { 0, NULL };
        rc = choose_any(o, &l, out, err);
        compare_items it = { .o = o, .metrics = list, .spec = l.spec, .c = out };
        if (!rc)
            rc = items_run(&it, l.count, err);
        free(l.spec);
    }
    if (!rc && o->lookup)
        rc = add_note(out, err, "database: %d results (row x metric group or --tm) read, %d "
                      "measured because the database lacks them", out->db_groups_read,
                      out->db_groups_measured);
    if (rc)
        moore_compare_clear(out);
    return rc;
}

void moore_compare_clear(moore_compare *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->count; i++)
        moore_report_clear(&c->rows[i].report);
    free(c->rows);
    free(c->notes);
    memset(c, 0, sizeof *c);
}

int moore_compare_vs_baseline(const moore_compare *c, int row, double pct[3], moore_error *err)
{
    static const char *const keys[3] = { "switches", "cables", "cost_total" };
    const moore_report *base = NULL;
    for (int i = 0; i < c->count && !base; i++) {
        const moore_report_item *fam = moore_report_get(&c->rows[i].report, "family");
        if (fam && fam->type == MOORE_VALUE_STRING && strcmp(fam->s, "clos") == 0)
            base = &c->rows[i].report;
    }
    if (!base)
        return moore_error_set(err, MOORE_EINVAL, "compare: no clos row to compare against");
    for (int k = 0; k < 3; k++) {
        double b = moore_report_number(base, keys[k]);
        double v = moore_report_number(&c->rows[row].report, keys[k]);
        pct[k] = isfinite(b) && isfinite(v) && b > 0 ? 100.0 * (v - b) / b : NAN;
    }
    return MOORE_OK;
}

void moore_compare_verdict(const moore_compare *c, char *buf, size_t len)
{
    int sf = -1;
    for (int i = 0; i < c->count && sf < 0; i++) {
        const moore_report_item *fam = moore_report_get(&c->rows[i].report, "family");
        if (fam && fam->type == MOORE_VALUE_STRING && strcmp(fam->s, "slimfly") == 0)
            sf = i;
    }
    double pct[3];
    moore_error sub;
    if (sf < 0 || moore_compare_vs_baseline(c, sf, pct, &sub)) {
        snprintf(buf, len, "often-quoted claim (Slim Fly 25-40%% fewer switches and cables than "
                 "fat-tree): not checked, %s", sf < 0 ? "no Slim Fly row" : "no Clos row");
        return;
    }
    double sw = -pct[0], ca = -pct[1];
    const char *word = sw >= 25 && ca >= 25 ? "holds" : sw >= 25 || ca >= 25 ? "holds in part"
                                                                             : "does not hold";
    snprintf(buf, len, "often-quoted claim (Slim Fly 25-40%% fewer switches and cables than fat-tree "
             "at equal ports): %s here - Slim Fly has %.0f%% %s switches and %.0f%% %s cables "
             "than the Clos%s", word, fabs(sw), sw >= 0 ? "fewer" : "more", fabs(ca),
             ca >= 0 ? "fewer" : "more",
             c->bandwidth > 0 ? " at the same proven bandwidth" : " (bandwidth not matched)");
}
