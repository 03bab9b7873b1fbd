/* test_lp.c: label propagation (exo_lp.h) on small CSR graphs built here
 * from in-memory edge lists, independent of the sort module. */
#include <check.h>
#include <math.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exo_io.h"
#include "exo_lp.h"
#include "exo_record.h"
#include "exo_rng.h"
#include "testutil.h"

static exo_lp_params params_for(int directed, uint64_t seed) {
  exo_lp_params p;
  memset(&p, 0, sizeof p);
  p.directed = directed;
  p.seed = seed;
  p.memory_limit = (uint64_t)64 << 20;
  return p;
}

/* Run and require success; returns the labels (caller frees). */
static uint64_t *run_ok(const tu_csr *g, const exo_lp_params *p, exo_lp_result *res) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_lp_result r;
  exo_status s = exo_lp_run(&g->csr, p, &ctx, &r);
  ck_assert_msg(s == EXO_OK, "exo_lp_run failed: %s %s", exo_status_name(s), ctx.err.msg);
  ck_assert_ptr_nonnull(r.labels);
  ck_assert_uint_ge(r.max_visits, 1);
  ck_assert_uint_le(r.max_visits, EXO_LP_MAX_VISITS);
  ck_assert_uint_le(r.changes, r.pops);
  if (res) *res = r;
  return r.labels;
}

/* Number of distinct labels among nodes [0, n). */
static uint64_t count_labels(const uint64_t *lab, uint64_t n) {
  uint8_t *seen = calloc(n ? n : 1, 1);
  uint64_t k = 0;
  for (uint64_t v = 0; v < n; v++) {
    ck_assert_uint_lt(lab[v], n);
    if (!seen[lab[v]]) {
      seen[lab[v]] = 1;
      k++;
    }
  }
  free(seen);
  return k;
}

#ifdef _WIN32
#include <io.h>
/* descriptors in use: the CRT's table (no /proc on Windows) */
static int open_fds(void) {
  int n = 0;
  for (int fd = 0; fd < 2048; fd++) n += _get_osfhandle(fd) != -1;
  return n;
}
#else
static int open_fds(void) { return tu_count_entries("/proc/self/fd"); }
#endif

/* ---- tests ------------------------------------------------------------------ */

START_TEST(two_cliques_split) {
  tu_edge e[32];
  size_t ne = tu_add_clique(e, 0, 0, 5, 1.0f);
  ne = tu_add_clique(e, ne, 5, 5, 1.0f);
  e[ne++] = (tu_edge){4, 5, 1.0f};
  for (int wide = 0; wide <= 1; wide++) {
    tu_csr g;
    tu_csr_build(&g, 10, e, ne, 0, wide);
    for (uint64_t seed = 1; seed <= 12; seed++) {
      exo_lp_params p = params_for(0, seed);
      exo_lp_result r;
      uint64_t *lab = run_ok(&g, &p, &r);
      for (int v = 1; v < 5; v++) ck_assert_uint_eq(lab[v], lab[0]);
      for (int v = 6; v < 10; v++) ck_assert_uint_eq(lab[v], lab[5]);
      ck_assert_uint_ne(lab[0], lab[5]);
      ck_assert_uint_eq(count_labels(lab, 10), 2);
      ck_assert_uint_eq(r.max_visits, EXO_LP_AUTO_MIN_VISITS);
      ck_assert_uint_ge(r.pops, 10);
      ck_assert_uint_ge(r.rounds, 1);
      free(lab);
    }
    /* asynchronous LP can let one label take both cliques through the
     * bridge (a global consensus is also stable): rare, measured ~0.5% */
    int split = 0;
    for (uint64_t seed = 100; seed < 300; seed++) {
      exo_lp_params p = params_for(0, seed);
      uint64_t *lab = run_ok(&g, &p, NULL);
      int ok = lab[0] != lab[5];
      for (int v = 0; v < 10; v++) ok &= lab[v] == lab[v < 5 ? 0 : 5];
      if (!ok) ck_assert_uint_eq(count_labels(lab, 10), 1); /* the only other outcome */
      split += ok;
      free(lab);
    }
    ck_assert_int_ge(split, 190);
    tu_csr_free(&g);
  }
}
END_TEST

START_TEST(components_never_share) {
  /* a path, a clique and a star, disconnected */
  tu_edge e[64];
  size_t ne = 0;
  for (uint64_t v = 0; v < 9; v++) e[ne++] = (tu_edge){v, v + 1, 1.0f}; /* 0..9 */
  ne = tu_add_clique(e, ne, 10, 6, 2.0f);                               /* 10..15 */
  for (uint64_t v = 17; v < 25; v++) e[ne++] = (tu_edge){16, v, 1.0f}; /* 16..24 */
  tu_csr g;
  tu_csr_build(&g, 25, e, ne, 0, 0);
  for (uint64_t seed = 0; seed < 20; seed++) {
    exo_lp_params p = params_for(0, seed);
    uint64_t *lab = run_ok(&g, &p, NULL);
    for (uint64_t v = 0; v < 25; v++) {
      uint64_t lo = v < 10 ? 0 : v < 16 ? 10 : 16;
      uint64_t hi = v < 10 ? 10 : v < 16 ? 16 : 25;
      ck_assert_uint_ge(lab[v], lo);
      ck_assert_uint_lt(lab[v], hi);
    }
    for (uint64_t v = 11; v < 16; v++) ck_assert_uint_eq(lab[v], lab[10]);
    for (uint64_t v = 17; v < 25; v++) ck_assert_uint_eq(lab[v], lab[16]);
    free(lab);
  }
  tu_csr_free(&g);
}
END_TEST

START_TEST(ring_of_cliques) {
  enum { K = 8, S = 6 };
  tu_edge e[K * S * S];
  size_t ne = 0;
  for (uint64_t c = 0; c < K; c++) {
    ne = tu_add_clique(e, ne, c * S, S, 1.0f);
    e[ne++] = (tu_edge){c * S + S - 1, ((c + 1) % K) * S, 1.0f};
  }
  tu_csr g;
  tu_csr_build(&g, K * S, e, ne, 0, 0);
  for (uint64_t seed = 1; seed <= 10; seed++) {
    exo_lp_params p = params_for(0, seed);
    uint64_t *lab = run_ok(&g, &p, NULL);
    for (uint64_t c = 0; c < K; c++) {
      for (uint64_t i = 1; i < S; i++) ck_assert_uint_eq(lab[c * S + i], lab[c * S]);
    }
    ck_assert_uint_eq(count_labels(lab, K * S), K);
    free(lab);
  }
  tu_csr_free(&g);
}
END_TEST

