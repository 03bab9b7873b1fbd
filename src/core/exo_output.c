/* exo_output.c: cluster renumbering and the "name<sep>cluster\n" writer
 * (see exo_output.h).
 *
 * The writer streams the names file through an exo_reader, finds line ends
 * with memchr inside the reader's buffer, and formats every output line by
 * hand into the exo_writer's buffer. The text goes to "<out_path>.tmp-XXXXXX"
 * (exo_make_tempfile, same directory), which is renamed over out_path only after a
 * successful close; every error path closes and unlinks it.
 *
 * With several threads the names file is cut into blocks of whole lines;
 * one parallel pass counts each block's lines (so each knows its first
 * node), a second sums each block's output bytes (names bytes + separator
 * + digits per line, so each knows where its text starts), and a third
 * formats every block through the same streaming loop into its own
 * positioned writer. The names file is read twice (the counting pass is a
 * memchr scan); in return no block has to be held in memory or copied. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_fmt.h"
#include "exo_io.h"
#include "exo_par.h"

#define OUT_WRITE_BUF ((size_t)4 << 20) /* >= 1 MiB, per the output contract */
#define OUT_READ_BUF ((size_t)4 << 20)
#define OUT_POLL_LINES ((uint64_t)1 << 16)
#define RENUMBER_POLL ((uint64_t)1 << 22)

/* Contract: labels[v] < n for every v; on success labels[v] is v's cluster
 * number 1..K (K = *num_clusters) in order of first appearance over
 * v = 0..n-1. An invalid label is reported before anything is rewritten;
 * after an interruption (EXO_EINTR) the labels are partly renumbered. */
exo_status exo_output_renumber(uint64_t *labels, uint64_t n, uint64_t *num_clusters,
                               exo_ctx *ctx) {
  if (num_clusters) *num_clusters = 0;
  if (!num_clusters || (n > 0 && !labels))
    return EXO_FAIL(ctx, EXO_EARG, "exo_output_renumber: NULL argument");
  if (n == 0) return EXO_OK;
  for (uint64_t v = 0; v < n; v++) {
    if (labels[v] >= n)
      return EXO_FAIL(ctx, EXO_EINTERNAL,
                      "label %llu of node %llu is not a node id (n = %llu)",
                      (unsigned long long)labels[v], (unsigned long long)v,
                      (unsigned long long)n);
  }
  if (n > SIZE_MAX / sizeof(uint64_t))
    return EXO_FAIL(ctx, EXO_ENOMEM, "too many nodes to renumber (%llu)",
                    (unsigned long long)n);
  /* scratch: label -> cluster number, 0 = not seen yet */
  uint64_t *map = calloc((size_t)n, sizeof *map);
  if (!map)
    return exo_fail_oom(ctx, "renumbering the clusters", n * sizeof *map);
  uint64_t k = 0;
  for (uint64_t v = 0; v < n; v++) {
    if ((v & (RENUMBER_POLL - 1)) == 0 && v > 0) {
      exo_status s = exo_poll(ctx);
      if (s) {
        free(map);
        return s;
      }
    }
    uint64_t l = labels[v];
    if (map[l] == 0) map[l] = ++k;
    labels[v] = map[l];
  }
  free(map);
  *num_clusters = k;
  return EXO_OK;
}

/* Copy one name piece into the writer; large pieces bypass the reservation. */
static exo_status put_bytes(exo_writer *w, const uint8_t *p, size_t len, exo_ctx *ctx) {
  return exo_writer_write(w, p, len, ctx);
}

/* Append "<sep><cluster>\n". */
/* The cluster columns of a writer: node v's numbers are c[j][v] for j <
 * k (one column: the clusters file; several: nested levels). */
typedef struct out_cols {
  const uint64_t *const *c;
  uint32_t k;
} out_cols;

/* "<sep>c1<sep>c2...\n" of node v at d (room for out_tail_max); its length. */
static inline size_t fmt_tail(uint8_t *d, const out_cols *cols, uint64_t v, char sep) {
  size_t k = 0;
  for (uint32_t j = 0; j < cols->k; j++) {
    d[k++] = (uint8_t)sep;
    k += exo_fmt_u64((char *)d + k, cols->c[j][v]);
  }
  d[k++] = '\n';
  return k;
}

