# The documented meaning of each option on small hand-made graphs, and what
# the result does (not) depend on. Complements test-options.R (argument
# handling, basic effects) and test-clustering.R (recovery, memory_limit).

# These tests check label propagation's own rules, so here the merge passes
# (refine, on by default) are off unless a test asks for them.
ExoLabel <- function(..., refine = FALSE) ExoLabel::ExoLabel(..., refine = refine)

# Two disjoint cliques "A" and "B" of size s with heavy edges, as a data.frame.
two_cliques <- function(s = 5, w = 10) {
    e <- list()
    for (k in c("A", "B")) {
        nm <- sprintf("%s%d", k, seq_len(s))
        pr <- t(utils::combn(s, 2))
        e[[k]] <- data.frame(a = nm[pr[, 1]], b = nm[pr[, 2]], w = w)
    }
    do.call(rbind, e)
}

cluster_of <- function(res) as_membership(res$results)

test_that("add_self_loops: TRUE is 1, FALSE is 0, the cutoff is inclusive", {
    # x hangs off clique A by an edge of weight 0.5, y off clique B by 0.49
    df <- rbind(two_cliques(), data.frame(a = c("x", "y"), b = c("A1", "B1"), w = c(0.5, 0.49)))
    f <- write_edges(df)
    run <- function(sl) {
        set.seed(3)
        cluster_of(ExoLabel(f, add_self_loops = sl, return_table = TRUE))
    }
    expect_identical(run(TRUE), run(1))
    expect_identical(run(FALSE), run(0))
    m <- run(0.5) # 0.5 >= 0.5 qualifies, 0.49 does not
    expect_equal(unname(m["x"]), unname(m["A1"]))
    expect_false(m["y"] == m["B1"])
    expect_equal(length(unique(m)), 3)
    m <- run(0.51)
    expect_false(m["x"] == m["A1"])
    # with cutoff 1 (TRUE) the cliques' weight-10 edges still qualify
    m <- run(TRUE)
    expect_equal(length(unique(m[grep("^A", names(m))])), 1)
    expect_equal(length(unique(m)), 4)
    # above every weight: nothing qualifies, every node stays alone
    expect_equal(length(unique(run(11))), nrow(unique(data.frame(v = c(df$a, df$b)))))
})

test_that("attenuation: TRUE is 1, FALSE is 0, vectors match single runs", {
    df <- clique_ring(k = 5, s = 6)
    f <- write_edges(df)
    run <- function(a) {
        set.seed(8)
        readLines(ExoLabel(f, attenuation = a)$results)
    }
    expect_identical(run(TRUE), run(1))
    expect_identical(run(FALSE), run(0))
    # attenuation keeps random graphs from flooding into one cluster
    set.seed(5)
    n <- 2000
    a <- sample(n, 20000, TRUE)
    b <- sample(n, 20000, TRUE)
    g <- write_edges(data.frame(a = a[a != b], b = b[a != b]), weights = FALSE)
    r <- ExoLabel(g, attenuation = TRUE, return_table = TRUE)
    expect_gt(length(unique(r$results$Cluster)), 10)
    expect_lt(max(table(r$results$Cluster)), n / 2)
})

test_that("iterations: 0 is the automatic cap, 1 processes each node once", {
    # directed chain v01 -> ... -> v40: a label moves one hop per visit of
    # the node below it, so a single visit per node cannot carry v01's label
    # to the end, while an ample cap always does (plain label propagation,
    # resolution = 0, whose result this checks exactly)
    nm <- sprintf("v%02d", 1:40)
    f <- write_edges(data.frame(a = nm[-40], b = nm[-1], w = 1))
    set.seed(2)
    auto <- ExoLabel(f, mode = "directed", resolution = 0)
    cap <- auto$parameters[["iterations"]]
    expect_equal(cap, 16) # max(16, floor(sqrt(1)))
    set.seed(2)
    expect_identical(readLines(ExoLabel(f, mode = "directed", iterations = cap,
                                        resolution = 0)$results),
                     readLines(auto$results))
    for (seed in 1:5) {
        set.seed(seed)
        one <- ExoLabel(f, mode = "directed", iterations = 1, resolution = 0,
                        return_table = TRUE)
        expect_equal(one$parameters[["iterations"]], 1)
        expect_gt(length(unique(one$results$Cluster)), 1)
        set.seed(seed)
        many <- ExoLabel(f, mode = "directed", iterations = 100, resolution = 0,
                         return_table = TRUE)
        expect_equal(length(unique(many$results$Cluster)), 1)
    }
    # each node keeps its own label or takes its parent's: the clusters are
    # runs of consecutive nodes
    m <- as_membership(one$results)[nm]
    expect_equal(sum(diff(m) != 0) + 1, length(unique(m)))
    expect_identical(formals(ExoLabel::ExoLabel)$iterations, 0L)
})

