/* minicheck/check.h: the part of Check's API that tests/c uses, for builds
 * where the Check library is not available (the MinGW-w64 cross-build run
 * under Wine: Debian ships Check for the build machine only).
 *
 * Same source-level API (START_TEST/END_TEST, suites, test cases, ck_assert_*),
 * run the way Check runs with CK_FORK=no: every test in the one process, a
 * failed assertion leaves its test with longjmp and the run goes on. What it
 * cannot do: isolate a test that crashes (that ends the run, with a non-zero
 * exit), enforce timeouts (tcase_set_timeout is accepted and ignored), or run
 * tests that need fork() (those are not compiled on Windows; see
 * tests/c/README.md). CK_RUN_SUITE and CK_RUN_CASE select as with Check;
 * MINICHECK_SKIP=name,name leaves those tests out (each is listed as
 * skipped); MINICHECK_TIMES=1 prints the tests that took 5 s or more.
 * The summary line has Check's form: "100%: Checks: N, Failures: F, Errors: 0".
 * Our own code: no Check source is used. */
#ifndef EXO_MINICHECK_H
#define EXO_MINICHECK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef void (*mc_test_fn)(int);
typedef struct TTest {
  const char *name;
  mc_test_fn fn;
  const char *file;
  int line;
} TTest;
typedef void (*SFun)(void);
typedef struct Suite Suite;
typedef struct TCase TCase;
typedef struct SRunner SRunner;
enum print_output { CK_SILENT, CK_MINIMAL, CK_NORMAL, CK_VERBOSE, CK_ENV };
enum fork_status { CK_FORK_GETENV, CK_NOFORK, CK_FORK };

#define START_TEST(name)                                                 \
  static void name##_fn(int _i);                                         \
  static const TTest name##_ttest = {#name, name##_fn, __FILE__, __LINE__}; \
  static const TTest *name = &name##_ttest;                              \
  static void name##_fn(int _i)
#define END_TEST

Suite *suite_create(const char *name);
void suite_add_tcase(Suite *s, TCase *tc);
TCase *tcase_create(const char *name);
void mc_tcase_add(TCase *tc, const TTest *t, int start, int end);
#define tcase_add_test(tc, t) mc_tcase_add((tc), (t), 0, 1)
#define tcase_add_loop_test(tc, t, s, e) mc_tcase_add((tc), (t), (s), (e))
void tcase_set_timeout(TCase *tc, double seconds);
void tcase_add_checked_fixture(TCase *tc, SFun setup, SFun teardown);
void tcase_add_unchecked_fixture(TCase *tc, SFun setup, SFun teardown);
SRunner *srunner_create(Suite *s);
void srunner_add_suite(SRunner *sr, Suite *s);
void srunner_set_fork_status(SRunner *sr, enum fork_status fs);
void srunner_run_all(SRunner *sr, enum print_output mode);
int srunner_ntests_failed(SRunner *sr);
void srunner_free(SRunner *sr);

