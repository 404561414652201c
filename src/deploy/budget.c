/* budget.c — what a routing asks of each switch's forwarding ASIC
 * (docs/deploy-ethernet.md): route entries, next-hop groups (the distinct
 * ECMP sets the routes point to; a switch stores each once), the largest
 * group and the group members summed over the groups, checked against the
 * limits of a switch model: the "routing table" barrier in numbers. */
#include <stdlib.h>
#include <string.h>
#include "eth_internal.h"
#include "core/alloc.h"
#include "moore/parse.h"

int moore_table_limits_parse(const char *text, moore_table_limits *out, moore_error *err)
{
    static const char *const keys[] = { "routes", "groups", "members" };
    int64_t v[3] = { 0, 0, 0 };
    const char *p = text;
    while (*p) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        end = end ? end : p + strlen(p);
        int k = 3;
        for (int i = 0; eq && eq < end && i < 3; i++)
            if ((size_t)(eq - p) == strlen(keys[i]) && strncmp(p, keys[i], (size_t)(eq - p)) == 0)
                k = i;
        char num[32];
        size_t len = eq && eq < end ? (size_t)(end - eq - 1) : 0;
        int64_t x = 0;
        if (k < 3 && len < sizeof num) {
            memcpy(num, eq + 1, len);
            num[len] = '\0';
        }
        if (k == 3 || len >= sizeof num || v[k] ||
            moore_parse_int(num, 1, INT64_MAX, &x) != MOORE_PARSE_OK)
            return moore_error_set(err, MOORE_EINVAL,
                                   "--limits: '%.*s' is not routes=N, groups=G or members=M "
                                   "(each once, a positive integer)", (int)(end - p), p);
        v[k] = x;
        p = *end ? end + 1 : end;
    }
    if (!v[0] && !v[1] && !v[2])
        return moore_error_set(err, MOORE_EINVAL,
                               "--limits: '%s' gives none of routes=N, groups=G, members=M", text);
    out->routes = v[0];
    out->groups = v[1];
    out->members = v[2];
    return MOORE_OK;
}

/* One next-hop group as a key: its sorted (hop, weight) pairs. */
typedef struct group_key {
    int32_t c;
    int64_t off;    /* into the switch's key store */
    uint64_t hash;
} group_key;

typedef struct switch_budget {
    int64_t routes, groups, largest, members;
} switch_budget;

