/* exo_ids.h: the core's one array of node ids of either width (header only,
 * inline): u32 elements while every value fits in 32 bits (the callers
 * choose: n <= EXO_NARROW_ID_LIMIT, exo_record.h, unless a test forces
 * u64), else u64. Label propagation's labels and their published copy
 * (exo_lp.c) and Leiden's community and refined ids (exo_leiden_int.h)
 * are such arrays.
 *
 * Contract:
 *   - An exo_ids has exactly one of a32 and a64 set once allocated (both
 *     NULL before, and after exo_ids_free); the width is which one.
 *     Callers may read a32 / a64 directly in loops of their own.
 *   - exo_ids_getw / exo_ids_setw take the width as a parameter: a caller
 *     that passes a constant (label propagation's specialised hot loops)
 *     gets a loop of that width alone, with no test per element.
 *     exo_ids_get / exo_ids_set test the width (a64 != NULL) themselves.
 *     A value set in a narrow array is truncated to 32 bits; the caller
 *     keeps its values below 2^32 there.
 *   - exo_ids_alloc: n elements (at least one), zeroed with EXO_IDS_ZERO,
 *     asked to be backed by huge pages with EXO_IDS_HUGE (exo_alloc_huge,
 *     exo_platform.h: ids looked up at random miss the TLB with 4 KiB
 *     pages); 0, or -1 out of memory (or n * width beyond size_t) with the
 *     array left empty. free() frees either kind, so does exo_ids_free.
 *   - exo_ids_take_u64 hands the ids over as a malloc'd u64 array (widening
 *     a narrow one, which is freed).
 *   - No errors other than the allocations' -1; nothing global.
 *
 * A leaf header: standard headers and exo_platform.h only. */
#ifndef EXO_IDS_H
#define EXO_IDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exo_platform.h"

typedef struct exo_ids {
  uint32_t *a32; /* the ids when narrow, else NULL */
  uint64_t *a64; /* the ids when wide, else NULL */
} exo_ids;

enum { EXO_IDS_ZERO = 1, EXO_IDS_HUGE = 2 }; /* exo_ids_alloc's flags */

/* Bytes per element of a width (wide: u64). */
static inline size_t exo_ids_elem_size(int wide) { return wide ? 8u : 4u; }

/* Bytes of n elements (at least one element), 0 when beyond size_t. */
static inline size_t exo_ids_bytes(uint64_t n, int wide) {
  const size_t es = exo_ids_elem_size(wide);
  if (n == 0) n = 1;
  if (n > SIZE_MAX / es) return 0;
  return (size_t)n * es;
}

static inline int exo_ids_is_wide(const exo_ids *a) { return a->a64 != NULL; }

/* Do a and b hold the same array (an alias, as label propagation's
 * published labels with one lane)? */
static inline int exo_ids_same(const exo_ids *a, const exo_ids *b) {
  return a->a32 == b->a32 && a->a64 == b->a64;
}

static inline uint64_t exo_ids_getw(const exo_ids *a, uint64_t i, int wide) {
  return wide ? a->a64[i] : (uint64_t)a->a32[i];
}
static inline void exo_ids_setw(exo_ids *a, uint64_t i, uint64_t x, int wide) {
  if (wide)
    a->a64[i] = x;
  else
    a->a32[i] = (uint32_t)x;
}
/* The address of element i (for a prefetch). */
static inline const void *exo_ids_at(const exo_ids *a, uint64_t i, int wide) {
  return wide ? (const void *)&a->a64[i] : (const void *)&a->a32[i];
}

static inline uint64_t exo_ids_get(const exo_ids *a, uint64_t i) {
  return a->a64 ? a->a64[i] : a->a32[i];
}
static inline void exo_ids_set(exo_ids *a, uint64_t i, uint64_t x) {
  if (a->a64)
    a->a64[i] = x;
  else
    a->a32[i] = (uint32_t)x;
}

static inline void exo_ids_free(exo_ids *a) {
  free(a->a32);
  free(a->a64);
  a->a32 = NULL;
  a->a64 = NULL;
}

static inline int exo_ids_alloc(exo_ids *a, uint64_t n, int wide, unsigned flags) {
  a->a32 = NULL;
  a->a64 = NULL;
  const size_t bytes = exo_ids_bytes(n, wide);
  if (!bytes) return -1;
  void *p = (flags & EXO_IDS_HUGE) ? exo_alloc_huge(bytes) : malloc(bytes);
  if (!p) return -1;
  if (flags & EXO_IDS_ZERO) memset(p, 0, bytes);
  if (wide)
    a->a64 = (uint64_t *)p;
  else
    a->a32 = (uint32_t *)p;
  return 0;
}

/* Copy the first n elements of src into dst (the same width). */
static inline void exo_ids_copy(exo_ids *dst, const exo_ids *src, uint64_t n) {
  if (src->a64)
    memcpy(dst->a64, src->a64, exo_ids_bytes(n, 1));
  else
    memcpy(dst->a32, src->a32, exo_ids_bytes(n, 0));
}

/* The n ids as a malloc'd u64 array (a wide array's own, a narrow one
 * widened into a new one and freed); a is left empty. NULL when out of
 * memory, and then a is unchanged. */
static inline uint64_t *exo_ids_take_u64(exo_ids *a, uint64_t n) {
  uint64_t *out = a->a64;
  if (!out) {
    const size_t bytes = exo_ids_bytes(n, 1);
    if (!bytes || !(out = (uint64_t *)malloc(bytes))) return NULL;
    const uint32_t *in = a->a32;
    for (uint64_t i = 0; i < n; i++) out[i] = in[i];
    free(a->a32);
  }
  a->a32 = NULL;
  a->a64 = NULL;
  return out;
}

#endif
