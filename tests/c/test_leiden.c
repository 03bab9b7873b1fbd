/* test_leiden.c: the Leiden module (exo_leiden.h) on small CSR graphs built
 * here: gains computed by hand, connectivity of the refined and final
 * communities (checked with a BFS here), the coarse CSR against one summed
 * here from the edge list, and the same result for any memory_limit. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_leiden.h"
#include "exo_record.h"
#include "exo_rng.h"
#include "testutil.h"

static exo_leiden_params lparams(const char *tmpdir, exo_leiden_objective obj, double res,
                                 uint64_t mem) {
  exo_leiden_params p;
  memset(&p, 0, sizeof p);
  p.objective = obj;
  p.resolution = res;
  p.seed = 42;
  p.memory_limit = mem;
  p.tmpdir = tmpdir;
  return p;
}

static char *write_u64s(const char *dir, const char *name, const uint64_t *x, size_t n) {
  char *path = tu_path(dir, name);
  ck_assert_int_eq(tu_write_file(path, x, n * 8), 0);
  return path;
}

/* Planted graph: blocks of `bs` nodes, `per` edges per node, a share `in10`
 * tenths of them inside the block; weights 1 or random in (0.5, 1.5]. */
static size_t planted(tu_edge *e, uint64_t n, uint64_t bs, uint64_t per, unsigned in10,
                      int weighted, uint64_t seed) {
  exo_rng rng;
  exo_rng_seed(&rng, seed);
  size_t ne = 0;
  for (uint64_t a = 0; a < n; a++)
    for (uint64_t k = 0; k < per; k++) {
      uint64_t b = exo_rng_below(&rng, 10) < in10 ? (a / bs) * bs + exo_rng_below(&rng, bs)
                                                  : exo_rng_below(&rng, n);
      if (b >= n || b == a) continue;
      float w = weighted ? 0.5f + (float)exo_rng_below(&rng, 1000) / 1000.0f : 1.0f;
      e[ne++] = (tu_edge){a, b, w};
    }
  return ne;
}

/* Is every group of `lab` connected in the graph? (BFS inside each group;
 * labels < n.) Returns the number of groups found disconnected. */
static uint64_t disconnected_groups(uint64_t n, const tu_edge *e, size_t ne,
                                    const uint64_t *lab) {
  uint64_t *deg = calloc(n + 1, 8), *adj = malloc(2 * ne * 8 + 8), *seen = calloc(n, 8);
  uint64_t *queue = malloc(n * 8), *done_group = calloc(n, 8);
  for (size_t i = 0; i < ne; i++) {
    deg[e[i].a + 1]++;
    deg[e[i].b + 1]++;
  }
  for (uint64_t v = 0; v < n; v++) deg[v + 1] += deg[v];
  uint64_t *fill = malloc((n + 1) * 8);
  memcpy(fill, deg, (n + 1) * 8);
  for (size_t i = 0; i < ne; i++) {
    adj[fill[e[i].a]++] = e[i].b;
    adj[fill[e[i].b]++] = e[i].a;
  }
  uint64_t bad = 0;
  for (uint64_t s = 0; s < n; s++) {
    if (seen[s]) continue;
    if (done_group[lab[s]]) bad++; /* a second component of a group */
    done_group[lab[s]] = 1;
    uint64_t head = 0, tail = 0;
    queue[tail++] = s;
    seen[s] = 1;
    while (head < tail) {
      uint64_t v = queue[head++];
      for (uint64_t j = deg[v]; j < deg[v + 1]; j++) {
        uint64_t u = adj[j];
        if (!seen[u] && lab[u] == lab[v]) {
          seen[u] = 1;
          queue[tail++] = u;
        }
      }
    }
  }
  free(deg);
  free(adj);
  free(seen);
  free(queue);
  free(done_group);
  free(fill);
  return bad;
}

/* Two triangles {0,1,2} and {3,4,5} joined by the edge 2-3. */
static const tu_edge two_triangles[7] = {{0, 1, 1}, {0, 2, 1}, {1, 2, 1}, {3, 4, 1},
                                         {3, 5, 1}, {4, 5, 1}, {2, 3, 1}};

START_TEST(test_gains_by_hand) {
  tu_csr g;
  tu_csr_build(&g, 6, two_triangles, 7, 0, 0);
  uint64_t init[6] = {0, 0, 0, 0, 4, 4}; /* 3 with the first triangle */
  char *initp = write_u64s(g.dir, "init.bin", init, 6);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, 1 << 20);
  exo_leiden_level *lv = NULL;
  ck_assert_int_eq(exo_leiden_level_open(&g.csr, &p, NULL, initp, 1, &ctx, &lv), EXO_OK);
  /* degrees 2 2 3 3 2 2, 2m = 14, g' = 1/14. Moving 3 to {4,5}:
   * (2 - 3*4/14) - (1 - 3*7/14) = 1 + 9/14 */
  double d;
  ck_assert_int_eq(exo_leiden_level_gain(lv, 3, 4, &d), EXO_OK);
  ck_assert_double_eq_tol(d, 23.0 / 14.0, 1e-12);
  /* isolating 3 (community 1 is empty): 0 - (1 - 21/14) */
  ck_assert_int_eq(exo_leiden_level_gain(lv, 3, 1, &d), EXO_OK);
  ck_assert_double_eq_tol(d, 0.5, 1e-12);
  /* moving 2 to {4,5}: no arc there: (0 - 3*4/14) - (3 - 3*7/14) */
  ck_assert_int_eq(exo_leiden_level_gain(lv, 2, 4, &d), EXO_OK);
  ck_assert_double_eq_tol(d, -12.0 / 14.0 - 3.0 + 21.0 / 14.0, 1e-12);
  uint64_t moves, sweeps;
  ck_assert_int_eq(exo_leiden_level_move(lv, &moves, &sweeps), EXO_OK);
  ck_assert_uint_eq(moves, 1); /* only 3 moves */
  uint64_t comm[6];
  exo_leiden_level_partition(lv, comm, NULL);
  ck_assert_uint_eq(comm[3], 4);
  ck_assert_uint_eq(comm[5], 4);
  ck_assert_uint_eq(comm[0], 0);
  ck_assert_uint_eq(comm[2], 0);
  ck_assert_uint_eq(exo_leiden_level_communities(lv), 2);
  /* Q = 2 (6 - 7*7/14) / 14 = 5/14 */
  double q;
  ck_assert_int_eq(exo_leiden_level_quality(lv, &q), EXO_OK);
  ck_assert_double_eq_tol(q, 5.0 / 14.0, 1e-12);
  exo_leiden_level_free(lv);

  /* CPM, g = 0.5, node weights 1: (2 - 0.5*2) - (1 - 0.5*3) = 1.5 */
  p = lparams(g.dir, EXO_LEIDEN_CPM, 0.5, 1 << 20);
  ck_assert_int_eq(exo_leiden_level_open(&g.csr, &p, NULL, initp, 1, &ctx, &lv), EXO_OK);
  ck_assert_int_eq(exo_leiden_level_gain(lv, 3, 4, &d), EXO_OK);
  ck_assert_double_eq_tol(d, 1.5, 1e-12);
  ck_assert_int_eq(exo_leiden_level_move(lv, &moves, &sweeps), EXO_OK);
  /* H = 2 * (3 - 0.5 * 3 * 2 / 2) = 3 */
  ck_assert_int_eq(exo_leiden_level_quality(lv, &q), EXO_OK);
  ck_assert_double_eq_tol(q, 3.0, 1e-12);
  exo_leiden_level_free(lv);
  free(initp);
  tu_csr_free(&g);
}
END_TEST

/* From singletons, a weighted example: node 0 is tied to 1 (w 3) and 2
 * (w 1); 1 and 2 are otherwise alone. Node 0's first gain to 1's
 * community is 3 - 4*4/10 = 1.4, to 2's 1 - 4*2/10 = 0.2. */
START_TEST(test_gains_from_singletons) {
  tu_edge e[3] = {{0, 1, 3}, {0, 2, 1}, {2, 3, 1}};
  tu_csr g;
  tu_csr_build(&g, 4, e, 3, 0, 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, 1 << 20);
  exo_leiden_level *lv = NULL;
  ck_assert_int_eq(exo_leiden_level_open(&g.csr, &p, NULL, NULL, 1, &ctx, &lv), EXO_OK);
  /* degrees 4 3 2 1, 2m = 10; 0 is alone: staying gains 0 */
  double d;
  ck_assert_int_eq(exo_leiden_level_gain(lv, 0, 1, &d), EXO_OK);
  ck_assert_double_eq_tol(d, 3.0 - 4.0 * 3.0 / 10.0, 1e-12);
  ck_assert_int_eq(exo_leiden_level_gain(lv, 0, 2, &d), EXO_OK);
  ck_assert_double_eq_tol(d, 1.0 - 4.0 * 2.0 / 10.0, 1e-12);
  ck_assert_int_eq(exo_leiden_level_gain(lv, 2, 3, &d), EXO_OK);
  ck_assert_double_eq_tol(d, 1.0 - 2.0 * 1.0 / 10.0, 1e-12);
  uint64_t moves, sweeps, comm[4];
  ck_assert_int_eq(exo_leiden_level_move(lv, &moves, &sweeps), EXO_OK);
  exo_leiden_level_partition(lv, comm, NULL);
  /* whatever the order: {0,1} and {2,3} (Q = ((6-7*7/10) + (2-3*3/10))/10
   * beats every other partition of this path) */
  ck_assert_uint_eq(comm[0], comm[1]);
  ck_assert_uint_eq(comm[2], comm[3]);
  ck_assert_uint_ne(comm[0], comm[2]);
  double q;
  ck_assert_int_eq(exo_leiden_level_quality(lv, &q), EXO_OK);
  ck_assert_double_eq_tol(q, ((6.0 - 4.9) + (2.0 - 0.9)) / 10.0, 1e-12);
  exo_leiden_level_free(lv);
  tu_csr_free(&g);
}
END_TEST

