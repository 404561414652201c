/* phases.c — a job as the sequence of its communication phases, in bytes
 * (docs/step-time.md): what `moore step` times one by one, where the summed
 * matrix of job.c (every collective at once, each server sending 1) only
 * gives a throughput ratio.
 *
 * Bytes per rank per step come from the model's dimensions (workload.h;
 * GPT-3 175B by default), with a = mbs·seq·hidden·dtype the activations of
 * one micro-batch, L_p = layers/P the layers of a stage, m micro-batches:
 *   tp           4·L_p·m all-reduces of a bytes (2 forward, 2 backward),
 *                each sending 2(T−1)/T·a per rank;
 *   pp           m activations to stage p+1 and m gradients to p−1, a each;
 *   dp           ring all-reduce of the rank's gradients, 12·layers·hidden²
 *                /(T·P) parameters of dtype bytes: 2(D−1)/D of them;
 *   ep_dispatch  tokens to the experts, forward, and the gradients of the
 *                combine, backward: 2·L_p·m·K·a per rank, the share of
 *                EP rank j being q_j = Σ of its experts' loads;
 *   ep_combine   the reverse direction (outputs back, dispatch gradients);
 * an explicit vol_X= (GB per rank per step, as in the volume model) replaces
 * the derivation. Collectives: an S-byte alltoall sends (n−1)/n·S per rank,
 * an allreduce 2(n−1)/n·S (ring), S to each tree neighbour (tree), or the
 * two-level bytes (hierarchical, collectives.c).
 *
 * Expert load (moe:, skew=Z): expert e of X has load ∝ (e+1)^−Z, experts
 * sit in blocks of X/E on the E ranks of an EP group (rank 0 the most
 * loaded), and each routed copy goes to expert e with that probability
 * (independent copies; exact for K = 1). */
#include "core/alloc.h"
#include "workload_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rank r = t + T·(p + P·d), as job.c. */
static int64_t rank_at(const moore_workload *w, int64_t t, int64_t p, int64_t d)
{
    return t + (int64_t)w->tp * (p + (int64_t)w->pp * d);
}

/* The share of the routed tokens each EP rank's experts take (E entries). */
static void expert_shares(const moore_workload *w, double *share)
{
    int64_t E = w->ep, per = w->experts / w->ep;
    double sum = 0.0;
    for (int64_t j = 0; j < E; j++) {
        share[j] = 0.0;
        for (int64_t e = j * per; e < (j + 1) * per; e++)
            share[j] += pow((double)(e + 1), -w->skew);
        sum += share[j];
    }
    for (int64_t j = 0; j < E; j++)
        share[j] /= sum;
}

/* The phase being accumulated: server-level totals and switch entries. */
typedef struct wl_phase_acc {
    wl_demands d;
    int64_t servers;
} wl_phase_acc;

/* Bytes per rank of collective i (0 tp, 1 pp one way, 2 dp, 3 ep one way). */
static double llm_bytes(const moore_workload *w, int i)
{
    double vol[4] = {w->vol_tp, w->vol_pp / 2, w->vol_dp, w->vol_ep * w->topk / 2};
    double T = w->tp, P = w->pp, D = w->dp, E = w->ep, m = w->micro;
    double a = (double)w->mbs * w->seq * w->hidden * w->dtype, lp = (double)w->layers / P;
    if (w->vol_set & (1u << i))   /* GB; ep: the remote bytes of an even load, per copy */
        return vol[i] * 1e9 / (i == 3 ? (E - 1) / E : 1.0);
    if (i == 0)
        return 4 * lp * m * 2 * (T - 1) / T * a;
    if (i == 1)
        return m * a;
    if (i == 2)
        return 2 * (D - 1) / D * 12.0 * w->layers * (double)w->hidden * w->hidden / (T * P) *
               w->dtype;
    return 2 * lp * m * w->topk * a;
}

/* Emits phase `which` of an llm job (0 tp, 1 pp, 2 dp, 3 dispatch, 4 combine). */
static void emit_llm_phase(wl_demands *d, const moore_workload *w, int which, const int32_t *sr,
                           int32_t *srv, double *wt, double *share)
{
    int64_t T = w->tp, P = w->pp, D = w->dp, E = w->ep;
    double b = llm_bytes(w, which < 3 ? which : 3);
    for (int64_t dd = 0; dd < D && which <= 1; dd++)
        for (int64_t p = 0; p < P; p++)
            for (int64_t t = 0; t < T; t++) {
                int64_t r = rank_at(w, t, p, dd);
                srv[t] = sr[r];
                wt[t] = b;
                if (which == 1 && p + 1 < P)
                    work_send(d, sr[r], sr[rank_at(w, t, p + 1, dd)], b);
                if (which == 1 && p > 0)
                    work_send(d, sr[r], sr[rank_at(w, t, p - 1, dd)], b);
                if (which == 0 && t == T - 1)
                    (w->tp_algo == MOORE_COLL_RING ? work_ring : work_alltoall)(d, T, srv, wt);
            }
    if (which >= 3)
        expert_shares(w, share);
    for (int64_t p = 0; p < P && which >= 2; p++)
        for (int64_t t = 0; t < T; t++) {
            int64_t k = which == 2 ? D : E;
            for (int64_t g0 = 0; g0 < D; g0 += k) {
                for (int64_t i = 0; i < k; i++) {
                    srv[i] = sr[rank_at(w, t, p, g0 + i)];
                    wt[i] = b;
                }
                if (which == 2)
                    work_ring(d, k, srv, wt);
                else
                    work_alltoall_shares(d, k, srv, b, share, which == 4);
            }
        }
}

