/* test_lprule.c: label propagation's winner rule (exo_lprule.h, exo_lp.h
 * "Volume penalty") on hand-built tallies. The expected values come from
 * the header's formula, written out here on its own:
 *   pen = gamma * d_v / m, unit = s_v / d_v,
 *   chance(vol) = floor(pen * vol + 1/2)   (nearest whole arc, half up),
 *   score(l) = sum(l) - chance(vol(l)) * unit, vol(cur) without v's arcs,
 *   staying (cur not scored) = -chance(vol(cur)) * unit, a tie with it
 *   decided by the unrounded scores sum - pen * vol * unit.
 * The numbers are chosen exact in binary (pen a multiple of 1/16), so the
 * hand computations in the comments are the values compared. */
#include <check.h>
#include <math.h>

#include "exo_lprule.h"
#include "exo_rng.h"
#include "exo_tally.h"

/* Nearest integer, halves up, for the non-negative products here. */
static double ref_round(double x) {
  double f = (double)(long long)x;
  return x - f >= 0.5 ? f + 1.0 : f;
}

static double ref_score(double sum, double gamma, double d, double m, double s, double vol) {
  return sum - ref_round(gamma * d / m * vol) * (s / d);
}

static exo_tally tally_of(const uint64_t *labels, const double *sums, const int *elig, int n) {
  exo_tally t;
  ck_assert_int_eq(exo_tally_alloc(&t, 16), 0);
  for (int i = 0; i < n; i++) ck_assert_int_eq(exo_tally_add(&t, labels[i], sums[i], 1, elig[i]), 0);
  return t;
}

/* chance and score by hand: pen = 1 * 4 / 16 = 0.25, unit = 8 / 4 = 2.
 * chance(5) = floor(1.25 + .5) = 1, chance(6) = floor(1.5 + .5) = 2 (a half
 * rounds up), chance(2) = 1, chance(1) = floor(0.75) = 0, chance(0) = 0.
 * score(3, vol 6) = 3 - 2 * 2 = -1. Fails if the rounding were dropped
 * (3 - 1.5 * 2 = 0) or rounded half down. */
START_TEST(chance_arcs_and_score) {
  const double gamma = 1.0, d = 4.0, m = 16.0, s = 8.0;
  const double pen = gamma * d / m, unit = s / d;
  ck_assert(pen == 0.25 && unit == 2.0);
  ck_assert(exo_lp_chance_arcs(pen, 5) == 1.0);
  ck_assert(exo_lp_chance_arcs(pen, 6) == 2.0);
  ck_assert(exo_lp_chance_arcs(pen, 2) == 1.0);
  ck_assert(exo_lp_chance_arcs(pen, 1) == 0.0);
  ck_assert(exo_lp_chance_arcs(pen, 0) == 0.0);
  ck_assert(exo_lp_chance_arcs(0.0, 1000000) == 0.0); /* no penalty */
  for (uint64_t vol = 0; vol < 64; vol++)
    ck_assert(exo_lp_score(3.0, pen, unit, vol) == ref_score(3.0, gamma, d, m, s, (double)vol));
  ck_assert(exo_lp_score(3.0, pen, unit, 6) == -1.0);
  /* a larger resolution penalises more: gamma 2 -> pen 0.5, chance(5) = 3 */
  ck_assert(exo_lp_score(3.0, 2 * pen, unit, 5) == ref_score(3.0, 2.0, d, m, s, 5.0));
  ck_assert(exo_lp_score(3.0, 2 * pen, unit, 5) == -3.0);
}
END_TEST

/* Without volumes the largest eligible positive sum wins; an ineligible
 * label (no arc past the self-loop cutoff) and a non-positive sum never
 * do, however large; no qualifying label: ties 0 and the winner is cur.
 * Fails if the eligibility test were removed (label 2 would win). */
