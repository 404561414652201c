/* grid.c — a sweep file expanded into configurations and tasks.
 *
 * The file is JSON (docs/sweep.md): "configs" lists family grids, planner
 * grids and plain SPECs; "metrics", "throughput" and "seeds" say what to run.
 * Planner grids (radix × endpoints × bandwidth) add what `moore plan` lists,
 * or at a bandwidth what `moore compare` would try first, and record for
 * each SPEC the point it came from (moore_sweep_origin).
 * Every grid point becomes a SPEC; one the family's closed forms refuse (say
 * slimfly q=6) is skipped and counted, never built. Mistakes that are the
 * file's — an unknown key, family or group, an empty list or range, a number
 * that is no integer, a control character in a SPEC, a grid whose product is
 * too large — refuse the whole sweep before anything is measured. SPECs are
 * deduplicated through a hash table, so expansion is linear in its size. */
#include "sweep_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRID_VALUES_MAX 100000  /* values one list may expand to */
#define GRID_CONFIGS_MAX 1000000 /* grid points of one entry, and configurations in all */

typedef struct grid_list {
    int count;
    char (*v)[32];
} grid_list;

typedef struct grid_ctx {
    moore_sweep *s;
    int64_t cap, origin_cap;
    int64_t *slots, nslots; /* hash of configs[].topology: index + 1, 0 = empty */
    grid_list seeds;
    const char *name;
    const moore_sweep_origin *origin; /* the planner point being expanded, or NULL */
} grid_ctx;

static int grid_fail(const grid_ctx *c, moore_error *err, const char *what)
{
    return moore_error_set(err, MOORE_EINVAL, "%s: %s", c->name, what);
}

/* Appends one value's text; refuses lists that would grow without bound. */
static int list_push(grid_list *l, const char *text, moore_error *err)
{
    if (l->count >= GRID_VALUES_MAX)
        return moore_error_set(err, MOORE_EINVAL, "a list expands to more than %d values",
                               GRID_VALUES_MAX);
    if (l->count % 64 == 0) {
        void *v = realloc(l->v, (size_t)(l->count + 64) * sizeof *l->v);
        if (!v)
            return moore_error_set(err, MOORE_ENOMEM, "sweep: out of memory for a list");
        l->v = v;
    }
    snprintf(l->v[l->count++], sizeof l->v[0], "%s", text);
    return MOORE_OK;
}

/* "A..B" or "A..B:S" (integers, S > 0, A ≤ B) into the list; 0 if not a range. */
static int list_range(grid_list *l, const char *text, int *is_range, moore_error *err)
{
    long long a, b, step = 1;
    int used = 0;
    *is_range = 0;
    if (sscanf(text, "%lld..%lld%n", &a, &b, &used) != 2)
        return MOORE_OK;
    int tail = 0;
    if (text[used] == ':' && sscanf(text + used + 1, "%lld%n", &step, &tail) == 1)
        used += 1 + tail;
    if (text[used] != '\0' || step <= 0 || a > b)
        return moore_error_set(err, MOORE_EINVAL,
                               "range '%s' is empty or malformed (write A..B or A..B:STEP, "
                               "A <= B, STEP > 0)", text);
    *is_range = 1;
    for (long long x = a; x <= b; x += step) {
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", x);
        int rc = list_push(l, buf, err);
        if (rc)
            return rc;
    }
    return MOORE_OK;
}

/* One JSON value (number, string, range string) into the list. */
static int list_value(grid_list *l, const cJSON *v, moore_error *err)
{
    char buf[32];
    if (cJSON_IsNumber(v)) { /* every family key is an integer or a word */
        double x = v->valuedouble;
        if (!(fabs(x) < 9.2e18) || x != floor(x))
            return moore_error_set(err, MOORE_EINVAL, "grid value %.17g is not an integer "
                                   "(family keys take integers or words)", x);
        snprintf(buf, sizeof buf, "%lld", (long long)x);
        return list_push(l, buf, err);
    }
    if (!cJSON_IsString(v) || !*v->valuestring || strlen(v->valuestring) >= sizeof buf)
        return moore_error_set(err, MOORE_EINVAL,
                               "a grid value must be a number or a short string");
    int is_range, rc = list_range(l, v->valuestring, &is_range, err);
    return rc || is_range ? rc : list_push(l, v->valuestring, err);
}

