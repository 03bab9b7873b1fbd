test_that("directed mode carries one label down a chain, never upstream", {
    n <- 50
    nm <- sprintf("node%02d", seq_len(n))
    df <- data.frame(a = nm[-n], b = nm[-1], w = 1)
    f <- write_edges(df)
    set.seed(5)
    res <- ExoLabel(f, mode = "dir", iterations = 1000, return_table = TRUE)
    expect_equal(length(unique(res$results$Cluster)), 1)
    expect_equal(res$graph_stats[["num_edges"]], n - 1)
    # a node with an extra incoming edge from elsewhere still only listens
    # to its in-neighbours: a source feeding a chain does not adopt its label
    df2 <- rbind(df, data.frame(a = "lonely", b = "node01", w = 5))
    res2 <- ExoLabel(write_edges(df2), mode = "directed", iterations = 1000,
                     return_table = TRUE)
    m <- as_membership(res2$results)
    expect_equal(length(unique(m)), 1)
    expect_equal(unname(m["node01"]), unname(m["lonely"]))
    # undirected reading of the same file is allowed to split the chain
    und <- ExoLabel(f, return_table = TRUE)
    expect_equal(und$graph_stats[["num_edges"]], 2 * (n - 1))
})

test_that("add_self_loops is a weight cutoff for winning labels", {
    # a and b are joined by a light edge only: with cutoff 0.5 neither can
    # adopt the other's label
    df <- data.frame(a = c("a", "c", "d"), b = c("b", "d", "e"), w = c(0.2, 1, 1))
    f <- write_edges(df)
    set.seed(1)
    none <- as_membership(ExoLabel(f, return_table = TRUE)$results)
    expect_equal(unname(none["a"]), unname(none["b"]))
    cut <- ExoLabel(f, add_self_loops = 0.5, return_table = TRUE)
    m <- as_membership(cut$results)
    expect_false(m["a"] == m["b"])
    expect_equal(unname(m["c"]), unname(m["e"]))
    expect_equal(cut$parameters[["add_self_loops"]], 0.5)
    # TRUE means 1: the unit edges still qualify, the light one does not
    m1 <- as_membership(ExoLabel(f, add_self_loops = TRUE, return_table = TRUE)$results)
    expect_false(m1["a"] == m1["b"])
    expect_equal(unname(m1["c"]), unname(m1["d"]))
    expect_warning(ExoLabel(f, add_self_loops = -1), "negative")
})

test_that("attenuation runs, is reported, and keeps cliques apart", {
    df <- clique_ring(k = 4, s = 7)
    f <- write_edges(df)
    set.seed(2)
    res <- ExoLabel(f, attenuation = TRUE, return_table = TRUE)
    expect_equal(res$parameters[["attenuation"]], 1)
    m <- as_membership(res$results)
    truth <- stats::setNames(sub("_n[0-9]+$", "", names(m)), names(m))
    expect_true(same_partition(m, truth))
    expect_error(ExoLabel(f, attenuation = -1), "'attenuation' must be >= 0")
})

test_that("ignore_weights gives every edge weight 1 and accepts two columns", {
    # with weights, x follows its heavy neighbour h; without, the two light
    # neighbours l1 l2 (which share a label through their edge) outvote it
    df <- data.frame(a = c("x", "x", "x", "l1", "h"), b = c("h", "l1", "l2", "l2", "h2"),
                     w = c(10, 1, 1, 1, 10))
    f <- write_edges(df)
    set.seed(1)
    w <- as_membership(ExoLabel(f, return_table = TRUE)$results)
    expect_equal(unname(w["x"]), unname(w["h"]))
    set.seed(1)
    u <- as_membership(ExoLabel(f, ignore_weights = TRUE, return_table = TRUE)$results)
    expect_equal(unname(u["x"]), unname(u["l1"]))
    f2 <- write_edges(df, weights = FALSE)
    set.seed(1)
    u2 <- as_membership(ExoLabel(f2, return_table = TRUE)$results)
    expect_identical(u2, u)
})

test_that("iterations caps processing; the default is never mutated", {
    df <- clique_ring(k = 3, s = 6)
    f <- write_edges(df)
    r0 <- ExoLabel(f)
    expect_equal(r0$parameters[["iterations"]], 16) # max(16, floor(sqrt(6)))
    expect_identical(formals(ExoLabel)$iterations, 0L)
    r1 <- ExoLabel(f, iterations = 1)
    expect_equal(r1$parameters[["iterations"]], 1)
    r3 <- ExoLabel(f, iterations = 3L)
    expect_equal(r3$parameters[["iterations"]], 3)
    expect_identical(formals(ExoLabel)$iterations, 0L)
    expect_warning(r <- ExoLabel(f, iterations = -2), "determine automatically")
    expect_equal(r$parameters[["iterations"]], 16)
    expect_warning(ExoLabel(f, iterations = 1e6), "capped")
    expect_error(ExoLabel(f, iterations = "a"), "integer or numeric")
})

