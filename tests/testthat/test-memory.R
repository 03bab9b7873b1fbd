# Issue 24 item 14: memory_limit is a cap, not an allocation; threads beyond
# the machine's cores are capped with a warning.

test_that("a memory_limit far above what the graph needs allocates what it needs", {
    edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    set.seed(4)
    small <- ExoLabel(edges, memory_limit = "256MB", return_table = TRUE)
    for (algo in c("lp", "leiden")) {
        set.seed(4)
        huge <- ExoLabel(edges, memory_limit = "1TB", algorithm = algo, return_table = TRUE)
        expect_equal(nrow(huge$results), 200)
        # well below the 366 GB the sort buffers used to reserve
        expect_lt(attr(huge, "stats")$peak_rss, 4 * 2^30)
        if (algo == "lp") expect_identical(huge$results, small$results)
    }
    skip_on_os("windows")
    r <- run_cli(c("--memory-limit", "1TB", "--seed", "1", edges))
    expect_equal(r$status, 0)
    expect_length(r$err, 0)
})

test_that("when memory runs out, the error names memory_limit and the machine's RAM", {
    skip_on_os("windows")
    skip_if(Sys.info()[["sysname"]] != "Linux", "ulimit -v is used")
    cli <- cli_path()
    d <- fresh_dir()
    f <- file.path(d, "e.tsv")
    set.seed(1)
    writeLines(paste(sample(5000, 20000, TRUE), sample(5000, 20000, TRUE), 1, sep = "\t"), f)
    # 30 MB of address space: the first sort buffers (3 x 16 MiB) cannot be had
    err <- suppressWarnings(system2("bash", c("-c", shQuote(paste(
        "ulimit -v 30000;", shQuote(cli), "--memory-limit 8GB --threads 2 --seed 1",
        "--tempdir", shQuote(d), shQuote(f), "> /dev/null"))), stdout = TRUE, stderr = TRUE))
    expect_equal(attr(err, "status"), 5)
    expect_match(paste(err, collapse = "\n"),
                 "out of memory.*--memory-limit is 8\\.0 GiB; this machine has [0-9.]+ [KMGT]iB of RAM")
    expect_length(stray_files(d), 0)
    unlink(d, recursive = TRUE)
})

test_that("threads beyond the cores are capped with a warning", {
    withr::local_options(ExoLabel.oversubscribe = NULL)
    edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    cores <- ExoLabel:::.exolabel_cores() # the core's count, the CLI's too
    set.seed(2)
    expect_warning(a <- ExoLabel(edges, threads = 1000, return_table = TRUE),
                   sprintf("'threads' 1000 is more than the %d cores of this machine: using %d",
                           cores, cores), fixed = TRUE)
    set.seed(2)
    expect_silent(b <- ExoLabel(edges, threads = 1, return_table = TRUE))
    expect_identical(a$results, b$results)
    skip_on_os("windows")
    r <- run_cli(c("--threads", "1000", "--seed", "3", edges))
    expect_equal(r$status, 0)
    expect_true(any(grepl(sprintf("--threads 1000 is more than the %d cores of this machine: using %d",
                                  cores, cores), r$err, fixed = TRUE)))
    expect_identical(r$out, run_cli(c("--threads", "1", "--seed", "3", edges))$out)
})

# EstimateExoLabel() printed inside the call before issue 55; keep the
# test output quiet all the same
est_q <- function(...) {
    utils::capture.output(r <- EstimateExoLabel(...))
    r
}

test_that("EstimateExoLabel takes edge-list files and estimates Leiden (issue 24 item 16)", {
    edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    tab <- utils::read.delim(edges, header = FALSE, colClasses = "character")
    n_lines <- nrow(tab)
    est <- EstimateExoLabel(edges)
    expect_output(print(est), "resource estimate")
    d <- attr(est, "details")
    expect_equal(d$input[["num_edges"]], n_lines, tolerance = 0.2)
    expect_equal(est[["Expected Input File Size"]], file.size(edges))
    # avg_degree gives the nodes
    est2 <- est_q(edges, avg_degree = n_lines / 200)
    expect_equal(attr(est2, "details")$input[["num_vertices"]], 200, tolerance = 0.2)
    # gzip files: the size once decompressed
    gz <- tempfile(fileext = ".tsv.gz")
    con <- gzfile(gz, "w"); writeLines(readLines(edges), con); close(con)
    expect_gt(attr(est_q(gz), "details")$input[["num_edges"]], n_lines / 2)
    unlink(gz)
    expect_error(EstimateExoLabel("no-such-file.tsv"), "does not exist")
    # Leiden: at least 32 bytes more per node while clustering, more disk
    lp <- attr(est_q(1e6, 20), "details")
    le <- attr(est_q(1e6, 20, algorithm = "leiden"), "details")
    expect_gte(le$stages$ram[3] - lp$stages$ram[3], 32 * 1e6)
    # more disk while clustering (the peak is often the sort's, the same)
    expect_gt(le$stages$temp_disk[3], lp$stages$temp_disk[3])
    expect_gte(le$peak_temp_disk, lp$peak_temp_disk)
    expect_output(print(est_q(1e6, 20, algorithm = "Leiden")), "Leiden")
    expect_error(EstimateExoLabel(1e6, algorithm = "louvain"), "'algorithm' must be one of")
})

# Issue 55 item 11: from a file, the node count was a quarter of the edges
# (498,678 for 200,000 nodes), Leiden's disk counted two coarse graphs the
# size of the input (178.6 MiB for a run that used 31.8 MiB), and the
# estimate printed even when assigned.
test_that("EstimateExoLabel from a file: nodes and Leiden's disk within 1.5x, silent when assigned", {
    d <- fresh_dir()
    f <- file.path(d, "g.tsv")
    # 30,000 nodes whose names repeat unevenly (weights ~ rank^-0.8), in 20
    # planted groups; about 10 MB, so the estimate samples the file
    set.seed(55)
    n <- 30000
    m <- 4e5
    grp <- rep_len(1:20, n)
    p <- (1:n)^-0.8
    a <- sample.int(n, m, TRUE, prob = p)
    same <- runif(m) < 0.8
    b <- integer(m)
    for (g in 1:20) { # the partner of an intra-group edge is drawn from a's group
        i <- which(same & grp[a] == g)
        members <- which(grp == g)
        b[i] <- members[sample.int(length(members), length(i), TRUE, prob = p[members])]
    }
    b[!same] <- sample.int(n, sum(!same), TRUE, prob = p)
    keep <- a != b
    writeLines(sprintf("node_%06d\tnode_%06d\t%.3f", a[keep], b[keep],
                       runif(sum(keep), 0.1, 1)), f)
    expect_gt(file.size(f), 8 * 2^20)
    truth <- length(unique(c(a[keep], b[keep])))
    expect_silent(est <- EstimateExoLabel(f, memory_limit = "64MB", threads = 2,
                                          algorithm = "leiden"))
    expect_identical(capture.output(e <- EstimateExoLabel(f)), character())
    n_est <- attr(est, "details")$input[["num_vertices"]]
    expect_gt(n_est, truth / 1.5)
    expect_lt(n_est, truth * 1.5)
    res <- ExoLabel(f, memory_limit = "64MB", threads = 2, algorithm = "leiden",
                    tempfiledir = d)
    measured <- attr(res, "stats")$peak_temp_disk
    expect_gt(measured, 0)
    expect_gt(est[["Expected Internal File Size (FastSort)"]], measured / 1.5)
    expect_lt(est[["Expected Internal File Size (FastSort)"]], measured * 1.5)
    unlink(d, recursive = TRUE)
})
