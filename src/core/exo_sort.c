/* exo_sort.c: external merge sort of arc records into the CSR (see
 * exo_sort.h and exo_record.h for the formats).
 *
 * Run generation: records are packed into an in-memory buffer at the current
 * width; a full buffer is radix sorted and written as one run file
 * "run-<pass>-<index>.bin" in the temp directory. The sorter keeps, for each
 * live run, its path, width and record count; nothing else is kept on disk.
 *
 * Merging: while more runs remain than the fan-in k, leading runs are merged
 * in consecutive groups of k (creation order, so equal (key, nbr) pairs keep
 * their input order) into runs of the group's widest width; the inputs are
 * read with hole punching and unlinked as soon as they are exhausted (with
 * several threads, when the group ends: each group is then split into key
 * ranges like the final merge, see merge_group). The
 * last merge streams straight into the CSR offsets and adjacency files. The
 * records still in the buffer at the end are not written as a run when the
 * final merge can take them: they are sorted and merged from memory as the
 * last (newest) source; with no run on disk the CSR comes straight from
 * memory. In background mode the run the thread is still sorting when the
 * input ends is kept the same way, just before the buffer (finish_csr). */
#include "exo_sort.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exo_csr.h"
#include "exo_io.h"
#include "exo_loser_tree.h"
#include "exo_par.h"
#include "exo_platform.h"
#include "exo_record.h"
#include "exo_sum.h"

#define KIB ((uint64_t)1 << 10)
#define MIB ((uint64_t)1 << 20)
#define RUN_WRITE_BUF (64 * KIB)  /* writer buffer for runs written from memory */
#define RUN_WRITE_CHUNK (8 * MIB) /* bytes per write call (bypasses that buffer) */
#define MIN_SORT_BUF (8 * KIB)    /* floor for the run buffer and its scratch */
#define FIRST_SORT_BUF (16 * MIB) /* the run buffer starts at most this large and
                                     grows (x4) while records fill it, up to what
                                     memory_limit grants: a small input never
                                     reserves a large memory_limit */
#define MERGE_BUF_PREF (1 * MIB)  /* preferred least buffer per merge source */
#define MERGE_BUF_MIN (64 * KIB)  /* least buffer per merge source, tiny memory */
#define MERGE_BUF_MAX (8 * MIB)   /* more than this per file does not help */
#define MAX_FAN_IN 4096u
#define MAX_MERGE_THREADS 256
#define POLL_MASK ((uint64_t)0xFFFF) /* poll and report every 64K records */
#define NO_SLOT ((size_t)-1)

/* ======================================================================
 * Stable LSD radix sort
 * ======================================================================
 *
 * The sort key of a record is (key, nbr). When the buffer's keys fit in kb
 * bits and its nbrs in nb, that is the (kb + nb)-bit number key * 2^nb +
 * nbr, which is cut into the fewest digits of at most RADIX_BITS bits (all
 * of one width) and sorted from the lowest digit up, one stable counting
 * pass per digit (a digit that one value holds in every record is
 * skipped). On P threads each pass counts the digit in P equal slices of
 * the records side by side, gives slice t of bucket b the place after the
 * buckets < b and after slices < t of bucket b, and scatters the slices
 * side by side. Every slice keeps its records' order and the slices are
 * placed in order, so each pass is stable and the result is the same bytes
 * for any P. With one slice the first count takes every digit at once
 * (one slice's counts do not change when the records move). */
#define RADIX_BITS 11u                      /* most bits per digit */
#define PAR_SORT_MIN ((size_t)1 << 16)      /* records per slice, at least */

typedef struct par_sort {
  const uint8_t *src;
  uint8_t *dst;
  size_t count, rs;
  uint32_t P;
  int phase;          /* 0: the bits in use; 1: count; 2: scatter */
  unsigned nb, dw;    /* nbr bits, digit width */
  unsigned lo, ndig;  /* the (first) digit's lowest bit; digits to count */
  uint64_t *cnt;      /* slice t, digit d: cnt + (t * ndig + d) << dw; counts,
                         then first positions */
  uint64_t (*bits)[2]; /* per slice: the OR of its keys and of its nbrs */
} par_sort;

static inline void rec_ids(const uint8_t *q, const size_t rs, uint64_t *k, uint64_t *b) {
  if (rs == 12) {
    uint32_t k32, b32;
    memcpy(&k32, q, 4);
    memcpy(&b32, q + 4, 4);
    *k = k32;
    *b = b32;
  } else {
    memcpy(k, q, 8);
    memcpy(b, q + 8, 8);
  }
}

/* The digit of key * 2^nb + nbr at bit lo. */
static inline size_t rec_digit(const uint8_t *q, const size_t rs, unsigned nb, unsigned lo,
                               uint64_t mask) {
  uint64_t k, b;
  rec_ids(q, rs, &k, &b);
  if (rs == 12) return (size_t)((((k << nb) | b) >> lo) & mask); /* 64 bits hold it */
  const uint64_t x = lo >= nb ? k >> (lo - nb) : (b >> lo) | (nb - lo < 64 ? k << (nb - lo) : 0);
  return (size_t)(x & mask);
}

/* Slice t's part of the current phase; rs is a constant at each call site
 * so that the record copies are inlined (hence forced inline). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void sort_slice(par_sort *p, uint32_t t, const size_t rs) {
  const size_t lo = p->count * t / p->P, hi = p->count * (t + 1) / p->P;
  const uint8_t *a = p->src + lo * rs, *e = p->src + hi * rs;
  if (p->phase == 0) {
    uint64_t ok = 0, ob = 0;
    for (const uint8_t *q = a; q != e; q += rs) {
      uint64_t k, b;
      rec_ids(q, rs, &k, &b);
      ok |= k;
      ob |= b;
    }
    p->bits[t][0] = ok;
    p->bits[t][1] = ob;
    return; /* no counts yet */
  }
  const uint64_t mask = ((uint64_t)1 << p->dw) - 1;
  uint64_t *c = p->cnt + ((size_t)t * p->ndig << p->dw);
  if (p->phase == 1) {
    memset(c, 0, ((size_t)p->ndig << p->dw) * sizeof *c);
    for (const uint8_t *q = a; q != e; q += rs)
      for (unsigned d = 0; d < p->ndig; d++)
        c[((size_t)d << p->dw) + rec_digit(q, rs, p->nb, p->lo + d * p->dw, mask)]++;
  } else {
    uint8_t *to[1u << RADIX_BITS];
    for (size_t b = 0; b <= mask; b++) to[b] = p->dst + c[b] * rs;
    for (const uint8_t *q = a; q != e; q += rs) {
      const size_t x = rec_digit(q, rs, p->nb, p->lo, mask);
      uint8_t *d = to[x];
      to[x] = d + rs;
      memcpy(d, q, rs);
    }
  }
}

static exo_status par_sort_job(void *arg, uint32_t t, exo_ctx *ctx) {
  (void)ctx;
  par_sort *p = arg;
  if (p->rs == 12) sort_slice(p, t, 12);
  else sort_slice(p, t, 20);
  return EXO_OK;
}

static unsigned bit_count(uint64_t x) {
  unsigned n = 0;
  for (; x; x >>= 1) n++;
  return n;
}

/* The threads a sort of `count` records runs on: min(threads,
 * count / PAR_SORT_MIN), at least one. */
static uint32_t sort_threads(size_t count, uint32_t threads) {
  uint32_t P = threads < MAX_MERGE_THREADS ? threads : MAX_MERGE_THREADS;
  if (count / PAR_SORT_MIN < P) P = (uint32_t)(count / PAR_SORT_MIN);
  return P < 1 ? 1 : P;
}

/* The sort on sort_threads(count, threads) threads; it polls between
 * passes (a pass over a full buffer takes tens of milliseconds) and stops
 * early on an interrupt, leaving `recs` in an unspecified order. With more
 * than one thread the caller's ctx is told (exo_par_run) that `stage` is at
 * 0 of `stage_total`. *used (if not NULL): the threads it ran on. */
static exo_status radix_sort_stage(uint8_t *recs, uint8_t *scratch, size_t count, int wide,
                                   uint32_t threads, exo_stage stage, uint64_t stage_total,
                                   uint32_t *used, exo_ctx *ctx) {
  const uint32_t P = sort_threads(count, threads);
  if (used) *used = P;
  if (count < 2) return EXO_OK;
  par_sort p;
  memset(&p, 0, sizeof p);
  p.count = count;
  p.rs = exo_rec_size(wide);
  p.P = P;
  p.src = recs;
  p.bits = malloc((size_t)P * sizeof *p.bits);
  exo_status st = p.bits ? exo_par_run(P, par_sort_job, &p, stage, stage_total, ctx)
                         : exo_fail_oom(ctx, "the radix sort's counts", P * sizeof *p.bits);
  uint64_t ok = 0, ob = 0;
  for (uint32_t t = 0; !st && t < P; t++) {
    ok |= p.bits[t][0];
    ob |= p.bits[t][1];
  }
  free(p.bits);
  p.nb = bit_count(ob);
  const unsigned total = bit_count(ok) + p.nb;
  const unsigned digits = (total + RADIX_BITS - 1) / RADIX_BITS;
  if (st || digits == 0) return st;
  p.dw = (total + digits - 1) / digits;
  const size_t B = (size_t)1 << p.dw, per = P == 1 ? digits : 1; /* digits counted per slice */
  p.cnt = malloc((size_t)P * per * B * sizeof *p.cnt);
  if (!p.cnt) return exo_fail_oom(ctx, "the radix sort's counts", P * per * B * sizeof *p.cnt);
  uint8_t *src = recs, *dst = scratch;
  for (unsigned d = 0; d < digits && !st; d++) {
    p.src = src;
    p.dst = dst;
    p.lo = d * p.dw;
    p.ndig = (unsigned)per;
    if (P > 1 || d == 0) {
      p.phase = 1;
      if ((st = exo_poll(ctx)) || (st = exo_par_run(P, par_sort_job, &p, stage, stage_total, ctx)))
        break;
    }
    /* counts -> first positions of (bucket, slice) in bucket order; with
     * one slice the digit's own row of the counts is used */
    const size_t row = P == 1 ? d : 0;
    uint64_t pos = 0;
    int trivial = 0;
    for (size_t b = 0; b < B; b++) {
      uint64_t in_b = 0;
      for (uint32_t t = 0; t < P; t++) {
        uint64_t *c = &p.cnt[((t * per + row) << p.dw) + b];
        const uint64_t k = *c;
        *c = pos;
        pos += k;
        in_b += k;
      }
      if (in_b == count) trivial = 1;
    }
    if (trivial) continue;
    p.phase = 2;
    if (P == 1) p.cnt += row << p.dw; /* the scatter reads row 0 of slice 0 */
    p.ndig = 1;
    st = exo_par_run(P, par_sort_job, &p, stage, stage_total, ctx);
    if (P == 1) p.cnt -= row << p.dw;
    uint8_t *tmp = src;
    src = dst;
    dst = tmp;
  }
  free(p.cnt);
  if (st) return st;
  if (src != recs) memcpy(recs, src, count * p.rs);
  return EXO_OK;
}

static exo_status radix_sort_threads(uint8_t *recs, uint8_t *scratch, size_t count, int wide,
                                     uint32_t threads, exo_ctx *ctx) {
  return radix_sort_stage(recs, scratch, count, wide, threads, EXO_STAGE_PARSE, 0, NULL, ctx);
}

static exo_status radix_sort(uint8_t *recs, uint8_t *scratch, size_t count, int wide,
                             exo_ctx *ctx) {
  return radix_sort_threads(recs, scratch, count, wide, 1, ctx);
}

/* Contract (exo_sort.h). */
void exo_radix_sort_records(uint8_t *recs, uint8_t *scratch, size_t count, int wide) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  (void)radix_sort(recs, scratch, count, wide, &ctx);
}

exo_status exo_radix_sort_records_threads(uint8_t *recs, uint8_t *scratch, size_t count,
                                          int wide, int threads, exo_ctx *ctx) {
  return radix_sort_threads(recs, scratch, count, wide, threads > 1 ? (uint32_t)threads : 1,
                            ctx);
}

