/* exo_regions.h: the bridge rules of search output (format blast, option
 * bridges = cut): the region rule, which keeps a protein made of several
 * domains from joining the families of all its domains, and the weak-hit
 * rule, which drops a lone weak hit between two tight families (below).
 *
 * Each hit between proteins A and B lies on an interval of A (qstart..qend)
 * and one of B (sstart..send). A protein's intervals, in order of start
 * (then of end, largest first), form regions: an interval opens a new
 * region when less than EXO_REGIONS_OVERLAP of its length overlaps the
 * furthest end reached by the intervals before it. A protein whose hits
 * form two regions or more keeps the partners it has a hit with in its
 * strongest region (the largest sum of hit weights; on a tie the region
 * that starts first) and drops the partners whose hits all lie in other
 * regions: every arc between the two proteins is removed, whichever end
 * dropped the pair. A protein with a hit spanning its domains (a
 * full-length homologue) has one region and drops nothing; so has a
 * protein with hits to one domain only. Self hits take no part.
 *
 * The rule runs on the built graph, before the weights are normalised
 * (exo_pipeline.c): the builder writes each stored hit (both ids, the four
 * coordinates, the weight: 36 bytes) to a file in the run's directory
 * (exo_regions_hit), then exo_regions_apply sorts those hits by protein
 * (an exo_sorter of arc records: three per hit end, start / end / weight,
 * or one packed record per hit end), reads them protein by protein, sorts the
 * dropped pairs (a second exo_sorter, both directions) and removes them
 * from the CSR (exo_csr_remove). Every pass streams; memory: memory_limit
 * for the sorts, one at a time, and 40 bytes per interval of the protein
 * being read (its hits; a protein's hits are held at once), plus 32 bytes
 * per record of it as read (2 x 16: its kept and new records and their
 * merge, exo_regions_ext). Temporary disk:
 * the hit file (36 bytes per hit), then the sorted intervals (2 records of
 * 20 bytes per hit; 6 with more than 2^32 nodes) and the dropped pairs. The same result for any
 * threads and memory_limit. */
#ifndef EXO_REGIONS_H
#define EXO_REGIONS_H

#include <stddef.h>
#include <stdint.h>

#include "exo_csr.h"
#include "exo_ctx.h"
#include "exo_io.h"

#define EXO_REGIONS_OVERLAP (1.0 / 3.0)
#define EXO_REGIONS_HIT_BYTES 36

/* Append one hit (ids a != b, coordinates as the parser read them: start
 * and end on a, then on b, in either order; the arc weight w > 0) to the
 * hit file being written by `w`. */
exo_status exo_regions_hit(exo_writer *w, uint64_t a, uint64_t b, float wt, const uint32_t iv[4],
                           exo_ctx *ctx);

typedef struct exo_regions_stats {
  uint64_t hits;           /* hits read from the hit file */
  uint64_t proteins_split; /* proteins whose hits form 2 regions or more */
  uint64_t pairs_dropped;  /* protein pairs whose arcs were removed */
  uint64_t arcs_removed;   /* CSR entries removed */
  uint64_t arcs_removed_positive; /* of those, w > 0 */
} exo_regions_stats;

/* Apply the rule to the graph `csr` (undirected, n nodes) from the hit file
 * `hits_path` (deleted when done, on every path; max_coord: its largest
 * coordinate), with temporary files in `tmpdir`, sorts of memory_limit
 * bytes on `threads` threads. csr->m follows the removal. A narrow graph
 * (csr->wide 0) sorts one record per hit end, the partner and both
 * coordinates packed into a 64-bit neighbour (coordinates above 65,535
 * are divided by the power of 2 that brings max_coord under 65,536, so
 * that only nucleotide-length hits lose resolution); a wide graph sorts
 * three narrow-valued records per hit end (start, end, weight). */
