/* test_par.c: the parallel jobs runner (exo_par.h) against its contract:
 * every job index runs exactly once (n = 0, 1, 2, 3, 7, 8, 100; each job
 * has its own thread when n > 1, so the job count is the thread count), the
 * first failure decides the status and stops the other jobs through
 * exo_poll, the host's interrupt gives EXO_EINTR, the caller reports the
 * sum of the jobs' progress (from done_before) for the stage, and the
 * host's callbacks are only ever called from the caller's thread. */
#include <check.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exo_par.h"

static double now_sec(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The job loops end after this long, so a broken runner fails a test
 * instead of hanging it. */
#define WAIT_S 5.0

typedef struct shared {
  atomic_int runs[128];
  exo_ctx *ctxs[128]; /* the ctx each job was given */
  exo_ctx *host;
  uint32_t fail_index; /* the job that fails (UINT32_MAX: none) */
  exo_status fail_code;
  int fail_message;     /* the failing job records a message */
  atomic_int stopped;   /* jobs that saw EXO_EINTR from exo_poll */
  atomic_int timed_out; /* jobs that gave up waiting */
  atomic_int finished;  /* jobs that returned */
  uint64_t done_each;   /* progress: job i reports (i + 1) * done_each */
  uint64_t want_report; /* jobs wait until the host saw this `done` */
  /* host callbacks */
  pthread_t caller;
  atomic_int wrong_thread;
  atomic_int interrupt_calls, interrupt_after; /* < 0: never */
  atomic_int messages;
  atomic_uint_fast64_t max_done, last_done;
  atomic_int progress_calls, bad_stage, bad_total, went_down;
  exo_stage stage;
  uint64_t total;
} shared;

static void shared_init(shared *sh, exo_ctx *host) {
  memset(sh, 0, sizeof *sh);
  sh->host = host;
  sh->fail_index = UINT32_MAX;
  sh->caller = pthread_self();
  atomic_store(&sh->interrupt_after, -1);
  sh->stage = EXO_STAGE_CLUSTER;
  sh->total = 1000;
}

static void host_progress(void *user, exo_stage stage, uint64_t done, uint64_t total) {
  shared *sh = user;
  if (!pthread_equal(pthread_self(), sh->caller)) atomic_store(&sh->wrong_thread, 1);
  atomic_fetch_add(&sh->progress_calls, 1);
  if (stage != sh->stage) atomic_store(&sh->bad_stage, 1);
  if (total != sh->total) atomic_store(&sh->bad_total, 1);
  if (done < atomic_load(&sh->last_done)) atomic_store(&sh->went_down, 1);
  atomic_store(&sh->last_done, done);
  if (done > atomic_load(&sh->max_done)) atomic_store(&sh->max_done, done);
}

static int host_interrupted(void *user) {
  shared *sh = user;
  if (!pthread_equal(pthread_self(), sh->caller)) atomic_store(&sh->wrong_thread, 1);
  int calls = atomic_fetch_add(&sh->interrupt_calls, 1) + 1;
  int after = atomic_load(&sh->interrupt_after);
  return after >= 0 && calls > after;
}

static void host_message(void *user, const char *text) {
  (void)text;
  atomic_fetch_add(&((shared *)user)->messages, 1);
}

static void host_ctx(exo_ctx *ctx, shared *sh) {
  exo_ctx_init(ctx);
  ctx->cb.user = sh;
  ctx->cb.progress = host_progress;
  ctx->cb.interrupted = host_interrupted;
  ctx->cb.message = host_message;
  ctx->cb.detail = host_message;
}

/* Count the run; fail if asked; otherwise report progress and poll until
 * stopped (exo_poll says EXO_EINTR), until the host saw `want_report`, or,
 * when neither is awaited, return at once. */
static exo_status job(void *arg, uint32_t i, exo_ctx *ctx) {
  shared *sh = arg;
  atomic_fetch_add(&sh->runs[i], 1);
  sh->ctxs[i] = ctx;
  exo_message(ctx, "job %u", (unsigned)i); /* dropped when n > 1 */
  exo_status st = EXO_OK;
  if (i == sh->fail_index) {
    st = sh->fail_message ? EXO_FAIL(ctx, sh->fail_code, "job %u broke", (unsigned)i)
                          : sh->fail_code;
  } else if (sh->fail_index != UINT32_MAX || atomic_load(&sh->interrupt_after) >= 0) {
    double until = now_sec() + WAIT_S;
    for (;;) {
      if (exo_poll(ctx) == EXO_EINTR) {
        atomic_fetch_add(&sh->stopped, 1);
        st = EXO_EINTR;
        break;
      }
      if (now_sec() > until) {
        atomic_fetch_add(&sh->timed_out, 1);
        break;
      }
      sched_yield();
    }
  } else if (sh->done_each) {
    exo_progress(ctx, sh->stage, 1, sh->total);
    exo_progress(ctx, sh->stage, (i + 1) * sh->done_each, sh->total);
    double until = now_sec() + WAIT_S;
    while (atomic_load(&sh->max_done) < sh->want_report) {
      if (now_sec() > until) {
        atomic_fetch_add(&sh->timed_out, 1);
        break;
      }
      sched_yield();
    }
  }
  atomic_fetch_add(&sh->finished, 1);
  return st;
}

/* Every index 0..n-1 once and no other; n == 1 on the caller's ctx, n > 1
 * each on a private ctx; the jobs' messages dropped when n > 1. Fails if
 * the runner skipped or repeated an index (an off-by-one in its loops). */
START_TEST(every_index_once) {
  const uint32_t ns[] = {0, 1, 2, 3, 7, 8, 100};
  for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
    const uint32_t n = ns[k];
    shared sh;
    exo_ctx ctx;
    shared_init(&sh, &ctx);
    host_ctx(&ctx, &sh);
    ck_assert_int_eq(exo_par_run(n, job, &sh, EXO_STAGE_CLUSTER, 0, &ctx), EXO_OK);
    ck_assert_int_eq(ctx.err.code, EXO_OK);
    for (uint32_t i = 0; i < 128; i++)
      ck_assert_msg(atomic_load(&sh.runs[i]) == (i < n ? 1 : 0), "n %u: job %u ran %d times",
                    (unsigned)n, (unsigned)i, atomic_load(&sh.runs[i]));
    ck_assert_int_eq(atomic_load(&sh.finished), (int)n);
    if (n == 1) {
      ck_assert_ptr_eq(sh.ctxs[0], &ctx);
      ck_assert_int_eq(atomic_load(&sh.messages), 1);
    } else {
      ck_assert_int_eq(atomic_load(&sh.messages), 0);
      for (uint32_t i = 0; i < n; i++) {
        ck_assert_ptr_ne(sh.ctxs[i], &ctx);
        if (i) ck_assert_ptr_ne(sh.ctxs[i], sh.ctxs[i - 1]);
      }
    }
    ck_assert_int_eq(atomic_load(&sh.wrong_thread), 0);
  }
}
END_TEST

