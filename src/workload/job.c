/* job.c — a job description (workload.h) parsed, checked against the
 * topology, and turned into its traffic matrix: the ranks are placed
 * (placement.c), every collective of the grid is emitted group by group
 * (collectives.c) with each rank's bytes scaled so it sends 1 in total, and
 * the sends are merged to switch level. This is the hook moore_traffic_make
 * dispatches "llm:", "alltoall" and "allreduce" to. */
#include "core/alloc.h"
#include "workload_internal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int moore_workload_is_spec(const char *what)
{
    return strncmp(what, "llm:", 4) == 0 || strcmp(what, "llm") == 0 ||
           strncmp(what, "moe:", 4) == 0 ||
           strncmp(what, "alltoall", 8) == 0 || strncmp(what, "allreduce", 9) == 0;
}

static int parse_int(const char *key, const char *v, int64_t max, int64_t *out, moore_error *err)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x <= 0 || x > max)
        return moore_error_set(err, MOORE_EINVAL, "workload: %s=%s must be an integer in 1..%lld",
                               key, v, (long long)max);
    *out = x;
    return MOORE_OK;
}

static int parse_volume(const char *key, const char *v, double *out, moore_error *err)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end || !(x >= 0.0) || x > 1e300)
        return moore_error_set(err, MOORE_EINVAL, "workload: %s=%s must be a number >= 0", key, v);
    *out = x;
    return MOORE_OK;
}

/* A positive finite number (bytes=, skew= allows 0 through allow_zero). */
static int parse_positive(const char *key, const char *v, int allow_zero, double *out,
                          moore_error *err)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end || !isfinite(x) || x < 0.0 || (!allow_zero && x == 0.0))
        return moore_error_set(err, MOORE_EINVAL, "workload: %s=%s must be a %s finite number",
                               key, v, allow_zero ? "non-negative" : "positive");
    *out = x;
    return MOORE_OK;
}

/* The model's dimensions (layers= ... dtype=) into w; 1 when key is one. */
static int parse_dimension(moore_workload *w, const char *k, const char *v, int *rc,
                           moore_error *err)
{
    static const char *const keys[6] = {"layers", "hidden", "seq", "mbs", "micro", "dtype"};
    int32_t *dims[6] = {&w->layers, &w->hidden, &w->seq, &w->mbs, &w->micro, &w->dtype};
    for (int i = 0; i < 6; i++)
        if (strcmp(k, keys[i]) == 0) {
            int64_t x = 0;
            *rc = parse_int(k, v, 1 << 30, &x, err);
            *dims[i] = (int32_t)x;
            return 1;
        }
    return 0;
}

static int parse_place(const char *v, moore_placement *out, moore_error *err)
{
    if (strcmp(v, "linear") == 0)
        *out = MOORE_PLACE_LINEAR;
    else if (strcmp(v, "random") == 0)
        *out = MOORE_PLACE_RANDOM;
    else if (strcmp(v, "group") == 0)
        *out = MOORE_PLACE_GROUP;
    else
        return moore_error_set(err, MOORE_EINVAL,
                               "workload: place=%s is not linear, random or group", v);
    return MOORE_OK;
}

static int parse_algo(const char *key, const char *v, int allow_tree, moore_collective *out,
                      moore_error *err)
{
    if (strcmp(v, "ring") == 0)
        *out = MOORE_COLL_RING;
    else if (!allow_tree && strcmp(v, "alltoall") == 0)
        *out = MOORE_COLL_ALLTOALL;
    else if (allow_tree && strcmp(v, "tree") == 0)
        *out = MOORE_COLL_TREE;
    else if (allow_tree && strcmp(v, "hierarchical") == 0)
        *out = MOORE_COLL_HIERARCHICAL;
    else
        return moore_error_set(err, MOORE_EINVAL, "workload: %s=%s is not %s", key, v,
                               allow_tree ? "ring, tree or hierarchical" : "alltoall or ring");
    return MOORE_OK;
}

