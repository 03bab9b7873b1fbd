/* exo_clstats.h: per-cluster statistics (the cluster table), streamed from
 * the CSR in one pass.
 *
 * Given the CSR files (exo_record.h) and the final clusters (numbers
 * 1..K, as exo_output_renumber leaves them), exo_clstats_compute() reads
 * the offsets and adjacency files once, front to back, and gives for every
 * cluster C:
 *
 *   size       the number of its nodes;
 *   internal   the total weight of the edges with both ends in C, each edge
 *              once, self-loops included (a self-loop is one edge);
 *   external   the total weight of the edges with exactly one end in C;
 *   pairs      the number of unordered pairs {u, v} of distinct members
 *              joined by at least one edge (directed: ordered pairs (u, v)
 *              with at least one edge u -> v); self-loops never count;
 *   rep        the representative: the member with the largest internal
 *              weighted degree, i.e. the total weight of its edges to other
 *              members (self-loops left out, so a node's hit to itself does
 *              not make it the representative; directed: in- and out-edges
 *              together); ties go to the smallest node id, which is the
 *              member that appeared first in the input. A member without
 *              internal edges has degree 0, so a singleton is its own
 *              representative.
 *
 * "Edge" means an edge as stored in the graph: two copies of one edge kept
 * by combine = KEEP (exo_sort.h) are two edges whose weights add up, as in
 * label propagation; they count once in `pairs`. Weights are the stored
 * ones (after the parser's transform), positive. In the CSR an undirected
 * edge {a, b} is the arcs (a, b, w) and (b, a, w) and a self-loop the one
 * arc (a, a, w); the pass counts an internal edge at its smaller end (or
 * at its node for a loop), so each once. A directed edge a -> b is the
 * in-arc (b, a, +w) and the out-arc (a, b, -w): internal edges are counted
 * from their in-arcs, and an external edge is seen from exactly one of its
 * ends, the one in C, whichever its direction. `pairs` relies on each
 * adjacency list being sorted by neighbour (the CSR is sorted by (key,
 * nbr)), so the copies of an edge are adjacent.
 *
 * density(C) = pairs / (size (size - 1) / 2) (directed: pairs / (size
 * (size - 1))), in [0, 1]; undefined for a singleton: exo_clstats_density
 * returns NaN and the table writes NA.
 *
 * Every sum is taken in file order on the caller's thread: the result
 * depends on neither threads nor memory_limit.
 *
 * exo_clstats_write() writes the table: a header line
 *   Cluster<sep>Size<sep>InternalWeight<sep>ExternalWeight<sep>Density<sep>Representative
 * (the names of the R function's columns; earlier versions wrote them in
 * lower case with underscores: cluster, size, internal_weight, ...)
 * then one line per cluster 1..K in that order, the representative by
 * name (names streamed from the names file, exo_names.h), numbers in
 * decimal (weights and density with up to 15 significant digits, a whole
 * number without a decimal point, density NA for a singleton). The text
 * goes through exo_outfile (exo_output.h) as the clusters do: a temporary
 * file beside out_path renamed over it at the end, so a failed run leaves
 * no partial table, or an existing device or FIFO written into as it is,
 * never replaced; a directory is refused with EXO_EARG.
 *
 * Memory: 48 bytes per cluster for the statistics, the caller's clusters
 * (8 bytes per node), two read buffers (the share table_read of
 * exo_budget.h each); writing adds 12 bytes per cluster, 1 MiB each for
 * reading the names and writing the table, and the representatives' names,
 * held in a buffer of at most the share table_names (and no larger than the names file;
 * one name longer than that is held alone). The first read of the names
 * file measures every representative's name and keeps them while they
 * fit; when they do not, the names file is read once more per buffer-full,
 * each time for the next range of clusters. Time: on a graph of 10^6 nodes
 * and 2 x 10^7 arcs (exogen, 21976 clusters) the whole table took 1.2 to
 * 2.3 s, against 9 to 14 s for label propagation (2 shared cores). */
