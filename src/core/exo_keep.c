/* exo_keep.c: see exo_keep.h. */
#include "exo_keep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exo_io.h"
#include "exo_platform.h"
#include "exo_record.h"
#include "exo_regions.h"
#include "exo_sum.h"

#define KEEP_BUF ((size_t)1 << 20)

static const char *const role_name[EXO_KEEP_FILES] = {"names", "offsets", "adjacency", "hits",
                                                      "intervals_offsets",
                                                      "intervals_adjacency"};

/* ---- the checksum (exo_sum.h) ------------------------------------------- */

void exo_keep_sum_init(exo_keep_sum *s) { memset(s, 0, sizeof *s); }

void exo_keep_sum_add(exo_keep_sum *s, const void *data, size_t n) {
  const uint8_t *p = data;
  while (s->nt && n) { /* complete the word begun by the last call */
    s->tail[s->nt++] = *p++;
    n--;
    s->n++;
    if (s->nt == 4) {
      s->h += exo_sum_words(s->tail, 1, (s->n - 4) / 4);
      s->nt = 0;
    }
  }
  const size_t words = n / 4;
  s->h += exo_sum_words(p, words, s->n / 4);
  s->n += 4 * (uint64_t)words;
  p += 4 * words;
  n -= 4 * words;
  for (; n; n--, s->n++) s->tail[s->nt++] = *p++;
}

uint64_t exo_keep_sum_final(const exo_keep_sum *s) {
  uint64_t h = s->h;
  if (s->nt) {
    uint8_t w[4] = {0, 0, 0, 0};
    memcpy(w, s->tail, s->nt);
    h += exo_sum_words(w, 1, s->n / 4);
  }
  return exo_sum_close(h, s->n);
}

/* ---- the options ---------------------------------------------------------- */

void exo_keep_option_text(const exo_build_options *opt, int i, const char **name, char *value,
                          size_t len) {
  const exo_parse_options *p = &opt->parse;
  static const char *const names[EXO_KEEP_OPTIONS] = {
      "mode", "format", "columns", "weight_transform", "ignore_weights", "min_weight",
      "self_hits", "combine", "bridges", "coordinates", "header", "sep"};
  static const char *const wt[] = {"none", "neglog10", "selfnorm"};
  *name = names[i];
  switch (i) {
  case 0: snprintf(value, len, "%s", opt->directed ? "directed" : "undirected"); break;
  case 1: snprintf(value, len, "%s", p->comment == '#' ? "blast" : "edges"); break;
  case 2:
    snprintf(value, len, "%u,%u,%u%s", (unsigned)(p->col_a ? p->col_a : 1),
             (unsigned)(p->col_b ? p->col_b : 2),
             (unsigned)(p->col_a || p->col_b || p->col_w ? p->col_w : 3),
             p->by_name ? "(header-named)" : "");
    break;
  case 9:
    snprintf(value, len, "%u,%u,%u,%u", (unsigned)p->col_iv[0], (unsigned)p->col_iv[1],
             (unsigned)p->col_iv[2], (unsigned)p->col_iv[3]);
    break;
  case 3:
    snprintf(value, len, "%s", (unsigned)p->transform < 3 ? wt[p->transform] : "unknown");
    break;
  case 4: snprintf(value, len, "%s", p->ignore_weights ? "true" : "false"); break;
  case 5: snprintf(value, len, "%.9g", opt->min_weight > 0 ? (double)opt->min_weight : 0.0); break;
  case 6: snprintf(value, len, "%s", opt->drop_self_loops ? "drop" : "keep"); break;
  case 7:
    snprintf(value, len, "%s", opt->combine == EXO_COMBINE_MAX   ? "max"
                               : opt->combine == EXO_COMBINE_SUM ? "sum-folded"
                                                                 : "sum");
    break;
  case 8:
    snprintf(value, len, "%s", opt->regions && opt->weak_hits ? "cut"
                               : opt->regions                 ? "regions"
                               : opt->weak_hits               ? "weak-hits"
                                                              : "keep");
    break;
  case 10: snprintf(value, len, "%llu", (unsigned long long)p->header_lines); break;
  default: snprintf(value, len, "0x%02x", (unsigned)(unsigned char)p->sep); break;
  }
}

/* ---- reading a manifest -------------------------------------------------------- */

void exo_kept_free(exo_kept *k) {
  if (!k) return;
  free(k->dir);
  for (int r = 0; r < EXO_KEEP_FILES; r++) free(k->path[r]);
  memset(k, 0, sizeof *k);
}

