/* exo_csr.c: the CSR offsets loader and the adjacency windows (exo_csr.h). */
#include "exo_csr.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_io.h"
#include "exo_platform.h"
#include "exo_record.h"
#include "exo_sweep.h"

#define CSR_READ_STEP ((uint64_t)256 << 10) /* bytes read ahead per refill */

#define CSR_OFFSETS_CHUNK ((uint64_t)1 << 23) /* offsets read per pread (entries) */
#define CSR_SCAN_CHUNK ((uint64_t)1 << 16)    /* the same when streaming (512 KiB) */

/* Read the offsets file in runs (into all + i, or one run buffer when all
 * is NULL), exo_poll after each, and check them as they come: offsets[0] =
 * 0, non-decreasing, offsets[n] = m; *maxdeg (when given) = the largest
 * difference. */
static exo_status stream(const exo_csr_files *csr, uint64_t *all, uint64_t *maxdeg,
                         exo_ctx *ctx) {
  const char *path = csr->offsets_path;
  const uint64_t n = csr->n, m = csr->m, chunk = all ? CSR_OFFSETS_CHUNK : CSR_SCAN_CHUNK;
  uint64_t size = 0, prev = 0, md = 0;
  exo_status s = exo_file_size(path, &size, ctx);
  if (s) return s;
  if (size != (n + 1) * 8)
    return EXO_FAIL(ctx, EXO_EINTERNAL,
                    "CSR offsets file '%s' has %llu bytes, expected %llu for %llu nodes", path,
                    (unsigned long long)size, (unsigned long long)((n + 1) * 8),
                    (unsigned long long)n);
  uint64_t *run = all ? NULL : malloc((size_t)chunk * 8);
  if (!all && !run)
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory reading the CSR offsets '%s'", path);
  int fd = exo_open(path, EXO_OPEN_READ);
  if (fd < 0) s = exo_error_errno(&ctx->err, errno, "open", path);
  for (uint64_t i = 0; i < n + 1 && !s; i += chunk) {
    uint64_t k = n + 1 - i, *o = all ? all + i : run;
    if (k > chunk) k = chunk;
    if ((s = exo_pread_full(fd, o, (size_t)k * 8, i * 8, path, ctx)) != EXO_OK) break;
    if (i == 0 && o[0] != 0)
      s = EXO_FAIL(ctx, EXO_EINTERNAL, "CSR offsets file '%s' does not start at 0", path);
    for (uint64_t j = 0; j < k && !s; prev = o[j++]) {
      if (o[j] < prev)
        s = EXO_FAIL(ctx, EXO_EINTERNAL, "CSR offsets file '%s' decreases at node %llu", path,
                     (unsigned long long)(i + j - 1));
      else if (o[j] - prev > md)
        md = o[j] - prev;
    }
    if (!s) s = exo_poll(ctx);
  }
  if (fd >= 0) exo_close(fd);
  free(run);
  if (s) return s;
  if (prev != m)
    return EXO_FAIL(ctx, EXO_EINTERNAL, "CSR offsets file '%s' ends at %llu, expected %llu entries",
                    path, (unsigned long long)prev, (unsigned long long)m);
  if (maxdeg) *maxdeg = md;
  return EXO_OK;
}

exo_status exo_csr_load_offsets(const exo_csr_files *csr, uint64_t **off, uint64_t *maxdeg,
                                exo_ctx *ctx) {
  const uint64_t n = csr->n;
  *off = NULL;
  uint64_t *o = n + 1 > SIZE_MAX / 8 ? NULL : malloc((size_t)(n + 1) * 8);
  if (!o)
    return exo_fail_oom(ctx, "the CSR offsets", (n + 1) * 8);
  exo_status s = stream(csr, o, maxdeg, ctx);
  if (s) {
    free(o);
    return s;
  }
  *off = o;
  return EXO_OK;
}

exo_status exo_csr_scan_offsets(const exo_csr_files *csr, uint64_t *maxdeg, exo_ctx *ctx) {
  return stream(csr, NULL, maxdeg, ctx);
}

