/* blas_pin.h — run the BLAS on one thread for the duration of a LAPACK (or
 * Clp) call; for src/linalg and the layers above it that make such calls.
 *
 * OpenBLAS (Debian's default BLAS) runs its own thread pool. On the small
 * dense problems and the n × ncv BLAS-2 updates of Lanczos, its threads cost
 * more than they give, and on a busy machine they spin: measured on the shared
 * 2-core box, a 3-lift search took 8 s with them and 2 s without. And a
 * threaded BLAS sums in an order that depends on the thread count, so a
 * result such as the bisection lower bound would differ in its last digits
 * between 1 and 2 threads. So every LAPACK call of moore runs BLAS on one
 * thread and restores the previous count afterwards; the results are then the
 * same bytes for any OMP_NUM_THREADS / OPENBLAS_NUM_THREADS.
 *
 * The symbols are weak: with another BLAS they are absent and nothing changes.
 * (This touches process-wide BLAS state for the duration of a call, which is
 * one more reason these functions are documented as not thread-safe.) */
#ifndef MOORE_METRICS_BLAS_PIN_H
#define MOORE_METRICS_BLAS_PIN_H

extern int openblas_get_num_threads(void) __attribute__((weak));
extern void openblas_set_num_threads(int) __attribute__((weak));

/* Pins BLAS to one thread; returns the count to restore. */
static inline int blas_pin_begin(void)
{
    if (!openblas_get_num_threads || !openblas_set_num_threads)
        return 0;
    int t = openblas_get_num_threads();
    if (t > 1)
        openblas_set_num_threads(1);
    return t;
}

static inline void blas_pin_end(int previous)
{
    if (previous > 1 && openblas_set_num_threads)
        openblas_set_num_threads(previous);
}

#endif