test_that("several clusterings in one call: one graph build, a list, same as single calls", {
    df <- clique_ring(k = 4, s = 6, bridge_w = 0.5)
    df$w <- round(stats::runif(nrow(df), 0.3, 1), 2)
    f <- write_edges(df)
    msgs <- capture.output(type = "message", {
        set.seed(21)
        multi <- ExoLabel(f, attenuation = c(0, 1, 0), add_self_loops = c(0, 0, 0.4),
                          iterations = c(0, 0, 3), resolution = c(1, 1, 0.5),
                          return_table = TRUE, verbose = TRUE)
    })
    expect_length(grep("reading edges done", msgs), 1)
    expect_length(grep("writing the graph done", msgs), 1)
    expect_length(grep("label propagation done", msgs), 3)
    expect_type(multi, "list")
    expect_length(multi, 3)
    expect_equal(t(vapply(unname(multi), function(r) r$parameters, numeric(5))),
                 cbind(add_self_loops = c(0, 0, 0.4), attenuation = c(0, 1, 0),
                       iterations = c(16, 16, 3), refine = c(0, 0, 0),
                       resolution = c(1, 1, 0.5)))
    # clustering i uses the i-th seed drawn from R's generator, as the i-th
    # of as many single calls would
    set.seed(21)
    s1 <- ExoLabel(f, return_table = TRUE)
    s2 <- ExoLabel(f, attenuation = 1, return_table = TRUE)
    s3 <- ExoLabel(f, add_self_loops = 0.4, iterations = 3, resolution = 0.5,
                   return_table = TRUE)
    expect_identical(multi[[1]]$results, s1$results)
    expect_identical(multi[[2]]$results, s2$results)
    expect_identical(multi[[3]]$results, s3$results)
    # several outfiles alone also make several clusterings
    outs <- file.path(fresh_dir(), c("x.tsv", "y.tsv"))
    two <- ExoLabel(f, outfile = outs)
    expect_length(two, 2)
    expect_identical(vapply(two, function(r) r$results, ""),
                     stats::setNames(normalizePath(outs), c("x.tsv", "y.tsv")))
})

test_that("directed trees propagate the root's label downstream only", {
    # binary tree t1 (31 nodes, root t1_1; node i -> 2i, 2i+1), and a second
    # tree t2 whose node t2_5 also gets a light arc from t1_3
    tree <- function(p, n = 31) {
        i <- 2:n
        data.frame(a = sprintf("%s_%d", p, i %/% 2), b = sprintf("%s_%d", p, i), w = 1)
    }
    df <- rbind(tree("t1"), tree("t2"), data.frame(a = "t1_3", b = "t2_5", w = 0.2))
    f <- write_edges(df[sample(nrow(df)), ])
    for (seed in 1:3) {
        set.seed(seed)
        m <- cluster_of(ExoLabel(f, mode = "directed", iterations = 100, return_table = TRUE))
        t1 <- m[grep("^t1_", names(m))]
        t2 <- m[grep("^t2_", names(m))]
        expect_true(all(t1 == m["t1_1"]))
        expect_true(all(t2 == m["t2_1"]))
        expect_false(m["t1_1"] == m["t2_1"])
    }
    # reversed arcs: every node is a source or listens to many leaves;
    # the leaves (now sources) keep their own labels
    rev <- write_edges(data.frame(a = df$b, b = df$a, w = df$w))
    m <- cluster_of(ExoLabel(rev, mode = "directed", iterations = 100, return_table = TRUE))
    leaves <- sprintf("t1_%d", 16:31)
    expect_equal(length(unique(m[leaves])), 16)
})

