/* exo_lp.c: label propagation in sequential sweeps over the CSR files (see
 * exo_lp.h for the rules and exo_record.h for the formats).
 *
 * In memory: offsets (n+1 u64), labels (an exo_ids array, exo_ids.h: n u32
 * while every id fits in 32 bits, else u64; widened to u64 for the caller
 * at the end), a u16 visit counter per node, an active bitmap (exo_bits.h,
 * 1 bit per node), a u32 hop distance per node only
 * when attenuation > 0, with more than one lane the published copies of the
 * labels and distances, per lane its streams, change list and outbox, and
 * per worker one read-ahead window (exo_csr_ahead, exo_csr.h) of the
 * adjacency file and the label tally: an open-addressing hash map cleared
 * through its touched list. Worker threads come from exo_par_run, once per
 * epoch; the sync point runs on the caller's thread. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_lp.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exo_budget.h"
#include "exo_bits.h"
#include "exo_csr.h"
#include "exo_ids.h"
#include "exo_io.h"
#include "exo_lprule.h"
#include "exo_tally.h"
#include "exo_par.h"
#include "exo_record.h"
#include "exo_rng.h"
#include "exo_sweep.h"

_Static_assert(EXO_LP_BLOCK == EXO_SWEEP_BLOCK, "one block size");

#define LP_POLL_POPS 4096u       /* exo_poll / progress interval */
#define LP_POW_TABLE 1024u       /* cached d^a for small hop distances */
#define LP_PREFETCH 24            /* entries ahead to prefetch node data for */

/* ---- run state ---------------------------------------------------------- */

/* A lane: a fixed run of whole blocks (exo_lp.h). Everything a lane does in
 * an epoch depends only on the state at the epoch's start and on the lane
 * itself, never on which thread runs it or when. */
typedef struct lp_change {
  uint64_t v, from, to; /* node, old and new label */
} lp_change;

typedef struct lp_lane {
  exo_sweep_lane sw;        /* nodes, blocks, cursor, outbox (exo_sweep.h) */
  exo_rng rng;              /* tie-breaking */
  exo_rng own_order;        /* block masks (lanes > 1) */
  exo_rng *order;           /* where the block masks are drawn */
  lp_change *chg;           /* changes of this epoch (lanes > 1) */
  size_t nchg, chg_cap;
  uint64_t pops, changes, sweep_changes;
} lp_lane;

/* A worker: one job slot of exo_par_run with its read window and tally. */
typedef struct lp_worker {
  exo_ctx *ctx;        /* the job's ctx while it runs */
  exo_csr_ahead ra;    /* its read-ahead window of the adjacency file (exo_csr.h) */
  uint64_t pops;       /* nodes this worker processed (its progress) */
  exo_tally tally;
  double strength;     /* raw weight of the voting arcs of the node processed */
  uint64_t nvote;      /* number of those arcs */
} lp_worker;

typedef struct lp_state {
  const exo_csr_files *csr;
  const exo_lp_params *par;
  exo_ctx *ctx;
  uint64_t n;
  int wide;
  size_t esz;          /* bytes per adjacency entry */
  int fd;              /* adjacency file */
  uint64_t file_size;  /* bytes */
  uint64_t *off;       /* n + 1 */
  exo_ids lab;         /* n labels (exo_ids.h), u32 when narrow_labels */
  exo_ids pub;         /* published labels (lanes > 1; else the same array as lab) */
  int narrow_labels;   /* n <= 2^32 */
  uint16_t *visits;    /* n: times processed */
  uint64_t *active;    /* n bits (exo_bits.h) */
  uint64_t nactive;    /* set bits in `active` (at the last sync) */
  uint32_t *dist;      /* n, only with attenuation */
  uint32_t *pubdist;   /* published distances (lanes > 1; else = dist) */
  uint64_t *vol;       /* n label volumes (arcs), only with resolution > 0 */
  double gamma_m;      /* resolution / (adjacency entries) */
  exo_rng order_rng;   /* block orders */
  uint32_t perm[EXO_SWEEP_BLOCK];
  uint32_t max_visits;
  uint32_t tie_visits; /* visits that break ties among all best labels */
  double att;          /* attenuation exponent a */
  double pa;           /* p^a for the current sweep */
  double *powtab;      /* d^a for d < LP_POW_TABLE */
  uint32_t nlanes;
  lp_lane *lanes;
  uint64_t epoch_blocks; /* blocks per lane per epoch */
  uint32_t nworkers;
  lp_worker *workers;
  exo_sweep_epoch ep;    /* the epochs (exo_sweep.h) */
  uint64_t epochs;
} lp_state;

