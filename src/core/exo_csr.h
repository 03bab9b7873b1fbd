/* exo_csr.h: the CSR files that the sort's final merge writes and every
 * clustering stage streams (label propagation, Leiden, refine, the
 * distributed run's per-rank part), and the loader of their offsets.
 *
 * Format (exo_record.h has the encoders):
 *   offsets file: (n + 1) x u64 in native byte order, offsets[v] = index of
 *     v's first adjacency entry; offsets[0] = 0, non-decreasing,
 *     offsets[n] = m;
 *   adjacency file: m entries in node order, each nbr u32 | w f32 (8 bytes,
 *     "narrow") or nbr u64 | w f32 (12 bytes, "wide": some id needs more
 *     than 32 bits); exo_adj_size(wide) gives the entry size.
 * The arcs' sign convention (directed mode) is exo_record.h's. */
#ifndef EXO_CSR_H
#define EXO_CSR_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"
#include "exo_io.h"

typedef struct exo_csr_files {
  const char *offsets_path;
  const char *adj_path;
  uint64_t n; /* nodes */
  uint64_t m; /* adjacency entries */
  int wide;   /* adjacency ids are u64 */
} exo_csr_files;

/* Read csr->offsets_path whole into a new array of n + 1 u64 (*off, free()),
 * in reads of at most 64 MiB with exo_poll between them, and validate it:
 * its size, offsets[0] = 0, non-decreasing, offsets[n] = m. A file that
 * fails a check is EXO_EINTERNAL naming it (the pipeline wrote it); *off is
 * NULL on every error. *maxdeg (when not NULL): the largest degree.
 * Memory: 8 (n + 1) bytes. */
exo_status exo_csr_load_offsets(const exo_csr_files *csr, uint64_t **off, uint64_t *maxdeg,
                                exo_ctx *ctx);

/* The same checks streaming, without keeping the offsets (Leiden, which
 * reads them per block): *maxdeg = the largest degree. Memory: 512 KiB. */
exo_status exo_csr_scan_offsets(const exo_csr_files *csr, uint64_t *maxdeg, exo_ctx *ctx);

/* Open csr->adj_path for reading into *fd after checking that it holds m
 * entries of exo_adj_size(wide) bytes (else EXO_EINTERNAL naming it; *fd
 * is -1 on every error). */
exo_status exo_csr_open_adj(const exo_csr_files *csr, int *fd, exo_ctx *ctx);

/* Bit scores over self scores (the weights of a protein similarity graph
 * normalised by each protein's score against itself). On entry the arcs'
 * weights are bit scores (the sign: directed mode's in-arcs, exo_record.h)
 * and an arc x -> x holds x's self hit. self(x) = the largest |w| of x's
 * arcs to itself, or, when it has none, the largest |w| of its arcs. The
 * files are rewritten (new files written beside them, then renamed over
 * them) so that an arc u -> v (v != u) weighs w / max(self(u), self(v)),
 * rounded to float (at most 1 in magnitude unless a hit scores above
 * a self hit), its sign kept, and the arcs
 * x -> x are dropped unless keep_self (then they weigh w / self(x)); the
 * node count and the order of the arcs do not change, csr->m does when
 * arcs are dropped. *sum2w (when given): the sum of the new |w| over all
 * arcs; *linked: the nodes left with at least one arc (resolution "auto"
 * takes its mean strength over those). Two sequential reads of both files
 * and one write, through buffers of `bufsize` bytes (four: two readers,
 * two writers). Memory: 4 bytes per node (the self scores) and the
 * buffers. The same result for any bufsize. */
typedef struct exo_csr_norm {
  double sum2w;
  uint64_t linked;  /* nodes with an arc after */
  uint64_t dropped; /* arcs x -> x dropped */
  uint64_t dropped_positive; /* of those, arcs with w > 0 */
} exo_csr_norm;
exo_status exo_csr_selfnorm(exo_csr_files *csr, int keep_self, size_t bufsize, exo_csr_norm *out,
                            exo_ctx *ctx);
/* exo_csr_selfnorm, calling node(user, v, w, k) once per node v in order
 * with the new |weights| of v's arcs to other nodes (w[0..k), which the
 * callback may reorder), while it writes them: statistics of the
 * normalised graph without another pass. Memory: 4 bytes per arc of the
 * node being written. */
typedef void (*exo_csr_node_fn)(void *user, uint64_t v, float *w, size_t k);
exo_status exo_csr_selfnorm_each(exo_csr_files *csr, int keep_self, size_t bufsize,
                                 exo_csr_norm *out, exo_csr_node_fn node, void *user,
                                 exo_ctx *ctx);

