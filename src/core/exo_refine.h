/* exo_refine.h: merge passes after label propagation (the `refine` option).
 *
 * Label propagation tends to split a community into several stable
 * fragments when many edges leave it (high mixing). A merge pass looks at
 * the clusters as super-nodes: for a cluster C, in(C) is the total weight
 * of the arcs with both ends in C (each undirected edge counted from both
 * ends) and w(C, D) the total weight of the arcs from C's nodes to cluster
 * D's nodes (each edge once); vol(C) is the total weight of the arcs at
 * C's nodes and T that of all arcs. The excess of D for C is
 * x(C, D) = w(C, D) - gamma vol(C) vol(D) / T, the weight above what random
 * wiring with the same volumes would give (modularity at the resolution
 * gamma, exo_quality.h: label propagation's own resolution). Let D* be the
 * cluster with the largest excess (ties: the smaller cluster number). C
 * wants to move when x(C, D*) > 0 and x(C, D*) >= ratio * in(C). When C
 * and D* want to move into each other, the one with the smaller number
 * stays. A cluster that wants to move joins D* only when D* itself stays
 * (no chains within a pass). D takes the clusters that want to join it in
 * order of number while each newcomer C keeps x(C, D) - gamma vol(C) V / T > 0,
 * V being the volume of the newcomers D has taken in this pass; since two
 * newcomers' mutual excess is at least -gamma vol vol' / T, every group
 * merge raises the modularity (at gamma) of the partition, so with gamma
 * > 0 the passes cannot flood a graph into one cluster from a partition
 * with positive modularity. A pass that merges nothing ends the
 * refinement. Arc weights are taken as |w| (a directed graph is refined as
 * undirected).
 *
 * Cutoff (self_loop_cutoff, label propagation's add_self_loops rule): D
 * can be C's best neighbour only when at least one arc between C's and
 * D's nodes, in either direction, has raw weight |w| >= the cutoff (the
 * comparison exo_lp.c makes); the sums above still count every arc. 0 =
 * every arc qualifies. exo_graph_cluster_refined passes label
 * propagation's cutoff.
 *
 * Out of core: each pass reads the CSR adjacency file sequentially,
 * through a buffer. The cluster pairs {C, D} (each unordered pair once,
 * 16 bytes) live in a hash table bounded by the memory budget; when they do
 * not fit, the clusters are split into G groups by number (C mod G) and the
 * file is read once per group. G is estimated from where the table filled
 * up (and from the previous pass's pair count), so a pass rarely reads the
 * file more than G + 1 times. The results do not depend on G: every sum
 * (a pair's weight, in(C), the volumes) is taken in file order within the
 * read of C's group, and the best neighbour is the maximum of a total
 * order whatever the order of the offers.
 *
 * Screen: when a pass's first read fills the table, the pass (and every
 * later one) first reads the file once more, its nodes split between the
 * readers, to bound the pairs: each cluster's volume and internal weight
 * (floats rounded down at every add, so lower bounds however many nodes
 * add to them), and a sketch (a hashed array of sums, in the upper half
 * of the readers' tables, whose lower half stays the table) where every
 * pair's weight is added to one entry, so that the entry is at least the
 * pair's weight.
 * The tally then keeps only the pairs whose bound could make them the best
 * neighbour of a cluster that moves (an excess above 0 and at least ratio
 * times the internal weight of one of the two), with margins for rounding.
 * Each cluster that moves has its best pair kept, a cluster that does not
 * move still does not, and the best neighbours of the others are never
 * used, so the result is the same as without the screen (tested): only
 * the reads change. When the screened pairs still fill the halved table,
 * the screen is dropped for the rest of the run (the tables whole again,
 * more groups): clusters with little internal weight, such as singletons,
 * keep every pair with an excess. Between solid clusters (high internal weight against
 * many light pairs, as in a large planted graph with mixing) almost every
 * pair falls, and the pass needs one group per reader instead of many.
 *
 * Threads: with threads = T > 1 there are T readers, each with its own
 * buffer and table, and G >= T (one group per cluster at most): the
 * groups are read T at a time side by side (each reader reads the whole
 * file for its group, but decodes only the arcs of its group's nodes and
 * skips the others, except the read of group 0 when the groups take
 * several waves: it sums every cluster's volume before the first offers);
 * the caller then makes the offers from the tables. A volume is the same
 * adds in file order whichever read makes them, and the total weight
 * (T of the first paragraph) is the volumes summed in cluster order. So
 * the thread count changes the time and the number of reads, not the
 * result.
 *
 * Memory: offsets 8 bytes per node, 41 bytes per cluster, the read buffers
 * (exo_csr_windows of exo_csr.h; the share refine_read of exo_budget.h)
 * and the pair tables (the share refine_table, filled to at most 3/4). */
#ifndef EXO_REFINE_H
#define EXO_REFINE_H

#include <stdint.h>

#include "exo_ctx.h"
#include "exo_csr.h"

#define EXO_REFINE_MAX_PASSES 100u
#define EXO_REFINE_RATIO 0.15 /* the threshold every driver uses (issue 25, item 3) */
/* "Memory" above, as exo_refine.c allocates it and the estimate counts it
 * (exo_estimate.h): the offsets and the labels (8 + 8 bytes per node), the
 * cluster records (41 bytes per cluster: 4 doubles or u64, the flag byte, the
 * screen's 2 floats), at most EXO_REFINE_MAX_READERS
 * readers, each with a pair table of a power of two of 16-byte slots, at
 * least EXO_REFINE_MIN_SLOTS. */
#define EXO_REFINE_NODE_BYTES 16u
#define EXO_REFINE_CLUSTER_BYTES 41u
#define EXO_REFINE_MAX_READERS 64u
#define EXO_REFINE_MIN_SLOTS 1024u
#define EXO_REFINE_SLOT_BYTES 16u

typedef struct exo_refine_params {
  uint32_t passes;       /* at most this many merge passes; 0 = none */
  double ratio;          /* merge threshold, > 0 (see above) */
  uint64_t memory_limit; /* budget for the read buffers and the pair tables */
  int threads;           /* readers side by side (<= 1: the caller's thread) */
  double self_loop_cutoff; /* >= 0; a merge needs an arc with |w| >= it (0: any) */
  double resolution;     /* gamma of the excess (exo_quality.h): label
                            propagation's resolution; 1 = modularity's; 0 =
                            any weight between clusters is excess */
  int no_screen;         /* never screen the pairs (tests: the same result) */
} exo_refine_params;

typedef struct exo_refine_result {
  uint32_t passes;   /* passes run (the last may have merged nothing) */
  uint64_t merged;   /* clusters merged into others, over all passes */
  uint64_t reads;    /* full reads of the adjacency file (the screen's included) */
  uint32_t screened; /* passes that screened the pairs */
} exo_refine_result;

/* Refine labels[0..n) holding cluster numbers 1..*num_clusters (as written
 * by exo_output_renumber). On success the labels are renumbered 1..K' in
 * order of first appearance and *num_clusters = K'. On error labels are
 * unspecified, every resource is released. */
exo_status exo_refine_merge(const exo_csr_files *csr, const exo_refine_params *params,
                            uint64_t *labels, uint64_t *num_clusters, exo_ctx *ctx,
                            exo_refine_result *result);

#endif
