/* exo_options.h: every option the core takes from a user, defined once.
 *
 * One table (exo_options_table) gives each option's name, type, default,
 * limits, choices and help text. The drivers (the R glue, cli/exolabel.c,
 * mpi/exolabel_mpi.c) set options by name from text or from numbers, then
 * call exo_options_resolve() (the format's defaults, the cross-checks and
 * the adjustments that warn) and the exo_options_fill_* functions, which
 * write the core's parameter structs. A driver keeps only its own options
 * (output file, verbosity, help) and how it words an option's name: the
 * style argument (EXO_OPT_STYLE_CLI: "--memory-limit", EXO_OPT_STYLE_R:
 * 'memory_limit') is the only difference between the drivers' messages.
 *
 * Contract: no globals that change, no allocation (exo_options is a plain
 * value; tempdir points at the caller's string, which must outlive it).
 * Errors are EXO_EARG with a message naming the option and the bad value;
 * *o is unchanged by a failing set. Warnings (values adjusted, as the R
 * function always did) go to the warn callback, NULL = dropped.
 *
 * Text values: numbers as strtod reads them (finite); whole numbers in
 * decimal; sizes "123", "512MB", "2GB", "64MiB", "1.5G" (K, M, G, T powers
 * of 1024, optional "i" and "B", any case); choices in any case, a unique
 * prefix allowed; TRUE/FALSE (any case) where an option takes them (the R
 * function's logical values); "auto" where an option has it, and for the
 * resolution "auto*X" or "auto/X" (X > 0: X times, or 1/X of, the
 * automatic value; nested levels around it).
 *
 * EXOLABEL_DUMP_OPTIONS: every driver, when this environment variable names
 * a file, writes exo_options_dump() of the resolved options there and stops
 * before reading any input (tests/testthat/test-options-parity.R compares
 * the drivers). */
#ifndef EXO_OPTIONS_H
#define EXO_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "exo_dist.h"
#include "exo_leiden.h"
#include "exo_lp.h"
#include "exo_method_names.h"
#include "exo_pipeline.h"
#include "exo_refine.h"
#include "exo_status.h"

typedef enum exo_opt_id {
  EXO_OPT_MODE = 0,
  EXO_OPT_ADD_SELF_LOOPS,
  EXO_OPT_ATTENUATION,
  EXO_OPT_IGNORE_WEIGHTS,
  EXO_OPT_ITERATIONS,
  EXO_OPT_REFINE,
  EXO_OPT_ALGORITHM,
  EXO_OPT_OBJECTIVE,
  EXO_OPT_RESOLUTION,
  EXO_OPT_SEP,
  EXO_OPT_HEADER,
  EXO_OPT_FORMAT,
  EXO_OPT_COLUMNS,
  EXO_OPT_WEIGHT_TRANSFORM,
  EXO_OPT_MIN_WEIGHT,
  EXO_OPT_SELF_HITS,
  EXO_OPT_COMBINE,
  EXO_OPT_TEMPDIR,
  EXO_OPT_MEMORY_LIMIT,
  EXO_OPT_THREADS,
  EXO_OPT_SEED,
  EXO_OPT_ORDER,
  EXO_OPT_BRIDGES,
  EXO_OPT_INITIAL,
  EXO_OPT_KEEP_GRAPH,
  EXO_OPT_GRAPH,
  EXO_OPT_NESTED,
  EXO_OPT_COUNT
} exo_opt_id;

/* An option's bit in a mask of options (exo_options.given, a method's
 * refused options in exo_method_names.h). */
#define EXO_OPT_BIT(id) (1u << (id))

typedef enum exo_opt_type {
  EXO_OT_FLAG,    /* TRUE/FALSE (1/0) */
  EXO_OT_NUMBER,  /* a finite double within [min, max] */
  EXO_OT_WHOLE,   /* a whole number within [min, max] (uint64) */
  EXO_OT_SIZE,    /* bytes, >= min */
  EXO_OT_CHOICE,  /* one of choices (index) */
  EXO_OT_SEP,     /* one byte other than CR, LF: "\t", tab, comma, space */
  EXO_OT_COLUMNS, /* "A,B" or "A,B,W" (1-based) */
  EXO_OT_PATH     /* a path (tempdir: a directory; initial: a file), the
                     caller's string kept in exo_options.paths */
} exo_opt_type;