START_TEST(heavy_edge_decides) {
  /* undirected: K4 {0..3}, K4 {4..7}; node 8 has two light edges into the
   * first clique and one edge into the second of weight 2.5 (wins) or 1.5
   * (loses) */
  for (int heavy = 0; heavy <= 1; heavy++) {
    tu_edge e[32];
    size_t ne = tu_add_clique(e, 0, 0, 4, 1.0f);
    ne = tu_add_clique(e, ne, 4, 4, 1.0f);
    e[ne++] = (tu_edge){0, 8, 1.0f};
    e[ne++] = (tu_edge){1, 8, 1.0f};
    e[ne++] = (tu_edge){8, 4, heavy ? 2.5f : 1.5f};
    tu_csr g;
    tu_csr_build(&g, 9, e, ne, 0, 0);
    for (uint64_t seed = 1; seed <= 10; seed++) {
      exo_lp_params p = params_for(0, seed);
      uint64_t *lab = run_ok(&g, &p, NULL);
      for (int v = 1; v < 4; v++) ck_assert_uint_eq(lab[v], lab[0]);
      for (int v = 5; v < 8; v++) ck_assert_uint_eq(lab[v], lab[4]);
      ck_assert_uint_ne(lab[0], lab[4]);
      ck_assert_uint_eq(lab[8], heavy ? lab[4] : lab[0]);
      free(lab);
    }
    tu_csr_free(&g);
  }
  /* directed: 0->1 (1 copies 0), then 0->5, 1->5 (label 0, sum 2) against
   * 2->5 of weight 3 (wins) or 1.5 (loses) */
  for (int heavy = 0; heavy <= 1; heavy++) {
    tu_edge e[] = {{0, 1, 1.0f}, {0, 5, 1.0f}, {1, 5, 1.0f}, {2, 5, heavy ? 3.0f : 1.5f}};
    tu_csr g;
    tu_csr_build(&g, 6, e, 4, 1, 0);
    for (uint64_t seed = 1; seed <= 10; seed++) {
      exo_lp_params p = params_for(1, seed);
      uint64_t *lab = run_ok(&g, &p, NULL);
      ck_assert_uint_eq(lab[0], 0);
      ck_assert_uint_eq(lab[1], 0);
      ck_assert_uint_eq(lab[2], 2);
      ck_assert_uint_eq(lab[5], heavy ? 2 : 0);
      ck_assert_uint_eq(lab[3], 3);
      ck_assert_uint_eq(lab[4], 4);
      free(lab);
    }
    tu_csr_free(&g);
  }
}
END_TEST

START_TEST(self_loop_cutoff_blocks_light_arcs) {
  /* undirected star with light spokes: with cutoff 1 nobody moves */
  {
    tu_edge e[] = {{0, 1, 0.5f}, {0, 2, 0.5f}, {0, 3, 0.9f}, {4, 5, 1.0f}};
    tu_csr g;
    tu_csr_build(&g, 6, e, 4, 0, 0);
    for (uint64_t seed = 1; seed <= 5; seed++) {
      exo_lp_params p = params_for(0, seed);
      p.self_loop_cutoff = 1.0;
      exo_lp_result r;
      uint64_t *lab = run_ok(&g, &p, &r);
      for (uint64_t v = 0; v < 4; v++) ck_assert_uint_eq(lab[v], v);
      ck_assert_uint_eq(lab[4], lab[5]); /* the 1.0 edge qualifies */
      ck_assert_uint_eq(r.changes, 1);
      free(lab);
      p.self_loop_cutoff = 0.0; /* without a cutoff the star merges */
      lab = run_ok(&g, &p, NULL);
      for (uint64_t v = 1; v < 4; v++) ck_assert_uint_eq(lab[v], lab[0]);
      free(lab);
    }
    tu_csr_free(&g);
  }
  /* directed: label 1 reaches node 0 over two light arcs (sum 1.2), label 3
   * over one arc of 1.0 */
  {
    tu_edge e[] = {{1, 2, 5.0f}, {1, 0, 0.6f}, {2, 0, 0.6f}, {3, 0, 1.0f}};
    tu_csr g;
    tu_csr_build(&g, 4, e, 4, 1, 0);
    for (uint64_t seed = 1; seed <= 5; seed++) {
      exo_lp_params p = params_for(1, seed);
      p.self_loop_cutoff = 1.0;
      uint64_t *lab = run_ok(&g, &p, NULL);
      ck_assert_uint_eq(lab[2], 1);
      ck_assert_uint_eq(lab[0], 3);
      free(lab);
      p.self_loop_cutoff = 0.0;
      lab = run_ok(&g, &p, NULL);
      ck_assert_uint_eq(lab[2], 1);
      ck_assert_uint_eq(lab[0], 1);
      free(lab);
    }
    tu_csr_free(&g);
  }
}
END_TEST

START_TEST(directed_chain_and_no_upstream) {
  tu_edge e[49];
  for (uint64_t v = 0; v < 49; v++) e[v] = (tu_edge){v, v + 1, 1.0f};
  for (int wide = 0; wide <= 1; wide++) {
    tu_csr g;
    tu_csr_build(&g, 50, e, 49, 1, wide);
    for (uint64_t seed = 1; seed <= 5; seed++) {
      exo_lp_params p = params_for(1, seed);
      p.max_visits = 1000;
      exo_lp_result r;
      uint64_t *lab = run_ok(&g, &p, &r);
      for (uint64_t v = 0; v < 50; v++) ck_assert_uint_eq(lab[v], 0);
      ck_assert_uint_eq(r.max_visits, 1000);
      free(lab);
    }
    tu_csr_free(&g);
  }
  /* a directed 5-clique {0..4} feeding 4->5->6; node 7 points into it */
  tu_edge f[32];
  size_t ne = 0;
  for (uint64_t i = 0; i < 5; i++)
    for (uint64_t j = 0; j < 5; j++)
      if (i != j) f[ne++] = (tu_edge){i, j, 1.0f};
  f[ne++] = (tu_edge){4, 5, 1.0f};
  f[ne++] = (tu_edge){5, 6, 1.0f};
  f[ne++] = (tu_edge){7, 0, 3.0f};
  f[ne++] = (tu_edge){7, 1, 3.0f};
  tu_csr g;
  tu_csr_build(&g, 8, f, ne, 1, 0);
  for (uint64_t seed = 1; seed <= 10; seed++) {
    exo_lp_params p = params_for(1, seed);
    p.max_visits = 100;
    uint64_t *lab = run_ok(&g, &p, NULL);
    ck_assert_uint_eq(lab[7], 7); /* no in-arcs: never pulled */
    ck_assert_uint_eq(lab[5], lab[4]);
    ck_assert_uint_eq(lab[6], lab[4]);
    free(lab);
  }
  tu_csr_free(&g);
}
END_TEST

/* The tie rule: z (node 2) listens to a (0), b (1) and itself with equal
 * weights, a three-way tie with its own label among the best; every node is
 * processed exactly once. On a visit k <= T = min(12, floor(3 cap / 4)) the
 * pick is uniform among all three labels, own included; with cap 1 (T = 0)
 * z keeps its own label. */
