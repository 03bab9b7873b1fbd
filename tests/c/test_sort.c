/* test_sort.c: the radix sort against a qsort reference, and the external
 * sort end to end against a CSR built in memory: many runs and merge passes,
 * memory-only sizing, mixed widths, empty inputs, cleanup, interrupts. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "exo_io.h"
#include "exo_record.h"
#include "exo_rng.h"
#include "exo_platform.h"
#include "exo_sort.h"
#include "testutil.h"

typedef struct tarc {
  uint64_t key, nbr;
  float w;
  uint32_t idx; /* input position: the reference's tie breaker */
} tarc;

static int tarc_cmp(const void *pa, const void *pb) {
  const tarc *a = pa, *b = pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  if (a->nbr != b->nbr) return a->nbr < b->nbr ? -1 : 1;
  if (a->idx != b->idx) return a->idx < b->idx ? -1 : 1;
  return 0;
}

/* A weight that tags the input position (exact below 2^24), sign varying. */
static float tag_weight(uint32_t i) { return (i % 3 == 0 ? -1.0f : 1.0f) * (float)(i + 1); }

static double now_sec(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------------
 * radix sort
 * --------------------------------------------------------------------- */

enum dist { D_RANDOM, D_DUPS, D_EQUAL, D_SMALL, D_HIGH };

static void gen_arcs(tarc *a, size_t n, enum dist d, int wide, uint64_t seed) {
  exo_rng rng;
  exo_rng_seed(&rng, seed);
  const uint64_t mask = wide ? UINT64_MAX : UINT32_MAX;
  for (size_t i = 0; i < n; i++) {
    switch (d) {
    case D_RANDOM:
      a[i].key = exo_rng_next(&rng) & mask;
      a[i].nbr = exo_rng_next(&rng) & mask;
      break;
    case D_DUPS:
      a[i].key = exo_rng_below(&rng, 4);
      a[i].nbr = exo_rng_below(&rng, 3);
      break;
    case D_EQUAL:
      a[i].key = mask - 7;
      a[i].nbr = 12345;
      break;
    case D_SMALL:
      a[i].key = exo_rng_below(&rng, 1000);
      a[i].nbr = exo_rng_below(&rng, 70000);
      break;
    case D_HIGH: /* only the top bytes vary */
      a[i].key = (exo_rng_below(&rng, 200) << (wide ? 56 : 24)) | 0x55;
      a[i].nbr = exo_rng_below(&rng, 3) << (wide ? 48 : 16);
      break;
    }
    a[i].w = tag_weight((uint32_t)i);
    a[i].idx = (uint32_t)i;
  }
}

static void check_radix(size_t n, enum dist d, int wide, uint64_t seed) {
  const size_t rs = exo_rec_size(wide);
  tarc *a = malloc((n + 1) * sizeof *a);
  gen_arcs(a, n, d, wide, seed);
  uint8_t *recs = malloc(n * rs + 1), *scratch = malloc(n * rs + 1);
  uint8_t *want = malloc(n * rs + 1);
  for (size_t i = 0; i < n; i++) exo_rec_encode(recs + i * rs, wide, a[i].key, a[i].nbr, a[i].w);
  qsort(a, n, sizeof *a, tarc_cmp);
  for (size_t i = 0; i < n; i++) exo_rec_encode(want + i * rs, wide, a[i].key, a[i].nbr, a[i].w);
  exo_radix_sort_records(recs, scratch, n, wide);
  if (n) ck_assert_msg(memcmp(recs, want, n * rs) == 0,
                       "radix sort differs: n=%zu dist=%d wide=%d", n, (int)d, wide);
  free(a);
  free(recs);
  free(scratch);
  free(want);
}

START_TEST(radix_matches_stable_reference) {
  const size_t sizes[] = {0, 1, 2, 3, 1000, 100000};
  for (int wide = 0; wide <= 1; wide++)
    for (int d = D_RANDOM; d <= D_HIGH; d++)
      for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        check_radix(sizes[i], (enum dist)d, wide, 17 * i + 5 * (size_t)d + (size_t)wide);
}
END_TEST

/* The radix sort on threads (the background run thread's) gives the stable
 * reference order, byte for byte, for 2, 3 and 7 threads; every distribution
 * (duplicates show stability: the weights tag the input order), narrow and
 * wide, sizes from a single slice (one thread then) to several. */
START_TEST(radix_threads_match_stable_reference) {
  const size_t sizes[] = {1000, 140000, 500001};
  const int threads[] = {2, 3, 7};
  for (int wide = 0; wide <= 1; wide++)
    for (int d = D_RANDOM; d <= D_HIGH; d++)
      for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        /* sanitized builds: 500001 records (7 slices) for random keys only */
        if (TU_SAN(0, i == 2 && d != D_RANDOM)) continue;
        const size_t n = sizes[i], rs = exo_rec_size(wide);
        tarc *a = malloc(n * sizeof *a);
        gen_arcs(a, n, (enum dist)d, wide, 31 * i + (size_t)d + 7 * (size_t)wide);
        uint8_t *in = malloc(n * rs), *recs = malloc(n * rs), *scratch = malloc(n * rs);
        uint8_t *want = malloc(n * rs);
        for (size_t k = 0; k < n; k++) exo_rec_encode(in + k * rs, wide, a[k].key, a[k].nbr, a[k].w);
        qsort(a, n, sizeof *a, tarc_cmp);
        for (size_t k = 0; k < n; k++) exo_rec_encode(want + k * rs, wide, a[k].key, a[k].nbr, a[k].w);
        /* ThreadSanitizer build: 3 and 7 threads (2 is the same code) */
        for (size_t t = TU_TSAN(0, 1); t < sizeof threads / sizeof threads[0]; t++) {
          memcpy(recs, in, n * rs);
          exo_ctx ctx;
          exo_ctx_init(&ctx);
          ck_assert_int_eq(exo_radix_sort_records_threads(recs, scratch, n, wide, threads[t], &ctx),
                           EXO_OK);
          ck_assert_msg(memcmp(recs, want, n * rs) == 0,
                        "threaded radix sort differs: n=%zu dist=%d wide=%d threads=%d", n, d,
                        wide, threads[t]);
        }
        free(a);
        free(in);
        free(recs);
        free(scratch);
        free(want);
      }
}
END_TEST

START_TEST(radix_two_records_swap_and_keep) {
  uint8_t r[24], s[24];
  exo_rec_encode(r, 0, 2, 1, 1.0f);
  exo_rec_encode(r + 12, 0, 1, 9, 2.0f);
  exo_radix_sort_records(r, s, 2, 0);
  exo_arc a;
  exo_rec_decode(r, 0, &a);
  ck_assert_uint_eq(a.key, 1);
  ck_assert_uint_eq(a.nbr, 9);
  ck_assert(a.w == 2.0f);
  /* equal pairs keep their order */
  exo_rec_encode(r, 0, 3, 3, 5.0f);
  exo_rec_encode(r + 12, 0, 3, 3, 6.0f);
  exo_radix_sort_records(r, s, 2, 0);
  exo_rec_decode(r, 0, &a);
  ck_assert(a.w == 5.0f);
}
END_TEST

/* ---------------------------------------------------------------------
 * external sort end to end
 * --------------------------------------------------------------------- */

/* Fold the sorted arcs a[0..m) the way `combine` says, in place: within
 * each run of equal (key, nbr), one arc per sign, placed where that sign
 * first appears, its weight the sum (in input order) or the one of largest
 * magnitude. Returns the new count. */
static size_t reference_fold(tarc *a, size_t m, exo_combine combine) {
  if (combine == EXO_COMBINE_KEEP) return m;
  size_t out = 0;
  for (size_t i = 0; i < m;) {
    size_t j = i;
    while (j < m && a[j].key == a[i].key && a[j].nbr == a[i].nbr) j++;
    size_t first = out;
    for (size_t k = i; k < j; k++) {
      size_t t = first;
      while (t < out && (a[t].w > 0.0f) != (a[k].w > 0.0f)) t++;
      if (t == out) {
        a[out++] = a[k];
      } else if (combine == EXO_COMBINE_SUM) {
        a[t].w += a[k].w;
      } else if (a[k].w > 0.0f ? a[k].w > a[t].w : a[k].w < a[t].w) {
        a[t].w = a[k].w;
      }
    }
    i = j;
  }
  return out;
}

/* The CSR a correct sort must produce, built by a stable in-memory sort;
 * *entries gets the number of adjacency entries, *positive those with w > 0. */
