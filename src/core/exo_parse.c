/* exo_parse.c: edge-list text to (id, id, weight) triples (see exo_parse.h).
 *
 * The decompressed text is read in 1 MiB chunks into a growable buffer. All
 * complete lines in the buffer are processed; the partial last line is moved
 * to the front before the next read, and the buffer doubles when that tail
 * leaves less than a chunk free (up to EXO_PARSE_MAX_LINE plus two chunks).
 *
 * Line ends and separators are found with memchr. CR and NUL bytes are
 * rare, so instead of testing every byte they are located with memchr over
 * the whole buffered region and the position of the next one is cached (see
 * `scan`): a line only needs two comparisons to learn that it holds none. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_parse.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_input.h"
#include "exo_io.h"

#define PARSE_CHUNK ((size_t)1 << 20)    /* bytes requested per read */
#define PARSE_POLL ((size_t)64 << 10)    /* exo_poll() at least this often */
#define PARSE_MAX_BUF (EXO_PARSE_MAX_LINE + 2 * PARSE_CHUNK)
#define WEIGHT_MAX_TEXT 256              /* longer weight fields: not a number */

/* ---- weights -------------------------------------------------------------- */

/* Powers of ten that are exact in float (5^10 < 2^24). */
static const float pow10f_exact[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                       1e6f, 1e7f, 1e8f, 1e9f, 1e10f};

/* Parse a weight: optional ASCII spaces around a decimal number in C-locale
 * strtof syntax (so also hex floats). The result is the correctly rounded
 * float. Returns 0 (and sets *w), -1 for not a number (also for fields of
 * more than 256 bytes after trimming), -2 for NaN or infinity, -3 when the
 * magnitude exceeds FLT_MAX. Values too small for a float underflow to 0 (or
 * a subnormal) and are accepted: "1e-50" gives 0.
 *
 * Fast path: [+-]digits[.digits][e[+-]digits] whose significant digits form
 * an integer m < 2^24 and whose decimal exponent k lies in [-10, 10]. Then m
 * and 10^|k| are exact floats and one IEEE multiply or divide yields the
 * correctly rounded result (also under FLT_EVAL_METHOD 2, since a wider
 * format of >= 50 bits makes the double rounding innocuous). Everything else
 * goes to strtof on a NUL-terminated copy. */
int exo_parse_weight(const char *s, size_t len, float *w) {
  const char *p = s, *end = s + len;
  while (p < end && *p == ' ') p++;
  while (end > p && end[-1] == ' ') end--;
  if (p == end) return -1;

  const char *q = p;
  int neg = 0;
  if (*q == '+' || *q == '-') {
    neg = *q == '-';
    q++;
  }
  uint64_t m = 0;
  int sig = 0, digits = 0, frac = 0;
  while (q < end && (unsigned)(*q - '0') < 10u) {
    unsigned d = (unsigned)(*q - '0');
    if (m != 0 || d != 0) {
      if (++sig > 19) goto slow;
      m = m * 10 + d;
    }
    digits++;
    q++;
  }
  if (q < end && *q == '.') {
    q++;
    while (q < end && (unsigned)(*q - '0') < 10u) {
      unsigned d = (unsigned)(*q - '0');
      if (m != 0 || d != 0) {
        if (++sig > 19) goto slow;
        m = m * 10 + d;
      }
      digits++;
      frac++;
      q++;
    }
  }
  if (digits == 0) goto slow;
  long e10 = 0;
  if (q < end && (*q == 'e' || *q == 'E')) {
    q++;
    int eneg = 0;
    if (q < end && (*q == '+' || *q == '-')) {
      eneg = *q == '-';
      q++;
    }
    if (q == end || (unsigned)(*q - '0') >= 10u) goto slow;
    while (q < end && (unsigned)(*q - '0') < 10u) {
      if (e10 < 100000) e10 = e10 * 10 + (*q - '0');
      q++;
    }
    if (eneg) e10 = -e10;
  }
  if (q != end) goto slow;
  if (m == 0) {
    *w = neg ? -0.0f : 0.0f;
    return 0;
  }
  e10 -= frac;
  if (m < ((uint64_t)1 << 24) && e10 >= -10 && e10 <= 10) {
    float f = (float)m;
    if (e10 > 0)
      f = f * pow10f_exact[e10];
    else if (e10 < 0)
      f = f / pow10f_exact[-e10];
    *w = neg ? -f : f;
    return 0;
  }

slow:;
  size_t n = (size_t)(end - p);
  if (n > WEIGHT_MAX_TEXT) return -1;
  /* strtof would skip other leading white space: not ours to accept */
  if (*p == '\t' || *p == '\n' || *p == '\v' || *p == '\f' || *p == '\r') return -1;
  char tmp[WEIGHT_MAX_TEXT + 1];
  memcpy(tmp, p, n);
  tmp[n] = '\0';
  int saved = errno;
  errno = 0;
  char *ep = NULL;
  float f = strtof(tmp, &ep);
  int range = errno == ERANGE;
  errno = saved;
  if (ep == tmp || ep != tmp + n) return -1;
  if (isnan(f)) return -2;
  if (isinf(f)) return range ? -3 : -2;
  *w = f;
  return 0;
}

