/* test_loser_tree.c: k-way merging with the loser tree against a reference
 * stable sort, including stability, empty sources, k = 1 and odd k. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "exo_loser_tree.h"
#include "exo_rng.h"

typedef struct item {
  uint64_t key, nbr;
  uint32_t src, pos; /* where the item came from: checks stability */
} item;

/* Reference order: (key, nbr), then source index, then position. */
static int item_cmp(const void *pa, const void *pb) {
  const item *a = pa, *b = pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  if (a->nbr != b->nbr) return a->nbr < b->nbr ? -1 : 1;
  if (a->src != b->src) return a->src < b->src ? -1 : 1;
  if (a->pos != b->pos) return a->pos < b->pos ? -1 : 1;
  return 0;
}

static int kn_cmp(const void *pa, const void *pb) {
  const item *a = pa, *b = pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  if (a->nbr != b->nbr) return a->nbr < b->nbr ? -1 : 1;
  return 0;
}

/* Build k sorted sources of random length (some empty), merge them with the
 * tree and compare with the reference, item by item (tags included). */
static void check_merge(uint32_t k, uint32_t maxlen, uint64_t keyrange,
                        uint64_t seed) {
  exo_rng rng;
  exo_rng_seed(&rng, seed);
  item **src = calloc(k, sizeof *src);
  size_t *len = calloc(k, sizeof *len), *at = calloc(k, sizeof *at);
  size_t total = 0;
  for (uint32_t s = 0; s < k; s++) {
    uint64_t r = exo_rng_below(&rng, 4);
    len[s] = r == 0 ? 0 : (size_t)exo_rng_below(&rng, maxlen + 1);
    src[s] = malloc((len[s] + 1) * sizeof(item));
    for (size_t i = 0; i < len[s]; i++) {
      src[s][i].key = exo_rng_below(&rng, keyrange);
      src[s][i].nbr = exo_rng_below(&rng, 3);
      src[s][i].src = s;
    }
    qsort(src[s], len[s], sizeof(item), kn_cmp); /* not stable: re-tag after */
    for (size_t i = 0; i < len[s]; i++) src[s][i].pos = (uint32_t)i;
    total += len[s];
  }
  item *ref = malloc((total + 1) * sizeof(item));
  size_t m = 0;
  for (uint32_t s = 0; s < k; s++)
    for (size_t i = 0; i < len[s]; i++) ref[m++] = src[s][i];
  qsort(ref, total, sizeof(item), item_cmp);

  exo_loser_tree t;
  ck_assert_int_eq(exo_lt_init(&t, k), 0);
  ck_assert_uint_eq(t.k, k);
  for (uint32_t s = 0; s < k; s++) {
    t.head[s].done = len[s] == 0;
    if (len[s]) {
      t.head[s].key = src[s][0].key;
      t.head[s].nbr = src[s][0].nbr;
    }
  }
  exo_lt_build(&t);
  size_t out = 0;
  for (;;) {
    uint32_t w = exo_lt_winner(&t);
    ck_assert_uint_lt(w, k);
    if (t.head[w].done) break;
    ck_assert_uint_lt(out, total);
    const item *it = &src[w][at[w]];
    ck_assert_uint_eq(it->key, ref[out].key);
    ck_assert_uint_eq(it->nbr, ref[out].nbr);
    ck_assert_uint_eq(it->src, ref[out].src);
    ck_assert_uint_eq(it->pos, ref[out].pos);
    out++;
    if (++at[w] == len[w]) {
      t.head[w].done = 1;
    } else {
      t.head[w].key = src[w][at[w]].key;
      t.head[w].nbr = src[w][at[w]].nbr;
    }
    exo_lt_replay(&t);
  }
  ck_assert_uint_eq(out, total);
  for (uint32_t s = 0; s < k; s++) {
    ck_assert_uint_eq(at[s], len[s]);
    ck_assert(t.head[s].done);
    free(src[s]);
  }
  exo_lt_free(&t);
  ck_assert_ptr_null(t.node);
  exo_lt_free(&t); /* twice is fine */
  free(ref);
  free(src);
  free(len);
  free(at);
}

