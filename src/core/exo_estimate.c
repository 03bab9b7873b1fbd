/* exo_estimate.c: the estimate of a run's memory and temporary disk
 * (contract in exo_estimate.h). */
#include "exo_estimate.h"

#include <math.h>

#include "exo_budget.h"
#include "exo_csr.h"
#include "exo_io.h"
#include "exo_leiden.h"
#include "exo_lp.h"
#include "exo_method_names.h"
#include "exo_names.h"
#include "exo_output.h"
#include "exo_record.h"
#include "exo_refine.h"

#define MIB 1048576.0
#define MERGE_RUN_BYTES (2 * MIB)   /* final merge: file buffers per sorted run */
#define STAGE_SLACK (2 * MIB)       /* small buffers of a stage (I/O, progress) */
#define LEIDEN_AGG_WRITE_BUF MIB   /* an in-memory aggregation's write buffer */

static const char *const STAGES[EXO_EST_STAGES] = {"read", "sort", "cluster", "refine",
                                                   "output"};

const char *exo_estimate_stage_name(int stage) {
  return stage >= 0 && stage < EXO_EST_STAGES ? STAGES[stage] : NULL;
}

static double share(uint64_t limit, exo_share id, double parts) {
  return (double)exo_budget_share(limit, id, (uint32_t)parts);
}

static double min2(double a, double b) { return a < b ? a : b; }
static double max2(double a, double b) { return a > b ? a : b; }

/* The sort's run buffers after a name table of `table` bytes (a table
 * beyond 2^64 bytes, from an absurd node count, is held at UINT64_MAX
 * rather than converted out of range). */
static double run_memory(uint64_t limit, int threads, double table) {
  const uint64_t t = table < 18446744073709551616.0 ? (uint64_t)table : UINT64_MAX;
  return (double)exo_budget_runs(exo_budget_parse(limit, threads), t);
}

/* In-memory aggregation of a level of n0 nodes and a0 arcs into n1 coarse
 * nodes: per range, its arcs' tally entries and rows; the finer level's
 * degrees; per coarse node its offset, row start and end, one count per
 * part and a marker and a scratch entry per thread; the write buffer. */
static double agg_in_memory_bytes(double n0, double a0, double n1, int threads) {
  return EXO_LEIDEN_AGG_ARC_BYTES * a0 / EXO_LEIDEN_AGG_RANGES +
         EXO_LEIDEN_AGG_NODE_BYTES * n0 + 8.0 * (3 + 1 + 2.0 * threads) * n1 +
         LEIDEN_AGG_WRITE_BUF;
}

typedef struct level_disk {
  double files, runs, n, a;
} level_disk;

/* The files of the coarse level aggregated from (n0, a0): a quarter of
 * the nodes, half the arcs (exo_estimate.h). */
static level_disk leiden_level(double n0, double a0, uint64_t limit, int threads, double rec,
                               double adj) {
  level_disk l;
  l.n = n0 / 4;
  l.a = a0 / 2;
  const double L = (double)limit;
  const int in_memory = agg_in_memory_bytes(n0, a0, l.n, threads) <= L;
  const int held = in_memory && adj * l.a <= share(limit, EXO_SHARE_LEIDEN_HOLD, 1);
  const double csr = 8 * (l.n + 1) + (held ? 0 : adj * l.a);
  l.runs = in_memory || rec * a0 <= L ? 0 : rec * a0;
  l.files = csr + EXO_LEIDEN_LEVEL_DISK_NODE_BYTES * l.n;
  return l;
}

/* Leiden's temporary files beside the input graph's CSR and names. */
static double leiden_disk(double n, double arcs, uint64_t limit, int threads, double rec,
                          double adj) {
  const level_disk l1 = leiden_level(n, arcs, limit, threads, rec, adj);
  const level_disk l2 = leiden_level(l1.n, l1.a, limit, threads, rec, adj);
  return EXO_LEIDEN_DISK_NODE_BYTES * n + l1.files + max2(l1.runs, l2.files + l2.runs);
}

exo_status exo_estimate(const exo_estimate_in *in, exo_estimate_out *out) {
  if (!in || !out || in->threads < 1 || in->memory_limit == 0 || !(in->nodes >= 0) ||
      !(in->edges >= 0) || !(in->name_bytes >= 0) ||
      (in->method != EXO_METHOD_lp && in->method != EXO_METHOD_leiden &&
       in->method != EXO_METHOD_components))
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

  double ram_cluster = 0, ram_refine = 0;
  const double adj_bytes = adj * records;
  if (in->method == EXO_METHOD_lp) {
    ram_cluster = n * ((wide ? EXO_LP_NODE_BYTES_WIDE : EXO_LP_NODE_BYTES) +
                       (in->attenuation ? EXO_LP_ATTENUATION_NODE_BYTES : 0)) +
                  min2(T * share(limit, EXO_SHARE_LP_READ, T), adj_bytes) + STAGE_SLACK;
    if (in->refine) {
      /* per reader its read buffer and pair table (all of it written when it
       * is cleared); offsets and labels; a cluster per node at most */
      const double readers = min2(T, EXO_REFINE_MAX_READERS);
      const double buf = min2(share(limit, EXO_SHARE_REFINE_READ, readers), adj_bytes);
      const double tbytes = share(limit, EXO_SHARE_REFINE_TABLE, readers);
      double cap = EXO_REFINE_MIN_SLOTS;
      while (cap * 2 * EXO_REFINE_SLOT_BYTES <= tbytes && cap < records + 2) cap *= 2;
      ram_refine = readers * (buf + EXO_REFINE_SLOT_BYTES * cap) +
                   n * (EXO_REFINE_NODE_BYTES + EXO_REFINE_CLUSTER_BYTES) + STAGE_SLACK;
    }
  } else if (in->method == EXO_METHOD_leiden) {
    /* the aggregation of level 0: in memory when it fits in at most
     * EXO_LEIDEN_AGG_RANGES ranges of coarse ids, else the sort's buffers
     * (they grow with its records, up to the memory limit) */
    const double ranges = ceil(EXO_LEIDEN_AGG_ARC_BYTES * records / L);
    const double aggregation = ranges <= EXO_LEIDEN_AGG_RANGES
                                   ? EXO_LEIDEN_AGG_ARC_BYTES * records / max2(ranges, 1)
                                   : min2(L, 3 * rec * records);
    const double lanes = min2(T, EXO_LEIDEN_LANES);
    ram_cluster =
        n * ((wide ? EXO_LEIDEN_NODE_BYTES_WIDE : EXO_LEIDEN_NODE_BYTES) + EXO_LEIDEN_LABEL_BYTES) +
        min2(share(limit, EXO_SHARE_LEIDEN_READ, 1), adj_bytes) +
        (double)EXO_LEIDEN_LANE_TABLES_BYTES + (double)EXO_LEIDEN_LANE_PAIRS_BYTES * lanes +
        aggregation + STAGE_SLACK;
  } else { /* components: the forest and two readers; no merge passes */
    ram_cluster = EXO_CSR_COMPONENTS_NODE_BYTES * n + 2.0 * EXO_IO_DEFAULT_BUF + STAGE_SLACK;
  }
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
  double cluster_disk = names_disk + csr_disk;
  if (in->method == EXO_METHOD_leiden)
    cluster_disk += leiden_disk(n, records, limit, T, rec, adj);

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
