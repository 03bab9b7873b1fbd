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

/* Open csr->adj_path for reading into *fd after checking that it holds m
 * entries of exo_adj_size(wide) bytes (else EXO_EINTERNAL naming it; *fd
 * is -1 on every error). */
exo_status exo_csr_open_adj(const exo_csr_files *csr, int *fd, exo_ctx *ctx);

/* A block window over the adjacency file: a buffer of `entries` entries
 * holding entries [lo, hi) of the file, filled by positioned reads (pread:
 * windows of several threads share one descriptor). The stages' readers
 * (Leiden's per-thread readers, refine's group reads, the distributed
 * supersteps) read through it; label propagation's window (exo_lp.c) adds
 * a read-ahead over the next active nodes on top of the same idea. The
 * caller owns buf (entries * esz bytes) and sets fd, path, esz, buf and
 * entries; lo = hi = 0 is empty. */
typedef struct exo_csr_window {
  int fd;
  const char *path; /* for messages */
  size_t esz;       /* bytes per entry */
  uint8_t *buf;
  uint64_t entries; /* capacity */
  uint64_t lo, hi;  /* entries held */
} exo_csr_window;

/* Entries [pos, min(end, pos + entries)) of the file: *p, *cnt (read when
 * not held). A long list is walked by calling again from pos + *cnt. */
exo_status exo_csr_window_get(exo_csr_window *w, uint64_t pos, uint64_t end, const uint8_t **p,
                              uint64_t *cnt, exo_ctx *ctx);

/* Hold entries [lo, hi) (hi - lo <= entries; nothing read when held or
 * empty), so that every list inside is served without a read. */
exo_status exo_csr_window_fill(exo_csr_window *w, uint64_t lo, uint64_t hi, exo_ctx *ctx);

#endif
