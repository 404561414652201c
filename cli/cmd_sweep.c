/* cmd_sweep.c — `moore sweep SWEEPFILE [--db FILE] [--jobs N] [--force]`.
 *
 * Expands the sweep file (library: moore_sweep_load), registers its
 * configurations in the database, and measures what is not there yet. With
 * --jobs N the configurations are shared among N worker processes, each with
 * its own database connection: processes rather than threads, because some
 * libraries moore calls (ARPACK, nauty) keep static state and must not run
 * twice at once in one process. Results do not depend on N, on the threads
 * or on where a stopped sweep resumed: every configuration is measured from
 * its own seed in a process of its own, forked from one that never ran a
 * solver, because ARPACK's restart vectors come from a seed it keeps between
 * calls (a graph with few distinct eigenvalues exhausts Lanczos's Krylov
 * space, and the new start vector's seed then depends on every earlier call
 * in the process: the last digits of λ₂ would depend on which configurations
 * the same process measured before). Under mpirun the ranks
 * share the configurations the same way (rank r takes i mod K == r), each
 * with its own connection: rank 0 registers them first, the others after. */
#include "cli.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>
#include "moore/sweep.h"

const char cmd_sweep_usage[] =
    "usage: moore sweep SWEEPFILE [--db FILE] [--jobs N] [--force] [--threads N]\n"
    "                   [--progress] [--list]\n\n"
    "Measures every configuration a sweep file (JSON, see docs/sweep.md) defines and\n"
    "stores the results in an SQLite database. Rerunning the same sweep measures only\n"
    "what is missing (a killed sweep loses at most the configuration in flight).\n\n"
    "  --db FILE      results database (default: SWEEPFILE with .db for .json)\n"
    "  --jobs N       measure N configurations at once in worker processes (default 1)\n"
    "  --force        measure again what is already in the database\n"
    "  --threads N    OpenMP threads per job (default: the cores divided by the jobs)\n"
    "  --progress     a progress line per configuration on stderr (default: on a terminal)\n"
    "  --list         print the configurations and tasks, measure nothing\n";

typedef struct sweep_run {
    const char *file, *db;
    long long jobs, threads;
    int force, lines, list;
    moore_sweep s;
    int64_t *ids;
    int32_t *each;          /* tasks still to measure, per configuration */
    double *weight;         /* per configuration: its size, for the time estimate */
    int64_t pending;
    double t0;
    int report_fd;          /* a worker's end of the pipe to the parent, or -1 */
} sweep_run;

/* Work done so far and in all, in tasks and in size-weighted tasks. */
typedef struct sweep_work {
    int64_t tasks, total_tasks;
    double weight, total_weight;
} sweep_work;

/* What a worker tells its parent after each configuration it measured. */
typedef struct sweep_note {
    int64_t config;
    int32_t measured;
} sweep_note;

/* Each configuration's weight: its size from the closed forms
 * (moore_sweep_config.weight, the cost of one breadth-first search per
 * switch); a topology file, whose size is unknown before it is read, gets
 * the mean of the others. */
static int set_weights(sweep_run *r)
{
    int64_t n = r->s.config_count, known = 0;
    double sum = 0;
    r->weight = calloc((size_t)n + 1, sizeof *r->weight);
    if (!r->weight)
        return -1;
    for (int64_t i = 0; i < n; i++)
        if (r->s.configs[i].weight > 0) {
            sum += r->s.configs[i].weight;
            known++;
        }
    for (int64_t i = 0; i < n; i++)
        r->weight[i] = r->s.configs[i].weight > 0 ? r->s.configs[i].weight
                                                  : known ? sum / (double)known : 1.0;
    return 0;
}

/* The work of configurations i ≡ worker (mod stride). */
static sweep_work share_work(const sweep_run *r, long long worker, long long stride)
{
    sweep_work w = { 0 };
    for (int64_t i = worker; i < r->s.config_count; i += stride) {
        w.total_tasks += r->each[i];
        w.total_weight += r->each[i] * r->weight[i];
    }
    return w;
}

static void work_add(sweep_work *w, const sweep_run *r, int64_t config, int measured)
{
    w->tasks += measured;
    w->weight += measured * r->weight[config];
}

