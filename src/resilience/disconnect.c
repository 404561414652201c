/* disconnect.c — the disconnection fraction (docs/resilience.md): links (or
 * switches) removed in a uniformly random order; how many are gone when the
 * graph first disconnects. Exact per trial without a BFS per removal: the
 * items are added back in reverse order into a union-find structure, which
 * tells for every suffix of the order whether what is left is connected. */
#include "core/alloc.h"
#include "core/unionfind.h"
#include "moore/resilience.h"
#include "resilience_internal.h"

#include <omp.h>
#include <stdlib.h>

int moore_disconnect_order(const moore_graph *g, int switches, uint64_t seed, int64_t trial,
                           int32_t *order, moore_error *err)
{
    (void)err;
    int64_t count = switches ? g->n : g->m;
    moore_rng r;
    res_trial_rng(seed, trial, &r);
    for (int64_t i = 0; i < count; i++)
        order[i] = (int32_t)i;
    moore_rng_shuffle_i32(&r, order, count);
    return MOORE_OK;
}

/* Joins the sets of a and b; 1 when they were apart. */
static int uf_union(int32_t *parent, int32_t *size, int32_t a, int32_t b)
{
    a = core_uf_find(parent, a);
    b = core_uf_find(parent, b);
    if (a == b)
        return 0;
    if (size[a] < size[b]) {
        int32_t t = a;
        a = b;
        b = t;
    }
    parent[b] = a;
    size[a] += size[b];
    return 1;
}

typedef struct dc_scratch {
    int32_t *order, *parent, *size, *lu, *lv;
    char *present;
} dc_scratch;

/* Links: adding order[m-1], order[m-2], ... back, the present links after
 * adding order[j] are those left once order[0..j-1] is removed. Removal only
 * ever disconnects, so the first j (from the top) at which one component
 * remains is the last removal count that leaves the graph connected, and
 * j + 1 removals disconnect it. The order is drawn here step by step, the
 * way moore_rng_shuffle_i32 fixes it from the top (the same permutation as
 * moore_disconnect_order), and the draw stops with the answer: most trials
 * never draw the bottom two thirds of it. */
static int64_t links_trial(const moore_graph *g, dc_scratch *w, moore_rng *r)
{
    for (int32_t v = 0; v < g->n; v++) {
        w->parent[v] = v;
        w->size[v] = 1;
    }
    for (int64_t i = 0; i < g->m; i++)
        w->order[i] = (int32_t)i;
    int64_t comps = g->n;
    for (int64_t j = g->m - 1; j >= 0; j--) {
        if (j > 0) {
            int64_t k = (int64_t)moore_rng_below(r, (uint64_t)j + 1);
            int32_t t = w->order[j];
            w->order[j] = w->order[k];
            w->order[k] = t;
        }
        int32_t e = w->order[j];
        comps -= uf_union(w->parent, w->size, w->lu[e], w->lv[e]);
        if (comps == 1)
            return j + 1;
    }
    return 0;   /* disconnected with every link present */
}

/* Switches: connectivity is not monotone under switch removal, so every
 * suffix is looked at; the answer is the smallest k whose survivors
 * (order[k..n-1]) are disconnected or fewer than two. */
static int64_t switches_trial(const moore_graph *g, dc_scratch *w)
{
    int64_t comps = 0, first_bad_suffix = g->n - 1;   /* one switch left */
    for (int32_t v = 0; v < g->n; v++)
        w->present[v] = 0;
    for (int64_t j = g->n - 1; j >= 0; j--) {
        int32_t v = w->order[j];
        w->parent[v] = v;
        w->size[v] = 1;
        w->present[v] = 1;
        comps++;
        for (int64_t k = g->offs[v]; k < g->offs[v + 1]; k++)
            if (w->present[g->adj[k]])
                comps -= uf_union(w->parent, w->size, v, g->adj[k]);
        if (comps > 1)
            first_bad_suffix = j;   /* keep the last (smallest j) seen */
    }
    return first_bad_suffix;
}

static void scratch_clear(dc_scratch *w)
{
    free(w->order);
    free(w->parent);
    free(w->size);
    free(w->present);
}