exo_status exo_csr_open_adj(const exo_csr_files *csr, int *fd, exo_ctx *ctx) {
  const size_t esz = exo_adj_size(csr->wide);
  uint64_t size = 0;
  *fd = -1;
  exo_status s = exo_file_size(csr->adj_path, &size, ctx);
  if (s) return s;
  if (csr->m > UINT64_MAX / esz || size != csr->m * esz)
    return EXO_FAIL(ctx, EXO_EINTERNAL,
                    "CSR adjacency file '%s' has %llu bytes, expected %llu entries of %zu bytes",
                    csr->adj_path, (unsigned long long)size, (unsigned long long)csr->m, esz);
  *fd = exo_open(csr->adj_path, EXO_OPEN_READ);
  if (*fd < 0) return exo_error_errno(&ctx->err, errno, "open", csr->adj_path);
  return EXO_OK;
}

exo_status exo_csr_window_fill(exo_csr_window *w, uint64_t lo, uint64_t hi, exo_ctx *ctx) {
  if (hi <= lo || (lo >= w->lo && hi <= w->hi)) return EXO_OK;
  w->lo = w->hi = 0;
  exo_status s = exo_pread_full(w->fd, w->buf, (size_t)((hi - lo) * w->esz), lo * w->esz, w->path,
                                ctx);
  if (s) return s;
  w->lo = lo;
  w->hi = hi;
  return EXO_OK;
}

exo_status exo_csr_window_get(exo_csr_window *w, uint64_t pos, uint64_t end, const uint8_t **p,
                              uint64_t *cnt, exo_ctx *ctx) {
  if (end - pos > w->entries) end = pos + w->entries;
  exo_status s = exo_csr_window_fill(w, pos, end, ctx);
  if (s) return s;
  *p = w->buf + (pos - w->lo) * w->esz;
  *cnt = end - pos;
  return EXO_OK;
}

/* Make file bytes [b0, b1) (b1 - b0 <= cap) available in the window and
 * return a pointer to b0. On a miss the window is refilled: bytes of the
 * old window at or after b0 are kept, a gap of at most wk->gap after the
 * old window is read through, longer gaps are skipped by a forward seek; the
 * read then extends over the lists of the next active nodes from
 * wk->look_from on while they fit and are close. */
exo_status exo_csr_ahead_miss(exo_csr_ahead *wk, uint64_t b0, uint64_t b1, const uint8_t **out,
                              exo_ctx *ctx) {
  uint64_t start, have_end;
  if (b0 >= wk->win_beg && b0 < wk->win_end) { /* keep the overlap */
    start = b0 & ~(EXO_CSR_ALIGN - 1);
    if (start < wk->win_beg) start = wk->win_beg;
    memmove(wk->buf, wk->buf + (start - wk->win_beg), (size_t)(wk->win_end - start));
    have_end = wk->win_end;
  } else if (b0 >= wk->win_end && wk->win_end > wk->win_beg && b0 - wk->win_end <= wk->gap &&
             b1 - wk->win_end <= wk->cap) { /* read through a short gap */
    start = have_end = wk->win_end;
  } else {
    start = have_end = b0 & ~(EXO_CSR_ALIGN - 1);
  }
  uint64_t limit = start + wk->buf_alloc; /* window cannot grow beyond */
  if (limit > wk->file_size) limit = wk->file_size;
  /* read ahead about CSR_READ_STEP at a time, so that the lists are still in
   * the CPU caches when they are tallied (a 64 MiB read is not) */
  uint64_t soft = have_end + CSR_READ_STEP;
  if (soft < b1) soft = b1;
  if (soft > limit) soft = limit;
  uint64_t stop = b1;
  int full = 0;
  if (wk->look_from != EXO_CSR_NO_LOOKAHEAD) {
    uint64_t u = wk->look_from;
    for (;;) {
      u = exo_sweep_next_active(wk->active, u, wk->look_to);
      if (u >= wk->look_to) break;
      uint64_t ub = wk->off[u] * wk->esz, ue = wk->off[u + 1] * wk->esz;
      if (ue > soft) {
        full = 1;
        break;
      }
      if (ub > stop + wk->gap) break;
      if (ue > stop) stop = ue;
      u++;
    }
  }
  /* round the end up to a page when that stays inside the window */
  uint64_t round = (stop + EXO_CSR_ALIGN - 1) & ~(EXO_CSR_ALIGN - 1);
  stop = round <= limit ? round : stop;
  if (have_end < stop) {
    uint64_t k = stop - have_end;
    uint8_t *to = wk->buf + (have_end - start);
    const size_t got = exo_pread_cached(wk->fd, to, (size_t)k, have_end);
    wk->cached = got == k;
    exo_status s = wk->cached ? EXO_OK
                              : exo_pread_full(wk->fd, to + got, (size_t)(k - got), have_end + got,
                                               wk->path, ctx);
    if (s) {
      wk->win_beg = wk->win_end = 0;
      return s;
    }
    wk->bytes_read += k;
    wk->reads++;
  }
  wk->win_beg = start;
  wk->win_end = stop;
  /* the next reads start here: announce the buffer's length ahead, once
   * per half buffer travelled */
  if (full && !wk->cached && stop < wk->file_size &&
      (stop < wk->advised_from || stop + wk->cap / 2 > wk->advised_to)) {
    uint64_t len = wk->cap;
    if (len > wk->file_size - stop) len = wk->file_size - stop;
    exo_hint_willneed(wk->fd, stop, len);
    wk->advised_from = stop;
    wk->advised_to = stop + len;
  }
  *out = wk->buf + (b0 - start);
  return EXO_OK;
}

