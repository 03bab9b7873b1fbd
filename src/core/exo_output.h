/* exo_output.h: writing "name<sep>cluster\n" for every node (or
 * "name<sep>c1<sep>...<sep>cK\n", one column per nested level).
 *
 * Clusters are numbered 1..K in order of first appearance when nodes are
 * listed by id (i.e. by first appearance in the input). Names are streamed
 * from the names file (exo_names.h: "<name>\n" in id order) and lines are
 * formatted by hand into a large buffer. The text goes to a temporary file
 * beside `out_path` that is renamed over it at the end, so a failed run
 * leaves no partial output. When `out_path` is a symbolic link to a regular
 * file, the link itself is replaced (its target is never written), except
 * for a link that leads through a process's descriptor (/dev/stdout,
 * /proc/self/fd/1, /dev/fd/N, or a link to one of them:
 * exo_path_is_fd_link), which is written through: the lines are appended
 * to the file it leads to (the file a shell redirected the descriptor
 * to), in order by one thread. When `out_path` names an existing file that
 * is neither regular nor a directory (a device such as /dev/null, a FIFO;
 * links followed), the lines are written into it in order by one thread,
 * and it is never replaced or removed; a FIFO without a reader is waited
 * for (interrupts are polled). exo_output_written_through() tells which
 * paths are written through. */
#ifndef EXO_OUTPUT_H
#define EXO_OUTPUT_H

#include <stdint.h>

#include "exo_ctx.h"
#include "exo_io.h"

/* Renumber labels in place: labels[v] becomes v's cluster number 1..K, in
 * order of first appearance. `labels` holds ids < n. *num_clusters = K.
 * Needs 8 bytes per node of scratch (EXO_OUTPUT_SCRATCH_NODE_BYTES). */
#define EXO_OUTPUT_SCRATCH_NODE_BYTES 8u
exo_status exo_output_renumber(uint64_t *labels, uint64_t n, uint64_t *num_clusters,
                               exo_ctx *ctx);

/* Write the output for clusters already renumbered (1..K). With threads
 * > 1 the lines are formatted in up to `threads` blocks of at least 64 KiB
 * of names, side by side, each written at its place in the file; the bytes
 * are the same for every thread count. Memory: 8 MiB of buffers per thread. */
exo_status exo_output_write(const char *names_path, const uint64_t *clusters,
                            uint64_t n, char sep, const char *out_path, int threads,
                            exo_ctx *ctx);

/* A finished temporary "<path>.tmp-XXXXXX" not yet renamed into place;
 * `lock_fd` holds a lock on it (exo_lock_file) until it is renamed or
 * removed, so that no other run takes it for a dead run's leftover (see
 * exo_outfile). EXO_PENDING_INIT: none. */
typedef struct exo_pending {
  char *tmp;
  int lock_fd;
} exo_pending;
#define EXO_PENDING_INIT {NULL, -1}

/* exo_output_write, but the finished temporary is not renamed: *pending
 * gets it (tmp NULL when out_path is written through, which cannot be
 * deferred), for exo_output_publish (rename over `path`) or
 * exo_output_discard (remove) once the run's other outputs are written too,
 * so that a failure of any of them leaves every earlier file as it was. On
 * error nothing is left and *pending is EXO_PENDING_INIT. */
exo_status exo_output_write_pending(const char *names_path, const uint64_t *clusters,
                                    uint64_t n, char sep, const char *out_path, int threads,
                                    exo_pending *pending, exo_ctx *ctx);
/* exo_output_write_pending with several cluster columns (nested levels):
 * lines "<name><sep>c1<sep>...<sep>cK\n", c_j = columns[j][v] (each
 * renumbered already), K = ncolumns >= 1; one column is the clusters
 * file. The same threads, order and safety as above. */
exo_status exo_output_write_columns(const char *names_path, const uint64_t *const *columns,
                                    uint32_t ncolumns, uint64_t n, char sep, const char *out_path,
                                    int threads, exo_pending *pending, exo_ctx *ctx);
exo_status exo_output_publish(exo_pending *pending, const char *path, exo_ctx *ctx);
void exo_output_discard(exo_pending *pending); /* NULL-safe; leaves EXO_PENDING_INIT */

/* Whether `path` is written through rather than replaced (see above): an
 * existing device or FIFO (links followed), or a link through a process's
 * descriptor; *regular (may be NULL) is set when the file written is a
 * regular one (the latter case). */
int exo_output_written_through(const char *path, int *regular);

/* One output file written the safe way, for every writer of results (the
 * clusters above, the cluster table of exo_clstats.h): a new or regular
 * `path` gets a temporary "<path>.tmp-XXXXXX" beside it, locked
 * (exo_lock_file) while it exists, that
 * exo_outfile_commit renames over it (a symbolic link is replaced, its
 * target untouched); an existing device or FIFO (links followed) is written
 * into as it is and never replaced, a FIFO without a reader waited for
 * (interrupts polled). Write through `o->w` (exo_io.h). On any error,
 * exo_outfile_abort (commit does it itself) leaves no temporary and `path`
 * as it was. `path` must stay valid until commit or abort. */
typedef struct exo_outfile {
  exo_writer w;
  const char *path;
  exo_pending t; /* t.tmp NULL when writing into a special file */
} exo_outfile;
exo_status exo_outfile_open(exo_outfile *o, const char *path, size_t bufsize, exo_ctx *ctx);
exo_status exo_outfile_commit(exo_outfile *o, exo_ctx *ctx);
/* exo_outfile_commit with pending != NULL: the temporary is closed but not
 * renamed, handed over in *pending (exo_output_publish). */
exo_status exo_outfile_finish(exo_outfile *o, exo_pending *pending, exo_ctx *ctx);

/* Leftovers of killed runs: before it makes its temporary, every writer
 * removes the files "<path>.tmp-XXXXXX" beside `path` (6 letters or digits
 * after the dash) that are regular files of this user, last written at least
 * EXO_STALE_TEMP_SECONDS ago, and not locked by a live run
 * (exo_clean_stale_temps in exo_platform.h). Where locks do not exist
 * (Windows) nothing is removed. */
#define EXO_STALE_TEMP_SECONDS 60
void exo_outfile_abort(exo_outfile *o);

#endif
