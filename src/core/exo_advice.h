/* exo_advice.h: the advice every driver gives its user in the same words,
 * worded once here in the driver's style (exo_opt_style of exo_options.h:
 * "--memory-limit" for the command-line tools, 'memory_limit' for R).
 *
 * - Out of memory: what memory_limit was, how much RAM the machine has, and
 *   what to do (exo_advice_oom).
 * - Search-tool output read as a plain edge list: whether a file looks like
 *   the 12-column tabular output of BLAST+, DIAMOND or MMseqs2
 *   (exo_advice_looks_like_search_output) and the warning that says what
 *   that means and how to read it instead (exo_advice_search_output).
 *
 * Contract: no globals that change; texts are written into the caller's
 * buffer (NUL-terminated, truncated at len) and the functions return the
 * length they need. The file check opens only regular files (a pipe, a
 * FIFO or a device would lose the bytes read, or block), reads at most
 * 256 KiB of them (decompressed: gzip files too, through exo_input.h) into
 * a buffer it frees, and never fails: a file it cannot read does not look
 * like search output. */
#ifndef EXO_ADVICE_H
#define EXO_ADVICE_H

#include <stddef.h>
#include <stdint.h>

#include "exo_options.h"

/* Bytes as "512 B", "1.5 KiB", "8.0 GiB" (powers of 1024). */
size_t exo_advice_bytes(double bytes, char *buf, size_t len);
/* An amount for a progress line: bytes as exo_advice_bytes() when `bytes`,
 * other counts as "950", "1.5 k", "2.0 M", "3.1 G" (powers of 1000). Both
 * drivers' progress lines use it. Returns what snprintf returns (0 on an
 * encoding error). */
size_t exo_advice_amount(double x, int bytes, char *buf, size_t len);

/* " (memory_limit is 8.0 GiB; this machine has 16.0 GiB of RAM): lower
 * 'memory_limit', which caps the buffers (...), or run on a machine with
 * more memory": to append to an out-of-memory error. */
size_t exo_advice_oom(exo_opt_style style, uint64_t memory_limit, char *buf, size_t len);

/* 1 when the first data lines of a regular file, plain or gzip (after
 * `header` lines; at most 20, within its first 256 KiB) have 12 fields, fields
 * 3-12 numbers, the identity (3) within 0-100, fields 4-10 whole numbers
 * and the e-value (11) not negative; else 0. */
int exo_advice_looks_like_search_output(const char *path, char sep, uint64_t header);

/* "<subject> like BLAST/DIAMOND/MMseqs2 tabular output (12 columns): ...":
 * the warning for an edge list that looks like search output; subject
 * names it ("hits.m8 looks", "the edge list looks"). */
size_t exo_advice_search_output(exo_opt_style style, const char *subject, char *buf,
                                size_t len);

#endif
