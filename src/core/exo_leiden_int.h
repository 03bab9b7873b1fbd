/* exo_leiden_int.h: PRIVATE to the Leiden files of the core; no other
 * module includes it (the contract of the module is exo_leiden.h). It
 * holds what crosses between them: the level (struct exo_leiden_level), a
 * thread's block reader (ld_reader), the arc loop macros and the helpers
 * one file defines and others call (exo_ld_*). The community and refined
 * ids are exo_ids arrays (exo_ids.h: u32 while every id fits, else u64),
 * the bitmaps exo_bits.h's.
 *
 * Every pass over a level walks the nodes block by block (EXO_LEIDEN_BLOCK
 * ids): the block's offsets and node weights are read from their files,
 * then its adjacency lists, whole when they fit the read buffer together,
 * else one list (or one buffer-sized chunk of a long list) at a time. The
 * sequential passes (weights, E(v, S - v), aggregation, quality) take the
 * blocks in id order; local moving and refinement take them in id order
 * too, with the nodes of a block in a seeded random order. A thread that
 * reads blocks has its own ld_reader (buffer, block, tally): local moving's
 * lanes and refinement's first pass run several.
 *
 * What each file owns:
 *   exo_leiden.c         the public entry exo_leiden_run and its driver (one
 *                        iteration over the levels, the input nodes' coarse
 *                        ids, the final labels, the weight divisor), the
 *                        level's quality and partition
 *   exo_leiden_read.c    the level: open (exo_ld_level_open) and free, the
 *                        block reader (exo_ld_rd_load), the readers of
 *                        passes on several threads, the degree pass, the
 *                        init and id files, the memory rules of the read
 *                        buffer and of a held level
 *   exo_leiden_move.c    local moving: the serial sweep and the lanes
 *   exo_leiden_refine.c  refinement: singletons, then merging
 *   exo_leiden_agg.c     aggregation: the tally pass into the sorter or
 *                        the coarse rows built in memory (exo_ld_aggregate)
 *
 * The functions below follow the core's rules: status codes, errors in the
 * ctx, never exit or abort. */
#ifndef EXO_LEIDEN_INT_H
#define EXO_LEIDEN_INT_H

#include "exo_budget.h"
#include "exo_quality.h"
#include "exo_leiden.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exo_bits.h"
#include "exo_csr.h"
#include "exo_ids.h"
#include "exo_io.h"
#include "exo_platform.h"
#include "exo_record.h"
#include "exo_rng.h"
#include "exo_sweep.h"
#include "exo_tally.h"

_Static_assert(EXO_LEIDEN_BLOCK == EXO_SWEEP_BLOCK, "one block size");

#define LD_NONE UINT64_MAX
#define LD_EPS 1e-12
#define LD_POLL_BLOCKS 16u
#define LD_PREFETCH 16u /* arcs ahead whose neighbour's entry is prefetched */
#define LD_NC_ARCS 65536u /* longest list whose pairs a lane's reader keeps (512 KiB) */

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
                      node's degree (ld_rd_tally_start) */
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
  exo_ids comm, refined;
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

static inline double *ld_as_dbl(uint64_t *p) { return (double *)(void *)p; }

/* Clear rd's gain tally for a visit of node v (block loaded in rd) and fit
 * the table to v's degree: the smallest power of two of at least
 * 2 * degree + 2 slots (16 at least, the allocation at most), so a short
 * list's entries share a few cache lines instead of spreading over a table
 * sized for the level's longest list. The gains and their insertion order
 * (what every rule reads) do not depend on the table's size. */
