/* test_io.c: buffered writer/reader, temp directories, status messages. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef _WIN32
#include <sys/wait.h>
#endif
#ifdef __linux__
#include <sched.h>
#include <sys/mount.h>
#endif

#include "exo_io.h"
#include "exo_platform.h"
#include "exo_fmt.h"
#include "exo_rng.h"
#include "testutil.h"

START_TEST(writer_reader_roundtrip) {
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "data.bin");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_writer w;
  ck_assert_int_eq(exo_writer_open(&w, path, 4096, &ctx), EXO_OK);
  /* 100000 little records through a 4 KiB buffer, plus one big block */
  for (uint32_t i = 0; i < 100000; i++) ck_assert_int_eq(exo_writer_write(&w, &i, 4, &ctx), EXO_OK);
  uint8_t *big = malloc(10000);
  for (int i = 0; i < 10000; i++) big[i] = (uint8_t)(i * 7);
  ck_assert_int_eq(exo_writer_write(&w, big, 10000, &ctx), EXO_OK);
  ck_assert_uint_eq(exo_writer_tell(&w), 410000);
  ck_assert_int_eq(exo_writer_close(&w, &ctx), EXO_OK);
  uint64_t size = 0;
  ck_assert_int_eq(exo_file_size(path, &size, &ctx), EXO_OK);
  ck_assert_uint_eq(size, 410000);

  exo_reader r;
  ck_assert_int_eq(exo_reader_open(&r, path, 4096, 0, UINT64_MAX, 0, &ctx), EXO_OK);
  for (uint32_t i = 0; i < 100000; i++) {
    uint32_t v;
    ck_assert_int_eq(exo_reader_read(&r, &v, 4, &ctx), EXO_OK);
    ck_assert_uint_eq(v, i);
  }
  uint8_t *back = malloc(10000);
  ck_assert_int_eq(exo_reader_read(&r, back, 10000, &ctx), EXO_OK);
  ck_assert_mem_eq(back, big, 10000);
  ck_assert_uint_eq(exo_reader_remaining(&r), 0);
  uint8_t extra;
  ck_assert_int_eq(exo_reader_read(&r, &extra, 1, &ctx), EXO_EINTERNAL);
  exo_reader_close(&r);
  free(big);
  free(back);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(zeroed_objects_close_safely) {
  /* a zeroed struct has fd 0: closing it must not close stdin */
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_writer w;
  exo_reader r;
  memset(&w, 0, sizeof w);
  memset(&r, 0, sizeof r);
  exo_writer_abort(&w);
  ck_assert_int_eq(exo_writer_close(&w, &ctx), EXO_OK);
  exo_reader_close(&r);
#ifndef _WIN32 /* no fcntl; Wine may start the test without a standard input */
  ck_assert_int_ne(fcntl(0, F_GETFD), -1);
#endif
}
END_TEST

START_TEST(reader_subrange_and_peek) {
  char *dir = tu_mkdtemp();
  char *path = tu_write_text(dir, "t.txt", "0123456789abcdef");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_reader r;
  ck_assert_int_eq(exo_reader_open(&r, path, 4096, 4, 10, 0, &ctx), EXO_OK);
  const uint8_t *p;
  size_t avail;
  ck_assert_int_eq(exo_reader_peek(&r, 100, &p, &avail, &ctx), EXO_OK);
  ck_assert_uint_eq(avail, 6);
  ck_assert_mem_eq(p, "456789", 6);
  exo_reader_skip_buffered(&r, 6);
  ck_assert_uint_eq(exo_reader_remaining(&r), 0);
  exo_reader_close(&r);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(open_errors_name_the_file) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_writer w;
  ck_assert_int_eq(exo_writer_open(&w, "/nonexistent-dir-exo/x", 4096, &ctx), EXO_EIO);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "/nonexistent-dir-exo/x"));
  exo_writer_abort(&w); /* safe after a failed open */
  exo_ctx_init(&ctx);
  exo_reader r;
  ck_assert_int_eq(exo_reader_open(&r, "/nonexistent-dir-exo/y", 4096, 0, UINT64_MAX, 0, &ctx), EXO_EIO);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "No such file"));
  exo_reader_close(&r);
}
END_TEST

