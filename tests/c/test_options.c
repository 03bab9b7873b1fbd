/* test_options.c: the option table (exo_options.h): parsing from text and
 * numbers, errors naming the option and the value, the format's defaults,
 * the cross-checks and the structs it fills. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "exo_options.h"
#include "testutil.h"

static exo_status set(exo_options *o, const char *name, const char *value, char *msg) {
  exo_error e;
  exo_error_clear(&e);
  exo_status st = exo_options_set(o, name, value, &e);
  strcpy(msg, e.msg);
  return st;
}

START_TEST(defaults_come_from_the_table) {
  exo_options o;
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  ck_assert_uint_eq(exo_options_memory(&o), (uint64_t)256 << 20);
  ck_assert_uint_eq(o.whole[EXO_OPT_SEED], 1);
  ck_assert(o.num[EXO_OPT_RESOLUTION] == EXO_LP_RESOLUTION);
  ck_assert_int_eq((int)o.num[EXO_OPT_SEP], '\t');
  ck_assert_uint_eq(o.given, 0);
  exo_error e;
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_OK);
  ck_assert_uint_ge(o.whole[EXO_OPT_THREADS], 1); /* auto: the cores */
  exo_build_options b;
  exo_lp_params p;
  exo_leiden_params l;
  memset(&b, 0, sizeof b);
  memset(&p, 0, sizeof p);
  memset(&l, 0, sizeof l);
  exo_options_fill_build(&o, &b);
  exo_options_fill_lp(&o, &p);
  exo_options_fill_leiden(&o, &l);
  ck_assert_uint_eq(b.parse.col_a, 1);
  ck_assert_uint_eq(b.parse.col_w, 3);
  ck_assert_int_eq(b.combine, EXO_COMBINE_KEEP);
  ck_assert_uint_eq(p.seed, 1);
  ck_assert_uint_eq(l.iterations, EXO_LEIDEN_DEFAULT_ITERATIONS);
  /* every option can be found by either spelling */
  const exo_opt_def *t = exo_options_table();
  for (int i = 0; i < EXO_OPT_COUNT; i++) {
    ck_assert_int_eq(t[i].id, i);
    char cli[64];
    exo_options_display(&t[i], EXO_OPT_STYLE_CLI, cli, sizeof cli);
    ck_assert_ptr_eq(exo_options_find(cli + 2), &t[i]);
    ck_assert_ptr_eq(exo_options_find(t[i].name), &t[i]);
  }
}
END_TEST

