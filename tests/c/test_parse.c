/* test_parse.c: exo_parse: a table of accepted and rejected inputs with
 * their exact results or "<file>:<line>: " messages, weight parsing checked
 * bit for bit against strtof, the callback sequence, several files with
 * headers, gzip, lines across buffer refills, 1 MiB names, the line length
 * limit, callback failure, interrupts and progress. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifndef _WIN32 /* FIFOs fed by a child process: POSIX only */
#include <signal.h>
#include <sys/wait.h>
#endif
#include <time.h>
#include <unistd.h>

#include "exo_io.h"
#include "exo_parse.h"
#include "exo_platform.h"
#include "exo_record.h"
#include "exo_rng.h"
#include "testutil.h"

/* ---- helpers ----------------------------------------------------------------- */

typedef struct edge {
  uint64_t a, b;
  float w;
} edge;

typedef struct collector {
  edge *e;
  size_t n, cap;
  size_t calls;
  size_t fail_at;        /* 1-based call that fails; 0: never */
  exo_status fail_code;
} collector;

static exo_status collect(void *user, uint64_t a, uint64_t b, float w, exo_ctx *ctx) {
  collector *c = user;
  c->calls++;
  if (c->fail_at && c->calls == c->fail_at)
    return EXO_FAIL(ctx, c->fail_code, "callback refused edge %zu", c->calls);
  if (c->n == c->cap) {
    c->cap = c->cap ? c->cap * 2 : 64;
    c->e = realloc(c->e, c->cap * sizeof *c->e);
  }
  c->e[c->n].a = a;
  c->e[c->n].b = b;
  c->e[c->n].w = w;
  c->n++;
  return EXO_OK;
}

typedef struct strbuf {
  char *p;
  size_t len, cap;
} strbuf;

static void sb_add(strbuf *s, const void *d, size_t n) {
  if (s->len + n + 1 > s->cap) {
    s->cap = (s->len + n + 1) * 2;
    s->p = realloc(s->p, s->cap);
  }
  memcpy(s->p + s->len, d, n);
  s->len += n;
  s->p[s->len] = '\0';
}

static void sb_printf(strbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(strbuf *s, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  sb_add(s, tmp, (size_t)n);
}

/* Names file split into lines. */
typedef struct namelist {
  char *text;
  char **name;
  size_t *len;
  size_t n;
} namelist;

static void read_names(const char *path, namelist *nl) {
  size_t total;
  nl->text = tu_read_file(path, &total);
  ck_assert_ptr_nonnull(nl->text);
  nl->n = 0;
  for (size_t i = 0; i < total; i++) nl->n += nl->text[i] == '\n';
  nl->name = malloc((nl->n + 1) * sizeof *nl->name);
  nl->len = malloc((nl->n + 1) * sizeof *nl->len);
  size_t k = 0, start = 0;
  for (size_t i = 0; i < total; i++) {
    if (nl->text[i] == '\n') {
      nl->name[k] = nl->text + start;
      nl->len[k] = i - start;
      k++;
      start = i + 1;
    }
  }
  ck_assert_uint_eq(start, total); /* every name ends in LF */
}

static void free_names(namelist *nl) {
  free(nl->text);
  free(nl->name);
  free(nl->len);
}

/* The result of parsing a list of files with one name table. */
typedef struct result {
  exo_status st;
  char msg[EXO_ERRMSG_MAX];
  char *text;  /* "A B W\n" per edge, W printed with %g */
  collector c;
  namelist names;
  exo_parse_stats stats; /* of the last file parsed */
} result;

static void free_result(result *r) {
  free(r->text);
  free(r->c.e);
  free_names(&r->names);
}

/* Parse `paths` in order into one table; render the edges by name. */
static void finish_result(exo_names *t, char *np, exo_ctx *ctx, result *r);
static void parse_paths(const char *dir, const char *const *paths, int n,
                        const exo_parse_options *opt, exo_ctx *ctx, result *r) {
  memset(r, 0, sizeof *r);
  char *np = tu_path(dir, "names.txt");
  exo_names *t = NULL;
  ck_assert_int_eq(exo_names_create(&t, np, ctx), EXO_OK);
  r->st = EXO_OK;
  for (int i = 0; i < n && r->st == EXO_OK; i++)
    r->st = exo_parse_file(paths[i], opt, t, collect, &r->c, ctx, &r->stats);
  finish_result(t, np, ctx, r);
}

/* Close the table, read its names back and render r's edges by name. */
static void finish_result(exo_names *t, char *np, exo_ctx *ctx, result *r) {
  snprintf(r->msg, sizeof r->msg, "%s", ctx->err.msg);
  exo_ctx fctx;
  exo_ctx_init(&fctx);
  ck_assert_int_eq(exo_names_finish(t, &fctx), EXO_OK);
  exo_names_free(t);
  read_names(np, &r->names);
  strbuf s = {0};
  sb_add(&s, "", 0);
  for (size_t i = 0; i < r->c.n; i++) {
    edge e = r->c.e[i];
    ck_assert_uint_lt(e.a, r->names.n);
    ck_assert_uint_lt(e.b, r->names.n);
    sb_add(&s, r->names.name[e.a], r->names.len[e.a]);
    sb_add(&s, " ", 1);
    sb_add(&s, r->names.name[e.b], r->names.len[e.b]);
    sb_printf(&s, " %g\n", (double)e.w);
  }
  r->text = s.p;
  free(np);
}

static exo_parse_options opts(char sep, uint64_t header, int ignore) {
  exo_parse_options o;
  memset(&o, 0, sizeof o);
  o.sep = sep;
  o.header_lines = header;
  o.ignore_weights = ignore;
  return o;
}

/* ---- the case table ------------------------------------------------------------ */

typedef struct pcase {
  const char *label;
  const char *text;
  size_t len; /* 0: strlen(text) */
  char sep;
  uint64_t header;
  int ignore;
  const char *want;      /* edges as "A B W\n"; NULL for an error */
  uint64_t err_line;     /* expected "<path>:<err_line>: " prefix */
  const char *err_text;  /* expected rest of the message */
} pcase;

static const pcase cases[] = {
    /* accepted ------------------------------------------------------------- */
    {"tab 3 col", "a\tb\t2\nb\tc\t0.5\n", 0, '\t', 0, 0, "a b 2\nb c 0.5\n", 0, NULL},
    {"tab 2 col", "a\tb\nb\tc\n", 0, '\t', 0, 0, "a b 1\nb c 1\n", 0, NULL},
    {"mixed 2 and 3 col", "a\tb\nb\tc\t3\n", 0, '\t', 0, 0, "a b 1\nb c 3\n", 0, NULL},
    {"comma", "x,y,4\ny,z\n", 0, ',', 0, 0, "x y 4\ny z 1\n", 0, NULL},
    {"space", "x y 1.5\n", 0, ' ', 0, 0, "x y 1.5\n", 0, NULL},
    {"semicolon", "p;q;-2\n", 0, ';', 0, 0, "p q -2\n", 0, NULL},
    {"pipe", "p|q\n", 0, '|', 0, 0, "p q 1\n", 0, NULL},
    {"letter separator", "axbx2\n", 0, 'x', 0, 0, "a b 2\n", 0, NULL},
    {"names with spaces and commas", "new york\tsan jose, ca\t7\n", 0, '\t', 0, 0,
     "new york san jose, ca 7\n", 0, NULL},
    {"spaces kept in names", "a \t b\n", 0, '\t', 0, 0, "a   b 1\n", 0, NULL},
    {"quotes kept", "\"a\"\t'b'\n", 0, '\t', 0, 0, "\"a\" 'b' 1\n", 0, NULL},
    {"high bytes", "\xc3\xa9t\xc3\xa9\t\xff\x80\n", 0, '\t', 0, 0, "\xc3\xa9t\xc3\xa9 \xff\x80 1\n", 0, NULL},
    {"four and more columns: the rest is skipped", "a\tb\t1\nc\td\t2\t9\ne\tf\t3\tx\t\t\n",
     0, '\t', 0, 0, "a b 1\nc d 2\ne f 3\n", 0, NULL},
    {"ignore_weights extra columns", "a\tb\tx\ty\tz\nc\td\n", 0, '\t', 0, 1, "a b 1\nc d 1\n", 0, NULL},
    {"ignore_weights bad weight", "a\tb\tnan\nc\td\t\n", 0, '\t', 0, 1, "a b 1\nc d 1\n", 0, NULL},
    {"numeric header", "1\t2\t3\na\tb\t4\n", 0, '\t', 1, 0, "a b 4\n", 0, NULL},
    {"text header", "from\tto\tweight\na\tb\t4\n", 0, '\t', 1, 0, "a b 4\n", 0, NULL},
    {"header holds anything", "\nname1 \r x\0y\na\tb\n", 17, '\t', 2, 0, "a b 1\n", 0, NULL},
    {"header longer than file", "a\tb\nc\td\n", 0, '\t', 5, 0, "", 0, NULL},
    {"CRLF", "a\tb\t2\r\nc\td\r\n", 0, '\t', 0, 0, "a b 2\nc d 1\n", 0, NULL},
    {"CRLF, CR at end of file", "a\tb\t2\r\nc\td\t3\r", 0, '\t', 0, 0, "a b 2\nc d 3\n", 0, NULL},
    {"CRLF, 2 col CR at end of file", "a\tb\r\nc\td\r", 0, '\t', 0, 0, "a b 1\nc d 1\n", 0, NULL},
    {"no final newline, 2 col", "a\tb\nc\td", 0, '\t', 0, 0, "a b 1\nc d 1\n", 0, NULL},
    {"no final newline, 3 col", "a\tb\nc\td\t7", 0, '\t', 0, 0, "a b 1\nc d 7\n", 0, NULL},
    {"BOM", "\xef\xbb\xbf" "a\tb\n", 0, '\t', 0, 0, "a b 1\n", 0, NULL},
    {"BOM and header", "\xef\xbb\xbf" "h1\th2\na\tb\n", 0, '\t', 1, 0, "a b 1\n", 0, NULL},
    {"BOM only", "\xef\xbb\xbf", 0, '\t', 0, 0, "", 0, NULL},
    {"BOM later is data", "a\tb\n\xef\xbb\xbf" "c\td\n", 0, '\t', 0, 0,
     "a b 1\n\xef\xbb\xbf" "c d 1\n", 0, NULL},
    {"blank lines", "\n\na\tb\n\n\r\n\nc\td\n\n", 0, '\t', 0, 0, "a b 1\nc d 1\n", 0, NULL},
    {"lone CR line is blank", "a\tb\n\r\nc\td\n\r", 0, '\t', 0, 0, "a b 1\nc d 1\n", 0, NULL},
    {"empty file", "", 0, '\t', 0, 0, "", 0, NULL},
    {"weights",
     "a\tb\t-2\na\tc\t0\na\td\t1e3\na\te\t1.5E-2\na\tf\t 3 \na\tg\t1e-50\na\th\t+4\n"
     "a\ti\t.5\na\tj\t5.\na\tk\t-0\na\tl\t007\na\tm\t123456789\na\tn\t-1e-3\n",
     0, '\t', 0, 0,
     "a b -2\na c 0\na d 1000\na e 0.015\na f 3\na g 0\na h 4\na i 0.5\na j 5\na k -0\n"
     "a l 7\na m 1.23457e+08\na n -0.001\n",
     0, NULL},
    /* rejected ------------------------------------------------------------- */
    {"one column", "a\tb\nc\n", 0, '\t', 0, 0, NULL, 2,
     "expected at least 2 fields separated by tab, found 1 (no tab in the line)"},
    {"one column with ignore_weights", "a\n", 0, '\t', 0, 1, NULL, 1,
     "expected at least 2 fields separated by tab, found 1 (no tab in the line)"},
    {"empty first name", "\tb\n", 0, '\t', 0, 0, NULL, 1, "empty name in field 1"},
    {"empty second name", "a\t\n", 0, '\t', 0, 0, NULL, 1, "empty name in field 2"},
    {"empty second name, 3 col", "a\t\t1\n", 0, '\t', 0, 0, NULL, 1, "empty name in field 2"},
    {"empty name after header and blank", "h\n\na\tb\n\tc\n", 0, '\t', 1, 0, NULL, 4,
     "empty name in field 1"},
    {"weight abc", "a\tb\tabc\n", 0, '\t', 0, 0, NULL, 1, "weight 'abc' is not a number"},
    {"empty weight", "a\tb\t\n", 0, '\t', 0, 0, NULL, 1, "weight '' is not a number"},
    {"weight 1,5", "a\tb\t1,5\n", 0, '\t', 0, 0, NULL, 1, "weight '1,5' is not a number"},
    {"weight nan", "a\tb\t1\nc\td\tnan\n", 0, '\t', 0, 0, NULL, 2,
     "weight 'nan' is not finite (NaN or infinite)"},
    {"weight inf", "a\tb\tinf\n", 0, '\t', 0, 0, NULL, 1,
     "weight 'inf' is not finite (NaN or infinite)"},
    {"weight -Infinity", "a\tb\t-Infinity\n", 0, '\t', 0, 0, NULL, 1,
     "weight '-Infinity' is not finite (NaN or infinite)"},
    {"weight 1e39", "a\tb\t1e39\n", 0, '\t', 0, 0, NULL, 1,
     "weight '1e39' is beyond the float range (magnitude above 3.4e38)"},
    {"weight -1e39", "a\tb\t-1e39\n", 0, '\t', 0, 0, NULL, 1,
     "weight '-1e39' is beyond the float range (magnitude above 3.4e38)"},
    {"lone CR in a name", "a\tb\na\rb\tc\n", 0, '\t', 0, 0, NULL, 2,
     "carriage return inside a field (a CR is allowed only right before the end of the line)"},
    {"CR CR LF", "a\tb\t1\r\r\n", 0, '\t', 0, 0, NULL, 1,
     "carriage return inside a field (a CR is allowed only right before the end of the line)"},
    {"CR at line start", "a\tb\n\ra\tb\n", 0, '\t', 0, 0, NULL, 2,
     "carriage return inside a field (a CR is allowed only right before the end of the line)"},
    {"NUL in a name", "a\tb\nc\0d\te\n", 11, '\t', 0, 0, NULL, 2,
     "NUL byte in the line (is this a binary file?)"},
    {"NUL in a weight", "a\tb\t1\0\n", 7, '\t', 0, 0, NULL, 1,
     "NUL byte in the line (is this a binary file?)"},
    {"comma separator on tab data", "a\tb\n", 0, ',', 0, 0, NULL, 1,
     "expected at least 2 fields separated by ',', found 1 (no ',' in the line, but it contains "
     "tab: is the separator tab?)"},
    {"tab separator on comma data", "a,b,1\n", 0, '\t', 0, 0, NULL, 1,
     "expected at least 2 fields separated by tab, found 1 (no tab in the line, but it contains "
     "',': is the separator ','?)"},
    {"line numbers count blank lines", "\n\na\n", 0, '\t', 0, 0, NULL, 3,
     "expected at least 2 fields separated by tab, found 1 (no tab in the line)"},
    {"line numbers with CRLF", "a\tb\r\nc\r\n", 0, '\t', 0, 0, NULL, 2,
     "expected at least 2 fields separated by tab, found 1 (no tab in the line)"},
    {"error on last line without LF", "a\tb\nc", 0, '\t', 0, 0, NULL, 2,
     "expected at least 2 fields separated by tab, found 1 (no tab in the line)"},
    {"line number after BOM and header", "\xef\xbb\xbfh\na\tb\n\nx\ty\tz\tw\n", 0, '\t', 1, 0,
     NULL, 4, "weight 'z' is not a number"},
};

START_TEST(case_table) {
  const pcase *c = &cases[_i];
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "edges.tsv");
  size_t len = c->len ? c->len : strlen(c->text);
  ck_assert_int_eq(tu_write_file(path, c->text, len), 0);
  exo_parse_options o = opts(c->sep, c->header, c->ignore);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  result r;
  const char *paths[1] = {path};
  parse_paths(dir, paths, 1, &o, &ctx, &r);
  if (c->want) {
    if (r.st != EXO_OK) ck_abort_msg("case '%s': status %d: %s", c->label, r.st, r.msg);
    if (strcmp(r.text, c->want) != 0)
      ck_abort_msg("case '%s': got\n%s\nwant\n%s", c->label, r.text, c->want);
    ck_assert_uint_eq(r.stats.bytes, len);
  } else {
    char want[2048];
    snprintf(want, sizeof want, "%s:%llu: %s", path, (unsigned long long)c->err_line,
             c->err_text);
    if (r.st != EXO_EINPUT) ck_abort_msg("case '%s': status %d, want EXO_EINPUT", c->label, r.st);
    if (strcmp(r.msg, want) != 0)
      ck_abort_msg("case '%s': message\n%s\nwant\n%s", c->label, r.msg, want);
    ck_assert_uint_eq(r.stats.lines, c->err_line);
  }
  free_result(&r);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* ---- weights ---------------------------------------------------------------- */

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

START_TEST(weight_edge_cases) {
  static const struct {
    const char *s;
    int ret;
    float w;
  } t[] = {
      {"0", 0, 0.0f},         {"-0", 0, -0.0f},        {"1", 0, 1.0f},
      {"+1", 0, 1.0f},        {"  7  ", 0, 7.0f},      {"0.1", 0, 0.1f},
      {"16777216", 0, 16777216.0f},                     {"16777217", 0, 16777216.0f},
      {"16777219", 0, 16777220.0f},                     {"3.4028235e38", 0, 3.4028235e38f},
      {"-3.4028235e38", 0, -3.4028235e38f},             {"1e-50", 0, 0.0f},
      {"-1e-50", 0, -0.0f},   {"1e-45", 0, 1e-45f},    {"0e999999999", 0, 0.0f},
      {"1E+2", 0, 100.0f},    {"1e-10", 0, 1e-10f},    {"12345678e10", 0, 12345678e10f},
      {"0x10", 0, 16.0f},     {"1.", 0, 1.0f},         {".5", 0, 0.5f},
      {"00000000000000000000000000001.5", 0, 1.5f},
      {"1.00000000000000000000000000001", 0, 1.0f},
      {"", -1, 0},            {"   ", -1, 0},          {"abc", -1, 0},
      {"1e", -1, 0},          {"e1", -1, 0},           {"+", -1, 0},
      {"-", -1, 0},           {".", -1, 0},            {"1..2", -1, 0},
      {"1,5", -1, 0},         {"1 2", -1, 0},          {"\t1", -1, 0},
      {"1e+", -1, 0},         {"--1", -1, 0},          {"0x", -1, 0},
      {"nan", -2, 0},         {"NaN", -2, 0},          {"-nan", -2, 0},
      {"inf", -2, 0},         {"-inf", -2, 0},         {"Infinity", -2, 0},
      {"1e39", -3, 0},        {"-1e39", -3, 0},        {"3.5e38", -3, 0},
      {"1e999999999999", -3, 0},                        {"0x1p200", -3, 0},
  };
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    float w = 12345.0f;
    int ret = exo_parse_weight(t[i].s, strlen(t[i].s), &w);
    if (ret != t[i].ret) ck_abort_msg("'%s': returned %d, want %d", t[i].s, ret, t[i].ret);
    if (ret == 0 && fbits(w) != fbits(t[i].w))
      ck_abort_msg("'%s': got %a, want %a", t[i].s, (double)w, (double)t[i].w);
    if (ret != 0) ck_assert(w == 12345.0f); /* untouched on failure */
  }
  /* the length is honoured: no reading past it, no NUL needed */
  float w;
  ck_assert_int_eq(exo_parse_weight("2.5xyz", 3, &w), 0);
  ck_assert(w == 2.5f);
  ck_assert_int_eq(exo_parse_weight("17", 1, &w), 0);
  ck_assert(w == 1.0f);
  /* long fields: at most 256 bytes after trimming */
  char buf[400];
  memset(buf, '0', sizeof buf);
  buf[0] = '1';
  buf[1] = '.';
  ck_assert_int_eq(exo_parse_weight(buf, 256, &w), 0);
  ck_assert(w == 1.0f);
  ck_assert_int_eq(exo_parse_weight(buf, 257, &w), -1);
  buf[256] = ' '; /* trailing spaces do not count */
  ck_assert_int_eq(exo_parse_weight(buf, 300, &w), -1);
  memset(buf + 256, ' ', 100);
  ck_assert_int_eq(exo_parse_weight(buf, 300, &w), 0);
  ck_assert(w == 1.0f);
}
END_TEST

