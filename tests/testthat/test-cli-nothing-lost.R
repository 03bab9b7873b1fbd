# The command-line tool loses no input and replaces no special file (issue 53):
# pipes given as paths, links through a process's descriptor as the output,
# a failing cluster table after the clusters, and the refusals that must come
# before any work. Special files are private copies in a temporary folder.

sh_quote_all <- function(x) paste(shQuote(x), collapse = " ")

# Run a shell command line (bash, for <(...)); status, stdout lines, stderr lines.
run_sh <- function(cmd, timeout = 60) {
    out <- tempfile()
    err <- tempfile()
    status <- system2("timeout", c(timeout, "bash", "-c", shQuote(cmd)),
                      stdout = out, stderr = err)
    res <- list(status = status, out = readLines(out, warn = FALSE),
                err = readLines(err, warn = FALSE))
    unlink(c(out, err))
    res
}

# A graph of `n` edges on n + 1 nodes (a path): every line matters.
path_graph <- function(file, n) {
    writeLines(sprintf("n%d\tn%d\t1", seq_len(n) - 1L, seq_len(n)), file)
    file
}

# Hold an exclusive lock on `path` in a background process (util-linux
# flock); returns its process id once the lock is taken.
processx_like_lock <- function(path) {
    pidfile <- tempfile()
    system2("bash", c("-c", shQuote(paste0("flock ", shQuote(path), " sleep 60 & echo $! > ",
                                         shQuote(pidfile), "; sleep 0.5"))), wait = TRUE)
    as.integer(readLines(pidfile))
}

test_that("a pipe given as an input path is read whole (process substitution, /dev/stdin, a FIFO)", {
    skip_on_os("windows")
    exe <- cli_path()
    d <- fresh_dir()
    f <- path_graph(file.path(d, "g.tsv"), 10000)
    ref <- run_sh(paste(shQuote(exe), "--seed 1", shQuote(f)))
    expect_equal(ref$status, 0)
    expect_length(ref$out, 10001)
    # <(...) is a pipe named /dev/fd/N: before the fix its first bytes were
    # taken by the search-output check
    got <- run_sh(paste(shQuote(exe), "--seed 1 <(cat", shQuote(f), ")"))
    expect_equal(got$status, 0)
    expect_identical(got$out, ref$out)
    got <- run_sh(paste("cat", shQuote(f), "|", shQuote(exe), "--seed 1 /dev/stdin"))
    expect_equal(got$status, 0)
    expect_identical(got$out, ref$out)
    # a named pipe written once and closed: read whole, no hang
    fifo <- file.path(d, "in.fifo")
    expect_equal(system2("mkfifo", shQuote(fifo)), 0)
    got <- run_sh(paste("(cat", shQuote(f), ">", shQuote(fifo), ") &", shQuote(exe),
                        "--seed 1", shQuote(fifo)), timeout = 60)
    expect_equal(got$status, 0)
    expect_identical(got$out, ref$out)
    expect_length(stray_files(d), 0)
})

test_that("an output link through a process's descriptor is written through, never replaced", {
    skip_on_os("windows")
    skip_if_not(file.exists("/proc/self/fd/1"), "no /proc/self/fd")
    exe <- cli_path()
    d <- fresh_dir()
    f <- path_graph(file.path(d, "g.tsv"), 50)
    link <- file.path(d, "stdout-link")
    file.symlink("/proc/self/fd/1", link)
    link2 <- file.path(d, "link-to-link") # a chain of links, as /dev/stdout is
    file.symlink(link, link2)
    out <- file.path(d, "redirected.tsv")
    for (l in c(link, link2)) {
        got <- run_sh(paste(shQuote(exe), "--seed 1 -o", shQuote(l), shQuote(f), ">",
                            shQuote(out)))
        expect_equal(got$status, 0)
        expect_identical(Sys.readlink(l), if (l == link) "/proc/self/fd/1" else link)
        expect_length(readLines(out), 51)
    }
    # appended, as the shell's own >> would
    got <- run_sh(paste(shQuote(exe), "--seed 1 -o", shQuote(link), shQuote(f), ">>",
                        shQuote(out)))
    expect_equal(got$status, 0)
    expect_length(readLines(out), 102)
    # into a pipe
    got <- run_sh(paste(shQuote(exe), "--seed 1 -o", shQuote(link), shQuote(f), "| wc -l"))
    expect_identical(trimws(got$out), "51")
    expect_identical(Sys.readlink(link), "/proc/self/fd/1")
    expect_setequal(list.files(d, all.files = TRUE, no.. = TRUE),
                    c("g.tsv", "stdout-link", "link-to-link", "redirected.tsv"))
})

