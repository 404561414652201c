/* ibfabric.c — the fabric as InfiniBand sees it: switches with numbered
 * ports, one-port HCAs, every cable port to port. Built from a moore graph
 * (ports from its cable plan, so the file and `moore layout --cables` agree on
 * every port), written in the ibnetdiscover format ibsim reads, and read back
 * from a real fabric's ibnetdiscover output (docs/deploy.md). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "deploy_internal.h"
#include "core/alloc.h"
#include "moore/layout.h"

/* Allocates f's arrays for switches (ports[s] ports each) and hcas HCAs and
 * fills in the defaults: no cables, moore's GUIDs. */
static int fabric_arrays(moore_ib_fabric *f, int32_t switches, int32_t hcas,
                         const int32_t *ports, moore_error *err)
{
    f->switches = switches;
    f->hcas = hcas;
    size_t nodes = (size_t)switches + (size_t)hcas;
    f->port_offs = moore_calloc((size_t)switches + 1, sizeof *f->port_offs, err);
    if (f->port_offs)
        for (int32_t s = 0; s < switches; s++)
            f->port_offs[s + 1] = f->port_offs[s] + ports[s];
    size_t total = f->port_offs ? (size_t)f->port_offs[switches] : 0;
    if (f->port_offs) {
        f->peer = moore_malloc(total + 1, sizeof *f->peer, err);
        f->peer_port = moore_calloc(total + 1, sizeof *f->peer_port, err);
    }
    f->hca_switch = moore_malloc((size_t)hcas + 1, sizeof *f->hca_switch, err);
    f->hca_port = moore_calloc((size_t)hcas + 1, sizeof *f->hca_port, err);
    f->guid = moore_calloc(nodes + 1, sizeof *f->guid, err);
    f->port_guid = moore_calloc(nodes + 1, sizeof *f->port_guid, err);
    f->name = moore_calloc(nodes + 1, sizeof *f->name, err);
    if (!f->peer || !f->peer_port || !f->hca_switch || !f->hca_port || !f->guid ||
        !f->port_guid || !f->name)
        return core_alloc_code(err); /* the caller frees f */
    for (size_t i = 0; i < total; i++)
        f->peer[i] = -1;
    for (int32_t h = 0; h < hcas; h++)
        f->hca_switch[h] = -1;
    for (int32_t s = 0; s < switches; s++)
        f->guid[s] = f->port_guid[s] = MOORE_IB_GUID_SWITCH + ((uint64_t)s << 8);
    for (int32_t h = 0; h < hcas; h++) {
        f->guid[switches + h] = MOORE_IB_GUID_HCA + ((uint64_t)h << 8);
        f->port_guid[switches + h] = f->guid[switches + h] + 1;
    }
    return MOORE_OK;
}

int deploy_fabric_alloc(int32_t switches, int32_t hcas, const int32_t *ports,
                        moore_ib_fabric **out, moore_error *err)
{
    moore_ib_fabric *f = moore_calloc(1, sizeof *f, err);
    int rc = f ? MOORE_OK : core_alloc_code(err);
    if (!rc)
        rc = fabric_arrays(f, switches, hcas, ports, err);
    if (!rc) {
        *out = f;
        f = NULL;
    }
    moore_ib_fabric_free(f);
    return rc;
}

void moore_ib_fabric_free(moore_ib_fabric *f)
{
    if (!f)
        return;
    if (f->name)
        for (int64_t i = 0; i < (int64_t)f->switches + f->hcas; i++)
            free(f->name[i]);
    free(f->name);
    free(f->port_offs);
    free(f->peer);
    free(f->peer_port);
    free(f->hca_switch);
    free(f->hca_port);
    free(f->guid);
    free(f->port_guid);
    free(f);
}

int deploy_fabric_link(moore_ib_fabric *f, int32_t a, int32_t pa, int32_t b, int32_t pb,
                       const char *what, moore_error *err)
{
    if (pa < 1 || pa > deploy_ports(f, a) || pb < 1 || pb > deploy_ports(f, b))
        return moore_error_set(err, MOORE_EINVAL,
                               "%s: switch %d port %d or switch %d port %d does not exist", what,
                               (int)a, (int)pa, (int)b, (int)pb);
    int64_t ia = f->port_offs[a] + pa - 1, ib = f->port_offs[b] + pb - 1;
    if (f->peer[ia] >= 0 || f->peer[ib] >= 0 || ia == ib)
        return moore_error_set(err, MOORE_EINVAL,
                               "%s: switch %d port %d or switch %d port %d is already cabled", what,
                               (int)a, (int)pa, (int)b, (int)pb);
    f->peer[ia] = b;
    f->peer_port[ia] = pb;
    f->peer[ib] = a;
    f->peer_port[ib] = pa;
    return MOORE_OK;
}

