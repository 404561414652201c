/* cmd_compare.c — `moore compare [--radix R] [--endpoints N] [--bandwidth B]
 * [--tm TM] [--db FILE] [TOPO…]`: the main job. Per family the cheapest
 * configuration with at least N servers on radix-R switches proven to reach
 * uniform throughput B per server, one table row (or one JSON object)
 * printed as each is measured, then each family against the Clos baseline
 * and a verdict on the often-quoted Slim Fly claim (library: plan.h,
 * docs/compare.md). */
#include "cli.h"
#include "compare_step.h"
#include "table.h"
#include "moore/sweep.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char cmd_compare_usage[] =
    "usage: moore compare [--radix R] [--endpoints N] [--bandwidth B|any] [--families LIST]\n"
    "                     [--metrics LIST] [--throughput] [--thorough] [--routed] [--tm TM] [--db FILE]\n"
    "                     [--model NAME|FILE] [--seed S] [--job JOB --link-rate GBPS\n"
    "                     [--step-routing R]] [--json] [TOPO...]\n\n"
    "For switches of radix R and at least N servers, chooses per family the cheapest\n"
    "configuration whose uniform-traffic throughput per server (each server sending 1\n"
    "in total) is proven to be at least B, and measures it. Cheapest: lowest cost_total\n"
    "when the layout metric group exists, else fewest switches, then fewest cables.\n"
    "The search varies servers per switch and size (and degree for Jellyfish/Xpander);\n"
    "closed-form bounds rule most configurations out before anything is built.\n"
    "Each row is printed as soon as it is measured (a stopped run keeps the rows it\n"
    "finished), in columns of fixed width: a topology longer than its column goes on\n"
    "in the column on the next line. JSON gives each row as it is measured too\n"
    "(docs/compare.md).\n\n"
    "Columns (a column shows when its metric group runs):\n"
    "  links        switch-to-switch links; cables: the cables they need (a HyperX\n"
    "               trunk of K counts K); p: servers on the busiest switch\n"
    "  diam         switch diameter; srv hops: mean switch hops between two servers\n"
    "               on different switches\n"
    "  λ₂/Ram       lambda2 / 2 sqrt(d-1), one ratio (<= 1: within the Ramanujan bound;\n"
    "               '-' for an irregular graph)\n"
    "  θ_uni lo/hi  uniform throughput per server, proven lower and upper bound;\n"
    "               θ_worst lo/hi the same under the longest-matching traffic\n"
    "               (--throughput). Above 1 is possible: traffic between servers of\n"
    "               one switch uses no link, so a full fat-tree reaches (S-1)/(S-p)\n"
    "               (S servers, p per switch); 'hi' is an upper bound (of the\n"
    "               approximation or of the path lengths), not a measured rate\n"
    "  θ_ecmp, ecmp/opt, θ_ksp8 lo, ksp8/opt lo   the routing group (--metrics\n"
    "               ...,routing): uniform throughput over ECMP (exact) and the 8\n"
    "               shortest paths (a lower bound), and each over the optimum\n"
    "  θ_TM lo/hi   with --tm TM: the (1+0.05) bounds under TM\n"
    "  bisect norm ≤  bisection cut / (servers/2), 1 = full bisection; the cut\n"
    "               comes from a partitioner, so this is an upper bound\n"
    "  cost, cost/srv, power W, optical   the layout group (docs/layout.md)\n"
    "Below the table each family against the Clos baseline in signed percent.\n"
    "A '-' (JSON null) is a value that was not measured or is undefined.\n\n"
    "  --radix R         switch radix (default 48)\n"
    "  --endpoints N     servers to reach at least (default 10000)\n"
    "  --bandwidth B     uniform throughput per server to prove, >= 1e-9 (default 1: full);\n"
    "                    'any': each family's fewest-switch configuration, unmeasured\n"
    "  --traffic T       the traffic B must be proven for: uniform (default), hose\n"
    "                    (every matrix the servers can send at line rate: two-phase\n"
    "                    routing proves it; columns θ_hose lo/hi), worst, or any\n"
    "                    matrix --tm takes ((1+0.05) bounds, at most 8 phases)\n"
    "  --thorough        where the shortest-path split proves too little, also try\n"
    "                    the (1+0.05) approximation's lower bound (2 rows per family;\n"
    "                    seconds to tens of seconds each)\n"
    "  --families LIST   comma list of families with a planner (default: all of them)\n"
    "  --metrics LIST    metric groups to run, each with a column (default:\n"
    "                    basic,paths,spectral,bisection and layout where it exists)\n"
    "  --throughput      also run the throughput group (uniform and worst-case traffic,\n"
    "                    (1+0.05) bounds): seconds to minutes per topology\n"
    "  --routed          also the uniform throughput under the routing each fabric\n"
    "                    would run (JSON throughput_routed_*: ECMP for trees; ECMP,\n"
    "                    KSP-8, Valiant, UGAL for direct networks): up to minutes a row\n"
    "  --tm TM           also the throughput under TM, any matrix 'moore throughput\n"
    "                    --tm' takes: uniform, worst, permutation, permutation:seed=S,\n"
    "                    alltoall, allreduce:..., llm:..., a CSV file\n"
    "  --db FILE         read each row's metric groups (and --tm) from a database\n"
    "                    'moore sweep' wrote; what it lacks is measured (stderr says\n"
    "                    how many)\n"
    "  --model NAME|FILE cost model of the layout group: 400g (default), 2014, or a JSON\n"
    "                    file (docs/layout.md); every switch is priced as a chassis\n"

    "  --seed S          seed for randomised metrics and matrices (default 1)\n"
    "  --job JOB         also time one training step of JOB on every row ('moore step',\n"
    "                    docs/step-time.md) with links at --link-rate GBPS, under optimal\n"
    "                    routing or --step-routing R; below the table the rows fastest\n"
    "                    first with cost_per_step (cost_total over 3 years of steps);\n"
    "                    JSON: step_seconds_lower/upper, ideal_seconds, slowdown,\n"
    "                    cost_per_step\n"
    "  --json            an array of objects, one per row as it is done (--json=lines:\n"
    "                    one a line), keyed as the columns, plus avg_path_length,\n"
    "                    diameter_endpoints, bandwidth_proof, lambda2, ramanujan_bound,\n"
    "                    throughput_hose, throughput_hose_upper (null unless measured),\n"
    "                    with --tm tm, throughput, lower, upper, tub, method, and\n"
    "                    vs_clos_switches_pct, vs_clos_cables_pct, vs_clos_cost_pct\n"
    "  TOPO...           compare these SPECs or files instead of searching (then\n"
    "                    --radix, --endpoints, --bandwidth, --families and --thorough\n"
    "                    are refused: they steer the search)\n";

