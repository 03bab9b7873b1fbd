/* exo_dist.c: the distributed run over an abstract transport (exo_dist.h
 * states the design and the contract). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_dist.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_bits.h"
#include "exo_budget.h"
#include "exo_csr.h"
#include "exo_io.h"
#include "exo_lp.h"
#include "exo_lprule.h"
#include "exo_names.h"
#include "exo_outcheck.h"
#include "exo_output.h"
#include "exo_platform.h"
#include "exo_record.h"
#include "exo_rng.h"
#include "exo_sort.h"
#include "exo_sweep.h"
#include "exo_tally.h"

#define SPOOL_REC 20            /* local a u64 | local b u64 | w f32 */
#define ARC_REC 20              /* key gid u64 | nbr gid u64 | w f32 */
#define IO_BUF ((size_t)1 << 20)
#define LP_MIN_BUF ((uint64_t)1 << 20)

enum { STAT_RESOLVE = 0, STAT_ARCS, STAT_LP, STAT_OUTPUT };

typedef struct dist {
  const exo_dist_options *opt;
  const exo_dist_comm *cm;
  exo_ctx *ctx;
  exo_dist_result *res;
  int P, r;
  uint64_t xbytes; /* exchange budget per round */
  char *lnames_path, *spool_path, *onames_path, *off_path, *adj_path, *adjl_path, *part_path;
  char *out_tmp;   /* "<out>.mpi-tmp" */
  uint64_t L;      /* distinct names this rank read */
  uint64_t *gid;   /* L: global id of each local id */
  uint64_t n_own;  /* nodes this rank owns */
  uint64_t max_own;
  int wide;        /* global ids need 64 bits on disk */
  uint64_t *scount, *rcount; /* P each, bytes */
  uint8_t *sbuf, *rbuf;
  size_t scap, rcap;
  uint64_t rtotal;
  exo_writer spool;
} dist;

static exo_status transport_fail(dist *d, const char *what) {
  d->res->agreed = 0;
  return EXO_FAIL(d->ctx, EXO_EIO, "the %s exchange between ranks failed", what);
}

/* Owner rank of a name: multiply-shift of the hash's second lane. */
static int name_owner(const uint8_t *name, size_t len, int P) {
  exo_name_hash h = exo_names_hash(name, len);
  return (int)(((unsigned __int128)h.h2 * (unsigned)P) >> 64);
}

/* Every rank reports its status; if any failed, all stop here. `sums` (may
 * be NULL) are summed over ranks when nobody failed. */
static exo_status checkpoint(dist *d, exo_status st, uint64_t *sums, int n) {
  uint64_t f = st ? (((uint64_t)(d->P - d->r)) << 8) | (uint64_t)st : 0;
  if (d->cm->allreduce_u64(d->cm->user, &f, 1, EXO_DIST_MAX)) return transport_fail(d, "status");
  if (f) {
    d->res->agreed = 1;
    if (st) return st;
    exo_status code = (exo_status)(f & 0xff);
    return EXO_FAIL(d->ctx, code, "stopped because rank %d failed (%s)", d->P - (int)(f >> 8),
                    exo_status_name(code));
  }
  if (n > 0 && d->cm->allreduce_u64(d->cm->user, sums, n, EXO_DIST_SUM))
    return transport_fail(d, "sum");
  return EXO_OK;
}

/* The checkpoint that starts an exchange round: 1 when some rank has
 * something to send this round, 0 when all are done or one failed (then
 * *st holds the error). */
static int next_round(dist *d, exo_status *st, uint64_t count) {
  uint64_t more = count > 0;
  exo_status cs = checkpoint(d, *st, &more, 1);
  if (cs) *st = cs;
  return !cs && more > 0;
}

static int grow(uint8_t **buf, size_t *cap, uint64_t need) {
  if (need <= *cap) return 0;
  if (need > SIZE_MAX / 2) return -1;
  size_t c = *cap ? *cap : 4096;
  while (c < need) c *= 2;
  uint8_t *p = realloc(*buf, c);
  if (!p) return -1;
  *buf = p;
  *cap = c;
  return 0;
}

/* Send sbuf (scount[q] bytes to q); receive into rbuf (rtotal bytes). */
static exo_status exchange(dist *d, int stat) {
  if (d->cm->alltoall_u64(d->cm->user, d->scount, d->rcount)) return transport_fail(d, "count");
  uint64_t tot = 0, sent = 0;
  for (int q = 0; q < d->P; q++) {
    tot += d->rcount[q];
    if (q != d->r) sent += d->scount[q];
  }
  if (grow(&d->rbuf, &d->rcap, tot ? tot : 1)) {
    d->res->agreed = 0; /* the others are already in the exchange */
    return exo_fail_oom(d->ctx, "a receive buffer", tot);
  }
  if (d->cm->alltoallv(d->cm->user, d->sbuf, d->scount, d->rbuf, d->rcount))
    return transport_fail(d, "data");
  d->rtotal = tot;
  d->res->bytes_sent[stat] += sent;
  return EXO_OK;
}

/* ---- 1. reading ----------------------------------------------------------- */

static exo_status on_edge(void *user, uint64_t a, uint64_t b, float w, exo_ctx *ctx) {
  dist *d = user;
  if (w < d->opt->min_weight || (a == b && d->opt->drop_self_loops)) return EXO_OK;
  uint8_t *p = exo_writer_reserve(&d->spool, SPOOL_REC, ctx);
  if (!p) return d->ctx->err.code ? d->ctx->err.code : EXO_EIO;
  memcpy(p, &a, 8);
  memcpy(p + 8, &b, 8);
  memcpy(p + 16, &w, 4);
  exo_writer_commit(&d->spool, SPOOL_REC);
  return EXO_OK;
}

static exo_status stage_parse(dist *d, uint64_t *lines) {
  exo_ctx *ctx = d->ctx;
  exo_names *names = NULL;
  exo_status st = exo_names_create(&names, d->lnames_path, ctx);
  if (!st) st = exo_writer_open(&d->spool, d->spool_path, IO_BUF, ctx);
  /* fewer files than ranks: every plain file is cut into P byte ranges */
  const int split = d->opt->nfiles < (size_t)d->P;
  for (size_t i = 0; !st && i < d->opt->nfiles; i++) {
    const char *f = d->opt->files[i];
    exo_parse_stats ps;
    memset(&ps, 0, sizeof ps);
    uint64_t size = 0;
    if (split && exo_parse_splittable(f, &size)) {
      uint64_t from = (uint64_t)((unsigned __int128)size * (unsigned)d->r / (unsigned)d->P);
      uint64_t to = (uint64_t)((unsigned __int128)size * (unsigned)(d->r + 1) / (unsigned)d->P);
      st = exo_parse_range(f, &d->opt->parse, from, to, names, on_edge, d, ctx, &ps);
    } else if (i % (size_t)d->P == (size_t)d->r) {
      st = exo_parse_file(f, &d->opt->parse, names, on_edge, d, ctx, &ps);
    }
    *lines += ps.edges;
  }
  if (!st) {
    d->L = exo_names_count(names);
    st = exo_names_finish(names, ctx);
  }
  exo_names_free(names); /* finish releases the table, not the object */
  if (!st) st = exo_writer_close(&d->spool, ctx);
  exo_writer_abort(&d->spool);
  return st;
}

/* ---- 3. name resolution ------------------------------------------------------ */

/* Take the next whole names of the local names file, up to xbytes, and lay
 * them out by owner in sbuf; order[k] = local id of the k-th name sent. */
