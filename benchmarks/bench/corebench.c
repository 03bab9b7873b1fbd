/* corebench.c: the C pipeline without R, for timing and profiling stages.
 *
 *   corebench FILE [memory_MB [threads [lp_repeats]]]
 *
 * Builds the graph (parse + sort + CSR), runs label propagation lp_repeats
 * times on the same CSR (same seed: the runs must agree), then clusters and
 * writes the output once through exo_graph_cluster. Prints one line per
 * stage: "stage seconds ...". TMPDIR chooses the temp directory; LP_ATT sets
 * the attenuation. LEIDEN=modularity (or cpm, with LEIDEN_RES the
 * resolution, LEIDEN_IT the iterations, 0 = until stable) clusters with
 * Leiden instead of label propagation in that last step and prints its
 * per-level messages (phase seconds). LEIDEN_ALT=1,2 (thread counts)
 * instead times exo_leiden_run alone on the built CSR, lp_repeats rounds
 * of one run per thread count in turn (LEIDEN, LEIDEN_RES, LEIDEN_IT as
 * above), one line per run with the wall time and the sums of the levels'
 * phase seconds, checks that every run gives the first run's labels, and
 * skips label propagation and the output. LEIDEN_LANES=L caps local
 * moving's lanes (the testing hook max_lanes; 1 = the sequential sweep);
 * LEIDEN_MSG=1 prints the per-level messages of LEIDEN_ALT's runs. Build (from the
 * repository root):
 *   make /tmp/b/libexocore.a BUILD=/tmp/b
 *   cc -std=c11 -D_GNU_SOURCE -O2 -Isrc/core benchmarks/bench/corebench.c \
 *      /tmp/b/libexocore.a -lz -lm -pthread -o /tmp/b/corebench */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exo_leiden.h"
#include "exo_lp.h"
#include "exo_pipeline.h"

static double cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_message(void *user, const char *text) {
  (void)user;
  fprintf(stderr, "%s\n", text);
}

/* Keep the first run's labels; later runs must agree (else a MISMATCH
 * line) and are freed. */
static void same_as_first(uint64_t **first, uint64_t *labels, uint64_t n, const char *what) {
  if (!*first) {
    *first = labels;
    return;
  }
  if (memcmp(*first, labels, n * 8) != 0) printf("%s MISMATCH\n", what);
  free(labels);
}

/* LEIDEN_ALT: sums of the phase seconds in the "leiden level" messages */
typedef struct phase_sums {
  double moving, refinement, aggregation;
} phase_sums;

static void sum_phases(void *user, const char *text) {
  phase_sums *ps = user;
  if (getenv("LEIDEN_MSG")) printf("  %s\n", text);
  const char *p = strstr(text, "seconds: moving ");
  double m, r, a;
  if (p && sscanf(p, "seconds: moving %lf, refinement %lf, aggregation %lf", &m, &r, &a) >= 2) {
    ps->moving += m;
    ps->refinement += r;
    if (strstr(p, "aggregation")) ps->aggregation += a;
  }
}

/* Time exo_leiden_run alone, alternating the thread counts in `alt`. */
static int leiden_alt(const exo_csr_files *csr, const char *alt, int reps, uint64_t mem,
                      const char *tmp) {
  int tlist[8], nt = 0;
  for (const char *q = alt; *q && nt < 8;) {
    tlist[nt++] = atoi(q);
    q = strchr(q, ',');
    if (!q) break;
    q++;
  }
  const char *leiden = getenv("LEIDEN");
  uint64_t *first = NULL;
  for (int r = 0; r < reps; r++)
    for (int i = 0; i < nt; i++) {
      exo_leiden_params lp;
      memset(&lp, 0, sizeof lp);
      lp.objective = leiden && strcmp(leiden, "cpm") == 0 ? EXO_LEIDEN_CPM : EXO_LEIDEN_MODULARITY;
      lp.resolution = getenv("LEIDEN_RES") ? atof(getenv("LEIDEN_RES")) : 1.0;
      lp.seed = 1;
      lp.memory_limit = mem;
      lp.threads = tlist[i];
      lp.iterations = getenv("LEIDEN_IT") ? (uint32_t)atoi(getenv("LEIDEN_IT")) : 0;
      lp.max_lanes = getenv("LEIDEN_LANES") ? (uint32_t)atoi(getenv("LEIDEN_LANES")) : 0;
      lp.tmpdir = tmp;
      exo_ctx ctx;
      exo_ctx_init(&ctx);
      phase_sums ps = {0.0, 0.0, 0.0};
      ctx.cb.user = &ps;
      ctx.cb.message = sum_phases;
      exo_leiden_result res;
      double t0 = now(), c0 = cpu();
      if (exo_leiden_run(csr, &lp, &ctx, &res)) {
        fprintf(stderr, "leiden failed: %s\n", ctx.err.msg);
        return 1;
      }
      printf("leiden threads %d wall %.3f cpu %.3f moving %.3f refinement %.3f aggregation %.3f "
             "quality %.10g\n",
             tlist[i], now() - t0, cpu() - c0, ps.moving, ps.refinement, ps.aggregation,
             res.quality);
      fflush(stdout);
      same_as_first(&first, res.labels, csr->n, "leiden");
    }
  free(first);
  return 0;
}


