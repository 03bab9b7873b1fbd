/* test_clstats.c: the cluster table (exo_clstats.h) against a brute-force
 * computation from the edge list, on graphs built by the real pipeline
 * (self-loops, duplicate and mirrored edges, combine keep and max,
 * directed, narrow and wide ids), random clusterings, the table text, the
 * names passes under a tiny budget, refused paths, and the pipeline's
 * hook. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exo_clstats.h"
#include "exo_output.h"
#include "exo_pipeline.h"
#include "testutil.h"

typedef struct bedge {
  uint64_t a, b;
  double w;
} bedge;

static uint64_t rng_state = 88172645463325252ULL;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* Node i's name: "n<i>", every 7th one (5, 12, ...) padded to a longer name. */
static size_t node_name(uint64_t i, char *buf, size_t cap) {
  int k = snprintf(buf, cap, "n%llu", (unsigned long long)i);
  size_t len = (size_t)k;
  if (i % 7 == 5)
    for (; len < 40 + i % 50 && len + 1 < cap; len++) buf[len] = (char)('a' + (i + len) % 26);
  buf[len] = '\0';
  return len;
}

/* The graph of edges e[0..ne) on nodes 0..n-1 (named by node_name, pushed
 * first so that ids are 0..n-1), through the builder. */
static exo_graph *build(const char *dir, uint64_t n, const bedge *e, size_t ne, int directed,
                        exo_combine combine, int wide) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_build_options opt;
  memset(&opt, 0, sizeof opt);
  opt.parse.sep = '\t';
  opt.directed = directed;
  opt.tempdir_base = dir;
  opt.memory_limit = 16u << 20;
  opt.combine = combine;
  opt.force_wide_ids = wide;
  exo_builder *b = NULL;
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  char na[128], nb[128];
  for (uint64_t i = 0; i < n; i++) {
    size_t l = node_name(i, na, sizeof na);
    ck_assert_int_eq(exo_builder_add_node(b, na, l, &ctx), EXO_OK);
  }
  for (size_t i = 0; i < ne; i++) {
    size_t la = node_name(e[i].a, na, sizeof na), lb = node_name(e[i].b, nb, sizeof nb);
    ck_assert_int_eq(exo_builder_add_edge(b, na, la, nb, lb, e[i].w, &ctx), EXO_OK);
  }
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_builder_finish(b, &ctx, &g), EXO_OK);
  ck_assert_uint_eq(g->num_nodes, n);
  return g;
}

/* The expected statistics, straight from the definitions: the edges as
 * stored (combine max folds the copies of a pair, unordered when
 * undirected, into the largest weight; weights <= 0 store nothing). */
typedef struct expect {
  uint64_t *size, *pairs, *rep;
  double *internal, *external;
} expect;

static void brute_force(uint64_t n, const bedge *e0, size_t ne0, int directed,
                        exo_combine combine, const uint64_t *cl, uint64_t k, expect *x) {
  bedge *e = malloc((ne0 + 1) * sizeof *e);
  size_t ne = 0;
  for (size_t i = 0; i < ne0; i++) {
    if (!(e0[i].w > 0)) continue;
    bedge d = e0[i];
    if (combine == EXO_COMBINE_MAX) {
      size_t j;
      for (j = 0; j < ne; j++) {
        int same = (e[j].a == d.a && e[j].b == d.b) ||
                   (!directed && e[j].a == d.b && e[j].b == d.a);
        if (same) break;
      }
      if (j < ne) {
        if (d.w > e[j].w) e[j].w = d.w;
        continue;
      }
    }
    e[ne++] = d;
  }
  x->size = calloc(k + 1, 8);
  x->pairs = calloc(k + 1, 8);
  x->rep = calloc(k + 1, 8);
  x->internal = calloc(k + 1, 8);
  x->external = calloc(k + 1, 8);
  double *deg = calloc(n + 1, 8);
  uint8_t *joined = calloc(n * n + 1, 1); /* (a, b) joined; unordered: a < b */
  for (uint64_t v = 0; v < n; v++) x->size[cl[v]]++;
  for (size_t i = 0; i < ne; i++) {
    uint64_t a = e[i].a, b = e[i].b;
    if (cl[a] != cl[b]) {
      x->external[cl[a]] += e[i].w;
      x->external[cl[b]] += e[i].w;
      continue;
    }
    x->internal[cl[a]] += e[i].w;
    if (a == b) continue;
    deg[a] += e[i].w;
    deg[b] += e[i].w;
    if (!directed && a > b) {
      uint64_t t = a;
      a = b;
      b = t;
    }
    if (!joined[a * n + b]) {
      joined[a * n + b] = 1;
      x->pairs[cl[a]]++;
    }
  }
  for (uint64_t c = 1; c <= k; c++) {
    uint64_t best = UINT64_MAX;
    for (uint64_t v = 0; v < n; v++)
      if (cl[v] == c && (best == UINT64_MAX || deg[v] > deg[best])) best = v;
    x->rep[c] = best;
  }
  free(deg);
  free(joined);
  free(e);
}

