/* exo_par.h: run a stage's jobs on threads with the host's callbacks kept
 * on the caller's thread.
 *
 * exo_par_run(n, fn, arg, ...) calls fn(arg, i, jctx) for i = 0..n-1. With
 * n == 1 the job runs on the caller's thread with the caller's ctx. With
 * n > 1 every job runs on its own thread with a private ctx jctx:
 *   - exo_poll(jctx) answers EXO_EINTR as soon as another job failed or the
 *     host asked to stop;
 *   - exo_progress(jctx, stage, done, total) records the job's own `done`;
 *   - exo_message(jctx, ...) is dropped.
 * Meanwhile the caller's thread polls the host's interrupt callback and
 * reports the sum of the jobs' `done` values against `total` for `stage`
 * every few milliseconds; the host's callbacks are therefore only ever called
 * from the caller's thread. The first job to fail decides the result: its
 * status is returned and its message copied into ctx (an interrupt of the
 * host gives EXO_EINTR). Jobs must release what they hold on every path; no
 * job is abandoned (all are joined before the return). A thread that cannot
 * be started has its job run on the caller's thread instead (same result,
 * less parallelism). */
#ifndef EXO_PAR_H
#define EXO_PAR_H

#include <stdint.h>
#include <time.h>

#include "exo_ctx.h"

typedef exo_status (*exo_par_fn)(void *arg, uint32_t index, exo_ctx *ctx);

exo_status exo_par_run(uint32_t n, exo_par_fn fn, void *arg, exo_stage stage,
                       uint64_t total, exo_ctx *ctx);
/* The same, for one of several steps of a stage: with n > 1 the caller
 * reports done_before + the sum of the jobs' `done`, so the stage's
 * progress keeps rising across the steps (with n == 1 the job reports on
 * the caller's ctx itself and must add done_before). */
exo_status exo_par_run_from(uint32_t n, exo_par_fn fn, void *arg, exo_stage stage,
                            uint64_t done_before, uint64_t total, exo_ctx *ctx);

/* The absolute time `ns` nanoseconds (< 1 s) from now on CLOCK_REALTIME,
 * the clock of a default condition variable: the deadline for
 * pthread_cond_timedwait. */
void exo_par_deadline(struct timespec *ts, long ns);

#endif
