/* exo_names.h: reindexing of node names to dense ids.
 *
 * A name is any byte string (the parser excludes the separator, CR, LF and
 * NUL). The first time a name is seen it gets the next id (0, 1, 2, ...) and
 * is appended to the names file as "<name>\n", so the names file lists the
 * names in id order and the output stage can stream it.
 *
 * Memory: an open-addressing table of 16-byte slots holding a 88-bit
 * fingerprint of the name and its 40-bit id, kept at most 70% full (about
 * 23-46 bytes per node, 3x that for a moment while it doubles; with readers,
 * that moment lasts until the last reader has left the old array, a batch
 * later). Two distinct
 * names get the same id only if their 88-bit fingerprints collide:
 * probability about n^2 / 2^89 (under 2e-9 for a billion names). Ids are
 * 64-bit: up to 2^40 - 1 nodes; more gives EXO_ELIMIT.
 *
 * Speed: a lookup in a table larger than the caches costs one or two cache
 * (and TLB) misses. Callers that know the next names in advance hash them
 * early (exo_names_hash, thread-safe, no table access), prefetch their slots
 * a few names ahead (exo_names_prefetch), then intern them in order with
 * exo_names_intern_hashed: the misses then overlap instead of queueing. Tables
 * of 4 MiB and more ask the kernel for transparent huge pages.
 *
 * Threads: one thread interns (and owns the table); between
 * exo_names_readers_begin and _end, up to n other threads may look names up
 * at the same time without locks (exo_names_pin, exo_names_find). A reader
 * sees every name whose interning finished before its pin, and possibly
 * some later ones; a name it does not find (EXO_NAMES_UNKNOWN) may have been
 * interned meanwhile, so it goes to the interning thread, which decides. An
 * id a reader finds is the one exo_names_intern returns: ids never change.
 * A doubling publishes the new array and keeps the old one until no reader
 * has it pinned: the interning thread frees it at its next doubling, at
 * exo_names_reclaim (call it now and then, e.g. after each batch) or at
 * exo_names_readers_end (once the readers have stopped). The growth hook's
 * "after" call comes when the old array is freed. */
#ifndef EXO_NAMES_H
#define EXO_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"

#define EXO_NAMES_MAX_NODES (((uint64_t)1 << 40) - 1)
/* The table above: slots of EXO_NAMES_SLOT_BYTES, EXO_NAMES_INITIAL_SLOTS
 * at first, doubled when more than EXO_NAMES_MAX_LOAD full (the estimate,
 * exo_estimate.h, sizes it from these). */
#define EXO_NAMES_SLOT_BYTES 16u
#define EXO_NAMES_INITIAL_SLOTS 1024u
#define EXO_NAMES_MAX_LOAD 0.7

typedef struct exo_names exo_names;

/* Create an empty table writing names to `names_path` (created/truncated). */
exo_status exo_names_create(exo_names **out, const char *names_path, exo_ctx *ctx);
/* Id of `name`, assigning the next id if it is new. */
exo_status exo_names_intern(exo_names *t, const uint8_t *name, size_t len,
                            uint64_t *id, exo_ctx *ctx);
uint64_t exo_names_count(const exo_names *t);

/* The 128-bit hash the table uses for a name. Pure; safe from any thread. */
typedef struct exo_name_hash {
  uint64_t h1, h2;
} exo_name_hash;
exo_name_hash exo_names_hash(const uint8_t *name, size_t len);
/* Hint: bring the slot where a lookup of `h` starts into the cache. */
void exo_names_prefetch(const exo_names *t, exo_name_hash h);
/* exo_names_intern() for a name whose hash is h = exo_names_hash(name, len)
 * (a different h gives wrong ids). Same ids, same names file. */
exo_status exo_names_intern_hashed(exo_names *t, const uint8_t *name, size_t len,
                                   exo_name_hash h, uint64_t *id, exo_ctx *ctx);
/* Growth hook, for callers that count the table against a memory budget:
 * called just before the table doubles with the bytes it will then hold
 * (the old and the new slot arrays together) and just after with the bytes
 * of the new array. A non-OK return fails the interning that grew it. */
typedef exo_status (*exo_names_grow_fn)(void *user, size_t table_bytes, exo_ctx *ctx);
void exo_names_on_grow(exo_names *t, exo_names_grow_fn fn, void *user);
/* Concurrent readers (see the top). Every call but pin, unpin, find and
 * view_prefetch is for the interning thread. begin: reader slots 0..n-1 (n
 * = 0: none, nothing changes); EXO_EINTERNAL when readers are already on. */
#define EXO_NAMES_UNKNOWN UINT64_MAX
typedef struct exo_names_view exo_names_view;
exo_status exo_names_readers_begin(exo_names *t, unsigned n, exo_ctx *ctx);
/* After every reader has stopped: frees the retired arrays (the hook hears
 * the bytes left). exo_names_finish calls it too. */
exo_status exo_names_readers_end(exo_names *t, exo_ctx *ctx);
/* Free the retired arrays no reader has pinned (the hook, as above). */
exo_status exo_names_reclaim(exo_names *t, exo_ctx *ctx);
/* Reader `reader` (< n) announces it reads the current array; the view stays
 * valid until it unpins. Pin, look up a batch, unpin. */
const exo_names_view *exo_names_pin(exo_names *t, unsigned reader);
void exo_names_unpin(exo_names *t, unsigned reader);
/* The id of the name with hash h in v, or EXO_NAMES_UNKNOWN (not there yet). */
uint64_t exo_names_find(const exo_names_view *v, exo_name_hash h);
void exo_names_view_prefetch(const exo_names_view *v, exo_name_hash h);

/* Bytes currently allocated by the table (not counting the file buffer),
 * old arrays kept for readers included. */
size_t exo_names_table_bytes(const exo_names *t);
/* Flush and close the names file; the table memory is released. */
exo_status exo_names_finish(exo_names *t, exo_ctx *ctx);
void exo_names_free(exo_names *t); /* NULL-safe; closes without flushing */

#endif
