/* bench_paths.c — all-pairs distance metrics: moore against igraph.
 *
 * For each size it makes one seeded random d-regular graph (configuration
 * model: shuffled stubs, then edge swaps until the graph is simple), hands the
 * SAME links to moore and to igraph, checks that both find the same diameter
 * and average path length, and prints the times, their ratio, the cost model
 * of the bit-parallel BFS (D · 2E · N/64 word operations) and the word
 * operations per second moore achieved against it.
 *
 * igraph (GPL) is linked by this program only, never by libmoore or the CLI.
 *
 *   bench_paths [--sizes 4000,16000] [--degree 32] [--seed 1] [--repeat 5]
 *               [--igraph-full] [--moore-only] [--save PREFIX]
 * --igraph-full also times igraph_diameter + igraph_average_path_length (two
 * all-pairs passes) at every size; by default only at the smallest.
 * --moore-only skips igraph (for tuning moore; no check, no ratio).
 * --save writes each graph as PREFIX<n>.edges so `moore stats` can be timed
 * on the very same graph. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <igraph.h>
#include <omp.h>

#include "moore/moore.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The 1-minute load average: the machine is shared, so say how busy it was. */
static const char *loadavg(void)
{
    static char buf[32];
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f || !fgets(buf, sizeof buf, f))
        snprintf(buf, sizeof buf, "unknown ");
    if (f)
        fclose(f);
    buf[strcspn(buf, " ")] = 0;
    return buf;
}

static void die(const char *what, const moore_error *err)
{
    fprintf(stderr, "bench_paths: %s%s%s\n", what, err ? ": " : "", err ? err->msg : "");
    exit(1);
}

/* ---- a seeded random d-regular simple graph ---- */

typedef struct regular {
    int32_t n, d;
    int64_t m;
    int32_t *eu, *ev;  /* m links (may be loops or repeats until repaired) */
    int32_t *nbr;      /* n × d neighbour slots, a loop taking two of v's */
} regular;

static int count_link(const regular *R, int32_t u, int32_t v)
{
    int c = 0;
    for (int32_t k = 0; k < R->d; k++)
        c += R->nbr[(size_t)u * R->d + k] == v;
    return c;
}

static void slot_replace(regular *R, int32_t u, int32_t from, int32_t to)
{
    for (int32_t k = 0; k < R->d; k++)
        if (R->nbr[(size_t)u * R->d + k] == from) {
            R->nbr[(size_t)u * R->d + k] = to;
            return;
        }
    die("internal: neighbour slot not found", NULL);
}

static int bad_link(const regular *R, int64_t i)
{
    return R->eu[i] == R->ev[i] || count_link(R, R->eu[i], R->ev[i]) > 1;
}

static void random_regular(regular *R, int32_t n, int32_t d, uint64_t seed)
{
    if ((int64_t)n * d % 2 || d >= n)
        die("n·d must be even and d < n", NULL);
    R->n = n;
    R->d = d;
    R->m = (int64_t)n * d / 2;
    int32_t *stubs = malloc((size_t)n * d * sizeof *stubs);
    R->eu = malloc((size_t)R->m * sizeof *R->eu);
    R->ev = malloc((size_t)R->m * sizeof *R->ev);
    R->nbr = malloc((size_t)n * d * sizeof *R->nbr);
    int32_t *fill = calloc((size_t)n, sizeof *fill);
    if (!stubs || !R->eu || !R->ev || !R->nbr || !fill)
        die("out of memory", NULL);
    for (int64_t k = 0; k < (int64_t)n * d; k++)
        stubs[k] = (int32_t)(k / d);
    moore_rng rng;
    moore_rng_seed(&rng, seed);
    moore_rng_shuffle_i32(&rng, stubs, (int64_t)n * d);
    for (int64_t i = 0; i < R->m; i++) {
        int32_t u = stubs[2 * i], v = stubs[2 * i + 1];
        R->eu[i] = u;
        R->ev[i] = v;
        R->nbr[(size_t)u * d + fill[u]++] = v;
        R->nbr[(size_t)v * d + fill[v]++] = u;
    }
    free(stubs);
    free(fill);
    /* Repair: swap each loop or repeated link (a,b) with a random link (c,e)
     * into (a,c),(b,e) when that creates no loop or repeat. Degrees stay d. */
    for (int pass = 0;; pass++) {
        int64_t bad = 0;
        for (int64_t i = 0; i < R->m; i++) {
            if (!bad_link(R, i))
                continue;
            bad++;
            int64_t j = (int64_t)moore_rng_below(&rng, (uint64_t)R->m);
            int32_t a = R->eu[i], b = R->ev[i], c = R->eu[j], e = R->ev[j];
            if (moore_rng_below(&rng, 2)) {
                int32_t t = c;
                c = e;
                e = t;
            }
            /* no loop, no existing link, and not the same new link twice */
            if (j == i || a == c || b == e || count_link(R, a, c) || count_link(R, b, e) ||
                (a == b && c == e))
                continue;
            slot_replace(R, a, b, c);
            slot_replace(R, b, a, e);
            slot_replace(R, c, e, a);
            slot_replace(R, e, c, b);
            R->eu[i] = a;
            R->ev[i] = c;
            R->eu[j] = b;
            R->ev[j] = e;
        }
        if (!bad)
            break;
        if (pass > 1000)
            die("random regular graph: repair did not converge", NULL);
    }
}