START_TEST(plain_rule_eligible_positive_max) {
  exo_rng rng;
  exo_rng_seed(&rng, 1);
  const uint64_t labels[] = {1, 2, 3, 4};
  const double sums[] = {2.0, 9.0, 3.0, -1.0};
  const int elig[] = {1, 0, 1, 1};
  exo_tally t = tally_of(labels, sums, elig, 4);
  exo_lp_choice c = exo_lp_choose(&t, 4, 3, NULL, 0.0, 0.0, &rng);
  ck_assert_uint_eq(c.win, 3);
  ck_assert(c.best == 3.0);
  ck_assert_uint_eq(c.ties, 1);
  ck_assert_int_eq(c.cur_best, 0);
  exo_tally_free(&t);

  const uint64_t l2[] = {5, 6, 7};
  const double s2[] = {0.0, -2.0, 4.0};
  const int e2[] = {1, 1, 0};
  t = tally_of(l2, s2, e2, 3);
  c = exo_lp_choose(&t, 9, 3, NULL, 0.0, 0.0, &rng);
  ck_assert_uint_eq(c.ties, 0);
  ck_assert_uint_eq(c.win, 9);
  exo_lp_choice dc;
  ck_assert_int_eq(exo_lp_decide(&t, 9, 3, NULL, 0.0, 3, 3.0, 1, 5, &rng, &dc), 0);
  exo_tally_free(&t);
}
END_TEST

/* The penalty changes the winner: m = 16, gamma = 1, v has d = 4 voting
 * arcs of raw weight s = 4 (pen 0.25, unit 1) and 4 adjacency entries.
 *   label 10: sum 2.5, vol 9  -> chance floor(2.25 + .5) = 2, score 0.5
 *   label 20: sum 1.0, vol 1  -> chance floor(0.25 + .5) = 0, score 1.0
 *   cur 30:   sum 2.0, vol 8, without v's 4 arcs vol 4 -> chance 1, score 1.0
 *             (with v's arcs: chance 2, score 0: label 20 would win alone)
 * So 20 and 30 tie at 1.0 (cur among the best), 10 loses despite the
 * largest sum. Fails if the score ignored the volumes (10 would win) or
 * counted cur's volume with v's own arcs (20 would win alone). */
START_TEST(penalty_changes_the_winner) {
  const double gamma = 1.0, m = 16.0, d = 4.0, s = 4.0;
  const uint64_t deg = 4, cur = 30;
  uint64_t vol[64] = {0};
  vol[10] = 9;
  vol[20] = 1;
  vol[30] = 8;
  const uint64_t labels[] = {10, 20, 30};
  const double sums[] = {2.5, 1.0, 2.0};
  const int elig[] = {1, 1, 1};
  exo_tally t = tally_of(labels, sums, elig, 3);
  const double want10 = ref_score(2.5, gamma, d, m, s, 9.0);
  const double want20 = ref_score(1.0, gamma, d, m, s, 1.0);
  const double want30 = ref_score(2.0, gamma, d, m, s, 8.0 - 4.0);
  ck_assert(want10 == 0.5 && want20 == 1.0 && want30 == 1.0);
  int won[64] = {0};
  for (uint64_t seed = 0; seed < 200; seed++) {
    exo_rng rng;
    exo_rng_seed(&rng, seed);
    exo_lp_choice c;
    int moved = exo_lp_decide(&t, cur, deg, vol, gamma / m, (uint64_t)d, s, 1, 5, &rng, &c);
    ck_assert(c.best == want20);
    ck_assert_uint_eq(c.ties, 2);
    ck_assert_int_eq(c.cur_best, 1);
    ck_assert_int_eq(c.cur_held, 1);
    ck_assert(c.win == 20 || c.win == 30);
    won[c.win]++;
    /* within the first tie_visits visits a tie may move v ... */
    ck_assert_int_eq(moved, c.win != cur);
    /* ... after them cur among the best keeps v */
    exo_rng_seed(&rng, seed);
    ck_assert_int_eq(exo_lp_decide(&t, cur, deg, vol, gamma / m, (uint64_t)d, s, 6, 5, &rng, &c), 0);
  }
  ck_assert_int_gt(won[20], 0);
  ck_assert_int_gt(won[30], 0);
  /* no penalty (vol NULL): the largest sum, label 10 */
  exo_rng rng;
  exo_rng_seed(&rng, 3);
  exo_lp_choice c;
  ck_assert_int_eq(exo_lp_decide(&t, cur, deg, NULL, gamma / m, (uint64_t)d, s, 1, 5, &rng, &c), 1);
  ck_assert_uint_eq(c.win, 10);
  ck_assert(c.best == 2.5);
  exo_tally_free(&t);
}
END_TEST

/* Ties are broken by a uniform pick: three labels with equal sums, each
 * wins about a third of 3000 seeds. Fails if the reservoir draw were
 * replaced by always taking the later label (or never). */
