/* sssp.c — the pieces the iterative throughput solvers share: Dijkstra over
 * a graph with arc lengths (the approximation routes along it, column
 * generation prices paths with it) and the anytime bookkeeping (time limit,
 * cancellation, reporting improved bounds) both poll once per phase. */
#include "flow_internal.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>

int flow_ws_init(flow_ws *w, int32_t n, int with_pred)
{
    size_t m = (size_t)(n ? n : 1);
    w->dist = malloc(m * sizeof *w->dist);
    w->order = malloc(m * sizeof *w->order);
    w->heap = malloc(m * sizeof *w->heap);
    w->pos = malloc(m * sizeof *w->pos);
    w->acc = calloc(m, sizeof *w->acc);
    w->mark = calloc(m, 1);
    w->hops = with_pred ? malloc(m * sizeof *w->hops) : NULL;
    w->pred = with_pred ? malloc(m * sizeof *w->pred) : NULL;
    return w->dist && w->order && w->heap && w->pos && w->acc && w->mark &&
           (!with_pred || (w->hops && w->pred));
}

void flow_ws_free(flow_ws *w)
{
    free(w->dist);
    free(w->order);
    free(w->heap);
    free(w->pos);
    free(w->acc);
    free(w->mark);
    free(w->hops);
    free(w->pred);
}

static int heap_less(const double *key, int32_t a, int32_t b)
{
    return key[a] < key[b] || (key[a] == key[b] && a < b);
}

static void heap_up(flow_ws *w, int32_t i)
{
    int32_t v = w->heap[i];
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (!heap_less(w->dist, v, w->heap[p]))
            break;
        w->heap[i] = w->heap[p];
        w->pos[w->heap[i]] = i;
        i = p;
    }
    w->heap[i] = v;
    w->pos[v] = i;
}

static void heap_down(flow_ws *w, int32_t size, int32_t i)
{
    int32_t v = w->heap[i];
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= size)
            break;
        if (c + 1 < size && heap_less(w->dist, w->heap[c + 1], w->heap[c]))
            c++;
        if (!heap_less(w->dist, w->heap[c], v))
            break;
        w->heap[i] = w->heap[c];
        w->pos[w->heap[i]] = i;
        i = c;
    }
    w->heap[i] = v;
    w->pos[v] = i;
}

/* Relaxes the arc k = u→v; records it as v's path arc when it is shorter,
 * or as short with fewer arcs. */
static void relax(flow_ws *w, int32_t *size, int32_t u, int32_t v, int64_t k, double nd)
{
    if (nd < w->dist[v]) {
        w->dist[v] = nd;
        if (w->pred) {
            w->pred[v] = k;
            w->hops[v] = w->hops[u] + 1;
        }
        if (w->pos[v] == -1) {
            w->heap[*size] = v;
            heap_up(w, (*size)++);
        } else {
            heap_up(w, w->pos[v]);
        }
    } else if (w->pred && nd == w->dist[v] && w->pos[v] >= 0 && w->hops[u] + 1 < w->hops[v]) {
        w->pred[v] = k;
        w->hops[v] = w->hops[u] + 1;
    }
}

int32_t flow_dijkstra(const moore_graph *g, const double *len, int32_t s, int64_t targets,
                      flow_ws *w)
{
    int32_t n = g->n, size = 0, settled = 0;
    for (int32_t v = 0; v < n; v++) {
        w->dist[v] = INFINITY;
        w->pos[v] = -1;
    }
    w->dist[s] = 0;
    if (w->pred) {
        w->pred[s] = -1;
        w->hops[s] = 0;
    }
    w->heap[size++] = s;
    w->pos[s] = 0;
    while (size > 0) {
        int32_t u = w->heap[0];
        w->pos[u] = -2;
        w->order[settled++] = u;
        if (targets > 0 && w->mark[u] && --targets == 0)
            break;
        if (--size > 0) {
            w->heap[0] = w->heap[size];
            heap_down(w, size, 0);
        }
        double du = w->dist[u];
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            if (w->pos[g->adj[k]] != -2)
                relax(w, &size, u, g->adj[k], k, du + len[k]);
    }
    return settled;
}

void flow_clock_start(flow_clock *c)
{
    c->start = omp_get_wtime();
    c->last_lower = 0;
    c->last_upper = INFINITY;
}

double flow_clock_seconds(const flow_clock *c)
{
    return omp_get_wtime() - c->start;
}

const char *flow_should_stop(const moore_flow_options *o, const flow_clock *c)
{
    if (o->cancelled && o->cancelled(o->cancel_ctx))
        return "cancelled";
    if (o->time_limit > 0 && flow_clock_seconds(c) >= o->time_limit)
        return "time-limit";
    return NULL;
}

void flow_report_bounds(const moore_flow_options *o, flow_clock *c, int64_t phase,
                        double lower, double upper)
{
    if (!o->bounds || (lower <= c->last_lower && upper >= c->last_upper))
        return;
    c->last_lower = lower > c->last_lower ? lower : c->last_lower;
    c->last_upper = upper < c->last_upper ? upper : c->last_upper;
    o->bounds(o->bounds_ctx, phase, c->last_lower, c->last_upper, flow_clock_seconds(c));
}

const moore_flow_options *flow_options_or_default(const moore_flow_options *o,
                                                  moore_flow_options *def)
{
    if (o)
        return o;
    moore_flow_options_default(def);
    return def;
}

void flow_utilisation(const double *load, int64_t arcs, moore_flow_result *out)
{
    double lmax = 0, lsum = 0;
    for (int64_t a = 0; a < arcs; a++) {
        lmax = load[a] > lmax ? load[a] : lmax;
        lsum += load[a];
    }
    out->util_max = lmax > 0 ? 1.0 : 0.0;
    out->util_mean = lmax > 0 && arcs ? lsum / lmax / (double)arcs : 0.0;
}
