/* exo_lp.c: asynchronous queue-based weighted label propagation over the CSR
 * files (see exo_lp.h for the rules and exo_record.h for the formats).
 *
 * In memory: offsets (n+1 u64), labels (n u64), a circular FIFO of n u64
 * slots, a u16 visit counter per node whose top bit marks "in the queue", and
 * a u32 hop distance per node only when attenuation > 0. A node's adjacency
 * list is read with pread into one reusable buffer (a list longer than the
 * buffer is processed in chunks, and read a second time if the node changes
 * label and its out-neighbours must be queued). Labels around a node are
 * tallied in an open-addressing hash map cleared through its touched list. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_lp.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exo_io.h"
#include "exo_record.h"
#include "exo_rng.h"

#define LP_INQ 0x8000u           /* visit counter: node is in the queue */
#define LP_CNT 0x7fffu           /* visit counter: times processed */
#define LP_POLL_POPS 4096u       /* exo_poll / progress interval */
#define LP_MIN_BUF ((size_t)64 << 10)
#define LP_OFFSETS_CHUNK ((size_t)1 << 23) /* offsets read per pread (entries) */
#define LP_POW_TABLE 1024u       /* cached d^a for small hop distances */
#define TALLY_EMPTY UINT64_MAX   /* labels are node ids, always < 2^40 */
#define LP_PREFETCH 8            /* entries ahead to prefetch node data for */

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
  uint64_t *off;       /* n + 1 */
  uint64_t *labels;    /* n */
  uint64_t *queue;     /* n, circular */
  uint16_t *visits;    /* n */
  uint32_t *dist;      /* n, only with attenuation */
  uint8_t *buf;        /* adjacency read buffer */
  size_t buf_entries;
  tally tally;
  exo_rng rng;
  uint64_t qhead, qcount;
  uint32_t max_visits;
  double att;          /* attenuation exponent a */
  double pa;           /* p^a for the current round */
  double *powtab;      /* d^a for d < LP_POW_TABLE */
} lp_state;

static void lp_state_free(lp_state *st) {
  if (st->fd >= 0) close(st->fd);
  st->fd = -1;
  free(st->off);
  free(st->labels);
  free(st->queue);
  free(st->visits);
  free(st->dist);
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
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return exo_error_errno(&ctx->err, errno, "open", path);
  for (uint64_t i = 0; i < n + 1 && !s; i += LP_OFFSETS_CHUNK) {
    uint64_t k = n + 1 - i;
    if (k > LP_OFFSETS_CHUNK) k = LP_OFFSETS_CHUNK;
    s = exo_pread_full(fd, st->off + i, (size_t)k * 8, i * 8, path, ctx);
    if (!s) s = exo_poll(ctx);
  }
  close(fd);
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
  st->fd = open(path, O_RDONLY | O_CLOEXEC);
  if (st->fd < 0) return exo_error_errno(&ctx->err, errno, "open", path);
  return EXO_OK;
}

static uint64_t isqrt_u64(uint64_t x) {
  uint64_t r = (uint64_t)sqrt((double)x);
  while (r > 0 && r * r > x) r--;
  while ((r + 1) * (r + 1) <= x) r++;
  return r;
}

static inline void queue_push(lp_state *st, uint64_t v) {
  uint64_t tail = st->qhead + st->qcount;
  if (tail >= st->n) tail -= st->n;
  st->queue[tail] = v;
  st->qcount++;
  st->visits[v] |= LP_INQ;
}

/* d^a for hop distance d. */
static inline double dist_pow(const lp_state *st, uint32_t d) {
  if (st->att == 1.0) return (double)d;
  if (d < LP_POW_TABLE) return st->powtab[d];
  return pow((double)d, st->att);
}

/* Read entries [first, first + k) of the adjacency file into the buffer. */
static exo_status read_entries(lp_state *st, uint64_t first, uint64_t k) {
  return exo_pread_full(st->fd, st->buf, (size_t)k * st->esz, first * st->esz,
                        st->csr->adj_path, st->ctx);
}