/* One cell of the text table from a report value. */
static void format_cell(const moore_report *r, const char *key, char *buf, size_t len)
{
    const moore_report_item *it = moore_report_get(r, key);
    snprintf(buf, len, "-");
    if (!it)
        return;
    if (it->type == MOORE_VALUE_STRING)
        snprintf(buf, len, "%s", it->s);
    else if (it->type == MOORE_VALUE_INT)
        cli_format_int(it->i, buf, len);
    else if (it->type == MOORE_VALUE_BOOL)
        snprintf(buf, len, "%s", it->i ? "yes" : "no");
    else if (it->type == MOORE_VALUE_DOUBLE && isfinite(it->d) && fabs(it->d) >= 1e3)
        cli_format_int(llround(it->d), buf, len); /* money, watts: whole, grouped */
    else if (it->type == MOORE_VALUE_DOUBLE && isfinite(it->d))
        snprintf(buf, len, "%.3f", it->d);
}

/* The text table: the columns shown, chosen at the first row, with the --tm
 * columns at the end. Each row is printed as soon as it is measured (a
 * stopped run keeps the rows it finished), so the widths are fixed before
 * any cell is known: the header's, or what the column's values need (see
 * col_width); a cell longer than its column — a long topology SPEC —
 * continues on the next lines inside its column, never shifting the others. */
