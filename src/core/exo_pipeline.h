/* exo_pipeline.h: the whole run, from edge-list files to cluster files.
 *
 * exo_graph_build() parses every input file in order, reindexes names,
 * streams arc records into sorted runs, merges them into the CSR and keeps
 * the graph on disk in a fresh private directory inside tempdir_base.
 * exo_graph_cluster() runs label propagation on that graph and writes one
 * output file; call it as often as needed (several parameter sets reuse one
 * build). exo_graph_free() deletes the private directory. Every function
 * returns a status; on failure the context's error holds the message and
 * the files of that call are gone (a failed build leaves no directory).
 *
 * Before anything is read, creating the builder (1) removes from
 * tempdir_base the directories of runs that were killed (exo_tempdir_create_run
 * in exo_io.h: the private directory is marked and locked for the run's
 * life), and (2) tries the outputs and the new directory with a small file
 * (exo_probe_outputs in exo_outcheck.h), so an unwritable or full directory
 * fails at once.
 *
 * The builder is the push form of exo_graph_build() for hosts that hold the
 * edges themselves (an R data.frame, a sparse matrix, another program):
 * create it, add files, nodes and edges in any mix and order, then finish it
 * into an exo_graph (or abort it). Names get ids in order of first
 * appearance across everything added, exactly as if the same edges had been
 * read from one file. exo_graph_build() is create + add_file per file +
 * finish.
 *
 * Threads: opt->parse.threads (T) is used by every stage that can use it:
 * the parser's worker threads (exo_parse.h), the run thread of the sort
 * (T > 1), the T key ranges of every merge of the sort (exo_sort.h), the output's T
 * blocks (exo_output.h) and the lanes of label propagation's sweep, up to T at
 * once (exo_lp.h), Leiden's lanes and refinement passes (exo_leiden.h) and
 * refine's T readers (exo_refine.h). None of them changes a result: the names file, the CSR files, the
 * labels and the output bytes are the same for every T (and every
 * memory_limit); T changes only the time and how memory_limit is divided
 * among buffers. Host callbacks are only ever called from the caller's
 * thread. */
#ifndef EXO_PIPELINE_H
#define EXO_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"
#include "exo_leiden.h"
#include "exo_lp.h"
#include "exo_parse.h"
#include "exo_refine.h"
#include "exo_sort.h"

typedef struct exo_build_options {
  const char *const *files;
  size_t nfiles;
  /* The cluster files the run will write (NULL/0: none named, e.g. output
   * to standard output). The host keeps them valid while the builder lives.
   * exo_builder_create() refuses them (EXO_EARG, exo_outcheck.h) before
   * anything is read or written when one is an input of `files`, a
   * directory, or two are the same file, and when one lies inside the
   * run's private directory; exo_builder_add_file() refuses a file that is
   * one of them before reading it. */
  const char *const *outputs;
  size_t noutputs;
  exo_parse_options parse;
  int directed;
  const char *tempdir_base; /* existing directory */
  uint64_t memory_limit;    /* bytes for the buffers of every stage; while
                               reading, the name table shares it with the
                               sort's run buffers (which keep >= 1/4) */
  int force_wide_ids;       /* test knob: 64-bit ids on disk from the start */
  uint64_t run_records;     /* test knob, see exo_sort_options */
  uint32_t fan_in;          /* test knob, see exo_sort_options */
  exo_combine combine;      /* arcs joining the same pair with the same sign
                               (an edge given twice, or a->b and b->a of an
                               undirected graph): KEEP stores each (LP adds
                               their weights up), SUM/MAX store one arc (see
                               exo_sort.h) */
  float min_weight;         /* edges whose weight (after the parser's
                               transform) is below this register both names
                               but store no arc; <= 0: none (weights <= 0 store
                               no arc anyway) */
  int drop_self_loops;      /* an edge A-A registers A but stores no arc */
  int order_by_name;        /* the graph's order_by_name (exo_graph) */
  int regions;              /* the region rule of exo_regions.h (undirected
                               only; parse.col_iv must name the coordinate
                               columns): files are read with their hits'
                               coordinates, and once the CSR is built (before
                               the self-score normalisation) the pairs the
                               rule drops are removed; exo_graph's counts are
                               those after. Edges given one by one
                               (exo_builder_add_edge) have no coordinates and
                               take no part. */
  int weak_hits;            /* the weak-hit rule of exo_regions.h (undirected
                               only): once the weights are normalised, a pair
                               far weaker than every other hit of both its
                               nodes is removed; exo_graph's counts are those
                               after */
  /* parse.transform EXO_WT_SELFNORM (not with parse.ignore_weights): the
   * weights are bit scores. The self hits are stored whatever
   * drop_self_loops says; once the CSR is built, one more pass
   * (exo_csr_selfnorm, exo_csr.h: two sequential reads and one write of
   * the CSR files, 4 bytes per node, four buffers of the share
   * selfnorm_read of exo_budget.h) divides every arc's weight by the larger
   * self score of its two ends and then drops the self arcs if
   * drop_self_loops. min_weight applies to the bit scores. exo_graph's
   * counts are those of the normalised graph. */
  /* Keep and extend a graph (issue 57, exo_keep.h has the directory's
   * layout and the manifest; NULL: none):
   * - graph: a kept graph's directory. Its names are interned first (the
   *   same ids, in the same order; its names file's checksum checked while
   *   read), its CSR becomes the first source of the sort's final merge
   *   (exo_sorter_set_base; the offsets file's checksum is checked first,
   *   the adjacency file's is summed by the merge as it reads it and
   *   checked after it, exo_sorter_base_terms), its hits (bridges cut) are
   *   copied ahead of the new ones, checked as copied; then the files,
   *   nodes and edges added are read as in any build: names new to the graph
   *   get the next ids in order of first appearance. The result (names,
   *   CSR, and so the clusters) is byte for byte that of one build of the
   *   kept graph's inputs followed by the ones added, for any threads and
   *   memory_limit. The options that shaped the kept graph (the manifest's:
   *   mode, format, columns, coordinates, weight_transform, ignore_weights,
   *   min_weight, self_hits, combine, bridges, header, sep) must be equal
   *   (EXO_EARG naming the option, the kept value and this one); a missing
   *   or corrupt manifest or file is EXO_EARG / EXO_EINPUT naming it. A kept
   *   graph with 64-bit ids makes this one's wide.
   * - keep_graph: a directory that does not exist (created; its parent
   *   must), is empty, or holds a kept graph (graph's own included): once
   *   the sort has written the CSR (before the region rule, the
   *   normalisation and the weak-hit rule, which need every edge and run
   *   again on every extension) the names, the CSR and the hits are copied
   *   there as a new generation, and at the end of a successful finish the
   *   manifest is renamed into place, the old generation removed. A
   *   failure leaves the directory as it was (a directory it made is
   *   removed). Refused with named sequences (exo_builder_add_sequences,
   *   _add_listed: their nodes would take ids that later edges' names take
   *   in a build of all files). Disk: a copy of names, CSR (and hits). */
  const char *graph;
  const char *keep_graph;
} exo_build_options;

