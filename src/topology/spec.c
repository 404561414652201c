/* spec.c — the topology layer (above families and io): a SPEC string
 * ("family:key=value,…") parsed into its family row and parameters, built,
 * or priced by its closed forms, and the topology argument that is either a
 * file or a SPEC (moore/family.h).
 *
 * This is where a graph gets its origin as data (moore/origin.h): a SPEC is
 * parsed once, and the built graph keeps the row, the parsed parameters and
 * their closed-form counts, so nothing above parses the SPEC again. A file
 * whose header names a family gets the same, from that header. After a build
 * every key must have been read by the builder (the getters in
 * src/families/params.c mark them), else it is refused as unknown. */
#include "moore/family.h"
#include "moore/suggest.h"
#include "moore/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Index of key among the pairs parsed so far, or -1 (not a getter: it must
 * not mark the key used). */
static int spec_key_index(const moore_params *p, const char *key)
{
    for (int i = 0; i < p->count; i++)
        if (strcmp(p->key[i], key) == 0)
            return i;
    return -1;
}

static int parse_pair(const char *fam, const char *pair, size_t len, moore_params *p,
                      moore_error *err)
{
    const char *eq = memchr(pair, '=', len);
    if (!eq || eq == pair)
        return moore_error_set(err, MOORE_EINVAL, "%s: '%.*s' is not key=value", fam, (int)len,
                               pair);
    size_t klen = (size_t)(eq - pair), vlen = len - klen - 1;
    if (p->count == MOORE_PARAMS_MAX)
        return moore_error_set(err, MOORE_EINVAL, "%s: more than %d parameters", fam,
                               MOORE_PARAMS_MAX);
    if (klen >= sizeof p->key[0] || vlen >= sizeof p->value[0])
        return moore_error_set(err, MOORE_EINVAL, "%s: parameter '%.*s' is too long", fam,
                               (int)len, pair);
    if (vlen == 0)
        return moore_error_set(err, MOORE_EINVAL, "%s: %.*s has no value", fam, (int)klen, pair);
    memcpy(p->key[p->count], pair, klen);
    p->key[p->count][klen] = '\0';
    memcpy(p->value[p->count], eq + 1, vlen);
    p->value[p->count][vlen] = '\0';
    if (spec_key_index(p, p->key[p->count]) >= 0)
        return moore_error_set(err, MOORE_EINVAL, "%s: key '%s' given twice", fam,
                               p->key[p->count]);
    p->count++;
    return MOORE_OK;
}

/* " (did you mean 'X'?)" for an unknown family name (moore/suggest.h). */
static const char *spec_family_hint(const char *name, char *buf, size_t len)
{
    const char *names[128];
    int n = 0;
    for (const moore_family *f = moore_families(); f->name && n < 127; f++)
        names[n++] = f->name;
    names[n] = NULL;
    return moore_suggest_text(name, names, buf, len);
}

/* The same for an unknown key of family f. */
static const char *spec_key_hint(const moore_family *f, const char *key, char *buf, size_t len)
{
    const char *names[64];
    int n = 0;
    for (const moore_param_info *i = f->params; i && i->key && n < 63; i++)
        names[n++] = i->key;
    names[n] = NULL;
    return moore_suggest_text(key, names, buf, len);
}

static int key_listed(const moore_family *f, const char *key)
{
    for (const moore_param_info *i = f->params; i && i->key; i++)
        if (strcmp(i->key, key) == 0)
            return 1;
    return 0;
}

/* What the families that name another topology load it with (origin.h). */
static const moore_loader spec_loader = { moore_topology_load };

int moore_spec_parse(const char *spec, const moore_family **fam, moore_params *params,
                     moore_error *err)
{
    memset(params, 0, sizeof *params);
    params->loader = &spec_loader;
    *fam = NULL;
    const char *colon = strchr(spec, ':');
    size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
    char name[64];
    if (nlen == 0 || nlen >= sizeof name)
        return moore_error_set(err, MOORE_EINVAL, "'%s' does not start with a family name", spec);
    memcpy(name, spec, nlen);
    name[nlen] = '\0';
    const moore_family *f = moore_family_find(name);
    char hint[96];
    if (!f)
        return moore_error_set(err, MOORE_EINVAL, "unknown family '%s'%s (see 'moore families')",
                               name, spec_family_hint(name, hint, sizeof hint));
    params->family = f->name;
    if (colon) {
        const char *s = colon + 1;
        if (*s == '\0')
            return moore_error_set(err, MOORE_EINVAL, "%s: nothing after ':'", f->name);
        while (*s) {
            /* of= (lift:, expand:) is the last key and holds a whole SPEC */
            const char *comma = strncmp(s, "of=", 3) == 0 ? NULL : strchr(s, ',');
            size_t len = comma ? (size_t)(comma - s) : strlen(s);
            int rc = parse_pair(f->name, s, len, params, err);
            if (rc)
                return rc;
            if (!key_listed(f, params->key[params->count - 1]))
                return moore_error_set(err, MOORE_EINVAL,
                                       "%s: unknown key '%s'%s (see 'moore families')", f->name,
                                       params->key[params->count - 1],
                                       spec_key_hint(f, params->key[params->count - 1], hint,
                                                     sizeof hint));
            s += len + (comma ? 1 : 0);
            if (comma && *s == '\0')
                return moore_error_set(err, MOORE_EINVAL, "%s: trailing ',' in '%s'", f->name,
                                       spec);
        }
    }
    *fam = f;
    return MOORE_OK;
}