START_TEST(text_values_and_their_errors) {
  exo_options o;
  char msg[EXO_ERRMSG_MAX];
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  ck_assert_int_eq(set(&o, "memory-limit", "512MiB", msg), EXO_OK);
  ck_assert_uint_eq(exo_options_memory(&o), (uint64_t)512 << 20);
  ck_assert_int_eq(set(&o, "memory_limit", "2 gb", msg), EXO_OK);
  ck_assert_uint_eq(exo_options_memory(&o), (uint64_t)2 << 30);
  ck_assert_int_eq(set(&o, "memory-limit", "1.5G", msg), EXO_OK);
  ck_assert_uint_eq(exo_options_memory(&o), (uint64_t)3 << 29);
  ck_assert_int_eq(set(&o, "memory-limit", "10KB", msg), EXO_EARG);
  ck_assert_str_eq(msg, "--memory-limit must be at least 1MB, not '10KB'");
  ck_assert_uint_eq(exo_options_memory(&o), (uint64_t)3 << 29); /* unchanged */
  ck_assert_int_eq(set(&o, "memory-limit", "lots", msg), EXO_EARG);
  ck_assert_str_eq(msg, "--memory-limit must be a size such as 512MB or 2GB, not 'lots'");
  ck_assert_int_eq(set(&o, "memory-limit", "-5MB", msg), EXO_EARG);
  ck_assert_int_eq(set(&o, "algorithm", "LEIDEN", msg), EXO_OK);
  ck_assert(exo_options_leiden(&o));
  ck_assert_int_eq(set(&o, "algorithm", "l", msg), EXO_EARG); /* lp or leiden */
  ck_assert_str_eq(msg, "--algorithm must be one of 'lp', 'leiden', 'components' (any case), not 'l'");
  ck_assert_int_eq(set(&o, "objective", "Cp", msg), EXO_OK);
  ck_assert_int_eq((int)o.num[EXO_OPT_OBJECTIVE], EXO_OPT_CPM);
  ck_assert_int_eq(set(&o, "refine", "TRUE", msg), EXO_OK);
  ck_assert_uint_eq(o.whole[EXO_OPT_REFINE], 5);
  ck_assert_int_eq(set(&o, "refine", "101", msg), EXO_EARG);
  ck_assert_str_eq(msg, "--refine must be a whole number from 0 to 100, not '101'");
  ck_assert_int_eq(set(&o, "threads", "0", msg), EXO_EARG);
  ck_assert_int_eq(set(&o, "seed", "18446744073709551615", msg), EXO_OK);
  ck_assert_uint_eq(o.whole[EXO_OPT_SEED], UINT64_MAX);
  ck_assert_int_eq(set(&o, "seed", "-1", msg), EXO_EARG);
  ck_assert_int_eq(set(&o, "resolution", "auto", msg), EXO_OK);
  ck_assert_int_eq(set(&o, "resolution", "-1", msg), EXO_EARG);
  ck_assert_str_eq(msg, "--resolution must be >= 0, not '-1'");
  ck_assert_int_eq(set(&o, "resolution", "nan", msg), EXO_EARG);
  /* a number that is not finite: the message R's Inf gets (issue 56) */
  ck_assert_int_eq(set(&o, "add-self-loops", "inf", msg), EXO_EARG);
  ck_assert_str_eq(msg, "--add-self-loops must be a finite number, not 'inf'");
  ck_assert_int_eq(set(&o, "attenuation", "x", msg), EXO_EARG);
  ck_assert_str_eq(msg, "--attenuation must be a number, not 'x'");
  ck_assert_int_eq(set(&o, "sep", "comma", msg), EXO_OK);
  ck_assert_int_eq((int)o.num[EXO_OPT_SEP], ',');
  ck_assert_int_eq(set(&o, "sep", "ab", msg), EXO_EARG);
  ck_assert_int_eq(set(&o, "columns", "1,2,0", msg), EXO_EARG);
  ck_assert_int_eq(set(&o, "header", "false", msg), EXO_OK);
  ck_assert_int_eq(set(&o, "ignore-weights", "yes", msg), EXO_EARG);
  ck_assert_str_eq(msg, "--ignore-weights must be TRUE or FALSE, not 'yes'");
  ck_assert_int_eq(set(&o, "no-such", "1", msg), EXO_EARG);
  /* R's spelling of the same errors */
  exo_options r;
  exo_options_init(&r, EXO_OPT_STYLE_R);
  ck_assert_int_eq(set(&r, "memory_limit", "10KB", msg), EXO_EARG);
  ck_assert_str_eq(msg, "'memory_limit' must be at least 1MB, not \"10KB\"");
  exo_error e;
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_set_number(&r, "memory_limit", 10, &e), EXO_EARG);
  ck_assert_str_eq(e.msg, "'memory_limit' must be at least 1MB, not \"10\"");
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_set_number(&r, "iterations", 1.5, &e), EXO_EARG);
}
END_TEST