/* ======================================================================
 * Sorter state
 * ====================================================================== */

typedef struct run_info {
  char *path;     /* NULL once the file is deleted or handed on */
  uint64_t count; /* records */
  int wide;
} run_info;

/* A full buffer being sorted and written by a background thread. The
 * thread touches only the job: its buffer, the scratch, the path and a
 * private ctx whose interrupt callback reads `cancel` (the host's callbacks
 * are only ever called from the caller's thread). */
typedef struct run_job {
  pthread_t thread;
  int running;      /* started and not yet joined */
  uint8_t *buf, *scratch;
  size_t n;
  int wide;
  uint32_t threads; /* sort threads (radix_sort_threads) */
  const char *path; /* owned by the run's run_info */
  exo_status st;
  exo_ctx ctx;
  atomic_int cancel;
  atomic_int keep;  /* finish wants the sorted buffer, not the file: stop writing */
  int sorted;       /* buf holds the run sorted */
  int written;      /* the file was written whole */
  double cpu;       /* CPU seconds the thread took */
  double write_cpu; /* writing the run: this thread's and the slices' threads' */
  double sort_wall; /* seconds the sort took (its threads' time is not in cpu) */
} run_job;

struct exo_sorter {
  char *tmpdir;
  uint64_t memory_limit;
  uint64_t run_records; /* knob, 0 = from memory */
  uint32_t fan_in_opt;  /* knob, 0 = from memory */
  uint32_t threads;     /* key ranges of the final merge */
  int wide;
  int finished;
  uint8_t *buf, *scratch; /* run buffer and radix scratch, buf_bytes each */
  uint8_t *spare;         /* background mode: the buffer filled next */
  int background;         /* sort and write runs on a second thread */
  exo_combine combine;    /* equal arcs in the final merge */
  run_job job;            /* the run being written in the background */
  size_t buf_bytes;
  size_t target_bytes; /* what the budget grants buf (buf_bytes grows to it) */
  size_t cap; /* records per run at the current width */
  size_t n;   /* records in buf */
  run_info *runs; /* live runs in creation order */
  size_t nruns, runs_cap;
  char *pending; /* output run of the merge in progress */
  uint32_t pass;
  uint64_t next_index;
  uint64_t records, initial_runs;
  uint64_t disk_now, peak_disk;
  double run_cpu;  /* CPU seconds of the background run threads */
  double run_write_cpu, run_sort_wall; /* writing (all its threads); sorting's wall time */
  double add_wait; /* seconds exo_sorter_add waited for them */
  /* the final merge's sources in memory, after the files: the last
   * background run when it was kept unwritten, then the buffer */
  uint32_t nmem;
  const uint8_t *mem_recs[2];
  uint64_t mem_count[2];
  int mem_wide[2];
  /* exo_sorter_set_base: a kept CSR, the final merge's source 0 */
  int has_base;
  char *base_off, *base_adj;
  uint64_t base_n, base_m;
  int base_wide;
  int base_values; /* exo_sorter_set_base_values: the nbrs are not node ids */
  uint64_t base_terms; /* exo_sum.h terms of the base adjacency bytes merged */
};

static void disk_add(exo_sorter *s, uint64_t bytes) {
  s->disk_now += bytes;
  if (s->disk_now > s->peak_disk) s->peak_disk = s->disk_now;
}

static void disk_sub(exo_sorter *s, uint64_t bytes) {
  s->disk_now = s->disk_now > bytes ? s->disk_now - bytes : 0;
}

static uint64_t run_bytes(const run_info *r) { return r->count * exo_rec_size(r->wide); }

/* malloc'd path of run file <pass>-<index> in the temp directory. */
static char *run_path(exo_sorter *s, exo_ctx *ctx) {
  char name[64];
  snprintf(name, sizeof name, "run-%u-%llu.bin", (unsigned)s->pass,
           (unsigned long long)s->next_index);
  char *p = exo_path_join(s->tmpdir, name);
  if (!p) {
    exo_fail_oom(ctx, "a run file's path", 0);
    return NULL;
  }
  s->next_index++;
  return p;
}

static void forget_run(run_info *r) {
  if (r->path) {
    exo_unlink(r->path);
    free(r->path);
    r->path = NULL;
  }
}

/* Delete every run file still on disk (and the merge output in progress). */
static void remove_all_runs(exo_sorter *s) {
  for (size_t i = 0; i < s->nruns; i++) forget_run(&s->runs[i]);
  s->nruns = 0;
  if (s->pending) {
    exo_unlink(s->pending);
    free(s->pending);
    s->pending = NULL;
  }
  s->disk_now = 0;
}

static size_t current_capacity(const exo_sorter *s) {
  if (s->run_records) return (size_t)s->run_records;
  return s->buf_bytes / exo_rec_size(s->wide);
}

/* Bytes of the run buffer (and of its scratch) for a stage budget of `mem`. */
static uint64_t run_buffer_bytes(uint64_t mem, int background) {
  uint64_t avail = mem > RUN_WRITE_BUF ? mem - RUN_WRITE_BUF : 0;
  uint64_t bytes = avail / (background ? 3 : 2); /* buffers + scratch */
  if (bytes < MIN_SORT_BUF) bytes = MIN_SORT_BUF;
  if (bytes > (uint64_t)(SIZE_MAX / 4)) bytes = (uint64_t)(SIZE_MAX / 4);
  return bytes;
}

/* The scratch and, in background mode, the spare buffer: buf_bytes each,
 * holding nothing between runs. alloc returns 0 when one is missing. */
static int alloc_side_buffers(exo_sorter *s) {
  s->scratch = exo_big_alloc(s->buf_bytes);
  s->spare = s->background ? exo_big_alloc(s->buf_bytes) : NULL;
  return s->scratch && (!s->background || s->spare);
}

static void free_side_buffers(exo_sorter *s) {
  exo_big_free(s->scratch, s->buf_bytes);
  exo_big_free(s->spare, s->buf_bytes);
  s->scratch = s->spare = NULL;
}

/* Contract (exo_sort.h): validates the options and allocates the run buffer
 * and the radix scratch (each about (memory_limit - I/O buffer)/2, or
 * run_records wide records when that knob is set). */
exo_status exo_sorter_create(exo_sorter **out, const exo_sort_options *opt,
                             exo_ctx *ctx) {
  *out = NULL;
  if (!opt || !opt->tmpdir || !opt->tmpdir[0])
    return EXO_FAIL(ctx, EXO_EARG, "the sorter needs a temporary directory");
  if (opt->combine != EXO_COMBINE_KEEP && opt->combine != EXO_COMBINE_SUM &&
      opt->combine != EXO_COMBINE_MAX)
    return EXO_FAIL(ctx, EXO_EARG, "unknown combine rule %d", (int)opt->combine);
  if (opt->fan_in == 1 || opt->fan_in > MAX_FAN_IN)
    return EXO_FAIL(ctx, EXO_EARG, "the merge fan-in must be between 2 and %u (got %u)",
                    MAX_FAN_IN, (unsigned)opt->fan_in);
  uint64_t bytes;
  if (opt->run_records) {
    if (opt->run_records > (uint64_t)(SIZE_MAX / 2) / 20)
      return EXO_FAIL(ctx, EXO_EARG, "run_records %llu is too large",
                      (unsigned long long)opt->run_records);
    bytes = opt->run_records * 20; /* room for wide records too */
  } else {
    bytes = run_buffer_bytes(opt->run_memory ? opt->run_memory : opt->memory_limit,
                             opt->background);
  }
  exo_sorter *s = calloc(1, sizeof *s);
  if (!s) return exo_fail_oom(ctx, "the sorter", sizeof *s);
  size_t tl = strlen(opt->tmpdir) + 1;
  s->tmpdir = malloc(tl);
  s->target_bytes = (size_t)bytes;
  s->buf_bytes = opt->run_records || bytes <= FIRST_SORT_BUF ? (size_t)bytes
                                                               : (size_t)FIRST_SORT_BUF;
  s->background = opt->background != 0;
  s->buf = exo_big_alloc(s->buf_bytes);
  if (!alloc_side_buffers(s) || !s->tmpdir || !s->buf) {
    const int nbuf = s->background ? 3 : 2;
    const unsigned long long first = (unsigned long long)s->buf_bytes;
    exo_sorter_free(s);
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory allocating %d sort buffers of %llu bytes",
                    nbuf, first);
  }
  memcpy(s->tmpdir, opt->tmpdir, tl);
  s->memory_limit = opt->memory_limit;
  s->run_records = opt->run_records;
  s->fan_in_opt = opt->fan_in;
  s->threads = opt->threads > 1 ? (uint32_t)(opt->threads < MAX_MERGE_THREADS ? opt->threads : MAX_MERGE_THREADS) : 1;
  s->wide = opt->wide != 0;
  s->combine = opt->combine;
  s->cap = current_capacity(s);
  *out = s;
  return EXO_OK;
}

/* Write n sorted records of buf to a new file at `path`; *written says
 * whether the file is whole. With `keep` (the background thread's flag)
 * the writing stops, with EXO_OK, once the flag is set: before the file is
 * opened or between two chunks (a partial file is the caller's to
 * delete). Uses no sorter state, so it also runs on the background thread. */
static exo_status write_run(const uint8_t *buf, size_t n, int wide, const char *path,
                            atomic_int *keep, int *written, exo_ctx *ctx) {
  *written = 0;
  if (keep && atomic_load(keep)) return EXO_OK;
  const size_t total = n * exo_rec_size(wide);
  exo_writer w = {.fd = -1};
  exo_status st = exo_writer_open(&w, path, RUN_WRITE_BUF, ctx);
  size_t off = 0;
  for (; !st && off < total && !(keep && atomic_load(keep)); off += RUN_WRITE_CHUNK) {
    size_t len = total - off < RUN_WRITE_CHUNK ? total - off : RUN_WRITE_CHUNK;
    st = exo_writer_write(&w, buf + off, len, ctx);
    if (!st) st = exo_poll(ctx);
  }
  if (!st && off >= total) {
    st = exo_writer_close(&w, ctx);
    *written = !st;
  }
  exo_writer_abort(&w); /* a no-op after a close */
  return st;
}

/* A sorted run written in P slices side by side (background runs with
 * threads > 1): slice t is bytes [total t / P, total (t+1) / P) of the
 * buffer, written at that offset by its own positioned writer, in chunks
 * between which it looks at `keep` as write_run does. Each job adds its
 * thread's CPU time to cpu_ns. */
typedef struct par_write {
  const uint8_t *buf;
  size_t total;
  uint32_t P;
  const char *path;
  atomic_int *keep;
  atomic_int stopped;       /* a slice stopped on keep */
  _Atomic uint64_t cpu_ns;  /* CPU time of the slices' threads */
} par_write;

static exo_status par_write_job(void *arg, uint32_t t, exo_ctx *ctx) {
  par_write *p = arg;
  const double c0 = exo_thread_cpu_seconds();
  const size_t lo = (size_t)((uint64_t)p->total * t / p->P);
  const size_t hi = (size_t)((uint64_t)p->total * (t + 1) / p->P);
  exo_writer w = {.fd = -1};
  exo_status st = lo < hi ? exo_writer_open_at(&w, p->path, RUN_WRITE_BUF, lo, ctx) : EXO_OK;
  size_t off = lo;
  while (!st && off < hi) {
    if (p->keep && atomic_load(p->keep)) {
      atomic_store(&p->stopped, 1);
      break;
    }
    size_t len = hi - off < RUN_WRITE_CHUNK ? hi - off : RUN_WRITE_CHUNK;
    st = exo_writer_write(&w, p->buf + off, len, ctx);
    if (!st) st = exo_poll(ctx);
    off += len;
  }
  if (!st && lo < hi && off >= hi) st = exo_writer_close(&w, ctx);
  exo_writer_abort(&w); /* a no-op after a close */
  atomic_fetch_add(&p->cpu_ns, (uint64_t)((exo_thread_cpu_seconds() - c0) * 1e9));
  return st;
}

