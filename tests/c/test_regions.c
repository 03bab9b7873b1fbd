/* test_regions.c: the region rule of search output (exo_regions.h) through
 * the whole build: which pairs a multi-domain protein drops, a full-length
 * homologue that keeps everything, the same graph for any threads and
 * memory, coordinates that are not numbers, the options that switch it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exo_options.h"
#include "exo_pipeline.h"
#include "exo_record.h"
#include "testutil.h"

/* One BLAST -outfmt 6 line: q s ... qstart qend sstart send evalue bits. */
static size_t hit(char *t, size_t at, size_t cap, const char *q, const char *s, int qs, int qe,
                  int ss, int se, double bits) {
  return at + (size_t)snprintf(t + at, cap - at,
                               "%s\t%s\t50\t100\t50\t0\t%d\t%d\t%d\t%d\t1e-10\t%g\n", q, s, qs,
                               qe, ss, se, bits);
}

/* Families A (a1..a3) and B (b1..b3), each all-vs-all on 1-100; the fusion
 * F = A domain (1-100) + B domain (101-200), hit by every a on F:1-100 at
 * 80 bits and by every b on F:101-200 at 60 bits; self hits. With
 * `full`, a protein G spanning both domains hits F on 1-200. */
static char *fusion_text_scaled(int full, int x) {
  size_t cap = 1 << 16, n = 0;
  char *t = malloc(cap);
  const char *fam[2][3] = {{"a1", "a2", "a3"}, {"b1", "b2", "b3"}};
  for (int f = 0; f < 2; f++)
    for (int i = 0; i < 3; i++) {
      n = hit(t, n, cap, fam[f][i], fam[f][i], 1, 100 * x, 1, 100 * x, 200);
      for (int j = 0; j < 3; j++)
        if (i != j) n = hit(t, n, cap, fam[f][i], fam[f][j], 1, 100 * x, 1, 100 * x, 90);
      /* the fusion: on F the b hits lie at 101-200, written end first once */
      if (f == 0) n = hit(t, n, cap, fam[f][i], "F", 1, 100 * x, 1, 100 * x, 80);
      else n = hit(t, n, cap, "F", fam[f][i], (i == 0 ? 200 : 101) * x, (i == 0 ? 101 : 200) * x, 1, 100 * x, 60);
    }
  n = hit(t, n, cap, "F", "F", 1, 200 * x, 1, 200 * x, 400);
  if (full) {
    n = hit(t, n, cap, "G", "G", 1, 200 * x, 1, 200 * x, 400);
    n = hit(t, n, cap, "G", "F", 1, 200 * x, 1, 200 * x, 300);
  }
  return t;
}

static char *fusion_text(int full) { return fusion_text_scaled(full, 1); }

/* format = blast's build options (the table's defaults), regions as asked. */
static void blast_options(exo_build_options *b, const char *dir, const char *regions,
                          const char *columns) {
  exo_options o;
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  exo_error err;
  exo_error_clear(&err);
  ck_assert_int_eq(exo_options_set(&o, "format", "blast", &err), EXO_OK);
  if (regions) ck_assert_int_eq(exo_options_set(&o, "bridges", regions, &err), EXO_OK);
  if (columns) ck_assert_int_eq(exo_options_set(&o, "columns", columns, &err), EXO_OK);
  ck_assert_int_eq(exo_options_set(&o, "threads", "1", &err), EXO_OK);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &err), EXO_OK);
  memset(b, 0, sizeof *b);
  b->tempdir_base = dir;
  exo_options_fill_build(&o, b);
}

/* The names in id order (one per line of the names file) and the CSR. */
typedef struct graph_view {
  char names[64][8];
  uint64_t n, off[65];
  uint64_t nbr[1024];
} graph_view;

static void view(const exo_graph *g, graph_view *v) {
  memset(v, 0, sizeof *v);
  ck_assert_uint_le(g->num_nodes, 64);
  v->n = g->num_nodes;
  char *names = tu_read_file(g->names_path, NULL);
  ck_assert_ptr_nonnull(names);
  const char *p = names;
  for (uint64_t i = 0; i < v->n; i++) {
    const char *nl = strchr(p, '\n');
    ck_assert_ptr_nonnull(nl);
    snprintf(v->names[i], sizeof v->names[i], "%.*s", (int)(nl - p), p);
    p = nl + 1;
  }
  free(names);
  size_t ol = 0, al = 0;
  char *off = tu_read_file(g->offsets_path, &ol), *adj = tu_read_file(g->adj_path, &al);
  ck_assert_uint_eq(ol, (v->n + 1) * 8);
  memcpy(v->off, off, ol);
  const size_t esz = exo_adj_size(g->wide);
  ck_assert_uint_le(al / esz, 1024);
  for (size_t i = 0; i < al / esz; i++) {
    float w;
    exo_adj_decode((const uint8_t *)adj + i * esz, g->wide, &v->nbr[i], &w);
  }
  free(off);
  free(adj);
}

