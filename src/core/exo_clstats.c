/* exo_clstats.c: the cluster table (contract in exo_clstats.h).
 *
 * One sequential pass over the offsets and adjacency files (two
 * exo_readers side by side) tallies every cluster's statistics; the only
 * random accesses are the neighbours' cluster numbers. The table is then
 * written in cluster order, the representatives' names collected from the
 * names file (in id order) into one buffer first. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_clstats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_budget.h"
#include "exo_fmt.h"
#include "exo_io.h"
#include "exo_output.h"
#include "exo_record.h"
#include "exo_seqs.h"

#define CS_POLL_NODES ((uint64_t)1 << 16)
#define CS_WRITE_BUF ((size_t)1 << 20)
#define CS_NAMES_BUF ((size_t)1 << 20)
#define CS_NO_REP UINT64_MAX

void exo_clstats_free(exo_clstats *s) {
  if (!s) return;
  free(s->size);
  free(s->internal);
  free(s->external);
  free(s->pairs);
  free(s->rep);
  free(s->rep_degree);
  memset(s, 0, sizeof *s);
}

double exo_clstats_density(const exo_clstats *s, uint64_t c) {
  double n = (double)s->size[c];
  if (s->size[c] < 2) return NAN;
  double possible = s->directed ? n * (n - 1.0) : n * (n - 1.0) / 2.0;
  return (double)s->pairs[c] / possible;
}

/* The tally of one node's adjacency list, entries [from, to) of the file,
 * read through `adj`. */
static exo_status tally_node(exo_clstats *s, const exo_csr_files *csr, exo_reader *adj,
                             const uint64_t *clusters, uint64_t v, uint64_t count,
                             exo_ctx *ctx) {
  const size_t esz = exo_adj_size(csr->wide);
  const uint64_t c = clusters[v], n = csr->n;
  const int directed = s->directed;
  double deg = 0.0, in = 0.0, ext = 0.0;
  uint64_t pairs = 0, last = CS_NO_REP; /* the last neighbour counted in pairs */
  while (count > 0) {
    const uint8_t *p;
    size_t avail;
    size_t want = count * esz < adj->cap ? (size_t)(count * esz) : adj->cap / esz * esz;
    exo_status st = exo_reader_peek(adj, want, &p, &avail, ctx);
    if (st) return st;
    if (avail < esz)
      return EXO_FAIL(ctx, EXO_EINTERNAL, "CSR adjacency file '%s' ends early at node %llu",
                      csr->adj_path, (unsigned long long)v);
    uint64_t here = avail / esz;
    if (here > count) here = count;
    for (uint64_t i = 0; i < here; i++, p += esz) {
      uint64_t u;
      float wf;
      exo_adj_decode(p, csr->wide, &u, &wf);
      if (u >= n) return exo_csr_bad_neighbour(csr, v, u, ctx);
      double w = (double)wf;
      if (clusters[u] != c) {
        ext += fabs(w); /* seen from this end only */
        continue;
      }
      if (u == v) { /* a self-loop: internal weight only */
        if (!directed || w > 0) in += fabs(w);
        continue;
      }
      deg += fabs(w);
      if (directed) {
        if (w > 0) { /* the edge u -> v, from its in-arc */
          in += w;
          if (u != last) pairs++;
          last = u;
        }
      } else if (u > v) { /* the edge {v, u} at its smaller end */
        in += w;
        if (u != last) pairs++;
        last = u;
      }
    }
    exo_reader_skip_buffered(adj, (size_t)(here * esz));
    count -= here;
  }
  s->size[c]++;
  s->internal[c] += in;
  s->external[c] += ext;
  s->pairs[c] += pairs;
  if (s->rep[c] == CS_NO_REP || deg > s->rep_degree[c]) {
    s->rep[c] = v;
    s->rep_degree[c] = deg;
  }
  return EXO_OK;
}

static uint64_t buffer_bytes(uint64_t memory_limit) {
  return exo_budget_share(memory_limit, EXO_SHARE_TABLE_READ, 1);
}

