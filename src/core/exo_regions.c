/* exo_regions.c: the region rule (exo_regions.h). */
#include "exo_regions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exo_budget.h"
#include "exo_platform.h"
#include "exo_status.h"
#include "exo_record.h"
#include "exo_sort.h"
#include "exo_sum.h"

exo_status exo_regions_hit(exo_writer *w, uint64_t a, uint64_t b, float wt, const uint32_t iv[4],
                           exo_ctx *ctx) {
  uint8_t *p = exo_writer_reserve(w, EXO_REGIONS_HIT_BYTES, ctx);
  if (!p) return ctx->err.code ? ctx->err.code : EXO_EIO;
  memcpy(p, &a, 8);
  memcpy(p + 8, &b, 8);
  memcpy(p + 16, iv, 16);
  memcpy(p + 32, &wt, 4);
  exo_writer_commit(w, EXO_REGIONS_HIT_BYTES);
  return EXO_OK;
}

/* One interval of the protein being read. */
typedef struct interval {
  double st, en; /* st <= en */
  double w;
  uint64_t nbr;
  uint32_t reg; /* region, 1-based */
} interval;

/* The intervals in order of start (then of end, largest first; then of
 * their place in the protein's list, which is in partner order). */
typedef struct by_pos {
  double st, en;
  size_t i;
} by_pos;

static int by_start(const void *x, const void *y) {
  const by_pos *a = x, *b = y;
  if (a->st != b->st) return a->st < b->st ? -1 : 1;
  if (a->en != b->en) return a->en > b->en ? -1 : 1;
  return (a->i > b->i) - (a->i < b->i);
}

/* Sort distinct 64-bit keys ascending (introsort: quicksort, heapsort past
 * a depth, insertion sort on short ranges; distinct keys: one order). */
static void sift(uint64_t *a, size_t n, size_t i) {
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) return;
    if (c + 1 < n && a[c + 1] > a[c]) c++;
    if (a[i] >= a[c]) return;
    const uint64_t t = a[i];
    a[i] = a[c];
    a[c] = t;
    i = c;
  }
}

static void sort_keys(uint64_t *a, size_t n, unsigned depth) {
  while (n > 16) {
    if (depth-- == 0) { /* heapsort */
      for (size_t i = n / 2; i-- > 0;) sift(a, n, i);
      for (size_t e = n; e-- > 1;) {
        const uint64_t t = a[0];
        a[0] = a[e];
        a[e] = t;
        sift(a, e, 0);
      }
      return;
    }
    /* median of three as pivot */
    uint64_t x = a[0], y = a[n / 2], z = a[n - 1];
    const uint64_t p = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
    size_t i = 0, j = n - 1;
    for (;;) {
      while (a[i] < p) i++;
      while (a[j] > p) j--;
      if (i >= j) break;
      const uint64_t t = a[i];
      a[i] = a[j];
      a[j] = t;
      i++;
      j--;
    }
    /* [0, j] <= p <= [j + 1, n): recurse on the smaller part */
    if (j + 1 < n - (j + 1)) {
      sort_keys(a, j + 1, depth);
      a += j + 1;
      n -= j + 1;
    } else {
      sort_keys(a + j + 1, n - (j + 1), depth);
      n = j + 1;
    }
  }
  for (size_t i = 1; i < n; i++) {
    const uint64_t t = a[i];
    size_t j = i;
    for (; j > 0 && a[j - 1] > t; j--) a[j] = a[j - 1];
    a[j] = t;
  }
}

/* One record of the intervals' CSR as read. */
typedef struct raw_entry {
  uint64_t x;
  float w;
} raw_entry;

/* Read n entries of node v (12 bytes each) from the reader's buffer in
 * batches; with terms, their exo_sum.h terms added (*pos: the entries
 * before them in the file). */
