/* exo_parse.h: edge-list text to (id, id, weight) triples.
 *
 * Format: one edge per line, fields separated by one byte. Lines end in LF;
 * a CR right before the LF (or before the end of the file) is dropped; the
 * last line needs no newline. Empty lines are skipped. A UTF-8 byte-order
 * mark at the start of a file is skipped. The first `header_lines` lines of
 * each file are skipped whatever they hold. With `comment` set, a line
 * whose first byte is that byte is skipped whatever it holds (the blast
 * format sets '#', for BLAST+'s -outfmt 7: tabular with comment lines).
 *
 * Columns: node A is field col_a, node B field col_b, the weight field col_w
 * (1-based; all three 0 = 1, 2, 3). col_w = 0 (with col_a set), or
 * ignore_weights, reads no weight: every weight is 1. A line may have more
 * fields than the largest column used: the rest of the line is not looked
 * at. A line with fewer is an error, with one exception kept from the plain
 * edge-list format: when the weight is column 3 and the nodes are columns 1
 * and 2, a line of exactly 2 fields has weight 1 (not transformed).
 *
 * Weights: with EXO_WT_NONE and EXO_WT_SELFNORM the weight field is parsed as a float
 * (correctly rounded to float32). With EXO_WT_NEGLOG10 it is an e-value E
 * (decimal, possibly far below the float range, e.g. 1e-250) and the weight
 * is -log10(E) computed in double from the digits and exponent (no
 * underflow), capped at EXO_NEGLOG10_CAP (so E = 0, which BLAST and
 * DIAMOND print when the e-value underflows, and any E below 1e-200 weigh
 * 200, as MCL users do with mcxload -stream-tf 'ceil(200)'), then rounded
 * to float. E >= 1 gives a weight <= 0 (no arc, see below).
 *
 * Errors (EXO_EINPUT, message "<file>:<line>: ..."): too few fields for the
 * columns used, an empty name, a NUL byte or a lone CR in a line, a weight
 * that is not a number, NaN, infinite or beyond float range, a negative
 * e-value, a line longer than EXO_PARSE_MAX_LINE. Bad options (a column
 * number 0 or above EXO_PARSE_MAX_COLUMN, equal node columns, a weight
 * column equal to a node column, an unknown transform): EXO_EARG.
 * Weights <= 0 are reported to the callback like any other: the pipeline
 * registers both names but stores no arc for them. */
#ifndef EXO_PARSE_H
#define EXO_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"
#include "exo_names.h"

#define EXO_PARSE_MAX_LINE ((size_t)64 << 20) /* 64 MiB */
#define EXO_PARSE_MAX_COLUMN 1000000u
#define EXO_NEGLOG10_CAP 200.0 /* largest weight of EXO_WT_NEGLOG10 */

typedef enum exo_weight_transform {
  EXO_WT_NONE = 0,     /* the field is the weight */
  EXO_WT_NEGLOG10 = 1, /* the field is an e-value E; weight = min(-log10 E, 200) */
  EXO_WT_SELFNORM = 2  /* the field is a bit score, parsed as EXO_WT_NONE; the
                          pipeline divides it by the larger self score of the
                          two ends once the graph is built (exo_pipeline.h,
                          exo_csr_selfnorm in exo_csr.h) */
} exo_weight_transform;

typedef struct exo_parse_options {
  char sep;              /* field separator, any byte but CR, LF, NUL */
  uint64_t header_lines; /* lines skipped at the start of each file */
  char comment;          /* lines starting with this byte are skipped; 0 = none */
  int ignore_weights;    /* every weight is 1, extra fields ignored */
  int threads;           /* parser threads; <= 1 = one thread. The result
                            (ids, record order, errors) never depends on it */
  size_t block_bytes;    /* parallel path: bytes per block; 0 = 1 MiB (other
                            values are for tests) */
  uint32_t col_a, col_b, col_w; /* 1-based columns; all 0 = 1, 2, 3; col_w 0 =
                                   no weight column (weight 1) */
  exo_weight_transform transform; /* applied to the weight column */
  uint32_t col_iv[4];    /* 1-based columns of where the hit lies on A (start,
                            end) and on B (start, end): BLAST's qstart qend
                            sstart send are 7, 8, 9, 10. All 0 = none; read
                            only by exo_parse_file_hits. Each field is a whole
                            number 0 .. 2^32 - 1 (else an EXO_EINPUT error
                            naming the line and field) */
  int by_name;           /* search output: the columns (nodes, the weight,
                            col_iv) are taken from the names of a header
                            line when the file has one (below) */
} exo_parse_options;