/* exo_csr_stream_* (exo_csr.h). */
exo_status exo_csr_stream_open(exo_csr_stream *cs, const exo_csr_files *csr, size_t bufsize,
                               exo_ctx *ctx) {
  memset(cs, 0, sizeof *cs);
  cs->csr = csr;
  cs->orr.fd = cs->ar.fd = -1;
  exo_status s = exo_reader_open(&cs->orr, csr->offsets_path, bufsize, 0, UINT64_MAX, 0, ctx);
  if (!s) s = exo_reader_open(&cs->ar, csr->adj_path, bufsize, 0, UINT64_MAX, 0, ctx);
  return s ? s : exo_reader_read(&cs->orr, &cs->prev, 8, ctx);
}

exo_status exo_csr_stream_node(exo_csr_stream *cs, uint64_t v, uint64_t *arcs, exo_ctx *ctx) {
  uint64_t cur = 0;
  exo_status s = (v & 0xFFFF) == 0 ? exo_poll(ctx) : EXO_OK;
  if (!s) s = exo_reader_read(&cs->orr, &cur, 8, ctx);
  if (!s && (cur < cs->prev || cur > cs->csr->m))
    s = EXO_FAIL(ctx, EXO_EINTERNAL, "CSR offsets file '%s' is not monotone at node %llu",
                 cs->csr->offsets_path, (unsigned long long)v);
  *arcs = s ? 0 : cur - cs->prev;
  cs->prev = cur;
  return s;
}

exo_status exo_csr_bad_neighbour(const exo_csr_files *csr, uint64_t v, uint64_t u, exo_ctx *ctx) {
  return EXO_FAIL(ctx, EXO_EINTERNAL,
                  "CSR adjacency file '%s': node %llu lists neighbour %llu >= %llu nodes",
                  csr->adj_path, (unsigned long long)v, (unsigned long long)u,
                  (unsigned long long)csr->n);
}

exo_status exo_csr_stream_arc(exo_csr_stream *cs, uint64_t v, uint64_t *u, float *w,
                              exo_ctx *ctx) {
  uint8_t e[16];
  exo_status s = exo_reader_read(&cs->ar, e, exo_adj_size(cs->csr->wide), ctx);
  if (s) return s;
  exo_adj_decode(e, cs->csr->wide, u, w);
  return *u < cs->csr->n ? EXO_OK : exo_csr_bad_neighbour(cs->csr, v, *u, ctx);
}

exo_status exo_csr_stream_close(exo_csr_stream *cs, exo_status s, exo_ctx *ctx) {
  if (!s && cs->prev != cs->csr->m)
    s = EXO_FAIL(ctx, EXO_EINTERNAL, "CSR offsets file '%s' ends at %llu, expected %llu entries",
                 cs->csr->offsets_path, (unsigned long long)cs->prev,
                 (unsigned long long)cs->csr->m);
  exo_reader_close(&cs->orr);
  exo_reader_close(&cs->ar);
  return s;
}

