/* fuzz_pipeline.c: libFuzzer harness for the whole core pipeline
 * (exo_graph_build + exo_graph_cluster + output) on small inputs.
 *
 * Input layout: byte 0 picks the separator (fz_seps[b & 7]); byte 1: bit 0
 * one header line, bit 1 ignore_weights, bit 2 directed, bit 3 two parser
 * threads, bit 4 gzip the content, bit 5 split the content into two files at
 * the first '#'; byte 2: records per sort run 1..16 (bits 0-3) and merge
 * fan-in 2..5 (bits 4-5); byte 3: label propagation self-loop cutoff (bits
 * 0-1: 0, 0.5, 1, 2), attenuation (bits 2-3: 0, 0.5, 1, 2), max_visits
 * (bits 4-5: 0 = automatic, 1..3) and the seed (bits 6-7). The rest is the
 * edge list. Memory limits are tiny so that most inputs go through several
 * runs and merge passes.
 *
 * Every input is run twice: once with narrow ids, tiny runs and the chosen
 * fan-in, once with forced wide ids and one run from memory. Both must agree
 * (same status; on success byte-identical output, since the sort is stable
 * and the CSR does not depend on how it was built). Other oracles: the
 * output has one "name<sep>k" line per node with 1 <= k <= num_clusters;
 * errors carry a message; no file is left in the scratch directory but the
 * inputs (no output file after a failure). */
#include "exo_pipeline.h"
#include "fuzz_common.h"

typedef struct outcome {
  exo_status st;
  uint64_t nodes, edges, clusters;
  uint8_t *out;
  size_t out_len;
} outcome;

static uint8_t *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  uint8_t *b = malloc(cap);
  size_t k;
  while (b && (k = fread(b + n, 1, cap - n, f)) > 0) {
    n += k;
    if (n == cap) {
      uint8_t *nb = realloc(b, cap *= 2);
      if (!nb) free(b);
      b = nb;
    }
  }
  fclose(f);
  *len = n;
  return b;
}

static void run_once(const char *const *files, size_t nfiles, uint8_t b0, uint8_t b1,
                     uint8_t b2, uint8_t b3, int variant, const char *out_path,
                     outcome *o) {
  memset(o, 0, sizeof *o);
  exo_build_options opt;
  memset(&opt, 0, sizeof opt);
  opt.files = files;
  opt.nfiles = nfiles;
  opt.parse.sep = fz_seps[b0 & 7];
  opt.parse.header_lines = b1 & 1;
  opt.parse.ignore_weights = (b1 >> 1) & 1;
  opt.directed = (b1 >> 2) & 1;
  opt.tempdir_base = fz_dir;
  opt.memory_limit = (uint64_t)1 << 20;
  if (variant == 0) {
    opt.parse.threads = (b1 >> 3) & 1 ? 2 : 1;
    opt.run_records = 1 + (b2 & 15);
    opt.fan_in = 2 + ((b2 >> 4) & 3);
  } else {
    opt.parse.threads = (b1 >> 3) & 1 ? 1 : 2;
    opt.force_wide_ids = 1;
  }
  static const double cut[4] = {0, 0.5, 1, 2};
  exo_lp_params p;
  memset(&p, 0, sizeof p);
  p.directed = opt.directed;
  p.self_loop_cutoff = cut[b3 & 3];
  p.attenuation = cut[(b3 >> 2) & 3];
  p.max_visits = (b3 >> 4) & 3;
  p.seed = b3 >> 6;
  p.memory_limit = opt.memory_limit;

  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_graph *g = NULL;
  unlink(out_path);
  o->st = exo_graph_build(&opt, &ctx, &g);
  if (o->st == EXO_OK) {
    FZ_CHECK(g != NULL);
    o->nodes = g->num_nodes;
    o->edges = g->num_edges;
    FZ_CHECK(g->num_arcs == g->num_edges * (opt.directed ? 2 : 1));
    exo_cluster_result cr;
    o->st = exo_graph_cluster(g, &p, out_path, opt.parse.sep, &ctx, &cr);
    o->clusters = cr.num_clusters;
    exo_graph_free(g);
  } else {
    FZ_CHECK(g == NULL);
  }
  if (o->st != EXO_OK) {
    FZ_CHECK(ctx.err.code == o->st);
    FZ_CHECK(ctx.err.msg[0] != '\0');
    FZ_CHECK(access(out_path, F_OK) != 0); /* no partial output */
    return;
  }
  o->out = slurp(out_path, &o->out_len);
  FZ_CHECK(o->out != NULL);
  unlink(out_path);
  /* one "name<sep>k\n" line per node, 1 <= k <= clusters */
  uint64_t lines = 0;
  size_t start = 0;
  for (size_t i = 0; i < o->out_len; i++) {
    if (o->out[i] != '\n') continue;
    size_t j = i;
    uint64_t k = 0, mul = 1;
    while (j > start && o->out[j - 1] >= '0' && o->out[j - 1] <= '9') {
      k += mul * (uint64_t)(o->out[j - 1] - '0');
      mul *= 10;
      j--;
    }
    FZ_CHECK(j < i && j > start && o->out[j - 1] == opt.parse.sep);
    FZ_CHECK(k >= 1 && k <= o->clusters);
    lines++;
    start = i + 1;
  }
  FZ_CHECK(start == o->out_len);
  FZ_CHECK(lines == o->nodes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4 || size > 4096) return 0;
  fz_init_dir("pipe");
  char f1[300], f2[300], out_path[300];
  snprintf(f1, sizeof f1, "%s/in1.txt", fz_dir);
  snprintf(f2, sizeof f2, "%s/in2.txt", fz_dir);
  snprintf(out_path, sizeof out_path, "%s/out.txt", fz_dir);
  const uint8_t *body = data + 4;
  size_t blen = size - 4;
  int gz = (data[1] >> 4) & 1;
  size_t cut = blen;
  if ((data[1] >> 5) & 1) {
    const uint8_t *hash = memchr(body, '#', blen);
    if (hash) cut = (size_t)(hash - body);
  }
  fz_write_file(f1, body, cut, gz);
  size_t nfiles = 1;
  if (cut < blen) {
    fz_write_file(f2, body + cut + 1, blen - cut - 1, gz);
    nfiles = 2;
  }
  const char *files[2] = {f1, f2};

  outcome a, b;
  run_once(files, nfiles, data[0], data[1], data[2], data[3], 0, out_path, &a);
  run_once(files, nfiles, data[0], data[1], data[2], data[3], 1, out_path, &b);
  FZ_CHECK(a.st == b.st);
  if (a.st == EXO_OK) {
    FZ_CHECK(a.nodes == b.nodes && a.edges == b.edges && a.clusters == b.clusters);
    FZ_CHECK(a.out_len == b.out_len && !memcmp(a.out, b.out, a.out_len));
  }
  free(a.out);
  free(b.out);
  unlink(f1);
  unlink(f2);
  static const char *const keep[] = {NULL};
  fz_expect_only(keep);
  return 0;
}
