/* exo_opts.h: what the command-line drivers (cli/exolabel.c and
 * mpi/exolabel_mpi.c) share beyond the core's option table
 * (src/core/exo_options.h, which defines, parses and resolves every option
 * that reaches the core): the exit codes and the mapping of core statuses
 * to them. */
#ifndef EXO_OPTS_H
#define EXO_OPTS_H

#include <getopt.h>
#include <stdint.h>

#include "exo_options.h"
#include "exo_status.h"

/* Exit codes of the drivers, documented in `exolabel --help`. */
#define EXO_EXIT_USAGE 2
#define EXO_EXIT_INPUT 3
#define EXO_EXIT_IO 4
#define EXO_EXIT_NOMEM 5
#define EXO_EXIT_INTERNAL 70
#define EXO_EXIT_INTERRUPTED 130
int exo_opt_exit_code(exo_status st);

/* A driver's long options for getopt_long: its own (`own`, `n_own` of them,
 * at most EXO_OPT_OWN_MAX), then one per entry of the core's table, named
 * as there with '-' for '_' (exo_options_display), whose getopt value is
 * `first_core` + the entry's id; closed by a zero entry. */
/* Whether the core option `name` was given before on this command line: one
 * bit per entry of the core's table in *seen (0 at the start), set here.
 * Both drivers refuse an option given twice (a script that sets one twice
 * means one of the two, and the other would be dropped without a word). */
int exo_opt_given_twice(uint32_t *seen, const char *name);

#define EXO_OPT_OWN_MAX 16
typedef struct exo_opt_longopts {
  struct option opts[EXO_OPT_OWN_MAX + EXO_OPT_COUNT + 1];
  char names[EXO_OPT_COUNT][48];
} exo_opt_longopts;
void exo_opt_longopts_build(exo_opt_longopts *l, const struct option *own, int n_own,
                            int first_core);

#endif
