// exolabel_glue.cpp: the Rcpp glue, the only code that touches R.
//
// It converts R arguments into the core's option structs, streams in-memory
// edge lists into the core's builder, runs the core with callbacks that never
// longjmp (interrupts are detected with R_ToplevelExec, progress goes to
// message() or cli progress bars through R_tryCatch), and turns a failing
// status into an R error only after the core has returned and cleaned up
// after itself.
#include <Rcpp.h>
#include <R_ext/Utils.h>
#include <cli/progress.h>

#include <time.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "exo_advice.h"
#include "exo_budget.h"
#include "exo_estimate.h"
#include "exo_initial.h"
#include "exo_method.h"
#include "exo_nested.h"
#include "exo_options.h"
#include "exo_pipeline.h"
#include "exo_platform.h"
#include "exo_seqs.h"
}

namespace {

// ---- progress -------------------------------------------------------------
// verbose: 0 = silent, 1 = message() lines (non-interactive sessions),
// 2 = cli progress bars (interactive sessions). Every call into R from a
// core callback runs inside R_tryCatch for errors and interrupts, and inside
// an unwind protection (Rcpp::unwindProtect), so no longjmp ever crosses the
// core's frames; an interrupt caught there, like one seen by the poll, makes
// the core stop at its next poll. A jump our handlers do not see (an
// interrupt or error raised while the user's own calling handler of
// message() runs: R disables the handlers set up below it) is held until
// the core has returned and cleaned up, then resumed (GlueState::jump).

struct GlueState {
  int verbose = 0;
  bool debug = false;      // the core's internals too (exo_ctx.h's detail)
  bool interrupted = false;
  SEXP jump = R_NilValue;  // a longjmp out of R code run from a callback,
                           // held (preserved) until the core has returned
  int stage = -1;          // stage being reported, -1 = none
  uint64_t base = 0;       // done units of earlier parts (files) of the stage
  uint64_t last_done = 0;  // last `done` seen in this part
  uint64_t total = 0;      // total units (0 = unknown)
  uint64_t parse_total = 0;    // bytes of all input files, or edges pushed
  bool parse_bytes = true;     // parse progress counts bytes (else edges)
  bool leiden = false;         // the clustering being run is Leiden's
  const exo_method *method = nullptr; // the clustering being run (its stage's name)
  double memory_limit = 0;     // bytes, for the out-of-memory message
  double started = 0, last_report = 0;
  SEXP bar = R_NilValue;   // cli progress bar (preserved), verbose == 2
};

void check_interrupt_fn(void *) { R_CheckUserInterrupt(); }

// Poll for Ctrl-C without letting R's longjmp cross the core's frames.
int glue_interrupted(void *user) {
  GlueState *s = static_cast<GlueState *>(user);
  if (!s->interrupted && !R_ToplevelExec(check_interrupt_fn, nullptr))
    s->interrupted = true;
  return s->interrupted ? 1 : 0;
}

struct EvalData {
  SEXP call;
};
SEXP eval_body(void *d) { return Rf_eval(static_cast<EvalData *>(d)->call, R_BaseEnv); }
SEXP eval_handler(SEXP cond, void *d) {
  // an interrupt (or an error in a handler) stops the run at the next poll
  if (Rf_inherits(cond, "interrupt")) static_cast<GlueState *>(d)->interrupted = true;
  return R_NilValue;
}

// Run body(data) in R, errors and interrupts caught (R_tryCatch) and any
// other jump out of it held in s->jump (the core then stops at its next
// poll); nothing runs once a jump is held.
struct GuardCall {
  SEXP (*body)(void *);
  void *data;
  GlueState *s;
};
SEXP guard_body(void *d) {
  GuardCall *g = static_cast<GuardCall *>(d);
  SEXP classes = PROTECT(Rf_allocVector(STRSXP, 2));
  SET_STRING_ELT(classes, 0, Rf_mkChar("error"));
  SET_STRING_ELT(classes, 1, Rf_mkChar("interrupt"));
  SEXP res = R_tryCatch(g->body, g->data, classes, eval_handler, g->s, nullptr, nullptr);
  UNPROTECT(1);
  return res;
}
SEXP guarded(GlueState *s, SEXP (*body)(void *), void *data) {
  if (s->jump != R_NilValue) return R_NilValue;
  GuardCall g{body, data, s};
  try {
    return Rcpp::unwindProtect(guard_body, &g);
  } catch (Rcpp::LongjumpException &e) {
    s->jump = e.token; // preserved by unwindProtect, released when resumed
    s->interrupted = true;
    return R_NilValue;
  }
}

// Evaluate `call` (protected by the caller); errors and interrupts are caught.
SEXP safe_eval(SEXP call, GlueState *s) {
  EvalData d{call};
  return guarded(s, eval_body, &d);
}

// message() the line, so that suppressMessages() and handlers see it.
void emit_message(GlueState *s, const std::string &text) {
  SEXP str = PROTECT(Rf_mkString(("ExoLabel: " + text).c_str()));
  SEXP call = PROTECT(Rf_lang2(Rf_install("message"), str));
  safe_eval(call, s);
  UNPROTECT(2);
}

const char *stage_label(const GlueState *s, int stage) {
  // Leiden reports its moves as the cluster stage and sorts each level's
  // aggregated graph with the merge and CSR stages
  if (s->leiden) {
    switch (stage) {
    case EXO_STAGE_MERGE: case EXO_STAGE_CSR: return "Leiden: aggregating a level";
    case EXO_STAGE_CLUSTER: return "Leiden";
    default: break;
    }
  }
  switch (stage) {
  case EXO_STAGE_PARSE: return "reading edges";
  case EXO_STAGE_MERGE: return "merging sorted runs";
  case EXO_STAGE_CSR: return "writing the graph";
  case EXO_STAGE_CLUSTER: return s->method ? s->method->stage : "label propagation";
  case EXO_STAGE_OUTPUT: return "writing clusters";
  default: return "working";
  }
}

bool stage_counts_bytes(const GlueState *s, int stage) {
  return stage == EXO_STAGE_PARSE && s->parse_bytes;
}

const char *stage_unit(const GlueState *s, int stage) {
  switch (stage) {
  case EXO_STAGE_PARSE: return s->parse_bytes ? "bytes" : "edges";
  case EXO_STAGE_MERGE: case EXO_STAGE_CSR: return "arcs";
  case EXO_STAGE_CLUSTER: return "node visits";
  default: return "nodes";
  }
}

std::string human(double x, bool bytes) {
  char buf[64];
  exo_advice_amount(x, bytes ? 1 : 0, buf, sizeof buf);
  return buf;
}

std::string progress_line(const GlueState *s, bool finished) {
  const uint64_t done = s->base + s->last_done;
  const bool bytes = stage_counts_bytes(s, s->stage);
  const double secs = exo_now_seconds() - s->started;
  std::string line = std::string(stage_label(s, s->stage)) + (finished ? " done: " : ": ");
  line += human((double)done, bytes);
  if (s->total && !finished) line += " of " + human((double)s->total, bytes);
  if (!bytes) line += std::string(" ") + stage_unit(s, s->stage);
  char buf[96];
  std::snprintf(buf, sizeof buf, " in %.1f s", secs);
  line += buf;
  if (secs > 0.05)
    line += " (" + human((double)done / secs, bytes) + (bytes ? "/s)" : "/s)");
  if (!finished && s->total > done && done > 0 && secs >= 1.0) { // at this stage's pace
    const double left = secs * (double)(s->total - done) / (double)done;
    if (left < 90) std::snprintf(buf, sizeof buf, ", %.0f s left", left);
    else if (left < 5400) std::snprintf(buf, sizeof buf, ", %.0f min left", left / 60);
    else std::snprintf(buf, sizeof buf, ", %.1f h left", left / 3600);
    line += buf;
  }
  return line;
}

// cli progress bars through cli's C API (cli/progress.h). Each call that can
// reach R runs inside R_tryCatch, like every other R call from a callback;
// updates go to R only when cli's own timer says a tick is due
// (CLI_SHOULD_TICK), so the hot path costs one memory read.
struct BarCall {
  int op;         // 0 = create, 1 = set, 2 = done
  SEXP bar;       // the bar (set, done)
  double value;   // total (create) or current value (set)
  SEXP config;    // named list for cli_progress_bar (create)
};
SEXP bar_body(void *d) {
  BarCall *c = static_cast<BarCall *>(d);
  switch (c->op) {
  case 0: return cli_progress_bar(c->value, c->config);
  case 1: cli_progress_set(c->bar, c->value); return R_NilValue;
  default: cli_progress_done(c->bar); return R_NilValue;
  }
}
SEXP bar_guarded(GlueState *s, BarCall *c) { return guarded(s, bar_body, c); }

void bar_start(GlueState *s) {
  const bool bytes = stage_counts_bytes(s, s->stage);
  // what matters first (the bar, the share done and the time left), so that
  // a narrow console cuts the counts, not the time left
  std::string fmt = std::string("ExoLabel ") + stage_label(s, s->stage);
  if (s->total)
    fmt += bytes ? " {cli::pb_bar} {cli::pb_percent} | {cli::pb_eta} left | "
                   "{cli::pb_current_bytes}/{cli::pb_total_bytes}"
                 : " {cli::pb_bar} {cli::pb_percent} | {cli::pb_eta} left | "
                   "{cli::pb_current}/{cli::pb_total}";
  else
    fmt += bytes ? " {cli::pb_current_bytes} | {cli::pb_elapsed} | {cli::pb_rate_bytes}"
                 : std::string(" {cli::pb_current} ") + stage_unit(s, s->stage) +
                       " | {cli::pb_elapsed} | {cli::pb_rate}";
  SEXP config = PROTECT(Rf_allocVector(VECSXP, 2));
  SEXP names = PROTECT(Rf_allocVector(STRSXP, 2));
  SET_VECTOR_ELT(config, 0, Rf_mkString(fmt.c_str()));
  SET_STRING_ELT(names, 0, Rf_mkChar("format"));
  SET_VECTOR_ELT(config, 1, Rf_ScalarLogical(FALSE));
  SET_STRING_ELT(names, 1, Rf_mkChar("clear"));
  Rf_setAttrib(config, R_NamesSymbol, names);
  BarCall c{0, R_NilValue, s->total ? (double)s->total : NA_REAL, config};
  SEXP bar = bar_guarded(s, &c);
  if (!Rf_isNull(bar) && TYPEOF(bar) == ENVSXP) {
    R_PreserveObject(bar);
    s->bar = bar;
  }
  UNPROTECT(2);
}

void bar_update(GlueState *s, bool force) {
  if (s->bar == R_NilValue || !(force || CLI_SHOULD_TICK)) return;
  BarCall c{1, s->bar, (double)(s->base + s->last_done), R_NilValue};
  bar_guarded(s, &c);
}

void bar_done(GlueState *s) {
  if (s->bar == R_NilValue) return;
  bar_update(s, true);
  BarCall c{2, s->bar, 0, R_NilValue};
  bar_guarded(s, &c);
  R_ReleaseObject(s->bar);
  s->bar = R_NilValue;
}

// Close the stage being reported (called on a stage change and at the end).
void progress_finish(GlueState *s) {
  if (s->stage < 0) return;
  if (s->verbose == 2) bar_done(s);
  else if (s->verbose == 1) emit_message(s, progress_line(s, true));
  s->stage = -1;
}

// Within Leiden (its moves and the sort and merge of its aggregations) the
// core says one line per level; the counts of those steps are internals,
// told as lines only with options(ExoLabel.debug = TRUE).
bool leiden_step(const GlueState *s, exo_stage stage) {
  return s->leiden && stage != EXO_STAGE_OUTPUT && s->verbose == 1 && !s->debug;
}

void glue_progress(void *user, exo_stage stage, uint64_t done, uint64_t total) {
  GlueState *s = static_cast<GlueState *>(user);
  if (!s->verbose) return;
  if (leiden_step(s, stage)) {
    progress_finish(s);
    return;
  }
  const double now = exo_now_seconds();
  if ((int)stage != s->stage) {
    progress_finish(s);
    s->stage = (int)stage;
    s->base = 0;
    s->last_done = 0;
    s->total = stage == EXO_STAGE_PARSE && s->parse_total ? s->parse_total : total;
    s->started = s->last_report = now;
    if (s->verbose == 2) bar_start(s);
    else emit_message(s, std::string(stage_label(s, stage)) + " ...");
  }
  if (done < s->last_done) s->base += s->last_done;  // next file of the stage
  s->last_done = done;
  if (s->verbose == 2) {
    bar_update(s, false);
    return;
  }
  if (now - s->last_report < 10.0) return;
  s->last_report = now;
  emit_message(s, progress_line(s, false));
}

void glue_message(void *user, const char *text) {
  GlueState *s = static_cast<GlueState *>(user);
  if (s->verbose != 1) return;
  progress_finish(s); // the stage before it, in order
  emit_message(s, text);
}

void glue_detail(void *user, const char *text) {
  GlueState *s = static_cast<GlueState *>(user);
  if (s->verbose == 1 && s->debug) emit_message(s, std::string("[debug] ") + text);
}

// Raise the error recorded in ctx (the core has already cleaned up).
[[noreturn]] void raise_core_error(const exo_ctx &ctx, GlueState &state) {
  progress_finish(&state);
  // a jump held while the core ran: resumed once the C++ frames are gone
  // (the exported function's wrapper calls Rcpp's resumeJump)
  if (state.jump != R_NilValue) throw Rcpp::LongjumpException(state.jump);
  if (ctx.err.code == EXO_EINTR || state.interrupted)
    throw Rcpp::internal::InterruptedException();
  std::string msg(ctx.err.msg[0] ? ctx.err.msg : exo_status_name(ctx.err.code));
  if (ctx.err.code == EXO_ENOMEM) {
    char advice[512];
    exo_advice_oom(EXO_OPT_STYLE_R, static_cast<uint64_t>(state.memory_limit), advice,
                   sizeof advice);
    msg += advice;
  }
  Rcpp::stop(msg);
}

// ---- in-memory edges ----------------------------------------------------
// A column of node names or ids, read through raw pointers taken before the
// core starts (STRING_PTR_RO / INTEGER_RO / REAL_RO also expand ALTREP
// vectors), so nothing allocates in R while edges are pushed.
// Whole-number double ids (R's node_column() has checked them: finite,
// whole, below 2^53 in magnitude) are printed as their exact integer text,
// "0" for -0; integer64 ids (bit64: the 64-bit integers stored in the bits
// of doubles) as their exact decimal text.
struct NameColumn {
  const SEXP *str = nullptr;     // names
  const int *ids = nullptr;      // 1-based ids (into labels, or printed)
  const double *dids = nullptr;  // numeric ids, printed
  const int64_t *lids = nullptr; // integer64 ids, printed
  const SEXP *labels = nullptr;  // names of ids; nullptr = print the id
  R_xlen_t n = 0;
  char buf[40];