/* A community made of two cliques with no edge between them (given as the
 * initial partition): refinement splits it; refined communities never mix
 * the cliques and stay inside their community. */
START_TEST(test_refine_splits_disconnected) {
  tu_edge e[64];
  size_t ne = tu_add_clique(e, 0, 0, 5, 1.0f);
  ne = tu_add_clique(e, ne, 5, 5, 1.0f);
  ne = tu_add_clique(e, ne, 10, 4, 1.0f);
  e[ne++] = (tu_edge){4, 10, 1.0f};
  tu_csr g;
  tu_csr_build(&g, 14, e, ne, 0, 0);
  uint64_t init[14];
  for (int v = 0; v < 14; v++) init[v] = v < 10 ? 0 : 10; /* 0-4 and 5-9 together */
  char *initp = write_u64s(g.dir, "init.bin", init, 14);
  for (int obj = 0; obj <= 1; obj++) {
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_leiden_params p = lparams(g.dir, obj, obj ? 0.2 : 1.0, 1 << 20);
    exo_leiden_level *lv = NULL;
    ck_assert_int_eq(exo_leiden_level_open(&g.csr, &p, NULL, initp, 1, &ctx, &lv), EXO_OK);
    uint64_t merges;
    ck_assert_int_eq(exo_leiden_level_refine(lv, &merges), EXO_OK);
    uint64_t comm[14], ref[14];
    exo_leiden_level_partition(lv, comm, ref);
    ck_assert_mem_eq(comm, init, sizeof init); /* refinement moves no community */
    for (int v = 0; v < 14; v++)
      for (int u = 0; u < 14; u++)
        if (ref[u] == ref[v]) ck_assert_uint_eq(comm[u], comm[v]);
    ck_assert_uint_eq(disconnected_groups(14, e, ne, ref), 0);
    ck_assert_uint_ne(ref[0], ref[5]);
    ck_assert_uint_gt(merges, 0);
    exo_leiden_level_free(lv);
  }
  free(initp);
  tu_csr_free(&g);
}
END_TEST

/* Refinement after local moving on planted graphs: every refined community
 * is connected and inside one community; the full run's communities are
 * connected too. */
START_TEST(test_refined_and_final_connected) {
  const uint64_t n = 3000;
  tu_edge *e = malloc(n * 8 * sizeof *e);
  for (int weighted = 0; weighted <= 1; weighted++) {
    size_t ne = planted(e, n, 30, 6, 4, weighted, 11 + weighted);
    tu_csr g;
    tu_csr_build(&g, n, e, ne, 0, 0);
    for (int obj = 0; obj <= 1; obj++) {
      exo_ctx ctx;
      exo_ctx_init(&ctx);
      exo_leiden_params p = lparams(g.dir, obj, obj ? 0.05 : 1.0, 1 << 20);
      exo_leiden_level *lv = NULL;
      ck_assert_int_eq(exo_leiden_level_open(&g.csr, &p, NULL, NULL, 1, &ctx, &lv), EXO_OK);
      uint64_t moves, sweeps, merges;
      ck_assert_int_eq(exo_leiden_level_move(lv, &moves, &sweeps), EXO_OK);
      ck_assert_int_eq(exo_leiden_level_refine(lv, &merges), EXO_OK);
      uint64_t *comm = malloc(n * 8), *ref = malloc(n * 8);
      exo_leiden_level_partition(lv, comm, ref);
      ck_assert_uint_gt(merges, n / 4);
      ck_assert_uint_eq(disconnected_groups(n, e, ne, ref), 0);
      for (uint64_t v = 0; v < n; v++) ck_assert_uint_eq(comm[ref[v]], comm[v]);
      exo_leiden_level_free(lv);

      exo_leiden_result r;
      p.iterations = TU_SAN(0, 3); /* sanitized builds: 3 iterations, not until stable */
      ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_OK);
      ck_assert_uint_eq(disconnected_groups(n, e, ne, r.labels), 0);
      ck_assert_uint_ge(r.levels, 2);
      ck_assert_uint_ge(r.iterations, 1);
      free(r.labels);
      free(comm);
      free(ref);
    }
    tu_csr_free(&g);
  }
  free(e);
}
END_TEST

/* Read the whole of a file of `count` items of `size` bytes. */
static void *read_all(const char *path, size_t size, uint64_t count) {
  size_t len = 0;
  char *data = tu_read_file(path, &len);
  ck_assert_ptr_nonnull(data);
  ck_assert_uint_eq(len, size * count);
  return data;
}

/* Move, refine and aggregate level 0 of g into g.dir's c.off, c.adj, c.w
 * and c.init (paths returned in path[4]); comm and before (may be NULL)
 * get the partition before aggregation, *merges refinement's merges,
 * ref (may be NULL) the partition after it. */
static void aggregate_level0(tu_csr *g, const exo_leiden_params *p, exo_ctx *ctx,
                             exo_csr_files *coarse, char *path[4], uint64_t *comm,
                             uint64_t *before, uint64_t *merges, uint64_t *ref) {
  exo_leiden_level *lv = NULL;
  ck_assert_int_eq(exo_leiden_level_open(&g->csr, p, NULL, NULL, 1, ctx, &lv), EXO_OK);
  uint64_t moves, sweeps;
  ck_assert_int_eq(exo_leiden_level_move(lv, &moves, &sweeps), EXO_OK);
  ck_assert_int_eq(exo_leiden_level_refine(lv, merges), EXO_OK);
  exo_leiden_level_partition(lv, comm, before);
  const char *names[4] = {"c.off", "c.adj", "c.w", "c.init"};
  for (int i = 0; i < 4; i++) path[i] = tu_path(g->dir, names[i]);
  *coarse = (exo_csr_files){path[0], path[1], 0, 0, 0};
  ck_assert_int_eq(exo_leiden_level_aggregate(lv, coarse, path[2], path[3]), EXO_OK);
  exo_leiden_level_partition(lv, NULL, ref);
  exo_leiden_level_free(lv);
}

/* The coarse CSR equals the arcs summed here by coarse pair; the coarse
 * weights are the members' degrees summed; the coarse communities are the
 * members' communities renumbered by first appearance. */
START_TEST(test_aggregate_matches_reference) {
  const uint64_t n = 400;
  tu_edge *e = malloc((n * 5 + 8) * sizeof *e);
  size_t ne = planted(e, n, 20, 5, 6, 1, 5);
  e[ne++] = (tu_edge){7, 7, 2.0f}; /* a self-loop (tu_csr_build stores it twice) */
  e[ne++] = (tu_edge){8, 9, 0.25f};
  e[ne++] = (tu_edge){8, 9, 0.5f}; /* parallel edges */
  for (int wide = 0; wide <= 1; wide++) {
    tu_csr g;
    tu_csr_build(&g, n, e, ne, 0, wide);
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, 1 << 20);
    uint64_t merges, *comm = malloc(n * 8), *before = malloc(n * 8), *ref = malloc(n * 8);
    char *path[4];
    exo_csr_files coarse;
    aggregate_level0(&g, &p, &ctx, &coarse, path, comm, before, &merges, ref);
    char *op = path[0], *ap = path[1], *wp = path[2], *ip = path[3];
    const uint64_t k = coarse.n;
    ck_assert_uint_eq(k, n - merges);
    /* coarse ids: by first appearance of the refined community */
    uint64_t next = 0;
    for (uint64_t v = 0; v < n; v++) {
      ck_assert_uint_le(ref[v], next);
      if (ref[v] == next) next++;
      for (uint64_t u = 0; u < v; u++) ck_assert_int_eq(ref[u] == ref[v], before[u] == before[v]);
    }
    ck_assert_uint_eq(next, k);
    /* reference: dense k x k sums in double */
    double *ref_w = calloc(k * k, sizeof *ref_w), *deg = calloc(k, sizeof *deg);
    for (size_t i = 0; i < ne; i++) {
      uint64_t a = ref[e[i].a], b = ref[e[i].b];
      if (e[i].a == e[i].b) { /* two arcs (7, 7, 2), each counting double */
        ref_w[a * k + a] += 4.0 * e[i].w;
        deg[a] += 4.0 * e[i].w;
        continue;
      }
      ref_w[a * k + b] += e[i].w;
      ref_w[b * k + a] += e[i].w;
      deg[a] += e[i].w;
      deg[b] += e[i].w;
    }
    uint64_t *off = read_all(op, 8, k + 1);
    ck_assert_uint_eq(off[k], coarse.m);
    size_t esz = exo_adj_size(coarse.wide);
    uint8_t *adj = read_all(ap, esz, coarse.m);
    uint64_t nonzero = 0;
    for (uint64_t i = 0; i < k * k; i++) nonzero += ref_w[i] > 0.0;
    ck_assert_uint_eq(coarse.m, nonzero);
    for (uint64_t a = 0; a < k; a++) {
      uint64_t prev = UINT64_MAX;
      for (uint64_t j = off[a]; j < off[a + 1]; j++) {
        uint64_t b;
        float w;
        exo_adj_decode(adj + j * esz, coarse.wide, &b, &w);
        ck_assert(prev == UINT64_MAX || b > prev); /* sorted, no duplicates */
        prev = b;
        ck_assert_uint_lt(b, k);
        ck_assert_double_eq_tol(w, ref_w[a * k + b], 1e-5 * ref_w[a * k + b]);
      }
    }
    double *cw = read_all(wp, 8, k);
    for (uint64_t a = 0; a < k; a++) ck_assert_double_eq_tol(cw[a], deg[a], 1e-9 * deg[a]);
    uint64_t *ci = read_all(ip, 8, k), *cmap = malloc(n * 8), kc = 0;
    for (uint64_t v = 0; v < n; v++) cmap[v] = UINT64_MAX;
    for (uint64_t a = 0, v = 0; a < k; a++) {
      while (ref[v] != a) v++; /* the first member of coarse node a */
      if (cmap[comm[v]] == UINT64_MAX) cmap[comm[v]] = kc++;
      ck_assert_uint_eq(ci[a], cmap[comm[v]]);
    }
    free(cmap);
    free(ci);
    free(cw);
    free(adj);
    free(off);
    free(ref_w);
    free(deg);
    free(op);
    free(ap);
    free(wp);
    free(ip);
    free(comm);
    free(before);
    free(ref);
    tu_csr_free(&g);
  }
  free(e);
}
END_TEST

