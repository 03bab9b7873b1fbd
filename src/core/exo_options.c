/* exo_options.c: see exo_options.h. */
#include "exo_options.h"
#include "exo_output.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_ctx.h"
#include "exo_platform.h"

/* ---- the table ------------------------------------------------------------ */

static const char *const mode_choices[] = {"undirected", "directed", NULL};
/* the methods of exo_method_names.h: their names, and "name (help), ..." */
#define ALGORITHM_NAME_(id, name, stage, help, refused) name,
static const char *const algorithm_choices[] = {EXO_METHODS(ALGORITHM_NAME_) NULL};
#define ALGORITHM_HELP_(id, name, stage, help, refused) ", " name " (" help ")"
#define ALGORITHM_HELP (EXO_METHODS(ALGORITHM_HELP_) + 2) /* less the first ", " */
#define ALGORITHM_REFUSES_(id, name, stage, help, refused) refused,
static const uint32_t method_refuses[] = {EXO_METHODS(ALGORITHM_REFUSES_)};
#define ALGORITHM_WHAT_(id, name, stage, help, refused) help,
static const char *const method_help[] = {EXO_METHODS(ALGORITHM_WHAT_)};
static const char *const objective_choices[] = {"modularity", "cpm", NULL};
static const char *const format_choices[] = {"edges", "blast", NULL};
static const char *const transform_choices[] = {"none", "neglog10", "selfnorm", NULL};
static const char *const self_hits_choices[] = {"keep", "drop", NULL};
static const char *const combine_choices[] = {"sum", "max", NULL};
static const char *const order_choices[] = {"appearance", "name", NULL};
static const char *const bridges_choices[] = {"cut", "keep", NULL};

#define NOLIM 0, 0
/* The defaults, limits, choices and messages are here and nowhere else: the
 * R function's formals, its accepted ranges and its messages, and the
 * drivers' help and messages are checked against them
 * (tests/testthat/test-options-parity.R). */
