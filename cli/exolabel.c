/* exolabel: the command-line form of ExoLabel(), built from the same C core.
 *
 *   exolabel [options] [FILE ...]   (no FILE or "-": standard input)
 *
 * Options mirror the R function's arguments (see --help). The clusters go to
 * --out or standard output as "name<sep>cluster" lines, the same bytes the R
 * function writes for the same input, options and seed (R reports its seed
 * in attr(res, "stats")$seed). Exit codes are listed in usage(). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exo_advice.h"
#include "exo_clstats.h"
#include "exo_initial.h"
#include "exo_io.h"
#include "exo_method.h"
#include "exo_options.h"
#include "exo_opts.h"
#include "exo_nested.h"
#include "exo_pipeline.h"

#define EXIT_USAGE EXO_EXIT_USAGE
#define EXIT_NOMEM EXO_EXIT_NOMEM
#define EXIT_INTERRUPTED EXO_EXIT_INTERRUPTED

static const char *prog = "exolabel";

static void usage(FILE *f) {
  fprintf(f,
"Usage: exolabel [options] [FILE ...]\n"
"Cluster a graph out of memory: label propagation, Leiden or connected\n"
"components (--algorithm). FILE holds edges (\"A<sep>B<sep>W\" or \"A<sep>B\"\n"
"per line, plain or gzip) or, with --format blast, DIAMOND/BLAST+/MMseqs2\n"
"tabular hits, clustered into protein families by Leiden with CPM at\n"
"--resolution auto unless --algorithm, --objective or --resolution is given\n"
"(exolabel --format blast hits.tsv -o clusters.tsv). Without FILE, or with\n"
"FILE \"-\", the edges are read from standard input. Each output line is\n"
"\"name<sep>cluster\", nodes in order of first appearance (--order name: by\n"
"name).\n"
"\n"
"Options (the R function's argument in brackets; the core's options come\n"
"from one table, src/core/exo_options.c, as the R function's do):\n"
"  -o, --out FILE          write the clusters to FILE (default: standard output)\n"
"                          [outfile]; a regular FILE is written beside it and\n"
"                          renamed over it at the end (a link FILE is replaced,\n"
"                          its target untouched), missing folders are created;\n"
"                          a device, a FIFO or a link to a descriptor\n"
"                          (/dev/stdout) is written through, never replaced\n"
"  -d, --directed          same as --mode directed\n");
  char buf[2048];
  const exo_opt_def *t = exo_options_table();
  for (int i = 0; i < EXO_OPT_COUNT; i++) {
    exo_options_help(&t[i], buf, sizeof buf);
    if (t[i].id == EXO_OPT_MODE) memcpy(buf, "  -m,", 5); /* its short form */
    fputs(buf, f);
  }
  fprintf(f,
"  (--seed: R's seed is attr(res, \"stats\")$seed)\n"
"  -v, --verbose           progress, one line per stage, and statistics on\n"
"                          standard error [verbose]; -vv also the internals\n"
"                          (threads, CPU seconds, how each level was built)\n"
"      --cluster-table FILE  also write one line per cluster to FILE (\"-\":\n"
"                          standard output, when --out names a file): Cluster,\n"
"                          Size, InternalWeight, ExternalWeight, Density,\n"
"                          Representative (the member with the largest weight\n"
"                          of edges to the other members), after a header line\n"
"                          of these names (R's columns); a device or FIFO is\n"
"                          written into, as -o [cluster_table]; with --nested\n"
"                          every level's table, led by a column Level (1..L)\n"
"      --sequences FILE    every sequence of FILE appears in the output\n"
"                          [sequences]:\n"
"                          a FASTA file (plain or gzip; a record's name is its\n"
"                          header up to the first space or tab, as in the\n"
"                          search tools' output) or a list of names, one per\n"
"                          line; those without an edge come after the nodes of\n"
"                          the edges, each its own cluster; nodes of the edges\n"
"                          not in FILE are kept, with a warning\n"
"      --representatives FILE  also write \"representative<sep>member\" for\n"
"                          every node to FILE, in the order of the clusters\n"
"                          (MMseqs2's *_cluster.tsv; the representative of\n"
"                          --cluster-table)\n"
"      --rep-fasta FILE    also write the representatives' records of the\n"
"                          --sequences FASTA to FILE, in its order (MMseqs2's\n"
"                          *_rep_seq.fasta)\n"
"      --stats             print run statistics (key<TAB>value) on standard error\n"
"      --fail-empty        exit 3, writing nothing, when the input holds no edge\n"
"                          between two different nodes (an empty or failed\n"
"                          search upstream); without it such input gives a\n"
"                          warning and every node its own cluster\n"
"  -h, --help              this help\n"
"      --version           the version\n"
"\n"
"Exit codes:\n"
"  0    success\n"
"  2    invalid command line\n"
"  3    malformed input (the message names file and line) or a hard limit\n"
"  4    I/O error, including a full disk, an unreadable file, or standard\n"
"       output closed by its reader (a broken pipe, e.g. '| head')\n"
"  5    out of memory\n"
"  70   internal error (a bug)\n"
"  130  interrupted (SIGINT or SIGTERM); temporary files are removed\n");
}