START_TEST(ties_open_then_keep) {
  tu_edge e[3] = {{0, 2, 1.0f}, {1, 2, 1.0f}, {2, 2, 1.0f}};
  tu_csr g;
  tu_csr_build(&g, 3, e, 3, 1, 0);
  uint32_t caps[3] = {0, 4, 1};
  for (int c = 0; c < 3; c++) {
    int got[3] = {0, 0, 0};
    for (uint64_t seed = 1; seed <= 300; seed++) {
      exo_lp_params p = params_for(1, seed);
      p.max_visits = caps[c];
      exo_lp_result r;
      uint64_t *lab = run_ok(&g, &p, &r);
      ck_assert_uint_eq(r.pops, 3);
      ck_assert_uint_eq(lab[0], 0);
      ck_assert_uint_eq(lab[1], 1);
      ck_assert_uint_le(lab[2], 2);
      got[lab[2]]++;
      uint64_t *again = run_ok(&g, &p, NULL); /* the seed decides */
      ck_assert_uint_eq(again[2], lab[2]);
      free(again);
      free(lab);
    }
    if (caps[c] == 1) {
      ck_assert_int_eq(got[2], 300);
    } else { /* uniform: 100 expected each */
      for (int i = 0; i < 3; i++) {
        ck_assert_int_ge(got[i], 70);
        ck_assert_int_le(got[i], 130);
      }
    }
  }
  tu_csr_free(&g);
}
END_TEST

START_TEST(max_visits_cap) {
  /* a ring: every node sees two labels, lots of churn */
  enum { N = 2000 };
  tu_edge *e = malloc(N * sizeof *e);
  for (uint64_t v = 0; v < N; v++) e[v] = (tu_edge){v, (v + 1) % N, 1.0f};
  tu_csr g;
  tu_csr_build(&g, N, e, N, 0, 0);
  exo_lp_params p = params_for(0, 7);
  p.max_visits = 1;
  exo_lp_result r;
  uint64_t *lab = run_ok(&g, &p, &r);
  ck_assert_uint_eq(r.max_visits, 1);
  ck_assert_uint_eq(r.pops, N);
  ck_assert_uint_eq(r.rounds, 1);
  free(lab);
  p.max_visits = 3;
  lab = run_ok(&g, &p, &r);
  ck_assert_uint_eq(r.max_visits, 3);
  ck_assert_uint_le(r.pops, 3 * N);
  ck_assert_uint_gt(r.pops, N);
  free(lab);
  p.max_visits = 100000; /* above the hard cap */
  lab = run_ok(&g, &p, &r);
  ck_assert_uint_eq(r.max_visits, EXO_LP_MAX_VISITS);
  free(lab);
  tu_csr_free(&g);
  free(e);
}
END_TEST

START_TEST(seeds_reproduce_and_differ) {
  enum { N = 300 };
  tu_edge e[N];
  for (uint64_t v = 0; v < N; v++) e[v] = (tu_edge){v, (v + 1) % N, 1.0f};
  tu_csr g;
  tu_csr_build(&g, N, e, N, 0, 0);
  uint64_t *first = NULL;
  int differs = 0;
  for (uint64_t seed = 1; seed <= 6; seed++) {
    exo_lp_params p = params_for(0, seed);
    exo_lp_result r1, r2;
    uint64_t *a = run_ok(&g, &p, &r1);
    uint64_t *b = run_ok(&g, &p, &r2);
    ck_assert_mem_eq(a, b, N * sizeof *a);
    ck_assert_uint_eq(r1.pops, r2.pops);
    ck_assert_uint_eq(r1.changes, r2.changes);
    ck_assert_uint_eq(r1.rounds, r2.rounds);
    if (!first) {
      first = a;
    } else {
      if (memcmp(first, a, N * sizeof *a) != 0) differs = 1;
      free(a);
    }
    free(b);
  }
  ck_assert_msg(differs, "six seeds gave identical labels on a ring");
  free(first);
  tu_csr_free(&g);
}
END_TEST

START_TEST(attenuation_runs_deterministically) {
  enum { K = 10, S = 5 };
  tu_edge e[K * S * S];
  size_t ne = 0;
  for (uint64_t c = 0; c < K; c++) {
    ne = tu_add_clique(e, ne, c * S, S, 1.0f);
    e[ne++] = (tu_edge){c * S, ((c + 1) % K) * S + 1, 1.0f};
    e[ne++] = (tu_edge){c * S + 2, ((c + 3) % K) * S + 3, 0.5f};
  }
  tu_csr g;
  tu_csr_build(&g, K * S, e, ne, 0, 0);
  const double atts[] = {0.5, 1.0, 2.0};
  for (int i = 0; i < 3; i++) {
    for (uint64_t seed = 1; seed <= 3; seed++) {
      exo_lp_params p = params_for(0, seed);
      p.attenuation = atts[i];
      exo_lp_result r1, r2;
      uint64_t *a = run_ok(&g, &p, &r1);
      uint64_t *b = run_ok(&g, &p, &r2);
      ck_assert_mem_eq(a, b, K * S * sizeof *a);
      ck_assert_uint_eq(r1.pops, r2.pops);
      ck_assert_uint_eq(r1.rounds, r2.rounds);
      ck_assert_uint_ge(r1.pops, K * S);
      ck_assert_uint_gt(r1.changes, 0);
      uint64_t k = count_labels(a, K * S);
      ck_assert_uint_ge(k, 1);
      ck_assert_uint_lt(k, K * S);
      free(a);
      free(b);
    }
  }
  /* directed, with attenuation: the chain still carries label 0 down */
  tu_edge c[19];
  for (uint64_t v = 0; v < 19; v++) c[v] = (tu_edge){v, v + 1, 1.0f};
  tu_csr h;
  tu_csr_build(&h, 20, c, 19, 1, 0);
  exo_lp_params p = params_for(1, 3);
  p.attenuation = 1.0;
  p.max_visits = 1000;
  uint64_t *lab = run_ok(&h, &p, NULL);
  for (uint64_t v = 0; v < 20; v++) ck_assert_uint_le(lab[v], v);
  free(lab);
  tu_csr_free(&h);
  tu_csr_free(&g);
}
END_TEST

START_TEST(empty_graph) {
  tu_csr g;
  tu_csr_build(&g, 10, NULL, 0, 0, 0);
  exo_lp_params p = params_for(0, 1);
  exo_lp_result r;
  uint64_t *lab = run_ok(&g, &p, &r);
  for (uint64_t v = 0; v < 10; v++) ck_assert_uint_eq(lab[v], v);
  ck_assert_uint_eq(r.pops, 10);
  ck_assert_uint_eq(r.changes, 0);
  ck_assert_uint_eq(r.rounds, 1);
  ck_assert_uint_eq(r.max_visits, EXO_LP_AUTO_MIN_VISITS);
  free(lab);
  tu_csr_free(&g);
  /* and no nodes at all */
  tu_csr_build(&g, 0, NULL, 0, 1, 0);
  p = params_for(1, 1);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_lp_run(&g.csr, &p, &ctx, &r), EXO_OK);
  ck_assert_uint_eq(r.pops, 0);
  ck_assert_uint_eq(r.rounds, 0);
  free(r.labels);
  tu_csr_free(&g);
}
END_TEST