static int check_all_used(const moore_params *p, moore_error *err)
{
    for (int i = 0; i < p->count; i++)
        if (!p->used[i])
            return moore_error_set(err, MOORE_EINVAL, "%s: key '%s' does not apply here",
                                   p->family, p->key[i]);
    return MOORE_OK;
}

/* Messages from shared code (the builder, the memory guard) do not know which
 * SPEC asked; prefix it so the user sees what was refused. */
static int name_spec(const char *spec, const char *family, int rc, moore_error *err)
{
    if (err && strncmp(err->msg, family, strlen(family)) != 0) {
        char msg[MOORE_ERRMSG_LEN];
        snprintf(msg, sizeof msg, "%s", err->msg);
        moore_error_set(err, rc, "%s: %s", spec, msg);
    }
    return rc;
}

/* The closed-form counts (64-bit) checked against what moore can build
 * before anything uses them: a builder numbers switches with int32_t, so a
 * count past MOORE_MAX_SWITCHES would overflow inside it. */
static int check_counts(const moore_family *f, const moore_counts *c, moore_error *err)
{
    if (c->switches < 0 || c->switches > MOORE_MAX_SWITCHES)
        return moore_error_set(err, MOORE_ETOOBIG, "%s: %lld switches, more than moore can build "
                               "(%d)", f->name, (long long)c->switches, MOORE_MAX_SWITCHES);
    if (c->links < 0 || c->endpoints < 0 || c->degree_min < 0 || c->degree_max < 0)
        return moore_error_set(err, MOORE_ETOOBIG, "%s: a count overflows (links %lld, "
                               "endpoints %lld)", f->name, (long long)c->links,
                               (long long)c->endpoints);
    return MOORE_OK;
}

/* The row's closed forms for parameters as given, read with fresh used
 * flags and checked. A key the counts do not read (such as a seed) means
 * they do not fully describe the graph: with complete NULL that is refused,
 * otherwise *complete says whether they read every key given. */
static int spec_counts_of(const moore_family *f, const moore_params *given, moore_counts *out,
                          int *complete, moore_error *err)
{
    if (!f->counts)
        return moore_error_set(err, MOORE_EINVAL, "%s: no closed-form counts", f->name);
    moore_params p = *given;
    memset(p.used, 0, sizeof p.used);
    memset(out, 0, sizeof *out);
    out->diameter = -1;
    int rc = f->counts(&p, out, err);
    if (!rc)
        rc = check_counts(f, out, err);
    if (rc || !complete)
        return rc ? rc : check_all_used(&p, err);
    moore_error quiet;
    *complete = check_all_used(&p, &quiet) == MOORE_OK;
    return MOORE_OK;
}

/* The counts of f at p for a graph's origin: NULL when the family has none
 * or they do not describe p fully. */
static const moore_counts *spec_origin_counts(const moore_family *f, const moore_params *p,
                                              moore_counts *c)
{
    int complete = 0;
    moore_error quiet;
    return f->counts && spec_counts_of(f, p, c, &complete, &quiet) == MOORE_OK && complete
               ? c : NULL;
}

/* moore_spec_build, with a progress callback for the family's builder. */
static int spec_build(const char *spec, void (*progress)(void *, const char *, double),
                      void *progress_ctx, moore_graph **out, moore_error *err)
{
    const moore_family *f;
    moore_params p;
    moore_counts c;
    const moore_counts *typed = NULL;
    moore_graph *g = NULL;
    int complete = 0;
    *out = NULL;
    int rc = moore_spec_parse(spec, &f, &p, err);
    if (rc)
        return rc;
    /* Counts first: a builder must never see sizes it cannot number. */
    if (f->counts && (rc = spec_counts_of(f, &p, &c, &complete, err)))
        goto done;
    typed = complete ? &c : NULL;
    p.progress = progress;
    p.progress_ctx = progress_ctx;
    rc = f->build(&p, &g, err);
    p.progress = NULL;        /* the origin keeps no caller's callback */
    p.progress_ctx = NULL;
    if (!rc)
        rc = check_all_used(&p, err);
    if (!rc && !g->family) {
        char buf[MOORE_PARAMS_MAX * 130];
        moore_params_format(&p, buf, sizeof buf);
        rc = moore_graph_set_origin(g, f->name, buf[0] ? buf : NULL, err);
    }
    if (rc)
        goto done;
    moore_graph_set_family(g, f, &p, typed);
    *out = g;
    g = NULL;
done:
    moore_graph_free(g);
    return rc ? name_spec(spec, f->name, rc, err) : MOORE_OK;
}

