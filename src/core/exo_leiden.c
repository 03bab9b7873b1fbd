/* exo_leiden.c: Leiden on the CSR files (rules and memory in exo_leiden.h).
 *
 * Every pass over a level walks the nodes block by block (EXO_LEIDEN_BLOCK
 * ids): the block's offsets and node weights are read from their files,
 * then its adjacency lists, whole when they fit the read buffer together,
 * else one list (or one buffer-sized chunk of a long list) at a time. The
 * sequential passes (weights, E(v, S - v), aggregation, quality) take the
 * blocks in id order; local moving and refinement take them in id order
 * too, with the nodes of a block in a seeded random order. A thread that
 * reads blocks has its own ld_reader (buffer, block, tally): local moving's
 * lanes and refinement's first pass run several. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_leiden.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_csr.h"
#include "exo_io.h"
#include "exo_platform.h"
#include "exo_output.h"
#include "exo_par.h"
#include "exo_record.h"
#include "exo_rng.h"
#include "exo_sort.h"
#include "exo_sweep.h"
#include "exo_tally.h"

_Static_assert(EXO_LEIDEN_BLOCK == EXO_SWEEP_BLOCK, "one block size");

#define LD_MIN_BUF ((uint64_t)64 << 10)
#define LD_MAX_BUF ((uint64_t)64 << 20)
#define LD_NONE UINT64_MAX
#define LD_EPS 1e-12
#define LD_POLL_BLOCKS 16u
#define LD_WHOLE_BLOCK 16u /* active nodes from which moving reads a block's lists at once */
#define LD_PREFETCH 16u /* arcs ahead whose neighbour's entry is prefetched */
#define LD_NC_ARCS 65536u /* longest list whose pairs a lane's reader keeps (512 KiB) */
#define LD_RADIX_ROW 64u  /* coarse rows from this length on are sorted by radix */
#define LD_AGG_RANGES 4u  /* most coarse-id ranges of an aggregation in memory */

/* ---- ids: u32 while every id fits, else u64 ----------------------------- */
typedef struct idvec {
  uint32_t *a32;
  uint64_t *a64;
} idvec;

static inline uint64_t id_get(const idvec *a, uint64_t i) {
  return a->a64 ? a->a64[i] : a->a32[i];
}
static inline void id_set(idvec *a, uint64_t i, uint64_t x) {
  if (a->a64)
    a->a64[i] = x;
  else
    a->a32[i] = (uint32_t)x;
}
static int id_alloc(idvec *a, uint64_t n, int wide) {
  size_t cnt = (size_t)(n ? n : 1);
  if (wide)
    a->a64 = malloc(cnt * 8);
  else
    a->a32 = malloc(cnt * 4);
  return (a->a64 || a->a32) ? 0 : -1;
}
static void id_free(idvec *a) {
  free(a->a32);
  free(a->a64);
  a->a32 = NULL;
  a->a64 = NULL;
}

/* ---- the level ---------------------------------------------------------- */
/* What one thread needs to read a block and tally its nodes' neighbours:
 * the level has one; local moving's lanes give each worker its own. */
typedef struct ld_reader {
  exo_ctx *ctx;    /* errors and polls of the thread using it */
  exo_csr_window win;      /* its window of the adjacency file (exo_csr.h) */
  int shared_buf;          /* buf is the level's buffer (not freed with the reader) */
  uint64_t blk_first, blk_cnt;
  uint64_t blk_off[EXO_LEIDEN_BLOCK + 1];
  double blk_w[EXO_LEIDEN_BLOCK];
  exo_tally t;     /* gains by community (exo_tally_alloc_for: never grows) */
  size_t tcap;     /* t's allocated slots; a visit uses a prefix fitted to the
                      node's degree (rd_tally_start) */
  uint32_t *nc;    /* local moving's lanes (u32 ids): the (neighbour, its
                      community) pairs of the last tallied node nc_v, nc_n of
                      them (lists of at most LD_NC_ARCS arcs), read again
                      when that node moves instead of its list; NULL: none */
  uint64_t nc_v;
  size_t nc_n;
} ld_reader;

struct exo_leiden_level {
  exo_csr_files csr;
  exo_leiden_params p;
  exo_ctx *ctx;
  uint64_t n;
  size_t esz;
  int input_graph;
  double gp;       /* g' */
  double total_w;  /* sum of the node weights (2m for modularity) */
  idvec comm, refined;
  double *tot;     /* W_C by community id */
  uint64_t *x1;    /* moving: member counts; refinement: W_R (as double) */
  uint64_t *x2;    /* moving: empty-id stack; refinement: E(R, S - R) */
  uint64_t nfree;  /* empty ids on the stack */
  uint64_t *bits;  /* moving: active; refinement: no longer a singleton */
  uint64_t nactive;
  double *own_w;   /* moving: each visit's tallied weight to the node's own
                      community (when it fits own_w_bytes, else NULL) */
  int own_w_exact; /* moving visited every node once and moved none: own_w
                      holds E(v, S - v) for the refinement */
  int fd_off, fd_adj, fd_w;
  char *own_weights; /* weights file this level wrote (input graph) */
  int keep_weights;  /* own_weights is the run's degree file: keep it */
  double wdiv;       /* aggregation: the coarse arc weights (and, for
                        modularity, node weights) are this level's divided
                        by wdiv, a power of 2 (see weight_divisor) */
  ld_reader rd;     /* the caller's thread's reader */
  uint64_t maxdeg;
  exo_rng rng;
  uint32_t perm[EXO_SWEEP_BLOCK];
};

static inline double *as_dbl(uint64_t *p) { return (double *)(void *)p; }

/* Clear rd's gain tally for a visit of node v (block loaded in rd) and fit
 * the table to v's degree: the smallest power of two of at least
 * 2 * degree + 2 slots (16 at least, the allocation at most), so a short
 * list's entries share a few cache lines instead of spreading over a table
 * sized for the level's longest list. The gains and their insertion order
 * (what every rule reads) do not depend on the table's size. */
static inline void rd_tally_start(ld_reader *rd, uint64_t v) {
  exo_tally *t = &rd->t;
  exo_tally_clear(t);
  const uint64_t deg = rd->blk_off[v - rd->blk_first + 1] - rd->blk_off[v - rd->blk_first];
  size_t cap = 16;
  unsigned bits = 4;
  while (cap < rd->tcap && (uint64_t)cap < 2 * deg + 2) {
    cap *= 2;
    bits++;
  }
  t->cap = cap;
  t->shift = 64u - bits;
}

/* Read into rd the offsets and weights of block [first, first + cnt), and
 * its adjacency lists when `whole` (else chunk_at reads each list visited);
 * every pass loads its blocks through here, which polls for interrupts
 * every LD_POLL_BLOCKS blocks. */