  void init(SEXP x, SEXP lab) {
    n = Rf_xlength(x);
    if (TYPEOF(x) == STRSXP) str = STRING_PTR_RO(x);
    else if (TYPEOF(x) == INTSXP) ids = INTEGER_RO(x);
    else if (TYPEOF(x) == REALSXP && Rf_inherits(x, "integer64"))
      lids = reinterpret_cast<const int64_t *>(REAL_RO(x));
    else if (TYPEOF(x) == REALSXP) dids = REAL_RO(x);
    else Rf_error("internal error: node column of type %s", Rf_type2char(TYPEOF(x)));
    if (lab != R_NilValue) labels = STRING_PTR_RO(lab);
  }
  // Name of entry i: pointer and length (valid until the next call).
  const char *get(R_xlen_t i, size_t *len) {
    if (str) {
      SEXP c = str[i];
      *len = (size_t)LENGTH(c);
      return CHAR(c);
    }
    if (ids && labels) {
      SEXP c = labels[ids[i] - 1];
      *len = (size_t)LENGTH(c);
      return CHAR(c);
    }
    int k = ids    ? std::snprintf(buf, sizeof buf, "%d", ids[i])
            : lids ? std::snprintf(buf, sizeof buf, "%lld", (long long)lids[i])
                   : std::snprintf(buf, sizeof buf, "%.0f", dids[i] + 0.0);
    *len = (size_t)k;
    return buf;
  }
};

struct WeightColumn {
  const double *d = nullptr;
  const int *i = nullptr;
  void init(SEXP w) {
    if (w == R_NilValue) return;
    if (TYPEOF(w) == REALSXP) d = REAL_RO(w);
    else if (TYPEOF(w) == INTSXP || TYPEOF(w) == LGLSXP) i = INTEGER_RO(w);
    else Rf_error("internal error: weight column of type %s", Rf_type2char(TYPEOF(w)));
  }
  double get(R_xlen_t k) const { return d ? d[k] : i ? (double)i[k] : 1.0; }
};

SEXP list_get(SEXP list, const char *name) {
  SEXP names = Rf_getAttrib(list, R_NamesSymbol);
  for (R_xlen_t k = 0; k < Rf_xlength(list); k++)
    if (std::strcmp(CHAR(STRING_ELT(names, k)), name) == 0) return VECTOR_ELT(list, k);
  return R_NilValue;
}

// Push an in-memory source (see .exolabel_source() in R/inputs.R) into the
// builder. Returns the core status; the caller aborts the builder on error.
exo_status push_source(exo_builder *b, SEXP src, exo_ctx *ctx) {
  const std::string kind = CHAR(STRING_ELT(list_get(src, "kind"), 0));
  SEXP labels = list_get(src, "labels");
  const double nreg = Rf_asReal(list_get(src, "register"));
  const SEXP *lab = labels == R_NilValue ? nullptr : STRING_PTR_RO(labels);
  char buf[40];
  if (kind == "csc") {
    SEXP ri = list_get(src, "i"), rp = list_get(src, "p"), rx = list_get(src, "x");
    const int *ip = INTEGER_RO(ri), *pp = INTEGER_RO(rp);
    const double *xp = REAL_RO(rx);
    const bool upper = Rf_asLogical(list_get(src, "upper")) == TRUE;
    const R_xlen_t ncol = Rf_xlength(rp) - 1;
    uint64_t nnz = (uint64_t)pp[ncol];
    exo_builder_expect(b, nnz);
    std::vector<char> rowbuf(40), colbuf(40);
    auto name_of = [&](R_xlen_t k, char *tmp, size_t *len) -> const char * {
      if (lab) {
        *len = (size_t)LENGTH(lab[k]);
        return CHAR(lab[k]);
      }
      *len = (size_t)std::snprintf(tmp, 40, "%lld", (long long)k + 1);
      return tmp;
    };
    for (R_xlen_t k = 0; k < (R_xlen_t)nreg; k++) {
      size_t len;
      const char *nm = name_of(k, buf, &len);
      exo_status st = exo_builder_add_node(b, nm, len, ctx);
      if (st) return st;
    }
    for (R_xlen_t j = 0; j < ncol; j++) {
      size_t clen;
      const char *cname = name_of(j, colbuf.data(), &clen);
      for (int k = pp[j]; k < pp[j + 1]; k++) {
        const int i = ip[k];
        if (upper && i > j) continue;
        size_t rlen;
        const char *rname = name_of(i, rowbuf.data(), &rlen);
        exo_status st = exo_builder_add_edge(b, rname, rlen, cname, clen, xp[k], ctx);
        if (st) return st;
      }
    }
    return EXO_OK;
  }
  // kind == "edges"
  NameColumn from, to;
  from.init(list_get(src, "from"), labels);
  to.init(list_get(src, "to"), labels);
  WeightColumn w;
  w.init(list_get(src, "weight"));
  exo_builder_expect(b, (uint64_t)from.n);
  for (R_xlen_t k = 0; k < (R_xlen_t)nreg; k++) {
    size_t len;
    const char *nm;
    if (lab) {
      nm = CHAR(lab[k]);
      len = (size_t)LENGTH(lab[k]);
    } else {
      len = (size_t)std::snprintf(buf, sizeof buf, "%lld", (long long)k + 1);
      nm = buf;
    }
    exo_status st = exo_builder_add_node(b, nm, len, ctx);
    if (st) return st;
  }
  for (R_xlen_t k = 0; k < from.n; k++) {
    size_t alen, blen;
    const char *a = from.get(k, &alen);
    const char *bn = to.get(k, &blen);
    exo_status st = exo_builder_add_edge(b, a, alen, bn, blen, w.get(k), ctx);
    if (st) return st;
  }
  return EXO_OK;
}

double peak_rss_bytes() {
  uint64_t b = exo_peak_rss();
  return b ? (double)b : NA_REAL;
}


// Set one option of `o` by name from an R value (exo_options.h): a string
// as text, a logical or a number as a number, "columns" from integers. NULL
// leaves the default. Errors name the option and the value (R's spelling).
exo_status set_option(exo_options *o, const char *name, SEXP v, R_xlen_t i, exo_error *err) {
  if (Rf_isNull(v)) return EXO_OK;
  if (std::strcmp(name, "columns") == 0 && (TYPEOF(v) == INTSXP || TYPEOF(v) == REALSXP)) {
    // the numbers as text ("2,1,12"): the core's parser checks them (whole,
    // 1 to EXO_PARSE_MAX_COLUMN, two or three) and shows them as given
    std::string text;
    const R_xlen_t n = Rf_xlength(v);
    for (R_xlen_t k = 0; k < n && k < 8; k++) {
      char num[40];
      if (TYPEOF(v) == INTSXP) {
        if (INTEGER(v)[k] == NA_INTEGER) std::snprintf(num, sizeof num, "NA");
        else std::snprintf(num, sizeof num, "%d", INTEGER(v)[k]);
      } else if (ISNAN(REAL(v)[k])) {
        std::snprintf(num, sizeof num, "NA");
      } else {
        std::snprintf(num, sizeof num, "%.15g", REAL(v)[k]);
      }
      if (k) text += ",";
      text += num;
    }
    if (n > 8) text += ",...";
    return exo_options_set(o, name, text.c_str(), err);
  }
  if (Rf_xlength(v) <= i)
    return exo_error_set(err, EXO_EARG, "internal error: option '%s' has no entry %ld", name,
                         (long)i + 1);
  switch (TYPEOF(v)) {
  case STRSXP:
    if (STRING_ELT(v, i) == NA_STRING) return exo_options_set(o, name, "NA", err);
    return exo_options_set(o, name, CHAR(STRING_ELT(v, i)), err);
  case LGLSXP:
    if (LOGICAL(v)[i] == NA_LOGICAL) return exo_options_set(o, name, "NA", err);
    return exo_options_set(o, name, LOGICAL(v)[i] ? "true" : "false", err);
  case INTSXP:
    if (INTEGER(v)[i] == NA_INTEGER) return exo_options_set(o, name, "NA", err);
    return exo_options_set_number(o, name, INTEGER(v)[i], err);
  case REALSXP:
    return exo_options_set_number(o, name, REAL(v)[i], err);
  default:
    return exo_error_set(err, EXO_EARG, "'%s' must be a string, a number or TRUE/FALSE", name);
  }
}

void collect_warning(void *user, const char *text) {
  static_cast<std::vector<std::string> *>(user)->push_back(text);
}

// The options of run i: the table's defaults, then `options` (one value
// each, the same for every run) and entry i of each vector of `runs`, by
// name; resolved. Rcpp::stop() with the core's message on a bad value.
void build_options(exo_options *o, Rcpp::List options, Rcpp::List runs, R_xlen_t i,
                   std::vector<std::string> *warnings) {
  exo_options_init(o, EXO_OPT_STYLE_R);
  o->allow_oversubscribe = 1; // R has capped 'threads' (check_threads)
  exo_error err;
  exo_error_clear(&err);
  for (int pass = 0; pass < 2; pass++) {
    Rcpp::List l = pass ? runs : options;
    if (l.size() == 0) continue;
    Rcpp::CharacterVector names = l.names();
    for (R_xlen_t k = 0; k < l.size(); k++) {
      const std::string name = Rcpp::as<std::string>(names[k]);
      if (set_option(o, name.c_str(), l[k], pass ? i : 0, &err) != EXO_OK)
        Rcpp::stop(std::string(err.msg));
    }
  }
  if (exo_options_resolve(o, collect_warning, warnings, &err) != EXO_OK)
    Rcpp::stop(std::string(err.msg));
}

} // namespace

