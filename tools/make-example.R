# Writes inst/extdata/example_edges.tsv(.gz) and example_truth.tsv: a small
# protein-similarity-like graph with 6 planted families of 15 to 60 members.
# Run from the package root: Rscript tools/make-example.R
set.seed(20261122)
sizes <- c(60, 45, 35, 25, 20, 15)
fam <- rep(seq_along(sizes), sizes)
n <- length(fam)
ids <- sprintf("%s_%05d", sample(c("PF", "PA", "PB", "PZ"), n, TRUE), sample(1e5, n))
stopifnot(!anyDuplicated(ids))
edges <- list()
for (i in seq_len(n)) {
    same <- which(fam == fam[i] & seq_len(n) > i)
    keep <- same[runif(length(same)) < 0.35]
    if (length(keep)) edges[[length(edges) + 1]] <- data.frame(a = i, b = keep,
        w = round(runif(length(keep), 0.55, 1), 3))
    other <- which(fam != fam[i] & seq_len(n) > i)
    cross <- other[runif(length(other)) < 0.004]
    if (length(cross)) edges[[length(edges) + 1]] <- data.frame(a = i, b = cross,
        w = round(runif(length(cross), 0.05, 0.4), 3))
}
e <- do.call(rbind, edges)
e <- e[sample(nrow(e)), ]
dir.create("inst/extdata", recursive = TRUE, showWarnings = FALSE)
lines <- paste(ids[e$a], ids[e$b], format(e$w, nsmall = 3, trim = TRUE), sep = "\t")
writeLines(lines, "inst/extdata/example_edges.tsv")
con <- gzfile("inst/extdata/example_edges.tsv.gz", "w")
writeLines(lines, con)
close(con)
writeLines(paste(ids, fam, sep = "\t"), "inst/extdata/example_truth.tsv")
cat(nrow(e), "edges,", n, "nodes\n")
