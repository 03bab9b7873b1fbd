/* test_output.c: cluster renumbering and the name<sep>cluster writer
 * (exo_output.h). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifndef _WIN32
#ifdef __linux__
#include <sys/sysmacros.h> /* makedev */
#endif
#include <sys/wait.h>
#endif

#include "exo_fmt.h"
#include "exo_io.h"
#include "exo_output.h"
#include "exo_rng.h"
#include "testutil.h"

#ifdef _WIN32
#define mkdir(path, mode) mkdir(path) /* the CRT's mkdir takes no mode */
#endif

START_TEST(renumber_first_appearance) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  uint64_t lab[] = {5, 5, 2, 7, 2, 0, 7, 9, 5, 0};
  const uint64_t want[] = {1, 1, 2, 3, 2, 4, 3, 5, 1, 4};
  uint64_t k = 99;
  ck_assert_int_eq(exo_output_renumber(lab, 10, &k, &ctx), EXO_OK);
  ck_assert_uint_eq(k, 5);
  ck_assert_mem_eq(lab, want, sizeof want);
  /* singletons stay in id order */
  uint64_t id[] = {0, 1, 2, 3};
  ck_assert_int_eq(exo_output_renumber(id, 4, &k, &ctx), EXO_OK);
  ck_assert_uint_eq(k, 4);
  for (uint64_t v = 0; v < 4; v++) ck_assert_uint_eq(id[v], v + 1);
  /* one cluster */
  uint64_t one[] = {3, 3, 3, 3};
  ck_assert_int_eq(exo_output_renumber(one, 4, &k, &ctx), EXO_OK);
  ck_assert_uint_eq(k, 1);
  for (uint64_t v = 0; v < 4; v++) ck_assert_uint_eq(one[v], 1);
  /* no nodes */
  ck_assert_int_eq(exo_output_renumber(NULL, 0, &k, &ctx), EXO_OK);
  ck_assert_uint_eq(k, 0);
  /* a label that is not a node id: nothing rewritten */
  uint64_t bad[] = {0, 1, 4, 1};
  const uint64_t bad_copy[] = {0, 1, 4, 1};
  ck_assert_int_eq(exo_output_renumber(bad, 4, &k, &ctx), EXO_EINTERNAL);
  ck_assert_mem_eq(bad, bad_copy, sizeof bad);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "label 4"));
}
END_TEST

START_TEST(renumber_large) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  const uint64_t n = 1000000;
  uint64_t *lab = malloc(n * sizeof *lab);
  /* label of v: (n - 1 - v) / 10, so clusters appear in order 1, 2, ... */
  for (uint64_t v = 0; v < n; v++) lab[v] = (n - 1 - v) / 10 * 10;
  uint64_t k = 0;
  ck_assert_int_eq(exo_output_renumber(lab, n, &k, &ctx), EXO_OK);
  ck_assert_uint_eq(k, n / 10);
  for (uint64_t v = 0; v < n; v++) ck_assert_uint_eq(lab[v], v / 10 + 1);
  free(lab);
}
END_TEST

START_TEST(write_exact_bytes_odd_names) {
  char *dir = tu_mkdtemp();
  /* spaces, quotes, '#', UTF-8, a tab, an empty name, a CR is allowed too */
  const char *names =
      "a b\n"
      "\"quoted\"\n"
      "#hash\n"
      "\xc3\xbc\xe2\x82\xac\xf0\x9f\x98\x80\n"
      "tab\there\n"
      "\n"
      "back\\slash;semi\n";
  char *np = tu_write_text(dir, "names.txt", names);
  char *out = tu_path(dir, "out.csv");
  const uint64_t cl[] = {1, 2, 1, 3, 12345678901234ULL, 2, 1};
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write(np, cl, 7, ',', out, 1, &ctx), EXO_OK);
  const char *want =
      "a b,1\n"
      "\"quoted\",2\n"
      "#hash,1\n"
      "\xc3\xbc\xe2\x82\xac\xf0\x9f\x98\x80,3\n"
      "tab\there,12345678901234\n"
      ",2\n"
      "back\\slash;semi,1\n";
  size_t len;
  char *got = tu_read_file(out, &len);
  ck_assert_ptr_nonnull(got);
  ck_assert_uint_eq(len, strlen(want));
  ck_assert_mem_eq(got, want, len);
  free(got);
  ck_assert_int_eq(tu_count_entries(dir), 2); /* names + output, no temp */
  /* tab separator, and overwriting an existing output */
  ck_assert_int_eq(exo_output_write(np, cl, 7, '\t', out, 1, &ctx), EXO_OK);
  got = tu_read_file(out, &len);
  ck_assert_mem_eq(got, "a b\t1\n\"quoted\"\t2\n", 17);
  free(got);
  ck_assert_int_eq(tu_count_entries(dir), 2);
