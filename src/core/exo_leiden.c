/* exo_leiden.c: Leiden on the CSR files (rules and memory in exo_leiden.h):
 * the run (exo_leiden_run), its iterations and levels, the final labels.
 * The stages are in exo_leiden_read.c (the level, its reader), _move.c
 * (local moving), _refine.c (refinement) and _agg.c (aggregation); what
 * crosses them is in the private exo_leiden_int.h.
 * How a pass walks a level (blocks, readers): exo_leiden_int.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "exo_leiden_int.h"

#include <float.h>
#include <stdio.h>

#include "exo_io.h"
#include "exo_output.h"

/* ---- quality -------------------------------------------------------------- */

exo_status exo_leiden_level_quality(exo_leiden_level *lv, double *quality) {
  const uint64_t n = lv->n;
  double *in = ld_as_dbl(lv->x2); /* the empty-id stack is not needed after moving */
  for (uint64_t c = 0; c < n; c++) in[c] = 0.0;
  lv->nfree = 0;
  exo_status s = EXO_OK;
  for (uint64_t first = 0; first < n && !s; first += EXO_LEIDEN_BLOCK) {
    if ((s = ld_load_block(lv, first)) != EXO_OK) return s;
    for (uint64_t v = first; v < first + lv->rd.blk_cnt && !s; v++) {
      uint64_t c = exo_ids_get(&lv->comm, v);
      FOR_ARCS_PF(lv, v, u, w, s, &lv->comm, {
        if (exo_ids_get(&lv->comm, u) == c) in[c] += w;
      });
    }
  }
  if (s) return s;
  double q = 0.0;
  for (uint64_t c = 0; c < n; c++) {
    if (lv->x1[c] == 0) continue;
    double W = lv->tot[c];
    if (lv->p.objective == EXO_LEIDEN_MODULARITY)
      q += lv->total_w > 0.0 ? (in[c] - exo_quality_expected(lv->gp, W, W)) / lv->total_w : 0.0;
    else
      q += in[c] / 2.0 - exo_quality_expected(lv->gp, W, W - 1.0) / 2.0;
  }
  *quality = q;
  return EXO_OK;
}

void exo_leiden_level_partition(const exo_leiden_level *lv, uint64_t *comm,
                                uint64_t *refined) {
  for (uint64_t v = 0; v < lv->n; v++) {
    if (comm) comm[v] = exo_ids_get(&lv->comm, v);
    if (refined) refined[v] = exo_ids_get(&lv->refined, v);
  }
}

/* ---- the whole run ------------------------------------------------------------ */

/* Stream the input nodes' coarse ids (old_path, or the identity when NULL)
 * through the refined ids of lv (coarse ids after aggregation) into
 * new_path. */
static exo_status map_top(exo_leiden_level *lv, const char *old_path, const char *new_path,
                          uint64_t n_input) {
  exo_ctx *ctx = lv->ctx;
  exo_reader r;
  exo_writer w;
  memset(&r, 0, sizeof r);
  memset(&w, 0, sizeof w);
  exo_status s = EXO_OK;
  if (old_path) s = exo_reader_open(&r, old_path, EXO_IO_DEFAULT_BUF, 0, UINT64_MAX, 1, ctx);
  if (!s) s = exo_writer_open(&w, new_path, EXO_IO_DEFAULT_BUF, ctx);
  uint64_t t[4096]; /* a chunk of ids, mapped in place */
  for (uint64_t i = 0; i < n_input && !s; i += 4096) {
    const size_t c = n_input - i < 4096 ? (size_t)(n_input - i) : 4096;
    if (old_path && (s = exo_reader_read(&r, t, c * 8, ctx)) != EXO_OK) break;
    for (size_t j = 0; j < c && !s; j++) {
      if (!old_path) t[j] = i + j;
      if (t[j] >= lv->n)
        s = EXO_FAIL(ctx, EXO_EINTERNAL, "leiden: coarse id %llu out of range",
                     (unsigned long long)t[j]);
      else
        t[j] = exo_ids_get(&lv->refined, t[j]);
    }
    if (!s) s = exo_writer_write(&w, t, c * 8, ctx);
  }
  if (old_path) exo_reader_close(&r);
  if (!s) return exo_writer_close(&w, ctx);
  exo_writer_abort(&w);
  exo_unlink(new_path);
  return s;
}

