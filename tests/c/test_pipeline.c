/* test_pipeline.c: the whole core run, from edge-list files to cluster files:
 * results, forced wide ids, tiny memory limits, cleanup on error and on
 * interrupt. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exo_pipeline.h"
#include "testutil.h"

/* Build and cluster `files` with the given knobs; returns status and fills
 * *out_text with the output file's contents (malloc'd). */
static exo_status run_files(const char *dir, const char **files, size_t nfiles,
                            int directed, int wide, uint64_t run_records,
                            uint32_t fan_in, uint64_t seed, char **out_text,
                            exo_ctx *ctx, exo_graph **keep) {
  exo_build_options opt;
  memset(&opt, 0, sizeof opt);
  opt.files = files;
  opt.nfiles = nfiles;
  opt.parse.sep = '\t';
  opt.directed = directed;
  opt.tempdir_base = dir;
  opt.memory_limit = 64u << 20;
  opt.force_wide_ids = wide;
  opt.run_records = run_records;
  opt.fan_in = fan_in;
  exo_graph *g = NULL;
  exo_status st = exo_graph_build(&opt, ctx, &g);
  if (st) return st;
  exo_lp_params p;
  memset(&p, 0, sizeof p);
  p.seed = seed;
  p.max_visits = 100;
  p.memory_limit = 1u << 20;
  exo_cluster_result res;
  char *out = tu_path(dir, "out.tsv");
  st = exo_graph_cluster(g, &p, out, '\t', ctx, &res);
  if (!st && out_text) *out_text = tu_read_file(out, NULL);
  unlink(out);
  free(out);
  if (keep)
    *keep = g;
  else
    exo_graph_free(g);
  return st;
}

/* "k cliques of size s" edge list text, cliques joined in a ring. */
static char *clique_text(int k, int s) {
  size_t cap = 1 << 20, len = 0;
  char *t = malloc(cap);
  for (int c = 0; c < k; c++) {
    for (int i = 0; i < s; i++)
      for (int j = i + 1; j < s; j++)
        len += (size_t)snprintf(t + len, cap - len, "c%d_%d\tc%d_%d\t1\n", c, i, c, j);
    len += (size_t)snprintf(t + len, cap - len, "c%d_%d\tc%d_0\t1\n", c, s - 1, (c + 1) % k);
  }
  return t;
}

/* Every output line's cluster equals that of the first node of its clique. */
static void assert_cliques(const char *text, int k, int s) {
  int cluster_of_clique[64];
  for (int c = 0; c < k; c++) cluster_of_clique[c] = -1;
  int lines = 0, seen[64] = {0};
  const char *p = text;
  while (*p) {
    int c, i, cl;
    ck_assert_int_eq(sscanf(p, "c%d_%d\t%d", &c, &i, &cl), 3);
    if (cluster_of_clique[c] < 0) cluster_of_clique[c] = cl;
    ck_assert_int_eq(cluster_of_clique[c], cl);
    seen[cl] = 1;
    lines++;
    p = strchr(p, '\n') + 1;
  }
  ck_assert_int_eq(lines, k * s);
  for (int cl = 1; cl <= k; cl++) ck_assert(seen[cl]);
}