START_TEST(first_error_wins) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(EXO_FAIL(&ctx, EXO_EINPUT, "first %d", 1), EXO_EINPUT);
  ck_assert_int_eq(EXO_FAIL(&ctx, EXO_EIO, "second"), EXO_EIO);
  ck_assert_int_eq(ctx.err.code, EXO_EINPUT);
  ck_assert_str_eq(ctx.err.msg, "first 1");
  ck_assert_str_eq(exo_status_name(EXO_ENOSPC), "EXO_ENOSPC");
  exo_error e = {EXO_OK, ""};
  ck_assert_int_eq(exo_error_errno(&e, 28 /* ENOSPC */, "write", "/x"), EXO_ENOSPC);
  ck_assert_ptr_nonnull(strstr(e.msg, "no space left"));
  /* the stages' one out-of-memory message */
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_fail_oom(&ctx, "the label tally", 5000000000ULL), EXO_ENOMEM);
  ck_assert_str_eq(ctx.err.msg, "out of memory allocating 5000000000 bytes for the label tally");
  /* a size the caller does not know is not shown as 0 bytes */
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_fail_oom(&ctx, "Leiden's local moving lanes", 0), EXO_ENOMEM);
  ck_assert_str_eq(ctx.err.msg, "out of memory for Leiden's local moving lanes");
}
END_TEST

static int interrupt_after;
static int fake_interrupt(void *user) {
  (void)user;
  return --interrupt_after < 0;
}

START_TEST(poll_reports_interrupt) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ctx.cb.interrupted = fake_interrupt;
  interrupt_after = 2;
  ck_assert_int_eq(exo_poll(&ctx), EXO_OK);
  ck_assert_int_eq(exo_poll(&ctx), EXO_OK);
  ck_assert_int_eq(exo_poll(&ctx), EXO_EINTR);
  ck_assert_int_eq(exo_poll(&ctx), EXO_EINTR); /* sticky */
}
END_TEST

START_TEST(tempdirs_are_unique_and_removed) {
  char *base = tu_mkdtemp();
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  char *a = NULL, *b = NULL;
  ck_assert_int_eq(exo_tempdir_create(base, &a, &ctx), EXO_OK);
  ck_assert_int_eq(exo_tempdir_create(base, &b, &ctx), EXO_OK);
  ck_assert_str_ne(a, b);
  char *f = tu_write_text(a, "junk", "x");
  free(f);
  ck_assert_int_eq(tu_count_entries(base), 2);
  ck_assert_int_eq(exo_tempdir_remove(a), 0);
  ck_assert_int_eq(exo_tempdir_remove(b), 0);
  ck_assert_int_eq(tu_count_entries(base), 0);
  free(a);
  ck_assert_int_eq(exo_tempdir_create("/nonexistent-dir-exo", &a, &ctx), EXO_EIO);
  ck_assert_ptr_null(a);
  free(b);
  tu_rmdir(base);
  free(base);
}
END_TEST

START_TEST(punching_reader_releases_blocks) {
  /* 48 MiB read through a 1 MiB buffer: the consumed part is returned to the
   * file system while reading (st_blocks drops), the size stays. In builds
   * without hole punching (EXO_PUNCH_SUPPORTED 0, exo_platform.h) the reader
   * reads every byte right and leaves the file whole. */
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "run.bin");
  const size_t mib = (size_t)1 << 20, n = 48 * mib;
  uint8_t *data = malloc(n);
  for (size_t i = 0; i < n; i++) data[i] = (uint8_t)(i * 7u + 3u);
  ck_assert_int_eq(tu_write_file(path, data, n), 0);
