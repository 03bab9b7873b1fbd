/* exo_rng.c: see exo_rng.h. */
#include "exo_rng.h"

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* splitmix64 step, used only to expand the seed into the state */
static uint64_t expand(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void exo_rng_seed(exo_rng *rng, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) rng->s[i] = expand(&x);
}

uint64_t exo_rng_next(exo_rng *rng) {
  uint64_t *s = rng->s;
  uint64_t out = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return out;
}

uint64_t exo_rng_below(exo_rng *rng, uint64_t bound) {
  /* rejection sampling on the top of the range */
  uint64_t limit = UINT64_MAX - (UINT64_MAX % bound);
  uint64_t x;
  do x = exo_rng_next(rng);
  while (x >= limit);
  return x % bound;
}
