/* exo_input.c: one input file as a stream of decompressed bytes (see
 * exo_input.h).
 *
 * The first few bytes are read at open time to recognise the format. For a
 * plain file they are kept in `head` and handed out before anything else, so
 * that pipes and FIFOs work as well as regular files (no seeking back). For
 * gzip they become the first bytes of the compressed buffer. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "exo_io.h"

#define INPUT_ZBUF ((size_t)1 << 20) /* compressed read buffer: 1 MiB */
#define INPUT_MAGIC 6                /* longest magic we look at (xz) */

struct exo_input {
  int fd;
  char *path;
  int gzip;
  int eof;          /* read() reported end of file */
  int done;         /* gzip: the last member ended and nothing follows */
  int regular;      /* a regular file */
  uint64_t size;    /* its size at open time */
  uint64_t raw_read; /* bytes obtained from the file so far */
  /* plain files: magic bytes already read, delivered first */
  uint8_t head[INPUT_MAGIC];
  size_t head_len, head_pos;
  /* gzip */
  z_stream zs;
  int zinit;
  uint8_t *zbuf;
};

#define INPUT_WAIT_MS 100 /* a stream's wait for data between interrupt checks */

/* One read() of up to n bytes into *k (0 at end of file). A regular file is
 * read at once; any other file (pipe, FIFO, device, socket) is waited on
 * INPUT_WAIT_MS at a time. After each wait that brought nothing, and after
 * every EINTR, the host is asked whether to stop (exo_poll): EXO_EINTR then.
 * A read error is recorded naming the file. */
static exo_status read_some(exo_input *in, uint8_t *buf, size_t n, int64_t *k, exo_ctx *ctx) {
  for (;;) {
    *k = exo_read_wait(in->fd, buf, n, in->regular ? -1 : INPUT_WAIT_MS);
    if (*k >= 0) return EXO_OK;
    if (*k != EXO_READ_AGAIN) return exo_error_errno(&ctx->err, errno, "read", in->path);
    exo_status s = exo_poll(ctx);
    if (s) return s;
  }
}

/* Read until n bytes or end of file; sets *got. */
static exo_status read_upto(exo_input *in, uint8_t *buf, size_t n, size_t *got,
                            exo_ctx *ctx) {
  size_t have = 0;
  while (have < n && !in->eof) {
    int64_t k = 0;
    exo_status s = read_some(in, buf + have, n - have, &k, ctx);
    if (s) return s;
    if (k == 0) {
      in->eof = 1;
      break;
    }
    have += (size_t)k;
    in->raw_read += (uint64_t)k;
  }
  *got = have;
  return EXO_OK;
}

/* Name of an unsupported compression format recognised from its magic, or
 * NULL. */
static const char *unsupported_format(const uint8_t *m, size_t n) {
  if (n >= 3 && m[0] == 'B' && m[1] == 'Z' && m[2] == 'h') return "bzip2";
  if (n >= 6 && m[0] == 0xfd && m[1] == '7' && m[2] == 'z' && m[3] == 'X' &&
      m[4] == 'Z' && m[5] == 0x00)
    return "xz";
  if (n >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd)
    return "zstd";
  return NULL;
}

/* Open `path`, recognise its format and prepare decompression. On failure
 * nothing stays allocated and *out is NULL. */
