/* minicheck.c: runner behind minicheck/check.h (see there). */
#include "check.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct mc_entry {
  const TTest *t;
  int start, end;
} mc_entry;

struct TCase {
  char *name;
  mc_entry *tests;
  size_t n, cap;
  SFun setup[4], teardown[4]; /* checked fixtures, run around every test */
  SFun usetup[4], uteardown[4]; /* unchecked fixtures, once per test case */
  int nfix, nufix;
};

struct Suite {
  char *name;
  TCase **tcs;
  size_t n, cap;
};

struct SRunner {
  Suite **suites;
  size_t n, cap;
  int checks, failures, skips;
};

/* The test running now: where a failed check jumps to. A test binary runs
 * one test at a time, so process-wide state is enough here. */
static jmp_buf mc_jump;
static int mc_in_test;
static char mc_msg[2048];
static const char *mc_file;
static int mc_line;

static void *xgrow(void *p, size_t *cap, size_t n, size_t size) {
  if (n < *cap) return p;
  *cap = *cap ? *cap * 2 : 8;
  void *q = realloc(p, *cap * size);
  if (!q) {
    fprintf(stderr, "minicheck: out of memory\n");
    exit(2);
  }
  return q;
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (!d) exit(2);
  memcpy(d, s, n);
  return d;
}

Suite *suite_create(const char *name) {
  Suite *s = calloc(1, sizeof *s);
  if (!s) exit(2);
  s->name = xstrdup(name);
  return s;
}

void suite_add_tcase(Suite *s, TCase *tc) {
  s->tcs = xgrow(s->tcs, &s->cap, s->n, sizeof *s->tcs);
  s->tcs[s->n++] = tc;
}

TCase *tcase_create(const char *name) {
  TCase *tc = calloc(1, sizeof *tc);
  if (!tc) exit(2);
  tc->name = xstrdup(name);
  return tc;
}

void mc_tcase_add(TCase *tc, const TTest *t, int start, int end) {
  tc->tests = xgrow(tc->tests, &tc->cap, tc->n, sizeof *tc->tests);
  tc->tests[tc->n].t = t;
  tc->tests[tc->n].start = start;
  tc->tests[tc->n].end = end;
  tc->n++;
}

void tcase_set_timeout(TCase *tc, double seconds) { (void)tc, (void)seconds; }

void tcase_add_checked_fixture(TCase *tc, SFun setup, SFun teardown) {
  if (tc->nfix == 4) exit(2);
  tc->setup[tc->nfix] = setup;
  tc->teardown[tc->nfix++] = teardown;
}

void tcase_add_unchecked_fixture(TCase *tc, SFun setup, SFun teardown) {
  if (tc->nufix == 4) exit(2);
  tc->usetup[tc->nufix] = setup;
  tc->uteardown[tc->nufix++] = teardown;
}

SRunner *srunner_create(Suite *s) {
  SRunner *sr = calloc(1, sizeof *sr);
  if (!sr) exit(2);
  if (s) srunner_add_suite(sr, s);
  return sr;
}

void srunner_add_suite(SRunner *sr, Suite *s) {
  sr->suites = xgrow(sr->suites, &sr->cap, sr->n, sizeof *sr->suites);
  sr->suites[sr->n++] = s;
}

void srunner_set_fork_status(SRunner *sr, enum fork_status fs) { (void)sr, (void)fs; }

void mc_mark(const char *file, int line) {
  mc_file = file;
  mc_line = line;
}

void mc_fail(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(mc_msg, sizeof mc_msg, fmt, ap);
  va_end(ap);
  mc_file = file;
  mc_line = line;
  if (mc_in_test) longjmp(mc_jump, 1);
  fprintf(stderr, "%s:%d: %s (outside a test)\n", file, line, mc_msg);
  exit(1);
}

static double now_sec(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Whether `name` is in the comma-separated list MINICHECK_SKIP. */
static int skipped(const char *name) {
  const char *l = getenv("MINICHECK_SKIP");
  size_t n = strlen(name);
  while (l && *l) {
    const char *e = strchr(l, ',');
    size_t k = e ? (size_t)(e - l) : strlen(l);
    if (k == n && strncmp(l, name, n) == 0) return 1;
    l = e ? e + 1 : NULL;
  }
  return 0;
}

/* Runs one test (one loop index); 1 if it passed. */
static int run_one(const TCase *tc, const TTest *t, int i) {
  volatile int ok = 1;
  double t0 = now_sec();
  mc_in_test = 1;
  if (setjmp(mc_jump) == 0) {
    for (int f = 0; f < tc->nfix; f++)
      if (tc->setup[f]) tc->setup[f]();
    t->fn(i);
    for (int f = tc->nfix - 1; f >= 0; f--)
      if (tc->teardown[f]) tc->teardown[f]();
  } else {
    ok = 0;
  }
  mc_in_test = 0;
  if (!ok) printf("%s:%d:F:%s:%s:%d: %s\n", mc_file, mc_line, tc->name, t->name, i, mc_msg);
  double dt = now_sec() - t0;
  if (dt >= 5 && getenv("MINICHECK_TIMES")) printf("time: %s:%s:%d: %.1f s\n", tc->name, t->name, i, dt);
  fflush(stdout);
  return ok;
}

void srunner_run_all(SRunner *sr, enum print_output mode) {
  const char *want_suite = getenv("CK_RUN_SUITE"), *want_case = getenv("CK_RUN_CASE");
  if (mode != CK_SILENT) printf("Running suite(s):");
  int first = 1;
  for (size_t s = 0; s < sr->n; s++) {
    Suite *su = sr->suites[s];
    if (want_suite && *want_suite && strcmp(want_suite, su->name)) continue;
    if (mode != CK_SILENT) printf("%s%s\n", first ? " " : " ", su->name);
    first = 0;
    fflush(stdout);
    for (size_t c = 0; c < su->n; c++) {
      TCase *tc = su->tcs[c];
      if (want_case && *want_case && strcmp(want_case, tc->name)) continue;
      for (int f = 0; f < tc->nufix; f++)
        if (tc->usetup[f]) tc->usetup[f]();
      for (size_t k = 0; k < tc->n; k++)
        for (int i = tc->tests[k].start; i < tc->tests[k].end; i++) {
          if (skipped(tc->tests[k].t->name)) {
            if (i == tc->tests[k].start) printf("skipped: %s:%s (MINICHECK_SKIP)\n", tc->name, tc->tests[k].t->name);
            sr->skips++;
            continue;
          }
          sr->checks++;
          if (!run_one(tc, tc->tests[k].t, i)) sr->failures++;
        }
      for (int f = tc->nufix - 1; f >= 0; f--)
        if (tc->uteardown[f]) tc->uteardown[f]();
    }
  }
  if (mode != CK_SILENT) {
    int pct = sr->checks ? (int)(100.0 * (sr->checks - sr->failures) / sr->checks) : 0;
    printf("%d%%: Checks: %d, Failures: %d, Errors: 0\n", pct, sr->checks, sr->failures);
    if (sr->skips) printf("minicheck: %d skipped (MINICHECK_SKIP)\n", sr->skips);
  }
}

int srunner_ntests_failed(SRunner *sr) { return sr->failures; }

void srunner_free(SRunner *sr) {
  for (size_t s = 0; s < sr->n; s++) {
    Suite *su = sr->suites[s];
    for (size_t c = 0; c < su->n; c++) {
      free(su->tcs[c]->tests);
      free(su->tcs[c]->name);
      free(su->tcs[c]);
    }
    free(su->tcs);
    free(su->name);
    free(su);
  }
  free(sr->suites);
  free(sr);
}
