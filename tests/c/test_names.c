/* test_names.c: exo_names: dense ids in first-seen order, repeat lookups,
 * the names file byte for byte, arbitrary and very long names, memory. */
#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_names.h"
#include "exo_rng.h"
#include "testutil.h"

/* Growable byte string for building the expected names file. */
typedef struct bytes {
  char *p;
  size_t len, cap;
} bytes;

static void bytes_add(bytes *b, const void *data, size_t n) {
  if (b->len + n + 1 > b->cap) {
    b->cap = (b->len + n + 1) * 2;
    b->p = realloc(b->p, b->cap);
  }
  memcpy(b->p + b->len, data, n);
  b->len += n;
}

static void check_file(const char *path, const bytes *want) {
  size_t len;
  char *got = tu_read_file(path, &len);
  ck_assert_ptr_nonnull(got);
  ck_assert_uint_eq(len, want->len);
  ck_assert_int_eq(memcmp(got, want->p, len), 0);
  free(got);
}

START_TEST(million_names_in_order) {
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "names.txt");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_names *t = NULL;
  ck_assert_int_eq(exo_names_create(&t, path, &ctx), EXO_OK);
  ck_assert_uint_eq(exo_names_count(t), 0);
  const uint64_t n = TU_SAN(1000000, 200000); /* several doublings either way */
  bytes want = {0};
  char name[64];
  for (uint64_t i = 0; i < n; i++) {
    /* varied lengths: 2 to 25 bytes, crossing the 4/8/16-byte hash cases */
    int len = snprintf(name, sizeof name, "%s%llu", (i % 3 == 0) ? "node_" : (i % 3 == 1) ? "n" : "vertex-long-prefix-",
                       (unsigned long long)i);
    uint64_t id = UINT64_MAX;
    ck_assert_int_eq(exo_names_intern(t, (const uint8_t *)name, (size_t)len, &id, &ctx), EXO_OK);
    if (id != i) ck_abort_msg("name %s got id %llu, want %llu", name, (unsigned long long)id,
                              (unsigned long long)i);
    /* immediately seen again */
    if (i % 7 == 0) {
      uint64_t again = UINT64_MAX;
      ck_assert_int_eq(exo_names_intern(t, (const uint8_t *)name, (size_t)len, &again, &ctx), EXO_OK);
      ck_assert_uint_eq(again, i);
    }
    bytes_add(&want, name, (size_t)len);
    bytes_add(&want, "\n", 1);
  }
  ck_assert_uint_eq(exo_names_count(t), n);
  /* every name again, in a scrambled order: same ids, nothing new */
  exo_rng r;
  exo_rng_seed(&r, 99);
  for (uint64_t k = 0; k < n; k++) {
    uint64_t i = exo_rng_below(&r, n);
    int len = snprintf(name, sizeof name, "%s%llu", (i % 3 == 0) ? "node_" : (i % 3 == 1) ? "n" : "vertex-long-prefix-",
                       (unsigned long long)i);
    uint64_t id = UINT64_MAX;
    ck_assert_int_eq(exo_names_intern(t, (const uint8_t *)name, (size_t)len, &id, &ctx), EXO_OK);
    if (id != i) ck_abort_msg("second lookup of %s gave %llu", name, (unsigned long long)id);
  }
  ck_assert_uint_eq(exo_names_count(t), n);
  /* 16-byte slots, a power of two, at most 70% and (after the last doubling)
   * at least 35% full */
  size_t tb = exo_names_table_bytes(t);
  size_t slots = tb / 16;
  ck_assert_uint_eq(tb % 16, 0);
  ck_assert_uint_eq(slots & (slots - 1), 0);
  ck_assert((double)slots * 0.7 >= (double)n);
  ck_assert((double)slots * 0.35 <= (double)n);
  ck_assert_int_eq(exo_names_finish(t, &ctx), EXO_OK);
  ck_assert_uint_eq(exo_names_table_bytes(t), 0);
  ck_assert_uint_eq(exo_names_count(t), n);
  exo_names_free(t);
  check_file(path, &want);
  free(want.p);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(arbitrary_bytes_and_long_names) {
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "names.txt");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_names *t = NULL;
  ck_assert_int_eq(exo_names_create(&t, path, &ctx), EXO_OK);
  ck_assert_uint_eq(exo_names_table_bytes(t), 1024 * 16);

  const size_t big = (size_t)1 << 20;
  uint8_t *n1 = malloc(big), *n2 = malloc(big), *n3 = malloc(big);
  for (size_t i = 0; i < big; i++) n1[i] = (uint8_t)('a' + i % 26);
  memcpy(n2, n1, big);
  n2[big - 1] = '#'; /* differs in the last byte only */
  memcpy(n3, n1, big);
  n3[0] = '#'; /* differs in the first byte only */

  struct {
    const uint8_t *p;
    size_t len;
  } names[] = {
      {(const uint8_t *)"\xff\xfe\x80 high", 9},
      {(const uint8_t *)"with space", 10},
      {(const uint8_t *)"\"quoted\"", 8},
      {(const uint8_t *)"'single'", 8},
      {(const uint8_t *)"a", 1},
      {(const uint8_t *)"b", 1},
      {(const uint8_t *)"ab", 2},
      {(const uint8_t *)"ba", 2},
      {(const uint8_t *)"aa", 2},
      {(const uint8_t *)"aaa", 3},
      {(const uint8_t *)"", 0},
      {(const uint8_t *)"abcdefghijklmnop", 16},
      {(const uint8_t *)"abcdefghijklmnopq", 17},
      {(const uint8_t *)"abcdefghijklmnoq", 16},
      {(const uint8_t *)"\xe4\xb8\xad\xe6\x96\x87", 6},
      {(const uint8_t *)"x\x01y\x7f", 4},
      {n1, big},
      {n2, big},
      {n3, big},
      {n1, big - 1},
  };
  const size_t count = sizeof names / sizeof *names;
  bytes want = {0};
  for (int round = 0; round < 3; round++) {
    for (size_t i = 0; i < count; i++) {
      uint64_t id = UINT64_MAX;
      ck_assert_int_eq(exo_names_intern(t, names[i].p, names[i].len, &id, &ctx), EXO_OK);
      ck_assert_uint_eq(id, i);
      if (round == 0) {
        bytes_add(&want, names[i].p, names[i].len);
        bytes_add(&want, "\n", 1);
      }
    }
  }
  ck_assert_uint_eq(exo_names_count(t), count);
  /* all lengths 1..299 of one repeated byte are distinct (the empty name
   * is already there) */
  uint8_t rep[300];
  memset(rep, 'z', sizeof rep);
  for (size_t len = 1; len < 300; len++) {
    uint64_t id;
    ck_assert_int_eq(exo_names_intern(t, rep, len, &id, &ctx), EXO_OK);
    ck_assert_uint_eq(id, count + len - 1);
    bytes_add(&want, rep, len);
    bytes_add(&want, "\n", 1);
  }
  for (size_t len = 1; len < 300; len++) {
    uint64_t id;
    ck_assert_int_eq(exo_names_intern(t, rep, len, &id, &ctx), EXO_OK);
    ck_assert_uint_eq(id, count + len - 1);
  }
  ck_assert_int_eq(exo_names_finish(t, &ctx), EXO_OK);
  check_file(path, &want);
  /* using the table after finish is a bug, reported as such */
  uint64_t id;
  ck_assert_int_eq(exo_names_intern(t, (const uint8_t *)"a", 1, &id, &ctx), EXO_EINTERNAL);
  exo_names_free(t);
  free(n1);
  free(n2);
  free(n3);
  free(want.p);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

