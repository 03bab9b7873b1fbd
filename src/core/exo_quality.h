/* exo_quality.h: the one quality function of every clustering rule.
 *
 * Each rule scores moving a unit A (a node, or a cluster) into a group B
 * by the weight x between them less what the objective expects between
 * them by chance:
 *
 *     gain(x, a, b) = x - g' a b
 *
 * a and b are A's and B's sizes in the objective's terms and g' comes from
 * `resolution` (gamma) once, by the objective:
 *
 *   objective    sizes a, b                  g'
 *   modularity   volumes (weighted degrees)  gamma / T, T = the total volume
 *   CPM          node weights (node counts)  gamma
 *
 * so `resolution` means one thing per objective, whichever rule applies it:
 *   - Leiden's local moving, refinement and well-connectedness tests
 *     (exo_leiden_move.c, exo_leiden_refine.c): modularity or CPM, g' as
 *     above on the level's node weights;
 *   - label propagation's volume penalty (exo_lprule.h): modularity counted
 *     in arcs: a = the node's arcs d_v, b = the label's arcs, T = the arcs
 *     m, each expected arc worth the node's mean arc weight and rounded to
 *     a whole arc (gamma = 0: no penalty, plain label propagation);
 *   - the merge passes after label propagation (exo_refine.c):
 *     modularity on cluster volumes, a merge only while it gains.
 *
 * Header only, inlined in the hot loops; the arithmetic is written in one
 * order (g' a, then times b) so that every rule rounds the same way. */
#ifndef EXO_QUALITY_H
#define EXO_QUALITY_H

enum { EXO_QUALITY_MODULARITY = 0, EXO_QUALITY_CPM = 1 };

/* g' of an objective for a resolution gamma and a total volume (used by
 * modularity; <= 0: g' = 0, no penalty). */
static inline double exo_quality_gp(int objective, double gamma, double total) {
  if (objective == EXO_QUALITY_CPM) return gamma;
  return total > 0.0 ? gamma / total : 0.0;
}

/* What the objective expects between sizes a and b by chance: g' a b. */
static inline double exo_quality_expected(double gp, double a, double b) { return gp * a * b; }

/* The gain of A (size a) joining B (size b) with weight x between them. */
static inline double exo_quality_gain(double x, double gp, double a, double b) {
  return x - gp * a * b;
}

#endif