/* Called inside the parallel region: a failure's code goes to *fail
 * (core/alloc.h). 1 when every array is there. */
static int scratch_alloc(const moore_graph *g, int switches, dc_scratch *w, int *fail)
{
    int64_t count = switches ? g->n : g->m;
    w->order = core_par_malloc((size_t)count, sizeof *w->order, fail);
    w->parent = core_par_malloc((size_t)g->n, sizeof *w->parent, fail);
    w->size = core_par_malloc((size_t)g->n, sizeof *w->size, fail);
    w->present = core_par_malloc((size_t)g->n, 1, fail);
    return w->order && w->parent && w->size && w->present;
}

static int check_input(const moore_graph *g, int switches, int trials, moore_error *err)
{
    if (trials < 1 || trials > MOORE_FAIL_MAX_TRIALS)
        return moore_error_set(err, MOORE_EINVAL, "trials = %d must be in 1..%d", trials,
                               MOORE_FAIL_MAX_TRIALS);
    if (g->n < 2)
        return moore_error_set(err, MOORE_EINVAL,
                               "disconnection needs at least 2 switches (the graph has %d)",
                               (int)g->n);
    if (!switches && g->m < 1)
        return moore_error_set(err, MOORE_EINVAL, "link disconnection needs at least one link");
    if (!switches && g->m > INT32_MAX)
        return moore_error_set(err, MOORE_ETOOBIG, "%lld links exceed the 2^31 link ids",
                               (long long)g->m);
    double per = 16.0 * g->n + 4.0 * (double)g->m;
    return moore_memory_guard(per * omp_get_max_threads() + 8.0 * g->m, "disconnection trials",
                              err);
}

int moore_disconnect_trials(const moore_graph *g, int switches, uint64_t seed, int trials,
                            int threads, int64_t *removed, moore_error *err)
{
    int rc = check_input(g, switches, trials, err);
    if (rc)
        return rc;
    int32_t *lu = NULL, *lv = NULL;
    if (!switches) {
        lu = moore_malloc((size_t)g->m, sizeof *lu, err);
        lv = moore_malloc((size_t)g->m, sizeof *lv, err);
        if (!lu || !lv) {
            rc = core_alloc_code(err);
            goto done;
        }
        moore_failure_links(g, lu, lv);
    }
    int nt = threads > 0 ? threads : omp_get_max_threads();
    if (nt > trials)
        nt = trials;
    int failed = MOORE_OK; /* shared, core/alloc.h */
#pragma omp parallel num_threads(nt)
    {
        dc_scratch w = { 0 };
        w.lu = lu;
        w.lv = lv;
        int ok = scratch_alloc(g, switches, &w, &failed);
#pragma omp for schedule(dynamic, 1)
        for (int t = 0; t < trials; t++) {
            if (!ok)
                continue;
            if (switches) {
                moore_disconnect_order(g, 1, seed, t, w.order, NULL);
                removed[t] = switches_trial(g, &w);
            } else {
                moore_rng r;
                res_trial_rng(seed, t, &r);
                removed[t] = links_trial(g, &w, &r);
            }
        }
        scratch_clear(&w);
    }
    if (failed)
        rc = core_par_failed(err, failed, "disconnection trial scratch");
done:
    free(lu);
    free(lv);
    return rc;
}

int moore_disconnect_fraction(const moore_graph *g, int switches, uint64_t seed, int trials,
                              int threads, moore_fail_stats *out, moore_error *err)
{
    int rc = check_input(g, switches, trials, err);
    if (rc)
        return rc;
    int64_t *removed = moore_malloc((size_t)trials, sizeof *removed, err);
    double *frac = moore_malloc((size_t)trials, sizeof *frac, err);
    if (!removed || !frac)
        rc = core_alloc_code(err);
    if (!rc)
        rc = moore_disconnect_trials(g, switches, seed, trials, threads, removed, err);
    double total = switches ? (double)g->n : (double)g->m;
    for (int t = 0; !rc && t < trials; t++)
        frac[t] = (double)removed[t] / total;
    if (!rc)
        rc = moore_fail_summarize(frac, trials, out, err);
    free(removed);
    free(frac);
    return rc;
}
