/* search.c — the search space of `moore compare --bandwidth B`: per family
 * every configuration worth trying for a radix and a server count, priced by
 * closed forms and ordered the way compare tries them (docs/compare.md).
 *
 * Generic over the family table, like plan.c. A family's planner sizes its
 * configurations for its own servers per switch (about half the radix); the
 * search adds the other choices through the shared key p= (family.h):
 *  - every listed configuration (planner at radix R, with and without the
 *    target) with p = 1 .. R − network degree;
 *  - for a free-size family (one whose planner answers a larger target with
 *    other configurations: Jellyfish, Xpander, Dragonfly) the planner at each
 *    smaller radix r (so each network degree d it picks for r), asked for the
 *    target scaled so that its answer, re-spec'd with the other p = R − d
 *    ports as servers, is the fewest switches reaching the target.
 * Rows outside the radix (network degree + p > R on the least connected
 * switch) or short of the target are dropped; the rest get the closed-form
 * bound of bandwidth.c. */
#include "moore/plan.h"
#include "plan_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct spec_list {
    int64_t count, cap;
    char (*s)[MOORE_SPEC_MAX];
} spec_list;

static int collect(void *ctx, const char *spec, moore_error *err)
{
    spec_list *l = ctx;
    if (l->count == l->cap) {
        int64_t cap = l->cap ? 2 * l->cap : 32;
        char (*s)[MOORE_SPEC_MAX] = realloc(l->s, (size_t)cap * sizeof *s);
        if (!s)
            return moore_error_set(err, MOORE_ENOMEM, "plan: out of memory for the search");
        l->s = s;
        l->cap = cap;
    }
    snprintf(l->s[l->count++], MOORE_SPEC_MAX, "%s", spec);
    return MOORE_OK;
}

static int has_key(const moore_family *f, const char *key)
{
    for (const moore_param_info *k = f->params; k && k->key; k++)
        if (strcmp(k->key, key) == 0)
            return 1;
    return 0;
}

/* spec with p=P instead of its p= or radix= (0 when it does not fit). */
static int with_p(const char *spec, int32_t P, char *out, size_t len)
{
    const moore_family *f;
    moore_params pp;
    moore_error sub;
    if (moore_spec_parse(spec, &f, &pp, &sub))
        return 0;
    size_t used = (size_t)snprintf(out, len, "%s:", f->name);
    for (int i = 0; i < pp.count && used < len; i++)
        if (strcmp(pp.key[i], "p") != 0 && strcmp(pp.key[i], "radix") != 0)
            used += (size_t)snprintf(out + used, len - used, "%s=%s,", pp.key[i], pp.value[i]);
    if (used < len)
        used += (size_t)snprintf(out + used, len - used, "p=%d", (int)P);
    return used < len;
}

typedef struct search {
    moore_plan *plan;
    const moore_family *f;
    int32_t radix;
    int64_t endpoints;
} search;

/* Adds spec (re-spec'd with p = P when P > 0) if it fits and reaches the target. */
static int consider(search *s, const char *spec, int32_t P, moore_error *err)
{
    char buf[MOORE_SPEC_MAX];
    moore_counts c;
    moore_error sub;
    if (P > 0 && !with_p(spec, P, buf, sizeof buf))
        return MOORE_OK;
    const char *use = P > 0 ? buf : spec;
    if (moore_spec_counts(use, &c, &sub) || c.endpoints < s->endpoints)
        return MOORE_OK;
    int64_t mult = c.multiplicity > 1 ? c.multiplicity : 1;
    if (P > 0 && c.degree_min * mult + P > s->radix)
        return MOORE_OK;
    int rc = plan_row_add(s->plan, s->f, use, 0, err);
    if (!rc)
        s->plan->rows[s->plan->count - 1].p = P;
    return rc;
}