/* A scalar or an array of values; an empty array is refused. */
static int list_parse(grid_list *l, const cJSON *v, const char *key, moore_error *err)
{
    int rc = MOORE_OK;
    if (!cJSON_IsArray(v))
        return list_value(l, v, err);
    for (const cJSON *e = v->child; e && !rc; e = e->next)
        rc = list_value(l, e, err);
    if (!rc && l->count == 0)
        rc = moore_error_set(err, MOORE_EINVAL, "the list of '%s' is empty", key);
    return rc;
}

static void list_clear(grid_list *l)
{
    free(l->v);
    l->v = NULL;
    l->count = 0;
}

static uint64_t spec_hash(const char *spec)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *spec; spec++)
        h = (h ^ (unsigned char)*spec) * 1099511628211ull;
    return h;
}

/* The hash slot holding spec, or the empty slot where it would go. */
static int64_t *spec_slot(const grid_ctx *c, const char *spec)
{
    int64_t mask = c->nslots - 1;
    for (int64_t k = (int64_t)(spec_hash(spec) & (uint64_t)mask);; k = (k + 1) & mask) {
        int64_t *slot = &c->slots[k];
        if (!*slot || strcmp(c->s->configs[*slot - 1].topology, spec) == 0)
            return slot;
    }
}

/* Keeps the hash table at most half full (rehashing every config). */
static int grow_slots(grid_ctx *c, moore_error *err)
{
    if (2 * (c->s->config_count + 1) <= c->nslots)
        return MOORE_OK;
    int64_t n = c->nslots ? 2 * c->nslots : 1024;
    int64_t *slots = calloc((size_t)n, sizeof *slots);
    if (!slots)
        return moore_error_set(err, MOORE_ENOMEM, "sweep: out of memory for configurations");
    free(c->slots);
    c->slots = slots;
    c->nslots = n;
    for (int64_t i = 0; i < c->s->config_count; i++)
        *spec_slot(c, c->s->configs[i].topology) = i + 1;
    return MOORE_OK;
}

/* Records that configuration i came from the planner point being expanded. */
static int add_origin(grid_ctx *c, int64_t i, moore_error *err)
{
    moore_sweep *s = c->s;
    if (!c->origin)
        return MOORE_OK;
    if (s->origin_count == c->origin_cap) {
        int64_t cap = c->origin_cap ? 2 * c->origin_cap : 64;
        void *v = realloc(s->origins, (size_t)cap * sizeof *s->origins);
        if (!v)
            return moore_error_set(err, MOORE_ENOMEM, "sweep: out of memory for plan points");
        s->origins = v;
        c->origin_cap = cap;
    }
    s->origins[s->origin_count] = *c->origin;
    s->origins[s->origin_count++].config = i;
    return MOORE_OK;
}

/* Adds a SPEC unless it is already there; seed is its seed key or -1,
 * weight its size (moore_sweep_config). */
static int add_config(grid_ctx *c, const char *spec, int64_t seed, double weight,
                      moore_error *err)
{
    moore_sweep *s = c->s;
    if (strlen(spec) >= MOORE_SPEC_MAX)
        return moore_error_set(err, MOORE_EINVAL, "%s: SPEC '%.60s...' is too long", c->name,
                               spec);
    if (grow_slots(c, err))
        return err->code;
    int64_t *slot = spec_slot(c, spec);
    if (*slot)
        return add_origin(c, *slot - 1, err);
    if (s->config_count >= GRID_CONFIGS_MAX)
        return moore_error_set(err, MOORE_EINVAL, "%s: more than %d configurations", c->name,
                               GRID_CONFIGS_MAX);
    if (s->config_count == c->cap) {
        int64_t cap = c->cap ? 2 * c->cap : 64;
        void *v = realloc(s->configs, (size_t)cap * sizeof *s->configs);
        if (!v)
            return moore_error_set(err, MOORE_ENOMEM, "sweep: out of memory for configurations");
        s->configs = v;
        c->cap = cap;
    }
    moore_sweep_config *cfg = &s->configs[s->config_count++];
    snprintf(cfg->topology, sizeof cfg->topology, "%s", spec);
    cfg->seed = seed;
    cfg->weight = weight;
    *slot = s->config_count;
    return add_origin(c, s->config_count - 1, err);
}

