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
#' Weights in detail: a weight is a decimal or hexadecimal floating-point
#' number (`1`, `-2.5`, `1e-3`, `0x1p4`; spaces around it are allowed),
#' rounded to the nearest single-precision float. Zero, negative weights
#' and weights so small that they round to zero (magnitude below about
#' `7e-46`) keep both names but add no edge. It is an error (naming the file
#' and line) when the weight is not a number (`abc`, `1,5`, `1.5x`, an
#' empty third column), is `NaN` or infinite (`nan`, `Inf`, `-inf`), or has
#' a magnitude beyond the float range (above about `3.4e38`).
#'
#' Other malformed input is an error naming the file and line: fewer than 2
#' or more than 3 columns (the message suggests the separator when the line
#' holds a different one), an empty name, a NUL byte (binary files), a
#' carriage return inside a name. A textual header such as
#' `from<sep>to<sep>weight` needs `header = TRUE`; without it, its weight
#' column is reported as not a number (a two-column header would be read as
#' an edge). Truncated or corrupt gzip files are errors naming the file;
#' bzip2, xz and zstd files are recognised and rejected. Names are bytes:
#' invalid UTF-8 and names of 1 MiB and more are kept exactly. Paths are
#' used as given: a Windows-style path with backslashes is not translated.
#'
#' An input without any edge line (an empty file, only blank lines, only a
#' header) gives an empty result with a warning; when every edge has a
#' weight of zero or below, every node is its own cluster, with a warning.
#' Errors, interrupts and a full disk leave no temporary file behind and
#' the R session usable.
#'
#' @section Label propagation:
#' Every node starts in its own cluster and is active. Nodes are processed
#' in sweeps over the node ids: blocks of 1024 consecutive ids in increasing
#' order, and inside each block a random order (drawn from a seed taken from
#' R's random number generator, so [set.seed()] makes results reproducible).
#' This lets each sweep read the graph file front to back. An active node
#' adopts the label with the largest total weight among its neighbours (in
#' `"directed"` mode, among its in-neighbours: a line `A B w` is the arc
#' `A -> B`, and `B` listens to `A`). Exact ties are broken by the node's
#' visit number `k` (1 on its first visit) and
#' \eqn{T = \min(12, \lfloor 3 c / 4 \rfloor)}{T = min(12, floor(3 c / 4))},
#' `c` being the cap on visits (see `iterations`): while `k <= T` the node
#' picks uniformly at random among all the best labels, its current label
#' included (so it may stay or move); when `k > T` it keeps its current
#' label if that is among the best and otherwise picks uniformly among the
#' best. The picks come from the seed. The open picks of the first visits
#' let the fragments of one community join on unweighted graphs, where exact
#' ties are common; keeping the label afterwards stops labels from
#' oscillating. With `iterations = 1`, `T = 0`. When a node changes
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
#' Why both default to `FALSE` (measured in `benchmarks/QUALITY.md` on
#' planted and LFR-style graphs of 10^4 to 10^6 nodes): attenuation costs
#' NMI on graphs with communities, most on LFR-style graphs (for example
#' 0.49 instead of 0.98 at mixing 0.5 on 10^5 unweighted nodes); its
#' benefit is against flooding into one cluster, which plain label
#' propagation does on graphs with little or no community structure (a
#' G(n, m) graph with 10^5 nodes and mean degree 20 ends as one cluster
#' with the defaults, in small clusters with attenuation) and on small
#' noisy graphs (10^4 nodes at mixing 0.6-0.7). Use `attenuation = TRUE`
#' on such graphs. The cutoff `add_self_loops = TRUE` means 1, which on
#' similarity scores in `[0, 1]` lets almost no label win, so nearly every
#' node stays alone; use a cutoff only on a scale you know.
#'
#' @section Merge passes (`refine`):
#' When many edges leave the communities (high mixing), label propagation
#' tends to split a community into several stable fragments. `refine = k`
#' runs up to `k` merge passes on the clusters found (`TRUE` = 5). For a
#' cluster `C`, let `in(C)` be the weight of the arcs inside it (each edge
#' counted from both ends), `w(C, D)` the weight of the edges between `C` and
#' another cluster `D`, `vol(C)` the weight of all arcs at `C`'s nodes and
#' `T` the weight of all arcs. The excess
#' \eqn{x(C, D) = w(C, D) - vol(C) vol(D) / T}{x(C, D) = w(C, D) - vol(C) vol(D) / T}
#' is the weight above what random wiring with the same volumes would give.
#' `C` wants to join the cluster `D*` of largest excess when
#' \eqn{x(C, D^*) > 0}{x(C, D*) > 0} and
#' \eqn{x(C, D^*) \ge 0.3\, in(C)}{x(C, D*) >= 0.3 in(C)}. Only clusters that
#' do not move themselves take newcomers (of two clusters that want each
#' other, the one with the smaller number stays), and a cluster takes
#' newcomers, in order of number, only while each keeps
#' \eqn{x(C, D) - vol(C) V / T > 0}{x(C, D) - vol(C) V / T > 0}, `V` being
#' the volume it has taken in the pass. Every merge therefore raises the
#' modularity of the clustering, and the passes cannot turn a clustering
#' into a single cluster. The passes stop early when one merges nothing.
#' Each pass reads the graph file once, front to back (more than once only
#' when the table of cluster pairs would exceed `memory_limit / 4`), and
#' needs about 33 bytes per cluster. On graphs with communities they bring
#' the cluster count close to the planted one and raise NMI at high mixing
#' (see `benchmarks/QUALITY.md`); on graphs without structure, many passes
#' grow modularity clusters as Louvain-type methods do. The default is `0`
#' (plain label propagation, as in SynExtend).
#'
#' `iterations` caps how often any node is processed (the first visit
#' included), so `iterations = 1` visits each node once. `0` picks
#' `max(16, floor(sqrt(d)))`, where `d` is the largest number of arcs at a
#' node (so `T = 12`). Most nodes stop well before the cap: on the planted
#' graphs of `benchmarks/QUALITY.md` (mean degree 20) nodes are processed
#' 4 to 10 times on average. A lower cap (the earlier default was
#' `max(5, ...)`) leaves communities in fragments at high mixing; on small
#' graphs (10^4 nodes) at mixing 0.6-0.7 the automatic cap lets label
#' propagation flood into one cluster, as igraph's does, and
#' `attenuation = TRUE` prevents that (see `benchmarks/QUALITY.md`). The
#' value used is reported in `$parameters`.
#'
#' @section In-memory inputs:
#' In-memory graphs are streamed edge by edge into the same pipeline as
#' files, without writing a text file; the results are those of the same
#' edges read from a file.
#'
#' * Edge lists (`data.frame`, `data.table`, `DataFrame`): the first two
#'   columns hold the nodes of each edge, as character, factor or
#'   whole-number ids (written in decimal as the node names). The weight is
#'   the column named `weight` (any case) or else a numeric third column;
#'   without one every edge weighs 1. Missing values are an error.
#' * `igraph` graphs: edges with their `weight` attribute when there is one;
#'   vertices keep the graph's order (isolated ones included) and its `name`
#'   attribute (or numbers `1..n`). `mode` defaults to the graph's
#'   directedness. The result is an igraph `communities` object (made with
#'   `igraph::make_clusters()`) so that `membership()`, `sizes()`,
#'   `modularity()` and `compare()` work on it, unless `outfile` is given.
#' * Adjacency matrices: row (or column) names are the node names (numbers
#'   `1..n` without names), every row is a node in matrix order. Undirected,
#'   only the upper triangle and the diagonal are read, so a symmetric matrix
#'   gives each edge once; directed, each stored entry `x[i, j]` is the arc
#'   `i -> j`. Stored zeros register nodes without an edge.
#'
#' Node names must not contain the separator `sep`, line ends or NUL.
#'
#' @section Progress:
#' With `verbose = TRUE`, every stage (reading, merging, writing the graph,
#' label propagation, writing clusters) reports its progress: in an
#' interactive session as a cli progress bar with counts and rate, otherwise
#' as `message()` lines (a start and an end line per stage, and one every 10
#' seconds in between), which [suppressMessages()] silences. `verbose =
#' FALSE` prints nothing. Interrupting (Ctrl-C) works in every stage; the
#' temporary files are removed. The bars are drawn through cli's C API from
#' the compiled code; `options(ExoLabel.progress_bars = TRUE)` (or `FALSE`)
#' chooses bars (or lines) regardless of whether the session is interactive.
#'
#' @section Output:
#' The output file has one line `name<sep>cluster` per node, in order of
#' first appearance of the names in the input. Clusters are numbered `1..K`
#' in order of first appearance in that listing.
#'
#' @section Resources:
#' `memory_limit` bounds the buffers of every stage (the sort's run buffers,
#' the merge's file buffers, the adjacency buffer of label propagation).
#' While reading, the table of name fingerprints (about 23 to 46 bytes per
#' node: 16 bytes per slot, at most 70% full; one and a half times that for
#' a moment while it doubles) is counted against `memory_limit` too: the
#' sort's run buffers shrink as it grows, down to a quarter of the budget,
#' so only a table larger than three quarters of `memory_limit` comes on
#' top. With several `threads` one thread sorts and writes a full run buffer
#' while the reader fills another, so runs are a third of the budget rather
#' than a half. While clustering, 14 to 18 bytes per node come on top of
#' `memory_limit`. Temporary disk: the node names, 12 bytes per
#' stored arc for the sort runs and 8 bytes per stored arc for the final
#' graph (20 and 12 bytes when there are more than 2^32 nodes); runs are
#' released while they are merged ([EstimateExoLabel()] predicts both
#' peaks). Before starting, `ExoLabel()` compares that estimate with the
#' free space in `tempfiledir` and stops with an error when it cannot fit
#' (for files the number of edges is guessed from their size; set
#' `options(ExoLabel.check_disk = FALSE)` to skip the check). Temporary files go to a fresh private
#' directory inside `tempfiledir` that is removed when the call ends,
#' whether it succeeds, fails or is interrupted.
#'
#' @param edgelistfiles The graph: a character vector of paths to edge-list
#'   files (plain or gzip), read in order into one graph; or an edge list as
#'   a `data.frame`, `data.table` or `S4Vectors::DataFrame`; or an `igraph`
#'   graph; or a square adjacency matrix (`Matrix::dgCMatrix` or any other
#'   `Matrix` or base numeric matrix). See In-memory inputs.
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
#' @param verbose Report progress (see Progress).
#' @param sep Field separator of the input and output files: one byte.
#' @param header `FALSE`, `TRUE` (= 1) or the number of lines to skip at the
#'   start of each input file.
#' @param tempfiledir Directory for temporary files; created if missing.
#' @param memory_limit Memory for buffers: bytes, or a string like
#'   `"256MB"`, `"2GB"` (powers of 1024). At least 1MB.
#' @param threads Number of threads for reading the input; `NULL` (default)
#'   uses every available core. Results do not depend on it. Uncompressed
#'   files are split into 1 MiB blocks that the threads read and parse side
#'   by side (a few MiB of buffers per thread); gzip files and pipes are read
#'   by one thread.
#' @param refine `FALSE` (default, `0`), `TRUE` (= 5) or a whole number of
#'   merge passes (0 to 100) run after label propagation; see Merge passes.
#'   A vector runs one clustering per value.
#'
#' @return For one clustering, a list of class `"ExoLabelResult"` (see
#'   [print.ExoLabelResult()]) with
#'   \item{parameters}{named numeric: `add_self_loops`, `attenuation`,
#'     `iterations` (the cap actually used), `refine`.}
#'   \item{graph_stats}{named numeric: `num_vertices`, `num_edges` (stored
#'     arcs: two per undirected edge with positive weight, one per directed
#'     edge or self-loop).}
#'   \item{results}{the output file path, or with `return_table = TRUE` a
#'     `data.frame(Vertex, Cluster)`, or for `igraph` inputs an igraph
#'     `communities` object.}
#'   For several clusterings, a list of such lists, one per clustering.
#'   Each carries an attribute `"stats"`: a list with the number of sorted
#'   runs, merge passes, merge fan-in, peak temporary disk in bytes (sort
#'   runs and graph files), the number of clusters, the largest cluster's
#'   size, `size_bins` (number of clusters of size 1, 2-3, 4-7, ...), the
#'   seconds spent per stage, `refine_merged` (clusters merged by the merge
#'   passes) and `seconds_refine`, the R process's peak resident memory
#'   (`peak_rss`, bytes) and `seed`, the seed of the clustering drawn from
#'   R's random numbers (the command-line tool's `--seed` reproduces it).
#'
#' @examples
#' edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
#' set.seed(1)
#' res <- ExoLabel(edges, return_table = TRUE)
#' res$graph_stats
#' head(res$results)
#' table(res$results$Cluster)
#' res   # a summary of the run
#'
#' # an edge list already in R
#' df <- read.delim(edges, header = FALSE, col.names = c("from", "to", "weight"))
#' head(ExoLabel(df, return_table = TRUE)$results)
#'
#' # an igraph graph gives a communities object
#' if (requireNamespace("igraph", quietly = TRUE)) {
#'     g <- igraph::graph_from_data_frame(df, directed = FALSE)
#'     comm <- ExoLabel(g)$results
#'     igraph::sizes(comm)
#'     igraph::modularity(comm)
#' }
#'
#' @export
ExoLabel <- function(edgelistfiles, outfile = tempfile(tmpdir = tempfiledir),
                     mode = c("undirected", "directed"), add_self_loops = FALSE,
                     attenuation = FALSE, ignore_weights = FALSE, iterations = 0L,
                     return_table = FALSE, verbose = interactive(), sep = "\t",
                     header = FALSE, tempfiledir = tempdir(),
                     memory_limit = "256MB", threads = NULL, refine = 0L,
                     format = c("edges", "blast"), columns = NULL,
                     weight_transform = NULL, min_weight = NULL, self_hits = NULL,
                     combine = NULL) {
    kind <- input_kind(edgelistfiles)
    if (kind == "igraph" && missing(mode))
        mode <- if (igraph::is_directed(edgelistfiles)) "directed" else "undirected"
    mode <- check_mode(mode)
    files <- if (kind == "files") check_input_files(edgelistfiles) else character()
    ignore_weights <- check_flag(ignore_weights, "ignore_weights")
    return_table <- check_flag(return_table, "return_table")
    verbose <- check_flag(as.logical(verbose), "verbose")
    sep <- check_sep(sep)
    header <- check_header(header)
    memory <- parse_memory_limit(memory_limit)
    self_loops <- check_self_loops(add_self_loops, ignore_weights)
    attenuation <- check_attenuation(attenuation)
    iterations <- check_iterations(iterations)
    refine <- check_refine(refine)
    tempfiledir <- check_tempfiledir(tempfiledir)
    threads <- check_threads(threads)
    input <- check_input_options(kind, format, columns, weight_transform, min_weight,
                                 self_hits, combine)

    source <- switch(kind,
                     files = NULL,
                     edges = edges_source(edgelistfiles, ignore_weights),
                     igraph = igraph_source(edgelistfiles, ignore_weights),
                     matrix = matrix_source(edgelistfiles, mode == "directed",
                                            ignore_weights))
    # igraph inputs give a communities object unless a file is asked for
    communities <- kind == "igraph" && (return_table || missing(outfile))
    want_table <- return_table || communities

    lens <- c(length(self_loops), length(attenuation), length(iterations), length(refine))
    user_outfile <- !missing(outfile)
    if (user_outfile && return_table) {
        warning("'outfile' will be ignored since return_table=TRUE", call. = FALSE)
        user_outfile <- FALSE
    }
    if (user_outfile) lens <- c(lens, length(outfile))
    nrun <- max(lens)
    if (any(lens != 1L & lens != nrun))
        stop("'add_self_loops', 'attenuation', 'iterations', 'refine' and 'outfile' must have ",
             "length 1 or the same length (", nrun, ")", call. = FALSE)
    if (user_outfile && length(outfile) != nrun)
        stop("give one 'outfile' per clustering (", nrun, ")", call. = FALSE)
    if (!user_outfile)
        outfile <- tempfile(rep("ExoLabel", nrun), tmpdir = tempfiledir)
    outfile <- prepare_outfiles(outfile, nrun)
    if (anyDuplicated(outfile))
        stop("'outfile' paths must differ from each other", call. = FALSE)
    # table results go through temporary files: gone even on error or interrupt
    if (want_table) on.exit(unlink(outfile), add = TRUE)

    input_bytes <- if (kind == "files") sum(file.size(files)) else 0
    check_disk_space(guess_input_size(files, source, input$format), mode, memory, tempfiledir)

    self_loops <- rep_len(self_loops, nrun)
    attenuation <- rep_len(attenuation, nrun)
    iterations <- rep_len(iterations, nrun)
    refine <- rep_len(refine, nrun)
    seeds <- floor(stats::runif(nrun) * 2^53)

    progress <- if (!verbose) 0L
                else getOption("ExoLabel.progress_bars", interactive()) + 1L
    run <- .exolabel_run(files, source, outfile, mode == "directed", self_loops,
                         attenuation, iterations, seeds, ignore_weights, sep,
                         header, tempfiledir, memory, threads, progress, input_bytes,
                         refine, input[c("columns", "transform", "min_weight",
                                         "drop_self", "combine")])

    if (run$num_vertices == 0)
        warning("the input has no edges (empty, blank or header-only): the result is empty",
                call. = FALSE)
    else if (run$num_edges == 0)
        warning("no edge with a positive weight: every node is its own cluster",
                call. = FALSE)
    stats <- c(num_vertices = run$num_vertices, num_edges = run$num_edges)
    out <- lapply(seq_len(nrun), function(i) {
        result <- outfile[i]
        if (want_table) {
            tab <- .exolabel_read_results(outfile[i], sep)
            unlink(outfile[i])
            result <- if (communities)
                make_communities(edgelistfiles, tab$Cluster)
            else data.frame(Vertex = tab$Vertex, Cluster = tab$Cluster,
                            stringsAsFactors = FALSE)
        }
        new_result(parameters = c(add_self_loops = self_loops[i],
                                  attenuation = attenuation[i],
                                  iterations = run$iterations[i],
                                  refine = refine[i]),
                   graph_stats = stats, results = result,
                   stats = c(run$sort,
                             list(num_clusters = run$num_clusters[i],
                                  largest_cluster = run$largest[i],
                                  size_bins = run$size_bins[[i]],
                                  seconds_cluster = run$seconds_cluster[i],
                                  refine_merged = run$refine_merged[i],
                                  seconds_refine = run$seconds_refine[i],
                                  seconds_output = run$seconds_output[i],
                                  input_edges = run$input_edges,
                                  input = input$resolved,
                                  peak_rss = run$peak_rss,
                                  seed = seeds[i])))
    })
    if (nrun == 1L) out[[1L]] else out
}

