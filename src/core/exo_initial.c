/* exo_initial.c: a previous clustering and stable cluster ids (contract in
 * exo_initial.h). */
#include "exo_initial.h"

#include <stdlib.h>
#include <string.h>

#include "exo_byname.h"
#include "exo_names.h"
#include "exo_input.h"
#include "exo_platform.h"
#include "exo_seqs.h"

#define INI_BUF ((size_t)1 << 20)
#define INI_MAX_LINE ((size_t)64 << 20)
#define INI_POLL ((uint64_t)1 << 16)

void exo_initial_free(exo_initial *in) {
  if (!in) return;
  free(in->stable_old);
  free(in->initial);
  memset(in, 0, sizeof *in);
}

/* The graph's names, looked up by a hash table: the names file's bytes
 * (n names in id order, each ended by '\n'), their offsets, and an
 * open-addressing table of node ids + 1 (a power of 2 of slots, at least
 * twice n), probed linearly from the name's hash (exo_names_hash). */
typedef struct ini_names {
  uint64_t n, mask;
  uint8_t *names;
  uint64_t *off;   /* n + 1: name v is names[off[v] .. off[v + 1] - 1) */
  uint64_t *slot;  /* mask + 1 slots: 0 empty, else a node id + 1 */
} ini_names;

static void names_free(ini_names *t) {
  free(t->names);
  free(t->off);
  free(t->slot);
  memset(t, 0, sizeof *t);
}

static exo_status names_load(ini_names *t, const char *names_path, uint64_t n, exo_ctx *ctx) {
  memset(t, 0, sizeof *t);
  t->n = n;
  uint64_t slots = 16, v;
  while (slots < 2 * n) slots *= 2;
  t->mask = slots - 1;
  exo_status st = exo_names_file_read(names_path, n, &t->names, &t->off,
                                      "the graph's names, to read the previous clustering", ctx);
  if (st) return st;
  t->slot = calloc((size_t)slots, sizeof *t->slot);
  if (!t->slot) {
    names_free(t);
    return exo_fail_oom(ctx, "the graph's names, to read the previous clustering", 8 * slots);
  }
  for (v = 0; !st && v < n; v++) { /* the names are distinct: no lookup */
    const exo_name_hash h =
        exo_names_hash(t->names + t->off[v], (size_t)(t->off[v + 1] - t->off[v] - 1));
    uint64_t k = h.h1 & t->mask;
    while (t->slot[k]) k = (k + 1) & t->mask;
    t->slot[k] = v + 1;
    if ((v & (INI_POLL - 1)) == INI_POLL - 1) st = exo_poll(ctx);
  }
  if (st) names_free(t);
  return st;
}

/* The node named name[0..len), or UINT64_MAX. */
static uint64_t find_name(const ini_names *t, const uint8_t *name, size_t len) {
  const exo_name_hash h = exo_names_hash(name, len);
  for (uint64_t k = h.h1 & t->mask;; k = (k + 1) & t->mask) {
    const uint64_t s = t->slot[k];
    if (!s) return UINT64_MAX;
    const uint64_t v = s - 1, lv = t->off[v + 1] - t->off[v] - 1;
    if (lv == len && (!len || !memcmp(t->names + t->off[v], name, len))) return v;
  }
}

/* A whole number from 1 to EXO_INITIAL_MAX_ID, digits only; 0 when not. */
static uint64_t parse_id(const uint8_t *p, size_t n) {
  if (n == 0 || n > 16) return 0;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] < '0' || p[i] > '9') return 0;
    v = v * 10 + (uint64_t)(p[i] - '0');
  }
  return v <= EXO_INITIAL_MAX_ID ? v : 0;
}

typedef struct ini_read {
  exo_initial *out;
  const ini_names *bn;
  exo_nameset *absent; /* names the graph lacks, to find them listed twice */
  uint64_t *line_of;   /* the line that listed node v (in initial[], reused) */
  const char *path;
  char sep;
} ini_read;