#ifndef _WIN32 /* POSIX permission bits */
  /* the new file is world-readable unless the umask says otherwise */
  struct stat st;
  ck_assert_int_eq(stat(out, &st), 0);
  mode_t mask = umask(022);
  umask(mask);
  ck_assert_uint_eq(st.st_mode & 0777, 0666 & ~mask);
#endif
  free(np);
  free(out);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(write_zero_nodes) {
  char *dir = tu_mkdtemp();
  char *np = tu_write_text(dir, "names.txt", "");
  char *out = tu_path(dir, "out.tsv");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write(np, NULL, 0, '\t', out, 1, &ctx), EXO_OK);
  size_t len = 99;
  char *got = tu_read_file(out, &len);
  ck_assert_ptr_nonnull(got);
  ck_assert_uint_eq(len, 0);
  free(got);
  free(np);
  free(out);
  tu_rmdir(dir);
  free(dir);
}
END_TEST


#ifndef _WIN32
/* Issue 24 item 1: an output that is a device node or a FIFO is written into
 * as it is, never replaced by a regular file renamed over it. A private
 * copy of /dev/null is made with mknod (root only); never the real one. */
START_TEST(special_outputs_written_in_place) {
  char *dir = tu_mkdtemp();
  char *np = tu_write_text(dir, "names.txt", "a\nb\nc\n");
  const uint64_t cl[] = {1, 2, 1};
  const char *want = "a\t1\nb\t2\nc\t1\n";
  exo_ctx ctx;
  struct stat st;
  if (geteuid() == 0) {
    char *dev = tu_path(dir, "null");
    ck_assert_int_eq(mknod(dev, S_IFCHR | 0666, makedev(1, 3)), 0);
    exo_ctx_init(&ctx);
    ck_assert_int_eq(exo_output_write(np, cl, 3, '\t', dev, 4, &ctx), EXO_OK);
    ck_assert_int_eq(lstat(dev, &st), 0);
    ck_assert_msg(S_ISCHR(st.st_mode), "the device node was replaced");
    ck_assert_int_eq(tu_count_entries(dir), 2); /* names.txt and null: no temporary */
    unlink(dev);
    free(dev);
  } else {
    fprintf(stderr, "special_outputs_written_in_place: not root, the mknod part is skipped\n");
  }
  /* a FIFO: a child reads it (alarm: never hangs) into a regular file */
  char *fifo = tu_path(dir, "fifo");
  char *got = tu_path(dir, "got.txt");
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  int pid = tu_fifo_reader(fifo, got);
  ck_assert_int_ge(pid, 0);
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write(np, cl, 3, '\t', fifo, 4, &ctx), EXO_OK);
  ck_assert_msg(tu_fifo_reader_wait(pid) == 0, "the FIFO's reader failed");
  ck_assert_int_eq(lstat(fifo, &st), 0);
  ck_assert_msg(S_ISFIFO(st.st_mode), "the FIFO was replaced");
  size_t len = 0;
  char *text = tu_read_file(got, &len);
  ck_assert_ptr_nonnull(text);
  ck_assert_str_eq(text, want);
  ck_assert_int_eq(tu_count_entries(dir), 3); /* names.txt, fifo, got.txt */
  free(text);
  free(got);
  free(fifo);
  free(np);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* A symbolic link as the output: the link is replaced by the output, its
 * target (here standing for an input) is never written. */
