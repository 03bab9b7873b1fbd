# Prototype: ExoLabel's default (LP + merge passes), then Leiden moves by modularity started from its clusters
# Run as: Rscript polish_proto.R real | likelihood | N MIXINGS SEEDS WORK EXOGEN (benchmarks/quality/DEFAULT.md, session 33)
# With POLISH_RES=g1,g2,... (session 35) it runs instead, for each resolution g, the
# moves and igraph's Leiden from scratch by modularity at resolution g, and prints
# one tab-separated row per run: case, seed, method, NMI, clusters.
suppressPackageStartupMessages({library(ExoLabel); library(igraph); library(igraphdata)})
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE)[1])), "planted_case.R"))
args <- commandArgs(TRUE); what <- args[1]
nmi <- function(a, b) compare(as.integer(factor(a)), as.integer(factor(b)), method = "nmi")
polish <- function(g, m, it, res = 1) membership(cluster_leiden(g, objective_function = "modularity", resolution_parameter = res,
  initial_membership = if (is.null(m)) NULL else as.integer(factor(m)), n_iterations = it))
gams <- as.numeric(strsplit(Sys.getenv("POLISH_RES"), ",")[[1]])
# The resolution at which modularity is the likelihood of a degree-corrected planted
# partition model fitted to partition p (Newman 2016): w_in, w_out from the weight
# inside the clusters and the clusters' squared strengths.
# ppm_fit also gives the model's log-likelihood at those w_in, w_out (up to terms
# that do not depend on the partition).
ppm_fit <- function(g, p) {
  w <- if (is.null(E(g)$weight)) rep(1, ecount(g)) else E(g)$weight
  st <- strength(g, weights = w); two_m <- sum(st); el <- ends(g, E(g), names = FALSE)
  inside <- 2 * sum(w[p[el[, 1]] == p[el[, 2]]]); sq <- sum(tapply(st, p, sum)^2) / two_m
  w_in <- inside / sq; w_out <- (two_m - inside) / (two_m - sq)
  if (w_out <= 0 || w_in <= w_out) return(c(gamma = NA, loglik = NA))
  c(gamma = (w_in - w_out) / (log(w_in) - log(w_out)),
    loglik = inside / 2 * log(w_in) + (two_m - inside) / 2 * log(w_out) - (w_in - w_out) * sq / 2 - w_out * two_m / 2)
}
ml_gamma <- function(g, p) ppm_fit(g, p)[["gamma"]]
# Leiden by modularity at the fitted resolution, refitted from each result until it
# settles (at most 20 rounds); start from partition m (or from scratch, gamma 1).
ml_resolution <- function(g, m) {
  gm <- if (is.null(m)) 1 else ml_gamma(g, as.integer(factor(m))); p <- m
  for (it in 1:20) {
    if (is.na(gm)) break
    p <- polish(g, p, 2, gm); g2 <- ml_gamma(g, p)
    if (is.na(g2) || abs(g2 - gm) < 1e-3 * gm) { gm <- if (is.na(g2)) gm else g2; break }
    gm <- g2
  }
  list(m = if (is.null(p)) rep(1L, vcount(g)) else p, g = gm, it = it)
}
run_case <- function(case, g, f, tr, vx, ign, seeds) {
  for (s in seeds) {
    set.seed(s)
    r <- ExoLabel(f, return_table = TRUE, verbose = FALSE, ignore_weights = ign, threads = 1)$results
    m <- r$Cluster[match(vx, r$Vertex)]
    if (length(gams)) {
      row <- function(meth, p) cat(sprintf("%s\t%d\t%s\t%.4f\t%d\n", case, s, meth, nmi(p, tr), length(unique(p))))
      row("default", m)
      for (gm in gams) { set.seed(s); row(sprintf("polish%.2f", gm), polish(g, m, 2, gm)) }
      for (gm in gams) { set.seed(s); row(sprintf("leiden%.2f", gm), polish(g, NULL, 2, gm)) }
      if (nzchar(Sys.getenv("POLISH_ML"))) { # resolution from the partition (planted-partition likelihood), iterated
        set.seed(s); a <- ml_resolution(g, m); row(sprintf("mlpolish(g=%.3f,it=%d)", a$g, a$it), a$m)
        set.seed(s); a <- ml_resolution(g, NULL); row(sprintf("mlleiden(g=%.3f,it=%d)", a$g, a$it), a$m)
      }
      next
    }
    set.seed(s); p2 <- polish(g, m, 2)
    set.seed(s); pv <- polish(g, m, -1)
    set.seed(s); ld <- membership(cluster_leiden(g, objective_function = "modularity"))
    set.seed(s); lp <- membership(cluster_label_prop(g))
    cat(sprintf("%s s=%d default %.4f(%d) polish2 %.4f(%d) polishconv %.4f(%d) igraph-leiden %.4f(%d) igraph-lp %.4f\n", case, s,
      nmi(m, tr), length(unique(m)), nmi(p2, tr), length(unique(p2)), nmi(pv, tr), length(unique(pv)), nmi(ld, tr), length(unique(ld)), nmi(lp, tr)))
  }
}
# the two real networks with their known groups, as general_default_real.R reads them
real_cases <- function() {
  data(karate, package = "igraphdata"); data(UKfaculty, package = "igraphdata")
  uk <- as.undirected(UKfaculty, mode = "collapse", edge.attr.comb = list(weight = "sum"))
  list(karate = list(g = karate, tr = V(karate)$Faction), UKfaculty = list(g = uk, tr = V(uk)$Group))
}
if (what == "likelihood") { # the model's fit of the known groups and of igraph Leiden's partitions at several resolutions
  rc <- real_cases()
  for (nm in names(rc)) {
    g <- rc[[nm]]$g; tr <- rc[[nm]]$tr
    f <- ppm_fit(g, as.integer(factor(tr)))
    cat(sprintf("%s\tknown groups\t1.0000\t%d\t%.3f\t%.2f\n", nm, length(unique(tr)), f[1], f[2]))
    for (gm in c(0.25, 0.5, 0.75, 1, 1.25, 1.5, 2)) {
      set.seed(1); p <- polish(g, NULL, -1, gm); f <- ppm_fit(g, p)
      cat(sprintf("%s\tleiden%.2f\t%.4f\t%d\t%.3f\t%.2f\n", nm, gm, nmi(p, tr), length(unique(p)), f[1], f[2]))
    }
  }
} else if (what == "real") {
  rc <- real_cases()
  for (nm in names(rc)) {
    g <- rc[[nm]]$g; tr <- rc[[nm]]$tr
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
