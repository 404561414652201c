/* xpander.c — Xpander (Valadarsky, Shahaf, Dinitz & Schapira, CoNEXT'16),
 * in the paper's form and in a variant (docs/xpander.md, "Two Xpanders").
 *
 * A meta-graph M (n_M nodes, a good small expander) is expanded: meta-node i
 * becomes the super-node of switches i·k … i·k+k−1, and every meta-link a–b
 * becomes a perfect matching between the two super-nodes. The paper takes
 * M = K_{d+1} and puts no links inside a super-node (intra=none), so the
 * network degree is d; the clique variant (intra=clique) also wires each
 * super-node as a full mesh K_k, for degree (k−1) + d_M.
 *
 * The matchings are either seeded random permutations (matching=random; with
 * tries=T, T candidates are built and the one with the smallest
 * λ_nontrivial is kept, as the authors' generator keeps good lifts), or
 * successive 2-lifts of M with the signing search of lift.c
 * (matching=lift, k a power of two). A 2^t-fold lift of M is a k-cover of
 * M: switch x of it lies over meta-node x mod n_M, so renumbering x to
 * (x mod n_M)·k + ⌊x / n_M⌋ gives the super-node layout above, and every
 * meta-link lifts to a perfect matching between two fibres.
 *
 * The meta-graph may be any topology: a keyword (complete, petersen), a
 * family SPEC whose own commas are written as ';' (meta=hyperx:L=2;S=4), or a
 * topology file. */
#include "families.h"
#include "moore/lift.h"
#include "moore/rng.h"
#include "moore/spectrum.h"
#include "core/alloc.h"
#include "core/csr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const moore_param_info fam_xpander_params[] = {
    { "d", "-", "network degree of the paper's Xpander: meta-graph K_{d+1} (needed with "
                "meta=complete)" },
    { "k", "", "switches per super-node (lift copies of each meta-node)" },
    { "meta", "complete", "meta-graph: complete (K_{d+1}), petersen, a SPEC with ';' for ',' "
                          "(slimfly:q=5), or a topology file" },
    { "intra", "none", "none (the paper) or clique (a variant: K_k in each super-node)" },
    { "matching", "random", "random (seeded permutations) or lift (successive 2-lifts with "
                            "signing search; k a power of two)" },
    { "tries", "1", "random: build T, keep the smallest lambda_nontrivial; lift: signing "
                    "tries per 2-lift" },
    MOORE_PARAM_SEED("1"),
    MOORE_PARAM_P("-"),
    MOORE_PARAM_RADIX,
    { NULL, NULL, NULL }
};

typedef struct xpander_cfg {
    moore_graph *meta;
    int64_t k;
    int clique;
    int lift;
    int64_t tries;
    int64_t seed;
    int32_t ep;         /* p= (uniform), the radix (use_radix), or -1: p = degree */
    int use_radix;
} xpander_cfg;

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int complete_meta(int64_t d, moore_graph **out, moore_error *err)
{
    moore_builder *b = NULL;
    int rc = moore_builder_new((int32_t)(d + 1), (d + 1) * d / 2, &b, err);
    for (int32_t u = 0; !rc && u <= d; u++)
        for (int32_t v = u + 1; !rc && v <= d; v++)
            rc = moore_builder_add_link(b, u, v, err);
    if (!rc) {
        rc = moore_builder_finish(b, out, err);
        b = NULL; /* finish frees it */
    }
    moore_builder_free(b);
    return rc;
}

