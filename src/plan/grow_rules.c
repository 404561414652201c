/* grow_rules.c — how each family grows from one step's servers to the next
 * (docs/growth.md, "Family rules"), as a sequence of configurations in one
 * stable id space (grow_internal.h).
 *
 *  jellyfish  the degree d and servers per switch p of the configuration the
 *             planner proves for the last step; the first step is the
 *             smallest proven jellyfish:n=,d=,p=; each later step adds
 *             switches by Jellyfish's expansion (a new switch of degree d
 *             takes d/2 links u–v and becomes u–w–v), more while unproven.
 *  xpander    the same d and p; the first step is the smallest proven
 *             xpander:d=,k=,p=; a later step 2-lifts (random signing) while
 *             the switches must at least double, then adds one switch to every
 *             super-node (k → k+1: for every two super-nodes one random link
 *             a–b between them becomes a–b′ and a′–b with the new switches),
 *             more while unproven. Super-nodes are never added: the meta-graph
 *             K_{d+1} fixes their number.
 *  clos       built to grow: the cores of the Clos of the last step (whole
 *             pods of R/2 leaves and R/2 spines, 3 tiers) are bought at the
 *             first, and every step builds the leaves it needs and the spines
 *             of their pods; a pod's cables go to core ports kept free for
 *             it, so growing moves no cable. The cores bought ahead of need
 *             are the headroom, priced at the first step.
 *  dragonfly  wired for the last step's group count: each step builds the
 *             groups it needs, with the global links between them that the
 *             final arrangement has; growing plugs new groups into free ports.
 *  others     rebuilt at every step to the planner's smallest proven
 *             configuration; the same switch ids are reused, so what stays
 *             in place is counted as kept and everything else as rewired.
 * The first step of every rule is proven as the planner proves (shortest-path
 * split, docs/compare.md); clos and dragonfly steps are then what they are. */
#include "grow_internal.h"
#include "plan_internal.h"
#include "moore/jellyfish.h"
#include "moore/lift.h"
#include "moore/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PICK_TRIES 8    /* configurations built per pick, as compare tries */
#define GROW_TRIES 8    /* extra growth rounds while a step is unproven */

typedef struct rule_ctx {
    const moore_grow_options *o;
    const moore_family *fam;
    char *note;
    size_t note_len;
} rule_ctx;

static int proven(const rule_ctx *c, const moore_graph *g, int *ok, moore_error *err)
{
    double lower, upper;
    int rc = plan_grow_bounds(g, c->o->threads, &lower, &upper, err);
    *ok = !rc && lower >= c->o->bandwidth && moore_graph_endpoints_total(g) > 0;
    return rc;
}

/* The smallest configuration of the family reaching S servers proven at the
 * bandwidth (trying PICK_TRIES in the planner's order), or *out = NULL. */
