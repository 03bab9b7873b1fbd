/* exo_sort.h: external merge sort of arc records into the CSR.
 *
 * Records are added one by one into an in-memory buffer. When it is full, it
 * is sorted by (key, nbr) with a stable LSD radix sort and written to a run
 * file in the temp directory. exo_sorter_finish_csr() then merges the runs
 * with a loser tree of fan-in k: while more than k runs remain, groups of k
 * are merged into new runs (deleting each input as it is consumed, punching
 * holes in it while reading); the last merge streams straight into the CSR
 * files (see exo_record.h). With a single run nothing is merged: it is
 * copied into the CSR as it is read.
 *
 * With `background` set, a full buffer is handed to a thread that sorts it
 * (with `threads` > 1 on that many threads, each pass split into slices:
 * the same order) and writes it (with `threads` > 1 in up to that many
 * slices of at least 8 MiB side by side, positioned writes: the same file) while the caller fills a second buffer (the host's callbacks are
 * still only called from the caller's thread); the runs are the same
 * records in the same order, only smaller. When the input ends while that
 * thread is still at work and everything fits one final merge, the thread
 * stops writing once its buffer is sorted (a partial file is deleted) and
 * the final merge reads that run from memory beside the last buffer, which
 * the caller sorts meanwhile when its records fill at most half of it. The
 * records left in the buffer when the input ends (in either mode) are
 * sorted on `threads` threads as well (the same order), so a buffer that
 * holds the whole input is not sorted on one thread while the others wait.
 *
 * Memory: the run buffer and the radix sort's scratch buffer each take about
 * run_memory/2, or run_memory/3 with the second buffer in background mode
 * (less the I/O buffers; run_memory defaults to memory_limit
 * and can change while records are added, so a caller can lend memory to
 * other structures of the same stage); merging uses memory_limit split
 * among the file buffers: T x (k+1) for an intermediate merge of k runs on
 * T threads, T x (k+2) for the final merge (out of what the one or two
 * sorted buffers it reads from memory leave; a buffer is never below
 * 64 KiB, unless its file is smaller, so a tiny memory_limit is exceeded),
 * plus (T+1) x k split positions of 8 bytes and, with T > 1, 2 x T x k
 * shared-page entries of 24 bytes (exo_sort.c, edge_page). While a
 * buffer is sorted, the radix sort's counts take 16 KiB per thread (192
 * KiB on one thread), freed when it ends. Nothing per node is kept in
 * memory.
 *
 * Combining: the final merge sees every arc of a key in (nbr, input) order,
 * so it can fold arcs that join the same (key, nbr) into one CSR entry.
 * Arcs fold only with arcs of the same sign (exo_record.h: in a directed
 * graph the sign says in-arc or out-arc); within a (key, nbr) the entries
 * written keep the order in which their signs first appeared. With
 * EXO_COMBINE_KEEP (the default) every record becomes an entry, as before;
 * with SUM the entry's weight is the float sum of the folded weights in
 * input order; with MAX it is the weight of largest magnitude (for negative
 * arcs the most negative one). Runs and intermediate merges still hold every
 * record, so the disk they need does not change; peak_disk counts the CSR
 * as if nothing were folded (an upper bound).
 *
 * Threads: with `threads` = T > 1 every merge is split into T ranges of
 * keys holding about equal numbers of records: the final merge, and each
 * group of an intermediate pass (more runs than the fan-in). Split keys are
 * found by binary search in the sorted runs with positioned reads of single
 * keys; the ranges are merged side by side, each on its own thread with
 * its own loser tree, its own slice of every run and its own positioned
 * writers. A range of the final merge writes into the two CSR files (its
 * offsets start at 8 x its first key, its adjacency entries at the number
 * of records below its first key); a range of a group writes into the
 * group's new run, from the number of the group's records below its first
 * key times the record size. The slices give every count, so no counting
 * pass and no concatenation is needed. The groups of a pass are merged one
 * after the other, each by all T threads, so a pass with a single large
 * group (the usual shape: the last intermediate pass merges only enough
 * runs to leave k) is as parallel as one with many. The runs written are
 * byte for byte the same for every T, and the CSR files for every T and
 * every memory_limit; T changes only the time and how memory_limit is
 * divided among the read buffers. Each range releases (hole punching) the part of a
 * run it has read, and the last range to read its part of a page that
 * slices share releases that page, so the temporary disk is the same as
 * with one range (with several ranges a group's inputs, holes by then, are
 * unlinked when the group ends instead of each as soon as it is read).
 * Ranges run at different speeds, so a split group may hold up to
 * (2k + 2) x T pages more for a moment: a group is split only when the temp
 * file system shows that much free, and is otherwise merged as one range
 * (the same bytes), so a merge that fits a nearly full disk with one
 * thread fits it with T. Host callbacks
 * are only called from the caller's thread (exo_par.h). */
