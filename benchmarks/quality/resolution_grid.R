# The volume-penalty (resolution) grid of benchmarks/QUALITY.md, run through
# the command-line tool (which writes the R function's bytes for a seed):
#
#   EXOGEN=BUILD/exogen WORK=DIR NODES=1e4 MIX=0.1,0.5,0.7 SEEDS=1,2,3 IGRAPH=1 \
#     Rscript benchmarks/quality/resolution_grid.R BUILD/exolabel out.csv \
#       "--resolution 0" "--resolution 1" "--resolution 1 --refine 5"
#
# Each remaining argument is one ExoLabel variant (CLI options). Graphs are
# those of run.R (exogen, mean degree 20, communities of 20..min(N/20, 1000),
# planted and LFR), both views (w = weighted, u = --ignore-weights), seed
# 1000 * seed + 100 * mixing as in run.R; with IGRAPH=1 igraph's
# cluster_label_prop and cluster_leiden (modularity) on the same graph
# (cached per graph in WORK). One CSV row per (graph, view, method): NMI
# against the planted truth, clusters, giant = largest cluster / largest
# planted community, seconds (the whole CLI call; igraph: NA).
# resolution_summary.R prints the tables of QUALITY.md from the CSV files.
suppressPackageStartupMessages({library(ExoLabel); library(igraph)})
a <- commandArgs(TRUE)
bin <- a[1]; out <- a[2]; variants <- a[-(1:2)]
ev <- function(n, d) { x <- Sys.getenv(n, d); strsplit(x, ",")[[1]] }
nodes <- as.numeric(ev("NODES", "1e4")); mixes <- as.numeric(ev("MIX", "0.1,0.3,0.5,0.6,0.7"))
fams <- ev("FAM", "planted,lfr"); seeds <- as.integer(ev("SEEDS", "1")); views <- ev("VIEWS", "w,u")
doig <- Sys.getenv("IGRAPH", "0") == "1"
work <- Sys.getenv("WORK", tempfile("resgrid")); dir.create(work, FALSE, TRUE)
exogen <- Sys.getenv("EXOGEN", "build/exogen")
rows <- list()
for (n in nodes) for (fam in fams) for (mu in mixes) for (sd in seeds) {
  stem <- file.path(work, sprintf("%s_n%g_mu%.2f_s%d", fam, n, mu, sd))
  ed <- paste0(stem, ".tsv"); tr <- paste0(stem, ".truth")
  if (!file.exists(tr)) {
    ga <- c("--nodes", format(n, scientific = FALSE), "--edges", format(10 * n, scientific = FALSE),
            "--mixing", mu, "--min-comm", 20, "--max-comm", min(n / 20, 1000), "--seed", sd,
            "--out", ed, "--truth", tr, "--quiet")
    if (fam == "lfr") ga <- c(ga, "--degree-exponent", 2.5, "--comm-exponent", 1.5)
    stopifnot(system2(exogen, ga) == 0)
  }
  truth <- utils::read.delim(tr, header = FALSE, quote = "", col.names = c("V", "C"), colClasses = c("character", "integer"))
  maxc <- max(tabulate(truth$C))
  for (view in views) {
    for (vi in seq_along(variants)) {
      o <- paste0(stem, ".out")
      args <- c(strsplit(variants[vi], " +")[[1]], if (view == "u") "--ignore-weights",
                "--seed", sd * 1000 + round(mu * 100), "--threads", "1", "--stats", "-o", o, ed)
      args <- args[args != ""]
      t0 <- proc.time()[[3]]
      err <- system2(bin, args, stdout = TRUE, stderr = TRUE)
      secs <- proc.time()[[3]] - t0
      cl <- utils::read.delim(o, header = FALSE, quote = "", col.names = c("V", "C"), colClasses = c("character", "character"))
      t <- truth$C[match(cl$V, truth$V)]
      big <- max(table(cl$C))
      rows[[length(rows) + 1]] <- data.frame(nodes = n, fam = fam, mu = mu, seed = sd, view = view,
        method = variants[vi], nmi = ClusterNMI(cl$C, t), k = length(unique(cl$C)), giant = big / maxc, secs = secs)
      message(paste(format(rows[[length(rows)]]), collapse = " "))
    }
    if (doig) {
      cache <- paste0(stem, "_", view, ".ig")
      if (!file.exists(cache)) {
        g <- read_graph(ed, format = "ncol", directed = FALSE, weights = "yes")
        g <- simplify(g, remove.multiple = TRUE, remove.loops = FALSE, edge.attr.comb = list(weight = "sum"))
        if (view == "u") g <- delete_edge_attr(g, "weight")
        t <- truth$C[match(V(g)$name, truth$V)]
        set.seed(sd)
        lp <- membership(cluster_label_prop(g)); le <- membership(cluster_leiden(g, objective_function = "modularity"))
        ig <- data.frame(nodes = n, fam = fam, mu = mu, seed = sd, view = view, method = c("igraph LP", "igraph leiden"),
                         nmi = c(ClusterNMI(lp, t), ClusterNMI(le, t)), k = c(length(unique(lp)), length(unique(le))),
                         giant = c(max(tabulate(lp)), max(tabulate(le))) / maxc, secs = NA)
        saveRDS(ig, cache)
      }
      ig <- readRDS(cache); rows[[length(rows) + 1]] <- ig
      message(paste(format(ig), collapse = " "))
    }
  }
}
res <- do.call(rbind, rows)
write.csv(res, out, row.names = FALSE)
