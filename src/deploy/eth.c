/* eth.c — a moore topology as a routed Ethernet fabric
 * (docs/deploy-ethernet.md): interfaces swp<N> named from the cable plan
 * (N = the plan's port + 1, the same numbers as the InfiniBand ports), the
 * address plan, the ASN plan (one ASN per switch for direct networks, the
 * RFC 7938 tiers for Clos and fat-tree), and `moore deploy --frr/--static`:
 * per switch its configuration or route file, DIR/twin.json for
 * scripts/twin.sh and DIR/ecmp.txt, the next-hop sets the kernels must hold. */
#include <stdlib.h>
#include <string.h>
#include "eth_internal.h"
#include "deploy_internal.h"
#include "core/alloc.h"
#include "core/unionfind.h"
#include "moore/io.h"

uint32_t moore_eth_loopback(int32_t s)
{
    return (10u << 24) + (uint32_t)s + 1u;
}

uint32_t moore_eth_server_net(int32_t s)
{
    return (10u << 24) + (128u << 16) + ((uint32_t)s << 8);
}

void deploy_ip4(uint32_t a, char *buf)
{
    snprintf(buf, 16, "%u.%u.%u.%u", a >> 24, (a >> 16) & 255u, (a >> 8) & 255u, a & 255u);
}

void deploy_mac(int32_t s, int32_t port, char *buf)
{
    uint32_t u = (uint32_t)s;
    snprintf(buf, 18, "02:6d:%02x:%02x:%02x:%02x", (u >> 16) & 255u, (u >> 8) & 255u, u & 255u,
             (unsigned)port & 255u);
}

void deploy_eth_free(deploy_eth *e)
{
    if (!e)
        return;
    free(e->if_offs);
    free(e->if_port);
    free(e->if_peer);
    free(e->if_peer_port);
    free(e->asn);
    free(e->servers);
    free(e);
}

/* ---- the ASN plan ---- */

/* Families built as tiers of a folded Clos: RFC 7938's scheme applies. */
static int tier_family(const char *family)
{
    static const char *const names[] = { "clos", "fattree", "karyntree", "xgft" };
    for (size_t i = 0; family && i < sizeof names / sizeof *names; i++)
        if (strcmp(family, names[i]) == 0)
            return 1;
    return 0;
}

/* Tier of every switch: hops from the nearest switch with servers (a BFS
 * from all of them). Returns the top tier, or −1 when the graph is not
 * layered (a switch unreached, or a link inside a tier or across two). */
static int32_t tiers(const moore_graph *g, int32_t *tier, int32_t *queue)
{
    int32_t head = 0, tail = 0, top = 0;
    for (int32_t s = 0; s < g->n; s++) {
        tier[s] = g->endpoints[s] > 0 ? 0 : -1;
        if (tier[s] == 0)
            queue[tail++] = s;
    }
    while (head < tail) {
        int32_t u = queue[head++];
        for (int64_t j = g->offs[u]; j < g->offs[u + 1]; j++)
            if (tier[g->adj[j]] < 0) {
                tier[g->adj[j]] = tier[u] + 1;
                top = tier[u] + 1;
                queue[tail++] = g->adj[j];
            }
    }
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t j = g->offs[u]; j < g->offs[u + 1]; j++)
            if (tier[u] < 0 || abs(tier[u] - tier[g->adj[j]]) != 1)
                return -1;
    return top;
}

/* RFC 7938: a leaf (tier 0) has its own ASN; a switch of tier t between has
 * its pod's (the connected part of tiers ≤ t it lies in, numbered by its
 * smallest switch); the top tier shares one. */
static void tier_asns(const moore_graph *g, const int32_t *tier, int32_t top, uint32_t *asn,
                      int32_t *parent, int32_t *pod)
{
    for (int32_t t = 1; t < top; t++) {
        for (int32_t s = 0; s < g->n; s++) {
            parent[s] = s;
            pod[s] = -1;
        }
        for (int32_t u = 0; u < g->n; u++)
            for (int64_t j = g->offs[u]; j < g->offs[u + 1]; j++)
                if (tier[u] <= t && tier[g->adj[j]] <= t)
                    parent[core_uf_find(parent, u)] = core_uf_find(parent, g->adj[j]);
        int32_t pods = 0;
        for (int32_t s = 0; s < g->n; s++) {
            int32_t root = core_uf_find(parent, s);
            if (tier[s] != t)
                continue;
            if (pod[root] < 0)
                pod[root] = pods++;
            asn[s] = DEPLOY_ASN_BASE + (uint32_t)t * DEPLOY_ASN_TIER + (uint32_t)pod[root];
        }
    }
    for (int32_t s = 0; s < g->n; s++)
        if (tier[s] == top)
            asn[s] = DEPLOY_ASN_BASE + (uint32_t)top * DEPLOY_ASN_TIER;
}