static const exo_opt_def table[EXO_OPT_COUNT] = {
    {EXO_OPT_MODE, "mode", EXO_OT_CHOICE, 0, "undirected", NOLIM, 0, mode_choices, "MODE",
     "undirected or directed"},
    {EXO_OPT_ADD_SELF_LOOPS, "add_self_loops", EXO_OT_NUMBER, EXO_OPTF_LOGICAL, "0", -HUGE_VAL,
     HUGE_VAL, 0, NULL, "X", "weight cutoff for winning labels, >= 0 (a negative value is "
     "taken as 0, with a warning)"},
    {EXO_OPT_ATTENUATION, "attenuation", EXO_OT_NUMBER, EXO_OPTF_LOGICAL, "0", 0, HUGE_VAL, 0,
     NULL, "A", "attenuation power, >= 0"},
    {EXO_OPT_IGNORE_WEIGHTS, "ignore_weights", EXO_OT_FLAG, EXO_OPTF_LOGICAL, "false", NOLIM, 0,
     NULL, NULL, "every edge weighs 1"},
    {EXO_OPT_ITERATIONS, "iterations", EXO_OT_WHOLE, 0, "0", 0, 1.8e19, 0, NULL, "N",
     "cap on visits per node, 0 = automatic; leiden: iterations of the whole algorithm, at "
     "most N, 0 = 2 (as igraph); above 32767 is capped"},
    {EXO_OPT_REFINE, "refine", EXO_OT_WHOLE, EXO_OPTF_LOGICAL, "true", 0, 100, 5, NULL, "N",
     "up to N modularity-safe merge passes after label propagation, 0 = none, true = 5; "
     "none with leiden unless given"},
    {EXO_OPT_ALGORITHM, "algorithm", EXO_OT_CHOICE, 0, "lp", NOLIM, 0, algorithm_choices, "A",
     ALGORITHM_HELP},
    {EXO_OPT_OBJECTIVE, "objective", EXO_OT_CHOICE, 0, "modularity", NOLIM, 0,
     objective_choices, "O", "leiden's objective: modularity or cpm"},
    {EXO_OPT_RESOLUTION, "resolution", EXO_OT_NUMBER, EXO_OPTF_AUTO, "1", 0, HUGE_VAL, 0, NULL,
     "G", "gamma of the one quality function: label propagation's "
     "penalty on labels that hold a large share of the graph and its merge passes' test "
     "(modularity in arcs; 0 = plain label propagation); leiden's modularity or cpm "
     "resolution; auto (cpm only): with selfnorm "
     "weights 2e-5 x the mean strength of each connected component's nodes, in that "
     "component; else 5e-5 x the mean node strength (sum of the edge weights x 2 / "
     "nodes); auto*X, auto/X: X times, or 1/X of, that (X > 0). With --format blast and none of --algorithm, --objective, --resolution: "
     "leiden, cpm, auto"},
    {EXO_OPT_SEP, "sep", EXO_OT_SEP, 0, "\\t", NOLIM, 0, NULL, "C",
     "one-byte field separator: \\t, tab, comma, space or the byte itself"},
    {EXO_OPT_HEADER, "header", EXO_OT_WHOLE, EXO_OPTF_LOGICAL, "0", 0, 1.8e19, 1, NULL, "N",
     "lines to skip at the start of each file (true = 1)"},
    {EXO_OPT_FORMAT, "format", EXO_OT_CHOICE, 0, "edges", NOLIM, 0, format_choices, "F",
     "edges: columns 1,2,3, weights as given, self-loops kept, duplicates all kept (they add "
     "up); blast: BLAST+ -outfmt 6, DIAMOND --outfmt 6 or MMseqs2 default output (qseqid "
     "sseqid pident length mismatch gapopen qstart qend sstart send evalue bitscore; columns "
     "after these, e.g. qlen slen or qcov tcov, are read past, unused): reads the query (1), "
     "subject (2) and bit score (12), weight transform selfnorm (bit score over the larger "
     "self-hit score of the two proteins; a protein without a self hit takes its best hit's; "
     "neglog10 reads the e-value, column 11), self hits dropped once read, combine max; lines "
     "starting with # skipped; a header of column names (DIAMOND --header, MMseqs2 "
     "--format-mode 4, the # Fields line of -outfmt 7) places the columns by name"},
    {EXO_OPT_COLUMNS, "columns", EXO_OT_COLUMNS, EXO_OPTF_NO_DEFAULT, "", NOLIM, 0, NULL,
     "A,B[,W]", "1-based columns of the two nodes and the weight (no W: every weight is 1); "
     "overrides --format's columns, not its other defaults: search output in another column "
     "order, e.g. qseqid sseqid bitscore evalue, is read by --format blast --columns 1,2,3"},
    {EXO_OPT_WEIGHT_TRANSFORM, "weight_transform", EXO_OT_CHOICE, EXO_OPTF_NO_DEFAULT, "", NOLIM,
     0, transform_choices, "T", "none; neglog10: the weight column is an e-value E, the "
     "weight min(-log10 E, 200) (E = 0 gives 200; E >= 1 gives no edge); selfnorm: the weight "
     "column is a bit score B, the weight B / max(self(A), self(B)), self = the protein's "
     "self hit (else its best hit); self hits are read for it, then dropped unless kept"},
    {EXO_OPT_MIN_WEIGHT, "min_weight", EXO_OT_NUMBER, 0, "0", -3.4e38, 3.4e38, 0, NULL, "X",
     "drop edges whose (transformed) weight is below X; their nodes stay (e.g. 5 = e-value "
     "1e-5)"},
    {EXO_OPT_SELF_HITS, "self_hits", EXO_OT_CHOICE, EXO_OPTF_NO_DEFAULT, "", NOLIM, 0,
     self_hits_choices, "S", "keep or drop edges A-A (their nodes stay)"},
    {EXO_OPT_COMBINE, "combine", EXO_OT_CHOICE, EXO_OPTF_NO_DEFAULT, "", NOLIM, 0,
     combine_choices, "C", "edges given twice (or A-B and B-A, undirected): sum (all kept, "
     "weights add up) or max (one edge, the largest weight)"},
    {EXO_OPT_TEMPDIR, "tempdir", EXO_OT_PATH, 0, "", NOLIM, 0, NULL, "DIR",
     "directory for temporary files (default $TMPDIR or /tmp)"},
    {EXO_OPT_MEMORY_LIMIT, "memory_limit", EXO_OT_SIZE, 0, "256MB", 1048576.0, 0, 0, NULL,
     "SIZE", "buffer memory, e.g. 512MB, 2GB, at least 1MB"},
    {EXO_OPT_THREADS, "threads", EXO_OT_WHOLE, EXO_OPTF_AUTO, "auto", 1, 1.8e19, 0, NULL, "N",
     "threads for reading, the merges and the output (auto: all cores; more than the cores "
     "are capped at them with a warning, and at 256); results do not depend on it"},
    {EXO_OPT_SEED, "seed", EXO_OT_WHOLE, 0, "1", 0, 1.8446744073709552e19, 0, NULL, "N",
     "random seed, 0 <= N < 2^64: the same input and options give the same output"},
    {EXO_OPT_ORDER, "order", EXO_OT_CHOICE, 0, "appearance", NOLIM, 0, order_choices, "O",
     "the output's lines: appearance (first appearance of the names in the input) or name "
     "(byte order of the names, as SynExtend writes them; holds the names in memory); "
     "clusters are numbered 1..K in order of first appearance in the lines"},
    {EXO_OPT_BRIDGES, "bridges", EXO_OT_CHOICE, EXO_OPTF_NO_DEFAULT, "", NOLIM, 0,
     bridges_choices, "B", "hits that chain protein families (--format blast with its own "
     "columns; qstart qend sstart send are 7-10): cut (the default there) keeps a protein "
     "whose hits lie in separate regions of it (less than 1/3 overlap) only with the partners "
     "it hits in its strongest region (largest bit-score sum), and drops a hit far weaker "
     "(below 0.55x) than every other hit of both its proteins when each has 8 or more "
     "consistent hits; keep keeps every hit"},
    {EXO_OPT_INITIAL, "initial", EXO_OT_PATH, 0, "", NOLIM, 0, NULL, "FILE",
     "a previous clustering (name<sep>cluster lines, as written; header Vertex<sep>Cluster "
     "skipped): label propagation and leiden start from its clusters (new nodes alone), and "
     "the clusters keep its ids: a new cluster holding more than half of an old one's nodes "
     "takes that id (the old cluster it holds most of), every other cluster gets a new id "
     "above the old largest; leiden then runs one iteration unless --iterations is given; "
     "its names the graph lacks are counted and warned about; "
     "FILE may be the output file (it is read before the output is written)"},
    {EXO_OPT_KEEP_GRAPH, "keep_graph", EXO_OT_PATH, 0, "", NOLIM, 0, NULL, "DIR",
     "keep the graph in DIR (new, empty, or a kept graph, replaced once the new one is "
     "complete): names, CSR and a manifest, to extend later with --graph"},
    {EXO_OPT_GRAPH, "graph", EXO_OT_PATH, 0, "", NOLIM, 0, NULL, "DIR",
     "extend the graph kept in DIR with the edges given (only they are read); the options "
     "that shaped it (mode, format, columns, weight_transform, min_weight, self_hits, "
     "combine, bridges, ignore_weights, header, sep) must be the same"},
    {EXO_OPT_NESTED, "nested", EXO_OT_FLAG, EXO_OPTF_LOGICAL, "false", NOLIM, 0, NULL, NULL,
     "nested levels, with algorithm leiden and two resolutions or more (a comma list for "
     "--resolution): each level is leiden at its resolution, then each finer level's "
     "clusters are cut by those of the level above, so every coarse cluster is a union of "
     "fine ones (the coarsest is its own run); one output with a column per level, in the "
     "order the resolutions are given"},
};

const exo_opt_def *exo_options_table(void) { return table; }

static int name_eq(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;
    if (x != y) return 0;
  }
  return *a == *b;
}

/* a begins with the n bytes of b, in any case */
static int ieqn(const char *a, const char *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    int x = (unsigned char)a[i], y = (unsigned char)b[i];
    if (!x) return 0;
    if (x >= 'A' && x <= 'Z') x += 32;
    if (y >= 'A' && y <= 'Z') y += 32;
    if (x != y) return 0;
  }
  return 1;
}

