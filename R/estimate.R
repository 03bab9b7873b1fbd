#' Estimate the memory and temporary disk an ExoLabel run needs
#'
#' Predicts the peak memory (on top of the R session) and the peak size of
#' the temporary files of [ExoLabel()] for a graph of a given size. The
#' arguments are those of `EstimateExoLabel()` in Bioconductor's SynExtend,
#' with the same meanings and positions (`EstimateExoLabel(1e6, 20)` is a
#' million nodes of average degree 20), followed by ExoLabel's own
#' `memory_limit`, `attenuation` and `threads`; so is the value, a named
#' numeric vector with SynExtend's names, so code written for SynExtend
#' keeps working. The figures are ExoLabel's, computed by the C core itself
#' (its estimate takes each stage's share of `memory_limit` and each
#' module's bytes per node from the module that allocates them): the sort
#' buffers and the name table sharing `memory_limit` (16 bytes per slot, a
#' power of two kept at most 70% full, one and a half times that while it
#' doubles; the sort keeps at least a
#' quarter of the budget, so a table larger than that comes on top), the
#' per-node arrays of label propagation, the read buffers and pair tables
#' of its merge passes (`refine = TRUE`, the default), and the 12-byte (20-byte above
#' 2^32 nodes) sort records and 8-byte (12-byte) adjacency entries on disk.
#' Temporary disk peaks at the start of the final merge, when the sorted
#' runs and the graph file being written are both counted in full (hole
#' punching releases the runs while they are read, so the disk actually in
#' use is often lower; the estimate is what should be free), or with
#' Leiden when its coarse levels, kept from one round to the next, take
#' more. The measured
#' values of a run are in `attr(res, "stats")` (`peak_temp_disk`,
#' `peak_rss`); the package's `benchmarks/ESTIMATES.md` compares the two on
#' generated graphs.
#'
#' The estimate is returned visibly and printed by its `print()` method, so
#' it is shown at the prompt but not when assigned
#' (`est <- EstimateExoLabel(...)` prints nothing; SynExtend's function
#' prints inside the call even then).
#'
#' @param num_v Number of distinct nodes, or the path(s) of the edge-list
#'   file(s) to be clustered. From files the sizes are estimated on a sample
#'   of about 4 MiB of each: 32 pieces spread evenly over a plain file
#'   (read whole, and counted exactly, when it is no larger), the first
#'   4 MiB of a gzip file once decompressed (taken to be 3.5 times the
#'   file's size). The number of edges is the file size over the sample's
#'   bytes per line, the name length the sample's mean; the number of nodes
#'   (unless `avg_degree` is given: then `num_edges / avg_degree`) is the
#'   number of distinct names in the first two fields of the sample plus an
#'   estimate of the names it missed: with the pieces as sampling units
#'   drawn without replacement (K of the file's T pieces), \eqn{Q_1} names
#'   met in one piece only and \eqn{Q_2} in two, the missed names are
#'   \eqn{Q_1^2 / (2 Q_2 K / (K - 1) + Q_1 q / (1 - q))}, \eqn{q = K / T}
#'   (Chao's lower bound for sampling without replacement; a file sorted by
#'   its first column, whose names are confined to a piece, extrapolates
#'   linearly). On the bench graphs it is within 5% of the true count,
#'   including graphs whose names repeat unevenly.
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
#' @param attenuation `FALSE` or a positive number: attenuation adds 8 bytes
#'   per node while clustering (the hop distances).
#' @param threads Reader threads, as in [ExoLabel()] (`NULL`: every core);
#'   each holds input buffers.
#' @param algorithm `"lp"` (label propagation), `"leiden"` or
#'   `"components"` (8 bytes per node, no more disk), as in [ExoLabel()]. Leiden keeps about 32 more bytes per node (40 above 2^32
#'   nodes) while clustering, its adjacency read buffer (at most 64 MiB) and
#'   the sort buffers of each level's aggregation. On disk, beside the input
#'   graph, it keeps 24 bytes per input node and the files of two coarse
#'   levels at a time: a coarse level built in memory that fits a quarter of
#'   `memory_limit` is not written (its offsets only), a larger one is, with
#'   the sort runs of its aggregation when that does not fit
#'   `memory_limit`. Each coarse level is taken to have a quarter of the
#'   nodes and half the arcs of the one before (its size is known only once
#'   it is built). The temporary disk of a Leiden run is usually that of
#'   reading and sorting the graph, which the coarse levels do not exceed.
#' @return A named numeric vector of class `"ExoLabelEstimate"`
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
#'   (`read`, `sort`, `cluster`, `refine`: label propagation's merge passes,
#'   0 for Leiden, `output`), and `input`.
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
                             threads = NULL, algorithm = c("lp", "leiden", "components")) {
    algorithm <- check_option(algorithm, "algorithm", c("lp", "leiden", "components"))
    file_bytes <- NULL
    if (is.character(num_v)) {
        paths <- check_input_files(num_v)
        file_bytes <- sum(file.size(paths))
        sz <- estimate_files(paths)
        if (missing(num_edges)) num_edges <- sz[["edges"]]
        if (missing(node_name_length)) node_name_length <- sz[["name_length"]]
        num_v <- if (missing(avg_degree)) sz[["nodes"]] else num_edges / avg_degree
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
    out # printed by print.ExoLabelEstimate when not assigned
}

# The estimate behind EstimateExoLabel() and ExoLabel()'s disk check: n
# nodes, m input edges. The arithmetic is the core's (exo_estimate.h, through
# the glue): the shares of memory_limit (exo_budget.h) and every module's
# bytes per node live there; R only checks the arguments and adds them to
# the breakdown. name_bytes: the mean name length, 12 when unknown
# (ExoLabel()'s disk check).
estimate_resources <- function(num_vertices, num_edges, memory_limit = "256MB",
                               attenuation = FALSE, name_bytes = 12, threads = NULL,
                               algorithm = "lp") {
    limit <- parse_memory_limit(memory_limit)
    threads <- check_threads(threads)
    att <- check_attenuation(attenuation)[1L] > 0
    # refine = TRUE, ExoLabel()'s default: label propagation's merge passes
    d <- .exolabel_budget_estimate(num_vertices, num_edges, limit, threads, algorithm,
                                   att, TRUE, name_bytes)
    list(peak_ram = d$peak_ram, peak_temp_disk = d$peak_temp_disk, stages = d$stages,
         input = c(num_vertices = num_vertices, num_edges = num_edges, memory_limit = limit),
         algorithm = algorithm)
}

# Edges, distinct nodes and mean name length of edge-list files, from a
# sample of their lines (comment lines left out). A plain file is read as
# `chunks` pieces of `chunk_bytes` spread evenly over it (positioned reads;
# a file no larger than that is read whole and counted exactly); a gzip file
# as the same amount of decompressed text from its head, cut into `chunks`
# consecutive pieces, and taken to be 3.5 times its size once decompressed.
# Edges: the file size over the sampled bytes per line. Nodes: the names of
# the first two fields met in the sample, plus an estimate of the names not
# met, from the incidence of names in the pieces (the pieces are the
# sampling units, drawn without replacement from the file's T pieces):
# with Q1 names met in exactly one piece, Q2 in exactly two, K pieces read
# and q = K / T, the unseen names are Q1^2 / (2 Q2 K / (K - 1) + Q1 q / (1 - q))
# (Chao's lower bound for sampling without replacement, Chao & Lin 2012).
# Pieces, not lines, are the units so that a file sorted by its first
# column (search-tool output: a query's hits in a row) is not mistaken for
# one whose names repeat: a name met in one piece only counts as local to
# it, and with no name met twice the estimate is the linear extrapolation
# Q1 (T - K) / K.
estimate_files <- function(files, chunks = 32L, chunk_bytes = 2^17) {
    edges <- 0
    total_pieces <- 0
    name_bytes <- 0
    name_count <- 0
    pieces <- list()
    for (f in files) {
        gz <- is_gzip(f)
        size <- file.size(f) * if (gz) 3.5 else 1
        if (is.na(size) || size == 0) next
        sample <- sample_lines(f, gz, chunks, chunk_bytes)
        got <- sample$pieces
        got <- lapply(got, function(l) l[nzchar(l) & !startsWith(l, "#")]) # -outfmt 7's comments
        n_lines <- sum(lengths(got))
        if (!n_lines) next
        per_line <- sample$bytes / sum(lengths(sample$pieces))
        lines_total <- if (sample$whole) n_lines else size / per_line
        edges <- edges + lines_total
        total_pieces <- total_pieces +
            if (sample$whole) length(got) else max(length(got), lines_total / (n_lines / length(got)))
        for (l in got[lengths(got) > 0]) {
            nm <- first_two_fields(l)
            name_bytes <- name_bytes + sum(nchar(nm, type = "bytes"))
            name_count <- name_count + length(nm)
            pieces[[length(pieces) + 1L]] <- unique(nm)
        }
    }
    nodes <- distinct_estimate(pieces, total_pieces)
    c(edges = round(edges), nodes = round(nodes),
      name_length = if (name_count) name_bytes / name_count else 10)
}

# The names met in `pieces` (a list of the distinct names of each piece read)
# plus the unseen ones, for a file of `total` pieces (see estimate_files).
distinct_estimate <- function(pieces, total) {
    k <- length(pieces)
    if (!k) return(0)
    all <- unlist(pieces, use.names = FALSE)
    inc <- tabulate(match(all, unique(all)))
    seen <- length(inc)
    if (total <= k) return(seen)
    q1 <- sum(inc == 1)
    q2 <- sum(inc == 2)
    q <- k / total
    den <- 2 * q2 * if (k > 1) k / (k - 1) else 1
    den <- den + q1 * q / (1 - q)
    seen + if (den > 0) q1^2 / den else 0
}

# Lines of a file: `whole` (every line), else `chunks` pieces of about
# `chunk_bytes` (plain: spread over the file, the partial lines at a piece's
# ends dropped; gzip: consecutive, from its head). `bytes`: the bytes of the
# lines returned, line ends included.
sample_lines <- function(path, gz, chunks, chunk_bytes) {
    size <- file.size(path)
    budget <- chunks * chunk_bytes
    if (gz) {
        con <- gzfile(path, "rb")
        on.exit(close(con))
        raw <- readBin(con, "raw", budget)
        whole <- length(raw) < budget
        text <- rawToChar(raw[seq_len(max(0, last_newline(raw, whole)))])
        lines <- split_lines(text)
        idx <- if (whole) rep(1L, length(lines)) else
            ceiling(seq_along(lines) / max(1, length(lines) / chunks))
        return(list(pieces = unname(split(lines, idx)), whole = whole,
                    bytes = sum(nchar(lines, type = "bytes")) + length(lines)))
    }
    con <- file(path, "rb")
    on.exit(close(con))
    if (size <= budget) {
        raw <- readBin(con, "raw", size)
        text <- rawToChar(raw[seq_len(last_newline(raw, TRUE))])
        lines <- split_lines(text)
        idx <- ceiling(seq_along(lines) / max(1, length(lines) / chunks))
        return(list(pieces = unname(split(lines, idx)), whole = TRUE,
                    bytes = sum(nchar(lines, type = "bytes")) + length(lines)))
    }
    starts <- floor(seq(0, size - chunk_bytes, length.out = chunks))
    pieces <- vector("list", chunks)
    bytes <- 0
    for (i in seq_len(chunks)) {
        seek(con, starts[i])
        raw <- readBin(con, "raw", chunk_bytes)
        nl <- which(raw == as.raw(10L))
        if (length(nl) < 2L && starts[i] > 0) next
        from <- if (starts[i] == 0) 1L else nl[1] + 1L
        to <- nl[length(nl)]
        if (to < from) next
        lines <- split_lines(rawToChar(raw[seq.int(from, to)]))
        pieces[[i]] <- lines
        bytes <- bytes + (to - from + 1)
    }
    list(pieces = pieces, whole = FALSE, bytes = bytes)
}

# Lines of a text (without their line ends, \r\n too).
split_lines <- function(text) {
    l <- strsplit(text, "\n", fixed = TRUE)[[1]]
    if (length(l) && endsWith(l[1], "\r")) l <- sub("\r$", "", l, useBytes = TRUE)
    l
}

# The first two fields of each line (separated by a tab, space, comma or
# semicolon; a line with one field gives one name).
first_two_fields <- function(l) {
    pos <- regexpr("[\t ,;]", l, useBytes = TRUE)
    one <- pos < 0
    first <- ifelse(one, l, substr(l, 1L, pos - 1L))
    rest <- substr(l[!one], pos[!one] + 1L, nchar(l[!one], type = "bytes"))
    pos2 <- regexpr("[\t ,;]", rest, useBytes = TRUE)
    second <- ifelse(pos2 < 0, rest, substr(rest, 1L, pos2 - 1L))
    c(first, second)
}

# The position of the last newline of `raw` (its length when `whole` and it
# ends without one).
last_newline <- function(raw, whole) {
    if (whole) return(length(raw))
    nl <- which(raw == as.raw(10L))
    if (length(nl)) nl[length(nl)] else 0L
}


#' @rdname EstimateExoLabel
#' @param x An `"ExoLabelEstimate"`.
#' @param ... Not used.
#' @export
print.ExoLabelEstimate <- function(x, ...) {
    d <- attr(x, "details")
    cat("ExoLabel resource estimate for ", format_count(round(d$input[["num_vertices"]])),
        " nodes and ", format_count(round(d$input[["num_edges"]])), " edges (",
        switch(as.character(d$algorithm)[1L], leiden = "Leiden, ",
               components = "connected components, ", ""),
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
