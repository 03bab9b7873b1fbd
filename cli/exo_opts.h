/* exo_opts.h: option values shared by the command-line drivers (cli/exolabel.c
 * and mpi/exolabel_mpi.c), so both read sizes, counts and separators the
 * same way and map core statuses to the same exit codes. Each parser returns
 * 0 and sets *out, or -1 and leaves *out alone; the driver words the error. */
#ifndef EXO_OPTS_H
#define EXO_OPTS_H

#include <stdint.h>

#include <stddef.h>

#include "exo_parse.h"
#include "exo_sort.h"
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

/* The search-tool input options (--format, --columns, --weight-transform,
 * --min-weight, --self-hits, --combine), as both drivers read them: set one
 * with exo_opt_input_set(), then exo_opt_input_apply() resolves the format's
 * defaults into the core's options. */
typedef struct exo_opt_input {
  int blast;                  /* --format blast */
  int transform, drop_self, combine; /* -1 = the format's default */
  uint32_t cols[3];
  int ncols;                  /* 0 = the format's columns */
  double min_weight;
} exo_opt_input;
void exo_opt_input_init(exo_opt_input *in);
/* name is the long option without "--" ("format", "columns", ...). Returns 1
 * when name is not one of these options, 0 when it was read, -1 with a
 * message in err (naming the option) when arg is invalid. */
int exo_opt_input_set(exo_opt_input *in, const char *name, const char *arg, char *err,
                      size_t errlen);
/* Fills po's columns and transform and the edge filters. Returns -1 with a
 * message in err when the options contradict each other. */
int exo_opt_input_apply(const exo_opt_input *in, exo_parse_options *po, float *min_weight,
                        int *drop_self, exo_combine *combine, char *err, size_t errlen);

/* Exit codes of the drivers, documented in `exolabel --help`. */
#define EXO_EXIT_USAGE 2
#define EXO_EXIT_INPUT 3
#define EXO_EXIT_IO 4
#define EXO_EXIT_NOMEM 5
#define EXO_EXIT_INTERNAL 70
#define EXO_EXIT_INTERRUPTED 130
int exo_opt_exit_code(exo_status st);

#endif
