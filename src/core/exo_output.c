/* exo_output.c: cluster renumbering and the "name<sep>cluster\n" writer
 * (see exo_output.h).
 *
 * The writer streams the names file through an exo_reader, finds line ends
 * with memchr inside the reader's buffer, and formats every output line by
 * hand into the exo_writer's buffer. The text goes to "<out_path>.tmp-XXXXXX"
 * (exo_make_tempfile, same directory), which is renamed over out_path only
 * after a successful close; every error path closes and unlinks it. */
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
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory allocating %llu bytes to renumber clusters",
                    (unsigned long long)(n * sizeof *map));
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
static exo_status put_tail(exo_writer *w, char sep, uint64_t cluster, exo_ctx *ctx) {
  uint8_t *d = exo_writer_reserve(w, 2 + EXO_FMT_U64_MAX, ctx);
  if (!d) return ctx->err.code ? ctx->err.code : EXO_EINTERNAL;
  d[0] = (uint8_t)sep;
  size_t k = 1 + exo_fmt_u64((char *)d + 1, cluster);
  d[k++] = '\n';
  exo_writer_commit(w, k);
  return EXO_OK;
}

/* The streaming loop: n lines from the names reader to the writer. */
static exo_status write_lines(exo_reader *r, exo_writer *w, const uint64_t *clusters,
                              uint64_t n, char sep, const char *names_path,
                              exo_ctx *ctx) {
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
      if (!in_name && len + 2 + EXO_FMT_U64_MAX <= w->cap) {
        /* fast path: the whole line in one reservation */
        uint8_t *d = exo_writer_reserve(w, len + 2 + EXO_FMT_U64_MAX, ctx);
        if (!d) return ctx->err.code ? ctx->err.code : EXO_EINTERNAL;
        memcpy(d, p + pos, len);
        size_t k = len;
        d[k++] = (uint8_t)sep;
        k += exo_fmt_u64((char *)d + k, clusters[v]);
        d[k++] = '\n';
        exo_writer_commit(w, k);
      } else {
        s = put_bytes(w, p + pos, len, ctx);
        if (!s) s = put_tail(w, sep, clusters[v], ctx);
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

/* Contract: writes n lines "<name><sep><cluster>\n", names streamed from
 * names_path, to out_path via a same-directory temporary renamed at the end.
 * On any error nothing is left behind and out_path is untouched. */
exo_status exo_output_write(const char *names_path, const uint64_t *clusters,
                            uint64_t n, char sep, const char *out_path,
                            exo_ctx *ctx) {
  if (!names_path || !out_path || (n > 0 && !clusters))
    return EXO_FAIL(ctx, EXO_EARG, "exo_output_write: NULL argument");
  if (sep == '\n')
    return EXO_FAIL(ctx, EXO_EARG, "the output separator cannot be a newline");
  exo_status s = exo_poll(ctx);
  if (s) return s;

  size_t plen = strlen(out_path);
  char *tmp = malloc(plen + sizeof ".tmp-XXXXXX");
  if (!tmp) return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory");
  memcpy(tmp, out_path, plen);
  memcpy(tmp + plen, ".tmp-XXXXXX", sizeof ".tmp-XXXXXX");
  /* created with the mode a plain creat() gives (0666 less the umask) */
  int fd = exo_make_tempfile(tmp);
  if (fd < 0) {
    int e = errno;
    free(tmp);
    return exo_error_errno(&ctx->err, e, "create a temporary file for", out_path);
  }
  exo_close(fd);

  exo_reader r;
  exo_writer w;
  memset(&r, 0, sizeof r);
  memset(&w, 0, sizeof w);
  r.fd = w.fd = -1;
  s = exo_reader_open(&r, names_path, OUT_READ_BUF, 0, UINT64_MAX, 0, ctx);
  if (!s) s = exo_writer_open(&w, tmp, OUT_WRITE_BUF, ctx);
  if (!s) s = write_lines(&r, &w, clusters, n, sep, names_path, ctx);
  exo_reader_close(&r);
  if (!s) s = exo_writer_close(&w, ctx);
  exo_writer_abort(&w); /* no-op after a close */
  if (!s && exo_rename_replace(tmp, out_path) != 0)
    s = exo_error_errno(&ctx->err, errno, "rename the finished output to", out_path);
  if (s) exo_unlink(tmp);
  free(tmp);
  return s;
}