/* The ranges of coarse ids that an aggregation in memory says it used. */
static void note_in_memory(void *user, const char *text) {
  const char *p = strstr(text, "aggregation: in memory (");
  if (p) *(int *)user = atoi(p + strlen("aggregation: in memory ("));
}

/* The first coarse CSR of a series of aggregations, which the others must
 * equal byte for byte. */
typedef struct coarse_ref {
  uint64_t *off, n, m;
  uint8_t *adj;
} coarse_ref;

/* Aggregate level 0 of g (modularity, memory_limit mem, `threads`; the
 * core's messages to note(noted, text)) and compare the coarse CSR with
 * ref's, or make it ref's when it is the first; the files are removed.
 * Returns the coarse graph's sizes in *coarse. */
static void aggregate_same_bytes(tu_csr *g, uint64_t mem, int threads,
                                 void (*note)(void *, const char *), int *noted, coarse_ref *ref,
                                 exo_csr_files *coarse) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  *noted = 0;
  ctx.cb.message = note;
  ctx.cb.detail = note; /* the internals these tests read */
  ctx.cb.user = noted;
  exo_leiden_params p = lparams(g->dir, EXO_LEIDEN_MODULARITY, 1.0, mem);
  p.threads = threads;
  char *path[4];
  uint64_t merges;
  aggregate_level0(g, &p, &ctx, coarse, path, NULL, NULL, &merges, NULL);
  uint64_t *off = read_all(path[0], 8, coarse->n + 1);
  uint8_t *adj = read_all(path[1], 8, coarse->m);
  if (!ref->off) {
    *ref = (coarse_ref){off, coarse->n, coarse->m, adj};
  } else {
    ck_assert_uint_eq(coarse->n, ref->n);
    ck_assert_uint_eq(coarse->m, ref->m);
    ck_assert_mem_eq(off, ref->off, (ref->n + 1) * 8);
    ck_assert_mem_eq(adj, ref->adj, ref->m * 8);
    free(off);
    free(adj);
  }
  for (int f = 0; f < 4; f++) {
    remove(path[f]);
    free(path[f]);
  }
}

/* The coarse CSR built in memory when the budget holds it (1 GiB: one
 * range of coarse ids; on 1 or 3 threads, 40 blocks; 5 MiB: 2 to 4 ranges,
 * on 2 threads) is the same bytes as the external sort's (1 MiB, 1 or 2
 * threads), and each path says which it took. */
START_TEST(test_aggregate_in_memory_same_bytes) {
  const uint64_t n = 40000, mems[5] = {(uint64_t)1 << 30, (uint64_t)1 << 30, 5 << 20, 1 << 20,
                                       1 << 20};
  const int threads[5] = {1, 3, 2, 1, 2}, ranges_lo[5] = {1, 1, 2, 0, 0}, ranges_hi[5] = {1, 1, 4, 0, 0};
  tu_edge *e = malloc(n * 6 * sizeof *e);
  tu_csr g;
  tu_csr_build(&g, n, e, planted(e, n, 40, 6, 6, 1, 9), 0, 0);
  coarse_ref ref = {NULL, 0, 0, NULL};
  for (int i = 0; i < 5; i++) {
    /* ThreadSanitizer build: not the 1-thread runs (the first on threads
     * is then the reference) */
    if ((i == 0 || i == 3) && TU_TSAN(0, 1)) continue;
    int in_memory;
    exo_csr_files coarse;
    aggregate_same_bytes(&g, mems[i], threads[i], note_in_memory, &in_memory, &ref, &coarse);
    ck_assert_int_ge(in_memory, ranges_lo[i]);
    ck_assert_int_le(in_memory, ranges_hi[i]);
    ck_assert(coarse.n > 100 && coarse.n < n / 2 && coarse.m > coarse.n && !coarse.wide);
  }
  free(ref.off);
  free(ref.adj);
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* The threads an aggregation in memory says it tallied on. */
static void note_agg_threads(void *user, const char *text) {
  const char *p = strstr(text, "aggregation: in memory (");
  if (p && (p = strstr(p, "coarse ids, ")) != NULL) *(int *)user = atoi(p + strlen("coarse ids, "));
}

/* A small dense level (3 blocks, more than EXO_LEIDEN_THREAD_ARCS arcs:
 * what coarse levels look like) is aggregated on the threads asked for, not
 * on the caller's alone, and the coarse CSR is the same bytes for 1, 2 and
 * 3 threads, in memory (1 GiB) and through the sort (1 MiB). */
START_TEST(test_aggregate_small_dense_level_on_threads) {
  const uint64_t n = 3000;
  const uint64_t mems[5] = {(uint64_t)1 << 30, (uint64_t)1 << 30, (uint64_t)1 << 30, 1 << 20,
                            1 << 20};
  const int threads[5] = {1, 2, 3, 2, 1};
  tu_edge *e = malloc(n * 100 * sizeof *e);
  tu_csr g;
  tu_csr_build(&g, n, e, planted(e, n, 50, 100, 9, 1, 11), 0, 0);
  ck_assert_uint_ge(g.csr.m, EXO_LEIDEN_THREAD_ARCS);
  ck_assert_uint_lt((n + EXO_LEIDEN_BLOCK - 1) / EXO_LEIDEN_BLOCK, 2 * EXO_LEIDEN_LANE_MIN_BLOCKS);
  coarse_ref ref = {NULL, 0, 0, NULL};
  for (int i = 0; i < 5; i++) {
    int on;
    exo_csr_files coarse;
    aggregate_same_bytes(&g, mems[i], threads[i], note_agg_threads, &on, &ref, &coarse);
    ck_assert_int_eq(on, mems[i] == ((uint64_t)1 << 30) ? threads[i] : 0);
    ck_assert(coarse.n > 60 && coarse.n < n / 2 && coarse.m > coarse.n);
  }
  free(ref.off);
  free(ref.adj);
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* Counts the core's messages that contain `needle`. */
typedef struct msg_count {
  const char *needle;
  int n;
} msg_count;

static void count_messages(void *user, const char *text) {
  msg_count *c = user;
  if (strstr(text, c->needle)) c->n++;
}

/* r is the run `first` gave, to the byte: labels, quality and counts. */
static void assert_same_run(const exo_leiden_result *r, const exo_leiden_result *first,
                            uint64_t n) {
  ck_assert_mem_eq(r->labels, first->labels, n * 8);
  ck_assert(r->quality == first->quality);
  ck_assert_uint_eq(r->moves, first->moves);
  ck_assert_uint_eq(r->sweeps, first->sweeps);
  ck_assert_uint_eq(r->merges, first->merges);
  ck_assert_uint_eq(r->levels, first->levels);
}

/* Refinement on a small dense level (3 blocks, more than
 * EXO_LEIDEN_THREAD_ARCS arcs) runs on the threads asked for, as the
 * aggregation does (it says so), and the run gives the same labels,
 * quality and counts with 1, 2 and 3 threads. */
START_TEST(test_refine_small_dense_level_on_threads) {
  const uint64_t n = 3000;
  tu_edge *e = malloc(n * 100 * sizeof *e);
  tu_csr g;
  tu_csr_build(&g, n, e, planted(e, n, 50, 100, 9, 1, 11), 0, 0);
  ck_assert_uint_ge(g.csr.m, EXO_LEIDEN_THREAD_ARCS);
  ck_assert_uint_lt((n + EXO_LEIDEN_BLOCK - 1) / EXO_LEIDEN_BLOCK, 2 * EXO_LEIDEN_LANE_MIN_BLOCKS);
  exo_leiden_result first = {0};
  for (int t = 1; t <= 3; t++) {
    /* one thread: no message says the refinement ran on threads */
    char needle[64] = " threads";
    if (t > 1) snprintf(needle, sizeof needle, "leiden refinement: %d threads", t);
    msg_count said = {needle, 0};
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    ctx.cb.message = count_messages;
    ctx.cb.detail = count_messages; /* the internals these tests read */
    ctx.cb.user = &said;
    exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, (uint64_t)1 << 30);
    p.threads = t;
    exo_leiden_result r;
    ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_OK);
    if (t == 1) {
      ck_assert_int_eq(said.n, 0);
      ck_assert(r.quality > 0.0);
      ck_assert_uint_gt(r.merges, 0);
      first = r;
      continue;
    }
    ck_assert_int_ge(said.n, 1); /* level 0 at least */
    assert_same_run(&r, &first, n);
    free(r.labels);
  }
  free(first.labels);
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* A coarse level built in memory is handed to the next level without its
 * adjacency file when it fits a quarter of memory_limit (1 GiB: every
 * level; 2 threads), and the run gives the labels and quality of one whose
 * levels all go through the files and the external sort (1 MiB, 1 thread);
 * no file is left in the directory. */
START_TEST(test_coarse_level_held_in_memory) {
  /* sanitized builds: 20000 nodes (1 MiB still holds no level) */
  const uint64_t n = TU_SAN(40000, 20000), mems[2] = {(uint64_t)1 << 30, 1 << 20};
  tu_edge *e = malloc(n * 6 * sizeof *e);
  tu_csr g;
  tu_csr_build(&g, n, e, planted(e, n, 40, 6, 6, 1, 9), 0, 0);
  exo_leiden_result r[2];
  msg_count held[2] = {{"held for the next level", 0}, {"held for the next level", 0}};
  for (int i = 0; i < 2; i++) {
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    ctx.cb.message = count_messages;
    ctx.cb.detail = count_messages; /* the internals these tests read */
    ctx.cb.user = &held[i];
    exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, mems[i]);
    p.iterations = TU_SAN(0, 3); /* sanitized builds: 3 iterations, not until stable */
    p.threads = 2 - i;
    const int before = tu_count_entries(g.dir);
    ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r[i]), EXO_OK);
    ck_assert_int_eq(tu_count_entries(g.dir), before);
  }
  ck_assert_int_ge(held[0].n, 2); /* level 0 -> 1 and 1 -> 2 at least, each iteration */
  ck_assert_uint_ge(r[0].levels, 3);
  ck_assert_mem_eq(r[0].labels, r[1].labels, n * 8);
  ck_assert(r[0].quality == r[1].quality && r[0].quality > 0.3);
  free(r[0].labels);
  free(r[1].labels);
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* The same labels and quality for memory limits that read the hub's list
 * in chunks and sort in many runs, or all at once; with u64 ids too; and
 * for 1, 2 or 3 threads (the aggregation sort's run thread and merge
 * ranges). The private directory is gone afterwards. */
