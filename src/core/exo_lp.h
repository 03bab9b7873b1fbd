/* exo_lp.h: asynchronous weighted label propagation that streams the CSR
 * (see exo_record.h for its files) in sequential sweeps.
 *
 * Every node starts with its own label (its id; params->initial[v] when
 * given) and is active. The run is a series of sweeps. A sweep visits the nodes in blocks of EXO_LP_BLOCK
 * consecutive ids, blocks in increasing order; inside a block the order is a
 * seeded random permutation (one random permutation of 0..EXO_LP_BLOCK-1 per
 * sweep, XORed with a random mask per block), which keeps the I/O sequential
 * while breaking the bias of processing neighbouring ids in id order. Each
 * active node met is deactivated, its visit counter incremented, and then it
 * is processed:
 *
 * For each label held by v's in-arcs (all arcs when undirected; arcs with
 * w > 0 when directed), sum the attenuated weights w' = w * (1 - p^a * d_u^a)
 * where d_u is the neighbour's hop distance from its label's origin, p the
 * share of nodes that changed label in the previous sweep (0 in the first)
 * and a = attenuation (a = 0: no attenuation, w' = w). A label is eligible
 * only if at least one of its arcs has raw weight >= self_loop_cutoff. The
 * eligible label with the largest positive sum wins, where with a
 * resolution gamma > 0 the sums are first penalised (see below). Ties
 * (equal scores) are
 * broken by the visit number k of v (1 on its first visit): while
 * k <= T = min(EXO_LP_TIE_VISITS, floor(3 * max_visits / 4)) the winner is a
 * uniform pick among all tied labels, v's current label included (so v may
 * keep it or move); when k > T, v keeps its current label if it is among the
 * best, otherwise the pick is uniform among the tied. Picks are seeded (one
 * draw per tied candidate, candidates met in adjacency order). The open
 * picks let fragments of one community merge on unweighted graphs, where
 * exact ties are common; the later visits stop oscillation. On a change, v's
 * distance becomes 1 + the smallest distance among the winning arcs' sources
 * and every out-neighbour (all neighbours when undirected; arcs with w < 0
 * when directed) whose label differs is activated unless it is active
 * already or has been processed max_visits times.
 *
 * Volume penalty (resolution gamma > 0; 0 = none). Let m be the number of
 * adjacency entries (arcs), d_v the number of v's voting arcs, s_v the sum
 * of their raw weights and vol(l) the number of arcs at the nodes that hold
 * label l (v's own arcs left out when l is v's current label). By chance v
 * would have about e(l) = gamma * d_v * vol(l) / m of its arcs into l (the
 * configuration model's expectation, counted in arcs). The score of an
 * eligible label with a positive sum is
 *   score(l) = sum(l) - floor(e(l) + 1/2) * s_v / d_v,
 * the sum minus the chance arcs rounded to the nearest whole arc, each
 * worth v's mean arc weight. The highest score wins (ties as above). When
 * cur is not among the scored labels, v moves only if the winner scores
 * more than staying, -floor(e(cur) + 1/2) * s_v / d_v (0 for a node alone
 * in its label), or scores the same and its unrounded score
 * sum - e(l) * s_v / d_v beats staying's unrounded -e(cur) * s_v / d_v (a
 * tie made by the rounding is decided by the modularity gain, so a path
 * a - b - c ends as one cluster, as without the penalty). Unrounded, the score would
 * be LPAm's (modularity gain of the move, with the null model's volumes
 * counted in arcs); rounding leaves every label that v would meet by
 * chance on fewer than half an arc unpenalised, so the small labels of
 * ordinary communities compete (and tie) exactly as without the penalty,
 * and only labels holding a large share of the graph's arcs
 * (share >= 1 / (2 gamma d_v)) pay: that is what stops one label from
 * flooding a noisy graph. The volumes are kept in a u64 per label (labels
 * are node ids) and updated on every change (vol(old) -= deg(v),
 * vol(new) += deg(v), deg counting all of v's arcs); they start as the
 * degrees, which the offsets give, so no pass over the edges is added. In
 * "directed" mode d_v and s_v count in-arcs and vol all arcs. The scoring
 * is exo_lprule.h's, which the distributed supersteps (exo_dist.h) share.
 *
 * Lanes and epochs (the parallel sweep; the engine is exo_sweep.h, whose
 * determinism contract this is an instance of). The blocks are cut into L lanes,
 * L = min(EXO_LP_LANES, blocks / EXO_LP_LANE_MIN_BLOCKS, max_lanes if set)
 * and at least 1, each a run of whole blocks with about m / L adjacency
 * entries (cut points from the offsets). L depends on n and m (and the
 * max_lanes testing hook) only, never on `threads` or memory_limit. A
 * sweep is a series of epochs: in each, every lane processes its next
 * EXO_LP_EPOCH_BLOCKS blocks (blocks increasing, the
 * sweep's permutation XORed with a per-block mask inside a block), and the
 * epoch ends with a sync point. Inside its lane a node reads its
 * neighbours' labels and hop distances live; a neighbour in another lane
 * is read from the published copy, which the sync point updates with every
 * label the lanes changed in the epoch (so it is at most one epoch old).
 * With a resolution, all lanes read the label volumes as of the last sync
 * point, and the sync point applies the epoch's changes to them. Activating
 * a node of the own lane is immediate (the rule below); a node of another
 * lane goes to the lane's outbox, and the sync point activates the outboxes'
 * nodes (lane order, then the order they were added) unless active already
 * or out of visits. Tie-breaking draws come from one seeded stream per lane
 * and the block masks from another per lane; the sweep's permutation is
 * drawn once per sweep. What a lane does in an epoch therefore depends on
 * the state at the epoch's start and on the lane alone, never on which
 * thread runs it or when: `threads` (lanes run at once, at most L) changes
 * nothing in the result (labels, visits, changes, sweeps), only the time.
 * With L = 1 (fewer than 2 * EXO_LP_LANE_MIN_BLOCKS blocks, i.e. under 8192
 * nodes) the sweep is one epoch, every read is live, lane 0's streams are
 * those of the sequential sweep (seeded from `seed` as before), and the run
 * is exactly the sequential rule described above. Testing hook:
 * params.max_lanes caps L (1 = the sequential sweep on any graph, the
 * reference of benchmarks/quality/lanes_quality.sh); the CLI sets it from
 * the environment variable EXOLABEL_MAX_LANES, which is not a user option.
 *
 * A node activated during a sweep is processed in the same sweep when its
 * position comes later (a later block of its lane, or later in the current
 * block's order; for an activation from another lane, a block of its lane
 * not yet reached when the sync point comes), otherwise in the next sweep
 * (asynchronous update). The run ends
 * when no node is active. max_visits = 1 processes every node exactly once
 * (T = 0: the current label is kept when among the best). max_visits = 0
 * picks max(EXO_LP_AUTO_MIN_VISITS, floor(sqrt(max degree))) (capped at
 * EXO_LP_MAX_VISITS), so T = 12 with the automatic cap. All randomness comes
 * from `seed`; the processing order and therefore the result depend on
 * neither memory_limit nor threads.
 *
 * I/O: each worker (min(threads, L) of them) reads through its own buffer
 * of its share lp_read (exo_budget.h, divided among the workers); a
 * lane's epoch reads its stretch of the adjacency file in increasing offset
 * order, starting with a fresh window (so a page at each end of an epoch's
 * stretch may be read twice). A read
 * covers the next active nodes' lists of the epoch for about 256 KiB (so
 * that they are still in the CPU caches when tallied; a list or a block's
 * active part is always read whole when it fits the buffer), reading
 * through gaps of inactive lists shorter than EXO_LP_GAP bytes and seeking
 * forward past longer ones; the following stretch is announced to the kernel
 * (posix_fadvise WILLNEED) so that it is read while this one is processed,
 * unless this one came whole from the page cache (exo_csr.h).
 * Only two things read backwards: the start of a block when its active
 * lists do not fit in the buffer together, and an adjacency list longer than
 * the buffer, which is processed in chunks and read a second time when the
 * node changes label.
 *
 * Memory per node: offsets 8, labels 4 (8 with more than 2^32 nodes),
 * visit counter 2, active bit 1/8, label volume 8 (only with resolution >
 * 0, the default of the drivers), hop distance 4 (only with attenuation) =
 * 22.1 bytes (14.1 with resolution 0, 4 more with attenuation); with L > 1
 * also the published labels 4 (8 wide) and published hop distances 4 (only
 * with attenuation): 26.1 bytes with the drivers' defaults. At the end the
 * other arrays are freed and the labels widened to u64 for the caller (12
 * bytes per node for a moment). Plus, per worker, the read buffer and a
 * label tally sized to the largest number of distinct labels around a node;
 * per lane (L > 1) its change list (24 bytes per label change of the epoch,
 * at most EXO_LP_EPOCH_BLOCKS * EXO_LP_BLOCK * 24 = 48 KiB) and its outbox
 * (8 bytes per activation of another lane's node in the epoch; at most the
 * arcs of the nodes the lane changed in the epoch, in practice a few KiB;
 * both keep their largest size until the end). The per-node arrays are backed by
 * huge pages where the kernel allows (the labels are read at random). */