/* The meta-graph named by meta= (and d=). */
static int load_meta(moore_params *p, moore_graph **out, moore_error *err)
{
    const char *meta = moore_params_str(p, "meta", "complete");
    int64_t d;
    int has_d = moore_params_has(p, "d");
    /* d ≤ 4096: K_{d+1} has d(d+1)/2 meta-links, built even for the counts;
     * no switch has thousands of ports, and a larger d made a SPEC of a few
     * characters take minutes (found by fuzz/fuzz_spec). */
    int rc = moore_params_int(p, "d", -1, 1, 4096, &d, err);
    if (rc)
        return rc;
    *out = NULL;
    if (strcmp(meta, "complete") == 0) {
        if (!has_d)
            return moore_error_set(err, MOORE_EINVAL,
                                   "xpander: d= is required with meta=complete (the paper's "
                                   "Xpander, meta-graph K_{d+1})");
        return complete_meta(d, out, err);
    }
    char spec[sizeof p->value[0]];
    snprintf(spec, sizeof spec, "%s", meta);
    if (!is_file(meta))
        for (char *c = spec; *c; c++)
            if (*c == ';')
                *c = ',';
    moore_error inner;
    moore_error_clear(&inner);
    moore_graph *g = NULL;
    if (!p->loader)
        return moore_error_set(err, MOORE_EINVAL, "xpander: meta=%s needs a topology loader "
                               "(build it with moore_spec_build)", meta);
    rc = p->loader->load(spec, &g, &inner);
    if (rc)
        rc = moore_error_set(err, rc, "xpander: meta=%s: %s", meta, inner.msg);
    else if (g->m == 0)
        rc = moore_error_set(err, MOORE_EINVAL, "xpander: meta=%s has no links", meta);
    else if (has_d && (!moore_graph_is_regular(g) || moore_graph_degree_max(g) != d))
        rc = moore_error_set(err, MOORE_EINVAL,
                             "xpander: d=%lld disagrees with meta=%s (degree %d); d= only "
                             "sets the complete meta-graph K_{d+1}",
                             (long long)d, meta, (int)moore_graph_degree_max(g));
    if (rc)
        goto done;
    *out = g;
    g = NULL;
done:
    moore_graph_free(g);
    return rc;
}

/* p= wins; radix= gives radix − degree per switch; default: the degree (1:1). */
static int endpoints_rule(moore_params *p, xpander_cfg *c, moore_error *err)
{
    int32_t dmax = moore_graph_degree_max(c->meta) + (c->clique ? (int32_t)c->k - 1 : 0);
    c->use_radix = moore_params_has(p, "radix") && !moore_params_has(p, "p");
    int rc = moore_family_resolve_endpoints(p, dmax, -1, &c->ep, err);
    if (!rc && c->use_radix)
        c->ep += dmax; /* the radix itself */
    return rc;
}



static void cfg_clear(xpander_cfg *c)
{
    moore_graph_free(c->meta);
    c->meta = NULL;
}

/* Reads every key and checks the sizes. */
static int cfg_read(moore_params *p, xpander_cfg *c, moore_error *err)
{
    memset(c, 0, sizeof *c);
    const char *intra = moore_params_str(p, "intra", "none");
    const char *matching = moore_params_str(p, "matching", "random");
    int rc = MOORE_OK;
    if (strcmp(intra, "none") == 0)
        c->clique = 0;
    else if (strcmp(intra, "clique") == 0)
        c->clique = 1;
    else
        return moore_error_set(err, MOORE_EINVAL, "xpander: intra=%s is not none or clique", intra);
    if (strcmp(matching, "random") == 0)
        c->lift = 0;
    else if (strcmp(matching, "lift") == 0)
        c->lift = 1;
    else
        return moore_error_set(err, MOORE_EINVAL, "xpander: matching=%s is not random or lift",
                               matching);
    if (!moore_params_has(p, "k"))
        return moore_error_set(err, MOORE_EINVAL, "xpander: k= (switches per super-node) is "
                                                  "required");
    rc = moore_params_int(p, "k", 1, 1, MOORE_MAX_SWITCHES, &c->k, err);
    if (!rc)
        rc = moore_params_int(p, "tries", 1, 1, 100000, &c->tries, err);
    if (!rc)
        rc = moore_params_int(p, "seed", 1, 0, INT64_MAX, &c->seed, err);
    if (rc)
        return rc;
    if (c->lift && (c->k & (c->k - 1)))
        return moore_error_set(err, MOORE_EINVAL,
                               "xpander: matching=lift needs k a power of two (k=%lld)",
                               (long long)c->k);
    rc = load_meta(p, &c->meta, err);
    if (rc)
        return rc;
    if ((double)c->k * c->meta->n > MOORE_MAX_SWITCHES)
        rc = moore_error_set(err, MOORE_EINVAL,
                             "xpander: k=%lld super-nodes of %d meta-nodes exceed %d switches",
                             (long long)c->k, (int)c->meta->n, MOORE_MAX_SWITCHES);
    if (!rc)
        rc = endpoints_rule(p, c, err);
    if (rc)
        cfg_clear(c);
    return rc;
}

static int32_t switch_degree(const xpander_cfg *c, int32_t meta_node)
{
    return moore_graph_degree(c->meta, meta_node) + (c->clique ? (int32_t)c->k - 1 : 0);
}

static int64_t total_links(const xpander_cfg *c)
{
    return c->k * c->meta->m + (c->clique ? c->meta->n * c->k * (c->k - 1) / 2 : 0);
}