START_TEST(create_errors_and_free) {
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_names *t = (exo_names *)&ctx;
  ck_assert_int_eq(exo_names_create(&t, "/nonexistent-dir-exo/names.txt", &ctx), EXO_EIO);
  ck_assert_ptr_null(t);
  ck_assert_ptr_nonnull(strstr(ctx.err.msg, "/nonexistent-dir-exo/names.txt"));
  exo_names_free(NULL);

  /* freeing without finish is safe; the file holds what was flushed (nothing) */
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "n.txt");
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_names_create(&t, path, &ctx), EXO_OK);
  uint64_t id;
  ck_assert_int_eq(exo_names_intern(t, (const uint8_t *)"q", 1, &id, &ctx), EXO_OK);
  ck_assert_uint_eq(id, 0);
  exo_names_free(t);
  size_t len = 99;
  char *d = tu_read_file(path, &len);
  ck_assert_uint_eq(len, 0);
  free(d);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* The growth hook sees every doubling twice: before, with the old and the
 * new array (3x the old), after, with the new one; its error fails the
 * interning that grew the table, which stays usable with the old ids. */
typedef struct grow_log {
  size_t calls, last, fail_at;
  int order_ok;
  const exo_names *t;
} grow_log;

static exo_status log_grow(void *user, size_t table_bytes, exo_ctx *ctx) {
  grow_log *g = user;
  g->calls++;
  size_t now = exo_names_table_bytes(g->t);
  if (g->calls % 2 == 1) { /* before: the table has not grown yet */
    if (table_bytes != 3 * now) g->order_ok = 0;
  } else if (table_bytes != now || table_bytes != 2 * g->last / 3) {
    g->order_ok = 0;
  }
  g->last = table_bytes;
  if (g->calls == g->fail_at) return EXO_FAIL(ctx, EXO_ENOMEM, "budget refused");
  return EXO_OK;
}

