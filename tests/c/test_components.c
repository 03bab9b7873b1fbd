/* test_components.c: algorithm "components" (exo_components.c) through the
 * registry (exo_method.h): each connected component one cluster, nodes
 * without an arc alone, the same bytes for any threads, memory_limit and
 * id width, the shared output path (cluster table, sizes), and the options
 * of the other methods refused. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exo_csr.h"
#include "exo_method.h"
#include "exo_record.h"
#include "testutil.h"

static void options(exo_options *o, const char *threads, const char *memory) {
  exo_error e;
  exo_error_clear(&e);
  exo_options_init(o, EXO_OPT_STYLE_CLI);
  ck_assert_int_eq(exo_options_set(o, "algorithm", "components", &e), EXO_OK);
  ck_assert_int_eq(exo_options_set(o, "threads", threads, &e), EXO_OK);
  ck_assert_int_eq(exo_options_set(o, "memory_limit", memory, &e), EXO_OK);
  o->allow_oversubscribe = 1;
  ck_assert_msg(exo_options_resolve(o, NULL, NULL, &e) == EXO_OK, "%s", e.msg);
}

/* Build `file` (plus the node "lonely", without an edge) and run the
 * options' method; the clusters file's text (malloc'd), and the cluster
 * table's when `table`. */
static char *run(const char *dir, const char *file, const exo_options *o, int wide,
                 exo_cluster_result *res, char **table) {
  exo_build_options b;
  memset(&b, 0, sizeof b);
  exo_options_fill_build(o, &b);
  b.tempdir_base = dir;
  b.force_wide_ids = wide;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_builder *bl = NULL;
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_builder_create(&b, &ctx, &bl), EXO_OK);
  ck_assert_int_eq(exo_builder_add_file(bl, file, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_node(bl, "lonely", 6, &ctx), EXO_OK);
  ck_assert_msg(exo_builder_finish(bl, &ctx, &g) == EXO_OK, "%s", ctx.err.msg);
  char *out = tu_path(dir, "out.tsv"), *tab = tu_path(dir, "table.tsv");
  if (table) g->cluster_table = tab;
  ck_assert_msg(exo_method_run(g, o, out, '\t', &ctx, res) == EXO_OK, "%s", ctx.err.msg);
  char *text = tu_read_file(out, NULL);
  if (table) *table = tu_read_file(tab, NULL);
  unlink(out);
  unlink(tab);
  free(out);
  free(tab);
  exo_graph_free(g);
  return text;
}

START_TEST(known_components_and_any_threads) {
  char *dir = tu_mkdtemp();
  /* {a,b,c} (a cycle), {d,e}; f and g only on a zero-weight edge, h only
   * on a self-loop, i only on a negative edge: each alone; lonely without
   * any edge */
  char *f = tu_write_text(dir, "in.tsv",
                          "a\tb\t1\nb\tc\t2\nd\te\t0.5\nf\tg\t0\nh\th\t1\nc\ta\t1\n"
                          "i\tb\t-3\n");
  const char *want = "a\t1\nb\t1\nc\t1\nd\t2\ne\t2\nf\t3\ng\t4\nh\t5\ni\t6\nlonely\t7\n";
  exo_options o1, o2;
  options(&o1, "1", "256MB");
  options(&o2, "2", "1MB");
  exo_cluster_result r1, r2;
  char *t1 = NULL, *t2 = NULL;
  char *s1 = run(dir, f, &o1, 0, &r1, &t1);
  char *s2 = run(dir, f, &o2, 1, &r2, &t2);
  ck_assert_str_eq(s1, want);
  ck_assert_str_eq(s2, want);
  ck_assert_str_eq(t1, t2);
  ck_assert_uint_eq(r1.num_clusters, 7);
  ck_assert_uint_eq(r1.largest, 3);
  ck_assert_uint_eq(r1.size_bins[0], 5); /* sizes 1 */
  ck_assert_uint_eq(r1.size_bins[1], 2); /* sizes 2 and 3 */
  /* the cluster table: cluster 1 holds 3 nodes and the weights 1 + 2 + 1 */
  ck_assert_ptr_nonnull(strstr(t1, "\n1\t3\t4\t0\t"));
  free(s1);
  free(s2);
  free(t1);
  free(t2);
  free(f);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* issue 57: the components ignore a graph's initial communities (the same
 * clusters as without) and refuse atoms (nested levels are Leiden's), as
 * label propagation does (EXO_EARG, nothing written). */
START_TEST(initial_ignored_atoms_refused) {
  char *dir = tu_mkdtemp();
  char *f = tu_write_text(dir, "in.tsv", "a\tb\t1\nb\tc\t2\nd\te\t0.5\n");
  exo_options o, lp;
  options(&o, "1", "256MB");
  exo_error e;
  exo_error_clear(&e);
  exo_options_init(&lp, EXO_OPT_STYLE_CLI);
  ck_assert_int_eq(exo_options_resolve(&lp, NULL, NULL, &e), EXO_OK);
  exo_build_options b;
  memset(&b, 0, sizeof b);
  exo_options_fill_build(&o, &b);
  b.tempdir_base = dir;
  const char *files[] = {f};
  b.files = files;
  b.nfiles = 1;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_graph_build(&b, &ctx, &g), EXO_OK);
  ck_assert_uint_eq(g->num_nodes, 5);
  uint64_t ids[5] = {0, 0, 0, 0, 0};
  char *out = tu_path(dir, "out.tsv");
  exo_cluster_result res;
  g->initial = ids;
  ck_assert_int_eq(exo_method_run(g, &o, out, '\t', &ctx, &res), EXO_OK);
  char *text = tu_read_file(out, NULL);
  ck_assert_str_eq(text, "a\t1\nb\t1\nc\t1\nd\t2\ne\t2\n");
  free(text);
  unlink(out);
  g->initial = NULL;
  g->atoms = ids;
  ck_assert_int_eq(exo_method_run(g, &o, out, '\t', &ctx, &res), EXO_EARG);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "need algorithm leiden"));
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_method_run(g, &lp, out, '\t', &ctx, &res), EXO_EARG);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "not label propagation"));
  ck_assert_int_ne(access(out, F_OK), 0);
  exo_graph_free(g);
  free(out);
  free(f);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Union-find over the edge list, apart from the core's. */
