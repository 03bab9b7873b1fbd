# The cluster table (cluster_table = TRUE, exo_clstats.h) against igraph and
# plain R on the same graph: size, internal weight (the induced subgraph's
# edge weights), external weight, density of the simplified induced
# subgraph, and the representative (largest strength inside the cluster,
# loops left out; ties to the member that appears first).

# The table igraph and plain R give for graph `g` (vertex names = node
# names) and the clusters `membership` (named by vertex), with `order` the
# nodes in order of first appearance (ExoLabel's ids).
igraph_table <- function(g, membership, order) {
    directed <- igraph::is_directed(g)
    w <- igraph::E(g)$weight
    ends <- igraph::ends(g, igraph::E(g), names = TRUE)
    ca <- membership[ends[, 1]]
    cb <- membership[ends[, 2]]
    k <- max(membership)
    rows <- lapply(seq_len(k), function(cl) {
        members <- names(membership)[membership == cl]
        # copy_and_delete: igraph's other implementation mixes up the edges of
        # graphs with loops in some versions (1.3.5 here; igraph/igraph#1428)
        sub <- igraph::induced_subgraph(g, members, impl = "copy_and_delete")
        n <- igraph::vcount(sub)
        simple <- igraph::simplify(sub, remove.multiple = TRUE, remove.loops = TRUE)
        strength <- igraph::strength(sub, mode = "all", loops = FALSE)
        best <- names(strength)[strength == max(strength)]
        data.frame(
            Cluster = cl, Size = n,
            InternalWeight = sum(igraph::E(sub)$weight),
            ExternalWeight = sum(w[(ca == cl) != (cb == cl)]),
            Density = if (n < 2) NA_real_ else igraph::edge_density(simple),
            Representative = best[which.min(match(best, order))],
            stringsAsFactors = FALSE)
    })
    do.call(rbind, rows)
}

expect_table_matches <- function(tab, expected) {
    expect_identical(names(tab), c("Cluster", "Size", "InternalWeight", "ExternalWeight",
                                   "Density", "Representative"))
    expect_identical(tab$Cluster, seq_len(nrow(expected)))
    expect_equal(tab$Size, expected$Size)
    expect_equal(tab$InternalWeight, expected$InternalWeight, tolerance = 1e-12)
    expect_equal(tab$ExternalWeight, expected$ExternalWeight, tolerance = 1e-12)
    expect_equal(tab$Density, expected$Density, tolerance = 1e-12)
    expect_identical(tab$Representative, expected$Representative)
}

# A weighted graph of planted groups with noise, duplicate and mirrored
# edges and self-loops; weights in eighths, so every sum is exact.
noisy_groups <- function(n = 300, groups = 12, m = 2400, seed = 1) {
    set.seed(seed)
    grp <- sample(groups, n, replace = TRUE)
    a <- sample(n, m, replace = TRUE)
    inside <- runif(m) < 0.8
    b <- ifelse(inside, vapply(a, function(x) {
        same <- which(grp == grp[x])
        same[sample.int(length(same), 1L)]
    }, integer(1)), sample(n, m, replace = TRUE))
    df <- data.frame(from = sprintf("p%03d", a), to = sprintf("p%03d", b),
                     weight = sample(1:40, m, replace = TRUE) / 8,
                     stringsAsFactors = FALSE)
    dup <- df[sample(m, 60), ]
    mirror <- df[sample(m, 60), c("to", "from", "weight")]
    names(mirror) <- names(df)
    loops <- data.frame(from = sprintf("p%03d", 1:10), to = sprintf("p%03d", 1:10),
                        weight = 3, stringsAsFactors = FALSE)
    rbind(df, dup, mirror, loops)
}

first_appearance <- function(df) unique(as.vector(t(as.matrix(df[, 1:2]))))

