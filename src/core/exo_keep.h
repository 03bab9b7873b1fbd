/* exo_keep.h: a kept graph (issue 57, keep_graph / graph): the graph of a
 * build left in a directory so that a later build can extend it with new
 * edges instead of reading every file again.
 *
 * A kept graph is a directory holding
 *   manifest          the text below;
 *   g<G>.names        the names file (exo_names.h: one name a line, id order);
 *   g<G>.offsets      the CSR (exo_csr.h) as the sort's final merge wrote it,
 *   g<G>.adjacency      before the passes that need every edge (the region
 *                       rule, the self-score normalisation, the weak-hit
 *                       rule: exo_pipeline.c runs them again on every
 *                       extended graph);
 *   g<G>.hits         with bridges = cut only: the stored hits with their
 *                       coordinates (exo_regions.h's hit file, 36 bytes each),
 *                       in input order;
 *   g<G>.ioffsets     with bridges = cut only: the region rule's intervals
 *   g<G>.iadjacency     sorted by protein (exo_regions.h's interval CSR,
 *                       2 records of 12 bytes per hit, 6 with 64-bit ids),
 *                       which an extension merges with the new hits' instead
 *                       of sorting every hit again (the hits file serves
 *                       when the packing changes: 64-bit ids or coordinates
 *                       that need another shift).
 * G, the generation, grows by one each time the directory is written. The
 * manifest, "manifest" (LF line ends, fields separated by one space):
 *   exolabel-graph 2              the format's version (version 1, without
 *                                 the intervals, is refused: built again)
 *   generation G
 *   nodes N                       names / CSR nodes
 *   arcs M                        CSR entries
 *   id_width 32|64                adjacency ids
 *   directed 0|1
 *   max_coord C                   the hits' largest coordinate (0: none)
 *   option <name> <value>         every option that shaped the graph, in a
 *                                 fixed order: mode, format, columns,
 *                                 weight_transform, ignore_weights,
 *                                 min_weight, self_hits, combine, bridges,
 *                                 coordinates, header, sep (values as
 *                                 exo_keep_option_text writes them)
 *   file <role> <name> <bytes> <checksum>   names, offsets, adjacency[, hits,
 *                                 intervals_offsets, intervals_adjacency]:
 *                                 the file's size and its 64-bit checksum
 *                                 (16 hex digits, exo_keep_sum)
 *   end
 * Writing is safe against a crash: the new generation's files are written
 * beside the old ones, then "manifest.tmp" is written and renamed over
 * "manifest" (the one atomic step), and only then are the old generation's
 * files removed; until the rename the old manifest names complete files. A
 * run that fails removes the files it wrote; files a killed run left are
 * overwritten by the next one (the same names).
 *
 * Contract: no globals; errors name the directory or file; every function
 * leaves nothing behind on failure but what the old manifest names. */
#ifndef EXO_KEEP_H
#define EXO_KEEP_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"
#include "exo_pipeline.h"

#define EXO_KEEP_VERSION 2
enum { EXO_KEEP_NAMES = 0, EXO_KEEP_OFFSETS, EXO_KEEP_ADJ, EXO_KEEP_HITS, EXO_KEEP_IVOFF,
       EXO_KEEP_IVADJ, EXO_KEEP_FILES };
#define EXO_KEEP_OPTIONS 12

/* The checksum of exo_sum.h over bytes given in order, the same for any
 * split of them into calls. */
typedef struct exo_keep_sum {
  uint64_t h, n;
  uint8_t tail[8];
  size_t nt;
} exo_keep_sum;
void exo_keep_sum_init(exo_keep_sum *s);
void exo_keep_sum_add(exo_keep_sum *s, const void *data, size_t n);
uint64_t exo_keep_sum_final(const exo_keep_sum *s);

/* The options of `opt` that shaped its graph, as the manifest writes them:
 * names[i] = value text of option i (i < EXO_KEEP_OPTIONS). */
void exo_keep_option_text(const exo_build_options *opt, int i, const char **name,
                          char *value, size_t len);

/* A kept graph, read from its manifest. */
typedef struct exo_kept {
  char *dir;
  uint64_t generation, nodes, arcs, max_coord;
  int wide, directed;
  int has_hits;
  char *path[EXO_KEEP_FILES];   /* full paths (NULL: hits absent) */
  uint64_t size[EXO_KEEP_FILES], sum[EXO_KEEP_FILES];
  char opt[EXO_KEEP_OPTIONS][128];
} exo_kept;

/* Read DIR's manifest (`what` names the option in messages: "graph"),
 * check that every file it names exists with its size. Errors: EXO_EARG
 * when DIR is not a directory or holds no manifest, EXO_EINPUT when the
 * manifest or a file is corrupt (naming it). */
exo_status exo_kept_open(const char *dir, const char *what, exo_kept *k, exo_ctx *ctx);
/* EXO_EARG naming the first option whose value differs from the kept one:
 * "the kept graph 'DIR' was built with <option> <kept>, not <new>: ...". */
exo_status exo_kept_check_options(const exo_kept *k, const exo_build_options *opt,
                                  exo_ctx *ctx);
/* Read file `role` whole and compare its checksum (EXO_EINPUT naming the
 * file on a mismatch). Buffer: bufsize bytes. */
exo_status exo_kept_verify(const exo_kept *k, int role, size_t bufsize, exo_ctx *ctx);
void exo_kept_free(exo_kept *k);

/* Writing a kept graph into DIR. */
typedef struct exo_keep {
  char *dir;
  int made_dir;                 /* DIR was created by begin */
  uint64_t generation;          /* the one being written */
  exo_kept old;                 /* the graph DIR held (old.dir NULL: none) */
  char *path[EXO_KEEP_FILES];   /* new files (NULL: not written) */
  uint64_t size[EXO_KEEP_FILES], sum[EXO_KEEP_FILES];
} exo_keep;

/* Check DIR (EXO_EARG: not a directory, neither empty nor a kept graph;
 * created when missing, its parent must exist). */
exo_status exo_keep_begin(const char *dir, exo_keep *k, exo_ctx *ctx);
/* Copy `src` to the new generation's file `role`, with its checksum. */
exo_status exo_keep_copy(exo_keep *k, int role, const char *src, exo_ctx *ctx);
/* The same with the file `first` (NULL: none) copied before src, checked
 * against first_size and first_sum on the way (EXO_EINPUT naming it). */
exo_status exo_keep_copy2(exo_keep *k, int role, const char *first, uint64_t first_size,
                          uint64_t first_sum, const char *src, exo_ctx *ctx);
/* Write the manifest of graph g (nodes, arcs: the pre-pass CSR's entries,
 * wide, directed) built with opt, rename it into place, remove the old
 * generation's files. The files copied must be those of g. */
exo_status exo_keep_commit(exo_keep *k, const exo_build_options *opt, uint64_t nodes,
                           uint64_t arcs, int wide, int directed, uint32_t max_coord,
                           exo_ctx *ctx);
/* Remove what was written (and DIR when begin made it); NULL-safe, also
 * after a commit (then only frees). */
void exo_keep_abort(exo_keep *k);

#endif