/* Node strengths in one sequential pass over both files (buffers of
 * `bufsize` bytes): k_v = the sum of |w| over v's arcs, an arc v -> v
 * counted twice when loops_twice (as Leiden counts the input graph's
 * self-loops), in CSR order; out->sum2w = the sum of the k_v in id order
 * (the same double for any threads and memory_limit); out->linked = the
 * nodes with at least one arc; out->mean = sum2w over linked nodes (or
 * over n when !over_linked), 0 for none. With comp_weights (a path): the connected
 * components are joined in the same pass (a union-find forest, every root
 * its component's smallest id, arcs v -> v ignored; an edge is joined at
 * its larger end only, since the CSR holds every edge at both ends, as the
 * merge writes it: exo_record.h), and the file is
 * written with n doubles: node v of component K gets sqrt(S_K / S), S_K =
 * the sum of K's k_v (in id order) over its node count, S = out->mean;
 * 1 where S_K or S is 0.
 * Leiden's resolution per component (exo_leiden.h) reads them as CPM's
 * node weights. Memory: the buffers, and with comp_weights 24 bytes per
 * node, freed before it returns. */
typedef struct exo_csr_strength {
  double sum2w;
  uint64_t linked;
  double mean;
} exo_csr_strength;
exo_status exo_csr_strengths(const exo_csr_files *csr, int loops_twice, size_t bufsize,
                             const char *comp_weights, int over_linked, exo_csr_strength *out,
                             exo_ctx *ctx);

/* The connected components, in one sequential pass over both files
 * (two readers of `bufsize` bytes): on return parent[v] (n entries, the
 * caller's) is the smallest id of v's component, by the union-find forest
 * of exo_csr_strengths (arcs v -> v change nothing; every edge is an arc
 * at both ends). A node without an arc is its own component; a directed
 * graph's are its weakly connected components (the CSR holds in- and
 * out-arcs). Memory: parent only (EXO_CSR_COMPONENTS_NODE_BYTES). The same
 * result for any bufsize. */
#define EXO_CSR_COMPONENTS_NODE_BYTES 8u
exo_status exo_csr_components(const exo_csr_files *csr, size_t bufsize, uint64_t *parent,
                              exo_ctx *ctx);

/* Both files read in order, node by node: open, then for each node v in
 * 0 .. n-1 exo_csr_stream_node (its arc count; the offsets checked) and
 * exo_csr_stream_arc once per arc (the neighbour checked against n), then
 * exo_csr_stream_close(s), which checks the end when s is EXO_OK and
 * returns s or that check's error. Memory: two readers of `bufsize`. */
typedef struct exo_csr_stream {
  const exo_csr_files *csr;
  exo_reader orr, ar;
  uint64_t prev;
} exo_csr_stream;
exo_status exo_csr_stream_open(exo_csr_stream *cs, const exo_csr_files *csr, size_t bufsize,
                               exo_ctx *ctx);
exo_status exo_csr_stream_node(exo_csr_stream *cs, uint64_t v, uint64_t *arcs, exo_ctx *ctx);
exo_status exo_csr_stream_arc(exo_csr_stream *cs, uint64_t v, uint64_t *u, float *w,
                              exo_ctx *ctx);
exo_status exo_csr_stream_close(exo_csr_stream *cs, exo_status s, exo_ctx *ctx);

/* Remove from csr every arc v -> u that `listed` (a CSR of the same n and
 * width, each list in increasing neighbour order without repeats, weights
 * unused) holds; every arc v -> u of csr with that pair goes (csr's lists
 * are in neighbour order too, as the sort writes them). The files are
 * rewritten beside and renamed over (exo_csr_selfnorm's way); csr->m
 * follows. *removed: arcs removed; *removed_positive: of those, w > 0.
 * One sequential read of both graphs, one write. Memory: four buffers of
 * `bufsize` and 8 bytes per listed arc of the node being read. */
exo_status exo_csr_remove(exo_csr_files *csr, const exo_csr_files *listed, size_t bufsize,
                          uint64_t *removed, uint64_t *removed_positive, exo_ctx *ctx);

/* The error of an adjacency entry of node v whose neighbour u is not a
 * node of csr (u >= csr->n): EXO_EINTERNAL, the file and both ids named.
 * Every reader of the adjacency file reports it with this. */
exo_status exo_csr_bad_neighbour(const exo_csr_files *csr, uint64_t v, uint64_t u, exo_ctx *ctx);