static exo_status rd_load(exo_leiden_level *lv, ld_reader *rd, uint64_t first, int whole) {
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

static exo_status load_block_part(exo_leiden_level *lv, uint64_t first, int whole) {
  return rd_load(lv, &lv->rd, first, whole);
}

static exo_status load_block(exo_leiden_level *lv, uint64_t first) {
  return load_block_part(lv, first, 1);
}

/* Prefetch the entry of the id array (a32 or a64) for the neighbour in
 * adjacency entry p. A macro: gcc 12 dropped the prefetch when this was an
 * inline function. */
#define LD_PREFETCH_NBR(lv, p, wide, a32, a64)                                    \
  do {                                                                            \
    uint64_t un_;                                                                 \
    if (wide) {                                                                   \
      memcpy(&un_, (p), 8);                                                       \
    } else {                                                                      \
      uint32_t u32_;                                                              \
      memcpy(&u32_, (p), 4);                                                      \
      un_ = u32_;                                                                 \
    }                                                                             \
    if (un_ < (lv)->n) {                                                          \
      if (a32)                                                                    \
        EXO_PREFETCH(&(a32)[un_]);                                                \
      else                                                                        \
        EXO_PREFETCH(&(a64)[un_]);                                                \
    }                                                                             \
  } while (0)

static exo_status bad_nbr(exo_leiden_level *lv, exo_ctx *ctx, uint64_t v, uint64_t u) {
  return EXO_FAIL(ctx, EXO_EINTERNAL,
                  "CSR adjacency file '%s': node %llu lists neighbour %llu >= %llu nodes",
                  lv->csr.adj_path, (unsigned long long)v, (unsigned long long)u,
                  (unsigned long long)lv->n);
}

/* Iterate the arcs of node v (in the block loaded in reader rd): the body
 * sees u and the weight w = |w| (self-loops of the input graph doubled).
 * pf: the id array the body looks neighbours up in (NULL: none); its
 * entries for the neighbours LD_PREFETCH arcs ahead are prefetched (pfb: a
 * second such array). */
#define FOR_ARCS_RD(lv, rd, v, u, w, s, pf, pfb, body)                            \
  do {                                                                            \
    uint64_t lo_ = (rd)->blk_off[(v) - (rd)->blk_first];                          \
    uint64_t hi_ = (rd)->blk_off[(v) - (rd)->blk_first + 1];                      \
    const idvec *pf_ = (pf);                                                      \
    const uint32_t *pf32_ = pf_ ? pf_->a32 : NULL;                                \
    const uint64_t *pf64_ = pf_ ? pf_->a64 : NULL;                                \
    const idvec *pfb_ = (pfb);                                                    \
    const uint32_t *pfb32_ = pfb_ ? pfb_->a32 : NULL;                             \
    const uint64_t *pfb64_ = pfb_ ? pfb_->a64 : NULL;                             \
    const size_t esz_ = (lv)->esz;                                                \
    const int wide_ = (lv)->csr.wide;                                             \
    for (uint64_t pos_ = lo_; pos_ < hi_;) {                                      \
      const uint8_t *p_;                                                          \
      uint64_t c_;                                                                \
      if (((s) = exo_csr_window_get(&(rd)->win, pos_, hi_, &p_, &c_, (rd)->ctx)))   \
        break;                                                                    \
      if (pf_)                                                                    \
        for (uint64_t j_ = 0; j_ < c_ && j_ < LD_PREFETCH; j_++) {                \
          LD_PREFETCH_NBR(lv, p_ + j_ * esz_, wide_, pf32_, pf64_);              \
          if (pfb_) LD_PREFETCH_NBR(lv, p_ + j_ * esz_, wide_, pfb32_, pfb64_);  \
        }                                                                         \
      for (uint64_t i_ = 0; i_ < c_; i_++, p_ += esz_) {                          \
        uint64_t u;                                                               \
        float wf_;                                                                \
        if (pf_ && i_ + LD_PREFETCH < c_) {                                       \
          LD_PREFETCH_NBR(lv, p_ + LD_PREFETCH * esz_, wide_, pf32_, pf64_);     \
          if (pfb_)                                                               \
            LD_PREFETCH_NBR(lv, p_ + LD_PREFETCH * esz_, wide_, pfb32_, pfb64_); \
        }                                                                         \
        exo_adj_decode(p_, wide_, &u, &wf_);                                      \
        if (u >= (lv)->n) {                                                       \
          (s) = bad_nbr((lv), (rd)->ctx, (v), u);                                 \
          break;                                                                  \
        }                                                                         \
        double w = fabs((double)wf_);                                             \
        if (u == (v) && (lv)->input_graph) w *= 2.0;                              \
        body                                                                      \
      }                                                                           \
      if (s) break;                                                               \
      pos_ += c_;                                                                 \
    }                                                                             \
  } while (0)
#define FOR_ARCS_PF2(lv, v, u, w, s, pf, pfb, body) \
  FOR_ARCS_RD(lv, &(lv)->rd, v, u, w, s, pf, pfb, body)
#define FOR_ARCS_PF(lv, v, u, w, s, pf, body) FOR_ARCS_PF2(lv, v, u, w, s, pf, NULL, body)
#define FOR_ARCS(lv, v, u, w, s, body) FOR_ARCS_PF2(lv, v, u, w, s, NULL, NULL, body)

/* ---- open / free ---------------------------------------------------------- */

static exo_status open_ro(const char *path, int *fd, exo_ctx *ctx) {
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
  id_free(&lv->comm);
  id_free(&lv->refined);
  free(lv->tot);
  free(lv->x1);
  free(lv->x2);
  free(lv->bits);
  free(lv->own_w);
  free(lv->rd.win.buf);
  exo_tally_free(&lv->rd.t);
  free(lv);
}

/* Passes split into `parts` runs of blocks (or communities) on threads:
 * job `index` on reader rds[index] (the level's own when there is one job).
 * Refinement: pass 1 takes part `index` of the blocks, pass 2 the
 * communities of part `index`; the degree pass (write_degrees) part
 * `index` of the blocks. */
typedef struct ld_refine {
  exo_leiden_level *lv;
  ld_reader *rds;
  uint32_t parts;
  uint64_t blocks;
  const uint32_t *masks; /* pass 2: the block masks */
  uint64_t *merges;      /* pass 2: per part */
} ld_refine;

static ld_reader *readers_open(exo_leiden_level *lv, uint32_t W);
static void readers_free(ld_reader *rds, uint32_t W);

/* Threads of a level's passes that split its blocks or communities
 * (the degree pass, refinement, the aggregation's tally): the level's
 * threads on levels of 2 * EXO_LEIDEN_LANE_MIN_BLOCKS blocks or more, and
 * on smaller ones of 2 blocks or more with EXO_LEIDEN_THREAD_ARCS arcs
 * (coarse levels of a few thousand nodes with hundreds of arcs each); one
 * thread on the others. */
static uint32_t level_threads(const exo_leiden_level *lv) {
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
    if ((s = rd_load(lv, rd, first, 1)) != EXO_OK) break;
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
 * every weight is 1, see load_block). save_path: where to write them for
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
  const uint32_t W = level_threads(lv);
  if (W > 1) { /* each node's degree is its own: runs of blocks side by side */
    if ((s = exo_writer_close(&out, ctx)) != EXO_OK) return s;
    ld_reader *rds = readers_open(lv, W);
    if (!rds) return exo_fail_oom(ctx, "the readers of Leiden's degree pass", 0);
    ld_refine rf = {lv, rds, W, nb, NULL, NULL};
    s = exo_par_run(W, degrees_job, &rf, EXO_STAGE_CLUSTER, 0, ctx);
    readers_free(rds, W);
    return s ? s : open_ro(lv->own_weights, &lv->fd_w, ctx);
  }
  for (uint64_t first = 0; first < lv->n && !s; first += EXO_LEIDEN_BLOCK) {
    if ((s = load_block(lv, first)) != EXO_OK) break;
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
  return open_ro(lv->own_weights, &lv->fd_w, ctx);
}

/* Open a file of n u64 ids (written by write_ids) for reading; an error
 * if it holds another count. */
static exo_status open_ids(exo_reader *r, const char *path, uint64_t n, exo_ctx *ctx) {
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
  exo_status s = open_ids(&r, path, lv->n, ctx);
  if (s) return s;
  for (uint64_t v = 0; v < lv->n && !s; v++) {
    uint64_t c;
    if ((s = exo_reader_read(&r, &c, 8, ctx)) != EXO_OK) break;
    if (c >= lv->n)
      s = EXO_FAIL(ctx, EXO_EINTERNAL, "leiden: '%s': community %llu of node %llu >= %llu", path,
                   (unsigned long long)c, (unsigned long long)v, (unsigned long long)lv->n);
    else
      id_set(&lv->comm, v, c);
  }
  exo_reader_close(&r);
  return s;
}

/* W_C, member counts and the empty-id stack from comm and the weights. */
static exo_status init_communities(exo_leiden_level *lv) {
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
      uint64_t c = id_get(&lv->comm, first + i);
      lv->tot[c] += lv->rd.blk_w[i];
      lv->x1[c]++;
      lv->total_w += lv->rd.blk_w[i];
    }
  }
  lv->nfree = 0;
  for (uint64_t c = n; c-- > 0;) /* popped smallest first */
    if (lv->x1[c] == 0) lv->x2[lv->nfree++] = c;
  if (lv->p.objective == EXO_LEIDEN_MODULARITY)
    lv->gp = lv->total_w > 0.0 ? lv->p.resolution / lv->total_w : 0.0;
  else
    lv->gp = lv->p.resolution;
  return EXO_OK;
}

/* The read buffer of a level too large to hold: memory_limit / 4, at
 * least LD_MIN_BUF, at most LD_MAX_BUF. */
static uint64_t ld_buf_bytes(const exo_leiden_params *p) {
  uint64_t b = p->memory_limit / 4;
  return b < LD_MIN_BUF ? LD_MIN_BUF : b > LD_MAX_BUF ? LD_MAX_BUF : b;
}

/* A level that the previous level's aggregation built in memory is
 * handed over, held whole, when its adjacency takes at most this:
 * memory_limit / 4, or the read buffer where that is more. (A level read
 * from its file is held when it fits the read buffer: reading a larger one
 * whole made local moving slower than reading it a block at a time.) */
static uint64_t ld_hold_bytes(const exo_leiden_params *p) {
  const uint64_t q = p->memory_limit / 4, b = ld_buf_bytes(p);
  return q > b ? q : b;
}

/* The bytes a held level takes beyond the read buffer it would otherwise
 * have (the aggregation's budget leaves them out). */
static uint64_t ld_held_extra(const exo_leiden_level *lv) {
  const uint64_t held = lv->rd.win.entries * lv->esz, b = ld_buf_bytes(&lv->p);
  return held > b ? held - b : 0;
}

/* Local moving keeps each visit's weight to the node's own community
 * (8 bytes per node) when the level has at most this / 8 nodes. */
static uint64_t own_w_bytes(const exo_leiden_params *p) { return p->memory_limit / 8; }

/* exo_leiden_level_open; with save_degrees (input graph, no weights_path)
 * the degrees are written there and the file is kept. adj_mem (NULL:
 * none): the level's adjacency, csr->m narrow entries, that
 * the previous level's aggregation built in memory and did not write; the
 * level owns it from here (freed on every path). */
static exo_status level_open(const exo_csr_files *csr, const exo_leiden_params *params,
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
  if (id_alloc(&lv->comm, n, wide) || id_alloc(&lv->refined, n, wide) ||
      !(lv->tot = malloc((size_t)(n ? n : 1) * 8)) || !(lv->x1 = malloc((size_t)(n ? n : 1) * 8)) ||
      !(lv->x2 = malloc((size_t)(n ? n : 1) * 8)) ||
      !(lv->bits = calloc((size_t)(n / 64 + 1), 8))) {
    s = exo_fail_oom(ctx, "Leiden's node arrays", n * 40);
    goto fail;
  }
  /* a level held whole (read once, here, or handed over in memory) has
   * every later pass find its lists there; any other gets the read buffer */
  const int hold = csr->m > 0 &&
                   csr->m <= (adj_mem ? ld_hold_bytes(params) : ld_buf_bytes(params)) / lv->esz;
  lv->rd.win.entries = hold ? csr->m : ld_buf_bytes(params) / lv->esz;
  if (!adj_mem) lv->rd.win.buf = malloc((size_t)(lv->rd.win.entries * lv->esz));
  if (!lv->rd.win.buf) {
    s = exo_fail_oom(ctx, "Leiden's read buffer", lv->rd.win.entries * lv->esz);
    goto fail;
  }
  lv->rd.win.path = lv->csr.adj_path;
  lv->rd.win.esz = lv->esz;
  lv->rd.win.fd = -1;
  if ((s = open_ro(csr->offsets_path, &lv->fd_off, ctx)) != EXO_OK) goto fail;
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
    if ((s = open_ro(weights_path, &lv->fd_w, ctx)) != EXO_OK) goto fail;
  } else if ((s = write_degrees(lv, save_degrees)) != EXO_OK) {
    goto fail;
  }
  if (init_path) {
    if ((s = read_init(lv, init_path)) != EXO_OK) goto fail;
  } else {
    for (uint64_t v = 0; v < n; v++) id_set(&lv->comm, v, v);
  }
  for (uint64_t v = 0; v < n; v++) id_set(&lv->refined, v, v);
  if ((s = init_communities(lv)) != EXO_OK) goto fail;
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
  return level_open(csr, params, weights_path, init_path, input_graph, NULL, NULL, ctx, out);
}

/* ---- local moving --------------------------------------------------------- */

/* Tally v's arcs by the community of the neighbour (self-loops left out);
 * *kv = their weight. */
