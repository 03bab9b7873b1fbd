/* exolabel-mpi: the MPI mode of ExoLabel, a thin driver of the core's
 * distributed run (src/core/exo_dist.h states the design).
 *
 *   mpirun -np P exolabel-mpi [options] -o OUT FILE...
 *
 * This file is the only one that includes mpi.h: it supplies exo_dist's
 * collectives with MPI_Alltoall(v), MPI_Allreduce and MPI_Allgather on
 * MPI_COMM_WORLD (errors returned, not fatal), parses exolabel's command
 * line (the shared parsers of cli/exo_opts: sizes, separators, the
 * search-tool input options), refuses by name the options of exolabel this
 * mode cannot honour, makes each rank's private temporary directory and
 * turns failures into messages and exit codes.
 *
 * Failures: when exo_dist reports that every rank stopped at the same
 * checkpoint (a bad input line, a full disk, ...), each rank prints its
 * message, removes its temporary directory and exits with the code of
 * cli/exolabel.c (3 input, 4 I/O, 5 memory, ...); otherwise (a transport
 * failure such as a dead rank) the rank calls MPI_Abort. SIGTERM and SIGINT
 * (which mpirun sends to the surviving ranks when one dies or aborts) remove
 * the rank's temporary directory (and, on rank 0, the unfinished output)
 * before exiting; a SIGKILL leaves the directory "exolabel-XXXXXX" in
 * --tempdir behind. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exo_dist.h"
#include "exo_options.h"
#include "exo_opts.h"
#include "exo_io.h"
#include "exo_lp.h"

static const char *prog = "exolabel-mpi";
static int g_rank = 0;

/* ---- cleanup on signals (async-signal-safe: raw syscalls only) ---------- */
static char g_tmpdir[PATH_MAX];
static char g_outtmp[PATH_MAX];

static void remove_dir_raw(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  char buf[4096];
  for (;;) {
    long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0) break;
    for (long off = 0; off < n;) {
      /* linux_dirent64: ino u64, off s64, reclen u16, type u8, name */
      unsigned short reclen;
      memcpy(&reclen, buf + off + 16, sizeof reclen);
      const char *name = buf + off + 19;
      if (strcmp(name, ".") && strcmp(name, "..")) unlinkat(fd, name, 0);
      off += reclen;
    }
  }
  close(fd);
  rmdir(dir);
}

static void on_signal(int sig) {
  if (g_tmpdir[0]) remove_dir_raw(g_tmpdir);
  if (g_outtmp[0]) unlink(g_outtmp);
  static const char msg[] = "exolabel-mpi: stopped by a signal; temporary files removed\n";
  ssize_t ignored = write(2, msg, sizeof msg - 1);
  (void)ignored;
  _exit(128 + sig);
}

/* ---- the transport ---------------------------------------------------------- */

static int to_int_counts(const uint64_t *c, int P, uint64_t unit, int *cnt, int *disp) {
  uint64_t off = 0;
  for (int q = 0; q < P; q++) {
    if (c[q] % unit || c[q] / unit > INT_MAX || off / unit > INT_MAX) return -1;
    cnt[q] = (int)(c[q] / unit);
    disp[q] = (int)(off / unit);
    off += c[q];
  }
  return 0;
}

typedef struct mpi_tr {
  int P;
  int *sc, *sd, *rc, *rd;
} mpi_tr;

static int tr_alltoallv(void *user, const void *sb, const uint64_t *scounts, void *rb,
                        const uint64_t *rcounts) {
  mpi_tr *t = user;
  /* 8-byte units when every block allows it: 16 GiB per rank instead of 2 */
  int eight = 1;
  for (int q = 0; q < t->P; q++) eight &= scounts[q] % 8 == 0 && rcounts[q] % 8 == 0;
  uint64_t unit = eight ? 8 : 1;
  MPI_Datatype type = eight ? MPI_UINT64_T : MPI_BYTE;
  if (to_int_counts(scounts, t->P, unit, t->sc, t->sd) ||
      to_int_counts(rcounts, t->P, unit, t->rc, t->rd)) {
    fprintf(stderr, "%s: rank %d: one exchange exceeds MPI's count limit (lower --memory-limit)\n",
            prog, g_rank);
    return -1;
  }
  return MPI_Alltoallv(sb, t->sc, t->sd, type, rb, t->rc, t->rd, type, MPI_COMM_WORLD) != MPI_SUCCESS;
}

