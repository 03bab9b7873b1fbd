# Nested levels (ExoLabel(nested = TRUE), issue 57): the checks before the
# run and the one result after it. The core runs the levels
# (src/core/exo_nested.h): each level its own Leiden run, then from the
# coarsest down each finer level cut by the level above it, and writes one
# file with a column per level, in the order of `resolution`.

# Only `resolution` may hold one value per level, and it must hold two or
# more (the algorithm is the core's to check: it refuses any but Leiden).
check_nested <- function(given, resolution, lens, user_outfile, outfile) {
    if (!given[["resolution"]] || length(resolution) < 2L)
        stop("'nested = TRUE' needs two resolutions or more, one per level, e.g. ",
             "resolution = c(0.2, 0.05, 0.01)", call. = FALSE)
    if (any(lens[-length(lens)] != 1L) || (user_outfile && length(outfile) != 1L))
        stop("with 'nested = TRUE' only 'resolution' takes one value per level: give one ",
             "value of 'add_self_loops', 'attenuation', 'iterations', 'refine' and one ",
             "'outfile'", call. = FALSE)
    invisible()
}

# The result of a nested run: `results` the output file, or with
# want_table a data.frame Vertex, Cluster1..ClusterL; `parameters` each
# level's resolution and quality (resolution1, quality1, ...);
# `cluster_table` a list of data.frames, one per level.
nested_result <- function(run, outfile, tables, want_table, user_outfile, sep, stats, input,
                          mode, seeds, tempfiledir) {
    L <- length(run$num_clusters)
    result <- outfile
    if (want_table) {
        tab <- .exolabel_read_results(outfile, sep, L)
        unlink(outfile)
        result <- as.data.frame(tab, stringsAsFactors = FALSE)
    }
    params <- as.vector(rbind(run$resolution, run$quality))
    names(params) <- paste0(rep(c("resolution", "quality"), L), rep(seq_len(L), each = 2L))
    params <- structure(params, algorithm = "leiden", objective = run$objective[1L],
                        nested = TRUE)
    res <- new_result(parameters = params, graph_stats = stats, results = result,
                      stats = c(run$sort,
                                list(algorithm = "leiden", nested = TRUE,
                                     num_clusters = run$num_clusters,
                                     largest_cluster = run$largest,
                                     size_bins = run$size_bins[[1L]],
                                     level_size_bins = run$size_bins,
                                     seconds_cluster = sum(run$seconds_cluster),
                                     quality = run$quality,
                                     levels = run$levels,
                                     seconds_output = run$seconds_output[1L],
                                     seconds_table = run$seconds_table[1L]),
                                build_stats(run, input, mode, sep, user_outfile, want_table,
                                            tempfiledir),
                                list(seed = seeds)))
    if (nzchar(tables[1L])) {
        tab <- as.data.frame(.exolabel_read_table(tables[1L], sep, TRUE),
                             stringsAsFactors = FALSE)
        unlink(tables[1L])
        lv <- tab$Level
        tab$Level <- NULL
        res$cluster_table <- lapply(seq_len(L), function(j) {
            t <- tab[lv == j, , drop = FALSE]
            rownames(t) <- NULL
            t
        })
    }
    res
}

#' Nested levels: families inside superfamilies from one run
#'
#' `ExoLabel(..., algorithm = "leiden", resolution = c(r1, ..., rL), nested =
#' TRUE)` clusters one graph build at L >= 2 resolutions so that the levels
#' nest: every cluster of a coarser level is a union of clusters of each
#' finer one. Each level is the Leiden run at its resolution on the one
#' graph build; then, from the coarsest (smallest resolution) down, each
#' finer level's clusters are cut by the clusters of the level above (a
#' cluster that spans several becomes one per piece), so nesting holds by
#' construction. The coarsest level is the clustering that `ExoLabel()`
#' gives at its resolution alone, and each finer one scores as its own run
#' does (issue 57's benchmark, `benchmarks/GROW.md`). Building each coarser
#' level from the clusters of the finer one instead (Leiden on the graph
#' aggregated by them) was measured too: faster, but the mistakes of the
#' finest level then reach every coarser one.
#'
#' Only `algorithm = "leiden"` has nested levels (any other algorithm is
#' refused, and so is a resolution given once); only `resolution` may hold
#' one value per level (not `add_self_loops`, `attenuation`, `iterations`,
#' `refine` or `outfile`); `order = "name"` is not available with it. The
#' command-line tool takes `--nested` with a comma list, `--resolution
#' 0.2,0.05,0.01`.
#'
#' @section Result: One `ExoLabelResult` (not a list): `results` is one file
#'   with a line `name<sep>c1<sep>...<sep>cL` per node (no header; columns in
#'   the order of `resolution` as given; each level's clusters numbered
#'   1..K in order of first appearance; lines in the usual order), or with
#'   `return_table = TRUE` a `data.frame` with columns `Vertex`, `Cluster1`,
#'   ..., `ClusterL`. `parameters` holds `resolution1`, `quality1`,
#'   `resolution2`, ... (each level's resolution and Leiden quality). With
#'   `cluster_table = TRUE`, `cluster_table` is a list of data.frames, one
#'   per level (the command-line tool writes one file with a leading
#'   `Level` column). `ClusterMembership()` and `ClusterSizes()` give one
#'   entry per level.
#' @section Memory and disk: 8 bytes per node per level more than one
#'   Leiden run (24 more per node while a level is cut); Leiden's temporary
#'   files of one level at a time. Time: one Leiden run per level.
#' @name ExoLabelNested
#' @seealso [ExoLabel()]
#' @examples
#' edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
#' set.seed(1)
#' res <- ExoLabel(edges, algorithm = "leiden", objective = "CPM",
#'                 resolution = c(0.5, 0.05), nested = TRUE, return_table = TRUE)
#' head(res$results)
NULL
