/* family.h — topology families, their parameters, and SPEC strings.
 *
 * A SPEC is "family[:key=value[,key=value…]]" (docs/families.md). Each family is one
 * entry in one table (src/families/registry.c): its keys with defaults and
 * help, a builder, closed-form counts, and a planner that lists its feasible
 * configurations for a switch radix. `build`, `stats`, `families`, `plan` and
 * `compare` all read that table, so no command has a per-family switch.
 *
 * Common keys: `p` (endpoints per switch) and `radix` (p = radix − network
 * degree, refused when < 1) are accepted by every family that lists them; the
 * helper moore_family_resolve_endpoints() applies the shared rule. */
#ifndef MOORE_FAMILY_H
#define MOORE_FAMILY_H

#include "moore/export.h"
#include <stdint.h>
#include "moore/error.h"
#include "moore/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parsed key=value parameters (the type: moore/origin.h) ---- */

/* The getters mark the key they read in p->used (so p is not const): after a
 * build, a key no getter read is refused as unknown. p is caller-owned; each
 * getter is O(MOORE_PARAMS_MAX) and allocates nothing.
 * 1 when key was given. */
MOORE_API int moore_params_has(moore_params *p, const char *key);
/* Reads key as an integer in [lo, hi]; *out = def when the key is absent.
 * A non-numeric or out-of-range value is refused with the family's name. */
MOORE_API int moore_params_int(moore_params *p, const char *key, int64_t def, int64_t lo,
                     int64_t hi, int64_t *out, moore_error *err);
MOORE_API int moore_params_double(moore_params *p, const char *key, double def, double lo,
                        double hi, double *out, moore_error *err);
/* The raw string value, or def when absent. Borrowed: points into p (or is def). */
MOORE_API const char *moore_params_str(moore_params *p, const char *key, const char *def);
/* Canonical "k=v,k=v" of the given keys, in the order given (for graph origin).
 * Writes into the caller's buf; MOORE_EINVAL (err not filled) when len is too short. */
MOORE_API int moore_params_format(const moore_params *p, char *buf, size_t len);

/* ---- the family table ---- */

typedef struct moore_param_info {
    const char *key;
    const char *def;        /* default as text; "" when required, "-" when derived */
    const char *help;
} moore_param_info;

/* The planner calls emit once per feasible configuration for switches of the
 * given radix. With endpoints > 0 the planner must include the smallest
 * configuration that reaches that many endpoints (families with a free size
 * such as Jellyfish or Xpander emit exactly that one, or a few around it);
 * with endpoints == 0 it lists every configuration of practical size
 * (say up to ~10^6 switches). */
typedef int (*moore_plan_emit)(void *ctx, const char *spec, moore_error *err);

typedef struct moore_family {
    const char *name;
    const char *summary;    /* one line */
    const char *paper;      /* citation */
    const moore_param_info *params;  /* terminated by {NULL} */
    int (*build)(moore_params *p, moore_graph **out, moore_error *err);
    /* NULL when no closed form exists. */
    int (*counts)(moore_params *p, moore_counts *out, moore_error *err);
    /* NULL when the family has no radix-driven configurations (references). */
    int (*plan)(int32_t radix, int64_t endpoints, moore_plan_emit emit, void *ctx,
                moore_error *err);
    /* 1 when build names every switch (docs/families.md) from the parameters
     * alone: a file of this family, which has no labels, gets them back by
     * building the family again (moore_topology_load). 0 for families without
     * labels and for those built from another topology (lift, expand). */
    int labels;
} moore_family;

/* The table, terminated by an entry with name NULL. Static; never freed.
 * moore_family_find is a linear scan over the rows; NULL when not found. */
MOORE_API const moore_family *moore_families(void);
MOORE_API const moore_family *moore_family_find(const char *name);

/* ---- SPEC strings and topology arguments ---- */

/* Splits a SPEC into its family and parameters; refuses unknown families,
 * unknown keys, repeated keys and malformed pairs. Fills the caller's *params
 * (no heap; *fam points at the static row, NULL on error); O(length of spec). */
MOORE_API int moore_spec_parse(const char *spec, const moore_family **fam, moore_params *params,
                     moore_error *err);

/* Builds the topology a SPEC names. Afterwards every given key must have been
 * read by the builder, otherwise the key is refused as unknown. *out is a new
 * graph the caller frees with moore_graph_free; NULL on error. Time is the
 * family builder's: O(n + m log m) for most, more for searches (xpander, lift). */
MOORE_API int moore_spec_build(const char *spec, moore_graph **out, moore_error *err);

/* Closed-form counts for a SPEC (MOORE_EINVAL if the family has none). Fills the
 * caller's *out; builds nothing, so O(1) for most families. */
MOORE_API int moore_spec_counts(const char *spec, moore_counts *out, moore_error *err);

/* A topology argument: an existing file is read (edge list, or a netbench
 * .topology), anything else is parsed as a SPEC. *out is a new graph the caller
 * frees with moore_graph_free; NULL on error. Cost: moore_graph_read's or
 * moore_spec_build's. */
MOORE_API int moore_topology_load(const char *arg, moore_graph **out, moore_error *err);
/* The same, telling progress(progress_ctx, what, fraction) how far a long
 * build is (fraction in [0, 1], non-decreasing; Jellyfish reports its stages
 * and its links). progress may be NULL; it is called only during the call. */
MOORE_API int moore_topology_load_progress(const char *arg,
                                           void (*progress)(void *ctx, const char *what,
                                                            double fraction),
                                           void *progress_ctx, moore_graph **out,
                                           moore_error *err);
/* A `file:PATH,p=P` or `file:PATH,radix=R` SPEC: the file with P endpoints on
 * every switch (or R minus its network degree); its origin becomes family
 * "file", params "PATH,p=P" (src/topology/filespec.c). moore_topology_load takes
 * such SPECs too. *out as for moore_topology_load; O(file size + m log m). */
MOORE_API int moore_file_spec_load(const char *spec, moore_graph **out, moore_error *err);

/* Resolves the shared `p` / `radix` keys for a family whose switches have
 * network degree `degree`: p= wins, else radix= gives radix − degree (refused
 * when < 1), else def_p. Fills *out; O(MOORE_PARAMS_MAX). */
MOORE_API int moore_family_resolve_endpoints(moore_params *p, int32_t degree, int32_t def_p,
                                   int32_t *out, moore_error *err);

/* Parameter-table rows for the shared keys, to put in a family's table. */
#define MOORE_PARAM_P(def) { "p", def, "endpoints per switch" }
#define MOORE_PARAM_RADIX { "radix", "-", "switch radix; sets p = radix - network degree" }
#define MOORE_PARAM_SEED(def) { "seed", def, "PRNG seed (same seed, same topology bytes)" }

#ifdef __cplusplus
}
#endif
#endif