// The input options as the core resolves them against the format's
// defaults (exo_options_resolve): `given` names format, columns,
// weight_transform, self_hits and combine as the user gave them (NULL: not
// given). Returns columns (3 integers, the third 0 = no weight column) and
// the names of weight_transform, self_hits and combine; stops with the
// core's message (a transform without a weight column, a bad column).
// [[Rcpp::export(.exolabel_input_options)]]
Rcpp::List exolabel_input_options(Rcpp::List given) {
  exo_options o;
  std::vector<std::string> warnings; // none from these options
  build_options(&o, given, Rcpp::List(), 0, &warnings);
  const exo_opt_def *t = exo_options_table();
  return Rcpp::List::create(
      Rcpp::Named("columns") = Rcpp::IntegerVector::create((int)o.rcols[0], (int)o.rcols[1],
                                                           (int)o.rcols[2]),
      Rcpp::Named("weight_transform") = t[EXO_OPT_WEIGHT_TRANSFORM].choices[o.transform],
      Rcpp::Named("self_hits") = t[EXO_OPT_SELF_HITS].choices[o.drop_self ? 1 : 0],
      Rcpp::Named("combine") = t[EXO_OPT_COMBINE].choices[o.combine == EXO_COMBINE_MAX ? 1 : 0],
      Rcpp::Named("bridges") = t[EXO_OPT_BRIDGES].choices[o.bridges > 0 ? 0 : 1]);
}

