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
#'   memory so far), `sort_runs`, `merge_passes`, `seed` and `results` (a
#'   short description). `print()` returns its argument invisibly.
#' @examples
#' edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
#' set.seed(1)
#' res <- ExoLabel(edges, return_table = TRUE)
#' res
#' s <- summary(res)
#' s$cluster_sizes
#' @name ExoLabelResult
NULL

#' @rdname ExoLabelResult
#' @export
summary.ExoLabelResult <- function(object, ...) {
    st <- attr(object, "stats")
    r <- object$results
    desc <- if (is.character(r)) paste("file", r)
            else if (inherits(r, "communities")) "igraph communities object"
            else if (is.data.frame(r)) paste("data.frame with", format_count(nrow(r)), "rows")
            else class(r)[1L]
    bins <- st$size_bins
    out <- list(num_vertices = object$graph_stats[["num_vertices"]],
                num_edges = object$graph_stats[["num_edges"]],
                num_clusters = st$num_clusters,
                largest_cluster = st$largest_cluster,
                singletons = if (length(bins)) bins[[1L]] else NA_real_,
                cluster_sizes = size_table(bins),
                parameters = object$parameters,
                seconds = c(read = st$seconds_parse, graph = st$seconds_csr,
                            cluster = st$seconds_cluster, output = st$seconds_output),
                peak_temp_disk = st$peak_temp_disk, peak_rss = st$peak_rss,
                sort_runs = st$sort_runs, merge_passes = st$merge_passes,
                seed = st$seed, results = desc)
    class(out) <- "summary.ExoLabelResult"
    out
}

#' @rdname ExoLabelResult
#' @export
print.summary.ExoLabelResult <- function(x, ...) {
    cat("ExoLabel clustering\n")
    cat("  graph:    ", format_count(x$num_vertices), " nodes, ",
        format_count(x$num_edges), " arcs\n", sep = "")
    cat("  clusters: ", format_count(x$num_clusters), " (largest ",
        format_count(x$largest_cluster), " nodes, ", format_count(x$singletons),
        " singletons)\n", sep = "")
    if (length(x$cluster_sizes)) {
        cat("  cluster sizes (nodes: clusters):\n")
        cs <- x$cluster_sizes
        cat(paste0("    ", format(names(cs), justify = "right"), ": ",
                   format_count(unname(cs)), collapse = "\n"), "\n", sep = "")
    }
    p <- x$parameters
    algo <- if (is.null(attr(p, "algorithm"))) ""
            else sprintf("%s (%s), ", attr(p, "algorithm"), attr(p, "objective"))
    cat("  parameters: ", algo, paste(names(p), format(p, digits = 4, trim = TRUE),
                                      sep = " = ", collapse = ", "), "\n", sep = "")
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
