/* exo_pipeline.c: the run from files to clusters (see exo_pipeline.h). */
#include "exo_pipeline.h"
#include "exo_budget.h"
#include "exo_outcheck.h"

#include <stdlib.h>
#include <string.h>

#include "exo_bits.h"
#include "exo_byname.h"
#include "exo_clstats.h"
#include "exo_initial.h"
#include "exo_seqs.h"
#include "exo_csr.h"
#include "exo_io.h"
#include "exo_keep.h"
#include "exo_platform.h"
#include "exo_names.h"
#include "exo_output.h"
#include "exo_record.h"
#include "exo_regions.h"
#include "exo_sum.h"

/* State shared with the parser's per-edge callback. */
typedef struct edge_sink {
  exo_sorter *sorter;
  exo_arc_rule rule; /* directed; self-loops and weights that store nothing */
  uint64_t negative; /* edges with a weight below 0 (stored nothing) */
  uint64_t self;     /* self-loops that rule.drop_self kept from storing */
} edge_sink;

/* Turn one input edge into arc records (exo_record.h sign convention; the
 * same records as exo_edge_arcs, which the parser threads apply when they
 * build a block's records themselves, exo_parse_file_arcs). Weights <= 0 or below
 * min_weight, and self-loops when they are dropped, register the names
 * (done by the parser) but store nothing. */
static exo_status on_edge(void *user, uint64_t a, uint64_t b, float w, exo_ctx *ctx) {
  edge_sink *s = user;
  uint64_t hi = a > b ? a : b;
  exo_status st;
  if (hi >= EXO_NARROW_ID_LIMIT && !exo_sorter_is_wide(s->sorter)) {
    st = exo_sorter_set_wide(s->sorter, ctx);
    if (st) return st;
  }
  if (!(w > 0.0f) || w < s->rule.min_weight || (a == b && s->rule.drop_self)) {
    s->negative += w < 0.0f;
    s->self += a == b && s->rule.drop_self && w > 0.0f && !(w < s->rule.min_weight);
    return EXO_OK;
  }
  if (s->rule.directed) {
    st = exo_sorter_add(s->sorter, b, a, w, ctx); /* in-arc of b: b hears a */
    if (st) return st;
    return exo_sorter_add(s->sorter, a, b, -w, ctx); /* out-arc of a */
  }
  st = exo_sorter_add(s->sorter, a, b, w, ctx);
  if (st) return st;
  if (a == b) return EXO_OK; /* a self-loop is one arc */
  return exo_sorter_add(s->sorter, b, a, w, ctx);
}

/* exo_parse_file_arcs' sink: a block's records, built by the parser threads. */
static exo_status on_arcs(void *user, const uint8_t *recs, size_t n, int wide, size_t *done,
                          exo_ctx *ctx) {
  edge_sink *s = user;
  return exo_sorter_add_records(s->sorter, recs, n, wide, done, ctx);
}

/* The name table and the sort's run buffers share the parse stage's budget:
 * the runs get what the table leaves, but never less than a quarter (a table
 * beyond that is the per-node memory the documentation counts apart). */
typedef struct run_budget {
  exo_sorter *sorter;
  uint64_t total; /* exo_budget_parse() */
} run_budget;

static uint64_t run_memory_for(const run_budget *b, size_t table_bytes) {
  return exo_budget_runs(b->total, table_bytes);
}

static exo_status on_names_grow(void *user, size_t table_bytes, exo_ctx *ctx) {
  run_budget *b = user;
  return exo_sorter_set_run_memory(b->sorter, run_memory_for(b, table_bytes), ctx);
}

static exo_status check_options(const exo_build_options *opt, exo_ctx *ctx) {
  if (!opt) return EXO_FAIL(ctx, EXO_EARG, "no build options given");
  if (!opt->tempdir_base || !*opt->tempdir_base)
    return EXO_FAIL(ctx, EXO_EARG, "no temporary directory given");
  char sep = opt->parse.sep;
  if (sep == '\n' || sep == '\r' || sep == '\0')
    return EXO_FAIL(ctx, EXO_EARG, "the separator cannot be a line end or NUL");
  const uint32_t *iv = opt->parse.col_iv;
  if (opt->regions && (opt->directed || !iv[0] || !iv[1] || !iv[2] || !iv[3]))
    return EXO_FAIL(ctx, EXO_EARG, "the region rule needs an undirected graph and the "
                    "hits' coordinate columns");
  if (opt->weak_hits && opt->directed)
    return EXO_FAIL(ctx, EXO_EARG, "the weak-hit rule needs an undirected graph");
  return EXO_OK;
}

/* The weights are bit scores to divide by self scores once built. */
static int selfnorm(const exo_build_options *opt) {
  return opt->parse.transform == EXO_WT_SELFNORM && !opt->parse.ignore_weights;
}

/* Edges pushed between two interrupt polls. */
#define BUILDER_POLL_EDGES ((uint64_t)1 << 16)

struct exo_builder {
  exo_build_options opt; /* copy; opt.files not used */
  exo_graph *g;
  exo_names *names;
  exo_sorter *sorter;
  edge_sink sink;
  run_budget budget;
  uint64_t pushed;       /* edges given to exo_builder_add_edge */
  uint64_t expected;     /* progress total for pushed edges (0 = unknown) */
  double t0;
  /* the listed sequences (exo_builder_add_sequences) */
  int listing;
  uint64_t list_base;    /* nodes when the first was added */
  uint64_t *list_seen;   /* list_base bits (exo_bits.h): listed */
  int list_fasta;        /* a FASTA file was read */
  const char *list_path; /* the file being read, for messages */
  /* opt.regions: the stored hits with their coordinates (exo_regions.h) */
  exo_writer hits;
  char *hits_path;
  uint32_t hits_max_coord; /* the largest coordinate written */
  /* opt.graph: the kept graph extended; opt.keep_graph: where it goes */
  exo_kept kept;
  int has_kept;
  exo_keep keep;
  int keeping;
};

