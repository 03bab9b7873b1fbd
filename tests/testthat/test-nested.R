# Nested levels (issue 57): ExoLabel(nested = TRUE) with several resolutions
# gives one result whose levels nest (brute force: every cluster of a finer
# level lies inside one cluster of each coarser level), in the order of
# `resolution`; the same bytes for threads 1 and 2 and memory 1 MB and 1 GB;
# the refusals; the CLI's --nested with a comma list.

# Groups of 10 nodes inside groups of 50: two planted levels.
nested_graph <- function(n = 1000, seed = 3) {
    set.seed(seed)
    a <- rep(seq_len(n) - 1L, each = 10)
    r <- stats::runif(length(a))
    b <- ifelse(r < 0.55, a %/% 10 * 10 + sample.int(10, length(a), TRUE) - 1L,
                ifelse(r < 0.9, a %/% 50 * 50 + sample.int(50, length(a), TRUE) - 1L,
                       sample.int(n, length(a), TRUE) - 1L))
    keep <- a != b
    data.frame(a = paste0("n", a[keep]), b = paste0("n", b[keep]), w = 1)
}

nests <- function(fine, coarse)
    all(tapply(coarse, fine, function(z) length(unique(z))) == 1L)

test_that("nested levels nest, in the order of resolution, the same for any threads and memory", {
    f <- write_edges(nested_graph())
    res <- c(0.3, 0.6, 0.05) # middle, finest, coarsest
    first <- NULL
    for (cfg in list(list(1, "1MB"), list(2, "1MB"), list(1, "1GB"), list(2, "1GB"))) {
        out <- tempfile(fileext = ".tsv")
        set.seed(7)
        r <- ExoLabel(f, outfile = out, algorithm = "leiden", objective = "CPM",
                      resolution = res, nested = TRUE, threads = cfg[[1]],
                      memory_limit = cfg[[2]], verbose = FALSE)
        expect_s3_class(r, "ExoLabelResult") # one result, not a list
        bytes <- readBin(out, "raw", file.size(out))
        if (is.null(first)) first <- bytes else expect_identical(bytes, first)
    }
    # header-less, a column per level
    lines <- readLines(out)
    expect_length(lines, 1000)
    expect_true(all(lengths(strsplit(lines, "\t")) == 4L))
    tab <- as.data.frame(r)
    expect_named(tab, c("Vertex", "Cluster1", "Cluster2", "Cluster3"))
    expect_true(nests(tab$Cluster2, tab$Cluster1))
    expect_true(nests(tab$Cluster1, tab$Cluster3))
    expect_true(nests(tab$Cluster2, tab$Cluster3))
    k <- vapply(tab[-1], function(x) length(unique(x)), integer(1))
    expect_true(k[[2]] > k[[1]] && k[[1]] > k[[3]])
    expect_equal(unname(k), attr(r, "stats")$num_clusters)
    # each column numbered 1..K in order of first appearance
    for (x in tab[-1]) expect_identical(x, match(x, unique(x)))
    # the parameters: each level's resolution and quality
    p <- r$parameters
    expect_named(p, c("resolution1", "quality1", "resolution2", "quality2", "resolution3",
                      "quality3"))
    expect_equal(unname(p[c(1, 3, 5)]), res)
    expect_true(isTRUE(attr(p, "nested")))
    # the coarsest level is the run at its resolution on its own (with the
    # seed R drew for it: the third of three); a finer level is its own run
    # cut by the levels above it
    set.seed(7)
    invisible(stats::runif(2))
    one <- ExoLabel(f, algorithm = "leiden", objective = "CPM", resolution = 0.05,
                    return_table = TRUE, verbose = FALSE)
    expect_identical(one$results$Cluster, tab$Cluster3)
    set.seed(7)
    invisible(stats::runif(1))
    fine <- ExoLabel(f, algorithm = "leiden", objective = "CPM", resolution = 0.6,
                     return_table = TRUE, verbose = FALSE)$results$Cluster
    mid <- tab$Cluster1 # 0.3, itself cut by 0.05
    expect_identical(tab$Cluster2, match(paste(fine, mid), unique(paste(fine, mid))))
    # ClusterMembership and ClusterSizes: one per level
    m <- ClusterMembership(r)
    expect_length(m, 3)
    expect_identical(unname(m[[3]]), tab$Cluster3)
    expect_length(ClusterSizes(r)[[1]], k[[1]])
    unlink(c(f, out))
})

test_that("nested levels as a table, with a cluster table per level", {
    f <- write_edges(nested_graph())
    r <- ExoLabel(f, algorithm = "leiden", objective = "CPM", resolution = c(0.6, 0.05),
                  nested = TRUE, return_table = TRUE, cluster_table = TRUE, verbose = FALSE)
    expect_named(r$results, c("Vertex", "Cluster1", "Cluster2"))
    expect_true(nests(r$results$Cluster1, r$results$Cluster2))
    expect_length(r$cluster_table, 2)
    for (j in seq_len(2)) {
        ct <- r$cluster_table[[j]]
        expect_named(ct, c("Cluster", "Size", "InternalWeight", "ExternalWeight", "Density",
                           "Representative"))
        expect_equal(nrow(ct), length(unique(r$results[[j + 1]])))
        expect_equal(sum(ct$Size), 1000)
    }
    expect_output(print(r), "nested levels")
    unlink(f)
})

