/* exo_io.c: buffered sequential files and temp directories (see exo_io.h). */
#include "exo_io.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* ---- writer ------------------------------------------------------------ */

/* Every open: a fresh buffer and the path for messages. */
static exo_status writer_init(exo_writer *w, const char *path, size_t bufsize, exo_ctx *ctx) {
  memset(w, 0, sizeof *w);
  w->fd = -1;
  if (bufsize < 4096) bufsize = 4096;
  w->path = dup_str(path);
  w->buf = exo_alloc_aligned(bufsize);
  if (!w->path || !w->buf) {
    exo_writer_abort(w);
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory allocating a %zu byte write buffer", bufsize);
  }
  w->cap = bufsize;
  return EXO_OK;
}

/* The file opened with `how`; positioned writers start at file offset `at`. */
static exo_status writer_open(exo_writer *w, const char *path, size_t bufsize, int how,
                              uint64_t at, exo_ctx *ctx) {
  exo_status s = writer_init(w, path, bufsize, ctx);
  if (s) return s;
  w->base = at;
  w->fd = exo_open(path, how);
  if (w->fd < 0) {
    int e = errno;
    exo_writer_abort(w);
    return exo_error_errno(&ctx->err, e, "open for writing", path);
  }
  return EXO_OK;
}

exo_status exo_writer_open(exo_writer *w, const char *path, size_t bufsize,
                           exo_ctx *ctx) {
  return writer_open(w, path, bufsize, EXO_OPEN_CREATE, 0, ctx);
}

exo_status exo_writer_open_at(exo_writer *w, const char *path, size_t bufsize,
                              uint64_t at, exo_ctx *ctx) {
  return writer_open(w, path, bufsize, EXO_OPEN_RDWR, at, ctx);
}

exo_status exo_writer_open_stream(exo_writer *w, int fd, const char *path, size_t bufsize,
                                  exo_ctx *ctx) {
  exo_status s = writer_init(w, path, bufsize, ctx);
  if (s) {
    exo_close(fd);
    return s;
  }
  w->fd = fd;
  w->stream = 1;
  return EXO_OK;
}

/* n bytes at the writer's position (file offset base + offset). */
static exo_status writer_put(exo_writer *w, const uint8_t *p, size_t n, exo_ctx *ctx) {
  if (w->stream)
    return exo_write_all(w->fd, p, n) == 0 ? EXO_OK
                                           : exo_error_errno(&ctx->err, errno, "write to", w->path);
  return exo_pwrite_full(w->fd, p, n, w->base + w->offset, w->path, ctx);
}

/* Write-behind: every EXO_WRITE_BEHIND bytes, start writeback of the bytes
 * written since the last start and wait for the window before it. Dirty
 * page cache per file thus stays below about two windows, so that under a
 * memory cgroup cap (which counts page cache) reclaim finds clean pages to
 * drop instead of stalling on writeback; without a cap the pages stay
 * cached. Best effort: errors surface at write or close. A no-op where the
 * system has no such call (exo_platform.h). */
#define EXO_WRITE_BEHIND ((uint64_t)32 << 20)
static void write_behind(exo_writer *w) {
  if (w->stream) return;
  if (w->offset - w->wb_started < EXO_WRITE_BEHIND) return;
  if (w->wb_started > w->wb_done)
    exo_writeback_wait(w->fd, w->base + w->wb_done, w->wb_started - w->wb_done);
  w->wb_done = w->wb_started;
  exo_writeback_start(w->fd, w->base + w->wb_started, w->offset - w->wb_started);
  w->wb_started = w->offset;
}

exo_status exo_writer_flush(exo_writer *w, exo_ctx *ctx) {
  if (w->fd < 0) return EXO_FAIL(ctx, EXO_EINTERNAL, "write to a closed file");
  if (w->len == 0) return EXO_OK;
  exo_status s = writer_put(w, w->buf, w->len, ctx);
  if (s) return s;
  w->offset += w->len;
  w->len = 0;
  write_behind(w);
  return EXO_OK;
}

