#' Estimate the memory and temporary disk an ExoLabel run needs
#'
#' Predicts the peak memory (on top of the R session) and the peak size of
#' the temporary files of [ExoLabel()] for a graph of a given size. The
#' arguments are those of `EstimateExoLabel()` in Bioconductor's SynExtend,
#' with the same meanings and positions (`EstimateExoLabel(1e6, 20)` is a
#' million nodes of average degree 20), followed by ExoLabel's own
#' `memory_limit`, `attenuation` and `threads`; so is the value, a named
#' numeric vector with SynExtend's names, so code written for SynExtend
#' keeps working. The figures are ExoLabel's, computed from the same sizes
#' the C core uses: the sort buffers and the name table sharing
#' `memory_limit` (16 bytes per slot, a power of two kept at most 70% full,
#' one and a half times that while it doubles; the sort keeps at least a
#' quarter of the budget, so a table larger than that comes on top), the
#' per-node arrays of label propagation and the 12-byte (20-byte above
#' 2^32 nodes) sort records and 8-byte (12-byte) adjacency entries on disk.
#' Temporary disk peaks at the start of the final merge, when the sorted
#' runs and the graph file being written are both counted in full (hole
#' punching releases the runs while they are read, so the disk actually in
#' use is often lower; the estimate is what should be free). The measured
#' values of a run are in `attr(res, "stats")` (`peak_temp_disk`,
#' `peak_rss`); the package's `benchmarks/ESTIMATES.md` compares the two on
#' generated graphs.
#'
#' Like SynExtend's, the function prints the estimate and returns it
#' invisibly.
#'
#' @param num_v Number of distinct nodes, or the path(s) of the edge-list
#'   file(s) to be clustered: the number of edges is then estimated from the
#'   file sizes and the first 1,000 lines of each file (their mean length and
#'   name length; gzip files are taken to be 3.5 times larger once
#'   decompressed), and the number of nodes is `num_edges / avg_degree` when
#'   `avg_degree` is given, else a quarter of the edges (the guess of
#'   [ExoLabel()]'s disk check).
#' @param avg_degree Average number of edges (input lines) per node; used
#'   only to compute the default of `num_edges`.
#' @param is_undirected Whether the graph is undirected. ExoLabel stores two
#'   records per input edge in both modes (an in-arc and an out-arc when
#'   directed), so it does not change the estimate; it is accepted for
#'   SynExtend's calls.
#' @param num_edges Number of input edges (lines of the edge lists);
#'   `num_v * avg_degree` by default. When both `avg_degree` and `num_edges`
#'   are given, `num_edges` is used (with a warning that `avg_degree` is
#'   ignored).
#' @param node_name_length Average length of a node name in bytes (the names
#'   are kept in a temporary file, and written to the output).
#' @param memory_limit As in [ExoLabel()]: bytes or a string like `"2GB"`.
#' @param attenuation `FALSE` or a positive number: attenuation adds 4 bytes
#'   per node while clustering.
#' @param threads Reader threads, as in [ExoLabel()] (`NULL`: every core);
#'   each holds input buffers.
#' @param algorithm `"lp"` (label propagation) or `"leiden"`, as in
#'   [ExoLabel()]. Leiden keeps about 32 more bytes per node (40 above 2^32
#'   nodes) while clustering, its adjacency read buffer (at most 64 MiB) and
#'   the sort buffers of each level's aggregation, and on disk up to two
#'   coarse graphs (each at most the input graph) with their sort runs and
#'   56 bytes per node.
#' @return Invisibly, a named numeric vector of class `"ExoLabelEstimate"`
#'   with SynExtend's six entries, in bytes except the last:
#'   \item{RAM Upper Bound Estimate}{the peak memory on top of R.}
#'   \item{Expected Input File Size}{`(2 node_name_length + 8)` bytes per
#'     edge, SynExtend's rule for a text edge list.}
#'   \item{Expected Internal File Size (SlowSort), (FastSort)}{both the peak
#'     temporary disk: ExoLabel has one sort, so `use_fast_sort` changes
#'     nothing.}
#'   \item{Expected Final File Size}{the output file: name, separator,
#'     cluster number and line end per node, at most as many cluster digits
#'     as the number of nodes has.}
#'   \item{Disk Usage Ratio}{peak temporary disk over the input file size.}
#'   Indexing (`est[1]`, `est[["RAM Upper Bound Estimate"]]`) and arithmetic
#'   give plain numbers, as with SynExtend. The attribute `"details"` holds
#'   ExoLabel's breakdown: a list with `peak_ram`, `peak_temp_disk` (bytes),
#'   `stages`, a data.frame of the memory and disk estimated for each stage
#'   (`read`, `sort`, `cluster`, `output`), and `input`.
#' @examples
#' # a million nodes of average degree 20, as in SynExtend
#' EstimateExoLabel(1e6, 20)
#' # a billion edges with 8 GB of buffers
#' est <- EstimateExoLabel(5e7, num_edges = 1e9, memory_limit = "8GB")
#' est[["Expected Internal File Size (FastSort)"]] / 2^30   # GiB of temporary files
#' attr(est, "details")$stages
#' @export
EstimateExoLabel <- function(num_v, avg_degree = 2, is_undirected = TRUE,
                             num_edges = num_v * avg_degree, node_name_length = 10L,
                             memory_limit = "256MB", attenuation = FALSE,
                             threads = NULL, algorithm = c("lp", "leiden")) {
    algorithm <- check_option(algorithm, "algorithm", c("lp", "leiden"))
    file_bytes <- NULL
    if (is.character(num_v)) {
        paths <- check_input_files(num_v)
        file_bytes <- sum(file.size(paths))
        sz <- estimate_files(paths)
        if (missing(num_edges)) num_edges <- sz[["edges"]]
        if (missing(node_name_length)) node_name_length <- sz[["name_length"]]
        num_v <- if (missing(avg_degree)) num_edges / 4 else num_edges / avg_degree
        avg_degree <- num_edges / max(num_v, 1)
    } else if (!missing(avg_degree) && !missing(num_edges))
        warning("'avg_degree' is ignored because 'num_edges' is given", call. = FALSE)
    for (a in list(list(num_v, "num_v"), list(avg_degree, "avg_degree"),
                   list(num_edges, "num_edges"),
                   list(node_name_length, "node_name_length")))
        if (!is.numeric(a[[1L]]) || length(a[[1L]]) != 1L || is.na(a[[1L]]) ||
            a[[1L]] < 0)
            stop("'", a[[2L]], "' must be a single non-negative number", call. = FALSE)
    check_flag(as.logical(is_undirected), "is_undirected")
    d <- estimate_resources(num_v, num_edges, memory_limit, attenuation,
                            node_name_length, threads, algorithm)
    input <- if (is.null(file_bytes)) (2 * node_name_length + 8) * num_edges else file_bytes
    digits <- nchar(format(max(1, num_v), scientific = FALSE))
    out <- c("RAM Upper Bound Estimate" = d$peak_ram,
             "Expected Input File Size" = input,
             "Expected Internal File Size (SlowSort)" = d$peak_temp_disk,
             "Expected Internal File Size (FastSort)" = d$peak_temp_disk,
             "Expected Final File Size" = (node_name_length + 2 + digits) * num_v,
             "Disk Usage Ratio" = if (input > 0) d$peak_temp_disk / input else 0)
    attr(out, "details") <- d
    class(out) <- c("ExoLabelEstimate", "numeric")
    print(out)
    invisible(out)
}

