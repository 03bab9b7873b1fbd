/* exo_parse.c: edge-list text to (id, id, weight) triples (see exo_parse.h).
 *
 * Two halves: scan_lines() turns text into batches of parsed lines (name
 * offsets, name hashes, weights, or the first error with its line index in
 * the batch); consume() interns the names in order, with table slots
 * prefetched a few records ahead, and calls the edge callback. Sequential
 * reading (pipes, gzip, threads <= 1) alternates the two on 1 MiB reads.
 * Plain regular files with threads > 1 are cut into blocks that worker
 * threads read with pread() and scan in parallel, while the calling thread
 * consumes the batches in file order (see run_parallel). With an arc sink
 * (exo_parse_file_arcs) the workers also encode each block's arc records
 * (build_arcs) and the calling thread only interns the names they did not
 * find, fills those in and hands the block's records over (consume_arcs).
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
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exo_input.h"
#include "exo_io.h"
#include "exo_par.h"
#include "exo_platform.h"
#include "exo_record.h"

#define PARSE_CHUNK ((size_t)1 << 20)    /* bytes requested per read */
#define PARSE_POLL ((size_t)64 << 10)    /* exo_poll() at least this often */
#define PARSE_MAX_BUF (EXO_PARSE_MAX_LINE + 2 * PARSE_CHUNK)
#define WEIGHT_MAX_TEXT 256              /* longer weight fields: not a number */

/* ---- weights -------------------------------------------------------------- */

/* Powers of ten that are exact in float (5^10 < 2^24). */
static const float pow10f_exact[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                       1e6f, 1e7f, 1e8f, 1e9f, 1e10f};

/* [p, end) without the ASCII spaces around it. */
static inline void trim_spaces(const char **p, const char **end) {
  while (*p < *end && **p == ' ') (*p)++;
  while (*end > *p && (*end)[-1] == ' ') (*end)--;
}

/* Fast-path syntax [+-]digits[.digits][e[+-]digits] covering all of
 * [q, end), with at most 19 significant digits: sets *neg, the significant
 * digits *m and the decimal exponent *e10 (value = m * 10^e10; exponents
 * beyond 10^5 saturate) and returns 1. Returns 0 for anything else (the
 * callers then ask the C library). */
static inline int decimal_parts(const char *q, const char *end, int *neg, uint64_t *m,
                                long *e10) {
  *neg = 0;
  if (q < end && (*q == '+' || *q == '-')) {
    *neg = *q == '-';
    q++;
  }
  uint64_t v = 0;
  int sig = 0, digits = 0, frac = 0, in_frac = 0;
  for (;;) {
    while (q < end && (unsigned)(*q - '0') < 10u) {
      unsigned d = (unsigned)(*q - '0');
      if (v != 0 || d != 0) {
        if (++sig > 19) return 0;
        v = v * 10 + d;
      }
      digits++;
      frac += in_frac;
      q++;
    }
    if (in_frac || q == end || *q != '.') break;
    in_frac = 1;
    q++;
  }
  if (digits == 0) return 0;
  long e = 0;
  if (q < end && (*q == 'e' || *q == 'E')) {
    q++;
    int eneg = 0;
    if (q < end && (*q == '+' || *q == '-')) {
      eneg = *q == '-';
      q++;
    }
    if (q == end || (unsigned)(*q - '0') >= 10u) return 0;
    while (q < end && (unsigned)(*q - '0') < 10u) {
      if (e < 100000) e = e * 10 + (*q - '0');
      q++;
    }
    if (eneg) e = -e;
  }
  if (q != end) return 0;
  *m = v;
  *e10 = e - frac;
  return 1;
}

/* A number field: [p, end) without the spaces around it and, when the
 * fast-path syntax holds, its sign, digits and exponent (decimal_parts). */
typedef struct num_text {
  const char *p, *end;
  int neg;
  uint64_t m;
  long e10;
} num_text;

/* Returns -1 when nothing is left of [s, s+len), 1 when n->neg, m and e10
 * are set, 0 when the C library must read the text. */
static inline int number_parts(const char *s, size_t len, num_text *n) {
  n->p = s;
  n->end = s + len;
  trim_spaces(&n->p, &n->end);
  if (n->p == n->end) return -1;
  return decimal_parts(n->p, n->end, &n->neg, &n->m, &n->e10);
}

/* Copy [p, end) into tmp (WEIGHT_MAX_TEXT + 1 bytes) as a C string for
 * strtof/strtod and return its end; NULL when it is too long or starts
 * with white space other than a space (which the C library would skip, and
 * we do not accept). */
static const char *c_string(const char *p, const char *end, char *tmp) {
  size_t n = (size_t)(end - p);
  if (n > WEIGHT_MAX_TEXT) return NULL;
  if (*p == '\t' || *p == '\n' || *p == '\v' || *p == '\f' || *p == '\r') return NULL;
  memcpy(tmp, p, n);
  tmp[n] = '\0';
  return tmp + n;
}

/* The slow path of both number parsers: strtof (single) or strtod on a
 * NUL-terminated copy of the number's text. Returns -1 unless the whole text
 * is one number; *range tells whether the C library reported ERANGE. errno is
 * left as it was. */
static int strto_text(const num_text *n, int single, double *x, int *range) {
  char tmp[WEIGHT_MAX_TEXT + 1];
  const char *tend = c_string(n->p, n->end, tmp);
  if (!tend) return -1;
  int saved = errno;
  errno = 0;
  char *ep = NULL;
  *x = single ? (double)strtof(tmp, &ep) : strtod(tmp, &ep);
  *range = errno == ERANGE;
  errno = saved;
  return ep == tmp || ep != tend ? -1 : 0;
}

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
  num_text n;
  const int k = number_parts(s, len, &n);
  if (k < 0) return -1;
  if (k) {
    if (n.m == 0) {
      *w = n.neg ? -0.0f : 0.0f;
      return 0;
    }
    if (n.m < ((uint64_t)1 << 24) && n.e10 >= -10 && n.e10 <= 10) {
      float f = (float)n.m;
      if (n.e10 > 0)
        f = f * pow10f_exact[n.e10];
      else if (n.e10 < 0)
        f = f / pow10f_exact[-n.e10];
      *w = n.neg ? -f : f;
      return 0;
    }
  }
  double x;
  int range;
  if (strto_text(&n, 1, &x, &range)) return -1;
  const float f = (float)x; /* exact: x holds strtof's float */
  if (isnan(f)) return -2;
  if (isinf(f)) return range ? -3 : -2;
  *w = f;
  return 0;
}

/* Contract (exo_parse.h): the capped -log10 of an e-value held as a double. */
int exo_evalue_weight(double e, float *w) {
  if (e != e || isinf(e)) return -2;
  if (e < 0) return -4;
  double x = e > 0 ? -log10(e) + 0.0 : EXO_NEGLOG10_CAP; /* + 0.0: no -0 */
  *w = (float)(x > EXO_NEGLOG10_CAP ? EXO_NEGLOG10_CAP : x);
  return 0;
}

/* Parse an e-value and return its capped -log10 (see exo_parse.h). Fast
 * path (decimal_parts): -log10(m 10^k) = -(log10(m) + k), computed in
 * double, so e-values far below the double range (1e-400) are not lost
 * before the cap. Anything else goes to strtod. */
int exo_parse_evalue(const char *s, size_t len, float *w) {
  num_text n;
  const int k = number_parts(s, len, &n);
  if (k < 0) return -1;
  if (k) {
    if (n.m == 0) { /* 0, and -0 */
      *w = (float)EXO_NEGLOG10_CAP;
      return 0;
    }
    if (n.neg) return -4;
    double x = -(log10((double)n.m) + (double)n.e10) + 0.0; /* no -0 */
    *w = (float)(x > EXO_NEGLOG10_CAP ? EXO_NEGLOG10_CAP : x);
    return 0;
  }
  double x;
  int range;
  if (strto_text(&n, 0, &x, &range)) return -1;
  return exo_evalue_weight(x, w); /* an underflow to 0 is capped like 0 */
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

/* ---- batches of parsed lines ---------------------------------------------------
 *
 * Parsing is split in two halves. The first (scan_lines) turns text into a
 * batch: for each data line the offsets and lengths of both names, their
 * hashes (exo_names_hash) and the weight; it stops at the first bad line and
 * records the error with the line's index in the batch. It touches no shared
 * state, so worker threads run it. The second (consume) interns the names in
 * order and calls the edge callback; it runs in the calling thread only,
 * which is also the only thread that calls the ctx callbacks. */

typedef struct pcfg {
  char sep;
  uint32_t ca, cb, cw; /* 1-based columns; cw 0: no weight column */
  uint32_t maxcol;     /* fields needed (the largest column used) */
  int short_ok;        /* a 2-field line is an edge of weight 1 */
  int custom;          /* columns other than the plain 1, 2, 3 */
  uint8_t comment;     /* a line starting with it is skipped; 0 = none */
  int nwant;           /* columns used (2 to 7), in increasing order: */
  uint32_t want_col[7];
  uint8_t want_role[7]; /* 0 node A, 1 node B, 2 weight, 3-6 col_iv[0..3] */
  uint32_t civ[4];      /* col_iv; 0 = not read */
  exo_weight_transform tf;
  int by_name;          /* look for the columns' names (exo_parse.h) */
  int with_iv;          /* the caller reads coordinates (exo_parse_file_hits) */
} pcfg;

/* One data line of a batch (88 bytes). */
typedef struct prec {
  exo_name_hash ha, hb;
  uint64_t ia, ib;     /* ids the workers found, or EXO_NAMES_UNKNOWN */
  uint32_t aoff, boff; /* names A and B at text + aoff and text + boff */
  uint32_t alen, blen;
  uint32_t line;       /* 0-based index of the line in the batch */
  float w;
  uint32_t iv[4];      /* the col_iv fields (0 when not read) */
} prec;

#define BATCH_MSG 768

typedef struct batch {
  const uint8_t *text; /* the offsets in rec are relative to this */
  prec *rec;
  size_t n, cap;
  uint64_t nlines;     /* physical lines in the batch, a failing one included */
  exo_status err;      /* EXO_OK, or the error that ends the batch */
  int err_has_line;    /* the message gets a "<path>:<line>: " prefix */
  uint64_t err_line;   /* 0-based index of the failing line in the batch */
  char err_msg[BATCH_MSG];
} batch;

static void batch_reset(batch *b, const uint8_t *text) {
  b->text = text;
  b->n = 0;
  b->nlines = 0;
  b->err = EXO_OK;
  b->err_has_line = 0;
  b->err_line = 0;
  b->err_msg[0] = '\0';
}

/* Record the batch's error; `line` is a 0-based index in the batch, or
 * UINT64_MAX for an error not about a line. */
static void batch_fail(batch *b, exo_status code, uint64_t line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(EXO_PRINTF_STYLE, 4, 5)))
#endif
    ;
