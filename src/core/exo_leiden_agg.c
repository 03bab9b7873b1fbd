/* exo_leiden_agg.c: Leiden's aggregation (exo_leiden.h; what crosses the
 * Leiden files: exo_leiden_int.h): the coarse level's node weights and
 * initial communities, and its CSR, built in memory by coarse-id ranges
 * (agg_inmem) or through the sorter from the threads' tally records
 * (agg_parallel). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_leiden_int.h"

#include "exo_io.h"
#include "exo_par.h"
#include "exo_record.h"
#include "exo_sort.h"

#define LD_RADIX_ROW 64u  /* coarse rows from this length on are sorted by radix */
#define LD_AGG_RANGES EXO_LEIDEN_AGG_RANGES /* exo_leiden.h */

/* ---- aggregation ----------------------------------------------------------- */

static exo_status write_u64(exo_writer *w, uint64_t x, exo_ctx *ctx) {
  return exo_writer_write(w, &x, 8, ctx);
}

/* A record buffer of one thread: cap sorter records (exo_record.h) of
 * width `wide`, encoded as the sorter stores them. */
typedef struct ld_aggbuf {
  uint8_t *r;
  size_t n, cap;
  int wide;
} ld_aggbuf;

/* Hand out's records to the sorter in one call and empty it. */
static exo_status agg_flush(ld_aggbuf *out, exo_sorter *sorter, exo_ctx *ctx) {
  if (!sorter) return EXO_FAIL(ctx, EXO_EINTERNAL, "leiden: aggregation buffer overflow");
  size_t done;
  exo_status s = exo_sorter_add_records(sorter, out->r, out->n, out->wide, &done, ctx);
  out->n = 0;
  return s;
}

/* v's arcs (block loaded in rd) summed in rd's tally by the coarse id of
 * the neighbour, in double; both aggregation paths emit from there. */
static exo_status agg_tally(exo_leiden_level *lv, ld_reader *rd, uint64_t v) {
  exo_status s = EXO_OK;
  ld_rd_tally_start(rd, v);
  FOR_ARCS_RD(lv, rd, v, u, w, s, &lv->refined, NULL,
              { exo_tally_add_sum(&rd->t, exo_ids_get(&lv->refined, u), w); });
  return s;
}

/* The sorter's records of v: agg_tally's sums (summed per node in double:
 * fewer records to sort; the sort sums what different nodes give), in the
 * tally's insertion order, appended to out; a full out is handed to the
 * sorter (never full without one: the tally jobs' blocks fit their
 * buffers, a node giving at most one record per arc). */
static exo_status agg_node(exo_leiden_level *lv, ld_reader *rd, uint64_t v, exo_sorter *sorter,
                           ld_aggbuf *out, exo_ctx *ctx) {
  const uint64_t rv = exo_ids_get(&lv->refined, v);
  const size_t rs = exo_rec_size(out->wide);
  exo_status s = agg_tally(lv, rd, v);
  if (s) return s;
  const exo_tally *t = &rd->t;
  for (size_t i = 0; i < t->count; i++) {
    const exo_tally_slot *e = &t->slots[t->touched[i]];
    if (out->n == out->cap && (s = agg_flush(out, sorter, ctx)) != EXO_OK) return s;
    exo_rec_encode(out->r + out->n++ * rs, out->wide, rv, e->label,
                   (float)(e->sum / lv->wdiv));
  }
  return s;
}

/* Bytes of the threads' record buffers (records of rs bytes): with W > 1
 * the aggregation's share (exo_budget.h), never more than the level's arcs
 * need; at least 64 Ki records per thread (one thread: that much), at most
 * the share's ceiling. */
static uint64_t agg_budget(const exo_leiden_level *lv, uint32_t W, size_t rs) {
  uint64_t b = W > 1 ? exo_budget_share(lv->p.memory_limit, EXO_SHARE_LEIDEN_AGG, 1) : 0;
  const uint64_t lo = (uint64_t)W * 65536 * rs;
  const uint64_t hi = (lv->csr.m + 1) * rs;
  if (b < lo) b = lo;
  if (b > hi) b = hi > lo ? hi : lo;
  const uint64_t ceiling = exo_budget_share(lv->p.memory_limit, EXO_SHARE_LEIDEN_AGG_MAX, 1);
  if (b > ceiling) b = ceiling;
  return b;
}

