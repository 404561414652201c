/* place.c — which rack every switch goes into (moore_layout_place).
 *
 * Family-aware placements read the switch labels the families write
 * (docs/families.md): Slim Fly "(g,x,y)" goes to rack x, so rack x holds
 * (0,x,·) and (1,x,·); Xpander "s.i" to super-node s; Dragonfly "G<g>.<i>" to
 * group g; fat-tree "edge<p>.<i>"/"agg<p>.<i>" and Clos "leaf<p>.<i>"/
 * "spine<p>.<i>" to pod p, "core<c>.<i>" to core group c after all pods;
 * HyperX and torus "d0.d1.…" to the line of the first dimension(s): as many
 * leading dimensions as fit in a rack share one. Each group becomes one rack,
 * or ⌈size/cap⌉ racks of near-equal size when it is larger than the cap. All
 * of this is one pass over the labels (a file moore wrote gets its family's
 * labels back when it is loaded, src/topology/spec.c).
 *
 * Any other graph (Jellyfish, PolarFly, files, labels that do not parse) is
 * cut by METIS_PartGraphKway into k = ⌈n/cap⌉ balanced parts that minimise the
 * links between parts. METIS's default 3% imbalance is kept (on a 1,000-switch
 * Jellyfish in 32 parts a 0.1% tolerance cut 5,404 links, 3% cut 4,270), and
 * a repair pass then moves switches out of racks above the cap into the rack
 * with room that holds most of their neighbours. Beyond 256 racks METIS's
 * recursive bisection is used instead of k-way (five times faster there). */
#include "layout_internal.h"
#include "core/alloc.h"

#include <math.h>
#include <metis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- group keys from labels: 1 when every switch got a key in [0, n) ---- */

static int key_slimfly(const moore_graph *g, int64_t *key)
{
    for (int32_t v = 0; v < g->n; v++) {
        int grp, x, y, used = 0;
        if (sscanf(g->labels[v], "(%d,%d,%d)%n", &grp, &x, &y, &used) != 3 ||
            g->labels[v][used] || (grp != 0 && grp != 1) || x < 0)
            return 0;
        key[v] = x;
    }
    return 1;
}

/* "<prefix><a>.<b>" with an exact prefix; a is the group. */
static int key_prefixed(const moore_graph *g, const char *prefix, int64_t *key)
{
    size_t len = strlen(prefix);
    for (int32_t v = 0; v < g->n; v++) {
        const char *s = g->labels[v];
        int a, b, used = 0;
        if (strncmp(s, prefix, len) != 0 || sscanf(s + len, "%d.%d%n", &a, &b, &used) != 2 ||
            s[len + used] || a < 0)
            return 0;
        key[v] = a;
    }
    return 1;
}

static int key_xpander(const moore_graph *g, int64_t *key) { return key_prefixed(g, "", key); }
static int key_dragonfly(const moore_graph *g, int64_t *key) { return key_prefixed(g, "G", key); }

/* Pods of a fat-tree or Clos; cores in their own groups after the pods. */
static int key_pods(const moore_graph *g, int64_t *key)
{
    static const char *const POD[] = { "edge", "agg", "leaf", "spine" };
    int64_t pods = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int32_t v = 0; v < g->n; v++) {
            const char *s = g->labels[v];
            size_t len = strspn(s, "abcdefghijklmnopqrstuvwxyz");
            int a, b, used = 0, is_pod = 0;
            for (int i = 0; i < 4; i++)
                is_pod |= strlen(POD[i]) == len && strncmp(s, POD[i], len) == 0;
            int is_core = len == 4 && strncmp(s, "core", 4) == 0;
            if ((!is_pod && !is_core) || sscanf(s + len, "%d.%d%n", &a, &b, &used) != 2 ||
                s[len + used] || a < 0)
                return 0;
            if (pass == 0 && is_pod && a + 1 > pods)
                pods = a + 1;
            key[v] = is_pod ? a : pods + a;
        }
    return 1;
}