static exo_status corrupt(const char *mpath, unsigned line, const char *what, exo_ctx *ctx) {
  return EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's manifest '%s' is corrupt (line %u: %s)",
                  mpath, line, what);
}

/* Read the whole (small) manifest into a NUL-terminated buffer. */
static exo_status read_small(const char *path, char **out, exo_ctx *ctx) {
  *out = NULL;
  uint64_t size = 0;
  int kind = 0;
  if (exo_path_stat(path, &size, &kind) != 0 || kind != EXO_FILE_REGULAR)
    return EXO_FAIL(ctx, EXO_EARG, "'%s' is missing or not a file", path);
  if (size > 65536) return EXO_FAIL(ctx, EXO_EINPUT, "the manifest '%s' is too large", path);
  char *buf = malloc((size_t)size + 1);
  if (!buf) return exo_fail_oom(ctx, "the manifest", size + 1);
  int fd = exo_open(path, EXO_OPEN_READ);
  if (fd < 0) {
    free(buf);
    return exo_error_errno(&ctx->err, errno, "open", path);
  }
  exo_status st = exo_pread_full(fd, buf, (size_t)size, 0, path, ctx);
  exo_close(fd);
  if (st) {
    free(buf);
    return st;
  }
  buf[size] = 0;
  if (memchr(buf, 0, (size_t)size)) {
    free(buf);
    return EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's manifest '%s' is corrupt (a NUL byte)",
                    path);
  }
  *out = buf;
  return EXO_OK;
}

/* A whole decimal number: 0, or -1 when s is not one. */
static int parse_u64(const char *s, uint64_t *v) {
  if (*s < '0' || *s > '9') return -1;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 10);
  if (*end || errno) return -1;
  *v = (uint64_t)x;
  return 0;
}