test_that("sep and header are honoured in input and output", {
    df <- clique_ring(k = 2, s = 4)
    f <- tempfile(fileext = ".csv")
    writeLines(c("from,to,weight", "second header line,x,y",
                 do.call(paste, c(unname(as.list(df[, 1:3])), sep = ","))), f)
    out <- tempfile(fileext = ".csv")
    res <- ExoLabel(f, outfile = out, sep = ",", header = 2)
    expect_identical(res$results, normalizePath(out))
    lines <- readLines(out)
    expect_length(lines, 8)
    expect_true(all(grepl("^c[12]_n[1-4],[12]$", lines)))
    set.seed(1)
    r1 <- ExoLabel(f, sep = ",", header = 2L, return_table = TRUE)
    expect_equal(nrow(r1$results), 8)
    # the core's names of a separator, as on the command line (issue 56)
    set.seed(1)
    expect_identical(ExoLabel(f, sep = "comma", header = 2L, return_table = TRUE)$results,
                     r1$results)
    # header = TRUE skips exactly one line: the second line is then data
    expect_error(ExoLabel(f, sep = ",", header = TRUE), ":2:")
    expect_error(ExoLabel(f, sep = "::"), "'sep' must be a single byte")
})

test_that("return_table round-trips odd names exactly", {
    odd <- c("it's", "say \"hi\"", "#comment", "with space", "caf\u00e9", "\u03b1\u03b2",
             "1e5", "007", "NA", "TRUE", "a\\b", "%d%s")
    df <- data.frame(a = odd, b = c(odd[-1], odd[1]), w = 1)
    f <- tempfile()
    writeLines(enc2utf8(do.call(paste, c(unname(as.list(df)), sep = "\t"))), f, useBytes = TRUE)
    res <- ExoLabel(f, return_table = TRUE)
    expect_identical(sort(res$results$Vertex), sort(enc2utf8(odd)))
    expect_type(res$results$Vertex, "character")
    expect_type(res$results$Cluster, "integer")
    expect_identical(res$results$Vertex[1:3], enc2utf8(odd[1:3]))
    expect_identical(Encoding(res$results$Vertex[5]), "UTF-8")
    expect_warning(ExoLabel(f, outfile = tempfile(), return_table = TRUE), "ignored")
})

test_that("vectors of parameters run several clusterings on one graph", {
    df <- clique_ring(k = 3, s = 5)
    f <- write_edges(df)
    outs <- file.path(tempfile("multi"), c("a.tsv", "b.tsv"))
    res <- ExoLabel(f, outfile = outs, attenuation = c(0, 1))
    expect_length(res, 2)
    expect_true(all(file.exists(outs)))
    expect_equal(res[[2]]$parameters[["attenuation"]], 1)
    tabs <- ExoLabel(f, iterations = c(1, 5, 10), return_table = TRUE)
    expect_length(tabs, 3)
    expect_equal(vapply(tabs, function(r) r$parameters[["iterations"]], 1),
                 c("iterations=1" = 1, "iterations=5" = 5, "iterations=10" = 10))
    expect_error(ExoLabel(f, outfile = tempfile(), attenuation = c(0, 1)), "one 'outfile'")
})

test_that("temporary files live in a private directory that is removed", {
    d <- fresh_dir()
    f <- write_edges(clique_ring())
    res <- ExoLabel(f, tempfiledir = d)
    expect_equal(dirname(res$results), normalizePath(d))
    expect_length(stray_files(d), 0)
    expect_equal(list.files(d), basename(res$results))
    sub <- file.path(d, "new", "dir")
    ExoLabel(f, tempfiledir = sub, return_table = TRUE)
    expect_true(dir.exists(sub))
    expect_length(list.files(sub, all.files = TRUE, no.. = TRUE), 0)
})

test_that("verbose prints progress, quiet prints nothing", {
    f <- write_edges(clique_ring())
    quiet <- capture.output(invisible(ExoLabel(f, verbose = FALSE)), type = "message")
    expect_length(quiet, 0)
    loud <- capture.output(invisible(ExoLabel(f, verbose = TRUE)), type = "message")
    expect_true(any(grepl("label propagation", loud)))
})

test_that("cli progress bars (C API) report every stage and change nothing", {
    f <- write_edges(clique_ring(k = 4, s = 6))
    set.seed(3)
    quiet <- ExoLabel(f, verbose = FALSE, return_table = TRUE)
    withr::local_options(ExoLabel.progress_bars = TRUE, cli.progress_show_after = 0,
                         cli.dynamic = FALSE)
    set.seed(3)
    out <- capture.output(bars <- ExoLabel(f, verbose = TRUE, return_table = TRUE),
                          type = "message")
    expect_identical(bars$results, quiet$results)
    # cli draws a bar once its timer ticks inside a stage: on this tiny graph
    # only the first stage lasts that long; later stages end before a tick
    expect_true(any(grepl("ExoLabel reading edges .*100%", out)))
    expect_false(any(grepl("^ExoLabel: ", out))) # no message() lines in bar mode
})
