# Rscript cluster_exolabel.R SEARCH_OUTPUT SETTING OUT.tsv THREADS
# One ExoLabel clustering of a raw 12-column search output (DIAMOND/MMseqs2
# tabular), in its own R process so that GNU time measures it alone. Writes
# the clusters (Vertex, Cluster) to OUT.tsv and prints the elapsed seconds of
# the ExoLabel() call itself (without R's start-up) on stdout.
# Every run uses seed 1 (SEED in the environment), memory_limit "256MB" (the default, unless the
# setting says otherwise) and the given threads; SETTINGS below are the settings compared in benchmarks/SSN.md.
# A setting without `algorithm` is label propagation (format = "blast" alone
# now runs Leiden CPM at resolution "auto": the setting `auto`), except
# `blast_default`: `ExoLabel(f, format = "blast")` with nothing else but
# outfile and threads, whatever the package's default is.
suppressPackageStartupMessages(library(ExoLabel))
args <- commandArgs(trailingOnly = TRUE)
stopifnot(length(args) == 4L)
input <- args[1]; setting <- args[2]; out <- args[3]; threads <- as.integer(args[4])
SETTINGS <- list(
    default     = list(),
    blast_default = list(),
    attenuation = list(attenuation = TRUE),
    refine      = list(refine = TRUE),
    bitscore    = list(columns = c(1, 2, 12), weight_transform = "none"),
    bitscore_att_refine = list(columns = c(1, 2, 12), weight_transform = "none",
                               attenuation = TRUE, refine = TRUE),
    att_refine  = list(attenuation = TRUE, refine = TRUE),
    bitscore_32MB = list(columns = c(1, 2, 12), weight_transform = "none",
                         memory_limit = "32MB"),
    res0        = list(resolution = 0),
    bitscore_res0 = list(columns = c(1, 2, 12), weight_transform = "none",
                         resolution = 0),
    bitscore_res0_32MB = list(columns = c(1, 2, 12), weight_transform = "none",
                              resolution = 0, memory_limit = "32MB"),
    bitscore_refine = list(columns = c(1, 2, 12), weight_transform = "none", refine = TRUE),
    bitscore_refine_32MB = list(columns = c(1, 2, 12), weight_transform = "none", refine = TRUE,
                                memory_limit = "32MB"),
    cpm         = list(algorithm = "leiden", objective = "CPM", resolution = 1),
    auto        = list(algorithm = "leiden", objective = "CPM", resolution = "auto"),
    cpm_32MB    = list(algorithm = "leiden", objective = "CPM", resolution = 1,
                       memory_limit = "32MB"),
    leiden      = list(algorithm = "leiden"),
    bitscore_leiden = list(columns = c(1, 2, 12), weight_transform = "none",
                           algorithm = "leiden")
)
# cpm_strength: the candidate default of issue 25 (benchmarks/ssn/notes.md),
# prototyped in R: Leiden CPM at gamma = 5e-5 * mean node strength (2W / n,
# the format's weights, W their total over the distinct pairs, n the
# proteins in the file). Computing gamma reads the file once more in R
# (data.table), which counts in the time; a core version would take 2W from
# the graph it builds.
if (setting == "cpm_strength") {
    suppressPackageStartupMessages(library(data.table))
    h <- fread(input, sep = "\t", header = FALSE, select = c(1L, 2L, 11L),
               col.names = c("q", "s", "evalue"), colClasses = list(character = 1:2))
    n <- length(unique(c(h$q, h$s)))
    h <- h[q != s][, w := pmin(-log10(evalue), 200)][, `:=`(a = pmin(q, s), b = pmax(q, s))]
    W <- sum(h[, .(w = max(w)), by = .(a, b)]$w)
    SETTINGS$cpm_strength <- list(algorithm = "leiden", objective = "CPM",
                                  resolution = 5e-5 * 2 * W / n)
}
if (!setting %in% names(SETTINGS)) stop("unknown setting ", setting)
set.seed(as.integer(Sys.getenv("SEED", "1")))
t0 <- proc.time()[["elapsed"]]
opts <- SETTINGS[[setting]]
if (is.null(opts$algorithm) && setting != "blast_default") opts$algorithm <- "lp"
# the settings above were defined on e-value weights, the format's default
# until the issue-25 default (bit scores over self scores): they keep them
if (is.null(opts$weight_transform) && setting != "blast_default")
    opts$weight_transform <- "neglog10"
res <- do.call(ExoLabel, c(list(input, outfile = out, format = "blast",
                                threads = threads), opts))
cat(sprintf("%.3f\n", proc.time()[["elapsed"]] - t0))
