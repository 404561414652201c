/* report_internal.h — what the report's files share: HTML pieces (html.c),
 * figures with their numbers (figure.c), and the measurements the page is
 * made of (sweep.c, claims.c). */
#ifndef MOORE_SRC_REPORT_INTERNAL_H
#define MOORE_SRC_REPORT_INTERNAL_H

#include <stdio.h>
#include "moore/page.h"
#include "moore/plan.h"
#include "moore/plot.h"
#include "moore/step.h"
#include "moore/sweep.h"

/* html.c */
void page_html_text(FILE *out, const char *s);
void page_html_begin(FILE *out, const char *title);
void page_html_end(FILE *out);
void page_html_heading(FILE *out, const char *id, const char *text);
void page_html_paragraph(FILE *out, const char *text);
void page_html_table_begin(FILE *out, const char *id, const char *const *headers, int n);
void page_html_table_row(FILE *out, const char *const *cells, int n);
void page_html_table_end(FILE *out);
void page_html_figure(FILE *out, const char *id, const moore_plot *p, const char *svg,
                 const char *caption);

/* figure.c: a figure's numbers, drawn, tabulated under it and written as CSV. */
#define FIG_SERIES_MAX 40
#define FIG_POINTS_MAX 64

typedef struct fig {
    char id[32];                /* anchor and CSV file name: <id>.csv */
    char caption[1024];
    moore_plot plot;
    int nseries;
    int64_t npoints;
    char names[FIG_SERIES_MAX][64];
    char cats[FIG_POINTS_MAX][32];
    const char *cat_ptr[FIG_POINTS_MAX];
    double x[FIG_POINTS_MAX];
    double y[FIG_SERIES_MAX][FIG_POINTS_MAX];
    double lo[FIG_SERIES_MAX][FIG_POINTS_MAX], hi[FIG_SERIES_MAX][FIG_POINTS_MAX];
    int bounds;                 /* lo/hi are set */
} fig;

/* A figure with every value NaN (no point) and these labels. */
void page_fig_init(fig *f, const char *id, moore_plot_kind kind, const char *title,
              const char *xlabel, const char *ylabel, int logx, int logy);
/* The index of series name, added if new (-1 when full). */
int page_fig_series(fig *f, const char *name);
/* Draws f into out with its numbers under it and, with a data directory, its
 * CSV; a figure without any finite value is replaced by a note. */
int page_fig_emit(fig *f, FILE *out, const char *data_dir, moore_error *err);

/* robust.c: resilience curves and routed throughput of each chosen topology. */
#define PAGE_CONNECTED_COUNT 10
#define PAGE_THROUGHPUT_COUNT 4
#define PAGE_DISCONNECT_TRIALS 50   /* removal orders behind the connected share */
#define PAGE_FAIL_TRIALS 2          /* failure draws per level behind the throughput */
#define PAGE_ROBUST_EPS 0.1
#define PAGE_ROBUST_PHASES 16       /* routing figure: KSP-8 and the optimum */
#define PAGE_KSP_MAX 400            /* switches up to which KSP-8 is measured */
extern const double PAGE_CONNECTED_LEVELS[PAGE_CONNECTED_COUNT];   /* share of links failed */
extern const double PAGE_THROUGHPUT_LEVELS[PAGE_THROUGHPUT_COUNT];

typedef struct page_robust {
    double connected[PAGE_CONNECTED_COUNT];   /* share of trials connected */
    double throughput[PAGE_THROUGHPUT_COUNT]; /* mean ECMP throughput of connected survivors */
} page_robust;

typedef struct page_routed {                  /* uniform throughput per server */
    double ecmp;                              /* exact */
    double ksp, ksp_upper, optimal, optimal_upper; /* proven bounds */
} page_routed;

/* out[i] for row i of c (NaN where undefined, e.g. a disconnected graph). */
int page_resilience_measure(const moore_page_options *o, const moore_compare *c,
                            page_robust *out, moore_error *err);
int page_routed_measure(const moore_page_options *o, const moore_compare *c, page_routed *out,
                        moore_error *err);
/* Uniform throughput of g under ECMP (exact); NaN when disconnected or with
 * fewer than two switches with servers. */
int page_ecmp_uniform(const moore_graph *g, const moore_page_options *o, double *thr,
                      moore_error *err);

/* steptime.c: one training step of o->job on each row of the main comparison. */
#define PAGE_STEP_EPS 0.1
#define PAGE_STEP_PHASES 64         /* approximation phases per throughput, at most */

typedef struct page_step {
    int ok;                     /* r holds the row's step */
    moore_step_result r;
    char why[sizeof ((moore_error *)0)->msg]; /* otherwise why not (the job does not fit) */
} page_step;

/* out[i] for row i of c (c->count entries, each cleared by page_steps_clear). */
int page_step_measure(const moore_page_options *o, const moore_compare *c, page_step *out,
                      moore_error *err);
void page_steps_clear(page_step *s, int count);

/* sweep.c: the main comparison and the sweep over endpoint counts. The
 * throughput figure's keys in each main row (not compare's columns, so the
 * table shows compare's own): uniform traffic's bounds, compare's proof
 * where it ran one, and the hose bounds. */
#define PAGE_UNIFORM_LOWER "page_uniform_lower"
#define PAGE_UNIFORM_UPPER "page_uniform_upper"
#define PAGE_HOSE_LOWER "page_hose_lower"
#define PAGE_HOSE_UPPER "page_hose_upper"

/* sweep.c: the main comparison and the sweep over endpoint counts. */
typedef struct page_data {
    moore_compare main;         /* at o->endpoints, every default metric */
    page_robust *robust;        /* main.count entries */
    page_routed *routed;        /* sweep[0].count entries */
    page_step *step;            /* main.count entries with o->job, else NULL */
    moore_sweep_db *db;         /* o->db opened, or NULL */
    int groups_read, groups_measured;  /* metric groups taken from db / measured */
    int sweep_count;
    moore_compare sweep[MOORE_PAGE_SWEEP_MAX];
} page_data;

int page_measure(const moore_page_options *o, page_data *d, moore_error *err);
/* fn(ctx, i, err) for every row i < count, the rows side by side over
 * `threads` threads (< 1: OpenMP's default), each call on one thread: fn
 * writes only row i's results, so they are the same for any thread count.
 * The first failing row's error, in row order. */
typedef int (*page_row_fn)(void *ctx, int i, moore_error *err);
int page_each_row(int count, int threads, page_row_fn fn, void *ctx, moore_error *err);
void page_data_clear(page_data *d);
/* The row of family name in c, or NULL. */
const moore_compare_row *page_row(const moore_compare *c, const char *family);

/* rows.c: the main comparison read from o->rows (compare's JSON lines): the
 * rows of o's families in the file's order, compare's values over the paths
 * group measured on each rebuilt graph, a note per family without a row.
 * MOORE_EINVAL, one line, for a file that is not compare's output for o. */
int page_rows_read(const moore_page_options *o, moore_compare *out, moore_error *err);

/* figures.c: every figure of the page. */
int page_figures(const moore_page_options *o, const page_data *d, FILE *out, moore_error *err);
/* steptime.c: the training step's heading, figure (drawn in f), table and notes. */
int page_step_section(const moore_page_options *o, const page_data *d, FILE *out, fig *f,
                      moore_error *err);

/* claims.c: the often-quoted claims about the families, measured. */
int page_claims(const moore_page_options *o, const page_data *d, FILE *out, moore_error *err);

#endif
