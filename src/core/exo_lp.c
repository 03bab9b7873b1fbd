/* exo_lp.c: label propagation in sequential sweeps over the CSR files (see
 * exo_lp.h for the rules and exo_record.h for the formats).
 *
 * In memory: offsets (n+1 u64), labels (n u32 while every id fits in 32
 * bits, else u64; widened to u64 for the caller at the end), a u16 visit counter per
 * node, an active bitmap (1 bit per node), a u32 hop distance per node only
 * when attenuation > 0, one read buffer holding a window [win_beg, win_end)
 * of the adjacency file, and the label tally: an open-addressing hash map
 * cleared through its touched list. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_lp.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exo_io.h"
#include "exo_record.h"
#include "exo_rng.h"

#define LP_POLL_POPS 4096u       /* exo_poll / progress interval */
#define LP_MIN_BUF ((uint64_t)64 << 10)
#define LP_MAX_BUF ((uint64_t)64 << 20)
#define LP_READ_STEP ((uint64_t)256 << 10) /* bytes read ahead per window refill */
#define LP_ALIGN ((uint64_t)4096) /* reads start on page boundaries */
#define LP_OFFSETS_CHUNK ((size_t)1 << 23) /* offsets read per pread (entries) */
#define LP_POW_TABLE 1024u       /* cached d^a for small hop distances */
#define TALLY_EMPTY UINT64_MAX   /* labels are node ids, always < 2^61 */
#define LP_PREFETCH 24            /* entries ahead to prefetch node data for */
#define LP_NO_LOOKAHEAD UINT64_MAX

#if defined(__GNUC__)
#define LP_PREFETCH_ADDR(p) __builtin_prefetch(p)
#else
#define LP_PREFETCH_ADDR(p) ((void)0)
#endif

/* ---- label tally: open addressing, linear probing --------------------- */

typedef struct tally_slot {
  uint64_t label;
  double sum;        /* attenuated weight of the label's arcs */
  uint32_t dist;     /* smallest hop distance among the label's arcs */
  uint32_t eligible; /* some arc has raw |w| >= self_loop_cutoff */
} tally_slot;

typedef struct tally {
  tally_slot *slots;
  size_t *touched; /* indices of occupied slots, in insertion order */
  size_t cap;      /* power of two */
  unsigned shift;  /* 64 - log2(cap) */
  size_t count;
} tally;

static size_t tally_hash(const tally *t, uint64_t label) {
  return (size_t)((label * 0x9E3779B97F4A7C15ULL) >> t->shift);
}

static int tally_alloc(tally *t, size_t cap) {
  tally_slot *s = malloc(cap * sizeof *s);
  size_t *tl = malloc((cap / 2) * sizeof *tl);
  if (!s || !tl) {
    free(s);
    free(tl);
    return -1;
  }
  for (size_t i = 0; i < cap; i++) s[i].label = TALLY_EMPTY;
  unsigned bits = 0;
  while (((size_t)1 << bits) < cap) bits++;
  t->slots = s;
  t->touched = tl;
  t->cap = cap;
  t->shift = 64u - bits;
  t->count = 0;
  return 0;
}

static void tally_free(tally *t) {
  free(t->slots);
  free(t->touched);
  t->slots = NULL;
  t->touched = NULL;
}

/* Clear only the slots in use. */
static void tally_clear(tally *t) {
  for (size_t i = 0; i < t->count; i++) t->slots[t->touched[i]].label = TALLY_EMPTY;
  t->count = 0;
}

/* Double the table, keeping the entries and their insertion order. */
static int tally_grow(tally *t) {
  tally old = *t;
  if (old.cap > SIZE_MAX / 2 / sizeof(tally_slot) || tally_alloc(t, old.cap * 2) != 0) {
    *t = old;
    return -1;
  }
  for (size_t i = 0; i < old.count; i++) {
    const tally_slot *e = &old.slots[old.touched[i]];
    size_t h = tally_hash(t, e->label);
    while (t->slots[h].label != TALLY_EMPTY) h = (h + 1) & (t->cap - 1);
    t->slots[h] = *e;
    t->touched[t->count++] = h;
  }
  tally_free(&old);
  return 0;
}