/* opt.graph: the kept names, interned first in their order (the same ids),
 * their file's checksum computed as it is read. */
static exo_status intern_kept_names(exo_builder *b, exo_ctx *ctx) {
  const exo_kept *k = &b->kept;
  const size_t cap = (size_t)1 << 20;
  exo_reader r;
  memset(&r, 0, sizeof r);
  r.fd = -1;
  exo_keep_sum sum;
  exo_keep_sum_init(&sum);
  uint64_t count = 0;
  exo_status st = exo_reader_open(&r, k->path[EXO_KEEP_NAMES], cap, 0, UINT64_MAX, 0, ctx);
  while (!st) {
    const uint8_t *p;
    size_t avail;
    st = exo_reader_peek(&r, cap, &p, &avail, ctx);
    if (st || avail == 0) break;
    size_t used = 0;
    for (;;) {
      const uint8_t *nl = memchr(p + used, '\n', avail - used);
      if (!nl) break;
      const size_t len = (size_t)(nl - (p + used));
      uint64_t id;
      if (len == 0) {
        st = EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's names file '%s' is corrupt (an empty "
                      "name)", k->path[EXO_KEEP_NAMES]);
        break;
      }
      st = exo_names_intern(b->names, p + used, len, &id, ctx);
      if (st) break;
      if (id != count++) {
        st = EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's names file '%s' is corrupt (the name "
                      "of node %llu is there twice)", k->path[EXO_KEEP_NAMES],
                      (unsigned long long)id + 1);
        break;
      }
      used += len + 1;
    }
    if (st) break;
    if (used == 0) {
      st = EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's names file '%s' is corrupt (%s)",
                    k->path[EXO_KEEP_NAMES],
                    avail >= cap ? "a name of 1 MiB or more" : "its last line has no line end");
      break;
    }
    exo_keep_sum_add(&sum, p, used);
    exo_reader_skip_buffered(&r, used);
    st = exo_poll(ctx);
  }
  exo_reader_close(&r);
  if (!st && (sum.n != k->size[EXO_KEEP_NAMES] || exo_keep_sum_final(&sum) != k->sum[EXO_KEEP_NAMES]))
    st = EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's names file '%s' does not match the "
                  "checksum of its manifest: it is corrupt", k->path[EXO_KEEP_NAMES]);
  if (!st && count != k->nodes)
    st = EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's names file '%s' holds %llu names, not the "
                  "%llu of its manifest", k->path[EXO_KEEP_NAMES], (unsigned long long)count,
                  (unsigned long long)k->nodes);
  return st;
}

/* opt.graph: open the kept graph, check its options and files, intern its
 * names and hand its CSR to the sort. */
static exo_status load_kept(exo_builder *b, exo_ctx *ctx) {
  exo_kept *k = &b->kept;
  exo_status st = exo_kept_open(b->opt.graph, "graph", k, ctx);
  if (st) return st;
  b->has_kept = 1;
  st = exo_kept_check_options(k, &b->opt, ctx);
  if (!st && b->opt.regions && !k->has_hits)
    st = EXO_FAIL(ctx, EXO_EINPUT, "the kept graph '%s' has no hits file for bridges cut",
                  k->dir);
  if (st) return st;
  exo_message(ctx, "extending the kept graph %s (%llu nodes, %llu arcs)", k->dir,
              (unsigned long long)k->nodes, (unsigned long long)k->arcs);
  /* the offsets now (the merge finds its slices from them); the adjacency
   * file's sum comes from the merge, which reads it whole (exo_sorter_base_terms) */
  st = exo_kept_verify(k, EXO_KEEP_OFFSETS, (size_t)1 << 20, ctx);
  if (!st) st = intern_kept_names(b, ctx);
  if (!st) {
    exo_csr_files base = {k->path[EXO_KEEP_OFFSETS], k->path[EXO_KEEP_ADJ], k->nodes, k->arcs,
                          k->wide};
    st = exo_sorter_set_base(b->sorter, &base, ctx);
  }
  /* the kept hits are not read now: the region rule merges the new ones
   * with the kept sorted intervals (exo_regions_ext) */
  if (!st && b->opt.regions) b->hits_max_coord = (uint32_t)k->max_coord;
  return st;
}

