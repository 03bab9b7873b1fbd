# algorithm = "leiden": modularity against igraph's Leiden, connected
# communities, the CPM resolution sweep, parameters and errors.

# A planted partition graph: k blocks of s nodes, mean degree d, a share mu
# of each node's edges leaving its block; weights 1 or uniform in (0.5, 1.5).
planted_graph <- function(k, s, d, mu, weighted = FALSE) {
    n <- k * s
    pm <- matrix(d * mu / (n - s), k, k)
    diag(pm) <- d * (1 - mu) / (s - 1)
    g <- igraph::sample_sbm(n, pm, rep(s, k))
    igraph::V(g)$name <- paste0("v", seq_len(n))
    igraph::E(g)$weight <- if (weighted) stats::runif(igraph::ecount(g), 0.5, 1.5) else 1
    g
}

leiden_membership <- function(g, ...) {
    res <- ExoLabel(g, algorithm = "leiden", return_table = TRUE, verbose = FALSE, ...)
    m <- as.integer(igraph::membership(res$results))
    attr(m, "result") <- res
    m
}

communities_connected <- function(g, memb) {
    all(vapply(unique(memb), function(c) {
        igraph::components(igraph::induced_subgraph(g, which(memb == c)))$no == 1L
    }, logical(1)))
}

test_that("Leiden's modularity is at least igraph's Leiden's - 0.005, communities connected", {
    skip_if_not_installed("igraph")
    set.seed(3)
    for (mu in c(0.2, 0.4, 0.6)) for (weighted in c(FALSE, TRUE)) {
        g <- planted_graph(15, 40, 12, mu, weighted)
        ours <- leiden_membership(g)
        # igraph::modularity() ignores the weight attribute unless told
        w <- igraph::E(g)$weight
        q_ours <- igraph::modularity(g, ours, weights = w)
        q_ig <- igraph::modularity(g, igraph::membership(igraph::cluster_leiden(
            g, objective_function = "modularity", weights = w)), weights = w)
        expect_gte(q_ours, q_ig - 0.005)
        # the reported quality is the modularity igraph computes
        res <- attr(ours, "result")
        expect_equal(res$parameters[["quality"]], q_ours, tolerance = 1e-6)
        expect_true(communities_connected(g, ours))
    }
})

test_that("the reported modularity matches igraph's with self-loops and parallel edges", {
    skip_if_not_installed("igraph")
    df <- data.frame(a = c("a", "b", "a", "c", "d", "e", "d", "c", "a", "f", "f"),
                     b = c("b", "c", "c", "d", "e", "f", "f", "a", "a", "e", "e"),
                     w = c(1, 2, 1, 0.5, 1, 1, 3, 1, 2, 1, 0.5))
    res <- ExoLabel(df, algorithm = "leiden", return_table = TRUE, verbose = FALSE)
    g <- igraph::graph_from_data_frame(df, directed = FALSE)
    memb <- res$results$Cluster[match(igraph::V(g)$name, res$results$Vertex)]
    expect_equal(res$parameters[["quality"]],
                 igraph::modularity(g, memb, weights = df$w), tolerance = 1e-6)
    expect_true(communities_connected(g, memb))
})

test_that("CPM: larger resolutions give more, smaller clusters", {
    skip_if_not_installed("igraph")
    set.seed(5)
    g <- planted_graph(10, 30, 10, 0.3)
    res <- c(0.002, 0.01, 0.03, 0.1, 0.2, 0.5, 1.2)
    runs <- ExoLabel(g, algorithm = "leiden", objective = "CPM", resolution = res,
                     return_table = TRUE, verbose = FALSE)
    k <- unname(vapply(runs, function(r) length(unique(igraph::membership(r$results))), 1))
    expect_equal(unname(vapply(runs, function(r) r$parameters[["resolution"]], 1)), res)
    expect_named(runs, paste0("resolution=", res))
    expect_true(all(diff(k) >= 0)) # monotone on this graph (not a theorem)
    expect_lte(k[1], 3)
    expect_equal(k[length(k)], igraph::vcount(g)) # above 1 every node is alone
    expect_true(any(k == 10)) # the planted blocks in between
    for (r in runs)
        expect_true(communities_connected(g, as.integer(igraph::membership(r$results))))
})

test_that("Leiden results are seeded and do not depend on memory_limit or threads", {
    skip_if_not_installed("igraph")
    set.seed(9)
    g <- planted_graph(8, 30, 10, 0.4, TRUE)
    set.seed(1)
    a <- leiden_membership(g, memory_limit = "1MB", threads = 1)
    set.seed(1)
    b <- leiden_membership(g, memory_limit = "512MB", threads = 1)
    set.seed(1)
    c2 <- leiden_membership(g, memory_limit = "1MB", threads = 2)
    set.seed(1)
    d3 <- leiden_membership(g, memory_limit = "512MB", threads = 3)
    expect_identical(as.integer(a), as.integer(b))
    expect_identical(as.integer(a), as.integer(c2))
    expect_identical(as.integer(a), as.integer(d3))
    expect_identical(attr(a, "result")$parameters, attr(d3, "result")$parameters)
    expect_identical(attr(a, "result")$parameters, attr(b, "result")$parameters)
    expect_identical(attr(a, "result")$parameters, attr(c2, "result")$parameters)
})