#define MAX_COLS 40
#define TOPOLOGY_WIDTH 40       /* the searched SPECs fit; longer ones wrap */
typedef struct text_cols {
    int n;
    const char *key[MAX_COLS];
    char header[MAX_COLS][96];
    int width[MAX_COLS];
} text_cols;

/* Display width: UTF-8 continuation bytes take no column. */
static int text_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xc0) != 0x80;
    return w;
}

/* The columns whose values can be wider than their header, and how wide they
 * get: switches up to 999,999, other counts up to 9,999,999, money up to
 * 9,999,999,999, servers per switch and diameters up to 9,999; every other
 * value is a short number ("%.3f"). */
static int value_width(const char *key)
{
    static const struct { const char *key; int width; } wide[] = {
        { "switches", 7 }, { "links", 9 }, { "cables", 9 }, { "endpoints", 9 },
        { "cost_total", 13 }, { "cost_per_endpoint", 8 }, { "power_w", 11 },
        { "cables_optical", 9 }, { "endpoints_per_switch", 4 }, { "diameter", 4 },
        { NULL, 0 } };
    for (int i = 0; wide[i].key; i++)
        if (strcmp(key, wide[i].key) == 0)
            return wide[i].width;
    return 5;
}

/* The longest family name a row can show: of the TOPO arguments (a file
 * shows the family its header names, or "file"), else of the families
 * with a planner. */
static int family_width(const moore_compare_options *o)
{
    int w = 0;
    for (int i = 0; i < o->topology_count; i++) {
        const moore_family *f;
        moore_params params;
        moore_error sub;
        int len = moore_spec_parse(o->topologies[i], &f, &params, &sub) ? 13
                                                                          : (int)strlen(f->name);
        w = len > w ? len : w;
    }
    for (const moore_family *f = moore_families(); !o->topology_count && f->name; f++)
        if (f->plan && (int)strlen(f->name) > w)
            w = (int)strlen(f->name);
    return w;
}

/* family: the longest family name; topology: the longest SPEC given (at
 * most TOPOLOGY_WIDTH), TOPOLOGY_WIDTH when searching; the rest: the wider
 * of the header and value_width. */
static int col_width(const char *key, const char *header, const moore_compare_options *o)
{
    int w = text_width(header);
    if (strcmp(key, "family") == 0)
        return family_width(o) > w ? family_width(o) : w;
    if (strcmp(key, "topology") == 0) {
        int t = o->topology_count ? 0 : TOPOLOGY_WIDTH;
        for (int i = 0; i < o->topology_count; i++)
            t = (int)strlen(o->topologies[i]) > t ? (int)strlen(o->topologies[i]) : t;
        t = t > TOPOLOGY_WIDTH ? TOPOLOGY_WIDTH : t;
        return t > w ? t : w;
    }
    return value_width(key) > w ? value_width(key) : w;
}

/* 1 when the metric list runs group (or "all" does). */
static int group_listed(const char *metrics, const char *group)
{
    size_t n = strlen(group);
    for (const char *s = metrics; *s;) {
        size_t len = strcspn(s, ",");
        if ((len == n && strncmp(s, group, n) == 0) || (len == 3 && strncmp(s, "all", 3) == 0))
            return 1;
        s += len + (s[len] == ',');
    }
    return 0;
}

static void cols_add(text_cols *t, const char *key, const char *header)
{
    if (t->n >= MAX_COLS)
        return;
    t->key[t->n] = key;
    snprintf(t->header[t->n], sizeof t->header[t->n], "%s", header);
    t->n++;
}

/* Columns whose group runs, or that the first row has (the search's proof). */
static void cols_choose(text_cols *t, const char *metrics, const char *tm,
                        const moore_report *first)
{
    t->n = 0;
    for (const moore_compare_column *c = moore_compare_columns(); c->key; c++)
        if (!c->group || group_listed(metrics, c->group) || moore_report_get(first, c->key))
            cols_add(t, c->key, c->header);
    if (tm) {
        char h[96];
        snprintf(h, sizeof h, "θ_%.60s lo", tm);
        cols_add(t, "lower", h);
        snprintf(h, sizeof h, "θ_%.60s hi", tm);
        cols_add(t, "upper", h);
    }
}

