/* test_outcheck.c: output paths that would destroy an input, clash with
 * each other or vanish with the private directory are refused before
 * anything is read or written. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exo_outcheck.h"
#include "exo_pipeline.h"
#include "testutil.h"

#ifdef _WIN32
#define mkdir(path, mode) mkdir(path) /* the CRT's mkdir takes no mode */
#endif

static const char *EDGES = "a\tb\t1\nb\tc\t1\n";

/* exo_check_outputs with one input and the given outputs; EXO_OK or the
 * status, with the message copied to msg. */
static exo_status check(const char *input, const char **outs, size_t nout,
                        const char *priv, char *msg) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  const char *in[1] = {input};
  exo_status st = exo_check_outputs(in, input ? 1 : 0, outs, nout, priv, &ctx);
  strcpy(msg, ctx.err.msg);
  return st;
}

START_TEST(output_equal_to_input_in_any_spelling) {
  char *dir = tu_mkdtemp();
  char *in = tu_write_text(dir, "edges.tsv", EDGES);
  char msg[EXO_ERRMSG_MAX];
  /* the same path */
  const char *o1[1] = {in};
  ck_assert_int_eq(check(in, o1, 1, NULL, msg), EXO_EARG);
  ck_assert_ptr_nonnull(strstr(msg, "is the input file"));
  ck_assert_ptr_nonnull(strstr(msg, in));
  /* another spelling: dir/./edges.tsv and dir/sub/../edges.tsv */
  char *sub = tu_path(dir, "sub");
  ck_assert_int_eq(mkdir(sub, 0700), 0);
  char spelled[4096];
  snprintf(spelled, sizeof spelled, "%s/sub/../edges.tsv", dir);
  const char *o2[1] = {spelled};
  ck_assert_int_eq(check(in, o2, 1, NULL, msg), EXO_EARG);
  char *slink = tu_path(dir, "link.tsv");
  char *hard = tu_path(dir, "hard.tsv");
#ifndef _WIN32 /* symlink() and link() are POSIX (Windows symlinks need privileges) */
  /* a symlink to the input */
  ck_assert_int_eq(symlink(in, slink), 0);
  const char *o3[1] = {slink};
  ck_assert_int_eq(check(in, o3, 1, NULL, msg), EXO_EARG);
  /* a hard link to the input */
  ck_assert_int_eq(link(in, hard), 0);
  const char *o4[1] = {hard};
  ck_assert_int_eq(check(in, o4, 1, NULL, msg), EXO_EARG);
  /* the input named through a symlink, the output by its real path */
  ck_assert_int_eq(check(slink, o1, 1, NULL, msg), EXO_EARG);
#endif
  /* a different file, existing or not, is fine */
  char *other = tu_write_text(dir, "other.tsv", "x\n");
  char *fresh = tu_path(dir, "fresh.tsv");
  const char *ok[2] = {other, fresh};
  ck_assert_int_eq(check(in, ok, 2, NULL, msg), EXO_OK);
  /* the input is untouched */
  size_t len;
  char *text = tu_read_file(in, &len);
  ck_assert_str_eq(text, EDGES);
  free(text);
  free(sub); free(slink); free(hard); free(other); free(fresh); free(in);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(outputs_clashing_with_each_other) {
  char *dir = tu_mkdtemp();
  char *sub = tu_path(dir, "sub");
  ck_assert_int_eq(mkdir(sub, 0700), 0);
  char msg[EXO_ERRMSG_MAX];
  /* not yet existing, spelled differently */
  char a[4096], b[4096];
  snprintf(a, sizeof a, "%s/out.tsv", dir);
  snprintf(b, sizeof b, "%s/sub/../out.tsv", dir);
  const char *o[2] = {a, b};
  ck_assert_int_eq(check(NULL, o, 2, NULL, msg), EXO_EARG);
  ck_assert_ptr_nonnull(strstr(msg, "are the same file"));
  char *alias = tu_path(dir, "alias");
  char *x = tu_write_text(dir, "x.tsv", "x\n");
  char *y = tu_path(dir, "y.tsv");
#ifndef _WIN32 /* symlink() and link() are POSIX */
  /* through a symlinked directory */
  ck_assert_int_eq(symlink(dir, alias), 0);
  snprintf(b, sizeof b, "%s/out.tsv", alias);
  ck_assert_int_eq(check(NULL, o, 2, NULL, msg), EXO_EARG);
  /* existing hard links */
  ck_assert_int_eq(link(x, y), 0);
  const char *o2[2] = {x, y};
  ck_assert_int_eq(check(NULL, o2, 2, NULL, msg), EXO_EARG);
#endif
  /* distinct outputs pass; a directory does not */
  snprintf(b, sizeof b, "%s/sub/out2.tsv", dir);
  ck_assert_int_eq(check(NULL, o, 2, NULL, msg), EXO_OK);
  const char *o3[1] = {sub};
  ck_assert_int_eq(check(NULL, o3, 1, NULL, msg), EXO_EARG);
  ck_assert_ptr_nonnull(strstr(msg, "is a directory"));
  free(sub); free(alias); free(x); free(y);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(output_inside_the_private_directory) {
  char *dir = tu_mkdtemp();
  char *priv = tu_path(dir, "exolabel-private");
  ck_assert_int_eq(mkdir(priv, 0700), 0);
  char msg[EXO_ERRMSG_MAX];
  char inside[4096], twin[4096];
  snprintf(inside, sizeof inside, "%s/clusters.tsv", priv);
  snprintf(twin, sizeof twin, "%s-2/clusters.tsv", priv); /* prefix, not inside */
  const char *o[1] = {inside};
  ck_assert_int_eq(check(NULL, o, 1, priv, msg), EXO_EARG);
  ck_assert_ptr_nonnull(strstr(msg, "removed at the end"));
  const char *o2[1] = {twin};
  ck_assert_int_eq(check(NULL, o2, 1, priv, msg), EXO_OK);
  free(priv);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* The pipeline refuses before reading: the input keeps its bytes, no
 * output and no temporary directory are left. */
START_TEST(pipeline_refuses_before_reading) {
  char *dir = tu_mkdtemp();
  char *tmp = tu_path(dir, "tmp");
  ck_assert_int_eq(mkdir(tmp, 0700), 0);
  char *in = tu_write_text(dir, "edges.tsv", EDGES);
  char *in2 = tu_write_text(dir, "more.tsv", "c\td\t1\n");
  char spelled[4096];
  snprintf(spelled, sizeof spelled, "%s/./edges.tsv", dir);
  const char *files[2] = {in2, in};
  const char *outs[1] = {spelled};
  exo_build_options opt;
  memset(&opt, 0, sizeof opt);
  opt.files = files;
  opt.nfiles = 2;
  opt.outputs = outs;
  opt.noutputs = 1;
  opt.parse.sep = '\t';
  opt.tempdir_base = tmp;
  opt.memory_limit = 8u << 20;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_graph *g = NULL;
  ck_assert_int_eq(exo_graph_build(&opt, &ctx, &g), EXO_EARG);
  ck_assert_ptr_null(g);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "is the input file"));
  ck_assert_int_eq(tu_count_entries(tmp), 0);
  /* a host that adds files one by one without listing them up front is
   * stopped at the clashing file, before it is read */
  opt.files = NULL;
  opt.nfiles = 0;
  exo_ctx_init(&ctx);
  exo_builder *b = NULL;
  ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_OK);
  ck_assert_int_eq(exo_builder_add_file(b, in2, &ctx), EXO_OK);
  ck_assert_int_eq(exo_builder_add_file(b, in, &ctx), EXO_EARG);
  exo_builder_abort(b);
  ck_assert_int_eq(tu_count_entries(tmp), 0);
  size_t len;
  char *text = tu_read_file(in, &len);
  ck_assert_str_eq(text, EDGES);
  free(text);
  free(tmp); free(in); free(in2);
  tu_rmdir(dir);
  free(dir);
}
END_TEST