static exo_status read_entries(exo_reader *ar, size_t n, raw_entry *out, uint64_t *terms,
                               uint64_t *pos, const char *path, uint64_t v, exo_ctx *ctx) {
  const size_t rsz = exo_adj_size(1), most = 4096;
  for (size_t i = 0; i < n;) {
    const size_t want = n - i < most ? n - i : most;
    const uint8_t *p;
    size_t avail = 0;
    exo_status st = exo_reader_peek(ar, want * rsz, &p, &avail, ctx);
    if (st) return st;
    const size_t got = avail / rsz < want ? avail / rsz : want;
    if (got == 0)
      return EXO_FAIL(ctx, EXO_EINPUT, "interval file '%s' ends inside node %llu", path,
                      (unsigned long long)v);
    for (size_t j = 0; j < got; j++, i++) exo_adj_decode(p + j * rsz, 1, &out[i].x, &out[i].w);
    if (terms) {
      *terms += exo_sum_words(p, got * rsz / 4, *pos * (rsz / 4));
      *pos += got;
    }
    exo_reader_skip_buffered(ar, got * rsz);
  }
  return EXO_OK;
}

/* A record of node v that cannot be: with a kept base, the kept intervals
 * file is corrupt (its checksum is only known once it is read whole). */
static exo_status bad_record(const exo_regions_ext *ext, const char *iadj, uint64_t v,
                             exo_ctx *ctx) {
  if (ext && ext->base)
    return EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's intervals file '%s' is corrupt (node %llu "
                    "has a record out of range)", ext->base->adj_path, (unsigned long long)v);
  return EXO_FAIL(ctx, EXO_EINTERNAL, "interval file '%s': node %llu has a record out of range",
                  iadj, (unsigned long long)v);
}

typedef struct scratch {
  interval *iv;
  size_t cap;
  by_pos *ord;
  size_t ordcap;
  uint64_t *keys; /* packed intervals: the order's keys (ordcap of them) */
  struct raw_entry *raw; /* a protein's records as read (2 x its count) */
  size_t rawcap;
  double *sum;
  size_t sumcap;
} scratch;

/* Regions of protein v's k intervals (iv[0..k), grouped by partner); the
 * pairs v drops go to the sorter, both directions. *split: v has 2 regions
 * or more. */
static exo_status protein(scratch *sc, size_t k, uint64_t v, exo_sorter *drops, int packed,
                          unsigned shift, int *split, exo_ctx *ctx) {
  *split = 0;
  if (k < 2) return EXO_OK;
  interval *iv = sc->iv;
  if (k > sc->ordcap) {
    by_pos *no = realloc(sc->ord, k * sizeof *no);
    if (!no) return exo_fail_oom(ctx, "a protein's hits", (uint64_t)k * sizeof *no);
    sc->ord = no;
    uint64_t *nk = realloc(sc->keys, k * sizeof *nk);
    if (!nk) return exo_fail_oom(ctx, "a protein's hits", (uint64_t)k * sizeof *nk);
    sc->keys = nk;
    sc->ordcap = k;
  }
  by_pos *ord = sc->ord;
  if (packed && (uint64_t)k <= UINT32_MAX) {
    /* the same order as by_start from integer keys: start (16 bits), end
     * reversed (16 bits), the place (32 bits) */
    uint64_t *key = sc->keys;
    unsigned depth = 0;
    for (size_t m = k; m; m >>= 1) depth += 2;
    for (size_t i = 0; i < k; i++)
      key[i] = (uint64_t)((uint32_t)iv[i].st >> shift) << 48 |
               (uint64_t)(0xFFFFu - ((uint32_t)iv[i].en >> shift)) << 32 | (uint64_t)i;
    sort_keys(key, k, depth);
    for (size_t j = 0; j < k; j++) {
      const size_t i = (size_t)(key[j] & 0xFFFFFFFFu);
      ord[j].st = iv[i].st;
      ord[j].en = iv[i].en;
      ord[j].i = i;
    }
  } else {
    for (size_t i = 0; i < k; i++) {
      ord[i].st = iv[i].st;
      ord[i].en = iv[i].en;
      ord[i].i = i;
    }
    qsort(ord, k, sizeof *ord, by_start);
  }
  uint32_t reg = 0;
  double far = 0.0;
  for (size_t j = 0; j < k; j++) {
    const by_pos *o = &ord[j];
    if (j == 0 || o->st > far - (o->en - o->st + 1.0) * EXO_REGIONS_OVERLAP) reg++;
    if (j == 0 || o->en > far) far = o->en;
    iv[o->i].reg = reg;
  }
  if (reg < 2) return EXO_OK;
  *split = 1;
  if (reg + 1 > sc->sumcap) {
    double *ns = realloc(sc->sum, (size_t)(reg + 1) * sizeof *ns);
    if (!ns) return exo_fail_oom(ctx, "a protein's regions", (uint64_t)(reg + 1) * 8);
    sc->sum = ns;
    sc->sumcap = reg + 1;
  }
  for (uint32_t r = 0; r <= reg; r++) sc->sum[r] = 0.0;
  for (size_t j = 0; j < k; j++) sc->sum[iv[ord[j].i].reg] += iv[ord[j].i].w;
  uint32_t best = 1;
  for (uint32_t r = 2; r <= reg; r++)
    if (sc->sum[r] > sc->sum[best]) best = r;
  /* a partner is kept when any of its intervals lies in the best region */
  for (size_t i = 0; i < k;) {
    size_t j = i;
    int keep = 0;
    for (; j < k && iv[j].nbr == iv[i].nbr; j++) keep |= iv[j].reg == best;
    if (!keep) {
      exo_status st = exo_sorter_add(drops, v, iv[i].nbr, 1.0f, ctx);
      if (!st) st = exo_sorter_add(drops, iv[i].nbr, v, 1.0f, ctx);
      if (st) return st;
    }
    i = j;
  }
  return EXO_OK;
}