static void batch_fail(batch *b, exo_status code, uint64_t line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b->err_msg, sizeof b->err_msg, fmt, ap);
  va_end(ap);
  b->err = code;
  b->err_has_line = line != UINT64_MAX;
  b->err_line = line == UINT64_MAX ? 0 : line;
}

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

/* Too few fields on [p, end): count them and, for a single field, suggest a
 * separator that the line does contain. */
static void field_count_error(const pcfg *cfg, batch *b, uint64_t line, const uint8_t *p,
                              const uint8_t *end) {
  char sb[16], cols[80] = "";
  const char *sn = sep_name(cfg->sep, sb);
  uint64_t fields = 1;
  for (const uint8_t *q = p; q < end; q++) fields += *q == (uint8_t)cfg->sep;
  const unsigned least = cfg->short_ok ? 2u : (unsigned)cfg->maxcol;
  if (cfg->custom && cfg->cw)
    snprintf(cols, sizeof cols, " (nodes in columns %u and %u, weight in %u)",
             (unsigned)cfg->ca, (unsigned)cfg->cb, (unsigned)cfg->cw);
  else if (cfg->custom)
    snprintf(cols, sizeof cols, " (nodes in columns %u and %u)", (unsigned)cfg->ca,
             (unsigned)cfg->cb);
  if (*p == '#') { /* a comment line where the format has none */
    batch_fail(b, EXO_EINPUT, line,
               "expected at least %u fields separated by %s%s, found %" PRIu64 " (the line "
               "starts with '#': the blast format skips such comment lines, the edges format "
               "reads them as edges; the header option skips the first lines of each file)",
               least, sn, cols, fields);
    return;
  }
  if (fields > 1) {
    batch_fail(b, EXO_EINPUT, line, "expected at least %u fields separated by %s%s, found %" PRIu64,
               least, sn, cols, fields);
    return;
  }
  static const char candidates[] = {'\t', ',', ';', ' ', '|'};
  for (size_t i = 0; i < sizeof candidates; i++) {
    char c = candidates[i];
    if (c != cfg->sep && memchr(p, c, (size_t)(end - p))) {
      char cb[16];
      const char *cn = sep_name(c, cb);
      batch_fail(b, EXO_EINPUT, line,
                 "expected at least %u fields separated by %s%s, found 1 (no %s in the "
                 "line, but it contains %s: is the separator %s?)",
                 least, sn, cols, sn, cn, cn);
      return;
    }
  }
  batch_fail(b, EXO_EINPUT, line,
             "expected at least %u fields separated by %s%s, found 1 (no %s in the line)", least,
             sn, cols, sn);
}

/* The weight field [wp, we) could not be read (code r of exo_parse_weight
 * or exo_parse_evalue). */
static void weight_error(const pcfg *cfg, batch *b, uint64_t line, const uint8_t *wp,
                         const uint8_t *we, int r) {
  char q[200];
  quote_field(wp, (size_t)(we - wp), q, sizeof q);
  const char *kind = cfg->tf == EXO_WT_NEGLOG10 ? "e-value" : "weight";
  char col[32] = "";
  if (cfg->custom) snprintf(col, sizeof col, " (column %u)", (unsigned)cfg->cw);
  if (r == -2)
    batch_fail(b, EXO_EINPUT, line, "%s %s%s is not finite (NaN or infinite)", kind, q, col);
  else if (r == -3)
    batch_fail(b, EXO_EINPUT, line,
               "%s %s%s is beyond the float range (magnitude above 3.4e38)", kind, q, col);
  else if (r == -4)
    batch_fail(b, EXO_EINPUT, line, "%s %s%s is negative", kind, q, col);
  else
    batch_fail(b, EXO_EINPUT, line, "%s %s%s is not a number", kind, q, col);
}

/* 0x80 in each byte of the 8 at p that equals the separator (rep = the
 * separator in every byte), 0 elsewhere; byte i of p is byte i of the word
 * counted from the least significant end whatever the host's byte order. */
static inline uint64_t sep_mask(const uint8_t *p, uint64_t rep) {
  const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
  uint64_t x;
  memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x = __builtin_bswap64(x);
#endif
  const uint64_t t = x ^ rep; /* zero bytes where x holds the separator */
  return ~(((t & low7) + low7) | t | low7);
}

/* The first separator in [p, end), or end. Fields of search-tool output are
 * a few bytes long, too short for memchr's setup to pay: 8 bytes at a time. */
static inline const uint8_t *find_sep(const uint8_t *p, const uint8_t *end, uint8_t sep,
                                      uint64_t rep) {
  while (end - p >= 8) {
    const uint64_t m = sep_mask(p, rep);
    if (m) return p + (__builtin_ctzll(m) >> 3);
    p += 8;
  }
  while (p < end && *p != sep) p++;
  return p;
}

/* Past the n-th separator (n >= 1) in [p, end), or NULL when there are
 * fewer: counts the separators of 8 bytes at once (the mask's high bits
 * summed with a multiply). */
static inline const uint8_t *skip_fields(const uint8_t *p, const uint8_t *end, uint32_t n,
                                         uint8_t sep, uint64_t rep) {
  const uint64_t ones = 0x0101010101010101ULL;
  while (end - p >= 8) {
    uint64_t m = sep_mask(p, rep);
    const uint32_t c = (uint32_t)(((m >> 7) * ones) >> 56);
    if (c >= n) {
      while (--n) m &= m - 1;
      return p + (__builtin_ctzll(m) >> 3) + 1;
    }
    n -= c;
    p += 8;
  }
  for (; p < end; p++)
    if (*p == sep && --n == 0) return p + 1;
  return NULL;
}

/* Parse the data line [s, e) of buf (LF excluded, at most EXO_PARSE_MAX_LINE
 * bytes), the batch's line number `line`. Appends a record (none for an
 * empty line or a comment line); returns -1 after recording an error in
 * the batch. */
static inline int parse_line(const pcfg *cfg, const uint8_t *buf, size_t len, size_t s,
                             size_t e, uint64_t line, scan *cr, scan *nul, batch *b) {
  size_t pos;
  if (cfg->comment && e > s && buf[s] == cfg->comment) return 0; /* a comment line */
  if (scan_find(cr, buf, len, '\r', s, e, &pos)) {
    if (pos != e - 1) {
      batch_fail(b, EXO_EINPUT, line,
                 "carriage return inside a field (a CR is allowed only right "
                 "before the end of the line)");
      return -1;
    }
    e--;
  }
  if (e == s) return 0; /* empty line */
  if (scan_find(nul, buf, len, '\0', s, e, &pos)) {
    batch_fail(b, EXO_EINPUT, line, "NUL byte in the line (is this a binary file?)");
    return -1;
  }
  const uint8_t *p = buf + s, *end = buf + e;
  /* visit the columns used in increasing order, skipping the fields in
   * between a word at a time; the rest of the line is not read */
  const uint8_t *fs[7] = {NULL}, *fe[7] = {NULL};
  const uint8_t *f = p;
  const uint8_t sepb = (uint8_t)cfg->sep;
  const uint64_t rep = 0x0101010101010101ULL * sepb;
  uint32_t col = 1;
  int k = 0;
  while (k < cfg->nwant) {
    const uint32_t c = cfg->want_col[k];
    if (c > col) {
      f = skip_fields(f, end, c - col, sepb, rep);
      if (!f) break;
      col = c;
    }
    const uint8_t *q = find_sep(f, end, sepb, rep);
    fs[cfg->want_role[k]] = f;
    fe[cfg->want_role[k]] = q;
    k++;
    if (k == cfg->nwant) break;
    if (q == end) break; /* no field after this one */
    f = q + 1;
    col++;
  }
  if (k < cfg->nwant && !(cfg->short_ok && k == 2)) {
    field_count_error(cfg, b, line, p, end);
    return -1;
  }
  const uint8_t *fa = fs[0], *fae = fe[0], *fb = fs[1], *fbe = fe[1];
  const uint8_t *wp = fs[2], *we = fe[2];
  if (fae == fa) {
    batch_fail(b, EXO_EINPUT, line, "empty name in field %u", (unsigned)cfg->ca);
    return -1;
  }
  if (fbe == fb) {
    batch_fail(b, EXO_EINPUT, line, "empty name in field %u", (unsigned)cfg->cb);
    return -1;
  }
  float w = 1.0f;
  if (wp) {
    int r = cfg->tf == EXO_WT_NEGLOG10
                ? exo_parse_evalue((const char *)wp, (size_t)(we - wp), &w)
                : exo_parse_weight((const char *)wp, (size_t)(we - wp), &w);
    if (r != 0) {
      weight_error(cfg, b, line, wp, we, r);
      return -1;
    }
  }
  uint32_t iv[4] = {0, 0, 0, 0};
  for (int j = 0; j < 4 && cfg->civ[0]; j++) {
    const uint8_t *cp = fs[3 + j], *ce = fe[3 + j];
    uint64_t v = 0;
    int ok = ce > cp && ce - cp <= 10;
    for (const uint8_t *q = cp; ok && q < ce; q++) {
      ok = *q >= '0' && *q <= '9';
      v = v * 10 + (uint64_t)(*q - '0');
    }
    if (!ok || v > UINT32_MAX) {
      char shown[64];
      quote_field(cp, (size_t)(ce - cp), shown, sizeof shown);
      batch_fail(b, EXO_EINPUT, line,
                 "field %u must be a whole number (a coordinate of the hit: the blast format "
                 "reads qstart qend sstart send from columns 7-10), not %s",
                 (unsigned)cfg->civ[j], shown);
      return -1;
    }
    iv[j] = (uint32_t)v;
  }
  if (b->n == b->cap) {
    size_t ncap = b->cap ? b->cap * 2 : 256;
    prec *nr = realloc(b->rec, ncap * sizeof *nr);
    if (!nr) {
      batch_fail(b, EXO_ENOMEM, line, "out of memory for %zu parsed lines", ncap);
      return -1;
    }
    b->rec = nr;
    b->cap = ncap;
  }
  prec *r = &b->rec[b->n++];
  size_t alen = (size_t)(fae - fa), blen = (size_t)(fbe - fb);
  r->ha = exo_names_hash(fa, alen);
  r->hb = exo_names_hash(fb, blen);
  r->ia = r->ib = EXO_NAMES_UNKNOWN;
  r->aoff = (uint32_t)(fa - buf); /* b->text == buf */
  r->boff = (uint32_t)(fb - buf);
  r->alen = (uint32_t)alen;
  r->blen = (uint32_t)blen;
  r->line = (uint32_t)line;
  r->w = w;
  memcpy(r->iv, iv, sizeof iv);
  return 0;
}

