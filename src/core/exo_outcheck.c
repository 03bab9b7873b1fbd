/* exo_outcheck.c: see exo_outcheck.h. */
#include "exo_outcheck.h"
#include "exo_output.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exo_platform.h"

#if EXO_PATH_BACKSLASH
#define IS_SEP(c) ((c) == '/' || (c) == '\\')
#else
#define IS_SEP(c) ((c) == '/')
#endif

/* malloc'd copy of s[0, n). */
static char *copy_n(const char *s, size_t n) {
  char *c = malloc(n + 1);
  if (c) {
    memcpy(c, s, n);
    c[n] = 0;
  }
  return c;
}

/* Whether the same file: both identities known and equal. */
static int same_identity(const uint64_t a[2], const uint64_t b[2]) {
  return a[0] == b[0] && a[1] == b[1];
}

/* The absolute path `path` will have: realpath of its directory joined with
 * its last component; the path as spelled when the directory does not
 * resolve. malloc'd; NULL when out of memory. */
static char *resolved_path(const char *path) {
  size_t n = strlen(path);
  while (n > 1 && IS_SEP(path[n - 1])) n--; /* "dir/" names dir */
  const char *slash = NULL;
  for (size_t i = n; i-- > 0;)
    if (IS_SEP(path[i])) {
      slash = path + i;
      break;
    }
  char *dir = slash ? copy_n(path, slash == path ? 1 : (size_t)(slash - path)) : copy_n(".", 1);
  const char *base = slash ? slash + 1 : path;
  size_t blen = n - (size_t)(base - path);
  if (!dir) return NULL;
  char *real = exo_realpath(dir);
  free(dir);
  if (!real) return copy_n(path, n);
  size_t rlen = strlen(real);
  char *out = malloc(rlen + blen + 2);
  if (out) {
    memcpy(out, real, rlen);
    size_t k = rlen;
    if (k == 0 || !IS_SEP(out[k - 1])) out[k++] = '/';
    memcpy(out + k, base, blen);
    out[k + blen] = 0;
  }
  free(real);
  return out;
}

/* Is `path` equal to `dir` or below it? Both absolute and resolved. */
static int is_inside(const char *path, const char *dir) {
  size_t d = strlen(dir);
  while (d > 1 && IS_SEP(dir[d - 1])) d--;
  return strncmp(path, dir, d) == 0 && (IS_SEP(path[d]) || path[d] == 0);
}

exo_status exo_check_outputs(const char *const *inputs, size_t ninputs,
                             const char *const *outputs, size_t noutputs,
                             const char *private_dir, exo_ctx *ctx) {
  exo_status st = EXO_OK;
  char **res = calloc(noutputs ? noutputs : 1, sizeof *res);
  char *priv = private_dir ? exo_realpath(private_dir) : NULL;
  if (!res) return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory checking the output paths");
  for (size_t i = 0; i < noutputs && !st; i++) {
    const char *o = outputs[i];
    uint64_t so[2], si[2], sj[2];
    int kind, ikind;
    int exists = exo_path_identity(o, so, &kind) == 0;
    if (exists && kind == EXO_FILE_DIR) {
      st = EXO_FAIL(ctx, EXO_EARG, "the output file '%s' is a directory", o);
      break;
    }
    for (size_t j = 0; exists && j < ninputs && !st; j++) {
      if (exo_path_identity(inputs[j], si, &ikind) == 0 && ikind == EXO_FILE_REGULAR &&
          same_identity(si, so))
        st = EXO_FAIL(ctx, EXO_EARG,
                      "the output file '%s' is the input file '%s' (the same file on disk): "
                      "choose another output path; nothing was read or written",
                      o, inputs[j]);
    }
    if (st) break;
    res[i] = resolved_path(o);
    if (!res[i]) {
      st = EXO_FAIL(ctx, EXO_ENOMEM, "out of memory checking the output paths");
      break;
    }
    if (priv && is_inside(res[i], priv)) {
      st = EXO_FAIL(ctx, EXO_EARG,
                    "the output file '%s' is inside the temporary directory '%s', which is "
                    "removed at the end of the run: choose another output path",
                    o, private_dir);
      break;
    }
    for (size_t j = 0; j < i && !st; j++) {
      int same = exists && exo_path_identity(outputs[j], sj, &ikind) == 0 &&
                 same_identity(sj, so);
      if (same || strcmp(res[i], res[j]) == 0)
        st = EXO_FAIL(ctx, EXO_EARG,
                      "the output files '%s' and '%s' are the same file: give each "
                      "clustering its own output path",
                      outputs[j], o);
    }
  }
  for (size_t i = 0; i < noutputs; i++) free(res[i]);
  free(res);
  free(priv);
  return st;
}

/* Create "<prefix>XXXXXX", write a byte, close, remove; 0 or errno. */
static int probe(const char *prefix) {
  size_t n = strlen(prefix);
  char *tmp = malloc(n + 7);
  if (!tmp) return ENOMEM;
  memcpy(tmp, prefix, n);
  memcpy(tmp + n, "XXXXXX", 7);
  int e = 0;
  int fd = exo_make_tempfile(tmp);
  if (fd < 0) {
    e = errno;
  } else {
    if (exo_pwrite(fd, "x", 1, 0) != 1) e = errno ? errno : EIO;
    if (exo_close(fd) != 0 && !e) e = errno;
    exo_remove(tmp);
  }
  free(tmp);
  return e;
}

exo_status exo_probe_outputs(const char *const *outputs, size_t noutputs, const char *tmpdir,
                             exo_ctx *ctx) {
  for (size_t i = 0; i < noutputs; i++) {
    if (exo_output_written_through(outputs[i], NULL)) continue;
    size_t n = strlen(outputs[i]);
    char *prefix = malloc(n + 6);
    if (!prefix) return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory");
    memcpy(prefix, outputs[i], n);
    memcpy(prefix + n, ".tmp-", 6);
    errno = 0;
    int e = probe(prefix);
    free(prefix);
    if (e) return exo_error_errno(&ctx->err, e, "create the output file", outputs[i]);
  }
  if (tmpdir) {
    char *prefix = malloc(strlen(tmpdir) + 8);
    if (!prefix) return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory");
    strcpy(prefix, tmpdir);
    strcat(prefix, "/probe-");
    errno = 0;
    int e = probe(prefix);
    free(prefix);
    if (e) return exo_error_errno(&ctx->err, e, "write in the temporary directory", tmpdir);
  }
  return EXO_OK;
}
