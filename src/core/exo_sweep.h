/* exo_sweep.h: the sweep engine that label propagation (exo_lp.c) and
 * Leiden's local moving (exo_leiden_move.c) run their rules on: the seeded block
 * order, lanes cut from the offsets, epochs with a sync point, the scans of
 * the active bitmap (an exo_bits.h bitmap) and the cross-lane activation
 * outboxes. A rule keeps its own per-node state and its own inner loop; the
 * engine owns the order.
 *
 * The determinism contract (stated once, for every rule on top):
 *   - Nodes are visited in blocks of EXO_SWEEP_BLOCK ids (a power of two),
 *     blocks in increasing order. Inside a block the order is the sweep's
 *     permutation (exo_sweep_order: one Fisher-Yates shuffle of
 *     0..EXO_SWEEP_BLOCK-1 per sweep from the rule's seeded stream) XORed
 *     with a per-block mask drawn from the lane's own seeded stream.
 *   - The blocks are cut into L lanes (exo_sweep_lanes: L = min(most,
 *     blocks / min_blocks, cap if set), at least 1), each a run of whole
 *     blocks holding about m / L adjacency entries; the cut points come
 *     from the offsets only, so L and the cut depend on n and m (and the
 *     testing cap), never on `threads` or the memory limit.
 *   - A sweep is a series of epochs (exo_sweep_epoch): every lane runs its
 *     next blocks, then the rule's sync point runs on the caller's thread
 *     and applies what the lanes deferred in lane order (changes, then the
 *     outboxes' activations, each lane's in the order they were added).
 *     Inside a lane the rule reads its own lane live and other lanes from
 *     the copy published at the last sync point. What a lane does in an
 *     epoch therefore depends on the state at the epoch's start and on the
 *     lane alone, never on which thread runs it or when: threads change
 *     only the time.
 *
 * Memory: a lane is 64 bytes plus its outbox (8 bytes per deferred
 * activation, at most the arcs its epoch leaves the lane by). */
#ifndef EXO_SWEEP_H
#define EXO_SWEEP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "exo_bits.h"
#include "exo_ctx.h"
#include "exo_rng.h"

#define EXO_SWEEP_BLOCK 1024u /* ids per block (power of two) */

/* The part of a lane the engine owns; a rule's lane struct embeds it as
 * its first member. */
typedef struct exo_sweep_lane {
  uint64_t lo, hi;         /* nodes [lo, hi) */
  uint64_t blk_lo, blk_hi; /* blocks [blk_lo, blk_hi) */
  uint64_t cursor;         /* next block of this sweep */
  uint64_t *outbox;        /* other lanes' nodes to activate at the sync */
  size_t nout, out_cap;
  int64_t nactive_delta;   /* own active bits set minus cleared this epoch */
} exo_sweep_lane;

/* A fresh permutation of 0..EXO_SWEEP_BLOCK-1 from rng (Fisher-Yates,
 * EXO_SWEEP_BLOCK - 1 draws). */
void exo_sweep_order(uint32_t perm[EXO_SWEEP_BLOCK], exo_rng *rng);

/* The number of lanes for n nodes: min(most, blocks / min_blocks, cap if
 * cap > 0), at least 1. */
uint32_t exo_sweep_lane_count(uint64_t n, uint32_t most, uint32_t min_blocks, uint32_t cap);

/* The offset (adjacency entries before node `node`) for the lane cut. */
typedef exo_status (*exo_sweep_off_fn)(void *user, uint64_t node, uint64_t *off);

/* Cut the blocks of n nodes (m entries) into L lanes: lane i (at
 * (char *)lanes + i * stride) gets blocks [blk_lo, blk_hi) and nodes
 * [lo, hi); its cut is the first block (leaving a block for each later
 * lane) whose first node has at least (i + 1) m / L entries before it.
 * Nothing else of a lane is touched. */
exo_status exo_sweep_cut(uint64_t n, uint64_t m, uint32_t L, exo_sweep_off_fn off_at, void *user,
                         void *lanes, size_t stride);

