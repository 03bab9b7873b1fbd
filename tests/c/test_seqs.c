/* test_seqs.c: sequence files (exo_seqs.h: FASTA and name lists, plain and
 * gzip), name sets and the representatives' FASTA; the builder's named
 * sequences (exo_builder_add_sequences / _add_listed: every one a node,
 * after the edges' nodes, the counts); the member table (exo_clstats.h)
 * under budgets that force the names-file reads; the pipeline's hooks. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exo_byname.h"
#include "exo_clstats.h"
#include "exo_pipeline.h"
#include "exo_seqs.h"
#include "testutil.h"

typedef struct collect {
  char text[4096];
  size_t len;
  uint64_t last_line;
} collect;

/* names joined by '|' */
static exo_status on_name(void *user, const uint8_t *name, size_t len, uint64_t line,
                          exo_ctx *ctx) {
  (void)ctx;
  collect *c = user;
  memcpy(c->text + c->len, name, len);
  c->len += len;
  c->text[c->len++] = '|';
  c->text[c->len] = '\0';
  c->last_line = line;
  return EXO_OK;
}

static const char *FASTA =
    "\xEF\xBB\xBF>p1 first protein\r\nMKV\r\nLL\r\n\n>p2\tdesc\nMMM\n>p3\nAAA\nCC\n"
    ">lonely 5-residue domain\nPEPTI\n>p1 again\nQQ";

START_TEST(reads_fasta_and_lists) {
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  char *fa = tu_write_text(dir, "s.fa", FASTA);
  collect c = {{0}, 0, 0};
  exo_seqs_stats ss;
  ck_assert_int_eq(exo_seqs_read(fa, on_name, &c, &ss, &ctx), EXO_OK);
  ck_assert_str_eq(c.text, "p1|p2|p3|lonely|p1|");
  ck_assert_int_eq(ss.fasta, 1);
  ck_assert_uint_eq(ss.names, 5);
  /* gzip: the same names */
  char *gz = tu_path(dir, "s.fa.gz");
  ck_assert_int_eq(tu_write_gzip(gz, FASTA, strlen(FASTA)), 0);
  collect c2 = {{0}, 0, 0};
  ck_assert_int_eq(exo_seqs_read(gz, on_name, &c2, NULL, &ctx), EXO_OK);
  ck_assert_str_eq(c2.text, c.text);
  /* a list: whole lines (spaces kept), CRLF, blank lines skipped, no final newline */
  char *li = tu_write_text(dir, "names.txt", "\n a b\r\nc\n\n\t\nd");
  collect c3 = {{0}, 0, 0};
  ck_assert_int_eq(exo_seqs_read(li, on_name, &c3, &ss, &ctx), EXO_OK);
  ck_assert_str_eq(c3.text, " a b|c|d|");
  ck_assert_int_eq(ss.fasta, 0);
  ck_assert_uint_eq(c3.last_line, 6);
  /* errors name the file and line */
  char *bad = tu_write_text(dir, "bad.fa", ">ok\nAA\n> no name\nCC\n");
  collect c4 = {{0}, 0, 0};
  ck_assert_int_eq(exo_seqs_read(bad, on_name, &c4, NULL, &ctx), EXO_EINPUT);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "bad.fa' line 3: a FASTA header without a name"));
  exo_ctx_init(&ctx);
  char *nul = tu_path(dir, "zero-byte.txt"); /* not "nul.txt": NUL is a device on Windows */
  ck_assert_int_eq(tu_write_file(nul, "a\nb\0c\n", 6), 0);
  ck_assert_int_eq(exo_seqs_read(nul, on_name, &c4, NULL, &ctx), EXO_EINPUT);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "line 2: the name contains a NUL byte"));
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_seqs_read("/nonexistent/x.fa", on_name, &c4, NULL, &ctx), EXO_EIO);
  const char *files[] = {fa, gz, li, bad, nul};
  for (int i = 0; i < 5; i++) unlink(files[i]);
  free(fa);
  free(gz);
  free(li);
  free(bad);
  free(nul);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(selects_fasta_records) {
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  char *fa = tu_write_text(dir, "s.fa", FASTA);
  exo_nameset *set = NULL;
  ck_assert_int_eq(exo_nameset_create(&set, &ctx), EXO_OK);
  /* enough names to make the set grow */
  char nm[32];
  for (int i = 0; i < 5000; i++) {
    int k = snprintf(nm, sizeof nm, "other%d", i);
    ck_assert_int_eq(exo_nameset_add(set, (const uint8_t *)nm, (size_t)k, &ctx), EXO_OK);
  }
  const char *want[] = {"lonely", "p1", "p3", "p1"};
  for (int i = 0; i < 4; i++)
    ck_assert_int_eq(exo_nameset_add(set, (const uint8_t *)want[i], strlen(want[i]), &ctx),
                     EXO_OK);
  ck_assert_uint_eq(exo_nameset_count(set), 5003);
  char *out = tu_path(dir, "reps.fa");
  uint64_t written = 0;
  ck_assert_int_eq(exo_fasta_select(fa, set, out, NULL, &written, &ctx), EXO_OK);
  ck_assert_uint_eq(written, 3);
  char *text = tu_read_file(out, NULL);
  /* byte for byte, the FASTA's order, p1 once (its first record), the last
   * line given its newline */
  ck_assert_str_eq(text, ">p1 first protein\r\nMKV\r\nLL\r\n\n>p3\nAAA\nCC\n"
                         ">lonely 5-residue domain\nPEPTI\n");
  free(text);
  /* taken names are not taken twice */
  ck_assert_int_eq(exo_nameset_take(set, (const uint8_t *)"p1", 2), 0);
  ck_assert_int_eq(exo_nameset_take(set, (const uint8_t *)"other7", 6), 1);
  ck_assert_int_eq(exo_nameset_take(set, (const uint8_t *)"p2", 2), 0);
  /* a list of names is not FASTA: refused, the output left alone */
  char *li = tu_write_text(dir, "names.txt", "p1\np2\n");
  ck_assert_int_eq(exo_fasta_select(li, set, out, NULL, NULL, &ctx), EXO_EINPUT);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "is not a FASTA file"));
  text = tu_read_file(out, NULL);
  ck_assert_ptr_nonnull(strstr(text, ">lonely"));
  free(text);
  exo_nameset_free(set);
  unlink(out);
  unlink(fa);
  unlink(li);
  free(out);
  free(fa);
  free(li);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