exo_status exo_kept_open(const char *dir, const char *what, exo_kept *k, exo_ctx *ctx) {
  memset(k, 0, sizeof *k);
  uint64_t size;
  int kind = 0;
  if (exo_path_stat(dir, &size, &kind) != 0)
    return EXO_FAIL(ctx, EXO_EARG, "%s '%s' does not exist", what, dir);
  if (kind != EXO_FILE_DIR)
    return EXO_FAIL(ctx, EXO_EARG, "%s '%s' is not a directory (a kept graph is one)", what, dir);
  char *mpath = exo_path_join(dir, "manifest");
  k->dir = exo_path_join(dir, "");
  if (!mpath || !k->dir) {
    free(mpath);
    exo_kept_free(k);
    return exo_fail_oom(ctx, "the kept graph's paths", 0);
  }
  k->dir[strlen(k->dir) - 1] = 0;
  if (exo_path_stat(mpath, &size, &kind) != 0) {
    exo_status st = EXO_FAIL(ctx, EXO_EARG, "%s '%s' is not a kept graph: it has no manifest "
                             "(keep one with keep_graph)", what, dir);
    free(mpath);
    exo_kept_free(k);
    return st;
  }
  char *text = NULL;
  exo_status st = read_small(mpath, &text, ctx);
  unsigned line = 0, nopt = 0, stage = 0;
  int ended = 0;
  char *save = text;
  for (char *l = text; !st && l && *l && !ended;) {
    char *nl = strchr(l, '\n');
    if (!nl) {
      st = corrupt(mpath, line + 1, "the last line has no line end", ctx);
      break;
    }
    *nl = 0;
    line++;
    char key[32], a[128], b[128];
    unsigned long long x = 0, y = 0;
    char z[32];
    if (line == 1) {
      if (sscanf(l, "exolabel-graph %llu", &x) != 1)
        st = corrupt(mpath, line, "not a kept graph's manifest", ctx);
      else if (x != EXO_KEEP_VERSION)
        st = EXO_FAIL(ctx, EXO_EINPUT, "the kept graph '%s' has format version %llu; this "
                      "version of ExoLabel reads version %d: build it again with keep_graph",
                      dir, x, EXO_KEEP_VERSION);
    } else if (!strcmp(l, "end")) {
      ended = 1;
    } else if (sscanf(l, "option %31s %95s", key, a) == 2) {
      const char *nm;
      char dummy[8];
      exo_build_options o0;
      memset(&o0, 0, sizeof o0);
      if (nopt >= EXO_KEEP_OPTIONS) {
        st = corrupt(mpath, line, "too many options", ctx);
        break;
      }
      exo_keep_option_text(&o0, (int)nopt, &nm, dummy, sizeof dummy);
      if (strcmp(nm, key)) {
        st = corrupt(mpath, line, "an option out of order", ctx);
        break;
      }
      snprintf(k->opt[nopt++], sizeof k->opt[0], "%s", a);
    } else if (sscanf(l, "file %31s %127s %llu %31s", key, a, &x, z) == 4) {
      int r = 0;
      while (r < EXO_KEEP_FILES && strcmp(role_name[r], key)) r++;
      char *end;
      unsigned long long sum = strtoull(z, &end, 16);
      if (r == EXO_KEEP_FILES || k->path[r] || *end || strlen(z) != 16 || strchr(a, '/') ||
          strchr(a, '\\') || a[0] == '.') {
        st = corrupt(mpath, line, "a bad file line", ctx);
        break;
      }
      k->path[r] = exo_path_join(dir, a);
      if (!k->path[r]) {
        st = exo_fail_oom(ctx, "the kept graph's paths", 0);
        break;
      }
      k->size[r] = x;
      k->sum[r] = sum;
    } else if (sscanf(l, "%31s %127s %127s", key, a, b) == 2 && !parse_u64(a, (uint64_t *)&y)) {
      if (!strcmp(key, "generation")) k->generation = y, stage |= 1;
      else if (!strcmp(key, "nodes")) k->nodes = y, stage |= 2;
      else if (!strcmp(key, "arcs")) k->arcs = y, stage |= 4;
      else if (!strcmp(key, "id_width") && (y == 32 || y == 64)) k->wide = y == 64, stage |= 8;
      else if (!strcmp(key, "directed") && y <= 1) k->directed = (int)y, stage |= 16;
      else if (!strcmp(key, "max_coord")) k->max_coord = y, stage |= 32;
      else st = corrupt(mpath, line, "an unknown field", ctx);
    } else {
      st = corrupt(mpath, line, "an unknown line", ctx);
    }
    l = nl + 1;
  }
  free(save);
  if (!st && (!ended || stage != 63 || nopt != EXO_KEEP_OPTIONS || !k->path[EXO_KEEP_NAMES] ||
              !k->path[EXO_KEEP_OFFSETS] || !k->path[EXO_KEEP_ADJ]))
    st = corrupt(mpath, line, "a field is missing", ctx);
  k->has_hits = k->path[EXO_KEEP_HITS] != NULL;
  if (!st && (k->has_hits != (k->path[EXO_KEEP_IVOFF] != NULL) ||
              k->has_hits != (k->path[EXO_KEEP_IVADJ] != NULL)))
    st = corrupt(mpath, line, "the hits file comes with the intervals files", ctx);
  /* the files: there, with the manifest's sizes, which the counts imply */
  for (int r = 0; r < EXO_KEEP_FILES && !st; r++) {
    if (!k->path[r]) continue;
    uint64_t sz = 0;
    int kd = 0;
    if (exo_path_stat(k->path[r], &sz, &kd) != 0 || kd != EXO_FILE_REGULAR) {
      st = EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's %s file '%s' is missing", role_name[r],
                    k->path[r]);
    } else if (sz != k->size[r]) {
      st = EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's %s file '%s' holds %llu bytes, not the "
                    "%llu its manifest says: it is corrupt", role_name[r], k->path[r],
                    (unsigned long long)sz, (unsigned long long)k->size[r]);
    }
  }
  if (!st && (k->size[EXO_KEEP_OFFSETS] != 8 * (k->nodes + 1) ||
              k->size[EXO_KEEP_ADJ] != k->arcs * exo_adj_size(k->wide) ||
              (k->has_hits && (k->size[EXO_KEEP_HITS] % EXO_REGIONS_HIT_BYTES ||
                               k->size[EXO_KEEP_IVOFF] != 8 * (k->nodes + 1) ||
                               k->size[EXO_KEEP_IVADJ] !=
                                   k->size[EXO_KEEP_HITS] / EXO_REGIONS_HIT_BYTES * 2 *
                                       (k->wide ? 3 : 1) * exo_adj_size(1)))))
    st = corrupt(mpath, line, "the file sizes do not fit the counts", ctx);
  free(mpath);
  if (st) exo_kept_free(k);
  return st;
}

exo_status exo_kept_check_options(const exo_kept *k, const exo_build_options *opt,
                                  exo_ctx *ctx) {
  for (int i = 0; i < EXO_KEEP_OPTIONS; i++) {
    const char *nm;
    char v[96];
    exo_keep_option_text(opt, i, &nm, v, sizeof v);
    if (strcmp(v, k->opt[i]))
      return EXO_FAIL(ctx, EXO_EARG, "the kept graph '%s' was built with %s %s, not %s: "
                      "extending a graph needs the options that shaped it (mode, format, "
                      "columns, weight_transform, ignore_weights, min_weight, self_hits, "
                      "combine, bridges, header, sep)", k->dir, nm, k->opt[i], v);
  }
  if (k->directed != opt->directed)
    return EXO_FAIL(ctx, EXO_EARG, "the kept graph '%s' is %s", k->dir,
                    k->directed ? "directed" : "undirected");
  return EXO_OK;
}