int moore_spec_build(const char *spec, moore_graph **out, moore_error *err)
{
    return spec_build(spec, NULL, NULL, out, err);
}

int moore_spec_counts(const char *spec, moore_counts *out, moore_error *err)
{
    const moore_family *f;
    moore_params p;
    int rc = moore_spec_parse(spec, &f, &p, err);
    return rc ? rc : spec_counts_of(f, &p, out, NULL, err);
}

/* 1 when a and b have the same switches and exactly the same links. */
static int spec_same_links(const moore_graph *a, const moore_graph *b)
{
    return a->n == b->n && a->m == b->m &&
           memcmp(a->offs, b->offs, ((size_t)a->n + 1) * sizeof *a->offs) == 0 &&
           memcmp(a->adj, b->adj, (size_t)(2 * a->m) * sizeof *a->adj) == 0;
}

/* A file keeps its family and parameters but not the switch names the family
 * gives (rack placement, group-aware job placement and the Slurm topology read
 * them): the family's graph is built again and, when its links are exactly
 * the file's, its labels are taken over. A file that is not that graph (an
 * edited one) stays unlabelled; the rebuild is skipped when the file's size
 * is not the family's closed form. Best effort: a failure changes nothing. */
static void spec_adopt_labels(moore_graph *g, const moore_family *f, const moore_params *given,
                              const moore_counts *c)
{
    if (g->labels || !f->labels || (c && (c->switches != g->n || c->links != g->m)))
        return;
    moore_params p = *given;
    memset(p.used, 0, sizeof p.used);
    moore_graph *twin = NULL;
    moore_error quiet;
    if (f->build(&p, &twin, &quiet) == MOORE_OK && twin->labels && spec_same_links(twin, g)) {
        g->labels = twin->labels;
        twin->labels = NULL;
    }
    moore_graph_free(twin);
}

/* A file whose header names a family (what moore writes): its origin gets
 * the row, parameters and counts from that header, parsed here once, and the
 * family's switch names. A header that does not parse leaves the file a
 * plain graph. */
static void spec_resolve_file(moore_graph *g)
{
    const moore_family *f;
    moore_params p;
    moore_counts c;
    moore_error quiet;
    const char *spec = moore_graph_spec(g);
    if (!spec || moore_spec_parse(spec, &f, &p, &quiet) != MOORE_OK)
        return;
    const moore_counts *known = spec_origin_counts(f, &p, &c);
    moore_graph_set_family(g, f, &p, known);
    spec_adopt_labels(g, f, &p, known);
}

static int is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int moore_topology_load(const char *arg, moore_graph **out, moore_error *err)
{
    return moore_topology_load_progress(arg, NULL, NULL, out, err);
}

int moore_topology_load_progress(const char *arg,
                                 void (*progress)(void *ctx, const char *what, double fraction),
                                 void *progress_ctx, moore_graph **out, moore_error *err)
{
    *out = NULL;
    if (!arg || !*arg)
        return moore_error_set(err, MOORE_EINVAL, "empty topology argument");
    if (is_regular_file(arg)) {
        int rc = moore_graph_read(arg, out, err);
        if (!rc)
            spec_resolve_file(*out);
        return rc;
    }
    if (strncmp(arg, "file:", 5) == 0)   /* a file with endpoints: filespec.c */
        return moore_file_spec_load(arg, out, err);
    char name[64];
    size_t n = strcspn(arg, ":");
    if (n < sizeof name) {
        memcpy(name, arg, n);
        name[n] = '\0';
        if (moore_family_find(name) || strchr(arg, ':'))
            return spec_build(arg, progress, progress_ctx, out, err);
    }
    struct stat st;
    if (stat(arg, &st) == 0)
        return moore_error_set(err, MOORE_EINVAL, "'%s' is not a regular file", arg);
    if (strpbrk(arg, "/."))
        return moore_error_set(err, MOORE_EIO, "cannot open '%s': no such file", arg);
    return moore_error_set(err, MOORE_EINVAL,
                           "'%s' is neither a file nor a family (see 'moore families')", arg);
}

