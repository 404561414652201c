/* clos.c — the folded Clos that datacenters build from switches of one radix
 * R for any server count (docs/families.md): the full-bandwidth baseline `moore
 * compare` measures every other family against.
 *
 * A leaf gives down = R·O/(O+1) ports to servers and up = R/(O+1) to spines
 * (oversubscription O:1 at the leaf). Two tiers: L leaves, each linked to all
 * `up` spines (a complete bipartite graph, L ≤ R). Three tiers: pods of R/2
 * leaves and `up` spines (the last pod may be partial); every spine gives R/2
 * ports to the leaves of its pod and R/2 to cores. The spine uplinks are
 * dealt to cores in the order (uplink t, spine row j, pod a) with the pod
 * varying fastest, core_ports = min(R, spines) consecutive ones per core, so a
 * core never sees one spine twice and touches every pod as evenly as R allows
 * (cores=packed, the default). When R is not a multiple of the pod count that
 * leaves some cores 3 links to a pod and others 2, which costs uniform
 * throughput a few percent; cores=balanced gives every core m = ⌊R/pods⌋
 * whole rounds over the pods (m·pods ports used), so all pods are alike.
 * Servers fill the leaves in order: endpoints = N exactly, the last leaf
 * partial. Closed forms and a hand-checkable example are in docs/families.md.
 *
 * Numbering: leaves pod by pod, then spines pod by pod, then cores; labels
 * "leaf<pod>.<i>", "spine<pod>.<i>", "core<grp>.<i>" (groups of R/2 cores),
 * the convention of fattree.c, so layout can place pods by label. */
#include "families.h"

#include <stdio.h>
#include <string.h>

const moore_param_info fam_clos_params[] = {
    { "radix", "", "switch radix R (every switch has R ports)" },
    { "endpoints", "-", "servers N (or pods=)" },
    { "pods", "-", "full pods instead of endpoints= (2 tiers: 1)" },
    { "tiers", "-", "2 or 3 (default: the fewest that reach the servers)" },
    { "oversub", "1", "leaf oversubscription O:1 (R*O/(O+1) ports down, R/(O+1) up)" },
    { "cores", "packed", "3 tiers: packed (every core port used) or balanced (each core the "
      "same number of links to every pod)" },
    { NULL, NULL, NULL }
};

typedef struct clos_shape {
    int64_t radix, tiers, oversub, down, up;
    int64_t endpoints, leaves, pods, leaves_per_pod, spines, uplinks, core_ports, cores;
    int balanced;
} clos_shape;

/* Servers the shape can hold with t tiers. */
static int64_t clos_capacity(int64_t radix, int64_t down, int64_t tiers)
{
    return tiers == 2 ? radix * down : radix * (radix / 2) * down;
}

static int clos_read_keys(moore_params *pp, clos_shape *s, int64_t *pods,
                          moore_error *err)
{
    int rc = moore_params_int(pp, "radix", -1, 1, 1 << 16, &s->radix, err);
    if (!rc) rc = moore_params_int(pp, "oversub", 1, 1, 1 << 16, &s->oversub, err);
    if (!rc) rc = moore_params_int(pp, "tiers", 0, 2, 3, &s->tiers, err);
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
        s->endpoints = pods * clos_capacity(R, s->down, s->tiers) / (s->tiers == 3 ? R : 1);
    }
    if (s->tiers == 0)
        s->tiers = s->endpoints <= clos_capacity(R, s->down, 2) ? 2 : 3;
    if (s->tiers == 3 && R % 2)
        return moore_error_set(err, MOORE_EINVAL, "clos: radix=%lld is odd; 3 tiers split a "
                               "spine's ports in half (R/2 down, R/2 up)", (long long)R);
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
    s->leaves_per_pod = R / 2;
    s->pods = (s->leaves + s->leaves_per_pod - 1) / s->leaves_per_pod;
    s->spines = s->pods * s->up;
    s->uplinks = s->spines * (R / 2);
    s->core_ports = s->spines < R ? s->spines : R;
    if (s->balanced) { /* whole rounds over the pods: m links to each */
        int64_t m = R / s->pods < s->up ? R / s->pods : s->up;
        s->core_ports = m * s->pods;
    }
    s->cores = (s->uplinks + s->core_ports - 1) / s->core_ports;
    return MOORE_OK;
}

static void minmax(int64_t v, int32_t *lo, int32_t *hi)
{
    if (v < *lo)
        *lo = (int32_t)v;
    if (v > *hi)
        *hi = (int32_t)v;
}

