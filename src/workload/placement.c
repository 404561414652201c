/* placement.c — which server each rank of a job runs on (docs/ai-traffic.md):
 * linear (rank order = server order), random (a seeded moore_rng choice and
 * order of servers) and group (TP groups inside one switch when they fit,
 * inside one group of the family's structure otherwise — structure.c —
 * consecutive TP groups in the same structural group).
 *
 * Group placement takes the TP groups in rank order. For the r ranks of a
 * group still unplaced it picks the switch with the most room up to r
 * (min(free, r)), ties broken by: the switch used last, then a switch in the
 * structural group of the switch used last, then one linked to it, then the
 * earlier switch in group order. Taking the largest room first is what
 * covers r ranks with the fewest switches, so a group that fits on one
 * switch (some switch has r free servers) gets one switch, and a larger
 * group gets ⌈r/p⌉ switches of p free servers. */
#include "workload_internal.h"
#include "core/alloc.h"
#include "moore/rng.h"

#include <stdlib.h>

int64_t moore_workload_servers(const moore_graph *g)
{
    int64_t s = moore_graph_endpoints_total(g);
    return s ? s : g->n;
}

int work_servers(const moore_graph *g, int64_t **first_out, int32_t **switch_out, moore_error *err)
{
    int64_t S = moore_workload_servers(g);
    int unit = moore_graph_endpoints_total(g) == 0;
    int64_t *first = moore_malloc((size_t)g->n + 1, sizeof *first, err);
    int32_t *sw = moore_malloc((size_t)(S ? S : 1), sizeof *sw, err);
    int rc = MOORE_OK;
    if (!first || !sw) {
        rc = core_alloc_code(err);
        goto done;
    }
    first[0] = 0;
    for (int32_t v = 0; v < g->n; v++) {
        first[v + 1] = first[v] + (unit ? 1 : g->endpoints[v]);
        for (int64_t s = first[v]; s < first[v + 1]; s++)
            sw[s] = v;
    }
    *first_out = first;
    *switch_out = sw;
    first = NULL;
    sw = NULL;
done:
    free(first);
    free(sw);
    return rc;
}

/* The free servers in order (all of them when taken is NULL); *count of them. */
static int free_servers(int64_t S, const unsigned char *taken, int32_t **out, int64_t *count,
                        moore_error *err)
{
    int32_t *list = moore_malloc((size_t)(S ? S : 1), sizeof *list, err);
    if (!list)
        return core_alloc_code(err);
    int64_t k = 0;
    for (int64_t s = 0; s < S; s++)
        if (!taken || !taken[s])
            list[k++] = (int32_t)s;
    *out = list;
    *count = k;
    return MOORE_OK;
}

static void place_random(int32_t *perm, int64_t F, int64_t N, uint64_t seed,
                         int32_t *server_of_rank)
{
    moore_rng rng;
    moore_rng_seed(&rng, seed);
    moore_rng_shuffle_i32(&rng, perm, F);
    for (int64_t r = 0; r < N; r++)
        server_of_rank[r] = perm[r];
}

/* State of the greedy group placement. */
typedef struct wl_packing {
    int32_t n;
    const int32_t *rack;     /* structural group of every switch (structure.c) */
    const int32_t *order;    /* switches in group order */
    unsigned char *near;     /* 1 for the switches linked to `last` */
    int64_t *free;           /* free servers of every switch */
    int32_t last;            /* switch used last, −1 before the first */
} wl_packing;

static int32_t pick_switch(const wl_packing *pk, int64_t r)
{
    int32_t last = pk->last;
    if (last >= 0 && pk->free[last] >= r)
        return last;
    int32_t best = -1;
    int64_t best_room = 0;
    int best_rank = 0;
    for (int32_t i = 0; i < pk->n; i++) {
        int32_t v = pk->order[i];
        int64_t room = pk->free[v] < r ? pk->free[v] : r;
        int rank = last >= 0 ? 2 * (pk->rack[v] == pk->rack[last]) + pk->near[v] : 0;
        if (room == 0)
            continue;
        if (best < 0 || room > best_room || (room == best_room && rank > best_rank)) {
            best = v;
            best_room = room;
            best_rank = rank;
        }
    }
    return best;
}

/* Moves `last` to v, and near[] to v's neighbours. */
static void set_last(const moore_graph *g, wl_packing *pk, int32_t v)
{
    if (pk->last >= 0)
        for (int64_t i = g->offs[pk->last]; i < g->offs[pk->last + 1]; i++)
            pk->near[g->adj[i]] = 0;
    for (int64_t i = g->offs[v]; i < g->offs[v + 1]; i++)
        pk->near[g->adj[i]] = 1;
    pk->last = v;
}