START_TEST(cliques_narrow_wide_tiny_memory_agree) {
  char *dir = tu_mkdtemp();
  char *text = clique_text(6, 7);
  char *f = tu_write_text(dir, "edges.tsv", text);
  const char *files[] = {f};
  char *base = NULL, *other = NULL;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(run_files(dir, files, 1, 0, 0, 0, 0, 9, &base, &ctx, NULL), EXO_OK);
  assert_cliques(base, 6, 7);
  /* wide ids on disk, then tiny runs with a fan-in of 2: same bytes */
  ck_assert_int_eq(run_files(dir, files, 1, 0, 1, 0, 0, 9, &other, &ctx, NULL), EXO_OK);
  ck_assert_str_eq(base, other);
  free(other);
  exo_graph *g = NULL;
  ck_assert_int_eq(run_files(dir, files, 1, 0, 0, 5, 2, 9, &other, &ctx, &g), EXO_OK);
  ck_assert_str_eq(base, other);
  ck_assert_uint_gt(g->sort.runs, 20);
  ck_assert_uint_ge(g->sort.merge_passes, 3);
  ck_assert_uint_eq(g->num_nodes, 42);
  ck_assert_uint_eq(g->num_edges, 2 * (6 * 21 + 6));
  exo_graph_free(g);
  free(other);
  /* only the input file is left */
  ck_assert_int_eq(tu_count_entries(dir), 1);
  free(base);
  free(text);
  free(f);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(split_files_equal_one_file) {
  char *dir = tu_mkdtemp();
  char *text = clique_text(3, 5);
  size_t half = strlen(text) / 2;
  while (text[half - 1] != '\n') half++;
  char *whole = tu_write_text(dir, "whole.tsv", text);
  char *second = tu_write_text(dir, "b.tsv", text + half);
  text[half] = '\0';
  char *first = tu_write_text(dir, "a.tsv", text);
  const char *one[] = {whole}, *two[] = {first, second};
  char *x = NULL, *y = NULL;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(run_files(dir, one, 1, 0, 0, 0, 0, 3, &x, &ctx, NULL), EXO_OK);
  ck_assert_int_eq(run_files(dir, two, 2, 0, 0, 0, 0, 3, &y, &ctx, NULL), EXO_OK);
  ck_assert_str_eq(x, y);
  free(x);
  free(y);
  free(text);
  free(whole);
  free(first);
  free(second);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(directed_weights_and_nonpositive_edges) {
  char *dir = tu_mkdtemp();
  /* chain a->b->c->d; e only has a zero-weight edge, f a negative one */
  char *f = tu_write_text(dir, "d.tsv", "a\tb\t1\nb\tc\t1\nc\td\t1\ne\ta\t0\nf\tb\t-2\n");
  const char *files[] = {f};
  char *out = NULL;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_graph *g = NULL;
  ck_assert_int_eq(run_files(dir, files, 1, 1, 0, 0, 0, 1, &out, &ctx, &g), EXO_OK);
  ck_assert_uint_eq(g->num_nodes, 6);
  ck_assert_uint_eq(g->num_edges, 3);
  ck_assert_uint_eq(g->num_arcs, 6);
  ck_assert_uint_eq(g->num_lines, 5);
  exo_graph_free(g);
  /* a, b, c, d share cluster 1; e and f are alone */
  ck_assert_str_eq(out, "a\t1\nb\t1\nc\t1\nd\t1\ne\t2\nf\t3\n");
  free(out);
  free(f);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(bad_input_leaves_nothing_behind) {
  char *dir = tu_mkdtemp();
  char *f = tu_write_text(dir, "bad.tsv", "a\tb\t1\nb\tc\nc\td\tx\n");
  const char *files[] = {f};
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(run_files(dir, files, 1, 0, 0, 0, 0, 1, NULL, &ctx, NULL), EXO_EINPUT);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "bad.tsv:3:"));
  ck_assert_int_eq(tu_count_entries(dir), 1);
  const char *missing[] = {"/nonexistent-exo/file.tsv"};
  exo_ctx_init(&ctx);
  ck_assert_int_eq(run_files(dir, missing, 1, 0, 0, 0, 0, 1, NULL, &ctx, NULL), EXO_EIO);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "/nonexistent-exo/file.tsv"));
  ck_assert_int_eq(tu_count_entries(dir), 1);
  free(f);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

static void builder_options(exo_build_options *opt, const char *dir, int directed);
static int polls_left;
static int stop_after_polls(void *user) {
  (void)user;
  return --polls_left < 0;
}

START_TEST(interrupt_at_every_point_cleans_up) {
  char *dir = tu_mkdtemp();
  char *text = clique_text(20, 12);
  char *f = tu_write_text(dir, "edges.tsv", text);
  const char *files[] = {f};
  /* count the polls of a whole run, then stop it at 40 points (12 under Wine) spread over
   * them: every stage is hit, and each stop leaves only the input file */
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ctx.cb.interrupted = stop_after_polls;
  polls_left = 1 << 30;
  ck_assert_int_eq(run_files(dir, files, 1, 0, 0, 7, 2, 1, NULL, &ctx, NULL), EXO_OK);
  int total = (1 << 30) - polls_left;
  const int points = TU_WINE(40, 12); /* under Wine: 12 points */
  ck_assert_int_gt(total, points);
  for (int i = 0; i < points; i++) {
    exo_ctx_init(&ctx);
    ctx.cb.interrupted = stop_after_polls;
    polls_left = (int)((long)total * i / points);
    ck_assert_int_eq(run_files(dir, files, 1, 0, 0, 7, 2, 1, NULL, &ctx, NULL), EXO_EINTR);
    ck_assert_str_eq(ctx.err.msg, "interrupted by the user");
    ck_assert_int_eq(tu_count_entries(dir), 1);
  }
  exo_ctx_init(&ctx);
  ctx.cb.interrupted = stop_after_polls;
  polls_left = total;
  ck_assert_int_eq(run_files(dir, files, 1, 0, 0, 7, 2, 1, NULL, &ctx, NULL), EXO_OK);
  free(text);
  free(f);
  tu_rmdir(dir);
  free(dir);
}
END_TEST