/* The level's communities for the input nodes; frees the level first. */
static exo_status final_labels(exo_leiden_level *lv, const char *top_path, uint64_t n_input,
                               uint64_t **out, exo_ctx *ctx) {
  const uint64_t nl = lv->n;
  uint64_t *cm = malloc((size_t)(nl ? nl : 1) * 8);
  if (!cm) {
    exo_leiden_level_free(lv);
    return exo_fail_oom(ctx, "Leiden's labels", nl * 8);
  }
  exo_leiden_level_partition(lv, cm, NULL);
  exo_leiden_level_free(lv);
  if (!top_path) { /* level 0 */
    *out = cm;
    return EXO_OK;
  }
  uint64_t *labels = malloc((size_t)(n_input ? n_input : 1) * 8);
  if (!labels) {
    free(cm);
    return exo_fail_oom(ctx, "Leiden's labels", n_input * 8);
  }
  exo_reader r;
  memset(&r, 0, sizeof r);
  exo_status s = exo_reader_open(&r, top_path, EXO_IO_DEFAULT_BUF, 0, UINT64_MAX, 0, ctx);
  for (uint64_t i = 0; i < n_input && !s; i++) {
    uint64_t t;
    if ((s = exo_reader_read(&r, &t, 8, ctx)) != EXO_OK) break;
    if (t >= nl)
      s = EXO_FAIL(ctx, EXO_EINTERNAL, "leiden: coarse id %llu out of range",
                   (unsigned long long)t);
    else
      labels[i] = cm[t];
  }
  exo_reader_close(&r);
  free(cm);
  if (s) {
    free(labels);
    return s;
  }
  *out = labels;
  return EXO_OK;
}

static exo_status write_ids(const char *path, const uint64_t *ids, uint64_t n, exo_ctx *ctx) {
  exo_writer w;
  memset(&w, 0, sizeof w);
  exo_status s = exo_writer_open(&w, path, EXO_IO_DEFAULT_BUF, ctx);
  if (!s) s = exo_writer_write(&w, ids, (size_t)(n * 8), ctx);
  if (!s) return exo_writer_close(&w, ctx);
  exo_writer_abort(&w);
  return s;
}

/* n ids written by write_ids, into ids (n * 8 bytes). */
static exo_status read_ids(const char *path, uint64_t *ids, uint64_t n, exo_ctx *ctx) {
  exo_reader r;
  exo_status s = exo_ld_open_ids(&r, path, n, ctx);
  if (s) return s;
  s = exo_reader_read(&r, ids, (size_t)(n * 8), ctx);
  exo_reader_close(&r);
  return s;
}

enum { F_OFF, F_ADJ, F_W, F_INIT, F_TOP, F_COUNT };

/* The coarse levels kept from the round that built them (exo_leiden.h,
 * "Reuse"): kept[L] is level L's graph (offsets, adjacency, node weights)
 * and the map from level L - 1's nodes to its own (down). Level 0 is the
 * input graph. */
enum { K_OFF, K_ADJ, K_W, K_DOWN, K_COUNT };
#define LD_KEPT_LEVELS 64u

typedef struct ld_kept {
  char *path[K_COUNT];
  uint64_t n, m;
  int wide, valid;
} ld_kept;

typedef struct ld_keep {
  const char *dir;
  int on;                        /* rounds after the first may follow */
  ld_kept level[LD_KEPT_LEVELS]; /* [0] unused */
} ld_keep;

/* Drop kept levels from `from` on (their files removed). */
static void keep_drop(ld_keep *kp, uint32_t from) {
  for (uint32_t L = from ? from : 1; L < LD_KEPT_LEVELS; L++)
    if (kp->level[L].valid) {
      for (int f = 0; f < K_COUNT; f++) exo_unlink(kp->level[L].path[f]);
      kp->level[L].valid = 0;
    }
}

static void keep_free(ld_keep *kp) {
  keep_drop(kp, 1);
  for (uint32_t L = 1; L < LD_KEPT_LEVELS; L++)
    for (int f = 0; f < K_COUNT; f++) free(kp->level[L].path[f]);
}

