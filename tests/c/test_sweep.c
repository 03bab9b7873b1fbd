/* test_sweep.c: the sweep engine (exo_sweep.h) and the CSR windows
 * (exo_csr.h) that label propagation, Leiden, refine and dist share. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_csr.h"
#include "exo_io.h"
#include "exo_record.h"
#include "exo_sweep.h"
#include "testutil.h"

/* The block order is a permutation, the same for the same seed. */
START_TEST(test_order_is_seeded_permutation) {
  uint32_t a[EXO_SWEEP_BLOCK], b[EXO_SWEEP_BLOCK];
  exo_rng r1, r2;
  exo_rng_seed(&r1, 5);
  exo_rng_seed(&r2, 5);
  exo_sweep_order(a, &r1);
  exo_sweep_order(b, &r2);
  ck_assert_mem_eq(a, b, sizeof a);
  char seen[EXO_SWEEP_BLOCK] = {0};
  int moved = 0;
  for (uint32_t i = 0; i < EXO_SWEEP_BLOCK; i++) {
    ck_assert_uint_lt(a[i], EXO_SWEEP_BLOCK);
    ck_assert(!seen[a[i]]);
    seen[a[i]] = 1;
    moved += a[i] != i;
  }
  ck_assert_int_gt(moved, EXO_SWEEP_BLOCK / 2);
}
END_TEST

typedef struct lane_x {
  exo_sweep_lane sw;
  int tag;
} lane_x;

static exo_status off_of(void *user, uint64_t node, uint64_t *off) {
  *off = ((const uint64_t *)user)[node];
  return EXO_OK;
}

/* The cut: whole blocks, every block once, in order, each lane non-empty,
 * the cut points where (i + 1) m / L entries are reached (skewed degrees). */
START_TEST(test_cut_covers_blocks) {
  const uint64_t n = 40 * EXO_SWEEP_BLOCK + 17;
  uint64_t *off = malloc((n + 1) * 8);
  off[0] = 0;
  for (uint64_t v = 0; v < n; v++) off[v + 1] = off[v] + (v < n / 4 ? 9 : 1);
  const uint64_t m = off[n];
  ck_assert_uint_eq(exo_sweep_lane_count(n, 16, 4, 0), 10);
  ck_assert_uint_eq(exo_sweep_lane_count(n, 16, 4, 3), 3);
  ck_assert_uint_eq(exo_sweep_lane_count(100, 16, 4, 0), 1);
  const uint32_t L = 10;
  lane_x lanes[10];
  memset(lanes, 0, sizeof lanes);
  ck_assert_int_eq(exo_sweep_cut(n, m, L, off_of, off, lanes, sizeof lanes[0]), EXO_OK);
  uint64_t b = 0;
  for (uint32_t i = 0; i < L; i++) {
    const exo_sweep_lane *ln = &lanes[i].sw;
    ck_assert_uint_eq(ln->blk_lo, b);
    ck_assert_uint_gt(ln->blk_hi, ln->blk_lo);
    ck_assert_uint_eq(ln->lo, ln->blk_lo * EXO_SWEEP_BLOCK);
    ck_assert_uint_eq(ln->hi, ln->blk_hi * EXO_SWEEP_BLOCK < n ? ln->blk_hi * EXO_SWEEP_BLOCK : n);
    if (i + 1 < L) { /* the first block reaching the target, or the one before is short */
      uint64_t target = m / L * (i + 1) + m % L * (i + 1) / L;
      ck_assert_uint_ge(off[ln->blk_hi * EXO_SWEEP_BLOCK], target);
      ck_assert_uint_lt(off[(ln->blk_hi - 1) * EXO_SWEEP_BLOCK], target);
    }
    b = ln->blk_hi;
  }
  ck_assert_uint_eq(b, (n + EXO_SWEEP_BLOCK - 1) / EXO_SWEEP_BLOCK);
  /* the bitmap helpers */
  uint64_t bits[2] = {0, 0};
  bits[0] |= (uint64_t)1 << 5;
  bits[1] |= (uint64_t)1 << 3; /* node 67 */
  ck_assert_uint_eq(exo_sweep_next_active(bits, 0, 128), 5);
  ck_assert_uint_eq(exo_sweep_next_active(bits, 6, 128), 67);
  ck_assert_uint_eq(exo_sweep_next_active(bits, 68, 128), 128);
  ck_assert_uint_eq(exo_sweep_last_active(bits, 0, 128), 67);
  ck_assert_uint_eq(exo_sweep_last_active(bits, 0, 67), 5);
  ck_assert_uint_eq(exo_sweep_last_active(bits, 6, 67), UINT64_MAX);
  ck_assert_uint_eq(exo_sweep_block_count(bits, 0, 100), 2);
  ck_assert_uint_eq(exo_sweep_block_count(bits, 0, 60), 1);
  free(off);
}
END_TEST

