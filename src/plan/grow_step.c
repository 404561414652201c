/* grow_step.c — one step of a growth path measured (docs/growth.md): the
 * rewiring between two configurations, what it costs, and the throughput
 * before, after and while it is done.
 *
 * Rewiring is the difference of the two link sets in the path's stable ids:
 * links in both are kept, links only before are removed, links only after are
 * added. A removed cable that shares a switch with an added one can be moved
 * (its end at the other switch unplugged and re-plugged) when it is long
 * enough for the new run and of the same kind (copper stays copper, fibre
 * stays fibre); moves are matched greedily in link order. Labour is paid per
 * cable touched (added + removed − moved: a move is one touch).
 *
 * The rewiring is done as a list of operations (moves, then each remaining
 * removal paired with an addition, then what is left) in batches of `batch`
 * cables; during a batch its removed cables are out and its added ones not
 * yet in. The servers during a step are those of the configuration before
 * it. A graph whose links are common to a run of consecutive moments is a
 * subgraph of each of them, so its proven lower bound holds for all of them:
 * with more than MOORE_GROW_STATES batches the batches are merged into that
 * many runs, each bounded once (during_exact = 0). The worst moment is at
 * most the throughput before the first batch, the before configuration's. */
#include "grow_internal.h"
#include "plan_internal.h"
#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void plan_grow_config_clear(plan_grow_config *c)
{
    moore_graph_free(c->g);
    free(c->uid);
    memset(c, 0, sizeof *c);
}

int plan_grow_config_set(plan_grow_config *c, moore_graph *g, const char *topology,
                         moore_error *err)
{
    c->g = g;
    c->uid = malloc((size_t)(g->n ? g->n : 1) * sizeof *c->uid);
    if (!c->uid)
        return moore_error_set(err, MOORE_ENOMEM, "out of memory");
    for (int32_t v = 0; v < g->n; v++)
        c->uid[v] = v;
    snprintf(c->topology, sizeof c->topology, "%s", topology ? topology : "");
    return MOORE_OK;
}

/* ---- link sets in stable ids ---- */

static uint64_t key_of(int32_t a, int32_t b)
{
    return a < b ? ((uint64_t)a << 32) | (uint32_t)b : ((uint64_t)b << 32) | (uint32_t)a;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The links of c as sorted keys (c->g->m of them). */
static int link_keys(const plan_grow_config *c, uint64_t **out, moore_error *err)
{
    const moore_graph *g = c->g;
    uint64_t *k = malloc((size_t)(g->m ? g->m : 1) * sizeof *k);
    if (!k)
        return moore_error_set(err, MOORE_ENOMEM, "out of memory");
    int64_t i = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++)
            if (g->adj[e] > u)
                k[i++] = key_of(c->uid[u], c->uid[g->adj[e]]);
    qsort(k, (size_t)i, sizeof *k, cmp_u64);
    *out = k;
    return MOORE_OK;
}

/* The rewiring of one step. */
typedef struct diff {
    int64_t kept, removed, added;
    uint64_t *keep, *rem, *add;     /* sorted keys of each kind */
    int64_t *mate;                  /* per removed link: the added link it moves to, or −1 */
    int64_t moved;
    int32_t span;                   /* ids run 0..span−1 */
    int32_t *at_before, *at_after;  /* span entries: switch of an id, −1 when absent */
} diff;

static void diff_clear(diff *d)
{
    free(d->keep);
    free(d->rem);
    free(d->add);
    free(d->mate);
    free(d->at_before);
    free(d->at_after);
    memset(d, 0, sizeof *d);
}

static int32_t span_of(const plan_grow_config *c)
{
    int32_t s = 0;
    for (int32_t v = 0; c && v < c->g->n; v++)
        if (c->uid[v] + 1 > s)
            s = c->uid[v] + 1;
    return s;
}

static int32_t *switch_of_id(const plan_grow_config *c, int32_t span)
{
    int32_t *at = malloc((size_t)(span ? span : 1) * sizeof *at);
    if (!at)
        return NULL;
    for (int32_t i = 0; i < span; i++)
        at[i] = -1;
    for (int32_t v = 0; c && v < c->g->n; v++)
        at[c->uid[v]] = v;
    return at;
}

