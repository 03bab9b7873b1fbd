/* test_containers.c: the shared containers against their contracts: the id
 * array of either width (exo_ids.h: widths, values at and beyond 2^32 in a
 * wide array, truncation and neighbours in a narrow one, the allocation
 * flags and limits, copy, alias and the hand-over as u64) and the bitmap
 * (exo_bits.h: bits on both sides of word edges, fill and count at and
 * around multiples of 64, the rank inside a word, and the relaxed-atomic
 * set from two threads writing the same words). Each test compares with
 * values written out here, never with the container's own answer. */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exo_bits.h"
#include "exo_ids.h"

/* ---- exo_ids ----------------------------------------------------------- */

/* A narrow array holds u32 elements (a32 set, a64 NULL), a wide one u64;
 * set then get gives the value back through both the width-testing and the
 * width-taking accessors, and a narrow set writes 4 bytes only. */
START_TEST(ids_widths) {
  exo_ids a, b;
  ck_assert_int_eq(exo_ids_alloc(&a, 100, 0, 0), 0);
  ck_assert_int_eq(exo_ids_alloc(&b, 100, 1, 0), 0);
  ck_assert_ptr_nonnull(a.a32);
  ck_assert_ptr_null(a.a64);
  ck_assert_ptr_null(b.a32);
  ck_assert_ptr_nonnull(b.a64);
  ck_assert_int_eq(exo_ids_is_wide(&a), 0);
  ck_assert_int_eq(exo_ids_is_wide(&b), 1);
  ck_assert_uint_eq(exo_ids_elem_size(0), 4);
  ck_assert_uint_eq(exo_ids_elem_size(1), 8);
  ck_assert_uint_eq(exo_ids_bytes(100, 0), 400);
  ck_assert_uint_eq(exo_ids_bytes(100, 1), 800);
  for (uint64_t i = 0; i < 100; i++) {
    exo_ids_set(&a, i, i * 7 + 1);
    exo_ids_setw(&b, i, i * 11 + 3, 1);
  }
  for (uint64_t i = 0; i < 100; i++) {
    ck_assert_uint_eq(exo_ids_get(&a, i), i * 7 + 1);
    ck_assert_uint_eq(exo_ids_getw(&a, i, 0), i * 7 + 1);
    ck_assert_uint_eq(a.a32[i], (uint32_t)(i * 7 + 1));
    ck_assert_uint_eq(exo_ids_get(&b, i), i * 11 + 3);
    ck_assert_uint_eq(exo_ids_getw(&b, i, 1), i * 11 + 3);
    ck_assert_uint_eq(b.a64[i], i * 11 + 3);
  }
  /* element addresses (the prefetches) step by the width */
  ck_assert_ptr_eq(exo_ids_at(&a, 5, 0), (const void *)(a.a32 + 5));
  ck_assert_ptr_eq(exo_ids_at(&b, 5, 1), (const void *)(b.a64 + 5));
  /* a narrow set of a value beyond 32 bits keeps its low 32 bits and does
   * not touch the neighbours */
  exo_ids_set(&a, 50, ((uint64_t)5 << 32) | 9u);
  ck_assert_uint_eq(exo_ids_get(&a, 50), 9);
  ck_assert_uint_eq(exo_ids_get(&a, 49), 49 * 7 + 1);
  ck_assert_uint_eq(exo_ids_get(&a, 51), 51 * 7 + 1);
  exo_ids_free(&a);
  exo_ids_free(&b);
  ck_assert_ptr_null(a.a32);
  ck_assert_ptr_null(b.a64);
  exo_ids_free(&a); /* twice: nothing */
}
END_TEST

/* Ids at and around 2^32 (and far beyond) in a wide array come back exact,
 * each element independent of its neighbours; the largest narrow value
 * (2^32 - 1) comes back from a narrow one. */
