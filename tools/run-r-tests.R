# Run the testthat suite against the installed package and print one plain
# summary line "N passed, N failed, N skipped" (counted per test_that block).
# Exits non-zero when any test failed or errored.
#
# The files run in EXOLABEL_TEST_JOBS forked workers (default: the cores,
# at most 4), the longest first (`first`), each file's report printed whole
# when it ends. Every file runs in a fresh fork of this session, so no file
# sees another's state, as with test_dir's own isolation.
suppressPackageStartupMessages({
    library(testthat)
    library(ExoLabel)
    library(parallel)
})
jobs <- as.integer(Sys.getenv("EXOLABEL_TEST_JOBS",
                              min(4L, max(1L, detectCores(logical = FALSE), na.rm = TRUE))))
if (is.na(jobs) || jobs < 1L) jobs <- 1L
files <- list.files("tests/testthat", pattern = "^test.*\\.[rR]$", full.names = TRUE)
first <- c("semantics", "options-parity", "faults", "estimate-measured", "leiden")
rank <- match(sub("^test-(.*)\\.[rR]$", "\\1", basename(files)), first)
files <- files[order(is.na(rank), rank, files)]
run_one <- function(f) {
    res <- NULL
    out <- utils::capture.output(
        res <- testthat::test_file(f, package = "ExoLabel", load_package = "installed",
                                   stop_on_failure = FALSE,
                                   reporter = testthat::ProgressReporter$new(show_praise = FALSE)),
        type = "output")
    list(out = out, df = as.data.frame(res))
}
done <- mclapply(files, function(f) {
    r <- tryCatch(run_one(f), error = function(e)
        list(out = paste("error running", f, ":", conditionMessage(e)), df = NULL))
    cat(r$out, sep = "\n")
    r
}, mc.cores = jobs, mc.preschedule = FALSE)
broken <- vapply(done, function(r) inherits(r, "try-error") || is.null(r$df), logical(1))
df <- do.call(rbind, lapply(done[!broken], function(r) r$df))
bad <- df$failed > 0 | df$error
skipped <- !bad & df$skipped
passed <- !bad & !skipped
cat(sprintf("\ntestthat: %d passed, %d failed, %d skipped (%d files, %d jobs)\n", sum(passed),
            sum(bad) + sum(broken), sum(skipped), length(files), jobs))
if (any(bad) || any(broken)) {
    if (any(broken)) cat("did not run:", basename(files[broken]), "\n")
    cat("failed:", paste(df$file[bad], df$test[bad], sep = ": ", collapse = "\n        "), "\n")
    quit(status = 1)
}