typedef struct exo_graph {
  char *tmpdir;
  int tmpdir_lock;     /* descriptor locking tmpdir as a live run's (see
                          exo_tempdir_create_run); -1: none */
  char *names_path, *offsets_path, *adj_path;
  uint64_t num_nodes;
  uint64_t num_lines;  /* data lines read (edges in the input) */
  uint64_t num_edges;  /* arcs LP votes over: 2 per undirected edge (1 per
                          self-loop), 1 per directed edge; weight > 0 only;
                          after combining (the CSR entries, counting only
                          in-arcs when directed) */
  uint64_t num_arcs;   /* adjacency entries on disk */
  uint64_t num_negative; /* input edges with a weight below 0 (after the
                            transform): their names are kept, no arc */
  uint64_t num_self_dropped; /* self-loops (self hits) dropped by
                            drop_self_loops that would have stored an arc
                            (weight > 0, not below min_weight); with
                            EXO_WT_SELFNORM the self arcs with weight > 0
                            dropped after the normalisation (after
                            combining). Their names are kept. */
  uint64_t num_region_split; /* regions: proteins whose hits form 2 regions or more */
  uint64_t num_region_pairs; /* regions: protein pairs removed */
  uint64_t num_weak_pairs;   /* weak_hits: protein pairs removed */
  int directed;
  int wide;
  int threads;         /* parse.threads of the build (>= 1): the output
                          stage uses as many */
  exo_sort_stats sort;
  double seconds_parse, seconds_csr;
  /* Optional, set by the caller: each clustering call (exo_graph_cluster*,
   * exo_graph_leiden) also writes the cluster table of exo_clstats.h
   * (size, internal and external weight, density and representative of
   * every cluster, in one more pass over the graph) to this path, with the
   * output's separator; NULL = none. The caller keeps the string valid.
   * Both files are renamed into place only once both are written, so a
   * failure of either leaves both earlier files as they were. */
  const char *cluster_table;
  /* The clusters file's (and the member table's) lines in byte order of
   * the names, clusters numbered in order of first appearance there
   * (SynExtend's order; exo_byname.h: the names are held in memory), instead
   * of the order of the ids (first appearance in the input). From
   * exo_build_options.order_by_name; the caller may change it. */
  int order_by_name;
  /* Optional, set by the caller like cluster_table (the table's pass runs
   * when any of these is set): members_table, the file of one line
   * "representative<sep>member" per node, in the output's order (the
   * representative as in the cluster table; MMseqs2's *_cluster.tsv), see
   * exo_clstats_write_members; rep_fasta, the representatives' records
   * copied from the FASTA file rep_fasta_from (exo_fasta_select,
   * exo_seqs.h; both or neither). Every file of a call is renamed into
   * place only once all are written. */
  const char *members_table;
  const char *rep_fasta, *rep_fasta_from;
  /* Optional, set by the caller like cluster_table (issue 57; NULL: none);
   * each holds num_nodes entries, indexed by node id, that the caller keeps
   * valid during the clustering call:
   * - initial: the community each node starts in (ids < num_nodes), for
   *   label propagation and Leiden (a previous clustering, new nodes as
   *   singletons); NULL = every node alone;
   * - atoms: groups of nodes (ids < num_nodes) that stay together: Leiden
   *   clusters the graph aggregated by them, so every community of the
   *   result is a union of atoms (nested levels); NULL = none;
   * - stable_old: each node's cluster id in a previous clustering (>= 1; 0
   *   for a node it did not have): the output's cluster ids are made
   *   stable against it instead of 1..K (exo_graph_write_labels);
   * - labels_out: receives each node's cluster id as written.
   * stable_max: new ids start above max(stable_max, the largest of
   * stable_old) (exo_initial.max_old: the file's clusters whose nodes are
   * all gone stay retired); 0: the largest of stable_old. The rule and its
   * counts (res->ids_*) are exo_stable_ids' (exo_initial.h). */
  const uint64_t *initial;
  const uint64_t *atoms;
  const uint64_t *stable_old;
  uint64_t *labels_out;
  uint64_t stable_max;
  /* Sequences named by exo_builder_add_sequences / _add_listed: */
  int listed;              /* some were added */
  int listed_fasta;        /* ... from a FASTA file (exo_builder_add_sequences) */
  uint64_t num_listed;     /* distinct names listed */
  uint64_t num_listed_new; /* of them, names the edges did not hold: the
                              last num_listed_new ids, nodes without an edge */
  uint64_t num_unlisted;   /* nodes of the edges that were not listed */
} exo_graph;

