/* lib_consumer.c — a program outside the tree, as a user would write one: it
 * includes <moore/moore.h>, links libmoore through pkg-config and checks a
 * closed form (tests/lib_install.sh builds and runs it against an installed
 * copy). Slim Fly q=5 is the Hoffman-Singleton graph: 50 switches of degree 7,
 * 175 links, diameter 2 (docs/slimfly.md). Prints the version it was built
 * with and exits 0 when everything holds. */
#include <moore/moore.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    moore_error err;
    moore_error_clear(&err);
    moore_graph *g = NULL;
    if (moore_spec_build("slimfly:q=5", &g, &err)) {
        fprintf(stderr, "lib_consumer: %s\n", err.msg);
        return 1;
    }
    int ok = g->n == 50 && g->m == 175 && moore_graph_is_regular(g) &&
             moore_graph_degree_max(g) == 7;
    moore_graph_free(g);
    printf("moore %s (%d.%d.%d): %s\n", MOORE_VERSION, MOORE_VERSION_MAJOR, MOORE_VERSION_MINOR,
           MOORE_VERSION_PATCH, ok ? "ok" : "WRONG GRAPH");
    return ok ? 0 : 1;
}