/* One sequential walk over the graph: for each node v in order, node(ud,
 * v, arcs) (may be NULL), then arc(ud, v, u, w) for each of its arcs (may
 * be NULL: the arcs are still read and checked), then end(ud, v, arcs)
 * (may be NULL). A hook's nonzero status ends the walk (its message set
 * through ctx). The one loop behind the components, the strengths and the
 * rewrites below. */
typedef struct csr_walk {
  exo_status (*node)(void *ud, uint64_t v, uint64_t arcs, exo_ctx *ctx);
  exo_status (*arc)(void *ud, uint64_t v, uint64_t u, float w, exo_ctx *ctx);
  exo_status (*end)(void *ud, uint64_t v, uint64_t arcs, exo_ctx *ctx);
} csr_walk;

static exo_status walk(const exo_csr_files *csr, size_t bufsize, const csr_walk *f, void *ud,
                       exo_ctx *ctx) {
  exo_csr_stream cs;
  exo_status s = exo_csr_stream_open(&cs, csr, bufsize, ctx);
  for (uint64_t v = 0; v < csr->n && !s; v++) {
    uint64_t arcs = 0;
    if ((s = exo_csr_stream_node(&cs, v, &arcs, ctx))) break;
    if (f->node && (s = f->node(ud, v, arcs, ctx))) break;
    for (uint64_t i = 0; i < arcs && !s; i++) {
      uint64_t u;
      float w;
      if ((s = exo_csr_stream_arc(&cs, v, &u, &w, ctx))) break;
      if (f->arc) s = f->arc(ud, v, u, w, ctx);
    }
    if (!s && f->end) s = f->end(ud, v, arcs, ctx);
  }
  return exo_csr_stream_close(&cs, s, ctx);
}

static uint64_t uf_root(uint64_t *parent, uint64_t v) {
  while (parent[v] != v) { /* path halving; parent[v] <= v */
    parent[v] = parent[parent[v]];
    v = parent[v];
  }
  return v;
}

/* The arc v -> u into the forest: each edge is an arc at both ends, joined
 * from its larger end only (the same components), and not when both have
 * one parent; the smaller root becomes the root. */
static void uf_join(uint64_t *parent, uint64_t v, uint64_t u) {
  if (u < v && parent[u] != parent[v]) {
    const uint64_t ra = uf_root(parent, v), rb = uf_root(parent, u);
    if (ra < rb) parent[rb] = ra;
    else parent[ra] = rb;
  }
}

/* Every parent[v] its root, the component's smallest id (parent[v] <= v:
 * in id order parent[v]'s own parent is already its root). */
static void uf_flatten(uint64_t *parent, uint64_t n) {
  for (uint64_t v = 0; v < n; v++) parent[v] = parent[parent[v]];
}

static exo_status join_arc(void *ud, uint64_t v, uint64_t u, float w, exo_ctx *ctx) {
  uf_join(ud, v, u);
  return EXO_OK;
}

exo_status exo_csr_components(const exo_csr_files *csr, size_t bufsize, uint64_t *parent,
                              exo_ctx *ctx) {
  const uint64_t n = csr->n;
  for (uint64_t v = 0; v < n; v++) parent[v] = v;
  static const csr_walk f = {NULL, join_arc, NULL};
  exo_status s = walk(csr, bufsize, &f, parent, ctx);
  if (!s) uf_flatten(parent, n);
  return s;
}

/* exo_csr_strengths' weights file from the forest and the node strengths
 * (k, summed in place into each root). */
static exo_status component_weights(uint64_t n, uint64_t *parent, double *k, uint64_t *count,
                                    double mean, const char *path, exo_ctx *ctx) {
  uf_flatten(parent, n);
  for (uint64_t v = 0; v < n; v++) count[v] = 0;
  for (uint64_t v = 0; v < n; v++) {
    count[parent[v]]++;
    if (parent[v] != v) k[parent[v]] += k[v];
  }
  exo_writer w;
  memset(&w, 0, sizeof w);
  exo_status s = exo_writer_open(&w, path, EXO_IO_DEFAULT_BUF, ctx);
  for (uint64_t v = 0; v < n && !s; v++) {
    const double sk = k[parent[v]] / (double)count[parent[v]];
    const double wv = sk > 0.0 && mean > 0.0 ? sqrt(sk / mean) : 1.0;
    s = exo_writer_write(&w, &wv, 8, ctx);
  }
  if (!s) return exo_writer_close(&w, ctx);
  exo_writer_abort(&w);
  return s;
}