START_TEST(symlink_output_replaces_the_link) {
  char *dir = tu_mkdtemp();
  char *np = tu_write_text(dir, "names.txt", "a\nb\n");
  char *target = tu_write_text(dir, "target.txt", "keep me\n");
  char *link = tu_path(dir, "link.tsv");
  ck_assert_int_eq(symlink(target, link), 0);
  const uint64_t cl[] = {1, 1};
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write(np, cl, 2, '\t', link, 1, &ctx), EXO_OK);
  struct stat st;
  ck_assert_int_eq(lstat(link, &st), 0);
  ck_assert_msg(S_ISREG(st.st_mode), "the link should be replaced by the output");
  size_t len;
  char *t = tu_read_file(target, &len);
  ck_assert_str_eq(t, "keep me\n");
  free(t);
  t = tu_read_file(link, &len);
  ck_assert_str_eq(t, "a\t1\nb\t1\n");
  free(t);
  free(link);
  free(target);
  free(np);
  tu_rmdir(dir);
  free(dir);
}
END_TEST
#endif

START_TEST(unwritable_directory) {
  char *dir = tu_mkdtemp();
  char *np = tu_write_text(dir, "names.txt", "a\nb\n");
  const uint64_t cl[] = {1, 2};
  exo_ctx ctx;
  /* a directory that does not exist */
  char *out = tu_path(dir, "missing/out.tsv");
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write(np, cl, 2, '\t', out, 1, &ctx), EXO_EIO);
  ck_assert_msg(strstr(ctx.err.msg, out) != NULL, "message: %s", ctx.err.msg);
  free(out);
  /* a "directory" that is a regular file */
  out = tu_path(dir, "names.txt/out.tsv");
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write(np, cl, 2, '\t', out, 1, &ctx), EXO_EIO);
  ck_assert_msg(strstr(ctx.err.msg, out) != NULL, "message: %s", ctx.err.msg);
  free(out);
  ck_assert_int_eq(tu_count_entries(dir), 1);
#ifndef _WIN32 /* POSIX permission bits */
  /* a read-only directory (permissions do not bind root) */
  if (geteuid() != 0) {
    char *ro = tu_path(dir, "ro");
    ck_assert_int_eq(mkdir(ro, 0555), 0);
    out = tu_path(ro, "out.tsv");
    exo_ctx_init(&ctx);
    ck_assert_int_eq(exo_output_write(np, cl, 2, '\t', out, 1, &ctx), EXO_EIO);
    ck_assert_msg(strstr(ctx.err.msg, out) != NULL, "message: %s", ctx.err.msg);
    ck_assert_int_eq(tu_count_entries(ro), 0);
    chmod(ro, 0755);
    free(out);
    free(ro);
  }
