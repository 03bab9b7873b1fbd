test_that("cliques joined by single edges come out as the cliques", {
    for (seed in 1:5) {
        df <- clique_ring(k = 5, s = 8)
        f <- write_edges(df)
        set.seed(seed)
        res <- ExoLabel(f, return_table = TRUE)
        m <- as_membership(res$results)
        truth <- stats::setNames(sub("_n[0-9]+$", "", names(m)), names(m))
        expect_true(same_partition(m, truth), info = paste("seed", seed))
        expect_equal(sort(unique(res$results$Cluster)), 1:5)
        expect_equal(res$graph_stats[["num_vertices"]], 40)
        expect_equal(res$graph_stats[["num_edges"]], 2 * nrow(df))
    }
})

test_that("disconnected components never share a cluster (igraph::components)", {
    skip_if_not_installed("igraph")
    set.seed(42)
    # 30 small random components of random sizes
    e <- list()
    for (comp in 1:30) {
        n <- sample(3:25, 1)
        nm <- sprintf("comp%02d_%03d", comp, seq_len(n))
        tree <- data.frame(a = nm[-1], b = nm[sapply(2:n, function(i) sample(i - 1, 1))])
        extra <- data.frame(a = sample(nm, n, TRUE), b = sample(nm, n, TRUE))
        extra <- extra[extra$a != extra$b, ]
        x <- rbind(tree, extra)
        x$w <- round(stats::runif(nrow(x), 0.1, 1), 3)
        e[[comp]] <- x
    }
    df <- do.call(rbind, e)
    df <- df[sample(nrow(df)), ]
    f <- write_edges(df)
    res <- ExoLabel(f, return_table = TRUE)
    g <- igraph::graph_from_data_frame(df[, 1:2], directed = FALSE)
    comp <- igraph::components(g)$membership
    m <- as_membership(res$results)
    expect_setequal(names(m), names(comp))
    per_cluster <- tapply(comp[names(m)], m, function(x) length(unique(x)))
    expect_true(all(per_cluster == 1))
    expect_gte(length(unique(m)), 30)
})

test_that("the same seed gives the same clusters; output is a real file", {
    df <- clique_ring(k = 6, s = 6, bridge_w = 0.9)
    df$w <- round(stats::runif(nrow(df), 0.2, 1), 2)
    f <- write_edges(df)
    set.seed(7)
    a <- ExoLabel(f)
    set.seed(7)
    b <- ExoLabel(f)
    expect_true(file.exists(a$results))
    expect_identical(readLines(a$results), readLines(b$results))
    lines <- readLines(a$results)
    expect_length(lines, 36)
    expect_true(all(grepl("^c[0-9]+_n[0-9]+\t[0-9]+$", lines)))
})

test_that("a memory_limit forcing external merging gives the same clusters", {
    set.seed(3)
    # 60000 edges: 120000 arcs, several sorted runs at 1MB
    n <- 8000
    blocks <- rep(1:80, each = 100)
    a <- sample(n, 60000, TRUE)
    same <- stats::runif(60000) < 0.9
    b <- ifelse(same, (blocks[a] - 1) * 100 + sample(100, 60000, TRUE), sample(n, 60000, TRUE))
    df <- data.frame(a = sprintf("v%05d", a), b = sprintf("v%05d", b),
                     w = round(stats::runif(60000, 0.1, 1), 3))
    df <- df[df$a != df$b, ]
    f <- write_edges(df)
    set.seed(11)
    small <- ExoLabel(f, memory_limit = "1MB", return_table = TRUE)
    set.seed(11)
    large <- ExoLabel(f, memory_limit = "512MB", return_table = TRUE)
    expect_gt(attr(small, "stats")$sort_runs, 2)
    expect_equal(attr(large, "stats")$sort_runs, 1)
    expect_identical(small$results, large$results)
})

test_that("several files are read in order into one graph, gzip included", {
    df <- clique_ring(k = 3, s = 5)
    half <- seq_len(nrow(df)) <= nrow(df) / 2
    f1 <- write_edges(df[half, ])
    f2 <- tempfile(fileext = ".tsv.gz")
    con <- gzfile(f2, "w")
    writeLines(do.call(paste, c(unname(as.list(df[!half, 1:3])), sep = "\t")), con)
    close(con)
    set.seed(1)
    split <- ExoLabel(c(f1, f2), return_table = TRUE)
    set.seed(1)
    whole <- ExoLabel(write_edges(df), return_table = TRUE)
    expect_identical(split$results, whole$results)
    expect_equal(split$graph_stats, whole$graph_stats)
})

test_that("the bundled example recovers its planted families", {
    f <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    truth <- utils::read.delim(system.file("extdata", "example_truth.tsv", package = "ExoLabel"),
                               header = FALSE, col.names = c("Vertex", "family"))
    set.seed(1)
    res <- ExoLabel(f, return_table = TRUE)
    m <- merge(res$results, truth)
    # each family is mostly one cluster, and clusters do not mix families
    purity <- tapply(m$family, m$Cluster, function(x) max(table(x)) / length(x))
    expect_gt(stats::weighted.mean(purity, table(m$Cluster)[names(purity)]), 0.95)
    gz <- ExoLabel(paste0(f, ".gz"), return_table = TRUE)
    expect_setequal(gz$results$Vertex, res$results$Vertex)
})

test_that("the merge passes take label propagation's resolution (one quality function)", {
    # a 4-clique tied by three edges to a 30-clique: label propagation keeps
    # them apart; the merge passes join them only when the chance term
    # (gamma vol vol' / T) is off, at resolution 0, not at 1
    clique <- function(n0, k) t(utils::combn(k, 2)) + n0
    e <- rbind(clique(0, 4), clique(4, 30), cbind(c(1, 2, 3), c(5, 6, 7)))
    df <- data.frame(a = paste0("n", e[, 1]), b = paste0("n", e[, 2]), w = 1)
    k <- function(...) {
        set.seed(1)
        length(unique(ExoLabel(df, return_table = TRUE, ...)$results$Cluster))
    }
    expect_equal(k(resolution = 0, refine = FALSE), 2)
    expect_equal(k(resolution = 0), 1)
    expect_equal(k(resolution = 1), 2)
})
