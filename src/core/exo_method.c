/* exo_method.c: the registry and the dispatcher (see exo_method.h), and
 * the run functions of the two methods the pipeline has had from the
 * start (label propagation with its merge passes, Leiden). */
#include "exo_method.h"

#include <string.h>

#define EXO_METHOD_ENTRY_(id, name, stage, help, refused) {name, stage, exo_method_run_##id},
static const exo_method registry[EXO_METHOD_COUNT] = {EXO_METHODS(EXO_METHOD_ENTRY_)};
#undef EXO_METHOD_ENTRY_

const exo_method *exo_methods(void) { return registry; }

const exo_method *exo_method_of(const exo_options *o) {
  const int k = (int)o->num[EXO_OPT_ALGORITHM];
  return k >= 0 && k < EXO_METHOD_COUNT ? &registry[k] : NULL;
}

exo_status exo_method_run(exo_graph *g, const exo_options *o, const char *outfile, char sep,
                          exo_ctx *ctx, exo_cluster_result *res) {
  memset(res, 0, sizeof *res);
  const exo_method *m = exo_method_of(o);
  if (!m) return EXO_FAIL(ctx, EXO_EARG, "no such clustering method (algorithm %d)",
                          (int)o->num[EXO_OPT_ALGORITHM]);
  if (!o->resolved)
    return EXO_FAIL(ctx, EXO_EARG, "internal error: the options were not resolved");
  return m->run(g, o, outfile, sep, ctx, res);
}

exo_status exo_method_run_lp(exo_graph *g, const exo_options *o, const char *outfile, char sep,
                             exo_ctx *ctx, exo_cluster_result *res) {
  exo_lp_params p;
  exo_refine_params rp;
  memset(&p, 0, sizeof p);
  memset(&rp, 0, sizeof rp);
  exo_options_fill_lp(o, &p);
  exo_options_fill_refine(o, &rp);
  return exo_graph_cluster_refined(g, &p, &rp, outfile, sep, ctx, res);
}

exo_status exo_method_run_leiden(exo_graph *g, const exo_options *o, const char *outfile,
                                 char sep, exo_ctx *ctx, exo_cluster_result *res) {
  exo_leiden_params lp;
  memset(&lp, 0, sizeof lp);
  exo_options_fill_leiden(o, &lp);
  return exo_graph_leiden(g, &lp, outfile, sep, ctx, res);
}