exo_status exo_builder_create(const exo_build_options *opt, exo_ctx *ctx,
                              exo_builder **out) {
  *out = NULL;
  exo_status st = check_options(opt, ctx);
  if (!st)
    st = exo_check_outputs(opt->files, opt->nfiles, opt->outputs, opt->noutputs, NULL, ctx);
  if (st) return st;
  st = exo_parse_check_options(&opt->parse, ctx);
  if (st) return st;
  exo_builder *b = calloc(1, sizeof *b);
  exo_graph *g = calloc(1, sizeof *g);
  if (!b || !g) {
    free(b);
    free(g);
    return exo_fail_oom(ctx, "the graph's description", 0);
  }
  b->opt = *opt;
  b->opt.files = NULL;
  b->opt.nfiles = 0;
  b->g = g;
  g->tmpdir_lock = -1;
  g->directed = opt->directed;
  g->order_by_name = opt->order_by_name;
  g->threads = opt->parse.threads > 1 ? opt->parse.threads : 1;
  b->t0 = exo_now_seconds();

  st = exo_tempdir_create_run(opt->tempdir_base, &g->tmpdir, &g->tmpdir_lock, ctx);
  if (!st) st = exo_check_outputs(NULL, 0, opt->outputs, opt->noutputs, g->tmpdir, ctx);
  /* a read-only or full directory fails now, not after the whole run */
  if (!st) st = exo_probe_outputs(opt->outputs, opt->noutputs, g->tmpdir, ctx);
  if (st) goto fail;
  b->hits.fd = -1;
  if (opt->regions) {
    b->hits_path = exo_path_join(g->tmpdir, "hits.bin");
    if (!b->hits_path) {
      st = exo_fail_oom(ctx, "the graph's file paths", 0);
      goto fail;
    }
    st = exo_writer_open(&b->hits, b->hits_path, EXO_IO_DEFAULT_BUF, ctx);
    if (st) goto fail;
  }
  g->names_path = exo_path_join(g->tmpdir, "names.txt");
  g->offsets_path = exo_path_join(g->tmpdir, "csr.offsets");
  g->adj_path = exo_path_join(g->tmpdir, "csr.adjacency");
  if (!g->names_path || !g->offsets_path || !g->adj_path) {
    st = exo_fail_oom(ctx, "the graph's file paths", 0);
    goto fail;
  }
  st = exo_names_create(&b->names, g->names_path, ctx);
  if (st) goto fail;
  exo_sort_options so = {0};
  so.tmpdir = g->tmpdir;
  so.memory_limit = exo_budget_parse(opt->memory_limit, opt->parse.threads);
  b->budget.total = so.memory_limit;
  so.run_memory = run_memory_for(&b->budget, exo_names_table_bytes(b->names));
  so.wide = opt->force_wide_ids;
  so.run_records = opt->run_records;
  so.fan_in = opt->fan_in;
  so.background = opt->parse.threads > 1; /* a spare core sorts and writes runs */
  so.combine = opt->combine;
  so.threads = opt->parse.threads;        /* key ranges of every merge */
  st = exo_sorter_create(&b->sorter, &so, ctx);
  if (st) goto fail;
  b->sink.sorter = b->sorter;
  b->budget.sorter = b->sorter;
  exo_names_on_grow(b->names, on_names_grow, &b->budget);
  b->sink.rule.directed = opt->directed;
  /* self-score normalisation needs the self hits: they are dropped after it */
  b->sink.rule.drop_self = opt->drop_self_loops != 0 && !selfnorm(opt);
  b->sink.rule.min_weight = opt->min_weight;
  if (opt->keep_graph) {
    st = exo_keep_begin(opt->keep_graph, &b->keep, ctx);
    if (st) goto fail;
    b->keeping = 1;
  }
  if (opt->graph) {
    st = load_kept(b, ctx);
    if (st) goto fail;
  }
  *out = b;
  return EXO_OK;

fail:
  exo_builder_abort(b);
  return ctx->err.code ? ctx->err.code : st;
}

static exo_status refuse_after_listing(const exo_builder *b, exo_ctx *ctx) {
  return b->listing ? EXO_FAIL(ctx, EXO_EARG,
                               "the named sequences must be added after every edge")
                    : EXO_OK;
}

/* opt.regions: exo_parse_file_hits' callback. The edge as on_edge stores
 * it, and each hit that stores arcs (not a self hit) into the hit file. */
static exo_status on_hit(void *user, uint64_t a, uint64_t bb, float w, const uint32_t iv[4],
                         exo_ctx *ctx) {
  exo_builder *b = user;
  exo_status st = on_edge(&b->sink, a, bb, w, ctx);
  if (st || a == bb || !(w > 0.0f) || w < b->sink.rule.min_weight) return st;
  if (!(iv[0] | iv[1] | iv[2] | iv[3])) return EXO_OK; /* no coordinates in this file */
  for (int j = 0; j < 4; j++)
    if (iv[j] > b->hits_max_coord) b->hits_max_coord = iv[j];
  return exo_regions_hit(&b->hits, a, bb, w, iv, ctx);
}

exo_status exo_builder_add_file(exo_builder *b, const char *path, exo_ctx *ctx) {
  exo_parse_stats ps = {0};
  if (refuse_after_listing(b, ctx)) return ctx->err.code;
  exo_status st = exo_check_outputs(&path, 1, b->opt.outputs, b->opt.noutputs, NULL, ctx);
  if (st) return st;
  exo_message(ctx, "reading %s", path);
  exo_arc_sink arcs = {0};
  arcs.rule = b->sink.rule;
  arcs.wide = exo_sorter_is_wide(b->sorter);
  arcs.add = on_arcs;
  arcs.user = &b->sink;
  st = b->opt.regions
           ? exo_parse_file_hits(path, &b->opt.parse, b->names, on_hit, b, ctx, &ps)
           : exo_parse_file_arcs(path, &b->opt.parse, b->names, on_edge, &b->sink, &arcs, ctx,
                                 &ps);
  b->sink.negative += arcs.negative;
  b->sink.self += arcs.self;
  b->g->num_lines += ps.edges;
  if (st == EXO_OK && ps.edges)
    exo_detail(ctx, "read %s: reading thread %.2f s CPU, parser threads %.2f s CPU, "
                "%.1f%% of the names found by the parser threads",
                path, ps.caller_cpu_seconds, ps.worker_cpu_seconds,
                100.0 * (double)ps.names_resolved / (2.0 * (double)ps.edges));
  return st;
}

/* NULL when `name` can be a node name, else what is wrong with it. */
static const char *name_problem(const exo_builder *b, const char *name, size_t len) {
  if (len == 0) return "is empty";
  if (memchr(name, '\0', len)) return "contains a NUL byte";
  if (memchr(name, '\n', len) || memchr(name, '\r', len)) return "contains a line end";
  if (memchr(name, b->opt.parse.sep, len)) return "contains the separator";
  return NULL;
}

exo_status exo_builder_add_node(exo_builder *b, const char *name, size_t len,
                                exo_ctx *ctx) {
  if (refuse_after_listing(b, ctx)) return ctx->err.code;
  const char *what = name_problem(b, name, len);
  if (what) return EXO_FAIL(ctx, EXO_EINPUT, "a node name %s", what);
  uint64_t id;
  return exo_names_intern(b->names, (const uint8_t *)name, len, &id, ctx);
}

