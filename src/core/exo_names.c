/* exo_names.c: node names to dense ids (see exo_names.h).
 *
 * Each name is hashed to 128 bits by name_hash128() below. The table stores
 * no name bytes, only an 88-bit fingerprint and the id:
 *   slot.fp  = the first 64-bit hash lane (its low bits also pick the bucket)
 *   slot.tag = top 24 bits of the second lane << 40 | (id + 1)
 * so tag == 0 marks an empty slot. Open addressing with linear probing over a
 * power-of-two number of slots, doubled when more than 70% full. New names
 * are appended to the names file as "<name>\n" in id order.
 *
 * Concurrent readers (exo_names.h, exo_names_pin): the one inserting thread
 * writes a slot's fp first and then its tag with a release store; a reader
 * loads the tag with acquire, so a non-zero tag comes with its fp, and a slot
 * once filled never changes in that array. A doubling fills a new array and
 * publishes it (a `view`) with one store of the `pub` pointer; the old view
 * goes on the retired list. Each reader announces the view it reads in its
 * hazard slot (pin: load pub, store it as the hazard, load pub again until
 * both agree; all sequentially consistent), and a retired view is freed
 * only when no hazard names it (exo_names_reclaim, or the doubling after
 * it, or exo_names_readers_end). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_names.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "exo_io.h"

#define NAMES_INITIAL_SLOTS ((size_t)EXO_NAMES_INITIAL_SLOTS) /* exo_names.h */
#define HUGE_MIN ((size_t)4 << 20)   /* tables this big use huge pages */
#define HUGE_ALIGN ((size_t)2 << 20)
#define ID_BITS 40
#define ID_MASK ((((uint64_t)1) << ID_BITS) - 1)
#define HI_MASK (~ID_MASK)

typedef struct slot {
  uint64_t fp;  /* hash lane 1 */
  uint64_t tag; /* lane 2 top 24 bits | (id + 1); written with release
                   stores, read by readers with acquire loads */
} slot;
_Static_assert(sizeof(slot) == EXO_NAMES_SLOT_BYTES, "exo_names.h states the slot size");

/* One slot array as the readers see it. */
struct exo_names_view {
  slot *slots;
  size_t cap, mask;
  struct exo_names_view *next; /* retired list */
};
typedef struct exo_names_view view;

struct exo_names {
  slot *slots;
  size_t cap;      /* power of two, 0 after finish */
  size_t mask;
  view *cur;                 /* the view of `slots` (NULL without readers) */
  _Atomic(view *) pub;       /* what readers pin: cur */
  _Atomic(view *) *hazard;   /* per reader: the view it reads, or NULL */
  unsigned nreaders;
  view *retired;             /* old arrays some reader may still read */
  size_t retired_bytes;
  uint64_t grow_at; /* grow before count exceeds this */
  uint64_t count;
  int finished;
  exo_writer out;
  exo_names_grow_fn on_grow; /* optional budget hook */
  void *on_grow_user;
};

/* ---- 128-bit name hash --------------------------------------------------
 * Two 64-bit lanes fed from the same words but with different constants and
 * pairings; each step multiplies two 64-bit values to 128 bits and folds the
 * halves together (xor). Names of up to 16 bytes become two (overlapping)
 * words; longer names are taken 16 bytes at a time, the last block ending at
 * the last byte. The length seeds both lanes, so the word extraction needs to
 * be injective only for a given length. A final xorshift-multiply avalanche
 * spreads every input bit over each output lane. Constants are arbitrary odd
 * 64-bit numbers with about half their bits set. */
#define HC_A0 0xb601ab189a7ef00fULL
#define HC_A1 0x15c23bf924a8f631ULL
#define HC_B0 0xac074e8cac9dbb9dULL
#define HC_B1 0x47b4fd9f9a8dca07ULL
#define HC_L0 0x5ad80d102fa8b6a7ULL
#define HC_L1 0x56bda4a3cb1b648fULL
#define HC_F0 0xc7cc3db02db9aa01ULL
#define HC_F1 0xe08bfe7b15206d97ULL
#define HC_F2 0x64484d40362dbe53ULL
#define HC_F3 0x594bcec34f403bfdULL