test_that("ties: open seeded picks on the first visits, then a node among the best keeps its label", {
    # directed: sources a and b keep their labels. x listens to a and b with
    # equal weight: a tie, decided by the seed. z listens to a, b and itself
    # (self-loop): a three-way tie with its own label among the best. Every
    # node is processed once (nothing re-activates it). With the automatic
    # cap (16) that visit is among the first floor(3 * 16 / 4) = 12, so z
    # picks among all three labels, its own included; with iterations = 1
    # (T = 0) it keeps its own label. Plain label propagation (resolution =
    # 0): on a graph this small the volume penalty decides most ties.
    df <- data.frame(a = c("a", "b", "a", "b", "z"), b = c("x", "x", "z", "z", "z"), w = 1)
    f <- write_edges(df)
    picks <- zpicks <- character()
    for (seed in 1:40) {
        set.seed(seed)
        m <- cluster_of(ExoLabel(f, mode = "directed", resolution = 0, return_table = TRUE))
        set.seed(seed)
        again <- cluster_of(ExoLabel(f, mode = "directed", resolution = 0, return_table = TRUE))
        expect_identical(again, m)
        expect_false(m["a"] == m["b"])
        expect_true(m["x"] == m["a"] || m["x"] == m["b"])
        picks <- c(picks, if (m["x"] == m["a"]) "a" else "b")
        zpicks <- c(zpicks, if (m["z"] == m["a"]) "a" else if (m["z"] == m["b"]) "b" else "own")
        set.seed(seed)
        once <- cluster_of(ExoLabel(f, mode = "directed", iterations = 1, resolution = 0,
                                    return_table = TRUE))
        expect_false(once["z"] %in% once[c("a", "b", "x")])
        expect_true(once["x"] == once["a"] || once["x"] == once["b"])
    }
    expect_setequal(picks, c("a", "b"))
    expect_setequal(zpicks, c("a", "b", "own"))
    # undirected: x between two heavy cliques by equal light edges
    und <- write_edges(rbind(two_cliques(), data.frame(a = c("x", "x"), b = c("A1", "B1"), w = 1)))
    sides <- vapply(1:30, function(seed) {
        set.seed(seed)
        m <- cluster_of(ExoLabel(und, resolution = 0, return_table = TRUE))
        expect_equal(length(unique(m)), 2)
        if (m["x"] == m["A1"]) "A" else "B"
    }, "")
    expect_setequal(sides, c("A", "B"))
})

test_that("set.seed makes runs identical across calls and memory_limit values", {
    set.seed(1)
    df <- clique_ring(k = 8, s = 7, bridge_w = 1)
    noise <- data.frame(a = sample(df$a, 40), b = sample(df$b, 40), w = 1)
    df <- rbind(df[, 1:3], noise[noise$a != noise$b, ])
    f <- write_edges(df)
    outs <- lapply(c("1MB", "3MB", "1GB"), function(ml) {
        set.seed(99)
        ExoLabel(f, memory_limit = ml, attenuation = c(0, 1), return_table = TRUE)
    })
    for (o in outs[-1]) {
        expect_identical(o[[1]]$results, outs[[1]][[1]]$results)
        expect_identical(o[[2]]$results, outs[[1]][[2]]$results)
    }
})