static inline size_t out_tail_max(const out_cols *cols) {
  return 1 + (size_t)cols->k * (1 + EXO_FMT_U64_MAX);
}

static exo_status put_tail(exo_writer *w, char sep, const out_cols *cols, uint64_t v,
                           exo_ctx *ctx) {
  uint8_t *d = exo_writer_reserve(w, out_tail_max(cols), ctx);
  if (!d) return ctx->err.code ? ctx->err.code : EXO_EINTERNAL;
  exo_writer_commit(w, fmt_tail(d, cols, v, sep));
  return EXO_OK;
}

/* The streaming loop: n lines from the names reader to the writer
 * (progress reports count these n lines). */
/* Nodes [v0, v0 + n) (cols' entries from v0 on) from reader r's names. */
static exo_status write_lines(exo_reader *r, exo_writer *w, const out_cols *cols, uint64_t v0,
                              uint64_t n, char sep, const char *names_path,
                              exo_ctx *ctx) {
  const size_t tail = out_tail_max(cols);
  uint64_t v = 0;          /* next node to write */
  int in_name = 0;         /* part of v's name already written (long names) */
  uint64_t next_poll = OUT_POLL_LINES;
  size_t want = 1;         /* bytes to ask peek for */
  exo_progress(ctx, EXO_STAGE_OUTPUT, 0, n);
  for (;;) {
    const uint8_t *p;
    size_t avail;
    exo_status s = exo_reader_peek(r, want, &p, &avail, ctx);
    if (s) return s;
    if (avail == 0) break; /* end of the names file */
    size_t pos = 0;
    /* complete lines inside the buffered bytes */
    while (pos < avail) {
      const uint8_t *nl = memchr(p + pos, '\n', avail - pos);
      if (!nl) break;
      size_t len = (size_t)(nl - (p + pos));
      if (v >= n)
        return EXO_FAIL(ctx, EXO_EINTERNAL,
                        "names file '%s' has more lines than the %llu nodes",
                        names_path, (unsigned long long)n);
      if (!in_name && len + tail <= w->cap) {
        /* fast path: the whole line in one reservation */
        uint8_t *d = exo_writer_reserve(w, len + tail, ctx);
        if (!d) return ctx->err.code ? ctx->err.code : EXO_EINTERNAL;
        memcpy(d, p + pos, len);
        exo_writer_commit(w, len + fmt_tail(d + len, cols, v0 + v, sep));
      } else {
        s = put_bytes(w, p + pos, len, ctx);
        if (!s) s = put_tail(w, sep, cols, v0 + v, ctx);
        if (s) return s;
      }
      in_name = 0;
      pos += len + 1;
      v++;
      if (v >= next_poll) {
        next_poll += OUT_POLL_LINES;
        s = exo_poll(ctx);
        if (s) return s;
        exo_progress(ctx, EXO_STAGE_OUTPUT, v, n);
      }
    }
    exo_reader_skip_buffered(r, pos);
    size_t rest = avail - pos;
    if (rest == 0) {
      want = 1;
    } else if (rest < r->cap && exo_reader_remaining(r) > rest) {
      /* an incomplete line: ask for more than we have so the reader
       * moves it to the front and refills behind it */
      want = rest + 1;
    } else {
      /* a name filling the whole buffer (or an unterminated last line):
       * stream the piece out and keep reading the same name */
      if (exo_reader_remaining(r) == rest)
        return EXO_FAIL(ctx, EXO_EINTERNAL,
                        "names file '%s' ends without a newline after %llu lines",
                        names_path, (unsigned long long)v);
      if (v >= n)
        return EXO_FAIL(ctx, EXO_EINTERNAL,
                        "names file '%s' has more lines than the %llu nodes",
                        names_path, (unsigned long long)n);
      s = put_bytes(w, p + pos, rest, ctx);
      if (s) return s;
      exo_reader_skip_buffered(r, rest);
      in_name = 1;
      want = 1;
    }
  }
  if (v != n)
    return EXO_FAIL(ctx, EXO_EINTERNAL,
                    "names file '%s' has %llu lines but there are %llu nodes",
                    names_path, (unsigned long long)v, (unsigned long long)n);
  exo_progress(ctx, EXO_STAGE_OUTPUT, n, n);
  return EXO_OK;
}