static exo_status one_line(ini_read *r, const uint8_t *p, size_t len, uint64_t line,
                           exo_ctx *ctx) {
  if (line == 1 && len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
    p += 3;
    len -= 3;
  }
  if (len && p[len - 1] == '\r') len--;
  if (len == 0) return EXO_OK; /* blank */
  const uint8_t *s = memchr(p, (unsigned char)r->sep, len);
  if (!s)
    return EXO_FAIL(ctx, EXO_EINPUT, "'%s' line %llu: no separator (0x%02x) between a name "
                    "and a cluster", r->path, (unsigned long long)line,
                    (unsigned)(unsigned char)r->sep);
  const size_t nl = (size_t)(s - p), cl = len - nl - 1;
  const uint8_t *c = s + 1;
  if (line == 1 && nl == 6 && !memcmp(p, "Vertex", 6) && cl == 7 && !memcmp(c, "Cluster", 7))
    return EXO_OK; /* the header R writes */
  uint64_t id = parse_id(c, cl);
  if (!id) {
    char shown[40];
    size_t k = cl < sizeof shown - 4 ? cl : sizeof shown - 4;
    memcpy(shown, c, k);
    shown[k] = 0;
    if (k < cl) strcpy(shown + k, "...");
    for (char *q = shown; *q; q++)
      if ((unsigned char)*q < 32) *q = '?';
    return EXO_FAIL(ctx, EXO_EINPUT, "'%s' line %llu: the cluster '%s' is not a whole number "
                    "from 1 to %llu", r->path, (unsigned long long)line, shown,
                    (unsigned long long)EXO_INITIAL_MAX_ID);
  }
  if (nl == 0)
    return EXO_FAIL(ctx, EXO_EINPUT, "'%s' line %llu: empty name", r->path,
                    (unsigned long long)line);
  exo_initial *o = r->out;
  o->lines++;
  if (id > o->max_old) o->max_old = id;
  uint64_t v = find_name(r->bn, p, nl);
  if (v == UINT64_MAX) {
    uint64_t before = exo_nameset_count(r->absent);
    exo_status st = exo_nameset_add(r->absent, p, nl, ctx);
    if (st) return st;
    if (exo_nameset_count(r->absent) == before)
      return EXO_FAIL(ctx, EXO_EINPUT, "'%s' line %llu: the name '%.*s' is listed twice",
                      r->path, (unsigned long long)line, (int)(nl < 200 ? nl : 200), p);
    if (!o->missing) {
      size_t k = nl < EXO_INITIAL_MISSING_MAX - 1 ? nl : EXO_INITIAL_MISSING_MAX - 1;
      memcpy(o->first_missing, p, k);
      o->first_missing[k] = 0;
    }
    o->missing++;
    return EXO_OK;
  }
  if (o->stable_old[v])
    return EXO_FAIL(ctx, EXO_EINPUT, "'%s' line %llu: the name '%.*s' is listed twice (line "
                    "%llu too)", r->path, (unsigned long long)line, (int)(nl < 200 ? nl : 200),
                    p, (unsigned long long)r->line_of[v]);
  o->stable_old[v] = id;
  r->line_of[v] = line;
  o->listed++;
  return EXO_OK;
}

/* Every line of the file to one_line (a line longer than 64 MiB is an
 * error). */
