/* cli.h — what the command files share: the command table entry, option
 * parsing, error reporting and progress drawing. The CLI is a thin layer: it
 * parses argv, calls the library, and prints; all real work is in libmoore. */
#ifndef MOORE_CLI_H
#define MOORE_CLI_H

#include <stdio.h>
#include "moore/moore.h"

typedef struct cli_command {
    const char *name;
    const char *summary;
    const char *usage;      /* full help text for `moore CMD --help` */
    int (*run)(int argc, char **argv);  /* argv[0] is the command name */
} cli_command;

const cli_command *cli_commands(void);
/* The command named name, or NULL. */
const cli_command *cli_command_find(const char *name);
/* " (did you mean 'X'?)" for an unknown command or an unknown option of cmd
 * (options are read from cmd's usage text), or "" (suggest.c). */
const char *cli_suggest_command(const char *word, char *buf, size_t len);
const char *cli_suggest_option(const char *cmd, const char *word, char *buf, size_t len);

/* Flushes stdout; 1 when it failed (main() reports it once at exit). */
int cli_stdout_flush(void);
/* Prints "moore: <msg>" on stderr and returns the exit status for err->code. */
int cli_fail(const moore_error *err);
/* Prints "moore: <formatted>" on stderr and returns 2 (bad usage). */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A tiny argv walker: options may come before or after positionals;
 * "--name value", "--name=value" and "-x value" are accepted. */
typedef struct cli_args {
    int argc, i;
    char **argv;
    const char *cmd;
    const char *value;      /* value of the option just matched */
    int bad;                /* set once an error was printed */
} cli_args;

void cli_args_init(cli_args *a, int argc, char **argv);
/* 1 when argv[i] is the flag `name` (or its short alias, may be NULL). */
int cli_flag(cli_args *a, const char *name, const char *alias);
/* 1 when argv[i] is option `name` with a value; a.value holds it. */
int cli_option(cli_args *a, const char *name, const char *alias);
/* Takes argv[i] as the command's one positional argument into *slot and
 * returns 0; refuses a dash word ("unknown option") or a second positional
 * ("unexpected argument") with one line on stderr and returns 2. */
int cli_positional(cli_args *a, const char **slot);
/* Parses a.value as an integer in [lo, hi] or prints an error and returns 0. */
int cli_int_value(cli_args *a, const char *name, long long lo, long long hi, long long *out);
int cli_double_value(cli_args *a, const char *name, double lo, double hi, double *out);

/* For commands that write a topology: refuses an unknown output format before
 * the (possibly long) build, then loads TOPO. Returns 0, or the exit status
 * after printing one line. */
int cli_load_for_output(const char *topo, const char *format, moore_graph **g);

/* Seconds on the monotonic clock, for elapsed times the commands print. */
double cli_seconds(void);

/* Progress on stderr, only when stderr is a terminal (no-op otherwise). */
void cli_progress(void *ctx, const char *what, double fraction);
void cli_progress_done(void);
/* moore_topology_load with the command's progress (cli_progress). */
int cli_topology_load(const char *arg, moore_graph **out, moore_error *err);

/* Fills metric options with the CLI's progress callback and --threads. */
void cli_metric_options(moore_metric_options *o);
/* `--model NAME|FILE` of compare and report: the model (NULL: the default);
 * 0, or the exit status after one line. */
int cli_cost_model(const char *name_or_path, moore_cost_model *m);

/* ---- options every command takes (options.c, docs/json.md) ----
 * --threads N, --progress, --json=pretty|lines. main() calls
 * cli_common_options once before the command; it removes them from argv
 * (unless the command's usage lists them) and leaves a plain --json. */
int cli_common_options(int *argc, char **argv);
int cli_threads(void);          /* --threads N, or 0 (OpenMP default) */
int cli_progress_forced(void);  /* --progress given */
int cli_json_pretty(void);      /* 0 with --json=lines, else 1 */
struct cJSON;
/* Prints and frees v: indented, or one compact line; with --json=lines an
 * array prints one element a line. Returns 0, or 1 when printing failed. */
int cli_json_print(struct cJSON *v);
/* Streams rows as they are done: an indented array (first is 1 before the
 * first row) or, with --json=lines, one row a line; then cli_json_rows_end. */
int cli_json_row(const struct cJSON *row, int *first);
void cli_json_rows_end(int first);

/* dist.c: an MPI run. cli_dist_start joins the job (rank > 0 goes quiet);
 * cli_dist is its process group (NULL without MPI); cli_dist_writer is 1 on
 * the rank that writes output files. */
int cli_dist_start(int *argc, char ***argv);
const moore_dist *cli_dist(void);
int cli_dist_writer(void);
void cli_dist_stop(void);

/* cmd_deploy.c: `moore route --lfts FILE --fabric F`, the routes of an LFT
 * dump read back and reported as a routing. */
int cli_route_lfts(const char *lfts, const char *fabric, const char *tm, int json);

#endif
