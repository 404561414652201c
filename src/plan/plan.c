/* plan.c — every feasible configuration of every family for a switch radix,
 * priced by closed forms, with the smallest one reaching a target marked.
 *
 * Generic over the family table: each family's planner emits SPEC strings,
 * and this module prices them with moore_spec_counts. A planner that emits a
 * SPEC its own family refuses is a bug, reported as MOORE_EINTERNAL. */
#include "moore/plan.h"
#include "moore/suggest.h"
#include "plan_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --families names a family that is unknown (with the closest family that
 * has a planner) or has no planner: one line naming the option and why. */
static int plan_family_refused(const char *name, const moore_family *g, moore_error *err)
{
    const char *names[128];
    int n = 0;
    for (const moore_family *f = moore_families(); f->name && n < 127; f++)
        if (f->plan)
            names[n++] = f->name;
    names[n] = NULL;
    char hint[96];
    if (!g)
        return moore_error_set(err, MOORE_EINVAL, "families: unknown family '%s'%s", name,
                               moore_suggest_text(name, names, hint, sizeof hint));
    return moore_error_set(err, MOORE_EINVAL, "families: %s has no planner: it is a "
                           "reference graph with no radix-driven configurations, so there is "
                           "nothing to choose for a radix (compare it as a given topology "
                           "instead)", name);
}

int moore_plan_family_selected(const char *families, const moore_family *f, int *selected,
                               moore_error *err)
{
    *selected = 0;
    if (!families) {
        *selected = f->plan != NULL;
        return MOORE_OK;
    }
    for (const char *s = families; *s;) {
        size_t len = strcspn(s, ",");
        char name[64];
        if (len == 0 || len >= sizeof name)
            return moore_error_set(err, MOORE_EINVAL, "'%s' is not a comma list of families",
                                   families);
        memcpy(name, s, len);
        name[len] = '\0';
        const moore_family *g = moore_family_find(name);
        if (!g || !g->plan)
            return plan_family_refused(name, g, err);
        if (g == f)
            *selected = 1;
        s += len + (s[len] == ',');
    }
    return MOORE_OK;
}

typedef struct plan_ctx {
    moore_plan *plan;
    const moore_family *family;
    int count_only;             /* probing radixes: count rows, keep none */
} plan_ctx;

int plan_row_add(moore_plan *p, const moore_family *f, const char *spec, int count_only,
                 moore_error *err)
{
    moore_counts counts;
    moore_error sub;
    if (moore_spec_counts(spec, &counts, &sub))
        return moore_error_set(err, MOORE_EINTERNAL, "plan: %s planned '%s', which it refuses: %s",
                               f->name, spec, sub.msg);
    if (strlen(spec) >= MOORE_SPEC_MAX)
        return moore_error_set(err, MOORE_EINTERNAL, "plan: spec '%s' is too long", spec);
    if (count_only) {
        p->count++;
        return MOORE_OK;
    }
    if (p->count == p->cap) {
        int64_t cap = p->cap ? 2 * p->cap : 64;
        moore_plan_row *rows = realloc(p->rows, (size_t)cap * sizeof *rows);
        if (!rows)
            return moore_error_set(err, MOORE_ENOMEM, "plan: out of memory for %lld rows",
                                   (long long)cap);
        p->rows = rows;
        p->cap = cap;
    }
    moore_plan_row *r = &p->rows[p->count++];
    memset(r, 0, sizeof *r);
    r->family = f;
    snprintf(r->spec, sizeof r->spec, "%s", spec);
    r->counts = counts;
    r->cables = moore_counts_cables(&counts);
    r->network_degree = counts.ports_max > 0 ? counts.ports_max
                        : counts.degree_max * (counts.multiplicity > 1 ? counts.multiplicity : 1);
    r->bound = INFINITY;
    return MOORE_OK;
}

static int plan_emit(void *vctx, const char *spec, moore_error *err)
{
    plan_ctx *c = vctx;
    return plan_row_add(c->plan, c->family, spec, c->count_only, err);
}

int plan_family_index(const moore_family *f)
{
    int i = 0;
    for (const moore_family *g = moore_families(); g->name && g != f; g++)
        i++;
    return i;
}

static int row_cmp(const void *va, const void *vb)
{
    const moore_plan_row *a = va, *b = vb;
    int fa = plan_family_index(a->family), fb = plan_family_index(b->family);
    if (fa != fb)
        return fa < fb ? -1 : 1;
    if (a->counts.switches != b->counts.switches)
        return a->counts.switches < b->counts.switches ? -1 : 1;
    if (a->counts.endpoints != b->counts.endpoints)
        return a->counts.endpoints < b->counts.endpoints ? -1 : 1;
    return strcmp(a->spec, b->spec);
}

/* Runs the selected planners; count_only just counts what they emit. */
static int run_planners(int32_t radix, int64_t endpoints, const char *families, moore_plan *p,
                        int count_only, moore_error *err)
{
    for (const moore_family *f = moore_families(); f->name; f++) {
        int on, rc = moore_plan_family_selected(families, f, &on, err);
        if (rc)
            return rc;
        if (!on)
            continue;
        plan_ctx ctx = { p, f, count_only };
        if ((rc = f->plan(radix, endpoints, plan_emit, &ctx, err)))
            return rc;
        /* a free-size planner answers a target with that one size: its
         * listed sizes are configurations too (duplicates: plan_dedupe) */
        if (endpoints > 0 && (rc = f->plan(radix, 0, plan_emit, &ctx, err)))
            return rc;
    }
    return MOORE_OK;
}