#define PLACE_MAX_DIMS 64

/* Mixed-radix words "d0.d1.…", first digit fastest: a rack takes the switches
 * that agree on every digit past the leading dimensions that fit in cap. */
static int key_dimensions(const moore_graph *g, int32_t cap, int64_t *key)
{
    int64_t dim[PLACE_MAX_DIMS] = { 0 };
    int nd = -1;
    for (int pass = 0; pass < 2; pass++) {
        int lead = 1;
        int64_t size = dim[0];
        while (pass == 1 && lead < nd && size * dim[lead] <= cap)
            size *= dim[lead++];
        for (int32_t v = 0; v < g->n; v++) {
            const char *s = g->labels[v];
            int d = 0;
            int64_t k = 0, weight = 1;
            for (;; d++) {
                char *end;
                long x = strtol(s, &end, 10);
                if (end == s || x < 0 || d >= PLACE_MAX_DIMS || (*end != '.' && *end))
                    return 0;
                if (pass == 0 && x + 1 > dim[d])
                    dim[d] = x + 1;
                if (pass == 1 && d >= lead) {
                    k += x * weight;
                    weight *= dim[d];
                }
                if (!*end)
                    break;
                s = end + 1;
            }
            if (nd >= 0 && d + 1 != nd)
                return 0;
            nd = d + 1;
            key[v] = k;
        }
    }
    return 1;
}

/* 1 when the family has a placement of its own. */
static int place_family_known(const char *family)
{
    static const char *const KNOWN[] = { "slimfly", "xpander", "dragonfly", "fattree", "clos",
                                         "hyperx", "torus" };
    for (size_t i = 0; family && i < sizeof KNOWN / sizeof *KNOWN; i++)
        if (strcmp(family, KNOWN[i]) == 0)
            return 1;
    return 0;
}

/* Group keys from the labels of g; 0 when its family has no placement or the
 * labels do not follow the family's convention. */
static int place_family_keys(const moore_graph *g, int32_t cap, int64_t *key,
                             const char **name)
{
    if (!place_family_known(g->family) || !g->labels || g->n == 0)
        return 0;
    for (int32_t v = 0; v < g->n; v++)
        if (!g->labels[v])
            return 0;
    int ok = 0;
    if (strcmp(g->family, "slimfly") == 0)
        ok = key_slimfly(g, key), *name = "slimfly";
    else if (strcmp(g->family, "xpander") == 0)
        ok = key_xpander(g, key), *name = "xpander";
    else if (strcmp(g->family, "dragonfly") == 0)
        ok = key_dragonfly(g, key), *name = "dragonfly";
    else if (strcmp(g->family, "fattree") == 0 || strcmp(g->family, "clos") == 0)
        ok = key_pods(g, key), *name = "pod";
    else
        ok = key_dimensions(g, cap, key), *name = "dimension";
    for (int32_t v = 0; ok && v < g->n; v++)
        if (key[v] >= g->n)
            ok = 0;
    return ok;
}

/* Groups (keys in [0, n)) to racks, in key order; a group larger than cap
 * becomes ⌈size/cap⌉ racks of near-equal size, members in id order. */
static int place_groups(const moore_graph *g, const int64_t *key, int32_t cap, int32_t *rack,
                        int32_t *racks, moore_error *err)
{
    int32_t n = g->n;
    int64_t *size = moore_calloc((size_t)n, sizeof *size, err);
    int64_t *base = moore_calloc((size_t)n, sizeof *base, err);
    int64_t *seen = moore_calloc((size_t)n, sizeof *seen, err);
    int rc = size && base && seen ? MOORE_OK : core_alloc_code(err);
    if (!rc) {
        for (int32_t v = 0; v < n; v++)
            size[key[v]]++;
        int64_t next = 0;
        for (int32_t k = 0; k < n; k++) {
            base[k] = next;
            next += (size[k] + cap - 1) / cap;
        }
        for (int32_t v = 0; v < n; v++) {
            int64_t k = key[v], parts = (size[k] + cap - 1) / cap;
            rack[v] = (int32_t)(base[k] + seen[k]++ * parts / size[k]);
        }
        *racks = (int32_t)next;
    }
    free(size);
    free(base);
    free(seen);
    return rc;
}