/* Issue 24 item 3: an output that cannot be created fails when the builder
 * is created, before any input is read, and the probe leaves nothing. */
START_TEST(unwritable_output_fails_before_reading) {
  char *dir = tu_mkdtemp();
  char *tmp = tu_path(dir, "tmp");
  ck_assert_int_eq(mkdir(tmp, 0700), 0);
  char *in = tu_write_text(dir, "edges.tsv", EDGES);
  char *bad1 = tu_path(dir, "missing/out.tsv");   /* no such directory */
  char *bad2 = tu_path(dir, "edges.tsv/out.tsv"); /* the "directory" is a file */
  char *good = tu_path(dir, "out.tsv");
  const char *cases[2] = {bad1, bad2};
  for (int i = 0; i < 2; i++) {
    const char *outs[2] = {good, cases[i]};
    exo_build_options opt;
    memset(&opt, 0, sizeof opt);
    opt.outputs = outs;
    opt.noutputs = 2;
    opt.parse.sep = '\t';
    opt.tempdir_base = tmp;
    opt.memory_limit = 8u << 20;
    exo_ctx ctx;
    exo_ctx_init(&ctx);
    exo_builder *b = NULL;
    ck_assert_int_eq(exo_builder_create(&opt, &ctx, &b), EXO_EIO);
    ck_assert_ptr_null(b);
    ck_assert_msg(strstr(ctx.err.msg, cases[i]) != NULL, "message: %s", ctx.err.msg);
    ck_assert_int_eq(tu_count_entries(tmp), 0);
    ck_assert_int_eq(tu_count_entries(dir), 2); /* tmp and edges.tsv: no probe left */
  }
  /* a writable output passes and leaves nothing either */
  const char *outs[1] = {good};
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_probe_outputs(outs, 1, tmp, &ctx), EXO_OK);
  ck_assert_int_eq(tu_count_entries(dir), 2);
  ck_assert_int_eq(tu_count_entries(tmp), 0);
  free(good); free(bad1); free(bad2); free(in); free(tmp);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