#ifndef EXO_LP_H
#define EXO_LP_H

#include <stddef.h>
#include <stdint.h>

#include "exo_csr.h"
#include "exo_ctx.h"

#define EXO_LP_MAX_VISITS 32767u
#define EXO_LP_AUTO_MIN_VISITS 16u       /* smallest automatic cap */
#define EXO_LP_TIE_VISITS 12u            /* most visits with open tie-breaking */
#define EXO_LP_RESOLUTION 1.0           /* the drivers' default resolution */
#define EXO_LP_BLOCK 1024u               /* ids per block (power of two) */
#define EXO_LP_GAP ((uint64_t)256 << 10) /* read through shorter gaps */
#define EXO_LP_LANES 16u                 /* most lanes */
#define EXO_LP_LANE_MIN_BLOCKS 4u        /* fewest blocks per lane */
#define EXO_LP_EPOCH_BLOCKS 2u           /* blocks per lane per epoch */
/* The memory per node above, as exo_lp.c allocates it and the estimate
 * counts it (exo_estimate.h), with the drivers' defaults (resolution > 0)
 * and lanes (graphs of 8192 nodes or more): offsets, labels and published
 * labels, visits, the active bit, label volumes; with more than 2^32 nodes
 * the labels are 8 bytes; attenuation adds the hop distance and its
 * published copy. */
