/* exo_io.h: buffered sequential files, positioned reads, temp directories.
 *
 * Every stage of the pipeline streams: it reads or writes a file front to
 * back through one large buffer. These wrappers own that buffer and turn
 * errno into a message naming the file (ENOSPC becomes EXO_ENOSPC).
 * Writers and readers are plain structs; zero-initialise before use, and
 * the close and abort calls are safe to call on a zeroed or already closed object. */
#ifndef EXO_IO_H
#define EXO_IO_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"
#include "exo_platform.h" /* descriptors, big buffers, exo_punch_hole */

#define EXO_IO_DEFAULT_BUF ((size_t)1 << 20) /* 1 MiB */

/* ---- sequential writer ---------------------------------------------- */
typedef struct exo_writer {
  int fd;          /* -1 when closed */
  uint8_t *buf;
  size_t cap, len;
  uint64_t offset; /* bytes handed to the kernel so far */
  uint64_t base;   /* file offset of the writer's first byte (0, or the
                      start given to exo_writer_open_at) */
  uint64_t wb_started, wb_done; /* write-behind: writeback started up to /
                                   waited for up to (see exo_io.c) */
  char *path;      /* owned copy, for messages */
  int stream;      /* writes at the descriptor's position (a FIFO, a
                      device), not positioned ones */
} exo_writer;

/* Create or truncate `path` for writing with a `bufsize` byte buffer. */
exo_status exo_writer_open(exo_writer *w, const char *path, size_t bufsize,
                           exo_ctx *ctx);
/* Open the existing file `path` (not truncated) for writing from file
 * offset `at` on, with pwrite: several such writers (one per thread) can
 * fill disjoint parts of one file. Everything else as exo_writer_open. */
exo_status exo_writer_open_at(exo_writer *w, const char *path, size_t bufsize,
                              uint64_t at, exo_ctx *ctx);
/* Write to `fd` (open for writing; the writer closes it, also when this
 * fails) in order, with plain writes: a FIFO or a device such as
 * /dev/null, where positioned writes do not apply. `path` for messages. */
exo_status exo_writer_open_stream(exo_writer *w, int fd, const char *path, size_t bufsize,
                                  exo_ctx *ctx);
exo_status exo_writer_write(exo_writer *w, const void *data, size_t n,
                            exo_ctx *ctx);
/* Reserve `n` <= cap bytes in the buffer (flushing first if needed) and
 * return a pointer to them; the caller fills them and calls
 * exo_writer_commit(w, used) with used <= n. NULL on error. */
uint8_t *exo_writer_reserve(exo_writer *w, size_t n, exo_ctx *ctx);
static inline void exo_writer_commit(exo_writer *w, size_t used) { w->len += used; }
exo_status exo_writer_flush(exo_writer *w, exo_ctx *ctx);
/* Total bytes written so far, buffered ones included. */
static inline uint64_t exo_writer_tell(const exo_writer *w) { return w->offset + w->len; }
/* Flush and close; reports write and close errors. */
exo_status exo_writer_close(exo_writer *w, exo_ctx *ctx);
/* Close without flushing and without reporting (error paths). */
void exo_writer_abort(exo_writer *w);

/* ---- sequential reader ---------------------------------------------- */
typedef struct exo_reader {
  int fd;
  uint8_t *buf;
  size_t cap, pos, len;
  uint64_t file_off;   /* file offset of buf[len] (next byte to read) */
  uint64_t end;        /* read up to this offset (file size or a limit) */
  uint64_t punched;    /* released up to here (from the range's start) */
  int punch;           /* release consumed blocks while reading */
  int borrowed;        /* fd belongs to the caller (exo_reader_open_fd) */
  char *path;
} exo_reader;

/* Open `path` for sequential reading of [start, end) (end = UINT64_MAX: to
 * the end of the file). With `punch` set, the bytes of [start, end) already
 * read into the buffer are returned to the file system as reading proceeds,
 * in steps of 1 MiB or of the buffer if smaller (the file is temporary and
 * is not read twice);
 * bytes outside the range are never released, so several readers (one per
 * thread) can consume disjoint ranges of one file. Buffers of 1 MiB and
 * more ask the kernel to read the next buffer's bytes ahead, unless the
 * last fill came whole from the page cache (exo_pread_cached). */
exo_status exo_reader_open(exo_reader *r, const char *path, size_t bufsize,
                           uint64_t start, uint64_t end, int punch, exo_ctx *ctx);
/* The same on the caller's descriptor `fd` (open for reading, and for
 * writing when punching; `path` is for messages), which the reader uses
 * with pread only and does not close: several readers on several threads
 * can share one descriptor, e.g. one per run file for all the final
 * merge's ranges, so the open files do not grow with the thread count. */
exo_status exo_reader_open_fd(exo_reader *r, int fd, const char *path, size_t bufsize,
                              uint64_t start, uint64_t end, int punch, exo_ctx *ctx);
/* Read exactly n bytes; EXO_EINTERNAL if the range ends first. */
exo_status exo_reader_read(exo_reader *r, void *dst, size_t n, exo_ctx *ctx);
/* Make at least min(n, remaining) bytes available at *out; sets *avail.
 * The pointer stays valid until the next call on the reader. n <= cap. */
exo_status exo_reader_peek(exo_reader *r, size_t n, const uint8_t **out,
                           size_t *avail, exo_ctx *ctx);
static inline void exo_reader_skip_buffered(exo_reader *r, size_t n) { r->pos += n; }
/* Bytes left in the range, buffered ones included. */
static inline uint64_t exo_reader_remaining(const exo_reader *r) {
  return (r->end - r->file_off) + (r->len - r->pos);
}
/* With punching: release every byte of the range read so far, the last
 * partial step included (call when the range is used up). */
void exo_reader_punch_read(exo_reader *r);
void exo_reader_close(exo_reader *r);

/* ---- whole-file and positioned helpers ------------------------------ */
/* exo_pread/exo_pwrite loops that retry on short counts. */
exo_status exo_pread_full(int fd, void *buf, size_t n, uint64_t off,
                          const char *path, exo_ctx *ctx);
exo_status exo_pwrite_full(int fd, const void *buf, size_t n, uint64_t off,
                           const char *path, exo_ctx *ctx);
exo_status exo_file_size(const char *path, uint64_t *size, exo_ctx *ctx);

/* ---- paths and temp directories ------------------------------------- */
/* malloc'd "dir/name"; NULL on allocation failure. */
char *exo_path_join(const char *dir, const char *name);
/* Create a fresh private directory "<base>/exolabel-XXXXXX"; *out is
 * malloc'd. Two runs never get the same directory. */
exo_status exo_tempdir_create(const char *base, char **out, exo_ctx *ctx);
/* The same for a run's own directory: first removes from `base` the
 * directories that runs killed without cleaning up (SIGKILL, the OOM killer)
 * left there, then marks and locks the new one (exo_clean_stale_tempdirs,
 * exo_tempdir_lock in exo_platform.h: only directories of dead runs of this
 * user on this host, never a live run's). *lock_fd holds the lock (-1 where
 * locking is not available); after exo_tempdir_remove, pass it to
 * exo_tempdir_unlock. Directories made by exo_tempdir_create inside a run's
 * directory need no lock of their own. */
exo_status exo_tempdir_create_run(const char *base, char **out, int *lock_fd, exo_ctx *ctx);
/* Remove every regular file in `dir` and then `dir` itself. Best effort:
 * returns 0 when the directory is gone afterwards. */
int exo_tempdir_remove(const char *dir);
/* Unlink, ignoring ENOENT; best effort. */
void exo_unlink(const char *path);

#endif
