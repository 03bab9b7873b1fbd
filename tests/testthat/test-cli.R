# The command-line tool (make cli) against the R function. `make test` sets
# EXOLABEL_CLI to the binary it built; elsewhere these tests are skipped.

r_bytes <- function(...) {
    out <- tempfile(fileext = ".tsv")
    res <- ExoLabel(..., outfile = out)
    list(bytes = readBin(out, "raw", file.size(out)),
         seed = format(attr(res, "stats")$seed, scientific = FALSE),
         stats = attr(res, "stats"))
}

test_that("the command-line tool writes the R function's bytes for its seed", {
    skip_on_os("windows")
    f <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    set.seed(21)
    r <- r_bytes(f)
    cl <- run_cli(c("--seed", r$seed, shQuote(f)))
    expect_equal(cl$status, 0)
    expect_identical(cl$out, r$bytes)
    # standard input, and an output file
    out <- tempfile()
    cl <- run_cli(c("--seed", r$seed, "-o", shQuote(out)), stdin = f)
    expect_equal(cl$status, 0)
    expect_identical(readBin(out, "raw", file.size(out)), r$bytes)
    # options: directed, attenuation, cutoff, iterations, separator, header,
    # ignored weights, memory limit, one thread
    df <- clique_ring(k = 5, s = 6, bridge_w = 0.5)
    csv <- tempfile(fileext = ".csv")
    writeLines(c("from,to,w", paste(df$a, df$b, df$w, sep = ",")), csv)
    set.seed(22)
    r <- r_bytes(csv, mode = "directed", attenuation = 0.5, add_self_loops = 0.7,
                 iterations = 7, sep = ",", header = TRUE, memory_limit = "2MB",
                 threads = 1)
    cl <- run_cli(c("--seed", r$seed, "--mode", "directed", "--attenuation", "0.5",
                    "--add-self-loops", "0.7", "--iterations", "7", "--sep", "comma",
                    "--header", "1", "--memory-limit", "2MB", "--threads", "1",
                    shQuote(csv)))
    expect_equal(cl$status, 0)
    expect_identical(cl$out, r$bytes)
    set.seed(23)
    r <- r_bytes(csv, ignore_weights = TRUE, sep = ",", header = 1)
    cl <- run_cli(c("--seed", r$seed, "--ignore-weights", "--sep", ",", "--header", "1",
                    "--stats", shQuote(csv)))
    expect_identical(cl$out, r$bytes)
    expect_true(paste0("seed\t", r$seed) %in% cl$err)
    expect_true("nodes\t30" %in% cl$err)
    # refine: merge passes after label propagation
    set.seed(24)
    r <- r_bytes(f, refine = 3)
    cl <- run_cli(c("--seed", r$seed, "--refine", "3", "--stats", shQuote(f)))
    expect_equal(cl$status, 0)
    expect_identical(cl$out, r$bytes)
    # --stats reports the passes as the R result does
    expect_true(paste0("refine_merged\t", r$stats$refine_merged) %in% cl$err)
    expect_true(any(grepl("^refine_passes\t[1-3]$", cl$err)))
    expect_true(any(grepl("^seconds_refine\t[0-9.]+$", cl$err)))
    expect_equal(run_cli(c("--refine", "101", shQuote(f)))$status, 2)
    # resolution: the same penalty strength as the R argument, 0 = none
    for (g in c("0", "0.5", "3")) {
        set.seed(25)
        r <- r_bytes(f, resolution = as.numeric(g))
        cl <- run_cli(c("--seed", r$seed, "--resolution", g, shQuote(f)))
        expect_equal(cl$status, 0)
        expect_identical(cl$out, r$bytes)
    }
    expect_equal(run_cli(c("--resolution", "-1", shQuote(f)))$status, 2)
})

test_that("the command-line tool documents itself and reports errors by exit code", {
    skip_on_os("windows")
    h <- run_cli("--help")
    expect_equal(h$status, 0)
    help <- rawToChar(h$out)
    for (opt in c("--out", "--mode", "--add-self-loops", "--attenuation", "--ignore-weights",
                  "--iterations", "--refine", "--resolution", "--sep", "--header", "--tempdir", "--memory-limit",
                  "--threads", "--seed", "--verbose", "Exit codes"))
        expect_match(help, opt, fixed = TRUE)
    expect_equal(run_cli("--no-such-option")$status, 2)
    expect_equal(run_cli(c("--memory-limit", "10KB"))$status, 2)
    expect_equal(run_cli(c("--sep", "ab"))$status, 2)
    bad <- tempfile(fileext = ".tsv")
    writeLines(c("a\tb\t1", "b\tc\tnot-a-number"), bad)
    e <- run_cli(shQuote(bad))
    expect_equal(e$status, 3)
    expect_match(e$err, paste0(basename(bad), ":2: weight"), fixed = TRUE)
    expect_length(e$out, 0)
    expect_equal(run_cli(shQuote(tempfile()))$status, 4)
    # the temporary directory is left empty whatever happens
    d <- fresh_dir()
    run_cli(c("--tempdir", shQuote(d), shQuote(bad)))
    run_cli(c("--tempdir", shQuote(d), "--seed", "1",
              shQuote(system.file("extdata", "example_edges.tsv", package = "ExoLabel"))))
    expect_length(stray_files(d), 0)
})