/* 64x64 -> 128 bit product, halves xored together. */
static inline uint64_t mulfold(uint64_t a, uint64_t b) {
#if defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 u128;
  u128 p = (u128)a * b;
  return (uint64_t)p ^ (uint64_t)(p >> 64);
#else
  uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
  uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  uint64_t lo = (ll & 0xffffffffu) | (mid << 32);
  uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
  return lo ^ hi;
#endif
}

/* Unaligned native-endian loads (the hash never leaves this process). */
static inline uint64_t load64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

static inline uint64_t load32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* Bijective xorshift-multiply finaliser. */
static inline uint64_t avalanche(uint64_t x, uint64_t c0, uint64_t c1) {
  x ^= x >> 31;
  x *= c0;
  x ^= x >> 29;
  x *= c1;
  x ^= x >> 32;
  return x;
}

/* Hash [p, p+len) to two 64-bit lanes *h1, *h2. */
static inline void name_hash128(const uint8_t *p, size_t len, uint64_t *h1,
                                uint64_t *h2) {
  uint64_t a = HC_L0 ^ ((uint64_t)len * HC_F0);
  uint64_t b = HC_L1 + ((uint64_t)len * HC_F2);
  uint64_t w0, w1;
  if (len <= 16) {
    if (len >= 8) {
      w0 = load64(p);
      w1 = load64(p + len - 8);
    } else if (len >= 4) {
      w0 = load32(p);
      w1 = load32(p + len - 4);
    } else if (len > 0) {
      w0 = ((uint64_t)p[0] << 16) | ((uint64_t)p[len >> 1] << 8) | p[len - 1];
      w1 = 0;
    } else {
      w0 = w1 = 0;
    }
  } else {
    size_t n = len;
    while (n > 16) {
      w0 = load64(p);
      w1 = load64(p + 8);
      a = mulfold(a ^ w0 ^ HC_A0, w1 ^ HC_A1);
      b = mulfold(b ^ w1 ^ HC_B0, w0 ^ HC_B1);
      p += 16;
      n -= 16;
    }
    /* last block: the final 16 bytes of the name (may overlap) */
    w0 = load64(p + n - 16);
    w1 = load64(p + n - 8);
  }
  a = mulfold(a ^ w0 ^ HC_A0, w1 ^ HC_A1);
  b = mulfold(b ^ w1 ^ HC_B0, w0 ^ HC_B1);
  *h1 = avalanche(a ^ (uint64_t)len, HC_F0, HC_F1);
  *h2 = avalanche(b + (uint64_t)len, HC_F2, HC_F3);
}

/* ---- table --------------------------------------------------------------- */

/* Allocate a zeroed table of `cap` slots (power of two). Tables of 4 MiB
 * and more are their own 2 MiB-aligned mappings (so their memory goes back
 * to the system when the table doubles) advised to use transparent huge
 * pages: the lookups are random, and with 4 KiB pages nearly each one also
 * misses the TLB. Freed with free_slots(). */
static slot *alloc_slots(size_t cap) {
  if (cap > SIZE_MAX / sizeof(slot)) return NULL;
  size_t bytes = cap * sizeof(slot);
  if (bytes < HUGE_MIN) return calloc(cap, sizeof(slot));
  void *p = exo_big_alloc_aligned(bytes, HUGE_ALIGN); /* a zeroed mapping */
  exo_advise_huge(p, bytes);
  return p;
}

static void free_slots(slot *s, size_t cap) {
  size_t bytes = cap * sizeof(slot);
  if (bytes < HUGE_MIN) free(s);
  else exo_big_free(s, bytes);
}

static inline uint64_t tag_acquire(const slot *s) {
  return __atomic_load_n(&s->tag, __ATOMIC_ACQUIRE);
}

