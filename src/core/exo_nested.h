/* exo_nested.h: nested levels (issue 57): several Leiden clusterings of one
 * graph build, each coarser one a union of the finer one's clusters, in
 * one output with a column per level.
 *
 * exo_graph_nested() takes L >= 2 resolved option sets (exo_options.h),
 * one per level, given in the caller's order; each must be Leiden's
 * (algorithm leiden; EXO_EARG otherwise), and they must share the
 * objective and the kind of resolution (a number, or "auto"). The levels
 * are ordered from the finest (the largest resolution) to the coarsest
 * (ties: the caller's order) and made to nest by exo_graph_nested_mode's
 * EXO_NESTED_SPLIT (below): each level is exo_leiden_run on the graph as
 * exo_graph_leiden runs it, and from the coarsest down each finer level is
 * cut by the level above it, so every coarse cluster is a union of fine
 * ones: nesting holds by construction, and the coarsest level is its own
 * run. (EXO_NESTED_ATOMS, each coarser level run on the graph aggregated
 * by the finer level's clusters, is faster, but carries the finest level's
 * mistakes to every coarser one: on a planted two-level graph with 30%
 * noise its family ARI was 0.9356 against 0.9933 for the independent run,
 * while the split levels scored within 0.005 of theirs.) Each
 * level takes its own seed, iterations and memory_limit from its options;
 * threads are the graph's. Everything is deterministic: the same bytes for
 * any threads and memory_limit.
 *
 * Output: one file, a line "name<sep>c_1<sep>...<sep>c_L\n" per node in the
 * order of the ids (first appearance in the input; order "name" is refused
 * with nested levels, as are g->members_table, g->rep_fasta and g->atoms;
 * g->initial is the finest level's start), c_j the cluster of level j in
 * the caller's order,
 * numbered 1..K_j in order of first appearance in the lines
 * (exo_output_write_columns, exo_output.h). With g->cluster_table, one
 * more file: the cluster table of every level (exo_clstats.h), each line
 * led by a column Level (1..L, the caller's order): header
 * "Level<sep>Cluster<sep>Size<sep>...", then level 1's rows, level 2's, ...
 * Both files are renamed into place only once both are written. res[j]
 * (L entries) is level j's exo_cluster_result (as exo_graph_leiden fills
 * it; seconds_output and seconds_table are the run's, on res[0]).
 *
 * Memory: the labels of every level, 8 bytes per node per level (L x 8 n),
 * on top of Leiden's (exo_leiden.h) while a level runs, and the output's
 * buffers. Disk: Leiden's files of one level at a time in the graph's
 * directory, and with a cluster table each level's table there until they
 * are joined. */
#ifndef EXO_NESTED_H
#define EXO_NESTED_H

#include <stdint.h>

#include "exo_ctx.h"
#include "exo_options.h"
#include "exo_pipeline.h"

#define EXO_NESTED_MAX_LEVELS 64u

/* The per-node bytes of L levels' labels (the estimate's figure). */
#define EXO_NESTED_LEVEL_NODE_BYTES 8u

exo_status exo_graph_nested(exo_graph *g, const exo_options *levels, uint32_t L,
                            const char *outfile, char sep, exo_ctx *ctx,
                            exo_cluster_result *res);

/* How the levels are made to nest. EXO_NESTED_ATOMS: each coarser level
 * Leiden with the finer level's clusters as atoms (exo_leiden.h), from the
 * finest up; not offered to users (see above). EXO_NESTED_SPLIT
 * (exo_graph_nested's): every level is Leiden run on its own (the coarsest is the
 * independent run), then from the coarsest on each finer level's clusters
 * are cut by the clusters of the level above it (a cluster that spans
 * several becomes one per piece), which makes them nest; res[j].quality is
 * then that of the level's own run, before the cut. Memory: 24 bytes per
 * node more for each cut, briefly. */
typedef enum exo_nested_mode { EXO_NESTED_ATOMS = 0, EXO_NESTED_SPLIT = 1 } exo_nested_mode;
exo_status exo_graph_nested_mode(exo_graph *g, const exo_options *levels, uint32_t L,
                                 exo_nested_mode mode, const char *outfile, char sep,
                                 exo_ctx *ctx, exo_cluster_result *res);

#endif
