/* plan.c — what a contractor gets: the cable plan (every switch-to-switch and
 * server cable with both ends' names, racks, floor positions, U and ports,
 * its routed and bought length, its type and the part at each end) and the
 * bill of materials (switches, racks, cables by type and bought length,
 * transceivers), both as CSV (docs/layout.md).
 *
 * A cable is bought in the next stock length at or above its routed length
 * (moore_layout_buy_length) and is copper when that bought length is within
 * the copper reach of the link speed, optical otherwise; cables.c prices it
 * by the same rule, so the BOM's costs sum to cost_total. */
#include "layout_internal.h"
#include "core/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double layout_cable_buy(const moore_layout *l, const moore_cost_model *m, int32_t a, int32_t b,
                        int *optical)
{
    double buy = moore_layout_buy_length(moore_layout_cable_length(l, m, a, b));
    *optical = buy > m->electrical_max_m;
    return buy;
}

/* A CSV field in double quotes (labels hold commas: Slim Fly's "(0,3,5)"). */
static void plan_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* s in double quotes into buf, inner quotes doubled (truncated to len). */
static const char *plan_quote_into(char *buf, size_t len, const char *s)
{
    size_t w = 0;
    buf[w++] = '"';
    for (; *s && w + 3 < len; s++) {
        if (*s == '"')
            buf[w++] = '"';
        buf[w++] = *s;
    }
    buf[w++] = '"';
    buf[w] = '\0';
    return buf;
}

/* One end of a cable: what it is, where it stands, which port. */
typedef struct plan_end {
    long long id;
    char name[80];
    int32_t rack, unit, port;
} plan_end;

/* A switch's end: its label, or "sw<id>" for a graph without labels. */
static void plan_switch_end(plan_end *e, const moore_graph *g, const moore_layout *l,
                            int32_t v, int32_t port)
{
    char plain[32];
    const char *name = g->labels && g->labels[v] ? g->labels[v] : plain;
    if (name == plain)
        snprintf(plain, sizeof plain, "sw%d", (int)v);
    plan_quote_into(e->name, sizeof e->name, name);
    e->id = v;
    e->rack = l->rack[v];
    e->unit = l->unit[v];
    e->port = port;
}

/* One row: both ends with rack, row, column, U and port, then the cable. */
static void plan_row(FILE *out, const moore_layout *l, const moore_cost_model *m,
                     long long cable, const char *kind, const plan_end *a, const plan_end *b)
{
    int optical;
    int32_t c = l->grid_cols;
    double len = moore_layout_cable_length(l, m, a->rack, b->rack);
    double buy = layout_cable_buy(l, m, a->rack, b->rack, &optical);
    const char *part = optical ? m->optics_type : m->copper_type;
    fprintf(out, "%lld,%s,%lld,%s,%d,%d,%d,%d,%d,%lld,%s,%d,%d,%d,%d,%d,%.3f,%g,%s,\"%s\",\"%s\"\n",
            cable, kind, a->id, a->name, (int)a->rack, (int)(a->rack / c), (int)(a->rack % c),
            (int)a->unit, (int)a->port, b->id, b->name, (int)b->rack, (int)(b->rack / c),
            (int)(b->rack % c), (int)b->unit, (int)b->port, len, buy,
            optical ? "optical" : "electrical", part, part);
}

static void plan_network_rows(FILE *out, const moore_graph *g, const moore_layout *l,
                              const moore_cost_model *m, int32_t *next_port, int64_t *cable)
{
    plan_end a, b;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++) {
            int32_t v = g->adj[e];
            if (v < u)
                continue;
            for (int32_t t = 0; t < l->multiplicity; t++) {
                plan_switch_end(&a, g, l, u, next_port[u]++);
                plan_switch_end(&b, g, l, v, next_port[v]++);
                plan_row(out, l, m, (long long)(*cable)++, "switch", &a, &b);
            }
        }
}

static void plan_server_rows(FILE *out, const moore_graph *g, const moore_layout *l,
                             const moore_cost_model *m, int32_t *next_port, int64_t *cable)
{
    plan_end a, b;
    for (int32_t v = 0; v < g->n; v++)
        for (int64_t s = l->server_offs[v]; s < l->server_offs[v + 1]; s++) {
            plan_switch_end(&a, g, l, v, next_port[v]++);
            b.id = s;
            snprintf(b.name, sizeof b.name, "\"srv%lld\"", (long long)s);
            b.rack = l->server_rack[s];
            b.unit = l->server_unit[s];
            b.port = 0;
            plan_row(out, l, m, (long long)(*cable)++, "server", &a, &b);
        }
}

