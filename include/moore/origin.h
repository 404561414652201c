/* origin.h — what a graph is, as data: the family row and parsed parameters
 * it was built from with their closed-form counts, or the file it was read
 * from. Set once, when the graph is made (src/topology/ for SPECs, src/io/
 * for files); everything above reads these fields instead of printing and
 * re-parsing a SPEC string.
 *
 * The types are plain data so that the graph (core, the bottom layer) can
 * hold them without calling any layer above: the family row is only pointed
 * at, never called, from core. */
#ifndef MOORE_ORIGIN_H
#define MOORE_ORIGIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parsed key=value parameters ---- */

#define MOORE_PARAMS_MAX 16

struct moore_graph;
struct moore_counts;
struct moore_error;

/* The topology layer's loaders, handed down in the parameters to the families
 * whose parameters name another topology (xpander's meta=, the of= of lift and
 * expand): loading a SPEC or a file is a layer above the families, so they may
 * not call it by name. moore_spec_parse sets it; NULL in parameters made by
 * hand, and such a family then refuses the key. */
typedef struct moore_loader {
    int (*load)(const char *topology, struct moore_graph **out, struct moore_error *err);
} moore_loader;

typedef struct moore_params {
    const char *family;               /* the family's name (static, in its row) */
    const moore_loader *loader;       /* static, set by moore_spec_parse; may be NULL */
    /* Where a long build reports how far it is (moore_topology_load_progress);
     * NULL for none. Only for the build: a graph's origin keeps it NULL. */
    void (*progress)(void *ctx, const char *what, double fraction);
    void *progress_ctx;
    int count;
    char key[MOORE_PARAMS_MAX][32];
    char value[MOORE_PARAMS_MAX][96];
    char used[MOORE_PARAMS_MAX];      /* set by getters; unused keys are refused */
} moore_params;

/* ---- closed-form counts (for plan, and to check built graphs against) ---- */

typedef struct moore_counts {
    int64_t switches;
    int64_t links;          /* cables between switches */
    int32_t degree_min;     /* network degree */
    int32_t degree_max;
    int64_t endpoints;
    int32_t diameter;       /* -1 when no closed form is known */
    /* Cables per graph link: HyperX trunking K. The graph stays simple (one
     * CSR link per switch pair); 0 and 1 both mean single cables. */
    int32_t multiplicity;
    /* Mixed trunking (Cascade: single green, triple black links): when > 0,
     * the cables and the network ports of the busiest switch; 0 means
     * links × multiplicity and degree_max × multiplicity. */
    int64_t cables;
    int32_t ports_max;
} moore_counts;

/* Cables between switches: links × multiplicity, or the mixed-trunk count. */
static inline int64_t moore_counts_cables(const moore_counts *c)
{
    if (c->cables > 0)
        return c->cables;
    return c->links * (c->multiplicity > 1 ? c->multiplicity : 1);
}

/* ---- a graph's origin ---- */

struct moore_family; /* a row of the family table (moore/family.h) */

typedef struct moore_origin {
    /* Built from a family (moore_spec_build), or read from a file whose
     * header names a family that moore_topology_load recognised: the row,
     * the parameters as parsed, and (has_counts) the row's closed forms for
     * them. NULL family: none of the three is set. */
    const struct moore_family *family;
    moore_params params;
    int has_counts;
    moore_counts counts;
    /* "family[:params]" from the graph's family and params strings: the SPEC
     * that rebuilds it (docs/json.md, `topology`); NULL without a family. */
    char *spec;
    /* Read from a file: its path (or stream name) and the reader's format
     * ("edgelist", "netbench", "anynet"); NULL otherwise. A `file:` SPEC adds
     * its endpoint override: key "p" or "radix" and the value given. */
    char *path;
    const char *format;
    const char *endpoints_key;
    int64_t endpoints_value;
} moore_origin;

#ifdef __cplusplus
}
#endif
#endif
