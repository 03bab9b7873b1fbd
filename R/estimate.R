#' Estimate the memory and temporary disk an ExoLabel run needs
#'
#' Predicts the peak memory (on top of the R session) and the peak size of
#' the temporary files of [ExoLabel()] for a graph of a given size, from the
#' same sizes the C core uses: the sort buffers and the name table sharing
#' `memory_limit` (16 bytes per slot, a power of two kept at most 70% full,
#' one and a half times that while it doubles; the sort keeps at least a
#' quarter of the budget, so a table larger than that comes on top), the per-node arrays of label
#' propagation and the 12-byte (20-byte above 2^32 nodes) sort records and
#' 8-byte (12-byte) adjacency entries on disk. Temporary disk peaks at the
#' start of the final merge, when the sorted runs and the graph file being
#' written are both counted in full (hole punching releases the runs while
#' they are read, so the disk actually in use is often lower; the estimate
#' is what should be free). The measured values of a run
#' are in `attr(res, "stats")` (`peak_temp_disk`, `peak_rss`); the package's
#' `benchmarks/ESTIMATES.md` compares the two on generated graphs.
#'
#' @param num_vertices Number of distinct nodes.
#' @param num_edges Number of input edges (lines of the edge list).
#' @param memory_limit As in [ExoLabel()]: bytes or a string like `"2GB"`.
#' @param mode `"undirected"` or `"directed"` (both store two records per
#'   edge; given for symmetry with [ExoLabel()]).
#' @param attenuation `FALSE` or a positive number: attenuation adds 4 bytes
#'   per node while clustering.
#' @param name_bytes Average length of a node name in bytes (the names are
#'   kept in a temporary file).
#' @param threads Reader threads, as in [ExoLabel()] (`NULL`: every core);
#'   each holds input buffers.
#' @return A list of class `"ExoLabelEstimate"` with `peak_ram` and
#'   `peak_temp_disk` (bytes) and `stages`, a data.frame of the memory and
#'   disk estimated for each stage (`read`, `sort`, `cluster`, `output`).
#' @examples
#' EstimateExoLabel(1e6, 2e7)
#' # a billion edges with 8 GB of buffers
#' est <- EstimateExoLabel(5e7, 1e9, memory_limit = "8GB")
#' est$peak_temp_disk / 2^30   # GiB of temporary files
#' @export
EstimateExoLabel <- function(num_vertices, num_edges, memory_limit = "256MB",
                             mode = c("undirected", "directed"),
                             attenuation = FALSE, name_bytes = 12,
                             threads = NULL) {
    mode <- match.arg(mode)
    for (a in list(list(num_vertices, "num_vertices"), list(num_edges, "num_edges"),
                   list(name_bytes, "name_bytes")))
        if (!is.numeric(a[[1L]]) || length(a[[1L]]) != 1L || is.na(a[[1L]]) ||
            a[[1L]] < 0)
            stop("'", a[[2L]], "' must be a single non-negative number", call. = FALSE)
    limit <- parse_memory_limit(memory_limit)
    threads <- check_threads(threads)
    att <- check_attenuation(attenuation)[1L] > 0
    n <- num_vertices
    m <- num_edges
    mib <- 2^20
    wide <- n > 2^32
    rec <- if (wide) 20 else 12
    adj <- if (wide) 12 else 8
    records <- 2 * m

    # reading: the name table and the sort's run buffers share the budget
    # (the runs get what the table leaves, at least a quarter); the run
    # buffers (two and the radix scratch with several threads, else one and
    # the scratch) are touched only as far as records fill them
    # (the parser's buffers are reserved off the top: 4 MiB, plus 6 MiB per
    # thread with several threads)
    reserve <- 4 * mib + if (threads > 1) 6 * mib * threads else 0
    sort_mem <- if (limit > 2 * reserve) limit - reserve else limit / 2
    nbuf <- if (threads > 1) 3 else 2
    slots <- max(1024, 2^ceiling(log2(max(n, 1) / 0.7)))
    table <- 16 * slots
    growing <- table * if (n > 0.35 * slots) 1.5 else 1 # old + new table
    run_mem <- function(t) max(sort_mem - t, sort_mem / 4)
    if (rec * records <= run_mem(table) / nbuf) {
        # one buffer that never fills: while reading it grows beside the
        # table and the parser; its radix sort (with the scratch) comes
        # after both are freed
        ram_read <- max(rec * records + growing + reserve, 2 * rec * records + 2 * mib)
    } else {
        touched <- function(t) min(run_mem(t), nbuf * rec * records)
        ram_read <- max(touched(growing) + growing, touched(table) + table) + reserve
    }
    # final merge: file buffers, at most the memory limit
    per_run <- floor(run_mem(table) / nbuf / rec)
    ram_sort <- min(limit, 2 * mib * max(1, ceiling(records / per_run)))
    # label propagation: offsets 8, labels 4 (8 above 2^32 nodes), visits 2,
    # active bit, label volumes 8 (resolution > 0, the default), distance 4
    # with attenuation (counted with 8-byte labels); adjacency buffer up to limit/4
    ram_cluster <- n * (26.125 + if (att) 4 else 0) + min(limit / 4, adj * records) + 2 * mib
    # output: labels and the renumbering map
    ram_output <- 16 * n + 2 * mib

    # disk: the names file; sorted runs (a run buffer holds per_run records;
    # the last, partly filled buffer is merged from memory and never
    # written); the CSR, counted in full from the start of the final merge
    # while the runs it consumes are still counted too
    names_disk <- n * (name_bytes + 1)
    in_memory <- if (records <= per_run) records else records %% per_run
    runs_disk <- rec * (records - in_memory)
    csr_disk <- adj * records + 8 * (n + 1)
    disk_sort <- names_disk + runs_disk + csr_disk
    stages <- data.frame(stage = c("read", "sort", "cluster", "output"),
                         ram = c(ram_read, ram_sort, ram_cluster, ram_output),
                         temp_disk = c(names_disk + runs_disk, disk_sort,
                                       names_disk + csr_disk, names_disk + csr_disk))
    out <- list(peak_ram = max(stages$ram), peak_temp_disk = max(stages$temp_disk),
                stages = stages,
                input = c(num_vertices = n, num_edges = m, memory_limit = limit))
    class(out) <- "ExoLabelEstimate"
    out
}

#' @rdname EstimateExoLabel
#' @param x An `"ExoLabelEstimate"`.
#' @param ... Not used.
#' @export
print.ExoLabelEstimate <- function(x, ...) {
    cat("ExoLabel resource estimate for ", format_count(x$input[["num_vertices"]]),
        " nodes and ", format_count(x$input[["num_edges"]]), " edges (memory_limit ",
        format_bytes(x$input[["memory_limit"]]), ")\n", sep = "")
    cat("  peak memory:          ", format_bytes(x$peak_ram), " (on top of R)\n", sep = "")
    cat("  peak temporary disk:  ", format_bytes(x$peak_temp_disk), "\n", sep = "")
    invisible(x)
}