/* ---- cached search for rare bytes ------------------------------------------ */

/* In buffer offsets [lo, hi) the first occurrence of the byte is at `at`,
 * or there is none when at == hi. */
typedef struct scan {
  size_t lo, hi, at;
} scan;

/* Search [s, len) afresh. */
static void scan_from(scan *sc, const uint8_t *buf, size_t len, int c, size_t s) {
  const uint8_t *p = memchr(buf + s, c, len - s);
  sc->lo = s;
  sc->hi = len;
  sc->at = p ? (size_t)(p - buf) : len;
}

/* Is byte c in [s, e)? (s never decreases between calls, e <= len.) Sets
 * *pos to the first one. */
static inline int scan_find(scan *sc, const uint8_t *buf, size_t len, int c, size_t s,
                            size_t e, size_t *pos) {
  if (sc->at == sc->hi) { /* none in [lo, hi) */
    if (s < sc->lo) {
      scan_from(sc, buf, len, c, s);
    } else if (e > sc->hi) { /* extend the search over [hi, len) */
      const uint8_t *p = memchr(buf + sc->hi, c, len - sc->hi);
      sc->at = p ? (size_t)(p - buf) : len;
      sc->hi = len;
    }
  }
  if (sc->at < s) scan_from(sc, buf, len, c, s); /* that one is behind us */
  if (sc->at < sc->hi && sc->at < e) {
    *pos = sc->at;
    return 1;
  }
  return 0;
}

/* The buffer's contents from offset d were moved to offset 0. */
static void scan_shift(scan *sc, size_t d) {
  if (sc->hi < d || (sc->at < sc->hi && sc->at < d)) {
    sc->lo = sc->hi = sc->at = 0;
    return;
  }
  sc->lo = sc->lo > d ? sc->lo - d : 0;
  sc->hi -= d;
  sc->at -= d;
}

/* ---- the parser ------------------------------------------------------------- */

typedef struct parser {
  const char *path;
  char sep;
  uint64_t header_lines;
  int ignore_weights;
  exo_names *names;
  exo_edge_fn fn;
  void *user;
  exo_ctx *ctx;
  uint8_t *buf;
  size_t cap, len;
  size_t start;     /* offset of the first unprocessed line */
  size_t nl_from;   /* no LF in [start, nl_from) */
  size_t poll_mark; /* offset of the last exo_poll() */
  scan cr, nul;
  uint64_t lineno;  /* physical lines seen */
  uint64_t edges;
} parser;

/* Readable name of a separator byte, e.g. "tab" or "','". */
static const char *sep_name(char sep, char out[16]) {
  unsigned char c = (unsigned char)sep;
  if (c == '\t') return "tab";
  if (c >= 0x20 && c < 0x7f)
    snprintf(out, 16, "'%c'", c);
  else
    snprintf(out, 16, "byte 0x%02x", c);
  return out;
}

/* Quote up to 40 bytes of a field for a message, escaping odd bytes. */
static void quote_field(const uint8_t *p, size_t n, char *out, size_t outsz) {
  size_t k = 0, lim = n > 40 ? 40 : n;
  out[k++] = '\'';
  for (size_t i = 0; i < lim && k + 8 < outsz; i++) {
    unsigned char c = p[i];
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      out[k++] = (char)c;
    } else {
      snprintf(out + k, outsz - k, "\\x%02x", c);
      k += 4;
    }
  }
  if (n > lim && k + 4 < outsz) {
    memcpy(out + k, "...", 3);
    k += 3;
  }
  out[k++] = '\'';
  out[k] = '\0';
}