int fam_xpander_counts(moore_params *p, moore_counts *out, moore_error *err)
{
    xpander_cfg c;
    int rc = cfg_read(p, &c, err);
    if (rc)
        return rc;
    int64_t nm = c.meta->n, k = c.k;
    out->switches = k * nm;
    out->links = total_links(&c);
    out->degree_min = moore_graph_degree_min(c.meta) + (c.clique ? (int32_t)k - 1 : 0);
    out->degree_max = moore_graph_degree_max(c.meta) + (c.clique ? (int32_t)k - 1 : 0);
    if (c.use_radix)
        out->endpoints = out->switches * c.ep - 2 * out->links;
    else if (c.ep >= 0)
        out->endpoints = out->switches * c.ep;
    else
        out->endpoints = 2 * out->links;
    out->diameter = (k == 1 && c.meta->m == nm * (nm - 1) / 2) ? 1 : -1;
    cfg_clear(&c);
    return MOORE_OK;
}

/* Links of the meta-graph, u < v, in CSR order; *lu and *lv are set only on
 * success. */
static int meta_links(const moore_graph *m, int32_t **lu, int32_t **lv, moore_error *err)
{
    int rc = MOORE_OK;
    int32_t *u = moore_malloc((size_t)m->m, sizeof *u, err);
    int32_t *v = moore_malloc((size_t)m->m, sizeof *v, err);
    if (!u || !v) {
        rc = core_alloc_code(err);
        goto done;
    }
    core_csr_links(m, u, v);
    *lu = u;
    *lv = v;
    u = v = NULL;
done:
    free(u);
    free(v);
    return rc;
}

/* Adds the super-node meshes (intra=clique). */
static int clique_links(moore_builder *b, const xpander_cfg *c, moore_error *err)
{
    int32_t k = (int32_t)c->k;
    int rc = MOORE_OK;
    for (int32_t s = 0; !rc && c->clique && s < c->meta->n; s++)
        for (int32_t i = 0; !rc && i < k; i++)
            for (int32_t j = i + 1; !rc && j < k; j++)
                rc = moore_builder_add_link(b, s * k + i, s * k + j, err);
    return rc;
}

/* One candidate with seeded random permutations for the matchings. */
static int build_random(const xpander_cfg *c, moore_rng *rng, const int32_t *lu,
                        const int32_t *lv, int32_t *perm, moore_graph **out, moore_error *err)
{
    int32_t k = (int32_t)c->k;
    moore_builder *b = NULL;
    int rc = moore_builder_new(k * c->meta->n, total_links(c), &b, err);
    for (int64_t e = 0; !rc && e < c->meta->m; e++) {
        for (int32_t i = 0; i < k; i++)
            perm[i] = i;
        moore_rng_shuffle_i32(rng, perm, k);
        for (int32_t i = 0; !rc && i < k; i++)
            rc = moore_builder_add_link(b, lu[e] * k + i, lv[e] * k + perm[i], err);
    }
    if (!rc)
        rc = clique_links(b, c, err);
    if (!rc) {
        rc = moore_builder_finish(b, out, err);
        b = NULL; /* finish frees it */
    }
    moore_builder_free(b);
    return rc;
}

static int xpander_random(const xpander_cfg *c, moore_graph **out, moore_error *err)
{
    int32_t *lu = NULL, *lv = NULL, *perm = NULL;
    moore_graph *best = NULL;
    double best_nt = 0;
    int rc = meta_links(c->meta, &lu, &lv, err);
    if (rc)
        goto done;
    perm = moore_malloc((size_t)c->k, sizeof *perm, err);
    if (!perm) {
        rc = core_alloc_code(err);
        goto done;
    }
    moore_rng base;
    moore_rng_seed(&base, (uint64_t)c->seed);
    for (int64_t t = 0; !rc && t < c->tries; t++) {
        moore_rng r;
        moore_rng_split(&base, (uint64_t)t, &r);
        moore_graph *g;
        rc = build_random(c, &r, lu, lv, perm, &g, err);
        if (rc)
            break;
        if (c->tries == 1) {
            best = g;
            break;
        }
        moore_spectrum s;
        rc = moore_spectrum_compute(g, NULL, MOORE_EIG_AUTO, &s, err);
        if (!rc && (!best || s.lambda_nontrivial < best_nt - 1e-10)) {
            moore_graph_free(best);
            best = g;
            best_nt = s.lambda_nontrivial;
        } else {
            moore_graph_free(g);
        }
    }
    if (!rc) {
        *out = best;
        best = NULL;
    }
done:
    free(lu);
    free(lv);
    free(perm);
    moore_graph_free(best);
    return rc;
}

