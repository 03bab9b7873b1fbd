/* exo_budget.c: the split of memory_limit (contract in exo_budget.h). */
#include "exo_budget.h"

#define KIB ((uint64_t)1 << 10)
#define MIB ((uint64_t)1 << 20)

static const exo_share_def TABLE[EXO_SHARE_COUNT] = {
    {EXO_SHARE_SELFNORM_READ, "selfnorm_read", 8, 0, 64 * KIB, 16 * MIB},
    {EXO_SHARE_REGIONS_SORT, "regions_sort", 2, 0, MIB, 0},
    {EXO_SHARE_LP_READ, "lp_read", 4, 1, 64 * KIB, 64 * MIB},
    {EXO_SHARE_REFINE_READ, "refine_read", 8, 1, 64 * KIB, 64 * MIB},
    {EXO_SHARE_REFINE_TABLE, "refine_table", 4, 1, MIB, 0},
    {EXO_SHARE_LEIDEN_READ, "leiden_read", 4, 0, 64 * KIB, 64 * MIB},
    {EXO_SHARE_LEIDEN_HOLD, "leiden_hold", 4, 0, 0, 0},
    {EXO_SHARE_LEIDEN_OWN_W, "leiden_own_w", 8, 0, 0, 0},
    {EXO_SHARE_LEIDEN_AGG, "leiden_agg", 4, 0, 0, 0},
    {EXO_SHARE_LEIDEN_AGG_MAX, "leiden_agg_max", 2, 0, 0, 0},
    {EXO_SHARE_TABLE_READ, "table_read", 8, 0, 64 * KIB, 16 * MIB},
    {EXO_SHARE_TABLE_NAMES, "table_names", 2, 0, 1, 0},
    {EXO_SHARE_DIST_SORT, "dist_sort", 2, 0, 0, 0},
    {EXO_SHARE_DIST_READ, "dist_read", 4, 0, MIB, 64 * MIB},
    {EXO_SHARE_DIST_EXCHANGE, "dist_exchange", 16, 0, MIB, 0},
};

#define PARSE_RESERVE (4 * MIB)
#define PARSE_RESERVE_PER_THREAD (7 * MIB)

const exo_share_def *exo_budget_table(void) { return TABLE; }

uint64_t exo_budget_share(uint64_t memory_limit, exo_share id, uint32_t parts) {
  if ((unsigned)id >= EXO_SHARE_COUNT) return 0;
  const exo_share_def *d = &TABLE[id];
  uint64_t b = memory_limit / d->divisor;
  if (d->per_part && parts > 1) b /= parts;
  if (d->min && b < d->min) b = d->min;
  if (d->max && b > d->max) b = d->max;
  return b;
}

uint64_t exo_budget_parse_reserve(int threads) {
  return PARSE_RESERVE + (threads > 1 ? (uint64_t)threads * PARSE_RESERVE_PER_THREAD : 0);
}

uint64_t exo_budget_parse(uint64_t memory_limit, int threads) {
  const uint64_t reserve = exo_budget_parse_reserve(threads);
  return memory_limit > 2 * reserve ? memory_limit - reserve : memory_limit / 2;
}

uint64_t exo_budget_runs(uint64_t parse_budget, uint64_t table_bytes) {
  const uint64_t floor = parse_budget / 4;
  return parse_budget > floor + table_bytes ? parse_budget - table_bytes : floor;
}
