/* exo_method.c: the registry and the dispatcher (see exo_method.h), and
 * the run functions of the two methods the pipeline has had from the
 * start (label propagation with its merge passes, Leiden). */
#include "exo_method.h"

#include <math.h>
#include <string.h>

#define EXO_METHOD_ENTRY_(id, name, stage, help, refused) \
  {name, stage, exo_method_run_##id, exo_method_need_##id},
static const exo_method registry[EXO_METHOD_COUNT] = {EXO_METHODS(EXO_METHOD_ENTRY_)};
#undef EXO_METHOD_ENTRY_

const exo_method *exo_methods(void) { return registry; }

const exo_method *exo_method_of(const exo_options *o) {
  const int k = (int)o->num[EXO_OPT_ALGORITHM];
  return k >= 0 && k < EXO_METHOD_COUNT ? &registry[k] : NULL;
}

exo_status exo_method_run(exo_graph *g, const exo_options *o, const char *outfile, char sep,
                          exo_ctx *ctx, exo_cluster_result *res) {
  memset(res, 0, sizeof *res);
  const exo_method *m = exo_method_of(o);
  if (!m) return EXO_FAIL(ctx, EXO_EARG, "no such clustering method (algorithm %d)",
                          (int)o->num[EXO_OPT_ALGORITHM]);
  if (!o->resolved)
    return EXO_FAIL(ctx, EXO_EARG, "internal error: the options were not resolved");
  return m->run(g, o, outfile, sep, ctx, res);
}

exo_status exo_method_run_lp(exo_graph *g, const exo_options *o, const char *outfile, char sep,
                             exo_ctx *ctx, exo_cluster_result *res) {
  exo_lp_params p;
  exo_refine_params rp;
  memset(&p, 0, sizeof p);
  memset(&rp, 0, sizeof rp);
  exo_options_fill_lp(o, &p);
  exo_options_fill_refine(o, &rp);
  return exo_graph_cluster_refined(g, &p, &rp, outfile, sep, ctx, res);
}

exo_status exo_method_run_leiden(exo_graph *g, const exo_options *o, const char *outfile,
                                 char sep, exo_ctx *ctx, exo_cluster_result *res) {
  exo_leiden_params lp;
  memset(&lp, 0, sizeof lp);
  exo_options_fill_leiden(o, &lp);
  return exo_graph_leiden(g, &lp, outfile, sep, ctx, res);
}

/* ---- what each needs (exo_estimate.h) ---------------------------------- */
#define LEIDEN_AGG_WRITE_BUF 1048576.0 /* an in-memory aggregation's write buffer */

/* In-memory aggregation of a level of n0 nodes and a0 arcs into n1 coarse
 * nodes: per range, its arcs' tally entries and rows; the finer level's
 * degrees; per coarse node its offset, row start and end, one count per
 * part and a marker and a scratch entry per thread; the write buffer. */
static double agg_in_memory_bytes(double n0, double a0, double n1, int threads) {
  return EXO_LEIDEN_AGG_ARC_BYTES * a0 / EXO_LEIDEN_AGG_RANGES +
         EXO_LEIDEN_AGG_NODE_BYTES * n0 + 8.0 * (3 + 1 + 2.0 * threads) * n1 +
         LEIDEN_AGG_WRITE_BUF;
}

#define LEIDEN_EST_LEVELS 12 /* coarse levels counted */

typedef struct level_disk {
  double files, runs, n, a;
} level_disk;

/* The files of the coarse level aggregated from (n0, a0): a quarter of
 * the nodes, the share `arcs` of the arcs (exo_estimate.h); its adjacency
 * is written even when the next level holds it, and so is the map from
 * the finer level's nodes: a round's levels are kept for the next
 * (exo_leiden.h, "Reuse"). */
static level_disk leiden_level(double n0, double a0, double arcs, uint64_t limit, int threads,
                               double rec, double adj) {
  level_disk l;
  l.n = n0 / 4;
  l.a = a0 * arcs;
  const double L = (double)limit;
  const int in_memory = agg_in_memory_bytes(n0, a0, l.n, threads) <= L;
  l.runs = in_memory || rec * a0 <= L ? 0 : rec * a0;
  l.files = 8 * (l.n + 1) + adj * l.a + EXO_LEIDEN_LEVEL_DISK_NODE_BYTES * l.n + 8 * n0;
  return l;
}

/* Leiden's temporary files beside the input graph's CSR and names: the
 * kept levels of a round, and the sort's runs of the level being built.
 * The first coarse level is taken to keep LEIDEN_EST_FIRST of the arcs,
 * each later one half of the level before: the kept levels then hold 0.6
 * of the input's arcs (measured, ESTIMATES.md, relative to the input's
 * CSR: 0.2 on a graph of 20 dense groups (tests/testthat/test-memory.R),
 * about 0.9 on the planted graphs of 10^5 nodes, 1.6 at 10^6). */
#define LEIDEN_EST_FIRST 0.3
static double leiden_disk(double n, double arcs, uint64_t limit, int threads, double rec,
                          double adj) {
  double kept = 0, peak = 0, n0 = n, a0 = arcs;
  for (int i = 0; i < LEIDEN_EST_LEVELS && n0 >= 1 && a0 >= 1; i++) {
    const level_disk l =
        leiden_level(n0, a0, i ? 0.5 : LEIDEN_EST_FIRST, limit, threads, rec, adj);
    peak = exo_estimate_max(peak, kept + l.files + l.runs);
    kept += l.files;
    n0 = l.n;
    a0 = l.a;
  }
  return EXO_LEIDEN_DISK_NODE_BYTES * n + peak;
}

/* Label propagation: its per-node arrays (exo_lp.h) and the workers' read
 * windows; its merge passes (refine): per reader its read buffer and pair
 * table (all of it written when it is cleared), offsets and labels, a
 * cluster per node at most (exo_refine.h). */
void exo_method_need_lp(const exo_estimate_in *in, const exo_estimate_graph *g,
                        exo_estimate_need *need) {
  const uint64_t limit = in->memory_limit;
  const double T = in->threads, n = g->nodes, adj_bytes = g->adj * g->records;
  need->ram_cluster = n * ((g->wide ? EXO_LP_NODE_BYTES_WIDE : EXO_LP_NODE_BYTES) +
                           (in->attenuation ? EXO_LP_ATTENUATION_NODE_BYTES : 0)) +
                      exo_estimate_min(T * exo_estimate_share(limit, EXO_SHARE_LP_READ, T),
                                       adj_bytes) +
                      EXO_ESTIMATE_STAGE_SLACK;
  need->ram_refine = 0;
  need->disk_cluster = 0;
  if (!in->refine) return;
  const double readers = exo_estimate_min(T, EXO_REFINE_MAX_READERS);
  const double buf =
      exo_estimate_min(exo_estimate_share(limit, EXO_SHARE_REFINE_READ, readers), adj_bytes);
  const double tbytes = exo_estimate_share(limit, EXO_SHARE_REFINE_TABLE, readers);
  double cap = EXO_REFINE_MIN_SLOTS;
  while (cap * 2 * EXO_REFINE_SLOT_BYTES <= tbytes && cap < g->records + 2) cap *= 2;
  need->ram_refine = readers * (buf + EXO_REFINE_SLOT_BYTES * cap) +
                     n * (EXO_REFINE_NODE_BYTES + EXO_REFINE_CLUSTER_BYTES) +
                     EXO_ESTIMATE_STAGE_SLACK;
}

/* Leiden: its per-node state and final labels (exo_leiden.h), the read
 * buffer, the lanes' tables, and the aggregation of level 0: in memory
 * when it fits in at most EXO_LEIDEN_AGG_RANGES ranges of coarse ids, else
 * the sort's buffers (they grow with its records, up to the memory
 * limit); on disk its levels (leiden_disk). */
void exo_method_need_leiden(const exo_estimate_in *in, const exo_estimate_graph *g,
                            exo_estimate_need *need) {
  const uint64_t limit = in->memory_limit;
  const double L = (double)limit, T = in->threads, n = g->nodes, records = g->records;
  const double ranges = ceil(EXO_LEIDEN_AGG_ARC_BYTES * records / L);
  const double aggregation =
      ranges <= EXO_LEIDEN_AGG_RANGES
          ? EXO_LEIDEN_AGG_ARC_BYTES * records / exo_estimate_max(ranges, 1)
          : exo_estimate_min(L, 3 * g->rec * records);
  const double lanes = exo_estimate_min(T, EXO_LEIDEN_LANES);
  need->ram_cluster =
      n * ((g->wide ? EXO_LEIDEN_NODE_BYTES_WIDE : EXO_LEIDEN_NODE_BYTES) +
           EXO_LEIDEN_LABEL_BYTES) +
      exo_estimate_min(exo_estimate_share(limit, EXO_SHARE_LEIDEN_READ, 1), g->adj * records) +
      (double)EXO_LEIDEN_LANE_TABLES_BYTES + (double)EXO_LEIDEN_LANE_PAIRS_BYTES * lanes +
      aggregation + EXO_ESTIMATE_STAGE_SLACK;
  need->ram_refine = 0;
  need->disk_cluster = leiden_disk(n, records, limit, in->threads, g->rec, g->adj);
}