/* The block window serves every list of the file, in chunks of at most its
 * capacity, with the entries of the file (narrow and wide ids); a file of
 * the wrong size is refused naming it. */
START_TEST(test_window_reads_lists) {
  for (int wide = 0; wide <= 1; wide++) {
    tu_edge e[64];
    size_t ne = tu_add_clique(e, 0, 0, 8, 1.0f);
    ne = tu_add_clique(e, ne, 8, 4, 0.5f);
    tu_csr g;
    tu_csr_build(&g, 12, e, ne, 0, wide);
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    uint64_t *off = NULL;
    ck_assert_int_eq(exo_csr_load_offsets(&g.csr, &off, NULL, &ctx), EXO_OK);
    int fd = -1;
    ck_assert_int_eq(exo_csr_open_adj(&g.csr, &fd, &ctx), EXO_OK);
    size_t len = 0;
    char *all = tu_read_file(g.csr.adj_path, &len);
    const size_t esz = exo_adj_size(wide);
    ck_assert_uint_eq(len, g.csr.m * esz);
    uint8_t buf[5 * 12];
    exo_csr_window w = {fd, g.csr.adj_path, esz, buf, 5, 0, 0};
    for (uint64_t v = 0; v < 12; v++)
      for (uint64_t pos = off[v]; pos < off[v + 1];) {
        const uint8_t *p;
        uint64_t cnt;
        ck_assert_int_eq(exo_csr_window_get(&w, pos, off[v + 1], &p, &cnt, &ctx), EXO_OK);
        ck_assert_uint_gt(cnt, 0);
        ck_assert_uint_le(cnt, 5);
        ck_assert_mem_eq(p, all + pos * esz, cnt * esz);
        pos += cnt;
      }
    exo_close(fd);
    free(all);
    free(off);
    /* one entry short: refused, naming the file */
    exo_csr_files bad = g.csr;
    bad.m++;
    ck_assert_int_eq(exo_csr_open_adj(&bad, &fd, &ctx), EXO_EINTERNAL);
    ck_assert_int_eq(fd, -1);
    ck_assert_ptr_nonnull(strstr(ctx.err.msg, g.csr.adj_path));
    tu_csr_free(&g);
  }
}
END_TEST

/* exo_csr_selfnorm against the same normalisation done here on the edge
 * list: self(x) = x's largest self-loop weight, else its largest weight;
 * w / max(self(a), self(b)); self-loops dropped (or kept, weighing
 * w / self(x)); narrow and wide ids, undirected and directed, buffers of
 * 64 bytes and of 1 MiB give the same files. */