START_TEST(test_same_result_any_memory) {
  const uint64_t n = 3000;
  tu_edge *e = malloc((n * 10 + 4 * n) * sizeof *e);
  size_t ne = planted(e, n, 50, 6, 5, 1, 3);
  for (uint64_t v = 1; v < n; v++)
    for (int r = 0; r < 4; r++) e[ne++] = (tu_edge){0, v, 0.05f}; /* hub: 11996 arcs */
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 0, 0);
  /* ThreadSanitizer build: modularity only (CPM runs the same threads) */
  for (int obj = 0; obj <= TU_TSAN(1, 0); obj++) {
    uint64_t *first = NULL;
    double q0 = 0.0;
    const uint64_t mems[6] = {(uint64_t)1 << 30, 1 << 17, 1 << 17, 1 << 17, (uint64_t)1 << 30,
                              1 << 18};
    const int threads[6] = {1, 1, 1, 2, 3, 2};
    for (int i = 0; i < 6; i++) {
      if (i == 1 && TU_SAN(0, 1)) continue; /* sanitized builds: 128 KiB, 1 thread, as i == 2 */
      exo_ctx ctx;
      exo_ctx_init(&ctx);
      exo_leiden_params p = lparams(g.dir, obj, obj ? 0.02 : 1.0, mems[i]);
      p.iterations = TU_SAN(0, 3); /* sanitized builds: 3 iterations, not until stable */
      p.force_wide_ids = i == 2 || i == 5;
      p.threads = threads[i];
      int before = tu_count_entries(g.dir);
      exo_leiden_result r;
      ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_OK);
      ck_assert_int_eq(tu_count_entries(g.dir), before);
      if (!first) {
        first = r.labels;
        q0 = r.quality;
        ck_assert(q0 > 0.0);
      } else {
        ck_assert_mem_eq(r.labels, first, n * 8);
        ck_assert(r.quality == q0);
        free(r.labels);
      }
    }
    free(first);
  }
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* The iteration cap: 1 runs one round; 2 at most two, the first the same
 * as with 1 (same seed), the quality never lower; 0 runs until a round
 * moves no node or stops improving, never below the quality of 2. */
START_TEST(test_iteration_cap) {
  const uint64_t n = 2000;
  tu_edge *e = malloc(n * 8 * sizeof *e);
  size_t ne = planted(e, n, 40, 8, 4, 1, 11);
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 0, 0);
  const uint32_t caps[3] = {1, 2, 0};
  exo_leiden_result r[3];
  for (int i = 0; i < 3; i++) {
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, 1 << 20);
    p.iterations = caps[i];
    ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r[i]), EXO_OK);
  }
  ck_assert_uint_eq(r[0].iterations, 1);
  ck_assert(r[1].iterations >= 1 && r[1].iterations <= 2);
  ck_assert(r[2].iterations >= r[1].iterations);
  ck_assert(r[2].iterations <= EXO_LEIDEN_MAX_ITERATIONS);
  ck_assert(r[1].quality >= r[0].quality - 1e-12);
  ck_assert(r[2].quality >= r[1].quality - 1e-12);
  /* the first round of the capped runs is the same: with one round the
   * levels, moves and sweeps are a prefix of the two-round run's */
  ck_assert(r[1].levels >= r[0].levels && r[1].moves >= r[0].moves);
  if (r[1].iterations == 1) ck_assert_mem_eq(r[0].labels, r[1].labels, n * 8);
  ck_assert(r[0].quality > 0.3);
  for (int i = 0; i < 3; i++) free(r[i].labels);
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* Reuse (exo_leiden.h): on well-separated blocks the second round moves no
 * node at level 0 and takes the first round's coarse levels; a round that
 * moves nothing returns the first round's partition and quality exactly;
 * one round keeps nothing; no file is left; the same result for any
 * memory_limit and threads. */
START_TEST(test_reuse_levels) {
  const uint64_t n = 3000;
  tu_edge *e = malloc(n * 8 * sizeof *e);
  size_t ne = planted(e, n, 60, 8, 9, 1, 5);
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 0, 0);
  exo_leiden_result r1, r2, r3;
  const int before = tu_count_entries(g.dir);
  for (int obj = 0; obj <= 1; obj++) {
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_leiden_params p = lparams(g.dir, obj, obj ? 0.05 : 1.0, 1 << 20);
    p.iterations = 1;
    ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r1), EXO_OK);
    ck_assert_uint_eq(r1.reused, 0);
    p.iterations = 2;
    ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r2), EXO_OK);
    ck_assert_uint_eq(r2.iterations, 2);
    ck_assert_uint_ge(r2.reused, 1); /* level 0 at least */
    ck_assert_uint_gt(r2.peak_disk, 0);
    ck_assert_int_eq(tu_count_entries(g.dir), before);
    if (r2.moves == r1.moves) { /* the second round moved nothing */
      ck_assert_mem_eq(r2.labels, r1.labels, n * 8);
      ck_assert(r2.quality == r1.quality);
    }
    ck_assert(r2.quality >= r1.quality);
    /* another memory_limit and threads: the same */
    p.memory_limit = 1 << 17;
    p.threads = 2;
    ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r3), EXO_OK);
    ck_assert_mem_eq(r3.labels, r2.labels, n * 8);
    ck_assert(r3.quality == r2.quality);
    ck_assert_uint_eq(r3.reused, r2.reused);
    free(r1.labels);
    free(r2.labels);
    free(r3.labels);
  }
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* CPM on two 5-cliques joined by one edge: merging them gains
 * 1 - g * 25, splitting a clique below g = 1 loses. */