/* The coarse rows built in memory (agg_inmem), for the coarse ids of one
 * range [c0, c1) at a time (K = c1 - c0 rows, row i for id c0 + i). Pass 0
 * is the tally itself, on W threads, part j (blocks [part[2j], part[2j +
 * 1]), about m / W arcs of the level) writing into parts[j] the sums of
 * each of its nodes whose coarse id is in the range, in turn, as packed row
 * entries (neighbour << 32 | the float weight's bits), deg[v] of them for
 * node v, and counting them per row (pc[i W + j]); the caller turns the
 * counts into row starts (cnt[i]) and each part's place in each row (pc:
 * row i's part-0 entries first, so a row holds them in fine-id order);
 * pass 1, job j copies each such node's entries to its place in the node's
 * row. Pass 2 (the rows in T runs of about equal entries, cut): job t sums
 * equal neighbours of each row into the first (float adds in fine-id
 * order: the sorter's stable sort and EXO_COMBINE_SUM; all weights are > 0,
 * so the sorter's sign split does not arise) found through a marker per
 * coarse id (mark: per job k markers, then k entries of sort scratch),
 * sorts the row (sort_row_below) and encodes it as CSR entries in place,
 * packed from its run's first row on: rend[i] the row's end counted from
 * there (so the run's entries are rend of its last row). Every pass reads
 * each entry once. */
typedef struct ld_rows {
  const exo_leiden_level *lv;
  ld_aggbuf *parts;
  uint32_t W, T; /* parts, runs */
  int pass;
  uint64_t k, c0, c1;
  uint64_t *cnt, *pc, *cut, *row, *mark, *rend, *part;
  uint32_t *deg;
} ld_rows;

/* A packed row entry (neighbour << 32 | the weight's bits) and its weight. */
static uint64_t ent_pack(uint64_t nbr, float w) {
  uint32_t b;
  memcpy(&b, &w, 4);
  return nbr << 32 | b;
}

static float ent_w(uint64_t x) {
  const uint32_t b = (uint32_t)x;
  float w;
  memcpy(&w, &b, 4);
  return w;
}

/* Pass 0 for node v of part j (ld_rows). */
static exo_status agg_node_row(exo_leiden_level *lv, ld_reader *rd, uint64_t v, ld_aggbuf *out,
                               ld_rows *rw, uint32_t j) {
  exo_status s = agg_tally(lv, rd, v);
  if (s) return s;
  const exo_tally *t = &rd->t;
  uint64_t *e = (uint64_t *)(void *)out->r + out->n;
  if (out->n + t->count > out->cap)
    return EXO_FAIL(rd->ctx, EXO_EINTERNAL, "leiden: aggregation buffer overflow");
  for (size_t i = 0; i < t->count; i++) {
    const exo_tally_slot *x = &t->slots[t->touched[i]];
    e[i] = ent_pack(x->label, (float)(x->sum / lv->wdiv));
  }
  out->n += t->count;
  rw->deg[v] = (uint32_t)t->count;
  rw->pc[(exo_ids_get(&lv->refined, v) - rw->c0) * rw->W + j] += t->count;
  return EXO_OK;
}

/* Is v's coarse id in the rows' range? */
static inline int row_in_range(const ld_rows *rw, uint64_t v) {
  const uint64_t c = exo_ids_get(&rw->lv->refined, v);
  return c >= rw->c0 && c < rw->c1;
}

/* Does block [first, first + EXO_LEIDEN_BLOCK) hold a node of the rows'
 * range? (Blocks without one are not read.) */
static int block_in_range(const ld_rows *rw, uint64_t first) {
  for (uint64_t v = first; v < first + EXO_LEIDEN_BLOCK && v < rw->lv->n; v++)
    if (row_in_range(rw, v)) return 1;
  return 0;
}

typedef struct ld_agg {
  exo_leiden_level *lv;
  ld_reader *rds;
  ld_aggbuf *bufs;
  const uint64_t *part; /* part j: blocks [part[2j], part[2j + 1]) */
  ld_rows *rows;        /* in memory: the rows' pass 0; else NULL */
} ld_agg;