START_TEST(ids_wide_boundaries) {
  const uint64_t vals[] = {0,
                           1,
                           (uint64_t)UINT32_MAX - 1,
                           UINT32_MAX,
                           (uint64_t)1 << 32,
                           ((uint64_t)1 << 32) + 1,
                           ((uint64_t)1 << 33) - 1,
                           (uint64_t)1 << 61,
                           UINT64_MAX - 1,
                           UINT64_MAX};
  const size_t nv = sizeof vals / sizeof vals[0];
  exo_ids w;
  ck_assert_int_eq(exo_ids_alloc(&w, nv * 3, 1, EXO_IDS_ZERO), 0);
  for (size_t i = 0; i < nv; i++) exo_ids_set(&w, 3 * i + 1, vals[i]);
  for (size_t i = 0; i < nv; i++) {
    ck_assert_uint_eq(exo_ids_get(&w, 3 * i + 1), vals[i]);
    ck_assert_uint_eq(exo_ids_getw(&w, 3 * i + 1, 1), vals[i]);
    ck_assert_uint_eq(exo_ids_get(&w, 3 * i), 0);
    ck_assert_uint_eq(exo_ids_get(&w, 3 * i + 2), 0);
  }
  exo_ids_free(&w);
  exo_ids nar;
  ck_assert_int_eq(exo_ids_alloc(&nar, 3, 0, EXO_IDS_ZERO), 0);
  exo_ids_setw(&nar, 1, UINT32_MAX, 0);
  ck_assert_uint_eq(exo_ids_get(&nar, 1), (uint64_t)UINT32_MAX);
  ck_assert_uint_eq(exo_ids_get(&nar, 0), 0);
  ck_assert_uint_eq(exo_ids_get(&nar, 2), 0);
  exo_ids_free(&nar);
}
END_TEST

/* EXO_IDS_ZERO zeroes (also a huge-page block of 8 MiB); without it the
 * memory is only the caller's; n = 0 still gives one element; a size past
 * size_t fails with the array empty. */
START_TEST(ids_alloc_flags_and_limits) {
  const uint64_t n = (uint64_t)1 << 20;
  for (int wide = 0; wide <= 1; wide++) {
    exo_ids a;
    ck_assert_int_eq(exo_ids_alloc(&a, n, wide, EXO_IDS_ZERO | EXO_IDS_HUGE), 0);
    uint64_t nonzero = 0;
    for (uint64_t i = 0; i < n; i++) nonzero += exo_ids_get(&a, i) != 0;
    ck_assert_uint_eq(nonzero, 0);
    exo_ids_set(&a, n - 1, 12345);
    ck_assert_uint_eq(exo_ids_get(&a, n - 1), 12345);
    exo_ids_free(&a);
    ck_assert_int_eq(exo_ids_alloc(&a, 0, wide, EXO_IDS_ZERO), 0);
    ck_assert_uint_eq(exo_ids_get(&a, 0), 0);
    exo_ids_free(&a);
  }
  ck_assert_uint_eq(exo_ids_bytes(0, 1), 8);
  ck_assert_uint_eq(exo_ids_bytes(UINT64_MAX, 1), 0);
  ck_assert_uint_eq(exo_ids_bytes((uint64_t)(SIZE_MAX / 4) + 1, 0), 0);
  exo_ids bad = {(uint32_t *)(uintptr_t)1, NULL}; /* reset by the failed alloc */
  ck_assert_int_eq(exo_ids_alloc(&bad, UINT64_MAX, 1, 0), -1);
  ck_assert_ptr_null(bad.a32);
  ck_assert_ptr_null(bad.a64);
}
END_TEST

/* Copy, alias and the hand-over as u64: a narrow array is widened value by
 * value (values near 2^32 included) into a new block; a wide one hands over
 * its own block; the array is empty afterwards. */
START_TEST(ids_copy_alias_take) {
  enum { N = 1000 };
  exo_ids a, c;
  ck_assert_int_eq(exo_ids_alloc(&a, N, 0, 0), 0);
  ck_assert_int_eq(exo_ids_alloc(&c, N, 0, EXO_IDS_ZERO), 0);
  for (uint64_t i = 0; i < N; i++) exo_ids_set(&a, i, (uint64_t)UINT32_MAX - i * 3);
  exo_ids_copy(&c, &a, N);
  for (uint64_t i = 0; i < N; i++) ck_assert_uint_eq(exo_ids_get(&c, i), (uint64_t)UINT32_MAX - i * 3);
  exo_ids alias = a;
  ck_assert_int_eq(exo_ids_same(&alias, &a), 1);
  ck_assert_int_eq(exo_ids_same(&c, &a), 0);
  uint64_t *u = exo_ids_take_u64(&a, N);
  ck_assert_ptr_nonnull(u);
  ck_assert_ptr_null(a.a32);
  ck_assert_ptr_null(a.a64);
  for (uint64_t i = 0; i < N; i++) ck_assert_uint_eq(u[i], (uint64_t)UINT32_MAX - i * 3);
  free(u);
  exo_ids_free(&c);

  exo_ids w, w2;
  ck_assert_int_eq(exo_ids_alloc(&w, N, 1, 0), 0);
  ck_assert_int_eq(exo_ids_alloc(&w2, N, 1, 0), 0);
  for (uint64_t i = 0; i < N; i++) exo_ids_set(&w, i, ((uint64_t)1 << 40) + i);
  exo_ids_copy(&w2, &w, N);
  uint64_t *own = w.a64;
  u = exo_ids_take_u64(&w, N);
  ck_assert_ptr_eq(u, own);
  ck_assert_ptr_null(w.a64);
  for (uint64_t i = 0; i < N; i++) {
    ck_assert_uint_eq(u[i], ((uint64_t)1 << 40) + i);
    ck_assert_uint_eq(exo_ids_get(&w2, i), ((uint64_t)1 << 40) + i);
  }
  free(u);
  exo_ids_free(&w2);
}
END_TEST