static void reference_csr(const tarc *in, size_t m, uint64_t num_nodes, int csr_wide,
                          exo_combine combine, uint8_t **offs, size_t *offs_len,
                          uint8_t **adj, size_t *adj_len, uint64_t *entries,
                          uint64_t *positive) {
  tarc *a = malloc((m + 1) * sizeof *a);
  if (m) memcpy(a, in, m * sizeof *a);
  qsort(a, m, sizeof *a, tarc_cmp);
  m = reference_fold(a, m, combine);
  uint64_t *o = calloc(num_nodes + 1, sizeof *o);
  for (size_t i = 0; i < m; i++) o[a[i].key + 1]++;
  for (uint64_t v = 0; v < num_nodes; v++) o[v + 1] += o[v];
  const size_t as = exo_adj_size(csr_wide);
  *adj = malloc(m * as + 1);
  *positive = 0;
  for (size_t i = 0; i < m; i++) {
    exo_adj_encode(*adj + i * as, csr_wide, a[i].nbr, a[i].w);
    *positive += a[i].w > 0.0f;
  }
  *adj_len = m * as;
  *entries = m;
  *offs = (uint8_t *)o;
  *offs_len = (num_nodes + 1) * 8;
  free(a);
}

typedef struct sort_case {
  exo_sort_options opt;
  uint64_t num_nodes;
  int csr_wide;
  size_t set_wide_at; /* call set_wide before this record; SIZE_MAX: never */
  size_t resize_at[2]; /* call set_run_memory(resize_to[i]) before these records */
  uint64_t resize_to[2];
  int nresize;
  size_t batch;        /* > 0: exo_sorter_add_records, chunks of 1..batch records */
  int batch_narrow;    /* ... encoded narrow when they fit, even into a wide sorter */
} sort_case;

typedef struct cb_state {
  int fire_stage;       /* stage whose progress (done > 0) arms the interrupt */
  int armed;
  uint64_t last_done[EXO_STAGE_COUNT], last_total[EXO_STAGE_COUNT];
  int calls[EXO_STAGE_COUNT];
  int polls_left; /* > 0: arm the interrupt at that many polls */
  int polls;
} cb_state;

static void on_progress(void *user, exo_stage st, uint64_t done, uint64_t total) {
  cb_state *c = user;
  ck_assert_uint_le(done, total);
  if (c->calls[st]) ck_assert_uint_ge(done, c->last_done[st]); /* monotone */
  c->calls[st]++;
  c->last_done[st] = done;
  c->last_total[st] = total;
  if ((int)st == c->fire_stage && done > 0) c->armed = 1;
}

static int on_interrupt(void *user) {
  cb_state *c = user;
  c->polls++;
  if (c->polls_left > 0 && --c->polls_left == 0) c->armed = 1;
  return c->armed;
}

/* Sort `arcs` with case `sc` in a fresh tmpdir, compare the CSR with the
 * reference byte for byte and check that only the CSR files remain. */
static exo_sort_stats run_case(const sort_case *sc, const tarc *arcs, size_t m) {
  char *dir = tu_mkdtemp();
  ck_assert_ptr_nonnull(dir);
  char *op = tu_path(dir, "csr.offsets"), *ap = tu_path(dir, "csr.adjacency");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  cb_state cbs;
  memset(&cbs, 0, sizeof cbs);
  cbs.fire_stage = -1;
  ctx.cb.user = &cbs;
  ctx.cb.progress = on_progress;
  exo_sort_options opt = sc->opt;
  opt.tmpdir = dir;
  exo_sorter *s = NULL;
  ck_assert_int_eq(exo_sorter_create(&s, &opt, &ctx), EXO_OK);
  /* (Check assertions cost a system call each: none inside big loops.) */
  exo_status rc = EXO_OK;
  for (size_t i = 0; i < m && rc == EXO_OK; i++) {
    if (i == sc->set_wide_at) {
      ck_assert_int_eq(exo_sorter_set_wide(s, &ctx), EXO_OK);
      ck_assert(exo_sorter_is_wide(s));
    }
    for (int j = 0; j < sc->nresize; j++)
      if (i == sc->resize_at[j])
        ck_assert_int_eq(exo_sorter_set_run_memory(s, sc->resize_to[j], &ctx), EXO_OK);
    if (!sc->batch) {
      rc = exo_sorter_add(s, arcs[i].key, arcs[i].nbr, arcs[i].w, &ctx);
      continue;
    }
    /* a chunk [i, j) that stops before the next width change or resize */
    size_t j = i + 1 + (i * 7919 + 13) % sc->batch;
    if (j > m) j = m;
    if (sc->set_wide_at > i && sc->set_wide_at < j) j = sc->set_wide_at;
    for (int k = 0; k < sc->nresize; k++)
      if (sc->resize_at[k] > i && sc->resize_at[k] < j) j = sc->resize_at[k];
    int w = exo_sorter_is_wide(s);
    if (w && sc->batch_narrow) {
      w = 0;
      for (size_t k = i; k < j; k++) w |= ((arcs[k].key | arcs[k].nbr) >> 32) != 0;
    }
    const size_t rs = exo_rec_size(w);
    uint8_t *buf = malloc((j - i) * rs);
    for (size_t k = i; k < j; k++) exo_rec_encode(buf + (k - i) * rs, w, arcs[k].key, arcs[k].nbr, arcs[k].w);
    size_t done = 0;
    rc = exo_sorter_add_records(s, buf, j - i, w, &done, &ctx);
    if (rc == EXO_OK && done != j - i) rc = EXO_EINTERNAL;
    free(buf);
    i = j - 1;
  }
  ck_assert_msg(rc == EXO_OK, "add: %s", ctx.err.msg);
  exo_sort_stats st;
  rc = exo_sorter_finish_csr(s, sc->num_nodes, op, ap, sc->csr_wide, &ctx, &st);
  ck_assert_msg(rc == EXO_OK, "finish: %s", ctx.err.msg);
  ck_assert_int_eq(tu_count_entries(dir), 2); /* only the CSR files */
  exo_sorter_free(s);
  ck_assert_int_eq(tu_count_entries(dir), 2);

  uint8_t *wo, *wa;
  size_t wol, wal, gol, gal;
  uint64_t entries, positive;
  reference_csr(arcs, m, sc->num_nodes, sc->csr_wide, sc->opt.combine, &wo, &wol, &wa,
                &wal, &entries, &positive);
  char *go = tu_read_file(op, &gol), *ga = tu_read_file(ap, &gal);
  ck_assert_ptr_nonnull(go);
  ck_assert_ptr_nonnull(ga);
  ck_assert_uint_eq(gol, wol);
  ck_assert_uint_eq(gal, wal);
  ck_assert_msg(memcmp(go, wo, wol) == 0, "offsets differ");
  ck_assert_msg(wal == 0 || memcmp(ga, wa, wal) == 0, "adjacency differs");

  ck_assert_uint_eq(st.records, m);
  ck_assert_uint_eq(st.arcs, entries);
  ck_assert_uint_eq(st.arcs_positive, positive);
  if (sc->opt.combine == EXO_COMBINE_KEEP) ck_assert_uint_eq(st.arcs, m);
  ck_assert_uint_ge(st.merge_passes, 1);
  ck_assert_uint_ge(st.fan_in, 2);
  ck_assert_uint_ge(st.peak_disk, wol + wal);
  /* the CSR stage reported its end */
  ck_assert_int_gt(cbs.calls[EXO_STAGE_CSR], 0);
  ck_assert_uint_eq(cbs.last_done[EXO_STAGE_CSR], m);
  ck_assert_uint_eq(cbs.last_total[EXO_STAGE_CSR], m);
  if (st.merge_passes > 1) {
    ck_assert_int_gt(cbs.calls[EXO_STAGE_MERGE], 0);
    ck_assert_uint_eq(cbs.last_done[EXO_STAGE_MERGE], cbs.last_total[EXO_STAGE_MERGE]);
  }
  free(go);
  free(ga);
  free(wo);
  free(wa);
  free(op);
  free(ap);
  tu_rmdir(dir);
  free(dir);
  return st;
}

/* Random arcs over n nodes; nbr below nbr_range. */
static tarc *random_arcs(size_t m, uint64_t n, uint64_t nbr_range, uint64_t seed) {
  exo_rng rng;
  exo_rng_seed(&rng, seed);
  tarc *a = malloc((m + 1) * sizeof *a);
  for (size_t i = 0; i < m; i++) {
    a[i].key = exo_rng_below(&rng, n);
    a[i].nbr = exo_rng_below(&rng, nbr_range);
    a[i].w = tag_weight((uint32_t)i);
    a[i].idx = (uint32_t)i;
  }
  return a;
}

static sort_case knob_case(uint64_t run_records, uint32_t fan_in, uint64_t n) {
  sort_case sc;
  memset(&sc, 0, sizeof sc);
  sc.opt.memory_limit = 64 << 20;
  sc.opt.run_records = run_records;
  sc.opt.fan_in = fan_in;
  sc.num_nodes = n;
  sc.set_wide_at = SIZE_MAX;
  return sc;
}

