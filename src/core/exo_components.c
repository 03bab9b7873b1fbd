/* exo_components.c: algorithm "components", single linkage (what SiLiX
 * users run): every connected component of the graph is one cluster.
 *
 * One sequential pass over the CSR joins the components
 * (exo_csr_components, exo_csr.h: a union-find forest, each node labelled
 * by its component's smallest id); the labels then go out as every
 * method's do (exo_graph_write_labels, exo_pipeline.h). Edges that store
 * no arc (weight <= 0, below min_weight, dropped self hits, bridges cut at
 * the build) join nothing: a node without an arc is its own cluster. A
 * directed graph's clusters are its weakly connected components.
 *
 * Memory: 8 bytes per node (the forest, which becomes the labels; the
 * renumbering's scratch as for every method) and two readers of
 * EXO_IO_DEFAULT_BUF.
 * No randomness, one thread: the same bytes for any seed, threads and
 * memory_limit. The options of the other methods are refused when given:
 * the refused set is this method's line in exo_method_names.h, which
 * exo_options_resolve reads. The graph's initial communities (exo_graph's
 * `initial`) are ignored: the components do not depend on a start; its
 * atoms (nested levels) are refused (EXO_EARG): they are Leiden's. */
#include <stdlib.h>

#include "exo_csr.h"
#include "exo_io.h"
#include "exo_method.h"
#include "exo_platform.h"

exo_status exo_method_run_components(exo_graph *g, const exo_options *o, const char *outfile,
                                     char sep, exo_ctx *ctx, exo_cluster_result *res) {
  if (g->atoms)
    return EXO_FAIL(ctx, EXO_EARG, "nested levels (atoms) need algorithm leiden, not "
                    "components");
  const uint64_t n = g->num_nodes, memory_limit = exo_options_memory(o);
  exo_csr_files csr = {g->offsets_path, g->adj_path, n, g->num_arcs, g->wide};
  uint64_t *labels = malloc(n ? (size_t)n * sizeof *labels : 1);
  if (!labels) return exo_fail_oom(ctx, "the connected components", n * sizeof *labels);
  double t0 = exo_now_seconds();
  exo_progress(ctx, EXO_STAGE_CLUSTER, 0, n);
  exo_status st = exo_csr_components(&csr, EXO_IO_DEFAULT_BUF, labels, ctx);
  if (!st) exo_progress(ctx, EXO_STAGE_CLUSTER, n, n);
  res->seconds_cluster = exo_now_seconds() - t0;
  if (!st) st = exo_graph_write_labels(g, labels, memory_limit, outfile, sep, ctx, res);
  free(labels);
  return st;
}

/* For exo_estimate: the forest and two readers; no merge passes, no files
 * beyond the graph's. */
void exo_method_need_components(const exo_estimate_in *in, const exo_estimate_graph *g,
                                exo_estimate_need *need) {
  need->ram_cluster =
      EXO_CSR_COMPONENTS_NODE_BYTES * g->nodes + 2.0 * EXO_IO_DEFAULT_BUF + EXO_ESTIMATE_STAGE_SLACK;
  need->ram_refine = 0;
  need->disk_cluster = 0;
}
