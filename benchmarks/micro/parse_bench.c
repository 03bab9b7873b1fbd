/* parse_bench.c: parse + reindex throughput of exo_parse_file().
 *
 *   parse_bench FILE THREADS [REPEATS [COLUMNS [TRANSFORM]]]
 *
 * COLUMNS is "A,B,W" (1-based node and weight columns, default 1,2,3) and
 * TRANSFORM "none" (default) or "neglog10" (exo_parse.h).
 * Parses FILE with `threads` = THREADS into a fresh name table (names file in
 * $TMPDIR), with an edge callback that only folds the ids and weights into a
 * checksum (so nothing is optimised away and the checksum proves that every
 * thread count gives the same result). Prints one line per repeat:
 *   threads=T seconds=S cpu=C caller_cpu=C1 MB/s=X edges=E nodes=N resolved=R% checksum=C
 * (cpu: processor seconds of the process, steadier than S on a loaded
 * machine; caller_cpu: those of the calling thread alone, which interns the
 * names in order and runs the callback: with THREADS > 1 the serial part,
 * since it sleeps while it waits for the workers' blocks; resolved: the
 * share of name lookups the worker threads answered).
 * Build: see benchmarks/micro/run.sh (links the core library). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exo_names.h"
#include "exo_parse.h"

typedef struct sink {
  uint64_t sum, edges;
} sink;

static exo_status on_edge(void *user, uint64_t a, uint64_t b, float w, exo_ctx *ctx) {
  (void)ctx;
  sink *s = user;
  uint32_t wb;
  memcpy(&wb, &w, 4);
  s->sum = (s->sum ^ (a * 0x9e3779b97f4a7c15ULL + b + wb)) * 0x100000001b3ULL;
  s->edges++;
  return EXO_OK;
}

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double thread_cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: parse_bench FILE THREADS [REPEATS [A,B,W [none|neglog10]]]\n");
    return 2;
  }
  const char *path = argv[1];
  int threads = atoi(argv[2]);
  int reps = argc > 3 ? atoi(argv[3]) : 1;
  unsigned ca = 1, cb = 2, cw = 3;
  if (argc > 4 && sscanf(argv[4], "%u,%u,%u", &ca, &cb, &cw) != 3) {
    fprintf(stderr, "COLUMNS must be A,B,W\n");
    return 2;
  }
  int neglog10 = argc > 5 && strcmp(argv[5], "neglog10") == 0;
  const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char np[4096];
  snprintf(np, sizeof np, "%s/parse_bench_names.%d", tmp, (int)getpid());
  for (int r = 0; r < reps; r++) {
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_names *t = NULL;
    if (exo_names_create(&t, np, &ctx)) {
      fprintf(stderr, "%s\n", ctx.err.msg);
      return 1;
    }
    exo_parse_options o;
    memset(&o, 0, sizeof o);
    o.sep = '\t';
    o.threads = threads;
    o.col_a = ca;
    o.col_b = cb;
    o.col_w = cw;
    o.transform = neglog10 ? EXO_WT_NEGLOG10 : EXO_WT_NONE;
    sink s = {0, 0};
    exo_parse_stats ps;
    double t0 = now(), c0 = cpu_now(), tc0 = thread_cpu_now();
    exo_status st = exo_parse_file(path, &o, t, on_edge, &s, &ctx, &ps);
    if (st == EXO_OK) st = exo_names_finish(t, &ctx);
    double dt = now() - t0, dc = cpu_now() - c0, dtc = thread_cpu_now() - tc0;
    uint64_t nodes = exo_names_count(t);
    exo_names_free(t);
    unlink(np);
    if (st) {
      fprintf(stderr, "%s\n", ctx.err.msg);
      return 1;
    }
    printf("threads=%d seconds=%.3f cpu=%.3f caller_cpu=%.3f MB/s=%.1f edges=%" PRIu64
           " nodes=%" PRIu64 " resolved=%.1f%% checksum=%016" PRIx64 "\n",
           threads, dt, dc, dtc, ps.bytes / dt / 1e6, s.edges, nodes,
           ps.edges ? 100.0 * (double)ps.names_resolved / (2.0 * (double)ps.edges) : 0.0, s.sum);
    fflush(stdout);
  }
  return 0;
}
