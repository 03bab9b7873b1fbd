/* test_refine.c: the merge passes of exo_refine.h on small CSR graphs built
 * here (same layout as the pipeline writes). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_output.h"
#include "exo_record.h"
#include "exo_refine.h"
#include "exo_rng.h"
#include "testutil.h"

static exo_refine_params rparams(uint32_t passes, uint64_t mem) {
  exo_refine_params p;
  memset(&p, 0, sizeof p);
  p.passes = passes;
  p.ratio = EXO_REFINE_RATIO;
  p.memory_limit = mem;
  p.resolution = 1.0;
  return p;
}

static exo_status refine(const tu_csr *g, uint32_t passes, uint64_t mem, uint64_t *labels,
                         uint64_t *k, exo_refine_result *res, exo_ctx *ctx) {
  exo_refine_params p = rparams(passes, mem);
  exo_ctx_init(ctx);
  return exo_refine_merge(&g->csr, &p, labels, k, ctx, res);
}

/* The merge passes on `threads` readers (no_screen: params.no_screen), which
 * must succeed. */
static void refine_ok(const tu_csr *g, uint32_t passes, uint64_t mem, int threads, int no_screen,
                      uint64_t *labels, uint64_t *k, exo_refine_result *res) {
  exo_refine_params p = rparams(passes, mem);
  p.threads = threads;
  p.no_screen = no_screen;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_status s = exo_refine_merge(&g->csr, &p, labels, k, &ctx, res);
  ck_assert_msg(s == EXO_OK, "%s", ctx.err.msg);
}

/* Three 6-cliques A (0-5), B (6-11), C (12-17) in a ring by single light
 * edges; node 18 hangs off A. */
static size_t three_cliques(tu_edge *e) {
  size_t ne = 0;
  ne = tu_add_clique(e, ne, 0, 6, 1.0f);
  ne = tu_add_clique(e, ne, 6, 6, 1.0f);
  ne = tu_add_clique(e, ne, 12, 6, 1.0f);
  e[ne++] = (tu_edge){5, 6, 0.2f};
  e[ne++] = (tu_edge){11, 12, 0.2f};
  e[ne++] = (tu_edge){17, 0, 0.2f};
  e[ne++] = (tu_edge){18, 2, 1.0f};
  return ne;
}

START_TEST(test_fragments_merge) {
  tu_edge e[64];
  size_t ne = three_cliques(e);
  for (int wide = 0; wide <= 1; wide++) {
    tu_csr g;
    tu_csr_build(&g, 19, e, ne, 0, wide);
    /* A split in two fragments, B and C whole, node 18 alone */
    uint64_t lab[19] = {1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 5};
    uint64_t k = 5;
    exo_refine_result r;
    exo_ctx ctx;
    exo_status s = refine(&g, 10, 64 << 20, lab, &k, &r, &ctx);
    ck_assert_msg(s == EXO_OK, "%s", ctx.err.msg);
    ck_assert_uint_eq(k, 3);
    for (int v = 0; v < 6; v++) ck_assert_uint_eq(lab[v], 1);
    for (int v = 6; v < 12; v++) ck_assert_uint_eq(lab[v], 2);
    for (int v = 12; v < 18; v++) ck_assert_uint_eq(lab[v], 3);
    ck_assert_uint_eq(lab[18], 1);
    /* fragment 2 and node 18 both join A in the first pass */
    ck_assert_uint_eq(r.merged, 2);
    ck_assert_uint_eq(r.passes, 2); /* the second pass merges nothing */
    ck_assert_uint_eq(r.reads, 2);
    tu_csr_free(&g);
  }
}
END_TEST

/* The resolution of the merge test (exo_quality.h): a 4-clique A (0-3)
 * linked by three arcs of weight 1 to a 30-clique B (4-33). A's excess
 * toward B at gamma 1 is 3 - vol(A) vol(B) / T < 0: A stays apart; at gamma
 * 0 it is 3 > 0 and 3 >= 0.15 in(A): A joins B; at gamma 0.05 it is
 * 3 - 0.74 >= 1.8: A joins too (at 0.1, 1.53 < 1.8 would not); an invalid
 * gamma is refused. */