/* Extending a kept graph (exo_keep.h; ext NULL: none of this). The hits of
 * the graph are, in input order, those of `old_hits` (a hit file read
 * first, never deleted; NULL: none) or those that made `base` (the sorted
 * intervals a previous run kept, base_hits hits: the CSR this function
 * writes), then those of hits_path; the result is the same bytes as from
 * one hit file of them all. With base, only the new hits are sorted; with
 * keep_intervals the sort merges them with base (exo_sorter_set_base_values)
 * into the full interval file to keep, else each protein's kept records and
 * new ones are merged as the rule reads them (by record value, the kept
 * first on equal ones: the order of one sort), nothing more written. base needs the same packing as this run
 * (csr->wide, and the shift of max_coord, below). keep_intervals: the
 * sorted intervals' CSR (2 x hits records of 12 bytes, 6 x with a wide
 * csr) is left in tmpdir, its paths in intervals_offsets / intervals_adj
 * (the caller's to remove and free, on every path once set); base_terms:
 * out, exo_sorter_base_terms of the base's adjacency file. */
typedef struct exo_regions_ext {
  const char *old_hits;
  const exo_csr_files *base;
  uint64_t base_hits;
  int keep_intervals;
  uint64_t base_terms;
  char *intervals_offsets, *intervals_adj;
} exo_regions_ext;
/* The shift of the packed coordinates for hits up to max_coord. */
unsigned exo_regions_shift(uint32_t max_coord);
exo_status exo_regions_apply(exo_csr_files *csr, const char *hits_path, uint32_t max_coord,
                             exo_regions_ext *ext, const char *tmpdir, uint64_t memory_limit,
                             int threads, exo_regions_stats *out, exo_ctx *ctx);

/* The weak-hit rule, on the built graph after the self-score normalisation
 * (undirected; the weights of v -> u and u -> v equal, as combine max and
 * selfnorm leave them). For each node v: deg(v) its arcs to other nodes,
 * min1(v) <= min2(v) the two smallest of their weights, med(v) their
 * median. For an arc of weight w at v, other(v) = min2(v) when w <=
 * min1(v), else min1(v): v's weakest other hit. The pair (v, u) is removed
 * (both arcs) when, at both ends x, deg(x) >= EXO_WEAK_HIT_DEGREE, w <
 * EXO_WEAK_HIT_RATIO x other(x) and other(x) >= EXO_WEAK_HIT_TIGHT x med(x):
 * the hit is far weaker than every other hit of both proteins, each of which
 * has a consistent group of homologues (two families joined by one spurious
 * hit). Arcs v -> v are never removed. Two passes over the CSR (the first
 * reads, the second rewrites; the first can be the normalisation's, below);
 * memory: 16 bytes per node and 4 bytes per arc of the node being read.
 * *removed: arcs removed (2 per pair). */
#define EXO_WEAK_HIT_RATIO 0.55
#define EXO_WEAK_HIT_DEGREE 8u
#define EXO_WEAK_HIT_TIGHT 0.7
exo_status exo_regions_weak_hits(exo_csr_files *csr, size_t bufsize, uint64_t *removed,
                                 uint64_t *removed_positive, exo_ctx *ctx);
/* The same in two steps, the node values gathered by another pass (the
 * normalisation's, exo_csr_selfnorm_each): create (16 bytes per node),
 * exo_weak_hits_node as that pass's node callback (user = the object;
 * it reorders w), then apply (the rewrite) and free. */
typedef struct exo_weak_hits exo_weak_hits;
exo_status exo_weak_hits_create(uint64_t n, exo_weak_hits **out, exo_ctx *ctx);
void exo_weak_hits_node(void *user, uint64_t v, float *w, size_t k);
exo_status exo_weak_hits_apply(exo_weak_hits *wh, exo_csr_files *csr, size_t bufsize,
                               uint64_t *removed, uint64_t *removed_positive, exo_ctx *ctx);
void exo_weak_hits_free(exo_weak_hits *wh);

#endif
