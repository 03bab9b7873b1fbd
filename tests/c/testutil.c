/* test_util.c: see testutil.h. */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

char *tu_mkdtemp(void) {
  const char *base = getenv("TMPDIR");
  if (!base || !*base) base = "/tmp";
  char *p = malloc(strlen(base) + 32);
  sprintf(p, "%s/exotest-XXXXXX", base);
  if (!mkdtemp(p)) {
    free(p);
    return NULL;
  }
  return p;
}

char *tu_path(const char *dir, const char *name) {
  char *p = malloc(strlen(dir) + strlen(name) + 2);
  sprintf(p, "%s/%s", dir, name);
  return p;
}

void tu_rmdir(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      char *p = tu_path(dir, e->d_name);
      if (unlink(p) != 0) tu_rmdir(p);
      free(p);
    }
    closedir(d);
  }
  rmdir(dir);
}

int tu_write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t k = fwrite(data, 1, len, f);
  int rc = fclose(f);
  return (k == len && rc == 0) ? 0 : -1;
}

char *tu_write_text(const char *dir, const char *name, const char *text) {
  char *p = tu_path(dir, name);
  if (tu_write_file(p, text, strlen(text)) != 0) {
    free(p);
    return NULL;
  }
  return p;
}

char *tu_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  size_t k;
  while ((k = fread(buf + n, 1, cap - n, f)) > 0) {
    n += k;
    if (n == cap) {
      cap *= 2;
      buf = realloc(buf, cap + 1);
    }
  }
  fclose(f);
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

int tu_count_entries(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  closedir(d);
  return n;
}

int tu_write_gzip(const char *path, const void *data, size_t len) {
  gzFile g = gzopen(path, "wb");
  if (!g) return -1;
  int k = len ? gzwrite(g, data, (unsigned)len) : 0;
  int rc = gzclose(g);
  return ((size_t)k == len && rc == Z_OK) ? 0 : -1;
}
