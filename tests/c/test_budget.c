/* test_budget.c: the split of memory_limit (exo_budget.h) against the table
 * its header states: each share's divisor, its division among parts and its
 * bounds; the reading stage's reserve and the runs' floor of a quarter. The
 * expected values are worked out here from the header's table, so a change
 * of the split that the header does not say fails. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "exo_budget.h"
#include "exo_estimate.h"
#include "exo_method_names.h"

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


/* The estimate (exo_estimate.h): each term as its owner states it, so a
 * term dropped or changed fails here. */
static exo_estimate_out est(double nodes, double edges, uint64_t limit, int threads, int method,
                            int att, int refine, double name_bytes) {
  exo_estimate_in in = {nodes, edges, limit, threads, method, att, refine, name_bytes};
  exo_estimate_out out;
  ck_assert_int_eq(exo_estimate(&in, &out), EXO_OK);
  double pr = 0, pd = 0;
  for (int s = 0; s < EXO_EST_STAGES; s++) {
    ck_assert(out.ram[s] >= 0 && out.disk[s] >= 0);
    if (out.ram[s] > pr) pr = out.ram[s];
    if (out.disk[s] > pd) pd = out.disk[s];
  }
  ck_assert(out.peak_ram == pr && out.peak_disk == pd);
  return out;
}

START_TEST(estimate_terms_as_the_headers_say) {
  const double n = 1e6, m = 1e7, rec2 = 2 * m;
  const uint64_t L = 256 * MIB;
  exo_estimate_out lp = est(n, m, L, 1, EXO_METHOD_lp, 0, 1, 10);
  ck_assert_int_eq(lp.wide, 0);
  /* label propagation: 26.125 bytes per node (offsets 8, labels and
   * published labels 4 + 4, visits 2, the active bit, volumes 8), the read window (a quarter
   * of the limit, at most 64 MiB), 2 MiB */
  ck_assert(lp.ram[EXO_EST_CLUSTER] == n * 26.125 + 64.0 * MIB + 2.0 * MIB);
  /* merge passes: one reader, its buffer (limit / 8, at most 64 MiB) and a
   * pair table (limit / 4 = 64 MiB: 2^22 slots of 16 bytes), 16 + 41
   * bytes per node (every node its own cluster at worst) */
  ck_assert(lp.ram[EXO_EST_REFINE] == 32.0 * MIB + 16.0 * 4194304 + n * 57 + 2.0 * MIB);
  /* output: labels and the renumbering scratch */
  ck_assert(lp.ram[EXO_EST_OUTPUT] == 16 * n + 2.0 * MIB);
  /* disk: the names (name + line end), the CSR (8-byte entries, n + 1
   * offsets) */
  const double names = n * 11, csr = 8 * rec2 + 8 * (n + 1);
  ck_assert(lp.disk[EXO_EST_OUTPUT] == names + csr);
  ck_assert(lp.disk[EXO_EST_REFINE] == names + csr);
  ck_assert(lp.disk[EXO_EST_CLUSTER] == names + csr);
  /* the sort's peak: names, the runs written (12-byte records) and the CSR */
  ck_assert(lp.disk[EXO_EST_SORT] > names + csr);
  ck_assert(lp.disk[EXO_EST_SORT] <= names + csr + 12 * rec2);
  ck_assert(lp.disk[EXO_EST_SORT] - lp.disk[EXO_EST_READ] == csr);
  ck_assert(lp.peak_disk == lp.disk[EXO_EST_SORT]);

  /* attenuation: the hop distance and its published copy, 8 bytes per
   * node more while clustering, nothing else */
  exo_estimate_out att = est(n, m, L, 1, EXO_METHOD_lp, 1, 1, 10);
  ck_assert(att.ram[EXO_EST_CLUSTER] - lp.ram[EXO_EST_CLUSTER] == 8 * n);
  ck_assert(att.ram[EXO_EST_REFINE] == lp.ram[EXO_EST_REFINE]);
  ck_assert(att.peak_disk == lp.peak_disk);

  /* no merge passes: no refine stage */
  exo_estimate_out nor = est(n, m, L, 1, EXO_METHOD_lp, 0, 0, 10);
  ck_assert(nor.ram[EXO_EST_REFINE] == 0 && nor.disk[EXO_EST_REFINE] == 0);
  ck_assert(nor.ram[EXO_EST_CLUSTER] == lp.ram[EXO_EST_CLUSTER]);

  /* Leiden: 32.125 + 8 bytes per node, its read buffer (64 MiB), the
   * lanes' tables (8 MiB) and one lane worker's pairs (512 KiB), the
   * aggregation in memory (16 bytes per arc: 320e6 bytes need 2 ranges of
   * 256 MiB, each 160e6), 2 MiB; no merge passes; on disk 24 bytes per
   * node and the coarse levels beyond the input's */
  exo_estimate_out ld = est(n, m, L, 1, EXO_METHOD_leiden, 0, 1, 10);
  ck_assert(ld.ram[EXO_EST_CLUSTER] ==
            n * 40.125 + 64.0 * MIB + 8.0 * MIB + 0.5 * MIB + 16 * rec2 / 2 + 2.0 * MIB);
  ck_assert(ld.ram[EXO_EST_CLUSTER] > lp.ram[EXO_EST_CLUSTER]);
  ck_assert(ld.ram[EXO_EST_REFINE] == 0 && ld.disk[EXO_EST_REFINE] == 0);
  ck_assert(ld.disk[EXO_EST_CLUSTER] >= names + csr + 24 * n);
  /* four lanes: 512 KiB each */
  exo_estimate_out ld4 = est(n, m, L, 4, EXO_METHOD_leiden, 0, 1, 10);
  ck_assert(ld4.ram[EXO_EST_CLUSTER] - ld.ram[EXO_EST_CLUSTER] == 3 * 0.5 * MIB);

  /* components: the forest (8 bytes per node), two 1 MiB readers, 2 MiB */
  exo_estimate_out cc = est(n, m, L, 1, EXO_METHOD_components, 0, 0, 10);
  ck_assert(cc.ram[EXO_EST_CLUSTER] == 8 * n + 4.0 * MIB);
  ck_assert(cc.ram[EXO_EST_REFINE] == 0 && cc.disk[EXO_EST_CLUSTER] == names + csr);

  /* the name bytes: one more byte per node on disk in every stage */
  exo_estimate_out nb = est(n, m, L, 1, EXO_METHOD_lp, 0, 1, 11);
  for (int s = 0; s < EXO_EST_STAGES; s++) ck_assert(nb.disk[s] - lp.disk[s] == n);
}
END_TEST