/* exo_csr_strengths' walk: each node's strength kv (self-loops twice when
 * loops_twice), their total, the linked nodes, the forest when parent. */
typedef struct strength_walk {
  uint64_t *parent;
  double *k;
  int loops_twice;
  double kv, total;
  uint64_t linked;
} strength_walk;

static exo_status strength_node(void *ud, uint64_t v, uint64_t arcs, exo_ctx *ctx) {
  ((strength_walk *)ud)->kv = 0.0;
  return EXO_OK;
}

static exo_status strength_arc(void *ud, uint64_t v, uint64_t u, float w, exo_ctx *ctx) {
  strength_walk *sw = ud;
  double a = fabs((double)w);
  if (u == v && sw->loops_twice) a *= 2.0;
  sw->kv += a;
  if (sw->parent) uf_join(sw->parent, v, u);
  return EXO_OK;
}

static exo_status strength_end(void *ud, uint64_t v, uint64_t arcs, exo_ctx *ctx) {
  strength_walk *sw = ud;
  sw->total += sw->kv;
  sw->linked += arcs > 0;
  if (sw->k) sw->k[v] = sw->kv;
  return EXO_OK;
}

exo_status exo_csr_strengths(const exo_csr_files *csr, int loops_twice, size_t bufsize,
                             const char *comp_weights, int over_linked, exo_csr_strength *out,
                             exo_ctx *ctx) {
  const uint64_t n = csr->n;
  uint64_t *parent = NULL, *count = NULL;
  double *k = NULL;
  if (comp_weights && n) {
    parent = malloc((size_t)n * 8);
    count = malloc((size_t)n * 8);
    k = malloc((size_t)n * 8);
    if (!parent || !count || !k) {
      free(parent);
      free(count);
      free(k);
      return exo_fail_oom(ctx, "the connected components", n * 24);
    }
    for (uint64_t v = 0; v < n; v++) parent[v] = v;
  }
  strength_walk sw = {parent, k, loops_twice, 0.0, 0.0, 0};
  static const csr_walk f = {strength_node, strength_arc, strength_end};
  exo_status s = walk(csr, bufsize, &f, &sw, ctx);
  const uint64_t linked = sw.linked;
  const double total = sw.total;
  const uint64_t over = over_linked ? linked : n;
  const double mean = over ? total / (double)over : 0.0;
  if (!s && comp_weights) s = component_weights(n, parent, k, count, mean, comp_weights, ctx);
  free(parent);
  free(count);
  free(k);
  if (s) return s;
  out->sum2w = total;
  out->linked = linked;
  out->mean = mean;
  return EXO_OK;
}

/* One pass of exo_csr_selfnorm over both files: pass 0 fills self[],
 * pass 1 writes the normalised files through ow/aw. */
typedef struct node_sink {
  exo_csr_node_fn fn;
  void *user;
  float *w;
  size_t k, cap;
} node_sink;