/* Checks a SPEC: its family and keys must exist (else the sweep is refused);
 * values its closed forms refuse make it a skipped point. *weight: its size
 * from the closed forms (0 without them). */
static int check_spec(grid_ctx *c, const char *spec, int *feasible, double *weight,
                      moore_error *err)
{
    const moore_family *fam;
    moore_params params;
    moore_counts counts;
    moore_error sub;
    *feasible = 0;
    *weight = 0;
    for (const char *p = spec; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return moore_error_set(err, MOORE_EINVAL, "%s: SPEC '%s' holds a control "
                                   "character", c->name, spec);
    if (moore_spec_parse(spec, &fam, &params, &sub))
        return moore_error_set(err, MOORE_EINVAL, "%s: %s", c->name, sub.msg);
    if (fam->counts && moore_spec_counts(spec, &counts, &sub)) {
        if (sub.code != MOORE_EINVAL)
            return moore_error_set(err, sub.code, "%s", sub.msg);
        if (c->s->skipped++ == 0)
            snprintf(c->s->first_skip, sizeof c->s->first_skip, "%s", sub.msg);
        return MOORE_OK;
    }
    if (fam->counts)
        *weight = (double)counts.switches * ((double)counts.switches + (double)counts.links);
    *feasible = 1;
    return MOORE_OK;
}

/* Adds a checked SPEC, once per seed when its family has a seed key the SPEC
 * does not set. */
static int add_spec(grid_ctx *c, const char *spec, moore_error *err)
{
    const moore_family *fam;
    moore_params params;
    double weight;
    int feasible, rc = check_spec(c, spec, &feasible, &weight, err);
    if (rc || !feasible)
        return rc;
    moore_spec_parse(spec, &fam, &params, err);
    if (!sweep_family_has_key(fam, "seed"))
        return add_config(c, spec, -1, weight, err);
    if (moore_params_has(&params, "seed"))
        return add_config(c, spec, atoll(moore_params_str(&params, "seed", "0")), weight, err);
    for (int i = 0; !rc && i < c->seeds.count; i++) {
        char buf[MOORE_SPEC_MAX + 48];
        snprintf(buf, sizeof buf, "%s%sseed=%s", spec, strchr(spec, ':') ? "," : ":",
                 c->seeds.v[i]);
        rc = add_config(c, buf, atoll(c->seeds.v[i]), weight, err);
    }
    return rc;
}

/* The Cartesian product of a family's key lists, last key fastest. */
static int grid_product(grid_ctx *c, const char *family, const char *const *keys,
                        const grid_list *lists, int nkeys, int depth, char *spec, size_t len,
                        moore_error *err)
{
    if (depth == nkeys)
        return add_spec(c, spec, err);
    size_t at = strlen(spec);
    int rc = MOORE_OK;
    for (int i = 0; !rc && i < lists[depth].count; i++) {
        snprintf(spec + at, len - at, "%s%s=%s", depth ? "," : ":", keys[depth],
                 lists[depth].v[i]);
        rc = grid_product(c, family, keys, lists, nkeys, depth + 1, spec, len, err);
    }
    spec[at] = '\0';
    return rc;
}

/* {"family": F, "grid": {key: values, ...}} */
static int parse_family(grid_ctx *c, const cJSON *e, moore_error *err)
{
    static const char *const known[] = { "family", "grid", NULL };
    const cJSON *fam = cJSON_GetObjectItemCaseSensitive(e, "family");
    const cJSON *grid = cJSON_GetObjectItemCaseSensitive(e, "grid");
    if (!cJSON_IsString(fam) || (grid && !cJSON_IsObject(grid)))
        return grid_fail(c, err, "a family entry needs \"family\": NAME and an optional "
                                 "\"grid\": {KEY: VALUES}");
    if (sweep_check_keys(e, known, c->name, err))
        return err->code;
    const char *keys[MOORE_PARAMS_MAX];
    grid_list lists[MOORE_PARAMS_MAX];
    memset(lists, 0, sizeof lists);
    int nkeys = 0, rc = MOORE_OK;
    for (const cJSON *k = grid ? grid->child : NULL; k && !rc; k = k->next) {
        if (nkeys == MOORE_PARAMS_MAX) {
            rc = grid_fail(c, err, "a grid has too many keys");
            break;
        }
        keys[nkeys] = k->string;
        rc = list_parse(&lists[nkeys++], k, k->string, err);
        if (rc) {
            char where[160];
            snprintf(where, sizeof where, "%s: %s", c->name, fam->valuestring);
            rc = sweep_error_prefix(err, where);
        }
    }
    double points = 1; /* checked before expanding: a product of lists is the cost */
    for (int i = 0; i < nkeys; i++)
        points *= lists[i].count;
    if (!rc && points > GRID_CONFIGS_MAX) {
        char what[160];
        snprintf(what, sizeof what, "the grid of %s has %.0f points, more than %d",
                 fam->valuestring, points, GRID_CONFIGS_MAX);
        rc = grid_fail(c, err, what);
    }
    char spec[MOORE_SPEC_MAX * 2];
    snprintf(spec, sizeof spec, "%s", fam->valuestring);
    if (!rc)
        rc = grid_product(c, fam->valuestring, keys, lists, nkeys, 0, spec, sizeof spec, err);
    for (int i = 0; i < nkeys; i++)
        list_clear(&lists[i]);
    return rc;
}

#define PLAN_BANDWIDTHS_MAX 64

/* "bandwidth": B, "any" or a list of them; 0 stands for any. Absent: full
 * bandwidth (1) when there is a target, as compare searches by default. */
static int parse_bandwidths(grid_ctx *c, const cJSON *v, int targets, double *bw, int *count,
                            moore_error *err)
{
    *count = 0;
    if (!v) {
        bw[(*count)++] = targets ? 1.0 : 0.0;
        return MOORE_OK;
    }
    const cJSON *e = cJSON_IsArray(v) ? v->child : v;
    if (!e)
        return grid_fail(c, err, "the list of plan 'bandwidth' is empty");
    for (; e; e = cJSON_IsArray(v) ? e->next : NULL) {
        double b = cJSON_IsNumber(e) ? e->valuedouble : -1;
        if (cJSON_IsString(e) && strcmp(e->valuestring, "any") == 0)
            b = 0;
        else if (!(b >= 1e-9 && isfinite(b)))
            return grid_fail(c, err, "plan \"bandwidth\" must be a number of at least 1e-9 "
                                     "(uniform throughput per server, 1: full) or \"any\"");
        if (b > 0 && !targets)
            return grid_fail(c, err, "a plan \"bandwidth\" needs \"endpoints\" (the target "
                                     "the search is for)");
        if (*count == PLAN_BANDWIDTHS_MAX)
            return grid_fail(c, err, "a plan lists more than 64 bandwidths");
        bw[(*count)++] = b;
    }
    return MOORE_OK;
}

/* The uniform throughput per server that no routing on the built row can
 * beat because of one switch: with p of the S servers and δ links (each of
 * mult cables) it sends p(S−p)/(S−1), so θ ≤ mult·δ(S−1)/(p(S−p)). */
static double leaf_bound(const moore_graph *g, int32_t mult)
{
    double S = (double)moore_graph_endpoints_total(g), best = INFINITY;
    for (int32_t v = 0; v < g->n; v++) {
        double p = g->endpoints[v];
        if (p > 0 && S > p)
            best = fmin(best, (double)mult * (double)moore_graph_degree(g, v) * (S - 1) /
                                  (p * (S - p)));
    }
    return best;
}

/* 1 when row may reach bandwidth bw: its closed-form bound does not rule it
 * out, and when it has none (a family without p=, whose servers per switch
 * only the built graph tells) neither does the leaf bound of the graph. */
static int row_may_reach(const moore_plan_row *row, double bw, moore_error *err, int *rc)
{
    *rc = MOORE_OK;
    if (row->ruled_out)
        return 0;
    if (isfinite(row->bound))
        return 1;
    moore_graph *g = NULL;
    moore_error sub;
    int brc = moore_topology_load(row->spec, &g, &sub);
    if (brc && brc != MOORE_EINVAL && brc != MOORE_ETOOBIG)
        *rc = moore_error_set(err, brc, "%s", sub.msg);
    int32_t mult = row->counts.multiplicity > 1 ? row->counts.multiplicity : 1;
    int may = !brc && leaf_bound(g, mult) >= bw;
    moore_graph_free(g);
    return may;
}

/* One planner point: per family the chosen row (all: every row) of what
 * `moore plan` lists. At a bandwidth the rows are those of the search
 * `moore compare` runs (moore_plan_search), and per family the chosen one is
 * the first (fewest switches) that neither its closed-form bound nor its
 * leaf bound rules out; "all" keeps every row the closed forms do not rule
 * out. Every SPEC added records the point as its origin. */
static int plan_point(grid_ctx *c, int32_t radix, int64_t ends, double bw, const char *families,
                      int all, moore_error *err)
{
    moore_plan p;
    moore_sweep_origin o = { 0, radix, ends, ends > 0 ? bw : 0, 0 };
    int rc = o.bandwidth > 0 ? moore_plan_search(radix, ends, families, bw, &p, err)
                             : moore_plan_make(radix, ends, families, &p, err);
    if (rc)
        return rc;
    c->origin = &o;
    const moore_family *done = NULL; /* the family whose row is chosen already */
    for (int64_t i = 0; !rc && i < p.count; i++) {
        const moore_plan_row *row = &p.rows[i];
        if (o.bandwidth > 0)
            o.chosen = row->family != done && row_may_reach(row, bw, err, &rc);
        else
            o.chosen = row->chosen;
        if (o.chosen)
            done = row->family;
        if (!rc && (o.chosen || (all && !row->ruled_out)))
            rc = add_spec(c, row->spec, err);
    }
    c->origin = NULL;
    moore_plan_clear(&p);
    return rc;
}

/* A plan radix and endpoint count, checked. */
static int plan_numbers(grid_ctx *c, const char *radix, const char *ends, int32_t *r, int64_t *e,
                        moore_error *err)
{
    long long rr = atoll(radix), ee = atoll(ends);
    int digits = strspn(radix, "0123456789") == strlen(radix) &&
                 strspn(ends, "0123456789") == strlen(ends);
    if (!digits || rr < 1 || rr > 100000 || ee < 0)
        return moore_error_set(err, MOORE_EINVAL, "%s: plan radix %s or endpoints %s out of "
                               "range", c->name, radix, ends);
    *r = (int32_t)rr;
    *e = ee;
    return MOORE_OK;
}

/* {"plan": {"radix": [...], "endpoints": [...], "bandwidth": [...], "families": [...],
 *           "rows": "chosen"|"all"}} */
static int parse_plan(grid_ctx *c, const cJSON *plan, moore_error *err)
{
    static const char *const known[] = { "radix", "endpoints", "bandwidth", "families", "rows",
                                         NULL };
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(plan, "rows");
    const cJSON *fams = cJSON_GetObjectItemCaseSensitive(plan, "families");
    const cJSON *targets = cJSON_GetObjectItemCaseSensitive(plan, "endpoints");
    grid_list radix = { 0 }, ends = { 0 };
    double bw[PLAN_BANDWIDTHS_MAX];
    int nbw = 0;
    char families[1024] = "";
    int all = rows && cJSON_IsString(rows) && strcmp(rows->valuestring, "all") == 0;
    int rc = sweep_check_keys(plan, known, c->name, err);
    if (!rc && rows && !all && !(cJSON_IsString(rows) && strcmp(rows->valuestring, "chosen") == 0))
        rc = grid_fail(c, err, "plan \"rows\" must be \"chosen\" or \"all\"");
    if (!rc)
        rc = list_parse(&radix, cJSON_GetObjectItemCaseSensitive(plan, "radix"), "radix", err);
    if (!rc && targets)
        rc = list_parse(&ends, targets, "endpoints", err);
    if (!rc && !ends.count)
        rc = list_push(&ends, "0", err);
    if (!rc)
        rc = parse_bandwidths(c, cJSON_GetObjectItemCaseSensitive(plan, "bandwidth"),
                              targets != NULL, bw, &nbw, err);
    if (!rc && fams)
        rc = sweep_join_list(fams, families, sizeof families, "families", err);
    for (int r = 0; !rc && r < radix.count; r++)
        for (int e = 0; !rc && e < ends.count; e++) {
            int32_t rr = 0;
            int64_t ee = 0;
            rc = plan_numbers(c, radix.v[r], ends.v[e], &rr, &ee, err);
            for (int b = 0; !rc && b < nbw; b++)
                rc = plan_point(c, rr, ee, bw[b], *families ? families : NULL, all || ee == 0,
                                err);
        }
    list_clear(&radix);
    list_clear(&ends);
    return rc;
}

static int parse_config(grid_ctx *c, const cJSON *e, moore_error *err)
{
    static const char *const spec_keys[] = { "spec", NULL }, *const plan_keys[] = { "plan", NULL };
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(e, "spec");
    const cJSON *plan = cJSON_GetObjectItemCaseSensitive(e, "plan");
    if (cJSON_IsString(spec))
        return sweep_check_keys(e, spec_keys, c->name, err) ? err->code
                                                             : add_spec(c, spec->valuestring, err);
    if (cJSON_IsObject(plan))
        return sweep_check_keys(e, plan_keys, c->name, err) ? err->code
                                                            : parse_plan(c, plan, err);
    if (cJSON_GetObjectItemCaseSensitive(e, "family"))
        return parse_family(c, e, err);
    return grid_fail(c, err, "each entry of \"configs\" is {\"family\": ...}, {\"plan\": ...} "
                             "or {\"spec\": ...}");
}

static int parse_configs(grid_ctx *c, const cJSON *configs, moore_error *err)
{
    if (!cJSON_IsArray(configs) || !configs->child)
        return grid_fail(c, err, "\"configs\" must be a non-empty list");
    int rc = MOORE_OK;
    for (const cJSON *e = configs->child; e && !rc; e = e->next)
        rc = parse_config(c, e, err);
    return rc;
}

static int parse_top(grid_ctx *c, const cJSON *root, moore_error *err)
{
    static const char *const known[] = { "configs", "metrics", "throughput", "seeds",
                                         "name", "comment", NULL };
    int rc = sweep_check_keys(root, known, c->name, err);
    const cJSON *seeds = cJSON_GetObjectItemCaseSensitive(root, "seeds");
    if (!rc)
        rc = seeds ? list_parse(&c->seeds, seeds, "seeds", err) : list_push(&c->seeds, "1", err);
    for (int i = 0; !rc && i < c->seeds.count; i++)
        if (strspn(c->seeds.v[i], "0123456789") != strlen(c->seeds.v[i]))
            rc = moore_error_set(err, MOORE_EINVAL, "%s: seed '%s' is not a non-negative "
                                 "integer", c->name, c->seeds.v[i]);
    if (!rc)
        rc = sweep_tasks_parse(c->s, root, c->name, err);
    if (!rc)
        rc = parse_configs(c, cJSON_GetObjectItemCaseSensitive(root, "configs"), err);
    return rc;
}

int moore_sweep_parse(const char *text, const char *name, moore_sweep *out, moore_error *err)
{
    grid_ctx c = { .s = out, .name = name ? name : "sweep" };
    memset(out, 0, sizeof *out);
    const char *end = NULL; /* text after the object (other than blanks) is refused */
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    int rc = MOORE_OK;
    if (!root || !cJSON_IsObject(root))
        rc = moore_error_set(err, MOORE_EINVAL, "%s: not a JSON object%s (sweep files are JSON, "
                             "see docs/sweep.md)", c.name,
                             root ? "" : " alone, or text follows it");
    else if (!(rc = sweep_check_duplicates(root, c.name, err)))
        rc = parse_top(&c, root, err);
    cJSON_Delete(root);
    list_clear(&c.seeds);
    free(c.slots);
    if (rc)
        moore_sweep_clear(out);
    return rc;
}

void moore_sweep_clear(moore_sweep *s)
{
    if (!s)
        return;
    free(s->configs);
    free(s->tasks);
    free(s->origins);
    memset(s, 0, sizeof *s);
}
