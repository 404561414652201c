/* deploy.h — a topology on a real InfiniBand control plane (docs/deploy.md):
 * the fabric as an ibnetdiscover/ibsim file, moore's routes as the linear
 * forwarding tables OpenSM's `file` engine loads (`opensm -R file -U`), an
 * LFT dump (OpenSM's or a switch's) read back into a moore routing, the
 * cabling of a built fabric checked against the cable plan, and Slurm's
 * topology.conf.
 *
 * Numbering (docs/deploy.md): moore switch s is the IB switch with node GUID
 * MOORE_IB_GUID_SWITCH + (s << 8); its ports are the cable plan's ports plus
 * one (IB port 0 is the switch's own management port), then one port per
 * server. Server h (servers numbered switch by switch) is a one-port HCA with
 * node GUID MOORE_IB_GUID_HCA + (h << 8) and port GUID that plus one. LIDs:
 * switch s has base LID (s + 1) << lmc, HCA h has (switches + 1 + h) << lmc,
 * each a block of 2^lmc LIDs (OpenSM remaps them by port GUID when it assigns
 * others). */
#ifndef MOORE_DEPLOY_H
#define MOORE_DEPLOY_H

#include "moore/export.h"
#include <stdint.h>
#include <stdio.h>
#include "moore/error.h"
#include "moore/graph.h"
#include "moore/report.h"
#include "moore/routing.h"
#include "moore/traffic.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Locally administered EUI-64 prefixes (bit 0x02 of the first octet set). */
#define MOORE_IB_GUID_SWITCH 0x0201000000000000ULL
#define MOORE_IB_GUID_HCA 0x0202000000000000ULL
/* The largest unicast LID (0xC000 and up are multicast). */
#define MOORE_IB_LID_MAX 0xBFFF
/* The largest LMC InfiniBand allows. */
#define MOORE_IB_LMC_MAX 7
/* The largest SL a QoS policy may give (SL 15 maps to the drop VL). */
#define MOORE_IB_SL_MAX 14
/* An LFT entry with no route. */
#define MOORE_IB_NO_PORT 255

/* A fabric: switches with numbered ports, one-port HCAs, every cable. Nodes
 * 0..switches-1 are switches, switches..switches+hcas-1 HCAs. */
typedef struct moore_ib_fabric {
    int32_t switches;
    int32_t hcas;
    int64_t *port_offs;     /* switches + 1: IB port p (1..) of switch s is entry port_offs[s] + p - 1 */
    int32_t *peer;          /* per switch port: the node at the other end, or -1 */
    int32_t *peer_port;     /* its port there (an HCA's port: 1) */
    int32_t *hca_switch;    /* hcas: the switch of HCA h, or -1 */
    int32_t *hca_port;      /* hcas: its port on that switch */
    uint64_t *guid;         /* switches + hcas node GUIDs */
    uint64_t *port_guid;    /* switches + hcas: the GUID LFT dumps name (switch: its node GUID) */
    char **name;            /* switches + hcas node descriptions */
} moore_ib_fabric;

/* The fabric of g: switch ports from its cable plan (moore_layout_write_cables
 * with the default cost model), then g->endpoints[s] server ports, names from
 * the family's labels. Refuses a switch with more than 254 ports. Here and below,
 * *out is written only on success (left as it was on error): a new object the
 * caller frees with its _free function. Cost: moore_layout_compute and the
 * cable plan, O(n + K·m + servers). */
MOORE_API int moore_ib_fabric_from_graph(const moore_graph *g, moore_ib_fabric **out,
                                         moore_error *err);
/* Reads an ibnetdiscover file (ibsim's format): Switch and Ca/Hca records,
 * GUIDs from switchguid=/caguid= lines or the "S-"/"H-" ids, port lines
 * "[p](guid) "remote-id"[rp]". Refuses an unknown remote id, a port beyond a
 * node's port count, and two ends that do not name each other, naming them.
 * *out: free with moore_ib_fabric_free. O(file size + nodes log nodes). */
MOORE_API int moore_ib_fabric_read(const char *path, moore_ib_fabric **out, moore_error *err);
/* Writes the fabric in ibnetdiscover format (ibsim -s reads it). To the
 * caller's stream; O(nodes + ports). */
MOORE_API int moore_ib_fabric_write(const moore_ib_fabric *f, FILE *out, moore_error *err);
/* The switch graph of a fabric (parallel cables become one link; servers per
 * switch = its connected HCAs; labels = node descriptions). *out: free with
 * moore_graph_free. O(nodes + ports + m log m). */
MOORE_API int moore_ib_fabric_graph(const moore_ib_fabric *f, moore_graph **out, moore_error *err);
/* Frees f and everything it holds. NULL is fine. O(nodes). */
MOORE_API void moore_ib_fabric_free(moore_ib_fabric *f);