static exo_builder *new_builder(const char *dir, exo_ctx *ctx) {
  exo_build_options opt;
  memset(&opt, 0, sizeof opt);
  opt.parse.sep = '\t';
  opt.tempdir_base = dir;
  opt.memory_limit = 16u << 20;
  exo_builder *b = NULL;
  ck_assert_int_eq(exo_builder_create(&opt, ctx, &b), EXO_OK);
  return b;
}

START_TEST(builder_adds_the_sequences) {
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  char *edges = tu_write_text(dir, "e.tsv", "p2\tp3\t1\nx\tp2\t2\n");
  char *fa = tu_write_text(dir, "s.fa", FASTA);
  exo_builder *b = new_builder(dir, &ctx);
  ck_assert_int_eq(exo_builder_add_file(b, edges, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_sequences(b, fa, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_listed(b, "extra", 5, 1, &ctx), EXO_OK);
  /* nothing of the graph after the sequences */
  ck_assert_int_eq(exo_builder_add_edge(b, "a", 1, "b", 1, 1.0, &ctx), EXO_EARG);
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_builder_add_file(b, edges, &ctx), EXO_EARG);
  exo_ctx_init(&ctx);
  /* a name holding the separator: an error naming it */
  ck_assert_int_eq(exo_builder_add_listed(b, "a\tb", 3, 7, &ctx), EXO_EINPUT);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "sequence name 7"));
  exo_ctx_init(&ctx);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_builder_finish(b, &ctx, &g), EXO_OK);
  ck_assert_int_eq(g->listed, 1);
  ck_assert_int_eq(g->listed_fasta, 1);
  ck_assert_uint_eq(g->num_nodes, 6);
  ck_assert_uint_eq(g->num_listed, 5);     /* p1 p2 p3 lonely extra (p1 twice) */
  ck_assert_uint_eq(g->num_listed_new, 3); /* p1 lonely extra */
  ck_assert_uint_eq(g->num_unlisted, 1);   /* x */
  char *names = tu_read_file(g->names_path, NULL);
  ck_assert_str_eq(names, "p2\np3\nx\np1\nlonely\nextra\n");
  free(names);
  exo_graph_free(g);
  /* a FASTA with a name that holds the separator: file and line */
  char *sepfa = tu_write_text(dir, "sep.fa", ">ok\nA\n>a,b c\nA\n");
  exo_build_options opt;
  memset(&opt, 0, sizeof opt);
  opt.parse.sep = ',';
  opt.tempdir_base = dir;
  opt.memory_limit = 16u << 20;
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  ck_assert_int_eq(exo_builder_add_sequences(b, sepfa, &ctx), EXO_EINPUT);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "sep.fa' line 3: the sequence name 'a,b' contains "
                                            "the separator"));
  exo_builder_abort(b);
  unlink(edges);
  unlink(fa);
  unlink(sepfa);
  free(edges);
  free(fa);
  free(sepfa);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* The pipeline with members_table and rep_fasta: one line per node in the
 * clusters file's order, the cluster table's representative; the FASTA
 * holds the representatives. The member table's bytes under budgets that
 * keep no name (names read back from the names file) equal the big one's. */
