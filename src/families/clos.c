/* clos.c — the folded Clos that datacenters build from switches of one radix
 * R for any server count (docs/families.md): the full-bandwidth baseline `moore
 * compare` measures every other family against.
 *
 * A leaf gives down = R·O/(O+1) ports to servers and up = R/(O+1) to spines
 * (oversubscription O:1 at the leaf). Two tiers: L leaves, each linked to all
 * `up` spines (a complete bipartite graph, L ≤ R). T ≥ 3 tiers: blocks inside
 * blocks, as in a k-ary fat-tree. A pod (level-2 block) is R/2 leaves and `up`
 * spines; a level-k block (3 ≤ k < T) is R/2 level-(k−1) blocks and
 * up·(R/2)^(k−2) tier-k switches, switch (j, i) linked to tier-(k−1) switch
 * j of every sub-block, so every switch below the top gives R/2 ports down
 * and R/2 up (the last block of a level may be partial; its switches keep
 * their R/2 uplinks). The uplinks of tier T−1 are dealt to cores in the order
 * (uplink t, row j, block a) with the block varying fastest, core_ports =
 * min(R, tier-(T−1) switches) consecutive ones per core, so a core never sees
 * one switch twice and touches every top block as evenly as R allows
 * (cores=packed, the default). When R is not a multiple of the block count
 * that leaves some cores 3 links to a block and others 2, which costs uniform
 * throughput a few percent; cores=balanced gives every core m = ⌊R/blocks⌋
 * whole rounds over the blocks (m·blocks ports used), so all blocks are alike
 * and the even up-down split carries any traffic the servers can send at full
 * rate at 1:1 (docs/throughput.md, "Clos beyond 3 tiers"). Servers fill the
 * leaves in order: endpoints = N exactly, the last leaf partial. Closed forms
 * and a hand-checkable example are in docs/families.md. Why more than 3 tiers:
 * radix 48 stops at 27,648 servers with 3, and `moore compare` needs a
 * baseline at 50,000 or 100,000.
 *
 * Numbering: tier by tier (leaves pod by pod, then spines pod by pod, then
 * each middle tier block by block, then cores); labels "leaf<pod>.<i>",
 * "spine<pod>.<i>", "agg<block>.<i>" (tier 3 of 4 or more), "tier<k>_<block>.<i>"
 * (tiers 4 … T−1), "core<grp>.<i>" (groups of R/2 cores), the convention of
 * fattree.c, so layout can place pods by label. */
#include "families.h"

#include <stdio.h>
#include <string.h>

#define CLOS_MAX_TIERS 6

const moore_param_info fam_clos_params[] = {
    { "radix", "", "switch radix R (every switch has R ports)" },
    { "endpoints", "-", "servers N (or pods=)" },
    { "pods", "-", "full pods instead of endpoints= (2 tiers: 1)" },
    { "tiers", "-", "2 to 6 (default: the fewest that reach the servers)" },
    { "oversub", "1", "leaf oversubscription O:1 (R*O/(O+1) ports down, R/(O+1) up)" },
    { "cores", "packed", "3 or more tiers: packed (every core port used) or balanced (each "
      "core the same number of links to every top block)" },
    { NULL, NULL, NULL }
};

typedef struct clos_shape {
    int64_t radix, tiers, oversub, down, up;
    int64_t endpoints, leaves, pods, leaves_per_pod, spines, uplinks, core_ports, cores;
    int balanced;
    /* T ≥ 3, per tier k (1 = leaves, tiers = cores): blocks[k] level-k blocks
     * (blocks[1] = leaves), rows[k] switches per level-k block, sw[k] the
     * tier's switches, first[k] its first switch id */
    int64_t blocks[CLOS_MAX_TIERS + 1], rows[CLOS_MAX_TIERS + 1];
    int64_t sw[CLOS_MAX_TIERS + 1], first[CLOS_MAX_TIERS + 2];
} clos_shape;

