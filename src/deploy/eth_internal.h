/* eth_internal.h — what the routed-Ethernet files of src/deploy/ share
 * (eth.c, frr.c, iproute.c): a fabric's interfaces named from the cable
 * plan, its ASN plan, and the text forms of its addresses
 * (docs/deploy-ethernet.md). */
#ifndef MOORE_DEPLOY_ETH_INTERNAL_H
#define MOORE_DEPLOY_ETH_INTERNAL_H

#include <stdio.h>
#include "moore/deploy.h"

/* The private 4-byte ASN range of RFC 6996 starts here. */
#define DEPLOY_ASN_BASE 4200000000u
/* An ASN block per tier in the RFC 7938 scheme (tier t ≥ 1: base + t·this). */
#define DEPLOY_ASN_TIER 1000000u

/* A fabric's interfaces: switch s has interfaces if_offs[s] .. if_offs[s+1]−1,
 * interface i is swp<if_port[i]> and meets switch if_peer[i] on its
 * swp<if_peer_port[i]>. */
typedef struct deploy_eth {
    int32_t n;
    int64_t *if_offs;
    int32_t *if_port;
    int32_t *if_peer;
    int32_t *if_peer_port;
    uint32_t *asn;          /* n ASNs */
    char *servers;          /* n flags: the switch has a server prefix */
    int tiered;             /* ASNs by the RFC 7938 tiers (else one per switch) */
    const moore_graph *g;
} deploy_eth;

/* The interfaces of g from its cable plan and the ASN plan. */
int deploy_eth_build(const moore_graph *g, deploy_eth **out, moore_error *err);
void deploy_eth_free(deploy_eth *e);
/* Dotted quad of a host-order address into buf (16 bytes). */
void deploy_ip4(uint32_t a, char *buf);
/* The MAC of switch s's interface swp<port> (02:6d:ss:ss:ss:pp, locally
 * administered) into buf (18 bytes). */
void deploy_mac(int32_t s, int32_t port, char *buf);
/* Switch s's FRR configuration (one frr.conf for zebra and bgpd);
 * max_paths is BGP's maximum-paths. */
int deploy_frr_write(const deploy_eth *e, int32_t s, int32_t max_paths, FILE *out,
                     moore_error *err);
/* Switch s's `ip -batch` file: a permanent neighbour 169.254.0.1 per fabric
 * interface (the peer's MAC), then one route per destination prefix with
 * routing r's next hops (every cable to a next-hop switch, its integer
 * weight). Counts the routes written into *routes. */
int deploy_static_write(const deploy_eth *e, const moore_routing *r, int32_t s, FILE *out,
                        int64_t *routes, moore_error *err);
/* The kernel's next-hop weights (1..255) of the shares w[0..c−1]: all 1 for
 * an even split, else the largest share 255 and the others in proportion,
 * each at least 1. */
void deploy_int_weights(const double *w, int32_t c, int64_t *iw);

#endif