test_that("Leiden's lanes (graphs of 32768 nodes or more): same result for any threads, modularity as igraph's", {
    skip_if_not_installed("igraph")
    set.seed(12)
    g <- planted_graph(500, 100, 10, 0.4, TRUE) # 50000 nodes: 3 lanes at the first level
    set.seed(1)
    a <- leiden_membership(g, threads = 1)
    set.seed(1)
    b <- leiden_membership(g, threads = 2, memory_limit = "4MB")
    expect_identical(as.integer(a), as.integer(b))
    expect_identical(attr(a, "result")$parameters, attr(b, "result")$parameters)
    w <- igraph::E(g)$weight
    q_exo <- igraph::modularity(g, a, weights = w)
    set.seed(1)
    ig <- igraph::cluster_leiden(g, objective_function = "modularity", weights = w,
                                 n_iterations = 2)
    q_ig <- igraph::modularity(g, igraph::membership(ig), weights = w)
    expect_gte(q_exo, q_ig - 0.005)
    expect_equal(attr(a, "result")$parameters[["quality"]], q_exo, tolerance = 1e-6)
    expect_true(communities_connected(g, a))
})

test_that("a round that lowers the quality is dropped: a higher iteration cap never scores lower", {
    skip_if_not_installed("igraph")
    # 33000 nodes (lanes at level 0); with seed 1 the 9th round lowers
    # modularity (moves made in lanes at the same time), 0.3779291 ->
    # 0.3779200, and the run stops there
    set.seed(1)
    g <- planted_graph(330, 100, 8, 0.7, TRUE)
    run <- function(cap, verbose = FALSE) {
        set.seed(1)
        ExoLabel(g, algorithm = "leiden", iterations = cap, return_table = TRUE,
                 verbose = verbose)
    }
    a <- run(8)
    msgs <- capture_messages(b <- run(9, verbose = TRUE))
    expect_true(any(grepl("iteration 9 lowered the quality; keeping iteration 8's communities",
                          msgs, fixed = TRUE)))
    c100 <- run(100)
    expect_identical(b$results, a$results)
    expect_identical(c100$results, a$results)
    expect_identical(b$parameters[["quality"]], a$parameters[["quality"]])
    w <- igraph::E(g)$weight
    m <- as.integer(igraph::membership(c100$results))
    expect_equal(igraph::modularity(g, m, weights = w), a$parameters[["quality"]],
                 tolerance = 1e-6)
})

test_that("a directed graph is clustered as the undirected graph of its edges", {
    skip_if_not_installed("igraph")
    set.seed(4)
    g <- planted_graph(6, 25, 8, 0.3, TRUE)
    df <- igraph::as_data_frame(g)
    set.seed(2)
    d <- ExoLabel(df, mode = "directed", algorithm = "leiden", return_table = TRUE,
                  verbose = FALSE)
    set.seed(2)
    u <- ExoLabel(df, algorithm = "leiden", return_table = TRUE, verbose = FALSE)
    expect_identical(d$results, u$results)
    expect_equal(d$parameters, u$parameters)
})

test_that("Leiden's parameters, the CLI and argument errors", {
    f <- write_edges(clique_ring(4, 6))
    res <- ExoLabel(f, algorithm = "leiden", return_table = TRUE, verbose = FALSE)
    expect_equal(attr(res$parameters, "algorithm"), "leiden")
    expect_equal(attr(res$parameters, "objective"), "modularity")
    expect_equal(res$parameters[["resolution"]], 1)
    expect_equal(length(unique(res$results$Cluster)), 4)
    expect_gt(attr(res, "stats")$levels, 1)
    expect_output(print(res), "parameters: leiden \\(modularity\\), resolution = 1")
    # one resolution serves both methods: label propagation's penalty too
    lp <- ExoLabel(f, resolution = 2, return_table = TRUE, verbose = FALSE)
    expect_equal(lp$parameters[["resolution"]], 2)
    expect_null(attr(lp$parameters, "algorithm"))
    expect_error(ExoLabel(f, algorithm = "leiden", resolution = -1), "resolution")
    expect_error(ExoLabel(f, algorithm = "leiden", resolution = NA), "resolution")
    expect_error(ExoLabel(f, algorithm = "louvain"), "'algorithm' must be one of")
    cli <- Sys.getenv("EXOLABEL_CLI")
    skip_if(cli == "" || !file.exists(cli), "the CLI is not built")
    out <- system2(cli, c("--algorithm", "leiden", "--seed", "1", f), stdout = TRUE)
    tab <- read.delim(text = out, header = FALSE)
    expect_equal(length(unique(tab$V2)), 4)
    expect_equal(system2(cli, c("--algorithm", "leiden", "--objective", "nope", f),
                         stdout = FALSE, stderr = FALSE), 2)
})