// One option checked and parsed by the core's table (exo_options.h), for the
// R side's argument checks: returns the parsed value (a number, or the
// choice's name), or stops with the core's message naming the argument.
// [[Rcpp::export(.exolabel_option)]]
SEXP exolabel_option(std::string name, SEXP value) {
  const exo_opt_def *d = exo_options_find(name.c_str());
  if (!d) Rcpp::stop("internal error: no option '%s'", name.c_str());
  exo_options o;
  exo_options_init(&o, EXO_OPT_STYLE_R);
  exo_error err;
  exo_error_clear(&err);
  if (set_option(&o, name.c_str(), value, 0, &err) != EXO_OK)
    Rcpp::stop(std::string(err.msg));
  switch (d->type) {
  case EXO_OT_WHOLE: case EXO_OT_SIZE: return Rf_ScalarReal((double)o.whole[d->id]);
  case EXO_OT_CHOICE: return Rf_mkString(d->choices[(int)o.num[d->id]]);
  case EXO_OT_FLAG: return Rf_ScalarLogical(o.num[d->id] != 0);
  default: return Rf_ScalarReal(o.num[d->id]);
  }
}

// One option checked by the core's table and resolved with the table's
// defaults and `with` (other options by name, e.g. ignore_weights), for
// the options that exo_options_resolve() adjusts with a warning
// (add_self_loops, iterations, threads): returns list(value, warnings),
// the value as resolved and the warnings (the R caller raises them), or
// stops with the core's message. `oversubscribe`: threads above the cores
// are kept (R's test option ExoLabel.oversubscribe).
// [[Rcpp::export(.exolabel_option_resolved)]]
Rcpp::List exolabel_option_resolved(std::string name, SEXP value, Rcpp::List with,
                                    bool oversubscribe) {
  const exo_opt_def *d = exo_options_find(name.c_str());
  if (!d) Rcpp::stop("internal error: no option '%s'", name.c_str());
  exo_options o;
  exo_options_init(&o, EXO_OPT_STYLE_R);
  o.allow_oversubscribe = oversubscribe ? 1 : 0;
  exo_error err;
  exo_error_clear(&err);
  if (with.size()) {
    Rcpp::CharacterVector names = with.names();
    for (R_xlen_t k = 0; k < with.size(); k++) {
      const std::string nm = Rcpp::as<std::string>(names[k]);
      if (set_option(&o, nm.c_str(), with[k], 0, &err) != EXO_OK)
        Rcpp::stop(std::string(err.msg));
    }
  }
  if (set_option(&o, name.c_str(), value, 0, &err) != EXO_OK) Rcpp::stop(std::string(err.msg));
  std::vector<std::string> warnings;
  if (exo_options_resolve(&o, collect_warning, &warnings, &err) != EXO_OK)
    Rcpp::stop(std::string(err.msg));
  SEXP v;
  switch (d->type) {
  case EXO_OT_WHOLE: case EXO_OT_SIZE: v = Rf_ScalarReal((double)o.whole[d->id]); break;
  case EXO_OT_CHOICE: v = Rf_mkString(d->choices[(int)o.num[d->id]]); break;
  case EXO_OT_FLAG: v = Rf_ScalarLogical(o.num[d->id] != 0); break;
  default: v = Rf_ScalarReal(o.num[d->id]); break;
  }
  return Rcpp::List::create(Rcpp::Named("value") = v,
                            Rcpp::Named("warnings") = Rcpp::wrap(warnings));
}

// The table: name, type, default (as text), choices, the limits (min and
// max of numbers, whole numbers, sizes and column numbers; NA = none), the
// value of TRUE where TRUE/FALSE are taken, whether "auto" is taken, and
// the caps that exo_options_resolve() applies with a warning or silently
// (iterations EXO_LP_MAX_VISITS, threads EXO_OPT_MAX_THREADS; NA = none),
// so that R reads defaults and limits from the core, not a second literal.
// [[Rcpp::export(.exolabel_option_table)]]
Rcpp::List exolabel_option_table() {
  static const char *types[] = {"flag", "number", "whole", "size", "choice", "sep", "columns",
                                "path"};
  const exo_opt_def *t = exo_options_table();
  Rcpp::CharacterVector name(EXO_OPT_COUNT), type(EXO_OPT_COUNT), def(EXO_OPT_COUNT);
  Rcpp::NumericVector min(EXO_OPT_COUNT), max(EXO_OPT_COUNT), logical_true(EXO_OPT_COUNT),
      cap(EXO_OPT_COUNT);
  Rcpp::LogicalVector is_auto(EXO_OPT_COUNT);
  Rcpp::List choices(EXO_OPT_COUNT);
  for (int i = 0; i < EXO_OPT_COUNT; i++) {
    name[i] = t[i].name;
    type[i] = types[t[i].type];
    def[i] = t[i].def;
    Rcpp::CharacterVector ch;
    for (int k = 0; t[i].choices && t[i].choices[k]; k++) ch.push_back(t[i].choices[k]);
    choices[i] = ch;
    const bool ranged = t[i].type == EXO_OT_NUMBER || t[i].type == EXO_OT_WHOLE ||
                        t[i].type == EXO_OT_SIZE;
    min[i] = ranged ? t[i].min : t[i].type == EXO_OT_COLUMNS ? 1.0 : NA_REAL;
    max[i] = (t[i].type == EXO_OT_NUMBER || t[i].type == EXO_OT_WHOLE) ? t[i].max
             : t[i].type == EXO_OT_COLUMNS ? (double)EXO_PARSE_MAX_COLUMN : NA_REAL;
    logical_true[i] = !(t[i].flags & EXO_OPTF_LOGICAL) ? NA_REAL
                      : t[i].type == EXO_OT_WHOLE && t[i].logical_true ? t[i].logical_true
                                                                         : 1.0;
    is_auto[i] = (t[i].flags & EXO_OPTF_AUTO) != 0;
    cap[i] = t[i].id == EXO_OPT_ITERATIONS ? (double)EXO_LP_MAX_VISITS
             : t[i].id == EXO_OPT_THREADS ? (double)EXO_OPT_MAX_THREADS : NA_REAL;
  }
  Rcpp::List out = Rcpp::List::create(
      Rcpp::Named("name") = name, Rcpp::Named("type") = type, Rcpp::Named("default") = def,
      Rcpp::Named("choices") = choices, Rcpp::Named("min") = min, Rcpp::Named("max") = max,
      Rcpp::Named("logical_true") = logical_true, Rcpp::Named("auto") = is_auto);
  out["cap"] = cap;
  return out;
}