START_TEST(growth_hook) {
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "n.txt");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_names *t = NULL;
  ck_assert_int_eq(exo_names_create(&t, path, &ctx), EXO_OK);
  grow_log g = {0, 0, 0, 1, t};
  exo_names_on_grow(t, log_grow, &g);
  char name[32];
  uint64_t id;
  const size_t start = exo_names_table_bytes(t);
  for (unsigned i = 0; i < 100000; i++) {
    int len = snprintf(name, sizeof name, "node%u", i);
    ck_assert_int_eq(exo_names_intern(t, (const uint8_t *)name, (size_t)len, &id, &ctx), EXO_OK);
  }
  ck_assert(g.order_ok);
  /* 1024 slots hold 716 names; 100000 names need 2^18 slots: 8 doublings */
  ck_assert_uint_eq(g.calls, 16);
  ck_assert_uint_eq(exo_names_table_bytes(t), start << 8);
  ck_assert_uint_eq(g.last, exo_names_table_bytes(t));

  /* refuse the next doubling (the 183501st name): that interning fails */
  g.fail_at = g.calls + 1;
  unsigned i = 100000;
  exo_status rc = EXO_OK;
  for (; i < 200000 && rc == EXO_OK; i++) {
    int len = snprintf(name, sizeof name, "node%u", i);
    rc = exo_names_intern(t, (const uint8_t *)name, (size_t)len, &id, &ctx);
  }
  ck_assert_int_eq(rc, EXO_ENOMEM);
  ck_assert_str_eq(ctx.err.msg, "budget refused");
  ck_assert_uint_eq(i - 1, 183500); /* names 0..183499 fit 70% of 2^18 slots */
  ck_assert_uint_eq(exo_names_count(t), 183500);
  ck_assert_uint_eq(exo_names_table_bytes(t), start << 8);
  exo_ctx_init(&ctx);
  ck_assert_int_eq(exo_names_intern(t, (const uint8_t *)"node7", 5, &id, &ctx), EXO_OK);
  ck_assert_uint_eq(id, 7);
  exo_names_free(t);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* exo_names_intern_hashed with exo_names_hash (and prefetch hints in
 * between) gives the same ids and the same names file as exo_names_intern,
 * also across table growth (300000 names pass the 4 MiB huge-page size). */
