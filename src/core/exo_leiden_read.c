/* exo_leiden_read.c: Leiden's levels (exo_leiden.h; what crosses the
 * Leiden files: exo_leiden_int.h): the block reader every pass loads its
 * blocks with, opening and freeing a level (the read buffer, a level held
 * whole, the degree pass, the initial communities), the readers of passes
 * on several threads, the files of ids. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_leiden_int.h"

#include <errno.h>
#include <stdio.h>

#include "exo_par.h"

#define LD_MIN_BUF ((uint64_t)64 << 10)

/* Read into rd the offsets and weights of block [first, first + cnt), and
 * its adjacency lists when `whole` (else chunk_at reads each list visited);
 * every pass loads its blocks through here, which polls for interrupts
 * every LD_POLL_BLOCKS blocks. */
exo_status exo_ld_rd_load(exo_leiden_level *lv, ld_reader *rd, uint64_t first, int whole) {
  exo_ctx *ctx = rd->ctx;
  uint64_t cnt = lv->n - first;
  if (cnt > EXO_LEIDEN_BLOCK) cnt = EXO_LEIDEN_BLOCK;
  exo_status s;
  if ((first / EXO_LEIDEN_BLOCK) % LD_POLL_BLOCKS == 0 && (s = exo_poll(ctx)) != EXO_OK) return s;
  s = exo_pread_full(lv->fd_off, rd->blk_off, (size_t)(cnt + 1) * 8, first * 8,
                     lv->csr.offsets_path, ctx);
  if (s) return s;
  if (lv->fd_w >= 0) {
    s = exo_pread_full(lv->fd_w, rd->blk_w, (size_t)cnt * 8, first * 8, "leiden node weights",
                       ctx);
    if (s) return s;
  } else {
    for (uint64_t i = 0; i < cnt; i++) rd->blk_w[i] = 1.0;
  }
  for (uint64_t i = 0; i < cnt; i++)
    if (rd->blk_off[i + 1] < rd->blk_off[i] || rd->blk_off[i + 1] > lv->csr.m)
      return EXO_FAIL(ctx, EXO_EINTERNAL, "CSR offsets file '%s' is inconsistent at node %llu",
                      lv->csr.offsets_path, (unsigned long long)(first + i));
  rd->blk_first = first;
  rd->blk_cnt = cnt;
  /* the whole block's lists when they fit the buffer (a shared buffer
   * holds every list already) */
  uint64_t lo = rd->blk_off[0], hi = rd->blk_off[cnt];
  return whole && hi - lo <= rd->win.entries ? exo_csr_window_fill(&rd->win, lo, hi, ctx) : EXO_OK;
}

exo_status exo_ld_bad_nbr(exo_leiden_level *lv, exo_ctx *ctx, uint64_t v, uint64_t u) {
  return exo_csr_bad_neighbour(&lv->csr, v, u, ctx);
}

/* ---- open / free ---------------------------------------------------------- */

exo_status exo_ld_open_ro(const char *path, int *fd, exo_ctx *ctx) {
  *fd = exo_open(path, EXO_OPEN_READ);
  if (*fd < 0) return exo_error_errno(&ctx->err, errno, "open", path);
  return EXO_OK;
}

void exo_leiden_level_free(exo_leiden_level *lv) {
  if (!lv) return;
  if (lv->fd_off >= 0) exo_close(lv->fd_off);
  if (lv->fd_adj >= 0) exo_close(lv->fd_adj);
  if (lv->fd_w >= 0) exo_close(lv->fd_w);
  if (lv->own_weights && !lv->keep_weights) exo_unlink(lv->own_weights);
  free(lv->own_weights);
  exo_ids_free(&lv->comm);
  exo_ids_free(&lv->refined);
  free(lv->tot);
  free(lv->x1);
  free(lv->x2);
  free(lv->bits);
  free(lv->own_w);
  free(lv->rd.win.buf);
  exo_tally_free(&lv->rd.t);
  free(lv);
}

/* Threads of a level's passes that split its blocks or communities
 * (the degree pass, refinement, the aggregation's tally): the level's
 * threads on levels of 2 * EXO_LEIDEN_LANE_MIN_BLOCKS blocks or more, and
 * on smaller ones of 2 blocks or more with EXO_LEIDEN_THREAD_ARCS arcs
 * (coarse levels of a few thousand nodes with hundreds of arcs each); one
 * thread on the others. */
