# Prototype (issue 25, item 3; DEFAULT.md, "The merge threshold"): node-level
# modularity moves (Louvain's local moving, random order, until no node gains)
# started from ExoLabel's default clusters on karate and UKfaculty, seeds 1..9.
#   Rscript benchmarks/quality/refine_moves_proto.R
suppressPackageStartupMessages({library(ExoLabel); library(igraph); library(igraphdata)})
data(karate, package = "igraphdata"); data(UKfaculty, package = "igraphdata")
uk <- as.undirected(UKfaculty, mode = "collapse", edge.attr.comb = list(weight = "sum"))
nmi <- function(a, b) compare(as.integer(factor(a)), as.integer(factor(b)), method = "nmi")
# node-level modularity moves from a partition, nodes in random order, until none gains
move <- function(g, m) {
  A <- as.matrix(as_adjacency_matrix(g, attr = "weight")); k <- rowSums(A); T <- sum(A)
  repeat {
    moved <- 0
    for (v in sample(seq_along(m))) {
      cur <- m[v]; m[v] <- NA
      labs <- unique(m[A[v, ] > 0 & !is.na(m)]); labs <- union(labs, cur)
      vol <- sapply(labs, function(l) sum(k[which(m == l)]))
      w <- sapply(labs, function(l) sum(A[v, which(m == l)]))
      gain <- w - k[v] * vol / T
      best <- labs[which.max(gain)]
      if (gain[labs == best] > gain[labs == cur] + 1e-12) { m[v] <- best; moved <- moved + 1 } else m[v] <- cur
    }
    if (moved == 0) break
  }
  m
}
for (nm in c("karate", "UKfaculty")) {
  g <- if (nm == "karate") karate else uk; tr <- if (nm == "karate") V(karate)$Faction else V(uk)$Group
  f <- tempfile(fileext = ".tsv")
  write.table(data.frame(as_edgelist(g, names = FALSE), E(g)$weight), f, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
  r <- t(sapply(1:9, function(s) {
    set.seed(s); v <- ExoLabel(f, return_table = TRUE, verbose = FALSE)
    m <- as.integer(v$results$Cluster[match(as.character(seq_len(vcount(g))), v$results$Vertex)])
    set.seed(s); m2 <- move(g, m)
    c(nmi(m, tr), length(unique(m)), nmi(m2, tr), length(unique(m2)), modularity(g, m), modularity(g, m2))
  }))
  cat(nm, "median: refine", median(r[,1]), median(r[,2]), " +moves", median(r[,3]), median(r[,4]), " Q", median(r[,5]), median(r[,6]), "\n")
}
