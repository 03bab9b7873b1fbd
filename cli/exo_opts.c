/* exo_opts.c: see exo_opts.h. */
#include "exo_opts.h"

#include <string.h>

int exo_opt_exit_code(exo_status st) {
  switch (st) {
  case EXO_OK: return 0;
  case EXO_EARG: return EXO_EXIT_USAGE;
  case EXO_EINPUT: case EXO_ELIMIT: return EXO_EXIT_INPUT;
  case EXO_EIO: case EXO_ENOSPC: return EXO_EXIT_IO;
  case EXO_ENOMEM: return EXO_EXIT_NOMEM;
  case EXO_EINTR: return EXO_EXIT_INTERRUPTED;
  default: return EXO_EXIT_INTERNAL;
  }
}

void exo_opt_longopts_build(exo_opt_longopts *l, const struct option *own, int n_own,
                            int first_core) {
  int n = 0;
  for (int i = 0; i < n_own && i < EXO_OPT_OWN_MAX; i++) l->opts[n++] = own[i];
  const exo_opt_def *defs = exo_options_table();
  for (int i = 0; i < EXO_OPT_COUNT; i++) {
    exo_options_display(&defs[i], EXO_OPT_STYLE_CLI, l->names[i], sizeof l->names[i]);
    l->opts[n++] = (struct option){l->names[i] + 2, /* past the "--" */
                                   defs[i].metavar ? required_argument : no_argument, 0,
                                   first_core + i};
  }
  l->opts[n] = (struct option){0, 0, 0, 0};
}

int exo_opt_given_twice(uint32_t *seen, const char *name) {
  const exo_opt_def *defs = exo_options_table();
  for (int k = 0; k < EXO_OPT_COUNT; k++) {
    if (strcmp(defs[k].name, name) != 0) continue;
    if (*seen >> k & 1u) return 1;
    *seen |= 1u << k;
    return 0;
  }
  return 0;
}