START_TEST(member_table_and_rep_fasta) {
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  size_t cap = 1 << 20, len = 0, flen = 0;
  char *t = malloc(cap), *f = malloc(cap);
  for (int c = 0; c < 30; c++) {
    for (int i = 0; i < 6; i++)
      for (int j = i + 1; j < 6; j++)
        len += (size_t)snprintf(t + len, cap - len, "c%d_%d%s\tc%d_%d\t%d\n", c, i,
                                i == 3 ? "_with_a_much_longer_name" : "", c, j, 1 + (i + j) % 4);
    for (int i = 0; i < 6; i++)
      flen += (size_t)snprintf(f + flen, cap - flen, ">c%d_%d%s desc\nMK%dV\n", c, i,
                               i == 3 ? "_with_a_much_longer_name" : "", c);
  }
  flen += (size_t)snprintf(f + flen, cap - flen, ">alone\nPEPTI\n");
  char *edges = tu_write_text(dir, "e.tsv", t);
  char *fa = tu_write_text(dir, "s.fa", f);
  char *out = tu_path(dir, "out.tsv"), *table = tu_path(dir, "table.tsv"),
       *members = tu_path(dir, "members.tsv"), *reps = tu_path(dir, "reps.fa");
  exo_builder *b = new_builder(dir, &ctx);
  ck_assert_int_eq(exo_builder_add_file(b, edges, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_sequences(b, fa, &ctx), EXO_OK);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_builder_finish(b, &ctx, &g), EXO_OK);
  ck_assert_uint_eq(g->num_listed_new, 1);
  g->cluster_table = table;
  g->members_table = members;
  g->rep_fasta = reps;
  g->rep_fasta_from = fa;
  exo_lp_params p;
  memset(&p, 0, sizeof p);
  p.seed = 3;
  p.memory_limit = 8u << 20;
  exo_cluster_result res;
  ck_assert_int_eq(exo_graph_cluster(g, &p, out, '\t', &ctx, &res), EXO_OK);
  ck_assert_uint_eq(res.rep_missing, 0);
  /* the member table against the clusters and the cluster table */
  char *otext = tu_read_file(out, NULL), *ttext = tu_read_file(table, NULL),
       *mtext = tu_read_file(members, NULL), *rtext = tu_read_file(reps, NULL);
  char repname[200][64];
  uint64_t k = 0;
  for (char *q = strchr(ttext, '\n') + 1; *q; q = strchr(q, '\n') + 1) {
    char *last = q;
    for (char *r = q; *r != '\n'; r++)
      if (*r == '\t') last = r + 1;
    size_t l = (size_t)(strchr(last, '\n') - last);
    memcpy(repname[++k], last, l);
    repname[k][l] = '\0';
    ck_assert(strstr(rtext, repname[k]) != NULL); /* in the FASTA */
  }
  ck_assert_uint_eq(k, res.num_clusters);
  char *o = otext, *m = mtext;
  uint64_t lines = 0;
  while (*o) {
    char name[64], rep[64], member[64];
    unsigned long long c;
    ck_assert_int_eq(sscanf(o, "%63[^\t]\t%llu", name, &c), 2);
    ck_assert_int_eq(sscanf(m, "%63[^\t]\t%63[^\n]", rep, member), 2);
    ck_assert_str_eq(member, name);
    ck_assert_str_eq(rep, repname[c]);
    o = strchr(o, '\n') + 1;
    m = strchr(m, '\n') + 1;
    lines++;
  }
  ck_assert_int_eq(*m, '\0');
  ck_assert_uint_eq(lines, g->num_nodes);
  ck_assert_ptr_nonnull(strstr(mtext, "alone\talone\n"));
  ck_assert_ptr_nonnull(strstr(rtext, ">alone\nPEPTI\n"));
  /* the same bytes when the names do not fit: read back from the names file */
  uint64_t *cl = malloc(g->num_nodes * sizeof *cl);
  {
    /* the clusters, from the output (lines in id order) */
    o = otext;
    for (uint64_t v = 0; v < g->num_nodes; v++) {
      char *tab = strchr(o, '\t');
      cl[v] = strtoull(tab + 1, NULL, 10);
      o = strchr(o, '\n') + 1;
    }
  }
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs, g->wide};
  exo_clstats s;
  ck_assert_int_eq(exo_clstats_compute(&csr, 0, cl, res.num_clusters, 0, &ctx, &s), EXO_OK);
  char *m2 = tu_path(dir, "members2.tsv");
  for (uint64_t budget = 2; budget < 5000; budget = budget * 5 + 1) {
    ck_assert_int_eq(exo_clstats_write_members(&s, g->names_path, cl, g->num_nodes, '\t', m2,
                                               budget, NULL, &ctx),
                     EXO_OK);
    char *t2 = tu_read_file(m2, NULL);
    ck_assert_str_eq(t2, mtext);
    free(t2);
  }
  exo_clstats_free(&s);
  free(cl);
  exo_graph_free(g);
  free(otext);
  free(ttext);
  free(mtext);
  free(rtext);
  const char *files[] = {edges, fa, out, table, members, reps, m2};
  for (int i = 0; i < 7; i++) unlink(files[i]);
  free(edges);
  free(fa);
  free(out);
  free(table);
  free(members);
  free(reps);
  free(m2);
  free(t);
  free(f);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* order = "name": byte order (unsigned, a prefix first), clusters
 * renumbered by first appearance in it, both files in that order. */
