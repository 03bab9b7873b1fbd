// exolabel_glue.cpp: the Rcpp glue, the only code that touches R.
//
// It converts R arguments into the core's option structs, runs the core with
// callbacks that never longjmp (interrupts are detected with R_ToplevelExec,
// progress goes to stderr with REprintf), and turns a failing status into an
// R error only after the core has returned and cleaned up after itself.
#include <Rcpp.h>
#include <R_ext/Utils.h>

#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "exo_pipeline.h"
}

namespace {

struct GlueState {
  int verbose = 0;
  bool interrupted = false;
  int last_stage = -1;
};

void check_interrupt_fn(void *) { R_CheckUserInterrupt(); }

// Poll for Ctrl-C without letting R's longjmp cross the core's frames.
int glue_interrupted(void *user) {
  GlueState *s = static_cast<GlueState *>(user);
  if (!s->interrupted && !R_ToplevelExec(check_interrupt_fn, nullptr))
    s->interrupted = true;
  return s->interrupted ? 1 : 0;
}

void glue_progress(void *user, exo_stage stage, uint64_t done, uint64_t total) {
  GlueState *s = static_cast<GlueState *>(user);
  if (!s->verbose) return;
  if ((int)stage != s->last_stage) {
    s->last_stage = (int)stage;
    REprintf("ExoLabel: %s\n", exo_stage_name(stage));
  }
}

void glue_message(void *user, const char *text) {
  GlueState *s = static_cast<GlueState *>(user);
  if (s->verbose) REprintf("ExoLabel: %s\n", text);
}

// Raise the error recorded in ctx (the core has already cleaned up).
[[noreturn]] void raise_core_error(const exo_ctx &ctx, const GlueState &state) {
  if (ctx.err.code == EXO_EINTR || state.interrupted)
    throw Rcpp::internal::InterruptedException();
  std::string msg(ctx.err.msg[0] ? ctx.err.msg : exo_status_name(ctx.err.code));
  Rcpp::stop(msg);
}

uint64_t seed_from_double(double x) {
  if (!(x >= 0)) return 0;
  if (x >= 18446744073709551615.0) return UINT64_MAX;
  return static_cast<uint64_t>(x);
}

} // namespace

// Build the graph once and run one clustering per entry of `outfiles`.
// Parameter vectors are already recycled to length(outfiles) by the R side.
// [[Rcpp::export(.exolabel_run)]]
Rcpp::List exolabel_run(Rcpp::CharacterVector files, Rcpp::CharacterVector outfiles,
                        bool directed, Rcpp::NumericVector self_loops,
                        Rcpp::NumericVector attenuation, Rcpp::IntegerVector iterations,
                        Rcpp::NumericVector seeds, bool ignore_weights,
                        std::string sep, double header, std::string tempdir,
                        double memory_limit, int threads, int verbose) {
  const R_xlen_t nrun = outfiles.size();
  if (self_loops.size() != nrun || attenuation.size() != nrun ||
      iterations.size() != nrun || seeds.size() != nrun)
    Rcpp::stop("internal error: parameter vectors must have one entry per clustering");
  if (sep.size() != 1) Rcpp::stop("'sep' must be a single byte");

  // Copy every R string before the core runs: nothing below allocates in R.
  std::vector<std::string> file_store, out_store;
  for (R_xlen_t i = 0; i < files.size(); i++)
    file_store.emplace_back(Rcpp::as<std::string>(files[i]));
  for (R_xlen_t i = 0; i < nrun; i++)
    out_store.emplace_back(Rcpp::as<std::string>(outfiles[i]));
  std::vector<const char *> file_ptrs;
  for (const std::string &f : file_store) file_ptrs.push_back(f.c_str());

  GlueState state;
  state.verbose = verbose;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ctx.cb.user = &state;
  ctx.cb.interrupted = glue_interrupted;
  ctx.cb.progress = glue_progress;
  ctx.cb.message = glue_message;

  exo_build_options opt;
  std::memset(&opt, 0, sizeof opt);
  opt.files = file_ptrs.data();
  opt.nfiles = file_ptrs.size();
  opt.parse.sep = sep[0];
  opt.parse.header_lines = header > 0 ? static_cast<uint64_t>(header) : 0;
  opt.parse.ignore_weights = ignore_weights ? 1 : 0;
  opt.parse.threads = threads;
  opt.directed = directed ? 1 : 0;
  opt.tempdir_base = tempdir.c_str();
  opt.memory_limit = static_cast<uint64_t>(memory_limit);

  exo_graph *graph = nullptr;
  if (exo_graph_build(&opt, &ctx, &graph) != EXO_OK) raise_core_error(ctx, state);

  std::vector<exo_cluster_result> results(nrun);
  for (R_xlen_t i = 0; i < nrun; i++) {
    exo_lp_params p;
    std::memset(&p, 0, sizeof p);
    p.directed = opt.directed;
    p.self_loop_cutoff = self_loops[i];
    p.attenuation = attenuation[i];
    p.max_visits = iterations[i] > 0 ? static_cast<uint32_t>(iterations[i]) : 0;
    p.seed = seed_from_double(seeds[i]);
    p.memory_limit = opt.memory_limit;
    if (exo_graph_cluster(graph, &p, out_store[i].c_str(), sep[0], &ctx,
                          &results[i]) != EXO_OK) {
      exo_graph_free(graph);
      raise_core_error(ctx, state);
    }
  }
  const double num_vertices = static_cast<double>(graph->num_nodes);
  const double num_edges = static_cast<double>(graph->num_edges);
  const double seconds_build = graph->seconds_parse + graph->seconds_csr;
  Rcpp::List sort_stats = Rcpp::List::create(
      Rcpp::Named("sort_runs") = static_cast<double>(graph->sort.runs),
      Rcpp::Named("merge_passes") = static_cast<double>(graph->sort.merge_passes),
      Rcpp::Named("fan_in") = static_cast<double>(graph->sort.fan_in),
      Rcpp::Named("peak_temp_disk") = static_cast<double>(graph->sort.peak_disk),
      Rcpp::Named("seconds_parse") = graph->seconds_parse,
      Rcpp::Named("seconds_csr") = graph->seconds_csr);
  exo_graph_free(graph);

  Rcpp::NumericVector num_clusters(nrun), used_iterations(nrun), seconds(nrun);
  for (R_xlen_t i = 0; i < nrun; i++) {
    num_clusters[i] = static_cast<double>(results[i].num_clusters);
    used_iterations[i] = results[i].max_visits;
    seconds[i] = results[i].seconds_cluster + results[i].seconds_output;
  }
  return Rcpp::List::create(
      Rcpp::Named("num_vertices") = num_vertices, Rcpp::Named("num_edges") = num_edges,
      Rcpp::Named("num_clusters") = num_clusters,
      Rcpp::Named("iterations") = used_iterations,
      Rcpp::Named("seconds_build") = seconds_build, Rcpp::Named("seconds_cluster") = seconds,
      Rcpp::Named("sort") = sort_stats);
}

