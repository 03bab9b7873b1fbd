/* exo_ctx.h: the per-run context: error record, callbacks, limits.
 *
 * The core keeps no mutable global state; everything a run needs that is not
 * a module's own object lives here. The host (R glue, CLI, tests) fills in
 * the callbacks; any of them may be NULL.
 *
 * Contract for callbacks: they must return normally (no longjmp). The core
 * calls exo_poll() every few milliseconds of work at most; when the
 * interrupt callback answers non-zero, the core unwinds, removes its
 * temporary files and returns EXO_EINTR. */
#ifndef EXO_CTX_H
#define EXO_CTX_H

#include <stdint.h>

#include "exo_status.h"

typedef enum exo_stage {
  EXO_STAGE_PARSE = 0, /* reading input, reindexing, writing sorted runs */
  EXO_STAGE_MERGE,     /* intermediate merge passes */
  EXO_STAGE_CSR,       /* final merge writing the CSR */
  EXO_STAGE_CLUSTER,   /* label propagation */
  EXO_STAGE_OUTPUT,    /* writing name<sep>cluster */
  EXO_STAGE_COUNT
} exo_stage;

const char *exo_stage_name(exo_stage stage);

typedef struct exo_callbacks {
  void *user;
  /* Progress within a stage: `done` of `total` units (total 0 = unknown).
   * Called at stage start (done 0), periodically, and at stage end. */
  void (*progress)(void *user, exo_stage stage, uint64_t done, uint64_t total);
  /* Return non-zero when the user asked to stop. */
  int (*interrupted)(void *user);
  /* Informational message for the user (one line, no trailing newline):
   * what a stage did, in the user's terms (a level of Leiden and its
   * communities, the quality of an iteration, files removed). */
  void (*message)(void *user, const char *text);
  /* The internals behind those (threads, CPU seconds, how a merge or an
   * aggregation was done), for developers: hosts show them at a debug
   * level only (exolabel -vv, options(ExoLabel.debug = TRUE)). */
  void (*detail)(void *user, const char *text);
} exo_callbacks;

typedef struct exo_ctx {
  exo_error err;
  exo_callbacks cb;
} exo_ctx;

void exo_ctx_init(exo_ctx *ctx);

/* Ask the host whether to stop. Returns EXO_OK, or records and returns
 * EXO_EINTR. Also returns the pending error code if one is already set. */
exo_status exo_poll(exo_ctx *ctx);

void exo_progress(exo_ctx *ctx, exo_stage stage, uint64_t done, uint64_t total);

void exo_message(exo_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(EXO_PRINTF_STYLE, 2, 3)))
#endif
    ;

void exo_detail(exo_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(EXO_PRINTF_STYLE, 2, 3)))
#endif
    ;
/* Shorthand: record an error in ctx->err and return its code. */
#define EXO_FAIL(ctx, code, ...) exo_error_set(&(ctx)->err, (code), __VA_ARGS__)

/* Record EXO_ENOMEM, "out of memory allocating <bytes> bytes for <what>"
 * ("out of memory for <what>" when bytes is 0: a size the caller does not
 * know, e.g. several allocations), and return it: the message of every
 * stage's failed allocation. */
exo_status exo_fail_oom(exo_ctx *ctx, const char *what, uint64_t bytes);

#endif
