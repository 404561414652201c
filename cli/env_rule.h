/* env_rule.h — the environment the `moore` command runs with, written once
 * for the launcher (cli/launcher/launcher.c) and for the program itself
 * (cli/main.c), which applies it when started some other way.
 *
 * Two libraries read their environment when they are loaded, before main,
 * so it must be set before the program that links them starts:
 *
 * OpenBLAS starts its worker threads with the count read from
 * OPENBLAS_NUM_THREADS; each first allocates a 128 MiB buffer and retries for
 * ever when that fails, and exit() waits for them: under an address-space
 * limit (ulimit -v, prlimit --as=200000000) even `moore families` never
 * ended. moore runs every BLAS call on one thread anyway
 * (src/linalg/blas_pin.h), so the workers serve nothing: with
 * OPENBLAS_NUM_THREADS=1 it starts none.
 *
 * libgomp's threads spin at the end of each parallel region unless
 * OMP_WAIT_POLICY=passive. moore's parallel regions are many and short, and
 * on a machine whose cores are busy the spinning thread takes the core the
 * working one needs (docs/performance.md measures it), so the command asks
 * for passive waiting unless the user chose a policy. */
#ifndef MOORE_CLI_ENV_RULE_H
#define MOORE_CLI_ENV_RULE_H

#include <stdlib.h>
#include <string.h>

/* Sets what the rule asks for and is not set yet: 1 when something was set
 * (a program already running must start again to see it), 0 when nothing
 * needed setting, −1 when setenv failed. */
static inline int cli_env_rule(void)
{
    const char *t = getenv("OPENBLAS_NUM_THREADS");
    int blas = !(t && strcmp(t, "1") == 0);
    int wait = getenv("OMP_WAIT_POLICY") == NULL;
    if (blas && setenv("OPENBLAS_NUM_THREADS", "1", 1) != 0)
        return -1;
    if (wait && setenv("OMP_WAIT_POLICY", "passive", 1) != 0)
        return -1;
    return blas || wait;
}

#endif