START_TEST(many_runs_fan_in_2) {
  tarc *a = random_arcs(2000, 50, 50, 1);
  sort_case sc = knob_case(5, 2, 50);
  exo_sort_stats st = run_case(&sc, a, 2000);
  ck_assert_uint_eq(st.runs, 400);
  ck_assert_uint_eq(st.fan_in, 2);
  ck_assert_uint_ge(st.merge_passes, 3);
  ck_assert_uint_eq(st.merge_passes, 9); /* ceil(log2(400)) */
  free(a);
}
END_TEST

START_TEST(many_runs_fan_in_3) {
  tarc *a = random_arcs(3001, 40, 5, 2); /* few distinct pairs: stability */
  sort_case sc = knob_case(7, 3, 40);
  exo_sort_stats st = run_case(&sc, a, 3001);
  ck_assert_uint_eq(st.runs, 429);
  ck_assert_uint_eq(st.fan_in, 3);
  ck_assert_uint_eq(st.merge_passes, 6); /* ceil(log3(429)) */
  free(a);
}
END_TEST

START_TEST(runs_of_1000_fan_in_2_and_3) {
  tarc *a = random_arcs(20000, 5000, 5000, 3);
  sort_case sc = knob_case(1000, 2, 5000);
  exo_sort_stats st = run_case(&sc, a, 20000);
  ck_assert_uint_eq(st.runs, 20);
  ck_assert_uint_eq(st.merge_passes, 5);
  sc = knob_case(1000, 3, 5000);
  st = run_case(&sc, a, 20000);
  ck_assert_uint_eq(st.merge_passes, 3);
  /* the fan-in equal to the run count: the final merge alone */
  sc = knob_case(1000, 20, 5000);
  st = run_case(&sc, a, 20000);
  ck_assert_uint_eq(st.merge_passes, 1);
  ck_assert_uint_eq(st.runs, 20);
  ck_assert_uint_eq(st.peak_disk, 19 * 12000 + 5001 * 8 + 20000 * 8); /* last run never written */
  /* one more run than the fan-in: only two runs are merged first */
  sc = knob_case(1000, 19, 5000);
  st = run_case(&sc, a, 20000);
  ck_assert_uint_eq(st.merge_passes, 2);
  free(a);
}
END_TEST

START_TEST(memory_limit_sizing) {
  tarc *a = random_arcs(60000, 3000, 100000, 4);
  /* 64 KiB: 8 KiB buffers (682 records per run) and fan-in 2 */
  sort_case sc = knob_case(0, 0, 3000);
  sc.opt.memory_limit = 64 << 10;
  exo_sort_stats st = run_case(&sc, a, 60000);
  ck_assert_uint_eq(st.runs, (60000 + 681) / 682);
  ck_assert_uint_eq(st.fan_in, 2);
  ck_assert_uint_ge(st.merge_passes, 3);
  /* 1 MiB: too little for two 1 MiB merge buffers: fan-in 2 */
  sc.opt.memory_limit = 1 << 20;
  st = run_case(&sc, a, 60000);
  ck_assert_uint_eq(st.fan_in, 2);
  ck_assert_uint_eq(st.runs, 2); /* 40960 records per run */
  /* 8 MiB: 7 sources of 1 MiB and the output */
  sc.opt.memory_limit = 8 << 20;
  st = run_case(&sc, a, 60000);
  ck_assert_uint_eq(st.fan_in, 7);
  ck_assert_uint_eq(st.runs, 1);
  /* memory_limit 0 still works with minimal buffers */
  sc.opt.memory_limit = 0;
  st = run_case(&sc, a, 60000);
  ck_assert_uint_eq(st.fan_in, 2);
  /* 64 MiB: one run kept in memory, nothing merged */
  sc.opt.memory_limit = 64 << 20;
  st = run_case(&sc, a, 60000);
  ck_assert_uint_eq(st.runs, 1);
  ck_assert_uint_eq(st.merge_passes, 1);
  ck_assert_uint_eq(st.fan_in, 63);
  ck_assert_uint_eq(st.peak_disk, 3001 * 8 + 60000 * 8); /* just the CSR */
  free(a);
}
END_TEST

START_TEST(run_memory_shrinks_and_grows) {
  tarc *a = random_arcs(60000, 3000, 100000, 4);
  /* 1 MiB: 40960 records per run. Shrinking to 64 KiB (682 records) after
   * 10000 records writes them as a run; growing back at 10500 restores
   * 40960: runs of 10000 and 40960 records, 9040 kept in memory. */
  sort_case sc = knob_case(0, 8, 3000); /* fan-in 8: the last run stays in memory */
  sc.opt.memory_limit = 1 << 20;
  sc.nresize = 2;
  sc.resize_at[0] = 10000;
  sc.resize_to[0] = 64 << 10;
  sc.resize_at[1] = 10500;
  sc.resize_to[1] = 1 << 20;
  exo_sort_stats st = run_case(&sc, a, 60000);
  ck_assert_uint_eq(st.runs, 3);
  ck_assert_uint_eq(st.peak_disk, (10000 + 40960) * 12 + 3001 * 8 + 60000 * 8);
  /* the run_memory option sizes the first buffer (64 KiB: 682 records) */
  sc.nresize = 0;
  sc.opt.run_memory = 64 << 10;
  st = run_case(&sc, a, 60000);
  ck_assert_uint_eq(st.runs, (60000 + 681) / 682);
  /* the run_records knob wins over resizing */
  sort_case kc = knob_case(1000, 0, 3000);
  kc.nresize = 1;
  kc.resize_at[0] = 10;
  kc.resize_to[0] = 64 << 10;
  st = run_case(&kc, a, 60000);
  ck_assert_uint_eq(st.runs, 60);
  free(a);
}
END_TEST

/* Background mode (a thread sorts and writes full buffers): the same CSR
 * bytes, runs a third of the memory instead of half, resizing and width
 * changes while a run is being written, and a failing run write reported by
 * the next call on the caller's thread with nothing left behind. */
START_TEST(background_runs) {
  tarc *a = random_arcs(60000, 3000, 100000, 4);
  sort_case sc = knob_case(0, 8, 3000);
  sc.opt.memory_limit = 1 << 20;
  sc.opt.background = 1;
  exo_sort_stats st = run_case(&sc, a, 60000); /* byte-compared inside */
  /* 27306 records per run: 1 written; the second was still with the run
   * thread when the input ended and is merged from memory, beside the
   * buffer's 5388 records (sorted while the thread finished: under half) */
  ck_assert_uint_eq(st.runs, 3);
  ck_assert_uint_eq(st.runs_in_memory, 2);
  ck_assert_uint_eq(st.peak_disk, 27306 * 12 + 3001 * 8 + 60000 * 8); /* run + CSR */
  /* 22694 records left in the buffer: more than half, sorted after */
  st = run_case(&sc, a, 50000);
  ck_assert_uint_eq(st.runs, 2);
  ck_assert_uint_eq(st.runs_in_memory, 2);
  ck_assert_uint_eq(st.peak_disk, 3001 * 8 + 50000 * 8); /* the CSR alone */
  sc.nresize = 2;                /* resizes with a run in flight */
  sc.resize_at[0] = 30000;
  sc.resize_to[0] = 64 << 10;
  sc.resize_at[1] = 30500;
  sc.resize_to[1] = 1 << 20;
  run_case(&sc, a, 60000);
  sort_case kc = knob_case(5, 2, 3000); /* 12000 runs, fan-in 2 */
  kc.opt.background = 1;
  st = run_case(&kc, a, 60000);
  ck_assert_uint_eq(st.runs, 12000);
  ck_assert_uint_eq(st.runs_in_memory, 0); /* more runs than one merge takes */
  kc = knob_case(37, 3, 300);
  kc.opt.background = 1;
  kc.num_nodes = 3000;
  kc.set_wide_at = 2345;
  run_case(&kc, a, 5000);
  free(a);

  char *dir = tu_mkdtemp();
  char *gone = tu_path(dir, "missing");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_sort_options nodir = {gone, 1 << 20, 0, 4, 2, 0, 1, EXO_COMBINE_KEEP, 0};
  exo_sorter *s = NULL;
  ck_assert_int_eq(exo_sorter_create(&s, &nodir, &ctx), EXO_OK);
  exo_status rc = EXO_OK;
  uint32_t i;
  for (i = 0; i < 100 && rc == EXO_OK; i++) rc = exo_sorter_add(s, i, i, 1.0f, &ctx);
  ck_assert_int_eq(rc, EXO_EIO);
  ck_assert_uint_eq(i, 9); /* run 1 fails on the thread, reported at the 2nd flush */
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "missing"));
  exo_sorter_free(s);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  /* when the input ends while that run is with the thread and everything
   * fits one merge, the run is merged from memory: whether the thread had
   * failed to write it or not, finish succeeds with the right CSR */
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_sorter_create(&s, &nodir, &ctx), EXO_OK);
  for (i = 0; i < 6; i++) ck_assert_int_eq(exo_sorter_add(s, i, 9 - i, 1.0f, &ctx), EXO_OK);
  char *op = tu_path(dir, "o"), *ap = tu_path(dir, "a");
  exo_sort_stats fst;
  ck_assert_msg(exo_sorter_finish_csr(s, 10, op, ap, 0, &ctx, &fst) == EXO_OK, "finish: %s",
                ctx.err.msg);
  ck_assert_uint_eq(fst.runs, 2);
  ck_assert_uint_eq(fst.runs_in_memory, 2);
  exo_sorter_free(s);
  ck_assert_int_eq(tu_count_entries(dir), 2); /* the CSR files */
  size_t ol, al;
  char *ob = tu_read_file(op, &ol), *ab = tu_read_file(ap, &al);
  ck_assert_uint_eq(ol, 11 * 8);
  ck_assert_uint_eq(al, 6 * 8);
  for (uint64_t v = 0; v <= 10; v++) { /* node v has one arc for v < 6 */
    uint64_t off;
    memcpy(&off, ob + 8 * v, 8);
    ck_assert_uint_eq(off, v < 6 ? v : 6);
  }
  for (uint32_t e = 0; e < 6; e++) {
    uint32_t nbr;
    memcpy(&nbr, ab + 8 * e, 4);
    ck_assert_uint_eq(nbr, 9 - e);
  }
  free(ob);
  free(ab);
  exo_unlink(op);
  exo_unlink(ap);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  free(op);
  free(ap);
  free(gone);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(mixed_width_runs) {
  const size_t m = 5000;
  tarc *a = random_arcs(m, 300, 300, 5);
  /* set_wide in the middle, narrow CSR */
  sort_case sc = knob_case(37, 3, 300);
  sc.set_wide_at = 2345;
  exo_sort_stats st = run_case(&sc, a, m);
  ck_assert_uint_ge(st.merge_passes, 3);
  /* same with a wide CSR */
  sc.csr_wide = 1;
  run_case(&sc, a, m);
  /* narrow and wide runs on disk plus a wide buffer: a single final merge */
  sc = knob_case(1000, 0, 300);
  sc.set_wide_at = 2345;
  st = run_case(&sc, a, m);
  ck_assert_uint_eq(st.runs, 6);
  ck_assert_uint_eq(st.merge_passes, 1);
  /* wide from the start, a single run in memory */
  sc = knob_case(0, 0, 300);
  sc.opt.wide = 1;
  sc.csr_wide = 1;
  run_case(&sc, a, m);
  /* neighbours beyond 32 bits after set_wide: only a wide CSR holds them */
  for (size_t i = m / 2; i < m; i++) a[i].nbr |= (uint64_t)(i % 3) << 33;
  sc = knob_case(50, 4, 300);
  sc.set_wide_at = m / 2;
  sc.csr_wide = 1;
  st = run_case(&sc, a, m);
  ck_assert_uint_ge(st.merge_passes, 3);
  /* set_wide right at the start and at the very end */
  sc.set_wide_at = 0;
  run_case(&sc, a, m);
  for (size_t i = 0; i < m; i++) a[i].nbr &= UINT32_MAX;
  sc.set_wide_at = m - 1;
  sc.csr_wide = 0;
  run_case(&sc, a, m);
  free(a);
}
END_TEST