/* The self-score pass of EXO_WT_SELFNORM polls too: a build stopped at any
 * of its polls (the last ones are that pass's) fails with EXO_EINTR and
 * leaves only the input file, no half-written .norm file. */
START_TEST(selfnorm_interrupt_cleans_up) {
  char *dir = tu_mkdtemp();
  char *text = clique_text(20, 12);
  char *f = tu_write_text(dir, "edges.tsv", text);
  const char *files[] = {f};
  exo_build_options opt;
  builder_options(&opt, dir, 0);
  opt.files = files;
  opt.nfiles = 1;
  opt.parse.transform = EXO_WT_SELFNORM;
  opt.drop_self_loops = 1;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ctx.cb.interrupted = stop_after_polls;
  polls_left = 1 << 30;
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_graph_build(&opt, &ctx, &g), EXO_OK);
  exo_graph_free(g);
  const int total = (1 << 30) - polls_left;
  /* without the pass, the same build polls fewer times */
  opt.parse.transform = EXO_WT_NONE;
  exo_ctx_init(&ctx);
  ctx.cb.interrupted = stop_after_polls;
  polls_left = 1 << 30;
  ck_assert_int_eq(exo_graph_build(&opt, &ctx, &g), EXO_OK);
  exo_graph_free(g);
  ck_assert_int_lt((1 << 30) - polls_left, total);
  opt.parse.transform = EXO_WT_SELFNORM;
  for (int i = 0; i < total; i++) {
    exo_ctx_init(&ctx);
    ctx.cb.interrupted = stop_after_polls;
    polls_left = i;
    g = NULL;
    ck_assert_int_eq(exo_graph_build(&opt, &ctx, &g), EXO_EINTR);
    ck_assert_ptr_null(g);
    ck_assert_int_eq(tu_count_entries(dir), 1);
  }
  free(text);
  free(f);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* ---- push API (exo_builder) ------------------------------------------ */

static void builder_options(exo_build_options *opt, const char *dir, int directed) {
  memset(opt, 0, sizeof *opt);
  opt->parse.sep = '\t';
  opt->directed = directed;
  opt->tempdir_base = dir;
  opt->memory_limit = 64u << 20;
}

/* Cluster a finished graph into a string (malloc'd) with the run_files
 * parameters; frees the graph. */
static char *cluster_to_text(const char *dir, exo_graph *g, uint64_t seed, exo_ctx *ctx,
                             exo_cluster_result *res_out) {
  exo_lp_params p;
  memset(&p, 0, sizeof p);
  p.seed = seed;
  p.max_visits = 100;
  p.memory_limit = 1u << 20;
  exo_cluster_result res;
  char *out = tu_path(dir, "pushed.tsv");
  ck_assert_int_eq(exo_graph_cluster(g, &p, out, '\t', ctx, &res), EXO_OK);
  char *text = tu_read_file(out, NULL);
  unlink(out);
  free(out);
  exo_graph_free(g);
  if (res_out) *res_out = res;
  return text;
}

/* Threads and memory change nothing: two parser threads (4 KiB blocks) with
 * runs sorted and written on the run thread, the name table growing while
 * the sort's buffers shrink to make room, give the bytes of one thread with
 * plenty of memory. */
static char *run_threads(const char *dir, const char *file, int threads, uint64_t mem,
                         uint64_t *runs) {
  exo_build_options opt;
  builder_options(&opt, dir, 0);
  const char *files[] = {file};
  opt.files = files;
  opt.nfiles = 1;
  opt.parse.threads = threads;
  opt.parse.block_bytes = 4096;
  opt.memory_limit = mem;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_graph_build(&opt, &ctx, &g), EXO_OK);
  *runs = g->sort.runs;
  return cluster_to_text(dir, g, 5, &ctx, NULL);
}