static void lp_state_free(lp_state *st) {
  if (st->fd >= 0) exo_close(st->fd);
  st->fd = -1;
  free(st->off);
  if (!exo_ids_same(&st->pub, &st->lab)) exo_ids_free(&st->pub);
  if (st->pubdist != st->dist) free(st->pubdist);
  st->pub = (exo_ids){NULL, NULL};
  st->pubdist = NULL;
  exo_ids_free(&st->lab);
  free(st->visits);
  free(st->active);
  free(st->dist);
  free(st->vol);
  free(st->powtab);
  if (st->lanes) {
    for (uint32_t i = 0; i < st->nlanes; i++) {
      free(st->lanes[i].chg);
      free(st->lanes[i].sw.outbox);
    }
    free(st->lanes);
  }
  if (st->workers) {
    for (uint32_t i = 0; i < st->nworkers; i++) {
      free(st->workers[i].ra.buf);
      exo_tally_free(&st->workers[i].tally);
    }
    free(st->workers);
  }
  st->lanes = NULL;
  st->workers = NULL;
}
/* n * size as size_t, or 0 on overflow (callers reject n > 0 with 0). */
static size_t bytes_for(uint64_t n, size_t size) {
  if (n > SIZE_MAX / size) return 0;
  return (size_t)n * size;
}

/* A per-node array of `bytes` (> 0), zeroed when `zero`; freed with free().
 * Large arrays are asked to be backed by huge pages (exo_alloc_huge): the
 * neighbours' labels are looked up at random, and with 4 KiB pages most of
 * those lookups also miss the TLB. */
static void *alloc_nodes(size_t bytes, int zero) {
  void *p = exo_alloc_huge(bytes);
  if (p && zero) memset(p, 0, bytes);
  return p;
}

/* Label of neighbour u as seen by a lane whose nodes are [lo, hi): live
 * inside the lane, published (as of the last sync) outside. `narrow` is a
 * constant in every caller's specialisation. */
static inline uint64_t nb_label(const lp_state *st, uint64_t u, uint64_t lo, uint64_t hi,
                                int narrow) {
  if (u - lo < hi - lo) return exo_ids_getw(&st->lab, u, !narrow);
  return exo_ids_getw(&st->pub, u, !narrow);
}


static exo_status open_adjacency(lp_state *st) {
  exo_status s = exo_csr_open_adj(st->csr, &st->fd, st->ctx);
  if (s) return s;
  st->file_size = st->csr->m * st->esz;
  exo_hint_sequential(st->fd, 0, 0);
  return EXO_OK;
}

static uint64_t isqrt_u64(uint64_t x) {
  uint64_t r = (uint64_t)sqrt((double)x);
  while (r > 0 && r * r > x) r--;
  while ((r + 1) * (r + 1) <= x) r++;
  return r;
}

uint32_t exo_lp_visit_cap(uint32_t asked, uint64_t max_degree, uint32_t *tie_visits) {
  uint32_t cap;
  if (asked == 0) {
    uint64_t r = isqrt_u64(max_degree);
    cap = (uint32_t)(r < EXO_LP_AUTO_MIN_VISITS ? EXO_LP_AUTO_MIN_VISITS
                     : r > EXO_LP_MAX_VISITS    ? EXO_LP_MAX_VISITS
                                                : r);
  } else {
    cap = asked > EXO_LP_MAX_VISITS ? EXO_LP_MAX_VISITS : asked;
  }
  uint32_t t = cap / 4 * 3 + (cap % 4) * 3 / 4; /* floor(3 cap / 4) */
  *tie_visits = t > EXO_LP_TIE_VISITS ? EXO_LP_TIE_VISITS : t;
  return cap;
}

/* d^a for hop distance d. */
static inline double dist_pow(const lp_state *st, uint32_t d) {
  if (st->att == 1.0) return (double)d;
  if (d < LP_POW_TABLE) return st->powtab[d];
  return pow((double)d, st->att);
}

static exo_status bad_neighbour(const lp_state *st, exo_ctx *ctx, uint64_t v, uint64_t u) {
  return exo_csr_bad_neighbour(st->csr, v, u, ctx);
}

/* Ask the cache for the per-node data of the neighbour in entry i of p
 * (if any) that a lane of nodes [lo, hi) reads: the label and distance
 * lookups are random accesses. */