#endif
  /* the output path is an existing directory: rename fails, temp removed */
  char *sub = tu_path(dir, "sub");
  ck_assert_int_eq(mkdir(sub, 0755), 0);
  char *inner = tu_path(sub, "keep");
  ck_assert_int_eq(mkdir(inner, 0755), 0);
  exo_ctx_init(&ctx);
  ck_assert_int_ne(exo_output_write(np, cl, 2, '\t', inner, 1, &ctx), EXO_OK);
  ck_assert_msg(strstr(ctx.err.msg, inner) != NULL, "message: %s", ctx.err.msg);
  ck_assert_int_eq(tu_count_entries(sub), 1);
  free(inner);
  free(sub);
  /* a missing names file */
  char *missing = tu_path(dir, "no-names.txt");
  out = tu_path(dir, "out.tsv");
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write(missing, cl, 2, '\t', out, 1, &ctx), EXO_EIO);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, missing));
  ck_assert_int_eq(tu_count_entries(dir), 2); /* names.txt, sub */
  free(missing);
  free(out);
  free(np);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(wrong_line_count) {
  char *dir = tu_mkdtemp();
  const uint64_t cl[] = {1, 2, 3, 4};
  char *out = tu_path(dir, "out.tsv");
  /* an older output must survive a failed run untouched */
  ck_assert_int_eq(tu_write_file(out, "old\n", 4), 0);
  const char *cases[] = {
      "a\nb\nc\n",        /* fewer */
      "a\nb\nc\nd\ne\n", /* more */
      "a\nb\nc\nd",      /* last line without a newline */
      "",                /* empty */
  };
  for (int i = 0; i < 4; i++) {
    char *np = tu_write_text(dir, "names.txt", cases[i]);
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    ck_assert_int_eq(exo_output_write(np, cl, 4, '\t', out, 1, &ctx), EXO_EINTERNAL);
    ck_assert_ptr_nonnull(strstr(ctx.err.msg, np));
    ck_assert_int_eq(tu_count_entries(dir), 2); /* names + the old output */
    size_t len;
    char *got = tu_read_file(out, &len);
    ck_assert_uint_eq(len, 4);
    ck_assert_mem_eq(got, "old\n", 4);
    free(got);
    free(np);
  }
  free(out);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(long_names_stream_through) {
  /* names longer than the 4 MiB buffers, mixed with short ones */
  char *dir = tu_mkdtemp();
  const size_t big = (size_t)9 << 20;
  size_t cap = 2 * big + 100;
  char *names = malloc(cap), *want = malloc(cap + 100);
  size_t nl = 0, wl = 0;
  const uint64_t cl[] = {7, 8, 9, 10};
  for (int v = 0; v < 4; v++) {
    size_t len = (v == 1 || v == 2) ? big - (size_t)v : 3;
    for (size_t i = 0; i < len; i++) names[nl + i] = (char)('a' + (i + (size_t)v) % 26);
    memcpy(want + wl, names + nl, len);
    nl += len;
    wl += len;
    names[nl++] = '\n';
    want[wl++] = ';';
    wl += exo_fmt_u64(want + wl, cl[v]);
    want[wl++] = '\n';
  }
  char *np = tu_path(dir, "names.txt");
  ck_assert_int_eq(tu_write_file(np, names, nl), 0);
  char *out = tu_path(dir, "out.txt");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write(np, cl, 4, ';', out, 1, &ctx), EXO_OK);
  size_t len;
  char *got = tu_read_file(out, &len);
  ck_assert_uint_eq(len, wl);
  ck_assert_int_eq(memcmp(got, want, wl), 0);
  free(got);
  /* the same names with one node too few */
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write(np, cl, 3, ';', out, 1, &ctx), EXO_EINTERNAL);
  ck_assert_int_eq(tu_count_entries(dir), 2);
  free(names);
  free(want);
  free(np);
  free(out);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

typedef struct out_cb {
  int polls, stop_at, progress_calls;
  uint64_t last_done, total;
} out_cb;

static int out_intr(void *user) {
  out_cb *c = user;
  return ++c->polls >= c->stop_at;
}

static void out_progress(void *user, exo_stage stage, uint64_t done, uint64_t total) {
  out_cb *c = user;
  ck_assert_int_eq(stage, EXO_STAGE_OUTPUT);
  ck_assert_uint_ge(done, c->last_done);
  ck_assert_uint_le(done, total);
  c->last_done = done;
  c->total = total;
  c->progress_calls++;
}

/* names "n<v>" for v < n, written by hand; returns the path */
static char *write_names(const char *dir, uint64_t n) {
  char *np = tu_path(dir, "names.txt");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_writer w;
  ck_assert_int_eq(exo_writer_open(&w, np, (size_t)1 << 20, &ctx), EXO_OK);
  for (uint64_t v = 0; v < n; v++) {
    uint8_t *d = exo_writer_reserve(&w, 32, &ctx);
    ck_assert_ptr_nonnull(d);
    d[0] = 'n';
    size_t k = 1 + exo_fmt_u64((char *)d + 1, v);
    d[k++] = '\n';
    exo_writer_commit(&w, k);
  }
  ck_assert_int_eq(exo_writer_close(&w, &ctx), EXO_OK);
  return np;
}

static uint64_t digits(uint64_t x) {
  char tmp[EXO_FMT_U64_MAX];
  return exo_fmt_u64(tmp, x);
}

