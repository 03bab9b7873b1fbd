/* exo_loser_tree.c: tournament tree of losers for k-way merging (see
 * exo_loser_tree.h).
 *
 * Layout: the tree is the implicit complete binary tree with 2k-1 nodes.
 * Internal nodes are 1..k-1 (children of p are 2p and 2p+1), leaves are the
 * positions k..2k-1, leaf k+i standing for source i. Only internal nodes are
 * stored: node[p] holds the loser of the match at p, node[0] the winner.
 * This works for any k >= 1, power of two or not: leaf depths differ by at
 * most one. Matches are decided by the total order (done, key, nbr, source
 * index), so the winner is always the least head and, among equal heads, the
 * lowest source index (stable merge). */
#include "exo_loser_tree.h"

#include <stdlib.h>

/* Contract: non-zero when source a's head must come out before source b's.
 * Exhausted sources lose against live ones; equal heads (and two exhausted
 * sources) are ordered by source index. */
static inline int lt_before(const exo_lt_key *h, uint32_t a, uint32_t b) {
  const exo_lt_key *x = &h[a], *y = &h[b];
  if (x->done || y->done) {
    if (!x->done) return 1;
    return y->done && a < b;
  }
  if (x->key != y->key) return x->key < y->key;
  if (x->nbr != y->nbr) return x->nbr < y->nbr;
  return a < b;
}

/* Contract: 1 <= k < 2^31; node[] and head[] get k entries; every head starts
 * exhausted so a partly filled tree is still consistent. */
int exo_lt_init(exo_loser_tree *t, uint32_t k) {
  t->k = 0;
  t->node = NULL;
  t->head = NULL;
  if (k == 0 || k > UINT32_MAX / 2) return -1; /* 2k must fit in 32 bits */
  t->node = calloc(k, sizeof *t->node);
  t->head = calloc(k, sizeof *t->head);
  if (!t->node || !t->head) {
    exo_lt_free(t);
    return -1;
  }
  for (uint32_t i = 0; i < k; i++) t->head[i].done = 1;
  t->k = k;
  return 0;
}

/* Play the subtree rooted at position p; store losers, return the winner.
 * Recursion depth is log2(k) + 1. */
static uint32_t lt_play(exo_loser_tree *t, uint32_t p) {
  if (p >= t->k) return p - t->k; /* a leaf */
  uint32_t a = lt_play(t, 2 * p);
  uint32_t b = lt_play(t, 2 * p + 1);
  if (lt_before(t->head, b, a)) {
    t->node[p] = a;
    return b;
  }
  t->node[p] = b;
  return a;
}

/* Contract: all k heads are set; afterwards node[0] is the least head. */
void exo_lt_build(exo_loser_tree *t) {
  if (t->k == 0) return;
  t->node[0] = t->k == 1 ? 0 : lt_play(t, 1);
}

/* Contract: only head[node[0]] changed since the last build or replay; one
 * leaf-to-root walk (about log2(k) matches) restores the tree. */
void exo_lt_replay(exo_loser_tree *t) {
  const uint32_t k = t->k;
  uint32_t *node = t->node;
  const exo_lt_key *h = t->head;
  uint32_t w = node[0];
  for (uint32_t p = (w + k) >> 1; p > 0; p >>= 1) {
    uint32_t l = node[p];
    if (lt_before(h, l, w)) { /* the stored loser now beats the climber */
      node[p] = w;
      w = l;
    }
  }
  node[0] = w;
}

/* Contract: releases the arrays; safe on a zeroed or freed tree. */
void exo_lt_free(exo_loser_tree *t) {
  free(t->node);
  free(t->head);
  t->node = NULL;
  t->head = NULL;
  t->k = 0;
}
