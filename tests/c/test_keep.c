/* test_keep.c: keep and extend a graph (issue 57; exo_keep.h, exo_build_options
 * graph / keep_graph, exo_sorter_set_base): an extended graph is byte for
 * byte the graph of one build of all files (plain edges, format blast with
 * its region rule, normalisation and weak-hit rule; threads 1 and 2; runs
 * forced small and narrow merges), so are the clusters; an extension
 * interrupted at any point leaves the kept graph usable and nothing
 * behind; options that shaped the kept graph must match; bad directories
 * and corrupt files are refused with their names. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exo_keep.h"
#include "exo_method.h"
#include "exo_options.h"
#include "exo_pipeline.h"
#include "exo_platform.h"
#include "testutil.h"

/* ---- inputs ---------------------------------------------------------------- */

static uint64_t rng_next(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 33;
}

/* Plain edges "nI\tnJ\tw": `lines` random lines over `nodes` names (names
 * appear for the first time in every part), a few repeated pairs. */
static char *plain_text(uint64_t seed, int lines, int nodes, int offset) {
  size_t cap = (size_t)lines * 48 + 64, at = 0;
  char *t = malloc(cap);
  uint64_t s = seed;
  for (int i = 0; i < lines; i++) {
    int a = offset + (int)(rng_next(&s) % (uint64_t)nodes);
    int b = offset + (int)(rng_next(&s) % (uint64_t)nodes);
    if (i % 7 == 3) b = a ^ 1; /* pairs seen again, in other parts too */
    double w = 0.25 * (double)(1 + rng_next(&s) % 16);
    at += (size_t)snprintf(t + at, cap - at, "n%d\tn%d\t%g\n", a, b, w);
  }
  t[at] = 0;
  return t;
}

/* BLAST -outfmt 6 hits between proteins of families of 12 (pN), each hit
 * on the family's domain, some proteins fused (two domains), self hits,
 * a few weak cross-family hits; `offset` shifts the protein numbers so that
 * a later part brings new proteins. */
static char *blast_text(uint64_t seed, int lines, int proteins, int offset) {
  size_t cap = (size_t)lines * 96 + 64, at = 0;
  char *t = malloc(cap);
  uint64_t s = seed;
  for (int i = 0; i < lines; i++) {
    int a = offset + (int)(rng_next(&s) % (uint64_t)proteins), b;
    const int kind = (int)(rng_next(&s) % 20);
    if (kind == 0) b = a; /* self hit */
    else if (kind == 1) b = (int)(rng_next(&s) % (uint64_t)(proteins + offset)); /* weak */
    else b = (a / 12) * 12 + (int)(rng_next(&s) % 12); /* same family */
    const int fused = a % 11 == 5; /* a's family domain lies at 101-200 */
    const int qs = fused ? 101 : 1, qe = qs + 90 + (int)(rng_next(&s) % 10);
    const int ss = 1 + (int)(rng_next(&s) % 5), se = ss + 90;
    double bits = kind == 0 ? 400.0 : kind == 1 ? 20.0 + (double)(rng_next(&s) % 10)
                                    : 120.0 + (double)(rng_next(&s) % 40);
    at += (size_t)snprintf(t + at, cap - at,
                           "p%d\tp%d\t50\t100\t5\t0\t%d\t%d\t%d\t%d\t1e-10\t%g\n", a, b, qs, qe,
                           ss, se, bits);
  }
  t[at] = 0;
  return t;
}

/* ---- a build --------------------------------------------------------------------- */

typedef struct knobs {
  int blast;             /* format blast (else edges) */
  int threads;
  uint64_t run_records;  /* several runs */
  uint32_t fan_in;       /* intermediate passes */
  const char *combine;   /* NULL: the format's */
  const char *min_weight;
  int interrupt_at;      /* the n-th poll says stop (0: never) */
  int directed;
  int wide;              /* force_wide_ids: 64-bit ids on disk */
} knobs;

typedef struct poll_count {
  int polls, stop_at;
} poll_count;

static void show(void *user, const char *text) {
  (void)user;
  if (getenv("EXO_TEST_KEEP_VERBOSE")) fprintf(stderr, "%s\n", text);
}

