/* exo_byname.c: results in byte order of the names (contract in
 * exo_byname.h). */
#include "exo_byname.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exo_fmt.h"
#include "exo_io.h"
#include "exo_platform.h"

#define BN_WRITE_BUF ((size_t)1 << 20)
#define BN_POLL ((uint64_t)1 << 16)

void exo_byname_free(exo_byname *b) {
  if (!b) return;
  free(b->names);
  free(b->off);
  free(b->order);
  memset(b, 0, sizeof *b);
}

/* name u before name v */
static int before(const exo_byname *b, uint64_t u, uint64_t v) {
  uint64_t lu = b->off[u + 1] - b->off[u] - 1, lv = b->off[v + 1] - b->off[v] - 1;
  uint64_t l = lu < lv ? lu : lv;
  int c = l ? memcmp(b->names + b->off[u], b->names + b->off[v], (size_t)l) : 0;
  if (c) return c < 0;
  if (lu != lv) return lu < lv;
  return u < v; /* names are distinct; ids keep it total */
}

exo_status exo_names_file_read(const char *names_path, uint64_t n, uint8_t **names,
                               uint64_t **off, const char *purpose, exo_ctx *ctx) {
  *names = NULL;
  *off = NULL;
  uint64_t size = 0;
  exo_status st = exo_file_size(names_path, &size, ctx);
  if (st) return st;
  uint8_t *nm = malloc((size_t)size + 1);
  uint64_t *o = malloc(((size_t)n + 1) * sizeof *o);
  if (!nm || !o) {
    free(nm);
    free(o);
    return exo_fail_oom(ctx, purpose, size + 8 * (n + 1));
  }
  int fd = exo_open(names_path, EXO_OPEN_READ);
  if (fd < 0) {
    st = exo_error_errno(&ctx->err, errno, "open", names_path);
  } else {
    st = exo_pread_full(fd, nm, (size_t)size, 0, names_path, ctx);
    exo_close(fd);
  }
  uint64_t v = 0;
  o[0] = 0;
  for (uint64_t i = 0; !st && i < size; i++)
    if (nm[i] == '\n') {
      if (v == n) break;
      o[++v] = i + 1;
    }
  if (!st && (v != n || (n && o[n] != size)))
    st = EXO_FAIL(ctx, EXO_EINTERNAL, "names file '%s' does not hold the %llu node names",
                  names_path, (unsigned long long)n);
  if (st) {
    free(nm);
    free(o);
    return st;
  }
  *names = nm;
  *off = o;
  return EXO_OK;
}

exo_status exo_byname_load(exo_byname *b, const char *names_path, uint64_t n, exo_ctx *ctx) {
  memset(b, 0, sizeof *b);
  b->n = n;
  exo_status st = exo_names_file_read(names_path, n, &b->names, &b->off,
                                      "the names, to order the output by name (order = \"name\")",
                                      ctx);
  if (st) return st;
  b->order = malloc(((size_t)n + 1) * sizeof *b->order);
  uint64_t *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
  if (!b->order || !tmp) {
    free(tmp);
    exo_byname_free(b);
    return exo_fail_oom(ctx, "the names, to order the output by name (order = \"name\")",
                        16 * n);
  }
  /* bottom-up merge sort of the ids */
  uint64_t *a = b->order, *t = tmp;
  for (uint64_t i = 0; i < n; i++) a[i] = i;
  for (uint64_t w = 1; !st && w < n; w *= 2) {
    for (uint64_t lo = 0; lo < n; lo += 2 * w) {
      uint64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      uint64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) t[k++] = before(b, a[j], a[i]) ? a[j++] : a[i++];
      while (i < mid) t[k++] = a[i++];
      while (j < hi) t[k++] = a[j++];
    }
    uint64_t *x = a;
    a = t;
    t = x;
    st = exo_poll(ctx);
  }
  if (a != b->order) {
    memcpy(b->order, a, (size_t)n * sizeof *a);
  }
  free(a == b->order ? t : a);
  if (st) exo_byname_free(b);
  return st;
}