static int asn_plan(deploy_eth *e, const moore_graph *g, moore_error *err)
{
    for (int32_t s = 0; s < g->n; s++)
        e->asn[s] = DEPLOY_ASN_BASE + (uint32_t)s;
    if (!tier_family(g->family) || moore_graph_endpoints_total(g) == 0)
        return MOORE_OK;
    int32_t *tier = moore_malloc((size_t)g->n + 1, sizeof *tier, err);
    int32_t *a = moore_malloc((size_t)g->n + 1, sizeof *a, err);
    int32_t *b = moore_malloc((size_t)g->n + 1, sizeof *b, err);
    int rc = tier && a && b ? MOORE_OK : core_alloc_code(err);
    int32_t top = rc ? -1 : tiers(g, tier, a);
    if (top >= 1 && top < 90) {
        tier_asns(g, tier, top, e->asn, a, b);
        e->tiered = 1;
    }
    free(tier);
    free(a);
    free(b);
    return rc;
}

/* ---- interfaces ---- */

static int interfaces(deploy_eth *e, const moore_ib_fabric *f, moore_error *err)
{
    int32_t n = f->switches;
    e->if_offs = moore_calloc((size_t)n + 1, sizeof *e->if_offs, err);
    if (!e->if_offs)
        return core_alloc_code(err);
    for (int32_t s = 0; s < n; s++) {
        int64_t k = 0;
        for (int64_t i = f->port_offs[s]; i < f->port_offs[s + 1]; i++)
            k += f->peer[i] >= 0 && f->peer[i] < n;
        e->if_offs[s + 1] = e->if_offs[s] + k;
    }
    size_t total = (size_t)e->if_offs[n] + 1;
    e->if_port = moore_malloc(total, sizeof *e->if_port, err);
    e->if_peer = moore_malloc(total, sizeof *e->if_peer, err);
    e->if_peer_port = moore_malloc(total, sizeof *e->if_peer_port, err);
    if (!e->if_port || !e->if_peer || !e->if_peer_port)
        return core_alloc_code(err);
    int64_t k = 0;
    for (int32_t s = 0; s < n; s++)
        for (int64_t i = f->port_offs[s]; i < f->port_offs[s + 1]; i++)
            if (f->peer[i] >= 0 && f->peer[i] < n) {
                e->if_port[k] = (int32_t)(i - f->port_offs[s] + 1);
                e->if_peer[k] = f->peer[i];
                e->if_peer_port[k++] = f->peer_port[i];
            }
    return MOORE_OK;
}

static int check_plan(const moore_graph *g, moore_error *err)
{
    if (g->n > MOORE_ETH_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL,
                               "deploy: %d switches; the address plan numbers at most %d "
                               "(a /24 of 10.128.0.0/9 per switch)",
                               (int)g->n, MOORE_ETH_MAX_SWITCHES);
    for (int32_t s = 0; s < g->n; s++)
        if (g->endpoints[s] > 253)
            return moore_error_set(err, MOORE_EINVAL,
                                   "deploy: switch %d has %d servers; its /24 holds at most 253",
                                   (int)s, (int)g->endpoints[s]);
    return MOORE_OK;
}

int deploy_eth_build(const moore_graph *g, deploy_eth **out, moore_error *err)
{
    moore_ib_fabric *f = NULL;
    deploy_eth *e = NULL;
    int rc = check_plan(g, err);
    if (!rc)
        rc = moore_ib_fabric_from_graph(g, &f, err);
    if (!rc) {
        e = moore_calloc(1, sizeof *e, err);
        rc = e ? MOORE_OK : core_alloc_code(err);
    }
    if (!rc) {
        e->n = g->n;
        e->g = g;
        e->asn = moore_malloc((size_t)g->n + 1, sizeof *e->asn, err);
        e->servers = moore_calloc((size_t)g->n + 1, 1, err);
        rc = e->asn && e->servers ? MOORE_OK : core_alloc_code(err);
    }
    if (!rc)
        rc = interfaces(e, f, err);
    if (!rc)
        rc = asn_plan(e, g, err);
    int none = moore_graph_endpoints_total(g) == 0;
    for (int32_t s = 0; !rc && s < g->n; s++)
        e->servers[s] = (char)(none || g->endpoints[s] > 0);
    if (!rc) {
        *out = e;
        e = NULL;
    }
    moore_ib_fabric_free(f);
    deploy_eth_free(e);
    return rc;
}

