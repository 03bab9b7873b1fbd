# In-memory inputs (data.frame, data.table, DataFrame, igraph, sparse
# matrices), result classes, progress messages and the resource estimator.

example_file <- function() system.file("extdata", "example_edges.tsv", package = "ExoLabel")
example_df <- function() utils::read.delim(example_file(), header = FALSE,
                                           col.names = c("from", "to", "weight"),
                                           stringsAsFactors = FALSE)

test_that("a data.frame edge list gives the same clusters as its file", {
    set.seed(11)
    from_file <- ExoLabel(example_file(), return_table = TRUE)
    set.seed(11)
    from_df <- ExoLabel(example_df(), return_table = TRUE)
    expect_identical(from_df$results, from_file$results)
    expect_identical(from_df$graph_stats, from_file$graph_stats)
    # factors (shared levels, or not), a data.table and a DataFrame too
    df <- example_df()
    lv <- unique(c(df$from, df$to))
    f1 <- data.frame(a = factor(df$from, levels = rev(lv)), b = factor(df$to, levels = rev(lv)),
                     w = df$weight)
    f2 <- data.frame(a = factor(df$from), b = df$to, w = df$weight)
    for (x in list(f1, f2)) {
        set.seed(11)
        expect_identical(ExoLabel(x, return_table = TRUE)$results, from_file$results)
    }
    skip_if_not_installed("data.table")
    set.seed(11)
    dt <- ExoLabel(data.table::as.data.table(df), return_table = TRUE)
    expect_identical(dt$results, from_file$results)
    skip_if_not_installed("S4Vectors")
    set.seed(11)
    DF <- ExoLabel(S4Vectors::DataFrame(df), return_table = TRUE)
    expect_identical(DF$results, from_file$results)
})

test_that("edge list columns: ids, weight column, ignore_weights, bad values", {
    # numeric ids are node names written in decimal
    df <- data.frame(a = c(1L, 2L, 10L, 11L), b = c(2L, 3L, 11L, 12L))
    set.seed(1)
    res <- ExoLabel(df, return_table = TRUE)
    expect_identical(res$results$Vertex, c("1", "2", "3", "10", "11", "12"))
    expect_identical(res$results$Cluster, c(1L, 1L, 1L, 2L, 2L, 2L))
    dbl <- ExoLabel(data.frame(a = c(1e10, 2), b = c(2, 3)), return_table = TRUE)
    expect_identical(dbl$results$Vertex, c("10000000000", "2", "3"))
    # the weight column is the one named "weight", else a numeric third one
    # b-c weighs 10, a-b 1: with a cutoff of 5 only b-c can carry labels
    w <- data.frame(x = c("a", "b"), y = c("b", "c"), note = c("p", "q"),
                    Weight = c(1, 10))
    r <- ExoLabel(w, add_self_loops = 5, return_table = TRUE)
    m <- as_membership(r$results)
    expect_equal(unname(m["b"]), unname(m["c"]))
    expect_false(m["a"] == m["b"])
    expect_warning(r <- ExoLabel(w, add_self_loops = 5, ignore_weights = TRUE,
                                 return_table = TRUE), "will be ignored")
    expect_equal(length(unique(r$results$Cluster)), 1)
    # zero weights register the nodes without an edge
    z <- ExoLabel(data.frame(a = c("a", "c"), b = c("b", "d"), w = c(1, 0)),
                  return_table = TRUE)
    expect_identical(z$results$Vertex, c("a", "b", "c", "d"))
    expect_equal(z$graph_stats[["num_edges"]], 2)
    expect_error(ExoLabel(data.frame(a = c("a", NA), b = c("b", "c"))),
                 "first column of the edge list has missing values")
    expect_error(ExoLabel(data.frame(a = c("a", "b"), b = c("b", "c"), w = c(1, NA))),
                 "weight column of the edge list has missing values")
    expect_error(ExoLabel(data.frame(a = c(1.5, 2), b = c(2, 3))), "not whole")
    expect_error(ExoLabel(data.frame(a = "x")), "at least two columns")
    expect_error(ExoLabel(data.frame(a = c("a", "b\tc"), b = c("b", "d"))),
                 "edge 2: a node name contains the separator")
    expect_error(ExoLabel(data.frame(a = c("a", ""), b = c("b", "d"))),
                 "edge 2: a node name is empty")
    expect_error(ExoLabel(data.frame(a = "a", b = "b", w = Inf)), "edge 1: the weight is infinite")
    expect_error(ExoLabel(list(1, 2)), "must be file paths, a data.frame")
    # errors leave no temporary directory behind
    d <- fresh_dir()
    expect_error(ExoLabel(data.frame(a = c("a", ""), b = c("b", "d")), tempfiledir = d))
    expect_length(stray_files(d), 0)
})