/* ---- several threads: blocks of the names file ---------------------- */

#define OUT_MIN_BLOCK ((uint64_t)64 << 10) /* least names bytes per thread */

/* Block t covers names bytes cut[t]..cut[t+1]-1 (whole lines), lines
 * v0[t]..v0[t+1]-1 and output bytes out[t]..out[t+1]-1. */
typedef struct out_plan {
  const char *names_path, *tmp;
  const out_cols *cols;
  char sep;
  uint32_t nblocks;
  uint64_t *cut, *v0, *out; /* nblocks + 1 each */
  uint64_t *count;          /* per block: lines (phase 1), then output bytes */
} out_plan;

static exo_status count_lines(void *arg, uint32_t t, exo_ctx *ctx) {
  out_plan *p = arg;
  exo_reader r;
  exo_status s = exo_reader_open(&r, p->names_path, OUT_READ_BUF, p->cut[t], p->cut[t + 1], 0, ctx);
  uint64_t lines = 0;
  while (!s) {
    const uint8_t *b;
    size_t avail;
    s = exo_reader_peek(&r, r.cap, &b, &avail, ctx);
    if (s || avail == 0) break;
    for (const uint8_t *q = b, *end = b + avail; (q = memchr(q, '\n', (size_t)(end - q))) != NULL; q++)
      lines++;
    exo_reader_skip_buffered(&r, avail);
    s = exo_poll(ctx);
  }
  exo_reader_close(&r);
  p->count[t] = lines;
  return s;
}

static inline uint64_t decimal_digits(uint64_t v) {
  uint64_t d = 1;
  while (v >= 10) {
    v /= 10;
    d++;
  }
  return d;
}

/* Output bytes of block t: its names bytes plus sep and digits per line. */
static exo_status block_bytes(void *arg, uint32_t t, exo_ctx *ctx) {
  out_plan *p = arg;
  uint64_t bytes = p->cut[t + 1] - p->cut[t];
  for (uint64_t v = p->v0[t]; v < p->v0[t + 1]; v++) {
    for (uint32_t j = 0; j < p->cols->k; j++) bytes += 1 + decimal_digits(p->cols->c[j][v]);
    if ((v & (RENUMBER_POLL - 1)) == 0) {
      exo_status s = exo_poll(ctx);
      if (s) return s;
    }
  }
  p->count[t] = bytes;
  return EXO_OK;
}

static exo_status write_block(void *arg, uint32_t t, exo_ctx *ctx) {
  out_plan *p = arg;
  exo_reader r;
  exo_writer w;
  memset(&r, 0, sizeof r);
  memset(&w, 0, sizeof w);
  r.fd = w.fd = -1;
  exo_status s = exo_reader_open(&r, p->names_path, OUT_READ_BUF, p->cut[t], p->cut[t + 1], 0, ctx);
  if (!s) s = exo_writer_open_at(&w, p->tmp, OUT_WRITE_BUF, p->out[t], ctx);
  if (!s)
    s = write_lines(&r, &w, p->cols, p->v0[t], p->v0[t + 1] - p->v0[t], p->sep,
                    p->names_path, ctx);
  exo_reader_close(&r);
  if (!s) s = exo_writer_close(&w, ctx);
  exo_writer_abort(&w); /* no-op after a close */
  return s;
}

/* Cut the names file into nblocks pieces of whole lines: cut[t] is the
 * first line start at or after t * size / nblocks. */