static void expect_free(expect *x) {
  free(x->size);
  free(x->pairs);
  free(x->rep);
  free(x->internal);
  free(x->external);
}

/* A random clustering of n nodes into about k0 clusters, numbered 1..k in
 * order of first appearance. */
static uint64_t *random_clusters(uint64_t n, uint64_t k0, uint64_t *k) {
  uint64_t *cl = malloc((n + 1) * 8);
  if (k0 > n) k0 = n;
  for (uint64_t v = 0; v < n; v++) cl[v] = rnd() % k0; /* node ids < n as labels */
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_renumber(cl, n, k, &ctx), EXO_OK);
  return cl;
}

/* Random edges with weights in eighths (sums are exact), loops, repeats
 * and mirrors among them, and a few edges of weight <= 0. */
static bedge *random_edges(uint64_t n, size_t ne) {
  bedge *e = malloc((ne + 1) * sizeof *e);
  for (size_t i = 0; i < ne; i++) {
    uint64_t r = rnd();
    e[i].a = r % n;
    e[i].b = (r >> 20) % n;
    if (i > 0 && r % 11 == 0) e[i] = (bedge){e[i - 1].b, e[i - 1].a, 0}; /* mirror */
    if (i > 0 && r % 13 == 0) e[i] = (bedge){e[i - 1].a, e[i - 1].b, 0}; /* repeat */
    if (r % 17 == 0) e[i].b = e[i].a;                                       /* loop */
    e[i].w = (double)(1 + (r >> 40) % 80) / 8.0;
    if (r % 31 == 0) e[i].w = -e[i].w;
  }
  return e;
}

static void check_stats(const exo_clstats *s, const expect *x, uint64_t k) {
  ck_assert_uint_eq(s->k, k);
  for (uint64_t c = 1; c <= k; c++) {
    ck_assert_uint_eq(s->size[c], x->size[c]);
    ck_assert_uint_eq(s->pairs[c], x->pairs[c]);
    ck_assert(s->internal[c] == x->internal[c]);
    ck_assert(s->external[c] == x->external[c]);
    ck_assert_uint_eq(s->rep[c], x->rep[c]);
    double n = (double)x->size[c];
    if (x->size[c] < 2) {
      ck_assert(isnan(exo_clstats_density(s, c)));
    } else {
      double possible = s->directed ? n * (n - 1) : n * (n - 1) / 2;
      ck_assert(fabs(exo_clstats_density(s, c) - (double)x->pairs[c] / possible) < 1e-15);
      ck_assert(exo_clstats_density(s, c) <= 1.0);
    }
  }
}

/* Graphs of every shape against the brute force, several clusterings each;
 * the read buffers' size (memory_limit) changes nothing. */