START_TEST(hashed_interning_matches) {
  char *dir = tu_mkdtemp();
  char *p1 = tu_path(dir, "n1.txt"), *p2 = tu_path(dir, "n2.txt");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_names *a = NULL, *b = NULL;
  ck_assert_int_eq(exo_names_create(&a, p1, &ctx), EXO_OK);
  ck_assert_int_eq(exo_names_create(&b, p2, &ctx), EXO_OK);
  exo_rng r;
  exo_rng_seed(&r, 11);
  char name[64];
  /* sanitized builds: a quarter of the names (the table still doubles) */
  const uint64_t keys = TU_SAN(300000, 75000);
  for (uint64_t i = 0; i < 2 * keys; i++) {
    uint64_t k = exo_rng_below(&r, keys);
    int len = snprintf(name, sizeof name, "n%llu_%llu", (unsigned long long)k,
                       (unsigned long long)(k * 7919 % 1000));
    exo_name_hash h = exo_names_hash((const uint8_t *)name, (size_t)len);
    exo_name_hash h2 = exo_names_hash((const uint8_t *)name, (size_t)len);
    ck_assert(h.h1 == h2.h1 && h.h2 == h2.h2);
    exo_names_prefetch(b, h);
    uint64_t ia, ib;
    ck_assert_int_eq(exo_names_intern(a, (const uint8_t *)name, (size_t)len, &ia, &ctx), EXO_OK);
    ck_assert_int_eq(exo_names_intern_hashed(b, (const uint8_t *)name, (size_t)len, h, &ib, &ctx),
                     EXO_OK);
    ck_assert_uint_eq(ia, ib);
  }
  ck_assert_uint_eq(exo_names_count(a), exo_names_count(b));
  ck_assert_uint_gt(exo_names_count(a), keys * 5 / 6);
  ck_assert_uint_ge(exo_names_table_bytes(b), (size_t)TU_SAN(4, 1) << 20);
  ck_assert_int_eq(exo_names_finish(a, &ctx), EXO_OK);
  ck_assert_int_eq(exo_names_finish(b, &ctx), EXO_OK);
  /* after finish: prefetch is a no-op, interning is refused */
  exo_names_prefetch(b, exo_names_hash((const uint8_t *)"x", 1));
  uint64_t id;
  ck_assert_int_eq(exo_names_intern_hashed(b, (const uint8_t *)"x", 1,
                                           exo_names_hash((const uint8_t *)"x", 1), &id, &ctx),
                   EXO_EINTERNAL);
  size_t l1, l2;
  char *t1 = tu_read_file(p1, &l1), *t2 = tu_read_file(p2, &l2);
  ck_assert_uint_eq(l1, l2);
  ck_assert_int_eq(memcmp(t1, t2, l1), 0);
  free(t1);
  free(t2);
  exo_names_free(a);
  exo_names_free(b);
  free(p1);
  free(p2);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Concurrent readers: one thread interns 300000 names in order (the table
 * doubles 9 times, past the huge-page size) while 3 readers pin, look up
 * random names and unpin. A reader first reads how many names were interned
 * (published by the inserter after each one); every one of those must be
 * found with its id, and a later name either with its id or not at all. The
 * growth hook hears each doubling before, and (once the old array is freed)
 * after; at the end no old array is left. Run under `make tsan` too. */
#define RD_NAMES 300000u
#define RD_READERS 3u

typedef struct rd_shared {
  exo_names *t;
  atomic_uint done;   /* names interned so far */
  atomic_int stop;
  atomic_ullong checked, early; /* lookups checked; later names found */
  atomic_int bad;
} rd_shared;

typedef struct rd_arg {
  rd_shared *sh;
  unsigned idx;
} rd_arg;

static int rd_name(char *buf, unsigned i) { return sprintf(buf, "rd-%u-%u", i * 2654435761u, i); }

static void *rd_reader(void *p) {
  rd_arg *a = p;
  rd_shared *sh = a->sh;
  exo_rng r;
  exo_rng_seed(&r, 100 + a->idx);
  char name[48];
  while (!atomic_load(&sh->stop)) {
    const unsigned seen = atomic_load(&sh->done);
    const exo_names_view *v = exo_names_pin(sh->t, a->idx);
    for (int k = 0; k < 256; k++) {
      unsigned i = (unsigned)exo_rng_below(&r, RD_NAMES);
      int len = rd_name(name, i);
      uint64_t id = exo_names_find(v, exo_names_hash((const uint8_t *)name, (size_t)len));
      if (i < seen && id != i) atomic_store(&sh->bad, 1);
      if (i >= seen && id != EXO_NAMES_UNKNOWN && id != i) atomic_store(&sh->bad, 1);
      if (i >= seen && id == i) atomic_fetch_add(&sh->early, 1);
      atomic_fetch_add(&sh->checked, 1);
    }
    exo_names_unpin(sh->t, a->idx);
  }
  return NULL;
}

typedef struct rd_hook {
  size_t before, after; /* calls */
  int ok;
  const exo_names *t;
} rd_hook;

static exo_status rd_grow(void *user, size_t nbytes, exo_ctx *ctx) {
  (void)ctx;
  rd_hook *h = user;
  if (nbytes == exo_names_table_bytes(h->t)) h->after++;
  else if (nbytes > exo_names_table_bytes(h->t)) h->before++;
  else h->ok = 0;
  return EXO_OK;
}

START_TEST(concurrent_readers) {
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "names.txt");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  rd_shared sh;
  memset(&sh, 0, sizeof sh);
  ck_assert_int_eq(exo_names_create(&sh.t, path, &ctx), EXO_OK);
  rd_hook hook = {0, 0, 1, sh.t};
  exo_names_on_grow(sh.t, rd_grow, &hook);
  const size_t start = exo_names_table_bytes(sh.t);
  ck_assert_int_eq(exo_names_readers_begin(sh.t, RD_READERS, &ctx), EXO_OK);
  ck_assert_int_eq(exo_names_readers_begin(sh.t, RD_READERS, &ctx), EXO_EINTERNAL);
  exo_ctx_init(&ctx);
  atomic_init(&sh.done, 0);
  atomic_init(&sh.stop, 0);
  atomic_init(&sh.checked, 0);
  atomic_init(&sh.early, 0);
  atomic_init(&sh.bad, 0);
  pthread_t th[RD_READERS];
  rd_arg args[RD_READERS];
  for (unsigned k = 0; k < RD_READERS; k++) {
    args[k].sh = &sh;
    args[k].idx = k;
    ck_assert_int_eq(pthread_create(&th[k], NULL, rd_reader, &args[k]), 0);
  }
  bytes want = {0};
  char name[48];
  for (unsigned i = 0; i < RD_NAMES; i++) {
    int len = rd_name(name, i);
    uint64_t id;
    ck_assert_int_eq(exo_names_intern(sh.t, (const uint8_t *)name, (size_t)len, &id, &ctx),
                     EXO_OK);
    ck_assert_uint_eq(id, i);
    bytes_add(&want, name, (size_t)len);
    bytes_add(&want, "\n", 1);
    atomic_store(&sh.done, i + 1);
    if (i % 4096 == 0) ck_assert_int_eq(exo_names_reclaim(sh.t, &ctx), EXO_OK);
  }
  /* let the readers check the full table for a moment */
  while (atomic_load(&sh.checked) < 200000) sched_yield();
  atomic_store(&sh.stop, 1);
  for (unsigned k = 0; k < RD_READERS; k++) pthread_join(th[k], NULL);
  ck_assert_int_eq(atomic_load(&sh.bad), 0);
  ck_assert_int_eq(exo_names_readers_end(sh.t, &ctx), EXO_OK);
  /* 2^19 slots hold the 300000 names: 9 doublings, each heard before and
   * (perhaps merged with the next one's reclaim) after; nothing retired */
  ck_assert(hook.ok);
  ck_assert_uint_eq(hook.before, 9);
  ck_assert_uint_ge(hook.after, 1);
  ck_assert_uint_eq(exo_names_table_bytes(sh.t), start << 9);
  /* the names file and the ids after the readers left */
  uint64_t id;
  ck_assert_int_eq(exo_names_intern(sh.t, (const uint8_t *)"rd-0-0", 6, &id, &ctx), EXO_OK);
  ck_assert_uint_eq(id, 0);
  ck_assert_int_eq(exo_names_finish(sh.t, &ctx), EXO_OK);
  check_file(path, &want);
  exo_names_free(sh.t);
  free(want.p);
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

/* Readers that never pinned, and a table freed with readers on: nothing
 * leaks (valgrind/ASan), finish ends the readers itself. */
START_TEST(readers_end_paths) {
  char *dir = tu_mkdtemp();
  char *path = tu_path(dir, "n.txt");
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  exo_names *t = NULL;
  char name[32];
  uint64_t id;
  for (int pass = 0; pass < 2; pass++) {
    ck_assert_int_eq(exo_names_create(&t, path, &ctx), EXO_OK);
    ck_assert_int_eq(exo_names_readers_begin(t, 2, &ctx), EXO_OK);
    const exo_names_view *v = exo_names_pin(t, 1); /* holds the first array */
    for (unsigned i = 0; i < 5000; i++) {
      int len = snprintf(name, sizeof name, "x%u", i);
      ck_assert_int_eq(exo_names_intern(t, (const uint8_t *)name, (size_t)len, &id, &ctx), EXO_OK);
    }
    /* 8192 slots hold 5000 names; the pinned (first, 1024-slot) array is
     * kept and still answers */
    ck_assert_uint_eq(exo_names_table_bytes(t), (8192u + 1024u) * 16u);
    ck_assert_uint_eq(exo_names_find(v, exo_names_hash((const uint8_t *)"x3", 2)), 3);
    ck_assert_uint_eq(exo_names_find(v, exo_names_hash((const uint8_t *)"x4999", 5)),
                      EXO_NAMES_UNKNOWN);
    exo_names_unpin(t, 1);
    ck_assert_int_eq(exo_names_reclaim(t, &ctx), EXO_OK);
    ck_assert_uint_eq(exo_names_table_bytes(t), 8192u * 16u);
    if (pass == 0) {
      ck_assert_int_eq(exo_names_finish(t, &ctx), EXO_OK);
      ck_assert_uint_eq(exo_names_count(t), 5000);
    }
    exo_names_free(t);
  }
  free(path);
  tu_rmdir(dir);
  free(dir);
}
END_TEST

Suite *names_suite(void) {
  Suite *s = suite_create("names");
  TCase *tc = tcase_create("names");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, million_names_in_order);
  tcase_add_test(tc, arbitrary_bytes_and_long_names);
  tcase_add_test(tc, create_errors_and_free);
  tcase_add_test(tc, hashed_interning_matches);
  tcase_add_test(tc, growth_hook);
  tcase_add_test(tc, concurrent_readers);
  tcase_add_test(tc, readers_end_paths);
  suite_add_tcase(s, tc);
  return s;
}