START_TEST(resolve_applies_the_format_and_checks) {
  exo_options o;
  char msg[EXO_ERRMSG_MAX];
  exo_error e;
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  ck_assert_int_eq(set(&o, "format", "Blast", msg), EXO_OK);
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_OK);
  ck_assert(exo_options_leiden(&o));
  ck_assert(o.blast_default);
  exo_leiden_params l;
  memset(&l, 0, sizeof l);
  exo_options_fill_leiden(&o, &l);
  ck_assert_int_eq(l.objective, EXO_LEIDEN_CPM);
  ck_assert_int_eq(l.resolution_per_strength, 1);
  /* the bit scores over self scores, "auto" over the nodes with an edge */
  ck_assert_int_eq(o.transform, EXO_WT_SELFNORM);
  ck_assert_uint_eq(o.rcols[2], 12);
  ck_assert_int_eq(l.strength_linked, 1);
  ck_assert(l.resolution == EXO_LEIDEN_AUTO_RESOLUTION_SELFNORM);
  ck_assert_int_eq(o.combine, EXO_COMBINE_MAX);
  ck_assert_int_eq(o.drop_self, 1);
  /* refine under the blast default is refused with the hint */
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  set(&o, "format", "blast", msg);
  set(&o, "refine", "2", msg);
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_EARG);
  ck_assert(strstr(e.msg, "give --algorithm lp") != NULL);
  /* auto needs leiden cpm; cpm needs leiden */
  exo_options_init(&o, EXO_OPT_STYLE_R);
  set(&o, "resolution", "auto", msg);
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_EARG);
  ck_assert(strstr(e.msg, "resolution = \"auto\" (5e-05 x the mean node strength) is for "
                         "algorithm = \"leiden\", objective = \"CPM\"") != NULL);
  exo_options_init(&o, EXO_OPT_STYLE_R);
  set(&o, "objective", "CPM", msg);
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_EARG);
  ck_assert(strstr(e.msg, "objective = \"CPM\" needs algorithm = \"leiden\"") != NULL);
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  set(&o, "objective", "cpm", msg);
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_EARG);
  ck_assert(strstr(e.msg, "--objective cpm needs --algorithm leiden") != NULL);
  /* a transform needs a weight column */
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  set(&o, "columns", "1,2", msg);
  set(&o, "weight-transform", "neglog10", msg);
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_EARG);
  ck_assert(strstr(e.msg, "needs a weight column") != NULL);
  set(&o, "weight-transform", "SelfN", msg);
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_EARG);
  ck_assert(strstr(e.msg, "--weight-transform selfnorm needs a weight column in --columns"));
  /* selfnorm: search output's bit scores (column 12), self hits dropped
   * after the normalisation, "auto" at 5e-5 x the mean strength of the
   * nodes with an edge, per connected component */
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  set(&o, "format", "blast", msg);
  set(&o, "weight-transform", "selfnorm", msg);
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_OK);
  ck_assert_uint_eq(o.rcols[2], 12);
  ck_assert_int_eq(o.transform, EXO_WT_SELFNORM);
  ck_assert_int_eq(o.drop_self, 1);
  memset(&l, 0, sizeof l);
  exo_options_fill_leiden(&o, &l);
  ck_assert_int_eq(l.resolution_per_strength, 1);
  ck_assert_int_eq(l.strength_linked, 1);
  ck_assert_int_eq(l.resolution_per_component, 1);
  ck_assert(l.resolution == EXO_LEIDEN_AUTO_RESOLUTION_SELFNORM);
  exo_build_options bo;
  memset(&bo, 0, sizeof bo);
  exo_options_fill_build(&o, &bo);
  ck_assert_int_eq(bo.parse.transform, EXO_WT_SELFNORM);
  ck_assert_uint_eq(bo.parse.col_w, 12);
  /* e-value weights keep 5e-5 over all nodes, even when "auto" is given */
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  set(&o, "format", "blast", msg);
  set(&o, "weight-transform", "neglog10", msg);
  set(&o, "algorithm", "leiden", msg);
  set(&o, "objective", "cpm", msg);
  set(&o, "resolution", "auto", msg);
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_OK);
  ck_assert_uint_eq(o.rcols[2], 11);
  memset(&l, 0, sizeof l);
  exo_options_fill_leiden(&o, &l);
  ck_assert_int_eq(l.strength_linked, 0);
  ck_assert_int_eq(l.resolution_per_component, 0);
  ck_assert(l.resolution == EXO_LEIDEN_AUTO_RESOLUTION);
  /* adjustments: iterations capped */
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  set(&o, "iterations", "100000", msg);
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_OK);
  ck_assert_uint_eq(o.whole[EXO_OPT_ITERATIONS], EXO_LP_MAX_VISITS);
}
END_TEST

START_TEST(help_and_dump_name_every_option) {
  exo_options o;
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  exo_error e;
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_OK);
  char dump[4096], help[2048];
  size_t n = exo_options_dump(&o, dump, sizeof dump);
  ck_assert_uint_lt(n, sizeof dump);
  const exo_opt_def *t = exo_options_table();
  for (int i = 0; i < EXO_OPT_COUNT; i++) {
    char key[64];
    snprintf(key, sizeof key, "%s=", t[i].name);
    ck_assert_msg(strstr(dump, key) != NULL, "%s missing from the dump", t[i].name);
    exo_options_help(&t[i], help, sizeof help);
    /* the wrapped lines as one: runs of blanks and line ends become one space */
    size_t w = 0;
    for (size_t r = 0; help[r]; r++) {
      char ch = help[r] == '\n' ? ' ' : help[r];
      if (ch == ' ' && w && help[w - 1] == ' ') continue;
      help[w++] = ch;
    }
    help[w] = 0;
    char cli[64];
    exo_options_display(&t[i], EXO_OPT_STYLE_CLI, cli, sizeof cli);
    ck_assert(strstr(help, cli) != NULL);
    if (t[i].def[0]) {
      char d[96];
      snprintf(d, sizeof d, "(default %s)", t[i].def);
      ck_assert_msg(strstr(help, d) != NULL, "%s: no default in its help", t[i].name);
    }
  }
}
END_TEST