/* One key=value of the description into w (tp..topk into grid[0..4]). */
static int parse_pair(moore_workload *w, char *pair, int64_t grid[6], moore_error *err)
{
    char *eq = strchr(pair, '=');
    if (!eq || eq == pair)
        return moore_error_set(err, MOORE_EINVAL, "workload: '%s' is not key=value", pair);
    *eq = '\0';
    const char *k = pair, *v = eq + 1;
    int llm = w->kind == MOORE_WORKLOAD_LLM;
    static const char *const grid_keys[6] = {"tp", "pp", "dp", "ep", "topk", "ranks"};
    for (int i = 0; llm && i < 6; i++)
        if (strcmp(k, grid_keys[i]) == 0)
            return parse_int(k, v, 1 << 30, &grid[i], err);
    if (!llm && strcmp(k, "servers") == 0)
        return parse_int(k, v, 1 << 30, &w->ranks, err);
    if (!llm && strcmp(k, "bytes") == 0)
        return parse_positive(k, v, 0, &w->bytes, err);
    int rc = MOORE_OK;
    if (llm && parse_dimension(w, k, v, &rc, err))
        return rc;
    if (llm && strcmp(k, "experts") == 0) {
        int64_t x = 0;
        rc = parse_int(k, v, 1 << 30, &x, err);
        w->experts = (int32_t)x;
        return rc;
    }
    if (llm && strcmp(k, "skew") == 0)
        return parse_positive(k, v, 1, &w->skew, err);
    if (strcmp(k, "place") == 0)
        return parse_place(v, &w->place, err);
    if (strcmp(k, "seed") == 0) {
        char *end;
        errno = 0;
        unsigned long long s = strtoull(v, &end, 10);
        if (errno || end == v || *end || *v == '-')
            return moore_error_set(err, MOORE_EINVAL, "workload: seed=%s is not an integer >= 0", v);
        w->seed = s;
        w->seed_set = 1;
        return MOORE_OK;
    }
    if (llm && strcmp(k, "tp_algo") == 0)
        return parse_algo(k, v, 0, &w->tp_algo, err);
    if (w->kind == MOORE_WORKLOAD_ALLREDUCE && strcmp(k, "algo") == 0)
        return parse_algo(k, v, 1, &w->algo, err);
    double *vol[4] = {&w->vol_tp, &w->vol_pp, &w->vol_dp, &w->vol_ep};
    static const char *const vol_keys[4] = {"vol_tp", "vol_pp", "vol_dp", "vol_ep"};
    for (int i = 0; llm && i < 4; i++)
        if (strcmp(k, vol_keys[i]) == 0) {
            w->vol_set |= 1u << i;
            return parse_volume(k, v, vol[i], err);
        }
    return moore_error_set(err, MOORE_EINVAL, "workload: unknown key '%s' for %s", k,
                           llm ? "llm and moe (tp, pp, dp, ep, topk, experts, skew, ranks, "
                                 "place, seed, tp_algo, vol_*, layers, hidden, seq, mbs, micro, "
                                 "dtype)"
                               : w->kind == MOORE_WORKLOAD_ALLTOALL
                                     ? "alltoall (servers, bytes, place, seed)"
                                     : "allreduce (algo, servers, bytes, place, seed)");
}

/* The grid's consistency: T, P, D given, E | D, 1 ≤ K ≤ E, ranks = T·P·D. */
static int check_grid(moore_workload *w, const int64_t grid[6], moore_error *err)
{
    static const char *const need[3] = {"tp", "pp", "dp"};
    for (int i = 0; i < 3; i++)
        if (grid[i] == 0)
            return moore_error_set(err, MOORE_EINVAL, "workload: llm needs %s= (tp, pp and dp)",
                                   need[i]);
    double nd = (double)grid[0] * (double)grid[1] * (double)grid[2];
    if (nd > (double)INT32_MAX) /* each factor is at most 2^30: nd is the product to 1e-16 */
        return moore_error_set(err, MOORE_EINVAL, "workload: tp*pp*dp = %lld*%lld*%lld = %.6g "
                               "ranks, more than %d", (long long)grid[0], (long long)grid[1],
                               (long long)grid[2], nd, INT32_MAX);
    int64_t n = grid[0] * grid[1] * grid[2];
    int64_t E = grid[3] ? grid[3] : 1, K = grid[4];
    if (grid[2] % E)
        return moore_error_set(err, MOORE_EINVAL,
                               "workload: ep=%lld must divide dp=%lld (EP groups are carved from DP)",
                               (long long)E, (long long)grid[2]);
    if (K && !grid[3])
        return moore_error_set(err, MOORE_EINVAL, "workload: topk=%lld needs ep=", (long long)K);
    if (!K)
        K = E < 2 ? 1 : 2;
    if (K > E)
        return moore_error_set(err, MOORE_EINVAL, "workload: topk=%lld must be at most ep=%lld",
                               (long long)K, (long long)E);
    if (grid[5] && grid[5] != n)
        return moore_error_set(err, MOORE_EINVAL,
                               "workload: ranks=%lld does not match tp*pp*dp = %lld",
                               (long long)grid[5], (long long)n);
    if (w->experts && !grid[3])
        return moore_error_set(err, MOORE_EINVAL, "workload: experts=%d needs ep=",
                               (int)w->experts);
    if (!w->experts)
        w->experts = (int32_t)E;
    if (w->experts % E)
        return moore_error_set(err, MOORE_EINVAL,
                               "workload: experts=%d must be a multiple of ep=%lld (each EP rank "
                               "holds experts/ep of them)", (int)w->experts, (long long)E);
    if (w->skew > 0.0 && !grid[3])
        return moore_error_set(err, MOORE_EINVAL, "workload: skew=%g needs ep=", w->skew);
    w->tp = (int32_t)grid[0];
    w->pp = (int32_t)grid[1];
    w->dp = (int32_t)grid[2];
    w->ep = (int32_t)E;
    w->topk = (int32_t)K;
    w->ranks = n;
    return MOORE_OK;
}