START_TEST(estimate_grows_with_the_graph) {
  const uint64_t L = 256 * MIB;
  for (int method = 0; method < EXO_METHOD_COUNT; method++) {
    exo_estimate_out prev = est(1e3, 1e4, L, 2, method, 0, 1, 10);
    for (double n = 1e4; n <= 1e9; n *= 10) {
      exo_estimate_out e = est(n, 10 * n, L, 2, method, 0, 1, 10);
      ck_assert(e.peak_ram > prev.peak_ram);
      ck_assert(e.peak_disk > prev.peak_disk);
      ck_assert(e.ram[EXO_EST_CLUSTER] > prev.ram[EXO_EST_CLUSTER]);
      ck_assert(e.ram[EXO_EST_OUTPUT] > prev.ram[EXO_EST_OUTPUT]);
      prev = e;
    }
  }
  /* the name table grows with the nodes while reading */
  exo_estimate_out a = est(1e6, 1e3, GIB, 1, EXO_METHOD_lp, 0, 1, 10);
  exo_estimate_out b = est(4e6, 1e3, GIB, 1, EXO_METHOD_lp, 0, 1, 10);
  ck_assert(b.ram[EXO_EST_READ] > a.ram[EXO_EST_READ]);
  /* more memory: fewer runs to merge, never more disk */
  exo_estimate_out small = est(1e7, 1e8, 64 * MIB, 1, EXO_METHOD_lp, 0, 1, 10);
  exo_estimate_out big = est(1e7, 1e8, 4 * GIB, 1, EXO_METHOD_lp, 0, 1, 10);
  ck_assert(big.disk[EXO_EST_READ] <= small.disk[EXO_EST_READ]);
}
END_TEST

