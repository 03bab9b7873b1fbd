/* fuzz_parse.c: libFuzzer harness for exo_parse_file().
 *
 * Input layout: byte 0 picks the separator (fz_seps[b & 7]); byte 1 holds
 * the options: bits 0-1 header lines, bit 2 ignore_weights, bit 3 two parser
 * threads, bit 4 gzip-compress the rest, bit 5 parse the file twice (names
 * shared across files, as for several input files), bits 6-7 the columns:
 * 1, 2, 3; 1, 2, 11 with the e-value transform; 3, 1, 5; 2, 1 without a
 * weight. The remaining bytes are the file content.
 *
 * Oracles: no sanitizer report; every callback gets ids below the number of
 * names and a finite weight (1 with ignore_weights); the number of
 * callbacks equals stats.edges; e-value weights are at most 200; an error leaves a message that names the
 * file; nothing but the input is left in the scratch directory. */
#include <math.h>

#include "exo_names.h"
#include "exo_parse.h"
#include "fuzz_common.h"

typedef struct sink {
  exo_names *names;
  uint64_t calls;
  int ignore_weights;
  int evalues;
} sink;

static exo_status on_edge(void *user, uint64_t a, uint64_t b, float w, exo_ctx *ctx) {
  (void)ctx;
  sink *s = user;
  uint64_t n = exo_names_count(s->names);
  FZ_CHECK(a < n && b < n);
  FZ_CHECK(isfinite(w));
  if (s->ignore_weights) FZ_CHECK(w == 1.0f);
  if (s->evalues) FZ_CHECK(w <= 200.0f);
  s->calls++;
  return EXO_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  fz_init_dir("parse");
  char in_path[300], names_path[300];
  snprintf(in_path, sizeof in_path, "%s/in.txt", fz_dir);
  snprintf(names_path, sizeof names_path, "%s/names.txt", fz_dir);
  uint8_t flags = data[1];
  fz_write_file(in_path, data + 2, size - 2, (flags >> 4) & 1);

  exo_parse_options opt;
  memset(&opt, 0, sizeof opt);
  opt.sep = fz_seps[data[0] & 7];
  opt.header_lines = flags & 3;
  opt.ignore_weights = (flags >> 2) & 1;
  opt.threads = (flags >> 3) & 1 ? 2 : 1;
  static const uint32_t layouts[4][3] = {{0, 0, 0}, {1, 2, 11}, {3, 1, 5}, {2, 1, 0}};
  const int layout = (flags >> 6) & 3;
  opt.col_a = layouts[layout][0];
  opt.col_b = layouts[layout][1];
  opt.col_w = layouts[layout][2];
  opt.transform = layout == 1 ? EXO_WT_NEGLOG10 : EXO_WT_NONE;

  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_names *names = NULL;
  FZ_CHECK(exo_names_create(&names, names_path, &ctx) == EXO_OK);
  sink s = {names, 0, opt.ignore_weights, layout == 1};
  int passes = (flags >> 5) & 1 ? 2 : 1;
  exo_status st = EXO_OK;
  uint64_t edges = 0;
  for (int i = 0; i < passes && st == EXO_OK; i++) {
    exo_parse_stats ps;
    memset(&ps, 0, sizeof ps);
    st = exo_parse_file(in_path, &opt, names, on_edge, &s, &ctx, &ps);
    if (st == EXO_OK) {
      edges += ps.edges;
      FZ_CHECK(ps.edges <= ps.lines);
    }
  }
  if (st == EXO_OK) {
    FZ_CHECK(edges == s.calls);
    FZ_CHECK(exo_names_finish(names, &ctx) == EXO_OK);
    exo_names_free(names); /* finish closes the file; free releases the object */
  } else {
    FZ_CHECK(ctx.err.code == st);
    FZ_CHECK(ctx.err.msg[0] != '\0');
    FZ_CHECK(strstr(ctx.err.msg, "in.txt") != NULL); /* names the file */
    exo_names_free(names);
  }
  unlink(names_path);
  unlink(in_path);
  static const char *const keep[] = {NULL};
  fz_expect_only(keep);
  return 0;
}