#define EXO_SIZE_BINS 64

typedef struct exo_cluster_result {
  uint64_t num_clusters;
  uint64_t largest;    /* nodes in the largest cluster */
  /* size_bins[k]: clusters with size in [2^k, 2^(k+1)) */
  uint64_t size_bins[EXO_SIZE_BINS];
  /* label propagation (exo_lp_result): the visit cap used (the automatic
   * value if 0 was asked), node visits, label changes, sweeps */
  uint32_t max_visits;
  uint64_t lp_visits, lp_changes, lp_sweeps;
  /* Leiden (exo_leiden_result): local moves, sweeps, refinement merges */
  uint64_t leiden_moves, leiden_sweeps, leiden_merges;
  uint64_t leiden_temp_disk; /* exo_leiden_result.peak_disk */
  double seconds_cluster, seconds_output;
  uint64_t refine_merged;  /* clusters merged by the refine passes */
  uint32_t refine_passes;  /* refine passes run */
  double seconds_refine;
  double quality;          /* Leiden: the objective's value (exo_leiden.h) */
  double resolution;       /* Leiden: the resolution g used (exo_leiden_result) */
  uint32_t levels;         /* Leiden: levels run over all iterations */
  uint32_t iterations;     /* Leiden: iterations run */
  double seconds_table;    /* the cluster table (g->cluster_table), if asked,
                              with the member table and the FASTA */
  uint64_t rep_missing;    /* representatives without a record in
                              g->rep_fasta_from (their FASTA lacks them) */
  /* stable ids (g->stable_old set; exo_stable_ids in exo_initial.h): old
   * ids kept, merged, split; ids new above the old maximum; listed nodes
   * whose id changed. stable: they were made (0: clusters 1..K). */
  int stable;
  uint64_t ids_kept, ids_merged, ids_split, ids_new, nodes_moved;
} exo_cluster_result;

exo_status exo_graph_build(const exo_build_options *opt, exo_ctx *ctx,
                           exo_graph **out);

typedef struct exo_builder exo_builder;

/* Start a build: makes the private directory. opt->files is only used to
 * check opt->outputs against (it may be NULL); everything else of `opt` is.
 * On failure nothing is left. */
exo_status exo_builder_create(const exo_build_options *opt, exo_ctx *ctx,
                              exo_builder **out);
/* Parse one edge-list file into the build (opt->parse applies). */
exo_status exo_builder_add_file(exo_builder *b, const char *path, exo_ctx *ctx);
/* Register a node without an edge (it gets an id if new and appears in the
 * output). */
exo_status exo_builder_add_node(exo_builder *b, const char *name, size_t len,
                                exo_ctx *ctx);
