/* exo_byname.h: the results in byte order of the node names (the option
 * order = "name"; SynExtend's ExoLabel writes its lines so).
 *
 * exo_byname_load() reads the names file (exo_names.h: the n names in id
 * order) into memory and sorts the ids by name: bytes compared as unsigned,
 * a name before every longer name it begins (C-locale order, R's
 * sort(method = "radix")). exo_byname_renumber() renumbers clusters 1..K
 * in order of first appearance in that listing (SynExtend's numbering).
 * exo_byname_write() writes "name<sep>cluster\n" in that order and
 * exo_byname_write_members() "representative<sep>member\n" (the member
 * table of exo_clstats.h), both through exo_outfile (exo_output.h), on the
 * caller's thread: the bytes depend on neither threads nor memory_limit.
 *
 * Memory, on top of memory_limit: the names file's size plus 16 bytes per
 * node (offsets and order), and 8 more per node while sorting (a bottom-up
 * merge sort: O(n log n) name comparisons). */
#ifndef EXO_BYNAME_H
#define EXO_BYNAME_H

#include <stdint.h>

#include "exo_ctx.h"
#include "exo_output.h"

typedef struct exo_byname {
  uint64_t n;
  uint8_t *names;  /* the names file's bytes */
  uint64_t *off;   /* n + 1: name v is names[off[v] .. off[v + 1] - 1) */
  uint64_t *order; /* n: the ids in name order */
} exo_byname;

/* The names file in memory: *names its bytes, *off (n + 1 entries) where
 * each name starts (name v is names[off[v] .. off[v + 1] - 1), its '\n'
 * excluded); both free()d by the caller. EXO_EINTERNAL when the file does
 * not hold n names; `purpose` names the memory in an out-of-memory error.
 * On failure nothing is left to free. (exo_initial.c shares it.) */
exo_status exo_names_file_read(const char *names_path, uint64_t n, uint8_t **names,
                               uint64_t **off, const char *purpose, exo_ctx *ctx);
/* On failure *b holds nothing to free. */
exo_status exo_byname_load(exo_byname *b, const char *names_path, uint64_t n, exo_ctx *ctx);
/* clusters[0..n) in 1..k, renumbered in place (8 bytes per cluster of
 * scratch). */
exo_status exo_byname_renumber(const exo_byname *b, uint64_t *clusters, uint64_t k,
                               exo_ctx *ctx);
/* pending as in exo_output_write_pending (NULL: renamed into place now). */
exo_status exo_byname_write(const exo_byname *b, const uint64_t *clusters, char sep,
                            const char *out_path, exo_pending *pending, exo_ctx *ctx);
/* rep[c]: the representative's node id of cluster c (exo_clstats.rep). */
exo_status exo_byname_write_members(const exo_byname *b, const uint64_t *clusters,
                                    const uint64_t *rep, char sep, const char *out_path,
                                    exo_pending *pending, exo_ctx *ctx);
void exo_byname_free(exo_byname *b); /* NULL-safe; leaves *b zeroed */

#endif
