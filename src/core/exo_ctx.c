/* exo_ctx.c: context helpers (see exo_ctx.h). */
#include "exo_ctx.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const stage_names[EXO_STAGE_COUNT] = {
    "reading edges", "merging runs", "building CSR", "clustering",
    "writing clusters"};

const char *exo_stage_name(exo_stage stage) {
  if ((int)stage < 0 || stage >= EXO_STAGE_COUNT) return "?";
  return stage_names[stage];
}

void exo_ctx_init(exo_ctx *ctx) {
  memset(ctx, 0, sizeof *ctx);
  ctx->err.code = EXO_OK;
}

exo_status exo_poll(exo_ctx *ctx) {
  if (ctx->err.code != EXO_OK) return ctx->err.code;
  if (ctx->cb.interrupted && ctx->cb.interrupted(ctx->cb.user))
    return EXO_FAIL(ctx, EXO_EINTR, "interrupted by the user");
  return EXO_OK;
}

exo_status exo_fail_oom(exo_ctx *ctx, const char *what, uint64_t bytes) {
  if (!bytes) return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory for %s", what);
  return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory allocating %llu bytes for %s",
                  (unsigned long long)bytes, what);
}

void exo_progress(exo_ctx *ctx, exo_stage stage, uint64_t done, uint64_t total) {
  if (ctx->cb.progress) ctx->cb.progress(ctx->cb.user, stage, done, total);
}

/* One line through a message callback (NULL: dropped). */
static void say(void (*cb)(void *, const char *), void *user, const char *fmt, va_list ap) {
  if (!cb) return;
  char buf[512];
  vsnprintf(buf, sizeof buf, fmt, ap);
  cb(user, buf);
}

void exo_message(exo_ctx *ctx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  say(ctx->cb.message, ctx->cb.user, fmt, ap);
  va_end(ap);
}

void exo_detail(exo_ctx *ctx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  say(ctx->cb.detail, ctx->cb.user, fmt, ap);
  va_end(ap);
}
