/* exo_opts.c: see exo_opts.h. */
#include "exo_opts.h"

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