START_TEST(million_nodes) {
  const uint64_t n = 1000000;
  char *dir = tu_mkdtemp();
  char *np = write_names(dir, n);
  uint64_t *cl = malloc(n * sizeof *cl);
  uint64_t expect = 0;
  for (uint64_t v = 0; v < n; v++) {
    cl[v] = v % 1000 + 1;
    expect += 1 + digits(v) + 1 + digits(cl[v]) + 1;
  }
  char *out = tu_path(dir, "out.tsv");
  out_cb cb = {0, 1 << 30, 0, 0, 0};
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ctx.cb.user = &cb;
  ctx.cb.interrupted = out_intr;
  ctx.cb.progress = out_progress;
  ck_assert_int_eq(exo_output_write(np, cl, n, '\t', out, 1, &ctx), EXO_OK);
  ck_assert_uint_eq(cb.last_done, n);
  ck_assert_uint_eq(cb.total, n);
  ck_assert_int_ge(cb.progress_calls, 2 + (int)(n >> 16));
  ck_assert_int_ge(cb.polls, (int)(n >> 16));
  size_t len;
  char *got = tu_read_file(out, &len);
  ck_assert_uint_eq(len, expect);
  ck_assert_mem_eq(got, "n0\t1\nn1\t2\nn2\t3\n", 15);
  const char *tail = "n999998\t999\nn999999\t1000\n";
  ck_assert_mem_eq(got + len - strlen(tail), tail, strlen(tail));
  /* every line checked */
  char *p = got;
  for (uint64_t v = 0; v < n; v++) {
    char line[64];
    size_t k = 0;
    line[k++] = 'n';
    k += exo_fmt_u64(line + k, v);
    line[k++] = '\t';
    k += exo_fmt_u64(line + k, cl[v]);
    line[k++] = '\n';
    if (memcmp(p, line, k) != 0) ck_abort_msg("line %llu differs", (unsigned long long)v);
    p += k;
  }
  free(got);

  /* interrupted part way: EXO_EINTR and only the names file remains */
  exo_unlink(out);
  for (int stop = 1; stop <= 3; stop++) {
    out_cb ci = {0, stop, 0, 0, 0};
    exo_ctx_init(&ctx);
    ctx.cb.user = &ci;
    ctx.cb.interrupted = out_intr;
    ck_assert_int_eq(exo_output_write(np, cl, n, '\t', out, 1, &ctx), EXO_EINTR);
    ck_assert_int_eq(tu_count_entries(dir), 1);
  }
  free(cl);
  free(np);
  free(out);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Several threads: the same bytes as one thread and as the expected text
 * built here, for names of 1..60 bytes, two names longer than the 4 MiB read
 * buffer (one at the very start), clusters of 1..13 digits and ',' as the
 * separator; a names file one line short gives the one-thread error; an
 * interrupt leaves only the names file. */
START_TEST(threads_same_bytes) {
  const uint64_t n = 120000;
  const size_t huge = (size_t)5 << 20;
  char *dir = tu_mkdtemp();
  char *np = tu_path(dir, "names.txt");
  exo_rng rng;
  exo_rng_seed(&rng, 77);
  size_t cap = n * 62 + 2 * (huge + 1), len = 0;
  char *names = malloc(cap);
  uint64_t *cl = malloc(n * sizeof *cl);
  size_t *start = malloc((n + 1) * sizeof *start);
  for (uint64_t v = 0; v < n; v++) {
    start[v] = len;
    size_t k = (v == 0 || v == n / 3) ? huge : 1 + exo_rng_below(&rng, 60);
    for (size_t i = 0; i < k; i++) names[len++] = (char)('a' + (v + i) % 26);
    names[len++] = '\n';
    cl[v] = 1 + exo_rng_below(&rng, (uint64_t)1 << (v % 40));
  }
  start[n] = len;
  ck_assert_int_eq(tu_write_file(np, names, len), 0);
  /* the expected text */
  size_t elen = 0;
  char *expect = malloc(len + n * 16);
  for (uint64_t v = 0; v < n; v++) {
    size_t k = start[v + 1] - start[v] - 1;
    memcpy(expect + elen, names + start[v], k);
    elen += k;
    expect[elen++] = ',';
    elen += exo_fmt_u64(expect + elen, cl[v]);
    expect[elen++] = '\n';
  }
  char *out = tu_path(dir, "out.csv");
  exo_ctx ctx;
  const int threads[] = {1, 2, 3, 4, 8, 64};
  for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
    out_cb cb = {0, 1 << 30, 0, 0, 0};
    exo_ctx_init(&ctx);
    ctx.cb.user = &cb;
    ctx.cb.interrupted = out_intr;
    ctx.cb.progress = out_progress;
    ck_assert_int_eq(exo_output_write(np, cl, n, ',', out, threads[i], &ctx), EXO_OK);
    ck_assert_uint_eq(cb.last_done, n);
    size_t glen;
    char *got = tu_read_file(out, &glen);
    ck_assert_uint_eq(glen, elen);
    ck_assert_msg(memcmp(got, expect, elen) == 0, "%d threads: bytes differ", threads[i]);
    free(got);
    ck_assert_int_eq(tu_count_entries(dir), 2);
  }
  /* one node more than lines: the message of the one-thread writer */
  char msg1[EXO_ERRMSG_MAX];
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write(np, cl, n - 1, ',', out, 1, &ctx), EXO_EINTERNAL);
  memcpy(msg1, ctx.err.msg, sizeof msg1);
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write(np, cl, n - 1, ',', out, 4, &ctx), EXO_EINTERNAL);
  ck_assert_str_eq(ctx.err.msg, msg1);
  /* a last line without its newline: the same */
  ck_assert_int_eq(tu_write_file(np, names, len - 1), 0);
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write(np, cl, n, ',', out, 1, &ctx), EXO_EINTERNAL);
  memcpy(msg1, ctx.err.msg, sizeof msg1);
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write(np, cl, n, ',', out, 3, &ctx), EXO_EINTERNAL);
  ck_assert_str_eq(ctx.err.msg, msg1);
  ck_assert_int_eq(tu_count_entries(dir), 2); /* names + the old output */
  /* interrupted: the first poll (before anything) and a later one */
  ck_assert_int_eq(tu_write_file(np, names, len), 0);
  exo_unlink(out);
  for (int stop = 1; stop <= 2; stop++) {
    out_cb ci = {0, stop, 0, 0, 0};
    exo_ctx_init(&ctx);
    ctx.cb.user = &ci;
    ctx.cb.interrupted = out_intr;
    exo_status rc = exo_output_write(np, cl, n, ',', out, 2, &ctx);
    if (stop == 1) ck_assert_int_eq(rc, EXO_EINTR);
    ck_assert(rc == EXO_EINTR || rc == EXO_OK); /* a fast run may end before poll 2 */
    if (rc == EXO_EINTR) ck_assert_int_eq(tu_count_entries(dir), 1);
    exo_unlink(out);
  }
  free(out);
  free(expect);
  free(start);
  free(cl);
  free(names);
  free(np);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Several cluster columns (nested levels, exo_output_write_columns): the
 * expected text "name,c1,c2,c3" built here, the same bytes for 1, 2, 3
 * and 8 threads (names over 256 KiB, so the blocks run side by side),
 * including a name longer than the write buffer's fast path; one column is
 * the plain writer's output. */
