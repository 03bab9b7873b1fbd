/* io_bufsize.c: sequential write and read throughput by buffer size.
 *
 *   io_bufsize write FILE SIZE BUF   write SIZE bytes with write(BUF) calls,
 *                                    then fdatasync (included in the time)
 *   io_bufsize read  FILE BUF        read the whole file with read(BUF)
 * Prints "op=... buf=... MB/s=..." */
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>

#include "micro_common.h"

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: io_bufsize write FILE SIZE BUF | read FILE BUF\n");
    return 2;
  }
  int wr = strcmp(argv[1], "write") == 0;
  const char *path = argv[2];
  size_t buf = (size_t)parse_size(argv[wr ? 4 : 3]);
  uint8_t *b = xalloc(buf);
  double t0 = now_s();
  uint64_t total = 0;
  if (wr) {
    uint64_t size = parse_size(argv[3]);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) die("open", path);
    while (total < size) {
      size_t n = size - total < buf ? (size_t)(size - total) : buf;
      ssize_t k = write(fd, b, n);
      if (k <= 0) die("write", path);
      total += (uint64_t)k;
    }
    if (fdatasync(fd) != 0) die("fdatasync", path);
    close(fd);
  } else {
    int fd = open(path, O_RDONLY);
    if (fd < 0) die("open", path);
    uint64_t sum = 0;
    for (;;) {
      ssize_t k = read(fd, b, buf);
      if (k < 0) die("read", path);
      if (k == 0) break;
      sum += b[k - 1];
      total += (uint64_t)k;
    }
    close(fd);
    if (sum == 1) fprintf(stderr, "-");
  }
  double dt = now_s() - t0;
  printf("op=%s buf=%zu MB/s=%.1f\n", wr ? "write" : "read", buf, (double)total / dt / 1e6);
  free(b);
  return 0;
}
