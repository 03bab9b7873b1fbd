/* test_nested.c: nested levels (exo_nested.h, issue 57) end to end on a
 * graph built from a file: every coarse cluster a union of fine ones
 * (brute force over the output's columns), the output's shape (a column per
 * level in the caller's order, each numbered 1..K by first appearance, no
 * header), the cluster table with its Level column, the finest level equal
 * to an independent run at its resolution, the same bytes for threads 1
 * and 2 and memory 1 MiB and 1 GiB, and the refusals. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exo_nested.h"
#include "exo_options.h"
#include "exo_rng.h"
#include "testutil.h"

#define NN 3000u

/* Two planted levels: groups of 20 nodes inside groups of 100. */
static char *planted_text(void) {
  size_t cap = (size_t)NN * 12 * 40, len = 0;
  char *t = malloc(cap);
  exo_rng rng;
  exo_rng_seed(&rng, 9);
  for (uint64_t a = 0; a < NN; a++)
    for (int k = 0; k < 12; k++) {
      const uint64_t r = exo_rng_below(&rng, 100);
      uint64_t b = r < 55 ? a / 20 * 20 + exo_rng_below(&rng, 20)
                   : r < 90 ? a / 100 * 100 + exo_rng_below(&rng, 100)
                            : exo_rng_below(&rng, NN);
      if (b == a) continue;
      len += (size_t)snprintf(t + len, cap - len, "n%llu\tn%llu\t1\n", (unsigned long long)a,
                              (unsigned long long)b);
    }
  return t;
}

static exo_graph *build(const char *dir, const char *file, int threads, uint64_t mem) {
  exo_build_options opt;
  memset(&opt, 0, sizeof opt);
  const char *files[] = {file};
  opt.files = files;
  opt.nfiles = 1;
  opt.parse.sep = '\t';
  opt.parse.col_a = 1;
  opt.parse.col_b = 2;
  opt.parse.col_w = 3;
  opt.parse.threads = threads;
  opt.tempdir_base = dir;
  opt.memory_limit = mem;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_graph_build(&opt, &ctx, &g), EXO_OK);
  return g;
}

/* Level options: leiden CPM at `res` (algorithm `algo`). */
static void level(exo_options *o, const char *algo, const char *res, const char *mem) {
  exo_error err;
  exo_error_clear(&err);
  exo_options_init(o, EXO_OPT_STYLE_CLI);
  ck_assert_int_eq(exo_options_set(o, "algorithm", algo, &err), EXO_OK);
  if (!strcmp(algo, "leiden")) ck_assert_int_eq(exo_options_set(o, "objective", "cpm", &err), 0);
  ck_assert_int_eq(exo_options_set(o, "resolution", res, &err), EXO_OK);
  ck_assert_int_eq(exo_options_set(o, "memory_limit", mem, &err), EXO_OK);
  ck_assert_int_eq(exo_options_resolve(o, NULL, NULL, &err), EXO_OK);
}

/* The output's L columns: col[j][v], checked: each line "n<id>" and L
 * numbers, each column numbered 1..K by first appearance. */
static uint64_t **parse_columns(const char *text, uint32_t L, uint64_t *n_out) {
  uint64_t **col = malloc(L * sizeof *col);
  for (uint32_t j = 0; j < L; j++) col[j] = calloc(NN, 8);
  uint64_t *next = calloc(L, 8);
  uint64_t n = 0;
  for (const char *p = text; *p; n++) {
    ck_assert_uint_lt(n, NN);
    ck_assert_int_eq(*p, 'n');
    p = strchr(p, '\t');
    for (uint32_t j = 0; j < L; j++) {
      ck_assert_int_eq(*p, '\t');
      char *end;
      col[j][n] = strtoull(p + 1, &end, 10);
      ck_assert_uint_ge(col[j][n], 1);
      ck_assert_uint_le(col[j][n], next[j] + 1); /* first appearance */
      if (col[j][n] == next[j] + 1) next[j]++;
      p = end;
    }
    ck_assert_int_eq(*p, '\n');
    p++;
  }
  free(next);
  *n_out = n;
  return col;
}

/* Is every cluster of fine inside one cluster of coarse? */
static int nests(const uint64_t *fine, const uint64_t *coarse, uint64_t n) {
  uint64_t *of = calloc(n + 1, 8);
  int ok = 1;
  for (uint64_t v = 0; v < n && ok; v++) {
    if (!of[fine[v]]) of[fine[v]] = coarse[v];
    ok = of[fine[v]] == coarse[v];
  }
  free(of);
  return ok;
}