exo_status exo_kept_verify(const exo_kept *k, int role, size_t bufsize, exo_ctx *ctx) {
  exo_reader r;
  memset(&r, 0, sizeof r);
  r.fd = -1;
  exo_status st = exo_reader_open(&r, k->path[role], bufsize, 0, UINT64_MAX, 0, ctx);
  exo_keep_sum s;
  exo_keep_sum_init(&s);
  while (!st) {
    const uint8_t *p;
    size_t avail;
    st = exo_reader_peek(&r, bufsize, &p, &avail, ctx);
    if (st || avail == 0) break;
    exo_keep_sum_add(&s, p, avail);
    exo_reader_skip_buffered(&r, avail);
    st = exo_poll(ctx);
  }
  exo_reader_close(&r);
  if (!st && (s.n != k->size[role] || exo_keep_sum_final(&s) != k->sum[role]))
    st = EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's %s file '%s' does not match the checksum "
                  "of its manifest: it is corrupt", role_name[role], k->path[role]);
  return st;
}

/* ---- writing --------------------------------------------------------------------- */

exo_status exo_keep_begin(const char *dir, exo_keep *k, exo_ctx *ctx) {
  memset(k, 0, sizeof *k);
  uint64_t size;
  int kind = 0;
  exo_status st = EXO_OK;
  if (!dir || !*dir) return EXO_FAIL(ctx, EXO_EARG, "keep_graph: no directory given");
  if (exo_path_stat(dir, &size, &kind) != 0) {
    if (exo_make_dir(dir) != 0)
      return exo_error_errno(&ctx->err, errno, "create the keep_graph directory", dir);
    k->made_dir = 1;
  } else if (kind != EXO_FILE_DIR) {
    return EXO_FAIL(ctx, EXO_EARG, "keep_graph '%s' is not a directory: it must be a new or "
                    "empty directory or a kept graph", dir);
  } else {
    char *m = exo_path_join(dir, "manifest");
    if (!m) return exo_fail_oom(ctx, "the kept graph's paths", 0);
    const int has = exo_path_stat(m, &size, &kind) == 0;
    free(m);
    if (has) {
      st = exo_kept_open(dir, "keep_graph", &k->old, ctx);
      if (st) return st;
    } else {
      const int empty = exo_dir_is_empty(dir);
      if (empty != 1)
        return empty < 0 ? exo_error_errno(&ctx->err, errno, "read the directory", dir)
                         : EXO_FAIL(ctx, EXO_EARG, "keep_graph '%s' is neither empty nor a "
                                    "kept graph (it has no manifest): choose a new or empty "
                                    "directory", dir);
    }
  }
  k->dir = exo_path_join(dir, "");
  if (!k->dir) {
    exo_keep_abort(k);
    return exo_fail_oom(ctx, "the kept graph's paths", 0);
  }
  k->dir[strlen(k->dir) - 1] = 0;
  k->generation = k->old.dir ? k->old.generation + 1 : 1;
  return EXO_OK;
}

static char *gen_path(const exo_keep *k, int role) {
  static const char *const ext[EXO_KEEP_FILES] = {"names", "offsets", "adjacency", "hits",
                                                  "ioffsets", "iadjacency"};
  char name[64];
  snprintf(name, sizeof name, "g%llu.%s", (unsigned long long)k->generation, ext[role]);
  return exo_path_join(k->dir, name);
}

exo_status exo_keep_copy(exo_keep *k, int role, const char *src, exo_ctx *ctx) {
  return exo_keep_copy2(k, role, NULL, 0, 0, src, ctx);
}

