/* exo_refine.c: merge passes over the clusters found by label propagation
 * (rules in exo_refine.h). Each pass streams the CSR adjacency file in id
 * order and tallies, per cluster, its internal weight and its weight to
 * every neighbouring cluster in a bounded hash table; when the table
 * overflows, a screening read first bounds the pairs (exo_refine.h,
 * "Screen") and the tally keeps only those that can decide a move.
 *
 * Every arc is stored at both of its ends (undirected: the same weight;
 * directed: +w at the head, -w at the tail), so w(C, D) = w(D, C): the
 * table keeps each unordered pair once, from the arcs at C's nodes with
 * C < D, and one entry serves both clusters' best-neighbour search. A slot
 * is 16 bytes: the pair packed into one u64 key (see pair_key) and the
 * weight, whose sign bit says that no arc of the pair has reached the
 * cutoff yet (the weight is a sum of |w|, so its magnitude is the sum).
 *
 * Why not the shared map (exo_tally.h): this table is sized once from its
 * memory share (exo_budget.h) and must say when it is full (a pass then
 * splits the clusters into more groups, from full_at), never grow; it is
 * read by scanning its slots after a whole group, not per node through a
 * touched list, and cleared by one memset; and its 16-byte slot holds
 * twice the pairs of exo_tally's 24-byte slot plus 8-byte touched entry in
 * the same share, so with exo_tally the same memory_limit would need more
 * groups, that is more reads of the adjacency file. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_refine.h"
#include "exo_quality.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "exo_budget.h"
#include "exo_csr.h"
#include "exo_io.h"
#include "exo_output.h"
#include "exo_par.h"
#include "exo_platform.h"
#include "exo_record.h"

#define RF_EMPTY UINT64_MAX
#define RF_POLL_ENTRIES ((uint64_t)1 << 20)
#define RF_AHEAD 16  /* entries ahead to prefetch a neighbour's label for */
#define RF_AHEAD2 8  /* entries ahead to prefetch a pair slot for */
#define RF_MAX_READERS EXO_REFINE_MAX_READERS /* exo_refine.h */
/* The screen's margin (exo_refine.h, "Screen"): its sums may round
 * differently from the tally's, by far less than this relative amount. */
#define RF_SLACK 1e-5

typedef struct pair_slot {
  uint64_t key; /* RF_EMPTY = free */
  double w;
} pair_slot;
_Static_assert(sizeof(pair_slot) == EXO_REFINE_SLOT_BYTES, "exo_refine.h states the slot size");

/* One reader of the adjacency file: its buffer and pair table. With
 * several threads each reads the file for its own group of clusters. */
typedef struct rf_reader {
  uint8_t *buf;
  pair_slot *table;
  size_t used;       /* pairs in the table */
  uint64_t group;    /* the group of its current read */
  uint64_t full_at;  /* the table filled after this many entries (0: it did not) */
  int vols;          /* the volumes its read sums: RF_VOL_* */
  double screen_w;   /* the screen's read: the weight of its arcs */
} rf_reader;

enum { RF_VOL_NONE, RF_VOL_MINE, RF_VOL_ALL };

typedef struct refine_state {
  const exo_csr_files *csr;
  exo_ctx *ctx;
  uint64_t n, k;
  size_t esz;
  int fd;
  uint64_t *off;   /* n + 1 */
  size_t buf_entries;
  rf_reader *rd;   /* nreaders */
  uint32_t nreaders, wave_readers; /* readers; those with a group in this wave */
  size_t cap;      /* table slots, a power of two */
  size_t limit;
  unsigned shift;
  uint64_t cur_groups; /* clusters c % cur_groups == group per read */
  const uint64_t *labels;
  double *in;      /* k + 1: internal weight */
  double *vol;     /* k + 1: total weight of the arcs at the cluster's nodes */
  double total;    /* total weight of all arcs: the volumes summed in cluster order */
  double gamma;    /* the resolution (params) */
  double gp;       /* g' = gamma / total (exo_quality.h) */
  double cutoff;   /* a pair can merge only with an arc of |w| >= cutoff */
  uint64_t groups; /* cluster groups (file reads) per pass, >= 1 */
  double ratio;    /* the merge threshold (params) */
  int screen;      /* the passes screen the pairs (exo_refine.h, "Screen") */
  int no_screen;   /* params: never screen */
  float *svol, *sin; /* k + 1: the screen's volumes and internal weights,
                        rounded down to float (lower bounds) */
  double *sketch;  /* the screen's bounds: 2 cap doubles beyond the halved
                      table of reader 0 (one such part per reader while the
                      screen reads) */
  size_t sk_size;  /* doubles in the sketch, a power of two */
  double sgp;      /* g' from the screen's total weight (in double) */
  unsigned sk_shift;
  double *bw;      /* k + 1: weight to the best neighbouring cluster */
  uint64_t *best;  /* k + 1: that cluster, 0 = none */
  uint8_t *move;   /* k + 1 */
} refine_state;