exo_status exo_clstats_compute(const exo_csr_files *csr, int directed,
                               const uint64_t *clusters, uint64_t k,
                               uint64_t memory_limit, exo_ctx *ctx, exo_clstats *out) {
  if (out) memset(out, 0, sizeof *out);
  if (!csr || !out || !csr->offsets_path || !csr->adj_path || (csr->n > 0 && !clusters))
    return EXO_FAIL(ctx, EXO_EARG, "exo_clstats_compute: NULL argument");
  const uint64_t n = csr->n;
  if (k > n || (n > 0 && k == 0))
    return EXO_FAIL(ctx, EXO_EARG, "exo_clstats_compute: %llu clusters for %llu nodes",
                    (unsigned long long)k, (unsigned long long)n);
  for (uint64_t v = 0; v < n; v++)
    if (clusters[v] == 0 || clusters[v] > k)
      return EXO_FAIL(ctx, EXO_EARG,
                      "exo_clstats_compute: node %llu has cluster %llu outside 1..%llu",
                      (unsigned long long)v, (unsigned long long)clusters[v],
                      (unsigned long long)k);
  if (k + 1 > SIZE_MAX / 8) return exo_fail_oom(ctx, "the cluster table", (k + 1) * 48);
  exo_clstats s;
  memset(&s, 0, sizeof s);
  s.k = k;
  s.directed = directed != 0;
  const size_t kk = (size_t)k + 1;
  s.size = calloc(kk, sizeof *s.size);
  s.internal = calloc(kk, sizeof *s.internal);
  s.external = calloc(kk, sizeof *s.external);
  s.pairs = calloc(kk, sizeof *s.pairs);
  s.rep = malloc(kk * sizeof *s.rep);
  s.rep_degree = calloc(kk, sizeof *s.rep_degree);
  if (!s.size || !s.internal || !s.external || !s.pairs || !s.rep || !s.rep_degree) {
    exo_clstats_free(&s);
    return exo_fail_oom(ctx, "the cluster table", (uint64_t)kk * 48);
  }
  for (size_t c = 0; c < kk; c++) s.rep[c] = CS_NO_REP;

  const size_t esz = exo_adj_size(csr->wide);
  uint64_t size = 0;
  exo_status st = exo_file_size(csr->offsets_path, &size, ctx);
  if (!st && size != (n + 1) * 8)
    st = EXO_FAIL(ctx, EXO_EINTERNAL, "CSR offsets file '%s' has %llu bytes, expected %llu",
                  csr->offsets_path, (unsigned long long)size,
                  (unsigned long long)((n + 1) * 8));
  if (!st) st = exo_file_size(csr->adj_path, &size, ctx);
  if (!st && size != csr->m * esz)
    st = EXO_FAIL(ctx, EXO_EINTERNAL, "CSR adjacency file '%s' has %llu bytes, expected %llu",
                  csr->adj_path, (unsigned long long)size, (unsigned long long)(csr->m * esz));
  exo_reader offr, adjr;
  memset(&offr, 0, sizeof offr);
  memset(&adjr, 0, sizeof adjr);
  offr.fd = adjr.fd = -1;
  const uint64_t bufb = buffer_bytes(memory_limit);
  if (!st) st = exo_reader_open(&offr, csr->offsets_path, (size_t)bufb, 0, UINT64_MAX, 0, ctx);
  if (!st)
    st = exo_reader_open(&adjr, csr->adj_path, (size_t)(bufb / esz * esz), 0, UINT64_MAX, 0,
                         ctx);
  uint64_t prev = 0;
  if (!st) st = exo_reader_read(&offr, &prev, 8, ctx);
  if (!st && prev != 0)
    st = EXO_FAIL(ctx, EXO_EINTERNAL, "CSR offsets file '%s' does not start at 0",
                  csr->offsets_path);
  for (uint64_t v = 0; v < n && !st; v++) {
    uint64_t next = 0;
    st = exo_reader_read(&offr, &next, 8, ctx);
    if (st) break;
    if (next < prev || next > csr->m) {
      st = EXO_FAIL(ctx, EXO_EINTERNAL, "CSR offsets file '%s' is not monotone at node %llu",
                    csr->offsets_path, (unsigned long long)v);
      break;
    }
    st = tally_node(&s, csr, &adjr, clusters, v, next - prev, ctx);
    prev = next;
    if (!st && ((v + 1) & (CS_POLL_NODES - 1)) == 0) st = exo_poll(ctx);
  }
  if (!st && prev != csr->m)
    st = EXO_FAIL(ctx, EXO_EINTERNAL, "CSR offsets file '%s' does not span %llu entries",
                  csr->offsets_path, (unsigned long long)csr->m);
  exo_reader_close(&offr);
  exo_reader_close(&adjr);
  if (!st) st = exo_poll(ctx);
  if (st) {
    exo_clstats_free(&s);
    return st;
  }
  *out = s;
  return EXO_OK;
}

