# weight_transform = "selfnorm" (issue 25): bit scores over the larger self
# score of the two ends, the self hits read for it and then dropped (unless
# kept), and resolution "auto" at 2e-5 x the mean strength of the nodes with
# an edge. Expected values are computed in R (selfnorm_graph, helper-graphs.R) from the
# generated hits; bit scores are multiples of 1/4, exact in single
# precision, so that R and the core divide the same numbers and the files
# below can give the very same graph.

# Families of proteins with hits inside each family in both directions
# (different bit scores: combine max keeps the larger), a self hit for most
# proteins (the others take their best hit as self score), two proteins
# whose only hit is their self hit (they have no edge), and weak hits
# between families.
make_bits <- function(k = 4, s = 6, seed = 1) {
    set.seed(seed)
    prot <- sprintf("f%d_p%d", rep(seq_len(k), each = s), rep(seq_len(s), k))
    fam <- rep(seq_len(k), each = s)
    pairs <- expand.grid(i = seq_along(prot), j = seq_along(prot))
    pairs <- pairs[fam[pairs$i] == fam[pairs$j] & pairs$i != pairs$j, ]
    bits <- sample(seq(40, 120, by = 0.25), nrow(pairs), replace = TRUE)
    hits <- data.frame(q = prot[pairs$i], s = prot[pairs$j], bits = bits)
    selfp <- prot[-seq(3, length(prot), by = 5)] # every 5th without a self hit
    hits <- rbind(hits, data.frame(q = selfp, s = selfp,
                                   bits = sample(c(128, 256), length(selfp), TRUE)))
    hits <- rbind(hits, data.frame(q = c("lone1", "lone2"), s = c("lone1", "lone2"),
                                   bits = c(64, 512)))
    for (f in seq_len(k - 1))
        hits <- rbind(hits, data.frame(q = prot[fam == f][1], s = prot[fam == f + 1][2],
                                       bits = 20.5))
    hits[sample(nrow(hits)), ]
}

write_bits_m8 <- function(hits, path = tempfile(fileext = ".m8")) {
    n <- nrow(hits)
    writeLines(paste(hits$q, hits$s, "50.0", 100, 3, 0, 1, 100, 2, 101,
                     sprintf("%.2e", 10^-(hits$bits / 10)), format(hits$bits, nsmall = 2),
                     sep = "\t"), path)
    path
}