START_TEST(test_resolution_of_the_merge_test) {
  tu_edge e[1024];
  size_t ne = 0;
  ne = tu_add_clique(e, ne, 0, 4, 1.0f);
  ne = tu_add_clique(e, ne, 4, 30, 1.0f);
  e[ne++] = (tu_edge){0, 4, 1.0f};
  e[ne++] = (tu_edge){1, 5, 1.0f};
  e[ne++] = (tu_edge){2, 6, 1.0f};
  tu_csr g;
  tu_csr_build(&g, 34, e, ne, 0, 0);
  const double gammas[3] = {1.0, 0.0, 0.05};
  const uint64_t want_k[3] = {2, 1, 1};
  for (int i = 0; i < 3; i++) {
    uint64_t lab[34];
    for (int v = 0; v < 34; v++) lab[v] = v < 4 ? 1 : 2;
    uint64_t k = 2;
    exo_refine_params p = rparams(5, 64 << 20);
    p.resolution = gammas[i];
    exo_refine_result r;
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    ck_assert_int_eq(exo_refine_merge(&g.csr, &p, lab, &k, &ctx, &r), EXO_OK);
    ck_assert_msg(k == want_k[i], "gamma %g: %llu clusters", gammas[i], (unsigned long long)k);
  }
  exo_refine_params p = rparams(5, 64 << 20);
  p.resolution = -1.0;
  uint64_t lab[34] = {0};
  for (int v = 0; v < 34; v++) lab[v] = v < 4 ? 1 : 2;
  uint64_t k = 2;
  exo_refine_result r;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_refine_merge(&g.csr, &p, lab, &k, &ctx, &r), EXO_EARG);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "resolution"));
  tu_csr_free(&g);
}
END_TEST

START_TEST(test_true_clusters_stay) {
  tu_edge e[64];
  size_t ne = three_cliques(e);
  tu_csr g;
  tu_csr_build(&g, 19, e, ne, 0, 0);
  uint64_t lab[19] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 1};
  uint64_t want[19];
  memcpy(want, lab, sizeof lab);
  uint64_t k = 3;
  exo_refine_result r;
  exo_ctx ctx;
  ck_assert_int_eq(refine(&g, 5, 64 << 20, lab, &k, &r, &ctx), EXO_OK);
  ck_assert_uint_eq(k, 3);
  ck_assert_uint_eq(r.merged, 0);
  ck_assert_uint_eq(r.passes, 1);
  ck_assert_mem_eq(lab, want, sizeof lab);
  /* passes = 0 does nothing at all */
  uint64_t lab2[19] = {1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 5};
  uint64_t k2 = 5;
  ck_assert_int_eq(refine(&g, 0, 64 << 20, lab2, &k2, &r, &ctx), EXO_OK);
  ck_assert_uint_eq(k2, 5);
  ck_assert_uint_eq(lab2[3], 2);
  ck_assert_uint_eq(r.reads, 0);
  tu_csr_free(&g);
}
END_TEST

/* The cutoff (label propagation's add_self_loops rule): a cluster can join
 * a neighbouring one only when an arc between them has |w| >= the cutoff.
 * X = {0, 1}, Y = {2, 3}, Z = {4, 5} (inner edges 1.0); X-Y: four arcs of
 * 0.5 (the larger excess), X-Z: one arc of 1.5; a 10-clique (6-15) adds
 * volume. Without a cutoff X, Y and Z end as one cluster (Y joins X, its
 * best; Z joins X); with cutoff 1 Y has no eligible neighbour and X's
 * eligible best is Z, so X and Z merge and Y stays alone; with cutoff 2
 * no arc qualifies and nothing merges. */
static exo_status refine_cut(const tu_csr *g, double cutoff, uint64_t *labels, uint64_t *k,
                             exo_refine_result *res, exo_ctx *ctx) {
  exo_refine_params p = rparams(5, 64 << 20);
  p.self_loop_cutoff = cutoff;
  exo_ctx_init(ctx);
  return exo_refine_merge(&g->csr, &p, labels, k, ctx, res);
}