static void die_usage(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", prog);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\nTry '%s --help'.\n", prog);
  va_end(ap);
  exit(EXIT_USAGE);
}

/* The exit code after printing --help or --version: 0, or EXO_EXIT_IO when
 * standard output could not take it (a full device, a closed pipe). */
static int flush_stdout(void) {
  if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
  fprintf(stderr, "%s: error: cannot write to standard output: %s\n", prog, strerror(errno));
  return EXO_EXIT_IO;
}

static void cli_warn(void *user, const char *text) {
  (void)user;
  fprintf(stderr, "%s: warning: %s\n", prog, text);
}

/* ---- callbacks --------------------------------------------------------- */

static volatile sig_atomic_t got_signal = 0;
static void on_signal(int sig) { got_signal = sig; }

typedef struct cli_state {
  int verbose;
  int tty;
  int stage;
  uint64_t base, last_done, total;
  double started, last_report;
  int leiden; /* set once Leiden runs: its levels are sorted with the merge
                 and CSR stages */
  const exo_method *method; /* set once clustering starts: names its stage */
} cli_state;


static int cb_interrupted(void *user) {
  (void)user;
  return got_signal != 0;
}

/* A count with its unit: bytes (reading files) in KiB, MiB, ...; other
 * counts in k, M, ... followed by the unit (exo_advice_amount). */
static void put_amount(double x, int bytes, const char *unit) {
  char buf[64];
  exo_advice_amount(x, bytes, buf, sizeof buf);
  if (bytes) fputs(buf, stderr);
  else fprintf(stderr, "%s %s", buf, unit);
}

static void report(cli_state *s, int final) {
  double secs = exo_now_seconds() - s->started;
  uint64_t done = s->base + s->last_done;
  /* units of each stage's counts: the parser counts the bytes of the input
   * files, the sort its records (two per edge), clustering node visits (label
   * propagation) or nodes (Leiden), the output nodes */
  const int bytes = s->stage == EXO_STAGE_PARSE;
  const char *unit = s->stage == EXO_STAGE_MERGE || s->stage == EXO_STAGE_CSR ? "arcs"
                     : s->stage == EXO_STAGE_CLUSTER &&
                               (!s->method || s->method == &exo_methods()[EXO_METHOD_lp])
                         ? "node visits" : "nodes";
  const char *name = exo_stage_name((exo_stage)s->stage);
  if (s->leiden && (s->stage == EXO_STAGE_MERGE || s->stage == EXO_STAGE_CSR))
    name = "leiden: aggregating a level";
  else if (s->leiden && s->stage == EXO_STAGE_CLUSTER)
    name = "leiden";
  else if (s->method && s->method != &exo_methods()[EXO_METHOD_lp] &&
           s->stage == EXO_STAGE_CLUSTER)
    name = s->method->stage; /* label propagation's is "clustering", as before */
  fprintf(stderr, "%sexolabel: %s: ", s->tty ? "\r" : "", name);
  put_amount((double)done, bytes, unit);
  if (s->total && !final) {
    fputs(" of ", stderr);
    put_amount((double)s->total, bytes, unit);
  }
  fprintf(stderr, " in %.1f s", secs);
  if (secs > 0.05) {
    fputs(" (", stderr);
    put_amount((double)done / secs, bytes, unit);
    fputs("/s)", stderr);
  }
  if (!final && s->total > done && done > 0 && secs >= 1.0) { /* at this stage's pace */
    double left = secs * (double)(s->total - done) / (double)done;
    if (left < 90) fprintf(stderr, ", %.0f s left", left);
    else if (left < 5400) fprintf(stderr, ", %.0f min left", left / 60);
    else fprintf(stderr, ", %.1f h left", left / 3600);
  }
  fputs(final || !s->tty ? "\n" : "   ", stderr);
}

/* Whether the current stage is one of Leiden's steps (clustering, or the
 * sort and merge of an aggregation), not the output after it. */