test_that("the thread count changes nothing, with runs written in the background", {
    # 150k edges (about 3 MB: several 1 MiB parse blocks); 1MB of memory
    # gives dozens of runs, which two threads sort and write on a second
    # thread
    set.seed(5)
    n <- 20000
    comm <- sample(200, n, replace = TRUE)
    a <- sample(n, 150000, replace = TRUE)
    b <- ifelse(runif(150000) < 0.7,
                vapply(comm[a], function(c) sample(which(comm == c), 1), 1L),
                sample(n, 150000, replace = TRUE))
    df <- data.frame(a = paste0("protein_", a), b = paste0("protein_", b),
                     w = round(runif(150000), 3))
    f <- write_edges(df[df$a != df$b, ])
    expect_gt(file.size(f), 3 * 2^20)
    run <- function(threads, ml) {
        set.seed(7)
        ExoLabel(f, threads = threads, memory_limit = ml, return_table = TRUE)
    }
    one <- run(1, "1MB")
    expect_gt(attr(one, "stats")$sort_runs, 10)
    two <- run(2, "1MB")
    expect_gt(attr(two, "stats")$sort_runs, attr(one, "stats")$sort_runs) # smaller runs
    expect_identical(two$results, one$results)
    expect_identical(run(2, "256MB")$results, one$results)
    expect_gt(length(unique(one$results$Cluster)), 50)
})

test_that("the output file has the same bytes for 1, 2 and 4 threads", {
    # 20000 names (about 280 KB, so two and four threads format the output in
    # blocks side by side) and 60000 edges; 1MB of memory gives many runs,
    # so the final merge is split into key ranges over many sources
    set.seed(8)
    n <- 20000
    a <- sample(n, 60000, replace = TRUE)
    b <- (a + sample(1:50, 60000, replace = TRUE)) %% n + 1
    df <- data.frame(a = paste0("protein_", a), b = paste0("protein_", b),
                     w = round(runif(60000), 3))
    f <- write_edges(df)
    bytes <- function(threads) {
        out <- tempfile(fileext = ".tsv")
        on.exit(unlink(out))
        set.seed(3)
        res <- ExoLabel(f, outfile = out, threads = threads, memory_limit = "1MB")
        list(bytes = readBin(out, "raw", file.size(out)), runs = attr(res, "stats")$sort_runs)
    }
    one <- bytes(1)
    expect_gt(length(one$bytes), 2 * 2^16 * 2)
    expect_gt(one$runs, 5)
    expect_identical(bytes(2)$bytes, one$bytes)
    expect_identical(bytes(4)$bytes, one$bytes)
    # and they are the clusters return_table gives
    set.seed(3)
    tab <- ExoLabel(f, threads = 4, memory_limit = "1MB", return_table = TRUE)$results
    lines <- strsplit(rawToChar(one$bytes), "\n")[[1]]
    expect_identical(lines, paste0(tab$Vertex, "\t", tab$Cluster))
})

test_that("splitting the input across files changes nothing", {
    set.seed(12)
    df <- clique_ring(k = 6, s = 6, bridge_w = 0.8)
    extra <- data.frame(a = sample(df$a, 30), b = sample(df$b, 30), w = 0.4)
    df <- rbind(df[, 1:3], extra[extra$a != extra$b, ])
    whole <- write_edges(df)
    cuts <- sort(sample(nrow(df) - 1, 5))
    parts <- split(df, findInterval(seq_len(nrow(df)), cuts + 1))
    files <- vapply(parts, write_edges, "")
    for (seed in 1:3) {
        set.seed(seed)
        a <- ExoLabel(whole, attenuation = c(0, 1), return_table = TRUE)
        set.seed(seed)
        b <- ExoLabel(files, attenuation = c(0, 1), return_table = TRUE)
        expect_identical(b[[1]]$results, a[[1]]$results)
        expect_identical(b[[2]]$results, a[[2]]$results)
    }
})