START_TEST(test_cutoff) {
  tu_edge e[64];
  size_t ne = 0;
  e[ne++] = (tu_edge){0, 1, 1.0f};
  e[ne++] = (tu_edge){2, 3, 1.0f};
  e[ne++] = (tu_edge){4, 5, 1.0f};
  e[ne++] = (tu_edge){0, 2, 0.5f};
  e[ne++] = (tu_edge){0, 3, 0.5f};
  e[ne++] = (tu_edge){1, 2, 0.5f};
  e[ne++] = (tu_edge){1, 3, 0.5f};
  e[ne++] = (tu_edge){1, 4, 1.5f};
  ne = tu_add_clique(e, ne, 6, 10, 1.0f);
  const uint64_t start[16] = {1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
  for (int directed = 0; directed <= 1; directed++) {
    tu_csr g;
    tu_csr_build(&g, 16, e, ne, directed, 0);
    uint64_t lab[16], k;
    exo_refine_result r;
    exo_ctx ctx;
    /* no cutoff (and a cutoff at or below every weight: the same) */
    const double none[2] = {0.0, 0.5};
    for (int i = 0; i < 2; i++) {
      memcpy(lab, start, sizeof lab);
      k = 4;
      ck_assert_int_eq(refine_cut(&g, none[i], lab, &k, &r, &ctx), EXO_OK);
      ck_assert_uint_eq(k, 2);
      for (int v = 1; v < 6; v++) ck_assert_uint_eq(lab[v], lab[0]);
      ck_assert_uint_ne(lab[6], lab[0]);
    }
    /* cutoff 1: only the X-Z arc (and the inner ones) qualify */
    memcpy(lab, start, sizeof lab);
    k = 4;
    ck_assert_int_eq(refine_cut(&g, 1.0, lab, &k, &r, &ctx), EXO_OK);
    ck_assert_uint_eq(k, 3);
    ck_assert_uint_eq(lab[1], lab[0]);
    ck_assert_uint_eq(lab[4], lab[0]);
    ck_assert_uint_eq(lab[5], lab[0]);
    ck_assert_uint_eq(lab[3], lab[2]);
    ck_assert_uint_ne(lab[2], lab[0]);
    ck_assert_uint_ne(lab[6], lab[0]);
    ck_assert_uint_ne(lab[6], lab[2]);
    ck_assert_uint_eq(r.merged, 1);
    /* cutoff 2: no arc between clusters qualifies, nothing merges */
    memcpy(lab, start, sizeof lab);
    k = 4;
    ck_assert_int_eq(refine_cut(&g, 2.0, lab, &k, &r, &ctx), EXO_OK);
    ck_assert_uint_eq(k, 4);
    ck_assert_uint_eq(r.merged, 0);
    ck_assert_mem_eq(lab, start, sizeof lab);
    /* a negative cutoff is refused */
    memcpy(lab, start, sizeof lab);
    k = 4;
    ck_assert_int_eq(refine_cut(&g, -1.0, lab, &k, &r, &ctx), EXO_EARG);
    tu_csr_free(&g);
  }
}
END_TEST

/* One pass never chains: singletons 0-1-2-3 on a path, each wanting to join
 * a neighbour; a cluster joins only a cluster that stays. */
START_TEST(test_no_chains_within_a_pass) {
  tu_edge e[3] = {{0, 1, 1.0f}, {1, 2, 2.0f}, {2, 3, 1.0f}};
  tu_csr g;
  tu_csr_build(&g, 4, e, 3, 0, 0);
  uint64_t lab[4] = {1, 2, 3, 4};
  uint64_t k = 4;
  exo_refine_result r;
  exo_ctx ctx;
  ck_assert_int_eq(refine(&g, 1, 64 << 20, lab, &k, &r, &ctx), EXO_OK);
  /* 2 and 3 (joined by the heavy edge) are each other's best: the smaller
   * number (2) stays and 3 joins it; 1 and 4 want to join clusters that
   * move (2 stays: 1 joins it), so no cluster spans more than one hop. */
  ck_assert_uint_eq(lab[1], lab[2]);
  ck_assert_uint_le(k, 3);
  ck_assert_uint_ge(k, 1);
  tu_csr_free(&g);
}
END_TEST

/* A pair table too small for one read: the clusters are split into groups,
 * the result is the same as with ample memory; and the same for 2, 3 or 4
 * threads, which read groups side by side (at least one group each). */
static tu_edge *grouped_graph(tu_csr *g, uint64_t n, size_t ne) {
  tu_edge *e = malloc(ne * sizeof *e);
  exo_rng rng;
  exo_rng_seed(&rng, 7);
  for (size_t i = 0; i < ne; i++) {
    uint64_t a = exo_rng_below(&rng, n), b = exo_rng_below(&rng, n);
    if (a == b) b = (b + 1) % n;
    /* blocks of 20 nodes, 70% of edges inside */
    if (exo_rng_below(&rng, 10) < 7) b = (a / 20) * 20 + exo_rng_below(&rng, 20);
    if (a == b) b = (a / 20) * 20 + (a + 1) % 20;
    e[i] = (tu_edge){a, b, 0.5f + (float)exo_rng_below(&rng, 1000) / 997.0f};
  }
  tu_csr_build(g, n, e, ne, 0, 0);
  return e;
}

START_TEST(test_groups_same_result) {
  const uint64_t n = 4000;
  tu_csr g;
  tu_edge *e = grouped_graph(&g, n, 120000);
  const uint64_t mems[6] = {(uint64_t)1 << 30, 1 << 20, (uint64_t)1 << 30, 1 << 20, 1 << 20,
                            (uint64_t)1 << 30};
  const int threads[6] = {1, 1, 2, 2, 3, 4};
  uint64_t *ref = malloc(n * 8), *lab = malloc(n * 8), kref = 0;
  for (int i = 0; i < 6; i++) {
    uint64_t *l = i ? lab : ref, k = n;
    for (uint64_t v = 0; v < n; v++) l[v] = v + 1; /* all singletons */
    exo_refine_result r;
    refine_ok(&g, 3, mems[i], threads[i], 0, l, &k, &r);
    ck_assert_uint_ge(r.passes, 2);
    if (mems[i] >> 30) /* one read per pass per thread */
      ck_assert_uint_eq(r.reads, r.passes * (uint64_t)threads[i]);
    else /* at least one per thread (each has a table of at least 1 MiB) */
      ck_assert_uint_ge(r.reads, r.passes * (uint64_t)threads[i]);
    if (i == 1) { /* one thread: several reads per pass */
      ck_assert_uint_gt(r.reads, r.passes);
      /* singletons (no internal weight) keep every pair with an excess:
       * the first pass tries the screen, then drops it */
      ck_assert_uint_eq(r.screened, 1);
    }
    if (i == 0) {
      kref = k;
      ck_assert_uint_lt(k, n);
    } else {
      ck_assert_uint_eq(k, kref);
      ck_assert_mem_eq(l, ref, n * 8);
    }
  }
  free(ref);
  free(lab);
  free(e);
  tu_csr_free(&g);
}
END_TEST

/* The screen (exo_refine.h): planted blocks of 20 nodes, a third of the
 * edges between blocks (about 180,000 pairs of blocks, more than two 1 MiB
 * tables hold), every tenth block split in two fragments. With 1 MiB the
 * first read fills the table, the pass screens its pairs (nearly all fall:
 * each block's internal weight dwarfs its weight to any other block), fits
 * one group per reader, and gives the labels of a run with ample memory,
 * which a run told not to screen gives too, with more reads; the same with
 * 2 threads. */
START_TEST(test_screen_same_result) {
  const uint64_t n = 20000, B = 20;
  const size_t ne = 600000;
  tu_edge *e = malloc(ne * sizeof *e);
  exo_rng rng;
  exo_rng_seed(&rng, 11);
  for (size_t i = 0; i < ne; i++) {
    uint64_t a = exo_rng_below(&rng, n), b;
    if (exo_rng_below(&rng, 3) == 0) {
      b = exo_rng_below(&rng, n);
    } else {
      b = (a / B) * B + exo_rng_below(&rng, B);
    }
    if (a == b) b = (a / B) * B + (a % B + 1) % B;
    e[i] = (tu_edge){a, b, 0.5f + (float)exo_rng_below(&rng, 1000) / 1999.0f};
  }
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 0, 0);
  free(e);
  uint64_t *start = malloc(n * 8), *ref = malloc(n * 8), *lab = malloc(n * 8);
  const uint64_t nb = n / B;
  uint64_t k0 = nb;
  for (uint64_t v = 0; v < n; v++) {
    const uint64_t blk = v / B;
    start[v] = blk + 1;
    if (blk % 10 == 0 && v % B >= B / 2) start[v] = nb + blk / 10 + 1; /* the second fragment */
  }
  k0 = nb + (nb + 9) / 10;
  /* 0: ample memory; 1: 1 MiB, never screen; 2, 3: 1 MiB, 1 and 2 threads */
  const uint64_t mems[4] = {(uint64_t)1 << 30, 1 << 20, 1 << 20, 1 << 20};
  const int threads[4] = {1, 1, 1, 2}, no_screen[4] = {0, 1, 0, 0};
  uint64_t kref = 0, reads_unscreened = 0;
  for (int i = 0; i < 4; i++) {
    uint64_t *l = i ? lab : ref, k = k0;
    memcpy(l, start, n * 8);
    exo_refine_result r;
    refine_ok(&g, 5, mems[i], threads[i], no_screen[i], l, &k, &r);
    if (i == 0) {
      ck_assert_uint_eq(r.screened, 0);
      ck_assert_uint_eq(r.reads, r.passes);
      ck_assert_uint_eq(k, nb); /* the fragments joined their blocks */
      ck_assert_uint_eq(r.merged, k0 - nb);
      for (uint64_t v = 0; v < n; v++) ck_assert_uint_eq(ref[v], ref[v - v % B]);
      kref = k;
      continue;
    }
    ck_assert_uint_eq(k, kref);
    ck_assert_mem_eq(l, ref, n * 8);
    if (i == 1) {
      ck_assert_uint_eq(r.screened, 0);
      ck_assert_uint_gt(r.reads, 2 * r.passes); /* several groups a pass */
      reads_unscreened = r.reads;
    } else {
      ck_assert_uint_eq(r.screened, r.passes); /* every pass, once the first needed it */
      ck_assert_uint_lt(r.reads, reads_unscreened);
    }
  }
  free(start);
  free(ref);
  free(lab);
  tu_csr_free(&g);
}
END_TEST

