/* exo_tally.c: the label tally's allocation and growth (exo_tally.h). */
#include "exo_tally.h"

int exo_tally_alloc(exo_tally *t, size_t cap) {
  exo_tally_slot *s = malloc(cap * sizeof *s);
  size_t *tl = malloc((cap / 2) * sizeof *tl);
  if (!s || !tl) {
    free(s);
    free(tl);
    return -1;
  }
  for (size_t i = 0; i < cap; i++) s[i].label = EXO_TALLY_EMPTY;
  unsigned bits = 0;
  while (((size_t)1 << bits) < cap) bits++;
  t->slots = s;
  t->touched = tl;
  t->cap = cap;
  t->shift = 64u - bits;
  t->count = 0;
  t->last = NULL;
  return 0;
}

int exo_tally_alloc_for(exo_tally *t, uint64_t entries) {
  size_t cap = 16;
  while ((uint64_t)cap < 2 * entries + 2) cap *= 2;
  return exo_tally_alloc(t, cap);
}

void exo_tally_free(exo_tally *t) {
  free(t->slots);
  free(t->touched);
  t->slots = NULL;
  t->touched = NULL;
}

/* Double the table, keeping the entries and their insertion order. */
int exo_tally_grow(exo_tally *t) {
  exo_tally old = *t;
  if (old.cap > SIZE_MAX / 2 / sizeof(exo_tally_slot) || exo_tally_alloc(t, old.cap * 2) != 0) {
    *t = old;
    return -1;
  }
  for (size_t i = 0; i < old.count; i++) {
    const exo_tally_slot *e = &old.slots[old.touched[i]];
    size_t h = exo_tally_hash(t, e->label);
    while (t->slots[h].label != EXO_TALLY_EMPTY) h = (h + 1) & (t->cap - 1);
    t->slots[h] = *e;
    t->touched[t->count++] = h;
  }
  exo_tally_free(&old);
  return 0;
}