START_TEST(ties_uniform) {
  const uint64_t labels[] = {3, 1, 2, 5};
  const double sums[] = {2.0, 2.0, 1.0, 2.0};
  const int elig[] = {1, 1, 1, 1};
  exo_tally t = tally_of(labels, sums, elig, 4);
  int won[8] = {0};
  for (uint64_t seed = 0; seed < 3000; seed++) {
    exo_rng rng;
    exo_rng_seed(&rng, seed);
    exo_lp_choice c = exo_lp_choose(&t, 7, 3, NULL, 0.0, 0.0, &rng);
    ck_assert_uint_eq(c.ties, 3);
    ck_assert(c.best == 2.0);
    ck_assert_int_eq(c.cur_best, 0);
    won[c.win]++;
  }
  ck_assert_int_eq(won[2], 0);
  for (int l = 1; l <= 5; l += 2) /* labels 1, 3, 5: expected 1000, sd about 26 */
    ck_assert_msg(won[l] > 850 && won[l] < 1150, "label %d won %d of 3000", l, won[l]);
  exo_tally_free(&t);
}
END_TEST

/* Staying as a candidate when cur holds no scored vote: pen 0.25, unit 1.
 *   vol(cur) 5: staying = -floor(1.25 + .5) = -1, unrounded -1.25
 *   winner sum 1, vol 7: score 1 - floor(1.75 + .5) = -1 = staying;
 *     unrounded 1 - 1.75 = -0.75 > -1.25: it moves
 *   vol(cur) 6: staying = -floor(1.5 + .5) = -2, unrounded -1.5
 *   winner sum 1, vol 11: score 1 - floor(2.75 + .5) = -2 = staying;
 *     unrounded 1 - 2.75 = -1.75 < -1.5: it stays
 *   winner score -1 against staying -2: moves; -3 against -2: stays.
 * Fails if the tie with staying were not decided by the unrounded scores. */
START_TEST(beats_staying_by_hand) {
  const double pen = 0.25, unit = 1.0;
  /* the reference: rounded scores first, then the unrounded ones */
  struct {
    double sum;
    uint64_t vol_win, vol_cur;
    int want;
  } cases[] = {{1.0, 7, 5, 1}, {1.0, 11, 6, 0}, {1.0, 2, 6, 1}, {1.0, 16, 6, 0}};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    double best = cases[k].sum - ref_round(pen * (double)cases[k].vol_win) * unit;
    double stay = -ref_round(pen * (double)cases[k].vol_cur) * unit;
    double best_u = cases[k].sum - pen * (double)cases[k].vol_win * unit;
    double stay_u = -pen * (double)cases[k].vol_cur * unit;
    int want = best > stay || (best == stay && best_u > stay_u);
    ck_assert_int_eq(want, cases[k].want); /* the hand computation above */
    ck_assert_int_eq(exo_lp_beats_staying(best, pen, unit, cases[k].vol_win, cases[k].vol_cur),
                     want);
  }
  /* through exo_lp_decide: cur 40 has no vote; v has deg 4, d 4, s 4,
   * m 16, gamma 1 (pen 0.25, unit 1); vol(cur) = 6 + 4 (v's own arcs) */
  uint64_t vol[64] = {0};
  vol[40] = 10;
  vol[50] = 11;
  const uint64_t labels[] = {50};
  const double sums[] = {1.0};
  const int elig[] = {1};
  exo_tally t = tally_of(labels, sums, elig, 1);
  exo_rng rng;
  exo_rng_seed(&rng, 9);
  exo_lp_choice c;
  ck_assert_int_eq(exo_lp_decide(&t, 40, 4, vol, 1.0 / 16.0, 4, 4.0, 1, 5, &rng, &c), 0);
  ck_assert_uint_eq(c.win, 50);
  ck_assert_int_eq(c.cur_held, 0);
  ck_assert(c.best == -2.0);
  vol[50] = 7;
  vol[40] = 9; /* staying: vol 5 without v's arcs */
  ck_assert_int_eq(exo_lp_decide(&t, 40, 4, vol, 1.0 / 16.0, 4, 4.0, 1, 5, &rng, &c), 1);
  ck_assert(c.best == -1.0);
  exo_tally_free(&t);
}
END_TEST

Suite *lprule_suite(void) {
  Suite *s = suite_create("lprule");
  TCase *tc = tcase_create("lprule");
  tcase_add_test(tc, chance_arcs_and_score);
  tcase_add_test(tc, plain_rule_eligible_positive_max);
  tcase_add_test(tc, penalty_changes_the_winner);
  tcase_add_test(tc, ties_uniform);
  tcase_add_test(tc, beats_staying_by_hand);
  suite_add_tcase(s, tc);
  return s;
}