/* Add one arc's vote. Returns -1 when the table cannot grow. */
static inline int tally_add(tally *t, uint64_t label, double w, uint32_t dist,
                            int eligible) {
  size_t mask = t->cap - 1;
  size_t h = tally_hash(t, label);
  for (;;) {
    tally_slot *e = &t->slots[h];
    if (e->label == label) {
      e->sum += w;
      if (dist < e->dist) e->dist = dist;
      e->eligible |= (uint32_t)eligible;
      return 0;
    }
    if (e->label == TALLY_EMPTY) break;
    h = (h + 1) & mask;
  }
  if (t->count + 1 > t->cap / 2) { /* keep the load at most 1/2 */
    if (tally_grow(t) != 0) return -1;
    return tally_add(t, label, w, dist, eligible);
  }
  tally_slot *e = &t->slots[h];
  e->label = label;
  e->sum = w;
  e->dist = dist;
  e->eligible = (uint32_t)eligible;
  t->touched[t->count++] = h;
  return 0;
}

/* ---- run state ---------------------------------------------------------- */

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
  uint32_t *lab32;    /* n labels when narrow_labels */
  uint64_t *lab64;    /* n labels otherwise */
  int narrow_labels;  /* n <= 2^32 */
  uint16_t *visits;    /* n: times processed */
  uint64_t *active;    /* ceil(n / 64) words */
  uint64_t nactive;    /* set bits in `active` */
  uint32_t *dist;      /* n, only with attenuation */
  uint64_t *vol;       /* n label volumes (arcs), only with resolution > 0 */
  double gamma_m;      /* resolution / (adjacency entries) */
  double strength;     /* raw weight of the voting arcs of the node processed */
  uint64_t nvote;      /* number of those arcs */
  uint8_t *buf;        /* window of the adjacency file */
  uint64_t cap;        /* largest list range kept whole in the window (bytes) */
  uint64_t buf_alloc;  /* cap + LP_ALIGN */
  uint64_t win_beg, win_end; /* file bytes held in buf[0, win_end - win_beg) */
  uint64_t look_from;  /* first node the read-ahead may pull in */
  uint64_t advised_from, advised_to; /* last range announced with WILLNEED */
  uint64_t bytes_read, reads;
  tally tally;
  exo_rng rng;         /* tie-breaking */
  exo_rng order_rng;   /* block orders */
  uint16_t perm[EXO_LP_BLOCK];
  uint32_t max_visits;
  uint32_t tie_visits; /* visits that break ties among all best labels */
  double att;          /* attenuation exponent a */
  double pa;           /* p^a for the current sweep */
  double *powtab;      /* d^a for d < LP_POW_TABLE */
} lp_state;

static void lp_state_free(lp_state *st) {
  if (st->fd >= 0) exo_close(st->fd);
  st->fd = -1;
  free(st->off);
  free(st->lab32);
  free(st->lab64);
  free(st->visits);
  free(st->active);
  free(st->dist);
  free(st->vol);
  free(st->buf);
  free(st->powtab);
  tally_free(&st->tally);
}

static exo_status oom(exo_ctx *ctx, const char *what, uint64_t bytes) {
  return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory allocating %llu bytes for %s",
                  (unsigned long long)bytes, what);
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

/* Label of node u; `narrow` is a constant in every caller's specialisation. */
static inline uint64_t get_label(const lp_state *st, uint64_t u, int narrow) {
  return narrow ? (uint64_t)st->lab32[u] : st->lab64[u];
}

static inline void set_label(lp_state *st, uint64_t u, uint64_t label, int narrow) {
  if (narrow) st->lab32[u] = (uint32_t)label;
  else st->lab64[u] = label;
}

static inline int is_active(const lp_state *st, uint64_t v) {
  return (int)((st->active[v >> 6] >> (v & 63)) & 1u);
}