static exo_status read_lines(ini_read *r, exo_ctx *ctx) {
  exo_input *in = NULL;
  uint8_t *buf = malloc(INI_BUF), *carry = NULL;
  size_t clen = 0, ccap = 0;
  if (!buf) return exo_fail_oom(ctx, "the previous clustering's buffer", INI_BUF);
  exo_status st = exo_input_open(&in, r->path, ctx);
  uint64_t line = 0;
  while (!st) {
    size_t got = 0;
    st = exo_input_read(in, buf, INI_BUF, &got, ctx);
    if (st) break;
    if (!got) {
      if (clen) st = one_line(r, carry, clen, ++line, ctx);
      break;
    }
    size_t pos = 0;
    while (!st && pos < got) {
      const uint8_t *nl = memchr(buf + pos, '\n', got - pos);
      size_t piece = nl ? (size_t)(nl - (buf + pos)) : got - pos;
      if (!nl || clen) { /* a line across buffers: gather it */
        if (clen + piece > INI_MAX_LINE) {
          st = EXO_FAIL(ctx, EXO_ELIMIT, "'%s' line %llu: the line is longer than 64 MiB",
                        r->path, (unsigned long long)line + 1);
          break;
        }
        if (clen + piece > ccap) {
          size_t cap = ccap ? ccap : 256;
          while (cap < clen + piece) cap *= 2;
          uint8_t *q = realloc(carry, cap);
          if (!q) {
            st = exo_fail_oom(ctx, "a line of the previous clustering", cap);
            break;
          }
          carry = q;
          ccap = cap;
        }
        memcpy(carry + clen, buf + pos, piece);
        clen += piece;
        if (nl) {
          st = one_line(r, carry, clen, ++line, ctx);
          clen = 0;
        }
      } else {
        st = one_line(r, buf + pos, piece, ++line, ctx);
      }
      pos += piece + (nl ? 1 : 0);
      if (!st && (line & (INI_POLL - 1)) == 0) st = exo_poll(ctx);
    }
  }
  exo_input_close(in);
  free(buf);
  free(carry);
  return st;
}

static int pair_cmp(const void *a, const void *b) {
  const uint64_t *x = a, *y = b;
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  if (x[1] != y[1]) return x[1] < y[1] ? -1 : 1;
  return 0;
}

/* initial[] from stable_old[]: a sort of (old, node) pairs. */
static exo_status make_initial(exo_initial *o, exo_ctx *ctx) {
  const uint64_t n = o->n;
  for (uint64_t v = 0; v < n; v++) o->initial[v] = v;
  if (!o->listed) return EXO_OK;
  uint64_t *pairs = malloc((size_t)o->listed * 2 * sizeof *pairs);
  if (!pairs) return exo_fail_oom(ctx, "the previous clustering's pairs", o->listed * 16);
  uint64_t m = 0;
  for (uint64_t v = 0; v < n; v++)
    if (o->stable_old[v]) {
      pairs[2 * m] = o->stable_old[v];
      pairs[2 * m + 1] = v;
      m++;
    }
  qsort(pairs, (size_t)m, 2 * sizeof *pairs, pair_cmp);
  uint64_t first = 0;
  for (uint64_t i = 0; i < m; i++) {
    if (i == 0 || pairs[2 * i] != pairs[2 * i - 2]) {
      first = pairs[2 * i + 1];
      o->clusters++;
    }
    o->initial[pairs[2 * i + 1]] = first;
  }
  free(pairs);
  return EXO_OK;
}

exo_status exo_initial_read(exo_initial *out, const char *path, char sep,
                            const char *names_path, uint64_t n, exo_ctx *ctx) {
  const double t0 = exo_now_seconds();
  memset(out, 0, sizeof *out);
  out->n = n;
  out->stable_old = calloc((size_t)n + 1, sizeof *out->stable_old);
  out->initial = calloc((size_t)n + 1, sizeof *out->initial);
  if (!out->stable_old || !out->initial) {
    exo_initial_free(out);
    return exo_fail_oom(ctx, "the previous clustering (16 bytes per node)", 16 * n);
  }
  ini_names bn;
  exo_status st = names_load(&bn, names_path, n, ctx);
  if (st) {
    exo_initial_free(out);
    return st;
  }
  ini_read r = {out, &bn, NULL, out->initial, path, sep};
  st = exo_nameset_create(&r.absent, ctx);
  if (!st) st = read_lines(&r, ctx);
  exo_nameset_free(r.absent);
  names_free(&bn);
  if (!st) st = make_initial(out, ctx);
  if (st) {
    exo_initial_free(out);
    return st;
  }
  out->seconds = exo_now_seconds() - t0;
  exo_message(ctx, "previous clustering %s: %llu of the graph's %llu nodes in %llu clusters, "
              "%llu name(s) not in the graph (%.1f s)", path, (unsigned long long)out->listed,
              (unsigned long long)n, (unsigned long long)out->clusters,
              (unsigned long long)out->missing, out->seconds);
  return EXO_OK;
}

