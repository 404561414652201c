/* workload.h — traffic matrices of AI training jobs and collectives
 * (docs/ai-traffic.md).
 *
 * A job description is turned into a server-level demand matrix (one server =
 * one accelerator endpoint), every server of the job sending 1 in total, and
 * then aggregated to the switch-level sparse moore_traffic the flow solvers
 * use (traffic between servers of one switch uses no link, so it is dropped
 * there). Descriptions:
 *
 *   llm:tp=T,pp=P,dp=D[,ep=E,topk=K][,place=PLACE][,seed=S][,tp_algo=A]
 *      [,vol_tp=X,vol_pp=X,vol_dp=X,vol_ep=X][,ranks=N]
 *       T·P·D ranks, rank r = t + T·(p + P·d) (TP fastest, as Megatron-LM
 *       lays them out). TP groups (same p,d) exchange all-to-all (tp_algo=
 *       alltoall, the default) or ring all-reduce (tp_algo=ring); PP stage p
 *       sends activations to stage p+1 and gradients back to p−1; DP replicas
 *       (same t,p) ring all-reduce their gradients; with ep=E (E divides D)
 *       the DP ranks d = E·g .. E·g+E−1 of one (t,p) form an expert-parallel
 *       group that exchanges all-to-all with top-K routing. vol_* are the
 *       relative bytes per rank per step of each collective (vol_ep per routed
 *       copy, so EP sends vol_ep·K); defaults in volume.c / docs/ai-traffic.md.
 *       ranks=N, when given, must equal T·P·D.
 *   moe:tp=T,pp=P,dp=D,ep=E[,experts=X][,topk=K][,skew=Z][,...]
 *       an llm job whose every MLP is a mixture of X experts (default E, a
 *       multiple of E) spread in blocks of X/E over each EP group; expert e
 *       (0-based) receives a share ∝ (e+1)^−Z of the routed tokens (Zipf;
 *       Z = 0, the default, loads them evenly). skew= needs per-phase bytes:
 *       the summed matrix of moore_workload_build refuses Z > 0.
 *   alltoall[:servers=N][,bytes=S][,place=..][,seed=..]
 *   allreduce[:algo=ring|tree|hierarchical][,servers=N][,bytes=S][,place=..][,seed=..]
 *       one collective over N ranks (default: every server) of an S-byte
 *       buffer per rank (default 1e9; used by moore_workload_phases).
 *   llm and moe also take the model's dimensions for moore_workload_phases:
 *   layers=96,hidden=12288,seq=2048,mbs=1,micro=8,dtype=2 (GPT-3 175B).
 *
 * Placement of ranks on servers (servers numbered switch by switch):
 *   linear  rank r on server r (the default);
 *   random  a seeded random choice and order of servers;
 *   group   TP groups kept inside one switch when they fit, and a group's
 *           switches (and consecutive groups) inside one group of the
 *           family's structure (src/workload/structure.c: Megafly/Cascade
 *           group, PolarStar/Bundlefly super-node, MLFM column, OFT leaf
 *           pair, k-ary n-tree pod, flattened-butterfly line; otherwise the
 *           racks of moore_layout_place: Xpander super-node, Dragonfly group,
 *           Slim Fly rack, Clos/fat-tree pod, HyperX/torus line, METIS). A
 *           group never uses more switches than the largest-free-first
 *           choice needs. */
#ifndef MOORE_WORKLOAD_H
#define MOORE_WORKLOAD_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"
#include "moore/traffic.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { MOORE_WORKLOAD_LLM, MOORE_WORKLOAD_ALLTOALL, MOORE_WORKLOAD_ALLREDUCE } moore_workload_kind;
typedef enum {
    MOORE_COLL_ALLTOALL, MOORE_COLL_RING, MOORE_COLL_TREE, MOORE_COLL_HIERARCHICAL
} moore_collective;
typedef enum { MOORE_PLACE_LINEAR, MOORE_PLACE_RANDOM, MOORE_PLACE_GROUP } moore_placement;

typedef struct moore_workload {
    moore_workload_kind kind;
    int32_t tp, pp, dp, ep, topk;   /* llm grid (collectives: tp = pp = dp = ep = 1) */
    int64_t ranks;                  /* llm: T·P·D; collectives: servers= (0 = every server) */
    moore_collective tp_algo;       /* llm TP: all-to-all or ring */
    moore_collective algo;          /* allreduce: ring, tree or hierarchical */
    moore_placement place;
    int seed_set;                   /* 1 when the description gave seed= */
    uint64_t seed;
    double vol_tp, vol_pp, vol_dp, vol_ep;  /* relative bytes per rank per step */
    /* Bytes (moore_workload_phases, docs/step-time.md). The model's
     * dimensions, GPT-3 175B by default: layers, hidden size, sequence
     * length, micro-batch size, micro-batches per step, bytes per element. */
    int32_t layers, hidden, seq, mbs, micro, dtype;
    unsigned vol_set;               /* bit i: vol_tp, vol_pp, vol_dp, vol_ep given (GB) */
    int32_t experts;                /* MoE: experts of a layer (a multiple of ep; default ep) */
    double skew;                    /* MoE: Zipf exponent of the experts' load (0: even) */
    double bytes;                   /* alltoall/allreduce: the buffer per rank (default 1e9) */
} moore_workload;

