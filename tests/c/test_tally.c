/* test_tally.c: the label tally (exo_tally.h) against its contract: the
 * votes of a label summed (compared with a naive per-label sum in the same
 * order, so exactly equal), the smallest hop distance kept, the eligibility
 * flag or-ed over the label's arcs, insertion order kept in `touched`
 * (through growth too), growth beyond the initial capacity with the load at
 * most 1/2, clearing between nodes, the sum-only add and the never-growing
 * table of exo_tally_alloc_for. */
#include <check.h>
#include <stdlib.h>

#include "exo_rng.h"
#include "exo_tally.h"

/* The slot of `label` (NULL: none), found through `touched`, not through the
 * hash: a broken probe would not hide itself. */
static const exo_tally_slot *find(const exo_tally *t, uint64_t label) {
  for (size_t i = 0; i < t->count; i++)
    if (t->slots[t->touched[i]].label == label) return &t->slots[t->touched[i]];
  return NULL;
}

/* Many votes for 40 labels, interleaved at random and in runs (the runs go
 * through the last-slot path, the interleaving through the probe), each
 * label's sum against a naive sum in the same order: equal to the bit.
 * Fails if add() overwrote instead of summing, on either path. */
START_TEST(sums_match_naive_sum) {
  enum { NL = 40, NV = 5000 };
  uint64_t labels[NL];
  double naive[NL] = {0};
  int seen[NL] = {0}, order[NL], norder = 0;
  exo_rng rng;
  exo_rng_seed(&rng, 56);
  for (int i = 0; i < NL; i++) labels[i] = exo_rng_below(&rng, (uint64_t)1 << 60);
  exo_tally t;
  ck_assert_int_eq(exo_tally_alloc(&t, 128), 0);
  for (int v = 0; v < NV;) {
    int k = (int)exo_rng_below(&rng, NL);
    int run = 1 + (int)exo_rng_below(&rng, 4);
    for (int r = 0; r < run && v < NV; r++, v++) {
      double w = (double)exo_rng_below(&rng, 1000000) / 997.0 - 300.0;
      naive[k] += w;
      if (!seen[k]) {
        seen[k] = 1;
        order[norder++] = k;
      }
      ck_assert_int_eq(exo_tally_add(&t, labels[k], w, 1, 1), 0);
    }
  }
  ck_assert_uint_eq(t.count, (size_t)norder);
  for (int i = 0; i < NL; i++) {
    if (!seen[i]) continue;
    ck_assert_msg(exo_tally_get(&t, labels[i]) == naive[i], "label %d: %.17g != %.17g", i,
                  exo_tally_get(&t, labels[i]), naive[i]);
    ck_assert_msg(find(&t, labels[i])->sum == naive[i], "slot sum of label %d", i);
  }
  /* touched lists the labels in the order of their first vote */
  for (int i = 0; i < norder; i++)
    ck_assert_uint_eq(t.slots[t.touched[i]].label, labels[order[i]]);
  ck_assert(exo_tally_get(&t, (uint64_t)1 << 61) == 0.0); /* no votes: 0 */
  exo_tally_free(&t);
}
END_TEST

/* dist: the smallest hop distance among a label's arcs, whatever the order;
 * eligible: 1 when any arc of the label passes the cutoff. Both on the
 * last-slot path (consecutive votes) and the probe path (interleaved).
 * Fails if add() kept the first (or last) distance instead of the smallest,
 * or overwrote the flag instead of or-ing it. */