START_TEST(merge_k_1_to_40) {
  for (uint32_t k = 1; k <= 40; k++) {
    check_merge(k, 60, 1000, 1000 + k);  /* mostly distinct keys */
    check_merge(k, 60, 4, 2000 + k);     /* heavy duplicates: stability */
    check_merge(k, 3, 1u << 30, 3000 + k); /* short sources */
  }
}
END_TEST

START_TEST(merge_large_k) {
  check_merge(255, 200, 50, 7);
  check_merge(1000, 20, 1u << 20, 8);
  check_merge(4096, 5, 10, 9);
}
END_TEST

START_TEST(all_equal_keys_come_out_in_source_order) {
  const uint32_t k = 13;
  exo_loser_tree t;
  ck_assert_int_eq(exo_lt_init(&t, k), 0);
  uint32_t left[13];
  for (uint32_t s = 0; s < k; s++) {
    t.head[s].key = 5;
    t.head[s].nbr = 5;
    t.head[s].done = 0;
    left[s] = 3;
  }
  exo_lt_build(&t);
  /* every source holds three equal items: source 0 drains first, then 1... */
  for (uint32_t s = 0; s < k; s++) {
    for (int r = 0; r < 3; r++) {
      ck_assert_uint_eq(exo_lt_winner(&t), s);
      if (--left[s] == 0) t.head[s].done = 1;
      exo_lt_replay(&t);
    }
  }
  ck_assert(t.head[exo_lt_winner(&t)].done);
  exo_lt_free(&t);
}
END_TEST

START_TEST(single_source_and_all_empty) {
  exo_loser_tree t;
  ck_assert_int_eq(exo_lt_init(&t, 1), 0);
  t.head[0].key = 1;
  t.head[0].nbr = 2;
  t.head[0].done = 0;
  exo_lt_build(&t);
  ck_assert_uint_eq(exo_lt_winner(&t), 0);
  t.head[0].done = 1;
  exo_lt_replay(&t);
  ck_assert_uint_eq(exo_lt_winner(&t), 0);
  ck_assert(t.head[0].done);
  exo_lt_free(&t);

  ck_assert_int_eq(exo_lt_init(&t, 7), 0); /* heads start exhausted */
  exo_lt_build(&t);
  ck_assert(t.head[exo_lt_winner(&t)].done);
  exo_lt_free(&t);

  ck_assert_int_eq(exo_lt_init(&t, 0), -1);
  ck_assert_ptr_null(t.node);
  exo_lt_free(&t);
}
END_TEST

START_TEST(extreme_keys) {
  /* 64-bit keys near the top compare correctly; nbr breaks key ties */
  exo_loser_tree t;
  ck_assert_int_eq(exo_lt_init(&t, 3), 0);
  t.head[0] = (exo_lt_key){UINT64_MAX, 0, 0};
  t.head[1] = (exo_lt_key){UINT64_MAX - 1, UINT64_MAX, 0};
  t.head[2] = (exo_lt_key){UINT64_MAX, UINT64_MAX, 0};
  exo_lt_build(&t);
  ck_assert_uint_eq(exo_lt_winner(&t), 1);
  t.head[1].done = 1;
  exo_lt_replay(&t);
  ck_assert_uint_eq(exo_lt_winner(&t), 0);
  t.head[0].done = 1;
  exo_lt_replay(&t);
  ck_assert_uint_eq(exo_lt_winner(&t), 2);
  t.head[2].done = 1;
  exo_lt_replay(&t);
  ck_assert(t.head[exo_lt_winner(&t)].done);
  exo_lt_free(&t);
}
END_TEST

Suite *loser_tree_suite(void) {
  Suite *s = suite_create("loser_tree");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, merge_k_1_to_40);
  tcase_add_test(tc, merge_large_k);
  tcase_add_test(tc, all_equal_keys_come_out_in_source_order);
  tcase_add_test(tc, single_source_and_all_empty);
  tcase_add_test(tc, extreme_keys);
  suite_add_tcase(s, tc);
  return s;
}