// The split of memory_limit among the stages (exo_budget.h), for
// EstimateExoLabel: each share's name, divisor, whether it is divided among
// parts, and its bounds (0 = none); and the reading stage's reserve for
// `threads`.
// [[Rcpp::export(.exolabel_budget)]]
Rcpp::List exolabel_budget(int threads) {
  const exo_share_def *t = exo_budget_table();
  Rcpp::CharacterVector name(EXO_SHARE_COUNT);
  Rcpp::NumericVector divisor(EXO_SHARE_COUNT), min(EXO_SHARE_COUNT), max(EXO_SHARE_COUNT);
  Rcpp::LogicalVector per_part(EXO_SHARE_COUNT);
  for (int i = 0; i < EXO_SHARE_COUNT; i++) {
    name[i] = t[i].name;
    divisor[i] = t[i].divisor;
    per_part[i] = t[i].per_part != 0;
    min[i] = static_cast<double>(t[i].min);
    max[i] = static_cast<double>(t[i].max);
  }
  Rcpp::DataFrame shares = Rcpp::DataFrame::create(
      Rcpp::Named("name") = name, Rcpp::Named("divisor") = divisor,
      Rcpp::Named("per_part") = per_part, Rcpp::Named("min") = min, Rcpp::Named("max") = max,
      Rcpp::Named("stringsAsFactors") = false);
  return Rcpp::List::create(
      Rcpp::Named("shares") = shares,
      Rcpp::Named("parse_reserve") = static_cast<double>(exo_budget_parse_reserve(threads)));
}

// One stage's share of memory_limit (exo_budget_share), the share named as
// in the table above; the reading stage's budget and its runs' part after
// a name table of table_bytes (exo_budget_parse, exo_budget_runs).
// [[Rcpp::export(.exolabel_budget_share)]]
double exolabel_budget_share(double memory_limit, std::string name, double parts) {
  const exo_share_def *t = exo_budget_table();
  for (int i = 0; i < EXO_SHARE_COUNT; i++)
    if (name == t[i].name)
      return static_cast<double>(exo_budget_share(static_cast<uint64_t>(memory_limit),
                                                  t[i].id, static_cast<uint32_t>(parts)));
  Rcpp::stop("no memory share named '%s'", name);
}

// [[Rcpp::export(.exolabel_budget_reading)]]
Rcpp::NumericVector exolabel_budget_reading(double memory_limit, int threads,
                                            double table_bytes) {
  const uint64_t parse = exo_budget_parse(static_cast<uint64_t>(memory_limit), threads);
  return Rcpp::NumericVector::create(
      Rcpp::Named("parse") = static_cast<double>(parse),
      Rcpp::Named("runs") =
          static_cast<double>(exo_budget_runs(parse, static_cast<uint64_t>(table_bytes))));
}

// The estimate of a run's memory and temporary disk (exo_estimate.h), for
// EstimateExoLabel and ExoLabel's disk check: peak_ram, peak_temp_disk and
// a data.frame of the stages (stage, ram, temp_disk), in bytes. `algorithm`
// is a method's name of the registry (exo_method_names.h).
// [[Rcpp::export(.exolabel_budget_estimate)]]
Rcpp::List exolabel_budget_estimate(double nodes, double edges, double memory_limit,
                                    int threads, std::string algorithm, bool attenuation,
                                    bool refine, double name_bytes) {
  exo_estimate_in in = {};
  in.nodes = nodes;
  in.edges = edges;
  in.memory_limit = static_cast<uint64_t>(memory_limit);
  in.threads = threads;
  in.method = -1;
  for (int i = 0; i < EXO_METHOD_COUNT; i++)
    if (algorithm == exo_methods()[i].name) in.method = i;
  in.attenuation = attenuation;
  in.refine = refine;
  in.name_bytes = name_bytes;
  exo_estimate_out out;
  if (exo_estimate(&in, &out) != EXO_OK)
    Rcpp::stop("cannot estimate a run of algorithm '%s' with these sizes", algorithm);
  Rcpp::CharacterVector stage(EXO_EST_STAGES);
  Rcpp::NumericVector ram(EXO_EST_STAGES), disk(EXO_EST_STAGES);
  for (int s = 0; s < EXO_EST_STAGES; s++) {
    stage[s] = exo_estimate_stage_name(s);
    ram[s] = out.ram[s];
    disk[s] = out.disk[s];
  }
  return Rcpp::List::create(
      Rcpp::Named("peak_ram") = out.peak_ram, Rcpp::Named("peak_temp_disk") = out.peak_disk,
      Rcpp::Named("stages") = Rcpp::DataFrame::create(Rcpp::Named("stage") = stage,
                                                      Rcpp::Named("ram") = ram,
                                                      Rcpp::Named("temp_disk") = disk,
                                                      Rcpp::Named("stringsAsFactors") = false));
}

// Whether an edge-list file looks like 12-column search-tool output, and
// the warning that says so (exo_advice.h), for R's warn_search_output.
// [[Rcpp::export(.exolabel_looks_like_search_output)]]
bool exolabel_looks_like_search_output(std::string path, std::string sep, double header) {
  return exo_advice_looks_like_search_output(path.c_str(), sep.empty() ? '\t' : sep[0],
                                             static_cast<uint64_t>(header)) != 0;
}

// [[Rcpp::export(.exolabel_search_output_warning)]]
std::string exolabel_search_output_warning(std::string subject) {
  std::vector<char> buf(subject.size() + 1024);
  exo_advice_search_output(EXO_OPT_STYLE_R, subject.c_str(), buf.data(), buf.size());
  return std::string(buf.data());
}

// The number of cores the core's threads = "auto" uses (exo_cpu_count()).
// [[Rcpp::export(.exolabel_cores)]]
int exolabel_cores() { return (int)exo_cpu_count(); }