test_that("line order and edge orientation change nothing beyond the seed on clear structure", {
    df <- clique_ring(k = 6, s = 8)
    truth <- stats::setNames(sub("_n[0-9]+$", "", c(df$a, df$b)), c(df$a, df$b))
    truth <- truth[!duplicated(names(truth))]
    set.seed(31)
    for (rep in 1:6) {
        d <- df[sample(nrow(df)), 1:3]
        flip <- stats::runif(nrow(d)) < 0.5
        d[flip, 1:2] <- d[flip, 2:1]
        f <- write_edges(d)
        for (seed in 1:2) {
            set.seed(seed)
            m <- cluster_of(ExoLabel(f, return_table = TRUE))
            expect_true(same_partition(m, truth), info = paste(rep, seed))
        }
    }
    # on an ambiguous graph the order acts like another seed: the same file
    # and seed give the same result, a reordered file a valid clustering of
    # the same nodes
    set.seed(2)
    n <- 300
    a <- sample(n, 1500, TRUE)
    b <- sample(n, 1500, TRUE)
    d <- data.frame(a = sprintf("n%d", a), b = sprintf("n%d", b), w = 1)[a != b, ]
    f1 <- write_edges(d)
    f2 <- write_edges(d[rev(seq_len(nrow(d))), ])
    set.seed(4)
    r1 <- ExoLabel(f1, return_table = TRUE)$results
    set.seed(4)
    r2 <- ExoLabel(f2, return_table = TRUE)$results
    expect_setequal(r1$Vertex, r2$Vertex)
    set.seed(4)
    expect_identical(ExoLabel(f1, return_table = TRUE)$results, r1)
})

test_that("refine merges fragments of communities, never separate cliques", {
    # cliques stay apart (their links are no denser than chance)
    df <- clique_ring(k = 6, s = 7)
    f <- write_edges(df)
    truth <- stats::setNames(sub("_n[0-9]+$", "", c(df$a, df$b)), c(df$a, df$b))
    truth <- truth[!duplicated(names(truth))]
    set.seed(1)
    r <- ExoLabel(f, refine = c(0, 5, 2), return_table = TRUE)
    expect_equal(unname(vapply(r, function(x) x$parameters[["refine"]], 1)), c(0, 5, 2))
    expect_equal(ExoLabel(f, refine = TRUE)$parameters[["refine"]], 5)
    expect_equal(ExoLabel(f, refine = FALSE)$parameters[["refine"]], 0)
    for (x in r) expect_true(same_partition(as_membership(x$results), truth))
    expect_equal(attr(r[[2]], "stats")$refine_merged, 0)
    # a noisy planted graph: label propagation leaves fragments that the
    # merge passes join; NMI goes up, the cluster count goes down
    set.seed(6)
    n <- 1200
    comm <- rep(1:30, each = 40)
    a <- sample(n, 9000, TRUE)
    inside <- stats::runif(9000) > 0.55
    b <- ifelse(inside, (comm[a] - 1) * 40 + sample(40, 9000, TRUE), sample(n, 9000, TRUE))
    keep <- a != b
    g <- write_edges(data.frame(a = a[keep], b = b[keep], w = ifelse(inside[keep], 1, 0.4)))
    tr <- data.frame(Vertex = as.character(seq_len(n)), Cluster = comm)
    gain <- vapply(1:3, function(seed) {
        set.seed(seed)
        x <- ExoLabel(g, refine = c(0, 5), return_table = TRUE)
        expect_lte(length(unique(x[[2]]$results$Cluster)), length(unique(x[[1]]$results$Cluster)))
        t2 <- tr[tr$Vertex %in% x[[1]]$results$Vertex, ]
        ClusterNMI(x[[2]]$results, t2) - ClusterNMI(x[[1]]$results, t2)
    }, 1)
    expect_gt(mean(gain), 0)
    # no flood on a random graph without communities: label propagation
    # alone may flood this small one, attenuation prevents it, and 20 merge
    # passes on top keep it that way (they only raise modularity)
    set.seed(3)
    a <- sample(1500, 15000, TRUE)
    b <- sample(1500, 15000, TRUE)
    h <- write_edges(data.frame(a = a[a != b], b = b[a != b]), weights = FALSE)
    x <- ExoLabel(h, attenuation = c(0, 1, 1), refine = c(0, 0, 20), return_table = TRUE)
    expect_lt(max(table(x[[2]]$results$Cluster)), 300)
    expect_lt(max(table(x[[3]]$results$Cluster)), 300)
    expect_gt(length(unique(x[[3]]$results$Cluster)), 5) # 15-45 across seeds
    expect_error(ExoLabel(f, refine = -1), "'refine' must be a whole number from 0 to 100")
    expect_error(ExoLabel(f, refine = 1.5), "whole number")
    expect_error(ExoLabel(f, refine = "yes"), "'refine' must be")
    expect_error(ExoLabel(f, refine = NA), "'refine' must be")
})