#ifndef EXO_SORT_H
#define EXO_SORT_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"

/* How the final merge treats arcs with equal (key, nbr) and sign. */
typedef enum exo_combine {
  EXO_COMBINE_KEEP = 0, /* one CSR entry per record */
  EXO_COMBINE_SUM = 1,  /* one entry, weight = sum */
  EXO_COMBINE_MAX = 2   /* one entry, weight = largest magnitude */
} exo_combine;

typedef struct exo_sort_options {
  const char *tmpdir;    /* existing directory for run files */
  uint64_t memory_limit; /* bytes for all buffers of this stage */
  int wide;              /* start with wide records (64-bit ids) */
  uint64_t run_records;  /* test knob: records per run (0 = from memory) */
  uint32_t fan_in;       /* test knob: merge fan-in, >= 2 (0 = from memory) */
  uint64_t run_memory;   /* bytes for the run buffers + scratch (0 = memory_limit) */
  int background;        /* sort and write full buffers on a second thread */
  exo_combine combine;   /* equal (key, nbr, sign) arcs in the CSR (see above) */
  int threads;           /* key ranges merged side by side by every merge
                            (<= 1: one, on the caller's thread) */
} exo_sort_options;

typedef struct exo_sort_stats {
  uint64_t records;      /* records added */
  uint64_t arcs;         /* CSR entries written (= records with KEEP) */
  uint64_t arcs_positive; /* of those, entries with w > 0 */
  uint64_t arcs_self;    /* of those, entries with w > 0 from a node to itself
                            (self-loops: one entry each, so an undirected
                            graph has (arcs + arcs_self) / 2 edges) */
  uint64_t runs;         /* initial runs (sorted buffers), in memory or written */
  uint64_t runs_in_memory; /* of those, merged from memory without being written:
                            the last buffer and, in background mode, the run
                            still being written when the input ended */
  uint32_t fan_in;       /* fan-in used */
  uint32_t merge_passes; /* merge passes, the final CSR merge included */
  uint64_t peak_disk;    /* bytes: run files + CSR at their largest */
  /* background mode, for the serial-part figures: CPU seconds the run
   * thread took (sorting and writing the runs, one run at a time; with
   * threads > 1 the sort's and the write's slices run on other threads,
   * not counted here), the CPU seconds of writing the runs (on whichever
   * threads wrote them), the seconds the sorts took (wall clock), and the
   * seconds exo_sorter_add waited for the thread (the adding thread stalled) */
  double run_thread_cpu_seconds;
  double run_write_cpu_seconds;
  double run_sort_seconds;
  double add_wait_seconds;
  /* the records still in the buffer when the input ended, sorted by
   * exo_sorter_finish_csr before the final merge reads them from memory:
   * the seconds that sort took and the threads it ran on (min(threads,
   * records / 65536), at least 1; 0 = no such sort) */
  double last_sort_seconds;
  uint32_t last_sort_threads;
} exo_sort_stats;

typedef struct exo_sorter exo_sorter;

exo_status exo_sorter_create(exo_sorter **out, const exo_sort_options *opt,
                             exo_ctx *ctx);