START_TEST(statistics_match_brute_force) {
  static const struct { uint64_t n; size_t ne; uint64_t k0; } shapes[] = {
      {1, 0, 1}, {1, 3, 1}, {2, 1, 1}, {5, 12, 2}, {40, 200, 6}, {300, 900, 300},
      {2500, 12000, 40}, {2500, 12000, 1}};
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++) {
    for (int variant = 0; variant < 8; variant++) {
      int directed = variant & 1, wide = (variant >> 1) & 1;
      exo_combine combine = (variant >> 2) & 1 ? EXO_COMBINE_MAX : EXO_COMBINE_KEEP;
      uint64_t n = shapes[si].n;
      bedge *e = random_edges(n, shapes[si].ne);
      exo_graph *g = build(dir, n, e, shapes[si].ne, directed, combine, wide);
      exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs, g->wide};
      for (int rep = 0; rep < 2; rep++) {
        uint64_t k;
        uint64_t *cl = random_clusters(n, shapes[si].k0 + (uint64_t)rep, &k);
        expect x;
        brute_force(n, e, shapes[si].ne, directed, combine, cl, k, &x);
        exo_clstats s, s2;
        ck_assert_int_eq(exo_clstats_compute(&csr, directed, cl, k, 0, &ctx, &s), EXO_OK);
        check_stats(&s, &x, k);
        ck_assert_int_eq(
            exo_clstats_compute(&csr, directed, cl, k, (uint64_t)1 << 30, &ctx, &s2), EXO_OK);
        check_stats(&s2, &x, k);
        exo_clstats_free(&s);
        exo_clstats_free(&s2);
        ck_assert_ptr_null(s.size);
        expect_free(&x);
        free(cl);
      }
      exo_graph_free(g);
      free(e);
    }
  }
  ck_assert_int_eq(tu_count_entries(dir), 0);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* The definitions on a graph small enough to check by eye:
 * a - b (2), b - c (3), a - c (1), c - d (4), a - a (5), a - b again (1),
 * e alone; clusters {a, b, c}, {d}, {e}. */
START_TEST(small_graph_by_the_definitions) {
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  bedge e[] = {{0, 1, 2}, {1, 2, 3}, {0, 2, 1}, {2, 3, 4}, {0, 0, 5}, {0, 1, 1}};
  exo_graph *g = build(dir, 5, e, 6, 0, EXO_COMBINE_KEEP, 0);
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs, g->wide};
  uint64_t cl[] = {1, 1, 1, 2, 3};
  exo_clstats s;
  ck_assert_int_eq(exo_clstats_compute(&csr, 0, cl, 3, 0, &ctx, &s), EXO_OK);
  ck_assert_uint_eq(s.size[1], 3);
  ck_assert(s.internal[1] == 2 + 3 + 1 + 5 + 1); /* the loop once, both copies of a - b */
  ck_assert(s.external[1] == 4);
  ck_assert(s.external[2] == 4);
  ck_assert(s.internal[2] == 0);
  ck_assert_uint_eq(s.pairs[1], 3);               /* a - b counted once */
  ck_assert(exo_clstats_density(&s, 1) == 1.0);
  /* degrees inside: a 2+1+1 = 4 (the loop left out), b 2+1+3 = 6, c 3+1 = 4 */
  ck_assert_uint_eq(s.rep[1], 1);
  ck_assert(s.rep_degree[1] == 6);
  ck_assert_uint_eq(s.rep[2], 3);
  ck_assert_uint_eq(s.rep[3], 4);
  ck_assert(isnan(exo_clstats_density(&s, 3)));
  /* the table's text */
  char *out = tu_path(dir, "table.tsv");
  ck_assert_int_eq(exo_clstats_write(&s, g->names_path, cl, 5, '\t', out, 1 << 20, &ctx),
                   EXO_OK);
  char *text = tu_read_file(out, NULL);
  ck_assert_str_eq(text,
                   "Cluster\tSize\tInternalWeight\tExternalWeight\tDensity\tRepresentative\n"
                   "1\t3\t12\t4\t1\tn1\n"
                   "2\t1\t0\t4\tNA\tn3\n"
                   "3\t1\t0\t0\tNA\tn4\n");
  free(text);
  /* ties go to the smallest id: {a, c} has a - c only */
  uint64_t cl2[] = {1, 2, 1, 3, 4};
  exo_clstats_free(&s);
  ck_assert_int_eq(exo_clstats_compute(&csr, 0, cl2, 4, 0, &ctx, &s), EXO_OK);
  ck_assert_uint_eq(s.rep[1], 0);
  ck_assert(fabs(exo_clstats_density(&s, 1) - 1.0) < 1e-15);
  ck_assert(s.internal[1] == 1 + 5);
  ck_assert(s.external[1] == 2 + 3 + 1 + 4);
  exo_clstats_free(&s);
  exo_graph_free(g);
  unlink(out);
  free(out);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Directed: a -> b, b -> a, a -> b again, b -> c; {a, b} and {c}. */