/* write_run on up to `threads` threads (at least RUN_WRITE_CHUNK bytes
 * each; fewer: write_run): the file is created empty, then its slices are
 * written side by side. The same file bytes; *written and `keep` as in
 * write_run. *slices_cpu: CPU seconds the slices' threads took (0 when
 * write_run wrote it on this thread). */
static exo_status write_run_threads(const uint8_t *buf, size_t n, int wide, const char *path,
                                    atomic_int *keep, int *written, uint32_t threads,
                                    double *slices_cpu, exo_ctx *ctx) {
  *slices_cpu = 0.0;
  const size_t total = n * exo_rec_size(wide);
  uint32_t P = threads;
  if (P > MAX_MERGE_THREADS) P = MAX_MERGE_THREADS;
  if (total / RUN_WRITE_CHUNK < P) P = (uint32_t)(total / RUN_WRITE_CHUNK);
  if (P <= 1) return write_run(buf, n, wide, path, keep, written, ctx);
  *written = 0;
  if (keep && atomic_load(keep)) return EXO_OK;
  exo_writer w = {.fd = -1};
  exo_status st = exo_writer_open(&w, path, 0, ctx); /* create it (empty) */
  if (!st) st = exo_writer_close(&w, ctx);
  exo_writer_abort(&w);
  if (st) return st;
  par_write pw;
  pw.buf = buf;
  pw.total = total;
  pw.P = P;
  pw.path = path;
  pw.keep = keep;
  atomic_init(&pw.stopped, 0);
  atomic_init(&pw.cpu_ns, 0);
  st = exo_par_run(P, par_write_job, &pw, EXO_STAGE_PARSE, 0, ctx);
  *slices_cpu = 1e-9 * (double)atomic_load(&pw.cpu_ns);
  if (!st && !atomic_load(&pw.stopped)) *written = 1;
  return st;
}

/* Sort n records of buf (scratch: the radix sort's second buffer) and write
 * them as a run at `path`, on the caller's thread. */
static exo_status sort_and_write(uint8_t *buf, uint8_t *scratch, size_t n, int wide,
                                 const char *path, exo_ctx *ctx) {
  int written;
  exo_status st = radix_sort(buf, scratch, n, wide, ctx);
  return st ? st : write_run(buf, n, wide, path, NULL, &written, ctx);
}

/* List a new run of the buffer's records (before its file exists, so that
 * cleanup finds it). */
static run_info *add_run(exo_sorter *s, exo_ctx *ctx) {
  if (s->nruns == s->runs_cap) {
    size_t nc = s->runs_cap ? 2 * s->runs_cap : 16;
    run_info *nr = realloc(s->runs, nc * sizeof *nr);
    if (!nr) {
      exo_fail_oom(ctx, "the sort's list of runs", nc * sizeof *nr);
      return NULL;
    }
    s->runs = nr;
    s->runs_cap = nc;
  }
  char *path = run_path(s, ctx);
  if (!path) return NULL;
  run_info *r = &s->runs[s->nruns++];
  r->path = path;
  r->count = s->n;
  r->wide = s->wide;
  return r;
}

/* The newest run is written (st == EXO_OK) or failed: account for it. */
static exo_status run_done(exo_sorter *s, exo_status st) {
  run_info *r = &s->runs[s->nruns - 1];
  if (st) {
    s->nruns--;
    forget_run(r);
    return st;
  }
  disk_add(s, run_bytes(r));
  s->initial_runs++;
  return EXO_OK;
}

static int job_cancelled(void *user) { return atomic_load(&((run_job *)user)->cancel); }


static void *job_main(void *arg) {
  run_job *j = arg;
  const double c0 = exo_thread_cpu_seconds(), w0 = exo_now_seconds();
  j->st = radix_sort_threads(j->buf, j->scratch, j->n, j->wide, j->threads, &j->ctx);
  j->sort_wall = exo_now_seconds() - w0;
  j->sorted = !j->st;
  const double c1 = exo_thread_cpu_seconds();
  double slices = 0.0;
  if (!j->st)
    j->st = write_run_threads(j->buf, j->n, j->wide, j->path, &j->keep, &j->written, j->threads,
                              &slices, &j->ctx);
  j->cpu = exo_thread_cpu_seconds() - c0;
  j->write_cpu = exo_thread_cpu_seconds() - c1 + slices;
  return NULL;
}

/* Wait for the background run, if any; its error becomes ctx's. With
 * `cancel` the thread is asked to stop first (its run is then dropped). */
static exo_status job_wait(exo_sorter *s, int cancel, exo_ctx *ctx) {
  run_job *j = &s->job;
  if (!j->running) return EXO_OK;
  if (cancel) atomic_store(&j->cancel, 1);
  pthread_join(j->thread, NULL);
  j->running = 0;
  s->run_cpu += j->cpu;
  s->run_write_cpu += j->write_cpu;
  s->run_sort_wall += j->sort_wall;
  exo_status st = j->st;
  if (st && !cancel && ctx) ctx->err = j->ctx.err;
  return run_done(s, cancel && !st ? EXO_EINTR : st);
}

/* Wait for the background run after asking it (j->keep) to stop writing:
 * its sorted buffer (s->spare) becomes a source of the final merge in
 * memory, and its file, whole, partial or never opened, is deleted. A
 * failure to write it no longer matters then (the same input gives the
 * same result whether or not the thread had begun writing). */
static exo_status job_keep(exo_sorter *s, exo_ctx *ctx) {
  run_job *j = &s->job;
  pthread_join(j->thread, NULL);
  j->running = 0;
  s->run_cpu += j->cpu;
  s->run_write_cpu += j->write_cpu;
  s->run_sort_wall += j->sort_wall;
  if (!j->sorted) {
    ctx->err = j->ctx.err;
    return run_done(s, j->st ? j->st : EXO_EINTERNAL);
  }
  run_info *r = &s->runs[s->nruns - 1];
  if (j->written) { /* finished before it saw the flag: it was on disk */
    disk_add(s, run_bytes(r));
    disk_sub(s, run_bytes(r));
  }
  forget_run(r);
  s->nruns--;
  return EXO_OK;
}

/* Sort the buffer and write it as a new run; the buffer is empty after. In
 * background mode the full buffer goes to the run thread (after the
 * previous run is done) and the spare buffer takes its place. */
static exo_status flush_run(exo_sorter *s, exo_ctx *ctx) {
  if (s->n == 0) return EXO_OK;
  const double w0 = s->finished ? 0.0 : exo_now_seconds();
  exo_status st = job_wait(s, 0, ctx);
  if (!s->finished) s->add_wait += exo_now_seconds() - w0;
  if (st) return st;
  run_info *r = add_run(s, ctx);
  if (!r) return ctx->err.code;
  if (s->background) {
    run_job *j = &s->job;
    j->buf = s->buf;
    j->scratch = s->scratch;
    j->n = s->n;
    j->wide = s->wide;
    j->threads = s->threads;
    j->path = r->path;
    j->st = EXO_OK;
    exo_ctx_init(&j->ctx);
    j->ctx.cb.user = j;
    j->ctx.cb.interrupted = job_cancelled;
    atomic_store(&j->cancel, 0);
    atomic_store(&j->keep, 0);
    j->sorted = j->written = 0;
    if (pthread_create(&j->thread, NULL, job_main, j) == 0) {
      j->running = 1;
      s->buf = s->spare;
      s->spare = j->buf;
      s->n = 0;
      return EXO_OK;
    }
    /* no thread: write it here */
  }
  st = run_done(s, sort_and_write(s->buf, s->scratch, s->n, s->wide, r->path, ctx));
  if (!st) s->n = 0;
  return st;
}

/* Contract (exo_sort.h): appends one record; when the buffer is full it is
 * sorted and written as a run first. Ids must fit the current width. */
/* Give the full run buffer (and its scratch and spare) up to 4 times the
 * room, at most target_bytes, keeping its records. Returns 1 when it grew;
 * 0 when it could not (the old buffers stay and the target drops to them:
 * the runs are then written at this size, which changes no result) or when
 * waiting for the background run failed (error in ctx). */
static int grow_buffers(exo_sorter *s, exo_ctx *ctx) {
  if (job_wait(s, 0, ctx)) return 0; /* the job uses the scratch and spare */
  const size_t old = s->buf_bytes;
  size_t want = old > s->target_bytes / 4 ? s->target_bytes : 4 * old;
  free_side_buffers(s);
  uint8_t *nb = exo_big_realloc(s->buf, old, want);
  if (nb) {
    s->buf = nb;
    s->buf_bytes = want;
    if (alloc_side_buffers(s)) {
      s->cap = current_capacity(s);
      return 1;
    }
    free_side_buffers(s);
    nb = exo_big_realloc(s->buf, want, old);
    if (nb) s->buf = nb;
    s->buf_bytes = nb ? old : want;
  }
  s->target_bytes = s->buf_bytes;
  if (!alloc_side_buffers(s)) {
    EXO_FAIL(ctx, EXO_ENOMEM, "out of memory keeping the sort buffers (%llu bytes)",
             (unsigned long long)s->buf_bytes);
    return 0;
  }
  s->cap = current_capacity(s);
  return 0;
}

/* Room for one more record in the run buffer: grown while the budget
 * allows, else written out as a run. */
static exo_status make_room(exo_sorter *s, exo_ctx *ctx) {
  if (s->n < s->cap || (s->buf_bytes < s->target_bytes && grow_buffers(s, ctx))) return EXO_OK;
  if (ctx->err.code) return ctx->err.code;
  return flush_run(s, ctx);
}

exo_status exo_sorter_add(exo_sorter *s, uint64_t key, uint64_t nbr, float w,
                          exo_ctx *ctx) {
  if (s->finished) return EXO_FAIL(ctx, EXO_EARG, "record added after the sort finished");
  if (!s->wide && ((key | nbr) >> 32) != 0)
    return EXO_FAIL(ctx, EXO_EARG,
                    "node id %llu does not fit 32 bits; call exo_sorter_set_wide first",
                    (unsigned long long)(key > nbr ? key : nbr));
  exo_status st = make_room(s, ctx);
  if (st) return st;
  exo_rec_encode(s->buf + s->n * exo_rec_size(s->wide), s->wide, key, nbr, w);
  s->n++;
  if ((++s->records & POLL_MASK) == 0) return exo_poll(ctx);
  return EXO_OK;
}

/* Contract (exo_sort.h): exo_sorter_add for a batch of encoded records. */
exo_status exo_sorter_add_records(exo_sorter *s, const uint8_t *recs, size_t n, int wide,
                                  size_t *done, exo_ctx *ctx) {
  *done = 0;
  if (s->finished) return EXO_FAIL(ctx, EXO_EARG, "record added after the sort finished");
  if (wide && !s->wide)
    return EXO_FAIL(ctx, EXO_EARG, "wide records added to a narrow sorter; call "
                                   "exo_sorter_set_wide first");
  if (!wide && s->wide) { /* widen one by one (rare: the sorter went wide mid-input) */
    for (size_t i = 0; i < n; i++) {
      exo_arc a;
      exo_rec_decode(recs + i * 12, 0, &a);
      exo_status st = exo_sorter_add(s, a.key, a.nbr, a.w, ctx);
      if (st) return st;
      *done = i + 1;
    }
    return EXO_OK;
  }
  const size_t rs = exo_rec_size(s->wide);
  while (*done < n) {
    exo_status st = make_room(s, ctx);
    if (st) return st;
    size_t k = s->cap - s->n;
    if (k > n - *done) k = n - *done;
    memcpy(s->buf + s->n * rs, recs + *done * rs, k * rs);
    s->n += k;
    const uint64_t before = s->records;
    s->records += k;
    *done += k;
    if ((before & ~POLL_MASK) != (s->records & ~POLL_MASK)) { /* crossed a multiple of POLL_MASK + 1 */
      st = exo_poll(ctx);
      if (st) return st;
    }
  }
  return EXO_OK;
}

/* Contract (exo_sort.h): resize the run buffer and its scratch for a run
 * budget of `bytes`; records that no longer fit are written as a run first.
 * When a larger buffer cannot be had the old one stays (not an error). */