int moore_workload_parse(const char *spec, moore_workload *w, moore_error *err)
{
    memset(w, 0, sizeof *w);
    w->tp = w->pp = w->dp = w->ep = w->topk = 1;
    w->tp_algo = MOORE_COLL_ALLTOALL;
    w->algo = MOORE_COLL_RING;
    w->place = MOORE_PLACE_LINEAR;
    moore_workload_volume_default(w);
    w->layers = 96;     /* GPT-3 175B (volume.c) */
    w->hidden = 12288;
    w->seq = 2048;
    w->mbs = 1;
    w->micro = 8;
    w->dtype = 2;
    w->bytes = 1e9;
    const char *rest;
    int moe = strncmp(spec, "moe:", 4) == 0;
    if (moe || (strncmp(spec, "llm", 3) == 0 && (spec[3] == ':' || !spec[3]))) {
        w->kind = MOORE_WORKLOAD_LLM;
        rest = spec + 3;
    } else if (strncmp(spec, "alltoall", 8) == 0 && (spec[8] == ':' || !spec[8])) {
        w->kind = MOORE_WORKLOAD_ALLTOALL;
        rest = spec + 8;
    } else if (strncmp(spec, "allreduce", 9) == 0 && (spec[9] == ':' || !spec[9])) {
        w->kind = MOORE_WORKLOAD_ALLREDUCE;
        rest = spec + 9;
    } else {
        return moore_error_set(err, MOORE_EINVAL,
                               "workload '%s' is not llm:..., moe:..., alltoall[:...] or "
                               "allreduce[:...]",
                               spec);
    }
    if (*rest == ':')
        rest++;
    char *copy = strdup(rest);
    if (!copy)
        return moore_error_set(err, MOORE_ENOMEM, "out of memory parsing a workload");
    int64_t grid[6] = {0};
    int rc = MOORE_OK;
    char *save = NULL;
    for (char *pair = strtok_r(copy, ",", &save); pair && !rc; pair = strtok_r(NULL, ",", &save))
        rc = parse_pair(w, pair, grid, err);
    free(copy);
    if (!rc && moe && !grid[3])
        rc = moore_error_set(err, MOORE_EINVAL, "workload: moe needs ep= (experts spread over "
                             "ep ranks)");
    if (!rc && w->kind == MOORE_WORKLOAD_LLM)
        rc = check_grid(w, grid, err);
    return rc;
}

int moore_workload_ranks(const moore_graph *g, const moore_workload *w, int64_t *ranks,
                         moore_error *err)
{
    int64_t S = moore_workload_servers(g);
    int64_t N = w->ranks ? w->ranks : S;
    if (N > S)
        return moore_error_set(err, MOORE_EINVAL,
                               "workload: %lld ranks do not fit on the topology's %lld servers",
                               (long long)N, (long long)S);
    if (N < 1)
        return moore_error_set(err, MOORE_EINVAL, "workload: the topology has no servers");
    *ranks = N;
    return MOORE_OK;
}

/* Rank r = t + T·(p + P·d). */
static int64_t rank_of(const moore_workload *w, int64_t t, int64_t p, int64_t d)
{
    return t + (int64_t)w->tp * (p + (int64_t)w->pp * d);
}

/* Bytes rank r sends per step before normalisation (PP end stages send half). */
static double rank_bytes(const moore_workload *w, int64_t p)
{
    double b = 0.0;
    if (w->tp > 1)
        b += w->vol_tp;
    if (w->pp > 1)
        b += (p == 0 || p == w->pp - 1) ? w->vol_pp / 2 : w->vol_pp;
    if (w->dp > 1)
        b += w->vol_dp;
    if (w->ep > 1)
        b += w->vol_ep * w->topk;
    return b;
}

