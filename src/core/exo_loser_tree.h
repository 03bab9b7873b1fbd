/* exo_loser_tree.h: a tournament tree that stores losers, for k-way merging.
 *
 * The tree holds k leaves (sources). Internal node i (1..k-1) stores the index
 * of the source that lost the match played there; node 0 stores the overall
 * winner. After the caller replaces the winner's head (or marks the source
 * exhausted), exo_lt_replay() walks one leaf-to-root path: log2(k) compares.
 * Ties go to the lower source index, so merging runs in creation order is
 * stable. Keys are (key, nbr) pairs of uint64; an exhausted source compares
 * greater than everything. */
#ifndef EXO_LOSER_TREE_H
#define EXO_LOSER_TREE_H

#include <stddef.h>
#include <stdint.h>

typedef struct exo_lt_key {
  uint64_t key, nbr;
  int done; /* source exhausted */
} exo_lt_key;

typedef struct exo_loser_tree {
  uint32_t k;
  uint32_t *node;   /* k entries: node[0] = winner, node[1..k-1] = losers */
  exo_lt_key *head; /* k entries: current head of each source */
} exo_loser_tree;

/* Allocate for k >= 1 sources; returns 0 on success, -1 on ENOMEM. */
int exo_lt_init(exo_loser_tree *t, uint32_t k);
/* After every head[] is set, play all matches. */
void exo_lt_build(exo_loser_tree *t);
static inline uint32_t exo_lt_winner(const exo_loser_tree *t) { return t->node[0]; }
/* After head[winner] changed, restore the invariant. */
void exo_lt_replay(exo_loser_tree *t);
void exo_lt_free(exo_loser_tree *t);

#endif
