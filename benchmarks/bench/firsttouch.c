/* firsttouch.c: what the first write to fresh anonymous memory costs on
 * this machine (RESULTS.md, Profile item 11). Maps 1 GiB four times, with
 * 4 KiB pages or (argument "huge") transparent huge pages, writes one byte
 * per 4 KiB page and then the whole GiB again, and prints both times.
 *   cc -O2 -o firsttouch benchmarks/bench/firsttouch.c && ./firsttouch huge
 * On a freshly booted VM whose host backs guest memory lazily, the first
 * touches of never-used guest memory are far slower than later ones. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  const size_t n = (size_t)1 << 30;
  const int huge = argc > 1 && strcmp(argv[1], "huge") == 0;
  for (int r = 0; r < 4; r++) {
    char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      perror("mmap");
      return 1;
    }
    if (huge) madvise(p, n, MADV_HUGEPAGE);
    double t0 = now();
    for (size_t i = 0; i < n; i += 4096) p[i] = 1;
    double t1 = now();
    memset(p, 2, n);
    double t2 = now();
    printf("%s pages: first touch %.3f s/GiB, rewrite %.3f s/GiB\n", huge ? "huge" : "4 KiB",
           t1 - t0, t2 - t1);
    munmap(p, n);
  }
  return 0;
}