START_TEST(star_larger_than_buffer) {
  enum { LEAVES = 200000 };
  tu_edge *e = malloc(LEAVES * sizeof *e);
  for (uint64_t i = 0; i < LEAVES; i++) e[i] = (tu_edge){0, i + 1, 1.0f};
  tu_csr g;
  tu_csr_build(&g, LEAVES + 1, e, LEAVES, 0, 0);
  for (uint64_t seed = 1; seed <= 3; seed++) {
    exo_lp_params p = params_for(0, seed);
    p.memory_limit = 1; /* buffer: the 64 KiB floor = 8192 entries */
    exo_lp_result rs, rb;
    uint64_t *small = run_ok(&g, &p, &rs);
    ck_assert_uint_eq(rs.max_visits, 447); /* floor(sqrt(200000)) */
    for (uint64_t v = 1; v <= LEAVES; v++) ck_assert_uint_eq(small[v], small[0]);
    p.memory_limit = (uint64_t)1 << 30; /* one chunk: same answer */
    uint64_t *big = run_ok(&g, &p, &rb);
    ck_assert_mem_eq(small, big, (LEAVES + 1) * sizeof *small);
    ck_assert_uint_eq(rs.pops, rb.pops);
    free(small);
    free(big);
  }
  tu_csr_free(&g);
  free(e);
}
END_TEST

static void expect_internal(const exo_csr_files *csr, const char *path_in_msg) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_lp_params p = params_for(0, 1);
  exo_lp_result r;
  r.labels = (uint64_t *)&r; /* must be reset */
  ck_assert_int_eq(exo_lp_run(csr, &p, &ctx, &r), EXO_EINTERNAL);
  ck_assert_ptr_null(r.labels);
  ck_assert_msg(strstr(ctx.err.msg, path_in_msg) != NULL, "message '%s' lacks '%s'",
                ctx.err.msg, path_in_msg);
}

START_TEST(corrupt_csr_is_internal_error) {
  tu_edge e[] = {{0, 1, 1.0f}, {1, 2, 1.0f}, {2, 3, 1.0f}};
  tu_csr g;
  tu_csr_build(&g, 4, e, 3, 0, 0);
  int fds = open_fds();
  uint64_t good[5] = {0, 1, 3, 5, 6};
  size_t len;
  char *orig = tu_read_file(g.offp, &len);
  ck_assert_uint_eq(len, sizeof good);
  ck_assert_mem_eq(orig, good, sizeof good);

  uint64_t bad1[5] = {0, 3, 1, 5, 6}; /* decreasing */
  ck_assert_int_eq(tu_write_file(g.offp, bad1, sizeof bad1), 0);
  expect_internal(&g.csr, g.offp);
  uint64_t bad2[5] = {0, 1, 3, 5, 7}; /* offsets[n] != m */
  ck_assert_int_eq(tu_write_file(g.offp, bad2, sizeof bad2), 0);
  expect_internal(&g.csr, g.offp);
  uint64_t bad3[5] = {1, 1, 3, 5, 6}; /* offsets[0] != 0 */
  ck_assert_int_eq(tu_write_file(g.offp, bad3, sizeof bad3), 0);
  expect_internal(&g.csr, g.offp);
  ck_assert_int_eq(tu_write_file(g.offp, good, 32), 0); /* truncated */
  expect_internal(&g.csr, g.offp);
  ck_assert_int_eq(tu_write_file(g.offp, good, sizeof good), 0);

  /* adjacency of the wrong size (as if it were wide) */
  exo_csr_files wide = g.csr;
  wide.wide = 1;
  expect_internal(&wide, g.adjp);
  /* a neighbour id out of range */
  char *adj = tu_read_file(g.adjp, &len);
  exo_adj_encode((uint8_t *)adj + 8 * 2, 0, 99, 1.0f);
  ck_assert_int_eq(tu_write_file(g.adjp, adj, len), 0);
  expect_internal(&g.csr, g.adjp);
  free(adj);
  free(orig);
  ck_assert_int_eq(open_fds(), fds);

  /* a missing file is an I/O error naming it */
  exo_csr_files missing = g.csr;
  missing.offsets_path = "/nonexistent-exo/offsets";
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_lp_params p = params_for(0, 1);
  exo_lp_result r;
  ck_assert_int_eq(exo_lp_run(&missing, &p, &ctx, &r), EXO_EIO);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "/nonexistent-exo/offsets"));
  tu_csr_free(&g);
}
END_TEST

typedef struct intr_state {
  int calls, stop_at;
  uint64_t last_done;
  int progress_calls;
} intr_state;

static int intr_cb(void *user) {
  intr_state *s = user;
  return ++s->calls >= s->stop_at;
}

static void progress_cb(void *user, exo_stage stage, uint64_t done, uint64_t total) {
  intr_state *s = user;
  ck_assert_int_eq(stage, EXO_STAGE_CLUSTER);
  ck_assert_uint_eq(total, 0);
  ck_assert_uint_ge(done, s->last_done);
  s->last_done = done;
  s->progress_calls++;
}

START_TEST(interrupt_and_progress) {
  enum { N = 50000 };
  tu_edge *e = malloc(N * sizeof *e);
  for (uint64_t v = 0; v < N; v++) e[v] = (tu_edge){v, (v + 1) % N, 1.0f};
  tu_csr g;
  tu_csr_build(&g, N, e, N, 0, 0);
  int fds = open_fds();
  /* uninterrupted: progress is monotone and ends at pops */
  intr_state st = {0, 1 << 30, 0, 0};
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ctx.cb.user = &st;
  ctx.cb.interrupted = intr_cb;
  ctx.cb.progress = progress_cb;
  exo_lp_params p = params_for(0, 5);
  exo_lp_result r;
  ck_assert_int_eq(exo_lp_run(&g.csr, &p, &ctx, &r), EXO_OK);
  ck_assert_uint_eq(st.last_done, r.pops);
  ck_assert_int_ge(st.progress_calls, 2 + (int)(N / 4096));
  ck_assert_int_ge(st.calls, (int)(N / 4096));
  free(r.labels);
  /* interrupted after a few polls */
  for (int stop = 1; stop <= 6; stop++) {
    intr_state si = {0, stop, 0, 0};
    exo_ctx_init(&ctx);
    ctx.cb.user = &si;
    ctx.cb.interrupted = intr_cb;
    r.labels = (uint64_t *)&r;
    ck_assert_int_eq(exo_lp_run(&g.csr, &p, &ctx, &r), EXO_EINTR);
    ck_assert_int_eq(ctx.err.code, EXO_EINTR);
    ck_assert_ptr_null(r.labels);
    ck_assert_int_eq(si.calls, stop);
  }
  ck_assert_int_eq(open_fds(), fds);
  tu_csr_free(&g);
  free(e);
}
END_TEST