/* Background runs of more than 8 MiB with threads > 1 are written in
 * slices side by side (positioned writes): 6e6 records, runs of about 2.9e6
 * (33 MiB: 4 slices with 4 threads, 3 with 3, 2 with 2), two written and
 * merged with the rest: the CSR bytes of the reference, for each count. */
START_TEST(background_runs_written_in_slices) {
  /* sanitized builds: a quarter of the records and of the memory (the same
   * runs, written in slices) */
  const size_t m = TU_SAN(6000000, 1500000);
  tarc *a = random_arcs(m, 200000, 200000, 21);
  for (int t = 2; t <= 4; t++) {
    sort_case sc = knob_case(0, 0, 200000);
    sc.opt.memory_limit = (uint64_t)TU_SAN(100, 25) << 20;
    sc.opt.background = 1;
    sc.opt.threads = t;
    exo_sort_stats st = run_case(&sc, a, m); /* byte-compared inside */
    ck_assert_uint_ge(st.runs - st.runs_in_memory, 1);
#ifndef _WIN32 /* Windows' thread clock ticks every 15.6 ms: a slice may read 0 */
    ck_assert_double_gt(st.run_write_cpu_seconds, 0.0);
#endif
  }
  free(a);
}
END_TEST

/* exo_sorter_add_records (a block's records at once, as the parser threads
 * build them) gives the runs and CSR of exo_sorter_add record by record:
 * chunks of 1 to 7 and of 1 to 5000 records across run boundaries, foreground and
 * background, resizes, a width change, and narrow records given to a wide
 * sorter (widened); a wide chunk into a narrow sorter is refused. */
