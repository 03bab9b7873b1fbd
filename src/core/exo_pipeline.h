/* exo_pipeline.h: the whole run, from edge-list files to cluster files.
 *
 * exo_graph_build() parses every input file in order, reindexes names,
 * streams arc records into sorted runs, merges them into the CSR and keeps
 * the graph on disk in a fresh private directory inside tempdir_base.
 * exo_graph_cluster() runs label propagation on that graph and writes one
 * output file; call it as often as needed (several parameter sets reuse one
 * build). exo_graph_free() deletes the private directory. Every function
 * returns a status; on failure the context's error holds the message and
 * the files of that call are gone (a failed build leaves no directory). */
#ifndef EXO_PIPELINE_H
#define EXO_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"
#include "exo_lp.h"
#include "exo_parse.h"
#include "exo_sort.h"

typedef struct exo_build_options {
  const char *const *files;
  size_t nfiles;
  exo_parse_options parse;
  int directed;
  const char *tempdir_base; /* existing directory */
  uint64_t memory_limit;    /* bytes for the buffers of every stage */
  int force_wide_ids;       /* test knob: 64-bit ids on disk from the start */
  uint64_t run_records;     /* test knob, see exo_sort_options */
  uint32_t fan_in;          /* test knob, see exo_sort_options */
} exo_build_options;

typedef struct exo_graph {
  char *tmpdir;
  char *names_path, *offsets_path, *adj_path;
  uint64_t num_nodes;
  uint64_t num_lines;  /* data lines read (edges in the input) */
  uint64_t num_edges;  /* arcs LP votes over: 2 per undirected edge (1 per
                          self-loop), 1 per directed edge; weight > 0 only */
  uint64_t num_arcs;   /* adjacency entries on disk */
  int directed;
  int wide;
  exo_sort_stats sort;
  double seconds_parse, seconds_csr;
} exo_graph;

typedef struct exo_cluster_result {
  uint64_t num_clusters;
  uint32_t max_visits; /* the cap used (the automatic value if 0 was asked) */
  uint64_t pops, changes, rounds;
  double seconds_cluster, seconds_output;
} exo_cluster_result;

exo_status exo_graph_build(const exo_build_options *opt, exo_ctx *ctx,
                           exo_graph **out);
/* Cluster and write "name<sep>cluster" lines to outfile. */
exo_status exo_graph_cluster(exo_graph *g, const exo_lp_params *params,
                             const char *outfile, char sep, exo_ctx *ctx,
                             exo_cluster_result *res);
/* Remove the private directory and free the graph. NULL-safe. */
void exo_graph_free(exo_graph *g);

#endif