test_that("selfnorm weights, the self hits and resolution 'auto' are those computed in R", {
    hits <- make_bits()
    f <- write_bits_m8(hits)
    ex <- selfnorm_graph(hits)
    order_nodes <- unique(as.vector(rbind(hits$q, hits$s)))
    expect_lt(ex$linked, length(order_nodes)) # lone1, lone2 have no edge
    # the same graph as a plain edge list: nodes registered in the same
    # order (weight 0 stores nothing), then one line per edge
    reg <- matrix(c(order_nodes, if (length(order_nodes) %% 2) order_nodes[1]), nrow = 2)
    plain <- tempfile(fileext = ".tsv")
    writeLines(c(paste(reg[1, ], reg[2, ], 0, sep = "\t"),
                 paste(ex$edges$lo, ex$edges$hi, sprintf("%.17g", ex$edges$w), sep = "\t")),
               plain)
    for (seed in 1:2) {
        o1 <- tempfile()
        o2 <- tempfile()
        set.seed(seed)
        r1 <- ExoLabel(f, format = "blast", weight_transform = "selfnorm", outfile = o1)
        expect_identical(attr(r1$parameters, "algorithm"), "leiden")
        expect_identical(attr(r1$parameters, "objective"), "CPM")
        expect_identical(attr(r1$parameters, "per_strength"), 2e-5)
        gamma <- unname(r1$parameters[["resolution"]])
        expect_equal(gamma, 2e-5 * ex$two_w / ex$linked, tolerance = 1e-6)
        expect_equal(r1$graph_stats[["num_edges"]], 2 * nrow(ex$edges))
        expect_equal(r1$graph_stats[["num_vertices"]], length(order_nodes))
        # absolute CPM at that gamma on the R-normalised graph: same bytes
        set.seed(seed)
        ExoLabel(plain, algorithm = "leiden", objective = "CPM", resolution = gamma,
                 outfile = o2)
        expect_identical(readBin(o1, "raw", file.size(o1)), readBin(o2, "raw", file.size(o2)))
    }
    input <- attr(r1, "stats")$input
    expect_equal(input$columns, c(1L, 2L, 12L))
    expect_identical(c(input$weight_transform, input$self_hits, input$combine),
                     c("selfnorm", "drop", "max"))

    # self hits kept: loops of weight self hit / self, in 2W twice; the
    # proteins whose only hit is their self hit now have an edge
    exk <- selfnorm_graph(hits, keep = TRUE)
    rk <- ExoLabel(f, format = "blast", weight_transform = "selfnorm", self_hits = "keep",
                   return_table = TRUE)
    expect_equal(unname(rk$parameters[["resolution"]]), 2e-5 * exk$two_w / exk$linked,
                 tolerance = 1e-6)
    expect_equal(exk$linked, length(order_nodes))

    # the same hits from a data.frame (bit scores as the weight column)
    df <- data.frame(hits$q, hits$s, hits$bits)
    rd <- ExoLabel(df, weight_transform = "selfnorm", self_hits = "drop", combine = "max",
                   algorithm = "leiden", objective = "CPM", resolution = "auto",
                   return_table = TRUE)
    expect_equal(unname(rd$parameters[["resolution"]]), 2e-5 * ex$two_w / ex$linked,
                 tolerance = 1e-6)
})

test_that("selfnorm: min_weight applies to bit scores; e-values keep 5e-5 over all nodes", {
    hits <- make_bits(seed = 2)
    f <- write_bits_m8(hits)
    # the weak hits between families (bit score 20.5) are dropped by
    # min_weight = 21 before the self scores are taken
    ex <- selfnorm_graph(hits[hits$bits >= 21, ])
    r <- ExoLabel(f, format = "blast", weight_transform = "selfnorm", min_weight = 21,
                  return_table = TRUE)
    expect_equal(r$graph_stats[["num_edges"]], 2 * nrow(ex$edges))
    expect_equal(unname(r$parameters[["resolution"]]), 2e-5 * ex$two_w / ex$linked,
                 tolerance = 1e-6)
    # families are found
    m <- stats::setNames(r$results$Cluster, r$results$Vertex)
    fam <- sub("_.*", "", names(m))
    keep <- !grepl("^lone", names(m))
    expect_true(same_partition(m[keep], stats::setNames(fam[keep], names(m)[keep])))
    # e-value weights with "auto": 5e-5 x 2W / n, every node counted
    re <- ExoLabel(f, format = "blast", weight_transform = "neglog10", algorithm = "leiden",
                   objective = "CPM", resolution = "auto", return_table = TRUE)
    expect_identical(attr(re$parameters, "per_strength"), 5e-5)
    expect_equal(attr(re, "stats")$input$columns, c(1L, 2L, 11L))
    # errors name the argument
    expect_error(ExoLabel(f, columns = c(1, 2), weight_transform = "selfnorm"),
                 "needs a weight column")
    expect_error(ExoLabel(f, format = "blast", weight_transform = "selfish"),
                 "weight_transform")
})