typedef struct row_ctx {
    const moore_compare_options *o;
    const char *metrics;
    int json;
    int first;              /* JSON: no row printed yet */
    int failed;             /* a row could not be printed */
    text_cols cols;         /* text: chosen at the first row */
} row_ctx;

/* The bytes of cell c that fit in w columns from *at on; a long cell breaks
 * after its last comma that fits (a SPEC's key=value pairs stay whole). */
static int cell_piece(const char *c, int at, int w)
{
    int cols = 0, end = at, comma = 0;
    while (c[end] && cols < w) {
        end++;
        while (((unsigned char)c[end] & 0xc0) == 0x80)
            end++;
        cols++;
        if (c[end - 1] == ',')
            comma = end;
    }
    return (c[end] && comma > at ? comma : end) - at;
}

/* One row in the fixed columns, over as many lines as its longest cell
 * needs (no trailing blanks); flushed, so that a stopped run keeps it. */
static void print_fixed(const text_cols *t, const char *const *cells, FILE *out)
{
    int at[MAX_COLS] = { 0 }, more = 1;
    while (more) {
        char line[4096];
        size_t used = 0;
        more = 0;
        for (int j = 0; j < t->n && used < sizeof line; j++) {
            int len = cell_piece(cells[j], at[j], t->width[j]);
            char piece[256];
            snprintf(piece, sizeof piece, "%.*s", len, cells[j] + at[j]);
            int pad = t->width[j] - text_width(piece);
            pad = pad > 0 ? pad : 0;
            const char *sep = j + 1 < t->n ? "  " : "";
            if (j >= 2) /* numbers right, family and topology left */
                used += (size_t)snprintf(line + used, sizeof line - used, "%*s%s%s", pad, "",
                                         piece, sep);
            else
                used += (size_t)snprintf(line + used, sizeof line - used, "%s%*s%s", piece, pad,
                                         "", sep);
            at[j] += len;
            more |= cells[j][at[j]] != '\0';
        }
        used = used < sizeof line ? used : sizeof line - 1;
        while (used > 0 && line[used - 1] == ' ')
            used--;
        fprintf(out, "%.*s\n", (int)used, line);
    }
    fflush(out);
}

static void print_header(row_ctx *t, const moore_report *first)
{
    char ep[32];
    cli_format_int(t->o->endpoints, ep, sizeof ep);
    if (t->o->topology_count)
        printf("metrics: %s\n\n", t->metrics);
    else if (t->o->bandwidth > 0)
        printf("radix %d, at least %s servers, %s throughput per server proven >= %g; "
               "each family's cheapest such configuration (metrics: %s)\n\n",
               (int)t->o->radix, ep, t->o->traffic ? t->o->traffic : "uniform",
               t->o->bandwidth, t->metrics);
    else
        printf("radix %d, at least %s servers, any bandwidth; each family's fewest-switch "
               "configuration (metrics: %s)\n\n", (int)t->o->radix, ep, t->metrics);
    cols_choose(&t->cols, t->metrics, t->o->tm, first);
    const char *head[MAX_COLS];
    for (int j = 0; j < t->cols.n; j++) {
        head[j] = t->cols.header[j];
        t->cols.width[j] = col_width(t->cols.key[j], head[j], t->o);
    }
    print_fixed(&t->cols, head, stdout);
}

static cJSON *json_value(const moore_report *r, const char *key)
{
    const moore_report_item *it = moore_report_get(r, key);
    if (!it)
        return cJSON_CreateNull();
    switch (it->type) {
    case MOORE_VALUE_STRING: return cJSON_CreateString(it->s);
    case MOORE_VALUE_INT: return cJSON_CreateNumber((double)it->i);
    case MOORE_VALUE_BOOL: return cJSON_CreateBool((int)it->i);
    case MOORE_VALUE_DOUBLE: return isfinite(it->d) ? cJSON_CreateNumber(it->d)
                                                    : cJSON_CreateNull();
    default: return cJSON_CreateNull();
    }
}