static exo_status new_sorter(exo_sorter **s, const char *tmpdir, uint64_t memory_limit,
                             int wide, exo_combine combine, int threads, exo_ctx *ctx) {
  exo_sort_options so;
  memset(&so, 0, sizeof so);
  so.tmpdir = tmpdir;
  so.memory_limit = memory_limit;
  so.wide = wide;
  so.combine = combine;
  so.threads = threads;
  so.background = threads > 1; /* a spare core sorts and writes the runs */
  return exo_sorter_create(s, &so, ctx);
}

/* The hit file into the intervals' CSR (nodes by protein; per partner, in
 * input order, the records start, end, weight of each hit). */
/* Narrow graphs (ids below 2^32) use one wide record per hit end instead
 * of three: nbr = partner << 32 | start << 16 | end, the coordinates
 * shifted right by `shift` so that the largest fits 16 bits (0 for any
 * protein shorter than 65,536), w = the hit's weight. */
static uint64_t pack_iv(uint64_t partner, uint32_t x, uint32_t y, unsigned shift) {
  const uint32_t lo = (x < y ? x : y) >> shift, hi = (x < y ? y : x) >> shift;
  return partner << 32 | (uint64_t)lo << 16 | (uint64_t)hi;
}

/* One hit file into the sorter s (hits added to *hits; punch: release what is read). */
static exo_status add_hit_file(exo_sorter *s, const exo_csr_files *csr, const char *hits_path,
                               int punch, unsigned shift, uint64_t *hits, exo_ctx *ctx) {
  exo_reader r;
  memset(&r, 0, sizeof r);
  r.fd = -1;
  const int packed = !csr->wide;
  exo_status st = exo_reader_open(&r, hits_path, EXO_IO_DEFAULT_BUF, 0, UINT64_MAX, punch, ctx);
  uint64_t n = 0;
  /* the records of up to BATCH hits, handed to the sorter at once */
  enum { BATCH = 2048 };
  const int wide = 1;
  const size_t rs = exo_rec_size(wide);
  uint8_t *recs = malloc(BATCH * 6 * rs);
  size_t nrec = 0;
  if (!st && !recs) st = exo_fail_oom(ctx, "the interval records", BATCH * 6 * rs);
  while (!st && exo_reader_remaining(&r) > 0) {
    uint8_t h[EXO_REGIONS_HIT_BYTES];
    st = exo_reader_read(&r, h, sizeof h, ctx);
    if (st) break;
    uint64_t a, b;
    uint32_t iv[4];
    float w;
    memcpy(&a, h, 8);
    memcpy(&b, h + 8, 8);
    memcpy(iv, h + 16, 16);
    memcpy(&w, h + 32, 4);
    if (a >= csr->n || b >= csr->n) {
      st = EXO_FAIL(ctx, EXO_EINTERNAL, "hit file '%s': node id out of range", hits_path);
      break;
    }
    const uint64_t key[2] = {a, b}, nbr[2] = {b, a};
    for (int e = 0; e < 2; e++) {
      const uint32_t x = iv[2 * e], y = iv[2 * e + 1];
      if (packed) {
        exo_rec_encode(recs + rs * nrec++, wide, key[e], pack_iv(nbr[e], x, y, shift), w);
        continue;
      }
      exo_rec_encode(recs + rs * nrec++, wide, key[e], nbr[e], (float)(x < y ? x : y));
      exo_rec_encode(recs + rs * nrec++, wide, key[e], nbr[e], (float)(x < y ? y : x));
      exo_rec_encode(recs + rs * nrec++, wide, key[e], nbr[e], w);
    }
    n++;
    if (nrec == BATCH * 6) {
      size_t done = 0;
      st = exo_sorter_add_records(s, recs, nrec, wide, &done, ctx);
      nrec = 0;
    }
  }
  if (!st && nrec) {
    size_t done = 0;
    st = exo_sorter_add_records(s, recs, nrec, wide, &done, ctx);
  }
  free(recs);
  exo_reader_close(&r);
  *hits += n;
  return st;
}