const exo_opt_def *exo_options_find(const char *name) {
  for (int i = 0; i < EXO_OPT_COUNT; i++)
    if (name_eq(table[i].name, name)) return &table[i];
  return NULL;
}

const char *exo_options_display(const exo_opt_def *d, exo_opt_style style, char *buf,
                                size_t len) {
  if (style == EXO_OPT_STYLE_R) {
    snprintf(buf, len, "'%s'", d->name);
  } else {
    snprintf(buf, len, "--%s", d->name);
    for (char *p = buf; *p; p++)
      if (*p == '_') *p = '-';
  }
  return buf;
}

/* ---- text parsers ------------------------------------------------------------ */

static int ieq(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    int x = (unsigned char)*a, y = (unsigned char)*b;
    if (x >= 'A' && x <= 'Z') x += 32;
    if (y >= 'A' && y <= 'Z') y += 32;
    if (x != y) return 0;
  }
  return *a == *b;
}

int exo_opt_parse_whole(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  if (*s < '0' || *s > '9') return -1;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno) return -1;
  *out = (uint64_t)v;
  return 0;
}

int exo_opt_parse_size(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  while (*s == ' ') s++;
  if (!((*s >= '0' && *s <= '9') || *s == '.')) return -1;
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
  if (*end == 'i' && mult > 1) end++;
  if (*end == 'b' || *end == 'B') end++;
  while (*end == ' ') end++;
  double bytes = floor(x * mult);
  if (*end || !(bytes <= 1.8e19)) return -1;
  *out = (uint64_t)bytes;
  return 0;
}

int exo_opt_parse_sep(const char *s, char *out) {
  if (!strcmp(s, "\\t") || ieq(s, "tab")) *out = '\t';
  else if (ieq(s, "comma")) *out = ',';
  else if (ieq(s, "space")) *out = ' ';
  else if (strlen(s) != 1 || s[0] == '\n' || s[0] == '\r') return -1;
  else *out = s[0];
  return 0;
}

/* ---- setting ------------------------------------------------------------------ */

void exo_options_init(exo_options *o, exo_opt_style style) {
  memset(o, 0, sizeof *o);
  o->style = style;
  exo_error e;
  exo_error_clear(&e);
  for (int i = 0; i < EXO_OPT_COUNT; i++)
    if (table[i].def[0]) (void)exo_options_set(o, table[i].name, table[i].def, &e);
  o->given = 0; /* the defaults are not "given" */
  o->auto_scale = 1.0;
  o->transform = o->drop_self = o->combine = o->bridges = -1;
  o->num[EXO_OPT_WEIGHT_TRANSFORM] = o->num[EXO_OPT_SELF_HITS] = o->num[EXO_OPT_COMBINE] = -1;
  o->num[EXO_OPT_BRIDGES] = -1;
}

static exo_status bad(const exo_options *o, const exo_opt_def *d, exo_error *err,
                      const char *value, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(EXO_PRINTF_STYLE, 5, 6)))
#endif
    ;
/* "<name> <what>, not <value>" */
static exo_status bad(const exo_options *o, const exo_opt_def *d, exo_error *err,
                      const char *value, const char *fmt, ...) {
  char name[64], what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  exo_options_display(d, o->style, name, sizeof name);
  const char q = o->style == EXO_OPT_STYLE_R ? '"' : '\'';
  if (value)
    return exo_error_set(err, EXO_EARG, "%s %s, not %c%.200s%c", name, what, q, value, q);
  return exo_error_set(err, EXO_EARG, "%s %s", name, what);
}

static const char *quoted_choices(const exo_opt_def *d, exo_opt_style style, char *buf,
                                  size_t len) {
  const char q = style == EXO_OPT_STYLE_R ? '"' : '\'';
  size_t at = 0;
  buf[0] = 0;
  for (int k = 0; d->choices[k] && at < len; k++)
    at += (size_t)snprintf(buf + at, len - at, "%s%c%s%c", k ? ", " : "", q, d->choices[k], q);
  return buf;
}