static exo_status tally_communities(exo_leiden_level *lv, uint64_t v, double *kv) {
  exo_status s = EXO_OK;
  double k = 0.0;
  rd_tally_start(&lv->rd, v);
  FOR_ARCS_PF(lv, v, u, w, s, &lv->comm, {
    if (u != v) {
      exo_tally_add_sum(&lv->rd.t, id_get(&lv->comm, u), w);
      k += w;
    }
  });
  *kv = k;
  return s;
}

exo_status exo_leiden_level_gain(exo_leiden_level *lv, uint64_t v, uint64_t c,
                                 double *delta) {
  if (v >= lv->n || c >= lv->n)
    return EXO_FAIL(lv->ctx, EXO_EARG, "exo_leiden_level_gain: node or community out of range");
  exo_status s = load_block(lv, v - v % EXO_LEIDEN_BLOCK);
  if (s) return s;
  double kv;
  if ((s = tally_communities(lv, v, &kv)) != EXO_OK) return s;
  const uint64_t a = id_get(&lv->comm, v);
  const double wv = lv->rd.blk_w[v - lv->rd.blk_first];
  double stay = exo_tally_get(&lv->rd.t, a) - lv->gp * wv * (lv->tot[a] - wv);
  double go = c == a ? stay : exo_tally_get(&lv->rd.t, c) - lv->gp * wv * lv->tot[c];
  *delta = go - stay;
  return EXO_OK;
}

#if defined(__GNUC__)
#define LD_INLINE static inline __attribute__((always_inline))
#else
#define LD_INLINE static inline
#endif

#define LD_SEEN_WORDS 1024u /* 2^16 bits */
static inline uint64_t seen_bit(uint64_t c) { return (c * 0x9E3779B97F4A7C15ULL) >> 48; }

/* The best move of v (community a, weight wv, tallied weight kv, gains in
 * t), *best its gain, *own v's tallied weight to a: W_C = lv->tot, in a
 * lane (dw) plus its own changes where the filter `seen` allows. The
 * serial sweep's (dw NULL) and lanes'. */
LD_INLINE uint64_t best_move(const exo_leiden_level *lv, const exo_tally *t, const exo_tally *dw,
                             const uint64_t *seen, uint64_t a, double wv, double kv,
                             double *best, double *own) {
  const double gp = lv->gp;
  *own = exo_tally_get(t, a);
  const double stay = dw ? *own - gp * wv * (lv->tot[a] + exo_tally_get(dw, a) - wv)
                         : *own - gp * wv * (lv->tot[a] - wv);
  uint64_t to = a;
  *best = stay + LD_EPS * kv;
  for (size_t i = 0; i < t->count; i++) EXO_PREFETCH(&lv->tot[t->slots[t->touched[i]].label]);
  for (size_t i = 0; i < t->count; i++) {
    const exo_tally_slot *e = &t->slots[t->touched[i]];
    if (e->label == a) continue;
    double W = lv->tot[e->label];
    const uint64_t h = seen_bit(e->label);
    if (dw && ((seen[h >> 6] >> (h & 63)) & 1u)) W += exo_tally_get(dw, e->label);
    double g = e->sum - gp * wv * W;
    if (g > *best) {
      *best = g;
      to = e->label;
    }
  }
  return to;
}

/* Process active node v of the loaded block; *moved set when it moved. */
static exo_status move_node(exo_leiden_level *lv, uint64_t v, int *moved) {
  double kv;
  exo_status s = tally_communities(lv, v, &kv);
  if (s) return s;
  *moved = 0;
  const uint64_t a = id_get(&lv->comm, v);
  const double wv = lv->rd.blk_w[v - lv->rd.blk_first];
  double best, own;
  uint64_t to = best_move(lv, &lv->rd.t, NULL, NULL, a, wv, kv, &best, &own);
  if (lv->own_w) lv->own_w[v] = own;
  /* an empty community: gain 0 (only worth it when v is not alone) */
  if (lv->x1[a] > 1 && 0.0 > best && lv->nfree > 0) to = lv->x2[--lv->nfree];
  if (to == a) return EXO_OK;
  lv->tot[a] -= wv;
  lv->tot[to] += wv;
  lv->x1[to]++;
  if (--lv->x1[a] == 0) lv->x2[lv->nfree++] = a;
  id_set(&lv->comm, v, to);
  *moved = 1;
  FOR_ARCS_PF(lv, v, u, w, s, &lv->comm, {
    (void)w;
    if (u != v && !exo_bit_get(lv->bits, u) && id_get(&lv->comm, u) != to) {
      exo_bit_set(lv->bits, u);
      lv->nactive++;
    }
  });
  return s;
}

static unsigned block_count_bits(const exo_leiden_level *lv, uint64_t first) {
  return exo_sweep_block_count(lv->bits, first, lv->n);
}

/* ---- readers for passes on several threads ------------------------------- */

static void readers_free(ld_reader *rds, uint32_t W) {
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
static ld_reader *readers_open(exo_leiden_level *lv, uint32_t W) {
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
      readers_free(rds, W);
      return NULL;
    }
    if (exo_tally_alloc_for(&rd->t, lv->maxdeg < lv->n ? lv->maxdeg : lv->n)) {
      readers_free(rds, W);
      return NULL;
    }
    rd->tcap = rd->t.cap;
  }
  return rds;
}

/* ---- local moving in lanes (exo_leiden.h, "Lanes") -------------------------- */

typedef struct ld_change {
  uint64_t v, from, to;
  double w;
} ld_change;


typedef struct ld_lane {
  exo_sweep_lane sw;               /* nodes, blocks, cursor, outbox (exo_sweep.h) */
  exo_rng masks;                   /* the block masks of its blocks */
  ld_change *chg;                  /* moves of this epoch, in order */
  size_t nchg;
  exo_tally dw, dn;                    /* this epoch's changes of W_C and member counts */
  uint64_t seen[LD_SEEN_WORDS];    /* bit h(C) set: C may be in dw (a filter that
                                      spares most lookups in dw) */
  uint64_t pool[EXO_LEIDEN_LANE_POOL]; /* empty community ids it may use */
  uint32_t npool;
  uint64_t moves, visited;
} ld_lane;

typedef struct ld_lanes {
  exo_leiden_level *lv;
  uint32_t nlanes, nworkers;
  ld_lane *lanes;
  ld_reader *readers;     /* one per worker */
  uint64_t epoch_blocks;
  exo_sweep_epoch ep;
} ld_lanes;

static void lanes_free(ld_lanes *ls) {
  if (ls->lanes)
    for (uint32_t i = 0; i < ls->nlanes; i++) {
      free(ls->lanes[i].chg);
      free(ls->lanes[i].sw.outbox);
      exo_tally_free(&ls->lanes[i].dw);
      exo_tally_free(&ls->lanes[i].dn);
    }
  readers_free(ls->readers, ls->nworkers);
  free(ls->lanes);
  memset(ls, 0, sizeof *ls);
}

static exo_status off_at(void *user, uint64_t node, uint64_t *off) {
  exo_leiden_level *lv = user;
  return exo_pread_full(lv->fd_off, off, 8, node * 8, lv->csr.offsets_path, lv->ctx);
}

static exo_status lane_epoch_run(void *user, uint32_t worker, uint32_t lane, exo_ctx *ctx);

/* The lanes of level lv: L = min(EXO_LEIDEN_LANES, blocks /
 * EXO_LEIDEN_LANE_MIN_BLOCKS, max_lanes if set), each a run of whole blocks
 * with about m / L adjacency entries. *ls->nlanes = L; nothing else is
 * allocated when L < 2. */
static exo_status lanes_open(exo_leiden_level *lv, ld_lanes *ls) {
  memset(ls, 0, sizeof *ls);
  ls->lv = lv;
  const uint32_t L = exo_sweep_lane_count(lv->n, EXO_LEIDEN_LANES, EXO_LEIDEN_LANE_MIN_BLOCKS,
                                          lv->p.max_lanes);
  ls->nlanes = L;
  if (L < 2) return EXO_OK;
  uint32_t W = lv->p.threads < 1 ? 1 : (uint32_t)lv->p.threads;
  if (W > L) W = L;
  ls->nworkers = W;
  ls->epoch_blocks = EXO_LEIDEN_EPOCH_BLOCKS;
  ls->lanes = calloc((size_t)L, sizeof *ls->lanes);
  if (!ls->lanes) goto oom_out;
  ls->ep = (exo_sweep_epoch){.lanes = ls->lanes, .stride = sizeof *ls->lanes, .nlanes = L,
                             .run = lane_epoch_run, .user = ls};
  const uint64_t epoch_nodes = ls->epoch_blocks * EXO_LEIDEN_BLOCK;
  exo_status s = exo_sweep_cut(lv->n, lv->csr.m, L, off_at, lv, ls->lanes, sizeof *ls->lanes);
  if (s) {
    lanes_free(ls);
    return s;
  }
  for (uint64_t i = 0; i < L; i++) {
    ld_lane *ln = &ls->lanes[i];
    exo_rng_seed(&ln->masks, lv->p.seed ^ 0x3c6ef372fe94f82bULL ^ (0x94D049BB133111EBULL * (i + 1)));
    ln->chg = malloc((size_t)epoch_nodes * sizeof *ln->chg);
    /* at most two communities per move change in an epoch */
    if (!ln->chg || exo_tally_alloc_for(&ln->dw, 2 * epoch_nodes - 1) ||
        exo_tally_alloc_for(&ln->dn, 2 * epoch_nodes - 1))
      goto oom_out;
  }
  if (!(ls->readers = readers_open(lv, W))) goto oom_out;
  for (uint32_t i = 0; i < W; i++) {
    ld_reader *rd = &ls->readers[i];
    rd->nc_v = LD_NONE;
    uint64_t arcs = lv->maxdeg < LD_NC_ARCS ? lv->maxdeg : LD_NC_ARCS;
    if (!(rd->nc = malloc((size_t)(arcs ? arcs : 1) * 2 * sizeof *rd->nc))) goto oom_out;
  }
  return EXO_OK;
oom_out:
  lanes_free(ls);
  return exo_fail_oom(lv->ctx, "Leiden's local moving lanes", 0);
}

/* One step of lane ln on an arc of v to u, weight w. activate = 0: tally
 * u's community as the lane sees it (self-loops left out) and add w to *k.
 * activate = 1 (v has just moved to `to`): activate u unless it is in `to`
 * as the lane sees it, at once in the own lane, through the outbox else. */
