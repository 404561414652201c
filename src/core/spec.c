/* spec.c — SPEC strings ("family:key=value,…"), parameter getters, and the
 * topology argument that is either a file or a SPEC.
 *
 * Getters mark keys as used; after a build, any key the family never read is
 * refused as unknown. That way a typo such as `slimfly:Q=5` fails loudly
 * instead of silently building the default. */
#include "moore/family.h"
#include "moore/parse.h"
#include "moore/suggest.h"
#include "moore/io.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int find_key(const moore_params *p, const char *key)
{
    for (int i = 0; i < p->count; i++)
        if (strcmp(p->key[i], key) == 0)
            return i;
    return -1;
}

int moore_params_has(moore_params *p, const char *key)
{
    int i = find_key(p, key);
    if (i >= 0)
        p->used[i] = 1;
    return i >= 0;
}

const char *moore_params_str(moore_params *p, const char *key, const char *def)
{
    int i = find_key(p, key);
    if (i < 0)
        return def;
    p->used[i] = 1;
    return p->value[i];
}

/* The message for a value that breaks the number rule (include/moore/parse.h)
 * or its range; `rule` says what was expected, `range` is "lo..hi". */
static int param_refused(const moore_params *p, const char *key, const char *s,
                         moore_parse_status st, const char *rule, const char *range,
                         moore_error *err)
{
    if (st == MOORE_PARSE_SYNTAX)
        return moore_error_set(err, MOORE_EINVAL, "%s: %s=%s is not %s", p->family, key, s, rule);
    return moore_error_set(err, MOORE_EINVAL, "%s: %s=%s is outside %s", p->family, key, s,
                           range);
}

int moore_params_int(moore_params *p, const char *key, int64_t def, int64_t lo,
                     int64_t hi, int64_t *out, moore_error *err)
{
    const char *s = moore_params_str(p, key, NULL);
    *out = def;
    if (!s)
        return MOORE_OK;
    moore_parse_status st = moore_parse_int(s, lo, hi, out);
    if (st == MOORE_PARSE_OK)
        return MOORE_OK;
    char range[64];
    snprintf(range, sizeof range, "%lld..%lld", (long long)lo, (long long)hi);
    return param_refused(p, key, s, st,
                         "an integer (decimal digits, no '+', blanks or leading zeros)", range,
                         err);
}

int moore_params_double(moore_params *p, const char *key, double def, double lo,
                        double hi, double *out, moore_error *err)
{
    const char *s = moore_params_str(p, key, NULL);
    *out = def;
    if (!s)
        return MOORE_OK;
    moore_parse_status st = moore_parse_number(s, lo, hi, out);
    if (st == MOORE_PARSE_OK)
        return MOORE_OK;
    char range[64];
    snprintf(range, sizeof range, "%g..%g", lo, hi);
    return param_refused(p, key, s, st, "a number (such as 0.25 or 1e-3)", range, err);
}

int moore_params_format(const moore_params *p, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->count; i++) {
        int w = snprintf(buf + used, len - used, "%s%s=%s", i ? "," : "", p->key[i], p->value[i]);
        if (w < 0 || (size_t)w >= len - used)
            return MOORE_EINVAL;
        used += (size_t)w;
    }
    return MOORE_OK;
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
    if (find_key(p, p->key[p->count]) >= 0)
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