/* Servers the shape can hold with t tiers: R·down with 2, R·(R/2)^(t−2)·down
 * with more (R³/4 at 3 tiers and 1:1, R⁴/8 at 4); saturates at 2^62. */
static int64_t clos_capacity(int64_t radix, int64_t down, int64_t tiers)
{
    int64_t cap = radix * down;
    for (int64_t t = 3; t <= tiers; t++)
        cap = cap > ((int64_t)1 << 62) / (radix / 2 > 0 ? radix / 2 : 1) ? (int64_t)1 << 62
                                                                          : cap * (radix / 2);
    return cap;
}

static int clos_read_keys(moore_params *pp, clos_shape *s, int64_t *pods,
                          moore_error *err)
{
    int rc = moore_params_int(pp, "radix", -1, 1, 1 << 16, &s->radix, err);
    if (!rc) rc = moore_params_int(pp, "oversub", 1, 1, 1 << 16, &s->oversub, err);
    if (!rc) rc = moore_params_int(pp, "tiers", 0, 2, CLOS_MAX_TIERS, &s->tiers, err);
    if (!rc) rc = moore_params_int(pp, "endpoints", 0, 1, (int64_t)1 << 40, &s->endpoints, err);
    if (!rc) rc = moore_params_int(pp, "pods", 0, 1, 1 << 16, pods, err);
    if (rc)
        return rc;
    if (s->radix < 0)
        return moore_error_set(err, MOORE_EINVAL, "clos: radix= is required");
    if (s->radix < 4)
        return moore_error_set(err, MOORE_EINVAL, "clos: radix=%lld is below 4, the smallest "
                               "switch a folded Clos can be built from", (long long)s->radix);
    if (s->radix % (s->oversub + 1))
        return moore_error_set(err, MOORE_EINVAL, "clos: radix=%lld is not a multiple of "
                               "oversub+1 = %lld, so a leaf cannot split it %lld:1",
                               (long long)s->radix, (long long)(s->oversub + 1),
                               (long long)s->oversub);
    const char *cores = moore_params_str(pp, "cores", "packed");
    s->balanced = strcmp(cores, "balanced") == 0;
    if (!s->balanced && strcmp(cores, "packed") != 0)
        return moore_error_set(err, MOORE_EINVAL, "clos: cores=%s is neither packed nor "
                               "balanced", cores);
    if ((s->endpoints > 0) == (*pods > 0))
        return moore_error_set(err, MOORE_EINVAL, "clos: give exactly one of endpoints= and pods=");
    return MOORE_OK;
}

/* T ≥ 3 tiers: blocks, rows and switches per tier, bottom up, then the cores
 * on the uplinks of tier T−1. */
static void clos_tiers(clos_shape *s)
{
    int64_t R = s->radix, T = s->tiers, half = R / 2;
    s->blocks[1] = s->leaves;
    s->rows[1] = 1;
    s->sw[1] = s->leaves;
    for (int64_t k = 2; k < T; k++) {
        s->blocks[k] = (s->blocks[k - 1] + half - 1) / half;
        s->rows[k] = k == 2 ? s->up : s->rows[k - 1] * half;
        s->sw[k] = s->blocks[k] * s->rows[k];
    }
    s->leaves_per_pod = half;
    s->pods = s->blocks[2];
    s->spines = s->sw[2];
    int64_t top = s->blocks[T - 1];
    s->uplinks = s->sw[T - 1] * half;
    s->core_ports = s->sw[T - 1] < R ? s->sw[T - 1] : R;
    if (s->balanced) { /* whole rounds over the top blocks: m links to each */
        int64_t m = R / top < s->rows[T - 1] ? R / top : s->rows[T - 1];
        s->core_ports = m * top;
    }
    s->cores = (s->uplinks + s->core_ports - 1) / s->core_ports;
    s->sw[T] = s->cores;
    s->first[1] = 0;
    for (int64_t k = 1; k <= T; k++)
        s->first[k + 1] = s->first[k] + s->sw[k];
}