exo_status exo_writer_write(exo_writer *w, const void *data, size_t n, exo_ctx *ctx) {
  const uint8_t *p = data;
  if (n <= w->cap - w->len) {
    memcpy(w->buf + w->len, p, n);
    w->len += n;
    return EXO_OK;
  }
  exo_status s = exo_writer_flush(w, ctx);
  if (s) return s;
  if (n >= w->cap) { /* large block: bypass the buffer */
    s = writer_put(w, p, n, ctx);
    if (s) return s;
    w->offset += n;
    write_behind(w);
    return EXO_OK;
  }
  memcpy(w->buf, p, n);
  w->len = n;
  return EXO_OK;
}

uint8_t *exo_writer_reserve(exo_writer *w, size_t n, exo_ctx *ctx) {
  if (n > w->cap) {
    EXO_FAIL(ctx, EXO_EINTERNAL, "reservation of %zu bytes exceeds the buffer", n);
    return NULL;
  }
  if (w->cap - w->len < n && exo_writer_flush(w, ctx) != EXO_OK) return NULL;
  return w->buf + w->len;
}

exo_status exo_writer_close(exo_writer *w, exo_ctx *ctx) {
  exo_status s = EXO_OK;
  if (w->path && w->fd >= 0) {
    s = exo_writer_flush(w, ctx);
    if (exo_close(w->fd) != 0 && s == EXO_OK)
      s = exo_error_errno(&ctx->err, errno, "close", w->path);
    w->fd = -1;
  }
  free(w->buf);
  free(w->path);
  w->buf = NULL;
  w->path = NULL;
  w->cap = w->len = 0;
  return s;
}

void exo_writer_abort(exo_writer *w) {
  if (w->path && w->fd >= 0) exo_close(w->fd); /* path is set by every open */
  w->fd = -1;
  free(w->buf);
  free(w->path);
  w->buf = NULL;
  w->path = NULL;
  w->cap = w->len = 0;
}

/* ---- reader ------------------------------------------------------------ */

/* Both opens: `fd` >= 0 is a caller's descriptor (borrowed), else the file
 * is opened here. */
static exo_status reader_open(exo_reader *r, int fd, const char *path, size_t bufsize,
                              uint64_t start, uint64_t end, int punch, exo_ctx *ctx) {
  memset(r, 0, sizeof *r);
  r->fd = -1;
  if (bufsize < 4096) bufsize = 4096;
  r->path = dup_str(path);
  r->buf = exo_alloc_aligned(bufsize);
  if (!r->path || !r->buf) {
    exo_reader_close(r);
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory allocating a %zu byte read buffer", bufsize);
  }
  r->cap = bufsize;
  r->borrowed = fd >= 0;
  /* punching holes (fallocate) needs a descriptor open for writing */
  r->fd = fd >= 0 ? fd : exo_open(path, punch ? EXO_OPEN_RDWR : EXO_OPEN_READ);
  if (r->fd < 0) {
    int e = errno;
    exo_reader_close(r);
    return exo_error_errno(&ctx->err, e, "open", path);
  }
  uint64_t size = 0;
  int kind = 0;
  if (exo_fd_stat(r->fd, &size, &kind) != 0) {
    int e = errno;
    exo_reader_close(r);
    return exo_error_errno(&ctx->err, e, "stat", path);
  }
  if (end > size) end = size;
  if (start > end) start = end;
  r->file_off = start;
  r->end = end;
  r->punch = punch;
  r->punched = start;
  if (!r->borrowed) /* a shared descriptor's read-ahead state is shared too */
    exo_hint_sequential(r->fd, start, end - start);
  return EXO_OK;
}

exo_status exo_reader_open(exo_reader *r, const char *path, size_t bufsize,
                           uint64_t start, uint64_t end, int punch, exo_ctx *ctx) {
  return reader_open(r, -1, path, bufsize, start, end, punch, ctx);
}

exo_status exo_reader_open_fd(exo_reader *r, int fd, const char *path, size_t bufsize,
                              uint64_t start, uint64_t end, int punch, exo_ctx *ctx) {
  if (fd < 0) return EXO_FAIL(ctx, EXO_EINTERNAL, "no descriptor for '%s'", path);
  return reader_open(r, fd, path, bufsize, start, end, punch, ctx);
}