/* Linear forwarding tables: port[s · (lid_top + 1) + lid] is switch s's out
 * port for LID (0 = itself, MOORE_IB_NO_PORT = none). lid_port[lid] is the
 * node owning a LID (-1 = none) and lid_offset[lid] its offset in the node's
 * 2^lmc block. */
typedef struct moore_ib_lfts {
    int32_t switches;
    int32_t lmc;
    int32_t lid_top;
    uint8_t *port;
    int32_t *lid_node;
    int32_t *lid_offset;
} moore_ib_lfts;

/* Destination-based tables for routing r on g (docs/deploy.md): toward each
 * destination switch t, the routing's next hops form a directed graph; a BFS
 * from t over it gives every switch its depth, and each LID's table follows
 * only next hops to a strictly smaller depth, so every LID's routes form a
 * tree into t (loop-free, consistent per destination) whatever the routing.
 * LID offset 0 uses the least depth, spread over a destination's HCAs; offset
 * k ≥ 1 takes the k-th such next hop (ordered by depth, then the routing's
 * share). Refuses lmc outside 0..7 and a LID space beyond 0xBFFF. *out: free
 * with moore_ib_lfts_free. Borrows g, r, f. Per destination: the next hops of
 * every switch (moore_routing_next_hops) and depth rounds of O(m) each (as many
 * as the deepest next-hop chain, ≤ n); the tables take switches × LIDs bytes. */
MOORE_API int moore_ib_lfts_build(const moore_graph *g, const moore_routing *r,
                                  const moore_ib_fabric *f, int32_t lmc, moore_ib_lfts **out,
                                  moore_error *err);
/* Writes the tables in the form `dump_fts` prints and `opensm -R file -U` loads.
 * To the caller's stream; O(switches × LIDs). */
MOORE_API int moore_ib_lfts_write(const moore_ib_fabric *f, const moore_ib_lfts *l, FILE *out,
                                  moore_error *err);
/* Reads a dump (dump_fts, OpenSM's opensm-lfts.dump, moore's) for fabric f:
 * switches by GUID, LIDs owned by the port GUID each line names. Refuses an
 * unknown switch or port GUID and a port the switch does not have. *out: free
 * with moore_ib_lfts_free. Two passes over the file, O(file size · log nodes). */
MOORE_API int moore_ib_lfts_read(const char *path, const moore_ib_fabric *f, moore_ib_lfts **out,
                                 moore_error *err);
/* Frees l and its tables. NULL is fine. O(1). */
MOORE_API void moore_ib_lfts_free(moore_ib_lfts *l);

/* What the tables route, as a moore routing on fabric graph g (from
 * moore_ib_fabric_graph): for every source switch and destination switch,
 * the distinct switch paths its LIDs (switch and HCA LIDs) take, stored as
 * explicit paths (name "lfts"). *mean_hops receives the mean switch hops over
 * every (source switch, destination LID) pair on different switches, *lid_pairs
 * their count. A switch with no entry for another switch's own LID is left
 * out of both (up/down engines route no spine to another spine); refuses an
 * HCA LID a switch has no route for, a route that stops on its way (to any
 * LID), a dead end and a loop, naming the switch and the LID. *out: free with
 * moore_routing_free; on error *out, *mean_hops and *lid_pairs are left as
 * they were. O(n·(n + m)) for the distances, O(n²) memory, plus a walk of
 * every (switch, LID) route. */
MOORE_API int moore_ib_lfts_routing(const moore_graph *g, const moore_ib_fabric *f,
                                    const moore_ib_lfts *l, moore_routing **out,
                                    double *mean_hops, int64_t *lid_pairs, moore_error *err);

/* The deadlock check on the routes toward HCA LIDs only (the traffic an
 * engine's virtual lanes protect: OpenSM's dfsssp, lash and nue leave the
 * routes to switches' own LIDs, management traffic, out of their layering).
 * Adds cdg_acyclic_hca and layers_hca to rep. Cost: moore_ib_lfts_routing's
 * walk plus moore_routing_deadlock on its paths. */
MOORE_API int moore_ib_hca_layers(const moore_graph *g, const moore_ib_fabric *f,
                                  const moore_ib_lfts *l, moore_report *rep, moore_error *err);