# Edges and nodes of the input, for the disk check: exact for in-memory
# sources; for files guessed from their size (32 bytes per line, 64 for the
# 12 columns of search-tool output, gzip files 3.5 times larger once
# decompressed, one node per 4 edges). Combining and dropped self hits only
# shrink the graph, so the estimate stays an upper bound.
guess_input_size <- function(files, source, format = "edges") {
    if (is.null(source)) {
        gz <- vapply(files, is_gzip, logical(1))
        per_line <- if (format == "blast") 64 else 32
        edges <- sum(file.size(files) * ifelse(gz, 3.5, 1)) / per_line
        return(c(edges = edges, vertices = edges / 4))
    }
    edges <- source_edges(source)
    c(edges = edges, vertices = if (source$register > 0) source$register else edges / 4)
}

# Stop early when the temporary files cannot fit in tempfiledir;
# options(ExoLabel.check_disk = FALSE) skips the check.
check_disk_space <- function(size, mode, memory, tempfiledir) {
    if (isFALSE(getOption("ExoLabel.check_disk", TRUE))) return(invisible())
    free <- .exolabel_free_space(tempfiledir)
    if (is.na(free)) return(invisible())
    est <- EstimateExoLabel(size[["vertices"]], size[["edges"]], memory_limit = memory,
                            mode = mode)
    need <- est$peak_temp_disk
    if (need > free)
        stop(sprintf(paste0("not enough free space in tempfiledir '%s': the run needs ",
                            "about %s of temporary files (estimated for %s edges) but ",
                            "only %s are free; choose another 'tempfiledir' or set ",
                            "options(ExoLabel.check_disk = FALSE) to try anyway"),
                     tempfiledir, format_bytes(need), format_count(round(size[["edges"]])),
                     format_bytes(free)), call. = FALSE)
    invisible()
}

# An igraph communities object; membership() names its entries after the
# vertices when the graph has names.
make_communities <- function(graph, membership) {
    comm <- igraph::make_clusters(graph, membership = membership, algorithm = "ExoLabel")
    nm <- igraph::vertex_attr(graph, "name")
    if (!is.null(nm)) comm$names <- nm
    comm
}

is_gzip <- function(path) {
    con <- file(path, "rb", raw = TRUE)
    on.exit(close(con))
    magic <- readBin(con, "raw", 2L)
    length(magic) == 2L && magic[1L] == as.raw(0x1f) && magic[2L] == as.raw(0x8b)
}