/* Parse the lines of buf[0, len) that start at offsets in [s, limit), into
 * batch b (whose text must be buf). A line without LF before len is parsed
 * only when eof is set (it is then the file's last line); otherwise the scan
 * stops there. Stops also after the batch holds max_lines lines, and at the
 * first error. The first `skip` lines of the batch are header lines: only
 * their length is checked. *nl_from: no LF in [s, *nl_from) (updated).
 * Returns the offset of the first line not processed. */
static size_t scan_lines(const pcfg *cfg, const uint8_t *buf, size_t len, size_t s,
                         size_t limit, int eof, uint64_t skip, uint64_t max_lines,
                         size_t *nl_from, batch *b) {
  scan cr = {s, s, s}, nul = {s, s, s};
  size_t nf = *nl_from > s ? *nl_from : s;
  while (s < limit && b->nlines < max_lines) {
    const uint8_t *nl = memchr(buf + nf, '\n', len - nf);
    size_t e;
    if (nl) {
      e = (size_t)(nl - buf);
    } else {
      nf = len;
      if (!eof) break;
      e = len;
    }
    uint64_t line = b->nlines++;
    if (e - s > EXO_PARSE_MAX_LINE) {
      batch_fail(b, EXO_EINPUT, line, "line longer than %zu bytes", EXO_PARSE_MAX_LINE);
      break;
    }
    if (line >= skip && parse_line(cfg, buf, len, s, e, line, &cr, &nul, b) != 0) break;
    s = e + 1 < len ? e + 1 : len;
    nf = s;
  }
  *nl_from = nf;
  return s;
}

/* ---- the consumer (calling thread) ------------------------------------------ */

#define PREFETCH_AHEAD 8 /* records whose table slots are prefetched */

typedef struct consumer {
  const char *path;
  exo_names *names;
  exo_edge_fn fn;
  exo_hit_fn hit_fn; /* exo_parse_file_hits: called instead of fn */
  void *user;
  exo_ctx *ctx;
  uint64_t lineno; /* physical lines consumed */
  uint64_t edges;
  /* byte-range parsing (exo_parse_range): lineno counts from base_end, the
   * range's first line; the lines before it are counted only when an error
   * needs the absolute number (base_fd >= 0 until then) */
  int base_fd;
  uint64_t base_end;
  uint64_t resolved; /* names whose id a worker found */
  double worker_cpu; /* CPU seconds of the parser threads */
  int reclaim;       /* the table has readers: free old arrays after batches */
  exo_arc_sink *arcs; /* exo_parse_file_arcs: blocks come as records */
} consumer;

static uint64_t count_newlines(int fd, uint64_t end, int *failed);

/* Make C->lineno absolute before it goes into a message. */
static void resolve_base(consumer *C) {
  if (C->base_fd < 0) return;
  int failed = 0;
  uint64_t before = count_newlines(C->base_fd, C->base_end, &failed);
  C->base_fd = -1;
  if (!failed) C->lineno += before;
}

/* The end of a block's consumption, shared by both paths: free retired
 * name arrays, raise the batch's error with its line number, poll. */
static exo_status consume_end(consumer *C, const batch *b) {
  exo_ctx *ctx = C->ctx;
  if (C->reclaim) {
    exo_status st = exo_names_reclaim(C->names, ctx);
    if (st) return st;
  }
  if (b->err) {
    if (b->err_has_line) {
      C->lineno += b->err_line + 1;
      resolve_base(C);
      return EXO_FAIL(ctx, b->err, "%s:%" PRIu64 ": %s", C->path, C->lineno, b->err_msg);
    }
    C->lineno += b->nlines;
    return EXO_FAIL(ctx, b->err, "%s", b->err_msg);
  }
  C->lineno += b->nlines;
  return exo_poll(ctx);
}

/* Intern the batch's names in order and pass its edges to the callback, with
 * the table slots of the records PREFETCH_AHEAD further on prefetched so
 * that their cache misses overlap. Names a worker already resolved (ia, ib
 * set: exo_names_find) keep that id without a lookup; only the others are
 * interned here. Then raise the batch's error, if any, with its file line
 * number. Polls every PARSE_POLL bytes of text and at the end. */
static exo_status consume(consumer *C, const batch *b) {
  const prec *r = b->rec;
  const size_t n = b->n;
  const uint8_t *text = b->text;
  exo_names *names = C->names;
  exo_ctx *ctx = C->ctx;
  exo_status st;
  for (size_t i = 0; i < n && i < PREFETCH_AHEAD; i++) {
    if (r[i].ia == EXO_NAMES_UNKNOWN) exo_names_prefetch(names, r[i].ha);
    if (r[i].ib == EXO_NAMES_UNKNOWN) exo_names_prefetch(names, r[i].hb);
  }
  uint32_t mark = n ? r[0].aoff : 0;
  uint64_t resolved = 0;
  for (size_t i = 0; i < n; i++) {
    if (i + PREFETCH_AHEAD < n) {
      const prec *p = &r[i + PREFETCH_AHEAD];
      if (p->ia == EXO_NAMES_UNKNOWN) exo_names_prefetch(names, p->ha);
      if (p->ib == EXO_NAMES_UNKNOWN) exo_names_prefetch(names, p->hb);
    }
    const prec *q = &r[i];
    uint64_t ia = q->ia, ib = q->ib;
    st = EXO_OK;
    if (ia == EXO_NAMES_UNKNOWN)
      st = exo_names_intern_hashed(names, text + q->aoff, q->alen, q->ha, &ia, ctx);
    else
      resolved++;
    if (st == EXO_OK) {
      if (ib == EXO_NAMES_UNKNOWN)
        st = exo_names_intern_hashed(names, text + q->boff, q->blen, q->hb, &ib, ctx);
      else
        resolved++;
    }
    if (st) {
      C->resolved += resolved;
      C->lineno += (uint64_t)q->line + 1;
      return st;
    }
    st = C->hit_fn ? C->hit_fn(C->user, ia, ib, q->w, q->iv, ctx)
                   : C->fn(C->user, ia, ib, q->w, ctx);
    if (st) {
      C->resolved += resolved;
      C->lineno += (uint64_t)q->line + 1;
      resolve_base(C);
      EXO_FAIL(ctx, st, "%s:%" PRIu64 ": the edge callback failed (%s)", C->path, C->lineno,
               exo_status_name(st));
      return st;
    }
    C->edges++;
    if (q->aoff - mark >= PARSE_POLL) {
      mark = q->aoff;
      st = exo_poll(ctx);
      if (st) {
        C->resolved += resolved;
        C->lineno += (uint64_t)q->line + 1;
        return st;
      }
    }
  }
  C->resolved += resolved;
  return consume_end(C, b);
}

/* ---- sequential reading (any input; also the header of the parallel path) --- */

/* Read the input front to back in PARSE_CHUNK pieces into a growable buffer;
 * each read's complete lines form a batch, consumed before the next read;
 * the partial last line moves to the front, and the buffer doubles when that
 * tail leaves less than a chunk free (up to PARSE_MAX_BUF).
 * With header_only set it stops once the header lines are consumed and sets
 * *data_off to the file offset of the next line, or sets *at_eof when the
 * input ended first; then, when rest is not NULL, the bytes already read
 * past the header go to the caller: rest->buf (the caller frees it) holds
 * them at [rest->off, rest->len). *bytes: decompressed bytes read. */
typedef struct seq_rest {
  uint8_t *buf;
  size_t off, len;
} seq_rest;

static int find_names(pcfg *cfg, const uint8_t *buf, size_t start, size_t len, int eof,
                      uint64_t lineno, uint64_t header_lines, uint64_t *extra);

static exo_status run_sequential(consumer *C, exo_input *in, pcfg *cfg,
                                 uint64_t header_lines, int header_only, uint64_t fsize,
                                 uint64_t *data_off, int *at_eof, uint64_t *bytes,
                                 seq_rest *rest) {
  exo_ctx *ctx = C->ctx;
  size_t cap = 2 * PARSE_CHUNK, len = 0, start = 0, nl_from = 0;
  uint8_t *buf = malloc(cap);
  if (!buf)
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory allocating the parse buffer for '%s'",
                    C->path);
  batch b;
  memset(&b, 0, sizeof b);
  exo_status st = EXO_OK;
  int first = 1, eof = 0, names_tried = !cfg->by_name;
  *bytes = 0;
  if (at_eof) *at_eof = 0;
  while (!eof) {
    /* move the unprocessed tail to the front and make room for a chunk */
    if (start > 0) {
      size_t tail = len - start;
      if (tail) memmove(buf, buf + start, tail);
      len = tail;
      nl_from -= start;
      start = 0;
    }
    if (len > EXO_PARSE_MAX_LINE) {
      st = EXO_FAIL(ctx, EXO_EINPUT, "%s:%" PRIu64 ": line longer than %zu bytes", C->path,
                    C->lineno + 1, EXO_PARSE_MAX_LINE);
      break;
    }
    if (cap - len < PARSE_CHUNK) {
      size_t ncap = cap * 2;
      if (ncap > PARSE_MAX_BUF) ncap = PARSE_MAX_BUF;
      uint8_t *nb = realloc(buf, ncap);
      if (!nb) {
        st = EXO_FAIL(ctx, EXO_ENOMEM, "%s:%" PRIu64 ": out of memory for a %zu byte line buffer",
                      C->path, C->lineno + 1, ncap);
        break;
      }
      buf = nb;
      cap = ncap;
    }
    size_t got = 0;
    st = exo_input_read(in, buf + len, PARSE_CHUNK, &got, ctx);
    if (st) break;
    if (got == 0) eof = 1;
    len += got;
    *bytes += got;
    if (first) {
      /* need three bytes to recognise a byte-order mark */
      if (len < 3 && !eof) continue;
      first = 0;
      if (len >= 3 && buf[0] == 0xef && buf[1] == 0xbb && buf[2] == 0xbf) start = nl_from = 3;
    }
    if (!names_tried) { /* columns by name, from the file's first chunk */
      names_tried = 1;
      uint64_t extra = 0;
      if (find_names(cfg, buf, start, len, eof, C->lineno, header_lines, &extra)) {
        if (extra > header_lines) header_lines = extra;
        if (cfg->civ[0])
          exo_message(ctx, "%s: columns by name from its header: query %u, subject %u, "
                      "weight %u, coordinates %u %u %u %u", C->path, (unsigned)cfg->ca,
                      (unsigned)cfg->cb, (unsigned)cfg->cw, (unsigned)cfg->civ[0],
                      (unsigned)cfg->civ[1], (unsigned)cfg->civ[2], (unsigned)cfg->civ[3]);
        else
          exo_message(ctx, "%s: columns by name from its header: query %u, subject %u, "
                      "weight %u%s", C->path, (unsigned)cfg->ca, (unsigned)cfg->cb,
                      (unsigned)cfg->cw, cfg->with_iv ? "; no coordinates (qstart qend "
                      "sstart send): no region rule for this file's hits" : "");
      }
    }
    uint64_t skip = header_lines > C->lineno ? header_lines - C->lineno : 0;
    batch_reset(&b, buf);
    start = scan_lines(cfg, buf, len, start, len, eof, skip, header_only ? skip : UINT64_MAX,
                       &nl_from, &b);
    st = consume(C, &b);
    if (st) break;
    if (header_only && C->lineno >= header_lines) {
      *data_off = *bytes - (uint64_t)(len - start);
      if (rest) {
        rest->buf = buf;
        rest->off = start;
        rest->len = len;
        buf = NULL;
      }
      break;
    }
    if (!header_only) exo_progress(ctx, EXO_STAGE_PARSE, exo_input_raw_offset(in), fsize);
  }
  if (header_only && eof && st == EXO_OK && C->lineno < header_lines) *at_eof = 1;
  free(b.rec);
  free(buf);
  return st;
}