static int pick(const rule_ctx *c, int64_t S, char *spec, moore_graph **out, moore_error *err)
{
    moore_plan plan;
    const moore_grow_options *o = c->o;
    int rc = o->bandwidth > 0
                 ? moore_plan_search(o->radix, S, c->fam->name, o->bandwidth, &plan, err)
                 : moore_plan_make(o->radix, S, c->fam->name, &plan, err);
    *out = NULL;
    if (rc == MOORE_EINVAL) { /* the family cannot reach S at this radix: a note, not an error */
        snprintf(c->note, c->note_len, "%s", err->msg);
        moore_error_clear(err);
        return MOORE_OK;
    }
    if (rc)
        return rc;
    int tries = 0, too_big = 0;
    for (int64_t i = 0; !rc && !*out && i < plan.count && tries < PICK_TRIES; i++) {
        const moore_plan_row *r = &plan.rows[i];
        if (r->family != c->fam || r->counts.endpoints < S || r->ruled_out ||
            (o->bandwidth <= 0 && !r->chosen))
            continue;
        if (r->counts.switches > MOORE_GROW_MAX_SWITCHES) {
            too_big = 1;
            continue;
        }
        moore_graph *g = NULL;
        moore_error sub;
        if (moore_spec_build(r->spec, &g, &sub))
            continue;
        int ok = 0;
        tries++;
        rc = proven(c, g, &ok, err);
        if (!rc && ok) {
            snprintf(spec, MOORE_GROW_TOPOLOGY_MAX, "%s", r->spec);
            *out = g; /* the loop ends here with rc clear: handed over on success */
            g = NULL;
        }
        moore_graph_free(g);
    }
    if (!rc && !*out && too_big && !tries)
        snprintf(c->note, c->note_len, "%s needs more than %d switches for %lld servers",
                 c->fam->name, MOORE_GROW_MAX_SWITCHES, (long long)S);
    else if (!rc && !*out && o->bandwidth <= 0)
        moore_plan_unreached(&plan, c->fam, c->note, c->note_len);
    else if (!rc && !*out)
        snprintf(c->note, c->note_len,
                 tries ? "no %s configuration with radix %d reaching %lld servers is proven at "
                         "bandwidth %g"
                       : "no %s configuration with radix %d reaching %lld servers can reach "
                         "bandwidth %g by its closed-form bounds",
                 c->fam->name, (int)o->radix, (long long)S, o->bandwidth);
    moore_plan_clear(&plan);
    return rc;
}

