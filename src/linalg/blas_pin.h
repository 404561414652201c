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
 * thread and the previous count comes back when the last such call ends; the
 * results are then the same bytes for any OMP_NUM_THREADS /
 * OPENBLAS_NUM_THREADS.
 *
 * The thread count is process-wide, and moore's own threads may make such
 * calls side by side (compare measures several families at once), so the
 * pins nest: blas_pin.c counts them under a lock, the first saves the count
 * and the last restores it. With another BLAS (no openblas_* symbols; they
 * are weak) nothing changes. */
#ifndef MOORE_LINALG_BLAS_PIN_H
#define MOORE_LINALG_BLAS_PIN_H

/* Pins BLAS to one thread until the matching linalg_blas_pin_end. */
void linalg_blas_pin_begin(void);
void linalg_blas_pin_end(void);

#endif