static exo_status plan_cuts(out_plan *p, uint64_t size, exo_ctx *ctx) {
  const uint32_t T = p->nblocks;
  p->cut[0] = 0;
  p->cut[T] = size;
  exo_reader r;
  exo_status s = EXO_OK;
  for (uint32_t t = 1; t < T && !s; t++) {
    uint64_t from = size / T * t + size % T * t / T; /* size * t / T */
    if (from < p->cut[t - 1]) from = p->cut[t - 1];
    uint64_t c = size;
    if (from > 0) { /* the byte before a line start is a newline */
      s = exo_reader_open(&r, p->names_path, 64 << 10, from - 1, size, 0, ctx);
      uint64_t pos = from - 1;
      while (!s) {
        const uint8_t *b;
        size_t avail;
        s = exo_reader_peek(&r, r.cap, &b, &avail, ctx);
        if (s || avail == 0) break;
        const uint8_t *nl = memchr(b, '\n', avail);
        if (nl) {
          c = pos + (uint64_t)(nl - b) + 1;
          break;
        }
        pos += avail;
        exo_reader_skip_buffered(&r, avail);
      }
      exo_reader_close(&r);
    } else {
      c = 0;
    }
    p->cut[t] = c;
  }
  return s;
}

/* The threaded writer: plan the blocks (cuts, line counts, output sizes),
 * then format and write every block at its place. *fallback is set when
 * the names file does not have exactly n newline-terminated lines: the
 * one-thread writer then reports the problem with its usual message. */
static exo_status write_parallel(const char *names_path, const out_cols *cols,
                                 uint64_t n, char sep, const char *tmp, uint32_t nblocks,
                                 uint64_t size, int *fallback, exo_ctx *ctx) {
  out_plan p;
  memset(&p, 0, sizeof p);
  p.names_path = names_path;
  p.tmp = tmp;
  p.cols = cols;
  p.sep = sep;
  p.nblocks = nblocks;
  uint64_t *mem = calloc(4 * ((size_t)nblocks + 1), sizeof *mem);
  if (!mem) return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory");
  p.cut = mem;
  p.v0 = mem + nblocks + 1;
  p.out = mem + 2 * ((size_t)nblocks + 1);
  p.count = mem + 3 * ((size_t)nblocks + 1);
  exo_status s = plan_cuts(&p, size, ctx);
  if (!s) s = exo_par_run(nblocks, count_lines, &p, EXO_STAGE_OUTPUT, 0, ctx);
  if (!s) {
    for (uint32_t t = 0; t < nblocks; t++) p.v0[t + 1] = p.v0[t] + p.count[t];
    *fallback = p.v0[nblocks] != n; /* (a last line without newline included) */
  }
  if (!s && !*fallback) {
    uint8_t last = 0; /* the file ends with a newline (size > 0 here) */
    int fd = exo_open(names_path, EXO_OPEN_READ);
    if (fd < 0 || exo_pread(fd, &last, 1, size - 1) != 1) last = 0;
    if (fd >= 0) exo_close(fd);
    *fallback = last != '\n';
  }
  if (!s && !*fallback) s = exo_par_run(nblocks, block_bytes, &p, EXO_STAGE_OUTPUT, 0, ctx);
  if (!s && !*fallback) {
    for (uint32_t t = 0; t < nblocks; t++) p.out[t + 1] = p.out[t] + p.count[t];
    exo_progress(ctx, EXO_STAGE_OUTPUT, 0, n);
    s = exo_par_run(nblocks, write_block, &p, EXO_STAGE_OUTPUT, n, ctx);
    if (!s) exo_progress(ctx, EXO_STAGE_OUTPUT, n, n);
  }
  free(mem);
  return s;
}

/* Open the existing special file `path` (a FIFO, a device) for writing. A
 * FIFO nobody reads yet is waited for, polling for interrupts. */
static exo_status open_special(const char *path, int *fd, exo_ctx *ctx) {
  int told = 0;
  for (;;) {
    *fd = exo_open(path, EXO_OPEN_STREAM);
    if (*fd >= 0) return EXO_OK;
    if (errno != ENXIO) return exo_error_errno(&ctx->err, errno, "open for writing", path);
    if (!told) exo_message(ctx, "waiting for a reader of the FIFO '%s'", path);
    told = 1;
    exo_status s = exo_poll(ctx);
    if (s) return s;
    exo_sleep_ms(20);
  }
}

/* A new empty file "<path>.tmp-XXXXXX" beside `path` (the mode a plain
 * creat() gives: 0666 less the umask), locked through t->lock_fd while it
 * exists; t->tmp is malloc'd. Dead runs' leftovers beside `path` are
 * removed first (exo_output.h). */
