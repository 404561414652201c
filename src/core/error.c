/* error.c — filling moore_error, the exit-status mapping, and the memory guard.
 *
 * The memory guard exists because "refuse before allocating" is a promise to
 * the user: a request for a 10^9-switch Slim Fly must fail at once with a
 * clear line, not after the kernel's OOM killer has taken the process. The
 * guard therefore compares with what this process may still use: the
 * smallest of physical memory, MemAvailable, the room left under a cgroup
 * (v2 or v1) memory limit and under RLIMIT_AS (docs/architecture.md). */
#include "moore/error.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Copies src into dst (len bytes) with every control character written as an
 * escape (\n, \r, \t, \xHH), so a message that quotes user input (a file
 * name, an argument, a CSV field) is always one printable line. */
static void escape_controls(char *dst, size_t len, const char *src)
{
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)src; *p && o + 1 < len; p++) {
        char esc[5] = { 0 };
        if (*p == '\n' || *p == '\r' || *p == '\t')
            snprintf(esc, sizeof esc, "\\%c", *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't');
        else if (*p < 32 || *p == 127)
            snprintf(esc, sizeof esc, "\\x%02x", *p);
        else
            esc[0] = (char)*p;
        size_t k = strlen(esc);
        if (o + k >= len)
            break;
        memcpy(dst + o, esc, k);
        o += k;
    }
    dst[o] = '\0';
}

int moore_error_set(moore_error *err, int code, const char *fmt, ...)
{
    if (err) {
        char raw[MOORE_ERRMSG_LEN];
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        escape_controls(err->msg, sizeof err->msg, raw);
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

static volatile sig_atomic_t cancel_flag; /* moore_cancel_request, async-signal-safe */

void moore_cancel_request(int on) { cancel_flag = on != 0; }

int moore_cancel_requested(void) { return cancel_flag != 0; }

const char *moore_error_name(int code)
{
    switch (code) {
    case MOORE_OK: return "ok";
    case MOORE_EINVAL: return "invalid input";
    case MOORE_ETOOBIG: return "too big for this machine";
    case MOORE_EIO: return "i/o error";
    case MOORE_ENOMEM: return "out of memory";
    case MOORE_ECANCELLED: return "cancelled";
    default: return "internal error";
    }
}

/* ---- how much memory this process may still use ---- */

typedef struct memory_budget {
    double bytes;       /* the smallest of the limits below */
    const char *source; /* which limit that is, for the message */
} memory_budget;

static void budget_offer(memory_budget *b, double bytes, const char *source)
{
    if (bytes >= 0 && bytes < b->bytes) {
        b->bytes = bytes;
        b->source = source;
    }
}

/* The first number in a file ("max" and unreadable files give -1). */
static double read_number(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    unsigned long long v;
    int ok = fscanf(f, "%llu", &v) == 1;
    fclose(f);
    return ok ? (double)v : -1;
}

/* "Key:  N kB" from /proc/meminfo, in bytes; -1 when absent. */
static double meminfo_bytes(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return -1;
    char line[256];
    double out = -1;
    size_t klen = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            unsigned long long kb;
            if (sscanf(line + klen + 1, "%llu", &kb) == 1)
                out = (double)kb * 1024.0;
            break;
        }
    fclose(f);
    return out;
}

/* This process's cgroup directory under /sys/fs/cgroup (v2: the "0::" line of
 * /proc/self/cgroup; v1: the "memory" controller's line), or 0. */
static int cgroup_dir(char *dir, size_t len, int v2)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return 0;
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *path = NULL;
        if (v2 && strncmp(line, "0::", 3) == 0)
            path = line + 3;
        else if (!v2 && strstr(line, ":memory:"))
            path = strstr(line, ":memory:") + 8;
        if (path)
            found = snprintf(dir, len, v2 ? "/sys/fs/cgroup%s" : "/sys/fs/cgroup/memory%s",
                             strcmp(path, "/") == 0 ? "" : path) < (int)len;
    }
    fclose(f);
    return found;
}

/* limit - usage under one cgroup directory, or -1 without a limit there. */
static double cgroup_room_in(const char *dir, int v2)
{
    char path[480];
    snprintf(path, sizeof path, "%s/%s", dir, v2 ? "memory.max" : "memory.limit_in_bytes");
    double limit = read_number(path);
    if (limit < 0 || limit >= 1e18) /* "max", or v1's "unlimited" near 2^63 */
        return -1;
    snprintf(path, sizeof path, "%s/%s", dir, v2 ? "memory.current" : "memory.usage_in_bytes");
    double used = read_number(path);
    return used < 0 ? limit : used < limit ? limit - used : 0;
}

/* The room under the memory limit of this process's cgroup (v2, else v1), or
 * -1. Inside a container the cgroup is often mounted as the root of
 * /sys/fs/cgroup, so the root is tried when the named directory has no limit. */
static double cgroup_room(int v2)
{
    char dir[400];
    double room = cgroup_dir(dir, sizeof dir, v2) ? cgroup_room_in(dir, v2) : -1;
    return room >= 0 ? room : cgroup_room_in(v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory", v2);
}

/* RLIMIT_AS minus the address space already mapped, or -1 without a limit. */
static double address_space_room(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return -1;
    double limit = (double)rl.rlim_cur, mapped = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        unsigned long long pages;
        if (fscanf(f, "%llu", &pages) == 1)
            mapped = (double)pages * (double)sysconf(_SC_PAGE_SIZE);
        fclose(f);
    }
    return mapped < limit ? limit - mapped : 0;
}

static memory_budget memory_available(void)
{
    memory_budget b = { 1e300, "this machine" };
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && size > 0)
        budget_offer(&b, (double)pages * (double)size, "physical memory");
    budget_offer(&b, meminfo_bytes("MemAvailable"), "available memory (MemAvailable)");
    budget_offer(&b, cgroup_room(1), "the cgroup memory limit (memory.max)");
    budget_offer(&b, cgroup_room(0), "the cgroup memory limit (memory.limit_in_bytes)");
    budget_offer(&b, address_space_room(), "the address-space limit (ulimit -v)");
    if (b.bytes > 1e299)
        b.bytes = 64.0 * 1024 * 1024 * 1024; /* nothing known: assume a large machine */
    return b;
}

int moore_memory_guard(double bytes, const char *what, moore_error *err)
{
    memory_budget b = memory_available();
    if (!(bytes <= b.bytes)) /* also catches NaN */
        return moore_error_set(err, MOORE_ETOOBIG,
                               "%s would need %.3g GiB of memory but this process may use "
                               "%.3g GiB (%s)",
                               what, bytes / 1073741824.0, b.bytes / 1073741824.0, b.source);
    return MOORE_OK;
}

/* 1 (and err set to ETOOBIG) when n × size does not fit in a size_t. */
static int alloc_overflows(size_t n, size_t size, moore_error *err)
{
    if (size && n > (size_t)-1 / size) {
        moore_error_set(err, MOORE_ETOOBIG, "allocation of %zu x %zu bytes overflows", n, size);
        return 1;
    }
    return 0;
}

void *moore_malloc(size_t n, size_t size, moore_error *err)
{
    if (alloc_overflows(n, size, err))
        return NULL;
    size_t bytes = n * size;
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (!p)
        moore_error_set(err, MOORE_ENOMEM, "out of memory allocating %zu bytes", n * size);
    return p;
}

void *moore_calloc(size_t n, size_t size, moore_error *err)
{
    if (alloc_overflows(n, size, err))
        return NULL;
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        moore_error_set(err, MOORE_ENOMEM, "out of memory allocating %zu x %zu bytes", n, size);
    return p;
}