/* ---- the table ---------------------------------------------------------- */

/* The representatives' names: for cluster c in the current range, its name
 * is buf[start[c] .. start[c] + len[c]). With members set (the member
 * table's pass), every node's line is written instead. */
typedef struct name_pass {
  const exo_clstats *s;
  const uint64_t *clusters;
  uint64_t c0, c1;   /* clusters [c0, c1) collected in this pass */
  uint8_t *buf;
  uint64_t cap, used;
  uint32_t *len;     /* k + 1 */
  uint64_t *start;   /* k + 1 */
  uint64_t *foff;    /* k + 1, or NULL: the name's offset in the names file */
  int first;         /* the first pass: measure every name, copy while it fits */
  int overflow;      /* the first pass did not fit */
  /* the member table's pass */
  exo_writer *members;
  char sep;
  int names_fd;      /* the names file, for representatives not in buf */
  uint8_t *one;      /* one representative's name read from names_fd */
  size_t one_cap;
  const char *names_path;
} name_pass;

/* The member table: node v's line starts with its representative. */
static exo_status member_start(name_pass *np, uint64_t v, exo_ctx *ctx) {
  uint64_t c = np->clusters[v];
  const uint8_t *rep;
  size_t len = np->len[c];
  if (!np->overflow) {
    rep = np->buf + np->start[c];
  } else {
    if (len > np->one_cap) {
      uint8_t *q = realloc(np->one, len);
      if (!q) return exo_fail_oom(ctx, "a node name", len);
      np->one = q;
      np->one_cap = len;
    }
    exo_status st = exo_pread_full(np->names_fd, np->one, len, np->foff[c], np->names_path, ctx);
    if (st) return st;
    rep = np->one;
  }
  exo_status st = exo_writer_write(np->members, rep, len, ctx);
  if (!st) st = exo_writer_write(np->members, &np->sep, 1, ctx);
  return st;
}

/* A piece of node v's name (possibly all of it), starting at byte `off` of
 * the names file. */
static exo_status on_piece(name_pass *np, uint64_t v, uint64_t at, uint64_t off,
                           const uint8_t *p, size_t len, exo_ctx *ctx) {
  if (np->members) {
    exo_status st = at == 0 ? member_start(np, v, ctx) : EXO_OK;
    if (!st && len) st = exo_writer_write(np->members, p, len, ctx);
    return st;
  }
  uint64_t c = np->clusters[v];
  if (np->s->rep[c] != v || c < np->c0 || c >= np->c1) return EXO_OK;
  if (np->first) {
    if ((uint64_t)np->len[c] + len > UINT32_MAX)
      return EXO_FAIL(ctx, EXO_ELIMIT, "a node name is longer than 4 GiB");
    if (at == 0) {
      np->start[c] = np->used;
      if (np->foff) np->foff[c] = off;
    }
    np->len[c] += (uint32_t)len;
    if (np->overflow || np->used + len > np->cap) {
      np->overflow = 1;
      return EXO_OK;
    }
    memcpy(np->buf + np->used, p, len);
    np->used += len;
    return EXO_OK;
  }
  memcpy(np->buf + np->start[c] + at, p, len);
  return EXO_OK;
}

