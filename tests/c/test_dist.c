/* test_dist.c: the distributed run (exo_dist.h) over an in-process
 * transport: P threads play the ranks, the collectives are built on a
 * barrier. Checks the clusters, the output bytes for a seed, the cleanup and
 * the agreed stop when one rank meets a bad line. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exo_dist.h"
#include "testutil.h"

#define MAXP 4

typedef struct fake_world {
  int P;
  pthread_barrier_t bar;
  const void *sbuf[MAXP];
  const uint64_t *scnt[MAXP];
  const uint64_t *vals[MAXP];
  uint64_t one[MAXP];
} fake_world;

typedef struct fake_rank {
  fake_world *w;
  int r;
  exo_dist_options opt;
  exo_ctx ctx;
  exo_dist_result res;
  exo_status st;
  char *tmpdir;
} fake_rank;

static int f_alltoallv(void *user, const void *sb, const uint64_t *sc, void *rb, const uint64_t *rc) {
  fake_rank *me = user;
  fake_world *w = me->w;
  w->sbuf[me->r] = sb;
  w->scnt[me->r] = sc;
  pthread_barrier_wait(&w->bar);
  int bad = 0;
  uint64_t roff = 0;
  for (int q = 0; q < w->P; q++) {
    uint64_t soff = 0;
    for (int k = 0; k < me->r; k++) soff += w->scnt[q][k];
    if (w->scnt[q][me->r] != rc[q]) {
      bad = 1;
      continue;
    }
    if (rc[q]) memcpy((uint8_t *)rb + roff, (const uint8_t *)w->sbuf[q] + soff, (size_t)rc[q]);
    roff += rc[q];
  }
  pthread_barrier_wait(&w->bar);
  return bad;
}

static int f_alltoall(void *user, const uint64_t *send, uint64_t *recv) {
  fake_rank *me = user;
  fake_world *w = me->w;
  w->vals[me->r] = send;
  pthread_barrier_wait(&w->bar);
  for (int q = 0; q < w->P; q++) recv[q] = w->vals[q][me->r];
  pthread_barrier_wait(&w->bar);
  return 0;
}

static int f_allreduce(void *user, uint64_t *vals, int n, int op) {
  fake_rank *me = user;
  fake_world *w = me->w;
  uint64_t *tmp = malloc((size_t)(n > 0 ? n : 1) * 8);
  if (!tmp) return 1; /* (the other ranks would wait: the test fails by its timeout) */
  w->vals[me->r] = vals;
  pthread_barrier_wait(&w->bar);
  for (int i = 0; i < n; i++) {
    tmp[i] = 0;
    for (int q = 0; q < w->P; q++) {
      uint64_t x = w->vals[q][i];
      tmp[i] = op == EXO_DIST_MAX ? (x > tmp[i] ? x : tmp[i]) : tmp[i] + x;
    }
  }
  pthread_barrier_wait(&w->bar);
  memcpy(vals, tmp, (size_t)n * 8);
  free(tmp);
  return 0;
}

static int f_allgather(void *user, uint64_t v, uint64_t *all) {
  fake_rank *me = user;
  fake_world *w = me->w;
  w->one[me->r] = v;
  pthread_barrier_wait(&w->bar);
  for (int q = 0; q < w->P; q++) all[q] = w->one[q];
  pthread_barrier_wait(&w->bar);
  return 0;
}

static void *rank_main(void *arg) {
  fake_rank *me = arg;
  exo_dist_comm comm = {me, me->r, me->w->P, f_alltoallv, f_alltoall, f_allreduce, f_allgather};
  me->st = exo_dist_run(&me->opt, &comm, &me->ctx, &me->res);
  return NULL;
}

/* Edge filters of the next run_world calls (the input options). */
static float g_min_weight;
static int g_drop_self;
static double g_resolution; /* label propagation's volume penalty (0 = none) */
static uint64_t g_memory_limit; /* per rank; 0 = 4 MB */
static uint64_t g_exchange_bytes; /* per round; 0 = 100 (many rounds) */

/* Run P ranks on `files`; returns rank 0's status; ranks[] keep the rest.
 * Every rank's temporary directory must be empty afterwards. */