/* Every listed spec as is and with each p that may fit. */
static int expand_p(search *s, const spec_list *l, moore_error *err)
{
    int rc = MOORE_OK, pkey = has_key(s->f, "p");
    for (int64_t i = 0; !rc && i < l->count; i++) {
        moore_counts c;
        moore_error sub;
        /* with p=, the planner's own row is one of the p values below */
        if (!pkey) {
            rc = consider(s, l->s[i], 0, err);
            continue;
        }
        if (moore_spec_counts(l->s[i], &c, &sub))
            continue;
        for (int32_t P = 1; !rc && c.degree_min + P <= s->radix; P++)
            rc = consider(s, l->s[i], P, err);
    }
    return rc;
}

/* Free size: the planner at radix r picks a network degree d; with every
 * other port given to servers (p = R − d), asked for the target scaled by
 * its own p' / p, its fewest-switch answer re-spec'd with p reaches the
 * target with the fewest switches of that degree. (Leaving ports unused
 * saves cables but never switches, and only lowers throughput.) */
static int expand_sizes(search *s, moore_error *err)
{
    int rc = MOORE_OK;
    /* planners give about half their radix to the network: radixes up to 2R
     * reach every degree below R */
    for (int32_t r = 4; !rc && r <= 2 * s->radix; r++) {
        spec_list first = { 0 }, l = { 0 };
        moore_counts c;
        moore_error sub;
        rc = s->f->plan(r, s->endpoints, collect, &first, err);
        if (!rc && first.count && !moore_spec_counts(first.s[0], &c, &sub) && c.switches > 0) {
            int64_t own = (c.endpoints + c.switches / 2) / c.switches;
            int64_t mult = c.multiplicity > 1 ? c.multiplicity : 1;
            int32_t P = s->radix - (int32_t)(c.degree_max * mult);
            if (own > 0 && P > 0) {
                rc = s->f->plan(r, (s->endpoints * own + P - 1) / P, collect, &l, err);
                for (int64_t i = 0; !rc && i < l.count; i++)
                    rc = consider(s, l.s[i], P, err);
            }
        }
        free(first.s);
        free(l.s);
    }
    return rc;
}

/* The planner's answers for 2N and 3N into *larger; 1 when one of them is a
 * configuration it did not list for N (a free-size family). Two probes: a
 * free-size planner's answer for one of them may be a size it lists anyway
 * (Jellyfish lists 100,000 endpoints, its answer for 2N at N = 50,000), never
 * for both (their ratio, 1.5, is no ratio of two listed sizes). */
static int free_size(const search *s, const spec_list *known, spec_list *larger,
                     moore_error *err, int *rc)
{
    int fresh = 0;
    *rc = MOORE_OK;
    for (int64_t mult = 2; !*rc && mult <= 3; mult++) {
        int64_t from = larger->count;
        *rc = s->f->plan(s->radix, mult * s->endpoints, collect, larger, err);
        for (int64_t i = from; !*rc && !fresh && i < larger->count; i++) {
            int seen = 0;
            for (int64_t j = 0; !seen && j < known->count; j++)
                seen = strcmp(larger->s[i], known->s[j]) == 0;
            fresh = !seen;
        }
    }
    return fresh;
}

/* The planner's answers for N·√2^k up to 4N into l. A configuration sized
 * for T servers at the planner's own p' reaches N with P servers per switch
 * once T·P/p' ≥ N; with a bandwidth of about 1 or below, the P that pass are
 * at least a quarter of p', so T ≤ 4N holds the sizes those rows come from,
 * √2 apart. Without them the choice for N could exceed the choice for a
 * larger N (a Tofu of 324 switches at 200 servers against 144 at 300). */
static int larger_sizes(const search *s, spec_list *l, moore_error *err)
{
    int rc = MOORE_OK;
    for (int k = 1; !rc && k <= 4; k++)
        rc = s->f->plan(s->radix, (int64_t)ceil((double)s->endpoints * pow(M_SQRT2, k)),
                        collect, l, err);
    return rc;
}

/* A family's rows: what its planner lists and answers for N, 3N and N·√2^k
 * up to 4N, each with every p; for a free-size family also the sizes of
 * expand_sizes. */