static exo_status list_start(exo_builder *b, exo_ctx *ctx) {
  if (b->listing) return EXO_OK;
  if (b->keeping)
    return EXO_FAIL(ctx, EXO_EARG, "keep_graph cannot be combined with named sequences: they "
                    "would take ids that the names of later edges take (give the sequences "
                    "when clustering an extended graph instead)");
  b->list_base = exo_names_count(b->names);
  b->list_seen = exo_bits_alloc(b->list_base);
  if (!b->list_seen)
    return exo_fail_oom(ctx, "the listed sequences' marks", (uint64_t)exo_bits_words(b->list_base) * 8);
  b->listing = 1;
  return EXO_OK;
}

static exo_status list_name(exo_builder *b, const uint8_t *name, size_t len, exo_ctx *ctx) {
  uint64_t id;
  exo_status st = exo_names_intern(b->names, name, len, &id, ctx);
  if (!st && id < b->list_base) exo_bits_set(b->list_seen, id);
  return st;
}

exo_status exo_builder_add_listed(exo_builder *b, const char *name, size_t len,
                                  uint64_t index, exo_ctx *ctx) {
  exo_status st = list_start(b, ctx);
  if (st) return st;
  const char *what = name_problem(b, name, len);
  if (what)
    return EXO_FAIL(ctx, EXO_EINPUT, "sequence name %llu ('%.*s') %s",
                    (unsigned long long)index, (int)(len > 80 ? 80 : len), name, what);
  return list_name(b, (const uint8_t *)name, len, ctx);
}

static exo_status on_listed(void *user, const uint8_t *name, size_t len, uint64_t line,
                            exo_ctx *ctx) {
  exo_builder *b = user;
  const char *what = name_problem(b, (const char *)name, len);
  if (what)
    return EXO_FAIL(ctx, EXO_EINPUT, "'%s' line %llu: the sequence name '%.*s' %s",
                    b->list_path, (unsigned long long)line, (int)(len > 80 ? 80 : len),
                    (const char *)name, what);
  return list_name(b, name, len, ctx);
}

exo_status exo_builder_add_sequences(exo_builder *b, const char *path, exo_ctx *ctx) {
  exo_status st = exo_check_outputs(&path, 1, b->opt.outputs, b->opt.noutputs, NULL, ctx);
  if (!st) st = list_start(b, ctx);
  if (st) return st;
  exo_message(ctx, "reading the sequence names of %s", path);
  b->list_path = path;
  exo_seqs_stats ss;
  st = exo_seqs_read(path, on_listed, b, &ss, ctx);
  b->list_path = NULL;
  if (ss.fasta) b->list_fasta = 1;
  if (!st)
    exo_message(ctx, "read %llu sequence name(s) from %s (%s)", (unsigned long long)ss.names,
                path, ss.fasta ? "FASTA" : "a list of names");
  return st;
}

exo_status exo_builder_add_edge(exo_builder *b, const char *a, size_t alen,
                                const char *bname, size_t blen, double w,
                                exo_ctx *ctx) {
  if (refuse_after_listing(b, ctx)) return ctx->err.code;
  b->pushed++;
  if ((b->pushed & (BUILDER_POLL_EDGES - 1)) == 0) {
    exo_progress(ctx, EXO_STAGE_PARSE, b->pushed, b->expected);
    exo_status st = exo_poll(ctx);
    if (st) return st;
  }
  const char *what = name_problem(b, a, alen);
  if (!what) what = name_problem(b, bname, blen);
  if (what)
    return EXO_FAIL(ctx, EXO_EINPUT, "edge %llu: a node name %s",
                    (unsigned long long)b->pushed, what);
  if (!(w == w) || w > 3.4028234663852886e38 || w < -3.4028234663852886e38)
    return EXO_FAIL(ctx, EXO_EINPUT, "edge %llu: the weight is %s",
                    (unsigned long long)b->pushed,
                    w == w ? "infinite or beyond float range" : "NaN");
  float fw = (float)w;
  if (b->opt.parse.ignore_weights) {
    fw = 1.0f;
  } else if (b->opt.parse.transform == EXO_WT_NEGLOG10 && exo_evalue_weight(w, &fw) != 0) {
    return EXO_FAIL(ctx, EXO_EINPUT, "edge %llu: the e-value %g is negative",
                    (unsigned long long)b->pushed, w);
  }
  uint64_t ia, ib;
  exo_status st = exo_names_intern(b->names, (const uint8_t *)a, alen, &ia, ctx);
  if (!st) st = exo_names_intern(b->names, (const uint8_t *)bname, blen, &ib, ctx);
  if (st) return st;
  b->g->num_lines++;
  return on_edge(&b->sink, ia, ib, fw, ctx);
}

void exo_builder_expect(exo_builder *b, uint64_t edges) {
  b->expected = edges;
}

/* EXO_WT_SELFNORM: the CSR's bit scores over the larger self score of the
 * two ends (exo_csr_selfnorm), the self arcs dropped unless kept; the sort's
 * counts follow. Buffers: four of the share selfnorm_read (exo_budget.h). */
static exo_status self_normalise(exo_graph *g, const exo_build_options *opt,
                                 exo_weak_hits *wh, exo_ctx *ctx) {
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->sort.arcs, g->wide};
  uint64_t buf = exo_budget_share(opt->memory_limit, EXO_SHARE_SELFNORM_READ, 1);
  exo_csr_norm nr;
  exo_status st = exo_csr_selfnorm_each(&csr, !opt->drop_self_loops, (size_t)buf, &nr,
                                        wh ? exo_weak_hits_node : NULL, wh, ctx);
  if (st) return st;
  g->sort.arcs = csr.m;
  g->sort.arcs_positive -= nr.dropped_positive;
  if (opt->drop_self_loops) {
    g->sort.arcs_self = 0;
    g->num_self_dropped += nr.dropped_positive;
  }
  exo_message(ctx, "bit scores over self scores: %llu nodes with an edge, %llu self arcs dropped",
              (unsigned long long)nr.linked, (unsigned long long)nr.dropped);
  return EXO_OK;
}