START_TEST(by_name_order) {
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  /* ids 0..7 in this order; their byte order: 10 9 B a ab a\xc3\xa9 b \xc3\xa9 */
  const char *names = "b\na\nab\n\xc3\xa9\nB\n10\n9\na\xc3\xa9\n";
  char *np = tu_write_text(dir, "names.txt", names);
  exo_byname bn;
  ck_assert_int_eq(exo_byname_load(&bn, np, 8, &ctx), EXO_OK);
  const uint64_t want[8] = {5, 6, 4, 1, 2, 7, 0, 3};
  for (int i = 0; i < 8; i++) ck_assert_uint_eq(bn.order[i], want[i]);
  /* clusters in id order 1 2 2 3 1 3 4 2; in name order 3 4 1 2 2 2 1 3,
   * renumbered by first appearance there: 3->1, 4->2, 1->3, 2->4 */
  uint64_t cl[8] = {1, 2, 2, 3, 1, 3, 4, 2};
  ck_assert_int_eq(exo_byname_renumber(&bn, cl, 4, &ctx), EXO_OK);
  const uint64_t renum[8] = {3, 4, 4, 1, 3, 1, 2, 4};
  for (int i = 0; i < 8; i++) ck_assert_uint_eq(cl[i], renum[i]);
  char *out = tu_path(dir, "out.tsv");
  ck_assert_int_eq(exo_byname_write(&bn, cl, ',', out, NULL, &ctx), EXO_OK);
  char *text = tu_read_file(out, NULL);
  ck_assert_str_eq(text, "10,1\n9,2\nB,3\na,4\nab,4\na\xc3\xa9,4\nb,3\n\xc3\xa9,1\n");
  free(text);
  const uint64_t rep[5] = {0, 5, 6, 0, 2};
  ck_assert_int_eq(exo_byname_write_members(&bn, cl, rep, '\t', out, NULL, &ctx), EXO_OK);
  text = tu_read_file(out, NULL);
  ck_assert_str_eq(text, "10\t10\n9\t9\nb\tB\nab\ta\nab\tab\nab\ta\xc3\xa9\nb\tb\n10\t\xc3\xa9\n");
  free(text);
  exo_byname_free(&bn);
  /* a names file that does not hold n names */
  ck_assert_int_eq(exo_byname_load(&bn, np, 9, &ctx), EXO_EINTERNAL);
  exo_ctx_init(&ctx);
  /* no node */
  char *empty = tu_write_text(dir, "empty.txt", "");
  ck_assert_int_eq(exo_byname_load(&bn, empty, 0, &ctx), EXO_OK);
  ck_assert_int_eq(exo_byname_write(&bn, NULL, '\t', out, NULL, &ctx), EXO_OK);
  exo_byname_free(&bn);
  unlink(np);
  unlink(out);
  unlink(empty);
  free(np);
  free(out);
  free(empty);
  ck_assert_int_eq(tu_count_entries(dir), 0);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

Suite *seqs_suite(void) {
  Suite *s = suite_create("seqs");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, reads_fasta_and_lists);
  tcase_add_test(tc, selects_fasta_records);
  tcase_add_test(tc, builder_adds_the_sequences);
  tcase_add_test(tc, member_table_and_rep_fasta);
  tcase_add_test(tc, by_name_order);
  suite_add_tcase(s, tc);
  return s;
}