static const char *range_text(const exo_opt_def *d, char *buf, size_t len) {
  if (d->max < 1e18) snprintf(buf, len, "from %.0f to %.0f", d->min, d->max);
  else snprintf(buf, len, ">= %.0f", d->min);
  return buf;
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

static exo_status set_value(exo_options *o, const exo_opt_def *d, const char *text, double x,
                            int is_text, exo_error *err) {
  char buf[256];
  char vbuf[64];
  const char *shown = text;
  if (!is_text) {
    snprintf(vbuf, sizeof vbuf, "%.15g", x);
    shown = vbuf;
  }
  const int id = d->id;
  const int logical = is_text && (d->flags & EXO_OPTF_LOGICAL) &&
                      (ieq(text, "true") || ieq(text, "false"));
  if (logical) {
    x = ieq(text, "true") ? (d->type == EXO_OT_WHOLE && d->logical_true ? d->logical_true : 1) : 0;
    is_text = 0;
  }
  if (is_text && (d->flags & EXO_OPTF_AUTO) && ieqn(text, "auto", 4)) {
    /* "auto", or for a number "auto*X" / "auto/X": that many times the
     * automatic value (coarser or finer levels around it) */
    double scale = 1.0;
    if (text[4] && d->type == EXO_OT_NUMBER && (text[4] == '*' || text[4] == '/')) {
      char *end = NULL;
      errno = 0;
      const double f = strtod(text + 5, &end);
      if (end == text + 5 || *end || errno || !isfinite(f) || !(f > 0))
        return bad(o, d, err, text, "must be a number, auto, auto*X or auto/X (X > 0)");
      scale = text[4] == '*' ? f : 1.0 / f;
      if (!isfinite(scale) || !(scale > 0))
        return bad(o, d, err, text, "must be a number, auto, auto*X or auto/X (X > 0)");
    } else if (text[4]) {
      goto not_auto;
    }
    o->is_auto |= 1u << id;
    o->given |= 1u << id;
    if (d->type == EXO_OT_WHOLE) o->whole[id] = 0;
    else {
      o->auto_scale = scale;
      o->num[id] = EXO_LEIDEN_AUTO_RESOLUTION * scale;
    }
    o->resolved = 0;
    return EXO_OK;
  }
not_auto:
  switch (d->type) {
  case EXO_OT_FLAG:
    if (is_text) return bad(o, d, err, text, "must be TRUE or FALSE");
    if (x != 0 && x != 1) return bad(o, d, err, shown, "must be TRUE or FALSE");
    o->num[id] = x;
    break;
  case EXO_OT_NUMBER: {
    if (is_text) {
      char *end;
      errno = 0;
      x = strtod(text, &end);
      /* inf, nan: the message of R's Inf and NaN, below */
      if (end == text || *end || (errno && isfinite(x)))
        return bad(o, d, err, text,
                   (d->flags & EXO_OPTF_AUTO) ? "must be a number, auto, auto*X or auto/X"
                                              : "must be a number");
    }
    if (!isfinite(x)) return bad(o, d, err, shown, "must be a finite number");
    if (x < d->min) return bad(o, d, err, shown, "must be >= %g", d->min);
    if (x > d->max) return bad(o, d, err, shown, "must be <= %g", d->max);
    o->num[id] = x;
    break;
  }
  case EXO_OT_WHOLE: {
    uint64_t v;
    if (is_text) {
      if (exo_opt_parse_whole(text, &v) || (double)v < d->min || (double)v > d->max)
        return bad(o, d, err, text, "must be a whole number %s",
                   range_text(d, buf, sizeof buf));
    } else {
      if (!isfinite(x) || x != floor(x) || x < d->min || x > d->max)
        return bad(o, d, err, shown, "must be a whole number %s",
                   range_text(d, buf, sizeof buf));
      v = x >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)x;
    }
    o->whole[id] = v;
    o->is_auto &= ~(1u << id);
    break;
  }
  case EXO_OT_SIZE: {
    uint64_t v;
    if (is_text) {
      if (exo_opt_parse_size(text, &v))
        return bad(o, d, err, text, "must be a size such as 512MB or 2GB");
    } else {
      if (!(x >= 0) || !(x <= 1.8e19))
        return bad(o, d, err, shown, "must be a size such as 512MB or 2GB");
      v = (uint64_t)floor(x);
    }
    if ((double)v < d->min) return bad(o, d, err, shown, "must be at least 1MB");
    o->whole[id] = v;
    break;
  }
  case EXO_OT_CHOICE: {
    int hit = -1, n = 0;
    if (is_text && *text) {
      size_t len = strlen(text);
      for (int k = 0; d->choices[k]; k++) {
        if (ieq(text, d->choices[k])) { hit = k; n = 1; break; }
        char pre[64];
        snprintf(pre, sizeof pre, "%.*s", (int)len, d->choices[k]);
        if (strlen(d->choices[k]) > len && ieq(text, pre)) { hit = k; n++; }
      }
    }
    if (n != 1)
      return bad(o, d, err, shown, "must be one of %s (any case)",
                 quoted_choices(d, o->style, buf, sizeof buf));
    o->num[id] = hit;
    break;
  }
  case EXO_OT_SEP: {
    char c;
    if (!is_text || exo_opt_parse_sep(text, &c))
      return bad(o, d, err, shown, "must be a single byte other than a line end (\\t, tab, "
                 "comma, space or the byte)");
    o->num[id] = (unsigned char)c;
    break;
  }
  case EXO_OT_COLUMNS: {
    uint32_t cols[3] = {0, 0, 0};
    int n = is_text ? parse_columns(text, cols) : -1;
    if (n < 0)
      return bad(o, d, err, shown, "must be two or three column numbers from 1 to %u "
                 "separated by commas (nodes, nodes[, weight])", (unsigned)EXO_PARSE_MAX_COLUMN);
    memcpy(o->cols, cols, sizeof cols);
    o->ncols = n;
    break;
  }
  case EXO_OT_PATH:
    if (!is_text || ((id == EXO_OPT_KEEP_GRAPH || id == EXO_OPT_GRAPH) && !*text))
      return bad(o, d, err, shown, id == EXO_OPT_INITIAL ? "must be a file path"
                                                          : "must be a directory path");
    o->paths[id] = text;
    if (id == EXO_OPT_TEMPDIR) o->tempdir = text;
    break;
  }
  o->given |= 1u << id;
  if (d->flags & EXO_OPTF_AUTO) o->is_auto &= ~(1u << id);
  o->resolved = 0;
  return EXO_OK;
}

static exo_status unknown(const exo_options *o, const char *name, exo_error *err) {
  return exo_error_set(err, EXO_EARG, "unknown option %s%s%s",
                       o->style == EXO_OPT_STYLE_R ? "'" : "--", name,
                       o->style == EXO_OPT_STYLE_R ? "'" : "");
}

exo_status exo_options_set(exo_options *o, const char *name, const char *value, exo_error *err) {
  const exo_opt_def *d = exo_options_find(name);
  if (!d) return unknown(o, name, err);
  return set_value(o, d, value, 0, 1, err);
}

exo_status exo_options_set_default(exo_options *o, const char *name, const char *value,
                                   exo_error *err) {
  const exo_opt_def *d = exo_options_find(name);
  if (!d) return unknown(o, name, err);
  const uint32_t given = o->given;
  exo_status st = set_value(o, d, value, 0, 1, err);
  o->given = given; /* a driver's default, not the user's choice */
  return st;
}

exo_status exo_options_set_number(exo_options *o, const char *name, double value,
                                  exo_error *err) {
  const exo_opt_def *d = exo_options_find(name);
  if (!d) return unknown(o, name, err);
  return set_value(o, d, NULL, value, 0, err);
}

/* ---- resolving ------------------------------------------------------------------ */

static void warnf(exo_opt_warn_fn warn, void *user, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(EXO_PRINTF_STYLE, 3, 4)))
#endif
    ;
static void warnf(exo_opt_warn_fn warn, void *user, const char *fmt, ...) {
  if (!warn) return;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  warn(user, msg);
}

#define GIVEN(o, id) (((o)->given >> (id)) & 1u)
#define AUTO(o, id) (((o)->is_auto >> (id)) & 1u)