static int inside_leiden(const cli_state *s) {
  return s->leiden && s->stage != EXO_STAGE_OUTPUT;
}

static void cb_progress(void *user, exo_stage stage, uint64_t done, uint64_t total) {
  cli_state *s = user;
  if (!s->verbose) return;
  double now = exo_now_seconds();
  if ((int)stage != s->stage) {
    /* within Leiden the core says one line per level (cb_message); the
     * counts of its steps are internals */
    if (s->stage >= 0 && (!inside_leiden(s) || s->verbose >= 2)) report(s, 1);
    else if (s->stage >= 0 && s->tty) fputs("\r\033[K", stderr);
    s->stage = (int)stage;
    s->base = s->last_done = 0;
    s->total = total;
    s->started = s->last_report = now;
  }
  if (done < s->last_done) s->base += s->last_done;
  s->last_done = done;
  if (now - s->last_report >= (s->tty ? 0.25 : 10.0)) {
    s->last_report = now;
    report(s, 0);
  }
}

static void cb_message(void *user, const char *text) {
  cli_state *s = user;
  if (!s->verbose) return;
  if (s->stage >= 0 && !inside_leiden(s)) { /* what came before, in order */
    report(s, 1);
    s->stage = -1;
  } else if (s->tty && s->stage >= 0) {
    fputs("\r\033[K", stderr); /* over a live progress line */
  }
  fprintf(stderr, "exolabel: %s\n", text);
}

/* the core's internals (exo_ctx.h): -vv */
static void cb_detail(void *user, const char *text) {
  cli_state *s = user;
  if (s->verbose < 2) return;
  if (s->tty && s->stage >= 0) fputs("\r\033[K", stderr);
  fprintf(stderr, "exolabel: [debug] %s\n", text);
}

static uint64_t memory_limit_given; /* --memory-limit, for fail()'s message */

static int fail(const exo_ctx *ctx, exo_status st) {
  if (st == EXO_EINTR || got_signal) {
    fprintf(stderr, "%s: interrupted\n", prog);
    return EXIT_INTERRUPTED;
  }
  fprintf(stderr, "%s: error: %s", prog,
          ctx->err.msg[0] ? ctx->err.msg : exo_status_name(st));
  if (st == EXO_ENOMEM) {
    char advice[512];
    exo_advice_oom(EXO_OPT_STYLE_CLI, memory_limit_given, advice, sizeof advice);
    fputs(advice, stderr);
  }
  fputc('\n', stderr);
  return exo_opt_exit_code(st);
}

/* Create the missing folders above the output `path`, as the R function
 * does; 0, or an exit code after a message naming the folder. */
static int make_parents(const char *path) {
  size_t n = strlen(path);
  if (!n || path[n - 1] == '/') return 0; /* refused later as a directory */
  char *p = strdup(path);
  if (!p) {
    fprintf(stderr, "%s: error: out of memory\n", prog);
    return EXIT_NOMEM;
  }
  int rc = 0;
  for (size_t i = 1; i < n && !rc; i++) {
    if (p[i] != '/' && !(EXO_PATH_BACKSLASH && p[i] == '\\')) continue;
    char c = p[i];
    p[i] = '\0';
    uint64_t size = 0;
    int kind = 0;
    if (exo_path_stat(p, &size, &kind) != 0 && exo_make_dir(p) != 0 && errno != EEXIST) {
      fprintf(stderr, "%s: error: cannot create the folder '%s' for '%s': %s\n", prog, p, path,
              strerror(errno));
      rc = EXO_EXIT_IO;
    }
    p[i] = c;
  }
  free(p);
  return rc;
}

/* Copy a file to standard output through a large buffer. */
static exo_status copy_to_stdout(const char *path, exo_ctx *ctx) {
  fflush(stdout); /* before raw writes to its descriptor */
  int fd = exo_open(path, EXO_OPEN_READ);
  if (fd < 0) return exo_error_errno(&ctx->err, errno, "open", path);
  size_t cap = (size_t)1 << 20;
  char *buf = malloc(cap);
  if (!buf) {
    exo_close(fd);
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory");
  }
  exo_status st = EXO_OK;
  for (;;) {
    int64_t k = exo_read(fd, buf, cap);
    if (k < 0) {
      st = exo_error_errno(&ctx->err, errno, "read", path);
      break;
    }
    if (k == 0) break;
    if (exo_write_stdout(buf, (size_t)k) != 0) {
      if (errno == EPIPE)
        st = exo_error_set(&ctx->err, EXO_EIO,
                           "cannot write to standard output: its reader closed the pipe "
                           "(broken pipe); the output is incomplete");
      else
        st = exo_error_errno(&ctx->err, errno, "write to", "standard output");
      break;
    }
  }
  free(buf);
  exo_close(fd);
  return st;
}