static exo_status bad_neighbour(lp_state *st, uint64_t v, uint64_t u) {
  return EXO_FAIL(st->ctx, EXO_EINTERNAL,
                  "CSR adjacency file '%s': node %llu lists neighbour %llu >= %llu nodes",
                  st->csr->adj_path, (unsigned long long)v, (unsigned long long)u,
                  (unsigned long long)st->n);
}

/* Ask the cache for the per-node data of the neighbour in buffer entry i
 * (if any): the label and distance lookups are random accesses. */
static inline void prefetch_entry(const lp_state *st, size_t i, size_t k, int want_dist,
                                  int want_visits) {
  if (i >= k) return;
  uint64_t u;
  float w;
  exo_adj_decode(st->buf + i * st->esz, st->wide, &u, &w);
  if (u >= st->n) return;
  LP_PREFETCH_ADDR(&st->labels[u]);
  if (want_dist) LP_PREFETCH_ADDR(&st->dist[u]);
  if (want_visits) LP_PREFETCH_ADDR(&st->visits[u]);
}

/* Tally the votes held in buffer entries [0, k) for node v. */
static exo_status tally_entries(lp_state *st, uint64_t v, size_t k) {
  const int directed = st->par->directed;
  const double cutoff = st->par->self_loop_cutoff;
  const int att = st->dist != NULL;
  const uint8_t *p = st->buf;
  for (size_t i = 0; i < LP_PREFETCH; i++) prefetch_entry(st, i, k, att, 0);
  for (size_t i = 0; i < k; i++, p += st->esz) {
    uint64_t u;
    float w;
    prefetch_entry(st, i + LP_PREFETCH, k, att, 0);
    exo_adj_decode(p, st->wide, &u, &w);
    if (u >= st->n) return bad_neighbour(st, v, u);
    if (directed && !(w > 0.0f)) continue; /* out-arcs do not vote */
    double wd = (double)w;
    uint32_t d = 0;
    if (att) {
      d = st->dist[u];
      wd *= 1.0 - st->pa * dist_pow(st, d);
    }
    int eligible = fabs((double)w) >= cutoff;
    if (tally_add(&st->tally, st->labels[u], wd, d, eligible) != 0)
      return oom(st->ctx, "the label tally", (uint64_t)st->tally.cap * 2 * sizeof(tally_slot));
  }
  return EXO_OK;
}

/* Queue the out-neighbours in buffer entries [0, k) whose label differs from
 * `label`, unless queued already or out of visits. */
static void requeue_entries(lp_state *st, size_t k, uint64_t label) {
  const int directed = st->par->directed;
  const uint8_t *p = st->buf;
  for (size_t i = 0; i < LP_PREFETCH; i++) prefetch_entry(st, i, k, 0, 1);
  for (size_t i = 0; i < k; i++, p += st->esz) {
    uint64_t u;
    float w;
    prefetch_entry(st, i + LP_PREFETCH, k, 0, 1);
    exo_adj_decode(p, st->wide, &u, &w);
    if (directed && !(w < 0.0f)) continue; /* in-arcs are not followed */
    if (st->labels[u] == label) continue;
    uint16_t c = st->visits[u];
    if ((c & LP_INQ) || (c & LP_CNT) >= st->max_visits) continue;
    queue_push(st, u);
  }
}

