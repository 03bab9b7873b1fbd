/* exo_opts.c: see exo_opts.h. */
#include "exo_opts.h"

#include <errno.h>
#include <stdio.h>
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

void exo_opt_input_init(exo_opt_input *in) {
  memset(in, 0, sizeof *in);
  in->transform = in->drop_self = in->combine = -1;
}

/* "A,B" or "A,B,W": 1-based column numbers; returns how many (2 or 3). */
static int parse_columns(const char *s, uint32_t cols[3]) {
  int n = 0;
  const char *p = s;
  for (;;) {
    char *end;
    errno = 0;
    if (n == 3 || (unsigned)(*p - '0') >= 10u) break;
    unsigned long v = strtoul(p, &end, 10);
    if (errno || v < 1 || v > EXO_PARSE_MAX_COLUMN) break;
    cols[n++] = (uint32_t)v;
    if (*end == '\0') {
      if (n < 2) break;
      if (n == 2) cols[2] = 0;
      return n;
    }
    if (*end != ',') break;
    p = end + 1;
  }
  return -1;
}

int exo_opt_input_set(exo_opt_input *in, const char *name, const char *arg, char *err,
                      size_t errlen) {
  if (!strcmp(name, "format")) {
    if (!strcmp(arg, "edges")) in->blast = 0;
    else if (!strcmp(arg, "blast")) in->blast = 1;
    else goto bad_format;
  } else if (!strcmp(name, "columns")) {
    uint32_t cols[3] = {0, 0, 0};
    int n = parse_columns(arg, cols);
    if (n < 0) {
      snprintf(err, errlen,
               "--columns must be two or three column numbers from 1 to %u separated by "
               "commas (nodes, nodes[, weight]), not '%s'", (unsigned)EXO_PARSE_MAX_COLUMN, arg);
      return -1;
    }
    memcpy(in->cols, cols, sizeof cols);
    in->ncols = n;
  } else if (!strcmp(name, "weight-transform")) {
    if (!strcmp(arg, "none")) in->transform = EXO_WT_NONE;
    else if (!strcmp(arg, "neglog10")) in->transform = EXO_WT_NEGLOG10;
    else goto bad_transform;
  } else if (!strcmp(name, "min-weight")) {
    char *end;
    errno = 0;
    double x = strtod(arg, &end);
    if (end == arg || *end || errno || !isfinite(x)) {
      snprintf(err, errlen, "--min-weight must be a number, not '%s'", arg);
      return -1;
    }
    if (fabs(x) > 3.4e38) {
      snprintf(err, errlen, "--min-weight is beyond the float range");
      return -1;
    }
    in->min_weight = x;
  } else if (!strcmp(name, "self-hits")) {
    if (!strcmp(arg, "keep")) in->drop_self = 0;
    else if (!strcmp(arg, "drop")) in->drop_self = 1;
    else goto bad_self;
  } else if (!strcmp(name, "combine")) {
    if (!strcmp(arg, "sum")) in->combine = EXO_COMBINE_KEEP;
    else if (!strcmp(arg, "max")) in->combine = EXO_COMBINE_MAX;
    else goto bad_combine;
  } else {
    return 1;
  }
  return 0;
bad_format:
  snprintf(err, errlen, "--format must be 'edges' or 'blast', not '%s'", arg);
  return -1;
bad_transform:
  snprintf(err, errlen, "--weight-transform must be 'none' or 'neglog10', not '%s'", arg);
  return -1;
bad_self:
  snprintf(err, errlen, "--self-hits must be 'keep' or 'drop', not '%s'", arg);
  return -1;
bad_combine:
  snprintf(err, errlen, "--combine must be 'sum' or 'max', not '%s'", arg);
  return -1;
}

int exo_opt_input_apply(const exo_opt_input *in, exo_parse_options *po, float *min_weight,
                        int *drop_self, exo_combine *combine, char *err, size_t errlen) {
  uint32_t cols[3] = {1, 2, in->blast ? 11 : 3};
  if (in->ncols) memcpy(cols, in->cols, sizeof cols);
  po->col_a = cols[0];
  po->col_b = cols[1];
  po->col_w = cols[2];
  po->transform = in->transform >= 0 ? (exo_weight_transform)in->transform
                  : in->blast ? EXO_WT_NEGLOG10 : EXO_WT_NONE;
  if (po->transform != EXO_WT_NONE && !cols[2]) {
    snprintf(err, errlen, "--weight-transform neglog10 needs a weight column in --columns");
    return -1;
  }
  *min_weight = (float)in->min_weight;
  *drop_self = in->drop_self >= 0 ? in->drop_self : in->blast;
  *combine = in->combine >= 0 ? (exo_combine)in->combine
             : in->blast ? EXO_COMBINE_MAX : EXO_COMBINE_KEEP;
  exo_ctx cctx;
  exo_ctx_init(&cctx);
  if (exo_parse_check_options(po, &cctx)) {
    snprintf(err, errlen, "--columns: %s", cctx.err.msg);
    return -1;
  }
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
