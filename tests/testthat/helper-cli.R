# The command-line tool (make cli) for the tests that compare it with the R
# function. `make test` sets EXOLABEL_CLI to the binary it built; elsewhere
# these tests are skipped.

cli_path <- function() {
    p <- Sys.getenv("EXOLABEL_CLI")
    if (!nzchar(p) || !file.exists(p)) skip("EXOLABEL_CLI not set (run through make test)")
    p
}

run_cli <- function(args, stdin = "") {
    out <- tempfile()
    err <- tempfile()
    status <- system2(cli_path(), args, stdout = out, stderr = err, stdin = stdin)
    res <- list(status = status, out = readBin(out, "raw", file.size(out)),
                err = readLines(err))
    unlink(c(out, err))
    res
}