static int family_rows(search *s, moore_error *err)
{
    spec_list l = { 0 }, larger = { 0 };
    int fresh = 0;
    int rc = s->f->plan(s->radix, 0, collect, &l, err);
    if (!rc)
        rc = s->f->plan(s->radix, s->endpoints, collect, &l, err);
    if (!rc)
        fresh = free_size(s, &l, &larger, err, &rc);
    if (!rc)
        rc = larger_sizes(s, &larger, err);
    for (int64_t i = 0; !rc && i < larger.count; i++)
        rc = collect(&l, larger.s[i], err);
    if (!rc)
        rc = expand_p(s, &l, err);
    if (!rc && has_key(s->f, "p") && fresh)
        rc = expand_sizes(s, err);
    free(l.s);
    free(larger.s);
    return rc;
}

static int by_spec(const void *va, const void *vb)
{
    const moore_plan_row *a = va, *b = vb;
    int fa = plan_family_index(a->family), fb = plan_family_index(b->family);
    return fa != fb ? (fa < fb ? -1 : 1) : strcmp(a->spec, b->spec);
}

static int by_cost(const void *va, const void *vb)
{
    const moore_plan_row *a = va, *b = vb;
    int fa = plan_family_index(a->family), fb = plan_family_index(b->family);
    if (fa != fb)
        return fa < fb ? -1 : 1;
    if (a->counts.switches != b->counts.switches)
        return a->counts.switches < b->counts.switches ? -1 : 1;
    if (a->cables != b->cables)
        return a->cables < b->cables ? -1 : 1;
    if (a->counts.endpoints != b->counts.endpoints)
        return a->counts.endpoints < b->counts.endpoints ? -1 : 1;
    return strcmp(a->spec, b->spec);
}

/* Sorts, drops duplicates (one spec reached by two routes), bounds, marks. */
static void finish_rows(moore_plan *p, double bandwidth)
{
    if (p->count == 0)
        return; /* a part of the search with no row (plan_search_part) */
    qsort(p->rows, (size_t)p->count, sizeof *p->rows, by_spec);
    int64_t k = 0;
    for (int64_t i = 0; i < p->count; i++)
        if (k == 0 || by_spec(&p->rows[k - 1], &p->rows[i]) != 0)
            p->rows[k++] = p->rows[i];
    p->count = k;
    qsort(p->rows, (size_t)p->count, sizeof *p->rows, by_cost);
    const moore_family *last = NULL;
    for (int64_t i = 0; i < p->count; i++) {
        moore_plan_row *r = &p->rows[i];
        r->bound = plan_bound_closed(&r->counts, r->p);
        r->ruled_out = r->bound < bandwidth;
        if (r->family != last && !r->ruled_out) {
            r->chosen = 1;
            last = r->family;
        }
    }
}

/* No row reaches the target although the families have configurations:
 * one refusal saying, per family, how far its largest gets. */
static int unreached(const moore_plan *listing, const char *families, moore_error *err)
{
    char msg[MOORE_ERRMSG_LEN] = "plan: ", one[MOORE_ERRMSG_LEN];
    size_t used = strlen(msg);
    for (const moore_family *f = moore_families(); f->name; f++) {
        int on;
        if (moore_plan_family_selected(families, f, &on, err) || !on)
            continue;
        moore_plan_unreached(listing, f, one, sizeof one);
        used += (size_t)snprintf(msg + used, used < sizeof msg ? sizeof msg - used : 0, "%s%s",
                                 used > 6 ? "; " : "", one);
        if (used >= sizeof msg)
            break;
    }
    return moore_error_set(err, MOORE_EINVAL, "%s", msg);
}

/* Appends part's rows to out (and empties part). */
static int take_rows(moore_plan *out, moore_plan *part, moore_error *err)
{
    if (out->count + part->count > out->cap) {
        int64_t cap = out->count + part->count;
        moore_plan_row *rows = realloc(out->rows, (size_t)cap * sizeof *rows);
        if (!rows)
            return moore_error_set(err, MOORE_ENOMEM, "plan: out of memory for %lld rows",
                                   (long long)cap);
        out->rows = rows;
        out->cap = cap;
    }
    if (part->count)
        memcpy(out->rows + out->count, part->rows, (size_t)part->count * sizeof *part->rows);
    out->count += part->count;
    moore_plan_clear(part);
    return MOORE_OK;
}