# The estimate behind EstimateExoLabel() and ExoLabel()'s disk check: n
# nodes, m input edges.
estimate_resources <- function(num_vertices, num_edges, memory_limit = "256MB",
                               attenuation = FALSE, name_bytes = 12, threads = NULL,
                               algorithm = "lp") {
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
    # (the parser's buffers are reserved off the top: 4 MiB, plus 7 MiB per
    # thread with several threads)
    reserve <- 4 * mib + if (threads > 1) 7 * mib * threads else 0
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
    if (algorithm == "leiden") {
        # exo_leiden.h: 32.125 bytes per node (40.125 with 64-bit ids), the
        # final labels (8), the read buffer (limit / 4, at most 64 MiB), the
        # lanes' tables (about 8 MiB, and each lane worker's neighbour pairs,
        # at most 512 KiB) and the sort buffers of an aggregation (they grow
        # with its records, up to the memory limit)
        ram_cluster <- n * ((if (wide) 40.125 else 32.125) + 8) +
            min(limit / 4, 64 * mib, adj * records) + 8 * mib + mib / 2 * min(threads, 16) +
            min(limit, 3 * rec * records) + 2 * mib
    }
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
    cluster_disk <- names_disk + csr_disk
    if (algorithm == "leiden") # two coarse levels, their sort runs, per-node files
        cluster_disk <- cluster_disk + 2 * csr_disk + rec * records + 56 * n
    stages <- data.frame(stage = c("read", "sort", "cluster", "output"),
                         ram = c(ram_read, ram_sort, ram_cluster, ram_output),
                         temp_disk = c(names_disk + runs_disk, disk_sort,
                                       cluster_disk, names_disk + csr_disk))
    list(peak_ram = max(stages$ram), peak_temp_disk = max(stages$temp_disk),
         stages = stages,
         input = c(num_vertices = n, num_edges = m, memory_limit = limit),
         algorithm = algorithm)
}

