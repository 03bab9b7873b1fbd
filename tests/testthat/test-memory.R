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
    cores <- parallel::detectCores(logical = TRUE)
    set.seed(2)
    expect_warning(a <- ExoLabel(edges, threads = 1000, return_table = TRUE),
                   sprintf("'threads' = 1000 is more than the %d cores of this machine: using %d",
                           cores, cores), fixed = TRUE)
    set.seed(2)
    expect_silent(b <- ExoLabel(edges, threads = 1, return_table = TRUE))
    expect_identical(a$results, b$results)
})
