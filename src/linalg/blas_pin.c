/* blas_pin.c — the nesting count behind blas_pin.h: OpenBLAS's thread count
 * is one value for the whole process, so pins taken by threads side by side
 * must not restore it under one another. The first pin saves the count and
 * sets one thread, the last restores it.
 *
 * Why a static mutex and counter here, in a library with no global state
 * otherwise: the state they guard, OpenBLAS's thread count, is already
 * global; a per-call object cannot coordinate callers that do not know of
 * each other. */
#include "linalg/blas_pin.h"

#include <pthread.h>

extern int openblas_get_num_threads(void) __attribute__((weak));
extern void openblas_set_num_threads(int) __attribute__((weak));

static pthread_mutex_t blas_pin_lock = PTHREAD_MUTEX_INITIALIZER;
static int blas_pin_depth;  /* pins open now */
static int blas_pin_saved;  /* the count before the first of them */

static int blas_pin_present(void)
{
    return openblas_get_num_threads && openblas_set_num_threads;
}

void linalg_blas_pin_begin(void)
{
    if (!blas_pin_present())
        return;
    pthread_mutex_lock(&blas_pin_lock);
    if (blas_pin_depth++ == 0) {
        blas_pin_saved = openblas_get_num_threads();
        if (blas_pin_saved > 1)
            openblas_set_num_threads(1);
    }
    pthread_mutex_unlock(&blas_pin_lock);
}

void linalg_blas_pin_end(void)
{
    if (!blas_pin_present())
        return;
    pthread_mutex_lock(&blas_pin_lock);
    if (--blas_pin_depth == 0 && blas_pin_saved > 1)
        openblas_set_num_threads(blas_pin_saved);
    pthread_mutex_unlock(&blas_pin_lock);
}