/* The screen's lower bounds (exo_refine.h): the internal weights it keeps
 * as floats are rounded down. Clusters C and D of 200,000 nodes each, in
 * pairs joined by edges of weight 0.3 (each node adds 0.3 to its cluster's
 * internal weight: 200,000 float adds rounded to nearest drift 0.18% above
 * the exact 60,000), and 1,000 edges between C and D weighted so that
 * their excess lies just above 0.15 in(C), by less than that drift; the
 * 1,000 blocks of test_screen_same_result fill the table. Screened or not,
 * C and D merge. */
START_TEST(test_screen_rounds_down) {
  const uint64_t nb_nodes = 20000, B = 20, half = 200000;
  const uint64_t c0 = nb_nodes, d0 = nb_nodes + half, n = nb_nodes + 2 * half;
  const size_t nblk = 600000, ncross = 1000;
  const size_t ne = nblk + half + ncross;
  tu_edge *e = malloc(ne * sizeof *e);
  exo_rng rng;
  exo_rng_seed(&rng, 11);
  double t0 = 0.0; /* the arcs' total weight but for the C-D edges */
  size_t k = 0;
  for (size_t i = 0; i < nblk; i++) {
    uint64_t a = exo_rng_below(&rng, nb_nodes), b;
    if (exo_rng_below(&rng, 3) == 0) b = exo_rng_below(&rng, nb_nodes);
    else b = (a / B) * B + exo_rng_below(&rng, B);
    if (a == b) b = (a / B) * B + (a % B + 1) % B;
    e[k] = (tu_edge){a, b, 0.5f + (float)exo_rng_below(&rng, 1000) / 1999.0f};
    t0 += 2.0 * e[k++].w;
  }
  for (uint64_t i = 0; i < half; i += 2) {
    e[k++] = (tu_edge){c0 + i, c0 + i + 1, 0.3f};
    e[k++] = (tu_edge){d0 + i, d0 + i + 1, 0.3f};
    t0 += 4.0 * (double)0.3f;
  }
  /* in(C) = in(D); the excess of W between them: W - (in + W)^2 / (t0 + 2 W);
   * aim at 0.15 in (1 + 0.0008) */
  const double in = (double)half * (double)0.3f, want = 0.15 * in * 1.0008;
  double lo = 0.0, hi = 1e6;
  for (int it = 0; it < 200; it++) {
    double W = (lo + hi) / 2, x = W - (in + W) * (in + W) / (t0 + 2 * W);
    if (x < want) lo = W;
    else hi = W;
  }
  const float w = (float)(lo / (double)ncross);
  for (size_t i = 0; i < ncross; i++) e[k++] = (tu_edge){c0 + 2 * i, d0 + 2 * i, w};
  ck_assert_uint_eq(k, ne);
  const double W = (double)ncross * (double)w;
  const double x = W - (in + W) * (in + W) / (t0 + 2 * W);
  ck_assert(x > 0.15 * in * 1.0003 && x < 0.15 * in * 1.0013); /* inside the drift */
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 0, 0);
  free(e);
  uint64_t *lab = malloc(n * 8);
  const uint64_t mems[3] = {(uint64_t)1 << 30, 1 << 20, 1 << 20};
  const int threads[3] = {1, 1, 2};
  for (int r = 0; r < 3; r++) {
    for (uint64_t v = 0; v < n; v++) lab[v] = v < c0 ? v / B + 1 : v < d0 ? 1001 : 1002;
    uint64_t kk = 1002;
    exo_refine_result res;
    refine_ok(&g, 3, mems[r], threads[r], 0, lab, &kk, &res);
    ck_assert_uint_eq(kk, 1001); /* C and D merged, the blocks stay */
    ck_assert_uint_eq(lab[c0], lab[d0]);
    ck_assert_uint_ne(lab[0], lab[c0]);
    if (r > 0) ck_assert_uint_ge(res.screened, 1);
  }
  free(lab);
  tu_csr_free(&g);
}
END_TEST