/* ---- exo_bits ---------------------------------------------------------- */

START_TEST(bits_words) {
  ck_assert_uint_eq(exo_bits_words(0), 0);
  ck_assert_uint_eq(exo_bits_words(1), 1);
  ck_assert_uint_eq(exo_bits_words(63), 1);
  ck_assert_uint_eq(exo_bits_words(64), 1);
  ck_assert_uint_eq(exo_bits_words(65), 2);
  ck_assert_uint_eq(exo_bits_words(128), 2);
  ck_assert_uint_eq(exo_bits_words(129), 3);
  uint64_t *b = exo_bits_alloc(0); /* at least one word, clear */
  ck_assert_ptr_nonnull(b);
  ck_assert_uint_eq(b[0], 0);
  free(b);
}
END_TEST

/* Bits on both sides of each word edge: set, read back as words written
 * out by hand, cleared one by one without touching their neighbours. */
START_TEST(bits_word_edges) {
  const uint64_t n = 200;
  uint64_t *b = exo_bits_alloc(n);
  ck_assert_ptr_nonnull(b);
  for (size_t w = 0; w < exo_bits_words(n); w++) ck_assert_uint_eq(b[w], 0);
  const uint64_t at[] = {0, 63, 64, 127, 128, 191, 192, 199};
  for (size_t i = 0; i < 8; i++) exo_bits_set(b, at[i]);
  ck_assert_uint_eq(b[0], ((uint64_t)1 << 63) | 1u);
  ck_assert_uint_eq(b[1], ((uint64_t)1 << 63) | 1u);
  ck_assert_uint_eq(b[2], ((uint64_t)1 << 63) | 1u);
  ck_assert_uint_eq(b[3], ((uint64_t)1 << 7) | 1u);
  for (uint64_t v = 0; v < n; v++) {
    int want = 0;
    for (size_t i = 0; i < 8; i++) want |= at[i] == v;
    ck_assert_msg(exo_bits_get(b, v) == want, "bit %llu", (unsigned long long)v);
    ck_assert_int_eq(exo_bits_get_atomic(b, v), want);
  }
  ck_assert_uint_eq(exo_bits_count(b, n), 8);
  ck_assert_uint_eq(exo_bits_count(b, 64), 2);  /* 0, 63 */
  ck_assert_uint_eq(exo_bits_count(b, 63), 1);  /* 0 */
  ck_assert_uint_eq(exo_bits_count(b, 65), 3);  /* 0, 63, 64 */
  ck_assert_uint_eq(exo_bits_count(b, 199), 7); /* all but 199 */
  ck_assert_uint_eq(exo_bits_count(b, 0), 0);
  ck_assert_uint_eq(exo_bits_rank_in_word(b, 63), 1);
  ck_assert_uint_eq(exo_bits_rank_in_word(b, 64), 0);
  ck_assert_uint_eq(exo_bits_rank_in_word(b, 127), 1);
  ck_assert_uint_eq(exo_bits_rank_in_word(b, 199), 1);
  exo_bits_set(b, 63); /* set twice: still one bit */
  ck_assert_uint_eq(exo_bits_count(b, n), 8);
  exo_bits_clear(b, 64);
  ck_assert_int_eq(exo_bits_get(b, 63), 1);
  ck_assert_int_eq(exo_bits_get(b, 64), 0);
  ck_assert_uint_eq(b[1], (uint64_t)1 << 63);
  exo_bits_clear(b, 63);
  ck_assert_uint_eq(b[0], 1);
  exo_bits_clear(b, 65); /* clear bit: nothing */
  ck_assert_uint_eq(b[1], (uint64_t)1 << 63);
  ck_assert_int_eq(exo_bits_set_new(b, 65), 1); /* newly set */
  ck_assert_int_eq(exo_bits_set_new(b, 65), 0); /* already set */
  ck_assert_int_eq(exo_bits_set_new(b, 127), 0);
  ck_assert_uint_eq(b[1], ((uint64_t)1 << 63) | ((uint64_t)1 << 1));
  exo_bits_clear(b, 65);
  exo_bits_clear_word_of(b, 130); /* the whole word 2 */
  ck_assert_uint_eq(b[2], 0);
  ck_assert_uint_eq(b[1], (uint64_t)1 << 63);
  ck_assert_uint_eq(b[3], ((uint64_t)1 << 7) | 1u);
  exo_bits_set_atomic(b, 130);
  ck_assert_uint_eq(b[2], (uint64_t)1 << 2);
  ck_assert_uint_eq(exo_bits_word_atomic(b, 2), (uint64_t)1 << 2);
  free(b);
}
END_TEST

