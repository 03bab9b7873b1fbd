/* exo_nested.c: nested levels (exo_nested.h). */
#include "exo_nested.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_clstats.h"
#include "exo_io.h"
#include "exo_leiden.h"
#include "exo_output.h"
#include "exo_platform.h"

#define NESTED_BUF ((size_t)1 << 20)

/* The checks of exo_nested.h, before anything runs. */
static exo_status check_levels(const exo_graph *g, const exo_options *lv, uint32_t L,
                               exo_ctx *ctx) {
  const int r = L > 0 && lv[0].style == EXO_OPT_STYLE_R;
  if (L < 2 || L > EXO_NESTED_MAX_LEVELS)
    return EXO_FAIL(ctx, EXO_EARG, "nested levels need %s resolutions (%u given, at most %u)",
                    "2 or more", L, EXO_NESTED_MAX_LEVELS);
  for (uint32_t j = 0; j < L; j++) {
    if (!lv[j].resolved)
      return EXO_FAIL(ctx, EXO_EARG, "internal error: the options were not resolved");
    if (!exo_options_leiden(&lv[j]))
      return EXO_FAIL(ctx, EXO_EARG, "nested levels are Leiden's: they need %s",
                      r ? "algorithm = \"leiden\"" : "--algorithm leiden");
    if (lv[j].num[EXO_OPT_OBJECTIVE] != lv[0].num[EXO_OPT_OBJECTIVE] ||
        ((lv[j].is_auto ^ lv[0].is_auto) >> EXO_OPT_RESOLUTION & 1u))
      return EXO_FAIL(ctx, EXO_EARG, "nested levels need one objective and one kind of "
                      "resolution for every level");
  }
  if (g->order_by_name)
    return EXO_FAIL(ctx, EXO_EARG, "nested levels write the lines in order of appearance: "
                    "they do not take %s", r ? "order = \"name\"" : "--order name");
  if (g->members_table || g->rep_fasta)
    return EXO_FAIL(ctx, EXO_EARG, "nested levels have no representatives' files (one per "
                    "level would be needed): run the level you want on its own for them");
  if (g->atoms) return EXO_FAIL(ctx, EXO_EARG, "nested levels make their own atoms");
  return EXO_OK;
}

/* The largest cluster and the size bins of clusters numbered 1..K. */
static exo_status sizes(const uint64_t *c, uint64_t n, exo_cluster_result *res, exo_ctx *ctx) {
  uint64_t *size = calloc(res->num_clusters + 1, 8);
  if (!size) return exo_fail_oom(ctx, "the cluster sizes", (res->num_clusters + 1) * 8);
  for (uint64_t v = 0; v < n; v++) size[c[v]]++;
  for (uint64_t k = 1; k <= res->num_clusters; k++) {
    if (size[k] > res->largest) res->largest = size[k];
    res->size_bins[63 - __builtin_clzll(size[k] | 1)]++;
  }
  free(size);
  return EXO_OK;
}

/* Append the table file `path` to w, every line led by "level<sep>"; the
 * header line ("Level<sep>" + it) only for level 1. */
static exo_status append_table(exo_writer *w, const char *path, uint32_t level, char sep,
                               exo_ctx *ctx) {
  exo_reader r;
  memset(&r, 0, sizeof r);
  r.fd = -1;
  exo_status s = exo_reader_open(&r, path, NESTED_BUF, 0, UINT64_MAX, 0, ctx);
  char lead[32];
  const int nlead = snprintf(lead, sizeof lead, "%u%c", level, sep);
  int line_start = 1, header = 1;
  while (!s) {
    const uint8_t *p;
    size_t avail;
    if ((s = exo_reader_peek(&r, 1, &p, &avail, ctx)) != EXO_OK || avail == 0) break;
    size_t pos = 0;
    while (pos < avail && !s) {
      const uint8_t *nl = memchr(p + pos, '\n', avail - pos);
      const size_t len = nl ? (size_t)(nl - (p + pos)) + 1 : avail - pos;
      if (header) {
        if (level == 1) {
          if (line_start) s = exo_writer_write(w, "Level", 5, ctx);
          if (!s && line_start) s = exo_writer_write(w, &sep, 1, ctx);
          if (!s) s = exo_writer_write(w, p + pos, len, ctx);
        }
      } else {
        if (line_start) s = exo_writer_write(w, lead, (size_t)nlead, ctx);
        if (!s) s = exo_writer_write(w, p + pos, len, ctx);
      }
      line_start = nl != NULL;
      if (nl) header = 0;
      pos += len;
    }
    exo_reader_skip_buffered(&r, pos);
  }
  exo_reader_close(&r);
  return s;
}