#define READER_PUNCH_STEP ((uint64_t)1 << 20) /* least bytes released per punch */
#define READER_AHEAD_MIN ((size_t)1 << 20)    /* buffers from this size read ahead */

/* Refill: keep the unread tail, then read as much as fits. */
static exo_status reader_fill(exo_reader *r, exo_ctx *ctx) {
  size_t keep = r->len - r->pos;
  if (keep && r->pos) memmove(r->buf, r->buf + r->pos, keep);
  r->pos = 0;
  r->len = keep;
  int cached = 1; /* every byte of this fill from the page cache */
  while (r->len < r->cap && r->file_off < r->end) {
    size_t want = r->cap - r->len;
    if ((uint64_t)want > r->end - r->file_off) want = (size_t)(r->end - r->file_off);
    int64_t k = 0;
    if (cached && (k = (int64_t)exo_pread_cached(r->fd, r->buf + r->len, want, r->file_off)) <
                      (int64_t)want)
      cached = 0;
    if (k == 0 && (k = exo_pread(r->fd, r->buf + r->len, want, r->file_off)) < 0)
      return exo_error_errno(&ctx->err, errno, "read", r->path);
    if (k == 0)
      return EXO_FAIL(ctx, EXO_EIO, "unexpected end of file in '%s'", r->path);
    r->len += (size_t)k;
    r->file_off += (uint64_t)k;
  }
  /* Everything before file_off is in the buffer or consumed: with punching,
   * give the whole pages of it back to the file system now, so the disk
   * holds only unread bytes (and the partial page at the read position) and
   * their cached pages leave the page cache at once. Punches are at least
   * half a step (READER_PUNCH_STEP, or the buffer when it is smaller: many
   * small readers, e.g. the final merge's sources on several threads,
   * would otherwise keep up to a step each), so a refill of a drained
   * buffer of a few pages or more punches: consumed bytes, which may
   * already be written elsewhere, never wait for a second refill to be
   * freed. The fill that reaches the end gives back all it read: a source
   * smaller than its buffer would otherwise hold its disk until it is
   * exhausted. */
  const uint64_t step = r->cap < READER_PUNCH_STEP ? r->cap : READER_PUNCH_STEP;
  if (r->punch) {
    const int at_end = r->file_off >= r->end;
    const uint64_t upto = at_end ? r->file_off : r->file_off & ~(uint64_t)4095;
    if (upto > r->punched && (at_end || upto - r->punched >= step / 2)) {
      exo_punch_range(r->fd, r->punched, upto - r->punched);
      r->punched = upto;
    }
  }
  /* Read-ahead of one buffer: the kernel fetches the next block while the
   * caller works on this one (large buffers only: small readers are cheap;
   * not when this fill came from the page cache, where the hint only walks
   * the cache). */
  if (!cached && r->cap >= READER_AHEAD_MIN && r->file_off < r->end) {
    uint64_t ahead = r->end - r->file_off < r->cap ? r->end - r->file_off : r->cap;
    exo_hint_willneed(r->fd, r->file_off, ahead);
  }
  return EXO_OK;
}

exo_status exo_reader_peek(exo_reader *r, size_t n, const uint8_t **out,
                           size_t *avail, exo_ctx *ctx) {
  if (n > r->cap) return EXO_FAIL(ctx, EXO_EINTERNAL, "peek of %zu bytes exceeds the buffer", n);
  if (r->len - r->pos < n && r->file_off < r->end) {
    exo_status s = reader_fill(r, ctx);
    if (s) return s;
  }
  *out = r->buf + r->pos;
  *avail = r->len - r->pos;
  return EXO_OK;
}