namespace {
// Whether [p, p+n) is well-formed UTF-8 (no overlongs, surrogates or > U+10FFFF).
bool valid_utf8(const unsigned char *p, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned c = p[i];
    size_t len;
    unsigned min;
    if (c < 0x80) { i++; continue; }
    else if ((c & 0xE0) == 0xC0) { len = 2; min = 0x80; c &= 0x1F; }
    else if ((c & 0xF0) == 0xE0) { len = 3; min = 0x800; c &= 0x0F; }
    else if ((c & 0xF8) == 0xF0) { len = 4; min = 0x10000; c &= 0x07; }
    else return false;
    if (i + len > n) return false;
    for (size_t j = 1; j < len; j++) {
      if ((p[i + j] & 0xC0) != 0x80) return false;
      c = (c << 6) | (p[i + j] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

// R string for bytes [p, p+n): UTF-8 if valid and not plain ASCII, bytes
// otherwise, so names round-trip exactly.
SEXP make_name(const char *p, size_t n) {
  bool ascii = true;
  for (size_t i = 0; i < n; i++)
    if (static_cast<unsigned char>(p[i]) >= 0x80) { ascii = false; break; }
  if (ascii) return Rf_mkCharLenCE(p, (int)n, CE_NATIVE);
  bool valid = valid_utf8(reinterpret_cast<const unsigned char *>(p), n);
  return Rf_mkCharLenCE(p, (int)n, valid ? CE_UTF8 : CE_BYTES);
}
} // namespace

// Read an output file "name<sep>cluster\n" exactly as written (no quoting,
// comments or type conversion): list(Vertex = character, Cluster = integer).
// [[Rcpp::export(.exolabel_read_results)]]
Rcpp::List exolabel_read_results(std::string path, std::string sep) {
  if (sep.size() != 1) Rcpp::stop("'sep' must be a single byte");
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) Rcpp::stop("cannot open the cluster file '" + path + "'");
  std::string data;
  std::vector<char> buf(1 << 20);
  size_t k;
  while ((k = std::fread(buf.data(), 1, buf.size(), f)) > 0) data.append(buf.data(), k);
  bool bad = std::ferror(f) != 0;
  std::fclose(f);
  if (bad) Rcpp::stop("cannot read the cluster file '" + path + "'");
  R_xlen_t lines = 0;
  for (char c : data) lines += (c == '\n');
  Rcpp::CharacterVector vertex(lines);
  Rcpp::IntegerVector cluster(lines);
  size_t pos = 0;
  for (R_xlen_t i = 0; i < lines; i++) {
    size_t eol = data.find('\n', pos);
    size_t cut = data.rfind(sep[0], eol);
    if (cut == std::string::npos || cut < pos)
      Rcpp::stop("malformed line %d in the cluster file '%s'", (int)(i + 1), path.c_str());
    SET_STRING_ELT(vertex, i, make_name(data.data() + pos, cut - pos));
    long long v = 0;
    for (size_t j = cut + 1; j < eol; j++) v = v * 10 + (data[j] - '0');
    if (v > INT_MAX) Rcpp::stop("cluster number too large for an R integer");
    cluster[i] = (int)v;
    pos = eol + 1;
  }
  return Rcpp::List::create(Rcpp::Named("Vertex") = vertex, Rcpp::Named("Cluster") = cluster);
}
