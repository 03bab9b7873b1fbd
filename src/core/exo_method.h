/* exo_method.h: the clustering methods, one registry, one dispatcher.
 *
 * Every method (the `algorithm` option) is one entry of the registry:
 * its name (the choice), the name of its clustering stage in progress
 * reports, and its run function. A run function clusters a built graph
 * (exo_pipeline.h) and writes the results as every method does
 * (exo_graph_write_labels: the clusters file, and the cluster table, member
 * table and FASTA the graph asks for), filling *res (zeroed first); it
 * takes its own parameters from resolved options (exo_options_resolve) and
 * refuses nothing they allow. A need function gives the method's part of
 * the estimate of a run (exo_estimate.h): its memory and files for a graph
 * of given sizes. The list of methods is exo_method_names.h; adding one is
 * its own file defining exo_method_run_<id> and exo_method_need_<id>, and
 * one line there.
 *
 * exo_method_run() is what the drivers call (the R glue, cli/exolabel.c):
 * the method the options name, on graph g. exolabel-mpi runs label
 * propagation over ranks only and refuses the others by name.
 *
 * Contract: no globals that change (the registry is a constant table);
 * errors as every pipeline function (exo_pipeline.h): a status, the
 * context's message, the files of the call gone. */
#ifndef EXO_METHOD_H
#define EXO_METHOD_H

#include "exo_ctx.h"
#include "exo_estimate.h"
#include "exo_method_names.h"
#include "exo_options.h"
#include "exo_pipeline.h"

typedef exo_status (*exo_method_fn)(exo_graph *g, const exo_options *o, const char *outfile,
                                    char sep, exo_ctx *ctx, exo_cluster_result *res);

/* A method's part of the estimate of a run (exo_estimate.h): what it holds
 * in memory and on disk for a graph of g's sizes under in's options. */
typedef void (*exo_method_need_fn)(const exo_estimate_in *in, const exo_estimate_graph *g,
                                   exo_estimate_need *need);

typedef struct exo_method {
  const char *name;  /* the `algorithm` choice, e.g. "components" */
  const char *stage; /* its EXO_STAGE_CLUSTER reports, e.g. "connected components" */
  exo_method_fn run;
  exo_method_need_fn need;
} exo_method;

/* The run and need functions, one pair per line of exo_method_names.h. */
#define EXO_METHOD_PROTO_(id, name, stage, help, refused)                                 \
  exo_status exo_method_run_##id(exo_graph *g, const exo_options *o, const char *outfile, \
                                 char sep, exo_ctx *ctx, exo_cluster_result *res);      \
  void exo_method_need_##id(const exo_estimate_in *in, const exo_estimate_graph *g,      \
                            exo_estimate_need *need);
EXO_METHODS(EXO_METHOD_PROTO_)
#undef EXO_METHOD_PROTO_

/* The registry, EXO_METHOD_COUNT entries in exo_method_names.h's order. */
const exo_method *exo_methods(void);
/* The method resolved options name (o->num[EXO_OPT_ALGORITHM]). */
const exo_method *exo_method_of(const exo_options *o);
/* Run the method the resolved options name on g: outfile gets
 * "name<sep>cluster" lines, clusters numbered 1..K (exo_output.h). */
exo_status exo_method_run(exo_graph *g, const exo_options *o, const char *outfile, char sep,
                          exo_ctx *ctx, exo_cluster_result *res);

#endif
