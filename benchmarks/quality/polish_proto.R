# Prototype: ExoLabel's default (LP + merge passes), then Leiden moves by modularity started from its clusters
# Run as: Rscript polish_proto.R real | N MIXINGS SEEDS WORK EXOGEN (benchmarks/quality/DEFAULT.md, session 33)
suppressPackageStartupMessages({library(ExoLabel); library(igraph); library(igraphdata)})
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE)[1])), "planted_case.R"))
args <- commandArgs(TRUE); what <- args[1]
nmi <- function(a, b) compare(as.integer(factor(a)), as.integer(factor(b)), method = "nmi")
polish <- function(g, m, it) membership(cluster_leiden(g, objective_function = "modularity", initial_membership = as.integer(factor(m)), n_iterations = it))
run_case <- function(case, g, f, tr, vx, ign, seeds) {
  for (s in seeds) {
    set.seed(s)
    r <- ExoLabel(f, return_table = TRUE, verbose = FALSE, ignore_weights = ign, threads = 1)$results
    m <- r$Cluster[match(vx, r$Vertex)]
    set.seed(s); p2 <- polish(g, m, 2)
    set.seed(s); pv <- polish(g, m, -1)
    set.seed(s); ld <- membership(cluster_leiden(g, objective_function = "modularity"))
    set.seed(s); lp <- membership(cluster_label_prop(g))
    cat(sprintf("%s s=%d default %.4f(%d) polish2 %.4f(%d) polishconv %.4f(%d) igraph-leiden %.4f(%d) igraph-lp %.4f\n", case, s,
      nmi(m, tr), length(unique(m)), nmi(p2, tr), length(unique(p2)), nmi(pv, tr), length(unique(pv)), nmi(ld, tr), length(unique(ld)), nmi(lp, tr)))
  }
}
if (what == "real") {
  data(karate, package = "igraphdata"); data(UKfaculty, package = "igraphdata")
  uk <- as.undirected(UKfaculty, mode = "collapse", edge.attr.comb = list(weight = "sum"))
  for (nm in c("karate", "UKfaculty")) {
    g <- if (nm == "karate") karate else uk; tr <- if (nm == "karate") V(g)$Faction else V(g)$Group
    f <- tempfile(fileext = ".tsv")
    write.table(data.frame(as_edgelist(g, names = FALSE), E(g)$weight), f, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
    run_case(nm, g, f, tr, as.character(seq_len(vcount(g))), FALSE, 1:9)
    unlink(f)
  }
} else {
  n <- as.numeric(what); mixes <- as.numeric(strsplit(args[2], ",")[[1]]); seeds <- as.integer(strsplit(args[3], ",")[[1]]); work <- args[4]; exogen <- args[5]
  dir.create(work, showWarnings = FALSE)
  for (mu in mixes) for (s in seeds) {
    pc <- planted_case(work, exogen, n, mu, s); f <- pc$f; gr <- pc$gr; vx <- pc$vx; tr <- pc$tr
    for (view in c("weighted", "unweighted")) {
      gg <- if (view == "weighted") gr else delete_edge_attr(gr, "weight")
      run_case(sprintf("n=%g mu=%.2f %s", n, mu, view), gg, f, tr, vx, view == "unweighted", s)
    }
  }
}
