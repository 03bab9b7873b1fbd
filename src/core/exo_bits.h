/* exo_bits.h: the core's one bitmap (header only, inline): one bit per id
 * in 64-bit words, bit v in word v / 64 at position v % 64. Label
 * propagation's and Leiden's active sets, Leiden's refinement marks and its
 * lanes' community filter, the distributed part's flags and the listed
 * sequences' marks all use it.
 *
 * Contract:
 *   - exo_bits_words(n) words hold n bits; exo_bits_alloc(n) returns them
 *     zeroed (at least one word), free() frees them; NULL out of memory.
 *   - get/set/set_new/clear/zero/fill/count are plain (one thread per
 *     word, or the caller's synchronisation).
 *   - exo_bits_set_atomic and exo_bits_word_atomic are relaxed atomic ORs
 *     and loads of a word, for threads that set bits of the same words side
 *     by side (Leiden's refinement: threads own different communities,
 *     whose nodes may share a word). A bit once set by one of them is seen
 *     set by the same thread's later loads; no ordering with other memory
 *     is implied (the threads meet at a join before anything depends on
 *     another thread's bits).
 *   - No allocation except exo_bits_alloc; no errors to report.
 *
 * A leaf header: standard headers only. */
#ifndef EXO_BITS_H
#define EXO_BITS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Words for n bits. */
static inline size_t exo_bits_words(uint64_t n) { return (size_t)(n / 64 + (n % 64 != 0)); }

/* n bits, all clear (at least one word); free() frees them; NULL when out
 * of memory or when the words do not fit size_t. */
static inline uint64_t *exo_bits_alloc(uint64_t n) {
  size_t w = exo_bits_words(n);
  if ((uint64_t)w > SIZE_MAX / 8) return NULL;
  return (uint64_t *)calloc(w ? w : 1, 8);
}

static inline int exo_bits_get(const uint64_t *b, uint64_t v) {
  return (int)((b[v >> 6] >> (v & 63)) & 1u);
}
static inline void exo_bits_set(uint64_t *b, uint64_t v) { b[v >> 6] |= (uint64_t)1 << (v & 63); }
static inline void exo_bits_clear(uint64_t *b, uint64_t v) {
  b[v >> 6] &= ~((uint64_t)1 << (v & 63));
}

/* Bits [0, n) clear (whole words: the last word's bits from n on too). */
static inline void exo_bits_zero(uint64_t *b, uint64_t n) { memset(b, 0, exo_bits_words(n) * 8); }

/* Set bit v if it was clear: 1 when it was (the caller counts a newly
 * set bit), 0 when it was set already. */
static inline int exo_bits_set_new(uint64_t *b, uint64_t v) {
  uint64_t *w = &b[v >> 6];
  const uint64_t m = (uint64_t)1 << (v & 63);
  if (*w & m) return 0;
  *w |= m;
  return 1;
}

/* Clear the whole word that holds bit v (a filter reset with its
 * neighbours: Leiden's lanes). */
static inline void exo_bits_clear_word_of(uint64_t *b, uint64_t v) { b[v >> 6] = 0; }

/* Bits [0, n) set and the rest of the last word clear (the other words are
 * not touched). */
static inline void exo_bits_fill(uint64_t *b, uint64_t n) {
  size_t w = exo_bits_words(n);
  for (size_t i = 0; i < w; i++) b[i] = ~(uint64_t)0;
  if (n & 63) b[w - 1] = ((uint64_t)1 << (n & 63)) - 1;
}

/* Set bits among [0, n). */
static inline uint64_t exo_bits_count(const uint64_t *b, uint64_t n) {
  uint64_t c = 0;
  size_t full = (size_t)(n / 64);
  for (size_t i = 0; i < full; i++) c += (uint64_t)__builtin_popcountll(b[i]);
  if (n & 63) c += (uint64_t)__builtin_popcountll(b[full] & (((uint64_t)1 << (n & 63)) - 1));
  return c;
}

/* Set bits of v's word below v (a rank inside the word; callers keep the
 * words' prefix counts). */
static inline uint64_t exo_bits_rank_in_word(const uint64_t *b, uint64_t v) {
  return (uint64_t)__builtin_popcountll(b[v >> 6] & (((uint64_t)1 << (v & 63)) - 1));
}

/* ---- shared words: relaxed atomics ------------------------------------- */
_Static_assert(sizeof(_Atomic uint64_t) == sizeof(uint64_t), "atomic words of a bitmap");

/* Word w, read while other threads may OR bits into it. */
static inline uint64_t exo_bits_word_atomic(uint64_t *b, size_t w) {
  return atomic_load_explicit((_Atomic uint64_t *)(void *)&b[w], memory_order_relaxed);
}
static inline int exo_bits_get_atomic(uint64_t *b, uint64_t v) {
  return (int)((exo_bits_word_atomic(b, (size_t)(v >> 6)) >> (v & 63)) & 1u);
}
/* Set bit v while other threads may set bits of the same word. */
static inline void exo_bits_set_atomic(uint64_t *b, uint64_t v) {
  atomic_fetch_or_explicit((_Atomic uint64_t *)(void *)&b[v >> 6], (uint64_t)1 << (v & 63),
                           memory_order_relaxed);
}

#endif
