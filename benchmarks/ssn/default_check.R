# Rscript default_check.R SETDIR SEARCH OUT.csv [SEEDS]
# The package's default for search output, ExoLabel(SETDIR/SEARCH.m8,
# format = "blast") with nothing else (threads from THREADS, default 1),
# seeds 1..SEEDS (default 5), scored against SETDIR/truth.tsv by scores.R;
# one row per seed appended to OUT.csv in norm_grid.R's layout (candidate
# "pkg_default", gamma = the resolution the package reports). Used to check
# that the wired default gives the figures norm_grid.R prototyped in R
# (benchmarks/SSN.md, issue 25). Not part of make ssn-bench (real.sh's
# blast_default setting runs the same call there).
suppressPackageStartupMessages({library(ExoLabel); library(data.table)})
args <- commandArgs(trailingOnly = TRUE)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "scores.R"))
setdir <- args[1]; search <- args[2]; outcsv <- args[3]
nseed <- if (length(args) >= 4) as.integer(args[4]) else 5L
threads <- as.integer(Sys.getenv("THREADS", "1"))
m8 <- file.path(setdir, paste0(search, ".m8"))
truth <- read_truth(file.path(setdir, "truth.tsv"))
levels <- truth_levels(truth)
setname <- basename(normalizePath(setdir))
for (sd in seq_len(nseed)) {
    set.seed(sd)
    t0 <- proc.time()[["elapsed"]]
    r <- ExoLabel(m8, format = "blast", threads = threads, return_table = TRUE)
    secs <- proc.time()[["elapsed"]] - t0
    sc <- score_levels(truth, r$results$Vertex, r$results$Cluster, levels)
    row <- data.table(set = setname, search = search, candidate = "pkg_default", kind = "exo",
                      seed = sd, seconds = round(secs, 3), proteins = nrow(truth),
                      gamma = signif(unname(r$parameters[["resolution"]]), 6), t(round(sc, 6)))
    if (!"superfamily_ari" %in% names(row))
        row[, `:=`(superfamily_ari = NA_real_, superfamily_prec = NA_real_,
                   superfamily_rec = NA_real_, superfamily_nmi = NA_real_)]
    setcolorder(row, c("set", "search", "candidate", "kind", "seed", "seconds", "proteins", "gamma",
                       paste0(rep(c("family", "superfamily"), each = 4),
                              c("_ari", "_prec", "_rec", "_nmi"))))
    fwrite(row, outcsv, append = file.exists(outcsv))
    cat(sprintf("  %s %s seed %d: gamma %.4g family ARI %.3f%s\n", setname, search, sd,
                row$gamma, sc[["family_ari"]],
                if ("superfamily_ari" %in% names(sc)) sprintf(" sf %.3f", sc[["superfamily_ari"]])
                else ""))
}
