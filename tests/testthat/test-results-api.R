# Issue 24, items 6, 7, 9-13: numbers a result reports, the shapes it comes
# in and the accessors every shape shares, argument spellings.

# A weighted two-block SBM as an igraph graph with names.
weighted_sbm <- function(seed = 2, n = 120) {
    set.seed(seed)
    g <- igraph::sample_sbm(n, matrix(c(0.25, 0.03, 0.03, 0.25), 2), c(n / 2, n / 2))
    igraph::V(g)$name <- sprintf("v%03d", seq_len(n))
    igraph::E(g)$weight <- round(stats::runif(igraph::ecount(g), 0.1, 5), 3)
    g
}

test_that("item 6: the communities' modularity uses the graph's weights", {
    skip_if_not_installed("igraph")
    g <- weighted_sbm()
    set.seed(1)
    cm <- ExoLabel(g)$results
    expect_s3_class(cm, "communities")
    m <- igraph::membership(cm)
    w <- igraph::E(g)$weight
    weighted <- igraph::modularity(g, m, weights = w)
    unweighted <- igraph::modularity(g, m, weights = rep(1, length(w)))
    expect_false(isTRUE(all.equal(weighted, unweighted)))  # the graph tells them apart
    expect_equal(igraph::modularity(cm), weighted, tolerance = 1e-12)
    # ignore_weights: the modularity of the unweighted graph
    set.seed(1)
    cm1 <- ExoLabel(g, ignore_weights = TRUE)$results
    expect_equal(igraph::modularity(cm1),
                 igraph::modularity(g, igraph::membership(cm1),
                                    weights = rep(1, igraph::ecount(g))),
                 tolerance = 1e-12)
})

test_that("item 7: undirected matrices: both triangles are read, asymmetry warned", {
    skip_if_not_installed("igraph")
    skip_if_not_installed("Matrix")
    g <- weighted_sbm(3, 80)
    A <- igraph::as_adjacency_matrix(g, attr = "weight", sparse = TRUE)
    A <- methods::as(methods::as(A, "CsparseMatrix"), "generalMatrix")
    lower <- Matrix::tril(A)
    lower <- methods::as(lower, "generalMatrix")
    set.seed(5)
    from_full <- ExoLabel(A, return_table = TRUE)
    set.seed(5)
    expect_silent(from_lower <- ExoLabel(lower, return_table = TRUE))
    expect_equal(from_lower$graph_stats, from_full$graph_stats)
    expect_equal(unname(from_lower$graph_stats["num_edges"]), 2 * igraph::ecount(g))
    expect_equal(from_lower$results, from_full$results)
    # an asymmetric matrix: the larger value of the two triangles, with a
    # warning; the same graph as igraph's max-symmetrised one
    B <- A
    B[1, 2] <- 9
    B[2, 1] <- 0.5
    B[3, 70] <- 7   # only in the upper triangle
    ref <- igraph::graph_from_adjacency_matrix(pmax(as.matrix(B), t(as.matrix(B))),
                                              mode = "undirected", weighted = TRUE)
    expect_warning(res <- ExoLabel(B, return_table = TRUE), "1 pair\\(s\\) with different")
    expect_equal(unname(res$graph_stats["num_edges"]), 2 * igraph::ecount(ref))
    # a negative entry in one triangle is a negative edge: dropped with a count
    N <- lower
    N[80, 1] <- -2
    expect_warning(ExoLabel(N), "1 edge\\(s\\) with a negative weight")
    # the stored weights are igraph's: the weighted degree of each node is the
    # same, seen through a Leiden CPM quality at resolution 0 (the total weight)
    set.seed(1)
    q <- suppressWarnings(ExoLabel(B, algorithm = "leiden", objective = "CPM",
                                   resolution = 0, return_table = TRUE))
    # one cluster per component at resolution 0: quality = sum of weights
    expect_equal(q$parameters[["quality"]], sum(igraph::E(ref)$weight), tolerance = 1e-5)
})