static inline void tag_publish(slot *s, uint64_t tag) {
  __atomic_store_n(&s->tag, tag, __ATOMIC_RELEASE);
}

/* Free the retired views no reader names any more; the growth hook then
 * hears the bytes left. */
static exo_status reclaim(exo_names *t, exo_ctx *ctx) {
  if (!t->retired) return EXO_OK;
  view **pp = &t->retired;
  while (*pp) {
    view *v = *pp;
    int held = 0;
    for (unsigned r = 0; r < t->nreaders && !held; r++)
      held = atomic_load(&t->hazard[r]) == v;
    if (held) {
      pp = &v->next;
      continue;
    }
    *pp = v->next;
    t->retired_bytes -= v->cap * sizeof(slot);
    free_slots(v->slots, v->cap);
    free(v);
  }
  if (t->retired || !t->on_grow) return EXO_OK;
  return t->on_grow(t->on_grow_user, t->cap * sizeof(slot), ctx);
}

/* Install `s` as the slot array of `cap` slots and set the growth mark. */
static void set_capacity(exo_names *t, slot *s, size_t cap) {
  t->slots = s;
  t->cap = cap;
  t->mask = cap - 1;
  t->grow_at = (uint64_t)cap / 10 * 7 + (uint64_t)(cap % 10) * 7 / 10;
}

/* Double the table, reinserting every slot by its stored fingerprint. */
static exo_status grow(exo_names *t, exo_ctx *ctx) {
  if (t->cap > SIZE_MAX / 2)
    return EXO_FAIL(ctx, EXO_ENOMEM, "name table cannot grow beyond %zu slots", t->cap);
  size_t ncap = t->cap * 2;
  const size_t old_bytes = t->cap * sizeof(slot) + t->retired_bytes,
               new_bytes = ncap * sizeof(slot);
  if (t->on_grow) { /* both tables live while the slots are copied */
    exo_status st = t->on_grow(t->on_grow_user, old_bytes + new_bytes, ctx);
    if (st) return st;
  }
  slot *ns = alloc_slots(ncap);
  view *nv = t->cur ? malloc(sizeof *nv) : NULL;
  if (!ns || (t->cur && !nv)) {
    if (ns) free_slots(ns, ncap);
    free(nv);
    return EXO_FAIL(ctx, EXO_ENOMEM,
                    "out of memory growing the name table to %zu slots (%zu MiB)", ncap,
                    ncap * sizeof(slot) >> 20);
  }
  size_t nmask = ncap - 1;
  for (size_t i = 0; i < t->cap; i++) {
    slot s = t->slots[i];
    if (s.tag == 0) continue;
    size_t j = (size_t)s.fp & nmask;
    while (ns[j].tag != 0) j = (j + 1) & nmask;
    ns[j] = s;
  }
  if (t->cur) { /* readers: publish the new array, retire the old one */
    nv->slots = ns;
    nv->cap = ncap;
    nv->mask = nmask;
    nv->next = NULL;
    view *old = t->cur;
    t->cur = nv;
    atomic_store(&t->pub, nv);
    old->next = t->retired;
    t->retired = old;
    t->retired_bytes += old->cap * sizeof(slot);
    set_capacity(t, ns, ncap);
    return reclaim(t, ctx);
  }
  free_slots(t->slots, t->cap);
  set_capacity(t, ns, ncap);
  return t->on_grow ? t->on_grow(t->on_grow_user, new_bytes, ctx) : EXO_OK;
}

/* Contract (exo_names.h): register the growth hook. */
void exo_names_on_grow(exo_names *t, exo_names_grow_fn fn, void *user) {
  t->on_grow = fn;
  t->on_grow_user = user;
}

/* Create an empty table and open the names file. */
exo_status exo_names_create(exo_names **out, const char *names_path, exo_ctx *ctx) {
  *out = NULL;
  exo_names *t = calloc(1, sizeof *t);
  if (!t) return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory creating the name table");
  t->out.fd = -1;
  slot *s = alloc_slots(NAMES_INITIAL_SLOTS);
  if (!s) {
    free(t);
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory creating the name table");
  }
  set_capacity(t, s, NAMES_INITIAL_SLOTS);
  exo_status st = exo_writer_open(&t->out, names_path, EXO_IO_DEFAULT_BUF, ctx);
  if (st) {
    free_slots(t->slots, t->cap);
    free(t);
    return st;
  }
  *out = t;
  return EXO_OK;
}