/* The hit files (ext->old_hits, then hits_path, which is deleted) into the
 * intervals' CSR icsr, merged with ext->base when given; icsr->m set. */
static exo_status sort_intervals(const exo_csr_files *csr, const char *hits_path,
                                 exo_regions_ext *ext, int no_base, const char *tmpdir,
                                 uint64_t memory_limit, int threads, unsigned shift,
                                 exo_csr_files *icsr, uint64_t *hits, exo_ctx *ctx) {
  exo_sorter *s = NULL;
  *hits = 0;
  exo_status st = new_sorter(&s, tmpdir, memory_limit, 1, EXO_COMBINE_KEEP, threads, ctx);
  if (!st && ext && ext->base) {
    if (!no_base) st = exo_sorter_set_base_values(s, ext->base, ctx);
    *hits += ext->base_hits;
  }
  /* the kept hits are read, never punched; the run's own hit file is */
  if (!st && ext && ext->old_hits) st = add_hit_file(s, csr, ext->old_hits, 0, shift, hits, ctx);
  if (!st) st = add_hit_file(s, csr, hits_path, 1, shift, hits, ctx);
  exo_remove(hits_path);
  exo_sort_stats ss;
  memset(&ss, 0, sizeof ss);
  if (!st) st = exo_sorter_finish_csr(s, csr->n, icsr->offsets_path, icsr->adj_path, 1, ctx,
                                      &ss);
  if (!st && ext && ext->base && !no_base) ext->base_terms = exo_sorter_base_terms(s);
  exo_sorter_free(s);
  icsr->m = ss.arcs;
  return st;
}

unsigned exo_regions_shift(uint32_t max_coord) {
  unsigned shift = 0;
  while ((max_coord >> shift) > 0xFFFFu) shift++;
  return shift;
}