#ifndef EXO_CLSTATS_H
#define EXO_CLSTATS_H

#include <stdint.h>

#include "exo_ctx.h"
#include "exo_output.h"
#include "exo_csr.h"

/* The table's header line, a printf format taking the separator 5 times. */
#define EXO_CLSTATS_HEADER \
  "Cluster%cSize%cInternalWeight%cExternalWeight%cDensity%cRepresentative"

typedef struct exo_nameset exo_nameset; /* exo_seqs.h */

typedef struct exo_clstats {
  uint64_t k;          /* clusters; the arrays have k + 1 entries, [0] unused */
  int directed;
  uint64_t *size;
  double *internal;
  double *external;
  uint64_t *pairs;
  uint64_t *rep;       /* node id */
  double *rep_degree;  /* the representative's internal weighted degree */
  const uint64_t *ids; /* set by the caller after exo_clstats_compute: the
                          table's Cluster column shows ids[c] (stable ids,
                          exo_initial.h; the caller's k + 1 entries, kept
                          valid while writing); NULL: c */
} exo_clstats;

/* Statistics of clusters[0..csr->n) (each in 1..k). `directed` says how
 * the CSR was built (exo_record.h). memory_limit sizes the read buffers.
 * On failure *out holds nothing to free. */
exo_status exo_clstats_compute(const exo_csr_files *csr, int directed,
                               const uint64_t *clusters, uint64_t k,
                               uint64_t memory_limit, exo_ctx *ctx, exo_clstats *out);

/* density of cluster c (1..k), NaN for a singleton. */
double exo_clstats_density(const exo_clstats *s, uint64_t c);

/* Write the table (format above). names_path lists the n node names in id
 * order; clusters are those given to exo_clstats_compute. The names
 * buffer holds the share table_names (exo_budget.h; tests pass a few bytes to force one
 * pass over the names file per cluster). */
exo_status exo_clstats_write(const exo_clstats *s, const char *names_path,
                             const uint64_t *clusters, uint64_t n, char sep,
                             const char *out_path, uint64_t memory_limit, exo_ctx *ctx);

/* The same, the finished temporary left for exo_output_publish or
 * exo_output_discard (exo_output_write_pending in exo_output.h). */
exo_status exo_clstats_write_pending(const exo_clstats *s, const char *names_path,
                                     const uint64_t *clusters, uint64_t n, char sep,
                                     const char *out_path, uint64_t memory_limit,
                                     exo_pending *pending, exo_ctx *ctx);

/* EXO_EARG when out_path is a directory, for hosts to call before a run
 * starts (exo_clstats_write refuses it too, when it opens the path). */
exo_status exo_clstats_check_path(const char *out_path, exo_ctx *ctx);

/* The member table (MMseqs2's *_cluster.tsv): one line
 * "representative<sep>member\n" per node, in id order (the order of the
 * clusters file), the representative by name; no header. Two passes over
 * the names file: the first measures every representative's name, keeps
 * its offset in the names file (8 bytes per cluster) and copies the names
 * while they fit the names buffer; the second writes the lines, reading a
 * representative's name that did not fit from the names file (one small
 * read per node). The bytes do not depend on memory_limit. Written
 * through exo_outfile as the table; pending as in
 * exo_clstats_write_pending (NULL: renamed into place at once). */
exo_status exo_clstats_write_members(const exo_clstats *s, const char *names_path,
                                     const uint64_t *clusters, uint64_t n, char sep,
                                     const char *out_path, uint64_t memory_limit,
                                     exo_pending *pending, exo_ctx *ctx);

/* Add every representative's name to `set` (exo_seqs.h), for the
 * representatives' FASTA. Reads the names file as exo_clstats_write. */
exo_status exo_clstats_rep_set(const exo_clstats *s, const char *names_path,
                               const uint64_t *clusters, uint64_t n, uint64_t memory_limit,
                               exo_nameset *set, exo_ctx *ctx);

void exo_clstats_free(exo_clstats *s); /* NULL-safe; leaves *s zeroed */

#endif