test_that("the cluster table matches igraph on a weighted undirected graph", {
    skip_if_not_installed("igraph")
    df <- noisy_groups()
    for (algorithm in c("lp", "leiden")) {
        set.seed(2)
        res <- ExoLabel(df, return_table = TRUE, cluster_table = TRUE, algorithm = algorithm,
                        verbose = FALSE)
        memb <- stats::setNames(res$results$Cluster, res$results$Vertex)
        expect_identical(res$results$Vertex, first_appearance(df))
        g <- igraph::graph_from_data_frame(df, directed = FALSE)
        tab <- res$cluster_table
        expect_table_matches(tab, igraph_table(g, memb, res$results$Vertex))
        expect_true(nrow(tab) > 3 && any(tab$Size > 1))
        expect_equal(nrow(tab), attr(res, "stats")$num_clusters)
        # every edge is inside one cluster or joins two: weights add up
        expect_equal(sum(tab$InternalWeight) + sum(tab$ExternalWeight) / 2, sum(df$weight))
        expect_true(attr(res, "stats")$seconds_table >= 0)
    }
})

test_that("the cluster table matches igraph on a directed graph and with refine", {
    skip_if_not_installed("igraph")
    df <- noisy_groups(n = 200, groups = 6, m = 1500, seed = 3)
    set.seed(4)
    res <- ExoLabel(df, mode = "directed", return_table = TRUE, cluster_table = TRUE,
                    verbose = FALSE)
    memb <- stats::setNames(res$results$Cluster, res$results$Vertex)
    g <- igraph::graph_from_data_frame(df, directed = TRUE)
    expect_table_matches(res$cluster_table, igraph_table(g, memb, res$results$Vertex))
    set.seed(5)
    res <- ExoLabel(df, return_table = TRUE, cluster_table = TRUE, refine = 3,
                    resolution = 0, verbose = FALSE)
    memb <- stats::setNames(res$results$Cluster, res$results$Vertex)
    g <- igraph::graph_from_data_frame(df, directed = FALSE)
    expect_table_matches(res$cluster_table, igraph_table(g, memb, res$results$Vertex))
})

test_that("search-tool input: the table uses the stored (transformed, combined) edges", {
    skip_if_not_installed("igraph")
    set.seed(6)
    n <- 80
    q <- sprintf("prot%02d", sample(n, 400, replace = TRUE))
    s <- sprintf("prot%02d", sample(n, 400, replace = TRUE))
    k <- sample(1:60, 400, replace = TRUE)
    hits <- tempfile(fileext = ".m8")
    writeLines(paste(q, s, "90.0", "100", "0", "0", "1", "100", "1", "100",
                     sprintf("1e-%02d", k), "150", sep = "\t"), hits)
    set.seed(7)
    res <- ExoLabel(hits, format = "blast", weight_transform = "neglog10",
                    return_table = TRUE, cluster_table = TRUE, verbose = FALSE)
    # the graph ExoLabel stores: weight -log10(e) (here exactly k), self hits
    # dropped, one edge per pair with the larger weight
    keep <- q != s
    agg <- stats::aggregate(k[keep], by = list(a = pmin(q, s)[keep], b = pmax(q, s)[keep]),
                            FUN = max)
    g <- igraph::graph_from_data_frame(data.frame(agg$a, agg$b, weight = agg$x),
                                       directed = FALSE,
                                       vertices = data.frame(name = res$results$Vertex))
    memb <- stats::setNames(res$results$Cluster, res$results$Vertex)
    expect_table_matches(res$cluster_table, igraph_table(g, memb, res$results$Vertex))
})