/* A neighbour id out of range: the same error naming the node with one
 * thread or several (only the reader of that node's group meets it). */
START_TEST(test_threads_bad_neighbour) {
  const uint64_t n = 400;
  tu_csr g;
  tu_edge *e = grouped_graph(&g, n, 6000);
  uint64_t off[2];
  FILE *f = fopen(g.offp, "rb");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fseek(f, 123 * 8, SEEK_SET), 0);
  ck_assert_uint_eq(fread(off, 8, 2, f), 2);
  fclose(f);
  ck_assert_uint_gt(off[1], off[0]);
  f = fopen(g.adjp, "r+b");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fseek(f, (long)(off[0] * exo_adj_size(0)), SEEK_SET), 0);
  uint32_t bad = (uint32_t)n + 9;
  ck_assert_uint_eq(fwrite(&bad, 4, 1, f), 1);
  fclose(f);
  for (int t = 1; t <= 3; t++) {
    uint64_t lab[400], k = n;
    for (uint64_t v = 0; v < n; v++) lab[v] = v + 1;
    exo_refine_params p = rparams(2, 1 << 20);
    p.threads = t;
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_refine_result r;
    ck_assert_int_eq(exo_refine_merge(&g.csr, &p, lab, &k, &ctx, &r), EXO_EINTERNAL);
    ck_assert_ptr_nonnull(strstr(ctx.err.msg, "node 123 lists neighbour 409 >= 400 nodes"));
  }
  free(e);
  tu_csr_free(&g);
}
END_TEST