/* The shape a SPEC names, with every rule of the construction checked. */
static int clos_shape_of(moore_params *pp, clos_shape *s, moore_error *err)
{
    int64_t pods = 0;
    *s = (clos_shape){ 0 };
    int rc = clos_read_keys(pp, s, &pods, err);
    if (rc)
        return rc;
    int64_t R = s->radix;
    s->up = R / (s->oversub + 1);
    s->down = R - s->up;
    if (pods > 0) {
        if (s->tiers == 2 && pods != 1)
            return moore_error_set(err, MOORE_EINVAL, "clos: pods=%lld with tiers=2; a 2-tier "
                                   "Clos is one pod", (long long)pods);
        if (s->tiers == 0)
            s->tiers = 3;
        s->endpoints = s->tiers == 2 ? clos_capacity(R, s->down, 2) : pods * (R / 2) * s->down;
    }
    for (int64_t t = 2; s->tiers == 0; t++) /* the fewest tiers that hold the servers */
        if (t == CLOS_MAX_TIERS || s->endpoints <= clos_capacity(R, s->down, t))
            s->tiers = t;
    if (s->tiers >= 3 && R % 2)
        return moore_error_set(err, MOORE_EINVAL, "clos: radix=%lld is odd; %lld tiers split "
                               "a switch's ports in half (R/2 down, R/2 up)", (long long)R,
                               (long long)s->tiers);
    int64_t cap = clos_capacity(R, s->down, s->tiers);
    if (s->endpoints > cap)
        return moore_error_set(err, MOORE_EINVAL, "clos: endpoints=%lld exceeds the %lld-tier "
                               "limit %lld for radix=%lld, oversub=%lld", (long long)s->endpoints,
                               (long long)s->tiers, (long long)cap, (long long)R,
                               (long long)s->oversub);
    s->leaves = (s->endpoints + s->down - 1) / s->down;
    if (s->tiers == 2) {
        s->pods = 1;
        s->leaves_per_pod = s->leaves;
        s->spines = s->up;
        return MOORE_OK;
    }
    clos_tiers(s);
    return MOORE_OK;
}

static void minmax(int64_t v, int32_t *lo, int32_t *hi)
{
    if (v < *lo)
        *lo = (int32_t)v;
    if (v > *hi)
        *hi = (int32_t)v;
}

/* Switches and links of a shape, in doubles first: a large radix with many
 * tiers overflows int64 long before the switch limit is checked. */
static double clos_size(const clos_shape *s, double *links)
{
    if (s->tiers == 2) {
        *links = (double)s->leaves * (double)s->up;
        return (double)s->leaves + (double)s->up;
    }
    double n = 0;
    *links = (double)s->leaves * (double)s->up;
    for (int64_t k = 1; k <= s->tiers; k++)
        n += (double)s->sw[k];
    for (int64_t k = 2; k < s->tiers; k++)
        *links += (double)s->sw[k] * (double)(s->radix / 2);
    return n;
}

/* Degrees below the cores: a tier-k switch (2 ≤ k < T) has its sub-blocks
 * (leaves for k = 2) below and R/2 uplinks; the last block may be partial. */
static void clos_degrees(const clos_shape *s, moore_counts *c)
{
    int64_t half = s->radix / 2;
    for (int64_t k = 2; k < s->tiers; k++) {
        int64_t last = s->blocks[k - 1] - (s->blocks[k] - 1) * half;
        minmax((s->blocks[k] > 1 ? half : last) + half, &c->degree_min, &c->degree_max);
        minmax(last + half, &c->degree_min, &c->degree_max);
    }
    int64_t last_core = s->uplinks - (s->cores - 1) * s->core_ports;
    minmax(s->core_ports, &c->degree_min, &c->degree_max);
    minmax(last_core, &c->degree_min, &c->degree_max);
}