START_TEST(directed_by_the_definitions) {
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  bedge e[] = {{0, 1, 2}, {1, 0, 3}, {0, 1, 0.5}, {1, 2, 4}, {2, 2, 1}};
  exo_graph *g = build(dir, 3, e, 5, 1, EXO_COMBINE_KEEP, 0);
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs, g->wide};
  uint64_t cl[] = {1, 1, 2};
  exo_clstats s;
  ck_assert_int_eq(exo_clstats_compute(&csr, 1, cl, 2, 0, &ctx, &s), EXO_OK);
  ck_assert(s.internal[1] == 5.5);
  ck_assert(s.external[1] == 4);
  ck_assert(s.external[2] == 4);
  ck_assert(s.internal[2] == 1); /* the loop c -> c once */
  ck_assert_uint_eq(s.pairs[1], 2); /* (a, b) and (b, a) */
  ck_assert(exo_clstats_density(&s, 1) == 1.0);
  ck_assert_uint_eq(s.rep[1], 0); /* a and b both 5.5: the smaller id */
  ck_assert(s.rep_degree[1] == 5.5);
  exo_clstats_free(&s);
  exo_graph_free(g);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* The parsed table (one row per cluster) equals the statistics and names
 * the representatives; a budget of a few bytes (one pass over the names
 * per cluster or so) and names longer than the buffers give the same bytes. */
START_TEST(table_text_and_name_passes) {
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  const uint64_t n = 600;
  bedge *e = random_edges(n, 3000);
  exo_graph *g = build(dir, n, e, 3000, 0, EXO_COMBINE_KEEP, 0);
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs, g->wide};
  uint64_t k;
  uint64_t *cl = random_clusters(n, 50, &k);
  exo_clstats s;
  ck_assert_int_eq(exo_clstats_compute(&csr, 0, cl, k, 0, &ctx, &s), EXO_OK);
  char *out = tu_path(dir, "table.tsv");
  ck_assert_int_eq(exo_clstats_write(&s, g->names_path, cl, n, '\t', out, 1 << 20, &ctx),
                   EXO_OK);
  char *text = tu_read_file(out, NULL);
  char *p = strchr(text, '\n') + 1;
  for (uint64_t c = 1; c <= k; c++) {
    unsigned long long cc, size;
    double in, ext;
    char dens[32], name[256];
    ck_assert_int_eq(sscanf(p, "%llu\t%llu\t%lf\t%lf\t%31s\t%255s", &cc, &size, &in, &ext,
                            dens, name), 6);
    ck_assert_uint_eq(cc, c);
    ck_assert_uint_eq(size, s.size[c]);
    ck_assert(fabs(in - s.internal[c]) <= 1e-12 * s.internal[c]);
    ck_assert(fabs(ext - s.external[c]) <= 1e-12 * s.external[c]);
    if (s.size[c] < 2)
      ck_assert_str_eq(dens, "NA");
    else
      ck_assert(fabs(strtod(dens, NULL) - exo_clstats_density(&s, c)) < 1e-14);
    char want[128];
    node_name(s.rep[c], want, sizeof want);
    ck_assert_str_eq(name, want);
    p = strchr(p, '\n') + 1;
  }
  ck_assert_int_eq(*p, '\0');
  /* tiny budgets: one cluster's name at a time, or a few */
  char *out2 = tu_path(dir, "table2.tsv");
  for (uint64_t budget = 2; budget < 200; budget = budget * 3 + 1) {
    ck_assert_int_eq(exo_clstats_write(&s, g->names_path, cl, n, '\t', out2, budget, &ctx),
                     EXO_OK);
    char *t2 = tu_read_file(out2, NULL);
    ck_assert_str_eq(t2, text);
    free(t2);
  }
  /* a separator other than a tab */
  ck_assert_int_eq(exo_clstats_write(&s, g->names_path, cl, n, ',', out2, 1 << 20, &ctx),
                   EXO_OK);
  char *t3 = tu_read_file(out2, NULL);
  for (char *q = text; *q; q++)
    if (*q == '\t') *q = ',';
  ck_assert_str_eq(t3, text);
  free(t3);
  free(text);
  exo_clstats_free(&s);
  exo_graph_free(g);
  free(cl);
  free(e);
  unlink(out);
  unlink(out2);
  free(out);
  free(out2);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* a - X (1), X - c (2), a - c (1), d - e (2): X is {a, X, c}'s representative
 * (degree 3, tied with c, smaller id). A representative's name of 3 MiB (longer than the names reader's buffer
 * and than a small budget) comes out whole. */
