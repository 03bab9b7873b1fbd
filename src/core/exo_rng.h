/* exo_rng.h: a small seeded pseudo-random generator (xoshiro256** family,
 * written from its published description) so that runs are reproducible
 * from a 64-bit seed and no global RNG state is used. */
#ifndef EXO_RNG_H
#define EXO_RNG_H

#include <stdint.h>

typedef struct exo_rng {
  uint64_t s[4];
} exo_rng;

void exo_rng_seed(exo_rng *rng, uint64_t seed);
uint64_t exo_rng_next(exo_rng *rng);
/* Uniform integer in [0, bound), bound > 0, without modulo bias. */
uint64_t exo_rng_below(exo_rng *rng, uint64_t bound);

#endif