int main(int argc, char **argv) {
  exo_args_utf8(&argc, &argv); /* Windows: UTF-8 paths */
  /* the driver's own options, then one long option per entry of the core's
   * table (exo_options.h), named as there with '-' for '_' */
  enum { OPT_STATS = 256, OPT_VERSION, OPT_TABLE, OPT_FAIL_EMPTY, OPT_SEQUENCES, OPT_MEMBERS,
         OPT_REP_FASTA, OPT_CORE = 512 };
  static const struct option own[] = {
      {"out", required_argument, 0, 'o'},
      {"directed", no_argument, 0, 'd'},
      {"verbose", no_argument, 0, 'v'},
      {"stats", no_argument, 0, OPT_STATS},
      {"fail-empty", no_argument, 0, OPT_FAIL_EMPTY},
      {"cluster-table", required_argument, 0, OPT_TABLE},
      {"sequences", required_argument, 0, OPT_SEQUENCES},
      {"representatives", required_argument, 0, OPT_MEMBERS},
      {"rep-fasta", required_argument, 0, OPT_REP_FASTA},
      {"help", no_argument, 0, 'h'},
      {"version", no_argument, 0, OPT_VERSION},
  };
  exo_opt_longopts lo;
  exo_opt_longopts_build(&lo, own, (int)(sizeof own / sizeof own[0]), OPT_CORE);
  const struct option *longopts = lo.opts;
  const exo_opt_def *defs = exo_options_table();
  const char *out = NULL;
  const char *table = NULL; /* --cluster-table */
  const char *sequences = NULL, *members = NULL, *rep_fasta = NULL;
  int verbose = 0, stats = 0, fail_empty = 0;
  exo_options o;
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  exo_error oerr;
  exo_error_clear(&oerr);
  int c;
  int seen_out = 0;
  const char *res_list = NULL; /* --resolution A,B,...: the nested levels' */
  char res_one[128];           /* its first value */
  uint32_t seen = 0; /* core options given so far (exo_opt_given_twice) */
  while ((c = getopt_long(argc, argv, "o:m:dvh", longopts, NULL)) != -1) {
    const char *name = NULL, *value = optarg;
    switch (c) {
    case 'o':
      if (seen_out++) die_usage("--out given twice: give each option once");
      if (!*optarg) die_usage("--out needs a file name (\"-\" for standard output)");
      out = optarg;
      break;
    case 'm': name = "mode"; break;
    case 'd': name = "mode"; value = "directed"; break;
    case 'v': verbose++; break;
    case OPT_STATS: stats = 1; break;
    case OPT_FAIL_EMPTY: fail_empty = 1; break;
    case OPT_TABLE:
      if (table) die_usage("--cluster-table given twice: give each option once");
      if (!*optarg) die_usage("--cluster-table needs a file name");
      table = optarg;
      break;
    case OPT_SEQUENCES:
    case OPT_MEMBERS:
    case OPT_REP_FASTA: {
      const char **slot = c == OPT_SEQUENCES ? &sequences : c == OPT_MEMBERS ? &members : &rep_fasta;
      const char *oname = c == OPT_SEQUENCES ? "--sequences"
                          : c == OPT_MEMBERS ? "--representatives" : "--rep-fasta";
      if (*slot) die_usage("%s given twice: give each option once", oname);
      if (!*optarg) die_usage("%s needs a file name", oname);
      *slot = optarg;
      break;
    }
    case 'h': usage(stdout); return flush_stdout();
    case OPT_VERSION: puts("exolabel 0.99.5"); return flush_stdout();
    default:
      if (c >= OPT_CORE && c < OPT_CORE + EXO_OPT_COUNT) {
        name = defs[c - OPT_CORE].name;
        if (!defs[c - OPT_CORE].metavar) value = "true";
        break;
      }
      fprintf(stderr, "Try '%s --help'.\n", prog);
      return EXIT_USAGE;
    }
    if (name && !strcmp(name, "resolution") && strchr(value, ',')) {
      /* a comma list: one resolution per nested level, each checked by
       * the table; the first stands for them until the levels are made */
      res_list = value;
      for (const char *q = value; q;) {
        const char *comma = strchr(q, ',');
        size_t len = comma ? (size_t)(comma - q) : strlen(q);
        if (len >= sizeof res_one) len = sizeof res_one - 1;
        char one[sizeof res_one];
        memcpy(one, q, len);
        one[len] = '\0';
        exo_options scratch = o;
        if (exo_options_set(&scratch, name, one, &oerr)) die_usage("%s", oerr.msg);
        if (q == value) memcpy(res_one, one, len + 1);
        q = comma ? comma + 1 : NULL;
      }
      value = res_one;
    }
    if (name) {
      /* an option given twice is refused: a script that sets it twice means
       * one of the two, and the other would be dropped without a word */
      if (exo_opt_given_twice(&seen, name))
        for (int k = 0; k < EXO_OPT_COUNT; k++)
          if (!strcmp(defs[k].name, name))
            die_usage("%s%s given twice: give each option once", lo.names[k],
                      defs[k].id == EXO_OPT_MODE ? " (or -m, -d)" : "");
      if (exo_options_set(&o, name, value, &oerr)) die_usage("%s", oerr.msg);
    }
  }
  /* the format's defaults, the checks between options and the R function's
   * adjustments, with the same warnings */
  const exo_options o_given = o; /* before resolving: each nested level's start */
  if (exo_options_resolve(&o, cli_warn, NULL, &oerr)) die_usage("%s", oerr.msg);
  /* nested levels: one option set per resolution of the comma list */
  const int nested = o.num[EXO_OPT_NESTED] != 0;
  uint32_t nlevels = 0;
  exo_options *levels = NULL;
  if (res_list && !nested)
    die_usage("--resolution %s: a comma list of resolutions is for --nested (one per nested "
              "level); without --nested give one resolution", res_list);
  if (nested) {
    nlevels = 1;
    for (const char *q = res_list; q && *q; q++) nlevels += *q == ',';
    if (!res_list)
      die_usage("--nested needs two resolutions or more, as a comma list from the finest to "
                "the coarsest or in any order: e.g. --resolution 0.2,0.05,0.01");
    if (nlevels > EXO_NESTED_MAX_LEVELS)
      die_usage("--nested takes at most %u resolutions (%u given)", EXO_NESTED_MAX_LEVELS,
                nlevels);
    levels = calloc(nlevels, sizeof *levels);
    if (!levels) {
      fprintf(stderr, "%s: error: out of memory\n", prog);
      return EXIT_NOMEM;
    }
    const char *q = res_list;
    for (uint32_t k = 0; k < nlevels; k++) {
      const char *comma = strchr(q, ',');
      char one[128];
      size_t len = comma ? (size_t)(comma - q) : strlen(q);
      if (len >= sizeof one) len = sizeof one - 1;
      memcpy(one, q, len);
      one[len] = '\0';
      levels[k] = o_given;
      if (exo_options_set(&levels[k], "resolution", one, &oerr) ||
          exo_options_resolve(&levels[k], NULL, NULL, &oerr))
        die_usage("%s", oerr.msg);
      q = comma ? comma + 1 : q + len;
    }
  }
  {
    int dumped = exo_options_dump_if_asked(&o, &oerr);
    if (dumped < 0) {
      fprintf(stderr, "%s: error: %s\n", prog, oerr.msg);
      return EXO_EXIT_IO;
    }
    if (dumped) return 0;
  }
  const int input_chosen = (o.given >> EXO_OPT_FORMAT | o.given >> EXO_OPT_COLUMNS |
                            o.given >> EXO_OPT_WEIGHT_TRANSFORM) & 1u;
  const int leiden = exo_options_leiden(&o);
  const uint64_t refine = o.whole[EXO_OPT_REFINE], seed = o.whole[EXO_OPT_SEED];
  const uint64_t header = o.whole[EXO_OPT_HEADER];
  const char sep = (char)(int)o.num[EXO_OPT_SEP];
  memory_limit_given = exo_options_memory(&o);
  const char *tempdir = o.tempdir && *o.tempdir ? o.tempdir : NULL;
  char *default_tempdir = NULL;
  if (!tempdir) {
    tempdir = default_tempdir = exo_default_tempdir();
    if (!tempdir) {
      fprintf(stderr, "%s: error: out of memory\n", prog);
      return EXIT_NOMEM;
    }
  }
  int to_stdout = !out || !strcmp(out, "-");
  int table_stdout = table && !strcmp(table, "-");
  if (table_stdout && to_stdout)
    die_usage("--cluster-table - needs --out FILE: the clusters already go to standard output");
  if (rep_fasta && !sequences)
    die_usage("--rep-fasta needs --sequences FASTA: the sequences to copy the representatives' "
              "records from");
  if (sequences && !strcmp(sequences, "-"))
    die_usage("--sequences needs a file: standard input holds the edges");
  if (exo_options_initial(&o) && !strcmp(exo_options_initial(&o), "-"))
    die_usage("--initial needs a file: standard input holds the edges");
  if ((members && !strcmp(members, "-")) || (rep_fasta && !strcmp(rep_fasta, "-")))
    die_usage("--representatives and --rep-fasta need a file name (not \"-\")");

  {
    int rc = to_stdout ? 0 : make_parents(out);
    if (!rc && table && !table_stdout) rc = make_parents(table);
    if (!rc && members) rc = make_parents(members);
    if (!rc && rep_fasta) rc = make_parents(rep_fasta);
    if (rc) {
      free(default_tempdir);
      return rc;
    }
  }

#ifdef _WIN32
  signal(SIGINT, on_signal); /* no sigaction, no SIGPIPE */
  signal(SIGTERM, on_signal);
#else
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
#endif

  cli_state state = {verbose, isatty(STDERR_FILENO), -1, 0, 0, 0, 0, 0, 0, NULL};
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ctx.cb.user = &state;
  ctx.cb.interrupted = cb_interrupted;
  ctx.cb.progress = cb_progress;
  ctx.cb.message = cb_message;
  ctx.cb.detail = cb_detail;

  exo_build_options opt;
  memset(&opt, 0, sizeof opt);
  exo_options_fill_build(&o, &opt);
  opt.tempdir_base = tempdir;
  /* the core refuses an output that is an input (or inside the private
   * directory) before reading anything */
  const char *out_list[4] = {out, NULL, NULL, NULL};
  if (!to_stdout) {
    opt.outputs = out_list;
    opt.noutputs = 1;
  }
  if (table && !table_stdout) { /* checked as the clusters file is */
    out_list[opt.noutputs++] = table;
    opt.outputs = out_list;
    exo_status ts = exo_clstats_check_path(table, &ctx);
    if (ts) {
      free(default_tempdir);
      return fail(&ctx, ts);
    }
  }
  if (members || rep_fasta) {
    if (!opt.noutputs) opt.outputs = out_list + 1; /* not "-" */
    if (members) ((const char **)opt.outputs)[opt.noutputs++] = members;
    if (rep_fasta) ((const char **)opt.outputs)[opt.noutputs++] = rep_fasta;
  }
  /* the inputs the outputs are checked against: the edge files and
   * --sequences */
  const char **in_list = calloc((size_t)(argc - optind) + 2, sizeof *in_list);
  if (!in_list) {
    free(default_tempdir);
    fprintf(stderr, "%s: error: out of memory\n", prog);
    return EXIT_NOMEM;
  }
  for (int i = optind; i < argc; i++) in_list[opt.nfiles++] = argv[i];
  if (sequences) in_list[opt.nfiles++] = sequences;
  opt.files = in_list;

  if (!input_chosen)
    for (int i = optind; i < argc; i++)
      if (strcmp(argv[i], "-") && exo_advice_looks_like_search_output(argv[i], sep, header)) {
        char subject[4200], text[4800];
        snprintf(subject, sizeof subject, "%s looks", argv[i]);
        exo_advice_search_output(EXO_OPT_STYLE_CLI, subject, text, sizeof text);
        fprintf(stderr, "%s: warning: %s\n", prog, text);
        break;
      }

  double t0 = exo_now_seconds();
  exo_builder *b = NULL;
  exo_status st = exo_builder_create(&opt, &ctx, &b);
  free(default_tempdir); /* the builder has made its directory */
  free(in_list);        /* only checked against */
  if (st) return fail(&ctx, st);
  if (optind >= argc) {
    st = exo_builder_add_file(b, "/dev/stdin", &ctx);
  } else {
    for (int i = optind; i < argc && !st; i++)
      st = exo_builder_add_file(b, strcmp(argv[i], "-") ? argv[i] : "/dev/stdin", &ctx);
  }
  if (!st && sequences) st = exo_builder_add_sequences(b, sequences, &ctx);
  if (st) {
    exo_builder_abort(b);
    return fail(&ctx, st);
  }
  exo_graph *g = NULL;
  st = exo_builder_finish(b, &ctx, &g);
  if (st) return fail(&ctx, st);
  if (rep_fasta && !g->listed_fasta) {
    fprintf(stderr, "%s: error: --rep-fasta needs --sequences FASTA: %s is a list of names, not "
            "FASTA (its first non-blank line does not start with '>'); nothing was written\n", prog,
            sequences);
    exo_graph_free(g);
    return EXO_EXIT_INPUT;
  }
  if (fail_empty && g->num_edges == 0) {
    fprintf(stderr, "%s: error: --fail-empty: the input has no edge between two different "
            "nodes with a positive weight (%" PRIu64 " node(s)%s); nothing was written\n", prog,
            g->num_nodes, g->num_self_dropped ? ", only self hits" : "");
    exo_graph_free(g);
    return EXO_EXIT_INPUT;
  }
  /* the R function's warnings, on standard error */
  if (g->num_nodes == 0)
    fprintf(stderr, "%s: warning: the input has no edges (empty, or only blank, header or comment lines): "
            "the result is empty\n", prog);
  else if (g->num_edges == 0 && g->num_self_dropped > 0)
    fprintf(stderr, "%s: warning: no edge with a positive weight between two different "
            "nodes: the self hits (edges from a node to itself) were dropped (--self-hits "
            "drop, the default of --format blast); every node is its own cluster\n", prog);
  else if (g->num_edges == 0)
    fprintf(stderr, "%s: warning: no edge with a positive weight: every node is its own "
            "cluster\n", prog);
  if (g->num_unlisted)
    fprintf(stderr, "%s: warning: %" PRIu64 " node(s) of the edges are not among the "
            "sequences of %s: they are kept\n", prog, g->num_unlisted, sequences);
  if (g->num_negative && opt.parse.transform == EXO_WT_NONE)
    fprintf(stderr, "%s: warning: %" PRIu64 " edge(s) with a negative weight were dropped "
            "(their nodes are kept); ExoLabel clusters on positive weights only\n", prog,
            g->num_negative);

  /* --initial: the previous clustering, read against the graph's names
   * (exo_initial.h): the start of label propagation and Leiden and the
   * stable ids of the output */
  exo_initial ini;
  memset(&ini, 0, sizeof ini);
  const char *initial = exo_options_initial(&o);
  if (initial) {
    st = exo_initial_read(&ini, initial, sep, g->names_path, g->num_nodes, &ctx);
    if (st) {
      exo_graph_free(g);
      return fail(&ctx, st);
    }
    g->initial = ini.initial;
    g->stable_old = ini.stable_old;
    g->stable_max = ini.max_old;
    if (ini.missing)
      fprintf(stderr, "%s: warning: %" PRIu64 " name(s) of %s are not in the graph (the "
              "first: '%s'): their old clusters count without them\n", prog, ini.missing,
              initial, ini.first_missing);
  }
  /* testing hook (exo_lp.h, exo_leiden.h): cap the lanes, e.g. 1 for the
   * sequential sweep */
  const char *max_lanes = getenv("EXOLABEL_MAX_LANES");
  if (max_lanes && *max_lanes) o.max_lanes = (uint32_t)strtoul(max_lanes, NULL, 10);
  for (uint32_t k = 0; k < nlevels; k++) levels[k].max_lanes = o.max_lanes;
  exo_cluster_result res;
  char *target = to_stdout ? exo_path_join(g->tmpdir, "clusters.out") : strdup(out);
  if (!target) {
    exo_graph_free(g);
    exo_initial_free(&ini);
    fprintf(stderr, "%s: error: out of memory\n", prog);
    return EXIT_NOMEM;
  }
  char *table_target = NULL; /* --cluster-table - : a file in the run's directory first */
  if (table) {
    table_target = table_stdout ? exo_path_join(g->tmpdir, "table.out") : strdup(table);
    if (!table_target) {
      free(target);
      exo_graph_free(g);
      exo_initial_free(&ini);
      fprintf(stderr, "%s: error: out of memory\n", prog);
      return EXIT_NOMEM;
    }
    g->cluster_table = table_target;
  }
  g->members_table = members;
  g->rep_fasta = rep_fasta;
  g->rep_fasta_from = rep_fasta ? sequences : NULL;
  if (leiden) {
    if (state.stage >= 0) report(&state, 1); /* the build's last stage, by its name */
    state.stage = -1;
    state.leiden = 1;
  }
  state.method = exo_method_of(&o);
  exo_cluster_result *lres = NULL;
  if (nested) {
    lres = calloc(nlevels, sizeof *lres);
    st = lres ? exo_graph_nested(g, levels, nlevels, target, sep, &ctx, lres)
              : EXO_FAIL(&ctx, EXO_ENOMEM, "out of memory");
    if (!st) res = lres[0];
  } else {
    st = exo_method_run(g, &o, target, sep, &ctx, &res);
  }
  if (!st && rep_fasta && res.rep_missing)
    fprintf(stderr, "%s: warning: %" PRIu64 " representative(s) have no record in %s: "
            "--rep-fasta lacks them\n", prog, res.rep_missing, sequences);
  if (!st && to_stdout) st = copy_to_stdout(target, &ctx);
  if (!st && table_stdout) st = copy_to_stdout(table_target, &ctx);
  if (state.verbose && state.stage >= 0 && (!inside_leiden(&state) || state.verbose >= 2))
    report(&state, 1);
  else if (state.verbose && state.stage >= 0 && state.tty)
    fputs("\r\033[K", stderr);
  if (!st && (stats || verbose)) {
    const int lp = state.method == &exo_methods()[EXO_METHOD_lp];
    fprintf(stderr,
            "nodes\t%" PRIu64 "\narcs\t%" PRIu64 "\nclusters\t%" PRIu64
            "\nlargest_cluster\t%" PRIu64 "\n",
            g->num_nodes, g->num_edges, res.num_clusters, res.largest);
    if (lp) /* the counters each method has (exo_cluster_result) */
      fprintf(stderr,
              "iterations\t%u\nlp_visits\t%" PRIu64 "\nlp_changes\t%" PRIu64
              "\nlp_sweeps\t%" PRIu64 "\n",
              res.max_visits, res.lp_visits, res.lp_changes, res.lp_sweeps);
    fprintf(stderr,
            "seed\t%" PRIu64 "\nsort_runs\t%" PRIu64 "\nmerge_passes\t%u\npeak_temp_disk\t%" PRIu64
            "\npeak_rss\t%.0f\nseconds\t%.3f\n",
            seed, g->sort.runs, g->sort.merge_passes, exo_run_peak_disk(g, &res),
            (double)exo_peak_rss(), exo_now_seconds() - t0);
    fprintf(stderr,
            "threads\t%d\nseconds_parse\t%.3f\nseconds_csr\t%.3f\nseconds_cluster\t%.3f"
            "\nseconds_output\t%.3f\n",
            g->threads, g->seconds_parse, g->seconds_csr, res.seconds_cluster,
            res.seconds_output);
    for (uint32_t k = 0; k < nlevels && lres; k++)
      fprintf(stderr, "level%u_resolution\t%.10g\nlevel%u_clusters\t%" PRIu64
              "\nlevel%u_largest_cluster\t%" PRIu64 "\nlevel%u_quality\t%.10g\n",
              k + 1, lres[k].resolution, k + 1, lres[k].num_clusters, k + 1, lres[k].largest,
              k + 1, lres[k].quality);
    if (leiden)
      fprintf(stderr, "leiden_quality\t%.10g\nleiden_levels\t%u\nleiden_iterations\t%u\n"
              "leiden_resolution\t%.10g\nleiden_moves\t%" PRIu64 "\nleiden_sweeps\t%" PRIu64
              "\nleiden_merges\t%" PRIu64 "\nleiden_temp_disk\t%" PRIu64 "\n",
              res.quality, res.levels, res.iterations, res.resolution, res.leiden_moves,
              res.leiden_sweeps, res.leiden_merges, res.leiden_temp_disk);
    else if (refine > 0)
      fprintf(stderr, "refine_passes\t%u\nrefine_merged\t%" PRIu64 "\nseconds_refine\t%.3f\n",
              res.refine_passes, res.refine_merged, res.seconds_refine);
    if (table || members || rep_fasta)
      fprintf(stderr, "seconds_table\t%.3f\n", res.seconds_table);
    if (res.stable)
      fprintf(stderr, "initial_listed\t%" PRIu64 "\ninitial_missing\t%" PRIu64
              "\nids_kept\t%" PRIu64 "\nids_merged\t%" PRIu64 "\nids_split\t%" PRIu64
              "\nids_new\t%" PRIu64 "\nnodes_moved\t%" PRIu64 "\n",
              ini.listed, ini.missing, res.ids_kept, res.ids_merged, res.ids_split,
              res.ids_new, res.nodes_moved);
    if (sequences)
      fprintf(stderr, "sequences\t%" PRIu64 "\nsequences_without_edges\t%" PRIu64
              "\nnodes_not_in_sequences\t%" PRIu64 "\n",
              g->num_listed, g->num_listed_new, g->num_unlisted);
  }
  free(target);
  free(table_target);
  free(lres);
  free(levels);
  exo_graph_free(g);
  exo_initial_free(&ini);
  if (st) return fail(&ctx, st);
  return 0;
}