/* threads above this are capped at it (exo_options_resolve) */
#define EXO_OPT_MAX_THREADS 256u

/* flags of a definition */
#define EXO_OPTF_LOGICAL 1u /* TRUE/FALSE accepted as 1/0 (WHOLE: TRUE = logical_true) */
#define EXO_OPTF_AUTO 2u    /* "auto" accepted */
#define EXO_OPTF_NO_DEFAULT 4u /* default depends on --format (def is "") */

typedef struct exo_opt_def {
  exo_opt_id id;
  const char *name;     /* R's argument name ("memory_limit"); the CLI's long
                           option is the same with '-' for '_' */
  exo_opt_type type;
  unsigned flags;
  const char *def;      /* the default, as text a user could give */
  double min, max;      /* NUMBER, WHOLE, SIZE (min only) */
  double logical_true;  /* WHOLE with EXO_OPTF_LOGICAL: the value of TRUE */
  const char *const *choices; /* CHOICE: NULL-terminated, lower case */
  const char *metavar;  /* the CLI's argument ("SIZE"); NULL = a flag */
  const char *help;     /* one-paragraph description, without the default */
} exo_opt_def;

/* The table, EXO_OPT_COUNT entries in exo_opt_id order. */
const exo_opt_def *exo_options_table(void);
/* The definition named `name` ("memory_limit" or "memory-limit"), or NULL. */
const exo_opt_def *exo_options_find(const char *name);

typedef enum exo_opt_style { EXO_OPT_STYLE_CLI = 0, EXO_OPT_STYLE_R = 1 } exo_opt_style;

typedef void (*exo_opt_warn_fn)(void *user, const char *text);

typedef struct exo_options {
  exo_opt_style style;     /* how messages name options */
  uint32_t given;          /* bit id: set by the driver */
  uint32_t is_auto;        /* bit id: "auto" given */
  double auto_scale;       /* resolution "auto*X" (X) or "auto/X" (1/X): the
                              automatic value times this; 1 for "auto" */
  double num[EXO_OPT_COUNT];   /* FLAG, NUMBER, CHOICE (index), SEP (byte) */
  uint64_t whole[EXO_OPT_COUNT]; /* WHOLE, SIZE */
  uint32_t cols[3];
  int ncols;               /* 0 = the format's columns */
  const char *tempdir;     /* "" or NULL = $TMPDIR or /tmp (caller's string;
                              paths[EXO_OPT_TEMPDIR]) */
  const char *paths[EXO_OPT_COUNT]; /* PATH options: the caller's string, NULL
                              or "" = none (initial: the previous clustering,
                              exo_initial.h; keep_graph, graph: exo_keep.h) */
  int allow_oversubscribe; /* threads above the cores kept (R's test option) */
  uint32_t max_lanes;      /* testing hook, not an option: copied to the lp and
                              leiden params' max_lanes (exo_lp.h); 0 = none */
  /* set by exo_options_resolve() */
  int resolved;
  int blast_default;       /* --format blast chose Leiden CPM auto */
  int transform, drop_self, combine; /* resolved input options */
  int bridges;             /* resolved: 1 = the bridge rules (exo_regions.h) */
  uint32_t rcols[3];       /* resolved columns (rcols[2] 0 = no weight) */
} exo_options;

/* choice indices; algorithm's are the methods' (exo_method_names.h) */
enum { EXO_OPT_LP = EXO_METHOD_lp, EXO_OPT_LEIDEN = EXO_METHOD_leiden };
enum { EXO_OPT_MODULARITY = 0, EXO_OPT_CPM = 1 };
enum { EXO_OPT_EDGES = 0, EXO_OPT_BLAST = 1 };
enum { EXO_OPT_APPEARANCE = 0, EXO_OPT_BY_NAME = 1 };
enum { EXO_OPT_CUT = 0, EXO_OPT_KEEP_BRIDGES = 1 };
/* --format blast's weight transform (exo_parse.h) */
#define EXO_OPT_BLAST_TRANSFORM EXO_WT_SELFNORM