/* Emits the one phase of a collective job of N ranks (S-byte buffer). */
static void emit_collective(wl_demands *d, const moore_workload *w, int64_t N, const int32_t *sr,
                            double *wt)
{
    double S = w->bytes, n = (double)N;
    moore_collective c = w->kind == MOORE_WORKLOAD_ALLTOALL ? MOORE_COLL_ALLTOALL : w->algo;
    for (int64_t i = 0; i < N; i++) {
        int64_t deg = (i > 0) + (2 * i + 1 < N) + (2 * i + 2 < N);
        wt[i] = c == MOORE_COLL_ALLTOALL ? (n - 1) / n * S
                : c == MOORE_COLL_RING   ? 2 * (n - 1) / n * S
                : c == MOORE_COLL_TREE   ? (double)deg * S
                                         : S;
    }
    d->buffer_sizes = 1;
    work_collective(d, c, N, sr, wt);
}

/* Turns the accumulated sends into phase ph: bytes = the busiest NIC, the
 * switch matrix in units of it. */
static int finish_phase(const moore_graph *g, wl_demands *d, int64_t S, const char *name,
                        moore_phase *ph, moore_error *err)
{
    double most = 0.0;
    for (int64_t s = 0; s < S; s++) {
        most = fmax(most, d->server_sent[s]);
        most = fmax(most, d->server_recv[s]);
    }
    snprintf(ph->name, sizeof ph->name, "%s", name);
    ph->bytes = most;
    if (!(most > 0.0))   /* vol_X=0: a phase with no bytes is left out */
        return MOORE_OK;
    for (int64_t i = 0; i < d->len; i++)
        d->e[i].w /= most;
    return work_to_traffic(d, g->n, name, moore_graph_endpoints_total(g) == 0, &ph->traffic, err);
}

void moore_phases_clear(moore_phases *p)
{
    for (int32_t i = 0; p->phase && i < p->count; i++)
        moore_traffic_free(p->phase[i].traffic);
    free(p->phase);
    p->phase = NULL;
    p->count = 0;
}

int moore_workload_phases(const moore_graph *g, const moore_workload *w,
                          const int32_t *server_of_rank, moore_phases *out, moore_error *err)
{
    static const char *const names[5] = {"tp", "pp", "dp", "ep_dispatch", "ep_combine"};
    memset(out, 0, sizeof *out);
    int64_t N, S = moore_workload_servers(g);
    int rc = moore_workload_ranks(g, w, &N, err);
    if (rc)
        return rc;
    int64_t *first = NULL;
    int32_t *sw = NULL, *srv = NULL;
    double *wt = NULL, *sent = NULL, *recv = NULL, *share = NULL;
    rc = work_servers(g, &first, &sw, err);
    if (rc)
        goto done;
    srv = moore_malloc((size_t)N, sizeof *srv, err);
    wt = moore_malloc((size_t)N, sizeof *wt, err);
    sent = moore_malloc((size_t)S, sizeof *sent, err);
    recv = moore_malloc((size_t)S, sizeof *recv, err);
    share = moore_malloc((size_t)w->ep, sizeof *share, err);
    out->phase = moore_calloc(5, sizeof *out->phase, err);
    if (!srv || !wt || !sent || !recv || !share || !out->phase) {
        rc = core_alloc_code(err);
        goto done;
    }
    int llm = w->kind == MOORE_WORKLOAD_LLM;
    int64_t sizes[5] = {w->tp, w->pp, w->dp, w->ep, w->ep};
    for (int which = 0; which < (llm ? 5 : 1) && !rc; which++) {
        if (llm && sizes[which] < 2)
            continue;
        if (!llm && N < 2)
            break;
        for (int64_t s = 0; s < S; s++)
            sent[s] = recv[s] = 0.0;
        wl_demands d = {.switch_of_server = sw, .server_sent = sent, .server_recv = recv,
                        .err = err};
        if (llm)
            emit_llm_phase(&d, w, which, server_of_rank, srv, wt, share);
        else
            emit_collective(&d, w, N, server_of_rank, wt);
        rc = d.failed;
        if (!rc)
            rc = finish_phase(g, &d, S, llm ? names[which]
                                     : w->kind == MOORE_WORKLOAD_ALLTOALL ? "alltoall"
                                                                          : "allreduce",
                              &out->phase[out->count], err);
        if (!rc && out->phase[out->count].bytes > 0.0)
            out->count++;
        free(d.e);
    }
done:
    free(first);
    free(sw);
    free(srv);
    free(wt);
    free(sent);
    free(recv);
    free(share);
    if (rc)
        moore_phases_clear(out);
    return rc;
}

int moore_workload_traffic_sum(const moore_graph *g, int32_t count,
                               const moore_traffic *const *t, const double *weight,
                               moore_traffic **out, moore_error *err)
{
    *out = NULL;
    double none = 0.0;
    wl_demands d = {.server_sent = &none, .err = err};
    int unit = 0;
    for (int32_t i = 0; i < count; i++) {
        if (t[i]->n != g->n)
            return moore_error_set(err, MOORE_EINVAL, "workload: a matrix of %d switches summed "
                                   "on a topology of %d", (int)t[i]->n, (int)g->n);
        unit |= t[i]->unit_endpoints;
        for (int32_t s = 0; s < g->n && !d.failed; s++)
            for (int64_t e = t[i]->offs[s]; e < t[i]->offs[s + 1]; e++)
                work_push(&d, s, t[i]->dst[e], weight[i] * t[i]->demand[e]);
    }
    int rc = d.failed ? d.failed : work_to_traffic(&d, g->n, "mix", unit, out, err);
    free(d.e);
    return rc;
}
