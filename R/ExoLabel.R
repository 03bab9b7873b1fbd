#' Cluster a graph too large for memory with label propagation
#'
#' `ExoLabel()` reads one or more edge-list files, builds the graph on disk
#' and clusters it with asynchronous weighted label propagation. Only the
#' buffers (bounded by `memory_limit`) and a few bytes per node are held in
#' memory; the edges stay on disk.
#'
#' @section Input format:
#' One edge per line, `A<sep>B<sep>W` or `A<sep>B`. Names are any bytes but
#' the separator, line ends and NUL (UTF-8 is fine; names of any length up to
#' 64 MiB per line). The weight is parsed as a number and stored as a
#' single-precision float; a two-column line has weight 1. Lines may end in
#' LF or CRLF, the last line needs no newline, empty lines are skipped and a
#' UTF-8 byte-order mark is ignored. Files may be gzip-compressed (detected
#' from their first bytes). Several files are read in order into one graph.
#' Edges with a weight of zero or below add both names to the graph (they
#' appear in the output) but no edge. Duplicate edges are all kept, so their
#' weights add up; a self-loop `A A w` is one arc from `A` to itself. A
#' malformed line stops the run with an error naming the file and line.
#'
#' @section Label propagation:
#' Every node starts in its own cluster and is active. Nodes are processed
#' in sweeps over the node ids: blocks of 1024 consecutive ids in increasing
#' order, and inside each block a random order (drawn from a seed taken from
#' R's random number generator, so [set.seed()] makes results reproducible).
#' This lets each sweep read the graph file front to back. An active node
#' adopts the label with the largest total weight among its neighbours (in
#' `"directed"` mode, among its in-neighbours: a line `A B w` is the arc
#' `A -> B`, and `B` listens to `A`). If its current label is among the best
#' it keeps it; other exact ties are broken at random. When a node changes
#' label, its neighbours (out-neighbours when directed) that hold another
#' label become active again: later in the same sweep if they come after it,
#' otherwise in the next sweep. The run ends when no node is active. Results
#' do not depend on `memory_limit`.
#'
#' With attenuation `a > 0`, a neighbour `u` contributes
#' \eqn{w (1 - p^a d_u^a)}{w * (1 - p^a * d_u^a)} instead of `w`, where
#' \eqn{d_u}{d_u} is `u`'s hop distance from the node its label came from and
#' `p` the share of nodes that changed label in the previous sweep (0 in
#' the first). This damps labels that travel far
#' and keeps one label from flooding the graph.
#'
#' `add_self_loops` is a cutoff: a label can win only if at least one of the
#' node's arcs from that label has a raw weight of at least `add_self_loops`
#' (`FALSE` = 0: every positive edge qualifies; `TRUE` = 1).
#'
#' `iterations` caps how often any node is processed (the first visit
#' included), so `iterations = 1` visits each node once. `0` picks
#' `max(5, floor(sqrt(d)))`, where `d` is the largest number of arcs at a
#' node. The value used is reported in `$parameters`.
#'
#' @section Output:
#' The output file has one line `name<sep>cluster` per node, in order of
#' first appearance of the names in the input. Clusters are numbered `1..K`
#' in order of first appearance in that listing.
#'
#' @section Resources:
#' `memory_limit` bounds the buffers of every stage (the sort's run buffers,
#' the merge's file buffers, the adjacency buffer of label propagation). On
#' top of it come per-node arrays: about 23 to 46 bytes per node while
#' reading (a table of name fingerprints, 16 bytes per slot, at most 70% full;
#' three times that for a moment while it grows), and 18 to 22 bytes per
#' node while clustering. Temporary disk: the node names, 12 bytes per
#' stored arc for the sort runs and 8 bytes per stored arc for the final
#' graph (20 and 12 bytes when there are more than 2^32 nodes); runs are
#' released while they are merged. Temporary files go to a fresh private
#' directory inside `tempfiledir` that is removed when the call ends,
#' whether it succeeds, fails or is interrupted.
#'
#' @param edgelistfiles Character vector of paths to edge-list files (plain
#'   or gzip), read in order into one graph.
#' @param outfile Path of the output file, or one path per clustering.
#'   Missing directories are created. Ignored (with a warning) when
#'   `return_table = TRUE`.
#' @param mode `"undirected"` (default) or `"directed"`; may be abbreviated.
#' @param add_self_loops `FALSE`, `TRUE` or a non-negative number: the
#'   weight cutoff described under Label propagation. A vector runs one
#'   clustering per value.
#' @param attenuation `FALSE`, `TRUE` (= 1) or a non-negative number: the
#'   attenuation power `a`. A vector runs one clustering per value.
#' @param ignore_weights If `TRUE`, every edge has weight 1 and columns after
#'   the second are ignored.
#' @param iterations Hard cap on how often a node is processed; `0`
#'   (default) chooses it automatically. A vector runs one clustering per
#'   value.
#' @param return_table If `TRUE`, return a `data.frame(Vertex, Cluster)`
#'   instead of a file path; names are returned byte for byte as in the input.
#' @param verbose Print progress messages.
#' @param sep Field separator of the input and output files: one byte.
#' @param header `FALSE`, `TRUE` (= 1) or the number of lines to skip at the
#'   start of each input file.
#' @param tempfiledir Directory for temporary files; created if missing.
#' @param memory_limit Memory for buffers: bytes, or a string like
#'   `"256MB"`, `"2GB"` (powers of 1024). At least 1MB.
#' @param threads Number of threads for reading the input; `NULL` (default)
#'   uses every available core. Results do not depend on it.
#'
#' @return For one clustering, a list with
#'   \item{parameters}{named numeric: `add_self_loops`, `attenuation`,
#'     `iterations` (the cap actually used).}
#'   \item{graph_stats}{named numeric: `num_vertices`, `num_edges` (stored
#'     arcs: two per undirected edge with positive weight, one per directed
#'     edge or self-loop).}
#'   \item{results}{the output file path, or with `return_table = TRUE` a
#'     `data.frame(Vertex, Cluster)`.}
#'   For several clusterings, a list of such lists, one per clustering.
#'   Each carries an attribute `"stats"`: a list with the number of sorted
#'   runs, merge passes, merge fan-in, peak temporary disk in bytes, the
#'   number of clusters and the seconds spent per stage.
#'
#' @examples
#' edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
#' set.seed(1)
#' res <- ExoLabel(edges, return_table = TRUE)
#' res$graph_stats
#' head(res$results)
#' table(res$results$Cluster)
#'
#' @export
ExoLabel <- function(edgelistfiles, outfile = tempfile(tmpdir = tempfiledir),
                     mode = c("undirected", "directed"), add_self_loops = FALSE,
                     attenuation = FALSE, ignore_weights = FALSE, iterations = 0L,
                     return_table = FALSE, verbose = interactive(), sep = "\t",
                     header = FALSE, tempfiledir = tempdir(),
                     memory_limit = "256MB", threads = NULL) {
    mode <- match.arg(mode)
    files <- check_input_files(edgelistfiles)
    ignore_weights <- check_flag(ignore_weights, "ignore_weights")
    return_table <- check_flag(return_table, "return_table")
    verbose <- check_flag(as.logical(verbose), "verbose")
    sep <- check_sep(sep)
    header <- check_header(header)
    memory <- parse_memory_limit(memory_limit)
    self_loops <- check_self_loops(add_self_loops, ignore_weights)
    attenuation <- check_attenuation(attenuation)
    iterations <- check_iterations(iterations)
    tempfiledir <- check_tempfiledir(tempfiledir)
    threads <- check_threads(threads)

    lens <- c(length(self_loops), length(attenuation), length(iterations))
    user_outfile <- !missing(outfile)
    if (user_outfile && return_table) {
        warning("'outfile' will be ignored since return_table=TRUE", call. = FALSE)
        user_outfile <- FALSE
    }
    if (user_outfile) lens <- c(lens, length(outfile))
    nrun <- max(lens)
    if (any(lens != 1L & lens != nrun))
        stop("'add_self_loops', 'attenuation', 'iterations' and 'outfile' must have ",
             "length 1 or the same length (", nrun, ")", call. = FALSE)
    if (user_outfile && length(outfile) != nrun)
        stop("give one 'outfile' per clustering (", nrun, ")", call. = FALSE)
    if (!user_outfile)
        outfile <- tempfile(rep("ExoLabel", nrun), tmpdir = tempfiledir)
    outfile <- prepare_outfiles(outfile, nrun)
    if (anyDuplicated(outfile))
        stop("'outfile' paths must differ from each other", call. = FALSE)

    self_loops <- rep_len(self_loops, nrun)
    attenuation <- rep_len(attenuation, nrun)
    iterations <- rep_len(iterations, nrun)
    seeds <- floor(stats::runif(nrun) * 2^53)

    run <- .exolabel_run(files, outfile, mode == "directed", self_loops,
                         attenuation, iterations, seeds, ignore_weights, sep,
                         header, tempfiledir, memory, threads, as.integer(verbose))

    stats <- c(num_vertices = run$num_vertices, num_edges = run$num_edges)
    out <- lapply(seq_len(nrun), function(i) {
        result <- outfile[i]
        if (return_table) {
            tab <- .exolabel_read_results(outfile[i], sep)
            unlink(outfile[i])
            result <- data.frame(Vertex = tab$Vertex, Cluster = tab$Cluster,
                                 stringsAsFactors = FALSE)
        }
        res <- list(parameters = c(add_self_loops = self_loops[i],
                                   attenuation = attenuation[i],
                                   iterations = run$iterations[i]),
                    graph_stats = stats, results = result)
        attr(res, "stats") <- c(run$sort,
                                list(num_clusters = run$num_clusters[i],
                                     seconds_cluster = run$seconds_cluster[i]))
        res
    })
    if (nrun == 1L) out[[1L]] else out
}