START_TEST(columns_same_bytes) {
  const uint64_t n = 50000;
  char *dir = tu_mkdtemp();
  char *np = tu_path(dir, "names.txt");
  exo_rng rng;
  exo_rng_seed(&rng, 5);
  const size_t huge = (size_t)5 << 20;
  size_t cap = n * 42 + huge + 1, len = 0;
  char *names = malloc(cap);
  uint64_t *c[3];
  for (int j = 0; j < 3; j++) c[j] = malloc(n * 8);
  size_t *start = malloc((n + 1) * sizeof *start);
  for (uint64_t v = 0; v < n; v++) {
    start[v] = len;
    size_t k = v == n / 2 ? huge : 1 + exo_rng_below(&rng, 40);
    for (size_t i = 0; i < k; i++) names[len++] = (char)('a' + (v + i) % 26);
    names[len++] = '\n';
    for (int j = 0; j < 3; j++) c[j][v] = 1 + exo_rng_below(&rng, (uint64_t)1 << (10 * j + 5));
  }
  start[n] = len;
  ck_assert_int_eq(tu_write_file(np, names, len), 0);
  size_t elen = 0;
  char *expect = malloc(len + n * 64);
  for (uint64_t v = 0; v < n; v++) {
    size_t k = start[v + 1] - start[v] - 1;
    memcpy(expect + elen, names + start[v], k);
    elen += k;
    for (int j = 0; j < 3; j++) {
      expect[elen++] = ',';
      elen += exo_fmt_u64(expect + elen, c[j][v]);
    }
    expect[elen++] = '\n';
  }
  char *out = tu_path(dir, "out.csv");
  const int threads[] = {1, 2, 3, 8};
  for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    ck_assert_int_eq(exo_output_write_columns(np, (const uint64_t *const *)c, 3, n, ',', out,
                                              threads[i], NULL, &ctx), EXO_OK);
    size_t glen;
    char *got = tu_read_file(out, &glen);
    ck_assert_uint_eq(glen, elen);
    ck_assert_msg(memcmp(got, expect, elen) == 0, "%d threads: bytes differ", threads[i]);
    free(got);
    /* one column: the plain writer's bytes */
    char *one = tu_path(dir, "one.csv");
    ck_assert_int_eq(exo_output_write_columns(np, (const uint64_t *const *)c, 1, n, ',', out,
                                              threads[i], NULL, &ctx), EXO_OK);
    ck_assert_int_eq(exo_output_write(np, c[0], n, ',', one, threads[i], &ctx), EXO_OK);
    char *a = tu_read_file(out, &glen), *b = tu_read_file(one, NULL);
    ck_assert(memcmp(a, b, glen) == 0);
    free(a);
    free(b);
    exo_unlink(one);
    free(one);
    ck_assert_int_eq(tu_count_entries(dir), 2);
  }
  /* no column: refused */
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_output_write_columns(np, (const uint64_t *const *)c, 0, n, ',', out, 1,
                                            NULL, &ctx), EXO_EARG);
  free(out);
  free(expect);
  free(start);
  for (int j = 0; j < 3; j++) free(c[j]);
  free(names);
  free(np);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Benchmark, only with EXO_OUTPUT_BENCH=1: 1e7 nodes. */
