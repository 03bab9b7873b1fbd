/* exo_status.h: status codes and the error record every core call fills in.
 *
 * Contract: a core function that fails returns a non-zero exo_status and has
 * written a human-readable message (naming the file and line where that
 * applies) into the context's exo_error. The first error wins: later calls to
 * exo_error_set() (EXO_FAIL) while an error is set do not overwrite it, so cleanup code can
 * report secondary failures without hiding the cause. */
#ifndef EXO_STATUS_H
#define EXO_STATUS_H

#include <stddef.h>

typedef enum exo_status {
  EXO_OK = 0,
  EXO_EARG,      /* invalid argument or option value */
  EXO_EINPUT,    /* malformed input file (message names file and line) */
  EXO_EIO,       /* I/O error: open, read, write, remove */
  EXO_ENOSPC,    /* disk full (or quota) while writing */
  EXO_ENOMEM,    /* allocation failed */
  EXO_EINTR,     /* interrupted through the interrupt callback */
  EXO_ELIMIT,    /* a hard limit was exceeded (node count, line length) */
  EXO_EINTERNAL  /* a broken internal invariant: a bug */
} exo_status;

#define EXO_ERRMSG_MAX 1024

/* printf-style checking of the message formats. MinGW builds use the
 * C99 printf of MinGW-w64 (-D__USE_MINGW_ANSI_STDIO=1: %zu, %llu), which GCC
 * checks as gnu_printf. */
#if defined(__MINGW32__)
#define EXO_PRINTF_STYLE gnu_printf
#else
#define EXO_PRINTF_STYLE printf
#endif

typedef struct exo_error {
  exo_status code;
  char msg[EXO_ERRMSG_MAX];
} exo_error;

/* Short stable name of a status code, e.g. "EXO_EINPUT". */
const char *exo_status_name(exo_status code);

/* Record an error unless one is already recorded; returns `code`. */
exo_status exo_error_set(exo_error *err, exo_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(EXO_PRINTF_STYLE, 3, 4)))
#endif
    ;

/* Record an I/O error for `path` built from errno `errnum`; ENOSPC and EDQUOT
 * map to EXO_ENOSPC, ENOMEM to EXO_ENOMEM, the rest to EXO_EIO. */
exo_status exo_error_errno(exo_error *err, int errnum, const char *what,
                           const char *path);

void exo_error_clear(exo_error *err);

#endif