static inline void prefetch_entry(const lp_state *st, const uint8_t *p, size_t i, size_t k,
                                  uint64_t lo, uint64_t hi, int want_dist, int want_visits,
                                  int narrow, int wide) {
  if (i >= k) return;
  uint64_t u;
  float w;
  exo_adj_decode(p + i * exo_adj_size(wide), wide, &u, &w);
  if (u >= st->n) return;
  int own = u - lo < hi - lo;
  if (narrow) EXO_PREFETCH(own ? &st->lab.a32[u] : &st->pub.a32[u]);
  else EXO_PREFETCH(own ? &st->lab.a64[u] : &st->pub.a64[u]);
  if (want_dist) EXO_PREFETCH(own ? &st->dist[u] : &st->pubdist[u]);
  if (want_visits && own) EXO_PREFETCH(&st->visits[u]);
}

#if defined(__GNUC__)
#define LP_INLINE static inline __attribute__((always_inline))
#else
#define LP_INLINE static inline
#endif

/* The hot loops below take `narrow` (u32 labels) and `wide` (u64 adjacency
 * ids) as parameters; their callers pass constants for the common case
 * (narrow labels, narrow adjacency) so that it gets its own copy. */

/* The votes of one adjacency list, as a reusable step: what a vote is
 * (exo_lp.h) and where the neighbours' labels and distances are read. */
typedef struct lp_votes {
  const lp_state *st;
  uint64_t lo, hi;  /* the lane: nodes read live; others from the published copy */
  exo_tally *t;
  double strength;  /* raw weight of the voting arcs so far */
  uint64_t nvote;   /* their number */
} lp_votes;

/* Tally the votes held in entries [0, k) of p for node v into vt->t. */
LP_INLINE exo_status tally_impl(lp_votes *vt, exo_ctx *ctx, uint64_t v, const uint8_t *p,
                                size_t k, int narrow, int wide) {
  const lp_state *st = vt->st;
  const int directed = st->par->directed;
  const double cutoff = st->par->self_loop_cutoff;
  const int att = st->dist != NULL;
  const uint64_t lo = vt->lo, hi = vt->hi;
  const size_t esz = exo_adj_size(wide);
  const uint8_t *q = p;
  for (size_t i = 0; i < LP_PREFETCH; i++) prefetch_entry(st, p, i, k, lo, hi, att, 0, narrow, wide);
  for (size_t i = 0; i < k; i++, q += esz) {
    uint64_t u;
    float w;
    prefetch_entry(st, p, i + LP_PREFETCH, k, lo, hi, att, 0, narrow, wide);
    exo_adj_decode(q, wide, &u, &w);
    if (u >= st->n) return bad_neighbour(st, ctx, v, u);
    if (directed && !(w > 0.0f)) continue; /* out-arcs do not vote */
    double wd = (double)w;
    uint32_t d = 0;
    if (att) {
      d = u - lo < hi - lo ? st->dist[u] : st->pubdist[u];
      wd *= 1.0 - st->pa * dist_pow(st, d);
    }
    int eligible = fabs((double)w) >= cutoff;
    vt->strength += (double)w;
    vt->nvote++;
    const uint64_t l = nb_label(st, u, lo, hi, narrow);
    const size_t labels_before = vt->t->count;
    if (exo_tally_add(vt->t, l, wd, d, eligible) != 0)
      return exo_fail_oom(ctx,
                          "the label tally", (uint64_t)vt->t->cap * 2 * sizeof(exo_tally_slot));
    /* a new label: its volume is read when the labels are scored, after
     * the whole list; fetch it now (one random access per label, which
     * cost a full miss each when scored in a row) */
    if (st->vol && vt->t->count != labels_before) EXO_PREFETCH(&st->vol[l]);
  }
  return EXO_OK;
}

static exo_status tally_entries(lp_votes *vt, exo_ctx *ctx, uint64_t v, const uint8_t *p,
                                size_t k) {
  if (vt->st->narrow_labels && !vt->st->wide) return tally_impl(vt, ctx, v, p, k, 1, 0);
  return tally_impl(vt, ctx, v, p, k, vt->st->narrow_labels, vt->st->wide);
}

/* Activate the out-neighbours in entries [0, k) of p whose label differs
 * from `label`, unless active already or out of visits; a neighbour in
 * another lane goes to the lane's outbox (applied at the sync). */