static cJSON *json_number(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

/* Row i as one JSON object: the columns' keys, a few more, --tm's, and the
 * percentages against the Clos row (null while there is none yet). */
static cJSON *json_row(const moore_compare *c, int i, const char *tm)
{
    static const char *const extra[] = { "avg_path_length", "diameter_endpoints",
                                         "bandwidth_proof", "lambda2", "ramanujan_bound", NULL };
    static const char *const tm_keys[] = { "tm", "throughput", "lower", "upper", "tub", "method",
                                           NULL };
    static const char *const pct_keys[3] = { "vs_clos_switches_pct", "vs_clos_cables_pct",
                                             "vs_clos_cost_pct" };
    const moore_report *r = &c->rows[i].report;
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddItemToObject(o, "topology", json_value(r, "topology"));
    cJSON_AddItemToObject(o, "family", json_value(r, "family"));
    cJSON_AddItemToObject(o, "params", json_value(r, "params"));
    for (const moore_compare_column *col = moore_compare_columns(); col->key; col++)
        if (!cJSON_HasObjectItem(o, col->key))
            cJSON_AddItemToObject(o, col->key, json_value(r, col->key));
    for (int k = 0; extra[k]; k++)
        cJSON_AddItemToObject(o, extra[k], json_value(r, extra[k]));
    for (int k = 0; tm && tm_keys[k]; k++)
        cJSON_AddItemToObject(o, tm_keys[k], json_value(r, tm_keys[k]));
    double pct[3] = { NAN, NAN, NAN };
    moore_error err;
    moore_compare_vs_baseline(c, i, pct, &err);
    for (int k = 0; k < 3; k++)
        cJSON_AddItemToObject(o, pct_keys[k], json_number(pct[k]));
    return o;
}

/* Row i as one table line (the header before the first), and its progress. */
static void print_row_table(row_ctx *t, const moore_compare *c, int i)
{
    if (t->first)
        print_header(t, &c->rows[i].report);
    t->first = 0;
    char cells[MAX_COLS][96];
    const char *ptr[MAX_COLS];
    for (int j = 0; j < t->cols.n; j++) {
        format_cell(&c->rows[i].report, t->cols.key[j], cells[j], sizeof cells[j]);
        ptr[j] = cells[j];
    }
    print_fixed(&t->cols, ptr, stdout);
    char what[MOORE_SPEC_MAX + 32];
    snprintf(what, sizeof what, "compare: measured %s", c->rows[i].spec);
    cli_progress(NULL, what, 1);
}

/* moore_compare_options.row_done: one table line or JSON object per row. */
static void print_row(void *vctx, const moore_compare *c, int i)
{
    row_ctx *t = vctx;
    cli_progress_done();
    if (t->json) {
        cJSON *o = json_row(c, i, t->o->tm);
        cli_compare_step_json(c->rows[i].spec, &c->rows[i].report, o);
        if (!o || cli_json_row(o, &t->first))
            t->failed = 1;
        cJSON_Delete(o);
    } else {
        print_row_table(t, c, i);
    }
}

static void pct_cell(double v, char *buf, size_t len)
{
    if (isfinite(v) && fabs(v) < 0.05)
        snprintf(buf, len, "0.0%%"); /* not -0.0% */
    else if (isfinite(v))
        snprintf(buf, len, "%+.1f%%", v);
    else
        snprintf(buf, len, "-");
}

static int print_baseline(const moore_compare *c)
{
    double pct[3];
    moore_error err;
    if (c->count == 0 || moore_compare_vs_baseline(c, 0, pct, &err)) {
        printf("\n(no clos row: no baseline comparison)\n");
        return 0;
    }
    printf("\nagainst the Clos baseline (negative: fewer than the Clos)\n\n");
    static const char *const head[] = { "family", "switches", "cables", "cost" };
    cli_table tb;
    int rc = cli_table_init(&tb, 4, head, "lrrr") ? 1 : 0;
    for (int i = 0; !rc && i < c->count; i++) {
        const moore_report_item *fam = moore_report_get(&c->rows[i].report, "family");
        char a[24], b[24], d[24];
        moore_compare_vs_baseline(c, i, pct, &err);
        pct_cell(pct[0], a, sizeof a);
        pct_cell(pct[1], b, sizeof b);
        pct_cell(pct[2], d, sizeof d);
        const char *row[] = { fam && fam->type == MOORE_VALUE_STRING ? fam->s : "file", a, b,
                              d };
        rc = cli_table_add(&tb, row) ? 1 : 0;
    }
    if (!rc)
        cli_table_print(&tb, stdout);
    cli_table_free(&tb);
    if (!rc) {
        char verdict[512];
        moore_compare_verdict(c, verdict, sizeof verdict);
        printf("\n%s\n", verdict);
    }
    return rc;
}

typedef struct compare_args {
    int json, throughput;
    const char *db, *model;
    const char *search_option;  /* the first option that steers the search */
} compare_args;

/* Parses argv into o and x; 0, or the exit status after one line. */
static int parse(int argc, char **argv, moore_compare_options *o, const char **topos,
                 compare_args *x)
{
    cli_args a;
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        long long v;
        const char *word = a.argv[a.i];
        if (cli_flag(&a, "--json", NULL))
            x->json = 1;
        else if (cli_flag(&a, "--throughput", NULL))
            x->throughput = 1;
        else if (cli_flag(&a, "--thorough", NULL))
            o->approx_tries = 2;
        else if (cli_flag(&a, "--routed", NULL))
            o->routed = 1;
        else if (cli_option(&a, "--radix", "-r")) {
            if (cli_int_value(&a, "--radix", 1, 1 << 20, &v))
                o->radix = (int32_t)v;
        } else if (cli_option(&a, "--endpoints", "-n")) {
            if (cli_int_value(&a, "--endpoints", 1, (long long)1 << 50, &v))
                o->endpoints = v;
        } else if (cli_option(&a, "--bandwidth", "-b")) {
            if (a.value && strcmp(a.value, "any") == 0)
                o->bandwidth = 0;
            else if (cli_double_value(&a, "--bandwidth", -1e300, 1e300, &o->bandwidth) &&
                     !(o->bandwidth >= 1e-9 && isfinite(o->bandwidth))) /* report's floor */
                return cli_usage_error("compare: --bandwidth %s must be a number above 0 "
                                       "(at least 1e-9) or 'any'", a.value);
        } else if (cli_option(&a, "--families", NULL))
            o->families = a.value;
        else if (cli_option(&a, "--metrics", "-m"))
            o->metrics = a.value;
        else if (cli_option(&a, "--tm", NULL))
            o->tm = a.value;
        else if (cli_option(&a, "--traffic", NULL)) {
            if (!a.value || !*a.value)
                return cli_usage_error("compare: --traffic needs uniform, hose, worst or a "
                                       "matrix as --tm takes it");
            o->traffic = a.value;
        }
        else if (cli_option(&a, "--db", NULL))
            x->db = a.value;
        else if (cli_option(&a, "--model", NULL))
            x->model = a.value;
        else if (cli_option(&a, "--seed", NULL)) {
            if (cli_int_value(&a, "--seed", 0, (long long)9e18, &v))
                o->metric.seed = (uint64_t)v;
        } else if (cli_compare_step_option(&a)) {
            continue;   /* --job, --link-rate, --step-routing: compare_step.c */
        } else if (word[0] == '-' && word[1]) {
            char hint[96];
            return cli_usage_error("compare: unknown option '%s'%s", word,
                                   cli_suggest_option("compare", word, hint, sizeof hint));
        } else {
            topos[o->topology_count++] = word;
            continue;
        }
        static const char *const steer[] = { "--radix", "-r", "--endpoints", "-n",
                                             "--bandwidth", "-b", "--families", "--thorough",
                                             "--traffic", NULL };
        for (int k = 0; steer[k] && !x->search_option; k++)
            if (strncmp(word, steer[k], strlen(steer[k])) == 0 &&
                (word[strlen(steer[k])] == '\0' || word[strlen(steer[k])] == '='))
                x->search_option = steer[k];
    }
    if (a.bad)
        return 2;
    int step_status = cli_compare_step_check("compare");
    if (step_status)
        return step_status;
    if (x->model && x->db)
        return cli_usage_error("compare: --model %s cannot reprice the costs stored in --db %s "
                               "(the sweep measured them): drop one or the other", x->model,
                               x->db);
    if (o->topology_count > 0 && x->search_option)
        return cli_usage_error("compare: %s steers the search and has no effect on the TOPO "
                               "arguments given (%s...): drop one or the other",
                               x->search_option, topos[0]);
    return 0;
}