exo_status exo_sorter_set_run_memory(exo_sorter *s, uint64_t bytes, exo_ctx *ctx) {
  if (s->finished) return EXO_FAIL(ctx, EXO_EARG, "run memory changed after the sort finished");
  if (s->run_records) return EXO_OK; /* the test knob fixes the runs */
  const uint64_t want = run_buffer_bytes(bytes, s->background);
  if (want >= s->buf_bytes) { /* the buffer grows to it as records come */
    s->target_bytes = (size_t)want;
    return EXO_OK;
  }
  s->target_bytes = (size_t)want;
  const size_t rs = exo_rec_size(s->wide);
  if (want < s->buf_bytes && s->n > want / rs) {
    exo_status st = flush_run(s, ctx);
    if (st) return st;
  }
  exo_status st = job_wait(s, 0, ctx); /* the job uses the scratch and spare */
  if (st) return st;
  /* the scratch and the spare hold nothing now: replace them, do not copy */
  const size_t old = s->buf_bytes;
  free_side_buffers(s);
  uint8_t *nb = exo_big_realloc(s->buf, old, (size_t)want);
  if (nb) {
    s->buf = nb;
    s->buf_bytes = (size_t)want;
  }
  int ok = alloc_side_buffers(s);
  if (!ok && s->buf_bytes > old) { /* could not grow: go back to the old size */
    free_side_buffers(s);
    nb = exo_big_realloc(s->buf, s->buf_bytes, old);
    if (nb) {
      s->buf = nb;
      s->buf_bytes = old;
    }
    ok = alloc_side_buffers(s);
  }
  s->cap = current_capacity(s);
  if (!ok)
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory resizing the sort buffers to %llu bytes",
                    (unsigned long long)want);
  return EXO_OK;
}

/* Contract (exo_sort.h): buffered narrow records become a run; from now on
 * records are wide. A no-op when already wide. */
exo_status exo_sorter_set_wide(exo_sorter *s, exo_ctx *ctx) {
  if (s->finished) return EXO_FAIL(ctx, EXO_EARG, "set_wide after the sort finished");
  if (s->wide) return EXO_OK;
  exo_status st = flush_run(s, ctx);
  if (st) return st;
  s->wide = 1;
  s->cap = current_capacity(s);
  return EXO_OK;
}

int exo_sorter_is_wide(const exo_sorter *s) { return s->wide; }

/* Contract (exo_sort.h): frees memory and unlinks every run file left. */
void exo_sorter_free(exo_sorter *s) {
  if (!s) return;
  (void)job_wait(s, 1, NULL);
  remove_all_runs(s);
  free(s->runs);
  exo_big_free(s->buf, s->buf_bytes);
  free_side_buffers(s);
  free(s->tmpdir);
  free(s->base_off);
  free(s->base_adj);
  free(s);
}

uint64_t exo_sorter_base_terms(const exo_sorter *s) { return s->base_terms; }

exo_status exo_sorter_set_base(exo_sorter *s, const exo_csr_files *base, exo_ctx *ctx) {
  if (s->has_base || s->finished)
    return EXO_FAIL(ctx, EXO_EARG, "the sort's kept graph must be set once, before it finishes");
  s->base_off = exo_path_join(base->offsets_path, "");
  s->base_adj = exo_path_join(base->adj_path, "");
  if (!s->base_off || !s->base_adj) return exo_fail_oom(ctx, "the kept graph's paths", 0);
  /* exo_path_join(p, "") is "p/": drop the slash */
  s->base_off[strlen(s->base_off) - 1] = 0;
  s->base_adj[strlen(s->base_adj) - 1] = 0;
  s->base_n = base->n;
  s->base_m = base->m;
  s->base_wide = base->wide != 0;
  s->has_base = 1;
  return EXO_OK;
}

exo_status exo_sorter_set_base_values(exo_sorter *s, const exo_csr_files *base, exo_ctx *ctx) {
  exo_status st = exo_sorter_set_base(s, base, ctx);
  if (!st) s->base_values = 1;
  return st;
}

/* ======================================================================
 * Merge sources and the merger
 * ====================================================================== */

/* A page of a run file that the slices of several key ranges share (a
 * slice edge that is not page aligned, or the last page of the file): no
 * reader can give it back alone, because each punches only the whole pages
 * inside its slice. The last range to have read its part punches it whole,
 * so a split merge frees its inputs as fully as a merge of whole runs and
 * still needs no free disk. */
typedef struct edge_page {
  uint64_t off;    /* page start in the file */
  atomic_int left; /* ranges that have not yet read their part of it */
} edge_page;

#define EDGE_PAGE ((uint64_t)4096)

static void edge_done(edge_page *e, int fd) {
  if (atomic_fetch_sub(&e->left, 1) == 1) exo_punch_range(fd, e->off, EDGE_PAGE);
}

/* One sorted input: a run file read through an exo_reader, or the sorted
 * buffer in memory (r.fd == -1). */
typedef struct msrc {
  exo_reader r;
  const uint8_t *p;   /* next unread record */
  size_t left;        /* bytes available at p */
  size_t used;        /* bytes consumed from the reader since the last peek */
  size_t rs;          /* record size */
  int wide;
  uint64_t remaining; /* records still expected */
  size_t slot;        /* index in s->runs, NO_SLOT for memory */
  edge_page *edges;   /* a slice of a split merge: the plan's shared pages */
  int64_t edge_lo;    /* the slice's first and last page in edges, if */
  int64_t edge_hi;    /*   shared and not yet given back; -1 none */
  /* the kept CSR (exo_sorter_set_base): adjacency entries read through r,
   * the offsets through ro; node is the key of the next entry, node_end
   * the index of the entry after its list, pos the next entry's index */
  int csr;
  exo_reader ro;
  uint64_t node, node_end, pos, base_n;
  uint64_t nbr_limit; /* entries' nbr below it (base_n; UINT64_MAX: values) */
  uint64_t sum; /* exo_sum.h terms of the entries read */
} msrc;

/* Give back the shared pages of x's slice that x has read its part of: the
 * first at once (the first fill reads at least that part, a buffer being at
 * least a page), the last when the reader has reached the slice's end. */
static void src_edges(msrc *x) {
  if (!x->edges) return;
  if (x->edge_lo >= 0) {
    edge_done(&x->edges[x->edge_lo], x->r.fd);
    if (x->edge_hi == x->edge_lo) x->edge_hi = -1;
    x->edge_lo = -1;
  }
  if (x->edge_hi >= 0 && x->r.file_off >= x->r.end) {
    edge_done(&x->edges[x->edge_hi], x->r.fd);
    x->edge_hi = -1;
  }
}

typedef struct merger {
  uint32_t m;
  msrc *src;
  exo_arc *cur; /* current head record of each source */
  exo_loser_tree t;
} merger;

static void merger_free(merger *g) {
  if (g->src)
    for (uint32_t i = 0; i < g->m; i++) {
      exo_reader_close(&g->src[i].r);
      if (g->src[i].csr) exo_reader_close(&g->src[i].ro);
    }
  free(g->src);
  free(g->cur);
  exo_lt_free(&g->t);
  memset(g, 0, sizeof *g);
}

/* Refill path of src_fetch: the window is empty. Sets h->done when the
 * source is exhausted (and deletes its file), clears it otherwise. */
static exo_status src_refill(exo_sorter *s, msrc *x, exo_lt_key *h, exo_ctx *ctx) {
  if (x->r.fd >= 0) {
    exo_reader_skip_buffered(&x->r, x->used);
    x->used = 0;
    const uint8_t *p;
    size_t avail;
    exo_status st = exo_reader_peek(&x->r, x->rs, &p, &avail, ctx);
    if (st) return st;
    src_edges(x);
    if (avail >= x->rs) {
      x->p = p;
      x->left = avail;
      h->done = 0;
      return EXO_OK;
    }
    if (avail != 0)
      return EXO_FAIL(ctx, EXO_EINTERNAL, "run file '%s' ends inside a record", x->r.path);
    exo_reader_punch_read(&x->r); /* the last partial punch step */
    exo_reader_close(&x->r);
    if (x->slot != NO_SLOT) forget_run(&s->runs[x->slot]); /* exhausted: free it now */
  }
  if (x->remaining != 0)
    return EXO_FAIL(ctx, EXO_EINTERNAL, "a sorted run ended %llu records early",
                    (unsigned long long)x->remaining);
  h->done = 1;
  return EXO_OK;
}

/* The kept CSR's next entry as a record (key = its node). */
static exo_status csr_fetch(msrc *x, exo_lt_key *h, exo_arc *a, exo_ctx *ctx) {
  if (x->remaining == 0) {
    h->done = 1;
    return EXO_OK;
  }
  while (x->pos >= x->node_end) { /* the next node with entries */
    uint64_t v;
    exo_status st = exo_reader_read(&x->ro, &v, 8, ctx);
    if (st) return st;
    x->node++;
    if (v < x->node_end || x->node >= x->base_n)
      return EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's offsets file '%s' is corrupt",
                      x->ro.path);
    x->node_end = v;
  }
  const uint8_t *p;
  size_t avail;
  exo_status st = exo_reader_peek(&x->r, x->rs, &p, &avail, ctx);
  if (st) return st;
  if (avail < x->rs)
    return EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's adjacency file '%s' is shorter than "
                    "its manifest says", x->r.path);
  exo_adj_decode(p, x->wide, &a->nbr, &a->w);
  if (x->nbr_limit != UINT64_MAX && a->nbr >= x->nbr_limit)
    return EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's adjacency file '%s' is corrupt (entry "
                    "%llu names node %llu of %llu)", x->r.path, (unsigned long long)x->pos,
                    (unsigned long long)a->nbr, (unsigned long long)x->base_n);
  x->sum += exo_sum_words(p, x->rs / 4, x->pos * (x->rs / 4));
  exo_reader_skip_buffered(&x->r, x->rs);
  a->key = x->node;
  h->key = a->key;
  h->nbr = a->nbr;
  h->done = 0;
  x->pos++;
  x->remaining--;
  return EXO_OK;
}

/* Load the next record of x into *a and the tree head *h (done at the end). */
static inline exo_status src_fetch(exo_sorter *s, msrc *x, exo_lt_key *h, exo_arc *a,
                                   exo_ctx *ctx) {
  if (x->csr) return csr_fetch(x, h, a, ctx);
  if (x->left < x->rs) {
    exo_status st = src_refill(s, x, h, ctx);
    if (st || h->done) return st;
  }
  if (x->remaining == 0)
    return EXO_FAIL(ctx, EXO_EINTERNAL, "a sorted run holds more records than written");
  exo_rec_decode(x->p, x->wide, a);
  h->key = a->key;
  h->nbr = a->nbr;
  h->done = 0;
  x->p += x->rs;
  x->left -= x->rs;
  x->used += x->rs;
  x->remaining--;
  return EXO_OK;
}

/* A buffer no larger than the file it serves (rounded up to 4 KiB). */
static size_t fit_buffer(size_t bufsize, uint64_t file_bytes) {
  uint64_t need = (file_bytes + 4095) & ~(uint64_t)4095;
  if (need < 4096) need = 4096;
  return need < bufsize ? (size_t)need : bufsize;
}

/* Open run files runs[first..first+nfiles) and then the `nmem` sorted
 * sources in memory (s->mem_recs: they were created last, so ties go to
 * the files, and the kept background run precedes the buffer);
 * then play the first matches. With `lo` and `hi` (one entry per source)
 * only records lo[i]..hi[i]-1 of source i are read: a key range of the
 * final merge; its files are then neither deleted nor punched outside the
 * range (other threads read the rest). With `fds` (one per file, or NULL)
 * the readers share those descriptors instead of opening their own, and
 * with `edges` source i's slice shares pages edge_of[2i] (its first) and
 * edge_of[2i+1] (its last) of `edges` with other ranges (-1: none). */
/* The kept CSR's offset of node v (v <= base_n), by a positioned read. */
static exo_status base_offset(const char *path, int fd, uint64_t v, uint64_t *off,
                              exo_ctx *ctx) {
  return exo_pread_full(fd, off, 8, 8 * v, path, ctx);
}