/* Process node v once; *changed is set when its label changed. */
static exo_status process_node(lp_state *st, uint64_t v, int *changed) {
  exo_status s;
  uint64_t beg = st->off[v], len = st->off[v + 1] - beg;
  uint64_t cur = st->labels[v];
  *changed = 0;
  tally_clear(&st->tally);
  for (uint64_t done = 0; done < len;) {
    uint64_t k = len - done;
    if (k > st->buf_entries) k = st->buf_entries;
    if (done > 0 && (s = exo_poll(st->ctx)) != EXO_OK) return s;
    if ((s = read_entries(st, beg + done, k)) != EXO_OK) return s;
    if ((s = tally_entries(st, v, (size_t)k)) != EXO_OK) return s;
    done += k;
  }

  /* winner: the eligible label with the largest positive sum; the current
   * label if it is among the best; otherwise a uniform pick among the tied
   * (reservoir sampling, one rng draw per tie). */
  const tally *t = &st->tally;
  double best = 0.0;
  uint64_t win = cur;
  uint32_t win_dist = 0;
  uint64_t ties = 0;
  int cur_best = 0;
  for (size_t i = 0; i < t->count; i++) {
    const tally_slot *e = &t->slots[t->touched[i]];
    if (!e->eligible || !(e->sum > 0.0)) continue;
    if (ties == 0 || e->sum > best) {
      best = e->sum;
      win = e->label;
      win_dist = e->dist;
      ties = 1;
      cur_best = e->label == cur;
    } else if (e->sum == best) {
      ties++;
      if (e->label == cur) cur_best = 1;
      if (exo_rng_below(&st->rng, ties) == 0) {
        win = e->label;
        win_dist = e->dist;
      }
    }
  }
  if (ties == 0 || cur_best || win == cur) return EXO_OK;

  st->labels[v] = win;
  if (st->dist) st->dist[v] = win_dist == UINT32_MAX ? UINT32_MAX : win_dist + 1;
  *changed = 1;

  if (len <= st->buf_entries) { /* the whole list is still in the buffer */
    requeue_entries(st, (size_t)len, win);
    return EXO_OK;
  }
  for (uint64_t done = 0; done < len;) {
    uint64_t k = len - done;
    if (k > st->buf_entries) k = st->buf_entries;
    if ((s = exo_poll(st->ctx)) != EXO_OK) return s;
    if ((s = read_entries(st, beg + done, k)) != EXO_OK) return s;
    requeue_entries(st, (size_t)k, win);
    done += k;
  }
  return EXO_OK;
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
  if (par->max_visits == 0) {
    uint64_t r = isqrt_u64(maxdeg);
    st->max_visits = (uint32_t)(r < 5 ? 5 : r > EXO_LP_MAX_VISITS ? EXO_LP_MAX_VISITS : r);
  } else {
    st->max_visits = par->max_visits > EXO_LP_MAX_VISITS ? EXO_LP_MAX_VISITS : par->max_visits;
  }

  /* adjacency buffer: memory_limit / 4, at least 64 KiB, no more than the
   * longest list needs */
  uint64_t bufbytes = par->memory_limit / 4;
  if (bufbytes < LP_MIN_BUF) bufbytes = LP_MIN_BUF;
  if (bufbytes > SIZE_MAX / 2) bufbytes = SIZE_MAX / 2;
  uint64_t entries = bufbytes / st->esz;
  if (entries > maxdeg) entries = maxdeg;
  if (entries == 0) entries = 1;
  st->buf_entries = (size_t)entries;
  st->buf = malloc(st->buf_entries * st->esz);
  if (!st->buf) return oom(ctx, "the adjacency buffer", (uint64_t)st->buf_entries * st->esz);

  if (tally_alloc(&st->tally, 1024) != 0) return oom(ctx, "the label tally", 1024 * sizeof(tally_slot));

  size_t nb8 = bytes_for(n, 8);
  if (n > 0 && !nb8) return oom(ctx, "the node arrays", n * 8);
  size_t alloc8 = nb8 ? nb8 : 8;
  st->labels = malloc(alloc8);
  if (!st->labels) return oom(ctx, "the labels", alloc8);
  st->queue = malloc(alloc8);
  if (!st->queue) return oom(ctx, "the queue", alloc8);
  st->visits = calloc(n ? (size_t)n : 1, sizeof *st->visits);
  if (!st->visits) return oom(ctx, "the visit counters", n * 2);
  if (st->att > 0.0) {
    st->dist = calloc(n ? (size_t)n : 1, sizeof *st->dist);
    if (!st->dist) return oom(ctx, "the hop distances", n * 4);
    if (st->att != 1.0) {
      st->powtab = malloc(LP_POW_TABLE * sizeof *st->powtab);
      if (!st->powtab) return oom(ctx, "a power table", LP_POW_TABLE * sizeof(double));
      for (uint32_t d = 0; d < LP_POW_TABLE; d++) st->powtab[d] = pow((double)d, st->att);
    }
  }

  /* every node starts alone and queued, in a seeded random order */
  exo_rng_seed(&st->rng, par->seed);
  for (uint64_t v = 0; v < n; v++) {
    st->labels[v] = v;
    st->queue[v] = v;
    st->visits[v] = LP_INQ;
  }
  for (uint64_t i = n; i > 1; i--) { /* Fisher-Yates */
    uint64_t j = exo_rng_below(&st->rng, i);
    uint64_t tmp = st->queue[i - 1];
    st->queue[i - 1] = st->queue[j];
    st->queue[j] = tmp;
    if ((i & 0xfffff) == 0 && (s = exo_poll(ctx)) != EXO_OK) return s;
  }
  st->qhead = 0;
  st->qcount = n;
  return EXO_OK;
}