START_TEST(test_cpm_resolution_by_hand) {
  tu_edge e[32];
  size_t ne = tu_add_clique(e, 0, 0, 5, 1.0f);
  ne = tu_add_clique(e, ne, 5, 5, 1.0f);
  e[ne++] = (tu_edge){4, 5, 1.0f};
  tu_csr g;
  tu_csr_build(&g, 10, e, ne, 0, 0);
  const double res[3] = {0.02, 0.5, 1.5};
  const uint64_t want[3] = {1, 2, 10};
  for (int i = 0; i < 3; i++) {
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_CPM, res[i], 1 << 20);
    exo_leiden_result r;
    ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_OK);
    uint64_t seen[10] = {0}, k = 0;
    for (int v = 0; v < 10; v++) {
      if (!seen[r.labels[v]]) k++;
      seen[r.labels[v]] = 1;
    }
    ck_assert_uint_eq(k, want[i]);
    if (i == 1) {
      ck_assert_uint_eq(r.labels[0], r.labels[4]);
      ck_assert_uint_ne(r.labels[4], r.labels[5]);
      /* H = 2 (10 - 0.5 * 5 * 4 / 2) */
      ck_assert_double_eq_tol(r.quality, 10.0, 1e-9);
    }
    free(r.labels);
  }
  tu_csr_free(&g);
}
END_TEST

START_TEST(test_bad_arguments) {
  tu_csr g;
  tu_csr_build(&g, 6, two_triangles, 7, 0, 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, -1.0, 1 << 20);
  exo_leiden_result r;
  ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_EARG);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "resolution"));
  exo_ctx_init(&ctx);
  p = lparams(g.dir, (exo_leiden_objective)7, 1.0, 1 << 20);
  ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_EARG);
  /* a truncated adjacency file is an internal error naming it; nothing is
   * left in the directory but the graph */
  int before = tu_count_entries(g.dir);
  ck_assert_int_eq(tu_write_file(g.adjp, "x", 1), 0);
  exo_ctx_init(&ctx);
  p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, 1 << 20);
  ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "csr.adj"));
  ck_assert_ptr_null(r.labels);
  ck_assert_int_eq(tu_count_entries(g.dir), before);
  tu_csr_free(&g);
}
END_TEST


/* Interrupted at its k-th poll, for k spread over the run's phases: the
 * run returns EXO_EINTR and leaves no file behind. */
static int stop_at_poll(void *user) {
  int *left = user;
  return --*left <= 0;
}

START_TEST(test_interrupt_cleans_up) {
  const uint64_t n = 4000;
  tu_edge *e = malloc(n * 4 * sizeof *e);
  size_t ne = planted(e, n, 40, 4, 6, 0, 8);
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 0, 0);
  int before = tu_count_entries(g.dir), polls = 0, interrupted = 0;
  exo_ctx ctx;
  exo_leiden_result r;
  exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, 1 << 20);
  /* count the polls of a whole run */
  exo_ctx_init(&ctx);
  int big = 1 << 30;
  ctx.cb.user = &big;
  ctx.cb.interrupted = stop_at_poll;
  ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_OK);
  polls = (1 << 30) - big;
  free(r.labels);
  ck_assert_int_gt(polls, 8);
  /* ThreadSanitizer build: 2 places, not 5 */
  for (int k = 1; k < polls; k += TU_TSAN(polls / 5, polls / 2) + 1) {
    int left = k;
    exo_ctx_init(&ctx);
    ctx.cb.user = &left;
    ctx.cb.interrupted = stop_at_poll;
    ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_EINTR);
    ck_assert_ptr_null(r.labels);
    ck_assert_int_eq(tu_count_entries(g.dir), before);
    interrupted++;
  }
  ck_assert_int_ge(interrupted, TU_TSAN(3, 2));
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* The polls and messages of a run: it is interrupted at poll `left`;
 * `at` is the poll count when the first aggregation in several ranges of
 * coarse ids reported itself. */
typedef struct poll_watch {
  int left, polls, at, ranges;
} poll_watch;

static int watch_poll(void *user) {
  poll_watch *w = user;
  w->polls++;
  return --w->left <= 0;
}

static void watch_message(void *user, const char *text) {
  poll_watch *w = user;
  const char *p = strstr(text, "aggregation: in memory (");
  if (p && !w->at && atoi(p + strlen("aggregation: in memory (")) > 1) {
    w->ranges = atoi(p + strlen("aggregation: in memory ("));
    w->at = w->polls;
  }
}

/* A run interrupted at poll `left` (w zeroed first), watched by w. */
static exo_status watched_run(tu_csr *g, const exo_leiden_params *p, int left, poll_watch *w,
                              exo_leiden_result *r) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  *w = (poll_watch){left, 0, 0, 0};
  ctx.cb.user = w;
  ctx.cb.interrupted = watch_poll;
  ctx.cb.message = watch_message;
  ctx.cb.detail = watch_message; /* the internals these tests read */
  return exo_leiden_run(&g->csr, p, &ctx, r);
}

/* Interrupted at every poll of an aggregation built in memory in several
 * ranges of coarse ids (5 MiB, one thread: the polls come in the same
 * order every run; the last 20 polls before the build reports itself,
 * which begins 13 polls before on this graph), the run returns EXO_EINTR at that poll and leaves no
 * file behind; the sanitizers' run of the suites (`make sanitize`) checks
 * that every buffer of the ranges' loop is freed on the way out. */
START_TEST(test_aggregate_ranges_interrupt) {
  const uint64_t n = 40000;
  tu_edge *e = malloc(n * 6 * sizeof *e);
  tu_csr g;
  tu_csr_build(&g, n, e, planted(e, n, 40, 6, 6, 1, 9), 0, 0);
  const int before = tu_count_entries(g.dir);
  exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, 5 << 20);
  p.threads = 1;
  exo_leiden_result r;
  poll_watch w, x;
  ck_assert_int_eq(watched_run(&g, &p, 1 << 30, &w, &r), EXO_OK);
  free(r.labels);
  ck_assert_int_ge(w.ranges, 2);
  ck_assert_int_gt(w.at, 20);
  int interrupted = 0;
  /* ThreadSanitizer build: the last poll (one thread here: what the build
   * checks is the sort's run thread, on the way out) */
  for (int k = w.at - TU_TSAN(19, 0); k <= w.at; k++) {
    ck_assert_int_eq(watched_run(&g, &p, k, &x, &r), EXO_EINTR);
    ck_assert_ptr_null(r.labels);
    ck_assert_int_eq(x.polls, k); /* stopped at the poll that said so */
    ck_assert_int_eq(x.at, 0);    /* before the build said it was done */
    ck_assert_int_eq(tu_count_entries(g.dir), before);
    interrupted++;
  }
  ck_assert_int_ge(interrupted, TU_TSAN(2 * w.ranges, 1));
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* A refinement after a local moving that moved no node takes each node's
 * weight to its community from that sweep's tallies instead of reading the
 * arcs again (1 GiB: kept; 1 MiB: 8 bytes per node do not fit an eighth
 * of it, so the arcs are read): the same refined partition, merge count
 * and coarse graph either way, with moving in lanes (on 1 and 2 threads)
 * and on the caller's thread. After a moving that moved nodes (2 threads),
 * the arcs are read in both. */
START_TEST(test_refine_after_still_moving) {
  /* 40 blocks: moving in lanes; 20: on the caller's thread */
  const uint64_t n = _i == 0 ? 40000 : 20000;
  tu_edge *e = malloc(n * 6 * sizeof *e);
  tu_csr g;
  tu_csr_build(&g, n, e, planted(e, n, 40, 6, 6, 1, 9), 0, 0);
  const uint64_t mems[2] = {(uint64_t)1 << 30, 1 << 20};
  uint64_t *comm[2], *ref[2], merges[2], coarse_m[2];
  /* sanitized builds: runs 1 and 2 (lanes on 2 threads after a still
   * moving, on 1 thread after a moving that moved nodes) */
  /* ThreadSanitizer build: run 1 alone (run 2 is on one thread) */
  for (int run = TU_SAN(0, 1); run < TU_TSAN(3, 2); run++) {
    const int threads = 1 + run % 2, still = run < 2;
    for (int i = 0; i < 2; i++) {
      exo_ctx ctx;
      exo_ctx_init(&ctx);
      msg_count used = {"from local moving's sweep", 0};
      ctx.cb.message = count_messages;
      ctx.cb.detail = count_messages; /* the internals these tests read */
      ctx.cb.user = &used;
      exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, mems[i]);
      p.threads = threads;
      exo_leiden_level *lv = NULL;
      ck_assert_int_eq(exo_leiden_level_open(&g.csr, &p, NULL, NULL, 1, &ctx, &lv), EXO_OK);
      uint64_t moves, sweeps;
      ck_assert_int_eq(exo_leiden_level_move(lv, &moves, &sweeps), EXO_OK);
      ck_assert_uint_gt(moves, 0);
      /* moving again from its own result until a sweep moves no node (a
       * level whose moving moved nodes reads the arcs: `still` 0) */
      for (int again = 0; still && moves > 0 && again < 10; again++)
        ck_assert_int_eq(exo_leiden_level_move(lv, &moves, &sweeps), EXO_OK);
      ck_assert_uint_eq(moves == 0, still);
      ck_assert_int_eq(exo_leiden_level_refine(lv, &merges[i]), EXO_OK);
      ck_assert_int_eq(used.n, i == 0 && still ? 1 : 0);
      comm[i] = malloc(n * 8);
      ref[i] = malloc(n * 8);
      exo_leiden_level_partition(lv, comm[i], ref[i]);
      char *path[4];
      const char *names[4] = {"s.off", "s.adj", "s.w", "s.init"};
      for (int f = 0; f < 4; f++) path[f] = tu_path(g.dir, names[f]);
      exo_csr_files coarse = {path[0], path[1], 0, 0, 0};
      ck_assert_int_eq(exo_leiden_level_aggregate(lv, &coarse, path[2], path[3]), EXO_OK);
      coarse_m[i] = coarse.m;
      exo_leiden_level_free(lv);
      for (int f = 0; f < 4; f++) {
        remove(path[f]);
        free(path[f]);
      }
    }
    ck_assert_uint_gt(merges[0], n / 4);
    ck_assert_uint_eq(merges[0], merges[1]);
    ck_assert_uint_eq(coarse_m[0], coarse_m[1]);
    ck_assert_mem_eq(comm[0], comm[1], n * 8);
    ck_assert_mem_eq(ref[0], ref[1], n * 8);
    for (int i = 0; i < 2; i++) {
      free(comm[i]);
      free(ref[i]);
    }
  }
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* Local moving in lanes (a graph of 48 blocks: 3 lanes). The same labels,
 * quality and counts for 1 to 5 threads (more than the lanes), for a read
 * buffer that holds the whole graph or a few blocks' lists (split between
 * the threads), for the aggregation's tally pass on threads in one round
 * (1 GiB), in rounds of a few blocks per thread (4 MiB) and block by block
 * on the caller's thread (1 MiB: a block has more arcs than a buffer
 * holds), and with u64
 * ids; every community connected; the modularity within 0.005 of the
 * one-lane sweep's (max_lanes = 1, which must differ: the hook works); the
 * private directory left as it was. */