START_TEST(long_names) {
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  size_t big = (size_t)3 << 20;
  char *name = malloc(big);
  memset(name, 'x', big);
  exo_build_options opt;
  memset(&opt, 0, sizeof opt);
  opt.parse.sep = '\t';
  opt.tempdir_base = dir;
  opt.memory_limit = 16u << 20;
  exo_builder *b = NULL;
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "a", 1, name, big, 1, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, name, big, "c", 1, 2, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "a", 1, "c", 1, 1, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "d", 1, "e", 1, 2, &ctx), EXO_OK);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_builder_finish(b, &ctx, &g), EXO_OK);
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs, g->wide};
  uint64_t cl[] = {1, 1, 1, 2, 2};
  exo_clstats s;
  ck_assert_int_eq(exo_clstats_compute(&csr, 0, cl, 2, 0, &ctx, &s), EXO_OK);
  ck_assert_uint_eq(s.rep[1], 1);
  char *out = tu_path(dir, "t.tsv");
  for (uint64_t budget = 16; budget <= ((uint64_t)64 << 20); budget <<= 11) {
    ck_assert_int_eq(exo_clstats_write(&s, g->names_path, cl, 5, '\t', out, budget, &ctx),
                     EXO_OK);
    size_t len;
    char *t = tu_read_file(out, &len);
    const char *row1 = strchr(t, '\n') + 1;
    ck_assert(strncmp(row1, "1\t3\t4\t0\t1\t", 10) == 0);
    ck_assert(memcmp(row1 + 10, name, big) == 0);
    ck_assert_str_eq(row1 + 10 + big, "\n2\t2\t2\t0\t1\td\n");
    free(t);
  }
  unlink(out);
  free(out);
  free(name);
  exo_clstats_free(&s);
  exo_graph_free(g);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Bad clusters and special files are refused; nothing is replaced. */
START_TEST(refusals) {
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  bedge e[] = {{0, 1, 1}};
  exo_graph *g = build(dir, 3, e, 1, 0, EXO_COMBINE_KEEP, 0);
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs, g->wide};
  exo_clstats s;
  uint64_t bad0[] = {1, 0, 2}, bad3[] = {1, 3, 2}, good[] = {1, 1, 2};
  ck_assert_int_eq(exo_clstats_compute(&csr, 0, bad0, 2, 0, &ctx, &s), EXO_EARG);
  exo_error_clear(&ctx.err);
  ck_assert_int_eq(exo_clstats_compute(&csr, 0, bad3, 2, 0, &ctx, &s), EXO_EARG);
  exo_error_clear(&ctx.err);
  ck_assert_int_eq(exo_clstats_compute(&csr, 0, good, 4, 0, &ctx, &s), EXO_EARG);
  exo_error_clear(&ctx.err);
  ck_assert_int_eq(exo_clstats_compute(&csr, 0, good, 2, 0, &ctx, &s), EXO_OK);
  /* a FIFO is written into as it is (exo_outfile), never replaced; a
   * directory is refused */
  char *fifo = tu_path(dir, "fifo");
