/* exo_status.c: the error record (see exo_status.h). */
#include "exo_status.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *exo_status_name(exo_status code) {
  switch (code) {
  case EXO_OK: return "EXO_OK";
  case EXO_EARG: return "EXO_EARG";
  case EXO_EINPUT: return "EXO_EINPUT";
  case EXO_EIO: return "EXO_EIO";
  case EXO_ENOSPC: return "EXO_ENOSPC";
  case EXO_ENOMEM: return "EXO_ENOMEM";
  case EXO_EINTR: return "EXO_EINTR";
  case EXO_ELIMIT: return "EXO_ELIMIT";
  case EXO_EINTERNAL: return "EXO_EINTERNAL";
  }
  return "EXO_UNKNOWN";
}

exo_status exo_error_set(exo_error *err, exo_status code, const char *fmt, ...) {
  if (err == NULL || code == EXO_OK) return code;
  if (err->code != EXO_OK) return code; /* first error wins */
  err->code = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  return code;
}

exo_status exo_error_errno(exo_error *err, int errnum, const char *what,
                           const char *path) {
  exo_status code = EXO_EIO;
  if (errnum == ENOSPC
#ifdef EDQUOT
      || errnum == EDQUOT
#endif
  )
    code = EXO_ENOSPC;
  else if (errnum == ENOMEM)
    code = EXO_ENOMEM;
  if (code == EXO_ENOSPC)
    return exo_error_set(err, code, "no space left on device: cannot %s '%s'",
                         what, path ? path : "?");
  return exo_error_set(err, code, "cannot %s '%s': %s", what, path ? path : "?",
                       strerror(errnum));
}

void exo_error_clear(exo_error *err) {
  if (!err) return;
  err->code = EXO_OK;
  err->msg[0] = '\0';
}
