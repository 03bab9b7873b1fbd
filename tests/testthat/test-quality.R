# ClusterNMI() and ClusterARI(): hand-computed values, igraph::compare,
# matching by vertex name, and how planted communities are recovered.

test_that("NMI and ARI match hand-computed values", {
    truth <- c(1, 1, 1, 2, 2, 2)
    found <- c("a", "a", "b", "b", "b", "b")
    # contingency: truth 1 = (a 2, b 1), truth 2 = (a 0, b 3); n = 6
    # ARI: sum C(nij,2) = 1 + 0 + 3 = 4; rows 3 + 3 = 6; cols 1 + 6 = 7;
    # E = 6 * 7 / 15 = 2.8; M = 6.5; ARI = 1.2 / 3.7
    expect_equal(ClusterARI(truth, found), 12 / 37)
    # NMI = 2 I / (H(x) + H(y))
    i <- (2 / 6) * log(6 * 2 / (3 * 2)) + (1 / 6) * log(6 * 1 / (3 * 4)) +
        (3 / 6) * log(6 * 3 / (3 * 4))
    hx <- log(2)
    hy <- -(2 / 6 * log(2 / 6) + 4 / 6 * log(4 / 6))
    expect_equal(ClusterNMI(truth, found), 2 * i / (hx + hy))
    expect_equal(ClusterNMI(found, truth), ClusterNMI(truth, found))
    expect_equal(ClusterARI(found, truth), ClusterARI(truth, found))
    # identical partitions under renaming; independent ones
    expect_equal(ClusterNMI(c(1, 1, 2, 3), c("z", "z", "y", "x")), 1)
    expect_equal(ClusterARI(c(1, 1, 2, 3), factor(c("z", "z", "y", "x"))), 1)
    expect_equal(ClusterNMI(c(1, 1, 2, 2), c(1, 2, 1, 2)), 0)
    # ARI of two 2x2 "crossed" partitions: sum C(nij,2) = 0, E = 2*2/6, M = 2
    expect_equal(ClusterARI(c(1, 1, 2, 2), c(1, 2, 1, 2)), (0 - 2 / 3) / (2 - 2 / 3))
    # degenerate: one cluster each, all singletons each, one against the other
    expect_equal(ClusterNMI(rep(1, 5), rep(7, 5)), 1)
    expect_equal(ClusterNMI(rep(1, 5), 1:5), 0)
    expect_equal(ClusterARI(rep(1, 5), rep(7, 5)), 1)
    expect_equal(ClusterARI(1:5, 5:1), 1)
    expect_equal(ClusterARI(rep(1, 5), 1:5), 0)
    expect_equal(ClusterNMI("a", "b"), 1)
})

test_that("NMI and ARI agree with igraph::compare", {
    skip_if_not_installed("igraph")
    set.seed(10)
    for (rep in 1:20) {
        # (igraph rejects label values >= n, hence n > 40)
        n <- sample(c(50, 100, 3000), 1)
        x <- sample(sample(2:40, 1), n, TRUE)
        y <- if (rep %% 4 == 0) ifelse(stats::runif(n) < 0.8, x, sample(x)) else
            sample(sample(2:40, 1), n, TRUE)
        expect_lt(abs(ClusterNMI(x, y) - igraph::compare(x, y, "nmi")), 1e-10)
        expect_lt(abs(ClusterARI(x, y) - igraph::compare(x, y, "adjusted.rand")), 1e-10)
    }
})

test_that("data.frames are matched by Vertex, vectors by position", {
    a <- data.frame(Vertex = c("p", "q", "r", "s"), Cluster = c(1L, 1L, 2L, 2L))
    b <- data.frame(Vertex = c("s", "r", "q", "p"), Cluster = c(5L, 5L, 9L, 9L))
    expect_equal(ClusterNMI(a, b), 1)
    expect_equal(ClusterARI(a, b), 1)
    # by position the same columns disagree completely
    expect_equal(ClusterARI(a$Cluster, c(9L, 5L, 9L, 5L)), ClusterARI(c(1, 1, 2, 2), c(1, 2, 1, 2)))
    # a named vector against a data.frame
    expect_equal(ClusterNMI(a, c(s = "x", p = "y", q = "y", r = "x")), 1)
    expect_error(ClusterNMI(a, c(1, 1, 2, 2)), "named vector")
    expect_error(ClusterNMI(a, b[1:3, ]), "same vertices")
    expect_error(ClusterNMI(a, rbind(b, b[1, ])), "more than once")
    # any two-column table (issue 24 item 12): node, cluster
    expect_equal(ClusterNMI(a, data.frame(node = b$Vertex, family = b$Cluster)), 1)
    expect_error(ClusterNMI(a, data.frame(V = 1)), "two columns")
    expect_error(ClusterNMI(1:3, 1:4), "same length")
    expect_error(ClusterARI(c(1, NA), c(1, 2)), "NA")
    expect_error(ClusterARI(integer(0), integer(0)), "empty")
    expect_error(ClusterNMI(list(1, 2), c(1, 2)), "vector of cluster labels")
})

test_that("ExoLabel recovers planted communities by NMI and ARI", {
    skip_if_not_installed("igraph")
    # 20 communities of 25 nodes, mean degree ~12, 20% of edges leave
    set.seed(4)
    n <- 500
    comm <- rep(1:20, each = 25)
    a <- sample(n, 3000, TRUE)
    inside <- stats::runif(3000) > 0.2
    b <- ifelse(inside, (comm[a] - 1) * 25 + sample(25, 3000, TRUE), sample(n, 3000, TRUE))
    keep <- a != b
    df <- data.frame(a = sprintf("v%03d", a[keep]), b = sprintf("v%03d", b[keep]),
                     w = ifelse(inside[keep], 1, 0.3))
    f <- write_edges(df)
    truth <- data.frame(Vertex = sprintf("v%03d", seq_len(n)), Cluster = comm)
    res <- ExoLabel(f, return_table = TRUE)
    truth <- truth[truth$Vertex %in% res$results$Vertex, ]
    expect_gt(ClusterNMI(res$results, truth), 0.95)
    expect_gt(ClusterARI(res$results, truth), 0.9)
    g <- igraph::graph_from_data_frame(df, directed = FALSE)
    m <- res$results$Cluster[match(igraph::V(g)$name, res$results$Vertex)]
    t <- truth$Cluster[match(igraph::V(g)$name, truth$Vertex)]
    expect_equal(ClusterNMI(res$results, truth), igraph::compare(m, t, "nmi"),
                 tolerance = 1e-12)
})
