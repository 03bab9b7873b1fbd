/* exo_leiden.h: the Leiden algorithm (Traag, Waltman & van Eck 2019) on the
 * CSR files of exo_record.h, with the edges on disk and the node state in
 * memory.
 *
 * Graph. Arc weights are taken as |w|, so a directed graph is clustered as
 * the undirected graph with one edge per directed edge (both stored arcs of
 * a directed edge a->b count once each, at a and at b). Parallel arcs add
 * up. A self-loop arc (v, v, w) of the input graph counts 2|w| (both ends
 * at v, as igraph counts loops in degrees); self-loops of coarse graphs are
 * already stored doubled.
 *
 * Objective. Every node v has a weight w_v: its degree k_v (sum of its arc
 * weights) for modularity, its number of input nodes (1 at the start) for
 * CPM. For a partition, with W_C the total node weight of community C and
 * in_C the total weight of the arcs with both ends in C (each edge counted
 * from both ends), the quality is
 *   modularity: Q = sum_C (in_C - g W_C^2 / 2m) / 2m,  2m = sum of all w_v,
 *   CPM:        H = sum_C (in_C / 2 - g W_C (W_C - 1) / 2),
 * g = resolution. Moving v from A to B changes it by a positive multiple of
 *   gain(v, B) - gain(v, A - v),  gain(v, X) = k_vX - g' w_v W_X,
 * k_vX being the weight of v's arcs to X (self-loops excluded) and
 * g' = g / 2m (modularity) or g (CPM).
 *
 * Weights. Coarse arcs are stored as floats, and a coarse arc is a sum of
 * input arcs: when the sum of all arc weights (each edge from both ends,
 * input self-loops twice) exceeds FLT_MAX / 4 (input weights near the
 * largest float), the coarse levels hold every weight divided by the
 * smallest power of 2 that brings that sum below it, so that no sum
 * overflows. Scaling by a power of 2 is exact: modularity, the moves and
 * the communities are those of the unscaled graph (CPM's coarse levels use
 * resolution / that factor, and its quality is multiplied back); only
 * weights that the division makes subnormal (a graph holding weights both
 * above ~1e37 and below ~1e-30) lose precision. For CPM the sum takes one
 * pass over the input arcs at the first aggregation of a run (none with
 * resolution_per_strength, which has it). Below that bound nothing
 * changes.
 *
 * One iteration runs levels until a level's local moving leaves every node
 * in its own community:
 * 1. Local moving: sweeps over the nodes in the seeded order of exo_lp (blocks
 *    of EXO_LEIDEN_BLOCK ids in increasing order, a random permutation per
 *    sweep XORed with a random mask per block). Every node is active at the
 *    start; an active node met is deactivated and moved to the community of
 *    largest gain among its neighbours' communities, an empty community and
 *    its own (kept on ties; among other ties, the first met in its
 *    adjacency list wins; a move must beat staying by more than
 *    1e-12 * k_v). After a move, the neighbours outside the new community
 *    become active (processed later in this sweep when their position comes
 *    later, else in the next). The level's local moving ends when no node
 *    is active. That is the rule on a level of one lane; larger levels run
 *    their first sweeps in lanes (below).
 * 2. Refinement (the greedy variant of the paper's): the refined partition
 *    starts from singletons. A pass computes E(v, S - v) for every node
 *    (its weight to the rest of its community S). A second pass visits the
 *    nodes in the seeded order; a node v still a singleton and
 *    well-connected, E(v, S - v) >= g' w_v (W_S - w_v), joins the refined
 *    community R of S adjacent to it with the largest
 *    gain E(v, R) - g' w_v W_R, among those that are well-connected,
 *    E(R, S - R) >= g' W_R (W_S - W_R), when that gain is >= 0 (the paper
 *    also allows gain 0; ties: the first met). The paper picks R at random with probability growing as
 *    exp(gain / theta); the greedy pick keeps what its guarantees rest on
 *    (a node only joins a refined community it has arcs to, inside its own
 *    community, and both are well-connected), so every refined community
 *    is connected, and the randomness that remains is the seeded order.
 * 3. Aggregation: each refined community becomes a node whose weight is
 *    the community's weight, numbered by first appearance in id order;
 *    every arc (u, v, w) becomes (r(u), r(v), |w|) (input self-loops 2|w|),
 *    sorted with exo_sort into the next level's CSR, parallel arcs summed.
 *    The next level starts with every coarse node in the community of its
 *    members.
 * The final communities are those of the last level, mapped back to the
 * input nodes through a file of per-node coarse ids. With iterations > 1
 * the whole algorithm is run again from level 0 starting from the previous
 * iteration's communities, until an iteration moves no node or does not
 * raise the quality by more than 1e-12 of it, or the count is reached
 * (iterations = 0: no count but EXO_LEIDEN_MAX_ITERATIONS). An iteration
 * that lowers the quality (moves made in lanes at the same time can) ends
 * the run with the previous iteration's communities, read back from the
 * file it started from: a higher cap never returns a lower quality. Every
 * community of the result is connected: it is one node of the last level,
 * a refined community. (The one exception: a level whose refinement merges
 * nothing although some community has several nodes, which needs every
 * such node's gain to be within rounding of 0; the run then stops with
 * that level's communities.)
 *
 * Reuse (iterations other than 1, no atoms). Every refined community a round
 * builds, at any level, moves as one node from then on, so it lies inside
 * one community of the round's result. The coarse levels a round builds are
 * therefore kept (offsets, adjacency, node weights and the map from the
 * level below: temporary files; an adjacency handed to the next level in
 * memory is written as well). In a later round, a level whose local moving
 * moves no node, and whose graph is the kept one (level 0, or a level
 * reached by reuse), skips refinement and aggregation: the next level is the
 * kept one, its initial communities those of the level (each coarse node
 * takes its first member's community, numbered by first appearance in
 * coarse-id order, as aggregation numbers them). The kept refinement is one
 * of the current partition, so this is still a Leiden step, and a round that
 * moves no node at any level returns its start exactly. A level that is
 * refined and aggregated afresh replaces the kept levels above it; a round's
 * last level drops those beyond it. Temporary disk: the kept coarse levels,
 * the sum of a round's coarse graphs (about the input graph's size on
 * planted graphs) where two levels were alive at a time.
 * exo_leiden_result.reused counts the levels that reused.
 *
 * Lanes (local moving on several threads; the engine is exo_sweep.h, whose
 * determinism contract this is an instance of). A level's blocks are cut into
 * L = min(EXO_LEIDEN_LANES, blocks / EXO_LEIDEN_LANE_MIN_BLOCKS, max_lanes
 * if set) lanes, each a run of whole blocks with about m / L adjacency
 * entries; L depends on the level's n and m only (levels under 32 blocks,
 * 32768 nodes, are one lane and follow the rule above exactly). With L > 1
 * the first EXO_LEIDEN_LANE_SWEEPS sweeps of the level run in epochs: in
 * each, every lane processes its next EXO_LEIDEN_EPOCH_BLOCKS blocks (the
 * sweep's permutation, drawn as before, XORed with a mask per block from
 * the lane's own seeded stream), deciding with the rule above on its own
 * view: the communities of its own nodes live, those of other lanes' nodes
 * as of the last sync point (a published copy), and the totals W_C and
 * member counts as of the last sync point plus the lane's own moves since.
 * An empty community comes from the lane's pool (up to EXO_LEIDEN_LANE_POOL
 * ids handed out at each sync point from the stack of empty ids, lane 0
 * first; a lane whose pool is empty keeps the node where it is). Activating
 * a node of the own lane is immediate; a node of another lane goes to the
 * lane's outbox. The sync point (caller's thread) applies the lanes' moves
 * in lane order to W_C, the member counts and the published copy, pushes
 * the communities they emptied, activates the outboxes' nodes, and refills
 * the pools. Later sweeps of the level run as one lane (every read live),
 * which ends local moving as the rule above does (each move then raises
 * the quality). What a lane does in an epoch depends only on the state at
 * the epoch's start and on the lane, never on which thread runs it.
 * Testing hook: max_lanes caps L (1 = the one-lane rule on every level);
 * the CLI sets it from the environment variable EXOLABEL_MAX_LANES.
 *
 * All randomness comes from `seed`; nothing depends on memory_limit (the
 * buffers change how the files are read, not the order in which nodes and
 * arcs are met) or on `threads`. Threads: local moving's lanes run on
 * min(threads, L) threads, the epoch's lanes handed out to them in turn.
 * The passes that split a level's blocks or communities run on `threads`
 * threads on levels of 2 * EXO_LEIDEN_LANE_MIN_BLOCKS blocks or more, and
 * on smaller ones of 2 blocks or more with EXO_LEIDEN_THREAD_ARCS arcs or
 * more (coarse levels of a few thousand nodes with hundreds of arcs each);
 * on other levels on the caller's thread. These passes follow. Refinement
 * (with T > 1 threads `-v` says "leiden refinement: T threads"): its first
 * pass (E(v, S - v) for every node, each node's value its own) splits the
 * blocks into `threads` runs read side by side; its merging pass splits
 * the communities into `threads` parts by a hash of their id, and each
 * thread reads every block and decides for the nodes of its communities,
 * in the seeded order (a node's decision reads and changes only the
 * refined communities of its own community, so each community sees the
 * decisions of one thread in the same order; the bitmap of merged nodes is
 * shared, set and read atomically). On levels of any size whose local
 * moving was one sweep that visited every node and moved none (level 1
 * after a converged level 0, and level 0 of every iteration after the
 * first, as a rule), the first pass reads no arc: each visit's tally held
 * the weight of the node's arcs to its own community, summed in list order
 * as the pass sums them (the same double), kept in 8 bytes per node while
 * the level's 8 bytes per node fit the share leiden_own_w of exo_budget.h
 * (else the pass reads the
 * arcs as above). The aggregation's tally pass (each node's arcs summed by
 * coarse neighbour) runs in rounds: the next
 * blocks are cut into at most T runs of whole
 * blocks, each with at most a record buffer's worth of arcs, tallied side by
 * side into the threads' buffers, whose records the caller's thread then
 * adds to the sort in block order (the records and the order of one
 * thread; a block with more arcs than a buffer holds is tallied by the
 * caller's thread alone). When the aggregation fits memory_limit in memory
 * (below), whole or in at most 4 ranges of consecutive coarse ids, it is
 * instead, per range, one step (T runs of about m / T arcs, each writing
 * the sums of its nodes of the range as row entries into its own part of
 * one array and counting them per coarse id; blocks without such a node
 * are not read) and the range's coarse rows are built from those parts:
 * each part's thread copies each node's entries to the part's own place in
 * the node's row (a row's entries in fine-id order); then T threads on any
 * level, each owning a run of the range's rows, sum each row's equal
 * neighbours in that order in float and sort the row: the sorter's
 * entries, the same bytes. Every step reads each entry once, whatever T.
 * The input graph's degree pass (modularity, level
 * 0 of the first iteration) splits the blocks into T runs, each writing
 * its part of the degree file. The quality pass and the aggregation's
 * relabelling run on the caller's thread; with threads = T > 1 the
 * aggregation's external sort sorts and writes its runs on a second
 * thread and splits its final merge into T key ranges (exo_sort.h: the
 * coarse CSR is byte for byte the same for every T). So T changes only the
 * time: labels, quality and every count are the same for any T.
 *
 * Reading: a level is held whole in memory when its adjacency file fits
 * the read buffer (read once when the level is opened) or when the
 * previous level's aggregation built it in memory and it takes at most a
 * quarter of memory_limit (or the read buffer, where that is more): then it
 * is handed over as it is and never written (that level has no adjacency
 * file). Every pass finds a held level's lists there. Any other level
 * is read a block's lists at a time, except in
 * local moving, where a block with fewer than LD_WHOLE_BLOCK (16) active
 * nodes has only those nodes' lists read.
 *
 * Memory per node of the current level (ids are u32 while n < 2^32, else
 * u64): community id 4 (8), refined community id 4 (8), community weight
 * W_C 8 (communities are numbered by node ids), and two 8-byte slots
 * shared by the phases: local moving keeps the member count of each
 * community and the stack of empty community ids there, refinement the
 * refined communities' weights W_R and their E(R, S - R); plus an active /
 * singleton bitmap, 1/8. Total 32.125 bytes per node (40.125 with u64 ids).
 * Local moving adds 8 bytes per node (each visit's weight to the node's
 * own community, which refinement then takes over as its E(v, S - v),
 * freeing the stack of empty ids instead) only on levels of at most
 * the same number of nodes (the share leiden_own_w of exo_budget.h).
 * Node weights and CSR offsets are read from disk a block at a time.
 * While a level's local moving runs in lanes, the published copy of the
 * communities lives in the refined ids (the identity again afterwards), so
 * no byte per node is added; per lane a change list (64 KiB), two tables of
 * the epoch's changes (exo_tally, 448 KiB) and a bitmap (8 KiB) filtering
 * lookups in them, and an outbox (8 bytes per activation of another lane's
 * node in an epoch): at most 16 lanes, about 8 MiB plus the outboxes; per
 * lane worker, with u32 ids, the (neighbour, community) pairs of the node
 * it last tallied, 8 bytes per arc of lists up to 65536 arcs (at most
 * 512 KiB; a moved node's neighbours are activated from them). Each thread
 * reading (lanes, refinement's two passes, the aggregation's tally pass,
 * the degree pass) has a gain tally (a visit uses a prefix of the table
 * fitted to the node's degree); with W of them
 * they share the read buffer when it holds the whole level, else each has
 * 1/W of the buffer (the first in the level's own buffer); refinement
 * keeps the block masks of its merging pass, 4 bytes per block. Input
 * nodes: the coarse-id file is on disk; only the final labels (8 bytes per
 * node, returned) and the renumbering scratch of exo_output (8) are in
 * memory at the end, after everything else is freed. Apart from that:
 * the adjacency read buffer (an exo_csr_window of exo_csr.h;
 * the share leiden_read of exo_budget.h), or instead the whole adjacency
 * of a level handed over (at most the share leiden_hold), a gain tally
 * (exo_tally) of about 56 bytes per entry of the level's longest adjacency
 * list (a power of two of 24-byte slots, at least twice that length, and an
 * 8-byte index per two slots; never more than for n entries), and the
 * sort's buffers during aggregation (memory_limit, less what a held level
 * takes beyond the read buffer and less the tally pass's
 * record buffers: with T > 1 on a level of 32 blocks or more a quarter of
 * it, else 64 Ki records; at least 64 Ki records per thread, at most the
 * level's arcs and half of memory_limit; records of the sort's 12 or 20
 * bytes, exo_record.h), or instead, when the coarse ids fit u32 and these
 * fit that budget, the aggregation in memory: per arc of the level whose
 * node is in the current range, 8 bytes (the tally's entries; a node gives
 * at most one per arc, freed once they are in the rows) and 8 (the rows,
 * allocated for the entries there are); 4 per node of the level (its
 * degree, then its entry count), 8 per block; 8 (3 + W + 2T) per coarse
 * node (its offset, its row's start and end, a count per part W, and per
 * run T a marker and an entry of sort scratch) and a 1 MiB write buffer.
 * The ranges are cut so that this fits: at most 4 of them (each is a read
 * of the level), else the sort. When the coarse ids make one range and the
 * next level holds the coarse adjacency, the rows, shrunk to its entries,
 * become that level's (nothing more is allocated for it).
 * Disk: per level, the coarse CSR (at most the size of the input CSR; the
 * offsets alone for a level handed over in memory), a
 * node weight file and an initial-community file (8 bytes per coarse node
 * each), two levels at a time; per input node, the coarse-id file (8 bytes,
 * twice while it is rewritten) and, for modularity, the degrees (8). */
