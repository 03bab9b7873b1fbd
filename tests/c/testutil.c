/* test_util.c: see testutil.h. */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#ifndef _WIN32
#include <sys/wait.h>
#endif

#include <check.h>

#include "exo_platform.h"
#include "exo_record.h"

char *tu_mkdtemp(void) {
  char *base = exo_default_tempdir(); /* $TMPDIR or /tmp; %TEMP% on Windows */
  if (!base) return NULL;
  char *p = malloc(strlen(base) + 32);
  sprintf(p, "%s/exotest-XXXXXX", base);
  free(base);
  if (exo_make_tempdir(p) != 0) {
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

#ifndef _WIN32
int tu_fifo_reader(const char *fifo, const char *out) {
  pid_t pid = fork();
  if (pid != 0) return (int)pid;
  alarm(20);
  FILE *in = fopen(fifo, "rb"), *o = fopen(out, "wb");
  if (!in || !o) _exit(2);
  int c;
  while ((c = fgetc(in)) != EOF) fputc(c, o);
  _exit(fclose(o) == 0 ? 0 : 3);
}

int tu_fifo_reader_wait(int pid) {
  int status = 0;
  if (waitpid((pid_t)pid, &status, 0) != (pid_t)pid) return -1;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}
#endif

int tu_write_gzip(const char *path, const void *data, size_t len) {
  gzFile g = gzopen(path, "wb");
  if (!g) return -1;
  int k = len ? gzwrite(g, data, (unsigned)len) : 0;
  int rc = gzclose(g);
  return ((size_t)k == len && rc == Z_OK) ? 0 : -1;
}

/* ---- CSR builder (see testutil.h) --------------------------------------- */

typedef struct tarc {
  uint64_t key, nbr, seq;
  float w;
} tarc;

static int arc_cmp(const void *x, const void *y) {
  const tarc *a = x, *b = y;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  if (a->nbr != b->nbr) return a->nbr < b->nbr ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq; /* stable */
}

void tu_csr_build(tu_csr *g, uint64_t n, const tu_edge *e, size_t ne, int directed,
                  int wide) {
  memset(g, 0, sizeof *g);
  g->dir = tu_mkdtemp();
  ck_assert_ptr_nonnull(g->dir);
  g->offp = tu_path(g->dir, "csr.off");
  g->adjp = tu_path(g->dir, "csr.adj");
  size_t m = 2 * ne;
  tarc *arcs = malloc((m ? m : 1) * sizeof *arcs);
  for (size_t i = 0; i < ne; i++) {
    if (directed) {
      arcs[2 * i] = (tarc){e[i].b, e[i].a, 2 * i, e[i].w};
      arcs[2 * i + 1] = (tarc){e[i].a, e[i].b, 2 * i + 1, -e[i].w};
    } else {
      arcs[2 * i] = (tarc){e[i].a, e[i].b, 2 * i, e[i].w};
      arcs[2 * i + 1] = (tarc){e[i].b, e[i].a, 2 * i + 1, e[i].w};
    }
  }
  qsort(arcs, m, sizeof *arcs, arc_cmp);
  uint64_t *off = calloc(n + 1, sizeof *off);
  size_t esz = exo_adj_size(wide);
  uint8_t *adj = malloc(m * esz + 1);
  for (size_t i = 0; i < m; i++) {
    ck_assert_uint_lt(arcs[i].key, n);
    off[arcs[i].key + 1]++;
    exo_adj_encode(adj + i * esz, wide, arcs[i].nbr, arcs[i].w);
  }
  for (uint64_t v = 0; v < n; v++) off[v + 1] += off[v];
  ck_assert_int_eq(tu_write_file(g->offp, off, (n + 1) * 8), 0);
  ck_assert_int_eq(tu_write_file(g->adjp, adj, m * esz), 0);
  free(arcs);
  free(off);
  free(adj);
  g->csr = (exo_csr_files){g->offp, g->adjp, n, m, wide};
}

void tu_csr_free(tu_csr *g) {
  tu_rmdir(g->dir);
  free(g->dir);
  free(g->offp);
  free(g->adjp);
}

size_t tu_add_clique(tu_edge *e, size_t ne, uint64_t first, uint64_t size, float w) {
  for (uint64_t i = 0; i < size; i++)
    for (uint64_t j = i + 1; j < size; j++) e[ne++] = (tu_edge){first + i, first + j, w};
  return ne;
}