START_TEST(bench_ten_million) {
  if (!getenv("EXO_OUTPUT_BENCH")) return;
  const uint64_t n = 10000000;
  char *dir = tu_mkdtemp();
  char *np = write_names(dir, n);
  uint64_t *cl = malloc(n * sizeof *cl);
  for (uint64_t v = 0; v < n; v++) cl[v] = (v * 2654435761u) % 1000000 + 1;
  char *out = tu_path(dir, "out.tsv");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  ck_assert_int_eq(exo_output_write(np, cl, n, '\t', out, 1, &ctx), EXO_OK);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  struct stat st;
  ck_assert_int_eq(stat(out, &st), 0);
  fprintf(stderr, "bench output: %llu lines, %lld bytes in %.3f s = %.1f M lines/s\n",
          (unsigned long long)n, (long long)st.st_size, secs, (double)n / secs / 1e6);
  free(cl);
  free(np);
  free(out);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

Suite *output_suite(void) {
  Suite *s = suite_create("output");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, threads_same_bytes);
  tcase_add_test(tc, columns_same_bytes);
  tcase_add_test(tc, renumber_first_appearance);
  tcase_add_test(tc, renumber_large);
  tcase_add_test(tc, write_exact_bytes_odd_names);
  tcase_add_test(tc, write_zero_nodes);
  tcase_add_test(tc, unwritable_directory);
#ifndef _WIN32
  tcase_add_test(tc, special_outputs_written_in_place);
  tcase_add_test(tc, symlink_output_replaces_the_link);
#endif
  tcase_add_test(tc, wrong_line_count);
  tcase_add_test(tc, long_names_stream_through);
  tcase_add_test(tc, million_nodes);
  tcase_add_test(tc, bench_ten_million);
  suite_add_tcase(s, tc);
  return s;
}
