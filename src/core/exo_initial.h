/* exo_initial.h: a previous clustering, to start from and to keep its
 * cluster ids stable (issue 57; the option `initial`).
 *
 * exo_initial_read() reads a clusters file as ExoLabel writes it, one line
 * "name<sep>cluster" per node (the output's separator; gzip read as the
 * inputs are, exo_input.h), against a built graph's names (names_path, the
 * n names in id order, exo_names.h). A first line "Vertex<sep>Cluster" (a
 * header) is skipped, so are blank lines; a final CR and a UTF-8 byte-order
 * mark are removed. It gives, for every node v of the graph:
 *   stable_old[v]  the node's cluster in the file, a whole number >= 1; 0
 *                  when the file does not list it;
 *   initial[v]     its starting community (exo_graph.initial): the
 *                  smallest node id of its old cluster among the graph's
 *                  nodes, so nodes that shared an old cluster share one id
 *                  (< n); a node the file does not list is alone (v).
 * Errors (EXO_EINPUT, naming the file and the line, from 1): a line without
 * the separator, a cluster that is not a whole number from 1 to
 * EXO_INITIAL_MAX_ID (a sign, a decimal point, a second separator or an
 * empty field included), a name listed twice (the earlier line named too
 * when both are in the graph). Names the graph does not have are counted
 * (missing; the drivers warn), not an error; the first one is kept for the
 * warning. Polls for interrupts.
 *
 * exo_stable_ids() makes the ids of a new clustering stable against the old
 * one (exo_graph_write_labels calls it when exo_graph.stable_old is set).
 * The rule: for each old cluster A (its members present in the new graph,
 * stable_old[v] == A), its majority holder is the new cluster holding MORE
 * than half of those members (there is at most one). A new cluster takes
 * the old id of the old cluster it is the majority holder of with the most
 * of its members in it (ties: the smaller old id). Every other new cluster
 * gets a new id above the largest old id (max(old_max, the largest
 * stable_old)), in order of first appearance in the output (cluster
 * numbers 1..K as given). Counts: kept (old ids still in use), merged (old
 * ids retired because their majority holder carries another old id), split
 * (old ids retired because no new cluster holds more than half of their
 * members), fresh (ids above the old maximum), moved (listed nodes whose id
 * changed). kept + merged + split = the distinct old ids of the nodes
 * present; kept + fresh = K. The result depends on the clusters and the old
 * ids only: the same for every thread count and memory_limit.
 *
 * exo_stable_order() renumbers the clusters 1..K so that their stable ids
 * increase with the number (the cluster table then lists them by id), and
 * sorts ids[] to match.
 *
 * Memory: exo_initial_read holds the graph's names in memory (the names
 * file's bytes, 8 bytes per node of offsets and a hash table of 8-byte
 * slots, a power of 2 at least twice the nodes: 16 to 32 bytes per node)
 * and a set of the names the graph lacks (exo_seqs.h's nameset); its
 * result is 16 bytes per node (stable_old and initial), and computing
 * initial sorts 16-byte pairs, one per listed node, once the names are
 * freed. Peak: the names file plus 40 to 56 bytes per node. Time: one hash
 * per name and per line (10^6 nodes in about 0.3 s).
 * exo_stable_ids sorts 16-byte (old, new) pairs, one per listed node, plus
 * 8 bytes per new cluster (ids[] is the caller's, 8 more); exo_stable_order
 * 16 bytes per cluster. Time: O(n log n) (qsort). */
#ifndef EXO_INITIAL_H
#define EXO_INITIAL_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"

/* The largest old cluster id a file may hold (2^53 - 1: exact in doubles,
 * and new ids above it still fit). */
#define EXO_INITIAL_MAX_ID ((((uint64_t)1) << 53) - 1)
/* Bytes per node of the result, held for the clustering calls. */
#define EXO_INITIAL_NODE_BYTES 16u
#define EXO_INITIAL_MISSING_MAX 256 /* bytes of the first missing name kept */

typedef struct exo_initial {
  uint64_t n;
  uint64_t *stable_old; /* n entries (above) */
  uint64_t *initial;    /* n entries (above) */
  uint64_t lines;       /* data lines read (header and blank lines not) */
  uint64_t listed;      /* nodes of the graph the file lists */
  uint64_t missing;     /* distinct names of the file the graph lacks */
  uint64_t clusters;    /* distinct old clusters among the listed nodes */
  uint64_t max_old;     /* the largest cluster id of the file (every line) */
  double seconds;       /* the read's time */
  char first_missing[EXO_INITIAL_MISSING_MAX]; /* "" when none */
} exo_initial;

/* On failure *out holds nothing to free. */
exo_status exo_initial_read(exo_initial *out, const char *path, char sep,
                            const char *names_path, uint64_t n, exo_ctx *ctx);
void exo_initial_free(exo_initial *in); /* NULL-safe; leaves *in zeroed */

typedef struct exo_stable_counts {
  uint64_t kept, merged, split, fresh, moved;
} exo_stable_counts;

/* clusters[0..n) in 1..k (first appearance order), old[0..n) as
 * stable_old; ids gets k + 1 entries (ids[0] unused): the stable id of each
 * cluster. EXO_ELIMIT if the new ids would pass 2^64 - 1. */
exo_status exo_stable_ids(const uint64_t *clusters, uint64_t n, uint64_t k,
                          const uint64_t *old, uint64_t old_max, uint64_t *ids,
                          exo_stable_counts *counts, exo_ctx *ctx);

/* Renumber clusters[0..n) (1..k) so that ids[c] increases with c, and
 * permute ids[1..k] alike. */
exo_status exo_stable_order(uint64_t *clusters, uint64_t n, uint64_t k, uint64_t *ids,
                            exo_ctx *ctx);

#endif