/* exo_options_resolve, 1: the method and its objective, resolution and
 * refine (the format's default method, "auto", the options a method has no
 * use for). */
static exo_status resolve_method(exo_options *o, exo_error *err) {
  char n1[64], n2[64], n3[64];
  const int r = o->style == EXO_OPT_STYLE_R;
  const int blast = (int)o->num[EXO_OPT_FORMAT] == EXO_OPT_BLAST;
  o->transform = o->num[EXO_OPT_WEIGHT_TRANSFORM] >= 0 ? (int)o->num[EXO_OPT_WEIGHT_TRANSFORM]
                 : blast ? EXO_OPT_BLAST_TRANSFORM : EXO_WT_NONE;
  const double auto_factor = o->transform == EXO_WT_SELFNORM
                             ? EXO_LEIDEN_AUTO_RESOLUTION_SELFNORM : EXO_LEIDEN_AUTO_RESOLUTION;
  /* --format blast with none of algorithm, objective, resolution: Leiden CPM
   * at a resolution relative to the mean node strength (with nested levels,
   * at the resolutions given) */
  if (blast && !GIVEN(o, EXO_OPT_ALGORITHM) && !GIVEN(o, EXO_OPT_OBJECTIVE) &&
      (!GIVEN(o, EXO_OPT_RESOLUTION) || o->num[EXO_OPT_NESTED] != 0)) {
    o->num[EXO_OPT_ALGORITHM] = EXO_OPT_LEIDEN;
    o->num[EXO_OPT_OBJECTIVE] = EXO_OPT_CPM;
    /* nested levels keep the resolutions given: Leiden CPM at each */
    if (!GIVEN(o, EXO_OPT_RESOLUTION)) o->is_auto |= 1u << EXO_OPT_RESOLUTION;
    o->blast_default = 1;
  }
  /* "auto": the factor of the weights' kind */
  if (AUTO(o, EXO_OPT_RESOLUTION)) o->num[EXO_OPT_RESOLUTION] = auto_factor * o->auto_scale;
  const int leiden = (int)o->num[EXO_OPT_ALGORITHM] == EXO_OPT_LEIDEN;
  const int cpm = (int)o->num[EXO_OPT_OBJECTIVE] == EXO_OPT_CPM;
  /* option = value as the driver's user writes it */
  if (r) {
    snprintf(n1, sizeof n1, "resolution = \"auto\"");
    snprintf(n2, sizeof n2, "algorithm = \"leiden\"");
    snprintf(n3, sizeof n3, "objective = \"CPM\"");
  } else {
    snprintf(n1, sizeof n1, "--resolution auto");
    snprintf(n2, sizeof n2, "--algorithm leiden");
    snprintf(n3, sizeof n3, "--objective cpm");
  }
  if (AUTO(o, EXO_OPT_RESOLUTION) && !(leiden && cpm))
    return exo_error_set(err, EXO_EARG, "%s (%g x the mean node strength) is for %s%s%s", n1,
                         auto_factor, n2, r ? ", " : " ", n3);
  if (cpm && !leiden) {
    exo_options_display(&table[EXO_OPT_RESOLUTION], o->style, n1, sizeof n1);
    return exo_error_set(err, EXO_EARG, "%s needs %s (label propagation has no CPM objective; "
                         "its %s is the modularity's)", n3, n2, n1);
  }
  /* refine's default (5 passes) is label propagation's: Leiden refines its
   * own partitions, so there it is 0 unless given */
  if (leiden && !GIVEN(o, EXO_OPT_REFINE)) o->whole[EXO_OPT_REFINE] = 0;
  if (o->whole[EXO_OPT_REFINE] && leiden) {
    exo_options_display(&table[EXO_OPT_REFINE], o->style, n1, sizeof n1);
    return exo_error_set(err, EXO_EARG, "%s is for label propagation: Leiden refines its own "
                         "partitions%s", n1, o->blast_default
                         ? (r ? " (format = \"blast\" runs Leiden unless told: give algorithm = "
                                "\"lp\" to refine label propagation)"
                              : " (--format blast runs Leiden unless told: give --algorithm lp "
                                "to refine label propagation)")
                         : "");
  }
  if (o->num[EXO_OPT_NESTED] && !leiden) {
    exo_options_display(&table[EXO_OPT_NESTED], o->style, n1, sizeof n1);
    return exo_error_set(err, EXO_EARG, "%s: nested levels are Leiden's: they need %s", n1,
                         n2);
  }
  if (o->num[EXO_OPT_NESTED] && o->paths[EXO_OPT_INITIAL] && *o->paths[EXO_OPT_INITIAL]) {
    exo_options_display(&table[EXO_OPT_NESTED], o->style, n1, sizeof n1);
    exo_options_display(&table[EXO_OPT_INITIAL], o->style, n2, sizeof n2);
    return exo_error_set(err, EXO_EARG, "%s and %s do not go together: a previous clustering "
                         "has one level (cluster its levels without %s)", n1, n2, n2);
  }
  /* the options a method has no use for (exo_method_names.h) are refused
   * when given (a value other than 0), as refine is with Leiden; refine's
   * default (5 passes) is label propagation's alone */
  {
    const int method = (int)o->num[EXO_OPT_ALGORITHM];
    if (method != EXO_OPT_LP && !GIVEN(o, EXO_OPT_REFINE)) o->whole[EXO_OPT_REFINE] = 0;
    const uint32_t refused = method >= 0 && method < EXO_METHOD_COUNT ? method_refuses[method] : 0;
    for (int id = 0; id < EXO_OPT_COUNT; id++) {
      if (!((refused >> id) & 1u)) continue;
      const exo_opt_def *d = &table[id];
      const int set = d->type == EXO_OT_CHOICE || (d->flags & EXO_OPTF_AUTO) ? (int)GIVEN(o, id)
                      : d->type == EXO_OT_WHOLE ? o->whole[id] != 0
                      : o->num[id] != 0;
      if (!set) continue;
      exo_options_display(d, o->style, n1, sizeof n1);
      return exo_error_set(err, EXO_EARG, "%s is not used by %s%s%s (%s)", n1,
                           r ? "algorithm = \"" : "--algorithm ", algorithm_choices[method],
                           r ? "\"" : "", method_help[method]);
    }
  }
  return EXO_OK;
}