/* Append u to the lane's outbox; -1 when out of memory. */
int exo_sweep_outbox_push(exo_sweep_lane *ln, uint64_t u);

/* First set bit of `bits` in [from, to), or `to`. */
static inline uint64_t exo_sweep_next_active(const uint64_t *bits, uint64_t from, uint64_t to) {
  while (from < to) {
    uint64_t w = bits[from >> 6] >> (from & 63);
    if (w) {
      uint64_t v = from + (uint64_t)__builtin_ctzll(w);
      return v < to ? v : to;
    }
    from = (from | 63) + 1;
  }
  return to;
}

/* Last set bit of `bits` in [from, to), or UINT64_MAX. */
uint64_t exo_sweep_last_active(const uint64_t *bits, uint64_t from, uint64_t to);

/* The visit of one block [first, end) (end - first <= EXO_SWEEP_BLOCK) of
 * a rule that visits only active nodes (label propagation's lanes, the
 * distributed supersteps): 0 when no bit of `active` is set there, and
 * then no mask is drawn; else *lo and *hi are its first and last set bits
 * (the rule reads their lists ahead) and *mask is drawn from `masks`.
 * The rule then walks i = 0 .. EXO_SWEEP_BLOCK - 1 with
 * exo_sweep_block_node and decides itself whether a node it gets takes
 * part (the distributed mode lets a boundary node sit a superstep out,
 * its bit still set) before clearing its bit. */
static inline int exo_sweep_block_begin(const uint64_t *active, uint64_t first, uint64_t end,
                                        exo_rng *masks, uint64_t *lo, uint64_t *hi,
                                        uint32_t *mask) {
  *lo = exo_sweep_next_active(active, first, end);
  if (*lo >= end) return 0;
  *hi = exo_sweep_last_active(active, first, end);
  *mask = (uint32_t)exo_rng_below(masks, EXO_SWEEP_BLOCK);
  return 1;
}

/* Node i of the block's order (perm[i] ^ mask), or UINT64_MAX when it lies
 * past `end` or is not active. */
static inline uint64_t exo_sweep_block_node(const uint64_t *active, const uint32_t *perm,
                                            uint32_t mask, uint32_t i, uint64_t first,
                                            uint64_t end) {
  uint64_t v = first + (uint64_t)(perm[i] ^ mask);
  return v < end && exo_bits_get(active, v) ? v : UINT64_MAX;
}

/* Set bits of block [first, first + EXO_SWEEP_BLOCK) of n. */
unsigned exo_sweep_block_count(const uint64_t *bits, uint64_t first, uint64_t n);

/* One epoch: run(user, worker, lane, ctx) for every lane whose cursor has
 * not reached its last block, lanes handed out in order to `workers` jobs
 * of exo_par_run_from (a worker runs lanes one after another; its index
 * says whose buffers it uses). The sync point is the caller's, after. */
typedef exo_status (*exo_sweep_lane_fn)(void *user, uint32_t worker, uint32_t lane, exo_ctx *ctx);
typedef struct exo_sweep_epoch {
  void *lanes;     /* the rule's lane array, each starting with an exo_sweep_lane */
  size_t stride;   /* its element size */
  uint32_t nlanes;
  exo_sweep_lane_fn run;
  void *user;
  atomic_uint next;
} exo_sweep_epoch;

static inline exo_sweep_lane *exo_sweep_lane_at(void *lanes, size_t stride, uint32_t i) {
  return (exo_sweep_lane *)(void *)((char *)lanes + (size_t)i * stride);
}

/* 1 while some lane has blocks left in this sweep. */
int exo_sweep_lanes_left(void *lanes, size_t stride, uint32_t nlanes);

/* Reset every lane's cursor to its first block (a new sweep). */
void exo_sweep_rewind(void *lanes, size_t stride, uint32_t nlanes);

exo_status exo_sweep_epoch_run(exo_sweep_epoch *e, uint32_t workers, uint64_t done_before,
                               exo_ctx *ctx);

#endif