// Build the graph once (from files, or from an in-memory source when
// `source` is a list) and run one clustering per entry of `outfiles`.
// `options` is a named list of the core's options (exo_options.h; NULL =
// the table's default), the same for every run; `runs` a named list of
// vectors with one entry per run (add_self_loops, attenuation, iterations,
// refine, resolution, algorithm, objective, seed). The named sequences
// (ExoLabel's `sequences`) come after the edges: `seq_file` ("" = none), a
// FASTA file or a list of names, or `seq_names`, a character vector (NULL =
// none).
// [[Rcpp::export(.exolabel_run)]]
Rcpp::List exolabel_run(Rcpp::CharacterVector files, SEXP source,
                        Rcpp::CharacterVector outfiles, Rcpp::CharacterVector tables,
                        Rcpp::List options, Rcpp::List runs, int verbose,
                        double input_bytes, std::string seq_file, SEXP seq_names) {
  // nested levels (options$nested TRUE): one output file and table, one
  // entry of `runs` per level
  bool nested = false;
  if (options.containsElementNamed("nested")) {
    SEXP nv = options["nested"];
    nested = TYPEOF(nv) == LGLSXP && Rf_xlength(nv) == 1 && LOGICAL(nv)[0] == TRUE;
  }
  const R_xlen_t nrun = nested && runs.size() ? Rf_xlength(runs[0]) : outfiles.size();
  const R_xlen_t nout = outfiles.size();
  if (nrun < 1 || tables.size() != nout || (nested ? nout != 1 : nout != nrun))
    Rcpp::stop("internal error: parameter vectors must have one entry per clustering");
  if (runs.size()) {
    for (R_xlen_t k = 0; k < runs.size(); k++)
      if (Rf_xlength(runs[k]) != nrun)
        Rcpp::stop("internal error: parameter vectors must have one entry per clustering");
  }
  if (source != R_NilValue && TYPEOF(source) != VECSXP)
    Rcpp::stop("internal error: 'source' must be NULL or a list");
  if (seq_names != R_NilValue && TYPEOF(seq_names) != STRSXP)
    Rcpp::stop("internal error: 'seq_names' must be NULL or a character vector");
  std::vector<exo_options> run_opts(nrun);
  std::vector<std::string> warnings;
  for (R_xlen_t i = 0; i < nrun; i++) build_options(&run_opts[i], options, runs, i, &warnings);
  for (const std::string &w : warnings) Rcpp::warning(w);
  {
    exo_error err;
    exo_error_clear(&err);
    const int dumped = nrun ? exo_options_dump_if_asked(&run_opts[0], &err) : 0;
    if (dumped < 0) Rcpp::stop(std::string(err.msg));
    if (dumped)
      Rcpp::stop("stopped after writing the options to EXOLABEL_DUMP_OPTIONS (%s)",
                 std::getenv("EXOLABEL_DUMP_OPTIONS"));
  }
  const exo_options &o0 = run_opts[0];
  const char sep0 = static_cast<char>(static_cast<int>(o0.num[EXO_OPT_SEP]));
  const std::string tempdir = o0.tempdir ? o0.tempdir : "";
  const double memory_limit = static_cast<double>(exo_options_memory(&o0));

  // Copy every R string before the core runs: nothing below allocates in R
  // (except the guarded progress calls).
  std::vector<std::string> file_store, out_store;
  for (R_xlen_t i = 0; i < files.size(); i++)
    file_store.emplace_back(Rcpp::as<std::string>(files[i]));
  for (R_xlen_t i = 0; i < nout; i++)
    out_store.emplace_back(Rcpp::as<std::string>(outfiles[i]));
  // cluster tables (exo_clstats.h) to write beside the clusters; "" = none
  std::vector<std::string> table_store;
  for (R_xlen_t i = 0; i < nout; i++)
    table_store.emplace_back(Rcpp::as<std::string>(tables[i]));

  GlueState state;
  state.verbose = verbose & 3; // + 4: options(ExoLabel.debug = TRUE)
  state.debug = (verbose & 4) != 0;
  state.memory_limit = memory_limit;
  if (source != R_NilValue) {
    state.parse_bytes = false;
  } else {
    state.parse_total = input_bytes > 0 ? (uint64_t)input_bytes : 0;
  }
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ctx.cb.user = &state;
  ctx.cb.interrupted = glue_interrupted;
  ctx.cb.progress = glue_progress;
  ctx.cb.message = glue_message;
  ctx.cb.detail = glue_detail;

  // the graph's options are the same in every run (R passes them in
  // `options`); the clustering's come from each run's
  exo_build_options opt;
  std::memset(&opt, 0, sizeof opt);
  exo_options_fill_build(&o0, &opt);
  opt.tempdir_base = tempdir.c_str();
  // No output may be an input, another output or inside the private
  // directory: checked by the core before anything is read or written.
  std::vector<const char *> file_ptrs, out_ptrs;
  for (const std::string &f : file_store) file_ptrs.push_back(f.c_str());
  for (const std::string &o : out_store) out_ptrs.push_back(o.c_str());
  if (!seq_file.empty()) file_ptrs.push_back(seq_file.c_str()); // checked, read last
  opt.files = file_ptrs.data();
  opt.nfiles = file_ptrs.size();
  opt.outputs = out_ptrs.data();
  opt.noutputs = out_ptrs.size();
  // Internal, undocumented test knobs (tests/testthat/test-faults.R):
  // options(ExoLabel.force_wide_ids = TRUE) stores 64-bit ids on disk from the
  // start; ExoLabel.run_records = n and ExoLabel.fan_in = k force tiny sort
  // runs and narrow merges (the core checks the values).
  {
    SEXP o = Rf_GetOption1(Rf_install("ExoLabel.force_wide_ids"));
    opt.force_wide_ids = Rf_isLogical(o) && Rf_length(o) == 1 && LOGICAL(o)[0] == TRUE;
    o = Rf_GetOption1(Rf_install("ExoLabel.run_records"));
    if (Rf_isNumeric(o) && Rf_length(o) == 1 && Rf_asReal(o) >= 1 && Rf_asReal(o) < 1e15)
      opt.run_records = static_cast<uint64_t>(Rf_asReal(o));
    o = Rf_GetOption1(Rf_install("ExoLabel.fan_in"));
    if (Rf_isNumeric(o) && Rf_length(o) == 1 && Rf_asReal(o) >= 2 && Rf_asReal(o) <= 1e6)
      opt.fan_in = static_cast<uint32_t>(Rf_asReal(o));
  }

  const double t_start = exo_now_seconds();
  exo_graph *graph = nullptr;
  exo_builder *builder = nullptr;
  if (exo_builder_create(&opt, &ctx, &builder) != EXO_OK) raise_core_error(ctx, state);
  exo_status st = EXO_OK;
  for (size_t i = 0; i < file_store.size() && !st; i++)
    st = exo_builder_add_file(builder, file_store[i].c_str(), &ctx);
  if (!st && source != R_NilValue) {
    state.parse_total = 0;
    st = push_source(builder, source, &ctx);
  }
  if (!st && !seq_file.empty()) st = exo_builder_add_sequences(builder, seq_file.c_str(), &ctx);
  if (!st && seq_names != R_NilValue) {
    const R_xlen_t nn = Rf_xlength(seq_names);
    for (R_xlen_t k = 0; k < nn && !st; k++) {
      SEXP el = STRING_ELT(seq_names, k);
      st = exo_builder_add_listed(builder, CHAR(el), (size_t)LENGTH(el), (uint64_t)k + 1, &ctx);
      if (!st && (k & 65535) == 65535) st = exo_poll(&ctx);
    }
  }
  if (st) {
    exo_builder_abort(builder);
    raise_core_error(ctx, state);
  }
  if (exo_builder_finish(builder, &ctx, &graph) != EXO_OK) raise_core_error(ctx, state);

  // initial: the previous clustering (exo_initial.h), read once against
  // the graph's names, for every run
  exo_initial ini;
  std::memset(&ini, 0, sizeof ini);
  const char *initial = exo_options_initial(&o0);
  if (initial) {
    if (exo_initial_read(&ini, initial, sep0, graph->names_path, graph->num_nodes, &ctx) !=
        EXO_OK) {
      exo_graph_free(graph);
      raise_core_error(ctx, state);
    }
    graph->initial = ini.initial;
    graph->stable_old = ini.stable_old;
    graph->stable_max = ini.max_old;
  }
  std::vector<exo_cluster_result> results(nrun);
  if (nested) {
    graph->cluster_table = table_store[0].empty() ? nullptr : table_store[0].c_str();
    progress_finish(&state);
    state.leiden = true;
    state.method = exo_method_of(&run_opts[0]);
    if (exo_graph_nested(graph, run_opts.data(), static_cast<uint32_t>(nrun),
                         out_store[0].c_str(), sep0, &ctx, results.data()) != EXO_OK) {
      exo_graph_free(graph);
      raise_core_error(ctx, state);
    }
  }
  for (R_xlen_t i = 0; i < nrun && !nested; i++) {
    graph->cluster_table = table_store[i].empty() ? nullptr : table_store[i].c_str();
    progress_finish(&state); // the stage names differ between the algorithms
    state.leiden = exo_options_leiden(&run_opts[i]) != 0;
    state.method = exo_method_of(&run_opts[i]);
    exo_status cs =
        exo_method_run(graph, &run_opts[i], out_store[i].c_str(), sep0, &ctx, &results[i]);
    if (cs != EXO_OK) {
      exo_graph_free(graph);
      exo_initial_free(&ini);
      raise_core_error(ctx, state);
    }
  }
  if (state.jump != R_NilValue) { // held while the core ran to its end
    exo_graph_free(graph);
    exo_initial_free(&ini);
    raise_core_error(ctx, state);
  }
  Rcpp::RObject initial_stats; // NULL without initial
  if (initial)
    initial_stats = Rcpp::List::create(
        Rcpp::Named("listed") = static_cast<double>(ini.listed),
        Rcpp::Named("missing") = static_cast<double>(ini.missing),
        Rcpp::Named("first_missing") = std::string(ini.first_missing),
        Rcpp::Named("clusters") = static_cast<double>(ini.clusters));
  exo_initial_free(&ini);
  progress_finish(&state);
  uint64_t peak_disk = graph->sort.peak_disk; /* the largest of the runs' (exo_pipeline.h) */
  for (size_t i = 0; i < results.size(); i++)
    peak_disk = std::max(peak_disk, exo_run_peak_disk(graph, &results[i]));
  const double num_vertices = static_cast<double>(graph->num_nodes);
  const double num_edges = static_cast<double>(graph->num_edges);
  const double seconds_build = graph->seconds_parse + graph->seconds_csr;
  Rcpp::List sort_stats = Rcpp::List::create(
      Rcpp::Named("sort_runs") = static_cast<double>(graph->sort.runs),
      Rcpp::Named("merge_passes") = static_cast<double>(graph->sort.merge_passes),
      Rcpp::Named("fan_in") = static_cast<double>(graph->sort.fan_in),
      Rcpp::Named("peak_temp_disk") = static_cast<double>(peak_disk),
      Rcpp::Named("seconds_parse") = graph->seconds_parse,
      Rcpp::Named("seconds_csr") = graph->seconds_csr);
  const double input_lines = static_cast<double>(graph->num_lines);
  const double num_negative = static_cast<double>(graph->num_negative);
  const double self_dropped = static_cast<double>(graph->num_self_dropped);
  Rcpp::NumericVector bridges = Rcpp::NumericVector::create(
      Rcpp::Named("proteins_split") = static_cast<double>(graph->num_region_split),
      Rcpp::Named("region_pairs_removed") = static_cast<double>(graph->num_region_pairs),
      Rcpp::Named("weak_pairs_removed") = static_cast<double>(graph->num_weak_pairs));
  const double self_arcs = static_cast<double>(graph->sort.arcs_self);
  Rcpp::NumericVector listed = Rcpp::NumericVector::create(
      Rcpp::Named("sequences") = graph->listed ? static_cast<double>(graph->num_listed) : NA_REAL,
      Rcpp::Named("without_edges") =
          graph->listed ? static_cast<double>(graph->num_listed_new) : NA_REAL,
      Rcpp::Named("not_listed") =
          graph->listed ? static_cast<double>(graph->num_unlisted) : NA_REAL);
  exo_graph_free(graph);

  Rcpp::NumericVector num_clusters(nrun), used_iterations(nrun), seconds(nrun),
      seconds_output(nrun), largest(nrun), refine_merged(nrun), seconds_refine(nrun),
      quality(nrun), levels(nrun), seconds_table(nrun), resolution_used(nrun), refine_used(nrun);
  Rcpp::List size_bins(nrun), ids(nrun);
  Rcpp::CharacterVector algorithm_used(nrun), objective_used(nrun);
  Rcpp::LogicalVector resolution_auto(nrun);
  Rcpp::NumericVector per_strength(nrun);
  Rcpp::LogicalVector strength_linked(nrun), per_component(nrun);
  for (R_xlen_t i = 0; i < nrun; i++) {
    // the options as the core resolved them, spelled as R's arguments
    algorithm_used[i] = exo_method_of(&run_opts[i])->name;
    objective_used[i] =
        (int)run_opts[i].num[EXO_OPT_OBJECTIVE] == EXO_OPT_CPM ? "CPM" : "modularity";
    resolution_auto[i] = ((run_opts[i].is_auto >> EXO_OPT_RESOLUTION) & 1u) != 0;
    // "auto": the factor of the weights' kind (exo_options_resolve)
    per_strength[i] = resolution_auto[i] ? run_opts[i].num[EXO_OPT_RESOLUTION] : NA_REAL;
    {
      exo_leiden_params lp_auto;
      std::memset(&lp_auto, 0, sizeof lp_auto);
      exo_options_fill_leiden(&run_opts[i], &lp_auto);
      strength_linked[i] = lp_auto.strength_linked != 0;
      per_component[i] = lp_auto.resolution_per_component != 0;
    }
    num_clusters[i] = static_cast<double>(results[i].num_clusters);
    used_iterations[i] = results[i].max_visits;
    seconds[i] = results[i].seconds_cluster;
    seconds_output[i] = results[i].seconds_output;
    largest[i] = static_cast<double>(results[i].largest);
    refine_merged[i] = static_cast<double>(results[i].refine_merged);
    refine_used[i] = static_cast<double>(run_opts[i].whole[EXO_OPT_REFINE]); // resolved
    seconds_refine[i] = results[i].seconds_refine;
    const bool leiden = exo_options_leiden(&run_opts[i]) != 0;
    quality[i] = leiden ? results[i].quality : NA_REAL;
    resolution_used[i] = leiden ? results[i].resolution : run_opts[i].num[EXO_OPT_RESOLUTION];
    levels[i] = results[i].levels;
    seconds_table[i] = results[i].seconds_table;
    int last = 0;
    for (int k = 0; k < EXO_SIZE_BINS; k++)
      if (results[i].size_bins[k]) last = k;
    Rcpp::NumericVector bins(last + 1);
    for (int k = 0; k <= last; k++) bins[k] = static_cast<double>(results[i].size_bins[k]);
    size_bins[i] = bins;
    if (results[i].stable)
      ids[i] = Rcpp::NumericVector::create(
          Rcpp::Named("kept") = static_cast<double>(results[i].ids_kept),
          Rcpp::Named("merged") = static_cast<double>(results[i].ids_merged),
          Rcpp::Named("split") = static_cast<double>(results[i].ids_split),
          Rcpp::Named("new") = static_cast<double>(results[i].ids_new),
          Rcpp::Named("moved") = static_cast<double>(results[i].nodes_moved));
  }
  Rcpp::List out = Rcpp::List::create(
      Rcpp::Named("num_vertices") = num_vertices, Rcpp::Named("num_edges") = num_edges,
      Rcpp::Named("input_edges") = input_lines,
      Rcpp::Named("negative_edges") = num_negative, Rcpp::Named("self_arcs") = self_arcs,
      Rcpp::Named("num_clusters") = num_clusters,
      Rcpp::Named("iterations") = used_iterations,
      Rcpp::Named("seconds_build") = seconds_build,
      Rcpp::Named("seconds_cluster") = seconds,
      Rcpp::Named("seconds_output") = seconds_output,
      Rcpp::Named("largest") = largest, Rcpp::Named("size_bins") = size_bins,
      Rcpp::Named("refine_merged") = refine_merged,
      Rcpp::Named("seconds_refine") = seconds_refine,
      Rcpp::Named("quality") = quality, Rcpp::Named("levels") = levels,
      Rcpp::Named("seconds_table") = seconds_table,
      Rcpp::Named("seconds_total") = exo_now_seconds() - t_start,
      Rcpp::Named("peak_rss") = peak_rss_bytes(),
      Rcpp::Named("sort") = sort_stats);
  out["resolution"] = resolution_used; // List::create takes at most 20
  out["refine"] = refine_used;
  out["algorithm"] = algorithm_used;
  out["objective"] = objective_used;
  out["resolution_auto"] = resolution_auto;
  out["per_strength"] = per_strength;
  out["strength_linked"] = strength_linked;
  out["per_component"] = per_component;
  out["self_dropped"] = self_dropped;
  out["bridges"] = bridges;
  out["listed"] = listed;
  out["ids"] = ids;         // per run: the stable ids' counts (NULL: no initial)
  out["initial"] = initial_stats;
  return out;
}