int fam_clos_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    clos_shape s;
    int rc = clos_shape_of(pp, &s, err);
    if (rc)
        return rc;
    double links, switches = clos_size(&s, &links);
    if (switches > MOORE_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL, "clos: %.0f switches exceed the limit %d",
                               switches, MOORE_MAX_SWITCHES);
    c->switches = (int64_t)switches;
    c->links = (int64_t)links;
    c->endpoints = s.endpoints;
    c->multiplicity = 1;
    c->degree_min = c->degree_max = (int32_t)s.up; /* the leaves */
    if (s.tiers == 2) {
        minmax(s.leaves, &c->degree_min, &c->degree_max);
        c->diameter = s.leaves > 1 || s.up > 1 ? 2 : 1;
        return MOORE_OK;
    }
    clos_degrees(&s, c);
    /* Every core touches every top block when its ports cover them (see above). */
    int64_t top = s.blocks[s.tiers - 1], last_core = s.uplinks - (s.cores - 1) * s.core_ports;
    c->diameter = top >= 2 && last_core >= top ? (int32_t)(2 * (s.tiers - 1)) : -1;
    return MOORE_OK;
}

static void clos_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    const clos_shape *s = ctx;
    int64_t grp = s->radix / 2, T = s->tiers == 2 ? 3 : s->tiers, k = 1;
    if (s->tiers == 2) { /* leaves, then spines, one pod */
        snprintf(buf, len, v < s->leaves ? "leaf0.%lld" : "spine0.%lld",
                 (long long)(v < s->leaves ? v : v - s->leaves));
        return;
    }
    while (k < T && v >= s->first[k + 1])
        k++;
    int64_t i = v - s->first[k];
    if (k == 1)
        snprintf(buf, len, "leaf%lld.%lld", (long long)(i / grp), (long long)(i % grp));
    else if (k == T)
        snprintf(buf, len, "core%lld.%lld", (long long)(i / grp), (long long)(i % grp));
    else if (k == 2)
        snprintf(buf, len, "spine%lld.%lld", (long long)(i / s->up), (long long)(i % s->up));
    else if (k == 3)
        snprintf(buf, len, "agg%lld.%lld", (long long)(i / s->rows[3]),
                 (long long)(i % s->rows[3]));
    else
        snprintf(buf, len, "tier%lld_%lld.%lld", (long long)k, (long long)(i / s->rows[k]),
                 (long long)(i % s->rows[k]));
}

/* Tier k−1 (≥ 2) to tier k (< T): switch j of sub-block b gives its R/2
 * uplinks to switches (j, 0 … R/2−1) of block b / (R/2). */
static int clos_middle_links(const clos_shape *s, int64_t k, moore_builder *b, moore_error *err)
{
    int rc = MOORE_OK;
    int64_t half = s->radix / 2;
    for (int64_t sub = 0; !rc && sub < s->blocks[k - 1]; sub++)
        for (int64_t j = 0; !rc && j < s->rows[k - 1]; j++)
            for (int64_t i = 0; !rc && i < half; i++)
                rc = moore_builder_add_link(
                    b, (int32_t)(s->first[k - 1] + sub * s->rows[k - 1] + j),
                    (int32_t)(s->first[k] + (sub / half) * s->rows[k] + j * half + i), err);
    return rc;
}

static int clos_links(const clos_shape *s, moore_builder *b, moore_error *err)
{
    int rc = MOORE_OK;
    int64_t spine0 = s->leaves;
    for (int64_t i = 0; !rc && i < s->leaves; i++) {
        int64_t pod = i / s->leaves_per_pod;
        for (int64_t j = 0; !rc && j < s->up; j++)
            rc = moore_builder_add_link(b, (int32_t)i, (int32_t)(spine0 + pod * s->up + j), err);
    }
    if (s->tiers == 2)
        return rc;
    int64_t T = s->tiers, top = s->blocks[T - 1], rows = s->rows[T - 1];
    for (int64_t k = 3; !rc && k < T; k++)
        rc = clos_middle_links(s, k, b, err);
    int64_t x = 0; /* position in the uplink order (t, j, block) */
    for (int64_t t = 0; !rc && t < s->radix / 2; t++)
        for (int64_t j = 0; !rc && j < rows; j++)
            for (int64_t a = 0; !rc && a < top; a++, x++)
                rc = moore_builder_add_link(b, (int32_t)(s->first[T - 1] + a * rows + j),
                                            (int32_t)(s->first[T] + x / s->core_ports), err);
    return rc;
}