exo_status exo_reader_read(exo_reader *r, void *dst, size_t n, exo_ctx *ctx) {
  uint8_t *d = dst;
  while (n > 0) {
    if (r->pos == r->len) {
      if (r->file_off >= r->end)
        return EXO_FAIL(ctx, EXO_EINTERNAL, "read past the end of '%s'", r->path);
      exo_status s = reader_fill(r, ctx);
      if (s) return s;
    }
    size_t k = r->len - r->pos;
    if (k > n) k = n;
    memcpy(d, r->buf + r->pos, k);
    r->pos += k;
    d += k;
    n -= k;
  }
  return EXO_OK;
}

void exo_reader_punch_read(exo_reader *r) {
  if (r->punch && r->fd >= 0 && r->file_off > r->punched) {
    exo_punch_range(r->fd, r->punched, r->file_off - r->punched);
    r->punched = r->file_off;
  }
}

void exo_reader_close(exo_reader *r) {
  if (r->path && r->fd >= 0 && !r->borrowed) exo_close(r->fd); /* path is set by every open */
  r->fd = -1;
  free(r->buf);
  free(r->path);
  r->buf = NULL;
  r->path = NULL;
  r->cap = r->len = r->pos = 0;
}

/* ---- positioned helpers ------------------------------------------------ */

exo_status exo_pread_full(int fd, void *buf, size_t n, uint64_t off,
                          const char *path, exo_ctx *ctx) {
  uint8_t *p = buf;
  while (n > 0) {
    int64_t k = exo_pread(fd, p, n, off);
    if (k < 0) return exo_error_errno(&ctx->err, errno, "read", path);
    if (k == 0) return EXO_FAIL(ctx, EXO_EIO, "unexpected end of file in '%s'", path);
    p += k;
    n -= (size_t)k;
    off += (uint64_t)k;
  }
  return EXO_OK;
}

exo_status exo_pwrite_full(int fd, const void *buf, size_t n, uint64_t off,
                           const char *path, exo_ctx *ctx) {
  const uint8_t *p = buf;
  while (n > 0) {
    int64_t k = exo_pwrite(fd, p, n, off);
    if (k < 0) return exo_error_errno(&ctx->err, errno, "write", path);
    if (k == 0) return exo_error_errno(&ctx->err, ENOSPC, "write", path);
    p += k;
    n -= (size_t)k;
    off += (uint64_t)k;
  }
  return EXO_OK;
}

exo_status exo_file_size(const char *path, uint64_t *size, exo_ctx *ctx) {
  int kind = 0;
  if (exo_path_stat(path, size, &kind) != 0) return exo_error_errno(&ctx->err, errno, "stat", path);
  return EXO_OK;
}

/* ---- paths and temp directories ---------------------------------------- */

char *exo_path_join(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *p = malloc(a + b + 2);
  if (!p) return NULL;
  memcpy(p, dir, a);
  size_t k = a;
  if (a == 0 || (dir[a - 1] != '/' && !(EXO_PATH_BACKSLASH && dir[a - 1] == '\\'))) p[k++] = '/';
  memcpy(p + k, name, b + 1);
  return p;
}

exo_status exo_tempdir_create(const char *base, char **out, exo_ctx *ctx) {
  *out = NULL;
  char *tmpl = exo_path_join(base, "exolabel-XXXXXX");
  if (!tmpl) return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory");
  if (exo_make_tempdir(tmpl) != 0) {
    int e = errno;
    free(tmpl);
    return exo_error_errno(&ctx->err, e, "create a temporary directory in", base);
  }
  *out = tmpl;
  return EXO_OK;
}

exo_status exo_tempdir_create_run(const char *base, char **out, int *lock_fd,
                                  exo_ctx *ctx) {
  *lock_fd = -1;
  int gone = exo_clean_stale_tempdirs(base);
  if (gone > 0)
    exo_message(ctx, "removed %d temporary director%s left in %s by runs that were killed",
                gone, gone == 1 ? "y" : "ies", base);
  exo_status st = exo_tempdir_create(base, out, ctx);
  if (!st) *lock_fd = exo_tempdir_lock(*out);
  return st;
}

int exo_tempdir_remove(const char *dir) { return dir ? exo_remove_dir(dir) : 0; }

void exo_unlink(const char *path) {
  if (path) (void)exo_remove(path);
}