/* One job fails (with and without a message) while the others poll: its
 * status is returned (not the others' EXO_EINTR), its message copied into
 * the caller's ctx, every other job sees EXO_EINTR from exo_poll (none
 * waits out its timeout) and all have returned before exo_par_run does.
 * Fails if a failure did not stop the others or a later status won. */
START_TEST(first_failure_decides_and_stops_the_rest) {
  const uint32_t ns[] = {2, 3, 8};
  for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
    for (int with_msg = 0; with_msg < 2; with_msg++) {
      const uint32_t n = ns[k];
      shared sh;
      exo_ctx ctx;
      shared_init(&sh, &ctx);
      host_ctx(&ctx, &sh);
      sh.fail_index = n / 2;
      sh.fail_code = with_msg ? EXO_EIO : EXO_EINPUT;
      sh.fail_message = with_msg;
      double t0 = now_sec();
      exo_status st = exo_par_run(n, job, &sh, EXO_STAGE_CLUSTER, 0, &ctx);
      ck_assert_int_eq(st, sh.fail_code);
      ck_assert_int_eq(ctx.err.code, sh.fail_code);
      char want[64];
      snprintf(want, sizeof want, "job %u broke", (unsigned)(n / 2));
      ck_assert_str_eq(ctx.err.msg, with_msg ? want : "a parallel job failed");
      ck_assert_int_eq(atomic_load(&sh.finished), (int)n); /* all joined */
      ck_assert_int_eq(atomic_load(&sh.stopped), (int)n - 1);
      ck_assert_int_eq(atomic_load(&sh.timed_out), 0);
      ck_assert_double_lt(now_sec() - t0, WAIT_S / 2);
      for (uint32_t i = 0; i < n; i++) ck_assert_int_eq(atomic_load(&sh.runs[i]), 1);
      ck_assert_int_eq(atomic_load(&sh.wrong_thread), 0);
    }
  }
}
END_TEST