exo_status exo_regions_apply(exo_csr_files *csr, const char *hits_path, uint32_t max_coord,
                             exo_regions_ext *ext, const char *tmpdir, uint64_t memory_limit,
                             int threads, exo_regions_stats *out, exo_ctx *ctx) {
  exo_regions_stats res;
  memset(&res, 0, sizeof res);
  char *ioff = exo_path_join(tmpdir, "regions.offsets");
  char *iadj = exo_path_join(tmpdir, "regions.adjacency");
  char *doff = exo_path_join(tmpdir, "dropped.offsets");
  char *dadj = exo_path_join(tmpdir, "dropped.adjacency");
  exo_sorter *drops = NULL;
  scratch sc;
  memset(&sc, 0, sizeof sc);
  exo_status st = EXO_OK;
  if (!ioff || !iadj || !doff || !dadj) {
    exo_remove(hits_path);
    st = exo_fail_oom(ctx, "the file names", 256);
    goto done;
  }
  exo_csr_files icsr = {ioff, iadj, csr->n, 0, 1};
  const int packed = !csr->wide;
  const uint64_t per = packed ? 1 : 3; /* records per hit end */
  const unsigned shift = exo_regions_shift(max_coord);
  /* the kept intervals merged protein by protein below, unless they must be
   * written out merged (keep_intervals: the sort merges them) */
  const int two_src = ext && ext->base && !ext->keep_intervals;
  double t0 = exo_now_seconds();
  st = sort_intervals(csr, hits_path, ext, two_src, tmpdir, memory_limit, threads, shift, &icsr,
                      &res.hits, ctx);
  if (st) goto done;
  if (two_src && ext->base->m != 2 * per * ext->base_hits) {
    st = EXO_FAIL(ctx, EXO_EINPUT, "interval file '%s': %llu records, not %llu",
                  ext->base->adj_path, (unsigned long long)ext->base->m,
                  (unsigned long long)(2 * per * ext->base_hits));
    goto done;
  }
  if (icsr.m + (two_src ? ext->base->m : 0) != 2 * per * res.hits) {
    st = EXO_FAIL(ctx, EXO_EINTERNAL, "interval file '%s': %llu records, not %llu", iadj,
                  (unsigned long long)icsr.m, (unsigned long long)(2 * per * res.hits));
    goto done;
  }
  exo_detail(ctx, "regions: %llu hits sorted by protein in %.2f s", (unsigned long long)res.hits,
             exo_now_seconds() - t0);
  t0 = exo_now_seconds();
  /* the intervals protein by protein; the dropped pairs into a sort of
   * their share (exo_budget.h; the readers take 2 MiB) */
  st = new_sorter(&drops, tmpdir, exo_budget_share(memory_limit, EXO_SHARE_REGIONS_SORT, 1),
                  csr->wide, EXO_COMBINE_MAX, threads, ctx);
  if (st) goto done;
  /* with a base not merged by the sort (two_src), each protein's kept
   * entries and new ones merged here, as the sort's base would: by record
   * value, the kept first on equal values */
  exo_csr_stream cs, bs;
  memset(&bs, 0, sizeof bs);
  bs.orr.fd = bs.ar.fd = -1;
  uint64_t bpos = 0, bterms = 0;
  int bs_open = 0;
  st = exo_csr_stream_open(&cs, &icsr, EXO_IO_DEFAULT_BUF, ctx);
  if (!st && two_src) {
    st = exo_csr_stream_open(&bs, ext->base, EXO_IO_DEFAULT_BUF, ctx);
    bs_open = 1;
  }
  for (uint64_t v = 0; v < csr->n && !st; v++) {
    uint64_t kn = 0, kb = 0;
    if ((st = exo_csr_stream_node(&cs, v, &kn, ctx))) break;
    if (two_src && v < ext->base->n && (st = exo_csr_stream_node(&bs, v, &kb, ctx))) break;
    const uint64_t k = kn + kb;
    if (k % per) {
      st = EXO_FAIL(ctx, EXO_EINTERNAL, "interval file '%s': node %llu has %llu records",
                    iadj, (unsigned long long)v, (unsigned long long)k);
      break;
    }
    if (2 * k > sc.rawcap) {
      size_t ncap = 2 * k > 2 * sc.rawcap ? (size_t)(2 * k) : 2 * sc.rawcap;
      raw_entry *nr = realloc(sc.raw, ncap * sizeof *nr);
      if (!nr) {
        st = exo_fail_oom(ctx, "a protein's hits", (uint64_t)ncap * sizeof *nr);
        break;
      }
      sc.raw = nr;
      sc.rawcap = ncap;
    }
    /* the kept entries at raw[0, kb), the new ones at raw[kb, k) */
    if (kb) st = read_entries(&bs.ar, (size_t)kb, sc.raw, &bterms, &bpos, ext->base->adj_path,
                              v, ctx);
    if (!st && kn) st = read_entries(&cs.ar, (size_t)kn, sc.raw + kb, NULL, NULL, iadj, v, ctx);
    if (st) break;
    const raw_entry *re = sc.raw;
    if (kb && kn) { /* merged into raw[k, 2k) */
      raw_entry *m = sc.raw + k;
      size_t i = 0, j = (size_t)kb, o = 0;
      while (i < kb && j < k) m[o++] = sc.raw[i].x <= sc.raw[j].x ? sc.raw[i++] : sc.raw[j++];
      while (i < kb) m[o++] = sc.raw[i++];
      while (j < k) m[o++] = sc.raw[j++];
      re = m;
    }
    const size_t ni = (size_t)(k / per);
    if (ni > sc.cap) {
      size_t ncap = ni > 2 * sc.cap ? ni : 2 * sc.cap;
      interval *nb = realloc(sc.iv, ncap * sizeof *nb);
      if (!nb) {
        st = exo_fail_oom(ctx, "a protein's hits", (uint64_t)ncap * sizeof *nb);
        break;
      }
      sc.iv = nb;
      sc.cap = ncap;
    }
    for (size_t i = 0; i < ni && packed; i++) {
      const uint64_t x = re[i].x;
      if ((x >> 32) >= csr->n) {
        st = bad_record(ext, iadj, v, ctx);
        break;
      }
      sc.iv[i].st = (double)(((x >> 16) & 0xFFFFu) << shift);
      sc.iv[i].en = (double)((x & 0xFFFFu) << shift);
      sc.iv[i].w = re[i].w;
      sc.iv[i].nbr = x >> 32;
      sc.iv[i].reg = 0;
    }
    for (size_t i = 0; i < ni && !packed; i++) {
      const raw_entry *t = re + 3 * i;
      if (t[1].x != t[0].x || t[2].x != t[0].x || t[0].x >= csr->n) {
        st = bad_record(ext, iadj, v, ctx);
        break;
      }
      sc.iv[i].st = t[0].w;
      sc.iv[i].en = t[1].w;
      sc.iv[i].w = t[2].w;
      sc.iv[i].nbr = t[0].x;
      sc.iv[i].reg = 0;
    }
    int split = 0;
    if (!st) st = protein(&sc, ni, v, drops, packed, shift, &split, ctx);
    res.proteins_split += (uint64_t)split;
  }
  if (bs_open) {
    st = exo_csr_stream_close(&bs, st, ctx);
    if (!st) ext->base_terms = bterms;
  }
  st = exo_csr_stream_close(&cs, st, ctx);
  if (!st && ext && ext->keep_intervals) {
    ext->intervals_offsets = ioff; /* the caller's now */
    ext->intervals_adj = iadj;
    ioff = iadj = NULL;
  }
  if (ioff) exo_remove(ioff);
  if (iadj) exo_remove(iadj);
  if (st) goto done;
  exo_detail(ctx, "regions: the proteins' regions in %.2f s", exo_now_seconds() - t0);
  t0 = exo_now_seconds();
  exo_sort_stats ds;
  st = exo_sorter_finish_csr(drops, csr->n, doff, dadj, csr->wide, ctx, &ds);
  exo_sorter_free(drops);
  drops = NULL;
  if (st) goto done;
  res.pairs_dropped = ds.arcs / 2;
  if (ds.arcs) {
    exo_csr_files dcsr = {doff, dadj, csr->n, ds.arcs, csr->wide};
    st = exo_csr_remove(csr, &dcsr, EXO_IO_DEFAULT_BUF, &res.arcs_removed,
                        &res.arcs_removed_positive, ctx);
  }
  if (!st) exo_detail(ctx, "regions: dropped pairs sorted and removed in %.2f s",
                      exo_now_seconds() - t0);

done:
  exo_sorter_free(drops);
  if (ioff) exo_remove(ioff);
  if (iadj) exo_remove(iadj);
  if (doff) exo_remove(doff);
  if (dadj) exo_remove(dadj);
  free(ioff);
  free(iadj);
  free(doff);
  free(dadj);
  free(sc.iv);
  free(sc.ord);
  free(sc.keys);
  free(sc.raw);
  free(sc.sum);
  if (!st && out) *out = res;
  return st;
}

