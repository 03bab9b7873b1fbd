/* io_access.c: sequential vs sorted-seek vs random access to 12-byte records
 * in a large file, for reads and for read-modify-write (add 1 to a counter in
 * the record).
 *
 *   io_access create FILE SIZE           write the file (1 MiB writes)
 *   io_access MODE FILE OPS [SEED]       MODE: seqread seqrmw sortread sortrmw
 *                                        randread randrmw
 * seq*:  the whole file through a 1 MiB buffer (rmw: pread, modify, pwrite).
 * sort*: OPS record indices drawn at random, sorted, each record accessed
 *        with its own pread (and pwrite) in that order.
 * rand*: the same OPS records in random order.
 * Prints "mode=... records=... seconds=... ns/record=... MB/s=..." */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "micro_common.h"

#define REC 12

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: io_access create FILE SIZE | MODE FILE OPS [SEED]\n");
    return 2;
  }
  const char *mode = argv[1], *path = argv[2];
  if (strcmp(mode, "create") == 0) {
    uint64_t size = parse_size(argv[3]) / REC * REC;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) die("open", path);
    size_t bs = (size_t)1 << 20;
    uint8_t *b = xalloc(bs);
    for (uint64_t off = 0; off < size;) {
      size_t n = size - off < bs ? (size_t)(size - off) : bs;
      if (write(fd, b, n) != (ssize_t)n) die("write", path);
      off += n;
    }
    if (fdatasync(fd) != 0) die("fdatasync", path);
    close(fd);
    free(b);
    return 0;
  }
  int rmw = strstr(mode, "rmw") != NULL;
  int fd = open(path, rmw ? O_RDWR : O_RDONLY);
  if (fd < 0) die("open", path);
  struct stat st;
  fstat(fd, &st);
  uint64_t nrec = (uint64_t)st.st_size / REC;
  uint64_t ops = parse_size(argv[3]);
  uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
  double t0, dt;
  uint64_t done = 0, sum = 0;
  if (strncmp(mode, "seq", 3) == 0) {
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    size_t bs = (size_t)REC << 17; /* 1.5 MiB: whole records */
    uint8_t *b = xalloc(bs);
    t0 = now_s();
    for (uint64_t off = 0; off < nrec * REC;) {
      ssize_t k = pread(fd, b, bs, (off_t)off);
      if (k <= 0) die("pread", path);
      size_t n = (size_t)k / REC * REC;
      for (size_t i = 0; i < n; i += REC) {
        uint32_t v;
        memcpy(&v, b + i + 8, 4);
        sum += v;
        v++;
        memcpy(b + i + 8, &v, 4);
      }
      if (rmw && pwrite(fd, b, n, (off_t)off) != (ssize_t)n) die("pwrite", path);
      off += n;
      done += n / REC;
    }
    if (rmw) fdatasync(fd);
    dt = now_s() - t0;
    free(b);
  } else {
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
    uint64_t *idx = malloc(ops * sizeof *idx);
    for (uint64_t i = 0; i < ops; i++) idx[i] = rnd(&seed) % nrec;
    if (strncmp(mode, "sort", 4) == 0) qsort(idx, ops, sizeof *idx, cmp_u64);
    t0 = now_s();
    for (uint64_t i = 0; i < ops; i++) {
      uint8_t r[REC];
      off_t off = (off_t)(idx[i] * REC);
      if (pread(fd, r, REC, off) != REC) die("pread", path);
      uint32_t v;
      memcpy(&v, r + 8, 4);
      sum += v;
      if (rmw) {
        v++;
        memcpy(r + 8, &v, 4);
        if (pwrite(fd, r, REC, off) != REC) die("pwrite", path);
      }
      done++;
    }
    if (rmw) fdatasync(fd);
    dt = now_s() - t0;
    free(idx);
  }
  close(fd);
  if (sum == 42) fprintf(stderr, "-");
  printf("mode=%s records=%llu seconds=%.3f ns/record=%.1f MB/s=%.1f\n", mode,
         (unsigned long long)done, dt, dt * 1e9 / (double)done,
         (double)done * REC / dt / 1e6);
  return 0;
}