/* Columns by name (by_name): before the first data line of each file, the
 * parser looks for the names of search output's columns in (1) the first
 * header line (header_lines >= 1), (2) a comment line "# Fields: a, b, ..."
 * (BLAST+ -outfmt 7, DIAMOND --header verbose), or (3) when no header line
 * is configured, the file's first line that is not a comment, which is then
 * taken as a header (DIAMOND --header simple, MMseqs2 --format-mode 4).
 * Recognised names, in any case: the query (qseqid, query, query id, query
 * acc.ver, qaccver), the subject (sseqid, target, subject id, subject
 * acc.ver, saccver), the bit score (bitscore, bits, bit score), the e-value
 * (evalue, expected value), qstart / qend (q. start, q. end, start / end of
 * alignment in query), sstart / send (tstart, tend, s. start, s. end, start
 * / end of alignment in subject). The names apply when the query, the
 * subject and the weight (the bit score, or the e-value for
 * EXO_WT_NEGLOG10) are all found; the coordinates (when col_iv is set)
 * then come from the names too, or are not read (the hits' coordinates are
 * 0) when one of the four is missing. Otherwise the columns stay as set. */

/* Called once per data line, in file order, after both names are interned. */
typedef exo_status (*exo_edge_fn)(void *user, uint64_t a, uint64_t b, float w,
                                  exo_ctx *ctx);

/* exo_parse_file_hits' callback: exo_edge_fn's arguments and the line's
 * coordinate fields (opt->col_iv's order: start and end on A, then on B,
 * as written: a start may exceed its end). */
typedef exo_status (*exo_hit_fn)(void *user, uint64_t a, uint64_t b, float w,
                                 const uint32_t iv[4], exo_ctx *ctx);
/* (iv is all 0 when the file's header names no coordinates: by_name.) */

typedef struct exo_parse_stats {
  uint64_t lines;      /* physical lines read, header included */
  uint64_t edges;      /* data lines passed to the callback */
  uint64_t bytes;      /* decompressed bytes */
  /* How the work was shared (threads > 1), for the serial-part figures:
   * the names whose id a worker found in the table (the rest, 2 x edges
   * less this, were looked up and interned by the calling thread), the CPU
   * seconds of the calling thread in this call (with threads > 1 the serial
   * part: interning in order and the edge callback; it sleeps while it
   * waits for a block) and of the worker threads together. */
  uint64_t names_resolved;
  double caller_cpu_seconds;
  double worker_cpu_seconds;
} exo_parse_stats;

/* Arc records (exo_record.h) built by the parser threads, for a caller
 * that feeds an exo_sorter (exo_parse_file_arcs). The rule is the
 * pipeline's: an edge (a, b, w) with w <= 0 or w < min_weight stores
 * nothing (w < 0 is counted in `negative`); a self-loop stores nothing with
 * drop_self; otherwise a directed edge stores (b, a, w) then (a, b, -w), an
 * undirected one (a, b, w) then, unless a == b, (b, a, w). */
typedef struct exo_arc_rule {
  int directed;
  int drop_self;
  float min_weight;
} exo_arc_rule;

/* Encode the arcs of edge (a, b, w) under rule r into out (room for two
 * records of exo_rec_size(wide) bytes); returns how many (0, 1 or 2). The
 * edge callback of a caller of exo_parse_file_arcs must store exactly these. */
size_t exo_edge_arcs(const exo_arc_rule *r, uint64_t a, uint64_t b, float w, int wide,
                     uint8_t *out);

/* Takes n records of the given width, in input order; on failure *done is
 * how many it stored before the one that failed. */
typedef exo_status (*exo_arcs_fn)(void *user, const uint8_t *recs, size_t n, int wide,
                                  size_t *done, exo_ctx *ctx);

typedef struct exo_arc_sink {
  exo_arc_rule rule;
  int wide;          /* width of the records the workers build */
  exo_arcs_fn add;
  void *user;
  uint64_t negative; /* edges with w < 0 handed over as records (added to) */
  uint64_t self;     /* self-loops that drop_self kept from storing (weight > 0,
                        not below min_weight), handed over as records (added to) */
} exo_arc_sink;

/* Parse one file. With threads > 1 the BOM and header lines are read
 * first, then the rest is cut into blocks of block_bytes that `threads`
 * worker threads (created and joined inside this call) split, check and
 * hash in parallel and look the names up in the table (exo_names_pin: the
 * ids of names interned before); the calling thread interns the names the
 * workers did not find and calls fn in file order. An uncompressed regular file's blocks are read with pread(),
 * by all workers at once. A stream (gzip, a pipe, standard input, a FIFO)
 * is read by the workers in turn, one block each, serially (gzip is
 * inflated there), each block ending at its last LF; the splitting and
 * hashing still overlap. fn and the ctx callbacks are only ever called from
 * the calling thread. Memory: per worker two blocks of text plus their
 * parsed lines (88 bytes per data line), about 6 MiB for typical 40-byte
 * lines; the name table's old array is kept until no worker reads it. Ids, callbacks, counts and messages are those of threads = 1; the
 * one difference: when reading a stream fails (a truncated gzip file), the
 * edges delivered before the error stop at a different line.
 * Progress is reported as EXO_STAGE_PARSE with done = raw
 * bytes read and total = file size; exo_poll() is called every 64 KiB or so. */