LD_INLINE exo_status lane_arc(exo_leiden_level *lv, ld_lane *ln, ld_reader *rd, uint64_t v,
                              uint64_t u, double w, const int activate, uint64_t to, double *k,
                              const uint32_t *own32, const uint32_t *pub32) {
  if (u == v) return EXO_OK;
  const int in_lane = u - ln->sw.lo < ln->sw.hi - ln->sw.lo;
  const uint64_t cu = own32 ? (in_lane ? own32[u] : pub32[u])
                            : (in_lane ? id_get(&lv->comm, u) : id_get(&lv->refined, u));
  if (!activate) {
    exo_tally_add_sum(&rd->t, cu, w);
    *k += w;
  } else if (cu != to) {
    if (!in_lane)
      return exo_sweep_outbox_push(&ln->sw, u) ? exo_fail_oom(rd->ctx, "a Leiden lane's outbox", 0)
                                               : EXO_OK;
    if (!exo_bit_get(lv->bits, u)) {
      exo_bit_set(lv->bits, u);
      ln->sw.nactive_delta++;
    }
  }
  return EXO_OK;
}

/* lane_arc on every arc of v (block loaded in rd); *k = the tallied weight
 * (activate = 0). u32 ids in memory and in the file (the common case) get
 * a loop of their own that prefetches only the array each neighbour is
 * read from. */
LD_INLINE exo_status lane_arcs(exo_leiden_level *lv, ld_lane *ln, ld_reader *rd, uint64_t v,
                               const int activate, uint64_t to, double *k) {
  exo_status s = EXO_OK;
  if (!activate) rd_tally_start(rd, v);
  if (lv->csr.wide || !lv->comm.a32 || !lv->refined.a32) {
    FOR_ARCS_RD(lv, rd, v, u, w, s, &lv->refined, &lv->comm, {
      if ((s = lane_arc(lv, ln, rd, v, u, w, activate, to, k, NULL, NULL)) != EXO_OK) break;
    });
    return s;
  }
  const uint32_t *own = lv->comm.a32, *pub = lv->refined.a32;
  const uint64_t lo = ln->sw.lo, span = ln->sw.hi - ln->sw.lo, n = lv->n;
  const uint64_t start = rd->blk_off[v - rd->blk_first];
  const uint64_t end = rd->blk_off[v - rd->blk_first + 1];
  const size_t esz = lv->esz;
  /* the pairs kept by the tally of v: the communities of v's neighbours
   * have not changed since (only v's has), so they are the list's */
  uint32_t *nc = rd->nc && end - start <= LD_NC_ARCS && end - start <= lv->maxdeg ? rd->nc : NULL;
  if (activate && nc && rd->nc_v == v) {
    for (size_t j = 0; j < rd->nc_n && !s; j++) {
      const uint64_t u = nc[2 * j];
      if (nc[2 * j + 1] == to) continue;
      if (u - lo >= span) {
        if (exo_sweep_outbox_push(&ln->sw, u))
          s = exo_fail_oom(rd->ctx, "a Leiden lane's outbox", 0);
      } else if (!exo_bit_get(lv->bits, u)) {
        exo_bit_set(lv->bits, u);
        ln->sw.nactive_delta++;
      }
    }
    return s;
  }
  if (!activate) rd->nc_v = LD_NONE;
  size_t kept = 0;
  for (uint64_t pos = start; pos < end && !s;) {
    const uint8_t *p;
    uint64_t c;
    if ((s = exo_csr_window_get(&rd->win, pos, end, &p, &c, rd->ctx)) != EXO_OK) break;
    for (uint64_t i = 0; i < c && !s; i++, p += esz) {
      uint32_t x;
      if (i == 0)
        for (uint64_t j = 0; j < c && j < LD_PREFETCH; j++) {
          memcpy(&x, p + j * esz, 4);
          if (x < n) EXO_PREFETCH(x - lo < span ? &own[x] : &pub[x]);
        }
      if (i + LD_PREFETCH < c) {
        memcpy(&x, p + LD_PREFETCH * esz, 4);
        if (x < n) EXO_PREFETCH(x - lo < span ? &own[x] : &pub[x]);
      }
      uint64_t u;
      float wf;
      exo_adj_decode(p, 0, &u, &wf);
      if (u >= n) {
        s = bad_nbr(lv, rd->ctx, v, u);
        break;
      }
      if (!activate && nc) {
        if (u == v) continue;
        const uint32_t cu = u - lo < span ? own[u] : pub[u];
        nc[2 * kept] = (uint32_t)u;
        nc[2 * kept + 1] = cu;
        kept++;
        const double w = fabs((double)wf);
        exo_tally_add_sum(&rd->t, cu, w);
        *k += w;
        continue;
      }
      s = lane_arc(lv, ln, rd, v, u, fabs((double)wf), activate, to, k, own, pub);
    }
    pos += c;
  }
  if (!activate && nc && !s) {
    rd->nc_v = v;
    rd->nc_n = kept;
  }
  return s;
}

/* move_node for an active node v of lane ln, block loaded in rd: the same
 * rule on the lane's view (W_C and member counts as of the last sync plus
 * the lane's own changes since; an empty community from the lane's pool). */
static exo_status lane_move_node(exo_leiden_level *lv, ld_lane *ln, ld_reader *rd, uint64_t v) {
  double kv = 0.0;
  exo_status s = lane_arcs(lv, ln, rd, v, 0, 0, &kv);
  if (s) return s;
  const uint64_t a = id_get(&lv->comm, v);
  const double wv = rd->blk_w[v - rd->blk_first];
  double best, own;
  uint64_t to = best_move(lv, &rd->t, &ln->dw, ln->seen, a, wv, kv, &best, &own);
  if (lv->own_w) lv->own_w[v] = own;
  if (0.0 > best && ln->npool > 0 && (double)lv->x1[a] + exo_tally_get(&ln->dn, a) > 1.5)
    to = ln->pool[--ln->npool];
  if (to == a) return EXO_OK;
  exo_tally_add_sum(&ln->dw, a, -wv);
  exo_tally_add_sum(&ln->dw, to, wv);
  const uint64_t ha = seen_bit(a), ht = seen_bit(to);
  ln->seen[ha >> 6] |= (uint64_t)1 << (ha & 63);
  ln->seen[ht >> 6] |= (uint64_t)1 << (ht & 63);
  exo_tally_add_sum(&ln->dn, a, -1.0);
  exo_tally_add_sum(&ln->dn, to, 1.0);
  id_set(&lv->comm, v, to);
  ln->chg[ln->nchg++] = (ld_change){v, a, to, wv};
  ln->moves++;
  return lane_arcs(lv, ln, rd, v, 1, to, NULL);
}

/* One epoch of lane ln on reader rd: its next epoch_blocks blocks. */
static exo_status lane_epoch(ld_lanes *ls, ld_lane *ln, ld_reader *rd) {
  exo_leiden_level *lv = ls->lv;
  uint64_t stop = ln->sw.cursor + ls->epoch_blocks;
  if (stop > ln->sw.blk_hi) stop = ln->sw.blk_hi;
  exo_status s = EXO_OK;
  for (; ln->sw.cursor < stop && !s; ln->sw.cursor++) {
    const uint64_t first = ln->sw.cursor * EXO_LEIDEN_BLOCK;
    const uint32_t mask = (uint32_t)exo_rng_below(&ln->masks, EXO_LEIDEN_BLOCK);
    unsigned act = block_count_bits(lv, first);
    if (act == 0) continue;
    if ((s = rd_load(lv, rd, first, act >= LD_WHOLE_BLOCK)) != EXO_OK) break;
    for (uint32_t i = 0; i < EXO_LEIDEN_BLOCK && !s; i++) {
      uint64_t v = first + (lv->perm[i] ^ mask);
      if (v >= lv->n || !exo_bit_get(lv->bits, v)) continue;
      exo_bit_clear(lv->bits, v);
      ln->sw.nactive_delta--;
      ln->visited++;
      s = lane_move_node(lv, ln, rd, v);
    }
  }
  return s;
}

/* exo_sweep_epoch's lane run: lane `lane` on worker `worker`'s reader. */
static exo_status lane_epoch_run(void *user, uint32_t worker, uint32_t lane, exo_ctx *ctx) {
  ld_lanes *ls = user;
  ld_reader *rd = &ls->readers[worker];
  rd->ctx = ctx;
  return lane_epoch(ls, &ls->lanes[lane], rd);
}

/* Give the unused pool ids back to the stack of empty ids (the last lane's
 * first, so lane 0's are popped first again). */
static void lanes_return_pools(ld_lanes *ls) {
  exo_leiden_level *lv = ls->lv;
  for (uint32_t i = ls->nlanes; i-- > 0;) {
    ld_lane *ln = &ls->lanes[i];
    for (uint32_t j = 0; j < ln->npool; j++) lv->x2[lv->nfree++] = ln->pool[j];
    ln->npool = 0;
  }
}

/* The sync point after an epoch (caller's thread): apply the lanes' moves
 * in lane order to W_C, the member counts and the published communities;
 * push the communities they emptied on the stack of empty ids; activate
 * the outboxes' nodes (lane order); refill the pools from the stack. */
static void lanes_fill_pools(ld_lanes *ls) {
  exo_leiden_level *lv = ls->lv;
  for (uint32_t i = 0; i < ls->nlanes; i++) {
    ld_lane *ln = &ls->lanes[i];
    uint32_t k = lv->nfree < EXO_LEIDEN_LANE_POOL ? (uint32_t)lv->nfree : EXO_LEIDEN_LANE_POOL;
    for (uint32_t j = k; j-- > 0;) ln->pool[j] = lv->x2[--lv->nfree];
    ln->npool = k;
  }
}