exo_status exo_builder_finish(exo_builder *b, exo_ctx *ctx, exo_graph **out) {
  *out = NULL;
  exo_graph *g = b->g;
  if (b->pushed) exo_progress(ctx, EXO_STAGE_PARSE, b->pushed, b->expected);
  g->num_nodes = exo_names_count(b->names);
  if (b->listing) {
    const uint64_t marked = exo_bits_count(b->list_seen, b->list_base);
    g->listed = 1;
    g->listed_fasta = b->list_fasta;
    g->num_listed_new = g->num_nodes - b->list_base;
    g->num_listed = marked + g->num_listed_new;
    g->num_unlisted = b->list_base - marked;
    free(b->list_seen);
    b->list_seen = NULL;
  }
  g->num_negative = b->sink.negative;
  g->num_self_dropped = b->sink.self;
  exo_status st = exo_names_finish(b->names, ctx);
  exo_names_free(b->names); /* finish releases the table, not the object */
  b->names = NULL;
  if (st) goto fail;
  g->seconds_parse = exo_now_seconds() - b->t0;

  double t0 = exo_now_seconds();
  g->wide = b->opt.force_wide_ids || g->num_nodes > EXO_NARROW_ID_LIMIT ||
            (b->has_kept && b->kept.wide);
  st = exo_sorter_finish_csr(b->sorter, g->num_nodes, g->offsets_path, g->adj_path,
                             g->wide, ctx, &g->sort);
  if (st) goto fail;
  if (b->has_kept &&
      exo_sum_close(exo_sorter_base_terms(b->sorter), b->kept.size[EXO_KEEP_ADJ]) !=
          b->kept.sum[EXO_KEEP_ADJ]) {
    st = EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's adjacency file '%s' does not match the "
                  "checksum of its manifest: it is corrupt", b->kept.path[EXO_KEEP_ADJ]);
    goto fail;
  }
  if (g->sort.run_thread_cpu_seconds > 0)
    exo_detail(ctx, "sort runs: the run thread took %.2f s CPU, writing the runs %.2f s CPU "
                "(on their threads), its sorts %.2f s; reading waited %.2f s for it",
                g->sort.run_thread_cpu_seconds, g->sort.run_write_cpu_seconds,
                g->sort.run_sort_seconds, g->sort.add_wait_seconds);
  if (g->sort.last_sort_threads > 0)
    exo_detail(ctx, "sort: the records left in the buffer at the end of the input sorted in "
                "%.2f s on %u thread%s", g->sort.last_sort_seconds,
                (unsigned)g->sort.last_sort_threads, g->sort.last_sort_threads == 1 ? "" : "s");
  exo_sorter_free(b->sorter);
  b->sorter = NULL;
  const uint64_t kept_arcs = g->sort.arcs; /* the CSR before the passes below */
  if (b->keeping) { /* the graph as merged, before the passes that need every edge */
    st = exo_keep_copy(&b->keep, EXO_KEEP_NAMES, g->names_path, ctx);
    if (!st) st = exo_keep_copy(&b->keep, EXO_KEEP_OFFSETS, g->offsets_path, ctx);
    if (!st) st = exo_keep_copy(&b->keep, EXO_KEEP_ADJ, g->adj_path, ctx);
    if (st) goto fail;
  }
  if (b->opt.regions) {
    const exo_kept *k = &b->kept;
    st = exo_writer_close(&b->hits, ctx);
    /* the kept hits, then the new ones */
    if (!st && b->keeping)
      st = exo_keep_copy2(&b->keep, EXO_KEEP_HITS, b->has_kept ? k->path[EXO_KEEP_HITS] : NULL,
                          k->size[EXO_KEEP_HITS], k->sum[EXO_KEEP_HITS], b->hits_path, ctx);
    if (st) goto fail;
    exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->sort.arcs, g->wide};
    exo_regions_ext ext;
    memset(&ext, 0, sizeof ext);
    ext.keep_intervals = b->keeping;
    exo_csr_files base = {0};
    if (b->has_kept) {
      /* the kept intervals serve when packed the same way; else the kept hits
       * are read again (checked first) */
      if (k->wide == g->wide &&
          (g->wide || exo_regions_shift((uint32_t)k->max_coord) ==
                          exo_regions_shift(b->hits_max_coord))) {
        st = exo_kept_verify(k, EXO_KEEP_IVOFF, (size_t)1 << 20, ctx);
        base = (exo_csr_files){k->path[EXO_KEEP_IVOFF], k->path[EXO_KEEP_IVADJ], k->nodes,
                               k->size[EXO_KEEP_IVADJ] / exo_adj_size(1), 1};
        ext.base = &base;
        ext.base_hits = k->size[EXO_KEEP_HITS] / EXO_REGIONS_HIT_BYTES;
      } else {
        if (!b->keeping) st = exo_kept_verify(k, EXO_KEEP_HITS, (size_t)1 << 20, ctx);
        ext.old_hits = k->path[EXO_KEEP_HITS];
      }
    }
    exo_regions_stats rs;
    if (!st)
      st = exo_regions_apply(&csr, b->hits_path, b->hits_max_coord, &ext, g->tmpdir,
                             b->opt.memory_limit, b->opt.parse.threads, &rs, ctx);
    if (!st && ext.base &&
        exo_sum_close(ext.base_terms, k->size[EXO_KEEP_IVADJ]) != k->sum[EXO_KEEP_IVADJ])
      st = EXO_FAIL(ctx, EXO_EINPUT, "the kept graph's intervals file '%s' does not match the "
                    "checksum of its manifest: it is corrupt", k->path[EXO_KEEP_IVADJ]);
    if (!st && ext.keep_intervals) {
      st = exo_keep_copy(&b->keep, EXO_KEEP_IVOFF, ext.intervals_offsets, ctx);
      if (!st) st = exo_keep_copy(&b->keep, EXO_KEEP_IVADJ, ext.intervals_adj, ctx);
    }
    if (ext.intervals_offsets) exo_remove(ext.intervals_offsets);
    if (ext.intervals_adj) exo_remove(ext.intervals_adj);
    free(ext.intervals_offsets);
    free(ext.intervals_adj);
    if (st) goto fail;
    g->sort.arcs = csr.m;
    g->sort.arcs_positive -= rs.arcs_removed_positive;
    g->num_region_split = rs.proteins_split;
    g->num_region_pairs = rs.pairs_dropped;
    exo_message(ctx, "regions: %llu of the proteins have hits in 2 or more separate regions; "
                "%llu pairs of proteins hit only outside a protein's strongest region "
                "were removed", (unsigned long long)rs.proteins_split,
                (unsigned long long)rs.pairs_dropped);
  }
  /* the weak-hit rule's node values come from the normalisation's pass */
  exo_weak_hits *wh = NULL;
  if (b->opt.weak_hits && selfnorm(&b->opt) && g->num_nodes) {
    st = exo_weak_hits_create(g->num_nodes, &wh, ctx);
    if (st) goto fail;
  }
  if (selfnorm(&b->opt)) {
    st = self_normalise(g, &b->opt, wh, ctx);
    if (st) {
      exo_weak_hits_free(wh);
      goto fail;
    }
  }
  if (b->opt.weak_hits) {
    exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->sort.arcs, g->wide};
    uint64_t removed = 0, removed_pos = 0;
    const double tw = exo_now_seconds();
    st = wh ? exo_weak_hits_apply(wh, &csr, EXO_IO_DEFAULT_BUF, &removed, &removed_pos, ctx)
            : exo_regions_weak_hits(&csr, EXO_IO_DEFAULT_BUF, &removed, &removed_pos, ctx);
    exo_weak_hits_free(wh);
    exo_detail(ctx, "weak hits: %.2f s", exo_now_seconds() - tw);
    if (st) goto fail;
    g->sort.arcs = csr.m;
    g->sort.arcs_positive -= removed_pos;
    g->num_weak_pairs = removed / 2;
    exo_message(ctx, "weak hits: %llu pairs of proteins joined only by a hit far weaker than "
                "all their other hits were removed", (unsigned long long)(removed / 2));
  }
  g->num_arcs = g->sort.arcs;
  g->num_edges = g->directed ? g->sort.arcs_positive : g->sort.arcs;
  if (b->keeping) {
    st = exo_keep_commit(&b->keep, &b->opt, g->num_nodes, kept_arcs, g->wide, g->directed,
                         b->hits_max_coord, ctx);
    if (st) goto fail;
    exo_message(ctx, "kept the graph in %s (%llu nodes, %llu arcs)", b->opt.keep_graph,
                (unsigned long long)g->num_nodes, (unsigned long long)kept_arcs);
    exo_keep_abort(&b->keep); /* frees only, once committed */
  }
  exo_kept_free(&b->kept);
  g->seconds_csr = exo_now_seconds() - t0;
  b->g = NULL;
  free(b->hits_path);
  free(b);
  *out = g;
  return EXO_OK;