test_that("item 9: CPM without Leiden, refine with Leiden, negative weights", {
    edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    expect_error(ExoLabel(edges, objective = "CPM"), "objective = \"CPM\" needs algorithm")
    expect_error(ExoLabel(edges, algorithm = "leiden", refine = TRUE),
                 "'refine' is for label propagation")
    d <- fresh_dir()
    f <- file.path(d, "neg.tsv")
    writeLines(c("a\tb\t2", "b\tc\t-1", "c\td\t-3", "d\te\t1", "e\tf\t0"), f)
    expect_warning(res <- ExoLabel(f, return_table = TRUE),
                   "2 edge\\(s\\) with a negative weight were dropped")
    expect_equal(attr(res, "stats")$negative_edges, 2)
    expect_equal(nrow(res$results), 6)
    # e-values of 1 and above under neglog10 are no edge, without a warning
    df <- data.frame(a = c("a", "b"), b = c("b", "c"), e = c(1e-20, 5))
    expect_silent(ExoLabel(df, weight_transform = "neglog10", return_table = TRUE))
    unlink(d, recursive = TRUE)
})

test_that("item 10: edges are printed as counted, qualities with their digits", {
    d <- fresh_dir()
    f <- file.path(d, "e.tsv")
    # 4 distinct edges, one of them a self-loop: 7 stored arcs
    writeLines(c("a\tb\t1", "b\tc\t1", "c\ta\t1", "c\tc\t1"), f)
    res <- ExoLabel(f, return_table = TRUE)
    expect_equal(unname(res$graph_stats["num_edges"]), 7)   # SynExtend's arcs
    out <- capture.output(print(res))
    expect_match(out[2], "3 nodes, 4 edges", fixed = TRUE)
    expect_equal(summary(res)$num_edges, 4)
    dir <- ExoLabel(f, mode = "directed", return_table = TRUE)
    expect_match(capture.output(print(dir))[2], "3 nodes, 4 arcs", fixed = TRUE)
    # a large CPM quality keeps its integer digits
    expect_equal(ExoLabel:::format_values(c(resolution = 0.01, quality = 612345.6)),
                 c("0.01", "612,346"))
    expect_equal(ExoLabel:::format_values(c(quality = 0.511234)), "0.5112")
    edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    set.seed(1)
    cpm <- ExoLabel(edges, algorithm = "leiden", objective = "CPM", resolution = 0.01,
                    return_table = TRUE)
    line <- grep("parameters", capture.output(print(cpm)), value = TRUE)
    expect_false(grepl("e\\+", line))
    expect_match(line, format(round(cpm$parameters[["quality"]]), big.mark = ","),
                 fixed = TRUE)
    unlink(d, recursive = TRUE)
})

test_that("item 11: every shape has the same accessors", {
    skip_if_not_installed("igraph")
    g <- weighted_sbm(4, 60)
    el <- igraph::as_data_frame(g)
    d <- fresh_dir()
    f <- write_edges(el, file.path(d, "g.tsv"))
    set.seed(9)
    as_path <- ExoLabel(f)
    expect_type(as_path$results, "character")           # SynExtend's shape
    expect_match(as_path$results, "\\.tsv$")
    expect_true(any(grepl("in tempdir(), deleted when R exits", capture.output(print(as_path)),
                          fixed = TRUE)))
    kept <- ExoLabel(f, outfile = file.path(d, "kept.tsv"))
    expect_false(any(grepl("deleted when R exits", capture.output(print(kept)))))
    set.seed(9)
    as_table <- ExoLabel(f, return_table = TRUE)
    expect_s3_class(as_table$results, "data.frame")
    set.seed(9)
    as_comm <- ExoLabel(g)
    expect_s3_class(as_comm$results, "communities")
    # the table from the file equals the returned table, read independently
    ref <- utils::read.delim(as_path$results, header = FALSE, quote = "",
                             col.names = c("Vertex", "Cluster"), colClasses = c("character", "integer"))
    expect_equal(as.data.frame(as_path), ref)
    expect_equal(as.data.frame(as_table), as_table$results)
    # membership and sizes: igraph's own on the communities object
    mem <- igraph::membership(as_comm$results)
    expect_equal(ClusterMembership(as_comm), stats::setNames(as.integer(mem), names(mem)))
    expect_equal(as.vector(ClusterSizes(as_comm)), as.vector(igraph::sizes(as_comm$results)))
    expect_equal(ClusterMembership(as_path)[ref$Vertex],
                 stats::setNames(ref$Cluster, ref$Vertex))
    expect_equal(as.vector(ClusterSizes(as_table)), as.vector(table(as_table$results$Cluster)))
    # the same on the $results shapes themselves
    expect_equal(ClusterMembership(as_table$results), ClusterMembership(as_table))
    expect_equal(ClusterMembership(as_path$results), ClusterMembership(as_path))
    # igraph's functions are not masked
    expect_false(any(c("membership", "sizes") %in% getNamespaceExports("ExoLabel")))
    # plot: one drawing per result
    grDevices::pdf(NULL)
    expect_invisible(plot(as_path))
    expect_invisible(plot(as_comm))
    grDevices::dev.off()
    unlink(d, recursive = TRUE)
})