test_that("numeric ids of 16 digits stay distinct and are named exactly (issue 53)", {
    # "%.15g" merged these four into two vertices
    ids <- c(1234567890123456, 1234567890123457, 9007199254740991, 9007199254740990)
    df <- data.frame(a = ids[c(1, 3)], b = ids[c(2, 4)])
    res <- ExoLabel(df, return_table = TRUE)
    expect_identical(res$graph_stats[["num_vertices"]], 4)
    text <- c("1234567890123456", "1234567890123457", "9007199254740991", "9007199254740990")
    expect_setequal(res$results$Vertex, text)
    # the names as returned identify the node: each edge's ends share a cluster,
    # the two edges do not
    m <- as_membership(res$results)
    expect_equal(as.numeric(names(m)), ids[match(names(m), text)])
    expect_equal(unname(m[text[1]]), unname(m[text[2]]))
    expect_equal(unname(m[text[3]]), unname(m[text[4]]))
    expect_false(m[text[1]] == m[text[3]])
    # no exponent for whole numbers, -0 is 0, negative ids; the same text when
    # the other column holds names
    neg <- ExoLabel(data.frame(a = c(-1234567890123456, -0, 1e15), b = c(0, 1e15, 2)),
                    return_table = TRUE)
    expect_setequal(neg$results$Vertex, c("-1234567890123456", "0", "1000000000000000", "2"))
    mixed <- ExoLabel(data.frame(a = c(1234567890123457, -0, 1e15), b = c("x", "0", "y")),
                      return_table = TRUE)
    expect_setequal(mixed$results$Vertex, c("1234567890123457", "0", "1000000000000000", "x", "y"))
    # ids beyond 2^53 may already have merged in R: refused, with a way out
    big <- c(12345678901234567, 12345678901234568) # one double in R
    expect_error(ExoLabel(data.frame(a = big, b = c(1, 2))),
                 "first column of the edge list holds ids of 2\\^53.*as character or as bit64's integer64")
    expect_error(ExoLabel(data.frame(a = c(1, 2), b = c(1, 2^60))), "second column .* 2\\^53")
    # not finite
    for (bad in list(NA_real_, NaN, Inf, -Inf))
        expect_error(ExoLabel(data.frame(a = c(1, bad), b = c(2, 3))),
                     "first column of the edge list has missing or infinite values")
})