START_TEST(narrow_and_wide_agree) {
  enum { N = 3000, M = 12000 };
  tu_edge *e = malloc(M * sizeof *e);
  exo_rng rng;
  exo_rng_seed(&rng, 99);
  for (size_t i = 0; i < M; i++)
    e[i] = (tu_edge){exo_rng_below(&rng, N), exo_rng_below(&rng, N),
                   (float)(1 + exo_rng_below(&rng, 4))};
  for (int directed = 0; directed <= 1; directed++) {
    tu_csr a, b;
    tu_csr_build(&a, N, e, M, directed, 0);
    tu_csr_build(&b, N, e, M, directed, 1);
    exo_lp_params p = params_for(directed, 11);
    p.attenuation = 0.7;
    exo_lp_result ra, rb;
    uint64_t *la = run_ok(&a, &p, &ra);
    uint64_t *lb = run_ok(&b, &p, &rb);
    ck_assert_mem_eq(la, lb, N * sizeof *la);
    ck_assert_uint_eq(ra.pops, rb.pops);
    ck_assert_uint_lt(count_labels(la, N), N);
    /* u64 labels in memory (as with more than 2^32 nodes) agree too */
    p.force_wide_labels = 1;
    exo_lp_result rc;
    uint64_t *lc = run_ok(&b, &p, &rc);
    ck_assert_mem_eq(la, lc, N * sizeof *la);
    ck_assert_uint_eq(ra.pops, rc.pops);
    ck_assert_uint_eq(ra.changes, rc.changes);
    free(lc);
    free(la);
    free(lb);
    tu_csr_free(&a);
    tu_csr_free(&b);
  }
  free(e);
}
END_TEST

/* A graph of `k` planted 8-node communities (dense inside, one bridge to
 * another random community each), node ids shuffled so that communities are
 * spread over the whole id range and the adjacency file. */
static tu_edge *planted_graph(uint64_t k, uint64_t seed, size_t *ne_out, uint64_t **comm_out) {
  const uint64_t S = 8, n = k * S;
  exo_rng rng;
  exo_rng_seed(&rng, seed);
  uint64_t *perm = malloc(n * sizeof *perm);
  for (uint64_t i = 0; i < n; i++) perm[i] = i;
  for (uint64_t i = n; i > 1; i--) {
    uint64_t j = exo_rng_below(&rng, i), t = perm[i - 1];
    perm[i - 1] = perm[j];
    perm[j] = t;
  }
  uint64_t *comm = malloc(n * sizeof *comm);
  tu_edge *e = malloc((k * S * (S - 1) / 2 + k) * sizeof *e);
  size_t ne = 0;
  for (uint64_t c = 0; c < k; c++) {
    for (uint64_t i = 0; i < S; i++) {
      comm[perm[c * S + i]] = c;
      for (uint64_t j = i + 1; j < S; j++)
        e[ne++] = (tu_edge){perm[c * S + i], perm[c * S + j],
                          (float)(1 + exo_rng_below(&rng, 3))};
    }
    uint64_t d = exo_rng_below(&rng, k);
    if (d != c) e[ne++] = (tu_edge){perm[c * S], perm[d * S + 1 + exo_rng_below(&rng, S - 1)], 1.0f};
  }
  free(perm);
  *ne_out = ne;
  *comm_out = comm;
  return e;
}

/* Two runs of one graph gave the same labels and the same counts. */
static void expect_same_run(const uint64_t *lab, const exo_lp_result *r, const uint64_t *ref,
                            const exo_lp_result *r0, uint64_t n) {
  ck_assert_mem_eq(lab, ref, n * sizeof *lab);
  ck_assert_uint_eq(r->pops, r0->pops);
  ck_assert_uint_eq(r->changes, r0->changes);
  ck_assert_uint_eq(r->rounds, r0->rounds);
  ck_assert_uint_eq(r->max_visits, r0->max_visits);
  ck_assert_uint_eq(r->lanes, r0->lanes);
  ck_assert_uint_eq(r->epochs, r0->epochs);
}

START_TEST(memory_limit_does_not_change_results) {
  size_t ne;
  uint64_t *comm;
  tu_edge *e = planted_graph(3000, 5, &ne, &comm);
  const uint64_t n = 3000 * 8;
  const uint64_t limits[] = {1, (uint64_t)300 << 10, (uint64_t)1 << 20, (uint64_t)5 << 20,
                             (uint64_t)1 << 30};
  /* ThreadSanitizer build: undirected only */
  for (int directed = 0; directed <= TU_TSAN(1, 0); directed++) {
    tu_csr g;
    tu_csr_build(&g, n, e, ne, directed, directed);
    for (int att = 0; att <= 2; att++) { /* 2: the volume penalty */
      exo_lp_params p = params_for(directed, 77);
      p.attenuation = att == 1 ? 0.5 : 0.0;
      p.self_loop_cutoff = att == 1 ? 1.5 : 0.0;
      p.resolution = att == 2 ? 1.0 : 0.0;
      exo_lp_result r0;
      p.memory_limit = limits[0];
      uint64_t *ref = run_ok(&g, &p, &r0);
      ck_assert_uint_gt(r0.changes, n / 2);
      ck_assert_uint_gt(r0.reads, 1);
      for (size_t i = 1; i < sizeof limits / sizeof *limits; i++) {
        exo_lp_result r;
        p.memory_limit = limits[i];
        uint64_t *lab = run_ok(&g, &p, &r);
        expect_same_run(lab, &r, ref, &r0, n);
        free(lab);
      }
      free(ref);
    }
    tu_csr_free(&g);
  }
  free(e);
  free(comm);
}
END_TEST

START_TEST(csr_much_larger_than_buffer) {
  /* 40000 communities: 2.3 M arcs, an 18.6 MB adjacency file read through a
   * 64 KiB buffer (memory_limit 1) and a 1 MiB buffer (memory_limit 4 MiB),
   * about 256 KiB at a time */
  const uint64_t k = 40000, n = k * 8;
  size_t ne;
  uint64_t *comm;
  tu_edge *e = planted_graph(k, 9, &ne, &comm);
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 0, 0);
  const uint64_t file = g.csr.m * 8;
  ck_assert_uint_gt(file, 100 * ((uint64_t)64 << 10));

  /* one visit per node: one sequential pass per lane, every byte read
   * once, except that each lane's epoch starts a fresh window: its first
   * read starts on the page boundary below (re-reading at most one page of
   * the previous epoch) and its last read ends on the page boundary above
   * (at most one page of the next) */
  exo_lp_params p = params_for(0, 3);
  p.max_visits = 1;
  p.memory_limit = (uint64_t)4 << 20;
  exo_lp_result r1;
  uint64_t *lab = run_ok(&g, &p, &r1);
  ck_assert_uint_eq(r1.rounds, 1);
  ck_assert_uint_eq(r1.pops, n);
  ck_assert_uint_eq(r1.lanes, EXO_LP_LANES); /* 313 blocks */
  const uint64_t lane_epochs = r1.lanes * r1.epochs;
  ck_assert_uint_ge(r1.bytes_read, file);
  ck_assert_uint_le(r1.bytes_read, file + lane_epochs * 2 * 4096);
  /* read ahead in steps of about 256 KiB (cache-sized), not buffer-sized,
   * and at least one read per lane and epoch */
  ck_assert_uint_le(r1.reads, file / ((uint64_t)256 << 10) + lane_epochs + 2);
  ck_assert_uint_ge(r1.reads, file / ((uint64_t)320 << 10));
  free(lab);

  p.max_visits = 0;
  exo_lp_result rs, rb;
  uint64_t *big = run_ok(&g, &p, &rb);
  /* later sweeps only read what is active, never more than a pass each */
  ck_assert_uint_ge(rb.bytes_read, file);
  ck_assert_uint_le(rb.bytes_read, rb.rounds * (file + ((uint64_t)1 << 20)));
  p.memory_limit = 1;
  uint64_t *small = run_ok(&g, &p, &rs);
  ck_assert_mem_eq(small, big, n * sizeof *big);
  ck_assert_uint_eq(rs.rounds, rb.rounds);
  ck_assert_uint_gt(rs.reads, file / ((uint64_t)64 << 10));
  /* the communities are found: nearly every community has one label, and
   * no label spans more than a handful of them */
  uint64_t pure = 0;
  uint64_t *first = malloc(k * sizeof *first);
  for (uint64_t c = 0; c < k; c++) first[c] = UINT64_MAX;
  uint64_t *mixed = calloc(k, sizeof *mixed);
  for (uint64_t v = 0; v < n; v++) {
    uint64_t c = comm[v];
    if (first[c] == UINT64_MAX) first[c] = small[v];
    else if (first[c] != small[v]) mixed[c] = 1;
  }
  for (uint64_t c = 0; c < k; c++) pure += !mixed[c];
  ck_assert_uint_ge(pure, k * 95 / 100);
  uint64_t labels = count_labels(small, n);
  ck_assert_uint_ge(labels, k / 2);
  ck_assert_uint_le(labels, k + k / 10);
  free(first);
  free(mixed);
  free(small);
  free(big);
  tu_csr_free(&g);
  free(e);
  free(comm);
}
END_TEST

