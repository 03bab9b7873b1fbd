# Rscript benchmarks/quality/leiden_reuse.R --old OLD_EXOLABEL --new NEW_EXOLABEL
#     --exogen BUILD/exogen --ssn SSN_DIR --work DIR [--out benchmarks/quality/leiden_reuse.csv]
# Issue 59: Leiden's default call (2 rounds) of two command-line builds side
# by side, to judge a change of the rounds' rule (the reuse of a round's
# coarse levels, src/core/exo_leiden.h "Reuse") on quality:
# - the planted and LFR graphs of `make quality --scale full` that igraph
#   runs on (graphs.R: 10^4 nodes with seeds 1..3, 10^5 with seed 1),
#   weighted and unweighted (--ignore-weights), `--algorithm leiden`
#   (modularity): modularity (the tool's leiden_quality) and NMI against the
#   planted communities;
# - the real protein sets whose searches SSN_DIR holds (SET/SEARCH.m8 with
#   SET/truth.tsv, as benchmarks/ssn/real.sh leaves them), the protein
#   default `--format blast` (Leiden CPM, resolution auto): family and
#   superfamily ARI, pair precision and recall (benchmarks/ssn/scores.R).
# One row per (case, build): quality figures and the clustering stage's
# seconds. The summary printed at the end: the largest differences.
suppressPackageStartupMessages({library(ExoLabel); library(data.table)})
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "graphs.R"))
source(file.path(here, "..", "ssn", "scores.R"))
builds <- c(old = opt("old", NA), new = opt("new", NA))
exogen <- opt("exogen", "build/exogen")
ssn <- opt("ssn", NA)
work <- opt("work", tempfile("leiden_reuse"))
out <- opt("out", "benchmarks/quality/leiden_reuse.csv")
dir.create(work, recursive = TRUE, showWarnings = FALSE)

# run BUILD ARGS: the clusters (data.table Vertex, Cluster) and --stats
run_cli <- function(exe, args) {
    clusters <- file.path(work, "clusters.tsv")
    log <- file.path(work, "stats.txt")
    st <- system2(exe, c("--threads", "2", "--seed", "1", "--stats", args, "-o", clusters),
                  stdout = FALSE, stderr = log)
    if (st != 0) stop(exe, " failed: ", paste(args, collapse = " "))
    s <- fread(log, header = FALSE, sep = "\t", fill = TRUE, col.names = c("k", "v"))
    list(cl = fread(clusters, header = FALSE, col.names = c("Vertex", "Cluster"), sep = "\t",
                    colClasses = "character"),
         stat = function(k) as.numeric(s$v[s$k == k][1]))
}

rows <- list()
grid <- quality_grid("full")
grid <- grid[grid$igraph, ]
for (i in seq_len(nrow(grid))) {
    g <- grid[i, ]
    files <- generate_graph(g, exogen, work)
    truth <- read_planted(files)
    for (view in c("weighted", "unweighted")) {
        for (b in names(builds)) {
            r <- run_cli(builds[[b]], c("--algorithm", "leiden",
                                        if (view == "unweighted") "--ignore-weights", files$edges))
            tr <- truth$Cluster[match(r$cl$Vertex, truth$Vertex)]
            rows[[length(rows) + 1L]] <- data.table(
                case = sprintf("%s n=%g mu=%.2f seed %d %s", g$family, g$nodes, g$mixing, g$seed,
                               view), build = b, measure = c("modularity", "nmi"),
                value = c(r$stat("leiden_quality"), ClusterNMI(r$cl$Cluster, tr)),
                seconds = r$stat("seconds_cluster"))
        }
    }
}
if (!is.na(ssn)) {
    for (m8 in sort(Sys.glob(file.path(ssn, "*", "*.m8")))) {
        setdir <- dirname(m8)
        if (!file.exists(file.path(setdir, "truth.tsv"))) next
        truth <- read_truth(file.path(setdir, "truth.tsv"))
        levels <- truth_levels(truth)
        for (b in names(builds)) {
            r <- run_cli(builds[[b]], c("--format", "blast", m8))
            sc <- score_levels(truth, r$cl$Vertex, r$cl$Cluster, levels)
            rows[[length(rows) + 1L]] <- data.table(
                case = sprintf("%s %s blast default", basename(setdir),
                               sub("\\.m8$", "", basename(m8))),
                build = b, measure = names(sc), value = unname(sc),
                seconds = r$stat("seconds_cluster"))
        }
    }
}
res <- rbindlist(rows)
fwrite(res, out)
w <- dcast(res, case + measure ~ build, value.var = "value")
w[, diff := new - old]
cat(sprintf("%d cases, %d figures; identical: %d; new higher: %d; new lower: %d\n",
            uniqueN(w$case), nrow(w), sum(w$diff == 0), sum(w$diff > 0), sum(w$diff < 0)))
for (m in unique(w$measure)) {
    x <- w[measure == m]
    cat(sprintf("%-16s n %3d  mean diff %+.5f  min %+.5f  max %+.5f\n", m, nrow(x),
                mean(x$diff), min(x$diff), max(x$diff)))
}
cat("largest drops:\n")
print(head(w[order(diff)], 8))
secs <- dcast(unique(res[, .(case, build, seconds)]), case ~ build, value.var = "seconds")
cat(sprintf("clustering seconds, sum over cases: old %.1f, new %.1f\n", sum(secs$old),
            sum(secs$new)))
