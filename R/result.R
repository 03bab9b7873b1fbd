# The value of ExoLabel(): a list(parameters, graph_stats, results) of class
# "ExoLabelResult" with run statistics in attr(, "stats"), and its print and
# summary methods.

new_result <- function(parameters, graph_stats, results, stats) {
    res <- list(parameters = parameters, graph_stats = graph_stats, results = results)
    attr(res, "stats") <- stats
    class(res) <- "ExoLabelResult"
    res
}

# Human-readable sizes and counts
format_bytes <- function(x) {
    if (is.null(x) || is.na(x)) return("unknown")
    units <- c("B", "KiB", "MiB", "GiB", "TiB", "PiB")
    u <- if (x > 0) min(floor(log(x, 1024)), length(units) - 1L) else 0
    if (u == 0) return(paste(format(x, big.mark = ","), "B"))
    sprintf("%.1f %s", x / 1024^u, units[u + 1L])
}

format_count <- function(x) format(x, big.mark = ",", scientific = FALSE, trim = TRUE)

# Parameter values one by one, with 4 significant digits but every digit of
# the integer part (a CPM quality of 612,345.6 prints as 612,346, not 6e+05;
# a modularity as 0.5112).
format_values <- function(x) {
    vapply(unname(x), function(v) {
        if (is.na(v)) return("NA")
        if (abs(v) >= 1e15 || (v != 0 && abs(v) < 1e-4))
            return(format(v, digits = 4))
        trimws(formatC(v, digits = 4, format = "fg", big.mark = ","))
    }, "")
}

# Edges as a user counts them: graph_stats' num_edges counts the stored
# arcs, two per undirected edge but one per self-loop.
user_edges <- function(res) {
    st <- attr(res, "stats")
    arcs <- res$graph_stats[["num_edges"]]
    if (isTRUE(st$directed) || is.null(st$self_arcs)) return(arcs)
    (arcs + st$self_arcs) / 2
}

# Cluster sizes in powers of two from the bins the core counted
size_table <- function(bins) {
    if (length(bins) == 0L) return(NULL)
    k <- seq_along(bins) - 1L
    lo <- 2^k
    hi <- 2^(k + 1) - 1
    lab <- ifelse(lo == hi, format_count(lo),
                  paste0(format_count(lo), "-", format_count(hi)))
    stats::setNames(bins, lab)[bins > 0]
}

#' Summaries of an ExoLabel result
#'
#' `print()` and `summary()` for the value of [ExoLabel()]: graph size,
#' number of clusters, the distribution of cluster sizes, where the result
#' is, and the time, temporary disk and memory used. The value itself stays
#' the documented list (`$parameters`, `$graph_stats`, `$results`).
#'
#' @param x,object A result of [ExoLabel()].
#' @param ... Not used.
#' @return `summary()` returns a list of class `"summary.ExoLabelResult"`
#'   with `num_vertices`, `num_edges`, `num_clusters`, `largest_cluster`,
#'   `singletons`, `cluster_sizes` (number of clusters per size range, sizes
#'   in powers of two), `parameters`, `seconds` (per stage),
#'   `peak_temp_disk`, `peak_rss` (bytes, the R process's peak resident
#'   memory so far), `sort_runs`, `merge_passes`, `seed`, `results` (a
#'   short description) and `ids` (with `initial`, see below). `print()` returns its argument invisibly.
#' @section Stable cluster ids (`initial`):
#' `ExoLabel(..., initial = old)` takes a previous clustering: an
#' `ExoLabel()` result, the path of a clusters file (`name<sep>cluster`
#' lines, as written, with the run's `sep`; a header `Vertex<sep>Cluster`
#' is skipped) or a table (`Vertex`, `Cluster`, whole numbers >= 1).
#' Label propagation and Leiden start from its clusters (new nodes alone;
#' Leiden then runs one iteration unless `iterations` is given, the previous
#' clustering standing for the first). The clusters keep its ids: a new cluster that holds more than half of an
#' old cluster's nodes (among those still in the graph) takes that old id
#' (of the old clusters it holds so, the one it holds most nodes of; ties:
#' the smaller id); every other cluster gets a new id above the largest old
#' one, in order of first appearance in the output. The result's
#' `attr(, "stats")$ids` counts `kept` (old ids still in use), `merged`
#' (old ids retired because the cluster holding most of them keeps another
#' id), `split` (old ids retired because no cluster holds more than half of
#' them), `new` (ids above the old largest) and `moved` (old nodes whose id
#' changed). Names of `initial` the graph lacks are counted in a warning;
#' a name listed twice, a cluster that is not a whole number, or a line
#' without the separator is an error naming the file and line.
#' @examples
#' edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
#' set.seed(1)
#' res <- ExoLabel(edges, return_table = TRUE)
#' res
#' again <- ExoLabel(edges, initial = res) # the same ids
#' attr(again, "stats")$ids
#' s <- summary(res)
#' s$cluster_sizes
#' @name ExoLabelResult
NULL