# Edges and mean name length of edge-list files, from their sizes and their
# first 1,000 lines, comment lines left out (gzip files: 3.5 times their
# size once decompressed).
estimate_files <- function(files) {
    edges <- 0
    name_bytes <- numeric()
    for (f in files) {
        lines <- head_lines(f, 1000L)
        lines <- lines[nzchar(lines) & !startsWith(lines, "#")] # -outfmt 7's comments
        size <- file.size(f) * if (is_gzip(f)) 3.5 else 1
        if (!length(lines)) next
        per_line <- mean(nchar(lines, type = "bytes")) + 1
        edges <- edges + size / per_line
        fields <- strsplit(lines, "[\t ,;]", useBytes = TRUE)
        names2 <- unlist(lapply(fields, `[`, 1:2))
        name_bytes <- c(name_bytes, nchar(names2[!is.na(names2)], type = "bytes"))
    }
    c(edges = round(edges), name_length = if (length(name_bytes)) mean(name_bytes) else 10)
}


#' @rdname EstimateExoLabel
#' @param x An `"ExoLabelEstimate"`.
#' @param ... Not used.
#' @export
print.ExoLabelEstimate <- function(x, ...) {
    d <- attr(x, "details")
    cat("ExoLabel resource estimate for ", format_count(round(d$input[["num_vertices"]])),
        " nodes and ", format_count(round(d$input[["num_edges"]])), " edges (",
        if (identical(d$algorithm, "leiden")) "Leiden, " else "",
        "memory_limit ", format_bytes(d$input[["memory_limit"]]), ")\n", sep = "")
    cat("  peak memory:          ", format_bytes(d$peak_ram), " (on top of R)\n", sep = "")
    cat("  peak temporary disk:  ", format_bytes(d$peak_temp_disk), "\n", sep = "")
    cat("  input file (text):    ", format_bytes(x[["Expected Input File Size"]]), "\n",
        sep = "")
    cat("  output file:          ", format_bytes(x[["Expected Final File Size"]]), "\n",
        sep = "")
    cat(sprintf("  temporary disk is about %.1fx the input file\n",
                x[["Disk Usage Ratio"]]))
    invisible(x)
}

# Arithmetic and math on an estimate give plain named numbers (the class
# and the breakdown describe the original bytes only).
plain_estimate <- function(x) {
    if (inherits(x, "ExoLabelEstimate")) {
        attr(x, "details") <- NULL
        class(x) <- NULL
    }
    x
}

#' @export
Ops.ExoLabelEstimate <- function(e1, e2) {
    if (missing(e2)) get(.Generic)(plain_estimate(e1))
    else get(.Generic)(plain_estimate(e1), plain_estimate(e2))
}

#' @export
Math.ExoLabelEstimate <- function(x, ...) get(.Generic)(plain_estimate(x), ...)
