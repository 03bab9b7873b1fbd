/* exo_lp.h: asynchronous, queue-based weighted label propagation over the
 * CSR (see exo_record.h for its files).
 *
 * Every node starts with its own label (its id). A FIFO queue starts with all
 * nodes in a random order drawn from `seed`. Popping v: for each label held
 * by v's in-arcs (all arcs when undirected; arcs with w > 0 when directed),
 * sum the attenuated weights w' = w * (1 - p^a * d_u^a) where d_u is the
 * neighbour's hop distance from its label's origin, p the share of nodes
 * that changed label in the previous round and a = attenuation (a = 0: no
 * attenuation, w' = w). A label is eligible only if at least one of its arcs
 * has raw weight >= self_loop_cutoff. The eligible label with the largest
 * positive sum wins; when v's current label is among the best it is kept,
 * otherwise ties are broken uniformly at random (seeded). On a change, v's
 * distance becomes 1 + the smallest distance among the winning arcs' sources
 * and every out-neighbour (all neighbours when undirected; arcs with w < 0
 * when directed) whose label differs is queued unless already queued or
 * already processed max_visits times. A round is as many pops as the queue
 * held when it began; p is updated after each round. The run ends when the
 * queue is empty.
 *
 * max_visits = 0 picks max(5, floor(sqrt(max degree))) (capped at 32767).
 *
 * Memory per node: labels 8, queue 8, offsets 8, visit counter 2, distance 4
 * (only with attenuation) = 26-30 bytes; plus a buffer for one adjacency list
 * and a label tally sized to the largest number of distinct labels around a
 * node. The adjacency list of each processed node is read with pread. */
#ifndef EXO_LP_H
#define EXO_LP_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"

#define EXO_LP_MAX_VISITS 32767u

typedef struct exo_csr_files {
  const char *offsets_path;
  const char *adj_path;
  uint64_t n; /* nodes */
  uint64_t m; /* adjacency entries */
  int wide;   /* adjacency ids are u64 */
} exo_csr_files;

typedef struct exo_lp_params {
  int directed;
  double self_loop_cutoff; /* 0 = every arc qualifies */
  double attenuation;      /* 0 = none */
  uint32_t max_visits;     /* 0 = automatic */
  uint64_t seed;
  uint64_t memory_limit;   /* bound for the adjacency read buffer */
} exo_lp_params;

typedef struct exo_lp_result {
  uint64_t *labels;        /* n labels (node ids of the label's origin); free() */
  uint32_t max_visits;     /* cap actually used */
  uint64_t pops;           /* nodes processed */
  uint64_t changes;        /* label changes */
  uint64_t rounds;
} exo_lp_result;

exo_status exo_lp_run(const exo_csr_files *csr, const exo_lp_params *params,
                      exo_ctx *ctx, exo_lp_result *result);

#endif