START_TEST(distance_min_and_eligible_or) {
  exo_tally t;
  ck_assert_int_eq(exo_tally_alloc(&t, 16), 0);
  /* consecutive votes: the last-slot path */
  exo_tally_add(&t, 7, 1.0, 3, 0);
  exo_tally_add(&t, 7, 1.0, 1, 1);
  exo_tally_add(&t, 7, 1.0, 2, 0);
  /* interleaved with label 9: the probe path */
  exo_tally_add(&t, 9, 0.5, 5, 0);
  exo_tally_add(&t, 11, 0.5, 4, 0);
  exo_tally_add(&t, 9, 0.5, 2, 1);
  exo_tally_add(&t, 11, 0.5, 6, 0);
  exo_tally_add(&t, 9, 0.5, 4, 0);
  exo_tally_add(&t, 11, 0.5, 9, 0);
  const exo_tally_slot *a = find(&t, 7), *b = find(&t, 9), *c = find(&t, 11);
  ck_assert_ptr_nonnull(a);
  ck_assert_ptr_nonnull(b);
  ck_assert_ptr_nonnull(c);
  ck_assert_uint_eq(a->dist, 1);
  ck_assert_uint_eq(a->eligible, 1);
  ck_assert(a->sum == 3.0);
  ck_assert_uint_eq(b->dist, 2);
  ck_assert_uint_eq(b->eligible, 1); /* one eligible arc among three */
  ck_assert(b->sum == 1.5);
  ck_assert_uint_eq(c->dist, 4);
  ck_assert_uint_eq(c->eligible, 0); /* no arc passed the cutoff */
  ck_assert(c->sum == 1.5);
  /* a label's first vote sets its distance and flag */
  exo_tally_add(&t, 13, -2.0, 8, 1);
  ck_assert_uint_eq(find(&t, 13)->dist, 8);
  ck_assert_uint_eq(find(&t, 13)->eligible, 1);
  ck_assert(exo_tally_get(&t, 13) == -2.0);
  exo_tally_free(&t);
}
END_TEST

/* From 4 slots (2 labels) to 3000 labels: every growth keeps the sums, the
 * distances, the flags and the insertion order; the table stays a power of
 * two at most half full. Fails if grow() lost or reordered an entry. */
START_TEST(grows_beyond_capacity) {
  enum { N = 3000 };
  exo_tally t;
  ck_assert_int_eq(exo_tally_alloc(&t, 4), 0);
  for (uint64_t i = 0; i < N; i++) {
    uint64_t label = i * 1000003ULL + 17;
    ck_assert_int_eq(exo_tally_add(&t, label, (double)i, (uint32_t)(i % 7), (int)(i % 2)), 0);
    ck_assert_uint_le(2 * t.count, t.cap);
    ck_assert_uint_eq(t.cap & (t.cap - 1), 0);
  }
  /* a second vote for every label, after all the growth */
  for (uint64_t i = 0; i < N; i++)
    exo_tally_add(&t, i * 1000003ULL + 17, 0.5, 100, 0);
  ck_assert_uint_eq(t.count, N);
  ck_assert_uint_ge(t.cap, 2 * N);
  for (uint64_t i = 0; i < N; i++) {
    const exo_tally_slot *e = &t.slots[t.touched[i]];
    ck_assert_uint_eq(e->label, i * 1000003ULL + 17);
    ck_assert(e->sum == (double)i + 0.5);
    ck_assert_uint_eq(e->dist, (uint32_t)(i % 7));
    ck_assert_uint_eq(e->eligible, (uint32_t)(i % 2));
    ck_assert(exo_tally_get(&t, e->label) == (double)i + 0.5);
  }
  exo_tally_free(&t);
}
END_TEST

/* Clearing between nodes: no label left (count 0, get 0, the touched slots
 * empty again), and a label voted for after the clear starts from its new
 * vote, with its new distance and flag, including the label of the last
 * vote (the cached last slot). Fails if clear() left a slot's label or the
 * count in place. */
