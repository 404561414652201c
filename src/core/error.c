/* error.c — filling moore_error, the exit-status mapping, and the memory guard.
 *
 * The memory guard exists because "refuse before allocating" is a promise to
 * the user: a request for a 10^9-switch Slim Fly must fail at once with a
 * clear line, not after the kernel's OOM killer has taken the process. */
#include "moore/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int moore_error_set(moore_error *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

void moore_error_clear(moore_error *err)
{
    if (err) {
        err->code = MOORE_OK;
        err->msg[0] = '\0';
    }
}

int moore_error_exit_status(int code)
{
    switch (code) {
    case MOORE_OK: return 0;
    case MOORE_EINVAL:
    case MOORE_ETOOBIG:
    case MOORE_EIO: return 2;
    default: return 1;
    }
}

const char *moore_error_name(int code)
{
    switch (code) {
    case MOORE_OK: return "ok";
    case MOORE_EINVAL: return "invalid input";
    case MOORE_ETOOBIG: return "too big for this machine";
    case MOORE_EIO: return "i/o error";
    case MOORE_ENOMEM: return "out of memory";
    default: return "internal error";
    }
}

static double physical_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || size <= 0)
        return 64.0 * 1024 * 1024 * 1024; /* unknown: assume a large machine */
    return (double)pages * (double)size;
}

int moore_memory_guard(double bytes, const char *what, moore_error *err)
{
    double have = physical_memory_bytes();
    if (!(bytes <= have)) /* also catches NaN */
        return moore_error_set(err, MOORE_ETOOBIG,
                               "%s would need %.3g GiB of memory but this machine has %.3g GiB",
                               what, bytes / 1073741824.0, have / 1073741824.0);
    return MOORE_OK;
}

void *moore_malloc(size_t n, size_t size, moore_error *err)
{
    if (size && n > (size_t)-1 / size) {
        moore_error_set(err, MOORE_ETOOBIG, "allocation of %zu x %zu bytes overflows", n, size);
        return NULL;
    }
    size_t bytes = n * size;
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (!p)
        moore_error_set(err, MOORE_ENOMEM, "out of memory allocating %zu bytes", n * size);
    return p;
}

void *moore_calloc(size_t n, size_t size, moore_error *err)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        moore_error_set(err, MOORE_ENOMEM, "out of memory allocating %zu x %zu bytes", n, size);
    return p;
}
