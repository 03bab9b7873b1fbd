/* runner.c: the one Check runner. It runs every suite named in
 * build/suites.inc (generated from the Suite *X_suite(void) definitions in
 * tests/c/test_*.c) and prints Check's summary line. */
#include <check.h>
#include <stdlib.h>

#define EXO_SUITE(name) Suite *name(void);
#include "suites.inc"
#undef EXO_SUITE

int main(void) {
  SRunner *sr = srunner_create(NULL);
#define EXO_SUITE(name) srunner_add_suite(sr, name());
#include "suites.inc"
#undef EXO_SUITE
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