START_TEST(test_lanes_same_result_any_threads) {
  const uint64_t n = 48 * EXO_LEIDEN_BLOCK;
  tu_edge *e = malloc(n * 5 * sizeof *e);
  size_t ne = planted(e, n, 60, 5, 6, 1, 21);
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 0, 0);
  /* ThreadSanitizer build: modularity only (CPM runs the same threads) */
  for (int obj = 0; obj <= TU_TSAN(1, 0); obj++) {
    exo_leiden_result first = {0};
    const int threads[6] = {1, 2, 3, 5, 2, 1};
    const uint64_t mems[6] = {(uint64_t)1 << 30, (uint64_t)1 << 30, 4 << 20, 1 << 20, 1 << 20,
                              (uint64_t)1 << 30};
    for (int i = 0; i < 7; i++) {
      if (i == 5 && TU_SAN(0, 1)) continue; /* sanitized builds: not i == 0 again */
      if (i == 4 && TU_TSAN(0, 1)) continue; /* ThreadSanitizer: 2 threads at 1 MiB again */
      exo_ctx ctx;
      exo_ctx_init(&ctx);
      exo_leiden_params p = lparams(g.dir, obj, obj ? 0.05 : 1.0, i < 6 ? mems[i] : 1 << 30);
      p.threads = i < 6 ? threads[i] : 2;
      p.force_wide_ids = i == 4;
      p.max_lanes = i == 6; /* last: the one-lane sweep */
      p.iterations = TU_SAN(2, 1); /* sanitized builds: one iteration */
      int before = tu_count_entries(g.dir);
      exo_leiden_result r;
      ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_OK);
      ck_assert_int_eq(tu_count_entries(g.dir), before);
      ck_assert_uint_eq(disconnected_groups(n, e, ne, r.labels), 0);
      if (i == 0) {
        first = r;
        ck_assert(r.quality > 0.0);
      } else if (i < 6) {
        assert_same_run(&r, &first, n);
        free(r.labels);
      } else {
        ck_assert(r.moves != first.moves || memcmp(r.labels, first.labels, n * 8) != 0);
        if (obj == EXO_LEIDEN_MODULARITY) ck_assert(first.quality >= r.quality - 0.005);
        else ck_assert(first.quality >= r.quality - 0.005 * fabs(r.quality));
        free(r.labels);
      }
    }
    free(first.labels);
  }
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* resolution_per_strength: the g reported is resolution * 2W / n with 2W
 * summed here from the CSR files (|w| per arc, a self-loop twice), the
 * same double for 1..3 threads, small memory limits and u64 ids; the labels
 * and quality equal those of absolute CPM at that g; a non-CPM objective
 * is refused. The graph is large enough for lanes (and has an isolated
 * node and a self-loop, which count in n and 2W). */
START_TEST(test_resolution_per_strength) {
  const uint64_t n = 40 * EXO_LEIDEN_BLOCK + 1; /* node n - 1 isolated */
  tu_edge *e = malloc((n * 5 + 1) * sizeof *e);
  size_t ne = planted(e, n - 1, 60, 5, 6, 1, 33);
  e[ne++] = (tu_edge){7, 7, 2.5f};
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 0, 0);
  uint64_t *off = read_all(g.csr.offsets_path, 8, n + 1);
  uint8_t *adj = read_all(g.csr.adj_path, exo_adj_size(g.csr.wide), g.csr.m);
  double two_w = 0.0;
  int loops = 0;
  for (uint64_t v = 0; v < n; v++)
    for (uint64_t i = off[v]; i < off[v + 1]; i++) {
      uint64_t u;
      float w;
      exo_adj_decode(adj + i * exo_adj_size(g.csr.wide), g.csr.wide, &u, &w);
      two_w += u == v ? 2.0 * fabs((double)w) : fabs((double)w);
      loops += u == v;
    }
  ck_assert_int_gt(loops, 0);
  free(off);
  free(adj);
  const double c = 0.05, want = c * two_w / (double)n;
  ck_assert(want > 0.0);
  exo_leiden_result first = {0};
  const uint32_t its = TU_SAN(2, 1); /* sanitized builds: one iteration */
  const int threads[5] = {1, 2, 3, 1, 2};
  const uint64_t mems[5] = {(uint64_t)1 << 30, 1 << 17, 1 << 18, 1 << 17, (uint64_t)1 << 30};
  for (int i = 0; i < 5; i++) {
    /* ThreadSanitizer build: not the 1-thread u64 run, nor 2 threads
     * again; Wine: 1 and 3 threads only */
    if ((i == 3 || i == 4) && TU_TSAN(0, 1)) continue;
    if (i != 0 && i != 2 && TU_WINE(0, 1)) continue;
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_CPM, c, mems[i]);
    p.resolution_per_strength = 1;
    p.threads = threads[i];
    p.force_wide_ids = i == 3;
    p.iterations = its;
    int before = tu_count_entries(g.dir);
    exo_leiden_result r;
    ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_OK);
    ck_assert_int_eq(tu_count_entries(g.dir), before);
    ck_assert_double_eq_tol(r.resolution, want, 1e-12 * want);
    if (i == 0) {
      first = r;
      continue;
    }
    ck_assert(r.resolution == first.resolution); /* bit for bit */
    ck_assert_mem_eq(r.labels, first.labels, n * 8);
    ck_assert(r.quality == first.quality);
    free(r.labels);
  }
  /* absolute CPM at the reported g: the same run */
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_CPM, first.resolution, 1 << 20);
  p.iterations = its;
  p.threads = 2;
  exo_leiden_result r;
  ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_OK);
  ck_assert(r.resolution == first.resolution);
  ck_assert_mem_eq(r.labels, first.labels, n * 8);
  ck_assert(r.quality == first.quality);
  ck_assert_uint_eq(r.moves, first.moves);
  /* and not the run at g = c: the option changes something */
  exo_leiden_result r0;
  p.resolution = c;
  ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r0), EXO_OK);
  ck_assert(memcmp(r0.labels, first.labels, n * 8) != 0);
  free(r0.labels);
  free(r.labels);
  free(first.labels);
  /* strength_linked: the mean over the nodes with an arc (all but the
   * isolated one, counted here from the offsets) */
  {
    uint64_t *o2 = read_all(g.csr.offsets_path, 8, n + 1);
    uint64_t linked = 0;
    for (uint64_t v = 0; v < n; v++) linked += o2[v + 1] > o2[v];
    free(o2);
    ck_assert_uint_eq(linked, n - 1);
    exo_ctx_init(&ctx);
    p = lparams(g.dir, EXO_LEIDEN_CPM, c, 1 << 20);
    p.resolution_per_strength = 1;
    p.strength_linked = 1;
    p.iterations = 1;
    ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_OK);
    const double want_linked = c * two_w / (double)linked;
    ck_assert_double_eq_tol(r.resolution, want_linked, 1e-12 * want_linked);
    ck_assert(r.resolution != first.resolution);
    free(r.labels);
  }
  /* modularity with it: refused, nothing left behind */
  exo_ctx_init(&ctx);
  p = lparams(g.dir, EXO_LEIDEN_MODULARITY, c, 1 << 20);
  p.resolution_per_strength = 1;
  int before = tu_count_entries(g.dir);
  ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_EARG);
  ck_assert_ptr_null(r.labels);
  ck_assert_int_eq(tu_count_entries(g.dir), before);
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* resolution_per_component: a graph of two copies of one planted graph,
 * the second with every weight / 64, and an isolated node. Each copy is
 * clustered at its own scale (the second copy gets as many communities as
 * the first), where one g for the whole graph shatters the light copy; the
 * same bytes for any threads and memory_limit, no file left; and on a
 * graph of one component (plus the isolated node) the run is that of
 * resolution_per_strength alone, bit for bit. */