/* Append "<name>\n" to the names file. */
static exo_status write_name(exo_names *t, const uint8_t *name, size_t len, exo_ctx *ctx) {
  exo_writer *w = &t->out;
  if (len < w->cap) {
    uint8_t *dst = exo_writer_reserve(w, len + 1, ctx);
    if (!dst) return ctx->err.code ? ctx->err.code : EXO_EIO;
    memcpy(dst, name, len);
    dst[len] = '\n';
    exo_writer_commit(w, len + 1);
    return EXO_OK;
  }
  exo_status s = exo_writer_write(w, name, len, ctx);
  if (s) return s;
  return exo_writer_write(w, "\n", 1, ctx);
}

/* Public form of the hash (see exo_names.h). */
exo_name_hash exo_names_hash(const uint8_t *name, size_t len) {
  exo_name_hash h;
  name_hash128(name, len, &h.h1, &h.h2);
  return h;
}

/* Prefetch the first slot a lookup of h reads (a hint; never faults). */
void exo_names_prefetch(const exo_names *t, exo_name_hash h) {
  if (t->slots) EXO_PREFETCH(&t->slots[(size_t)h.h1 & t->mask]);
}

/* Look the name up by its hash; on a miss give it id `count`, write it to the
 * names file and insert it (growing the table first when it would pass 70%). */
exo_status exo_names_intern_hashed(exo_names *t, const uint8_t *name, size_t len,
                                   exo_name_hash h, uint64_t *id, exo_ctx *ctx) {
  if (t->finished)
    return EXO_FAIL(ctx, EXO_EINTERNAL, "name table used after exo_names_finish");
  const uint64_t h1 = h.h1;
  const uint64_t hi = h.h2 & HI_MASK;
  slot *s = t->slots;
  size_t mask = t->mask;
  size_t i = (size_t)h1 & mask;
  for (;;) {
    uint64_t tag = s[i].tag;
    if (tag == 0) break;
    if (s[i].fp == h1 && (tag & HI_MASK) == hi) {
      *id = (tag & ID_MASK) - 1;
      return EXO_OK;
    }
    i = (i + 1) & mask;
  }
  /* new name */
  if (t->count >= EXO_NAMES_MAX_NODES)
    return EXO_FAIL(ctx, EXO_ELIMIT, "more than %llu distinct node names",
                    (unsigned long long)EXO_NAMES_MAX_NODES);
  if (t->count + 1 > t->grow_at) {
    exo_status st = grow(t, ctx);
    if (st) return st;
    s = t->slots;
    mask = t->mask;
    i = (size_t)h1 & mask;
    while (s[i].tag != 0) i = (i + 1) & mask;
  }
  exo_status st = write_name(t, name, len, ctx);
  if (st) return st;
  uint64_t nid = t->count++;
  s[i].fp = h1;
  tag_publish(&s[i], hi | (nid + 1));
  *id = nid;
  return EXO_OK;
}

/* Id of `name`, assigning the next one if it is new. */
exo_status exo_names_intern(exo_names *t, const uint8_t *name, size_t len,
                            uint64_t *id, exo_ctx *ctx) {
  exo_name_hash h;
  name_hash128(name, len, &h.h1, &h.h2);
  return exo_names_intern_hashed(t, name, len, h, id, ctx);
}

/* Distinct names seen so far (stays valid after finish). */
uint64_t exo_names_count(const exo_names *t) { return t->count; }

/* Slot memory currently allocated (0 after finish), retired arrays included. */
size_t exo_names_table_bytes(const exo_names *t) {
  return t->cap * sizeof(slot) + t->retired_bytes;
}