static int tr_alltoall_u64(void *user, const uint64_t *send, uint64_t *recv) {
  (void)user;
  return MPI_Alltoall(send, 1, MPI_UINT64_T, recv, 1, MPI_UINT64_T, MPI_COMM_WORLD) != MPI_SUCCESS;
}

static int tr_allreduce_u64(void *user, uint64_t *vals, int n, int op) {
  (void)user;
  return MPI_Allreduce(MPI_IN_PLACE, vals, n, MPI_UINT64_T, op == EXO_DIST_MAX ? MPI_MAX : MPI_SUM,
                       MPI_COMM_WORLD) != MPI_SUCCESS;
}

static int tr_allgather_u64(void *user, uint64_t v, uint64_t *all) {
  (void)user;
  return MPI_Allgather(&v, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, MPI_COMM_WORLD) != MPI_SUCCESS;
}

/* ---- options (a subset of cli/exolabel.c's) ---------------------------------- */

static void usage(FILE *f) {
  fprintf(f,
"Usage: mpirun -np P exolabel-mpi [options] -o OUT FILE...\n"
"Cluster a graph given as edge-list files (\"A<sep>B<sep>W\" or \"A<sep>B\" per\n"
"line, or search-tool output with --format blast; plain or gzip) with label\n"
"propagation over P MPI ranks. With at least P files, rank r reads the files\n"
"r, r+P, r+2P, ... of the list; with fewer, every plain file is cut into P\n"
"byte ranges, one per rank (gzip files are read whole by one rank). OUT gets\n"
"one \"name<sep>cluster\" line per node, rank 0's nodes first; it must be on a\n"
"file system every rank sees.\n"
"\n"
"Options (exolabel's; memory limit, threads and temp directory per rank):\n"
"  -o, --out FILE          output file (required; not standard output)\n"
"  -d, --directed          same as --mode directed\n"
"Options of exolabel's (one table, src/core/exo_options.c, for every driver),\n"
"except --threads, whose default here is 1 per rank; --format blast stays\n"
"label propagation on e-values (this equals exolabel --format blast\n"
"--algorithm lp --weight-transform neglog10 --bridges keep):\n");
  char buf[2048];
  const exo_opt_def *t = exo_options_table();
  for (int i = 0; i < EXO_OPT_COUNT; i++) {
    const exo_opt_id id = t[i].id;
    if (id == EXO_OPT_ADD_SELF_LOOPS || id == EXO_OPT_ATTENUATION || id == EXO_OPT_REFINE ||
        id == EXO_OPT_ALGORITHM || id == EXO_OPT_OBJECTIVE || id == EXO_OPT_BRIDGES ||
        id == EXO_OPT_INITIAL || id == EXO_OPT_KEEP_GRAPH || id == EXO_OPT_GRAPH)
      continue; /* refused below */
    exo_options_help(&t[i], buf, sizeof buf);
    if (id == EXO_OPT_MODE) memcpy(buf, "  -m,", 5);
    fputs(buf, f);
  }
  fprintf(f,
"  -v, --verbose, --stats  statistics per rank and per superstep on rank 0's\n"
"                          standard error\n"
"  -h, --help              this help\n"
"      --version           the version\n"
"Refused (exit 2, the option named): --attenuation and --add-self-loops\n"
"other than 0, --refine other than 0, --algorithm leiden, --objective,\n"
"--bridges cut, --initial, --keep-graph, --graph, standard input.\n"
"Exit codes as exolabel's: 2 usage, 3 malformed input (file and line named),\n"
"4 I/O (full disk included), 5 out of memory, 70 internal; a rank that dies\n"
"makes mpirun end the job with a non-zero code.\n");
}

static int usage_error(const char *fmt, ...) {
  if (g_rank == 0) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry '%s --help'.\n", prog);
    va_end(ap);
  }
  return -1;
}

typedef struct mpi_opts {
  const char *out;
  int verbose, help;
  exo_options core; /* every option that reaches the core (exo_options.h) */
} mpi_opts;

/* An option of exolabel that this mode cannot honour: refused by name (the
 * values that mean "off" are accepted, so a command line written for
 * exolabel with them runs unchanged). */
static int refuse(const char *opt, const char *why) {
  return usage_error("%s is not available in MPI mode: %s", opt, why);
}