static void state_free(refine_state *st) {
  if (st->fd >= 0) exo_close(st->fd);
  st->fd = -1;
  free(st->off);
  for (uint32_t i = 0; st->rd && i < st->nreaders; i++) {
    free(st->rd[i].buf);
    free(st->rd[i].table);
  }
  free(st->rd);
  free(st->in);
  free(st->vol);
  free(st->svol);
  free(st->sin);
  free(st->bw);
  free(st->best);
  free(st->move);
}


/* Pair (a, b), a < b, a in the read's group, as one u64: a's rank in its
 * group (a / groups, which the reads work out once per node) times (k + 1),
 * plus b. It fits: the group count is at least min_groups() (k + 1 <= 2^32
 * needs one group). */
static inline uint64_t pair_key(const refine_state *st, uint64_t rank, uint64_t b) {
  return rank * (st->k + 1) + b;
}

static inline size_t key_hash(const refine_state *st, uint64_t key) {
  uint64_t h = key * 0x9E3779B97F4A7C15ULL;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  return (size_t)(h >> st->shift);
}

/* Fewest groups for which every key fits below RF_EMPTY. */
static uint64_t min_groups(uint64_t k) {
  uint64_t per = (UINT64_MAX - 1) / (k + 1); /* ranks that fit */
  return k / per + 1;
}

/* Empty a reader's table. */
static void table_clear(const refine_state *st, rf_reader *rd) {
  if (rd->used) memset(rd->table, 0xff, st->cap * sizeof *rd->table); /* key = RF_EMPTY */
  rd->used = 0;
}

/* Add w >= 0 to the pair with this key; `eligible`: this arc reaches the
 * cutoff. The slot's weight is the sum, negated (sign bit set, -0.0
 * included) while no arc of the pair has been eligible. Returns 0, or -1
 * when the table is full. */
static inline int table_add(const refine_state *st, rf_reader *rd, uint64_t key, double w,
                            int eligible) {
  size_t mask = st->cap - 1, h = key_hash(st, key);
  for (;;) {
    pair_slot *e = &rd->table[h];
    if (e->key == key) {
      double sum = fabs(e->w) + w;
      e->w = eligible || !signbit(e->w) ? sum : -sum;
      return 0;
    }
    if (e->key == RF_EMPTY) break;
    h = (h + 1) & mask;
  }
  if (rd->used >= st->limit) return -1;
  rd->table[h].key = key;
  rd->table[h].w = eligible ? w : -w;
  rd->used++;
  return 0;
}

/* Offer cluster b as a's best neighbour with excess x. */
static inline void offer(refine_state *st, uint64_t a, uint64_t b, double x) {
  if (x > st->bw[a] || (x == st->bw[a] && st->best[a] != 0 && b < st->best[a])) {
    st->bw[a] = x;
    st->best[a] = b;
  }
}

/* The node owning adjacency entry i, from v (which owns an entry <= i). */
static inline uint64_t owner_of(const uint64_t *off, uint64_t v, uint64_t i) {
  while (off[v + 1] <= i) v++;
  return v;
}

/* Ask for the label of the neighbour in the adjacency entry at p (none
 * when out of range). The loops pass their local copies: read through the
 * state they would be reloaded at every entry. */
static inline void prefetch_label(const uint8_t *p, int wide, uint64_t n,
                                  const uint64_t *labels) {
  uint64_t u;
  float w;
  exo_adj_decode(p, wide, &u, &w);
  if (u < n) EXO_PREFETCH(&labels[u]);
}

/* The shift that maps a 64-bit hash to an index below size, a power of two. */
static unsigned hash_shift(size_t size) {
  unsigned b = 0;
  while (((size_t)1 << b) < size) b++;
  return 64u - b;
}

/* Every reader's table holds cap slots (a power of two), at most 3/4 full;
 * `clear`: empty them in full at their next use (the table changes size). */
static void tables_set_cap(refine_state *st, size_t cap, int clear) {
  st->cap = cap;
  st->limit = cap / 4 * 3;
  st->shift = hash_shift(cap);
  for (uint32_t j = 0; clear && j < st->nreaders; j++) st->rd[j].used = cap;
}

/* ---- the screen (exo_refine.h, "Screen") -------------------------------- */