/* Throughput of traffic t (built for g, in servers) when the fabric forwards
 * by the tables l: every demand s→d is split evenly over the HCA LIDs on
 * switch d (each server of s sends to each server of d alike, and the
 * switch forwards all of them on the one route its tables give that LID;
 * under LMC every LID of an HCA takes an equal share), so the arc loads are
 * fixed and θ = 1 / the most loaded arc, exactly (capacity 1 per direction of
 * each link; parallel cables are one link, as moore_ib_fabric_graph makes
 * them). Adds tm (t's name), throughput, link_util_max and link_util_mean
 * (arc loads of θ·t over all 2|E| arcs) to rep. Refuses a demand toward a
 * switch without HCA LIDs and a matrix that crosses no link; the walk
 * refuses what moore_ib_lfts_routing refuses. Borrows everything. Cost: a walk
 * of every route (source switch, HCA LID on a destination with demand),
 * O(n + m + LIDs) memory. */
MOORE_API int moore_ib_lfts_throughput(const moore_graph *g, const moore_ib_fabric *f,
                                       const moore_ib_lfts *l, const moore_traffic *t,
                                       moore_report *rep, moore_error *err);

/* The keys of `moore route --lfts --json` (docs/deploy.md): those of
 * `moore route --json` for routing r (its statistics and deadlock layering),
 * path_length_mean (mean_hops), lid_pairs, path_stretch_mean and
 * path_stretch_min (path hops over the BFS distance, over every path). Values
 * copied into the caller's rep. Cost: moore_routing_stats_compute and
 * moore_routing_deadlock on r, plus O(paths). */
MOORE_API int moore_ib_routing_report(const moore_graph *g, const moore_routing *r,
                                      double mean_hops, int64_t lid_pairs, moore_report *rep,
                                      moore_error *err);

/* OpenSM's QoS policy (simplified qos-ulps form, `opensm -Q -Y FILE`) giving
 * every path record toward an HCA of switch s the SL switch_layer[s] (a
 * per-destination virtual layer; SL k travels on VL k under OpenSM's default
 * SL-to-VL map). f must number HCA port GUIDs rising with the HCA index, as
 * moore_ib_fabric_from_graph does. Refuses a layer above MOORE_IB_SL_MAX.
 * O(switches + hcas). */
MOORE_API int moore_ib_qos_write(const moore_ib_fabric *f, const int32_t *switch_layer,
                                 FILE *out, moore_error *err);

/* `moore deploy TOPO --ib DIR`: the fabric of g, routing o's tables with LMC
 * lmc, written as DIR/fabric.topo and DIR/lfts.dump (DIR is created; all
 * files whole or none written). For minimal and ECMP (whose tables use only
 * the routing's own paths) also DIR/qos-policy.conf: SL = the destination's
 * layer in moore_routing_deadlock's layering, unless that needs more than 15
 * SLs. Adds switches, hcas, lmc, lid_top, algo, table_entries (valid LFT
 * entries over all switches) and sls (the SLs that layering needs; null for
 * other algorithms) to rep when not NULL. Everything it builds is freed before
 * it returns. Cost: moore_ib_fabric_from_graph, moore_routing_build and
 * moore_ib_lfts_build (and the layering for the policy), plus writing the files. */
MOORE_API int moore_ib_deploy(const moore_graph *g, const moore_routing_options *o, int32_t lmc,
                              const char *dir, moore_report *rep, moore_error *err);

/* ---- cabling (cabling.c) ---- */

typedef enum moore_cable_fault {
    MOORE_CABLE_MISSING = 0,    /* the plan has a cable at this port, the fabric none */
    MOORE_CABLE_EXTRA,          /* the fabric has a cable the plan has not */
    MOORE_CABLE_MISWIRED        /* both have one, to different ends */
} moore_cable_fault;

typedef struct moore_cable_problem {
    moore_cable_fault fault;
    int32_t sw, port;               /* moore switch and IB port */
    int32_t want_node, want_port;   /* planned end: a switch, -2 a server, -1 no cable */
    int32_t got_node, got_port;     /* found end, same coding (-3: a switch not in the plan) */
    int32_t got_found;              /* the found end's node in the discovered fabric, or -1 */
} moore_cable_problem;

/* Compares the planned fabric `plan` (moore_ib_fabric_from_graph, or the
 * plan CSV read by moore_ib_fabric_plan_csv) with a discovered one: switches
 * are matched by GUID, else by node description. Fills *out (caller frees)
 * with one problem per switch port that differs, in switch and port order.
 * The list is one heap array (free()); *out and *count are left as they were
 * on error. O(plan switches × found switches) to match them, then O(ports). */
MOORE_API int moore_ib_cabling_check(const moore_ib_fabric *plan, const moore_ib_fabric *found,
                                     moore_cable_problem **out, int64_t *count, moore_error *err);
/* Replaces the switch-to-switch cables of a fabric built from g with those of
 * a cable plan CSV (moore layout --cables): the plan a site built from. Refuses
 * a row naming a switch or port beyond g's, naming the row. *out as for
 * moore_ib_fabric_from_graph; O(n + rows + servers). */
