/* grow.c — `moore grow`'s driver (docs/growth.md): checks the request, runs
 * each family's rule (grow_rules.c) and measures every step (grow_step.c),
 * handing each step to the caller as soon as it is done, then names the
 * cheapest family proven at every step. */
#include "grow_internal.h"
#include "moore/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void moore_grow_options_default(moore_grow_options *o)
{
    memset(o, 0, sizeof *o);
    o->bandwidth = 1;
    o->batch = 64;
    o->seed = 1;
    o->labour = 50;
    moore_cost_model_default(&o->model);
}

const char *moore_grow_default_families(void)
{
    return "jellyfish,xpander,clos,dragonfly,slimfly,polarfly";
}

void moore_grow_clear(moore_grow_result *r)
{
    if (!r)
        return;
    free(r->families);
    memset(r, 0, sizeof *r);
}

static int check_steps_batch(const moore_grow_options *o, moore_error *err);

/* Steps increasing, batch and bandwidth sane. */
static int check_steps(const moore_grow_options *o, moore_error *err)
{
    if (o->radix < 2)
        return moore_error_set(err, MOORE_EINVAL, "radix: %d is below 2", (int)o->radix);
    if (o->step_count < 1 || o->step_count > MOORE_GROW_MAX_STEPS)
        return moore_error_set(err, MOORE_EINVAL, "steps: %d steps given; 1 to %d are allowed",
                               o->step_count, MOORE_GROW_MAX_STEPS);
    for (int k = 0; k < o->step_count; k++) {
        if (o->steps[k] < 1)
            return moore_error_set(err, MOORE_EINVAL, "steps: %lld servers is not positive",
                                   (long long)o->steps[k]);
        if (k > 0 && o->steps[k] <= o->steps[k - 1])
            return moore_error_set(err, MOORE_EINVAL,
                                   "steps: %lld after %lld; steps must be strictly increasing",
                                   (long long)o->steps[k], (long long)o->steps[k - 1]);
    }
    return check_steps_batch(o, err);
}

/* Batch, bandwidth and labour sane. */
static int check_steps_batch(const moore_grow_options *o, moore_error *err)
{
    if (o->batch < 1)
        return moore_error_set(err, MOORE_EINVAL, "batch: %lld cables; a batch needs at least 1",
                               (long long)o->batch);
    if (!(o->bandwidth >= 0) || !isfinite(o->bandwidth))
        return moore_error_set(err, MOORE_EINVAL, "bandwidth: %g is not a number >= 0",
                               o->bandwidth);
    if (!(o->labour >= 0) || !isfinite(o->labour))
        return moore_error_set(err, MOORE_EINVAL, "labour: %g is not a price >= 0", o->labour);
    return MOORE_OK;
}

/* The families asked, in the order asked (each known and with a planner). */
static int families_of(const char *list, const moore_family **out, int *count, int max,
                       moore_error *err)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    *count = 0;
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        const moore_family *f = moore_family_find(w);
        int selected = 0;
        int rc = moore_plan_family_selected(w, f ? f : moore_families(), &selected, err);
        if (rc)
            return rc;
        if (!f)
            return moore_error_set(err, MOORE_EINVAL, "families: unknown family '%s'", w);
        for (int i = 0; i < *count; i++)
            if (out[i] == f)
                return moore_error_set(err, MOORE_EINVAL, "families: %s named twice", w);
        if (*count >= max)
            return moore_error_set(err, MOORE_EINVAL, "families: more than %d named", max);
        out[(*count)++] = f;
    }
    if (*count == 0)
        return moore_error_set(err, MOORE_EINVAL, "families: none named");
    return MOORE_OK;
}

/* Refuses a last step that no family asked has any configuration for. */
static int check_reachable(const moore_grow_options *o, const char *list, moore_error *err)
{
    moore_plan plan;
    int64_t last = o->steps[o->step_count - 1];
    int rc = moore_plan_make(o->radix, last, list, &plan, err);
    if (rc)
        return rc;
    int any = 0;
    for (int64_t i = 0; i < plan.count; i++)
        any |= plan.rows[i].chosen && plan.rows[i].counts.switches <= MOORE_GROW_MAX_SWITCHES;
    moore_plan_clear(&plan);
    if (!any)
        return moore_error_set(err, MOORE_EINVAL,
                               "steps: %lld servers: no family asked has a configuration with "
                               "radix %d and at most %d switches that reaches it",
                               (long long)last, (int)o->radix, MOORE_GROW_MAX_SWITCHES);
    return MOORE_OK;
}

static void totals(moore_grow_family *f)
{
    f->cost_total = 0;
    f->cables_touched = 0;
    f->during_lower = NAN;
    f->all_proven = f->reached;
    for (int k = 0; k < f->step_count; k++) {
        const moore_grow_step *s = &f->steps[k];
        f->cost_total += s->cost_step;
        f->cables_touched += s->cables_touched;
        if (k > 0 && (isnan(f->during_lower) || s->during_lower < f->during_lower))
            f->during_lower = s->during_lower;
        f->all_proven &= s->proven;
    }
}

