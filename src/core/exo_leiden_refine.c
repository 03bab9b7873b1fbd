/* exo_leiden_refine.c: Leiden's refinement (exo_leiden.h; what crosses the
 * Leiden files: exo_leiden_int.h): every node a singleton of its
 * community, then the merging pass, on several threads where the level
 * has the blocks for them. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_leiden_int.h"

#include "exo_par.h"

/* Refinement's first pass on blocks [b0, b1), reader rd: every node a
 * singleton, W_R = w_v (x1), E(R, S - R) = E(v, S - v) (x2). Each node's
 * values depend on the node alone, so the blocks may be split between
 * threads. */
static exo_status singletons_range(exo_leiden_level *lv, ld_reader *rd, uint64_t b0,
                                   uint64_t b1) {
  double *wr = ld_as_dbl(lv->x1), *ext = ld_as_dbl(lv->x2);
  exo_status s = EXO_OK;
  for (uint64_t b = b0; b < b1 && !s; b++) {
    const uint64_t first = b * EXO_LEIDEN_BLOCK;
    if ((s = exo_ld_rd_load(lv, rd, first, 1)) != EXO_OK) return s;
    for (uint64_t v = first; v < first + rd->blk_cnt && !s; v++) {
      uint64_t c = exo_ids_get(&lv->comm, v);
      double e = 0.0;
      FOR_ARCS_RD(lv, rd, v, u, w, s, &lv->comm, NULL, {
        if (u != v && exo_ids_get(&lv->comm, u) == c) e += w;
      });
      exo_ids_set(&lv->refined, v, v);
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
  double *wr = ld_as_dbl(lv->x1);
  uint64_t *stack = lv->x2;
  lv->x2 = (uint64_t *)(void *)lv->own_w;
  lv->own_w = (double *)(void *)stack; /* freed by the caller */
  exo_status s = EXO_OK;
  for (uint64_t first = 0; first < lv->n && !s; first += EXO_LEIDEN_BLOCK)
    if ((s = exo_ld_rd_load(lv, &lv->rd, first, 0)) == EXO_OK)
      for (uint64_t v = first; v < first + lv->rd.blk_cnt; v++) {
        exo_ids_set(&lv->refined, v, v);
        wr[v] = lv->rd.blk_w[v - first];
      }
  return s;
}

/* The refinement's passes as exo_par_run jobs (ld_refine, exo_leiden_int.h). */

static exo_status singletons_job(void *arg, uint32_t index, exo_ctx *ctx) {
  ld_refine *rf = arg;
  ld_reader *rd = &rf->rds[index];
  rd->ctx = ctx;
  return singletons_range(rf->lv, rd, rf->blocks * index / rf->parts,
                          rf->blocks * (index + 1) / rf->parts);
}

/* The merging pass's bitmap is shared by threads that own different
 * communities (whose nodes may share a word): it is read and set with
 * exo_bits.h's relaxed atomics. */

/* Does block [first, first + EXO_LEIDEN_BLOCK) hold a node whose bit is
 * clear? (A bit once set stays set, so a "no" stays true.) */
static int block_has_clear_bit(exo_leiden_level *lv, uint64_t first) {
  uint64_t cnt = lv->n - first;
  if (cnt > EXO_LEIDEN_BLOCK) cnt = EXO_LEIDEN_BLOCK;
  for (uint64_t i = 0; i < cnt; i += 64) { /* first is a multiple of 64 */
    uint64_t full = cnt - i < 64 ? ((uint64_t)1 << (cnt - i)) - 1 : UINT64_MAX;
    if ((exo_bits_word_atomic(lv->bits, (size_t)((first + i) >> 6)) & full) != full) return 1;
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
  double *wr = ld_as_dbl(lv->x1), *ext = ld_as_dbl(lv->x2);
  const double gp = lv->gp;
  exo_tally *t = &rd->t;
  exo_status s = EXO_OK;
  *merges = 0;
  for (uint64_t first = 0, b = 0; first < n; first += EXO_LEIDEN_BLOCK, b++) {
    if (!block_has_clear_bit(lv, first)) continue; /* every node already merged */
    if ((s = exo_ld_rd_load(lv, rd, first, 1)) != EXO_OK) return s;
    for (uint32_t i = 0; i < EXO_LEIDEN_BLOCK; i++) {
      uint64_t v = first + (lv->perm[i] ^ masks[b]);
      if (v >= n) continue;
      const uint64_t S = exo_ids_get(&lv->comm, v);
      if (merge_part_of(S, parts) != part || exo_bits_get_atomic(lv->bits, v))
        continue;
      const double wv = rd->blk_w[v - first], WS = lv->tot[S];
      const double ev = ext[v];
      if (ev < exo_quality_expected(gp, wv, WS - wv)) continue; /* not well-connected */
      ld_rd_tally_start(rd, v);
      FOR_ARCS_RD(lv, rd, v, u, w, s, &lv->comm, &lv->refined, {
        if (u != v && exo_ids_get(&lv->comm, u) == S) {
          const uint64_t r = exo_ids_get(&lv->refined, u);
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
        if (ext[r] < exo_quality_expected(gp, wr[r], WS - wr[r])) continue; /* R not well-connected */
        double g = exo_quality_gain(e->sum, gp, wv, wr[r]);
        if (g >= 0.0 && (to == LD_NONE || g > best)) { /* zero gains too, as the paper */
          best = g;
          to = r;
        }
      }
      if (to == LD_NONE) continue;
      double evr = exo_tally_get(t, to);
      exo_ids_set(&lv->refined, v, to);
      wr[to] += wv;
      wr[v] = 0.0;
      ext[to] = ext[to] + ev - 2.0 * evr;
      exo_bits_set_atomic(lv->bits, v);
      exo_bits_set_atomic(lv->bits, to); /* the node whose singleton R was */
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
  exo_bits_zero(lv->bits, n);
  const uint32_t W = exo_ld_level_threads(lv);
  ld_reader *rds = W > 1 ? exo_ld_readers_open(lv, W) : &lv->rd;
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
  if (rds != &lv->rd) exo_ld_readers_free(rds, W);
  free(masks);
  free(part_merges);
  return s;
}


/* Level 0 with atoms (exo_leiden.h): the refined partition is the atoms
 * (refined[v] = atoms[v], each < n, checked by exo_leiden_run) and W_R
 * their summed node weights, in id order; the communities stay as opened.
 * One pass reading the node weights only; *natoms: the distinct atoms
 * (counted with the bitmap, left clear). */
exo_status exo_ld_level_set_atoms(exo_leiden_level *lv, const uint64_t *atoms, uint64_t *natoms) {
  double *wr = ld_as_dbl(lv->x1);
  for (uint64_t r = 0; r < lv->n; r++) wr[r] = 0.0;
  exo_bits_zero(lv->bits, lv->n);
  uint64_t k = 0;
  exo_status s = EXO_OK;
  for (uint64_t first = 0; first < lv->n && !s; first += EXO_LEIDEN_BLOCK)
    if ((s = exo_ld_rd_load(lv, &lv->rd, first, 0)) == EXO_OK)
      for (uint64_t v = first; v < first + lv->rd.blk_cnt; v++) {
        const uint64_t a = atoms[v];
        exo_ids_set(&lv->refined, v, a);
        wr[a] += lv->rd.blk_w[v - first];
        k += (uint64_t)exo_bits_set_new(lv->bits, a);
      }
  exo_bits_zero(lv->bits, lv->n);
  *natoms = k;
  return s;
}
