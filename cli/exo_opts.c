/* exo_opts.c: see exo_opts.h. */
#include "exo_opts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int exo_opt_u64(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  if (*s == '-') return -1;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s || *end || errno) return -1;
  *out = (uint64_t)v;
  return 0;
}

int exo_opt_size(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  double x = strtod(s, &end);
  if (end == s || errno || !(x >= 0)) return -1;
  while (*end == ' ') end++;
  double mult = 1;
  switch (*end) {
  case 'k': case 'K': mult = 1024.0; end++; break;
  case 'm': case 'M': mult = 1048576.0; end++; break;
  case 'g': case 'G': mult = 1073741824.0; end++; break;
  case 't': case 'T': mult = 1099511627776.0; end++; break;
  default: break;
  }
  if (*end == 'i') end++;
  if (*end == 'b' || *end == 'B') end++;
  while (*end == ' ') end++;
  double bytes = floor(x * mult);
  if (*end || bytes > 1.8e19) return -1;
  *out = (uint64_t)bytes;
  return 0;
}

int exo_opt_sep(const char *s, char *out) {
  if (!strcmp(s, "\\t") || !strcasecmp(s, "tab")) *out = '\t';
  else if (!strcasecmp(s, "comma")) *out = ',';
  else if (!strcasecmp(s, "space")) *out = ' ';
  else if (strlen(s) != 1 || s[0] == '\n' || s[0] == '\r') return -1;
  else *out = s[0];
  return 0;
}

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
