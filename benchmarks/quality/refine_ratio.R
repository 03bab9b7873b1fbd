# The merge threshold of `refine` (issue 25, item 3; benchmarks/quality/DEFAULT.md,
# "The merge threshold"): label propagation with `refine = k` passes at several
# thresholds `ratio` (a cluster C may join D* when x(C, D*) >= ratio in(C)),
# on the cases of general_default_real.R and general_default_planted.R.
# The threshold is not an option: a build with
# benchmarks/quality/refine_ratio_experiment.patch reads it from the
# environment variable EXO_EXP_RATIO; without the patch every row is the
# built default (EXO_REFINE_RATIO), whatever its label says.
#   Rscript refine_ratio.R OUT.csv real RATIOS PASSES
#   Rscript refine_ratio.R OUT.csv NODES RATIOS PASSES MIXINGS SEEDS WORK EXOGEN
#   e.g. ... out.csv 1e4 0.3,0.15,0.1 5 0.5,0.6,0.7,0.75 1,2,3 /tmp/w1e4 build/exogen
# Rows: case,view,seed,method,nmi,k,cpu_s (NA),elapsed_s; the graphs and the
# seeds are those of the two general_default scripts, so the rows compare
# with benchmarks/quality/general_default.csv (refine_ratio_summary.R).
suppressPackageStartupMessages({library(ExoLabel); library(igraph); library(igraphdata)})
args <- commandArgs(TRUE); out <- args[1]; what <- args[2]
ratios <- as.numeric(strsplit(args[3], ",")[[1]]); passes <- as.integer(strsplit(args[4], ",")[[1]])
nmi <- function(a, b) compare(as.integer(factor(a)), as.integer(factor(b)), method = "nmi")
emit <- function(d) write.table(d, out, append = file.exists(out), col.names = !file.exists(out), sep = ",", row.names = FALSE, quote = TRUE)
run <- function(case, view, s, f, vx, tr, seedfun, ...) {
  for (r in ratios) for (p in passes) {
    Sys.setenv(EXO_EXP_RATIO = r); seedfun()
    t0 <- proc.time()
    v <- ExoLabel(f, return_table = TRUE, verbose = FALSE, refine = p, ...)
    el <- (proc.time() - t0)[["elapsed"]]
    m <- v$results$Cluster[match(vx, v$results$Vertex)]
    emit(data.frame(case = case, view = view, seed = s, method = sprintf("refine=%d ratio=%g", p, r),
                    nmi = round(nmi(m, tr), 4), k = length(unique(m)), cpu_s = NA, elapsed_s = round(el, 2)))
  }
}
if (what == "real") {
  data(karate, package = "igraphdata"); data(UKfaculty, package = "igraphdata")
  uk <- as.undirected(UKfaculty, mode = "collapse", edge.attr.comb = list(weight = "sum"))
  graphs <- list(karate = list(g = karate, truth = V(karate)$Faction), UKfaculty = list(g = uk, truth = V(uk)$Group))
  for (nm in names(graphs)) {
    g <- graphs[[nm]]$g; tr <- graphs[[nm]]$truth; f <- tempfile(fileext = ".tsv")
    write.table(data.frame(as_edgelist(g, names = FALSE), E(g)$weight), f, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
    for (s in 1:9) run(nm, "weighted", s, f, as.character(seq_len(vcount(g))), tr, function() set.seed(s))
  }
} else {
  n <- as.numeric(what); mixes <- as.numeric(strsplit(args[5], ",")[[1]]); seeds <- as.integer(strsplit(args[6], ",")[[1]]); work <- args[7]; exogen <- args[8]
  for (mu in mixes) for (s in seeds) {
    stem <- file.path(work, sprintf("planted_n%g_mu%.2f_s%d", n, mu, s)); f <- paste0(stem, ".tsv"); tf <- paste0(stem, ".truth")
    if (!file.exists(f)) system2(exogen, c("--nodes", format(n, scientific = FALSE), "--edges", format(10 * n, scientific = FALSE),
      "--mixing", mu, "--min-comm", 20, "--max-comm", min(n / 20, 1000), "--seed", s, "--out", f, "--truth", tf, "--quiet"))
    truth <- read.table(tf, sep = "\t", col.names = c("Vertex", "Cluster"), colClasses = "character")
    vx <- truth$Vertex; tr <- truth$Cluster
    for (view in c("weighted", "unweighted"))
      run(sprintf("planted n=%g mu=%.2f", n, mu), view, s, f, vx, tr, function() set.seed(1000 * s + round(100 * mu)),
          ignore_weights = view == "unweighted", tempfiledir = work, memory_limit = "1GB", threads = 1)
  }
}