/* Every option at its default. */
void exo_options_init(exo_options *o, exo_opt_style style);
/* Set `name` from text. */
exo_status exo_options_set(exo_options *o, const char *name, const char *value, exo_error *err);
/* Set `name` from text as a driver's own default (exolabel-mpi's one
 * thread per rank): the value changes, the option does not count as given
 * (the rules that depend on what the user gave see it as not given). */
exo_status exo_options_set_default(exo_options *o, const char *name, const char *value,
                                   exo_error *err);
/* Set `name` from a number (R's numeric and logical values): FLAG 0/1,
 * NUMBER, WHOLE (must be whole), SIZE (bytes, floor). CHOICE, SEP, COLUMNS
 * and PATH take text only (the R glue gives columns as "2,1,12"). */
exo_status exo_options_set_number(exo_options *o, const char *name, double value,
                                  exo_error *err);
/* The format's defaults, the checks between options, and the adjustments:
 * negative add_self_loops -> 0, add_self_loops with ignore_weights -> 0/1,
 * iterations above EXO_LP_MAX_VISITS capped, threads 0 -> the cores, more
 * than the cores -> the cores (unless allow_oversubscribe), at most 256;
 * each adjustment is reported through warn. Resolving twice is harmless. */
exo_status exo_options_resolve(exo_options *o, exo_opt_warn_fn warn, void *user,
                               exo_error *err);

/* The core's structs from resolved options (fields these options do not
 * cover are left as they are: files, outputs, test knobs). */
void exo_options_fill_build(const exo_options *o, exo_build_options *b);
void exo_options_fill_lp(const exo_options *o, exo_lp_params *p);
void exo_options_fill_refine(const exo_options *o, exo_refine_params *r);
void exo_options_fill_leiden(const exo_options *o, exo_leiden_params *l);
void exo_options_fill_dist(const exo_options *o, exo_dist_options *d);

/* Accessors of resolved values */
static inline int exo_options_leiden(const exo_options *o) {
  return (int)o->num[EXO_OPT_ALGORITHM] == EXO_OPT_LEIDEN;
}
static inline uint64_t exo_options_memory(const exo_options *o) {
  return o->whole[EXO_OPT_MEMORY_LIMIT];
}
/* The previous clustering to start from (option initial), or NULL. */
static inline const char *exo_options_initial(const exo_options *o) {
  const char *p = o->paths[EXO_OPT_INITIAL];
  return p && *p ? p : NULL;
}

/* The canonical dump: "name=value\n" for every option (resolved values,
 * then the structs' fields the drivers fill), into buf (NUL-terminated,
 * truncated at len). Returns the length it needs. */
size_t exo_options_dump(const exo_options *o, char *buf, size_t len);
/* If getenv("EXOLABEL_DUMP_OPTIONS") names a file: writes the dump there
 * as a result file is written (exo_outfile, exo_output.h)
 * and returns 1 (the driver stops), or -1 with err set when it cannot;
 * 0 when the variable is unset or empty. */
int exo_options_dump_if_asked(const exo_options *o, exo_error *err);

/* The option's name as a driver's messages spell it. */
const char *exo_options_display(const exo_opt_def *d, exo_opt_style style, char *buf,
                                size_t len);
/* The CLI's help lines for one option ("      --memory-limit SIZE ..."),
 * wrapped at 79 columns, the default appended; into buf. */
size_t exo_options_help(const exo_opt_def *d, char *buf, size_t len);

/* Parsers, exported for the drivers' own options: return 0 and set *out,
 * or -1. */
int exo_opt_parse_whole(const char *s, uint64_t *out);
int exo_opt_parse_size(const char *s, uint64_t *out);
int exo_opt_parse_sep(const char *s, char *out);

#endif