START_TEST(add_records_same_as_add) {
  const size_t m = TU_SAN(60000, 25000); /* past every resize and widening */
  tarc *a = random_arcs(m, 3000, 100000, 11);
  sort_case cases[4];
  cases[0] = knob_case(37, 3, 3000);
  cases[0].set_wide_at = 23456;
  cases[1] = knob_case(0, 8, 3000);
  cases[1].opt.memory_limit = 1 << 20;
  cases[1].nresize = 2;
  cases[1].resize_at[0] = 10000;
  cases[1].resize_to[0] = 64 << 10;
  cases[1].resize_at[1] = 10500;
  cases[1].resize_to[1] = 1 << 20;
  cases[2] = cases[1];
  cases[2].opt.background = 1;
  cases[2].opt.threads = 3;
  cases[3] = knob_case(1000, 0, 3000);
  cases[3].opt.wide = 1;
  cases[3].csr_wide = 1;
  for (int c = 0; c < 4; c++) {
    exo_sort_stats ref = run_case(&cases[c], a, m);
    static const size_t batches[] = {7, 5000};
    for (size_t b = 0; b < sizeof batches / sizeof *batches; b++) {
      for (int nar = 0; nar <= TU_WINE(1, c == 3); nar++) { /* Wine: narrow into wide only */
        sort_case sc = cases[c];
        sc.batch = batches[b];
        sc.batch_narrow = nar;
        exo_sort_stats st = run_case(&sc, a, m);
        ck_assert_uint_eq(st.runs, ref.runs);
        ck_assert_uint_eq(st.runs_in_memory, ref.runs_in_memory);
        ck_assert_uint_eq(st.merge_passes, ref.merge_passes);
        ck_assert_uint_eq(st.peak_disk, ref.peak_disk);
      }
    }
  }
  free(a);
  /* wide records into a narrow sorter */
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_sort_options o = {0};
  o.tmpdir = dir;
  o.memory_limit = 1 << 20;
  exo_sorter *s = NULL;
  ck_assert_int_eq(exo_sorter_create(&s, &o, &ctx), EXO_OK);
  uint8_t rec[20];
  exo_rec_encode(rec, 1, 1, 2, 1.0f);
  size_t done = 9;
  ck_assert_int_eq(exo_sorter_add_records(s, rec, 1, 1, &done, &ctx), EXO_EARG);
  ck_assert_uint_eq(done, 0);
  exo_sorter_free(s);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(zero_records_and_empty_nodes) {
  sort_case sc = knob_case(5, 2, 10);
  exo_sort_stats st = run_case(&sc, NULL, 0);
  ck_assert_uint_eq(st.runs, 0);
  ck_assert_uint_eq(st.records, 0);
  sc.num_nodes = 0;
  run_case(&sc, NULL, 0);
  sc = knob_case(0, 0, 7); /* from memory */
  run_case(&sc, NULL, 0);
  /* arcs only on some keys: gaps, leading and trailing nodes without arcs */
  const size_t m = 3000;
  tarc *a = random_arcs(m, 100, 1000, 6);
  for (size_t i = 0; i < m; i++) a[i].key = 3 + 2 * (a[i].key % 40);
  sc = knob_case(11, 5, 1000);
  st = run_case(&sc, a, m);
  ck_assert_uint_ge(st.merge_passes, 3);
  sc = knob_case(0, 0, 1000);
  run_case(&sc, a, m);
  /* one node, one arc */
  a[0].key = 0;
  sc = knob_case(0, 0, 1);
  run_case(&sc, a, 1);
  sc = knob_case(1, 2, 1);
  run_case(&sc, a, 1);
  free(a);
}
END_TEST

/* The records left in the buffer when the input ends are sorted on the
 * sorter's threads (min(threads, records / 65536)), not on the caller's
 * alone, and the CSR is the reference's byte for byte for 1..3 threads:
 * a buffer that holds the whole input (200,000 records, no run), and in
 * background mode a run still with its thread when the input ends beside
 * a buffer of 150,000 records that the caller sorts meanwhile. */
START_TEST(last_buffer_sorted_on_threads) {
  const size_t m = 450000;
  tarc *a = random_arcs(m, 50000, 50000, 31);
  for (int t = 1; t <= 3; t++) {
    sort_case sc = knob_case(0, 0, 50000);
    sc.opt.threads = t;
    exo_sort_stats st = run_case(&sc, a, 200000);
    ck_assert_uint_eq(st.runs, 1);
    ck_assert_uint_eq(st.runs_in_memory, 1);
    ck_assert_uint_eq(st.last_sort_threads, (uint32_t)t); /* 200000 / 65536 = 3 */
    ck_assert(st.last_sort_seconds > 0.0);
    sc = knob_case(300000, 0, 50000);
    sc.opt.background = 1;
    sc.opt.threads = t;
    st = run_case(&sc, a, m);
    ck_assert_uint_eq(st.runs, 2);
    ck_assert_uint_eq(st.runs_in_memory, 2); /* the run was kept, not written */
    ck_assert(st.last_sort_seconds > 0.0);
    ck_assert_uint_eq(st.last_sort_threads, t < 2 ? (uint32_t)t : 2u); /* 150000 / 65536 */
  }
  free(a);
}
END_TEST

/* Feed arcs and finish with an interrupt armed by `stage` progress; finish
 * must return EXO_EINTR and nothing may remain in the tmpdir after free. */
static void check_interrupt(int stage, uint64_t run_records, uint32_t fan_in, int background,
                            int threads) {
  char *dir = tu_mkdtemp();
  char *op = tu_path(dir, "o"), *ap = tu_path(dir, "a");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  cb_state cbs;
  memset(&cbs, 0, sizeof cbs);
  cbs.fire_stage = stage;
  ctx.cb.user = &cbs;
  ctx.cb.progress = on_progress;
  ctx.cb.interrupted = on_interrupt;
  exo_sort_options opt = {dir, 1 << 20, 0, run_records, fan_in, 0, background, EXO_COMBINE_KEEP,
                          threads};
  exo_sorter *s = NULL;
  ck_assert_int_eq(exo_sorter_create(&s, &opt, &ctx), EXO_OK);
  exo_rng rng;
  exo_rng_seed(&rng, 99);
  exo_status rc = EXO_OK;
  for (uint32_t i = 0; i < 300000 && rc == EXO_OK; i++)
    rc = exo_sorter_add(s, exo_rng_below(&rng, 1000), i, 1.0f, &ctx);
  ck_assert_int_eq(rc, EXO_OK);
  ck_assert_int_gt(tu_count_entries(dir), 2); /* runs exist */
  exo_sort_stats st;
  ck_assert_int_eq(exo_sorter_finish_csr(s, 1000, op, ap, 0, &ctx, &st), EXO_EINTR);
  ck_assert_int_eq(ctx.err.code, EXO_EINTR);
  ck_assert(cbs.armed);
  ck_assert_uint_gt(cbs.last_done[stage], 0);
  ck_assert_uint_lt(cbs.last_done[stage], cbs.last_total[stage]); /* mid-stage */
  ck_assert_int_eq(tu_count_entries(dir), 0);
  exo_sorter_free(s);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  free(op);
  free(ap);
  tu_rmdir(dir);
  free(dir);
}

START_TEST(interrupt_mid_merge_cleans_up) {
  for (int bg = 0; bg <= 1; bg++) {
    check_interrupt(EXO_STAGE_MERGE, 1000, 4, bg, 1);
    check_interrupt(EXO_STAGE_CSR, 1000, 4, bg, 1);
    check_interrupt(EXO_STAGE_CSR, 0, 0, bg, 1); /* final merge of memory-sized runs */
  }
  /* an intermediate pass split into ranges: the interrupt reaches them */
  check_interrupt(EXO_STAGE_MERGE, 1000, 4, 0, 2);
  check_interrupt(EXO_STAGE_MERGE, 1000, 4, 0, 3);
}
END_TEST

/* An interrupt while runs are being generated: add returns EXO_EINTR. */
START_TEST(interrupt_during_run_generation) {
  for (int budget = 1; budget <= 24; budget++) {
    const int background = budget > 12; /* the second dozen with a run thread */
    char *dir = tu_mkdtemp();
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    cb_state cbs;
    memset(&cbs, 0, sizeof cbs);
    cbs.fire_stage = -1;
    cbs.polls_left = background ? budget - 12 : budget;
    ctx.cb.user = &cbs;
    ctx.cb.interrupted = on_interrupt;
    exo_sort_options opt = {dir, 1 << 20, 0, 0, 0, 0, background, EXO_COMBINE_KEEP, 1};
    exo_sorter *s = NULL;
    ck_assert_int_eq(exo_sorter_create(&s, &opt, &ctx), EXO_OK);
    exo_rng rng;
    exo_rng_seed(&rng, 5);
    exo_status rc = EXO_OK;
    uint32_t i;
    for (i = 0; i < 1000000 && rc == EXO_OK; i++)
      rc = exo_sorter_add(s, exo_rng_below(&rng, 1u << 31), i, 1.0f, &ctx);
    ck_assert_int_eq(rc, EXO_EINTR);
    ck_assert_int_eq(cbs.polls, background ? budget - 12 : budget); /* host polled here only */
    ck_assert_uint_lt(i, 1000000);
    exo_sorter_free(s);
    ck_assert_int_eq(tu_count_entries(dir), 0);
    tu_rmdir(dir);
    free(dir);
  }
}
END_TEST

START_TEST(errors_leave_no_run_files) {
  char *dir = tu_mkdtemp();
  char *op = tu_path(dir, "o"), *ap = tu_path(dir, "a");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_sorter *s = NULL;
  exo_sort_options opt = {dir, 1 << 20, 0, 10, 2, 0, 0, EXO_COMBINE_KEEP, 2};

  /* a key not below num_nodes */
  ck_assert_int_eq(exo_sorter_create(&s, &opt, &ctx), EXO_OK);
  for (uint32_t i = 0; i < 100; i++)
    ck_assert_int_eq(exo_sorter_add(s, i % 50, i, 1.0f, &ctx), EXO_OK);
  ck_assert_int_eq(exo_sorter_finish_csr(s, 40, op, ap, 0, &ctx, NULL), EXO_EINTERNAL);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  ck_assert_int_eq(exo_sorter_finish_csr(s, 40, op, ap, 0, &ctx, NULL), EXO_EARG);
  exo_sorter_free(s);
  ck_assert_int_eq(tu_count_entries(dir), 0);

  /* a neighbour >= 2^32 with a narrow CSR */
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_sorter_create(&s, &opt, &ctx), EXO_OK);
  ck_assert_int_eq(exo_sorter_add(s, 1, 2, 1.0f, &ctx), EXO_OK);
  ck_assert_int_eq(exo_sorter_add(s, 1, (uint64_t)1 << 32, 1.0f, &ctx), EXO_EARG); /* narrow */
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_sorter_set_wide(s, &ctx), EXO_OK);
  for (uint32_t i = 0; i < 30; i++)
    ck_assert_int_eq(exo_sorter_add(s, i % 3, ((uint64_t)1 << 32) + i, 1.0f, &ctx), EXO_OK);
  ck_assert_int_eq(exo_sorter_finish_csr(s, 3, op, ap, 0, &ctx, NULL), EXO_EINTERNAL);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  ck_assert_int_eq(exo_sorter_add(s, 0, 0, 1.0f, &ctx), EXO_EARG); /* finished */
  exo_sorter_free(s);

  /* too many nodes for a narrow CSR */
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_sorter_create(&s, &opt, &ctx), EXO_OK);
  ck_assert_int_eq(exo_sorter_finish_csr(s, ((uint64_t)1 << 32) + 1, op, ap, 0, &ctx, NULL),
                   EXO_EARG);
  exo_sorter_free(s);
  ck_assert_int_eq(tu_count_entries(dir), 0);

  /* free with runs on disk removes them */
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_sorter_create(&s, &opt, &ctx), EXO_OK);
  for (uint32_t i = 0; i < 95; i++) ck_assert_int_eq(exo_sorter_add(s, i, i, 1.0f, &ctx), EXO_OK);
  ck_assert_int_eq(tu_count_entries(dir), 9);
  exo_sorter_free(s);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  exo_sorter_free(NULL);

  /* bad options; a temp directory that does not exist */
  exo_ctx_init(&ctx);
  exo_sort_options bad = {dir, 1 << 20, 0, 0, 1, 0, 0, EXO_COMBINE_KEEP, 0};
  ck_assert_int_eq(exo_sorter_create(&s, &bad, &ctx), EXO_EARG);
  ck_assert_ptr_null(s);
  exo_ctx_init(&ctx);
  bad.fan_in = 4097;
  ck_assert_int_eq(exo_sorter_create(&s, &bad, &ctx), EXO_EARG);
  exo_ctx_init(&ctx);
  bad.tmpdir = NULL;
  bad.fan_in = 0;
  ck_assert_int_eq(exo_sorter_create(&s, &bad, &ctx), EXO_EARG);
  exo_ctx_init(&ctx);
  char *gone = tu_path(dir, "missing");
  exo_sort_options nodir = {gone, 1 << 20, 0, 4, 2, 0, 0, EXO_COMBINE_KEEP, 0};
  ck_assert_int_eq(exo_sorter_create(&s, &nodir, &ctx), EXO_OK);
  exo_status rc = EXO_OK;
  for (uint32_t i = 0; i < 10 && rc == EXO_OK; i++) rc = exo_sorter_add(s, i, i, 1.0f, &ctx);
  ck_assert_int_eq(rc, EXO_EIO);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "missing"));
  exo_sorter_free(s);
  free(gone);
  free(op);
  free(ap);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* ---------------------------------------------------------------------
 * merges split into key ranges (threads): the intermediate passes and the
 * final merge
 * --------------------------------------------------------------------- */

