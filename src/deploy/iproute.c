/* iproute.c — one switch's static routes as an `ip -batch` file
 * (docs/deploy-ethernet.md): the static twin of fabrics too large for a BGP
 * daemon per switch on one machine. Fabric links carry no IPv4 address: as
 * FRR does for BGP unnumbered, every route goes `via 169.254.0.1 dev swpN
 * onlink`, and a permanent neighbour entry on each interface resolves that
 * address to the peer's MAC (which scripts/twin.sh sets from twin.json). A
 * route toward each other switch's loopback and server prefix lists routing
 * r's next hops of the loop-free destination-based table, every cable to a
 * next-hop switch, with the kernel's integer weights (1..255). */
#include <stdlib.h>
#include "eth_internal.h"
#include "core/alloc.h"

void deploy_int_weights(const double *w, int32_t c, int64_t *iw)
{
    double hi = 0;
    int even = 1;
    for (int32_t j = 0; j < c; j++) {
        hi = w[j] > hi ? w[j] : hi;
        even &= j == 0 || (w[j] - w[0] < 1e-9 && w[0] - w[j] < 1e-9);
    }
    for (int32_t j = 0; j < c; j++) {
        iw[j] = even || hi <= 0 ? 1 : (int64_t)(255 * w[j] / hi + 0.5);
        iw[j] = iw[j] < 1 ? 1 : iw[j];
    }
}

/* "route replace PREFIX proto static nexthop via ... weight W ...". */
static void route(const deploy_eth *e, int32_t s, const char *prefix, const int32_t *nh,
                  const int64_t *iw, int32_t c, FILE *out)
{
    fprintf(out, "route replace %s proto static", prefix);
    for (int32_t j = 0; j < c; j++)
        for (int64_t i = e->if_offs[s]; i < e->if_offs[s + 1]; i++)
            if (e->if_peer[i] == nh[j])
                fprintf(out, " nexthop via 169.254.0.1 dev swp%d onlink weight %lld",
                        (int)e->if_port[i], (long long)iw[j]);
    fputc('\n', out);
}

int deploy_static_write(const deploy_eth *e, const moore_routing *r, int32_t s, FILE *out,
                        int64_t *routes, moore_error *err)
{
    const moore_graph *g = e->g;
    int32_t deg = moore_graph_degree(g, s);
    int32_t *nh = moore_malloc((size_t)deg + 1, sizeof *nh, err);
    double *w = moore_malloc((size_t)deg + 1, sizeof *w, err);
    int64_t *iw = moore_malloc((size_t)deg + 1, sizeof *iw, err);
    int rc = nh && w && iw ? MOORE_OK : core_alloc_code(err);
    char mac[18], a[16], p[24];
    fprintf(out, "# switch %d: routes of %s\n", (int)s, r->name);
    for (int64_t i = e->if_offs[s]; !rc && i < e->if_offs[s + 1]; i++) {
        deploy_mac(e->if_peer[i], e->if_peer_port[i], mac);
        fprintf(out, "neigh replace 169.254.0.1 lladdr %s dev swp%d nud permanent\n", mac,
                (int)e->if_port[i]);
    }
    for (int32_t t = 0; !rc && t < g->n; t++) {
        if (t == s)
            continue;
        int32_t c = moore_routing_next_hops(g, r, s, t, nh, w);
        deploy_int_weights(w, c, iw);
        deploy_ip4(moore_eth_loopback(t), a);
        snprintf(p, sizeof p, "%s/32", a);
        route(e, s, p, nh, iw, c, out);
        *routes += 1;
        if (!e->servers[t])
            continue;
        deploy_ip4(moore_eth_server_net(t), a);
        snprintf(p, sizeof p, "%s/24", a);
        route(e, s, p, nh, iw, c, out);
        *routes += 1;
    }
    free(nh);
    free(w);
    free(iw);
    if (!rc && ferror(out))
        rc = moore_error_set(err, MOORE_EIO, "deploy: write error");
    return rc;
}