/* Stream the n names of names_path, handing every name to on_piece. */
static exo_status read_names(name_pass *np, const char *names_path, uint64_t n,
                             exo_ctx *ctx) {
  exo_reader r;
  memset(&r, 0, sizeof r);
  r.fd = -1;
  exo_status st = exo_reader_open(&r, names_path, CS_NAMES_BUF, 0, UINT64_MAX, 0, ctx);
  uint64_t v = 0, at = 0, base = 0; /* node, bytes of its name seen, offset of p */
  while (!st) {
    const uint8_t *p;
    size_t avail;
    st = exo_reader_peek(&r, r.cap, &p, &avail, ctx);
    if (st || avail == 0) break;
    size_t pos = 0;
    while (pos < avail && !st) {
      const uint8_t *nl = memchr(p + pos, '\n', avail - pos);
      size_t len = nl ? (size_t)(nl - (p + pos)) : avail - pos;
      if (v >= n) {
        st = EXO_FAIL(ctx, EXO_EINTERNAL, "names file '%s' has more lines than the %llu nodes",
                      names_path, (unsigned long long)n);
        break;
      }
      st = on_piece(np, v, at, base + pos, p + pos, len, ctx);
      pos += len;
      at += len;
      if (nl) {
        if (!st && np->members) st = exo_writer_write(np->members, "\n", 1, ctx);
        pos++;
        at = 0;
        if ((++v & (CS_POLL_NODES - 1)) == 0 && !st) st = exo_poll(ctx);
      }
    }
    exo_reader_skip_buffered(&r, avail);
    base += avail;
  }
  exo_reader_close(&r);
  if (!st && (v != n || at != 0))
    st = EXO_FAIL(ctx, EXO_EINTERNAL, "names file '%s' does not hold the %llu node names",
                  names_path, (unsigned long long)n);
  return st;
}

/* Set up np for the representatives of s (buffer of the share table_names at
 * most, no larger than the names file); with_offsets: keep each one's
 * offset in the names file too. */
static exo_status pass_init(name_pass *np, const exo_clstats *s, const uint64_t *clusters,
                            const char *names_path, uint64_t memory_limit, int with_offsets,
                            exo_ctx *ctx) {
  const uint64_t k = s->k;
  memset(np, 0, sizeof *np);
  np->names_fd = -1;
  np->s = s;
  np->clusters = clusters;
  np->names_path = names_path;
  np->cap = exo_budget_share(memory_limit, EXO_SHARE_TABLE_NAMES, 1);
  uint64_t total_guess = 0; /* no more than the names file */
  if (exo_file_size(names_path, &total_guess, ctx) != EXO_OK) return ctx->err.code;
  if (np->cap > total_guess + 1) np->cap = total_guess + 1;
  np->len = calloc((size_t)k + 1, sizeof *np->len);
  np->start = calloc((size_t)k + 1, sizeof *np->start);
  if (with_offsets) np->foff = calloc((size_t)k + 1, sizeof *np->foff);
  np->buf = malloc((size_t)np->cap);
  if (!np->len || !np->start || !np->buf || (with_offsets && !np->foff))
    return exo_fail_oom(ctx, "the representatives' names", (uint64_t)k * 20 + np->cap);
  return EXO_OK;
}

static void pass_free(name_pass *np) {
  free(np->len);
  free(np->start);
  free(np->foff);
  free(np->buf);
  free(np->one);
  if (np->names_fd >= 0) exo_close(np->names_fd);
  memset(np, 0, sizeof *np);
  np->names_fd = -1;
}

typedef exo_status (*rep_fn)(void *user, uint64_t c, const uint8_t *name, size_t len,
                             exo_ctx *ctx);

/* fn(c, representative's name) for every cluster c = 1..k in order: the
 * names collected in one pass while they fit np's buffer, else one more
 * pass per buffer-full. np comes from pass_init. */
static exo_status for_each_rep(name_pass *np, uint64_t n, rep_fn fn, void *user,
                               exo_ctx *ctx) {
  const uint64_t k = np->s->k;
  exo_status st = EXO_OK;
  np->first = 1;
  np->c0 = 1;
  np->c1 = k + 1;
  if (k > 0) st = read_names(np, np->names_path, n, ctx);
  if (!st && !np->overflow) {
    for (uint64_t c = 1; c <= k && !st; c++)
      st = fn(user, c, np->buf + np->start[c], np->len[c], ctx);
    return st;
  }
  /* ranges of clusters whose names fit the buffer, one read each; start[]
   * is reused, so member_start reads these from the names file */
  np->first = 0;
  for (uint64_t c0 = 1; c0 <= k && !st;) {
    uint64_t c1 = c0, used = 0;
    while (c1 <= k && (c1 == c0 || used + np->len[c1] <= np->cap)) {
      np->start[c1] = used;
      used += np->len[c1];
      c1++;
    }
    if (used > np->cap) { /* one name longer than the buffer */
      uint8_t *bigger = realloc(np->buf, (size_t)used);
      if (!bigger) return exo_fail_oom(ctx, "a node name", used);
      np->buf = bigger;
      np->cap = used;
    }
    np->c0 = c0;
    np->c1 = c1;
    st = read_names(np, np->names_path, n, ctx);
    for (uint64_t c = c0; c < c1 && !st; c++)
      st = fn(user, c, np->buf + np->start[c], np->len[c], ctx);
    c0 = c1;
  }
  return st;
}