uint32_t exo_ld_level_threads(const exo_leiden_level *lv) {
  const uint64_t nb = (lv->n + EXO_LEIDEN_BLOCK - 1) / EXO_LEIDEN_BLOCK;
  uint32_t W = lv->p.threads < 1 ? 1 : (uint32_t)lv->p.threads;
  return nb >= 2 * EXO_LEIDEN_LANE_MIN_BLOCKS || (nb >= 2 && lv->csr.m >= EXO_LEIDEN_THREAD_ARCS)
             ? W
             : 1;
}

/* The degrees of part `index` of the blocks, written at their place in the
 * degree file (already created) with a positioned writer. */
static exo_status degrees_job(void *arg, uint32_t index, exo_ctx *ctx) {
  ld_refine *rf = arg;
  exo_leiden_level *lv = rf->lv;
  ld_reader *rd = &rf->rds[index];
  rd->ctx = ctx;
  const uint64_t b0 = rf->blocks * index / rf->parts, b1 = rf->blocks * (index + 1) / rf->parts;
  if (b0 >= b1) return EXO_OK;
  exo_writer out;
  memset(&out, 0, sizeof out);
  exo_status s = exo_writer_open_at(&out, lv->own_weights, EXO_IO_DEFAULT_BUF,
                                    b0 * EXO_LEIDEN_BLOCK * 8, ctx);
  if (s) return s;
  for (uint64_t b = b0; b < b1 && !s; b++) {
    const uint64_t first = b * EXO_LEIDEN_BLOCK;
    if ((s = exo_ld_rd_load(lv, rd, first, 1)) != EXO_OK) break;
    for (uint64_t v = first; v < first + rd->blk_cnt && !s; v++) {
      double k = 0.0;
      FOR_ARCS_RD(lv, rd, v, u, w, s, NULL, NULL, { k += w; });
      if (!s) s = exo_writer_write(&out, &k, 8, ctx);
    }
  }
  if (s) {
    exo_writer_abort(&out);
    return s;
  }
  return exo_writer_close(&out, ctx);
}

/* The input graph's node weights: degrees (modularity) or nothing (CPM:
 * every weight is 1, see ld_load_block). save_path: where to write them for
 * later levels 0 of the run (kept), else a file of the level's own. */
static exo_status write_degrees(exo_leiden_level *lv, const char *save_path) {
  exo_ctx *ctx = lv->ctx;
  if (lv->p.objective == EXO_LEIDEN_CPM) return EXO_OK;
  char name[64];
  snprintf(name, sizeof name, "leiden-degrees-%p.bin", (void *)lv);
  if (save_path) {
    size_t len = strlen(save_path) + 1;
    if ((lv->own_weights = malloc(len)) != NULL) memcpy(lv->own_weights, save_path, len);
  } else {
    lv->own_weights = exo_path_join(lv->p.tmpdir, name);
  }
  lv->keep_weights = save_path != NULL;
  if (!lv->own_weights) return exo_fail_oom(ctx, "a path of Leiden's files", 0);
  exo_writer out;
  memset(&out, 0, sizeof out);
  exo_status s = exo_writer_open(&out, lv->own_weights, EXO_IO_DEFAULT_BUF, ctx);
  if (s) return s;
  const uint64_t nb = (lv->n + EXO_LEIDEN_BLOCK - 1) / EXO_LEIDEN_BLOCK;
  const uint32_t W = exo_ld_level_threads(lv);
  if (W > 1) { /* each node's degree is its own: runs of blocks side by side */
    if ((s = exo_writer_close(&out, ctx)) != EXO_OK) return s;
    ld_reader *rds = exo_ld_readers_open(lv, W);
    if (!rds) return exo_fail_oom(ctx, "the readers of Leiden's degree pass", 0);
    ld_refine rf = {lv, rds, W, nb, NULL, NULL};
    s = exo_par_run(W, degrees_job, &rf, EXO_STAGE_CLUSTER, 0, ctx);
    exo_ld_readers_free(rds, W);
    return s ? s : exo_ld_open_ro(lv->own_weights, &lv->fd_w, ctx);
  }
  for (uint64_t first = 0; first < lv->n && !s; first += EXO_LEIDEN_BLOCK) {
    if ((s = ld_load_block(lv, first)) != EXO_OK) break;
    for (uint64_t v = first; v < first + lv->rd.blk_cnt && !s; v++) {
      double k = 0.0;
      FOR_ARCS(lv, v, u, w, s, { k += w; });
      if (!s) s = exo_writer_write(&out, &k, 8, ctx);
    }
  }
  if (s) {
    exo_writer_abort(&out);
    return s;
  }
  if ((s = exo_writer_close(&out, ctx)) != EXO_OK) return s;
  return exo_ld_open_ro(lv->own_weights, &lv->fd_w, ctx);
}