#ifndef _WIN32 /* no FIFOs */
  char *got = tu_path(dir, "got.tsv");
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  int pid = tu_fifo_reader(fifo, got);
  ck_assert_int_ge(pid, 0);
  ck_assert_int_eq(exo_clstats_write(&s, g->names_path, good, 3, '\t', fifo, 1 << 20, &ctx),
                   EXO_OK);
  ck_assert_msg(tu_fifo_reader_wait(pid) == 0, "the FIFO's reader failed");
  struct stat sb;
  ck_assert_int_eq(lstat(fifo, &sb), 0);
  ck_assert_msg(S_ISFIFO(sb.st_mode), "the FIFO was replaced");
  size_t glen = 0;
  char *text = tu_read_file(got, &glen);
  ck_assert_ptr_nonnull(text);
  /* the same bytes as the table written to a regular file */
  char *reg = tu_path(dir, "reg.tsv");
  ck_assert_int_eq(exo_clstats_write(&s, g->names_path, good, 3, '\t', reg, 1 << 20, &ctx),
                   EXO_OK);
  size_t rlen = 0;
  char *want = tu_read_file(reg, &rlen);
  ck_assert_ptr_nonnull(want);
  ck_assert_ptr_nonnull(strstr(want, "Cluster\tSize\tInternalWeight"));
  ck_assert_uint_eq(glen, rlen);
  ck_assert_mem_eq(text, want, rlen);
  free(want);
  free(text);
  unlink(reg);
  unlink(got);
  free(reg);
  free(got);
#endif
  ck_assert_int_eq(exo_clstats_check_path(dir, &ctx), EXO_EARG);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "is a directory"));
  exo_error_clear(&ctx.err);
  ck_assert_int_eq(exo_clstats_write(&s, g->names_path, good, 3, '\n', fifo, 1 << 20, &ctx),
                   EXO_EARG);
  exo_error_clear(&ctx.err);
  /* a missing directory: an I/O error, nothing left */
  char *missing = tu_path(dir, "no/such/table.tsv");
  ck_assert_int_ne(exo_clstats_write(&s, g->names_path, good, 3, '\t', missing, 1 << 20, &ctx),
                   EXO_OK);
  exo_error_clear(&ctx.err);
  unlink(fifo);
  free(fifo);
  free(missing);
  exo_clstats_free(&s);
  exo_graph_free(g);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* The pipeline's hook: label propagation (with refine) and Leiden write a
 * table whose rows agree with their cluster file (sizes, representatives'
 * clusters) and with exo_clstats on those clusters; same bytes for any
 * threads and memory_limit; no table unless asked. */
static char *pipeline_table(const char *dir, const char *file, int threads, uint64_t mem,
                            int leiden, char **clusters_text) {
  exo_build_options opt;
  memset(&opt, 0, sizeof opt);
  const char *files[] = {file};
  opt.files = files;
  opt.nfiles = 1;
  opt.parse.sep = '\t';
  opt.parse.threads = threads;
  opt.tempdir_base = dir;
  opt.memory_limit = mem;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_graph_build(&opt, &ctx, &g), EXO_OK);
  char *out = tu_path(dir, "clusters.tsv"), *table = tu_path(dir, "table.tsv");
  exo_cluster_result res;
  /* not asked: no table */
  exo_lp_params p;
  memset(&p, 0, sizeof p);
  p.seed = 3;
  p.memory_limit = mem;
  ck_assert_int_eq(exo_graph_cluster(g, &p, out, '\t', &ctx, &res), EXO_OK);
  ck_assert_int_ne(access(table, F_OK), 0);
  g->cluster_table = table;
  if (leiden) {
    exo_leiden_params lp;
    memset(&lp, 0, sizeof lp);
    lp.seed = 3;
    lp.memory_limit = mem;
    lp.resolution = 1;
    lp.iterations = 2;
    ck_assert_int_eq(exo_graph_leiden(g, &lp, out, '\t', &ctx, &res), EXO_OK);
  } else {
    exo_refine_params rp;
    memset(&rp, 0, sizeof rp);
    rp.passes = 3;
    rp.ratio = EXO_REFINE_RATIO;
    rp.memory_limit = mem;
    rp.resolution = 1.0;
    ck_assert_int_eq(exo_graph_cluster_refined(g, &p, &rp, out, '\t', &ctx, &res), EXO_OK);
  }
  ck_assert(res.seconds_table >= 0);
  char *text = tu_read_file(table, NULL);
  *clusters_text = tu_read_file(out, NULL);
  /* the rows against the cluster file */
  uint64_t n = g->num_nodes, k = res.num_clusters;
  uint64_t *cl = malloc(n * 8);
  char **names = malloc(n * sizeof *names);
  const char *q = *clusters_text;
  for (uint64_t v = 0; v < n; v++) {
    const char *tab = strchr(q, '\t');
    names[v] = calloc((size_t)(tab - q) + 1, 1);
    memcpy(names[v], q, (size_t)(tab - q));
    cl[v] = strtoull(tab + 1, NULL, 10);
    q = strchr(tab, '\n') + 1;
  }
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs, g->wide};
  exo_clstats s;
  ck_assert_int_eq(exo_clstats_compute(&csr, 0, cl, k, 0, &ctx, &s), EXO_OK);
  char *direct = tu_path(dir, "direct.tsv");
  ck_assert_int_eq(exo_clstats_write(&s, g->names_path, cl, n, '\t', direct, 1 << 20, &ctx),
                   EXO_OK);
  char *dtext = tu_read_file(direct, NULL);
  ck_assert_str_eq(dtext, text);
  const char *r = strchr(text, '\n') + 1;
  for (uint64_t c = 1; c <= k; c++) {
    unsigned long long cc, size;
    ck_assert_int_eq(sscanf(r, "%llu\t%llu", &cc, &size), 2);
    ck_assert_uint_eq(cc, c);
    uint64_t count = 0;
    for (uint64_t v = 0; v < n; v++) count += cl[v] == c;
    ck_assert_uint_eq(size, count);
    const char *nl = strchr(r, '\n');
    const char *name = nl;
    while (name[-1] != '\t') name--;
    ck_assert_uint_eq((uint64_t)(nl - name), strlen(names[s.rep[c]]));
    ck_assert(strncmp(name, names[s.rep[c]], (size_t)(nl - name)) == 0);
    r = nl + 1;
  }
  for (uint64_t v = 0; v < n; v++) free(names[v]);
  free(names);
  free(cl);
  free(dtext);
  unlink(direct);
  free(direct);
  exo_clstats_free(&s);
  unlink(out);
  unlink(table);
  free(out);
  free(table);
  exo_graph_free(g);
  return text;
}