/* Every selected family's rows into out, in table order. The families are
 * independent (planners and closed forms keep no state), so they run on
 * threads side by side, each into its own part; the first family that
 * fails, in table order, gives the error. */
static int all_family_rows(int32_t radix, int64_t endpoints, const char *families,
                           const moore_family *family, int only, moore_plan *out,
                           moore_error *err)
{
    int nf = 0, rc = MOORE_OK;
    for (const moore_family *f = moore_families(); f->name; f++)
        nf++;
    moore_plan *parts = calloc((size_t)nf + 1, sizeof *parts);
    moore_error *errs = calloc((size_t)nf + 1, sizeof *errs);
    int *codes = calloc((size_t)nf + 1, sizeof *codes), *on = calloc((size_t)nf + 1, sizeof *on);
    if (!parts || !errs || !codes || !on)
        rc = moore_error_set(err, MOORE_ENOMEM, "plan: out of memory for the search");
    for (int i = 0; !rc && i < nf; i++) {
        const moore_family *f = &moore_families()[i];
        rc = moore_plan_family_selected(families, f, &on[i], err);
        if (family && (f == family) != (only != 0))
            on[i] = 0; /* only that family, or all but it */
    }
#pragma omp parallel for schedule(dynamic, 1) if (!rc)
    for (int i = 0; i < nf; i++) {
        if (rc || !on[i])
            continue;
        search s = { &parts[i], &moore_families()[i], radix, endpoints };
        codes[i] = family_rows(&s, &errs[i]);
    }
    for (int i = 0; !rc && i < nf; i++) {
        if (codes[i] && err)
            *err = errs[i];
        rc = codes[i] ? codes[i] : take_rows(out, &parts[i], err);
    }
    for (int i = 0; parts && i < nf; i++)
        moore_plan_clear(&parts[i]);
    free(parts);
    free(errs);
    free(codes);
    free(on);
    return rc;
}

/* Empties out for a search and refuses what no search can take. */
static int search_start(int32_t radix, int64_t endpoints, double bandwidth, moore_plan *out,
                        moore_error *err)
{
    memset(out, 0, sizeof *out);
    out->radix = radix;
    out->endpoints = endpoints;
    out->bandwidth = bandwidth;
    if (radix < 1)
        return moore_error_set(err, MOORE_EINVAL, "plan: radix=%d must be at least 1",
                               (int)radix);
    if (endpoints < 1)
        return moore_error_set(err, MOORE_EINVAL, "plan: a bandwidth search needs a target "
                               "endpoint count (got %lld)", (long long)endpoints);
    if (!(bandwidth > 0) || !isfinite(bandwidth))
        return moore_error_set(err, MOORE_EINVAL, "plan: bandwidth %g must be a number above 0",
                               bandwidth);
    return MOORE_OK;
}

int plan_search_part(int32_t radix, int64_t endpoints, const char *families, double bandwidth,
                     const moore_family *family, int only, moore_plan *out, moore_error *err)
{
    int rc = search_start(radix, endpoints, bandwidth, out, err);
    if (!rc)
        rc = all_family_rows(radix, endpoints, families, family, only, out, err);
    if (!rc)
        finish_rows(out, bandwidth);
    else
        moore_plan_clear(out);
    return rc;
}

int moore_plan_search(int32_t radix, int64_t endpoints, const char *families, double bandwidth,
                      moore_plan *out, moore_error *err)
{
    int rc = search_start(radix, endpoints, bandwidth, out, err);
    if (rc)
        return rc;
    rc = all_family_rows(radix, endpoints, families, NULL, 0, out, err);
    if (!rc && out->count == 0) { /* plan's refusal names the smallest radix that works */
        moore_plan probe;
        rc = moore_plan_make(radix, endpoints, families, &probe, err);
        if (!rc)
            rc = unreached(&probe, families, err);
        moore_plan_clear(&probe);
    }
    if (!rc)
        finish_rows(out, bandwidth);
    else
        moore_plan_clear(out);
    return rc;
}