exo_status exo_sorter_add(exo_sorter *s, uint64_t key, uint64_t nbr, float w,
                          exo_ctx *ctx);
/* Append n encoded records (exo_record.h) of width `wide`, in order: the
 * same buffer, runs and polls as n exo_sorter_add calls, with a memcpy per
 * buffer's worth instead of a call per record. Records narrower than the
 * sorter's are widened one by one; wider ones are EXO_EARG. *done: records
 * stored (all of them unless it fails). */
exo_status exo_sorter_add_records(exo_sorter *s, const uint8_t *recs, size_t n, int wide,
                                  size_t *done, exo_ctx *ctx);
/* Resize the run buffer and its scratch for a budget of `bytes`; records
 * that no longer fit are written as a run first. Ignored with run_records. */
exo_status exo_sorter_set_run_memory(exo_sorter *s, uint64_t bytes, exo_ctx *ctx);
/* From now on store 64-bit ids (call before adding the first id >= 2^32).
 * Runs already written stay narrow; the merge reads both widths. */
exo_status exo_sorter_set_wide(exo_sorter *s, exo_ctx *ctx);
int exo_sorter_is_wide(const exo_sorter *s);
/* Extending a kept graph (issue 57): the CSR `base` (its files, node and
 * entry counts and id width, exo_csr.h) becomes the final merge's first
 * source, read sequentially beside the runs (never punched or changed; a
 * key range of a split merge reads its own slice, found from the offsets):
 * every entry of node v is the record (v, nbr, w), and on equal (key, nbr)
 * the kept entries come before every record added, as the records of
 * earlier input would. So the CSR written is the one a single sort of the
 * records that made `base` followed by the records added would write, for
 * every combine rule (SUM folds the kept sum first: the same float sums in
 * input order), every thread count and memory_limit. num_nodes must be at
 * least base->n. Memory: two more read buffers per key range (the offsets'
 * at 1/8 of a source's). Call before finishing; the paths are copied. */
typedef struct exo_csr_files exo_csr_files;
exo_status exo_sorter_set_base(exo_sorter *s, const exo_csr_files *base, exo_ctx *ctx);
/* The same for a CSR whose entries' nbr are any 64-bit values (the region
 * rule's packed intervals, exo_regions.h), not checked against base->n. */
exo_status exo_sorter_set_base_values(exo_sorter *s, const exo_csr_files *base, exo_ctx *ctx);
/* After a successful exo_sorter_finish_csr with a base: the exo_sum.h terms
 * of every byte of the base's adjacency file, which the final merge read
 * (its key ranges each summing their slice): exo_sum_close(terms, bytes)
 * checks the file against a checksum without reading it again. */
uint64_t exo_sorter_base_terms(const exo_sorter *s);
/* Sort, merge and write the CSR for nodes 0..num_nodes-1 (num_nodes must
 * exceed every key). csr_wide selects the adjacency id width (it must be set
 * when num_nodes > 2^32). All run files are gone afterwards. */
exo_status exo_sorter_finish_csr(exo_sorter *s, uint64_t num_nodes,
                                 const char *offsets_path, const char *adj_path,
                                 int csr_wide, exo_ctx *ctx, exo_sort_stats *stats);
/* Free memory and delete any run files left (error paths). NULL-safe. */
void exo_sorter_free(exo_sorter *s);

/* ---- exposed for unit tests ---------------------------------------- */
/* Stable LSD radix sort of `count` records of exo_rec_size(wide) bytes in
 * `recs` by (key, nbr), using `scratch` of the same size; the digits are
 * of up to 11 bits, cut from the bits that the keys and the nbrs use
 * (exo_sort.c). */
void exo_radix_sort_records(uint8_t *recs, uint8_t *scratch, size_t count, int wide);
/* The same on `threads` threads (slices of at least 65536 records each;
 * fewer records: one thread); the same bytes for every thread count. */
exo_status exo_radix_sort_records_threads(uint8_t *recs, uint8_t *scratch, size_t count,
                                          int wide, int threads, exo_ctx *ctx);

#endif