LP_INLINE exo_status activate_impl(lp_state *st, lp_lane *ln, exo_ctx *ctx, const uint8_t *p,
                                   size_t k, uint64_t label, int narrow, int wide) {
  const int directed = st->par->directed;
  const size_t esz = exo_adj_size(wide);
  const uint64_t lo = ln->sw.lo, hi = ln->sw.hi;
  const uint8_t *q = p;
  for (size_t i = 0; i < LP_PREFETCH; i++) prefetch_entry(st, p, i, k, lo, hi, 0, 1, narrow, wide);
  for (size_t i = 0; i < k; i++, q += esz) {
    uint64_t u;
    float w;
    prefetch_entry(st, p, i + LP_PREFETCH, k, lo, hi, 0, 1, narrow, wide);
    exo_adj_decode(q, wide, &u, &w);
    if (directed && !(w < 0.0f)) continue; /* in-arcs are not followed */
    if (nb_label(st, u, lo, hi, narrow) == label) continue;
    if (u - lo >= hi - lo) {
      if (exo_sweep_outbox_push(&ln->sw, u) != 0)
        return exo_fail_oom(ctx, "the activation outbox", (uint64_t)ln->sw.out_cap * 16);
      continue;
    }
    if (st->visits[u] >= st->max_visits || !exo_bits_set_new(st->active, u)) continue;
    ln->sw.nactive_delta++;
  }
  return EXO_OK;
}

static exo_status activate_entries(lp_state *st, lp_lane *ln, exo_ctx *ctx, const uint8_t *p,
                                   size_t k, uint64_t label) {
  if (st->narrow_labels && !st->wide) return activate_impl(st, ln, ctx, p, k, label, 1, 0);
  return activate_impl(st, ln, ctx, p, k, label, st->narrow_labels, st->wide);
}

/* A list [beg, beg + len) longer than the window, in window-sized chunks
 * with the read-ahead off: its votes into vt, or (vt NULL) the activation
 * of its out-neighbours whose label is not `label`. */
static exo_status long_list(lp_state *st, lp_worker *wk, lp_lane *ln, lp_votes *vt, uint64_t v,
                            uint64_t beg, uint64_t len, uint64_t label) {
  const uint64_t chunk = wk->ra.cap / st->esz, look = wk->ra.look_from;
  const uint8_t *p;
  exo_status s = EXO_OK;
  wk->ra.look_from = EXO_CSR_NO_LOOKAHEAD;
  for (uint64_t done = 0; done < len && !s; done += chunk) {
    uint64_t k = len - done < chunk ? len - done : chunk;
    if (done > 0 || !vt) s = exo_poll(wk->ctx);
    if (!s) s = exo_csr_ahead_get(&wk->ra, (beg + done) * st->esz, (beg + done + k) * st->esz, &p, wk->ctx);
    if (!s && vt) s = tally_entries(vt, wk->ctx, v, p, (size_t)k);
    else if (!s) s = activate_entries(st, ln, wk->ctx, p, (size_t)k, label);
  }
  wk->ra.look_from = look;
  return s;
}

/* Process node v once; *changed is set when its label changed. */
static exo_status process_node(lp_state *st, lp_worker *wk, lp_lane *ln, uint64_t v,
                               int *changed) {
  exo_ctx *ctx = wk->ctx;
  exo_status s;
  uint64_t beg = st->off[v], len = st->off[v + 1] - beg;
  uint64_t cur = exo_ids_get(&st->lab, v);
  const uint8_t *p = NULL;
  *changed = 0;
  if (len == 0) return EXO_OK; /* no votes */
  exo_tally_clear(&wk->tally);
  lp_votes vt = {st, ln->sw.lo, ln->sw.hi, &wk->tally, 0.0, 0};
  const uint64_t chunk = wk->ra.cap / st->esz; /* entries per chunk of a long list */
  const int whole = len <= chunk;
  if (whole) {
    s = exo_csr_ahead_get(&wk->ra, beg * st->esz, (beg + len) * st->esz, &p, ctx);
    if (!s) s = tally_entries(&vt, ctx, v, p, (size_t)len);
  } else {
    s = long_list(st, wk, ln, &vt, v, beg, len, 0);
  }
  if (s) return s;

  /* the winner rule, volume penalty included (exo_lp.h), is exo_lprule.h's,
   * the same as the distributed supersteps' */
  const uint64_t deg = len;
  exo_lp_choice ch;
  if (!exo_lp_decide(&wk->tally, cur, deg, st->vol, st->gamma_m, vt.nvote, vt.strength,
                     st->visits[v], st->tie_visits, &ln->rng, &ch))
    return EXO_OK;
  const uint64_t win = ch.win;
  const uint32_t win_dist = ch.win_dist;
  if (st->vol) {
    if (st->nlanes == 1) { /* one lane: the volumes are live */
      st->vol[cur] -= deg;
      st->vol[win] += deg;
    }
  }
  if (st->nlanes > 1) { /* published and the volumes updated at the sync */
    if (ln->nchg == ln->chg_cap) {
      size_t cap = ln->chg_cap ? ln->chg_cap * 2 : 256;
      lp_change *c = realloc(ln->chg, cap * sizeof *c);
      if (!c) return exo_fail_oom(ctx, "the change list", (uint64_t)cap * sizeof *c);
      ln->chg = c;
      ln->chg_cap = cap;
    }
    ln->chg[ln->nchg++] = (lp_change){v, cur, win};
  }

  exo_ids_set(&st->lab, v, win);
  if (st->dist) st->dist[v] = win_dist == UINT32_MAX ? UINT32_MAX : win_dist + 1;
  *changed = 1;

  if (whole) /* the list is still in the window */
    return activate_entries(st, ln, ctx, p, (size_t)len, win);
  return long_list(st, wk, ln, NULL, v, beg, len, win);
}