#if EXO_PUNCH_SUPPORTED
  int fd = open(path, O_RDONLY);
  ck_assert_int_eq(fsync(fd), 0);
  close(fd);
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  ck_assert_uint_ge((uint64_t)st.st_blocks * 512, n);
#endif
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_reader r;
  ck_assert_int_eq(exo_reader_open(&r, path, mib, 0, UINT64_MAX, 1, &ctx), EXO_OK);
  uint8_t *got = malloc(n);
  for (size_t off = 0; off < n; off += mib / 2) {
    ck_assert_int_eq(exo_reader_read(&r, got + off, mib / 2, &ctx), EXO_OK);
#if EXO_PUNCH_SUPPORTED
    /* what is still allocated: the unread bytes, plus at most the buffer
     * (1 MiB) and one punch step (1 MiB) */
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_uint_le((uint64_t)st.st_blocks * 512, n - (off + mib / 2) + 2 * mib);
#endif
  }
  ck_assert_mem_eq(got, data, n);
#if EXO_PUNCH_SUPPORTED
  ck_assert_int_eq(stat(path, &st), 0);
  ck_assert_uint_eq((uint64_t)st.st_size, n);
  ck_assert_uint_le((uint64_t)st.st_blocks * 512, 2 * mib);
#endif
  exo_reader_close(&r);
#if !EXO_PUNCH_SUPPORTED
  size_t len = 0;
  char *again = tu_read_file(path, &len);
  ck_assert_uint_eq(len, n);
  ck_assert_mem_eq(again, data, n);
  free(again);
#endif
  free(got);
  free(data);
  tu_rmdir(dir);
  free(path);
  free(dir);
}
END_TEST

/* Big buffers: contents survive resizing within and across the mapping
 * threshold; aligned ones are aligned and zeroed. */

#ifndef _WIN32
/* A child that makes a run directory (with a file and a nested directory,
 * as the pipeline and Leiden do), sends its path through `fd` and waits to
 * be killed (alarm: never outlives the test). */
static pid_t start_run(const char *base, char *path, size_t cap) {
  int p[2];
  ck_assert_int_eq(pipe(p), 0);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    alarm(60);
    close(p[0]);
    exo_ctx c;
    exo_ctx_init(&c);
    char *d = NULL, *nested = NULL;
    int lock = -1;
    if (exo_tempdir_create_run(base, &d, &lock, &c) != EXO_OK || lock < 0) _exit(2);
    free(tu_write_text(d, "csr.adjacency", "0123456789"));
    if (exo_tempdir_create(d, &nested, &c) != EXO_OK) _exit(3);
    free(tu_write_text(nested, "level1", "x"));
    if (write(p[1], d, strlen(d) + 1) < 0) _exit(4);
    close(p[1]);
    for (;;) pause();
  }
  close(p[1]);
  size_t k = 0;
  ssize_t r;
  while (k < cap - 1 && (r = read(p[0], path + k, cap - 1 - k)) > 0) {
    k += (size_t)r;
    if (path[k - 1] == 0) break;
  }
  path[k] = 0;
  close(p[0]);
  ck_assert_msg(k > 0 && path[0], "the child could not make its run directory");
  return pid;
}

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Issue 24 item 4: a run killed with SIGKILL leaves its directory; the next
 * run in the same base removes it, and nothing else: not a live run's
 * (another process's or this process's), not a directory without the
 * marker, not one whose marker names another host. */