/* ---- next hops: DIR/ecmp.txt and the widest set ---- */

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Cables of u toward its next-hop switches nh[0..c−1]. */
static int32_t cables(const deploy_eth *e, int32_t u, const int32_t *nh, int32_t c)
{
    int32_t k = 0;
    for (int64_t i = e->if_offs[u]; i < e->if_offs[u + 1]; i++)
        for (int32_t j = 0; j < c; j++)
            k += e->if_peer[i] == nh[j];
    return k;
}

/* Writes "u t v1 v2 ..." per switch u and destination t with a server
 * prefix (when out is not NULL); *widest: the most cables any next-hop set
 * of any pair spans (BGP's maximum-paths). */
static int next_hop_sets(const deploy_eth *e, const moore_routing *r, FILE *out,
                         int32_t *widest, moore_error *err)
{
    const moore_graph *g = e->g;
    int32_t *nh = moore_malloc((size_t)moore_graph_degree_max(g) + 1, sizeof *nh, err);
    if (!nh)
        return core_alloc_code(err);
    *widest = 1;
    for (int32_t u = 0; u < g->n; u++)
        for (int32_t t = 0; t < g->n; t++) {
            if (t == u)
                continue;
            int32_t c = moore_routing_next_hops(g, r, u, t, nh, NULL);
            int32_t k = cables(e, u, nh, c);
            *widest = k > *widest ? k : *widest;
            if (!out || !e->servers[t])
                continue;
            qsort(nh, (size_t)c, sizeof *nh, cmp_i32);
            fprintf(out, "%d %d", (int)u, (int)t);
            for (int32_t j = 0; j < c; j++)
                fprintf(out, " %d", (int)nh[j]);
            fputc('\n', out);
        }
    free(nh);
    return MOORE_OK;
}

/* ---- DIR/twin.json ---- */

static void twin_switch(const deploy_eth *e, int32_t s, const char *prefix, FILE *out)
{
    char lo[16], net[16], gw[16], mac[18];
    deploy_ip4(moore_eth_loopback(s), lo);
    fprintf(out, "    {\"id\": %d, \"namespace\": \"%ss%d\", \"asn\": %u, \"loopback\": \"%s\", ",
            (int)s, prefix, (int)s, e->asn[s], lo);
    if (e->servers[s]) {
        deploy_ip4(moore_eth_server_net(s), net);
        deploy_ip4(moore_eth_server_net(s) + 1, gw);
        fprintf(out, "\"servers\": \"%s/24\", \"gateway\": \"%s\",", net, gw);
    } else {
        fprintf(out, "\"servers\": null, \"gateway\": null,");
    }
    fprintf(out, "\n     \"interfaces\": [");
    for (int64_t i = e->if_offs[s]; i < e->if_offs[s + 1]; i++) {
        deploy_mac(s, e->if_port[i], mac);
        fprintf(out, "%s\n      {\"name\": \"swp%d\", \"peer\": %d, \"peer_interface\": \"swp%d\", "
                "\"mac\": \"%s\"}", i > e->if_offs[s] ? "," : "", (int)e->if_port[i],
                (int)e->if_peer[i], (int)e->if_peer_port[i], mac);
    }
    fprintf(out, "]}");
}

static void twin_write(const deploy_eth *e, moore_eth_mode mode, const char *prefix, FILE *out)
{
    const moore_graph *g = e->g;
    fprintf(out, "{\n  \"mode\": \"%s\",\n", mode == MOORE_ETH_FRR ? "frr" : "static");
    if (g->origin.spec)
        fprintf(out, "  \"topology\": \"%s\",\n", g->origin.spec);
    fprintf(out, "  \"prefix\": \"%s\",\n  \"asn_scheme\": \"%s\",\n  \"switches\": [\n", prefix,
            e->tiered ? "rfc7938-tiers" : "per-switch");
    for (int32_t s = 0; s < e->n; s++) {
        twin_switch(e, s, prefix, out);
        fprintf(out, "%s\n", s + 1 < e->n ? "," : "");
    }
    fprintf(out, "  ]\n}\n");
}

/* ---- writing DIR ---- */

typedef struct eth_job {
    const deploy_eth *e;
    const moore_routing *r;
    moore_eth_mode mode;
    const char *prefix;
    int32_t widest;
    int64_t routes;
} eth_job;

/* Opens DIR/name atomically, lets write() fill it, commits. */
static int write_file(const char *dir, const char *name, const eth_job *j, int32_t s,
                      int (*write)(const eth_job *, int32_t, FILE *, moore_error *),
                      moore_error *err)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    if (!path)
        return moore_error_set(err, MOORE_ENOMEM, "deploy: out of memory");
    snprintf(path, len, "%s/%s", dir, name);
    moore_atomic_file af = { 0 };
    int rc = moore_atomic_open(path, &af, err);
    int open = !rc;
    if (!rc)
        rc = write(j, s, af.f, err);
    if (!rc) {
        open = 0;
        rc = moore_atomic_commit(&af, err);
    }
    if (open)
        moore_atomic_abort(&af);
    free(path);
    return rc;
}

