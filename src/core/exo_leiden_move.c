/* exo_leiden_move.c: Leiden's local moving (exo_leiden.h, step 1 and
 * "Lanes"; what crosses the Leiden files: exo_leiden_int.h): the gain
 * of a move, the serial sweep on the caller's thread and the sweeps in
 * lanes with their epochs and sync points. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_leiden_int.h"

#include "exo_par.h"

#define LD_WHOLE_BLOCK 16u /* active nodes from which moving reads a block's lists at once */

/* Local moving keeps each visit's weight to the node's own community
 * (8 bytes per node) when the level has at most this / 8 nodes: its share
 * (exo_budget.h). */
static uint64_t own_w_bytes(const exo_leiden_params *p) {
  return exo_budget_share(p->memory_limit, EXO_SHARE_LEIDEN_OWN_W, 1);
}

/* ---- local moving --------------------------------------------------------- */

/* Tally v's arcs by the community of the neighbour (self-loops left out);
 * *kv = their weight. */
static exo_status tally_communities(exo_leiden_level *lv, uint64_t v, double *kv) {
  exo_status s = EXO_OK;
  double k = 0.0;
  ld_rd_tally_start(&lv->rd, v);
  FOR_ARCS_PF(lv, v, u, w, s, &lv->comm, {
    if (u != v) {
      exo_tally_add_sum(&lv->rd.t, exo_ids_get(&lv->comm, u), w);
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
  exo_status s = ld_load_block(lv, v - v % EXO_LEIDEN_BLOCK);
  if (s) return s;
  double kv;
  if ((s = tally_communities(lv, v, &kv)) != EXO_OK) return s;
  const uint64_t a = exo_ids_get(&lv->comm, v);
  const double wv = lv->rd.blk_w[v - lv->rd.blk_first];
  double stay = exo_quality_gain(exo_tally_get(&lv->rd.t, a), lv->gp, wv, lv->tot[a] - wv);
  double go = c == a ? stay : exo_quality_gain(exo_tally_get(&lv->rd.t, c), lv->gp, wv, lv->tot[c]);
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
  const double stay = dw ? exo_quality_gain(*own, gp, wv, lv->tot[a] + exo_tally_get(dw, a) - wv)
                         : exo_quality_gain(*own, gp, wv, lv->tot[a] - wv);
  uint64_t to = a;
  *best = stay + LD_EPS * kv;
  for (size_t i = 0; i < t->count; i++) EXO_PREFETCH(&lv->tot[t->slots[t->touched[i]].label]);
  for (size_t i = 0; i < t->count; i++) {
    const exo_tally_slot *e = &t->slots[t->touched[i]];
    if (e->label == a) continue;
    double W = lv->tot[e->label];
    const uint64_t h = seen_bit(e->label);
    if (dw && exo_bits_get(seen, h)) W += exo_tally_get(dw, e->label);
    double g = exo_quality_gain(e->sum, gp, wv, W);
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
  const uint64_t a = exo_ids_get(&lv->comm, v);
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
  exo_ids_set(&lv->comm, v, to);
  *moved = 1;
  FOR_ARCS_PF(lv, v, u, w, s, &lv->comm, {
    (void)w;
    if (u != v && !exo_bits_get(lv->bits, u) && exo_ids_get(&lv->comm, u) != to) {
      exo_bits_set(lv->bits, u);
      lv->nactive++;
    }
  });
  return s;
}

static unsigned block_count_bits(const exo_leiden_level *lv, uint64_t first) {
  return exo_sweep_block_count(lv->bits, first, lv->n);
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
  exo_ld_readers_free(ls->readers, ls->nworkers);
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
  if (!(ls->readers = exo_ld_readers_open(lv, W))) goto oom_out;
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
                            : (in_lane ? exo_ids_get(&lv->comm, u) : exo_ids_get(&lv->refined, u));
  if (!activate) {
    exo_tally_add_sum(&rd->t, cu, w);
    *k += w;
  } else if (cu != to) {
    if (!in_lane)
      return exo_sweep_outbox_push(&ln->sw, u) ? exo_fail_oom(rd->ctx, "a Leiden lane's outbox", 0)
                                               : EXO_OK;
    if (!exo_bits_get(lv->bits, u)) {
      exo_bits_set(lv->bits, u);
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
  if (!activate) ld_rd_tally_start(rd, v);
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
      } else if (!exo_bits_get(lv->bits, u)) {
        exo_bits_set(lv->bits, u);
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
        s = exo_ld_bad_nbr(lv, rd->ctx, v, u);
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
  const uint64_t a = exo_ids_get(&lv->comm, v);
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
  exo_bits_set(ln->seen, ha);
  exo_bits_set(ln->seen, ht);
  exo_tally_add_sum(&ln->dn, a, -1.0);
  exo_tally_add_sum(&ln->dn, to, 1.0);
  exo_ids_set(&lv->comm, v, to);
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
    if ((s = exo_ld_rd_load(lv, rd, first, act >= LD_WHOLE_BLOCK)) != EXO_OK) break;
    for (uint32_t i = 0; i < EXO_LEIDEN_BLOCK && !s; i++) {
      uint64_t v = first + (lv->perm[i] ^ mask);
      if (v >= lv->n || !exo_bits_get(lv->bits, v)) continue;
      exo_bits_clear(lv->bits, v);
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
      exo_ids_set(&lv->refined, c->v, exo_ids_get(&lv->comm, c->v));
    }
    for (size_t j = 0; j < ln->dw.count; j++) {
      const uint64_t h = seen_bit(ln->dw.slots[ln->dw.touched[j]].label);
      exo_bits_clear_word_of(ln->seen, h);
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
      if (exo_bits_get(lv->bits, u)) continue;
      exo_bits_set(lv->bits, u);
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
    if ((s = ld_load_block_part(lv, first, act >= LD_WHOLE_BLOCK)) != EXO_OK) return s;
    for (uint32_t i = 0; i < EXO_LEIDEN_BLOCK; i++) {
      uint64_t v = first + (lv->perm[i] ^ mask);
      if (v >= n || !exo_bits_get(lv->bits, v)) continue;
      exo_bits_clear(lv->bits, v);
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
  exo_bits_fill(lv->bits, n);
  lv->nactive = n;
  lv->own_w_exact = 0;
  if (!lv->own_w && n > 0 && n <= own_w_bytes(&lv->p) / 8)
    lv->own_w = malloc((size_t)n * 8); /* none: the refinement reads the arcs */
  ld_lanes ls;
  exo_status s = lanes_open(lv, &ls);
  if (s) return s;
  uint64_t blocks = 0, done = 0;
  if (ls.lanes) { /* `refined` (the identity until refinement) holds the published copy */
    for (uint64_t v = 0; v < n; v++) exo_ids_set(&lv->refined, v, exo_ids_get(&lv->comm, v));
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
    for (uint64_t v = 0; v < n; v++) exo_ids_set(&lv->refined, v, v);
  }
  lanes_free(&ls);
  /* no move: every visit tallied the partition the refinement starts from */
  lv->own_w_exact = !s && lv->own_w && *moves == 0 && done == n;
  return s;
}

uint64_t exo_leiden_level_communities(const exo_leiden_level *lv) { return lv->n - lv->nfree; }