static void lanes_sync(ld_lanes *ls, uint64_t *moves, uint64_t *done) {
  exo_leiden_level *lv = ls->lv;
  lanes_return_pools(ls);
  for (uint32_t i = 0; i < ls->nlanes; i++) {
    ld_lane *ln = &ls->lanes[i];
    lv->nactive = (uint64_t)((int64_t)lv->nactive + ln->sw.nactive_delta);
    ln->sw.nactive_delta = 0;
    *moves += ln->moves;
    *done += ln->visited;
    ln->moves = ln->visited = 0;
    for (size_t j = 0; j < ln->nchg; j++) {
      const ld_change *c = &ln->chg[j];
      lv->tot[c->from] -= c->w;
      lv->tot[c->to] += c->w;
      lv->x1[c->from]--;
      lv->x1[c->to]++;
      id_set(&lv->refined, c->v, id_get(&lv->comm, c->v));
    }
    for (size_t j = 0; j < ln->dw.count; j++) {
      const uint64_t h = seen_bit(ln->dw.slots[ln->dw.touched[j]].label);
      ln->seen[h >> 6] = 0;
    }
    exo_tally_clear(&ln->dw);
    exo_tally_clear(&ln->dn);
  }
  const uint64_t pushed_from = lv->nfree;
  for (uint32_t i = 0; i < ls->nlanes; i++) {
    ld_lane *ln = &ls->lanes[i];
    for (size_t j = 0; j < ln->nchg; j++) {
      const uint64_t c = ln->chg[j].from;
      if (lv->x1[c] != 0) continue;
      lv->x2[lv->nfree++] = c;
      lv->x1[c] = UINT64_MAX; /* pushed once */
    }
    ln->nchg = 0;
  }
  for (uint64_t j = pushed_from; j < lv->nfree; j++) lv->x1[lv->x2[j]] = 0;
  for (uint32_t i = 0; i < ls->nlanes; i++) {
    ld_lane *ln = &ls->lanes[i];
    for (size_t j = 0; j < ln->sw.nout; j++) {
      const uint64_t u = ln->sw.outbox[j];
      if (exo_bit_get(lv->bits, u)) continue;
      exo_bit_set(lv->bits, u);
      lv->nactive++;
    }
    ln->sw.nout = 0;
  }
  lanes_fill_pools(ls);
}

/* One sweep of local moving in lanes: epochs until every lane has passed
 * its last block or no node is active. */
static exo_status lanes_sweep(ld_lanes *ls, uint64_t *moves, uint64_t *done) {
  exo_leiden_level *lv = ls->lv;
  exo_status s = EXO_OK;
  exo_sweep_rewind(ls->lanes, sizeof *ls->lanes, ls->nlanes);
  while (lv->nactive > 0 && exo_sweep_lanes_left(ls->lanes, sizeof *ls->lanes, ls->nlanes)) {
    s = exo_sweep_epoch_run(&ls->ep, ls->nworkers, *done, lv->ctx);
    if (s) break;
    lanes_sync(ls, moves, done);
    exo_progress(lv->ctx, EXO_STAGE_CLUSTER, *done, 0);
  }
  return s;
}

/* One sweep on the caller's thread, every read live (one lane). */
static exo_status serial_sweep(exo_leiden_level *lv, uint64_t *moves, uint64_t *blocks,
                               uint64_t *done) {
  const uint64_t n = lv->n;
  exo_status s = EXO_OK;
  for (uint64_t first = 0; first < n; first += EXO_LEIDEN_BLOCK) {
    uint32_t mask = (uint32_t)exo_rng_below(&lv->rng, EXO_LEIDEN_BLOCK);
    if (++*blocks % LD_POLL_BLOCKS == 0) exo_progress(lv->ctx, EXO_STAGE_CLUSTER, *done, 0);
    unsigned act = block_count_bits(lv, first);
    if (act == 0) continue;
    /* a block with few active nodes: only their lists are read */
    if ((s = load_block_part(lv, first, act >= LD_WHOLE_BLOCK)) != EXO_OK) return s;
    for (uint32_t i = 0; i < EXO_LEIDEN_BLOCK; i++) {
      uint64_t v = first + (lv->perm[i] ^ mask);
      if (v >= n || !exo_bit_get(lv->bits, v)) continue;
      exo_bit_clear(lv->bits, v);
      lv->nactive--;
      ++*done;
      int moved;
      if ((s = move_node(lv, v, &moved)) != EXO_OK) return s;
      *moves += (uint64_t)moved;
    }
  }
  return s;
}

exo_status exo_leiden_level_move(exo_leiden_level *lv, uint64_t *moves, uint64_t *sweeps) {
  const uint64_t n = lv->n;
  *moves = 0;
  *sweeps = 0;
  for (uint64_t v = 0; v < n; v++) exo_bit_set(lv->bits, v);
  lv->nactive = n;
  lv->own_w_exact = 0;
  if (!lv->own_w && n > 0 && n <= own_w_bytes(&lv->p) / 8)
    lv->own_w = malloc((size_t)n * 8); /* none: the refinement reads the arcs */
  ld_lanes ls;
  exo_status s = lanes_open(lv, &ls);
  if (s) return s;
  uint64_t blocks = 0, done = 0;
  if (ls.lanes) { /* `refined` (the identity until refinement) holds the published copy */
    for (uint64_t v = 0; v < n; v++) id_set(&lv->refined, v, id_get(&lv->comm, v));
    lanes_fill_pools(&ls);
  }
  while (!s && lv->nactive > 0) {
    (*sweeps)++;
    exo_sweep_order(lv->perm, &lv->rng);
    if (ls.lanes && *sweeps <= EXO_LEIDEN_LANE_SWEEPS) {
      s = lanes_sweep(&ls, moves, &done);
    } else {
      if (ls.lanes) lanes_return_pools(&ls);
      s = serial_sweep(lv, moves, &blocks, &done);
    }
  }
  if (ls.lanes) {
    lanes_return_pools(&ls);
    for (uint64_t v = 0; v < n; v++) id_set(&lv->refined, v, v);
  }
  lanes_free(&ls);
  /* no move: every visit tallied the partition the refinement starts from */
  lv->own_w_exact = !s && lv->own_w && *moves == 0 && done == n;
  return s;
}

uint64_t exo_leiden_level_communities(const exo_leiden_level *lv) { return lv->n - lv->nfree; }

/* ---- quality -------------------------------------------------------------- */

exo_status exo_leiden_level_quality(exo_leiden_level *lv, double *quality) {
  const uint64_t n = lv->n;
  double *in = as_dbl(lv->x2); /* the empty-id stack is not needed after moving */
  for (uint64_t c = 0; c < n; c++) in[c] = 0.0;
  lv->nfree = 0;
  exo_status s = EXO_OK;
  for (uint64_t first = 0; first < n && !s; first += EXO_LEIDEN_BLOCK) {
    if ((s = load_block(lv, first)) != EXO_OK) return s;
    for (uint64_t v = first; v < first + lv->rd.blk_cnt && !s; v++) {
      uint64_t c = id_get(&lv->comm, v);
      FOR_ARCS_PF(lv, v, u, w, s, &lv->comm, {
        if (id_get(&lv->comm, u) == c) in[c] += w;
      });
    }
  }
  if (s) return s;
  double q = 0.0;
  for (uint64_t c = 0; c < n; c++) {
    if (lv->x1[c] == 0) continue;
    double W = lv->tot[c];
    if (lv->p.objective == EXO_LEIDEN_MODULARITY)
      q += lv->total_w > 0.0 ? (in[c] - lv->gp * W * W) / lv->total_w : 0.0;
    else
      q += in[c] / 2.0 - lv->gp * W * (W - 1.0) / 2.0;
  }
  *quality = q;
  return EXO_OK;
}

/* ---- refinement ------------------------------------------------------------ */

/* Refinement's first pass on blocks [b0, b1), reader rd: every node a
 * singleton, W_R = w_v (x1), E(R, S - R) = E(v, S - v) (x2). Each node's
 * values depend on the node alone, so the blocks may be split between
 * threads. */
static exo_status singletons_range(exo_leiden_level *lv, ld_reader *rd, uint64_t b0,
                                   uint64_t b1) {
  double *wr = as_dbl(lv->x1), *ext = as_dbl(lv->x2);
  exo_status s = EXO_OK;
  for (uint64_t b = b0; b < b1 && !s; b++) {
    const uint64_t first = b * EXO_LEIDEN_BLOCK;
    if ((s = rd_load(lv, rd, first, 1)) != EXO_OK) return s;
    for (uint64_t v = first; v < first + rd->blk_cnt && !s; v++) {
      uint64_t c = id_get(&lv->comm, v);
      double e = 0.0;
      FOR_ARCS_RD(lv, rd, v, u, w, s, &lv->comm, NULL, {
        if (u != v && id_get(&lv->comm, u) == c) e += w;
      });
      id_set(&lv->refined, v, v);
      wr[v] = rd->blk_w[v - first];
      ext[v] = e;
    }
  }
  return s;
}

/* Refinement's first pass after a local moving that visited every node
 * and moved none: each visit tallied v's arcs by the communities the
 * refinement starts from, in list order, as singletons_range sums them,
 * so E(v, S - v) is the tally's entry of v's community, the same double.
 * It becomes x2 (whose stack of empty ids the refinement would overwrite),
 * and only the node weights are read. */
static exo_status singletons_from_moving(exo_leiden_level *lv) {
  double *wr = as_dbl(lv->x1);
  uint64_t *stack = lv->x2;
  lv->x2 = (uint64_t *)(void *)lv->own_w;
  lv->own_w = (double *)(void *)stack; /* freed by the caller */
  exo_status s = EXO_OK;
  for (uint64_t first = 0; first < lv->n && !s; first += EXO_LEIDEN_BLOCK)
    if ((s = rd_load(lv, &lv->rd, first, 0)) == EXO_OK)
      for (uint64_t v = first; v < first + lv->rd.blk_cnt; v++) {
        id_set(&lv->refined, v, v);
        wr[v] = lv->rd.blk_w[v - first];
      }
  return s;
}

/* The refinement's passes as exo_par_run jobs (ld_refine, above). */

static exo_status singletons_job(void *arg, uint32_t index, exo_ctx *ctx) {
  ld_refine *rf = arg;
  ld_reader *rd = &rf->rds[index];
  rd->ctx = ctx;
  return singletons_range(rf->lv, rd, rf->blocks * index / rf->parts,
                          rf->blocks * (index + 1) / rf->parts);
}

/* The merging pass's bitmap is shared by threads that own different
 * communities (whose nodes may share a word): atomic reads and ORs. */
_Static_assert(sizeof(_Atomic uint64_t) == sizeof(uint64_t), "atomic words of the bitmap");
static inline uint64_t abits_word(uint64_t *b, uint64_t w) {
  return atomic_load_explicit((_Atomic uint64_t *)(void *)&b[w], memory_order_relaxed);
}
static inline void abit_set(uint64_t *b, uint64_t i) {
  atomic_fetch_or_explicit((_Atomic uint64_t *)(void *)&b[i >> 6], (uint64_t)1 << (i & 63),
                           memory_order_relaxed);
}

