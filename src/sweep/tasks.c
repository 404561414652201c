/* tasks.c — what a sweep runs on each configuration.
 *
 * A task is a metric group ("paths") or a throughput measurement
 * ("throughput:eps=0.05:tm=worst"; the matrix comes last so that a matrix
 * name may itself hold ':' and ','). Running a task fills a report with the
 * keys `moore stats --json` (or `moore throughput --json`) prints, so the
 * database holds the same numbers the commands show. */
#include "sweep_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "moore/flow.h"
#include "moore/metrics.h"
#include "moore/traffic.h"
#include "moore/workload.h"

#define TASK_TP_PREFIX "throughput:eps="

static int add_task(moore_sweep *s, const char *task, moore_error *err)
{
    for (int i = 0; i < s->task_count; i++)
        if (strcmp(s->tasks[i], task) == 0)
            return MOORE_OK;
    if (strlen(task) >= MOORE_SWEEP_TASK_MAX)
        return moore_error_set(err, MOORE_EINVAL, "task '%.60s...' is too long", task);
    void *v = realloc(s->tasks, (size_t)(s->task_count + 1) * sizeof *s->tasks);
    if (!v)
        return moore_error_set(err, MOORE_ENOMEM, "sweep: out of memory for tasks");
    s->tasks = v;
    snprintf(s->tasks[s->task_count++], MOORE_SWEEP_TASK_MAX, "%s", task);
    return MOORE_OK;
}

/* 1 when name is an item of the comma list. */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

/* Refuses an item of the comma list that is no metric group. */
static int check_groups(const char *list, const char *name, moore_error *err)
{
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        char one[64];
        snprintf(one, sizeof one, "%.*s", (int)len, p);
        if (!moore_metric_group_find(one))
            return moore_error_set(err, MOORE_EINVAL, "%s: unknown metric group '%s'", name,
                                   one);
        p += len + (p[len] == ',');
    }
    return MOORE_OK;
}

/* "metrics": a list of group names or "all"; absent: the default groups.
 * Tasks follow the group table's order, as `moore stats` runs them. */
static int parse_metrics(moore_sweep *s, const cJSON *m, const char *name, moore_error *err)
{
    char list[1024] = "";
    int all = cJSON_IsString(m) && strcmp(m->valuestring, "all") == 0;
    int rc = m && !all ? sweep_join_list(m, list, sizeof list, "metrics", err) : MOORE_OK;
    if (rc)
        return sweep_error_prefix(err, name);
    if ((rc = check_groups(list, name, err)))
        return rc;
    for (const moore_metric_group *g = moore_metric_groups(); !rc && g->name; g++)
        if (m ? all || listed(list, g->name) : g->default_on)
            rc = add_task(s, g->name, err);
    return rc;
}

/* A matrix name that no configuration could use — not a built-in matrix, a
 * workload description that does not parse (llm:tp=0), a file that cannot be
 * read — refuses the sweep before anything is measured, as any other mistake
 * of the file does; only what depends on the graph is left to each task. */
static int check_matrix(const char *tm, const char *name, moore_error *err)
{
    if (!strcmp(tm, "uniform") || !strcmp(tm, "permutation") || !strcmp(tm, "worst"))
        return MOORE_OK;
    moore_error sub;
    if (moore_workload_is_spec(tm)) {
        moore_workload w;
        return moore_workload_parse(tm, &w, &sub)
                   ? moore_error_set(err, MOORE_EINVAL, "%s: throughput tm: %s", name, sub.msg)
                   : MOORE_OK;
    }
    FILE *f = fopen(tm, "r");
    if (!f)
        return moore_error_set(err, MOORE_EINVAL, "%s: traffic '%s' is not uniform, "
                               "permutation, worst, a workload (llm:, alltoall, allreduce) or a "
                               "readable CSV file", name, tm);
    fclose(f);
    return MOORE_OK;
}