/* The sketch entry of pair (a, b), a < b. */
static inline size_t sketch_slot(const refine_state *st, uint64_t a, uint64_t b) {
  uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 29;
  return (size_t)(h >> st->sk_shift);
}

/* Reader j's part of the sketch while the screen reads. */
static inline double *sketch_part(const refine_state *st, uint32_t j) {
  return (double *)(void *)(st->rd[j].table + st->cap);
}

/* Can pair (a, b), a < b, be the best neighbour of a cluster that moves?
 * U, the sketch's entry, is at least the pair's weight; the excess is at
 * most U - g' vol(a) vol(b), and a cluster C moves only with an excess
 * above 0 and at least ratio in(C). The floats are lower bounds of the
 * volumes and internal weights (rounded down), g' and U are sums in double
 * that differ from the tally's only by rounding, which the margins
 * (RF_SLACK) cover: a pair kept in error costs a table slot, one dropped
 * in error would change the result. */
static inline int screen_keeps(const refine_state *st, uint64_t a, uint64_t b) {
  const double u = st->sketch[sketch_slot(st, a, b)] * (1.0 + RF_SLACK);
  const double x = u - st->sgp * (double)st->svol[a] * (double)st->svol[b] * (1.0 - RF_SLACK);
  if (!(x > 0.0)) return 0;
  const double in = st->sin[a] < st->sin[b] ? st->sin[a] : st->sin[b];
  return x >= st->ratio * in * (1.0 - RF_SLACK);
}

/* f + x (x >= 0) as a float rounded down: the sum of many adds stays a
 * lower bound of the exact sum however many there are. */
static inline float add_down(float f, double x) {
  const double d = (double)f + x;
  float r = (float)d;
  if ((double)r > d) r = nextafterf(r, -INFINITY);
  return r;
}

/* Add x >= 0 to a float that other readers may add to (compare and swap
 * when shared), rounding down. */
static void add_shared(float *p, double x, int shared) {
  if (!shared) {
    *p = add_down(*p, x);
    return;
  }
  _Atomic uint32_t *q = (_Atomic uint32_t *)(void *)p;
  uint32_t old = atomic_load_explicit(q, memory_order_relaxed), nw;
  do {
    float f;
    memcpy(&f, &old, 4);
    f = add_down(f, x);
    memcpy(&nw, &f, 4);
  } while (!atomic_compare_exchange_weak_explicit(q, &old, nw, memory_order_relaxed,
                                                  memory_order_relaxed));
}

/* The screen's read of nodes [v0, v1) by reader j: each cluster's volume
 * and internal weight (added to svol, sin once per node), and each arc
 * from a to b > a added to the sketch entry of (a, b) in j's part. */
static exo_status screen_range(refine_state *st, uint32_t j, uint64_t v0, uint64_t v1,
                               exo_ctx *ctx) {
  const uint64_t *labels = st->labels, *off = st->off, n = st->n;
  const size_t esz = st->esz;
  const int wide = st->csr->wide, shared = st->nreaders > 1;
  double *sk = sketch_part(st, j);
  memset(sk, 0, st->sk_size * sizeof *sk);
  const uint64_t lo = off[v0], hi = off[v1];
  exo_csr_window win = {st->fd, st->csr->adj_path, esz, st->rd[j].buf, st->buf_entries, 0, 0};
  uint64_t v = v0, since_poll = 0;
  while (v < v1 && off[v + 1] == off[v]) v++;
  double va = 0.0, ia = 0.0, total = 0.0;
  for (uint64_t first = lo; first < hi;) {
    uint64_t cnt;
    const uint8_t *p;
    exo_status s = exo_csr_window_get(&win, first, hi, &p, &cnt, ctx);
    if (s) return s;
    const uint64_t end = first + cnt;
    uint64_t pv2 = v, a2 = labels[v]; /* the owner of entry i + RF_AHEAD2 */
    for (uint64_t i = first; i < end; i++, p += esz) {
      /* ask for the label of the neighbour RF_AHEAD entries ahead and for
       * the sketch entry of the one RF_AHEAD2 ahead */
      if (i + RF_AHEAD < end) prefetch_label(p + RF_AHEAD * esz, wide, n, labels);
      if (i + RF_AHEAD2 < end) {
        if (off[pv2 + 1] <= i + RF_AHEAD2) a2 = labels[pv2 = owner_of(off, pv2, i + RF_AHEAD2)];
        uint64_t u2;
        float w2;
        exo_adj_decode(p + RF_AHEAD2 * esz, wide, &u2, &w2);
        if (u2 < n && a2 < labels[u2]) EXO_PREFETCH(&sk[sketch_slot(st, a2, labels[u2])]);
      }
      if (off[v + 1] <= i) { /* v's arcs are done */
        add_shared(&st->svol[labels[v]], va, shared);
        add_shared(&st->sin[labels[v]], ia, shared);
        total += va;
        va = ia = 0.0;
        v = owner_of(off, v, i);
      }
      uint64_t u;
      float wf;
      exo_adj_decode(p, wide, &u, &wf);
      if (u >= n) return exo_csr_bad_neighbour(st->csr, v, u, ctx);
      const double w = fabs((double)wf);
      const uint64_t a = labels[v], b = labels[u];
      va += w;
      if (a == b)
        ia += w;
      else if (a < b)
        sk[sketch_slot(st, a, b)] += w;
    }
    first += cnt;
    since_poll += cnt;
    if (since_poll >= RF_POLL_ENTRIES) {
      since_poll = 0;
      if ((s = exo_poll(ctx)) != EXO_OK) return s;
    }
  }
  if (hi > lo) {
    add_shared(&st->svol[labels[v]], va, shared);
    add_shared(&st->sin[labels[v]], ia, shared);
    total += va;
  }
  st->rd[j].screen_w = total;
  return exo_poll(ctx);
}