START_TEST(clear_between_nodes) {
  exo_tally t;
  ck_assert_int_eq(exo_tally_alloc(&t, 8), 0);
  for (int node = 0; node < 50; node++) {
    for (uint64_t l = 0; l < 20; l++) exo_tally_add(&t, l * 31 + 5, 1.0 + (double)node, 3, 1);
    ck_assert_uint_eq(t.count, 20);
    ck_assert(exo_tally_get(&t, 5) == 1.0 + (double)node);
    ck_assert(exo_tally_get(&t, 19 * 31 + 5) == 1.0 + (double)node);
    exo_tally_clear(&t);
    ck_assert_uint_eq(t.count, 0);
    ck_assert_ptr_null(t.last);
    for (uint64_t l = 0; l < 20; l++) ck_assert(exo_tally_get(&t, l * 31 + 5) == 0.0);
  }
  size_t empty = 0;
  for (size_t i = 0; i < t.cap; i++) empty += t.slots[i].label == EXO_TALLY_EMPTY;
  ck_assert_uint_eq(empty, t.cap);
  /* the label of the last vote before a clear */
  exo_tally_add(&t, 42, 5.0, 1, 1);
  exo_tally_clear(&t);
  exo_tally_add(&t, 42, 2.0, 9, 0);
  ck_assert(exo_tally_get(&t, 42) == 2.0);
  ck_assert_uint_eq(find(&t, 42)->dist, 9);
  ck_assert_uint_eq(find(&t, 42)->eligible, 0);
  ck_assert_uint_eq(t.count, 1);
  exo_tally_free(&t);
}
END_TEST

/* exo_tally_add_sum is exo_tally_add(t, label, w, 0, 1): the same sums,
 * distance 0, eligible; past half full it grows like add. */
START_TEST(add_sum_is_add_with_no_distance) {
  exo_tally a, b;
  ck_assert_int_eq(exo_tally_alloc(&a, 4), 0);
  ck_assert_int_eq(exo_tally_alloc(&b, 4), 0);
  exo_rng rng;
  exo_rng_seed(&rng, 7);
  for (int i = 0; i < 2000; i++) {
    uint64_t label = exo_rng_below(&rng, 300);
    double w = (double)exo_rng_below(&rng, 1000) / 8.0 - 40.0;
    ck_assert_int_eq(exo_tally_add_sum(&a, label, w), 0);
    ck_assert_int_eq(exo_tally_add(&b, label, w, 0, 1), 0);
  }
  ck_assert_uint_eq(a.count, b.count);
  ck_assert_uint_le(2 * a.count, a.cap);
  for (size_t i = 0; i < a.count; i++) {
    const exo_tally_slot *x = &a.slots[a.touched[i]], *y = &b.slots[b.touched[i]];
    ck_assert_uint_eq(x->label, y->label);
    ck_assert(x->sum == y->sum);
    ck_assert_uint_eq(x->dist, 0);
    ck_assert_uint_eq(x->eligible, 1);
  }
  exo_tally_free(&a);
  exo_tally_free(&b);
}
END_TEST

/* exo_tally_alloc_for(entries): at least 16 slots and 2 * entries + 2, so
 * that `entries` labels never make it grow. */
START_TEST(alloc_for_never_grows) {
  const uint64_t sizes[] = {0, 1, 7, 8, 100, 1000};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    exo_tally t;
    ck_assert_int_eq(exo_tally_alloc_for(&t, sizes[k]), 0);
    ck_assert_uint_ge(t.cap, 16);
    ck_assert_uint_ge(t.cap, 2 * sizes[k] + 2);
    size_t cap = t.cap;
    exo_tally_slot *slots = t.slots;
    for (uint64_t l = 0; l < sizes[k]; l++) {
      ck_assert_int_eq(exo_tally_add_sum(&t, l * 977, 1.0), 0);
      ck_assert_int_eq(exo_tally_add_sum(&t, l * 977, 0.25), 0);
    }
    ck_assert_uint_eq(t.cap, cap);
    ck_assert_ptr_eq(t.slots, slots);
    ck_assert_uint_eq(t.count, sizes[k]);
    for (uint64_t l = 0; l < sizes[k]; l++) ck_assert(exo_tally_get(&t, l * 977) == 1.25);
    exo_tally_free(&t);
  }
}
END_TEST

Suite *tally_suite(void) {
  Suite *s = suite_create("tally");
  TCase *tc = tcase_create("tally");
  tcase_add_test(tc, sums_match_naive_sum);
  tcase_add_test(tc, distance_min_and_eligible_or);
  tcase_add_test(tc, grows_beyond_capacity);
  tcase_add_test(tc, clear_between_nodes);
  tcase_add_test(tc, add_sum_is_add_with_no_distance);
  tcase_add_test(tc, alloc_for_never_grows);
  suite_add_tcase(s, tc);
  return s;
}