test_that("item 11: several clusterings come back visible, printed and named", {
    edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    set.seed(3)
    vis <- withVisible(ExoLabel(edges, resolution = c(0, 0.5), return_table = TRUE))
    expect_true(vis$visible)
    res <- vis$value
    expect_s3_class(res, "ExoLabelResults")
    expect_named(res, c("resolution=0", "resolution=0.5"))
    expect_s3_class(res[[1]], "ExoLabelResult")            # SynExtend's list of lists
    expect_s3_class(res[[2]]$results, "data.frame")
    out <- capture.output(print(res))
    expect_match(out[1], "2 clusterings")
    expect_true(any(grepl("^resolution=0.5", out)))
    long <- as.data.frame(res)
    expect_equal(nrow(long), 2 * nrow(res[[1]]$results))
    expect_equal(unique(long$clustering), names(res))
    expect_length(ClusterMembership(res), 2)
    set.seed(3)
    att <- ExoLabel(edges, attenuation = c(0, 1), resolution = c(0, 1))
    expect_named(att, c("attenuation=0, resolution=0", "attenuation=1, resolution=1"))
    grDevices::pdf(NULL)
    expect_invisible(plot(res))
    grDevices::dev.off()
})

test_that("item 12: ClusterNMI/ARI take any two-column table, a path or a result", {
    edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    truth_file <- system.file("extdata", "example_truth.tsv", package = "ExoLabel")
    truth <- utils::read.delim(truth_file, header = FALSE, col.names = c("Vertex", "family"))
    set.seed(1)
    res <- ExoLabel(edges, return_table = TRUE)
    m <- merge(res$results, truth)
    ref <- ClusterNMI(m$Cluster, m$family)                   # by position
    expect_equal(ClusterNMI(res$results, truth), ref)        # the vignette's table
    expect_equal(ClusterNMI(res, truth_file), ref)           # a result and a path
    expect_equal(ClusterARI(res, truth), ClusterARI(m$Cluster, m$family))
    if (requireNamespace("igraph", quietly = TRUE))
        expect_equal(ClusterNMI(res, truth),
                     igraph::compare(m$Cluster, as.integer(factor(m$family)), "nmi"))
    # unmatched nodes
    part <- truth[-(1:10), ]
    expect_error(ClusterNMI(res, part), "10 of x not in y.*unmatched")
    keep <- m[!(m$Vertex %in% truth$Vertex[1:10]), ]
    expect_equal(ClusterNMI(res, part, unmatched = "drop"),
                 ClusterNMI(keep$Cluster, keep$family))
    single <- m$family
    single[m$Vertex %in% truth$Vertex[1:10]] <- paste0("alone", 1:10)
    expect_equal(ClusterARI(res, part, unmatched = "singletons"),
                 ClusterARI(m$Cluster, single))
    expect_error(ClusterNMI(res, truth, unmatched = "nope"), "'unmatched' must be one of")
})