/* Open a file of n u64 ids (written by write_ids) for reading; an error
 * if it holds another count. */
exo_status exo_ld_open_ids(exo_reader *r, const char *path, uint64_t n, exo_ctx *ctx) {
  memset(r, 0, sizeof *r);
  exo_status s = exo_reader_open(r, path, EXO_IO_DEFAULT_BUF, 0, UINT64_MAX, 0, ctx);
  if (s) return s;
  if (exo_reader_remaining(r) != n * 8) {
    exo_reader_close(r);
    return EXO_FAIL(ctx, EXO_EINTERNAL, "leiden: '%s' does not hold %llu ids", path,
                    (unsigned long long)n);
  }
  return EXO_OK;
}

/* Read a file of n u64 community ids into comm. */
static exo_status read_init(exo_leiden_level *lv, const char *path) {
  exo_ctx *ctx = lv->ctx;
  exo_reader r;
  exo_status s = exo_ld_open_ids(&r, path, lv->n, ctx);
  if (s) return s;
  for (uint64_t v = 0; v < lv->n && !s; v++) {
    uint64_t c;
    if ((s = exo_reader_read(&r, &c, 8, ctx)) != EXO_OK) break;
    if (c >= lv->n)
      s = EXO_FAIL(ctx, EXO_EINTERNAL, "leiden: '%s': community %llu of node %llu >= %llu", path,
                   (unsigned long long)c, (unsigned long long)v, (unsigned long long)lv->n);
    else
      exo_ids_set(&lv->comm, v, c);
  }
  exo_reader_close(&r);
  return s;
}

/* W_C, member counts and the empty-id stack from comm and the weights. */
exo_status exo_ld_init_communities(exo_leiden_level *lv) {
  const uint64_t n = lv->n;
  memset(lv->tot, 0, (size_t)n * sizeof *lv->tot);
  memset(lv->x1, 0, (size_t)n * 8);
  lv->total_w = 0.0;
  for (uint64_t first = 0; first < n; first += EXO_LEIDEN_BLOCK) {
    uint64_t cnt = n - first;
    if (cnt > EXO_LEIDEN_BLOCK) cnt = EXO_LEIDEN_BLOCK;
    if (lv->fd_w >= 0) {
      exo_status s = exo_pread_full(lv->fd_w, lv->rd.blk_w, (size_t)cnt * 8, first * 8,
                                    "leiden node weights", lv->ctx);
      if (s) return s;
    } else {
      for (uint64_t i = 0; i < cnt; i++) lv->rd.blk_w[i] = 1.0;
    }
    for (uint64_t i = 0; i < cnt; i++) {
      uint64_t c = exo_ids_get(&lv->comm, first + i);
      lv->tot[c] += lv->rd.blk_w[i];
      lv->x1[c]++;
      lv->total_w += lv->rd.blk_w[i];
    }
  }
  lv->nfree = 0;
  for (uint64_t c = n; c-- > 0;) /* popped smallest first */
    if (lv->x1[c] == 0) lv->x2[lv->nfree++] = c;
  /* g' of the objective (exo_quality.h) */
  lv->gp = exo_quality_gp(lv->p.objective == EXO_LEIDEN_CPM ? EXO_QUALITY_CPM
                                                            : EXO_QUALITY_MODULARITY,
                          lv->p.resolution, lv->total_w);
  return EXO_OK;
}

/* The read buffer of a level too large to hold: its share (exo_budget.h). */
static uint64_t ld_buf_bytes(const exo_leiden_params *p) {
  return exo_budget_share(p->memory_limit, EXO_SHARE_LEIDEN_READ, 1);
}

/* A level that the previous level's aggregation built in memory is
 * handed over, held whole, when its adjacency takes at most this:
 * the share leiden_hold, or the read buffer where that is more. (A level read
 * from its file is held when it fits the read buffer: reading a larger one
 * whole made local moving slower than reading it a block at a time.) */