/* Append a random decimal number to s: sign, digits, point, exponent. */
static int random_number(exo_rng *r, char *s) {
  int n = 0;
  uint64_t kind = exo_rng_below(r, 4);
  if (exo_rng_below(r, 4) == 0) s[n++] = exo_rng_below(r, 2) ? '-' : '+';
  int digits = 1 + (int)exo_rng_below(r, kind == 0 ? 8 : 22);
  int point = exo_rng_below(r, 3) ? (int)exo_rng_below(r, (uint64_t)digits + 1) : -1;
  int zeros = exo_rng_below(r, 5) == 0 ? (int)exo_rng_below(r, 6) : 0;
  for (int i = 0; i < zeros; i++) s[n++] = '0';
  for (int i = 0; i < digits; i++) {
    if (i == point) s[n++] = '.';
    s[n++] = (char)('0' + exo_rng_below(r, 10));
  }
  if (point == digits) s[n++] = '.';
  if (kind >= 2) {
    s[n++] = exo_rng_below(r, 2) ? 'e' : 'E';
    if (exo_rng_below(r, 2)) s[n++] = exo_rng_below(r, 2) ? '-' : '+';
    int e = kind == 2 ? (int)exo_rng_below(r, 12) : (int)exo_rng_below(r, 50);
    n += snprintf(s + n, 8, "%d", e);
  }
  s[n] = '\0';
  return n;
}

START_TEST(weights_match_strtof) {
  exo_rng r;
  exo_rng_seed(&r, 2024);
  char s[128];
  int fast_range = 0;
  for (int i = 0; i < 200000; i++) {
    int n = random_number(&r, s);
    errno = 0;
    char *end;
    float want = strtof(s, &end);
    int range = errno == ERANGE;
    ck_assert_ptr_eq(end, s + n);
    float got = 9.0f;
    int ret = exo_parse_weight(s, (size_t)n, &got);
    if (isinf(want)) {
      ck_assert(range);
      if (ret != -3) ck_abort_msg("'%s': returned %d, want -3", s, ret);
      continue;
    }
    if (ret != 0) ck_abort_msg("'%s': returned %d", s, ret);
    if (fbits(got) != fbits(want))
      ck_abort_msg("'%s': got %a, strtof gives %a", s, (double)got, (double)want);
    if (fabsf(want) > 1e-10f && fabsf(want) < 1e10f) fast_range++;
  }
  ck_assert_int_gt(fast_range, 50000);
  /* short mantissas with exponents around the fast path's limits */
  for (int m = 1; m < 3000; m += 7) {
    for (int e = -14; e <= 14; e++) {
      int n = snprintf(s, sizeof s, "%d.%03de%d", m / 1000, m % 1000, e);
      float want = strtof(s, NULL), got;
      ck_assert_int_eq(exo_parse_weight(s, (size_t)n, &got), 0);
      if (fbits(got) != fbits(want))
        ck_abort_msg("'%s': got %a, strtof gives %a", s, (double)got, (double)want);
    }
  }
}
END_TEST

/* ---- whole files -------------------------------------------------------------- */