/* exo_options_resolve, 2: the values adjusted with a warning (the R
 * function's, the iterations' cap, threads beyond the cores). */
static void resolve_adjust(exo_options *o, exo_opt_warn_fn warn, void *user) {
  char n1[64];
  if (o->num[EXO_OPT_ADD_SELF_LOOPS] < 0) {
    warnf(warn, user, "self loops weight supplied is negative, setting to zero.");
    o->num[EXO_OPT_ADD_SELF_LOOPS] = 0;
  }
  if (o->num[EXO_OPT_IGNORE_WEIGHTS] && o->num[EXO_OPT_ADD_SELF_LOOPS] != 0 &&
      o->num[EXO_OPT_ADD_SELF_LOOPS] != 1) {
    warnf(warn, user, "Weight specified for 'add_self_loops' will be ignored");
    o->num[EXO_OPT_ADD_SELF_LOOPS] = o->num[EXO_OPT_ADD_SELF_LOOPS] > 0;
  }
  if (o->whole[EXO_OPT_ITERATIONS] > EXO_LP_MAX_VISITS) {
    warnf(warn, user, "'iterations' above %u is capped at %u", EXO_LP_MAX_VISITS,
          EXO_LP_MAX_VISITS);
    o->whole[EXO_OPT_ITERATIONS] = EXO_LP_MAX_VISITS;
  }
  {
    const uint64_t cores = exo_cpu_count() > 0 ? exo_cpu_count() : 1;
    uint64_t t = o->whole[EXO_OPT_THREADS];
    if (!t) t = cores;
    if (t > cores && !o->allow_oversubscribe) {
      exo_options_display(&table[EXO_OPT_THREADS], o->style, n1, sizeof n1);
      warnf(warn, user, "%s %llu is more than the %llu cores of this machine: using %llu", n1,
            (unsigned long long)t, (unsigned long long)cores, (unsigned long long)cores);
      t = cores;
    }
    if (t > EXO_OPT_MAX_THREADS) t = EXO_OPT_MAX_THREADS;
    o->whole[EXO_OPT_THREADS] = t;
    o->is_auto &= ~(1u << EXO_OPT_THREADS);
  }
}

/* exo_options_resolve, 3: the input options against the format's defaults
 * (columns, transform, self hits, combine, bridges), checked as the parser
 * will read them. */
static exo_status resolve_input(exo_options *o, exo_error *err) {
  char n1[64], n2[64];
  const int blast = (int)o->num[EXO_OPT_FORMAT] == EXO_OPT_BLAST;
  /* search output: the e-value (column 11), or the bit score (12) for selfnorm */
  uint32_t cols[3] = {1, 2, blast ? (o->transform == EXO_WT_SELFNORM ? 12 : 11) : 3};
  if (o->ncols) memcpy(cols, o->cols, sizeof cols);
  if (o->transform != EXO_WT_NONE && !cols[2]) {
    exo_options_display(&table[EXO_OPT_WEIGHT_TRANSFORM], o->style, n1, sizeof n1);
    exo_options_display(&table[EXO_OPT_COLUMNS], o->style, n2, sizeof n2);
    return exo_error_set(err, EXO_EARG, "%s %s needs a weight column in %s", n1,
                         transform_choices[o->transform], n2);
  }
  o->drop_self = o->num[EXO_OPT_SELF_HITS] >= 0 ? (int)o->num[EXO_OPT_SELF_HITS] : blast;
  o->combine = o->num[EXO_OPT_COMBINE] >= 0
               ? ((int)o->num[EXO_OPT_COMBINE] ? EXO_COMBINE_MAX : EXO_COMBINE_KEEP)
               : blast ? EXO_COMBINE_MAX : EXO_COMBINE_KEEP;
  memcpy(o->rcols, cols, sizeof cols);
  {
    /* the region rule reads columns 7-10: only where the nodes are BLAST's 1
     * and 2 and the weight its 11 or 12 */
    const int own = blast && cols[0] == 1 && cols[1] == 2 && (cols[2] == 11 || cols[2] == 12);
    const int directed = (int)o->num[EXO_OPT_MODE] == 1;
    if (o->num[EXO_OPT_BRIDGES] >= 0) {
      o->bridges = (int)o->num[EXO_OPT_BRIDGES] == EXO_OPT_CUT;
      if (o->bridges && (!own || directed)) {
        exo_options_display(&table[EXO_OPT_BRIDGES], o->style, n1, sizeof n1);
        return exo_error_set(err, EXO_EARG, "%s cut reads the hits' coordinates from "
                             "columns 7-10 of search output: it needs %s blast with its own "
                             "columns (1, 2, and 11 or 12) and mode undirected", n1,
                             o->style == EXO_OPT_STYLE_R ? "format =" : "--format");
      }
    } else {
      o->bridges = own && !directed;
    }
  }
  {
    exo_parse_options po;
    memset(&po, 0, sizeof po);
    po.sep = (char)(int)o->num[EXO_OPT_SEP];
    po.col_a = cols[0];
    po.col_b = cols[1];
    po.col_w = cols[2];
    po.transform = (exo_weight_transform)o->transform;
    exo_ctx cctx;
    exo_ctx_init(&cctx);
    if (exo_parse_check_options(&po, &cctx)) {
      exo_options_display(&table[EXO_OPT_COLUMNS], o->style, n1, sizeof n1);
      return exo_error_set(err, EXO_EARG, "%s: %s", n1, cctx.err.msg);
    }
  }
  return EXO_OK;
}

exo_status exo_options_resolve(exo_options *o, exo_opt_warn_fn warn, void *user,
                               exo_error *err) {
  exo_status st = resolve_method(o, err);
  if (st) return st;
  resolve_adjust(o, warn, user);
  if ((st = resolve_input(o, err))) return st;
  o->resolved = 1;
  return EXO_OK;
}

/* ---- filling the core's structs ---------------------------------------------------- */