static int cmp_pair(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* A growing store of groups for one switch, with an open-addressing table. */
typedef struct group_set {
    int64_t *store;     /* pairs (hop, weight) */
    int64_t used, cap;
    int64_t *slot;      /* index into keys, −1 empty */
    group_key *keys;
    int64_t count, slots;
} group_set;

static int same(const group_set *s, const group_key *k, const int64_t *pairs, int32_t c)
{
    return k->c == c && memcmp(s->store + k->off, pairs, (size_t)c * 2 * sizeof *pairs) == 0;
}

/* Adds the group pairs[0..2c) when new; returns 1 if added, 0 if known, −1 on no memory. */
static int group_add(group_set *s, const int64_t *pairs, int32_t c, uint64_t h)
{
    int64_t i = (int64_t)(h % (uint64_t)s->slots);
    for (; s->slot[i] >= 0; i = (i + 1) % s->slots)
        if (s->keys[s->slot[i]].hash == h && same(s, &s->keys[s->slot[i]], pairs, c))
            return 0;
    if (s->used + 2 * c > s->cap) {
        int64_t cap = (s->cap + 2 * c) * 2;
        int64_t *p = realloc(s->store, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        s->store = p;
        s->cap = cap;
    }
    memcpy(s->store + s->used, pairs, (size_t)c * 2 * sizeof *pairs);
    s->keys[s->count] = (group_key){ c, s->used, h };
    s->slot[i] = s->count++;
    s->used += 2 * c;
    return 1;
}

static int switch_groups(const moore_graph *g, const moore_routing *r, const char *dest,
                         int32_t u, group_set *s, int32_t *nh, double *w, int64_t *iw,
                         int64_t *pairs, switch_budget *b)
{
    for (int64_t i = 0; i < s->slots; i++)
        s->slot[i] = -1;
    s->count = s->used = 0;
    memset(b, 0, sizeof *b);
    for (int32_t t = 0; t < g->n; t++) {
        if (t == u || !dest[t])
            continue;
        int32_t c = moore_routing_next_hops(g, r, u, t, nh, w);
        deploy_int_weights(w, c, iw);
        uint64_t h = 1469598103934665603ull;
        for (int32_t j = 0; j < c; j++) {
            pairs[2 * j] = nh[j];
            pairs[2 * j + 1] = iw[j];
        }
        qsort(pairs, (size_t)c, 2 * sizeof *pairs, cmp_pair);
        for (int32_t j = 0; j < 2 * c; j++)
            h = (h ^ (uint64_t)pairs[j]) * 1099511628211ull;
        int added = group_add(s, pairs, c, h);
        if (added < 0)
            return -1;
        b->routes++;
        b->groups += added;
        b->members += added ? c : 0;
        b->largest = c > b->largest ? c : b->largest;
    }
    return 0;
}

/* Per switch budgets into b (n entries). */
static int budgets(const moore_graph *g, const moore_routing *r, int all, switch_budget *b,
                   moore_error *err)
{
    int32_t n = g->n, dmax = moore_graph_degree_max(g) + 1;
    int none = moore_graph_endpoints_total(g) == 0;
    char *dest = moore_malloc((size_t)n + 1, 1, err);
    group_set s = { 0 };
    s.slots = 2 * (int64_t)n + 1;
    s.slot = moore_malloc((size_t)s.slots, sizeof *s.slot, err);
    s.keys = moore_malloc((size_t)n + 1, sizeof *s.keys, err);
    int32_t *nh = moore_malloc((size_t)dmax, sizeof *nh, err);
    double *w = moore_malloc((size_t)dmax, sizeof *w, err);
    int64_t *iw = moore_malloc((size_t)dmax, sizeof *iw, err);
    int64_t *pairs = moore_malloc((size_t)dmax * 2, sizeof *pairs, err);
    int rc = dest && s.slot && s.keys && nh && w && iw && pairs ? MOORE_OK : core_alloc_code(err);
    for (int32_t t = 0; !rc && t < n; t++)
        dest[t] = (char)(all || none || g->endpoints[t] > 0);
    for (int32_t u = 0; !rc && u < n; u++)
        if (switch_groups(g, r, dest, u, &s, nh, w, iw, pairs, &b[u]))
            rc = moore_error_set(err, MOORE_ENOMEM, "budget: out of memory for next-hop groups");
    free(dest);
    free(s.slot);
    free(s.keys);
    free(s.store);
    free(nh);
    free(w);
    free(iw);
    free(pairs);
    return rc;
}

static int fits(const switch_budget *b, const moore_table_limits *l)
{
    return (!l->routes || b->routes <= l->routes) && (!l->groups || b->groups <= l->groups) &&
           (!l->members || b->members <= l->members);
}

static int budget_report(const switch_budget *b, int32_t n, const moore_table_limits *lim,
                         moore_report *rep, moore_error *err)
{
    int64_t *col = moore_malloc((size_t)n + 1, sizeof *col, err);
    if (!col)
        return core_alloc_code(err);
    static const char *const arrays[] = { "budget_routes", "budget_groups",
                                          "budget_largest_group", "budget_members" };
    static const char *const maxima[] = { "routes_max", "groups_max", "largest_group",
                                          "members_max" };
    int rc = MOORE_OK;
    int64_t mx[4] = { 0, 0, 0, 0 }, fitting = 0;
    for (int k = 0; !rc && k < 4; k++) {
        for (int32_t u = 0; u < n; u++) {
            col[u] = k == 0 ? b[u].routes : k == 1 ? b[u].groups : k == 2 ? b[u].largest
                                                                          : b[u].members;
            mx[k] = col[u] > mx[k] ? col[u] : mx[k];
        }
        rc = moore_report_int_array(rep, arrays[k], col, n, err);
    }
    for (int k = 0; !rc && k < 4; k++)
        rc = moore_report_int(rep, maxima[k], mx[k], err);
    for (int32_t u = 0; u < n && lim; u++)
        fitting += fits(&b[u], lim);
    if (!rc && lim) {
        rc = moore_report_int(rep, "switches_fitting", fitting, err);
        if (!rc)
            rc = moore_report_bool(rep, "fits", fitting == n, err);
    }
    free(col);
    return rc;
}

int moore_table_budget(const moore_graph *g, const moore_routing *r, int all_destinations,
                       const moore_table_limits *lim, moore_report *rep, moore_error *err)
{
    switch_budget *b = moore_calloc((size_t)g->n + 1, sizeof *b, err);
    if (!b)
        return core_alloc_code(err);
    int rc = budgets(g, r, all_destinations, b, err);
    if (!rc)
        rc = moore_report_string(rep, "algo", r->name, err);
    if (!rc)
        rc = moore_report_int(rep, "switches", g->n, err);
    if (!rc)
        rc = budget_report(b, g->n, lim, rep, err);
    free(b);
    return rc;
}