/* Switches sorted by (rack, id): a counting sort by rack (count: racks+1 entries). */
static void rack_order(int32_t n, const int32_t *rack, int32_t racks, int32_t *order,
                       int64_t *count)
{
    for (int32_t k = 0; k <= racks; k++)
        count[k] = 0;
    for (int32_t v = 0; v < n; v++)
        count[rack[v] + 1]++;
    for (int32_t k = 0; k < racks; k++)
        count[k + 1] += count[k];
    for (int32_t v = 0; v < n; v++)
        order[count[rack[v]]++] = v;
}

/* The next free server of switch v from next[v] on (one exists: free_[v] > 0). */
static int32_t next_free(int64_t *next, int32_t v, const unsigned char *taken)
{
    while (taken && taken[next[v]])
        next[v]++;
    return (int32_t)next[v]++;
}

static int place_group(const moore_graph *g, const int64_t *first, const unsigned char *taken,
                       int64_t N, int64_t T, int32_t *server_of_rank, moore_error *err)
{
    int rc = MOORE_OK;
    int32_t n = g->n, racks = 0;
    int32_t *rack = moore_malloc((size_t)n, sizeof *rack, err);
    int32_t *order = moore_malloc((size_t)n, sizeof *order, err);
    int64_t *free_ = moore_malloc((size_t)n + 1, sizeof *free_, err);
    int64_t *next = moore_malloc((size_t)n, sizeof *next, err);
    unsigned char *near = moore_calloc((size_t)n, 1, err);
    if (!rack || !order || !free_ || !next || !near) {
        rc = core_alloc_code(err);
        goto done;
    }
    rc = work_structure(g, rack, &racks, err);
    if (rc)
        goto done;
    rack_order(n, rack, racks, order, free_);
    for (int32_t v = 0; v < n; v++) {
        free_[v] = 0;
        for (int64_t s = first[v]; s < first[v + 1]; s++)
            free_[v] += !taken || !taken[s];
        next[v] = first[v];
    }
    wl_packing pk = {n, rack, order, near, free_, -1};
    for (int64_t r0 = 0; r0 < N; r0 += T) {
        int64_t left = T, r = r0;
        while (left > 0) {
            int32_t v = pick_switch(&pk, left);   /* N ≤ servers: always found */
            int64_t take = free_[v] < left ? free_[v] : left;
            for (int64_t i = 0; i < take; i++)
                server_of_rank[r++] = next_free(next, v, taken);
            free_[v] -= take;
            left -= take;
            set_last(g, &pk, v);
        }
    }
done:
    free(rack);
    free(order);
    free(free_);
    free(next);
    free(near);
    return rc;
}

int moore_workload_place_on(const moore_graph *g, const moore_workload *w, uint64_t seed,
                            const unsigned char *taken, int32_t *server_of_rank, moore_error *err)
{
    int64_t N, F, S = moore_workload_servers(g);
    int32_t *list = NULL;
    int64_t *first = NULL;
    int32_t *sw = NULL;
    int rc = moore_workload_ranks(g, w, &N, err);
    if (!rc)
        rc = free_servers(S, taken, &list, &F, err);
    if (!rc && N > F)
        rc = moore_error_set(err, MOORE_EINVAL, "workload: %lld ranks do not fit on the %lld "
                             "servers the other jobs leave free", (long long)N, (long long)F);
    if (rc)
        goto done;
    if (w->place == MOORE_PLACE_LINEAR) {
        for (int64_t r = 0; r < N; r++)
            server_of_rank[r] = list[r];
    } else if (w->place == MOORE_PLACE_RANDOM) {
        place_random(list, F, N, w->seed_set ? w->seed : seed, server_of_rank);
    } else {
        rc = work_servers(g, &first, &sw, err);
        if (!rc)
            rc = place_group(g, first, taken, N, w->kind == MOORE_WORKLOAD_LLM ? w->tp : 1,
                             server_of_rank, err);
    }
done:
    free(list);
    free(first);
    free(sw);
    return rc;
}

int moore_workload_place(const moore_graph *g, const moore_workload *w, uint64_t seed,
                         int32_t *server_of_rank, moore_error *err)
{
    return moore_workload_place_on(g, w, seed, NULL, server_of_rank, err);
}