/* The paths of kept level L (made once). */
static exo_status keep_paths(ld_keep *kp, uint32_t L, exo_ctx *ctx) {
  static const char *const names[K_COUNT] = {"offsets", "adjacency", "weights", "down"};
  for (int f = 0; f < K_COUNT; f++) {
    if (kp->level[L].path[f]) continue;
    char name[48];
    snprintf(name, sizeof name, "kept%u.%s", L, names[f]);
    if (!(kp->level[L].path[f] = exo_path_join(kp->dir, name)))
      return exo_fail_oom(ctx, "the paths of Leiden's files", 0);
  }
  return EXO_OK;
}

/* lv's nodes' coarse ids after aggregation (the refined ids renumbered)
 * into path: the down map of the next level. */
static exo_status write_down(exo_leiden_level *lv, const char *path) {
  exo_writer w;
  memset(&w, 0, sizeof w);
  exo_status s = exo_writer_open(&w, path, EXO_IO_DEFAULT_BUF, lv->ctx);
  uint64_t t[4096];
  for (uint64_t i = 0; i < lv->n && !s; i += 4096) {
    const size_t c = lv->n - i < 4096 ? (size_t)(lv->n - i) : 4096;
    for (size_t j = 0; j < c; j++) t[j] = exo_ids_get(&lv->refined, i + j);
    s = exo_writer_write(&w, t, c * 8, lv->ctx);
  }
  if (!s) return exo_writer_close(&w, lv->ctx);
  exo_writer_abort(&w);
  return s;
}

/* When level L (lv, every node where it opened) reuses kept level L + 1:
 * its down map into lv->refined (where aggregation leaves the coarse ids,
 * for map_top), and the coarse nodes' initial communities to init_path, as
 * exo_ld_aggregate numbers them: each coarse node takes its first member's
 * community, communities numbered by first appearance in coarse-id order.
 * Scratch: lv->tot (as aggregation). */
static exo_status reuse_level(exo_leiden_level *lv, const ld_kept *next, const char *init_path) {
  exo_ctx *ctx = lv->ctx;
  uint64_t *cmap = (uint64_t *)(void *)lv->tot;
  for (uint64_t i = 0; i < lv->n; i++) cmap[i] = LD_NONE;
  exo_reader r;
  exo_writer w;
  memset(&w, 0, sizeof w);
  exo_status s = exo_ld_open_ids(&r, next->path[K_DOWN], lv->n, ctx);
  if (s) return s;
  s = exo_writer_open(&w, init_path, EXO_IO_DEFAULT_BUF, ctx);
  uint64_t t[4096], k = 0, kc = 0;
  for (uint64_t i = 0; i < lv->n && !s; i += 4096) {
    const size_t c = lv->n - i < 4096 ? (size_t)(lv->n - i) : 4096;
    if ((s = exo_reader_read(&r, t, c * 8, ctx)) != EXO_OK) break;
    for (size_t j = 0; j < c && !s; j++) {
      if (t[j] > k || t[j] >= next->n) {
        s = EXO_FAIL(ctx, EXO_EINTERNAL, "leiden: '%s': coarse id %llu out of order",
                     next->path[K_DOWN], (unsigned long long)t[j]);
        break;
      }
      exo_ids_set(&lv->refined, i + j, t[j]);
      if (t[j] == k) { /* a coarse node's first member */
        k++;
        const uint64_t cm = exo_ids_get(&lv->comm, i + j);
        if (cmap[cm] == LD_NONE) cmap[cm] = kc++;
        s = exo_writer_write(&w, &cmap[cm], 8, ctx);
      }
    }
  }
  exo_reader_close(&r);
  if (!s && k != next->n)
    s = EXO_FAIL(ctx, EXO_EINTERNAL, "leiden: '%s' maps to %llu coarse nodes, not %llu",
                 next->path[K_DOWN], (unsigned long long)k, (unsigned long long)next->n);
  if (!s) return exo_writer_close(&w, ctx);
  exo_writer_abort(&w);
  exo_unlink(init_path);
  return s;
}

/* The bytes of the run's files that exist now (both slots, the kept
 * levels, the start and degree files): sampled after each level for
 * exo_leiden_result.peak_disk. */