exo_status exo_keep_copy2(exo_keep *k, int role, const char *first, uint64_t first_size,
                          uint64_t first_sum, const char *src, exo_ctx *ctx) {
  k->path[role] = gen_path(k, role);
  if (!k->path[role]) return exo_fail_oom(ctx, "the kept graph's paths", 0);
  exo_writer w = {.fd = -1};
  exo_keep_sum s;
  exo_keep_sum_init(&s);
  exo_status st = exo_writer_open(&w, k->path[role], KEEP_BUF, ctx);
  for (int f = first ? 0 : 1; f < 2 && !st; f++) {
    exo_reader r;
    memset(&r, 0, sizeof r);
    r.fd = -1;
    exo_keep_sum fs;
    exo_keep_sum_init(&fs);
    st = exo_reader_open(&r, f ? src : first, KEEP_BUF, 0, UINT64_MAX, 0, ctx);
    while (!st) {
      const uint8_t *p;
      size_t avail;
      st = exo_reader_peek(&r, KEEP_BUF, &p, &avail, ctx);
      if (st || avail == 0) break;
      exo_keep_sum_add(&s, p, avail);
      if (!f) exo_keep_sum_add(&fs, p, avail);
      st = exo_writer_write(&w, p, avail, ctx);
      exo_reader_skip_buffered(&r, avail);
      if (!st) st = exo_poll(ctx);
    }
    exo_reader_close(&r);
    if (!st && !f && (fs.n != first_size || exo_keep_sum_final(&fs) != first_sum))
      st = EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's file '%s' does not match the checksum "
                    "of its manifest: it is corrupt", first);
  }
  if (!st) st = exo_writer_close(&w, ctx);
  exo_writer_abort(&w);
  k->size[role] = s.n;
  k->sum[role] = exo_keep_sum_final(&s);
  return st;
}

exo_status exo_keep_commit(exo_keep *k, const exo_build_options *opt, uint64_t nodes,
                           uint64_t arcs, int wide, int directed, uint32_t max_coord,
                           exo_ctx *ctx) {
  char text[8192];
  size_t at = 0;
#define ADD(...) at += (size_t)snprintf(text + at, at < sizeof text ? sizeof text - at : 0, __VA_ARGS__)
  ADD("exolabel-graph %d\ngeneration %llu\nnodes %llu\narcs %llu\nid_width %d\ndirected %d\n"
      "max_coord %u\n", EXO_KEEP_VERSION, (unsigned long long)k->generation,
      (unsigned long long)nodes, (unsigned long long)arcs, wide ? 64 : 32, directed ? 1 : 0,
      (unsigned)max_coord);
  for (int i = 0; i < EXO_KEEP_OPTIONS; i++) {
    const char *nm;
    char v[96];
    exo_keep_option_text(opt, i, &nm, v, sizeof v);
    ADD("option %s %s\n", nm, v);
  }
  for (int r = 0; r < EXO_KEEP_FILES; r++) {
    if (!k->path[r]) continue;
    const char *base = k->path[r] + strlen(k->dir) + 1;
    ADD("file %s %s %llu %016llx\n", role_name[r], base, (unsigned long long)k->size[r],
        (unsigned long long)k->sum[r]);
  }
  ADD("end\n");
#undef ADD
  if (at >= sizeof text) return EXO_FAIL(ctx, EXO_EINTERNAL, "the manifest is too long");
  char *tmp = exo_path_join(k->dir, "manifest.tmp"), *m = exo_path_join(k->dir, "manifest");
  exo_status st = !tmp || !m ? exo_fail_oom(ctx, "the kept graph's paths", 0) : EXO_OK;
  exo_writer w = {.fd = -1};
  if (!st) st = exo_writer_open(&w, tmp, 4096, ctx);
  if (!st) st = exo_writer_write(&w, text, at, ctx);
  if (!st) st = exo_writer_close(&w, ctx);
  exo_writer_abort(&w);
  if (!st && exo_rename_replace(tmp, m) != 0)
    st = exo_error_errno(&ctx->err, errno, "rename the manifest into place", m);
  if (st && tmp) exo_unlink(tmp);
  free(tmp);
  free(m);
  if (st) return st;
  /* the new graph is in place: the old generation's files go */
  for (int r = 0; r < EXO_KEEP_FILES; r++)
    if (k->old.path[r]) exo_unlink(k->old.path[r]);
  exo_kept_free(&k->old);
  for (int r = 0; r < EXO_KEEP_FILES; r++) {
    free(k->path[r]);
    k->path[r] = NULL;
  }
  k->made_dir = 0;
  return EXO_OK;
}

void exo_keep_abort(exo_keep *k) {
  if (!k) return;
  for (int r = 0; r < EXO_KEEP_FILES; r++) {
    if (k->path[r]) exo_unlink(k->path[r]);
    free(k->path[r]);
    k->path[r] = NULL;
  }
  if (k->made_dir && k->dir) (void)exo_remove_dir(k->dir);
  exo_kept_free(&k->old);
  free(k->dir);
  memset(k, 0, sizeof *k);
}