MOORE_API int moore_ib_fabric_plan_csv(const moore_graph *g, const char *csv,
                                       moore_ib_fabric **out, moore_error *err);

/* ---- Slurm (slurm.c) ---- */

/* Slurm's topology.conf (tree form): one leaf SwitchName per moore switch
 * with its servers as Nodes=<prefix>[a-b], and, when the family has groups
 * (Slim Fly racks, Dragonfly groups, Xpander super-nodes, Clos pods: the
 * layout's placement), one upper switch per group over its leaves and a top
 * switch over the groups; writes topology.conf and, when groups exist, the
 * block form topology-block.conf (BlockName per group). Cost: moore_layout_compute
 * plus O(n + servers) of output; nothing is kept. */
MOORE_API int moore_slurm_write(const moore_graph *g, const char *dir, const char *node_prefix,
                                moore_error *err);

/* ---- routed Ethernet: FRR and static twins (eth.c, frr.c, iproute.c,
 * budget.c; docs/deploy-ethernet.md) ---- */

typedef enum moore_eth_mode {
    MOORE_ETH_FRR = 0,      /* per switch DIR/s<id>/frr.conf: BGP unnumbered, ECMP */
    MOORE_ETH_STATIC        /* per switch DIR/s<id>/routes.batch: `ip -batch` routes */
} moore_eth_mode;

/* The address plan (docs/deploy-ethernet.md): switch s has loopback
 * 10.0.0.0 + s + 1 (/32, also its BGP router id) and, when it has servers
 * (or the graph has none), the server prefix 10.128.0.0 + 256·s (/24,
 * gateway .1). Host byte order. O(1). */
MOORE_API uint32_t moore_eth_loopback(int32_t s);
MOORE_API uint32_t moore_eth_server_net(int32_t s);
/* The most switches the address plan numbers (10.128.0.0/9 in /24s). */
#define MOORE_ETH_MAX_SWITCHES 32768

/* `moore deploy TOPO --frr DIR` / `--static DIR`: interfaces swp<N> from the
 * cable plan (N = the plan's port + 1, as the IB ports), per switch its FRR
 * configuration (mode FRR; BGP ECMP, so o must be ecmp) or its `ip -batch`
 * route file (mode STATIC; routing o's loop-free destination-based table,
 * with weights), and for both DIR/twin.json (per switch: id, namespace
 * ns_prefix + "s<id>", ASN, loopback, server prefix, interfaces with peer
 * switch, peer interface and MAC) and DIR/ecmp.txt (per switch u and
 * destination t with a server prefix: "u t v1 v2 ..." the next-hop switches
 * the kernel must hold). Each file is written whole. Refuses more switches
 * than the address plan holds, more than 253 servers on a switch, a switch
 * with more than 254 ports and a namespace prefix outside [A-Za-z0-9_.-]
 * (at most 32 characters). Adds switches, interfaces, asn_scheme
 * ("per-switch" or "rfc7938-tiers"), max_paths and routes to rep when not
 * NULL. Time: the routing's build plus O(n · Σ deg) next-hop lookups. */
MOORE_API int moore_eth_deploy(const moore_graph *g, const moore_routing_options *o,
                               moore_eth_mode mode, const char *ns_prefix, const char *dir,
                               moore_report *rep, moore_error *err);

/* What a switch's forwarding ASIC can hold (0 = no limit given). */
typedef struct moore_table_limits {
    int64_t routes;         /* route (prefix) entries */
    int64_t groups;         /* next-hop groups (distinct ECMP sets) */
    int64_t members;        /* next-hop group members, summed over the groups */
} moore_table_limits;

/* Parses "routes=N,groups=G,members=M" (any of the three, each once, positive
 * integers; a key left out is no limit). Refuses anything else, naming the
 * bad part. The caller owns out. O(length of text). */
MOORE_API int moore_table_limits_parse(const char *text, moore_table_limits *out,
                                       moore_error *err);

/* The table budget of routing r on g (docs/deploy-ethernet.md): per switch u,
 * routes = destinations of its table (switches with servers, every switch
 * when all_destinations or the graph has none; u itself excluded), groups =
 * distinct (next-hop set, weights) among them, largest_group = the largest
 * set, members = Σ over the distinct groups of their sizes. Adds to rep the
 * per-switch arrays budget_routes, budget_groups, budget_largest_group,
 * budget_members, the maxima routes_max, groups_max, largest_group,
 * members_max, and, against lim (NULL: no limits), switches_fitting and
 * fits. Reads g and r only. Time: O(n² · deg) next-hop lookups (explicit path sets: each lookup
 * scans the paths toward its destination). */
MOORE_API int moore_table_budget(const moore_graph *g, const moore_routing *r,
                                 int all_destinations, const moore_table_limits *lim,
                                 moore_report *rep, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