START_TEST(test_selfnorm) {
  /* node 5 has no self hit (its best hit stands in), 6 only a self hit,
   * 7 nothing; 1-2 given twice */
  const tu_edge in[] = {{0, 0, 500.0f}, {1, 1, 300.0f}, {2, 2, 200.0f}, {3, 3, 400.0f},
                        {4, 4, 100.0f}, {6, 6, 50.0f},  {0, 1, 150.0f}, {1, 2, 90.0f},
                        {2, 1, 60.0f},  {0, 3, 40.0f},  {3, 4, 80.0f},  {4, 5, 70.0f},
                        {5, 2, 30.0f},  {0, 0, 450.0f}};
  const size_t ne = sizeof in / sizeof in[0];
  const uint64_t n = 8;
  float self[8] = {0}, best[8] = {0};
  for (size_t i = 0; i < ne; i++) {
    if (in[i].a == in[i].b) {
      if (in[i].w > self[in[i].a]) self[in[i].a] = in[i].w;
    } else {
      if (in[i].w > best[in[i].a]) best[in[i].a] = in[i].w;
      if (in[i].w > best[in[i].b]) best[in[i].b] = in[i].w;
    }
  }
  for (uint64_t x = 0; x < n; x++)
    if (self[x] == 0.0f) self[x] = best[x];
  ck_assert(self[5] == 70.0f && self[0] == 500.0f);
  for (int directed = 0; directed <= 1; directed++)
    for (int wide = 0; wide <= 1; wide++)
      for (int keep = 0; keep <= 1; keep++) {
        tu_edge ex[sizeof in / sizeof in[0]];
        size_t nx = 0, loops = 0;
        double sum = 0.0;
        for (size_t i = 0; i < ne; i++) {
          const uint64_t a = in[i].a, b = in[i].b;
          if (a == b) loops++;
          if (a == b && !keep) continue;
          const float d = self[a] > self[b] ? self[a] : self[b];
          ex[nx] = (tu_edge){a, b, (float)((double)in[i].w / (double)d)};
          sum += 2.0 * fabs((double)ex[nx].w);
          nx++;
        }
        tu_csr want;
        tu_csr_build(&want, n, ex, nx, directed, wide);
        char *wo = tu_read_file(want.csr.offsets_path, &(size_t){0});
        size_t wlen = 0;
        char *wa = tu_read_file(want.csr.adj_path, &wlen);
        for (int big = 0; big <= 1; big++) {
          tu_csr g;
          tu_csr_build(&g, n, in, ne, directed, wide);
          exo_ctx ctx;
          exo_ctx_init(&ctx);
          exo_csr_norm r;
          ck_assert_int_eq(exo_csr_selfnorm(&g.csr, keep, big ? (size_t)1 << 20 : 64, &r, &ctx),
                           EXO_OK);
          ck_assert_uint_eq(g.csr.m, want.csr.m);
          ck_assert_uint_eq(r.dropped, keep ? 0 : 2 * loops);
          ck_assert_uint_eq(r.linked, keep ? 7 : 6); /* 7: none; 6: a self hit only */
          ck_assert_double_eq_tol(r.sum2w, sum, 1e-9);
          size_t glen = 0, olen = 0;
          char *go = tu_read_file(g.csr.offsets_path, &olen), *ga = tu_read_file(g.csr.adj_path, &glen);
          ck_assert_uint_eq(olen, (n + 1) * 8);
          ck_assert_mem_eq(go, wo, olen);
          ck_assert_uint_eq(glen, wlen);
          ck_assert_mem_eq(ga, wa, glen);
          ck_assert_int_eq(tu_count_entries(g.dir), 2); /* no .norm file left */
          free(go);
          free(ga);
          tu_csr_free(&g);
        }
        free(wo);
        free(wa);
        tu_csr_free(&want);
      }
}
END_TEST

/* exo_csr_strengths on a graph worked by hand: a triangle {0, 1, 2} of
 * weight 1 with a loop 0 - 0 of weight 0.5 (stored as two arcs 0 -> 0 by
 * tu_csr_build, each counted twice), an edge 3 - 4 of weight 4, node 5
 * alone. Strengths: 4, 2, 2, 4, 4, 0; 2W = 16 over 5 linked nodes, S =
 * 3.2; S_K = 8/3 and 4. Narrow and wide ids, small and large buffers: the
 * same. */