static exo_status off_at(void *user, uint64_t node, uint64_t *off) {
  *off = ((const lp_state *)user)->off[node];
  return EXO_OK;
}

/* The lanes (exo_sweep.h), their seeded streams and the epoch length. */
static exo_status make_lanes(lp_state *st) {
  const uint32_t L = exo_sweep_lane_count(st->n, EXO_LP_LANES, EXO_LP_LANE_MIN_BLOCKS,
                                          st->par->max_lanes);
  st->nlanes = L;
  st->lanes = calloc((size_t)L, sizeof *st->lanes);
  if (!st->lanes) return exo_fail_oom(st->ctx, "the lanes", L * sizeof *st->lanes);
  exo_sweep_cut(st->n, st->csr->m, L, off_at, st, st->lanes, sizeof *st->lanes);
  for (uint64_t i = 0; i < L; i++) {
    lp_lane *ln = &st->lanes[i];
    /* lane 0 draws as the single-lane sweep always did */
    exo_rng_seed(&ln->rng, i == 0 ? st->par->seed
                                  : st->par->seed ^ (0x9E3779B97F4A7C15ULL * (i + 1)));
    exo_rng_seed(&ln->own_order, st->par->seed ^ 0x6a09e667f3bcc909ULL ^
                                     (0xBF58476D1CE4E5B9ULL * (i + 1)));
    ln->order = L == 1 ? &st->order_rng : &ln->own_order;
  }
  /* one lane: the sweep is one epoch (nothing crosses a lane) */
  uint64_t nb = (st->n + EXO_LP_BLOCK - 1) / EXO_LP_BLOCK;
  st->epoch_blocks = L == 1 ? (nb ? nb : 1) : EXO_LP_EPOCH_BLOCKS;
  return EXO_OK;
}

