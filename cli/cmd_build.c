/* cmd_build.c — `moore build TOPO [-o FILE] [-f FORMAT]`. */
#include "cli.h"

#include <string.h>

const char cmd_build_usage[] =
    "usage: moore build TOPO [-o FILE] [-f FORMAT]\n\n"
    "Builds TOPO (a SPEC such as slimfly:q=13 or a topology file) and writes it.\n\n"
    "  -o, --output FILE   output file (default: standard output); written whole or not at all\n"
    "  -f, --format NAME   output format (default edgelist); 'moore build --formats' lists them\n"
    "      --formats       list the output formats\n";

int cmd_build(int argc, char **argv)
{
    cli_args a;
    const char *topo = NULL, *out = "-", *format = "edgelist";
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_option(&a, "--output", "-o"))
            out = a.value;
        else if (cli_option(&a, "--format", "-f"))
            format = a.value;
        else if (cli_flag(&a, "--formats", NULL)) {
            for (const moore_format *f = moore_formats(); f->name; f++)
                printf("%-10s %s\n", f->name, f->help);
            return 0;
        } else if (cli_positional(&a, &topo))
            return 2;
    }
    if (a.bad)
        return 2;
    if (!topo)
        return cli_usage_error("build: missing TOPO (see 'moore build --help')");
    moore_graph *g;
    int status = cli_load_for_output(topo, format, &g);
    if (status)
        return status;
    moore_error err;
    moore_error_clear(&err);
    int rc = moore_graph_write(g, out, format, &err);
    moore_graph_free(g);
    return rc ? cli_fail(&err) : 0;
}