test_that("integer64 ids and weights (bit64, data.table::fread) are exact (issue 53)", {
    skip_if_not_installed("bit64")
    ids <- bit64::as.integer64(c("9007199254740993", "4611686018427387904", "-5",
                                 "9223372036854775807", "12"))
    df <- data.frame(a = ids, b = ids[c(2, 3, 1, 5, 4)])
    res <- ExoLabel(df, return_table = TRUE)
    # were 4.94065645841247e-324 and the like
    expect_setequal(res$results$Vertex, as.character(ids))
    expect_setequal(res$results$Vertex, c("9007199254740993", "4611686018427387904", "-5",
                                          "9223372036854775807", "12"))
    m <- as_membership(res$results)
    expect_equal(length(unique(m[c("9007199254740993", "4611686018427387904", "-5")])), 1)
    expect_equal(unname(m["9223372036854775807"]), unname(m["12"]))
    expect_false(m["-5"] == m["12"])
    # integer64 weights of 5 keep their edges (every edge was dropped)
    w <- data.frame(a = c("a", "b", "c"), b = c("b", "c", "a"),
                    weight = bit64::as.integer64(c(5, 5, 5)))
    rw <- ExoLabel(w, return_table = TRUE)
    expect_equal(rw$graph_stats[["num_edges"]], 6)
    expect_equal(length(unique(rw$results$Cluster)), 1)
    # a weight read as integer64 counts as the double of the same value: the
    # large weight ties a and b, the small c and d's to them
    w2 <- data.frame(a = c("a", "b", "c"), b = c("b", "c", "d"),
                     w = bit64::as.integer64(c("1152921504606846976", "1", "3")))
    d2 <- data.frame(a = w2$a, b = w2$b, w = c(2^60, 1, 3))
    set.seed(3)
    r64 <- ExoLabel(w2, add_self_loops = 2, return_table = TRUE)
    set.seed(3)
    rdb <- ExoLabel(d2, add_self_loops = 2, return_table = TRUE)
    expect_identical(r64$results, rdb$results)
    expect_identical(r64$graph_stats, rdb$graph_stats)
    # ids with names in the other column; missing values; weights a double
    # cannot hold
    mixed <- ExoLabel(data.frame(a = ids[1:2], b = c("x", "9007199254740993")),
                      return_table = TRUE)
    expect_setequal(mixed$results$Vertex, c("9007199254740993", "4611686018427387904", "x"))
    expect_equal(mixed$graph_stats[["num_vertices"]], 3)
    expect_error(ExoLabel(data.frame(a = bit64::as.integer64(c(NA, 1)), b = 1:2)),
                 "first column of the edge list has missing values")
    expect_error(ExoLabel(data.frame(a = 1:2, b = 2:3,
                                     weight = bit64::as.integer64(c(NA, 1)))),
                 "weight column of the edge list has missing values")
    expect_error(ExoLabel(data.frame(a = 1:2, b = 2:3,
                                     weight = bit64::as.integer64(c("9007199254740993", "1")))),
                 "weight column .* integer64 weights that a double cannot hold exactly")
})

test_that("Date node columns are names; other classed columns are refused by name (issue 53)", {
    day <- as.Date("2024-01-01") + 0:3
    res <- ExoLabel(data.frame(a = day[c(1, 3)], b = day[c(2, 4)]), return_table = TRUE)
    expect_setequal(res$results$Vertex, c("2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04"))
    m <- as_membership(res$results)
    expect_equal(unname(m["2024-01-01"]), unname(m["2024-01-02"]))
    expect_false(m["2024-01-01"] == m["2024-01-03"])
    expect_error(ExoLabel(data.frame(a = day[1:2] + 0.5, b = day[3:4])),
                 "first column .* fraction of a day.*convert it to character")
    expect_error(ExoLabel(data.frame(a = c(day[1], NA), b = day[3:4])),
                 "first column of the edge list has missing or infinite dates")
    t <- as.POSIXct("2024-01-01 10:00:00", tz = "UTC") + 1:2
    expect_error(ExoLabel(data.frame(a = 1:2, b = t)),
                 "second column of the edge list is of class POSIXct: convert it to character")
    lt <- list(a = as.POSIXlt(t), b = 1:2)
    expect_error(ExoLabel(structure(lt, class = "data.frame", row.names = 1:2)),
                 "first column of the edge list is of class POSIXlt")
    expect_error(ExoLabel(data.frame(a = as.difftime(1:2, units = "mins"), b = 1:2)),
                 "first column of the edge list is of class difftime")
    lc <- data.frame(a = 1:2)
    lc$b <- list("x", "y")
    expect_error(ExoLabel(lc), "second column of the edge list is of class list")
    # I() columns are their values; factors stay names
    expect_setequal(ExoLabel(data.frame(a = I(c("p", "q")), b = I(c(1L, 2L))),
                             return_table = TRUE)$results$Vertex, c("p", "q", "1", "2"))
    expect_setequal(ExoLabel(data.frame(a = factor(c("p", "q")), b = c("q", "r")),
                             return_table = TRUE)$results$Vertex, c("p", "q", "r"))
    # a weight column of dates is refused by its class
    expect_error(ExoLabel(data.frame(a = 1:2, b = 2:3, weight = day[1:2])),
                 "weight column of the edge list must be numeric, not of class Date")
})

