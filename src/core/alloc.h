/* alloc.h — internal: the code a caller returns after moore_malloc or
 * moore_calloc gave NULL. Those set err to ETOOBIG (the size overflows) or
 * ENOMEM (malloc failed); the caller passes that code on rather than
 * guessing ENOMEM. err may be NULL (then no call recorded a code). */
#ifndef MOORE_SRC_CORE_ALLOC_H
#define MOORE_SRC_CORE_ALLOC_H

#include "moore/error.h"

static inline int moore_alloc_code(const moore_error *err)
{
    return err && err->code ? err->code : MOORE_ENOMEM;
}

#endif
