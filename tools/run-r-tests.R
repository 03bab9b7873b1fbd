# Run the testthat suite against the installed package and print one plain
# summary line "N passed, N failed, N skipped" (counted per test_that block).
# Exits non-zero when any test failed or errored.
suppressPackageStartupMessages({
    library(testthat)
    library(ExoLabel)
})
res <- testthat::test_dir("tests/testthat", package = "ExoLabel",
                          load_package = "installed", stop_on_failure = FALSE,
                          reporter = testthat::ProgressReporter$new(show_praise = FALSE))
df <- as.data.frame(res)
bad <- df$failed > 0 | df$error
skipped <- !bad & df$skipped
passed <- !bad & !skipped
cat(sprintf("\ntestthat: %d passed, %d failed, %d skipped\n", sum(passed), sum(bad), sum(skipped)))
if (any(bad)) {
    cat("failed:", paste(df$file[bad], df$test[bad], sep = ": ", collapse = "\n        "), "\n")
    quit(status = 1)
}