/* ---- the cable plan ---- */

/* The cable plan's columns this reads (docs/layout.md); names in quotes may
 * hold commas, so fields are split the CSV way. */
enum { PLAN_KIND, PLAN_FROM, PLAN_FROM_PORT, PLAN_TO, PLAN_TO_PORT, PLAN_COLS };
static const char *const PLAN_NAMES[PLAN_COLS] = { "kind", "from", "from_port", "to", "to_port" };
#define PLAN_MAX_FIELDS 64

/* Splits line in place into at most max fields (quotes removed, "" kept as
 * one quote); returns the count. */
static int plan_split(char *line, char **field, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        char *w = p;
        field[n++] = w;
        int quoted = *p == '"';
        p += quoted;
        for (; *p && (quoted || (*p != ',' && *p != '\n' && *p != '\r')); p++) {
            if (quoted && *p == '"' && p[1] == '"')
                *w++ = *p++;
            else if (quoted && *p == '"')
                quoted = 0;
            else
                *w++ = *p;
        }
        int more = *p == ',';
        *w = '\0';
        if (!more)
            break;
        p++;
    }
    return n;
}

/* col[k]: where PLAN_NAMES[k] stands in the header; -1 when one is missing. */
static int plan_header(char *line, int *col)
{
    char *field[PLAN_MAX_FIELDS];
    int n = plan_split(line, field, PLAN_MAX_FIELDS);
    for (int k = 0; k < PLAN_COLS; k++) {
        col[k] = -1;
        for (int i = 0; i < n; i++)
            if (strcmp(field[i], PLAN_NAMES[k]) == 0)
                col[k] = i;
        if (col[k] < 0)
            return -1;
    }
    return 0;
}

static int plan_int(const char *text, int32_t lo, int32_t hi, int32_t *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < lo || v > hi)
        return -1;
    *out = (int32_t)v;
    return 0;
}

int deploy_plan_rows(FILE *in, const char *name, int32_t switches, deploy_cable_fn fn, void *ctx,
                     moore_error *err)
{
    char *line = NULL, *field[PLAN_MAX_FIELDS];
    size_t cap = 0;
    int64_t row = 0;
    int col[PLAN_COLS], have_header = 0;
    int rc = MOORE_OK;
    while (!rc && getline(&line, &cap, in) > 0) {
        row++;
        if (!have_header) {
            if (plan_header(line, col))
                rc = moore_error_set(err, MOORE_EINVAL, "%s: line 1 is not the header of a "
                                     "cable plan (moore layout --cables: kind, from, from_port, "
                                     "to, to_port, ...)", name);
            have_header = 1;
            continue;
        }
        int n = plan_split(line, field, PLAN_MAX_FIELDS);
        int32_t a = 0, pa = 0, b = 0, pb = 0;
        if (n <= col[PLAN_TO_PORT] || n <= col[PLAN_FROM_PORT])
            rc = -1;
        else if (strcmp(field[col[PLAN_KIND]], "switch") != 0)
            continue; /* a server's cable: its HCA port is the fabric file's own */
        else if (plan_int(field[col[PLAN_FROM]], 0, switches - 1, &a) ||
                 plan_int(field[col[PLAN_FROM_PORT]], 0, 253, &pa) ||
                 plan_int(field[col[PLAN_TO]], 0, switches - 1, &b) ||
                 plan_int(field[col[PLAN_TO_PORT]], 0, 253, &pb))
            rc = -1;
        if (rc == -1)
            rc = moore_error_set(err, MOORE_EINVAL,
                                 "%s: line %lld is not a cable row with switches 0..%d and ports "
                                 "0..253", name, (long long)row, (int)switches - 1);
        else
            rc = fn(ctx, row, a, pa, b, pb, err);
    }
    free(line);
    return rc;
}

/* ---- from a moore graph ---- */

typedef struct plan_ctx {
    moore_ib_fabric *f;
    int32_t *net;   /* network ports seen per switch (NULL: linking pass) */
    const char *name;
} plan_ctx;

