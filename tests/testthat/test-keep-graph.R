# keep_graph / graph (issue 57): a graph kept by one run and extended by a
# later one with new hits is the graph of one run over all the files, and so
# are the clusters; from R and from the command line alike. The byte-level
# checks (threads, memory, interruptions, corrupt files) are the C suite
# "keep" (tests/c/test_keep.c).

# Search output: families of 10 proteins, hits inside a family, self hits,
# a weak hit now and then; `from` shifts the protein numbers (new ones).
keep_hits <- function(n, seed, from = 0L) {
    set.seed(seed)
    a <- from + sample.int(60L, n, replace = TRUE) - 1L
    b <- ifelse(runif(n) < 0.1, a, (a %/% 10L) * 10L + sample.int(10L, n, replace = TRUE) - 1L)
    bits <- ifelse(a == b, 400, round(runif(n, 100, 160)))
    data.frame(q = paste0("p", a), s = paste0("p", b), pid = 50, len = 100, mm = 5, go = 0,
               qs = 1, qe = 95, ss = 1, se = 95, ev = 1e-10, bits = bits)
}

write_hits <- function(h) {
    f <- tempfile(fileext = ".m8")
    utils::write.table(h, f, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
    f
}

kept_files <- function(dir) {
    fs <- sort(list.files(dir))
    stats::setNames(lapply(file.path(dir, fs), function(f) readBin(f, "raw", file.size(f))), fs)
}

test_that("an extended graph and its clusters are those of one run over all files (R)", {
    old <- write_hits(keep_hits(400, 1))
    new <- write_hits(keep_hits(120, 2, from = 40L))
    d <- tempfile("kept")
    all <- tempfile("all")
    ext <- tempfile("ext")
    on.exit(unlink(c(old, new, d, all, ext), recursive = TRUE))
    for (fmt in c("blast", "edges")) {
        unlink(c(d, all, ext), recursive = TRUE)
        cols <- if (fmt == "edges") c(1, 2, 12)
        r_all <- ExoLabel(c(old, new), format = fmt, columns = cols, keep_graph = all,
                          return_table = TRUE, verbose = FALSE, threads = 1)
        ExoLabel(old, format = fmt, columns = cols, keep_graph = d, verbose = FALSE)
        expect_true(file.exists(file.path(d, "manifest")))
        r_ext <- ExoLabel(new, format = fmt, columns = cols, graph = d, keep_graph = ext,
                          return_table = TRUE, verbose = FALSE, threads = 2)
        expect_identical(kept_files(ext), kept_files(all))
        expect_identical(r_ext$results, r_all$results)
        # the kept graph in place: graph = keep_graph
        r_in <- ExoLabel(new, format = fmt, columns = cols, graph = d, keep_graph = d,
                         return_table = TRUE, verbose = FALSE)
        expect_identical(r_in$results, r_all$results)
        m <- readLines(file.path(d, "manifest"))
        expect_identical(m[2], "generation 2")
        # with bridges = cut also the hits and their sorted intervals (2 files)
        expect_length(list.files(d), if (fmt == "blast") 7L else 4L)
    }
})

test_that("keep_graph and graph refuse what they cannot use, naming it", {
    old <- write_hits(keep_hits(200, 3))
    d <- tempfile("kept")
    on.exit(unlink(c(old, d), recursive = TRUE))
    ExoLabel(old, format = "blast", keep_graph = d, verbose = FALSE)
    expect_error(ExoLabel(old, format = "blast", combine = "sum", graph = d, verbose = FALSE),
                 "was built with combine max, not sum", fixed = TRUE)
    expect_error(ExoLabel(old, format = "blast", bridges = "keep", graph = d, verbose = FALSE),
                 "was built with bridges cut, not keep", fixed = TRUE)
    expect_error(ExoLabel(old, format = "blast", graph = tempfile(), verbose = FALSE),
                 "does not exist")
    expect_error(ExoLabel(old, format = "blast", graph = old, verbose = FALSE),
                 "is not a directory")
    expect_error(ExoLabel(old, format = "blast", keep_graph = old, verbose = FALSE),
                 "is not a directory")
    expect_error(ExoLabel(old, format = "blast", keep_graph = tempfile(), sequences = "p1",
                          verbose = FALSE), "keep_graph cannot be combined with named sequences")
    expect_error(ExoLabel(old, format = "blast", keep_graph = 3, verbose = FALSE),
                 "'keep_graph' must be a directory path")
})

test_that("the command line keeps and extends a graph as R does", {
    skip_on_os("windows")
    old <- write_hits(keep_hits(300, 4))
    new <- write_hits(keep_hits(90, 5, from = 30L))
    d <- tempfile("kept")
    rd <- tempfile("rkept")
    out <- tempfile()
    on.exit(unlink(c(old, new, d, rd, out), recursive = TRUE))
    expect_equal(run_cli(c("--format", "blast", "--keep-graph", d, "-o", out, old))$status, 0)
    r <- run_cli(c("--format", "blast", "--graph", d, "--keep-graph", d, "-o", out, new))
    expect_equal(r$status, 0)
    ExoLabel(c(old, new), format = "blast", keep_graph = rd, verbose = FALSE)
    expect_identical(unname(head(kept_files(d), -1)), unname(head(kept_files(rd), -1))) # g2.* vs g1.*
    want <- ExoLabel(c(old, new), format = "blast", return_table = TRUE, verbose = FALSE)
    got <- utils::read.delim(out, header = FALSE, col.names = c("Vertex", "Cluster"))
    expect_identical(got$Vertex, want$results$Vertex)
    expect_identical(got$Cluster, want$results$Cluster)
    bad <- run_cli(c("--format", "blast", "--min-weight", "0.5", "--graph", d, "-o", out, new))
    expect_equal(bad$status, 2)
    expect_match(bad$err[1], "was built with min_weight 0, not 0.5", fixed = TRUE)
    broken <- file.path(d, "g2.adjacency")
    con <- file(broken, "r+b")
    seek(con, 4, rw = "write") # a weight: found by the checksum
    writeBin(as.raw(0x55), con)
    close(con)
    bad <- run_cli(c("--format", "blast", "--graph", d, "-o", out, new))
    expect_true(bad$status != 0)
    expect_match(bad$err[1], "does not match the checksum", fixed = TRUE)
    expect_match(bad$err[1], broken, fixed = TRUE)
})