START_TEST(threads_and_memory_agree) {
  char *dir = tu_mkdtemp();
  char *text = clique_text(60, 16); /* 960 names, 7260 edges, 125 KB */
  char *f = tu_write_text(dir, "edges.tsv", text);
  uint64_t runs1, runs2, runs_big;
  char *big = run_threads(dir, f, 1, (uint64_t)64 << 20, &runs_big);
  assert_cliques(big, 60, 16);
  char *one = run_threads(dir, f, 1, (uint64_t)256 << 10, &runs1);
  char *two = run_threads(dir, f, 2, (uint64_t)256 << 10, &runs2);
  ck_assert_str_eq(one, big);
  ck_assert_str_eq(two, big);
  ck_assert_uint_eq(runs_big, 1);
  ck_assert_uint_gt(runs1, 2);
  ck_assert_uint_gt(runs2, runs1); /* a third of the budget per run, not a half */
  ck_assert_int_eq(tu_count_entries(dir), 1);
  free(big);
  free(one);
  free(two);
  free(text);
  free(f);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Push every line of an edge-list text ("a\tb\tw\n") as an edge. */
static exo_status push_text(exo_builder *b, const char *text, exo_ctx *ctx) {
  const char *p = text;
  while (*p) {
    const char *t1 = strchr(p, '\t'), *t2 = strchr(t1 + 1, '\t');
    const char *nl = strchr(t2, '\n');
    double w = strtod(t2 + 1, NULL);
    exo_status st = exo_builder_add_edge(b, p, (size_t)(t1 - p), t1 + 1,
                                         (size_t)(t2 - t1 - 1), w, ctx);
    if (st) return st;
    p = nl + 1;
  }
  return EXO_OK;
}

START_TEST(pushed_edges_equal_the_file) {
  char *dir = tu_mkdtemp();
  char *text = clique_text(6, 7);
  char *f = tu_write_text(dir, "edges.tsv", text);
  const char *files[] = {f};
  char *from_file = NULL;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(run_files(dir, files, 1, 0, 0, 0, 0, 9, &from_file, &ctx, NULL), EXO_OK);

  exo_build_options opt;
  builder_options(&opt, dir, 0);
  exo_builder *b = NULL;
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  exo_builder_expect(b, 6 * 22);
  ck_assert_int_eq(push_text(b, text, &ctx), EXO_OK);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_builder_finish(b, &ctx, &g), EXO_OK);
  ck_assert_uint_eq(g->num_nodes, 42);
  ck_assert_uint_eq(g->num_lines, 6 * 22);
  ck_assert_uint_eq(g->num_edges, 2 * 6 * 22);
  exo_cluster_result res;
  char *pushed = cluster_to_text(dir, g, 9, &ctx, &res);
  ck_assert_str_eq(from_file, pushed);
  /* six clusters of seven: all in the [4, 8) size bin */
  ck_assert_uint_eq(res.num_clusters, 6);
  ck_assert_uint_eq(res.largest, 7);
  ck_assert_uint_eq(res.size_bins[2], 6);
  ck_assert_uint_eq(res.size_bins[0] + res.size_bins[1] + res.size_bins[3], 0);
  free(pushed);

  /* half from the file's first part, half pushed: same bytes again */
  size_t half = strlen(text) / 2;
  while (text[half - 1] != '\n') half++;
  char *second = strdup(text + half);
  text[half] = '\0';
  char *first = tu_write_text(dir, "first.tsv", text);
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  ck_assert_int_eq(exo_builder_add_file(b, first, &ctx), EXO_OK);
  ck_assert_int_eq(push_text(b, second, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_finish(b, &ctx, &g), EXO_OK);
  pushed = cluster_to_text(dir, g, 9, &ctx, NULL);
  ck_assert_str_eq(from_file, pushed);
  free(pushed);
  ck_assert_int_eq(tu_count_entries(dir), 2);
  free(second);
  free(first);
  free(from_file);
  free(text);
  free(f);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(pushed_nodes_weights_and_directed) {
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_build_options opt;
  builder_options(&opt, dir, 1);
  exo_builder *b = NULL;
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  /* isolated nodes first keep their place in the output order */
  ck_assert_int_eq(exo_builder_add_node(b, "lonely", 6, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "a", 1, "b", 1, 1.0, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "b", 1, "c", 1, 2.5, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_node(b, "a", 1, &ctx), EXO_OK); /* known */
  ck_assert_int_eq(exo_builder_add_edge(b, "zero", 4, "a", 1, 0.0, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "neg", 3, "c", 1, -1.0, &ctx), EXO_OK);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_builder_finish(b, &ctx, &g), EXO_OK);
  ck_assert_uint_eq(g->num_nodes, 6);
  ck_assert_uint_eq(g->num_lines, 4);
  ck_assert_uint_eq(g->num_edges, 2);
  char *out = cluster_to_text(dir, g, 1, &ctx, NULL);
  ck_assert_str_eq(out, "lonely\t1\na\t2\nb\t2\nc\t2\nzero\t3\nneg\t4\n");
  free(out);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Push `n` edges with the combine rule and return the graph. */
static exo_graph *combined_graph(const char *dir, int directed, exo_combine combine,
                                 const char *const (*e)[2], const double *w, size_t n) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_build_options opt;
  builder_options(&opt, dir, 1);
  opt.directed = directed;
  opt.combine = combine;
  exo_builder *b = NULL;
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  for (size_t i = 0; i < n; i++)
    ck_assert_int_eq(exo_builder_add_edge(b, e[i][0], strlen(e[i][0]), e[i][1],
                                          strlen(e[i][1]), w[i], &ctx), EXO_OK);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_builder_finish(b, &ctx, &g), EXO_OK);
  return g;
}

/* The adjacency file as "nbr:w" items, one node per ';'. */
static void adjacency_text(const exo_graph *g, char *buf, size_t cap) {
  size_t ol, al, len = 0;
  char *o = tu_read_file(g->offsets_path, &ol), *a = tu_read_file(g->adj_path, &al);
  ck_assert_uint_eq(ol, 8 * (g->num_nodes + 1));
  ck_assert_uint_eq(al, 8 * g->num_arcs);
  buf[0] = '\0';
  for (uint64_t v = 0; v < g->num_nodes; v++) {
    uint64_t lo, hi;
    memcpy(&lo, o + 8 * v, 8);
    memcpy(&hi, o + 8 * (v + 1), 8);
    for (uint64_t i = lo; i < hi; i++) {
      uint32_t nbr;
      float w;
      memcpy(&nbr, a + 8 * i, 4);
      memcpy(&w, a + 8 * i + 4, 4);
      len += (size_t)snprintf(buf + len, cap - len, "%u:%g ", nbr, (double)w);
    }
    len += (size_t)snprintf(buf + len, cap - len, ";");
  }
  free(o);
  free(a);
}

START_TEST(combine_duplicates_and_mirrors) {
  char *dir = tu_mkdtemp();
  const char *const e[][2] = {{"a", "b"}, {"b", "a"}, {"a", "b"}, {"a", "a"}, {"a", "c"}};
  const double w[] = {2, 5, 1, 3, 4};
  char buf[512];
  /* undirected: KEEP stores every arc, SUM/MAX one per ordered pair */
  exo_graph *g = combined_graph(dir, 0, EXO_COMBINE_KEEP, e, w, 5);
  ck_assert_uint_eq(g->num_edges, 9);
  ck_assert_uint_eq(g->num_arcs, 9);
  adjacency_text(g, buf, sizeof buf);
  ck_assert_str_eq(buf, "0:3 1:2 1:5 1:1 2:4 ;0:2 0:5 0:1 ;0:4 ;");
  exo_graph_free(g);
  g = combined_graph(dir, 0, EXO_COMBINE_SUM, e, w, 5);
  ck_assert_uint_eq(g->num_lines, 5);
  ck_assert_uint_eq(g->num_edges, 5);
  adjacency_text(g, buf, sizeof buf);
  ck_assert_str_eq(buf, "0:3 1:8 2:4 ;0:8 ;0:4 ;");
  exo_graph_free(g);
  g = combined_graph(dir, 0, EXO_COMBINE_MAX, e, w, 5);
  ck_assert_uint_eq(g->num_edges, 5);
  adjacency_text(g, buf, sizeof buf);
  ck_assert_str_eq(buf, "0:3 1:5 2:4 ;0:5 ;0:4 ;");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  char *out = cluster_to_text(dir, g, 1, &ctx, NULL); /* frees g */
  ck_assert_str_eq(out, "a\t1\nb\t1\nc\t1\n");
  free(out);
  /* directed: a->b 2, b->a 5, a->b 1. In-arcs and out-arcs of one pair
   * never fold together; num_edges counts the in-arcs left */
  g = combined_graph(dir, 1, EXO_COMBINE_KEEP, e, w, 3);
  ck_assert_uint_eq(g->num_edges, 3);
  ck_assert_uint_eq(g->num_arcs, 6);
  adjacency_text(g, buf, sizeof buf);
  ck_assert_str_eq(buf, "1:-2 1:5 1:-1 ;0:2 0:-5 0:1 ;");
  exo_graph_free(g);
  g = combined_graph(dir, 1, EXO_COMBINE_MAX, e, w, 3);
  ck_assert_uint_eq(g->num_edges, 2);
  ck_assert_uint_eq(g->num_arcs, 4);
  adjacency_text(g, buf, sizeof buf);
  ck_assert_str_eq(buf, "1:-2 1:5 ;0:2 0:-5 ;");
  exo_graph_free(g);
  g = combined_graph(dir, 1, EXO_COMBINE_SUM, e, w, 3);
  ck_assert_uint_eq(g->num_edges, 2);
  adjacency_text(g, buf, sizeof buf);
  ck_assert_str_eq(buf, "1:-3 1:5 ;0:3 0:-5 ;");
  exo_graph_free(g);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Five search hits in dir/hits.m8 (q->s and s->q with different e-values
 * and bit scores, a self hit, a weak hit, a hit of e-value 0) and build
 * options reading them: weight column col_w under transform tf, min_weight,
 * self hits dropped, combine max. Returns the file's path (free it). */
static char *hits_options(exo_build_options *opt, const char *dir, const char **files,
                          uint32_t col_w, exo_weight_transform tf, float min_weight) {
  char *f = tu_write_text(dir, "hits.m8",
                          "a\tb\t90\t100\t1\t0\t1\t100\t1\t100\t1e-10\t200\n"
                          "b\ta\t90\t100\t1\t0\t1\t100\t1\t100\t1e-20\t210\n"
                          "a\ta\t100\t100\t0\t0\t1\t100\t1\t100\t0\t500\n"
                          "c\td\t30\t50\t9\t1\t1\t50\t1\t50\t1e-2\t20\n"
                          "c\tb\t40\t50\t9\t1\t1\t50\t1\t50\t0.0\t300\n");
  files[0] = f;
  builder_options(opt, dir, 0);
  opt->files = files;
  opt->nfiles = 1;
  opt->parse.col_a = 1;
  opt->parse.col_b = 2;
  opt->parse.col_w = col_w;
  opt->parse.transform = tf;
  opt->min_weight = min_weight;
  opt->drop_self_loops = 1;
  opt->combine = EXO_COMBINE_MAX;
  return f;
}

START_TEST(search_output_options) {
  /* q->s and s->q with different e-values, a self hit, a weak hit (below
   * min_weight 3: e-value 1e-2) and a hit of e-value 0 (cap 200) */
  char *dir = tu_mkdtemp();
  const char *files[1] = {NULL};
  exo_build_options opt;
  char *f = hits_options(&opt, dir, files, 11, EXO_WT_NEGLOG10, 3.0f);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_graph_build(&opt, &ctx, &g), EXO_OK);
  ck_assert_uint_eq(g->num_nodes, 4); /* d has no edge left but is a node */
  ck_assert_uint_eq(g->num_lines, 5);
  ck_assert_uint_eq(g->num_edges, 4);
  char buf[256];
  adjacency_text(g, buf, sizeof buf);
  ck_assert_str_eq(buf, "1:20 ;0:20 2:200 ;1:200 ;;");
  char *out = cluster_to_text(dir, g, 3, &ctx, NULL);
  ck_assert_str_eq(out, "a\t1\nb\t1\nc\t1\nd\t2\n");
  free(out);
  /* the same with the self hit kept and every arc stored */
  opt.drop_self_loops = 0;
  opt.combine = EXO_COMBINE_KEEP;
  opt.min_weight = 0;
  ck_assert_int_eq(exo_graph_build(&opt, &ctx, &g), EXO_OK);
  ck_assert_uint_eq(g->num_edges, 9);
  adjacency_text(g, buf, sizeof buf);
  ck_assert_str_eq(buf, "0:200 1:10 1:20 ;0:10 0:20 2:200 ;1:200 3:2 ;2:2 ;");
  exo_graph_free(g);
  /* pushed e-values go through the same transform */
  exo_builder *b = NULL;
  opt.files = NULL;
  opt.nfiles = 0;
  opt.drop_self_loops = 1;
  opt.min_weight = 3.0f;
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "a", 1, "b", 1, 1e-10, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "a", 1, "a", 1, 1e-30, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "c", 1, "d", 1, 1e-2, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "c", 1, "b", 1, 0.0, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "d", 1, "e", 1, -1e-5, &ctx), EXO_EINPUT);
  ck_assert_str_eq(ctx.err.msg, "edge 5: the e-value -1e-05 is negative");
  exo_builder_abort(b);
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "a", 1, "b", 1, 1e-10, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "a", 1, "a", 1, 1e-30, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "c", 1, "b", 1, 0.0, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_finish(b, &ctx, &g), EXO_OK);
  adjacency_text(g, buf, sizeof buf);
  ck_assert_str_eq(buf, "1:10 ;0:10 2:200 ;1:200 ;");
  exo_graph_free(g);
  /* bad parse options stop the build before anything is made */
  opt.parse.col_w = 2;
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_EARG);
  ck_assert_str_eq(ctx.err.msg, "the weight column 2 is also a node column");
  free(f);
  ck_assert_int_eq(tu_count_entries(dir), 1); /* the input only */
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(selfnorm_search_output) {
  /* bit scores (column 12): a-b 200 and 210 (combine max: 210), a self hit
   * of 500, c-d 20 (below min_weight 25, which applies to bit scores), c-b
   * 300. self(a) = 500; b and c have no self hit: their best hit, 300. */
  char *dir = tu_mkdtemp();
  const char *files[1] = {NULL};
  exo_build_options opt;
  char *f = hits_options(&opt, dir, files, 12, EXO_WT_SELFNORM, 25.0f);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_graph *g = NULL;
  char buf[256];
  ck_assert_int_eq(exo_graph_build(&opt, &ctx, &g), EXO_OK);
  ck_assert_uint_eq(g->num_nodes, 4);
  ck_assert_uint_eq(g->num_edges, 4);
  ck_assert_uint_eq(g->num_arcs, 4);
  ck_assert_uint_eq(g->sort.arcs_self, 0);
  adjacency_text(g, buf, sizeof buf);
  ck_assert_str_eq(buf, "1:0.42 ;0:0.42 2:1 ;1:1 ;;");
  exo_graph_free(g);
  /* the self hit kept: it weighs 500 / 500 */
  opt.drop_self_loops = 0;
  ck_assert_int_eq(exo_graph_build(&opt, &ctx, &g), EXO_OK);
  ck_assert_uint_eq(g->num_edges, 5);
  ck_assert_uint_eq(g->sort.arcs_self, 1);
  adjacency_text(g, buf, sizeof buf);
  ck_assert_str_eq(buf, "0:1 1:0.42 ;0:0.42 2:1 ;1:1 ;;");
  exo_graph_free(g);
  /* directed: a's self hit gives an in-arc and an out-arc, both dropped;
   * num_edges counts the in-arcs left (b<-a, a<-b, b<-c) */
  opt.drop_self_loops = 1;
  opt.directed = 1;
  ck_assert_int_eq(exo_graph_build(&opt, &ctx, &g), EXO_OK);
  ck_assert_uint_eq(g->num_edges, 3);
  ck_assert_uint_eq(g->num_arcs, 6);
  exo_graph_free(g);
  /* pushed bit scores: the same graph as the file */
  opt.directed = 0;
  opt.files = NULL;
  opt.nfiles = 0;
  exo_builder *b = NULL;
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "a", 1, "b", 1, 200, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "b", 1, "a", 1, 210, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "a", 1, "a", 1, 500, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "c", 1, "d", 1, 20, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_edge(b, "c", 1, "b", 1, 300, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_finish(b, &ctx, &g), EXO_OK);
  adjacency_text(g, buf, sizeof buf);
  ck_assert_str_eq(buf, "1:0.42 ;0:0.42 2:1 ;1:1 ;;");
  exo_graph_free(g);
  free(f);
  ck_assert_int_eq(tu_count_entries(dir), 1); /* the input only */
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(pushed_bad_names_and_weights_fail_cleanly) {
  char *dir = tu_mkdtemp();
  exo_build_options opt;
  builder_options(&opt, dir, 0);
  opt.parse.sep = ',';
  static const struct {
    const char *a;
    size_t alen;
    double w;
    const char *msg;
  } cases[] = {
      {"", 0, 1.0, "edge 2: a node name is empty"},
      {"x\ny", 3, 1.0, "edge 2: a node name contains a line end"},
      {"x\ry", 3, 1.0, "edge 2: a node name contains a line end"},
      {"x\0y", 3, 1.0, "edge 2: a node name contains a NUL byte"},
      {"x,y", 3, 1.0, "edge 2: a node name contains the separator"},
      {"x", 1, 0.0 / 0.0, "edge 2: the weight is NaN"},
      {"x", 1, 1e300, "edge 2: the weight is infinite or beyond float range"},
      {"x", 1, -1.0 / 0.0, "edge 2: the weight is infinite or beyond float range"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_builder *b = NULL;
    ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
    ck_assert_int_eq(exo_builder_add_edge(b, "a", 1, "b", 1, 1.0, &ctx), EXO_OK);
    ck_assert_int_eq(exo_builder_add_edge(b, "ok", 2, cases[i].a, cases[i].alen,
                                          cases[i].w, &ctx), EXO_EINPUT);
    ck_assert_str_eq(ctx.err.msg, cases[i].msg);
    ck_assert_int_eq(tu_count_entries(dir), 1); /* the private directory */
    exo_builder_abort(b);
    ck_assert_int_eq(tu_count_entries(dir), 0);
  }
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_builder *b = NULL;
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  ck_assert_int_eq(exo_builder_add_node(b, "a,b", 3, &ctx), EXO_EINPUT);
  ck_assert_str_eq(ctx.err.msg, "a node name contains the separator");
  exo_builder_abort(b);
  exo_builder_abort(NULL);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

static int progress_calls;
static uint64_t progress_last_done, progress_last_total;
static void count_progress(void *user, exo_stage stage, uint64_t done, uint64_t total) {
  (void)user;
  if (stage != EXO_STAGE_PARSE) return;
  progress_calls++;
  progress_last_done = done;
  progress_last_total = total;
}

START_TEST(pushed_edges_poll_report_and_stop) {
  char *dir = tu_mkdtemp();
  exo_build_options opt;
  builder_options(&opt, dir, 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ctx.cb.progress = count_progress;
  ctx.cb.interrupted = stop_after_polls;
  polls_left = 1 << 30;
  progress_calls = 0;
  exo_builder *b = NULL;
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  const uint64_t n = 200000;
  exo_builder_expect(b, n);
  char a[32], c[32];
  for (uint64_t i = 0; i < n; i++) {
    int la = snprintf(a, sizeof a, "n%llu", (unsigned long long)(i % 5000));
    int lc = snprintf(c, sizeof c, "n%llu", (unsigned long long)((i * 7 + 1) % 5000));
    ck_assert_int_eq(exo_builder_add_edge(b, a, (size_t)la, c, (size_t)lc, 1.0, &ctx), EXO_OK);
  }
  ck_assert_int_ge(progress_calls, 3);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_builder_finish(b, &ctx, &g), EXO_OK);
  ck_assert_uint_eq(progress_last_done, n);
  ck_assert_uint_eq(progress_last_total, n);
  ck_assert_uint_eq(g->num_nodes, 5000);
  exo_graph_free(g);
  /* an interrupt while pushing stops the push; abort removes everything */
  polls_left = 1;
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  exo_status st = EXO_OK;
  uint64_t i = 0;
  for (; i < n && !st; i++) {
    int la = snprintf(a, sizeof a, "n%llu", (unsigned long long)i);
    st = exo_builder_add_edge(b, a, (size_t)la, "hub", 3, 1.0, &ctx);
  }
  ck_assert_int_eq(st, EXO_EINTR);
  ck_assert_uint_lt(i, n);
  exo_builder_abort(b);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

Suite *pipeline_suite(void) {
  Suite *s = suite_create("pipeline");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, cliques_narrow_wide_tiny_memory_agree);
  tcase_add_test(tc, threads_and_memory_agree);
  tcase_add_test(tc, split_files_equal_one_file);
  tcase_add_test(tc, directed_weights_and_nonpositive_edges);
  tcase_add_test(tc, bad_input_leaves_nothing_behind);
  tcase_add_test(tc, interrupt_at_every_point_cleans_up);
  tcase_add_test(tc, pushed_edges_equal_the_file);
  tcase_add_test(tc, pushed_nodes_weights_and_directed);
  tcase_add_test(tc, combine_duplicates_and_mirrors);
  tcase_add_test(tc, search_output_options);
  tcase_add_test(tc, selfnorm_search_output);
  tcase_add_test(tc, selfnorm_interrupt_cleans_up);
  tcase_add_test(tc, pushed_bad_names_and_weights_fail_cleanly);
  tcase_add_test(tc, pushed_edges_poll_report_and_stop);
  suite_add_tcase(s, tc);
  return s;
}