#' @rdname ExoLabelResult
#' @export
summary.ExoLabelResult <- function(object, ...) {
    st <- attr(object, "stats")
    r <- object$results
    desc <- if (is.character(r))
                paste0("file ", r, if (isTRUE(st$temporary))
                    " (in tempdir(), deleted when R exits: pass 'outfile' to keep it)")
            else if (inherits(r, "communities")) "igraph communities object"
            else if (is.data.frame(r)) paste("data.frame with", format_count(nrow(r)), "rows")
            else class(r)[1L]
    bins <- st$size_bins
    out <- list(num_vertices = object$graph_stats[["num_vertices"]],
                num_edges = user_edges(object),
                num_arcs = object$graph_stats[["num_edges"]],
                num_clusters = st$num_clusters,
                largest_cluster = st$largest_cluster,
                singletons = if (length(bins)) bins[[1L]] else NA_real_,
                cluster_sizes = size_table(bins),
                parameters = object$parameters,
                seconds = c(read = st$seconds_parse, graph = st$seconds_csr,
                            cluster = st$seconds_cluster, output = st$seconds_output),
                peak_temp_disk = st$peak_temp_disk, peak_rss = st$peak_rss,
                sort_runs = st$sort_runs, merge_passes = st$merge_passes,
                seed = st$seed, results = desc, directed = isTRUE(st$directed),
                ids = st$ids)
    class(out) <- "summary.ExoLabelResult"
    out
}

