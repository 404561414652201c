/* filespec.c — the `file:` SPEC: a topology file with the endpoint override a
 * family SPEC takes (docs/formats.md, "Endpoints for files"):
 *     file:PATH,p=P        P endpoints on every switch
 *     file:PATH,radix=R    R minus its network degree on every switch
 * The graph read keeps the file's links and switch order; its origin becomes
 * family "file" with params "PATH,p=P", so the SPEC that rebuilds it is the
 * one given (every result's `topology`, docs/json.md), and its provenance
 * (moore/origin.h) keeps the path, the format and the override as data. */
#include "core/alloc.h"
#include "moore/family.h"
#include "moore/graph.h"
#include "moore/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits "PATH,key=V": the last ",p=" or ",radix=" names the override. */
static int filespec_split(const char *rest, char *path, size_t plen, const char **key,
                          long long *value, moore_error *err)
{
    const char *cut = strrchr(rest, ',');
    if (!cut)
        return moore_error_set(err, MOORE_EINVAL, "file:%s: give p=P or radix=R after the path "
                               "(file:PATH,p=P)", rest);
    const char *kv = cut + 1;
    *key = strncmp(kv, "p=", 2) == 0 ? "p" : strncmp(kv, "radix=", 6) == 0 ? "radix" : NULL;
    if (!*key)
        return moore_error_set(err, MOORE_EINVAL, "file: unknown key in '%s' (known: p, radix)",
                               kv);
    const char *v = kv + strlen(*key) + 1;
    char *end;
    *value = strtoll(v, &end, 10);
    if (!*v || *end || *value < 0 || *value > (1 << 20))
        return moore_error_set(err, MOORE_EINVAL, "file: %s='%s' is not an integer in 0..%d",
                               *key, v, 1 << 20);
    if ((size_t)(cut - rest) >= plen || cut == rest)
        return moore_error_set(err, MOORE_EINVAL, "file:%s: the path is empty or too long", rest);
    snprintf(path, plen, "%.*s", (int)(cut - rest), rest);
    return MOORE_OK;
}

/* Endpoints R - degree(v) on every switch, refused when a switch has no port left. */
static int filespec_radix(moore_graph *g, long long radix, moore_error *err)
{
    int32_t *p = NULL;
    int rc = MOORE_OK;
    if (!(p = moore_malloc((size_t)(g->n ? g->n : 1), sizeof *p, err)))
        return core_alloc_code(err);
    for (int32_t v = 0; v < g->n && !rc; v++) {
        int32_t d = (int32_t)(g->offs[v + 1] - g->offs[v]);
        if (radix - d < 0)
            rc = moore_error_set(err, MOORE_EINVAL, "file: radix=%lld is below switch %d's "
                                 "network degree %d", radix, v, d);
        p[v] = (int32_t)(radix - d);
    }
    if (!rc)
        rc = moore_graph_set_endpoints(g, p, err);
    free(p);
    return rc;
}

int moore_file_spec_load(const char *spec, moore_graph **out, moore_error *err)
{
    char path[4096], params[4200];
    const char *key = NULL;
    long long value = 0;
    moore_graph *g = NULL;
    *out = NULL;
    int rc = filespec_split(spec + strlen("file:"), path, sizeof path, &key, &value, err);
    if (!rc)
        rc = moore_graph_read(path, &g, err);
    if (!rc)
        rc = key[0] == 'p' ? moore_graph_set_endpoints_uniform(g, (int32_t)value, err)
                           : filespec_radix(g, value, err);
    snprintf(params, sizeof params, "%s,%s=%lld", path, key ? key : "p", value);
    if (!rc)
        rc = moore_graph_set_origin(g, "file", params, err);
    if (rc)
        goto done;
    g->origin.endpoints_key = key;
    g->origin.endpoints_value = value;
    *out = g;
    g = NULL;
done:
    moore_graph_free(g);
    return rc;
}