/* The default threshold (EXO_REFINE_RATIO, 0.15 since issue 25's item 3):
 * 4-cliques A (0-3) and B (4-7) joined by three unit edges, beside a
 * 20-clique E (8-27) that only adds volume. in(A) = in(B) = 12, vol(A) =
 * vol(B) = 15, T = 410, so x(A, B) = 3 - 225 / 410 = 2.45 = 0.204 in(A):
 * A and B merge under the default, and stay apart at the former 0.3. */
START_TEST(test_default_ratio) {
  tu_edge e[256];
  size_t ne = 0;
  ne = tu_add_clique(e, ne, 0, 4, 1.0f);
  ne = tu_add_clique(e, ne, 4, 4, 1.0f);
  ne = tu_add_clique(e, ne, 8, 20, 1.0f);
  e[ne++] = (tu_edge){0, 4, 1.0f};
  e[ne++] = (tu_edge){1, 5, 1.0f};
  e[ne++] = (tu_edge){2, 6, 1.0f};
  tu_csr g;
  tu_csr_build(&g, 28, e, ne, 0, 0);
  for (int old = 0; old <= 1; old++) {
    uint64_t lab[28];
    for (int v = 0; v < 28; v++) lab[v] = v < 4 ? 1 : v < 8 ? 2 : 3;
    uint64_t k = 3;
    exo_refine_params p = rparams(5, 1 << 20);
    if (old) p.ratio = 0.3;
    exo_refine_result r;
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    ck_assert_int_eq(exo_refine_merge(&g.csr, &p, lab, &k, &ctx, &r), EXO_OK);
    ck_assert_uint_eq(k, (old ? 3u : 2u));
    ck_assert_uint_eq(lab[4], (old ? 2u : 1u));
    ck_assert_uint_eq(lab[8], (old ? 3u : 2u));
  }
  tu_csr_free(&g);
}
END_TEST