/* ---- parallel reading (plain regular files) ------------------------------------
 *
 * The bytes after the header, [start, end), are cut into blocks of `block`
 * bytes. Block j goes to worker j mod T, so every worker reads its blocks in
 * file order and the T workers advance side by side. A worker pread()s its
 * block (plus the byte before it), finds the first line that starts in the
 * block (one starts at p when p is the data start or byte p-1 is an LF),
 * parses every line that starts in the block, reading on past the block's end
 * to finish the last one, and hands the batch over through a ring of
 * slots (PAR_RING_BYTES of blocks, at least 2). The calling thread consumes blocks 0, 1, 2, ... in order
 * from the workers' rings, so ids, callbacks, line numbers and the first
 * error are those of the sequential parse. A worker stops after a batch that
 * ends in an error (the consumer will get there, or stop earlier). The
 * consumer sets `stop` when it ends (done, error or interrupt) and joins
 * every worker; workers wait only for a free slot, and wake up on stop.
 *
 * Streams (a pipe, standard input, gzip) cannot be read at offsets, so there
 * the workers take turns at the input instead: block j is the next `block`
 * bytes of the stream, extended to the last LF they contain, after the
 * partial line the previous block left (the carry). Worker j mod T waits
 * until block j - 1 has been read, reads block j under the reader lock
 * (for gzip that includes inflating it), passes the carry on, releases the
 * lock and then splits, checks and hashes the block while the next worker
 * reads. Only the reading is serial; the ring, the consumer and the order
 * are the same, so the results are those of the sequential parse. The block
 * that meets the end of the input (or a read error) is marked last; the
 * consumer stops after it. A worker waiting on a stalled pipe asks between
 * waits (exo_input's) whether the consumer has stopped, so that it can be
 * joined within a fraction of a second. */

#define PAR_BLOCK ((size_t)1 << 20) /* default block size */
#define PAR_RING_BYTES ((size_t)2 << 20) /* text buffered per worker */
#define PAR_RING_MAX 64                   /* slots per worker, at most */
#define PAR_READ_MORE ((size_t)64 << 10)
#define PAR_MAX_THREADS 256
#define PAR_WAIT_NS 50000000L /* consumer polls while waiting this long */

struct pctl;

/* A line of a block with a name the worker did not find: its records
 * (k of them, from arcs[at]) hold placeholder ids until the consumer has
 * interned the name; k assumes the two names are the same name exactly
 * when their hashes are equal (checked then). */
typedef struct apatch {
  uint32_t i;  /* index of the line's record in the batch */
  uint32_t at; /* its first arc record */
  uint32_t k;  /* arc records it was given */
} apatch;

typedef struct pslot {
  uint8_t *buf;
  size_t cap;
  batch b;
  uint64_t end_off; /* file offset where the block ends (progress) */
  int last;         /* streams: the input ended (or failed) in this block */
  /* exo_parse_file_arcs: the block's arc records (arcs_ok when built) */
  int arcs_ok;
  uint8_t *arcs;
  size_t arcs_cap, narcs; /* bytes allocated; records built */
  uint64_t maxid;         /* the largest id the worker found */
  uint64_t negative;      /* lines with w < 0 */
  uint64_t self;          /* self-loops dropped by rule.drop_self */
  apatch *patch;
  size_t npatch, patch_cap;
} pslot;

typedef struct pworker {
  struct pctl *ctl;
  unsigned idx;
  pthread_t th;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pslot *ring;         /* ctl->ring slots */
  uint64_t head, tail; /* slots filled / consumed so far */
} pworker;

typedef struct pctl {
  int fd;
  const char *path;
  pcfg cfg;
  uint64_t start, end, block, nblocks;
  unsigned nworkers;
  unsigned ring; /* slots per worker: PAR_RING_BYTES of blocks, 2..PAR_RING_MAX */
  atomic_int stop;
  pworker *w;
  /* streams (in != NULL; nblocks is then UINT64_MAX): the reader turn */
  exo_input *in;
  pthread_mutex_t rmu;
  pthread_cond_t rcv;
  uint64_t rnext;  /* the block to be read next */
  int rdone;       /* a block marked last has been read: no block rnext */
  uint8_t *carry;  /* the partial line after the last block read */
  size_t carry_len, carry_cap;
  uint64_t rbytes; /* decompressed bytes read from the stream */
  exo_names *names; /* readers 0..nworkers-1 (NULL: the consumer looks up all) */
  const exo_arc_sink *arcs; /* build each block's arc records (NULL: no) */
  exo_arc_rule rule;        /* arcs->rule and arcs->wide, read once */
  int arcs_wide;
  _Atomic uint64_t worker_ns; /* CPU time of the workers, summed at their end */
} pctl;

/* The interrupt callback of a stream's reader (a worker): whether the
 * consumer has stopped. */
static int reader_stopped(void *user) { return atomic_load(&((pctl *)user)->stop); }

