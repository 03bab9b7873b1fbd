/* test_advice.c: the advice worded once for every driver (exo_advice.h):
 * the search-output check on plain and gzip files, after header lines, on
 * lines that are not hits, and on a FIFO (not opened: nothing read from
 * it); the warning and the out-of-memory advice in both drivers' styles. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/stat.h>
#endif

#include "exo_advice.h"
#include "testutil.h"

static const char *HITS =
    "q1\ts1\t98.5\t120\t2\t0\t1\t120\t1\t120\t1e-50\t250\n"
    "q1\ts2\t40.0\t100\t60\t1\t5\t104\t3\t102\t2.5e-10\t60.1\n";

START_TEST(search_output_plain_gzip_header) {
  char *dir = tu_mkdtemp();
  char *plain = tu_write_text(dir, "hits.m8", HITS);
  ck_assert_int_eq(exo_advice_looks_like_search_output(plain, '\t', 0), 1);
  /* the wrong separator: one field per line */
  ck_assert_int_eq(exo_advice_looks_like_search_output(plain, ',', 0), 0);
  char *gz = tu_path(dir, "hits.m8.gz");
  ck_assert_int_eq(tu_write_gzip(gz, HITS, strlen(HITS)), 0);
  ck_assert_int_eq(exo_advice_looks_like_search_output(gz, '\t', 0), 1);
  /* a header line is skipped when said, and spoils the check otherwise */
  char text[1024];
  snprintf(text, sizeof text, "query\tsubject\tpident\n%s", HITS);
  char *head = tu_write_text(dir, "head.m8", text);
  ck_assert_int_eq(exo_advice_looks_like_search_output(head, '\t', 1), 1);
  ck_assert_int_eq(exo_advice_looks_like_search_output(head, '\t', 0), 0);
  /* an edge list; an identity above 100; a decimal alignment length */
  char *edges = tu_write_text(dir, "e.tsv", "a\tb\t1\nb\tc\t2\n");
  ck_assert_int_eq(exo_advice_looks_like_search_output(edges, '\t', 0), 0);
  char *pid = tu_write_text(dir, "p.m8", "q\ts\t101\t120\t2\t0\t1\t120\t1\t120\t1e-5\t25\n");
  ck_assert_int_eq(exo_advice_looks_like_search_output(pid, '\t', 0), 0);
  char *dec = tu_write_text(dir, "d.m8", "q\ts\t99\t120.5\t2\t0\t1\t120\t1\t120\t1e-5\t25\n");
  ck_assert_int_eq(exo_advice_looks_like_search_output(dec, '\t', 0), 0);
  /* missing, empty, a directory */
  char *none = tu_path(dir, "none");
  ck_assert_int_eq(exo_advice_looks_like_search_output(none, '\t', 0), 0);
  char *empty = tu_write_text(dir, "empty", "");
  ck_assert_int_eq(exo_advice_looks_like_search_output(empty, '\t', 0), 0);
  ck_assert_int_eq(exo_advice_looks_like_search_output(dir, '\t', 0), 0);
#ifndef _WIN32
  /* a FIFO is not opened (opening would wait for a writer) */
  char *fifo = tu_path(dir, "fifo");
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  ck_assert_int_eq(exo_advice_looks_like_search_output(fifo, '\t', 0), 0);
  free(fifo);
#endif
  free(plain), free(gz), free(head), free(edges), free(pid), free(dec), free(none), free(empty);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(words_in_each_style) {
  char buf[1024];
  size_t n = exo_advice_search_output(EXO_OPT_STYLE_CLI, "hits.m8 looks", buf, sizeof buf);
  ck_assert_uint_eq(n, strlen(buf));
  ck_assert_ptr_nonnull(strstr(buf, "hits.m8 looks like BLAST/DIAMOND/MMseqs2 tabular output"));
  ck_assert_ptr_nonnull(strstr(buf, "use --format blast"));
  ck_assert_ptr_nonnull(strstr(buf, "give --format or --columns"));
  exo_advice_search_output(EXO_OPT_STYLE_R, "'hits.m8' looks", buf, sizeof buf);
  ck_assert_ptr_nonnull(strstr(buf, "use format = \"blast\""));
  ck_assert_ptr_nonnull(strstr(buf, "set 'format' or 'columns'"));
  exo_advice_oom(EXO_OPT_STYLE_CLI, (uint64_t)8 << 30, buf, sizeof buf);
  ck_assert_ptr_nonnull(strstr(buf, " (--memory-limit is 8.0 GiB; this machine has "));
  ck_assert_ptr_nonnull(strstr(buf, "lower --memory-limit, which caps the buffers"));
  exo_advice_oom(EXO_OPT_STYLE_R, (uint64_t)512 << 20, buf, sizeof buf);
  ck_assert_ptr_nonnull(strstr(buf, " (memory_limit is 512.0 MiB; "));
  ck_assert_ptr_nonnull(strstr(buf, "lower 'memory_limit'"));
  /* truncated to the buffer, the length needed returned */
  char small[16];
  n = exo_advice_oom(EXO_OPT_STYLE_R, 1000, small, sizeof small);
  ck_assert_uint_eq(strlen(small), sizeof small - 1);
  ck_assert_uint_gt(n, sizeof small);
  exo_advice_bytes(1000, buf, sizeof buf);
  ck_assert_str_eq(buf, "1000 B");
  exo_advice_bytes(1536, buf, sizeof buf);
  ck_assert_str_eq(buf, "1.5 KiB");
}
END_TEST

/* The progress lines' amounts (the CLI and R print the same text). */
START_TEST(amounts_for_progress) {
  char buf[64];
  exo_advice_amount(999, 0, buf, sizeof buf);
  ck_assert_str_eq(buf, "999");
  exo_advice_amount(1500, 0, buf, sizeof buf);
  ck_assert_str_eq(buf, "1.5 k");
  exo_advice_amount(2.5e9, 0, buf, sizeof buf);
  ck_assert_str_eq(buf, "2.5 G");
  exo_advice_amount(1024, 1, buf, sizeof buf);
  ck_assert_str_eq(buf, "1.0 KiB");
  exo_advice_amount(1000, 1, buf, sizeof buf);
  ck_assert_str_eq(buf, "1000 B");
  exo_advice_amount(3.0 * 1024 * 1024 * 1024, 1, buf, sizeof buf);
  ck_assert_str_eq(buf, "3.0 GiB");
}
END_TEST

Suite *advice_suite(void) {
  Suite *s = suite_create("advice");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, search_output_plain_gzip_header);
  tcase_add_test(tc, words_in_each_style);
  tcase_add_test(tc, amounts_for_progress);
  suite_add_tcase(s, tc);
  return s;
}
