/* workload_internal.h — what the files of src/workload/ share: the demand
 * accumulator (collectives.c) that the job builder (job.c) fills group by
 * group through the collective patterns, and the server numbering. */
#ifndef MOORE_WORKLOAD_INTERNAL_H
#define MOORE_WORKLOAD_INTERNAL_H

#include "moore/workload.h"

/* One switch-level demand before merging. */
typedef struct wl_entry {
    int32_t src, dst;
    double w;
} wl_entry;

/* Demands collected at server level: server_sent gets every send (intra-switch
 * ones too), entries only the sends between two different switches. */
typedef struct wl_demands {
    const int32_t *switch_of_server;
    double *server_sent;        /* servers entries */
    double *server_recv;        /* servers entries, or NULL when not wanted */
    int buffer_sizes;           /* hierarchical: wt[i] is the all-reduce buffer (phases.c),
                                   not the bytes the member sends */
    wl_entry *e;
    int64_t len, cap;
    int failed;                 /* an allocation failed: its error code (err was set) */
    moore_error *err;
} wl_demands;

/* Server numbering: servers of switch v are first[v] .. first[v+1]-1. */
int work_servers(const moore_graph *g, int64_t **first, int32_t **switch_of_server,
               moore_error *err);

/* The group of the family's structure of every switch (group[v] in
 * 0..*groups-1, structure.c): what `group` placement keeps TP groups and
 * consecutive groups inside. */
int work_structure(const moore_graph *g, int32_t *group, int32_t *groups, moore_error *err);

/* Collective patterns over a group of k ranks on servers srv[0..k-1]; member
 * i sends wt[i] bytes in total (docs/ai-traffic.md gives each pattern). */
void work_alltoall(wl_demands *d, int64_t k, const int32_t *srv, const double *wt);
void work_ring(wl_demands *d, int64_t k, const int32_t *srv, const double *wt);
void work_tree(wl_demands *d, int64_t k, const int32_t *srv, const double *wt);
void work_hierarchical(wl_demands *d, int64_t k, const int32_t *srv, const double *wt);
void work_send(wl_demands *d, int32_t from, int32_t to, double w);
/* The pattern of collective c (one of the four above). */
void work_collective(wl_demands *d, moore_collective c, int64_t k, const int32_t *srv,
                     const double *wt);
/* One switch-level demand s → t (dropped when s = t or w ≤ 0). */
void work_push(wl_demands *d, int32_t s, int32_t t, double w);
/* All-to-all with uneven destinations (MoE experts): member i sends
 * c·share[j] to every j ≠ i, or with `combine` c·share[i] (the reply of
 * the experts on i to the tokens j sent them). */
void work_alltoall_shares(wl_demands *d, int64_t k, const int32_t *srv, double c,
                          const double *share, int combine);

/* Merges the entries into a CSR moore_traffic for n switches. */
int work_to_traffic(wl_demands *d, int32_t n, const char *name, int unit_endpoints,
                  moore_traffic **out, moore_error *err);

#endif
