/* exo_lprule.h: the volume penalty of label propagation's winner rule
 * (exo_lp.h, "Volume penalty"), shared by the single-machine sweep
 * (exo_lp.c) and the distributed supersteps (exo_dist.c) so that the two
 * score labels with the same arithmetic.
 *
 * For a node v with d_v voting arcs of raw weight s_v in a graph of m
 * adjacency entries and a resolution gamma > 0:
 *   pen  = gamma * d_v / m  (0 when there is no penalty),
 *   unit = s_v / d_v        (v's mean arc weight),
 * and a label holding vol arcs (v's own left out when it is v's current
 * label) scores its sum minus the arcs it would hold by chance, rounded to
 * the nearest whole arc, each worth `unit`. Header only: the functions are
 * inlined in the hot loops. */
#ifndef EXO_LPRULE_H
#define EXO_LPRULE_H

#include <math.h>
#include <stdint.h>

/* The number of v's arcs a label of volume `vol` arcs would hold by
 * chance, rounded to the nearest integer. */
static inline double exo_lp_chance_arcs(double pen, uint64_t vol) {
  return floor(pen * (double)vol + 0.5);
}

/* The penalised score of a label whose eligible votes sum to `sum`. */
static inline double exo_lp_score(double sum, double pen, double unit, uint64_t vol) {
  return sum - exo_lp_chance_arcs(pen, vol) * unit;
}

/* When v's current label holds none of its scored votes, staying is one
 * more candidate, scoring -chance(vol_cur) * unit (vol_cur: the current
 * label's volume without v's arcs). 1 when the winner (score `best`,
 * volume vol_win) beats staying: it scores more, or the same and its
 * unrounded score (the modularity gain) beats staying's unrounded one. */
static inline int exo_lp_beats_staying(double best, double pen, double unit, uint64_t vol_win,
                                       uint64_t vol_cur) {
  double stay = -exo_lp_chance_arcs(pen, vol_cur) * unit;
  if (best < stay) return 0;
  if (best == stay &&
      !(best + (exo_lp_chance_arcs(pen, vol_win) - pen * (double)vol_win) * unit >
        -pen * (double)vol_cur * unit))
    return 0;
  return 1;
}

#endif
