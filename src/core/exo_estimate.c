/* exo_estimate.c: the estimate of a run's memory and temporary disk
 * (contract in exo_estimate.h). */
#include "exo_estimate.h"

#include <math.h>

#include "exo_budget.h"
#include "exo_method.h"
#include "exo_names.h"
#include "exo_output.h"
#include "exo_record.h"

#define MIB 1048576.0
#define MERGE_RUN_BYTES (2 * MIB)   /* final merge: file buffers per sorted run */
#define STAGE_SLACK EXO_ESTIMATE_STAGE_SLACK

static const char *const STAGES[EXO_EST_STAGES] = {"read", "sort", "cluster", "refine",
                                                   "output"};

const char *exo_estimate_stage_name(int stage) {
  return stage >= 0 && stage < EXO_EST_STAGES ? STAGES[stage] : NULL;
}

#define min2 exo_estimate_min
#define max2 exo_estimate_max

/* The sort's run buffers after a name table of `table` bytes (a table
 * beyond 2^64 bytes, from an absurd node count, is held at UINT64_MAX
 * rather than converted out of range). */
static double run_memory(uint64_t limit, int threads, double table) {
  const uint64_t t = table < 18446744073709551616.0 ? (uint64_t)table : UINT64_MAX;
  return (double)exo_budget_runs(exo_budget_parse(limit, threads), t);
}

exo_status exo_estimate(const exo_estimate_in *in, exo_estimate_out *out) {
  if (!in || !out || in->threads < 1 || in->memory_limit == 0 || !(in->nodes >= 0) ||
      !(in->edges >= 0) || !(in->name_bytes >= 0) ||
      in->method < 0 || in->method >= EXO_METHOD_COUNT)
    return EXO_EARG;
  const uint64_t limit = in->memory_limit;
  const double L = (double)limit, n = in->nodes;
  const int T = in->threads;
  const int wide = n > (double)EXO_NARROW_ID_LIMIT;
  const double rec = (double)exo_rec_size(wide), adj = (double)exo_adj_size(wide);
  const double records = 2 * in->edges;

  /* reading: the name table and the run buffers share the reading budget;
   * the buffers are touched only as far as records fill them */
  const double reserve = (double)exo_budget_parse_reserve(T);
  const double nbuf = T > 1 ? 3 : 2;
  const double slots =
      max2(EXO_NAMES_INITIAL_SLOTS, pow(2, ceil(log2(max2(n, 1) / EXO_NAMES_MAX_LOAD))));
  const double table = EXO_NAMES_SLOT_BYTES * slots;
  /* while it doubles, the old table beside the new one */
  const double growing = table * (n > EXO_NAMES_MAX_LOAD / 2 * slots ? 1.5 : 1);
  const double sorted = rec * records;
  double ram_read;
  if (sorted <= run_memory(limit, T, table) / nbuf) {
    /* one buffer that never fills: it grows beside the table and the
     * parser; its radix sort (with the scratch) comes after both are freed */
    ram_read = max2(sorted + growing + reserve, 2 * sorted + STAGE_SLACK);
  } else {
    const double touched_growing = min2(run_memory(limit, T, growing), nbuf * rec * records);
    const double touched_table = min2(run_memory(limit, T, table), nbuf * rec * records);
    ram_read = max2(touched_growing + growing, touched_table + table) + reserve;
  }

  /* final merge: file buffers per run, at most the memory limit */
  const double per_run = floor(run_memory(limit, T, table) / nbuf / rec);
  const double ram_sort = min2(L, MERGE_RUN_BYTES * max2(1, ceil(records / per_run)));

  /* the method's own stages (its file says what it holds: exo_method.h) */
  const exo_estimate_graph eg = {n, records, rec, adj, wide};
  exo_estimate_need need = {0, 0, 0};
  exo_methods()[in->method].need(in, &eg, &need);
  const double ram_cluster = need.ram_cluster, ram_refine = need.ram_refine;
  const double adj_bytes = adj * records;
  /* output: the labels and the renumbering's scratch */
  const double ram_output = n * (8 + EXO_OUTPUT_SCRATCH_NODE_BYTES) + STAGE_SLACK;

  /* disk: the names file; the sorted runs (a buffer holds per_run records;
   * the last, partly filled one is merged from memory, and with several
   * threads the full one before it, still being sorted when the input ends,
   * exo_sort.h); the CSR, counted in full from the start of the final merge
   * while the runs it consumes are still counted too */
  const double names_disk = n * (in->name_bytes + 1);
  double in_memory = records <= per_run ? records : fmod(records, per_run) + (T > 1 ? per_run : 0);
  in_memory = min2(in_memory, records);
  const double runs_disk = rec * (records - in_memory);
  const double csr_disk = adj_bytes + 8 * (n + 1);
  const double cluster_disk = names_disk + csr_disk + need.disk_cluster;

  out->ram[EXO_EST_READ] = ram_read;
  out->ram[EXO_EST_SORT] = ram_sort;
  out->ram[EXO_EST_CLUSTER] = ram_cluster;
  out->ram[EXO_EST_REFINE] = ram_refine;
  out->ram[EXO_EST_OUTPUT] = ram_output;
  out->disk[EXO_EST_READ] = names_disk + runs_disk;
  out->disk[EXO_EST_SORT] = names_disk + runs_disk + csr_disk;
  out->disk[EXO_EST_CLUSTER] = cluster_disk;
  out->disk[EXO_EST_REFINE] = ram_refine > 0 ? names_disk + csr_disk : 0;
  out->disk[EXO_EST_OUTPUT] = names_disk + csr_disk;
  out->peak_ram = out->peak_disk = 0;
  for (int s = 0; s < EXO_EST_STAGES; s++) {
    out->peak_ram = max2(out->peak_ram, out->ram[s]);
    out->peak_disk = max2(out->peak_disk, out->disk[s]);
  }
  out->wide = wide;
  return EXO_OK;
}