/* run_case for 1, 2, 3 and 4 threads: every CSR is compared byte for byte
 * with the reference inside, so all thread counts give the same bytes; the
 * run and pass structure does not depend on the threads either. Returns
 * the statistics of the 1-thread run. */
static exo_sort_stats run_case_threads(sort_case sc, const tarc *arcs, size_t m) {
  exo_sort_stats first;
  memset(&first, 0, sizeof first);
  for (int t = 1; t <= 4; t++) {
    sc.opt.threads = t;
    exo_sort_stats st = run_case(&sc, arcs, m);
    if (t == 1) first = st;
    ck_assert_uint_eq(st.runs, first.runs);
    ck_assert_uint_eq(st.merge_passes, first.merge_passes);
    ck_assert_uint_eq(st.fan_in, first.fan_in);
    ck_assert_uint_eq(st.arcs, first.arcs);
    ck_assert_uint_eq(st.arcs_positive, first.arcs_positive);
  }
  return first;
}

static tarc *repeated_arcs(size_t m, uint64_t n, uint64_t seed); /* (combine tests) */

/* Folding (combine) with several ranges: later ranges are moved left after
 * the merge; the bytes still equal the reference for 1..4 threads. */
START_TEST(parallel_merge_combine) {
  const size_t m = 20000;
  tarc *a = repeated_arcs(m, 300, 13);
  const exo_combine rules[] = {EXO_COMBINE_SUM, EXO_COMBINE_MAX};
  for (int r = 0; r < 2; r++) {
    sort_case sc = knob_case(97, 3, 300); /* several passes, then the split */
    sc.opt.combine = rules[r];
    run_case_threads(sc, a, m);
    sc = knob_case(3000, 0, 300); /* runs + the buffer */
    sc.opt.combine = rules[r];
    sc.set_wide_at = m / 2;
    sc.csr_wide = 1;
    run_case_threads(sc, a, m);
  }
  free(a);
}
END_TEST

/* Intermediate passes split into key ranges: many memory-sized runs (a
 * tiny memory_limit: 1365 records per run, fan-in 2, so every group has two
 * runs and there are several passes), knob-sized runs with fan-in 5 (66
 * runs: 13 groups of 5 and a run carried over alone, then groups of 5, 5
 * and 2 leaving 5 runs), runs of both widths, and one heavy key (most
 * ranges of a group empty); each with KEEP, SUM and MAX. For 1..4 threads
 * the CSR equals the in-memory reference byte for byte, so the runs the
 * passes wrote held the same records in the same order. */
START_TEST(intermediate_passes_threads) {
  const size_t m = 19800;
  tarc *a = random_arcs(m, 4000, 4000, 21), *r = repeated_arcs(m, 400, 22);
  const exo_combine rules[] = {EXO_COMBINE_KEEP, EXO_COMBINE_SUM, EXO_COMBINE_MAX};
  for (int c = 0; c < 3; c++) {
    const tarc *x = c == 0 ? a : r;
    const uint64_t n = c == 0 ? 4000 : 400;
    sort_case sc = knob_case(0, 0, n);
    sc.opt.memory_limit = 96 << 10;
    sc.opt.combine = rules[c];
    exo_sort_stats st = run_case_threads(sc, x, m);
    ck_assert_uint_eq(st.runs, (m + 1364) / 1365);
    ck_assert_uint_eq(st.fan_in, 2);
    ck_assert_uint_eq(st.merge_passes, 4); /* ceil(log2(15)) */
    sc = knob_case(300, 5, n);
    sc.opt.combine = rules[c];
    st = run_case_threads(sc, x, m);
    ck_assert_uint_eq(st.runs, 66);
    ck_assert_uint_eq(st.merge_passes, 3);
    sc.set_wide_at = m / 2 + 7; /* narrow and wide runs in one group */
    sc.csr_wide = 1;
    st = run_case_threads(sc, x, m);
    ck_assert_uint_eq(st.merge_passes, 3);
  }
  for (size_t i = 0; i < m; i++) a[i].key = i % 10 ? 7 : i % 4000;
  sort_case sc = knob_case(0, 0, 4000);
  sc.opt.memory_limit = 96 << 10;
  exo_sort_stats st = run_case_threads(sc, a, m);
  ck_assert_uint_eq(st.merge_passes, 4);
  free(a);
  free(r);
}
END_TEST

START_TEST(parallel_merge_same_bytes) {
  const size_t m = 20000;
  tarc *a = random_arcs(m, 5000, 5000, 11);
  /* runs of 700 records and fan-in 3: intermediate passes, then the split
   * final merge over 3 runs */
  sort_case sc = knob_case(700, 3, 5000);
  run_case_threads(sc, a, m);
  /* fan-in 40: one final merge of 29 runs, the last one from memory */
  sc = knob_case(700, 40, 5000);
  run_case_threads(sc, a, m);
  /* everything in memory (no run file), memory-sized */
  sc = knob_case(0, 0, 5000);
  run_case_threads(sc, a, m);
  /* nodes without arcs at both ends and between the split keys */
  sc = knob_case(900, 4, 20000);
  run_case_threads(sc, a, m);
  /* few nodes, many equal (key, nbr) pairs: ties across runs keep input order */
  tarc *d = random_arcs(m, 3, 2, 12);
  sc = knob_case(500, 8, 3);
  run_case_threads(sc, d, m);
  /* one heavy node: more threads than useful ranges (empty ranges) */
  for (size_t i = 0; i < m; i++) d[i].key = 1;
  run_case_threads(sc, d, m);
  free(d);
  /* wide ids: wide records from the start, neighbours beyond 32 bits, a
   * wide CSR; then runs of both widths (set_wide in the middle) */
  for (size_t i = 0; i < m; i++) a[i].nbr |= (uint64_t)(i % 5) << 34;
  sc = knob_case(800, 4, 5000);
  sc.opt.wide = 1;
  sc.csr_wide = 1;
  run_case_threads(sc, a, m);
  sc.opt.wide = 0;
  sc.set_wide_at = m / 3;
  for (size_t i = 0; i < m / 3; i++) a[i].nbr &= UINT32_MAX;
  run_case_threads(sc, a, m);
  /* background runs and memory sizing together */
  for (size_t i = 0; i < m; i++) a[i].nbr &= UINT32_MAX;
  sc = knob_case(0, 0, 5000);
  sc.opt.memory_limit = 96 << 10;
  sc.opt.background = 1;
  run_case_threads(sc, a, m);
  free(a);
}
END_TEST

#if EXO_PUNCH_SUPPORTED /* the probe counts allocated bytes (st_blocks): a build without
                            hole punching (Windows, -DEXO_PORTABLE) keeps runs whole until deleted */
/* Allocated bytes (st_blocks) of every file in dir. */
static uint64_t dir_allocated(const char *dir) {
  DIR *d = opendir(dir);
  uint64_t sum = 0;
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char *p = tu_path(dir, e->d_name);
    struct stat st;
    if (stat(p, &st) == 0) sum += (uint64_t)st.st_blocks * 512;
    free(p);
  }
  closedir(d);
  return sum;
}

typedef struct disk_probe {
  const char *dir;
  uint64_t peak, samples, merge_samples;
} disk_probe;

static void on_progress_disk(void *user, exo_stage stage, uint64_t done, uint64_t total) {
  disk_probe *p = user;
  if (stage != EXO_STAGE_CSR && stage != EXO_STAGE_MERGE) return;
  if (stage == EXO_STAGE_MERGE) p->merge_samples++;
  uint64_t now = dir_allocated(p->dir);
  if (now > p->peak) p->peak = now;
  p->samples++;
}

/* Hole punching with split merges: 3 M narrow records in 10 runs, fan-in 3
 * (two intermediate passes); the temp directory's allocated bytes, sampled
 * during the intermediate passes and the final merge, stay within 12 bytes
 * per record (the runs) + the offsets + the buffers, far below runs + CSR
 * (20 bytes per record) that an unpunched merge would reach; the CSR is
 * checked by degrees and a checksum. */