/* pread until n bytes or end of file; returns the count or -1 (errno). */
static ssize_t pread_upto(int fd, uint8_t *buf, size_t n, uint64_t off) {
  size_t have = 0;
  while (have < n) {
    int64_t k = exo_pread(fd, buf + have, n - have, off + have);
    if (k < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (k == 0) break;
    have += (size_t)k;
  }
  return (ssize_t)have;
}

/* Make sl->buf hold at least n bytes (keeping the first `keep`). */
static int slot_reserve(pslot *sl, size_t n, size_t keep) {
  if (sl->cap >= n) return 0;
  uint8_t *nb = malloc(n);
  if (!nb) return -1;
  if (keep) memcpy(nb, sl->buf, keep);
  free(sl->buf);
  sl->buf = nb;
  sl->cap = n;
  return 0;
}

/* Drop a slot buffer that a long line grew beyond 4x the `normal` size
 * of a block read (slot_reserve allocates it again). */
static void slot_trim(pslot *sl, size_t normal) {
  if (sl->cap > 4 * normal && sl->cap > PAR_READ_MORE) {
    free(sl->buf);
    sl->buf = NULL;
    sl->cap = 0;
  }
}

/* Worker w looks up the batch's names in the table (concurrently with the
 * consumer's interning; see exo_names.h): a found id is final, a name not
 * found is left to the consumer. Slots are prefetched PREFETCH_AHEAD
 * records ahead. */
static void resolve_batch(pctl *c, unsigned w, batch *b) {
  const size_t n = b->n;
  if (!c->names || n == 0 || atomic_load(&c->stop)) return;
  prec *r = b->rec;
  const exo_names_view *v = exo_names_pin(c->names, w);
  for (size_t i = 0; i < n && i < PREFETCH_AHEAD; i++) {
    exo_names_view_prefetch(v, r[i].ha);
    exo_names_view_prefetch(v, r[i].hb);
  }
  for (size_t i = 0; i < n; i++) {
    if (i + PREFETCH_AHEAD < n) {
      exo_names_view_prefetch(v, r[i + PREFETCH_AHEAD].ha);
      exo_names_view_prefetch(v, r[i + PREFETCH_AHEAD].hb);
    }
    r[i].ia = exo_names_find(v, r[i].ha);
    r[i].ib = exo_names_find(v, r[i].hb);
  }
  exo_names_unpin(c->names, w);
}

/* Contract (exo_parse.h). */
size_t exo_edge_arcs(const exo_arc_rule *r, uint64_t a, uint64_t b, float w, int wide,
                     uint8_t *out) {
  if (!(w > 0.0f) || w < r->min_weight || (a == b && r->drop_self)) return 0;
  const size_t rs = exo_rec_size(wide);
  if (r->directed) {
    exo_rec_encode(out, wide, b, a, w);        /* in-arc of b: b hears a */
    exo_rec_encode(out + rs, wide, a, b, -w);  /* out-arc of a */
    return 2;
  }
  exo_rec_encode(out, wide, a, b, w);
  if (a == b) return 1; /* a self-loop is one arc */
  exo_rec_encode(out + rs, wide, b, a, w);
  return 2;
}

/* Worker: the batch's arc records into the slot (after resolve_batch). A
 * line with a name not found gets records with id 0 in its place (a patch,
 * filled in by the consumer); its record count takes the names as equal
 * when their hashes are. Without memory the slot has no records
 * (arcs_ok = 0: the consumer passes the block edge by edge). */
static void build_arcs(pctl *c, pslot *sl) {
  const batch *b = &sl->b;
  sl->arcs_ok = 0;
  sl->narcs = sl->npatch = 0;
  sl->maxid = sl->negative = sl->self = 0;
  if (!c->arcs || atomic_load(&c->stop)) return;
  const int wide = c->arcs_wide;
  const size_t rs = exo_rec_size(wide), n = b->n;
  if ((uint64_t)n > UINT32_MAX / 2) return;
  const size_t need = 2 * n * rs;
  if (need > sl->arcs_cap || (sl->arcs_cap > 4 * need && sl->arcs_cap > ((size_t)4 << 20))) {
    free(sl->arcs);
    sl->arcs = malloc(need ? need : rs);
    sl->arcs_cap = sl->arcs ? (need ? need : rs) : 0;
    if (!sl->arcs) return;
  }
  const exo_arc_rule *rule = &c->rule;
  const prec *r = b->rec;
  uint8_t *out = sl->arcs;
  size_t k = 0;
  uint64_t maxid = 0, negative = 0, self = 0;
  for (size_t i = 0; i < n; i++) {
    const prec *q = &r[i];
    uint64_t ia = q->ia, ib = q->ib;
    if (ia == EXO_NAMES_UNKNOWN || ib == EXO_NAMES_UNKNOWN) {
      if (sl->npatch == sl->patch_cap) {
        size_t ncap = sl->patch_cap ? 2 * sl->patch_cap : 64;
        apatch *np = realloc(sl->patch, ncap * sizeof *np);
        if (!np) return;
        sl->patch = np;
        sl->patch_cap = ncap;
      }
      const int same = q->ha.h1 == q->hb.h1 && q->ha.h2 == q->hb.h2;
      if (ia != EXO_NAMES_UNKNOWN) maxid = ia > maxid ? ia : maxid;
      if (ib != EXO_NAMES_UNKNOWN) maxid = ib > maxid ? ib : maxid;
      ia = 0;
      ib = same ? 0 : 1; /* placeholders */
      apatch *pt = &sl->patch[sl->npatch++];
      pt->i = (uint32_t)i;
      pt->at = (uint32_t)k;
      pt->k = (uint32_t)exo_edge_arcs(rule, ia, ib, q->w, wide, out + k * rs);
      k += pt->k;
    } else {
      maxid = ia > maxid ? ia : maxid;
      maxid = ib > maxid ? ib : maxid;
      k += exo_edge_arcs(rule, ia, ib, q->w, wide, out + k * rs);
    }
    negative += q->w < 0.0f;
    /* ia == ib: the same name (placeholders: the same hash) */
    self += rule->drop_self && ia == ib && q->w > 0.0f && !(q->w < rule->min_weight);
  }
  sl->narcs = k;
  sl->maxid = maxid;
  sl->negative = negative;
  sl->self = self;
  sl->arcs_ok = 1;
}

/* Read and parse block j into the slot (errors go into the batch). */
static void fill_block(pctl *c, uint64_t j, pslot *sl) {
  batch *b = &sl->b;
  uint64_t s = c->start + j * c->block;
  uint64_t e = s + c->block < c->end ? s + c->block : c->end;
  uint64_t rs = j == 0 ? s : s - 1; /* also read the byte before the block */
  size_t want = (size_t)(e - rs);
  size_t normal = want + 1;
  slot_trim(sl, normal);
  batch_reset(b, sl->buf);
  sl->end_off = e;
  if (slot_reserve(sl, want > normal ? want : normal, 0) != 0) {
    batch_fail(b, EXO_ENOMEM, UINT64_MAX, "out of memory for a %zu byte read buffer", normal);
    return;
  }
  b->text = sl->buf;
  ssize_t k = pread_upto(c->fd, sl->buf, want, rs);
  if (k < 0) {
    exo_error err;
    exo_error_clear(&err);
    exo_error_errno(&err, errno, "read", c->path);
    batch_fail(b, err.code, UINT64_MAX, "%s", err.msg);
    return;
  }
  size_t len = (size_t)k;
  int eof = rs + len >= c->end || len < want;
  size_t limit = len < want ? len : want; /* lines must start before this */
  size_t pos = 0;
  if (j > 0) {
    if (limit < 2) return; /* the block's only byte: no line starts in it */
    const uint8_t *nl = memchr(sl->buf, '\n', limit - 1);
    if (!nl) return; /* a line from an earlier block covers this one */
    pos = (size_t)(nl - sl->buf) + 1;
  }
  size_t nl_from = pos;
  for (;;) {
    pos = scan_lines(&c->cfg, sl->buf, len, pos, limit, eof, 0, UINT64_MAX, &nl_from, b);
    if (b->err || pos >= limit) break;
    /* the line at pos goes on past what was read */
    if (len - pos > EXO_PARSE_MAX_LINE) {
      batch_fail(b, EXO_EINPUT, b->nlines, "line longer than %zu bytes", EXO_PARSE_MAX_LINE);
      break;
    }
    if (atomic_load(&c->stop)) break;
    size_t more = len - pos > PAR_READ_MORE ? len - pos : PAR_READ_MORE;
    uint64_t left = c->end - (rs + len);
    if (more > left) more = (size_t)left;
    if (slot_reserve(sl, len + more, len) != 0) {
      batch_fail(b, EXO_ENOMEM, b->nlines, "out of memory for a %zu byte line buffer",
                 len + more);
      break;
    }
    b->text = sl->buf;
    k = pread_upto(c->fd, sl->buf + len, more, rs + len);
    if (k < 0) {
      exo_error err;
      exo_error_clear(&err);
      exo_error_errno(&err, errno, "read", c->path);
      batch_fail(b, err.code, UINT64_MAX, "%s", err.msg);
      break;
    }
    len += (size_t)k;
    if ((size_t)k < more || rs + len >= c->end) eof = 1;
  }
}

/* Streams: wait for the turn of block j, read it into the slot, pass the
 * partial last line on, then parse it (errors go into the batch). Returns
 * 1 without touching the slot when there is no block j (the input ended
 * before it) or the consumer stopped. Called with c->rmu not held. */
static int fill_stream(pctl *c, uint64_t j, pslot *sl) {
  batch *b = &sl->b;
  pthread_mutex_lock(&c->rmu);
  while (c->rnext != j && !c->rdone && !atomic_load(&c->stop))
    pthread_cond_wait(&c->rcv, &c->rmu);
  if (c->rdone || atomic_load(&c->stop)) {
    pthread_mutex_unlock(&c->rmu);
    return 1;
  }
  size_t normal = c->block + c->carry_len + 1;
  slot_trim(sl, normal);
  batch_reset(b, sl->buf);
  sl->last = 0;
  size_t len = 0, cut = 0, want = c->carry_len + c->block;
  int eof = 0;
  if (slot_reserve(sl, normal, 0) != 0) {
    batch_fail(b, EXO_ENOMEM, UINT64_MAX, "out of memory for a %zu byte read buffer", normal);
    eof = -1;
  } else {
    b->text = sl->buf;
    if (c->carry_len) memcpy(sl->buf, c->carry, c->carry_len);
    len = c->carry_len;
    exo_ctx rctx; /* exo_input_read records its error here, not in the host's ctx */
    exo_ctx_init(&rctx);
    /* a stream's reader waiting for data asks this, not the host (whose
     * callback belongs to the consumer's thread): the consumer sets stop
     * when it ends, interrupted or not */
    rctx.cb.interrupted = reader_stopped;
    rctx.cb.user = c;
    /* the last LF is searched back from the end; the carry is searched too
     * (it is one partial line, except the first block's: the rest of the
     * header read, which may hold whole lines) */
    for (size_t searched = 0;;) {
      while (len < want && !eof) {
        size_t got = 0;
        if (exo_input_read(c->in, sl->buf + len, want - len, &got, &rctx) != EXO_OK) {
          batch_fail(b, rctx.err.code, UINT64_MAX, "%s", rctx.err.msg);
          eof = -1;
          break;
        }
        if (got == 0) eof = 1;
        len += got;
        c->rbytes += got;
      }
      if (eof < 0) break;
      if (eof) { /* the last block takes the last line, LF or not */
        cut = len;
        break;
      }
      size_t nl = len;
      while (nl > searched && sl->buf[nl - 1] != '\n') nl--;
      if (nl > searched) {
        cut = nl;
        break;
      }
      /* no LF yet: one line longer than the block */
      if (len > EXO_PARSE_MAX_LINE) {
        batch_fail(b, EXO_EINPUT, 0, "line longer than %zu bytes", EXO_PARSE_MAX_LINE);
        eof = -1;
        break;
      }
      searched = len;
      want = len + (len > c->block ? len : c->block);
      if (slot_reserve(sl, want + 1, len) != 0) {
        batch_fail(b, EXO_ENOMEM, 0, "out of memory for a %zu byte line buffer", want + 1);
        eof = -1;
        break;
      }
      b->text = sl->buf;
    }
  }
  if (eof == 0) { /* the carry: [cut, len) */
    size_t rest = len - cut;
    if (rest > c->carry_cap) {
      size_t ncap = rest > 2 * c->carry_cap ? rest : 2 * c->carry_cap;
      uint8_t *nc = malloc(ncap);
      if (!nc) {
        batch_fail(b, EXO_ENOMEM, UINT64_MAX, "out of memory for a %zu byte line buffer", ncap);
        eof = -1;
      } else {
        free(c->carry);
        c->carry = nc;
        c->carry_cap = ncap;
      }
    }
    if (eof == 0) {
      if (rest) memcpy(c->carry, sl->buf + cut, rest);
      c->carry_len = rest;
    }
  }
  if (eof != 0) {
    c->rdone = 1;
    sl->last = 1;
  }
  sl->end_off = exo_input_raw_offset(c->in);
  c->rnext = j + 1;
  pthread_cond_broadcast(&c->rcv);
  pthread_mutex_unlock(&c->rmu);
  if (eof >= 0) {
    size_t nl_from = 0;
    scan_lines(&c->cfg, sl->buf, cut, 0, cut, 1, 0, UINT64_MAX, &nl_from, b);
  }
  return 0;
}

/* Worker thread: blocks idx, idx + T, idx + 2T, ... */
static void *worker_main(void *arg) {
  pworker *W = arg;
  pctl *c = W->ctl;
  const double cpu0 = exo_thread_cpu_seconds();
  for (uint64_t j = W->idx; j < c->nblocks; j += c->nworkers) {
    pthread_mutex_lock(&W->mu);
    while (W->head - W->tail == c->ring && !atomic_load(&c->stop))
      pthread_cond_wait(&W->cv, &W->mu);
    pslot *sl = &W->ring[W->head % c->ring];
    pthread_mutex_unlock(&W->mu);
    if (atomic_load(&c->stop)) break;
    if (c->in) {
      if (fill_stream(c, j, sl)) break;
    } else {
      fill_block(c, j, sl);
    }
    resolve_batch(c, W->idx, &sl->b);
    build_arcs(c, sl);
    pthread_mutex_lock(&W->mu);
    W->head++;
    pthread_cond_broadcast(&W->cv);
    pthread_mutex_unlock(&W->mu);
    if (sl->b.err || sl->last) break;
  }
  atomic_fetch_add(&c->worker_ns, (uint64_t)((exo_thread_cpu_seconds() - cpu0) * 1e9));
  return NULL;
}

/* Hand records [0, upto) of the slot to the sink; on failure, the line of
 * the record that failed gets the callback-failure message, as consume()
 * gives it, and C->edges counts the lines before it. */
static exo_status hand_arcs(consumer *C, pslot *sl, size_t upto) {
  exo_ctx *ctx = C->ctx;
  exo_arc_sink *a = C->arcs;
  size_t done = 0;
  exo_status st = upto ? a->add(a->user, sl->arcs, upto, a->wide, &done, ctx) : EXO_OK;
  if (!st) return EXO_OK;
  /* the line holding record `done`: count the records line by line (every
   * id is known by now, up to the lines of upto) */
  const batch *b = &sl->b;
  uint8_t tmp[40];
  size_t k = 0, i = 0;
  for (; i < b->n; i++) {
    k += exo_edge_arcs(&a->rule, b->rec[i].ia, b->rec[i].ib, b->rec[i].w, a->wide, tmp);
    if (k > done) break;
  }
  if (i == b->n) i = b->n ? b->n - 1 : 0;
  C->edges += i;
  C->lineno += (b->n ? (uint64_t)b->rec[i].line : 0) + 1;
  resolve_base(C);
  EXO_FAIL(ctx, st, "%s:%" PRIu64 ": the edge callback failed (%s)", C->path, C->lineno,
           exo_status_name(st));
  return st;
}

/* exo_parse_file_arcs: consume a block whose arc records the worker built.
 * The names it did not find are interned in line order (as consume() does)
 * and their records filled in; then the records go to the sink in one call.
 * Falls back to consume() (edge by edge through fn; the names interned so
 * far keep their ids) when the records cannot be used as they are: none
 * built, an id beyond narrow records, or a record count the hashes got
 * wrong (two names with equal fingerprints). */
static exo_status consume_arcs(consumer *C, pslot *sl) {
  batch *b = &sl->b;
  exo_arc_sink *a = C->arcs;
  if (!sl->arcs_ok) return consume(C, b);
  exo_names *names = C->names;
  exo_ctx *ctx = C->ctx;
  const int wide = a->wide;
  const size_t rs = exo_rec_size(wide);
  prec *r = b->rec;
  const apatch *pt = sl->patch;
  const size_t np = sl->npatch;
  uint64_t maxid = sl->maxid, interned = 0;
  int fallback = 0;
  for (size_t p = 0; p < np && p < PREFETCH_AHEAD; p++) {
    if (r[pt[p].i].ia == EXO_NAMES_UNKNOWN) exo_names_prefetch(names, r[pt[p].i].ha);
    if (r[pt[p].i].ib == EXO_NAMES_UNKNOWN) exo_names_prefetch(names, r[pt[p].i].hb);
  }
  for (size_t p = 0; p < np; p++) {
    if (p + PREFETCH_AHEAD < np) {
      const prec *f = &r[pt[p + PREFETCH_AHEAD].i];
      if (f->ia == EXO_NAMES_UNKNOWN) exo_names_prefetch(names, f->ha);
      if (f->ib == EXO_NAMES_UNKNOWN) exo_names_prefetch(names, f->hb);
    }
    prec *q = &r[pt[p].i];
    exo_status st = EXO_OK;
    if (q->ia == EXO_NAMES_UNKNOWN) {
      st = exo_names_intern_hashed(names, b->text + q->aoff, q->alen, q->ha, &q->ia, ctx);
      interned += !st;
    }
    if (!st && q->ib == EXO_NAMES_UNKNOWN) {
      st = exo_names_intern_hashed(names, b->text + q->boff, q->blen, q->hb, &q->ib, ctx);
      interned += !st;
    }
    if (st) {
      /* as edge by edge: the lines before this one were delivered first */
      exo_status hs = hand_arcs(C, sl, pt[p].at); /* (names_resolved not counted here) */
      if (hs) return hs;
      C->edges += pt[p].i;
      C->lineno += (uint64_t)q->line + 1;
      return st;
    }
    maxid = q->ia > maxid ? q->ia : maxid;
    maxid = q->ib > maxid ? q->ib : maxid;
    if (exo_edge_arcs(&a->rule, q->ia, q->ib, q->w, wide, sl->arcs + (size_t)pt[p].at * rs) !=
        pt[p].k) {
      fallback = 1; /* equal fingerprints of different hashes */
      break;
    }
  }
  if (fallback || (!wide && maxid >= EXO_NARROW_ID_LIMIT)) {
    exo_status st = consume(C, b); /* counts the names interned above as resolved */
    C->resolved -= interned;
    return st;
  }
  exo_status st = hand_arcs(C, sl, sl->narcs);
  if (st) return st;
  C->edges += b->n;
  C->resolved += 2 * (uint64_t)b->n - interned;
  a->negative += sl->negative;
  a->self += sl->self;
  return consume_end(C, b);
}

/* Parse [start, end) of the file fd with up to `threads` workers; or, when
 * in is not NULL, the rest of the stream `in`, after the bytes already read
 * past its header (rest, which the stream's first block starts with); see
 * above. *sbytes (streams): the bytes read here, not counting the rest
 * (run_sequential counted those). */
static exo_status run_parallel(consumer *C, int fd, uint64_t start, uint64_t end,
                               const pcfg *cfg, int threads, size_t block, uint64_t fsize,
                               exo_input *in, const seq_rest *rest, uint64_t *sbytes) {
  exo_ctx *ctx = C->ctx;
  if (!in && end <= start) return EXO_OK;
  pctl c;
  memset(&c, 0, sizeof c);
  c.fd = fd;
  c.path = C->path;
  c.cfg = *cfg;
  c.start = start;
  c.end = end;
  c.block = block;
  c.nblocks = in ? UINT64_MAX : (end - start + block - 1) / block;
  c.in = in;
  uint64_t T = (uint64_t)threads;
  if (T > PAR_MAX_THREADS) T = PAR_MAX_THREADS;
  if (T > c.nblocks) T = c.nblocks;
  atomic_init(&c.stop, 0);
  atomic_init(&c.worker_ns, 0);
  size_t ring = PAR_RING_BYTES / block;
  c.ring = ring < 2 ? 2 : ring > PAR_RING_MAX ? PAR_RING_MAX : (unsigned)ring;
  c.w = calloc((size_t)T, sizeof *c.w);
  pslot *slots = calloc((size_t)T * c.ring, sizeof *slots);
  if (!c.w || !slots) {
    free(c.w);
    free(slots);
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory starting the parser threads");
  }
  c.nworkers = (unsigned)T;
  {
    exo_status rs = exo_names_readers_begin(C->names, c.nworkers, ctx);
    if (rs) {
      free(c.w);
      free(slots);
      return rs;
    }
    c.names = C->names;
    C->reclaim = 1;
  }
  if (C->arcs) {
    c.arcs = C->arcs;
    c.rule = C->arcs->rule;
    c.arcs_wide = C->arcs->wide;
  }
  if (in) {
    size_t rl = rest && rest->buf ? rest->len - rest->off : 0;
    c.carry_cap = rl > 4096 ? rl : 4096;
    c.carry = malloc(c.carry_cap);
    int mok = pthread_mutex_init(&c.rmu, NULL) == 0;
    int cok = mok && pthread_cond_init(&c.rcv, NULL) == 0;
    if (!c.carry || !cok) {
      if (mok) pthread_mutex_destroy(&c.rmu);
      C->reclaim = 0;
      exo_names_readers_end(C->names, ctx);
      free(c.carry);
      free(c.w);
      free(slots);
      return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory starting the parser threads");
    }
    /* the rest (possibly several lines) starts the first block */
    if (rl) memcpy(c.carry, rest->buf + rest->off, rl);
    c.carry_len = rl;
  }

  /* Start the workers. If one cannot be created, stop the ones that were and
   * fail (nothing has been consumed yet). */
  unsigned started = 0;
  exo_status st = EXO_OK;
  for (unsigned i = 0; i < c.nworkers; i++) {
    pworker *W = &c.w[i];
    W->ctl = &c;
    W->idx = i;
    W->ring = slots + (size_t)i * c.ring;
    if (pthread_mutex_init(&W->mu, NULL) != 0) {
      st = EXO_FAIL(ctx, EXO_ENOMEM, "cannot create a mutex for the parser threads");
      break;
    }
    if (pthread_cond_init(&W->cv, NULL) != 0) {
      pthread_mutex_destroy(&W->mu);
      st = EXO_FAIL(ctx, EXO_ENOMEM, "cannot create a condition variable for the parser threads");
      break;
    }
    int e = pthread_create(&W->th, NULL, worker_main, W);
    if (e != 0) {
      pthread_cond_destroy(&W->cv);
      pthread_mutex_destroy(&W->mu);
      st = EXO_FAIL(ctx, EXO_ENOMEM, "cannot start parser thread %u of %u (%s)", i + 1,
                    c.nworkers, strerror(e));
      break;
    }
    started++;
  }

  /* Consume blocks in file order. */
  for (uint64_t j = 0; st == EXO_OK && j < c.nblocks; j++) {
    pworker *W = &c.w[j % c.nworkers];
    pthread_mutex_lock(&W->mu);
    while (W->head == W->tail) {
      struct timespec ts;
      exo_par_deadline(&ts, PAR_WAIT_NS);
      if (pthread_cond_timedwait(&W->cv, &W->mu, &ts) == ETIMEDOUT) {
        pthread_mutex_unlock(&W->mu);
        st = exo_poll(ctx); /* waiting for the disk: stay interruptible */
        pthread_mutex_lock(&W->mu);
        if (st) break;
      }
    }
    pslot *sl = &W->ring[W->tail % c.ring];
    pthread_mutex_unlock(&W->mu);
    if (st) break;
    st = C->arcs ? consume_arcs(C, sl) : consume(C, &sl->b);
    const uint64_t end_off = sl->end_off; /* the slot is the worker's again below */
    const int last = sl->last;
    pthread_mutex_lock(&W->mu);
    W->tail++;
    pthread_cond_broadcast(&W->cv);
    pthread_mutex_unlock(&W->mu);
    if (st == EXO_OK) exo_progress(ctx, EXO_STAGE_PARSE, end_off, fsize);
    if (last) break;
  }

  /* Stop and join every worker, then free their slots. */
  atomic_store(&c.stop, 1);
  if (in) {
    pthread_mutex_lock(&c.rmu);
    pthread_cond_broadcast(&c.rcv);
    pthread_mutex_unlock(&c.rmu);
  }
  for (unsigned i = 0; i < started; i++) {
    pthread_mutex_lock(&c.w[i].mu);
    pthread_cond_broadcast(&c.w[i].cv);
    pthread_mutex_unlock(&c.w[i].mu);
  }
  for (unsigned i = 0; i < started; i++) {
    pworker *W = &c.w[i];
    pthread_join(W->th, NULL);
    pthread_cond_destroy(&W->cv);
    pthread_mutex_destroy(&W->mu);
  }
  C->reclaim = 0;
  exo_status rst = exo_names_readers_end(C->names, ctx); /* the workers are gone */
  if (st == EXO_OK) st = rst;
  C->worker_cpu += 1e-9 * (double)atomic_load(&c.worker_ns);
  for (size_t k = 0; k < (size_t)T * c.ring; k++) {
    free(slots[k].buf);
    free(slots[k].b.rec);
    free(slots[k].arcs);
    free(slots[k].patch);
  }
  free(slots);
  free(c.w);
  if (in) {
    pthread_cond_destroy(&c.rcv);
    pthread_mutex_destroy(&c.rmu);
    free(c.carry);
    if (sbytes) *sbytes = c.rbytes;
  }
  return st;
}

/* ---- entry point ---------------------------------------------------------------- */

/* The columns in effect: all 0 means 1, 2, 3; ignore_weights drops the
 * weight column. */
static void effective_columns(const exo_parse_options *opt, uint32_t *ca, uint32_t *cb,
                              uint32_t *cw) {
  int dflt = opt->col_a == 0 && opt->col_b == 0 && opt->col_w == 0;
  *ca = dflt ? 1 : opt->col_a;
  *cb = dflt ? 2 : opt->col_b;
  *cw = opt->ignore_weights ? 0 : dflt ? 3 : opt->col_w;
}

/* Contract (exo_parse.h). */
exo_status exo_parse_check_options(const exo_parse_options *opt, exo_ctx *ctx) {
  uint32_t ca, cb, cw;
  effective_columns(opt, &ca, &cb, &cw);
  const uint32_t mx = EXO_PARSE_MAX_COLUMN;
  if (ca < 1 || ca > mx || cb < 1 || cb > mx || cw > mx)
    return EXO_FAIL(ctx, EXO_EARG, "column numbers must be between 1 and %u (got %u, %u, %u)",
                    (unsigned)mx, (unsigned)opt->col_a, (unsigned)opt->col_b,
                    (unsigned)opt->col_w);
  if (ca == cb)
    return EXO_FAIL(ctx, EXO_EARG, "the two node columns must differ (both are %u)",
                    (unsigned)ca);
  if (cw && (cw == ca || cw == cb))
    return EXO_FAIL(ctx, EXO_EARG, "the weight column %u is also a node column",
                    (unsigned)cw);
  const uint32_t *iv = opt->col_iv;
  if (iv[0] || iv[1] || iv[2] || iv[3]) {
    for (int j = 0; j < 4; j++) {
      if (iv[j] < 1 || iv[j] > mx)
        return EXO_FAIL(ctx, EXO_EARG, "coordinate column numbers must be between 1 and %u "
                        "(got %u, %u, %u, %u)", (unsigned)mx, (unsigned)iv[0],
                        (unsigned)iv[1], (unsigned)iv[2], (unsigned)iv[3]);
      if (iv[j] == ca || iv[j] == cb || iv[j] == cw)
        return EXO_FAIL(ctx, EXO_EARG, "coordinate column %u is also a node or weight column",
                        (unsigned)iv[j]);
      for (int k = 0; k < j; k++)
        if (iv[k] == iv[j])
          return EXO_FAIL(ctx, EXO_EARG, "coordinate column %u is given twice",
                          (unsigned)iv[j]);
    }
  }
  if (opt->transform != EXO_WT_NONE && opt->transform != EXO_WT_NEGLOG10 &&
      opt->transform != EXO_WT_SELFNORM)
    return EXO_FAIL(ctx, EXO_EARG, "unknown weight transform %d", (int)opt->transform);
  return EXO_OK;
}

/* The columns read, in increasing order, from ca, cb, cw and civ. */
static void set_columns(pcfg *cfg) {
  cfg->maxcol = cfg->ca > cfg->cb ? cfg->ca : cfg->cb;
  if (cfg->cw > cfg->maxcol) cfg->maxcol = cfg->cw;
  for (int j = 0; j < 4; j++)
    if (cfg->civ[j] > cfg->maxcol) cfg->maxcol = cfg->civ[j];
  const uint32_t cols[7] = {cfg->ca, cfg->cb, cfg->cw, cfg->civ[0], cfg->civ[1], cfg->civ[2],
                            cfg->civ[3]};
  cfg->nwant = 0;
  for (uint8_t r = 0; r < 7; r++) {
    if (!cols[r]) continue;
    int i = cfg->nwant++;
    while (i > 0 && cfg->want_col[i - 1] > cols[r]) { /* insertion sort */
      cfg->want_col[i] = cfg->want_col[i - 1];
      cfg->want_role[i] = cfg->want_role[i - 1];
      i--;
    }
    cfg->want_col[i] = cols[r];
    cfg->want_role[i] = r;
  }
}

static void make_cfg(const exo_parse_options *opt, int with_iv, pcfg *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->sep = opt->sep;
  effective_columns(opt, &cfg->ca, &cfg->cb, &cfg->cw);
  cfg->short_ok = cfg->cw == 3 && (cfg->ca > cfg->cb ? cfg->ca : cfg->cb) <= 2 &&
                  !(with_iv && opt->col_iv[0]);
  cfg->custom = !(cfg->ca == 1 && cfg->cb == 2 && (cfg->cw == 3 || cfg->cw == 0));
  cfg->tf = cfg->cw ? opt->transform : EXO_WT_NONE;
  cfg->comment = (uint8_t)opt->comment;
  cfg->by_name = opt->by_name;
  cfg->with_iv = with_iv;
  if (with_iv) memcpy(cfg->civ, opt->col_iv, sizeof cfg->civ);
  set_columns(cfg);
}

/* ---- columns by name (exo_parse.h) ------------------------------------------- */

enum { NM_QUERY, NM_SUBJECT, NM_BITS, NM_EVALUE, NM_QS, NM_QE, NM_SS, NM_SE, NM_ROLES };

static int name_role(const char *n) {
  static const struct {
    const char *name;
    int role;
  } known[] = {
      {"qseqid", NM_QUERY}, {"query", NM_QUERY}, {"query id", NM_QUERY},
      {"query acc.ver", NM_QUERY}, {"query acc", NM_QUERY}, {"qaccver", NM_QUERY},
      {"qacc", NM_QUERY}, {"sseqid", NM_SUBJECT}, {"target", NM_SUBJECT},
      {"subject id", NM_SUBJECT}, {"subject acc.ver", NM_SUBJECT}, {"subject acc", NM_SUBJECT},
      {"saccver", NM_SUBJECT}, {"sacc", NM_SUBJECT}, {"bitscore", NM_BITS}, {"bits", NM_BITS},
      {"bit score", NM_BITS}, {"evalue", NM_EVALUE}, {"expected value", NM_EVALUE},
      {"qstart", NM_QS}, {"q. start", NM_QS}, {"start of alignment in query", NM_QS},
      {"qend", NM_QE}, {"q. end", NM_QE}, {"end of alignment in query", NM_QE},
      {"sstart", NM_SS}, {"tstart", NM_SS}, {"s. start", NM_SS},
      {"start of alignment in subject", NM_SS}, {"send", NM_SE}, {"tend", NM_SE},
      {"s. end", NM_SE}, {"end of alignment in subject", NM_SE}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (!strcmp(n, known[i].name)) return known[i].role;
  return -1;
}

/* The names of line [p, p + n), fields split at `sep`, into columns; 1 and
 * cfg updated when the query, the subject and the weight are named. */
static int columns_by_name(pcfg *cfg, const uint8_t *p, size_t n, uint8_t sep) {
  uint32_t col[NM_ROLES] = {0};
  uint32_t c = 1;
  size_t i = 0;
  while (i <= n) {
    size_t j = i;
    while (j < n && p[j] != sep) j++;
    char name[64];
    size_t a = i, b = j, k = 0;
    while (a < b && (p[a] == ' ' || p[a] == '\t')) a++;
    while (b > a && (p[b - 1] == ' ' || p[b - 1] == '\t' || p[b - 1] == '\r')) b--;
    if (b - a < sizeof name) {
      for (; a < b; a++) name[k++] = (char)(p[a] >= 'A' && p[a] <= 'Z' ? p[a] + 32 : p[a]);
      name[k] = 0;
      const int r = name_role(name);
      if (r >= 0 && !col[r]) col[r] = c;
    }
    c++;
    i = j + 1;
  }
  const int wrole = cfg->tf == EXO_WT_NEGLOG10 ? NM_EVALUE : NM_BITS;
  if (!col[NM_QUERY] || !col[NM_SUBJECT] || (cfg->cw && !col[wrole])) return 0;
  cfg->ca = col[NM_QUERY];
  cfg->cb = col[NM_SUBJECT];
  if (cfg->cw) cfg->cw = col[wrole];
  if (cfg->with_iv) {
    const int all = col[NM_QS] && col[NM_QE] && col[NM_SS] && col[NM_SE];
    cfg->civ[0] = all ? col[NM_QS] : 0;
    cfg->civ[1] = all ? col[NM_QE] : 0;
    cfg->civ[2] = all ? col[NM_SS] : 0;
    cfg->civ[3] = all ? col[NM_SE] : 0;
  }
  cfg->short_ok = 0;
  cfg->custom = 1;
  set_columns(cfg);
  return 1;
}

/* Look for the names before the first data line of buf[start, len) (the
 * file's first chunk; line numbers from `lineno`, the configured header
 * lines first). *extra: 1 when the first line that is not a comment was a
 * header of names (not configured as a header). Returns 1 when names were
 * applied. */
static int find_names(pcfg *cfg, const uint8_t *buf, size_t start, size_t len, int eof,
                      uint64_t lineno, uint64_t header_lines, uint64_t *extra) {
  static const char fields[] = "# Fields:";
  const size_t fl = sizeof fields - 1;
  *extra = 0;
  size_t s = start;
  for (uint64_t line = lineno; s < len; line++) {
    const uint8_t *nl = memchr(buf + s, '\n', len - s);
    if (!nl && !eof) return 0; /* the first chunk ends inside the headers */
    const size_t e = nl ? (size_t)(nl - buf) : len;
    const uint8_t *p = buf + s;
    const size_t n = e - s;
    if (line < header_lines) {
      if (line == 0 && columns_by_name(cfg, p, n, (uint8_t)cfg->sep)) return 1;
    } else if (cfg->comment && n && p[0] == cfg->comment) {
      if (n > fl && !memcmp(p, fields, fl) && columns_by_name(cfg, p + fl, n - fl, ','))
        return 1;
    } else if (n) {
      if (header_lines == 0 && columns_by_name(cfg, p, n, (uint8_t)cfg->sep)) {
        *extra = line + 1; /* the lines up to this one are header */
        return 1;
      }
      return 0; /* a data line */
    }
    s = e + 1;
  }
  return 0;
}

/* LF bytes in [0, end) of fd (error path of byte-range parsing). */
static uint64_t count_newlines(int fd, uint64_t end, int *failed) {
  size_t cap = (size_t)1 << 20;
  uint8_t *buf = malloc(cap);
  uint64_t n = 0;
  if (!buf) {
    *failed = 1;
    return 0;
  }
  for (uint64_t off = 0; off < end;) {
    size_t want = end - off < cap ? (size_t)(end - off) : cap;
    ssize_t k = pread_upto(fd, buf, want, off);
    if (k <= 0) {
      *failed = 1;
      break;
    }
    for (const uint8_t *p = buf, *e = buf + k; (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
      n++;
    off += (uint64_t)k;
  }
  free(buf);
  return n;
}

/* The first line start at or after off (off itself when byte off-1 is LF),
 * not before `lo` (a line start); size when none. */
static exo_status line_start_at(consumer *C, int fd, uint64_t off, uint64_t lo, uint64_t size,
                                uint64_t *out) {
  if (off <= lo) {
    *out = lo;
    return EXO_OK;
  }
  uint8_t buf[1 << 16];
  for (uint64_t at = off - 1; at < size;) {
    ssize_t k = pread_upto(fd, buf, sizeof buf, at);
    if (k < 0) return exo_error_errno(&C->ctx->err, errno, "read", C->path);
    if (k == 0) break;
    const uint8_t *nl = memchr(buf, '\n', (size_t)k);
    if (nl) {
      *out = at + (uint64_t)(nl - buf) + 1;
      return EXO_OK;
    }
    at += (uint64_t)k;
  }
  *out = size;
  return EXO_OK;
}

/* Parse one file (ranged = 0) or the lines that start in [from, to) of a
 * plain regular file; see exo_parse.h. */
static exo_status parse_impl(const char *path, const exo_parse_options *opt, exo_names *names,
                             exo_edge_fn fn, exo_hit_fn hit_fn, void *user, exo_arc_sink *arcs,
                             exo_ctx *ctx, exo_parse_stats *stats, int ranged, uint64_t from,
                             uint64_t to) {
  if (stats) memset(stats, 0, sizeof *stats);
  const double cpu0 = exo_thread_cpu_seconds();
  if (!path || !opt || !names || (!fn && !hit_fn))
    return EXO_FAIL(ctx, EXO_EARG, "exo_parse_file: missing argument");
  if (opt->sep == '\r' || opt->sep == '\n' || opt->sep == '\0')
    return EXO_FAIL(ctx, EXO_EARG, "the separator cannot be CR, LF or NUL");
  exo_status cst = exo_parse_check_options(opt, ctx);
  if (cst) return cst;

  exo_input *in = NULL;
  exo_status st = exo_input_open(&in, path, ctx);
  if (st) return st;
  uint64_t fsize = 0;
  exo_ctx scratch;
  exo_ctx_init(&scratch);
  if (exo_file_size(path, &fsize, &scratch) != EXO_OK) fsize = 0;

  consumer C;
  memset(&C, 0, sizeof C);
  C.path = path;
  C.names = names;
  C.fn = fn;
  C.hit_fn = hit_fn;
  C.user = user;
  C.arcs = arcs;
  C.ctx = ctx;
  C.base_fd = -1;
  pcfg cfg;
  make_cfg(opt, hit_fn != NULL, &cfg);

  exo_progress(ctx, EXO_STAGE_PARSE, 0, fsize);
  uint64_t bytes = 0, psize = 0;
  int fd = opt->threads > 1 || ranged ? exo_input_plain_fd(in, &psize) : -1;
  if (ranged && fd < 0) {
    st = EXO_FAIL(ctx, EXO_EARG, "'%s' is not a plain regular file: it cannot be read by byte ranges",
                  path);
  } else if (ranged) {
    /* the BOM and the header lines (whatever the range), then the lines
     * that start in [from, to) with its boundaries moved to line starts */
    uint64_t data_off = 0, s = 0, e = 0;
    int at_eof = 0;
    st = run_sequential(&C, in, &cfg, opt->header_lines, 1, fsize, &data_off, &at_eof, &bytes,
                        NULL);
    if (st == EXO_OK && !at_eof) st = line_start_at(&C, fd, from, data_off, psize, &s);
    if (st == EXO_OK && !at_eof) st = line_start_at(&C, fd, to, data_off, psize, &e);
    if (st == EXO_OK && !at_eof && s < e) {
      if (s > data_off) { /* line numbers from s; the lines before are counted on error */
        C.lineno = 0;
        C.base_fd = fd;
        C.base_end = s;
      }
      size_t block = opt->block_bytes ? opt->block_bytes : PAR_BLOCK;
      st = run_parallel(&C, fd, s, e, &cfg, opt->threads > 1 ? opt->threads : 1, block, fsize,
                        NULL, NULL, NULL);
      if (st == EXO_OK) bytes = e - s;
    }
  } else if (opt->threads <= 1) {
    st = run_sequential(&C, in, &cfg, opt->header_lines, 0, fsize, NULL, NULL, &bytes, NULL);
  } else {
    /* the BOM and the header lines sequentially, the rest in parallel: a
     * plain file (fd >= 0) at positioned reads, a stream with the workers
     * taking turns at it after the bytes the header read left over */
    uint64_t data_off = 0, sbytes = 0;
    int at_eof = 0;
    seq_rest rest = {NULL, 0, 0};
    st = run_sequential(&C, in, &cfg, opt->header_lines, 1, fsize, &data_off, &at_eof, &bytes,
                        fd < 0 ? &rest : NULL);
    if (st == EXO_OK && !at_eof) {
      size_t block = opt->block_bytes ? opt->block_bytes : PAR_BLOCK;
      if (fd >= 0) {
        st = run_parallel(&C, fd, data_off, psize, &cfg, opt->threads, block, fsize, NULL, NULL,
                          NULL);
        if (st == EXO_OK) bytes = psize > bytes ? psize : bytes;
      } else {
        st = run_parallel(&C, -1, 0, 0, &cfg, opt->threads, block, fsize, in, &rest, &sbytes);
        bytes += sbytes;
      }
    }
    free(rest.buf);
    if (st == EXO_OK) exo_progress(ctx, EXO_STAGE_PARSE, fsize, fsize);
  }
  if (stats) {
    stats->lines = C.lineno;
    stats->edges = C.edges;
    stats->bytes = bytes;
    stats->names_resolved = C.resolved;
    stats->caller_cpu_seconds = exo_thread_cpu_seconds() - cpu0;
    stats->worker_cpu_seconds = C.worker_cpu;
  }
  exo_input_close(in);
  return st;
}

exo_status exo_parse_file(const char *path, const exo_parse_options *opt,
                          exo_names *names, exo_edge_fn fn, void *user,
                          exo_ctx *ctx, exo_parse_stats *stats) {
  return parse_impl(path, opt, names, fn, NULL, user, NULL, ctx, stats, 0, 0, 0);
}

exo_status exo_parse_file_arcs(const char *path, const exo_parse_options *opt,
                               exo_names *names, exo_edge_fn fn, void *user,
                               exo_arc_sink *arcs, exo_ctx *ctx, exo_parse_stats *stats) {
  if (arcs && !arcs->add) return EXO_FAIL(ctx, EXO_EARG, "exo_parse_file_arcs: no arc sink");
  return parse_impl(path, opt, names, fn, NULL, user, arcs, ctx, stats, 0, 0, 0);
}

exo_status exo_parse_file_hits(const char *path, const exo_parse_options *opt,
                               exo_names *names, exo_hit_fn fn, void *user,
                               exo_ctx *ctx, exo_parse_stats *stats) {
  if (opt && !(opt->col_iv[0] && opt->col_iv[1] && opt->col_iv[2] && opt->col_iv[3]))
    return EXO_FAIL(ctx, EXO_EARG, "exo_parse_file_hits: no coordinate columns");
  if (!fn) return EXO_FAIL(ctx, EXO_EARG, "exo_parse_file: missing argument");
  return parse_impl(path, opt, names, NULL, fn, user, NULL, ctx, stats, 0, 0, 0);
}

exo_status exo_parse_range(const char *path, const exo_parse_options *opt, uint64_t from,
                           uint64_t to, exo_names *names, exo_edge_fn fn, void *user,
                           exo_ctx *ctx, exo_parse_stats *stats) {
  return parse_impl(path, opt, names, fn, NULL, user, NULL, ctx, stats, 1, from, to);
}

int exo_parse_splittable(const char *path, uint64_t *size) {
  exo_ctx scratch;
  exo_ctx_init(&scratch);
  exo_input *in = NULL;
  if (exo_input_open(&in, path, &scratch) != EXO_OK) return 0;
  uint64_t psize = 0;
  int ok = exo_input_plain_fd(in, &psize) >= 0;
  exo_input_close(in);
  if (ok) *size = psize;
  return ok;
}