static uint64_t files_bytes(char *files[2][F_COUNT], const ld_keep *kp, const char *start,
                            const char *degrees) {
  uint64_t t = 0, b;
  int kind;
  const char *more[2] = {start, degrees};
  for (int i = 0; i < 2; i++)
    for (int f = 0; f < F_COUNT; f++)
      if (files[i][f] && exo_path_stat(files[i][f], &b, &kind) == 0) t += b;
  for (uint32_t L = 1; L < LD_KEPT_LEVELS; L++)
    for (int f = 0; kp->level[L].valid && f < K_COUNT; f++)
      if (exo_path_stat(kp->level[L].path[f], &b, &kind) == 0) t += b;
  for (int i = 0; i < 2; i++)
    if (more[i] && exo_path_stat(more[i], &b, &kind) == 0) t += b;
  return t;
}

/* One iteration from level 0 (start_path: its initial communities, or
 * NULL). degrees: the input graph's node weights file, written by the first
 * iteration (modularity; *have_degrees then set) and read by the others. */
/* Coarse arc weights are floats: a coarse arc sums input arcs, and the sum
 * of them all (each edge from both ends, input self-loops twice: the
 * level-0 degrees' sum) bounds every one. When that bound exceeds
 * LD_ARC_ROOM, the first aggregation divides the weights by the smallest
 * power of 2 that brings it below (exact in float and double, so every
 * sum is the same up to that factor), and every coarse level keeps that
 * scale: modularity is unchanged by it; for CPM the coarse levels use
 * resolution / divisor and their quality is multiplied back. Room is left
 * for float sums that round up. */
#define LD_ARC_ROOM ((double)FLT_MAX / 4)

static double weight_divisor(double total) {
  double d = 1.0;
  while (total / d > LD_ARC_ROOM) d *= 2.0;
  return d;
}

/* The sum of |w| over the level's arcs (input self-loops twice), in one
 * serial pass (CPM's level 0: its node weights are not degrees). */
static exo_status arc_total(exo_leiden_level *lv, double *total) {
  double t = 0.0;
  exo_status s = EXO_OK;
  for (uint64_t first = 0; first < lv->n && !s; first += EXO_LEIDEN_BLOCK) {
    if ((s = ld_load_block(lv, first)) != EXO_OK) return s;
    for (uint64_t v = first; v < first + lv->rd.blk_cnt && !s; v++)
      FOR_ARCS(lv, v, u, w, s, { t += w; });
  }
  if (!s) *total = t;
  return s;
}

/* Check the caller's initial communities and atoms (ids < n) and write
 * the first iteration's level-0 communities to `path` when there are any:
 * with atoms, each atom's community is its first node's initial community
 * (its own id without initial), so every community is a union of atoms.
 * *have_start: the file was written; *use_atoms: the atoms are kept (atoms
 * that are n singletons aggregate nothing: dropped). Scratch: 8 bytes per
 * node with atoms. */
static exo_status first_start(const exo_leiden_params *p, uint64_t n, const char *path,
                              int *have_start, int *use_atoms, exo_ctx *ctx) {
  *have_start = *use_atoms = 0;
  const uint64_t *ids[2] = {p->initial, p->atoms};
  static const char *const what[2] = {"initial community", "atom"};
  for (int j = 0; j < 2; j++)
    for (uint64_t v = 0; ids[j] && v < n; v++)
      if (ids[j][v] >= n)
        return EXO_FAIL(ctx, EXO_EARG, "leiden: the %s of node %llu is %llu, not below the node "
                        "count %llu", what[j], (unsigned long long)v,
                        (unsigned long long)ids[j][v], (unsigned long long)n);
  if (!p->atoms) {
    if (!p->initial) return EXO_OK;
    *have_start = 1;
    return write_ids(path, p->initial, n, ctx);
  }
  uint64_t *map = malloc((size_t)n * 8);
  if (!map) return exo_fail_oom(ctx, "the atoms' communities", n * 8);
  for (uint64_t a = 0; a < n; a++) map[a] = LD_NONE;
  uint64_t k = 0;
  for (uint64_t v = 0; v < n; v++)
    if (map[p->atoms[v]] == LD_NONE) {
      map[p->atoms[v]] = p->initial ? p->initial[v] : p->atoms[v];
      k++;
    }
  *use_atoms = k < n;
  exo_status s = EXO_OK;
  if (!*use_atoms) { /* singletons: as without atoms */
    free(map);
    if (!p->initial) return EXO_OK;
    *have_start = 1;
    return write_ids(path, p->initial, n, ctx);
  }
  exo_writer w;
  memset(&w, 0, sizeof w);
  s = exo_writer_open(&w, path, EXO_IO_DEFAULT_BUF, ctx);
  for (uint64_t v = 0; v < n && !s; v++) s = exo_writer_write(&w, &map[p->atoms[v]], 8, ctx);
  free(map);
  if (!s) s = exo_writer_close(&w, ctx);
  else exo_writer_abort(&w);
  if (!s) *have_start = 1;
  return s;
}