START_TEST(callback_sequence_and_stats) {
  char *dir = tu_mkdtemp();
  const char *text = "a\tb\t2\nb\tc\n\nc\ta\t-1.5\na\tb\t0.25\r\nd\td\t0.1";
  char *path = tu_write_text(dir, "e.tsv", text);
  exo_parse_options o = opts('\t', 0, 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  result r;
  const char *paths[1] = {path};
  parse_paths(dir, paths, 1, &o, &ctx, &r);
  ck_assert_int_eq(r.st, EXO_OK);
  const edge want[] = {{0, 1, 2.0f}, {1, 2, 1.0f}, {2, 0, -1.5f}, {0, 1, 0.25f}, {3, 3, 0.1f}};
  ck_assert_uint_eq(r.c.n, 5);
  for (size_t i = 0; i < 5; i++) {
    ck_assert_uint_eq(r.c.e[i].a, want[i].a);
    ck_assert_uint_eq(r.c.e[i].b, want[i].b);
    ck_assert_uint_eq(fbits(r.c.e[i].w), fbits(want[i].w));
  }
  ck_assert_uint_eq(r.names.n, 4);
  ck_assert_uint_eq(r.stats.lines, 6);
  ck_assert_uint_eq(r.stats.edges, 5);
  ck_assert_uint_eq(r.stats.bytes, strlen(text));
  free_result(&r);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(several_files_with_headers) {
  char *dir = tu_mkdtemp();
  char *f1 = tu_write_text(dir, "1.tsv", "src\tdst\nb\ta\n");
  char *f2 = tu_write_text(dir, "2.tsv", "\xef\xbb\xbfsrc\tdst\r\na\tc\r\n");
  char *f3 = tu_write_text(dir, "3.tsv", "1\t2\n");
  exo_parse_options o = opts('\t', 1, 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  result r;
  const char *paths[3] = {f1, f2, f3};
  parse_paths(dir, paths, 3, &o, &ctx, &r);
  ck_assert_int_eq(r.st, EXO_OK);
  ck_assert_str_eq(r.text, "b a 1\na c 1\n");
  ck_assert_uint_eq(r.names.n, 3);
  ck_assert_int_eq(memcmp(r.names.text, "b\na\nc\n", 6), 0);
  ck_assert_uint_eq(r.stats.lines, 1); /* of the last file: its header only */
  ck_assert_uint_eq(r.stats.edges, 0);
  free_result(&r);
  free(f1);
  free(f2);
  free(f3);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* A random edge list of about `target` bytes with every accepted feature:
 * names with odd bytes, 2 and 3 columns, CRLF, blank lines, spaces around
 * weights, no final newline. Returns the text; the expected edges (with ids
 * in first-seen order) go to *want. */
static char *random_edge_list(uint64_t seed, size_t target, size_t *len, edge **want,
                              size_t *nwant, uint64_t *nnames) {
  exo_rng r;
  exo_rng_seed(&r, seed);
  enum { POOL = 3000 };
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789 ._-'\"\xc3\xa9\xff";
  char *pool[POOL];
  size_t plen[POOL];
  uint64_t id[POOL];
  for (int i = 0; i < POOL; i++) {
    size_t l = 1 + (size_t)exo_rng_below(&r, i % 50 == 0 ? 300 : 20);
    pool[i] = malloc(l);
    for (size_t k = 0; k < l; k++) pool[i][k] = alphabet[exo_rng_below(&r, sizeof alphabet - 1)];
    pool[i][0] = (char)('A' + i % 26);
    /* unique names: append the index */
    char tag[16];
    int tl = snprintf(tag, sizeof tag, "#%d", i);
    pool[i] = realloc(pool[i], l + (size_t)tl);
    memcpy(pool[i] + l, tag, (size_t)tl);
    plen[i] = l + (size_t)tl;
    id[i] = UINT64_MAX;
  }
  strbuf s = {0};
  size_t cap = 0, n = 0;
  edge *e = NULL;
  uint64_t next = 0;
  while (s.len < target) {
    uint64_t kind = exo_rng_below(&r, 20);
    if (kind == 0) {
      if (exo_rng_below(&r, 2))
        sb_add(&s, "\n", 1);
      else
        sb_add(&s, "\r\n", 2);
      continue;
    }
    int x = (int)exo_rng_below(&r, POOL), y = (int)exo_rng_below(&r, POOL);
    sb_add(&s, pool[x], plen[x]);
    sb_add(&s, "\t", 1);
    sb_add(&s, pool[y], plen[y]);
    float w = 1.0f;
    if (exo_rng_below(&r, 3)) {
      char num[64];
      int k = random_number(&r, num);
      w = strtof(num, NULL);
      if (isinf(w)) {
        w = 1.0f;
        snprintf(num, sizeof num, "1");
        k = 1;
      }
      sb_add(&s, "\t", 1);
      if (exo_rng_below(&r, 10) == 0) sb_add(&s, " ", 1);
      sb_add(&s, num, (size_t)k);
      if (exo_rng_below(&r, 10) == 0) sb_add(&s, "  ", 2);
    }
    if (exo_rng_below(&r, 4) == 0)
      sb_add(&s, "\r\n", 2);
    else
      sb_add(&s, "\n", 1);
    if (id[x] == UINT64_MAX) id[x] = next++;
    if (id[y] == UINT64_MAX) id[y] = next++;
    if (n == cap) {
      cap = cap ? cap * 2 : 1024;
      e = realloc(e, cap * sizeof *e);
    }
    e[n].a = id[x];
    e[n].b = id[y];
    e[n].w = w;
    n++;
  }
  /* drop the final line end */
  if (s.len && s.p[s.len - 1] == '\n') s.len--;
  if (s.len && s.p[s.len - 1] == '\r') s.len--;
  for (int i = 0; i < POOL; i++) free(pool[i]);
  *len = s.len;
  *want = e;
  *nwant = n;
  *nnames = next;
  return s.p;
}

static void check_edges(const collector *c, const edge *want, size_t n) {
  ck_assert_uint_eq(c->n, n);
  for (size_t i = 0; i < n; i++) {
    if (c->e[i].a != want[i].a || c->e[i].b != want[i].b ||
        fbits(c->e[i].w) != fbits(want[i].w))
      ck_abort_msg("edge %zu: got (%llu, %llu, %a), want (%llu, %llu, %a)", i,
                   (unsigned long long)c->e[i].a, (unsigned long long)c->e[i].b,
                   (double)c->e[i].w, (unsigned long long)want[i].a,
                   (unsigned long long)want[i].b, (double)want[i].w);
  }
}

START_TEST(random_file_plain_and_gzip) {
  char *dir = tu_mkdtemp();
  size_t len, n;
  edge *want;
  uint64_t nnames;
  char *text = random_edge_list(77, (size_t)TU_SAN(6, 2) << 20, &len, &want, &n, &nnames);
  char *plain = tu_path(dir, "r.tsv"), *gz = tu_path(dir, "r.tsv.gz");
  ck_assert_int_eq(tu_write_file(plain, text, len), 0);
  ck_assert_int_eq(tu_write_gzip(gz, text, len), 0);
  for (int g = 0; g < 2; g++) {
    exo_parse_options o = opts('\t', 0, 0);
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    result r;
    const char *paths[1] = {g ? gz : plain};
    parse_paths(dir, paths, 1, &o, &ctx, &r);
    if (r.st != EXO_OK) ck_abort_msg("%s", r.msg);
    check_edges(&r.c, want, n);
    ck_assert_uint_eq(r.names.n, nnames);
    ck_assert_uint_eq(r.stats.edges, n);
    ck_assert_uint_eq(r.stats.bytes, len);
    free_result(&r);
  }
  free(text);
  free(want);
  free(plain);
  free(gz);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

#ifndef _WIN32 /* no FIFOs, no fork() */
/* Write `len` bytes of text into the FIFO `path` from a child process in
 * small random pieces, so the reader sees short reads at random offsets. */
static pid_t feed_fifo(const char *path, const char *text, size_t len, uint64_t seed) {
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    int fd = open(path, O_WRONLY);
    if (fd < 0) _exit(1);
    exo_rng r;
    exo_rng_seed(&r, seed);
    size_t off = 0;
    while (off < len) {
      size_t k = off < 16 ? 1 : 1 + (size_t)exo_rng_below(&r, 9000);
      if (k > len - off) k = len - off;
      ssize_t w = write(fd, text + off, k);
      if (w <= 0) _exit(2);
      off += (size_t)w;
      if (exo_rng_below(&r, 50) == 0) usleep(100);
    }
    close(fd);
    _exit(0);
  }
  return pid;
}

START_TEST(fifo_short_reads) {
  char *dir = tu_mkdtemp();
  size_t len, n;
  edge *want;
  uint64_t nnames;
  char *body = random_edge_list(31, (size_t)3 << 20, &len, &want, &n, &nnames);
  /* a BOM and a header line in front */
  const char *head = "\xef\xbb\xbfsource\ttarget\tweight\r\n";
  size_t hl = strlen(head);
  char *text = malloc(hl + len);
  memcpy(text, head, hl);
  memcpy(text + hl, body, len);
  char *fifo = tu_path(dir, "edges.fifo");
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  char *gz = tu_path(dir, "edges.gz");
  ck_assert_int_eq(tu_write_gzip(gz, text, hl + len), 0);
  size_t gzlen;
  char *gztext = tu_read_file(gz, &gzlen);
  for (int g = 0; g < 2; g++) {
    pid_t pid = g ? feed_fifo(fifo, gztext, gzlen, 8) : feed_fifo(fifo, text, hl + len, 9);
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    result r;
    const char *paths[1] = {fifo};
    parse_paths(dir, paths, 1, &(exo_parse_options){.sep = '\t', .header_lines = 1}, &ctx, &r);
    int status = -1;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (r.st != EXO_OK) ck_abort_msg("%s", r.msg);
    check_edges(&r.c, want, n);
    ck_assert_uint_eq(r.names.n, nnames);
    ck_assert_uint_eq(r.stats.bytes, hl + len);
    free_result(&r);
  }
  free(gztext);
  free(gz);
  free(fifo);
  free(text);
  free(body);
  free(want);
  tu_rmdir(dir);
  free(dir);
}
END_TEST
#endif

#ifdef __linux__ /* FIFOs, fork(), /proc/self/fd */
/* Issue 53 item 8: a FIFO whose writer sends a little and then keeps it
 * open, idle. The reader must not block in read() for good: it waits in
 * short steps and asks the interrupt callback between them, which turns
 * true after 300 ms; the parse then returns EXO_EINTR within a couple of
 * seconds (sequential and parallel parse; text, a gzip stream cut short,
 * and nothing at all before the format is known), leaving no descriptor
 * open. */
typedef struct late_stop {
  struct timespec t0;
  int calls;
} late_stop;

static double since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static int stop_after_300ms(void *user) {
  late_stop *l = user;
  l->calls++;
  return since(&l->t0) > 0.3;
}

/* A child writing `len` bytes into the FIFO, then holding it open (for at
 * most 20 s) until it is killed. */
static pid_t idle_writer(const char *path, const void *data, size_t len) {
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    alarm(20);
    int fd = open(path, O_WRONLY);
    if (fd < 0) _exit(1);
    if (len && write(fd, data, len) != (ssize_t)len) _exit(2);
    for (;;) pause();
  }
  return pid;
}

START_TEST(idle_fifo_interrupt) {
  char *dir = tu_mkdtemp();
  char *fifo = tu_path(dir, "edges.fifo");
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  const char *text = "a\tb\t1\nb\tc\t2\nc\td\t3\n";
  char *gz = tu_path(dir, "edges.gz");
  ck_assert_int_eq(tu_write_gzip(gz, text, strlen(text)), 0);
  size_t gzlen;
  char *gztext = tu_read_file(gz, &gzlen);
  ck_assert_uint_gt(gzlen, 12);
  struct {
    const char *data;
    size_t len;
    int threads;
  } kinds[] = {{text, strlen(text), 1},
               {text, strlen(text), 4},
               {gztext, gzlen - 8, 1}, /* the trailer (and so the end) still to come */
               {"", 0, 1}};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    const int fds = tu_count_entries("/proc/self/fd");
    pid_t pid = idle_writer(fifo, kinds[i].data, kinds[i].len);
    late_stop l = {.calls = 0};
    clock_gettime(CLOCK_MONOTONIC, &l.t0);
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    ctx.cb.user = &l;
    ctx.cb.interrupted = stop_after_300ms;
    result r;
    const char *paths[1] = {fifo};
    exo_parse_options o = opts('\t', 0, 0);
    o.threads = kinds[i].threads;
    parse_paths(dir, paths, 1, &o, &ctx, &r);
    const double took = since(&l.t0);
    kill(pid, SIGKILL);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(r.st == EXO_EINTR, "case %zu: status %d (%s), want EXO_EINTR", i, (int)r.st,
                  r.msg);
    ck_assert_msg(took >= 0.3 && took < 2.0, "case %zu: returned after %.3f s", i, took);
    ck_assert_int_ge(l.calls, 2);
    free_result(&r);
    ck_assert_int_eq(tu_count_entries("/proc/self/fd"), fds);
  }
  free(gztext);
  free(gz);
  free(fifo);
  tu_rmdir(dir);
  free(dir);
}
END_TEST
#endif

START_TEST(huge_names) {
  /* names of 1 MiB and 3 MiB: lines longer than the initial buffer */
  char *dir = tu_mkdtemp();
  const size_t sizes[] = {(size_t)1 << 20, (size_t)3 << 20, 5, (size_t)1 << 20};
  strbuf s = {0};
  char *names[4];
  for (int i = 0; i < 4; i++) {
    names[i] = malloc(sizes[i]);
    for (size_t k = 0; k < sizes[i]; k++) names[i][k] = (char)('a' + (k * 7 + (size_t)i) % 26);
    names[i][0] = (char)('0' + i);
  }
  sb_add(&s, "small\t", 6);
  sb_add(&s, names[0], sizes[0]);
  sb_add(&s, "\t2\n", 3);
  sb_add(&s, names[1], sizes[1]);
  sb_add(&s, "\t", 1);
  sb_add(&s, names[2], sizes[2]);
  sb_add(&s, "\r\n", 2);
  sb_add(&s, names[3], sizes[3]);
  sb_add(&s, "\t", 1);
  sb_add(&s, names[0], sizes[0]);
  char *path = tu_path(dir, "big.tsv");
  ck_assert_int_eq(tu_write_file(path, s.p, s.len), 0);
  exo_parse_options o = opts('\t', 0, 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  result r;
  const char *paths[1] = {path};
  parse_paths(dir, paths, 1, &o, &ctx, &r);
  if (r.st != EXO_OK) ck_abort_msg("%s", r.msg);
  const edge want[] = {{0, 1, 2.0f}, {2, 3, 1.0f}, {4, 1, 1.0f}};
  check_edges(&r.c, want, 3);
  ck_assert_uint_eq(r.names.n, 5);
  ck_assert_uint_eq(r.names.len[0], 5);
  const int order[5] = {-1, 0, 1, 2, 3};
  for (int k = 1; k < 5; k++) {
    ck_assert_uint_eq(r.names.len[k], sizes[order[k]]);
    ck_assert_int_eq(memcmp(r.names.name[k], names[order[k]], sizes[order[k]]), 0);
  }
  free_result(&r);
  for (int i = 0; i < 4; i++) free(names[i]);
  free(s.p);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(line_length_limit) {
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "long.tsv");
  /* line 2 is exactly EXO_PARSE_MAX_LINE bytes: accepted */
  size_t max = EXO_PARSE_MAX_LINE;
  size_t total = 4 + max + 1 + 4;
  char *text = malloc(total);
  memcpy(text, "a\tb\n", 4);
  memset(text + 4, 'x', max);
  memcpy(text + 4 + max - 2, "\tb", 2);
  text[4 + max] = '\n';
  memcpy(text + 5 + max, "c\td\n", 4);
  ck_assert_int_eq(tu_write_file(path, text, total), 0);
  exo_parse_options o = opts('\t', 0, 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  result r;
  const char *paths[1] = {path};
  parse_paths(dir, paths, 1, &o, &ctx, &r);
  if (r.st != EXO_OK) ck_abort_msg("%s", r.msg);
  ck_assert_uint_eq(r.c.n, 3);
  ck_assert_uint_eq(r.names.len[2], max - 2);
  free_result(&r);

  /* one byte more: rejected, naming line 2 */
  free(text);
  total += 1;
  text = malloc(total);
  memcpy(text, "a\tb\n", 4);
  memset(text + 4, 'x', max + 1);
  memcpy(text + 4 + max - 1, "\tb", 2);
  text[5 + max] = '\n';
  memcpy(text + 6 + max, "c\td\n", 4);
  ck_assert_int_eq(tu_write_file(path, text, total), 0);
  exo_ctx_init(&ctx);
  parse_paths(dir, paths, 1, &o, &ctx, &r);
  ck_assert_int_eq(r.st, EXO_EINPUT);
  char want[1024];
  snprintf(want, sizeof want, "%s:2: line longer than %zu bytes", path, max);
  ck_assert_str_eq(r.msg, want);
  free_result(&r);
  free(text);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(callback_failure_stops) {
  char *dir = tu_mkdtemp();
  char *path = tu_write_text(dir, "e.tsv", "a\tb\nb\tc\nc\td\nd\te\n");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  char *np = tu_path(dir, "names.txt");
  exo_names *t = NULL;
  ck_assert_int_eq(exo_names_create(&t, np, &ctx), EXO_OK);
  collector c = {0};
  c.fail_at = 2;
  c.fail_code = EXO_ENOSPC;
  exo_parse_options o = opts('\t', 0, 0);
  exo_parse_stats st;
  ck_assert_int_eq(exo_parse_file(path, &o, t, collect, &c, &ctx, &st), EXO_ENOSPC);
  ck_assert_str_eq(ctx.err.msg, "callback refused edge 2");
  ck_assert_uint_eq(c.calls, 2);
  ck_assert_uint_eq(st.edges, 1);
  ck_assert_uint_eq(st.lines, 2);
  ck_assert_uint_eq(exo_names_count(t), 3);
  exo_names_free(t);
  free(c.e);
  free(np);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

typedef struct hostlog {
  int polls;
  int stop_after; /* interrupt on this poll (0: never) */
  int progress_calls;
  uint64_t first_done, last_done, total;
  int monotonic;
} hostlog;

static int host_interrupted(void *user) {
  hostlog *h = user;
  h->polls++;
  return h->stop_after && h->polls >= h->stop_after;
}

static void host_progress(void *user, exo_stage stage, uint64_t done, uint64_t total) {
  hostlog *h = user;
  ck_assert_int_eq(stage, EXO_STAGE_PARSE);
  if (h->progress_calls == 0) {
    h->first_done = done;
    h->monotonic = 1;
  } else if (done < h->last_done) {
    h->monotonic = 0;
  }
  h->progress_calls++;
  h->last_done = done;
  h->total = total;
}

START_TEST(interrupt_and_progress) {
  char *dir = tu_mkdtemp();
  size_t len, n;
  edge *want;
  uint64_t nnames;
  char *text = random_edge_list(5, (size_t)3 << 20, &len, &want, &n, &nnames);
  char *plain = tu_path(dir, "r.tsv"), *gz = tu_path(dir, "r.tsv.gz");
  ck_assert_int_eq(tu_write_file(plain, text, len), 0);
  ck_assert_int_eq(tu_write_gzip(gz, text, len), 0);
  struct stat sp, sg;
  ck_assert_int_eq(stat(plain, &sp), 0);
  ck_assert_int_eq(stat(gz, &sg), 0);
  for (int g = 0; g < 2; g++) {
    hostlog h = {0};
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    ctx.cb.user = &h;
    ctx.cb.interrupted = host_interrupted;
    ctx.cb.progress = host_progress;
    result r;
    const char *paths[1] = {g ? gz : plain};
    parse_paths(dir, paths, 1, &(exo_parse_options){.sep = '\t'}, &ctx, &r);
    ck_assert_int_eq(r.st, EXO_OK);
    /* polled at least every 64 KiB of text */
    ck_assert_int_ge(h.polls, (int)(len / (72 << 10)));
    ck_assert_int_ge(h.progress_calls, 4);
    ck_assert_uint_eq(h.first_done, 0);
    ck_assert(h.monotonic);
    ck_assert_uint_eq(h.total, (uint64_t)(g ? sg.st_size : sp.st_size));
    ck_assert_uint_eq(h.last_done, h.total);
    free_result(&r);

    /* stop on the 5th poll */
    hostlog h2 = {0};
    h2.stop_after = 5;
    exo_ctx_init(&ctx);
    ctx.cb.user = &h2;
    ctx.cb.interrupted = host_interrupted;
    parse_paths(dir, paths, 1, &(exo_parse_options){.sep = '\t'}, &ctx, &r);
    ck_assert_int_eq(r.st, EXO_EINTR);
    ck_assert_int_eq(h2.polls, 5);
    ck_assert_uint_lt(r.c.n, n);
    ck_assert_uint_gt(r.c.n, 0);
    free_result(&r);
  }
  free(text);
  free(want);
  free(plain);
  free(gz);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(bad_arguments_and_files) {
  char *dir = tu_mkdtemp();
  char *path = tu_write_text(dir, "e.tsv", "a\tb\n");
  char *np = tu_path(dir, "names.txt");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_names *t = NULL;
  ck_assert_int_eq(exo_names_create(&t, np, &ctx), EXO_OK);
  collector c = {0};
  const char bad[] = {'\n', '\r', '\0'};
  for (int i = 0; i < 3; i++) {
    exo_ctx_init(&ctx);
    exo_parse_options o = opts(bad[i], 0, 0);
    ck_assert_int_eq(exo_parse_file(path, &o, t, collect, &c, &ctx, NULL), EXO_EARG);
  }
  exo_ctx_init(&ctx);
  exo_parse_options o = opts('\t', 0, 0);
  char *missing = tu_path(dir, "missing.tsv");
  exo_parse_stats st = {9, 9, 9, 9, 9.0, 9.0};
  ck_assert_int_eq(exo_parse_file(missing, &o, t, collect, &c, &ctx, &st), EXO_EIO);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, missing));
  ck_assert_uint_eq(st.lines, 0);
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_parse_file(dir, &o, t, collect, &c, &ctx, NULL), EXO_EIO);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "is a directory"));
  /* stats are optional */
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_parse_file(path, &o, t, collect, &c, &ctx, NULL), EXO_OK);
  ck_assert_uint_eq(c.n, 1);
  exo_names_free(t);
  free(c.e);
  free(missing);
  free(np);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* ---- the parallel path gives the sequential result ----------------------------- */

/* A scratch directory on tmpfs when there is one: the tests below create
 * thousands of small files, and creating files on a busy disk can take
 * milliseconds each. */
static char *fast_tmpdir(void) {
  struct stat st;
  if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0) {
    char tmpl[] = "/dev/shm/exotest-XXXXXX";
    if (exo_make_tempdir(tmpl) == 0) return strdup(tmpl);
  }
  return tu_mkdtemp();
}

/* Parse `path` with threads = 1 and with (threads, block); both results must
 * be the same in every respect: status, message, edges (ids and weight bits),
 * names file, line and edge counts, bytes (on success). fail_at/stop_after
 * make the callback fail or the host interrupt at that call/poll. */
typedef struct pvariant {
  int threads;
  size_t block;
  size_t fail_at;
  int stop_after;
} pvariant;

static int count_polls(void *user) {
  int *k = user; /* k[0] polls so far, k[1] stop on this one (0: never) */
  k[0]++;
  return k[1] && k[0] >= k[1];
}

static void parse_variant(const char *dir, const char *path, exo_parse_options o,
                          const pvariant *v, result *r) {
  o.threads = v->threads;
  o.block_bytes = v->block;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  int polls[2] = {0, v->stop_after};
  ctx.cb.user = polls;
  ctx.cb.interrupted = count_polls;
  memset(r, 0, sizeof *r);
  char *np = tu_path(dir, "names.txt");
  exo_names *t = NULL;
  ck_assert_int_eq(exo_names_create(&t, np, &ctx), EXO_OK);
  r->c.fail_at = v->fail_at;
  r->c.fail_code = EXO_ENOSPC;
  r->st = exo_parse_file(path, &o, t, collect, &r->c, &ctx, &r->stats);
  snprintf(r->msg, sizeof r->msg, "%s", ctx.err.msg);
  exo_ctx fctx;
  exo_ctx_init(&fctx);
  ck_assert_int_eq(exo_names_finish(t, &fctx), EXO_OK);
  exo_names_free(t);
  read_names(np, &r->names);
  r->text = NULL;
  free(np);
}

static void assert_same(const result *a, const result *b, const char *what) {
  if (a->st != b->st || strcmp(a->msg, b->msg) != 0)
    ck_abort_msg("%s: status %d '%s', sequential %d '%s'", what, b->st, b->msg, a->st, a->msg);
  if (a->c.n != b->c.n) ck_abort_msg("%s: %zu edges, sequential %zu", what, b->c.n, a->c.n);
  for (size_t i = 0; i < a->c.n; i++)
    if (a->c.e[i].a != b->c.e[i].a || a->c.e[i].b != b->c.e[i].b ||
        fbits(a->c.e[i].w) != fbits(b->c.e[i].w))
      ck_abort_msg("%s: edge %zu differs", what, i);
  if (a->names.n != b->names.n) ck_abort_msg("%s: %zu names, sequential %zu", what, b->names.n, a->names.n);
  for (size_t i = 0; i < a->names.n; i++)
    if (a->names.len[i] != b->names.len[i] ||
        memcmp(a->names.name[i], b->names.name[i], a->names.len[i]) != 0)
      ck_abort_msg("%s: name %zu differs", what, i);
  if (a->stats.lines != b->stats.lines || a->stats.edges != b->stats.edges)
    ck_abort_msg("%s: lines %llu edges %llu, sequential lines %llu edges %llu", what,
                 (unsigned long long)b->stats.lines, (unsigned long long)b->stats.edges,
                 (unsigned long long)a->stats.lines, (unsigned long long)a->stats.edges);
  if (a->st == EXO_OK) ck_assert_uint_eq(a->stats.bytes, b->stats.bytes);
}

/* Write text to dir/p.tsv (gz: gzipped to dir/p.gz, read as a stream) and
 * check that every variant gives the sequential result of that file.
 * Returns the sequential result's status. */
static exo_status check_variants_in(const char *dir, const char *text, size_t len,
                                    exo_parse_options o, const pvariant *vs, size_t nv,
                                    const char *label, int gz) {
  char *path = tu_path(dir, gz ? "p.gz" : "p.tsv");
  ck_assert_int_eq(gz ? tu_write_gzip(path, text, len) : tu_write_file(path, text, len), 0);
  result ref;
  pvariant seq = {1, 0, 0, 0};
  for (size_t i = 0; i < nv; i++) {
    if (i == 0 || vs[i].fail_at != seq.fail_at || vs[i].stop_after != seq.stop_after) {
      if (i > 0) free_result(&ref);
      seq.fail_at = vs[i].fail_at;
      seq.stop_after = vs[i].stop_after;
      parse_variant(dir, path, o, &seq, &ref);
    }
    result r;
    parse_variant(dir, path, o, &vs[i], &r);
    char what[256];
    snprintf(what, sizeof what, "%s%s, threads %d, block %zu, fail_at %zu, stop_after %d", label,
             gz ? " (gzip stream)" : "", vs[i].threads, vs[i].block, vs[i].fail_at,
             vs[i].stop_after);
    assert_same(&ref, &r, what);
    free_result(&r);
  }
  exo_status st = ref.st;
  free_result(&ref);
  free(path);
  return st;
}

/* check_variants_in for the text gzipped (the workers take turns at the
 * stream) and then as a plain file (positioned reads; dir/p.tsv stays):
 * both must match their sequential results, with the same status. */
static exo_status check_variants(const char *dir, const char *text, size_t len,
                                 exo_parse_options o, const pvariant *vs, size_t nv,
                                 const char *label) {
  exo_status sz = check_variants_in(dir, text, len, o, vs, nv, label, 1);
  exo_status sp = check_variants_in(dir, text, len, o, vs, nv, label, 0);
  ck_assert_int_eq(sz, sp);
  return sp;
}

/* Random files (odd names, CRLF, blank lines, no final LF) after a BOM and
 * header lines, 1..8 threads, blocks from 1 byte to the default: the same
 * ids, edges, names and counts as one thread, and the expected edges. */
START_TEST(parallel_random_files) {
  char *dir = fast_tmpdir();
  static const struct {
    size_t size, block;
  } shapes[] = {{3000, 1}, {20000, 7}, {60000, 61}, {60000, 997}, {400000, 4096},
                /* sanitized builds: still 8 and 3 blocks */
                {TU_SAN(1500000, 520000), 65536}, {TU_SAN(3500000, 2500000), 0}};
  for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
    size_t len, n;
    edge *want;
    uint64_t nnames;
    char *body = random_edge_list(1000 + k, shapes[k].size, &len, &want, &n, &nnames);
    int hdr = (int)(k % 3); /* 0, 1 or 2 header lines */
    const char *head = k % 2 ? "\xef\xbb\xbf" "from\tto\r\nsecond header\n" : "from\tto\tw\nx\n";
    size_t hl = 0;
    if (hdr == 1) hl = strchr(head, '\n') - head + 1;
    if (hdr == 2) hl = strlen(head);
    char *text = malloc(hl + len);
    memcpy(text, head, hl);
    memcpy(text + hl, body, len);
    exo_parse_options o = opts('\t', (uint64_t)hdr, 0);
    for (int th = 2; th <= 8; th += (shapes[k].size > 100000 || k == 0 ? 3 : 1)) {
      pvariant v = {th, shapes[k].block, 0, 0};
      char label[64];
      snprintf(label, sizeof label, "shape %zu", k);
      ck_assert_int_eq(check_variants(dir, text, hl + len, o, &v, 1, label), EXO_OK);
    }
    /* and the expected edges, with 3 threads */
    char *path = tu_path(dir, "p.tsv");
    result r;
    pvariant v3 = {3, shapes[k].block, 0, 0};
    parse_variant(dir, path, o, &v3, &r);
    if (r.st != EXO_OK) ck_abort_msg("%s", r.msg);
    check_edges(&r.c, want, n);
    ck_assert_uint_eq(r.names.n, nnames);
    ck_assert_uint_eq(r.stats.bytes, hl + len);
    free_result(&r);
    free(path);
    free(text);
    free(body);
    free(want);
  }
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* A small file cut at every possible offset: block sizes 1..len+1 put a
 * boundary at every byte, so on both bytes of CRLF pairs, inside long names,
 * right after the BOM and the header, in blank lines and before the last
 * line without LF. Also with a bad line near the end. */
START_TEST(parallel_every_boundary) {
  char *dir = fast_tmpdir();
  char longname[300];
  memset(longname, 'n', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  strbuf s = {0};
  sb_printf(&s, "\xef\xbb\xbfhead one\r\nhead\ttwo\n");
  sb_printf(&s, "a\tb\t1\r\n\r\n\nb\tc\t2.5\r\n");
  sb_add(&s, longname, strlen(longname));
  sb_printf(&s, "\ta\t3\r\nc\t");
  sb_add(&s, longname, strlen(longname));
  sb_printf(&s, "\nd d\te,e\t -4 \n\r\nx\ty");
  static const char *tails[] = {"", "\n", "\r\n", "\r", "\nbad line\n", "\nq\tr\tnan\r\nz\tz\n",
                                "\nq\tr\ts\tt\n", "\nq\t\n", "\nq\rr\ts\n"};
  for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
    strbuf u = {0};
    sb_add(&u, s.p, s.len);
    sb_add(&u, tails[t], strlen(tails[t]));
    exo_parse_options o = opts('\t', 2, 0);
    size_t nv = 0;
    pvariant *vs = malloc((u.len + 2) * 3 * sizeof *vs);
    /* every block size, with 2, 3 or 4 threads in turn; 8 threads for small
     * blocks. Sanitized builds: every size up to 64, then every 13th (the
     * blocks' ends still fall on every kind of byte; every 39th under
     * ThreadSanitizer) */
    for (size_t b = 1; b <= u.len + 1; b += b < 64 ? 1 : TU_SAN(1, TU_TSAN(13, 39)))
      vs[nv++] = (pvariant){2 + (int)(b % 3), b, 0, 0};
    for (size_t b = 1; b <= 20; b++) vs[nv++] = (pvariant){8, b, 0, 0};
    char label[64];
    snprintf(label, sizeof label, "tail %zu", t);
    exo_status st = check_variants(dir, u.p, u.len, o, vs, nv, label);
    ck_assert_int_eq(st, t < 4 ? EXO_OK : EXO_EINPUT);
    free(vs);
    free(u.p);
  }
  free(s.p);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* One or two bad lines at random places in a random file; blocks small
 * enough that the error lines fall near boundaries and in different
 * workers' blocks: the first error of the file, with its message and line,
 * as with one thread; the edges before it delivered, none after. */
START_TEST(parallel_first_error_wins) {
  char *dir = fast_tmpdir();
  static const char *bad[] = {"lonely", "a\tb\tc\td", "a\tb\tNaN", "a\t\t1", "\tb",
                              "a\rb\tc", "a\tb\t1e39", "a\tb\tx1"};
  exo_rng r;
  exo_rng_seed(&r, 4242);
  for (int round = 0; round < 40; round++) {
    size_t len, n;
    edge *want;
    uint64_t nnames;
    char *body = random_edge_list(500 + (uint64_t)round, 30000, &len, &want, &n, &nnames);
    strbuf u = {0};
    /* insert bad lines after random LFs */
    int nbad = 1 + (int)exo_rng_below(&r, 2);
    size_t at[2];
    for (int k = 0; k < nbad; k++) {
      size_t p = (size_t)exo_rng_below(&r, len);
      const char *nl = memchr(body + p, '\n', len - p);
      at[k] = nl ? (size_t)(nl - body) + 1 : len;
    }
    if (nbad == 2 && at[1] < at[0]) {
      size_t x = at[0];
      at[0] = at[1];
      at[1] = x;
    }
    size_t from = 0;
    for (int k = 0; k < nbad; k++) {
      sb_add(&u, body + from, at[k] - from);
      if (at[k] == len) sb_add(&u, "\n", 1);
      const char *b = bad[exo_rng_below(&r, sizeof bad / sizeof *bad)];
      sb_add(&u, b, strlen(b));
      if (at[k] < len) sb_add(&u, "\n", 1);
      from = at[k];
    }
    sb_add(&u, body + from, len - from);
    if (u.len == 0 || u.p[u.len - 1] != '\n') sb_add(&u, "\n", 1);
    pvariant vs[4];
    for (int k = 0; k < 4; k++)
      vs[k] = (pvariant){2 + (int)exo_rng_below(&r, 7), 1 + (size_t)exo_rng_below(&r, 600), 0, 0};
    char label[64];
    snprintf(label, sizeof label, "round %d", round);
    ck_assert_int_eq(check_variants(dir, u.p, u.len, opts('\t', 0, 0), vs, 4, label), EXO_EINPUT);
    free(u.p);
    free(body);
    free(want);
  }
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Files shorter than the thread count, empty files, only a BOM, only header
 * lines, a single line without LF. */
START_TEST(parallel_tiny_files) {
  char *dir = fast_tmpdir();
  static const struct {
    const char *text;
    uint64_t header;
  } files[] = {{"", 0},           {"", 2},        {"\xef\xbb\xbf", 0},     {"\xef\xbb", 0},
               {"a\tb", 0},       {"a\tb\n", 0},  {"a\tb\n", 1},           {"h\n", 3},
               {"h\na\tb", 1},    {"\n\n\n", 0},  {"\xef\xbb\xbf\r\na\tb\r", 1},
               {"x", 0},          {"a\tb\nc", 0}, {"\xef\xbb\xbf" "a\tb\tz\n", 0}};
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    pvariant vs[] = {{8, 0, 0, 0}, {8, 1, 0, 0}, {3, 2, 0, 0}, {64, 1, 0, 0}, {2, 5, 0, 0}};
    char label[32];
    snprintf(label, sizeof label, "file %zu", f);
    check_variants(dir, files[f].text, strlen(files[f].text), opts('\t', files[f].header, 0),
                   vs, sizeof vs / sizeof *vs, label);
  }
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* The edge callback failing, and the host interrupting, at various points:
 * the same status, message, edges and names as one thread. */
START_TEST(parallel_callback_failure_and_interrupt) {
  char *dir = fast_tmpdir();
  size_t len, n;
  edge *want;
  uint64_t nnames;
  char *text = random_edge_list(99, (size_t)2 << 20, &len, &want, &n, &nnames);
  const size_t fails[] = {1, 2, 777, n / 2, n};
  for (size_t k = 0; k < sizeof fails / sizeof *fails; k++) {
    pvariant vs[] = {{2, 0, fails[k], 0}, {4, 4099, fails[k], 0}};
    ck_assert_int_eq(check_variants(dir, text, len, opts('\t', 0, 0), vs, 2, "fail"), EXO_ENOSPC);
  }
  /* interrupts: the sequential run polls at other points, so compare with
   * the expected edges: a prefix of them, EXO_EINTR, no leak (--asan) */
  char *path = tu_path(dir, "p.tsv");
  ck_assert_int_eq(tu_write_file(path, text, len), 0);
  char *gzp = tu_path(dir, "p.gz");
  ck_assert_int_eq(tu_write_gzip(gzp, text, len), 0);
  const int stops[] = {1, 2, 3, 7, 20};
  for (size_t k = 0; k < 2 * sizeof stops / sizeof *stops; k++) {
    size_t ks = k % (sizeof stops / sizeof *stops);
    for (int th = 2; th <= 5; th += 3) {
      pvariant v = {th, (size_t)(ks % 2 ? 65536 : 0), 0, stops[ks]};
      result r;
      parse_variant(dir, k < sizeof stops / sizeof *stops ? path : gzp, opts('\t', 0, 0), &v, &r);
      ck_assert_int_eq(r.st, EXO_EINTR);
      ck_assert_str_eq(r.msg, "interrupted by the user");
      ck_assert_uint_lt(r.c.n, n);
      for (size_t i = 0; i < r.c.n; i++) {
        ck_assert_uint_eq(r.c.e[i].a, want[i].a);
        ck_assert_uint_eq(r.c.e[i].b, want[i].b);
      }
      free_result(&r);
    }
  }
  /* progress from the calling thread: monotonic, from 0 to the file size */
  hostlog h = {0};
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ctx.cb.user = &h;
  ctx.cb.interrupted = host_interrupted;
  ctx.cb.progress = host_progress;
  exo_parse_options o = opts('\t', 0, 0);
  o.threads = 2;
  result r;
  const char *paths[1] = {path};
  parse_paths(dir, paths, 1, &o, &ctx, &r);
  ck_assert_int_eq(r.st, EXO_OK);
  check_edges(&r.c, want, n);
  ck_assert_int_ge(h.polls, (int)(len / (72 << 10)));
  ck_assert_uint_eq(h.first_done, 0);
  ck_assert(h.monotonic);
  ck_assert_uint_eq(h.total, len);
  ck_assert_uint_eq(h.last_done, len);
  free_result(&r);
  /* the gzip stream: from 0 to its compressed size, monotonic */
  memset(&h, 0, sizeof h);
  paths[0] = gzp;
  parse_paths(dir, paths, 1, &o, &ctx, &r);
  ck_assert_int_eq(r.st, EXO_OK);
  check_edges(&r.c, want, n);
  ck_assert_uint_eq(r.stats.bytes, len);
  uint64_t gzsize = 0;
  ck_assert_int_eq(exo_file_size(gzp, &gzsize, &ctx), EXO_OK);
  ck_assert_int_ge(h.polls, (int)(len / (72 << 10)));
  ck_assert_uint_eq(h.first_done, 0);
  ck_assert(h.monotonic);
  ck_assert_uint_eq(h.total, gzsize);
  ck_assert_uint_eq(h.last_done, gzsize);
  free_result(&r);
  free(gzp);
  free(path);
  free(text);
  free(want);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Lines longer than a block (names of 1 and 3 MiB over 1 MiB blocks, so
 * whole blocks hold no line start), and the line length limit, in parallel. */
START_TEST(parallel_long_lines) {
  char *dir = tu_mkdtemp();
  strbuf s = {0};
  size_t sizes[] = {(size_t)1 << 20, (size_t)3 << 20, 17, (size_t)5 << 19};
  for (int i = 0; i < 4; i++) {
    char *nm = malloc(sizes[i]);
    for (size_t k = 0; k < sizes[i]; k++) nm[k] = (char)('a' + (k * 5 + (size_t)i) % 26);
    sb_printf(&s, "s%d\t", i);
    sb_add(&s, nm, sizes[i]);
    sb_printf(&s, "\t%d\r\nx\ty\n", i + 1);
    free(nm);
  }
  pvariant vs[] = {{2, 0, 0, 0}, {3, 0, 0, 0}, {2, 1 << 16, 0, 0}};
  ck_assert_int_eq(check_variants(dir, s.p, s.len, opts('\t', 0, 0), vs, 3, "long"), EXO_OK);
  free(s.p);

  /* one line of EXO_PARSE_MAX_LINE + 1 bytes after a few good ones */
  size_t max = EXO_PARSE_MAX_LINE;
  size_t total = 8 + max + 1 + 1 + 4;
  char *text = malloc(total);
  memcpy(text, "a\tb\nb\tc\n", 8);
  memset(text + 8, 'x', max + 1);
  text[8 + 10] = '\t';
  text[9 + max] = '\n';
  memcpy(text + 10 + max, "c\td\n", 4);
  pvariant v2[] = {{2, 0, 0, 0}};
  ck_assert_int_eq(check_variants(dir, text, total, opts('\t', 0, 0), v2, 1, "limit"), EXO_EINPUT);
  free(text);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* A gzip stream cut short, with threads: the sequential run's status and
 * message; the edges delivered before it are a prefix of the file's, not
 * all of it. (How many differs: a parallel run drops the failing block's
 * lines, the sequential one the lines of its failing read.) */
START_TEST(parallel_truncated_gzip_stream) {
  char *dir = tu_mkdtemp();
  size_t len, n;
  edge *want;
  uint64_t nnames;
  char *text = random_edge_list(31, (size_t)3 << 20, &len, &want, &n, &nnames);
  char *gz = tu_path(dir, "t.gz");
  ck_assert_int_eq(tu_write_gzip(gz, text, len), 0);
  uint64_t gzsize = 0;
  exo_ctx sctx;
  exo_ctx_init(&sctx);
  ck_assert_int_eq(exo_file_size(gz, &gzsize, &sctx), EXO_OK);
  size_t glen;
  char *g = tu_read_file(gz, &glen);
  ck_assert_uint_eq(glen, gzsize);
  ck_assert_int_eq(tu_write_file(gz, g, glen * 2 / 3), 0);
  free(g);
  result ref;
  pvariant seq = {1, 0, 0, 0};
  parse_variant(dir, gz, opts('\t', 0, 0), &seq, &ref);
  ck_assert_int_eq(ref.st, EXO_EINPUT);
  ck_assert_ptr_nonnull(strstr(ref.msg, "truncated"));
  const pvariant vs[] = {{2, 0, 0, 0}, {3, 4099, 0, 0}, {8, 100000, 0, 0}};
  for (size_t k = 0; k < sizeof vs / sizeof *vs; k++) {
    result r;
    parse_variant(dir, gz, opts('\t', 0, 0), &vs[k], &r);
    ck_assert_int_eq(r.st, ref.st);
    ck_assert_str_eq(r.msg, ref.msg);
    /* small blocks: many were complete before the cut */
    if (vs[k].block && r.c.n == 0) ck_abort_msg("variant %zu: no edges (sequential %zu)", k, ref.c.n);
    ck_assert_uint_lt(r.c.n, n);
    for (size_t i = 0; i < r.c.n; i++) {
      ck_assert_uint_eq(r.c.e[i].a, want[i].a);
      ck_assert_uint_eq(r.c.e[i].b, want[i].b);
    }
    free_result(&r);
  }
  free_result(&ref);
  free(gz);
  free(text);
  free(want);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* gzip and FIFO input with threads > 1: the workers take turns at the
 * stream (tiny blocks, so most lines cross a block boundary). */
START_TEST(parallel_streams) {
  char *dir = tu_mkdtemp();
  size_t len, n;
  edge *want;
  uint64_t nnames;
  char *text = random_edge_list(7, (size_t)1 << 20, &len, &want, &n, &nnames);
  char *gz = tu_path(dir, "r.gz");
  ck_assert_int_eq(tu_write_gzip(gz, text, len), 0);
  char *fifo = tu_path(dir, "r.fifo");
#ifdef _WIN32 /* no FIFOs, no fork(): the gzip half only */
  for (int g = 0; g < 1; g++) {
#else
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  for (int g = 0; g < 2; g++) {
    pid_t pid = g ? feed_fifo(fifo, text, len, 3) : 0;
#endif
    exo_parse_options o = opts('\t', 0, 0);
    o.threads = 4;
    o.block_bytes = 100;
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    result r;
    const char *paths[1] = {g ? fifo : gz};
    parse_paths(dir, paths, 1, &o, &ctx, &r);
#ifndef _WIN32
    if (g) {
      int status = -1;
      ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    }
#endif
    if (r.st != EXO_OK) ck_abort_msg("%s", r.msg);
    check_edges(&r.c, want, n);
    ck_assert_uint_eq(r.names.n, nnames);
    free_result(&r);
  }
  free(gz);
  free(fifo);
  free(text);
  free(want);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* ---- columns and weight transforms ---------------------------------------------- */

typedef struct ccase {
  const char *label;
  const char *text;
  uint32_t ca, cb, cw;
  exo_weight_transform tf;
  const char *want;     /* edges as "A B W\n" (%g); NULL for an error */
  uint64_t err_line;
  const char *err_text;
} ccase;

#define D12(q, s, ev, bits) q "\t" s "\t45.2\t120\t30\t2\t1\t120\t5\t125\t" ev "\t" bits "\n"

static const ccase ccases[] = {
    {"DIAMOND lines, e-value column 11",
     D12("q1", "s1", "1e-30", "250") D12("q1", "s2", "2.5e-10", "60.1")
     D12("s2", "q1", "0", "900") D12("q2", "q2", "0.0", "1000"),
     1, 2, 11, EXO_WT_NEGLOG10,
     "q1 s1 30\nq1 s2 9.60206\ns2 q1 200\nq2 q2 200\n", 0, NULL},
    {"bitscore column 12, no transform", D12("q1", "s1", "1e-30", "250.5"), 1, 2, 12,
     EXO_WT_NONE, "q1 s1 250.5\n", 0, NULL},
    {"cap and large e-values",
     "a\tb\t1e-250\na\tc\t1e-199\na\td\t1e-400\na\te\t1\na\tf\t10\na\tg\t0x1p-10\n"
     "a\th\t-0\na\ti\t 3e-5 \na\tj\t1e+3\na\tk\t123456789012345678901e-30\n",
     1, 2, 3, EXO_WT_NEGLOG10,
     "a b 200\na c 199\na d 200\na e 0\na f -1\na g 3.0103\na h 200\na i 4.52288\n"
     "a j -3\na k 9.90849\n", 0, NULL},
    {"2-field line keeps weight 1 under the transform", "a\tb\nc\td\t1e-5\n", 1, 2, 3,
     EXO_WT_NEGLOG10, "a b 1\nc d 5\n", 0, NULL},
    {"node columns swapped", "a\tb\t5\tz\n", 2, 1, 3, EXO_WT_NONE, "b a 5\n", 0, NULL},
    {"no weight column", "a\tb\tjunk\nc\td\n", 1, 2, 0, EXO_WT_NONE, "a b 1\nc d 1\n", 0,
     NULL},
    {"nodes in 3 and 1, weight 2", "a\t7\tb\tzz\n", 3, 1, 2, EXO_WT_NONE, "b a 7\n", 0, NULL},
    {"columns beyond the weight are not read", "a\tb\t2\t\x01\xff\tnot a number\n", 1, 2, 3,
     EXO_WT_NONE, "a b 2\n", 0, NULL},
    /* errors */
    {"too few fields for column 11", D12("q1", "s1", "1e-3", "9") "q2\ts2\t1e-5\n", 1, 2, 11,
     EXO_WT_NEGLOG10, NULL, 2,
     "expected at least 11 fields separated by tab (nodes in columns 1 and 2, weight in 11), "
     "found 3"},
    {"too few fields, no weight column", "a\tb\tc\n", 4, 1, 0, EXO_WT_NONE, NULL, 1,
     "expected at least 4 fields separated by tab (nodes in columns 4 and 1), found 3"},
    {"2 fields with columns 1, 2, 11", "a\tb\n", 1, 2, 11, EXO_WT_NEGLOG10, NULL, 1,
     "expected at least 11 fields separated by tab (nodes in columns 1 and 2, weight in 11), "
     "found 2"},
    {"e-value not a number", D12("q1", "s1", "1e-3", "9") D12("q1", "s2", "e-5", "9"), 1, 2,
     11, EXO_WT_NEGLOG10, NULL, 2, "e-value 'e-5' (column 11) is not a number"},
    {"e-value empty", D12("q1", "s1", "", "9"), 1, 2, 11, EXO_WT_NEGLOG10, NULL, 1,
     "e-value '' (column 11) is not a number"},
    {"e-value negative", "a\tb\t-1e-5\n", 1, 2, 3, EXO_WT_NEGLOG10, NULL, 1,
     "e-value '-1e-5' is negative"},
    {"e-value negative beyond float", "a\tb\t-1e40\n", 1, 2, 3, EXO_WT_NEGLOG10, NULL, 1,
     "e-value '-1e40' is negative"},
    {"e-value nan", "a\tb\tnan\n", 1, 2, 3, EXO_WT_NEGLOG10, NULL, 1,
     "e-value 'nan' is not finite (NaN or infinite)"},
    {"e-value inf", "a\tb\tInf\n", 1, 2, 3, EXO_WT_NEGLOG10, NULL, 1,
     "e-value 'Inf' is not finite (NaN or infinite)"},
    {"bitscore not a number", D12("q1", "s1", "1e-3", "x9"), 1, 2, 12, EXO_WT_NONE, NULL, 1,
     "weight 'x9' (column 12) is not a number"},
    {"empty name in a chosen column", "a\t\tb\t1\n", 1, 2, 4, EXO_WT_NONE, NULL, 1,
     "empty name in field 2"},
    {"empty name in column 3", "a\tb\t\t1\n", 3, 1, 4, EXO_WT_NONE, NULL, 1,
     "empty name in field 3"},
};

/* Tab-separated columns ca, cb, cw with transform tf on `threads`
 * threads, blocks of 16 bytes (a boundary at every offset). */
static exo_parse_options col_opts(uint32_t ca, uint32_t cb, uint32_t cw,
                                  exo_weight_transform tf, int threads) {
  exo_parse_options o = opts('\t', 0, 0);
  o.col_a = ca;
  o.col_b = cb;
  o.col_w = cw;
  o.transform = tf;
  o.threads = threads;
  o.block_bytes = 16;
  return o;
}

/* Parse the one file `path` of dir with o, in a fresh context. */
static void parse_one(const char *dir, const char *path, const exo_parse_options *o,
                      result *r) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  const char *paths[1] = {path};
  parse_paths(dir, paths, 1, o, &ctx, r);
}

START_TEST(column_table) {
  const ccase *c = &ccases[_i];
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "hits.tsv");
  ck_assert_int_eq(tu_write_file(path, c->text, strlen(c->text)), 0);
  for (int th = 1; th <= 3; th += 2) { /* sequential and parallel */
    exo_parse_options o = col_opts(c->ca, c->cb, c->cw, c->tf, th);
    result r;
    parse_one(dir, path, &o, &r);
    if (c->want) {
      if (r.st != EXO_OK) ck_abort_msg("case '%s': status %d: %s", c->label, r.st, r.msg);
      if (strcmp(r.text, c->want) != 0)
        ck_abort_msg("case '%s' (threads %d): got\n%s\nwant\n%s", c->label, th, r.text,
                     c->want);
    } else {
      char want[2048];
      snprintf(want, sizeof want, "%s:%llu: %s", path, (unsigned long long)c->err_line,
               c->err_text);
      if (r.st != EXO_EINPUT)
        ck_abort_msg("case '%s': status %d, want EXO_EINPUT", c->label, r.st);
      if (strcmp(r.msg, want) != 0)
        ck_abort_msg("case '%s': message\n%s\nwant\n%s", c->label, r.msg, want);
    }
    free_result(&r);
    unlink(path);
    ck_assert_int_eq(tu_write_file(path, c->text, strlen(c->text)), 0);
  }
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* BLAST+ -outfmt 7: the tabular columns with comment lines. With comment
 * '#' every line whose first byte is '#' is skipped whatever it holds (one
 * field, a CR inside, the last line without a newline), on one thread and
 * on three with blocks of 16 bytes (a block boundary at every offset);
 * a '#' elsewhere is data. Without it the first comment line is an error
 * that names the blast format. */
START_TEST(comment_lines) {
  static const char text[] =
      "# BLASTP 2.12.0+\n"
      "# Query: q1\n"
      "# Fields: query acc.ver, subject acc.ver, % identity, alignment length, mismatches, "
      "gap opens, q. start, q. end, s. start, s. end, evalue, bit score\n"
      "# 2 hits found\n" D12("q1", "s#1", "1e-30", "250") D12("q1", "q1", "1e-50", "300")
      "#\tx\r y\n"
      "\n" D12("q2", "#s2", "2.5e-10", "60.1") "# BLAST processed 2 queries";
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "hits.m8");
  ck_assert_int_eq(tu_write_file(path, text, strlen(text)), 0);
  for (int th = 1; th <= 3; th += 2) {
    exo_parse_options o = col_opts(1, 2, 12, EXO_WT_NONE, th);
    o.comment = '#';
    result r;
    parse_one(dir, path, &o, &r);
    if (r.st != EXO_OK) ck_abort_msg("threads %d: status %d: %s", th, r.st, r.msg);
    ck_assert_str_eq(r.text, "q1 s#1 250\nq1 q1 300\nq2 #s2 60.1\n");
    free_result(&r);
    o.comment = 0; /* the edges format's reading */
    parse_one(dir, path, &o, &r);
    ck_assert_int_eq(r.st, EXO_EINPUT);
    char want[512];
    snprintf(want, sizeof want,
             "%s:1: expected at least 12 fields separated by tab (nodes in columns 1 and 2, "
             "weight in 12), found 1 (the line starts with '#': the blast format skips such "
             "comment lines, the edges format reads them as edges; the header option skips "
             "the first lines of each file)",
             path);
    ck_assert_str_eq(r.msg, want);
    free_result(&r);
  }
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(column_options_checked) {
  static const struct {
    uint32_t ca, cb, cw;
    int tf;
    const char *msg;
  } bad[] = {
      {0, 2, 3, 0, "column numbers must be between 1 and 1000000 (got 0, 2, 3)"},
      {1, 0, 0, 0, "column numbers must be between 1 and 1000000 (got 1, 0, 0)"},
      {1, 2, 1000001, 0, "column numbers must be between 1 and 1000000 (got 1, 2, 1000001)"},
      {2, 2, 3, 0, "the two node columns must differ (both are 2)"},
      {1, 3, 3, 1, "the weight column 3 is also a node column"},
      {1, 2, 3, 7, "unknown weight transform 7"},
  };
  char *dir = tu_mkdtemp();
  char *path = tu_write_text(dir, "e.tsv", "a\tb\t1\n");
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    exo_parse_options o = opts('\t', 0, 0);
    o.col_a = bad[i].ca;
    o.col_b = bad[i].cb;
    o.col_w = bad[i].cw;
    o.transform = (exo_weight_transform)bad[i].tf;
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    ck_assert_int_eq(exo_parse_check_options(&o, &ctx), EXO_EARG);
    ck_assert_str_eq(ctx.err.msg, bad[i].msg);
    result r;
    const char *paths[1] = {path};
    exo_ctx_init(&ctx);
    parse_paths(dir, paths, 1, &o, &ctx, &r);
    ck_assert_int_eq(r.st, EXO_EARG);
    ck_assert_uint_eq(r.c.n, 0);
    free_result(&r);
  }
  /* ignore_weights drops the weight column, so a weight column equal to a
   * node column no longer matters */
  exo_parse_options o = opts('\t', 0, 1);
  o.col_a = 1;
  o.col_b = 3;
  o.col_w = 3;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_parse_check_options(&o, &ctx), EXO_OK);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* The e-value weight against an independent computation: strtod, then
 * -log10 in double, capped at 200, rounded to float; for random mantissas,
 * exponents from -420 to +40 and several spellings. */
START_TEST(evalues_match_strtod_log10) {
  exo_rng rng;
  exo_rng_seed(&rng, 77);
  char buf[96];
  for (int i = 0; i < 200000; i++) {
    uint64_t m = exo_rng_below(&rng, 1000000) + (i % 7 == 0 ? 0 : 1);
    int e = (int)exo_rng_below(&rng, 461) - 420;
    switch (i % 4) {
    case 0: snprintf(buf, sizeof buf, "%llue%d", (unsigned long long)m, e); break;
    case 1: snprintf(buf, sizeof buf, "%llu.%03uE%+d", (unsigned long long)m,
                     (unsigned)(i % 1000), e); break;
    case 2: snprintf(buf, sizeof buf, "%.3g", (double)m * pow(10.0, e > 300 ? 0 : e)); break;
    default: snprintf(buf, sizeof buf, "%llu", (unsigned long long)m); break;
    }
    /* the reference: exact digits through long double log10 of the parts */
    char *ep;
    long double mant = strtold(buf, &ep);
    (void)mant;
    /* split digits and exponent by hand to avoid strtod underflow */
    const char *x = strpbrk(buf, "eE");
    long ex = x ? strtol(x + 1, NULL, 10) : 0;
    char digits[64];
    size_t nd = x ? (size_t)(x - buf) : strlen(buf);
    memcpy(digits, buf, nd);
    digits[nd] = '\0';
    double dm = strtod(digits, NULL);
    double want;
    if (dm == 0)
      want = 200;
    else {
      want = -(log10(dm) + (double)ex) + 0.0;
      if (want > 200) want = 200;
    }
    float got = -1;
    ck_assert_int_eq(exo_parse_evalue(buf, strlen(buf), &got), 0);
    float wf = (float)want;
    /* the fast path folds the decimal point into the exponent; allow one
     * float ulp for that different rounding of the double */
    if (got != wf && fabsf(got - wf) > 2e-6f * fabsf(wf) + 1e-6f)
      ck_abort_msg("'%s': got %.9g want %.9g", buf, (double)got, (double)wf);
  }
  float w;
  ck_assert_int_eq(exo_evalue_weight(0.0, &w), 0);
  ck_assert(w == 200.0f);
  ck_assert_int_eq(exo_evalue_weight(1e-300, &w), 0);
  ck_assert(w == 200.0f);
  ck_assert_int_eq(exo_evalue_weight(1.0, &w), 0);
  ck_assert(w == 0.0f && !signbit(w));
  ck_assert_int_eq(exo_evalue_weight(1e-7, &w), 0);
  ck_assert(w == 7.0f);
  ck_assert_int_eq(exo_evalue_weight(-1e-7, &w), -4);
  ck_assert_int_eq(exo_evalue_weight(NAN, &w), -2);
  ck_assert_int_eq(exo_evalue_weight(INFINITY, &w), -2);
  ck_assert_int_eq(exo_parse_evalue("1", 1, &w), 0);
  ck_assert(w == 0.0f && !signbit(w));
}
END_TEST

/* A random DIAMOND-like 12-column file parsed with columns 1, 2, 11 and the
 * transform, sequentially and with 1 to 4 threads on small blocks: the
 * same edges as computed here from the generated values. */
START_TEST(diamond_like_file_parallel) {
  char *dir = fast_tmpdir();
  exo_rng rng;
  exo_rng_seed(&rng, 4242);
  const size_t n = 30000;
  strbuf s = {0};
  float *want = malloc(n * sizeof *want);
  uint32_t *qa = malloc(n * sizeof *qa), *sa = malloc(n * sizeof *sa);
  for (size_t i = 0; i < n; i++) {
    qa[i] = (uint32_t)exo_rng_below(&rng, 3000);
    sa[i] = (uint32_t)exo_rng_below(&rng, 3000);
    unsigned m = (unsigned)exo_rng_below(&rng, 99) + 1;
    int e = -(int)exo_rng_below(&rng, 260);
    if (i % 50 == 0) {
      sb_printf(&s, "p%u\tp%u\t100.0\t300\t0\t0\t1\t300\t1\t300\t0\t%u.5\n", qa[i], sa[i], m);
      want[i] = 200.0f;
    } else {
      sb_printf(&s, "p%u\tp%u\t%u.%u\t%u\t%u\t%u\t1\t%u\t2\t%u\t%u.%ue%d\t%u.%u\r\n", qa[i],
                sa[i], m, m % 10, 50 + m, m / 3, m % 4, 50 + m, 51 + m, m / 10, m % 10, e,
                m * 3, m % 10);
      double ev = ((double)(m / 10) + (double)(m % 10) / 10.0);
      double x = ev == 0 ? 200 : -(log10(ev) + e) + 0.0;
      want[i] = (float)(x > 200 ? 200 : x);
    }
  }
  char *path = tu_path(dir, "hits.m8");
  ck_assert_int_eq(tu_write_file(path, s.p, s.len), 0);
  exo_parse_options o = opts('\t', 0, 0);
  o.col_a = 1;
  o.col_b = 2;
  o.col_w = 11;
  o.transform = EXO_WT_NEGLOG10;
  for (int th = 1; th <= 4; th++) {
    pvariant v = {th, th == 1 ? 0 : (size_t)(97 * th), 0, 0};
    result r;
    parse_variant(dir, path, o, &v, &r);
    if (r.st != EXO_OK) ck_abort_msg("%s", r.msg);
    ck_assert_uint_eq(r.c.n, n);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
      char na[16], nb[16];
      int la = snprintf(na, sizeof na, "p%u", qa[i]), lb = snprintf(nb, sizeof nb, "p%u", sa[i]);
      edge e = r.c.e[i];
      if ((size_t)la != r.names.len[e.a] || memcmp(na, r.names.name[e.a], (size_t)la) ||
          (size_t)lb != r.names.len[e.b] || memcmp(nb, r.names.name[e.b], (size_t)lb))
        bad++;
      else if (fabsf(e.w - want[i]) > 2e-6f * fabsf(want[i]) + 1e-6f)
        bad++;
    }
    ck_assert_msg(bad == 0, "threads %d: %zu edges differ", th, bad);
    free_result(&r);
  }
  free(s.p);
  free(want);
  free(qa);
  free(sa);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Random lines of 1 to 24 numeric fields of 1 to 19 bytes (so fields and
 * separators fall at every offset of the 8-byte words the field walk
 * reads), random column choices: the edges and errors of a naive splitter. */
START_TEST(columns_match_naive_split) {
  exo_rng rng;
  exo_rng_seed(&rng, 99);
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "cols.tsv");
  for (int round = 0; round < 60; round++) {
    uint32_t ca = 1 + (uint32_t)exo_rng_below(&rng, 14), cb, cw;
    do cb = 1 + (uint32_t)exo_rng_below(&rng, 14); while (cb == ca);
    do cw = (uint32_t)exo_rng_below(&rng, 15); while (cw == ca || cw == cb);
    uint32_t need = ca > cb ? ca : cb;
    if (cw > need) need = cw;
    strbuf text = {0}, want = {0};
    sb_add(&text, "", 0);
    sb_add(&want, "", 0);
    uint64_t bad_line = 0;
    for (int ln = 1; ln <= 300 && !bad_line; ln++) {
      uint32_t nf = (ln % 97 == 0) ? 1 + (uint32_t)exo_rng_below(&rng, need)
                                   : need + (uint32_t)exo_rng_below(&rng, 10);
      char field[24][24];
      for (uint32_t i = 0; i < nf && i < 24; i++) {
        size_t len = 1 + exo_rng_below(&rng, 19);
        for (size_t j = 0; j < len; j++) field[i][j] = (char)('0' + exo_rng_below(&rng, 10));
        if (len > 2 && exo_rng_below(&rng, 2)) field[i][len / 2] = '.';
        field[i][len] = '\0';
      }
      if (nf > 24) nf = 24;
      for (uint32_t i = 0; i < nf; i++) sb_printf(&text, "%s%s", i ? "\t" : "", field[i]);
      sb_add(&text, "\n", 1);
      int short_ok = cw == 3 && need == 3 && nf == 2;
      if (nf < need && !short_ok) {
        bad_line = (uint64_t)ln;
        break;
      }
      float w = 1.0f;
      if (cw && !short_ok) w = strtof(field[cw - 1], NULL);
      sb_printf(&want, "%s %s %g\n", field[ca - 1], field[cb - 1], (double)w);
    }
    ck_assert_int_eq(tu_write_file(path, text.p, text.len), 0);
    exo_parse_options o = opts('\t', 0, 0);
    o.col_a = ca;
    o.col_b = cb;
    o.col_w = cw;
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    result r;
    const char *paths[1] = {path};
    parse_paths(dir, paths, 1, &o, &ctx, &r);
    if (bad_line) {
      ck_assert_int_eq(r.st, EXO_EINPUT);
      char pre[64];
      snprintf(pre, sizeof pre, ":%llu: expected at least", (unsigned long long)bad_line);
      ck_assert_msg(strstr(r.msg, pre) != NULL, "round %d: %s", round, r.msg);
    } else {
      ck_assert_msg(r.st == EXO_OK, "round %d: %s", round, r.msg);
    }
    /* the edges before the bad line, or all of them */
    if (strcmp(r.text, want.p) != 0)
      ck_abort_msg("round %d (columns %u %u %u): edges differ", round, ca, cb, cw);
    free_result(&r);
    free(text.p);
    free(want.p);
  }
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* ---- byte ranges (exo_parse_range) --------------------------------------------- */

/* Parse the ranges [cut[i], cut[i+1]) of `path` in order into one table,
 * stopping at the first error; rendered as parse_paths does. */
static void parse_ranges(const char *dir, const char *path, const uint64_t *cut, int ncut,
                         const exo_parse_options *opt, exo_ctx *ctx, result *r) {
  memset(r, 0, sizeof *r);
  char *np = tu_path(dir, "names.txt");
  exo_names *t = NULL;
  ck_assert_int_eq(exo_names_create(&t, np, ctx), EXO_OK);
  r->st = EXO_OK;
  for (int i = 0; i + 1 < ncut && r->st == EXO_OK; i++)
    r->st = exo_parse_range(path, opt, cut[i], cut[i + 1], t, collect, &r->c, ctx, &r->stats);
  finish_result(t, np, ctx, r);
}

/* A file with a BOM, a 2-line header, CRLF and empty lines, a long name and
 * a last line without LF, optionally with bad lines: cut into two ranges at
 * every byte, and into three at many pairs of bytes (threads 1 and 3, tiny
 * blocks), the ranges in order give the whole-file parse's edges, names and
 * first error with its absolute line number (counted on the error path). */
/* Whether ranges_every_cut tries the cut at byte x: always when stride is 1;
 * otherwise every cut outside the name at [lo, hi), its first and last two
 * bytes, and every stride-th byte inside. */
static int cut_kept(uint64_t x, uint64_t lo, uint64_t hi, uint64_t stride) {
  return stride == 1 || x < lo + 2 || x + 2 > hi || (x - lo) % stride == 0;
}

START_TEST(ranges_every_cut) {
  char *dir = fast_tmpdir();
  char longname[200];
  memset(longname, 'n', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  static const char *tails[] = {"\nx\ty", "\nq\tr\tnan\nz\tz\n", "\nbad line\nq\tr\t1\nalso bad\n"};
  for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
    strbuf u = {0};
    sb_printf(&u, "\xef\xbb\xbfhead one\r\nhead\ttwo\n");
    sb_printf(&u, "a\tb\t1\r\n\r\n\nb\tc\t2.5\r\n");
    const uint64_t name_at = u.len;
    sb_add(&u, longname, strlen(longname));
    sb_printf(&u, "\ta\t3\r\nc\td\t4\nd\te\t5\n\ne\tf\t6\nf\ta\t7");
    sb_add(&u, tails[t], strlen(tails[t]));
    char *path = tu_path(dir, "range.tsv");
    ck_assert_int_eq(tu_write_file(path, u.p, u.len), 0);
    uint64_t size = 0;
    ck_assert_int_eq(exo_parse_splittable(path, &size), 1);
    ck_assert_uint_eq(size, u.len);
    exo_parse_options o = opts('\t', 2, 0);
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    result whole;
    const char *paths[1] = {path};
    parse_paths(dir, paths, 1, &o, &ctx, &whole);
    ck_assert_int_eq(whole.st, t == 0 ? EXO_OK : EXO_EINPUT);
    /* sanitized builds: every cut outside the long name, and inside it its
     * first and last two bytes and every 23rd (all alike to the parser) */
    const uint64_t in_name = TU_SAN(1, 23);
    for (uint64_t x = 0; x <= u.len + 1; x++) {
      if (!cut_kept(x, name_at, name_at + strlen(longname), in_name)) continue;
      /* under Wine and ThreadSanitizer: every second cut y after every 35th
       * x, not every 7th */
      const uint64_t every = TU_TSAN(TU_WINE(7, 35), 35);
      for (uint64_t y = x; y <= u.len + 1; y += (x % every == 0 ? 1 : u.len + 2)) {
        if (!cut_kept(y, name_at, name_at + strlen(longname), in_name)) continue;
        uint64_t cut[4] = {0, x, y, u.len + 5};
        o.threads = (int)(x % 2) * 2 + 1;
        o.block_bytes = 1 + (size_t)(y % 5);
        exo_ctx_init(&ctx);
        result r;
        parse_ranges(dir, path, cut, 4, &o, &ctx, &r);
        if (r.st != whole.st || strcmp(r.text, whole.text) || strcmp(r.msg, whole.msg) ||
            r.names.n != whole.names.n)
          ck_abort_msg("tail %zu, cuts %llu %llu: got %d '%s' [%s], want %d '%s' [%s]", t,
                       (unsigned long long)x, (unsigned long long)y, (int)r.st, r.msg, r.text,
                       (int)whole.st, whole.msg, whole.text);
        free_result(&r);
      }
    }
    if (t > 0) ck_assert_ptr_nonnull(strstr(whole.msg, ":13: ")); /* the first bad line */
    free_result(&whole);
    free(path);
    free(u.p);
  }
  /* gzip is not splittable: refused with EXO_EARG, and said so beforehand */
  char *gz = tu_path(dir, "range.tsv.gz");
  ck_assert_int_eq(tu_write_gzip(gz, "a\tb\t1\n", 6), 0);
  uint64_t size = 0;
  ck_assert_int_eq(exo_parse_splittable(gz, &size), 0);
  exo_parse_options o = opts('\t', 0, 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  result r;
  uint64_t cut[2] = {0, 100};
  parse_ranges(dir, gz, cut, 2, &o, &ctx, &r);
  ck_assert_int_eq(r.st, EXO_EARG);
  ck_assert_ptr_nonnull(strstr(r.msg, "byte ranges"));
  free_result(&r);
  free(gz);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* The workers look names up while the calling thread interns (exo_names
 * readers). Part 1: 40000 names whose edges keep returning to names seen
 * before, and new ones throughout (the table doubles while the workers read
 * it), in blocks of 4 KiB to 64 KiB with 2, 3 and 8 threads, plain and
 * gzipped: edges, ids, names file and counts are the sequential ones. How
 * many names the workers find there depends on timing; part 2 makes it
 * certain: a second file parsed into the same table, whose names all
 * appeared in the first, must have every name found by the workers (2 per
 * edge) with the ids of the sequential parse; alone, the calling thread
 * finds none. The CPU figures are filled in. */
static void two_files(const char *dir, const char *p1, const char *p2, int threads,
                      size_t block, collector *c, exo_parse_stats *st2) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  char *np = tu_path(dir, "names2.txt");
  exo_names *t = NULL;
  ck_assert_int_eq(exo_names_create(&t, np, &ctx), EXO_OK);
  exo_parse_options o = opts('\t', 0, 0);
  ck_assert_int_eq(exo_parse_file(p1, &o, t, collect, c, &ctx, NULL), EXO_OK);
  o.threads = threads;
  o.block_bytes = block;
  ck_assert_int_eq(exo_parse_file(p2, &o, t, collect, c, &ctx, st2), EXO_OK);
  ck_assert_int_eq(exo_names_finish(t, &ctx), EXO_OK);
  exo_names_free(t);
  free(np);
}

START_TEST(parallel_workers_resolve_names) {
  char *dir = tu_mkdtemp();
  exo_rng r;
  exo_rng_seed(&r, 27);
  size_t cap = (size_t)8 << 20, len = 0;
  char *text = malloc(cap);
  const unsigned edges = TU_SAN(120000, 30000);
  for (unsigned i = 0; i < edges; i++) {
    /* names up to i/3 + 1: new names appear until the end */
    uint64_t top = i / 3 + 2;
    uint64_t a = exo_rng_below(&r, top), b = exo_rng_below(&r, top);
    len += (size_t)snprintf(text + len, cap - len, "node-%llu\tv%llu-x\t%u.5\n",
                            (unsigned long long)(a * 2654435761u % 40009),
                            (unsigned long long)b, (unsigned)(i % 7));
  }
  exo_parse_options o = opts('\t', 0, 0);
  static const pvariant vs[] = {{2, 4096, 0, 0}, {3, 16384, 0, 0}, {8, 65536, 0, 0},
                                {2, 65536, 0, 0}};
  char *paths[2] = {NULL, NULL};
  for (int gz = 0; gz < 2; gz++) {
    char *path = paths[gz] = tu_path(dir, gz ? "w.gz" : "w.tsv");
    ck_assert_int_eq(gz ? tu_write_gzip(path, text, len) : tu_write_file(path, text, len), 0);
    result ref;
    const pvariant seq = {1, 0, 0, 0};
    parse_variant(dir, path, o, &seq, &ref);
    ck_assert_int_eq(ref.st, EXO_OK);
    ck_assert_uint_eq(ref.stats.edges, edges);
    ck_assert_uint_gt(ref.names.n, edges / 3);
    ck_assert_uint_eq(ref.stats.names_resolved, 0);
    /* the caller's CPU time counted; under Wine the thread clock ticks in
     * 15.6 ms steps, which the 30000 lines may take less than (seen once
     * in CI) */
    ck_assert(TU_WINE(ref.stats.caller_cpu_seconds > 0, ref.stats.caller_cpu_seconds >= 0));
    ck_assert(ref.stats.worker_cpu_seconds == 0);
    for (size_t i = 0; i < sizeof vs / sizeof *vs; i++) {
      result got;
      parse_variant(dir, path, o, &vs[i], &got);
      char what[128];
      snprintf(what, sizeof what, "%s, threads %d, block %zu", gz ? "gzip" : "plain",
               vs[i].threads, vs[i].block);
      assert_same(&ref, &got, what);
      ck_assert_uint_le(got.stats.names_resolved, 2 * edges);
#if !defined(_WIN32)
      /* Windows' thread clock ticks every 15.6 ms: the parser threads of
       * this small file may finish within one tick and read 0 */
      ck_assert(got.stats.worker_cpu_seconds > 0);
#endif
      free_result(&got);
    }
    free_result(&ref);
  }
  /* part 2: the same edges reversed (B A W) as a second file */
  char *rev = malloc(len + 1);
  size_t rl = 0;
  for (size_t s0 = 0; s0 < len;) {
    const char *t1 = memchr(text + s0, '\t', len - s0);
    const char *t2 = memchr(t1 + 1, '\t', (size_t)(text + len - t1 - 1));
    const char *nl = memchr(t2, '\n', (size_t)(text + len - t2));
    rl += (size_t)snprintf(rev + rl, len + 1 - rl, "%.*s\t%.*s%.*s\n", (int)(t2 - t1 - 1), t1 + 1,
                           (int)(t1 - (text + s0)), text + s0, (int)(nl - t2), t2);
    s0 = (size_t)(nl - text) + 1;
  }
  ck_assert_uint_eq(rl, len);
  for (int gz = 0; gz < 2; gz++) {
    char *p2 = tu_path(dir, gz ? "rev.gz" : "rev.tsv");
    ck_assert_int_eq(gz ? tu_write_gzip(p2, rev, rl) : tu_write_file(p2, rev, rl), 0);
    collector want = {0}, got = {0};
    exo_parse_stats sw, sg;
    two_files(dir, paths[0], p2, 1, 0, &want, &sw);
    ck_assert_uint_eq(sw.names_resolved, 0);
    for (size_t i = 0; i < sizeof vs / sizeof *vs; i++) {
      memset(&got, 0, sizeof got);
      two_files(dir, paths[gz], p2, vs[i].threads, vs[i].block, &got, &sg);
      ck_assert_uint_eq(got.n, want.n);
      for (size_t k = 0; k < want.n; k++)
        if (got.e[k].a != want.e[k].a || got.e[k].b != want.e[k].b ||
            fbits(got.e[k].w) != fbits(want.e[k].w))
          ck_abort_msg("second file, threads %d, block %zu: edge %zu differs", vs[i].threads,
                       vs[i].block, k);
      ck_assert_uint_eq(sg.names_resolved, 2 * (uint64_t)edges);
      free(got.e);
    }
    free(want.e);
    free(p2);
  }
  free(rev);
  free(paths[0]);
  free(paths[1]);
  free(text);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* ---- arc records built by the parser threads (exo_parse_file_arcs) ------------ */

/* The records a caller stores edge by edge: the pipeline's rule, written
 * out here independently of exo_edge_arcs. */
typedef struct arcbuf {
  exo_arc_rule rule;
  int wide;
  uint8_t *p;
  size_t n, cap;         /* records */
  size_t fail_rec;       /* 1-based record whose storing fails (0: never) */
  uint64_t negative;     /* edges with w < 0 (edge by edge) */
  uint64_t self;         /* self-loops the rule's drop_self kept from storing */
  size_t add_calls, add_recs; /* records that came through the sink */
} arcbuf;

static int arc_put(arcbuf *a, uint64_t k, uint64_t nb, float w) {
  if (a->fail_rec && a->n + 1 >= a->fail_rec) return -1;
  const size_t rs = exo_rec_size(a->wide);
  if (a->n == a->cap) {
    a->cap = a->cap ? 2 * a->cap : 1024;
    a->p = realloc(a->p, a->cap * rs);
  }
  exo_rec_encode(a->p + a->n * rs, a->wide, k, nb, w);
  a->n++;
  return 0;
}

static exo_status arc_edge(void *user, uint64_t x, uint64_t y, float w, exo_ctx *ctx) {
  arcbuf *a = user;
  if (!(w > 0.0f) || w < a->rule.min_weight || (x == y && a->rule.drop_self)) {
    a->negative += w < 0.0f;
    a->self += x == y && a->rule.drop_self && w > 0.0f && !(w < a->rule.min_weight);
    return EXO_OK;
  }
  int bad = 0;
  if (a->rule.directed) {
    bad = arc_put(a, y, x, w) || arc_put(a, x, y, -w);
  } else {
    bad = arc_put(a, x, y, w) || (x != y && arc_put(a, y, x, w));
  }
  return bad ? EXO_FAIL(ctx, EXO_ENOSPC, "full") : EXO_OK;
}

static exo_status arc_sink_add(void *user, const uint8_t *recs, size_t n, int wide,
                               size_t *done, exo_ctx *ctx) {
  arcbuf *a = user;
  ck_assert_int_eq(wide, a->wide);
  a->add_calls++;
  const size_t rs = exo_rec_size(wide);
  for (*done = 0; *done < n; (*done)++) {
    exo_arc r;
    exo_rec_decode(recs + *done * rs, wide, &r);
    if (arc_put(a, r.key, r.nbr, r.w)) return EXO_FAIL(ctx, EXO_ENOSPC, "full");
    a->add_recs++;
  }
  return EXO_OK;
}

typedef struct arcrun {
  exo_status st;
  char msg[EXO_ERRMSG_MAX];
  arcbuf a;
  uint64_t sink_negative, sink_self;
  exo_parse_stats stats;
  char *names;
  size_t names_len;
} arcrun;

static void arc_parse(const char *dir, const char *path, int threads, size_t block,
                      const exo_arc_rule *rule, int wide, size_t fail_rec, arcrun *r) {
  memset(r, 0, sizeof *r);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  char *np = tu_path(dir, "arcnames.txt");
  exo_names *t = NULL;
  ck_assert_int_eq(exo_names_create(&t, np, &ctx), EXO_OK);
  exo_parse_options o = opts('\t', 1, 0);
  o.threads = threads;
  o.block_bytes = block;
  r->a.rule = *rule;
  r->a.wide = wide;
  r->a.fail_rec = fail_rec;
  if (threads <= 1) { /* the reference: edge by edge */
    r->st = exo_parse_file(path, &o, t, arc_edge, &r->a, &ctx, &r->stats);
  } else {
    exo_arc_sink sink = {0};
    sink.rule = *rule;
    sink.wide = wide;
    sink.add = arc_sink_add;
    sink.user = &r->a;
    r->st = exo_parse_file_arcs(path, &o, t, arc_edge, &r->a, &sink, &ctx, &r->stats);
    r->sink_negative = sink.negative;
    r->sink_self = sink.self;
  }
  snprintf(r->msg, sizeof r->msg, "%s", ctx.err.msg);
  if (r->st == EXO_OK) ck_assert_int_eq(exo_names_finish(t, &ctx), EXO_OK);
  exo_names_free(t);
  if (r->st == EXO_OK) r->names = tu_read_file(np, &r->names_len);
  exo_unlink(np);
  free(np);
}

/* Parser threads that encode each block's arc records themselves (the
 * calling thread only fills in the names it interns and hands the block
 * over) give the records of the edge-by-edge path, byte for byte and in
 * order: 60000 lines with new names throughout (so many lines of every
 * block wait for the calling thread), self-loops, weights 0, negative and
 * below min_weight, a header line; blocks of 512 bytes to 64 KiB with 2, 3
 * and 8 threads; four rules, narrow and wide records. Names file, negative
 * count and stats too; the records came through the sink (all but the
 * header's, which has none). A sink that fails at a record gives the line
 * and message of the edge-by-edge path failing at that record. */
START_TEST(parallel_arcs_built_by_workers) {
  char *dir = tu_mkdtemp();
  exo_rng g;
  exo_rng_seed(&g, 2727);
  strbuf sb = {0};
  sb_printf(&sb, "query\ttarget\tscore\n");
  static const char *const wts[] = {"1", "2.5", "0", "-1.5", "0.25", "3", "7"};
  const unsigned lines = TU_SAN(60000, 15000);
  for (unsigned i = 0; i < lines; i++) {
    uint64_t top = i / 2 + 2;
    uint64_t a = exo_rng_below(&g, top), b = exo_rng_below(&g, 8) == 0 ? a : exo_rng_below(&g, top);
    sb_printf(&sb, "n%llu\tn%llu\t%s\n", (unsigned long long)a, (unsigned long long)b,
              wts[exo_rng_below(&g, 7)]);
  }
  char *path = tu_path(dir, "arcs.tsv");
  ck_assert_int_eq(tu_write_file(path, sb.p, sb.len), 0);
  char *gz = tu_path(dir, "arcs.tsv.gz");
  ck_assert_int_eq(tu_write_gzip(gz, sb.p, sb.len), 0);
  static const exo_arc_rule rules[] = {
      {0, 0, 0.0f}, {0, 1, 1.0f}, {1, 0, 0.0f}, {1, 1, 2.6f}};
  static const struct { int threads; size_t block; } pv[] = {
      {2, 512}, {3, 4096}, {8, 65536}, {2, 65536}};
  for (size_t ri = 0; ri < sizeof rules / sizeof *rules; ri++) {
    for (int wide = 0; wide <= 1; wide++) {
      arcrun ref;
      arc_parse(dir, path, 1, 0, &rules[ri], wide, 0, &ref);
      ck_assert_int_eq(ref.st, EXO_OK);
      ck_assert_uint_gt(ref.a.n, (size_t)lines / 2);
      for (size_t v = 0; v < sizeof pv / sizeof *pv; v++) {
        for (int z = 0; z < 2; z++) {
          if (z && (v > 1 || wide)) continue; /* gzip: two variants, narrow */
          arcrun r;
          arc_parse(dir, z ? gz : path, pv[v].threads, pv[v].block, &rules[ri], wide, 0, &r);
          ck_assert_int_eq(r.st, EXO_OK);
          ck_assert_uint_eq(r.a.n, ref.a.n);
          ck_assert_int_eq(memcmp(r.a.p, ref.a.p, ref.a.n * exo_rec_size(wide)), 0);
          ck_assert_uint_eq(r.a.add_recs, ref.a.n); /* every record from the workers */
          /* a gzip stream's first block holds what the header's read left: here all */
          const size_t min_calls = z ? 1 : sb.len / pv[v].block / 2;
          ck_assert_uint_ge(r.a.add_calls, min_calls);
          ck_assert_uint_eq(r.a.negative + r.sink_negative, ref.a.negative);
          ck_assert_uint_gt(ref.a.negative, 0);
          /* the self-loops dropped (counted for the warning of a graph of
           * only self hits): the same count */
          ck_assert_uint_eq(r.a.self + r.sink_self, ref.a.self);
          if (rules[ri].drop_self) ck_assert_uint_gt(ref.a.self, 0);
          ck_assert_uint_eq(r.names_len, ref.names_len);
          ck_assert_int_eq(memcmp(r.names, ref.names, ref.names_len), 0);
          ck_assert_uint_eq(r.stats.edges, ref.stats.edges);
          ck_assert_uint_eq(r.stats.lines, ref.stats.lines);
          free(r.a.p);
          free(r.names);
        }
      }
      /* the sink failing at a record: the edge-by-edge line and message */
      const size_t fails[] = {2, 777, ref.a.n / 2 + 1};
      for (size_t f = 0; f < sizeof fails / sizeof *fails; f++) {
        arcrun a1, a2;
        arc_parse(dir, path, 1, 0, &rules[ri], wide, fails[f], &a1);
        arc_parse(dir, path, 3, 2048, &rules[ri], wide, fails[f], &a2);
        ck_assert_int_eq(a1.st, EXO_ENOSPC);
        ck_assert_int_eq(a2.st, EXO_ENOSPC);
        ck_assert_str_eq(a2.msg, a1.msg);
        ck_assert_uint_eq(a2.stats.edges, a1.stats.edges);
        ck_assert_uint_eq(a2.stats.lines, a1.stats.lines);
        ck_assert_uint_eq(a2.a.n, a1.a.n);
        ck_assert_int_eq(memcmp(a2.a.p, a1.a.p, a1.a.n * exo_rec_size(wide)), 0);
        free(a1.a.p);
        free(a2.a.p);
      }
      free(ref.a.p);
      free(ref.names);
    }
  }
  free(sb.p);
  free(path);
  free(gz);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

Suite *parse_suite(void) {
  Suite *s = suite_create("parse");
  TCase *tc = tcase_create("parse");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, case_table, 0, (int)(sizeof cases / sizeof *cases));
  tcase_add_test(tc, weight_edge_cases);
  tcase_add_loop_test(tc, column_table, 0, (int)(sizeof ccases / sizeof *ccases));
  tcase_add_test(tc, comment_lines);
  tcase_add_test(tc, column_options_checked);
  tcase_add_test(tc, evalues_match_strtod_log10);
  tcase_add_test(tc, diamond_like_file_parallel);
  tcase_add_test(tc, columns_match_naive_split);
  tcase_add_test(tc, weights_match_strtof);
  tcase_add_test(tc, callback_sequence_and_stats);
  tcase_add_test(tc, several_files_with_headers);
  tcase_add_test(tc, random_file_plain_and_gzip);
#ifndef _WIN32
  tcase_add_test(tc, fifo_short_reads);
#endif
#ifdef __linux__
  tcase_add_test(tc, idle_fifo_interrupt);
#endif
  tcase_add_test(tc, huge_names);
  tcase_add_test(tc, line_length_limit);
  tcase_add_test(tc, callback_failure_stops);
  tcase_add_test(tc, interrupt_and_progress);
  tcase_add_test(tc, bad_arguments_and_files);
  suite_add_tcase(s, tc);
  TCase *tp = tcase_create("parallel");
  tcase_set_timeout(tp, 600);
  tcase_add_test(tp, parallel_random_files);
  tcase_add_test(tp, parallel_every_boundary);
  tcase_add_test(tp, parallel_first_error_wins);
  tcase_add_test(tp, parallel_tiny_files);
  tcase_add_test(tp, parallel_callback_failure_and_interrupt);
  tcase_add_test(tp, parallel_long_lines);
  tcase_add_test(tp, parallel_streams);
  tcase_add_test(tp, parallel_truncated_gzip_stream);
  tcase_add_test(tp, ranges_every_cut);
  tcase_add_test(tp, parallel_workers_resolve_names);
  tcase_add_test(tp, parallel_arcs_built_by_workers);
  suite_add_tcase(s, tp);
  return s;
}