static int diff_make(const plan_grow_config *b, const plan_grow_config *a, diff *d,
                     moore_error *err)
{
    uint64_t *kb = NULL, *ka = NULL;
    int64_t mb = b->g->m, ma = a->g->m;
    memset(d, 0, sizeof *d);
    int rc = link_keys(b, &kb, err);
    if (!rc)
        rc = link_keys(a, &ka, err);
    size_t nb = (size_t)(mb ? mb : 1), na = (size_t)(ma ? ma : 1);
    if (!rc) {
        d->keep = malloc(nb * sizeof *d->keep);
        d->rem = malloc(nb * sizeof *d->rem);
        d->add = malloc(na * sizeof *d->add);
        d->mate = malloc(nb * sizeof *d->mate);
        int32_t sb = span_of(b), sa = span_of(a);
        d->span = sb > sa ? sb : sa;
        d->at_before = switch_of_id(b, d->span);
        d->at_after = switch_of_id(a, d->span);
        if (!d->keep || !d->rem || !d->add || !d->mate || !d->at_before || !d->at_after)
            rc = moore_error_set(err, MOORE_ENOMEM, "out of memory");
    }
    for (int64_t i = 0, j = 0; !rc && (i < mb || j < ma);) {
        if (j >= ma || (i < mb && kb[i] < ka[j]))
            d->rem[d->removed++] = kb[i++];
        else if (i >= mb || ka[j] < kb[i])
            d->add[d->added++] = ka[j++];
        else {
            d->keep[d->kept++] = kb[i++];
            j++;
        }
    }
    free(kb);
    free(ka);
    return rc;
}

/* ---- cables: lengths and moves ---- */

typedef struct priced {
    const moore_cost_model *m;
    const moore_layout *lb, *la;
} priced;

/* Bought length of link key k in layout l (switch ids through at). */
static double buy_length(const moore_cost_model *m, const moore_layout *l, const int32_t *at,
                         uint64_t k)
{
    int32_t u = at[k >> 32], v = at[(uint32_t)k];
    return moore_layout_buy_length(moore_layout_cable_length(l, m, l->rack[u], l->rack[v]));
}

static int optical(const moore_cost_model *m, double buy)
{
    return buy > m->electrical_max_m;
}

/* 1 when removed cable r can serve as added cable a: long enough, same kind. */
static int movable(const priced *p, const diff *d, uint64_t r, uint64_t a)
{
    double old_buy = buy_length(p->m, p->lb, d->at_before, r);
    double new_buy = buy_length(p->m, p->la, d->at_after, a);
    return new_buy <= old_buy && optical(p->m, old_buy) == optical(p->m, new_buy);
}

typedef struct end_ref {
    int32_t id;
    int64_t link;
} end_ref;

static int cmp_end(const void *a, const void *b)
{
    const end_ref *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->link < y->link ? -1 : x->link > y->link;
}

/* Greedy moves: each removed link, in order, takes the first unused added
 * link at one of its two switches that it can serve. */
static void match_fill(const priced *p, diff *d, end_ref *ends, int64_t *first, char *used)
{
    for (int64_t j = 0; j < d->added; j++) {
        ends[2 * j] = (end_ref){ (int32_t)(d->add[j] >> 32), j };
        ends[2 * j + 1] = (end_ref){ (int32_t)(uint32_t)d->add[j], j };
    }
    qsort(ends, (size_t)(2 * d->added), sizeof *ends, cmp_end);
    for (int32_t i = 0, e = 0; i <= d->span; i++) {
        while (e < 2 * d->added && ends[e].id < i)
            e++;
        first[i] = e;
    }
    d->moved = 0;
    for (int64_t r = 0; r < d->removed; r++) {
        d->mate[r] = -1;
        int32_t sw[2] = { (int32_t)(d->rem[r] >> 32), (int32_t)(uint32_t)d->rem[r] };
        for (int s = 0; s < 2 && d->mate[r] < 0; s++)
            for (int64_t e = first[sw[s]]; e < first[sw[s] + 1]; e++) {
                int64_t j = ends[e].link;
                if (!used[j] && movable(p, d, d->rem[r], d->add[j])) {
                    used[j] = 1;
                    d->mate[r] = j;
                    d->moved++;
                    break;
                }
            }
    }
}