test_that("the cluster table is the same for any threads and memory_limit", {
    df <- noisy_groups(n = 400, groups = 10, m = 3000, seed = 8)
    set.seed(9)
    a <- ExoLabel(df, cluster_table = TRUE, threads = 1, memory_limit = "1MB",
                  verbose = FALSE)
    set.seed(9)
    b <- ExoLabel(df, cluster_table = TRUE, threads = 2, memory_limit = "64MB",
                  verbose = FALSE)
    expect_identical(a$cluster_table, b$cluster_table)
    expect_null(ExoLabel(df, verbose = FALSE)$cluster_table)
    expect_error(ExoLabel(df, cluster_table = NA), "'cluster_table' must be TRUE or FALSE")
    expect_error(ExoLabel(df, cluster_table = "yes"), "'cluster_table' must be TRUE or FALSE")
})

test_that("several clusterings each get their table; igraph inputs and odd names", {
    skip_if_not_installed("igraph")
    df <- noisy_groups(n = 150, groups = 5, m = 900, seed = 10)
    df$from[df$from == "p001"] <- "na\u00efve 'q' #1"
    df$to[df$to == "p001"] <- "na\u00efve 'q' #1"
    set.seed(11)
    runs <- ExoLabel(df, return_table = TRUE, cluster_table = TRUE,
                     resolution = c(0, 1, 3), verbose = FALSE)
    g <- igraph::graph_from_data_frame(df, directed = FALSE)
    for (res in runs) {
        memb <- stats::setNames(res$results$Cluster, res$results$Vertex)
        expect_table_matches(res$cluster_table, igraph_table(g, memb, res$results$Vertex))
    }
    # a graph with an isolated vertex: a singleton row with density NA
    g2 <- igraph::add_vertices(g, 1, name = "alone")
    set.seed(12)
    res <- ExoLabel(g2, cluster_table = TRUE, verbose = FALSE)
    expect_s3_class(res$results, "communities")
    memb <- igraph::membership(res$results)
    tab <- res$cluster_table
    expect_table_matches(tab, igraph_table(g2, memb, igraph::V(g2)$name))
    alone <- tab[tab$Representative == "alone", ]
    expect_equal(alone$Size, 1)
    expect_true(is.na(alone$Density))
    # the odd name comes back as it went in when it represents its cluster
    expect_true(all(tab$Representative %in% igraph::V(g2)$name))
})

test_that("an input without edges gives an empty table; temporary files are removed", {
    d <- fresh_dir()
    f <- tempfile(fileext = ".tsv")
    writeLines(character(), f)
    res <- suppressWarnings(ExoLabel(f, cluster_table = TRUE, tempfiledir = d,
                                     return_table = TRUE, verbose = FALSE))
    expect_equal(nrow(res$cluster_table), 0)
    expect_identical(names(res$cluster_table)[6], "Representative")
    # every edge with weight <= 0: singletons
    odd <- "na\u00efve 'q' #1"
    writeLines(enc2utf8(c("a\tb\t0", paste0("b\t", odd, "\t-1"))), f, useBytes = TRUE)
    res <- suppressWarnings(ExoLabel(f, cluster_table = TRUE, tempfiledir = d,
                                     verbose = FALSE))
    expect_equal(res$cluster_table$Size, c(1, 1, 1))
    expect_identical(res$cluster_table$Representative, c("a", "b", odd))
    expect_true(all(is.na(res$cluster_table$Density)))
    expect_equal(res$cluster_table$InternalWeight, c(0, 0, 0))
    expect_length(list.files(d, all.files = TRUE, no.. = TRUE), 1L) # the result file
})