/* Benchmark, only with EXO_LP_BENCH=1: a random undirected graph of 1e6
 * nodes and 1e7 edges (2e7 arcs), CSR written straight from counts. */
START_TEST(bench_random_graph) {
  if (!getenv("EXO_LP_BENCH")) return;
  const uint64_t n = 1000000, ne = 10000000, m = 2 * ne;
  exo_rng rng;
  exo_rng_seed(&rng, 2024);
  uint32_t *ea = malloc(ne * 4), *eb = malloc(ne * 4);
  uint64_t *off = calloc(n + 1, 8);
  for (uint64_t i = 0; i < ne; i++) {
    ea[i] = (uint32_t)exo_rng_below(&rng, n);
    eb[i] = (uint32_t)exo_rng_below(&rng, n);
    off[ea[i] + 1]++;
    off[eb[i] + 1]++;
  }
  for (uint64_t v = 0; v < n; v++) off[v + 1] += off[v];
  uint64_t *pos = malloc(n * 8);
  memcpy(pos, off, n * 8);
  uint32_t *nbr = malloc(m * 4);
  for (uint64_t i = 0; i < ne; i++) {
    nbr[pos[ea[i]]++] = eb[i];
    nbr[pos[eb[i]]++] = ea[i];
  }
  uint8_t *adj = malloc(m * 8);
  for (uint64_t v = 0; v < n; v++) {
    /* insertion sort of the short list by neighbour */
    for (uint64_t i = off[v] + 1; i < off[v + 1]; i++) {
      uint32_t x = nbr[i];
      uint64_t j = i;
      while (j > off[v] && nbr[j - 1] > x) {
        nbr[j] = nbr[j - 1];
        j--;
      }
      nbr[j] = x;
    }
    for (uint64_t i = off[v]; i < off[v + 1]; i++) exo_adj_encode(adj + i * 8, 0, nbr[i], 1.0f);
  }
  tu_csr g;
  memset(&g, 0, sizeof g);
  g.dir = tu_mkdtemp();
  g.offp = tu_path(g.dir, "csr.off");
  g.adjp = tu_path(g.dir, "csr.adj");
  ck_assert_int_eq(tu_write_file(g.offp, off, (n + 1) * 8), 0);
  ck_assert_int_eq(tu_write_file(g.adjp, adj, m * 8), 0);
  g.csr = (exo_csr_files){g.offp, g.adjp, n, m, 0};
  free(ea);
  free(eb);
  free(pos);
  free(nbr);
  free(adj);
  free(off);
  const double atts[] = {0.0, 1.0};
  for (int i = 0; i < 2; i++) {
    exo_lp_params p = params_for(0, 1);
    p.attenuation = atts[i];
    p.memory_limit = (uint64_t)1 << 30;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    exo_lp_result r;
    uint64_t *lab = run_ok(&g, &p, &r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    fprintf(stderr,
            "bench lp: n=%llu arcs=%llu attenuation=%.1f: %.2f s, pops=%llu, changes=%llu, "
            "rounds=%llu, max_visits=%u, clusters=%llu\n",
            (unsigned long long)n, (unsigned long long)m, atts[i], secs,
            (unsigned long long)r.pops, (unsigned long long)r.changes,
            (unsigned long long)r.rounds, r.max_visits,
            (unsigned long long)count_labels(lab, n));
    free(lab);
  }
  tu_csr_free(&g);
}
END_TEST

/* The volume penalty on a hand-computed case, directed so that the order of
 * events is fixed: a line A B is the arc A -> B and B listens to A. K = hub
 * 0 -> leaves 1..19; T = hub 20 -> leaves 21..24; leaves 1, 2, 3 -> v with
 * weight 1 and leaves 21, 22, 23 -> v with weight 0.95; filler = hub 100 ->
 * leaves 101..171. v = 1024 is in the second block of ids, so in the first
 * sweep every other node has been processed when v is: each leaf has one
 * in-arc and takes its hub's label (hubs have no in-arcs and keep theirs),
 * and nothing changes after v. Arcs are stored at both ends: m = 2 * 100
 * = 200 entries. Label volumes (entries at the label's nodes): K 19 + 19 +
 * 3 = 41, T 4 + 4 + 3 = 11. v has d_v = 6 voting arcs, s_v = 5.85, mean
 * weight 0.975, sums 3 (K) and 2.85 (T); e(l) = gamma * 6 * vol(l) / 200:
 *   gamma = 0:    no penalty, 3 > 2.85: v joins K.
 *   gamma = 0.3:  e(K) = 0.369 -> 0, e(T) -> 0: K (the unrounded LPAm score
 *                 3 - 0.369 * 0.975 = 2.64 < 2.85 would send v to T).
 *   gamma = 0.4:  e(K) = 0.492 -> 0: K.
 *   gamma = 0.42: e(K) = 0.5166 -> 1, score 3 - 0.975 = 2.025; e(T) = 0.139
 *                 -> 0, score 2.85: T.
 *   gamma = 2:    e(K) = 2.46 -> 2, score 1.05; e(T) = 0.66 -> 1, score
 *                 1.875: T. */
START_TEST(volume_penalty_hand_computed) {
  tu_edge e[128];
  size_t ne = 0;
  for (uint64_t u = 1; u < 20; u++) e[ne++] = (tu_edge){0, u, 1.0f};
  for (uint64_t u = 21; u < 25; u++) e[ne++] = (tu_edge){20, u, 1.0f};
  for (uint64_t u = 1; u < 4; u++) e[ne++] = (tu_edge){u, 1024, 1.0f};
  for (uint64_t u = 21; u < 24; u++) e[ne++] = (tu_edge){u, 1024, 0.95f};
  for (uint64_t u = 101; u < 172; u++) e[ne++] = (tu_edge){100, u, 1.0f};
  ck_assert_uint_eq(ne, 100);
  const uint64_t n = 1025;
  const double gammas[] = {0.0, 0.3, 0.4, 0.42, 2.0};
  const int joins_t[] = {0, 0, 0, 1, 1};
  for (int wide = 0; wide <= 1; wide++) {
    tu_csr g;
    tu_csr_build(&g, n, e, ne, 1, wide);
    ck_assert_uint_eq(g.csr.m, 200);
    for (uint64_t seed = 1; seed <= 5; seed++)
      for (int i = 0; i < 5; i++) {
        exo_lp_params p = params_for(1, seed);
        p.resolution = gammas[i];
        exo_lp_result r;
        uint64_t *lab = run_ok(&g, &p, &r);
        for (uint64_t u = 0; u < 20; u++) ck_assert_uint_eq(lab[u], 0);
        for (uint64_t u = 20; u < 25; u++) ck_assert_uint_eq(lab[u], 20);
        ck_assert_uint_eq(lab[1024], joins_t[i] ? 20 : 0);
        ck_assert_uint_eq(r.rounds, 1);
        free(lab);
      }
    tu_csr_free(&g);
  }
  /* bad resolutions are argument errors */
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 1, 0);
  const double bad[] = {-1.0, INFINITY, NAN};
  for (int i = 0; i < 3; i++) {
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_lp_params p = params_for(1, 1);
    p.resolution = bad[i];
    exo_lp_result r;
    ck_assert_int_eq(exo_lp_run(&g.csr, &p, &ctx, &r), EXO_EARG);
    ck_assert_ptr_null(r.labels);
    ck_assert_ptr_nonnull(strstr(ctx.err.msg, "resolution"));
  }
  tu_csr_free(&g);
}
END_TEST