/* A failed check: records file, line and message, leaves the test. */
void mc_fail(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((noreturn, format(gnu_printf, 3, 4)))
#endif
    ;
void mc_mark(const char *file, int line);

#define mark_point() mc_mark(__FILE__, __LINE__)
#define ck_abort() mc_fail(__FILE__, __LINE__, "Failed")
#define ck_abort_msg(...) mc_fail(__FILE__, __LINE__, __VA_ARGS__)
#define ck_assert(e) \
  do { if (!(e)) mc_fail(__FILE__, __LINE__, "Assertion '%s' failed", #e); } while (0)
#define ck_assert_msg(e, ...) \
  do { if (!(e)) mc_fail(__FILE__, __LINE__, __VA_ARGS__); } while (0)
#define fail_unless(e, ...) ck_assert_msg(e, "Assertion '" #e "' failed")
#define fail_if(e, ...) ck_assert_msg(!(e), "Failure '" #e "' occurred")

#define MC_CMP(T, F, X, OP, Y)                                                    \
  do {                                                                            \
    T mc_x_ = (T)(X);                                                             \
    T mc_y_ = (T)(Y);                                             \
    if (!(mc_x_ OP mc_y_))                                                        \
      mc_fail(__FILE__, __LINE__, "Assertion '%s' failed: %s == " F ", %s == " F, \
              #X " " #OP " " #Y, #X, mc_x_, #Y, mc_y_);                          \
  } while (0)
#define ck_assert_int_eq(X, Y) MC_CMP(long long, "%lld", X, ==, Y)
#define ck_assert_int_ne(X, Y) MC_CMP(long long, "%lld", X, !=, Y)
#define ck_assert_int_lt(X, Y) MC_CMP(long long, "%lld", X, <, Y)
#define ck_assert_int_le(X, Y) MC_CMP(long long, "%lld", X, <=, Y)
#define ck_assert_int_gt(X, Y) MC_CMP(long long, "%lld", X, >, Y)
#define ck_assert_int_ge(X, Y) MC_CMP(long long, "%lld", X, >=, Y)
#define ck_assert_uint_eq(X, Y) MC_CMP(unsigned long long, "%llu", X, ==, Y)
#define ck_assert_uint_ne(X, Y) MC_CMP(unsigned long long, "%llu", X, !=, Y)
#define ck_assert_uint_lt(X, Y) MC_CMP(unsigned long long, "%llu", X, <, Y)
#define ck_assert_uint_le(X, Y) MC_CMP(unsigned long long, "%llu", X, <=, Y)
#define ck_assert_uint_gt(X, Y) MC_CMP(unsigned long long, "%llu", X, >, Y)
#define ck_assert_uint_ge(X, Y) MC_CMP(unsigned long long, "%llu", X, >=, Y)
#define ck_assert_double_eq(X, Y) MC_CMP(long double, "%Lg", X, ==, Y)
#define ck_assert_double_ne(X, Y) MC_CMP(long double, "%Lg", X, !=, Y)
#define ck_assert_double_lt(X, Y) MC_CMP(long double, "%Lg", X, <, Y)
#define ck_assert_double_le(X, Y) MC_CMP(long double, "%Lg", X, <=, Y)
#define ck_assert_double_gt(X, Y) MC_CMP(long double, "%Lg", X, >, Y)
#define ck_assert_double_ge(X, Y) MC_CMP(long double, "%Lg", X, >=, Y)
#define MC_TOL(X, Y, T, OP)                                                          \
  do {                                                                           \
    long double mc_x_ = (X), mc_y_ = (Y), mc_t_ = (T);                           \
    long double mc_d_ = mc_x_ > mc_y_ ? mc_x_ - mc_y_ : mc_y_ - mc_x_;           \
    if (!(mc_d_ OP mc_t_))                                                       \
      mc_fail(__FILE__, __LINE__, "Assertion '%s' failed: %s == %Lg, %s == %Lg, tolerance %Lg", \
              "|" #X " - " #Y "| " #OP " " #T, #X, mc_x_, #Y, mc_y_, mc_t_);    \
  } while (0)
#define ck_assert_double_eq_tol(X, Y, T) MC_TOL(X, Y, T, <=)
#define ck_assert_double_ne_tol(X, Y, T) MC_TOL(X, Y, T, >)
#define ck_assert_ptr_eq(X, Y) MC_CMP(const void *, "%p", X, ==, Y)
#define ck_assert_ptr_ne(X, Y) MC_CMP(const void *, "%p", X, !=, Y)
#define ck_assert_ptr_null(X) MC_CMP(const void *, "%p", X, ==, NULL)
#define ck_assert_ptr_nonnull(X) MC_CMP(const void *, "%p", X, !=, NULL)

#define MC_STR(X, OP, Y)                                                              \
  do {                                                                                \
    const char *mc_x_ = (X), *mc_y_ = (Y);                                            \
    if (!mc_x_ || !mc_y_ || !(strcmp(mc_x_, mc_y_) OP 0))                             \
      mc_fail(__FILE__, __LINE__, "Assertion '%s' failed: %s == \"%s\", %s == \"%s\"", \
              #X " " #OP " " #Y, #X, mc_x_ ? mc_x_ : "(null)", #Y, mc_y_ ? mc_y_ : "(null)"); \
  } while (0)
#define ck_assert_str_eq(X, Y) MC_STR(X, ==, Y)
#define ck_assert_str_ne(X, Y) MC_STR(X, !=, Y)
#define ck_assert_str_lt(X, Y) MC_STR(X, <, Y)
#define ck_assert_str_le(X, Y) MC_STR(X, <=, Y)
#define ck_assert_str_gt(X, Y) MC_STR(X, >, Y)
#define ck_assert_str_ge(X, Y) MC_STR(X, >=, Y)

#define MC_MEM(X, OP, Y, L)                                                      \
  do {                                                                           \
    const void *mc_x_ = (X), *mc_y_ = (Y);                                       \
    size_t mc_l_ = (L);                                                          \
    if (!(memcmp(mc_x_, mc_y_, mc_l_) OP 0))                                     \
      mc_fail(__FILE__, __LINE__, "Assertion '%s' failed over %zu bytes",        \
              #X " " #OP " " #Y, mc_l_);                                         \
  } while (0)
#define ck_assert_mem_eq(X, Y, L) MC_MEM(X, ==, Y, L)
#define ck_assert_mem_ne(X, Y, L) MC_MEM(X, !=, Y, L)

#endif