/* Emits one group: members rank0 + i·stride, i < k, each sending vol·scale. */
static void emit_group(wl_demands *d, const moore_workload *w, moore_collective c, int64_t rank0,
                       int64_t stride, int64_t k, double vol, const int32_t *srv_of_rank,
                       int32_t *srv, double *wt)
{
    for (int64_t i = 0; i < k; i++) {
        int64_t r = rank0 + i * stride;
        int64_t p = (r / w->tp) % w->pp;
        double b = rank_bytes(w, p);
        srv[i] = srv_of_rank[r];
        wt[i] = b > 0.0 ? vol / b : 0.0;
    }
    work_collective(d, c, k, srv, wt);
}

static void emit_llm(wl_demands *d, const moore_workload *w, const int32_t *sr, int32_t *srv,
                     double *wt)
{
    int64_t T = w->tp, P = w->pp, D = w->dp, E = w->ep;
    for (int64_t dd = 0; dd < D; dd++)
        for (int64_t p = 0; p < P; p++) {
            if (T > 1)
                emit_group(d, w, w->tp_algo, rank_of(w, 0, p, dd), 1, T, w->vol_tp, sr, srv, wt);
            for (int64_t t = 0; P > 1 && t < T; t++) {
                int64_t r = rank_of(w, t, p, dd);
                double b = rank_bytes(w, p);
                if (p + 1 < P)
                    work_send(d, sr[r], sr[rank_of(w, t, p + 1, dd)], w->vol_pp / 2 / b);
                if (p > 0)
                    work_send(d, sr[r], sr[rank_of(w, t, p - 1, dd)], w->vol_pp / 2 / b);
            }
        }
    for (int64_t p = 0; p < P; p++)
        for (int64_t t = 0; t < T; t++) {
            if (D > 1)
                emit_group(d, w, MOORE_COLL_RING, rank_of(w, t, p, 0), T * P, D, w->vol_dp, sr, srv,
                           wt);
            for (int64_t g0 = 0; E > 1 && g0 < D; g0 += E)
                emit_group(d, w, MOORE_COLL_ALLTOALL, rank_of(w, t, p, g0), T * P, E,
                           w->vol_ep * w->topk, sr, srv, wt);
        }
}

int moore_workload_build(const moore_graph *g, const moore_workload *w, uint64_t seed,
                         moore_traffic **out, double *server_sent, moore_error *err)
{
    *out = NULL;
    if (w->skew > 0.0)
        return moore_error_set(err, MOORE_EINVAL, "workload: skew=%g needs each phase's bytes "
                               "(moore step); the summed matrix takes evenly loaded experts",
                               w->skew);
    int64_t N, S = moore_workload_servers(g);
    int rc = moore_workload_ranks(g, w, &N, err);
    if (rc)
        return rc;
    int64_t *first = NULL;
    int32_t *sw = NULL, *sr = NULL, *srv = NULL;
    double *wt = NULL, *sent = NULL;
    wl_demands d = {0};
    rc = work_servers(g, &first, &sw, err);
    if (rc)
        goto done;
    sr = moore_malloc((size_t)N, sizeof *sr, err);
    srv = moore_malloc((size_t)N, sizeof *srv, err);
    wt = moore_malloc((size_t)N, sizeof *wt, err);
    sent = server_sent ? server_sent : moore_malloc((size_t)S, sizeof *sent, err);
    if (!sr || !srv || !wt || !sent) {
        rc = core_alloc_code(err);
        goto done;
    }
    for (int64_t s = 0; s < S; s++)
        sent[s] = 0.0;
    rc = moore_workload_place(g, w, seed, sr, err);
    if (rc)
        goto done;
    d.switch_of_server = sw;
    d.server_sent = sent;
    d.err = err;
    if (w->kind == MOORE_WORKLOAD_LLM) {
        emit_llm(&d, w, sr, srv, wt);
    } else {
        for (int64_t i = 0; i < N; i++) {
            srv[i] = sr[i];
            wt[i] = 1.0;
        }
        moore_collective c = w->kind == MOORE_WORKLOAD_ALLTOALL ? MOORE_COLL_ALLTOALL : w->algo;
        work_collective(&d, c, N, srv, wt);
    }
    if (d.failed) {
        rc = d.failed;
        goto done;
    }
    static const char *const names[3] = {"llm", "alltoall", "allreduce"};
    rc = work_to_traffic(&d, g->n, names[w->kind], moore_graph_endpoints_total(g) == 0, out, err);
done:
    free(first);
    free(sw);
    free(sr);
    free(srv);
    free(wt);
    if (sent != server_sent)
        free(sent);
    free(d.e);
    return rc;
}

int moore_workload_traffic(const moore_graph *g, const char *spec, uint64_t seed,
                           moore_traffic **out, moore_error *err)
{
    moore_workload w;
    *out = NULL;
    int rc = moore_workload_parse(spec, &w, err);
    if (rc)
        return rc;
    return moore_workload_build(g, &w, seed, out, NULL, err);
}