/* match_fill with its scratch: ends (2·added), first (span + 1), used (added). */
static int match_moves(const priced *p, diff *d, moore_error *err)
{
    end_ref *ends = malloc((size_t)(2 * d->added + 1) * sizeof *ends);
    int64_t *first = malloc((size_t)(d->span + 1) * sizeof *first);
    char *used = calloc((size_t)d->added + 1, 1);
    int rc = ends && first && used ? MOORE_OK
                                   : moore_error_set(err, MOORE_ENOMEM, "out of memory");
    if (!rc)
        match_fill(p, d, ends, first, used);
    free(ends);
    free(first);
    free(used);
    return rc;
}

/* ---- costs ---- */

static double pos(double x)
{
    return x > 0 ? x : 0;
}

/* Equipment of a step: switches and server cables the layout gains, and the
 * added cables not served by a move, at their bought lengths. */
static void step_cost(const moore_grow_options *o, const priced *p, const diff *d,
                      moore_grow_step *st)
{
    char *served = calloc((size_t)d->added + 1, 1);
    double cables = 0;
    int64_t optics = 0;
    for (int64_t r = 0; served && r < d->removed; r++)
        if (d->mate[r] >= 0)
            served[d->mate[r]] = 1;
    for (int64_t j = 0; j < d->added; j++) {
        if (served && served[j])
            continue;
        double buy = buy_length(p->m, p->la, d->at_after, d->add[j]);
        cables += moore_layout_cable_cost(p->m, buy);
        optics += optical(p->m, buy) ? 2 : 0;
    }
    free(served);
    int64_t k = p->la->multiplicity > 0 ? p->la->multiplicity : 1;
    st->optics_bought = optics * k;
    st->cost_equipment = pos(p->la->cost_switches - p->lb->cost_switches) +
                         pos(p->la->cost_server_cables - p->lb->cost_server_cables) +
                         cables * (double)k;
    st->cost_labour = o->labour * (double)st->cables_touched;
}

/* ---- graphs of the moments of a rewiring ---- */

/* The graph of the before configuration's switches and the after's new ones,
 * with the before servers, and the links keep ∪ add[0..na) ∪ rem[nr..]. */
static int moment_graph(const plan_grow_config *b, const diff *d, const uint64_t *adds,
                        int64_t nadd, const uint64_t *rems, int64_t nrem, moore_graph **out,
                        moore_error *err)
{
    int32_t *local = malloc((size_t)(d->span ? d->span : 1) * sizeof *local);
    int32_t *ep = calloc((size_t)(d->span ? d->span : 1), sizeof *ep);
    moore_builder *bl = NULL;
    int rc = local && ep ? MOORE_OK : moore_error_set(err, MOORE_ENOMEM, "out of memory");
    int32_t n = 0;
    for (int32_t i = 0; !rc && i < d->span; i++) {
        local[i] = d->at_before[i] >= 0 || d->at_after[i] >= 0 ? n++ : -1;
        if (local[i] >= 0 && d->at_before[i] >= 0)
            ep[local[i]] = b->g->endpoints[d->at_before[i]];
    }
    if (!rc)
        rc = moore_builder_new(n, d->kept + nadd + nrem, &bl, err);
    const uint64_t *lists[3] = { d->keep, adds, rems };
    int64_t counts[3] = { d->kept, nadd, nrem };
    for (int l = 0; l < 3; l++)
        for (int64_t i = 0; !rc && i < counts[l]; i++)
            rc = moore_builder_add_link(bl, local[lists[l][i] >> 32],
                                        local[(uint32_t)lists[l][i]], err);
    if (!rc) {
        rc = moore_builder_finish(bl, out, err);
        bl = NULL;
    }
    if (!rc)
        rc = moore_graph_set_endpoints(*out, ep, err);
    moore_builder_free(bl);
    free(local);
    free(ep);
    return rc;
}

/* Fills orem and oadd (see operations) with served as scratch; the count. */
static int64_t order_ops(const diff *d, uint64_t *orem, uint64_t *oadd, char *served)
{
    int64_t i = 0;
    for (int64_t r = 0; r < d->removed; r++)
        if (d->mate[r] >= 0) {
            orem[i] = d->rem[r];
            oadd[i++] = d->add[d->mate[r]];
            served[d->mate[r]] = 1;
        }
    /* the rest one cable at a time, removals and additions in turn */
    int64_t r = 0, a = 0;
    for (int turn = 0;; turn ^= 1) {
        while (r < d->removed && d->mate[r] >= 0)
            r++;
        while (a < d->added && served[a])
            a++;
        if (r >= d->removed && a >= d->added)
            break;
        if ((turn == 0 && r < d->removed) || a >= d->added)
            orem[i++] = d->rem[r++];
        else
            oadd[i++] = d->add[a++];
    }
    return i;
}