int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: corebench FILE [memory_MB [threads [lp_repeats]]]\n");
    return 2;
  }
  const char *file = argv[1];
  uint64_t mem = (uint64_t)(argc > 2 ? atof(argv[2]) : 256) << 20;
  int threads = argc > 3 ? atoi(argv[3]) : 2;
  int reps = argc > 4 ? atoi(argv[4]) : 1;
  const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_build_options bo;
  memset(&bo, 0, sizeof bo);
  const char *files[1] = {file};
  bo.files = files;
  bo.nfiles = 1;
  bo.parse.sep = '\t';
  bo.parse.threads = threads;
  bo.tempdir_base = tmp;
  bo.memory_limit = mem;
  exo_graph *g = NULL;
  double t0 = now();
  if (exo_graph_build(&bo, &ctx, &g)) {
    fprintf(stderr, "build failed: %s\n", ctx.err.msg);
    return 1;
  }
  printf("build %.3f parse %.3f csr %.3f nodes %llu arcs %llu runs %llu passes %u peak_disk %llu\n",
         now() - t0, g->seconds_parse, g->seconds_csr, (unsigned long long)g->num_nodes,
         (unsigned long long)g->num_arcs, (unsigned long long)g->sort.runs, g->sort.merge_passes,
         (unsigned long long)g->sort.peak_disk);
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs, g->wide};
  if (getenv("LEIDEN_ALT")) {
    int rc = leiden_alt(&csr, getenv("LEIDEN_ALT"), reps, mem, tmp);
    exo_graph_free(g);
    return rc;
  }
  exo_lp_params p;
  memset(&p, 0, sizeof p);
  if (getenv("LP_ATT")) p.attenuation = atof(getenv("LP_ATT"));
  /* LP_RES=1 and LP_THREADS=T: the package's default penalty and threads */
  if (getenv("LP_RES")) p.resolution = atof(getenv("LP_RES"));
  if (getenv("LP_THREADS")) p.threads = (uint32_t)atoi(getenv("LP_THREADS"));
  p.seed = 1;
  p.memory_limit = mem;
  uint64_t *first = NULL;
  for (int r = 0; r < reps; r++) {
    exo_lp_result lr;
    t0 = now();
    double c0 = cpu();
    if (exo_lp_run(&csr, &p, &ctx, &lr)) {
      fprintf(stderr, "lp failed: %s\n", ctx.err.msg);
      return 1;
    }
    printf("lp %.3f cpu %.3f pops %llu changes %llu sweeps %llu cap %u reads %llu bytes_read %llu\n",
           now() - t0, cpu() - c0, (unsigned long long)lr.pops, (unsigned long long)lr.changes,
           (unsigned long long)lr.rounds, lr.max_visits, (unsigned long long)lr.reads,
           (unsigned long long)lr.bytes_read);
    same_as_first(&first, lr.labels, g->num_nodes, "lp");
  }
  free(first);
  exo_cluster_result cr;
  t0 = now();
  char out[4096];
  snprintf(out, sizeof out, "%s/corebench-out-%ld.tsv", tmp, (long)time(NULL));
  const char *leiden = getenv("LEIDEN");
  exo_status cst;
  double c0 = cpu();
  if (leiden) {
    exo_leiden_params lp;
    memset(&lp, 0, sizeof lp);
    lp.objective = strcmp(leiden, "cpm") == 0 ? EXO_LEIDEN_CPM : EXO_LEIDEN_MODULARITY;
    lp.resolution = getenv("LEIDEN_RES") ? atof(getenv("LEIDEN_RES")) : 1.0;
    lp.seed = 1;
    lp.memory_limit = mem;
    lp.threads = threads;
    lp.iterations = getenv("LEIDEN_IT") ? (uint32_t)atoi(getenv("LEIDEN_IT")) : 0;
    ctx.cb.message = print_message;
    cst = exo_graph_leiden(g, &lp, out, '\t', &ctx, &cr);
  } else {
    cst = exo_graph_cluster(g, &p, out, '\t', &ctx, &cr);
  }
  if (cst) {
    fprintf(stderr, "cluster failed: %s\n", ctx.err.msg);
    return 1;
  }
  printf("cluster+output %.3f cpu %.3f cluster %.3f output %.3f clusters %llu quality %.10g\n",
         now() - t0, cpu() - c0, cr.seconds_cluster, cr.seconds_output,
         (unsigned long long)cr.num_clusters, cr.quality);
  remove(out);
  exo_graph_free(g);
  return 0;
}