START_TEST(test_resolution_per_component) {
  const uint64_t half = 8 * EXO_LEIDEN_BLOCK, n = 2 * half + 1;
  tu_edge *e = malloc((half * 5 * 2 + 1) * sizeof *e);
  size_t ne = planted(e, half, 60, 5, 9, 1, 5);
  const size_t ne1 = ne;
  for (size_t i = 0; i < ne1; i++)
    e[ne++] = (tu_edge){e[i].a + half, e[i].b + half, e[i].w / 64.0f};
  tu_csr g, one;
  tu_csr_build(&g, n, e, ne, 0, 0);
  tu_csr_build(&one, half + 1, e, ne1, 0, 0); /* the first copy and an isolated node */
  const double c = 5e-3;
  uint64_t count[3] = {0, 0, 0}; /* communities: first copy, second, second with one g */
  uint64_t *first = NULL;
  const int threads[3] = {1, 2, 2};
  const uint64_t mems[3] = {(uint64_t)1 << 30, 1 << 17, (uint64_t)1 << 30};
  for (int i = 0; i < 4; i++) {
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_CPM, c, i < 3 ? mems[i] : 1 << 20);
    p.resolution_per_strength = 1;
    p.strength_linked = 1;
    p.resolution_per_component = i < 3;
    p.threads = i < 3 ? threads[i] : 1;
    p.iterations = 2;
    const int before = tu_count_entries(g.dir);
    exo_leiden_result r;
    ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_OK);
    ck_assert_int_eq(tu_count_entries(g.dir), before);
    if (i == 0) {
      first = r.labels;
      uint8_t *seen = calloc(n, 1);
      for (uint64_t v = 0; v < 2 * half; v++)
        if (!seen[r.labels[v]]) {
          seen[r.labels[v]] = 1;
          count[v >= half]++;
        }
      free(seen);
      continue;
    }
    if (i < 3) {
      ck_assert_mem_eq(r.labels, first, n * 8);
    } else {
      uint8_t *seen = calloc(n, 1);
      for (uint64_t v = half; v < 2 * half; v++)
        if (!seen[r.labels[v]]) {
          seen[r.labels[v]] = 1;
          count[2]++;
        }
      free(seen);
    }
    free(r.labels);
  }
  /* the planted graph has half / 60 blocks */
  ck_assert_uint_ge(count[0], half / 60);
  ck_assert_uint_le(count[0], half / 60 * 3 / 2);
  ck_assert_uint_ge(count[1] * 10, count[0] * 9);
  ck_assert_uint_le(count[1] * 10, count[0] * 11);
  ck_assert_uint_gt(count[2], 4 * count[0]);
  /* one component: the same as without the option */
  exo_leiden_result r[2];
  for (int i = 0; i < 2; i++) {
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_leiden_params p = lparams(one.dir, EXO_LEIDEN_CPM, c, 1 << 20);
    p.resolution_per_strength = 1;
    p.strength_linked = 1;
    p.resolution_per_component = i;
    p.iterations = 2;
    ck_assert_int_eq(exo_leiden_run(&one.csr, &p, &ctx, &r[i]), EXO_OK);
  }
  ck_assert(r[0].resolution == r[1].resolution);
  ck_assert(r[0].quality == r[1].quality);
  ck_assert_mem_eq(r[0].labels, r[1].labels, (half + 1) * 8);
  free(r[0].labels);
  free(r[1].labels);
  /* without resolution_per_strength: refused */
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_CPM, c, 1 << 20);
  p.resolution_per_component = 1;
  ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r[0]), EXO_EARG);
  ck_assert_ptr_null(r[0].labels);
  free(first);
  tu_csr_free(&g);
  tu_csr_free(&one);
  free(e);
}
END_TEST

/* A level in lanes interrupted at its k-th poll: EXO_EINTR, no file left,
 * and the level's partition as before the interrupted sweep's syncs left it
 * (the published copy gone: `refined` is the identity again). */
START_TEST(test_lanes_interrupt) {
  const uint64_t n = 40 * EXO_LEIDEN_BLOCK;
  tu_edge *e = malloc(n * 4 * sizeof *e);
  size_t ne = planted(e, n, 40, 4, 6, 0, 9);
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 0, 0);
  int before = tu_count_entries(g.dir);
  exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, 1 << 20);
  for (int k = 1; k <= 7; k += 3) {
    int left = k;
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_leiden_level *lv = NULL;
    ck_assert_int_eq(exo_leiden_level_open(&g.csr, &p, NULL, NULL, 1, &ctx, &lv), EXO_OK);
    ctx.cb.user = &left; /* the level keeps ctx: the polls of moving count */
    ctx.cb.interrupted = stop_at_poll;
    uint64_t moves, sweeps;
    ck_assert_int_eq(exo_leiden_level_move(lv, &moves, &sweeps), EXO_EINTR);
    uint64_t *ref = malloc(n * 8);
    exo_leiden_level_partition(lv, NULL, ref);
    for (uint64_t v = 0; v < n; v++) ck_assert_uint_eq(ref[v], v);
    free(ref);
    exo_leiden_level_free(lv);
    ck_assert_int_eq(tu_count_entries(g.dir), before);
  }
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* Issue 53 item 7: weights near the largest float (1e37..3e38, which the
 * parser accepts) give a finite quality: coarse arcs sum many of them, and
 * a float holds no sum above 3.4e38. The same graph with every weight
 * 2^100 times smaller (exactly: integer mantissas below 2^24 times 2^105
 * and 2^5) must give the same communities, the same modularity and a CPM
 * quality 2^100 times smaller (its resolution scaled alike), to 1e-9, on
 * both aggregation paths (memory limits) and with threads. */
START_TEST(test_huge_weights_finite_quality) {
  const uint64_t nc = 6, cs = 8, n = nc * cs;
  tu_edge *big = malloc(400 * sizeof *big), *small = malloc(400 * sizeof *small);
  exo_rng rng;
  exo_rng_seed(&rng, 53);
  size_t ne = 0;
  for (uint64_t c = 0; c < nc; c++)
    for (uint64_t i = 0; i < cs; i++)
      for (uint64_t j = i + 1; j < cs; j++) big[ne++] = (tu_edge){c * cs + i, c * cs + j, 0};
  for (uint64_t c = 0; c < nc; c++) /* a ring of single edges between the cliques */
    big[ne++] = (tu_edge){c * cs, ((c + 1) % nc) * cs + 1, 0};
  big[ne++] = (tu_edge){3, 3, 0}; /* a self-loop, counted twice */
  for (size_t i = 0; i < ne; i++) {
    const float m = (float)(300000 + exo_rng_below(&rng, 7700000)); /* < 2^23: exact */
    small[i] = big[i];
    small[i].w = ldexpf(m, 5);
    big[i].w = ldexpf(m, 105); /* 1.2e37 .. 3.2e38 */
    ck_assert(isfinite(big[i].w));
  }
  tu_csr gb, gs;
  tu_csr_build(&gb, n, big, ne, 0, 0);
  tu_csr_build(&gs, n, small, ne, 0, 0);
  const double up = ldexp(1.0, 100);
  /* obj 0: modularity; 1: CPM; 2: CPM, resolution relative to the mean
   * strength (which scales with the weights) */
  for (int obj = 0; obj < 3; obj++)
    for (int k = 0; k < 3; k++) {
      const uint64_t mem = k == 0 ? (uint64_t)1 << 16 : (uint64_t)1 << 26;
      const double rs = obj == 1 ? ldexp(1e6, 5) : obj == 2 ? 0.02 : 1.0;
      const double rb = obj == 1 ? rs * up : rs;
      exo_leiden_params pb = lparams(gb.dir, obj ? EXO_LEIDEN_CPM : EXO_LEIDEN_MODULARITY, rb, mem);
      exo_leiden_params ps = lparams(gs.dir, obj ? EXO_LEIDEN_CPM : EXO_LEIDEN_MODULARITY, rs, mem);
      pb.threads = ps.threads = k == 2 ? 3 : 1;
      pb.resolution_per_strength = ps.resolution_per_strength = obj == 2;
      exo_ctx ctx;
      exo_ctx_init(&ctx);
      exo_leiden_result rb_, rs_;
      ck_assert_int_eq(exo_leiden_run(&gb.csr, &pb, &ctx, &rb_), EXO_OK);
      ck_assert_int_eq(exo_leiden_run(&gs.csr, &ps, &ctx, &rs_), EXO_OK);
      ck_assert_msg(isfinite(rb_.quality), "objective %d, case %d: quality %g", obj, k,
                    rb_.quality);
      ck_assert_uint_ge(rs_.levels, 2); /* coarse levels were built */
      const double want = obj ? rs_.quality * up : rs_.quality;
      ck_assert_msg(fabs(rb_.quality - want) <= 1e-9 * fabs(want),
                    "objective %d, case %d: quality %.17g, want %.17g", obj, k, rb_.quality, want);
      if (!obj) ck_assert(rs_.quality > 0.5); /* the cliques are found */
      for (uint64_t v = 0; v < n; v++) ck_assert_uint_eq(rb_.labels[v], rs_.labels[v]);
      free(rb_.labels);
      free(rs_.labels);
    }
  tu_csr_free(&gb);
  tu_csr_free(&gs);
  free(big);
  free(small);
}
END_TEST