static void mpi_warn(void *user, const char *text) {
  (void)user;
  if (g_rank == 0) fprintf(stderr, "%s: warning: %s\n", prog, text);
}

/* 0 on success, 1 after --help, 2 after --version, 3 after the options were
 * dumped (EXOLABEL_DUMP_OPTIONS), -1 on a usage error. */
static int parse_args(int argc, char **argv, mpi_opts *o) {
  /* the driver's own options, then one long option per entry of the core's
   * table, named as there with '-' for '_' (as exolabel's) */
  enum { OPT_STATS = 256, OPT_VERSION, OPT_CORE = 512 };
  static const struct option own[] = {
      {"out", required_argument, 0, 'o'},
      {"directed", no_argument, 0, 'd'},
      {"verbose", no_argument, 0, 'v'},
      {"stats", no_argument, 0, OPT_STATS},
      {"help", no_argument, 0, 'h'},
      {"version", no_argument, 0, OPT_VERSION},
  };
  exo_opt_longopts lo;
  exo_opt_longopts_build(&lo, own, (int)(sizeof own / sizeof own[0]), OPT_CORE);
  const struct option *longopts = lo.opts;
  const exo_opt_def *defs = exo_options_table();
  memset(o, 0, sizeof *o);
  exo_options *co = &o->core;
  exo_options_init(co, EXO_OPT_STYLE_CLI);
  exo_error err;
  exo_error_clear(&err);
  /* this mode's own defaults: one parser thread per rank (ranks share a
   * node's cores), and label propagation for --format blast (Leiden does
   * not run over ranks: this equals exolabel --format blast --algorithm lp) */
  exo_options_set_default(co, "threads", "1", &err);
  /* these two as if given: no --format blast default, no merge passes */
  exo_options_set(co, "algorithm", "lp", &err);
  exo_options_set(co, "refine", "0", &err);
  opterr = g_rank == 0;
  int c, version = 0;
  uint32_t seen = 0; /* core options given so far (exo_opt_given_twice) */
  while ((c = getopt_long(argc, argv, "o:m:dvh", longopts, NULL)) != -1) {
    const char *name = NULL, *value = optarg;
    switch (c) {
    case 'o': o->out = optarg; break;
    case 'm': name = "mode"; break;
    case 'd': name = "mode"; value = "directed"; break;
    case 'v': case OPT_STATS: o->verbose = 1; break;
    case 'h': o->help = 1; break;
    case OPT_VERSION: version = 1; break;
    default:
      if (c >= OPT_CORE && c < OPT_CORE + EXO_OPT_COUNT) {
        name = defs[c - OPT_CORE].name;
        if (!defs[c - OPT_CORE].metavar) value = "true";
        break;
      }
      return usage_error("unknown option");
    }
    if (name && exo_opt_given_twice(&seen, name))
      return usage_error("--%s given twice: give each option once", name);
    if (name && exo_options_set(co, name, value, &err)) return usage_error("%s", err.msg);
  }
  if (o->help) return 1;
  if (version) {
    if (g_rank == 0) puts("exolabel-mpi 0.99.5");
    return 2;
  }
  /* exolabel's options this mode cannot honour, refused by name */
  if (co->num[EXO_OPT_ADD_SELF_LOOPS] > 0)
    return refuse("--add-self-loops", "the supersteps have no self-loop cutoff (use 0)");
  if (co->num[EXO_OPT_ATTENUATION] != 0)
    return refuse("--attenuation", "the supersteps do not carry the hop distances of the "
                                   "ghost labels it needs (use 0)");
  if (co->whole[EXO_OPT_REFINE])
    return refuse("--refine", "the merge passes need the whole graph's clusters in one "
                              "process (use 0)");
  if ((int)co->num[EXO_OPT_ALGORITHM] != EXO_OPT_LP) { /* leiden, or any other method */
    char what[96];
    snprintf(what, sizeof what, "--algorithm %s",
             defs[EXO_OPT_ALGORITHM].choices[(int)co->num[EXO_OPT_ALGORITHM]]);
    return refuse(what, "only label propagation (--algorithm lp) runs over ranks");
  }
  if ((co->given >> EXO_OPT_OBJECTIVE) & 1u)
    return refuse("--objective", "it is leiden's option and leiden does not run over ranks");
  if ((int)co->num[EXO_OPT_ORDER] == EXO_OPT_BY_NAME)
    return refuse("--order name", "the ranks write their nodes' lines in id order, side by "
                                  "side (use appearance)");
  if ((int)co->num[EXO_OPT_WEIGHT_TRANSFORM] == EXO_WT_SELFNORM)
    return refuse("--weight-transform selfnorm",
                  "a rank does not hold the self scores of both ends of its edges (use "
                  "neglog10, the e-values)");
  if (exo_options_initial(co))
    return refuse("--initial", "the ranks hold their own nodes' names, not the whole graph's "
                               "that a previous clustering is read against");
  if (co->paths[EXO_OPT_KEEP_GRAPH] || co->paths[EXO_OPT_GRAPH])
    return refuse(co->paths[EXO_OPT_KEEP_GRAPH] ? "--keep-graph" : "--graph",
                  "the ranks build their parts of the graph apart, not one CSR to keep or "
                  "extend (use exolabel)");
  if ((int)co->num[EXO_OPT_BRIDGES] == EXO_OPT_CUT)
    return refuse("--bridges cut", "the ranks' reading does not keep the hits' coordinates "
                                   "(use keep)");
  /* --format blast here weighs by e-values (exolabel's default is selfnorm)
   * and keeps every hit (exolabel's default cuts bridges) */
  if ((int)co->num[EXO_OPT_FORMAT] == EXO_OPT_BLAST && co->num[EXO_OPT_WEIGHT_TRANSFORM] < 0)
    exo_options_set(co, "weight_transform", "neglog10", &err);
  if (co->num[EXO_OPT_BRIDGES] < 0) exo_options_set(co, "bridges", "keep", &err);
  if (co->num[EXO_OPT_NESTED])
    return refuse("--nested", "the distributed run has label propagation only (use exolabel)");
  if (exo_options_resolve(co, mpi_warn, NULL, &err)) return usage_error("%s", err.msg);
  {
    int dumped = exo_options_dump_if_asked(co, &err);
    if (dumped < 0) return usage_error("%s", err.msg);
    if (dumped) return 3;
  }
  if (!o->out) return usage_error("-o/--out is required");
  if (!strcmp(o->out, "-")) return refuse("--out -", "the ranks write one shared file; give its path");
  if (optind >= argc) return usage_error("no input files (standard input is not supported)");
  for (int i = optind; i < argc; i++)
    if (!strcmp(argv[i], "-")) return refuse("standard input ('-')", "every rank must open the files itself");
  if (!co->tempdir || !*co->tempdir) co->tempdir = getenv("TMPDIR");
  if (!co->tempdir || !*co->tempdir) co->tempdir = "/tmp";
  return 0;
}