/* Undirected, a node alone in its label may join a neighbour even when the
 * rounded penalty makes that a tie with staying: two 5-cliques joined by one
 * edge (m = 42 arcs), gamma = 1: a node of 4 arcs joining a singleton
 * neighbour of 4 arcs scores 1 - round(4 * 4 / 42 = 0.38) = 1; of 5 arcs
 * (the bridge ends) 1 - round(5 * 4 / 42 = 0.48) = 1 and 1 - round(25 / 42
 * = 0.6) = 0, a tie with staying (0). Each clique still ends as one label. */
START_TEST(volume_penalty_small_cliques) {
  tu_edge e[32];
  size_t ne = tu_add_clique(e, 0, 0, 5, 1.0f);
  ne = tu_add_clique(e, ne, 5, 5, 1.0f);
  e[ne++] = (tu_edge){4, 5, 1.0f};
  tu_csr g;
  tu_csr_build(&g, 10, e, ne, 0, 0);
  int split = 0;
  for (uint64_t seed = 1; seed <= 50; seed++) {
    exo_lp_params p = params_for(0, seed);
    p.resolution = 1.0;
    uint64_t *lab = run_ok(&g, &p, NULL);
    for (int v = 1; v < 5; v++) ck_assert_uint_eq(lab[v], lab[0]);
    for (int v = 6; v < 10; v++) ck_assert_uint_eq(lab[v], lab[5]);
    split += lab[0] != lab[5];
    free(lab);
  }
  ck_assert_int_eq(split, 50); /* one label on both would score below 0 */
  tu_csr_free(&g);
}
END_TEST

/* A noisy planted graph (40 communities of 25 nodes, each node's 20 edges
 * 70% outside its community, unweighted): plain label propagation floods it
 * into one label for most seeds; with the penalty no label ever holds more
 * than twice a community. */
START_TEST(volume_penalty_stops_flood) {
  const uint64_t k = 40, S = 25, n = k * S, per = 10;
  tu_edge *e = malloc(n * per * sizeof *e);
  exo_rng rng;
  exo_rng_seed(&rng, 2024);
  size_t ne = 0;
  for (uint64_t v = 0; v < n; v++)
    for (uint64_t j = 0; j < per; j++) {
      uint64_t u;
      do {
        u = exo_rng_below(&rng, 10) < 3 ? (v / S) * S + exo_rng_below(&rng, S)
                                        : exo_rng_below(&rng, n);
      } while (u == v);
      e[ne++] = (tu_edge){v, u, 1.0f};
    }
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 0, 0);
  uint64_t *size = malloc(n * sizeof *size);
  int floods0 = 0;
  for (uint64_t seed = 1; seed <= 10; seed++) {
    for (int pen = 0; pen <= 1; pen++) {
      exo_lp_params p = params_for(0, seed);
      p.resolution = pen ? 1.0 : 0.0;
      uint64_t *lab = run_ok(&g, &p, NULL);
      memset(size, 0, n * sizeof *size);
      uint64_t big = 0;
      for (uint64_t v = 0; v < n; v++)
        if (++size[lab[v]] > big) big = size[lab[v]];
      if (pen) ck_assert_uint_le(big, 2 * S);
      else floods0 += big > n / 2;
      free(lab);
    }
  }
  ck_assert_int_ge(floods0, 5);
  free(size);
  free(e);
  tu_csr_free(&g);
}
END_TEST

/* One lane, one epoch per sweep, and the same labels with 1 and `threads`
 * threads. */
static void expect_one_lane(tu_csr *g, exo_lp_params p, uint64_t n, uint32_t threads) {
  exo_lp_result r1, rt;
  p.threads = 1;
  uint64_t *a = run_ok(g, &p, &r1);
  p.threads = threads;
  uint64_t *b = run_ok(g, &p, &rt);
  ck_assert_uint_eq(r1.lanes, 1);
  ck_assert_uint_eq(r1.epochs, r1.rounds);
  ck_assert_uint_eq(rt.lanes, 1);
  ck_assert_mem_eq(a, b, n * sizeof *a);
  free(a);
  free(b);
}

/* The sweep runs in fixed lanes and epochs (exo_lp.h): the labels, visits,
 * changes and sweeps must be the same for every `threads` and every
 * memory_limit. The graph (24576 nodes = 24 blocks: 6 lanes of 4 blocks,
 * 2 epochs per sweep) is the planted one plus noise arcs between random
 * nodes and a hub whose list (12000 arcs, 96 KB) is longer than the
 * smallest read buffer, so it is tallied in chunks and read twice. */