#ifndef EXO_LEIDEN_H
#define EXO_LEIDEN_H

#include <stdint.h>

#include "exo_ctx.h"
#include "exo_csr.h"

#define EXO_LEIDEN_BLOCK 1024u          /* ids per block (power of two) */
#define EXO_LEIDEN_MAX_ITERATIONS 100u  /* cap for iterations = 0 */
#define EXO_LEIDEN_LANES 16u           /* most lanes of local moving */
#define EXO_LEIDEN_LANE_MIN_BLOCKS 16u /* fewest blocks per lane */
/* arcs from which a level of fewer than 2 * EXO_LEIDEN_LANE_MIN_BLOCKS
 * blocks (but 2 or more) is refined and aggregated on threads all the same */
#define EXO_LEIDEN_THREAD_ARCS ((uint64_t)1 << 18)
#define EXO_LEIDEN_EPOCH_BLOCKS 2u     /* blocks of each lane per epoch */
#define EXO_LEIDEN_LANE_SWEEPS 8u      /* sweeps of a level run in lanes; then one lane */
#define EXO_LEIDEN_LANE_POOL 64u       /* empty community ids a lane may take per epoch */
#define EXO_LEIDEN_AUTO_RESOLUTION 5e-5 /* the drivers' resolution "auto": CPM
                                           with resolution_per_strength at this
                                           (benchmarks/ssn on the ssn branch) */