test_that("item 13: algorithm and objective name the argument, any case", {
    edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    expect_error(ExoLabel(edges, algorithm = "leidn"),
                 "'algorithm' must be one of \"lp\", \"leiden\"")
    expect_error(ExoLabel(edges, algorithm = "leiden", objective = "cmp"),
                 "'objective' must be one of \"modularity\", \"cpm\"")
    set.seed(1)
    a <- ExoLabel(edges, algorithm = "Leiden", objective = "cpm", resolution = 0.1,
                  return_table = TRUE)
    set.seed(1)
    b <- ExoLabel(edges, algorithm = "leiden", objective = "CPM", resolution = 0.1,
                  return_table = TRUE)
    expect_identical(a$results, b$results)
    expect_identical(attr(a$parameters, "objective"), "CPM")
})

test_that("items 9 and 16: the CLI refuses CPM without Leiden and refine with Leiden, warns on negative weights, prints units", {
    skip_on_os("windows")
    d <- fresh_dir()
    f <- file.path(d, "e.tsv")
    writeLines(c("a\tb\t2", "b\tc\t-1", "c\td\t1"), f)
    r <- run_cli(c("--objective", "cpm", f))
    expect_equal(r$status, 2)
    expect_true(any(grepl("--objective cpm needs --algorithm leiden", r$err, fixed = TRUE)))
    r <- run_cli(c("--algorithm", "LEIDEN", "--refine", "3", f))
    expect_equal(r$status, 2)
    expect_true(any(grepl("--refine is for label propagation", r$err, fixed = TRUE)))
    r <- run_cli(c("--seed", "1", f))
    expect_equal(r$status, 0)
    expect_true(any(grepl("1 edge(s) with a negative weight were dropped", r$err, fixed = TRUE)))
    r <- run_cli(c("-v", "--seed", "1", "--algorithm", "leiden", f))
    expect_equal(r$status, 0)
    reading <- grep("reading edges:", r$err, value = TRUE)
    expect_match(reading[1], "reading edges: [0-9.]+ (B|KiB|MiB)")
    expect_true(any(grepl("building CSR: [0-9]+ arcs", r$err)))
    # -v: one line per Leiden level; the counts of its steps need -vv
    expect_true(any(grepl("exolabel: leiden level 0: [0-9]+ nodes", r$err)))
    expect_false(any(grepl("exolabel: clustering:", r$err)))
    r <- run_cli(c("-vv", "--seed", "1", "--algorithm", "leiden", f))
    expect_equal(r$status, 0)
    expect_true(any(grepl("exolabel: leiden: aggregating a level: [0-9]+ arcs", r$err)))
    unlink(d, recursive = TRUE)
})

test_that("item 16: R's progress names Leiden's stages as Leiden's", {
    edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    old <- options(ExoLabel.progress_bars = FALSE, ExoLabel.debug = FALSE)
    on.exit(options(old))
    msgs <- character()
    set.seed(1)
    withCallingHandlers(ExoLabel(edges, algorithm = "leiden", verbose = TRUE),
                        message = function(m) {
                            msgs <<- c(msgs, conditionMessage(m))
                            invokeRestart("muffleMessage")
                        })
    expect_true(any(grepl("leiden level 0: [0-9]+ nodes", msgs)))
    expect_false(any(grepl("label propagation", msgs)))
    # the graph of the input is written once: later sorts are Leiden's levels
    expect_lte(sum(grepl("writing the graph", msgs)), 2)
    # the counts of Leiden's steps, under their names, at the debug level
    expect_false(any(grepl("Leiden: aggregating a level", msgs)))
    options(ExoLabel.debug = TRUE)
    msgs <- character()
    set.seed(1)
    withCallingHandlers(ExoLabel(edges, algorithm = "leiden", verbose = TRUE),
                        message = function(m) {
                            msgs <<- c(msgs, conditionMessage(m))
                            invokeRestart("muffleMessage")
                        })
    options(ExoLabel.debug = FALSE)
    expect_true(any(grepl("Leiden: aggregating a level", msgs)))
    expect_false(any(grepl("label propagation", msgs)))
    msgs <- character()
    withCallingHandlers(ExoLabel(edges, verbose = TRUE),
                        message = function(m) {
                            msgs <<- c(msgs, conditionMessage(m))
                            invokeRestart("muffleMessage")
                        })
    expect_true(any(grepl("label propagation", msgs)))
})