/* Runs f's rule and measures its steps. */
static int grow_family(const moore_grow_options *o, const moore_family *fam,
                       moore_grow_family *f, moore_error *err)
{
    plan_grow_config cfg[MOORE_GROW_MAX_STEPS];
    memset(cfg, 0, sizeof cfg);
    snprintf(f->family, sizeof f->family, "%s", fam->name);
    int rc = plan_grow_rule(o, fam, cfg, &f->rule, &f->reached, f->note, sizeof f->note, err);
    /* a family that cannot reach every step still shows the steps it reaches */
    for (int k = 0; !rc && cfg[k].g && k < o->step_count; k++) {
        moore_grow_step *s = &f->steps[k];
        s->target = o->steps[k];
        snprintf(s->topology, sizeof s->topology, "%s", cfg[k].topology);
        snprintf(s->built, sizeof s->built, "%s", cfg[k].built);
        s->before_lower = k ? f->steps[k - 1].lower : NAN;
        s->before_upper = k ? f->steps[k - 1].upper : NAN;
        rc = plan_grow_measure(o, k ? &cfg[k - 1] : NULL, &cfg[k], s, 1, err);
        if (!rc) {
            s->cost_total = s->cost_step + (k ? f->steps[k - 1].cost_total : 0);
            f->step_count = k + 1;
            if (o->step_done)
                o->step_done(o->step_ctx, f, k);
        }
    }
    for (int k = 0; k < o->step_count; k++)
        plan_grow_config_clear(&cfg[k]);
    totals(f);
    return rc;
}

int moore_grow_run(const moore_grow_options *o_in, moore_grow_result *out, moore_error *err)
{
    moore_grow_options o = *o_in;
    const moore_family *fams[64];
    int count = 0;
    memset(out, 0, sizeof *out);
    out->cheapest = -1;
    const char *list = o.families ? o.families : moore_grow_default_families();
    o.model.switch_radix = o.radix; /* every chassis priced alike across steps */
    int rc = check_steps(&o, err);
    if (!rc)
        rc = families_of(list, fams, &count, 64, err);
    if (!rc)
        rc = check_reachable(&o, list, err);
    if (!rc && !(out->families = calloc((size_t)count, sizeof *out->families)))
        rc = moore_error_set(err, MOORE_ENOMEM, "out of memory");
    for (int i = 0; !rc && i < count; i++) {
        rc = grow_family(&o, fams[i], &out->families[i], err);
        out->count = i + 1;
    }
    for (int i = 0; !rc && i < out->count; i++) {
        const moore_grow_family *f = &out->families[i];
        if (f->all_proven &&
            (out->cheapest < 0 || f->cost_total < out->families[out->cheapest].cost_total))
            out->cheapest = i;
    }
    if (rc)
        moore_grow_clear(out);
    return rc;
}

/* A configuration viewing a caller's graph and ids (identity when NULL).
 * It fills the caller's c: on failure c->uid is left to the caller's free. */
static int view(const moore_graph *g, const int32_t *uid, plan_grow_config *c,
                moore_error *err)
{
    memset(c, 0, sizeof *c);
    c->g = (moore_graph *)g; /* read only: plan_grow_measure takes const configurations */
    c->uid = malloc((size_t)(g->n ? g->n : 1) * sizeof *c->uid);
    int rc = c->uid ? MOORE_OK : moore_error_set(err, MOORE_ENOMEM, "out of memory");
    for (int32_t v = 0; !rc && v < g->n; v++) {
        c->uid[v] = uid ? uid[v] : v;
        if (c->uid[v] < 0)
            rc = moore_error_set(err, MOORE_EINVAL, "grow: switch %d has id %d < 0", (int)v,
                                 (int)c->uid[v]);
    }
    return rc;
}

int moore_grow_measure(const moore_grow_options *o, const moore_graph *before,
                       const int32_t *uid_before, const moore_graph *after,
                       const int32_t *uid_after, moore_grow_step *out, moore_error *err)
{
    plan_grow_config b, a;
    memset(&b, 0, sizeof b);
    memset(&a, 0, sizeof a); /* freed at the end even when view(after) never ran */
    memset(out, 0, sizeof *out);
    int rc = check_steps_batch(o, err);
    if (!rc && before)
        rc = view(before, uid_before, &b, err);
    if (!rc)
        rc = view(after, uid_after, &a, err);
    double lo = NAN, hi = NAN;
    if (!rc && before)
        rc = plan_grow_bounds(before, o->threads, &lo, &hi, err);
    out->before_lower = lo;
    out->before_upper = hi;
    if (!rc)
        rc = plan_grow_measure(o, before ? &b : NULL, &a, out, 1, err);
    free(b.uid);
    free(a.uid);
    return rc;
}
