# Rscript real_cpm_grid.R SETDIR SEARCH... : a side experiment behind the
# swissprot_ec notes in benchmarks/ssn/notes.md (not part of make ssn-bench).
# For each search output SETDIR/SEARCH.m8 of a real set (made by real.sh),
# prints the graph's mean node strength and the gamma of resolution = "auto"
# (5e-5 x that, computed as in cluster_exolabel.R's cpm_strength), then
# family/superfamily ARI and family pair precision/recall (scores.R) of
# ExoLabel Leiden CPM at fixed resolutions (RESOLUTIONS, default
# "0.03 0.1 0.3 3 10"; seed 1, threads 2).
suppressPackageStartupMessages({library(ExoLabel); library(data.table)})
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "scores.R"))
args <- commandArgs(trailingOnly = TRUE)
d <- args[1]
truth <- read_truth(file.path(d, "truth.tsv"))
res <- as.numeric(strsplit(Sys.getenv("RESOLUTIONS", "0.03 0.1 0.3 3 10"), " +")[[1]])
for (s in args[-1]) {
    f <- file.path(d, paste0(s, ".m8"))
    h <- fread(f, sep = "\t", header = FALSE, select = c(1L, 2L, 11L),
               col.names = c("q", "s", "e"), colClasses = list(character = 1:2))
    n <- length(unique(c(h$q, h$s)))
    h <- h[q != s][, w := pmin(-log10(e), 200)][, `:=`(a = pmin(q, s), b = pmax(q, s))]
    W <- sum(h[, .(w = max(w)), by = .(a, b)]$w)
    cat(sprintf("%s: %d proteins in the graph, mean strength %.1f, auto gamma %.4f\n",
                s, n, 2 * W / n, 5e-5 * 2 * W / n))
    for (r in res) {
        set.seed(1); o <- tempfile()
        ExoLabel(f, outfile = o, format = "blast", algorithm = "leiden", objective = "CPM",
                 resolution = r, threads = 2)
        cl <- fread(o, sep = "\t", header = FALSE, col.names = c("Vertex", "Cluster"),
                    colClasses = "character")
        unlink(o)
        sc <- score_levels(truth, cl$Vertex, cl$Cluster, c("family", "superfamily"))
        cat(sprintf("  CPM %g: family ARI %.3f (prec %.3f, rec %.3f), superfamily ARI %.3f\n",
                    r, sc[["family_ari"]], sc[["family_prec"]], sc[["family_rec"]], sc[["superfamily_ari"]]))
    }
}
