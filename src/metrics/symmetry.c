/* symmetry.c — automorphism group, orbits, canonical form and isomorphism via
 * Traces (nauty 2.8, sparse interface), and the "symmetry" metric group.
 *
 * One Traces call gives the group size (as mantissa × 10^exponent, because
 * the groups of fat-trees and Hamming graphs overflow any integer type), the
 * orbit of every switch, and a canonical labelling. The canonical graph is
 * turned into a sorted edge list, which is both hashed (canonical_hash) and
 * compared edge by edge for `moore iso`, so a hash collision can never make
 * two graphs "isomorphic". Endpoint counts, when respected, become the initial
 * colour partition, ordered by count so that both graphs of an isomorphism
 * test get the same cell order. */
#include "moore/symmetry.h"

#include "core/alloc.h"
#include "metrics/groups.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nauty/nausparse.h>
#include <nauty/schreier.h>
#include <nauty/traces.h>

void moore_symmetry_options_default(moore_symmetry_options *o)
{
    memset(o, 0, sizeof *o);
    o->canonical = 1;
}

void moore_symmetry_result_clear(moore_symmetry_result *r)
{
    free(r->orbits);
    free(r->canon_lab);
    memset(r, 0, sizeof *r);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Rough peak of Traces' own allocations: a few dozen words per vertex and per
 * edge end (partition stacks, search-tree nodes, the canonical copy). */
static double traces_bytes(const moore_graph *g)
{
    return 256.0 * (double)g->n + 48.0 * (double)g->m;
}

/* The result of one Traces run; cadj holds the canonical graph's rows sorted,
 * row i (the image of switch lab[i]) has degree deg(lab[i]). */
typedef struct traces_run {
    int *lab, *orbits, *cadj;
    double grp1;
    int grp2, numorbits;
    int32_t *gens, ngens; /* generators (ngens × n), when asked for */
} traces_run;

static void traces_run_clear(traces_run *t)
{
    free(t->lab);
    free(t->orbits);
    free(t->cadj);
    free(t->gens);
    memset(t, 0, sizeof *t);
}

/* Copies the generators of Traces' circular list into t->gens. */
static int traces_copy_gens(permnode *ring, int n, traces_run *t, moore_error *err)
{
    int count = 0;
    permnode *q = ring;
    if (q)
        do {
            count++;
            q = q->next;
        } while (q != ring);
    t->gens = moore_malloc((size_t)(count ? count : 1) * (size_t)(n ? n : 1), sizeof *t->gens,
                           err);
    if (!t->gens)
        return core_alloc_code(err);
    t->ngens = count;
    q = ring;
    for (int i = 0; i < count; i++, q = q->next)
        for (int v = 0; v < n; v++)
            t->gens[(int64_t)i * n + v] = q->p[v];
    return MOORE_OK;
}

static int run_traces(const moore_graph *g, const moore_symmetry_options *o, int getcanon,
                      int getgens, traces_run *t, moore_error *err)
{
    memset(t, 0, sizeof *t);
    int n = g->n;
    if (g->m > (int64_t)INT32_MAX / 2)
        return moore_error_set(err, MOORE_ETOOBIG,
                               "symmetry: %lld links exceed what nauty's int indices hold",
                               (long long)g->m);
    int rc = moore_memory_guard(traces_bytes(g), "symmetry (Traces)", err);
    if (rc)
        return rc;
    size_t nn = (size_t)(n ? n : 1), ne = (size_t)(g->m ? 2 * g->m : 1);
    size_t *v = moore_malloc(nn, sizeof *v, err);
    int *d = moore_malloc(nn, sizeof *d, err), *e = moore_malloc(ne, sizeof *e, err);
    int *ptn = moore_malloc(nn, sizeof *ptn, err);
    t->lab = moore_malloc(nn, sizeof *t->lab, err);
    t->orbits = moore_malloc(nn, sizeof *t->orbits, err);
    if (getcanon)
        t->cadj = moore_malloc(ne, sizeof *t->cadj, err);
    if (!v || !d || !e || !ptn || !t->lab || !t->orbits || (getcanon && !t->cadj)) {
        rc = core_alloc_code(err);
        goto done;
    }
    for (int i = 0; i < n; i++) {
        v[i] = (size_t)g->offs[i];
        d[i] = moore_graph_degree(g, i);
        t->lab[i] = i;
        ptn[i] = 1;
    }
    for (int64_t k = 0; k < 2 * g->m; k++)
        e[k] = g->adj[k];

    DEFAULTOPTIONS_TRACES(opts);
    TracesStats stats;
    memset(&stats, 0, sizeof stats);
    opts.getcanon = getcanon ? TRUE : FALSE;
    opts.defaultptn = TRUE;
    if (o->respect_endpoints && n > 0) {
        /* Cells of equal endpoint count, in increasing count: sort keys
         * (count << 32 | switch) so no comparison needs the graph. */
        uint64_t *key = moore_malloc((size_t)n, sizeof *key, err);
        if (!key) {
            rc = core_alloc_code(err);
            goto done;
        }
        for (int i = 0; i < n; i++)
            key[i] = (uint64_t)(uint32_t)g->endpoints[i] << 32 | (uint32_t)i;
        qsort(key, (size_t)n, sizeof *key, cmp_u64);
        for (int i = 0; i < n; i++)
            t->lab[i] = (int)(key[i] & 0xffffffffu);
        free(key);
        for (int i = 0; i < n; i++)
            ptn[i] = i + 1 < n && g->endpoints[t->lab[i]] == g->endpoints[t->lab[i + 1]];
        opts.defaultptn = FALSE;
    }

    if (n <= 1) {
        /* Traces needs at least one vertex pair; the answer is trivial. */
        t->grp1 = 1.0;
        t->grp2 = 0;
        t->numorbits = n;
        for (int i = 0; i < n; i++)
            t->orbits[i] = i;
    } else {
        sparsegraph sg;
        SG_INIT(sg);
        sg.nv = n;
        sg.nde = (size_t)(2 * g->m);
        sg.v = v;
        sg.d = d;
        sg.e = e;
        sg.vlen = sg.dlen = (size_t)n;
        sg.elen = sg.nde;
        SG_DECL(cg);
        permnode *ring = NULL;
        opts.generators = getgens ? &ring : NULL;
        Traces(&sg, t->lab, ptn, t->orbits, &opts, &stats, getcanon ? &cg : NULL);
        if (!stats.errstatus && getgens)
            rc = traces_copy_gens(ring, n, t, err);
        freeschreier(NULL, &ring);
        if (stats.errstatus) {
            rc = moore_error_set(err, MOORE_EINTERNAL, "symmetry: Traces failed with status %d",
                                 stats.errstatus);
        } else if (getcanon) {
            /* Row i of the canonical graph, sorted, packed in switch order. */
            int64_t pos = 0;
            for (int i = 0; i < n; i++) {
                int deg = cg.d[i];
                if (deg == 0) /* with no links cg.e and t->cadj are NULL */
                    continue;
                memcpy(t->cadj + pos, cg.e + cg.v[i], (size_t)deg * sizeof *t->cadj);
                qsort(t->cadj + pos, (size_t)deg, sizeof *t->cadj, cmp_int);
                pos += deg;
            }
        }
        if (getcanon)
            SG_FREE(cg);
        traces_freedyn();
        nausparse_freedyn();
        nauty_freedyn();
        t->grp1 = stats.grpsize1;
        t->grp2 = stats.grpsize2;
        t->numorbits = stats.numorbits;
    }
done:
    free(v);
    free(d);
    free(e);
    free(ptn);
    if (rc)
        traces_run_clear(t);
    return rc;
}

static uint64_t fnv1a(uint64_t h, uint32_t x)
{
    for (int i = 0; i < 4; i++) {
        h ^= (x >> (8 * i)) & 0xffu;
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* Hash of n, each canonical link i<j in order, and (when respected) the
 * endpoint counts in canonical order. */
static uint64_t canonical_hash(const moore_graph *g, const traces_run *t, int endpoints)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    h = fnv1a(h, (uint32_t)g->n);
    h = fnv1a(h, (uint32_t)(g->m & 0xffffffffu));
    int64_t pos = 0;
    for (int32_t i = 0; i < g->n; i++) {
        int32_t deg = moore_graph_degree(g, t->lab[i]);
        for (int32_t k = 0; k < deg; k++)
            if (t->cadj[pos + k] > i) {
                h = fnv1a(h, (uint32_t)i);
                h = fnv1a(h, (uint32_t)t->cadj[pos + k]);
            }
        pos += deg;
    }
    if (endpoints) {
        h = fnv1a(h, 0xffffffffu);
        for (int32_t i = 0; i < g->n; i++)
            h = fnv1a(h, (uint32_t)g->endpoints[t->lab[i]]);
    }
    return h;
}

int moore_symmetry_compute(const moore_graph *g, const moore_symmetry_options *o,
                           moore_symmetry_result *out, moore_error *err)
{
    moore_symmetry_options def;
    if (!o) {
        moore_symmetry_options_default(&def);
        o = &def;
    }
    memset(out, 0, sizeof *out);
    traces_run t = { 0 };
    int rc = run_traces(g, o, o->canonical, 0, &t, err);
    if (rc)
        goto done;
    out->orbits = moore_malloc((size_t)(g->n ? g->n : 1), sizeof *out->orbits, err);
    if (!out->orbits) {
        rc = core_alloc_code(err);
        goto done;
    }
    for (int32_t v = 0; v < g->n; v++)
        out->orbits[v] = t.orbits[v];
    out->n_orbits = t.numorbits;
    out->vertex_transitive = g->n >= 1 && t.numorbits == 1;
    out->group_log10 = log10(t.grp1) + t.grp2;
    out->group_size = t.grp2 > 308 ? INFINITY : t.grp1 * pow(10.0, t.grp2);
    /* nauty multiplies orbit lengths into grpsize1 and only shifts powers of
     * ten into grpsize2 past 1e10, so below 2^53 the product is an integer
     * held exactly; rounding guards the pow() step. */
    if (out->group_size < 9007199254740992.0) {
        double r = floor(out->group_size + 0.5);
        if (fabs(r - out->group_size) <= 1e-9 * r) {
            out->group_size = r;
            out->group_exact = 1;
        }
    }
    if (o->canonical) {
        out->canonical_hash = canonical_hash(g, &t, o->respect_endpoints);
        out->canon_lab = moore_malloc((size_t)(g->n ? g->n : 1), sizeof *out->canon_lab, err);
        if (!out->canon_lab) {
            rc = core_alloc_code(err);
            goto done;
        }
        for (int32_t i = 0; i < g->n; i++)
            out->canon_lab[i] = t.lab[i];
    }
done:
    traces_run_clear(&t);
    if (rc)
        moore_symmetry_result_clear(out);
    return rc;
}

int moore_symmetry_generators(const moore_graph *g, const moore_symmetry_options *o,
                              int32_t **gens, int32_t *count, moore_error *err)
{
    moore_symmetry_options def;
    if (!o) {
        moore_symmetry_options_default(&def);
        o = &def;
    }
    *gens = NULL;
    *count = 0;
    traces_run t = { 0 };
    int rc = run_traces(g, o, 0, 1, &t, err);
    if (!rc) {
        *gens = t.gens; /* NULL with no generators (n ≤ 1) */
        *count = t.ngens;
        t.gens = NULL;
    }
    traces_run_clear(&t);
    return rc;
}

int moore_isomorphic(const moore_graph *a, const moore_graph *b,
                     const moore_symmetry_options *o, int *isomorphic, int32_t *map,
                     moore_error *err)
{
    moore_symmetry_options def;
    if (!o) {
        moore_symmetry_options_default(&def);
        o = &def;
    }
    *isomorphic = 0;
    if (a->n != b->n || a->m != b->m)
        return MOORE_OK;
    traces_run ta = { 0 }, tb = { 0 };
    int rc = run_traces(a, o, 1, 0, &ta, err);
    if (!rc)
        rc = run_traces(b, o, 1, 0, &tb, err);
    if (rc)
        goto done;
    int same = 1;
    for (int32_t i = 0; same && i < a->n; i++) {
        same = moore_graph_degree(a, ta.lab[i]) == moore_graph_degree(b, tb.lab[i]);
        if (same && o->respect_endpoints)
            same = a->endpoints[ta.lab[i]] == b->endpoints[tb.lab[i]];
    }
    if (same)
        same = memcmp(ta.cadj, tb.cadj, (size_t)(2 * a->m) * sizeof *ta.cadj) == 0;
    *isomorphic = same;
    if (same && map)
        for (int32_t i = 0; i < a->n; i++)
            map[ta.lab[i]] = tb.lab[i];
done:
    traces_run_clear(&ta);
    traces_run_clear(&tb);
    return rc;
}

/* ---- the "symmetry" metric group ---- */

int metric_symmetry(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                          moore_error *err)
{
    moore_symmetry_options so;
    moore_symmetry_options_default(&so);
    moore_symmetry_result s;
    /* Traces reports no progress of its own; say at least what is running
     * (it takes seconds on twin-rich graphs such as large fat-trees). */
    if (o && o->progress && g->n > 1000)
        o->progress(o->progress_ctx, "automorphisms (Traces)", 0.0);
    int rc = moore_symmetry_compute(g, &so, &s, err);
    if (rc)
        return rc;
    if (s.group_exact)
        rc = moore_report_int(r, "automorphisms", (int64_t)s.group_size, err);
    else if (isfinite(s.group_size))
        rc = moore_report_double(r, "automorphisms", s.group_size, err);
    else
        rc = moore_report_null(r, "automorphisms", err);
    if (!rc) rc = moore_report_double(r, "automorphisms_log10", s.group_log10, err);
    if (!rc) rc = moore_report_int(r, "orbits", s.n_orbits, err);
    if (!rc) rc = moore_report_bool(r, "vertex_transitive", s.vertex_transitive, err);
    if (!rc) {
        char hex[24];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)s.canonical_hash);
        rc = moore_report_string(r, "canonical_hash", hex, err);
    }
    moore_symmetry_result_clear(&s);
    return rc;
}