static int id_of(const graph_view *v, const char *name) {
  for (uint64_t i = 0; i < v->n; i++)
    if (!strcmp(v->names[i], name)) return (int)i;
  ck_abort_msg("no node %s", name);
  return -1;
}

static int linked(const graph_view *v, const char *x, const char *y) {
  int a = id_of(v, x), b = id_of(v, y);
  for (uint64_t k = v->off[a]; k < v->off[a + 1]; k++)
    if (v->nbr[k] == (uint64_t)b) return 1;
  return 0;
}

static int force_wide = 0; /* build(): 64-bit ids on disk (the regions' three-record path) */

static exo_graph *build(const char *dir, const char *file, const char *regions,
                        uint64_t run_records, int threads) {
  exo_build_options b;
  blast_options(&b, dir, regions, NULL);
  b.files = &file;
  b.nfiles = 1;
  b.run_records = run_records;
  b.parse.threads = threads;
  b.force_wide_ids = force_wide;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_graph *g = NULL;
  exo_status st = exo_graph_build(&b, &ctx, &g);
  ck_assert_msg(st == EXO_OK, "%s", ctx.err.msg);
  return g;
}

START_TEST(fusion_keeps_its_strongest_region) {
  char *dir = tu_mkdtemp();
  char *text = fusion_text(0);
  char *f = tu_write_text(dir, "hits.m8", text);
  exo_graph *g = build(dir, f, NULL, 0, 1); /* the blast format's default */
  graph_view v;
  view(g, &v);
  ck_assert_uint_eq(g->num_region_split, 1);
  ck_assert_uint_eq(g->num_region_pairs, 3);
  for (int i = 1; i <= 3; i++) {
    char a[4], bb[4];
    snprintf(a, sizeof a, "a%d", i);
    snprintf(bb, sizeof bb, "b%d", i);
    ck_assert(linked(&v, "F", a) && linked(&v, a, "F"));     /* 3 x 80 bits: the strongest */
    ck_assert(!linked(&v, "F", bb) && !linked(&v, bb, "F")); /* both directions gone */
    ck_assert(linked(&v, bb, i == 3 ? "b1" : (i == 1 ? "b2" : "b3")));
  }
  ck_assert_uint_eq(g->num_edges, 2 * (3 + 3 + 3)); /* a-a, b-b, F-a; self arcs dropped */
  exo_graph_free(g);
  /* bridges = keep keeps every pair */
  g = build(dir, f, "keep", 0, 1);
  view(g, &v);
  ck_assert_uint_eq(g->num_region_pairs, 0);
  ck_assert(linked(&v, "F", "b1") && linked(&v, "b2", "F"));
  ck_assert_uint_eq(g->num_edges, 2 * (3 + 3 + 3 + 3));
  exo_graph_free(g);
  ck_assert_int_eq(tu_count_entries(dir), 1); /* only the input: no temporary left */
  free(f);
  free(text);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Nucleotide-length coordinates (up to 2,000,000: above the 16 bits of the
 * packed records) still separate the two domains. */
START_TEST(long_coordinates_keep_the_rule) {
  char *dir = tu_mkdtemp();
  char *text = fusion_text_scaled(0, 10000);
  char *f = tu_write_text(dir, "hits.m8", text);
  exo_graph *g = build(dir, f, NULL, 0, 1);
  ck_assert_uint_eq(g->num_region_split, 1);
  ck_assert_uint_eq(g->num_region_pairs, 3);
  exo_graph_free(g);
  free(f);
  free(text);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(full_length_homologue_keeps_every_hit) {
  char *dir = tu_mkdtemp();
  char *text = fusion_text(1);
  char *f = tu_write_text(dir, "hits.m8", text);
  exo_graph *g = build(dir, f, NULL, 0, 1);
  graph_view v;
  view(g, &v);
  /* G's 1-200 interval on F overlaps both domains: F has one region */
  ck_assert_uint_eq(g->num_region_split, 0);
  ck_assert_uint_eq(g->num_region_pairs, 0);
  ck_assert(linked(&v, "F", "b1") && linked(&v, "F", "a1") && linked(&v, "G", "F"));
  exo_graph_free(g);
  free(f);
  free(text);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Many fusions: the graph's files are byte for byte the same for one or
 * two threads and for runs of a few records (many merge passes). */
START_TEST(same_graph_for_threads_and_memory) {
  char *dir = tu_mkdtemp();
  size_t cap = 1 << 22, n = 0;
  char *t = malloc(cap);
  unsigned rng = 54;
  for (int k = 0; k < 400; k++) {
    char q[16], s[16];
    rng = rng * 1103515245u + 12345u;
    snprintf(q, sizeof q, "p%u", (rng >> 8) % 150);
    rng = rng * 1103515245u + 12345u;
    snprintf(s, sizeof s, "p%u", (rng >> 8) % 150);
    const int at = (int)((rng >> 4) % 3) * 100 + 1;
    n = hit(t, n, cap, q, s, at, at + 90, at, at + 90, 40 + (rng >> 20) % 60);
  }
  char *f = tu_write_text(dir, "hits.m8", t);
  char *want[2] = {NULL, NULL};
  size_t want_len[2] = {0, 0};
  uint64_t pairs = 0;
  const uint64_t records[3] = {0, 7, 0};
  const int threads[3] = {1, 1, 2};
  for (int r = 0; r < 3; r++) {
    exo_graph *g = build(dir, f, NULL, records[r], threads[r]);
    size_t ol, al;
    char *off = tu_read_file(g->offsets_path, &ol), *adj = tu_read_file(g->adj_path, &al);
    if (r == 0) {
      want[0] = off;
      want[1] = adj;
      want_len[0] = ol;
      want_len[1] = al;
      pairs = g->num_region_pairs;
      ck_assert_uint_gt(pairs, 0);
    } else {
      ck_assert_uint_eq(g->num_region_pairs, pairs);
      ck_assert_uint_eq(ol, want_len[0]);
      ck_assert_uint_eq(al, want_len[1]);
      ck_assert(!memcmp(off, want[0], ol));
      ck_assert(!memcmp(adj, want[1], al));
      free(off);
      free(adj);
    }
    exo_graph_free(g);
  }
  /* wide ids: three records per hit end instead of one packed; the same
   * pairs removed, the same graph */
  force_wide = 1;
  exo_graph *g = build(dir, f, NULL, 7, 1);
  force_wide = 0;
  ck_assert_uint_eq(g->num_region_pairs, pairs);
  ck_assert_uint_eq(g->num_arcs, want_len[1] / 8);
  exo_graph_free(g);
  free(want[0]);
  free(want[1]);
  free(f);
  free(t);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(coordinate_that_is_not_a_number) {
  char *dir = tu_mkdtemp();
  char *f = tu_write_text(dir, "hits.m8",
                          "a\tb\t50\t100\t50\t0\t1\t100\t1\t100\t1e-10\t90\n"
                          "a\tc\t50\t100\t50\t0\t1\tx9\t1\t100\t1e-10\t90\n");
  exo_build_options b;
  blast_options(&b, dir, NULL, NULL);
  const char *files[1] = {f};
  b.files = files;
  b.nfiles = 1;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_graph_build(&b, &ctx, &g), EXO_EINPUT);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "hits.m8:2:"));
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "field 8"));
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "'x9'"));
  ck_assert_int_eq(tu_count_entries(dir), 1);
  /* bridges = keep reads no coordinate */
  blast_options(&b, dir, "keep", NULL);
  b.files = files;
  b.nfiles = 1;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_graph_build(&b, &ctx, &g), EXO_OK);
  exo_graph_free(g);
  free(f);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(options_switch_the_rule) {
  exo_build_options b;
  blast_options(&b, "/tmp", NULL, NULL);
  ck_assert_int_eq(b.regions, 1);
  ck_assert_int_eq(b.weak_hits, 1);
  ck_assert_uint_eq(b.parse.col_iv[0], 7);
  ck_assert_uint_eq(b.parse.col_iv[3], 10);
  blast_options(&b, "/tmp", NULL, "1,2,3"); /* another column order: no coordinates known */
  ck_assert_int_eq(b.regions, 0);
  ck_assert_int_eq(b.weak_hits, 0);
  ck_assert_uint_eq(b.parse.col_iv[0], 0);
  blast_options(&b, "/tmp", NULL, "1,2,11");
  ck_assert_int_eq(b.regions, 1);
  exo_options o;
  exo_error err;
  /* strongest where there are no coordinates is refused by name */
  const char *bad[2][4] = {{"format", "blast", "columns", "1,2,3"},
                           {"format", "edges", "bridges", "cut"}};
  for (int k = 0; k < 2; k++) {
    exo_options_init(&o, EXO_OPT_STYLE_CLI);
    exo_error_clear(&err);
    ck_assert_int_eq(exo_options_set(&o, bad[k][0], bad[k][1], &err), EXO_OK);
    ck_assert_int_eq(exo_options_set(&o, bad[k][2], bad[k][3], &err), EXO_OK);
    if (k == 0) ck_assert_int_eq(exo_options_set(&o, "bridges", "cut", &err), EXO_OK);
    ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &err), EXO_EARG);
    ck_assert_ptr_nonnull(strstr(err.msg, "--bridges cut"));
  }
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  exo_error_clear(&err);
  ck_assert_int_eq(exo_options_set(&o, "bridges", "maybe", &err), EXO_EARG);
}
END_TEST