START_TEST(test_strengths_components) {
  const tu_edge e[5] = {{0, 1, 1}, {1, 2, 1}, {0, 2, 1}, {0, 0, 0.5f}, {3, 4, 4}};
  const double a = sqrt(8.0 / 3.0 / 3.2), b = sqrt(4.0 / 3.2);
  const double want[6] = {a, a, a, b, b, 1.0};
  for (int wide = 0; wide < 2; wide++)
    for (size_t buf = 16; buf <= 1 << 20; buf <<= 16) {
      tu_csr g;
      tu_csr_build(&g, 6, e, 5, 0, wide);
      char *path = tu_path(g.dir, "components.bin");
      exo_ctx ctx;
      exo_ctx_init(&ctx);
      exo_csr_strength st;
      ck_assert_int_eq(exo_csr_strengths(&g.csr, 1, buf, path, 1, &st, &ctx), EXO_OK);
      ck_assert(st.sum2w == 16.0);
      ck_assert_uint_eq(st.linked, 5);
      ck_assert(st.mean == 16.0 / 5.0);
      double got[6];
      FILE *f = fopen(path, "rb");
      ck_assert_ptr_nonnull(f);
      ck_assert_uint_eq(fread(got, 8, 6, f), 6);
      ck_assert_int_eq(fgetc(f), EOF);
      fclose(f);
      for (int v = 0; v < 6; v++) ck_assert_double_eq_tol(got[v], want[v], 1e-15);
      /* loops once, no weights file */
      ck_assert_int_eq(exo_csr_strengths(&g.csr, 0, buf, NULL, 1, &st, &ctx), EXO_OK);
      ck_assert(st.sum2w == 15.0);
      /* over every node (node 5 has no arc) */
      ck_assert_int_eq(exo_csr_strengths(&g.csr, 0, buf, NULL, 0, &st, &ctx), EXO_OK);
      ck_assert(st.mean == 15.0 / 6.0);
      remove(path);
      free(path);
      tu_csr_free(&g);
    }
}
END_TEST

/* The offsets loader and the streaming scan apply the same checks and find
 * the same largest degree; a decreasing offset is refused by both, naming
 * the file and the node before it. */
START_TEST(test_offsets_checked) {
  tu_edge e[64];
  size_t ne = tu_add_clique(e, 0, 0, 8, 1.0f);
  ne = tu_add_clique(e, ne, 8, 4, 0.5f);
  tu_csr g;
  tu_csr_build(&g, 12, e, ne, 0, 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  uint64_t *off = NULL, md_load = 0, md_scan = 0;
  ck_assert_int_eq(exo_csr_load_offsets(&g.csr, &off, &md_load, &ctx), EXO_OK);
  ck_assert_int_eq(exo_csr_scan_offsets(&g.csr, &md_scan, &ctx), EXO_OK);
  ck_assert_uint_eq(md_load, 7);
  ck_assert_uint_eq(md_scan, 7);
  off[5] = off[4] - 1; /* node 4 now decreases */
  FILE *f = fopen(g.csr.offsets_path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(off, 8, 13, f), 13);
  fclose(f);
  free(off);
  ck_assert_int_eq(exo_csr_scan_offsets(&g.csr, &md_scan, &ctx), EXO_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, g.csr.offsets_path));
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "decreases at node 4"));
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_csr_load_offsets(&g.csr, &off, NULL, &ctx), EXO_EINTERNAL);
  ck_assert_ptr_null(off);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "decreases at node 4"));
  tu_csr_free(&g);
}
END_TEST

Suite *sweep_suite(void) {
  Suite *s = suite_create("sweep");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_order_is_seeded_permutation);
  tcase_add_test(tc, test_cut_covers_blocks);
  tcase_add_test(tc, test_window_reads_lists);
  tcase_add_test(tc, test_offsets_checked);
  tcase_add_test(tc, test_selfnorm);
  tcase_add_test(tc, test_strengths_components);
  suite_add_tcase(s, tc);
  return s;
}