int fam_clos_counts(moore_params *pp, moore_counts *c, moore_error *err)
{
    clos_shape s;
    int rc = clos_shape_of(pp, &s, err);
    if (rc)
        return rc;
    int64_t switches = s.leaves + s.spines + s.cores;
    if (switches > MOORE_MAX_SWITCHES)
        return moore_error_set(err, MOORE_EINVAL, "clos: %lld switches exceed the limit %d",
                               (long long)switches, MOORE_MAX_SWITCHES);
    c->switches = switches;
    c->links = s.leaves * s.up + s.uplinks;
    c->endpoints = s.endpoints;
    c->multiplicity = 1;
    c->degree_min = c->degree_max = (int32_t)s.up; /* the leaves */
    if (s.tiers == 2) {
        minmax(s.leaves, &c->degree_min, &c->degree_max);
        c->diameter = s.leaves > 1 || s.up > 1 ? 2 : 1;
        return MOORE_OK;
    }
    int64_t last_pod = s.leaves - (s.pods - 1) * s.leaves_per_pod;
    int64_t last_core = s.uplinks - (s.cores - 1) * s.core_ports;
    minmax(s.leaves_per_pod + s.radix / 2, &c->degree_min, &c->degree_max);
    minmax(last_pod + s.radix / 2, &c->degree_min, &c->degree_max);
    minmax(s.core_ports, &c->degree_min, &c->degree_max);
    minmax(last_core, &c->degree_min, &c->degree_max);
    /* Every core touches every pod when its ports cover them (see above). */
    c->diameter = s.pods >= 2 && last_core >= s.pods ? 4 : -1;
    return MOORE_OK;
}

static void clos_label(const void *ctx, int32_t v, char *buf, size_t len)
{
    const clos_shape *s = ctx;
    int64_t spine0 = s->leaves, core0 = s->leaves + s->spines, grp = s->radix / 2;
    if (v < spine0)
        snprintf(buf, len, "leaf%lld.%lld", (long long)(v / s->leaves_per_pod),
                 (long long)(v % s->leaves_per_pod));
    else if (v < core0)
        snprintf(buf, len, "spine%lld.%lld", (long long)((v - spine0) / s->up),
                 (long long)((v - spine0) % s->up));
    else
        snprintf(buf, len, "core%lld.%lld", (long long)((v - core0) / grp),
                 (long long)((v - core0) % grp));
}

static int clos_links(const clos_shape *s, moore_builder *b, moore_error *err)
{
    int rc = MOORE_OK;
    int64_t spine0 = s->leaves, core0 = s->leaves + s->spines;
    for (int64_t i = 0; !rc && i < s->leaves; i++) {
        int64_t pod = i / s->leaves_per_pod;
        for (int64_t j = 0; !rc && j < s->up; j++)
            rc = moore_builder_add_link(b, (int32_t)i, (int32_t)(spine0 + pod * s->up + j), err);
    }
    int64_t x = 0; /* position in the uplink order (t, j, pod) */
    for (int64_t t = 0; !rc && t < s->uplinks / (s->spines ? s->spines : 1); t++)
        for (int64_t j = 0; !rc && j < s->up; j++)
            for (int64_t a = 0; !rc && a < s->pods; a++, x++)
                rc = moore_builder_add_link(b, (int32_t)(spine0 + a * s->up + j),
                                            (int32_t)(core0 + x / s->core_ports), err);
    return rc;
}

int fam_clos_build(moore_params *pp, moore_graph **out, moore_error *err)
{
    clos_shape s;
    moore_counts c;
    moore_builder *b = NULL;
    int rc = fam_clos_counts(pp, &c, err);
    if (!rc)
        rc = clos_shape_of(pp, &s, err);
    if (!rc)
        rc = moore_builder_new((int32_t)c.switches, c.links, &b, err);
    if (!rc)
        rc = clos_links(&s, b, err);
    rc = fam_finish(b, rc, 0, clos_label, &s, out, err);
    for (int64_t i = 0; !rc && i < s.leaves; i++) {
        int64_t left = s.endpoints - i * s.down;
        (*out)->endpoints[i] = (int32_t)(left < s.down ? left : s.down);
    }
    return rc;
}

/* With a target: the fewest tiers reaching it at every oversubscription the
 * radix divides into (up to 7:1), for 3 tiers with both core wirings. Without: the full 2-tier network and 3
 * tiers of 1..R pods at 1:1. */
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
                endpoints > clos_capacity(radix, down, 3))
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
    return rc;
}