static int count_polls(void *user) {
  poll_count *p = user;
  return p->stop_at > 0 && ++p->polls >= p->stop_at;
}

/* Build `files` (graph / keep: the directories, or NULL) and cluster into
 * out (NULL: no clustering). Returns the status; msg gets the error. */
static exo_status run(const char *tmp, const char *const *files, size_t nfiles, const char *graph,
                      const char *keep, const knobs *k, const char *out, char *msg,
                      size_t msglen) {
  exo_options o;
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  exo_error err;
  exo_error_clear(&err);
  char th[16];
  snprintf(th, sizeof th, "%d", k->threads);
  ck_assert_int_eq(exo_options_set(&o, "format", k->blast ? "blast" : "edges", &err), EXO_OK);
  ck_assert_int_eq(exo_options_set(&o, "threads", th, &err), EXO_OK);
  ck_assert_int_eq(exo_options_set(&o, "memory_limit", "1MB", &err), EXO_OK);
  if (k->combine) ck_assert_int_eq(exo_options_set(&o, "combine", k->combine, &err), EXO_OK);
  if (k->min_weight)
    ck_assert_int_eq(exo_options_set(&o, "min_weight", k->min_weight, &err), EXO_OK);
  if (k->directed) ck_assert_int_eq(exo_options_set(&o, "mode", "directed", &err), EXO_OK);
  if (graph) ck_assert_int_eq(exo_options_set(&o, "graph", graph, &err), EXO_OK);
  if (keep) ck_assert_int_eq(exo_options_set(&o, "keep_graph", keep, &err), EXO_OK);
  o.allow_oversubscribe = 1;
  ck_assert_msg(exo_options_resolve(&o, NULL, NULL, &err) == EXO_OK, "%s", err.msg);
  exo_build_options b;
  memset(&b, 0, sizeof b);
  b.tempdir_base = tmp;
  exo_options_fill_build(&o, &b);
  b.files = files;
  b.nfiles = nfiles;
  b.run_records = k->run_records;
  b.fan_in = k->fan_in;
  b.force_wide_ids = k->wide;
  poll_count pc = {0, k->interrupt_at};
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ctx.cb.user = &pc;
  ctx.cb.interrupted = count_polls;
  ctx.cb.message = show;
  exo_builder *bl = NULL;
  exo_graph *g = NULL;
  exo_status st = exo_builder_create(&b, &ctx, &bl);
  for (size_t i = 0; i < nfiles && !st; i++) {
    st = exo_builder_add_file(bl, files[i], &ctx);
    if (st) exo_builder_abort(bl);
  }
  if (!st) st = exo_builder_finish(bl, &ctx, &g);
  if (!st && out) {
    exo_cluster_result res;
    st = exo_method_run(g, &o, out, '\t', &ctx, &res);
  }
  exo_graph_free(g);
  if (msg) snprintf(msg, msglen, "%s", st ? ctx.err.msg : "");
  return st;
}

static void same_file(const char *a, const char *b) {
  size_t la = 0, lb = 0;
  char *x = tu_read_file(a, &la), *y = tu_read_file(b, &lb);
  ck_assert_msg(x && y, "reading %s or %s", a, b);
  ck_assert_msg(la == lb && memcmp(x, y, la) == 0, "%s and %s differ", a, b);
  free(x);
  free(y);
}

/* Two kept graphs of generation 1 are the same bytes. */
static void same_kept(const char *d1, const char *d2, int hits) {
  const char *names[] = {"manifest",     "g1.names", "g1.offsets",
                         "g1.adjacency", "g1.hits",  "g1.ioffsets", "g1.iadjacency"};
  for (int i = 0; i < 4 + 3 * hits; i++) {
    char *a = tu_path(d1, names[i]), *b = tu_path(d2, names[i]);
    same_file(a, b);
    free(a);
    free(b);
  }
  ck_assert_int_eq(tu_count_entries(d1), 4 + 3 * hits);
}

/* The inputs: three parts, the last two new. */
static void write_parts(const char *dir, int blast, char *paths[3]) {
  const int lines = TU_SAN(1500, 500);
  for (int i = 0; i < 3; i++) {
    char *t = blast ? blast_text(11 + (uint64_t)i, i ? lines / 4 : lines, 120, i * 30)
                    : plain_text(11 + (uint64_t)i, i ? lines / 4 : lines, 150, i * 40);
    char name[32];
    snprintf(name, sizeof name, "part%d.tsv", i);
    paths[i] = tu_write_text(dir, name, t);
    free(t);
  }
}

