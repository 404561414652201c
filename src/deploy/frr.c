/* frr.c — one switch's FRR configuration (docs/deploy-ethernet.md): zebra
 * and bgpd read the same frr.conf. BGP unnumbered (RFC 5549: IPv4 routes over
 * IPv6 link-local peerings, so fabric links need no addresses) on every
 * fabric interface, eBGP with the ASN plan, the loopback /32 and the server
 * prefix announced, and what makes BGP's next hops moore's ECMP sets:
 * `bestpath as-path multipath-relax` (with an ASN per switch the equal-length
 * paths come from different ASNs, which plain multipath does not combine)
 * and maximum-paths the switch's cable count: the widest set it could ever
 * need, since a cut widens sets (Petersen's shortest paths are unique, yet
 * with one link down a pair has two), so the intact graph's widest set would
 * leave BGP short of moore's ECMP after a failure. `no zebra nexthop kernel enable`
 * keeps routes as plain kernel multipath routes: with kernel next-hop
 * objects the groups went stale after a link flap (FRR 8.4). */
#include "eth_internal.h"

/* FRR's limit on maximum-paths as Debian builds it (MULTIPATH_NUM). */
#define DEPLOY_FRR_PATHS_MAX 256

static void interfaces(const deploy_eth *e, int32_t s, FILE *out)
{
    char a[16];
    deploy_ip4(moore_eth_loopback(s), a);
    fprintf(out, "interface lo\n ip address %s/32\nexit\n!\n", a);
    if (e->servers[s]) {
        deploy_ip4(moore_eth_server_net(s) + 1, a);
        fprintf(out, "interface servers\n description the servers' subnet (a VLAN "
                "interface on a switch)\n ip address %s/24\nexit\n!\n", a);
    }
    for (int64_t i = e->if_offs[s]; i < e->if_offs[s + 1]; i++)
        fprintf(out, "interface swp%d\n description to s%d swp%d\nexit\n!\n", (int)e->if_port[i],
                (int)e->if_peer[i], (int)e->if_peer_port[i]);
}

static void bgp(const deploy_eth *e, int32_t s, int32_t max_paths, FILE *out)
{
    char a[16];
    deploy_ip4(moore_eth_loopback(s), a);
    fprintf(out, "router bgp %u\n bgp router-id %s\n bgp bestpath as-path multipath-relax\n"
            " no bgp ebgp-requires-policy\n neighbor fabric peer-group\n"
            " neighbor fabric remote-as external\n", e->asn[s], a);
    for (int64_t i = e->if_offs[s]; i < e->if_offs[s + 1]; i++)
        fprintf(out, " neighbor swp%d interface peer-group fabric\n", (int)e->if_port[i]);
    fprintf(out, " !\n address-family ipv4 unicast\n  network %s/32\n", a);
    if (e->servers[s]) {
        deploy_ip4(moore_eth_server_net(s), a);
        fprintf(out, "  network %s/24\n", a);
    }
    /* Never below the widest set, never above what FRR accepts. */
    int64_t m = e->if_offs[s + 1] - e->if_offs[s];
    m = m > max_paths ? m : max_paths;
    fprintf(out, "  maximum-paths %d\n exit-address-family\nexit\n",
            (int)(m < DEPLOY_FRR_PATHS_MAX ? m : DEPLOY_FRR_PATHS_MAX));
}

int deploy_frr_write(const deploy_eth *e, int32_t s, int32_t max_paths, FILE *out,
                     moore_error *err)
{
    (void)err;
    const moore_graph *g = e->g;
    const char *label = g->labels && g->labels[s] ? g->labels[s] : "";
    fprintf(out, "! switch %d%s%s of %s: ASN %u (%s)\n", (int)s, *label ? " " : "", label,
            g->origin.spec ? g->origin.spec : "a topology file", e->asn[s],
            e->tiered ? "RFC 7938 tiers" : "one per switch");
    fprintf(out, "frr defaults datacenter\nhostname s%d\nip forwarding\n"
            "no zebra nexthop kernel enable\n!\n", (int)s);
    interfaces(e, s, out);
    bgp(e, s, max_paths, out);
    return ferror(out) ? moore_error_set(err, MOORE_EIO, "deploy: write error") : MOORE_OK;
}