/* compare's lookup callback: the sweep database's stored results. */
static int db_lookup(void *ctx, const char *topology, const char *task, moore_report *r,
                     int *found, moore_error *err)
{
    return moore_sweep_db_lookup(ctx, topology, task, r, found, err);
}

/* --db FILE: an existing database, opened for reading only. */
static int open_db(const char *path, moore_sweep_db **db, moore_error *err)
{
    if (access(path, F_OK) != 0)
        return moore_error_set(err, MOORE_EINVAL, "compare: --db %s: no such database (make "
                               "one with 'moore sweep SWEEPFILE --db %s')", path, path);
    return moore_sweep_db_open_read(path, db, err);
}

/* Runs the comparison, printing each row as it is done, then the notes and
 * the baseline (a table) or the end of the JSON rows; the exit status. */
static int compare_print(moore_compare_options *o, const compare_args *x, moore_error *err)
{
    row_ctx t = { o, o->metrics, x->json, 1, 0, { 0 } };
    o->row_done = print_row;
    o->row_ctx = &t;
    moore_compare c;
    int rc = moore_compare_run(o, &c, err);
    cli_progress_done();
    if (x->json && !t.first)
        cli_json_rows_end(t.first); /* a run stopped by an error keeps valid JSON */
    if (rc)
        return cli_fail(err); /* nothing held: c holds nothing on failure */
    for (int i = 0; i < c.note_count; i++)
        fprintf(stderr, "moore: compare: %s\n", c.notes[i]);
    if (x->json)
        rc = t.first ? (cli_json_rows_end(1), 0) : 0;
    else
        rc = print_baseline(&c) || cli_compare_step_table(&c);
    moore_compare_clear(&c);
    return rc || t.failed;
}

