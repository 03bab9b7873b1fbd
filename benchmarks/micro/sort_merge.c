/* sort_merge.c: the external sort's merge stages timed with 1..T threads on
 * the same runs (links the core library).
 *
 *   sort_merge RECORDS NODES MEMORY_MIB FAN_IN THREADS TMPDIR
 *
 * Adds RECORDS random narrow records (key and nbr below NODES, seed fixed)
 * to a sorter with memory_limit MEMORY_MIB MiB (FAN_IN 0: the fan-in from
 * memory, else that fan-in), no background run thread, so the runs are the
 * same for every THREADS; then times exo_sorter_finish_csr: `merge_s` is
 * the intermediate passes (up to the first progress report of the final
 * merge), `csr_s` the final merge. Prints one key=value line and a checksum
 * of the CSR files (equal for every THREADS). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exo_ctx.h"
#include "exo_io.h"
#include "exo_rng.h"
#include "exo_sort.h"

static double now_sec(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double t_csr; /* first report of the final merge */

static void on_progress(void *user, exo_stage st, uint64_t done, uint64_t total) {
  (void)user;
  (void)done;
  (void)total;
  if (st == EXO_STAGE_CSR && t_csr == 0) t_csr = now_sec();
}

static uint64_t checksum(const char *path) {
  FILE *f = fopen(path, "rb");
  uint64_t h = 1469598103934665603ull;
  int c;
  if (!f) return 0;
  while ((c = getc(f)) != EOF) h = (h ^ (uint64_t)c) * 1099511628211ull;
  fclose(f);
  return h;
}

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: sort_merge RECORDS NODES MEMORY_MIB FAN_IN THREADS TMPDIR\n");
    return 2;
  }
  const uint64_t m = strtoull(argv[1], NULL, 10), n = strtoull(argv[2], NULL, 10);
  exo_sort_options opt;
  memset(&opt, 0, sizeof opt);
  opt.tmpdir = argv[6];
  opt.memory_limit = strtoull(argv[3], NULL, 10) << 20;
  opt.fan_in = (uint32_t)strtoul(argv[4], NULL, 10);
  opt.threads = atoi(argv[5]);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ctx.cb.progress = on_progress;
  exo_sorter *s = NULL;
  if (exo_sorter_create(&s, &opt, &ctx) != EXO_OK) goto fail;
  exo_rng rng;
  exo_rng_seed(&rng, 42);
  for (uint64_t i = 0; i < m; i++)
    if (exo_sorter_add(s, exo_rng_below(&rng, n), exo_rng_below(&rng, n), 1.0f, &ctx) != EXO_OK)
      goto fail;
  char *op = exo_path_join(argv[6], "bench.offsets"), *ap = exo_path_join(argv[6], "bench.adj");
  exo_sort_stats st;
  const double t0 = now_sec();
  if (exo_sorter_finish_csr(s, n, op, ap, 0, &ctx, &st) != EXO_OK) goto fail;
  const double t1 = now_sec();
  if (t_csr == 0) t_csr = t0;
  printf("threads=%d runs=%llu fan_in=%u passes=%u merge_s=%.2f csr_s=%.2f csr_sum=%016llx\n",
         opt.threads, (unsigned long long)st.runs, st.fan_in, st.merge_passes, t_csr - t0,
         t1 - t_csr, (unsigned long long)(checksum(op) ^ checksum(ap)));
  exo_sorter_free(s);
  exo_unlink(op);
  exo_unlink(ap);
  free(op);
  free(ap);
  return 0;
fail:
  fprintf(stderr, "sort_merge: %s\n", ctx.err.msg);
  exo_sorter_free(s);
  return 1;
}
