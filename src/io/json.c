/* json.c — the topology as one JSON object, for scripts and notebooks.
 *
 * Schema (docs/formats.md), keys always in this order:
 *   "format": "moore-topology", "version": 1,
 *   "family": name or null, "params": "k=v,..." or null (SPEC = family:params),
 *   "switches": N,
 *   "endpoints": [p_0, ..., p_{N-1}],        (servers per switch)
 *   "labels": [label_0 or null, ...]   (only when the graph has labels),
 *   "links": [[u, v], ...]             (one pair per link, u < v, sorted)
 *
 * Strings are escaped by cJSON (after cleaning to valid UTF-8), but the
 * arrays are streamed: a cJSON tree would cost ~150 bytes per link, several
 * GiB for the largest topologies, for output that is a fixed layout anyway.
 * One link per line keeps the file diffable and byte-stable. */
#include "io/escape.h"
#include "moore/io.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

/* A JSON string (or null for s == NULL), escaped by cJSON. */
static int put_string(FILE *out, const char *s, moore_error *err)
{
    if (!s) {
        fputs("null", out);
        return MOORE_OK;
    }
    char *clean = io_clean_text(s);
    cJSON *item = clean ? cJSON_CreateString(clean) : NULL;
    char *text = item ? cJSON_PrintUnformatted(item) : NULL;
    if (text)
        fputs(text, out);
    free(text);
    cJSON_Delete(item);
    free(clean);
    return text ? MOORE_OK : moore_error_set(err, MOORE_ENOMEM, "json: out of memory");
}

int moore_write_json(const moore_graph *g, FILE *out, moore_error *err)
{
    int rc;
    fputs("{\n  \"format\": \"moore-topology\",\n  \"version\": 1,\n  \"family\": ", out);
    if ((rc = put_string(out, g->family, err)))
        return rc;
    fputs(",\n  \"params\": ", out);
    if ((rc = put_string(out, g->params && *g->params ? g->params : NULL, err)))
        return rc;
    fprintf(out, ",\n  \"switches\": %d,\n", (int)g->n);
    fputs("  \"endpoints\": [", out);
    for (int32_t v = 0; v < g->n; v++)
        fprintf(out, "%s%d", v ? ", " : "", (int)g->endpoints[v]);
    fputs("],\n", out);
    if (g->labels) {
        fputs("  \"labels\": [", out);
        for (int32_t v = 0; v < g->n; v++) {
            if (v)
                fputs(", ", out);
            if ((rc = put_string(out, g->labels[v], err)))
                return rc;
        }
        fputs("],\n", out);
    }
    fputs("  \"links\": [", out);
    const char *sep = "\n    ";
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->offs[u]; k < g->offs[u + 1]; k++)
            if (g->adj[k] > u) {
                fprintf(out, "%s[%d, %d]", sep, (int)u, (int)g->adj[k]);
                sep = ",\n    ";
            }
    fputs(g->m ? "\n  ]\n}\n" : "]\n}\n", out);
    return ferror(out) ? moore_error_set(err, MOORE_EIO, "json: write failed") : MOORE_OK;
}