/* Labels renumbered 0..K-1 in order of first appearance (in place). */
static void renumber_first(uint64_t *lab, uint64_t n) {
  uint64_t *map = malloc(n * 8), k = 0;
  for (uint64_t i = 0; i < n; i++) map[i] = UINT64_MAX;
  for (uint64_t v = 0; v < n; v++) {
    if (map[lab[v]] == UINT64_MAX) map[lab[v]] = k++;
    lab[v] = map[lab[v]];
  }
  free(map);
}

/* Is every atom inside one community of lab? (brute force: the label of
 * each atom's first node) */
static int atoms_nested(const uint64_t *atoms, const uint64_t *lab, uint64_t n) {
  uint64_t *of = malloc(n * 8);
  for (uint64_t i = 0; i < n; i++) of[i] = UINT64_MAX;
  int ok = 1;
  for (uint64_t v = 0; v < n && ok; v++) {
    if (of[atoms[v]] == UINT64_MAX) of[atoms[v]] = lab[v];
    ok = of[atoms[v]] == lab[v];
  }
  free(of);
  return ok;
}

/* initial (issue 57): Leiden started from its own converged result
 * returns the same partition with its quality (to float rounding) and few
 * moves;
 * started from a partition of the planted blocks split in halves it
 * differs from the run from singletons (the start is used); ids >= n are
 * refused with EXO_EARG, leaving the directory as it was. */
START_TEST(test_initial_communities) {
  const uint64_t n = 3000;
  tu_edge *e = malloc(n * 6 * sizeof *e);
  size_t ne = planted(e, n, 50, 6, 7, 1, 5);
  tu_csr g;
  tu_csr_build(&g, n, e, ne, 0, 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, 1 << 20);
  p.iterations = 0;
  exo_leiden_result r0, r1;
  ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r0), EXO_OK);
  p.initial = r0.labels;
  p.iterations = 2;
  int before = tu_count_entries(g.dir);
  ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r1), EXO_OK);
  ck_assert_int_eq(tu_count_entries(g.dir), before);
  /* (coarse levels sum weights in float: the same partition's quality
   * can differ in the 8th digit) */
  ck_assert(r1.quality >= r0.quality - 1e-7 * fabs(r0.quality));
  ck_assert_uint_lt(r1.moves, n / 20);
  uint64_t *a = malloc(n * 8);
  memcpy(a, r0.labels, n * 8);
  renumber_first(a, n);
  renumber_first(r1.labels, n);
  ck_assert_mem_eq(a, r1.labels, n * 8);
  free(r1.labels);
  /* one iteration from a far start (every node of a block with one of
   * its own half-blocks' nodes, some pairs of blocks joined) differs from
   * one from singletons */
  uint64_t *start = malloc(n * 8);
  for (uint64_t v = 0; v < n; v++) start[v] = (v / 100) * 100 + (v % 50 < 25 ? 0 : 1);
  p.iterations = 1;
  p.initial = NULL;
  ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r1), EXO_OK);
  p.initial = start;
  exo_leiden_result r2;
  ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r2), EXO_OK);
  ck_assert(r1.moves != r2.moves || memcmp(r1.labels, r2.labels, n * 8) != 0);
  free(r1.labels);
  free(r2.labels);
  start[n - 1] = n;
  ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r2), EXO_EARG);
  ck_assert_ptr_null(r2.labels);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "node 2999"));
  ck_assert_int_eq(tu_count_entries(g.dir), before);
  free(start);
  free(a);
  free(r0.labels);
  tu_csr_free(&g);
  free(e);
}
END_TEST

/* atoms (issue 57, nested levels): on planted graphs with atoms that are
 * a finer Leiden clustering (CPM at a high resolution) or random groups,
 * every community of the result is a union of atoms (brute force), the
 * same bytes and quality for threads 1 and 2 and memory 1 MiB and 1 GiB
 * (and u64 ids); with initial too; random atoms change the result (they
 * are used); an atom >= n is refused (EXO_EARG); the directory is left as
 * it was. The larger graph has lanes (not in sanitized builds). */
START_TEST(test_atoms_nested) {
  const uint64_t sizes[2] = {3000, 34 * EXO_LEIDEN_BLOCK};
  for (int gi = 0; gi < TU_SAN(2, 1); gi++) { /* sanitized builds: the small graph */
    const uint64_t n = sizes[gi];
    tu_edge *e = malloc(n * 5 * sizeof *e);
    size_t ne = planted(e, n, 60, 5, 6, 1, 31 + gi);
    tu_csr g;
    tu_csr_build(&g, n, e, ne, 0, 0);
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    /* atoms 0: a fine clustering; 1: random groups of about 3 nodes */
    uint64_t *atoms[2];
    exo_leiden_params pf = lparams(g.dir, EXO_LEIDEN_CPM, 0.3, 1 << 30);
    pf.iterations = 2;
    exo_leiden_result rf;
    ck_assert_int_eq(exo_leiden_run(&g.csr, &pf, &ctx, &rf), EXO_OK);
    atoms[0] = rf.labels;
    atoms[1] = malloc(n * 8);
    exo_rng rng;
    exo_rng_seed(&rng, 77);
    for (uint64_t v = 0; v < n; v++) atoms[1][v] = exo_rng_below(&rng, n / 3);
    uint64_t *init = malloc(n * 8);
    for (uint64_t v = 0; v < n; v++) init[v] = (v * 7) % (n / 10);
    for (int ai = 0; ai < 2; ai++)
      for (int with_init = 0; with_init < 2; with_init++) {
        exo_leiden_result first = {0};
        const int threads[4] = {1, 2, 1, 2};
        const uint64_t mems[4] = {1 << 20, 1 << 20, (uint64_t)1 << 30, (uint64_t)1 << 30};
        for (int i = 0; i < 5; i++) {
          if (i > 0 && TU_SAN(0, 1) && i != 1) continue;
          exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, mems[i % 4]);
          p.threads = threads[i % 4];
          p.force_wide_ids = i == 4;
          p.iterations = 2;
          p.atoms = atoms[ai];
          p.initial = with_init ? init : NULL;
          int before = tu_count_entries(g.dir);
          exo_leiden_result r;
          ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_OK);
          ck_assert_int_eq(tu_count_entries(g.dir), before);
          ck_assert(atoms_nested(atoms[ai], r.labels, n));
          if (i == 0) {
            first = r;
            ck_assert(r.quality > 0.0);
          } else {
            ck_assert_mem_eq(r.labels, first.labels, n * 8);
            ck_assert(r.quality == first.quality);
            free(r.labels);
          }
        }
        if (ai == 1 && !with_init) { /* without the atoms, they are broken */
          exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, 1 << 20);
          p.iterations = 2;
          exo_leiden_result r;
          ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_OK);
          ck_assert(!atoms_nested(atoms[ai], r.labels, n));
          ck_assert(r.quality > first.quality);
          free(r.labels);
        }
        free(first.labels);
      }
    exo_leiden_params p = lparams(g.dir, EXO_LEIDEN_MODULARITY, 1.0, 1 << 20);
    atoms[1][5] = n;
    p.atoms = atoms[1];
    exo_leiden_result r;
    ck_assert_int_eq(exo_leiden_run(&g.csr, &p, &ctx, &r), EXO_EARG);
    ck_assert_ptr_nonnull(strstr(ctx.err.msg, "atom of node 5"));
    free(atoms[0]);
    free(atoms[1]);
    free(init);
    tu_csr_free(&g);
    free(e);
  }
}
END_TEST

Suite *leiden_suite(void) {
  Suite *s = suite_create("leiden");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_gains_by_hand);
  tcase_add_test(tc, test_gains_from_singletons);
  tcase_add_test(tc, test_refine_splits_disconnected);
  tcase_add_test(tc, test_refined_and_final_connected);
  tcase_add_test(tc, test_aggregate_matches_reference);
  tcase_add_test(tc, test_aggregate_in_memory_same_bytes);
  tcase_add_test(tc, test_aggregate_small_dense_level_on_threads);
  tcase_add_test(tc, test_same_result_any_memory);
  tcase_add_test(tc, test_coarse_level_held_in_memory);
  tcase_add_test(tc, test_refine_small_dense_level_on_threads);
  tcase_add_loop_test(tc, test_refine_after_still_moving, 0, 2);
  tcase_add_test(tc, test_cpm_resolution_by_hand);
  tcase_add_test(tc, test_iteration_cap);
  tcase_add_test(tc, test_reuse_levels);
  tcase_add_test(tc, test_bad_arguments);
  tcase_add_test(tc, test_interrupt_cleans_up);
  tcase_add_test(tc, test_aggregate_ranges_interrupt);
  tcase_add_test(tc, test_lanes_same_result_any_threads);
  tcase_add_test(tc, test_lanes_interrupt);
  tcase_add_test(tc, test_resolution_per_strength);
  tcase_add_test(tc, test_resolution_per_component);
  tcase_add_test(tc, test_huge_weights_finite_quality);
  tcase_add_test(tc, test_initial_communities);
  tcase_add_test(tc, test_atoms_nested);
  suite_add_tcase(s, tc);
  return s;
}