/* ---- METIS ---- */

/* Above this many racks METIS's recursive bisection replaces k-way: on a
 * 100,000-switch Jellyfish (d = 24) in 2,084 racks it took 2.5 s of CPU
 * instead of 12.5 s for a cut 1.2% larger (docs/layout.md). */
#define PLACE_KWAY_MAX_PARTS 256

/* Moves switches out of racks holding more than cap, each to the rack with
 * room that holds most of its neighbours (any rack with room if none does). */
static int place_repair(const moore_graph *g, int32_t cap, int32_t parts, int32_t *rack,
                        moore_error *err)
{
    int32_t *size = moore_calloc((size_t)parts, sizeof *size, err);
    int32_t *links = moore_calloc((size_t)parts, sizeof *links, err);
    int rc = size && links ? MOORE_OK : core_alloc_code(err);
    int32_t room = 0;
    for (int32_t v = 0; !rc && v < g->n; v++)
        size[rack[v]]++;
    for (int32_t v = 0; !rc && v < g->n; v++) {
        if (size[rack[v]] <= cap)
            continue;
        int32_t best = -1;
        for (int64_t e = g->offs[v]; e < g->offs[v + 1]; e++)
            links[rack[g->adj[e]]]++;
        for (int64_t e = g->offs[v]; e < g->offs[v + 1]; e++) {
            int32_t r = rack[g->adj[e]];
            if (size[r] < cap && (best < 0 || links[r] > links[best]))
                best = r;
        }
        for (int64_t e = g->offs[v]; e < g->offs[v + 1]; e++)
            links[rack[g->adj[e]]] = 0;
        while (best < 0 && room < parts)
            if (size[room] < cap)
                best = room;
            else
                room++;
        if (best < 0) {
            rc = moore_error_set(err, MOORE_EINTERNAL, "layout: no rack with room for switch "
                                 "%d (%d racks of %d)", (int)v, (int)parts, (int)cap);
            break;
        }
        size[rack[v]]--;
        size[best]++;
        rack[v] = best;
    }
    free(size);
    free(links);
    return rc;
}

/* Renumbers racks 0..R-1 in order, dropping empty ones. */
static int place_compact(int32_t n, int32_t parts, int32_t *rack, int32_t *racks,
                         moore_error *err)
{
    int32_t *id = moore_malloc((size_t)parts, sizeof *id, err);
    if (!id)
        return core_alloc_code(err);
    for (int32_t r = 0; r < parts; r++)
        id[r] = -1;
    for (int32_t v = 0; v < n; v++)
        id[rack[v]] = 0;
    int32_t next = 0;
    for (int32_t r = 0; r < parts; r++)
        if (id[r] == 0)
            id[r] = next++;
    for (int32_t v = 0; v < n; v++)
        rack[v] = id[rack[v]];
    *racks = next;
    free(id);
    return MOORE_OK;
}

