/* sweep.c — what the report measures: the main comparison at the user's
 * endpoint count with every default metric (throughput too, when the metric
 * table has it), and a cheaper comparison (basic + paths) at each endpoint
 * count of the sweep for the figures against size. Both go through
 * moore_compare_run, so the page shows exactly the configurations `moore
 * compare` picks. */
#include "report_internal.h"

#include <stdio.h>
#include <string.h>

/* compare's default groups plus throughput. */
static int main_metrics(char *buf, size_t len, moore_error *err)
{
    int rc = moore_compare_default_metrics(buf, len, err);
    if (!rc && moore_metric_group_find("throughput") && strlen(buf) + 12 < len)
        strcat(buf, ",throughput");
    return rc;
}

static void progress(const moore_page_options *o, const char *what, double f)
{
    if (o->metric.progress)
        o->metric.progress(o->metric.progress_ctx, what, f);
}

static int compare_at(const moore_page_options *o, int64_t endpoints, const char *metrics,
                      moore_compare *out, moore_error *err)
{
    moore_compare_options c;
    moore_compare_options_default(&c);
    c.radix = o->radix;
    c.endpoints = endpoints;
    c.families = o->families;
    c.metrics = metrics;
    c.metric = o->metric;
    c.metric.progress = NULL; /* the page reports its own steps */
    return moore_compare_run(&c, out, err);
}

int page_measure(const moore_page_options *o, page_data *d, moore_error *err)
{
    char metrics[256], what[96];
    memset(d, 0, sizeof *d);
    int total = o->sweep_count + 1;
    progress(o, "report: main comparison", 0);
    int rc = main_metrics(metrics, sizeof metrics, err);
    if (!rc)
        rc = compare_at(o, o->endpoints, metrics, &d->main, err);
    for (int i = 0; !rc && i < o->sweep_count; i++) {
        snprintf(what, sizeof what, "report: sweep %lld endpoints", (long long)o->sweep[i]);
        progress(o, what, (double)(i + 1) / total);
        rc = compare_at(o, o->sweep[i], "basic,paths", &d->sweep[i], err);
        if (rc == MOORE_EINVAL) /* no family reaches this size: an empty point */
            rc = MOORE_OK;
        d->sweep_count = i + 1;
    }
    progress(o, "report: figures", 1);
    return rc;
}

void page_data_free(page_data *d)
{
    moore_compare_free(&d->main);
    for (int i = 0; i < d->sweep_count; i++)
        moore_compare_free(&d->sweep[i]);
    d->sweep_count = 0;
}

const moore_compare_row *page_row(const moore_compare *c, const char *family)
{
    for (int i = 0; i < c->count; i++) {
        const moore_report_item *it = moore_report_get(&c->rows[i].report, "family");
        if (it && it->type == MOORE_VALUE_STRING && strcmp(it->s, family) == 0)
            return &c->rows[i];
    }
    return NULL;
}