fail:
  exo_builder_abort(b);
  return ctx->err.code ? ctx->err.code : st;
}

void exo_builder_abort(exo_builder *b) {
  if (!b) return;
  exo_names_free(b->names);
  exo_sorter_free(b->sorter);
  exo_writer_abort(&b->hits); /* a no-op when never opened */
  if (b->hits_path) exo_remove(b->hits_path);
  free(b->hits_path);
  exo_graph_free(b->g);
  free(b->list_seen);
  exo_keep_abort(&b->keep);
  exo_kept_free(&b->kept);
  free(b);
}

exo_status exo_graph_build(const exo_build_options *opt, exo_ctx *ctx,
                           exo_graph **out) {
  *out = NULL;
  if (!opt || !opt->files || opt->nfiles == 0)
    return EXO_FAIL(ctx, EXO_EARG, "no input files given");
  exo_builder *b = NULL;
  exo_status st = exo_builder_create(opt, ctx, &b);
  if (st) return st;
  for (size_t i = 0; i < opt->nfiles; i++) {
    st = exo_builder_add_file(b, opt->files[i], ctx);
    if (st) {
      exo_builder_abort(b);
      return ctx->err.code ? ctx->err.code : st;
    }
  }
  return exo_builder_finish(b, ctx, out);
}

/* Largest cluster and log2 histogram of cluster sizes, from clusters
 * already renumbered 1..K (8 bytes per cluster of scratch). */
static exo_status size_distribution(const uint64_t *clusters, uint64_t n,
                                    exo_cluster_result *res, exo_ctx *ctx) {
  uint64_t k = res->num_clusters;
  uint64_t *size = calloc(k + 1, sizeof *size);
  if (!size) return exo_fail_oom(ctx, "the cluster sizes", (k + 1) * sizeof *size);
  for (uint64_t v = 0; v < n; v++) size[clusters[v]]++;
  for (uint64_t c = 1; c <= k; c++) {
    uint64_t s = size[c];
    if (s > res->largest) res->largest = s;
    int bin = 63 - __builtin_clzll(s | 1);
    res->size_bins[bin]++;
  }
  free(size);
  return EXO_OK;
}

/* Stable ids (g->stable_old set): *ids (k + 1 entries) the id of each
 * cluster, the clusters renumbered so that it increases with the number,
 * *written every node's id (g->labels_out, or an array of ours when
 * *own). Without stable_old: *written = clusters, copied to labels_out. */
