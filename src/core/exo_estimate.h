/* exo_estimate.h: the peak memory and temporary disk of a run, estimated
 * before it from the graph's size, in one place.
 *
 * EstimateExoLabel() (R, through the glue) and ExoLabel()'s check of the
 * free temporary disk call exo_estimate; nothing outside the core repeats
 * its arithmetic. The figures come from the modules that own them: the
 * shares of memory_limit from exo_budget.h; the bytes per node from the
 * modules' headers (EXO_LP_NODE_BYTES of exo_lp.h, EXO_LEIDEN_NODE_BYTES
 * and the aggregation and disk figures of exo_leiden.h, EXO_REFINE_* of
 * exo_refine.h, EXO_CSR_COMPONENTS_NODE_BYTES of exo_csr.h,
 * EXO_OUTPUT_SCRATCH_NODE_BYTES of exo_output.h, the name table's slots of
 * exo_names.h); the record and adjacency sizes from exo_record.h. The
 * cluster and refine stages, and the clustering's own files, are each
 * method's to give (exo_method_need_<id> in the method's file, through the
 * registry of exo_method.h), so a new method brings its estimate along.
 *
 * The stages, one after the other (each may use the whole memory_limit):
 *   read     the name table (16-byte slots, a power of two at most 70%
 *            full, one and a half times that while it doubles) and the
 *            sort's run buffers (two and the radix scratch with several
 *            threads, else one and the scratch), which share the reading
 *            budget (exo_budget_parse, exo_budget_runs), touched only as far
 *            as records fill them, and the parser's reserve; on disk the
 *            names (name_bytes + 1 per node) and the sorted runs written
 *            (the last, partly filled buffer, and with several threads the
 *            full one before it, are merged from memory)
 *   sort     the final merge's file buffers (2 MiB per run, at most
 *            memory_limit); on disk the runs and the whole CSR (the peak:
 *            hole punching releases the runs while they are read, so the
 *            disk in use is often lower; this is what should be free)
 *   cluster  the method's per-node arrays and read buffers: label
 *            propagation (EXO_LP_NODE_BYTES, + EXO_LP_ATTENUATION_NODE_BYTES
 *            with attenuation, the workers' read windows; graphs under
 *            8192 nodes, which run without lanes, take a little less), Leiden (its state
 *            per node and final labels, read buffer, lanes' tables, and a
 *            level's aggregation: in memory in at most EXO_LEIDEN_AGG_RANGES
 *            ranges, 16 bytes per arc, else the sort's buffers; on disk 24
 *            bytes per input node and a round's coarse levels, kept for
 *            the next round, each taken to have a quarter of the nodes of
 *            the one before, the first 0.3 of the arcs and each later one
 *            half, with the sort's runs of the level being built),
 *            components (the forest, two 1 MiB readers)
 *   refine   label propagation's merge passes (refine > 0): the readers'
 *            buffers and pair tables, offsets and labels, 33 bytes per
 *            cluster (at most one per node); 0 for the other methods
 *   output   the labels and the renumbering scratch (8 + 8 per node)
 * Ids are wide (20-byte records, 12-byte adjacency entries, 8-byte labels:
 * EXO_LP_NODE_BYTES_WIDE, EXO_LEIDEN_NODE_BYTES_WIDE) above 2^32 nodes. peak_ram and peak_disk are the
 * largest stage. The figures are upper bounds by design within the model;
 * tests/testthat/test-estimate-measured.R holds them within 1.5x of
 * measured runs of label propagation and Leiden.
 *
 * Contract: a pure function of its arguments (sizes may be fractional
 * estimates: doubles throughout); no allocation, no globals. EXO_EARG for
 * a method it does not know, threads < 1, negative or NaN sizes, or a
 * memory_limit of 0 (out untouched). */
#ifndef EXO_ESTIMATE_H
#define EXO_ESTIMATE_H

#include <stdint.h>

#include "exo_budget.h"
#include "exo_status.h"

typedef struct exo_estimate_in {
  double nodes;          /* distinct nodes */
  double edges;          /* input edges (lines); two arc records each */
  uint64_t memory_limit; /* bytes, > 0 */
  int threads;           /* >= 1 */
  int method;            /* EXO_METHOD_<id> of exo_method_names.h */
  int attenuation;       /* nonzero: label propagation with attenuation */
  int refine;            /* nonzero: label propagation's merge passes run */
  double name_bytes;     /* mean bytes of a node name */
} exo_estimate_in;

enum {
  EXO_EST_READ = 0,
  EXO_EST_SORT,
  EXO_EST_CLUSTER,
  EXO_EST_REFINE,
  EXO_EST_OUTPUT,
  EXO_EST_STAGES
};

typedef struct exo_estimate_out {
  double ram[EXO_EST_STAGES];  /* bytes of memory per stage */
  double disk[EXO_EST_STAGES]; /* bytes of temporary disk per stage */
  double peak_ram, peak_disk;  /* the largest of each */
  int wide;                    /* ids taken to be 64-bit */
} exo_estimate_out;

/* A method's own part of the estimate, which the method gives
 * (exo_method_need_<id>, exo_method.h; the registry calls it): for a graph
 * of these sizes, the memory of its clustering and of what follows it
 * before the output (label propagation's merge passes; 0 for the others),
 * and its temporary files beyond the graph's CSR and names. */
typedef struct exo_estimate_graph {
  double nodes, records; /* nodes; arc records (two per edge) */
  double rec, adj;       /* bytes of a sort record and of an adjacency entry */
  int wide;              /* 64-bit ids */
} exo_estimate_graph;

typedef struct exo_estimate_need {
  double ram_cluster, ram_refine, disk_cluster;
} exo_estimate_need;

/* The small buffers of a stage (I/O, progress) that every stage counts. */
#define EXO_ESTIMATE_STAGE_SLACK (2.0 * 1048576.0)

static inline double exo_estimate_min(double a, double b) { return a < b ? a : b; }
static inline double exo_estimate_max(double a, double b) { return a > b ? a : b; }
/* A stage's share of memory_limit (exo_budget_share) among `parts`. */
static inline double exo_estimate_share(uint64_t memory_limit, exo_share id, double parts) {
  return (double)exo_budget_share(memory_limit, id, (uint32_t)parts);
}

/* "read", "sort", "cluster", "refine", "output"; NULL out of range. */
const char *exo_estimate_stage_name(int stage);

exo_status exo_estimate(const exo_estimate_in *in, exo_estimate_out *out);

#endif