/* The operations in order, one cable each: per operation the link it
 * removes and the one it adds (0 = none; a key is never 0, a link joining two
 * distinct ids). A move removes and adds; the rest do one of the two. */
static int operations(const diff *d, uint64_t **orem, uint64_t **oadd, int64_t *count,
                      moore_error *err)
{
    int64_t t = d->added + d->removed - d->moved;
    uint64_t *rem = calloc((size_t)t + 1, sizeof *rem);
    uint64_t *add = calloc((size_t)t + 1, sizeof *add);
    char *served = calloc((size_t)d->added + 1, 1);
    int rc = rem && add && served ? MOORE_OK
                                  : moore_error_set(err, MOORE_ENOMEM, "out of memory");
    if (!rc) {
        *count = order_ops(d, rem, add, served);
        *orem = rem;
        *oadd = add;
        rem = add = NULL;
    }
    free(rem);
    free(add);
    free(served);
    return rc;
}

/* Appends the nonzero keys of ops[lo..hi) to out. */
static int64_t gather(const uint64_t *ops, int64_t lo, int64_t hi, uint64_t *out)
{
    int64_t n = 0;
    for (int64_t i = lo; i < hi; i++)
        if (ops[i])
            out[n++] = ops[i];
    return n;
}

/* Bounds over the moments of the rewiring. */
static int during(const moore_grow_options *o, const plan_grow_config *b, const diff *d,
                  moore_grow_step *st, moore_error *err)
{
    uint64_t *orem = NULL, *oadd = NULL, *adds = NULL, *rems = NULL;
    int64_t t = 0;
    int rc = operations(d, &orem, &oadd, &t, err);
    st->batches = (t + o->batch - 1) / o->batch;
    st->during_lower = st->before_lower;
    st->during_upper = st->before_upper;
    st->during_exact = 1;
    /* only additions (no removal): every moment holds the before graph, and
     * the first is it, so there are no runs */
    int64_t runs = 0;
    if (!rc && d->removed > 0) {
        runs = st->batches < MOORE_GROW_STATES ? st->batches : MOORE_GROW_STATES;
        st->during_exact = runs == st->batches;
        adds = malloc(((size_t)t + 1) * sizeof *adds);
        rems = malloc(((size_t)t + 1) * sizeof *rems);
        if (!adds || !rems)
            rc = moore_error_set(err, MOORE_ENOMEM, "out of memory");
    }
    for (int64_t r = 0; !rc && r < runs; r++) {
        /* run r: batches [r·B/runs, (r+1)·B/runs) */
        int64_t lo = r * st->batches / runs * o->batch;
        int64_t hi = (r + 1) * st->batches / runs * o->batch;
        hi = hi < t ? hi : t;
        int64_t na = gather(oadd, 0, lo, adds), nr = gather(orem, hi, t, rems);
        moore_graph *g = NULL;
        double lower, upper;
        rc = moment_graph(b, d, adds, na, rems, nr, &g, err);
        if (!rc)
            rc = plan_grow_bounds(g, o->threads, &lower, &upper, err);
        moore_graph_free(g);
        if (!rc && lower < st->during_lower)
            st->during_lower = lower;
        if (!rc && st->during_exact && upper < st->during_upper)
            st->during_upper = upper;
    }
    free(orem);
    free(oadd);
    free(adds);
    free(rems);
    return rc;
}

/* ---- the step ---- */