exo_status exo_input_open(exo_input **out, const char *path, exo_ctx *ctx) {
  *out = NULL;
  exo_input *in = calloc(1, sizeof *in);
  if (!in) return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory opening '%s'", path);
  in->fd = -1;
  size_t plen = strlen(path) + 1;
  in->path = malloc(plen);
  if (!in->path) {
    exo_input_close(in);
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory opening '%s'", path);
  }
  memcpy(in->path, path, plen);

  in->fd = exo_open(path, EXO_OPEN_INPUT); /* a FIFO without a writer: waited for in reads */
  if (in->fd < 0) {
    int e = errno;
    exo_input_close(in);
    return exo_error_errno(&ctx->err, e, "open", path);
  }
  uint64_t fsize = 0;
  int kind = 0;
  if (exo_fd_stat(in->fd, &fsize, &kind) != 0) {
    int e = errno;
    exo_input_close(in);
    return exo_error_errno(&ctx->err, e, "stat", path);
  }
  if (kind == EXO_FILE_DIR) {
    exo_input_close(in);
    return EXO_FAIL(ctx, EXO_EIO, "'%s' is a directory", path);
  }
  in->regular = kind == EXO_FILE_REGULAR;
  in->size = fsize;
  if (in->regular) exo_hint_sequential(in->fd, 0, 0);

  size_t n = 0;
  exo_status s = read_upto(in, in->head, INPUT_MAGIC, &n, ctx);
  if (s) {
    exo_input_close(in);
    return s;
  }
  in->head_len = n;
  const char *fmt = unsupported_format(in->head, n);
  if (fmt) {
    exo_input_close(in);
    return EXO_FAIL(ctx, EXO_EINPUT,
                    "%s: %s-compressed files are not supported; decompress it first",
                    path, fmt);
  }
  if (n >= 2 && in->head[0] == 0x1f && in->head[1] == 0x8b) {
    in->gzip = 1;
    in->zbuf = exo_alloc_aligned(INPUT_ZBUF);
    if (!in->zbuf) {
      exo_input_close(in);
      return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory allocating a gzip buffer for '%s'", path);
    }
    memcpy(in->zbuf, in->head, n);
    in->head_len = 0;
    memset(&in->zs, 0, sizeof in->zs);
    in->zs.next_in = in->zbuf;
    in->zs.avail_in = (uInt)n;
    int zr = inflateInit2(&in->zs, 15 + 32);
    if (zr != Z_OK) {
      exo_input_close(in);
      if (zr == Z_MEM_ERROR)
        return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory initialising zlib for '%s'", path);
      return EXO_FAIL(ctx, EXO_EINTERNAL, "cannot initialise zlib for '%s'", path);
    }
    in->zinit = 1;
  }
  *out = in;
  return EXO_OK;
}

/* Plain file: hand out the saved magic bytes, then one read(). */
static exo_status read_plain(exo_input *in, uint8_t *buf, size_t cap, size_t *got,
                             exo_ctx *ctx) {
  size_t n = 0;
  if (in->head_pos < in->head_len) {
    n = in->head_len - in->head_pos;
    if (n > cap) n = cap;
    memcpy(buf, in->head + in->head_pos, n);
    in->head_pos += n;
  }
  if (n < cap && !in->eof) {
    int64_t k = 0;
    exo_status s = read_some(in, buf + n, cap - n, &k, ctx);
    if (s) return s;
    if (k == 0) in->eof = 1;
    n += (size_t)k;
    in->raw_read += (uint64_t)k;
  }
  *got = n;
  return EXO_OK;
}

/* Refill the compressed buffer when it is empty and the file is not. */
static exo_status zfill(exo_input *in, exo_ctx *ctx) {
  if (in->zs.avail_in > 0 || in->eof) return EXO_OK;
  size_t n = 0;
  int64_t k = 0;
  exo_status s = read_some(in, in->zbuf, INPUT_ZBUF, &k, ctx);
  if (s) return s;
  if (k == 0) in->eof = 1;
  n = (size_t)k;
  in->raw_read += (uint64_t)n;
  in->zs.next_in = in->zbuf;
  in->zs.avail_in = (uInt)n;
  return EXO_OK;
}

/* After a gzip member ended: skip zero padding, then either start the next
 * member or mark the stream done. */