// Copy from the FASTA file `fasta` the records named in `names` (their
// first record each, in the file's order) to `out` (exo_fasta_select,
// exo_seqs.h). Returns the number of records written.
// [[Rcpp::export(.exolabel_fasta_select)]]
double exolabel_fasta_select(std::string fasta, Rcpp::CharacterVector names, std::string out) {
  GlueState state;
  exo_ctx ctx;
  exo_ctx_init(&ctx);
  ctx.cb.user = &state;
  ctx.cb.interrupted = glue_interrupted;
  exo_nameset *set = nullptr;
  exo_status st = exo_nameset_create(&set, &ctx);
  for (R_xlen_t k = 0; k < names.size() && !st; k++) {
    SEXP el = names[k];
    st = exo_nameset_add(set, reinterpret_cast<const uint8_t *>(CHAR(el)), (size_t)LENGTH(el),
                         &ctx);
  }
  uint64_t written = 0;
  if (!st) st = exo_fasta_select(fasta.c_str(), set, out.c_str(), nullptr, &written, &ctx);
  exo_nameset_free(set);
  if (st) raise_core_error(ctx, state);
  return static_cast<double>(written);
}

// Free bytes for an unprivileged user in the file system holding `path`
// (NA if unknown).
// [[Rcpp::export(.exolabel_free_space)]]
double exolabel_free_space(std::string path) {
  uint64_t bytes = 0;
  if (exo_disk_free(path.c_str(), &bytes) != 0) return NA_REAL;
  return static_cast<double>(bytes);
}