/* Record "<path>:<line>: <message>" as EXO_EINPUT. */
static exo_status line_error(parser *P, uint64_t line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static exo_status line_error(parser *P, uint64_t line, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return EXO_FAIL(P->ctx, EXO_EINPUT, "%s:%" PRIu64 ": %s", P->path, line, msg);
}

/* Wrong number of fields on [p, end): count them and, for a single field,
 * suggest a separator that the line does contain. */
static exo_status field_count_error(parser *P, const uint8_t *p, const uint8_t *end) {
  char sb[16];
  const char *sn = sep_name(P->sep, sb);
  uint64_t fields = 1;
  for (const uint8_t *q = p; q < end; q++) fields += *q == (uint8_t)P->sep;
  if (fields > 1)
    return line_error(P, P->lineno, "expected 2 or 3 fields separated by %s, found %" PRIu64,
                      sn, fields);
  static const char candidates[] = {'\t', ',', ';', ' ', '|'};
  for (size_t i = 0; i < sizeof candidates; i++) {
    char c = candidates[i];
    if (c != P->sep && memchr(p, c, (size_t)(end - p))) {
      char cb[16];
      const char *cn = sep_name(c, cb);
      return line_error(P, P->lineno,
                        "expected 2 or 3 fields separated by %s, found 1 (no %s in the "
                        "line, but it contains %s: is the separator %s?)",
                        sn, sn, cn, cn);
    }
  }
  return line_error(P, P->lineno,
                    "expected 2 or 3 fields separated by %s, found 1 (no %s in the line)",
                    sn, sn);
}

/* Handle one physical line [s, e) of the buffer (LF excluded); P->lineno is
 * its number. */
static inline exo_status do_line(parser *P, size_t s, size_t e) {
  if (e - s > EXO_PARSE_MAX_LINE)
    return line_error(P, P->lineno, "line longer than %zu bytes", EXO_PARSE_MAX_LINE);
  if (P->lineno <= P->header_lines) return EXO_OK;
  const uint8_t *buf = P->buf;
  size_t pos;
  if (scan_find(&P->cr, buf, P->len, '\r', s, e, &pos)) {
    if (pos != e - 1)
      return line_error(P, P->lineno,
                        "carriage return inside a field (a CR is allowed only right "
                        "before the end of the line)");
    e--;
  }
  if (e == s) return EXO_OK; /* empty line */
  if (scan_find(&P->nul, buf, P->len, '\0', s, e, &pos))
    return line_error(P, P->lineno, "NUL byte in the line (is this a binary file?)");

  const uint8_t *p = buf + s, *end = buf + e;
  const uint8_t *t1 = memchr(p, P->sep, (size_t)(end - p));
  if (!t1) return field_count_error(P, p, end);
  const uint8_t *b = t1 + 1;
  const uint8_t *t2 = memchr(b, P->sep, (size_t)(end - b));
  const uint8_t *bend = t2 ? t2 : end;
  const uint8_t *wp = NULL;
  if (t2 && !P->ignore_weights) {
    wp = t2 + 1;
    if (memchr(wp, P->sep, (size_t)(end - wp))) return field_count_error(P, p, end);
  }
  if (t1 == p) return line_error(P, P->lineno, "empty name in field 1");
  if (bend == b) return line_error(P, P->lineno, "empty name in field 2");
  float w = 1.0f;
  if (wp) {
    int r = exo_parse_weight((const char *)wp, (size_t)(end - wp), &w);
    if (r != 0) {
      char q[200];
      quote_field(wp, (size_t)(end - wp), q, sizeof q);
      if (r == -2)
        return line_error(P, P->lineno, "weight %s is not finite (NaN or infinite)", q);
      if (r == -3)
        return line_error(P, P->lineno,
                          "weight %s is beyond the float range (magnitude above 3.4e38)", q);
      return line_error(P, P->lineno, "weight %s is not a number", q);
    }
  }
  uint64_t ia, ib;
  exo_status st = exo_names_intern(P->names, p, (size_t)(t1 - p), &ia, P->ctx);
  if (st) return st;
  st = exo_names_intern(P->names, b, (size_t)(bend - b), &ib, P->ctx);
  if (st) return st;
  st = P->fn(P->user, ia, ib, w, P->ctx);
  if (st) {
    EXO_FAIL(P->ctx, st, "%s:%" PRIu64 ": the edge callback failed (%s)", P->path, P->lineno,
             exo_status_name(st));
    return st;
  }
  P->edges++;
  return EXO_OK;
}

/* Process every complete line in the buffer; at end of input (eof) also the
 * final line without LF. */
static exo_status process(parser *P, int eof) {
  const uint8_t *buf = P->buf;
  const size_t len = P->len;
  size_t s = P->start;
  while (s < len) {
    const uint8_t *nl = memchr(buf + P->nl_from, '\n', len - P->nl_from);
    size_t e;
    if (nl) {
      e = (size_t)(nl - buf);
    } else {
      P->nl_from = len;
      if (!eof) break;
      e = len;
    }
    P->lineno++;
    exo_status st = do_line(P, s, e);
    if (st) {
      P->start = s;
      return st;
    }
    s = e + 1 < len ? e + 1 : len;
    P->nl_from = s;
    if (s - P->poll_mark >= PARSE_POLL) {
      P->poll_mark = s;
      st = exo_poll(P->ctx);
      if (st) {
        P->start = s;
        return st;
      }
    }
  }
  P->start = s;
  return EXO_OK;
}

/* Move the unprocessed tail to the front and make room for a chunk. */
static exo_status make_room(parser *P) {
  size_t d = P->start;
  if (d > 0) {
    size_t tail = P->len - d;
    if (tail) memmove(P->buf, P->buf + d, tail);
    P->len = tail;
    P->start = 0;
    P->nl_from -= d;
    P->poll_mark = 0;
    scan_shift(&P->cr, d);
    scan_shift(&P->nul, d);
  }
  if (P->len > EXO_PARSE_MAX_LINE)
    return line_error(P, P->lineno + 1, "line longer than %zu bytes", EXO_PARSE_MAX_LINE);
  if (P->cap - P->len < PARSE_CHUNK) {
    size_t ncap = P->cap * 2;
    if (ncap > PARSE_MAX_BUF) ncap = PARSE_MAX_BUF;
    uint8_t *nb = realloc(P->buf, ncap);
    if (!nb)
      return EXO_FAIL(P->ctx, EXO_ENOMEM, "%s:%" PRIu64 ": out of memory for a %zu byte line buffer",
                      P->path, P->lineno + 1, ncap);
    P->buf = nb;
    P->cap = ncap;
  }
  return EXO_OK;
}

/* Parse one file; see exo_parse.h. */
exo_status exo_parse_file(const char *path, const exo_parse_options *opt,
                          exo_names *names, exo_edge_fn fn, void *user,
                          exo_ctx *ctx, exo_parse_stats *stats) {
  if (stats) memset(stats, 0, sizeof *stats);
  if (!path || !opt || !names || !fn)
    return EXO_FAIL(ctx, EXO_EARG, "exo_parse_file: missing argument");
  if (opt->sep == '\r' || opt->sep == '\n' || opt->sep == '\0')
    return EXO_FAIL(ctx, EXO_EARG, "the separator cannot be CR, LF or NUL");

  exo_input *in = NULL;
  exo_status st = exo_input_open(&in, path, ctx);
  if (st) return st;
  uint64_t fsize = 0;
  exo_ctx scratch;
  exo_ctx_init(&scratch);
  if (exo_file_size(path, &fsize, &scratch) != EXO_OK) fsize = 0;

  parser P;
  memset(&P, 0, sizeof P);
  P.path = path;
  P.sep = opt->sep;
  P.header_lines = opt->header_lines;
  P.ignore_weights = opt->ignore_weights;
  P.names = names;
  P.fn = fn;
  P.user = user;
  P.ctx = ctx;
  P.cap = 2 * PARSE_CHUNK;
  P.buf = malloc(P.cap);
  if (!P.buf) {
    exo_input_close(in);
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory allocating the parse buffer for '%s'", path);
  }

  exo_progress(ctx, EXO_STAGE_PARSE, 0, fsize);
  uint64_t bytes = 0;
  int first = 1, eof = 0;
  while (!eof) {
    st = make_room(&P);
    if (st) break;
    size_t got = 0;
    st = exo_input_read(in, P.buf + P.len, PARSE_CHUNK, &got, ctx);
    if (st) break;
    if (got == 0) eof = 1;
    P.len += got;
    bytes += got;
    if (first) {
      /* need three bytes to recognise a byte-order mark */
      if (P.len < 3 && !eof) continue;
      first = 0;
      if (P.len >= 3 && P.buf[0] == 0xef && P.buf[1] == 0xbb && P.buf[2] == 0xbf) {
        P.start = P.nl_from = P.poll_mark = 3;
        P.cr.lo = P.cr.hi = P.cr.at = 3;
        P.nul.lo = P.nul.hi = P.nul.at = 3;
      }
    }
    st = process(&P, eof);
    if (st) break;
    exo_progress(ctx, EXO_STAGE_PARSE, exo_input_raw_offset(in), fsize);
  }
  if (stats) {
    stats->lines = P.lineno;
    stats->edges = P.edges;
    stats->bytes = bytes;
  }
  free(P.buf);
  exo_input_close(in);
  return st;
}