#if defined(__linux__)
/* A read-only and a full file system (private tmpfs mounts: root only, and
 * only where mounting is allowed; otherwise skipped with a message). */
START_TEST(readonly_and_full_filesystems_fail_early) {
  char *dir = tu_mkdtemp();
  char *mnt = tu_path(dir, "mnt");
  ck_assert_int_eq(mkdir(mnt, 0700), 0);
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "mount -t tmpfs -o size=64k tmpfs '%s' 2>/dev/null", mnt);
  if (geteuid() != 0 || system(cmd) != 0) {
    fprintf(stderr, "readonly_and_full_filesystems_fail_early: cannot mount a tmpfs "
                    "(needs root and mount rights): skipped\n");
    tu_rmdir(dir);
    free(mnt);
    free(dir);
    return;
  }
  char *out = tu_path(mnt, "out.tsv");
  const char *outs[1] = {out};
  exo_ctx ctx;
  /* full: fill it up */
  snprintf(cmd, sizeof cmd, "dd if=/dev/zero of='%s/fill' bs=4k 2>/dev/null", mnt);
  (void)system(cmd);
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_probe_outputs(outs, 1, NULL, &ctx), EXO_ENOSPC);
  ck_assert_msg(strstr(ctx.err.msg, out) != NULL, "message: %s", ctx.err.msg);
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_probe_outputs(NULL, 0, mnt, &ctx), EXO_ENOSPC);
  ck_assert_int_eq(tu_count_entries(mnt), 1); /* only the filler */
  /* read-only */
  snprintf(cmd, sizeof cmd, "rm -f '%s/fill' && mount -o remount,ro '%s'", mnt, mnt);
  ck_assert_int_eq(system(cmd), 0);
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_probe_outputs(outs, 1, NULL, &ctx), EXO_EIO);
  ck_assert_msg(strstr(ctx.err.msg, "Read-only") != NULL, "message: %s", ctx.err.msg);
  snprintf(cmd, sizeof cmd, "umount '%s'", mnt);
  ck_assert_int_eq(system(cmd), 0);
  free(out);
  free(mnt);
  tu_rmdir(dir);
  free(dir);
}
END_TEST
#endif

Suite *outcheck_suite(void) {
  Suite *s = suite_create("outcheck");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, output_equal_to_input_in_any_spelling);
  tcase_add_test(tc, outputs_clashing_with_each_other);
  tcase_add_test(tc, output_inside_the_private_directory);
  tcase_add_test(tc, pipeline_refuses_before_reading);
  tcase_add_test(tc, unwritable_output_fails_before_reading);
#if defined(__linux__)
  tcase_add_test(tc, readonly_and_full_filesystems_fail_early);
#endif
  suite_add_tcase(s, tc);
  return s;
}