static exo_status selfnorm_pass(const exo_csr_files *csr, int pass, float *self, int keep_self,
                                size_t bufsize, exo_writer *ow, exo_writer *aw, exo_csr_norm *out,
                                node_sink *ns, exo_ctx *ctx) {
  const size_t esz = exo_adj_size(csr->wide);
  exo_csr_stream cs;
  uint64_t kept = 0;
  exo_status s = exo_csr_stream_open(&cs, csr, bufsize, ctx);
  for (uint64_t v = 0; v < csr->n && !s; v++) {
    uint64_t arcs = 0;
    if ((s = exo_csr_stream_node(&cs, v, &arcs, ctx))) break;
    float selfw = 0.0f, best = 0.0f;
    const uint64_t before = kept;
    if (pass == 1 && ns) {
      ns->k = 0;
      if (arcs > ns->cap) {
        size_t ncap = (size_t)arcs > 2 * ns->cap ? (size_t)arcs : 2 * ns->cap;
        float *nb = realloc(ns->w, ncap * sizeof *nb);
        if (!nb) {
          s = exo_fail_oom(ctx, "a node's weights", (uint64_t)ncap * sizeof *nb);
          break;
        }
        ns->w = nb;
        ns->cap = ncap;
      }
    }
    for (uint64_t i = 0; i < arcs && !s; i++) {
      uint8_t e[16];
      uint64_t u;
      float w;
      if ((s = exo_csr_stream_arc(&cs, v, &u, &w, ctx))) break;
      const float a = fabsf(w);
      if (pass == 0) {
        if (u == v && a > selfw) selfw = a;
        if (u != v && a > best) best = a;
        continue;
      }
      if (u == v && !keep_self) {
        out->dropped++;
        if (w > 0.0f) out->dropped_positive++;
        continue;
      }
      const float d = self[v] > self[u] ? self[v] : self[u];
      const float nw = (float)((double)w / (double)d);
      out->sum2w += fabs((double)nw);
      if (ns && u != v) ns->w[ns->k++] = fabsf(nw);
      exo_adj_encode(e, csr->wide, u, nw);
      if ((s = exo_writer_write(aw, e, esz, ctx))) break;
      kept++;
    }
    if (pass == 0) {
      self[v] = selfw > 0.0f ? selfw : best;
    } else if (!s) {
      if (kept > before) out->linked++;
      s = exo_writer_write(ow, &kept, 8, ctx);
      if (ns) ns->fn(ns->user, v, ns->w, ns->k);
    }
  }
  return exo_csr_stream_close(&cs, s, ctx);
}

exo_status exo_csr_selfnorm(exo_csr_files *csr, int keep_self, size_t bufsize, exo_csr_norm *out,
                            exo_ctx *ctx) {
  return exo_csr_selfnorm_each(csr, keep_self, bufsize, out, NULL, NULL, ctx);
}

exo_status exo_csr_selfnorm_each(exo_csr_files *csr, int keep_self, size_t bufsize,
                                 exo_csr_norm *out, exo_csr_node_fn node, void *user,
                                 exo_ctx *ctx) {
  node_sink sink = {node, user, NULL, 0, 0};
  node_sink *ns = node ? &sink : NULL;
  exo_csr_norm res = {0.0, 0, 0, 0};
  float *self = csr->n ? malloc((size_t)csr->n * sizeof *self) : NULL;
  if (csr->n && !self) return exo_fail_oom(ctx, "the self scores", csr->n * sizeof *self);
  const size_t lo = strlen(csr->offsets_path), la = strlen(csr->adj_path);
  char *op = malloc(lo + 6), *ap = malloc(la + 6);
  exo_writer ow, aw;
  memset(&ow, 0, sizeof ow);
  memset(&aw, 0, sizeof aw);
  ow.fd = aw.fd = -1;
  exo_status s = op && ap ? EXO_OK : exo_fail_oom(ctx, "the file names", lo + la + 12);
  if (!s) {
    memcpy(op, csr->offsets_path, lo);
    memcpy(op + lo, ".norm", 6);
    memcpy(ap, csr->adj_path, la);
    memcpy(ap + la, ".norm", 6);
    s = selfnorm_pass(csr, 0, self, keep_self, bufsize, NULL, NULL, &res, NULL, ctx);
  }
  if (!s) s = exo_writer_open(&ow, op, bufsize, ctx);
  if (!s) s = exo_writer_open(&aw, ap, bufsize, ctx);
  const uint64_t zero = 0;
  if (!s) s = exo_writer_write(&ow, &zero, 8, ctx);
  if (!s) s = selfnorm_pass(csr, 1, self, keep_self, bufsize, &ow, &aw, &res, ns, ctx);
  if (!s) s = exo_writer_close(&ow, ctx);
  if (!s) s = exo_writer_close(&aw, ctx);
  if (!s && exo_rename_replace(op, csr->offsets_path))
    s = exo_error_errno(&ctx->err, errno, "rename", op);
  if (!s && exo_rename_replace(ap, csr->adj_path))
    s = exo_error_errno(&ctx->err, errno, "rename", ap);
  if (s) {
    exo_writer_abort(&ow);
    exo_writer_abort(&aw);
    if (op) exo_remove(op);
    if (ap) exo_remove(ap);
  } else {
    csr->m -= res.dropped;
    if (out) *out = res;
  }
  free(op);
  free(ap);
  free(self);
  free(sink.w);
  return s;
}

