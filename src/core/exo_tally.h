/* exo_tally.h: the label tally of one node visit, shared by label
 * propagation's sweep (exo_lp.c) and the distributed supersteps
 * (exo_dist.c): the sum of the votes per label, the smallest hop distance
 * among a label's arcs (attenuation) and whether some arc of the label
 * passes the self-loop cutoff.
 *
 * An open-addressing table with linear probing (multiply-shift hash of the
 * label), at most half full, doubled when needed; the occupied slots are
 * listed in insertion order (touched), which is the order the winner rule
 * reads the labels in, so the seeded tie-breaking does not depend on the
 * table's size or hash. Clearing touches only the slots in use. The last
 * slot voted for is kept, as neighbours mostly share a label. Memory:
 * 24 bytes per slot + 8 per half slot; the table keeps its largest size.
 * The add, get, clear and hash are inline (the hot loops), the rest in
 * exo_tally.c. Leiden (exo_leiden_*.c) keeps its gains here too: the sums
 * alone (exo_tally_add_sum, exo_tally_get) in a table sized never to grow
 * (exo_tally_alloc_for). It is the core's shared map, beside the id arrays
 * (exo_ids.h) and bitmaps (exo_bits.h); exo_refine.c's bounded pair table
 * is the one map of its own, its reasons stated there. */
#ifndef EXO_TALLY_H
#define EXO_TALLY_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define EXO_TALLY_EMPTY UINT64_MAX /* labels are node ids, always < 2^61 */

typedef struct exo_tally_slot {
  uint64_t label;
  double sum;        /* attenuated weight of the label's arcs */
  uint32_t dist;     /* smallest hop distance among the label's arcs */
  uint32_t eligible; /* some arc has raw |w| >= self_loop_cutoff */
} exo_tally_slot;

typedef struct exo_tally {
  exo_tally_slot *slots;
  size_t *touched; /* indices of occupied slots, in insertion order */
  size_t cap;      /* power of two */
  unsigned shift;  /* 64 - log2(cap) */
  size_t count;
  exo_tally_slot *last; /* the slot of the last vote (NULL: none); neighbours
                       mostly share a label, so most votes find it here */
} exo_tally;

/* A table of `cap` slots (a power of two); 0, or -1 out of memory (t
 * unchanged). */
int exo_tally_alloc(exo_tally *t, size_t cap);
/* A table that holds `entries` labels without growing (at least 16 slots,
 * and at least 2 * entries + 2): Leiden's gain tallies, sized from the
 * largest degree, whose exo_tally_add_sum then never fails. */
int exo_tally_alloc_for(exo_tally *t, uint64_t entries);
void exo_tally_free(exo_tally *t);
/* Double the table, keeping the entries and their insertion order; -1 out
 * of memory (t unchanged). Out of line: the inlined add stays small. */
int exo_tally_grow(exo_tally *t);

static inline size_t exo_tally_hash(const exo_tally *t, uint64_t label) {
  return (size_t)((label * 0x9E3779B97F4A7C15ULL) >> t->shift);
}

/* Clear only the slots in use. */
static inline void exo_tally_clear(exo_tally *t) {
  for (size_t i = 0; i < t->count; i++) t->slots[t->touched[i]].label = EXO_TALLY_EMPTY;
  t->count = 0;
  t->last = NULL;
}

/* Add one arc's vote. Returns -1 when the table cannot grow. */
static inline int exo_tally_add(exo_tally *t, uint64_t label, double w, uint32_t dist,
                                int eligible) {
  exo_tally_slot *e = t->last;
  if (e && e->label == label) {
    e->sum += w;
    if (dist < e->dist) e->dist = dist;
    e->eligible |= (uint32_t)eligible;
    return 0;
  }
  size_t mask = t->cap - 1;
  size_t h = exo_tally_hash(t, label);
  for (;;) {
    e = &t->slots[h];
    if (e->label == label) {
      e->sum += w;
      if (dist < e->dist) e->dist = dist;
      e->eligible |= (uint32_t)eligible;
      t->last = e;
      return 0;
    }
    if (e->label == EXO_TALLY_EMPTY) break;
    h = (h + 1) & mask;
  }
  if (t->count + 1 > t->cap / 2) { /* keep the load at most 1/2 */
    if (exo_tally_grow(t) != 0) return -1;
    return exo_tally_add(t, label, w, dist, eligible);
  }
  e = &t->slots[h];
  e->label = label;
  e->sum = w;
  e->dist = dist;
  e->eligible = (uint32_t)eligible;
  t->touched[t->count++] = h;
  t->last = e;
  return 0;
}

/* exo_tally_add(t, label, w, 0, 1) for callers with no hop distances and
 * no cutoff (the distributed supersteps, Leiden's gains): the sum alone is
 * updated. */
static inline int exo_tally_add_sum(exo_tally *t, uint64_t label, double w) {
  exo_tally_slot *e = t->last;
  if (e && e->label == label) {
    e->sum += w;
    return 0;
  }
  size_t mask = t->cap - 1;
  size_t h = exo_tally_hash(t, label);
  for (;;) {
    e = &t->slots[h];
    if (e->label == label) {
      e->sum += w;
      t->last = e;
      return 0;
    }
    if (e->label == EXO_TALLY_EMPTY) break;
    h = (h + 1) & mask;
  }
  if (t->count + 1 > t->cap / 2) return exo_tally_add(t, label, w, 0, 1);
  e = &t->slots[h];
  e->label = label;
  e->sum = w;
  e->dist = 0;
  e->eligible = 1;
  t->touched[t->count++] = h;
  t->last = e;
  return 0;
}

/* The sum of `label`'s votes, 0 when it has none. */
static inline double exo_tally_get(const exo_tally *t, uint64_t label) {
  size_t h = exo_tally_hash(t, label), mask = t->cap - 1;
  for (;;) {
    const exo_tally_slot *e = &t->slots[h];
    if (e->label == label) return e->sum;
    if (e->label == EXO_TALLY_EMPTY) return 0.0;
    h = (h + 1) & mask;
  }
}

#endif
