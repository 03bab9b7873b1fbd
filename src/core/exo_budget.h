/* exo_budget.h: how memory_limit is split among the stages, in one place.
 *
 * The user gives one figure, memory_limit (bytes). Every stage that sizes
 * a buffer from it asks this module for its share; the split is the table
 * in exo_budget.c and nowhere else (the stages' headers point here, and the
 * estimate of a run's memory and disk, exo_estimate.h, which R's
 * EstimateExoLabel calls through the glue, takes its shares from here too). The stages run
 * one after another, so each may use the whole limit; within a stage the
 * shares that live at once add up to at most the limit:
 *
 *   stage (module)              share                       per part   bounds
 *   reading (exo_pipeline)      limit - reserve(threads),   -          -
 *                               or limit / 2 when the reserve is more than half
 *     the name table and the sort's runs split that; the runs keep at least
 *     a quarter (exo_budget_runs)
 *   bit-score normalisation     limit / 8 for each of its four buffers      64 KiB - 16 MiB
 *   region rule (exo_regions)   limit / 2 for the sort of dropped pairs     >= 1 MiB
 *   label propagation (exo_lp)  limit / 4 read window       / workers  64 KiB - 64 MiB
 *   merge passes (exo_refine)   limit / 8 read buffers      / readers  64 KiB - 64 MiB
 *                               limit / 4 pair tables       / readers  >= 1 MiB
 *   Leiden (exo_leiden)         limit / 4 read buffer                  64 KiB - 64 MiB
 *                               limit / 4 a level held in memory
 *                               limit / 8 the node weights kept while moving
 *                               limit / 4 to limit / 2 an aggregation's sort
 *                               the limit less a held level an aggregation
 *                               built in memory (exo_leiden_agg.c)
 *   cluster table (exo_clstats) limit / 8 read buffers                 64 KiB - 16 MiB
 *                               limit / 2 the representatives' names   >= 1 byte
 *   distributed mode (exo_dist) limit / 2 the edge sort
 *                               limit / 4 read window                  1 MiB - 64 MiB
 *                               limit / 16 exchange per round          >= 1 MiB
 *
 * Per-node arrays (labels, offsets, ...) come on top: "memory_limit plus a
 * few bytes per node" (each module's header gives its bytes per node, as
 * a named constant where exo_estimate.h counts it: EXO_LP_NODE_BYTES,
 * EXO_LEIDEN_NODE_BYTES, EXO_REFINE_NODE_BYTES, ...).
 *
 * Contract: pure functions of their arguments; no allocation, no globals
 * that change. */
#ifndef EXO_BUDGET_H
#define EXO_BUDGET_H

#include <stdint.h>

typedef enum exo_share {
  EXO_SHARE_SELFNORM_READ = 0,
  EXO_SHARE_REGIONS_SORT,
  EXO_SHARE_LP_READ,
  EXO_SHARE_REFINE_READ,
  EXO_SHARE_REFINE_TABLE,
  EXO_SHARE_LEIDEN_READ,
  EXO_SHARE_LEIDEN_HOLD,
  EXO_SHARE_LEIDEN_OWN_W,
  EXO_SHARE_LEIDEN_AGG,
  EXO_SHARE_LEIDEN_AGG_MAX,
  EXO_SHARE_TABLE_READ,
  EXO_SHARE_TABLE_NAMES,
  EXO_SHARE_DIST_SORT,
  EXO_SHARE_DIST_READ,
  EXO_SHARE_DIST_EXCHANGE,
  EXO_SHARE_COUNT
} exo_share;

typedef struct exo_share_def {
  exo_share id;
  const char *name;  /* "lp_read" */
  uint32_t divisor;  /* the share is memory_limit / divisor ... */
  int per_part;      /* ... divided among the parts (readers, workers) */
  uint64_t min, max; /* ... then held within [min, max]; 0 = no bound */
} exo_share_def;

/* The table, EXO_SHARE_COUNT entries in exo_share order. */
const exo_share_def *exo_budget_table(void);

/* A stage's share of memory_limit: memory_limit / divisor, divided by
 * parts (>= 1; ignored unless per_part), then within [min, max]. */
uint64_t exo_budget_share(uint64_t memory_limit, exo_share id, uint32_t parts);

/* Reading: what the parser's buffers take off the top (4 MiB, and 7 MiB per
 * thread with several threads: exo_parse_file_arcs holds about 6.8 MiB of
 * 40-byte lines per thread), and the budget left to the name table and the
 * sort (memory_limit less that, or half the limit when the reserve is more
 * than half). */
uint64_t exo_budget_parse_reserve(int threads);
uint64_t exo_budget_parse(uint64_t memory_limit, int threads);
/* The sort's run buffers, given the parse budget and the name table's
 * bytes: what the table leaves, but never less than a quarter. */
uint64_t exo_budget_runs(uint64_t parse_budget, uint64_t table_bytes);

#endif