static void fill_parse(const exo_options *o, exo_parse_options *p) {
  p->sep = (char)(int)o->num[EXO_OPT_SEP];
  p->header_lines = o->whole[EXO_OPT_HEADER];
  p->comment = (int)o->num[EXO_OPT_FORMAT] == EXO_OPT_BLAST ? '#' : 0; /* -outfmt 7 */
  p->ignore_weights = o->num[EXO_OPT_IGNORE_WEIGHTS] != 0;
  p->threads = (int)o->whole[EXO_OPT_THREADS];
  p->col_a = o->rcols[0];
  p->col_b = o->rcols[1];
  p->col_w = o->rcols[2];
  p->transform = (exo_weight_transform)o->transform;
  /* search output in the format's own columns: a header's names may move them */
  p->by_name = (int)o->num[EXO_OPT_FORMAT] == EXO_OPT_BLAST && !o->ncols;
  if (o->bridges > 0) {
    p->col_iv[0] = 7; /* qstart qend sstart send */
    p->col_iv[1] = 8;
    p->col_iv[2] = 9;
    p->col_iv[3] = 10;
  }
}

void exo_options_fill_build(const exo_options *o, exo_build_options *b) {
  fill_parse(o, &b->parse);
  b->directed = (int)o->num[EXO_OPT_MODE] == 1;
  b->tempdir_base = o->tempdir && *o->tempdir ? o->tempdir : b->tempdir_base;
  b->memory_limit = o->whole[EXO_OPT_MEMORY_LIMIT];
  b->combine = (exo_combine)o->combine;
  b->min_weight = (float)o->num[EXO_OPT_MIN_WEIGHT];
  b->drop_self_loops = o->drop_self;
  b->order_by_name = (int)o->num[EXO_OPT_ORDER] == EXO_OPT_BY_NAME;
  b->regions = b->weak_hits = o->bridges > 0;
  b->keep_graph = o->paths[EXO_OPT_KEEP_GRAPH] && *o->paths[EXO_OPT_KEEP_GRAPH]
                      ? o->paths[EXO_OPT_KEEP_GRAPH] : NULL;
  b->graph = o->paths[EXO_OPT_GRAPH] && *o->paths[EXO_OPT_GRAPH] ? o->paths[EXO_OPT_GRAPH]
                                                                   : NULL;
}

void exo_options_fill_lp(const exo_options *o, exo_lp_params *p) {
  p->directed = (int)o->num[EXO_OPT_MODE] == 1;
  p->self_loop_cutoff = o->num[EXO_OPT_ADD_SELF_LOOPS];
  p->attenuation = o->num[EXO_OPT_ATTENUATION];
  p->resolution = o->num[EXO_OPT_RESOLUTION];
  p->max_visits = (uint32_t)o->whole[EXO_OPT_ITERATIONS];
  p->seed = o->whole[EXO_OPT_SEED];
  p->memory_limit = o->whole[EXO_OPT_MEMORY_LIMIT];
  p->max_lanes = o->max_lanes;
}

void exo_options_fill_refine(const exo_options *o, exo_refine_params *r) {
  r->passes = (uint32_t)o->whole[EXO_OPT_REFINE];
  r->ratio = EXO_REFINE_RATIO;
  r->resolution = o->num[EXO_OPT_RESOLUTION]; /* the merge test's gamma */
  r->memory_limit = o->whole[EXO_OPT_MEMORY_LIMIT];
}

void exo_options_fill_leiden(const exo_options *o, exo_leiden_params *l) {
  l->objective = (int)o->num[EXO_OPT_OBJECTIVE] == EXO_OPT_CPM ? EXO_LEIDEN_CPM
                                                                : EXO_LEIDEN_MODULARITY;
  l->resolution = o->num[EXO_OPT_RESOLUTION];
  l->resolution_per_strength = (int)AUTO(o, EXO_OPT_RESOLUTION);
  l->strength_linked = l->resolution_per_strength && o->transform == EXO_WT_SELFNORM;
  l->resolution_per_component = l->strength_linked;
  /* from a previous clustering (initial) one iteration unless told: that
   * clustering stands for the first (issue 57: the second moved 2 of 10^6
   * nodes and cost as much as the first) */
  const int from_initial = o->paths[EXO_OPT_INITIAL] && *o->paths[EXO_OPT_INITIAL];
  l->iterations = o->whole[EXO_OPT_ITERATIONS] ? (uint32_t)o->whole[EXO_OPT_ITERATIONS]
                  : from_initial                ? 1u
                                                : EXO_LEIDEN_DEFAULT_ITERATIONS;
  l->seed = o->whole[EXO_OPT_SEED];
  l->memory_limit = o->whole[EXO_OPT_MEMORY_LIMIT];
  l->max_lanes = o->max_lanes;
}

void exo_options_fill_dist(const exo_options *o, exo_dist_options *d) {
  fill_parse(o, &d->parse);
  d->directed = (int)o->num[EXO_OPT_MODE] == 1;
  d->min_weight = (float)o->num[EXO_OPT_MIN_WEIGHT];
  d->drop_self_loops = o->drop_self;
  d->combine = (exo_combine)o->combine;
  d->memory_limit = o->whole[EXO_OPT_MEMORY_LIMIT];
  d->max_visits = (uint32_t)o->whole[EXO_OPT_ITERATIONS];
  d->resolution = o->num[EXO_OPT_RESOLUTION];
  d->seed = o->whole[EXO_OPT_SEED];
  d->sep = (char)(int)o->num[EXO_OPT_SEP];
}

/* ---- the dump --------------------------------------------------------------------- */

typedef struct sbuf {
  char *p;
  size_t len, at;
} sbuf;

static void put(sbuf *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(EXO_PRINTF_STYLE, 2, 3)))
#endif
    ;
static void put(sbuf *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(s->at < s->len ? s->p + s->at : NULL, s->at < s->len ? s->len - s->at : 0,
                    fmt, ap);
  va_end(ap);
  if (k > 0) s->at += (size_t)k;
}