/* "done/total, elapsed, time left" on stderr: a line each with --progress,
 * else redrawn in place on a terminal. The time left is the elapsed time
 * scaled by the weight still to do over the weight done (docs/sweep.md): a
 * sweep whose small configurations come first is not promised the small
 * configurations' pace for its large ones. */
static void show_progress(const sweep_run *r, const sweep_work *w)
{
    double el = cli_seconds() - r->t0;
    double left = w->weight > 0 ? el * (w->total_weight - w->weight) / w->weight : 0;
    char what[96];
    snprintf(what, sizeof what, "sweep %lld/%lld tasks, %.0f s, ~%.0f s left",
             (long long)w->tasks, (long long)w->total_tasks, el, left > 0 ? left : 0);
    if (r->lines)
        fprintf(stderr, "moore: %s\n", what);
    else
        cli_progress(NULL, what, w->total_weight > 0 ? w->weight / w->total_weight : 1.0);
}

/* A worker's note to its parent (a write of a few bytes to a pipe is atomic). */
static void tell_parent(const sweep_run *r, int64_t config, int measured)
{
    sweep_note n = { config, measured };
    if (r->report_fd >= 0 && write(r->report_fd, &n, sizeof n) != (ssize_t)sizeof n)
        return; /* the parent only shows progress from it */
}

static void die_with_parent(pid_t parent);

/* In the child: configuration i on a connection of its own; the tasks
 * measured go back through fd; the exit status is the command's. */
static int measure_child(const sweep_run *r, int64_t i, int fd)
{
    moore_error err;
    moore_sweep_db *db = NULL;
    moore_metric_options o;
    moore_metric_options_default(&o);
    o.threads = (int)r->threads;
    int measured = 0;
    int rc = moore_sweep_db_open(r->db, &db, &err);
    if (!rc)
        rc = moore_sweep_measure(db, &r->s, i, r->ids[i], r->force, &o, &measured, &err);
    moore_sweep_db_close(db);
    if (!rc && write(fd, &measured, sizeof measured) != (ssize_t)sizeof measured)
        return 1;
    return rc ? cli_fail(&err) : 0;
}

/* Configuration i measured in a child process (the header says why);
 * *measured = its tasks run. The exit status of the child. */
static int measure_one(const sweep_run *r, int64_t i, int *measured)
{
    int fd[2], st = 0;
    pid_t parent = getpid();
    *measured = 0;
    if (pipe(fd) != 0)
        return cli_usage_error("sweep: cannot make a pipe to measure configuration %lld",
                               (long long)i + 1);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        die_with_parent(parent);
        close(fd[0]);
        _exit(measure_child(r, i, fd[1]));
    }
    close(fd[1]);
    if (pid > 0 && read(fd[0], measured, sizeof *measured) != (ssize_t)sizeof *measured)
        *measured = 0;
    close(fd[0]);
    if (pid < 0)
        return cli_usage_error("sweep: cannot start a process to measure configuration %lld",
                               (long long)i + 1);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

/* Measures configurations i ≡ worker (mod stride), each in a process of its
 * own; those with nothing pending are passed over without one. */
static int measure_share(sweep_run *r, long long worker, long long stride, int show)
{
    int rc = 0;
    sweep_work w = share_work(r, worker, stride);
    for (int64_t i = worker; !rc && i < r->s.config_count; i += stride) {
        int measured = 0;
        if (r->each[i] == 0)
            continue;
        rc = measure_one(r, i, &measured);
        work_add(&w, r, i, measured);
        if (!rc && measured)
            tell_parent(r, i, measured);
        if (show && measured)
            show_progress(r, &w);
    }
    cli_progress_done();
    return rc;
}

/* Reads the workers' notes (fd: the pipe's read end) until every worker has
 * ended, showing progress; returns the worst exit status. */