/* Open "<path>.<ext>" writers beside both files (paths in *op, *ap). */
static exo_status beside(const exo_csr_files *csr, const char *ext, size_t bufsize, char **op,
                         char **ap, exo_writer *ow, exo_writer *aw, exo_ctx *ctx) {
  const size_t lo = strlen(csr->offsets_path), la = strlen(csr->adj_path), le = strlen(ext);
  memset(ow, 0, sizeof *ow);
  memset(aw, 0, sizeof *aw);
  ow->fd = aw->fd = -1;
  *op = malloc(lo + le + 2);
  *ap = malloc(la + le + 2);
  if (!*op || !*ap) return exo_fail_oom(ctx, "the file names", lo + la + 2 * le + 4);
  snprintf(*op, lo + le + 2, "%s.%s", csr->offsets_path, ext);
  snprintf(*ap, la + le + 2, "%s.%s", csr->adj_path, ext);
  exo_status s = exo_writer_open(ow, *op, bufsize, ctx);
  if (!s) s = exo_writer_open(aw, *ap, bufsize, ctx);
  const uint64_t zero = 0;
  if (!s) s = exo_writer_write(ow, &zero, 8, ctx);
  return s;
}

/* Close the writers of beside() and rename the files over csr's; on any
 * error (s or the close's) remove them instead. */
static exo_status replace(const exo_csr_files *csr, exo_status s, char *op, char *ap,
                          exo_writer *ow, exo_writer *aw, exo_ctx *ctx) {
  if (!s) s = exo_writer_close(ow, ctx);
  if (!s) s = exo_writer_close(aw, ctx);
  if (!s && exo_rename_replace(op, csr->offsets_path))
    s = exo_error_errno(&ctx->err, errno, "rename", op);
  if (!s && exo_rename_replace(ap, csr->adj_path))
    s = exo_error_errno(&ctx->err, errno, "rename", ap);
  if (s) {
    exo_writer_abort(ow);
    exo_writer_abort(aw);
    if (op) exo_remove(op);
    if (ap) exo_remove(ap);
  }
  free(op);
  free(ap);
  return s;
}

/* A rewrite of csr (exo_csr_remove, exo_csr_filter): the walk's arcs that
 * keep(user, v, u, w) keeps go to the files beside csr's, which then
 * replace them; before each node, node(user, v) when given; before the
 * files are replaced or removed, finish(user, s) when given (whatever s,
 * which it returns, changed or not). */
typedef struct rewrite_walk {
  exo_status (*node)(void *user, uint64_t v, exo_ctx *ctx);
  exo_csr_keep_fn keep;
  void *user;
  int wide;
  exo_writer *ow, *aw;
  uint64_t kept, gone, gone_pos;
} rewrite_walk;

static exo_status rewrite_node(void *ud, uint64_t v, uint64_t arcs, exo_ctx *ctx) {
  const rewrite_walk *rw = ud;
  return rw->node ? rw->node(rw->user, v, ctx) : EXO_OK;
}

static exo_status rewrite_arc(void *ud, uint64_t v, uint64_t u, float w, exo_ctx *ctx) {
  rewrite_walk *rw = ud;
  if (!rw->keep(rw->user, v, u, w)) {
    rw->gone++;
    rw->gone_pos += w > 0.0f;
    return EXO_OK;
  }
  uint8_t e[16];
  exo_adj_encode(e, rw->wide, u, w);
  rw->kept++;
  return exo_writer_write(rw->aw, e, exo_adj_size(rw->wide), ctx);
}

static exo_status rewrite_end(void *ud, uint64_t v, uint64_t arcs, exo_ctx *ctx) {
  rewrite_walk *rw = ud;
  return exo_writer_write(rw->ow, &rw->kept, 8, ctx);
}

