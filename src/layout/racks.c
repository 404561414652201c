/* racks.c — placement groups into physical racks of rack_units U.
 *
 * A group (Slim Fly x, Xpander super-node, pod, METIS part) is too large for
 * one rack once its servers stand beside its switches: a Slim Fly q=23 group
 * is 46 switches and 460 servers. So each group fills consecutive racks of its
 * own, its switches in id order, every switch directly followed by its servers
 * (the switch is their top-of-rack switch, and their cables stay short). A
 * switch starts a fresh rack when the rack is full, holds switches_per_rack
 * switches already, or when the switch and its servers do not fit beside what
 * is there but would fit in an empty rack; servers that still do not fit go
 * on in the next rack, the nearest one. U positions count from 1 at the
 * bottom of a rack. */
#include "layout_internal.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

/* Where the next switch or server goes. */
typedef struct rack_fill {
    int32_t rack, used, switches; /* current rack, U used in it, switches in it */
    int started;                  /* the current rack holds something */
} rack_fill;

static void fill_next_rack(rack_fill *f)
{
    if (f->started)
        f->rack++;
    f->used = 0;
    f->switches = 0;
    f->started = 0;
}

/* Places switch v and its servers. */
static void fill_switch(const moore_graph *g, const moore_cost_model *m, int32_t cap,
                        rack_fill *f, int32_t v, moore_layout *l)
{
    int64_t need = m->switch_units + (int64_t)g->endpoints[v] * m->server_units;
    if (f->used + m->switch_units > m->rack_units || (cap > 0 && f->switches >= cap) ||
        (f->used > 0 && f->used + need > m->rack_units && need <= m->rack_units))
        fill_next_rack(f);
    l->rack[v] = f->rack;
    l->unit[v] = f->used + 1;
    f->used += m->switch_units;
    f->switches++;
    f->started = 1;
    for (int64_t s = l->server_offs[v]; s < l->server_offs[v + 1]; s++) {
        if (f->used + m->server_units > m->rack_units)
            fill_next_rack(f);
        l->server_rack[s] = f->rack;
        l->server_unit[s] = f->used + 1;
        f->used += m->server_units;
        f->started = 1;
    }
}

/* The fullest rack in U and in switches. */
static int racks_maxima(const moore_graph *g, const moore_cost_model *m, moore_layout *l,
                        moore_error *err)
{
    int32_t *units = moore_calloc((size_t)l->racks + 1, sizeof *units, err);
    int32_t *count = moore_calloc((size_t)l->racks + 1, sizeof *count, err);
    int rc = units && count ? MOORE_OK : core_alloc_code(err);
    for (int32_t v = 0; !rc && v < g->n; v++) {
        units[l->rack[v]] += m->switch_units;
        count[l->rack[v]]++;
    }
    for (int64_t s = 0; !rc && s < l->endpoints; s++)
        units[l->server_rack[s]] += m->server_units;
    for (int32_t r = 0; !rc && r < l->racks; r++) {
        if (units[r] > l->rack_units_max)
            l->rack_units_max = units[r];
        if (count[r] > l->switches_per_rack_max)
            l->switches_per_rack_max = count[r];
    }
    free(units);
    free(count);
    return rc;
}

int layout_racks_fill(const moore_graph *g, const moore_cost_model *m, moore_layout *l,
                      moore_error *err)
{
    int32_t n = g->n;
    l->endpoints = moore_graph_endpoints_total(g);
    l->unit = moore_malloc((size_t)n + 1, sizeof *l->unit, err);
    l->server_offs = moore_malloc((size_t)n + 1, sizeof *l->server_offs, err);
    l->server_rack = moore_malloc((size_t)l->endpoints + 1, sizeof *l->server_rack, err);
    l->server_unit = moore_malloc((size_t)l->endpoints + 1, sizeof *l->server_unit, err);
    int64_t *start = moore_calloc((size_t)l->groups + 1, sizeof *start, err);
    int32_t *member = moore_malloc((size_t)n + 1, sizeof *member, err);
    int rc = MOORE_OK;
    if (!l->unit || !l->server_offs || !l->server_rack || !l->server_unit || !start || !member) {
        rc = core_alloc_code(err);
        goto done;
    }
    l->server_offs[0] = 0;
    for (int32_t v = 0; v < n; v++) {
        l->server_offs[v + 1] = l->server_offs[v] + g->endpoints[v];
        start[l->group[v] + 1]++;
    }
    for (int32_t k = 0; k < l->groups; k++)
        start[k + 1] += start[k];
    for (int32_t v = 0; v < n; v++) /* stable: members in id order */
        member[start[l->group[v]]++] = v;
    rack_fill f = { 0, 0, 0, 0 };
    int32_t prev = -1;
    for (int32_t i = 0; i < n; i++) {
        int32_t v = member[i];
        if (l->group[v] != prev)
            fill_next_rack(&f); /* every group starts a rack of its own */
        prev = l->group[v];
        fill_switch(g, m, m->switches_per_rack, &f, v, l);
    }
    l->racks = n > 0 ? f.rack + 1 : 0;
    rc = racks_maxima(g, m, l, err);
done:
    free(start);
    free(member);
    return rc;
}
