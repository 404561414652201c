/* scenarios.c — seeded failure draws (include/moore/resilience.h): links
 * independently with probability f, an exact fraction of links or switches
 * (uniform without replacement), whole racks and whole rack-pair bundles from
 * a rack-per-switch array the caller supplies (docs/resilience.md). */
#include "moore/resilience.h"
#include "resilience_internal.h"
#include "core/csr.h"

#include <math.h>
#include <stdlib.h>

void moore_failure_links(const moore_graph *g, int32_t *u, int32_t *v)
{
    core_csr_links(g, u, v);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The rack-pair key of every link (-1 inside a rack) and the sorted distinct
 * keys: the bundles. */
int resil_bundles(const moore_graph *g, const int32_t *rack, int32_t racks, int64_t *link_key,
                int64_t **keys, int64_t *count, moore_error *err)
{
    int64_t *k = moore_malloc((size_t)g->m + 1, sizeof *k, err);
    if (!k)
        return err ? err->code : MOORE_ENOMEM;
    int64_t nk = 0, i = 0;
    for (int32_t a = 0; a < g->n; a++)
        for (int64_t e = g->offs[a]; e < g->offs[a + 1]; e++) {
            int32_t b = g->adj[e];
            if (a > b)
                continue;
            int32_t ra = rack[a] < rack[b] ? rack[a] : rack[b];
            int32_t rb = rack[a] < rack[b] ? rack[b] : rack[a];
            int64_t key = ra == rb ? -1 : (int64_t)ra * racks + rb;
            if (link_key)
                link_key[i] = key;
            i++;
            if (key >= 0)
                k[nk++] = key;
        }
    qsort(k, (size_t)nk, sizeof *k, cmp_i64);
    int64_t u = 0;
    for (int64_t j = 0; j < nk; j++)
        if (u == 0 || k[u - 1] != k[j])
            k[u++] = k[j];
    *keys = k;
    *count = u;
    return MOORE_OK;
}

static int check_racks(const moore_graph *g, const moore_failure_scenario *s, moore_error *err)
{
    const char *what = s->kind == MOORE_FAIL_RACKS ? "racks" : "bundles";
    if (!s->rack || s->racks < 1)
        return moore_error_set(err, MOORE_EINVAL, "%s failures need a rack for every switch",
                               what);
    for (int32_t v = 0; v < g->n; v++)
        if (s->rack[v] < 0 || s->rack[v] >= s->racks)
            return moore_error_set(err, MOORE_EINVAL,
                                   "rack[%d] = %d is outside 0..%d", (int)v, (int)s->rack[v],
                                   (int)s->racks - 1);
    int64_t limit = s->racks;
    if (s->kind == MOORE_FAIL_BUNDLES) {
        int64_t *keys = NULL;
        int rc = resil_bundles(g, s->rack, s->racks, NULL, &keys, &limit, err);
        free(keys);
        if (rc)
            return rc;
    }
    if (!(s->level >= 0) || s->level != floor(s->level) || s->level > (double)limit)
        return moore_error_set(err, MOORE_EINVAL,
                               "%s failure count %g must be an integer in 0..%lld", what,
                               s->level, (long long)limit);
    return MOORE_OK;
}

int moore_failure_check(const moore_graph *g, const moore_failure_scenario *s, moore_error *err)
{
    switch (s->kind) {
    case MOORE_FAIL_LINKS_PROB:
    case MOORE_FAIL_LINKS_FRACTION:
    case MOORE_FAIL_SWITCHES:
        if (!(s->level >= 0 && s->level <= 1))
            return moore_error_set(err, MOORE_EINVAL,
                                   "failure level %g is outside [0, 1]", s->level);
        return MOORE_OK;
    case MOORE_FAIL_RACKS:
    case MOORE_FAIL_BUNDLES:
        return check_racks(g, s, err);
    }
    return moore_error_set(err, MOORE_EINVAL, "unknown failure kind %d", (int)s->kind);
}

/* Marks k of n items, uniform without replacement (partial Fisher–Yates). */
static int pick(moore_rng *rng, int64_t n, int64_t k, char *mark, moore_error *err)
{
    if (n <= 0 || k <= 0)
        return MOORE_OK;
    int64_t *idx = moore_malloc((size_t)n, sizeof *idx, err);
    if (!idx)
        return err ? err->code : MOORE_ENOMEM;
    for (int64_t i = 0; i < n; i++)
        idx[i] = i;
    for (int64_t i = 0; i < k; i++) {
        int64_t j = i + (int64_t)moore_rng_below(rng, (uint64_t)(n - i));
        int64_t t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
        mark[idx[i]] = 1;
    }
    free(idx);
    return MOORE_OK;
}

static int64_t rounded(double level, int64_t n)
{
    int64_t k = (int64_t)floor(level * (double)n + 0.5);
    return k > n ? n : k;
}

static int draw_bundles(const moore_graph *g, const moore_failure_scenario *s, moore_rng *rng,
                        char *link_failed, moore_error *err)
{
    int64_t *link_key = NULL, *keys = NULL, count = 0;
    char *chosen = NULL;
    int rc = MOORE_OK;
    link_key = moore_malloc((size_t)g->m + 1, sizeof *link_key, err);
    if (!link_key) {
        rc = err ? err->code : MOORE_ENOMEM;
        goto done;
    }
    rc = resil_bundles(g, s->rack, s->racks, link_key, &keys, &count, err);
    if (rc)
        goto done;
    chosen = moore_calloc((size_t)count + 1, 1, err);
    if (!chosen) {
        rc = err ? err->code : MOORE_ENOMEM;
        goto done;
    }
    rc = pick(rng, count, (int64_t)s->level, chosen, err);
    for (int64_t i = 0; !rc && i < g->m; i++) {
        if (link_key[i] < 0)
            continue;
        const int64_t *hit = bsearch(&link_key[i], keys, (size_t)count, sizeof *keys, cmp_i64);
        link_failed[i] = chosen[hit - keys];
    }
done:
    free(link_key);
    free(keys);
    free(chosen);
    return rc;
}

/* Whole racks down: every switch of a drawn rack fails. */
static int draw_racks(const moore_graph *g, const moore_failure_scenario *s, moore_rng *rng,
                      char *switch_failed, moore_error *err)
{
    char *down = moore_calloc((size_t)s->racks, 1, err);
    int rc = down ? MOORE_OK : err ? err->code : MOORE_ENOMEM;
    if (!rc)
        rc = pick(rng, s->racks, (int64_t)s->level, down, err);
    for (int32_t v = 0; !rc && v < g->n; v++)
        switch_failed[v] = down[s->rack[v]];
    free(down);
    return rc;
}

int moore_failure_draw(const moore_graph *g, const moore_failure_scenario *s, moore_rng *rng,
                       char *link_failed, char *switch_failed, moore_error *err)
{
    int rc = moore_failure_check(g, s, err);
    if (rc)
        return rc;
    for (int64_t i = 0; i < g->m; i++)
        link_failed[i] = 0;
    for (int32_t v = 0; v < g->n; v++)
        switch_failed[v] = 0;
    switch (s->kind) {
    case MOORE_FAIL_LINKS_PROB:
        for (int64_t i = 0; i < g->m; i++)
            link_failed[i] = moore_rng_uniform(rng) < s->level;
        return MOORE_OK;
    case MOORE_FAIL_LINKS_FRACTION:
        return pick(rng, g->m, rounded(s->level, g->m), link_failed, err);
    case MOORE_FAIL_SWITCHES:
        return pick(rng, g->n, rounded(s->level, g->n), switch_failed, err);
    case MOORE_FAIL_RACKS:
        return draw_racks(g, s, rng, switch_failed, err);
    case MOORE_FAIL_BUNDLES:
        return draw_bundles(g, s, rng, link_failed, err);
    }
    return MOORE_OK;
}