START_TEST(parallel_merge_punches_runs) {
  const uint64_t n = 100000;
  const uint32_t m = 3000000;
  /* ThreadSanitizer build: the merge on 2 threads only */
  for (int threads = TU_TSAN(1, 2); threads <= 2; threads++) {
    char *dir = tu_mkdtemp();
    char *op = tu_path(dir, "o"), *ap = tu_path(dir, "a");
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    disk_probe probe = {dir, 0, 0, 0};
    ctx.cb.user = &probe;
    ctx.cb.progress = on_progress_disk;
    const uint64_t mem = 4 << 20;
    exo_sort_options opt = {dir, mem, 0, 300000, 0, 0, 0, EXO_COMBINE_KEEP, threads};
    exo_sorter *s = NULL;
    ck_assert_int_eq(exo_sorter_create(&s, &opt, &ctx), EXO_OK);
    exo_rng rng;
    exo_rng_seed(&rng, 7);
    uint64_t sum_in = 0;
    exo_status rc = EXO_OK;
    for (uint32_t i = 0; i < m && rc == EXO_OK; i++) {
      uint64_t key = exo_rng_below(&rng, n), nbr = exo_rng_below(&rng, n);
      sum_in += key * 1000003 + nbr;
      rc = exo_sorter_add(s, key, nbr, 1.0f, &ctx);
    }
    ck_assert_int_eq(rc, EXO_OK);
    exo_sort_stats st;
    ck_assert_int_eq(exo_sorter_finish_csr(s, n, op, ap, 0, &ctx, &st), EXO_OK);
    exo_sorter_free(s);
    ck_assert_uint_eq(st.runs, 10);
    ck_assert_uint_eq(st.fan_in, 3);
    ck_assert_uint_eq(st.merge_passes, 3);
    ck_assert_uint_ge(probe.samples, 3);
    ck_assert_uint_ge(probe.merge_samples, 2);
    const uint64_t limit = 12 * (uint64_t)m + 8 * (n + 1) + 2 * mem;
    ck_assert_msg(probe.peak <= limit, "%d threads: peak %llu bytes > %llu", threads,
                  (unsigned long long)probe.peak, (unsigned long long)limit);
    size_t ol, al;
    uint8_t *o = (uint8_t *)tu_read_file(op, &ol), *a = (uint8_t *)tu_read_file(ap, &al);
    ck_assert_uint_eq(ol, (n + 1) * 8);
    ck_assert_uint_eq(al, (size_t)m * 8);
    uint64_t sum_out = 0;
    for (uint64_t v = 0; v < n; v++) {
      uint64_t b, e;
      memcpy(&b, o + 8 * v, 8);
      memcpy(&e, o + 8 * (v + 1), 8);
      for (uint64_t j = b; j < e && e <= m; j++) {
        uint64_t nbr;
        float w;
        exo_adj_decode(a + 8 * j, 0, &nbr, &w);
        sum_out += v * 1000003 + nbr;
      }
    }
    ck_assert_uint_eq(sum_out, sum_in);
    free(o);
    free(a);
    free(op);
    free(ap);
    tu_rmdir(dir);
    free(dir);
  }
}
END_TEST
#endif

/* Failures with several ranges: an interrupt while the split keys are
 * searched, an interrupt while the ranges merge (from the caller's thread,
 * seen by the workers), and a bad key in the last range (a worker's error
 * reaches the caller with its message): EXO_EINTR / EXO_EINTERNAL, no file
 * left behind. */
static void check_parallel_failure(int mode) {
  char *dir = tu_mkdtemp();
  char *op = tu_path(dir, "o"), *ap = tu_path(dir, "a");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  cb_state cbs;
  memset(&cbs, 0, sizeof cbs);
  cbs.fire_stage = mode == 1 ? EXO_STAGE_CSR : -1;
  ctx.cb.user = &cbs;
  ctx.cb.progress = on_progress;
  ctx.cb.interrupted = on_interrupt;
  exo_sort_options opt = {dir, 1 << 20, 0, 100000, 0, 0, 0, EXO_COMBINE_KEEP, 2};
  exo_sorter *s = NULL;
  ck_assert_int_eq(exo_sorter_create(&s, &opt, &ctx), EXO_OK);
  exo_rng rng;
  exo_rng_seed(&rng, 5);
  const uint32_t m = mode == 1 ? 2000000 : 300000;
  exo_status rc = EXO_OK;
  for (uint32_t i = 0; i < m && rc == EXO_OK; i++)
    rc = exo_sorter_add(s, exo_rng_below(&rng, 1000), i, 1.0f, &ctx);
  if (mode == 2) rc = exo_sorter_add(s, 5000, 1, 1.0f, &ctx); /* key beyond the nodes */
  ck_assert_int_eq(rc, EXO_OK);
  if (mode == 0) cbs.polls_left = 1; /* the first poll: in the split search */
  exo_status want = mode == 2 ? EXO_EINTERNAL : EXO_EINTR;
  ck_assert_int_eq(exo_sorter_finish_csr(s, 1000, op, ap, 0, &ctx, NULL), want);
  ck_assert_int_eq(ctx.err.code, want);
  if (mode == 2) ck_assert_ptr_nonnull(strstr(ctx.err.msg, "not below the node count"));
  if (mode == 1) ck_assert_uint_lt(cbs.last_done[EXO_STAGE_CSR], m);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  exo_sorter_free(s);
  free(op);
  free(ap);
  tu_rmdir(dir);
  free(dir);
}

START_TEST(parallel_merge_failures_clean_up) {
  check_parallel_failure(0);
  check_parallel_failure(1);
  check_parallel_failure(2);
}
END_TEST

/* 5e6 arcs with 8 MiB of memory and 2 threads: checked by per-node counts, order within
 * each node (nbr, then input position through the weight) and a checksum. */