static int wait_workers(sweep_run *r, int fd)
{
    int status = 0, alive = (int)r->jobs, piped = 1;
    sweep_work w = share_work(r, 0, 1);
    while (alive > 0) {
        int st;
        pid_t p = waitpid(-1, &st, piped ? WNOHANG : 0); /* the pipe closed: only waiting */
        if (p > 0) {
            alive--;
            int code = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
            status = code > status ? code : status;
            continue;
        }
        struct pollfd pfd = { fd, POLLIN, 0 };
        sweep_note n;
        ssize_t got = 0;
        for (int wait_ms = 500; piped && poll(&pfd, 1, wait_ms) > 0; wait_ms = 0) {
            got = read(fd, &n, sizeof n);
            piped = got != 0;
            if (got != (ssize_t)sizeof n || n.config < 0 || n.config >= r->s.config_count)
                break;
            work_add(&w, r, n.config, n.measured);
            if (r->lines)
                show_progress(r, &w);
        }
        if (!r->lines)
            show_progress(r, &w);
    }
    cli_progress_done();
    return status;
}

/* The workers of this process, so that a SIGTERM/SIGINT/SIGHUP sent to the
 * parent alone also stops them (else they would go on measuring, orphaned,
 * and a rerun would measure their configurations a second time). */
static pid_t sweep_workers[256];
static volatile sig_atomic_t sweep_worker_count;

static void forward_signal(int sig)
{
    for (sig_atomic_t k = 0; k < sweep_worker_count; k++)
        if (sweep_workers[k] > 0)
            kill(sweep_workers[k], SIGTERM);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void set_stop_handlers(void (*handler)(int))
{
    signal(SIGTERM, handler);
    signal(SIGINT, handler);
    signal(SIGHUP, handler);
}

/* Stop signals are held while a worker is forked and recorded, so neither
 * the parent nor the new child handles one half-way. */
static void hold_stop_signals(int how)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    sigprocmask(how, &set, NULL);
}

/* A worker dies with its parent even when the parent cannot forward a signal
 * (kill -9, a crash): Linux sends it SIGTERM then. The parent may already be
 * gone before the request is made, so the worker checks once after it. */
static void die_with_parent(pid_t parent)
{
#ifdef __linux__
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
        _exit(1);
#else
    (void)parent;
#endif
}

static int run_jobs(sweep_run *r)
{
    pid_t *pids = sweep_workers, parent = getpid();
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return cli_usage_error("sweep: cannot make a pipe for the workers' progress");
    fflush(NULL);
    sweep_worker_count = 0;
    set_stop_handlers(forward_signal);
    for (long long w = 0; w < r->jobs; w++) {
        hold_stop_signals(SIG_BLOCK);
        pids[w] = fork();
        if (pids[w] == 0) {
            die_with_parent(parent);
            set_stop_handlers(SIG_DFL);
            hold_stop_signals(SIG_UNBLOCK);
            close(pipefd[0]);
            r->report_fd = pipefd[1];
            _exit(measure_share(r, w, r->jobs, 0));
        }
        if (pids[w] > 0)
            sweep_worker_count = (sig_atomic_t)(w + 1);
        hold_stop_signals(SIG_UNBLOCK);
        if (pids[w] < 0) {
            for (long long k = 0; k < w; k++)
                kill(pids[k], SIGTERM);
            for (long long k = 0; k < w; k++)
                waitpid(pids[k], NULL, 0);
            set_stop_handlers(SIG_DFL);
            close(pipefd[0]);
            close(pipefd[1]);
            return cli_usage_error("sweep: cannot start worker %lld of %lld", w + 1, r->jobs);
        }
    }
    close(pipefd[1]);
    int status = wait_workers(r, pipefd[0]);
    close(pipefd[0]);
    set_stop_handlers(SIG_DFL);
    return status;
}

static void list_sweep(const moore_sweep *s)
{
    for (int t = 0; t < s->task_count; t++)
        printf("task %s\n", s->tasks[t]);
    for (int64_t i = 0; i < s->config_count; i++)
        printf("%s\n", s->configs[i].topology);
}