#' @rdname ExoLabelResult
#' @export
print.summary.ExoLabelResult <- function(x, ...) {
    cat("ExoLabel clustering\n")
    cat("  graph:    ", format_count(x$num_vertices), " nodes, ",
        format_count(x$num_edges), if (isTRUE(x$directed)) " arcs\n" else " edges\n",
        sep = "")
    nested <- length(x$num_clusters) > 1L # nested levels: level 1's sizes below
    cat("  clusters: ", paste(format_count(x$num_clusters), collapse = " / "),
        if (nested) " (nested levels, in the order of 'resolution')", " (largest ",
        paste(format_count(x$largest_cluster), collapse = " / "), " nodes, ",
        format_count(x$singletons), if (nested) " singletons at level 1)\n"
        else " singletons)\n", sep = "")
    if (length(x$cluster_sizes)) {
        cat(if (nested) "  cluster sizes of level 1 (nodes: clusters):\n"
            else "  cluster sizes (nodes: clusters):\n")
        cs <- x$cluster_sizes
        cat(paste0("    ", format(names(cs), justify = "right"), ": ",
                   format_count(unname(cs)), collapse = "\n"), "\n", sep = "")
    }
    p <- x$parameters
    algo <- if (is.null(attr(p, "algorithm"))) ""
            else if (is.null(attr(p, "objective"))) attr(p, "algorithm") # components
            else sprintf("%s (%s), ", attr(p, "algorithm"), attr(p, "objective"))
    auto <- if (identical(attr(p, "resolution"), "auto"))
        sprintf(" (resolution auto: %g x the mean strength of %s)", attr(p, "per_strength"),
                attr(p, "strength_of"))
    else ""
    if (!is.null(x$ids))
        cat("  ids (initial): ", format_count(x$ids[["kept"]]), " kept, ",
            format_count(x$ids[["merged"]]), " merged, ", format_count(x$ids[["split"]]),
            " split, ", format_count(x$ids[["new"]]), " new; ",
            format_count(x$ids[["moved"]]), " node(s) moved\n", sep = "")
    cat("  parameters: ", algo, paste(names(p), format_values(p), sep = " = ",
                                      collapse = ", "), auto, "\n", sep = "")
    cat("  time:     ", sprintf("%.2f s", sum(x$seconds)), " (",
        paste(names(x$seconds), sprintf("%.2f", x$seconds), sep = " ", collapse = ", "),
        ")\n", sep = "")
    cat("  resources: peak temporary disk ", format_bytes(x$peak_temp_disk),
        ", ", format_count(x$sort_runs), " sorted run(s), ",
        format_count(x$merge_passes), " merge pass(es), R peak memory ",
        format_bytes(x$peak_rss), "\n", sep = "")
    cat("  results:  ", x$results, "\n", sep = "")
    invisible(x)
}

#' @rdname ExoLabelResult
#' @export
print.ExoLabelResult <- function(x, ...) {
    print(summary(x))
    invisible(x)
}

# ---- several clusterings -------------------------------------------------

#' @rdname ExoLabelResult
#' @export
print.ExoLabelResults <- function(x, ...) {
    first <- x[[1L]]
    s <- summary(first)
    cat("ExoLabel: ", length(x), " clusterings of one graph (",
        format_count(s$num_vertices), " nodes, ", format_count(s$num_edges),
        if (s$directed) " arcs)\n" else " edges)\n", sep = "")
    rows <- lapply(unclass(x), function(r) {
        st <- attr(r, "stats")
        bins <- st$size_bins
        q <- st$quality
        data.frame(clusters = format_count(st$num_clusters),
                   largest = format_count(st$largest_cluster),
                   singletons = format_count(if (length(bins)) bins[[1L]] else 0),
                   quality = if (is.null(q) || is.na(q)) "" else format_values(q),
                   results = if (is.character(r$results)) r$results
                             else summary(r)$results,
                   stringsAsFactors = FALSE)
    })
    tab <- do.call(rbind, rows)
    rownames(tab) <- names(x)
    if (all(tab$quality == "")) tab$quality <- NULL
    tab$results <- format(tab$results, justify = "left")
    print(tab, right = TRUE)
    if (any(vapply(unclass(x), function(r) isTRUE(attr(r, "stats")$temporary), logical(1))))
        cat("(files in tempdir(), deleted when R exits: pass 'outfile' to keep them)\n")
    invisible(x)
}

# ---- accessors -----------------------------------------------------------