static int plan_count(void *ctx, int64_t row, int32_t a, int32_t pa, int32_t b, int32_t pb,
                      moore_error *err)
{
    (void)row, (void)err;
    plan_ctx *c = ctx;
    if (pa + 1 > c->net[a])
        c->net[a] = pa + 1;
    if (pb + 1 > c->net[b])
        c->net[b] = pb + 1;
    return MOORE_OK;
}

static int plan_link(void *ctx, int64_t row, int32_t a, int32_t pa, int32_t b, int32_t pb,
                     moore_error *err)
{
    plan_ctx *c = ctx;
    char what[96];
    snprintf(what, sizeof what, "%s row %lld", c->name, (long long)row);
    return deploy_fabric_link(c->f, a, pa + 1, b, pb + 1, what, err);
}

/* Name of switch s ("s<id>" and the family's label) or of its server-th
 * server ("s<id> h<j>"). Quotes and '#' would break the file format and the
 * dump's 'name' field, so they become '_'. */
static char *node_name(const moore_graph *g, int32_t s, int32_t server, moore_error *err)
{
    char buf[160];
    const char *label = g->labels && g->labels[s] ? g->labels[s] : "";
    int k = server < 0 ? snprintf(buf, sizeof buf, "s%d%s%s", (int)s, *label ? " " : "", label)
                       : snprintf(buf, sizeof buf, "s%d h%d", (int)s, (int)server);
    (void)k;
    for (char *p = buf; *p; p++)
        if (*p == '"' || *p == '\'' || *p == '\n' || *p == '#')
            *p = '_';
    char *out = strdup(buf);
    if (!out)
        moore_error_set(err, MOORE_ENOMEM, "deploy: out of memory for node names");
    return out;
}

/* The cable plan of g with the default cost model, as text. */
static int graph_plan(const moore_graph *g, char **text, size_t *len, moore_error *err)
{
    moore_cost_model m;
    moore_cost_model_default(&m);
    moore_layout l = { 0 };
    FILE *mem = NULL;
    int rc = moore_layout_compute(g, &m, NULL, &l, err);
    if (!rc) {
        mem = open_memstream(text, len);
        if (!mem)
            rc = moore_error_set(err, MOORE_ENOMEM, "deploy: no memory for the cable plan");
    }
    if (!rc)
        rc = moore_layout_write_cables(g, &l, &m, mem, err);
    if (mem)
        fclose(mem);
    moore_layout_clear(&l);
    return rc;
}

/* The names of f's switches and its HCAs, each HCA cabled to the next free
 * port of its switch after the switch cables. */
static int fabric_hcas(const moore_graph *g, moore_ib_fabric *f, moore_error *err)
{
    int32_t h = 0;
    int rc = MOORE_OK;
    for (int32_t s = 0; !rc && s < g->n; s++) {
        int32_t p = deploy_ports(f, s) - g->endpoints[s] + 1;
        f->name[s] = node_name(g, s, -1, err);
        rc = f->name[s] ? MOORE_OK : MOORE_ENOMEM;
        for (int32_t j = 0; !rc && j < g->endpoints[s]; j++, h++, p++) {
            int64_t i = f->port_offs[s] + p - 1;
            f->peer[i] = g->n + h;
            f->peer_port[i] = 1;
            f->hca_switch[h] = s;
            f->hca_port[h] = p;
            f->name[g->n + h] = node_name(g, s, j, err);
            rc = f->name[g->n + h] ? MOORE_OK : MOORE_ENOMEM;
        }
    }
    return rc;
}

/* Builds the fabric of g with the switch cables of plan (CSV text). */
static int fabric_with_plan(const moore_graph *g, FILE *plan, const char *plan_name,
                            moore_ib_fabric **out, moore_error *err)
{
    moore_ib_fabric *f = NULL;
    int32_t *ports = moore_calloc((size_t)g->n + 1, sizeof *ports, err);
    int rc = ports ? MOORE_OK : core_alloc_code(err);
    plan_ctx c = { NULL, ports, plan_name };
    if (!rc)
        rc = deploy_plan_rows(plan, plan_name, g->n, plan_count, &c, err);
    int64_t hcas = 0;
    for (int32_t s = 0; !rc && s < g->n; s++) {
        int32_t net = ports[s] > (int32_t)(g->offs[s + 1] - g->offs[s]) ? ports[s]
                        : (int32_t)(g->offs[s + 1] - g->offs[s]);
        ports[s] = net + g->endpoints[s];
        hcas += g->endpoints[s];
        if (ports[s] > 254)
            rc = moore_error_set(err, MOORE_EINVAL,
                                 "deploy: switch %d needs %d ports; an InfiniBand switch has at "
                                 "most 254",
                                 (int)s, (int)ports[s]);
    }
    if (!rc && hcas > INT32_MAX / 2)
        rc = moore_error_set(err, MOORE_EINVAL, "deploy: %lld servers are too many",
                             (long long)hcas);
    if (!rc)
        rc = deploy_fabric_alloc(g->n, (int32_t)hcas, ports, &f, err);
    free(ports); /* the counts are in f now */
    ports = NULL;
    c.f = f;
    c.net = NULL;
    if (!rc) {
        rewind(plan);
        rc = deploy_plan_rows(plan, plan_name, g->n, plan_link, &c, err);
    }
    if (!rc)
        rc = fabric_hcas(g, f, err);
    if (!rc) {
        *out = f;
        f = NULL;
    }
    moore_ib_fabric_free(f);
    free(ports);
    return rc;
}

