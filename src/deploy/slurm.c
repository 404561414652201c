/* slurm.c — Slurm's topology description of a fabric, so the scheduler
 * places a job's nodes close together: the tree form (topology.conf, one
 * leaf per moore switch with its servers, one logical upper switch per
 * family group over its leaves, one top over the groups) and, when the
 * family has groups, the block form (BlockName per group). The upper levels
 * are logical: Slurm only uses them to rank placements (docs/deploy.md). */
#include <stdlib.h>
#include <string.h>
#include "deploy_internal.h"
#include "core/alloc.h"
#include "moore/io.h"
#include "moore/layout.h"

/* Writes "prefix[a-b]" (or "prefixa" for one) for the range a..b. */
static void range(FILE *out, const char *prefix, int64_t a, int64_t b)
{
    if (a == b)
        fprintf(out, "%s%lld", prefix, (long long)a);
    else
        fprintf(out, "%s[%lld-%lld]", prefix, (long long)a, (long long)b);
}

/* The switches of group k as Slurm's hostlist "s[0-4,25-29]". */
static void group_switches(FILE *out, const int32_t *rack, int32_t n, int32_t k)
{
    int first = 1;
    fputs("s[", out);
    for (int32_t v = 0; v < n; v++) {
        if (rack[v] != k)
            continue;
        int32_t w = v;
        while (w + 1 < n && rack[w + 1] == k)
            w++;
        fprintf(out, first ? "%d" : ",%d", (int)v);
        if (w > v)
            fprintf(out, "-%d", (int)w);
        first = 0;
        v = w;
    }
    fputs("]", out);
}

static int grouped(const moore_layout *l)
{
    return strcmp(l->placement, "metis") && strcmp(l->placement, "single") && l->groups > 1;
}

static void write_tree(FILE *out, const moore_graph *g, const moore_layout *l, const char *prefix,
                       const int64_t *first)
{
    fprintf(out, "# Slurm topology.conf (topology/tree) for %s, written by moore\n",
            g->origin.spec ? g->origin.spec : "a topology file");
    for (int32_t s = 0; s < g->n; s++) {
        fprintf(out, "SwitchName=s%d", (int)s);
        if (g->endpoints[s] > 0) {
            fputs(" Nodes=", out);
            range(out, prefix, first[s], first[s + 1] - 1);
        }
        fputc('\n', out);
    }
    if (!grouped(l)) {
        fprintf(out, "SwitchName=top Switches=s[0-%d]\n", (int)g->n - 1);
        return;
    }
    for (int32_t k = 0; k < l->groups; k++) {
        fprintf(out, "SwitchName=g%d Switches=", (int)k);
        group_switches(out, l->group, g->n, k);
        fputc('\n', out);
    }
    fprintf(out, "SwitchName=top Switches=g[0-%d]\n", (int)l->groups - 1);
}

static void write_blocks(FILE *out, const moore_graph *g, const moore_layout *l,
                         const char *prefix, const int64_t *first)
{
    fprintf(out, "# Slurm topology.conf (topology/block): one block per %s group\n", l->placement);
    for (int32_t k = 0; k < l->groups; k++) {
        fprintf(out, "BlockName=b%d Nodes=", (int)k);
        int any = 0;
        for (int32_t s = 0; s < g->n; s++)
            if (l->group[s] == k && g->endpoints[s] > 0) {
                fputs(any ? "," : "", out);
                range(out, prefix, first[s], first[s + 1] - 1);
                any = 1;
            }
        fputc('\n', out);
    }
}

static int write_file(const char *dir, const char *name, int blocks, const moore_graph *g,
                      const moore_layout *l, const char *prefix, const int64_t *first,
                      moore_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    moore_atomic_file af;
    int rc = moore_atomic_open(path, &af, err);
    if (rc)
        return rc;
    if (blocks)
        write_blocks(af.f, g, l, prefix, first);
    else
        write_tree(af.f, g, l, prefix, first);
    return moore_atomic_commit(&af, err);
}

int moore_slurm_write(const moore_graph *g, const char *dir, const char *node_prefix,
                      moore_error *err)
{
    moore_cost_model m;
    moore_cost_model_default(&m);
    moore_layout l = { 0 };
    int64_t *first = moore_malloc((size_t)g->n + 1, sizeof *first, err);
    if (!first)
        return core_alloc_code(err);
    first[0] = 0;
    for (int32_t s = 0; s < g->n; s++)
        first[s + 1] = first[s] + g->endpoints[s];
    int rc = moore_layout_compute(g, &m, NULL, &l, err);
    if (!rc)
        rc = deploy_make_dir(dir, err);
    if (!rc)
        rc = write_file(dir, "topology.conf", 0, g, &l, node_prefix, first, err);
    if (!rc && grouped(&l))
        rc = write_file(dir, "topology-block.conf", 1, g, &l, node_prefix, first, err);
    moore_layout_clear(&l);
    free(first);
    return rc;
}