static exo_status one_iteration(const exo_csr_files *csr, const exo_leiden_params *p,
                                char *files[2][F_COUNT], ld_keep *kp, uint32_t round,
                                const char *start_path, const char *degrees, int *have_degrees,
                                double *cpm_total, exo_ctx *ctx, exo_leiden_result *res,
                                double *quality, uint64_t **labels) {
  exo_csr_files cur = *csr;
  double wdiv = 1.0;           /* the coarse levels' weight divisor */
  exo_leiden_params pc = *p;   /* the coarse levels' parameters */
  const char *cur_w = *have_degrees ? degrees : NULL, *cur_init = start_path, *cur_top = NULL;
  int slot = 0;
  uint8_t *held = NULL; /* the next level's adjacency, when exo_ld_aggregate kept it */
  int on_kept = 1;      /* this level's graph is the kept one (level 0: the input) */
  for (uint32_t level = 0;; level++) {
    exo_leiden_level *lv = NULL;
    const double o0 = exo_now_seconds(), oc0 = exo_thread_cpu_seconds();
    exo_status s = exo_ld_level_open(&cur, level == 0 ? p : &pc, cur_w, cur_init, level == 0,
                                     level == 0 ? degrees : NULL, held, ctx, &lv);
    held = NULL;
    const double t_open = exo_now_seconds() - o0, c_open = exo_thread_cpu_seconds() - oc0;
    if (!s && level == 0 && p->objective == EXO_LEIDEN_MODULARITY) *have_degrees = 1;
    if (s) return s;
    uint64_t moves = 0, sweeps = 0, merges = 0;
    /* wall seconds of each phase, and the CPU seconds of the caller's
     * thread in it (with threads > 1 its serial part: the workers' jobs
     * run while it waits) */
    double t0 = exo_now_seconds(), t_move, t_refine = 0.0, t_agg = 0.0;
    double c0 = exo_thread_cpu_seconds(), c_move, c_refine, c_agg;
    double p0 = exo_process_cpu_seconds(), p_move, p_refine, p_agg;
    if (!(level == 0 && p->atoms) && (s = exo_leiden_level_move(lv, &moves, &sweeps)) != EXO_OK)
      goto fail;
    t_move = exo_now_seconds() - t0;
    c_move = exo_thread_cpu_seconds() - c0;
    p_move = exo_process_cpu_seconds() - p0;
    t0 = exo_now_seconds();
    c0 = exo_thread_cpu_seconds();
    p0 = exo_process_cpu_seconds();
    res->levels++;
    res->moves += moves;
    res->sweeps += sweeps;
    uint64_t k = exo_leiden_level_communities(lv);
    int last = k == cur.n;
    /* Reuse (exo_leiden.h): a round after the first whose level moved no
     * node takes the kept refinement and coarse graph of the next level */
    const int keep_next = kp->on && level + 1 < LD_KEPT_LEVELS;
    const int reuse = !last && round > 0 && keep_next && on_kept && moves == 0 &&
                      kp->level[level + 1].valid;
    if (reuse) {
      res->reused++;
    } else if (level == 0 && p->atoms) {
      /* atoms: level 0 is aggregated by them, without moving or refinement
       * (its communities are those it opened with, unions of atoms) */
      if ((s = exo_ld_level_set_atoms(lv, p->atoms, &k)) != EXO_OK) goto fail;
      last = 0;
    } else if (!last) {
      /* the quality is needed when this turns out to be the last level;
       * the refinement needs the member counts it reads first */
      if ((s = exo_leiden_level_refine(lv, &merges)) != EXO_OK) goto fail;
      res->merges += merges;
      /* Nothing merged: only when every node of every community of size
       * > 1 sits within rounding of the threshold; stop here with the
       * moved partition (whose state refine overwrote: rebuild it). */
      last = merges == 0;
      if (last && (s = exo_ld_init_communities(lv)) != EXO_OK) goto fail;
    }
    t_refine = exo_now_seconds() - t0;
    c_refine = exo_thread_cpu_seconds() - c0;
    p_refine = exo_process_cpu_seconds() - p0;
    t0 = exo_now_seconds();
    c0 = exo_thread_cpu_seconds();
    p0 = exo_process_cpu_seconds();
    exo_csr_files coarse = {files[slot][F_OFF], files[slot][F_ADJ], 0, 0, 0};
    const char *next_w = files[slot][F_W];
    if (last) {
      /* kept levels below this one hold refinements of nodes this round
       * may have left apart: dropped */
      keep_drop(kp, level + 1);
      if ((s = exo_leiden_level_quality(lv, quality)) != EXO_OK) goto fail;
      if (p->objective == EXO_LEIDEN_CPM) *quality *= wdiv; /* see weight_divisor */
    } else {
      if (level == 0) {
        double total = lv->total_w; /* modularity: the degrees' sum */
        if (p->objective == EXO_LEIDEN_CPM) {
          if (*cpm_total < 0.0 && (s = arc_total(lv, cpm_total)) != EXO_OK) goto fail;
          total = *cpm_total;
        }
        lv->wdiv = wdiv = weight_divisor(total);
        if (p->objective == EXO_LEIDEN_CPM) pc.resolution = p->resolution / wdiv;
        if (wdiv > 1.0)
          exo_message(ctx, "leiden: arc weights sum to %.10g: coarse levels hold them divided by "
                      "%.10g", total, wdiv);
      }
      ld_kept *kn = keep_next ? &kp->level[level + 1] : NULL;
      if (reuse) {
        coarse = (exo_csr_files){kn->path[K_OFF], kn->path[K_ADJ], kn->n, kn->m, kn->wide};
        if ((s = reuse_level(lv, kn, files[slot][F_INIT])) != EXO_OK ||
            (s = map_top(lv, cur_top, files[slot][F_TOP], csr->n)) != EXO_OK)
          goto fail;
        exo_detail(ctx, "leiden level %u: no node moved; the refinement and coarse graph of "
                   "iteration %u reused", level, kn->valid);
      } else if (kn) { /* fresh: kept for the rounds that follow */
        keep_drop(kp, level + 1);
        if ((s = keep_paths(kp, level + 1, ctx)) != EXO_OK) goto fail;
        coarse = (exo_csr_files){kn->path[K_OFF], kn->path[K_ADJ], 0, 0, 0};
        /* a coarse adjacency held for the next level is written as well */
        if ((s = exo_ld_aggregate(lv, &coarse, kn->path[K_W], files[slot][F_INIT], &held)) ||
            (held && (s = write_ids(kn->path[K_ADJ], (const uint64_t *)(const void *)held,
                                    coarse.m * exo_adj_size(coarse.wide) / 8, ctx))) ||
            (s = write_down(lv, kn->path[K_DOWN])) ||
            (s = map_top(lv, cur_top, files[slot][F_TOP], csr->n))) {
          for (int f = 0; f < K_COUNT; f++) exo_unlink(kn->path[f]);
          goto fail;
        }
        kn->n = coarse.n;
        kn->m = coarse.m;
        kn->wide = coarse.wide;
        kn->valid = (int)round + 1; /* the round that built it, counted from 1 */
      } else {
        if ((s = exo_ld_aggregate(lv, &coarse, files[slot][F_W], files[slot][F_INIT], &held)) !=
            EXO_OK)
          goto fail;
        if ((s = map_top(lv, cur_top, files[slot][F_TOP], csr->n)) != EXO_OK) goto fail;
      }
      if (kn) next_w = kn->path[K_W];
      on_kept = reuse; /* a fresh level's kept successors were dropped */
    }
    t_agg = exo_now_seconds() - t0;
    c_agg = exo_thread_cpu_seconds() - c0;
    p_agg = exo_process_cpu_seconds() - p0;
    exo_message(ctx, "leiden level %u: %llu nodes, %llu arcs: %llu communities in %.1f s", level,
                (unsigned long long)cur.n, (unsigned long long)cur.m, (unsigned long long)k,
                t_open + t_move + t_refine + t_agg);
    exo_detail(ctx, "leiden level %u: %llu nodes, %llu arcs, %llu sweeps, %llu moves, "
                "%llu communities, %llu merged by refinement; seconds: moving %.3f, "
                "refinement %.3f, %s %.3f; caller's thread CPU: %.3f, %.3f, %.3f; "
                "process CPU: %.3f, %.3f, %.3f; opening the level %.3f s (caller's thread "
                "CPU %.3f)",
                level, (unsigned long long)cur.n, (unsigned long long)cur.m,
                (unsigned long long)sweeps, (unsigned long long)moves, (unsigned long long)k,
                (unsigned long long)merges, t_move, t_refine,
                last ? "quality" : "aggregation", t_agg, c_move, c_refine, c_agg, p_move, p_refine,
                p_agg, t_open, c_open);
    const uint64_t on_disk = files_bytes(files, kp, start_path, degrees);
    if (on_disk > res->peak_disk) res->peak_disk = on_disk;
    if (last) return final_labels(lv, cur_top, csr->n, labels, ctx);
    exo_leiden_level_free(lv);
    if (level > 0) /* the previous coarse level */
      for (int f = 0; f < F_COUNT; f++) exo_unlink(files[slot ^ 1][f]);
    cur = coarse;
    cur_w = next_w;
    cur_init = files[slot][F_INIT];
    cur_top = files[slot][F_TOP];
    slot ^= 1;
    continue;
  fail:
    free(held);
    exo_leiden_level_free(lv);
    return ctx->err.code ? ctx->err.code : s;
  }
}

