/* test_input.c: exo_input: plain and gzip streams (several members, zero
 * padding, large payloads), truncated and corrupt gzip, rejected formats,
 * directories and missing files. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#ifndef _WIN32 /* FIFOs fed by a child process: POSIX only */
#include <sys/wait.h>
#endif
#include <unistd.h>

#include "exo_input.h"
#include "exo_platform.h"
#include "exo_rng.h"
#include "testutil.h"

/* Pseudo-random edge-list-like text of exactly n bytes. */
static uint8_t *make_payload(size_t n, uint64_t seed) {
  uint8_t *p = malloc(n);
  exo_rng r;
  exo_rng_seed(&r, seed);
  for (size_t i = 0; i < n; i++) {
    uint64_t v = exo_rng_below(&r, 16);
    p[i] = v < 10 ? (uint8_t)('0' + v) : v < 12 ? '\t' : v < 13 ? '\n' : (uint8_t)('a' + v);
  }
  return p;
}

/* Read all of `path` with reads of at most `cap` bytes; *out malloc'd. */
static exo_status slurp(const char *path, size_t cap, uint8_t **out, size_t *len,
                        exo_ctx *ctx, int *is_gzip, uint64_t *raw) {
  exo_input *in = NULL;
  *out = NULL;
  *len = 0;
  exo_status s = exo_input_open(&in, path, ctx);
  if (s) {
    ck_assert_ptr_null(in);
    return s;
  }
  size_t bufcap = 1 << 16, n = 0;
  uint8_t *buf = malloc(bufcap);
  for (;;) {
    if (bufcap - n < cap) {
      while (bufcap - n < cap) bufcap *= 2;
      buf = realloc(buf, bufcap);
    }
    size_t got = 0;
    s = exo_input_read(in, buf + n, cap, &got, ctx);
    if (s) break;
    ck_assert_uint_le(got, cap);
    if (got == 0) break;
    n += got;
  }
  if (is_gzip) *is_gzip = exo_input_is_gzip(in);
  if (raw) *raw = exo_input_raw_offset(in);
  exo_input_close(in);
  *out = buf;
  *len = n;
  return s;
}

static uint64_t file_size(const char *path) {
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  return (uint64_t)st.st_size;
}

/* Concatenate whole files into `dst`, then `pad` zero bytes. */
static void concat_files(const char *dst, const char **srcs, int n, size_t pad) {
  size_t total = 0;
  char *all = NULL;
  for (int i = 0; i < n; i++) {
    size_t len;
    char *d = tu_read_file(srcs[i], &len);
    ck_assert_ptr_nonnull(d);
    all = realloc(all, total + len + pad + 1);
    memcpy(all + total, d, len);
    total += len;
    free(d);
  }
  all = realloc(all, total + pad + 1);
  memset(all + total, 0, pad);
  ck_assert_int_eq(tu_write_file(dst, all, total + pad), 0);
  free(all);
}