test_that("a character matrix is an edge list; numbers stored as text are not silent", {
    # cbind() of names and scores gives a character matrix: it was read as
    # file paths ("edge list file 'a' does not exist")
    df <- example_df()
    set.seed(11)
    ref <- ExoLabel(df, return_table = TRUE)
    set.seed(11)
    m <- ExoLabel(cbind(df$from, df$to, df$weight), return_table = TRUE)
    expect_identical(m$results, ref$results)
    expect_identical(m$graph_stats, ref$graph_stats)
    # two columns: every edge weighs 1, as the same data.frame
    set.seed(11)
    m2 <- ExoLabel(cbind(df$from, df$to), return_table = TRUE)
    set.seed(11)
    expect_identical(m2$results, ExoLabel(df[, 1:2], return_table = TRUE)$results)
    # b-c weighs 10, a-b 1: with a cutoff of 5 only b-c carries labels, so
    # the weights were read
    r <- ExoLabel(cbind(c("a", "b"), c("b", "c"), c("1", "10")), add_self_loops = 5,
                  return_table = TRUE)
    mm <- as_membership(r$results)
    expect_equal(unname(mm["b"]), unname(mm["c"]))
    expect_false(mm["a"] == mm["b"])
    # a third column of numbers as text in a data.frame is not a weight: said
    expect_warning(ExoLabel(data.frame(a = c("a", "b"), b = c("b", "c"), w = c("1", "10"))),
                   "numbers stored as text: they are not read as weights")
    # a text column that is not numbers stays an annotation, silently
    expect_warning(ExoLabel(data.frame(a = c("a", "b"), b = c("b", "c"), w = c("x", "1"))), NA)
})

test_that("igraph inputs give communities objects that igraph can use", {
    skip_if_not_installed("igraph")
    df <- clique_ring(k = 4, s = 6)
    g <- igraph::graph_from_data_frame(df[, c("a", "b", "w")], directed = FALSE)
    g <- igraph::set_edge_attr(g, "weight", value = df$w)
    g <- igraph::add_vertices(g, 1, name = "isolated")
    set.seed(3)
    res <- ExoLabel(g)
    comm <- res$results
    expect_s3_class(comm, "communities")
    expect_equal(length(igraph::membership(comm)), igraph::vcount(g))
    expect_identical(names(igraph::membership(comm)), igraph::V(g)$name)
    expect_equal(sort(as.vector(igraph::sizes(comm))), c(1, 6, 6, 6, 6))
    expect_equal(igraph::modularity(comm),
                 igraph::modularity(g, igraph::membership(comm), weights = NULL))
    truth <- as.integer(factor(c(sub("_n[0-9]+$", "", igraph::V(g)$name[-igraph::vcount(g)]),
                                 "iso")))
    expect_equal(igraph::compare(comm, truth, method = "nmi"), 1)
    # the same clusters as the edge list with isolated vertex appended
    set.seed(3)
    tab <- ExoLabel(g, return_table = TRUE)$results
    expect_s3_class(tab, "communities")
    # an outfile gives a file in vertex order
    out <- tempfile(fileext = ".tsv")
    set.seed(3)
    f <- ExoLabel(g, outfile = out)
    expect_identical(f$results, normalizePath(out))
    lines <- readLines(out)
    expect_identical(sub("\t.*", "", lines), igraph::V(g)$name)
    expect_identical(as.integer(sub(".*\t", "", lines)), as.integer(igraph::membership(comm)))
    # unnamed and directed graphs
    chain <- igraph::make_graph(c(1, 2, 2, 3, 3, 4), directed = TRUE)
    set.seed(1)
    d <- ExoLabel(chain, iterations = 100)
    expect_equal(d$graph_stats[["num_edges"]], 3)
    expect_equal(as.vector(igraph::membership(d$results)), c(1, 1, 1, 1))
    u <- ExoLabel(chain, mode = "undirected", return_table = TRUE)
    expect_equal(u$graph_stats[["num_edges"]], 6)
})

