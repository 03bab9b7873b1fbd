/* exo_input.h: one input file as a stream of decompressed bytes.
 *
 * Plain files are read with large read() calls; gzip (magic 1f 8b, also
 * several concatenated members) is inflated with zlib. bzip2 ("BZh"), xz
 * (fd 37 7a 58 5a 00) and zstd (28 b5 2f fd) are recognised and rejected with
 * a message naming the format. A directory, a missing or unreadable file give
 * EXO_EIO with the path; a truncated or corrupt gzip stream gives EXO_EINPUT
 * naming the file. */
#ifndef EXO_INPUT_H
#define EXO_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"

typedef struct exo_input exo_input;

exo_status exo_input_open(exo_input **out, const char *path, exo_ctx *ctx);
/* Fill buf with up to cap bytes; *got == 0 means end of input. */
exo_status exo_input_read(exo_input *in, uint8_t *buf, size_t cap, size_t *got,
                          exo_ctx *ctx);
/* Compressed bytes consumed so far (for progress against the file size). */
uint64_t exo_input_raw_offset(const exo_input *in);
int exo_input_is_gzip(const exo_input *in);
/* For an uncompressed regular file: its descriptor (for pread from any
 * thread, which leaves the stream position alone) and *size at open time.
 * Otherwise (gzip, pipe, FIFO, device): -1. The input keeps the descriptor. */
int exo_input_plain_fd(const exo_input *in, uint64_t *size);
void exo_input_close(exo_input *in); /* NULL-safe */

#endif