static exo_status fill_names(dist *d, exo_reader *rd, uint64_t *next_lid, uint64_t **order,
                             size_t *order_cap, uint64_t *count) {
  exo_ctx *ctx = d->ctx;
  *count = 0;
  memset(d->scount, 0, (size_t)d->P * 8);
  if (exo_reader_remaining(rd) == 0) return EXO_OK;
  const uint8_t *p;
  size_t avail;
  exo_status st = exo_reader_peek(rd, (size_t)d->xbytes, &p, &avail, ctx);
  if (st) return st;
  size_t len = avail;
  while (len > 0 && p[len - 1] != '\n') len--;
  if (len == 0)
    return EXO_FAIL(ctx, EXO_ELIMIT, "a node name is longer than the exchange buffer (%llu bytes)",
                    (unsigned long long)d->xbytes);
  uint64_t n = 0;
  for (size_t i = 0; i < len; i++) n += p[i] == '\n';
  if (n > *order_cap) {
    uint64_t *o = realloc(*order, n * 8);
    if (!o) return exo_fail_oom(ctx, "the name batch", n * 8);
    *order = o;
    *order_cap = n;
  }
  int *own = malloc(n * sizeof(int));
  if (!own || grow(&d->sbuf, &d->scap, len)) {
    free(own);
    return exo_fail_oom(ctx, "the name batch", len);
  }
  size_t s = 0;
  for (uint64_t k = 0; k < n; k++) {
    size_t e = s;
    while (p[e] != '\n') e++;
    own[k] = name_owner(p + s, e - s, d->P);
    d->scount[own[k]] += e - s + 1;
    s = e + 1;
  }
  uint64_t *pos = calloc((size_t)d->P * 2, 8);
  if (!pos) {
    free(own);
    return exo_fail_oom(ctx, "the name batch", (uint64_t)d->P * 16);
  }
  uint64_t *cnt = pos + d->P;
  for (int q = 1; q < d->P; q++) pos[q] = pos[q - 1] + d->scount[q - 1];
  uint64_t *ostart = calloc((size_t)d->P, 8);
  if (!ostart) {
    free(own);
    free(pos);
    return exo_fail_oom(ctx, "the name batch", (uint64_t)d->P * 8);
  }
  /* names per owner, to place the local ids in owner order */
  for (uint64_t k = 0; k < n; k++) cnt[own[k]]++;
  for (int q = 1; q < d->P; q++) ostart[q] = ostart[q - 1] + cnt[q - 1];
  s = 0;
  for (uint64_t k = 0; k < n; k++) {
    size_t e = s;
    while (p[e] != '\n') e++;
    int q = own[k];
    memcpy(d->sbuf + pos[q], p + s, e - s + 1);
    pos[q] += e - s + 1;
    (*order)[ostart[q]++] = *next_lid + k;
    s = e + 1;
  }
  free(own);
  free(pos);
  free(ostart);
  exo_reader_skip_buffered(rd, len);
  *next_lid += n;
  *count = n;
  return EXO_OK;
}

/* Owner side: intern the received names, answer with their global ids in
 * sbuf (8 bytes per name, same order). */
static exo_status answer_names(dist *d, exo_names *own) {
  exo_ctx *ctx = d->ctx;
  uint64_t names = 0;
  for (uint64_t i = 0; i < d->rtotal; i++) names += d->rbuf[i] == '\n';
  if (grow(&d->sbuf, &d->scap, names * 8 + 8))
    return exo_fail_oom(ctx, "the name answers", names * 8);
  exo_status st = EXO_OK;
  uint64_t off = 0, k = 0;
  for (int q = 0; q < d->P; q++) {
    uint64_t end = off + d->rcount[q], before = k;
    while (off < end) {
      uint64_t e = off;
      while (d->rbuf[e] != '\n') e++;
      uint64_t idx = 0;
      if (!st) st = exo_names_intern(own, d->rbuf + off, (size_t)(e - off), &idx, ctx);
      uint64_t g = idx * (uint64_t)d->P + (uint64_t)d->r;
      memcpy(d->sbuf + 8 * k, &g, 8);
      k++;
      off = e + 1;
    }
    d->scount[q] = 8 * (k - before);
  }
  return st;
}

static exo_status stage_resolve(dist *d) {
  exo_ctx *ctx = d->ctx;
  exo_names *own = NULL;
  exo_reader rd;
  memset(&rd, 0, sizeof rd);
  rd.fd = -1;
  uint64_t *order = NULL;
  size_t order_cap = 0;
  uint64_t next_lid = 0;
  exo_status st = EXO_OK;
  d->gid = malloc((d->L ? d->L : 1) * 8);
  if (!d->gid) st = exo_fail_oom(ctx, "the global ids", d->L * 8);
  if (!st) st = exo_names_create(&own, d->onames_path, ctx);
  if (!st) st = exo_reader_open(&rd, d->lnames_path, (size_t)d->xbytes, 0, UINT64_MAX, 0, ctx);
  for (;;) {
    uint64_t c = 0;
    if (!st) st = fill_names(d, &rd, &next_lid, &order, &order_cap, &c);
    if (!next_round(d, &st, c)) break;
    if ((st = exchange(d, STAT_RESOLVE)) != EXO_OK) break;
    exo_status ast = answer_names(d, own); /* reported at the next checkpoint */
    if ((st = exchange(d, STAT_RESOLVE)) != EXO_OK) break;
    st = ast;
    if (!st && d->rtotal != c * 8) st = EXO_FAIL(ctx, EXO_EINTERNAL, "name answers do not match");
    for (uint64_t k = 0; !st && k < c; k++) memcpy(&d->gid[order[k]], d->rbuf + 8 * k, 8);
  }
  exo_reader_close(&rd);
  free(order);
  if (!st && next_lid != d->L)
    st = EXO_FAIL(ctx, EXO_EINTERNAL, "names file '%s' has %llu names, expected %llu",
                  d->lnames_path, (unsigned long long)next_lid, (unsigned long long)d->L);
  if (own) {
    d->n_own = exo_names_count(own);
    if (!st) st = exo_names_finish(own, ctx);
    exo_names_free(own);
  }
  exo_unlink(d->lnames_path);
  return st;
}

/* ---- 4. arcs to their owners and the CSR parts ------------------------------- */

static void put_arc(dist *d, uint64_t *pos, uint64_t key, uint64_t nbr, float w) {
  int q = (int)(key % (uint64_t)d->P);
  uint8_t *p = d->sbuf + pos[q];
  memcpy(p, &key, 8);
  memcpy(p + 8, &nbr, 8);
  memcpy(p + 16, &w, 4);
  pos[q] += ARC_REC;
}

/* Visit the arcs of edge (a, b, w) given as global ids: fn(key, nbr, w). */
#define EACH_ARC(d, ga, gb, w, DO)                        \
  do {                                                    \
    if ((w) > 0.0f) {                                     \
      if ((d)->opt->directed) {                           \
        DO((gb), (ga), (w));                              \
        DO((ga), (gb), -(w));                             \
      } else {                                            \
        DO((ga), (gb), (w));                              \
        if ((ga) != (gb)) DO((gb), (ga), (w));            \
      }                                                   \
    }                                                     \
  } while (0)

/* Edge i of a spool batch with global ids; -1 if a local id is out of range. */
static int spool_edge(const dist *d, const uint8_t *ebuf, uint64_t i, uint64_t *ga, uint64_t *gb,
                      float *w) {
  uint64_t a, b;
  memcpy(&a, ebuf + i * SPOOL_REC, 8);
  memcpy(&b, ebuf + i * SPOOL_REC + 8, 8);
  memcpy(w, ebuf + i * SPOOL_REC + 16, 4);
  if (a >= d->L || b >= d->L) return -1;
  *ga = d->gid[a];
  *gb = d->gid[b];
  return 0;
}

/* Read up to xbytes / (2 ARC_REC) edges of the spool and lay their arcs out
 * by owner in sbuf. */