/* Load and validate the offsets file. */
static exo_status load_offsets(lp_state *st) {
  exo_ctx *ctx = st->ctx;
  const char *path = st->csr->offsets_path;
  uint64_t n = st->n, m = st->csr->m;
  uint64_t size = 0;
  exo_status s = exo_file_size(path, &size, ctx);
  if (s) return s;
  if (size != (n + 1) * 8)
    return EXO_FAIL(ctx, EXO_EINTERNAL,
                    "CSR offsets file '%s' has %llu bytes, expected %llu for %llu nodes",
                    path, (unsigned long long)size, (unsigned long long)((n + 1) * 8),
                    (unsigned long long)n);
  size_t nb = bytes_for(n + 1, sizeof(uint64_t));
  if (!nb) return oom(ctx, "the CSR offsets", (n + 1) * 8);
  st->off = malloc(nb);
  if (!st->off) return oom(ctx, "the CSR offsets", nb);
  int fd = exo_open(path, EXO_OPEN_READ);
  if (fd < 0) return exo_error_errno(&ctx->err, errno, "open", path);
  for (uint64_t i = 0; i < n + 1 && !s; i += LP_OFFSETS_CHUNK) {
    uint64_t k = n + 1 - i;
    if (k > LP_OFFSETS_CHUNK) k = LP_OFFSETS_CHUNK;
    s = exo_pread_full(fd, st->off + i, (size_t)k * 8, i * 8, path, ctx);
    if (!s) s = exo_poll(ctx);
  }
  exo_close(fd);
  if (s) return s;
  if (st->off[0] != 0)
    return EXO_FAIL(ctx, EXO_EINTERNAL, "CSR offsets file '%s' does not start at 0", path);
  for (uint64_t v = 0; v < n; v++) {
    if (st->off[v + 1] < st->off[v])
      return EXO_FAIL(ctx, EXO_EINTERNAL,
                      "CSR offsets file '%s' decreases at node %llu", path,
                      (unsigned long long)v);
  }
  if (st->off[n] != m)
    return EXO_FAIL(ctx, EXO_EINTERNAL,
                    "CSR offsets file '%s' ends at %llu, expected %llu entries", path,
                    (unsigned long long)st->off[n], (unsigned long long)m);
  return EXO_OK;
}