/* Every level's cluster table into g->cluster_table (pending in *out). */
static exo_status write_tables(exo_graph *g, uint64_t *const *lab, uint32_t L,
                               const exo_cluster_result *res, uint64_t memory_limit, char sep,
                               exo_pending *out, exo_ctx *ctx) {
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs, g->wide};
  exo_outfile of;
  exo_status s = exo_outfile_open(&of, g->cluster_table, NESTED_BUF, ctx);
  if (s) return s;
  for (uint32_t j = 0; j < L && !s; j++) {
    char name[48];
    snprintf(name, sizeof name, "nested_table%u.tsv", j + 1);
    char *path = exo_path_join(g->tmpdir, name);
    if (!path) {
      s = exo_fail_oom(ctx, "a path", 0);
      break;
    }
    exo_clstats cs;
    memset(&cs, 0, sizeof cs);
    exo_message(ctx, "writing the cluster table of level %u (%llu clusters)", j + 1,
                (unsigned long long)res[j].num_clusters);
    s = exo_clstats_compute(&csr, g->directed, lab[j], res[j].num_clusters, memory_limit, ctx,
                            &cs);
    if (!s)
      s = exo_clstats_write(&cs, g->names_path, lab[j], g->num_nodes, sep, path, memory_limit,
                            ctx);
    exo_clstats_free(&cs);
    if (!s) s = append_table(&of.w, path, j + 1, sep, ctx);
    exo_unlink(path);
    free(path);
  }
  if (s) {
    exo_outfile_abort(&of);
    return s;
  }
  return exo_outfile_finish(&of, out, ctx);
}

/* EXO_NESTED_SPLIT: fine[v] becomes the number (0-based, by first
 * appearance in id order) of the pair (fine[v], coarse[v]), so that every
 * cluster of fine lies inside one of coarse. A table of (pair, number)
 * slots, 24 bytes each, a power of two >= 2n of them, while it runs. */
static exo_status split_by(uint64_t *fine, const uint64_t *coarse, uint64_t n, exo_ctx *ctx) {
  uint64_t cap = 16;
  while (cap < 2 * n) cap *= 2;
  uint64_t *t = malloc((size_t)cap * 24);
  if (!t) return exo_fail_oom(ctx, "the nested levels' split", cap * 24);
  for (uint64_t i = 0; i < cap; i++) t[3 * i] = UINT64_MAX;
  uint64_t k = 0;
  for (uint64_t v = 0; v < n; v++) {
    const uint64_t f = fine[v], c = coarse[v];
    uint64_t h = (f * 0x9e3779b97f4a7c15ULL ^ c * 0xc2b2ae3d27d4eb4fULL) & (cap - 1);
    while (t[3 * h] != UINT64_MAX && (t[3 * h] != f || t[3 * h + 1] != c)) h = (h + 1) & (cap - 1);
    if (t[3 * h] == UINT64_MAX) {
      t[3 * h] = f;
      t[3 * h + 1] = c;
      t[3 * h + 2] = k++;
    }
    fine[v] = t[3 * h + 2];
  }
  free(t);
  return EXO_OK;
}

exo_status exo_graph_nested(exo_graph *g, const exo_options *levels, uint32_t L,
                            const char *outfile, char sep, exo_ctx *ctx,
                            exo_cluster_result *res) {
  return exo_graph_nested_mode(g, levels, L, EXO_NESTED_SPLIT, outfile, sep, ctx, res);
}