static exo_status lp_setup(lp_state *st, uint32_t threads) {
  exo_ctx *ctx = st->ctx;
  const exo_lp_params *par = st->par;
  uint64_t n = st->n;
  uint64_t maxdeg = 0;
  exo_status s = exo_csr_load_offsets(st->csr, &st->off, &maxdeg, st->ctx);
  if (!s) s = open_adjacency(st);
  if (!s) s = make_lanes(st);
  if (s) return s;
  st->max_visits = exo_lp_visit_cap(par->max_visits, maxdeg, &st->tie_visits);

  /* workers: min(threads, lanes); the read budget (exo_budget.h) is split
   * among them, whole entries, no larger than the file; EXO_CSR_ALIGN extra
   * for page-aligned read starts */
  st->nworkers = threads < 1 ? 1 : threads > st->nlanes ? st->nlanes : threads;
  st->workers = calloc(st->nworkers, sizeof *st->workers);
  if (!st->workers) return exo_fail_oom(ctx, "the workers", st->nworkers * sizeof *st->workers);
  uint64_t cap = exo_budget_share(par->memory_limit, EXO_SHARE_LP_READ, st->nworkers);
  cap -= cap % st->esz;
  if (cap > st->file_size + st->esz) cap = st->file_size + st->esz;
  for (uint32_t i = 0; i < st->nworkers; i++) {
    lp_worker *wk = &st->workers[i];
    wk->ra = (exo_csr_ahead){.fd = st->fd, .path = st->csr->adj_path, .esz = st->esz,
                             .file_size = st->file_size, .off = st->off, .active = st->active,
                             .gap = EXO_LP_GAP};
    wk->ra.cap = cap;
    wk->ra.buf_alloc = cap + EXO_CSR_ALIGN;
    wk->ra.buf = malloc((size_t)wk->ra.buf_alloc);
    if (!wk->ra.buf) return exo_fail_oom(ctx, "the adjacency buffer", wk->ra.buf_alloc);
    if (exo_tally_alloc(&wk->tally, 1024) != 0)
      return exo_fail_oom(ctx, "the label tally", 1024 * sizeof(exo_tally_slot));
  }

  size_t nb8 = bytes_for(n, 8);
  if (n > 0 && !nb8) return exo_fail_oom(ctx, "the node arrays", n * 8);
  size_t nb4 = (n ? (size_t)n : 1) * 4;
  st->narrow_labels = n <= EXO_NARROW_ID_LIMIT && !par->force_wide_labels;
  const int lwide = !st->narrow_labels;
  const size_t lab_bytes = exo_ids_bytes(n, lwide);
  if (exo_ids_alloc(&st->lab, n, lwide, EXO_IDS_HUGE))
    return exo_fail_oom(ctx, "the labels", lab_bytes);
  if (st->nlanes == 1)
    st->pub = st->lab;
  else if (exo_ids_alloc(&st->pub, n, lwide, EXO_IDS_HUGE))
    return exo_fail_oom(ctx, "the published labels", lab_bytes);
  st->visits = alloc_nodes((n ? (size_t)n : 1) * sizeof *st->visits, 1);
  if (!st->visits) return exo_fail_oom(ctx, "the visit counters", n * 2);
  st->active = exo_bits_alloc(n);
  if (!st->active) return exo_fail_oom(ctx, "the active set", (uint64_t)exo_bits_words(n) * 8);
  if (par->resolution > 0.0 && n > 0) {
    /* label volumes in arcs: every node starts alone, vol(v) = its degree */
    st->vol = alloc_nodes((size_t)n * sizeof *st->vol, 0);
    if (!st->vol) return exo_fail_oom(ctx, "the label volumes", n * 8);
    if (par->initial) { /* each label's volume: its nodes' degrees */
      for (uint64_t v = 0; v < n; v++) st->vol[v] = 0;
      for (uint64_t v = 0; v < n; v++) st->vol[par->initial[v]] += st->off[v + 1] - st->off[v];
    } else {
      for (uint64_t v = 0; v < n; v++) st->vol[v] = st->off[v + 1] - st->off[v];
    }
    st->gamma_m = exo_quality_gp(EXO_QUALITY_MODULARITY, par->resolution, (double)st->csr->m);
  }
  if (st->att > 0.0) {
    st->dist = alloc_nodes(nb4, 1);
    if (!st->dist) return exo_fail_oom(ctx, "the hop distances", n * 4);
    st->pubdist = st->nlanes > 1 ? alloc_nodes(nb4, 1) : st->dist;
    if (!st->pubdist) return exo_fail_oom(ctx, "the published hop distances", n * 4);
    if (st->att != 1.0) {
      st->powtab = malloc(LP_POW_TABLE * sizeof *st->powtab);
      if (!st->powtab) return exo_fail_oom(ctx, "a power table", LP_POW_TABLE * sizeof(double));
      for (uint32_t d = 0; d < LP_POW_TABLE; d++) st->powtab[d] = pow((double)d, st->att);
    }
  }

  /* every node starts alone and active */
  exo_rng_seed(&st->order_rng, par->seed ^ 0x6a09e667f3bcc909ULL);
  for (uint64_t v = 0; v < n; v++)
    exo_ids_setw(&st->lab, v, par->initial ? par->initial[v] : v, lwide);
  if (st->nlanes > 1) exo_ids_copy(&st->pub, &st->lab, n);
  for (uint32_t i = 0; i < st->nworkers; i++) st->workers[i].ra.active = st->active;
  exo_bits_fill(st->active, n);
  st->nactive = n;
  return EXO_OK;
}

/* Process the active nodes of block [first, first + EXO_LP_BLOCK) of lane
 * ln in this sweep's order for the block. */
