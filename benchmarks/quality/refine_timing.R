# Run time of refine = TRUE (the default) against refine = 0: separate ExoLabel() calls
# on the same file (whole call: read, sort, cluster, write), alternating,
# median of 3 each.
#   Rscript benchmarks/quality/refine_timing.R EXOGEN WORKDIR [nodes]
a <- commandArgs(TRUE)
suppressMessages(library(ExoLabel))
n <- if (length(a) >= 3) as.numeric(a[3]) else 1e5
dir.create(a[2], showWarnings = FALSE, recursive = TRUE)
f <- file.path(a[2], "timing.tsv")
system2(a[1], c("--nodes", format(n, scientific = FALSE), "--edges", format(10 * n, scientific = FALSE),
                "--mixing", 0.6, "--min-comm", 20, "--max-comm", min(n / 20, 1000),
                "--seed", 1, "--out", f, "--quiet"))
t <- matrix(NA, 3, 2, dimnames = list(NULL, c("refine=0", "refine=TRUE")))
for (i in 1:3) for (j in 1:2) {
    set.seed(i)
    t[i, j] <- system.time(ExoLabel(f, refine = j == 2, threads = 1, verbose = FALSE,
                                    tempfiledir = a[2]))[["elapsed"]]
}
unlink(f)
med <- apply(t, 2, stats::median)
cat(sprintf("nodes %g, mixing 0.6, weighted: median seconds refine=0 %.2f, refine=TRUE %.2f, ratio %.2f (runs: %s)\n",
            n, med[1], med[2], med[2] / med[1], paste(sprintf("%.2f/%.2f", t[, 1], t[, 2]), collapse = " ")))