exo_status exo_stable_ids(const uint64_t *clusters, uint64_t n, uint64_t k,
                          const uint64_t *old, uint64_t old_max, uint64_t *ids,
                          exo_stable_counts *counts, exo_ctx *ctx) {
  memset(counts, 0, sizeof *counts);
  uint64_t m = 0;
  for (uint64_t v = 0; v < n; v++) {
    if (!old[v]) continue;
    m++;
    if (old[v] > old_max) old_max = old[v];
  }
  if (old_max > UINT64_MAX - k)
    return EXO_FAIL(ctx, EXO_ELIMIT, "stable cluster ids: %llu new clusters do not fit above "
                    "the old ids' largest, %llu", (unsigned long long)k,
                    (unsigned long long)old_max);
  uint64_t *best = calloc((size_t)k + 1, sizeof *best);
  uint64_t *pairs = m ? malloc((size_t)m * 2 * sizeof *pairs) : NULL;
  if (!best || (m && !pairs)) {
    free(best);
    free(pairs);
    return exo_fail_oom(ctx, "the stable cluster ids", 16 * m + 8 * k);
  }
  memset(ids, 0, ((size_t)k + 1) * sizeof *ids);
  m = 0;
  for (uint64_t v = 0; v < n; v++)
    if (old[v]) {
      pairs[2 * m] = old[v];
      pairs[2 * m + 1] = clusters[v];
      m++;
    }
  if (m) qsort(pairs, (size_t)m, 2 * sizeof *pairs, pair_cmp);
  /* every old cluster in increasing id: its majority holder, which takes
   * its id if it holds more of it than of any earlier one (ties: the
   * smaller old id, seen first) */
  uint64_t olds = 0, holders = 0;
  for (uint64_t i = 0; i < m;) {
    uint64_t a = pairs[2 * i], end = i;
    while (end < m && pairs[2 * end] == a) end++;
    const uint64_t total = end - i;
    olds++;
    for (uint64_t j = i; j < end;) {
      uint64_t c = pairs[2 * j + 1], e = j;
      while (e < end && pairs[2 * e + 1] == c) e++;
      const uint64_t x = e - j;
      if (2 * x > total) {
        holders++;
        if (x > best[c]) {
          best[c] = x;
          ids[c] = a;
        }
      }
      j = e;
    }
    i = end;
  }
  free(pairs);
  free(best);
  uint64_t next = old_max;
  for (uint64_t c = 1; c <= k; c++) {
    if (ids[c]) {
      counts->kept++;
    } else {
      ids[c] = ++next;
      counts->fresh++;
    }
  }
  counts->merged = holders - counts->kept;
  counts->split = olds - holders;
  for (uint64_t v = 0; v < n; v++)
    if (old[v] && ids[clusters[v]] != old[v]) counts->moved++;
  return EXO_OK;
}

exo_status exo_stable_order(uint64_t *clusters, uint64_t n, uint64_t k, uint64_t *ids,
                            exo_ctx *ctx) {
  uint64_t *pairs = malloc(((size_t)k + 1) * 2 * sizeof *pairs);
  if (!pairs) return exo_fail_oom(ctx, "the stable cluster ids' order", 16 * (k + 1));
  for (uint64_t c = 1; c <= k; c++) {
    pairs[2 * c] = ids[c];
    pairs[2 * c + 1] = c;
  }
  if (k) qsort(pairs + 2, (size_t)k, 2 * sizeof *pairs, pair_cmp);
  /* rank of cluster c, in pairs[2 * c] (its id moves to ids[rank]) */
  for (uint64_t r = 1; r <= k; r++) ids[r] = pairs[2 * r];
  for (uint64_t r = 1; r <= k; r++) pairs[2 * pairs[2 * r + 1]] = r;
  for (uint64_t v = 0; v < n; v++) clusters[v] = pairs[2 * clusters[v]];
  free(pairs);
  return EXO_OK;
}