static exo_status next_member(exo_input *in, exo_ctx *ctx) {
  for (;;) {
    while (in->zs.avail_in > 0 && in->zs.next_in[0] == 0) {
      in->zs.next_in++;
      in->zs.avail_in--;
    }
    if (in->zs.avail_in > 0) break;
    exo_status s = zfill(in, ctx);
    if (s) return s;
    if (in->zs.avail_in == 0) { /* end of file: no more members */
      in->done = 1;
      return EXO_OK;
    }
  }
  if (inflateReset(&in->zs) != Z_OK)
    return EXO_FAIL(ctx, EXO_EINTERNAL, "%s: cannot reset the gzip decoder", in->path);
  return EXO_OK;
}

/* Record the truncated-gzip error. */
static exo_status truncated(exo_input *in, exo_ctx *ctx) {
  return EXO_FAIL(ctx, EXO_EINPUT,
                  "%s: truncated gzip file (unexpected end of compressed data)", in->path);
}

/* gzip: inflate into buf until it is full or the input ends. */
static exo_status read_gzip(exo_input *in, uint8_t *buf, size_t cap, size_t *got,
                            exo_ctx *ctx) {
  size_t n = 0;
  while (n < cap && !in->done) {
    exo_status s = zfill(in, ctx);
    if (s) return s;
    size_t want = cap - n;
    if (want > (size_t)1 << 30) want = (size_t)1 << 30; /* fits uInt */
    in->zs.next_out = buf + n;
    in->zs.avail_out = (uInt)want;
    uInt in_before = in->zs.avail_in;
    int zr = inflate(&in->zs, Z_NO_FLUSH);
    size_t produced = want - in->zs.avail_out;
    n += produced;
    switch (zr) {
    case Z_OK:
      if (produced == 0 && in->zs.avail_in == in_before && in->eof) return truncated(in, ctx);
      break;
    case Z_STREAM_END:
      s = next_member(in, ctx);
      if (s) return s;
      break;
    case Z_BUF_ERROR: /* no progress possible */
      if (in->zs.avail_in == 0 && in->eof) return truncated(in, ctx);
      if (in->zs.avail_in > 0 || in->eof)
        return EXO_FAIL(ctx, EXO_EINTERNAL, "%s: gzip decoder made no progress", in->path);
      break; /* needs more input: zfill on the next round */
    case Z_MEM_ERROR:
      return EXO_FAIL(ctx, EXO_ENOMEM, "%s: out of memory while decompressing", in->path);
    case Z_NEED_DICT:
    case Z_DATA_ERROR:
    case Z_STREAM_ERROR:
    default:
      return EXO_FAIL(ctx, EXO_EINPUT, "%s: corrupt gzip data (%s)", in->path,
                      in->zs.msg ? in->zs.msg : "invalid compressed data");
    }
  }
  *got = n;
  return EXO_OK;
}

/* Fill buf with up to cap bytes; *got == 0 only at the end of the input. */
exo_status exo_input_read(exo_input *in, uint8_t *buf, size_t cap, size_t *got,
                          exo_ctx *ctx) {
  *got = 0;
  if (cap == 0) return EXO_OK;
  if (in->gzip) return read_gzip(in, buf, cap, got, ctx);
  return read_plain(in, buf, cap, got, ctx);
}

/* Compressed (raw file) bytes consumed so far. */
uint64_t exo_input_raw_offset(const exo_input *in) {
  if (in->gzip) return in->raw_read - in->zs.avail_in;
  return in->raw_read - (in->head_len - in->head_pos);
}

/* Non-zero when the file is being inflated. */
int exo_input_is_gzip(const exo_input *in) { return in->gzip; }

/* Descriptor of a plain regular file, else -1. */
int exo_input_plain_fd(const exo_input *in, uint64_t *size) {
  if (in->gzip || !in->regular) return -1;
  if (size) *size = in->size;
  return in->fd;
}

/* Release everything; NULL-safe. */
void exo_input_close(exo_input *in) {
  if (!in) return;
  if (in->zinit) inflateEnd(&in->zs);
  if (in->fd >= 0) exo_close(in->fd);
  free(in->zbuf);
  free(in->path);
  free(in);
}