/* Opens the database, registers the configurations and counts the work. */
static int prepare(sweep_run *r)
{
    moore_error err;
    moore_sweep_db *db = NULL;
    r->ids = calloc((size_t)r->s.config_count + 1, sizeof *r->ids);
    r->each = calloc((size_t)r->s.config_count + 1, sizeof *r->each);
    if (!r->ids || !r->each || set_weights(r))
        return cli_usage_error("sweep: out of memory");
    int rc = moore_sweep_db_open(r->db, &db, &err);
    if (!rc)
        rc = moore_sweep_db_register(db, &r->s, r->ids, &err);
    if (!rc)
        rc = moore_sweep_db_pending_each(db, &r->s, r->ids, r->force, r->each, &err);
    moore_sweep_db_close(db);
    if (rc)
        return cli_fail(&err);
    r->pending = share_work(r, 0, 1).total_tasks;
    fprintf(stderr, "moore: sweep %s: %lld configurations x %d tasks, %lld to measure",
            r->file, (long long)r->s.config_count, r->s.task_count, (long long)r->pending);
    if (r->s.skipped)
        fprintf(stderr, "; %lld grid points skipped (first: %s)", (long long)r->s.skipped,
                r->s.first_skip);
    fprintf(stderr, "\n");
    return 0;
}

/* Rank 0 registers the configurations before any other rank looks them up
 * (two ranks inserting the same SPEC would collide). */
static int prepare_ranks(sweep_run *r)
{
    const moore_dist *d = cli_dist();
    moore_error err;
    moore_error_clear(&err);
    int rc = moore_dist_rank(d) == 0 ? prepare(r) : 0;
    rc = moore_dist_agree(d, rc ? MOORE_EINVAL : MOORE_OK, &err) ? (rc ? rc : 2) : 0;
    if (!rc && moore_dist_rank(d) != 0)
        rc = prepare(r);
    return rc;
}

static int execute(sweep_run *r)
{
    moore_error err;
    moore_error_clear(&err);
    const moore_dist *d = cli_dist();
    if (moore_sweep_load(r->file, &r->s, &err))
        return cli_fail(&err);
    if (r->list) {
        list_sweep(&r->s);
        return 0;
    }
    int rc = prepare_ranks(r);
    r->t0 = cli_seconds();
    if (!rc && r->pending > 0 && moore_dist_size(d) > 1)
        rc = measure_share(r, moore_dist_rank(d), moore_dist_size(d), r->lines);
    else if (!rc && r->pending > 0)
        rc = r->jobs > 1 ? run_jobs(r) : measure_share(r, 0, 1, r->lines || isatty(2));
    if (moore_dist_agree(d, rc ? MOORE_EINVAL : MOORE_OK, &err) && !rc)
        rc = 2;
    if (!rc)
        fprintf(stderr, "moore: sweep done in %.1f s; results in %s\n", cli_seconds() - r->t0, r->db);
    return rc;
}

/* SWEEPFILE.json → SWEEPFILE.db; anything else gets .db appended. */
static const char *default_db(const char *file, char *buf, size_t len)
{
    size_t n = strlen(file);
    if (n > 5 && strcmp(file + n - 5, ".json") == 0)
        n -= 5;
    snprintf(buf, len, "%.*s.db", (int)n, file);
    return buf;
}

int cmd_sweep(int argc, char **argv)
{
    cli_args a;
    sweep_run r = { .jobs = 1, .report_fd = -1 };
    char dbbuf[1024];
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_option(&a, "--db", NULL))
            r.db = a.value;
        else if (cli_option(&a, "--jobs", "-j"))
            cli_int_value(&a, "--jobs", 1, 256, &r.jobs);
        else if (cli_option(&a, "--threads", NULL))
            cli_int_value(&a, "--threads", 1, 4096, &r.threads);
        else if (cli_flag(&a, "--force", NULL))
            r.force = 1;
        else if (cli_flag(&a, "--progress", NULL))
            r.lines = 1;
        else if (cli_flag(&a, "--list", NULL))
            r.list = 1;
        else if (cli_positional(&a, &r.file))
            return 2;
    }
    if (a.bad)
        return 2;
    if (!r.file)
        return cli_usage_error("sweep: missing SWEEPFILE (see 'moore sweep --help')");
    if (!r.db)
        r.db = default_db(r.file, dbbuf, sizeof dbbuf);
    if (!r.threads) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        r.threads = cores / r.jobs > 1 ? cores / r.jobs : 1;
    }
    int rc = execute(&r);
    moore_sweep_clear(&r.s);
    free(r.ids);
    free(r.each);
    free(r.weight);
    return rc;
}