static double peak_rss(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return 1024.0 * (double)ru.ru_maxrss;
}

/* Rank 0 prints key<TAB>value statistics, one line per rank and per superstep. */
static void print_stats(const exo_dist_result *res, int P, double seconds) {
  enum { NV = 16 };
  double mine[NV] = {(double)res->own_nodes, (double)res->own_arcs, (double)res->ghosts,
                     (double)res->boundary_nodes, (double)res->send_list,
                     (double)res->bytes_sent[0], (double)res->bytes_sent[1],
                     (double)res->bytes_sent[2], (double)res->bytes_sent[3],
                     res->seconds[0], res->seconds[1], res->seconds[2], res->seconds[3],
                     res->seconds[4], (double)res->temp_disk, peak_rss()};
  double *all = g_rank == 0 ? malloc(sizeof mine * (size_t)P) : NULL;
  MPI_Gather(mine, NV, MPI_DOUBLE, all, NV, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  uint64_t steps = res->supersteps < EXO_DIST_MAX_STEPS ? res->supersteps : EXO_DIST_MAX_STEPS;
  uint64_t *sum = g_rank == 0 ? calloc(steps + 1, 8) : NULL, *max = g_rank == 0 ? calloc(steps + 1, 8) : NULL;
  MPI_Reduce(res->step_bytes, sum, (int)steps, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(res->step_bytes, max, (int)steps, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
  if (g_rank == 0 && all && sum && max) {
    fprintf(stderr,
            "ranks\t%d\nnodes\t%" PRIu64 "\nedges\t%" PRIu64 "\narcs\t%" PRIu64
            "\nadjacency_entries\t%" PRIu64 "\nclusters\t%" PRIu64
            "\niterations\t%u\nsupersteps\t%" PRIu64 "\nlp_visits\t%" PRIu64 "\nlp_changes\t%" PRIu64
            "\nseconds\t%.3f\n",
            P, res->num_nodes, res->num_lines, res->num_arcs, res->num_entries, res->num_clusters,
            res->max_visits,
            res->supersteps, res->pops, res->changes, seconds);
    fprintf(stderr, "rank\tnodes\tarcs\tghosts\tboundary\tsend_list\tsent_resolve\tsent_arcs\t"
                    "sent_lp\tsent_output\ts_parse\ts_resolve\ts_csr\ts_lp\ts_output\ttemp_disk\tpeak_rss\n");
    for (int q = 0; q < P; q++) {
      const double *v = all + (size_t)q * NV;
      fprintf(stderr, "rank\t%d", q);
      for (int i = 0; i < NV; i++) fprintf(stderr, i >= 9 && i <= 13 ? "\t%.3f" : "\t%.0f", v[i]);
      fputc('\n', stderr);
    }
    fprintf(stderr, "superstep\tchanges\tbytes_all_ranks\tbytes_max_rank\n");
    for (uint64_t k = 0; k < steps; k++)
      fprintf(stderr, "superstep\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", k + 1,
              res->step_changes[k], sum[k], max[k]);
  }
  free(all);
  free(sum);
  free(max);
}

int main(int argc, char **argv) {
  int P = 1;
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
    fprintf(stderr, "%s: MPI_Init failed\n", prog);
    return 70;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  mpi_opts o;
  int pr = parse_args(argc, argv, &o);
  if (pr != 0) { /* every rank parsed the same arguments */
    if (pr == 1 && g_rank == 0) usage(stdout);
    MPI_Finalize();
    return pr > 0 ? 0 : EXO_EXIT_USAGE;
  }

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  exo_ctx ctx;
  exo_ctx_init(&ctx);
  char *tmpdir = NULL;
  int tmpdir_lock = -1; /* dead runs' directories are removed, ours locked */
  exo_status st = exo_tempdir_create_run(o.core.tempdir, &tmpdir, &tmpdir_lock, &ctx);
  if (!st) {
    snprintf(g_tmpdir, sizeof g_tmpdir, "%s", tmpdir);
    if (g_rank == 0) snprintf(g_outtmp, sizeof g_outtmp, "%s.mpi-tmp", o.out);
  }
  mpi_tr tr = {P, NULL, NULL, NULL, NULL};
  tr.sc = malloc((size_t)P * 4 * sizeof(int));
  if (!tr.sc && !st) st = EXO_FAIL(&ctx, EXO_ENOMEM, "out of memory");
  if (tr.sc) {
    tr.sd = tr.sc + P;
    tr.rc = tr.sc + 2 * P;
    tr.rd = tr.sc + 3 * P;
  }
  exo_dist_comm comm = {&tr, g_rank, P, tr_alltoallv, tr_alltoall_u64, tr_allreduce_u64,
                        tr_allgather_u64};
  exo_dist_options opt;
  memset(&opt, 0, sizeof opt);
  opt.files = (const char *const *)(argv + optind);
  opt.nfiles = (size_t)(argc - optind);
  exo_options_fill_dist(&o.core, &opt);
  opt.tmpdir = tmpdir;
  opt.out_path = o.out;

  double t0 = MPI_Wtime();
  exo_dist_result res;
  memset(&res, 0, sizeof res);
  int agreed = 0;
  if (!st) {
    st = exo_dist_run(&opt, &comm, &ctx, &res);
    agreed = res.agreed;
  }
  if (tmpdir) exo_tempdir_remove(tmpdir);
  exo_tempdir_unlock(tmpdir_lock);
  free(tmpdir);
  g_tmpdir[0] = 0;
  if (st) {
    fprintf(stderr, "%s: rank %d: %s%s\n", prog, g_rank, strncmp(ctx.err.msg, "stopped", 7) ? "error: " : "",
            ctx.err.msg[0] ? ctx.err.msg : exo_status_name(st));
    fflush(stderr);
    free(tr.sc);
    exo_dist_result_free(&res);
    if (!agreed) MPI_Abort(MPI_COMM_WORLD, exo_opt_exit_code(st));
    MPI_Finalize();
    return exo_opt_exit_code(st);
  }
  g_outtmp[0] = 0;
  if (o.verbose) print_stats(&res, P, MPI_Wtime() - t0);
  free(tr.sc);
  exo_dist_result_free(&res);
  MPI_Finalize();
  return 0;
}