int moore_ib_fabric_from_graph(const moore_graph *g, moore_ib_fabric **out, moore_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc = graph_plan(g, &text, &len, err);
    FILE *in = rc ? NULL : fmemopen(text, len, "r");
    if (!rc && !in)
        rc = moore_error_set(err, MOORE_ENOMEM, "deploy: no memory for the cable plan");
    if (!rc)
        rc = fabric_with_plan(g, in, "cable plan", out, err);
    if (in)
        fclose(in);
    free(text);
    return rc;
}

int moore_ib_fabric_plan_csv(const moore_graph *g, const char *csv, moore_ib_fabric **out,
                             moore_error *err)
{
    FILE *in = fopen(csv, "r");
    if (!in)
        return moore_error_set(err, MOORE_EIO, "cannot open cable plan '%s'", csv);
    int rc = fabric_with_plan(g, in, csv, out, err);
    fclose(in);
    return rc;
}

/* ---- writing ---- */

static void write_id(const moore_ib_fabric *f, int32_t node, FILE *out)
{
    fprintf(out, "\"%c-%016llx\"", node < f->switches ? 'S' : 'H', (unsigned long long)f->guid[node]);
}

int moore_ib_fabric_write(const moore_ib_fabric *f, FILE *out, moore_error *err)
{
    fprintf(out, "# InfiniBand fabric written by moore (ibnetdiscover format, ibsim -s reads "
                 "it)\n# %d switches, %d HCAs; GUID scheme and ports: docs/deploy.md\n\n",
            (int)f->switches, (int)f->hcas);
    for (int32_t s = 0; s < f->switches; s++) {
        fprintf(out, "vendid=0x0\ndevid=0x0\nsysimgguid=0x%016llx\nswitchguid=0x%016llx\n",
                (unsigned long long)f->guid[s], (unsigned long long)f->guid[s]);
        fprintf(out, "Switch\t%d ", (int)deploy_ports(f, s));
        write_id(f, s, out);
        fprintf(out, "\t\t# \"%s\" base port 0 lid 0 lmc 0\n", f->name[s]);
        for (int32_t p = 1; p <= deploy_ports(f, s); p++) {
            int64_t i = f->port_offs[s] + p - 1;
            int32_t v = f->peer[i];
            if (v < 0)
                continue;
            fprintf(out, "[%d]\t", (int)p);
            write_id(f, v, out);
            fprintf(out, "[%d]", (int)f->peer_port[i]);
            if (v >= f->switches)
                fprintf(out, "(%016llx)", (unsigned long long)f->port_guid[v]);
            fputc('\n', out); /* ibsim reads a "# name lid L width" tail, moore has no LID yet */
        }
        fputc('\n', out);
    }
    for (int32_t h = 0; h < f->hcas; h++) {
        int32_t node = f->switches + h;
        fprintf(out, "vendid=0x0\ndevid=0x0\nsysimgguid=0x%016llx\ncaguid=0x%016llx\nCa\t1 ",
                (unsigned long long)f->guid[node], (unsigned long long)f->guid[node]);
        write_id(f, node, out);
        fprintf(out, "\t\t# \"%s\"\n", f->name[node]);
        if (f->hca_switch[h] >= 0) {
            fprintf(out, "[1](%016llx)\t", (unsigned long long)f->port_guid[node]);
            write_id(f, f->hca_switch[h], out);
            fprintf(out, "[%d]\n", (int)f->hca_port[h]);
        }
        fputc('\n', out);
    }
    if (ferror(out))
        return moore_error_set(err, MOORE_EIO, "deploy: writing the fabric file failed");
    return MOORE_OK;
}