exo_status exo_parse_file(const char *path, const exo_parse_options *opt,
                          exo_names *names, exo_edge_fn fn, void *user,
                          exo_ctx *ctx, exo_parse_stats *stats);

/* exo_parse_file, with the blocks of the parallel path (threads > 1) handed
 * over as arc records: each worker, after looking a block's names up,
 * encodes the block's arcs (exo_edge_arcs under arcs->rule, at arcs->wide)
 * into the block's slot, with a placeholder where a name was not found and
 * a list of those lines; the calling thread interns those names in order,
 * fills their records in, and hands the block's records to arcs->add in one
 * call. The records, and their order, are those fn would have been asked
 * to store edge by edge; ids, names file, counts, line numbers and messages
 * are exo_parse_file's. The header lines, threads = 1, and a block where
 * this cannot hold (an id that does not fit narrow records, a fingerprint
 * collision, no memory for the records) go through fn, edge by edge, which
 * must then store exo_edge_arcs' records. Polls once per block (and in
 * fn/add) instead of every 64 KiB. Memory: per worker slot the records too,
 * 2 x exo_rec_size(wide) bytes per data line (24 narrow), and 12 bytes per
 * line with a name not found: about 6.9 MiB per worker for 40-byte lines. */
exo_status exo_parse_file_arcs(const char *path, const exo_parse_options *opt,
                               exo_names *names, exo_edge_fn fn, void *user,
                               exo_arc_sink *arcs, exo_ctx *ctx, exo_parse_stats *stats);

/* exo_parse_file with the coordinate columns opt->col_iv (all four set, else
 * EXO_EARG) read too and handed to fn with each edge. Lines are parsed as
 * exo_parse_file parses them (threads, order, ids, messages); a line needs
 * every column used. Memory: 16 bytes more per parsed line. */
exo_status exo_parse_file_hits(const char *path, const exo_parse_options *opt,
                               exo_names *names, exo_hit_fn fn, void *user,
                               exo_ctx *ctx, exo_parse_stats *stats);

/* Parse the lines of the plain (uncompressed) regular file `path` that
 * start in the byte range [from, to) (to may exceed the file size): the two
 * boundaries move forward to line starts (a line starts at 0, after the BOM
 * and header, or after an LF), so the ranges [0, x), [x, y), [y, size) of
 * P readers together parse every line exactly once, a line that straddles a
 * boundary going to the range it starts in. The BOM and the header lines
 * are read (and skipped) whatever the range. Lines are parsed with
 * max(threads, 1) worker threads and positioned reads, as exo_parse_file's
 * parallel path. Error messages name the file and the absolute line number:
 * only on that error path the lines before the range are counted, with a
 * second read of the file's prefix. stats->lines counts the header lines and
 * the range's lines. EXO_EARG when the file is not plain and regular (gzip,
 * pipe): exo_parse_splittable() says which files can be split. */
exo_status exo_parse_range(const char *path, const exo_parse_options *opt, uint64_t from,
                           uint64_t to, exo_names *names, exo_edge_fn fn, void *user,
                           exo_ctx *ctx, exo_parse_stats *stats);
/* 1 and *size = its bytes when exo_parse_range can read path; 0 otherwise. */
int exo_parse_splittable(const char *path, uint64_t *size);

/* Parse a weight field [s, s+len). Returns 0 and sets *w on success; -1 if
 * it is not a number; -2 if NaN or infinite; -3 if beyond float range. */
int exo_parse_weight(const char *s, size_t len, float *w);

/* Parse an e-value field [s, s+len) into the EXO_WT_NEGLOG10 weight.
 * Returns 0 and sets *w; -1 not a number; -2 NaN or infinite; -4 negative. */
int exo_parse_evalue(const char *s, size_t len, float *w);

/* The EXO_WT_NEGLOG10 weight of an e-value held as a double (in-memory
 * inputs). Returns 0 and sets *w; -2 NaN or infinite; -4 negative. */
int exo_evalue_weight(double e, float *w);

/* Check the column and transform options; EXO_EARG with a message if bad. */
exo_status exo_parse_check_options(const exo_parse_options *opt, exo_ctx *ctx);

#endif