size_t exo_options_dump(const exo_options *o, char *buf, size_t len) {
  sbuf s = {buf, len, 0};
  if (len) buf[0] = 0;
  for (int i = 0; i < EXO_OPT_COUNT; i++) {
    const exo_opt_def *d = &table[i];
    put(&s, "%s=", d->name);
    if (AUTO(o, i) && o->auto_scale != 1.0) put(&s, "auto*%.17g ", o->auto_scale);
    else if (AUTO(o, i)) put(&s, "auto ");
    switch (d->type) {
    case EXO_OT_FLAG: put(&s, "%s\n", o->num[i] ? "true" : "false"); break;
    case EXO_OT_NUMBER: put(&s, "%.17g\n", o->num[i]); break;
    case EXO_OT_WHOLE: case EXO_OT_SIZE:
      put(&s, "%llu\n", (unsigned long long)o->whole[i]);
      break;
    case EXO_OT_CHOICE: {
      /* the input options as resolved against the format */
      int k = i == EXO_OPT_WEIGHT_TRANSFORM ? o->transform
              : i == EXO_OPT_SELF_HITS ? o->drop_self
              : i == EXO_OPT_COMBINE ? (o->combine == EXO_COMBINE_KEEP ? 0 : 1)
              : i == EXO_OPT_BRIDGES ? (o->bridges < 0 ? -1 : o->bridges ? 0 : 1)
              : (int)o->num[i];
      put(&s, "%s\n", k >= 0 ? d->choices[k] : "(unresolved)");
      break;
    }
    case EXO_OT_SEP: put(&s, "0x%02x\n", (unsigned)(int)o->num[i]); break;
    case EXO_OT_COLUMNS:
      put(&s, "%u,%u,%u\n", o->rcols[0], o->rcols[1], o->rcols[2]);
      break;
    case EXO_OT_PATH: {
      const char *path = i == EXO_OPT_TEMPDIR ? o->tempdir : o->paths[i];
      put(&s, "%s\n", path ? path : "");
      break;
    }
    }
  }
  /* which of the options whose defaults depend on others were given: every
   * driver must leave the same ones to the core's rules */
  put(&s, "given=");
  static const int ruled[] = {EXO_OPT_ALGORITHM, EXO_OPT_OBJECTIVE, EXO_OPT_RESOLUTION,
                              EXO_OPT_REFINE};
  for (size_t k = 0; k < sizeof ruled / sizeof ruled[0]; k++)
    if (GIVEN(o, ruled[k])) put(&s, "%s ", table[ruled[k]].name);
  put(&s, "\n");
  /* what the core's structs receive beyond the table's values */
  exo_build_options b;
  exo_lp_params p;
  exo_refine_params r;
  exo_leiden_params l;
  memset(&b, 0, sizeof b);
  memset(&p, 0, sizeof p);
  memset(&r, 0, sizeof r);
  memset(&l, 0, sizeof l);
  exo_options_fill_build(o, &b);
  exo_options_fill_lp(o, &p);
  exo_options_fill_refine(o, &r);
  exo_options_fill_leiden(o, &l);
  put(&s, "build.transform=%d\nbuild.drop_self_loops=%d\nbuild.combine=%d\n"
          "build.min_weight=%.9g\nbuild.threads=%d\nbuild.order_by_name=%d\n"
          "build.regions=%d\nbuild.weak_hits=%d\n",
      (int)b.parse.transform, b.drop_self_loops, (int)b.combine, (double)b.min_weight,
      b.parse.threads, b.order_by_name, b.regions, b.weak_hits);
  put(&s, "lp.max_visits=%u\nrefine.passes=%u\nleiden.objective=%d\n"
          "leiden.per_strength=%d\nleiden.linked=%d\nleiden.per_component=%d\n"
          "leiden.iterations=%u\n",
      p.max_visits, r.passes, (int)l.objective, l.resolution_per_strength, l.strength_linked,
      l.resolution_per_component, l.iterations);
  return s.at;
}

int exo_options_dump_if_asked(const exo_options *o, exo_error *err) {
  const char *path = getenv("EXOLABEL_DUMP_OPTIONS");
  if (!path || !*path) return 0;
  char buf[4096];
  size_t n = exo_options_dump(o, buf, sizeof buf);
  if (n >= sizeof buf) n = sizeof buf - 1;
  /* written as every result file is (exo_output.h): nothing replaced but
   * a regular file, no temporary left on error */
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_outfile f;
  exo_status s = exo_outfile_open(&f, path, sizeof buf, &ctx);
  if (!s) {
    s = exo_writer_write(&f.w, buf, n, &ctx);
    if (s) exo_outfile_abort(&f);
    else s = exo_outfile_commit(&f, &ctx);
  }
  if (s) {
    *err = ctx.err;
    return -1;
  }
  return 1;
}

/* ---- help ---------------------------------------------------------------------------- */

size_t exo_options_help(const exo_opt_def *d, char *buf, size_t len) {
  sbuf s = {buf, len, 0};
  if (len) buf[0] = 0;
  char name[64], head[96], text[1024];
  exo_options_display(d, EXO_OPT_STYLE_CLI, name, sizeof name);
  if (d->metavar) snprintf(head, sizeof head, "      %s %s", name, d->metavar);
  else snprintf(head, sizeof head, "      %s", name);
  /* in brackets: the R function's argument (tempdir is its tempfiledir) */
  const char *rarg = d->id == EXO_OPT_TEMPDIR ? "tempfiledir" : d->name;
  if (d->def[0]) snprintf(text, sizeof text, "%s (default %s) [%s]", d->help, d->def, rarg);
  else snprintf(text, sizeof text, "%s [%s]", d->help, rarg);
  /* wrap text at 79 columns from column 26 */
  size_t col;
  put(&s, "%s", head);
  col = strlen(head);
  if (col >= 25) {
    put(&s, "\n");
    col = 0;
  }
  const char *w = text;
  int first = 1;
  while (*w) {
    while (*w == ' ') w++;
    const char *e = w;
    while (*e && *e != ' ') e++;
    size_t wl = (size_t)(e - w);
    if (first) {
      put(&s, "%*s", (int)(26 - col), "");
      col = 26;
    } else if (col + 1 + wl > 79) {
      put(&s, "\n%26s", "");
      col = 26;
    } else {
      put(&s, " ");
      col++;
    }
    put(&s, "%.*s", (int)wl, w);
    col += wl;
    first = 0;
    w = e;
  }
  put(&s, "\n");
  return s.at;
}