START_TEST(nested_levels_nest_and_agree) {
  char *dir = tu_mkdtemp();
  char *text = planted_text();
  char *f = tu_write_text(dir, "edges.tsv", text);
  char *out = tu_path(dir, "nested.tsv"), *table = tu_path(dir, "table.tsv");
  char *first = NULL, *first_table = NULL;
  const int threads[4] = {1, 2, 1, 2};
  const char *mems[4] = {"1MB", "1MB", "1GB", "1GB"};
  /* the caller's order: middle, finest, coarsest */
  const char *res[3] = {"0.3", "0.6", "0.05"};
  for (int i = 0; i < TU_SAN(4, 2); i++) {
    exo_graph *g = build(dir, f, threads[i], i < 2 ? 1u << 20 : 1u << 30);
    exo_options lv[3];
    for (int j = 0; j < 3; j++) level(&lv[j], "leiden", res[j], mems[i]);
    g->cluster_table = table;
    exo_cluster_result r[3];
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    ck_assert_int_eq(exo_graph_nested(g, lv, 3, out, '\t', &ctx, r), EXO_OK);
    char *o = tu_read_file(out, NULL), *t = tu_read_file(table, NULL);
    if (!first) {
      first = o;
      first_table = t;
      uint64_t n;
      uint64_t **col = parse_columns(o, 3, &n);
      ck_assert_uint_eq(n, NN);
      /* finest 0.6 (column 2) in 0.3 (column 1) in 0.05 (column 3) */
      ck_assert(nests(col[1], col[0], n));
      ck_assert(nests(col[0], col[2], n));
      ck_assert(nests(col[1], col[2], n));
      ck_assert_uint_gt(r[1].num_clusters, r[0].num_clusters);
      ck_assert_uint_gt(r[0].num_clusters, r[2].num_clusters);
      for (int j = 0; j < 3; j++) {
        uint64_t k = 0;
        for (uint64_t v = 0; v < n; v++) k = col[j][v] > k ? col[j][v] : k;
        ck_assert_uint_eq(k, r[j].num_clusters);
        free(col[j]);
      }
      free(col);
      /* the table: a header with Level, then each level's rows */
      ck_assert(strncmp(t, "Level\tCluster\tSize\t", 19) == 0);
      uint64_t rows[4] = {0, 0, 0, 0};
      for (const char *p = strchr(t, '\n') + 1; *p; p = strchr(p, '\n') + 1) {
        const int l = atoi(p);
        ck_assert(l >= 1 && l <= 3);
        rows[l]++;
      }
      for (int j = 0; j < 3; j++) ck_assert_uint_eq(rows[j + 1], r[j].num_clusters);
      /* the coarsest level is the independent run at its resolution (the
       * finer ones are their own runs cut by the levels above them) */
      exo_leiden_params p;
      memset(&p, 0, sizeof p);
      exo_options_fill_leiden(&lv[2], &p);
      g->cluster_table = NULL;
      char *one = tu_path(dir, "one.tsv");
      exo_cluster_result r1;
      ck_assert_int_eq(exo_graph_leiden(g, &p, one, '\t', &ctx, &r1), EXO_OK);
      char *ot = tu_read_file(one, NULL);
      uint64_t n1;
      uint64_t **c1 = parse_columns(ot, 1, &n1);
      col = parse_columns(o, 3, &n);
      ck_assert_mem_eq(c1[0], col[2], NN * 8);
      for (int j = 0; j < 3; j++) free(col[j]);
      free(col);
      free(c1[0]);
      free(c1);
      free(ot);
      unlink(one);
      free(one);
    } else {
      ck_assert_str_eq(o, first);
      ck_assert_str_eq(t, first_table);
      free(o);
      free(t);
    }
    exo_graph_free(g);
  }
  unlink(out);
  unlink(table);
  ck_assert_int_eq(tu_count_entries(dir), 1);
  free(first);
  free(first_table);
  free(out);
  free(table);
  free(f);
  free(text);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* EXO_NESTED_SPLIT: the levels nest, the coarsest is the independent run
 * at its resolution, the finest's clusters are the independent run's cut
 * by the coarser levels (as many or more clusters), the same bytes for
 * threads 1 and 2. */
START_TEST(nested_split_mode) {
  char *dir = tu_mkdtemp();
  char *text = planted_text();
  char *f = tu_write_text(dir, "edges.tsv", text);
  char *out = tu_path(dir, "nested.tsv"), *one = tu_path(dir, "one.tsv");
  char *first = NULL;
  const char *res[3] = {"0.3", "0.6", "0.05"};
  for (int threads = 1; threads <= 2; threads++) {
    exo_graph *g = build(dir, f, threads, 1u << 26);
    exo_options lv[3];
    for (int j = 0; j < 3; j++) level(&lv[j], "leiden", res[j], "64MB");
    exo_cluster_result r[3];
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    ck_assert_int_eq(exo_graph_nested_mode(g, lv, 3, EXO_NESTED_SPLIT, out, '\t', &ctx, r),
                     EXO_OK);
    char *o = tu_read_file(out, NULL);
    if (!first) {
      first = o;
      uint64_t n;
      uint64_t **col = parse_columns(o, 3, &n);
      ck_assert(nests(col[1], col[0], n));
      ck_assert(nests(col[0], col[2], n));
      for (int j = 0; j < 3; j++) { /* each level against its own run */
        exo_leiden_params p;
        memset(&p, 0, sizeof p);
        exo_options_fill_leiden(&lv[j], &p);
        exo_cluster_result r1;
        ck_assert_int_eq(exo_graph_leiden(g, &p, one, '\t', &ctx, &r1), EXO_OK);
        char *ot = tu_read_file(one, NULL);
        uint64_t n1;
        uint64_t **c1 = parse_columns(ot, 1, &n1);
        if (j == 2) ck_assert_mem_eq(c1[0], col[2], NN * 8); /* the coarsest */
        ck_assert(nests(col[j], c1[0], n)); /* a cut of its own run */
        ck_assert_uint_ge(r[j].num_clusters, r1.num_clusters);
        free(c1[0]);
        free(c1);
        free(ot);
      }
      for (int j = 0; j < 3; j++) free(col[j]);
      free(col);
    } else {
      ck_assert_str_eq(o, first);
      free(o);
    }
    exo_graph_free(g);
  }
  unlink(out);
  unlink(one);
  ck_assert_int_eq(tu_count_entries(dir), 1);
  free(first);
  free(out);
  free(one);
  free(f);
  free(text);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Refused with EXO_EARG before anything is written: one level, a level of
 * label propagation, order by name, a members table; the directory holds
 * nothing more. */
START_TEST(nested_refusals) {
  char *dir = tu_mkdtemp();
  char *text = planted_text();
  char *f = tu_write_text(dir, "edges.tsv", text);
  char *out = tu_path(dir, "nested.tsv");
  exo_graph *g = build(dir, f, 1, 1u << 26);
  exo_options lv[2];
  exo_cluster_result r[2];
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  level(&lv[0], "leiden", "0.5", "64MB");
  ck_assert_int_eq(exo_graph_nested(g, lv, 1, out, '\t', &ctx, r), EXO_EARG);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "2 or more"));
  level(&lv[1], "lp", "0.1", "64MB");
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_graph_nested(g, lv, 2, out, '\t', &ctx, r), EXO_EARG);
  ck_assert_msg(strstr(ctx.err.msg, "--algorithm leiden") != NULL, "%s", ctx.err.msg);
  level(&lv[1], "leiden", "0.1", "64MB");
  g->order_by_name = 1;
  ck_assert_int_eq(exo_graph_nested(g, lv, 2, out, '\t', &ctx, r), EXO_EARG);
  g->order_by_name = 0;
  g->members_table = out;
  ck_assert_int_eq(exo_graph_nested(g, lv, 2, out, '\t', &ctx, r), EXO_EARG);
  g->members_table = NULL;
  ck_assert_int_eq(tu_count_entries(dir), 2); /* the edges and the graph's directory */
  exo_graph_free(g);
  free(out);
  free(f);
  free(text);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

Suite *nested_suite(void) {
  Suite *s = suite_create("nested");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, nested_levels_nest_and_agree);
  tcase_add_test(tc, nested_refusals);
  tcase_add_test(tc, nested_split_mode);
  suite_add_tcase(s, tc);
  return s;
}