# The clustering of one result, whatever its shape: data.frame(Vertex,
# Cluster). `x` is an ExoLabel() result, its $results (a path, a data.frame
# or an igraph communities object) or any two-column table. A result of
# nested levels gives data.frame(Vertex, Cluster1, ..., ClusterL).
result_table <- function(x, sep = "\t") {
    own <- inherits(x, "ExoLabelResult")
    if (own) {
        st <- attr(x, "stats")
        if (!is.null(st$sep)) sep <- st$sep
        x <- x$results
        if (isTRUE(st$nested) && is.character(x)) {
            if (!file.exists(x))
                stop("the cluster file '", x, "' does not exist (a result in tempdir() is ",
                     "deleted when R exits)", call. = FALSE)
            return(as.data.frame(.exolabel_read_results(x, sep, length(st$num_clusters)),
                                 stringsAsFactors = FALSE))
        }
        if (isTRUE(st$nested)) return(x)
    }
    if (inherits(x, "communities")) {
        m <- x$membership
        v <- if (is.null(x$names)) seq_along(m) else x$names
        return(data.frame(Vertex = v, Cluster = m, stringsAsFactors = FALSE))
    }
    if (is.character(x) && length(x) == 1L && !is.na(x)) {
        if (!file.exists(x))
            stop("the cluster file '", x, "' does not exist (a result in tempdir() is ",
                 "deleted when R exits)", call. = FALSE)
        if (own) { # ExoLabel's own file: read exactly and fast
            tab <- .exolabel_read_results(x, sep)
            return(data.frame(Vertex = tab$Vertex, Cluster = tab$Cluster,
                              stringsAsFactors = FALSE))
        }
        tab <- utils::read.table(x, sep = sep, quote = "", comment.char = "",
                                 colClasses = "character", header = FALSE,
                                 na.strings = character(), fill = FALSE)
        if (ncol(tab) < 2L)
            stop("the cluster file '", x, "' needs two columns: node and cluster",
                 call. = FALSE)
        cl <- tab[[2L]]
        if (length(cl) && all(grepl("^[0-9]{1,9}$", cl))) cl <- as.integer(cl)
        return(data.frame(Vertex = tab[[1L]], Cluster = cl, stringsAsFactors = FALSE))
    }
    if (is.data.frame(x) || inherits(x, "DataFrame")) {
        x <- as.data.frame(x, stringsAsFactors = FALSE)
        if (all(c("Vertex", "Cluster") %in% names(x)))
            return(data.frame(Vertex = x$Vertex, Cluster = x$Cluster,
                              stringsAsFactors = FALSE))
        if (ncol(x) < 2L)
            stop("a clustering table needs two columns: node and cluster", call. = FALSE)
        return(data.frame(Vertex = x[[1L]], Cluster = x[[2L]], stringsAsFactors = FALSE))
    }
    stop("not a clustering: give an ExoLabel() result, a cluster file path, a ",
         "data.frame (node, cluster) or an igraph communities object", call. = FALSE)
}

#' Cluster table, membership and sizes of a result
#'
#' The same accessors for every shape [ExoLabel()] returns: whether
#' `$results` is the path of the cluster file, a `data.frame` or an igraph
#' `communities` object, and for several clusterings at once.
#'
#' * `as.data.frame()` gives the table `Vertex`, `Cluster` (read from the
#'   file when the result is a path; the file is not changed).
#' * `ClusterMembership()` gives the cluster of every node as an integer
#'   vector named by the nodes, the shape of `igraph::membership()`.
#' * `ClusterSizes()` gives the number of nodes per cluster, a table indexed
#'   by cluster as `igraph::sizes()` returns it.
#' * `plot()` draws the distribution of cluster sizes (number of clusters
#'   per size range, sizes in powers of two, both axes logarithmic) from
#'   the counts the run made, without reading the clusters.
#'
#' igraph's `membership()` and `sizes()` keep working on igraph
#' `communities` (they are not masked); these functions have their own
#' names so that both packages can be attached.
#'
#' @param x A result of [ExoLabel()] (one or several clusterings), its
#'   `$results` (a cluster file path, a `data.frame` or a `communities`
#'   object), or a two-column table (node, cluster).
#' @param sep Separator of a cluster file given as a path (a result knows
#'   its own).
#' @param row.names,optional Not used (the generic's arguments).
#' @param ... Not used (`plot()`: passed to [graphics::plot()]).
#' @return `as.data.frame()`: a `data.frame` with columns `Vertex` and
#'   `Cluster` (several clusterings: one more column, `clustering`, the
#'   name of each; nested levels: `Cluster1`, ..., `ClusterL`).
#'   `ClusterMembership()`: a named integer vector (a list of them for
#'   several clusterings, or one per nested level). `ClusterSizes()`: a
#'   table of cluster sizes (a list of them for several, or one per nested
#'   level). `plot()`: `x`, invisibly.
#' @examples
#' edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
#' set.seed(1)
#' res <- ExoLabel(edges)          # $results is a file path
#' head(as.data.frame(res))
#' head(ClusterMembership(res))
#' ClusterSizes(res)
#' plot(res)
#' several <- ExoLabel(edges, resolution = c(0, 1))
#' several
#' lapply(ClusterSizes(several), length)
#' @name ExoLabelAccessors
NULL