START_TEST(plain_and_gzip_identical) {
  char *dir = tu_mkdtemp();
  const size_t n = (size_t)5 << 20 | 12345; /* > 4 MiB, not a round size */
  uint8_t *data = make_payload(n, 7);
  char *plain = tu_path(dir, "e.tsv"), *gz = tu_path(dir, "e.tsv.gz");
  ck_assert_int_eq(tu_write_file(plain, data, n), 0);
  ck_assert_int_eq(tu_write_gzip(gz, data, n), 0);
  const size_t caps[] = {7, 4096, 1 << 20, 3 << 20};
  for (size_t c = 0; c < sizeof caps / sizeof *caps; c++) {
    size_t cap = caps[c];
    for (int g = 0; g < 2; g++) {
      exo_ctx ctx;
      exo_ctx_init(&ctx);
      uint8_t *out;
      size_t len;
      int isgz = -1;
      uint64_t raw = 0;
      ck_assert_int_eq(slurp(g ? gz : plain, cap, &out, &len, &ctx, &isgz, &raw), EXO_OK);
      ck_assert_uint_eq(len, n);
      ck_assert_int_eq(memcmp(out, data, n), 0);
      ck_assert_int_eq(isgz, g);
      ck_assert_uint_eq(raw, file_size(g ? gz : plain));
      free(out);
    }
  }
  free(data);
  free(plain);
  free(gz);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(gzip_small_reads) {
  /* byte-at-a-time output of a small gzip stream */
  char *dir = tu_mkdtemp();
  const char *text = "a\tb\t1\nb\tc\t2\n";
  char *gz = tu_path(dir, "s.gz");
  ck_assert_int_eq(tu_write_gzip(gz, text, strlen(text)), 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  uint8_t *out;
  size_t len;
  ck_assert_int_eq(slurp(gz, 1, &out, &len, &ctx, NULL, NULL), EXO_OK);
  ck_assert_uint_eq(len, strlen(text));
  ck_assert_mem_eq(out, text, len);
  free(out);
  free(gz);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(gzip_multi_member_and_padding) {
  char *dir = tu_mkdtemp();
  const size_t n = (size_t)9 << 19; /* 4.5 MiB */
  uint8_t *data = make_payload(n, 11);
  const size_t cut[4] = {0, 1000, 3 << 20, n};
  char *parts[3];
  for (int i = 0; i < 3; i++) {
    char name[16];
    snprintf(name, sizeof name, "p%d.gz", i);
    parts[i] = tu_path(dir, name);
    ck_assert_int_eq(tu_write_gzip(parts[i], data + cut[i], cut[i + 1] - cut[i]), 0);
  }
  /* an empty member in the middle as well */
  char *empty = tu_path(dir, "empty.gz");
  ck_assert_int_eq(tu_write_gzip(empty, "", 0), 0);
  const char *srcs[4] = {parts[0], empty, parts[1], parts[2]};
  for (int pad = 0; pad < 2; pad++) {
    char *all = tu_path(dir, pad ? "padded.gz" : "all.gz");
    concat_files(all, srcs, 4, pad ? 3000 : 0);
    for (int k = 0; k < 2; k++) {
      exo_ctx ctx;
      exo_ctx_init(&ctx);
      uint8_t *out;
      size_t len;
      uint64_t raw = 0;
      ck_assert_int_eq(slurp(all, k ? 65536 : (size_t)1 << 20, &out, &len, &ctx, NULL, &raw),
                       EXO_OK);
      ck_assert_uint_eq(len, n);
      ck_assert_int_eq(memcmp(out, data, n), 0);
      ck_assert_uint_eq(raw, file_size(all));
      free(out);
    }
    free(all);
  }
  for (int i = 0; i < 3; i++) free(parts[i]);
  free(empty);
  free(data);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(gzip_truncated) {
  char *dir = tu_mkdtemp();
  const size_t n = (size_t)1 << 20;
  uint8_t *data = make_payload(n, 3);
  char *gz = tu_path(dir, "full.gz");
  ck_assert_int_eq(tu_write_gzip(gz, data, n), 0);
  size_t glen;
  char *g = tu_read_file(gz, &glen);
  /* cut in the deflate data, inside the 8-byte trailer, and right after the magic */
  const size_t keep[] = {glen / 2, glen - 3, 2, 10};
  for (size_t i = 0; i < sizeof keep / sizeof *keep; i++) {
    char *t = tu_path(dir, "cut.gz");
    ck_assert_int_eq(tu_write_file(t, g, keep[i]), 0);
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    uint8_t *out;
    size_t len;
    ck_assert_int_eq(slurp(t, 1 << 20, &out, &len, &ctx, NULL, NULL), EXO_EINPUT);
    ck_assert_int_eq(ctx.err.code, EXO_EINPUT);
    ck_assert_ptr_nonnull(strstr(ctx.err.msg, "truncated"));
    ck_assert_ptr_nonnull(strstr(ctx.err.msg, t));
    free(out);
    free(t);
  }
  free(g);
  free(gz);
  free(data);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(gzip_corrupt_and_trailing_garbage) {
  char *dir = tu_mkdtemp();
  const size_t n = 200000;
  uint8_t *data = make_payload(n, 5);
  char *gz = tu_path(dir, "c.gz");
  ck_assert_int_eq(tu_write_gzip(gz, data, n), 0);
  size_t glen;
  char *g = tu_read_file(gz, &glen);
  /* damage the deflate data: an invalid stream or a CRC mismatch */
  for (size_t k = glen / 3; k < glen / 3 + 64; k++) g[k] = (char)~g[k];
  char *bad = tu_path(dir, "bad.gz");
  ck_assert_int_eq(tu_write_file(bad, g, glen), 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  uint8_t *out;
  size_t len;
  ck_assert_int_eq(slurp(bad, 1 << 20, &out, &len, &ctx, NULL, NULL), EXO_EINPUT);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, bad));
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "corrupt gzip data ("));
  free(out);
  free(g);

  /* a valid member followed by bytes that are not gzip */
  g = tu_read_file(gz, &glen);
  g = realloc(g, glen + 6);
  memcpy(g + glen, "hello\n", 6);
  ck_assert_int_eq(tu_write_file(bad, g, glen + 6), 0);
  exo_ctx_init(&ctx);
  ck_assert_int_eq(slurp(bad, 1 << 20, &out, &len, &ctx, NULL, NULL), EXO_EINPUT);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, bad));
  free(out);
  free(g);
  free(bad);
  free(gz);
  free(data);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(unsupported_formats) {
  char *dir = tu_mkdtemp();
  static const struct {
    const char *name;
    const char *bytes;
    size_t len;
    const char *format;
  } cases[] = {
      {"x.bz2", "BZh91AY&SY\x01\x02", 12, "bzip2"},
      {"x.xz", "\xfd" "7zXZ\x00\x00\x04\xe6", 9, "xz"},
      {"x.zst", "\x28\xb5\x2f\xfd\x24\x05", 6, "zstd"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *p = tu_path(dir, cases[i].name);
    ck_assert_int_eq(tu_write_file(p, cases[i].bytes, cases[i].len), 0);
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_input *in = (exo_input *)&ctx; /* must be reset to NULL */
    ck_assert_int_eq(exo_input_open(&in, p, &ctx), EXO_EINPUT);
    ck_assert_ptr_null(in);
    char want[512];
    snprintf(want, sizeof want,
             "%s: %s-compressed files are not supported; decompress it first", p,
             cases[i].format);
    ck_assert_str_eq(ctx.err.msg, want);
    free(p);
  }
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(directory_missing_empty_short) {
  char *dir = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_input *in = NULL;
  ck_assert_int_eq(exo_input_open(&in, dir, &ctx), EXO_EIO);
  ck_assert_ptr_null(in);
  char want[512];
  snprintf(want, sizeof want, "'%s' is a directory", dir);
  ck_assert_str_eq(ctx.err.msg, want);

  char *missing = tu_path(dir, "no-such-file.tsv");
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_input_open(&in, missing, &ctx), EXO_EIO);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, missing));
  free(missing);

  /* empty, one byte, a lone gzip-looking first byte, and 5 bytes (shorter than
   * the longest magic) are plain data */
  static const char *texts[] = {"", "x", "\x1f", "BZ\n\n\n", "ab\tc\n"};
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    char *p = tu_write_text(dir, "small.tsv", texts[i]);
    exo_ctx_init(&ctx);
    uint8_t *out;
    size_t len;
    int isgz = -1;
    uint64_t raw = 99;
    ck_assert_int_eq(slurp(p, 3, &out, &len, &ctx, &isgz, &raw), EXO_OK);
    ck_assert_uint_eq(len, strlen(texts[i]));
    ck_assert_mem_eq(out, texts[i], len);
    ck_assert_int_eq(isgz, 0);
    ck_assert_uint_eq(raw, strlen(texts[i]));
    free(out);
    free(p);
  }
  /* raw offset of a plain file follows the bytes handed out */
  char *p = tu_write_text(dir, "r.tsv", "0123456789");
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_input_open(&in, p, &ctx), EXO_OK);
  uint8_t b[4];
  size_t got;
  ck_assert_uint_eq(exo_input_raw_offset(in), 0);
  ck_assert_int_eq(exo_input_read(in, b, 4, &got, &ctx), EXO_OK);
  ck_assert_uint_eq(got, 4);
  ck_assert_uint_eq(exo_input_raw_offset(in), 4);
  ck_assert_int_eq(exo_input_read(in, b, 0, &got, &ctx), EXO_OK);
  ck_assert_uint_eq(got, 0);
  exo_input_close(in);
  exo_input_close(NULL);
  free(p);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(empty_gzip) {
  char *dir = tu_mkdtemp();
  char *gz = tu_path(dir, "e.gz");
  ck_assert_int_eq(tu_write_gzip(gz, "", 0), 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  uint8_t *out;
  size_t len;
  int isgz = 0;
  ck_assert_int_eq(slurp(gz, 100, &out, &len, &ctx, &isgz, NULL), EXO_OK);
  ck_assert_uint_eq(len, 0);
  ck_assert_int_eq(isgz, 1);
  free(out);
  free(gz);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* exo_input_plain_fd: the descriptor and size of a plain regular file (and
 * pread through it sees the file), -1 for gzip and FIFOs. */
START_TEST(plain_fd_only_for_regular_files) {
  char *dir = tu_mkdtemp();
  char *plain = tu_write_text(dir, "p.txt", "hello\tworld\n");
  char *gz = tu_path(dir, "g.gz");
  ck_assert_int_eq(tu_write_gzip(gz, "hello\n", 6), 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_input *in = NULL;
  ck_assert_int_eq(exo_input_open(&in, plain, &ctx), EXO_OK);
  uint64_t size = 0;
  int fd = exo_input_plain_fd(in, &size);
  ck_assert_int_ge(fd, 0);
  ck_assert_uint_eq(size, 12);
  char buf[8] = {0};
  ck_assert_int_eq((int)exo_pread(fd, buf, 5, 6), 5);
  ck_assert_str_eq(buf, "world");
  exo_input_close(in);
  ck_assert_int_eq(exo_input_open(&in, gz, &ctx), EXO_OK);
  ck_assert_int_eq(exo_input_plain_fd(in, &size), -1);
  exo_input_close(in);
#ifndef _WIN32 /* no FIFOs, no fork() */
  char *fifo = tu_path(dir, "f");
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    int w = open(fifo, O_WRONLY);
    if (w < 0 || write(w, "a\tb\n", 4) != 4) _exit(1);
    close(w);
    _exit(0);
  }
  ck_assert_int_eq(exo_input_open(&in, fifo, &ctx), EXO_OK);
  ck_assert_int_eq(exo_input_plain_fd(in, NULL), -1);
  exo_input_close(in);
  int status;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  free(fifo);
#endif
  free(plain);
  free(gz);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

Suite *input_suite(void) {
  Suite *s = suite_create("input");
  TCase *tc = tcase_create("input");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, plain_and_gzip_identical);
  tcase_add_test(tc, gzip_small_reads);
  tcase_add_test(tc, gzip_multi_member_and_padding);
  tcase_add_test(tc, gzip_truncated);
  tcase_add_test(tc, gzip_corrupt_and_trailing_garbage);
  tcase_add_test(tc, unsupported_formats);
  tcase_add_test(tc, directory_missing_empty_short);
  tcase_add_test(tc, empty_gzip);
  tcase_add_test(tc, plain_fd_only_for_regular_files);
  suite_add_tcase(s, tc);
  return s;
}