static exo_status open_adjacency(lp_state *st) {
  exo_ctx *ctx = st->ctx;
  const char *path = st->csr->adj_path;
  uint64_t m = st->csr->m;
  uint64_t size = 0;
  exo_status s = exo_file_size(path, &size, ctx);
  if (s) return s;
  if (m > UINT64_MAX / st->esz || size != m * st->esz)
    return EXO_FAIL(ctx, EXO_EINTERNAL,
                    "CSR adjacency file '%s' has %llu bytes, expected %llu entries of %zu bytes",
                    path, (unsigned long long)size, (unsigned long long)m, st->esz);
  st->file_size = size;
  st->fd = exo_open(path, EXO_OPEN_READ);
  if (st->fd < 0) return exo_error_errno(&ctx->err, errno, "open", path);
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

/* First active node in [from, to), or `to`. */
static uint64_t next_active(const lp_state *st, uint64_t from, uint64_t to) {
  while (from < to) {
    uint64_t w = st->active[from >> 6] >> (from & 63);
    if (w) {
      uint64_t v = from + (uint64_t)__builtin_ctzll(w);
      return v < to ? v : to;
    }
    from = (from | 63) + 1;
  }
  return to;
}

/* Last active node in [from, to), or UINT64_MAX. */
static uint64_t last_active(const lp_state *st, uint64_t from, uint64_t to) {
  while (to > from) {
    uint64_t v = to - 1;
    uint64_t w = st->active[v >> 6] & (~(uint64_t)0 >> (63 - (v & 63)));
    if (w) {
      uint64_t u = (v & ~(uint64_t)63) + 63 - (uint64_t)__builtin_clzll(w);
      return u >= from ? u : UINT64_MAX;
    }
    to = v & ~(uint64_t)63;
  }
  return UINT64_MAX;
}

/* Make file bytes [b0, b1) (b1 - b0 <= cap) available in the window and
 * return a pointer to b0. On a miss the window is refilled: bytes of the
 * old window at or after b0 are kept, a gap of at most EXO_LP_GAP after the
 * old window is read through, longer gaps are skipped by a forward seek; the
 * read then extends over the lists of the next active nodes from
 * st->look_from on while they fit and are close. */
static exo_status window_get(lp_state *st, uint64_t b0, uint64_t b1, const uint8_t **out) {
  if (b0 >= st->win_beg && b1 <= st->win_end) {
    *out = st->buf + (b0 - st->win_beg);
    return EXO_OK;
  }
  uint64_t start, have_end;
  if (b0 >= st->win_beg && b0 < st->win_end) { /* keep the overlap */
    start = b0 & ~(LP_ALIGN - 1);
    if (start < st->win_beg) start = st->win_beg;
    memmove(st->buf, st->buf + (start - st->win_beg), (size_t)(st->win_end - start));
    have_end = st->win_end;
  } else if (b0 >= st->win_end && st->win_end > st->win_beg && b0 - st->win_end <= EXO_LP_GAP &&
             b1 - st->win_end <= st->cap) { /* read through a short gap */
    start = have_end = st->win_end;
  } else {
    start = have_end = b0 & ~(LP_ALIGN - 1);
  }
  uint64_t limit = start + st->buf_alloc; /* window cannot grow beyond */
  if (limit > st->file_size) limit = st->file_size;
  /* read ahead about LP_READ_STEP at a time, so that the lists are still in
   * the CPU caches when they are tallied (a 64 MiB read is not) */
  uint64_t soft = have_end + LP_READ_STEP;
  if (soft < b1) soft = b1;
  if (soft > limit) soft = limit;
  uint64_t stop = b1;
  int full = 0;
  if (st->look_from != LP_NO_LOOKAHEAD) {
    uint64_t u = st->look_from;
    for (;;) {
      u = next_active(st, u, st->n);
      if (u >= st->n) break;
      uint64_t ub = st->off[u] * st->esz, ue = st->off[u + 1] * st->esz;
      if (ue > soft) {
        full = 1;
        break;
      }
      if (ub > stop + EXO_LP_GAP) break;
      if (ue > stop) stop = ue;
      u++;
    }
  }
  /* round the end up to a page when that stays inside the window */
  uint64_t round = (stop + LP_ALIGN - 1) & ~(LP_ALIGN - 1);
  stop = round <= limit ? round : stop;
  if (have_end < stop) {
    uint64_t k = stop - have_end;
    exo_status s = exo_pread_full(st->fd, st->buf + (have_end - start), (size_t)k, have_end,
                                  st->csr->adj_path, st->ctx);
    if (s) {
      st->win_beg = st->win_end = 0;
      return s;
    }
    st->bytes_read += k;
    st->reads++;
  }
  st->win_beg = start;
  st->win_end = stop;
  /* the next reads start here: announce the buffer's length ahead, once
   * per half buffer travelled */
  if (full && stop < st->file_size &&
      (stop < st->advised_from || stop + st->cap / 2 > st->advised_to)) {
    uint64_t len = st->cap;
    if (len > st->file_size - stop) len = st->file_size - stop;
    exo_hint_willneed(st->fd, stop, len);
    st->advised_from = stop;
    st->advised_to = stop + len;
  }
  *out = st->buf + (b0 - start);
  return EXO_OK;
}

static exo_status bad_neighbour(lp_state *st, uint64_t v, uint64_t u) {
  return EXO_FAIL(st->ctx, EXO_EINTERNAL,
                  "CSR adjacency file '%s': node %llu lists neighbour %llu >= %llu nodes",
                  st->csr->adj_path, (unsigned long long)v, (unsigned long long)u,
                  (unsigned long long)st->n);
}

/* Ask the cache for the per-node data of the neighbour in entry i of p
 * (if any): the label and distance lookups are random accesses. */
static inline void prefetch_entry(const lp_state *st, const uint8_t *p, size_t i, size_t k,
                                  int want_dist, int want_visits, int narrow, int wide) {
  if (i >= k) return;
  uint64_t u;
  float w;
  exo_adj_decode(p + i * exo_adj_size(wide), wide, &u, &w);
  if (u >= st->n) return;
  if (narrow) LP_PREFETCH_ADDR(&st->lab32[u]);
  else LP_PREFETCH_ADDR(&st->lab64[u]);
  if (want_dist) LP_PREFETCH_ADDR(&st->dist[u]);
  if (want_visits) LP_PREFETCH_ADDR(&st->visits[u]);
}

#if defined(__GNUC__)
#define LP_INLINE static inline __attribute__((always_inline))
#else
#define LP_INLINE static inline
#endif

/* The hot loops below take `narrow` (u32 labels) and `wide` (u64 adjacency
 * ids) as parameters; their callers pass constants for the common case
 * (narrow labels, narrow adjacency) so that it gets its own copy. */

/* Tally the votes held in entries [0, k) of p for node v. */
LP_INLINE exo_status tally_impl(lp_state *st, uint64_t v, const uint8_t *p, size_t k,
                                int narrow, int wide) {
  const int directed = st->par->directed;
  const double cutoff = st->par->self_loop_cutoff;
  const int att = st->dist != NULL;
  const size_t esz = exo_adj_size(wide);
  const uint8_t *q = p;
  for (size_t i = 0; i < LP_PREFETCH; i++) prefetch_entry(st, p, i, k, att, 0, narrow, wide);
  for (size_t i = 0; i < k; i++, q += esz) {
    uint64_t u;
    float w;
    prefetch_entry(st, p, i + LP_PREFETCH, k, att, 0, narrow, wide);
    exo_adj_decode(q, wide, &u, &w);
    if (u >= st->n) return bad_neighbour(st, v, u);
    if (directed && !(w > 0.0f)) continue; /* out-arcs do not vote */
    double wd = (double)w;
    uint32_t d = 0;
    if (att) {
      d = st->dist[u];
      wd *= 1.0 - st->pa * dist_pow(st, d);
    }
    int eligible = fabs((double)w) >= cutoff;
    st->strength += (double)w;
    st->nvote++;
    if (tally_add(&st->tally, get_label(st, u, narrow), wd, d, eligible) != 0)
      return oom(st->ctx, "the label tally", (uint64_t)st->tally.cap * 2 * sizeof(tally_slot));
  }
  return EXO_OK;
}

static exo_status tally_entries(lp_state *st, uint64_t v, const uint8_t *p, size_t k) {
  if (st->narrow_labels && !st->wide) return tally_impl(st, v, p, k, 1, 0);
  return tally_impl(st, v, p, k, st->narrow_labels, st->wide);
}

/* Activate the out-neighbours in entries [0, k) of p whose label differs
 * from `label`, unless active already or out of visits. */
LP_INLINE void activate_impl(lp_state *st, const uint8_t *p, size_t k, uint64_t label,
                             int narrow, int wide) {
  const int directed = st->par->directed;
  const size_t esz = exo_adj_size(wide);
  const uint8_t *q = p;
  for (size_t i = 0; i < LP_PREFETCH; i++) prefetch_entry(st, p, i, k, 0, 1, narrow, wide);
  for (size_t i = 0; i < k; i++, q += esz) {
    uint64_t u;
    float w;
    prefetch_entry(st, p, i + LP_PREFETCH, k, 0, 1, narrow, wide);
    exo_adj_decode(q, wide, &u, &w);
    if (directed && !(w < 0.0f)) continue; /* in-arcs are not followed */
    if (get_label(st, u, narrow) == label) continue;
    if (st->visits[u] >= st->max_visits) continue;
    uint64_t bit = (uint64_t)1 << (u & 63);
    uint64_t *word = &st->active[u >> 6];
    if (*word & bit) continue;
    *word |= bit;
    st->nactive++;
  }
}

static void activate_entries(lp_state *st, const uint8_t *p, size_t k, uint64_t label) {
  if (st->narrow_labels && !st->wide) activate_impl(st, p, k, label, 1, 0);
  else activate_impl(st, p, k, label, st->narrow_labels, st->wide);
}

/* The number of arcs of a node that a label of volume `vol` arcs would hold
 * by chance, rounded to the nearest integer; pen = gamma * d / m. */
static inline double chance_arcs(double pen, uint64_t vol) {
  return floor(pen * (double)vol + 0.5);
}

/* Process node v once; *changed is set when its label changed. */
static exo_status process_node(lp_state *st, uint64_t v, int *changed) {
  exo_status s;
  uint64_t beg = st->off[v], len = st->off[v + 1] - beg;
  uint64_t cur = get_label(st, v, st->narrow_labels);
  const uint8_t *p = NULL;
  *changed = 0;
  if (len == 0) return EXO_OK; /* no votes */
  tally_clear(&st->tally);
  st->strength = 0.0;
  st->nvote = 0;
  const uint64_t chunk = st->cap / st->esz; /* entries per chunk of a long list */
  const int whole = len <= chunk;
  if (whole) {
    s = window_get(st, beg * st->esz, (beg + len) * st->esz, &p);
    if (!s) s = tally_entries(st, v, p, (size_t)len);
    if (s) return s;
  } else {
    uint64_t look = st->look_from;
    st->look_from = LP_NO_LOOKAHEAD;
    for (uint64_t done = 0; done < len;) {
      uint64_t k = len - done < chunk ? len - done : chunk;
      if (done > 0 && (s = exo_poll(st->ctx)) != EXO_OK) break;
      s = window_get(st, (beg + done) * st->esz, (beg + done + k) * st->esz, &p);
      if (!s) s = tally_entries(st, v, p, (size_t)k);
      if (s) break;
      done += k;
    }
    st->look_from = look;
    if (s) return s;
  }

  /* winner: the eligible label with the largest positive sum. During the
   * node's first tie_visits visits a tie is broken by a uniform pick among
   * all tied labels, the current one included (reservoir sampling, one rng
   * draw per tie); on later visits the current label is kept when it is
   * among the best, and otherwise the pick is uniform among the tied. */
  /* With a resolution gamma > 0 (exo_lp.h) a label's score is its sum
   * minus r(gamma * d_v * vol'(l) / m) * s_v / d_v: the number of v's arcs
   * that the label would hold by chance, rounded to the nearest whole arc
   * (r(x) = floor(x + 1/2)), times v's mean arc weight. vol'(l) is the
   * label's volume in arcs, without v's own arcs when l is v's current
   * label. When no eligible positive vote holds cur, staying is one more
   * candidate scoring -r(gamma * d_v * (vol(cur) - deg(v)) / m) * s_v / d_v;
   * v moves when the winner scores more, and on equal scores when the
   * winner's unrounded score (sum - gamma * d_v * vol(l) / m * s_v / d_v,
   * the modularity gain) beats staying's unrounded one. */
  const tally *t = &st->tally;
  const uint64_t deg = len;
  const double pen = st->vol ? st->gamma_m * (double)st->nvote : 0.0;
  const double unit = st->nvote ? st->strength / (double)st->nvote : 0.0;
  double best = 0.0;
  uint64_t win = cur;
  uint32_t win_dist = 0;
  uint64_t ties = 0;
  int cur_best = 0, cur_held = 0;
  for (size_t i = 0; i < t->count; i++) {
    const tally_slot *e = &t->slots[t->touched[i]];
    if (!e->eligible || !(e->sum > 0.0)) continue;
    double score = e->sum;
    if (st->vol) {
      uint64_t vl = st->vol[e->label];
      if (e->label == cur) {
        vl -= deg;
        cur_held = 1;
      }
      score -= chance_arcs(pen, vl) * unit;
    }
    if (ties == 0 || score > best) {
      best = score;
      win = e->label;
      win_dist = e->dist;
      ties = 1;
      cur_best = e->label == cur;
    } else if (score == best) {
      ties++;
      if (e->label == cur) cur_best = 1;
      if (exo_rng_below(&st->rng, ties) == 0) {
        win = e->label;
        win_dist = e->dist;
      }
    }
  }
  if (ties == 0 || win == cur || (cur_best && st->visits[v] > st->tie_visits)) return EXO_OK;
  if (st->vol) {
    if (!cur_held) { /* staying is one more candidate */
      uint64_t vc = st->vol[cur] - deg;
      double stay = -chance_arcs(pen, vc) * unit;
      if (best < stay) return EXO_OK;
      /* a tie made by the rounding: the unrounded scores decide */
      if (best == stay &&
          !(best + (chance_arcs(pen, st->vol[win]) - pen * (double)st->vol[win]) * unit >
            -pen * (double)vc * unit))
        return EXO_OK;
    }
    st->vol[cur] -= deg;
    st->vol[win] += deg;
  }

  set_label(st, v, win, st->narrow_labels);
  if (st->dist) st->dist[v] = win_dist == UINT32_MAX ? UINT32_MAX : win_dist + 1;
  *changed = 1;

  if (whole) { /* the list is still in the window */
    activate_entries(st, p, (size_t)len, win);
    return EXO_OK;
  }
  uint64_t look = st->look_from;
  st->look_from = LP_NO_LOOKAHEAD;
  for (uint64_t done = 0; done < len;) {
    uint64_t k = len - done < chunk ? len - done : chunk;
    if ((s = exo_poll(st->ctx)) != EXO_OK) break;
    if ((s = window_get(st, (beg + done) * st->esz, (beg + done + k) * st->esz, &p)) != EXO_OK)
      break;
    activate_entries(st, p, (size_t)k, win);
    done += k;
  }
  st->look_from = look;
  return s;
}

static exo_status lp_setup(lp_state *st) {
  exo_ctx *ctx = st->ctx;
  const exo_lp_params *par = st->par;
  uint64_t n = st->n;
  exo_status s = load_offsets(st);
  if (!s) s = open_adjacency(st);
  if (s) return s;

  uint64_t maxdeg = 0;
  for (uint64_t v = 0; v < n; v++) {
    uint64_t d = st->off[v + 1] - st->off[v];
    if (d > maxdeg) maxdeg = d;
  }
  st->max_visits = exo_lp_visit_cap(par->max_visits, maxdeg, &st->tie_visits);

  /* read buffer: memory_limit / 4 within [64 KiB, 64 MiB], whole entries,
   * no larger than the file; LP_ALIGN extra for page-aligned read starts */
  uint64_t cap = par->memory_limit / 4;
  if (cap < LP_MIN_BUF) cap = LP_MIN_BUF;
  if (cap > LP_MAX_BUF) cap = LP_MAX_BUF;
  cap -= cap % st->esz;
  if (cap > st->file_size + st->esz) cap = st->file_size + st->esz;
  st->cap = cap;
  st->buf_alloc = cap + LP_ALIGN;
  st->buf = malloc((size_t)st->buf_alloc);
  if (!st->buf) return oom(ctx, "the adjacency buffer", st->buf_alloc);

  if (tally_alloc(&st->tally, 1024) != 0) return oom(ctx, "the label tally", 1024 * sizeof(tally_slot));

  size_t nb8 = bytes_for(n, 8);
  if (n > 0 && !nb8) return oom(ctx, "the node arrays", n * 8);
  size_t alloc8 = nb8 ? nb8 : 8;
  st->narrow_labels = n <= EXO_NARROW_ID_LIMIT && !par->force_wide_labels;
  if (st->narrow_labels) {
    size_t nb4 = (n ? (size_t)n : 1) * 4;
    st->lab32 = alloc_nodes(nb4, 0);
    if (!st->lab32) return oom(ctx, "the labels", nb4);
  } else {
    st->lab64 = alloc_nodes(alloc8, 0);
    if (!st->lab64) return oom(ctx, "the labels", alloc8);
  }
  st->visits = alloc_nodes((n ? (size_t)n : 1) * sizeof *st->visits, 1);
  if (!st->visits) return oom(ctx, "the visit counters", n * 2);
  size_t words = (size_t)((n + 63) / 64);
  st->active = malloc((words ? words : 1) * 8);
  if (!st->active) return oom(ctx, "the active set", words * 8);
  if (par->resolution > 0.0 && n > 0) {
    /* label volumes in arcs: every node starts alone, vol(v) = its degree */
    st->vol = alloc_nodes((size_t)n * sizeof *st->vol, 0);
    if (!st->vol) return oom(ctx, "the label volumes", n * 8);
    for (uint64_t v = 0; v < n; v++) st->vol[v] = st->off[v + 1] - st->off[v];
    st->gamma_m = st->csr->m > 0 ? par->resolution / (double)st->csr->m : 0.0;
  }
  if (st->att > 0.0) {
    st->dist = alloc_nodes((n ? (size_t)n : 1) * sizeof *st->dist, 1);
    if (!st->dist) return oom(ctx, "the hop distances", n * 4);
    if (st->att != 1.0) {
      st->powtab = malloc(LP_POW_TABLE * sizeof *st->powtab);
      if (!st->powtab) return oom(ctx, "a power table", LP_POW_TABLE * sizeof(double));
      for (uint32_t d = 0; d < LP_POW_TABLE; d++) st->powtab[d] = pow((double)d, st->att);
    }
  }

  /* every node starts alone and active */
  exo_rng_seed(&st->rng, par->seed);
  exo_rng_seed(&st->order_rng, par->seed ^ 0x6a09e667f3bcc909ULL);
  for (uint64_t v = 0; v < n; v++) set_label(st, v, v, st->narrow_labels);
  for (size_t i = 0; i < words; i++) st->active[i] = ~(uint64_t)0;
  if (n & 63) st->active[words - 1] = ((uint64_t)1 << (n & 63)) - 1;
  st->nactive = n;
  return EXO_OK;
}

/* A fresh random permutation of 0..EXO_LP_BLOCK-1 for the next sweep. */
static void new_sweep_order(lp_state *st) {
  for (uint32_t i = 0; i < EXO_LP_BLOCK; i++) st->perm[i] = (uint16_t)i;
  for (uint32_t i = EXO_LP_BLOCK; i > 1; i--) { /* Fisher-Yates */
    uint32_t j = (uint32_t)exo_rng_below(&st->order_rng, i);
    uint16_t tmp = st->perm[i - 1];
    st->perm[i - 1] = st->perm[j];
    st->perm[j] = tmp;
  }
}

typedef struct lp_counts {
  uint64_t pops, changes, sweep_changes;
} lp_counts;

/* Process the active nodes of block [first, first + EXO_LP_BLOCK) in this
 * sweep's order for the block. */
static exo_status run_block(lp_state *st, uint64_t first, lp_counts *c) {
  uint64_t end = first + EXO_LP_BLOCK < st->n ? first + EXO_LP_BLOCK : st->n;
  uint64_t lo = next_active(st, first, end);
  if (lo >= end) return EXO_OK;
  uint64_t hi = last_active(st, first, end);
  uint32_t mask = (uint32_t)exo_rng_below(&st->order_rng, EXO_LP_BLOCK);
  exo_status s;
  st->look_from = end;
  /* pull the active part of the block in with one read when it fits */
  uint64_t b0 = st->off[lo] * st->esz, b1 = st->off[hi + 1] * st->esz;
  if (b1 > b0 && b1 - b0 <= st->cap) {
    const uint8_t *p;
    if ((s = window_get(st, b0, b1, &p)) != EXO_OK) return s;
  }
  for (uint32_t i = 0; i < EXO_LP_BLOCK; i++) {
    uint64_t v = first + (uint64_t)(st->perm[i] ^ mask);
    if (v >= end || !is_active(st, v)) continue;
    st->active[v >> 6] &= ~((uint64_t)1 << (v & 63));
    st->nactive--;
    st->visits[v]++;
    int changed = 0;
    if ((s = process_node(st, v, &changed)) != EXO_OK) return s;
    c->pops++;
    if (changed) {
      c->changes++;
      c->sweep_changes++;
    }
    if ((c->pops & (LP_POLL_POPS - 1)) == 0) {
      if ((s = exo_poll(st->ctx)) != EXO_OK) return s;
      exo_progress(st->ctx, EXO_STAGE_CLUSTER, c->pops, 0);
    }
  }
  return EXO_OK;
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
  s = lp_setup(&st);

  lp_counts c = {0, 0, 0};
  uint64_t sweeps = 0;
  while (!s && st.nactive > 0) {
    if (sweeps > 0) {
      double p = (double)c.sweep_changes / (double)st.n;
      st.pa = st.att == 1.0 ? p : pow(p, st.att);
    }
    sweeps++;
    c.sweep_changes = 0;
    new_sweep_order(&st);
    for (uint64_t first = 0; first < st.n && !s && st.nactive > 0; first += EXO_LP_BLOCK)
      s = run_block(&st, first, &c);
  }
  if (s) {
    lp_state_free(&st);
    return s;
  }
  exo_progress(ctx, EXO_STAGE_CLUSTER, c.pops, 0);
  /* hand over u64 labels; free the other node arrays before widening */
  free(st.off);
  free(st.visits);
  free(st.active);
  free(st.dist);
  free(st.vol);
  st.vol = NULL;
  st.off = NULL;
  st.visits = NULL;
  st.active = NULL;
  st.dist = NULL;
  if (st.narrow_labels) {
    uint64_t *wide_labels = malloc((st.n ? (size_t)st.n : 1) * 8);
    if (!wide_labels) {
      s = oom(ctx, "the labels", st.n * 8);
      lp_state_free(&st);
      return s;
    }
    for (uint64_t v = 0; v < st.n; v++) wide_labels[v] = st.lab32[v];
    result->labels = wide_labels;
  } else {
    result->labels = st.lab64;
    st.lab64 = NULL;
  }
  result->max_visits = st.max_visits;
  result->pops = c.pops;
  result->changes = c.changes;
  result->rounds = sweeps;
  result->bytes_read = st.bytes_read;
  result->reads = st.reads;
  lp_state_free(&st);
  return EXO_OK;
}