/* Successive 2-lifts of the meta-graph, then renumbered into super-nodes. */
static int xpander_lift(const xpander_cfg *c, moore_graph **out, moore_error *err)
{
    moore_graph *g = NULL;
    moore_builder *b = NULL;
    int rc = moore_graph_copy(c->meta, &g, err);
    moore_rng base;
    moore_rng_seed(&base, (uint64_t)c->seed);
    for (int64_t level = 1; !rc && level < c->k; level *= 2) {
        moore_lift_options o;
        moore_lift_options_default(&o);
        o.seed = moore_rng_next(&base);
        o.tries = (int)c->tries;
        int8_t *signs = moore_malloc((size_t)g->m, sizeof *signs, err);
        double rho;
        moore_graph *h = NULL;
        rc = signs ? moore_lift_search(g, &o, signs, &rho, err) : core_alloc_code(err);
        if (!rc)
            rc = moore_lift_build(g, signs, &h, err);
        free(signs);
        moore_graph_free(g);
        g = h;
    }
    if (rc)
        goto done;
    int32_t nm = c->meta->n, k = (int32_t)c->k;
    rc = moore_builder_new(g->n, total_links(c), &b, err);
    for (int32_t x = 0; !rc && x < g->n; x++)
        for (int64_t j = g->offs[x]; !rc && j < g->offs[x + 1]; j++)
            if (g->adj[j] > x) {
                int32_t y = g->adj[j];
                rc = moore_builder_add_link(b, (x % nm) * k + x / nm, (y % nm) * k + y / nm, err);
            }
    moore_graph_free(g); /* before the CSR is made: the peak holds one graph */
    g = NULL;
    if (!rc)
        rc = clique_links(b, c, err);
    if (!rc) {
        rc = moore_builder_finish(b, out, err);
        b = NULL; /* finish frees it */
    }
done:
    moore_graph_free(g);
    moore_builder_free(b);
    return rc;
}

int fam_xpander_build(moore_params *p, moore_graph **out, moore_error *err)
{
    *out = NULL;
    xpander_cfg c;
    moore_graph *g = NULL;
    int rc = cfg_read(p, &c, err);
    if (rc)
        return rc; /* cfg_read frees what it read on failure */
    rc = moore_memory_guard(16.0 * (double)total_links(&c) * 2.0, "this Xpander", err);
    if (!rc)
        rc = c.lift ? xpander_lift(&c, &g, err) : xpander_random(&c, &g, err);
    int32_t k = (int32_t)c.k;
    for (int32_t v = 0; !rc && v < g->n; v++) {
        int32_t deg = switch_degree(&c, v / k);
        g->endpoints[v] = c.use_radix ? c.ep - deg : c.ep >= 0 ? c.ep : deg;
    }
    /* Labels name the super-node and the position in it. */
    for (int32_t v = 0; !rc && v < g->n; v++) {
        char label[32];
        snprintf(label, sizeof label, "%d.%d", (int)(v / k), (int)(v % k));
        rc = moore_graph_set_label(g, v, label, err);
    }
    if (!rc) {
        *out = g;
        g = NULL;
    }
    cfg_clear(&c);
    moore_graph_free(g);
    return rc;
}

/* Radix R split 1:1 as in the paper: d = ⌊R/2⌋ network ports, p = R − d. */
int fam_xpander_plan(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                       moore_error *err)
{
    int64_t d = radix / 2, p = radix - d;
    if (d < 2)
        return MOORE_OK;
    if (endpoints > 0) {
        int64_t k = (endpoints + (d + 1) * p - 1) / ((d + 1) * p);
        if (k * (d + 1) > MOORE_MAX_SWITCHES)
            return MOORE_OK;
        return fam_emit(emit, ctx, err, "xpander:d=%lld,k=%lld,radix=%d", (long long)d,
                                 (long long)k, (int)radix);
    }
    for (int64_t k = 1; k * (d + 1) <= 1000000; k *= 4) {
        int rc = fam_emit(emit, ctx, err, "xpander:d=%lld,k=%lld,radix=%d",
                                   (long long)d, (long long)k, (int)radix);
        if (rc)
            return rc;
    }
    return MOORE_OK;
}