uint64_t exo_ld_hold_bytes(const exo_leiden_params *p) {
  const uint64_t q = exo_budget_share(p->memory_limit, EXO_SHARE_LEIDEN_HOLD, 1),
                 b = ld_buf_bytes(p);
  return q > b ? q : b;
}

/* The bytes a held level takes beyond the read buffer it would otherwise
 * have (the aggregation's budget leaves them out). */
uint64_t exo_ld_held_extra(const exo_leiden_level *lv) {
  const uint64_t held = lv->rd.win.entries * lv->esz, b = ld_buf_bytes(&lv->p);
  return held > b ? held - b : 0;
}

/* exo_leiden_level_open; with save_degrees (input graph, no weights_path)
 * the degrees are written there and the file is kept. adj_mem (NULL:
 * none): the level's adjacency, csr->m narrow entries, that
 * the previous level's aggregation built in memory and did not write; the
 * level owns it from here (freed on every path). */
exo_status exo_ld_level_open(const exo_csr_files *csr, const exo_leiden_params *params,
                             const char *weights_path, const char *init_path, int input_graph,
                             const char *save_degrees, uint8_t *adj_mem, exo_ctx *ctx,
                             exo_leiden_level **out) {
  *out = NULL;
  exo_leiden_level *lv = calloc(1, sizeof *lv);
  if (!lv) {
    free(adj_mem);
    return exo_fail_oom(ctx, "Leiden's level", sizeof *lv);
  }
  lv->fd_off = lv->fd_adj = lv->fd_w = -1;
  lv->rd.win.buf = adj_mem; /* freed with the level */
  lv->csr = *csr;
  lv->p = *params;
  lv->ctx = ctx;
  lv->rd.ctx = ctx;
  lv->n = csr->n;
  lv->esz = exo_adj_size(csr->wide);
  lv->input_graph = input_graph;
  lv->wdiv = 1.0;
  const uint64_t n = csr->n;
  int wide = params->force_wide_ids || n > EXO_NARROW_ID_LIMIT;
  exo_status s = EXO_OK;
  if (n > SIZE_MAX / 16) {
    s = exo_fail_oom(ctx, "Leiden's node arrays", 0); /* n * 16 bytes would not fit */
    goto fail;
  }
  if (exo_ids_alloc(&lv->comm, n, wide, 0) || exo_ids_alloc(&lv->refined, n, wide, 0) ||
      !(lv->tot = malloc((size_t)(n ? n : 1) * 8)) || !(lv->x1 = malloc((size_t)(n ? n : 1) * 8)) ||
      !(lv->x2 = malloc((size_t)(n ? n : 1) * 8)) ||
      !(lv->bits = exo_bits_alloc(n))) {
    s = exo_fail_oom(ctx, "Leiden's node arrays", n * 40);
    goto fail;
  }
  /* a level held whole (read once, here, or handed over in memory) has
   * every later pass find its lists there; any other gets the read buffer */
  const int hold = csr->m > 0 &&
                   csr->m <= (adj_mem ? exo_ld_hold_bytes(params) : ld_buf_bytes(params)) / lv->esz;
  lv->rd.win.entries = hold ? csr->m : ld_buf_bytes(params) / lv->esz;
  if (!adj_mem) lv->rd.win.buf = malloc((size_t)(lv->rd.win.entries * lv->esz));
  if (!lv->rd.win.buf) {
    s = exo_fail_oom(ctx, "Leiden's read buffer", lv->rd.win.entries * lv->esz);
    goto fail;
  }
  lv->rd.win.path = lv->csr.adj_path;
  lv->rd.win.esz = lv->esz;
  lv->rd.win.fd = -1;
  if ((s = exo_ld_open_ro(csr->offsets_path, &lv->fd_off, ctx)) != EXO_OK) goto fail;
  if ((s = exo_csr_scan_offsets(csr, &lv->maxdeg, ctx)) != EXO_OK) goto fail;
  if (adj_mem) { /* in memory already: no adjacency file */
    if (!hold || csr->wide)
      s = EXO_FAIL(ctx, EXO_EINTERNAL, "leiden: a level handed over in memory must be held");
    lv->rd.win.lo = 0;
    lv->rd.win.hi = csr->m;
  } else {
    s = exo_csr_open_adj(csr, &lv->fd_adj, ctx);
    lv->rd.win.fd = lv->fd_adj;
    if (!s && hold) s = exo_csr_window_fill(&lv->rd.win, 0, csr->m, ctx);
  }
  if (s) goto fail;
  if (exo_tally_alloc_for(&lv->rd.t, lv->maxdeg < n ? lv->maxdeg : n) != 0) {
    s = exo_fail_oom(ctx, "Leiden's gain tally", 0);
    goto fail;
  }
  lv->rd.tcap = lv->rd.t.cap;
  if (weights_path) {
    uint64_t size = 0;
    if ((s = exo_file_size(weights_path, &size, ctx)) != EXO_OK) goto fail;
    if (size != n * 8) {
      s = EXO_FAIL(ctx, EXO_EINTERNAL, "leiden: '%s' does not hold %llu weights", weights_path,
                   (unsigned long long)n);
      goto fail;
    }
    if ((s = exo_ld_open_ro(weights_path, &lv->fd_w, ctx)) != EXO_OK) goto fail;
  } else if ((s = write_degrees(lv, save_degrees)) != EXO_OK) {
    goto fail;
  }
  if (init_path) {
    if ((s = read_init(lv, init_path)) != EXO_OK) goto fail;
  } else {
    for (uint64_t v = 0; v < n; v++) exo_ids_set(&lv->comm, v, v);
  }
  for (uint64_t v = 0; v < n; v++) exo_ids_set(&lv->refined, v, v);
  if ((s = exo_ld_init_communities(lv)) != EXO_OK) goto fail;
  exo_rng_seed(&lv->rng, params->seed);
  *out = lv;
  return EXO_OK;
fail:
  exo_leiden_level_free(lv);
  return ctx->err.code ? ctx->err.code : s;
}

