/* test_budget.c: the split of memory_limit (exo_budget.h) against the table
 * its header states: each share's divisor, its division among parts and its
 * bounds; the reading stage's reserve and the runs' floor of a quarter. The
 * expected values are worked out here from the header's table, so a change
 * of the split that the header does not say fails. */
#include <check.h>
#include <string.h>

#include "exo_budget.h"

#define KIB ((uint64_t)1 << 10)
#define MIB ((uint64_t)1 << 20)
#define GIB ((uint64_t)1 << 30)

START_TEST(table_in_order_with_names) {
  const exo_share_def *t = exo_budget_table();
  for (int i = 0; i < EXO_SHARE_COUNT; i++) {
    ck_assert_int_eq((int)t[i].id, i);
    ck_assert_ptr_nonnull(t[i].name);
    ck_assert_uint_gt(t[i].divisor, 0);
    for (int j = 0; j < i; j++) ck_assert_str_ne(t[i].name, t[j].name);
  }
  ck_assert_uint_eq(exo_budget_share(GIB, EXO_SHARE_COUNT, 1), 0);
}
END_TEST

START_TEST(shares_as_the_header_says) {
  const uint64_t L = 256 * MIB;
  /* label propagation: limit / 4 among the workers, 64 KiB - 64 MiB */
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_LP_READ, 1), 64 * MIB);
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_LP_READ, 2), 32 * MIB);
  ck_assert_uint_eq(exo_budget_share(4 * GIB, EXO_SHARE_LP_READ, 2), 64 * MIB);
  ck_assert_uint_eq(exo_budget_share(MIB, EXO_SHARE_LP_READ, 8), 64 * KIB);
  /* merge passes: limit / 8 and limit / 4 among the readers */
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_REFINE_READ, 4), 8 * MIB);
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_REFINE_TABLE, 4), 16 * MIB);
  ck_assert_uint_eq(exo_budget_share(2 * MIB, EXO_SHARE_REFINE_TABLE, 4), MIB);
  /* bit-score normalisation and the cluster table: limit / 8, 64 KiB - 16 MiB */
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_SELFNORM_READ, 1), 16 * MIB);
  ck_assert_uint_eq(exo_budget_share(64 * MIB, EXO_SHARE_SELFNORM_READ, 1), 8 * MIB);
  ck_assert_uint_eq(exo_budget_share(MIB / 4, EXO_SHARE_TABLE_READ, 1), 64 * KIB);
  /* parts do not divide a share that is not per part */
  ck_assert_uint_eq(exo_budget_share(64 * MIB, EXO_SHARE_SELFNORM_READ, 8), 8 * MIB);
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_TABLE_NAMES, 1), 128 * MIB);
  ck_assert_uint_eq(exo_budget_share(1, EXO_SHARE_TABLE_NAMES, 1), 1);
  /* region rule: half, at least 1 MiB */
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_REGIONS_SORT, 1), 128 * MIB);
  ck_assert_uint_eq(exo_budget_share(MIB, EXO_SHARE_REGIONS_SORT, 1), MIB);
  /* Leiden */
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_LEIDEN_READ, 1), 64 * MIB);
  ck_assert_uint_eq(exo_budget_share(GIB, EXO_SHARE_LEIDEN_READ, 1), 64 * MIB);
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_LEIDEN_HOLD, 1), 64 * MIB);
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_LEIDEN_OWN_W, 1), 32 * MIB);
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_LEIDEN_AGG, 1), 64 * MIB);
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_LEIDEN_AGG_MAX, 1), 128 * MIB);
  /* distributed mode */
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_DIST_SORT, 1), 128 * MIB);
  ck_assert_uint_eq(exo_budget_share(2 * MIB, EXO_SHARE_DIST_READ, 1), MIB);
  ck_assert_uint_eq(exo_budget_share(L, EXO_SHARE_DIST_EXCHANGE, 1), 16 * MIB);
  ck_assert_uint_eq(exo_budget_share(MIB, EXO_SHARE_DIST_EXCHANGE, 1), MIB);
}
END_TEST

START_TEST(reading_reserve_and_runs) {
  ck_assert_uint_eq(exo_budget_parse_reserve(1), 4 * MIB);
  ck_assert_uint_eq(exo_budget_parse_reserve(2), 18 * MIB);
  ck_assert_uint_eq(exo_budget_parse(256 * MIB, 2), 238 * MIB);
  ck_assert_uint_eq(exo_budget_parse(256 * MIB, 1), 252 * MIB);
  /* a reserve of more than half: half the limit */
  ck_assert_uint_eq(exo_budget_parse(16 * MIB, 2), 8 * MIB);
  /* the runs get what the name table leaves, at least a quarter */
  ck_assert_uint_eq(exo_budget_runs(100 * MIB, 10 * MIB), 90 * MIB);
  ck_assert_uint_eq(exo_budget_runs(100 * MIB, 90 * MIB), 25 * MIB);
  ck_assert_uint_eq(exo_budget_runs(100 * MIB, 75 * MIB), 25 * MIB);
}
END_TEST

Suite *budget_suite(void) {
  Suite *s = suite_create("budget");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, table_in_order_with_names);
  tcase_add_test(tc, shares_as_the_header_says);
  tcase_add_test(tc, reading_reserve_and_runs);
  suite_add_tcase(s, tc);
  return s;
}
