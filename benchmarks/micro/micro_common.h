/* micro_common.h: timing and aligned buffers for the micro-benchmarks. */
#ifndef MICRO_COMMON_H
#define MICRO_COMMON_H
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void *xalloc(size_t n) {
  void *p = NULL;
  if (posix_memalign(&p, 4096, n ? n : 1) != 0) {
    fprintf(stderr, "out of memory (%zu bytes)\n", n);
    exit(1);
  }
  memset(p, 0x5a, n);
  return p;
}

static inline void die(const char *what, const char *path) {
  fprintf(stderr, "%s %s: %s\n", what, path, strerror(errno));
  exit(1);
}

/* splitmix64 */
static inline uint64_t rnd(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* "4K", "1M", "2G" or plain bytes */
static inline uint64_t parse_size(const char *s) {
  char *e;
  double v = strtod(s, &e);
  if (*e == 'K' || *e == 'k') v *= 1024;
  if (*e == 'M' || *e == 'm') v *= 1024 * 1024;
  if (*e == 'G' || *e == 'g') v *= 1024.0 * 1024 * 1024;
  return (uint64_t)v;
}
#endif