/* ---- the weak-hit rule ------------------------------------------------------ */

typedef struct weak_node {
  uint32_t deg;
  float min1, min2, med;
} weak_node;

struct exo_weak_hits {
  weak_node *nd;
};

/* The k-th smallest of w[0..n) (0-based), w reordered (quickselect). */
static float kth(float *w, size_t n, size_t k) {
  size_t lo = 0, hi = n - 1;
  while (lo < hi) {
    const float p = w[lo + (hi - lo) / 2];
    size_t i = lo, j = hi;
    while (i <= j) {
      while (w[i] < p) i++;
      while (w[j] > p) j--;
      if (i <= j) {
        const float t = w[i];
        w[i] = w[j];
        w[j] = t;
        i++;
        if (j == 0) break;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return w[k];
  }
  return w[k];
}

void exo_weak_hits_node(void *user, uint64_t v, float *w, size_t k) {
  weak_node *x = &((exo_weak_hits *)user)->nd[v];
  x->deg = k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
  if (k < EXO_WEAK_HIT_DEGREE) return;
  float m1 = w[0] < w[1] ? w[0] : w[1], m2 = w[0] < w[1] ? w[1] : w[0];
  for (size_t i = 2; i < k; i++) {
    if (w[i] < m1) {
      m2 = m1;
      m1 = w[i];
    } else if (w[i] < m2) {
      m2 = w[i];
    }
  }
  x->min1 = m1;
  x->min2 = m2;
  const float hi = kth(w, k, k / 2);
  if (k % 2) {
    x->med = hi;
  } else { /* the largest of w[0 .. k/2), all <= hi after the selection */
    float lo = w[0];
    for (size_t i = 1; i < k / 2; i++)
      if (w[i] > lo) lo = w[i];
    x->med = (float)(((double)lo + (double)hi) / 2.0);
  }
}

static float other_of(const weak_node *x, float w) { return w <= x->min1 ? x->min2 : x->min1; }

static int weak_end(const weak_node *x, float w) {
  if (x->deg < EXO_WEAK_HIT_DEGREE) return 0;
  const double o = other_of(x, w);
  return (double)w < EXO_WEAK_HIT_RATIO * o && o >= EXO_WEAK_HIT_TIGHT * (double)x->med;
}

static int keep_strong(void *user, uint64_t v, uint64_t u, float w) {
  const weak_node *nd = user;
  if (u == v) return 1;
  const float a = fabsf(w);
  return !(weak_end(&nd[v], a) && weak_end(&nd[u], a));
}

exo_status exo_weak_hits_create(uint64_t n, exo_weak_hits **out, exo_ctx *ctx) {
  *out = NULL;
  exo_weak_hits *wh = calloc(1, sizeof *wh);
  if (wh) wh->nd = calloc(n ? (size_t)n : 1, sizeof *wh->nd);
  if (!wh || !wh->nd) {
    free(wh);
    return exo_fail_oom(ctx, "the weak-hit rule's node values", n * sizeof(weak_node));
  }
  *out = wh;
  return EXO_OK;
}

exo_status exo_weak_hits_apply(exo_weak_hits *wh, exo_csr_files *csr, size_t bufsize,
                               uint64_t *removed, uint64_t *removed_positive, exo_ctx *ctx) {
  return exo_csr_filter(csr, keep_strong, wh->nd, bufsize, removed, removed_positive, ctx);
}

void exo_weak_hits_free(exo_weak_hits *wh) {
  if (!wh) return;
  free(wh->nd);
  free(wh);
}

exo_status exo_regions_weak_hits(exo_csr_files *csr, size_t bufsize, uint64_t *removed,
                                 uint64_t *removed_positive, exo_ctx *ctx) {
  *removed = *removed_positive = 0;
  if (!csr->n) return EXO_OK;
  exo_weak_hits *wh = NULL;
  exo_status st = exo_weak_hits_create(csr->n, &wh, ctx);
  if (st) return st;
  float *ws = NULL;
  size_t cap = 0;
  exo_csr_stream cs;
  st = exo_csr_stream_open(&cs, csr, bufsize, ctx);
  for (uint64_t v = 0; v < csr->n && !st; v++) {
    uint64_t arcs = 0;
    if ((st = exo_csr_stream_node(&cs, v, &arcs, ctx))) break;
    if (arcs > cap) {
      size_t ncap = (size_t)arcs > 2 * cap ? (size_t)arcs : 2 * cap;
      float *nb = realloc(ws, ncap * sizeof *nb);
      if (!nb) {
        st = exo_fail_oom(ctx, "a node's weights", (uint64_t)ncap * sizeof *nb);
        break;
      }
      ws = nb;
      cap = ncap;
    }
    size_t k = 0;
    for (uint64_t i = 0; i < arcs && !st; i++) {
      uint64_t u;
      float w;
      if ((st = exo_csr_stream_arc(&cs, v, &u, &w, ctx))) break;
      if (u != v) ws[k++] = fabsf(w);
    }
    if (!st) exo_weak_hits_node(wh, v, ws, k);
  }
  st = exo_csr_stream_close(&cs, st, ctx);
  free(ws);
  if (!st) st = exo_weak_hits_apply(wh, csr, bufsize, removed, removed_positive, ctx);
  exo_weak_hits_free(wh);
  return st;
}
