/* exo_seqs.c: sequence files, name sets and the representatives' FASTA (see
 * exo_seqs.h). */
#include "exo_seqs.h"

#include <stdlib.h>
#include <string.h>

#include "exo_input.h"
#include "exo_io.h"
#include "exo_names.h"

#define SEQ_BUF ((size_t)1 << 20)
#define SEQ_MAX_NAME ((size_t)64 << 20)
#define SEQ_POLL_LINES ((uint64_t)1 << 16)

/* ---- lines, in pieces -------------------------------------------------- */

typedef struct lscan {
  exo_input *in;
  uint8_t *buf;
  size_t pos, end;
  int eof;
} lscan;

/* The next piece of the current line (without its '\n'): *eol when it ends
 * the line. At the end of the input: *len == 0, *eol == 0, s->eof. */
static exo_status lscan_next(lscan *s, const uint8_t **p, size_t *len, int *eol,
                             exo_ctx *ctx) {
  *len = 0;
  *eol = 0;
  *p = NULL;
  if (s->pos == s->end) {
    if (s->eof) return EXO_OK;
    size_t got = 0;
    exo_status st = exo_input_read(s->in, s->buf, SEQ_BUF, &got, ctx);
    if (st) return st;
    s->pos = 0;
    s->end = got;
    if (!got) {
      s->eof = 1;
      return EXO_OK;
    }
  }
  const uint8_t *start = s->buf + s->pos;
  const uint8_t *nl = memchr(start, '\n', s->end - s->pos);
  if (nl) {
    *len = (size_t)(nl - start);
    *eol = 1;
    s->pos += *len + 1;
  } else {
    *len = s->end - s->pos;
    s->pos = s->end;
  }
  *p = start;
  return EXO_OK;
}

static exo_status lscan_open(lscan *s, const char *path, exo_ctx *ctx) {
  memset(s, 0, sizeof *s);
  s->buf = malloc(SEQ_BUF);
  if (!s->buf) return exo_fail_oom(ctx, "the sequence file's buffer", SEQ_BUF);
  exo_status st = exo_input_open(&s->in, path, ctx);
  if (st) {
    free(s->buf);
    s->buf = NULL;
  }
  return st;
}

static void lscan_close(lscan *s) {
  exo_input_close(s->in);
  free(s->buf);
  memset(s, 0, sizeof *s);
}

/* A growing line buffer. */
typedef struct linebuf {
  uint8_t *p;
  size_t len, cap;
} linebuf;

static exo_status linebuf_add(linebuf *b, const uint8_t *p, size_t n, const char *path,
                              uint64_t line, exo_ctx *ctx) {
  if (b->len + n > SEQ_MAX_NAME)
    return EXO_FAIL(ctx, EXO_ELIMIT, "'%s' line %llu: the line is longer than 64 MiB", path,
                    (unsigned long long)line);
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n) cap *= 2;
    uint8_t *q = realloc(b->p, cap);
    if (!q) return exo_fail_oom(ctx, "a line of the sequence file", cap);
    b->p = q;
    b->cap = cap;
  }
  if (n) memcpy(b->p + b->len, p, n);
  b->len += n;
  return EXO_OK;
}

static int is_blank(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r') return 0;
  return 1;
}

/* A line's bytes without the byte-order mark (first line) and a final CR. */
static void trim_line(const uint8_t **p, size_t *n, uint64_t line) {
  if (line == 1 && *n >= 3 && (*p)[0] == 0xEF && (*p)[1] == 0xBB && (*p)[2] == 0xBF) {
    *p += 3;
    *n -= 3;
  }
  if (*n && (*p)[*n - 1] == '\r') (*n)--;
}

/* The name of a FASTA header line (starting with '>'). */
static size_t header_name(const uint8_t *p, size_t n) {
  size_t k = 1;
  while (k < n && p[k] != ' ' && p[k] != '\t') k++;
  return k - 1;
}

/* ---- reading the names ------------------------------------------------- */

