/* alloc.h — internal: the code a caller returns after moore_malloc or
 * moore_calloc gave NULL. Those set err to ETOOBIG (the size overflows) or
 * ENOMEM (malloc failed); the caller passes that code on rather than
 * guessing ENOMEM. err may be NULL (then no call recorded a code).
 *
 * Inside an OpenMP region the caller's err is shared and must not be
 * written, so the region allocates with core_par_malloc / core_par_calloc:
 * they allocate as moore_malloc / moore_calloc do and, when the call fails,
 * record its code in *fail (a variable the region shares — never a
 * reduction variable, whose private copies do not start at 0); a code once
 * recorded is kept. After
 * the region, core_par_failed sets err from that code and returns it. */
#ifndef MOORE_SRC_CORE_ALLOC_H
#define MOORE_SRC_CORE_ALLOC_H

#include "moore/error.h"

#include <stddef.h>

static inline int core_alloc_code(const moore_error *err)
{
    return err && err->code ? err->code : MOORE_ENOMEM;
}

/* Records code in *fail unless an earlier failure is recorded there. (An
 * unnamed critical: a named one would export its lock from libmoore.) */
static inline void core_par_note(int *fail, int code)
{
#pragma omp critical
    if (!*fail)
        *fail = code;
}

/* moore_calloc when zero, moore_malloc otherwise; a failure's code to *fail. */
static inline void *core_par_alloc(size_t n, size_t size, int zero, int *fail)
{
    moore_error e;
    e.code = MOORE_OK;
    void *p = zero ? moore_calloc(n, size, &e) : moore_malloc(n, size, &e);
    if (!p)
        core_par_note(fail, core_alloc_code(&e));
    return p;
}

static inline void *core_par_malloc(size_t n, size_t size, int *fail)
{
    return core_par_alloc(n, size, 0, fail);
}

static inline void *core_par_calloc(size_t n, size_t size, int *fail)
{
    return core_par_alloc(n, size, 1, fail);
}

/* After the region: err set to "WHAT: out of memory" (ENOMEM) or "WHAT: a
 * size overflows" (ETOOBIG); returns fail (MOORE_OK when nothing failed). */
static inline int core_par_failed(moore_error *err, int fail, const char *what)
{
    if (!fail)
        return MOORE_OK;
    return moore_error_set(err, fail,
                           fail == MOORE_ETOOBIG ? "%s: a size overflows" : "%s: out of memory", what);
}

#endif
