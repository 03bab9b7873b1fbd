# Nested levels (issue 57) against independent runs at the same resolutions:
# Rscript benchmarks/ssn/nested_levels.R HITS TRUTH RES1,RES2,... [THREADS [FORMAT]]
# HITS: search output (FORMAT blast, the default) or an edge list (FORMAT
# edges: a planted graph); TRUTH: protein<TAB>family<TAB>superfamily
# with a header (benchmarks/ssn/real.sh writes both). For every resolution (Leiden,
# CPM, the selfnorm weights of format = "blast"): the independent run's and the
# nested run's number of clusters and ARI against the family and the superfamily
# truth (proteins of the truth only), and the seconds of each; one line per level.
suppressPackageStartupMessages(library(ExoLabel))
a <- commandArgs(TRUE)
hits <- a[1]
truth <- utils::read.delim(a[2], colClasses = "character")
res <- as.numeric(strsplit(a[3], ",")[[1]])
threads <- if (length(a) >= 4) as.integer(a[4]) else 2L
fmt <- if (length(a) >= 5) a[5] else "blast"
score <- function(v, cl) {
    m <- match(truth$protein, v)
    keep <- !is.na(m)
    # proteins without a hit: their own cluster
    found <- ifelse(keep, paste0("c", cl[m]), paste0("s", truth$protein))
    c(ari_family = ClusterARI(truth$family, found), ari_superfamily = ClusterARI(truth$superfamily, found))
}
run <- function(...) {
    set.seed(1)
    t0 <- proc.time()[["elapsed"]]
    r <- ExoLabel(hits, format = fmt, algorithm = "leiden", objective = "CPM",
                  return_table = TRUE, verbose = FALSE, threads = threads, ...)
    list(r = r, seconds = proc.time()[["elapsed"]] - t0)
}
rows <- list()
ind_seconds <- 0
for (g in res) {
    x <- run(resolution = g)
    ind_seconds <- ind_seconds + x$seconds
    rows[[length(rows) + 1]] <- data.frame(mode = "independent", resolution = g,
        clusters = length(unique(x$r$results$Cluster)),
        t(score(x$r$results$Vertex, x$r$results$Cluster)), seconds = x$seconds)
}
x <- run(resolution = res, nested = TRUE)
tab <- x$r$results
for (j in seq_along(res)) {
    cl <- tab[[paste0("Cluster", j)]]
    rows[[length(rows) + 1]] <- data.frame(mode = "nested", resolution = res[j],
        clusters = length(unique(cl)), t(score(tab$Vertex, cl)),
        seconds = if (j == 1) x$seconds else NA)
}
# nesting holds: every cluster of a finer level inside one of each coarser one
o <- order(-res)
ok <- all(vapply(seq_len(length(res) - 1), function(k) {
    f <- tab[[paste0("Cluster", o[k])]]
    c <- tab[[paste0("Cluster", o[k + 1])]]
    all(tapply(c, f, function(z) length(unique(z))) == 1L)
}, logical(1)))
out <- do.call(rbind, rows)
out[, 4:5] <- round(out[, 4:5], 4)
print(out, row.names = FALSE)
cat(sprintf("nesting holds: %s; independent runs: %.1f s in all (%d graph builds); nested: %.1f s (one build)\n",
            ok, ind_seconds, length(res), x$seconds))