START_TEST(test_bad_arguments) {
  tu_edge e[64];
  size_t ne = three_cliques(e);
  tu_csr g;
  tu_csr_build(&g, 19, e, ne, 0, 0);
  uint64_t lab[19];
  for (int v = 0; v < 19; v++) lab[v] = 1;
  uint64_t k = 1;
  exo_refine_result r;
  exo_ctx ctx;
  ck_assert_int_eq(refine(&g, EXO_REFINE_MAX_PASSES + 1, 1 << 20, lab, &k, &r, &ctx), EXO_EARG);
  lab[4] = 2; /* outside 1..k */
  ck_assert_int_eq(refine(&g, 1, 1 << 20, lab, &k, &r, &ctx), EXO_EARG);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "node 4"));
  exo_refine_params p = rparams(1, 1 << 20);
  p.ratio = 0.0;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_refine_merge(&g.csr, &p, lab, &k, &ctx, &r), EXO_EARG);
  /* a truncated adjacency file is an internal error naming it */
  ck_assert_int_eq(tu_write_file(g.adjp, "x", 1), 0);
  lab[4] = 1;
  ck_assert_int_eq(refine(&g, 1, 1 << 20, lab, &k, &r, &ctx), EXO_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "csr.adj"));
  tu_csr_free(&g);
}
END_TEST

Suite *refine_suite(void) {
  Suite *s = suite_create("refine");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_fragments_merge);
  tcase_add_test(tc, test_true_clusters_stay);
  tcase_add_test(tc, test_resolution_of_the_merge_test);
  tcase_add_test(tc, test_no_chains_within_a_pass);
  tcase_add_test(tc, test_cutoff);
  tcase_add_test(tc, test_groups_same_result);
  tcase_add_test(tc, test_screen_same_result);
  tcase_add_test(tc, test_screen_rounds_down);
  tcase_add_test(tc, test_threads_bad_neighbour);
  tcase_add_test(tc, test_default_ratio);
  tcase_add_test(tc, test_bad_arguments);
  suite_add_tcase(s, tc);
  return s;
}