int cmd_compare(int argc, char **argv)
{
    moore_compare_options o;
    moore_compare_options_default(&o);
    cli_metric_options(&o.metric);
    compare_args x = { 0 };
    moore_sweep_db *db = NULL;
    moore_error err;
    moore_error_clear(&err);
    const char **topos = calloc((size_t)argc, sizeof *topos);
    if (!topos)
        return 1; /* nothing held yet */
    o.topologies = topos;
    moore_cost_model model;
    char metrics[256];
    int rc = parse(argc, argv, &o, topos, &x);
    if (!rc)
        rc = cli_cost_model(x.model, &model);
    o.metric.cost_model = &model;
    if (rc)
        goto done;
    if (o.metrics)
        snprintf(metrics, sizeof metrics, "%s", o.metrics);
    else if (moore_compare_default_metrics(metrics, sizeof metrics, &err)) {
        rc = cli_fail(&err);
        goto done;
    }
    if (x.throughput && !strstr(metrics, "throughput"))
        strncat(metrics, ",throughput", sizeof metrics - strlen(metrics) - 1);
    o.metrics = metrics;
    if (x.db && open_db(x.db, &db, &err)) {
        rc = cli_fail(&err);
        goto done;
    }
    if (db) { /* stored results through compare's lookup callback */
        o.lookup = db_lookup;
        o.lookup_ctx = db;
    }
    rc = compare_print(&o, &x, &err);

done:
    free(topos);
    moore_sweep_db_close(db);
    return rc;
}
