/* ibread.c — reads an ibnetdiscover file (what `ibnetdiscover` prints for a
 * real fabric, what ibsim reads, what moore writes) into a moore_ib_fabric.
 * Records are collected first and linked after, because a port line names
 * its remote node by an id that may come later in the file. A server is one
 * HCA port: a CA's first connected port (moore models one port per server). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "deploy_internal.h"
#include "core/alloc.h"

typedef struct rd_port {
    int32_t node, port, rport;
    uint64_t guid;          /* the local port's GUID when the line gives it, else 0 */
    char *rid;
    int64_t line;
} rd_port;

typedef struct rd_node {
    int sw;
    int32_t ports;
    uint64_t guid;
    char *id, *desc;
    int64_t line;
} rd_node;

typedef struct rd_key {
    const char *id;
    int32_t node;
} rd_key;

typedef struct rd_file {
    rd_node *nodes;
    int64_t nnodes, cap_nodes;
    rd_port *links;
    int64_t nlinks, cap_links;
    struct rd_key *order;   /* nodes sorted by id */
    const char *path;
} rd_file;

static int grow(void **p, int64_t *cap, int64_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    int64_t c = *cap ? *cap * 2 : 64;
    void *q = realloc(*p, (size_t)c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* The text between the next pair of double quotes after *p (copied), *p moved past it. */
static char *quoted(const char **p)
{
    const char *a = strchr(*p, '"');
    const char *b = a ? strchr(a + 1, '"') : NULL;
    if (!b)
        return NULL;
    *p = b + 1;
    return strndup(a + 1, (size_t)(b - a - 1));
}

static uint64_t id_guid(const char *id)
{
    if ((id[0] == 'S' || id[0] == 'H') && id[1] == '-' && isxdigit((unsigned char)id[2]))
        return strtoull(id + 2, NULL, 16);
    return 0;
}

static int bad(rd_file *r, int64_t line, const char *what, moore_error *err)
{
    return moore_error_set(err, MOORE_EINVAL, "%s line %lld: %s", r->path, (long long)line, what);
}

static int parse_header(rd_file *r, const char *s, int sw, uint64_t guid, int64_t line,
                        moore_error *err)
{
    char *end;
    long ports = strtol(s, &end, 10);
    if (end == s || ports < 1 || ports > 254)
        return bad(r, line, "a node's port count must be 1..254", err);
    const char *p = end;
    char *id = quoted(&p);
    if (!id)
        return bad(r, line, "a node header needs its \"id\"", err);
    const char *hash = strchr(p, '#');
    char *desc = hash ? quoted(&hash) : NULL;
    int rc = MOORE_OK;
    if (grow((void **)&r->nodes, &r->cap_nodes, r->nnodes + 1, sizeof *r->nodes))
        rc = moore_error_set(err, MOORE_ENOMEM, "%s: out of memory", r->path);
    if (!rc) { /* the node owns id and desc from here on */
        rd_node *n = &r->nodes[r->nnodes++];
        n->sw = sw;
        n->ports = (int32_t)ports;
        n->guid = guid ? guid : id_guid(id);
        n->id = id;
        n->desc = desc ? desc : strdup(id);
        n->line = line;
        id = desc = NULL;
        if (!n->guid)
            rc = bad(r, line, "a node needs a GUID (a switchguid=/caguid= line or an S-/H- id)",
                     err);
        else if (!n->desc)
            rc = moore_error_set(err, MOORE_ENOMEM, "%s: out of memory", r->path);
    }
    free(id);
    free(desc);
    return rc;
}

/* "[p](guid)? "rid"[rp]..." */
static int parse_port(rd_file *r, const char *s, int64_t line, moore_error *err)
{
    if (r->nnodes == 0)
        return bad(r, line, "a port line before any node header", err);
    char *end;
    long p = strtol(s + 1, &end, 10);
    if (end == s + 1 || *end != ']')
        return bad(r, line, "a port line starts with [port]", err);
    uint64_t guid = 0;
    const char *q = end + 1;
    if (*q == '(')
        guid = strtoull(q + 1, NULL, 16);
    char *rid = quoted(&q);
    if (!rid)
        return bad(r, line, "a port line names its remote \"id\"", err);
    long rp = -1;
    if (*q == '[')
        rp = strtol(q + 1, NULL, 10);
    rd_node *n = &r->nodes[r->nnodes - 1];
    int rc = MOORE_OK;
    if (p < 1 || p > n->ports || rp < 1 || rp > 254)
        rc = moore_error_set(err, MOORE_EINVAL,
                             "%s line %lld: port %ld of \"%s\" does not exist (it has ports "
                             "1..%d) or the remote port is missing",
                             r->path, (long long)line, p, n->desc, (int)n->ports);
    if (!rc && grow((void **)&r->links, &r->cap_links, r->nlinks + 1, sizeof *r->links))
        rc = moore_error_set(err, MOORE_ENOMEM, "%s: out of memory", r->path);
    if (!rc) { /* the link owns rid from here on */
        r->links[r->nlinks++] = (rd_port){ (int32_t)(r->nnodes - 1), (int32_t)p, (int32_t)rp,
                                          guid, rid, line };
        rid = NULL;
    }
    free(rid);
    return rc;
}

static int parse(rd_file *r, FILE *in, moore_error *err)
{
    char *line = NULL;
    size_t cap = 0;
    int64_t no = 0;
    uint64_t guid = 0;
    int rc = MOORE_OK;
    while (!rc && getline(&line, &cap, in) > 0) {
        no++;
        const char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!strncmp(s, "switchguid=", 11) || !strncmp(s, "caguid=", 7))
            guid = strtoull(strchr(s, '=') + 1, NULL, 16);
        else if (!strncmp(s, "Switch", 6) && isspace((unsigned char)s[6]))
            rc = parse_header(r, s + 6, 1, guid, no, err), guid = 0;
        else if ((!strncmp(s, "Ca", 2) && isspace((unsigned char)s[2])) ||
                 (!strncmp(s, "Hca", 3) && isspace((unsigned char)s[3])))
            rc = parse_header(r, s + (s[0] == 'H' ? 3 : 2), 0, guid, no, err), guid = 0;
        else if (!strncmp(s, "Rt", 2) && isspace((unsigned char)s[2]))
            rc = bad(r, no, "routers (Rt) are not supported", err);
        else if (*s == '[')
            rc = parse_port(r, s, no, err);
    }
    free(line);
    return rc;
}

static int by_id(const void *a, const void *b)
{
    return strcmp(((const rd_key *)a)->id, ((const rd_key *)b)->id);
}

static int32_t find_id(const rd_file *r, const char *id)
{
    rd_key key = { id, 0 };
    const rd_key *hit = bsearch(&key, r->order, (size_t)r->nnodes, sizeof *r->order, by_id);
    return hit ? hit->node : -1;
}

/* Sets one end of a cable: switch port slot, or the HCA's attachment. */
static int set_end(moore_ib_fabric *f, const int32_t *index, const rd_file *r, int32_t node,
                   int32_t port, int32_t peer, int32_t pport, int64_t line, moore_error *err)
{
    int32_t a = index[node], b = index[peer];
    if (a >= f->switches) { /* an HCA: its first switch port is its server port */
        int32_t h = a - f->switches;
        if (port == 1 && b < f->switches && f->hca_switch[h] < 0) {
            f->hca_switch[h] = b;
            f->hca_port[h] = pport;
        }
        return MOORE_OK;
    }
    int64_t i = f->port_offs[a] + port - 1;
    if (f->peer[i] >= 0 && (f->peer[i] != b || f->peer_port[i] != pport))
        return moore_error_set(err, MOORE_EINVAL,
                               "%s line %lld: port %d of \"%s\" is cabled to \"%s\" port %d and "
                               "also to \"%s\" port %d",
                               r->path, (long long)line, (int)port, r->nodes[node].desc,
                               f->name[f->peer[i]], (int)f->peer_port[i], r->nodes[peer].desc,
                               (int)pport);
    f->peer[i] = b;
    f->peer_port[i] = pport;
    return MOORE_OK;
}

static int build(rd_file *r, moore_ib_fabric **out, moore_error *err)
{
    int32_t sw = 0;
    for (int64_t i = 0; i < r->nnodes; i++)
        sw += r->nodes[i].sw;
    int32_t *index = moore_malloc((size_t)r->nnodes + 1, sizeof *index, err);
    int32_t *ports = moore_calloc((size_t)sw + 1, sizeof *ports, err);
    int rc = index && ports ? MOORE_OK : core_alloc_code(err);
    int32_t ns = 0, nh = sw;
    for (int64_t i = 0; !rc && i < r->nnodes; i++) {
        index[i] = r->nodes[i].sw ? ns++ : nh++;
        if (r->nodes[i].sw)
            ports[index[i]] = r->nodes[i].ports;
    }
    moore_ib_fabric *f = NULL;
    if (!rc)
        rc = deploy_fabric_alloc(sw, (int32_t)(r->nnodes - sw), ports, &f, err);
    for (int64_t i = 0; !rc && i < r->nnodes; i++) {
        f->guid[index[i]] = f->port_guid[index[i]] = r->nodes[i].guid;
        if (!r->nodes[i].sw)
            f->port_guid[index[i]] = r->nodes[i].guid + 1;
        f->name[index[i]] = r->nodes[i].desc;
        r->nodes[i].desc = NULL;
    }
    for (int64_t k = 0; !rc && k < r->nlinks; k++) {
        rd_port *l = &r->links[k];
        int32_t peer = find_id(r, l->rid);
        if (peer < 0) {
            rc = bad(r, l->line, "the remote id names no node of the file", err);
            break;
        }
        if (!r->nodes[l->node].sw && l->guid && l->port == 1)
            f->port_guid[index[l->node]] = l->guid;
        if (r->nodes[peer].sw && l->rport > r->nodes[peer].ports) {
            rc = moore_error_set(err, MOORE_EINVAL, "%s line %lld: \"%s\" has no port %d",
                                 r->path, (long long)l->line, f->name[index[peer]], (int)l->rport);
            break;
        }
        if (!r->nodes[peer].sw && !r->nodes[l->node].sw) {
            rc = bad(r, l->line, "an HCA cabled to an HCA", err);
            break;
        }
        rc = set_end(f, index, r, l->node, l->port, peer, l->rport, l->line, err);
        if (!rc)
            rc = set_end(f, index, r, peer, l->rport, l->node, l->port, l->line, err);
    }
    for (int32_t h = 0; f && !rc && h < f->hcas; h++)
        if (f->hca_switch[h] >= 0) {
            int64_t i = f->port_offs[f->hca_switch[h]] + f->hca_port[h] - 1;
            f->peer[i] = f->switches + h;
            f->peer_port[i] = 1;
        }
    if (!rc) {
        *out = f;
        f = NULL;
    }
    moore_ib_fabric_free(f);
    free(index);
    free(ports);
    return rc;
}

int moore_ib_fabric_read(const char *path, moore_ib_fabric **out, moore_error *err)
{
    FILE *in = fopen(path, "r");
    if (!in)
        return moore_error_set(err, MOORE_EIO, "cannot open fabric file '%s'", path);
    rd_file r = { .path = path };
    int rc = parse(&r, in, err);
    fclose(in);
    if (!rc && r.nnodes == 0)
        rc = moore_error_set(err, MOORE_EINVAL, "%s: no Switch or Ca record", path);
    if (!rc) {
        r.order = moore_malloc((size_t)r.nnodes, sizeof *r.order, err);
        rc = r.order ? MOORE_OK : core_alloc_code(err);
    }
    if (!rc) {
        for (int64_t i = 0; i < r.nnodes; i++)
            r.order[i] = (rd_key){ r.nodes[i].id, (int32_t)i };
        qsort(r.order, (size_t)r.nnodes, sizeof *r.order, by_id);
        for (int64_t i = 1; !rc && i < r.nnodes; i++)
            if (!strcmp(r.order[i].id, r.order[i - 1].id))
                rc = bad(&r, r.nodes[r.order[i].node].line, "a node id appears twice", err);
    }
    if (!rc)
        rc = build(&r, out, err);
    for (int64_t i = 0; i < r.nnodes; i++) {
        free(r.nodes[i].id);
        free(r.nodes[i].desc);
    }
    for (int64_t k = 0; k < r.nlinks; k++)
        free(r.links[k].rid);
    free(r.nodes);
    free(r.links);
    free(r.order);
    return rc;
}