int layout_place_metis(const moore_graph *g, int32_t cap, uint64_t seed, int32_t *rack,
                       int32_t *racks, moore_error *err)
{
    int32_t n = g->n;
    int32_t parts = (int32_t)(((int64_t)n + cap - 1) / cap);
    if (parts <= 1 || cap == 1) {
        for (int32_t v = 0; v < n; v++)
            rack[v] = parts <= 1 ? 0 : v;
        *racks = parts < 1 ? 0 : parts;
        return MOORE_OK;
    }
    if (2 * g->m > (int64_t)INT32_MAX)
        return moore_error_set(err, MOORE_ETOOBIG, "layout: %lld links exceed METIS's 32-bit "
                               "indices", (long long)g->m);
    /* our copies and METIS's own graph, workspace and coarser levels
     * (measured: k-way on 10^6 switches of degree 8 failed inside METIS
     * with 494 MB in use, and ran in 720 MB of address space): a short
     * memory is refused here, in one line, rather than inside METIS, whose
     * allocator prints its own lines on stderr when an allocation fails */
    int rc = moore_memory_guard(160.0 * n + 120.0 * g->m + 64.0 * parts,
                                "layout placement (METIS)", err);
    if (rc)
        return rc;
    idx_t *xadj = moore_malloc((size_t)n + 1, sizeof *xadj, err);
    idx_t *adjncy = moore_malloc((size_t)(2 * g->m + 1), sizeof *adjncy, err);
    idx_t *part = moore_malloc((size_t)n, sizeof *part, err);
    if (!xadj || !adjncy || !part) {
        rc = core_alloc_code(err);
        goto done;
    }
    for (int32_t v = 0; v <= n; v++)
        xadj[v] = (idx_t)g->offs[v];
    for (int64_t k = 0; k < 2 * g->m; k++)
        adjncy[k] = g->adj[k];
    idx_t options[METIS_NOPTIONS], nv = n, ncon = 1, np = parts, objval = 0;
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_NUMBERING] = 0;
    options[METIS_OPTION_UFACTOR] = 30; /* METIS's default 3%; tighter cuts worse */
    options[METIS_OPTION_SEED] = (idx_t)(seed & 0x7fffffff);
    int mrc;
    /* METIS keeps its random state in globals: see bisection.c. */
#pragma omp critical
    mrc = parts <= PLACE_KWAY_MAX_PARTS
                  ? METIS_PartGraphKway(&nv, &ncon, xadj, adjncy, NULL, NULL, NULL, &np, NULL,
                                        NULL, options, &objval, part)
                  : METIS_PartGraphRecursive(&nv, &ncon, xadj, adjncy, NULL, NULL, NULL, &np,
                                             NULL, NULL, options, &objval, part);
    if (mrc != METIS_OK) {
        rc = moore_error_set(err, mrc == METIS_ERROR_MEMORY ? MOORE_ENOMEM : MOORE_EINTERNAL,
                             "layout: METIS k-way failed with status %d", mrc);
        goto done;
    }
    for (int32_t v = 0; v < n; v++)
        rack[v] = (int32_t)part[v];
    rc = place_repair(g, cap, parts, rack, err);
    if (!rc)
        rc = place_compact(n, parts, rack, racks, err);
done:
    free(xadj);
    free(adjncy);
    free(part);
    return rc;
}

int layout_place_full(const moore_graph *g, int32_t switches_per_rack, uint64_t seed,
                      int32_t *rack, int32_t *racks, const char **placement, moore_error *err)
{
    if (switches_per_rack < 0)
        return moore_error_set(err, MOORE_EINVAL, "layout: switches_per_rack = %d is negative "
                               "(give a cap >= 1, or 0 for the family default)",
                               (int)switches_per_rack);
    *racks = 0;
    if (g->n == 0) {
        *placement = "single";
        return MOORE_OK;
    }
    int32_t cap = switches_per_rack > 0 ? switches_per_rack : MOORE_LAYOUT_RACK_DEFAULT;
    int64_t *key = moore_malloc((size_t)g->n, sizeof *key, err);
    if (!key)
        return core_alloc_code(err);
    int rc;
    if (place_family_keys(g, cap, key, placement)) {
        rc = place_groups(g, key, cap, rack, racks, err);
    } else {
        if (switches_per_rack == 0) {
            int32_t root = (int32_t)ceil(sqrt((double)g->n));
            cap = root < cap ? root : cap;
        }
        *placement = (int64_t)g->n <= cap ? "single" : "metis";
        rc = layout_place_metis(g, cap, seed, rack, racks, err);
    }
    free(key);
    return rc;
}

int moore_layout_place(const moore_graph *g, int32_t switches_per_rack, int32_t *rack,
                       int32_t *racks, moore_error *err)
{
    const char *placement;
    return layout_place_full(g, switches_per_rack, 1, rack, racks, &placement, err);
}