/* Open the kept CSR as source x, entries [a, b) of it. */
static exo_status open_base(exo_sorter *s, msrc *x, uint64_t a, uint64_t b, size_t bufsize,
                            exo_ctx *ctx) {
  x->csr = 1;
  x->wide = s->base_wide;
  x->rs = exo_adj_size(x->wide);
  x->remaining = b - a;
  x->pos = a;
  x->base_n = s->base_n;
  x->nbr_limit = s->base_values ? UINT64_MAX : s->base_n;
  x->slot = NO_SLOT;
  x->edge_lo = x->edge_hi = -1;
  x->ro.fd = -1;
  if (a >= b) {
    x->node_end = a;
    return EXO_OK;
  }
  int fd = exo_open(s->base_off, EXO_OPEN_READ);
  if (fd < 0) return exo_error_errno(&ctx->err, errno, "open", s->base_off);
  /* v: the last node whose list starts at or before entry a */
  uint64_t lo = 0, hi = s->base_n, o = 0;
  exo_status st = EXO_OK;
  while (lo < hi && !st) { /* largest v in [0, n) with off[v] <= a */
    const uint64_t mid = lo + (hi - lo + 1) / 2;
    st = base_offset(s->base_off, fd, mid, &o, ctx);
    if (st) break;
    if (o <= a) lo = mid;
    else hi = mid - 1;
  }
  if (!st) st = base_offset(s->base_off, fd, lo + 1, &x->node_end, ctx);
  exo_close(fd);
  if (st) return st;
  x->node = lo;
  st = exo_reader_open(&x->ro, s->base_off, fit_buffer(bufsize / 8 < 65536 ? 65536 : bufsize / 8,
                                                        8 * (s->base_n + 1)),
                       8 * (lo + 2) < 8 * (s->base_n + 1) ? 8 * (lo + 2) : 8 * (s->base_n + 1),
                       8 * (s->base_n + 1), 0, ctx);
  if (!st)
    st = exo_reader_open(&x->r, s->base_adj, fit_buffer(bufsize, (b - a) * x->rs), a * x->rs,
                         b * x->rs, 0, ctx);
  return st;
}

static exo_status merger_open(exo_sorter *s, merger *g, int base, size_t first, size_t nfiles,
                              uint32_t nmem, size_t bufsize, const uint64_t *lo,
                              const uint64_t *hi, const int *fds, edge_page *edges,
                              const int64_t *edge_of, exo_ctx *ctx) {
  const uint32_t m = (uint32_t)nfiles + nmem + (base != 0);
  memset(g, 0, sizeof *g);
  g->src = calloc(m ? m : 1, sizeof *g->src);
  g->cur = calloc(m ? m : 1, sizeof *g->cur);
  if (!g->src || !g->cur || exo_lt_init(&g->t, m) != 0) {
    merger_free(g);
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory for a %u-way merge", (unsigned)m);
  }
  g->m = m;
  for (uint32_t i = 0; i < m; i++) g->src[i].r.fd = g->src[i].ro.fd = -1;
  exo_status st = EXO_OK;
  const uint32_t b0 = base != 0; /* the kept CSR is source 0: it wins ties */
  for (uint32_t i = 0; i < m && !st; i++) {
    msrc *x = &g->src[i];
    if (base && i == 0) {
      st = open_base(s, x, lo ? lo[0] : 0, lo ? hi[0] : s->base_m, bufsize, ctx);
    } else if (i >= nfiles + b0) { /* in memory */
      const size_t j = i - nfiles - b0;
      const uint64_t a = lo ? lo[i] : 0, b = lo ? hi[i] : s->mem_count[j];
      x->wide = s->mem_wide[j];
      x->rs = exo_rec_size(x->wide);
      x->p = s->mem_recs[j] + a * x->rs;
      x->left = (size_t)(b - a) * x->rs;
      x->remaining = b - a;
      x->slot = NO_SLOT;
    } else {
      const run_info *r = &s->runs[first + i - b0];
      const uint64_t a = lo ? lo[i] : 0, b = lo ? hi[i] : r->count;
      x->wide = r->wide;
      x->rs = exo_rec_size(x->wide);
      x->remaining = b - a;
      x->slot = lo ? NO_SLOT : first + i - b0;
      const size_t bs = fit_buffer(bufsize, (b - a) * x->rs);
      st = fds ? exo_reader_open_fd(&x->r, fds[i], r->path, bs, a * x->rs, b * x->rs, 1, ctx)
               : exo_reader_open(&x->r, r->path, bs, a * x->rs, b * x->rs, 1, ctx);
      x->edge_lo = x->edge_hi = -1;
      if (edges && edge_of) {
        x->edges = edges;
        x->edge_lo = edge_of[2 * (size_t)i];
        x->edge_hi = edge_of[2 * (size_t)i + 1];
      }
    }
    if (!st) st = src_fetch(s, x, &g->t.head[i], &g->cur[i], ctx);
  }
  if (st) {
    merger_free(g);
    return st;
  }
  exo_lt_build(&g->t);
  return EXO_OK;
}

/* Buffer size for each of `files` files sharing `mem` bytes. */
static size_t merge_bufsize(uint64_t mem, uint64_t files) {
  uint64_t b = mem / (files ? files : 1);
  if (b > MERGE_BUF_MAX) b = MERGE_BUF_MAX;
  b &= ~(uint64_t)4095;
  if (b < MERGE_BUF_MIN) b = MERGE_BUF_MIN;
  return (size_t)b;
}

/* Fan-in from memory: as many sources as fit with >= 1 MiB each, one buffer
 * kept for the output; 2..4096, and at most half the soft limit on open
 * files. When memory is too tiny for that, the fan-in is 2 and the buffers
 * are still >= 64 KiB (merge_bufsize). */
static uint32_t fan_in_for(const exo_sorter *s) {
  if (s->fan_in_opt) return s->fan_in_opt;
  uint64_t k = s->memory_limit / MERGE_BUF_PREF; /* sources + the output */
  k = k > 1 ? k - 1 : 0;
  if (k > MAX_FAN_IN) k = MAX_FAN_IN;
  /* one descriptor per source: stay well inside the open-file limit, which
   * the host process (R) shares with us */
  uint64_t max_files = exo_open_files_max();
  if (max_files && k > max_files / 2) k = max_files / 2;
  if (k < 2) k = 2;
  return (uint32_t)k;
}

/* Runs to merge at the front in this pass (0: none). While the next pass
 * would still exceed k runs, every run is merged in groups of k; in the last
 * intermediate pass only enough leading runs are merged to leave exactly k,
 * which saves rewriting data that the final merge can read directly. */
static size_t pass_lead(size_t nruns, size_t k) {
  if (nruns <= k) return 0;
  if ((nruns + k - 1) / k > k) return nruns;
  size_t excess = nruns - k; /* a group of g runs removes g - 1 */
  size_t full = excess / (k - 1), rem = excess % (k - 1);
  return full * k + (rem ? rem + 1 : 0);
}

/* Records the intermediate passes will rewrite, for progress totals. */
static exo_status plan_total(const exo_sorter *s, size_t k, uint64_t *total,
                             exo_ctx *ctx) {
  *total = 0;
  size_t n = s->nruns;
  if (n <= k) return EXO_OK;
  uint64_t *c = malloc(n * sizeof *c);
  if (!c) return exo_fail_oom(ctx, "the merge plan's run sizes", n * sizeof *c);
  for (size_t i = 0; i < n; i++) c[i] = s->runs[i].count;
  size_t lead;
  while ((lead = pass_lead(n, k)) != 0) {
    size_t rd = 0, wr = 0;
    while (rd < lead) {
      size_t g = lead - rd < k ? lead - rd : k;
      uint64_t sum = 0;
      for (size_t i = 0; i < g; i++) sum += c[rd + i];
      if (g > 1) *total += sum;
      c[wr++] = sum;
      rd += g;
    }
    while (rd < n) c[wr++] = c[rd++];
    n = wr;
  }
  free(c);
  return EXO_OK;
}

/* ======================================================================
 * Merges split into key ranges
 * ====================================================================== */

/* A merge of runs[first..first+m) (and the `mem` sources in memory) as
 * `nranges` key ranges merged side by side: the final merge into the CSR,
 * or one group of an intermediate pass into a new run. Range t holds the
 * keys key[t]..key[t+1]-1: records pos[t*m + i]..pos[(t+1)*m + i]-1 of
 * source i (sources are sorted, so a key range is one slice of each), and
 * records base[t]..base[t+1]-1 of the merged sequence. So every range knows
 * where its output starts (CSR: offsets at 8 * key[t], adjacency entries
 * at base[t] * entry size; a run: base[t] * record size) and writes it there
 * with its own positioned writers; the bytes are those of one merge of
 * everything, whatever the number of ranges. */
typedef struct range_plan {
  exo_sorter *s;
  size_t first;         /* runs[first] is source 0 */
  uint32_t mem;         /* the last `mem` sources are s->mem_recs */
  int has_base;         /* source 0 is the kept CSR (final merge only) */
  uint32_t m;           /* sources */
  uint32_t nranges;
  uint64_t num_nodes;   /* every key is below it */
  uint64_t total;       /* records of all sources */
  size_t bufsize;       /* per source and per writer */
  uint64_t *key;        /* nranges + 1 split keys, key[0] = 0 */
  uint64_t *pos;        /* (nranges + 1) x m record indexes */
  uint64_t *base;       /* nranges + 1 record indexes, base[nranges] = total */
  int *fds;             /* several ranges: one descriptor per run file, shared
                           by the ranges' readers (NULL with one range) */
  edge_page *edges;     /* several ranges: the run pages their slices share */
  int64_t *edge_of;     /* nranges x m x 2: range t's first and last shared
                           page of source i, as indexes in edges (-1: none) */
  /* the final merge */
  const char *offsets_path, *adj_path;
  int csr_wide;
  uint64_t *entries;    /* per range: CSR entries written (< records when folded) */
  uint64_t *positive;   /* per range: entries with w > 0 */
  uint64_t *self;       /* per range: entries with w > 0 from a node to itself */
  uint64_t *base_sum;   /* per range: exo_sum.h terms of its slice of the kept CSR */
  /* an intermediate group */
  const char *out_path; /* the new run, created empty */
  int out_wide;         /* its record width */
  uint64_t done_before; /* records the intermediate passes merged before it */
  uint64_t stage_total; /* records of all intermediate passes */
} range_plan;

/* A source as the split search sees it: a run file read at positions, or
 * the buffer. */
typedef struct split_src {
  int csr;              /* the kept CSR: fd reads its offsets */
  uint64_t n;           /*   its nodes */
  int fd;               /* -1: the buffer */
  const uint8_t *mem;
  const char *path;
  size_t rs;
  int wide;
  uint64_t count;
} split_src;

static exo_status key_at(const split_src *x, uint64_t i, uint64_t *key, exo_ctx *ctx) {
  uint8_t b[8];
  const size_t kb = x->wide ? 8 : 4;
  if (x->fd < 0) {
    memcpy(b, x->mem + i * x->rs, kb);
  } else {
    exo_status st = exo_pread_full(x->fd, b, kb, i * x->rs, x->path, ctx);
    if (st) return st;
  }
  if (x->wide) {
    memcpy(key, b, 8);
  } else {
    uint32_t k;
    memcpy(&k, b, 4);
    *key = k;
  }
  return EXO_OK;
}

/* *out = the first index in [lo, hi) whose key is >= k (hi when none). */
static exo_status lower_bound(const split_src *x, uint64_t k, uint64_t lo, uint64_t hi,
                              uint64_t *out, exo_ctx *ctx) {
  if (x->csr) { /* the first entry of key >= k: offsets[min(k, n)] */
    uint64_t o;
    exo_status st = exo_pread_full(x->fd, &o, 8, 8 * (k < x->n ? k : x->n), x->path, ctx);
    if (st) return st;
    *out = o < lo ? lo : o > hi ? hi : o;
    return EXO_OK;
  }
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2, key;
    exo_status st = key_at(x, mid, &key, ctx);
    if (st) return st;
    if (key < k) lo = mid + 1;
    else hi = mid;
  }
  *out = lo;
  return EXO_OK;
}

