/* io_threads.c: reading one file with pread from T threads vs one reader.
 *
 *   io_threads FILE T BLOCK
 * T = 0: one thread, read() front to back with a BLOCK buffer.
 * T >= 1: T threads; block j (BLOCK bytes) is pread by thread j mod T, the
 *         pattern of the parallel parser.
 * Each block is touched (one byte per 64) so that the data is really used.
 * Prints "threads=... MB/s=..." */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "micro_common.h"

typedef struct job {
  int fd, idx, nthreads;
  size_t block;
  uint64_t size, sum;
  const char *path;
} job;

static uint64_t touch(const uint8_t *b, size_t n) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; i += 64) s += b[i];
  return s;
}

static void *reader(void *arg) {
  job *J = arg;
  uint8_t *b = xalloc(J->block);
  uint64_t nblocks = (J->size + J->block - 1) / J->block;
  for (uint64_t j = (uint64_t)J->idx; j < nblocks; j += (uint64_t)J->nthreads) {
    ssize_t k = pread(J->fd, b, J->block, (off_t)(j * J->block));
    if (k < 0) die("pread", J->path);
    J->sum += touch(b, (size_t)k);
  }
  free(b);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: io_threads FILE T BLOCK\n");
    return 2;
  }
  const char *path = argv[1];
  int T = atoi(argv[2]);
  size_t block = (size_t)parse_size(argv[3]);
  int fd = open(path, O_RDONLY);
  if (fd < 0) die("open", path);
  struct stat st;
  fstat(fd, &st);
  uint64_t size = (uint64_t)st.st_size, sum = 0;
  double t0 = now_s();
  if (T == 0) {
    uint8_t *b = xalloc(block);
    for (;;) {
      ssize_t k = read(fd, b, block);
      if (k < 0) die("read", path);
      if (k == 0) break;
      sum += touch(b, (size_t)k);
    }
    free(b);
  } else {
    pthread_t th[64];
    job jobs[64];
    if (T > 64) T = 64;
    for (int i = 0; i < T; i++) {
      jobs[i] = (job){fd, i, T, block, size, 0, path};
      pthread_create(&th[i], NULL, reader, &jobs[i]);
    }
    for (int i = 0; i < T; i++) {
      pthread_join(th[i], NULL);
      sum += jobs[i].sum;
    }
  }
  double dt = now_s() - t0;
  close(fd);
  if (sum == 7) fprintf(stderr, "-");
  printf("threads=%d MB/s=%.1f\n", T, (double)size / dt / 1e6);
  return 0;
}
