/* exo_names.h: reindexing of node names to dense ids.
 *
 * A name is any byte string (the parser excludes the separator, CR, LF and
 * NUL). The first time a name is seen it gets the next id (0, 1, 2, ...) and
 * is appended to the names file as "<name>\n", so the names file lists the
 * names in id order and the output stage can stream it.
 *
 * Memory: an open-addressing table of 16-byte slots holding a 88-bit
 * fingerprint of the name and its 40-bit id, kept at most 70% full (about
 * 23-46 bytes per node, 3x that for a moment while it doubles). Two distinct
 * names get the same id only if their 88-bit fingerprints collide:
 * probability about n^2 / 2^89 (under 2e-9 for a billion names). Ids are
 * 64-bit: up to 2^40 - 1 nodes; more gives EXO_ELIMIT. */
#ifndef EXO_NAMES_H
#define EXO_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"

#define EXO_NAMES_MAX_NODES (((uint64_t)1 << 40) - 1)

typedef struct exo_names exo_names;

/* Create an empty table writing names to `names_path` (created/truncated). */
exo_status exo_names_create(exo_names **out, const char *names_path, exo_ctx *ctx);
/* Id of `name`, assigning the next id if it is new. */
exo_status exo_names_intern(exo_names *t, const uint8_t *name, size_t len,
                            uint64_t *id, exo_ctx *ctx);
uint64_t exo_names_count(const exo_names *t);
/* Bytes currently allocated by the table (not counting the file buffer). */
size_t exo_names_table_bytes(const exo_names *t);
/* Flush and close the names file; the table memory is released. */
exo_status exo_names_finish(exo_names *t, exo_ctx *ctx);
void exo_names_free(exo_names *t); /* NULL-safe; closes without flushing */

#endif