/* Split keys for ranges of about equal arc counts: key[t] is the least key
 * with at least records * t / nranges records below it. A binary search
 * over keys; each probe finds its position in every source by binary search
 * inside that source's bracket [lo, hi) (positions of the keys already
 * probed below and above), so a split costs about log2(nodes) probes of
 * log2(bracket) positioned reads of one key per source. */
static exo_status plan_splits(range_plan *p, const split_src *src, exo_ctx *ctx) {
  const uint32_t m = p->m, T = p->nranges;
  const uint64_t total = p->total;
  uint64_t *lo = malloc(2 * (m ? m : 1) * sizeof *lo);
  if (!lo) return exo_fail_oom(ctx, "the merge's split search", 2 * (m ? m : 1) * sizeof *lo);
  uint64_t *hi = lo + m;
  exo_status st = EXO_OK;
  for (uint32_t t = 1; t < T && !st; t++) {
    const uint64_t target = (total / T) * t + (total % T) * t / T; /* total*t/T */
    uint64_t klo = p->key[t - 1], khi = p->num_nodes;
    for (uint32_t i = 0; i < m; i++) {
      lo[i] = p->pos[(size_t)(t - 1) * m + i];
      hi[i] = src[i].count;
    }
    while (klo < khi && !st) {
      const uint64_t mid = klo + (khi - klo) / 2;
      uint64_t below = 0;
      uint64_t *c = p->pos + (size_t)t * m; /* scratch for this probe */
      for (uint32_t i = 0; i < m && !st; i++) {
        st = lower_bound(&src[i], mid, lo[i], hi[i], &c[i], ctx);
        below += c[i];
      }
      if (st) break;
      if (below >= target) {
        khi = mid;
        memcpy(hi, c, m * sizeof *hi);
      } else {
        klo = mid + 1;
        memcpy(lo, c, m * sizeof *lo);
      }
      st = exo_poll(ctx);
    }
    p->key[t] = klo;
    for (uint32_t i = 0; i < m && !st; i++)
      st = lower_bound(&src[i], klo, lo[i], hi[i], &p->pos[(size_t)t * m + i], ctx);
  }
  free(lo);
  return st;
}

/* The pages of the run files that several ranges' slices share: a slice's
 * first page when the slice does not start on a page boundary, its last
 * when it does not end on one (the next slice, or the end of the file,
 * starts inside it). Edges of consecutive slices are in file order, so one
 * page shared by several slices is one entry, counted once per slice. */
static exo_status plan_edges(range_plan *p, exo_ctx *ctx) {
  const uint32_t m = p->m, T = p->nranges;
  p->edges = calloc(2 * (size_t)T * (m ? m : 1), sizeof *p->edges);
  p->edge_of = malloc(2 * (size_t)T * (m ? m : 1) * sizeof *p->edge_of);
  if (!p->edges || !p->edge_of) return exo_fail_oom(ctx, "the merge's shared pages", 0);
  size_t n = 0;
  for (uint32_t i = 0; i < m; i++) {
    const size_t first_of_src = n;
    const size_t rs = i >= m - p->mem || (p->has_base && i == 0)
                          ? 0 : exo_rec_size(p->s->runs[p->first + i - (p->has_base != 0)].wide);
    for (uint32_t t = 0; t < T; t++) {
      int64_t *eo = p->edge_of + 2 * ((size_t)t * m + i);
      eo[0] = eo[1] = -1;
      const uint64_t a = p->pos[(size_t)t * m + i] * rs, b = p->pos[(size_t)(t + 1) * m + i] * rs;
      if (rs == 0 || a == b) continue; /* the buffer in memory, or an empty slice */
      for (int side = 0; side < 2; side++) {
        const uint64_t at = side == 0 ? a : b;
        if (at % EDGE_PAGE == 0) continue; /* the reader frees its whole pages */
        const uint64_t off = side == 0 ? a - a % EDGE_PAGE : (b - 1) - (b - 1) % EDGE_PAGE;
        if (side == 1 && eo[0] >= 0 && p->edges[eo[0]].off == off) {
          eo[1] = eo[0]; /* the slice lies inside one page: counted once */
          continue;
        }
        if (n == first_of_src || p->edges[n - 1].off != off) {
          p->edges[n].off = off;
          atomic_init(&p->edges[n].left, 0);
          n++;
        }
        atomic_fetch_add(&p->edges[n - 1].left, 1);
        eo[side] = (int64_t)(n - 1);
      }
    }
  }
  return EXO_OK;
}