static exo_status stable_labels(exo_graph *g, uint64_t *clusters, exo_cluster_result *res,
                                uint64_t **ids, uint64_t **written, int *own, exo_ctx *ctx) {
  const uint64_t n = g->num_nodes, k = res->num_clusters;
  *ids = NULL;
  *written = clusters;
  *own = 0;
  if (!g->stable_old) {
    if (g->labels_out && n) memcpy(g->labels_out, clusters, (size_t)n * sizeof *clusters);
    return EXO_OK;
  }
  *ids = malloc(((size_t)k + 1) * sizeof **ids);
  if (!*ids) return exo_fail_oom(ctx, "the stable cluster ids", 8 * (k + 1));
  exo_stable_counts sc;
  exo_status st = exo_stable_ids(clusters, n, k, g->stable_old, g->stable_max, *ids, &sc, ctx);
  if (!st) st = exo_stable_order(clusters, n, k, *ids, ctx);
  if (st) return st;
  res->stable = 1;
  res->ids_kept = sc.kept;
  res->ids_merged = sc.merged;
  res->ids_split = sc.split;
  res->ids_new = sc.fresh;
  res->nodes_moved = sc.moved;
  exo_message(ctx, "stable cluster ids: %llu kept, %llu merged, %llu split, %llu new; %llu "
              "node(s) moved", (unsigned long long)sc.kept, (unsigned long long)sc.merged,
              (unsigned long long)sc.split, (unsigned long long)sc.fresh,
              (unsigned long long)sc.moved);
  if (g->labels_out) {
    *written = g->labels_out;
  } else {
    *written = malloc(((size_t)n + 1) * sizeof **written);
    if (!*written) {
      *written = clusters;
      return exo_fail_oom(ctx, "the stable cluster ids of the nodes", 8 * n);
    }
    *own = 1;
  }
  for (uint64_t v = 0; v < n; v++) (*written)[v] = (*ids)[clusters[v]];
  return EXO_OK;
}

/* The size statistics, the output file and, when g->cluster_table,
 * g->members_table or g->rep_fasta asks for them, the cluster table, the
 * member table (exo_clstats.h) and the representatives' FASTA (exo_seqs.h),
 * from renumbered clusters. With more than the output, every finished file
 * is renamed into place only once all are written
 * (exo_output_write_pending), so a failure of any leaves every earlier file
 * as it was. */
static exo_status write_results(exo_graph *g, uint64_t *clusters, const char *outfile,
                                char sep, uint64_t memory_limit, exo_ctx *ctx,
                                exo_cluster_result *res) {
  exo_status st = size_distribution(clusters, g->num_nodes, res, ctx);
  if (st) return st;
  if ((g->rep_fasta == NULL) != (g->rep_fasta_from == NULL))
    return EXO_FAIL(ctx, EXO_EARG, "the representatives' FASTA needs the sequences' FASTA");
  const int more = g->cluster_table || g->members_table || g->rep_fasta;
  exo_pending out_tmp = EXO_PENDING_INIT, table_tmp = EXO_PENDING_INIT,
              members_tmp = EXO_PENDING_INIT, fasta_tmp = EXO_PENDING_INIT;
  exo_byname bn;
  memset(&bn, 0, sizeof bn);
  exo_clstats cs;
  memset(&cs, 0, sizeof cs);
  double t0 = 0;
  uint64_t *ids = NULL, *ids_of_nodes = NULL;
  int own_ids = 0;
  if (g->order_by_name) {
    /* SynExtend's order: lines by name, clusters numbered in that order */
    st = exo_byname_load(&bn, g->names_path, g->num_nodes, ctx);
    if (!st) st = exo_byname_renumber(&bn, clusters, res->num_clusters, ctx);
  }
  if (!st) st = stable_labels(g, clusters, res, &ids, &ids_of_nodes, &own_ids, ctx);
  if (!st && g->order_by_name)
    st = exo_byname_write(&bn, ids_of_nodes, sep, outfile, more ? &out_tmp : NULL, ctx);
  else if (!st)
    st = exo_output_write_pending(g->names_path, ids_of_nodes, g->num_nodes, sep, outfile,
                                  g->threads, more ? &out_tmp : NULL, ctx);
  if (own_ids) free(ids_of_nodes);
  if (st || !more) goto done;
  t0 = exo_now_seconds();
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs, g->wide};
  exo_message(ctx, "writing the cluster table (%llu clusters)",
              (unsigned long long)res->num_clusters);
  st = exo_clstats_compute(&csr, g->directed, clusters, res->num_clusters, memory_limit, ctx,
                           &cs);
  cs.ids = ids; /* the stable ids in the table's Cluster column (NULL: 1..K) */
  if (!st && g->cluster_table)
    st = exo_clstats_write_pending(&cs, g->names_path, clusters, g->num_nodes, sep,
                                   g->cluster_table, memory_limit, &table_tmp, ctx);
  if (!st && g->members_table)
    st = g->order_by_name
             ? exo_byname_write_members(&bn, clusters, cs.rep, sep, g->members_table,
                                        &members_tmp, ctx)
             : exo_clstats_write_members(&cs, g->names_path, clusters, g->num_nodes, sep,
                                         g->members_table, memory_limit, &members_tmp, ctx);
  if (!st && g->rep_fasta) {
    exo_nameset *set = NULL;
    uint64_t written = 0;
    st = exo_nameset_create(&set, ctx);
    if (!st)
      st = exo_clstats_rep_set(&cs, g->names_path, clusters, g->num_nodes, memory_limit, set,
                               ctx);
    if (!st)
      st = exo_fasta_select(g->rep_fasta_from, set, g->rep_fasta, &fasta_tmp, &written, ctx);
    if (!st && written < exo_nameset_count(set))
      exo_message(ctx, "the representatives' FASTA: %llu of the %llu representatives are not "
                  "in %s", (unsigned long long)(exo_nameset_count(set) - written),
                  (unsigned long long)exo_nameset_count(set), g->rep_fasta_from);
    res->rep_missing = st ? 0 : exo_nameset_count(set) - written;
    exo_nameset_free(set);
  }
  if (!st && g->cluster_table) st = exo_output_publish(&table_tmp, g->cluster_table, ctx);
  if (!st && g->members_table) st = exo_output_publish(&members_tmp, g->members_table, ctx);
  if (!st && g->rep_fasta) st = exo_output_publish(&fasta_tmp, g->rep_fasta, ctx);
  if (!st) st = exo_output_publish(&out_tmp, outfile, ctx);
  res->seconds_table = exo_now_seconds() - t0;