exo_status exo_leiden_level_open(const exo_csr_files *csr, const exo_leiden_params *params,
                                 const char *weights_path, const char *init_path,
                                 int input_graph, exo_ctx *ctx, exo_leiden_level **out) {
  return exo_ld_level_open(csr, params, weights_path, init_path, input_graph, NULL, NULL, ctx, out);
}

/* ---- readers for passes on several threads ------------------------------- */

void exo_ld_readers_free(ld_reader *rds, uint32_t W) {
  if (!rds) return;
  for (uint32_t i = 0; i < W; i++) {
    if (!rds[i].shared_buf) free(rds[i].win.buf);
    exo_tally_free(&rds[i].t);
    free(rds[i].nc);
  }
  free(rds);
}

/* W readers of level lv (NULL: out of memory). A level held whole in the
 * read buffer is shared by all (never written while they run); else the
 * buffer's entries are split between them, the first reusing the level's
 * buffer (whose contents are then dropped). Each has a gain tally. */
ld_reader *exo_ld_readers_open(exo_leiden_level *lv, uint32_t W) {
  ld_reader *rds = calloc(W, sizeof *rds);
  if (!rds) return NULL;
  const int whole = lv->csr.m > 0 && lv->rd.win.lo == 0 && lv->rd.win.hi == lv->csr.m;
  uint64_t entries = whole ? lv->rd.win.entries : lv->rd.win.entries / W;
  if (entries * lv->esz < LD_MIN_BUF / 4) entries = LD_MIN_BUF / 4 / lv->esz;
  for (uint32_t i = 0; i < W; i++) {
    ld_reader *rd = &rds[i];
    rd->ctx = lv->ctx;
    rd->win = lv->rd.win;
    rd->win.lo = rd->win.hi = 0;
    rd->win.buf = NULL;
    rd->win.entries = entries;
    if (whole || i == 0) {
      rd->win.buf = lv->rd.win.buf;
      rd->shared_buf = 1;
      if (whole) {
        rd->win.lo = 0;
        rd->win.hi = lv->csr.m;
      } else {
        lv->rd.win.lo = lv->rd.win.hi = 0;
        if (rd->win.entries > lv->rd.win.entries) rd->win.entries = lv->rd.win.entries;
      }
    } else if (!(rd->win.buf = malloc((size_t)(entries * lv->esz)))) {
      exo_ld_readers_free(rds, W);
      return NULL;
    }
    if (exo_tally_alloc_for(&rd->t, lv->maxdeg < lv->n ? lv->maxdeg : lv->n)) {
      exo_ld_readers_free(rds, W);
      return NULL;
    }
    rd->tcap = rd->t.cap;
  }
  return rds;
}