/* Drops rows equal to the one before (sorted by row_cmp, equal specs are
 * neighbours): a spec both listed and answered for the target. */
static void plan_dedupe(moore_plan *p)
{
    int64_t k = 0;
    for (int64_t i = 0; i < p->count; i++)
        if (k == 0 || strcmp(p->rows[k - 1].spec, p->rows[i].spec) != 0)
            p->rows[k++] = p->rows[i];
    p->count = k;
}

/* Whether a row is better than the best so far for the target. */
static int smaller(const moore_plan_row *a, const moore_plan_row *best)
{
    if (!best)
        return 1;
    if (a->counts.switches != best->counts.switches)
        return a->counts.switches < best->counts.switches;
    if (a->cables != best->cables)
        return a->cables < best->cables;
    return a->counts.endpoints < best->counts.endpoints;
}

/* The refusal when no configuration reaches the target at radix: names the
 * smallest radix that would do, so it is actionable. */
static int too_small(int32_t radix, const char *families, moore_error *err)
{
    moore_plan probe = { 0 };
    int32_t r = radix + 1;
    int rc = MOORE_OK;
    for (; r <= 4096 && !rc; r++) {
        probe.count = 0;
        rc = run_planners(r, 0, families, &probe, 1, err);
        if (probe.count)
            break;
    }
    if (!rc)
        rc = r <= 4096
                 ? moore_error_set(err, MOORE_EINVAL, "plan: radix=%d is too small for any "
                                   "configuration (the smallest radix with one is %d)",
                                   (int)radix, (int)r)
                 : moore_error_set(err, MOORE_EINVAL, "plan: radix=%d is too small for any "
                                   "configuration", (int)radix);
    return rc;
}

/* Sorts and dedupes out's rows and marks each family's smallest row reaching
 * the target endpoint count as chosen. */
static void choose_rows(moore_plan *out)
{
    qsort(out->rows, (size_t)out->count, sizeof *out->rows, row_cmp);
    plan_dedupe(out);
    if (out->endpoints > 0) {
        moore_plan_row *best = NULL;
        for (int64_t i = 0; i <= out->count; i++) {
            if (i == out->count || (best && out->rows[i].family != best->family)) {
                if (best)
                    best->chosen = 1;
                best = NULL;
                if (i == out->count)
                    break;
            }
            moore_plan_row *r = &out->rows[i];
            if (r->counts.endpoints >= out->endpoints && smaller(r, best))
                best = r;
        }
    }
}

int moore_plan_make(int32_t radix, int64_t endpoints, const char *families, moore_plan *out,
                    moore_error *err)
{
    memset(out, 0, sizeof *out);
    out->radix = radix;
    out->endpoints = endpoints > 0 ? endpoints : 0;
    if (radix < 1)
        return moore_error_set(err, MOORE_EINVAL, "plan: radix=%d must be at least 1",
                               (int)radix);
    int rc = run_planners(radix, out->endpoints, families, out, 0, err);
    if (!rc && out->count == 0)
        rc = too_small(radix, families, err);
    if (!rc)
        choose_rows(out);
    else
        moore_plan_clear(out);
    return rc;
}

void moore_plan_clear(moore_plan *p)
{
    if (!p)
        return;
    free(p->rows);
    p->rows = NULL;
    p->count = p->cap = 0;
}

const moore_plan_row *moore_plan_chosen(const moore_plan *p, const moore_family *f)
{
    for (int64_t i = 0; i < p->count; i++)
        if (p->rows[i].family == f && p->rows[i].chosen)
            return &p->rows[i];
    return NULL;
}

const moore_plan_row *moore_plan_largest(const moore_plan *p, const moore_family *f)
{
    const moore_plan_row *best = NULL;
    for (int64_t i = 0; i < p->count; i++)
        if (p->rows[i].family == f &&
            (!best || p->rows[i].counts.endpoints > best->counts.endpoints))
            best = &p->rows[i];
    return best;
}

/* n with thousands separators, as the CLI prints counts. */
static void plan_group(int64_t n, char *buf, size_t len)
{
    char digits[32];
    int k = snprintf(digits, sizeof digits, "%lld", (long long)n), o = 0;
    for (int i = 0; i < k && (size_t)o + 2 < len; i++) {
        buf[o++] = digits[i];
        if ((k - i - 1) % 3 == 0 && i + 1 < k && digits[i] != '-')
            buf[o++] = ',';
    }
    buf[o] = '\0';
}

void moore_plan_unreached(const moore_plan *p, const moore_family *f, char *buf, size_t len)
{
    const moore_plan_row *big = moore_plan_largest(p, f);
    char want[32], has[32], tiers[80] = "";
    plan_group(p->endpoints, want, sizeof want);
    if (!big) {
        snprintf(buf, len, "no %s configuration fits radix %d", f->name, (int)p->radix);
        return;
    }
    plan_group(big->counts.endpoints, has, sizeof has);
    const char *t = strstr(big->spec, "tiers=");
    if (t) /* a tiered family: say that the next tier is what is missing */
        snprintf(tiers, sizeof tiers, " (more than %d tiers is beyond the family)", atoi(t + 6));
    snprintf(buf, len, "no %s configuration with radix %d reaches %s endpoints: the largest, "
             "%s, has %s%s", f->name, (int)p->radix, want, big->spec, has, tiers);
}
