/* error.h — how every moore function reports failure.
 *
 * Every public function returns MOORE_OK (0) or one of the codes below, and fills
 * the caller's moore_error with one line naming the bad value and the rule it
 * breaks ("slimfly: q=6 is not a prime power"). The library never prints; the CLI
 * turns the code into an exit status (cli/main.c). */
#ifndef MOORE_ERROR_H
#define MOORE_ERROR_H

#include "moore/export.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum moore_status {
    MOORE_OK = 0,
    MOORE_EINVAL = 1,   /* bad input: a parameter, spec, file content or option */
    MOORE_ETOOBIG = 2,  /* the request would need more memory than the machine has */
    MOORE_EIO = 3,      /* a file could not be opened, read or written */
    MOORE_ENOMEM = 4,   /* an allocation failed although the size was plausible */
    MOORE_EINTERNAL = 5, /* a bug or a numerical failure inside moore */
    MOORE_ECANCELLED = 6 /* stopped by moore_cancel_request (Ctrl-C in Python) */
};

#define MOORE_ERRMSG_LEN 320

typedef struct moore_error {
    int code;
    char msg[MOORE_ERRMSG_LEN];
} moore_error;

/* Sets err (if not NULL) and returns code, so callers can write
 * `return moore_error_set(err, MOORE_EINVAL, "...", ...);`.
 * Writes only into the caller's struct (message truncated to MOORE_ERRMSG_LEN);
 * O(length of the message). */
MOORE_API int moore_error_set(moore_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Clears err to MOORE_OK with an empty message. Caller-owned; O(1). */
MOORE_API void moore_error_clear(moore_error *err);

/* A short name for a code ("invalid input", ...). Returns a static string; O(1). */
MOORE_API const char *moore_error_name(int code);

/* A process-wide stop request for long computations. A signal handler may
 * call moore_cancel_request(1) (it only sets a flag); the long loops — each
 * metric group, each failure trial, each phase of the flow solvers — then
 * stop: a metric or a trial returns MOORE_ECANCELLED, a flow stops with its
 * bounds so far (stopped "cancelled"). The Python module sets it on SIGINT
 * during a call and clears it after; moore_cancel_request(0) clears it.
 * Both are O(1) and touch only a process-wide sig_atomic_t. */
MOORE_API void moore_cancel_request(int on);
MOORE_API int moore_cancel_requested(void);

/* Refuses (MOORE_ETOOBIG) a request for `bytes` of memory that exceeds what
 * this process may still use: the smallest of physical memory, MemAvailable,
 * the room under its cgroup (v2 or v1) memory limit and under RLIMIT_AS
 * (ulimit -v). Call it before allocating; `what` names the request in the
 * message, which also names the limit that decided. Allocates nothing; reads a
 * few /proc and cgroup files and getrlimit, O(1). */
MOORE_API int moore_memory_guard(double bytes, const char *what, moore_error *err);

/* Checked allocation helpers: return NULL and set err on failure:
 * MOORE_ETOOBIG when n × size overflows, MOORE_ENOMEM when malloc fails.
 * The caller frees the result with free(). O(1), plus calloc's zeroing of n × size bytes. */
MOORE_API void *moore_malloc(size_t n, size_t size, moore_error *err);
MOORE_API void *moore_calloc(size_t n, size_t size, moore_error *err);

#ifdef __cplusplus
}
#endif
#endif