static exo_status run_world(int P, const char *const *files, size_t nfiles, int directed,
                            uint64_t seed, const char *out, fake_rank *ranks) {
  fake_world w;
  memset(&w, 0, sizeof w);
  w.P = P;
  pthread_barrier_init(&w.bar, NULL, (unsigned)P);
  pthread_t th[MAXP];
  for (int r = 0; r < P; r++) {
    fake_rank *me = &ranks[r];
    memset(me, 0, sizeof *me);
    me->w = &w;
    me->r = r;
    exo_ctx_init(&me->ctx);
    me->tmpdir = tu_mkdtemp();
    me->opt.files = files;
    me->opt.nfiles = nfiles;
    me->opt.parse.sep = '\t';
    me->opt.directed = directed;
    me->opt.min_weight = g_min_weight;
    me->opt.drop_self_loops = g_drop_self;
    me->opt.resolution = g_resolution;
    me->opt.tmpdir = me->tmpdir;
    me->opt.memory_limit = g_memory_limit ? g_memory_limit : (uint64_t)4 << 20;
    me->opt.exchange_bytes = g_exchange_bytes ? g_exchange_bytes : 100;
    me->opt.seed = seed;
    me->opt.out_path = out;
    me->opt.sep = '\t';
    pthread_create(&th[r], NULL, rank_main, me);
  }
  for (int r = 0; r < P; r++) pthread_join(th[r], NULL);
  pthread_barrier_destroy(&w.bar);
  for (int r = 0; r < P; r++) {
    ck_assert_int_eq(tu_count_entries(ranks[r].tmpdir), 0);
    tu_rmdir(ranks[r].tmpdir);
    free(ranks[r].tmpdir);
    exo_dist_result_free(&ranks[r].res);
  }
  return ranks[0].st;
}

/* Three 8-cliques (weight 1) joined by weak edges (0.1), a zero-weight pair
 * (two nodes, no arc) and a self-loop, over three files. */
static char **write_graph(const char *dir, int directed) {
  char *text[3];
  size_t cap = 1 << 14;
  for (int f = 0; f < 3; f++) {
    text[f] = calloc(cap, 1);
  }
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < 8; i++)
      for (int j = directed ? 0 : i + 1; j < 8; j++) {
        if (i == j) continue;
        char line[64];
        snprintf(line, sizeof line, "c%d_%d\tc%d_%d\t1\n", c, i, c, j);
        strcat(text[(i + j) % 3], line);
      }
  strcat(text[0], "c0_0\tc1_0\t0.1\nc1_1\tc2_1\t0.1\n");
  strcat(text[1], "x\ty\t0\nc2_2\tc2_2\t3\n");
  strcat(text[2], "c2_3\tc0_3\t0.1\n");
  char **paths = malloc(3 * sizeof *paths);
  for (int f = 0; f < 3; f++) {
    char name[32];
    snprintf(name, sizeof name, "e%d.tsv", f);
    paths[f] = tu_write_text(dir, name, text[f]);
    free(text[f]);
  }
  return paths;
}

/* Delete the three files of write_graph and free their names. */
static void remove_graph(char **files) {
  for (int f = 0; f < 3; f++) {
    unlink(files[f]);
    free(files[f]);
  }
  free(files);
}

/* The output holds every node once; the clusters are the cliques plus x and
 * y alone, numbered 1..5. */
static void check_clusters(const char *out) {
  size_t len;
  char *t = tu_read_file(out, &len);
  ck_assert_ptr_nonnull(t);
  long clique[3] = {-1, -1, -1}, x = -1, y = -1;
  int seen[3][8] = {{0}}, lines = 0, used[6] = {0};
  for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
    char name[32];
    long k;
    ck_assert_int_eq(sscanf(line, "%31[^\t]\t%ld", name, &k), 2);
    ck_assert(k >= 1 && k <= 5);
    used[k] = 1;
    lines++;
    int c, i;
    if (sscanf(name, "c%d_%d", &c, &i) == 2) {
      ck_assert(!seen[c][i]);
      seen[c][i] = 1;
      if (clique[c] < 0) clique[c] = k;
      ck_assert_int_eq(clique[c], k);
    } else if (!strcmp(name, "x")) {
      x = k;
    } else {
      ck_assert_str_eq(name, "y");
      y = k;
    }
  }
  ck_assert_int_eq(lines, 26);
  ck_assert(x > 0 && y > 0 && x != y);
  ck_assert(clique[0] != clique[1] && clique[1] != clique[2] && clique[0] != clique[2]);
  ck_assert(x != clique[0] && x != clique[1] && x != clique[2]);
  ck_assert(y != clique[0] && y != clique[1] && y != clique[2]);
  for (int k = 1; k <= 5; k++) ck_assert(used[k]);
  free(t);
}