START_TEST(threads_do_not_change_results) {
  size_t ne;
  uint64_t *comm;
  const uint64_t k = 3072, n = k * 8, hub_arcs = 12000, noise = 6000;
  tu_edge *e0 = planted_graph(k, 11, &ne, &comm);
  tu_edge *e = realloc(e0, (ne + hub_arcs + noise) * sizeof *e);
  ck_assert_ptr_nonnull(e);
  exo_rng rng;
  exo_rng_seed(&rng, 99);
  for (uint64_t i = 0; i < hub_arcs; i++) {
    uint64_t u = 1 + exo_rng_below(&rng, n - 1);
    e[ne++] = (tu_edge){5, u, 0.5f};
  }
  for (uint64_t i = 0; i < noise; i++) {
    uint64_t a = exo_rng_below(&rng, n), b = exo_rng_below(&rng, n);
    if (a != b) e[ne++] = (tu_edge){a, b, (float)(1 + exo_rng_below(&rng, 2))};
  }
  const uint64_t limits[] = {1, (uint64_t)1 << 30};
  /* ThreadSanitizer build: undirected only (the lanes' threads are the same) */
  for (int directed = 0; directed <= TU_TSAN(1, 0); directed++) {
    tu_csr g;
    tu_csr_build(&g, n, e, ne, directed, directed);
    /* attenuation x resolution; sanitized builds: neither and both */
    for (int cfg = 0; cfg < 4; cfg += TU_SAN(1, 3)) {
      exo_lp_params p = params_for(directed, 4242);
      p.attenuation = (cfg & 1) ? 0.5 : 0.0;
      p.resolution = (cfg & 2) ? 1.0 : 0.0;
      p.threads = 1;
      p.memory_limit = limits[1];
      exo_lp_result r0;
      uint64_t *ref = run_ok(&g, &p, &r0);
      ck_assert_uint_eq(r0.lanes, 6);
      ck_assert_uint_ge(r0.epochs, 2 * r0.rounds - 1); /* 2 per sweep (the last may stop early) */
      ck_assert_uint_gt(r0.rounds, 1);
      ck_assert_uint_gt(r0.changes, n / 2);
      /* the communities are found: most nodes share their community's
       * most common label */
      uint64_t *seen = calloc(k, sizeof *seen);
      uint64_t agree = 0;
      for (uint64_t v = 0; v < n; v++) {
        uint64_t c = comm[v];
        if (!seen[c]) seen[c] = ref[v] + 1;
        agree += seen[c] == ref[v] + 1;
      }
      ck_assert_uint_ge(agree, n * 8 / 10);
      free(seen);
      /* sanitized builds: 2 and 4 threads */
      for (uint32_t threads = TU_SAN(1, 2); threads <= 4; threads += TU_SAN(1, 2)) {
        for (size_t li = 0; li < 2; li++) {
          if (threads == 1 && li == 1) continue;
          p.threads = threads;
          p.memory_limit = limits[li];
          exo_lp_result r;
          uint64_t *lab = run_ok(&g, &p, &r);
          ck_assert_msg(memcmp(lab, ref, n * sizeof *lab) == 0,
                        "labels differ: directed %d cfg %d threads %u limit %llu", directed,
                        cfg, threads, (unsigned long long)limits[li]);
          expect_same_run(lab, &r, ref, &r0, n);
          free(lab);
        }
      }
      free(ref);
    }
    /* the testing hook max_lanes = 1: the one-lane sweep */
    exo_lp_params p1 = params_for(directed, 4242);
    p1.max_lanes = 1;
    expect_one_lane(&g, p1, n, 2);
    tu_csr_free(&g);
  }
  free(e);
  free(comm);
}
END_TEST

/* Fewer than 2 * EXO_LP_LANE_MIN_BLOCKS blocks: one lane, one epoch per
 * sweep, so the sweep is the sequential one the exact-rule tests above
 * encode, whatever `threads` is. */
START_TEST(small_graph_is_one_lane) {
  size_t ne;
  uint64_t *comm;
  const uint64_t k = 800, n = k * 8; /* 6400 nodes: 7 blocks */
  tu_edge *e = planted_graph(k, 3, &ne, &comm);
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 0, 0);
  expect_one_lane(&g, params_for(0, 8), n, 4);
  tu_csr_free(&g);
  free(e);
  free(comm);
}
END_TEST

/* initial labels (issue 57): two 5-cliques joined by one edge. Started
 * from one label for all it keeps that label (from singletons it splits
 * them); started from labels that are not the nodes' own ids (9 for the
 * first clique but node 0, which starts in the second's label 0) each
 * clique ends with its start label, node 0 back in 9; the same with the
 * volume penalty (its volumes start as the labels' degree sums) and u64
 * labels; a label >= n is refused (EXO_EARG, naming the node). */
START_TEST(initial_labels) {
  tu_edge e[32];
  size_t ne = tu_add_clique(e, 0, 0, 5, 1.0f);
  ne = tu_add_clique(e, ne, 5, 5, 1.0f);
  e[ne++] = (tu_edge){4, 5, 1.0f};
  for (int wide = 0; wide <= 1; wide++) {
    tu_csr g;
    tu_csr_build(&g, 10, e, ne, 0, wide);
    for (uint64_t seed = 1; seed <= 8; seed++)
      for (int res = 0; res <= 1; res++) {
        uint64_t one[10], two[10] = {0, 9, 9, 9, 9, 0, 0, 0, 0, 0};
        for (int v = 0; v < 10; v++) one[v] = 7;
        exo_lp_params p = params_for(0, seed);
        p.resolution = res ? 0.5 : 0.0;
        p.force_wide_labels = wide;
        p.initial = one;
        uint64_t *lab = run_ok(&g, &p, NULL);
        for (int v = 0; v < 10; v++) ck_assert_uint_eq(lab[v], 7);
        free(lab);
        p.initial = two;
        lab = run_ok(&g, &p, NULL);
        for (int v = 0; v < 10; v++) ck_assert_uint_eq(lab[v], v < 5 ? 9 : 0);
        free(lab);
      }
    uint64_t bad[10] = {0, 1, 2, 3, 4, 5, 6, 10, 8, 9};
    exo_lp_params p = params_for(0, 1);
    p.initial = bad;
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_lp_result r;
    ck_assert_int_eq(exo_lp_run(&g.csr, &p, &ctx, &r), EXO_EARG);
    ck_assert_ptr_null(r.labels);
    ck_assert_ptr_nonnull(strstr(ctx.err.msg, "node 7"));
    tu_csr_free(&g);
  }
}
END_TEST


Suite *lp_suite(void) {
  Suite *s = suite_create("lp");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, two_cliques_split);
  tcase_add_test(tc, initial_labels);
  tcase_add_test(tc, components_never_share);
  tcase_add_test(tc, ring_of_cliques);
  tcase_add_test(tc, heavy_edge_decides);
  tcase_add_test(tc, self_loop_cutoff_blocks_light_arcs);
  tcase_add_test(tc, directed_chain_and_no_upstream);
  tcase_add_test(tc, max_visits_cap);
  tcase_add_test(tc, ties_open_then_keep);
  tcase_add_test(tc, seeds_reproduce_and_differ);
  tcase_add_test(tc, attenuation_runs_deterministically);
  tcase_add_test(tc, empty_graph);
  tcase_add_test(tc, star_larger_than_buffer);
  tcase_add_test(tc, corrupt_csr_is_internal_error);
  tcase_add_test(tc, interrupt_and_progress);
  tcase_add_test(tc, narrow_and_wide_agree);
  tcase_add_test(tc, memory_limit_does_not_change_results);
  tcase_add_test(tc, csr_much_larger_than_buffer);
  tcase_add_test(tc, bench_random_graph);
  tcase_add_test(tc, volume_penalty_hand_computed);
  tcase_add_test(tc, volume_penalty_small_cliques);
  tcase_add_test(tc, volume_penalty_stops_flood);
  tcase_add_test(tc, threads_do_not_change_results);
  tcase_add_test(tc, small_graph_is_one_lane);
  suite_add_tcase(s, tc);
  return s;
}
