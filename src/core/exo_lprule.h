/* exo_lprule.h: the volume penalty of label propagation's winner rule
 * (exo_lp.h, "Volume penalty"), shared by the single-machine sweep
 * (exo_lp.c) and the distributed supersteps (exo_dist.c) so that the two
 * score labels with the same arithmetic.
 *
 * For a node v with d_v voting arcs of raw weight s_v in a graph of m
 * adjacency entries and a resolution gamma > 0 (modularity counted in arcs,
 * exo_quality.h: g' = gamma / m from exo_quality_gp):
 *   pen  = g' * d_v  (0 when there is no penalty),
 *   unit = s_v / d_v        (v's mean arc weight),
 * and a label holding vol arcs (v's own left out when it is v's current
 * label) scores its sum minus the arcs it would hold by chance, rounded to
 * the nearest whole arc, each worth `unit`. Header only: the functions are
 * inlined in the hot loops. */
#ifndef EXO_LPRULE_H
#define EXO_LPRULE_H

#include <math.h>
#include <stdint.h>

#include "exo_quality.h"
#include "exo_rng.h"
#include "exo_tally.h"

/* The number of v's arcs a label of volume `vol` arcs would hold by
 * chance, rounded to the nearest integer. */
static inline double exo_lp_chance_arcs(double pen, uint64_t vol) {
  /* g' d_v vol (exo_quality_expected, pen = g' d_v), to a whole arc */
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

/* The winner among the eligible labels of tally `t` with a positive sum,
 * for a node of current label `cur` and `deg` adjacency entries: the
 * largest score (the sum, or exo_lp_score when `vol` is given: the labels'
 * volumes in arcs, `cur`'s counted without v's own arcs), ties broken by a
 * uniform pick (reservoir sampling: one draw from `rng` per further tie).
 * `ties` = 0 when no label qualifies; `cur_best`: `cur` is among the best;
 * `cur_held`: `cur` was scored (then staying needs no extra candidate). The
 * one rule of exo_lp.c's sweep and exo_dist.c's supersteps. */
typedef struct exo_lp_choice {
  double best;
  uint64_t win, ties;
  uint32_t win_dist;
  int cur_best, cur_held;
} exo_lp_choice;

static inline exo_lp_choice exo_lp_choose(const exo_tally *t, uint64_t cur, uint64_t deg,
                                          const uint64_t *vol, double pen, double unit,
                                          exo_rng *rng) {
  exo_lp_choice c = {0.0, cur, 0, 0, 0, 0};
  for (size_t i = 0; i < t->count; i++) {
    const exo_tally_slot *e = &t->slots[t->touched[i]];
    if (!e->eligible || !(e->sum > 0.0)) continue;
    double score = e->sum;
    if (vol) {
      uint64_t vl = vol[e->label];
      if (e->label == cur) {
        vl -= deg;
        c.cur_held = 1;
      }
      score = exo_lp_score(e->sum, pen, unit, vl);
    }
    if (c.ties == 0 || score > c.best) {
      c.best = score;
      c.win = e->label;
      c.win_dist = e->dist;
      c.ties = 1;
      c.cur_best = e->label == cur;
    } else if (score == c.best) {
      c.ties++;
      if (e->label == cur) c.cur_best = 1;
      if (exo_rng_below(rng, c.ties) == 0) {
        c.win = e->label;
        c.win_dist = e->dist;
      }
    }
  }
  return c;
}

/* The whole winner rule of one visit (exo_lp.h), after the votes of node
 * v are in `t`: `nvote` voting arcs of raw weight `strength`, current
 * label `cur`, `deg` adjacency entries, `visits` visits so far (this one
 * included). The choice (exo_lp_choose) with pen = gamma_m * nvote when
 * `vol` is given; v keeps `cur` when no label qualifies, the winner is
 * `cur`, `cur` is among the best after tie_visits visits, or (with `vol`)
 * the winner does not beat staying. 1 when v moves to c->win. Label
 * propagation's sweep (exo_lp.c) and the distributed supersteps
 * (exo_dist.c) call it; the volumes' update is theirs. */
static inline int exo_lp_decide(const exo_tally *t, uint64_t cur, uint64_t deg,
                                const uint64_t *vol, double gamma_m, uint64_t nvote,
                                double strength, uint32_t visits, uint32_t tie_visits,
                                exo_rng *rng, exo_lp_choice *c) {
  const double pen = vol ? gamma_m * (double)nvote : 0.0;
  const double unit = nvote ? strength / (double)nvote : 0.0;
  *c = exo_lp_choose(t, cur, deg, vol, pen, unit, rng);
  if (c->ties == 0 || c->win == cur || (c->cur_best && visits > tie_visits)) return 0;
  /* staying is one more candidate when no scored vote holds cur */
  return !vol || c->cur_held || exo_lp_beats_staying(c->best, pen, unit, vol[c->win], vol[cur] - deg);
}

#endif
