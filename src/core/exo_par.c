/* exo_par.c: jobs on threads, host callbacks on the caller's thread (see
 * exo_par.h). */
#include "exo_par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PAR_POLL_NS 5000000L /* the caller's thread polls the host every 5 ms */

typedef struct par_group par_group;

typedef struct par_slot {
  par_group *g;
  uint32_t index;
  pthread_t thread;
  int started;               /* a thread runs the job (joined at the end) */
  exo_ctx ctx;               /* the job's private context */
  exo_ctx *host;             /* the caller's ctx when the job runs inline */
  exo_status st;
  atomic_uint_fast64_t done; /* the job's progress */
  atomic_int finished;
} par_slot;

struct par_group {
  exo_par_fn fn;
  void *arg;
  par_slot *slot;
  atomic_int stop;   /* a job failed or the host asked to stop */
  atomic_int first;  /* index of the first failed job, -1 none, -2 the host */
  pthread_mutex_t mu; /* guards nfinished; cv is signalled when it grows, */
  pthread_cond_t cv;  /*   so the caller wakes as soon as the last job ends */
  uint32_t nfinished;
};

void exo_par_deadline(struct timespec *ts, long ns) {
  clock_gettime(CLOCK_REALTIME, ts);
  ts->tv_nsec += ns;
  if (ts->tv_nsec >= 1000000000L) {
    ts->tv_sec++;
    ts->tv_nsec -= 1000000000L;
  }
}

static int slot_interrupted(void *user) {
  par_slot *x = user;
  if (atomic_load(&x->g->stop)) return 1;
  /* a job run inline on the caller's thread may ask the host itself */
  return x->host && x->host->cb.interrupted && x->host->cb.interrupted(x->host->cb.user);
}

static void slot_progress(void *user, exo_stage stage, uint64_t done, uint64_t total) {
  (void)stage;
  (void)total;
  atomic_store_explicit(&((par_slot *)user)->done, done, memory_order_relaxed);
}

static void fail_first(par_group *g, int who) {
  int none = -1;
  atomic_compare_exchange_strong(&g->first, &none, who);
  atomic_store(&g->stop, 1);
}

static void run_slot(par_slot *x) {
  par_group *g = x->g;
  x->st = g->fn(g->arg, x->index, &x->ctx);
  if (x->st) fail_first(g, (int)x->index);
  atomic_store(&x->finished, 1);
  pthread_mutex_lock(&g->mu);
  g->nfinished++;
  pthread_cond_signal(&g->cv);
  pthread_mutex_unlock(&g->mu);
}

static void *slot_main(void *arg) {
  run_slot(arg);
  return NULL;
}

/* Contract (exo_par.h). */
exo_status exo_par_run(uint32_t n, exo_par_fn fn, void *arg, exo_stage stage,
                       uint64_t total, exo_ctx *ctx) {
  return exo_par_run_from(n, fn, arg, stage, 0, total, ctx);
}

/* Contract (exo_par.h). */
exo_status exo_par_run_from(uint32_t n, exo_par_fn fn, void *arg, exo_stage stage,
                            uint64_t done_before, uint64_t total, exo_ctx *ctx) {
  if (n == 0) return EXO_OK;
  if (n == 1) return fn(arg, 0, ctx);
  par_group g;
  g.fn = fn;
  g.arg = arg;
  g.slot = calloc(n, sizeof *g.slot);
  if (!g.slot) return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory");
  g.nfinished = 0;
  if (pthread_mutex_init(&g.mu, NULL) != 0) {
    free(g.slot);
    return EXO_FAIL(ctx, EXO_ENOMEM, "cannot create a mutex for %u jobs", (unsigned)n);
  }
  if (pthread_cond_init(&g.cv, NULL) != 0) {
    pthread_mutex_destroy(&g.mu);
    free(g.slot);
    return EXO_FAIL(ctx, EXO_ENOMEM, "cannot create a condition variable for %u jobs",
                    (unsigned)n);
  }
  atomic_init(&g.stop, 0);
  atomic_init(&g.first, -1);
  for (uint32_t i = 0; i < n; i++) {
    par_slot *x = &g.slot[i];
    x->g = &g;
    x->index = i;
    exo_ctx_init(&x->ctx);
    x->ctx.cb.user = x;
    x->ctx.cb.interrupted = slot_interrupted;
    x->ctx.cb.progress = slot_progress;
    atomic_init(&x->done, 0);
    atomic_init(&x->finished, 0);
  }
  for (uint32_t i = 0; i < n; i++) {
    par_slot *x = &g.slot[i];
    x->started = pthread_create(&x->thread, NULL, slot_main, x) == 0;
    if (!x->started) { /* no thread: the caller's thread does this one */
      x->host = ctx;
      run_slot(x);
    }
  }
  /* Wait, polling the host and reporting the jobs' progress every
   * PAR_POLL_NS, and waking at once when the last job ends (a stage that
   * runs many short rounds, like the sweep's epochs, would otherwise lose
   * up to a poll interval per round). */
  for (;;) {
    int all = 1;
    uint64_t done = done_before;
    for (uint32_t i = 0; i < n; i++) {
      all &= atomic_load(&g.slot[i].finished);
      done += atomic_load_explicit(&g.slot[i].done, memory_order_relaxed);
    }
    if (all) break;
    if (!atomic_load(&g.stop)) {
      exo_progress(ctx, stage, done, total);
      if (ctx->cb.interrupted && ctx->cb.interrupted(ctx->cb.user)) fail_first(&g, -2);
    }
    struct timespec until;
    exo_par_deadline(&until, PAR_POLL_NS);
    pthread_mutex_lock(&g.mu);
    if (g.nfinished < n) (void)pthread_cond_timedwait(&g.cv, &g.mu, &until);
    pthread_mutex_unlock(&g.mu);
  }
  for (uint32_t i = 0; i < n; i++)
    if (g.slot[i].started) pthread_join(g.slot[i].thread, NULL);
  exo_status st = EXO_OK;
  const int first = atomic_load(&g.first);
  if (first == -2) {
    st = EXO_FAIL(ctx, EXO_EINTR, "interrupted by the user");
  } else if (first >= 0) {
    const exo_error *e = &g.slot[first].ctx.err;
    st = g.slot[first].st;
    if (e->code) st = exo_error_set(&ctx->err, e->code, "%s", e->msg);
    else st = EXO_FAIL(ctx, st, "a parallel job failed");
  }
  pthread_cond_destroy(&g.cv);
  pthread_mutex_destroy(&g.mu);
  free(g.slot);
  return st;
}