static char *sub(const char *dir, const char *name) { return tu_path(dir, name); }

/* One build of all parts vs the first part kept, then extended by the
 * others in one step and in two; the kept graphs, the clusters. */
static void check_extension_k(const knobs *kk);
static void check_extension(int blast, int threads, uint64_t run_records, uint32_t fan_in) {
  knobs k = {blast, threads, run_records, fan_in, NULL, NULL, 0, 0, 0};
  check_extension_k(&k);
}

static void check_extension_k(const knobs *kk) {
  const int blast = kk->blast;
  char *dir = tu_mkdtemp(), *tmp = sub(dir, "tmp");
  ck_assert_int_eq(exo_make_dir(tmp), 0);
  char *parts[3];
  write_parts(dir, blast, parts);
  knobs k = *kk;
  char msg[1024];
  char *full = sub(dir, "full"), *old = sub(dir, "old"), *ext = sub(dir, "ext"),
       *step = sub(dir, "step"), *o_full = sub(dir, "full.tsv"), *o_ext = sub(dir, "ext.tsv"),
       *o_step = sub(dir, "step.tsv");
  const char *all[3] = {parts[0], parts[1], parts[2]};
  ck_assert_msg(run(tmp, all, 3, NULL, full, &k, o_full, msg, sizeof msg) == EXO_OK, "%s", msg);
  ck_assert_msg(run(tmp, all, 1, NULL, old, &k, NULL, msg, sizeof msg) == EXO_OK, "%s", msg);
  /* both new parts at once, into a new directory */
  ck_assert_msg(run(tmp, all + 1, 2, old, ext, &k, o_ext, msg, sizeof msg) == EXO_OK, "%s", msg);
  same_kept(full, ext, blast);
  same_file(o_full, o_ext);
  /* extended without keeping it */
  ck_assert_msg(run(tmp, all + 1, 2, old, NULL, &k, o_ext, msg, sizeof msg) == EXO_OK, "%s", msg);
  same_file(o_full, o_ext);
  /* one part at a time, kept in place (graph = keep_graph) */
  ck_assert_msg(run(tmp, all, 1, NULL, step, &k, NULL, msg, sizeof msg) == EXO_OK, "%s", msg);
  ck_assert_msg(run(tmp, all + 1, 1, step, step, &k, NULL, msg, sizeof msg) == EXO_OK, "%s", msg);
  ck_assert_int_eq(tu_count_entries(step), 4 + 3 * blast); /* generation 1 removed */
  char *ext2 = sub(dir, "ext2");
  ck_assert_msg(run(tmp, all + 2, 1, step, ext2, &k, o_step, msg, sizeof msg) == EXO_OK, "%s",
                msg);
  same_kept(full, ext2, blast);
  same_file(o_full, o_step);
  ck_assert_int_eq(tu_count_entries(tmp), 0); /* no temporary file left */
  for (int i = 0; i < 3; i++) free(parts[i]);
  free(full), free(old), free(ext), free(step), free(ext2), free(o_full), free(o_ext),
      free(o_step), free(tmp);
  tu_rmdir(dir);
  free(dir);
}

START_TEST(extended_equals_one_build_plain) {
  check_extension(0, 1, 0, 0);
  check_extension(0, 1, 97, 3); /* many runs, intermediate merges */
  check_extension(0, 2, 97, 3);
  check_extension(0, 2, 0, 0);
}
END_TEST

/* directed graphs (in-arcs and out-arcs of a pair keep their order) and
 * 64-bit ids on disk (the kept CSR read wide) */
START_TEST(extended_equals_one_build_directed_wide) {
  for (int t = 1; t <= 2; t++) {
    knobs d = {0, t, 97, 3, NULL, NULL, 0, 1, 0};
    check_extension_k(&d);
    knobs w = {0, t, 97, 3, NULL, NULL, 0, 0, 1};
    check_extension_k(&w);
    knobs bw = {1, t, 0, 0, NULL, NULL, 0, 0, 1};
    check_extension_k(&bw);
  }
}
END_TEST