test_that("sparse adjacency matrices: upper triangle undirected, arcs directed", {
    skip_if_not_installed("Matrix")
    df <- clique_ring(k = 3, s = 5)
    nm <- unique(c(df$a, df$b, "alone"))
    A <- Matrix::sparseMatrix(i = match(df$a, nm), j = match(df$b, nm), x = df$w,
                              dims = c(length(nm), length(nm)),
                              dimnames = list(nm, nm))
    S <- A + Matrix::t(A)       # symmetric: each edge read once
    set.seed(4)
    r <- ExoLabel(S, return_table = TRUE)
    expect_identical(r$results$Vertex, nm)
    expect_equal(r$graph_stats[["num_edges"]], 2 * nrow(df))
    m <- as_membership(r$results)
    truth <- c(stats::setNames(sub("_n[0-9]+$", "", df$a), df$a), alone = "alone")
    expect_true(same_partition(m, truth[names(m)]))
    # symmetric storage classes and dense base matrices give the same graph
    set.seed(4)
    r2 <- ExoLabel(Matrix::forceSymmetric(S), return_table = TRUE)
    expect_identical(r2$results, r$results)
    set.seed(4)
    r3 <- ExoLabel(as.matrix(S), return_table = TRUE)
    expect_identical(r3$results, r$results)
    # directed: A[i, j] is the arc i -> j, one per entry
    d <- ExoLabel(A, mode = "directed", return_table = TRUE)
    expect_equal(d$graph_stats[["num_edges"]], nrow(df))
    # unnamed matrices number their nodes 1..n
    U <- S
    U <- suppressMessages(unname(U))
    u <- ExoLabel(U, return_table = TRUE)
    expect_identical(u$results$Vertex, as.character(seq_along(nm)))
    expect_error(ExoLabel(Matrix::Matrix(0, 2, 3, sparse = TRUE)), "must be square")
    bad <- S
    dimnames(bad) <- list(nm, rev(nm))
    expect_error(ExoLabel(bad), "row and column names of the adjacency matrix differ")
})

test_that("results print a summary and carry the run statistics", {
    set.seed(7)
    res <- ExoLabel(example_file(), return_table = TRUE)
    expect_s3_class(res, "ExoLabelResult")
    expect_named(res, c("parameters", "graph_stats", "results"))
    st <- attr(res, "stats")
    expect_equal(st$num_clusters, length(unique(res$results$Cluster)))
    sizes <- table(res$results$Cluster)
    expect_equal(st$largest_cluster, max(sizes))
    bins <- table(factor(floor(log2(sizes)), levels = seq_along(st$size_bins) - 1))
    expect_equal(st$size_bins, as.vector(bins))
    expect_true(st$seed >= 0 && st$seed < 2^53)
    s <- summary(res)
    expect_equal(s$num_vertices, 200)
    expect_equal(sum(s$cluster_sizes), st$num_clusters)
    out <- capture.output(print(res))
    expect_match(out[2], "200 nodes, 1,393 edges", fixed = TRUE) # 2,786 arcs
    expect_match(out[3], paste0("clusters: ", st$num_clusters), fixed = TRUE)
    expect_true(any(grepl("peak temporary disk", out)))
    expect_true(any(grepl("data.frame with 200 rows", out)))
    # several clusterings: a list of results
    two <- ExoLabel(example_file(), attenuation = c(0, 1))
    expect_length(two, 2)
    expect_s3_class(two[[2]], "ExoLabelResult")
})

