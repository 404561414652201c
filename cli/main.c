/* main.c — the `moore` command: dispatch to one cmd_*.c per command, shared
 * option helpers, and the mapping from library error codes to exit status
 * (0 ok, 2 bad input, 1 internal failure; README.md). */
#include "cli.h"
#include "env_rule.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The exit status of a library error code: 2 for bad input (EINVAL,
 * ETOOBIG, EIO), 1 for internal failures, 0 for MOORE_OK. */
static int cli_exit_status(int code)
{
    switch (code) {
    case MOORE_OK: return 0;
    case MOORE_EINVAL:
    case MOORE_ETOOBIG:
    case MOORE_EIO: return 2;
    default: return 1;
    }
}

int cli_fail(const moore_error *err)
{
    fprintf(stderr, "moore: %s\n", err->msg[0] ? err->msg : moore_error_name(err->code));
    return cli_exit_status(err->code ? err->code : MOORE_EINTERNAL);
}

int cli_usage_error(const char *fmt, ...)
{
    char raw[MOORE_ERRMSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    moore_error err; /* moore_error_set escapes control characters: one line */
    moore_error_set(&err, MOORE_EINVAL, "%s", raw);
    fprintf(stderr, "moore: %s\n", err.msg);
    return 2;
}

void cli_args_init(cli_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->argc = argc;
    a->argv = argv;
    a->cmd = argv[0];
    a->i = 1;
}

int cli_flag(cli_args *a, const char *name, const char *alias)
{
    const char *s = a->argv[a->i];
    return strcmp(s, name) == 0 || (alias && strcmp(s, alias) == 0);
}

int cli_option(cli_args *a, const char *name, const char *alias)
{
    const char *s = a->argv[a->i];
    size_t n = strlen(name);
    if (strncmp(s, name, n) == 0 && s[n] == '=') {
        a->value = s + n + 1;
        return 1;
    }
    if (strcmp(s, name) != 0 && !(alias && strcmp(s, alias) == 0))
        return 0;
    if (a->i + 1 >= a->argc) {
        cli_usage_error("%s: option %s needs a value", a->cmd, name);
        a->bad = 1;
        a->value = NULL;
        return 1;
    }
    a->value = a->argv[++a->i];
    return 1;
}

int cli_positional(cli_args *a, const char **slot)
{
    const char *s = a->argv[a->i];
    char hint[96];
    if (s[0] == '-' && s[1])
        return cli_usage_error("%s: unknown option '%s'%s", a->cmd, s,
                               cli_suggest_option(a->cmd, s, hint, sizeof hint));
    if (*slot)
        return cli_usage_error("%s: unexpected argument '%s'", a->cmd, s);
    *slot = s;
    return 0;
}

int cli_load_for_output(const char *topo, const char *format, moore_graph **g)
{
    moore_error err;
    const moore_format *fmt;
    moore_error_clear(&err);
    if (moore_format_find(format, &fmt, &err) || cli_topology_load(topo, g, &err))
        return cli_fail(&err);
    return 0;
}

int cli_int_value(cli_args *a, const char *name, long long lo, long long hi, long long *out)
{
    if (!a->value)
        return 0;
    int64_t v = 0;
    moore_parse_status st = moore_parse_int(a->value, lo, hi, &v);
    if (st != MOORE_PARSE_OK) {
        if (st == MOORE_PARSE_SYNTAX)
            cli_usage_error("%s: %s '%s' is not an integer (decimal digits, no '+', blanks or "
                            "leading zeros)", a->cmd, name, a->value);
        else
            cli_usage_error("%s: %s %s is outside %lld..%lld", a->cmd, name, a->value, lo, hi);
        a->bad = 1;
        return 0;
    }
    *out = v;
    return 1;
}

int cli_double_value(cli_args *a, const char *name, double lo, double hi, double *out)
{
    if (!a->value)
        return 0;
    double v = 0;
    moore_parse_status st = moore_parse_number(a->value, lo, hi, &v);
    if (st != MOORE_PARSE_OK) {
        if (st == MOORE_PARSE_SYNTAX)
            cli_usage_error("%s: %s '%s' is not a number (such as 0.25 or 1e-3)", a->cmd, name,
                            a->value);
        else
            cli_usage_error("%s: %s %s is outside %g..%g", a->cmd, name, a->value, lo, hi);
        a->bad = 1;
        return 0;
    }
    *out = v;
    return 1;
}

static int progress_shown;

void cli_progress(void *ctx, const char *what, double fraction)
{
    (void)ctx;
    if (!isatty(2)) {   /* --progress to a file or pipe: a line per step and per 10% */
        static char last_what[64];
        static int last_tenth = -1;
        int pct = (int)(100.0 * fraction);
        if (!cli_progress_forced() ||
            (pct / 10 == last_tenth && strncmp(what, last_what, 63) == 0))
            return;
        snprintf(last_what, sizeof last_what, "%s", what);
        last_tenth = pct / 10;
        fprintf(stderr, "moore: %s %d%%\n", what, pct);
        return;
    }
    fprintf(stderr, "\r%-40.40s %5.1f%%", what, 100.0 * fraction);
    fflush(stderr);
    progress_shown = 1;
}

double cli_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int cli_topology_load(const char *arg, moore_graph **out, moore_error *err)
{
    int rc = moore_topology_load_progress(arg, cli_progress, NULL, out, err);
    cli_progress_done();
    return rc;
}

void cli_progress_done(void)
{
    if (progress_shown) {
        fprintf(stderr, "\r%50s\r", "");
        progress_shown = 0;
    }
}

void cli_metric_options(moore_metric_options *o)
{
    moore_metric_options_default(o);
    o->progress = cli_progress;
    o->threads = cli_threads();
    o->dist = cli_dist();
}

static void print_help(FILE *out)
{
    fprintf(out, "moore %s — build and evaluate datacenter and HPC network topologies\n\n"
                 "usage: moore <command> [options]\n\ncommands:\n", MOORE_VERSION);
    for (const cli_command *c = cli_commands(); c->name; c++)
        fprintf(out, "  %-10s %s\n", c->name, c->summary);
    fprintf(out, "\nA topology argument is a SPEC such as slimfly:q=13,radix=48 or a file.\n"
                 "'moore families' lists the families; 'moore CMD --help' explains a command.\n");
}

static int run_main(int argc, char **argv);

/* The environment the libraries must see when they load (cli/env_rule.h).
 * The `moore` launcher sets it before starting this program; started some
 * other way (moore-core directly, a debugger), the program sets it and
 * starts itself once more. */
static void cli_reexec_env(char **argv)
{
    if (cli_env_rule() == 1)
        execv("/proc/self/exe", argv); /* returns only on failure: run as we are */
}

/* SIGINT, SIGTERM, SIGHUP: the temporary of an output file being written is
 * removed, then the signal ends the process as it would have. Commands that
 * stop gracefully on a signal (throughput, sweep) install their own. */
static void on_stop_signal(int sig)
{
    moore_atomic_remove_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_stop_signals(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    for (int i = 0; i < 3; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue; /* nohup, or a shell's background job: stay ignored */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

static int stdout_errno; /* errno of the first failed flush of stdout */

int cli_stdout_flush(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    if (!stdout_errno)
        stdout_errno = errno;
    return 1;
}

/* Everything a command printed must have reached standard output: a full
 * disk or /dev/full shows up only when the buffer is flushed or the stream
 * closed, so both are checked here, once, for every command (the flush
 * before the distributed run stops, the close after it). A command that
 * already failed keeps its own status and line. Returns the exit status. */
static int stdout_status(int rc, int closing)
{
    int bad = cli_stdout_flush();
    if (closing) {
        errno = 0;
        if (fclose(stdout) != 0) {
            bad = 1;
            if (!stdout_errno)
                stdout_errno = errno;
        }
    }
    if (!bad || rc)
        return rc;
    fprintf(stderr, "moore: cannot write standard output: %s\n",
            stdout_errno ? strerror(stdout_errno) : "a write failed");
    return 2; /* as for -o FILE that cannot be written (MOORE_EIO) */
}

int main(int argc, char **argv)
{
    cli_reexec_env(argv);
    catch_stop_signals();
    int rc = cli_dist_start(&argc, &argv);
    if (!rc)
        rc = run_main(argc, argv);
    rc = stdout_status(rc, 0);
    cli_dist_stop();
    return stdout_status(rc, 1);
}

static int run_main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        (strcmp(argv[1], "help") == 0 && argc == 2)) {
        print_help(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("moore %s\n", MOORE_VERSION);
        return 0;
    }
    char hint[96];
    if (strcmp(argv[1], "help") == 0) { /* moore help CMD = moore CMD --help */
        const cli_command *c = cli_command_find(argv[2]);
        if (!c)
            return cli_usage_error("help: unknown command '%s'%s (see 'moore --help')", argv[2],
                                   cli_suggest_command(argv[2], hint, sizeof hint));
        fputs(c->usage, stdout);
        return 0;
    }
    const cli_command *c = cli_command_find(argv[1]);
    if (!c)
        return cli_usage_error("unknown command '%s'%s (see 'moore --help')", argv[1],
                               cli_suggest_command(argv[1], hint, sizeof hint));
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(c->usage, stdout);
            return 0;
        }
    int n = argc - 1;   /* --threads, --progress, --json=lines: options.c */
    if (cli_common_options(&n, argv + 1))
        return 2;
    int rc = c->run(n, argv + 1);
    cli_progress_done();
    return rc;
}