exo_status exo_graph_nested_mode(exo_graph *g, const exo_options *levels, uint32_t L,
                                 exo_nested_mode mode, const char *outfile, char sep,
                                 exo_ctx *ctx, exo_cluster_result *res) {
  if (!g || !levels || !outfile || !res)
    return EXO_FAIL(ctx, EXO_EARG, "exo_graph_nested: NULL argument");
  for (uint32_t j = 0; j < L; j++) memset(&res[j], 0, sizeof res[j]);
  exo_status s = check_levels(g, levels, L, ctx);
  if (s) return s;
  const uint64_t n = g->num_nodes;
  uint32_t ord[EXO_NESTED_MAX_LEVELS];
  for (uint32_t j = 0; j < L; j++) { /* finest (largest resolution) first, stable */
    uint32_t k = j;
    while (k > 0 && levels[ord[k - 1]].num[EXO_OPT_RESOLUTION] < levels[j].num[EXO_OPT_RESOLUTION]) {
      ord[k] = ord[k - 1];
      k--;
    }
    ord[k] = j;
  }
  uint64_t *lab[EXO_NESTED_MAX_LEVELS];
  memset(lab, 0, sizeof lab);
  exo_csr_files csr = {g->offsets_path, g->adj_path, n, g->num_arcs, g->wide};
  const uint64_t *prev = NULL;
  for (uint32_t k = 0; k < L && !s; k++) {
    const uint32_t j = ord[k];
    exo_leiden_params p;
    memset(&p, 0, sizeof p);
    exo_options_fill_leiden(&levels[j], &p);
    p.tmpdir = g->tmpdir;
    p.threads = g->threads;
    p.initial = k == 0 ? g->initial : NULL;
    p.atoms = mode == EXO_NESTED_ATOMS ? prev : NULL;
    exo_message(ctx, "nested level %u of %u (resolution %.10g)%s", k + 1, L, p.resolution,
                p.atoms ? ": the clusters of the level before are its atoms" : "");
    exo_leiden_result lr;
    const double t0 = exo_now_seconds();
    s = exo_leiden_run(&csr, &p, ctx, &lr);
    if (s) break;
    lab[j] = lr.labels;
    prev = lr.labels;
    res[j].leiden_moves = lr.moves;
    res[j].leiden_sweeps = lr.sweeps;
    res[j].leiden_merges = lr.merges;
    res[j].leiden_temp_disk = lr.peak_disk;
    res[j].quality = lr.quality;
    res[j].resolution = lr.resolution;
    res[j].levels = lr.levels;
    res[j].iterations = lr.iterations;
    res[j].seconds_cluster = exo_now_seconds() - t0;
  }
  /* split: from the coarsest on, each level cut by the one above it */
  for (uint32_t k = L - 1; mode == EXO_NESTED_SPLIT && !s && k-- > 0;)
    s = split_by(lab[ord[k]], lab[ord[k + 1]], n, ctx);
  /* the labels become 1..K in order of first appearance (after the
   * atoms, which need ids < n, are no longer used) */
  const double t0 = exo_now_seconds();
  for (uint32_t j = 0; j < L && !s; j++) {
    s = exo_output_renumber(lab[j], n, &res[j].num_clusters, ctx);
    if (!s) s = sizes(lab[j], n, &res[j], ctx);
  }
  exo_pending out_tmp = EXO_PENDING_INIT, table_tmp = EXO_PENDING_INIT;
  if (!s)
    s = exo_output_write_columns(g->names_path, (const uint64_t *const *)lab, L, n, sep, outfile,
                                 g->threads, g->cluster_table ? &out_tmp : NULL, ctx);
  if (!s && g->cluster_table) {
    const double t1 = exo_now_seconds();
    s = write_tables(g, lab, L, res, exo_options_memory(&levels[0]), sep, &table_tmp, ctx);
    if (!s) s = exo_output_publish(&table_tmp, g->cluster_table, ctx);
    if (!s) s = exo_output_publish(&out_tmp, outfile, ctx);
    res[0].seconds_table = exo_now_seconds() - t1;
  }
  exo_output_discard(&table_tmp);
  exo_output_discard(&out_tmp);
  res[0].seconds_output = exo_now_seconds() - t0 - res[0].seconds_table;
  for (uint32_t j = 0; j < L; j++) free(lab[j]);
  if (s) {
    for (uint32_t j = 0; j < L; j++) memset(&res[j], 0, sizeof res[j]);
    return ctx->err.code ? ctx->err.code : s;
  }
  return EXO_OK;
}