/* Rewrite csr keeping the arcs v -> u (weight w) for which keep(user, v,
 * u, w) returns nonzero, in order (the other arcs removed), as
 * exo_csr_remove does; csr->m follows; *removed / *removed_positive count
 * the arcs removed (of those, w > 0). One sequential read, one write;
 * memory: four buffers of `bufsize`. */
typedef int (*exo_csr_keep_fn)(void *user, uint64_t v, uint64_t u, float w);
exo_status exo_csr_filter(exo_csr_files *csr, exo_csr_keep_fn keep, void *user, size_t bufsize,
                          uint64_t *removed, uint64_t *removed_positive, exo_ctx *ctx);

/* A block window over the adjacency file: a buffer of `entries` entries
 * holding entries [lo, hi) of the file, filled by positioned reads (pread:
 * windows of several threads share one descriptor). The stages' readers
 * (Leiden's per-thread readers, refine's group reads, the distributed
 * supersteps) read through it; label propagation's window (exo_lp.c) adds
 * a read-ahead over the next active nodes on top of the same idea. The
 * caller owns buf (entries * esz bytes) and sets fd, path, esz, buf and
 * entries; lo = hi = 0 is empty. */
typedef struct exo_csr_window {
  int fd;
  const char *path; /* for messages */
  size_t esz;       /* bytes per entry */
  uint8_t *buf;
  uint64_t entries; /* capacity */
  uint64_t lo, hi;  /* entries held */
} exo_csr_window;

/* Entries [pos, min(end, pos + entries)) of the file: *p, *cnt (read when
 * not held). A long list is walked by calling again from pos + *cnt. */
exo_status exo_csr_window_get(exo_csr_window *w, uint64_t pos, uint64_t end, const uint8_t **p,
                              uint64_t *cnt, exo_ctx *ctx);

/* Hold entries [lo, hi) (hi - lo <= entries; nothing read when held or
 * empty), so that every list inside is served without a read. */
exo_status exo_csr_window_fill(exo_csr_window *w, uint64_t lo, uint64_t hi, exo_ctx *ctx);

/* A read-ahead window (label propagation's worker): file bytes
 * [win_beg, win_end) held in buf (buf_alloc = cap + EXO_CSR_ALIGN bytes,
 * the caller's). A miss refills it with one positioned read that keeps
 * the overlap, reads through gaps of at most `gap` bytes, and extends over
 * the lists of the next set nodes of `active` from look_from to look_to
 * (EXO_CSR_NO_LOOKAHEAD: none) while they fit, in steps of about 256 KiB
 * so that they are still cached when used; unless that read came whole
 * from the page cache (exo_pread_cached), the next buffer's length is
 * announced to the kernel (WILLNEED) once per half buffer travelled. The
 * caller sets fd, path, esz, file_size, off, active, gap, buf, cap and
 * buf_alloc; the counters say what was read. */
#define EXO_CSR_ALIGN ((uint64_t)4096) /* reads start on page boundaries */
#define EXO_CSR_NO_LOOKAHEAD UINT64_MAX
typedef struct exo_csr_ahead {
  int fd;
  const char *path;
  size_t esz;
  uint64_t file_size;
  const uint64_t *off;    /* n + 1 offsets in memory */
  const uint64_t *active; /* the nodes whose lists the read-ahead takes */
  uint64_t gap;           /* read through shorter gaps (bytes) */
  uint8_t *buf;
  uint64_t cap;           /* largest byte range kept whole */
  uint64_t buf_alloc;     /* cap + EXO_CSR_ALIGN */
  uint64_t win_beg, win_end;
  uint64_t look_from, look_to;
  uint64_t advised_from, advised_to;
  uint64_t bytes_read, reads;
  int cached; /* the last read came whole from the page cache: no hint */
} exo_csr_ahead;

exo_status exo_csr_ahead_miss(exo_csr_ahead *w, uint64_t b0, uint64_t b1, const uint8_t **out,
                              exo_ctx *ctx);

/* File bytes [b0, b1) (b1 - b0 <= cap) in the window: *out points to b0. */
static inline exo_status exo_csr_ahead_get(exo_csr_ahead *w, uint64_t b0, uint64_t b1,
                                           const uint8_t **out, exo_ctx *ctx) {
  if (b0 >= w->win_beg && b1 <= w->win_end) {
    *out = w->buf + (b0 - w->win_beg);
    return EXO_OK;
  }
  return exo_csr_ahead_miss(w, b0, b1, out, ctx);
}

#endif