done:
  free(ids);
  exo_clstats_free(&cs);
  exo_byname_free(&bn);
  exo_output_discard(&table_tmp);
  exo_output_discard(&members_tmp);
  exo_output_discard(&fasta_tmp);
  exo_output_discard(&out_tmp);
  return st;
}

exo_status exo_graph_cluster(exo_graph *g, const exo_lp_params *params,
                             const char *outfile, char sep, exo_ctx *ctx,
                             exo_cluster_result *res) {
  return exo_graph_cluster_refined(g, params, NULL, outfile, sep, ctx, res);
}

exo_status exo_graph_cluster_refined(exo_graph *g, const exo_lp_params *params,
                                     const exo_refine_params *refine, const char *outfile,
                                     char sep, exo_ctx *ctx, exo_cluster_result *res) {
  memset(res, 0, sizeof *res);
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs,
                       g->wide};
  if (g->atoms)
    return EXO_FAIL(ctx, EXO_EARG, "nested levels (atoms) need algorithm leiden, not label "
                    "propagation");
  exo_lp_params p = *params;
  p.directed = g->directed;
  p.initial = g->initial;
  if (p.threads == 0) p.threads = (uint32_t)g->threads; /* lanes at once; same labels */
  exo_lp_result lr;
  memset(&lr, 0, sizeof lr);
  double t0 = exo_now_seconds();
  exo_status st = exo_lp_run(&csr, &p, ctx, &lr);
  if (st) {
    free(lr.labels);
    return st;
  }
  res->max_visits = lr.max_visits;
  res->lp_visits = lr.pops;
  res->lp_changes = lr.changes;
  res->lp_sweeps = lr.rounds;
  res->seconds_cluster = exo_now_seconds() - t0;

  t0 = exo_now_seconds();
  st = exo_output_renumber(lr.labels, g->num_nodes, &res->num_clusters, ctx);
  if (!st && refine && refine->passes > 0) {
    double t1 = exo_now_seconds();
    exo_refine_result rr;
    exo_refine_params rp = *refine;
    if (rp.threads == 0) rp.threads = (int)p.threads; /* readers side by side; same merges */
    rp.self_loop_cutoff = p.self_loop_cutoff; /* merges follow label propagation's cutoff */
    st = exo_refine_merge(&csr, &rp, lr.labels, &res->num_clusters, ctx, &rr);
    res->refine_merged = rr.merged;
    res->refine_passes = rr.passes;
    res->seconds_refine = exo_now_seconds() - t1;
    if (!st)
      exo_message(ctx, "merge passes: %llu merge%s of clusters in %u pass%s (%.1f s): %llu clusters",
                  (unsigned long long)rr.merged, rr.merged == 1 ? "" : "s", rr.passes,
                  rr.passes == 1 ? "" : "es", res->seconds_refine,
                  (unsigned long long)res->num_clusters);
  }
  if (!st) st = write_results(g, lr.labels, outfile, sep, p.memory_limit, ctx, res);
  free(lr.labels);
  res->seconds_output = exo_now_seconds() - t0 - res->seconds_refine - res->seconds_table;
  return st;
}

exo_status exo_graph_leiden(exo_graph *g, const exo_leiden_params *params,
                            const char *outfile, char sep, exo_ctx *ctx,
                            exo_cluster_result *res) {
  memset(res, 0, sizeof *res);
  exo_csr_files csr = {g->offsets_path, g->adj_path, g->num_nodes, g->num_arcs, g->wide};
  exo_leiden_params p = *params;
  p.tmpdir = g->tmpdir;
  p.threads = g->threads;
  p.initial = g->initial;
  p.atoms = g->atoms;
  exo_leiden_result lr;
  double t0 = exo_now_seconds();
  exo_status st = exo_leiden_run(&csr, &p, ctx, &lr);
  if (st) return st;
  res->leiden_moves = lr.moves;
  res->leiden_sweeps = lr.sweeps;
  res->leiden_merges = lr.merges;
  res->leiden_temp_disk = lr.peak_disk;
  res->quality = lr.quality;
  res->resolution = lr.resolution;
  res->levels = lr.levels;
  res->iterations = lr.iterations;
  res->seconds_cluster = exo_now_seconds() - t0;
  t0 = exo_now_seconds();
  st = exo_output_renumber(lr.labels, g->num_nodes, &res->num_clusters, ctx);
  if (!st) st = write_results(g, lr.labels, outfile, sep, params->memory_limit, ctx, res);
  free(lr.labels);
  res->seconds_output = exo_now_seconds() - t0 - res->seconds_table;
  return st;
}

exo_status exo_graph_write_labels(exo_graph *g, uint64_t *labels, uint64_t memory_limit,
                                  const char *outfile, char sep, exo_ctx *ctx,
                                  exo_cluster_result *res) {
  const double t0 = exo_now_seconds(), table0 = res->seconds_table;
  exo_status st = exo_output_renumber(labels, g->num_nodes, &res->num_clusters, ctx);
  if (!st) st = write_results(g, labels, outfile, sep, memory_limit, ctx, res);
  res->seconds_output += exo_now_seconds() - t0 - (res->seconds_table - table0);
  return st;
}

void exo_graph_free(exo_graph *g) {
  if (!g) return;
  if (g->tmpdir) exo_tempdir_remove(g->tmpdir);
  exo_tempdir_unlock(g->tmpdir_lock);
  free(g->tmpdir);
  free(g->names_path);
  free(g->offsets_path);
  free(g->adj_path);
  free(g);
}

uint64_t exo_run_peak_disk(const exo_graph *g, const exo_cluster_result *r) {
  const uint64_t sorted = g->sort.peak_disk;
  if (!r || !r->leiden_temp_disk) return sorted;
  const uint64_t csr = 8 * (g->num_nodes + 1) + (uint64_t)exo_adj_size(g->wide) * g->num_arcs;
  return csr + r->leiden_temp_disk > sorted ? csr + r->leiden_temp_disk : sorted;
}