/* The host's interrupt callback answers non-zero (at once, or after a few
 * polls): EXO_EINTR, every job stopped through exo_poll, all returned. With
 * n == 1 the job polls the host itself on the caller's ctx. Fails if the
 * runner stopped polling the host or let a stop go unnoticed. */
START_TEST(host_interrupt_gives_eintr) {
  const uint32_t ns[] = {1, 2, 3, 8};
  const int afters[] = {0, 3};
  for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
    for (size_t a = 0; a < 2; a++) {
      const uint32_t n = ns[k];
      shared sh;
      exo_ctx ctx;
      shared_init(&sh, &ctx);
      host_ctx(&ctx, &sh);
      atomic_store(&sh.interrupt_after, afters[a]);
      exo_status st = exo_par_run(n, job, &sh, EXO_STAGE_CLUSTER, 0, &ctx);
      ck_assert_int_eq(st, EXO_EINTR);
      ck_assert_int_eq(ctx.err.code, EXO_EINTR);
      ck_assert_int_eq(atomic_load(&sh.stopped), (int)n);
      ck_assert_int_eq(atomic_load(&sh.timed_out), 0);
      ck_assert_int_eq(atomic_load(&sh.finished), (int)n);
      ck_assert_int_gt(atomic_load(&sh.interrupt_calls), afters[a]);
      ck_assert_int_eq(atomic_load(&sh.wrong_thread), 0);
    }
  }
}
END_TEST

/* Progress: job i reports done = (i + 1) * 10; the caller reports, for the
 * stage and the total given, done_before + the sum of the jobs' `done`,
 * never going down and never above that sum, from the caller's thread
 * only. The jobs wait until the host has seen the whole sum (or time out).
 * Fails if the runner dropped the jobs' progress or done_before. */
START_TEST(progress_is_the_sum_of_the_jobs) {
  const uint32_t ns[] = {2, 3, 8};
  const uint64_t befores[] = {0, 5000};
  for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
    for (size_t b = 0; b < 2; b++) {
      const uint32_t n = ns[k];
      shared sh;
      exo_ctx ctx;
      shared_init(&sh, &ctx);
      host_ctx(&ctx, &sh);
      sh.stage = EXO_STAGE_OUTPUT;
      sh.total = 777;
      sh.done_each = 10;
      uint64_t sum = 0;
      for (uint32_t i = 0; i < n; i++) sum += (i + 1) * sh.done_each;
      sh.want_report = befores[b] + sum;
      exo_status st =
          exo_par_run_from(n, job, &sh, EXO_STAGE_OUTPUT, befores[b], sh.total, &ctx);
      ck_assert_int_eq(st, EXO_OK);
      ck_assert_int_eq(atomic_load(&sh.timed_out), 0);
      ck_assert_uint_eq(atomic_load(&sh.max_done), befores[b] + sum);
      ck_assert_int_gt(atomic_load(&sh.progress_calls), 0);
      ck_assert_int_eq(atomic_load(&sh.bad_stage), 0);
      ck_assert_int_eq(atomic_load(&sh.bad_total), 0);
      ck_assert_int_eq(atomic_load(&sh.went_down), 0);
      ck_assert_int_eq(atomic_load(&sh.wrong_thread), 0);
    }
  }
  /* n == 1: the job reports on the caller's ctx itself (no done_before) */
  shared sh;
  exo_ctx ctx;
  shared_init(&sh, &ctx);
  host_ctx(&ctx, &sh);
  sh.done_each = 10;
  sh.want_report = 10;
  ck_assert_int_eq(exo_par_run_from(1, job, &sh, EXO_STAGE_CLUSTER, 5000, sh.total, &ctx),
                   EXO_OK);
  ck_assert_uint_eq(atomic_load(&sh.max_done), 10);
  ck_assert_int_eq(atomic_load(&sh.progress_calls), 2);
}
END_TEST

Suite *par_suite(void) {
  Suite *s = suite_create("par");
  TCase *tc = tcase_create("par");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, every_index_once);
  tcase_add_test(tc, first_failure_decides_and_stops_the_rest);
  tcase_add_test(tc, host_interrupt_gives_eintr);
  tcase_add_test(tc, progress_is_the_sum_of_the_jobs);
  suite_add_tcase(s, tc);
  return s;
}