test_that("a failing cluster table leaves the earlier clusters file as it was", {
    skip_on_os("windows")
    if (Sys.info()[["effective_user"]] != "root") skip("not root: cannot mknod a private /dev/full")
    exe <- cli_path()
    d <- fresh_dir()
    f <- path_graph(file.path(d, "g.tsv"), 200)
    out <- file.path(d, "clusters.tsv")
    writeLines("earlier results", out)
    full <- file.path(d, "full") # a private copy of /dev/full: every write fails
    expect_equal(system2("mknod", c(shQuote(full), "c", "1", "7")), 0)
    got <- run_sh(paste(shQuote(exe), "-o", shQuote(out), "--cluster-table", shQuote(full),
                        shQuote(f)))
    expect_equal(got$status, 4)
    expect_match(paste(got$err, collapse = "\n"), "full", fixed = TRUE)
    expect_identical(readLines(out), "earlier results")
    expect_setequal(list.files(d, all.files = TRUE, no.. = TRUE),
                    c("g.tsv", "clusters.tsv", "full"))
    # and the other way round: clusters into the full device, the table kept
    tab <- file.path(d, "table.tsv")
    writeLines("earlier table", tab)
    got <- run_sh(paste(shQuote(exe), "-o", shQuote(full), "--cluster-table", shQuote(tab),
                        shQuote(f)))
    expect_equal(got$status, 4)
    expect_identical(readLines(tab), "earlier table")
})

test_that("the command line refuses at once what cannot work, and creates missing folders", {
    skip_on_os("windows")
    exe <- cli_path()
    d <- fresh_dir()
    f <- path_graph(file.path(d, "g.tsv"), 20)
    # -o '' before any work
    got <- run_sh(paste(shQuote(exe), "-v -o ''", shQuote(f)))
    expect_equal(got$status, 2)
    expect_match(paste(got$err, collapse = "\n"), "--out needs a file name", fixed = TRUE)
    expect_false(any(grepl("reading", got$err)))
    # an option given twice
    got <- run_sh(paste(shQuote(exe), "--threads 1 --threads 2", shQuote(f)))
    expect_equal(got$status, 2)
    expect_match(paste(got$err, collapse = "\n"), "--threads given twice", fixed = TRUE)
    got <- run_sh(paste(shQuote(exe), "-d --mode undirected", shQuote(f)))
    expect_equal(got$status, 2)
    got <- run_sh(paste(shQuote(exe), "-o a.tsv --out b.tsv", shQuote(f)))
    expect_equal(got$status, 2)
    expect_false(file.exists("a.tsv") || file.exists("b.tsv"))
    # missing folders above -o and --cluster-table are created
    out <- file.path(d, "new", "sub", "out.tsv")
    tab <- file.path(d, "other", "table.tsv")
    got <- run_sh(paste(shQuote(exe), "-o", shQuote(out), "--cluster-table", shQuote(tab),
                        shQuote(f)))
    expect_equal(got$status, 0)
    expect_length(readLines(out), 21)
    expect_true(file.exists(tab))
    # a trailing slash names a folder: refused, nothing created
    got <- run_sh(paste(shQuote(exe), "-o", shQuote(file.path(d, "g.tsv/")), shQuote(f)))
    expect_false(got$status == 0)
    expect_length(readLines(f), 20)
    # --help into a full device fails
    if (Sys.info()[["effective_user"]] == "root") {
        full <- file.path(d, "full")
        expect_equal(system2("mknod", c(shQuote(full), "c", "1", "7")), 0)
        got <- run_sh(paste(shQuote(exe), "--help >", shQuote(full)))
        expect_equal(got$status, 4)
        got <- run_sh(paste(shQuote(exe), "--version >", shQuote(full)))
        expect_equal(got$status, 4)
    }
})