// Whether each path names a regular file (links followed): the R side opens
// only those to look for gzip's magic bytes, never a FIFO or a device, whose
// bytes would be consumed.
// [[Rcpp::export(.exolabel_regular_files)]]
Rcpp::LogicalVector exolabel_regular_files(Rcpp::CharacterVector paths) {
  Rcpp::LogicalVector out(paths.size());
  for (R_xlen_t i = 0; i < paths.size(); i++) {
    uint64_t size = 0;
    int kind = 0;
    std::string p = Rcpp::as<std::string>(paths[i]);
    out[i] = exo_path_stat(p.c_str(), &size, &kind) == 0 && kind == EXO_FILE_REGULAR;
  }
  return out;
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
// The whole of a file the core wrote, as bytes; `what` names it in errors.
std::string read_whole_file(const std::string &path, const char *what) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) Rcpp::stop("cannot open %s '%s'", what, path.c_str());
  std::string data;
  std::vector<char> buf(1 << 20);
  size_t k;
  while ((k = std::fread(buf.data(), 1, buf.size(), f)) > 0) data.append(buf.data(), k);
  bool bad = std::ferror(f) != 0;
  std::fclose(f);
  if (bad) Rcpp::stop("cannot read %s '%s'", what, path.c_str());
  return data;
}
} // namespace

// Read an output file "name<sep>cluster\n" exactly as written (no quoting,
// comments or type conversion): list(Vertex = character, Cluster = integer).
// The 64-bit integers of a bit64 integer64 vector (stored in the bits of
// doubles), without needing bit64: to = "text" gives their exact decimal
// text, "double" the doubles of the same value, NaN where a double cannot
// hold the value exactly. NA_integer64 (the smallest 64-bit integer) gives NA.
// [[Rcpp::export(.exolabel_int64)]]
SEXP exolabel_int64(SEXP x, std::string to) {
  if (TYPEOF(x) != REALSXP) Rcpp::stop("internal error: an integer64 vector is stored in doubles");
  const R_xlen_t n = Rf_xlength(x);
  const double *d = REAL_RO(x);
  const bool text = to == "text";
  SEXP out = PROTECT(Rf_allocVector(text ? STRSXP : REALSXP, n));
  char buf[32];
  for (R_xlen_t i = 0; i < n; i++) {
    int64_t v;
    std::memcpy(&v, d + i, sizeof v);
    const bool na = v == INT64_MIN;
    if (text) {
      if (na) {
        SET_STRING_ELT(out, i, NA_STRING);
      } else {
        std::snprintf(buf, sizeof buf, "%lld", (long long)v);
        SET_STRING_ELT(out, i, Rf_mkChar(buf));
      }
    } else if (na) {
      REAL(out)[i] = NA_REAL;
    } else {
      // exact when converting back gives v; 2^63 (INT64_MAX rounded up) is
      // beyond int64_t, so it is compared before the conversion back
      const double w = static_cast<double>(v);
      REAL(out)[i] = w < 9223372036854775808.0 && static_cast<int64_t>(w) == v ? w : R_NaN;
    }
  }
  UNPROTECT(1);
  return out;
}

// [[Rcpp::export(.exolabel_read_results)]]
Rcpp::List exolabel_read_results(std::string path, std::string sep, int columns = 1) {
  if (sep.size() != 1) Rcpp::stop("'sep' must be a single byte");
  if (columns < 1) Rcpp::stop("'columns' must be >= 1");
  const std::string data = read_whole_file(path, "the cluster file");
  R_xlen_t lines = 0;
  for (char c : data) lines += (c == '\n');
  Rcpp::CharacterVector vertex(lines);
  std::vector<Rcpp::IntegerVector> cluster;
  for (int k = 0; k < columns; k++) cluster.emplace_back(lines);
  size_t pos = 0;
  for (R_xlen_t i = 0; i < lines; i++) {
    size_t eol = data.find('\n', pos), end = eol;
    // the last `columns` fields, from the right (a name may hold sep)
    for (int k = columns - 1; k >= 0; k--) {
      size_t cut = end > pos ? data.rfind(sep[0], end - 1) : std::string::npos;
      if (cut == std::string::npos || cut < pos)
        Rcpp::stop("malformed line %d in the cluster file '%s'", (int)(i + 1), path.c_str());
      long long v = 0;
      for (size_t j = cut + 1; j < end; j++) v = v * 10 + (data[j] - '0');
      if (v > INT_MAX) Rcpp::stop("cluster number too large for an R integer");
      cluster[k][i] = (int)v;
      end = cut;
    }
    SET_STRING_ELT(vertex, i, make_name(data.data() + pos, end - pos));
    pos = eol + 1;
  }
  Rcpp::List out = Rcpp::List::create(Rcpp::Named("Vertex") = vertex);
  if (columns == 1) {
    out["Cluster"] = cluster[0];
  } else {
    for (int k = 0; k < columns; k++) out["Cluster" + std::to_string(k + 1)] = cluster[k];
  }
  return out;
}

// Read a cluster table written by the core (exo_clstats.h): a header line,
// then "cluster<sep>size<sep>internal<sep>external<sep>density<sep>name\n"
// per cluster. The name is the rest of the line, kept byte for byte.
// With `level` (nested levels, exo_nested.h) every line starts with one
// more field, the level, returned as Level.
// [[Rcpp::export(.exolabel_read_table)]]
Rcpp::List exolabel_read_table(std::string path, std::string sep, bool level = false) {
  if (sep.size() != 1) Rcpp::stop("'sep' must be a single byte");
  const std::string data = read_whole_file(path, "the cluster table");
  R_xlen_t lines = 0;
  for (char c : data) lines += (c == '\n');
  R_xlen_t rows = lines > 0 ? lines - 1 : 0;
  Rcpp::IntegerVector levels(level ? rows : 0);
  Rcpp::IntegerVector cluster(rows), size(rows);
  Rcpp::NumericVector internal(rows), external(rows), density(rows);
  Rcpp::CharacterVector rep(rows);
  size_t pos = data.find('\n');
  pos = pos == std::string::npos ? data.size() : pos + 1;
  for (R_xlen_t i = 0; i < rows; i++) {
    size_t eol = data.find('\n', pos);
    double num[5];
    size_t at = pos;
    if (level) {
      size_t cut = data.find(sep[0], at);
      if (cut == std::string::npos || cut > eol)
        Rcpp::stop("malformed line %d in the cluster table '%s'", (int)(i + 2), path.c_str());
      levels[i] = std::atoi(data.substr(at, cut - at).c_str());
      at = cut + 1;
    }
    for (int j = 0; j < 5; j++) {
      size_t cut = data.find(sep[0], at);
      if (cut == std::string::npos || cut > eol)
        Rcpp::stop("malformed line %d in the cluster table '%s'", (int)(i + 2), path.c_str());
      std::string field = data.substr(at, cut - at);
      num[j] = field == "NA" ? NA_REAL : std::strtod(field.c_str(), nullptr);
      at = cut + 1;
    }
    if (num[0] > INT_MAX || num[1] > INT_MAX)
      Rcpp::stop("cluster number or size too large for an R integer");
    cluster[i] = (int)num[0];
    size[i] = (int)num[1];
    internal[i] = num[2];
    external[i] = num[3];
    density[i] = num[4];
    SET_STRING_ELT(rep, i, make_name(data.data() + at, eol - at));
    pos = eol + 1;
  }
  Rcpp::List out = Rcpp::List::create(Rcpp::Named("Cluster") = cluster, Rcpp::Named("Size") = size,
                                      Rcpp::Named("InternalWeight") = internal,
                                      Rcpp::Named("ExternalWeight") = external,
                                      Rcpp::Named("Density") = density,
                                      Rcpp::Named("Representative") = rep);
  if (level) out["Level"] = levels;
  return out;
}