/* Does block [first, first + EXO_LEIDEN_BLOCK) hold a node whose bit is
 * clear? (A bit once set stays set, so a "no" stays true.) */
static int block_has_clear_bit(exo_leiden_level *lv, uint64_t first) {
  uint64_t cnt = lv->n - first;
  if (cnt > EXO_LEIDEN_BLOCK) cnt = EXO_LEIDEN_BLOCK;
  for (uint64_t i = 0; i < cnt; i += 64) { /* first is a multiple of 64 */
    uint64_t full = cnt - i < 64 ? ((uint64_t)1 << (cnt - i)) - 1 : UINT64_MAX;
    if ((abits_word(lv->bits, (first + i) >> 6) & full) != full) return 1;
  }
  return 0;
}

/* The part (of `parts`) that owns community S in the merging pass. */
static inline uint32_t merge_part_of(uint64_t S, uint32_t parts) {
  return parts == 1 ? 0u : (uint32_t)(((S * 0x9E3779B97F4A7C15ULL) >> 32) % parts);
}

/* Refinement's merging pass for the communities of part `part`: the nodes
 * in the seeded order (block masks in `masks`), each still-singleton,
 * well-connected node v of such a community joining the best refined
 * community inside it (exo_leiden.h). A node's decision reads and changes
 * only its own community's refined communities, so the parts may run side
 * by side, each deciding in the order one thread would. */
static exo_status merge_part(exo_leiden_level *lv, ld_reader *rd, const uint32_t *masks,
                             uint32_t part, uint32_t parts, uint64_t *merges) {
  const uint64_t n = lv->n;
  double *wr = as_dbl(lv->x1), *ext = as_dbl(lv->x2);
  const double gp = lv->gp;
  exo_tally *t = &rd->t;
  exo_status s = EXO_OK;
  *merges = 0;
  for (uint64_t first = 0, b = 0; first < n; first += EXO_LEIDEN_BLOCK, b++) {
    if (!block_has_clear_bit(lv, first)) continue; /* every node already merged */
    if ((s = rd_load(lv, rd, first, 1)) != EXO_OK) return s;
    for (uint32_t i = 0; i < EXO_LEIDEN_BLOCK; i++) {
      uint64_t v = first + (lv->perm[i] ^ masks[b]);
      if (v >= n) continue;
      const uint64_t S = id_get(&lv->comm, v);
      if (merge_part_of(S, parts) != part || ((abits_word(lv->bits, v >> 6) >> (v & 63)) & 1u))
        continue;
      const double wv = rd->blk_w[v - first], WS = lv->tot[S];
      const double ev = ext[v];
      if (ev < gp * wv * (WS - wv)) continue; /* not well-connected */
      rd_tally_start(rd, v);
      FOR_ARCS_RD(lv, rd, v, u, w, s, &lv->comm, &lv->refined, {
        if (u != v && id_get(&lv->comm, u) == S) {
          const uint64_t r = id_get(&lv->refined, u);
          EXO_PREFETCH(&ext[r]);
          EXO_PREFETCH(&wr[r]);
          exo_tally_add_sum(t, r, w);
        }
      });
      if (s) return s;
      double best = -1.0;
      uint64_t to = LD_NONE;
      for (size_t j = 0; j < t->count; j++) {
        const uint64_t r = t->slots[t->touched[j]].label;
        EXO_PREFETCH(&ext[r]);
        EXO_PREFETCH(&wr[r]);
      }
      for (size_t j = 0; j < t->count; j++) {
        const exo_tally_slot *e = &t->slots[t->touched[j]];
        const uint64_t r = e->label;
        if (ext[r] < gp * wr[r] * (WS - wr[r])) continue; /* R not well-connected */
        double g = e->sum - gp * wv * wr[r];
        if (g >= 0.0 && (to == LD_NONE || g > best)) { /* zero gains too, as the paper */
          best = g;
          to = r;
        }
      }
      if (to == LD_NONE) continue;
      double evr = exo_tally_get(t, to);
      id_set(&lv->refined, v, to);
      wr[to] += wv;
      wr[v] = 0.0;
      ext[to] = ext[to] + ev - 2.0 * evr;
      abit_set(lv->bits, v);
      abit_set(lv->bits, to); /* the node whose singleton R was */
      (*merges)++;
    }
  }
  return s;
}

static exo_status merging_job(void *arg, uint32_t index, exo_ctx *ctx) {
  ld_refine *rf = arg;
  ld_reader *rd = &rf->rds[index];
  rd->ctx = ctx;
  return merge_part(rf->lv, rd, rf->masks, index, rf->parts, &rf->merges[index]);
}

/* Contract: exo_leiden.h. Pass 1 splits the blocks between the threads,
 * pass 2 the communities; both give the values of one thread. */
exo_status exo_leiden_level_refine(exo_leiden_level *lv, uint64_t *merges) {
  const uint64_t n = lv->n, nb = (n + EXO_LEIDEN_BLOCK - 1) / EXO_LEIDEN_BLOCK;
  *merges = 0;
  memset(lv->bits, 0, (size_t)(n / 64 + 1) * 8);
  const uint32_t W = level_threads(lv);
  ld_reader *rds = W > 1 ? readers_open(lv, W) : &lv->rd;
  uint32_t *masks = malloc((size_t)(nb ? nb : 1) * sizeof *masks);
  uint64_t *part_merges = calloc(W, sizeof *part_merges);
  ld_refine rf = {lv, rds, W, nb, masks, part_merges};
  exo_status s = EXO_OK;
  if (!rds || !masks || !part_merges) {
    s = exo_fail_oom(lv->ctx, "the readers of Leiden's refinement", 0);
    goto out;
  }
  if (W > 1) exo_detail(lv->ctx, "leiden refinement: %u threads", W);
  /* pass 1: singletons: W_R = w_v, E(R, S - R) = E(v, S - v) */
  if (lv->own_w_exact) { /* E(v, S - v) summed by moving's last visits */
    if ((s = singletons_from_moving(lv)) == EXO_OK)
      exo_detail(lv->ctx, "leiden refinement: each node's weight to its community from local "
                  "moving's sweep (no node moved), its arcs not read again");
  } else if ((s = exo_par_run(W, singletons_job, &rf, EXO_STAGE_CLUSTER, 0, lv->ctx)) != EXO_OK) {
    goto out;
  }
  free(lv->own_w);
  lv->own_w = NULL;
  lv->own_w_exact = 0;
  if (s) goto out;
  /* pass 2: merge well-connected singletons, nodes in seeded order (the
   * block masks drawn in block order, as one thread always drew them) */
  exo_sweep_order(lv->perm, &lv->rng);
  for (uint64_t b = 0; b < nb; b++) masks[b] = (uint32_t)exo_rng_below(&lv->rng, EXO_LEIDEN_BLOCK);
  s = exo_par_run(W, merging_job, &rf, EXO_STAGE_CLUSTER, 0, lv->ctx);
  for (uint32_t i = 0; i < W && !s; i++) *merges += part_merges[i];
out:
  if (rds != &lv->rd) readers_free(rds, W);
  free(masks);
  free(part_merges);
  return s;
}

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
  rd_tally_start(rd, v);
  FOR_ARCS_RD(lv, rd, v, u, w, s, &lv->refined, NULL,
              { exo_tally_add_sum(&rd->t, id_get(&lv->refined, u), w); });
  return s;
}

/* The sorter's records of v: agg_tally's sums (summed per node in double:
 * fewer records to sort; the sort sums what different nodes give), in the
 * tally's insertion order, appended to out; a full out is handed to the
 * sorter (never full without one: the tally jobs' blocks fit their
 * buffers, a node giving at most one record per arc). */
