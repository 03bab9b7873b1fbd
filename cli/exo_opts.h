/* exo_opts.h: option values shared by the command-line drivers (cli/exolabel.c
 * and mpi/exolabel_mpi.c), so both read sizes, counts and separators the
 * same way and map core statuses to the same exit codes. Each parser returns
 * 0 and sets *out, or -1 and leaves *out alone; the driver words the error. */
#ifndef EXO_OPTS_H
#define EXO_OPTS_H

#include <stdint.h>

#include "exo_status.h"

/* A non-negative whole number in decimal ("-1", "", "3x" fail). */
int exo_opt_u64(const char *s, uint64_t *out);
/* Bytes from "123", "512MB", "2GB", "64MiB", "1.5G" (powers of 1024; K, M,
 * G, T with an optional "i" and "B"; spaces around the unit). Fails on
 * anything else and on values beyond 1.8e19; the caller checks its minimum. */
int exo_opt_size(const char *s, uint64_t *out);
/* A field separator: "\t" (the two characters), "tab", "comma", "space", or
 * one byte other than CR and LF. */
int exo_opt_sep(const char *s, char *out);

/* Exit codes of the drivers, documented in `exolabel --help`. */
#define EXO_EXIT_USAGE 2
#define EXO_EXIT_INPUT 3
#define EXO_EXIT_IO 4
#define EXO_EXIT_NOMEM 5
#define EXO_EXIT_INTERNAL 70
#define EXO_EXIT_INTERRUPTED 130
int exo_opt_exit_code(exo_status st);

#endif