/* The sequences the user names (issue 55): every one becomes a node (those
 * the edges did not name get the next ids, in list order, and are their
 * own clusters), so the output lists every sequence. Call after every
 * file, node and edge of the build: adding any of those afterwards is
 * refused (EXO_EARG). add_sequences reads a FASTA file or a list of names
 * (exo_seqs.h: a header's name ends at the first space or tab); a name
 * that cannot be a node (it holds the separator) is an error naming the
 * file and line. add_listed adds one name (errors name it by its position
 * `index`, from 1). A name listed twice is one node. Memory: one bit per
 * node named by the edges, while the build lasts. The counts go to the
 * graph (listed, num_listed, num_listed_new, num_unlisted). */
exo_status exo_builder_add_sequences(exo_builder *b, const char *path, exo_ctx *ctx);
exo_status exo_builder_add_listed(exo_builder *b, const char *name, size_t len,
                                  uint64_t index, exo_ctx *ctx);
/* Add the edge a - b (a -> b when directed) with weight w. Names are raw
 * bytes: non-empty, without NUL, CR, LF or the separator (EXO_EINPUT
 * "edge N: ..." otherwise, N counting every edge added, from 1). w must be
 * finite (ignored with opt->parse.ignore_weights: every weight is then 1);
 * w <= 0 registers both names but stores no arc, as in files.
 * Polls for interrupts every 64 Ki edges. */
exo_status exo_builder_add_edge(exo_builder *b, const char *a, size_t alen,
                                const char *bname, size_t blen, double w,
                                exo_ctx *ctx);
/* Announce how many edges will be pushed: the total of the EXO_STAGE_PARSE
 * progress reports (done = edges pushed so far) made while pushing. */
void exo_builder_expect(exo_builder *b, uint64_t edges);
/* Sort and merge into the CSR; the builder is freed whatever happens. */
exo_status exo_builder_finish(exo_builder *b, exo_ctx *ctx, exo_graph **out);
/* Drop a build and its files. NULL-safe. */
void exo_builder_abort(exo_builder *b);
/* Cluster and write "name<sep>cluster" lines to outfile. */
exo_status exo_graph_cluster(exo_graph *g, const exo_lp_params *params,
                             const char *outfile, char sep, exo_ctx *ctx,
                             exo_cluster_result *res);
/* exo_graph_cluster followed by the merge passes of exo_refine.h on the
 * labels (refine NULL or refine->passes == 0: none). */
exo_status exo_graph_cluster_refined(exo_graph *g, const exo_lp_params *params,
                                     const exo_refine_params *refine, const char *outfile,
                                     char sep, exo_ctx *ctx, exo_cluster_result *res);
/* Leiden (exo_leiden.h) instead of label propagation, same output; the
 * coarse levels live in the graph's directory (params->tmpdir is ignored).
 * res->leiden_* count its moves, sweeps and refinement merges. */
exo_status exo_graph_leiden(exo_graph *g, const exo_leiden_params *params,
                            const char *outfile, char sep, exo_ctx *ctx,
                            exo_cluster_result *res);
/* The results of any clustering method (exo_method.h) from its labels:
 * labels[v] (n = g->num_nodes entries, each a node id < n) renumbered in
 * place to 1..K in order of first appearance (exo_output_renumber), then
 * res->num_clusters, largest and size_bins, the clusters file and the
 * files g asks for (cluster_table, members_table, rep_fasta), each renamed
 * into place only once all are written; res->seconds_output and
 * seconds_table are added to. memory_limit: the cluster table's buffers.
 * With g->stable_old, the clusters get stable ids (exo_stable_ids,
 * exo_initial.h) instead of 1..K: the clusters file and the cluster table
 * show them (the table in increasing id), labels[] is left numbered 1..K
 * in that order, and res->ids_* count them; memory on top: 16 bytes per
 * listed node (a sort of (old, new) pairs) while they are made, 24 bytes
 * per cluster, and 8 bytes per node for the written ids unless
 * g->labels_out receives them. g->labels_out (set or not stable) gets
 * the ids as written. label propagation and Leiden (exo_graph_cluster*,
 * exo_graph_leiden) do the same. */
exo_status exo_graph_write_labels(exo_graph *g, uint64_t *labels, uint64_t memory_limit,
                                  const char *outfile, char sep, exo_ctx *ctx,
                                  exo_cluster_result *res);
/* Remove the private directory and free the graph. NULL-safe. */
/* The run's peak temporary disk as the statistics report it: the sort's
 * (runs and CSR, g->sort.peak_disk) or, when more, the CSR files (8 bytes
 * per offset, adj entry size per arc) plus Leiden's own files at their
 * largest (r->leiden_temp_disk; 0 for the other methods). */
uint64_t exo_run_peak_disk(const exo_graph *g, const exo_cluster_result *r);

void exo_graph_free(exo_graph *g);

#endif