/* Build the plan: split keys, slices and arc bases for `nranges` ranges. */
static exo_status plan_ranges(range_plan *p, exo_ctx *ctx) {
  exo_sorter *s = p->s;
  const uint32_t m = p->m, T = p->nranges;
  p->key = calloc(T + 1, sizeof *p->key);
  p->base = calloc(T + 1, sizeof *p->base);
  p->pos = calloc((size_t)(T + 1) * (m ? m : 1), sizeof *p->pos);
  p->entries = calloc(3 * (size_t)T, sizeof *p->entries);
  p->positive = p->entries ? p->entries + T : NULL;
  p->self = p->entries ? p->entries + 2 * (size_t)T : NULL;
  p->base_sum = calloc(T, sizeof *p->base_sum);
  if (T > 1) {
    p->fds = malloc((m ? m : 1) * sizeof *p->fds);
    for (uint32_t i = 0; p->fds && i < m; i++) p->fds[i] = -1;
  }
  split_src *src = calloc(m ? m : 1, sizeof *src);
  if (!p->key || !p->base || !p->pos || !p->entries || !p->base_sum || (T > 1 && !p->fds) ||
      !src) {
    free(src);
    return exo_fail_oom(ctx, "the merge's key ranges", 0);
  }
  exo_status st = EXO_OK;
  for (uint32_t i = 0; i < m; i++) {
    split_src *x = &src[i];
    x->fd = -1;
    if (p->has_base && i == 0) {
      x->csr = 1;
      x->n = s->base_n;
      x->path = s->base_off;
      x->wide = s->base_wide;
      x->count = s->base_m;
    } else if (i >= m - p->mem) {
      const uint32_t j = i - (m - p->mem);
      x->mem = s->mem_recs[j];
      x->wide = s->mem_wide[j];
      x->count = s->mem_count[j];
    } else {
      const run_info *r = &s->runs[p->first + i - (p->has_base != 0)];
      x->path = r->path;
      x->wide = r->wide;
      x->count = r->count;
    }
    x->rs = exo_rec_size(x->wide);
    p->pos[(size_t)T * m + i] = x->count;
  }
  p->key[T] = p->num_nodes;
  if (T > 1) { /* read and write: the ranges' readers punch through them */
    for (uint32_t i = 0; i < m && !st; i++) {
      split_src *x = &src[i];
      if (!x->path) continue;
      if (x->csr) { /* read only, never punched; the readers open their own */
        x->fd = exo_open(x->path, EXO_OPEN_READ);
        if (x->fd < 0) st = exo_error_errno(&ctx->err, errno, "open", x->path);
        continue;
      }
      x->fd = p->fds[i] = exo_open(x->path, EXO_OPEN_RDWR);
      if (x->fd < 0) st = exo_error_errno(&ctx->err, errno, "open", x->path);
#ifdef POSIX_FADV_SEQUENTIAL
      else posix_fadvise(x->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    }
    if (!st) st = plan_splits(p, src, ctx);
    if (p->has_base && src[0].fd >= 0) exo_close(src[0].fd);
  }
  free(src);
  if (st) return st;
  for (uint32_t t = 1; t <= T; t++) {
    uint64_t sum = 0;
    for (uint32_t i = 0; i < m; i++) sum += p->pos[(size_t)t * m + i];
    p->base[t] = sum;
  }
  if (p->base[T] != p->total)
    return EXO_FAIL(ctx, EXO_EINTERNAL, "the runs hold %llu records, not %llu",
                    (unsigned long long)p->base[T], (unsigned long long)p->total);
  return T > 1 ? plan_edges(p, ctx) : EXO_OK;
}

static void plan_free(range_plan *p) {
  free(p->key);
  free(p->pos);
  free(p->base);
  free(p->entries);
  free(p->base_sum);
  p->base_sum = NULL;
  free(p->edges);
  free(p->edge_of);
  p->edges = NULL;
  p->edge_of = NULL;
  if (p->fds)
    for (uint32_t i = 0; i < p->m; i++)
      if (p->fds[i] >= 0) exo_close(p->fds[i]);
  free(p->fds);
  p->key = p->pos = p->base = p->entries = p->positive = p->self = NULL;
  p->fds = NULL;
}

/* ======================================================================
 * Intermediate merges
 * ====================================================================== */

/* Range t of an intermediate group: its slices of the group's runs into
 * records base[t]..base[t+1]-1 of the new run (from file offset base[t] x
 * record size). Runs on its own thread when the group has several ranges
 * (exo_par); a single range reads its runs whole and deletes each one as
 * soon as it is exhausted. Progress counts the records of all intermediate
 * passes (a single range, reporting on the caller's ctx, adds those merged
 * before the group; with several, exo_par_run_from adds them). */
static exo_status group_range(void *arg, uint32_t t, exo_ctx *ctx) {
  range_plan *pl = arg;
  exo_sorter *s = pl->s;
  const uint32_t m = pl->m;
  const int whole = pl->nranges == 1;
  const size_t rs = exo_rec_size(pl->out_wide);
  const uint64_t base = pl->base[t], want = pl->base[t + 1] - base;
  const uint64_t before = whole ? pl->done_before : 0;
  merger g;
  exo_writer w = {.fd = -1};
  exo_status st = exo_writer_open_at(&w, pl->out_path, fit_buffer(pl->bufsize, want * rs),
                                     base * rs, ctx);
  if (st) return st;
  st = merger_open(s, &g, 0, pl->first, m, 0, pl->bufsize, whole ? NULL : pl->pos + (size_t)t * m,
                   whole ? NULL : pl->pos + (size_t)(t + 1) * m, pl->fds, pl->edges,
                   pl->edge_of ? pl->edge_of + 2 * (size_t)t * m : NULL, ctx);
  if (st) {
    exo_writer_abort(&w);
    return st;
  }
  uint64_t written = 0;
  for (;;) {
    const uint32_t win = g.t.node[0];
    exo_lt_key *h = &g.t.head[win];
    if (h->done) break;
    const exo_arc *a = &g.cur[win];
    uint8_t *o;
    if (w.cap - w.len >= rs) {
      o = w.buf + w.len;
    } else if ((o = exo_writer_reserve(&w, rs, ctx)) == NULL) {
      st = ctx->err.code ? ctx->err.code : EXO_EIO;
      break;
    }
    exo_rec_encode(o, pl->out_wide, a->key, a->nbr, a->w);
    exo_writer_commit(&w, rs);
    st = src_fetch(s, &g.src[win], h, &g.cur[win], ctx);
    if (st) break;
    exo_lt_replay(&g.t);
    if ((++written & POLL_MASK) == 0) {
      exo_progress(ctx, EXO_STAGE_MERGE, before + written, pl->stage_total);
      st = exo_poll(ctx);
      if (st) break;
    }
  }
  merger_free(&g);
  if (!st && written != want)
    st = EXO_FAIL(ctx, EXO_EINTERNAL, "key range %u of a merge wrote %llu of %llu records",
                  (unsigned)t, (unsigned long long)written, (unsigned long long)want);
  if (!st) st = exo_writer_close(&w, ctx);
  exo_writer_abort(&w); /* a no-op after a close */
  if (!st) exo_progress(ctx, EXO_STAGE_MERGE, before + written, pl->stage_total);
  return st;
}

/* Whether the temp file system has room for what a group split into T
 * ranges may hold beyond a merge of whole runs. One range needs no free
 * disk at all: it frees every page of its inputs as it reads them, before
 * the records in them are written, and its output starts on a page
 * boundary. T ranges may run at different speeds, and a range that is
 * ahead has written the records of its slices while the pages its slices
 * share with its neighbours (up to two per run) and its output's partial
 * pages (two) still wait for those neighbours: up to (2m + 2) x T pages. A
 * group split only when that much is free gives the same result on a full
 * disk as on an empty one (the runs' bytes do not depend on T). When the
 * free space is unknown the group is split. */
static int split_has_room(const exo_sorter *s, uint32_t m, uint32_t T) {
  uint64_t avail = 0;
  if (exo_disk_free(s->tmpdir, &avail) != 0) return 1;
  return avail / EDGE_PAGE >= (2 * (uint64_t)m + 2) * T;
}

/* Merge runs[first..first+m) into one new run, split into `threads` key
 * ranges merged side by side (the split of the final merge); on success it
 * is stored in runs[dest] (whose file is gone by then). */
static exo_status merge_group(exo_sorter *s, size_t first, uint32_t m, size_t dest,
                              uint64_t num_nodes, uint64_t *done, uint64_t total,
                              exo_ctx *ctx) {
  run_info out = {NULL, 0, 0};
  uint64_t in_bytes = 0;
  for (uint32_t i = 0; i < m; i++) {
    const run_info *r = &s->runs[first + i];
    out.count += r->count;
    out.wide |= r->wide;
    in_bytes += run_bytes(r);
  }
  const size_t rs = exo_rec_size(out.wide);
  exo_status st = exo_poll(ctx);
  if (st) return st;
  s->pending = run_path(s, ctx);
  if (!s->pending) return ctx->err.code;
  /* peak estimate: the whole output on disk before any input is released */
  disk_add(s, out.count * rs);
  disk_sub(s, out.count * rs);

  range_plan p;
  memset(&p, 0, sizeof p);
  p.s = s;
  p.first = first;
  p.m = m;
  p.nranges = out.count > 0 && s->threads > 1 ? s->threads : 1;
  if (p.nranges > 1 && !split_has_room(s, m, p.nranges)) p.nranges = 1;
  p.num_nodes = num_nodes;
  p.total = out.count;
  p.out_path = s->pending;
  p.out_wide = out.wide;
  p.done_before = *done;
  p.stage_total = total;
  /* every range has a buffer per source and a writer */
  p.bufsize = merge_bufsize(s->memory_limit, (uint64_t)p.nranges * (m + 1));
  exo_writer w = {.fd = -1};
  st = exo_writer_open(&w, s->pending, 4096, ctx); /* create it empty */
  if (!st) st = exo_writer_close(&w, ctx);
  if (!st) st = plan_ranges(&p, ctx);
  if (!st)
    st = exo_par_run_from(p.nranges, group_range, &p, EXO_STAGE_MERGE, *done, total, ctx);
  plan_free(&p);
  if (st) return st;
  for (uint32_t i = 0; i < m; i++) forget_run(&s->runs[first + i]); /* read through */
  *done += out.count;
  out.path = s->pending;
  s->pending = NULL;
  s->runs[dest] = out;
  disk_sub(s, in_bytes);
  disk_add(s, run_bytes(&out));
  return EXO_OK;
}

/* ======================================================================
 * The final merge into the CSR
 * ====================================================================== */

/* Append `count` copies of the u64 `value` to the offsets file. */
static exo_status put_offsets(exo_writer *w, uint64_t value, uint64_t count,
                              exo_ctx *ctx) {
  while (count > 0) {
    uint8_t *p = exo_writer_reserve(w, 8, ctx);
    if (!p) return ctx->err.code ? ctx->err.code : EXO_EIO;
    uint64_t room = (w->cap - w->len) / 8;
    uint64_t c = count < room ? count : room;
    for (uint64_t i = 0; i < c; i++) memcpy(p + 8 * i, &value, 8);
    exo_writer_commit(w, (size_t)(8 * c));
    count -= c;
  }
  return EXO_OK;
}

/* State of the final merge: the CSR writers, the offsets written so far and,
 * when combining, the entries of the current (key, nbr) not yet written
 * (at most one per sign, in the order their signs first appeared). */
typedef struct csr_out {
  exo_writer *ow, *aw;
  uint64_t num_nodes;
  int wide;
  size_t as;            /* adjacency entry size */
  uint64_t next_node;   /* offsets written for nodes < next_node */
  uint64_t arcs, positive, self;
  exo_combine combine;
  exo_arc pend[2];      /* pending entries of one (key, nbr) */
  int npend;
} csr_out;

/* Write one CSR entry (the offsets of the nodes up to its key first). */
static exo_status csr_put(csr_out *c, const exo_arc *a, exo_ctx *ctx) {
  if (a->key >= c->next_node) { /* first arc of node key */
    if (a->key >= c->num_nodes)
      return EXO_FAIL(ctx, EXO_EINTERNAL, "arc key %llu is not below the node count %llu",
                      (unsigned long long)a->key, (unsigned long long)c->num_nodes);
    exo_status st = put_offsets(c->ow, c->arcs, a->key + 1 - c->next_node, ctx);
    if (st) return st;
    c->next_node = a->key + 1;
  } else if (a->key + 1 != c->next_node) {
    return EXO_FAIL(ctx, EXO_EINTERNAL, "merged arcs out of key order (%llu after %llu)",
                    (unsigned long long)a->key, (unsigned long long)(c->next_node - 1));
  }
  if (!c->wide && a->nbr >= EXO_NARROW_ID_LIMIT)
    return EXO_FAIL(ctx, EXO_EINTERNAL,
                    "neighbour id %llu does not fit the narrow adjacency format",
                    (unsigned long long)a->nbr);
  exo_writer *aw = c->aw;
  uint8_t *o;
  if (aw->cap - aw->len >= c->as) {
    o = aw->buf + aw->len;
  } else if ((o = exo_writer_reserve(aw, c->as, ctx)) == NULL) {
    return ctx->err.code ? ctx->err.code : EXO_EIO;
  }
  exo_adj_encode(o, c->wide, a->nbr, a->w);
  exo_writer_commit(aw, c->as);
  c->arcs++;
  c->positive += a->w > 0.0f;
  c->self += a->w > 0.0f && a->key == a->nbr;
  return EXO_OK;
}

/* Write the pending entries of the current (key, nbr). */
static exo_status csr_flush(csr_out *c, exo_ctx *ctx) {
  exo_status st = EXO_OK;
  for (int i = 0; i < c->npend && !st; i++) st = csr_put(c, &c->pend[i], ctx);
  c->npend = 0;
  return st;
}

/* One merged record: written at once with KEEP, else folded into the
 * pending entry of its (key, nbr) and sign. */
static exo_status csr_take(csr_out *c, const exo_arc *a, exo_ctx *ctx) {
  if (c->combine == EXO_COMBINE_KEEP) return csr_put(c, a, ctx);
  if (c->npend && (a->key != c->pend[0].key || a->nbr != c->pend[0].nbr)) {
    exo_status st = csr_flush(c, ctx);
    if (st) return st;
  }
  const int pos = a->w > 0.0f;
  for (int i = 0; i < c->npend; i++) {
    exo_arc *p = &c->pend[i];
    if ((p->w > 0.0f) != pos) continue;
    if (c->combine == EXO_COMBINE_SUM)
      p->w += a->w;
    else if (pos ? a->w > p->w : a->w < p->w)
      p->w = a->w;
    return EXO_OK;
  }
  c->pend[c->npend++] = *a;
  return EXO_OK;
}

/* The merge loop of range t: its slices of the sources to its parts of the
 * CSR files. The offsets of nodes key[t]..key[t+1]-1 (..num_nodes for the
 * last range, whose entry num_nodes closes the file) are global arc
 * indexes. Runs on its own thread when there are several ranges (exo_par). */
static exo_status merge_range(void *arg, uint32_t t, exo_ctx *ctx) {
  range_plan *pl = arg;
  exo_sorter *s = pl->s;
  const uint32_t m = pl->m;
  const size_t as = exo_adj_size(pl->csr_wide);
  const uint64_t base = pl->base[t], want = pl->base[t + 1] - base;
  const uint64_t end_node = t + 1 == pl->nranges ? pl->num_nodes + 1 : pl->key[t + 1];
  const uint64_t total = pl->total;
  merger g;
  exo_writer ow = {.fd = -1}, aw = {.fd = -1};
  exo_status st = merger_open(s, &g, pl->has_base, 0, s->nruns, pl->mem, pl->bufsize,
                              pl->pos + (size_t)t * m, pl->pos + (size_t)(t + 1) * m, pl->fds,
                              pl->edges, pl->edge_of ? pl->edge_of + 2 * (size_t)t * m : NULL,
                              ctx);
  if (st) return st;
  st = exo_writer_open_at(&ow, pl->offsets_path,
                          fit_buffer(pl->bufsize, 8 * (end_node - pl->key[t])), 8 * pl->key[t],
                          ctx);
  if (!st)
    st = exo_writer_open_at(&aw, pl->adj_path, fit_buffer(pl->bufsize, want * as), base * as,
                            ctx);
  csr_out c = {.ow = &ow, .aw = &aw, .num_nodes = pl->num_nodes, .wide = pl->csr_wide,
               .as = as, .combine = s->combine, .next_node = pl->key[t], .arcs = base};
  uint64_t done = 0; /* records of this range merged */
  for (; !st;) {
    const uint32_t win = g.t.node[0];
    exo_lt_key *h = &g.t.head[win];
    if (h->done) break;
    st = csr_take(&c, &g.cur[win], ctx);
    if (st) break;
    done++;
    st = src_fetch(s, &g.src[win], h, &g.cur[win], ctx);
    if (st) break;
    exo_lt_replay(&g.t);
    if ((done & POLL_MASK) == 0) {
      exo_progress(ctx, EXO_STAGE_CSR, done, total);
      st = exo_poll(ctx);
    }
  }
  if (pl->has_base) pl->base_sum[t] = g.src[0].sum;
  merger_free(&g);
  if (!st) st = csr_flush(&c, ctx);
  if (!st && done != want)
    st = EXO_FAIL(ctx, EXO_EINTERNAL, "key range %u of the CSR got %llu of %llu arcs",
                  (unsigned)t, (unsigned long long)done, (unsigned long long)want);
  if (!st && end_node > c.next_node)
    st = put_offsets(&ow, c.arcs, end_node - c.next_node, ctx);
  if (!st) st = exo_writer_close(&ow, ctx);
  if (!st) st = exo_writer_close(&aw, ctx);
  exo_writer_abort(&ow); /* no-ops after a close */
  exo_writer_abort(&aw);
  if (!st) exo_progress(ctx, EXO_STAGE_CSR, done, total);
  pl->entries[t] = c.arcs - base;
  pl->positive[t] = c.positive;
  pl->self[t] = c.self;
  return st;
}

#define COMPACT_CHUNK ((size_t)1 << 20)

/* After a merge that folded arcs (combine): range t wrote its entries at
 * base[t], counted before folding, so later ranges sit too far right and
 * their offsets are too large by the entries folded before them. Move each
 * range left to its real start (front to back: a destination never
 * overlaps a range not yet moved), lower its offsets, and cut the
 * adjacency file to its real length. Without folding nothing is touched. */
static exo_status compact_ranges(const range_plan *p, exo_ctx *ctx) {
  const uint32_t T = p->nranges;
  const size_t as = exo_adj_size(p->csr_wide);
  uint64_t start = 0, folded = 0;
  for (uint32_t t = 0; t < T; t++) folded += (p->base[t + 1] - p->base[t]) - p->entries[t];
  if (folded == 0) return EXO_OK;
  uint8_t *buf = malloc(COMPACT_CHUNK);
  int afd = exo_open(p->adj_path, EXO_OPEN_RDWR), ofd = exo_open(p->offsets_path, EXO_OPEN_RDWR);
  exo_status st = EXO_OK;
  if (!buf) st = exo_fail_oom(ctx, "compacting the CSR", COMPACT_CHUNK);
  else if (afd < 0) st = exo_error_errno(&ctx->err, errno, "open", p->adj_path);
  else if (ofd < 0) st = exo_error_errno(&ctx->err, errno, "open", p->offsets_path);
  for (uint32_t t = 0; t < T && !st; t++) {
    const uint64_t shift = p->base[t] - start;
    if (shift > 0) {
      const uint64_t from = p->base[t] * as, to = start * as, len = p->entries[t] * as;
      for (uint64_t done = 0; done < len && !st; done += COMPACT_CHUNK) {
        size_t k = len - done < COMPACT_CHUNK ? (size_t)(len - done) : COMPACT_CHUNK;
        st = exo_pread_full(afd, buf, k, from + done, p->adj_path, ctx);
        if (!st) st = exo_pwrite_full(afd, buf, k, to + done, p->adj_path, ctx);
        if (!st) st = exo_poll(ctx);
      }
      const uint64_t end_node = t + 1 == T ? p->num_nodes + 1 : p->key[t + 1];
      const uint64_t obytes = (end_node - p->key[t]) * 8;
      for (uint64_t done = 0; done < obytes && !st; done += COMPACT_CHUNK) {
        size_t k = obytes - done < COMPACT_CHUNK ? (size_t)(obytes - done) : COMPACT_CHUNK;
        st = exo_pread_full(ofd, buf, k, p->key[t] * 8 + done, p->offsets_path, ctx);
        for (size_t i = 0; i < k && !st; i += 8) {
          uint64_t v;
          memcpy(&v, buf + i, 8);
          v -= shift;
          memcpy(buf + i, &v, 8);
        }
        if (!st) st = exo_pwrite_full(ofd, buf, k, p->key[t] * 8 + done, p->offsets_path, ctx);
      }
    }
    start += p->entries[t];
  }
  if (!st && exo_set_size(afd, start * as) != 0)
    st = exo_error_errno(&ctx->err, errno, "truncate", p->adj_path);
  if (afd >= 0) exo_close(afd);
  if (ofd >= 0) exo_close(ofd);
  free(buf);
  return st;
}

/* The final merge: plan the ranges, create both CSR files empty and merge
 * the ranges side by side. */
static exo_status merge_to_csr(exo_sorter *s, uint32_t mem, uint64_t num_nodes,
                               const char *offsets_path, const char *adj_path,
                               int csr_wide, uint64_t budget, int *csr_made, exo_ctx *ctx,
                               exo_sort_stats *stats) {
  range_plan p;
  memset(&p, 0, sizeof p);
  p.s = s;
  p.mem = mem;
  p.has_base = s->has_base;
  p.m = (uint32_t)s->nruns + mem + (s->has_base != 0);
  p.num_nodes = num_nodes;
  p.total = s->records + (s->has_base ? s->base_m : 0);
  p.offsets_path = offsets_path;
  p.adj_path = adj_path;
  p.csr_wide = csr_wide;
  p.nranges = p.total > 0 && s->threads > 1 ? (uint32_t)s->threads : 1;
  /* every range has a buffer per source and two writers */
  p.bufsize = merge_bufsize(budget, (uint64_t)p.nranges * (p.m + 2));
  exo_progress(ctx, EXO_STAGE_CSR, 0, p.total);
  exo_status st = plan_ranges(&p, ctx);
  exo_writer w = {.fd = -1};
  for (int f = 0; f < 2 && !st; f++) { /* create (truncate) both files */
    st = exo_writer_open(&w, f ? adj_path : offsets_path, 4096, ctx);
    if (!st) {
      csr_made[f] = 1;
      st = exo_writer_close(&w, ctx);
    }
  }
  if (!st) st = exo_par_run(p.nranges, merge_range, &p, EXO_STAGE_CSR, p.total, ctx);
  if (!st && p.nranges > 1) st = compact_ranges(&p, ctx);
  if (!st) exo_progress(ctx, EXO_STAGE_CSR, p.total, p.total);
  for (uint32_t t = 0; !st && t < p.nranges; t++) {
    stats->arcs += p.entries[t];
    stats->arcs_positive += p.positive[t];
    stats->arcs_self += p.self[t];
    s->base_terms += p.base_sum[t];
  }
  plan_free(&p);
  return st;
}

/* Sorts the records left in the buffer when the input ends, on the
 * sorter's threads, with `scratch` as the radix scratch; stores the
 * seconds it took and the threads it used. */
static exo_status sort_last_buffer(exo_sorter *s, uint8_t *scratch, double *seconds,
                                   uint32_t *threads, exo_ctx *ctx) {
  const double t0 = exo_now_seconds();
  exo_status st = radix_sort_stage(s->buf, scratch, s->n, s->wide, s->threads, EXO_STAGE_CSR,
                                   s->records, threads, ctx);
  *seconds = exo_now_seconds() - t0;
  return st;
}

/* Contract (exo_sort.h): sorts everything added, runs the intermediate merge
 * passes and writes the CSR; afterwards (on success or failure) no run file
 * is left, and on failure the partial CSR files are removed too. */
exo_status exo_sorter_finish_csr(exo_sorter *s, uint64_t num_nodes,
                                 const char *offsets_path, const char *adj_path,
                                 int csr_wide, exo_ctx *ctx, exo_sort_stats *stats) {
  exo_sort_stats local;
  if (!stats) stats = &local;
  memset(stats, 0, sizeof *stats);
  if (s->finished) return EXO_FAIL(ctx, EXO_EARG, "the sort has already finished");
  s->finished = 1;
  const uint32_t k = fan_in_for(s);
  /* The last background run first; from here on everything is synchronous.
   * When it, the files and the buffer fit one merge, the run is not
   * written: the thread is told to stop writing, this thread meanwhile
   * sorts the buffer if its records fill at most half of it (the other
   * half is the radix scratch: the thread holds the real one), and the
   * run's sorted buffer becomes a source in memory. The merge reads the
   * same records in the same order either way. */
  const size_t rs = exo_rec_size(s->wide);
  const int keep = s->job.running && offsets_path && adj_path &&
                   s->nruns + (s->n > 0) <= k;
  int buf_sorted = 0;
  exo_status wst = EXO_OK;
  double last_sort = 0.0; /* the buffer's sort: seconds, threads */
  uint32_t last_threads = 0;
  if (keep) {
    atomic_store(&s->job.keep, 1);
    if (s->n > 0 && s->n <= s->buf_bytes / rs / 2) {
      wst = sort_last_buffer(s, s->buf + s->n * rs, &last_sort, &last_threads, ctx);
      buf_sorted = 1;
    }
    if (wst)
      (void)job_wait(s, 1, NULL);
    else
      wst = job_keep(s, ctx);
  } else {
    wst = job_wait(s, 0, ctx);
  }
  s->background = 0;
  if (!keep || wst) {
    exo_big_free(s->spare, s->buf_bytes);
    s->spare = NULL;
  }
  if (wst) {
    remove_all_runs(s);
    memset(stats, 0, sizeof *stats);
    return wst;
  }
  if (!offsets_path || !adj_path) {
    remove_all_runs(s);
    return EXO_FAIL(ctx, EXO_EARG, "missing CSR output path");
  }
  if (s->has_base && num_nodes < s->base_n) {
    remove_all_runs(s);
    return EXO_FAIL(ctx, EXO_EARG, "the graph has fewer nodes (%llu) than its kept part (%llu)",
                    (unsigned long long)num_nodes, (unsigned long long)s->base_n);
  }
  if (num_nodes > ((uint64_t)1 << 60) ||
      (!csr_wide && num_nodes > EXO_NARROW_ID_LIMIT)) {
    remove_all_runs(s);
    return EXO_FAIL(ctx, EXO_EARG, "%llu nodes need %s",
                    (unsigned long long)num_nodes,
                    csr_wide ? "fewer nodes" : "a wide CSR");
  }
  csr_wide = csr_wide != 0;
  uint32_t passes = 0;
  int csr_made[2] = {0, 0}; /* CSR files created, to remove on failure */
  exo_status st = EXO_OK;
  const uint64_t csr_bytes =
      (num_nodes + 1) * 8 + (s->records + s->base_m) * exo_adj_size(csr_wide);

  if (keep || s->nruns == 0 || (s->n > 0 && s->nruns < k)) {
    /* The runs on disk and the buffer fit one merge: sort the buffer and
     * merge it from memory as the last source, without writing it (the
     * kept background run, if any, just before it). */
    if (!buf_sorted && s->n > 0)
      st = sort_last_buffer(s, s->scratch, &last_sort, &last_threads, ctx);
    exo_big_free(s->scratch, s->buf_bytes);
    s->scratch = NULL;
    s->nmem = 0;
    if (keep) {
      s->mem_recs[s->nmem] = s->spare;
      s->mem_count[s->nmem] = s->job.n;
      s->mem_wide[s->nmem++] = s->job.wide;
    }
    if (s->n > 0 || !keep) {
      s->mem_recs[s->nmem] = s->buf;
      s->mem_count[s->nmem] = s->n;
      s->mem_wide[s->nmem++] = s->wide;
    }
    const uint64_t held = (uint64_t)(keep ? 2 : 1) * s->buf_bytes;
    uint64_t mem = s->memory_limit > held ? s->memory_limit - held : 0;
    disk_add(s, csr_bytes);
    if (!st)
      st = merge_to_csr(s, s->nmem, num_nodes, offsets_path, adj_path, csr_wide, mem,
                        csr_made, ctx, stats);
    passes = 1;
    stats->runs = s->initial_runs + (s->n > 0) + (keep != 0);
    stats->runs_in_memory = (s->n > 0) + (keep != 0);
  } else {
    st = flush_run(s, ctx);
    exo_big_free(s->buf, s->buf_bytes);
    exo_big_free(s->scratch, s->buf_bytes);
    s->buf = s->scratch = NULL;
    s->cap = s->n = 0;
    uint64_t total = 0, done = 0;
    if (!st) st = plan_total(s, k, &total, ctx);
    if (!st && total) exo_progress(ctx, EXO_STAGE_MERGE, 0, total);
    size_t lead;
    while (!st && (lead = pass_lead(s->nruns, k)) != 0) {
      s->pass++;
      s->next_index = 0;
      size_t rd = 0, wr = 0;
      while (!st && rd < lead) {
        size_t g = lead - rd < k ? lead - rd : k;
        if (g == 1) {
          if (wr != rd) {
            s->runs[wr] = s->runs[rd];
            s->runs[rd].path = NULL;
          }
        } else {
          st = merge_group(s, rd, (uint32_t)g, wr, num_nodes, &done, total, ctx);
        }
        rd += g;
        wr++;
      }
      if (st) break;
      for (; rd < s->nruns; rd++, wr++) {
        s->runs[wr] = s->runs[rd];
        if (wr != rd) s->runs[rd].path = NULL;
      }
      s->nruns = wr;
      passes++;
    }
    if (!st && total) exo_progress(ctx, EXO_STAGE_MERGE, done, total);
    if (!st) {
      disk_add(s, csr_bytes);
      st = merge_to_csr(s, 0, num_nodes, offsets_path, adj_path, csr_wide, s->memory_limit,
                        csr_made, ctx, stats);
      passes++;
    }
    stats->runs = s->initial_runs;
  }
  remove_all_runs(s); /* the final merge punched them while reading */
  exo_big_free(s->buf, s->buf_bytes);
  free_side_buffers(s);
  s->buf = NULL;
  s->nmem = 0;
  s->n = s->cap = 0;
  if (st) {
    if (csr_made[0]) exo_unlink(offsets_path);
    if (csr_made[1]) exo_unlink(adj_path);
    memset(stats, 0, sizeof *stats);
    return ctx->err.code ? ctx->err.code : st;
  }
  stats->records = s->records;
  stats->fan_in = k;
  stats->merge_passes = passes;
  stats->peak_disk = s->peak_disk;
  stats->run_thread_cpu_seconds = s->run_cpu;
  stats->run_write_cpu_seconds = s->run_write_cpu;
  stats->run_sort_seconds = s->run_sort_wall;
  stats->add_wait_seconds = s->add_wait;
  stats->last_sort_seconds = last_sort;
  stats->last_sort_threads = last_threads;
  return EXO_OK;
}