int moore_layout_write_cables(const moore_graph *g, const moore_layout *l,
                              const moore_cost_model *m, FILE *out, moore_error *err)
{
    int32_t *next_port = moore_calloc((size_t)g->n + 1, sizeof *next_port, err);
    if (!next_port)
        return core_alloc_code(err);
    int64_t cable = 0;
    fputs("cable,kind,from,from_name,from_rack,from_row,from_col,from_u,from_port,"
          "to,to_name,to_rack,to_row,to_col,to_u,to_port,length_m,buy_m,type,from_end,to_end\n",
          out);
    plan_network_rows(out, g, l, m, next_port, &cable);
    plan_server_rows(out, g, l, m, next_port, &cable);
    free(next_port);
    if (ferror(out))
        return moore_error_set(err, MOORE_EIO, "layout: writing the cable plan failed");
    return MOORE_OK;
}

/* ---- bill of materials ---- */

/* Cables of one type and bought length. */
typedef struct bom_line {
    int optical;
    double buy;
    int64_t count;
} bom_line;

typedef struct bom_lines {
    bom_line *line;
    int len, cap;
} bom_lines;

static int bom_add(bom_lines *b, int optical, double buy, int64_t count, moore_error *err)
{
    for (int i = 0; i < b->len; i++)
        if (b->line[i].optical == optical && b->line[i].buy == buy) {
            b->line[i].count += count;
            return MOORE_OK;
        }
    if (b->len == b->cap) {
        int cap = b->cap ? 2 * b->cap : 16;
        bom_line *grown = realloc(b->line, (size_t)cap * sizeof *grown);
        if (!grown)
            return moore_error_set(err, MOORE_ENOMEM, "layout: out of memory (BOM)");
        b->line = grown;
        b->cap = cap;
    }
    b->line[b->len++] = (bom_line){ optical, buy, count };
    return MOORE_OK;
}

static int bom_order(const void *pa, const void *pb)
{
    const bom_line *a = pa, *b = pb;
    if (a->optical != b->optical)
        return a->optical - b->optical;
    return (a->buy > b->buy) - (a->buy < b->buy);
}

/* The server cables by type and bought length. */
static int bom_collect_servers(const moore_layout *l, const moore_cost_model *m, bom_lines *b,
                       moore_error *err)
{
    int rc = MOORE_OK, optical;
    for (int32_t u = 0; !rc && u < l->switches; u++)
        for (int64_t s = l->server_offs[u]; !rc && s < l->server_offs[u + 1]; s++) {
            double buy = layout_cable_buy(l, m, l->rack[u], l->server_rack[s], &optical);
            rc = bom_add(b, optical, buy, 1, err);
        }
    return rc;
}

/* The switch-to-switch cables by type and bought length. */
static int bom_collect_links(const moore_graph *g, const moore_layout *l,
                             const moore_cost_model *m, bom_lines *b, moore_error *err)
{
    int rc = MOORE_OK, optical;
    for (int32_t u = 0; !rc && u < g->n; u++)
        for (int64_t e = g->offs[u]; !rc && e < g->offs[u + 1]; e++)
            if (g->adj[e] > u) {
                double buy = layout_cable_buy(l, m, l->rack[u], l->rack[g->adj[e]], &optical);
                rc = bom_add(b, optical, buy, l->multiplicity, err);
            }
    return rc;
}

static void bom_row(FILE *out, const char *item, const char *type, double length, int64_t count,
                    double unit)
{
    fprintf(out, "%s,", item);
    plan_quoted(out, type);
    if (length > 0)
        fprintf(out, ",%g", length);
    else
        fputc(',', out);
    fprintf(out, ",%lld,%.2f,%.2f\n", (long long)count, unit, unit * (double)count);
}

int moore_layout_write_bom(const moore_graph *g, const moore_layout *l,
                           const moore_cost_model *m, FILE *out, moore_error *err)
{
    bom_lines b = { NULL, 0, 0 };
    int rc = bom_collect_links(g, l, m, &b, err);
    if (!rc)
        rc = bom_collect_servers(l, m, &b, err);
    if (rc)
        goto done;
    qsort(b.line, (size_t)b.len, sizeof *b.line, bom_order);
    char what[96];
    fputs("item,type,length_m,count,unit_cost,cost\n", out);
    snprintf(what, sizeof what, "%d-port %gG switch, %d U", (int)l->chassis_radix,
             m->link_gbps, (int)m->switch_units);
    bom_row(out, "switch", what, 0, l->switches,
            m->switch_cost + m->switch_port_cost * l->chassis_radix);
    snprintf(what, sizeof what, "%d U rack", (int)m->rack_units);
    bom_row(out, "rack", what, 0, l->racks, 0.0);
    for (int i = 0; i < b.len; i++) {
        int opt = b.line[i].optical;
        double unit = moore_layout_cable_cost(m, b.line[i].buy) -
                      (opt ? 2.0 * m->transceiver_cost : 0.0);
        bom_row(out, "cable", opt ? "optical" : "electrical", b.line[i].buy, b.line[i].count,
                unit);
    }
    if (l->transceivers > 0)
        bom_row(out, "transceiver", m->optics_type, 0, l->transceivers, m->transceiver_cost);
    if (ferror(out))
        rc = moore_error_set(err, MOORE_EIO, "layout: writing the bill of materials failed");
done:
    free(b.line);
    return rc;
}