static exo_status agg_node(exo_leiden_level *lv, ld_reader *rd, uint64_t v, exo_sorter *sorter,
                           ld_aggbuf *out, exo_ctx *ctx) {
  const uint64_t rv = id_get(&lv->refined, v);
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
 * a quarter of memory_limit, never more than the level's arcs need; at
 * least 64 Ki records per thread (one thread: that much), at most half of
 * memory_limit. */
static uint64_t agg_budget(const exo_leiden_level *lv, uint32_t W, size_t rs) {
  uint64_t b = W > 1 ? lv->p.memory_limit / 4 : 0;
  const uint64_t lo = (uint64_t)W * 65536 * rs;
  const uint64_t hi = (lv->csr.m + 1) * rs;
  if (b < lo) b = lo;
  if (b > hi) b = hi > lo ? hi : lo;
  if (b > lv->p.memory_limit / 2) b = lv->p.memory_limit / 2;
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
  rw->pc[(id_get(&lv->refined, v) - rw->c0) * rw->W + j] += t->count;
  return EXO_OK;
}

/* Is v's coarse id in the rows' range? */
static inline int row_in_range(const ld_rows *rw, uint64_t v) {
  const uint64_t c = id_get(&rw->lv->refined, v);
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
    if ((s = rd_load(lv, rd, first, 1)) != EXO_OK) break;
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
  ld_reader *rds = W > 1 ? readers_open(lv, W) : &lv->rd;
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
      if ((s = rd_load(lv, rd, b * EXO_LEIDEN_BLOCK, 1)) != EXO_OK) break;
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
  if (rds && rds != &lv->rd) readers_free(rds, W);
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
      uint64_t *at = &pc[(id_get(&rw->lv->refined, v) - rw->c0) * rw->W + t];
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
 * the next level holds it (ld_hold_bytes): then *keep gets it, m entries
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
      off[id_get(&lv->refined, v0 + i)] += d;
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
  if (W > 1 && !(rds = readers_open(lv, W))) {
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
    const int kept = one && len > 0 && len <= ld_hold_bytes(&lv->p) / 8;
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
  if (rds) readers_free(rds, W);
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
static exo_status aggregate(exo_leiden_level *lv, exo_csr_files *coarse, const char *weights_path,
                            const char *init_path, uint8_t **keep) {
  exo_ctx *ctx = lv->ctx;
  const uint64_t n = lv->n;
  double *wr = as_dbl(lv->x1);
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
    uint64_t r = id_get(&lv->refined, v);
    if (rmap[r] == LD_NONE) {
      rmap[r] = k++;
      uint64_t c = id_get(&lv->comm, v);
      if (cmap[c] == LD_NONE) cmap[c] = kc++;
      /* modularity's node weights are degrees, scaled with the arcs; CPM's
       * are member counts (or component weights), never scaled */
      const double wc = lv->p.objective == EXO_LEIDEN_MODULARITY ? wr[r] / lv->wdiv : wr[r];
      s = exo_writer_write(&ww, &wc, 8, ctx);
      if (!s) s = write_u64(&wi, cmap[c], ctx);
    }
    id_set(&lv->refined, v, rmap[r]);
  }
  if (!s) s = exo_writer_close(&ww, ctx);
  if (!s) s = exo_writer_close(&wi, ctx);
  if (s) goto fail;

  uint64_t m = 0;
  const uint32_t W = level_threads(lv), T = lv->p.threads < 1 ? 1 : (uint32_t)lv->p.threads;
  int cwide = k > EXO_NARROW_ID_LIMIT;
  /* the budget: memory_limit less what a held level takes beyond the read
   * buffer */
  const uint64_t extra = ld_held_extra(lv);
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
  if ((s = open_ro(coarse->offsets_path, &fd, ctx)) != EXO_OK) goto fail;
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
  return aggregate(lv, coarse, weights_path, init_path, NULL);
}

void exo_leiden_level_partition(const exo_leiden_level *lv, uint64_t *comm,
                                uint64_t *refined) {
  for (uint64_t v = 0; v < lv->n; v++) {
    if (comm) comm[v] = id_get(&lv->comm, v);
    if (refined) refined[v] = id_get(&lv->refined, v);
  }
}

/* ---- the whole run ------------------------------------------------------------ */

/* Stream the input nodes' coarse ids (old_path, or the identity when NULL)
 * through the refined ids of lv (coarse ids after aggregation) into
 * new_path. */
static exo_status map_top(exo_leiden_level *lv, const char *old_path, const char *new_path,
                          uint64_t n_input) {
  exo_ctx *ctx = lv->ctx;
  exo_reader r;
  exo_writer w;
  memset(&r, 0, sizeof r);
  memset(&w, 0, sizeof w);
  exo_status s = EXO_OK;
  if (old_path) s = exo_reader_open(&r, old_path, EXO_IO_DEFAULT_BUF, 0, UINT64_MAX, 1, ctx);
  if (!s) s = exo_writer_open(&w, new_path, EXO_IO_DEFAULT_BUF, ctx);
  uint64_t t[4096]; /* a chunk of ids, mapped in place */
  for (uint64_t i = 0; i < n_input && !s; i += 4096) {
    const size_t c = n_input - i < 4096 ? (size_t)(n_input - i) : 4096;
    if (old_path && (s = exo_reader_read(&r, t, c * 8, ctx)) != EXO_OK) break;
    for (size_t j = 0; j < c && !s; j++) {
      if (!old_path) t[j] = i + j;
      if (t[j] >= lv->n)
        s = EXO_FAIL(ctx, EXO_EINTERNAL, "leiden: coarse id %llu out of range",
                     (unsigned long long)t[j]);
      else
        t[j] = id_get(&lv->refined, t[j]);
    }
    if (!s) s = exo_writer_write(&w, t, c * 8, ctx);
  }
  if (old_path) exo_reader_close(&r);
  if (!s) return exo_writer_close(&w, ctx);
  exo_writer_abort(&w);
  exo_unlink(new_path);
  return s;
}

/* The level's communities for the input nodes; frees the level first. */
static exo_status final_labels(exo_leiden_level *lv, const char *top_path, uint64_t n_input,
                               uint64_t **out, exo_ctx *ctx) {
  const uint64_t nl = lv->n;
  uint64_t *cm = malloc((size_t)(nl ? nl : 1) * 8);
  if (!cm) {
    exo_leiden_level_free(lv);
    return exo_fail_oom(ctx, "Leiden's labels", nl * 8);
  }
  exo_leiden_level_partition(lv, cm, NULL);
  exo_leiden_level_free(lv);
  if (!top_path) { /* level 0 */
    *out = cm;
    return EXO_OK;
  }
  uint64_t *labels = malloc((size_t)(n_input ? n_input : 1) * 8);
  if (!labels) {
    free(cm);
    return exo_fail_oom(ctx, "Leiden's labels", n_input * 8);
  }
  exo_reader r;
  memset(&r, 0, sizeof r);
  exo_status s = exo_reader_open(&r, top_path, EXO_IO_DEFAULT_BUF, 0, UINT64_MAX, 0, ctx);
  for (uint64_t i = 0; i < n_input && !s; i++) {
    uint64_t t;
    if ((s = exo_reader_read(&r, &t, 8, ctx)) != EXO_OK) break;
    if (t >= nl)
      s = EXO_FAIL(ctx, EXO_EINTERNAL, "leiden: coarse id %llu out of range",
                   (unsigned long long)t);
    else
      labels[i] = cm[t];
  }
  exo_reader_close(&r);
  free(cm);
  if (s) {
    free(labels);
    return s;
  }
  *out = labels;
  return EXO_OK;
}

static exo_status write_ids(const char *path, const uint64_t *ids, uint64_t n, exo_ctx *ctx) {
  exo_writer w;
  memset(&w, 0, sizeof w);
  exo_status s = exo_writer_open(&w, path, EXO_IO_DEFAULT_BUF, ctx);
  if (!s) s = exo_writer_write(&w, ids, (size_t)(n * 8), ctx);
  if (!s) return exo_writer_close(&w, ctx);
  exo_writer_abort(&w);
  return s;
}

/* n ids written by write_ids, into ids (n * 8 bytes). */
static exo_status read_ids(const char *path, uint64_t *ids, uint64_t n, exo_ctx *ctx) {
  exo_reader r;
  exo_status s = open_ids(&r, path, n, ctx);
  if (s) return s;
  s = exo_reader_read(&r, ids, (size_t)(n * 8), ctx);
  exo_reader_close(&r);
  return s;
}

enum { F_OFF, F_ADJ, F_W, F_INIT, F_TOP, F_COUNT };

/* One iteration from level 0 (start_path: its initial communities, or
 * NULL). degrees: the input graph's node weights file, written by the first
 * iteration (modularity; *have_degrees then set) and read by the others. */
/* Coarse arc weights are floats: a coarse arc sums input arcs, and the sum
 * of them all (each edge from both ends, input self-loops twice: the
 * level-0 degrees' sum) bounds every one. When that bound exceeds
 * LD_ARC_ROOM, the first aggregation divides the weights by the smallest
 * power of 2 that brings it below (exact in float and double, so every
 * sum is the same up to that factor), and every coarse level keeps that
 * scale: modularity is unchanged by it; for CPM the coarse levels use
 * resolution / divisor and their quality is multiplied back. Room is left
 * for float sums that round up. */
#define LD_ARC_ROOM ((double)FLT_MAX / 4)

static double weight_divisor(double total) {
  double d = 1.0;
  while (total / d > LD_ARC_ROOM) d *= 2.0;
  return d;
}

/* The sum of |w| over the level's arcs (input self-loops twice), in one
 * serial pass (CPM's level 0: its node weights are not degrees). */
static exo_status arc_total(exo_leiden_level *lv, double *total) {
  double t = 0.0;
  exo_status s = EXO_OK;
  for (uint64_t first = 0; first < lv->n && !s; first += EXO_LEIDEN_BLOCK) {
    if ((s = load_block(lv, first)) != EXO_OK) return s;
    for (uint64_t v = first; v < first + lv->rd.blk_cnt && !s; v++)
      FOR_ARCS(lv, v, u, w, s, { t += w; });
  }
  if (!s) *total = t;
  return s;
}

static exo_status one_iteration(const exo_csr_files *csr, const exo_leiden_params *p,
                                char *files[2][F_COUNT], const char *start_path,
                                const char *degrees, int *have_degrees, double *cpm_total,
                                exo_ctx *ctx, exo_leiden_result *res, double *quality,
                                uint64_t **labels) {
  exo_csr_files cur = *csr;
  double wdiv = 1.0;           /* the coarse levels' weight divisor */
  exo_leiden_params pc = *p;   /* the coarse levels' parameters */
  const char *cur_w = *have_degrees ? degrees : NULL, *cur_init = start_path, *cur_top = NULL;
  int slot = 0;
  uint8_t *held = NULL; /* the next level's adjacency, when aggregate kept it */
  for (uint32_t level = 0;; level++) {
    exo_leiden_level *lv = NULL;
    const double o0 = exo_now_seconds(), oc0 = exo_thread_cpu_seconds();
    exo_status s = level_open(&cur, level == 0 ? p : &pc, cur_w, cur_init, level == 0,
                              level == 0 ? degrees : NULL, held, ctx, &lv);
    held = NULL;
    const double t_open = exo_now_seconds() - o0, c_open = exo_thread_cpu_seconds() - oc0;
    if (!s && level == 0 && p->objective == EXO_LEIDEN_MODULARITY) *have_degrees = 1;
    if (s) return s;
    uint64_t moves = 0, sweeps = 0, merges = 0;
    /* wall seconds of each phase, and the CPU seconds of the caller's
     * thread in it (with threads > 1 its serial part: the workers' jobs
     * run while it waits) */
    double t0 = exo_now_seconds(), t_move, t_refine = 0.0, t_agg = 0.0;
    double c0 = exo_thread_cpu_seconds(), c_move, c_refine, c_agg;
    double p0 = exo_process_cpu_seconds(), p_move, p_refine, p_agg;
    if ((s = exo_leiden_level_move(lv, &moves, &sweeps)) != EXO_OK) goto fail;
    t_move = exo_now_seconds() - t0;
    c_move = exo_thread_cpu_seconds() - c0;
    p_move = exo_process_cpu_seconds() - p0;
    t0 = exo_now_seconds();
    c0 = exo_thread_cpu_seconds();
    p0 = exo_process_cpu_seconds();
    res->levels++;
    res->moves += moves;
    res->sweeps += sweeps;
    uint64_t k = exo_leiden_level_communities(lv);
    int last = k == cur.n;
    if (!last) {
      /* the quality is needed when this turns out to be the last level;
       * the refinement needs the member counts it reads first */
      if ((s = exo_leiden_level_refine(lv, &merges)) != EXO_OK) goto fail;
      res->merges += merges;
      /* Nothing merged: only when every node of every community of size
       * > 1 sits within rounding of the threshold; stop here with the
       * moved partition (whose state refine overwrote: rebuild it). */
      last = merges == 0;
      if (last && (s = init_communities(lv)) != EXO_OK) goto fail;
    }
    t_refine = exo_now_seconds() - t0;
    c_refine = exo_thread_cpu_seconds() - c0;
    p_refine = exo_process_cpu_seconds() - p0;
    t0 = exo_now_seconds();
    c0 = exo_thread_cpu_seconds();
    p0 = exo_process_cpu_seconds();
    exo_csr_files coarse = {files[slot][F_OFF], files[slot][F_ADJ], 0, 0, 0};
    if (last) {
      if ((s = exo_leiden_level_quality(lv, quality)) != EXO_OK) goto fail;
      if (p->objective == EXO_LEIDEN_CPM) *quality *= wdiv; /* see weight_divisor */
    } else {
      if (level == 0) {
        double total = lv->total_w; /* modularity: the degrees' sum */
        if (p->objective == EXO_LEIDEN_CPM) {
          if (*cpm_total < 0.0 && (s = arc_total(lv, cpm_total)) != EXO_OK) goto fail;
          total = *cpm_total;
        }
        lv->wdiv = wdiv = weight_divisor(total);
        if (p->objective == EXO_LEIDEN_CPM) pc.resolution = p->resolution / wdiv;
        if (wdiv > 1.0)
          exo_message(ctx, "leiden: arc weights sum to %.10g: coarse levels hold them divided by "
                      "%.10g", total, wdiv);
      }
      if ((s = aggregate(lv, &coarse, files[slot][F_W], files[slot][F_INIT], &held)) != EXO_OK)
        goto fail;
      if ((s = map_top(lv, cur_top, files[slot][F_TOP], csr->n)) != EXO_OK) goto fail;
    }
    t_agg = exo_now_seconds() - t0;
    c_agg = exo_thread_cpu_seconds() - c0;
    p_agg = exo_process_cpu_seconds() - p0;
    exo_message(ctx, "leiden level %u: %llu nodes, %llu arcs: %llu communities in %.1f s", level,
                (unsigned long long)cur.n, (unsigned long long)cur.m, (unsigned long long)k,
                t_open + t_move + t_refine + t_agg);
    exo_detail(ctx, "leiden level %u: %llu nodes, %llu arcs, %llu sweeps, %llu moves, "
                "%llu communities, %llu merged by refinement; seconds: moving %.3f, "
                "refinement %.3f, %s %.3f; caller's thread CPU: %.3f, %.3f, %.3f; "
                "process CPU: %.3f, %.3f, %.3f; opening the level %.3f s (caller's thread "
                "CPU %.3f)",
                level, (unsigned long long)cur.n, (unsigned long long)cur.m,
                (unsigned long long)sweeps, (unsigned long long)moves, (unsigned long long)k,
                (unsigned long long)merges, t_move, t_refine,
                last ? "quality" : "aggregation", t_agg, c_move, c_refine, c_agg, p_move, p_refine,
                p_agg, t_open, c_open);
    if (last) return final_labels(lv, cur_top, csr->n, labels, ctx);
    exo_leiden_level_free(lv);
    if (level > 0) /* the previous coarse level */
      for (int f = 0; f < F_COUNT; f++) exo_unlink(files[slot ^ 1][f]);
    cur = coarse;
    cur_w = files[slot][F_W];
    cur_init = files[slot][F_INIT];
    cur_top = files[slot][F_TOP];
    slot ^= 1;
    continue;
  fail:
    free(held);
    exo_leiden_level_free(lv);
    return ctx->err.code ? ctx->err.code : s;
  }
}

exo_status exo_leiden_run(const exo_csr_files *csr, const exo_leiden_params *params,
                          exo_ctx *ctx, exo_leiden_result *result) {
  if (result) memset(result, 0, sizeof *result);
  if (!csr || !params || !result || !csr->offsets_path || !csr->adj_path || !params->tmpdir)
    return EXO_FAIL(ctx, EXO_EARG, "exo_leiden_run: NULL argument");
  if (params->objective != EXO_LEIDEN_MODULARITY && params->objective != EXO_LEIDEN_CPM)
    return EXO_FAIL(ctx, EXO_EARG, "leiden: unknown objective %d", (int)params->objective);
  if (!isfinite(params->resolution) || params->resolution < 0.0)
    return EXO_FAIL(ctx, EXO_EARG, "leiden: the resolution must be a finite number >= 0");
  if (params->resolution_per_strength && params->objective != EXO_LEIDEN_CPM)
    return EXO_FAIL(ctx, EXO_EARG,
                    "leiden: a resolution relative to the mean strength needs objective CPM");
  if (params->resolution_per_component && !params->resolution_per_strength)
    return EXO_FAIL(ctx, EXO_EARG,
                    "leiden: a resolution per component needs one relative to the mean strength");
  const uint64_t n = csr->n;
  if (n == 0) {
    result->resolution = params->resolution_per_strength ? 0.0 : params->resolution;
    result->labels = malloc(8);
    return result->labels ? EXO_OK : exo_fail_oom(ctx, "Leiden's labels", 8);
  }
  char *dir = NULL;
  exo_status s = exo_tempdir_create(params->tmpdir, &dir, ctx);
  if (s) return s;
  exo_leiden_params p = *params;
  p.tmpdir = dir;
  char *comp_w = NULL;
  result->resolution = params->resolution;
  /* CPM: the input graph's arc weight total (weight_divisor), found once */
  double cpm_total = -1.0;
  if (params->resolution_per_strength && params->objective == EXO_LEIDEN_CPM) {
    /* CPM's g = resolution * 2W / n, fixed here for every level and
     * iteration (coarse node weights are member counts: the scale of g
     * must not change between levels) */
    exo_csr_strength st = {0.0, 0, 0.0};
    comp_w = params->resolution_per_component ? exo_path_join(dir, "components.bin") : NULL;
    if (params->resolution_per_component && !comp_w)
      s = exo_fail_oom(ctx, "the paths of Leiden's files", 0);
    else /* input self-loops count twice, as in write_degrees */
      s = exo_csr_strengths(csr, 1, EXO_IO_DEFAULT_BUF, comp_w, params->strength_linked, &st, ctx);
    if (s) {
      free(comp_w);
      exo_tempdir_remove(dir);
      free(dir);
      memset(result, 0, sizeof *result);
      return ctx->err.code ? ctx->err.code : s;
    }
    cpm_total = st.sum2w; /* the same sum: no pass of its own */
    const uint64_t over = params->strength_linked ? st.linked : n;
    const double mean = st.mean;
    p.resolution = params->resolution * mean;
    p.resolution_per_strength = 0;
    result->resolution = p.resolution;
    exo_message(ctx, "leiden: CPM resolution %.10g = %.10g x mean strength %.10g (over %llu %s)%s",
                p.resolution, params->resolution, mean, (unsigned long long)over,
                params->strength_linked ? "nodes with an edge" : "nodes",
                comp_w ? ", scaled in each connected component by its own mean strength" : "");
  }
  static const char *const names[F_COUNT] = {"offsets", "adjacency", "weights", "init", "top"};
  char *files[2][F_COUNT];
  memset(files, 0, sizeof files);
  char *start = exo_path_join(dir, "start.bin");
  /* the input graph's node weights: written by level 0 (modularity), or
   * the per-component weights written above */
  char *degrees = comp_w ? comp_w : exo_path_join(dir, "degrees.bin");
  int have_degrees = comp_w != NULL;
  int paths_ok = start != NULL && degrees != NULL;
  for (int i = 0; i < 2; i++)
    for (int f = 0; f < F_COUNT; f++) {
      char name[32];
      snprintf(name, sizeof name, "level%d.%s", i, names[f]);
      files[i][f] = exo_path_join(dir, name);
      paths_ok = paths_ok && files[i][f];
    }
  uint64_t *labels = NULL;
  if (!paths_ok) {
    s = exo_fail_oom(ctx, "the paths of Leiden's files", 0);
    goto done;
  }
  const uint32_t maxit = params->iterations ? params->iterations : EXO_LEIDEN_MAX_ITERATIONS;
  double prevq = -INFINITY;
  for (uint32_t it = 0; it < maxit; it++) {
    if (labels) { /* start from the previous iteration's communities */
      s = write_ids(start, labels, n, ctx);
      free(labels);
      labels = NULL;
      if (s) goto done;
    }
    double q = 0.0;
    const uint64_t moves_before = result->moves;
    s = one_iteration(csr, &p, files, it ? start : NULL, degrees, &have_degrees, &cpm_total, ctx,
                      result, &q, &labels);
    for (int i = 0; i < 2; i++)
      for (int f = 0; f < F_COUNT; f++) exo_unlink(files[i][f]);
    if (s) goto done;
    exo_message(ctx, "leiden iteration %u: quality %.10g, %llu moves", it + 1, q,
                (unsigned long long)(result->moves - moves_before));
    result->iterations++;
    result->quality = q;
    if (it > 0 && q < prevq) {
      /* this round lowered the score (moves made in lanes at the same time
       * can): the result is the previous round's partition, which this
       * round started from and start.bin still holds */
      exo_message(ctx, "leiden: iteration %u lowered the quality; keeping iteration %u's "
                  "communities (quality %.10g)", it + 1, it, prevq);
      s = read_ids(start, labels, n, ctx);
      if (s) goto done;
      result->quality = prevq;
      break;
    }
    /* no move at any level: the partition is the one this iteration
     * started from, and so would the next one be */
    if (it > 0 && (result->moves == moves_before || !(q > prevq + LD_EPS * fabs(prevq))))
      break;
    prevq = q;
  }
done:
  if (s) {
    free(labels);
    labels = NULL;
  }
  result->labels = labels;
  for (int i = 0; i < 2; i++)
    for (int f = 0; f < F_COUNT; f++) free(files[i][f]);
  free(start);
  free(degrees);
  exo_tempdir_remove(dir);
  free(dir);
  if (s) {
    memset(result, 0, sizeof *result);
    return ctx->err.code ? ctx->err.code : s;
  }
  return EXO_OK;
}
