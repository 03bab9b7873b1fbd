/* test_initial.c: a previous clustering (exo_initial_read) and stable
 * cluster ids (exo_stable_ids, exo_stable_order, exo_graph_write_labels
 * with exo_graph.stable_old): the rule on small hand-made cases (kept,
 * merged, split, new, ties, nodes the old clustering lacks), the file's
 * errors with file and line, and every method's output with stable ids,
 * the same for any threads and memory_limit. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exo_initial.h"
#include "exo_method.h"
#include "testutil.h"

/* exo_stable_ids on clusters c[] (1..k) against old[]; checks the counts */
static void stable(const uint64_t *c, const uint64_t *old, uint64_t n, uint64_t k,
                   uint64_t old_max, uint64_t *ids, uint64_t kept, uint64_t merged,
                   uint64_t split, uint64_t fresh, uint64_t moved) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_stable_counts sc;
  ck_assert_int_eq(exo_stable_ids(c, n, k, old, old_max, ids, &sc, &ctx), EXO_OK);
  ck_assert_uint_eq(sc.kept, kept);
  ck_assert_uint_eq(sc.merged, merged);
  ck_assert_uint_eq(sc.split, split);
  ck_assert_uint_eq(sc.fresh, fresh);
  ck_assert_uint_eq(sc.moved, moved);
}

START_TEST(unchanged_clusters_keep_every_id) {
  const uint64_t c[] = {1, 1, 2, 2, 3};
  const uint64_t old[] = {40, 40, 7, 7, 12};
  uint64_t ids[4];
  stable(c, old, 5, 3, 0, ids, 3, 0, 0, 0, 0);
  ck_assert_uint_eq(ids[1], 40);
  ck_assert_uint_eq(ids[2], 7);
  ck_assert_uint_eq(ids[3], 12);
}
END_TEST

START_TEST(merge_takes_the_larger_old_cluster_then_the_smaller_id) {
  /* old 9 (3 nodes) and old 4 (2 nodes) in one new cluster: it holds all of
   * both; the old cluster it holds most of (9) gives its id, 4 is merged */
  const uint64_t c[] = {1, 1, 1, 1, 1};
  const uint64_t old[] = {9, 9, 9, 4, 4};
  uint64_t ids[2];
  stable(c, old, 5, 1, 0, ids, 1, 1, 0, 0, 2);
  ck_assert_uint_eq(ids[1], 9);
  /* a tie (2 and 2): the smaller old id */
  const uint64_t old2[] = {9, 9, 4, 4, 0};
  stable(c, old2, 5, 1, 0, ids, 1, 1, 0, 0, 2);
  ck_assert_uint_eq(ids[1], 4);
}
END_TEST

START_TEST(split_without_majority_retires_the_id) {
  /* old 5 = 4 nodes cut 2 + 2: no new cluster holds more than half */
  const uint64_t c[] = {1, 1, 2, 2};
  const uint64_t old[] = {5, 5, 5, 5};
  uint64_t ids[3];
  stable(c, old, 4, 2, 0, ids, 0, 0, 1, 2, 4);
  ck_assert_uint_eq(ids[1], 6); /* new ids above the old largest, in order */
  ck_assert_uint_eq(ids[2], 7);
  /* cut 2 + 1: the larger part keeps it, the other is new */
  const uint64_t c2[] = {2, 1, 1};
  const uint64_t old2[] = {5, 5, 5};
  stable(c2, old2, 3, 2, 0, ids, 1, 0, 0, 1, 1);
  ck_assert_uint_eq(ids[1], 5);
  ck_assert_uint_eq(ids[2], 6);
}
END_TEST

START_TEST(new_nodes_do_not_count_and_new_ids_start_above_old_max) {
  /* nodes 3..6 are new (old 0): cluster 1 is old 2's (2 of its 2 listed
   * nodes) though most of its nodes are new; cluster 2 has only new nodes */
  const uint64_t c[] = {1, 1, 2, 1, 1, 1, 2};
  const uint64_t old[] = {2, 2, 0, 0, 0, 0, 0};
  uint64_t ids[3];
  stable(c, old, 7, 2, 0, ids, 1, 0, 0, 1, 0);
  ck_assert_uint_eq(ids[1], 2);
  ck_assert_uint_eq(ids[2], 3);
  /* old_max (the file's largest id, of nodes now gone) is not reused */
  stable(c, old, 7, 2, 100, ids, 1, 0, 0, 1, 0);
  ck_assert_uint_eq(ids[2], 101);
  /* nothing listed: every id new, from 1 */
  const uint64_t none[] = {0, 0, 0, 0, 0, 0, 0};
  stable(c, none, 7, 2, 0, ids, 0, 0, 0, 2, 0);
  ck_assert_uint_eq(ids[1], 1);
  ck_assert_uint_eq(ids[2], 2);
}
END_TEST