test_that("resolution: the default keeps a noisy graph from flooding, 0 is plain propagation", {
    # 40 planted communities of 50 nodes, 10 edge lines per node, 70% of
    # them to random nodes (mixing 0.7), unweighted: plain label propagation
    # (resolution = 0) floods it into one cluster for seeds 1-4; the default
    # keeps every cluster near a community's size (largest 59-103 nodes)
    n <- 2000
    s <- 50
    comm <- rep(seq_len(n / s), each = s)
    tr <- data.frame(Vertex = as.character(seq_len(n)), Cluster = comm)
    for (seed in 1:2) {
        set.seed(seed)
        a <- rep(seq_len(n), each = 10)
        inside <- stats::runif(length(a)) < 0.3
        b <- ifelse(inside, (comm[a] - 1) * s + sample(s, length(a), TRUE),
                    sample(n, length(a), TRUE))
        keep <- a != b
        h <- write_edges(data.frame(a = a[keep], b = b[keep]), weights = FALSE)
        x <- ExoLabel(h, resolution = c(0, 1), return_table = TRUE)
        expect_equal(unname(vapply(x, function(r) r$parameters[["resolution"]], 1)), c(0, 1))
        t2 <- tr[tr$Vertex %in% x[[1]]$results$Vertex, ]
        expect_equal(length(unique(x[[1]]$results$Cluster)), 1)
        expect_lte(max(table(x[[2]]$results$Cluster)), 3 * s)
        nmi <- ClusterNMI(x[[2]]$results, t2)
        expect_gt(nmi, 0.8)
        skip_if_not_installed("igraph")
        g <- igraph::graph_from_data_frame(data.frame(a = a[keep], b = b[keep]),
                                           directed = FALSE)
        lei <- igraph::cluster_leiden(g, objective_function = "modularity")
        tl <- comm[as.integer(igraph::V(g)$name)]
        expect_gt(nmi, igraph::compare(igraph::membership(lei), tl, "nmi") - 0.01)
    }
    expect_error(ExoLabel(h, resolution = -1), "'resolution' must be")
})

test_that("label propagation gives the same clusters with 1 and 2 threads on a planted graph", {
    # 30000 nodes (30 blocks of 1024 ids: 7 lanes that two threads sweep
    # side by side, exo_lp.h) in 300 planted communities, 80% of the arcs
    # inside; resolution 0 and 1, with and without attenuation, undirected
    # and directed
    set.seed(21)
    n <- 30000
    comm <- sample(300, n, replace = TRUE)
    members <- split(seq_len(n), comm)
    ne <- 200000
    a <- sample(n, ne, replace = TRUE)
    inside <- runif(ne) < 0.8
    b <- sample(n, ne, replace = TRUE)
    b[inside] <- vapply(members[comm[a[inside]]], function(m) m[sample.int(length(m), 1)], 1L)
    df <- data.frame(a = paste0("p", a), b = paste0("p", b), w = round(runif(ne, 0.5, 1), 3))
    f <- write_edges(df[df$a != df$b, ])
    truth <- stats::setNames(comm, paste0("p", seq_len(n)))
    for (mode in c("undirected", "directed")) for (att in c(FALSE, TRUE)) for (res in c(0, 1)) {
        run <- function(threads) {
            set.seed(5)
            ExoLabel(f, mode = mode, attenuation = att, resolution = res,
                     threads = threads, memory_limit = "2MB", return_table = TRUE)
        }
        one <- run(1)
        two <- run(2)
        expect_identical(two$results, one$results)
        if (mode == "undirected" && !att) {
            # the planted communities are found (same partition as the truth
            # for nearly every node): most nodes share their community's
            # most common cluster
            m <- as_membership(one$results)
            t <- truth[names(m)]
            major <- tapply(m, t, function(x) names(which.max(table(x))))
            expect_gt(mean(m == major[as.character(t)]), 0.9)
        }
    }
})