START_TEST(dist_clusters_any_p) {
  char *dir = tu_mkdtemp();
  for (int directed = 0; directed <= 1; directed++) {
    char **files = write_graph(dir, directed);
    fake_rank ranks[MAXP];
    for (int P = 1; P <= 4; P++) {
      char *out = tu_path(dir, "out.tsv");
      ck_assert_int_eq(run_world(P, (const char *const *)files, 3, directed, 42, out, ranks), EXO_OK);
      for (int r = 0; r < P; r++) {
        ck_assert_int_eq(ranks[r].st, EXO_OK);
        ck_assert_uint_eq(ranks[r].res.num_nodes, 26);
        ck_assert_uint_eq(ranks[r].res.num_lines, directed ? 3 * 56 + 5 : 3 * 28 + 5);
        /* undirected: 2 arcs per edge, 1 for the self-loop, none for w = 0 */
        /* votes: 2 per undirected edge, 1 for the self-loop; 1 per directed
         * edge; none for w = 0. Entries: an out-arc too per directed edge */
        ck_assert_uint_eq(ranks[r].res.num_arcs, directed ? 3 * 56 + 3 + 1 : 2 * (3 * 28 + 3) + 1);
        ck_assert_uint_eq(ranks[r].res.num_entries, directed ? 2 * (3 * 56 + 3 + 1) : 2 * (3 * 28 + 3) + 1);
        ck_assert_uint_eq(ranks[r].res.num_clusters, 5);
      }
      check_clusters(out);
      /* the same seed and P give the same bytes */
      size_t l1, l2;
      char *first = tu_read_file(out, &l1);
      ck_assert_int_eq(run_world(P, (const char *const *)files, 3, directed, 42, out, ranks), EXO_OK);
      char *second = tu_read_file(out, &l2);
      ck_assert_uint_eq(l1, l2);
      ck_assert_mem_eq(first, second, l1);
      free(first);
      free(second);
      unlink(out);
      free(out);
    }
    remove_graph(files);
  }
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* A planted graph as text: n unweighted nodes "n<i>" in `groups`
 * communities (node i in community i % groups), `edges` edges per node,
 * each inside the node's community with probability intra / 10, else to
 * any node, from a seeded LCG; with `hub` also an edge from "hub" to every
 * node, before the node's own. Written as dir/name. */
static char *write_planted(const char *dir, const char *name, int n, int groups, int edges,
                           int intra, uint64_t seed, int hub) {
  size_t cap = (size_t)n * (edges + 1) * 32 + 1, len = 0;
  char *text = malloc(cap);
  uint64_t x = seed;
  for (int v = 0; v < n; v++) {
    if (hub) len += (size_t)snprintf(text + len, cap - len, "hub\tn%d\n", v);
    for (int e = 0; e < edges; e++) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      int in = (x >> 33) % 10 < (uint64_t)intra;
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      int u = in ? (int)((x >> 33) % (uint64_t)(n / groups)) * groups + v % groups
                 : (int)((x >> 33) % (uint64_t)n);
      if (u != v) len += (size_t)snprintf(text + len, cap - len, "n%d\tn%d\n", v, u);
    }
  }
  char *path = tu_write_text(dir, name, text);
  free(text);
  return path;
}

/* A noisy planted graph: 2000 nodes in 20 communities of 100, 10 edges per
 * node, each inside the node's community with probability 0.4 (mixing
 * 0.6). Plain label propagation floods it (one label takes most of the
 * graph); the volume penalty keeps the communities apart. */
static char *write_noisy(const char *dir) {
  return write_planted(dir, "noisy.tsv", 2000, 20, 10, 4, 12345, 0);
}

/* Share of node pairs of one planted community that got one cluster. */
static double planted_agreement(const char *out) {
  size_t len;
  char *t = tu_read_file(out, &len);
  ck_assert_ptr_nonnull(t);
  static long cl[2000];
  int lines = 0;
  for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
    int v;
    long k;
    ck_assert_int_eq(sscanf(line, "n%d\t%ld", &v, &k), 2);
    ck_assert(v >= 0 && v < 2000);
    cl[v] = k;
    lines++;
  }
  ck_assert_int_eq(lines, 2000);
  free(t);
  uint64_t same = 0, pairs = 0;
  for (int a = 0; a < 2000; a++)
    for (int b = a + 20; b < 2000; b += 20) {
      pairs++;
      same += cl[a] == cl[b];
    }
  return (double)same / (double)pairs;
}