static inline void ld_rd_tally_start(ld_reader *rd, uint64_t v) {
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
 * every LD_POLL_BLOCKS blocks. (exo_leiden_read.c) */
exo_status exo_ld_rd_load(exo_leiden_level *lv, ld_reader *rd, uint64_t first, int whole);

static inline exo_status ld_load_block_part(exo_leiden_level *lv, uint64_t first, int whole) {
  return exo_ld_rd_load(lv, &lv->rd, first, whole);
}

static inline exo_status ld_load_block(exo_leiden_level *lv, uint64_t first) {
  return ld_load_block_part(lv, first, 1);
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

/* The error of an arc of v to a neighbour u >= n. (exo_leiden_read.c) */
exo_status exo_ld_bad_nbr(exo_leiden_level *lv, exo_ctx *ctx, uint64_t v, uint64_t u);

/* Iterate the arcs of node v (in the block loaded in reader rd): the body
 * sees u and the weight w = |w| (self-loops of the input graph doubled).
 * pf: the id array the body looks neighbours up in (NULL: none); its
 * entries for the neighbours LD_PREFETCH arcs ahead are prefetched (pfb: a
 * second such array). */
#define FOR_ARCS_RD(lv, rd, v, u, w, s, pf, pfb, body)                            \
  do {                                                                            \
    uint64_t lo_ = (rd)->blk_off[(v) - (rd)->blk_first];                          \
    uint64_t hi_ = (rd)->blk_off[(v) - (rd)->blk_first + 1];                      \
    const exo_ids *pf_ = (pf);                                                   \
    const uint32_t *pf32_ = pf_ ? pf_->a32 : NULL;                                \
    const uint64_t *pf64_ = pf_ ? pf_->a64 : NULL;                                \
    const exo_ids *pfb_ = (pfb);                                                 \
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
          (s) = exo_ld_bad_nbr((lv), (rd)->ctx, (v), u);                          \
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

/* ---- exo_leiden_read.c ---------------------------------------------------- */

/* Open a file read-only into *fd (an error in ctx else). */
exo_status exo_ld_open_ro(const char *path, int *fd, exo_ctx *ctx);

/* Threads of a level's passes that split its blocks or communities
 * (the degree pass, refinement, the aggregation's tally): the level's
 * threads on levels of 2 * EXO_LEIDEN_LANE_MIN_BLOCKS blocks or more, and
 * on smaller ones of 2 blocks or more with EXO_LEIDEN_THREAD_ARCS arcs
 * (coarse levels of a few thousand nodes with hundreds of arcs each); one
 * thread on the others. */
uint32_t exo_ld_level_threads(const exo_leiden_level *lv);

/* W readers of level lv (NULL: out of memory). A level held whole in the
 * read buffer is shared by all (never written while they run); else the
 * buffer's entries are split between them, the first reusing the level's
 * buffer (whose contents are then dropped). Each has a gain tally. */
ld_reader *exo_ld_readers_open(exo_leiden_level *lv, uint32_t W);
void exo_ld_readers_free(ld_reader *rds, uint32_t W);

/* Open a file of n u64 ids (written by write_ids) for reading; an error
 * if it holds another count. */
exo_status exo_ld_open_ids(exo_reader *r, const char *path, uint64_t n, exo_ctx *ctx);

/* W_C, member counts and the empty-id stack from comm and the weights. */
exo_status exo_ld_init_communities(exo_leiden_level *lv);

/* A level that the previous level's aggregation built in memory is
 * handed over, held whole, when its adjacency takes at most this:
 * its share (exo_budget.h), or the read buffer where that is more. (A level read
 * from its file is held when it fits the read buffer: reading a larger one
 * whole made local moving slower than reading it a block at a time.) */
uint64_t exo_ld_hold_bytes(const exo_leiden_params *p);

/* The bytes a held level takes beyond the read buffer it would otherwise
 * have (the aggregation's budget leaves them out). */
uint64_t exo_ld_held_extra(const exo_leiden_level *lv);

/* exo_leiden_level_open; with save_degrees (input graph, no weights_path)
 * the degrees are written there and the file is kept. adj_mem (NULL:
 * none): the level's adjacency, csr->m narrow entries, that
 * the previous level's aggregation built in memory and did not write; the
 * level owns it from here (freed on every path). */
exo_status exo_ld_level_open(const exo_csr_files *csr, const exo_leiden_params *params,
                             const char *weights_path, const char *init_path, int input_graph,
                             const char *save_degrees, uint8_t *adj_mem, exo_ctx *ctx,
                             exo_leiden_level **out);

/* ---- exo_leiden_refine.c -------------------------------------------------- */

/* Level 0 with atoms: the refined partition is the atoms (ids < n), W_R
 * their node weights' sums; *natoms the distinct atoms. */
exo_status exo_ld_level_set_atoms(exo_leiden_level *lv, const uint64_t *atoms, uint64_t *natoms);

/* ---- exo_leiden_agg.c ----------------------------------------------------- */

/* exo_leiden_level_aggregate; keep (NULL: always write the files): as
 * agg_inmem's, the coarse adjacency in memory for the next level. */
exo_status exo_ld_aggregate(exo_leiden_level *lv, exo_csr_files *coarse, const char *weights_path,
                            const char *init_path, uint8_t **keep);

#endif
