/* exo_output.h: writing "name<sep>cluster\n" for every node.
 *
 * Clusters are numbered 1..K in order of first appearance when nodes are
 * listed by id (i.e. by first appearance in the input). Names are streamed
 * from the names file (exo_names.h: "<name>\n" in id order) and lines are
 * formatted by hand into a large buffer. The text goes to a temporary file
 * beside `out_path` that is renamed over it at the end, so a failed run
 * leaves no partial output. When `out_path` is a symbolic link to a regular
 * file, the link itself is replaced (its target is never written). When it
 * names an existing file that is neither regular nor a directory (a device
 * such as /dev/null, a FIFO; links followed), the lines are written into it
 * in order by one thread, and it is never replaced or removed; a FIFO
 * without a reader is waited for (interrupts are polled). */
#ifndef EXO_OUTPUT_H
#define EXO_OUTPUT_H

#include <stdint.h>

#include "exo_ctx.h"
#include "exo_io.h"

/* Renumber labels in place: labels[v] becomes v's cluster number 1..K, in
 * order of first appearance. `labels` holds ids < n. *num_clusters = K.
 * Needs 8 bytes per node of scratch. */
exo_status exo_output_renumber(uint64_t *labels, uint64_t n, uint64_t *num_clusters,
                               exo_ctx *ctx);

/* Write the output for clusters already renumbered (1..K). With threads
 * > 1 the lines are formatted in up to `threads` blocks of at least 64 KiB
 * of names, side by side, each written at its place in the file; the bytes
 * are the same for every thread count. Memory: 8 MiB of buffers per thread. */
exo_status exo_output_write(const char *names_path, const uint64_t *clusters,
                            uint64_t n, char sep, const char *out_path, int threads,
                            exo_ctx *ctx);

/* One output file written the safe way, for every writer of results (the
 * clusters above, the cluster table of exo_clstats.h): a new or regular
 * `path` gets a temporary "<path>.tmp-XXXXXX" beside it that
 * exo_outfile_commit renames over it (a symbolic link is replaced, its
 * target untouched); an existing device or FIFO (links followed) is written
 * into as it is and never replaced, a FIFO without a reader waited for
 * (interrupts polled). Write through `o->w` (exo_io.h). On any error,
 * exo_outfile_abort (commit does it itself) leaves no temporary and `path`
 * as it was. `path` must stay valid until commit or abort. */
typedef struct exo_outfile {
  exo_writer w;
  const char *path;
  char *tmp; /* NULL when writing into a special file */
} exo_outfile;
exo_status exo_outfile_open(exo_outfile *o, const char *path, size_t bufsize, exo_ctx *ctx);
exo_status exo_outfile_commit(exo_outfile *o, exo_ctx *ctx);
void exo_outfile_abort(exo_outfile *o);

#endif