START_TEST(extended_equals_one_build_blast) {
  check_extension(1, 1, 0, 0);
  check_extension(1, 1, 97, 3);
  check_extension(1, 2, 97, 3);
  check_extension(1, 2, 0, 0);
}
END_TEST

/* combine max on plain edges (the SUM/KEEP of the format is above) and
 * min_weight: the folded entries of the kept graph fold again alike. */
START_TEST(extended_equals_one_build_combine_max) {
  char *dir = tu_mkdtemp(), *tmp = sub(dir, "tmp");
  ck_assert_int_eq(exo_make_dir(tmp), 0);
  char *parts[3];
  write_parts(dir, 0, parts);
  char msg[1024];
  for (int t = 1; t <= 2; t++) {
    knobs k = {0, t, 61, 2, "max", "0.5", 0, 0, 0};
    char *full = sub(dir, "full"), *old = sub(dir, "old"), *ext = sub(dir, "ext");
    const char *all[3] = {parts[0], parts[1], parts[2]};
    ck_assert_msg(run(tmp, all, 3, NULL, full, &k, NULL, msg, sizeof msg) == EXO_OK, "%s", msg);
    ck_assert_msg(run(tmp, all, 1, NULL, old, &k, NULL, msg, sizeof msg) == EXO_OK, "%s", msg);
    ck_assert_msg(run(tmp, all + 1, 2, old, ext, &k, NULL, msg, sizeof msg) == EXO_OK, "%s", msg);
    same_kept(full, ext, 0);
    tu_rmdir(full), tu_rmdir(old), tu_rmdir(ext);
    free(full), free(old), free(ext);
  }
  for (int i = 0; i < 3; i++) free(parts[i]);
  free(tmp);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* An extension stopped at each of its polls in turn (graph = keep_graph:
 * the worst case) leaves the kept graph as it was: the same files, nothing
 * else in it or in the temporary directory, and a later extension gives
 * the graph of one build. */
START_TEST(interrupted_extension_leaves_the_kept_graph) {
  for (int blast = 0; blast <= 1; blast++) {
    char *dir = tu_mkdtemp(), *tmp = sub(dir, "tmp");
    ck_assert_int_eq(exo_make_dir(tmp), 0);
    char *parts[3];
    write_parts(dir, blast, parts);
    char msg[1024];
    knobs k = {blast, 2, 97, 3, NULL, NULL, 0, 0, 0};
    char *full = sub(dir, "full"), *kept = sub(dir, "kept"), *again = sub(dir, "again");
    const char *all[3] = {parts[0], parts[1], parts[2]};
    ck_assert_msg(run(tmp, all, 3, NULL, full, &k, NULL, msg, sizeof msg) == EXO_OK, "%s", msg);
    ck_assert_msg(run(tmp, all, 1, NULL, kept, &k, NULL, msg, sizeof msg) == EXO_OK, "%s", msg);
    char *man = sub(kept, "manifest");
    size_t ml = 0;
    char *before = tu_read_file(man, &ml);
    int stopped = 0;
    for (int at = 1; at < 400; at++) {
      knobs ki = k;
      ki.interrupt_at = at;
      exo_status st = run(tmp, all + 1, 2, kept, kept, &ki, NULL, msg, sizeof msg);
      if (st == EXO_OK) break; /* past the last poll: extended */
      ck_assert_int_eq(st, EXO_EINTR);
      stopped++;
      size_t l2 = 0;
      char *now = tu_read_file(man, &l2);
      ck_assert(l2 == ml && memcmp(now, before, ml) == 0);
      free(now);
      ck_assert_int_eq(tu_count_entries(kept), 4 + 3 * blast);
      ck_assert_int_eq(tu_count_entries(tmp), 0);
      if (at % 5 == 1) { /* usable: extends to the graph of one build */
        ck_assert_msg(run(tmp, all + 1, 2, kept, again, &k, NULL, msg, sizeof msg) == EXO_OK,
                      "%s", msg);
        same_kept(full, again, blast);
        tu_rmdir(again);
      }
    }
    ck_assert_int_gt(stopped, 3);
    /* the run that was not stopped extended the graph in place (generation 2) */
    ck_assert_msg(run(tmp, NULL, 0, kept, again, &k, NULL, msg, sizeof msg) == EXO_OK, "%s", msg);
    same_kept(full, again, blast);
    free(before), free(man), free(full), free(kept), free(again), free(tmp);
    for (int i = 0; i < 3; i++) free(parts[i]);
    tu_rmdir(dir);
    free(dir);
  }
}
END_TEST

START_TEST(mismatched_options_are_refused) {
  char *dir = tu_mkdtemp(), *tmp = sub(dir, "tmp");
  ck_assert_int_eq(exo_make_dir(tmp), 0);
  char *parts[3];
  write_parts(dir, 0, parts);
  char msg[1024];
  knobs k = {0, 1, 0, 0, NULL, NULL, 0, 0, 0};
  char *kept = sub(dir, "kept"), *ext = sub(dir, "ext");
  const char *all[3] = {parts[0], parts[1], parts[2]};
  ck_assert_msg(run(tmp, all, 1, NULL, kept, &k, NULL, msg, sizeof msg) == EXO_OK, "%s", msg);
  knobs m = k;
  m.combine = "max";
  ck_assert_int_eq(run(tmp, all + 1, 1, kept, ext, &m, NULL, msg, sizeof msg), EXO_EARG);
  ck_assert_msg(strstr(msg, "was built with combine sum, not max") != NULL, "%s", msg);
  m = k;
  m.min_weight = "1.5";
  ck_assert_int_eq(run(tmp, all + 1, 1, kept, ext, &m, NULL, msg, sizeof msg), EXO_EARG);
  ck_assert_msg(strstr(msg, "was built with min_weight 0, not 1.5") != NULL, "%s", msg);
  m = k;
  m.blast = 1;
  ck_assert_int_eq(run(tmp, all + 1, 1, kept, ext, &m, NULL, msg, sizeof msg), EXO_EARG);
  ck_assert_msg(strstr(msg, "was built with format edges, not blast") != NULL, "%s", msg);
  ck_assert_int_eq(tu_count_entries(tmp), 0);
  ck_assert_int_eq(access(ext, F_OK), -1); /* the directory it would have made is gone */
  for (int i = 0; i < 3; i++) free(parts[i]);
  free(kept), free(ext), free(tmp);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Flip one byte of a file. */
static void flip(const char *path, size_t at) {
  size_t len = 0;
  char *t = tu_read_file(path, &len);
  ck_assert(t && at < len);
  t[at] ^= 0x10;
  ck_assert_int_eq(tu_write_file(path, t, len), 0);
  free(t);
}

START_TEST(bad_directories_are_refused) {
  char *dir = tu_mkdtemp(), *tmp = sub(dir, "tmp");
  ck_assert_int_eq(exo_make_dir(tmp), 0);
  char *parts[3];
  write_parts(dir, 0, parts);
  char msg[1024];
  knobs k = {0, 1, 0, 0, NULL, NULL, 0, 0, 0};
  const char *all[3] = {parts[0], parts[1], parts[2]};
  char *kept = sub(dir, "kept"), *ext = sub(dir, "ext"), *none = sub(dir, "none"),
       *empty = sub(dir, "empty"), *other = sub(dir, "other");
  ck_assert_msg(run(tmp, all, 1, NULL, kept, &k, NULL, msg, sizeof msg) == EXO_OK, "%s", msg);
  /* graph: missing, a file, an empty directory */
  ck_assert_int_eq(run(tmp, all + 1, 1, none, NULL, &k, NULL, msg, sizeof msg), EXO_EARG);
  ck_assert_msg(strstr(msg, "does not exist") && strstr(msg, none), "%s", msg);
  ck_assert_int_eq(run(tmp, all + 1, 1, parts[0], NULL, &k, NULL, msg, sizeof msg), EXO_EARG);
  ck_assert_msg(strstr(msg, "is not a directory"), "%s", msg);
  ck_assert_int_eq(exo_make_dir(empty), 0);
  ck_assert_int_eq(run(tmp, all + 1, 1, empty, NULL, &k, NULL, msg, sizeof msg), EXO_EARG);
  ck_assert_msg(strstr(msg, "is not a kept graph: it has no manifest"), "%s", msg);
  /* keep_graph: a file (an input, even), a directory with other things */
  ck_assert_int_eq(run(tmp, all + 1, 1, NULL, parts[0], &k, NULL, msg, sizeof msg), EXO_EARG);
  ck_assert_msg(strstr(msg, "keep_graph") && strstr(msg, "is not a directory"), "%s", msg);
  ck_assert_int_eq(exo_make_dir(other), 0);
  free(tu_write_text(other, "notes.txt", "mine\n"));
  ck_assert_int_eq(run(tmp, all + 1, 1, NULL, other, &k, NULL, msg, sizeof msg), EXO_EARG);
  ck_assert_msg(strstr(msg, "is neither empty nor a kept graph"), "%s", msg);
  ck_assert_int_eq(tu_count_entries(other), 1);
  /* corrupt files: a flipped byte in each, a short file, a bad manifest */
  /* (the adjacency's byte 12: a weight, found by the sum the merge takes) */
  const char *files[] = {"g1.adjacency", "g1.offsets", "g1.names"};
  const size_t at[] = {12, 9, 9};
  for (int i = 0; i < 3; i++) {
    char *p = sub(kept, files[i]);
    flip(p, at[i]);
    ck_assert_int_eq(run(tmp, all + 1, 1, kept, ext, &k, NULL, msg, sizeof msg), EXO_EINPUT);
    ck_assert_msg(strstr(msg, "does not match the checksum") && strstr(msg, p), "%s", msg);
    flip(p, at[i]);
    free(p);
  }
  char *adj = sub(kept, "g1.adjacency");
  flip(adj, 9); /* a neighbour id beyond the kept nodes: refused as the merge reads it */
  ck_assert_int_eq(run(tmp, all + 1, 1, kept, ext, &k, NULL, msg, sizeof msg), EXO_EINPUT);
  ck_assert_msg(strstr(msg, "is corrupt (entry 1 names node") && strstr(msg, adj), "%s", msg);
  flip(adj, 9);
  ck_assert_msg(run(tmp, all + 1, 1, kept, ext, &k, NULL, msg, sizeof msg) == EXO_OK, "%s", msg);
  tu_rmdir(ext);
  ck_assert_int_eq(truncate(adj, 8), 0);
  ck_assert_int_eq(run(tmp, all + 1, 1, kept, ext, &k, NULL, msg, sizeof msg), EXO_EINPUT);
  ck_assert_msg(strstr(msg, "holds 8 bytes") && strstr(msg, adj), "%s", msg);
  ck_assert_int_eq(unlink(adj), 0);
  ck_assert_int_eq(run(tmp, all + 1, 1, kept, ext, &k, NULL, msg, sizeof msg), EXO_EINPUT);
  ck_assert_msg(strstr(msg, "is missing") && strstr(msg, adj), "%s", msg);
  char *man = sub(kept, "manifest");
  free(tu_write_text(kept, "manifest", "exolabel-graph 2\ngeneration x\n"));
  ck_assert_int_eq(run(tmp, all + 1, 1, kept, ext, &k, NULL, msg, sizeof msg), EXO_EINPUT);
  ck_assert_msg(strstr(msg, "is corrupt") && strstr(msg, man), "%s", msg);
  /* a graph kept by version 1 of the format (no sorted intervals) */
  free(tu_write_text(kept, "manifest", "exolabel-graph 1\ngeneration 1\n"));
  ck_assert_int_eq(run(tmp, all + 1, 1, kept, ext, &k, NULL, msg, sizeof msg), EXO_EINPUT);
  ck_assert_msg(strstr(msg, "format version 1") && strstr(msg, "build it again with keep_graph"),
                "%s", msg);
  free(tu_write_text(kept, "manifest", "something else\n"));
  ck_assert_int_eq(run(tmp, all + 1, 1, kept, ext, &k, NULL, msg, sizeof msg), EXO_EINPUT);
  ck_assert_msg(strstr(msg, "not a kept graph's manifest"), "%s", msg);
  /* nor is such a directory replaced by keep_graph */
  ck_assert_int_eq(run(tmp, all + 1, 1, NULL, kept, &k, NULL, msg, sizeof msg), EXO_EINPUT);
  ck_assert_int_eq(tu_count_entries(tmp), 0);
  ck_assert_int_eq(access(ext, F_OK), -1);
  for (int i = 0; i < 3; i++) free(parts[i]);
  free(kept), free(ext), free(none), free(empty), free(other), free(adj), free(man), free(tmp);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* The checksum does not depend on how the bytes are split. */
static void flip(const char *path, size_t at);

/* The cluster number of `name` in a clusters file (name TAB number), or -1. */
static long cluster_of(const char *path, const char *name) {
  size_t len = 0;
  char *t = tu_read_file(path, &len);
  ck_assert_ptr_nonnull(t);
  long c = -1;
  const size_t nl = strlen(name);
  for (char *l = t; l && *l;) {
    char *e = strchr(l, '\n');
    if (!strncmp(l, name, nl) && l[nl] == '\t') c = strtol(l + nl + 1, NULL, 10);
    l = e ? e + 1 : NULL;
  }
  free(t);
  return c;
}

/* The region rule's decision for an OLD protein changes with the new hits:
 * pA hits pB on its first domain (1-100, strong) and pC on its second
 * (201-300, weaker), so the kept graph's rule drops pA-pC; the new part
 * brings pD and pE on pA's second domain, which becomes the stronger, so
 * one build of both drops pA-pB instead. The extension (its sort reading
 * the kept sorted intervals) must follow; a run that reused the kept
 * decisions would keep pA-pB. With max_coord_new, a new hit's coordinates
 * pass 65,535 (the packed intervals need another shift: the kept hits are
 * read again instead). */
static void check_decision_changes(int threads, int wide, int far) {
  char *dir = tu_mkdtemp(), *tmp = sub(dir, "tmp");
  ck_assert_int_eq(exo_make_dir(tmp), 0);
  const char *self = "pA\tpA\t100\t300\t0\t0\t1\t300\t1\t300\t1e-90\t600\n"
                     "pB\tpB\t100\t100\t0\t0\t1\t100\t1\t100\t1e-90\t200\n"
                     "pC\tpC\t100\t100\t0\t0\t1\t100\t1\t100\t1e-90\t200\n";
  char old_text[1024], new_text[1024];
  snprintf(old_text, sizeof old_text,
           "%spA\tpB\t60\t100\t5\t0\t1\t100\t1\t100\t1e-30\t150\n"
           "pA\tpC\t60\t100\t5\t0\t201\t300\t1\t100\t1e-20\t100\n", self);
  snprintf(new_text, sizeof new_text,
           "pD\tpD\t100\t100\t0\t0\t1\t100\t1\t100\t1e-90\t200\n"
           "pE\tpE\t100\t100\t0\t0\t1\t100\t1\t100\t1e-90\t200\n"
           "pA\tpD\t60\t100\t5\t0\t201\t300\t1\t100\t1e-30\t120\n"
           "pA\tpE\t60\t100\t5\t0\t205\t300\t1\t%d\t1e-30\t120\n", far ? 70000 : 100);
  char *parts[2] = {tu_write_text(dir, "old.tsv", old_text),
                    tu_write_text(dir, "new.tsv", new_text)};
  const char *all[2] = {parts[0], parts[1]};
  knobs k = {1, threads, 0, 0, NULL, NULL, 0, 0, wide};
  char msg[1024];
  char *full = sub(dir, "full"), *old = sub(dir, "old"), *ext = sub(dir, "ext"),
       *o_full = sub(dir, "full.tsv"), *o_old = sub(dir, "old.out"), *o_ext = sub(dir, "ext.tsv");
  ck_assert_msg(run(tmp, all, 2, NULL, full, &k, o_full, msg, sizeof msg) == EXO_OK, "%s", msg);
  ck_assert_msg(run(tmp, all, 1, NULL, old, &k, o_old, msg, sizeof msg) == EXO_OK, "%s", msg);
  ck_assert_msg(run(tmp, all + 1, 1, old, ext, &k, o_ext, msg, sizeof msg) == EXO_OK, "%s", msg);
  same_kept(full, ext, 1);
  same_file(o_full, o_ext);
  /* the decision did change: pB left pA's cluster, pC joined it */
  ck_assert_int_eq(cluster_of(o_old, "pA"), cluster_of(o_old, "pB"));
  ck_assert_int_ne(cluster_of(o_old, "pA"), cluster_of(o_old, "pC"));
  ck_assert_int_ne(cluster_of(o_ext, "pA"), cluster_of(o_ext, "pB"));
  ck_assert_int_eq(cluster_of(o_ext, "pA"), cluster_of(o_ext, "pC"));
  /* without keep_graph (each protein's kept intervals merged as read) */
  char *o_nokeep = sub(dir, "nokeep.tsv");
  ck_assert_msg(run(tmp, all + 1, 1, old, NULL, &k, o_nokeep, msg, sizeof msg) == EXO_OK, "%s",
                msg);
  same_file(o_full, o_nokeep);
  /* a corrupt kept intervals file is named, with or without keep_graph
   * (a weight: the checksum; a partner: out of range) */
  char *iadj = sub(old, "g1.iadjacency");
  for (int at = 9; !far && at >= 5; at -= 4) {
    flip(iadj, (size_t)at);
    const char *what = at == 9 ? "does not match the checksum" : "is corrupt (node";
    ck_assert_int_eq(run(tmp, all + 1, 1, old, NULL, &k, o_nokeep, msg, sizeof msg), EXO_EINPUT);
    ck_assert_msg(strstr(msg, what) && strstr(msg, iadj), "%s", msg);
    tu_rmdir(ext);
    ck_assert_int_eq(run(tmp, all + 1, 1, old, ext, &k, o_nokeep, msg, sizeof msg), EXO_EINPUT);
    ck_assert_msg(strstr(msg, what) && strstr(msg, iadj), "%s", msg);
    ck_assert_int_eq(access(ext, F_OK), -1);
    flip(iadj, (size_t)at);
  }
  free(iadj);
  free(o_nokeep);
  ck_assert_int_eq(tu_count_entries(tmp), 0);
  free(parts[0]), free(parts[1]), free(full), free(old), free(ext), free(o_full), free(o_old),
      free(o_ext), free(tmp);
  tu_rmdir(dir);
  free(dir);
}

START_TEST(region_decisions_of_old_proteins_follow_new_hits) {
  check_decision_changes(1, 0, 0);
  check_decision_changes(2, 0, 0);
  check_decision_changes(1, 1, 0);  /* 64-bit ids: three records per hit end */
  check_decision_changes(2, 0, 1);  /* another shift: the kept hits read again */
}
END_TEST

START_TEST(checksum_any_split) {
  uint8_t data[1000];
  for (int i = 0; i < 1000; i++) data[i] = (uint8_t)(i * 7 + 3);
  exo_keep_sum a;
  exo_keep_sum_init(&a);
  exo_keep_sum_add(&a, data, sizeof data);
  const uint64_t want = exo_keep_sum_final(&a);
  for (size_t step = 1; step < 20; step++) {
    exo_keep_sum b;
    exo_keep_sum_init(&b);
    for (size_t at = 0; at < sizeof data; at += step)
      exo_keep_sum_add(&b, data + at, at + step <= sizeof data ? step : sizeof data - at);
    ck_assert_uint_eq(exo_keep_sum_final(&b), want);
  }
  data[500] ^= 1;
  exo_keep_sum c;
  exo_keep_sum_init(&c);
  exo_keep_sum_add(&c, data, sizeof data);
  ck_assert_uint_ne(exo_keep_sum_final(&c), want);
}
END_TEST

Suite *keep_suite(void) {
  Suite *s = suite_create("keep");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, checksum_any_split);
  tcase_add_test(tc, extended_equals_one_build_plain);
  tcase_add_test(tc, extended_equals_one_build_blast);
  tcase_add_test(tc, extended_equals_one_build_combine_max);
  tcase_add_test(tc, extended_equals_one_build_directed_wide);
  tcase_add_test(tc, interrupted_extension_leaves_the_kept_graph);
  tcase_add_test(tc, region_decisions_of_old_proteins_follow_new_hits);
  tcase_add_test(tc, mismatched_options_are_refused);
  tcase_add_test(tc, bad_directories_are_refused);
  suite_add_tcase(s, tc);
  return s;
}