#' @rdname ExoLabelAccessors
#' @export
as.data.frame.ExoLabelResult <- function(x, row.names = NULL, optional = FALSE, ...) {
    result_table(x)
}

#' @rdname ExoLabelAccessors
#' @export
as.data.frame.ExoLabelResults <- function(x, row.names = NULL, optional = FALSE, ...) {
    tabs <- lapply(unclass(x), result_table)
    out <- do.call(rbind, tabs)
    out$clustering <- rep(names(x), vapply(tabs, nrow, integer(1)))
    rownames(out) <- NULL
    out
}

#' @rdname ExoLabelAccessors
#' @export
ClusterMembership <- function(x, sep = "\t") {
    if (inherits(x, "ExoLabelResults")) return(lapply(unclass(x), ClusterMembership))
    tab <- result_table(x, sep)
    if (isTRUE(attr(x, "stats")$nested)) # nested levels: one vector per level
        return(lapply(tab[-1L], function(cl) stats::setNames(cl, as.character(tab$Vertex))))
    cl <- tab$Cluster
    if (!is.numeric(cl) || anyNA(cl) || any(cl != floor(cl)))
        cl <- match(cl, unique(cl)) # labels: numbered by first appearance
    stats::setNames(as.integer(cl), as.character(tab$Vertex))
}

#' @rdname ExoLabelAccessors
#' @export
ClusterSizes <- function(x, sep = "\t") {
    if (inherits(x, "ExoLabelResults")) return(lapply(unclass(x), ClusterSizes))
    m <- ClusterMembership(x, sep)
    if (is.list(m)) return(lapply(m, function(l) table(`Community sizes` = l)))
    table(`Community sizes` = m)
}

# Clusters per size range 2^k .. 2^(k+1) - 1, from the run's counts (or the
# clusters, for results without them).
size_bins_of <- function(x) {
    bins <- attr(x, "stats")$size_bins
    if (length(bins)) return(bins)
    sz <- as.vector(ClusterSizes(x))
    if (!length(sz)) return(numeric())
    tabulate(floor(log2(sz)) + 1L)
}

#' @rdname ExoLabelAccessors
#' @export
plot.ExoLabelResult <- function(x, ...) {
    plot_size_bins(list(result = size_bins_of(x)), ...)
    invisible(x)
}

#' @rdname ExoLabelAccessors
#' @export
plot.ExoLabelResults <- function(x, ...) {
    plot_size_bins(lapply(unclass(x), size_bins_of), ...)
    invisible(x)
}

plot_size_bins <- function(bins, ...) {
    pts <- lapply(bins, function(b) {
        k <- which(b > 0)
        list(x = 2^(k - 1), y = b[k])
    })
    xs <- unlist(lapply(pts, `[[`, "x"))
    ys <- unlist(lapply(pts, `[[`, "y"))
    if (!length(xs)) xs <- ys <- 1
    graphics::plot(range(xs), range(ys), type = "n", log = "xy",
                   xlab = "cluster size (nodes, from)", ylab = "clusters", ...)
    for (i in seq_along(pts))
        if (length(pts[[i]]$x))
            graphics::lines(pts[[i]]$x, pts[[i]]$y, type = "b", col = i, pch = 19)
    if (length(pts) > 1L)
        graphics::legend("topright", legend = names(pts), col = seq_along(pts),
                         pch = 19, lty = 1, bty = "n")
}