/* The first node of reader j's part of the screen's read: the arcs split
 * evenly between the readers. */
static uint64_t screen_first_node(const refine_state *st, uint32_t j) {
  const uint64_t target = (uint64_t)((double)st->csr->m * j / st->nreaders);
  uint64_t lo = 0, hi = st->n; /* the first v with off[v] >= target */
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (st->off[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return j == 0 ? 0 : lo;
}

static exo_status screen_job(void *arg, uint32_t index, exo_ctx *ctx) {
  refine_state *st = arg;
  uint64_t v0 = screen_first_node(st, index);
  uint64_t v1 = index + 1 == st->nreaders ? st->n : screen_first_node(st, index + 1);
  return screen_range(st, index, v0, v1, ctx);
}

/* The screen's read (one read of the file, its nodes split between the
 * readers), then the readers' sketch parts summed into reader 0's and g'
 * from the screen's volumes. */
static exo_status screen_read(refine_state *st) {
  memset(st->svol, 0, (size_t)(st->k + 1) * sizeof *st->svol);
  memset(st->sin, 0, (size_t)(st->k + 1) * sizeof *st->sin);
  exo_status s = exo_par_run(st->nreaders, screen_job, st, EXO_STAGE_CLUSTER, 0, st->ctx);
  if (s) return s;
  double *sk0 = sketch_part(st, 0);
  for (uint32_t j = 1; j < st->nreaders; j++) {
    const double *sk = sketch_part(st, j);
    for (size_t i = 0; i < st->sk_size; i++) sk0[i] += sk[i];
  }
  st->sketch = sk0;
  double total = 0.0;
  for (uint32_t j = 0; j < st->nreaders; j++) total += st->rd[j].screen_w;
  st->sgp = exo_quality_gp(EXO_QUALITY_MODULARITY, st->gamma, total);
  return EXO_OK;
}

/* Turn the screen on: every reader's table keeps its lower half, the upper
 * halves hold the sketch parts. */
static void screen_on(refine_state *st) {
  st->screen = 1;
  tables_set_cap(st, st->cap / 2, 1);
  st->sk_size = st->cap * 2; /* a slot is two doubles */
  st->sk_shift = hash_shift(st->sk_size);
}

/* Turn the screen off for good (its pairs overflowed the halved table:
 * it keeps too many to pay for its read): the tables whole again. */
static void screen_off(refine_state *st) {
  st->screen = 0;
  st->no_screen = 1;
  st->sketch = NULL;
  tables_set_cap(st, st->cap * 2, 1);
}

/* One read of the adjacency file by reader rd, tallying the pairs (a, b),
 * a < b, with a % groups == rd->group, and the internal weights of those
 * clusters. The volumes: with rd->vols == RF_VOL_MINE the read sums those
 * of its group's clusters and skips the other nodes' arcs; with
 * RF_VOL_ALL it sums every cluster's (it reads every arc, but looks up
 * labels only for its own); with RF_VOL_NONE it sums none. Either way a
 * cluster's volume is the same adds in file order. On overflow the read
 * stops with rd->full_at = the number of entries read (> 0). Reads of
 * different groups write different in[] (and, with RF_VOL_MINE, vol[])
 * entries, so they may run side by side. The divisions by the group count
 * are made once per node, and the volume sum is kept in a register. */
static exo_status tally_group(refine_state *st, rf_reader *rd, exo_ctx *ctx) {
  const uint64_t m = st->csr->m, n = st->n, groups = st->cur_groups, group = rd->group;
  const uint64_t *labels = st->labels;
  const uint64_t *off = st->off;
  const size_t esz = st->esz;
  const int wide = st->csr->wide, vols = rd->vols;
  uint64_t v = 0, since_poll = 0;
  /* a = v's cluster, mine: it is in this read's group, rank = a / groups;
   * sums: v's arcs add to vol[a] (va while they are read). n >= 1 and
   * m >= 1: exo_refine_merge returns before the passes otherwise */
  uint64_t a = labels[0], rank = a / groups;
  int mine = a % groups == group;
  int sums = vols == RF_VOL_ALL || (vols == RF_VOL_MINE && mine);
  double va = sums ? st->vol[a] : 0.0;
  rd->full_at = 0;
  table_clear(st, rd);
  exo_csr_window win = {st->fd, st->csr->adj_path, esz, rd->buf, st->buf_entries, 0, 0};
  for (uint64_t first = 0; first < m;) {
    uint64_t cnt;
    const uint8_t *p;
    exo_status s = exo_csr_window_get(&win, first, m, &p, &cnt, ctx);
    if (s) return s;
    const uint64_t end = first + cnt;
    /* the nodes owning look-ahead entries i + RF_AHEAD and i + RF_AHEAD2,
     * whether they are in the group, and the latter's cluster and rank */
    uint64_t pv1 = v, pv2 = v, a2 = a, rank2 = rank;
    int mine1 = mine, mine2 = mine;
    for (uint64_t i = first; i < end; i++, p += esz) {
      /* the labels and pair slots are random accesses: ask for the label of
       * the neighbour RF_AHEAD entries ahead and for the pair slot of the
       * one RF_AHEAD2 ahead (whose label was asked for earlier), for the
       * group's nodes only */
      if (i + RF_AHEAD < end) {
        if (groups > 1 && off[pv1 + 1] <= i + RF_AHEAD) { /* one group: all are its */
          pv1 = owner_of(off, pv1, i + RF_AHEAD);
          mine1 = labels[pv1] % groups == group;
        }
        if (mine1) prefetch_label(p + RF_AHEAD * esz, wide, n, labels);
      }
      if (i + RF_AHEAD2 < end) {
        if (off[pv2 + 1] <= i + RF_AHEAD2) {
          pv2 = owner_of(off, pv2, i + RF_AHEAD2);
          a2 = labels[pv2];
          mine2 = a2 % groups == group;
          rank2 = a2 / groups;
        }
        if (mine2) {
          uint64_t u2;
          float w2;
          exo_adj_decode(p + RF_AHEAD2 * esz, wide, &u2, &w2);
          if (u2 < n && a2 < labels[u2]) {
            if (st->screen) /* the table is asked for only for the pairs kept */
              EXO_PREFETCH(&st->sketch[sketch_slot(st, a2, labels[u2])]);
            else
              EXO_PREFETCH(&rd->table[key_hash(st, pair_key(st, rank2, labels[u2]))]);
          }
        }
      }
      if (off[v + 1] <= i) {
        if (sums) st->vol[a] = va;
        v = owner_of(off, v, i);
        a = labels[v];
        mine = a % groups == group;
        rank = a / groups;
        sums = vols == RF_VOL_ALL || (vols == RF_VOL_MINE && mine);
        if (sums) va = st->vol[a];
      }
      if (!mine && !sums) { /* another group's node: past its arcs */
        const uint64_t stop = off[v + 1] < end ? off[v + 1] : end;
        p += (stop - 1 - i) * esz;
        i = stop - 1;
        continue;
      }
      uint64_t u;
      float wf;
      exo_adj_decode(p, wide, &u, &wf);
      const double w = fabs((double)wf);
      if (sums) va += w;
      if (!mine) continue;
      if (u >= st->n) return exo_csr_bad_neighbour(st->csr, v, u, ctx);
      uint64_t b = labels[u];
      if (a == b) {
        st->in[a] += w;
      } else if (a < b && (!st->screen || screen_keeps(st, a, b)) &&
                 table_add(st, rd, pair_key(st, rank, b), w, w >= st->cutoff) != 0) {
        rd->full_at = i + 1; /* the groups are read again: the sums are reset */
        return EXO_OK;
      }
    }
    first += cnt;
    since_poll += cnt;
    if (since_poll >= RF_POLL_ENTRIES) {
      since_poll = 0;
      if ((s = exo_poll(ctx)) != EXO_OK) return s;
    }
  }
  if (sums) st->vol[a] = va;
  return exo_poll(ctx);
}

/* exo_par_run job: reader `index` reads its group of the wave. */
static exo_status tally_job(void *arg, uint32_t index, exo_ctx *ctx) {
  refine_state *st = arg;
  return tally_group(st, &st->rd[index], ctx);
}

/* Offer the pairs of a reader's table: best neighbouring cluster by
 * largest excess weight over the expectation vol(C) vol(D) / total, then
 * smallest number (a total order: the result does not depend on the
 * order of the offers, so neither on the groups nor on the readers). */
static void offer_pairs(refine_state *st, const rf_reader *rd) {
  const uint64_t k1 = st->k + 1, groups = st->cur_groups;
  for (size_t i = 0; i < st->cap && rd->used; i++) {
    const pair_slot *e = &rd->table[i];
    if (e->key == RF_EMPTY || signbit(e->w)) continue; /* no arc reaches the cutoff */
    uint64_t a = (e->key / k1) * groups + rd->group, b = e->key % k1;
    double x = exo_quality_gain(e->w, st->gp, st->vol[a], st->vol[b]);
    if (!(x > 0.0)) continue;
    offer(st, a, b, x);
    offer(st, b, a, x); /* w(b, a) = w(a, b) */
  }
}

/* One merge pass; *merged = clusters that joined another. */
static exo_status merge_pass(refine_state *st, uint64_t *labels, double ratio,
                             uint64_t *merged, uint64_t *reads, uint32_t *screens) {
  const uint64_t k = st->k;
  uint64_t groups = st->groups; /* estimated from the previous pass */
  uint64_t gmin = min_groups(k);
  if (groups < gmin) groups = gmin;
  /* one group per reader at least, so that every thread reads (k >= 1:
   * exo_refine_merge checks it, and merges keep one cluster) */
  if (groups < st->nreaders) groups = k < st->nreaders ? k : st->nreaders;
  *merged = 0;
  const double t0 = exo_now_seconds();
  double t_read = 0.0, t_offer = 0.0;
  const uint64_t reads0 = *reads;
  uint64_t pairs = 0;
  int screened = 0;
  exo_status s;
  if (st->screen) { /* an earlier pass needed it: this one will too */
    if ((s = screen_read(st)) != EXO_OK) return s;
    (*reads)++;
    screened = 1;
  }
  for (;;) { /* tally, splitting the clusters into more groups on overflow */
    memset(st->in, 0, (size_t)(k + 1) * sizeof *st->in);
    memset(st->vol, 0, (size_t)(k + 1) * sizeof *st->vol);
    st->total = 0.0;
    memset(st->bw, 0, (size_t)(k + 1) * sizeof *st->bw);
    memset(st->best, 0, (size_t)(k + 1) * sizeof *st->best);
    uint64_t full_at = 0;
    pairs = 0;
    st->cur_groups = groups;
    st->labels = labels;
    /* waves of up to nreaders groups read side by side; the volumes are
     * complete after the first wave, before any offer: in one wave each
     * read sums its own clusters' (and skips the other nodes), in several
     * the read of group 0 sums them all */
    for (uint64_t g0 = 0; g0 < groups && !full_at; g0 += st->nreaders) {
      uint32_t nr = groups - g0 < st->nreaders ? (uint32_t)(groups - g0) : st->nreaders;
      for (uint32_t j = 0; j < nr; j++) {
        st->rd[j].group = g0 + j;
        st->rd[j].vols = groups <= st->nreaders ? RF_VOL_MINE
                         : g0 + j == 0          ? RF_VOL_ALL
                                                : RF_VOL_NONE;
      }
      const double r0 = exo_now_seconds();
      s = exo_par_run(nr, tally_job, st, EXO_STAGE_CLUSTER, 0, st->ctx);
      const double r1 = exo_now_seconds();
      t_read += r1 - r0;
      *reads += nr;
      if (s) return s;
      for (uint32_t j = 0; j < nr && !full_at; j++) full_at = st->rd[j].full_at;
      if (g0 == 0 && !full_at)
        for (uint64_t c = 1; c <= k; c++) st->total += st->vol[c];
      if (g0 == 0 && !full_at) /* g' of modularity at the resolution (exo_quality.h) */
        st->gp = exo_quality_gp(EXO_QUALITY_MODULARITY, st->gamma, st->total);
      for (uint32_t j = 0; j < nr && !full_at; j++) {
        offer_pairs(st, &st->rd[j]);
        pairs += st->rd[j].used;
      }
      t_offer += exo_now_seconds() - r1;
    }
    if (!full_at) {
      /* next pass (merges never add pairs): enough groups for these pairs
       * at 3/4 of the limit each (uneven groups overflow and grow) */
      uint64_t want = pairs / (st->limit / 4 * 3) + 1;
      st->groups = want < groups ? want : groups;
      break;
    }
    if (!st->screen && !st->no_screen) { /* screen the pairs, then the same groups again */
      screen_on(st);
      if ((s = screen_read(st)) != EXO_OK) return s;
      (*reads)++;
      screened = 1;
      continue;
    }
    if (st->screen) screen_off(st); /* then more groups, as without it */
    if (groups >= k)
      return EXO_FAIL(st->ctx, EXO_ENOMEM,
                      "refine: the pair table (%zu entries) cannot hold one cluster's neighbours",
                      st->cap);
    /* the group filled the table after full_at of m entries: scale the
     * group count by the share of the file left, with a margin */
    double f = (double)st->csr->m / (double)full_at * 1.25;
    if (f < 2.0) f = 2.0;
    double ng = (double)groups * f;
    groups = ng >= (double)k ? k : (uint64_t)ng;
  }
  for (uint64_t c = 1; c <= k; c++)
    st->move[c] = st->best[c] != 0 && st->bw[c] > 0.0 && st->bw[c] >= ratio * st->in[c];
  for (uint64_t c = 1; c <= k; c++) { /* mutual: the smaller number stays */
    uint64_t d = st->best[c];
    if (st->move[c] && d != 0 && st->move[d] && st->best[d] == c && c < d) st->move[c] = 2;
  }
  /* a staying cluster D takes the clusters that want to join it, in order
   * of number, while each newcomer C still adds to modularity against all
   * of them at worst: x(C, D) - vol(C) V / T > 0, V = the volume taken so
   * far (two newcomers' mutual excess is at least -vol vol' / T). in[] is
   * reused for V. */
  memset(st->in, 0, (size_t)(k + 1) * sizeof *st->in);
  for (uint64_t c = 1; c <= k; c++) {
    uint64_t d = st->best[c];
    int join = st->move[c] == 1 && st->move[d] != 1 &&
               exo_quality_gain(st->bw[c], st->gp, st->vol[c], st->in[d]) > 0.0;
    if (join) st->in[d] += st->vol[c];
    st->best[c] = join ? d : c; /* target */
    if (join) (*merged)++;
  }
  for (uint64_t v = 0; v < st->n; v++) labels[v] = st->best[labels[v]] - 1; /* 0-based */
  uint64_t knew = 0;
  if ((s = exo_output_renumber(labels, st->n, &knew, st->ctx)) != EXO_OK) return s;
  *screens += (uint32_t)screened;
  exo_detail(st->ctx, "refine pass: %llu clusters, %llu groups, %llu reads of the adjacency%s, "
              "%llu pairs, %llu merged; seconds: reads %.3f, offers %.3f, in all %.3f",
              (unsigned long long)k, (unsigned long long)st->cur_groups,
              (unsigned long long)(*reads - reads0), screened ? " (one to screen the pairs)" : "",
              (unsigned long long)pairs,
              (unsigned long long)*merged, t_read, t_offer, exo_now_seconds() - t0);
  st->k = knew;
  return EXO_OK;
}

/* Contract (exo_refine.h). */
exo_status exo_refine_merge(const exo_csr_files *csr, const exo_refine_params *params,
                            uint64_t *labels, uint64_t *num_clusters, exo_ctx *ctx,
                            exo_refine_result *result) {
  if (result) memset(result, 0, sizeof *result);
  if (!csr || !params || !labels || !num_clusters || !result || !csr->adj_path ||
      !csr->offsets_path)
    return EXO_FAIL(ctx, EXO_EARG, "exo_refine_merge: NULL argument");
  if (!(params->ratio > 0.0) || !isfinite(params->ratio))
    return EXO_FAIL(ctx, EXO_EARG, "refine ratio must be a finite number > 0");
  if (!(params->self_loop_cutoff >= 0.0))
    return EXO_FAIL(ctx, EXO_EARG, "refine self_loop_cutoff must be >= 0");
  if (!(params->resolution >= 0.0) || !isfinite(params->resolution))
    return EXO_FAIL(ctx, EXO_EARG, "refine resolution must be a finite number >= 0");
  if (params->passes > EXO_REFINE_MAX_PASSES)
    return EXO_FAIL(ctx, EXO_EARG, "refine passes must be at most %u", EXO_REFINE_MAX_PASSES);
  if (params->passes == 0 || csr->n == 0 || csr->m == 0) return EXO_OK;
  uint64_t k = *num_clusters;
  if (k == 0 || k > csr->n)
    return EXO_FAIL(ctx, EXO_EARG, "exo_refine_merge: %llu clusters for %llu nodes",
                    (unsigned long long)k, (unsigned long long)csr->n);

  refine_state st;
  memset(&st, 0, sizeof st);
  st.csr = csr;
  st.ctx = ctx;
  st.n = csr->n;
  st.k = k;
  st.esz = exo_adj_size(csr->wide);
  st.fd = -1;
  st.groups = 1;
  st.cutoff = params->self_loop_cutoff;
  st.ratio = params->ratio;
  st.no_screen = params->no_screen;
  exo_status s = exo_csr_load_offsets(csr, &st.off, NULL, ctx);
  if (s) goto done;
  for (uint64_t v = 0; v < st.n; v++)
    if (labels[v] == 0 || labels[v] > k) {
      s = EXO_FAIL(ctx, EXO_EARG, "exo_refine_merge: node %llu has cluster %llu outside 1..%llu",
                   (unsigned long long)v, (unsigned long long)labels[v], (unsigned long long)k);
      goto done;
    }
  if ((s = exo_csr_open_adj(csr, &st.fd, ctx)) != EXO_OK) goto done;

  /* readers: one per thread, each with a share of the buffer and table
   * budgets */
  st.gamma = params->resolution;
  st.nreaders = params->threads > 1 ? (uint32_t)params->threads : 1u;
  if (st.nreaders > RF_MAX_READERS) st.nreaders = RF_MAX_READERS;
  uint64_t bufbytes = exo_budget_share(params->memory_limit, EXO_SHARE_REFINE_READ, st.nreaders);
  st.buf_entries = (size_t)(bufbytes / st.esz);
  if ((uint64_t)st.buf_entries > csr->m) st.buf_entries = (size_t)csr->m;
  /* pair tables: a power of two of slots within their share (exo_budget.h),
   * at most 3/4 full; no bigger than the arcs need */
  uint64_t tbytes = exo_budget_share(params->memory_limit, EXO_SHARE_REFINE_TABLE, st.nreaders);
  size_t cap = EXO_REFINE_MIN_SLOTS;
  while ((uint64_t)cap * 2 * sizeof(pair_slot) <= tbytes && (uint64_t)cap < csr->m + 2) cap *= 2;
  st.rd = calloc(st.nreaders, sizeof *st.rd);
  if (!st.rd) {
    s = exo_fail_oom(ctx, "the refine readers", (uint64_t)st.nreaders * sizeof *st.rd);
    goto done;
  }
  tables_set_cap(&st, cap, 0); /* filled with RF_EMPTY below */
  for (uint32_t i = 0; i < st.nreaders; i++) {
    rf_reader *rd = &st.rd[i];
    rd->buf = malloc(st.buf_entries * st.esz);
    if (!rd->buf) {
      s = exo_fail_oom(ctx, "the refine read buffer", (uint64_t)st.buf_entries * st.esz);
      goto done;
    }
    rd->table = malloc(cap * sizeof *rd->table);
    if (!rd->table) {
      s = exo_fail_oom(ctx, "the refine pair table", (uint64_t)cap * sizeof(pair_slot));
      goto done;
    }
    memset(rd->table, 0xff, cap * sizeof *rd->table); /* key = RF_EMPTY */
  }
  size_t kk = (size_t)k + 1;
  st.in = malloc(kk * sizeof *st.in);
  st.vol = malloc(kk * sizeof *st.vol);
  st.bw = malloc(kk * sizeof *st.bw);
  st.best = malloc(kk * sizeof *st.best);
  st.move = calloc(kk, 1);
  st.svol = malloc(kk * sizeof *st.svol);
  st.sin = malloc(kk * sizeof *st.sin);
  if (!st.in || !st.vol || !st.bw || !st.best || !st.move || !st.svol || !st.sin) {
    s = exo_fail_oom(ctx, "the per-cluster arrays", (uint64_t)kk * EXO_REFINE_CLUSTER_BYTES);
    goto done;
  }

  for (uint32_t pass = 0; pass < params->passes; pass++) {
    uint64_t merged = 0;
    s = merge_pass(&st, labels, params->ratio, &merged, &result->reads, &result->screened);
    if (s) goto done;
    result->passes++;
    result->merged += merged;
    if (merged == 0) break;
  }
  *num_clusters = st.k;
done:
  state_free(&st);
  if (s) memset(result, 0, sizeof *result);
  return s;
}