test_that("selfnorm from the command-line tool: the same bytes as from R", {
    skip_on_os("windows")
    hits <- make_bits(seed = 3)
    f <- write_bits_m8(hits)
    out <- tempfile()
    set.seed(5)
    r <- ExoLabel(f, format = "blast", weight_transform = "selfnorm", outfile = out)
    seed <- format(attr(r, "stats")$seed, scientific = FALSE)
    cl <- run_cli(c("--seed", seed, "--format", "blast", "--weight-transform", "selfnorm",
                    shQuote(f)))
    expect_equal(cl$status, 0)
    expect_identical(cl$out, readBin(out, "raw", file.size(out)))
    cl <- run_cli(c("--seed", seed, "--columns", "1,2,12", "--weight-transform", "SELFN",
                    "--self-hits", "drop", "--combine", "max", "--algorithm", "leiden",
                    "--objective", "cpm", "--resolution", "auto", shQuote(f)))
    expect_identical(cl$out, readBin(out, "raw", file.size(out)))
})

test_that("resolution 'auto' of selfnorm weights is set per connected component", {
    # Two families with no hit between them: A, 100 proteins with hits of
    # bit score 80 between all of them (mean strength 79.2), and B, two
    # groups of 10 with hits of 60 inside each group and one hit of 5
    # between the groups (mean strength about 5.4). Self scores are 100.
    # At 2e-5 x B's own mean strength the bridge keeps B whole; at 2e-5 x
    # the mean over both families (about 67) it does not.
    a <- sprintf("a%03d", 1:100)
    b <- sprintf("b%02d", 1:20)
    ij <- which(upper.tri(diag(100)), arr.ind = TRUE)
    grp <- function(x) { p <- t(utils::combn(x, 2)); data.frame(q = p[, 1], s = p[, 2]) }
    hits <- rbind(data.frame(q = a[ij[, 1]], s = a[ij[, 2]], bits = 80),
                  cbind(rbind(grp(b[1:10]), grp(b[11:20])), bits = 60),
                  data.frame(q = "b01", s = "b11", bits = 5),
                  data.frame(q = c(a, b), s = c(a, b), bits = 100))
    f <- write_bits_m8(hits[sample(nrow(hits)), ])
    # bridges = "keep": the weak-hit rule would remove B's bridge (5 bits
    # against 60 at both ends; test-weak-bridge.R) before CPM sees it
    set.seed(1)
    r <- ExoLabel(f, format = "blast", bridges = "keep", return_table = TRUE)
    expect_identical(attr(r$parameters, "per_strength"), 2e-5)
    expect_identical(attr(r$parameters, "strength_of"),
                     "the nodes with an edge, in each connected component")
    m <- stats::setNames(r$results$Cluster, r$results$Vertex)
    expect_length(unique(m[b]), 1L)
    expect_length(unique(m[a]), 1L)
    # the reported resolution is 2e-5 x the mean over every node with an edge
    ex <- selfnorm_graph(hits)
    expect_equal(unname(r$parameters[["resolution"]]), 2e-5 * ex$two_w / ex$linked,
                 tolerance = 1e-6)
    # igraph's Leiden with CPM, each component's gamma given through node
    # weights (gamma_K = w_u w_v for u, v in K): the same partition
    g <- igraph::graph_from_data_frame(as.data.frame(ex$edges), directed = FALSE)
    comp <- igraph::components(g)$membership
    sk <- stats::ave(igraph::strength(g, weights = igraph::E(g)$w), comp)
    set.seed(1)
    ig <- igraph::cluster_leiden(g, objective_function = "CPM", weights = igraph::E(g)$w,
                                 resolution_parameter = 1, vertex_weights = sqrt(2e-5 * sk),
                                 n_iterations = -1)
    expect_true(same_partition(m[igraph::V(g)$name],
                               stats::setNames(igraph::membership(ig), igraph::V(g)$name)))
    # one resolution for the whole graph (absolute CPM at the reported one)
    # cuts B at its bridge
    r1 <- ExoLabel(f, format = "blast", bridges = "keep", algorithm = "leiden", objective = "CPM",
                   resolution = unname(r$parameters[["resolution"]]), return_table = TRUE)
    m1 <- stats::setNames(r1$results$Cluster, r1$results$Vertex)
    expect_length(unique(m1[b]), 2L)
})
