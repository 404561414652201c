/* cmd_iso.c — `moore iso A B [--json] [--match-endpoints] [--mapping FILE]`: are two
 * topologies the same graph? Canonical forms by Traces (symmetry.h). */
#include "cli.h"

#include <cjson/cJSON.h>
#include <string.h>
#include "moore/symmetry.h"

#include <stdlib.h>

const char cmd_iso_usage[] =
    "usage: moore iso A B [--json] [--match-endpoints] [--mapping FILE]\n\n"
    "Tells whether topologies A and B (SPECs or files) are isomorphic switch graphs,\n"
    "by comparing canonical forms (nauty's Traces).\n\n"
    "  --json             print {\"a\": A, \"b\": B, \"isomorphic\": true|false}\n"
    "  --match-endpoints  also require endpoint counts to correspond\n"
    "  --mapping FILE     when isomorphic, write one 'a b' line per switch: switch a of A\n"
    "                     is switch b of B (every link u-v of A is map(u)-map(v) in B)\n";

static int write_mapping(const char *path, const char *a, const char *b, const int32_t *map,
                         int32_t n, moore_error *err)
{
    moore_atomic_file af;
    int rc = moore_atomic_open(path, &af, err);
    if (rc)
        return rc;
    fprintf(af.f, "# moore isomorphism\n# from: %s\n# to: %s\n", a, b);
    for (int32_t v = 0; v < n; v++)
        fprintf(af.f, "%d %d\n", (int)v, (int)map[v]);
    return moore_atomic_commit(&af, err);
}

/* {"a": A, "b": B, "isomorphic": bool} (docs/json.md). */
static int print_json(const char *const *topo, int iso)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "a", topo[0]);
    cJSON_AddStringToObject(o, "b", topo[1]);
    cJSON_AddBoolToObject(o, "isomorphic", iso);
    return cli_json_print(o);
}

int cmd_iso(int argc, char **argv)
{
    cli_args a;
    const char *topo[2] = { NULL, NULL }, *mapping = NULL;
    int json = 0, ntopo = 0;
    moore_symmetry_options so;
    moore_symmetry_options_default(&so);
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_flag(&a, "--json", NULL))
            json = 1;
        else if (cli_flag(&a, "--match-endpoints", NULL))
            so.respect_endpoints = 1;
        else if (strncmp(a.argv[a.i], "--endpoints", 11) == 0)
            return cli_usage_error("iso: --endpoints N is an endpoint count (plan, compare); "
                                   "to require endpoint counts to correspond use "
                                   "--match-endpoints");
        else if (cli_option(&a, "--mapping", NULL))
            mapping = a.value;
        else if (a.argv[a.i][0] == '-' && a.argv[a.i][1])
            return cli_positional(&a, &topo[0]);  /* one line: unknown option + hint */
        else if (ntopo == 2)
            return cli_usage_error("iso: unexpected argument '%s'", a.argv[a.i]);
        else
            topo[ntopo++] = a.argv[a.i];
    }
    if (a.bad)
        return 2;
    if (ntopo < 2)
        return cli_usage_error("iso: needs two topologies A and B (see 'moore iso --help')");
    moore_error err;
    moore_error_clear(&err);
    moore_graph *g[2] = { NULL, NULL };
    int32_t *map = NULL;
    int iso = 0, rc = cli_topology_load(topo[0], &g[0], &err);
    if (!rc)
        rc = cli_topology_load(topo[1], &g[1], &err);
    if (!rc && mapping && !(map = moore_malloc((size_t)(g[0]->n ? g[0]->n : 1), sizeof *map,
                                                &err)))
        rc = MOORE_ENOMEM;
    if (!rc)
        rc = moore_isomorphic(g[0], g[1], &so, &iso, map, &err);
    if (!rc && mapping && iso)
        rc = write_mapping(mapping, topo[0], topo[1], map, g[0]->n, &err);
    if (!rc) {
        if (json)
            rc = print_json(topo, iso);
        else
            printf("%s\n", iso ? "isomorphic" : "not isomorphic");
    }
    free(map);
    moore_graph_free(g[0]);
    moore_graph_free(g[1]);
    return rc ? cli_fail(&err) : 0;
}