/* A weight or a density: "NA" for NaN, a whole number without a decimal
 * point, anything else with up to 15 significant digits. */
static size_t fmt_number(char *dst, double x) {
  if (isnan(x)) {
    memcpy(dst, "NA", 2);
    return 2;
  }
  if (x >= 0 && x < 9007199254740992.0 && x == floor(x)) return exo_fmt_u64(dst, (uint64_t)x);
  int k = snprintf(dst, 32, "%.15g", x);
  return k > 0 ? (size_t)k : 0;
}

#define CS_ROW_FIXED (4 * (EXO_FMT_U64_MAX + 1) + 2 * 32 + 8)

static exo_status write_row(exo_writer *w, const exo_clstats *s, uint64_t c, char sep,
                            const uint8_t *name, size_t len, exo_ctx *ctx) {
  uint8_t *d = exo_writer_reserve(w, CS_ROW_FIXED, ctx);
  if (!d) return ctx->err.code ? ctx->err.code : EXO_EINTERNAL;
  char *q = (char *)d;
  q += exo_fmt_u64(q, s->ids ? s->ids[c] : c);
  *q++ = sep;
  q += exo_fmt_u64(q, s->size[c]);
  *q++ = sep;
  q += fmt_number(q, s->internal[c]);
  *q++ = sep;
  q += fmt_number(q, s->external[c]);
  *q++ = sep;
  q += fmt_number(q, exo_clstats_density(s, c));
  *q++ = sep;
  exo_writer_commit(w, (size_t)(q - (char *)d));
  exo_status st = exo_writer_write(w, name, len, ctx);
  if (!st) st = exo_writer_write(w, "\n", 1, ctx);
  return st;
}

/* A directory cannot take the table; a device or a FIFO is written into
 * (exo_outfile, exo_output.h). */
exo_status exo_clstats_check_path(const char *out_path, exo_ctx *ctx) {
  uint64_t ident[2];
  int kind = 0;
  if (!out_path || !*out_path) return EXO_FAIL(ctx, EXO_EARG, "no cluster table path given");
  if (exo_path_identity(out_path, ident, &kind) == 0 && kind == EXO_FILE_DIR)
    return EXO_FAIL(ctx, EXO_EARG, "the cluster table '%s' is a directory", out_path);
  return EXO_OK;
}

exo_status exo_clstats_write(const exo_clstats *s, const char *names_path,
                             const uint64_t *clusters, uint64_t n, char sep,
                             const char *out_path, uint64_t memory_limit, exo_ctx *ctx) {
  return exo_clstats_write_pending(s, names_path, clusters, n, sep, out_path, memory_limit,
                                   NULL, ctx);
}

typedef struct row_ctx {
  exo_writer *w;
  const exo_clstats *s;
  char sep;
} row_ctx;

static exo_status on_row(void *user, uint64_t c, const uint8_t *name, size_t len,
                         exo_ctx *ctx) {
  row_ctx *r = user;
  return write_row(r->w, r->s, c, r->sep, name, len, ctx);
}

static exo_status check_args(const exo_clstats *s, const char *names_path,
                             const uint64_t *clusters, uint64_t n, char sep,
                             const char *out_path, exo_ctx *ctx) {
  if (!s || !names_path || !out_path || (n > 0 && !clusters))
    return EXO_FAIL(ctx, EXO_EARG, "exo_clstats_write: NULL argument");
  if (sep == '\n' || sep == '\r' || sep == '\0')
    return EXO_FAIL(ctx, EXO_EARG, "the table separator cannot be a line end or NUL");
  return exo_poll(ctx);
}