int fam_clos_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    clos_shape s;
    moore_counts c;
    moore_builder *b = NULL;
    moore_graph *g = NULL;
    int rc = fam_clos_counts(pp, &c, err);
    if (!rc)
        rc = clos_shape_of(pp, &s, err);
    if (!rc)
        rc = moore_builder_new((int32_t)c.switches, c.links, &b, err);
    if (!rc)
        rc = clos_links(&s, b, err);
    if (!rc)
        rc = fam_graph_finish(&b, 0, clos_label, &s, &g, err);
    for (int64_t i = 0; !rc && i < s.leaves; i++) {
        int64_t left = s.endpoints - i * s.down;
        g->endpoints[i] = (int32_t)(left < s.down ? left : s.down);
    }
    if (!rc) {
        *out = g;
        g = NULL;
    }
    moore_graph_free(g);
    moore_builder_free(b);
    return rc;
}

/* With a target: the fewest tiers reaching it (up to CLOS_MAX_TIERS) at every
 * oversubscription the radix divides into (up to 7:1), from 3 tiers on with
 * both core wirings. Without: the full 2-tier network, 3 tiers of 1..R pods
 * and the full Clos of each further tier (while the listing's switch limit
 * allows) at 1:1. */
int fam_clos_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                    moore_error *err)
{
    int rc = MOORE_OK;
    if (radix < 4)
        return MOORE_OK;
    if (endpoints > 0) {
        for (int64_t o = 1; !rc && o <= 7 && o < radix; o++) {
            int64_t down = radix - radix / (o + 1);
            if (radix % (o + 1) || (radix % 2 && endpoints > clos_capacity(radix, down, 2)) ||
                endpoints > clos_capacity(radix, down, CLOS_MAX_TIERS))
                continue;
            rc = fam_emit(emit, ctx, err, "clos:radix=%d,endpoints=%lld,oversub=%lld",
                                   (int)radix, (long long)endpoints, (long long)o);
            if (!rc && endpoints > clos_capacity(radix, down, 2))
                rc = fam_emit(emit, ctx, err, "clos:radix=%d,endpoints=%lld,"
                                       "oversub=%lld,cores=balanced", (int)radix,
                                       (long long)endpoints, (long long)o);
        }
        return rc;
    }
    if (radix % 2)
        return MOORE_OK;
    rc = fam_emit(emit, ctx, err, "clos:radix=%d,pods=1,tiers=2", (int)radix);
    for (int64_t pods = 1; !rc && pods <= radix; pods++) {
        if (pods * radix * 5 / 4 > MOORE_PLAN_LIST_SWITCHES) /* ≈ leaves + spines + cores */
            break;
        rc = fam_emit(emit, ctx, err, "clos:radix=%d,pods=%lld,tiers=3", (int)radix,
                               (long long)pods);
    }
    /* and the full Clos of each further tier: (2T−1)·(R/2)^(T−1) switches */
    int64_t half = radix / 2, pods = radix, power = half * half; /* (R/2)^(T−1) */
    for (int64_t t = 4; !rc && t <= CLOS_MAX_TIERS; t++) {
        pods *= half;
        power *= half;
        if ((2 * t - 1) * power > MOORE_PLAN_LIST_SWITCHES)
            break;
        rc = fam_emit(emit, ctx, err, "clos:radix=%d,pods=%lld,tiers=%lld", (int)radix,
                      (long long)pods, (long long)t);
    }
    return rc;
}
