/* exo_opts.h: what the command-line drivers (cli/exolabel.c and
 * mpi/exolabel_mpi.c) share beyond the core's option table
 * (src/core/exo_options.h, which defines, parses and resolves every option
 * that reaches the core): the exit codes and the mapping of core statuses
 * to them. */
#ifndef EXO_OPTS_H
#define EXO_OPTS_H

#include "exo_status.h"

/* Exit codes of the drivers, documented in `exolabel --help`. */
#define EXO_EXIT_USAGE 2
#define EXO_EXIT_INPUT 3
#define EXO_EXIT_IO 4
#define EXO_EXIT_NOMEM 5
#define EXO_EXIT_INTERNAL 70
#define EXO_EXIT_INTERRUPTED 130
int exo_opt_exit_code(exo_status st);

#endif