static exo_status rewrite(exo_csr_files *csr, const char *ext,
                          exo_status (*node)(void *user, uint64_t v, exo_ctx *ctx),
                          exo_csr_keep_fn keep,
                          exo_status (*finish)(void *user, exo_status s, exo_ctx *ctx),
                          void *user, size_t bufsize, uint64_t *removed,
                          uint64_t *removed_positive, exo_ctx *ctx) {
  *removed = *removed_positive = 0;
  char *op = NULL, *ap = NULL;
  exo_writer ow, aw;
  rewrite_walk rw = {node, keep, user, csr->wide, &ow, &aw, 0, 0, 0};
  static const csr_walk f = {rewrite_node, rewrite_arc, rewrite_end};
  exo_status s = beside(csr, ext, bufsize, &op, &ap, &ow, &aw, ctx);
  if (!s) s = walk(csr, bufsize, &f, &rw, ctx);
  if (finish) s = finish(user, s, ctx);
  s = replace(csr, s, op, ap, &ow, &aw, ctx);
  if (!s) {
    csr->m = rw.kept;
    *removed = rw.gone;
    *removed_positive = rw.gone_pos;
  }
  return s;
}

/* exo_csr_remove's state: the listed graph read alongside, node by node
 * (its arcs of node v in drop[0, nd)), and the next listed arc to match. */
typedef struct remove_walk {
  exo_csr_stream ls;
  uint64_t *drop, cap, nd, j;
} remove_walk;

static exo_status remove_node(void *user, uint64_t v, exo_ctx *ctx) {
  remove_walk *rm = user;
  uint64_t nd = 0;
  exo_status s = exo_csr_stream_node(&rm->ls, v, &nd, ctx);
  if (s) return s;
  if (nd > rm->cap) {
    uint64_t ncap = nd > 2 * rm->cap ? nd : 2 * rm->cap;
    uint64_t *nb = realloc(rm->drop, (size_t)ncap * 8);
    if (!nb) return exo_fail_oom(ctx, "a node's removed arcs", ncap * 8);
    rm->drop = nb;
    rm->cap = ncap;
  }
  for (uint64_t i = 0; i < nd && !s; i++) {
    float w;
    s = exo_csr_stream_arc(&rm->ls, v, &rm->drop[i], &w, ctx);
  }
  rm->nd = nd;
  rm->j = 0;
  return s;
}

/* The listed graph read to its end (checked), closed. */
static exo_status remove_finish(void *user, exo_status s, exo_ctx *ctx) {
  return exo_csr_stream_close(&((remove_walk *)user)->ls, s, ctx);
}

static int remove_keep(void *user, uint64_t v, uint64_t u, float w) {
  remove_walk *rm = user;
  while (rm->j < rm->nd && rm->drop[rm->j] < u) rm->j++; /* both lists in neighbour order */
  return !(rm->j < rm->nd && rm->drop[rm->j] == u);
}

exo_status exo_csr_remove(exo_csr_files *csr, const exo_csr_files *listed, size_t bufsize,
                          uint64_t *removed, uint64_t *removed_positive, exo_ctx *ctx) {
  *removed = *removed_positive = 0;
  if (listed->n != csr->n || listed->wide != csr->wide)
    return EXO_FAIL(ctx, EXO_EINTERNAL, "exo_csr_remove: the two graphs differ in size or width");
  remove_walk rm;
  memset(&rm, 0, sizeof rm);
  exo_status s = exo_csr_stream_open(&rm.ls, listed, bufsize, ctx);
  if (s) s = exo_csr_stream_close(&rm.ls, s, ctx);
  else s = rewrite(csr, "rm", remove_node, remove_keep, remove_finish, &rm, bufsize, removed,
                   removed_positive, ctx);
  free(rm.drop);
  return s;
}

exo_status exo_csr_filter(exo_csr_files *csr, exo_csr_keep_fn keep, void *user, size_t bufsize,
                          uint64_t *removed, uint64_t *removed_positive, exo_ctx *ctx) {
  return rewrite(csr, "flt", NULL, keep, NULL, user, bufsize, removed, removed_positive, ctx);
}