static int32_t servers_per_switch(const moore_graph *g)
{
    int32_t p = 0;
    for (int32_t v = 0; v < g->n; v++)
        p = g->endpoints[v] > p ? g->endpoints[v] : p;
    return p;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* ---- rebuild ---- */

/* cand[j]: the planner's smallest proven configuration for step j (the one
 * of step j−1 when it already reaches step j); *count of them before the
 * first step the family cannot reach. */
static int rebuild_candidates(const rule_ctx *c, plan_grow_config *cand, int *count,
                              moore_error *err)
{
    int rc = MOORE_OK;
    *count = 0;
    for (int j = 0; !rc && j < c->o->step_count; j++) {
        char spec[MOORE_GROW_TOPOLOGY_MAX];
        moore_graph *g = NULL;
        if (j > 0 && moore_graph_endpoints_total(cand[j - 1].g) >= c->o->steps[j]) {
            rc = moore_graph_copy(cand[j - 1].g, &g, err);
            snprintf(spec, sizeof spec, "%s", cand[j - 1].topology);
        } else
            rc = pick(c, c->o->steps[j], spec, &g, err);
        if (rc || !g)
            break;
        rc = plan_grow_config_set(&cand[j], g, spec, err);
        *count = j + 1;
    }
    return rc;
}

/* The cost of going from candidate b (−1: nothing) to candidate a. */
static int rebuild_cost(const rule_ctx *c, const plan_grow_config *cand, int b, int a,
                        double *cost, moore_error *err)
{
    moore_grow_step st;
    memset(&st, 0, sizeof st);
    if (b == a) {
        *cost = 0;
        return MOORE_OK;
    }
    int rc = plan_grow_measure(c->o, b >= 0 ? &cand[b] : NULL, &cand[a], &st, 0, err);
    *cost = st.cost_step;
    return rc;
}

/* The cheapest sequence of rebuilds: step k may use any candidate j >= k
 * (it reaches step k), never a smaller one than the step before; a dynamic
 * program over (step, candidate) on the costs of every pair of candidates. */
static int rule_rebuild(const rule_ctx *c, plan_grow_config *cfg, int *reached, moore_error *err)
{
    enum { K = MOORE_GROW_MAX_STEPS };
    plan_grow_config cand[K];
    static const double NONE = 1e300;
    double best[K][K], step_cost[K + 1][K];
    int from[K][K], n = 0;
    memset(cand, 0, sizeof cand);
    int rc = rebuild_candidates(c, cand, &n, err);
    *reached = !rc && n == c->o->step_count;
    for (int b = -1; !rc && b < n; b++)
        for (int a = b < 0 ? 0 : b; !rc && a < n; a++)
            rc = rebuild_cost(c, cand, b, a, &step_cost[b + 1][a], err);
    for (int k = 0; !rc && k < n; k++)
        for (int j = 0; j < n; j++) {
            best[k][j] = NONE;
            from[k][j] = -1;
            for (int i = 0; j >= k && i <= j && (k > 0 || i == 0); i++) {
                double v = k == 0 ? step_cost[0][j] : best[k - 1][i] + step_cost[i + 1][j];
                if (k > 0 && best[k - 1][i] >= NONE)
                    continue;
                if (v < best[k][j]) {
                    best[k][j] = v;
                    from[k][j] = i;
                }
            }
        }
    int j = -1;
    for (int i = 0; !rc && n > 0 && i < n; i++)
        if (best[n - 1][i] < NONE && (j < 0 || best[n - 1][i] < best[n - 1][j]))
            j = i;
    for (int k = n - 1; !rc && k >= 0 && j >= 0; j = from[k][j], k--) {
        moore_graph *g = NULL;
        rc = moore_graph_copy(cand[j].g, &g, err);
        if (!rc)
            rc = plan_grow_config_set(&cfg[k], g, cand[j].topology, err);
    }
    for (int i = 0; i < K; i++)
        plan_grow_config_clear(&cand[i]);
    return rc;
}

/* ---- jellyfish ---- */

/* The smallest proven jellyfish:n=,d=,p= with n ≥ need. */
static int jellyfish_first(const rule_ctx *c, int64_t need, int32_t d, int32_t p,
                           plan_grow_config *out, moore_error *err)
{
    int64_t n = need > d + 1 ? need : d + 1;
    int rc = MOORE_OK;
    for (int t = 0; !rc && t < GROW_TRIES; t++, n += ceil_div(n, 50)) {
        char spec[MOORE_GROW_TOPOLOGY_MAX];
        moore_graph *g = NULL;
        int ok = 0;
        n += (n * d) % 2; /* n·d ports pair up */
        snprintf(spec, sizeof spec, "jellyfish:n=%lld,d=%d,p=%d,seed=%llu", (long long)n,
                 (int)d, (int)p, (unsigned long long)c->o->seed);
        rc = moore_spec_build(spec, &g, err);
        if (!rc)
            rc = proven(c, g, &ok, err);
        if (!rc && ok)
            return plan_grow_config_set(out, g, spec, err);
        moore_graph_free(g);
    }
    if (!rc)
        snprintf(c->note, c->note_len, "jellyfish d=%d p=%d: no first step proven", (int)d,
                 (int)p);
    return rc;
}

/* prev expanded to at least need switches, more while unproven. */
static int jellyfish_next(const rule_ctx *c, const plan_grow_config *prev, int64_t need,
                          int32_t d, int step, plan_grow_config *out, moore_error *err)
{
    int64_t add = need - prev->g->n;
    int rc = MOORE_OK, found = 0;
    if (add <= 0) {
        moore_graph *g = NULL;
        rc = moore_graph_copy(prev->g, &g, err);
        if (!rc)
            rc = plan_grow_config_set(out, g, prev->topology, err); /* takes g */
        return rc; /* nothing held: g is NULL or handed over */
    }
    for (int t = 0; !rc && !found && t < GROW_TRIES; t++, add += ceil_div(need, 50) * t) {
        moore_graph *g = NULL;
        int ok = 0;
        rc = moore_jellyfish_expand(prev->g, (int32_t)add, d, c->o->seed + (uint64_t)step, &g,
                                    err);
        if (!rc)
            rc = proven(c, g, &ok, err);
        if (!rc && ok) {
            const char *spec = moore_graph_spec(g);
            rc = plan_grow_config_set(out, g, spec ? spec : "expand", err); /* takes g */
            g = NULL;
            found = 1;
        }
        moore_graph_free(g);
    }
    if (!rc && !found)
        snprintf(c->note, c->note_len, "jellyfish: step %d not proven after expansion", step + 1);
    return rc;
}

static int rule_jellyfish(const rule_ctx *c, plan_grow_config *cfg, int *reached,
                          moore_error *err)
{
    const moore_grow_options *o = c->o;
    char spec[MOORE_GROW_TOPOLOGY_MAX];
    moore_graph *last = NULL;
    int rc = pick(c, o->steps[o->step_count - 1], spec, &last, err);
    if (rc || !last) {
        *reached = 0;
        return rc;
    }
    int32_t d = moore_graph_degree_max(last), p = servers_per_switch(last);
    moore_graph_free(last);
    rc = jellyfish_first(c, ceil_div(o->steps[0], p), d, p, &cfg[0], err);
    for (int k = 1; !rc && cfg[k - 1].g && k < o->step_count; k++)
        rc = jellyfish_next(c, &cfg[k - 1], ceil_div(o->steps[k], p), d, k, &cfg[k], err);
    for (int k = 0; k < o->step_count; k++)
        *reached &= cfg[k].g != NULL;
    return rc;
}

/* ---- xpander ---- */

/* topo = prev's description with one more `op`: "SPEC +lift +widen x3". */
static void describe(char *topo, const char *prev, const char *op)
{
    char last[16];
    int times = 1, used = 0;
    const char *tail = strrchr(prev, '+');
    size_t keep = strlen(prev);
    if (tail && sscanf(tail, "+%15[a-z]%n", last, &used) == 1 && strcmp(last, op) == 0) {
        if (tail[used] == 0 || sscanf(tail + used, " x%d", &times) == 1)
            keep = (size_t)(tail - prev), times++;
        else
            times = 1;
    }
    if (times > 1)
        snprintf(topo, MOORE_GROW_TOPOLOGY_MAX, "%.*s+%s x%d", (int)keep, prev, op, times);
    else
        snprintf(topo, MOORE_GROW_TOPOLOGY_MAX, "%.400s +%s", prev, op);
}

/* The 2-lift of prev by a seeded random signing (copy of v is v + n). */
static int xpander_lift(const plan_grow_config *prev, moore_rng *rng, int32_t **group,
                        plan_grow_config *out, moore_error *err)
{
    const moore_graph *g = prev->g;
    int8_t *signs = malloc((size_t)(g->m ? g->m : 1));
    int32_t *grown = realloc(*group, (size_t)(2 * g->n) * sizeof **group);
    moore_graph *h = NULL;
    int rc = signs && grown ? MOORE_OK : moore_error_set(err, MOORE_ENOMEM, "out of memory");
    if (grown)
        *group = grown; /* the caller's, grown even when signs failed */
    if (!rc) {
        for (int32_t v = 0; v < g->n; v++)
            grown[g->n + v] = grown[v];
        for (int64_t i = 0; i < g->m; i++)
            signs[i] = moore_rng_below(rng, 2) ? 1 : -1;
        rc = moore_lift_build(g, signs, &h, err);
    }
    if (!rc) {
        char topo[MOORE_GROW_TOPOLOGY_MAX];
        describe(topo, prev->topology, "lift");
        rc = plan_grow_config_set(out, h, topo, err); /* takes h, also on failure */
        h = NULL;
    }
    moore_graph_free(h);
    free(signs);
    return rc;
}

/* One new switch in every one of the D super-nodes: for every two linked
 * super-nodes i < j a random link a–b between them (a in i) becomes a–w_j and
 * w_i–b, so each matching between super-nodes stays perfect. */
static int xpander_widen(const plan_grow_config *prev, int32_t D, moore_rng *rng,
                         int32_t **group, plan_grow_config *out, moore_error *err)
{
    const moore_graph *g = prev->g;
    int32_t n = g->n;
    int64_t *chosen = malloc((size_t)D * (size_t)D * sizeof *chosen);
    int64_t *seen = calloc((size_t)D * (size_t)D, sizeof *seen);
    int32_t *grown = realloc(*group, (size_t)(n + D) * sizeof **group);
    int32_t *ep = malloc((size_t)(n + D) * sizeof *ep);
    moore_builder *b = NULL;
    moore_graph *h = NULL;
    int rc = chosen && seen && grown && ep ? MOORE_OK
                                           : moore_error_set(err, MOORE_ENOMEM, "out of memory");
    if (grown)
        *group = grown;
    /* reservoir-sample one arc u→v (u < v) per super-node pair */
    for (int32_t u = 0; !rc && u < n; u++)
        for (int64_t e = g->offs[u]; e < g->offs[u + 1]; e++) {
            int32_t v = g->adj[e], gu = grown[u], gv = grown[v];
            if (v < u || gu == gv)
                continue;
            int64_t pair = gu < gv ? (int64_t)gu * D + gv : (int64_t)gv * D + gu;
            if (moore_rng_below(rng, (uint64_t)++seen[pair]) == 0)
                chosen[pair] = e;
        }
    if (!rc)
        rc = moore_builder_new(n + D, g->m + (int64_t)D * D, &b, err);
    for (int32_t u = 0; !rc && u < n; u++)
        for (int64_t e = g->offs[u]; !rc && e < g->offs[u + 1]; e++) {
            int32_t v = g->adj[e], gu = grown[u], gv = grown[v];
            if (v < u)
                continue;
            int64_t pair = gu < gv ? (int64_t)gu * D + gv : (int64_t)gv * D + gu;
            if (gu == gv || chosen[pair] != e)
                rc = moore_builder_add_link(b, u, v, err);
            else {
                rc = moore_builder_add_link(b, u, n + gv, err); /* a–w_j */
                if (!rc)
                    rc = moore_builder_add_link(b, n + gu, v, err); /* w_i–b */
            }
        }
    if (!rc) {
        rc = moore_builder_finish(b, &h, err);
        b = NULL;
    }
    int32_t p = rc ? 0 : servers_per_switch(g);
    for (int32_t v = 0; !rc && v < n + D; v++) {
        ep[v] = v < n ? g->endpoints[v] : p;
        if (v >= n)
            grown[v] = v - n;
    }
    if (!rc)
        rc = moore_graph_set_endpoints(h, ep, err);
    char topo[MOORE_GROW_TOPOLOGY_MAX];
    describe(topo, prev->topology, "widen");
    if (!rc) {
        rc = plan_grow_config_set(out, h, topo, err);
        h = NULL;
    }
    moore_builder_free(b);
    moore_graph_free(h);
    free(chosen);
    free(seen);
    free(ep);
    return rc;
}

/* prev grown to at least need switches: a 2-lift whenever the widenings
 * that reach need would add at least as many switches (a lift rewires about
 * half the links once, widening d(d+1)/2 links per d+1 switches), else
 * widening; more widening while unproven. */
static int xpander_next(const rule_ctx *c, const plan_grow_config *prev, int64_t need,
                        int32_t D, int step, int32_t **group, plan_grow_config *out,
                        moore_error *err)
{
    moore_rng rng;
    moore_rng_seed(&rng, c->o->seed + (uint64_t)step);
    plan_grow_config cur, next;
    memset(&cur, 0, sizeof cur);
    int rc = moore_graph_copy(prev->g, &cur.g, err);
    if (!rc)
        rc = plan_grow_config_set(&cur, cur.g, prev->topology, err);
    int extra = 0, ok = cur.g && cur.g->n >= need;
    while (!rc && (cur.g->n < need || !ok) && extra <= GROW_TRIES) {
        memset(&next, 0, sizeof next);
        int64_t n = cur.g->n, widened = n + D * ceil_div(need > n ? need - n : 1, D);
        if (widened >= 2 * n) /* widening would add as many switches as a lift */
            rc = xpander_lift(&cur, &rng, group, &next, err);
        else
            rc = xpander_widen(&cur, D, &rng, group, &next, err);
        plan_grow_config_clear(&cur);
        cur = next;
        extra += cur.g && cur.g->n >= need;
        if (!rc && cur.g->n >= need)
            rc = proven(c, cur.g, &ok, err);
    }
    if (!rc && ok) {
        *out = cur;
        return MOORE_OK;
    }
    plan_grow_config_clear(&cur);
    if (!rc)
        snprintf(c->note, c->note_len, "xpander: step %d not proven after growing", step + 1);
    return rc;
}

static int rule_xpander(const rule_ctx *c, plan_grow_config *cfg, int *reached, moore_error *err)
{
    const moore_grow_options *o = c->o;
    char spec[MOORE_GROW_TOPOLOGY_MAX];
    moore_graph *last = NULL;
    int32_t *group = NULL;
    int rc = pick(c, o->steps[o->step_count - 1], spec, &last, err);
    if (rc || !last) {
        *reached = 0;
        return rc;
    }
    int32_t d = moore_graph_degree_max(last), p = servers_per_switch(last);
    moore_graph_free(last);
    /* the first step: the smallest proven k */
    for (int64_t k = ceil_div(ceil_div(o->steps[0], p), d + 1), t = 0;
         !rc && !cfg[0].g && t < GROW_TRIES; k++, t++) {
        moore_graph *g = NULL;
        int ok = 0;
        snprintf(spec, sizeof spec, "xpander:d=%d,k=%lld,p=%d,seed=%llu", (int)d, (long long)k,
                 (int)p, (unsigned long long)o->seed);
        rc = moore_spec_build(spec, &g, err);
        if (!rc)
            rc = proven(c, g, &ok, err);
        if (!rc && ok) {
            rc = plan_grow_config_set(&cfg[0], g, spec, err);
            group = rc ? NULL : malloc((size_t)g->n * sizeof *group);
            for (int32_t v = 0; group && v < g->n; v++)
                group[v] = (int32_t)(v / k); /* super-node i = i·k … i·k+k−1 */
            if (!rc && !group)
                rc = moore_error_set(err, MOORE_ENOMEM, "out of memory");
        } else
            moore_graph_free(g);
    }
    for (int k = 1; !rc && cfg[k - 1].g && k < o->step_count; k++)
        rc = xpander_next(c, &cfg[k - 1], ceil_div(o->steps[k], p), d + 1, k, &group, &cfg[k],
                          err);
    free(group);
    for (int k = 0; k < o->step_count; k++)
        *reached &= cfg[k].g != NULL;
    if (!rc && !cfg[0].g)
        snprintf(c->note, c->note_len, "xpander d=%d p=%d: no first step proven", (int)d, (int)p);
    return rc;
}

/* ---- parts of a finished design: clos and dragonfly ---- */

/* The switches of full with keep[v] set, their links, servers and labels,
 * ids into full; recorded as `family` with full's parameters so that the
 * layout places them by pod or group. */
static int part_of(const moore_graph *full, const char *keep, plan_grow_config *out,
                   moore_error *err)
{
    int32_t *local = malloc((size_t)full->n * sizeof *local), n = 0;
    moore_builder *b = NULL;
    moore_graph *g = NULL;
    int rc = local ? MOORE_OK : moore_error_set(err, MOORE_ENOMEM, "out of memory");
    for (int32_t v = 0; !rc && v < full->n; v++)
        local[v] = keep[v] ? n++ : -1;
    if (!rc)
        rc = moore_builder_new(n, full->m, &b, err);
    for (int32_t u = 0; !rc && u < full->n; u++)
        for (int64_t e = full->offs[u]; !rc && local[u] >= 0 && e < full->offs[u + 1]; e++)
            if (full->adj[e] > u && local[full->adj[e]] >= 0)
                rc = moore_builder_add_link(b, local[u], local[full->adj[e]], err);
    if (!rc) {
        rc = moore_builder_finish(b, &g, err);
        b = NULL;
    }
    for (int32_t v = 0; !rc && v < full->n; v++)
        if (local[v] >= 0) {
            g->endpoints[local[v]] = full->endpoints[v];
            if (full->labels)
                rc = moore_graph_set_label(g, local[v], full->labels[v], err);
        }
    if (!rc)
        rc = moore_graph_set_origin(g, full->family, full->params, err);
    if (!rc)
        rc = plan_grow_config_set(out, g, moore_graph_spec(full), err);
    else
        moore_graph_free(g);
    for (int32_t v = 0; !rc && v < full->n; v++)
        if (local[v] >= 0)
            out->uid[local[v]] = v;
    moore_builder_free(b);
    free(local);
    return rc;
}

/* The finished design of the clos path: the last step's whole pods at
 * oversubscription O, cores balanced over them; *down servers a leaf. NULL
 * (and a note) when the pods would exceed the radix. */
static int clos_design(const rule_ctx *c, int64_t O, moore_graph **full, int64_t *down,
                       moore_error *err)
{
    const moore_grow_options *o = c->o;
    int64_t R = o->radix, half = R / 2;
    *full = NULL;
    *down = R * O / (O + 1);
    if (R % (O + 1)) /* the family splits a leaf's ports exactly */
        return MOORE_OK;
    int64_t pods_max = *down > 0 ? ceil_div(ceil_div(o->steps[o->step_count - 1], *down), half)
                                 : R + 1;
    if (R % 2 || pods_max > R) {
        snprintf(c->note, c->note_len,
                 "a clos of radix %lld at oversubscription %lld grows by pods up to %lld "
                 "servers (%lld pods)",
                 (long long)R, (long long)O, (long long)(R * half * *down), (long long)R);
        return MOORE_OK;
    }
    char spec[MOORE_GROW_TOPOLOGY_MAX];
    snprintf(spec, sizeof spec, "clos:radix=%lld,pods=%lld,tiers=3,oversub=%lld,cores=balanced",
             (long long)R, (long long)pods_max, (long long)O);
    return moore_spec_build(spec, full, err);
}

/* The clos built to grow: the most oversubscription (1/B rounded down, 1 at
 * full or any bandwidth) whose finished design is proven, then each step's
 * leaves and their pods' spines, with every core from the first step. */
static int rule_clos(const rule_ctx *c, plan_grow_config *cfg, int *reached, moore_error *err)
{
    const moore_grow_options *o = c->o;
    int64_t R = o->radix, half = R / 2, down = 0;
    int64_t O = o->bandwidth > 0 && o->bandwidth < 1 ? (int64_t)(1.0 / o->bandwidth) : 1;
    moore_graph *full = NULL;
    char *keep = NULL;
    int rc = MOORE_OK, ok = 0;
    for (; !rc && O >= 1 && !ok; O--) {
        moore_graph_free(full);
        rc = clos_design(c, O, &full, &down, err);
        if (!rc && full)
            rc = proven(c, full, &ok, err);
        ok |= o->bandwidth <= 0 && full;
    }
    if (!rc && !ok)
        *reached = 0; /* no design proven: nothing more to build */
    else
        c->note[0] = 0;
    if (!rc && ok && !(keep = malloc((size_t)full->n)))
        rc = moore_error_set(err, MOORE_ENOMEM, "out of memory");
    int64_t up = R - down; /* a leaf's uplinks: the spines of its pod */
    for (int k = 0; !rc && ok && k < o->step_count; k++) {
        int64_t leaves = ceil_div(o->steps[k], down), pods = ceil_div(leaves, half), cores = 0;
        for (int32_t v = 0; v < full->n; v++) {
            int pod = -1, i = -1;
            const char *l = full->labels ? full->labels[v] : "";
            if (sscanf(l, "leaf%d.%d", &pod, &i) == 2)
                keep[v] = pod * half + i < leaves;
            else if (sscanf(l, "spine%d.%d", &pod, &i) == 2)
                keep[v] = pod < pods;
            else
                keep[v] = 1, cores++;
        }
        rc = part_of(full, keep, &cfg[k], err);
        if (!rc)
            snprintf(cfg[k].built, sizeof cfg[k].built, "%lld leaves, %lld pods, %lld cores",
                     (long long)leaves, (long long)pods, (long long)cores);
        if (!rc && k == 0) {
            /* the pods' spines have up·R/2 core links, R to a core */
            int64_t need = ceil_div(pods * up * half, R);
            cfg[0].headroom = (double)(cores - need) *
                              (o->model.switch_cost + o->model.switch_port_cost * (double)R);
        }
    }
    moore_graph_free(full);
    free(keep);
    return rc;
}

/* The dragonfly the planner proves for the last step, group by group. */
static int rule_dragonfly(const rule_ctx *c, plan_grow_config *cfg, int *reached,
                          moore_error *err)
{
    const moore_grow_options *o = c->o;
    char spec[MOORE_GROW_TOPOLOGY_MAX];
    moore_graph *full = NULL;
    int rc = pick(c, o->steps[o->step_count - 1], spec, &full, err);
    if (rc || !full) {
        *reached = 0;
        return rc;
    }
    /* group size a: the switches of group 0, labelled "G0.i" */
    int64_t a = 0;
    for (int32_t v = 0; full->labels && v < full->n; v++)
        a += strncmp(full->labels[v], "G0.", 3) == 0;
    int64_t p = servers_per_switch(full), groups_max = a ? full->n / a : 0;
    char *keep = malloc((size_t)full->n);
    if (!keep || !a)
        rc = moore_error_set(err, keep ? MOORE_EINTERNAL : MOORE_ENOMEM,
                             keep ? "dragonfly labels without groups" : "out of memory");
    for (int k = 0; !rc && k < o->step_count; k++) {
        int64_t groups = ceil_div(o->steps[k], a * p);
        groups = groups < groups_max ? groups : groups_max;
        for (int32_t v = 0; v < full->n; v++)
            keep[v] = v < groups * a;
        rc = part_of(full, keep, &cfg[k], err);
        if (!rc)
            snprintf(cfg[k].built, sizeof cfg[k].built, "%lld of %lld groups", (long long)groups,
                     (long long)groups_max);
    }
    moore_graph_free(full);
    free(keep);
    return rc;
}

int plan_grow_rule(const moore_grow_options *o, const moore_family *fam, plan_grow_config *cfg,
                   const char **rule, int *reached, char *note, size_t note_len,
                   moore_error *err)
{
    rule_ctx c = { o, fam, note, note_len };
    *reached = 1;
    note[0] = 0;
    if (strcmp(fam->name, "jellyfish") == 0) {
        *rule = "expand";
        return rule_jellyfish(&c, cfg, reached, err);
    }
    if (strcmp(fam->name, "xpander") == 0) {
        *rule = "lift";
        return rule_xpander(&c, cfg, reached, err);
    }
    if (strcmp(fam->name, "clos") == 0) {
        *rule = "pods";
        return rule_clos(&c, cfg, reached, err);
    }
    if (strcmp(fam->name, "dragonfly") == 0) {
        *rule = "groups";
        return rule_dragonfly(&c, cfg, reached, err);
    }
    *rule = "rebuild";
    return rule_rebuild(&c, cfg, reached, err);
}
