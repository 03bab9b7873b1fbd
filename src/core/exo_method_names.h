/* exo_method_names.h: the clustering methods' registry list, nothing else.
 *
 * One line per method: X(id, "name", "stage", "help", refused), id a C
 * identifier, name the `algorithm` choice (lower case; the R function's and
 * the CLI's spelling), stage the name of its clustering stage in progress
 * reports, help a few words for the option's help text, refused the
 * options it has no use for (EXO_OPT_BIT()s of exo_options.h, 0 = none):
 * exo_options_resolve refuses them when given (refine, iterations,
 * attenuation, add_self_loops: a value other than 0), naming the option
 * and the method. Every method but lp has refine 0 unless given. The order is the
 * choice index (exo_options.h keeps the resolved algorithm as that index)
 * and the order of the help; the first is the default. exo_options.c makes
 * the `algorithm` choices and help from this list, exo_method.c the
 * registry (X(id, ...) runs exo_method_run_<id> and estimates with
 * exo_method_need_<id>, exo_method.h).
 *
 * Adding a method: its own file defining exo_method_run_<id> and
 * exo_method_need_<id> (the signatures in exo_method.h) and one line here. This header includes
 * nothing, so every layer may include it. */
#ifndef EXO_METHOD_NAMES_H
#define EXO_METHOD_NAMES_H

#define EXO_METHODS(X)                                                         \
  X(lp, "lp", "label propagation", "label propagation", 0)                     \
  X(leiden, "leiden", "Leiden", "the Leiden algorithm", 0)                     \
  X(components, "components", "connected components",                          \
    "single linkage: each connected component is one cluster",                 \
    EXO_METHOD_PARAMETERS)

/* The options of label propagation and Leiden that shape a clustering: a
 * method without parameters refuses them all. */
#define EXO_METHOD_PARAMETERS                                                  \
  (EXO_OPT_BIT(EXO_OPT_REFINE) | EXO_OPT_BIT(EXO_OPT_OBJECTIVE) |              \
   EXO_OPT_BIT(EXO_OPT_RESOLUTION) | EXO_OPT_BIT(EXO_OPT_ITERATIONS) |         \
   EXO_OPT_BIT(EXO_OPT_ATTENUATION) | EXO_OPT_BIT(EXO_OPT_ADD_SELF_LOOPS))

/* EXO_METHOD_<id>: the choice index of each method; EXO_METHOD_COUNT. */
#define EXO_METHOD_ENUM_(id, name, stage, help, refused) EXO_METHOD_##id,
enum { EXO_METHODS(EXO_METHOD_ENUM_) EXO_METHOD_COUNT };
#undef EXO_METHOD_ENUM_

#endif
