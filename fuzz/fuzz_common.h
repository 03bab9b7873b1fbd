/* fuzz_common.h: helpers shared by the libFuzzer harnesses (see README.md).
 * Each harness process gets one private scratch directory; every input is
 * written there, run, and the directory must be back to empty afterwards
 * (a leftover file is reported as a crash). */
#ifndef EXO_FUZZ_COMMON_H
#define EXO_FUZZ_COMMON_H

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static char fz_dir[256];

static void fz_remove_dir(void) { rmdir(fz_dir); } /* empty after each input */

/* Create the scratch directory once per process (under $TMPDIR or /tmp). */
static void fz_init_dir(const char *tag) {
  if (fz_dir[0]) return;
  const char *base = getenv("TMPDIR");
  if (!base || !*base) base = "/tmp";
  snprintf(fz_dir, sizeof fz_dir, "%s/exofuzz-%s-XXXXXX", base, tag);
  if (!mkdtemp(fz_dir)) {
    perror("mkdtemp");
    abort();
  }
  atexit(fz_remove_dir);
}

/* Write [d, d+n) to path, gzip-compressed when gz is set. */
static void fz_write_file(const char *path, const uint8_t *d, size_t n, int gz) {
  if (gz) {
    gzFile g = gzopen(path, "wb");
    if (!g) abort();
    if (n && gzwrite(g, d, (unsigned)n) != (int)n) abort();
    if (gzclose(g) != Z_OK) abort();
    return;
  }
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) abort();
  size_t off = 0;
  while (off < n) {
    ssize_t k = write(fd, d + off, n - off);
    if (k <= 0) abort();
    off += (size_t)k;
  }
  close(fd);
}

/* Abort unless every entry of the scratch directory is in keep[] (NULL-terminated). */
static void fz_expect_only(const char *const *keep) {
  DIR *dir = opendir(fz_dir);
  if (!dir) abort();
  struct dirent *e;
  while ((e = readdir(dir))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    int ok = 0;
    for (const char *const *k = keep; *k; k++)
      if (!strcmp(e->d_name, *k)) ok = 1;
    if (!ok) {
      fprintf(stderr, "fuzz: leftover file %s/%s\n", fz_dir, e->d_name);
      abort();
    }
  }
  closedir(dir);
}

#define FZ_CHECK(cond)                                                        \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "fuzz: check failed at %s:%d: %s\n", __FILE__, __LINE__, \
              #cond);                                                         \
      abort();                                                                \
    }                                                                         \
  } while (0)

/* The separators the harnesses choose from (any byte but CR, LF, NUL is
 * allowed; these cover the usual ones plus a letter and a high byte). */
static const char fz_seps[8] = {'\t', ',', ' ', ';', '|', 'a', '\x01', '\xe9'};

#endif