START_TEST(estimate_wide_ids) {
  /* above 2^32 nodes: 20-byte records, 12-byte adjacency entries, 40.125
   * bytes of Leiden state per node (32.125 below) */
  const double lo = 4294967296.0, hi = lo + 1024, m = 2 * lo;
  const uint64_t L = 16 * GIB;
  exo_estimate_out a = est(lo, m, L, 1, EXO_METHOD_lp, 0, 1, 10);
  exo_estimate_out b = est(hi, m, L, 1, EXO_METHOD_lp, 0, 1, 10);
  ck_assert_int_eq(a.wide, 0);
  ck_assert_int_eq(b.wide, 1);
  /* the CSR: 4 more bytes per arc record */
  ck_assert(b.disk[EXO_EST_OUTPUT] - a.disk[EXO_EST_OUTPUT] == 4 * 2 * m + 1024 * 19);
  ck_assert(b.disk[EXO_EST_SORT] > a.disk[EXO_EST_SORT] + 4 * 2 * m);
  /* label propagation's labels and published labels: 8 bytes each */
  ck_assert(b.ram[EXO_EST_CLUSTER] - a.ram[EXO_EST_CLUSTER] == 34.125 * hi - 26.125 * lo);
  exo_estimate_out la = est(lo, m, L, 1, EXO_METHOD_leiden, 0, 1, 10);
  exo_estimate_out lb = est(hi, m, L, 1, EXO_METHOD_leiden, 0, 1, 10);
  ck_assert(lb.ram[EXO_EST_CLUSTER] - la.ram[EXO_EST_CLUSTER] >= 8 * lo);
}
END_TEST

START_TEST(estimate_refuses_bad_input) {
  exo_estimate_out out;
  exo_estimate_in in = {1e3, 1e4, MIB, 1, EXO_METHOD_lp, 0, 1, 10};
  ck_assert_int_eq(exo_estimate(&in, &out), EXO_OK);
  exo_estimate_in bad = in;
  bad.method = EXO_METHOD_COUNT;
  ck_assert_int_eq(exo_estimate(&bad, &out), EXO_EARG);
  bad = in;
  bad.threads = 0;
  ck_assert_int_eq(exo_estimate(&bad, &out), EXO_EARG);
  bad = in;
  bad.nodes = -1;
  ck_assert_int_eq(exo_estimate(&bad, &out), EXO_EARG);
  bad = in;
  bad.memory_limit = 0;
  ck_assert_int_eq(exo_estimate(&bad, &out), EXO_EARG);
  /* sizes far beyond any run still give finite figures */
  exo_estimate_in huge = {1e20, 1e21, GIB, 2, EXO_METHOD_leiden, 0, 1, 10};
  ck_assert_int_eq(exo_estimate(&huge, &out), EXO_OK);
  ck_assert(isfinite(out.peak_ram) && isfinite(out.peak_disk) && out.peak_ram > 1e21);
  ck_assert_ptr_null(exo_estimate_stage_name(EXO_EST_STAGES));
  ck_assert_str_eq(exo_estimate_stage_name(EXO_EST_CLUSTER), "cluster");
}
END_TEST

Suite *budget_suite(void) {
  Suite *s = suite_create("budget");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, table_in_order_with_names);
  tcase_add_test(tc, shares_as_the_header_says);
  tcase_add_test(tc, reading_reserve_and_runs);
  tcase_add_test(tc, estimate_terms_as_the_headers_say);
  tcase_add_test(tc, estimate_grows_with_the_graph);
  tcase_add_test(tc, estimate_wide_ids);
  tcase_add_test(tc, estimate_refuses_bad_input);
  suite_add_tcase(s, tc);
  return s;
}