test_that("the command-line tool's --cluster-table is the R function's table", {
    skip_on_os("windows")
    df <- noisy_groups(n = 250, groups = 8, m = 2000, seed = 13)
    f <- write_edges(df)
    read_table <- function(path) {
        as.data.frame(ExoLabel:::.exolabel_read_table(path, "\t"), stringsAsFactors = FALSE)
    }
    for (args in list(character(), c("--mode", "directed"), c("--algorithm", "leiden"),
                      c("--refine", "2", "--threads", "1"))) {
        set.seed(14)
        r_args <- list(f, cluster_table = TRUE, verbose = FALSE)
        if (length(args) && args[1] == "--mode") r_args$mode <- "directed"
        if (length(args) && args[1] == "--algorithm") r_args$algorithm <- "leiden"
        if (length(args) && args[1] == "--refine") {
            r_args$refine <- 2
            r_args$threads <- 1
        }
        res <- do.call(ExoLabel, r_args)
        seed <- format(attr(res, "stats")$seed, scientific = FALSE)
        out <- tempfile()
        tab <- tempfile()
        cl <- run_cli(c("--seed", seed, args, "-o", shQuote(out), "--cluster-table",
                        shQuote(tab), shQuote(f)))
        expect_equal(cl$status, 0)
        expect_identical(readLines(out), readLines(res$results))
        # the header line is R's column names (issue 55 item 7)
        expect_identical(readLines(tab, n = 1L),
                         "Cluster\tSize\tInternalWeight\tExternalWeight\tDensity\tRepresentative")
        expect_identical(readLines(tab, n = 1L), paste(names(res$cluster_table), collapse = "\t"))
        expect_identical(read_table(tab), res$cluster_table)
        # "-": the table on standard output, the clusters in their file
        cl2 <- run_cli(c("--seed", seed, args, "-o", shQuote(out), "--cluster-table", "-",
                         shQuote(f)))
        expect_equal(cl2$status, 0)
        expect_identical(cl2$out, readBin(tab, "raw", file.size(tab)))
        unlink(c(out, tab))
    }
    # refused before anything is read: "-" twice, the input, a directory
    expect_equal(run_cli(c("--cluster-table", "-", shQuote(f)))$status, 2)
    before <- readBin(f, "raw", file.size(f))
    expect_equal(run_cli(c("--cluster-table", shQuote(f), shQuote(f)))$status, 2)
    expect_identical(readBin(f, "raw", file.size(f)), before)
    d <- fresh_dir()
    cl <- run_cli(c("--cluster-table", shQuote(d), "-o", shQuote(file.path(d, "o")),
                    shQuote(f)))
    expect_equal(cl$status, 2)
    expect_true(any(grepl("is a directory", cl$err)))
    expect_false(file.exists(file.path(d, "o")))
    # a FIFO is written into as it is (as -o is), never replaced: the table
    # read from it is the one written to a regular file
    tab <- file.path(d, "tab.tsv")
    expect_equal(run_cli(c("--seed", "1", "-o", shQuote(file.path(d, "o1")),
                           "--cluster-table", shQuote(tab), shQuote(f)))$status, 0)
    fifo <- file.path(d, "fifo")
    got <- file.path(d, "got.tsv")
    expect_equal(system2("mkfifo", shQuote(fifo)), 0)
    system2("sh", c("-c", shQuote(sprintf("timeout -s KILL 60 cat %s > %s",
                                          shQuote(fifo), shQuote(got)))), wait = FALSE)
    cl <- run_cli(c("--seed", "1", "-o", shQuote(file.path(d, "o2")),
                    "--cluster-table", shQuote(fifo), shQuote(f)))
    expect_equal(cl$status, 0)
    want <- readBin(tab, "raw", file.size(tab))
    for (i in 1:100) { # the reader ends once the writer has closed the FIFO
        if (file.exists(got) && file.size(got) == length(want)) break
        Sys.sleep(0.1)
    }
    expect_identical(readBin(got, "raw", length(want) + 1L), want)
    expect_true(grepl("^p", system2("ls", c("-l", shQuote(fifo)), stdout = TRUE)))
    unlink(d, recursive = TRUE)
})

test_that("the table's counts are integers (issue 55 item 7)", {
    edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    res <- ExoLabel(edges, cluster_table = TRUE, verbose = FALSE)
    tab <- res$cluster_table
    expect_type(tab$Cluster, "integer")
    expect_type(tab$Size, "integer")
    expect_identical(sum(tab$Size), as.integer(res$graph_stats[["num_vertices"]]))
})
