/* exo_advice.c: advice worded once for every driver (contract in exo_advice.h). */
#include "exo_advice.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_input.h"
#include "exo_platform.h"

size_t exo_advice_amount(double x, int bytes, char *buf, size_t len) {
  static const char *const sizes[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  static const char *const counts[] = {"", "k", "M", "G", "T", "P"};
  const double step = bytes ? 1024.0 : 1000.0;
  int u = 0;
  while (x >= step && u < 5) {
    x /= step;
    u++;
  }
  int n = u ? snprintf(buf, len, "%.1f %s", x, bytes ? sizes[u] : counts[u])
            : snprintf(buf, len, bytes ? "%.0f B" : "%.0f", x);
  return n < 0 ? 0 : (size_t)n;
}

size_t exo_advice_bytes(double x, char *buf, size_t len) {
  return exo_advice_amount(x, 1, buf, len);
}

size_t exo_advice_oom(exo_opt_style style, uint64_t memory_limit, char *buf, size_t len) {
  char name[64], limit[32], ram[32];
  const exo_opt_def *d = exo_options_find("memory_limit");
  exo_options_display(d, style, name, sizeof name);
  exo_advice_bytes((double)memory_limit, limit, sizeof limit);
  const uint64_t phys = exo_mem_physical();
  if (phys) exo_advice_bytes((double)phys, ram, sizeof ram);
  int n = snprintf(buf, len,
                   " (%s is %s; this machine has %s of RAM): lower %s, which caps the "
                   "buffers (the per-node arrays come on top), or run on a machine with "
                   "more memory",
                   style == EXO_OPT_STYLE_R ? d->name : name, limit,
                   phys ? ram : "an unknown amount", name);
  return n < 0 ? 0 : (size_t)n;
}

/* One line's 12 fields as search output (the fields are cut in place). */
static int line_is_hit(char *line, char sep) {
  char *field[13];
  int nf = 0;
  char *p = line;
  for (;;) {
    if (nf == 13) break;
    field[nf++] = p;
    char *q = strchr(p, sep);
    if (!q) break;
    *q = '\0';
    p = q + 1;
  }
  if (nf != 12) return 0;
  for (int j = 2; j < 12; j++) {
    char *end = NULL;
    errno = 0;
    double v = strtod(field[j], &end);
    if (!*field[j] || *end || errno || !isfinite(v)) return 0;
    if (j == 2 && (v < 0 || v > 100)) return 0;
    if (j >= 3 && j <= 9 && v != floor(v)) return 0;
    if (j == 10 && v < 0) return 0;
  }
  return 1;
}

#define HEAD_BYTES ((size_t)256 << 10) /* the most of a file looked at */

int exo_advice_looks_like_search_output(const char *path, char sep, uint64_t header) {
  uint64_t size = 0;
  int kind = 0;
  if (exo_path_stat(path, &size, &kind) != 0 || kind != EXO_FILE_REGULAR || size == 0) return 0;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_input *in = NULL;
  if (exo_input_open(&in, path, &ctx) != EXO_OK) return 0;
  char *buf = malloc(HEAD_BYTES + 1);
  size_t have = 0;
  if (buf) {
    size_t got = 0;
    do {
      if (exo_input_read(in, (uint8_t *)buf + have, HEAD_BYTES - have, &got, &ctx) != EXO_OK)
        got = 0;
      have += got;
    } while (got && have < HEAD_BYTES);
  }
  exo_input_close(in);
  if (!buf) return 0;
  buf[have] = '\0';
  int checked = 0, ok = 1;
  uint64_t skipped = 0;
  for (char *line = buf; ok && checked < 20 && line < buf + have;) {
    char *nl = memchr(line, '\n', (size_t)(buf + have - line));
    if (!nl && have == HEAD_BYTES) break; /* a line cut by the end of what was read */
    char *next = nl ? nl + 1 : buf + have;
    size_t n = (size_t)((nl ? nl : buf + have) - line);
    line[n] = '\0';
    while (n && line[n - 1] == '\r') line[--n] = '\0';
    if (skipped < header) skipped++;
    else if (n && memchr(line, '\0', n) == NULL) {
      ok = line_is_hit(line, sep);
      checked++;
    } else if (n) {
      ok = 0; /* a NUL byte: not text */
    }
    line = next;
  }
  free(buf);
  return ok && checked > 0;
}

size_t exo_advice_search_output(exo_opt_style style, const char *subject, char *buf,
                                size_t len) {
  const int r = style == EXO_OPT_STYLE_R;
  int n = snprintf(buf, len,
                   "%s like BLAST/DIAMOND/MMseqs2 tabular output (12 columns): read as a "
                   "plain edge list, column 3 (percent identity) is the weight and self hits "
                   "are kept; use %s to weigh hits by bit score over self score, drop self "
                   "hits and keep one edge per pair (%s to silence this)",
                   subject, r ? "format = \"blast\"" : "--format blast",
                   r ? "set 'format' or 'columns'" : "give --format or --columns");
  return n < 0 ? 0 : (size_t)n;
}