/* Remove and free a test's input file, output path and directory. */
static void drop_run(char *dir, char *file, char *out) {
  unlink(file);
  unlink(out);
  free(file);
  free(out);
  tu_rmdir(dir);
  free(dir);
}

/* The volume penalty over ranks (exo_lp.h's rule with the label volumes
 * summed over the ranks): at P = 1..4 with resolution 1 the noisy graph
 * keeps its communities apart (many clusters, most of each community
 * together); with resolution 0 (the rule without the penalty) it floods. */
START_TEST(dist_resolution_penalty) {
  char *dir = tu_mkdtemp();
  char *file = write_noisy(dir);
  const char *files[1] = {file};
  char *out = tu_path(dir, "out.tsv");
  fake_rank ranks[MAXP];
  for (int P = 1; P <= 4; P++) {
    g_resolution = 0.0;
    ck_assert_int_eq(run_world(P, files, 1, 0, 7, out, ranks), EXO_OK);
    uint64_t flooded = ranks[0].res.num_clusters;
    g_resolution = 1.0;
    ck_assert_int_eq(run_world(P, files, 1, 0, 7, out, ranks), EXO_OK);
    uint64_t k = ranks[0].res.num_clusters;
    double agree = planted_agreement(out);
    ck_assert_msg(flooded <= 3, "P=%d resolution 0: %llu clusters", P, (unsigned long long)flooded);
    ck_assert_msg(k >= 15 && k <= 60 && agree >= 0.7, "P=%d resolution 1: %llu clusters, agreement %.3f",
                  P, (unsigned long long)k, agree);
  }
  g_resolution = 0.0;
  drop_run(dir, file, out);
}
END_TEST

/* A list longer than the read buffers: a hub linked to each of 150,000
 * nodes (150,000 entries, 1.2 MB) that otherwise form 30 planted groups
 * (2 edges per node, inside its group with probability 0.9). At 4 MB per
 * rank the block buffer is 1 MiB, so the hub's list is read in pieces
 * through the list window (exo_dist.c); at 256 MB it is read whole with
 * its block. The output must be the same bytes, at P = 1 and P = 2. */
START_TEST(dist_list_longer_than_the_buffer) {
  char *dir = tu_mkdtemp();
  const int N = 150000;
  char *file = write_planted(dir, "hub.tsv", N, 30, 2, 9, 99, 1);
  const char *files[1] = {file};
  char *out = tu_path(dir, "out.tsv");
  fake_rank ranks[MAXP];
  g_exchange_bytes = (uint64_t)1 << 20;
  for (int P = 1; P <= 2; P++) {
    char *bytes[2];
    size_t blen[2];
    uint64_t k[2];
    for (int big = 0; big <= 1; big++) {
      g_memory_limit = big ? (uint64_t)256 << 20 : 0;
      ck_assert_int_eq(run_world(P, files, 1, 0, 5, out, ranks), EXO_OK);
      ck_assert_uint_eq(ranks[0].res.num_nodes, (uint64_t)N + 1);
      k[big] = ranks[0].res.num_clusters;
      bytes[big] = tu_read_file(out, &blen[big]);
      ck_assert_ptr_nonnull(bytes[big]);
    }
    ck_assert_uint_eq(k[0], k[1]);
    ck_assert_uint_eq(blen[0], blen[1]);
    ck_assert_mem_eq(bytes[0], bytes[1], blen[0]);
    free(bytes[0]);
    free(bytes[1]);
  }
  g_memory_limit = 0;
  g_exchange_bytes = 0;
  drop_run(dir, file, out);
}
END_TEST