/* ---- concurrent readers ---------------------------------------------------- */

/* Contract (exo_names.h). */
exo_status exo_names_readers_begin(exo_names *t, unsigned n, exo_ctx *ctx) {
  if (t->finished)
    return EXO_FAIL(ctx, EXO_EINTERNAL, "name table used after exo_names_finish");
  if (t->nreaders || t->cur)
    return EXO_FAIL(ctx, EXO_EINTERNAL, "exo_names_readers_begin called twice");
  if (n == 0) return EXO_OK;
  t->hazard = malloc((size_t)n * sizeof *t->hazard);
  t->cur = malloc(sizeof *t->cur);
  if (!t->hazard || !t->cur) {
    free(t->hazard);
    free(t->cur);
    t->hazard = NULL;
    t->cur = NULL;
    return EXO_FAIL(ctx, EXO_ENOMEM, "out of memory for the name table's readers");
  }
  for (unsigned r = 0; r < n; r++) atomic_init(&t->hazard[r], NULL);
  t->cur->slots = t->slots;
  t->cur->cap = t->cap;
  t->cur->mask = t->mask;
  t->cur->next = NULL;
  atomic_store(&t->pub, t->cur);
  t->nreaders = n;
  return EXO_OK;
}

/* Contract (exo_names.h): every reader has stopped; free the old arrays. */
exo_status exo_names_readers_end(exo_names *t, exo_ctx *ctx) {
  if (!t->cur) return EXO_OK;
  for (unsigned r = 0; r < t->nreaders; r++) atomic_store(&t->hazard[r], NULL);
  exo_status st = reclaim(t, ctx);
  free(t->hazard);
  free(t->cur);
  t->hazard = NULL;
  t->cur = NULL;
  atomic_store(&t->pub, NULL);
  t->nreaders = 0;
  return st;
}

exo_status exo_names_reclaim(exo_names *t, exo_ctx *ctx) { return reclaim(t, ctx); }

const exo_names_view *exo_names_pin(exo_names *t, unsigned reader) {
  view *v = atomic_load(&t->pub);
  for (;;) {
    atomic_store(&t->hazard[reader], v);
    view *again = atomic_load(&t->pub);
    if (again == v) return v;
    v = again;
  }
}

void exo_names_unpin(exo_names *t, unsigned reader) {
  atomic_store(&t->hazard[reader], NULL);
}

void exo_names_view_prefetch(const exo_names_view *v, exo_name_hash h) {
  EXO_PREFETCH(&v->slots[(size_t)h.h1 & v->mask]);
}

uint64_t exo_names_find(const exo_names_view *v, exo_name_hash h) {
  const uint64_t hi = h.h2 & HI_MASK;
  const slot *s = v->slots;
  const size_t mask = v->mask;
  for (size_t i = (size_t)h.h1 & mask;; i = (i + 1) & mask) {
    const uint64_t tag = tag_acquire(&s[i]);
    if (tag == 0) return EXO_NAMES_UNKNOWN;
    if (s[i].fp == h.h1 && (tag & HI_MASK) == hi) return (tag & ID_MASK) - 1;
  }
}

/* Flush and close the names file and drop the slots; count stays readable. */
exo_status exo_names_finish(exo_names *t, exo_ctx *ctx) {
  exo_status rst = exo_names_readers_end(t, ctx);
  free_slots(t->slots, t->cap);
  t->slots = NULL;
  t->cap = 0;
  t->mask = 0;
  t->grow_at = 0;
  t->finished = 1;
  exo_status st = exo_writer_close(&t->out, ctx);
  return st ? st : rst;
}

/* Free everything; the names file is closed unflushed (error paths). */
void exo_names_free(exo_names *t) {
  if (!t) return;
  exo_writer_abort(&t->out);
  while (t->retired) {
    view *v = t->retired;
    t->retired = v->next;
    free_slots(v->slots, v->cap);
    free(v);
  }
  free(t->hazard);
  free(t->cur);
  free_slots(t->slots, t->cap);
  free(t);
}