test_that("nested levels are refused where they do not apply", {
    f <- write_edges(nested_graph(200))
    expect_error(ExoLabel(f, resolution = c(1, 0.5), nested = TRUE, verbose = FALSE),
                 "nested levels are Leiden's: they need algorithm = \"leiden\"", fixed = TRUE)
    expect_error(ExoLabel(f, algorithm = "components", resolution = c(1, 0.5), nested = TRUE,
                          verbose = FALSE), "nested levels are Leiden's", fixed = TRUE)
    expect_error(ExoLabel(f, algorithm = "leiden", resolution = 1, nested = TRUE,
                          verbose = FALSE), "two resolutions or more", fixed = TRUE)
    expect_error(ExoLabel(f, algorithm = "leiden", nested = TRUE, verbose = FALSE),
                 "two resolutions or more", fixed = TRUE)
    expect_error(ExoLabel(f, algorithm = "leiden", resolution = c(1, 0.5), iterations = c(2, 3),
                          nested = TRUE, verbose = FALSE),
                 "only 'resolution' takes one value per level", fixed = TRUE)
    expect_error(ExoLabel(f, algorithm = "leiden", resolution = c(1, 0.5), nested = TRUE,
                          order = "name", verbose = FALSE), "order = \"name\"", fixed = TRUE)
    expect_error(ExoLabel(f, algorithm = "leiden", resolution = c(1, 0.5), nested = NA),
                 "'nested' must be TRUE or FALSE", fixed = TRUE)
    unlink(f)
})

test_that("the CLI's --nested takes a comma list and writes what R writes", {
    cli <- cli_path()
    f <- write_edges(nested_graph())
    out <- tempfile(fileext = ".tsv")
    tab <- tempfile(fileext = ".tsv")
    r <- ExoLabel(f, outfile = out, algorithm = "leiden", objective = "CPM",
                  resolution = c(0.3, 0.6, 0.05), nested = TRUE, verbose = FALSE)
    # R draws a seed per level: the CLI's one seed gives the same levels only
    # when the levels agree for any seed, so compare the nesting and shape
    cl <- run_cli(c("--algorithm", "leiden", "--objective", "cpm", "--nested",
                    "--resolution", "0.3,0.6,0.05", "--cluster-table", tab, f))
    expect_equal(cl$status, 0L)
    lines <- strsplit(rawToChar(cl$out), "\n")[[1]]
    expect_length(lines, 1000)
    x <- do.call(rbind, strsplit(lines, "\t"))
    expect_identical(x[, 1], sub("\t.*", "", readLines(out)))
    expect_true(nests(x[, 3], x[, 2]) && nests(x[, 2], x[, 4]))
    t <- readLines(tab)
    expect_match(t[1], "^Level\tCluster\tSize\t")
    lv <- as.integer(sub("\t.*", "", t[-1]))
    expect_equal(as.vector(table(lv)), apply(x[, 2:4], 2, function(z) length(unique(z))))
    # refusals
    e <- run_cli(c("--algorithm", "leiden", "--resolution", "0.3,0.05", f))
    expect_equal(e$status, 2L)
    expect_match(e$err[1], "a comma list of resolutions is for --nested", fixed = TRUE)
    e <- run_cli(c("--nested", "--resolution", "0.3,0.05", f))
    expect_equal(e$status, 2L)
    expect_match(e$err[1], "--nested: nested levels are Leiden's: they need --algorithm leiden",
                 fixed = TRUE)
    e <- run_cli(c("--nested", "--algorithm", "leiden", "--resolution", "0.3", f))
    expect_equal(e$status, 2L)
    expect_match(e$err[1], "--nested needs two resolutions or more", fixed = TRUE)
    e <- run_cli(c("--nested", "--algorithm", "leiden", "--resolution", "0.3,-1", f))
    expect_equal(e$status, 2L)
    expect_match(e$err[1], "--resolution", fixed = TRUE)
    unlink(c(f, out, tab))
})

test_that("format = 'blast' with nested levels: Leiden CPM at each resolution given", {
    hits <- system.file("extdata", "example_diamond.m8.gz", package = "ExoLabel")
    r <- ExoLabel(hits, format = "blast", nested = TRUE, resolution = c("auto", "auto/8"),
                  return_table = TRUE, verbose = FALSE)
    expect_identical(attr(r$parameters, "algorithm"), "leiden")
    expect_identical(attr(r$parameters, "objective"), "CPM")
    g <- unname(r$parameters[c("resolution1", "resolution2")])
    expect_equal(g[2], g[1] / 8)
    expect_true(nests(r$results$Cluster1, r$results$Cluster2))
    # the coarsest level is format = "blast" at that resolution alone
    set.seed(11)
    r <- ExoLabel(hits, format = "blast", nested = TRUE, resolution = c(0.002, 2e-4),
                  return_table = TRUE, verbose = FALSE)
    set.seed(11)
    invisible(stats::runif(1))
    one <- ExoLabel(hits, format = "blast", algorithm = "leiden", objective = "CPM",
                    resolution = 2e-4, return_table = TRUE, verbose = FALSE)
    expect_identical(one$results$Cluster, r$results$Cluster2)
    # a previous clustering has one level
    expect_error(ExoLabel(hits, format = "blast", nested = TRUE, resolution = c(0.002, 2e-4),
                          initial = one),
                 "'nested' and 'initial' do not go together")
})
