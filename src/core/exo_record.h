/* exo_record.h: the binary formats shared by the sort, the CSR and label
 * propagation.
 *
 * Node ids are dense, 0-based, assigned in order of first appearance. They
 * are 64-bit in memory. On disk they are "narrow" (uint32) while every id
 * fits in 32 bits and "wide" (uint64) otherwise; a flag says which, and the
 * pipeline can force wide ids for testing.
 *
 * Arc record (sort runs), native byte order, packed, no padding:
 *   narrow: key u32 | nbr u32 | w f32   = 12 bytes
 *   wide:   key u64 | nbr u64 | w f32   = 20 bytes
 * `key` is the node whose adjacency list holds the arc, `nbr` the other end.
 * Runs are sorted by (key, nbr); equal pairs keep input order (stable).
 *
 * Arc sign convention: undirected edge {a,b,w} -> (a,b,w) and (b,a,w).
 * Directed edge a->b,w -> (b,a,+w): an in-arc of b, whose labels b adopts,
 * and (a,b,-w): an out-arc of a, telling a whom to re-queue. Only edges with
 * w > 0 are stored, so the sign is an unambiguous flag.
 *
 * CSR (written by the final merge, read by label propagation):
 *   offsets file: (n + 1) x u64, offsets[v] = index of v's first entry
 *   adjacency file: m entries in key order, each
 *     narrow: nbr u32 | w f32  = 8 bytes
 *     wide:   nbr u64 | w f32  = 12 bytes
 */
#ifndef EXO_RECORD_H
#define EXO_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define EXO_NARROW_ID_LIMIT ((uint64_t)UINT32_MAX + 1) /* ids < this fit narrow */

typedef struct exo_arc {
  uint64_t key;
  uint64_t nbr;
  float w;
} exo_arc;

static inline size_t exo_rec_size(int wide) { return wide ? 20 : 12; }
static inline size_t exo_adj_size(int wide) { return wide ? 12 : 8; }

static inline void exo_rec_encode(uint8_t *p, int wide, uint64_t key, uint64_t nbr,
                                  float w) {
  if (wide) {
    memcpy(p, &key, 8);
    memcpy(p + 8, &nbr, 8);
    memcpy(p + 16, &w, 4);
  } else {
    uint32_t k = (uint32_t)key, n = (uint32_t)nbr;
    memcpy(p, &k, 4);
    memcpy(p + 4, &n, 4);
    memcpy(p + 8, &w, 4);
  }
}

static inline void exo_rec_decode(const uint8_t *p, int wide, exo_arc *a) {
  if (wide) {
    memcpy(&a->key, p, 8);
    memcpy(&a->nbr, p + 8, 8);
    memcpy(&a->w, p + 16, 4);
  } else {
    uint32_t k, n;
    memcpy(&k, p, 4);
    memcpy(&n, p + 4, 4);
    memcpy(&a->w, p + 8, 4);
    a->key = k;
    a->nbr = n;
  }
}

static inline void exo_adj_encode(uint8_t *p, int wide, uint64_t nbr, float w) {
  if (wide) {
    memcpy(p, &nbr, 8);
    memcpy(p + 8, &w, 4);
  } else {
    uint32_t n = (uint32_t)nbr;
    memcpy(p, &n, 4);
    memcpy(p + 4, &w, 4);
  }
}

static inline void exo_adj_decode(const uint8_t *p, int wide, uint64_t *nbr, float *w) {
  if (wide) {
    memcpy(nbr, p, 8);
    memcpy(w, p + 8, 4);
  } else {
    uint32_t n;
    memcpy(&n, p, 4);
    *nbr = n;
    memcpy(w, p + 4, 4);
  }
}

#endif