/* ---- the two tools ---- */

typedef struct answer {
    int32_t diameter;
    double apl;
    double seconds;
} answer;

static moore_graph *to_moore(const regular *R)
{
    moore_builder *b;
    moore_graph *g;
    moore_error err;
    if (moore_builder_new(R->n, R->m, &b, &err))
        die("builder", &err);
    for (int64_t i = 0; i < R->m; i++)
        if (moore_builder_add_link(b, R->eu[i], R->ev[i], &err))
            die("builder", &err);
    if (moore_builder_finish(b, &g, &err))
        die("builder", &err);
    return g;
}

/* Runs are repeated at least `repeat` times and for at least a second, and
 * the best is kept: the machine is shared, and the minimum is the run that
 * was not interrupted. */
static int more_runs(int done, int repeat, double started)
{
    return done < repeat || (now() - started < 1.0 && done < 1000);
}

/* moore_paths_compute with `threads` threads, best of several runs. */
static answer run_moore(const moore_graph *g, int threads, int repeat)
{
    answer a = { 0, 0, INFINITY };
    double started = now();
    for (int r = 0; more_runs(r, repeat, started); r++) {
        moore_metric_options o;
        moore_metric_options_default(&o);
        o.threads = threads;
        moore_paths_result p;
        moore_error err;
        double t0 = now();
        if (moore_paths_compute(g, &o, &p, &err))
            die("moore_paths_compute", &err);
        double t = now() - t0;
        if (!p.connected)
            die("the random graph is disconnected; try another --seed", NULL);
        a.diameter = p.diameter;
        a.apl = p.avg_path_length;
        if (t < a.seconds)
            a.seconds = t;
        moore_paths_result_clear(&p);
    }
    return a;
}

/* The whole "paths" metric group — what `moore stats --metrics paths` runs
 * (components, all-pairs distances, girth, Moore bound), best of several. */
static double run_moore_group(const moore_graph *g, int repeat)
{
    double best = INFINITY;
    double started = now();
    for (int r = 0; more_runs(r, repeat, started); r++) {
        moore_report rep;
        moore_error err;
        moore_report_init(&rep);
        double t0 = now();
        if (moore_metrics_compute(g, "paths", NULL, &rep, &err))
            die("moore_metrics_compute", &err);
        double t = now() - t0;
        moore_report_clear(&rep);
        if (t < best)
            best = t;
    }
    return best;
}

static void to_igraph(const regular *R, igraph_t *ig)
{
    igraph_vector_int_t edges;
    if (igraph_vector_int_init(&edges, 2 * R->m))
        die("igraph_vector_int_init", NULL);
    for (int64_t i = 0; i < R->m; i++) {
        VECTOR(edges)[2 * i] = R->eu[i];
        VECTOR(edges)[2 * i + 1] = R->ev[i];
    }
    if (igraph_create(ig, &edges, R->n, IGRAPH_UNDIRECTED))
        die("igraph_create", NULL);
    igraph_vector_int_destroy(&edges);
}

/* One all-pairs pass: igraph_path_length_hist gives both numbers. */
static answer run_igraph_hist(const igraph_t *ig)
{
    answer a = { 0, 0, 0 };
    igraph_vector_t hist;
    igraph_real_t unconnected;
    igraph_vector_init(&hist, 0);
    double t0 = now();
    if (igraph_path_length_hist(ig, &hist, &unconnected, IGRAPH_UNDIRECTED))
        die("igraph_path_length_hist", NULL);
    a.seconds = now() - t0;
    double sum = 0, pairs = 0;
    for (igraph_integer_t i = 0; i < igraph_vector_size(&hist); i++) {
        sum += (double)(i + 1) * VECTOR(hist)[i];
        pairs += VECTOR(hist)[i];
    }
    a.diameter = (int32_t)igraph_vector_size(&hist);
    a.apl = sum / pairs;
    igraph_vector_destroy(&hist);
    return a;
}

/* The two calls most users write: two all-pairs passes. */
static answer run_igraph_pair(const igraph_t *ig)
{
    answer a = { 0, 0, 0 };
    igraph_real_t diam, apl;
    double t0 = now();
    if (igraph_diameter(ig, &diam, NULL, NULL, NULL, NULL, IGRAPH_UNDIRECTED, 1) ||
        igraph_average_path_length(ig, &apl, NULL, IGRAPH_UNDIRECTED, 1))
        die("igraph_diameter / igraph_average_path_length", NULL);
    a.seconds = now() - t0;
    a.diameter = (int32_t)diam;
    a.apl = apl;
    return a;
}

