/* fmt_output.c: writing "name\tcluster\n" lines: fprintf vs hand formatting.
 *
 *   fmt_output METHOD N OUT
 * METHOD: fprintf  fprintf(f, "%s\t%llu\n") to a FILE with a 1 MiB buffer
 *         snprintf snprintf into a 1 MiB buffer, write() when full
 *         hand     memcpy of the name + own decimal conversion into a 1 MiB
 *                  buffer, write() when full
 * Names are "g<i>_c<i%1000>_p<i*7919%1000003>" (10-20 bytes), clusters
 * i * 2654435761 % 1000003 + 1. Output to OUT (use /dev/null to time the
 * formatting alone). Prints "method=... lines=... ns/line=... MB/s=..." */
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>

#include "micro_common.h"

#define OBUF ((size_t)1 << 20)

/* decimal digits of v at p; returns the count */
static inline size_t u64_dec(uint64_t v, char *p) {
  char tmp[20];
  size_t n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  for (size_t i = 0; i < n; i++) p[i] = tmp[n - 1 - i];
  return n;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: fmt_output fprintf|snprintf|hand N OUT\n");
    return 2;
  }
  const char *method = argv[1];
  uint64_t n = parse_size(argv[2]);
  const char *out = argv[3];
  /* the names are built beforehand: only output formatting is timed */
  char *names = malloc(n * 24);
  uint8_t *nlen = malloc(n);
  uint64_t *cl = malloc(n * sizeof *cl);
  for (uint64_t i = 0; i < n; i++) {
    int k = snprintf(names + i * 24, 24, "g%llu_c%llu_p%llu", (unsigned long long)(i % 100),
                     (unsigned long long)(i % 1000), (unsigned long long)(i * 7919 % 1000003));
    nlen[i] = (uint8_t)k;
    cl[i] = i * 2654435761u % 1000003 + 1;
  }
  int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) die("open", out);
  uint64_t bytes = 0;
  double t0 = now_s();
  if (strcmp(method, "fprintf") == 0) {
    FILE *f = fdopen(fd, "w");
    setvbuf(f, NULL, _IOFBF, OBUF);
    for (uint64_t i = 0; i < n; i++) {
      int k = fprintf(f, "%s\t%llu\n", names + i * 24, (unsigned long long)cl[i]);
      bytes += (uint64_t)k;
    }
    fclose(f);
  } else {
    int hand = strcmp(method, "hand") == 0;
    char *b = xalloc(OBUF);
    size_t len = 0;
    for (uint64_t i = 0; i < n; i++) {
      if (OBUF - len < 64) {
        if (write(fd, b, len) != (ssize_t)len) die("write", out);
        bytes += len;
        len = 0;
      }
      if (hand) {
        memcpy(b + len, names + i * 24, nlen[i]);
        len += nlen[i];
        b[len++] = '\t';
        len += u64_dec(cl[i], b + len);
        b[len++] = '\n';
      } else {
        len += (size_t)snprintf(b + len, OBUF - len, "%s\t%llu\n", names + i * 24,
                                (unsigned long long)cl[i]);
      }
    }
    if (write(fd, b, len) != (ssize_t)len) die("write", out);
    bytes += len;
    close(fd);
    free(b);
  }
  double dt = now_s() - t0;
  printf("method=%s lines=%llu ns/line=%.1f MB/s=%.1f\n", method, (unsigned long long)n,
         dt * 1e9 / (double)n, (double)bytes / dt / 1e6);
  free(names);
  free(nlen);
  free(cl);
  return 0;
}
