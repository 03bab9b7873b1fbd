/* exo_pipeline.c: the run from files to clusters (see exo_pipeline.h). */
#include "exo_pipeline.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exo_io.h"
#include "exo_names.h"
#include "exo_output.h"
#include "exo_record.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* State shared with the parser's per-edge callback. */
typedef struct edge_sink {
  exo_sorter *sorter;
  int directed;
  uint64_t edges; /* arcs LP votes over */
} edge_sink;

/* Turn one input edge into arc records (exo_record.h sign convention).
 * Weights <= 0 register the names (done by the parser) but store nothing. */
static exo_status on_edge(void *user, uint64_t a, uint64_t b, float w, exo_ctx *ctx) {
  edge_sink *s = user;
  if (!(w > 0.0f)) return EXO_OK;
  uint64_t hi = a > b ? a : b;
  exo_status st;
  if (hi >= EXO_NARROW_ID_LIMIT && !exo_sorter_is_wide(s->sorter)) {
    st = exo_sorter_set_wide(s->sorter, ctx);
    if (st) return st;
  }
  if (s->directed) {
    st = exo_sorter_add(s->sorter, b, a, w, ctx); /* in-arc of b: b hears a */
    if (st) return st;
    s->edges++;
    return exo_sorter_add(s->sorter, a, b, -w, ctx); /* out-arc of a */
  }
  st = exo_sorter_add(s->sorter, a, b, w, ctx);
  if (st) return st;
  s->edges++;
  if (a == b) return EXO_OK; /* a self-loop is one arc */
  s->edges++;
  return exo_sorter_add(s->sorter, b, a, w, ctx);
}

/* Memory for the parser's own buffers, taken off the sort's share. */
#define PARSE_RESERVE ((uint64_t)4 << 20)

static exo_status check_options(const exo_build_options *opt, exo_ctx *ctx) {
  if (!opt || !opt->files || opt->nfiles == 0)
    return EXO_FAIL(ctx, EXO_EARG, "no input files given");
  if (!opt->tempdir_base || !*opt->tempdir_base)
    return EXO_FAIL(ctx, EXO_EARG, "no temporary directory given");
  char sep = opt->parse.sep;
  if (sep == '\n' || sep == '\r' || sep == '\0')
    return EXO_FAIL(ctx, EXO_EARG, "the separator cannot be a line end or NUL");
  return EXO_OK;
}

exo_status exo_graph_build(const exo_build_options *opt, exo_ctx *ctx,
                           exo_graph **out) {
  *out = NULL;
  exo_status st = check_options(opt, ctx);
  if (st) return st;
  exo_graph *g = calloc(1, sizeof *g);
  if (!g) return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory");
  g->directed = opt->directed;
  exo_names *names = NULL;
  exo_sorter *sorter = NULL;

  st = exo_tempdir_create(opt->tempdir_base, &g->tmpdir, ctx);
  if (st) goto fail;
  g->names_path = exo_path_join(g->tmpdir, "names.txt");
  g->offsets_path = exo_path_join(g->tmpdir, "csr.offsets");
  g->adj_path = exo_path_join(g->tmpdir, "csr.adjacency");
  if (!g->names_path || !g->offsets_path || !g->adj_path) {
    st = EXO_FAIL(ctx, EXO_ENOMEM, "out of memory");
    goto fail;
  }

  double t0 = now_seconds();
  st = exo_names_create(&names, g->names_path, ctx);
  if (st) goto fail;
  exo_sort_options so = {0};
  so.tmpdir = g->tmpdir;
  so.memory_limit = opt->memory_limit > 2 * PARSE_RESERVE
                        ? opt->memory_limit - PARSE_RESERVE
                        : opt->memory_limit / 2;
  so.wide = opt->force_wide_ids;
  so.run_records = opt->run_records;
  so.fan_in = opt->fan_in;
  st = exo_sorter_create(&sorter, &so, ctx);
  if (st) goto fail;

  edge_sink sink = {sorter, opt->directed, 0};
  for (size_t i = 0; i < opt->nfiles; i++) {
    exo_parse_stats ps = {0};
    exo_message(ctx, "reading %s", opt->files[i]);
    st = exo_parse_file(opt->files[i], &opt->parse, names, on_edge, &sink, ctx, &ps);
    if (st) goto fail;
    g->num_lines += ps.edges;
  }
  g->num_nodes = exo_names_count(names);
  st = exo_names_finish(names, ctx);
  names = NULL;
  if (st) goto fail;
  g->num_edges = sink.edges;
  g->seconds_parse = now_seconds() - t0;

  t0 = now_seconds();
  g->wide = opt->force_wide_ids || g->num_nodes > EXO_NARROW_ID_LIMIT;
  st = exo_sorter_finish_csr(sorter, g->num_nodes, g->offsets_path, g->adj_path,
                             g->wide, ctx, &g->sort);
  if (st) goto fail;
  exo_sorter_free(sorter);
  sorter = NULL;
  g->num_arcs = g->sort.records;
  g->seconds_csr = now_seconds() - t0;
  *out = g;
  return EXO_OK;

fail:
  exo_names_free(names);
  exo_sorter_free(sorter);
  exo_graph_free(g);
  return ctx->err.code ? ctx->err.code : st;
}

exo_status exo_graph_cluster(exo_graph *g, const exo_lp_params *params,
                             const char *outfile, char sep, exo_ctx *ctx,
                             exo_cluster_result *res) {
  memset(res, 0, sizeof *res);
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs,
                       g->wide};
  exo_lp_params p = *params;
  p.directed = g->directed;
  exo_lp_result lr;
  memset(&lr, 0, sizeof lr);
  double t0 = now_seconds();
  exo_status st = exo_lp_run(&csr, &p, ctx, &lr);
  if (st) {
    free(lr.labels);
    return st;
  }
  res->max_visits = lr.max_visits;
  res->pops = lr.pops;
  res->changes = lr.changes;
  res->rounds = lr.rounds;
  res->seconds_cluster = now_seconds() - t0;

  t0 = now_seconds();
  st = exo_output_renumber(lr.labels, g->num_nodes, &res->num_clusters, ctx);
  if (!st)
    st = exo_output_write(g->names_path, lr.labels, g->num_nodes, sep, outfile, ctx);
  free(lr.labels);
  res->seconds_output = now_seconds() - t0;
  return st;
}

void exo_graph_free(exo_graph *g) {
  if (!g) return;
  if (g->tmpdir) exo_tempdir_remove(g->tmpdir);
  free(g->tmpdir);
  free(g->names_path);
  free(g->offsets_path);
  free(g->adj_path);
  free(g);
}