#define EXO_LEIDEN_AUTO_RESOLUTION_SELFNORM 2e-5 /* the same for weights that are
                                           bit scores over self scores, with
                                           strength_linked and
                                           resolution_per_component: lower
                                           than 5e-5 since the region rule
                                           (exo_regions.h) takes the
                                           multi-domain bridges away first
                                           (benchmarks/ssn/bridges_notes.md) */
#define EXO_LEIDEN_DEFAULT_ITERATIONS 2u /* what the R function and the CLI run
                                            unless told (igraph's default) */
/* The figures of "Memory" and "Disk" below that the estimate uses
 * (exo_estimate.h): the state per node of a level (u32 and u64 ids), the
 * final labels per input node, the lanes' tables (about 8 MiB) and each
 * lane worker's neighbour pairs (at most 512 KiB), an aggregation in memory
 * per arc (tally entries and rows) and per node of the finer level (its
 * degree), in at most EXO_LEIDEN_AGG_RANGES ranges of coarse ids; on disk
 * per input node the coarse-id file (8, twice while it is rewritten) and
 * the degrees or node weights (8), per coarse node the node weight and
 * initial-community files (8 each). */
#define EXO_LEIDEN_NODE_BYTES 32.125
#define EXO_LEIDEN_NODE_BYTES_WIDE 40.125
#define EXO_LEIDEN_LABEL_BYTES 8u
#define EXO_LEIDEN_LANE_TABLES_BYTES ((uint64_t)8 << 20)
#define EXO_LEIDEN_LANE_PAIRS_BYTES ((uint64_t)512 << 10)
#define EXO_LEIDEN_AGG_ARC_BYTES 16u
#define EXO_LEIDEN_AGG_NODE_BYTES 4u
#define EXO_LEIDEN_AGG_RANGES 4u /* most coarse-id ranges of an aggregation in memory */
#define EXO_LEIDEN_DISK_NODE_BYTES 24u
#define EXO_LEIDEN_LEVEL_DISK_NODE_BYTES 16u

typedef enum exo_leiden_objective {
  EXO_LEIDEN_MODULARITY = 0,
  EXO_LEIDEN_CPM = 1
} exo_leiden_objective;

typedef struct exo_leiden_params {
  exo_leiden_objective objective;
  double resolution;     /* g, finite and >= 0 */
  int resolution_per_strength; /* CPM only (EXO_EARG otherwise): 1 = g is
                            resolution * 2W / n, 2W the sum of the input
                            graph's degrees k_v (as above: |w| per arc,
                            input self-loops twice) and n its node count,
                            i.e. resolution x the mean node strength.
                            Computed once, in one sequential pass over the
                            input CSR before level 0 (exo_csr_strengths:
                            the same double for any threads and
                            memory_limit), and kept for every level and
                            iteration (coarse node weights are member
                            counts, so the scale of g must not change).
                            Memory: that pass's buffers. Reported in
                            result->resolution. */
  int strength_linked;   /* with resolution_per_strength: n counts only the
                            nodes with at least one arc (the mean strength
                            over the nodes that have an edge), counted in
                            the same pass */
  int resolution_per_component; /* with resolution_per_strength: the g of
                            each connected component is resolution x that
                            component's own mean strength (its summed
                            strengths over its node count). Done through
                            the node weights of CPM: g is computed as above
                            and node v of component K weighs
                            sqrt(S_K / mean) instead of 1 (1 where either is
                            0), so g w_u w_v = resolution x S_K for any two
                            nodes of K (communities never span components,
                            and coarse weights stay sums of their members').
                            The components are joined in the strength pass
                            (exo_csr_strengths: the same weights for any
                            threads and memory_limit; 24 bytes per node
                            while it runs, before level 0 is opened),
                            written as a file of n doubles in tmpdir and
                            read by level 0 of every iteration. */
  uint32_t iterations;   /* at most this many runs of the whole algorithm
                            (fewer when one moves nothing); 0 = until stable */
  uint64_t seed;
  uint64_t memory_limit; /* read buffer and sort buffers */
  int threads;           /* aggregation: sort's run thread and merge ranges,
                            or the in-memory rows' ranges (<= 1: the
                            caller's thread only) */
  const char *tmpdir;    /* existing directory for the coarse levels' files */
  int force_wide_ids;    /* test knob: u64 ids in memory */
  uint32_t max_lanes;    /* testing hook, not user-facing: at most this many
                            lanes in local moving (0 = no cap; 1 = the
                            sequential sweep on any graph); the CLI reads it
                            from EXOLABEL_MAX_LANES only */
  /* Optional (NULL: none), n ids each, < n (EXO_EARG naming the node
   * otherwise), held by the caller during the run (issue 57):
   * - initial: the community of each node at the start: level 0 of the
   *   first iteration starts from them instead of singletons (written to
   *   the start file that later iterations start from; the refinement
   *   still starts from singletons). Leiden started from its own converged
   *   result moves (almost) nothing and returns it.
   * - atoms: groups of nodes that stay together. At level 0 of every
   *   iteration the input graph is aggregated by the atoms without local
   *   moving or refinement: the refined partition is the atoms (W_R their
   *   summed node weights, in id order), the communities those the level
   *   opened with: in the first iteration each atom's community is the
   *   initial community of its first node (its lowest id), or the atom
   *   itself without initial; later, the previous iteration's communities
   *   (unions of atoms). The coarse levels run as usual, so every
   *   community of the result is a union of atoms (nested levels: the
   *   atoms are a finer clustering). Atoms that are n singletons are
   *   ignored. A community of the result is a connected set of atoms
   *   (an atom itself need not be connected). Memory: 8 bytes per node
   *   while the first iteration's start is written; nothing else beyond
   *   the caller's arrays. The same labels for any threads and
   *   memory_limit, as above. */
  const uint64_t *initial;
  const uint64_t *atoms;
} exo_leiden_params;

typedef struct exo_leiden_result {
  uint64_t *labels;      /* n community ids (0-based, < n); free() */
  double quality;        /* of the result, as defined above */
  double resolution;     /* the g used: params->resolution, or with
                            resolution_per_strength resolution * 2W / n
                            (0 for an empty graph) */
  uint32_t iterations;   /* iterations run (the last one's communities
                            dropped if it lowered the quality) */
  uint32_t levels;       /* levels run, over all iterations */
  uint64_t moves;        /* local moves, over all levels */
  uint64_t sweeps;       /* local-moving sweeps, over all levels */
  uint64_t merges;       /* nodes merged by refinement, over all levels */
  uint32_t reused;       /* levels that reused a kept refinement ("Reuse") */
  uint64_t peak_disk;    /* bytes of the run's own temporary files at their
                            largest, sampled after each level (the input
                            graph's CSR and the sort's runs not counted) */
} exo_leiden_result;

exo_status exo_leiden_run(const exo_csr_files *csr, const exo_leiden_params *params,
                          exo_ctx *ctx, exo_leiden_result *result);

/* ---- one level, exposed for unit tests (exo_leiden_run is made of these) -- */
typedef struct exo_leiden_level exo_leiden_level;

/* Open a level on `csr`. weights_path: a file of n doubles (the node
 * weights), or NULL for the input graph's (degrees, or 1 for CPM).
 * init_path: a file of n u64 community ids < n, or NULL for singletons.
 * input_graph: self-loop arcs count double. params->tmpdir holds the
 * level's own files (removed by exo_leiden_level_free). */
exo_status exo_leiden_level_open(const exo_csr_files *csr, const exo_leiden_params *params,
                                 const char *weights_path, const char *init_path,
                                 int input_graph, exo_ctx *ctx, exo_leiden_level **out);
/* gain(v, c) - gain(v, comm(v) - v) for the current partition (c may be
 * any community id < n; an empty one gives the gain of isolating v). */
exo_status exo_leiden_level_gain(exo_leiden_level *lv, uint64_t v, uint64_t c,
                                 double *delta);
/* Local moving until no node is active; *moves = moves made, *sweeps the
 * sweeps. */
exo_status exo_leiden_level_move(exo_leiden_level *lv, uint64_t *moves, uint64_t *sweeps);
/* Communities of the current partition (after move: non-empty ones). */
uint64_t exo_leiden_level_communities(const exo_leiden_level *lv);
/* The quality of the current partition (one pass over the arcs); call it
 * after move and before refine. */
exo_status exo_leiden_level_quality(exo_leiden_level *lv, double *quality);
/* Refinement; *merges = nodes that joined another refined community. */
exo_status exo_leiden_level_refine(exo_leiden_level *lv, uint64_t *merges);
/* Aggregate by the refined partition into coarse->offsets_path and
 * coarse->adj_path (set by the caller; n, m and wide are filled in), the
 * coarse node weights into weights_path and the coarse nodes' communities
 * (renumbered by first appearance) into init_path. Afterwards the refined
 * ids read by exo_leiden_level_partition are the coarse node ids. */
exo_status exo_leiden_level_aggregate(exo_leiden_level *lv, exo_csr_files *coarse,
                                      const char *weights_path, const char *init_path);
/* Copy the communities and the refined communities into caller arrays of
 * n entries; either may be NULL. */
void exo_leiden_level_partition(const exo_leiden_level *lv, uint64_t *comm,
                                uint64_t *refined);
void exo_leiden_level_free(exo_leiden_level *lv);

#endif