test_that("verbose gives catchable messages per stage, and nothing otherwise", {
    df <- example_df()
    msgs <- testthat::capture_messages(ExoLabel(df, verbose = TRUE))
    expect_true(any(grepl("^ExoLabel: reading edges done: 1.4 k edges", msgs)))
    expect_true(any(grepl("^ExoLabel: label propagation done", msgs)))
    expect_true(any(grepl("^ExoLabel: writing clusters done: 200 nodes", msgs)))
    msgs <- testthat::capture_messages(ExoLabel(example_file(), verbose = TRUE))
    expect_true(any(grepl("reading edges done: 32.6 KiB", msgs, fixed = TRUE)))
    expect_silent(suppressMessages(ExoLabel(df, verbose = TRUE)))
    expect_silent(ExoLabel(df, verbose = FALSE))
})

test_that("EstimateExoLabel follows the documented sizes", {
    est <- function(...) {
        capture.output(e <- EstimateExoLabel(...))
        attr(e, "details")
    }
    e <- est(1e6, num_edges = 1e7, memory_limit = "256MB", node_name_length = 9,
             threads = 1)
    # 1e6 names need 2^21 slots of 16 bytes (32 MiB), taken from the 252 MiB
    # the sort gets; one thread: a run buffer and the scratch share the rest.
    # 2e7 records of 12 bytes: two full run buffers go to disk, the rest is
    # merged from memory; names take 10 bytes each; the CSR 8 bytes per arc
    # plus offsets
    per_run <- floor((256 - 4 - 32) * 2^20 / 2 / 12)
    csr <- 8 * 2e7 + 8 * (1e6 + 1)
    expect_equal(e$peak_temp_disk, 1e7 + 12 * 2 * per_run + csr)
    # two threads: two run buffers and the scratch; of the three full runs
    # the last, still being written when the input ends, is merged from
    # memory beside the partial buffer: two on disk
    e2 <- est(1e6, num_edges = 1e7, memory_limit = "256MB", node_name_length = 9,
              threads = 2)
    per_run2 <- floor((256 - 4 - 14 - 32) * 2^20 / 3 / 12) # 7 MiB per parser thread
    expect_equal(e2$peak_temp_disk, 1e7 + 12 * 2 * per_run2 + csr)
    # while reading, the table and the touched run buffers stay within the
    # budget (plus the readers' buffers)
    expect_lte(e$stages$ram[1], 256 * 2^20 + 4 * 2^20)
    big <- est(1e6, num_edges = 1e7, memory_limit = "8GB", node_name_length = 9)
    # everything sorted in memory: names + CSR
    expect_equal(big$peak_temp_disk, 1e7 + csr)
    expect_gt(big$peak_ram, e$peak_ram)
    att <- est(1e6, num_edges = 1e7, attenuation = 1)
    e1 <- est(1e6, num_edges = 1e7)
    # attenuation: the hop distance and its published copy (exo_lp.h)
    expect_equal(att$stages$ram[3] - e1$stages$ram[3], 8e6)
    expect_output(print(EstimateExoLabel(1e6, num_edges = 1e7)), "peak temporary disk")
    expect_error(EstimateExoLabel(-1, 10), "num_v")
})

test_that("ExoLabel stops early when tempfiledir cannot hold the run", {
    free <- .exolabel_free_space(tempdir())
    skip_if(is.na(free))
    expect_gt(free, 0)
    huge <- c(edges = free / 10, vertices = 1e6)
    expect_error(check_disk_space(huge, 2^28, tempdir()),
                 "not enough free space in tempfiledir .* only .* are free")
    small <- c(edges = 1e3, vertices = 1e2)
    expect_null(check_disk_space(small, 2^28, tempdir()))
    old <- options(ExoLabel.check_disk = FALSE)
    on.exit(options(old))
    expect_null(check_disk_space(huge, 2^28, tempdir()))
    # file sizes give the guess; gzip counts 3.5 times
    g <- guess_input_size(example_file(), NULL)
    expect_equal(g[["edges"]], file.size(example_file()) / 32)
    gz <- system.file("extdata", "example_edges.tsv.gz", package = "ExoLabel")
    expect_equal(guess_input_size(gz, NULL)[["edges"]], 3.5 * file.size(gz) / 32)
})