int plan_grow_bounds(const moore_graph *g, int threads, double *lower, double *upper,
                     moore_error *err)
{
    int32_t *comp = malloc((size_t)(g->n ? g->n : 1) * sizeof *comp);
    int32_t count = 0, served = -1, keep = 0;
    moore_graph *sub = NULL;
    moore_builder *b = NULL;
    *lower = *upper = 0;
    int rc = comp ? moore_components(g, comp, &count, err)
                  : moore_error_set(err, MOORE_ENOMEM, "out of memory");
    for (int32_t v = 0; !rc && v < g->n; v++)
        if (g->endpoints[v] > 0) {
            if (served >= 0 && comp[v] != served)
                goto done; /* servers apart: nothing flows between them */
            served = comp[v];
        }
    if (rc || served < 0)
        goto done;
    int32_t *local = comp; /* reused in place: v's id in the part served, or −1 */
    for (int32_t v = 0; v < g->n; v++)
        local[v] = comp[v] == served ? keep++ : -1;
    rc = moore_builder_new(keep, g->m, &b, err);
    for (int32_t u = 0; !rc && u < g->n; u++)
        for (int64_t e = g->offs[u]; !rc && local[u] >= 0 && e < g->offs[u + 1]; e++)
            if (g->adj[e] > u)
                rc = moore_builder_add_link(b, local[u], local[g->adj[e]], err);
    if (!rc) {
        rc = moore_builder_finish(b, &sub, err);
        b = NULL;
    }
    for (int32_t v = 0; !rc && v < g->n; v++)
        if (local[v] >= 0)
            sub->endpoints[local[v]] = g->endpoints[v];
    if (!rc) {
        double tub = INFINITY;
        rc = plan_bound_split(sub, threads, lower, &tub, err);
        double cut = plan_bound_cut(sub);
        *upper = cut < tub ? cut : tub;
    }
done:
    moore_builder_free(b);
    moore_graph_free(sub);
    free(comp);
    return rc;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void counts_of(const moore_layout *l, const moore_graph *g, moore_grow_step *st)
{
    st->switches = g->n;
    st->racks = l->racks;
    st->endpoints = moore_graph_endpoints_total(g);
    st->links = g->m;
    st->cables = l->cables;
}

/* The first step: everything is bought and every cable plugged. */
static void first_step(const moore_grow_options *o, const plan_grow_config *a,
                       const moore_layout *l, moore_grow_step *st)
{
    st->cables_added = st->cables_bought = st->cables_touched = l->cables;
    st->switches_added = a->g->n;
    st->racks_added = l->racks;
    st->optics_bought = l->transceivers;
    st->cost_equipment = l->cost_total;
    st->cost_labour = o->labour * (double)l->cables;
    st->cost_headroom = a->headroom;
}

int plan_grow_measure(const moore_grow_options *o, const plan_grow_config *before,
                      const plan_grow_config *after, moore_grow_step *st, int bounds,
                      moore_error *err)
{
    double t0 = now();
    moore_layout la, lb;
    diff d;
    memset(&la, 0, sizeof la);
    memset(&lb, 0, sizeof lb);
    memset(&d, 0, sizeof d);
    int rc = moore_layout_compute(after->g, &o->model, NULL, &la, err);
    if (!rc)
        counts_of(&la, after->g, st);
    if (!rc && !before)
        first_step(o, after, &la, st);
    if (!rc && before)
        rc = moore_layout_compute(before->g, &o->model, NULL, &lb, err);
    if (!rc && before)
        rc = diff_make(before, after, &d, err);
    priced p = { &o->model, &lb, &la };
    if (!rc && before)
        rc = match_moves(&p, &d, err);
    if (!rc && before) {
        int64_t k = la.multiplicity > 0 ? la.multiplicity : 1;
        st->cables_kept = d.kept * k;
        st->cables_added = d.added * k;
        st->cables_removed = d.removed * k;
        st->cables_moved = d.moved * k;
        st->cables_bought = (d.added - d.moved) * k;
        st->cables_touched = (d.added + d.removed - d.moved) * k;
        st->switches_added = after->g->n - before->g->n > 0 ? after->g->n - before->g->n : 0;
        st->racks_added = la.racks - lb.racks > 0 ? la.racks - lb.racks : 0;
        step_cost(o, &p, &d, st);
    }
    st->cost_step = st->cost_equipment + st->cost_labour;
    if (!rc && bounds)
        rc = plan_grow_bounds(after->g, o->threads, &st->lower, &st->upper, err);
    st->during_lower = st->during_upper = NAN;
    if (!rc && bounds && before)
        rc = during(o, before, &d, st, err);
    st->proven = !rc && st->lower >= o->bandwidth;
    diff_clear(&d);
    moore_layout_clear(&la);
    moore_layout_clear(&lb);
    st->seconds = now() - t0;
    return rc;
}