static exo_status agg_job(void *arg, uint32_t index, exo_ctx *ctx) {
  ld_agg *ag = arg;
  ld_reader *rd = &ag->rds[index];
  ld_aggbuf *out = &ag->bufs[index];
  exo_leiden_level *lv = ag->lv;
  rd->ctx = ctx;
  out->n = 0;
  exo_status s = EXO_OK;
  for (uint64_t b = ag->part[2 * index]; b < ag->part[2 * index + 1] && !s; b++) {
    const uint64_t first = b * EXO_LEIDEN_BLOCK;
    if (ag->rows && !block_in_range(ag->rows, first)) continue;
    if ((s = exo_ld_rd_load(lv, rd, first, 1)) != EXO_OK) break;
    for (uint64_t v = first; v < first + rd->blk_cnt && !s; v++) {
      if (!ag->rows) s = agg_node(lv, rd, v, NULL, out, ctx);
      else if (row_in_range(ag->rows, v)) s = agg_node_row(lv, rd, v, out, ag->rows, index);
    }
  }
  return s ? s : exo_poll(ctx);
}

/* The aggregation's tally pass on W threads (W = 1: the caller's) into
 * the sorter, in rounds: each round cuts the next blocks into at most W
 * runs of whole blocks with at most a buffer's worth of arcs each, tallies them side by
 * side into the threads' buffers, then the caller's thread hands the
 * buffers to the sorter in block order, one call each: the records, and
 * their order, of one thread's loop. A block with more arcs than a buffer
 * holds is tallied by the caller's thread alone, its buffer handed to the
 * sorter whenever full. */
static exo_status agg_parallel(exo_leiden_level *lv, exo_sorter *sorter, uint32_t W,
                               uint64_t bytes) {
  exo_ctx *ctx = lv->ctx;
  const uint64_t nb = (lv->n + EXO_LEIDEN_BLOCK - 1) / EXO_LEIDEN_BLOCK;
  const int wide = exo_sorter_is_wide(sorter);
  const size_t rs = exo_rec_size(wide);
  size_t cap = (size_t)(bytes / W / rs);
  if (cap < 1) cap = 1;
  ld_reader *rds = W > 1 ? exo_ld_readers_open(lv, W) : &lv->rd;
  ld_aggbuf *bufs = calloc(W, sizeof *bufs);
  uint64_t *part = malloc((size_t)W * 2 * sizeof *part);
  uint64_t *boff = malloc((size_t)(nb + 1) * sizeof *boff);
  exo_status s = EXO_OK;
  if (!rds || !bufs || !part || !boff) {
    s = exo_fail_oom(ctx, "the threads of Leiden's aggregation", 0);
    goto out;
  }
  for (uint32_t j = 0; j < W && !s; j++) {
    bufs[j].cap = cap;
    bufs[j].wide = wide;
    if (!(bufs[j].r = malloc(cap * rs)))
      s = exo_fail_oom(ctx, "the records of Leiden's aggregation", cap * rs);
  }
  /* the offsets at the block boundaries (the whole file was checked when
   * the level was opened) */
  for (uint64_t b = 0; b <= nb && !s; b++) {
    const uint64_t node = b * EXO_LEIDEN_BLOCK < lv->n ? b * EXO_LEIDEN_BLOCK : lv->n;
    s = exo_pread_full(lv->fd_off, &boff[b], 8, node * 8, lv->csr.offsets_path, ctx);
  }
  ld_agg ag = {lv, rds, bufs, part, NULL};
  for (uint64_t b = 0; b < nb && !s;) {
    uint32_t J = 0;
    while (J < W && b < nb) {
      const uint64_t start = b;
      while (b < nb && boff[b + 1] - boff[start] <= cap) b++;
      if (b == start) break; /* block b alone is more than a buffer */
      part[2 * J] = start;
      part[2 * J + 1] = b;
      J++;
    }
    if (J == 0) {
      ld_reader *rd = &rds[0];
      rd->ctx = ctx;
      bufs[0].n = 0;
      if ((s = exo_ld_rd_load(lv, rd, b * EXO_LEIDEN_BLOCK, 1)) != EXO_OK) break;
      for (uint64_t v = b * EXO_LEIDEN_BLOCK; v < rd->blk_first + rd->blk_cnt && !s; v++)
        s = agg_node(lv, rd, v, sorter, &bufs[0], ctx);
      if (!s) s = agg_flush(&bufs[0], sorter, ctx);
      b++;
      continue;
    }
    if ((s = exo_par_run(J, agg_job, &ag, EXO_STAGE_CLUSTER, 0, ctx)) != EXO_OK) break;
    for (uint32_t j = 0; j < J && !s; j++) s = agg_flush(&bufs[j], sorter, ctx);
  }
out:
  if (bufs)
    for (uint32_t j = 0; j < W; j++) free(bufs[j].r);
  free(bufs);
  free(part);
  free(boff);
  if (rds && rds != &lv->rd) exo_ld_readers_free(rds, W);
  return s;
}

