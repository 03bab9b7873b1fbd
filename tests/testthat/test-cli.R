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
    # --stats: each method's own counters, none of another method's
    lp <- run_cli(c("--stats", shQuote(f)))$err
    expect_true(any(grepl("^lp_visits\t[1-9][0-9]*$", lp)))
    ld <- run_cli(c("--algorithm", "leiden", "--stats", shQuote(f)))$err
    expect_true(any(grepl("^leiden_moves\t[1-9][0-9]*$", ld)))
    expect_false(any(grepl("^(lp_|iterations\t)", ld)))
    cc <- run_cli(c("--algorithm", "components", "--stats", shQuote(f)))$err
    expect_true("seed\t1" %in% cc)
    expect_false(any(grepl("^(lp_|leiden_|iterations\t)", cc)))
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

test_that("the command-line tool's default seed is fixed: the same input gives the same output", {
    skip_on_os("windows")
    f <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    a <- run_cli(shQuote(f))
    b <- run_cli(shQuote(f))
    one <- run_cli(c("--seed", "1", shQuote(f)))
    expect_equal(a$status, 0)
    expect_identical(a$out, b$out)
    expect_identical(a$out, one$out)
    # the same default as the R function given that seed
    expect_true("seed\t1" %in% run_cli(c("--stats", shQuote(f)))$err)
    expect_match(rawToChar(run_cli("--help")$out), "default 1", fixed = TRUE)
})

test_that("the command-line tool warns as the R function does", {
    skip_on_os("windows")
    empty <- tempfile(fileext = ".tsv")
    file.create(empty)
    e <- run_cli(shQuote(empty))
    expect_equal(e$status, 0)
    expect_length(e$out, 0)
    expect_match(e$err, "warning: the input has no edges", fixed = TRUE, all = FALSE)
    zero <- tempfile(fileext = ".tsv")
    writeLines(c("a\tb\t0", "b\tc\t0"), zero)
    z <- run_cli(shQuote(zero))
    expect_equal(z$status, 0)
    expect_identical(rawToChar(z$out), "a\t1\nb\t2\nc\t3\n")
    expect_match(z$err, "warning: no edge with a positive weight", fixed = TRUE, all = FALSE)
    # and the R function gives the same warnings for the same files
    expect_warning(ExoLabel(empty), "the input has no edges")
    expect_warning(ExoLabel(zero), "no edge with a positive weight")
    # no warning for an ordinary input
    f <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    expect_false(any(grepl("warning", run_cli(shQuote(f))$err)))
})

test_that("a broken pipe on standard output gives one clean message and exit code 4", {
    skip_on_os("windows")
    if (!nzchar(Sys.which("bash")) || !nzchar(Sys.which("head"))) skip("no bash or head")
    big <- tempfile(fileext = ".tsv")
    writeLines(sprintf("node%d\tnode%d\t1", 1:200000, 2:200001), big)
    err <- tempfile()
    # pipefail: the status is the tool's; head stops reading after one byte
    st <- system2("bash", c("-c", shQuote(sprintf(
        "set -o pipefail; %s %s 2>%s | head -c 1 >/dev/null",
        shQuote(cli_path()), shQuote(big), shQuote(err)))))
    msg <- readLines(err)
    expect_equal(st, 4)
    expect_length(msg, 1)
    expect_match(msg, "broken pipe", fixed = TRUE)
    expect_false(any(grepl("cannot cannot", msg)))
})

test_that("the command-line tool writes into a FIFO or a device given to -o, never replacing it", {
    skip_on_os("windows")
    if (!nzchar(Sys.which("bash")) || !nzchar(Sys.which("timeout"))) skip("no bash or timeout")
    f <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    want <- run_cli(shQuote(f))$out
    d <- fresh_dir()
    fifo <- file.path(d, "out.fifo")
    expect_equal(system2("mkfifo", shQuote(fifo)), 0)
    got <- file.path(d, "got.tsv")
    # the reader starts first; timeouts keep a broken run from hanging
    st <- system2("bash", c("-c", shQuote(sprintf(
        "timeout -s KILL 30 cat %s > %s & timeout -s KILL 30 %s -o %s %s; s=$?; wait; exit $s",
        shQuote(fifo), shQuote(got), shQuote(cli_path()), shQuote(fifo), shQuote(f)))))
    expect_equal(st, 0)
    expect_equal(system2("test", c("-p", shQuote(fifo))), 0)
    expect_identical(readBin(got, "raw", file.size(got)), want)
    expect_setequal(list.files(d), c("out.fifo", "got.tsv"))
    if (!identical(suppressWarnings(system2("id", "-u", stdout = TRUE)), "0"))
        skip("not root: cannot mknod a private /dev/null")
    dev <- file.path(d, "null")
    expect_equal(system2("mknod", c(shQuote(dev), "c", "1", "3")), 0)
    expect_equal(run_cli(c("-o", shQuote(dev), shQuote(f)))$status, 0)
    expect_equal(system2("test", c("-c", shQuote(dev))), 0)
    expect_setequal(list.files(d), c("out.fifo", "got.tsv", "null"))
})

test_that("an output the tool cannot create fails before standard input is read", {
    skip_on_os("windows")
    if (!nzchar(Sys.which("bash")) || !nzchar(Sys.which("timeout"))) skip("no bash or timeout")
    d <- fresh_dir()
    fifo <- file.path(d, "in.fifo")
    expect_equal(system2("mkfifo", shQuote(fifo)), 0)
    # standard input is a FIFO held open and never written: a run that read
    # it before checking the output would wait until the timeout (137); the
    # output's folder is that FIFO, which no run can create a file in (a
    # missing folder would be created, as R does)
    st <- system2("bash", c("-c", shQuote(sprintf(
        "exec 3<>%s; timeout -s KILL 20 %s -o %s < %s",
        shQuote(fifo), shQuote(cli_path()), shQuote(file.path(d, "in.fifo", "out.tsv")),
        shQuote(fifo)))), stderr = FALSE)
    expect_equal(st, 4)
    expect_setequal(list.files(d), "in.fifo")
})

test_that("SIGTERM stops the tool while it waits on an idle input FIFO", {
    skip_on_os("windows")
    if (!nzchar(Sys.which("bash"))) skip("no bash")
    d <- fresh_dir()
    tmp <- file.path(d, "tmp")
    dir.create(tmp)
    fifo <- file.path(d, "in.fifo")
    expect_equal(system2("mkfifo", shQuote(fifo)), 0)
    # the FIFO is held open and fed one line, then left idle; the tool gets
    # SIGTERM a second later, and SIGKILL 10 s after that if it still runs
    # (the status is then 137, not 130)
    t0 <- Sys.time()
    st <- system2("bash", c("-c", shQuote(sprintf(paste(
        "exec 3<>%s; printf 'a\\tb\\t1\\n' >&3;",
        "%s --tempdir %s %s 3>&- & p=$!; sleep 1; kill -TERM $p;",
        "(sleep 10; kill -KILL $p) 2>/dev/null & w=$!; wait $p; s=$?;",
        "kill $w 2>/dev/null; exit $s"),
        shQuote(fifo), shQuote(cli_path()), shQuote(tmp), shQuote(fifo)))),
        stdout = FALSE, stderr = FALSE)
    took <- as.numeric(difftime(Sys.time(), t0, units = "secs"))
    expect_equal(st, 130)
    expect_lt(took, 6)
    expect_length(list.files(tmp, all.files = TRUE, no.. = TRUE), 0)
})
