/* testutil.h: helpers shared by the C unit tests: scratch directories,
 * writing small files, reading whole files. */
#ifndef EXO_TESTUTIL_H
#define EXO_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "exo_csr.h"

/* TU_SAN(normal, sanitized): a test's size, stride or repetition count.
 * The sanitizer builds (`make sanitize`, `make tsan`) define
 * EXO_TEST_SANITIZED and get `sanitized`, a smaller value that still takes
 * the same code paths (threads > 1, several runs and merges, every kind of
 * boundary) at a fraction of the 5-20x slower instrumented cost; every other
 * build (`make ctest`, R CMD check) gets `normal`, unchanged. */
#ifdef EXO_TEST_SANITIZED
#define TU_SAN(normal, sanitized) (sanitized)
#else
#define TU_SAN(normal, sanitized) (normal)
#endif
/* TU_TSAN(other, tsan): `tsan` in the ThreadSanitizer build only (`make
 * tsan` also defines EXO_TEST_TSAN), for loops that start no thread and so
 * give ThreadSanitizer nothing to find (ASan + UBSan still run them whole). */
#ifdef EXO_TEST_TSAN
#define TU_TSAN(other, tsan) (tsan)
#else
#define TU_TSAN(other, tsan) (other)
#endif
/* TU_WINE(other, wine): `wine` in the Windows build that `make win-test`
 * runs under Wine (it also defines EXO_TEST_WINE), where each file opened
 * and each thread started is a round trip to Wine's server: loops over
 * positions or repetitions whose Windows calls are the same each time take
 * a sample there (the Linux builds run them whole). */
#ifdef EXO_TEST_WINE
#define TU_WINE(other, wine) (wine)
#else
#define TU_WINE(other, wine) (other)
#endif

/* A fresh directory under $TMPDIR (or /tmp); malloc'd path. */
char *tu_mkdtemp(void);
/* Remove a directory made by tu_mkdtemp and everything in it. */
void tu_rmdir(const char *dir);
/* malloc'd dir/name. */
char *tu_path(const char *dir, const char *name);
/* Write `len` bytes to path (truncating); returns 0 on success. */
int tu_write_file(const char *path, const void *data, size_t len);
/* Write a NUL-terminated string to dir/name; returns malloc'd path. */
char *tu_write_text(const char *dir, const char *name, const char *text);
/* Read a whole file; malloc'd, NUL-terminated; *len set; NULL on error. */
char *tu_read_file(const char *path, size_t *len);
/* Number of entries (files) in a directory, -1 if it cannot be opened. */
int tu_count_entries(const char *dir);
#ifndef _WIN32
/* A child process copying everything read from the FIFO `fifo` into the
 * regular file `out` (an alarm ends it after 20 s, so a test never hangs);
 * returns its pid (negative if fork failed). tu_fifo_reader_wait: 0 when it
 * read to the end of the FIFO and wrote everything. */
int tu_fifo_reader(const char *fifo, const char *out);
int tu_fifo_reader_wait(int pid);
#endif
/* gzip-compress `len` bytes of data into path with zlib; 0 on success. */
int tu_write_gzip(const char *path, const void *data, size_t len);

/* CSR files (exo_record.h layout) built in memory from an edge list, for
 * the label propagation and refine suites. Undirected: (a,b,w) and (b,a,w);
 * directed a->b: in-arc (b,a,+w) and out-arc (a,b,-w); sorted by (key, nbr),
 * equal pairs in input order. Files live in a fresh directory. */
typedef struct tu_edge {
  uint64_t a, b;
  float w;
} tu_edge;

typedef struct tu_csr {
  char *dir, *offp, *adjp;
  exo_csr_files csr;
} tu_csr;

void tu_csr_build(tu_csr *g, uint64_t n, const tu_edge *e, size_t ne, int directed,
                  int wide);
void tu_csr_free(tu_csr *g);

/* Append to e[ne..] the edges (weight w) of a clique on the nodes
 * [first, first + size); returns the new edge count. */
size_t tu_add_clique(tu_edge *e, size_t ne, uint64_t first, uint64_t size, float w);

#endif
