test_that("a malformed line gives an R error naming the file and line", {
    d <- fresh_dir()
    f <- file.path(d, "bad.tsv")
    writeLines(c("a\tb\t1", "b\tc\t1", "c\td\tnot_a_number", "d\te\t1"), f)
    expect_error(ExoLabel(f, tempfiledir = d), "bad.tsv:3:.*number")
    writeLines(c("a\tb\t1", "b"), f)
    expect_error(ExoLabel(f, tempfiledir = d), "bad.tsv:2:")
    writeLines(c("a\tb\t1\textra", "a\tb\t1"), f) # more columns are fine, too few not
    expect_error(ExoLabel(f, tempfiledir = d, format = "blast"), "bad.tsv:1: expected at least 12")
    expect_length(stray_files(d), 0)
    expect_equal(list.files(d), "bad.tsv")
})

test_that("missing files and directories are reported before any work", {
    expect_error(ExoLabel(tempfile("nope")), "does not exist")
    expect_error(ExoLabel(tempdir()), "is a directory")
    expect_error(ExoLabel(character(0)), "character vector")
})

test_that("the session keeps working after many failing calls", {
    d <- fresh_dir()
    bad <- file.path(d, "bad.tsv")
    writeLines(c("a\tb\t1", "oops"), bad)
    good <- write_edges(clique_ring(k = 3, s = 5))
    for (i in 1:20) expect_error(ExoLabel(bad, tempfiledir = d), "bad.tsv:2:")
    set.seed(1)
    res <- ExoLabel(good, tempfiledir = d, return_table = TRUE)
    expect_equal(length(unique(res$results$Cluster)), 3)
    expect_length(stray_files(d), 0)
})

test_that("argument errors say what is wrong", {
    f <- write_edges(clique_ring(k = 2, s = 3))
    expect_error(ExoLabel(f, memory_limit = "lots"), "memory_limit")
    expect_error(ExoLabel(f, memory_limit = 10), "at least 1MB")
    expect_error(ExoLabel(f, ignore_weights = NA), "TRUE or FALSE")
    expect_error(ExoLabel(f, return_table = "yes"), "TRUE or FALSE")
    expect_error(ExoLabel(f, header = Inf), "header")
    expect_error(ExoLabel(f, mode = "sideways"), "'mode' must be one of")
    expect_error(ExoLabel(f, add_self_loops = "x"), "add_self_loops")
    expect_error(ExoLabel(f, sep = "\n"), "line end")
    expect_error(ExoLabel(f, tempfiledir = f), "tempfiledir")
})

test_that("an 'outfile' ending in a slash (a directory) is refused before any work (issue 53)", {
    f <- write_edges(clique_ring(k = 2, s = 3))
    d <- fresh_dir()
    # "dir/" was written as the file "dir"
    expect_error(ExoLabel(f, outfile = file.path(d, "sub/"), tempfiledir = d),
                 "'outfile' must name a file, not a directory: .*sub/' ends in a slash")
    expect_false(file.exists(file.path(d, "sub")))
    # "existing.tsv/" replaced existing.tsv
    keep <- file.path(d, "existing.tsv")
    writeLines("keep me", keep)
    expect_error(ExoLabel(f, outfile = paste0(keep, "/"), tempfiledir = d),
                 "'outfile' must name a file, not a directory")
    expect_identical(readLines(keep), "keep me")
    # one of several
    expect_error(ExoLabel(f, outfile = c(file.path(d, "a.tsv"), paste0(d, "/")),
                          add_self_loops = c(0, 1), tempfiledir = d),
                 "'outfile' must name a file")
    expect_error(ExoLabel(f, outfile = "", tempfiledir = d), "'outfile' must be")
    expect_setequal(list.files(d, all.files = TRUE, no.. = TRUE), "existing.tsv")
})

test_that("memory_limit strings are parsed with binary units", {
    expect_equal(ExoLabel:::parse_memory_limit("256MB"), 256 * 2^20)
    expect_equal(ExoLabel:::parse_memory_limit("2GB"), 2 * 2^30)
    expect_equal(ExoLabel:::parse_memory_limit("64MiB"), 64 * 2^20)
    expect_equal(ExoLabel:::parse_memory_limit("1.5g"), 1.5 * 2^30)
    expect_equal(ExoLabel:::parse_memory_limit(2^24), 2^24)
    expect_equal(ExoLabel:::parse_memory_limit("3e6"), 3e6)
})