/* 1 when `what` names a workload (starts with "llm:", "alltoall" or "allreduce"). O(1). */
MOORE_API int moore_workload_is_spec(const char *what);
/* Parses a description (defaults filled in); MOORE_EINVAL names the bad value.
 * A moore_workload is plain data in a caller-owned struct (nothing to free);
 * O(length of spec). */
MOORE_API int moore_workload_parse(const char *spec, moore_workload *w, moore_error *err);
/* The documented default volumes (volume.c). Writes w's vol_* fields; O(1). */
MOORE_API void moore_workload_volume_default(moore_workload *w);

/* Servers of graph g (its endpoints, or one per switch when it has none). O(n). */
MOORE_API int64_t moore_workload_servers(const moore_graph *g);
/* The server of every rank (w's rank count entries; resolve ranks with
 * moore_workload_ranks first); servers are numbered switch by switch.
 * moore_workload_ranks only resolves the count (O(n)). moore_workload_place
 * fills the caller's server_of_rank: linear O(N), random O(S), group picks
 * the roomiest switch over all n for each switch it fills (O(n) a pick). */
MOORE_API int moore_workload_ranks(const moore_graph *g, const moore_workload *w, int64_t *ranks,
                                   moore_error *err);
MOORE_API int moore_workload_place(const moore_graph *g, const moore_workload *w, uint64_t seed,
                                   int32_t *server_of_rank, moore_error *err);

/* The switch-level matrix of w on g. `seed` is used unless w has seed=.
 * server_sent, when not NULL, receives every server's total demand at server
 * level (intra-switch traffic included): 1 for servers of the job (0 for a
 * job of one rank), 0 for the others; it must hold moore_workload_servers(g).
 * *out is a new matrix the caller frees with moore_traffic_free; NULL on error.
 * Time: the placement, plus the sends (k² per all-to-all group of k, k per ring
 * or tree) and a sort of them into the matrix; O(S + sends) memory. */
MOORE_API int moore_workload_build(const moore_graph *g, const moore_workload *w, uint64_t seed,
                                   moore_traffic **out, double *server_sent, moore_error *err);
/* Parse + build: the hook moore_traffic_make dispatches to. *out as above. */
MOORE_API int moore_workload_traffic(const moore_graph *g, const char *spec, uint64_t seed,
                                     moore_traffic **out, moore_error *err);

/* ---- communication phases with bytes (phases.c, docs/step-time.md) ---- */

/* One phase of a step: a collective (or the PP sends) of every group of the
 * job at once. `bytes` is the most any one server sends or receives in it
 * (its NIC's load; for a ring all-reduce of S bytes over n ranks 2(n−1)/n·S);
 * `traffic` is the switch-level matrix in units of `bytes` (the busiest
 * server sends or receives 1), so its θ is the rate the fabric gives that
 * server as a multiple of the link rate; traffic->total is 0 when every send
 * stays inside one switch. */
typedef struct moore_phase {
    char name[24];          /* tp, pp, dp, ep_dispatch, ep_combine, alltoall, allreduce */
    double bytes;
    moore_traffic *traffic;
} moore_phase;

typedef struct moore_phases {
    int32_t count;
    moore_phase *phase;     /* count entries, in step order */
} moore_phases;

/* The phases of w with its ranks on servers server_of_rank (w's rank count
 * entries, from moore_workload_place or moore_workload_place_on). Phases
 * with no bytes (tp when T = 1, ...) are left out. The caller releases out
 * with moore_phases_clear (out is empty on error). O(ranks · largest EP
 * group + sends·log sends): an EP group of E ranks sends E² times. */
MOORE_API int moore_workload_phases(const moore_graph *g, const moore_workload *w,
                                    const int32_t *server_of_rank, moore_phases *out,
                                    moore_error *err);
/* Frees the matrices and the array p holds (p itself is the caller's). O(count). */
MOORE_API void moore_phases_clear(moore_phases *p);

/* Like moore_workload_place, on the servers with taken[s] = 0 only (taken:
 * moore_workload_servers(g) entries, or NULL for none): linear takes the
 * free servers in order, random a seeded choice of them, group packs TP
 * groups into the free servers of each switch. Refuses a job larger than
 * the free servers. O(servers + switches·TP groups) for group. */
MOORE_API int moore_workload_place_on(const moore_graph *g, const moore_workload *w,
                                      uint64_t seed, const unsigned char *taken,
                                      int32_t *server_of_rank, moore_error *err);

/* The switch-level matrix Σ weight[i]·t[i] of count matrices of g (the
 * result named "mix"). Caller frees *out. O(entries·log entries). */
MOORE_API int moore_workload_traffic_sum(const moore_graph *g, int32_t count,
                                         const moore_traffic *const *t, const double *weight,
                                         moore_traffic **out, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