START_TEST(large_5e6_records_8mib) {
  const uint64_t n = 200000;
  /* sanitized builds: 2.5e6 records in 4 MiB, still more runs than one
   * merge takes */
  const uint32_t m = TU_SAN(5000000, 2500000);
  char *dir = tu_mkdtemp();
  char *op = tu_path(dir, "o"), *ap = tu_path(dir, "a");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_sort_options opt = {dir, TU_SAN(8, 4) << 20, 0, 0, 0, 0, 0, EXO_COMBINE_KEEP, 2};
  exo_sorter *s = NULL;
  uint64_t *deg = calloc(n, sizeof *deg);
  uint64_t sum_in = 0;
  double t0 = now_sec();
  ck_assert_int_eq(exo_sorter_create(&s, &opt, &ctx), EXO_OK);
  exo_rng rng;
  exo_rng_seed(&rng, 2024);
  exo_status rc = EXO_OK;
  for (uint32_t i = 0; i < m && rc == EXO_OK; i++) {
    uint64_t key = exo_rng_below(&rng, n), nbr = exo_rng_below(&rng, 1000);
    deg[key]++;
    sum_in += key * 1000003 + nbr * 7 + i;
    rc = exo_sorter_add(s, key, nbr, (float)i, &ctx);
  }
  ck_assert_int_eq(rc, EXO_OK);
  exo_sort_stats st;
  ck_assert_int_eq(exo_sorter_finish_csr(s, n, op, ap, 0, &ctx, &st), EXO_OK);
  exo_sorter_free(s);
  double secs = now_sec() - t0;
  fprintf(stderr, "sort: %u records, %u MiB: %.2f s (%llu runs, fan-in %u, %u passes, peak disk %.1f MB)\n",
          (unsigned)m, (unsigned)TU_SAN(8, 4), secs, (unsigned long long)st.runs, st.fan_in,
          st.merge_passes, st.peak_disk / 1e6);
  ck_assert_int_eq(tu_count_entries(dir), 2);
  ck_assert_uint_eq(st.records, m);
  ck_assert_uint_gt(st.runs, 7);
  ck_assert_uint_ge(st.merge_passes, 2);

  size_t ol, al;
  uint8_t *o = (uint8_t *)tu_read_file(op, &ol), *a = (uint8_t *)tu_read_file(ap, &al);
  ck_assert_uint_eq(ol, (n + 1) * 8);
  ck_assert_uint_eq(al, (size_t)m * 8);
  uint64_t sum_out = 0, first_off = 1, bad_deg = 0, bad_order = 0;
  memcpy(&first_off, o, 8);
  ck_assert_uint_eq(first_off, 0);
  for (uint64_t v = 0; v < n; v++) {
    uint64_t b, e;
    memcpy(&b, o + 8 * v, 8);
    memcpy(&e, o + 8 * (v + 1), 8);
    if (e < b || e > m || e - b != deg[v]) {
      bad_deg++;
      continue;
    }
    uint64_t pn = 0;
    float pw = -1.0f;
    for (uint64_t j = b; j < e; j++) {
      uint64_t nbr;
      float w;
      exo_adj_decode(a + 8 * j, 0, &nbr, &w);
      if (!(j == b || nbr > pn || (nbr == pn && w > pw))) bad_order++;
      pn = nbr;
      pw = w;
      sum_out += v * 1000003 + nbr * 7 + (uint64_t)w;
    }
  }
  ck_assert_uint_eq(bad_deg, 0);
  ck_assert_uint_eq(bad_order, 0);
  ck_assert_uint_eq(sum_out, sum_in);
  free(o);
  free(a);
  free(deg);
  free(op);
  free(ap);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Arcs with many repeated (key, nbr) pairs of both signs: weights are small
 * integers (sums stay exact) with signs mixed in input order. */
static tarc *repeated_arcs(size_t m, uint64_t n, uint64_t seed) {
  exo_rng rng;
  exo_rng_seed(&rng, seed);
  tarc *a = malloc((m + 1) * sizeof *a);
  for (size_t i = 0; i < m; i++) {
    a[i].key = exo_rng_below(&rng, n);
    a[i].nbr = exo_rng_below(&rng, 6);
    a[i].w = (float)(1 + exo_rng_below(&rng, 9)) * (exo_rng_below(&rng, 3) == 0 ? -1.0f : 1.0f);
    a[i].idx = (uint32_t)i;
  }
  return a;
}

START_TEST(combine_by_hand) {
  /* key 1: nbr 2 as +1, -4, +3, -2 (mixed signs, negative first after the
   * first positive), nbr 0 as -5 then +7; key 0: nbr 1 alone */
  tarc a[] = {{1, 2, 1.0f, 0}, {1, 2, -4.0f, 1}, {1, 0, -5.0f, 2}, {0, 1, 6.0f, 3},
              {1, 2, 3.0f, 4}, {1, 0, 7.0f, 5}, {1, 2, -2.0f, 6}};
  const size_t m = sizeof a / sizeof a[0];
  const exo_combine rules[] = {EXO_COMBINE_KEEP, EXO_COMBINE_SUM, EXO_COMBINE_MAX};
  /* expected adjacency of node 1 for each rule (node 0: {1, 6}) */
  const float want_w[3][6] = {{-5, 7, 1, -4, 3, -2}, {-5, 7, 4, -6, 0, 0}, {-5, 7, 3, -4, 0, 0}};
  const uint64_t want_nbr[3][6] = {{0, 0, 2, 2, 2, 2}, {0, 0, 2, 2, 0, 0}, {0, 0, 2, 2, 0, 0}};
  const size_t want_n[3] = {6, 4, 4};
  for (int r = 0; r < 3; r++) {
    for (uint64_t rr = 0; rr <= 2; rr++) { /* one run in memory; runs of 1 and 2 */
      sort_case sc = knob_case(rr, rr ? 2 : 0, 2);
      sc.opt.combine = rules[r];
      exo_sort_stats st = run_case(&sc, a, m);
      ck_assert_uint_eq(st.arcs, 1 + want_n[r]);
      ck_assert_uint_eq(st.arcs_positive, r == 0 ? 4 : 3);
    }
    /* and read the CSR directly, independently of the reference fold */
    char *dir = tu_mkdtemp();
    char *op = tu_path(dir, "o"), *ap = tu_path(dir, "a");
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_sort_options opt = {0};
    opt.tmpdir = dir;
    opt.memory_limit = 1 << 20;
    opt.run_records = 2;
    opt.fan_in = 2;
    opt.combine = rules[r];
    exo_sorter *s = NULL;
    ck_assert_int_eq(exo_sorter_create(&s, &opt, &ctx), EXO_OK);
    for (size_t i = 0; i < m; i++)
      ck_assert_int_eq(exo_sorter_add(s, a[i].key, a[i].nbr, a[i].w, &ctx), EXO_OK);
    exo_sort_stats st;
    ck_assert_int_eq(exo_sorter_finish_csr(s, 2, op, ap, 0, &ctx, &st), EXO_OK);
    exo_sorter_free(s);
    size_t ol, al;
    char *o = tu_read_file(op, &ol), *adj = tu_read_file(ap, &al);
    ck_assert_uint_eq(ol, 24);
    ck_assert_uint_eq(al, 8 * (1 + want_n[r]));
    uint64_t off[3];
    memcpy(off, o, 24);
    ck_assert_uint_eq(off[0], 0);
    ck_assert_uint_eq(off[1], 1);
    ck_assert_uint_eq(off[2], 1 + want_n[r]);
    uint64_t nbr;
    float w;
    exo_adj_decode((const uint8_t *)adj, 0, &nbr, &w);
    ck_assert_uint_eq(nbr, 1);
    ck_assert(w == 6.0f);
    for (size_t i = 0; i < want_n[r]; i++) {
      exo_adj_decode((const uint8_t *)adj + 8 * (i + 1), 0, &nbr, &w);
      ck_assert_uint_eq(nbr, want_nbr[r][i]);
      ck_assert_msg(w == want_w[r][i], "rule %d entry %zu: %g, want %g", r, i, (double)w,
                    (double)want_w[r][i]);
    }
    free(o);
    free(adj);
    free(op);
    free(ap);
    tu_rmdir(dir);
    free(dir);
  }
}
END_TEST

START_TEST(combine_many_runs_and_widths) {
  const size_t m = 20000;
  tarc *a = repeated_arcs(m, 300, 11);
  const exo_combine rules[] = {EXO_COMBINE_SUM, EXO_COMBINE_MAX, EXO_COMBINE_KEEP};
  for (int r = 0; r < 3; r++) {
    /* many runs, several passes: equal pairs come from different runs */
    sort_case sc = knob_case(97, 3, 300);
    sc.opt.combine = rules[r];
    exo_sort_stats st = run_case(&sc, a, m);
    ck_assert_uint_ge(st.merge_passes, 3);
    if (rules[r] != EXO_COMBINE_KEEP) ck_assert_uint_le(st.arcs, 300 * 6 * 2);
    /* runs on disk plus the buffer in memory, one final merge */
    sc = knob_case(3000, 0, 300);
    sc.opt.combine = rules[r];
    run_case(&sc, a, m);
    /* everything in memory */
    sc = knob_case(0, 0, 300);
    sc.opt.combine = rules[r];
    run_case(&sc, a, m);
    /* narrow then wide runs, wide CSR */
    sc = knob_case(97, 4, 300);
    sc.opt.combine = rules[r];
    sc.set_wide_at = m / 3;
    sc.csr_wide = 1;
    run_case(&sc, a, m);
    /* background runs */
    sc = knob_case(0, 0, 300);
    sc.opt.memory_limit = 64 << 10;
    sc.opt.background = 1;
    sc.opt.combine = rules[r];
    st = run_case(&sc, a, m);
    ck_assert_uint_gt(st.runs, 2);
  }
  free(a);
}
END_TEST

START_TEST(combine_rule_checked) {
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_sort_options opt = {0};
  opt.tmpdir = dir;
  opt.memory_limit = 1 << 20;
  opt.combine = (exo_combine)7;
  exo_sorter *s = NULL;
  ck_assert_int_eq(exo_sorter_create(&s, &opt, &ctx), EXO_EARG);
  ck_assert_ptr_null(s);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "combine"));
  tu_rmdir(dir);
  free(dir);
}
END_TEST

Suite *sort_suite(void) {
  Suite *s = suite_create("sort");
  TCase *tc = tcase_create("radix");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, radix_matches_stable_reference);
  tcase_add_test(tc, radix_threads_match_stable_reference);
  tcase_add_test(tc, radix_two_records_swap_and_keep);
  suite_add_tcase(s, tc);
  tc = tcase_create("external");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, many_runs_fan_in_2);
  tcase_add_test(tc, many_runs_fan_in_3);
  tcase_add_test(tc, runs_of_1000_fan_in_2_and_3);
  tcase_add_test(tc, memory_limit_sizing);
  tcase_add_test(tc, run_memory_shrinks_and_grows);
  tcase_add_test(tc, background_runs);
  tcase_add_test(tc, mixed_width_runs);
  tcase_add_test(tc, add_records_same_as_add);
  tcase_add_test(tc, background_runs_written_in_slices);
  tcase_add_test(tc, zero_records_and_empty_nodes);
  tcase_add_test(tc, interrupt_mid_merge_cleans_up);
  tcase_add_test(tc, interrupt_during_run_generation);
  tcase_add_test(tc, errors_leave_no_run_files);
  tcase_add_test(tc, parallel_merge_same_bytes);
  tcase_add_test(tc, last_buffer_sorted_on_threads);
  tcase_add_test(tc, intermediate_passes_threads);
  tcase_add_test(tc, parallel_merge_failures_clean_up);
  tcase_add_test(tc, parallel_merge_combine);
  tcase_add_test(tc, combine_by_hand);
  tcase_add_test(tc, combine_many_runs_and_widths);
  tcase_add_test(tc, combine_rule_checked);
  suite_add_tcase(s, tc);
  tc = tcase_create("large");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, large_5e6_records_8mib);
#if EXO_PUNCH_SUPPORTED
  tcase_add_test(tc, parallel_merge_punches_runs);
#endif
  suite_add_tcase(s, tc);
  return s;
}