static int find(int *p, int v) {
  while (p[v] != v) v = p[v] = p[p[v]];
  return v;
}

START_TEST(random_graph_matches_an_independent_union_find) {
  enum { N = 3000, E = 2600 };
  char *dir = tu_mkdtemp();
  char *text = malloc((size_t)E * 40 + 1);
  static int p[N], a[E], b[E], seen[N];
  size_t len = 0;
  uint64_t x = 88172645463325252ull;
  for (int v = 0; v < N; v++) p[v] = v;
  for (int k = 0; k < E; k++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    a[k] = (int)(x % N);
    b[k] = (int)((x >> 32) % N);
    const int w = (int)((x >> 20) % 4); /* a weight of 0 joins nothing */
    len += (size_t)sprintf(text + len, "n%d\tn%d\t%d\n", a[k], b[k], w);
    if (w > 0) p[find(p, a[k])] = find(p, b[k]);
  }
  char *f = tu_write_text(dir, "in.tsv", text);
  exo_options o1, o2;
  options(&o1, "1", "256MB");
  options(&o2, "2", "1MB");
  exo_cluster_result r1, r2;
  char *s1 = run(dir, f, &o1, 0, &r1, NULL);
  char *s2 = run(dir, f, &o2, 0, &r2, NULL);
  ck_assert_str_eq(s1, s2);
  /* the same partition: component <-> cluster one to one */
  static int cl_of_root[N], root_of_cl[N + 2];
  for (int v = 0; v < N; v++) cl_of_root[v] = 0;
  for (int c = 0; c < N + 2; c++) root_of_cl[c] = -1;
  uint64_t lines = 0;
  for (const char *q = s1; *q; q = strchr(q, '\n') + 1) {
    int v, c;
    if (!strncmp(q, "lonely\t", 7)) {
      lines++;
      continue;
    }
    ck_assert_int_eq(sscanf(q, "n%d\t%d", &v, &c), 2);
    ck_assert_int_le(c, N + 1);
    const int r = find(p, v);
    if (!cl_of_root[r]) cl_of_root[r] = c;
    ck_assert_int_eq(cl_of_root[r], c);
    if (root_of_cl[c] < 0) root_of_cl[c] = r;
    ck_assert_int_eq(root_of_cl[c], r);
    seen[v] = 1;
    lines++;
  }
  /* every node once, and as many clusters as components (lonely's too) */
  uint64_t nodes = 0, roots = 0;
  static int is_root[N];
  for (int k = 0; k < E; k++) {
    const int ends[2] = {a[k], b[k]};
    for (int j = 0; j < 2; j++) {
      if (seen[ends[j]] == 2) continue;
      seen[ends[j]] = 2;
      nodes++;
      if (!is_root[find(p, ends[j])]) roots++;
      is_root[find(p, ends[j])] = 1;
    }
  }
  ck_assert_uint_eq(lines, nodes + 1);
  ck_assert_uint_eq(r1.num_clusters, roots + 1);
  ck_assert_uint_lt(r1.num_clusters, lines); /* some components are joined */
  free(s1);
  free(s2);
  free(text);
  free(f);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

static exo_status resolve_with(const char *name, const char *value, char *msg) {
  exo_options o;
  exo_error e;
  exo_error_clear(&e);
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  exo_options_set(&o, "algorithm", "components", &e);
  if (name) ck_assert_int_eq(exo_options_set(&o, name, value, &e), EXO_OK);
  exo_status st = exo_options_resolve(&o, NULL, NULL, &e);
  strcpy(msg, e.msg);
  return st;
}

START_TEST(other_methods_options_are_refused) {
  char msg[512];
  static const char *const given[][2] = {{"refine", "3"},     {"resolution", "0.5"},
                                         {"objective", "modularity"}, {"iterations", "7"},
                                         {"attenuation", "0.2"}, {"add_self_loops", "1"}};
  for (size_t k = 0; k < sizeof given / sizeof given[0]; k++) {
    ck_assert_int_eq(resolve_with(given[k][0], given[k][1], msg), EXO_EARG);
    ck_assert_msg(strstr(msg, "is not used by --algorithm components") != NULL, "%s", msg);
  }
  ck_assert_int_eq(resolve_with(NULL, NULL, msg), EXO_OK);
  ck_assert_int_eq(resolve_with("refine", "0", msg), EXO_OK);
  ck_assert_int_eq(resolve_with("seed", "9", msg), EXO_OK);
  /* format blast: components when asked (not the Leiden default), bridges cut */
  exo_options o;
  exo_error e;
  exo_error_clear(&e);
  exo_options_init(&o, EXO_OPT_STYLE_R);
  exo_options_set(&o, "format", "blast", &e);
  exo_options_set(&o, "algorithm", "comp", &e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_OK);
  ck_assert_str_eq(exo_method_of(&o)->name, "components");
  ck_assert_uint_eq(o.whole[EXO_OPT_REFINE], 0);
  ck_assert_int_eq(o.bridges, 1);
  ck_assert_int_eq(o.blast_default, 0);
  /* the registry: every name is a choice of the option, in order */
  const exo_opt_def *d = exo_options_find("algorithm");
  for (int k = 0; k < EXO_METHOD_COUNT; k++)
    ck_assert_str_eq(d->choices[k], exo_methods()[k].name);
  ck_assert_ptr_null(d->choices[EXO_METHOD_COUNT]);
}
END_TEST

/* A corrupt adjacency file (a neighbour id >= n): the walk stops with the
 * error every reader of the CSR gives (exo_csr_bad_neighbour), naming the
 * file, the node and the id. */
START_TEST(bad_neighbour_is_named) {
  const tu_edge e[2] = {{0, 1, 1.0f}, {1, 2, 1.0f}};
  tu_csr g;
  tu_csr_build(&g, 3, e, 2, 0, 0);
  size_t len;
  char *adj = tu_read_file(g.adjp, &len);
  ck_assert_uint_eq(len, 4 * exo_adj_size(0)); /* 0:1 | 1:0 1:2 | 2:1 */
  exo_adj_encode((uint8_t *)adj + 2 * exo_adj_size(0), 0, 7, 1.0f); /* node 1's second */
  ck_assert_int_eq(tu_write_file(g.adjp, adj, len), 0);
  free(adj);
  uint64_t parent[3];
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_csr_components(&g.csr, 1 << 16, parent, &ctx), EXO_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "node 1 lists neighbour 7 >= 3 nodes"));
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, g.adjp));
  tu_csr_free(&g);
}
END_TEST

Suite *components_suite(void) {
  Suite *s = suite_create("components");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, known_components_and_any_threads);
  tcase_add_test(tc, initial_ignored_atoms_refused);
  tcase_add_test(tc, random_graph_matches_an_independent_union_find);
  tcase_add_test(tc, other_methods_options_are_refused);
  tcase_add_test(tc, bad_neighbour_is_named);
  suite_add_tcase(s, tc);
  return s;
}