static exo_status temp_beside(const char *path, exo_pending *t, exo_ctx *ctx) {
  size_t plen = strlen(path);
  t->lock_fd = -1;
  t->tmp = malloc(plen + sizeof ".tmp-XXXXXX");
  if (!t->tmp) return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory");
  memcpy(t->tmp, path, plen);
  memcpy(t->tmp + plen, ".tmp-", sizeof ".tmp-");
  int removed = exo_clean_stale_temps(t->tmp, EXO_STALE_TEMP_SECONDS);
  if (removed > 0)
    exo_message(ctx, "removed %d temporary file(s) '%sXXXXXX' left by killed runs", removed,
                t->tmp);
  memcpy(t->tmp + plen, ".tmp-XXXXXX", sizeof ".tmp-XXXXXX");
  int fd = exo_make_tempfile(t->tmp);
  if (fd < 0) {
    int e = errno;
    free(t->tmp);
    t->tmp = NULL;
    return exo_error_errno(&ctx->err, e, "create a temporary file for", path);
  }
  if (exo_lock_file(fd) == 0) t->lock_fd = fd; /* else unlocked: never judged dead sooner */
  else exo_close(fd);
  return EXO_OK;
}

exo_status exo_output_publish(exo_pending *pending, const char *path, exo_ctx *ctx) {
  exo_status s = EXO_OK;
  if (pending && pending->tmp) {
    if (exo_rename_replace(pending->tmp, path) != 0) {
      s = exo_error_errno(&ctx->err, errno, "rename the finished output to", path);
      exo_unlink(pending->tmp);
    }
    free(pending->tmp);
    pending->tmp = NULL;
  }
  if (pending && pending->lock_fd >= 0) { /* after the rename: never unlocked before */
    exo_close(pending->lock_fd);
    pending->lock_fd = -1;
  }
  return s;
}

void exo_output_discard(exo_pending *pending) {
  if (!pending) return;
  if (pending->tmp) exo_unlink(pending->tmp);
  free(pending->tmp);
  pending->tmp = NULL;
  if (pending->lock_fd >= 0) exo_close(pending->lock_fd);
  pending->lock_fd = -1;
}

int exo_output_written_through(const char *path, int *regular) {
  uint64_t size = 0;
  int kind = 0;
  if (regular) *regular = 0;
  if (exo_path_stat(path, &size, &kind) != 0) return 0; /* new: a temporary and a rename */
  if (kind == EXO_FILE_OTHER) return 1;
  if (kind == EXO_FILE_REGULAR && exo_path_is_fd_link(path)) {
    if (regular) *regular = 1;
    return 1;
  }
  return 0;
}

exo_status exo_outfile_open(exo_outfile *o, const char *path, size_t bufsize, exo_ctx *ctx) {
  memset(o, 0, sizeof *o);
  o->w.fd = -1;
  o->t.lock_fd = -1;
  o->path = path;
  exo_status s;
  int regular = 0;
  if (exo_output_written_through(path, &regular)) {
    int fd = -1;
    if (regular) { /* a process's descriptor: appended to, as its owner would */
      fd = exo_open(path, EXO_OPEN_APPEND);
      s = fd < 0 ? exo_error_errno(&ctx->err, errno, "open for writing", path) : EXO_OK;
    } else {
      s = open_special(path, &fd, ctx);
    }
    if (!s) s = exo_writer_open_stream(&o->w, fd, path, bufsize, ctx);
    return s;
  }
  s = temp_beside(path, &o->t, ctx);
  if (!s) s = exo_writer_open(&o->w, o->t.tmp, bufsize, ctx);
  if (s) exo_outfile_abort(o);
  return s;
}

exo_status exo_outfile_commit(exo_outfile *o, exo_ctx *ctx) {
  return exo_outfile_finish(o, NULL, ctx);
}

exo_status exo_outfile_finish(exo_outfile *o, exo_pending *pending, exo_ctx *ctx) {
  if (pending) *pending = (exo_pending)EXO_PENDING_INIT;
  exo_status s = exo_writer_close(&o->w, ctx);
  if (s) {
    exo_outfile_abort(o);
  } else if (pending) {
    *pending = o->t; /* the caller publishes or discards it */
    o->t = (exo_pending)EXO_PENDING_INIT;
  } else {
    s = exo_output_publish(&o->t, o->path, ctx);
  }
  return s;
}