/* Contract (exo_lp.h): runs label propagation to an empty queue and hands
 * the labels to result->labels (caller frees). On error result is zeroed and
 * every resource is released. */
exo_status exo_lp_run(const exo_csr_files *csr, const exo_lp_params *params,
                      exo_ctx *ctx, exo_lp_result *result) {
  if (result) memset(result, 0, sizeof *result);
  if (!csr || !params || !result || !csr->offsets_path || !csr->adj_path)
    return EXO_FAIL(ctx, EXO_EARG, "exo_lp_run: NULL argument");
  if (!(params->attenuation >= 0.0) || !isfinite(params->attenuation))
    return EXO_FAIL(ctx, EXO_EARG, "attenuation must be a finite number >= 0");
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
  st.pa = 0.0; /* first round: p = 0 */

  exo_progress(ctx, EXO_STAGE_CLUSTER, 0, 0);
  s = lp_setup(&st);

  uint64_t pops = 0, changes = 0, rounds = st.n > 0 ? 1 : 0;
  uint64_t round_left = st.qcount, round_changes = 0;
  while (!s && st.qcount > 0) {
    uint64_t v = st.queue[st.qhead];
    if (++st.qhead == st.n) st.qhead = 0;
    st.qcount--;
    st.visits[v] = (uint16_t)((st.visits[v] & LP_CNT) + 1); /* leaves the queue */
    int changed = 0;
    s = process_node(&st, v, &changed);
    if (s) break;
    pops++;
    if (changed) {
      changes++;
      round_changes++;
    }
    if (--round_left == 0 && st.qcount > 0) { /* next round */
      double p = (double)round_changes / (double)st.n;
      st.pa = st.att == 1.0 ? p : pow(p, st.att);
      round_changes = 0;
      round_left = st.qcount;
      rounds++;
    }
    if ((pops & (LP_POLL_POPS - 1)) == 0) {
      s = exo_poll(ctx);
      if (!s) exo_progress(ctx, EXO_STAGE_CLUSTER, pops, 0);
    }
  }
  if (s) {
    lp_state_free(&st);
    return s;
  }
  exo_progress(ctx, EXO_STAGE_CLUSTER, pops, 0);
  result->labels = st.labels;
  st.labels = NULL;
  result->max_visits = st.max_visits;
  result->pops = pops;
  result->changes = changes;
  result->rounds = rounds;
  lp_state_free(&st);
  return EXO_OK;
}