START_TEST(pipeline_hook) {
  char *dir = tu_mkdtemp();
  /* 40 cliques of 12, joined in a ring, with random extra edges */
  size_t cap = 1 << 20, len = 0;
  char *t = malloc(cap);
  for (int c = 0; c < 40; c++) {
    for (int i = 0; i < 12; i++)
      for (int j = i + 1; j < 12; j++)
        len += (size_t)snprintf(t + len, cap - len, "c%d_%d\tc%d_%d\t%d\n", c, i, c, j,
                                1 + (i * j) % 5);
    len += (size_t)snprintf(t + len, cap - len, "c%d_11\tc%d_0\t1\n", c, (c + 1) % 40);
  }
  for (int i = 0; i < 200; i++) {
    uint64_t r = rnd();
    len += (size_t)snprintf(t + len, cap - len, "c%d_%d\tc%d_%d\t0.5\n", (int)(r % 40),
                            (int)((r >> 8) % 12), (int)((r >> 16) % 40), (int)((r >> 24) % 12));
  }
  char *f = tu_write_text(dir, "edges.tsv", t);
  for (int leiden = 0; leiden < 2; leiden++) {
    char *c1, *c2, *c3;
    char *one = pipeline_table(dir, f, 1, (uint64_t)64 << 20, leiden, &c1);
    char *two = pipeline_table(dir, f, 3, (uint64_t)1 << 20, leiden, &c2);
    char *thr = pipeline_table(dir, f, 2, (uint64_t)8 << 20, leiden, &c3);
    ck_assert_str_eq(c1, c2);
    ck_assert_str_eq(c1, c3);
    ck_assert_str_eq(one, two);
    ck_assert_str_eq(one, thr);
    free(one);
    free(two);
    free(thr);
    free(c1);
    free(c2);
    free(c3);
  }
  unlink(f);
  free(f);
  free(t);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

Suite *clstats_suite(void) {
  Suite *s = suite_create("clstats");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, statistics_match_brute_force);
  tcase_add_test(tc, small_graph_by_the_definitions);
  tcase_add_test(tc, directed_by_the_definitions);
  tcase_add_test(tc, table_text_and_name_passes);
  tcase_add_test(tc, long_names);
  tcase_add_test(tc, refusals);
  tcase_add_test(tc, pipeline_hook);
  suite_add_tcase(s, tc);
  return s;
}