static void check_same(const char *what, answer x, answer y)
{
    if (x.diameter != y.diameter || !(fabs(x.apl - y.apl) <= 1e-9)) {
        fprintf(stderr, "bench_paths: MISMATCH (%s): moore D=%d APL=%.12f, igraph D=%d APL=%.12f\n",
                what, x.diameter, x.apl, y.diameter, y.apl);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    int32_t sizes[16] = { 4000, 16000 }, nsizes = 2, degree = 32;
    uint64_t seed = 1;
    int repeat = 5, igraph_full = 0, moore_only = 0;
    const char *save = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            nsizes = 0;
            for (char *s = strtok(argv[++i], ","); s && nsizes < 16; s = strtok(NULL, ","))
                sizes[nsizes++] = (int32_t)atol(s);
        } else if (!strcmp(argv[i], "--degree") && i + 1 < argc)
            degree = (int32_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--igraph-full"))
            igraph_full = 1;
        else if (!strcmp(argv[i], "--moore-only"))
            moore_only = 1;
        else if (!strcmp(argv[i], "--save") && i + 1 < argc)
            save = argv[++i];
        else {
            fprintf(stderr, "usage: bench_paths [--sizes N,N] [--degree D] [--seed S] "
                            "[--repeat R] [--igraph-full] [--moore-only] [--save PREFIX]\n");
            return 2;
        }
    }
    if (repeat < 1)
        repeat = 1;
    int threads = omp_get_max_threads();
    printf("# all-pairs distances on random %d-regular graphs (seed %llu); moore: best of >= %d "
           "runs and >= 1 s; igraph: one run, single-threaded\n",
           (int)degree, (unsigned long long)seed, repeat);
    printf("# igraph %s; moore %s; OpenMP threads: %d; load average before: %s\n",
           IGRAPH_VERSION, MOORE_VERSION, threads, loadavg());
    printf("%7s %3s %12s | %10s %10s %10s | %10s %10s | %8s %8s | %10s %8s\n", "N", "D", "APL",
           "moore_1t", "moore", "stats", "ig_hist", "ig_d+apl", "ratio", "ratio_1t", "model_Gw",
           "Gw/s");
    for (int s = 0; s < nsizes; s++) {
        regular R;
        random_regular(&R, sizes[s], degree, seed);
        moore_graph *g = to_moore(&R);
        if (save) {
            char path[4096];
            moore_error err;
            snprintf(path, sizeof path, "%s%d.edges", save, (int)R.n);
            if (moore_graph_write(g, path, "edgelist", &err))
                die("writing the graph", &err);
        }
        igraph_t ig;
        to_igraph(&R, &ig);

        answer m1 = run_moore(g, 1, repeat);
        answer mt = run_moore(g, threads, repeat);
        double group = run_moore_group(g, repeat);
        answer ih = { 0, 0, NAN }, ip = { 0, 0, NAN };
        if (!moore_only) {
            ih = run_igraph_hist(&ig);
            check_same("path_length_hist", mt, ih);
            check_same("1 thread", m1, ih);
        }
        if (!moore_only && (igraph_full || s == 0)) {
            ip = run_igraph_pair(&ig);
            check_same("diameter + average_path_length", mt, ip);
        }
        /* igraph's fastest way is the reference for the ratio */
        double ig_best = fmin(ih.seconds, ip.seconds); /* fmin skips a NaN */
        /* cost model: D levels × 2E arcs × N/64 words per arc */
        double model = (double)mt.diameter * 2.0 * (double)R.m * (double)R.n / 64.0;
        printf("%7d %3d %12.9f | %9.4fs %9.4fs %9.4fs | ", (int)R.n, (int)mt.diameter,
               mt.apl, m1.seconds, mt.seconds, group);
        for (int k = 0; k < 2; k++) {
            double t = k ? ip.seconds : ih.seconds;
            if (isnan(t))
                printf("%10s ", "-");
            else
                printf("%9.3fs ", t);
        }
        printf("| %7.1fx %7.1fx | %10.3f %8.2f\n", ig_best / mt.seconds, ig_best / m1.seconds,
               model / 1e9, model / mt.seconds / 1e9);
        fflush(stdout);
        igraph_destroy(&ig);
        moore_graph_free(g);
        free(R.eu);
        free(R.ev);
        free(R.nbr);
    }
    printf("# load average after: %s\n", loadavg());
    printf("# moore = moore_paths_compute on all threads, moore_1t on one, stats = the whole "
           "'paths' group of `moore stats --metrics paths` (adds components and girth);\n"
           "# ig_hist = igraph_path_length_hist, ig_d+apl = igraph_diameter + "
           "igraph_average_path_length; ratio = fastest igraph / moore;\n"
           "# model_Gw = D*2E*N/64 word operations (1e9), Gw/s = model / moore time.\n");
    return 0;
}