/* Ascending order of a row's packed entries (distinct neighbours). */
static void sort_row(uint64_t *a, uint64_t n) {
  while (n > 16) {
    const uint64_t p = a[n / 2];
    uint64_t i = 0, j = n - 1;
    for (;; i++, j--) {
      while (a[i] < p) i++;
      while (a[j] > p) j--;
      if (i >= j) break;
      const uint64_t x = a[i];
      a[i] = a[j];
      a[j] = x;
    }
    const uint64_t left = j + 1; /* a[0..j] <= p <= a[j+1..]: the smaller part first */
    if (left < n - left) sort_row(a, left), a += left, n -= left;
    else sort_row(a + left, n - left), n = left;
  }
  for (uint64_t i = 1, j; i < n; i++) {
    const uint64_t x = a[i];
    for (j = i; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
    a[j] = x;
  }
}

/* The same order for a row of n entries whose neighbours are below k,
 * through tmp (n entries): from LD_RADIX_ROW entries on, a least
 * significant digit radix sort on the neighbour's bytes that k - 1 needs
 * (a pass whose digit is the same for every entry is skipped); it moves
 * each entry once per pass without the comparisons' mispredicted branches
 * (on the 10^6-node bench graph about 40% of quicksort's time). */
static void sort_row_below(uint64_t *a, uint64_t n, uint64_t k, uint64_t *tmp) {
  if (n < LD_RADIX_ROW) {
    sort_row(a, n);
    return;
  }
  unsigned bytes = 1;
  while (bytes < 4 && ((k - 1) >> (8 * bytes))) bytes++;
  uint32_t cnt[4][256];
  memset(cnt, 0, sizeof cnt);
  for (uint64_t i = 0; i < n; i++) {
    const uint32_t d = (uint32_t)(a[i] >> 32);
    for (unsigned b = 0; b < bytes; b++) cnt[b][(d >> (8 * b)) & 255]++;
  }
  uint64_t *src = a, *dst = tmp;
  for (unsigned b = 0; b < bytes; b++) {
    const unsigned sh = 32 + 8 * b;
    if (cnt[b][(src[0] >> sh) & 255] == n) continue;
    uint32_t pos[256], acc = 0;
    for (unsigned x = 0; x < 256; x++) {
      pos[x] = acc;
      acc += cnt[b][x];
    }
    for (uint64_t i = 0; i < n; i++) dst[pos[(src[i] >> sh) & 255]++] = src[i];
    uint64_t *sw = src;
    src = dst;
    dst = sw;
  }
  if (src != a) memcpy(a, src, n * 8);
}

static exo_status rows_job(void *arg, uint32_t t, exo_ctx *ctx) {
  ld_rows *rw = arg;
  uint64_t *row = rw->row, *pc = rw->pc;
  if (rw->pass == 1) { /* t: a part, its nodes in order */
    const uint64_t *src = (const uint64_t *)(const void *)rw->parts[t].r;
    const uint64_t v1 = rw->part[2 * t + 1] * EXO_LEIDEN_BLOCK;
    for (uint64_t v = rw->part[2 * t] * EXO_LEIDEN_BLOCK; v < v1 && v < rw->lv->n; v++) {
      if (!row_in_range(rw, v)) continue;
      const uint32_t c = rw->deg[v];
      if (!c) continue;
      uint64_t *at = &pc[(exo_ids_get(&rw->lv->refined, v) - rw->c0) * rw->W + t];
      memcpy(row + *at, src, (size_t)c * 8);
      *at += c;
      src += c;
    }
    return exo_poll(ctx);
  }
  const uint64_t lo = rw->cut[t], hi = rw->cut[t + 1], base = rw->cnt[lo]; /* t: a run */
  uint64_t *mark = rw->mark + (size_t)t * rw->k * 2, *tmp = mark + rw->k, o = base;
  for (uint64_t r = lo; r < hi; rw->rend[r++] = o - base) {
    const uint64_t rs = o;
    for (uint64_t j = rw->cnt[r]; j < rw->cnt[r + 1]; j++) {
      const uint64_t d = row[j] >> 32, at = mark[d];
      if (at == UINT64_MAX || at < rs) row[mark[d] = o++] = row[j];
      else row[at] = ent_pack(d, ent_w(row[at]) + ent_w(row[j]));
    }
    sort_row_below(row + rs, o - rs, rw->k, tmp);
    for (uint64_t j = rs; j < o; j++)
      exo_adj_encode((uint8_t *)&row[j], 0, row[j] >> 32, ent_w(row[j]));
  }
  return exo_poll(ctx);
}

/* Bytes of the in-memory aggregation (W parts, T runs) apart from the
 * 16 per arc of a range (agg_inmem): per node of the level its entry count
 * (4); per coarse node its offset, row start and end (8 each), W counts (8
 * each) and, per run, a marker and an entry of sort scratch (16); per block
 * its first offset (8); the parts and the runs; a write buffer. */
static uint64_t agg_inmem_fixed(const exo_leiden_level *lv, uint32_t W, uint32_t T, uint64_t k) {
  return lv->n * 4 + (k + 2) * 8 * (3 + (uint64_t)W + 2 * (uint64_t)T) +
         (lv->n / EXO_LEIDEN_BLOCK + 2) * 8 + (uint64_t)W * (16 + sizeof(ld_aggbuf)) +
         (T + 1) * 8 + EXO_IO_DEFAULT_BUF;
}

/* The coarse CSR of k <= 2^32 nodes built in memory, within `budget`
 * bytes, or nothing (*done = 0: the caller sorts). The coarse ids are cut
 * into at most LD_AGG_RANGES ranges of consecutive ids whose members have
 * at most (budget - agg_inmem_fixed) / 16 arcs (per arc at most one row
 * entry of the tally and one of the rows, 8 bytes each); each range is a
 * tally pass over the blocks holding its members, on W threads, and the
 * rows' passes 1 and 2 (ld_rows). More ranges would read the level as
 * many times, which costs more than the sorter's one write and read of
 * the records. The offsets are written to coarse's file; the adjacency
 * too, range by range, unless the ids make one range, keep is given and
 * the next level holds it (exo_ld_hold_bytes): then *keep gets it, m entries
 * in one array (the caller's), and no file is written. The same bytes as
 * the sorter's; *m the entries. */
static exo_status agg_inmem(exo_leiden_level *lv, uint32_t W, uint32_t T, uint64_t k,
                            uint64_t budget, const exo_csr_files *coarse, uint64_t *m,
                            uint8_t **keep, int *done) {
  exo_ctx *ctx = lv->ctx;
  const uint64_t n = lv->n, nb = (n + EXO_LEIDEN_BLOCK - 1) / EXO_LEIDEN_BLOCK;
  const uint64_t fixed = agg_inmem_fixed(lv, W, T, k);
  *done = 0;
  if (fixed >= budget || k == 0) return EXO_OK;
  const uint64_t cap = (budget - fixed) / 16; /* arcs of a range */
  ld_aggbuf *parts = calloc(W, sizeof *parts);
  ld_rows rw = {lv, parts, W, T, 0, k, 0, 0, malloc((k + 2) * 8), malloc(k * W * 8 + 8),
                malloc((T + 1) * 8), NULL, malloc(k * T * 16), malloc(k * 8 + 8),
                malloc((size_t)W * 16), malloc(n * 4 + 4)};
  uint64_t *off = malloc((k + 1) * 8), *boff = malloc((nb + 1) * 8), *entries = NULL;
  uint64_t cut[LD_AGG_RANGES + 1], R = 0, chunk[EXO_LEIDEN_BLOCK + 1];
  ld_reader *rds = NULL;
  exo_writer w;
  memset(&w, 0, sizeof w);
  exo_status s = EXO_OK;
  if (!parts || !rw.cnt || !rw.pc || !rw.cut || !rw.mark || !rw.rend || !rw.part || !rw.deg ||
      !off || !boff) {
    s = exo_fail_oom(ctx, "Leiden's aggregation in memory", fixed);
    goto out;
  }
  /* the level's degrees (deg), each block's first offset, each coarse id's
   * arcs (in off until it holds the offsets) */
  memset(off, 0, (k + 1) * 8);
  for (uint64_t b = 0; b < nb && !s; b++) {
    const uint64_t v0 = b * EXO_LEIDEN_BLOCK, c = n - v0 < EXO_LEIDEN_BLOCK ? n - v0 : EXO_LEIDEN_BLOCK;
    if ((s = exo_pread_full(lv->fd_off, chunk, (c + 1) * 8, v0 * 8, lv->csr.offsets_path, ctx)))
      break;
    boff[b] = chunk[0];
    boff[b + 1] = chunk[c];
    for (uint64_t i = 0; i < c; i++) {
      const uint64_t d = chunk[i + 1] - chunk[i];
      if (chunk[i + 1] < chunk[i] || d > UINT32_MAX) goto out; /* the sorter then */
      rw.deg[v0 + i] = (uint32_t)d;
      off[exo_ids_get(&lv->refined, v0 + i)] += d;
    }
  }
  if (s) goto out;
  /* the ranges: consecutive ids, at most cap arcs each */
  cut[0] = 0;
  for (uint64_t c = 0, acc = 0; c < k; c++) {
    if (off[c] > cap) goto out;
    if (acc + off[c] > cap) {
      if (++R == LD_AGG_RANGES) goto out;
      cut[R] = c;
      acc = 0;
    }
    acc += off[c];
  }
  cut[++R] = k;
  /* W parts of whole blocks, about m / W arcs each (as agg_parallel cut
   * them: which blocks a part holds does not change a row's order) */
  for (uint64_t j = 0, b = 0; j < W; j++) {
    rw.part[2 * j] = b;
    while (b < nb && (j + 1 == W || boff[b] < (j + 1) * lv->csr.m / W)) b++;
    rw.part[2 * j + 1] = b;
  }
  if (W > 1 && !(rds = exo_ld_readers_open(lv, W))) {
    s = exo_fail_oom(ctx, "the threads of Leiden's aggregation", 0);
    goto out;
  }
  const int one = R == 1 && keep;
  int adj_open = !one;
  if (adj_open && (s = exo_writer_open(&w, coarse->adj_path, EXO_IO_DEFAULT_BUF, ctx))) goto out;
  exo_progress(ctx, EXO_STAGE_CSR, 0, lv->csr.m);
  uint64_t g = 0, arcs_done = 0; /* entries and fine arcs of the ranges done */
  off[0] = 0;
  for (uint64_t q = 0; q < R && !s; q++) {
    const uint64_t c0 = cut[q], c1 = cut[q + 1], K = c1 - c0;
    rw.c0 = c0;
    rw.c1 = c1;
    /* pass 0: each part's slice holds its range members' arcs' worth */
    uint64_t total = 0;
    for (uint32_t j = 0; j < W; j++) {
      uint64_t a = 0;
      const uint64_t v1 = rw.part[2 * j + 1] * EXO_LEIDEN_BLOCK;
      for (uint64_t v = rw.part[2 * j] * EXO_LEIDEN_BLOCK; v < v1 && v < n; v++)
        if (row_in_range(&rw, v)) a += rw.deg[v];
      parts[j] = (ld_aggbuf){NULL, 0, a, 0};
      total += a;
    }
    if (!(entries = malloc(total * 8 + 8))) {
      s = exo_fail_oom(ctx, "the entries of Leiden's aggregation", total * 8);
      break;
    }
    uint64_t at = 0;
    for (uint32_t j = 0; j < W; at += parts[j++].cap) parts[j].r = (uint8_t *)(entries + at);
    memset(rw.pc, 0, K * W * 8);
    ld_agg ag = {lv, rds ? rds : &lv->rd, parts, rw.part, &rw};
    if ((s = exo_par_run(W, agg_job, &ag, EXO_STAGE_CLUSTER, 0, ctx)) != EXO_OK) break;
    /* row starts; each part's place in each row */
    uint64_t acc = 0;
    for (uint64_t r = 0; r < K; r++) {
      rw.cnt[r] = acc;
      for (uint32_t j = 0; j < W; j++) {
        const uint64_t c = rw.pc[r * W + j];
        rw.pc[r * W + j] = acc;
        acc += c;
      }
    }
    rw.cnt[K] = acc;
    if (!(rw.row = malloc(acc * 8 + 8))) {
      s = exo_fail_oom(ctx, "the rows of Leiden's aggregation", acc * 8);
      break;
    }
    rw.pass = 1;
    if ((s = exo_par_run(W, rows_job, &rw, EXO_STAGE_CSR, lv->csr.m, ctx)) != EXO_OK) break;
    free(entries); /* the entries are in the rows now */
    entries = NULL;
    memset(rw.mark, 0xff, k * T * 16);
    rw.cut[0] = 0;
    for (uint64_t t = 1, r = 0; t <= T; t++) { /* runs of about acc / T entries */
      while (r < K && (t == T || rw.cnt[r] < t * acc / T)) r++;
      rw.cut[t] = r;
    }
    rw.pass = 2;
    if ((s = exo_par_run(T, rows_job, &rw, EXO_STAGE_CSR, lv->csr.m, ctx)) != EXO_OK) break;
    /* the entries, run by run: run t's from its first row's start, rend of
     * its last row many; moved together in the array when kept, else
     * written */
    uint64_t len = 0;
    for (uint32_t t = 0; t < T; t++)
      if (rw.cut[t + 1] > rw.cut[t]) len += rw.rend[rw.cut[t + 1] - 1];
    const int kept = one && len > 0 && len <= exo_ld_hold_bytes(&lv->p) / 8;
    if (one && !kept) {
      s = exo_writer_open(&w, coarse->adj_path, EXO_IO_DEFAULT_BUF, ctx);
      adj_open = 1;
    }
    uint64_t to = 0;
    for (uint32_t t = 0; t < T && !s; t++) {
      const uint64_t lo = rw.cut[t], hi = rw.cut[t + 1], e = hi > lo ? rw.rend[hi - 1] : 0;
      if (kept) memmove(rw.row + to, rw.row + rw.cnt[lo], e * 8);
      else if (e) s = exo_writer_write(&w, rw.row + rw.cnt[lo], e * 8, ctx);
      to += e;
    }
    /* the offsets of ids c0 + 1 .. c1: run t's ends moved by the entries
     * before it */
    for (uint64_t t = 0; t < T; t++) {
      for (uint64_t r = rw.cut[t]; r < rw.cut[t + 1]; r++) off[c0 + r + 1] = g + rw.rend[r];
      if (rw.cut[t + 1] > rw.cut[t]) g = off[c0 + rw.cut[t + 1]];
    }
    if (!s && kept) {
      uint64_t *row = realloc(rw.row, len * 8); /* shrinks it */
      *keep = (uint8_t *)(row ? row : rw.row);
      rw.row = NULL;
    }
    free(rw.row);
    rw.row = NULL;
    arcs_done += total;
    exo_progress(ctx, EXO_STAGE_CSR, arcs_done, lv->csr.m);
  }
  if (!s && adj_open) s = exo_writer_close(&w, ctx);
  *m = off[k];
  if (!s) s = exo_writer_open(&w, coarse->offsets_path, EXO_IO_DEFAULT_BUF, ctx);
  if (!s) s = exo_writer_write(&w, off, (k + 1) * 8, ctx);
  if (!s) s = exo_writer_close(&w, ctx);
  if (!s) {
    exo_progress(ctx, EXO_STAGE_CSR, lv->csr.m, lv->csr.m);
    *done = (int)R;
  } else if (keep && *keep) {
    free(*keep);
    *keep = NULL;
  }
out:
  exo_writer_abort(&w);
  if (rds) exo_ld_readers_free(rds, W);
  free(entries);
  free(parts);
  free(rw.cnt);
  free(rw.pc);
  free(rw.cut);
  free(rw.row);
  free(rw.mark);
  free(rw.rend);
  free(rw.part);
  free(rw.deg);
  free(off);
  free(boff);
  return s;
}

/* exo_leiden_level_aggregate; keep (NULL: always write the files): as
 * agg_inmem's, the coarse adjacency in memory for the next level. */
exo_status exo_ld_aggregate(exo_leiden_level *lv, exo_csr_files *coarse, const char *weights_path,
                            const char *init_path, uint8_t **keep) {
  exo_ctx *ctx = lv->ctx;
  const uint64_t n = lv->n;
  double *wr = ld_as_dbl(lv->x1);
  uint64_t *rmap = lv->x2;                 /* refined id -> coarse id */
  uint64_t *cmap = (uint64_t *)(void *)lv->tot; /* community -> coarse community */
  for (uint64_t i = 0; i < n; i++) rmap[i] = cmap[i] = LD_NONE;
  exo_writer ww, wi;
  memset(&ww, 0, sizeof ww);
  memset(&wi, 0, sizeof wi);
  exo_sorter *sorter = NULL;
  exo_status s = exo_writer_open(&ww, weights_path, EXO_IO_DEFAULT_BUF, ctx);
  if (!s) s = exo_writer_open(&wi, init_path, EXO_IO_DEFAULT_BUF, ctx);
  uint64_t k = 0, kc = 0;
  for (uint64_t v = 0; v < n && !s; v++) {
    uint64_t r = exo_ids_get(&lv->refined, v);
    if (rmap[r] == LD_NONE) {
      rmap[r] = k++;
      uint64_t c = exo_ids_get(&lv->comm, v);
      if (cmap[c] == LD_NONE) cmap[c] = kc++;
      /* modularity's node weights are degrees, scaled with the arcs; CPM's
       * are member counts (or component weights), never scaled */
      const double wc = lv->p.objective == EXO_LEIDEN_MODULARITY ? wr[r] / lv->wdiv : wr[r];
      s = exo_writer_write(&ww, &wc, 8, ctx);
      if (!s) s = write_u64(&wi, cmap[c], ctx);
    }
    exo_ids_set(&lv->refined, v, rmap[r]);
  }
  if (!s) s = exo_writer_close(&ww, ctx);
  if (!s) s = exo_writer_close(&wi, ctx);
  if (s) goto fail;

  uint64_t m = 0;
  const uint32_t W = exo_ld_level_threads(lv), T = lv->p.threads < 1 ? 1 : (uint32_t)lv->p.threads;
  int cwide = k > EXO_NARROW_ID_LIMIT;
  /* the budget: memory_limit less what a held level takes beyond the read
   * buffer */
  const uint64_t extra = exo_ld_held_extra(lv);
  if (!cwide) { /* in memory: k <= 2^32 */
    int ranges = 0;
    const uint64_t budget = lv->p.memory_limit > extra ? lv->p.memory_limit - extra : 0;
    if ((s = agg_inmem(lv, W, T, k, budget, coarse, &m, keep, &ranges)) != EXO_OK) goto fail;
    if (ranges) {
      exo_detail(ctx, "leiden aggregation: in memory (%d range%s of coarse ids, %u thread%s) into "
                  "%llu coarse arcs%s", ranges, ranges > 1 ? "s" : "", W, W > 1 ? "s" : "",
                  (unsigned long long)m, keep && *keep ? ", held for the next level" : "");
      goto done;
    }
  }
  exo_sort_options so;
  memset(&so, 0, sizeof so);
  so.tmpdir = lv->p.tmpdir;
  so.memory_limit = lv->p.memory_limit;
  so.wide = k > EXO_NARROW_ID_LIMIT;
  so.combine = EXO_COMBINE_SUM; /* parallel coarse arcs: one entry, weights summed */
  so.background = lv->p.threads > 1; /* runs sorted and written on a second thread */
  so.threads = lv->p.threads;        /* key ranges of every merge */
  /* the records of several threads: their buffers' memory is taken from
   * the sort's (which gives the same CSR for any memory_limit) */
  const uint64_t agg_bytes = agg_budget(lv, W, exo_rec_size(so.wide));
  so.memory_limit -= agg_bytes + extra;
  if ((s = exo_sorter_create(&sorter, &so, ctx)) != EXO_OK) goto fail;
  if ((s = agg_parallel(lv, sorter, W, agg_bytes)) != EXO_OK) goto fail;
  exo_sort_stats st;
  s = exo_sorter_finish_csr(sorter, k, coarse->offsets_path, coarse->adj_path, cwide, ctx, &st);
  exo_sorter_free(sorter);
  sorter = NULL;
  if (s) goto fail;
  exo_detail(ctx, "leiden aggregation: %llu records sorted (%llu runs, %u merge passes) into "
              "%llu coarse arcs",
              (unsigned long long)st.records, (unsigned long long)st.runs, st.merge_passes,
              (unsigned long long)st.arcs);
  /* the entry count is the last offset (parallel arcs may have been summed) */
  int fd;
  if ((s = exo_ld_open_ro(coarse->offsets_path, &fd, ctx)) != EXO_OK) goto fail;
  s = exo_pread_full(fd, &m, 8, k * 8, coarse->offsets_path, ctx);
  exo_close(fd);
  if (s) goto fail;
done:
  coarse->n = k;
  coarse->m = m;
  coarse->wide = cwide;
  return EXO_OK;
fail:
  exo_writer_abort(&ww);
  exo_writer_abort(&wi);
  exo_sorter_free(sorter);
  exo_unlink(weights_path);
  exo_unlink(init_path);
  exo_unlink(coarse->offsets_path);
  exo_unlink(coarse->adj_path);
  return ctx->err.code ? ctx->err.code : s;
}

exo_status exo_leiden_level_aggregate(exo_leiden_level *lv, exo_csr_files *coarse,
                                      const char *weights_path, const char *init_path) {
  return exo_ld_aggregate(lv, coarse, weights_path, init_path, NULL);
}

