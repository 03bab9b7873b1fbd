/* exo_sum.h: the checksum of a kept graph's files (exo_keep.h).
 *
 * The sum of a file of n bytes: its bytes as 32-bit words (native byte
 * order; the last one padded with zero bytes), word i weighed by
 * exo_sum_word(i, w), all added mod 2^64, then exo_sum_close adds the
 * length. A sum of positioned terms: any part of a file can be summed
 * apart and the parts added (the sort's final merge sums the slices of a
 * kept adjacency file its key ranges read, exo_sorter_base_sum), and a
 * changed, moved or missing word changes it (up to the 2^-64 chance of
 * a collision; it detects corruption, not tampering). Pure; no state but
 * the caller's. */
#ifndef EXO_SUM_H
#define EXO_SUM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t exo_sum_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* The term of word w at word index i. */
static inline uint64_t exo_sum_word(uint64_t i, uint32_t w) {
  return exo_sum_mix(i * 0x9e3779b97f4a7c15ull + ((uint64_t)w << 1) + 1);
}

/* The terms of `words` whole words at p, the first at word index i. */
static inline uint64_t exo_sum_words(const uint8_t *p, size_t words, uint64_t i) {
  uint64_t s = 0;
  for (size_t k = 0; k < words; k++) {
    uint32_t w;
    memcpy(&w, p + 4 * k, 4);
    s += exo_sum_word(i + k, w);
  }
  return s;
}

/* The checksum of a file of `bytes` bytes whose terms add up to `terms`. */
static inline uint64_t exo_sum_close(uint64_t terms, uint64_t bytes) {
  return terms + exo_sum_mix(bytes ^ 0x6a09e667f3bcc909ull);
}

#endif