static exo_status fill_arcs(dist *d, exo_reader *rd, uint8_t *ebuf, uint64_t emax,
                            uint64_t *count) {
  exo_ctx *ctx = d->ctx;
  memset(d->scount, 0, (size_t)d->P * 8);
  uint64_t rem = exo_reader_remaining(rd) / SPOOL_REC;
  uint64_t n = rem < emax ? rem : emax;
  *count = n;
  if (n == 0) return EXO_OK;
  exo_status st = exo_reader_read(rd, ebuf, (size_t)(n * SPOOL_REC), ctx);
  if (st) return st;
#define COUNT_ARC(k, nb, ww) d->scount[(k) % (uint64_t)d->P] += ARC_REC
  for (uint64_t i = 0; i < n; i++) {
    uint64_t ga, gb;
    float w;
    if (spool_edge(d, ebuf, i, &ga, &gb, &w))
      return EXO_FAIL(ctx, EXO_EINTERNAL, "edge spool id out of range");
    EACH_ARC(d, ga, gb, w, COUNT_ARC);
  }
  uint64_t tot = 0;
  uint64_t *pos = malloc((size_t)d->P * 8);
  if (!pos) return exo_fail_oom(ctx, "the arc batch", (uint64_t)d->P * 8);
  for (int q = 0; q < d->P; q++) {
    pos[q] = tot;
    tot += d->scount[q];
  }
  if (grow(&d->sbuf, &d->scap, tot ? tot : 1)) {
    free(pos);
    return exo_fail_oom(ctx, "the arc batch", tot);
  }
#define PUT_ARC(k, nb, ww) put_arc(d, pos, (k), (nb), (ww))
  for (uint64_t i = 0; i < n; i++) {
    uint64_t ga = 0, gb = 0;
    float w = 0.0f;
    (void)spool_edge(d, ebuf, i, &ga, &gb, &w); /* checked above */
    EACH_ARC(d, ga, gb, w, PUT_ARC);
  }
  free(pos);
  return EXO_OK;
}

static exo_status add_received_arcs(dist *d, exo_sorter *s, uint64_t *own_arcs, uint64_t *votes) {
  for (uint64_t i = 0; i + ARC_REC <= d->rtotal; i += ARC_REC) {
    uint64_t key, nbr;
    float w;
    memcpy(&key, d->rbuf + i, 8);
    memcpy(&nbr, d->rbuf + i + 8, 8);
    memcpy(&w, d->rbuf + i + 16, 4);
    if (key % (uint64_t)d->P != (uint64_t)d->r || key / (uint64_t)d->P >= d->n_own)
      return EXO_FAIL(d->ctx, EXO_EINTERNAL, "rank %d received an arc of node %llu it does not own",
                      d->r, (unsigned long long)key);
    exo_status st = exo_sorter_add(s, key / (uint64_t)d->P, nbr, w, d->ctx);
    if (st) return st;
    (*own_arcs)++;
    *votes += !d->opt->directed || w > 0.0f;
  }
  return EXO_OK;
}

static exo_status stage_arcs(dist *d, exo_sort_stats *sst) {
  exo_ctx *ctx = d->ctx;
  exo_sorter *s = NULL;
  exo_reader rd;
  memset(&rd, 0, sizeof rd);
  rd.fd = -1;
  uint64_t emax = d->xbytes / (2 * ARC_REC);
  uint8_t *ebuf = malloc((size_t)(emax * SPOOL_REC));
  exo_status st = ebuf ? EXO_OK : exo_fail_oom(ctx, "the edge batch", emax * SPOOL_REC);
  exo_sort_options so;
  memset(&so, 0, sizeof so);
  so.tmpdir = d->opt->tmpdir;
  so.memory_limit = exo_budget_share(d->opt->memory_limit, EXO_SHARE_DIST_SORT, 1);
  so.wide = d->wide;
  so.combine = d->opt->combine;
  if (!st) st = exo_sorter_create(&s, &so, ctx);
  if (!st) st = exo_reader_open(&rd, d->spool_path, IO_BUF, 0, UINT64_MAX, 1, ctx);
  uint64_t own_arcs = 0, votes = 0;
  for (;;) {
    uint64_t c = 0;
    if (!st) st = fill_arcs(d, &rd, ebuf, emax, &c);
    if (!next_round(d, &st, c)) break;
    if ((st = exchange(d, STAT_ARCS)) != EXO_OK) break;
    st = add_received_arcs(d, s, &own_arcs, &votes); /* reported at the next checkpoint */
  }
  exo_reader_close(&rd);
  free(ebuf);
  exo_unlink(d->spool_path);
  free(d->gid);
  d->gid = NULL;
  if (!st) {
    st = exo_sorter_finish_csr(s, d->n_own, d->off_path, d->adj_path, d->wide, ctx, sst);
  }
  exo_sorter_free(s);
  if (!st && d->opt->combine != EXO_COMBINE_KEEP) { /* folded arcs: count the entries */
    own_arcs = sst->arcs;
    votes = d->opt->directed ? sst->arcs_positive : sst->arcs;
  }
  d->res->own_arcs = own_arcs;
  d->res->num_arcs = votes; /* summed by the caller */
  return st;
}

/* ---- 5. label propagation in supersteps ------------------------------------- */

typedef struct lpd {
  uint64_t n;
  uint64_t *off, *lab;
  uint16_t *visits;
  uint64_t *active, *bnd; /* bit sets: to process; has a voting arc from a ghost */
  uint64_t *changed;      /* bit set: label changed since the last exchange */
  uint64_t nactive;
  int fd;                 /* the adjacency rewritten with local ids */
  int lwide;              /* its ids are u64 (n + ghosts > 2^32) */
  size_t esz;
  uint8_t *buf;           /* block window */
  uint64_t cap;
  uint8_t *lbuf;          /* list window: a list outside the block window, in
                             pieces of LP_MIN_BUF bytes */
  /* ghosts: gid -> slot + 1 (the sums of an exo_tally, listed in the
   * order found; freed after rewrite_local); labels by slot, slots grouped
   * by owner */
  exo_tally ghosts;
  uint64_t ng;
  uint64_t *glab, *gids;  /* by slot: label (= lab + n), global id */
  uint64_t *notify;       /* bit set by slot: tell the owner to activate it */
  uint64_t *gcount, *gstart; /* P: ghosts per owner, first slot of each owner */
  uint64_t *sstart;       /* P: first send-list entry of each reader rank */
  uint64_t *slist, nslist;/* owned indices other ranks read, by reader rank */
  uint64_t *scnt;         /* P */
  exo_tally tally;        /* the votes of the node processed */
  exo_rng rng, order_rng;
  uint32_t perm[EXO_SWEEP_BLOCK];
  uint32_t max_visits, tie_visits;
  uint64_t pops, changes;
  uint64_t step, coin_seed;
  /* resolution > 0: the volume (arcs) of every label of the whole graph,
   * indexed by global id, replicated on every rank; this rank's label
   * changes of the superstep (from, to, degree) for the other ranks */
  uint64_t *vol, nvol;
  double gamma_m;
  uint64_t *chg;
  uint64_t nchg, chg_cap;
} lpd;

/* The seeded coin that lets a boundary node take part in superstep `step`
 * (splitmix64 finaliser of seed, node and step). */