static int write_switch(const eth_job *j, int32_t s, FILE *out, moore_error *err)
{
    if (j->mode == MOORE_ETH_FRR)
        return deploy_frr_write(j->e, s, j->widest, out, err);
    int64_t routes = 0;
    int rc = deploy_static_write(j->e, j->r, s, out, &routes, err);
    ((eth_job *)j)->routes += routes;
    return rc;
}

static int write_twin(const eth_job *j, int32_t s, FILE *out, moore_error *err)
{
    (void)s, (void)err;
    twin_write(j->e, j->mode, j->prefix, out);
    return MOORE_OK;
}

static int write_ecmp(const eth_job *j, int32_t s, FILE *out, moore_error *err)
{
    (void)s;
    int32_t widest = 0;
    return next_hop_sets(j->e, j->r, out, &widest, err);
}

static int write_dir(const char *dir, eth_job *j, moore_error *err)
{
    int rc = deploy_make_dir(dir, err);
    size_t len = strlen(dir) + 32;
    char *sub = malloc(len);
    if (!sub && !rc)
        rc = moore_error_set(err, MOORE_ENOMEM, "deploy: out of memory");
    const char *file = j->mode == MOORE_ETH_FRR ? "frr.conf" : "routes.batch";
    for (int32_t s = 0; !rc && s < j->e->n; s++) {
        snprintf(sub, len, "%s/s%d", dir, (int)s);
        rc = deploy_make_dir(sub, err);
        if (!rc)
            rc = write_file(sub, file, j, s, write_switch, err);
    }
    if (!rc)
        rc = write_file(dir, "ecmp.txt", j, 0, write_ecmp, err);
    if (!rc)
        rc = write_file(dir, "twin.json", j, 0, write_twin, err);
    free(sub);
    return rc;
}

static int check_prefix(const char *p, moore_error *err)
{
    size_t len = strlen(p);
    int ok = len <= 32;
    for (size_t i = 0; ok && i < len; i++)
        ok = (p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
             (p[i] >= '0' && p[i] <= '9') || p[i] == '_' || p[i] == '.' || p[i] == '-';
    return ok ? MOORE_OK
              : moore_error_set(err, MOORE_EINVAL,
                                "deploy: namespace prefix '%s' must be at most 32 characters of "
                                "A-Z a-z 0-9 _ . -", p);
}

static int eth_report(const eth_job *j, const moore_routing *r, moore_report *rep,
                      moore_error *err)
{
    int rc = moore_report_string(rep, "algo", r->name, err);
    if (!rc) rc = moore_report_int(rep, "switches", j->e->n, err);
    if (!rc) rc = moore_report_int(rep, "interfaces", j->e->if_offs[j->e->n], err);
    if (!rc)
        rc = moore_report_string(rep, "asn_scheme", j->e->tiered ? "rfc7938-tiers" : "per-switch",
                                 err);
    if (!rc) rc = moore_report_int(rep, "max_paths", j->widest, err);
    if (!rc && j->mode == MOORE_ETH_STATIC)
        rc = moore_report_int(rep, "routes", j->routes, err);
    return rc;
}

int moore_eth_deploy(const moore_graph *g, const moore_routing_options *o, moore_eth_mode mode,
                     const char *ns_prefix, const char *dir, moore_report *rep, moore_error *err)
{
    if (mode == MOORE_ETH_FRR && o->algo != MOORE_ROUTE_ECMP)
        return moore_error_set(err, MOORE_EINVAL,
                               "deploy: --frr routes by BGP, which is ECMP; other --algo values "
                               "go with --static");
    deploy_eth *e = NULL;
    moore_routing *r = NULL;
    eth_job j = { 0 };
    int rc = check_prefix(ns_prefix, err);
    if (!rc)
        rc = deploy_eth_build(g, &e, err);
    if (!rc)
        rc = moore_routing_build(g, o, &r, err);
    j.e = e;
    j.r = r;
    j.mode = mode;
    j.prefix = ns_prefix;
    if (!rc)
        rc = next_hop_sets(e, r, NULL, &j.widest, err);
    if (!rc)
        rc = write_dir(dir, &j, err);
    if (!rc && rep)
        rc = eth_report(&j, r, rep, err);
    moore_routing_free(r);
    deploy_eth_free(e);
    return rc;
}