exo_status exo_seqs_read(const char *path, exo_seqs_fn fn, void *user,
                         exo_seqs_stats *stats, exo_ctx *ctx) {
  if (stats) memset(stats, 0, sizeof *stats);
  if (!path || !fn) return EXO_FAIL(ctx, EXO_EARG, "exo_seqs_read: NULL argument");
  lscan s;
  exo_status st = lscan_open(&s, path, ctx);
  if (st) return st;
  linebuf lb = {0};
  int mode = -1; /* -1 unknown, 1 FASTA, 0 list */
  uint64_t line = 1, names = 0;
  int at_start = 1, keep = 1; /* at a line's start; this line is collected */
  for (;;) {
    const uint8_t *p;
    size_t n;
    int eol;
    st = lscan_next(&s, &p, &n, &eol, ctx);
    if (st) break;
    const int end = !n && !eol && s.eof;
    if (end && at_start) break;
    if (at_start) keep = mode != 1 || (n > 0 && p[0] == '>');
    at_start = 0;
    if (keep && n && (st = linebuf_add(&lb, p, n, path, line, ctx)) != EXO_OK) break;
    if (!eol && !end) continue;
    /* a whole line */
    if (keep) {
      const uint8_t *q = lb.p;
      size_t len = lb.len;
      trim_line(&q, &len, line);
      if (mode < 0 && !is_blank(q, len)) mode = q[0] == '>';
      if (mode == 1 && len && q[0] == '>') {
        size_t k = header_name(q, len);
        if (k == 0) {
          st = EXO_FAIL(ctx, EXO_EINPUT, "'%s' line %llu: a FASTA header without a name",
                        path, (unsigned long long)line);
          break;
        }
        q++;
        len = k;
      } else if (mode != 0 || is_blank(q, len)) {
        len = 0;
      }
      if (len) {
        if (memchr(q, '\0', len)) {
          st = EXO_FAIL(ctx, EXO_EINPUT, "'%s' line %llu: the name contains a NUL byte", path,
                        (unsigned long long)line);
          break;
        }
        names++;
        st = fn(user, q, len, line, ctx);
        if (st) break;
      }
    }
    lb.len = 0;
    at_start = 1;
    if (end) break;
    if ((++line & (SEQ_POLL_LINES - 1)) == 0 && (st = exo_poll(ctx)) != EXO_OK) break;
  }
  lscan_close(&s);
  free(lb.p);
  if (stats) {
    stats->fasta = mode == 1;
    stats->names = names;
  }
  return st;
}

/* ---- name sets --------------------------------------------------------- */

#define TAKEN ((uint64_t)1 << 63)

typedef struct set_slot {
  uint64_t h1, h2; /* h1 == 0: empty; h2's top bit: taken */
} set_slot;

struct exo_nameset {
  set_slot *slot;
  uint64_t cap, count; /* cap: a power of two */
};

static void key_of(const uint8_t *name, size_t len, uint64_t *h1, uint64_t *h2) {
  exo_name_hash h = exo_names_hash(name, len);
  *h1 = h.h1 | 1;
  *h2 = h.h2 & ~TAKEN;
}

exo_status exo_nameset_create(exo_nameset **out, exo_ctx *ctx) {
  *out = NULL;
  exo_nameset *s = calloc(1, sizeof *s);
  if (s) s->slot = calloc(1024, sizeof *s->slot);
  if (!s || !s->slot) {
    free(s);
    return exo_fail_oom(ctx, "a name set", 1024 * sizeof(set_slot));
  }
  s->cap = 1024;
  *out = s;
  return EXO_OK;
}

static set_slot *find(const exo_nameset *s, uint64_t h1, uint64_t h2) {
  uint64_t mask = s->cap - 1, i = h1 & mask;
  for (;;) {
    set_slot *e = &s->slot[i];
    if (e->h1 == 0 || (e->h1 == h1 && (e->h2 & ~TAKEN) == h2)) return e;
    i = (i + 1) & mask;
  }
}

exo_status exo_nameset_add(exo_nameset *s, const uint8_t *name, size_t len, exo_ctx *ctx) {
  if (2 * (s->count + 1) > s->cap) {
    uint64_t cap = s->cap * 2;
    set_slot *slot = calloc((size_t)cap, sizeof *slot);
    if (!slot) return exo_fail_oom(ctx, "a name set", cap * sizeof *slot);
    exo_nameset old = *s;
    s->slot = slot;
    s->cap = cap;
    for (uint64_t i = 0; i < old.cap; i++)
      if (old.slot[i].h1) *find(s, old.slot[i].h1, old.slot[i].h2 & ~TAKEN) = old.slot[i];
    free(old.slot);
  }
  uint64_t h1, h2;
  key_of(name, len, &h1, &h2);
  set_slot *e = find(s, h1, h2);
  if (!e->h1) {
    e->h1 = h1;
    e->h2 = h2;
    s->count++;
  }
  return EXO_OK;
}