START_TEST(a_cluster_holding_two_majorities_takes_one_id) {
  /* cluster 1 holds old 3 (3 of 3) and old 8 (2 of 3); cluster 2 holds
   * 1 of old 8: old 8 is merged (its holder keeps 3), cluster 2 is new;
   * cluster 3 holds all of old 1 */
  const uint64_t c[] = {1, 1, 1, 1, 1, 2, 3, 3};
  const uint64_t old[] = {3, 3, 3, 8, 8, 8, 1, 1};
  uint64_t ids[4];
  stable(c, old, 8, 3, 0, ids, 2, 1, 0, 1, 3);
  ck_assert_uint_eq(ids[1], 3);
  ck_assert_uint_eq(ids[2], 9);
  ck_assert_uint_eq(ids[3], 1);
  /* the order: clusters renumbered by increasing id */
  uint64_t cl[8];
  memcpy(cl, c, sizeof cl);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_stable_order(cl, 8, 3, ids, &ctx), EXO_OK);
  ck_assert_uint_eq(ids[1], 1);
  ck_assert_uint_eq(ids[2], 3);
  ck_assert_uint_eq(ids[3], 9);
  const uint64_t want[] = {2, 2, 2, 2, 2, 3, 1, 1};
  for (int v = 0; v < 8; v++) ck_assert_uint_eq(cl[v], want[v]);
}
END_TEST

START_TEST(ids_that_cannot_fit_are_refused) {
  const uint64_t c[] = {1, 2};
  const uint64_t old[] = {0, 0};
  uint64_t ids[3];
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_stable_counts sc;
  ck_assert_int_eq(exo_stable_ids(c, 2, 2, old, UINT64_MAX - 1, ids, &sc, &ctx), EXO_ELIMIT);
}
END_TEST

/* A graph of the names a..f (edges a-b-c, d-e-f) plus "g" alone. */
static exo_graph *small_graph(const char *dir, const char *threads, exo_options *o) {
  exo_error e;
  exo_error_clear(&e);
  exo_options_init(o, EXO_OPT_STYLE_CLI);
  ck_assert_int_eq(exo_options_set(o, "threads", threads, &e), EXO_OK);
  o->allow_oversubscribe = 1;
  ck_assert_int_eq(exo_options_resolve(o, NULL, NULL, &e), EXO_OK);
  char *f = tu_write_text(dir, "g.tsv", "a\tb\t1\nb\tc\t1\na\tc\t1\nd\te\t1\ne\tf\t1\nd\tf\t1\n");
  exo_build_options b;
  memset(&b, 0, sizeof b);
  exo_options_fill_build(o, &b);
  b.tempdir_base = dir;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_builder *bl = NULL;
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_builder_create(&b, &ctx, &bl), EXO_OK);
  ck_assert_int_eq(exo_builder_add_file(bl, f, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_node(bl, "g", 1, &ctx), EXO_OK);
  ck_assert_msg(exo_builder_finish(bl, &ctx, &g) == EXO_OK, "%s", ctx.err.msg);
  free(f);
  return g;
}