static inline int coin(const lpd *s, uint64_t gid) {
  uint64_t z = s->coin_seed ^ (gid * 0x9E3779B97F4A7C15ULL) ^ (s->step * 0xBF58476D1CE4E5B9ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return (int)((z ^ (z >> 31)) & 1u);
}

static void lpd_free(lpd *s) {
  if (s->fd >= 0) exo_close(s->fd);
  s->fd = -1;
  free(s->off);
  free(s->visits);
  free(s->active);
  free(s->bnd);
  free(s->changed);
  free(s->notify);
  free(s->gids);
  free(s->gstart);
  free(s->sstart);
  free(s->buf);
  free(s->lbuf);
  exo_tally_free(&s->ghosts);
  free(s->gcount);
  free(s->slist);
  free(s->scnt);
  exo_tally_free(&s->tally);
  free(s->vol);
  free(s->chg);
}


/* Rewrite the CSR part's adjacency with local ids: an owned node's index,
 * or n + its ghost slot; then label propagation needs no hash lookups, and
 * the ghost table is freed. The file with global ids is removed. */
static exo_status rewrite_local(dist *d, lpd *s) {
  exo_ctx *ctx = d->ctx;
  const uint64_t P = (uint64_t)d->P, n = s->n;
  s->lwide = n + s->ng > EXO_NARROW_ID_LIMIT;
  const size_t gsz = exo_adj_size(d->wide), lsz = exo_adj_size(s->lwide);
  exo_reader rd;
  exo_writer wr;
  memset(&rd, 0, sizeof rd);
  memset(&wr, 0, sizeof wr);
  rd.fd = wr.fd = -1;
  exo_status st = exo_reader_open(&rd, d->adj_path, IO_BUF, 0, UINT64_MAX, 1, ctx);
  if (!st) st = exo_writer_open(&wr, d->adjl_path, IO_BUF, ctx);
  for (uint64_t left = st ? 0 : s->off[n]; left > 0 && !st; left--) {
    uint8_t e[12];
    uint64_t u, x;
    float w;
    if ((st = exo_reader_read(&rd, e, gsz, ctx)) != EXO_OK) break;
    exo_adj_decode(e, d->wide, &u, &w);
    if (u % P == (uint64_t)d->r) x = u / P;
    else if ((x = (uint64_t)exo_tally_get(&s->ghosts, u)) == 0)
      st = EXO_FAIL(ctx, EXO_EINTERNAL, "neighbour %llu has no ghost slot", (unsigned long long)u);
    else x += n - 1;
    exo_adj_encode(e, s->lwide, x, w);
    if (!st) st = exo_writer_write(&wr, e, lsz, ctx);
    if (!st && (left & 0xFFFFF) == 0) st = exo_poll(ctx);
  }
  exo_reader_close(&rd);
  if (!st) st = exo_writer_close(&wr, ctx);
  exo_writer_abort(&wr);
  exo_unlink(d->adj_path);
  exo_tally_free(&s->ghosts);
  if (st) return st;
  s->esz = lsz;
  const exo_csr_files local = {d->off_path, d->adjl_path, n, s->off[n], s->lwide};
  return exo_csr_open_adj(&local, &s->fd, ctx);
}

/* Offsets into memory; ghosts and boundary nodes from one pass over the
 * adjacency; the owner lists agreed with the other ranks. */
static exo_status lp_setup_local(dist *d, lpd *s, uint64_t *maxdeg) {
  exo_ctx *ctx = d->ctx;
  uint64_t n = s->n, P = (uint64_t)d->P;
  s->visits = calloc((size_t)(n ? n : 1), 2);
  s->active = exo_bits_alloc(n);
  s->bnd = exo_bits_alloc(n);
  s->changed = exo_bits_alloc(n);
  s->gcount = calloc((size_t)d->P, 8);
  s->gstart = calloc((size_t)d->P, 8);
  s->sstart = calloc((size_t)d->P, 8);
  s->scnt = calloc((size_t)d->P, 8);
  int tfail = exo_tally_alloc(&s->tally, 1024) || exo_tally_alloc(&s->ghosts, 1024);
  if (!s->visits || !s->active || !s->bnd || !s->changed || !s->gcount ||
      !s->gstart || !s->sstart || !s->scnt || tfail)
    return exo_fail_oom(ctx, "the label propagation arrays", (n + 1) * 27);

  const exo_csr_files csr = {d->off_path, d->adj_path, n, d->res->own_arcs, d->wide};
  exo_status st = exo_csr_load_offsets(&csr, &s->off, maxdeg, ctx);
  if (st) return st;

  exo_reader rd;
  memset(&rd, 0, sizeof rd);
  rd.fd = -1;
  st = exo_reader_open(&rd, d->adj_path, IO_BUF, 0, UINT64_MAX, 0, ctx);
  for (uint64_t v = 0; !st && v < n; v++) {
    uint64_t deg = s->off[v + 1] - s->off[v];
    for (uint64_t k = 0; k < deg && !st; k++) {
      uint8_t e[12];
      uint64_t u;
      float w;
      if ((st = exo_reader_read(&rd, e, s->esz, ctx)) != EXO_OK) break;
      exo_adj_decode(e, d->wide, &u, &w);
      if (u % P == (uint64_t)d->r) {
        if (u / P >= n) st = EXO_FAIL(ctx, EXO_EINTERNAL, "CSR neighbour %llu out of range", (unsigned long long)u);
        continue;
      }
      /* every remote neighbour gets a slot: voting arcs read its label,
       * the others name whom to notify on a change */
      if (!d->opt->directed || w > 0.0f) exo_bits_set(s->bnd, v);
      if (exo_tally_add_sum(&s->ghosts, u, 0.0) != 0)
        st = exo_fail_oom(ctx, "the ghost table", (uint64_t)s->ghosts.cap * 56);
      else if (s->ghosts.count > s->ng) {
        s->ng++;
        s->gcount[u % P]++;
      }
    }
  }
  exo_reader_close(&rd);
  /* slots grouped by owner: renumber, and the requests in the same order;
   * labels of owned nodes and ghosts in one array */
  s->lab = malloc((size_t)(n + s->ng + 1) * 8);
  s->glab = s->lab ? s->lab + n : NULL;
  s->gids = malloc((size_t)(s->ng ? s->ng : 1) * 8);
  s->notify = exo_bits_alloc(s->ng);
  uint64_t *start = calloc((size_t)d->P, 8);
  if (!st && (!s->glab || !s->gids || !s->notify || !start))
    st = exo_fail_oom(ctx, "the ghost labels", s->ng * 16);
  if (!st) {
    for (int q = 1; q < d->P; q++) start[q] = start[q - 1] + s->gcount[q - 1];
    memcpy(s->gstart, start, (size_t)d->P * 8);
    for (uint64_t i = 0; i < s->ng; i++) { /* in the order found */
      exo_tally_slot *e = &s->ghosts.slots[s->ghosts.touched[i]];
      uint64_t slot = start[e->label % P]++;
      e->sum = (double)(slot + 1); /* exact: slots < 2^53 */
      s->glab[slot] = e->label; /* every node starts with its own id */
    }
    if (grow(&d->sbuf, &d->scap, s->ng * 8 + 8))
      st = exo_fail_oom(ctx, "the ghost requests", s->ng * 8);
    else
      memcpy(d->sbuf, s->glab, (size_t)s->ng * 8);
    memcpy(s->gids, s->glab, (size_t)s->ng * 8);
  }
  free(start);
  if (!st) st = rewrite_local(d, s);
  return st;
}

/* Label volumes (resolution > 0): every node starts alone, vol(g) = its
 * degree (adjacency entries); each rank fills its own nodes' and the sum
 * over ranks gives every rank the whole array. m = the entries of all CSR
 * parts, the single-machine run's m. */
#define VOL_CHUNK ((uint64_t)1 << 22) /* values per allreduce */
static exo_status vol_setup(dist *d, lpd *s) {
  const uint64_t P = (uint64_t)d->P;
  exo_status st = EXO_OK;
  uint64_t m = s->off[s->n];
  s->nvol = d->max_own * P;
  if (s->nvol > SIZE_MAX / 8 || !(s->vol = calloc((size_t)(s->nvol ? s->nvol : 1), 8)))
    st = exo_fail_oom(d->ctx, "the label volumes", s->nvol * 8);
  else
    for (uint64_t v = 0; v < s->n; v++) s->vol[v * P + (uint64_t)d->r] = s->off[v + 1] - s->off[v];
  exo_status cs = checkpoint(d, st, &m, 1);
  if (cs) return cs;
  s->gamma_m = exo_quality_gp(EXO_QUALITY_MODULARITY, d->opt->resolution, (double)m);
  for (uint64_t i = 0; i < s->nvol; i += VOL_CHUNK) {
    uint64_t k = s->nvol - i < VOL_CHUNK ? s->nvol - i : VOL_CHUNK;
    if (d->cm->allreduce_u64(d->cm->user, s->vol + i, (int)k, EXO_DIST_SUM))
      return transport_fail(d, "volume");
  }
  return EXO_OK;
}

static exo_status lp_setup(dist *d, lpd *s, uint64_t *maxdeg) {
  exo_ctx *ctx = d->ctx;
  uint64_t n = s->n, P = (uint64_t)d->P;
  exo_status st = lp_setup_local(d, s, maxdeg);
  for (int q = 0; q < d->P; q++) d->scount[q] = st || !s->gcount ? 0 : s->gcount[q] * 8;
  uint64_t md = *maxdeg;
  exo_status cs = checkpoint(d, st, NULL, 0);
  if (cs) return cs;
  if (d->cm->allreduce_u64(d->cm->user, &md, 1, EXO_DIST_MAX)) return transport_fail(d, "degree");
  *maxdeg = md;
  if ((st = exchange(d, STAT_LP)) != EXO_OK) return st;
  s->nslist = d->rtotal / 8;
  s->slist = malloc((size_t)(s->nslist ? s->nslist : 1) * 8);
  if (!s->slist) return exo_fail_oom(ctx, "the send lists", s->nslist * 8);
  for (int q = 0; q < d->P; q++) {
    s->scnt[q] = d->rcount[q] / 8;
    if (q > 0) s->sstart[q] = s->sstart[q - 1] + s->scnt[q - 1];
  }
  for (uint64_t i = 0; i < s->nslist; i++) {
    uint64_t g;
    memcpy(&g, d->rbuf + 8 * i, 8);
    if (g % P != (uint64_t)d->r || g / P >= n)
      return EXO_FAIL(ctx, EXO_EINTERNAL, "rank %d was asked for node %llu it does not own", d->r,
                      (unsigned long long)g);
    s->slist[i] = g / P;
  }

  /* read window (exo_budget.h) */
  s->cap = exo_budget_share(d->opt->memory_limit, EXO_SHARE_DIST_READ, 1);
  s->buf = malloc((size_t)s->cap);
  if (!s->buf) return exo_fail_oom(ctx, "the adjacency buffer", s->cap);
  if (!(s->lbuf = malloc((size_t)LP_MIN_BUF)))
    return exo_fail_oom(ctx, "the adjacency list buffer", LP_MIN_BUF);
  for (uint64_t v = 0; v < n; v++) s->lab[v] = v * P + (uint64_t)d->r;
  exo_bits_fill(s->active, n);
  s->nactive = n;
  return d->opt->resolution > 0.0 ? vol_setup(d, s) : EXO_OK;
}



/* Process node v (exo_lp.h's rule), its list read through window w (in
 * window-sized pieces when longer: once for the votes, once more for the
 * activations unless it is still held). */
static exo_status process(dist *d, lpd *s, exo_csr_window *w, uint64_t v, int *changed) {
  const int directed = d->opt->directed;
  const uint64_t n = s->n, all = s->n + s->ng, beg = s->off[v], end = s->off[v + 1];
  const uint8_t *p;
  uint64_t c;
  exo_status st;
  *changed = 0;
  exo_tally_clear(&s->tally);
  double strength = 0.0; /* raw weight of the voting arcs */
  uint64_t nvote = 0;    /* their number */
  for (uint64_t pos = beg; pos < end; pos += c) {
    if ((st = exo_csr_window_get(w, pos, end, &p, &c, d->ctx))) return st;
    for (uint64_t i = 0; i < c; i++) {
      uint64_t u;
      float wt;
      exo_adj_decode(p + i * s->esz, s->lwide, &u, &wt);
      if (u >= all) return EXO_FAIL(d->ctx, EXO_EINTERNAL, "local neighbour id %llu out of range",
                                    (unsigned long long)u);
      if (directed && !(wt > 0.0f)) continue;
      strength += (double)wt;
      nvote++;
      if (exo_tally_add_sum(&s->tally, s->lab[u], (double)wt))
        return exo_fail_oom(d->ctx,
                            "the label tally", (uint64_t)s->tally.cap * 2 * sizeof(exo_tally_slot));
    }
  }
  /* the winner and the volume penalty as exo_lp.c (exo_lprule.h); the
   * volumes of labels changed on other ranks are as of the last exchange */
  const uint64_t deg = end - beg, cur = s->lab[v];
  exo_lp_choice ch;
  if (!exo_lp_decide(&s->tally, cur, deg, s->vol, s->gamma_m, nvote, strength, s->visits[v],
                     s->tie_visits, &s->rng, &ch))
    return EXO_OK;
  const uint64_t win = ch.win;
  if (s->vol) {
    s->vol[cur] -= deg;
    s->vol[win] += deg;
    if (d->P > 1) { /* the other ranks apply it at the exchange */
      if (s->nchg + 3 > s->chg_cap) {
        uint64_t cap = s->chg_cap ? s->chg_cap * 2 : 3 * 1024;
        uint64_t *cg = realloc(s->chg, (size_t)cap * 8);
        if (!cg) return exo_fail_oom(d->ctx, "the label changes", cap * 8);
        s->chg = cg;
        s->chg_cap = cap;
      }
      s->chg[s->nchg++] = cur;
      s->chg[s->nchg++] = win;
      s->chg[s->nchg++] = deg;
    }
  }
  s->lab[v] = win;
  exo_bits_set(s->changed, v);
  *changed = 1;
  for (uint64_t pos = beg; pos < end; pos += c) { /* activate the out-neighbours */
    if ((st = exo_csr_window_get(w, pos, end, &p, &c, d->ctx))) return st;
    for (uint64_t i = 0; i < c; i++) {
      uint64_t u;
      float wt;
      exo_adj_decode(p + i * s->esz, s->lwide, &u, &wt);
      if (directed && !(wt < 0.0f)) continue;
      if (u >= n) { /* a ghost: its owner activates it after the sweep */
        exo_bits_set(s->notify, u - n);
        continue;
      }
      if (s->lab[u] == win || s->visits[u] >= s->max_visits || exo_bits_get(s->active, u)) continue;
      exo_bits_set(s->active, u);
      s->nactive++;
    }
  }
  return EXO_OK;
}

static exo_status lp_block(dist *d, lpd *s, uint64_t first, uint64_t *changes) {
  exo_ctx *ctx = d->ctx;
  uint64_t end = first + EXO_LP_BLOCK < s->n ? first + EXO_LP_BLOCK : s->n, lo, hi;
  uint32_t mask;
  if (!exo_sweep_block_begin(s->active, first, end, &s->order_rng, &lo, &hi, &mask)) return EXO_OK;
  /* the block's active lists in one read when they fit the block window;
   * a list outside it (activated since, or the block too long) goes
   * through the list window */
  exo_csr_window win = {s->fd, d->adjl_path, s->esz, s->buf, s->cap / s->esz, 0, 0};
  exo_csr_window lwin = {s->fd, d->adjl_path, s->esz, s->lbuf, LP_MIN_BUF / s->esz, 0, 0};
  const uint64_t e0 = s->off[lo], e1 = s->off[hi + 1];
  exo_status st;
  if (e1 - e0 <= win.entries && (st = exo_csr_window_fill(&win, e0, e1, ctx))) return st;
  for (uint32_t i = 0; i < EXO_LP_BLOCK; i++) {
    uint64_t v = exo_sweep_block_node(s->active, s->perm, mask, i, first, end);
    if (v == UINT64_MAX) continue;
    /* from the second superstep on a boundary node takes part only when
     * its coin says so: two nodes on different ranks that would each take
     * the other's (stale) label forever stop swapping */
    if (s->step > 1 && exo_bits_get(s->bnd, v) && !coin(s, v * (uint64_t)d->P + (uint64_t)d->r))
      continue; /* sits this superstep out, stays active */
    exo_bits_clear(s->active, v);
    s->nactive--;
    s->visits[v]++;
    s->pops++;
    if (s->off[v + 1] == s->off[v]) continue;
    const int held = s->off[v] >= win.lo && s->off[v + 1] <= win.hi;
    int changed = 0;
    if ((st = process(d, s, held ? &win : &lwin, v, &changed))) return st;
    if (changed) {
      (*changes)++;
      s->changes++;
    }
  }
  return exo_poll(ctx);
}

/* After a sweep: send each reader rank (position, label) for the entries of
 * its list whose node changed, and each owner the ghosts to activate; apply
 * what arrives. Per peer block: count u64 | count x (pos u64, label u64) |
 * global ids u64. */
static exo_status lp_exchange(dist *d, lpd *s, uint64_t *sent) {
  exo_ctx *ctx = d->ctx;
  const uint64_t P = (uint64_t)d->P;
  uint64_t tot = 0;
  for (int q = 0; q < d->P; q++) {
    uint64_t nl = 0, nn = 0;
    for (uint64_t i = s->sstart[q]; i < s->sstart[q] + s->scnt[q]; i++) nl += exo_bits_get(s->changed, s->slist[i]);
    for (uint64_t g = s->gstart[q]; g < s->gstart[q] + s->gcount[q]; g++) nn += exo_bits_get(s->notify, g);
    d->scount[q] = 8 + 16 * nl + 8 * nn;
    if (s->vol) d->scount[q] += 8 + (q == d->r ? 0 : 8 * s->nchg);
    tot += d->scount[q];
  }
  if (grow(&d->sbuf, &d->scap, tot)) {
    d->res->agreed = 0;
    return exo_fail_oom(ctx, "the label messages", tot);
  }
  uint8_t *p = d->sbuf;
  for (int q = 0; q < d->P; q++) {
    uint64_t nl = (d->scount[q] - 8) / 16, k = 0; /* an upper bound until written */
    uint8_t *head = p;
    p += 8;
    for (uint64_t i = s->sstart[q]; i < s->sstart[q] + s->scnt[q]; i++) {
      if (!exo_bits_get(s->changed, s->slist[i])) continue;
      uint64_t pos = i - s->sstart[q];
      memcpy(p, &pos, 8);
      memcpy(p + 8, &s->lab[s->slist[i]], 8);
      p += 16;
      k++;
    }
    memcpy(head, &k, 8);
    if (s->vol) { /* this rank's volume changes: from | to | degree */
      uint64_t c = q == d->r ? 0 : s->nchg / 3;
      memcpy(p, &c, 8);
      if (c) memcpy(p + 8, s->chg, (size_t)c * 24);
      p += 8 + c * 24;
    }
    for (uint64_t g = s->gstart[q]; g < s->gstart[q] + s->gcount[q]; g++) {
      if (!exo_bits_get(s->notify, g)) continue;
      memcpy(p, &s->gids[g], 8);
      p += 8;
    }
    (void)nl;
  }
  s->nchg = 0;
  exo_bits_zero(s->changed, s->n);
  exo_bits_zero(s->notify, s->ng);
  exo_status st = exchange(d, STAT_LP);
  if (st) return st;
  for (int q = 0; q < d->P; q++) sent[0] += q == d->r ? 0 : d->scount[q];
  const uint8_t *b = d->rbuf;
  for (int q = 0; q < d->P; q++) {
    const uint8_t *end = b + d->rcount[q];
    uint64_t k;
    if (d->rcount[q] < 8) return EXO_FAIL(ctx, EXO_EINTERNAL, "short label message");
    memcpy(&k, b, 8);
    b += 8;
    if (k > (uint64_t)(end - b) / 16) return EXO_FAIL(ctx, EXO_EINTERNAL, "bad label message");
    for (uint64_t i = 0; i < k; i++, b += 16) {
      uint64_t pos, l;
      memcpy(&pos, b, 8);
      memcpy(&l, b + 8, 8);
      if (pos >= s->gcount[q]) return EXO_FAIL(ctx, EXO_EINTERNAL, "bad ghost position");
      s->glab[s->gstart[q] + pos] = l;
    }
    if (s->vol) {
      uint64_t c;
      if ((uint64_t)(end - b) < 8) return EXO_FAIL(ctx, EXO_EINTERNAL, "short label message");
      memcpy(&c, b, 8);
      b += 8;
      if (c > (uint64_t)(end - b) / 24) return EXO_FAIL(ctx, EXO_EINTERNAL, "bad volume message");
      for (uint64_t i = 0; i < c; i++, b += 24) {
        uint64_t x[3];
        memcpy(x, b, 24);
        if (x[0] >= s->nvol || x[1] >= s->nvol)
          return EXO_FAIL(ctx, EXO_EINTERNAL, "bad label in a volume message");
        s->vol[x[0]] -= x[2];
        s->vol[x[1]] += x[2];
      }
    }
    for (; b + 8 <= end; b += 8) {
      uint64_t g;
      memcpy(&g, b, 8);
      if (g % P != (uint64_t)d->r || g / P >= s->n)
        return EXO_FAIL(ctx, EXO_EINTERNAL, "rank %d asked to activate node %llu it does not own",
                        d->r, (unsigned long long)g);
      uint64_t x = g / P;
      if (s->visits[x] >= s->max_visits || exo_bits_get(s->active, x)) continue;
      exo_bits_set(s->active, x);
      s->nactive++;
    }
  }
  return EXO_OK;
}

static exo_status stage_lp(dist *d, lpd *s) {
  exo_ctx *ctx = d->ctx;
  exo_dist_result *res = d->res;
  uint64_t maxdeg = 0;
  s->n = d->n_own;
  s->esz = exo_adj_size(d->wide);
  exo_status st = lp_setup(d, s, &maxdeg);
  if (st) return st;
  s->max_visits = exo_lp_visit_cap(d->opt->max_visits, maxdeg, &s->tie_visits);
  if (d->opt->max_visits == 0 && d->P > 1) {
    /* automatic cap over ranks: twice the single-machine one (the tie
     * threshold stays), as a visit that reads a ghost's label from the last
     * superstep decides on older news and a boundary node may sit a
     * superstep out; with the single-machine cap, communities spread over
     * the ranks stayed in fragments on noisy graphs */
    uint32_t t;
    s->max_visits = exo_lp_visit_cap(2 * s->max_visits, 0, &t);
  }
  res->max_visits = s->max_visits;
  uint64_t mix = ((uint64_t)d->r + 1) * 0xD1B54A32D192ED03ULL;
  exo_rng_seed(&s->rng, d->opt->seed ^ mix);
  exo_rng_seed(&s->order_rng, (d->opt->seed ^ 0x6a09e667f3bcc909ULL) + mix);
  res->step_bytes = calloc(EXO_DIST_MAX_STEPS, 8);
  res->step_changes = calloc(EXO_DIST_MAX_STEPS, 8);
  if (!res->step_bytes || !res->step_changes)
    st = exo_fail_oom(ctx, "the superstep figures", EXO_DIST_MAX_STEPS * 16);
  s->coin_seed = d->opt->seed ^ 0x243F6A8885A308D3ULL;
  uint64_t step = 0, step_changes = 0;
  for (;;) {
    uint64_t v[2] = {s->nactive, step_changes};
    exo_status cs = checkpoint(d, st, v, 2);
    if (cs) return cs;
    if (step > 0 && step <= EXO_DIST_MAX_STEPS) res->step_changes[step - 1] = v[1];
    res->changes += step > 0 ? v[1] : 0;
    if (v[0] == 0) break;
    step++;
    s->step = step;
    step_changes = 0;
    exo_sweep_order(s->perm, &s->order_rng);
    for (uint64_t first = 0; first < s->n && !st; first += EXO_LP_BLOCK)
      st = lp_block(d, s, first, &step_changes);
    /* changed labels and activations for the other ranks; always
     * exchanged, a local error waits for the checkpoint at the top */
    uint64_t sent = 0;
    exo_status xs = lp_exchange(d, s, &sent); /* adds to bytes_sent[STAT_LP] */
    if (xs) return xs;
    if (step <= EXO_DIST_MAX_STEPS) res->step_bytes[step - 1] = sent;
  }
  res->supersteps = step;
  uint64_t g[1] = {s->pops};
  if (d->cm->allreduce_u64(d->cm->user, g, 1, EXO_DIST_SUM)) return transport_fail(d, "sum");
  res->pops = g[0];
  res->ghosts = s->ng;
  res->send_list = s->nslist;
  for (uint64_t w = 0; w * 64 < s->n; w++) res->boundary_nodes += (uint64_t)__builtin_popcountll(s->bnd[w]);
  return EXO_OK;
}

/* ---- 6. global cluster numbers and the output --------------------------------- */

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Replace each label by its global cluster number 1..K. */
static exo_status number_clusters(dist *d, uint64_t *lab) {
  exo_ctx *ctx = d->ctx;
  uint64_t n = d->n_own, P = (uint64_t)d->P, D = 0;
  uint64_t *dl = malloc((size_t)(n ? n : 1) * 8), *ord = NULL, *num = NULL, *used = NULL,
           *pre = NULL, *start = calloc((size_t)d->P, 8);
  const size_t words = exo_bits_words(n);
  exo_status st = dl && start ? EXO_OK : exo_fail_oom(ctx, "the cluster numbering", n * 8);
  if (!st) {
    memcpy(dl, lab, (size_t)n * 8);
    qsort(dl, (size_t)n, 8, cmp_u64);
    for (uint64_t i = 0; i < n; i++)
      if (i == 0 || dl[i] != dl[D - 1]) dl[D++] = dl[i];
    ord = malloc((size_t)(D ? D : 1) * 8);
    num = malloc((size_t)(D ? D : 1) * 8);
    used = exo_bits_alloc(n);
    pre = malloc((words ? words : 1) * 8);
    if (!ord || !num || !used || !pre || grow(&d->sbuf, &d->scap, D * 8 + 8))
      st = exo_fail_oom(ctx, "the cluster numbering", D * 24 + n / 4);
  }
  memset(d->scount, 0, (size_t)d->P * 8);
  if (!st) {
    for (uint64_t i = 0; i < D; i++) d->scount[dl[i] % P] += 8;
    for (int q = 1; q < d->P; q++) start[q] = start[q - 1] + d->scount[q - 1] / 8;
    for (uint64_t i = 0; i < D; i++) {
      uint64_t k = start[dl[i] % P]++;
      memcpy(d->sbuf + 8 * k, &dl[i], 8);
      ord[k] = i;
    }
  }
  exo_status cs = checkpoint(d, st, NULL, 0);
  if (!cs) cs = exchange(d, STAT_OUTPUT);
  if (!cs) {
    for (uint64_t i = 0; i + 8 <= d->rtotal && !st; i += 8) {
      uint64_t g;
      memcpy(&g, d->rbuf + i, 8);
      if (g % P != (uint64_t)d->r || g / P >= n)
        st = EXO_FAIL(ctx, EXO_EINTERNAL, "label %llu is not a node of rank %d", (unsigned long long)g, d->r);
      else
        exo_bits_set(used, g / P);
    }
    uint64_t K = 0;
    for (size_t w = 0; w < words && !st; w++) {
      pre[w] = K;
      K += (uint64_t)__builtin_popcountll(used[w]);
    }
    cs = checkpoint(d, st, NULL, 0);
    uint64_t *allk = cs ? NULL : malloc((size_t)d->P * 8);
    if (!cs && !allk)
      cs = exo_fail_oom(ctx, "the cluster counts", (uint64_t)d->P * 8); /* not agreed: aborts */
    if (!cs && d->cm->allgather_u64(d->cm->user, K, allk)) cs = transport_fail(d, "count");
    if (!cs) {
      uint64_t base = 1, total = 0;
      for (int q = 0; q < d->P; q++) {
        if (q < d->r) base += allk[q];
        total += allk[q];
      }
      d->res->num_clusters = total;
      /* answers in place of the requests: the same 8 bytes per label */
      for (uint64_t i = 0; i + 8 <= d->rtotal; i += 8) {
        uint64_t g, x;
        memcpy(&g, d->rbuf + i, 8);
        x = g / P;
        uint64_t c = base + pre[x >> 6] + exo_bits_rank_in_word(used, x);
        memcpy(d->rbuf + i, &c, 8);
      }
      if (grow(&d->sbuf, &d->scap, d->rtotal + 8))
        cs = exo_fail_oom(ctx, "the cluster answers", d->rtotal);
      else memcpy(d->sbuf, d->rbuf, (size_t)d->rtotal);
      for (int q = 0; q < d->P; q++) d->scount[q] = d->rcount[q];
    }
    free(allk);
    if (!cs) cs = exchange(d, STAT_OUTPUT);
    if (!cs && d->rtotal != D * 8) cs = EXO_FAIL(ctx, EXO_EINTERNAL, "cluster answers do not match");
    if (!cs) {
      for (uint64_t k = 0; k < D; k++) memcpy(&num[ord[k]], d->rbuf + 8 * k, 8);
      for (uint64_t v = 0; v < n; v++) {
        uint64_t *hit = bsearch(&lab[v], dl, (size_t)D, 8, cmp_u64);
        lab[v] = num[hit - dl];
      }
    }
  }
  free(dl);
  free(ord);
  free(num);
  free(used);
  free(pre);
  free(start);
  return cs;
}

/* Copy this rank's part into the shared output at `at`. */
static exo_status copy_part(dist *d, uint64_t at) {
  exo_ctx *ctx = d->ctx;
  int in = exo_open(d->part_path, EXO_OPEN_READ);
  if (in < 0) return exo_error_errno(&ctx->err, errno, "open", d->part_path);
  int out = exo_open(d->out_tmp, EXO_OPEN_RDWR);
  if (out < 0) {
    int e = errno;
    exo_close(in);
    return exo_error_errno(&ctx->err, e, "open", d->out_tmp);
  }
  uint8_t *buf = malloc(IO_BUF);
  exo_status st = buf ? EXO_OK : exo_fail_oom(ctx, "a copy buffer", IO_BUF);
  for (uint64_t off = 0; !st;) {
    int64_t got = exo_read(in, buf, IO_BUF);
    if (got < 0) st = exo_error_errno(&ctx->err, errno, "read", d->part_path);
    if (got <= 0) break;
    st = exo_pwrite_full(out, buf, (size_t)got, at + off, d->out_tmp, ctx);
    off += (uint64_t)got;
  }
  free(buf);
  exo_close(in);
  if (exo_close(out) != 0 && !st) st = exo_error_errno(&ctx->err, errno, "close", d->out_tmp);
  return st;
}

static exo_status stage_output(dist *d, uint64_t *lab) {
  exo_ctx *ctx = d->ctx;
  exo_status st = number_clusters(d, lab);
  if (st) return st;
  st = exo_output_write(d->onames_path, lab, d->n_own, d->opt->sep, d->part_path, 1, ctx);
  uint64_t size = 0;
  if (!st) st = exo_file_size(d->part_path, &size, ctx);
  exo_status cs = checkpoint(d, st, NULL, 0);
  if (cs) return cs;
  uint64_t *all = malloc((size_t)d->P * 8);
  if (!all) return exo_fail_oom(ctx, "the part sizes", (uint64_t)d->P * 8);
  if (d->cm->allgather_u64(d->cm->user, size, all)) {
    free(all);
    return transport_fail(d, "size");
  }
  uint64_t at = 0, total = 0;
  for (int q = 0; q < d->P; q++) {
    if (q < d->r) at += all[q];
    total += all[q];
  }
  free(all);
  if (d->r == 0) {
    int fd = exo_open(d->out_tmp, EXO_OPEN_CREATE);
    if (fd < 0) st = exo_error_errno(&ctx->err, errno, "create", d->out_tmp);
    else {
      if (exo_set_size(fd, total) != 0) st = exo_error_errno(&ctx->err, errno, "size", d->out_tmp);
      if (exo_close(fd) != 0 && !st) st = exo_error_errno(&ctx->err, errno, "close", d->out_tmp);
    }
  }
  cs = checkpoint(d, st, NULL, 0);
  if (!cs) {
    st = copy_part(d, at);
    exo_unlink(d->part_path);
    cs = checkpoint(d, st, NULL, 0);
  }
  if (!cs && d->r == 0 && exo_rename_replace(d->out_tmp, d->opt->out_path) != 0)
    st = exo_error_errno(&ctx->err, errno, "rename the finished output to", d->opt->out_path);
  if (!cs) cs = checkpoint(d, st, NULL, 0);
  if (cs && d->r == 0) exo_unlink(d->out_tmp);
  return cs;
}

/* ---- the run ------------------------------------------------------------------- */

static void dist_free(dist *d) {
  char *paths[] = {d->lnames_path, d->spool_path, d->onames_path, d->off_path,
                   d->adj_path,    d->adjl_path,  d->part_path};
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
    if (paths[i]) exo_unlink(paths[i]);
    free(paths[i]);
  }
  free(d->out_tmp);
  free(d->gid);
  free(d->scount);
  free(d->rcount);
  free(d->sbuf);
  free(d->rbuf);
}