int exo_nameset_take(exo_nameset *s, const uint8_t *name, size_t len) {
  uint64_t h1, h2;
  key_of(name, len, &h1, &h2);
  set_slot *e = find(s, h1, h2);
  if (!e->h1 || (e->h2 & TAKEN)) return 0;
  e->h2 |= TAKEN;
  return 1;
}

uint64_t exo_nameset_count(const exo_nameset *s) { return s ? s->count : 0; }

void exo_nameset_free(exo_nameset *s) {
  if (!s) return;
  free(s->slot);
  free(s);
}

/* ---- the representatives' FASTA ---------------------------------------- */

exo_status exo_fasta_select(const char *fasta, exo_nameset *set, const char *out_path,
                            exo_pending *pending, uint64_t *written, exo_ctx *ctx) {
  if (pending) *pending = (exo_pending)EXO_PENDING_INIT;
  if (written) *written = 0;
  if (!fasta || !set || !out_path)
    return EXO_FAIL(ctx, EXO_EARG, "exo_fasta_select: NULL argument");
  uint64_t ident[2];
  int kind = 0;
  if (exo_path_identity(out_path, ident, &kind) == 0 && kind == EXO_FILE_DIR)
    return EXO_FAIL(ctx, EXO_EARG, "the FASTA output '%s' is a directory", out_path);
  lscan s;
  exo_status st = lscan_open(&s, fasta, ctx);
  if (st) return st;
  exo_outfile o;
  st = exo_outfile_open(&o, out_path, SEQ_BUF, ctx);
  if (st) {
    lscan_close(&s);
    return st;
  }
  linebuf lb = {0};
  uint64_t line = 1, count = 0;
  int at_start = 1, header = 0, emit = 0, seen = 0; /* seen: a non-blank line */
  for (;;) {
    const uint8_t *p;
    size_t n;
    int eol;
    st = lscan_next(&s, &p, &n, &eol, ctx);
    if (st) break;
    const int end = !n && !eol && s.eof;
    if (end && at_start) break;
    if (at_start) {
      const uint8_t *q = p;
      size_t k = n;
      if (line == 1 && k >= 3 && q[0] == 0xEF && q[1] == 0xBB && q[2] == 0xBF) {
        q += 3;
        k -= 3;
      }
      header = k > 0 && q[0] == '>';
      if (!header && !seen && !is_blank(q, k)) {
        st = EXO_FAIL(ctx, EXO_EINPUT,
                      "'%s' is not a FASTA file (line %llu does not start with '>'): the "
                      "representatives' sequences need the sequences as FASTA",
                      fasta, (unsigned long long)line);
        break;
      }
      if (header) seen = 1;
    }
    at_start = 0;
    if (header) {
      if (n && (st = linebuf_add(&lb, p, n, fasta, line, ctx)) != EXO_OK) break;
    } else if (emit && n) {
      st = exo_writer_write(&o.w, p, n, ctx);
      if (st) break;
    }
    if (!eol && !end) continue;
    if (header) {
      const uint8_t *q = lb.p;
      size_t len = lb.len;
      trim_line(&q, &len, line);
      size_t k = header_name(q, len);
      emit = k > 0 && exo_nameset_take(set, q + 1, k);
      if (emit) {
        count++;
        st = exo_writer_write(&o.w, lb.p + (q - lb.p), lb.len - (size_t)(q - lb.p), ctx);
        if (!st) st = exo_writer_write(&o.w, "\n", 1, ctx);
      }
      lb.len = 0;
    } else if (emit) {
      st = exo_writer_write(&o.w, "\n", 1, ctx);
    }
    if (st) break;
    at_start = 1;
    if (end) break;
    if ((++line & (SEQ_POLL_LINES - 1)) == 0 && (st = exo_poll(ctx)) != EXO_OK) break;
  }
  lscan_close(&s);
  free(lb.p);
  if (!st) st = exo_outfile_finish(&o, pending, ctx);
  else exo_outfile_abort(&o);
  if (!st && written) *written = count;
  return st;
}