START_TEST(reads_a_clusters_file_against_the_graph) {
  char *dir = tu_mkdtemp();
  exo_options o;
  exo_graph *g = small_graph(dir, "1", &o);
  /* header, CRLF, a blank line, names the graph lacks; g not listed */
  char *f = tu_write_text(dir, "old.tsv", "Vertex\tCluster\r\nf\t12\r\nzz\t30\na\t4\n\nb\t4\n"
                                          "d\t12\ne\t2\nc\t4\nyy\t1");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_initial ini;
  ck_assert_msg(exo_initial_read(&ini, f, '\t', g->names_path, g->num_nodes, &ctx) == EXO_OK,
                "%s", ctx.err.msg);
  /* ids: a0 b1 c2 d3 e4 f5 g6 */
  const uint64_t old[] = {4, 4, 4, 12, 2, 12, 0}, init[] = {0, 0, 0, 3, 4, 3, 6};
  for (int v = 0; v < 7; v++) {
    ck_assert_uint_eq(ini.stable_old[v], old[v]);
    ck_assert_uint_eq(ini.initial[v], init[v]);
  }
  ck_assert_uint_eq(ini.lines, 8);
  ck_assert_uint_eq(ini.listed, 6);
  ck_assert_uint_eq(ini.missing, 2);
  ck_assert_uint_eq(ini.clusters, 3);
  ck_assert_uint_eq(ini.max_old, 30);
  ck_assert_str_eq(ini.first_missing, "zz");
  exo_initial_free(&ini);
  ck_assert_ptr_null(ini.stable_old);
  free(f);
  exo_graph_free(g);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(reads_gzip_and_a_byte_order_mark) {
  char *dir = tu_mkdtemp();
  exo_options o;
  exo_graph *g = small_graph(dir, "1", &o);
  static const char text[] = "\xEF\xBB\xBFVertex\tCluster\nc\t3\ng\t8\n";
  char *f = tu_path(dir, "old.tsv.gz");
  ck_assert_int_eq(tu_write_gzip(f, text, sizeof text - 1), 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_initial ini;
  ck_assert_msg(exo_initial_read(&ini, f, '\t', g->names_path, g->num_nodes, &ctx) == EXO_OK,
                "%s", ctx.err.msg);
  ck_assert_uint_eq(ini.lines, 2);
  ck_assert_uint_eq(ini.stable_old[2], 3);
  ck_assert_uint_eq(ini.stable_old[6], 8);
  ck_assert_uint_eq(ini.initial[6], 6);
  ck_assert_uint_eq(ini.listed, 2);
  exo_initial_free(&ini);
  free(f);
  exo_graph_free(g);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(bad_files_name_the_file_and_line) {
  char *dir = tu_mkdtemp();
  exo_options o;
  exo_graph *g = small_graph(dir, "1", &o);
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"a\t1\nb\t1.5\n", "line 2: the cluster '1.5' is not a whole number"},
      {"a\t1\nb\t0\n", "line 2: the cluster '0' is not a whole number"},
      {"a\t-3\n", "line 1: the cluster '-3' is not a whole number"},
      {"a\t\n", "line 1: the cluster '' is not a whole number"},
      {"a\t9007199254740992\n", "line 1: the cluster '9007199254740992' is not a whole"},
      {"a\t1\tx\n", "line 1: the cluster '1?x' is not"},
      {"a\t1\nb\t2\na\t3\n", "line 3: the name 'a' is listed twice (line 1 too)"},
      {"q\t1\nq\t2\n", "line 2: the name 'q' is listed twice"},
      {"a\t1\nb 2\n", "line 2: no separator"},
      {"\t1\n", "line 1: empty name"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *f = tu_write_text(dir, "bad.tsv", cases[i].text);
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_initial ini;
    ck_assert_int_eq(exo_initial_read(&ini, f, '\t', g->names_path, g->num_nodes, &ctx),
                     EXO_EINPUT);
    ck_assert_ptr_null(ini.stable_old);
    ck_assert_msg(strstr(ctx.err.msg, "bad.tsv' line ") != NULL, "%s", ctx.err.msg);
    ck_assert_msg(strstr(ctx.err.msg, cases[i].want) != NULL, "case %zu: %s", i, ctx.err.msg);
    free(f);
  }
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_initial ini;
  char *missing = tu_path(dir, "no-such-file");
  ck_assert_int_ne(exo_initial_read(&ini, missing, '\t', g->names_path, g->num_nodes, &ctx),
                   EXO_OK);
  ck_assert_msg(strstr(ctx.err.msg, "no-such-file") != NULL, "%s", ctx.err.msg);
  free(missing);
  exo_graph_free(g);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Cluster the small graph with `method` from the old clustering `old_text`
 * (stable ids), returning the clusters file and the table. */
static char *run_stable(const char *dir, const char *method, const char *threads,
                        const char *memory, const char *old_text, exo_cluster_result *res,
                        char **table, uint64_t *labels) {
  exo_options o;
  exo_graph *g = small_graph(dir, threads, &o);
  exo_error e;
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_set(&o, "algorithm", method, &e), EXO_OK);
  ck_assert_int_eq(exo_options_set(&o, "memory_limit", memory, &e), EXO_OK);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_OK);
  char *f = tu_write_text(dir, "old.tsv", old_text);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_initial ini;
  ck_assert_int_eq(exo_initial_read(&ini, f, '\t', g->names_path, g->num_nodes, &ctx), EXO_OK);
  g->initial = ini.initial;
  g->stable_old = ini.stable_old;
  g->stable_max = ini.max_old;
  g->labels_out = labels;
  char *out = tu_path(dir, "out.tsv"), *tab = tu_path(dir, "table.tsv");
  g->cluster_table = tab;
  ck_assert_msg(exo_method_run(g, &o, out, '\t', &ctx, res) == EXO_OK, "%s", ctx.err.msg);
  char *text = tu_read_file(out, NULL);
  *table = tu_read_file(tab, NULL);
  unlink(out);
  unlink(tab);
  free(out);
  free(tab);
  free(f);
  exo_initial_free(&ini);
  exo_graph_free(g);
  return text;
}

START_TEST(every_method_writes_stable_ids_for_any_threads) {
  static const char *methods[] = {"lp", "leiden", "components"};
  char *dir = tu_mkdtemp();
  for (int m = 0; m < 3; m++) {
    char *first = NULL, *first_table = NULL;
    static const char *threads[] = {"1", "4"}, *memory[] = {"256MB", "1MB"};
    for (int t = 0; t < 2; t++) {
      exo_cluster_result res;
      char *table = NULL;
      uint64_t labels[7];
      /* old 7 = {a, b, c}, 3 = {d, e, f} (+ a name now gone, id 20); g new */
      char *text = run_stable(dir, methods[m], threads[t], memory[t],
                              "a\t7\nb\t7\nc\t7\nd\t3\ne\t3\nf\t3\nh\t20\n", &res, &table,
                              labels);
      ck_assert_str_eq(text, "a\t7\nb\t7\nc\t7\nd\t3\ne\t3\nf\t3\ng\t21\n");
      /* the table by increasing id */
      ck_assert_msg(strstr(table, "\n3\t3\t") && strstr(table, "\n7\t3\t") &&
                        strstr(table, "\n21\t1\t") &&
                        strstr(table, "\n3\t") < strstr(table, "\n7\t") &&
                        strstr(table, "\n7\t") < strstr(table, "\n21\t"),
                    "%s", table);
      ck_assert_int_eq(res.stable, 1);
      ck_assert_uint_eq(res.num_clusters, 3);
      ck_assert_uint_eq(res.ids_kept, 2);
      ck_assert_uint_eq(res.ids_merged, 0);
      ck_assert_uint_eq(res.ids_split, 0);
      ck_assert_uint_eq(res.ids_new, 1);
      ck_assert_uint_eq(res.nodes_moved, 0);
      const uint64_t want[] = {7, 7, 7, 3, 3, 3, 21};
      for (int v = 0; v < 7; v++) ck_assert_uint_eq(labels[v], want[v]);
      if (!first) {
        first = text;
        first_table = table;
      } else {
        ck_assert_str_eq(text, first);
        ck_assert_str_eq(table, first_table);
        free(text);
        free(table);
      }
    }
    /* the old clustering had one cluster of a..g: components (which ignore
     * the start) split it into three clusters of at most 3 of its 7 nodes,
     * no majority, three new ids */
    exo_cluster_result res;
    char *table = NULL;
    char *text = run_stable(dir, methods[m], "2", "64MB",
                            "a\t5\nb\t5\nc\t5\nd\t5\ne\t5\nf\t5\ng\t5\n", &res, &table, NULL);
    if (m == 2) { /* components ignore the start */
      ck_assert_str_eq(text, "a\t6\nb\t6\nc\t6\nd\t7\ne\t7\nf\t7\ng\t8\n");
      ck_assert_uint_eq(res.ids_split, 1);
      ck_assert_uint_eq(res.ids_kept, 0);
      ck_assert_uint_eq(res.ids_new, 3);
      ck_assert_uint_eq(res.nodes_moved, 7);
    } else if (m == 0) {
      /* label propagation starts from the one cluster, where every node's
       * neighbours agree: nothing moves, the id is kept */
      ck_assert_str_eq(text, "a\t5\nb\t5\nc\t5\nd\t5\ne\t5\nf\t5\ng\t5\n");
      ck_assert_uint_eq(res.ids_kept, 1);
      ck_assert_uint_eq(res.ids_new, 0);
      ck_assert_uint_eq(res.nodes_moved, 0);
    } else {
      /* Leiden starts from it and splits it: d..g (4 of 7, a majority)
       * keep the id, a..c get a new one */
      ck_assert_str_eq(text, "a\t6\nb\t6\nc\t6\nd\t5\ne\t5\nf\t5\ng\t5\n");
      ck_assert_uint_eq(res.ids_kept, 1);
      ck_assert_uint_eq(res.ids_new, 1);
      ck_assert_uint_eq(res.nodes_moved, 3);
    }
    free(text);
    free(table);
    free(first);
    free(first_table);
  }
  tu_rmdir(dir);
  free(dir);
}
END_TEST

Suite *initial_suite(void) {
  Suite *s = suite_create("initial");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, unchanged_clusters_keep_every_id);
  tcase_add_test(tc, merge_takes_the_larger_old_cluster_then_the_smaller_id);
  tcase_add_test(tc, split_without_majority_retires_the_id);
  tcase_add_test(tc, new_nodes_do_not_count_and_new_ids_start_above_old_max);
  tcase_add_test(tc, a_cluster_holding_two_majorities_takes_one_id);
  tcase_add_test(tc, ids_that_cannot_fit_are_refused);
  tcase_add_test(tc, reads_a_clusters_file_against_the_graph);
  tcase_add_test(tc, reads_gzip_and_a_byte_order_mark);
  tcase_add_test(tc, bad_files_name_the_file_and_line);
  tcase_add_test(tc, every_method_writes_stable_ids_for_any_threads);
  suite_add_tcase(s, tc);
  return s;
}