test_that("temporary files that killed runs left beside the output are removed, never a live run's", {
    skip_on_os("windows")
    skip_if(Sys.which("flock") == "", "no flock command")
    exe <- cli_path()
    d <- fresh_dir()
    f <- path_graph(file.path(d, "g.tsv"), 30)
    out <- file.path(d, "out.tsv")
    old <- function(name) {
        p <- file.path(d, name)
        writeLines("partial", p)
        Sys.setFileTime(p, Sys.time() - 3600)
        p
    }
    dead <- old("out.tsv.tmp-Ab12cd")    # a killed run's: removed
    odd <- old("out.tsv.tmp-Ab12c")      # not a writer's name: kept
    other <- old("other.tsv.tmp-Ab12cd") # beside another output: kept
    recent <- file.path(d, "out.tsv.tmp-zz99zz") # just written: kept
    writeLines("partial", recent)
    locked <- old("out.tsv.tmp-LOCKED")  # a live run holds its lock: kept
    holder <- processx_like_lock(locked)
    on.exit(tools::pskill(holder), add = TRUE)
    link <- file.path(d, "out.tsv.tmp-LINK00") # a link is not followed
    file.symlink(f, link)
    got <- run_sh(paste(shQuote(exe), "--seed 1 -o", shQuote(out), shQuote(f)))
    expect_equal(got$status, 0)
    expect_false(file.exists(dead))
    expect_true(all(file.exists(c(odd, other, recent, locked, f))))
    expect_identical(Sys.readlink(link), f)
    expect_length(readLines(out), 31)
    expect_length(readLines(f), 30)
})

test_that("a pipeline can fail on empty input (--fail-empty), and self hits alone are named", {
    skip_on_os("windows")
    exe <- cli_path()
    d <- fresh_dir()
    empty <- file.path(d, "empty.m8")
    file.create(empty)
    out <- file.path(d, "out.tsv")
    got <- run_sh(paste(shQuote(exe), "--format blast --fail-empty -o", shQuote(out),
                        shQuote(empty)))
    expect_equal(got$status, 3)
    expect_match(paste(got$err, collapse = "\n"), "--fail-empty", fixed = TRUE)
    expect_false(file.exists(out))
    got <- run_sh(paste(shQuote(exe), "--format blast -o", shQuote(out), shQuote(empty)))
    expect_equal(got$status, 0)
    expect_true(file.exists(out))
    # a search output of self hits only: the warning says they were dropped
    self <- file.path(d, "self.m8")
    writeLines(c("p1\tp1\t100\t50\t0\t0\t1\t50\t1\t50\t1e-30\t100",
                 "p2\tp2\t100\t60\t0\t0\t1\t60\t1\t60\t1e-35\t120"), self)
    got <- run_sh(paste(shQuote(exe), "--format blast", shQuote(self)))
    expect_equal(got$status, 0)
    expect_length(got$out, 2)
    expect_match(paste(got$err, collapse = "\n"), "self hits (edges from a node to itself) were dropped",
                 fixed = TRUE)
    got <- run_sh(paste(shQuote(exe), "--format blast --fail-empty", shQuote(self)))
    expect_equal(got$status, 3)
    expect_match(paste(got$err, collapse = "\n"), "only self hits", fixed = TRUE)
    expect_length(got$out, 0)
})

test_that("a FIFO that no writer has opened yet is waited for, and SIGTERM stops the wait", {
    skip_on_os("windows")
    exe <- cli_path()
    d <- fresh_dir()
    fifo <- file.path(d, "nobody.fifo")
    expect_equal(system2("mkfifo", shQuote(fifo)), 0)
    tmp <- file.path(d, "tmp")
    dir.create(tmp)
    # the run waits in its read (not in open()), so SIGTERM ends it with 130
    got <- run_sh(paste0(shQuote(exe), " --tempdir ", shQuote(tmp), " ", shQuote(fifo),
                         " & p=$!; sleep 1; kill -TERM $p; wait $p; echo status=$?"),
                  timeout = 20)
    expect_true("status=130" %in% got$out)
    expect_length(list.files(tmp, all.files = TRUE, no.. = TRUE), 0)
    # a writer that comes later is read whole
    f <- path_graph(file.path(d, "g.tsv"), 100)
    got <- run_sh(paste0("(sleep 1; cat ", shQuote(f), " > ", shQuote(fifo), ") & ",
                         shQuote(exe), " --seed 1 ", shQuote(fifo)), timeout = 30)
    expect_equal(got$status, 0)
    expect_length(got$out, 101)
})
