/* exo_seqs.h: the sequences a user names (a FASTA file or a list of names),
 * and the representatives' FASTA.
 *
 * A sequence file is a FASTA file (plain or gzip, exo_input.h) when its
 * first byte that is not a blank (space, tab, CR, LF) or a UTF-8 byte-order
 * mark is '>'; otherwise it is a list of names, one per line. A FASTA
 * record's name is its header after '>' up to the first space or tab (or
 * the line end), as DIAMOND, BLAST+ and MMseqs2 name the sequences in their
 * tabular output; the rest of the header and the sequence lines are not
 * looked at. A line of a list is a name as it is (spaces included, a final
 * CR removed); blank lines are skipped. Errors name the file and line
 * (EXO_EINPUT): a header without a name ("> text" or ">"), a name with a NUL
 * byte, a name longer than 64 MiB (EXO_ELIMIT).
 *
 * A name set holds 128-bit hashes of names (exo_names_hash, exo_names.h),
 * 16 bytes a slot, at most half full: about 32 to 64 bytes per name, the
 * names themselves are not kept. Two different names are taken for one
 * only when their 126 hash bits collide (about n^2 / 2^127).
 *
 * exo_fasta_select() copies from a FASTA file the records whose names are
 * in the set, byte for byte (header and sequence lines as they are, a last
 * line without its line end given one), each name once (the first record of
 * that name), in the FASTA's order, to out_path through exo_outfile
 * (exo_output.h: a temporary beside it renamed at the end; a device or a
 * FIFO written into). A file whose first non-blank byte is not '>' is
 * refused with EXO_EINPUT naming it. Memory: 1 MiB buffers and the
 * longest header. */
#ifndef EXO_SEQS_H
#define EXO_SEQS_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"
#include "exo_output.h"

/* Called for every name of a sequence file, in file order; `line` counts
 * from 1. A non-OK return stops the read with that status. */
typedef exo_status (*exo_seqs_fn)(void *user, const uint8_t *name, size_t len,
                                  uint64_t line, exo_ctx *ctx);

typedef struct exo_seqs_stats {
  int fasta;          /* 1: read as FASTA, 0: as a list of names */
  uint64_t names;     /* names handed to fn (duplicates included) */
} exo_seqs_stats;

/* Stream the names of the sequence file `path` (format above) to fn.
 * stats may be NULL. Polls for interrupts. */
exo_status exo_seqs_read(const char *path, exo_seqs_fn fn, void *user,
                         exo_seqs_stats *stats, exo_ctx *ctx);

typedef struct exo_nameset exo_nameset;
exo_status exo_nameset_create(exo_nameset **out, exo_ctx *ctx);
/* Add a name (a name already there changes nothing). */
exo_status exo_nameset_add(exo_nameset *s, const uint8_t *name, size_t len, exo_ctx *ctx);
/* 1 when `name` is in the set and was not taken before (it is then taken),
 * else 0. */
int exo_nameset_take(exo_nameset *s, const uint8_t *name, size_t len);
uint64_t exo_nameset_count(const exo_nameset *s); /* distinct names added */
void exo_nameset_free(exo_nameset *s);           /* NULL-safe */

/* Write the records of `fasta` named in `set` to out_path (above), taking
 * their names from the set. *written (may be NULL) = records written.
 * pending != NULL: the finished temporary is handed over for
 * exo_output_publish instead of being renamed (exo_outfile_finish). */
exo_status exo_fasta_select(const char *fasta, exo_nameset *set, const char *out_path,
                            exo_pending *pending, uint64_t *written, exo_ctx *ctx);

#endif