exo_status exo_byname_renumber(const exo_byname *b, uint64_t *clusters, uint64_t k,
                               exo_ctx *ctx) {
  uint64_t *map = calloc((size_t)k + 1, sizeof *map);
  if (!map) return exo_fail_oom(ctx, "the cluster numbers", (k + 1) * sizeof *map);
  uint64_t next = 0;
  for (uint64_t i = 0; i < b->n; i++) {
    uint64_t c = clusters[b->order[i]];
    if (c == 0 || c > k) {
      free(map);
      return EXO_FAIL(ctx, EXO_EINTERNAL, "cluster number %llu out of 1..%llu",
                      (unsigned long long)c, (unsigned long long)k);
    }
    if (!map[c]) map[c] = ++next;
  }
  for (uint64_t v = 0; v < b->n; v++) clusters[v] = map[clusters[v]];
  free(map);
  return EXO_OK;
}

static exo_status put_name(exo_writer *w, const exo_byname *b, uint64_t v, exo_ctx *ctx) {
  return exo_writer_write(w, b->names + b->off[v], (size_t)(b->off[v + 1] - b->off[v] - 1),
                          ctx);
}

/* The lines of both files: name<sep>cluster, or rep<sep>name with rep. */
static exo_status write_lines(const exo_byname *b, const uint64_t *clusters,
                              const uint64_t *rep, char sep, const char *out_path,
                              exo_pending *pending, exo_ctx *ctx) {
  if (pending) *pending = (exo_pending)EXO_PENDING_INIT;
  uint64_t ident[2];
  int kind = 0;
  if (exo_path_identity(out_path, ident, &kind) == 0 && kind == EXO_FILE_DIR)
    return EXO_FAIL(ctx, EXO_EARG, "the output '%s' is a directory", out_path);
  exo_outfile o;
  exo_status st = exo_outfile_open(&o, out_path, BN_WRITE_BUF, ctx);
  if (st) return st;
  for (uint64_t i = 0; i < b->n && !st; i++) {
    uint64_t v = b->order[i];
    if (rep) {
      st = put_name(&o.w, b, rep[clusters[v]], ctx);
      if (!st) st = exo_writer_write(&o.w, &sep, 1, ctx);
      if (!st) st = put_name(&o.w, b, v, ctx);
      if (!st) st = exo_writer_write(&o.w, "\n", 1, ctx);
    } else {
      st = put_name(&o.w, b, v, ctx);
      uint8_t *d = st ? NULL : exo_writer_reserve(&o.w, EXO_FMT_U64_MAX + 2, ctx);
      if (!st && !d) st = ctx->err.code ? ctx->err.code : EXO_EINTERNAL;
      if (!st) {
        char *q = (char *)d;
        *q++ = sep;
        q += exo_fmt_u64(q, clusters[v]);
        *q++ = '\n';
        exo_writer_commit(&o.w, (size_t)(q - (char *)d));
      }
    }
    if (!st && ((i + 1) & (BN_POLL - 1)) == 0) st = exo_poll(ctx);
  }
  if (!st) st = exo_outfile_finish(&o, pending, ctx);
  else exo_outfile_abort(&o);
  return st;
}

exo_status exo_byname_write(const exo_byname *b, const uint64_t *clusters, char sep,
                            const char *out_path, exo_pending *pending, exo_ctx *ctx) {
  return write_lines(b, clusters, NULL, sep, out_path, pending, ctx);
}

exo_status exo_byname_write_members(const exo_byname *b, const uint64_t *clusters,
                                    const uint64_t *rep, char sep, const char *out_path,
                                    exo_pending *pending, exo_ctx *ctx) {
  return write_lines(b, clusters, rep, sep, out_path, pending, ctx);
}