START_TEST(dist_bad_line_stops_every_rank) {
  char *dir = tu_mkdtemp();
  char *good = tu_write_text(dir, "good.tsv", "a\tb\t1\nb\tc\t1\n");
  char *bad = tu_write_text(dir, "bad.tsv", "c\td\t1\nd\te\tf\tg\n");
  const char *files[] = {good, bad};
  char *out = tu_path(dir, "out.tsv");
  fake_rank ranks[MAXP];
  exo_status st = run_world(2, files, 2, 0, 1, out, ranks);
  ck_assert_int_eq(st, EXO_EINPUT);
  ck_assert_int_eq(ranks[1].st, EXO_EINPUT);
  ck_assert_ptr_nonnull(strstr(ranks[1].ctx.err.msg, "bad.tsv:2:"));
  ck_assert_str_eq(ranks[0].ctx.err.msg, "stopped because rank 1 failed (EXO_EINPUT)");
  ck_assert_int_eq(ranks[0].res.agreed, 1);
  ck_assert_int_eq(ranks[1].res.agreed, 1);
  ck_assert_int_ne(access(out, F_OK), 0);
  ck_assert_int_eq(tu_count_entries(dir), 2); /* the two inputs only */
  unlink(good);
  unlink(bad);
  free(good);
  free(bad);
  free(out);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* The three files of write_graph as one file: P = 2, 3, 4 cut it into byte
 * ranges (fewer files than ranks) and must see every line once: the same
 * counts and clusters as P = 1. Then the input filters: --min-weight 0.5
 * drops the three weak edges, dropping self-loops the one self-loop; their
 * nodes stay. A bad line near the end is named with its absolute line. */
START_TEST(dist_one_file_cut_into_ranges) {
  char *dir = tu_mkdtemp();
  char **files = write_graph(dir, 0);
  size_t total = 0;
  char *parts[3];
  for (int f = 0; f < 3; f++) {
    size_t l;
    parts[f] = tu_read_file(files[f], &l);
    total += l;
  }
  char *all = calloc(total + 64, 1);
  for (int f = 0; f < 3; f++) {
    strcat(all, parts[f]);
    free(parts[f]);
  }
  char *one = tu_write_text(dir, "one.tsv", all);
  const char *list[1] = {one};
  fake_rank ranks[MAXP];
  for (int filt = 0; filt <= 1; filt++) {
    g_min_weight = filt ? 0.5f : 0.0f;
    g_drop_self = filt;
    for (int P = 1; P <= 4; P++) {
      char *out = tu_path(dir, "out.tsv");
      ck_assert_int_eq(run_world(P, list, 1, 0, 42, out, ranks), EXO_OK);
      for (int r = 0; r < P; r++) {
        ck_assert_uint_eq(ranks[r].res.num_nodes, 26);
        ck_assert_uint_eq(ranks[r].res.num_lines, 3 * 28 + 5);
        ck_assert_uint_eq(ranks[r].res.num_arcs, filt ? 2 * (3 * 28) : 2 * (3 * 28 + 3) + 1);
        ck_assert_uint_eq(ranks[r].res.num_clusters, 5);
      }
      check_clusters(out);
      unlink(out);
      free(out);
    }
  }
  g_min_weight = 0.0f;
  g_drop_self = 0;
  /* a bad line (the last but one): line 3 * 28 + 5 - 1 of the file */
  char *nl = all + strlen(all) - 1;
  do nl--; while (*nl != '\n');
  char *bad_text = calloc(total + 64, 1);
  memcpy(bad_text, all, (size_t)(nl + 1 - all));
  strcat(bad_text, "p\tq\tr\ts\n");
  strcat(bad_text, nl + 1);
  char *bad = tu_write_text(dir, "bad.tsv", bad_text);
  const char *blist[1] = {bad};
  char *out = tu_path(dir, "out.tsv");
  char want[64];
  snprintf(want, sizeof want, "bad.tsv:%d:", 3 * 28 + 5);
  for (int P = 2; P <= 4; P++) {
    ck_assert_int_eq(run_world(P, blist, 1, 0, 1, out, ranks), EXO_EINPUT);
    ck_assert_int_eq(ranks[P - 1].st, EXO_EINPUT); /* the last range holds it */
    if (!strstr(ranks[P - 1].ctx.err.msg, want))
      ck_abort_msg("P=%d: '%s' does not name %s", P, ranks[P - 1].ctx.err.msg, want);
    ck_assert_int_ne(access(out, F_OK), 0);
  }
  unlink(bad);
  unlink(one);
  free(bad);
  free(one);
  free(out);
  free(bad_text);
  free(all);
  remove_graph(files);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

Suite *dist_suite(void) {
  Suite *s = suite_create("dist");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, dist_clusters_any_p);
  tcase_add_test(tc, dist_bad_line_stops_every_rank);
  tcase_add_test(tc, dist_one_file_cut_into_ranges);
  tcase_add_test(tc, dist_resolution_penalty);
  tcase_add_test(tc, dist_list_longer_than_the_buffer);
  suite_add_tcase(s, tc);
  return s;
}