#define EXO_LP_NODE_BYTES (8 + 4 + 4 + 2 + 1.0 / 8 + 8)      /* 26.125 */
#define EXO_LP_NODE_BYTES_WIDE (8 + 8 + 8 + 2 + 1.0 / 8 + 8) /* 34.125 */
#define EXO_LP_ATTENUATION_NODE_BYTES (4.0 + 4)

typedef struct exo_lp_params {
  int directed;
  double self_loop_cutoff; /* 0 = every arc qualifies */
  double attenuation;      /* 0 = none */
  double resolution;       /* gamma of the label score's volume penalty; 0 = none */
  uint32_t max_visits;     /* 0 = automatic */
  uint64_t seed;
  uint64_t memory_limit;   /* sizes the adjacency read buffers only */
  uint32_t threads;        /* lanes run at once (0 = 1); never changes results */
  int force_wide_labels;   /* test knob: u64 labels in memory even when
                              every id fits in 32 bits */
  uint32_t max_lanes;      /* testing hook, not user-facing: at most this many
                              lanes (0 = no cap; 1 = the one-lane sequential
                              sweep, the reference of the quality checks). The
                              CLI reads it from EXOLABEL_MAX_LANES only */
  const uint64_t *initial; /* NULL, or n labels < n (EXO_EARG naming the node
                              otherwise; the caller holds them during the run):
                              node v starts with label initial[v] instead of
                              v (a previous clustering, new nodes alone);
                              the label volumes start as the sums of the
                              degrees by label; everything else (every node
                              active, the visit cap) is unchanged */
} exo_lp_params;

typedef struct exo_lp_result {
  uint64_t *labels;        /* n labels (node ids of the label's origin); free() */
  uint32_t max_visits;     /* cap actually used */
  uint64_t pops;           /* nodes processed */
  uint64_t changes;        /* label changes */
  uint64_t rounds;         /* sweeps */
  uint64_t bytes_read;     /* adjacency bytes read (gaps read through included) */
  uint64_t reads;          /* read calls on the adjacency file */
  uint64_t lanes;          /* lanes of the sweep (from n and m only) */
  uint64_t epochs;         /* epochs (sync points) of the whole run */
} exo_lp_result;

exo_status exo_lp_run(const exo_csr_files *csr, const exo_lp_params *params,
                      exo_ctx *ctx, exo_lp_result *result);

/* The visit cap for `asked` (0 = automatic from the largest degree, as
 * above; larger than EXO_LP_MAX_VISITS is capped) and *tie_visits = T. Also
 * used by the distributed run (exo_dist.h). */
uint32_t exo_lp_visit_cap(uint32_t asked, uint64_t max_degree, uint32_t *tie_visits);

#endif
