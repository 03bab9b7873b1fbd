/* exo_outcheck.h: refuse output paths that would destroy an input or be
 * lost with the temporary directory.
 *
 * exo_check_outputs() is called by every host (R glue, command-line tool)
 * before anything is read or written, and by the pipeline before it writes
 * a cluster file. It fails with EXO_EARG and a message naming both paths
 * when
 *   - an output is the same file as an input: the same (device, inode) for
 *     an existing output, so a symlink, a hard link or another spelling of
 *     the input's path is caught (only inputs that are regular files count:
 *     standard input or a terminal named twice is not a clash);
 *   - two outputs are the same file: the same (device, inode) when both
 *     exist, otherwise the same absolute path once their directories are
 *     resolved (realpath, so symlinked directories and "a/../" count);
 *   - an output is an existing directory;
 *   - an output lies inside `private_dir` (the run's temporary directory,
 *     which is removed at the end; NULL = not checked).
 * Nothing is created, opened for writing or removed. Paths whose directory
 * does not exist yet are compared as spelled (they cannot be an input). */
#ifndef EXO_OUTCHECK_H
#define EXO_OUTCHECK_H

#include <stddef.h>

#include "exo_ctx.h"

exo_status exo_check_outputs(const char *const *inputs, size_t ninputs,
                             const char *const *outputs, size_t noutputs,
                             const char *private_dir, exo_ctx *ctx);

/* Whether the outputs and the temporary directory can be written, before
 * any work: for each output, a file "<output>.tmp-XXXXXX" is created beside
 * it (where the writer's temporary file will go), one byte is written to
 * it and it is removed; the same in `tmpdir` (NULL: not probed). So a
 * read-only, missing or full directory fails at once with EXO_EIO or
 * EXO_ENOSPC and a message naming the output, instead of after the run.
 * Outputs that are written through (a device, a FIFO, a link through a
 * process's descriptor such as /dev/stdout: exo_output_written_through in
 * exo_output.h) are not probed.
 * Leaves nothing behind. */
exo_status exo_probe_outputs(const char *const *outputs, size_t noutputs, const char *tmpdir,
                             exo_ctx *ctx);

#endif