/* Two tight families of n (all pairs 90 bits, self 200: weight 0.45) and
 * one hit of `bridge` bits between a1 and b1; full-length coordinates. */
static char *bridge_text(int n, double bridge) {
  size_t cap = 1 << 18, at = 0;
  char *t = malloc(cap);
  for (int f = 0; f < 2; f++)
    for (int i = 1; i <= n; i++)
      for (int j = 1; j <= n; j++) {
        char q[16], s[16];
        snprintf(q, sizeof q, "%c%d", f ? 'b' : 'a', i);
        snprintf(s, sizeof s, "%c%d", f ? 'b' : 'a', j);
        at = hit(t, at, cap, q, s, 1, 100, 1, 100, i == j ? 200 : 90 - (i + j) % 5);
      }
  at = hit(t, at, cap, "a1", "b1", 1, 100, 1, 100, bridge);
  return t;
}

START_TEST(weak_hit_between_tight_families_goes) {
  char *dir = tu_mkdtemp();
  /* 40 bits (0.2) against hits of 0.43-0.45: removed, both directions */
  char *text = bridge_text(10, 40);
  char *f = tu_write_text(dir, "hits.m8", text);
  exo_graph *g = build(dir, f, NULL, 0, 1);
  graph_view v;
  ck_assert_uint_eq(g->num_weak_pairs, 1);
  ck_assert_uint_eq(g->num_edges, 2 * (2 * 45));
  view(g, &v);
  ck_assert(!linked(&v, "a1", "b1") && !linked(&v, "b1", "a1"));
  ck_assert(linked(&v, "a1", "a2"));
  exo_graph_free(g);
  g = build(dir, f, "keep", 0, 1);
  ck_assert_uint_eq(g->num_weak_pairs, 0);
  ck_assert_uint_eq(g->num_edges, 2 * (2 * 45 + 1));
  exo_graph_free(g);
  free(f);
  free(text);
  /* a hit of 60 bits (0.3, above 0.55 x 0.43) stays */
  text = bridge_text(10, 60);
  f = tu_write_text(dir, "hits.m8", text);
  g = build(dir, f, NULL, 0, 1);
  ck_assert_uint_eq(g->num_weak_pairs, 0);
  exo_graph_free(g);
  free(f);
  free(text);
  /* families of 7 (6 other hits each: below the 8 the rule asks for) */
  text = bridge_text(7, 40);
  f = tu_write_text(dir, "hits.m8", text);
  g = build(dir, f, NULL, 0, 1);
  ck_assert_uint_eq(g->num_weak_pairs, 0);
  exo_graph_free(g);
  free(f);
  free(text);
  ck_assert_int_eq(tu_count_entries(dir), 1); /* the input only */
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* The standard 12-column text rewritten with the columns in `order` (0-based
 * indices into the 12 fields, then -1), after the header `head`. */
static char *reorder(const char *text, const char *head, const int *order) {
  size_t cap = strlen(text) * 2 + strlen(head) + 64, at = 0;
  char *out = malloc(cap);
  at += (size_t)snprintf(out, cap, "%s", head);
  const char *p = text;
  while (*p) {
    const char *f[12];
    size_t fl[12];
    const char *q = p;
    for (int i = 0; i < 12; i++) {
      const char *e = q + strcspn(q, "\t\n");
      f[i] = q;
      fl[i] = (size_t)(e - q);
      q = *e == '\t' ? e + 1 : e;
    }
    for (int k = 0; order[k] >= 0; k++)
      at += (size_t)snprintf(out + at, cap - at, "%s%.*s", k ? "\t" : "", (int)fl[order[k]],
                             f[order[k]]);
    at += (size_t)snprintf(out + at, cap - at, "\n");
    p = strchr(p, '\n') + 1;
  }
  return out;
}

/* Search output with a header of column names in another order: the
 * columns are found by name, the same graph as the standard file. */
START_TEST(columns_by_name_from_a_header) {
  char *dir = tu_mkdtemp();
  char *text = fusion_text(0);
  char *f = tu_write_text(dir, "std.m8", text);
  exo_graph *g = build(dir, f, NULL, 0, 1);
  const uint64_t pairs = g->num_region_pairs, edges = g->num_edges;
  ck_assert_uint_eq(pairs, 3);
  exo_graph_free(g);
  free(f);
  /* qseqid sseqid evalue bitscore qstart qend sstart send (+ extra columns) */
  const int order[] = {0, 1, 10, 11, 6, 7, 8, 9, 2, 3, -1};
  const char *heads[4] = {
      /* DIAMOND --header simple */
      "qseqid\tsseqid\tevalue\tbitscore\tqstart\tqend\tsstart\tsend\tpident\tlength\n",
      /* DIAMOND --header verbose, BLAST+ -outfmt 7 */
      "# DIAMOND v2.1.3\n# Invocation: diamond blastp\n# Fields: Query ID, Subject ID, "
      "Expected value, Bit score, Start of alignment in query, End of alignment in query, "
      "Start of alignment in subject, End of alignment in subject, Percentage of identical "
      "matches, Alignment length\n",
      /* MMseqs2 --format-mode 4 */
      "query\ttarget\tevalue\tbits\tqstart\tqend\ttstart\ttend\tfident\talnlen\n",
      /* BLAST+ names */
      "# Fields: query acc.ver, subject acc.ver, evalue, bit score, q. start, q. end, s. start, "
      "s. end, % identity, alignment length\n"};
  for (int h = 0; h < 4; h++) {
    char *t = reorder(text, heads[h], order);
    f = tu_write_text(dir, "named.m8", t);
    for (int threads = 1; threads <= 2; threads++) {
      g = build(dir, f, NULL, 0, threads);
      ck_assert_msg(g->num_region_pairs == pairs && g->num_edges == edges,
                    "header %d, %d threads: %llu pairs, %llu edges", h, threads,
                    (unsigned long long)g->num_region_pairs, (unsigned long long)g->num_edges);
      exo_graph_free(g);
    }
    free(f);
    free(t);
  }
  /* names without the coordinates: the edges, no region rule */
  const int nocoord[] = {0, 1, 10, 11, -1};
  char *t = reorder(text, "qseqid\tsseqid\tevalue\tbitscore\n", nocoord);
  f = tu_write_text(dir, "named.m8", t);
  g = build(dir, f, NULL, 0, 1);
  ck_assert_uint_eq(g->num_region_pairs, 0);
  ck_assert_uint_eq(g->num_edges, edges + 2 * pairs);
  exo_graph_free(g);
  free(f);
  free(t);
  free(text);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

Suite *regions_suite(void) {
  Suite *s = suite_create("regions");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, fusion_keeps_its_strongest_region);
  tcase_add_test(tc, full_length_homologue_keeps_every_hit);
  tcase_add_test(tc, long_coordinates_keep_the_rule);
  tcase_add_test(tc, same_graph_for_threads_and_memory);
  tcase_add_test(tc, coordinate_that_is_not_a_number);
  tcase_add_test(tc, options_switch_the_rule);
  tcase_add_test(tc, weak_hit_between_tight_families_goes);
  tcase_add_test(tc, columns_by_name_from_a_header);
  suite_add_tcase(s, tc);
  return s;
}
