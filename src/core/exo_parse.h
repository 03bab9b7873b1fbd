/* exo_parse.h: edge-list text to (id, id, weight) triples.
 *
 * Format: one edge per line, "A<sep>B" or "A<sep>B<sep>W". Lines end in LF;
 * a CR right before the LF (or before the end of the file) is dropped; the
 * last line needs no newline. Empty lines are skipped. A UTF-8 byte-order
 * mark at the start of a file is skipped. The first `header_lines` lines of
 * each file are skipped whatever they hold.
 *
 * Each data line must have 2 or 3 fields. With ignore_weights, fields after
 * the second are ignored and every weight is 1. Otherwise a 2-field line has
 * weight 1 and a 3-field line's weight is parsed as a float (correctly
 * rounded to float32). Errors (EXO_EINPUT, message "<file>:<line>: ..."):
 * fewer than 2 or more than 3 fields, an empty name, a NUL byte or a lone CR
 * in a name, a weight that is not a number, NaN, infinite or beyond float
 * range, a line longer than EXO_PARSE_MAX_LINE.
 * Weights <= 0 are reported to the callback like any other: the pipeline
 * registers both names but stores no arc for them. */
#ifndef EXO_PARSE_H
#define EXO_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"
#include "exo_names.h"

#define EXO_PARSE_MAX_LINE ((size_t)64 << 20) /* 64 MiB */

typedef struct exo_parse_options {
  char sep;              /* field separator, any byte but CR, LF, NUL */
  uint64_t header_lines; /* lines skipped at the start of each file */
  int ignore_weights;    /* every weight is 1, extra fields ignored */
  int threads;           /* parser threads; <= 1 = one thread. The result
                            (ids, record order, errors) never depends on it */
  size_t block_bytes;    /* parallel path: bytes per block; 0 = 1 MiB (other
                            values are for tests) */
} exo_parse_options;

/* Called once per data line, in file order, after both names are interned. */
typedef exo_status (*exo_edge_fn)(void *user, uint64_t a, uint64_t b, float w,
                                  exo_ctx *ctx);

typedef struct exo_parse_stats {
  uint64_t lines;      /* physical lines read, header included */
  uint64_t edges;      /* data lines passed to the callback */
  uint64_t bytes;      /* decompressed bytes */
} exo_parse_stats;

/* Parse one file. With threads > 1 and an uncompressed regular file, the
 * BOM and header lines are read first, then the rest is cut into blocks of
 * block_bytes that `threads` worker threads (created and joined inside this
 * call) read with pread() and split, check and hash in parallel; the calling
 * thread interns the names and calls fn in file order. fn and the ctx
 * callbacks are only ever called from the calling thread. Memory: per worker
 * two blocks of text plus their parsed lines (56 bytes per data line), about
 * 4 MiB for typical 40-byte lines. gzip input, pipes and FIFOs are read
 * sequentially.
 * Progress is reported as EXO_STAGE_PARSE with done = raw
 * bytes read and total = file size; exo_poll() is called every 64 KiB or so. */
exo_status exo_parse_file(const char *path, const exo_parse_options *opt,
                          exo_names *names, exo_edge_fn fn, void *user,
                          exo_ctx *ctx, exo_parse_stats *stats);

/* Parse a weight field [s, s+len). Returns 0 and sets *w on success; -1 if
 * it is not a number; -2 if NaN or infinite; -3 if beyond float range. */
int exo_parse_weight(const char *s, size_t len, float *w);

#endif