exo_status exo_clstats_write_pending(const exo_clstats *s, const char *names_path,
                                     const uint64_t *clusters, uint64_t n, char sep,
                                     const char *out_path, uint64_t memory_limit,
                                     exo_pending *pending, exo_ctx *ctx) {
  if (pending) *pending = (exo_pending)EXO_PENDING_INIT;
  exo_status st = check_args(s, names_path, clusters, n, sep, out_path, ctx);
  if (st) return st;
  if ((st = exo_clstats_check_path(out_path, ctx)) != EXO_OK) return st;
  name_pass np;
  st = pass_init(&np, s, clusters, names_path, memory_limit, 0, ctx);
  if (st) {
    pass_free(&np);
    return st;
  }
  exo_outfile o;
  st = exo_outfile_open(&o, out_path, CS_WRITE_BUF, ctx);
  if (st) {
    pass_free(&np);
    return st;
  }
  {
    char head[128];
    int hl = snprintf(head, sizeof head, EXO_CLSTATS_HEADER "\n", sep, sep, sep, sep, sep);
    st = exo_writer_write(&o.w, head, (size_t)hl, ctx);
  }
  row_ctx rc = {&o.w, s, sep};
  if (!st) st = for_each_rep(&np, n, on_row, &rc, ctx);
  if (!st) st = exo_outfile_finish(&o, pending, ctx);
  else exo_outfile_abort(&o);
  pass_free(&np);
  return st;
}

exo_status exo_clstats_write_members(const exo_clstats *s, const char *names_path,
                                     const uint64_t *clusters, uint64_t n, char sep,
                                     const char *out_path, uint64_t memory_limit,
                                     exo_pending *pending, exo_ctx *ctx) {
  if (pending) *pending = (exo_pending)EXO_PENDING_INIT;
  exo_status st = check_args(s, names_path, clusters, n, sep, out_path, ctx);
  if (st) return st;
  uint64_t ident[2];
  int kind = 0;
  if (exo_path_identity(out_path, ident, &kind) == 0 && kind == EXO_FILE_DIR)
    return EXO_FAIL(ctx, EXO_EARG, "the representatives table '%s' is a directory", out_path);
  name_pass np;
  st = pass_init(&np, s, clusters, names_path, memory_limit, 1, ctx);
  /* the first pass: the representatives' lengths, offsets and, while they
   * fit, names */
  np.first = 1;
  np.c0 = 1;
  np.c1 = s->k + 1;
  if (!st && s->k > 0) st = read_names(&np, names_path, n, ctx);
  if (!st && np.overflow) {
    np.names_fd = exo_open(names_path, EXO_OPEN_READ);
    if (np.names_fd < 0) st = exo_error_errno(&ctx->err, errno, "open", names_path);
  }
  exo_outfile o;
  if (!st) st = exo_outfile_open(&o, out_path, CS_WRITE_BUF, ctx);
  if (st) {
    pass_free(&np);
    return st;
  }
  np.members = &o.w;
  np.sep = sep;
  st = read_names(&np, names_path, n, ctx);
  if (!st) st = exo_outfile_finish(&o, pending, ctx);
  else exo_outfile_abort(&o);
  pass_free(&np);
  return st;
}

typedef struct set_ctx {
  exo_nameset *set;
} set_ctx;

static exo_status on_rep_name(void *user, uint64_t c, const uint8_t *name, size_t len,
                              exo_ctx *ctx) {
  (void)c;
  return exo_nameset_add(((set_ctx *)user)->set, name, len, ctx);
}

exo_status exo_clstats_rep_set(const exo_clstats *s, const char *names_path,
                               const uint64_t *clusters, uint64_t n, uint64_t memory_limit,
                               exo_nameset *set, exo_ctx *ctx) {
  if (!s || !names_path || !set || (n > 0 && !clusters))
    return EXO_FAIL(ctx, EXO_EARG, "exo_clstats_rep_set: NULL argument");
  name_pass np;
  exo_status st = pass_init(&np, s, clusters, names_path, memory_limit, 0, ctx);
  set_ctx sc = {set};
  if (!st) st = for_each_rep(&np, n, on_rep_name, &sc, ctx);
  pass_free(&np);
  return st;
}