void exo_dist_result_free(exo_dist_result *res) {
  if (!res) return;
  free(res->step_bytes);
  free(res->step_changes);
  res->step_bytes = res->step_changes = NULL;
}

static uint64_t file_bytes(const char *path) {
  uint64_t size = 0;
  int kind;
  return path && exo_path_stat(path, &size, &kind) == 0 ? size : 0;
}

exo_status exo_dist_run(const exo_dist_options *opt, const exo_dist_comm *comm, exo_ctx *ctx,
                        exo_dist_result *res) {
  if (!res) return EXO_FAIL(ctx, EXO_EARG, "exo_dist_run: NULL result");
  memset(res, 0, sizeof *res);
  if (!opt || !comm || !opt->tmpdir || !opt->out_path || comm->size < 1 || comm->rank < 0 ||
      comm->rank >= comm->size)
    return EXO_FAIL(ctx, EXO_EARG, "exo_dist_run: invalid arguments");
  if (opt->sep == '\n' || opt->sep == '\r' || opt->sep == '\0' || opt->parse.sep != opt->sep)
    return EXO_FAIL(ctx, EXO_EARG, "invalid separator");
  if (!(opt->resolution >= 0.0) || !isfinite(opt->resolution))
    return EXO_FAIL(ctx, EXO_EARG, "resolution must be a finite number >= 0");
  dist d;
  memset(&d, 0, sizeof d);
  d.opt = opt;
  d.cm = comm;
  d.ctx = ctx;
  d.res = res;
  d.P = comm->size;
  d.r = comm->rank;
  d.spool.fd = -1;
  d.xbytes = exo_budget_share(opt->memory_limit, EXO_SHARE_DIST_EXCHANGE, 1);
  if (opt->exchange_bytes) d.xbytes = opt->exchange_bytes < 64 ? 64 : opt->exchange_bytes;
  size_t olen = strlen(opt->out_path);
  d.lnames_path = exo_path_join(opt->tmpdir, "names.local");
  d.spool_path = exo_path_join(opt->tmpdir, "edges.spool");
  d.onames_path = exo_path_join(opt->tmpdir, "names.owned");
  d.off_path = exo_path_join(opt->tmpdir, "csr.offsets");
  d.adj_path = exo_path_join(opt->tmpdir, "csr.adj");
  d.adjl_path = exo_path_join(opt->tmpdir, "csr.adj.local");
  d.part_path = exo_path_join(opt->tmpdir, "clusters.part");
  d.out_tmp = malloc(olen + sizeof ".mpi-tmp");
  d.scount = calloc((size_t)d.P, 8);
  d.rcount = calloc((size_t)d.P, 8);
  exo_status st = EXO_OK;
  if (!d.lnames_path || !d.spool_path || !d.onames_path || !d.off_path || !d.adj_path || !d.adjl_path ||
      !d.part_path || !d.out_tmp || !d.scount || !d.rcount)
    st = exo_fail_oom(ctx, "paths", 0);
  else
    memcpy(d.out_tmp, opt->out_path, olen), memcpy(d.out_tmp + olen, ".mpi-tmp", sizeof ".mpi-tmp");

  /* no output may be an input or lie in the private directory
   * (exo_outcheck.h); all ranks agree before anything is read */
  if (!st) st = exo_check_outputs(opt->files, opt->nfiles, &opt->out_path, 1, opt->tmpdir, ctx);
  st = checkpoint(&d, st, NULL, 0);

  double t = exo_now_seconds();
  uint64_t sums[3] = {0, 0, 0};
  if (!st) st = stage_parse(&d, &sums[0]);
  uint64_t spool_bytes = file_bytes(d.spool_path), lnames_bytes = file_bytes(d.lnames_path);
  exo_status cs = checkpoint(&d, st, sums, 1);
  res->num_lines = sums[0];
  res->seconds[0] = exo_now_seconds() - t;
  t = exo_now_seconds();
  if (!cs) cs = stage_resolve(&d);
  if (!cs) {
    sums[0] = d.n_own;
    cs = checkpoint(&d, EXO_OK, sums, 1);
    res->num_nodes = sums[0];
    res->own_nodes = d.n_own;
  }
  if (!cs) {
    d.max_own = d.n_own;
    if (d.cm->allreduce_u64(d.cm->user, &d.max_own, 1, EXO_DIST_MAX)) cs = transport_fail(&d, "size");
    d.wide = d.max_own * (uint64_t)d.P > EXO_NARROW_ID_LIMIT;
  }
  res->seconds[1] = exo_now_seconds() - t;
  t = exo_now_seconds();
  exo_sort_stats sst;
  memset(&sst, 0, sizeof sst);
  if (!cs) {
    st = stage_arcs(&d, &sst);
    sums[0] = res->own_arcs;
    sums[1] = res->num_arcs;
    cs = checkpoint(&d, st, sums, 2);
    res->num_entries = sums[0];
    res->num_arcs = sums[1];
    res->sort_runs = sst.runs;
  }
  res->seconds[2] = exo_now_seconds() - t;
  t = exo_now_seconds();
  lpd s;
  memset(&s, 0, sizeof s);
  s.fd = -1;
  if (!cs) cs = stage_lp(&d, &s);
  uint64_t *lab = s.lab;
  s.lab = NULL;
  lpd_free(&s);
  exo_unlink(d.off_path);
  exo_unlink(d.adj_path);
  exo_unlink(d.adjl_path);
  res->seconds[3] = exo_now_seconds() - t;
  t = exo_now_seconds();
  if (!cs) cs = stage_output(&d, lab);
  res->seconds[4] = exo_now_seconds() - t;
  free(lab);
  res->temp_disk = spool_bytes + lnames_bytes + sst.peak_disk + file_bytes(d.onames_path) * 2;
  dist_free(&d);
  return cs;
}