static exo_status run_block(lp_state *st, lp_worker *wk, lp_lane *ln, uint64_t first) {
  uint64_t end = first + EXO_LP_BLOCK < st->n ? first + EXO_LP_BLOCK : st->n, lo, hi;
  uint32_t mask;
  if (!exo_sweep_block_begin(st->active, first, end, ln->order, &lo, &hi, &mask)) return EXO_OK;
  exo_status s;
  wk->ra.look_from = end;
  /* pull the active part of the block in with one read when it fits */
  uint64_t b0 = st->off[lo] * st->esz, b1 = st->off[hi + 1] * st->esz;
  if (b1 > b0 && b1 - b0 <= wk->ra.cap) {
    const uint8_t *p;
    if ((s = exo_csr_ahead_get(&wk->ra, b0, b1, &p, wk->ctx)) != EXO_OK) return s;
  }
  for (uint32_t i = 0; i < EXO_LP_BLOCK; i++) {
    uint64_t v = exo_sweep_block_node(st->active, st->perm, mask, i, first, end);
    if (v == UINT64_MAX) continue;
    exo_bits_clear(st->active, v);
    ln->sw.nactive_delta--;
    st->visits[v]++;
    int changed = 0;
    if ((s = process_node(st, wk, ln, v, &changed)) != EXO_OK) return s;
    ln->pops++;
    wk->pops++;
    if (changed) {
      ln->changes++;
      ln->sweep_changes++;
    }
    if ((wk->pops & (LP_POLL_POPS - 1)) == 0) {
      if ((s = exo_poll(wk->ctx)) != EXO_OK) return s;
      exo_progress(wk->ctx, EXO_STAGE_CLUSTER, wk->pops, 0);
    }
  }
  return EXO_OK;
}

/* One epoch of lane ln: its next epoch_blocks blocks. */
static exo_status run_lane_epoch(lp_state *st, lp_worker *wk, lp_lane *ln) {
  uint64_t stop = ln->sw.cursor + st->epoch_blocks;
  if (stop > ln->sw.blk_hi) stop = ln->sw.blk_hi;
  /* the read-ahead stays inside the epoch: the next epoch of this lane may
   * run on another worker, whose window starts fresh */
  wk->ra.look_to = stop * EXO_LP_BLOCK < ln->sw.hi ? stop * EXO_LP_BLOCK : ln->sw.hi;
  exo_status s = EXO_OK;
  /* one lane: stop the sweep when no node is left active (nothing else
   * can activate one) */
  for (; ln->sw.cursor < stop && !s; ln->sw.cursor++) {
    if (st->nlanes == 1 && (int64_t)st->nactive + ln->sw.nactive_delta == 0) break;
    s = run_block(st, wk, ln, ln->sw.cursor * EXO_LP_BLOCK);
  }
  if (!s) ln->sw.cursor = stop;
  return s;
}

/* exo_sweep_epoch's lane run: lane `lane` on worker `worker`'s window (a
 * lane's data is not in another's window). */
static exo_status epoch_lane(void *user, uint32_t worker, uint32_t lane, exo_ctx *ctx) {
  lp_state *st = user;
  lp_worker *wk = &st->workers[worker];
  wk->ctx = ctx;
  wk->ra.win_beg = wk->ra.win_end = 0;
  return run_lane_epoch(st, wk, &st->lanes[lane]);
}

/* The sync point after an epoch (one thread): publish the lanes' changes,
 * update the label volumes, apply the deferred activations in lane order,
 * recount the active nodes. */
static void sync_epoch(lp_state *st) {
  const int lwide = !st->narrow_labels;
  for (uint32_t i = 0; i < st->nlanes; i++) {
    lp_lane *ln = &st->lanes[i];
    st->nactive = (uint64_t)((int64_t)st->nactive + ln->sw.nactive_delta);
    ln->sw.nactive_delta = 0;
    for (size_t j = 0; j < ln->nchg; j++) {
      const lp_change *c = &ln->chg[j];
      uint64_t v = c->v;
      exo_ids_setw(&st->pub, v, exo_ids_getw(&st->lab, v, lwide), lwide);
      if (st->dist) st->pubdist[v] = st->dist[v];
      if (st->vol) {
        uint64_t deg = st->off[v + 1] - st->off[v];
        st->vol[c->from] -= deg;
        st->vol[c->to] += deg;
      }
    }
    ln->nchg = 0;
  }
  for (uint32_t i = 0; i < st->nlanes; i++) {
    lp_lane *ln = &st->lanes[i];
    for (size_t j = 0; j < ln->sw.nout; j++) {
      uint64_t u = ln->sw.outbox[j];
      if (st->visits[u] >= st->max_visits || !exo_bits_set_new(st->active, u)) continue;
      st->nactive++;
    }
    ln->sw.nout = 0;
  }
}

/* Contract (exo_lp.h): runs label propagation until no node is active and
 * hands the labels to result->labels (caller frees). On error result is
 * zeroed and every resource is released. */