START_TEST(dead_runs_directories_are_removed) {
  char *base = tu_mkdtemp();
  char dead[4096], live[4096];
  pid_t a = start_run(base, dead, sizeof dead);
  pid_t b = start_run(base, live, sizeof live);
  ck_assert(is_dir(dead) && is_dir(live));
  kill(a, SIGKILL);
  int status;
  ck_assert_int_eq(waitpid(a, &status, 0), a);
  ck_assert(is_dir(dead)); /* SIGKILL: nothing cleaned */
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  char *mine = NULL, *next = NULL;
  int mine_lock = -1, next_lock = -1;
  ck_assert_int_eq(exo_tempdir_create_run(base, &mine, &mine_lock, &ctx), EXO_OK);
  /* decoys: the name without a marker; a marker of another host */
  char *plain = tu_path(base, "exolabel-AbC123");
  ck_assert_int_eq(mkdir(plain, 0700), 0);
  free(tu_write_text(plain, "data", "x"));
  char *other = tu_path(base, "exolabel-zzzzzz");
  ck_assert_int_eq(mkdir(other, 0700), 0);
  free(tu_write_text(other, EXO_TEMPLOCK_NAME,
                     "exolabel temporary directory\npid 1\nhost no-such-host.invalid\n"));
  char *file = tu_write_text(base, "exolabel-qqqqqq", "not a directory");
  /* the next run */
  ck_assert_int_eq(exo_tempdir_create_run(base, &next, &next_lock, &ctx), EXO_OK);
  ck_assert_msg(!is_dir(dead), "the killed run's directory %s is still there", dead);
  ck_assert(is_dir(live));
  ck_assert(is_dir(mine));
  ck_assert(is_dir(plain));
  ck_assert(is_dir(other));
  ck_assert_int_eq(access(file, F_OK), 0);
  char *f = tu_path(live, "csr.adjacency");
  ck_assert_int_eq(access(f, F_OK), 0); /* the live run's files untouched */
  free(f);
  /* once the other run is killed too, a run removes its directory as well */
  kill(b, SIGKILL);
  ck_assert_int_eq(waitpid(b, &status, 0), b);
  ck_assert_int_eq(exo_clean_stale_tempdirs(base), 1);
  ck_assert(!is_dir(live));
  ck_assert(is_dir(mine) && is_dir(next));
  ck_assert_int_eq(exo_tempdir_remove(mine), 0);
  exo_tempdir_unlock(mine_lock);
  ck_assert_int_eq(exo_tempdir_remove(next), 0);
  exo_tempdir_unlock(next_lock);
  free(mine);
  free(next);
  free(plain);
  free(other);
  free(file);
  tu_rmdir(base);
  free(base);
}
END_TEST
#endif

#ifdef __linux__
/* Issue 53 item 3: a filesystem mounted inside a dead run's directory is
 * neither entered nor removed, and the directory keeps its marker so that
 * a later run recognises it again. The mount is a tmpfs in a private mount
 * namespace of a child (root only; skipped otherwise): the machine's own
 * mounts are never touched. Child exit codes: 0 passed, 77 skipped, others
 * name the failed check. */