void exo_outfile_abort(exo_outfile *o) {
  exo_writer_abort(&o->w);
  exo_output_discard(&o->t);
}

/* Contract: writes n lines "<name><sep><cluster>\n", names streamed from
 * names_path, to out_path via a same-directory temporary renamed at the end
 * (or into a special file as it is: exo_output.h). On any error nothing is
 * left behind and out_path is untouched. */
exo_status exo_output_write(const char *names_path, const uint64_t *clusters,
                            uint64_t n, char sep, const char *out_path, int threads,
                            exo_ctx *ctx) {
  return exo_output_write_pending(names_path, clusters, n, sep, out_path, threads, NULL, ctx);
}

exo_status exo_output_write_pending(const char *names_path, const uint64_t *clusters,
                                    uint64_t n, char sep, const char *out_path, int threads,
                                    exo_pending *pending, exo_ctx *ctx) {
  const uint64_t *one[1] = {clusters};
  return exo_output_write_columns(names_path, one, 1, n, sep, out_path, threads,
                                  pending, ctx);
}

exo_status exo_output_write_columns(const char *names_path, const uint64_t *const *columns,
                                    uint32_t ncolumns, uint64_t n, char sep, const char *out_path,
                                    int threads, exo_pending *pending, exo_ctx *ctx) {
  if (pending) *pending = (exo_pending)EXO_PENDING_INIT;
  int missing = ncolumns == 0 || !columns;
  for (uint32_t j = 0; j < ncolumns && !missing && n > 0; j++) missing = !columns[j];
  if (!names_path || !out_path || missing)
    return EXO_FAIL(ctx, EXO_EARG, "exo_output_write: NULL argument");
  const out_cols cols = {columns, ncolumns};
  if (sep == '\n')
    return EXO_FAIL(ctx, EXO_EARG, "the output separator cannot be a newline");
  exo_status s = exo_poll(ctx);
  if (s) return s;

  /* several threads (not into a special file, which is written in order):
   * blocks of at least OUT_MIN_BLOCK names bytes each, written at their
   * places in a temporary beside out_path */
  uint64_t size = 0;
  uint32_t nblocks = threads > 1 ? (uint32_t)(threads < 256 ? threads : 256) : 1;
  if (nblocks > 1 && exo_output_written_through(out_path, NULL)) nblocks = 1;
  if (nblocks > 1 && exo_file_size(names_path, &size, ctx) != EXO_OK) {
    exo_error_clear(&ctx->err); /* the one-thread writer reports it */
    nblocks = 1;
  }
  if (nblocks > 1 && size / OUT_MIN_BLOCK < nblocks)
    nblocks = size / OUT_MIN_BLOCK > 1 ? (uint32_t)(size / OUT_MIN_BLOCK) : 1;
  int fallback = nblocks <= 1;
  if (!fallback) {
    exo_pending t = EXO_PENDING_INIT;
    s = temp_beside(out_path, &t, ctx);
    if (s) return s;
    s = write_parallel(names_path, &cols, n, sep, t.tmp, nblocks, size, &fallback, ctx);
    if (!s && !fallback && pending) {
      *pending = t; /* the caller publishes or discards it */
      return EXO_OK;
    }
    if (!s && !fallback) s = exo_output_publish(&t, out_path, ctx);
    exo_output_discard(&t);
    if (s || !fallback) return s;
  }
  /* one thread, through exo_outfile */
  exo_reader r;
  exo_outfile o;
  memset(&r, 0, sizeof r);
  r.fd = -1;
  s = exo_reader_open(&r, names_path, OUT_READ_BUF, 0, UINT64_MAX, 0, ctx);
  if (!s) {
    s = exo_outfile_open(&o, out_path, OUT_WRITE_BUF, ctx);
    if (!s) {
      s = write_lines(&r, &o.w, &cols, 0, n, sep, names_path, ctx);
      if (!s) s = exo_outfile_finish(&o, pending, ctx);
      else exo_outfile_abort(&o);
    }
  }
  exo_reader_close(&r);
  return s;
}
