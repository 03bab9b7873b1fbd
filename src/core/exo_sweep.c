/* exo_sweep.c: block order, lanes and epochs (exo_sweep.h). */
#include "exo_sweep.h"

#include <stdlib.h>

#include "exo_par.h"

void exo_sweep_order(uint32_t perm[EXO_SWEEP_BLOCK], exo_rng *rng) {
  for (uint32_t i = 0; i < EXO_SWEEP_BLOCK; i++) perm[i] = i;
  for (uint32_t i = EXO_SWEEP_BLOCK - 1; i > 0; i--) {
    uint32_t j = (uint32_t)exo_rng_below(rng, (uint64_t)i + 1);
    uint32_t t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
}

uint32_t exo_sweep_lane_count(uint64_t n, uint32_t most, uint32_t min_blocks, uint32_t cap) {
  uint64_t L = (n + EXO_SWEEP_BLOCK - 1) / EXO_SWEEP_BLOCK / min_blocks;
  if (L > most) L = most;
  if (cap && L > cap) L = cap;
  return L < 1 ? 1u : (uint32_t)L;
}

exo_status exo_sweep_cut(uint64_t n, uint64_t m, uint32_t L, exo_sweep_off_fn off_at, void *user,
                         void *lanes, size_t stride) {
  const uint64_t nb = (n + EXO_SWEEP_BLOCK - 1) / EXO_SWEEP_BLOCK;
  uint64_t b = 0;
  for (uint64_t i = 0; i < L; i++) {
    exo_sweep_lane *ln = exo_sweep_lane_at(lanes, stride, (uint32_t)i);
    ln->blk_lo = b;
    if (i + 1 == L) {
      b = nb;
    } else { /* entries before lane i + 1: (i + 1) m / L */
      uint64_t target = m / L * (i + 1) + m % L * (i + 1) / L, off = 0;
      b++;
      while (b < nb - (L - 1 - i)) {
        exo_status s = off_at(user, b * EXO_SWEEP_BLOCK, &off);
        if (s) return s;
        if (off >= target) break;
        b++;
      }
    }
    ln->blk_hi = b;
    ln->lo = ln->blk_lo * EXO_SWEEP_BLOCK;
    ln->hi = b * EXO_SWEEP_BLOCK < n ? b * EXO_SWEEP_BLOCK : n;
  }
  return EXO_OK;
}

int exo_sweep_outbox_push(exo_sweep_lane *ln, uint64_t u) {
  if (ln->nout == ln->out_cap) {
    size_t cap = ln->out_cap ? ln->out_cap * 2 : 1024;
    uint64_t *o = realloc(ln->outbox, cap * sizeof *o);
    if (!o) return -1;
    ln->outbox = o;
    ln->out_cap = cap;
  }
  ln->outbox[ln->nout++] = u;
  return 0;
}

uint64_t exo_sweep_last_active(const uint64_t *bits, uint64_t from, uint64_t to) {
  while (to > from) {
    uint64_t v = to - 1;
    uint64_t w = bits[v >> 6] & (~(uint64_t)0 >> (63 - (v & 63)));
    if (w) {
      uint64_t u = (v & ~(uint64_t)63) + 63 - (uint64_t)__builtin_clzll(w);
      return u >= from ? u : UINT64_MAX;
    }
    to = v & ~(uint64_t)63;
  }
  return UINT64_MAX;
}

unsigned exo_sweep_block_count(const uint64_t *bits, uint64_t first, uint64_t n) {
  uint64_t cnt = n - first;
  if (cnt > EXO_SWEEP_BLOCK) cnt = EXO_SWEEP_BLOCK;
  unsigned c = 0;
  for (uint64_t i = 0; i < cnt; i += 64) {
    uint64_t word = bits[(first + i) >> 6];
    if (cnt - i < 64) word &= ((uint64_t)1 << (cnt - i)) - 1;
    c += (unsigned)__builtin_popcountll(word);
  }
  return c;
}

int exo_sweep_lanes_left(void *lanes, size_t stride, uint32_t nlanes) {
  for (uint32_t i = 0; i < nlanes; i++) {
    const exo_sweep_lane *ln = exo_sweep_lane_at(lanes, stride, i);
    if (ln->cursor < ln->blk_hi) return 1;
  }
  return 0;
}

void exo_sweep_rewind(void *lanes, size_t stride, uint32_t nlanes) {
  for (uint32_t i = 0; i < nlanes; i++) {
    exo_sweep_lane *ln = exo_sweep_lane_at(lanes, stride, i);
    ln->cursor = ln->blk_lo;
  }
}

static exo_status epoch_job(void *arg, uint32_t index, exo_ctx *ctx) {
  exo_sweep_epoch *e = arg;
  exo_status s = EXO_OK;
  for (;;) {
    unsigned i = atomic_fetch_add(&e->next, 1u);
    if (i >= e->nlanes || s) break;
    const exo_sweep_lane *ln = exo_sweep_lane_at(e->lanes, e->stride, i);
    if (ln->cursor < ln->blk_hi) s = e->run(e->user, index, i, ctx);
  }
  return s;
}

exo_status exo_sweep_epoch_run(exo_sweep_epoch *e, uint32_t workers, uint64_t done_before,
                               exo_ctx *ctx) {
  atomic_store(&e->next, 0u);
  return exo_par_run_from(workers, epoch_job, e, EXO_STAGE_CLUSTER, done_before, 0, ctx);
}