int moore_spec_parse(const char *spec, const moore_family **fam, moore_params *params,
                     moore_error *err)
{
    memset(params, 0, sizeof *params);
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

/* The family's counts for p (when it has closed forms), checked. */
static int counts_checked(const moore_family *f, moore_params *p, moore_counts *out,
                          moore_error *err)
{
    memset(out, 0, sizeof *out);
    out->diameter = -1;
    int rc = f->counts(p, out, err);
    return rc ? rc : check_counts(f, out, err);
}

int moore_spec_build(const char *spec, moore_graph **out, moore_error *err)
{
    const moore_family *f;
    moore_params p;
    *out = NULL;
    int rc = moore_spec_parse(spec, &f, &p, err);
    if (rc)
        return rc;
    moore_counts c;
    if (f->counts && (rc = counts_checked(f, &p, &c, err)))
        return name_spec(spec, f->name, rc, err);
    moore_graph *g = NULL;
    rc = f->build(&p, &g, err);
    if (!rc)
        rc = check_all_used(&p, err);
    if (!rc && !g->family) {
        char buf[MOORE_PARAMS_MAX * 130];
        moore_params_format(&p, buf, sizeof buf);
        rc = moore_graph_set_origin(g, f->name, buf[0] ? buf : NULL, err);
    }
    if (rc) {
        moore_graph_free(g);
        return name_spec(spec, f->name, rc, err);
    }
    *out = g;
    return MOORE_OK;
}

int moore_spec_counts(const char *spec, moore_counts *out, moore_error *err)
{
    const moore_family *f;
    moore_params p;
    int rc = moore_spec_parse(spec, &f, &p, err);
    if (rc)
        return rc;
    if (!f->counts)
        return moore_error_set(err, MOORE_EINVAL, "%s: no closed-form counts", f->name);
    rc = counts_checked(f, &p, out, err);
    return rc ? rc : check_all_used(&p, err);
}

static int is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int moore_topology_load(const char *arg, moore_graph **out, moore_error *err)
{
    *out = NULL;
    if (!arg || !*arg)
        return moore_error_set(err, MOORE_EINVAL, "empty topology argument");
    if (is_regular_file(arg))
        return moore_graph_read(arg, out, err);
    if (strncmp(arg, "file:", 5) == 0)   /* a file with endpoints: src/core/filespec.c */
        return moore_file_spec_load(arg, out, err);
    char name[64];
    size_t n = strcspn(arg, ":");
    if (n < sizeof name) {
        memcpy(name, arg, n);
        name[n] = '\0';
        if (moore_family_find(name) || strchr(arg, ':'))
            return moore_spec_build(arg, out, err);
    }
    struct stat st;
    if (stat(arg, &st) == 0)
        return moore_error_set(err, MOORE_EINVAL, "'%s' is not a regular file", arg);
    if (strpbrk(arg, "/."))
        return moore_error_set(err, MOORE_EIO, "cannot open '%s': no such file", arg);
    return moore_error_set(err, MOORE_EINVAL,
                           "'%s' is neither a file nor a family (see 'moore families')", arg);
}

int moore_family_resolve_endpoints(moore_params *p, int32_t degree, int32_t def_p,
                                   int32_t *out, moore_error *err)
{
    int64_t v;
    int rc;
    if (moore_params_has(p, "p") && moore_params_has(p, "radix"))
        return moore_error_set(err, MOORE_EINVAL, "%s: give p= or radix=, not both", p->family);
    if (moore_params_has(p, "p")) {
        rc = moore_params_int(p, "p", def_p, 0, 1 << 20, &v, err);
        if (rc)
            return rc;
        *out = (int32_t)v;
        return MOORE_OK;
    }
    if (moore_params_has(p, "radix")) {
        rc = moore_params_int(p, "radix", 0, 1, 1 << 20, &v, err);
        if (rc)
            return rc;
        if (v - degree < 1)
            return moore_error_set(err, MOORE_EINVAL,
                                   "%s: radix=%lld leaves no port for endpoints (network degree "
                                   "%d needs radix >= %d)",
                                   p->family, (long long)v, (int)degree, (int)degree + 1);
        *out = (int32_t)(v - degree);
        return MOORE_OK;
    }
    *out = def_p;
    return MOORE_OK;
}

int32_t moore_graph_multiplicity(const moore_graph *g)
{
    if (!g->family || !g->params || !moore_family_find(g->family))
        return 1;
    char spec[MOORE_ERRMSG_LEN];
    moore_counts c;
    if (snprintf(spec, sizeof spec, "%s:%s", g->family, g->params) >= (int)sizeof spec ||
        moore_spec_counts(spec, &c, NULL) != MOORE_OK || c.switches != g->n || c.links != g->m)
        return 1;
    return c.multiplicity > 1 ? c.multiplicity : 1;
}