/* EXOLABEL_DUMP_OPTIONS writes as every result file is (exo_outfile): a
 * symbolic link is replaced and its target left as it was, and a missing
 * directory is an error naming the path, with nothing left behind */
START_TEST(driver_default_is_not_given) {
  exo_options o;
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  exo_error err;
  exo_error_clear(&err);
  /* exolabel-mpi's one thread per rank: the value, not a user's choice */
  ck_assert_int_eq(exo_options_set_default(&o, "threads", "1", &err), EXO_OK);
  ck_assert_uint_eq(o.whole[EXO_OPT_THREADS], 1);
  ck_assert_uint_eq((o.given >> EXO_OPT_THREADS) & 1u, 0);
  /* the user's own options stay given */
  ck_assert_int_eq(exo_options_set(&o, "algorithm", "lp", &err), EXO_OK);
  ck_assert_int_eq(exo_options_set_default(&o, "seed", "7", &err), EXO_OK);
  ck_assert_uint_eq((o.given >> EXO_OPT_ALGORITHM) & 1u, 1);
  ck_assert_uint_eq((o.given >> EXO_OPT_SEED) & 1u, 0);
  /* --format blast's default method applies when the method is a default */
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  ck_assert_int_eq(exo_options_set(&o, "format", "blast", &err), EXO_OK);
  ck_assert_int_eq(exo_options_set_default(&o, "algorithm", "lp", &err), EXO_OK);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &err), EXO_OK);
  ck_assert_int_eq(o.blast_default, 1);
  /* a bad value is refused as by exo_options_set, naming the option */
  ck_assert_int_eq(exo_options_set_default(&o, "threads", "-3", &err), EXO_EARG);
  ck_assert_ptr_nonnull(strstr(err.msg, "--threads"));
}
END_TEST

START_TEST(dump_is_written_as_an_outfile) {
#ifndef _WIN32
  char *dir = tu_mkdtemp();
  char *target = tu_write_text(dir, "target.txt", "keep me\n");
  char *link = tu_path(dir, "dump.txt");
  ck_assert_int_eq(symlink(target, link), 0);
  exo_options o;
  exo_options_init(&o, EXO_OPT_STYLE_CLI);
  exo_error e;
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_resolve(&o, NULL, NULL, &e), EXO_OK);
  ck_assert_int_eq(setenv("EXOLABEL_DUMP_OPTIONS", link, 1), 0);
  ck_assert_int_eq(exo_options_dump_if_asked(&o, &e), 1);
  size_t len = 0;
  char *kept = tu_read_file(target, &len);
  ck_assert_str_eq(kept, "keep me\n");
  char *dumped = tu_read_file(link, &len);
  ck_assert(strstr(dumped, "algorithm=lp\n") != NULL);
  struct stat st;
  ck_assert_int_eq(lstat(link, &st), 0);
  ck_assert(S_ISREG(st.st_mode));
  ck_assert_int_eq(tu_count_entries(dir), 2);
  char *missing = tu_path(dir, "no-such-dir/dump.txt");
  ck_assert_int_eq(setenv("EXOLABEL_DUMP_OPTIONS", missing, 1), 0);
  exo_error_clear(&e);
  ck_assert_int_eq(exo_options_dump_if_asked(&o, &e), -1);
  ck_assert(strstr(e.msg, "no-such-dir") != NULL);
  ck_assert_int_eq(tu_count_entries(dir), 2);
  unsetenv("EXOLABEL_DUMP_OPTIONS");
  free(missing);
  free(dumped);
  free(kept);
  free(link);
  free(target);
  tu_rmdir(dir);
  free(dir);
#endif
}
END_TEST

Suite *options_suite(void) {
  Suite *s = suite_create("options");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, defaults_come_from_the_table);
  tcase_add_test(tc, text_values_and_their_errors);
  tcase_add_test(tc, resolve_applies_the_format_and_checks);
  tcase_add_test(tc, help_and_dump_name_every_option);
  tcase_add_test(tc, dump_is_written_as_an_outfile);
  tcase_add_test(tc, driver_default_is_not_given);
  suite_add_tcase(s, tc);
  return s;
}
