/* launcher.c — the `moore` command users run: it sets the environment
 * OpenBLAS and libgomp read when they load (cli/env_rule.h says why) and
 * replaces itself with the program that does the work, moore-core.
 *
 * Why a separate program: setting those variables from inside moore-core is
 * too late (the libraries have loaded and started by then), so moore-core
 * would have to start itself a second time, loading and initialising every
 * library twice — about 20 ms of each command, most of a small one's time.
 * This program links nothing but the C library, so the extra start costs
 * about a millisecond.
 *
 * moore-core is looked for beside this program (a build tree), then where
 * `cmake --install` puts it, MOORE_CORE_FROM_BIN relative to this program's
 * directory (libexec/moore). It runs with this program's arguments; the
 * first stays "moore", so messages name the command the user typed. */
#include "env_rule.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef MOORE_CORE_FROM_BIN
#define MOORE_CORE_FROM_BIN "../libexec/moore"
#endif

/* dir/rel/moore-core into buf (dir: this program's directory, rel may be
 * ""); 0, or −1 when it does not fit. */
static int core_path(char *buf, size_t size, const char *dir, const char *rel)
{
    int n = snprintf(buf, size, "%s%s%s/moore-core", dir, *rel ? "/" : "", rel);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

int main(int argc, char **argv)
{
    (void)argc;
    char self[PATH_MAX], path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "moore: cannot find its own program (/proc/self/exe): %s\n",
                strerror(errno));
        return 127;
    }
    self[n] = '\0';
    char *slash = strrchr(self, '/'); /* the link is an absolute path */
    if (slash)
        *slash = '\0';
    if (core_path(path, sizeof path, self, "") != 0 || access(path, X_OK) != 0)
        if (core_path(path, sizeof path, self, MOORE_CORE_FROM_BIN) != 0) {
            fprintf(stderr, "moore: the path of moore-core is longer than %d bytes\n", PATH_MAX);
            return 127;
        }
    if (cli_env_rule() < 0) {
        fprintf(stderr, "moore: cannot set its environment: %s\n", strerror(errno));
        return 127;
    }
    execv(path, argv);
    fprintf(stderr, "moore: cannot run %s: %s\n", path, strerror(errno));
    return 127;
}