exo_status exo_leiden_run(const exo_csr_files *csr, const exo_leiden_params *params,
                          exo_ctx *ctx, exo_leiden_result *result) {
  if (result) memset(result, 0, sizeof *result);
  if (!csr || !params || !result || !csr->offsets_path || !csr->adj_path || !params->tmpdir)
    return EXO_FAIL(ctx, EXO_EARG, "exo_leiden_run: NULL argument");
  if (params->objective != EXO_LEIDEN_MODULARITY && params->objective != EXO_LEIDEN_CPM)
    return EXO_FAIL(ctx, EXO_EARG, "leiden: unknown objective %d", (int)params->objective);
  if (!isfinite(params->resolution) || params->resolution < 0.0)
    return EXO_FAIL(ctx, EXO_EARG, "leiden: the resolution must be a finite number >= 0");
  if (params->resolution_per_strength && params->objective != EXO_LEIDEN_CPM)
    return EXO_FAIL(ctx, EXO_EARG,
                    "leiden: a resolution relative to the mean strength needs objective CPM");
  if (params->resolution_per_component && !params->resolution_per_strength)
    return EXO_FAIL(ctx, EXO_EARG,
                    "leiden: a resolution per component needs one relative to the mean strength");
  const uint64_t n = csr->n;
  if (n == 0) {
    result->resolution = params->resolution_per_strength ? 0.0 : params->resolution;
    result->labels = malloc(8);
    return result->labels ? EXO_OK : exo_fail_oom(ctx, "Leiden's labels", 8);
  }
  char *dir = NULL;
  exo_status s = exo_tempdir_create(params->tmpdir, &dir, ctx);
  if (s) return s;
  exo_leiden_params p = *params;
  p.tmpdir = dir;
  char *comp_w = NULL;
  result->resolution = params->resolution;
  /* CPM: the input graph's arc weight total (weight_divisor), found once */
  double cpm_total = -1.0;
  if (params->resolution_per_strength && params->objective == EXO_LEIDEN_CPM) {
    /* CPM's g = resolution * 2W / n, fixed here for every level and
     * iteration (coarse node weights are member counts: the scale of g
     * must not change between levels) */
    exo_csr_strength st = {0.0, 0, 0.0};
    comp_w = params->resolution_per_component ? exo_path_join(dir, "components.bin") : NULL;
    if (params->resolution_per_component && !comp_w)
      s = exo_fail_oom(ctx, "the paths of Leiden's files", 0);
    else /* input self-loops count twice, as in write_degrees */
      s = exo_csr_strengths(csr, 1, EXO_IO_DEFAULT_BUF, comp_w, params->strength_linked, &st, ctx);
    if (s) {
      free(comp_w);
      exo_tempdir_remove(dir);
      free(dir);
      memset(result, 0, sizeof *result);
      return ctx->err.code ? ctx->err.code : s;
    }
    cpm_total = st.sum2w; /* the same sum: no pass of its own */
    const uint64_t over = params->strength_linked ? st.linked : n;
    const double mean = st.mean;
    p.resolution = params->resolution * mean;
    p.resolution_per_strength = 0;
    result->resolution = p.resolution;
    exo_message(ctx, "leiden: CPM resolution %.10g = %.10g x mean strength %.10g (over %llu %s)%s",
                p.resolution, params->resolution, mean, (unsigned long long)over,
                params->strength_linked ? "nodes with an edge" : "nodes",
                comp_w ? ", scaled in each connected component by its own mean strength" : "");
  }
  static const char *const names[F_COUNT] = {"offsets", "adjacency", "weights", "init", "top"};
  char *files[2][F_COUNT];
  memset(files, 0, sizeof files);
  ld_keep kp;
  memset(&kp, 0, sizeof kp);
  kp.dir = dir;
  char *start = exo_path_join(dir, "start.bin");
  /* the input graph's node weights: written by level 0 (modularity), or
   * the per-component weights written above */
  char *degrees = comp_w ? comp_w : exo_path_join(dir, "degrees.bin");
  int have_degrees = comp_w != NULL;
  int paths_ok = start != NULL && degrees != NULL;
  for (int i = 0; i < 2; i++)
    for (int f = 0; f < F_COUNT; f++) {
      char name[32];
      snprintf(name, sizeof name, "level%d.%s", i, names[f]);
      files[i][f] = exo_path_join(dir, name);
      paths_ok = paths_ok && files[i][f];
    }
  uint64_t *labels = NULL;
  if (!paths_ok) {
    s = exo_fail_oom(ctx, "the paths of Leiden's files", 0);
    goto done;
  }
  int have_start = 0, use_atoms = 0;
  if ((s = first_start(params, n, start, &have_start, &use_atoms, ctx)) != EXO_OK) goto done;
  if (!use_atoms) p.atoms = NULL;
  p.initial = NULL; /* in start.bin now */
  const uint32_t maxit = params->iterations ? params->iterations : EXO_LEIDEN_MAX_ITERATIONS;
  kp.on = maxit > 1 && !use_atoms;
  double prevq = -INFINITY;
  for (uint32_t it = 0; it < maxit; it++) {
    if (labels) { /* start from the previous iteration's communities */
      s = write_ids(start, labels, n, ctx);
      free(labels);
      labels = NULL;
      if (s) goto done;
    }
    double q = 0.0;
    const uint64_t moves_before = result->moves;
    s = one_iteration(csr, &p, files, &kp, it, it || have_start ? start : NULL, degrees,
                      &have_degrees, &cpm_total, ctx, result, &q, &labels);
    for (int i = 0; i < 2; i++)
      for (int f = 0; f < F_COUNT; f++) exo_unlink(files[i][f]);
    if (s) goto done;
    exo_message(ctx, "leiden iteration %u: quality %.10g, %llu moves", it + 1, q,
                (unsigned long long)(result->moves - moves_before));
    result->iterations++;
    result->quality = q;
    if (it > 0 && q < prevq) {
      /* this round lowered the score (moves made in lanes at the same time
       * can): the result is the previous round's partition, which this
       * round started from and start.bin still holds */
      exo_message(ctx, "leiden: iteration %u lowered the quality; keeping iteration %u's "
                  "communities (quality %.10g)", it + 1, it, prevq);
      s = read_ids(start, labels, n, ctx);
      if (s) goto done;
      result->quality = prevq;
      break;
    }
    /* no move at any level: the partition is the one this iteration
     * started from, and so would the next one be */
    if (it > 0 && (result->moves == moves_before || !(q > prevq + LD_EPS * fabs(prevq))))
      break;
    prevq = q;
  }
done:
  if (s) {
    free(labels);
    labels = NULL;
  }
  result->labels = labels;
  for (int i = 0; i < 2; i++)
    for (int f = 0; f < F_COUNT; f++) free(files[i][f]);
  keep_free(&kp);
  free(start);
  free(degrees);
  exo_tempdir_remove(dir);
  free(dir);
  if (s) {
    memset(result, 0, sizeof *result);
    return ctx->err.code ? ctx->err.code : s;
  }
  return EXO_OK;
}
