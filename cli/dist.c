/* dist.c — the CLI's side of an MPI run (`mpirun -np K moore ...`): join the
 * job at start, let only rank 0 speak (the other ranks' stdout and stderr go
 * to /dev/null, so a result or an error is printed once), and leave the job
 * at exit. In a build without MPI every call here is a no-op and the process
 * is rank 0 of 1. */
#include "cli.h"

#include <stdio.h>
#include "moore/dist.h"

/* The CLI is a program, not the library: one job per process, held here. */
static moore_dist *cli_job;

int cli_dist_start(int *argc, char ***argv)
{
    moore_error err;
    moore_error_clear(&err);
    if (moore_dist_init(argc, argv, &cli_job, &err))
        return cli_fail(&err);
    if (moore_dist_rank(cli_job) != 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            return 1;
    }
    return 0;
}

const moore_dist *cli_dist(void) { return cli_job; }

int cli_dist_writer(void) { return moore_dist_rank(cli_job) == 0; }

void cli_dist_stop(void)
{
    fflush(stdout);
    moore_dist_finalize(cli_job);
    cli_job = NULL;
}
