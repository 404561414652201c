/* search.c — the placement search of `moore step --place search`
 * (step.h, docs/step-time.md): a seeded local search that lowers the step's
 * proven upper bound.
 *
 * Start: linear, random and group are timed and the best kept (ties to the
 * earlier of the three). Then, o->search_evals times: the phase with the
 * most time above its ideal is the bottleneck; when it is tp (or the job is
 * one collective) the moves are of single ranks, otherwise of whole TP
 * groups (T consecutive ranks), so a move never splits a TP group the start
 * kept on one switch. Two blocks are drawn from the seeded stream, the first
 * among the job's ranks and the second among every block of servers
 * (another block of ranks, or a block of free servers when the job does not
 * fill the fabric); their servers are exchanged, the step is timed again,
 * and the exchange is kept when step_upper does not grow (equal moves let
 * the search cross the plateaus of a bottleneck link: a single swap seldom
 * unloads the busiest link, a few in a row do). The search ends
 * early once every phase runs at its ideal time (nothing left to gain). A
 * result is only ever replaced by a smaller one, so it is never worse than
 * the best of the three. Deterministic: the stream is o->seed's, and the
 * throughput computations are deterministic (without --time-limit). */
#include "core/alloc.h"
#include "step_internal.h"
#include "moore/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Times w with ranks on sr into r (cleared first). */
static int time_one(const step_context *c, const moore_workload *w, const int32_t *sr,
                    moore_step_result *r, moore_error *err)
{
    return step_jobs(c, 1, &w, &sr, r, err);
}

/* The best of linear, random and group into perm[0..N) and *best. */
static int best_start(const step_context *c, const moore_workload *w, int32_t *perm,
                      int32_t *tmp, int64_t N, moore_step_search *s, moore_step_result *best,
                      moore_error *err)
{
    static const moore_placement PLACES[3] = {MOORE_PLACE_LINEAR, MOORE_PLACE_RANDOM,
                                              MOORE_PLACE_GROUP};
    static const char *const NAMES[3] = {"linear", "random", "group"};
    double *value[3] = {&s->linear, &s->random, &s->group};
    int rc = MOORE_OK;
    for (int i = 0; i < 3 && !rc; i++) {
        moore_workload v = *w;
        v.place = PLACES[i];
        moore_step_result r;
        rc = moore_workload_place_on(c->g, &v, c->o->seed, NULL, tmp, err);
        if (!rc)
            rc = time_one(c, &v, tmp, &r, err);
        if (rc)
            break;
        *value[i] = r.step_upper;
        if (i == 0 || r.step_upper < best->step_upper) {
            moore_step_result_clear(best);
            *best = r;
            s->start = NAMES[i];
            memcpy(perm, tmp, (size_t)N * sizeof *perm);
        } else {
            moore_step_result_clear(&r);
        }
    }
    return rc;
}

/* The phase with the most time above ideal (−1 when none is above). */
static int32_t bottleneck(const moore_step_result *r)
{
    int32_t at = -1;
    double most = 0;
    for (int32_t i = 0; i < r->count; i++) {
        double excess = r->phase[i].seconds_upper - r->phase[i].ideal_seconds;
        if (excess > most * (1 + 1e-12) && excess > 1e-12 * r->phase[i].ideal_seconds) {
            most = excess;
            at = i;
        }
    }
    return at;
}

static void swap_blocks(int32_t *perm, int64_t a, int64_t b, int64_t block)
{
    for (int64_t i = 0; i < block; i++) {
        int32_t x = perm[a * block + i];
        perm[a * block + i] = perm[b * block + i];
        perm[b * block + i] = x;
    }
}

/* perm[N..S) = the servers perm[0..N) leaves free, in order. */
static int fill_free(int64_t S, int64_t N, int32_t *perm, moore_error *err)
{
    unsigned char *used = moore_calloc((size_t)S, 1, err);
    if (!used)
        return core_alloc_code(err);
    for (int64_t r = 0; r < N; r++)
        used[perm[r]] = 1;
    for (int64_t s = 0, k = N; s < S; s++)
        if (!used[s])
            perm[k++] = (int32_t)s;
    free(used);
    return MOORE_OK;
}

static int local_search(const step_context *c, const moore_workload *w, int32_t *perm, int64_t N,
                        int64_t S, moore_step_search *s, moore_step_result *cur,
                        moore_error *err)
{
    moore_rng rng;
    moore_rng_seed(&rng, c->o->seed);
    int rc = MOORE_OK;
    for (int32_t e = 0; e < c->o->search_evals && !rc; e++) {
        int32_t b = bottleneck(cur);
        if (b < 0)
            break;
        int llm = w->kind == MOORE_WORKLOAD_LLM;
        int64_t block = llm && strcmp(cur->phase[b].name, "tp") != 0 ? w->tp : 1;
        int64_t ranks = N / block, all = S / block;
        if (all < 2)
            break;
        int64_t x = (int64_t)moore_rng_below(&rng, (uint64_t)ranks);
        int64_t y = (int64_t)moore_rng_below(&rng, (uint64_t)(all - 1));
        y += y >= x;
        swap_blocks(perm, x, y, block);
        moore_step_result r;
        rc = time_one(c, w, perm, &r, err);
        if (rc)
            break;
        s->evaluations++;
        if (r.step_upper <= cur->step_upper) {
            moore_step_result_clear(cur);
            *cur = r;
            s->accepted++;
        } else {
            moore_step_result_clear(&r);
            swap_blocks(perm, x, y, block);
        }
    }
    return rc;
}

int moore_step_search_place(const moore_graph *g, const moore_workload *w,
                            const moore_step_options *o, int32_t *server_of_rank,
                            moore_step_search *s, moore_step_result *out, moore_error *err)
{
    memset(s, 0, sizeof *s);
    memset(out, 0, sizeof *out);
    step_context c;
    int64_t N = 0, S = moore_workload_servers(g);
    int32_t *perm = NULL, *tmp = NULL;
    int rc = step_context_open(g, o, &c, err);
    if (!rc)
        rc = moore_workload_ranks(g, w, &N, err);
    if (rc)
        goto done;
    perm = moore_malloc((size_t)S, sizeof *perm, err);
    tmp = moore_malloc((size_t)S, sizeof *tmp, err);
    if (!perm || !tmp) {
        rc = core_alloc_code(err);
        goto done;
    }
    rc = best_start(&c, w, perm, tmp, N, s, out, err);
    if (!rc)
        rc = fill_free(S, N, perm, err);
    double start = out->step_upper;
    if (!rc)
        rc = local_search(&c, w, perm, N, S, s, out, err);
    if (!rc) {
        memcpy(server_of_rank, perm, (size_t)N * sizeof *perm);
        s->gain = out->step_upper > 0 && isfinite(start) ? start / out->step_upper - 1 : 0;
    }
done:
    free(perm);
    free(tmp);
    step_context_close(&c);
    if (rc)
        moore_step_result_clear(out);
    return rc;
}