/* fill(n) sets exactly [0, n): the last word's bits from n on are clear,
 * and the word after it (a sentinel) is not touched; zero(n) clears the
 * same words and no other. */
START_TEST(bits_fill) {
  const uint64_t ns[] = {1, 2, 63, 64, 65, 127, 128, 129, 1000};
  for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
    const uint64_t n = ns[k];
    const size_t w = exo_bits_words(n);
    uint64_t *b = malloc((w + 1) * 8);
    ck_assert_ptr_nonnull(b);
    memset(b, 0xA5, (w + 1) * 8);
    exo_bits_fill(b, n);
    for (uint64_t v = 0; v < 64 * (uint64_t)w; v++)
      ck_assert_msg(exo_bits_get(b, v) == (v < n), "n %llu bit %llu", (unsigned long long)n,
                    (unsigned long long)v);
    ck_assert_uint_eq(b[w], 0xA5A5A5A5A5A5A5A5ULL);
    ck_assert_uint_eq(exo_bits_count(b, 64 * (uint64_t)w), n);
    exo_bits_zero(b, n); /* every word of the n bits, not the sentinel */
    for (size_t i = 0; i < w; i++) ck_assert_uint_eq(b[i], 0);
    ck_assert_uint_eq(b[w], 0xA5A5A5A5A5A5A5A5ULL);
    free(b);
  }
}
END_TEST

/* Two threads set the even and the odd bits of the same words at once
 * (every word written by both), many rounds: with atomic ORs no bit is
 * lost; a plain read-modify-write loses some within a few rounds. */
enum { AT_BITS = 1 << 14, AT_ROUNDS = 64 };
typedef struct at_job {
  uint64_t *b;
  int parity;
  pthread_barrier_t *bar;
} at_job;

static void *at_setter(void *arg) {
  at_job *j = arg;
  for (int r = 0; r < AT_ROUNDS; r++) {
    pthread_barrier_wait(j->bar); /* the bitmap is clear */
    for (uint64_t v = (uint64_t)j->parity; v < AT_BITS; v += 2) exo_bits_set_atomic(j->b, v);
    pthread_barrier_wait(j->bar); /* both done: the main thread counts */
    pthread_barrier_wait(j->bar); /* counted */
  }
  return NULL;
}

START_TEST(bits_atomic_two_threads) {
  uint64_t *b = exo_bits_alloc(AT_BITS);
  ck_assert_ptr_nonnull(b);
  pthread_barrier_t bar;
  ck_assert_int_eq(pthread_barrier_init(&bar, NULL, 3), 0);
  at_job jobs[2] = {{b, 0, &bar}, {b, 1, &bar}};
  pthread_t th[2];
  for (int i = 0; i < 2; i++) ck_assert_int_eq(pthread_create(&th[i], NULL, at_setter, &jobs[i]), 0);
  uint64_t lost = 0;
  for (int r = 0; r < AT_ROUNDS; r++) {
    memset(b, 0, exo_bits_words(AT_BITS) * 8);
    pthread_barrier_wait(&bar);
    pthread_barrier_wait(&bar);
    lost += AT_BITS - exo_bits_count(b, AT_BITS);
    pthread_barrier_wait(&bar);
  }
  for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
  pthread_barrier_destroy(&bar);
  ck_assert_msg(lost == 0, "%llu bits lost over %d rounds", (unsigned long long)lost, AT_ROUNDS);
  for (uint64_t w = 0; w < exo_bits_words(AT_BITS); w++)
    ck_assert_uint_eq(exo_bits_word_atomic(b, (size_t)w), UINT64_MAX);
  free(b);
}
END_TEST

Suite *containers_suite(void) {
  Suite *s = suite_create("containers");
  TCase *ids = tcase_create("ids");
  tcase_add_test(ids, ids_widths);
  tcase_add_test(ids, ids_wide_boundaries);
  tcase_add_test(ids, ids_alloc_flags_and_limits);
  tcase_add_test(ids, ids_copy_alias_take);
  suite_add_tcase(s, ids);
  TCase *bits = tcase_create("bits");
  tcase_add_test(bits, bits_words);
  tcase_add_test(bits, bits_word_edges);
  tcase_add_test(bits, bits_fill);
  tcase_add_test(bits, bits_atomic_two_threads);
  suite_add_tcase(s, bits);
  return s;
}
