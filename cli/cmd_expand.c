/* cmd_expand.c — `moore expand TOPO --add M [--seed S] -o FILE`: Jellyfish's
 * incremental expansion (docs/families.md): each new switch takes ⌊d/2⌋ random
 * links u–v and becomes u–w–v. */
#include "cli.h"

#include <string.h>

const char cmd_expand_usage[] =
    "usage: moore expand TOPO --add M [--seed S] [--degree D] [-o FILE] [-f FORMAT]\n\n"
    "Adds M switches to TOPO the way Jellyfish grows: each new switch removes floor(D/2)\n"
    "random links u-v (u, v not yet its neighbours) and links u and v to itself. D defaults\n"
    "to the largest degree in TOPO; new switches get endpoints that keep the radix.\n\n"
    "  --add M            switches to add (required)\n"
    "  --seed S           seed of the random choices (default 1)\n"
    "  --degree D         network degree of the new switches\n"
    "  -o, --output FILE  where the expanded topology goes (default: standard output)\n"
    "  -f, --format NAME  output format (default edgelist)\n";

int cmd_expand(int argc, char **argv)
{
    cli_args a;
    const char *topo = NULL, *out = "-", *format = "edgelist";
    long long add = -1, seed = 1, degree = 0;
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_option(&a, "--output", "-o"))
            out = a.value;
        else if (cli_option(&a, "--format", "-f"))
            format = a.value;
        else if (cli_option(&a, "--add", NULL))
            cli_int_value(&a, "--add", 1, MOORE_MAX_SWITCHES, &add);
        else if (cli_option(&a, "--seed", NULL))
            cli_int_value(&a, "--seed", 0, (long long)9e18, &seed);
        else if (cli_option(&a, "--degree", NULL))
            cli_int_value(&a, "--degree", 2, 1 << 20, &degree);
        else if (cli_positional(&a, &topo))
            return 2;
    }
    if (a.bad)
        return 2;
    if (!topo)
        return cli_usage_error("expand: missing TOPO (see 'moore expand --help')");
    if (add < 0)
        return cli_usage_error("expand: --add M is required");
    moore_graph *g, *h;
    int status = cli_load_for_output(topo, format, &g);
    if (status)
        return status;
    moore_error err;
    moore_error_clear(&err);
    int rc = moore_jellyfish_expand(g, (int32_t)add, (int32_t)degree, (uint64_t)seed, &h, &err);
    if (!rc) {
        fprintf(strcmp(out, "-") == 0 ? stderr : stdout,
                "expanded %d -> %d switches, %lld -> %lld links\n", (int)g->n, (int)h->n,
                (long long)g->m, (long long)h->m);
        rc = moore_graph_write(h, out, format, &err);
        moore_graph_free(h);
    }
    moore_graph_free(g);
    return rc ? cli_fail(&err) : 0;
}