/* "throughput": {"tm": NAME or [NAMES], "eps": E} */
static int parse_throughput(moore_sweep *s, const cJSON *t, const char *name, moore_error *err)
{
    static const char *const known[] = { "tm", "eps", NULL };
    if (!cJSON_IsObject(t))
        return moore_error_set(err, MOORE_EINVAL, "%s: \"throughput\" must be {\"tm\": [...], "
                               "\"eps\": E}", name);
    int rc = sweep_check_keys(t, known, name, err);
    const cJSON *eps = cJSON_GetObjectItemCaseSensitive(t, "eps");
    const cJSON *tm = cJSON_GetObjectItemCaseSensitive(t, "tm");
    double e = eps ? eps->valuedouble : 0.05;
    if (!rc && eps && (!cJSON_IsNumber(eps) || !(e >= 1e-4 && e <= 1)))
        rc = moore_error_set(err, MOORE_EINVAL, "%s: throughput eps must be a number in "
                             "[0.0001, 1]", name);
    if (!rc && !cJSON_IsArray(tm) && !cJSON_IsString(tm))
        rc = moore_error_set(err, MOORE_EINVAL, "%s: throughput \"tm\" must name traffic "
                             "matrices", name);
    const cJSON *one = cJSON_IsArray(tm) ? tm->child : tm;
    if (!rc && !one)
        rc = moore_error_set(err, MOORE_EINVAL, "%s: the list of 'tm' is empty", name);
    for (; !rc && one; one = cJSON_IsArray(tm) ? one->next : NULL) {
        char task[MOORE_SWEEP_TASK_MAX];
        if (!cJSON_IsString(one) || !*one->valuestring)
            return moore_error_set(err, MOORE_EINVAL, "%s: a traffic matrix must be a name",
                                   name);
        snprintf(task, sizeof task, TASK_TP_PREFIX "%g:tm=%s", e, one->valuestring);
        rc = check_matrix(one->valuestring, name, err);
        if (!rc)
            rc = add_task(s, task, err);
    }
    return rc;
}

int sweep_tasks_parse(moore_sweep *s, const cJSON *root, const char *name, moore_error *err)
{
    const cJSON *tp = cJSON_GetObjectItemCaseSensitive(root, "throughput");
    int rc = parse_metrics(s, cJSON_GetObjectItemCaseSensitive(root, "metrics"), name, err);
    if (!rc && tp)
        rc = parse_throughput(s, tp, name, err);
    if (!rc && s->task_count == 0)
        rc = moore_error_set(err, MOORE_EINVAL, "%s: nothing to measure", name);
    return rc;
}

/* The approximation's bounds for one matrix, as `moore throughput --json`
 * names them. */
static int run_throughput(const moore_graph *g, const char *task, const moore_metric_options *o,
                          moore_report *r, moore_error *err)
{
    char *end;
    double eps = strtod(task + strlen(TASK_TP_PREFIX), &end);
    const char *tm = strncmp(end, ":tm=", 4) == 0 ? end + 4 : NULL;
    if (!tm)
        return moore_error_set(err, MOORE_EINTERNAL, "sweep: malformed task '%s'", task);
    moore_traffic *t = NULL;
    moore_flow_options fo;
    moore_flow_result res;
    moore_flow_options_default(&fo);
    fo.eps = eps;
    fo.threads = o->threads;
    int rc = moore_traffic_make(g, tm, o->seed, &t, err);
    if (!rc)
        rc = moore_flow_approx(g, t, &fo, &res, err);
    if (!rc)
        rc = moore_report_double(r, "throughput", res.lower, err);
    if (!rc)
        rc = moore_report_double(r, "throughput_upper", res.upper, err);
    if (!rc)
        rc = moore_report_bool(r, "converged", res.converged, err);
    moore_traffic_free(t);
    return rc;
}

int sweep_task_run(const moore_graph *g, const char *task, const moore_metric_options *o,
                   moore_report *r, moore_error *err)
{
    if (strncmp(task, TASK_TP_PREFIX, strlen(TASK_TP_PREFIX)) == 0)
        return run_throughput(g, task, o, r, err);
    return moore_metrics_compute(g, task, o, r, err);
}

/* Keys whose value is a proven bound rather than an exact value. */
static const struct { const char *key; const char *kind; } BOUNDS[] = {
    { "throughput", "lower" },          { "throughput_upper", "upper" },
    { "throughput_uniform", "lower" },  { "throughput_uniform_upper", "upper" },
    { "throughput_worst", "lower" },    { "throughput_worst_upper", "upper" },
    { "tub_uniform", "upper" },         { "tub_worst", "upper" },
    { "bisection_cut", "upper" },       { "bisection_bandwidth", "upper" },
    { "bisection_lower", "lower" },     { NULL, NULL }
};

const char *sweep_bound_kind(const char *key)
{
    for (int i = 0; BOUNDS[i].key; i++)
        if (strcmp(BOUNDS[i].key, key) == 0)
            return BOUNDS[i].kind;
    return "exact";
}