exo_status exo_lp_run(const exo_csr_files *csr, const exo_lp_params *params,
                      exo_ctx *ctx, exo_lp_result *result) {
  if (result) memset(result, 0, sizeof *result);
  if (!csr || !params || !result || !csr->offsets_path || !csr->adj_path)
    return EXO_FAIL(ctx, EXO_EARG, "exo_lp_run: NULL argument");
  if (!(params->attenuation >= 0.0) || !isfinite(params->attenuation))
    return EXO_FAIL(ctx, EXO_EARG, "attenuation must be a finite number >= 0");
  if (!(params->resolution >= 0.0) || !isfinite(params->resolution))
    return EXO_FAIL(ctx, EXO_EARG, "resolution must be a finite number >= 0");
  if (!(params->self_loop_cutoff >= 0.0))
    return EXO_FAIL(ctx, EXO_EARG, "self_loop_cutoff must be >= 0");
  if (csr->n >= ((uint64_t)1 << 61))
    return EXO_FAIL(ctx, EXO_ELIMIT, "too many nodes for label propagation (%llu)",
                    (unsigned long long)csr->n);
  for (uint64_t v = 0; params->initial && v < csr->n; v++)
    if (params->initial[v] >= csr->n)
      return EXO_FAIL(ctx, EXO_EARG, "label propagation: the initial label of node %llu is "
                      "%llu, not below the node count %llu", (unsigned long long)v,
                      (unsigned long long)params->initial[v], (unsigned long long)csr->n);
  exo_status s = exo_poll(ctx);
  if (s) return s;

  lp_state st;
  memset(&st, 0, sizeof st);
  st.csr = csr;
  st.par = params;
  st.ctx = ctx;
  st.n = csr->n;
  st.wide = csr->wide;
  st.esz = exo_adj_size(csr->wide);
  st.fd = -1;
  st.att = params->attenuation;
  st.pa = 0.0; /* first sweep: p = 0 */

  exo_progress(ctx, EXO_STAGE_CLUSTER, 0, 0);
  s = lp_setup(&st, params->threads);
  st.ep = (exo_sweep_epoch){.lanes = st.lanes, .stride = sizeof *st.lanes, .nlanes = st.nlanes,
                            .run = epoch_lane, .user = &st};

  uint64_t sweeps = 0, sweep_changes = 0;
  while (!s && st.nactive > 0) {
    if (sweeps > 0) {
      double p = (double)sweep_changes / (double)st.n;
      st.pa = st.att == 1.0 ? p : pow(p, st.att);
    }
    sweeps++;
    sweep_changes = 0;
    exo_sweep_order(st.perm, &st.order_rng);
    exo_sweep_rewind(st.lanes, sizeof *st.lanes, st.nlanes);
    /* epochs */
    while (st.nactive > 0 && exo_sweep_lanes_left(st.lanes, sizeof *st.lanes, st.nlanes)) {
      s = exo_sweep_epoch_run(&st.ep, st.nworkers, 0, ctx);
      if (s) break;
      sync_epoch(&st);
      st.epochs++;
    }
    for (uint32_t i = 0; i < st.nlanes; i++) {
      sweep_changes += st.lanes[i].sweep_changes;
      st.lanes[i].sweep_changes = 0;
    }
  }
  if (s) {
    lp_state_free(&st);
    return s;
  }
  uint64_t pops = 0, changes = 0;
  for (uint32_t i = 0; i < st.nlanes; i++) {
    pops += st.lanes[i].pops;
    changes += st.lanes[i].changes;
  }
  for (uint32_t i = 0; i < st.nworkers; i++) {
    result->bytes_read += st.workers[i].ra.bytes_read;
    result->reads += st.workers[i].ra.reads;
  }
  result->lanes = st.nlanes;
  result->epochs = st.epochs;
  exo_progress(ctx, EXO_STAGE_CLUSTER, pops, 0);
  /* hand over u64 labels; free the rest before widening */
  exo_ids lab = st.lab;
  if (exo_ids_same(&st.pub, &lab)) st.pub = (exo_ids){NULL, NULL};
  st.lab = (exo_ids){NULL, NULL};
  lp_state_free(&st);
  result->labels = exo_ids_take_u64(&lab, st.n);
  if (!result->labels) {
    exo_ids_free(&lab);
    memset(result, 0, sizeof *result);
    return exo_fail_oom(ctx, "the labels", st.n * 8);
  }
  result->max_visits = st.max_visits;
  result->pops = pops;
  result->changes = changes;
  result->rounds = sweeps;
  return EXO_OK;
}