static int mount_child(const char *dir, const char *base) {
  if (unshare(CLONE_NEWNS) != 0) return 77;
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return 77;
  char *sub = tu_path(dir, "sub");
  if (mount("exotest", sub, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m") != 0) return 77;
  char *inner = tu_write_text(sub, "theirs", "not ours to delete");
  char *deep = tu_path(sub, "deeper");
  if (!inner || mkdir(deep, 0700) != 0) return 10;
  free(tu_write_text(deep, "x", "y"));
  int removed = exo_clean_stale_tempdirs(base);
  int rc = 0;
  char *marker = tu_path(dir, EXO_TEMPLOCK_NAME);
  char *ours = tu_path(dir, "csr.adjacency");
  char *deepx = tu_path(deep, "x");
  if (removed != 0) rc = 11;                       /* the directory stays */
  else if (access(inner, F_OK) != 0) rc = 12;      /* the mount's files too */
  else if (access(deepx, F_OK) != 0) rc = 13;
  else if (access(marker, F_OK) != 0) rc = 14;     /* still recognisable */
  else if (access(ours, F_OK) == 0) rc = 15;       /* the run's own file went */
  umount2(sub, MNT_DETACH);
  free(sub), free(inner), free(deep), free(marker), free(ours), free(deepx);
  return rc;
}

START_TEST(dead_run_cleanup_stays_on_its_filesystem) {
  char *base = tu_mkdtemp();
  char *dir = tu_path(base, "exolabel-Mnt053");
  ck_assert_int_eq(mkdir(dir, 0700), 0);
  char host[256];
  ck_assert_int_eq(gethostname(host, sizeof host - 1), 0);
  host[sizeof host - 1] = 0;
  char text[400];
  /* a dead run of this host: pid 1 never holds the lock */
  snprintf(text, sizeof text, "exolabel temporary directory\npid 1\nhost %s\n", host);
  free(tu_write_text(dir, EXO_TEMPLOCK_NAME, text));
  free(tu_write_text(dir, "csr.adjacency", "0123456789"));
  char *sub = tu_path(dir, "sub");
  ck_assert_int_eq(mkdir(sub, 0700), 0);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    alarm(60);
    _exit(mount_child(dir, base));
  }
  int status;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert(WIFEXITED(status));
  int rc = WEXITSTATUS(status);
  if (rc == 77) {
    fprintf(stderr, "dead_run_cleanup_stays_on_its_filesystem: skipped (no private tmpfs mount: "
                    "not root, or no mount namespaces)\n");
  } else {
    ck_assert_msg(rc == 0, "check %d failed in the child (see mount_child)", rc);
    /* the namespace is gone with the child, and so is the mount: the
     * leftover is recognised again and removed now */
    ck_assert(is_dir(dir));
    ck_assert_int_eq(exo_clean_stale_tempdirs(base), 1);
    ck_assert(!is_dir(dir));
  }
  free(sub);
  free(dir);
  tu_rmdir(base);
  free(base);
}
END_TEST
#endif

START_TEST(big_buffers) {
  const size_t mib = (size_t)1 << 20;
  uint8_t *p = exo_big_alloc(2 * mib);
  ck_assert_ptr_nonnull(p);
  for (size_t i = 0; i < 2 * mib; i++) p[i] = (uint8_t)(i * 13u);
  p = exo_big_realloc(p, 2 * mib, 3 * mib); /* both mappings */
  ck_assert_ptr_nonnull(p);
  for (size_t i = 0; i < 2 * mib; i += 4099) ck_assert_uint_eq(p[i], (uint8_t)(i * 13u));
  p = exo_big_realloc(p, 3 * mib, mib / 2); /* mapping -> malloc */
  ck_assert_ptr_nonnull(p);
  for (size_t i = 0; i < mib / 2; i += 997) ck_assert_uint_eq(p[i], (uint8_t)(i * 13u));
  p = exo_big_realloc(p, mib / 2, 2 * mib); /* malloc -> mapping */
  ck_assert_ptr_nonnull(p);
  for (size_t i = 0; i < mib / 2; i += 997) ck_assert_uint_eq(p[i], (uint8_t)(i * 13u));
  exo_big_free(p, 2 * mib);
  exo_big_free(NULL, 5);
  const size_t two = 2 * mib;
  uint8_t *a = exo_big_alloc_aligned(5 * mib, two);
  ck_assert_ptr_nonnull(a);
  ck_assert_uint_eq((uintptr_t)a % two, 0);
  for (size_t i = 0; i < 5 * mib; i += 4096) ck_assert_uint_eq(a[i], 0);
  a[5 * mib - 1] = 7; /* the whole range is usable */
  exo_big_free(a, 5 * mib);
  uint8_t *b = exo_big_alloc_aligned(4096, 4096);
  ck_assert_ptr_nonnull(b);
  ck_assert_uint_eq((uintptr_t)b % 4096, 0);
  exo_big_free(b, 4096);
}
END_TEST

START_TEST(fmt_and_rng) {
  char buf[32];
  size_t n = exo_fmt_u64(buf, 0);
  ck_assert_uint_eq(n, 1);
  ck_assert_mem_eq(buf, "0", 1);
  n = exo_fmt_u64(buf, UINT64_MAX);
  buf[n] = 0;
  ck_assert_str_eq(buf, "18446744073709551615");
  exo_rng a, b;
  exo_rng_seed(&a, 42);
  exo_rng_seed(&b, 42);
  for (int i = 0; i < 100; i++) ck_assert_uint_eq(exo_rng_next(&a), exo_rng_next(&b));
  int hist[7] = {0};
  for (int i = 0; i < 70000; i++) hist[exo_rng_below(&a, 7)]++;
  for (int i = 0; i < 7; i++) ck_assert(hist[i] > 9000 && hist[i] < 11000);
}
END_TEST

#if EXO_PUNCH_SUPPORTED /* counts allocated bytes (st_blocks) and uses fcntl: Linux builds */
/* Two punching readers on disjoint, unaligned ranges of one file, sharing
 * one descriptor and read in alternation (as two merge threads do): each gets its bytes intact (the
 * other's punches never touch them), the consumed blocks are released, and
 * after exo_reader_punch_read of both at most the two partial blocks at the
 * ranges' ends stay allocated. */
START_TEST(range_readers_punch_only_their_range) {
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "run.bin");
  const size_t n = (size_t)24 << 20, cut = ((size_t)11 << 20) + 1234, buf = 256 << 10;
  uint8_t *data = malloc(n), *got = malloc(n);
  for (size_t i = 0; i < n; i++) data[i] = (uint8_t)(i * 13u + 5u);
  ck_assert_int_eq(tu_write_file(path, data, n), 0);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_reader a, b;
  /* both on one shared descriptor, as the final merge's ranges do */
  int fd = open(path, O_RDWR);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(exo_reader_open_fd(&a, fd, path, buf, 0, cut, 1, &ctx), EXO_OK);
  ck_assert_int_eq(exo_reader_open_fd(&b, fd, path, buf, cut, n, 1, &ctx), EXO_OK);
  size_t pa = 0, pb = cut, step = 100000;
  struct stat st;
  while (pa < cut || pb < n) {
    size_t k = cut - pa < step ? cut - pa : step;
    if (k) ck_assert_int_eq(exo_reader_read(&a, got + pa, k, &ctx), EXO_OK);
    pa += k;
    k = n - pb < step ? n - pb : step;
    if (k) ck_assert_int_eq(exo_reader_read(&b, got + pb, k, &ctx), EXO_OK);
    pb += k;
    ck_assert_int_eq(stat(path, &st), 0);
    /* unread bytes + per reader its buffer and one punch step (= buffer) */
    ck_assert_uint_le((uint64_t)st.st_blocks * 512, (cut - pa) + (n - pb) + 4 * buf + 8192);
  }
  ck_assert_mem_eq(got, data, n);
  exo_reader_punch_read(&a);
  exo_reader_punch_read(&b);
  ck_assert_int_eq(stat(path, &st), 0);
  ck_assert_uint_le((uint64_t)st.st_blocks * 512, 2 * 4096);
  ck_assert_uint_eq((uint64_t)st.st_size, n);
  exo_reader_close(&a);
  exo_reader_close(&b);
  ck_assert_int_ne(fcntl(fd, F_GETFD), -1); /* borrowed: still open */
  close(fd);
  free(got);
  free(data);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST
#endif

/* Positioned writers fill disjoint parts of one file in any order; the
 * file is the concatenation; an open of a missing file fails with its name. */
START_TEST(positioned_writers_fill_parts) {
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "parts.bin");
  const size_t n = 300000;
  uint8_t *data = malloc(n);
  for (size_t i = 0; i < n; i++) data[i] = (uint8_t)(i * 31u + 7u);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_writer w;
  ck_assert_int_eq(exo_writer_open(&w, path, 4096, &ctx), EXO_OK);
  ck_assert_int_eq(exo_writer_close(&w, &ctx), EXO_OK);
  const size_t cuts[4] = {0, 1, 123457, n};
  for (int part = 2; part >= 0; part--) { /* last part first */
    exo_writer p;
    ck_assert_int_eq(exo_writer_open_at(&p, path, 4096, cuts[part], &ctx), EXO_OK);
    size_t off = cuts[part];
    while (off < cuts[part + 1]) { /* small writes and one large one */
      size_t k = cuts[part + 1] - off;
      if (k > 1000 && off % 3 == 0) k = 1000;
      ck_assert_int_eq(exo_writer_write(&p, data + off, k, &ctx), EXO_OK);
      off += k;
    }
    ck_assert_uint_eq(exo_writer_tell(&p), cuts[part + 1] - cuts[part]);
    ck_assert_int_eq(exo_writer_close(&p, &ctx), EXO_OK);
  }
  size_t len;
  char *back = tu_read_file(path, &len);
  ck_assert_uint_eq(len, n);
  ck_assert_mem_eq(back, data, n);
  free(back);
  char *missing = tu_path(dir, "missing.bin");
  exo_writer q;
  ck_assert_int_eq(exo_writer_open_at(&q, missing, 4096, 0, &ctx), EXO_EIO);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "missing.bin"));
  exo_writer_abort(&q);
  free(missing);
  free(data);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* exo_pread_cached reads only what the file holds, from the first byte
 * asked, and keeps errno: 0 bytes where it cannot tell (other systems, a
 * bad descriptor), else the file's own bytes. A reader of 1 MiB buffers
 * (which skips its read-ahead hint after a fill from the page cache) gives
 * the file's bytes whichever way each fill went. */
