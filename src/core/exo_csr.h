/* exo_csr.h: the CSR files that the sort's final merge writes and every
 * clustering stage streams (label propagation, Leiden, refine, the
 * distributed run's per-rank part), and the loader of their offsets.
 *
 * Format (exo_record.h has the encoders):
 *   offsets file: (n + 1) x u64 in native byte order, offsets[v] = index of
 *     v's first adjacency entry; offsets[0] = 0, non-decreasing,
 *     offsets[n] = m;
 *   adjacency file: m entries in node order, each nbr u32 | w f32 (8 bytes,
 *     "narrow") or nbr u64 | w f32 (12 bytes, "wide": some id needs more
 *     than 32 bits); exo_adj_size(wide) gives the entry size.
 * The arcs' sign convention (directed mode) is exo_record.h's. */
#ifndef EXO_CSR_H
#define EXO_CSR_H

#include <stdint.h>

#include "exo_ctx.h"

typedef struct exo_csr_files {
  const char *offsets_path;
  const char *adj_path;
  uint64_t n; /* nodes */
  uint64_t m; /* adjacency entries */
  int wide;   /* adjacency ids are u64 */
} exo_csr_files;

/* Read csr->offsets_path whole into a new array of n + 1 u64 (*off, free()),
 * in reads of at most 64 MiB with exo_poll between them, and validate it:
 * its size, offsets[0] = 0, non-decreasing, offsets[n] = m. A file that
 * fails a check is EXO_EINTERNAL naming it (the pipeline wrote it); *off is
 * NULL on every error. Memory: 8 (n + 1) bytes. */
exo_status exo_csr_load_offsets(const exo_csr_files *csr, uint64_t **off, exo_ctx *ctx);

#endif