START_TEST(pread_cached_reads_only_file_bytes) {
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "cached.bin");
  const size_t n = (size_t)3 << 20;
  uint8_t *data = malloc(n), *buf = malloc(n + 4096);
  exo_rng rng;
  exo_rng_seed(&rng, 7);
  for (size_t i = 0; i < n; i++) data[i] = (uint8_t)exo_rng_next(&rng);
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_writer w;
  ck_assert_int_eq(exo_writer_open(&w, path, 1 << 16, &ctx), EXO_OK);
  ck_assert_int_eq(exo_writer_write(&w, data, n, &ctx), EXO_OK);
  ck_assert_int_eq(exo_writer_close(&w, &ctx), EXO_OK);
  int fd = exo_open(path, EXO_OPEN_READ);
  ck_assert_int_ge(fd, 0);
  errno = EDOM;
  size_t got = exo_pread_cached(fd, buf, n, 0);
  ck_assert_uint_le(got, n);
  ck_assert_mem_eq(buf, data, got);
  ck_assert_int_eq(errno, EDOM);
  got = exo_pread_cached(fd, buf, 4096, n - 100); /* past the end: the last 100 at most */
  ck_assert_uint_le(got, 100);
  ck_assert_mem_eq(buf, data + n - 100, got);
  ck_assert_uint_eq(exo_pread_cached(fd, buf, 4096, n + 4096), 0);
  ck_assert_uint_eq(exo_pread_cached(-1, buf, 4096, 0), 0);
  ck_assert_int_eq(errno, EDOM);
  exo_close(fd);
  exo_reader r;
  ck_assert_int_eq(exo_reader_open(&r, path, (size_t)1 << 20, 0, UINT64_MAX, 0, &ctx), EXO_OK);
  for (size_t at = 0; at < n; at += 65536 + 7) {
    const size_t k = n - at < 65536 + 7 ? n - at : 65536 + 7;
    ck_assert_int_eq(exo_reader_read(&r, buf, k, &ctx), EXO_OK);
    ck_assert_mem_eq(buf, data + at, k);
  }
  ck_assert_uint_eq(exo_reader_remaining(&r), 0);
  exo_reader_close(&r);
  free(data);
  free(buf);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

Suite *io_suite(void) {
  Suite *s = suite_create("io");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, writer_reader_roundtrip);
  tcase_add_test(tc, reader_subrange_and_peek);
  tcase_add_test(tc, zeroed_objects_close_safely);
  tcase_add_test(tc, open_errors_name_the_file);
  tcase_add_test(tc, first_error_wins);
  tcase_add_test(tc, poll_reports_interrupt);
  tcase_add_test(tc, tempdirs_are_unique_and_removed);
#ifndef _WIN32
  tcase_add_test(tc, dead_runs_directories_are_removed);
#endif
#ifdef __linux__
  tcase_add_test(tc, dead_run_cleanup_stays_on_its_filesystem);
#endif
  tcase_add_test(tc, big_buffers);
  tcase_add_test(tc, fmt_and_rng);
  tcase_add_test(tc, punching_reader_releases_blocks);
#if EXO_PUNCH_SUPPORTED
  tcase_add_test(tc, range_readers_punch_only_their_range);
#endif
  tcase_add_test(tc, positioned_writers_fill_parts);
  tcase_add_test(tc, pread_cached_reads_only_file_bytes);
  suite_add_tcase(s, tc);
  return s;
}
